/*
 * Encoder input: the sample of one component at one position of its (downsampled)
 * plane, computed from the input picture the way libjpeg-turbo's compressor does:
 * RGB -> YCbCr with jccolor.c's 16-bit fixed-point tables, then jcsample.c's
 * downsampling (h2v1, h2v2 with their alternating biases, int_downsample for
 * 1x2; for packed RGB both in a first pass into planes), with the picture's last column and last row group repeated to fill whole blocks
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

/*
 * Where one component's samples come from, read once into registers: a plane of
 * samples, or (pixel_bytes != 0) packed RGB pixels converted as they are read.
 */
typedef struct gj_enc_source {
    GJ_GLOBAL const gj_u8 *base;    /* the plane's or the picture's first row */
    gj_u32 pitch;
    gj_u32 fx, fy, last_x, last_y, last_row;
    gj_u32 pixel_bytes, channels, comp;
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
    src.pixel_bytes = 0;
    src.channels = 0;
    src.comp = c;
    return src;
}

/* One full-resolution value of the component at (x, y) of its source (in range). */
GJ_FUNC gj_i32 gj_enc_source_value(const gj_enc_source *src, gj_u32 x, gj_u32 y)
{
    GJ_GLOBAL const gj_u8 *px;

    if (!src->pixel_bytes)
        return src->base[(gj_u64)y * src->pitch + x];
    px = src->base + (gj_u64)y * src->pitch + x * src->pixel_bytes;
    return gj_enc_rgb_to_ycc(px[src->channels & 0xff], px[src->channels >> 8 & 0xff],
                             px[src->channels >> 16 & 0xff], src->comp);
}

/*
 * Sample x of row y of the component's plane (before the level shift). Columns
 * past the source repeat its last column before downsampling; rows past the
 * last row group repeat the last downsampled row.
 */
GJ_FUNC gj_i32 gj_enc_sample(const gj_enc_source *src, gj_u32 x, gj_u32 y)
{
    gj_u32 j, y0 = gj_min(y, src->last_row) * src->fy, sx = x * src->fx;
    gj_i32 sum = 0;

    for (j = 0; j < src->fy; j++) {
        gj_u32 sy = gj_min(y0 + j, src->last_y);
        sum += gj_enc_source_value(src, gj_min(sx, src->last_x), sy);
        if (src->fx == 2)
            sum += gj_enc_source_value(src, gj_min(sx + 1, src->last_x), sy);
    }
    /* jcsample.c: h2v1 bias 0,1,0,1...; h2v2 bias 1,2,1,2...; int_downsample (1x2) numpix/2 */
    if (src->fx == 2 && src->fy == 2)
        return (sum + 1 + (gj_i32)(x & 1)) >> 2;
    if (src->fx == 2)
        return (sum + (gj_i32)(x & 1)) >> 1;
    if (src->fy == 2)
        return (sum + 1) >> 1;
    return sum;
}

/* Samples x0 .. x0 + 7 of row y of the component's plane. */
GJ_FUNC void gj_enc_sample_row(const gj_enc_source *src, gj_u32 x0, gj_u32 y, gj_i32 *out)
{
    gj_u32 i;

    for (i = 0; i < 8; i++)
        out[i] = gj_enc_sample(src, x0 + i, y);
}

/*
 * Packed RGB input is converted once, before the blocks read it: component comp
 * (bits 16..23 of comp_factors; factor_x in bits 0..7, factor_y in 8..15) of
 * the picture, downsampled, into a plane of out_w x out_rows samples (the
 * component's whole MCU columns, and its rows up to the last row group) that
 * the blocks then read as planar input with nothing left to downsample
 * (out + out_offset). Each
 * pixel is converted once per component; converting inside the block kernel
 * would convert it again for every sample it feeds, and reading full-size
 * chroma planes there would read four times the samples. channels: r | g << 8 | b << 16.
 */
GJ_KERNEL gj_jpeg_enc_rgb_to_plane(GJ_GLOBAL const gj_u8 *src, gj_u64 offset, gj_u32 pitch, gj_u32 width,
                                   gj_u32 height, gj_u32 pixel_bytes, gj_u32 channels, gj_u32 comp_factors,
                                   gj_u32 last_row, gj_u32 out_w, gj_u32 out_rows, GJ_GLOBAL gj_u8 *out,
                                   gj_u64 out_offset)
{
    gj_u64 id = gj_global_id();
    gj_enc_source s;
    gj_u32 i, x, y;

    if (id >= (gj_u64)out_w * out_rows)
        return;
    i = (gj_u32)id;                 /* one plane: below 2^32 samples */
    y = i / out_w;                  /* 32-bit division: far cheaper than 64-bit on GPUs */
    x = i - y * out_w;
    s.base = src + offset;
    s.pitch = pitch;
    s.fx = comp_factors & 0xff;
    s.fy = comp_factors >> 8 & 0xff;
    s.last_x = width - 1;
    s.last_y = height - 1;
    s.last_row = last_row;
    s.pixel_bytes = pixel_bytes;
    s.channels = channels;
    s.comp = comp_factors >> 16 & 0xff;
    out[out_offset + i] = (gj_u8)gj_enc_sample(&s, x, y);
}

#endif /* GJ_KERNELS_JPEG_ENCODE_COLOR_H */
