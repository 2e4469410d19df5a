/*
 * The inverse discrete wavelet transform (T.800 Annex F), one 1-D step at a time
 * over many regions at once (a job table, j2k_params.h). A step is
 * 2D_INTERLEAVE (F.3.3) of one direction, from the sub-band layout (low-pass
 * samples first) into sample order, with the 9/7 scaling step (F.3.8.2 steps 1-2)
 * and the single-sample rule of F.3.7, then the lifting steps (F-6, F-7) on the
 * odd or even samples, with symmetric extension (F.3.7) at both ends:
 *  - gj_j2k_idwt_rows (j2k_dwt_rows.h): the horizontal steps, a work-group per few
 *    rows in local memory, each lane lifting a segment of a row in registers;
 *  - gj_j2k_idwt_lines: the vertical steps, a work-group per few adjacent columns
 *    in local memory, the result written back in place (it takes rows too, which
 *    the host no longer gives it: a kernel for columns alone, the same steps with 8
 *    registers fewer, made DCI 2K batches 1.5 % slower on an H200);
 *  - gj_j2k_idwt_columns: the vertical steps of long columns, from a scratch;
 *  - for lines longer than GJ_J2K_DWT_LINE, one thread per sample and launch per
 *    stage: gj_j2k_idwt_interleave into a second buffer, gj_j2k_idwt_lift there.
 * The 5/3 path is integer (bit-exact); the 9/7 path is fixed point with
 * GJ_J2K_FRAC_BITS() fractional bits and 24-bit constants: the same on every device.
 * All but the two-buffer kernels also read and write 16-bit coefficients
 * (j2k_coef.h): they lift in 32 bits, the 9/7 path's values shifted up by the
 * job's `shift_in` on the way in and rounded back by `shift_out` on the way out
 * (the fractions of the level and, for a vertical step, of the next one:
 * j2k/coef_range.h); the two-buffer kernels stay 32-bit. Those 9/7 fractions may
 * come from an optimistic bound: a store it does not hold sets the word *saturated
 * (the decoder then decodes the picture again with the worst case's fractions,
 * j2k/decoder.c).
 */
#ifndef GJ_KERNELS_J2K_DWT_H
#define GJ_KERNELS_J2K_DWT_H

#include "common.h"
#include "j2k_params.h"
#include "j2k_coef.h"

/* Loads a lane of gj_j2k_idwt_lines or gj_j2k_idwt_rows issues before it waits for the first. */
#define GJ_J2K_DWT_LOADS 8
/* Samples a lane of gj_j2k_idwt_lines lifts at once. */
#define GJ_J2K_DWT_LIFTS 4

/* Lifting steps: which samples they update and by what (F.3.8). */
#define GJ_J2K_LIFT_53_EVEN 0       /* X(2n) -= floor((X(2n-1) + X(2n+1) + 2) / 4) */
#define GJ_J2K_LIFT_53_ODD 1        /* X(2n+1) += floor((X(2n) + X(2n+2)) / 2) */
#define GJ_J2K_LIFT_97_DELTA 2      /* X(2n) -= delta * (X(2n-1) + X(2n+1)) */
#define GJ_J2K_LIFT_97_GAMMA 3      /* X(2n+1) -= gamma * (X(2n) + X(2n+2)) */
#define GJ_J2K_LIFT_97_BETA 4       /* X(2n) -= beta * (...) */
#define GJ_J2K_LIFT_97_ALPHA 5      /* X(2n+1) -= alpha * (...) */

/* The 9/7 lifting constants and K of Table F.4, times 2^24. */
#define GJ_J2K_97_ALPHA (-26610918)
#define GJ_J2K_97_BETA (-888859)
#define GJ_J2K_97_GAMMA 14812790
#define GJ_J2K_97_DELTA 7440810
#define GJ_J2K_97_K 20638897
#define GJ_J2K_97_INV_K 13638083

