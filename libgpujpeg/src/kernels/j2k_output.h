/*
 * The output stage: inverse component transform (T.800 G.2 RCT for 5/3, G.3 ICT
 * for 9/7), DC level shift (G.1.2), clamping to the component's range and
 * packing into 8- or 16-bit samples, one thread per pixel of every tile.
 */
#ifndef GJ_KERNELS_J2K_OUTPUT_H
#define GJ_KERNELS_J2K_OUTPUT_H

#include "common.h"
#include "j2k_params.h"
#include "j2k_dwt.h"
#include "j2k_coef.h"

/* ICT constants (G-6) times 2^24. */
#define GJ_J2K_ICT_CR_R 23521657
#define GJ_J2K_ICT_CB_G 5773543
#define GJ_J2K_ICT_CR_G 11981281
#define GJ_J2K_ICT_CB_B 29729227

/*
 * The output stages work in 32 bits (in 64 bits gj_j2k_output's PTX held 977
 * 64-bit operations, 295 now: batches of 4K pictures 0.5-1.5 % faster on an H200).
 * A full-scale sample is 2^25 at most: 2^(precision - 1) in GJ_J2K_FRAC_BITS()
 * fractional bits, 26 - precision from 14 bits on (5/3 integers: 2^17). Values past
 * 2^27, four times that, which only a corrupt stream makes, are clamped there as
 * they are read. The component transform stays within 31 bits: its factors are
 * below 2, and a component moved to component 0's fraction is held within 2^30
 * (gj_j2k_to_fraction).
 */
#define GJ_J2K_OUT_MAX_VALUE ((1 << 27) - 1)

/* Coefficient i as the output stages take it (above). */
GJ_FUNC gj_i32 gj_j2k_out_load(GJ_GLOBAL const gj_i32 *coef, gj_u32 i, gj_u32 wide)
{
    return gj_max(-GJ_J2K_OUT_MAX_VALUE, gj_min(GJ_J2K_OUT_MAX_VALUE, gj_j2k_coef_load(coef, i, wide)));
}

/*
 * A fixed-point value from `from` fractional bits to `to`, within 2^30. 16-bit
 * coefficients move at most 13 bits up (to 2^28), 32-bit ones at most 3 (their
 * fractions are GJ_J2K_FRAC_BITS(): to 2^30): only components of different filters,
 * which T.800 does not allow with the component transform, reach the bound.
 */
GJ_FUNC gj_i32 gj_j2k_to_fraction(gj_i32 v, gj_u32 from, gj_u32 to)
{
    gj_i32 bound;

    if (from >= to)
        return v >> (from - to);
    bound = (1 << 30) >> (to - from);
    /* a product, not a left shift: that of a negative value is undefined in C (UBSan) */
    return gj_max(-bound, gj_min(bound, v)) * (1 << (to - from));
}

/* A fixed-point 9/7 value with `frac` fractional bits rounded to an integer. */
GJ_FUNC gj_i32 gj_j2k_fix_round(gj_i32 v, gj_u32 frac)
{
    return frac ? (v + (1 << (frac - 1))) >> frac : v;
}

/*
 * G.1.2 and the clamp to the component's bit depth (at most 16). Signed components
 * are clamped to their own range and stored offset by 2^(precision - 1) like
 * unsigned ones.
 */
GJ_FUNC gj_u32 gj_j2k_to_sample(gj_i32 v, gj_u32 precision)
{
    gj_i32 max = (1 << precision) - 1;

    v += 1 << (precision - 1);
    return (gj_u32)(v < 0 ? 0 : v > max ? max : v);
}

/*
 * A sample of 1 or 2 bytes (little-endian) at out[at]: one 16-bit store where aligned.
 * `aligned` (a constant of the caller): the caller knows 16-bit samples are, and no
 * test is made.
 */
GJ_FUNC void gj_j2k_store_sample(GJ_GLOBAL gj_u8 *out, gj_u64 at, gj_u32 s, gj_u32 bytes, gj_u32 aligned)
{
    if (bytes == 2 && (aligned || !(at & 1u))) {
        *(GJ_GLOBAL gj_u16 *)(out + at) = (gj_u16)s;
        return;
    }
    out[at] = (gj_u8)s;
    if (bytes == 2)
        out[at + 1] = (gj_u8)(s >> 8);
}

