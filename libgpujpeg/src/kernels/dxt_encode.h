/*
 * The DXT encode kernels: one thread per 4x4 block reads its pixels from the
 * input frame (dxt_block_io.h), fits the format's blocks (dxt_color_fit.h,
 * dxt_alpha_fit.h) and writes 8 or 16 bytes in DDS/HAP order (blocks in raster
 * order). One kernel per format and quality (gj_dxt_encode_bc1_fast ...
 * gj_dxt_encode_bc4_high), both compile-time constants: each kernel holds only
 * its own path and gets its own register budget (one kernel for every format
 * took the registers of the largest, YCoCg's, and ran BC1 at a fraction of the
 * occupancy it needs).
 */
#ifndef GJ_KERNELS_DXT_ENCODE_H
#define GJ_KERNELS_DXT_ENCODE_H

#include "common.h"
#include "dxt_params.h"
#include "dxt_palette.h"
#include "dxt_color_fit.h"
#include "dxt_alpha_fit.h"
#include "dxt_block_io.h"

GJ_FUNC void gj_dxt_rgb_of(const gj_u32 *px, gj_dxt_rgb_block *blk)
{
    int p;

    GJ_UNROLL
    for (p = 0; p < 16; p++)
        blk->px[p] = px[p] & 0xffffffu;
    gj_dxt_rgb_stats(blk);
}

/*
 * Scaled YCoCg-DXT5 (van Waveren and Castano, "Real-Time YCoCg-DXT
 * Compression", 2007): Co = (R - B) / 2 and Cg = (2G - R - B) / 4 go to the
 * colour block's red and green, multiplied by the largest scale (1, 2 or 4)
 * that keeps the block's chroma in range, the scale code (scale - 1) in blue.
 * Luma goes to the alpha block, fitted to what the colour block decodes to:
 * with decoded Co', Cg' the RGB error is smallest at Y = (R + G + B + Cg') / 3
 * (rather than the exact (R + 2G + B) / 4).
 *
 * The pixels are read in one pass (px is dead afterwards), two at a time: the
 * 16-bit lanes of one word hold 2 Co + 256, 4 Cg + 512 and R + G + B of
 * pixels 2i and 2i + 1 (all within 0..1022), so that one addition, bound or
 * shift serves both, and the scaled, rounded Co and Cg of the colour block
 * (below) follow in the lanes too. The decoded Cg' is picked by a byte
 * permutation rather than from a palette array: with a palette array declared
 * beside px, NVVM (CUDA 13.0, also NVIDIA's OpenCL) overlapped the two and
 * read the block's first row as zero, so CUDA and OpenCL-GPU differed from
 * PoCL and the host build (tests/backend_compare.sh now checks every DXT
 * output across backends).
 */
