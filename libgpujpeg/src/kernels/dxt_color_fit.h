/*
 * Endpoints for a colour block (BC1, and the colour half of BC3 and YCoCg-DXT5),
 * one 4x4 block per thread, decided in integers only: the same input gives the
 * same block on CUDA, OpenCL and the host build.
 *
 *   fast      bounding box inset by 1/16 of the range, on the diagonal that the
 *             channels' covariance signs pick (van Waveren), and one refit;
 *   balanced  LSpiro (Perminov): per channel, the 5/6-bit values' unique sorted
 *             set, a line fitted to value against rank, its ends as endpoints
 *             (step 1); then least-squares refits of the endpoints to the block
 *             as encoded (step 2, three times);
 *   high      cluster fit: pixels ordered along the principal axis, a local
 *             search of the splits into four ordered clusters (BC1: and three)
 *             by their least-squares error, the best after rounding measured
 *             (dxt_cluster_splits.h); then a refit to the block's indices with
 *             each channel's codes chosen by the error of those indices, a
 *             one-step search around the endpoints and that refit again.
 *
 * Every candidate is measured exactly (dxt_palette.h's palette, nearest entry
 * per pixel, squared RGB error) and the best kept. BC1's balanced and high
 * also try the three-colour mode with black (endpoints in the other order),
 * which wins on blocks with dark pixels or three-colour content.
 */
#ifndef GJ_KERNELS_DXT_COLOR_FIT_H
#define GJ_KERNELS_DXT_COLOR_FIT_H

#include "common.h"
#include "dxt_palette.h"
#include "dxt_cluster_splits.h"

/*
 * The block's pixels packed as r | g << 8 | b << 16 (the fourth byte zero),
 * raster order: a third of the registers of one word per channel, and a
 * pixel's dot product with a palette entry is one gj_dot4_u8. norm: the sum
 * of |x|^2 over its pixels, which every measurement of endpoints needs and
 * which does not depend on them; lo, hi, sum: each channel's minimum, maximum
 * and sum, which the fits start from (all set by gj_dxt_rgb_stats).
 */
typedef struct gj_dxt_rgb_block {
    gj_u32 px[16];
    gj_i32 norm;
    gj_i32 lo[3], hi[3], sum[3];
} gj_dxt_rgb_block;

/* Channel ch of pixel p. */
GJ_FUNC gj_i32 gj_dxt_blk(const gj_dxt_rgb_block *blk, int ch, int p)
{
    return GJ_DXT_CH(blk->px[p], ch);
}

/*
 * Sets blk's norm (< 16 * 3 * 255^2, no overflow) and channel bounds and sums
 * once the pixels are in. Red and blue are the 16-bit halves of px & 0xff00ff,
 * the green of two pixels the halves of one byte permutation (byte 3 of a
 * pixel is zero): minimums, maximums and sums take two channels or two pixels
 * per instruction (each half's sum < 16 * 255, no carry into the other).
 */
GJ_FUNC void gj_dxt_rgb_stats(gj_dxt_rgb_block *blk)
{
    gj_u32 rb_lo = 0x00ff00ffu, rb_hi = 0, g_lo = 0x00ff00ffu, g_hi = 0, rb_sum = 0, g_sum = 0;
    gj_i32 n = 0;
    int p;

    GJ_UNROLL
    for (p = 0; p < 16; p += 4) {
        gj_u32 rb0 = blk->px[p] & 0xff00ffu, rb1 = blk->px[p + 1] & 0xff00ffu;
        gj_u32 rb2 = blk->px[p + 2] & 0xff00ffu, rb3 = blk->px[p + 3] & 0xff00ffu;
        /* green of pixels p, p + 1 (p + 2, p + 3) as the low and high halves */
        gj_u32 g01 = gj_byte_perm2(blk->px[p], blk->px[p + 1], 0x3531u);
        gj_u32 g23 = gj_byte_perm2(blk->px[p + 2], blk->px[p + 3], 0x3531u);
        rb_lo = gj_min3_u16x2(rb_lo, rb0, rb1);
        rb_lo = gj_min3_u16x2(rb_lo, rb2, rb3);
        rb_hi = gj_max3_u16x2(rb_hi, rb0, rb1);
        rb_hi = gj_max3_u16x2(rb_hi, rb2, rb3);
        g_lo = gj_min3_u16x2(g_lo, g01, g23);
        g_hi = gj_max3_u16x2(g_hi, g01, g23);
        rb_sum += rb0 + rb1 + rb2 + rb3;
        g_sum += g01 + g23;
    }
    GJ_UNROLL
    for (p = 0; p < 16; p++)
        n = gj_dot4_u8(blk->px[p], blk->px[p], n);
    blk->norm = n;
    blk->lo[0] = (gj_i32)(rb_lo & 0xffffu);
    blk->lo[1] = (gj_i32)gj_min(g_lo & 0xffffu, g_lo >> 16);
    blk->lo[2] = (gj_i32)(rb_lo >> 16);
    blk->hi[0] = (gj_i32)(rb_hi & 0xffffu);
    blk->hi[1] = (gj_i32)gj_max(g_hi & 0xffffu, g_hi >> 16);
    blk->hi[2] = (gj_i32)(rb_hi >> 16);
    blk->sum[0] = (gj_i32)(rb_sum & 0xffffu);
    blk->sum[1] = (gj_i32)((g_sum & 0xffffu) + (g_sum >> 16));
    blk->sum[2] = (gj_i32)(rb_sum >> 16);
}

/* The best colour block so far: endpoint word, index word, squared error. */
typedef struct gj_dxt_color_result {
    gj_u32 w0;
    gj_u32 w1;
    gj_u32 err;
} gj_dxt_color_result;

/*
 * floor((2^32 - 1) / d), d > 0: the reciprocal that gj_dxt_div_round shares
 * across the quotients by one divisor (a refit's six by its determinant).
 */
GJ_FUNC gj_u32 gj_dxt_recip(gj_i32 d)
{
    return 0xffffffffu / (gj_u32)d;
}

/*
 * n / d rounded to nearest (halves away from zero), d > 0, |n| + d / 2 < 2^31,
 * r = gj_dxt_recip(d): the quotient of a = |n| + d / 2 by one high product and
 * one correction. 2^32 / d - 2 < r <= 2^32 / d puts a r / 2^32 within
 * (a / d - 1, a / d]: its floor is floor(a / d) or one less, which the
 * remainder tells. Exact, for a sixth of a division's instructions when r serves
 * several quotients.
 */
GJ_FUNC gj_i32 gj_dxt_div_round(gj_i32 n, gj_i32 d, gj_u32 r)
{
    gj_u32 a = (gj_u32)(n < 0 ? -n : n) + (gj_u32)d / 2u;
    gj_u32 q = gj_mulhi_u32(a, r);

    q += a - q * (gj_u32)d >= (gj_u32)d ? 1u : 0u;
    return n < 0 ? -(gj_i32)q : (gj_i32)q;
}

