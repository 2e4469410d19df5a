/*
 * The split search of the `high` colour fit (dxt_color_fit.h's cluster fit),
 * a local search. With the block's pixels sorted along the principal axis, a
 * split (i, j, k), 0 <= i <= j <= k <= 16, gives the first i pixels weight 3
 * (of 3) on endpoint 0, the next ones 2, then 1, the rest 0; BC1's
 * three-colour mode has splits (i, j, 16): weights 2, 1, 0 (of 2). With centred
 * coordinates y = 16 x - sum, the least-squares error of a split is
 * const - den^2 |Q|^2 / (16 det), Q = P[i] + P[j] + P[k] (P: prefix sums of y
 * in sorted order; P[16] = 0) and det the determinant of the weights' normal
 * equations: each split's score |Q|^2 / det is O(1) from P.
 *
 * The exhaustive search scored all 969 splits (about 58 thousand of the 81
 * thousand warp instructions of a block on the H200, with 168 registers). Here
 * instead, from the split the projections' thresholds give:
 *
 *   1. move to the best of the neighbouring splits (each boundary moved by
 *      1 to 3, or set to a neighbouring boundary or an end: an empty cluster,
 *      which the best split of a block often has), until none is better
 *      (GJ_DXT_SPLIT_STEPS at most); 90 % of photo blocks end on the best of
 *      all splits, the others on one whose score is within a few percent;
 *   2. over that split and its neighbours, the endpoints rounded to RGB565
 *      and the error of the split's weights with them (O(1) from P too): which
 *      split wins after rounding is what decides the quality, so the two best
 *      by that error are measured (dxt_color_fit.h). A split whose error before
 *      rounding is already above the second best after rounding cannot win and
 *      is skipped.
 *
 * Scores are compared exactly (cross-multiplied in 64-bit integers), ties go
 * to the first in the fixed order of the moves: the same blocks on every
 * backend.
 */
#ifndef GJ_KERNELS_DXT_CLUSTER_SPLITS_H
#define GJ_KERNELS_DXT_CLUSTER_SPLITS_H

#include "common.h"

/*
 * Steps of the local search at most. Photo blocks take 1 to 3 (1.9 on the 4K
 * photo), rarely up to 8, but a warp runs a step while any of its 32 blocks
 * moves: 3.9 a warp with 8 allowed. With 3 instead of 8, 614 of the photo's
 * 518400 BC1 blocks moved (607 of BC3's, none of YCoCg's), the test photos'
 * PSNR by at most 0.002 dB, and BC1/BC3/YCoCg high ran 9/10/3 % faster (H200:
 * 12.2/14.2/12.7 Gpix/s; doc/benchmarks.md, fourteenth session).
 */
#define GJ_DXT_SPLIT_STEPS 3
/*
 * Steps of BC1's three-colour search at most. A warp runs a step while any of
 * its blocks moves (3.4 steps a warp on the 4K photo, 1.8 a block): with up to
 * 8 steps (main), the three-colour pass (search, split codes, measurement) was a
 * quarter of BC1's kernel (H200: 9.8 Gpix/s, 12.7 without the pass). One step
 * moved 197 of the photo's 518400 blocks and the test photos' PSNR by at most
 * 0.001 dB, for 11.0 Gpix/s (two steps: 10.5; doc/benchmarks.md, fourteenth
 * session).
 */
#define GJ_DXT_SPLIT_STEPS_THREE 1
/* The moves of a step (gj_dxt_split_moves). */
#define GJ_DXT_SPLIT_MOVES 28

/*
 * The moves, one word each: for boundaries i, j, k (bytes 0, 1, 2) a source,
 * 0 (zero), 1 (i), 2 (j), 3 (k) or 4 (16), as 5 times itself in bits 0-4 (the
 * shift of its field in gj_dxt_split_move's source word) and a step of -3..3
 * plus 3 in bits 5-7. First every boundary moved by -3..3 (18 moves), then the
 * ten that empty a cluster or shift the clusters by one: (0, j, k), (j, j, k),
 * (i, i, k), (i, k, k), (i, j, j), (i, j, 16), (0, i, j), (j, k, 16),
 * (0, i, k), (i, k, 16).
 */
