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

/*
 * The components' samples are block-major: each block's 64 samples, row by row, in the
 * first half of its GJ_BLOCK_BYTES (over its own coefficients, decode_pixels.c).
 * Where row `row` of component c starts; sample i of it is at gj_row_sample().
 */
GJ_FUNC gj_u64 gj_row_offset(const gj_color_params *p, gj_u32 c, gj_u32 row)
{
    gj_u64 off = (gj_u64)p->offset_hi[c] << 32 | p->offset_lo[c];

    return off + (gj_u64)(row >> 3) * p->blocks_w[c] * GJ_BLOCK_BYTES + (row & 7) * 8;
}

GJ_FUNC gj_i32 gj_row_sample(GJ_GLOBAL const gj_u8 *planes, gj_u64 row, gj_u32 i)
{
    return planes[row + (i >> 3) * GJ_BLOCK_BYTES + (i & 7)];
}

/*
 * The rows of component c that output row y reads: *near, and *far, the other
 * row of a vertical filter. libjpeg's fancy filters weigh the nearer input
 * sample 3/4 and the next one 1/4; at the picture's edges the next sample is the
 * edge sample itself (libjpeg's special-cased first/last columns and replicated
 * context rows amount to that).
 */
GJ_FUNC void gj_upsample_rows(const gj_color_params *p, gj_u32 c, gj_u32 y, gj_u64 *near, gj_u64 *far)
{
    gj_u32 j = y >> 1, far_j = (y & 1) ? gj_min(j + 1, p->comp_h[c] - 1) : (j ? j - 1 : 0);

    switch (p->method[c]) {
    case GJ_UPSAMPLE_FULL:
    case GJ_UPSAMPLE_H2V1:
        *near = *far = gj_row_offset(p, c, y);
        break;
    case GJ_UPSAMPLE_H1V2:
    case GJ_UPSAMPLE_H2V2:
        *near = gj_row_offset(p, c, j);
        *far = gj_row_offset(p, c, far_j);
        break;
    default:
        *near = *far = gj_row_offset(p, c, y / p->fy[c]);
        break;
    }
}

/* Component c's sample at output column x of output row y, from its rows near and far. */
GJ_FUNC gj_i32 gj_upsample(GJ_GLOBAL const gj_u8 *planes, const gj_color_params *p, gj_u32 c, gj_u64 near,
                           gj_u64 far, gj_u32 x, gj_u32 y)
{
    gj_u32 i = x >> 1, far_i = (x & 1) ? gj_min(i + 1, p->comp_w[c] - 1) : (i ? i - 1 : 0);

    switch (p->method[c]) {
    case GJ_UPSAMPLE_FULL:
        return gj_row_sample(planes, near, x);
    case GJ_UPSAMPLE_H2V1:
        return (3 * gj_row_sample(planes, near, i) + gj_row_sample(planes, near, far_i) + 1 + (x & 1)) >> 2;
    case GJ_UPSAMPLE_H1V2:
        return (3 * gj_row_sample(planes, near, x) + gj_row_sample(planes, far, x) + 1 + (y & 1)) >> 2;
    case GJ_UPSAMPLE_H2V2: {
        gj_i32 near_sum = 3 * gj_row_sample(planes, near, i) + gj_row_sample(planes, far, i);
        gj_i32 far_sum = 3 * gj_row_sample(planes, near, far_i) + gj_row_sample(planes, far, far_i);
        return (3 * near_sum + far_sum + 8 - (x & 1)) >> 4;
    }
    default:
        return gj_row_sample(planes, near, x / p->fx[c]);
    }
}

/* jdcolor.c's ycc_rgb tables, computed instead of looked up (same integers). */
GJ_FUNC void gj_ycc_to_rgb(gj_i32 y, gj_i32 cb, gj_i32 cr, gj_i32 *rgb)
{
    /* |cbx|, |crx| <= 128: every product fits in 32 bits */
    gj_i32 cbx = cb - 128, crx = cr - 128;

    rgb[0] = gj_clamp255(y + ((91881 * crx + 32768) >> 16));
    rgb[1] = gj_clamp255(y + ((-46802 * crx + -22554 * cbx + 32768) >> 16));
    rgb[2] = gj_clamp255(y + ((116130 * cbx + 32768) >> 16));
}

/* djpeg's cmyk_to_rgb (Adobe's inverted CMYK): round(c * k / 255), in integers. */
GJ_FUNC gj_i32 gj_cmyk_channel(gj_i32 c, gj_i32 k)
{
    return (2 * c * k + 255) / 510;
}