/* x * c / 2^24, rounded: the fixed-point product every device computes alike. */
GJ_FUNC gj_i32 gj_j2k_fix_mul(gj_i64 x, gj_i32 c)
{
    return (gj_i32)((x * c + ((gj_i64)1 << 23)) >> 24);
}

/* acc + a * c in 64 bits. nvcc would fold two of them back into (a + b) * c and a 33-bit sum. */
GJ_FUNC gj_i64 gj_j2k_mad_wide(gj_i32 a, gj_i32 c, gj_i64 acc)
{
#if defined(__CUDACC__)
    gj_i64 r;

    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(r) : "r"(a), "r"(c), "l"(acc));
    return r;
#else
    return acc + (gj_i64)a * c;
#endif
}

/*
 * gj_j2k_fix_mul(a + b, c) as two 32 x 32 -> 64-bit products: the same exact
 * integer (no product reaches 2^57), without the 33-bit sum's wide arithmetic.
 */
GJ_FUNC gj_i32 gj_j2k_fix_mul_sum(gj_i32 a, gj_i32 b, gj_i32 c)
{
    return (gj_i32)(gj_j2k_mad_wide(b, c, gj_j2k_mad_wide(a, c, (gj_i64)1 << 23)) >> 24);
}

/* The job that thread id belongs to: the last one whose first thread is <= id. */
GJ_FUNC gj_u32 gj_j2k_find_job(GJ_GLOBAL const gj_u32 *jobs, gj_u32 words_per_job, gj_u32 count, gj_u64 id)
{
    gj_u32 lo = 0, hi = count;

    while (hi - lo > 1) {
        gj_u32 mid = (lo + hi) / 2;

        if ((gj_u64)jobs[mid * words_per_job] <= id)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Sample i of a line of n as symmetric extension sees it (F.3.7, period 2n - 2): one
 * fold, for i less than n - 1 past either end. */
GJ_FUNC gj_i32 gj_j2k_mirror(gj_i32 i, gj_i32 n)
{
    if (i < 0)
        i = -i;
    if (i >= n)
        i = 2 * (n - 1) - i;
    return i;
}

/* The same however far past an end (rows shorter than gj_j2k_idwt_rows's extension). */
GJ_FUNC gj_i32 gj_j2k_mirror_any(gj_i32 i, gj_i32 n)
{
    gj_i32 period = 2 * (n - 1);

    if (n == 1)
        return 0;
    i %= period;
    if (i < 0)
        i += period;
    return i < n ? i : period - i;
}

/* Where sample (x, y) of job j is; *pos its index along the direction, *n the line's length. */
GJ_FUNC gj_u32 gj_j2k_dwt_sample(GJ_GLOBAL const gj_j2k_dwt_job *j, gj_u32 k, gj_i32 *pos, gj_i32 *n)
{
    gj_u32 x = k % j->width, y = k / j->width;

    *pos = (gj_i32)(j->vertical ? y : x);
    *n = (gj_i32)(j->vertical ? j->height : j->width);
    return j->offset + y * j->stride + x;
}

/* Where the sample at coordinate i (first coordinate's parity given) lies in the sub-band layout. */
GJ_FUNC gj_i32 gj_j2k_subband_index(gj_i32 i, gj_u32 parity, gj_u32 low_count, gj_u32 high)
{
    /* Low-pass samples sit at even coordinates: their index is (i - parity) / 2, high ones follow the low. */
    return high ? (gj_i32)low_count + ((i + (gj_i32)parity - 1) >> 1) : ((i - (gj_i32)parity) >> 1);
}

/* The 9/7 scaling (F.3.8.2 steps 1-2) of a sample of a line of more than one. */
GJ_FUNC gj_i32 gj_j2k_scaled(gj_i32 v, gj_u32 high, gj_u32 irreversible)
{
    /* gj_j2k_fix_mul of a 32-bit value: one 32 x 32 -> 64-bit product, not a 64-bit one */
    return irreversible ? (gj_i32)(gj_j2k_mad_wide(v, high ? GJ_J2K_97_INV_K : GJ_J2K_97_K, (gj_i64)1 << 23) >> 24)
                        : v;
}

/* A sample's value after the interleave: the 9/7 scaling, or F.3.7's rule for a line of one. */
GJ_FUNC gj_i32 gj_j2k_interleaved_value(gj_i32 v, gj_u32 high, gj_i32 n, gj_u32 irreversible)
{
    /* F.3.7: a lone sample at an odd coordinate is halved (C division, as OpenJPEG). */
    if (n == 1)
        return high ? irreversible ? (v < 0 ? -((-v + 1) >> 1) : (v + 1) >> 1) : v / 2 : v;
    return gj_j2k_scaled(v, high, irreversible);
}

/* Lifting step `lift` on sample x between its neighbours a and b. */
GJ_FUNC gj_i32 gj_j2k_lifted(gj_u32 lift, gj_i32 x, gj_i32 a, gj_i32 b)
{
    switch (lift) {
    case GJ_J2K_LIFT_53_EVEN: return x - (gj_i32)(((gj_i64)a + b + 2) >> 2);
    case GJ_J2K_LIFT_53_ODD:  return x + (gj_i32)(((gj_i64)a + b) >> 1);
    case GJ_J2K_LIFT_97_DELTA: return x - gj_j2k_fix_mul_sum(a, b, GJ_J2K_97_DELTA);
    case GJ_J2K_LIFT_97_GAMMA: return x - gj_j2k_fix_mul_sum(a, b, GJ_J2K_97_GAMMA);
    case GJ_J2K_LIFT_97_BETA:  return x - gj_j2k_fix_mul_sum(a, b, GJ_J2K_97_BETA);
    default:                   return x - gj_j2k_fix_mul_sum(a, b, GJ_J2K_97_ALPHA);
    }
}

GJ_KERNEL gj_j2k_idwt_interleave(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, gj_u64 total,
                                 gj_u32 irreversible, GJ_GLOBAL const gj_i32 *src, GJ_GLOBAL gj_i32 *dst)
{
    gj_u64 id = gj_global_id();
    GJ_GLOBAL const gj_j2k_dwt_job *j;
    gj_i32 i, n, from;
    gj_u32 at, high, step;
    gj_i32 v;

    if (id >= total)
        return;
    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs, sizeof(gj_j2k_dwt_job) / 4, count, id)];
    at = gj_j2k_dwt_sample(j, (gj_u32)(id - j->thread_first), &i, &n);
    step = j->vertical ? j->stride : 1u;
    high = (gj_u32)(i + (gj_i32)j->parity) & 1u;
    from = gj_j2k_subband_index(i, j->parity, j->low_count, high);
    v = src[at - (gj_u32)i * step + (gj_u32)from * step];
    dst[at] = gj_j2k_interleaved_value(v, high, n, irreversible);
}