GJ_FUNC gj_i32 gj_dxt_clamp(gj_i32 v, gj_i32 hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* Channel bits of RGB565: 5, 6, 5; field shifts 11, 5, 0. */
GJ_FUNC gj_i32 gj_dxt_565_max(int ch)
{
    return ch == 1 ? 63 : 31;
}

GJ_FUNC gj_u32 gj_dxt_565_shift(int ch)
{
    return ch == 0 ? 11u : ch == 1 ? 5u : 0u;
}

/* An 8-bit endpoint channel (clamped) to the nearest 5- or 6-bit code of channel ch. */
GJ_FUNC gj_i32 gj_dxt_quantize_ch(gj_i32 v, int ch)
{
    return (gj_dxt_clamp(v, 255) * gj_dxt_565_max(ch) + 127) / 255;
}

/* 8-bit endpoint channels (clamped) to the nearest RGB565 code. */
GJ_FUNC gj_u32 gj_dxt_quantize565(const gj_i32 *e)
{
    gj_u32 q = 0;
    int ch;

    GJ_UNROLL
    for (ch = 0; ch < 3; ch++)
        q |= (gj_u32)gj_dxt_quantize_ch(e[ch], ch) << gj_dxt_565_shift(ch);
    return q;
}

/* YCoCg keeps the scale code in blue: both endpoints carry it unchanged. */
GJ_FUNC gj_u32 gj_dxt_with_blue(gj_u32 q, gj_i32 fixed_blue)
{
    return fixed_blue < 0 ? q : (q & ~31u) | (gj_u32)fixed_blue;
}

/*
 * Nearest palette entry per pixel (the first of equals): the indices and the
 * squared error. |x - e|^2 = |x|^2 - (2 x.e - |e|^2): the entry with the
 * largest score s = 2 x.e - |e|^2 is the nearest, and the block's error is its
 * norm (sum of |x|^2) less the best scores. Each entry k's key 4 s + 3 - k
 * carries the entry in its low bits (|s| < 2^19: no overflow), so a plain
 * maximum of four keys picks the nearest entry, the first of equals, without
 * selects; the low bits of the 16 keys are the indices, inverted.
 */
GJ_FUNC gj_u32 gj_dxt_color_indices(const gj_dxt_rgb_block *blk, const gj_u32 *pal, gj_u32 *indices)
{
    gj_u32 e[4], inv = 0;
    gj_i32 bias[4], key_sum = 0, low_sum;
    int p, k;

    GJ_UNROLL
    for (k = 0; k < 4; k++) {
        e[k] = pal[k] & 0xffffffu;
        /* key = 8 x.e - (4 |e|^2 - 3 + k) */
        bias[k] = 4 * gj_dot4_u8(e[k], e[k], 0) - 3 + k;
    }
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        gj_u32 x = blk->px[p];
        gj_i32 best = gj_max(gj_max(8 * gj_dot4_u8(x, e[0], 0) - bias[0], 8 * gj_dot4_u8(x, e[1], 0) - bias[1]),
                             gj_max(8 * gj_dot4_u8(x, e[2], 0) - bias[2], 8 * gj_dot4_u8(x, e[3], 0) - bias[3]));
        key_sum += best;
        inv |= ((gj_u32)best & 3u) << (2 * p);
    }
    *indices = ~inv;
    /* The sum of the 16 low-bit fields (3 - index) of inv, then of the scores. */
    low_sum = (gj_i32)(gj_popcount(inv & 0x55555555u) + 2u * gj_popcount(inv & 0xaaaaaaaau));
    return (gj_u32)(blk->norm - (key_sum - low_sum) / 4);
}

/* Measures endpoints q0, q1 in this order (the order picks BC1's mode); keeps them if better. */
GJ_FUNC void gj_dxt_color_try(const gj_dxt_rgb_block *blk, gj_u32 q0, gj_u32 q1, gj_u32 four_only,
                              gj_dxt_color_result *best)
{
    gj_u32 pal[4], idx, err;

    gj_dxt_color_palette(q0, q1, four_only, pal);
    err = gj_dxt_color_indices(blk, pal, &idx);
    /* The first candidate is kept unmeasured: where it is the only one (fast),
     * its error and the block's norm are dead code. */
    if (best->err == 0xffffffffu || err < best->err) {
        best->w0 = q0 | q1 << 16;
        best->w1 = idx;
        best->err = err;
    }
}

/* An endpoint pair in the four-colour order and, where BC1 allows it, the three-colour one. */
GJ_FUNC void gj_dxt_color_try_pair(const gj_dxt_rgb_block *blk, gj_u32 q0, gj_u32 q1, gj_u32 four_only,
                                   gj_dxt_color_result *best)
{
    gj_u32 hi = gj_max(q0, q1), lo = gj_min(q0, q1);

    gj_dxt_color_try(blk, hi, lo, four_only, best);
    if (!four_only && hi != lo)
        gj_dxt_color_try(blk, lo, hi, 0, best);
}

/*
 * The least-squares sums of endpoint weights a (of den) for endpoint 0 and
 * b = den - a for endpoint 1 over a block's pixels: sum a^2, sum b^2, sum ab
 * and per channel sum ax, sum bx.
 */
typedef struct gj_dxt_lsq_sums {
    gj_i32 a2, b2, ab, ax[3], bx[3];
} gj_dxt_lsq_sums;

/*
 * The endpoints that minimise the error of the weights of m (8-bit values,
 * rounded); 0 when the weights do not determine two endpoints.
 */
GJ_FUNC int gj_dxt_color_solve(const gj_dxt_lsq_sums *m, gj_i32 den, gj_i32 *e0, gj_i32 *e1)
{
    gj_i32 det = m->a2 * m->b2 - m->ab * m->ab;
    gj_u32 r;
    int ch;

    if (det <= 0)
        return 0;
    r = gj_dxt_recip(det);
    /* |numerators| < 3 * 144 * 16 * 255 * 2 < 2^23 */
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        e0[ch] = gj_dxt_div_round(den * (m->b2 * m->ax[ch] - m->ab * m->bx[ch]), det, r);
        e1[ch] = gj_dxt_div_round(den * (m->a2 * m->bx[ch] - m->ab * m->ax[ch]), det, r);
    }
    return 1;
}

/*
 * den^2 times channel ch's error of the weights of m with decoded endpoint
 * values v0, v1, less den^2 sum x^2: sum (den x - a v0 - b v1)^2 expanded
 * (the palette's thirds or halves taken exactly). Below 2^28 in magnitude.
 */
GJ_FUNC gj_i32 gj_dxt_lsq_channel_error(const gj_dxt_lsq_sums *m, gj_i32 den, int ch, gj_i32 v0, gj_i32 v1)
{
    return m->a2 * v0 * v0 + 2 * m->ab * v0 * v1 + m->b2 * v1 * v1 - 2 * den * (m->ax[ch] * v0 + m->bx[ch] * v1);
}

/*
 * Sums for pixel weights a (2 bits per pixel, pixel p's at bit 2p) of endpoint
 * 0 out of den, b = den - a of endpoint 1; the pixels whose bit 2p of skip is
 * set do not count (their weight is 0).
 *
 * Over the n counted pixels: sum a^2, sum b^2 = den^2 n - 2 den sum a + sum a^2
 * and sum ab = den sum a - sum a^2 come from popcounts of the weight bits
 * (a = 2 h + l: a^2 = 4 h + l + 4 h l), sum bx = den sum x - sum ax, and sum ax
 * takes red and blue in the 16-bit halves of one product (< 16 * 3 * 255).
 */