GJ_FUNC void gj_dxt_encode_ycocg(const gj_u32 *px, GJ_GLOBAL const gj_u16 *flat_pairs, gj_u32 quality, gj_u32 *w)
{
    gj_dxt_rgb_block blk;
    gj_u32 co[8], cg[8], rgb_sum[8], co_lo = 0xffffffffu, co_hi = 0, cg_lo = 0xffffffffu, cg_hi = 0, blue;
    gj_i32 range, scale, log2_scale;
    int i, p;

    GJ_UNROLL
    for (i = 0; i < 8; i++) {
        /* r | g << 8 of both pixels, then b (and alpha), as lanes */
        gj_u32 rg = gj_byte_perm2(px[2 * i], px[2 * i + 1], 0x5410u);
        gj_u32 r = rg & 0x00ff00ffu, g = rg >> 8 & 0x00ff00ffu;
        gj_u32 b = gj_byte_perm2(px[2 * i], px[2 * i + 1], 0x7632u) & 0x00ff00ffu;
        co[i] = r + 0x01000100u - b;
        cg[i] = 2u * g + 0x02000200u - r - b;
        rgb_sum[i] = r + g + b;
    }
    GJ_UNROLL
    for (i = 0; i < 8; i += 2) {
        co_lo = gj_min3_u16x2(co_lo, co[i], co[i + 1]);
        co_hi = gj_max3_u16x2(co_hi, co[i], co[i + 1]);
        cg_lo = gj_min3_u16x2(cg_lo, cg[i], cg[i + 1]);
        cg_hi = gj_max3_u16x2(cg_hi, cg[i], cg[i + 1]);
    }
    /* In quarters: |Co| * 4 = 2 |2 Co|, |Cg| * 4 = |4 Cg|. */
    range = 2 * gj_max((gj_i32)gj_dxt_lanes_max(co_hi) - 256, 256 - (gj_i32)gj_dxt_lanes_min(co_lo));
    range = gj_max(range, gj_max((gj_i32)gj_dxt_lanes_max(cg_hi) - 512, 512 - (gj_i32)gj_dxt_lanes_min(cg_lo)));
    scale = range < 4 * 32 ? 4 : range < 4 * 64 ? 2 : 1;
    log2_scale = scale >> 1;
    blue = gj_dxt_expand((gj_u32)scale - 1, 5);
    /*
     * 128 + Co * scale and 128 + Cg * scale rounded to nearest, halves away
     * from zero, in the lanes: floor((2 Co s + 257 - [Co < 0]) / 2) and
     * floor((4 Cg s + 514 - [Cg < 0]) / 4), where [Co < 0] is bit 8 of the
     * lane clear (bit 9 for Cg).
     * Every lane stays within 0..4095 (the scale keeps Co s and Cg s in range):
     * the 32-bit additions of both lanes' constants borrow nothing across them.
     * Only the top can pass 255 (a half rounded up), hence a minimum.
     */
    GJ_UNROLL
    for (i = 0; i < 8; i++) {
        gj_u32 c = (co[i] << log2_scale) + (gj_u32)((257 - 256 * scale) * 0x10001) - (~co[i] >> 8 & 0x00010001u);
        gj_u32 d = (cg[i] << log2_scale) + (gj_u32)((514 - 512 * scale) * 0x10001) - (~cg[i] >> 9 & 0x00010001u);
        c = gj_min3_u16x2(c >> 1 & 0x7fff7fffu, 0x00ff00ffu, 0x00ff00ffu) | blue * 0x01000100u;
        d = gj_min3_u16x2(d >> 2 & 0x3fff3fffu, 0x00ff00ffu, 0x00ff00ffu);
        /* pixel 2i: Co, Cg, blue, 0 (the lane's high byte); pixel 2i + 1 from the high lanes */
        blk.px[2 * i] = gj_byte_perm2(c, d, 0x5140u);
        blk.px[2 * i + 1] = gj_byte_perm2(c, d, 0x7362u);
    }
    gj_dxt_rgb_stats(&blk);
    gj_dxt_encode_color(&blk, flat_pairs, quality, 1, scale - 1, &w[2], &w[3]);
    {
        /* The four-colour palette's green (dxt_palette.h), endpoints in w[2],
         * as the decoder's Cg: g - 128 divided by the scale (1, 2 or 4) with
         * C's truncation, by a shift. Kept + 128 as the four bytes of cgs, so
         * that a pixel's Cg is one byte permutation by its index. */
        gj_i32 g0 = (gj_i32)gj_dxt_expand(w[2] >> 5 & 63u, 6), g1 = (gj_i32)gj_dxt_expand(w[2] >> 21 & 63u, 6);
        gj_i32 g[4];
        gj_u32 cgs = 0, v8[8];
        gj_u64 lw;
        g[0] = g0;
        g[1] = g1;
        g[2] = (2 * g0 + g1) / 3;
        g[3] = (g0 + 2 * g1) / 3;
        GJ_UNROLL
        for (p = 0; p < 4; p++) {
            gj_i32 cg = g[p] - 128;
            cg = cg < 0 ? -(-cg >> log2_scale) : cg >> log2_scale;
            cgs |= (gj_u32)(cg + 128) << (8 * p);
        }
        GJ_UNROLL
        for (p = 0; p < 16; p += 2) {
            gj_u32 l[2];
            int h;
            GJ_UNROLL
            for (h = 0; h < 2; h++) {
                gj_i32 cg128 = (gj_i32)gj_byte_perm2(cgs, 0u, 0x4440u | (w[3] >> (2 * (p + h)) & 3u));
                /* (rgb_sum + cg) / 3 rounded to nearest and clamped: an odd divisor has no
                 * halves, so it is floor((x + 1) / 3), and below 0 the clamp's 0. */
                gj_i32 sum = (gj_i32)(rgb_sum[p >> 1] >> (16 * h) & 0xffffu);
                l[h] = gj_min((gj_u32)gj_max(sum + cg128 - 127, 0) / 3u, 255u);
            }
            v8[p >> 1] = (l[0] | l[1] << 16) << 3;
        }
        lw = gj_dxt_encode_luma(v8, quality);
        w[0] = (gj_u32)lw;
        w[1] = (gj_u32)(lw >> 32);
    }
}

