/*
 * The split search of the `high` colour fit (dxt_color_fit.h's cluster fit):
 * with the block's pixels sorted along the principal axis, a split (i, j, k),
 * 0 <= i <= j <= k <= 16, gives the first i pixels weight 3 (of 3) on
 * endpoint 0, the next ones 2, then 1, the rest 0. With centred coordinates
 * y = 16 x - sum, the least-squares error of a split is const - 144 |Q|^2 / det,
 * Q = P[i] + P[j] + P[k] (P: prefix sums of y in sorted order) and det the
 * determinant of the weights' normal equations, so the best splits are those
 * of the largest score |Q|^2 / det.
 *
 * The result is the GJ_DXT_CLUSTER_KEEP best of the 969 splits, best first,
 * equal scores in the order (i, j, k) of the search: scores are compared
 * exactly (cross-multiplied in 64-bit integers). Kept in a sorted list while
 * scanning every split, that took one insertion per split that entered the
 * list, about 50 per block at random times: on a GPU the 32 blocks of a warp
 * then ran an insertion (about 130 instructions) at nearly every split, most
 * of the `high` encoders' time. Here instead, without a branch on the data:
 *
 *   1. one pass scores every split in float and keeps the two best values of
 *      each row (i, j); the eighth best of those, lowered by far more than
 *      float rounding can move it (2^-12), is a bound no higher than the
 *      exact eighth best score (it is the score of eight distinct splits);
 *   2. a second pass in float lists every split that may reach the bound, in
 *      search order (8 to 10 on photographs, rarely more than 20);
 *   3. only those are scored exactly and offered to the sorted list.
 *
 * Each split that belongs in the result reaches the bound, so the list is the
 * one the exact search over every split gives, on every backend whatever its
 * float rounding (CUDA contracts to FMA, OpenCL's division may be 2.5 ulp off):
 * float only picks which splits are scored exactly. A block with more than
 * GJ_DXT_CLUSTER_LIST candidates (many equal scores; 3 in 10000 photo blocks)
 * takes the exact search over every split.
 */
#ifndef GJ_KERNELS_DXT_CLUSTER_SPLITS_H
#define GJ_KERNELS_DXT_CLUSTER_SPLITS_H

#include "common.h"

/* Splits kept from the search: rounding the endpoints changes their order. */
#define GJ_DXT_CLUSTER_KEEP 8
/* Splits step 2 may list (a power of two); more take the exact search over all. */
#define GJ_DXT_CLUSTER_LIST 32
/* Values kept per row in step 1: with one, 2% of photo blocks overflow the list; with three,
 * none, at two more instructions per split. */
#define GJ_DXT_CLUSTER_ROW 2

/* The kept splits, best first: |Q|^2, det and i | j << 8 | k << 16; q2 < 0 where unused. */
typedef struct gj_dxt_cluster_keep {
    gj_i64 q2[GJ_DXT_CLUSTER_KEEP];
    gj_i32 det[GJ_DXT_CLUSTER_KEEP];
    gj_i32 split[GJ_DXT_CLUSTER_KEEP];
} gj_dxt_cluster_keep;

/* det of split (i, j, k): sum a^2 sum b^2 - (sum ab)^2 for weights a = 3..0 of 3, b = 3 - a (< 2^15). */
GJ_FUNC gj_i32 gj_dxt_cluster_det(gj_i32 i, gj_i32 j, gj_i32 k)
{
    gj_i32 a2 = 5 * i + 3 * j + k, b2 = 144 - i - 3 * j - 5 * k, ab = 2 * (k - i);

    return a2 * b2 - ab * ab;
}

/*
 * The splits (i, j, k) of one row (i, j) in search order: |Q|^2 in float
 * (q: P[i] + P[j]), and det, which is quadratic in k: stepped by its first
 * difference, whose own difference is -18 (exact in float: integers below 2^24).
 */
#define GJ_DXT_CLUSTER_ROW_LOOP(pre, i, j, k, qq, det, body)                                            \
    {                                                                                               \
        float q0_ = pre[4 * i] + pre[4 * j], q1_ = pre[4 * i + 1] + pre[4 * j + 1];                 \
        float q2_ = pre[4 * i + 2] + pre[4 * j + 2];                                                \
        float det = (float)gj_dxt_cluster_det(i, j, j);                                             \
        float step_ = (float)(gj_dxt_cluster_det(i, j, j + 1) - gj_dxt_cluster_det(i, j, j));       \
        for (k = j; k <= 16; k++) {                                                                 \
            float r0_ = q0_ + pre[4 * k], r1_ = q1_ + pre[4 * k + 1], r2_ = q2_ + pre[4 * k + 2];   \
            float qq = r0_ * r0_ + r1_ * r1_ + r2_ * r2_;                                           \
            body                                                                                    \
            det += step_;                                                                           \
            step_ -= 18.0f;                                                                         \
        }                                                                                           \
    }

/*
 * Offers split (i, j, k) to the sorted list, exactly: it enters if its score
 * is above the last one's and moves up past those below it, so equal scores
 * stay in the order they were offered. The prefix sums are integers below 2^17,
 * exact in float.
 */
