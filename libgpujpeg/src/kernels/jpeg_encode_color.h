/*
 * Encoder input: the sample of one component at one position of its (downsampled)
 * plane, computed from the input picture the way libjpeg-turbo's compressor does:
 * RGB -> YCbCr with jccolor.c's 16-bit fixed-point tables, then jcsample.c's
 * downsampling (h2v1, h2v2 with their alternating biases, int_downsample for
 * 1x2; for packed RGB both in a first pass into planes, gj_jpeg_enc_rgb_to_planes),
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

/*
 * Where one component's samples come from: a plane (packed RGB has been converted
 * into planes by gj_jpeg_enc_rgb_to_planes before the blocks read it).
 */
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

/* One full-resolution value of the component at (x, y) of its plane (in range). */
GJ_FUNC gj_i32 gj_enc_source_value(const gj_enc_source *src, gj_u32 x, gj_u32 y)
{
    return src->base[(gj_u64)y * src->pitch + x];
}

/*
 * The sample at column x of a downsampled plane from the sum of the fx by fy
 * values it covers. jcsample.c: h2v1 bias 0,1,0,1...; h2v2 bias 1,2,1,2...;
 * int_downsample (1x2) numpix/2.
 */
GJ_FUNC gj_i32 gj_enc_downsample(gj_i32 sum, gj_u32 fx, gj_u32 fy, gj_u32 x)
{
    if (fx == 2 && fy == 2)
        return (sum + 1 + (gj_i32)(x & 1)) >> 2;
    if (fx == 2)
        return (sum + (gj_i32)(x & 1)) >> 1;
    if (fy == 2)
        return (sum + 1) >> 1;
    return sum;
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
    return gj_enc_downsample(sum, src->fx, src->fy, x);
}

/* Samples x0 .. x0 + 7 of row y of the component's plane. */
GJ_FUNC void gj_enc_sample_row(const gj_enc_source *src, gj_u32 x0, gj_u32 y, gj_i32 *out)
{
    gj_u32 i;

    for (i = 0; i < 8; i++)
        out[i] = gj_enc_sample(src, x0 + i, y);
}

/*
 * Packed RGB input is converted once, before the blocks read it: every
 * component of the picture, downsampled, into planes the blocks then read as
 * planar input with nothing left to downsample. One thread takes 8 columns of
 * the picture by Fy rows (Fy: the largest vertical factor, 1 or 2), reads those
 * pixels once, converts each to all components (jccolor.c), and writes each
 * component's samples of them (jcsample.c, as gj_enc_sample): the picture is
 * read once, where a pass per component would read it once per component.
 * Columns past the picture repeat its last column; component c's rows go up to
 * last_row[c] (its whole row groups).
 *
 * format: pixel_bytes (bits 0..6) | rows 4-byte aligned (bit 7) | channels << 8
 * (r | g << 8 | b << 16). factors: component c's factor_x | factor_y << 2 in
 * bits 8c.., the number of components << 24, Fy << 28. Plane c: out + out_offset[c],
 * cells_x * 8 / factor_x samples per row.
 */
#define GJ_ENC_CELL 8

/*
 * Pixel i of a cell row as a word whose bytes 0..2 are its first three bytes:
 * from the row's words w (whole cell inside the picture, aligned; i and pb known
 * when unrolled, so w stays in registers) or read byte by byte at column x.
 */
GJ_FUNC gj_u32 gj_enc_cell_pixel(const gj_u32 *w, GJ_GLOBAL const gj_u8 *row, gj_u32 whole, gj_u32 x, gj_u32 i,
                                 gj_u32 pb)
{
    GJ_GLOBAL const gj_u8 *px = row + (gj_u64)x * pb;
    gj_u32 k = 3 * i >> 2, s = (3 * i & 3) * 8;

    if (!whole)
        return px[0] | (gj_u32)px[1] << 8 | (gj_u32)px[2] << 16;
    if (pb == 4)
        return w[i];
    return s ? (w[k] >> s | w[k + 1] << (32 - s)) : w[k];
}

/* Row `row` of the cell at column x0 converted: ycc[c][i] for its 8 pixels (c < ncomp). */
GJ_FUNC void gj_enc_cell_row(GJ_GLOBAL const gj_u8 *row, gj_u32 x0, gj_u32 width, gj_u32 pb, gj_u32 aligned,
                             gj_u32 channels, gj_u32 ncomp, gj_i32 ycc[3][GJ_ENC_CELL])
{
    gj_u32 w[8] = { 0, 0, 0, 0, 0, 0, 0, 0 }, i, c, whole = aligned && x0 + GJ_ENC_CELL <= width;
    gj_u32 sr = 8 * (channels & 0xff), sg = 8 * (channels >> 8 & 0xff), sb = 8 * (channels >> 16 & 0xff);

    if (whole) {
        GJ_GLOBAL const gj_u32 *words = (GJ_GLOBAL const gj_u32 *)(row + (gj_u64)x0 * pb);
        GJ_UNROLL
        for (i = 0; i < 8; i++)
            if (i < 2 * pb)
                w[i] = words[i];
    }
    GJ_UNROLL
    for (i = 0; i < GJ_ENC_CELL; i++) {
        gj_u32 px = gj_enc_cell_pixel(w, row, whole, gj_min(x0 + i, width - 1), i, pb);
        gj_i32 r = (gj_i32)(px >> sr & 0xff), g = (gj_i32)(px >> sg & 0xff), b = (gj_i32)(px >> sb & 0xff);
        GJ_UNROLL
        for (c = 0; c < 3; c++)
            if (c < ncomp)
                ycc[c][i] = gj_enc_rgb_to_ycc(r, g, b, c);
    }
}