/* Component c's value: constant indices once the callers' loops unroll, so that the
 * values stay in registers (an index known only at run time put them on the stack). */
GJ_FUNC gj_i32 gj_j2k_component_value(const gj_i32 *v, gj_u32 c)
{
    gj_i32 r = v[0];

    GJ_UNROLL
    for (gj_u32 i = 1; i < GJ_J2K_MAX_OUT_COMPS; i++)
        r = c == i ? v[i] : r;
    return r;
}

/* Entry c (known only at run time) of four values in registers. */
GJ_FUNC gj_u32 gj_j2k_pick(const gj_u32 *a, gj_u32 c)
{
    return c == 1 ? a[1] : c == 2 ? a[2] : c == 3 ? a[3] : a[0];
}

/*
 * Thread k of a tile's chunks of rows (GJ_J2K_OUT_THREADS): its row *y and first pixel
 * *x; it takes the pixels x + i * GJ_J2K_OUT_LANES for i below the returned count
 * (and below GJ_J2K_OUT_PIXELS).
 */
GJ_FUNC gj_u32 gj_j2k_out_chunk(gj_u32 k, gj_u32 width, gj_u32 *x, gj_u32 *y)
{
    gj_u32 per_row = (gj_u32)GJ_J2K_OUT_THREADS(width, 1u);

    *y = k / per_row;
    k %= per_row;
    *x = k / GJ_J2K_OUT_LANES * (GJ_J2K_OUT_LANES * GJ_J2K_OUT_PIXELS) + k % GJ_J2K_OUT_LANES;
    return *x < width ? (width - *x + GJ_J2K_OUT_LANES - 1) / GJ_J2K_OUT_LANES : 0u;
}

/*
 * GJ_J2K_OUT_PIXELS pixels of a tile's row a thread, GJ_J2K_OUT_LANES apart (so that
 * a warp's loads and stores of each pixel fall together, as with a pixel a thread):
 * the job's search, the division by the row and the parameters' loads once for all
 * of them. Every
 * parameter is read into registers before the first store (a store could alias
 * them: the compiler would read them again after each), and arrays indexed by a
 * component known only at run time are picked from registers by selects.
 *
 * `comps` and `bytes` (constants of the kernel) name the usual picture, which the
 * host checks (output_kernel() in j2k/decoder.c): `comps` components written in
 * order into as many channels (no palette) of `bytes`-byte samples, pixels packed,
 * 16-bit samples aligned. The selects and tests of the general case (comps 0:
 * every layout) then fold away: 42-46 % fewer instructions for 4K RGB pictures on
 * an H200, DCI 4K batches 5 % faster.
 */
