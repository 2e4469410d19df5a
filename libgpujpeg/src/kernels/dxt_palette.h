/*
 * What a DXT block decodes to: the colour and alpha palettes and the decoding of
 * whole blocks. One definition for the GPU decoder, the encoders' error
 * measurements and the C reference decoder, so that what the encoder minimises
 * is exactly what every decoder shows.
 *
 * The integer rules are those of FFmpeg's texturedsp (the HAP and DDS decoders):
 * 5/6-bit endpoints expand to round(v * 255 / 31 or 63),
 * interpolated entries truncate ((2 * c0 + c1) / 3, (c0 + c1) / 2,
 * ((8 - i) * a0 + (i - 1) * a1) / 7 ...), DXT5's colour block always has four
 * colours, and scaled YCoCg divides Co and Cg by the scale with C's truncation.
 *
 * Pixels are packed as r | g << 8 | b << 16 | a << 24.
 */
#ifndef GJ_KERNELS_DXT_PALETTE_H
#define GJ_KERNELS_DXT_PALETTE_H

#include "common.h"
#include "dxt_params.h"

#define GJ_DXT_PACK(r, g, b, a) ((gj_u32)(r) | (gj_u32)(g) << 8 | (gj_u32)(b) << 16 | (gj_u32)(a) << 24)
#define GJ_DXT_CH(px, c) ((gj_i32)(((px) >> (8 * (c))) & 255u))

/* A 5-bit (bits 5) or 6-bit endpoint channel to 8 bits: round(v * 255 / (2^bits - 1)). */
GJ_FUNC gj_u32 gj_dxt_expand(gj_u32 v, gj_u32 bits)
{
    gj_u32 t = v * 255u + (1u << (bits - 1));

    return ((t >> bits) + t) >> bits;
}

/* An RGB565 endpoint as 8-bit r, g, b (alpha 0). */
GJ_FUNC gj_u32 gj_dxt_expand565(gj_u32 c)
{
    return GJ_DXT_PACK(gj_dxt_expand(c >> 11 & 31u, 5), gj_dxt_expand(c >> 5 & 63u, 6),
                       gj_dxt_expand(c & 31u, 5), 0);
}

/*
 * The four colours of a colour block (alpha 255). c0 > c1, or four_only (DXT5's
 * colour block): c0, c1, (2c0 + c1) / 3, (c0 + 2c1) / 3. Otherwise the
 * three-colour mode: c0, c1, (c0 + c1) / 2 and black.
 */
GJ_FUNC void gj_dxt_color_palette(gj_u32 c0, gj_u32 c1, gj_u32 four_only, gj_u32 *pal)
{
    gj_u32 e0 = gj_dxt_expand565(c0), e1 = gj_dxt_expand565(c1);
    gj_u32 four = four_only || c0 > c1;
    gj_u32 p2 = 0, p3 = 0;
    int c;

    GJ_UNROLL
    for (c = 0; c < 3; c++) {
        gj_u32 a = (gj_u32)GJ_DXT_CH(e0, c), b = (gj_u32)GJ_DXT_CH(e1, c);
        p2 |= (four ? (2 * a + b) / 3 : (a + b) / 2) << (8 * c);
        p3 |= (four ? (a + 2 * b) / 3 : 0u) << (8 * c);
    }
    pal[0] = e0 | 0xff000000u;
    pal[1] = e1 | 0xff000000u;
    pal[2] = p2 | 0xff000000u;
    pal[3] = p3 | 0xff000000u;
}

/*
 * The eight values of an alpha (DXT5) or BC4 block. a0 > a1: a0, a1 and six
 * interpolated values; otherwise a0, a1, four interpolated values, 0 and 255.
 */
GJ_FUNC void gj_dxt_alpha_palette(gj_u32 a0, gj_u32 a1, gj_u32 *pal)
{
    gj_u32 i;

    pal[0] = a0;
    pal[1] = a1;
    GJ_UNROLL
    for (i = 2; i < 8; i++) {
        if (a0 > a1)
            pal[i] = ((8 - i) * a0 + (i - 1) * a1) / 7;
        else
            pal[i] = i == 6 ? 0u : i == 7 ? 255u : ((6 - i) * a0 + (i - 1) * a1) / 5;
    }
}

