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
 * The 16 values two to a word: v8[i] holds 8 v[2i] in its low and 8 v[2i + 1]
 * in its high 16-bit lane, so that one lane instruction measures two pixels.
 */
GJ_FUNC void gj_dxt_alpha_pairs(const gj_i32 *v, gj_u32 *v8)
{
    int i;

    GJ_UNROLL
    for (i = 0; i < 8; i++)
        v8[i] = ((gj_u32)v[2 * i] | (gj_u32)v[2 * i + 1] << 16) << 3;
}

/* Keeps both lanes positive in gj_dxt_alpha_try's key arithmetic (> 8 * 255). */
#define GJ_DXT_KEY_BIAS 2048u

/*
 * Measures endpoints a0, a1 (their order picks the mode); keeps them if better.
 * Entry e's key for a pixel is B + 8 |d| + e (d: the pixel less the entry, B
 * the bias): the smallest key is the nearest entry, the first of equals, found
 * by minimums alone, and carries the index in its low bits. Two pixels at a
 * time in 16-bit lanes, as max(8 v + (B + e - 8 p), (B + e + 8 p) - 8 v): both
 * sides stay within 0..2^13 in either lane, so plain 32-bit additions do not
 * carry from one lane into the other.
 */
GJ_FUNC void gj_dxt_alpha_try(const gj_u32 *v8, gj_i32 a0, gj_i32 a1, gj_dxt_alpha_result *best)
{
    gj_u32 pal[8], up[8], down[8], err = 0;
    gj_u64 bits = 0;
    int i, e;

    gj_dxt_alpha_palette((gj_u32)a0, (gj_u32)a1, pal);
    GJ_UNROLL
    for (e = 0; e < 8; e++) {
        up[e] = (GJ_DXT_KEY_BIAS + (gj_u32)e) * 0x10001u - pal[e] * 0x80008u;
        down[e] = (GJ_DXT_KEY_BIAS + (gj_u32)e) * 0x10001u + pal[e] * 0x80008u;
    }
    GJ_UNROLL
    for (i = 0; i < 8; i++) {
        gj_u32 k[8], key, d, idx;
        GJ_UNROLL
        for (e = 0; e < 8; e++)
            k[e] = gj_addmax_u16x2(v8[i], up[e], down[e] - v8[i]);
        key = gj_min3_u16x2(gj_min3_u16x2(gj_min3_u16x2(k[0], k[1], k[2]), k[3], k[4]), k[5], k[6]);
        key = gj_min3_u16x2(key, k[7], k[7]);
        /* |d| of both pixels in bytes 0 and 2 (B / 8 = 256 drops out), d^2 by one dot product */
        d = key >> 3 & 0x00ff00ffu;
        err = (gj_u32)gj_dot4_u8(d, d, (gj_i32)err);
        idx = key & 0x00070007u;
        bits |= (gj_u64)((idx | idx >> 13) & 63u) << (6 * i);
    }
    if (best->err == 0xffffffffu || err < best->err) {   /* as gj_dxt_color_try */
        best->w0 = (gj_u32)a0 | (gj_u32)a1 << 8 | (gj_u32)(bits & 0xffffu) << 16;
        best->w1 = (gj_u32)(bits >> 16);
        best->err = err;
    }
}

/*
 * Least-squares refit of an eight-value block to its own indices: endpoint 0's
 * weight a of 7 by index (7, 0, 6 ... 1) from a nibble table, b = 7 - a, so
 * that sum b^2, sum ab and sum bx follow from sum a, sum a^2 and sum ax. The
 * endpoints in the eight-value order as *a0, *a1; 0 for a six-value block or
 * indices that do not determine two endpoints.
 */
GJ_FUNC int gj_dxt_alpha_refit(const gj_u32 *v8, const gj_dxt_alpha_result *best, gj_i32 *a0, gj_i32 *a1)
{
    gj_i32 sa = 0, a2 = 0, ax8 = 0, sx8 = 0, b2, ab, ax, bx, det, e0, e1;
    gj_u64 bits = (gj_u64)(best->w0 >> 16) | (gj_u64)best->w1 << 16;
    gj_u32 r;
    int p;

    if ((best->w0 & 255u) <= (best->w0 >> 8 & 255u))
        return 0;
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        gj_i32 x8 = (gj_i32)(v8[p >> 1] >> (16 * (p & 1)) & 0xffffu);
        gj_i32 a = (gj_i32)(0x12345607u >> (4 * ((gj_u32)(bits >> (3 * p)) & 7u)) & 15u);
        sa += a;
        a2 += a * a;
        ax8 += a * x8;
        sx8 += x8;
    }
    b2 = 49 * 16 - 14 * sa + a2;
    ab = 7 * sa - a2;
    ax = ax8 >> 3;
    bx = 7 * (sx8 >> 3) - ax;
    det = a2 * b2 - ab * ab;
    if (det <= 0)
        return 0;
    r = gj_dxt_recip(det);
    e0 = gj_dxt_clamp(gj_dxt_div_round(7 * (b2 * ax - ab * bx), det, r), 255);
    e1 = gj_dxt_clamp(gj_dxt_div_round(7 * (a2 * bx - ab * ax), det, r), 255);
    *a0 = gj_max(e0, e1);
    *a1 = gj_min(e0, e1);
    return 1;
}

