/*
 * What the DXT kernels share with the host: the block formats, the input layouts
 * the encoder reads and the parameter block of one encode or decode (uploaded to
 * the device, read by every thread).
 */
#ifndef GJ_KERNELS_DXT_PARAMS_H
#define GJ_KERNELS_DXT_PARAMS_H

#include "common.h"

/* Threads per work-group of the DXT kernels (one block per thread). */
#define GJ_DXT_GROUP 64
/*
 * Work-groups each multiprocessor must hold at once: caps the encoders' registers
 * at 65536 / (64 * 6) = 170 on CUDA. Uncapped, ptxas gave the balanced BC1 kernel
 * 231 registers (YCoCg high 238) and the balanced kernels ran 30-40% slower than
 * capped at 168, which spills a little (YCoCg: 132 bytes) but keeps more blocks in
 * flight (H200, doc/benchmarks.md, sixth session).
 */
#define GJ_DXT_MIN_GROUPS 6
/*
 * The fast kernels' state fits in 65536 / (64 * 8) = 128 registers without
 * spilling (ptxas, sm_90): capped there, a third more blocks are in flight to
 * hide their loads (uncapped, the rolled candidate loop took 166).
 */
#ifndef GJ_DXT_MIN_GROUPS_FAST
#define GJ_DXT_MIN_GROUPS_FAST 8
#endif
/*
 * high at 65536 / (64 * 10) = 96 registers: its code is mostly loops now, and
 * its warps wait for instructions more than for data. At 96 (BC1 spills 152
 * bytes, BC3 16, YCoCg nothing) BC1 and BC3 ran 2-3 % faster than at 128 on the
 * H200, YCoCg 3-7 % (doc/benchmarks.md, thirteenth session, branch dxth5).
 */
#ifndef GJ_DXT_MIN_GROUPS_HIGH
#define GJ_DXT_MIN_GROUPS_HIGH 10
#endif
#define GJ_DXT_MIN_GROUPS_OF(quality)                                                                   \
    ((quality) == GJ_DXT_FAST ? GJ_DXT_MIN_GROUPS_FAST : (quality) == GJ_DXT_HIGH ? GJ_DXT_MIN_GROUPS_HIGH : GJ_DXT_MIN_GROUPS)

/* Block formats: the values of enum gj_dxt_format (gpujpeg/dxt.h). */
#define GJ_DXT_BC1   0      /* DXT1, opaque: 8 bytes per block */
#define GJ_DXT_BC3   1      /* DXT5: 8 bytes of alpha, then a BC1-style colour block */
#define GJ_DXT_YCOCG 2      /* scaled YCoCg in DXT5 (HAP Q): Co, Cg, scale, Y in alpha */
#define GJ_DXT_BC4   3      /* one channel: 8 bytes per block */

/* Encoder qualities: the values of enum gj_dxt_quality. */
#define GJ_DXT_FAST     0
#define GJ_DXT_BALANCED 1
#define GJ_DXT_HIGH     2

/* How the encoder reads pixels (kernels/dxt_block_io.h). */
#define GJ_DXT_IN_RGBA  0   /* packed, 4 bytes per pixel, channel order in chan_r/g/b/a */
#define GJ_DXT_IN_RGB24 1   /* packed R, G, B */
#define GJ_DXT_IN_GRAY  2   /* one plane */
#define GJ_DXT_IN_YUV   3   /* three planes Y, Cb, Cr (full range, BT.601 as JPEG),
                               chroma subsampled by log2_chroma_w/h */

/* How the decoder writes pixels. */
#define GJ_DXT_OUT_RGBA  0  /* packed, 4 bytes per pixel, channel order in chan_r/g/b/a */
#define GJ_DXT_OUT_RGB24 1
#define GJ_DXT_OUT_GRAY  2  /* one byte per pixel: BC4's channel, or the red channel */

typedef struct gj_dxt_params {
    gj_u32 width;
    gj_u32 height;
    gj_u32 blocks_w;            /* (width + 3) / 4 */
    gj_u32 blocks_h;
    gj_u32 format;              /* GJ_DXT_BC1 ... */
    gj_u32 layout;              /* GJ_DXT_IN_* (encoder) or GJ_DXT_OUT_* (decoder) */
    gj_u32 chan_r, chan_g, chan_b, chan_a;  /* byte positions in a 4-byte pixel */
    gj_u32 log2_chroma_w;
    gj_u32 log2_chroma_h;
    gj_u32 word_aligned;        /* 4-byte pixels: plane 0 and its pitch are 4-byte aligned */
    gj_u32 pitch[3];            /* bytes per row of each plane */
    gj_u32 offset_lo[3];        /* byte offset of each plane in its buffer */
    gj_u32 offset_hi[3];
    gj_u32 blocks_offset_lo;    /* byte offset of the first block in the blocks buffer */
    gj_u32 blocks_offset_hi;
    /* Encoder: for each 8-bit mean of a nearly flat block, the endpoint codes
     * a << 8 | b whose one-third point decodes nearest to it ([0]: 5-bit
     * channels, [1]: 6-bit green), filled by gj_dxt_fill_flat_pairs. */
    gj_u16 flat_pairs[2][256];
} gj_dxt_params;

/* Bytes per 4x4 block. */
#define GJ_DXT_BLOCK_BYTES(format) ((format) == GJ_DXT_BC1 || (format) == GJ_DXT_BC4 ? 8u : 16u)

#endif /* GJ_KERNELS_DXT_PARAMS_H */
