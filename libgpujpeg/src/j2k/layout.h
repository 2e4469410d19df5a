/*
 * The GPU's view of a decoded codestream: flat tables built from the tiles' T2
 * state (layout.c) for the kernels of j2k_t1.h, j2k_dwt.h and j2k_output.h.
 */
#ifndef GJ_J2K_LAYOUT_H
#define GJ_J2K_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/frame.h"
#include "j2k/tile.h"
#include "kernels/j2k_params.h"

/* One step of the IDWT: jobs [first, first + count) in one direction, one filter. */
typedef struct j2k_dwt_pass {
    uint32_t first, count;
    uint64_t threads;               /* samples */
    uint64_t groups;                /* work-groups of gj_j2k_idwt_lines */
    uint32_t max_line;              /* samples of its longest line */
    int irreversible;
    int vertical;
    int long_lines;                 /* some columns take the kernels of GJ_J2K_DWT_LONG_LINE samples */
    /* A horizontal step and the vertical one after it over the same jobs may go through a
     * scratch of scratch_bytes (j2k_params.h): set on both. The vertical step then takes
     * column_groups work-groups of gj_j2k_idwt_columns. */
    int scratch_pair;
    uint64_t scratch_bytes;
    uint64_t column_groups;
    uint32_t min_line;              /* samples of its shortest line */
} j2k_dwt_pass;

/*
 * A plane of the planar output stage (gj_j2k_output_planar): one component, its
 * tiles' jobs, and where its samples go. A YUV picture's planes are the frame's;
 * a components decode's (l->components) lie in one buffer, at offset.
 */
typedef struct j2k_out_plane {
    int comp;
    int width, height;              /* the component's size in the decoded picture */
    uint32_t first, count;          /* its jobs: plane_jobs[first, first + count) */
    uint64_t threads;
    uint32_t precision, shift;      /* the component's bits; shift: up to the sample's MSB */
    int is_signed;
    uint32_t bytes;                 /* per sample: 1 or 2 */
    uint64_t offset;                /* components decode: the plane's first byte in the buffer */
    int linesize;                   /* components decode: bytes per row */
    int interleaved;                /* written by the interleaved stage instead (components 0-2 there) */
} j2k_out_plane;

/* Bytes uploaded one after the other as T1's data. */
typedef struct j2k_data_run {
    const uint8_t *data;
    size_t size;
} j2k_data_run;

typedef struct j2k_layout {
    gj_j2k_cblk *cblks;
    size_t nb_cblks, cblks_cap;
    gj_j2k_cblk *placed;            /* the code-blocks of the early T1 launch (j2k/early.h), in its */
    size_t nb_placed, placed_cap;   /* order: where they go, no data (not in cblks) */
    uint64_t *sort_keys;            /* scratch of the code-blocks' sort, kept for the next picture */
    gj_j2k_cblk *sort_cblks;
    size_t sort_cap;
    uint32_t *segments;
    size_t nb_segments, segments_cap;
    uint8_t *data;                  /* code-block bytes joined on the host, when they must be */
    size_t data_size, data_cap;     /* data_size: T1's data in all (every run) */
    j2k_data_run *runs;             /* what T1's data is made of: the tile bodies or data; they */
    size_t nb_runs, runs_cap;       /* may point into the input picture (valid until the upload) */
    int bodies_direct;
    size_t body_base;               /* while building: where the current tile's body starts */
    size_t coef_count;              /* coefficients of every tile-component, at the decoded size */
    int wide;                       /* stored in 32 bits, else 16 (j2k/coef_range.c, kernels/j2k_coef.h) */
    int force_wide;                 /* set by the caller: 32 bits whatever the bound (GJ_J2K_WIDE=1) */
    int worst_case;                 /* set by the caller: 9/7 fractions from the worst-case bound */
    int unsorted;                   /* set by the caller: code-blocks in T2's order, not by work */
                                    /* (a batch's join orders them: t1_merge.h) */
    int optimistic;                 /* 16-bit 9/7 fractions beyond the worst case's somewhere: the IDWT's */
                                    /* stores may saturate (coef_range.h), the decode checks (decoder.c) */
    gj_j2k_dwt_job *jobs;
    size_t nb_jobs, jobs_cap;
    j2k_dwt_pass *passes;
    size_t nb_passes, passes_cap;
    int dwt_in_place;               /* every line fits gj_j2k_idwt_lines: no second buffer */
    gj_j2k_out_tile *out_tiles;     /* interleaved output: every component of a pixel at once */
    size_t nb_out_tiles, out_tiles_cap;
    uint64_t out_threads;
    int planar;                     /* planar output: the planes' jobs (and out_tiles for components 0-2 */
                                    /* of a components decode with out.nb_comps 3) */
    int components;                 /* set by the caller: a components decode (gj_j2k_decode_components) */
    j2k_out_plane *planes;          /* set by host_decode.c before the build, which adds their jobs */
    size_t nb_planes, planes_cap;
    gj_j2k_plane_job *plane_jobs;
    size_t nb_plane_jobs, plane_jobs_cap;
    gj_j2k_out_params out;          /* nb_comps, precision, signedness (the caller adds the pixel layout) */
    int out_width, out_height;      /* the decoded picture (host_decode.c: known before T2); for a */
                                    /* components decode, the gray8 buffer holding the planes */
    uint16_t *palette;              /* a JP2 palette (out.palette_entries x out.palette_columns), or NULL */
    enum gj_pixel_format native_format;
    j2k_tile_cache *tile_cache;     /* the tiles' states, kept for the next picture (host_decode.c) */
} j2k_layout;

/*
 * Whether the interleaved output stage (out_tiles) runs: for every picture with
 * packed output, and for a components decode whose components 0-2 transform
 * together (host_decode.c sets out.nb_comps for them).
 */
static inline int j2k_layout_interleaved(const j2k_layout *l)
{
    return !l->planar || (l->components && l->out.nb_comps);
}

/*
 * Builds the tables for the tiles (every tile of s, T2 done) decoded at
 * 1/2^reduce of the full size, for interleaved or (l->planar set) planar output
 * (into l->planes, which the caller sets up).
 * Returns 0 or a negative code (picture too large, ...).
 */
int j2k_layout_build(j2k_layout *l, const gj_j2k_stream *s, j2k_tile_state *tiles, int reduce);
/*
 * For the early T1 launch (j2k/early.c): appends code-block cb of band `band` of
 * component c of tile ts (at place) with its segments and data (joined: l->bodies_direct
 * must be 0), its coefficients at coef_offset of a buffer of their own, a row of
 * width after another, as T1's signed magnitudes (no dequantisation).
 */
int j2k_layout_add_early(j2k_layout *l, const j2k_tile_state *ts, int c, const j2k_band *band,
                         const j2k_codeblock *cb, j2k_rect place, uint32_t coef_offset);
/* Orders l->cblks by work, as j2k_layout_build() does. */
int j2k_layout_sort_by_work(j2k_layout *l);
/* Empties the tables, keeping their memory for the next picture. */
void j2k_layout_reset(j2k_layout *l);
void j2k_layout_free(j2k_layout *l);

#endif /* GJ_J2K_LAYOUT_H */
