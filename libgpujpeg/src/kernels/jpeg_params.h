/*
 * JPEG decoding parameters shared by the host pipeline and the kernels. Only
 * fixed-size 32-bit fields, so host C and OpenCL C agree on the layout.
 */
#ifndef GJ_KERNELS_JPEG_PARAMS_H
#define GJ_KERNELS_JPEG_PARAMS_H

#include "common.h"

/* Zig-zag index -> natural (row-major) index (T.81 Figure A.6). The 16 extra
 * entries catch run lengths that overshoot index 63 in corrupt data, as
 * libjpeg's jpeg_natural_order does. */
#define GJ_JPEG_NATURAL_ORDER_INIT { \
     0,  1,  8, 16,  9,  2,  3, 10, 17, 24, 32, 25, 18, 11,  4,  5, \
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13,  6,  7, 14, 21, 28, \
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, \
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63, \
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63 }

/* Huffman decoding tables of one DC or AC table, built on the host; compact so a
 * scan's tables fit in a work-group's local memory (copied as 32-bit words). */
#define GJ_HUFF_LOOKUP_BITS 9
typedef struct gj_huff_table {
    /* lookup[peek of GJ_HUFF_LOOKUP_BITS bits] = (code length << 8) | symbol; length 0:
     * the code is longer, use maxcode. */
    gj_u16 lookup[1 << GJ_HUFF_LOOKUP_BITS];
    /* Canonical decoding (T.81 F.2.2.3): maxcode[l] is the largest code of length l
     * (-1 if none), valoffset[l] the index of its first symbol minus the first code. */
    gj_i32 maxcode[18];
    gj_i32 valoffset[18];
    gj_u8 values[256];
} gj_huff_table;

#define GJ_HUFF_TABLE_WORDS (sizeof(gj_huff_table) / 4)

#define GJ_MAX_SLOTS 10
#define GJ_MAX_SCAN_TABLES 8

/*
 * The slot table of a scan, GJ_HUFF_SLOT_WORDS words built on the host: per block
 * slot of the MCU, its component and tables, then where its blocks lie in the
 * coefficient buffer: the block index of its block in the first MCU, and the steps
 * to the next MCU row and column. The writing run finds a block from them and its
 * MCU's column and row, which it counts as it goes (a division per block, in the
 * threads of a warp that each reach a block at another symbol, cost a quarter of
 * the writing kernel's instructions).
 */
#define GJ_HUFF_SLOT_WORDS (4 * GJ_MAX_SLOTS)
#define GJ_SLOT_INFO(slot_info, s) ((slot_info)[s])     /* component | DC table << 4 | AC table << 8 */
#define GJ_SLOT_BASE(slot_info, s) ((slot_info)[GJ_MAX_SLOTS + (s)])
#define GJ_SLOT_ROW(slot_info, s) ((slot_info)[2 * GJ_MAX_SLOTS + (s)])
#define GJ_SLOT_COL(slot_info, s) ((slot_info)[3 * GJ_MAX_SLOTS + (s)])

/* Everything the entropy kernels need to know about one scan. */
typedef struct gj_scan_params {
    gj_u32 num_tables;              /* distinct tables in tables[] */
    gj_u32 blocks_in_mcu;
    gj_u32 mcus_x;                  /* MCUs per row of the scan */
    gj_u32 num_chunks;
    gj_u32 chunk_bits;
    /* Where the slot hypotheses' arrays (GJ_HYP_ARRAY_*) lie in their scratch buffer, in
     * 16-byte units: the coefficient buffer of a single-scan picture, which is zeroed only
     * after synchronisation (kernels/jpeg_huffman_hyp.h). */
    gj_u32 hyp_offset[6];
    gj_u32 hyp_levels;              /* levels of extra states (1 .. GJ_HYP_MAX_LEVELS) */
    gj_u32 num_groups;              /* work-groups of gj_huff_sync */
    /* The writing kernel decodes each chunk in 1 << part_shift parts of part_bits, one
     * thread each, from the part starts the synchronisation recorded
     * (kernels/jpeg_huffman_sync.h gj_huff_decode_write()). */
    gj_u32 part_shift;
    gj_u32 part_bits;
    gj_u32 pad;
    /* slot_info and tables[] are the image every work-group copies into its local memory
     * (kernels/jpeg_huffman.h gj_huff_load_tables()), one piece on a 16-byte boundary
     * of the struct: the copy reads 16-byte words. */
    gj_u32 slot_info[GJ_HUFF_SLOT_WORDS];
    gj_huff_table tables[GJ_MAX_SCAN_TABLES];
} gj_scan_params;

/* Levels of extra states of the slot hypotheses' links, at most (kernels/jpeg_huffman_hyp.h):
 * a chunk has hyps states of each level and of the hypotheses themselves, the entries of
 * its map row. */
#define GJ_HYP_MAX_LEVELS 3
#define GJ_HYP_ROW(p) (((p)->hyp_levels + 1) * (p)->blocks_in_mcu)

#define GJ_HYP_ARRAY_STATES 0       /* gj_huff_packed_state [chunks][hyps]: each hypothesis' end */
#define GJ_HYP_ARRAY_X 1            /* gj_huff_packed_state [hyp_levels][chunks][hyps]: extra end states */
#define GJ_HYP_ARRAY_MARKS 2        /* gj_u16 [chunks][hyps][GJ_HYP_MARKS] */
#define GJ_HYP_ARRAY_MAP 3          /* gj_u8 [chunks][GJ_HYP_ROW(p)] */
#define GJ_HYP_ARRAY_GROUP_MAP 4    /* gj_u8 [groups][GJ_HYP_ROW(p)] */
#define GJ_HYP_ARRAY_GROUP_IN 5     /* gj_u8 [groups] */