/*
 * One component's samples of a cell row, packed 4 to a word: from the row's
 * values top (and, for fy 2, bottom), fx by fy values each. x0: the first
 * sample's column in the component.
 */
GJ_FUNC void gj_enc_cell_samples(const gj_i32 *top, const gj_i32 *bottom, gj_u32 fx, gj_u32 fy, gj_u32 x0,
                                 gj_u32 *word)
{
    gj_u32 i;

    word[0] = word[1] = 0;
    if (fx == 2) {
        GJ_UNROLL
        for (i = 0; i < GJ_ENC_CELL / 2; i++) {
            gj_i32 s = top[2 * i] + top[2 * i + 1] + (fy == 2 ? bottom[2 * i] + bottom[2 * i + 1] : 0);
            word[0] |= (gj_u32)gj_enc_downsample(s, fx, fy, x0 + i) << (8 * i);
        }
        return;
    }
    GJ_UNROLL
    for (i = 0; i < GJ_ENC_CELL; i++) {
        gj_i32 s = top[i] + (fy == 2 ? bottom[i] : 0);
        word[i >> 2] |= (gj_u32)gj_enc_downsample(s, fx, fy, x0 + i) << (8 * (i & 3));
    }
}

GJ_KERNEL gj_jpeg_enc_rgb_to_planes(GJ_GLOBAL const gj_u8 *src, gj_u64 offset, gj_u32 pitch, gj_u32 width,
                                    gj_u32 height, gj_u32 format, gj_u32 cells_x, gj_u32 cells_y,
                                    gj_u32 factors, gj_u32 last_row0, gj_u32 last_row1, gj_u32 last_row2,
                                    GJ_GLOBAL gj_u8 *out, gj_u64 out_offset0, gj_u64 out_offset1,
                                    gj_u64 out_offset2)
{
    gj_u64 id = gj_global_id();
    gj_u32 pb = format & 0x7f, aligned = format >> 7 & 1, channels = format >> 8;
    gj_u32 ncomp = factors >> 24 & 0xf, fy_max = factors >> 28, tx, ty, j, c;
    gj_i32 ycc[2][3][GJ_ENC_CELL];

    if (id >= (gj_u64)cells_x * cells_y)
        return;
    ty = (gj_u32)id / cells_x;      /* below 2^32 cells: 32-bit division */
    tx = (gj_u32)id - ty * cells_x;
    GJ_UNROLL
    for (j = 0; j < 2; j++)
        if (j < fy_max)
            gj_enc_cell_row(src + offset + (gj_u64)gj_min(ty * fy_max + j, height - 1) * pitch, tx * GJ_ENC_CELL,
                            width, pb, aligned, channels, ncomp, ycc[j]);
    GJ_UNROLL
    for (c = 0; c < 3; c++) {
        gj_u32 fx = factors >> (8 * c) & 3, fy = factors >> (8 * c + 2) & 3, n = GJ_ENC_CELL / gj_max(fx, 1u);
        gj_u32 last_row = c == 0 ? last_row0 : c == 1 ? last_row1 : last_row2;
        gj_u64 base = c == 0 ? out_offset0 : c == 1 ? out_offset1 : out_offset2;
        if (c >= ncomp)
            break;
        /* fy 2: one row of samples from cell rows 0 and 1; fy 1: one per cell row */
        GJ_UNROLL
        for (j = 0; j < 2; j++) {
            gj_u32 yc = ty * (fy_max / fy) + j, word[2];
            GJ_GLOBAL gj_u32 *dst;
            if (j >= fy_max / fy || yc > last_row)
                break;
            gj_enc_cell_samples(ycc[j][c], ycc[1][c], fx, fy, tx * n, word);
            /* rows are whole cells wide (multiples of 4 bytes) and planes start 16-byte aligned */
            dst = (GJ_GLOBAL gj_u32 *)(out + base + (gj_u64)yc * (cells_x * n) + (gj_u64)tx * n);
            dst[0] = word[0];
            if (n == 8)
                dst[1] = word[1];
        }
    }
}

#endif /* GJ_KERNELS_JPEG_ENCODE_COLOR_H */