/*
 * Move m (0 .. 7) of high's search: endpoint m / 4 of the best block moved by
 * -2, -1, 1 or 2 (m % 4), as *a0, *a1; 0 where it leaves the range or the
 * block's mode.
 */
GJ_FUNC int gj_dxt_alpha_search_move(const gj_dxt_alpha_result *best, int m, gj_i32 *a0, gj_i32 *a1)
{
    gj_i32 b0 = (gj_i32)(best->w0 & 255u), b1 = (gj_i32)(best->w0 >> 8 & 255u);
    gj_i32 eight = b0 > b1, d = (m & 3) - 2 + ((m & 3) >= 2);

    if (m < 4)
        b0 += d;
    else
        b1 += d;
    *a0 = b0;
    *a1 = b1;
    return b0 >= 0 && b0 <= 255 && b1 >= 0 && b1 <= 255 && (b0 > b1) == eight;
}

/* The smaller (larger) of a word's two 16-bit lanes. */
GJ_FUNC gj_u32 gj_dxt_lanes_min(gj_u32 x)
{
    return gj_min(x & 0xffffu, x >> 16);
}

GJ_FUNC gj_u32 gj_dxt_lanes_max(gj_u32 x)
{
    return gj_max(x & 0xffffu, x >> 16);
}

/* The bounds of the 16 values (as gj_dxt_alpha_pairs) as an eight-value block's endpoints. */
GJ_FUNC void gj_dxt_alpha_bounds(const gj_u32 *v8, gj_i32 *a0, gj_i32 *a1)
{
    gj_u32 mn = 0xffffffffu, mx = 0;
    int i;

    GJ_UNROLL
    for (i = 0; i < 8; i += 2) {
        mn = gj_min3_u16x2(mn, v8[i], v8[i + 1]);
        mx = gj_max3_u16x2(mx, v8[i], v8[i + 1]);
    }
    *a0 = (gj_i32)(gj_dxt_lanes_max(mx) >> 3);
    *a1 = (gj_i32)(gj_dxt_lanes_min(mn) >> 3);
}

/*
 * The six-value mode's endpoints: the bounds of the values other than 0 and
 * 255 (its own entries). For the minimum a 0 lane wraps to 8 * 255 and the
 * others drop by 8, for the maximum a 255 lane wraps to 0 and the others rise
 * by 8 (no lane passes 2^12). 0 when no value lies strictly between.
 */
GJ_FUNC int gj_dxt_alpha_inner_bounds(const gj_u32 *v8, gj_i32 *a0, gj_i32 *a1)
{
    gj_u32 mn = 0xffffffffu, mx = 0;
    int i;

    GJ_UNROLL
    for (i = 0; i < 8; i += 2) {
        mn = gj_min3_u16x2(mn, (v8[i] + 0x07f807f8u) & 0x07ff07ffu, (v8[i + 1] + 0x07f807f8u) & 0x07ff07ffu);
        mx = gj_max3_u16x2(mx, (v8[i] + 0x00080008u) & 0x07ff07ffu, (v8[i + 1] + 0x00080008u) & 0x07ff07ffu);
    }
    mn = (gj_dxt_lanes_min(mn) + 8u) >> 3;
    mx = gj_dxt_lanes_max(mx);
    *a0 = (gj_i32)mn;
    *a1 = (gj_i32)((mx - 8u) >> 3);
    return mx >= 8u && mn <= (mx - 8u) >> 3;
}

/* Steps of gj_dxt_encode_alpha by quality: the bounds; the six-value bounds and
 * the refit; the search's 8 moves and the refit again. */
#define GJ_DXT_ALPHA_STEPS(quality) ((quality) == GJ_DXT_FAST ? 1 : (quality) == GJ_DXT_BALANCED ? 3 : 12)