/* One entropy-coded segment (a restart interval, or the whole scan): unstuffed bits. */
typedef struct gj_segment {
    gj_u32 bit_start_lo;       /* first bit in the unstuffed buffer (64-bit: lo/hi) */
    gj_u32 bit_start_hi;
    gj_u32 bit_count;          /* number of valid bits */
    gj_u32 first_mcu;          /* MCU index of the segment's first MCU */
    gj_u32 mcu_count;          /* MCUs the segment should hold */
    gj_u32 first_chunk;
    gj_u32 num_chunks;
    gj_u32 present;            /* 0: its restart marker was never found; it stays grey */
} gj_segment;

/* Decoder state at a codeword boundary: where the next symbol starts. */
typedef struct gj_huff_state {
    gj_u32 bit;       /* bit position inside the segment */
    gj_u32 slot;      /* block slot inside the MCU */
    gj_u32 zz;        /* next zig-zag index in the block (0 = DC) */
    gj_u32 flags;     /* GJ_STATE_* */
} gj_huff_state;

#define GJ_STATE_DONE 1u        /* the segment is complete: nothing more to decode */

/*
 * A state as the per-chunk arrays keep it in global memory, 8 bytes instead of 16
 * (the arrays dominate the decoder's memory beyond the coefficients): the bit
 * position in the low word, slot | zz << 8 | flags << 16 in the high one (slot <
 * GJ_MAX_SLOTS, zz < 64 between symbols). Only kernels/jpeg_huffman.h's
 * gj_huff_state_load()/gj_huff_state_store() read and write it.
 */
typedef gj_u64 gj_huff_packed_state;

/* Stored with a packed state only: the synchronisation round changed the chunk's end
 * state (kernels/jpeg_huffman_sync.h); never part of a state in registers. */
#define GJ_STATE_CHANGED 2u

/* How a component reaches full resolution (libjpeg-turbo's jdsample.c choices). */
#define GJ_UPSAMPLE_FULL 0      /* same size */
#define GJ_UPSAMPLE_REPLICATE 1 /* integer factors fx x fy, sample replication */
#define GJ_UPSAMPLE_H2V1 2      /* fancy (triangle) 2x horizontal */
#define GJ_UPSAMPLE_H1V2 3      /* fancy 2x vertical */
#define GJ_UPSAMPLE_H2V2 4      /* fancy 2x2 */

/* Output pixel layouts of the colour kernel. */
#define GJ_COLOR_OUT_RGB24 0
#define GJ_COLOR_OUT_RGBA 1
#define GJ_COLOR_OUT_BGRA 2
#define GJ_COLOR_OUT_GRAY 3

/* Colour spaces, same values as enum gj_jpeg_color_space. */
#define GJ_CS_GRAY 0
#define GJ_CS_YCBCR 1
#define GJ_CS_RGB 2
#define GJ_CS_CMYK 3
#define GJ_CS_YCCK 4

/* Everything the upsampling + colour conversion kernel needs. */
typedef struct gj_color_params {
    gj_u32 width;
    gj_u32 height;
    gj_u32 out_format;
    gj_u32 color_space;
    gj_u32 num_comps;
    gj_u32 word_stores;         /* every row starts on a 4-byte boundary: a quad's bytes go as words */
    gj_u32 pad[2];
    gj_u32 method[4];
    gj_u32 fx[4];
    gj_u32 fy[4];
    gj_u32 comp_w[4];           /* downsampled size: the samples that exist */
    gj_u32 comp_h[4];
    gj_u32 blocks_w[4];         /* blocks per row of the component */
    gj_u32 offset_lo[4];        /* byte offset of the component's first block */
    gj_u32 offset_hi[4];
} gj_color_params;

/*
 * Everything the IDCT kernel needs for every component of a picture at once
 * (kernels/jpeg_idct.h gj_jpeg_idct): one launch instead of one per component,
 * whose launches and tails followed each other on the picture's critical path.
 * The quantisation tables come first, in natural order, one per component.
 */
typedef struct gj_idct_params {
    gj_u16 quant[4][64];
    gj_u32 num_blocks;          /* threads with a block: every component's nbx * nby */
    gj_u32 pad[3];
    gj_u32 first_id[4];         /* the component's first thread (past num_blocks: no component) */
    gj_u32 nbx[4];              /* blocks per row and rows of blocks that hold samples */
    gj_u32 nby[4];
    gj_u32 blocks_w[4];         /* blocks per row of the component in the coefficient buffer */
    gj_u32 block_lo[4];         /* index of the component's first block in the coefficient buffer */
    gj_u32 block_hi[4];
    gj_u32 out_lo[4];           /* byte offset of the component's plane in its output buffer */
    gj_u32 out_hi[4];
    gj_u32 out_pitch[4];        /* 0: block-major over the coefficients (see gj_jpeg_idct) */
    gj_u32 out_w[4];
    gj_u32 out_h[4];
} gj_idct_params;

/* Bytes of a block's coefficients; the samples the IDCT makes of them take the
 * first half (kernels/jpeg_idct.h, block-major output). */
#define GJ_BLOCK_BYTES 128

/* Runs of 4 pixels (quads) of a row per thread of the colour kernel (kernels/jpeg_color.h). */
#define GJ_COLOR_RUN 2

#endif /* GJ_KERNELS_JPEG_PARAMS_H */