#define GJ_DXT_MOVE_SRC(i, j, k) (5 * ((i) | (j) << 8 | (k) << 16) | (3 << 5) * 0x10101)
#define GJ_DXT_MOVE_STEP(b, d) ((gj_u32)(d) << (8 * (b) + 5))
GJ_CONST_DATA gj_u32 gj_dxt_split_moves[GJ_DXT_SPLIT_MOVES] = {
    GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(0, 3), GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(0, 2),
    GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(0, 1), GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(0, 1),
    GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(0, 2), GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(0, 3),
    GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(1, 3), GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(1, 2),
    GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(1, 1), GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(1, 1),
    GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(1, 2), GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(1, 3),
    GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(2, 3), GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(2, 2),
    GJ_DXT_MOVE_SRC(1, 2, 3) - GJ_DXT_MOVE_STEP(2, 1), GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(2, 1),
    GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(2, 2), GJ_DXT_MOVE_SRC(1, 2, 3) + GJ_DXT_MOVE_STEP(2, 3),
    GJ_DXT_MOVE_SRC(0, 2, 3), GJ_DXT_MOVE_SRC(2, 2, 3), GJ_DXT_MOVE_SRC(1, 1, 3), GJ_DXT_MOVE_SRC(1, 3, 3),
    GJ_DXT_MOVE_SRC(1, 2, 2), GJ_DXT_MOVE_SRC(1, 2, 4), GJ_DXT_MOVE_SRC(0, 1, 2), GJ_DXT_MOVE_SRC(2, 3, 4),
    GJ_DXT_MOVE_SRC(0, 1, 3), GJ_DXT_MOVE_SRC(1, 3, 4),
};

/* A split as i | j << 8 | k << 16. */
#define GJ_DXT_SPLIT(i, j, k) ((gj_u32)(i) | (gj_u32)(j) << 8 | (gj_u32)(k) << 16)
#define GJ_DXT_SPLIT_I(s) ((gj_i32)((s) & 255u))
#define GJ_DXT_SPLIT_J(s) ((gj_i32)((s) >> 8 & 255u))
#define GJ_DXT_SPLIT_K(s) ((gj_i32)((s) >> 16))

/*
 * Split s moved by move word mv; 0xffffffff where the boundaries leave their
 * order or the range. The sources 0, i, j, k, 16 are 5-bit fields of one word,
 * so that a boundary's source is one shift by the move's own field (no selects).
 */
GJ_FUNC gj_u32 gj_dxt_split_move(gj_u32 s, gj_u32 mv)
{
    gj_u32 src = (s & 255u) << 5 | (s >> 8 & 255u) << 10 | (s >> 16) << 15 | 16u << 20;
    gj_i32 b[3];
    int n;

    GJ_UNROLL
    for (n = 0; n < 3; n++) {
        gj_u32 f = mv >> (8 * n) & 255u;
        b[n] = (gj_i32)(src >> (f & 31u) & 31u) + (gj_i32)(f >> 5) - 3;
    }
    if (b[0] < 0 || b[0] > b[1] || b[1] > b[2] || b[2] > 16)
        return 0xffffffffu;
    return GJ_DXT_SPLIT(b[0], b[1], b[2]);
}

/*
 * The weights' sums of split s: sum a, sum a^2, sum b^2, sum ab (b = den - a) and
 * det = sum a^2 sum b^2 - (sum ab)^2 (< 2^15). Three colours (k = 16): a = 2, 1, 0.
 */
typedef struct gj_dxt_split_sums {
    gj_i32 sa, a2, b2, ab, det;
} gj_dxt_split_sums;

GJ_FUNC gj_dxt_split_sums gj_dxt_split_weights(gj_u32 s, gj_u32 three)
{
    gj_i32 i = GJ_DXT_SPLIT_I(s), j = GJ_DXT_SPLIT_J(s), k = GJ_DXT_SPLIT_K(s);
    gj_dxt_split_sums w;

    if (three) {
        w.sa = i + j;
        w.a2 = 3 * i + j;
        w.b2 = 64 - i - 3 * j;
        w.ab = j - i;
    } else {
        w.sa = i + j + k;
        w.a2 = 5 * i + 3 * j + k;
        w.b2 = 144 - i - 3 * j - 5 * k;
        w.ab = 2 * (k - i);
    }
    w.det = w.a2 * w.b2 - w.ab * w.ab;
    return w;
}

/* Q of split s: channel c of P[p] is pre[4 p + c] (|Q| < 3 * 8 * 4080 < 2^17). */
GJ_FUNC void gj_dxt_split_q(const gj_i32 *pre, gj_u32 s, gj_i32 *q)
{
    int c;

    GJ_UNROLL
    for (c = 0; c < 3; c++)
        q[c] = pre[4 * GJ_DXT_SPLIT_I(s) + c] + pre[4 * GJ_DXT_SPLIT_J(s) + c] + pre[4 * GJ_DXT_SPLIT_K(s) + c];
}

GJ_FUNC gj_i64 gj_dxt_split_q2(const gj_i32 *q)
{
    return (gj_i64)q[0] * q[0] + (gj_i64)q[1] * q[1] + (gj_i64)q[2] * q[2];
}

/* The best split of the local search so far: its |Q|^2, det and the split. */
typedef struct gj_dxt_split_best {
    gj_i64 q2;
    gj_i32 det;
    gj_u32 s;
} gj_dxt_split_best;

