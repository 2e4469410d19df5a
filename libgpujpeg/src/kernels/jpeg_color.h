/*
 * Upsampling and colour conversion to packed RGB/RGBA/BGRA or gray, bit-exact with
 * djpeg's defaults: libjpeg-turbo's fancy (triangle-filter) upsampling where it
 * applies (jdsample.c), its fixed-point YCbCr->RGB tables (jdcolor.c, 16-bit
 * scale), and djpeg's CMYK->RGB for 4-component files (cmyk.h).
 */
#ifndef GJ_KERNELS_JPEG_COLOR_H
#define GJ_KERNELS_JPEG_COLOR_H

#include "common.h"
#include "jpeg_params.h"

GJ_FUNC gj_i32 gj_clamp255(gj_i32 v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* The components' samples are block-major: each block's 64 samples, row by row, in the
 * first half of its GJ_BLOCK_BYTES (over its own coefficients, decode_pixels.c). */
GJ_FUNC gj_i32 gj_plane_at(GJ_GLOBAL const gj_u8 *planes, const gj_color_params *p, gj_u32 c,
                           gj_u32 x, gj_u32 y)
{
    gj_u64 off = (gj_u64)p->offset_hi[c] << 32 | p->offset_lo[c];
    gj_u64 block = (gj_u64)(y >> 3) * p->blocks_w[c] + (x >> 3);

    return planes[off + block * GJ_BLOCK_BYTES + (y & 7) * 8 + (x & 7)];
}

/*
 * libjpeg's fancy filters weigh the nearer input sample 3/4 and the next one 1/4;
 * at the picture's edges the next sample is the edge sample itself (libjpeg's
 * special-cased first/last columns and replicated context rows amount to that).
 */
GJ_FUNC gj_i32 gj_upsample(GJ_GLOBAL const gj_u8 *planes, const gj_color_params *p, gj_u32 c,
                           gj_u32 x, gj_u32 y)
{
    gj_u32 w = p->comp_w[c], h = p->comp_h[c];
    gj_u32 i = x >> 1, j = y >> 1, far_i, far_j;

    switch (p->method[c]) {
    case GJ_UPSAMPLE_FULL:
        return gj_plane_at(planes, p, c, x, y);
    case GJ_UPSAMPLE_H2V1:
        far_i = (x & 1) ? gj_min(i + 1, w - 1) : (i ? i - 1 : 0);
        return (3 * gj_plane_at(planes, p, c, i, y) + gj_plane_at(planes, p, c, far_i, y) + 1 + (x & 1)) >> 2;
    case GJ_UPSAMPLE_H1V2:
        far_j = (y & 1) ? gj_min(j + 1, h - 1) : (j ? j - 1 : 0);
        return (3 * gj_plane_at(planes, p, c, x, j) + gj_plane_at(planes, p, c, x, far_j) + 1 + (y & 1)) >> 2;
    case GJ_UPSAMPLE_H2V2: {
        gj_i32 near_sum, far_sum;
        far_j = (y & 1) ? gj_min(j + 1, h - 1) : (j ? j - 1 : 0);
        far_i = (x & 1) ? gj_min(i + 1, w - 1) : (i ? i - 1 : 0);
        near_sum = 3 * gj_plane_at(planes, p, c, i, j) + gj_plane_at(planes, p, c, i, far_j);
        far_sum = 3 * gj_plane_at(planes, p, c, far_i, j) + gj_plane_at(planes, p, c, far_i, far_j);
        return (3 * near_sum + far_sum + 8 - (x & 1)) >> 4;
    }
    default:
        return gj_plane_at(planes, p, c, x / p->fx[c], y / p->fy[c]);
    }
}

/* jdcolor.c's ycc_rgb tables, computed instead of looked up (same integers). */
GJ_FUNC void gj_ycc_to_rgb(gj_i32 y, gj_i32 cb, gj_i32 cr, gj_i32 *rgb)
{
    gj_i64 cbx = cb - 128, crx = cr - 128;

    rgb[0] = gj_clamp255(y + (gj_i32)((91881 * crx + 32768) >> 16));
    rgb[1] = gj_clamp255(y + (gj_i32)((-46802 * crx + -22554 * cbx + 32768) >> 16));
    rgb[2] = gj_clamp255(y + (gj_i32)((116130 * cbx + 32768) >> 16));
}

/* djpeg's cmyk_to_rgb (Adobe's inverted CMYK): round(c * k / 255), in integers. */
GJ_FUNC gj_i32 gj_cmyk_channel(gj_i32 c, gj_i32 k)
{
    return (2 * c * k + 255) / 510;
}

GJ_FUNC void gj_pixel_rgb(GJ_GLOBAL const gj_u8 *planes, const gj_color_params *p, gj_u32 x,
                          gj_u32 y, gj_i32 *rgb)
{
    gj_i32 s[4], i;

    /* Unrolled with constant indices, s[] and the parameters stay in registers. */
    GJ_UNROLL
    for (i = 0; i < 4; i++)
        s[i] = i < (gj_i32)p->num_comps ? gj_upsample(planes, p, (gj_u32)i, x, y) : 0;
    switch (p->color_space) {
    case GJ_CS_GRAY:
        rgb[0] = rgb[1] = rgb[2] = s[0];
        break;
    case GJ_CS_RGB:
        rgb[0] = s[0];
        rgb[1] = s[1];
        rgb[2] = s[2];
        break;
    case GJ_CS_YCBCR:
        gj_ycc_to_rgb(s[0], s[1], s[2], rgb);
        break;
    case GJ_CS_YCCK:
        gj_ycc_to_rgb(s[0], s[1], s[2], rgb);
        for (i = 0; i < 3; i++)
            rgb[i] = gj_cmyk_channel(255 - rgb[i], s[3]);
        break;
    default: /* CMYK */
        for (i = 0; i < 3; i++)
            rgb[i] = gj_cmyk_channel(s[i], s[3]);
        break;
    }
}

/* jdcolor.c's rgb_gray weights (FIX(0.299), FIX(0.587), FIX(0.114), 16-bit scale). */
GJ_FUNC gj_i32 gj_pixel_gray(GJ_GLOBAL const gj_u8 *planes, const gj_color_params *p, gj_u32 x,
                             gj_u32 y)
{
    gj_i32 r, g, b;

    if (p->color_space != GJ_CS_RGB)
        return gj_upsample(planes, p, 0, x, y);
    r = gj_upsample(planes, p, 0, x, y);
    g = gj_upsample(planes, p, 1, x, y);
    b = gj_upsample(planes, p, 2, x, y);
    return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;
}

/*
 * One thread per pixel, groups_per_row work-groups per row. The parameters are
 * copied out of global memory once: read through the pointer, they would be
 * reloaded around every store (the output might alias them).
 */
GJ_KERNEL gj_jpeg_color(GJ_GLOBAL const gj_color_params *params, GJ_GLOBAL const gj_u8 *planes,
                        GJ_GLOBAL gj_u8 *out, gj_u64 out_offset, gj_u32 out_pitch, gj_u32 groups_per_row)
{
    gj_color_params cp = *params;
    const gj_color_params *p = &cp;
    gj_u32 y = gj_group_id() / groups_per_row;
    gj_u32 x = (gj_group_id() - y * groups_per_row) * gj_group_size() + gj_local_id();
    gj_i32 rgb[3];
    GJ_GLOBAL gj_u8 *o;

    if (x >= p->width || y >= p->height)
        return;
    o = out + out_offset + (gj_u64)y * out_pitch;
    if (p->out_format == GJ_COLOR_OUT_GRAY) {
        o[x] = (gj_u8)gj_pixel_gray(planes, p, x, y);
        return;
    }
    gj_pixel_rgb(planes, p, x, y, rgb);
    if (p->out_format == GJ_COLOR_OUT_RGB24) {
        o += (gj_u64)x * 3;
        o[0] = (gj_u8)rgb[0];
        o[1] = (gj_u8)rgb[1];
        o[2] = (gj_u8)rgb[2];
        return;
    }
    o += (gj_u64)x * 4;
    o[p->out_format == GJ_COLOR_OUT_BGRA ? 2 : 0] = (gj_u8)rgb[0];
    o[1] = (gj_u8)rgb[1];
    o[p->out_format == GJ_COLOR_OUT_BGRA ? 0 : 2] = (gj_u8)rgb[2];
    o[3] = 255;
}

#endif /* GJ_KERNELS_JPEG_COLOR_H */
