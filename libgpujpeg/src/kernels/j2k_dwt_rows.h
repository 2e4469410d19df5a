/*
 * The IDWT's horizontal steps (T.800 F.3.4) over rows held in local memory, each
 * lane lifting GJ_J2K_DWT_SEGMENT adjacent samples of a row in registers, as
 * gj_j2k_idwt_columns lifts its columns: no barrier between the lifting steps, and
 * a lifted sample's neighbours are registers, not local memory loads. (Lanes that
 * each took every few samples of a row, gj_j2k_idwt_lines, spent about 70
 * instructions a sample on the addresses, loads and barriers of four steps.)
 *
 * A work-group takes GJ_J2K_DWT_ROW_LINES(n) rows of a job (j2k_params.h):
 *  1. its lanes read each row in sub-band order (low-pass samples first) and store
 *     it in sample order, scaled (F.3.8.2), with its symmetric extension (F.3.7)
 *     at both ends: GJ_J2K_DWT_ROW_EXT samples, which every lifted sample's window
 *     then finds in place (no end needs a test later);
 *  2. lane t of a row reads the window of its samples 32t to 32t + 31 and lifts it;
 *  3. after a barrier, writes them back over the row;
 *  4. the lanes store the row in sample order, as a warp's stores fall together.
 * The row's words skip one every GJ_J2K_DWT_SEGMENT samples (gj_j2k_row_word), so
 * that the lanes' windows, a segment apart, lie in different banks.
 */
#ifndef GJ_KERNELS_J2K_DWT_ROWS_H
#define GJ_KERNELS_J2K_DWT_ROWS_H

#include "common.h"
#include "j2k_params.h"
#include "j2k_coef.h"
#include "j2k_dwt.h"

/* The symmetric extension stored at either end of a row: the 9/7 window's halo and the parity. */
#define GJ_J2K_DWT_ROW_EXT 5

/* The local word of a row's sample at coordinate k (from -GJ_J2K_DWT_ROW_EXT). */
GJ_FUNC gj_u32 gj_j2k_row_word(gj_i32 k)
{
    gj_u32 u = (gj_u32)(k + GJ_J2K_DWT_SEGMENT);

    return u + u / GJ_J2K_DWT_SEGMENT - (GJ_J2K_DWT_SEGMENT - GJ_J2K_DWT_ROW_EXT);
}

