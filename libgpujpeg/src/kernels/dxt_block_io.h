/*
 * Pixels in and out of 4x4 blocks: the encoder's reads from a frame (packed
 * RGB(A), gray or planar YCbCr, converted to RGB here) with edge replication
 * past the right and bottom edges, and the decoder's writes (clipped there).
 */
#ifndef GJ_KERNELS_DXT_BLOCK_IO_H
#define GJ_KERNELS_DXT_BLOCK_IO_H

#include "common.h"
#include "dxt_params.h"
#include "dxt_palette.h"
#include "jpeg_color.h"

GJ_FUNC GJ_GLOBAL const gj_u8 *gj_dxt_row(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL const gj_u8 *plane,
                                         int i, gj_u32 y)
{
    gj_u64 off = (gj_u64)p->offset_hi[i] << 32 | p->offset_lo[i];

    return plane + off + (gj_u64)y * p->pitch[i];
}

/* JPEG's full-range BT.601 luma (libjpeg's rgb_gray weights). */
GJ_FUNC gj_u32 gj_dxt_luma(gj_i32 r, gj_i32 g, gj_i32 b)
{
    return (gj_u32)((19595 * r + 38470 * g + 7471 * b + 32768) >> 16);
}

/*
 * Pixel x of row `row` (line y of the picture) as r | g << 8 | b << 16 | a << 24.
 * For BC4 (`single`), the one channel it encodes goes to the alpha byte: alpha
 * where the input has it, else the gray level (Y for YCbCr, luma for RGB).
 */
GJ_FUNC gj_u32 gj_dxt_fetch(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL const gj_u8 *row,
                            GJ_GLOBAL const gj_u8 *plane1, GJ_GLOBAL const gj_u8 *plane2, gj_u32 x, gj_u32 y,
                            gj_u32 single)
{
    gj_i32 rgb[3];
    gj_u32 v;

    switch (p->layout) {
    case GJ_DXT_IN_RGBA:
        row += 4 * (gj_u64)x;
        return GJ_DXT_PACK(row[p->chan_r], row[p->chan_g], row[p->chan_b], row[p->chan_a]);
    case GJ_DXT_IN_RGB24:
        row += 3 * (gj_u64)x;
        v = single ? gj_dxt_luma(row[0], row[1], row[2]) : 255u;
        return GJ_DXT_PACK(row[0], row[1], row[2], v);
    case GJ_DXT_IN_GRAY:
        v = row[x];
        return GJ_DXT_PACK(v, v, v, single ? v : 255u);
    default: /* GJ_DXT_IN_YUV */
        v = row[x];
        if (single)
            return v << 24;
        gj_ycc_to_rgb((gj_i32)v,
                      gj_dxt_row(p, plane1, 1, y >> p->log2_chroma_h)[x >> p->log2_chroma_w],
                      gj_dxt_row(p, plane2, 2, y >> p->log2_chroma_h)[x >> p->log2_chroma_w], rgb);
        return GJ_DXT_PACK(rgb[0], rgb[1], rgb[2], 255u);
    }
}

/*
 * Block (bx, by)'s 16 pixels in raster order; outside the picture the nearest
 * edge pixel. Rows and columns are clamped once per block; word-aligned 4-byte
 * pixels (device RGBA/BGRA frames, what the benchmarks feed) take one load and
 * one byte permutation each.
 */
GJ_FUNC void gj_dxt_load_block(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL const gj_u8 *plane0,
                               GJ_GLOBAL const gj_u8 *plane1, GJ_GLOBAL const gj_u8 *plane2, gj_u32 bx,
                               gj_u32 by, gj_u32 single, gj_u32 *px)
{
    GJ_GLOBAL const gj_u8 *row[4];
    gj_u32 x[4], y[4];
    int i, j;

    GJ_UNROLL
    for (i = 0; i < 4; i++) {
        x[i] = gj_min(bx * 4 + (gj_u32)i, p->width - 1);
        y[i] = gj_min(by * 4 + (gj_u32)i, p->height - 1);
        row[i] = gj_dxt_row(p, plane0, 0, y[i]);
    }
    if (p->layout == GJ_DXT_IN_RGBA && p->word_aligned) {
        gj_u32 sel = p->chan_r | p->chan_g << 4 | p->chan_b << 8 | p->chan_a << 12;
        GJ_UNROLL
        for (j = 0; j < 4; j++)
            GJ_UNROLL
            for (i = 0; i < 4; i++)
                px[4 * j + i] = gj_byte_perm(((GJ_GLOBAL const gj_u32 *)row[j])[x[i]], sel);
        return;
    }
    GJ_UNROLL
    for (j = 0; j < 4; j++)
        GJ_UNROLL
        for (i = 0; i < 4; i++)
            px[4 * j + i] = gj_dxt_fetch(p, row[j], plane1, plane2, x[i], y[j], single);
}

/* Writes block (bx, by)'s decoded pixels to plane 0, those inside the picture only. */
GJ_FUNC void gj_dxt_store_block(GJ_GLOBAL const gj_dxt_params *p, GJ_GLOBAL gj_u8 *plane0, gj_u32 bx, gj_u32 by,
                                const gj_u32 *px)
{
    gj_u64 off = (gj_u64)p->offset_hi[0] << 32 | p->offset_lo[0];
    int i, j;

    GJ_UNROLL
    for (j = 0; j < 4; j++) {
        gj_u32 y = by * 4 + (gj_u32)j;
        GJ_GLOBAL gj_u8 *row = plane0 + off + (gj_u64)y * p->pitch[0];
        if (y >= p->height)
            break;
        GJ_UNROLL
        for (i = 0; i < 4; i++) {
            gj_u32 x = bx * 4 + (gj_u32)i, v = px[4 * j + i];
            if (x >= p->width)
                break;
            if (p->layout == GJ_DXT_OUT_GRAY) {
                row[x] = (gj_u8)(v & 255u);
            } else if (p->layout == GJ_DXT_OUT_RGB24) {
                row[3 * (gj_u64)x] = (gj_u8)(v & 255u);
                row[3 * (gj_u64)x + 1] = (gj_u8)(v >> 8 & 255u);
                row[3 * (gj_u64)x + 2] = (gj_u8)(v >> 16 & 255u);
            } else {
                GJ_GLOBAL gj_u8 *o = row + 4 * (gj_u64)x;
                o[p->chan_r] = (gj_u8)(v & 255u);
                o[p->chan_g] = (gj_u8)(v >> 8 & 255u);
                o[p->chan_b] = (gj_u8)(v >> 16 & 255u);
                o[p->chan_a] = (gj_u8)(v >> 24);
            }
        }
    }
}

#endif /* GJ_KERNELS_DXT_BLOCK_IO_H */