/* Step `step` of gj_dxt_encode_alpha: its candidate, measured where it is valid. */
GJ_FUNC void gj_dxt_alpha_step(const gj_u32 *v8, int step, gj_dxt_alpha_result *best)
{
    gj_i32 a0, a1;
    int ok = 1;

    if (step == 0)
        gj_dxt_alpha_bounds(v8, &a0, &a1);
    else if (step == 1)
        ok = gj_dxt_alpha_inner_bounds(v8, &a0, &a1);
    else if (step == 2 || step == 11)
        ok = gj_dxt_alpha_refit(v8, best, &a0, &a1);
    else
        ok = gj_dxt_alpha_search_move(best, step - 3, &a0, &a1);
    if (ok)
        gj_dxt_alpha_try(v8, a0, a1, best);
}

/*
 * Encodes 16 values (0..255, in pairs as gj_dxt_alpha_pairs) into an alpha
 * block's two words, w0 | w1 << 32: the steps of the quality (a compile-time
 * constant in the kernels: each holds only its own steps), in order, until
 * one is exact (nothing can beat it). The first `straight` steps are straight
 * code, the others one copy of the step code in a loop: BC3 and YCoCg, whose
 * warps wait for instructions, take none straight (inlined at each step,
 * high's copies were a third of their code); BC4, a small kernel, the first
 * three (all in the loop cost its balanced and high kernels 8-13 %,
 * doc/benchmarks.md, thirteenth session).
 */
GJ_FUNC gj_u64 gj_dxt_encode_alpha(const gj_u32 *v8, gj_u32 quality, int straight)
{
    gj_dxt_alpha_result best;
    int step, steps = GJ_DXT_ALPHA_STEPS(quality);

    best.w0 = 0;
    best.w1 = 0;
    best.err = 0xffffffffu;
    GJ_UNROLL
    for (step = 0; step < 3; step++)
        if (step < straight && step < steps && best.err)
            gj_dxt_alpha_step(v8, step, &best);
    GJ_NO_UNROLL
    for (step = gj_min(straight, steps); step < steps && best.err; step++)
        gj_dxt_alpha_step(v8, step, &best);
    return (gj_u64)best.w1 << 32 | best.w0;
}

/*
 * YCoCg's luma block: gj_dxt_encode_alpha as a call of its own on CUDA. Inlined
 * into the YCoCg kernels, CUDA 13.0's ptxas -O3 computed the balanced and high
 * luma blocks differently from the PTX's meaning (19 of 160 test outputs differed
 * from PoCL and from PTX emulation; ptxas -O0, or this call, gives the PoCL bytes:
 * doc/benchmarks.md, sixth session). BC3 and BC4 keep it inlined. The pairs and
 * the block pass by value (registers): through pointers they went through the
 * stack. One function per quality (gj_dxt_encode_luma picks it): a call does not
 * take the caller's constant quality, so one function held every quality's
 * steps in every YCoCg kernel.
 */
#define GJ_DXT_LUMA_FUNC(name, quality)                                                                \
    GJ_FUNC_NOINLINE gj_u64 name(gj_u32 v0, gj_u32 v1, gj_u32 v2, gj_u32 v3, gj_u32 v4, gj_u32 v5,      \
                                 gj_u32 v6, gj_u32 v7)                                                  \
    {                                                                                                   \
        gj_u32 v8[8];                                                                                   \
        v8[0] = v0;                                                                                     \
        v8[1] = v1;                                                                                     \
        v8[2] = v2;                                                                                     \
        v8[3] = v3;                                                                                     \
        v8[4] = v4;                                                                                     \
        v8[5] = v5;                                                                                     \
        v8[6] = v6;                                                                                     \
        v8[7] = v7;                                                                                     \
        return gj_dxt_encode_alpha(v8, quality, 0);                                                     \
    }

GJ_DXT_LUMA_FUNC(gj_dxt_encode_luma_fast, GJ_DXT_FAST)
GJ_DXT_LUMA_FUNC(gj_dxt_encode_luma_balanced, GJ_DXT_BALANCED)
GJ_DXT_LUMA_FUNC(gj_dxt_encode_luma_high, GJ_DXT_HIGH)

GJ_FUNC gj_u64 gj_dxt_encode_luma(const gj_u32 *v8, gj_u32 quality)
{
    if (quality == GJ_DXT_FAST)
        return gj_dxt_encode_luma_fast(v8[0], v8[1], v8[2], v8[3], v8[4], v8[5], v8[6], v8[7]);
    if (quality == GJ_DXT_BALANCED)
        return gj_dxt_encode_luma_balanced(v8[0], v8[1], v8[2], v8[3], v8[4], v8[5], v8[6], v8[7]);
    return gj_dxt_encode_luma_high(v8[0], v8[1], v8[2], v8[3], v8[4], v8[5], v8[6], v8[7]);
}

#endif /* GJ_KERNELS_DXT_ALPHA_FIT_H */
