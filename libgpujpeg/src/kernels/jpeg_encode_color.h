/*
 * Encoder input: the sample of one component at one position of its (downsampled)
 * plane, computed from the input picture the way libjpeg-turbo's compressor does:
 * RGB -> YCbCr with jccolor.c's 16-bit fixed-point tables (a first pass into
 * full-size planes), then jcsample.c's
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

/* Where one component's samples come from (a plane), read once from the parameters into registers. */
typedef struct gj_enc_source {
    GJ_GLOBAL const gj_u8 *base;    /* the plane's first row */
    gj_u32 pitch;
    gj_u32 fx, fy, last_x, last_y, last_row;
} gj_enc_source;

GJ_FUNC gj_enc_source gj_enc_source_of(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_u8 *plane, gj_u32 c)
{
    GJ_GLOBAL const gj_enc_component *cp = &p->comp[c];
    gj_enc_source src;
    gj_u32 i = cp->plane;

    src.base = plane + ((gj_u64)p->plane_offset_hi[i] << 32 | p->plane_offset_lo[i]);
    src.pitch = p->pitch[i];
    src.fx = cp->factor_x;
    src.fy = cp->factor_y;
    src.last_x = cp->src_w - 1;
    src.last_y = cp->src_h - 1;
    src.last_row = cp->last_row;
    return src;
}

/* One full-resolution value of the component at (x, y) of its source plane (in range). */
GJ_FUNC gj_i32 gj_enc_source_value(const gj_enc_source *src, gj_u32 x, gj_u32 y)
{
    return src->base[(gj_u64)y * src->pitch + x];
}

/*
 * Samples x0 .. x0 + 7 of row y of the component's plane (before the level
 * shift). Columns past the source repeat its last column before downsampling;
 * rows past the last row group repeat the last downsampled row.
 */
GJ_FUNC void gj_enc_sample_row(const gj_enc_source *src, gj_u32 x0, gj_u32 y, gj_i32 *out)
{
    gj_u32 i, j, y0 = gj_min(y, src->last_row) * src->fy;

    for (i = 0; i < 8; i++) {
        gj_u32 x = x0 + i, sx = x * src->fx;
        gj_i32 sum = 0;
        for (j = 0; j < src->fy; j++) {
            gj_u32 sy = gj_min(y0 + j, src->last_y);
            sum += gj_enc_source_value(src, gj_min(sx, src->last_x), sy);
            if (src->fx == 2)
                sum += gj_enc_source_value(src, gj_min(sx + 1, src->last_x), sy);
        }
        /* jcsample.c: h2v1 bias 0,1,0,1...; h2v2 bias 1,2,1,2...; int_downsample (1x2) numpix/2 */
        if (src->fx == 2 && src->fy == 2)
            out[i] = (sum + 1 + (gj_i32)(x & 1)) >> 2;
        else if (src->fx == 2)
            out[i] = (sum + (gj_i32)(x & 1)) >> 1;
        else if (src->fy == 2)
            out[i] = (sum + 1) >> 1;
        else
            out[i] = sum;
    }
}

/*
 * Packed RGB input is converted once per pixel into full-size component planes
 * (ycc + c * width * height, `components` of them) before the blocks read it
 * as planar input: the downsampled chroma would otherwise convert every pixel
 * again for each sample it contributes to. channels: r | g << 8 | b << 16.
 */
GJ_KERNEL gj_jpeg_enc_rgb_to_ycc(GJ_GLOBAL const gj_u8 *src, gj_u64 offset, gj_u32 pitch, gj_u32 width,
                                 gj_u32 height, gj_u32 pixel_bytes, gj_u32 channels, gj_u32 components,
                                 GJ_GLOBAL gj_u8 *ycc)
{
    gj_u64 id = gj_global_id();
    gj_u32 n = width * height;      /* below 2^32: 65535 x 65535 at most */
    GJ_GLOBAL const gj_u8 *px;
    gj_u32 i, x, y, c;
    gj_i32 r, g, b;

    if (id >= n)
        return;
    i = (gj_u32)id;                 /* 32-bit division: far cheaper than 64-bit on GPUs */
    y = i / width;
    x = i - y * width;
    px = src + offset + (gj_u64)y * pitch + x * pixel_bytes;
    r = px[channels & 0xff];
    g = px[channels >> 8 & 0xff];
    b = px[channels >> 16 & 0xff];
    for (c = 0; c < components; c++)
        ycc[(gj_u64)c * n + i] = (gj_u8)gj_enc_rgb_to_ycc(r, g, b, c);
}

#endif /* GJ_KERNELS_JPEG_ENCODE_COLOR_H */