GJ_KERNEL gj_j2k_idwt_lift(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, gj_u64 total,
                           gj_u32 lift, GJ_GLOBAL gj_i32 *buf)
{
    gj_u64 id = gj_global_id();
    GJ_GLOBAL const gj_j2k_dwt_job *j;
    gj_i32 i, n, a, b;
    gj_u32 at, step, odd;

    if (id >= total)
        return;
    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs, sizeof(gj_j2k_dwt_job) / 4, count, id)];
    at = gj_j2k_dwt_sample(j, (gj_u32)(id - j->thread_first), &i, &n);
    odd = (gj_u32)(i + (gj_i32)j->parity) & 1u;
    if (n == 1 || odd != (lift & 1u))
        return;
    step = j->vertical ? j->stride : 1u;
    a = buf[at - (gj_u32)i * step + (gj_u32)gj_j2k_mirror(i - 1, n) * step];
    b = buf[at - (gj_u32)i * step + (gj_u32)gj_j2k_mirror(i + 1, n) * step];
    buf[at] = gj_j2k_lifted(lift, buf[at], a, b);
}

/*
 * One lifting step of gj_j2k_idwt_lines over a line in local memory, kept in
 * sub-band order: low-pass sample m at m * along, high-pass sample h at (low +
 * h) * along. A low-pass sample sits at coordinate 2m + parity, a high-pass one
 * at 2h + 1 - parity, so a low sample's neighbours are the high samples m - 1 +
 * parity and m + parity, a high sample's the low samples h - parity and h + 1 -
 * parity; symmetric extension (F.3.7) turns a neighbour past either end into the
 * other one. A lane updates every `rows`-th sample of the lifted kind from r0:
 * no lane idles on the other parity.
 */