/* One block of any format: px (r, g, b, a; BC4's channel in a) to 2 or 4 words. */
GJ_FUNC void gj_dxt_encode_pixels(gj_u32 format, GJ_GLOBAL const gj_u16 *flat_pairs, gj_u32 quality,
                                  const gj_u32 *px, gj_u32 *w)
{
    gj_dxt_rgb_block blk;
    gj_i32 a[16];
    gj_u32 v8[8];
    gj_u64 aw = 0;
    int p;

    if (format == GJ_DXT_YCOCG) {
        gj_dxt_encode_ycocg(px, flat_pairs, quality, w);
        return;
    }
    if (format != GJ_DXT_BC1) {
        GJ_UNROLL
        for (p = 0; p < 16; p++)
            a[p] = (gj_i32)(px[p] >> 24);
        gj_dxt_alpha_pairs(a, v8);
        aw = gj_dxt_encode_alpha(v8, quality, format == GJ_DXT_BC4 ? 3 : 0);
        w[0] = (gj_u32)aw;
        w[1] = (gj_u32)(aw >> 32);
    }
    if (format == GJ_DXT_BC4)
        return;
    gj_dxt_rgb_of(px, &blk);
    if (format == GJ_DXT_BC1)
        gj_dxt_encode_color(&blk, flat_pairs, quality, 0, -1, &w[0], &w[1]);
    else
        gj_dxt_encode_color(&blk, flat_pairs, quality, 1, -1, &w[2], &w[3]);
}

/*
 * The block of this thread (gj_global_id()) in `format` at `quality`; the
 * kernels pass both as constants, the host build (tests/tools/dxt_tool.c) the
 * params' format.
 */
GJ_FUNC void gj_dxt_encode_block(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL const gj_u8 *plane0,
                                 GJ_GLOBAL const gj_u8 *plane1, GJ_GLOBAL const gj_u8 *plane2,
                                 GJ_GLOBAL gj_u32 *blocks, gj_u32 format, gj_u32 quality)
{
    gj_u64 id = gj_global_id();
    gj_u32 px[16], w[4], words, bx, by, i;
    gj_u64 base;

    if (id >= (gj_u64)p->blocks_w * p->blocks_h)
        return;
    bx = (gj_u32)(id % p->blocks_w);
    by = (gj_u32)(id / p->blocks_w);
    gj_dxt_load_block(p, plane0, plane1, plane2, bx, by, format == GJ_DXT_BC4, px);
    gj_dxt_encode_pixels(format, &p->flat_pairs[0][0], quality, px, w);
    words = GJ_DXT_BLOCK_BYTES(format) / 4;
    base = ((gj_u64)p->blocks_offset_hi << 32 | p->blocks_offset_lo) / 4 + id * words;
    GJ_UNROLL
    for (i = 0; i < 4; i++)
        if (i < words)
            blocks[base + i] = w[i];
}

#define GJ_DXT_ENCODE_KERNEL(name, format, quality)                                                     \
    GJ_KERNEL_BOUNDED(GJ_DXT_GROUP, GJ_DXT_MIN_GROUPS_OF(quality))                                      \
    name(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL const gj_u8 *plane0,                               \
                   GJ_GLOBAL const gj_u8 *plane1, GJ_GLOBAL const gj_u8 *plane2, GJ_GLOBAL gj_u32 *blocks) \
    {                                                                                                   \
        gj_dxt_encode_block(p, plane0, plane1, plane2, blocks, format, quality);                        \
    }

/* The names encoder.c launches: gj_dxt_encode_<format>_<quality>. */
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc1_fast, GJ_DXT_BC1, GJ_DXT_FAST)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc1_balanced, GJ_DXT_BC1, GJ_DXT_BALANCED)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc1_high, GJ_DXT_BC1, GJ_DXT_HIGH)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc3_fast, GJ_DXT_BC3, GJ_DXT_FAST)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc3_balanced, GJ_DXT_BC3, GJ_DXT_BALANCED)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc3_high, GJ_DXT_BC3, GJ_DXT_HIGH)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_ycocg_fast, GJ_DXT_YCOCG, GJ_DXT_FAST)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_ycocg_balanced, GJ_DXT_YCOCG, GJ_DXT_BALANCED)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_ycocg_high, GJ_DXT_YCOCG, GJ_DXT_HIGH)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc4_fast, GJ_DXT_BC4, GJ_DXT_FAST)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc4_balanced, GJ_DXT_BC4, GJ_DXT_BALANCED)
GJ_DXT_ENCODE_KERNEL(gj_dxt_encode_bc4_high, GJ_DXT_BC4, GJ_DXT_HIGH)

#endif /* GJ_KERNELS_DXT_ENCODE_H */