GJ_FUNC void gj_dxt_color_lsq_sums(const gj_dxt_rgb_block *blk, gj_u32 weights, gj_u32 skip, gj_i32 den,
                                   gj_dxt_lsq_sums *m)
{
    gj_u32 ax_rb = 0, ax_g = 0;
    gj_i32 l = (gj_i32)gj_popcount(weights & 0x55555555u), h = (gj_i32)gj_popcount(weights & 0xaaaaaaaau);
    gj_i32 hl = (gj_i32)gj_popcount(weights & weights >> 1 & 0x55555555u);
    gj_i32 n = 16 - (gj_i32)gj_popcount(skip & 0x55555555u), sa = l + 2 * h, a2 = l + 4 * h + 4 * hl;
    gj_i32 sum[3];
    int p, ch;

    GJ_UNROLL
    for (ch = 0; ch < 3; ch++)
        sum[ch] = blk->sum[ch];
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        gj_u32 a = weights >> (2 * p) & 3u;
        ax_rb += a * (blk->px[p] & 0xff00ffu);
        ax_g += a * (blk->px[p] >> 8 & 255u);
    }
    if (skip) {
        GJ_UNROLL
        for (p = 0; p < 16; p++) {
            gj_i32 s = (gj_i32)(skip >> (2 * p) & 1u);
            GJ_UNROLL
            for (ch = 0; ch < 3; ch++)
                sum[ch] -= s * gj_dxt_blk(blk, ch, p);
        }
    }
    m->a2 = a2;
    m->b2 = den * den * n - 2 * den * sa + a2;
    m->ab = den * sa - a2;
    m->ax[0] = (gj_i32)(ax_rb & 0xffffu);
    m->ax[1] = (gj_i32)ax_g;
    m->ax[2] = (gj_i32)(ax_rb >> 16);
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++)
        m->bx[ch] = den * sum[ch] - m->ax[ch];
}

/* Least-squares endpoints for weights and skip as in gj_dxt_color_lsq_sums; 0 when not determined. */
GJ_FUNC int gj_dxt_color_lsq(const gj_dxt_rgb_block *blk, gj_u32 weights, gj_u32 skip, gj_i32 den, gj_i32 *e0,
                             gj_i32 *e1)
{
    gj_dxt_lsq_sums m;

    gj_dxt_color_lsq_sums(blk, weights, skip, den, &m);
    return gj_dxt_color_solve(&m, den, e0, e1);
}

/*
 * The weights of endpoint 0 that the best block's indices give (*weights, as
 * for gj_dxt_color_lsq) and its black pixels (*skip); returns whether the
 * block is in the four-colour mode (weights of 3, else of 2).
 */
GJ_FUNC gj_u32 gj_dxt_color_index_weights(const gj_dxt_color_result *best, gj_u32 four_only, gj_u32 *weights,
                                          gj_u32 *skip)
{
    gj_u32 four = four_only || (best->w0 & 0xffffu) > best->w0 >> 16;
    gj_u32 l = best->w1 & 0x55555555u, h = best->w1 >> 1 & 0x55555555u;

    /* Weight of endpoint 0 by index (bits h l), for all 16 pixels at once: four
     * colours 3, 0, 2, 1 (of 3); three colours 2, 0, 1 (of 2), black not fitted. */
    if (four) {
        *weights = (~(h ^ l) & 0x55555555u) | (~l & 0x55555555u) << 1;
        *skip = 0;
    } else {
        *weights = (h & ~l) | (~(h | l) & 0x55555555u) << 1;
        *skip = h & l;
    }
    return four;
}

/*
 * The best block's endpoints refitted to its own indices, in the order that
 * keeps its mode, as *q0, *q1; 0 when its indices do not determine two.
 */
GJ_FUNC int gj_dxt_color_refit_codes(const gj_dxt_rgb_block *blk, gj_u32 four_only, gj_i32 fixed_blue,
                                     const gj_dxt_color_result *best, gj_u32 *q0, gj_u32 *q1)
{
    gj_u32 weights, skip, a, b;
    gj_u32 four = gj_dxt_color_index_weights(best, four_only, &weights, &skip);
    gj_i32 e0[3], e1[3];

    if (!gj_dxt_color_lsq(blk, weights, skip, four ? 3 : 2, e0, e1))
        return 0;
    a = gj_dxt_with_blue(gj_dxt_quantize565(e0), fixed_blue);
    b = gj_dxt_with_blue(gj_dxt_quantize565(e1), fixed_blue);
    *q0 = four ? gj_max(a, b) : gj_min(a, b);
    *q1 = four ? gj_min(a, b) : gj_max(a, b);
    return 1;
}

/* Refits the best block's endpoints to its own indices and tries the result. */
GJ_FUNC void gj_dxt_color_refit(const gj_dxt_rgb_block *blk, gj_u32 four_only, gj_i32 fixed_blue,
                                gj_dxt_color_result *best)
{
    gj_u32 q0, q1;

    if (gj_dxt_color_refit_codes(blk, four_only, fixed_blue, best, &q0, &q1))
        gj_dxt_color_try(blk, q0, q1, four_only, best);
}

/*
 * Sums, and the covariance signs of each channel against the widest one (the
 * first of equals). The widest is picked by selects, not by an index, so the
 * block stays in registers on the GPU.
 */
GJ_FUNC void gj_dxt_color_diagonal(const gj_dxt_rgb_block *blk, const gj_i32 *lo, const gj_i32 *hi,
                                   gj_i32 *flip)
{
    gj_i32 xx[3] = { 0, 0, 0 }, r0 = hi[0] - lo[0], r1 = hi[1] - lo[1], r2 = hi[2] - lo[2];
    gj_u32 d = r1 > r0 ? 1u : 0u, sel[3];
    gj_i32 sum_d;
    int p, ch;

    if (r2 > gj_max(r0, r1))
        d = 2;
    sum_d = d == 0 ? blk->sum[0] : d == 1 ? blk->sum[1] : blk->sum[2];
    /* sel[ch]: channel d of a pixel in byte ch, zeros (byte 3) elsewhere, so that
     * the pixel's dot product with it is x_ch x_d. */
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++)
        sel[ch] = (0x3333u & ~(15u << (4 * ch))) | d << (4 * ch);
    GJ_UNROLL
    for (p = 0; p < 16; p++)
        GJ_UNROLL
        for (ch = 0; ch < 3; ch++)
            xx[ch] = gj_dot4_u8(blk->px[p], gj_byte_perm(blk->px[p], sel[ch]), xx[ch]);
    /* The covariance sum (16 x_d - sum_d) (16 x_ch - sum_ch) is 256 xx - 16 sum_d sum_ch
     * (both < 2^29): negative when 16 xx < sum_d sum_ch. */
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++)
        flip[ch] = 16 * xx[ch] < sum_d * blk->sum[ch];
}

/* The endpoint pair lo..hi per channel, on the block's diagonal (8-bit values), as codes q0 | q1 << 16. */
GJ_FUNC gj_u32 gj_dxt_color_box_codes(const gj_dxt_rgb_block *blk, const gj_i32 *lo, const gj_i32 *hi,
                                      gj_i32 fixed_blue)
{
    gj_i32 flip[3], e0[3], e1[3];
    int ch;

    gj_dxt_color_diagonal(blk, lo, hi, flip);
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        e0[ch] = flip[ch] ? lo[ch] : hi[ch];
        e1[ch] = flip[ch] ? hi[ch] : lo[ch];
    }
    return gj_dxt_with_blue(gj_dxt_quantize565(e0), fixed_blue) |
           gj_dxt_with_blue(gj_dxt_quantize565(e1), fixed_blue) << 16;
}