GJ_FUNC void gj_j2k_lift_lines(GJ_LOCAL gj_i32 *line, gj_u32 lift, gj_u32 along, gj_u32 low, gj_u32 n,
                               gj_u32 parity, gj_u32 r0, gj_u32 rows)
{
    gj_u32 odd = lift & 1u;
    /* The lifted kind's samples, the other kind's, where each starts, the first neighbour's offset. */
    gj_i32 count = (gj_i32)(odd ? n - low : low), other = (gj_i32)(odd ? low : n - low);
    GJ_LOCAL gj_i32 *self = line + (odd ? low : 0u) * along, *from = line + (odd ? 0u : low) * along;
    gj_i32 before = odd ? -(gj_i32)parity : (gj_i32)parity - 1;
    /* Samples whose neighbours both lie in the line: from -before up to `inner` */
    gj_i32 inner = gj_min(count, other - 1 - before), m = (gj_i32)r0;

    /* The first sample, where its first neighbour lies before the line (m 0 with
     * before -1): mirrored onto the second, the other kind's first */
    if (m < count && m + before < 0) {
        self[0] = gj_j2k_lifted(lift, self[0], from[0], from[0]);
        m += (gj_i32)rows;
    }
    if (m < inner) {
        /* Without the ends' tests, by pointers that step (m + before is >= 0 here:
         * no offset goes negative, which 64-bit local pointers would not wrap);
         * GJ_J2K_DWT_LIFTS samples' loads at once (the lifted kind and the other one
         * do not overlap, which the compiler cannot know) */
        GJ_LOCAL gj_i32 *x = self + (gj_u32)m * along, *a = from + (gj_u32)(m + before) * along;
        gj_u32 step = rows * along;

        for (; m + (GJ_J2K_DWT_LIFTS - 1) * (gj_i32)rows < inner;
             m += GJ_J2K_DWT_LIFTS * (gj_i32)rows, x += GJ_J2K_DWT_LIFTS * step, a += GJ_J2K_DWT_LIFTS * step) {
            gj_i32 xs[GJ_J2K_DWT_LIFTS], as[GJ_J2K_DWT_LIFTS], bs[GJ_J2K_DWT_LIFTS];

            GJ_UNROLL
            for (gj_u32 b = 0; b < GJ_J2K_DWT_LIFTS; b++) {
                xs[b] = x[b * step];
                as[b] = a[b * step];
                bs[b] = a[b * step + along];
            }
            GJ_UNROLL
            for (gj_u32 b = 0; b < GJ_J2K_DWT_LIFTS; b++)
                x[b * step] = gj_j2k_lifted(lift, xs[b], as[b], bs[b]);
        }
        for (; m < inner; m += (gj_i32)rows, x += step, a += step)
            *x = gj_j2k_lifted(lift, *x, a[0], a[along]);
    }
    /* The last, whose second neighbour lies past the end: the other kind's last
     * sample (m + before is other - 1 from `inner` on) */
    for (; m < count; m += (gj_i32)rows)
        self[(gj_u32)m * along] = gj_j2k_lifted(lift, self[(gj_u32)m * along],
                                               from[(gj_u32)(m + before) * along], from[(gj_u32)(m + before) * along]);
}

/*
 * A lifted sample into the buffer, rounded to the fraction its next reader takes.
 * Returns whether a 16-bit store saturated (v + 32768 past 65535, unsigned): the
 * callers gather that and set *saturated once, not a test and branch a sample.
 */