GJ_FUNC gj_u32 gj_dxt_clamp255(gj_i32 v)
{
    return (gj_u32)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* A decoded scaled-YCoCg texel (Co, Cg, scale code, Y) as opaque RGB. */
GJ_FUNC gj_u32 gj_dxt_ycocg_to_rgb(gj_u32 px)
{
    gj_i32 s = (GJ_DXT_CH(px, 2) >> 3) + 1;
    gj_i32 y = GJ_DXT_CH(px, 3);
    gj_i32 co = (GJ_DXT_CH(px, 0) - 128) / s;   /* C division: truncates towards 0 */
    gj_i32 cg = (GJ_DXT_CH(px, 1) - 128) / s;

    return GJ_DXT_PACK(gj_dxt_clamp255(y + co - cg), gj_dxt_clamp255(y + cg),
                       gj_dxt_clamp255(y - co - cg), 255);
}

/* The 3-bit indices of an alpha block (48 bits after the two endpoints). */
GJ_FUNC gj_u32 gj_dxt_alpha_index(gj_u32 w0, gj_u32 w1, gj_u32 i)
{
    gj_u64 bits = (gj_u64)(w0 >> 16) | (gj_u64)w1 << 16;

    return (gj_u32)(bits >> (3 * i)) & 7u;
}

/* Colour block in words w0 (endpoints), w1 (2-bit indices, pixel 0 lowest). */
GJ_FUNC void gj_dxt_decode_color(gj_u32 w0, gj_u32 w1, gj_u32 four_only, gj_u32 *px)
{
    gj_u32 pal[4];
    gj_u32 i;

    gj_dxt_color_palette(w0 & 0xffffu, w0 >> 16, four_only, pal);
    GJ_UNROLL
    for (i = 0; i < 16; i++)
        px[i] = pal[(w1 >> (2 * i)) & 3u];
}

/* Replaces the alpha of px[] with an alpha block's values (words w0, w1). */
GJ_FUNC void gj_dxt_decode_alpha(gj_u32 w0, gj_u32 w1, gj_u32 *px)
{
    gj_u32 pal[8];
    gj_u32 i;

    gj_dxt_alpha_palette(w0 & 255u, w0 >> 8 & 255u, pal);
    GJ_UNROLL
    for (i = 0; i < 16; i++)
        px[i] = (px[i] & 0xffffffu) | pal[gj_dxt_alpha_index(w0, w1, i)] << 24;
}

/*
 * One block (2 or 4 little-endian words) to 16 pixels in raster order. BC1 is
 * opaque (its three-colour mode's fourth entry is opaque black, as HAP decodes
 * it); BC4 decodes to gray (r = g = b, alpha 255).
 */
GJ_FUNC void gj_dxt_decode_block(gj_u32 format, const gj_u32 *w, gj_u32 *px)
{
    gj_u32 i;

    switch (format) {
    case GJ_DXT_BC1:
        gj_dxt_decode_color(w[0], w[1], 0, px);
        break;
    case GJ_DXT_BC4:
        GJ_UNROLL
        for (i = 0; i < 16; i++)
            px[i] = 0;
        gj_dxt_decode_alpha(w[0], w[1], px);
        GJ_UNROLL
        for (i = 0; i < 16; i++) {
            gj_u32 v = px[i] >> 24;
            px[i] = GJ_DXT_PACK(v, v, v, 255);
        }
        break;
    default: /* BC3 and YCoCg: alpha block, then a four-colour block */
        gj_dxt_decode_color(w[2], w[3], 1, px);
        gj_dxt_decode_alpha(w[0], w[1], px);
        if (format == GJ_DXT_YCOCG)
            GJ_UNROLL
            for (i = 0; i < 16; i++)
                px[i] = gj_dxt_ycocg_to_rgb(px[i]);
        break;
    }
}

#endif /* GJ_KERNELS_DXT_PALETTE_H */