/* The box lo..hi on the block's diagonal, in both of BC1's orders. */
GJ_FUNC void gj_dxt_color_try_box(const gj_dxt_rgb_block *blk, const gj_i32 *lo, const gj_i32 *hi,
                                  gj_u32 four_only, gj_i32 fixed_blue, gj_dxt_color_result *best)
{
    gj_u32 codes = gj_dxt_color_box_codes(blk, lo, hi, fixed_blue);

    gj_dxt_color_try_pair(blk, codes & 0xffffu, codes >> 16, four_only, best);
}

/*
 * The codes (a, b) whose one-third point (2 a' + b') / 3 (a', b' the decoded
 * values) comes nearest to v: a flat block then decodes to its own colour
 * instead of the nearest 5/6-bit value (up to 4 away).
 */
GJ_FUNC gj_u32 gj_dxt_flat_pair(gj_i32 v, int ch)
{
    gj_i32 m = gj_dxt_565_max(ch), a, best_err = 1 << 20, best = 0;
    gj_u32 bits = ch == 1 ? 6u : 5u;

    for (a = 0; a <= m; a++) {
        gj_i32 ea = (gj_i32)gj_dxt_expand((gj_u32)a, bits);
        gj_i32 b = gj_dxt_clamp(((3 * v - 2 * ea) * m + 127) / 255, m), d;
        GJ_UNROLL
        for (d = -1; d <= 1; d++) {
            gj_i32 bb = gj_dxt_clamp(b + d, m);
            gj_i32 err = (2 * ea + (gj_i32)gj_dxt_expand((gj_u32)bb, bits)) / 3 - v;
            err = err < 0 ? -err : err;
            if (err < best_err) {
                best_err = err;
                best = a << 8 | bb;
            }
        }
    }
    return (gj_u32)best;
}

/* Blocks whose channels all vary by at most this much also try the flat fit. */
#define GJ_DXT_FLAT_RANGE 12
/* fast: blocks whose channels all vary by at most this much take the flat fit alone. */
#define GJ_DXT_FAST_FLAT_RANGE 4

/* The largest channel range of the block. */
GJ_FUNC gj_i32 gj_dxt_color_range(const gj_dxt_rgb_block *blk)
{
    return gj_max(blk->hi[0] - blk->lo[0], gj_max(blk->hi[1] - blk->lo[1], blk->hi[2] - blk->lo[2]));
}

/* The table of gj_dxt_flat_pair for both channel precisions (gj_dxt_params.flat_pairs), on the host. */
GJ_FUNC void gj_dxt_fill_flat_pairs(gj_u16 *table)
{
    int v;

    for (v = 0; v < 256; v++) {
        table[v] = (gj_u16)gj_dxt_flat_pair(v, 0);
        table[256 + v] = (gj_u16)gj_dxt_flat_pair(v, 1);
    }
}

/*
 * A nearly flat block's mean colour by the one-third points of flat_pair (looked
 * up in flat_pairs), as codes q0 | q1 << 16.
 */
GJ_FUNC gj_u32 gj_dxt_color_flat_codes(const gj_dxt_rgb_block *blk, GJ_GLOBAL const gj_u16 *flat_pairs,
                                       gj_i32 fixed_blue)
{
    gj_u32 q0 = 0, q1 = 0;
    int ch;

    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        gj_u32 pair = flat_pairs[(ch == 1 ? 256 : 0) + (blk->sum[ch] + 8) / 16];
        q0 |= (pair >> 8) << gj_dxt_565_shift(ch);
        q1 |= (pair & 255u) << gj_dxt_565_shift(ch);
    }
    return gj_dxt_with_blue(q0, fixed_blue) | gj_dxt_with_blue(q1, fixed_blue) << 16;
}

/* The flat block's pair in both of BC1's orders. */
GJ_FUNC void gj_dxt_color_try_flat(const gj_dxt_rgb_block *blk, GJ_GLOBAL const gj_u16 *flat_pairs,
                                   gj_u32 four_only, gj_i32 fixed_blue, gj_dxt_color_result *best)
{
    gj_u32 codes = gj_dxt_color_flat_codes(blk, flat_pairs, fixed_blue);

    gj_dxt_color_try_pair(blk, codes & 0xffffu, codes >> 16, four_only, best);
}

/* The bounding box, inset by 1/16 of each channel's range (van Waveren). */
GJ_FUNC void gj_dxt_inset_box(const gj_dxt_rgb_block *blk, gj_i32 *lo, gj_i32 *hi)
{
    int ch;

    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        gj_i32 inset = (blk->hi[ch] - blk->lo[ch]) >> 4;
        lo[ch] = blk->lo[ch] + inset;
        hi[ch] = blk->hi[ch] - inset;
    }
}

/*
 * fast's weights without a measurement: each pixel's weight of endpoint q0
 * (of 3) by its projection t = x.d on d = e0 - e1 (the decoded endpoints),
 * rounded to the nearest third of the segment: the count of k = 1, 3, 5 with
 * 6 (t - e1.d) >= k |d|^2, i.e. t >= ceil((k |d|^2 + 6 e1.d) / 6). x.d is two
 * byte dot products, d's positive and negative parts.
 */
GJ_FUNC gj_u32 gj_dxt_color_project(const gj_dxt_rgb_block *blk, gj_u32 q0, gj_u32 q1)
{
    gj_u32 e0 = gj_dxt_expand565(q0), e1 = gj_dxt_expand565(q1), dpos = 0, dneg = 0, weights = 0xffffffffu;
    gj_i32 len2, e1d, thr[3];
    int ch, k, p;

    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        gj_i32 d = GJ_DXT_CH(e0, ch) - GJ_DXT_CH(e1, ch);
        dpos |= (gj_u32)gj_max(d, 0) << (8 * ch);
        dneg |= (gj_u32)gj_max(-d, 0) << (8 * ch);
    }
    len2 = gj_dot4_u8(dpos, dpos, gj_dot4_u8(dneg, dneg, 0));
    e1d = gj_dot4_u8(e1, dpos, 0) - gj_dot4_u8(e1, dneg, 0);
    /* ceil(T / 6) with T + 6 * 2^20 > 0 (|T| < 11 * 3 * 255^2): an unsigned division by a constant */
    GJ_UNROLL
    for (k = 0; k < 3; k++)
        thr[k] = (gj_i32)(((gj_u32)((2 * k + 1) * len2 + 6 * e1d) + 6u * 1048576u + 5u) / 6u) - 1048576;
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        gj_i32 t = gj_dot4_u8(blk->px[p], dpos, 0) - gj_dot4_u8(blk->px[p], dneg, 0);
        /* 3 less the signs of t - thr[k] (no overflow: all below 2^22 in magnitude) */
        gj_u32 below = ((gj_u32)(t - thr[0]) >> 31) + ((gj_u32)(t - thr[1]) >> 31) + ((gj_u32)(t - thr[2]) >> 31);
        weights -= below << (2 * p);
    }
    return weights;
}

