/*
 * What the host tells the JPEG 2000 kernels (shared by host C and kernels):
 * code-blocks for T1, transform jobs for the IDWT, tiles for the output stage.
 */
#ifndef GJ_KERNELS_J2K_PARAMS_H
#define GJ_KERNELS_J2K_PARAMS_H

#include "common.h"

/* Threads per code-block in T1 (j2k_t1.h): a warp; code-blocks per work-group of the one-picture kernel. */
#define GJ_J2K_T1_LANES 32
#define GJ_J2K_T1_BLOCKS 2
/* Warps per work-group of the batch kernels (j2k_t1.h): four share one copy of the tables
 * (more would pass the 48 KiB of local memory a work-group may declare). */
#define GJ_J2K_T1_BATCH_WARPS 4
/*
 * T1's state words (or half-words, j2k_t1.h) per code-block: one per column of a
 * stripe of 4 rows, and a zero column between stripes (the right neighbour of one
 * stripe's last column and the left one of the next stripe's first), plus one
 * before the first stripe.
 * Code-blocks of at most 4096 samples, neither side above 1024 (A.6.1), need at
 * most 1024 / 4 * (4 + 1) + 1.
 */
#define GJ_J2K_T1_WORDS 1281
/* ... and code-blocks of at most 64x64 (opj_compress's and FFmpeg's default) 16 * 65 + 1. */
#define GJ_J2K_T1_WORDS_64 1041
/* ... and of at most 32x32 (the DCI profiles') 8 * 33 + 1. */
#define GJ_J2K_T1_WORDS_32 265
#define GJ_J2K_T1_WORDS_OF(w, h) ((((gj_u32)(h) + 3u) / 4u) * ((gj_u32)(w) + 1u) + 1u)

/* Code-block style bits, as in COD's SPcod (T.800 Table A.19). */
#define GJ_J2K_BYPASS  0x01u
#define GJ_J2K_RESET   0x02u
#define GJ_J2K_TERMALL 0x04u
#define GJ_J2K_VCAUSAL 0x08u
#define GJ_J2K_SEGSYM  0x20u

/*
 * Fractional bits of the 9/7 path's fixed-point coefficients (j2k_dwt.h, j2k_output.h):
 * 13, fewer for deep samples so that the transform's values stay within 31 bits.
 */
#define GJ_J2K_FRAC_BITS(precision) ((precision) > 13 ? 26 - (precision) : 13)

/*
 * One code-block. Its segments are seg_count consecutive entries of the segment
 * table from seg_first, each (passes << 24 | length); their bytes follow each other
 * from data_offset. The decoded coefficients go to coef[coef_offset + y * stride + x]:
 * integers for the 5/3 path, fixed point for the 9/7 path (GJ_J2K_FRAC_BITS(precision)
 * fractional bits in 32-bit coefficients, fewer in 16-bit ones: j2k/coef_range.c).
 */
typedef struct gj_j2k_cblk {
    gj_u32 data_offset;
    gj_u32 seg_first;
    gj_u32 coef_offset;
    gj_u32 stride;
    gj_u16 width, height;
    gj_u16 seg_count, passes;
    gj_u8 orientation;          /* 0 LL, 1 HL, 2 LH, 3 HH */
    gj_u8 planes;               /* Mb - zero bit-planes (+ ROI shift): the first pass's bit-plane + 1 */
    gj_u8 style;
    gj_u8 roi_shift;
    gj_u32 step_mult;           /* 9/7: 2048 + mantissa; 0: reversible (5/3) */
    gj_i32 step_shift;          /* 9/7: the step's power of two (see j2k_t1.h) */
} gj_j2k_cblk;

/*
 * One 1-D inverse transform step over a w x h region of a tile-component's
 * coefficients (j2k_dwt.h). thread_first: this job's first thread in a launch of
 * one thread per sample; group_first: its first work-group in a launch of
 * work-groups of `lines` adjacent lines each (rows of a horizontal step, columns
 * of a vertical one, so that their reads and writes share memory sectors).
 */
