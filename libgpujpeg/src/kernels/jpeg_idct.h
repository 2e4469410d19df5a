/*
 * Dequantisation and inverse DCT, bit-exact with libjpeg-turbo's jpeg_idct_islow
 * (the Loeffler-Ligtenberg-Moschytz integer IDCT of IJG's jidctint.c: 13-bit
 * constants, 2 extra bits between the passes, 64-bit intermediates like JLONG).
 */
#ifndef GJ_KERNELS_JPEG_IDCT_H
#define GJ_KERNELS_JPEG_IDCT_H

#include "common.h"
#include "jpeg_params.h"

#define GJ_IDCT_CONST_BITS 13
#define GJ_IDCT_PASS1_BITS 2
#define GJ_FIX_0_298631336 2446
#define GJ_FIX_0_390180644 3196
#define GJ_FIX_0_541196100 4433
#define GJ_FIX_0_765366865 6270
#define GJ_FIX_0_899976223 7373
#define GJ_FIX_1_175875602 9633
#define GJ_FIX_1_501321110 12299
#define GJ_FIX_1_847759065 15137
#define GJ_FIX_1_961570560 16069
#define GJ_FIX_2_053119869 16819
#define GJ_FIX_2_562915447 20995
#define GJ_FIX_3_072711026 25172

/*
 * libjpeg-turbo computes in 64 bits (JLONG); so do we for inputs that need it, and
 * in 32 bits (several times faster on GPUs) for a 1-D transform whose inputs are
 * all at most this large: its intermediates then stay below 12000 * 178219 plus
 * the descale's rounding, inside 31 bits, and both ways give the same result.
 * Real pictures stay well below it; hostile coefficients take the 64-bit way.
 */
#define GJ_IDCT_NARROW_MAX 12000u

