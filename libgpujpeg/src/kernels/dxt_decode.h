/* The DXT decode kernel: one thread per block, dxt_palette.h's decoding, pixels clipped to the picture. */
#ifndef GJ_KERNELS_DXT_DECODE_H
#define GJ_KERNELS_DXT_DECODE_H

#include "common.h"
#include "dxt_params.h"
#include "dxt_palette.h"
#include "dxt_block_io.h"

GJ_KERNEL gj_dxt_decode(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL const gj_u32 *blocks, GJ_GLOBAL gj_u8 *out)
{
    gj_u64 id = gj_global_id(), base;
    gj_u32 w[4], px[16], words, i;

    if (id >= (gj_u64)p->blocks_w * p->blocks_h)
        return;
    words = GJ_DXT_BLOCK_BYTES(p->format) / 4;
    base = ((gj_u64)p->blocks_offset_hi << 32 | p->blocks_offset_lo) / 4 + id * words;
    for (i = 0; i < 4; i++)
        w[i] = i < words ? blocks[base + i] : 0u;
    gj_dxt_decode_block(p->format, w, px);
    gj_dxt_store_block(p, out, (gj_u32)(id % p->blocks_w), (gj_u32)(id / p->blocks_w), px);
}

#endif /* GJ_KERNELS_DXT_DECODE_H */
