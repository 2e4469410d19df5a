/*
 * Endpoints for an alpha block (DXT5's alpha, YCoCg's luma, BC4), in integers:
 *
 *   fast      the block's minimum and maximum, eight-value mode;
 *   balanced  also the six-value mode (explicit 0 and 255, endpoints from the
 *             other values) and a least-squares refit of the eight-value one;
 *   high      balanced, then each endpoint moved by one and two steps while
 *             that lowers the error.
 *
 * Candidates are measured exactly with dxt_palette.h's palette.
 */
#ifndef GJ_KERNELS_DXT_ALPHA_FIT_H
#define GJ_KERNELS_DXT_ALPHA_FIT_H

#include "common.h"
#include "dxt_palette.h"
#include "dxt_color_fit.h"

typedef struct gj_dxt_alpha_result {
    gj_u32 w0;      /* a0 | a1 << 8 | indices 0..15 (bits) << 16 */
    gj_u32 w1;      /* index bits 16..47 */
    gj_u32 err;
} gj_dxt_alpha_result;

/*
 * Measures endpoints a0, a1 (their order picks the mode); keeps them if better.
 * Entry e's key for a pixel is (8 d)^2 + e = 64 d^2 + e (d: the pixel less the
 * entry, |8 d| < 2^11): the smallest key is the nearest entry, the first of
 * equals, found by minimums alone, and carries the index in its low bits.
 */
GJ_FUNC void gj_dxt_alpha_try(const gj_i32 *v, gj_i32 a0, gj_i32 a1, gj_dxt_alpha_result *best)
{
    gj_u32 pal[8], err, key_sum = 0, index_sum = 0;
    gj_i32 pal8[8];
    gj_u64 bits = 0;
    int p, e;

    gj_dxt_alpha_palette((gj_u32)a0, (gj_u32)a1, pal);
    GJ_UNROLL
    for (e = 0; e < 8; e++)
        pal8[e] = 8 * (gj_i32)pal[e];
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        gj_i32 v8 = 8 * v[p];
        gj_u32 key = 0xffffffffu;
        GJ_UNROLL
        for (e = 0; e < 8; e++)
            key = gj_min(key, (gj_u32)((v8 - pal8[e]) * (v8 - pal8[e]) + e));
        key_sum += key;
        index_sum += key & 7u;
        bits |= (gj_u64)(key & 7u) << (3 * p);
    }
    err = (key_sum - index_sum) / 64;
    if (err < best->err) {
        best->w0 = (gj_u32)a0 | (gj_u32)a1 << 8 | (gj_u32)(bits & 0xffffu) << 16;
        best->w1 = (gj_u32)(bits >> 16);
        best->err = err;
    }
}

/* Least-squares refit of an eight-value block to its own indices (weights 7, 0, 6 ... 1 of 7). */
GJ_FUNC void gj_dxt_alpha_refit(const gj_i32 *v, gj_dxt_alpha_result *best)
{
    gj_i32 a2 = 0, b2 = 0, ab = 0, ax = 0, bx = 0, det, a0, a1;
    int p;

    if ((best->w0 & 255u) <= (best->w0 >> 8 & 255u))
        return;
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        gj_u32 i = gj_dxt_alpha_index(best->w0, best->w1, (gj_u32)p);
        gj_i32 a = i == 0 ? 7 : i == 1 ? 0 : 8 - (gj_i32)i, b = 7 - a;
        a2 += a * a;
        b2 += b * b;
        ab += a * b;
        ax += a * v[p];
        bx += b * v[p];
    }
    det = a2 * b2 - ab * ab;
    if (det <= 0)
        return;
    a0 = gj_dxt_clamp(gj_dxt_div_round(7 * (b2 * ax - ab * bx), det), 255);
    a1 = gj_dxt_clamp(gj_dxt_div_round(7 * (a2 * bx - ab * ax), det), 255);
    gj_dxt_alpha_try(v, gj_max(a0, a1), gj_min(a0, a1), best);
}

/* Moves each endpoint of the best block by -2..2, keeping its mode. */
GJ_FUNC void gj_dxt_alpha_search(const gj_i32 *v, gj_dxt_alpha_result *best)
{
    int e, d;

    for (e = 0; e < 2; e++) {
        for (d = -2; d <= 2; d++) {
            gj_i32 a0 = (gj_i32)(best->w0 & 255u), a1 = (gj_i32)(best->w0 >> 8 & 255u);
            gj_i32 eight = a0 > a1;
            if (d == 0)
                continue;
            if (e == 0)
                a0 += d;
            else
                a1 += d;
            if (a0 < 0 || a0 > 255 || a1 < 0 || a1 > 255 || (a0 > a1) != eight)
                continue;
            gj_dxt_alpha_try(v, a0, a1, best);
        }
    }
}

/* Encodes 16 values (0..255) into an alpha block's two words. */
GJ_FUNC void gj_dxt_encode_alpha(const gj_i32 *v, gj_u32 quality, gj_u32 *w0, gj_u32 *w1)
{
    gj_dxt_alpha_result best;
    gj_i32 mn = 255, mx = 0, mn_inner = 255, mx_inner = 0;
    int p;

    best.w0 = 0;
    best.w1 = 0;
    best.err = 0xffffffffu;
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        mn = gj_min(mn, v[p]);
        mx = gj_max(mx, v[p]);
        if (v[p] != 0 && v[p] != 255) {
            mn_inner = gj_min(mn_inner, v[p]);
            mx_inner = gj_max(mx_inner, v[p]);
        }
    }
    gj_dxt_alpha_try(v, mx, mn, &best);
    if (quality != GJ_DXT_FAST && best.err) {
        if (mn_inner <= mx_inner)
            gj_dxt_alpha_try(v, mn_inner, mx_inner, &best);
        gj_dxt_alpha_refit(v, &best);
        if (quality == GJ_DXT_HIGH) {
            gj_dxt_alpha_search(v, &best);
            gj_dxt_alpha_refit(v, &best);
        }
    }
    *w0 = best.w0;
    *w1 = best.w1;
}

/*
 * YCoCg's luma block: gj_dxt_encode_alpha as a call of its own on CUDA. Inlined
 * into the YCoCg kernels, CUDA 13.0's ptxas -O3 computed the balanced and high
 * luma blocks differently from the PTX's meaning (19 of 160 test outputs differed
 * from PoCL and from PTX emulation; ptxas -O0, or this call, gives the PoCL bytes:
 * doc/benchmarks.md, sixth session). BC3 and BC4 keep it inlined.
 */
GJ_FUNC_NOINLINE void gj_dxt_encode_luma(const gj_i32 *v, gj_u32 quality, gj_u32 *w0, gj_u32 *w1)
{
    gj_dxt_encode_alpha(v, quality, w0, w1);
}

#endif /* GJ_KERNELS_DXT_ALPHA_FIT_H */
