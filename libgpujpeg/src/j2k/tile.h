/*
 * One tile's structure (T.800 B.5-B.7): tile-components, resolutions, sub-bands,
 * precincts and code-blocks, with the T2 state of every code-block (tile.c builds
 * it, t2.c fills it from the packets). The states are kept from one picture to the
 * next (j2k_tile_cache): a video's pictures share their geometry.
 */
#ifndef GJ_J2K_TILE_H
#define GJ_J2K_TILE_H

#include <stdint.h>

#include "j2k/codestream.h"
#include "j2k/tag_tree.h"

enum j2k_orientation { J2K_LL = 0, J2K_HL = 1, J2K_LH = 2, J2K_HH = 3 };

/*
 * Every tile's structure is built at once, a few hundred bytes a resolution of each
 * tile-component whatever the picture's size: a codestream of a few hundred bytes
 * may declare 65535 tiles of 16384 components and 33 resolutions (terabytes). The
 * decoder refuses more resolutions than this in all, about 1 GB of host memory; the
 * Part 4 conformance codestreams need at most 5400, and 65535 tiles of three
 * components and six levels 1.4 million.
 */
#define J2K_MAX_TILE_RESOLUTIONS (1u << 21)

/*
 * T2 marks each packet it reads (packet_done), and a tile's packets are its
 * precincts times its layers: 8 x 12 samples in 12x12 tiles, 2x2 precincts and 15,105
 * layers made 453,150 a tile, a 257-byte codestream 5 GB of marks over its 10,924
 * tiles. Only tiles with a tile-part keep marks, and the decoder refuses more than this
 * in all of them (as many as one tile may have).
 */
#define J2K_MAX_PACKETS ((size_t)1 << 26)

/*
 * A code-block costs the host a few hundred bytes of T2 state, precinct and tag tree
 * whether the codestream codes it or not, and 2x2 precincts make code-blocks of one
 * sample: a 300-byte codestream of 30000 x 30000 samples ran out of 8 GB. The decoder
 * refuses more than this in all tiles (a picture of 2^31 samples in 32x32 code-blocks
 * has 2^21).
 */
#define J2K_MAX_CBLKS ((size_t)1 << 22)

/* A coded segment of a code-block (its passes up to a termination, B.10.7). */
typedef struct j2k_segment {
    uint32_t length;
    uint16_t passes, max_passes;
    int32_t next;               /* next segment of the same code-block, -1 at the end */
} j2k_segment;

/* A piece of a code-block's data, in a packet body of the tile's data. */
typedef struct j2k_chunk {
    uint32_t offset, length;
    int32_t next;
} j2k_chunk;

/*
 * A code-block's T2 state; j2k_tile_init() resets it. Its place follows from its
 * precinct-band (j2k_codeblock_rect()): the state is all T2 touches, 32 bytes, two
 * to a cache line (a DCI 4K picture has 26,000 of them).
 *
 * A state (and the zero bit-plane tree) leaves the reset one only when its
 * code-block is included, and its precinct-band's `included` is set first: the
 * code-blocks of a precinct-band without it are not read nor reset (three in four
 * of a DCI 4K picture's).
 */
typedef struct j2k_codeblock {
    uint8_t included;           /* appeared in a packet before */
    uint8_t len_bits;           /* Lblock, at most 32 */
    int16_t coded_planes;       /* Mb + ROI shift - P, the bit-planes the coder may send */
    int32_t passes;             /* coding passes received */
    uint32_t bytes;             /* data received */
    int32_t first_seg, last_seg;
    int32_t first_chunk, last_chunk;
    uint32_t early;             /* 1 + its place in the early T1 launch (j2k/early.c), 0 if none */
} j2k_codeblock;

/* A rectangle in sub-band coordinates. */
typedef struct j2k_rect {
    int x0, y0, x1, y1;
} j2k_rect;

typedef struct j2k_precinct_band {
    int cblk_x0, cblk_y0;       /* code-block grid index of the first one */
    int cw, ch;                 /* code-blocks across and down (0: none) */
    j2k_rect area;              /* the precinct in the sub-band, cut to it */
    int first_cblk;             /* index into the tile's code-blocks */
    int included;               /* some of them appeared in a packet before (see j2k_codeblock) */
    j2k_tag_tree inclusion, zero_planes;
} j2k_precinct_band;

typedef struct j2k_band {
    int orientation;
    int x0, y0, x1, y1;         /* sub-band coordinates (B-15) */
    int cblk_w_exp, cblk_h_exp; /* xcb', ycb' (B.7) */
    int prec_w_exp, prec_h_exp; /* the precinct partition in this band */
    int mb;                     /* Mb = G + exponent - 1 (E-2) */
    int exponent, mantissa;     /* step size (E.1) */
    int log2_gain;              /* 0, 1 or 2 (E-4) */
    int mallat_x, mallat_y;     /* top-left in the tile-component's coefficient layout */
} j2k_band;

