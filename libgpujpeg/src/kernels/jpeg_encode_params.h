/*
 * JPEG encoding parameters shared by the host pipeline (jpeg/encoder.c) and the
 * encoding kernels. Only fixed-size 32-bit fields, so host C and OpenCL C agree
 * on the layout.
 */
#ifndef GJ_KERNELS_JPEG_ENCODE_PARAMS_H
#define GJ_KERNELS_JPEG_ENCODE_PARAMS_H

#include "common.h"

/* What the input picture is. */
enum gj_enc_layout {
    GJ_ENC_IN_PACKED_RGB,   /* rgb24/rgba/bgra: converted to YCbCr or gray planes first (jccolor.c) */
    GJ_ENC_IN_PLANES,       /* gray8 or planar YCbCr: component c reads plane c as it is */
};

/* Threads per work-group of the block kernels; the FDCT kernel handles 8 blocks per group. */
#define GJ_ENC_GROUP 64
#define GJ_ENC_BLOCKS_PER_FDCT_GROUP (GJ_ENC_GROUP / 8)
#define GJ_ENC_MAX_SLOTS 10

/* One block slot of the MCU (T.81 A.2.3): its component and place inside the MCU. */
typedef struct gj_enc_slot {
    gj_u32 comp;
    gj_u32 block_x;         /* in blocks, inside the MCU */
    gj_u32 block_y;
    gj_u32 prev_slot;       /* the previous block of the same component, this MCU or the last */
    gj_u32 prev_in_last_mcu;/* 1: prev_slot belongs to the previous MCU (a DC predictor boundary) */
    gj_u32 table;           /* quantisation and Huffman table set: 0 luma, 1 chroma */
} gj_enc_slot;

typedef struct gj_enc_component {
    gj_u32 h, v;            /* sampling factors */
    gj_u32 blocks_w;        /* blocks holding picture samples: ceil(ceil(W * h / hmax) / 8) */
    gj_u32 blocks_h;
    /* The source plane and how many of its samples make one component sample. */
    gj_u32 plane;
    gj_u32 factor_x, factor_y;  /* 1 or 2 */
    gj_u32 src_w, src_h;        /* size of the source plane in its samples */
    gj_u32 last_row;            /* rows past it repeat it (libjpeg's bottom padding, jcprepct.c) */
} gj_enc_component;

typedef struct gj_enc_params {
    gj_u32 width, height;
    gj_u32 num_components;
    gj_u32 layout;              /* enum gj_enc_layout */
    gj_u32 pixel_bytes;         /* packed input: 3 or 4 */
    gj_u32 chan_r, chan_g, chan_b;
    gj_u32 pitch[3];            /* bytes per row of each plane */
    gj_u32 plane_offset_lo[3];  /* byte offset of each plane in its buffer */
    gj_u32 plane_offset_hi[3];
    gj_u32 plane_aligned;       /* bit i: plane i's rows start at multiples of 4 bytes */
    gj_u32 mcus_x, mcus_y;
    gj_u32 num_mcus;
    gj_u32 blocks_in_mcu;
    gj_u32 num_blocks;          /* num_mcus * blocks_in_mcu: the order of the coefficient buffer */
    gj_u32 restart_interval;    /* MCUs per entropy-coded segment; 0: one segment */
    gj_u32 num_segments;
    gj_enc_component comp[3];
    gj_enc_slot slots[GJ_ENC_MAX_SLOTS];
    /*
     * Quantisation of tables 0 and 1 per natural-order coefficient, as libjpeg-turbo's
     * reciprocal division (jcdctmgr.c): |x| -> ((|x| + corr) * recip) >> shift.
     */
    gj_u32 quant_recip[2][64];
    gj_u32 quant_corr[2][64];
    gj_u32 quant_shift[2][64];
} gj_enc_params;

/*
 * Huffman codes for the encoder, per table set (0 luma, 1 chroma): DC and AC,
 * code << 8 | length for each symbol (length 0: the symbol has no code).
 */
typedef struct gj_enc_huffman {
    gj_u32 dc[2][256];
    gj_u32 ac[2][256];
} gj_enc_huffman;

/* Symbol counts for optimised tables, laid out like gj_enc_huffman. */
#define GJ_ENC_HISTOGRAM_WORDS (4 * 256)

/* Threads per work-group of the byte-stuffing kernels, and raw bytes per thread. */
#define GJ_ENC_STUFF_BYTES 32

#endif /* GJ_KERNELS_JPEG_ENCODE_PARAMS_H */
