/*
 * Dequantisation and inverse DCT, bit-exact with libjpeg-turbo's jpeg_idct_islow
 * (the Loeffler-Ligtenberg-Moschytz integer IDCT of IJG's jidctint.c: 13-bit
 * constants, 2 extra bits between the passes, 64-bit intermediates like JLONG).
 */
#ifndef GJ_KERNELS_JPEG_IDCT_H
#define GJ_KERNELS_JPEG_IDCT_H

#include "common.h"

#define GJ_IDCT_CONST_BITS 13
#define GJ_IDCT_PASS1_BITS 2
#define GJ_FIX_0_298631336 ((gj_i64)2446)
#define GJ_FIX_0_390180644 ((gj_i64)3196)
#define GJ_FIX_0_541196100 ((gj_i64)4433)
#define GJ_FIX_0_765366865 ((gj_i64)6270)
#define GJ_FIX_0_899976223 ((gj_i64)7373)
#define GJ_FIX_1_175875602 ((gj_i64)9633)
#define GJ_FIX_1_501321110 ((gj_i64)12299)
#define GJ_FIX_1_847759065 ((gj_i64)15137)
#define GJ_FIX_1_961570560 ((gj_i64)16069)
#define GJ_FIX_2_053119869 ((gj_i64)16819)
#define GJ_FIX_2_562915447 ((gj_i64)20995)
#define GJ_FIX_3_072711026 ((gj_i64)25172)

GJ_FUNC gj_i64 gj_idct_descale(gj_i64 x, gj_u32 n)
{
    return (x + ((gj_i64)1 << (n - 1))) >> n;
}

/* libjpeg's post-IDCT range limit: the value wraps to 10 bits, then clamps around 128. */
GJ_FUNC gj_u8 gj_idct_range_limit(gj_i64 x)
{
    gj_i32 v = (gj_i32)(x & 1023);

    v = (v ^ 512) - 512 + 128;
    return (gj_u8)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/*
 * One 1-D 8-point inverse transform of in[0], in[s], ..., in[7s] into o[8]
 * (without the final descale). Shared by both passes.
 */
GJ_FUNC void gj_idct_1d(gj_i64 i0, gj_i64 i1, gj_i64 i2, gj_i64 i3, gj_i64 i4, gj_i64 i5, gj_i64 i6,
                        gj_i64 i7, gj_i64 *o)
{
    gj_i64 z1, z2, z3, z4, z5, tmp0, tmp1, tmp2, tmp3, tmp10, tmp11, tmp12, tmp13;

    /* Even part: the rotator is sqrt(2)*c(-6). */
    z1 = (i2 + i6) * GJ_FIX_0_541196100;
    tmp2 = z1 + i6 * -GJ_FIX_1_847759065;
    tmp3 = z1 + i2 * GJ_FIX_0_765366865;
    tmp0 = (i0 + i4) * ((gj_i64)1 << GJ_IDCT_CONST_BITS);
    tmp1 = (i0 - i4) * ((gj_i64)1 << GJ_IDCT_CONST_BITS);
    tmp10 = tmp0 + tmp3;
    tmp13 = tmp0 - tmp3;
    tmp11 = tmp1 + tmp2;
    tmp12 = tmp1 - tmp2;

    /* Odd part (LL&M figure 8). */
    z1 = i7 + i1;
    z2 = i5 + i3;
    z3 = i7 + i3;
    z4 = i5 + i1;
    z5 = (z3 + z4) * GJ_FIX_1_175875602;
    tmp0 = i7 * GJ_FIX_0_298631336;
    tmp1 = i5 * GJ_FIX_2_053119869;
    tmp2 = i3 * GJ_FIX_3_072711026;
    tmp3 = i1 * GJ_FIX_1_501321110;
    z1 *= -GJ_FIX_0_899976223;
    z2 *= -GJ_FIX_2_562915447;
    z3 = z3 * -GJ_FIX_1_961570560 + z5;
    z4 = z4 * -GJ_FIX_0_390180644 + z5;
    tmp0 += z1 + z3;
    tmp1 += z2 + z4;
    tmp2 += z2 + z3;
    tmp3 += z1 + z4;

    o[0] = tmp10 + tmp3;
    o[7] = tmp10 - tmp3;
    o[1] = tmp11 + tmp2;
    o[6] = tmp11 - tmp2;
    o[2] = tmp12 + tmp1;
    o[5] = tmp12 - tmp1;
    o[3] = tmp13 + tmp0;
    o[4] = tmp13 - tmp0;
}

/* Dequantises and transforms one block into 64 samples (row-major). */
GJ_FUNC void gj_idct_islow(GJ_GLOBAL const gj_i16 *coef, GJ_GLOBAL const gj_u16 *quant, gj_u8 *out)
{
    gj_i64 ws[64], o[8];
    gj_u32 c, r, k;

    /* Pass 1: columns from the coefficients into the work array. */
    for (c = 0; c < 8; c++) {
        gj_i64 v[8];
        for (k = 0; k < 8; k++)
            v[k] = (gj_i64)coef[k * 8 + c] * quant[k * 8 + c];
        gj_idct_1d(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], o);
        for (k = 0; k < 8; k++)
            /* libjpeg's work array is int: keep its 32-bit truncation */
            ws[k * 8 + c] = (gj_i32)gj_idct_descale(o[k], GJ_IDCT_CONST_BITS - GJ_IDCT_PASS1_BITS);
    }
    /* Pass 2: rows from the work array into samples. */
    for (r = 0; r < 8; r++) {
        gj_idct_1d(ws[r * 8 + 0], ws[r * 8 + 1], ws[r * 8 + 2], ws[r * 8 + 3], ws[r * 8 + 4],
                   ws[r * 8 + 5], ws[r * 8 + 6], ws[r * 8 + 7], o);
        for (k = 0; k < 8; k++)
            out[r * 8 + k] = gj_idct_range_limit(
                gj_idct_descale(o[k], GJ_IDCT_CONST_BITS + GJ_IDCT_PASS1_BITS + 3));
    }
}

/*
 * One component: block (bx, by) of the nbx x nby blocks that hold samples is
 * transformed and its samples inside out_w x out_h are written to the plane
 * at out + out_offset with row pitch out_pitch.
 */
GJ_KERNEL gj_jpeg_idct(GJ_GLOBAL const gj_i16 *coefs, gj_u64 block_offset, gj_u32 blocks_w,
                       GJ_GLOBAL const gj_u16 *quant, gj_u32 quant_index, gj_u32 nbx, gj_u32 nby,
                       GJ_GLOBAL gj_u8 *out, gj_u64 out_offset, gj_u32 out_pitch, gj_u32 out_w, gj_u32 out_h)
{
    gj_u64 id = gj_global_id();
    gj_u32 bx, by, x, y;
    gj_u8 px[64];

    if (id >= (gj_u64)nbx * nby)
        return;
    bx = (gj_u32)(id % nbx);
    by = (gj_u32)(id / nbx);
    gj_idct_islow(coefs + (block_offset + (gj_u64)by * blocks_w + bx) * 64, quant + quant_index * 64, px);
    for (y = 0; y < 8 && by * 8 + y < out_h; y++) {
        GJ_GLOBAL gj_u8 *row = out + out_offset + (gj_u64)(by * 8 + y) * out_pitch + bx * 8;
        for (x = 0; x < 8 && bx * 8 + x < out_w; x++)
            row[x] = px[y * 8 + x];
    }
}

#endif /* GJ_KERNELS_JPEG_IDCT_H */