GJ_FUNC void gj_j2k_output_rows(GJ_GLOBAL const gj_j2k_out_tile *tiles, gj_u32 count, gj_u64 total,
                                GJ_GLOBAL const gj_j2k_out_params *p, GJ_GLOBAL const gj_i32 *coef,
                                GJ_GLOBAL const gj_u16 *palette, GJ_GLOBAL gj_u8 *out, gj_u32 wide,
                                gj_u32 comps, gj_u32 bytes_fixed)
{
    gj_u64 id = gj_global_id(), at;
    GJ_GLOBAL const gj_j2k_out_tile *t;
    gj_u32 x, y, n, c, mct, nb_comps, read_mask, nb_channels, bytes, pixel_stride, channel_step;
    gj_u32 entries, columns, base[GJ_J2K_MAX_OUT_COMPS], frac[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 precision[GJ_J2K_MAX_OUT_COMPS], comp[GJ_J2K_MAX_OUT_COMPS], column[GJ_J2K_MAX_OUT_COMPS];
    gj_u32 shift[GJ_J2K_MAX_OUT_COMPS];
    gj_i32 loaded[GJ_J2K_OUT_PIXELS][GJ_J2K_MAX_OUT_COMPS];

    if (id >= total)
        return;
    t = &tiles[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)tiles, sizeof(gj_j2k_out_tile) / 4, count, id)];
    n = gj_j2k_out_chunk((gj_u32)(id - t->thread_first), t->width, &x, &y);
    mct = t->mct;
    nb_comps = comps ? comps : p->nb_comps;
    read_mask = comps ? (1u << comps) - 1u : p->read_mask;
    nb_channels = comps ? comps : p->nb_channels;
    bytes = comps ? bytes_fixed : p->bytes_per_sample;
    pixel_stride = comps ? comps * bytes_fixed : p->pixel_stride;
    channel_step = comps ? bytes_fixed : p->channel_step;
    entries = p->palette_entries;
    columns = p->palette_columns;
    GJ_UNROLL
    for (c = 0; c < GJ_J2K_MAX_OUT_COMPS; c++) {
        base[c] = t->coef_offset[c] + y * t->stride[c] + x;
        frac[c] = t->frac_bits[c];
        precision[c] = p->precision[c];
        comp[c] = comps ? c : p->channel_comp[c];
        column[c] = comps ? GJ_J2K_DIRECT : p->channel_column[c];
        shift[c] = p->shift[c];
    }
    at = ((gj_u64)p->offset_hi << 32 | p->offset_lo) + (gj_u64)(t->y0 + y) * p->pitch +
         (gj_u64)(t->x0 + x) * pixel_stride;
    /* Every pixel's loads first: the stores between them could alias them (as far as
     * the compiler knows), and each pixel's loads would wait for the last one's.
     * Guards, not breaks: loops with a break of a run-time bound do not unroll (PoCL's LLVM). */
    GJ_UNROLL
    for (gj_u32 i = 0; i < GJ_J2K_OUT_PIXELS; i++)
        GJ_UNROLL
        for (c = 0; c < GJ_J2K_MAX_OUT_COMPS; c++)
            /* A JP2 component map may leave out a subsampled component: its region is smaller than this tile's. */
            loaded[i][c] = i < n && c < nb_comps && read_mask >> c & 1u ?
                               gj_j2k_out_load(coef, base[c] + i * GJ_J2K_OUT_LANES, wide) : 0;
    GJ_UNROLL
    for (gj_u32 i = 0; i < GJ_J2K_OUT_PIXELS; i++) {
        gj_i32 v[GJ_J2K_MAX_OUT_COMPS];

        if (i < n) {
            GJ_UNROLL
            for (c = 0; c < GJ_J2K_MAX_OUT_COMPS; c++)
                v[c] = loaded[i][c];
            if (mct && frac[0]) {
                /* G-6 on the fixed-point values, in component 0's fraction. */
                gj_u32 f = frac[0];
                gj_i32 y0 = v[0];
                gj_i32 cb = gj_j2k_to_fraction(v[1], frac[1], f), cr = gj_j2k_to_fraction(v[2], frac[2], f);

                v[0] = gj_j2k_fix_round(y0 + gj_j2k_fix_mul(cr, GJ_J2K_ICT_CR_R), f);
                v[1] = gj_j2k_fix_round(y0 - gj_j2k_fix_mul(cb, GJ_J2K_ICT_CB_G) - gj_j2k_fix_mul(cr, GJ_J2K_ICT_CR_G),
                                        f);
                v[2] = gj_j2k_fix_round(y0 + gj_j2k_fix_mul(cb, GJ_J2K_ICT_CB_B), f);
                GJ_UNROLL
                for (c = 3; c < GJ_J2K_MAX_OUT_COMPS; c++)
                    v[c] = c < nb_comps ? gj_j2k_fix_round(v[c], frac[c]) : 0;
            } else {
                GJ_UNROLL
                for (c = 0; c < GJ_J2K_MAX_OUT_COMPS; c++)
                    v[c] = c < nb_comps ? gj_j2k_fix_round(v[c], frac[c]) : 0;
            }
            if (mct && !frac[0]) {
                /* G-2: G = Y0 - floor((Y1 + Y2) / 4), R = Y2 + G, B = Y1 + G */
                gj_i32 g = v[0] - ((v[1] + v[2]) >> 2);

                v[0] = v[2] + g;
                v[2] = v[1] + g;
                v[1] = g;
            }
            GJ_UNROLL
            for (c = 0; c < GJ_J2K_MAX_OUT_COMPS; c++) {
                gj_u32 s;

                if (c >= nb_channels)
                    continue;
                s = gj_j2k_to_sample(gj_j2k_component_value(v, comp[c]), gj_j2k_pick(precision, comp[c]));
                /* I.5.3.4: the component's sample indexes the palette (clamped to its rows). */
                if (column[c] != GJ_J2K_DIRECT)
                    s = palette[gj_min(s, entries - 1u) * columns + column[c]];
                gj_j2k_store_sample(out, at + c * channel_step, s << shift[c], bytes, comps != 0);
            }
            at += (gj_u64)GJ_J2K_OUT_LANES * pixel_stride;
        }
    }
}