GJ_FUNC void gj_dxt_cluster_offer(const float *pre, int i, int j, int k, gj_dxt_cluster_keep *keep)
{
    const int last = GJ_DXT_CLUSTER_KEEP - 1;
    gj_i32 det = gj_dxt_cluster_det(i, j, k), q[3];
    gj_i64 qq = 0;
    int ch, m;

    GJ_UNROLL
    for (ch = 0; ch < 3; ch++) {
        q[ch] = (gj_i32)pre[4 * i + ch] + (gj_i32)pre[4 * j + ch] + (gj_i32)pre[4 * k + ch];
        qq += (gj_i64)q[ch] * q[ch];
    }
    /* det < 2^15 and qq < 2^36: the products fit in 64 bits. */
    if (det <= 0 || qq * keep->det[last] <= keep->q2[last] * det)
        return;
    keep->q2[last] = qq;
    keep->det[last] = det;
    keep->split[last] = i | j << 8 | k << 16;
    GJ_UNROLL
    for (m = last; m > 0; m--) {
        if (keep->q2[m] * keep->det[m - 1] > keep->q2[m - 1] * keep->det[m]) {
            gj_i64 tq = keep->q2[m];
            gj_i32 td = keep->det[m], ts = keep->split[m];
            keep->q2[m] = keep->q2[m - 1];
            keep->det[m] = keep->det[m - 1];
            keep->split[m] = keep->split[m - 1];
            keep->q2[m - 1] = tq;
            keep->det[m - 1] = td;
            keep->split[m - 1] = ts;
        }
    }
}

/* Inserts value s into top[0..n-1], sorted largest first (values only: a minimum and a maximum per entry). */
GJ_FUNC void gj_dxt_cluster_top(float *top, int n, float s)
{
    int m;

    GJ_UNROLL
    for (m = 0; m < n; m++) {
        float hi = gj_fmax(top[m], s);
        s = gj_fmin(top[m], s);
        top[m] = hi;
    }
}

/* Step 1: the bound, in float, for comparing |Q|^2 against bound * det. */
GJ_FUNC float gj_dxt_cluster_bound(const float *pre)
{
    float top[GJ_DXT_CLUSTER_KEEP];
    int i, j, k, m;

    GJ_UNROLL
    for (m = 0; m < GJ_DXT_CLUSTER_KEEP; m++)
        top[m] = -1.0f;
    for (i = 0; i <= 16; i++) {
        for (j = i; j <= 16; j++) {
            float row[GJ_DXT_CLUSTER_ROW];
            GJ_UNROLL
            for (m = 0; m < GJ_DXT_CLUSTER_ROW; m++)
                row[m] = -1.0f;
            GJ_DXT_CLUSTER_ROW_LOOP(pre, i, j, k, qq, det, {
                gj_dxt_cluster_top(row, GJ_DXT_CLUSTER_ROW, det > 0.0f ? qq * gj_frcp_approx(det) : -1.0f);
            })
            GJ_UNROLL
            for (m = 0; m < GJ_DXT_CLUSTER_ROW; m++)
                gj_dxt_cluster_top(top, GJ_DXT_CLUSTER_KEEP, row[m]);
        }
    }
    /* Rounding moves a score by a few units of 2^-24: 2^-12 lower stays below the
     * exact eighth best. With fewer than eight splits, -1 lists every split. */
    return top[GJ_DXT_CLUSTER_KEEP - 1] * (1.0f - 1.0f / 4096.0f);
}

/* The kept splits of a block; pre: its prefix sums P, channel c of P[p] at 4 p + c (p = 0 .. 16). */
GJ_FUNC void gj_dxt_cluster_splits(const float *pre, gj_dxt_cluster_keep *keep)
{
    gj_u32 list[GJ_DXT_CLUSTER_LIST], n = 0, m;
    float bound = gj_dxt_cluster_bound(pre);
    int i, j, k;

    GJ_UNROLL
    for (m = 0; m < GJ_DXT_CLUSTER_KEEP; m++) {
        keep->q2[m] = -1;
        keep->det[m] = 1;
        keep->split[m] = 0;
    }
    /* Step 2 (the bound at 2^-12 below the exact one also covers this pass's rounding). */
    for (i = 0; i <= 16; i++) {
        for (j = i; j <= 16; j++) {
            GJ_DXT_CLUSTER_ROW_LOOP(pre, i, j, k, qq, det, {
                if (det > 0.0f && qq >= bound * det) {
                    list[n & (GJ_DXT_CLUSTER_LIST - 1)] = (gj_u32)(i | j << 8 | k << 16);
                    n++;
                }
            })
        }
    }
    if (n > GJ_DXT_CLUSTER_LIST) {
        for (i = 0; i <= 16; i++)
            for (j = i; j <= 16; j++)
                for (k = j; k <= 16; k++)
                    gj_dxt_cluster_offer(pre, i, j, k, keep);
        return;
    }
    for (m = 0; m < n; m++)
        gj_dxt_cluster_offer(pre, (int)(list[m] & 255u), (int)(list[m] >> 8 & 255u), (int)(list[m] >> 16), keep);
}

#endif /* GJ_KERNELS_DXT_CLUSTER_SPLITS_H */