/*
 * fast: one candidate, measured once for its indices. A flat block (every
 * channel within GJ_DXT_FAST_FLAT_RANGE) takes its mean
 * (gj_dxt_color_flat_codes); any other the inset box on the block's diagonal,
 * refitted by least squares to the weights of its projection
 * (gj_dxt_color_project; the box itself where they do not determine two
 * endpoints), in the four-colour order. Measuring both for the blocks within
 * GJ_DXT_FLAT_RANGE ran a second measurement in nearly every warp of a 4K
 * photograph (three blocks in four are that flat) for 0.0-0.5 dB (BC1, the test
 * photographs: doc/benchmarks.md, thirteenth session). BC1's three-colour order
 * (tried by the other levels) gained at most 0.06 dB on the test photographs and
 * on the near-black synthetic picture, for a fifth of the kernel's instructions.
 */
GJ_FUNC void gj_dxt_color_box_refit(const gj_dxt_rgb_block *blk, GJ_GLOBAL const gj_u16 *flat_pairs,
                                    gj_u32 four_only, gj_i32 fixed_blue, gj_dxt_color_result *best)
{
    gj_i32 lo[3], hi[3], e0[3], e1[3];
    gj_u32 codes, q0, q1;

    if (gj_dxt_color_range(blk) <= GJ_DXT_FAST_FLAT_RANGE) {
        codes = gj_dxt_color_flat_codes(blk, flat_pairs, fixed_blue);
    } else {
        gj_dxt_inset_box(blk, lo, hi);
        codes = gj_dxt_color_box_codes(blk, lo, hi, fixed_blue);
        q0 = gj_max(codes & 0xffffu, codes >> 16);
        q1 = gj_min(codes & 0xffffu, codes >> 16);
        /* YCoCg (blue holds the scale) keeps the inset box itself, as FFmpeg's HAP Q
         * encoder does: the refit was a fifth of that kernel's time for
         * 0.3-0.9 dB, and the box stays above hap_q (doc/benchmarks.md, thirteenth session). */
        if (fixed_blue < 0 && gj_dxt_color_lsq(blk, gj_dxt_color_project(blk, q0, q1), 0, 3, e0, e1))
            codes = gj_dxt_with_blue(gj_dxt_quantize565(e0), fixed_blue) |
                    gj_dxt_with_blue(gj_dxt_quantize565(e1), fixed_blue) << 16;
    }
    gj_dxt_color_try(blk, gj_max(codes & 0xffffu, codes >> 16), gj_min(codes & 0xffffu, codes >> 16), four_only,
                     best);
}

/*
 * LSpiro step 1 for channel ch: quantise to the endpoint precision (which
 * drops near-duplicates), take the unique values in order, fit
 * value = a + b * rank by least squares and return the line's ends at ranks 0
 * and n - 1, in 8-bit units.
 *
 * The paper ranks the unique values by counting smaller ones (no sorting
 * network, no branches on data: 16 x 16 compares per channel, most of the
 * balanced kernel's instructions). With 5/6-bit values a 64-bit mask of the
 * values present is the unique sorted set itself: its set bits in order are
 * the values by rank, a short loop over at most 16 bits (the same sums, so the
 * same endpoints).
 */
GJ_FUNC void gj_dxt_lspiro_channel(const gj_dxt_rgb_block *blk, int ch, gj_i32 *lo, gj_i32 *hi)
{
    gj_i32 qmax = gj_dxt_565_max(ch), n = 0, su = 0, sku = 0, sk, skk, den, a, b, l, h;
    gj_u64 present = 0;
    int i, word;

    GJ_UNROLL
    for (i = 0; i < 16; i++)
        present |= (gj_u64)1 << ((gj_dxt_blk(blk, ch, i) * qmax + 127) / 255);
    /* n: the rank of the next value; su, sku: the sums of value and rank * value. */
    GJ_UNROLL
    for (word = 0; word < 2; word++) {
        gj_u32 m = (gj_u32)(present >> (32 * word));
        while (m) {
            gj_i32 v = 32 * word + (gj_i32)gj_popcount((m & (0u - m)) - 1u);
            su += v;
            sku += n * v;
            n++;
            m &= m - 1u;
        }
    }
    sk = n * (n - 1) / 2;
    skk = (n - 1) * n * (2 * n - 1) / 6;
    den = n * skk - sk * sk;
    if (den == 0) {
        l = h = su;              /* one unique value */
    } else {
        a = su * skk - sk * sku; /* intercept * den */
        b = n * sku - sk * su;   /* slope * den */
        gj_u32 r = gj_dxt_recip(den);
        l = gj_dxt_clamp(gj_dxt_div_round(a, den, r), qmax);
        h = gj_dxt_clamp(gj_dxt_div_round(a + b * (n - 1), den, r), qmax);
    }
    /* Back to 8 bits as the decoders expand them. */
    *lo = (gj_i32)gj_dxt_expand((gj_u32)l, qmax == 31 ? 5u : 6u);
    *hi = (gj_i32)gj_dxt_expand((gj_u32)h, qmax == 31 ? 5u : 6u);
}

/*
 * balanced: LSpiro steps 1 and 2. The two boxes and the refits each run one
 * copy of their code in a loop (one measurement's code serves every
 * candidate: the unrolled copies overflowed the GPU's instruction cache).
 */
GJ_FUNC void gj_dxt_color_balanced(const gj_dxt_rgb_block *blk, gj_u32 four_only, gj_i32 fixed_blue,
                                   gj_dxt_color_result *best)
{
    gj_i32 lo[3], hi[3];
    int ch, box, r;

    /* YCoCg's blue is its fixed scale code: constant over the block, so never
     * the box's widest channel, and its endpoint codes are replaced anyway. */
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        lo[ch] = hi[ch] = 0;
        if (ch < 2 || fixed_blue < 0)
            gj_dxt_lspiro_channel(blk, ch, &lo[ch], &hi[ch]);
    }
    /* Then the inset box, which starts better where a
     * channel's unique values are skewed. */
    GJ_NO_UNROLL
    for (box = 0; box < 2; box++) {
        gj_dxt_color_try_box(blk, lo, hi, four_only, fixed_blue, best);
        gj_dxt_inset_box(blk, lo, hi);
    }
    GJ_NO_UNROLL
    for (r = 0; r < 3; r++)
        gj_dxt_color_refit(blk, four_only, fixed_blue, best);
}

/*
 * v[0..2] shifted so that the largest magnitude has 10 bits (512 .. 1023):
 * the power iteration's scale by shifts, not divisions (64-bit divisions were
 * most of the axis's instructions). Returns 0 when v is zero.
 */
GJ_FUNC int gj_dxt_scale10(gj_i32 *v)
{
    gj_i32 m = 0, s;
    int a;

    GJ_UNROLL
    for (a = 0; a < 3; a++)
        m = gj_max(m, v[a] < 0 ? -v[a] : v[a]);
    if (m == 0)
        return 0;
    s = 54 - (gj_i32)gj_clz64((gj_u64)m);   /* bits of m, less 10 */
    GJ_UNROLL
    for (a = 0; a < 3; a++)
        v[a] = s > 0 ? v[a] >> s : v[a] * (1 << -s);
    return 1;
}

/*
 * The principal axis of the block's colours (integer power iteration on the
 * covariance matrix, the vector kept at 10 bits by shifts). Returns 0 for a
 * single-colour block.
 */