GJ_FUNC gj_u32 gj_j2k_dwt_store(GJ_GLOBAL gj_i32 *buf, gj_u32 at, gj_i32 v, gj_i32 shift_out, gj_u32 wide)
{
    /* (v + 2^(shift_out - 1)) >> shift_out, without the sum (which could overflow 32 bits) */
    if (shift_out)
        v = (v >> shift_out) + ((v >> (shift_out - 1)) & 1);
    gj_j2k_coef_store(buf, at, v, wide);
    return !wide && (gj_u32)v + 32768u > 65535u;
}

/*
 * One work-group per `lines` lines of the jobs [first, first + count): the lines
 * are read into local memory as they lie (sub-band order), lifted there (a
 * barrier between steps) and written back over themselves in sample order. Each
 * lane keeps one line and takes every `rows`-th sample of it; neighbouring lanes
 * take neighbouring columns of a vertical step (line c's sample s at s * lines +
 * c) and neighbouring samples of a horizontal one (at c * n + s), so that both
 * the global and the local accesses of a warp fall together. Lanes past rows *
 * lines only join the barriers.
 */
GJ_FUNC void gj_j2k_idwt_lines(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, gj_u32 irreversible,
                               GJ_GLOBAL gj_i32 *buf, gj_u32 wide, GJ_GLOBAL gj_u32 *saturated, GJ_LOCAL gj_i32 *line,
                               gj_u32 capacity, GJ_GLOBAL gj_i32 *scratch)
{
    gj_u32 g = gj_group_id(), lid = gj_local_id(), size = gj_group_size(), along, apart, across, lines, low;
    gj_u32 parity, n, c, r0, rows, local_along, first_at, out_at, out_along;
    GJ_GLOBAL gj_i32 *out;
    GJ_GLOBAL const gj_j2k_dwt_job *j;
    GJ_LOCAL gj_i32 *mine;
    gj_i32 shift_in, shift_out;
    gj_u32 sat = 0;

    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs + 1, sizeof(gj_j2k_dwt_job) / 4, count, g)];
    n = j->vertical ? j->height : j->width;
    along = j->vertical ? j->stride : 1u;       /* from one sample of a line to the next */
    apart = j->vertical ? 1u : j->stride;       /* from one line to the next */
    across = (g - j->group_first) * j->lines;   /* the first line's index across the direction */
    lines = gj_min(j->lines, (j->vertical ? j->width : j->height) - across);
    low = j->low_count;
    parity = j->parity;
    shift_in = (gj_i32)j->shift_in;
    shift_out = (gj_i32)j->shift_out;
    if (n * lines > capacity)
        return;     /* the host takes the two-buffer kernels for such lines */
    rows = size / lines;
    c = j->vertical ? lid % lines : lid / rows;
    r0 = j->vertical ? lid / lines : lid % rows;
    if (c >= lines || r0 >= rows)
        r0 = n;     /* a lane left over: no samples */
    local_along = j->vertical ? lines : 1u;
    mine = line + (j->vertical ? c : c * n);
    first_at = j->offset + (across + c) * apart;    /* the lane's line (read once: buf may alias jobs) */
    /* A horizontal step of a scratch pair writes its rows there, width apart (gj_j2k_idwt_columns). */
    out = scratch ? scratch : buf;
    out_at = scratch ? j->scratch_at + (across + c) * j->width : first_at;
    out_along = scratch ? 1u : along;
    /* GJ_J2K_DWT_LOADS loads in flight a lane: one at a time, each waited for before
     * the next, the step ran at a quarter of the GPU's issue rate */
    for (gj_u32 s0 = r0; s0 < n; s0 += GJ_J2K_DWT_LOADS * rows) {
        gj_i32 v[GJ_J2K_DWT_LOADS];

        GJ_UNROLL
        for (gj_u32 b = 0; b < GJ_J2K_DWT_LOADS; b++)
            v[b] = s0 + b * rows < n ? gj_j2k_coef_load(buf, first_at + (s0 + b * rows) * along, wide) : 0;
        GJ_UNROLL
        for (gj_u32 b = 0; b < GJ_J2K_DWT_LOADS; b++) {
            gj_u32 s = s0 + b * rows;

            if (s < n)
                mine[s * local_along] = gj_j2k_interleaved_value((gj_i32)((gj_u32)v[b] << shift_in), s >= low,
                                                                 (gj_i32)n, irreversible);
        }
    }
    gj_barrier();
    if (n > 1) {
        if (irreversible) {
            gj_j2k_lift_lines(mine, GJ_J2K_LIFT_97_DELTA, local_along, low, n, parity, r0, rows);
            gj_barrier();
            gj_j2k_lift_lines(mine, GJ_J2K_LIFT_97_GAMMA, local_along, low, n, parity, r0, rows);
            gj_barrier();
            gj_j2k_lift_lines(mine, GJ_J2K_LIFT_97_BETA, local_along, low, n, parity, r0, rows);
            gj_barrier();
            gj_j2k_lift_lines(mine, GJ_J2K_LIFT_97_ALPHA, local_along, low, n, parity, r0, rows);
        } else {
            gj_j2k_lift_lines(mine, GJ_J2K_LIFT_53_EVEN, local_along, low, n, parity, r0, rows);
            gj_barrier();
            gj_j2k_lift_lines(mine, GJ_J2K_LIFT_53_ODD, local_along, low, n, parity, r0, rows);
        }
        gj_barrier();
    }
    /* Back in sample order: low-pass sample m to coordinate 2m + parity, high-pass h to 2h + 1 - parity */
    for (gj_u32 m = r0; m < low; m += rows)
        sat |= gj_j2k_dwt_store(out, out_at + (2u * m + parity) * out_along, mine[m * local_along], shift_out, wide);
    for (gj_u32 h = r0; h < n - low; h += rows)
        sat |= gj_j2k_dwt_store(out, out_at + (2u * h + 1u - parity) * out_along, mine[(low + h) * local_along],
                                shift_out, wide);
    /* a plain store: every lane that saw one writes the same 1 */
    if (sat)
        *saturated = 1u;
}

