/*
 * Forward DCT and quantisation of the encoder: libjpeg's integer "islow" FDCT
 * (jfdctint.c, Loeffler-Ligtenberg-Moschytz with 13-bit constants, the jpeg-6b
 * rounding that libjpeg-turbo keeps) and libjpeg-turbo's quantisation by
 * reciprocal multiplication (jcdctmgr.c), so coefficients equal `cjpeg -dct int`'s.
 */
#ifndef GJ_KERNELS_JPEG_FDCT_H
#define GJ_KERNELS_JPEG_FDCT_H

#include "common.h"

#define GJ_FDCT_CONST_BITS 13
#define GJ_FDCT_PASS1_BITS 2
#define GJ_FDCT_0_298631336 2446
#define GJ_FDCT_0_390180644 3196
#define GJ_FDCT_0_541196100 4433
#define GJ_FDCT_0_765366865 6270
#define GJ_FDCT_0_899976223 7373
#define GJ_FDCT_1_175875602 9633
#define GJ_FDCT_1_501321110 12299
#define GJ_FDCT_1_847759065 15137
#define GJ_FDCT_1_961570560 16069
#define GJ_FDCT_2_053119869 16819
#define GJ_FDCT_2_562915447 20995
#define GJ_FDCT_3_072711026 25172

/* Rounded arithmetic right shift (jdct.h DESCALE). */
GJ_FUNC gj_i32 gj_fdct_descale(gj_i32 x, gj_u32 n)
{
    return (x + (1 << (n - 1))) >> n;
}

/*
 * One 1-D pass over 8 values d[0..7] (a row, then a column). The row pass keeps
 * PASS1_BITS of extra precision; the column pass removes it, leaving the output
 * scaled up by 8 as jfdctint.c's is.
 */
GJ_FUNC void gj_fdct_pass(gj_i32 *d, gj_u32 column_pass)
{
    gj_i32 tmp0 = d[0] + d[7], tmp7 = d[0] - d[7];
    gj_i32 tmp1 = d[1] + d[6], tmp6 = d[1] - d[6];
    gj_i32 tmp2 = d[2] + d[5], tmp5 = d[2] - d[5];
    gj_i32 tmp3 = d[3] + d[4], tmp4 = d[3] - d[4];
    gj_i32 tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3;
    gj_i32 tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    gj_u32 shift = column_pass ? GJ_FDCT_CONST_BITS + GJ_FDCT_PASS1_BITS : GJ_FDCT_CONST_BITS - GJ_FDCT_PASS1_BITS;
    gj_i32 z1, z2, z3, z4, z5;

    /* Even part. */
    if (column_pass) {
        d[0] = gj_fdct_descale(tmp10 + tmp11, GJ_FDCT_PASS1_BITS);
        d[4] = gj_fdct_descale(tmp10 - tmp11, GJ_FDCT_PASS1_BITS);
    } else {
        d[0] = (tmp10 + tmp11) * (1 << GJ_FDCT_PASS1_BITS);
        d[4] = (tmp10 - tmp11) * (1 << GJ_FDCT_PASS1_BITS);
    }
    z1 = (tmp12 + tmp13) * GJ_FDCT_0_541196100;
    d[2] = gj_fdct_descale(z1 + tmp13 * GJ_FDCT_0_765366865, shift);
    d[6] = gj_fdct_descale(z1 - tmp12 * GJ_FDCT_1_847759065, shift);

    /* Odd part (T.81 A.3.3's basis, Loeffler's factorisation). */
    z1 = tmp4 + tmp7;
    z2 = tmp5 + tmp6;
    z3 = tmp4 + tmp6;
    z4 = tmp5 + tmp7;
    z5 = (z3 + z4) * GJ_FDCT_1_175875602;
    tmp4 *= GJ_FDCT_0_298631336;
    tmp5 *= GJ_FDCT_2_053119869;
    tmp6 *= GJ_FDCT_3_072711026;
    tmp7 *= GJ_FDCT_1_501321110;
    z1 *= -GJ_FDCT_0_899976223;
    z2 *= -GJ_FDCT_2_562915447;
    z3 = z3 * -GJ_FDCT_1_961570560 + z5;
    z4 = z4 * -GJ_FDCT_0_390180644 + z5;
    d[7] = gj_fdct_descale(tmp4 + z1 + z3, shift);
    d[5] = gj_fdct_descale(tmp5 + z2 + z4, shift);
    d[3] = gj_fdct_descale(tmp6 + z2 + z3, shift);
    d[1] = gj_fdct_descale(tmp7 + z1 + z4, shift);
}

/* jcdctmgr.c quantize(): sign(x) * (((|x| + corr) * recip) >> shift). */
GJ_FUNC gj_i32 gj_fdct_quantize(gj_i32 x, gj_u32 recip, gj_u32 corr, gj_u32 shift)
{
    gj_u32 u = (gj_u32)(x < 0 ? -x : x);
    gj_i32 q = (gj_i32)(((u + corr) * recip) >> shift);

    return x < 0 ? -q : q;
}

#endif /* GJ_KERNELS_JPEG_FDCT_H */