GJ_FUNC int gj_dxt_principal_axis(const gj_dxt_rgb_block *blk, gj_i32 *axis)
{
    gj_i32 cov[3][3], c6[6], v[3], mx, s;
    int p, a, b, it, k, start = 0;

    /* The six channel pairs a <= b (a, b in the nibbles of 0x211000 and 0x221210) in a
     * rolled loop (unrolled, 200 instructions run once per block). sum (16 x_a - sum_a)
     * (16 x_b - sum_b) = 256 sum x_a x_b - 16 sum_a sum_b (both < 2^29); x_a x_b is the
     * pixel's dot product with its channel b moved to byte a (byte 3 of a pixel is zero),
     * as in gj_dxt_color_diagonal. Sums by selects: no dynamic index into the block. */
    GJ_NO_UNROLL
    for (k = 0; k < 6; k++) {
        gj_u32 ka = 0x211000u >> (4 * k) & 15u, kb = 0x221210u >> (4 * k) & 15u;
        gj_u32 sel = (0x3333u & ~(15u << (4 * ka))) | kb << (4 * ka);
        gj_i32 sa = ka == 0 ? blk->sum[0] : ka == 1 ? blk->sum[1] : blk->sum[2];
        gj_i32 sb = kb == 0 ? blk->sum[0] : kb == 1 ? blk->sum[1] : blk->sum[2], xx = 0;
        GJ_UNROLL
        for (p = 0; p < 16; p++)
            xx = gj_dot4_u8(blk->px[p], gj_byte_perm(blk->px[p], sel), xx);
        c6[k] = 256 * xx - 16 * sa * sb;
    }
    k = 0;
    GJ_UNROLL
    for (a = 0; a < 3; a++) {
        GJ_UNROLL
        for (b = a; b < 3; b++)
            cov[a][b] = cov[b][a] = c6[k++];
    }
    /* The row of the largest variance (the first of equals), by selects: no dynamic index. */
    start = cov[1][1] > cov[0][0] ? 1 : 0;
    if (cov[2][2] > gj_max(cov[0][0], cov[1][1]))
        start = 2;
    mx = gj_max(cov[0][0], gj_max(cov[1][1], cov[2][2]));
    if (mx == 0)
        return 0;
    /* |cov[a][b]| <= the largest variance: shifted below 2^18, a row's products with a
     * 10-bit vector sum to less than 3 * 2^28 in 32 bits. */
    s = gj_max(46 - (gj_i32)gj_clz64((gj_u64)mx), 0);
    GJ_UNROLL
    for (a = 0; a < 3; a++)
        GJ_UNROLL
        for (b = 0; b < 3; b++)
            cov[a][b] >>= s;
    GJ_UNROLL
    for (a = 0; a < 3; a++)
        v[a] = start == 0 ? cov[0][a] : start == 1 ? cov[1][a] : cov[2][a];
    /* rolled: unrolled, its eight steps were 500 instructions run once per block */
    GJ_NO_UNROLL
    for (it = 0; it < 8; it++) {
        gj_i32 w[3];
        if (!gj_dxt_scale10(v))
            return 0;
        GJ_UNROLL
        for (a = 0; a < 3; a++)
            w[a] = cov[a][0] * v[0] + cov[a][1] * v[1] + cov[a][2] * v[2];
        GJ_UNROLL
        for (a = 0; a < 3; a++)
            v[a] = w[a];
    }
    if (!gj_dxt_scale10(v))
        return 0;
    GJ_UNROLL
    for (a = 0; a < 3; a++)
        axis[a] = v[a];
    return 1;
}

/*
 * Step 2 of the split search (dxt_cluster_splits.h): over split s and its
 * first `moves` neighbours (GJ_DXT_SPLIT_MOVES, or 0: s alone), each split's
 * least-squares endpoints rounded to RGB565 and den^2 times the error of the
 * split's own weights with them (the sums come from the prefix sums pre:
 * sum ax = (Q + sum a * sum x) / 16). codes[0], codes[1]: the best two distinct
 * code pairs, endpoint 0 | endpoint 1 << 16; returns how many were found (0 to 2).
 */
GJ_FUNC int gj_dxt_color_split_codes(const gj_dxt_rgb_block *blk, const gj_i32 *pre, gj_u32 s, gj_u32 three,
                                      int moves, gj_i32 fixed_blue, gj_u32 *codes)
{
    gj_i32 den = three ? 2 : 3, err[2], q[3], e0[3], e1[3];
    /* 16 times the block's variance, sum |x - mean|^2 (< 2^26) */
    gj_i32 v16 = 16 * blk->norm - blk->sum[0] * blk->sum[0] - blk->sum[1] * blk->sum[1] - blk->sum[2] * blk->sum[2];
    gj_dxt_lsq_sums m;
    int n, ch;

    err[0] = err[1] = 0x7fffffff;
    codes[0] = codes[1] = 0;
    GJ_NO_UNROLL
    for (n = -1; n < moves; n++) {
        gj_u32 t = n < 0 ? s : gj_dxt_split_move(s, gj_dxt_split_moves[n]), c, x0, x1;
        gj_dxt_split_sums w;
        gj_i32 f;
        if (t == 0xffffffffu || (three && GJ_DXT_SPLIT_K(t) != 16))
            continue;
        w = gj_dxt_split_weights(t, three);
        if (w.det <= 0)
            continue;
        gj_dxt_split_q(pre, t, q);
        /* The error before rounding, den^2 (v16 / 16 - den^2 |Q|^2 / (16 det)), bounds the
         * error after it from below: at or above the second best, the split cannot enter. */
        if ((gj_i64)den * den * ((gj_i64)v16 * w.det - (gj_i64)den * den * gj_dxt_split_q2(q)) >=
            16 * (gj_i64)w.det * err[1])
            continue;
        m.a2 = w.a2;
        m.b2 = w.b2;
        m.ab = w.ab;
        GJ_UNROLL
        for (ch = 0; ch < 3; ch++) {
            m.ax[ch] = (q[ch] + w.sa * blk->sum[ch]) >> 4;
            m.bx[ch] = den * blk->sum[ch] - m.ax[ch];
        }
        gj_dxt_color_solve(&m, den, e0, e1);
        c = gj_dxt_with_blue(gj_dxt_quantize565(e0), fixed_blue) |
            gj_dxt_with_blue(gj_dxt_quantize565(e1), fixed_blue) << 16;
        x0 = gj_dxt_expand565(c & 0xffffu);
        x1 = gj_dxt_expand565(c >> 16);
        f = den * den * blk->norm;
        GJ_UNROLL
        for (ch = 0; ch < 3; ch++)
            f += gj_dxt_lsq_channel_error(&m, den, ch, GJ_DXT_CH(x0, ch), GJ_DXT_CH(x1, ch));
        if (c == codes[0])
            continue;
        if (f < err[0]) {
            err[1] = err[0];
            codes[1] = codes[0];
            err[0] = f;
            codes[0] = c;
        } else if (f < err[1]) {
            err[1] = f;
            codes[1] = c;
        }
    }
    return (err[0] < 0x7fffffff) + (err[1] < 0x7fffffff);
}

/*
 * The splits of the block's sorted pixels that the projections t on the axis
 * give: boundaries where t crosses the fractions (2 m + 1) / (2 c) of its range,
 * m = 0 .. c - 2, for c = 4 clusters (start[0], as i | j << 8 | k << 16) and
 * for BC1's three (start[1], k = 16), both in one rolled loop (unrolled, 180
 * instructions run once per block; a loop per mode ran BC1's twice). The
 * projections come as gj_dxt_color_cluster's keys 16 t + p (t = key >> 4).
 */