/*
 * The vertical step of a scratch pair (j2k_params.h): the horizontal step left the
 * level's rows in the scratch (sub-band order down each column: low-pass rows
 * first), and this lifts the columns from there into the coefficients in sample
 * order. A thread takes one column's GJ_J2K_DWT_SEGMENT outputs from a: it reads
 * the samples its lifting steps reach (HALO = 4 for 9/7, 2 for 5/3, each side, plus
 * one for the parity) into registers, symmetric extension (F.3.7) folding those
 * past either end back in (a signal extended once stays symmetric through the
 * steps: the same values as extending before each step, j2k_dwt_lift_lines), and
 * lifts them there. The window starts at coordinate a - HALO - parity: an even
 * window index is then always a low-pass sample, so every step's samples are
 * known when the kernel is compiled. Neighbouring threads take neighbouring
 * columns: each load and store of a warp is one run of memory. Columns are at
 * least GJ_J2K_DWT_MIN_COLUMN samples (one fold reaches every index).
 */
#define GJ_J2K_DWT_WINDOW(halo) (GJ_J2K_DWT_SEGMENT + 2 * (halo) + 1)

/*
 * The lifting steps over a window of GJ_J2K_DWT_WINDOW(halo) samples in registers
 * whose even indices are low-pass samples (its first and last only feed their
 * neighbours): constant indices once inlined and unrolled, so that x stays in
 * registers.
 */
GJ_FUNC void gj_j2k_lift_window_step(gj_i32 *x, gj_u32 lift, gj_i32 halo)
{
    GJ_UNROLL
    for (gj_i32 w = 1; w < GJ_J2K_DWT_WINDOW(4) - 1; w++)
        if (w < GJ_J2K_DWT_WINDOW(halo) - 1 && ((gj_u32)w & 1u) == (lift & 1u))
            x[w] = gj_j2k_lifted(lift, x[w], x[w - 1], x[w + 1]);
}