typedef struct j2k_resolution {
    int x0, y0, x1, y1;         /* B-14 */
    int prec_w_exp, prec_h_exp;
    int pw, ph;                 /* precincts across and down */
    int nb_bands;
    j2k_band bands[3];
    j2k_precinct_band *precincts;   /* pw * ph * nb_bands, precinct-major (in the tile's); NULL if none */
    size_t packet_base;         /* this resolution's first entry in packet_done */
} j2k_resolution;

typedef struct j2k_tile_component {
    int x0, y0, x1, y1;         /* B-12 */
    int nb_res;                 /* NL + 1 */
    j2k_resolution *res;        /* nb_res of them, in the tile state's `resolutions` */
} j2k_tile_component;

typedef struct j2k_tile_state {
    int index;
    int x0, y0, x1, y1;         /* on the reference grid (B-7) */
    const j2k_tile *tile;
    int nb_comps;
    j2k_tile_component *comps;
    size_t comps_capacity;
    /* Every component's resolutions, one after another: as many as the tile codes (a
     * picture of 65,535 tiles of one pixel keeps a state for each, so no fixed 33). */
    j2k_resolution *resolutions;
    size_t resolutions_capacity;
    j2k_codeblock *cblks;
    int nb_cblks;
    size_t cblks_capacity;
    j2k_precinct_band *precincts;   /* every resolution's, one after another */
    size_t nb_precincts, precincts_capacity;
    j2k_tag_node *tag_nodes;    /* every tag tree's nodes */
    size_t nb_tag_nodes, tag_nodes_capacity;
    j2k_segment *segs;
    size_t nb_segs, segs_capacity;
    j2k_chunk *chunks;
    size_t nb_chunks, chunks_capacity;
    uint8_t *packet_done;       /* per (component, resolution, precinct, layer): decoded (POC) */
    size_t packet_done_capacity;
    size_t nb_packets;          /* packet_done's entries: none without a tile-part (nothing to read) */
    int truncated;              /* the packets ended early */
    int shaped;                 /* the precincts, code-blocks and tag trees are complete: */
                                /* the next picture of this geometry keeps them */
} j2k_tile_state;

/*
 * Builds the structure of tile `index` of s (which must have its parameters), with
 * no packet read. ts is zeroed, or the state of a picture before (whether its
 * decode succeeded or not): its memory is reused, and its precincts, code-blocks
 * and tag trees too if their geometry is the same (then only their T2 state is reset).
 */
int j2k_tile_init(j2k_tile_state *ts, const gj_j2k_stream *s, int index);

/* The resolutions of all of tile t's components (its parameters set): what its state holds. */
size_t j2k_tile_resolutions(const j2k_tile *t, int nb_comps);

/* The tiles' states of a decoder's pictures (j2k_layout.tile_cache). */
typedef struct j2k_tile_cache j2k_tile_cache;

/*
 * nb_tiles states for j2k_tile_init() in *tiles: those of the picture before, the
 * same tile at the same index (a zeroed state for a new index). *cache is created
 * at the first call.
 */
int j2k_tile_cache_get(j2k_tile_cache **cache, int nb_tiles, j2k_tile_state **tiles);
void j2k_tile_cache_free(j2k_tile_cache *cache);

/* The state of every code-block before the tile's first packet. */
extern const j2k_codeblock j2k_codeblock_reset;

/*
 * The states of pb's code-blocks, in raster order: the reset one for all if none
 * was included (*step 0), else the tile's (*step 1).
 */
static inline const j2k_codeblock *j2k_precinct_band_cblks(const j2k_tile_state *ts, const j2k_precinct_band *pb,
                                                          int *step)
{
    *step = pb->included;
    return pb->included ? &ts->cblks[pb->first_cblk] : &j2k_codeblock_reset;
}

/* B.7: code-block (x, y) of pb in band: its cell of the band's grid, cut to the precinct. */
static inline j2k_rect j2k_codeblock_rect(const j2k_precinct_band *pb, const j2k_band *band, int x, int y)
{
    int64_t cx0 = (int64_t)(pb->cblk_x0 + x) << band->cblk_w_exp;
    int64_t cy0 = (int64_t)(pb->cblk_y0 + y) << band->cblk_h_exp;
    int64_t cx1 = cx0 + ((int64_t)1 << band->cblk_w_exp), cy1 = cy0 + ((int64_t)1 << band->cblk_h_exp);

    return (j2k_rect){ (int)(cx0 > pb->area.x0 ? cx0 : pb->area.x0), (int)(cy0 > pb->area.y0 ? cy0 : pb->area.y0),
                       (int)(cx1 < pb->area.x1 ? cx1 : pb->area.x1), (int)(cy1 < pb->area.y1 ? cy1 : pb->area.y1) };
}

/* The precinct-band of (resolution r, precinct p, band b). */
static inline j2k_precinct_band *j2k_precinct_band_at(const j2k_resolution *r, int p, int b)
{
    return &r->precincts[(size_t)p * r->nb_bands + b];
}

#endif /* GJ_J2K_TILE_H */