GJ_FUNC void gj_dxt_color_split_starts(const gj_i32 *key, gj_i32 tmin, gj_i32 range, gj_u32 *start)
{
    gj_i32 b[5] = { 0, 0, 0, 0, 0 };
    int p;

    GJ_NO_UNROLL
    for (p = 0; p < 16; p++) {
        gj_i32 d = (key[p] >> 4) - tmin;
        b[0] += 6 * d < range;
        b[1] += 6 * d < 3 * range;
        b[2] += 6 * d < 5 * range;
        b[3] += 4 * d < range;
        b[4] += 4 * d < 3 * range;
    }
    start[0] = GJ_DXT_SPLIT(b[0], b[1], b[2]);
    start[1] = GJ_DXT_SPLIT(b[3], b[4], 16);
}

/*
 * Slots of high's measurement queue (gj_dxt_color_high): 0-1 a nearly flat
 * block's pair, 2-5 the cluster fit's best two code pairs (or a one-colour
 * block's box), 6 BC1's three-colour pair; each pair where BC1 allows it also in
 * its other order (a slot of its own).
 */
#define GJ_DXT_HIGH_SLOTS 7
/* The refinement after them: a refit, the one-step search (12 moves), a refit. */
#define GJ_DXT_HIGH_REFINE 14

/*
 * Queues codes (q0 | q1 << 16) in slot `slot` of cand in the four-colour order
 * and, where BC1 allows it, in slot + 1 in the three-colour one (as
 * gj_dxt_color_try_pair measures them); their bits in *valid.
 */
GJ_FUNC void gj_dxt_color_queue_pair(gj_u32 codes, gj_u32 four_only, int slot, gj_u32 *cand, gj_u32 *valid)
{
    gj_u32 hi = gj_max(codes & 0xffffu, codes >> 16), lo = gj_min(codes & 0xffffu, codes >> 16);

    cand[slot] = hi | lo << 16;
    *valid |= 1u << slot;
    if (!four_only && hi != lo) {
        cand[slot + 1] = lo | hi << 16;
        *valid |= 2u << slot;
    }
}

/*
 * high: cluster fit. The pixels sorted along the principal axis; a local
 * search of the splits into four ordered clusters (and for BC1 three, the
 * three-colour mode) by their least-squares error, then the best two splits
 * after rounding queued for measurement (dxt_cluster_splits.h): which split
 * wins after rounding is what decides the quality. Returns 0 for a
 * single-colour block, whose inset box is queued instead (and not refined).
 */
GJ_FUNC int gj_dxt_color_cluster(const gj_dxt_rgb_block *blk, gj_u32 four_only, gj_i32 fixed_blue, gj_u32 *cand,
                                 gj_u32 *valid)
{
    gj_i32 axis[3], t[16], key[16], rank[16], pre[4 * 17], acc[3], tmin, tmax;
    gj_u32 sorted[16], codes[2], start[2], three;
    int p, q, ch;

    if (!gj_dxt_principal_axis(blk, axis)) {
        gj_i32 lo[3], hi[3];
        gj_dxt_inset_box(blk, lo, hi);
        gj_dxt_color_queue_pair(gj_dxt_color_box_codes(blk, lo, hi, fixed_blue), four_only, 2, cand, valid);
        return 0;
    }
    GJ_UNROLL
    for (p = 0; p < 16; p++)
        t[p] = axis[0] * gj_dxt_blk(blk, 0, p) + axis[1] * gj_dxt_blk(blk, 1, p) + axis[2] * gj_dxt_blk(blk, 2, p);
    /* Keys 16 t + p (|t| < 3 * 1023 * 255 < 2^20): distinct, in the order of t with
     * equals by position, so that a pixel's rank is the count of smaller keys. */
    tmin = tmax = t[0];
    GJ_UNROLL
    for (p = 0; p < 16; p++) {
        key[p] = 16 * t[p] + p;
        tmin = gj_min(tmin, t[p]);
        tmax = gj_max(tmax, t[p]);
    }
    /* rolled: unrolled, the 256 comparisons were 600 instructions run once per block */
    GJ_NO_UNROLL
    for (p = 0; p < 16; p++) {
        gj_i32 r = 0, k = key[p];
        GJ_UNROLL
        for (q = 0; q < 16; q++)
            r += key[q] < k;
        rank[p] = r;
    }
    /* The pixels in sorted order, then the prefix sums of y = 16 x - sum over them
     * (|P| < 8 * 4080, P[0] = P[16] = 0) in a rolled loop (unrolled per channel, 380
     * instructions run once per block). */
    GJ_UNROLL
    for (p = 0; p < 16; p++)
        sorted[rank[p]] = blk->px[p];
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++)
        acc[ch] = pre[ch] = 0;
    GJ_NO_UNROLL
    for (p = 0; p < 16; p++) {
        gj_u32 x = sorted[p];
        GJ_UNROLL
        for (ch = 0; ch < 3; ch++) {
            acc[ch] += 16 * GJ_DXT_CH(x, ch) - blk->sum[ch];
            pre[4 * (p + 1) + ch] = acc[ch];
        }
    }
    gj_dxt_color_split_starts(key, tmin, tmax - tmin, start);
    /* Four colours, then BC1's three: one copy of the code in a loop. */
    GJ_NO_UNROLL
    for (three = 0; three < (four_only ? 1u : 2u); three++) {
        gj_u32 s = gj_dxt_split_search(pre, three ? start[1] : start[0], three);
        /* four colours: the best two over the split's neighbourhood; three: the split alone
         * (its neighbours gained at most 0.02 dB on the test photos, for 40 % of BC1's
         * estimates) */
        int n = gj_dxt_color_split_codes(blk, pre, s, three, three ? 0 : GJ_DXT_SPLIT_MOVES, fixed_blue, codes);
        if (three) {
            /* in the three-colour order, also where both codes are equal */
            cand[6] = gj_min(codes[0] & 0xffffu, codes[0] >> 16) | gj_max(codes[0] & 0xffffu, codes[0] >> 16) << 16;
            *valid |= n > 0 ? 1u << 6 : 0u;
        } else {
            if (n > 0)
                gj_dxt_color_queue_pair(codes[0], four_only, 2, cand, valid);
            if (n > 1)
                gj_dxt_color_queue_pair(codes[1], four_only, 4, cand, valid);
        }
    }
    return 1;
}

/*
 * The best block's endpoints refitted to its own indices, each channel's pair
 * of codes chosen among the 3 x 3 around the rounded least-squares values by
 * the error of those indices (gj_dxt_lsq_channel_error: channels are
 * independent for fixed indices), as *q (q0 | q1 << 16, in the order that keeps
 * the block's mode); 0 when its indices do not determine two endpoints.
 */