typedef struct gj_j2k_dwt_job {
    gj_u32 thread_first;
    gj_u32 group_first;
    gj_u32 offset;              /* the region's top-left coefficient */
    gj_u32 stride;
    gj_u32 width, height;
    gj_u32 low_count;           /* low-pass samples along the direction */
    gj_u32 parity;              /* the first sample's coordinate is odd */
    gj_u32 vertical;
    gj_u32 lines;               /* lines per work-group of gj_j2k_idwt_lines */
    gj_u32 shift_in;            /* 9/7 in 16-bit coefficients: GJ_J2K_FRAC_BITS() minus the stored fraction */
    gj_u32 shift_out;           /* of the values read, and of those written (a level's output has the next's) */
    gj_u32 scratch_at;          /* a level through the scratch: the region's first sample there, rows width apart */
    gj_u32 column_group_first;  /* its first work-group in a launch of gj_j2k_idwt_columns */
} gj_j2k_dwt_job;

/* Where column_group_first lies in a job, in 32-bit words (gj_j2k_find_job). */
#define GJ_J2K_DWT_JOB_COLUMN_GROUP 13

/*
 * The in-place IDWT (gj_j2k_idwt_rows, gj_j2k_idwt_lines) holds its lines in local
 * memory: lines up to this many samples; pictures with longer ones take the
 * two-buffer kernels.
 * A work-group takes up to GJ_J2K_DWT_LINES adjacent lines, as many as the local
 * memory holds: 32 columns of 16-bit coefficients fill two memory sectors.
 * Its GJ_J2K_DWT_GROUP lanes share one local array, so the SM holds as many
 * warps as local memory allows (8 work-groups of 32 KiB on an H100/H200).
 */
#define GJ_J2K_DWT_LINE 8192
#define GJ_J2K_DWT_GROUP 256
#define GJ_J2K_DWT_LINES 32
/*
 * Vertical steps of columns longer than GJ_J2K_DWT_LINE / 4 take kernels that hold
 * more (48,000 bytes, within the 48 KiB a work-group may declare): columns of 2160
 * samples go five to a work-group, not three. Their warps read sectors of which
 * they use a few bytes a column, and the sectors' count sets their time (an H200:
 * 4K 9/7 finest level 245 -> 210 us). Shorter columns keep the smaller kernels,
 * whose work-groups an SM holds more of (1024 rows were slower in the large ones).
 */
#define GJ_J2K_DWT_LONG_LINE 12000

/*
 * Levels with such long columns may go through a scratch instead (the output
 * picture's memory, which only the output stage writes later): the horizontal
 * step writes its rows there, and gj_j2k_idwt_columns lifts the columns from there
 * back into place, a work-group of GJ_J2K_DWT_COLUMNS adjacent columns, a thread
 * per column and GJ_J2K_DWT_SEGMENT rows (lifted in registers), without local
 * memory. Columns shorter than GJ_J2K_DWT_MIN_COLUMN keep the in-place kernels.
 */
#define GJ_J2K_DWT_COLUMNS 64
#define GJ_J2K_DWT_SEGMENT 32
#define GJ_J2K_DWT_MIN_COLUMN 64

/*
 * Horizontal steps (gj_j2k_idwt_rows, j2k_dwt_rows.h) take rows of up to
 * GJ_J2K_DWT_LINE samples into local memory, symmetric extension included, and
 * each lane lifts GJ_J2K_DWT_SEGMENT adjacent samples of its row in registers.
 * Local memory skips a word every GJ_J2K_DWT_SEGMENT samples, so that lanes a
 * segment apart read different banks: a row takes GJ_J2K_DWT_ROW_PITCH words, a
 * work-group GJ_J2K_DWT_ROW_LINES rows (its lanes and GJ_J2K_DWT_ROW_WORDS words
 * allowing: every row of 1024 samples and more fills the work-group's lanes).
 */
