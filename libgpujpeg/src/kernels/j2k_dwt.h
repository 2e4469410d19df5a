/*
 * The inverse discrete wavelet transform (T.800 Annex F), one 1-D step at a time
 * over many regions at once (a job table, j2k_params.h). A step is
 * 2D_INTERLEAVE (F.3.3) of one direction, from the sub-band layout (low-pass
 * samples first) into sample order, with the 9/7 scaling step (F.3.8.2 steps 1-2)
 * and the single-sample rule of F.3.7, then the lifting steps (F-6, F-7) on the
 * odd or even samples, with symmetric extension (F.3.7) at both ends:
 *  - gj_j2k_idwt_lines: one work-group per row, or per few adjacent columns, the
 *    lines in local memory, the result written back in place;
 *  - for lines longer than GJ_J2K_DWT_LINE, one thread per sample and launch per
 *    stage: gj_j2k_idwt_interleave into a second buffer, gj_j2k_idwt_lift there.
 * The 5/3 path is integer (bit-exact); the 9/7 path is fixed point with
 * GJ_J2K_FRAC_BITS() fractional bits and 24-bit constants: the same on every device.
 * gj_j2k_idwt_lines also reads and writes 16-bit coefficients (j2k_coef.h): it
 * lifts in 32 bits, the 9/7 path's values shifted up by the job's `shift` on the
 * way in and rounded back on the way out (the two-buffer kernels stay 32-bit).
 */
#ifndef GJ_KERNELS_J2K_DWT_H
#define GJ_KERNELS_J2K_DWT_H

#include "common.h"
#include "j2k_params.h"
#include "j2k_coef.h"

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

/* Sample i of a line of n as symmetric extension sees it (F.3.7, period 2n - 2). */
GJ_FUNC gj_i32 gj_j2k_mirror(gj_i32 i, gj_i32 n)
{
    if (i < 0)
        i = -i;
    if (i >= n)
        i = 2 * (n - 1) - i;
    return i;
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

/* A sample's value after the interleave: the 9/7 scaling, or F.3.7's rule for a line of one. */
GJ_FUNC gj_i32 gj_j2k_interleaved_value(gj_i32 v, gj_u32 high, gj_i32 n, gj_u32 irreversible)
{
    if (n == 1) {
        /* F.3.7: a lone sample at an odd coordinate is halved (C division, as OpenJPEG). */
        if (high)
            v = irreversible ? (v < 0 ? -((-v + 1) >> 1) : (v + 1) >> 1) : v / 2;
    } else if (irreversible) {
        v = gj_j2k_fix_mul(v, high ? GJ_J2K_97_INV_K : GJ_J2K_97_K);
    }
    return v;
}

/* Lifting step `lift` on sample x between its neighbours a and b. */
GJ_FUNC gj_i32 gj_j2k_lifted(gj_u32 lift, gj_i32 x, gj_i32 a, gj_i32 b)
{
    switch (lift) {
    case GJ_J2K_LIFT_53_EVEN: return x - (gj_i32)(((gj_i64)a + b + 2) >> 2);
    case GJ_J2K_LIFT_53_ODD:  return x + (gj_i32)(((gj_i64)a + b) >> 1);
    case GJ_J2K_LIFT_97_DELTA: return x - gj_j2k_fix_mul((gj_i64)a + b, GJ_J2K_97_DELTA);
    case GJ_J2K_LIFT_97_GAMMA: return x - gj_j2k_fix_mul((gj_i64)a + b, GJ_J2K_97_GAMMA);
    case GJ_J2K_LIFT_97_BETA:  return x - gj_j2k_fix_mul((gj_i64)a + b, GJ_J2K_97_BETA);
    default:                   return x - gj_j2k_fix_mul((gj_i64)a + b, GJ_J2K_97_ALPHA);
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
 * One work-group per `lines` lines of the jobs [first, first + count): the lines
 * are read in sub-band order into local memory (sample i of line c at
 * i * lines + c, so that neighbouring lanes take neighbouring columns), lifted
 * there (every lane a few samples, a barrier between steps) and written back over
 * themselves in sample order.
 */
GJ_KERNEL gj_j2k_idwt_lines(GJ_GLOBAL const gj_j2k_dwt_job *jobs, gj_u32 first, gj_u32 count,
                            gj_u32 irreversible, GJ_GLOBAL gj_i32 *buf, gj_u32 wide)
{
    GJ_LOCAL_DECL gj_i32 line[GJ_J2K_DWT_LINE];
    gj_u32 g = gj_group_id(), lid = gj_local_id(), size = gj_group_size(), start, step, across, lines, total;
    gj_u32 lift_first = irreversible ? GJ_J2K_LIFT_97_DELTA : GJ_J2K_LIFT_53_EVEN;
    gj_u32 lift_last = irreversible ? GJ_J2K_LIFT_97_ALPHA : GJ_J2K_LIFT_53_ODD;
    GJ_GLOBAL const gj_j2k_dwt_job *j;
    gj_i32 n, shift;

    jobs += first;
    j = &jobs[gj_j2k_find_job((GJ_GLOBAL const gj_u32 *)jobs + 1, sizeof(gj_j2k_dwt_job) / 4, count, g)];
    n = (gj_i32)(j->vertical ? j->height : j->width);
    step = j->vertical ? j->stride : 1u;
    across = (g - j->group_first) * j->lines;    /* the first line's index across the direction */
    lines = gj_min(j->lines, (j->vertical ? j->width : j->height) - across);
    start = j->offset + (j->vertical ? across : across * j->stride);
    total = (gj_u32)n * lines;
    shift = (gj_i32)j->shift;
    if (total > GJ_J2K_DWT_LINE)
        return;     /* the host takes the two-buffer kernels for such lines */
    for (gj_u32 k = lid; k < total; k += size) {
        gj_i32 i = (gj_i32)(k / lines);
        gj_u32 c = k % lines, high = (gj_u32)(i + (gj_i32)j->parity) & 1u;
        gj_u32 from = (gj_u32)gj_j2k_subband_index(i, j->parity, j->low_count, high);

        gj_i32 v = gj_j2k_coef_load(buf, start + c * (j->vertical ? 1u : j->stride) + from * step, wide);

        line[k] = gj_j2k_interleaved_value((gj_i32)((gj_u32)v << shift), high, n, irreversible);
    }
    gj_barrier();
    for (gj_u32 lift = lift_first; n > 1 && lift <= lift_last; lift++) {
        for (gj_u32 k = lid; k < total; k += size) {
            gj_i32 i = (gj_i32)(k / lines);
            gj_u32 c = k % lines;

            if (((gj_u32)(i + (gj_i32)j->parity) & 1u) == (lift & 1u))
                line[k] = gj_j2k_lifted(lift, line[k], line[(gj_u32)gj_j2k_mirror(i - 1, n) * lines + c],
                                        line[(gj_u32)gj_j2k_mirror(i + 1, n) * lines + c]);
        }
        gj_barrier();
    }
    for (gj_u32 k = lid; k < total; k += size) {
        gj_i32 v = shift ? (gj_i32)(((gj_i64)line[k] + ((gj_i64)1 << (shift - 1))) >> shift) : line[k];

        gj_j2k_coef_store(buf, start + (k % lines) * (j->vertical ? 1u : j->stride) + (k / lines) * step, v, wide);
    }
}

#endif /* GJ_KERNELS_J2K_DWT_H */