GJ_FUNC int gj_dxt_color_refit_grid(const gj_dxt_rgb_block *blk, gj_u32 four_only, gj_i32 fixed_blue,
                                    const gj_dxt_color_result *best, gj_u32 *q)
{
    gj_u32 weights, skip, a = 0, b = 0;
    gj_u32 four = gj_dxt_color_index_weights(best, four_only, &weights, &skip);
    gj_i32 den = four ? 3 : 2, e0[3], e1[3];
    gj_dxt_lsq_sums m;
    int ch, d;

    gj_dxt_color_lsq_sums(blk, weights, skip, den, &m);
    if (!gj_dxt_color_solve(&m, den, e0, e1))
        return 0;
    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        gj_i32 mx = gj_dxt_565_max(ch), c0 = gj_dxt_quantize_ch(e0[ch], ch), c1 = gj_dxt_quantize_ch(e1[ch], ch);
        gj_i32 b0 = c0, b1 = c1, best_f = 0x7fffffff, v0[3], v1[3], f0[3], f1[3];
        gj_u32 bits = ch == 1 ? 6u : 5u, ok0 = 0, ok1 = 0;
        /* gj_dxt_lsq_channel_error split into the terms of v0 alone, of v1 alone
         * and the cross term: each endpoint's three codes once, not per pair (a code
         * out of range is clamped, its terms unused: no overflow) */
        GJ_UNROLL
        for (d = 0; d < 3; d++) {
            v0[d] = (gj_i32)gj_dxt_expand((gj_u32)gj_dxt_clamp(c0 + d - 1, mx), bits);
            v1[d] = (gj_i32)gj_dxt_expand((gj_u32)gj_dxt_clamp(c1 + d - 1, mx), bits);
            f0[d] = m.a2 * v0[d] * v0[d] - 2 * den * m.ax[ch] * v0[d];
            f1[d] = m.b2 * v1[d] * v1[d] - 2 * den * m.bx[ch] * v1[d];
            ok0 |= (gj_u32)(c0 + d - 1 >= 0 && c0 + d - 1 <= mx) << d;
            ok1 |= (gj_u32)(c1 + d - 1 >= 0 && c1 + d - 1 <= mx) << d;
        }
        GJ_UNROLL
        for (d = 0; d < 9; d++) {
            gj_i32 f;
            if (!(ok0 >> (d / 3) & ok1 >> (d % 3) & 1u))
                continue;
            f = f0[d / 3] + f1[d % 3] + 2 * m.ab * v0[d / 3] * v1[d % 3];
            if (f < best_f) {
                best_f = f;
                b0 = c0 + d / 3 - 1;
                b1 = c1 + d % 3 - 1;
            }
        }
        a |= (gj_u32)b0 << gj_dxt_565_shift(ch);
        b |= (gj_u32)b1 << gj_dxt_565_shift(ch);
    }
    a = gj_dxt_with_blue(a, fixed_blue);
    b = gj_dxt_with_blue(b, fixed_blue);
    *q = four ? gj_max(a, b) | gj_min(a, b) << 16 : gj_min(a, b) | gj_max(a, b) << 16;
    return 1;
}

/*
 * Move m (0 .. 11) of the endpoint refinement: 565 field m / 2 (red, green,
 * blue of endpoint 0, then of endpoint 1) of the best block one step down
 * (m even) or up, as *q; 0 where it leaves the range or is YCoCg's fixed blue.
 */
GJ_FUNC int gj_dxt_color_search_move(const gj_dxt_color_result *best, int m, gj_i32 fixed_blue, gj_u32 *q)
{
    int f = m >> 1, ch = f % 3;
    gj_u32 shift = gj_dxt_565_shift(ch) + (f >= 3 ? 16u : 0u), w = best->w0;
    gj_i32 mx = gj_dxt_565_max(ch), v = (gj_i32)(w >> shift & (gj_u32)mx) + ((m & 1) ? 1 : -1);

    if ((ch == 2 && fixed_blue >= 0) || v < 0 || v > mx)
        return 0;
    *q = (w & ~((gj_u32)mx << shift)) | (gj_u32)v << shift;
    return 1;
}

/*
 * high: the queued candidates (a nearly flat block's pair, the cluster fit's),
 * then the refinement: a refit to the best block's indices
 * (gj_dxt_color_refit_grid), the one-step search of each endpoint field,
 * greedily, and that refit again. Every measurement runs one copy of its code
 * in one loop: inlined at each of its 7 to 10 places, the measurements and
 * refits made a kernel of 10 to 12 thousand instructions whose warps waited
 * for instructions most of the time (ncu: "no instruction" 45 % of BC1's
 * stalls, 72 % of YCoCg's, H200).
 */
GJ_FUNC void gj_dxt_color_high(const gj_dxt_rgb_block *blk, GJ_GLOBAL const gj_u16 *flat_pairs, gj_u32 four_only,
                               gj_i32 fixed_blue, gj_dxt_color_result *best)
{
    gj_u32 cand[GJ_DXT_HIGH_SLOTS], valid = 0;
    int refine, steps, step, s;

    GJ_UNROLL
    for (s = 0; s < GJ_DXT_HIGH_SLOTS; s++)
        cand[s] = 0;
    if (gj_dxt_color_range(blk) <= GJ_DXT_FLAT_RANGE)
        gj_dxt_color_queue_pair(gj_dxt_color_flat_codes(blk, flat_pairs, fixed_blue), four_only, 0, cand, &valid);
    refine = gj_dxt_color_cluster(blk, four_only, fixed_blue, cand, &valid);
    steps = GJ_DXT_HIGH_SLOTS + (refine ? GJ_DXT_HIGH_REFINE : 0);
    GJ_NO_UNROLL
    for (step = 0; step < steps; step++) {
        gj_u32 q = cand[0], ok = valid & 1u;
        int r = step - GJ_DXT_HIGH_SLOTS;
        /* the queue moves by one: constant indices keep it in registers */
        GJ_UNROLL
        for (s = 0; s + 1 < GJ_DXT_HIGH_SLOTS; s++)
            cand[s] = cand[s + 1];
        valid >>= 1;
        if (r == 0 || r == GJ_DXT_HIGH_REFINE - 1)
            ok = (gj_u32)gj_dxt_color_refit_grid(blk, four_only, fixed_blue, best, &q);
        else if (r > 0)
            ok = (gj_u32)gj_dxt_color_search_move(best, r - 1, fixed_blue, &q);
        if (ok)
            gj_dxt_color_try(blk, q & 0xffffu, q >> 16, four_only, best);
    }
}

/*
 * Encodes one colour block at the given quality. four_only: BC3/YCoCg colour
 * blocks (always four colours). fixed_blue >= 0: the blue code every endpoint
 * must keep (YCoCg's scale). flat_pairs: gj_dxt_params.flat_pairs.
 */
GJ_FUNC void gj_dxt_encode_color(const gj_dxt_rgb_block *blk, GJ_GLOBAL const gj_u16 *flat_pairs, gj_u32 quality,
                                 gj_u32 four_only, gj_i32 fixed_blue, gj_u32 *w0, gj_u32 *w1)
{
    gj_dxt_color_result best;

    best.w0 = 0;
    best.w1 = 0;
    best.err = 0xffffffffu;
    if (quality == GJ_DXT_FAST) {
        gj_dxt_color_box_refit(blk, flat_pairs, four_only, fixed_blue, &best);
    } else if (quality == GJ_DXT_BALANCED) {
        if (gj_dxt_color_range(blk) <= GJ_DXT_FLAT_RANGE)
            gj_dxt_color_try_flat(blk, flat_pairs, four_only, fixed_blue, &best);
        gj_dxt_color_balanced(blk, four_only, fixed_blue, &best);
    } else {
        gj_dxt_color_high(blk, flat_pairs, four_only, fixed_blue, &best);
    }
    *w0 = best.w0;
    *w1 = best.w1;
}

#endif /* GJ_KERNELS_DXT_COLOR_FIT_H */