/* Split t, with weight sums a2, b2, ab and Q q, replaces the best where its score is higher. */
GJ_FUNC void gj_dxt_split_try(gj_dxt_split_best *best, gj_u32 t, gj_i32 a2, gj_i32 b2, gj_i32 ab, const gj_i32 *q)
{
    gj_i32 det = a2 * b2 - ab * ab;
    gj_i64 q2 = gj_dxt_split_q2(q);

    /* det < 2^15 and q2 < 2^36: the products fit in 64 bits */
    if (det > 0 && q2 * best->det > best->q2 * det) {
        best->q2 = q2;
        best->det = det;
        best->s = t;
    }
}

/* The first moves of gj_dxt_split_moves: each boundary by -3..3 (6 per boundary). */
#define GJ_DXT_SPLIT_SHIFTS 18
/*
 * The moves the three-colour search skips: from (i, j, 16), (i, j, j) and
 * (0, i, j) leave the three-colour splits unless j = 16, where they repeat
 * (i, k, k) and the later (0, i, k); (i, j, 16) is the split itself and
 * (i, k, 16) repeats (i, k, k). The others keep k = 16, and the distinct splits
 * come in the same order: the same result, for 6 of the 10 moves.
 */
#define GJ_DXT_SPLIT_NOT_THREE (1u << 22 | 1u << 23 | 1u << 24 | 1u << 27)

/*
 * The local search (step 1) from split s: the best split found, as i | j << 8 |
 * k << 16. three: the three-colour splits (k stays 16).
 *
 * A step's moves in gj_dxt_split_moves' order. The first 18 move one boundary
 * by d: their Q is the step's less one prefix sum plus another and their
 * weight sums the step's plus d times the boundary's unit change (both linear
 * in the boundaries): the same integers as from the split itself, for a third
 * of a move's instructions (the moves were half of the BC1 high kernel's). All
 * loops rolled: unrolled, the moves ran faster per block but the kernels
 * slower (their warps wait for instructions; doc/benchmarks.md, thirteenth
 * session).
 */
GJ_FUNC gj_u32 gj_dxt_split_search(const gj_i32 *pre, gj_u32 s, gj_u32 three)
{
    gj_dxt_split_best best;
    gj_i32 q[3];
    int step, b, m, n, c;

    gj_dxt_split_q(pre, s, q);
    best.q2 = gj_dxt_split_q2(q);
    best.det = gj_dxt_split_weights(s, three).det;
    best.s = s;
    if (best.det <= 0) {
        best.q2 = -1;   /* every pixel on one weight: any split with det > 0 is better */
        best.det = 1;
    }
    GJ_NO_UNROLL
    for (step = 0; step < (three ? GJ_DXT_SPLIT_STEPS_THREE : GJ_DXT_SPLIT_STEPS); step++) {
        gj_u32 from = best.s, below = from << 8, above = from >> 8 | 16u << 16;
        gj_dxt_split_sums w = gj_dxt_split_weights(from, three);

        /* boundary b moves between its neighbours (bytes b of below and above); three
         * colours keep k = 16 */
        GJ_NO_UNROLL
        for (b = 0; b < (three ? 2 : 3); b++) {
            gj_i32 v = (gj_i32)(from >> (8 * b) & 255u), lo = (gj_i32)(below >> (8 * b) & 255u);
            gj_i32 hi = (gj_i32)(above >> (8 * b) & 255u), qf[3];
            /* per unit of boundary b (gj_dxt_split_weights): sum a^2, sum b^2, sum ab */
            gj_i32 da2 = (three ? 3 : 5) - 2 * b, db2 = -1 - 2 * b, dab = 2 * b - (three ? 1 : 2);

            gj_dxt_split_q(pre, from, qf);
            GJ_UNROLL
            for (c = 0; c < 3; c++)
                qf[c] -= pre[4 * v + c];
            GJ_NO_UNROLL
            for (m = 0; m < 6; m++) {
                gj_i32 d = m - 3 + (m >= 3), x = v + d;
                if (x < lo || x > hi)
                    continue;
                GJ_UNROLL
                for (c = 0; c < 3; c++)
                    q[c] = qf[c] + pre[4 * x + c];
                gj_dxt_split_try(&best, from + ((gj_u32)d << (8 * b)), w.a2 + d * da2, w.b2 + d * db2,
                                 w.ab + d * dab, q);
            }
        }
        GJ_NO_UNROLL
        for (n = GJ_DXT_SPLIT_SHIFTS; n < GJ_DXT_SPLIT_MOVES; n++) {
            gj_u32 t;
            gj_dxt_split_sums wt;
            if (three && (GJ_DXT_SPLIT_NOT_THREE >> n & 1u))
                continue;
            t = gj_dxt_split_move(from, gj_dxt_split_moves[n]);
            if (t == 0xffffffffu)
                continue;
            wt = gj_dxt_split_weights(t, three);
            gj_dxt_split_q(pre, t, q);
            gj_dxt_split_try(&best, t, wt.a2, wt.b2, wt.ab, q);
        }
        if (best.s == from)
            break;
    }
    return best.s;
}

#endif /* GJ_KERNELS_DXT_CLUSTER_SPLITS_H */