#define GJ_J2K_DWT_ROW_WORDS 8976
#define GJ_J2K_DWT_ROW_LANES(n) (((n) + GJ_J2K_DWT_SEGMENT - 1u) / GJ_J2K_DWT_SEGMENT)
#define GJ_J2K_DWT_ROW_PITCH(n) ((GJ_J2K_DWT_SEGMENT + 1u) * (GJ_J2K_DWT_ROW_LANES(n) + 1u))
#define GJ_J2K_DWT_ROW_LINES(n)                                                                                    \
    gj_min(gj_min((gj_u32)GJ_J2K_DWT_LINES, GJ_J2K_DWT_GROUP / GJ_J2K_DWT_ROW_LANES(n)),                          \
           GJ_J2K_DWT_ROW_WORDS / GJ_J2K_DWT_ROW_PITCH(n))

/* One tile's component planes for the output stage (j2k_output.h). A row goes in
 * chunks of GJ_J2K_OUT_LANES x GJ_J2K_OUT_PIXELS pixels, GJ_J2K_OUT_LANES threads a
 * chunk, each taking every GJ_J2K_OUT_LANES-th pixel of it from its own. */
#define GJ_J2K_MAX_OUT_COMPS 4
#define GJ_J2K_OUT_PIXELS 4
#define GJ_J2K_OUT_LANES 32
/* A tile's threads: a chunk's for every chunk of every row (also past the row's end). */
#define GJ_J2K_OUT_THREADS(width, height) \
    ((gj_u64)(((width) + GJ_J2K_OUT_LANES * GJ_J2K_OUT_PIXELS - 1) / (GJ_J2K_OUT_LANES * GJ_J2K_OUT_PIXELS)) * \
     GJ_J2K_OUT_LANES * (height))
typedef struct gj_j2k_out_tile {
    gj_u32 thread_first;
    gj_u32 x0, y0, width, height;   /* in output pixels */
    gj_u32 mct;                     /* 1: inverse RCT (5/3) or ICT (9/7) of components 0-2 */
    gj_u32 coef_offset[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 stride[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 frac_bits[GJ_J2K_MAX_OUT_COMPS];   /* 9/7: the stored fixed-point fraction; 0: 5/3 integers */
} gj_j2k_out_tile;

/* One tile-component's plane for the planar output stage (j2k_output.h), in plane samples. */
typedef struct gj_j2k_plane_job {
    gj_u32 thread_first;
    gj_u32 x0, y0, width, height;
    gj_u32 coef_offset, stride;
    gj_u32 frac_bits;               /* 9/7: fixed-point fraction; 0: 5/3 integers */
} gj_j2k_plane_job;

/* The picture: one pixel layout for every tile. */
/* A channel taken from its component as it is, not through the palette. */
#define GJ_J2K_DIRECT 0xFFFFFFFFu

typedef struct gj_j2k_out_params {
    gj_u32 nb_comps;                /* components 0 to nb_comps - 1 ... */
    gj_u32 read_mask;               /* ... of those, the ones read (a bit each): those of component 0's size */
    gj_u32 precision[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 is_signed[GJ_J2K_MAX_OUT_COMPS];
    /* Channels written, each from a component, directly or through a palette column
     * (a JP2 file's cmap and pclr boxes, I.5.3.4-5): palette_entries rows of palette_columns. */
    gj_u32 nb_channels;
    gj_u32 channel_comp[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 channel_column[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 palette_entries, palette_columns;
    gj_u32 shift[GJ_J2K_MAX_OUT_COMPS];   /* per channel: left shift to the output's depth (MSB-aligned, as FFmpeg) */
    gj_u32 bytes_per_sample;        /* 1 or 2 */
    gj_u32 pixel_stride;            /* bytes from one pixel to the next (interleaved) */
    gj_u32 channel_step;            /* bytes from one channel to the next: the sample's, or a plane's */
    gj_u32 pitch;                   /* bytes per output row */
    gj_u32 offset_lo, offset_hi;    /* the picture's first byte in the output buffer */
} gj_j2k_out_params;

#endif /* GJ_KERNELS_J2K_PARAMS_H */