/* One pixel's RGB from its components' samples s[]. */
GJ_FUNC void gj_pixel_rgb(const gj_color_params *p, const gj_i32 *s, gj_i32 *rgb)
{
    gj_i32 i;

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

/* Sample k of row `row`, k clamped to the component's samples (the last is repeated). */
GJ_FUNC gj_i32 gj_row_sample_clamped(GJ_GLOBAL const gj_u8 *planes, gj_u64 row, gj_i32 k, gj_u32 count)
{
    return gj_row_sample(planes, row, (gj_u32)gj_max(0, gj_min(k, (gj_i32)count - 1)));
}

/* Samples x..x+3 of a row (x a multiple of 4: they share one aligned word of a block's row). */
GJ_FUNC gj_u32 gj_row_word(GJ_GLOBAL const gj_u8 *planes, gj_u64 row, gj_u32 x)
{
    return *(GJ_GLOBAL const gj_u32 *)(planes + row + (x >> 3) * GJ_BLOCK_BYTES + (x & 7));
}

/*
 * Component c's samples at output columns x..x+3 (x a multiple of 4) of row y:
 * gj_upsample()'s values, with the loads the four share made once (a fancy 2:1
 * filter reads columns i-1..i+2 for the four; full-width rows are one word).
 * Columns at or past the component's edge give what gj_upsample() would for the
 * last one or garbage that no pixel of the picture uses; nothing is read outside it.
 */
GJ_FUNC void gj_upsample_quad(GJ_GLOBAL const gj_u8 *planes, const gj_color_params *p, gj_u32 c, gj_u64 near,
                              gj_u64 far, gj_u32 x, gj_u32 y, gj_i32 *s)
{
    gj_u32 cw = p->comp_w[c], k;
    gj_i32 i = (gj_i32)(x >> 1), col[4];

    switch (p->method[c]) {
    case GJ_UPSAMPLE_FULL: {
        gj_u32 n = gj_row_word(planes, near, x);

        GJ_UNROLL
        for (k = 0; k < 4; k++)
            s[k] = (gj_i32)((n >> (8 * k)) & 0xFF);
        return;
    }
    case GJ_UPSAMPLE_H1V2: {
        gj_u32 n = gj_row_word(planes, near, x), f = gj_row_word(planes, far, x);

        GJ_UNROLL
        for (k = 0; k < 4; k++)
            s[k] = (3 * (gj_i32)((n >> (8 * k)) & 0xFF) + (gj_i32)((f >> (8 * k)) & 0xFF) + 1 + (gj_i32)(y & 1)) >> 2;
        return;
    }
    case GJ_UPSAMPLE_H2V1:
    case GJ_UPSAMPLE_H2V2:
        /* Column sums of columns i-1, i, i+1, i+2 (edges repeated): 3 near + far, or near alone. */
        GJ_UNROLL
        for (k = 0; k < 4; k++) {
            gj_i32 n = gj_row_sample_clamped(planes, near, i - 1 + (gj_i32)k, cw);

            col[k] = p->method[c] == GJ_UPSAMPLE_H2V1 ? n : 3 * n + gj_row_sample_clamped(planes, far, i - 1 + (gj_i32)k, cw);
        }
        if (p->method[c] == GJ_UPSAMPLE_H2V1) {
            s[0] = (3 * col[1] + col[0] + 1) >> 2;
            s[1] = (3 * col[1] + col[2] + 2) >> 2;
            s[2] = (3 * col[2] + col[1] + 1) >> 2;
            s[3] = (3 * col[2] + col[3] + 2) >> 2;
        } else {
            s[0] = (3 * col[1] + col[0] + 8) >> 4;
            s[1] = (3 * col[1] + col[2] + 7) >> 4;
            s[2] = (3 * col[2] + col[1] + 8) >> 4;
            s[3] = (3 * col[2] + col[3] + 7) >> 4;
        }
        return;
    default:
        GJ_UNROLL
        for (k = 0; k < 4; k++)
            s[k] = gj_upsample(planes, p, c, near, far, gj_min(x + k, p->width - 1), y);
        return;
    }
}

/*
 * GJ_COLOR_RUN quads (4 pixels side by side) of a row per thread, one group width
 * apart (so that a warp's loads and stores stay together), groups_per_row work-groups
 * per row. A quad's bytes go out as whole words where the rows allow it (rgb24: 3
 * words, rgba/bgra: 4, gray: 1; little-endian, as every device we run on): a warp
 * writes 384 contiguous bytes of rgb24 with 96 word stores instead of 384 byte stores.
 * The parameters are copied out of global memory once (read through the pointer, they
 * would be reloaded around every store, which might alias them), and the component
 * loops are unrolled with constant indices so that they stay in registers.
 */
GJ_KERNEL gj_jpeg_color(GJ_GLOBAL const gj_color_params *params, GJ_GLOBAL const gj_u8 *planes,
                        GJ_GLOBAL gj_u8 *out, gj_u64 out_offset, gj_u32 out_pitch, gj_u32 groups_per_row)
{
    gj_color_params cp = *params;
    const gj_color_params *p = &cp;
    gj_u32 y = gj_group_id() / groups_per_row;
    gj_u32 step = gj_group_size() * 4;
    gj_u32 x0 = ((gj_group_id() - y * groups_per_row) * gj_group_size() * GJ_COLOR_RUN + gj_local_id()) * 4;
    gj_u32 x, k, j, c, n = p->num_comps, fmt = p->out_format;
    gj_u64 near[4], far[4];
    gj_i32 s[4][4], rgb[4][3];
    GJ_GLOBAL gj_u8 *o;

    if (x0 >= p->width || y >= p->height)
        return;
    GJ_UNROLL
    for (c = 0; c < 4; c++)
        if (c < n)
            gj_upsample_rows(p, c, y, &near[c], &far[c]);
    o = out + out_offset + (gj_u64)y * out_pitch;
    for (k = 0, x = x0; k < GJ_COLOR_RUN && x < p->width; k++, x += step) {
        gj_u32 count = gj_min(4u, p->width - x), whole = count == 4 && p->word_stores;

        GJ_UNROLL
        for (c = 0; c < 4; c++)
            if (c < n)
                gj_upsample_quad(planes, p, c, near[c], far[c], x, y, s[c]);
            else
                s[c][0] = s[c][1] = s[c][2] = s[c][3] = 0;
        GJ_UNROLL
        for (j = 0; j < 4; j++) {
            gj_i32 px[4];

            px[0] = s[0][j];
            px[1] = s[1][j];
            px[2] = s[2][j];
            px[3] = s[3][j];
            if (fmt == GJ_COLOR_OUT_GRAY)
                /* jdcolor.c's rgb_gray weights (FIX(0.299), FIX(0.587), FIX(0.114), 16-bit scale) */
                rgb[j][0] = p->color_space == GJ_CS_RGB ? (19595 * px[0] + 38470 * px[1] + 7471 * px[2] + 32768) >> 16
                                                        : px[0];
            else
                gj_pixel_rgb(p, px, rgb[j]);
        }
        if (fmt == GJ_COLOR_OUT_GRAY) {
            if (whole)
                *(GJ_GLOBAL gj_u32 *)(o + x) = (gj_u32)rgb[0][0] | (gj_u32)rgb[1][0] << 8 |
                                               (gj_u32)rgb[2][0] << 16 | (gj_u32)rgb[3][0] << 24;
            else
                GJ_UNROLL
                for (j = 0; j < 4; j++)
                    if (j < count)
                        o[x + j] = (gj_u8)rgb[j][0];
        } else if (fmt == GJ_COLOR_OUT_RGB24) {
            if (whole) {
                GJ_GLOBAL gj_u32 *w = (GJ_GLOBAL gj_u32 *)(o + x * 3);

                w[0] = (gj_u32)rgb[0][0] | (gj_u32)rgb[0][1] << 8 | (gj_u32)rgb[0][2] << 16 | (gj_u32)rgb[1][0] << 24;
                w[1] = (gj_u32)rgb[1][1] | (gj_u32)rgb[1][2] << 8 | (gj_u32)rgb[2][0] << 16 | (gj_u32)rgb[2][1] << 24;
                w[2] = (gj_u32)rgb[2][2] | (gj_u32)rgb[3][0] << 8 | (gj_u32)rgb[3][1] << 16 | (gj_u32)rgb[3][2] << 24;
            } else {
                GJ_UNROLL
                for (j = 0; j < 4; j++)
                    if (j < count) {
                        o[(x + j) * 3] = (gj_u8)rgb[j][0];
                        o[(x + j) * 3 + 1] = (gj_u8)rgb[j][1];
                        o[(x + j) * 3 + 2] = (gj_u8)rgb[j][2];
                    }
            }
        } else {
            gj_u32 r_at = fmt == GJ_COLOR_OUT_BGRA ? 16 : 0, b_at = fmt == GJ_COLOR_OUT_BGRA ? 0 : 16;

            GJ_UNROLL
            for (j = 0; j < 4; j++) {
                gj_u32 v = (gj_u32)rgb[j][0] << r_at | (gj_u32)rgb[j][1] << 8 | (gj_u32)rgb[j][2] << b_at | 0xFF000000u;

                if (j >= count)
                    break;
                if (p->word_stores) {
                    *(GJ_GLOBAL gj_u32 *)(o + (x + j) * 4) = v;
                } else {
                    o[(x + j) * 4] = (gj_u8)v;
                    o[(x + j) * 4 + 1] = (gj_u8)(v >> 8);
                    o[(x + j) * 4 + 2] = (gj_u8)(v >> 16);
                    o[(x + j) * 4 + 3] = (gj_u8)(v >> 24);
                }
            }
        }
    }
}

#endif /* GJ_KERNELS_JPEG_COLOR_H */