GJ_FUNC void gj_j2k_lift_window(gj_i32 *x, gj_u32 irreversible)
{
    if (irreversible) {
        gj_j2k_lift_window_step(x, GJ_J2K_LIFT_97_DELTA, 4);
        gj_j2k_lift_window_step(x, GJ_J2K_LIFT_97_GAMMA, 4);
        gj_j2k_lift_window_step(x, GJ_J2K_LIFT_97_BETA, 4);
        gj_j2k_lift_window_step(x, GJ_J2K_LIFT_97_ALPHA, 4);
    } else {
        gj_j2k_lift_window_step(x, GJ_J2K_LIFT_53_EVEN, 2);
        gj_j2k_lift_window_step(x, GJ_J2K_LIFT_53_ODD, 2);
    }
}

/* Window sample w of a column, read from the scratch's row at `at`. */
GJ_FUNC gj_i32 gj_j2k_column_sample(GJ_GLOBAL const gj_i32 *scratch, gj_u32 at, gj_u32 wide, gj_i32 shift_in,
                                    gj_i32 w, gj_u32 n, gj_u32 irreversible)
{
    return gj_j2k_interleaved_value((gj_i32)((gj_u32)gj_j2k_coef_load(scratch, at, wide) << shift_in), (gj_u32)w & 1u,
                                    (gj_i32)n, irreversible);
}

GJ_FUNC void gj_j2k_idwt_columns(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, gj_u32 irreversible,
                                 GJ_GLOBAL const gj_i32 *scratch, GJ_GLOBAL gj_i32 *buf, gj_u32 wide,
                                 GJ_GLOBAL gj_u32 *saturated)
{
    const gj_i32 halo = irreversible ? 4 : 2;
    gj_u32 g = gj_group_id(), column_groups, k, col, n, low, parity, width;
    GJ_GLOBAL const gj_j2k_dwt_job *j;
    gj_i32 x[GJ_J2K_DWT_WINDOW(4)], a, shift_in, shift_out;
    gj_u32 sat = 0;

    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs + GJ_J2K_DWT_JOB_COLUMN_GROUP,
                              sizeof(gj_j2k_dwt_job) / 4, count, g)];
    width = j->width;
    n = j->height;
    low = j->low_count;
    parity = j->parity;
    shift_in = (gj_i32)j->shift_in;
    shift_out = (gj_i32)j->shift_out;
    k = g - j->column_group_first;
    column_groups = (width + GJ_J2K_DWT_COLUMNS - 1) / GJ_J2K_DWT_COLUMNS;
    col = (k % column_groups) * GJ_J2K_DWT_COLUMNS + gj_local_id();
    a = (gj_i32)((k / column_groups) * GJ_J2K_DWT_SEGMENT);
    if (col >= width)
        return;     /* no barrier follows */
    if (a >= halo + (gj_i32)parity && a - halo - (gj_i32)parity + GJ_J2K_DWT_WINDOW(halo) <= (gj_i32)n) {
        /* No sample of the window past either end (most segments): its low-pass rows
         * from (a - halo) / 2 - parity on and its high-pass ones from low + (a - halo) / 2,
         * what the general case's reflection and sub-band index give, by one address a row */
        gj_u32 lows = j->scratch_at + (gj_u32)((a - halo) / 2 - (gj_i32)parity) * width + col;
        gj_u32 highs = j->scratch_at + (low + (gj_u32)((a - halo) / 2)) * width + col;

        GJ_UNROLL
        for (gj_i32 w = 0; w < GJ_J2K_DWT_WINDOW(4); w++)
            if (w < GJ_J2K_DWT_WINDOW(halo))
                x[w] = gj_j2k_column_sample(scratch, ((w & 1) ? highs : lows) + (gj_u32)(w / 2) * width, wide,
                                            shift_in, w, n, irreversible);
    } else {
        GJ_UNROLL
        for (gj_i32 w = 0; w < GJ_J2K_DWT_WINDOW(4); w++) {
            gj_i32 m = gj_j2k_mirror(a - halo - (gj_i32)parity + w, (gj_i32)n);
            gj_u32 row = (gj_u32)gj_j2k_subband_index(m, parity, low, (gj_u32)w & 1u);

            /* a guard, not a break (a constant once inlined): the loop unrolls on every compiler */
            if (w < GJ_J2K_DWT_WINDOW(halo))
                x[w] = gj_j2k_column_sample(scratch, j->scratch_at + row * width + col, wide, shift_in, w, n,
                                            irreversible);
        }
    }
    gj_j2k_lift_window(x, irreversible);
    /* Output row a + q is window index halo + parity + q */
    GJ_UNROLL
    for (gj_i32 q = 0; q < GJ_J2K_DWT_SEGMENT; q++)
        if (a + q < (gj_i32)n)
            sat |= gj_j2k_dwt_store(buf, j->offset + (gj_u32)(a + q) * j->stride + col,
                                    parity ? x[halo + 1 + q] : x[halo + q], shift_out, wide);
    if (sat)
        *saturated = 1u;
}