/* libjpeg's post-IDCT range limit: the value wraps to 10 bits, then clamps around 128. */
GJ_FUNC gj_u8 gj_idct_range_limit(gj_i32 x)
{
    gj_i32 v = x & 1023;

    v = (v ^ 512) - 512 + 128;
    return (gj_u8)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/*
 * One 1-D 8-point inverse transform of i0..i7 into o[8], descaled by n bits, in
 * integers of type T: the same arithmetic for the 32- and 64-bit ways.
 */
#define GJ_IDCT_1D(NAME, T)                                                                      \
    GJ_FUNC void NAME(T i0, T i1, T i2, T i3, T i4, T i5, T i6, T i7, gj_u32 n, T *o)           \
    {                                                                                            \
        T z1, z2, z3, z4, z5, tmp0, tmp1, tmp2, tmp3, tmp10, tmp11, tmp12, tmp13, round;        \
        /* Even part: the rotator is sqrt(2)*c(-6). */                                           \
        z1 = (i2 + i6) * (T)GJ_FIX_0_541196100;                                                  \
        tmp2 = z1 + i6 * -(T)GJ_FIX_1_847759065;                                                 \
        tmp3 = z1 + i2 * (T)GJ_FIX_0_765366865;                                                  \
        tmp0 = (i0 + i4) * ((T)1 << GJ_IDCT_CONST_BITS);                                         \
        tmp1 = (i0 - i4) * ((T)1 << GJ_IDCT_CONST_BITS);                                         \
        tmp10 = tmp0 + tmp3;                                                                     \
        tmp13 = tmp0 - tmp3;                                                                     \
        tmp11 = tmp1 + tmp2;                                                                     \
        tmp12 = tmp1 - tmp2;                                                                     \
        /* Odd part (LL&M figure 8). */                                                          \
        z1 = i7 + i1;                                                                            \
        z2 = i5 + i3;                                                                            \
        z3 = i7 + i3;                                                                            \
        z4 = i5 + i1;                                                                            \
        z5 = (z3 + z4) * (T)GJ_FIX_1_175875602;                                                  \
        tmp0 = i7 * (T)GJ_FIX_0_298631336;                                                       \
        tmp1 = i5 * (T)GJ_FIX_2_053119869;                                                       \
        tmp2 = i3 * (T)GJ_FIX_3_072711026;                                                       \
        tmp3 = i1 * (T)GJ_FIX_1_501321110;                                                       \
        z1 *= -(T)GJ_FIX_0_899976223;                                                            \
        z2 *= -(T)GJ_FIX_2_562915447;                                                            \
        z3 = z3 * -(T)GJ_FIX_1_961570560 + z5;                                                   \
        z4 = z4 * -(T)GJ_FIX_0_390180644 + z5;                                                   \
        tmp0 += z1 + z3;                                                                         \
        tmp1 += z2 + z4;                                                                         \
        tmp2 += z2 + z3;                                                                         \
        tmp3 += z1 + z4;                                                                         \
        round = (T)1 << (n - 1);                                                                 \
        o[0] = (tmp10 + tmp3 + round) >> n;                                                      \
        o[7] = (tmp10 - tmp3 + round) >> n;                                                      \
        o[1] = (tmp11 + tmp2 + round) >> n;                                                      \
        o[6] = (tmp11 - tmp2 + round) >> n;                                                      \
        o[2] = (tmp12 + tmp1 + round) >> n;                                                      \
        o[5] = (tmp12 - tmp1 + round) >> n;                                                      \
        o[3] = (tmp13 + tmp0 + round) >> n;                                                      \
        o[4] = (tmp13 - tmp0 + round) >> n;                                                      \
    }
GJ_IDCT_1D(gj_idct_1d_narrow, gj_i32)
GJ_IDCT_1D(gj_idct_1d_wide, gj_i64)

/* |x| of each of the eight, at most. */
GJ_FUNC gj_u32 gj_idct_max_abs(const gj_i32 *v, gj_u32 step)
{
    gj_u32 m = 0, k;

    GJ_UNROLL
    for (k = 0; k < 8; k++) {
        gj_i32 x = v[k * step];
        m = gj_max(m, x < 0 ? 0u - (gj_u32)x : (gj_u32)x);
    }
    return m;
}

/*
 * One 1-D transform of v[0], v[step], ..., v[7 step] into out[0..7] (descaled by n
 * bits; libjpeg keeps the result as an int), in 32 bits when the inputs allow
 * (narrow_max, GJ_IDCT_NARROW_MAX; 0 forces 64 bits, for tests).
 */
GJ_FUNC void gj_idct_1d(const gj_i32 *v, gj_u32 step, gj_u32 n, gj_u32 narrow_max, gj_i32 *out)
{
    gj_u32 k;

    if (gj_idct_max_abs(v, step) <= narrow_max) {
        gj_idct_1d_narrow(v[0], v[step], v[2 * step], v[3 * step], v[4 * step], v[5 * step], v[6 * step],
                          v[7 * step], n, out);
    } else {
        gj_i64 o[8];
        gj_idct_1d_wide(v[0], v[step], v[2 * step], v[3 * step], v[4 * step], v[5 * step], v[6 * step],
                        v[7 * step], n, o);
        GJ_UNROLL
        for (k = 0; k < 8; k++)
            out[k] = (gj_i32)o[k];
    }
}

/* The block's 64 coefficients: eight rows of eight, one 16-byte load each on the GPU. */
GJ_FUNC void gj_idct_load_block(GJ_GLOBAL const gj_i16 *coef, gj_i32 *c)
{
    gj_u32 r;

    GJ_UNROLL
    for (r = 0; r < 8; r++) {
#if defined(__CUDACC__)
        int4 w = *(const int4 *)(coef + r * 8);
        c[r * 8 + 0] = (gj_i16)(w.x & 0xFFFF); c[r * 8 + 1] = w.x >> 16;
        c[r * 8 + 2] = (gj_i16)(w.y & 0xFFFF); c[r * 8 + 3] = w.y >> 16;
        c[r * 8 + 4] = (gj_i16)(w.z & 0xFFFF); c[r * 8 + 5] = w.z >> 16;
        c[r * 8 + 6] = (gj_i16)(w.w & 0xFFFF); c[r * 8 + 7] = w.w >> 16;
#elif defined(__OPENCL_VERSION__)
        short8 w = vload8(0, coef + r * 8);
        c[r * 8 + 0] = w.s0; c[r * 8 + 1] = w.s1; c[r * 8 + 2] = w.s2; c[r * 8 + 3] = w.s3;
        c[r * 8 + 4] = w.s4; c[r * 8 + 5] = w.s5; c[r * 8 + 6] = w.s6; c[r * 8 + 7] = w.s7;
#else
        gj_u32 k;
        for (k = 0; k < 8; k++)
            c[r * 8 + k] = coef[r * 8 + k];
#endif
    }
}

/*
 * Dequantises and transforms one block into 64 samples (row-major, four to a
 * little-endian word); narrow_max as for gj_idct_1d().
 */
GJ_FUNC void gj_idct_islow(GJ_GLOBAL const gj_i16 *coef, GJ_GLOBAL const gj_u16 *quant, gj_u32 narrow_max,
                           gj_u32 *out)
{
    gj_i32 v[64], ws[64], o[8];
    gj_u32 c, r, k;

    gj_idct_load_block(coef, v);
    /* |coef| <= 32768 and quant <= 65535: the product fits in 32 bits */
    GJ_UNROLL
    for (k = 0; k < 64; k++)
        v[k] *= (gj_i32)quant[k];
    /* Pass 1: columns from the coefficients into the work array. */
    GJ_UNROLL
    for (c = 0; c < 8; c++) {
        gj_idct_1d(v + c, 8, GJ_IDCT_CONST_BITS - GJ_IDCT_PASS1_BITS, narrow_max, o);
        GJ_UNROLL
        for (k = 0; k < 8; k++)
            ws[k * 8 + c] = o[k];
    }
    /* Pass 2: rows from the work array into samples. */
    GJ_UNROLL
    for (r = 0; r < 8; r++) {
        gj_idct_1d(ws + r * 8, 1, GJ_IDCT_CONST_BITS + GJ_IDCT_PASS1_BITS + 3, narrow_max, o);
        out[r * 2] = gj_idct_range_limit(o[0]) | (gj_u32)gj_idct_range_limit(o[1]) << 8 |
                     (gj_u32)gj_idct_range_limit(o[2]) << 16 | (gj_u32)gj_idct_range_limit(o[3]) << 24;
        out[r * 2 + 1] = gj_idct_range_limit(o[4]) | (gj_u32)gj_idct_range_limit(o[5]) << 8 |
                         (gj_u32)gj_idct_range_limit(o[6]) << 16 | (gj_u32)gj_idct_range_limit(o[7]) << 24;
    }
}

/*
 * n <= 8 samples of a row (four to a little-endian word) to row: on the GPU all eight
 * as one 8-byte store where the row is 8-byte aligned, else byte by byte.
 */
GJ_FUNC void gj_idct_store_row(GJ_GLOBAL gj_u8 *row, const gj_u32 *words, gj_u32 n, int aligned)
{
    gj_u32 x;

#if defined(__CUDACC__)
    if (n == 8 && aligned) {
        *(uint2 *)row = make_uint2(words[0], words[1]);
        return;
    }
#elif defined(__OPENCL_VERSION__)
    if (n == 8 && aligned) {
        vstore2((uint2)(words[0], words[1]), 0, (GJ_GLOBAL uint *)row);
        return;
    }
#else
    (void)aligned;
#endif
    for (x = 0; x < n; x++)
        row[x] = (gj_u8)(words[x / 4] >> (8 * (x & 3)));
}

/*
 * Every component of a picture in one launch, a thread per block (p holds where each
 * component's threads start): block (bx, by) of the component's nbx x nby blocks
 * that hold samples is transformed and its samples inside out_w x out_h are written
 * to its plane, at out_c + out_offset with row pitch out_pitch (out_c: out0 to out3,
 * by component): on the GPU whole rows of 8 as one 8-byte store where aligned, else
 * (and on the host) byte by byte. out_pitch 0 writes block-major instead: the block's
 * 64 samples at out_offset plus GJ_BLOCK_BYTES times its index in the coefficient
 * buffer. With out_c the coefficient buffer and out_offset 0 they go over the block's
 * own coefficients, which this thread alone reads, all of them before its first store.
 */
GJ_KERNEL gj_jpeg_idct(GJ_GLOBAL const gj_i16 *coefs, GJ_GLOBAL const gj_idct_params *p, GJ_GLOBAL gj_u8 *out0,
                       GJ_GLOBAL gj_u8 *out1, GJ_GLOBAL gj_u8 *out2, GJ_GLOBAL gj_u8 *out3)
{
    gj_u64 gid = gj_global_id(), block, out_offset;
    gj_u32 id, c = 0, k, bx, by, y, nbx, out_pitch, out_w, out_h, px[16];
    GJ_GLOBAL gj_u8 *out;

    if (gid >= p->num_blocks)
        return;
    id = (gj_u32)gid;
    GJ_UNROLL
    for (k = 1; k < 4; k++)
        c += id >= p->first_id[k];
    id -= p->first_id[c];
    nbx = p->nbx[c];
    bx = id % nbx;
    by = id / nbx;
    block = ((gj_u64)p->block_hi[c] << 32 | p->block_lo[c]) + (gj_u64)by * p->blocks_w[c] + bx;
    /* Everything read from p before the first store, which might alias it. */
    out_offset = (gj_u64)p->out_hi[c] << 32 | p->out_lo[c];
    out_pitch = p->out_pitch[c];
    out_w = p->out_w[c];
    out_h = p->out_h[c];
    out = c == 0 ? out0 : c == 1 ? out1 : c == 2 ? out2 : out3;
    gj_idct_islow(coefs + block * 64, p->quant[c], GJ_IDCT_NARROW_MAX, px);
    if (!out_pitch) {
        GJ_GLOBAL gj_u8 *row = out + out_offset + block * GJ_BLOCK_BYTES;
        for (y = 0; y < 8; y++, row += 8)
            gj_idct_store_row(row, px + y * 2, 8, 1);
        return;
    }
    for (y = 0; y < 8 && by * 8 + y < out_h; y++) {
        gj_u64 at = out_offset + (gj_u64)(by * 8 + y) * out_pitch + bx * 8;
        gj_idct_store_row(out + at, px + y * 2, gj_min(out_w - bx * 8, 8u), !(at & 7));
    }
}

#endif /* GJ_KERNELS_JPEG_IDCT_H */
