/*
 * Encoder input: the sample of one component at one position of its (downsampled)
 * plane, computed from the input picture the way libjpeg-turbo's compressor does:
 * RGB -> YCbCr with jccolor.c's 16-bit fixed-point tables, then jcsample.c's
 * downsampling (h2v1, h2v2 with their alternating biases, int_downsample for 1x2),
 * with the picture's last column and last row group repeated to fill whole blocks
 * (jcsample.c expand_right_edge, jcprepct.c expand_bottom_edge).
 */
#ifndef GJ_KERNELS_JPEG_ENCODE_COLOR_H
#define GJ_KERNELS_JPEG_ENCODE_COLOR_H

#include "jpeg_encode_params.h"

/* jccolor.c: FIX(x) = x * 2^16 rounded; Cb and Cr are offset by 128 (CBCR_OFFSET). */
#define GJ_ENC_FIX_0_29900 19595
#define GJ_ENC_FIX_0_58700 38470
#define GJ_ENC_FIX_0_11400 7471
#define GJ_ENC_FIX_0_16874 11059
#define GJ_ENC_FIX_0_33126 21709
#define GJ_ENC_FIX_0_50000 32768
#define GJ_ENC_FIX_0_41869 27439
#define GJ_ENC_FIX_0_08131 5329
#define GJ_ENC_ONE_HALF (1 << 15)
#define GJ_ENC_CBCR_OFFSET (128 << 16)

/* Component c (0 Y, 1 Cb, 2 Cr) of one RGB pixel: jccolor.c rgb_ycc_convert / rgb_gray_convert. */
GJ_FUNC gj_i32 gj_enc_rgb_to_ycc(gj_i32 r, gj_i32 g, gj_i32 b, gj_u32 c)
{
    if (c == 0)
        return (GJ_ENC_FIX_0_29900 * r + GJ_ENC_FIX_0_58700 * g + GJ_ENC_FIX_0_11400 * b + GJ_ENC_ONE_HALF) >> 16;
    if (c == 1)
        return (-GJ_ENC_FIX_0_16874 * r - GJ_ENC_FIX_0_33126 * g + GJ_ENC_FIX_0_50000 * b + GJ_ENC_CBCR_OFFSET +
                GJ_ENC_ONE_HALF - 1) >> 16;
    return (GJ_ENC_FIX_0_50000 * r - GJ_ENC_FIX_0_41869 * g - GJ_ENC_FIX_0_08131 * b + GJ_ENC_CBCR_OFFSET +
            GJ_ENC_ONE_HALF - 1) >> 16;
}

GJ_FUNC gj_u64 gj_enc_plane_offset(GJ_GLOBAL const gj_enc_params *p, gj_u32 plane)
{
    return (gj_u64)p->plane_offset_hi[plane] << 32 | p->plane_offset_lo[plane];
}

/* One full-resolution value of component c at (x, y) of its source plane (in range). */
GJ_FUNC gj_i32 gj_enc_source_value(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_u8 *plane,
                                   gj_u32 c, gj_u32 x, gj_u32 y)
{
    GJ_GLOBAL const gj_enc_component *cp = &p->comp[c];
    GJ_GLOBAL const gj_u8 *row = plane + gj_enc_plane_offset(p, cp->plane) + (gj_u64)y * p->pitch[cp->plane];

    if (p->layout == GJ_ENC_IN_PLANES)
        return row[x];
    row += (gj_u64)x * p->pixel_bytes;
    return gj_enc_rgb_to_ycc(row[p->chan_r], row[p->chan_g], row[p->chan_b], c);
}

/*
 * Sample (x, y) of component c's plane (before the level shift). Columns past the
 * source repeat its last column before downsampling; rows past the last row group
 * repeat the last downsampled row.
 */
GJ_FUNC gj_i32 gj_enc_sample(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_u8 *plane, gj_u32 c,
                             gj_u32 x, gj_u32 y)
{
    GJ_GLOBAL const gj_enc_component *cp = &p->comp[c];
    gj_u32 fx = cp->factor_x, fy = cp->factor_y, i, j;
    gj_i32 sum = 0, bias;

    y = gj_min(y, cp->last_row);
    for (j = 0; j < fy; j++)
        for (i = 0; i < fx; i++)
            sum += gj_enc_source_value(p, plane, c, gj_min(x * fx + i, cp->src_w - 1),
                                       gj_min(y * fy + j, cp->src_h - 1));
    if (fx == 1 && fy == 1)
        return sum;
    /* jcsample.c: h2v1 bias 0,1,0,1...; h2v2 bias 1,2,1,2...; int_downsample (1x2) numpix/2 */
    if (fy == 1)
        return (sum + (gj_i32)(x & 1)) >> 1;
    if (fx == 1)
        return (sum + 1) >> 1;
    bias = 1 + (gj_i32)(x & 1);
    return (sum + bias) >> 2;
}

#endif /* GJ_KERNELS_JPEG_ENCODE_COLOR_H */