/*
 * The kernels, one per filter and coefficient width: constants there, so that no
 * sample tests them. The horizontal steps are bound by their instructions: on an
 * H200 this and the lifting's inside loop took a quarter of them away (4K 9/7
 * finest level 167 -> 138 us). The vertical ones, a few columns a work-group, are
 * bound by their memory transactions instead: those of long columns take the
 * kernels of GJ_J2K_DWT_LONG_LINE samples.
 */
#define GJ_J2K_IDWT_LINES(name, irreversible, wide, capacity)                                                    \
    GJ_KERNEL name(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, GJ_GLOBAL gj_i32 *buf,       \
                   GJ_GLOBAL gj_u32 *saturated, GJ_GLOBAL gj_u8 *scratch, gj_u64 scratch_at, gj_u32 to_scratch)    \
    {                                                                                                            \
        GJ_LOCAL_DECL gj_i32 line[capacity];                                                                     \
                                                                                                                 \
        gj_j2k_idwt_lines(jobs, first, count, irreversible, buf, wide, saturated, line, capacity,                \
                          to_scratch ? (GJ_GLOBAL gj_i32 *)(scratch + scratch_at) : 0);                         \
    }

/* The vertical steps of scratch pairs; scratch_at: the scratch's first byte in the buffer. */
#define GJ_J2K_IDWT_COLUMNS(name, irreversible, wide)                                                            \
    GJ_KERNEL name(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count, GJ_GLOBAL gj_i32 *buf,       \
                   GJ_GLOBAL gj_u32 *saturated, GJ_GLOBAL const gj_u8 *scratch, gj_u64 scratch_at)               \
    {                                                                                                            \
        gj_j2k_idwt_columns(jobs, first, count, irreversible, (GJ_GLOBAL const gj_i32 *)(scratch + scratch_at),   \
                            buf, wide, saturated);                                                               \
    }

GJ_J2K_IDWT_LINES(gj_j2k_idwt_53_16, 0, 0, GJ_J2K_DWT_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_53_32, 0, 1, GJ_J2K_DWT_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_97_16, 1, 0, GJ_J2K_DWT_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_97_32, 1, 1, GJ_J2K_DWT_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_long_53_16, 0, 0, GJ_J2K_DWT_LONG_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_long_53_32, 0, 1, GJ_J2K_DWT_LONG_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_long_97_16, 1, 0, GJ_J2K_DWT_LONG_LINE)
GJ_J2K_IDWT_LINES(gj_j2k_idwt_long_97_32, 1, 1, GJ_J2K_DWT_LONG_LINE)
GJ_J2K_IDWT_COLUMNS(gj_j2k_idwt_columns_53_16, 0, 0)
GJ_J2K_IDWT_COLUMNS(gj_j2k_idwt_columns_53_32, 0, 1)
GJ_J2K_IDWT_COLUMNS(gj_j2k_idwt_columns_97_16, 1, 0)
GJ_J2K_IDWT_COLUMNS(gj_j2k_idwt_columns_97_32, 1, 1)

#endif /* GJ_KERNELS_J2K_DWT_H */