GJ_FUNC void gj_j2k_idwt_rows(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, gj_u32 irreversible,
                              GJ_GLOBAL gj_i32 *buf, gj_u32 wide, GJ_GLOBAL gj_u32 *saturated, GJ_LOCAL gj_i32 *line,
                              GJ_GLOBAL gj_i32 *scratch)
{
    const gj_i32 halo = irreversible ? 4 : 2;
    gj_u32 g = gj_group_id(), lid = gj_local_id(), n, lanes, lines, across, c, t, low, parity, first_at, out_at;
    gj_u32 start, filled, sat = 0;
    gj_i32 shift_in, shift_out;
    GJ_GLOBAL const gj_j2k_dwt_job *j;
    GJ_GLOBAL gj_i32 *out;
    GJ_LOCAL gj_i32 *mine;

    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs + 1, sizeof(gj_j2k_dwt_job) / 4, count, g)];
    n = j->width;
    lanes = GJ_J2K_DWT_ROW_LANES(n);
    across = (g - j->group_first) * j->lines;
    lines = gj_min(j->lines, j->height - across);
    if (n > GJ_J2K_DWT_LINE || lines * GJ_J2K_DWT_ROW_PITCH(n) > GJ_J2K_DWT_ROW_WORDS ||
        lines * lanes > gj_group_size())
        return;     /* the host gives such rows other kernels */
    c = lid / lanes;
    t = c < lines ? lid % lanes : lanes;    /* a lane left over: no samples (t == lanes) */
    start = c < lines ? t : n;              /* its first sample in steps 1 and 4 */
    low = j->low_count;
    parity = j->parity;
    shift_in = (gj_i32)j->shift_in;
    shift_out = (gj_i32)j->shift_out;
    mine = line + (c < lines ? c : 0u) * GJ_J2K_DWT_ROW_PITCH(n);
    first_at = j->offset + (across + c) * j->stride;    /* read once: buf may alias jobs */
    /* A horizontal step of a scratch pair writes its rows there, width apart (gj_j2k_idwt_columns). */
    out = scratch ? scratch : buf;
    out_at = scratch ? j->scratch_at + (across + c) * n : first_at;
    /* 1. In sample order: the low-pass samples s at 2s + parity, then the high-pass ones
     * h at 2h + 1 - parity, each kind in a loop of its own (its scaling a constant);
     * GJ_J2K_DWT_LOADS loads in flight a lane, without tests but in the last round. A
     * row of one sample goes with the extension. */
    GJ_UNROLL
    for (gj_u32 high = 0; high < 2; high++) {
        gj_u32 kind = n == 1 ? 0u : high ? n - low : low, from = first_at + (high ? low : 0u), odd = high ^ parity;
        gj_u32 s0 = start;

        for (; s0 + (GJ_J2K_DWT_LOADS - 1u) * lanes < kind; s0 += GJ_J2K_DWT_LOADS * lanes) {
            gj_i32 v[GJ_J2K_DWT_LOADS];

            GJ_UNROLL
            for (gj_u32 b = 0; b < GJ_J2K_DWT_LOADS; b++)
                v[b] = gj_j2k_coef_load(buf, from + s0 + b * lanes, wide);
            GJ_UNROLL
            for (gj_u32 b = 0; b < GJ_J2K_DWT_LOADS; b++)
                mine[gj_j2k_row_word((gj_i32)(2u * (s0 + b * lanes) + odd))] =
                    gj_j2k_scaled((gj_i32)((gj_u32)v[b] << shift_in), high, irreversible);
        }
        for (; s0 < kind; s0 += lanes)
            mine[gj_j2k_row_word((gj_i32)(2u * s0 + odd))] =
                gj_j2k_scaled((gj_i32)((gj_u32)gj_j2k_coef_load(buf, from + s0, wide) << shift_in), high, irreversible);
    }
    /* The extension before coordinate 0 and past n - 1, and zeros up to the last window's
     * end (samples past the row's end that no kept sample depends on). */
    filled = GJ_J2K_DWT_SEGMENT * lanes + GJ_J2K_DWT_ROW_EXT - (n == 1 ? 0u : n);
    for (gj_u32 e = t; t < lanes && e < GJ_J2K_DWT_ROW_EXT + filled; e += lanes) {
        gj_i32 k = (gj_i32)e - GJ_J2K_DWT_ROW_EXT + (e < GJ_J2K_DWT_ROW_EXT || n == 1 ? 0 : (gj_i32)n);
        gj_i32 v = 0;

        if (k < (gj_i32)n + GJ_J2K_DWT_ROW_EXT) {
            gj_i32 i = gj_j2k_mirror_any(k, (gj_i32)n);
            gj_u32 high = (gj_u32)(i + (gj_i32)parity) & 1u;

            v = gj_j2k_interleaved_value(
                (gj_i32)((gj_u32)gj_j2k_coef_load(buf, first_at + (gj_u32)gj_j2k_subband_index(i, parity, low, high),
                                                  wide) << shift_in),
                high, (gj_i32)n, irreversible);
        }
        mine[gj_j2k_row_word(k)] = v;
    }
    gj_barrier();
    if (n > 1) {
        /* 2. Lane t's window: coordinates 32t - halo - parity on, an even index a low-pass
         * sample (gj_j2k_idwt_columns); its words from `at`, one more past each
         * multiple of the segment (gj_j2k_row_word), where parity moves the first. */
        gj_i32 x[GJ_J2K_DWT_WINDOW(4)];
        gj_u32 at = (GJ_J2K_DWT_SEGMENT + 1u) * (t + 1u) - (GJ_J2K_DWT_SEGMENT - GJ_J2K_DWT_ROW_EXT) - (gj_u32)halo -
                    parity;

        if (t < lanes) {
            GJ_UNROLL
            for (gj_i32 w = 0; w < GJ_J2K_DWT_WINDOW(4); w++) {
                gj_i32 d = w - halo;
                gj_u32 skip = d < 0 ? 0u : d == 0 ? 1u - parity : d < GJ_J2K_DWT_SEGMENT ? 1u
                            : d == GJ_J2K_DWT_SEGMENT ? 2u - parity : 2u;

                if (w < GJ_J2K_DWT_WINDOW(halo))
                    x[w] = mine[at + (gj_u32)w + skip - 1u];
            }
            gj_j2k_lift_window(x, irreversible);
        }
        gj_barrier();
        /* 3. Sample 32t + q is window index halo + parity + q. */
        if (t < lanes) {
            GJ_UNROLL
            for (gj_u32 q = 0; q < GJ_J2K_DWT_SEGMENT; q++)
                mine[(GJ_J2K_DWT_SEGMENT + 1u) * (t + 1u) - (GJ_J2K_DWT_SEGMENT - GJ_J2K_DWT_ROW_EXT) + q] =
                    parity ? x[halo + 1 + (gj_i32)q] : x[halo + (gj_i32)q];
        }
        gj_barrier();
    }
    /* 4. The row in sample order, GJ_J2K_DWT_LOADS a lane at once but in the last round. */
    {
        gj_u32 s0 = start;

        for (; s0 + (GJ_J2K_DWT_LOADS - 1u) * lanes < n; s0 += GJ_J2K_DWT_LOADS * lanes) {
            gj_i32 v[GJ_J2K_DWT_LOADS];

            GJ_UNROLL
            for (gj_u32 b = 0; b < GJ_J2K_DWT_LOADS; b++)
                v[b] = mine[gj_j2k_row_word((gj_i32)(s0 + b * lanes))];
            GJ_UNROLL
            for (gj_u32 b = 0; b < GJ_J2K_DWT_LOADS; b++)
                sat |= gj_j2k_dwt_store(out, out_at + s0 + b * lanes, v[b], shift_out, wide);
        }
        for (; s0 < n; s0 += lanes)
            sat |= gj_j2k_dwt_store(out, out_at + s0, mine[gj_j2k_row_word((gj_i32)s0)], shift_out, wide);
    }
    /* a plain store: every lane that saw one writes the same 1 */
    if (sat)
        *saturated = 1u;
}