#define GJ_J2K_OUTPUT(name, comps, bytes)                                                                        \
    GJ_KERNEL name(GJ_GLOBAL const gj_j2k_out_tile *tiles, gj_u32 count, gj_u64 total,                          \
                   GJ_GLOBAL const gj_j2k_out_params *p, GJ_GLOBAL const gj_i32 *coef,                          \
                   GJ_GLOBAL const gj_u16 *palette, GJ_GLOBAL gj_u8 *out, gj_u32 wide)                          \
    {                                                                                                            \
        gj_j2k_output_rows(tiles, count, total, p, coef, palette, out, wide, comps, bytes);                      \
    }

GJ_J2K_OUTPUT(gj_j2k_output, 0, 0)
GJ_J2K_OUTPUT(gj_j2k_output_1x8, 1, 1)
GJ_J2K_OUTPUT(gj_j2k_output_1x16, 1, 2)
GJ_J2K_OUTPUT(gj_j2k_output_3x8, 3, 1)
GJ_J2K_OUTPUT(gj_j2k_output_3x16, 3, 2)
GJ_J2K_OUTPUT(gj_j2k_output_4x8, 4, 1)
GJ_J2K_OUTPUT(gj_j2k_output_4x16, 4, 2)

/*
 * Planar output: one component into its own plane of 8- or 16-bit samples
 * (`bytes`; components of different sizes carry no component transform), DC shift
 * and clamp as above. Its pixels go in chunks of rows as the interleaved kernel's
 * (GJ_J2K_OUT_PIXELS a thread, GJ_J2K_OUT_LANES apart), their loads before the first
 * store: a pixel a thread searched its job and divided by the row each time.
 */
GJ_KERNEL gj_j2k_output_planar(GJ_GLOBAL const gj_j2k_plane_job *jobs, gj_u32 first, gj_u32 count, gj_u64 total,
                               gj_u32 precision, gj_u32 shift, gj_u32 bytes, GJ_GLOBAL const gj_i32 *coef,
                               GJ_GLOBAL gj_u8 *out, gj_u64 offset, gj_u32 pitch, gj_u32 wide)
{
    gj_u64 id = gj_global_id(), at;
    GJ_GLOBAL const gj_j2k_plane_job *j;
    gj_u32 x, y, n, base, frac;
    gj_i32 v[GJ_J2K_OUT_PIXELS];

    if (id >= total)
        return;
    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs, sizeof(gj_j2k_plane_job) / 4, count, id)];
    n = gj_j2k_out_chunk((gj_u32)(id - j->thread_first), j->width, &x, &y);
    base = j->coef_offset + y * j->stride + x;
    frac = j->frac_bits;
    at = offset + (gj_u64)(j->y0 + y) * pitch + (gj_u64)(j->x0 + x) * bytes;
    GJ_UNROLL
    for (gj_u32 i = 0; i < GJ_J2K_OUT_PIXELS; i++)
        v[i] = i < n ? gj_j2k_out_load(coef, base + i * GJ_J2K_OUT_LANES, wide) : 0;
    GJ_UNROLL
    for (gj_u32 i = 0; i < GJ_J2K_OUT_PIXELS; i++)
        if (i < n)
            gj_j2k_store_sample(out, at + (gj_u64)i * GJ_J2K_OUT_LANES * bytes,
                                gj_j2k_to_sample(gj_j2k_fix_round(v[i], frac), precision) << shift, bytes, 0);
}

#endif /* GJ_KERNELS_J2K_OUTPUT_H */