/* A kernel per filter and coefficient width (constants there, as gj_j2k_idwt_lines's). */
#define GJ_J2K_IDWT_ROWS(name, irreversible, wide)                                                               \
    GJ_KERNEL name(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, GJ_GLOBAL gj_i32 *buf,       \
                   GJ_GLOBAL gj_u32 *saturated, GJ_GLOBAL gj_u8 *scratch, gj_u64 scratch_at, gj_u32 to_scratch)    \
    {                                                                                                            \
        GJ_LOCAL_DECL gj_i32 line[GJ_J2K_DWT_ROW_WORDS];                                                         \
                                                                                                                 \
        gj_j2k_idwt_rows(jobs, first, count, irreversible, buf, wide, saturated, line,                           \
                         to_scratch ? (GJ_GLOBAL gj_i32 *)(scratch + scratch_at) : 0);                          \
    }

GJ_J2K_IDWT_ROWS(gj_j2k_idwt_rows_53_16, 0, 0)
GJ_J2K_IDWT_ROWS(gj_j2k_idwt_rows_53_32, 0, 1)
GJ_J2K_IDWT_ROWS(gj_j2k_idwt_rows_97_16, 1, 0)
GJ_J2K_IDWT_ROWS(gj_j2k_idwt_rows_97_32, 1, 1)

#endif /* GJ_KERNELS_J2K_DWT_ROWS_H */
