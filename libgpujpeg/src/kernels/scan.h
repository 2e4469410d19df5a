/*
 * Segmented exclusive prefix sums over records of GJ_SCAN_LANES i32 lanes, in
 * place (the JPEG decoder keeps one array of them, not two): 1 << shift records
 * per chunk (the parts of a chunk, jpeg_huffman_sync.h). A segment is a run of
 * chunks with the same seg_of[] value; sums restart at every segment. One
 * kernel: a scan per work-group, and the carries across groups by the last
 * work-group to finish; the reader adds a record's carry (gj_seg_scan_carry_of()).
 * A kernel each for the carries and their addition cost an HD picture two
 * launches more on its chain (H200, doc/benchmarks.md).
 */
#ifndef GJ_KERNELS_SCAN_H
#define GJ_KERNELS_SCAN_H

#include "common.h"

#define GJ_SCAN_GROUP 256
#define GJ_SCAN_LANES 5

/* Whether record i begins a segment: the first record of the segment's first chunk. */
GJ_FUNC gj_u32 gj_scan_is_head(GJ_GLOBAL const gj_u32 *seg_of, gj_u32 i, gj_u32 shift)
{
    gj_u32 c = i >> shift;

    return (i & ((1u << shift) - 1u)) == 0 && (c == 0 || seg_of[c] != seg_of[c - 1]);
}

/*
 * In-place segmented inclusive scan of the work-group's values (Hillis-Steele):
 * (fa, va) + (fb, vb) = (fa | fb, fb ? vb : va + vb). Afterwards flag[t] tells
 * whether a head lies at or before t. Starts and ends with a barrier.
 */
GJ_FUNC void gj_seg_scan_local(GJ_LOCAL gj_i32 (*val)[GJ_SCAN_GROUP], GJ_LOCAL gj_u32 *flag, gj_u32 t)
{
    gj_u32 d, l;

    gj_barrier();
    for (d = 1; d < GJ_SCAN_GROUP; d <<= 1) {
        gj_i32 add[GJ_SCAN_LANES];
        gj_u32 f = flag[t], take = t >= d && !f;
        gj_u32 fprev = t >= d ? flag[t - d] : 0;
        for (l = 0; l < GJ_SCAN_LANES; l++)
            add[l] = take ? val[l][t - d] : 0;
        gj_barrier();
        for (l = 0; l < GJ_SCAN_LANES; l++)
            val[l][t] += add[l];
        flag[t] = f | fprev;
        gj_barrier();
    }
}

/*
 * carry[g]: what the segment open at group g's start had summed before it, for
 * groups 0 .. groups - 1 (0: nothing to do, the same for every thread). One
 * work-group of GJ_SCAN_GROUP threads walks the group totals a tile at a time.
 */
GJ_FUNC void gj_seg_scan_carries_of(GJ_GLOBAL const gj_i32 *aggr, GJ_GLOBAL const gj_u32 *aggr_head, gj_u32 groups,
                                    GJ_GLOBAL gj_i32 *carry, GJ_LOCAL gj_i32 (*val)[GJ_SCAN_GROUP],
                                    GJ_LOCAL gj_u32 *flag, GJ_LOCAL gj_i32 *run)
{
    gj_u32 t = gj_local_id(), base, l;

    if (t < GJ_SCAN_LANES) {
        run[t] = 0;
        if (groups)
            carry[t] = 0;
    }
    for (base = 0; base < groups; base += GJ_SCAN_GROUP) {
        gj_u32 i = base + t;
        for (l = 0; l < GJ_SCAN_LANES; l++)
            val[l][t] = i < groups ? aggr[(gj_u64)i * GJ_SCAN_LANES + l] : 0;
        flag[t] = i < groups ? aggr_head[i] : 0;
        gj_seg_scan_local(val, flag, t);
        /* Totals up to group i, with what the tiles before carried in. */
        for (l = 0; l < GJ_SCAN_LANES; l++)
            val[l][t] += flag[t] ? 0 : run[l];
        if (i + 1 < groups)
            for (l = 0; l < GJ_SCAN_LANES; l++)
                carry[(gj_u64)(i + 1) * GJ_SCAN_LANES + l] = val[l][t];
        gj_barrier();
        if (t < GJ_SCAN_LANES)
            run[t] = val[t][GJ_SCAN_GROUP - 1];
        gj_barrier();
    }
}

/*
 * Group-local segmented exclusive scan of `data` in place (each thread reads its own
 * record before it writes it); group totals into aggr; the last work-group to
 * finish (ticket counters[ticket]) turns them into the carries.
 */
GJ_KERNEL gj_seg_scan_groups(GJ_GLOBAL gj_i32 *data, GJ_GLOBAL const gj_u32 *seg_of, gj_u32 shift, gj_u32 n,
                             GJ_GLOBAL gj_i32 *aggr, GJ_GLOBAL gj_u32 *aggr_head, GJ_GLOBAL gj_u32 *counters,
                             gj_u32 ticket, GJ_GLOBAL gj_i32 *carry)
{
    GJ_LOCAL_DECL gj_i32 val[GJ_SCAN_LANES][GJ_SCAN_GROUP];
    GJ_LOCAL_DECL gj_u32 flag[GJ_SCAN_GROUP];
    GJ_LOCAL_DECL gj_i32 run[GJ_SCAN_LANES];
    GJ_LOCAL_DECL gj_u32 l_last;
    gj_u32 t = gj_local_id(), g = gj_group_id();
    gj_u32 i = g * GJ_SCAN_GROUP + t, l;
    gj_i32 mine[GJ_SCAN_LANES];
    gj_u32 head = i < n ? gj_scan_is_head(seg_of, i, shift) : 0;

    for (l = 0; l < GJ_SCAN_LANES; l++) {
        mine[l] = i < n ? data[(gj_u64)i * GJ_SCAN_LANES + l] : 0;
        val[l][t] = mine[l];
    }
    flag[t] = head;
    gj_seg_scan_local(val, flag, t);
    if (i < n)
        for (l = 0; l < GJ_SCAN_LANES; l++)
            data[(gj_u64)i * GJ_SCAN_LANES + l] = head ? 0 : val[l][t] - mine[l];
    if (t == GJ_SCAN_GROUP - 1) {
        for (l = 0; l < GJ_SCAN_LANES; l++)
            aggr[(gj_u64)g * GJ_SCAN_LANES + l] = val[l][t];
        aggr_head[g] = flag[t];
    }
    /* No return before the barriers: PoCL's work-group compiler breaks on one here. */
    gj_seg_scan_carries_of(aggr, aggr_head, gj_last_group(&counters[ticket], &l_last) ? gj_num_groups() : 0,
                           carry, val, flag, run);
}

/* Whether record i gets its group's carry (carry[i / GJ_SCAN_GROUP]): it precedes
 * the group's first head. */
GJ_FUNC gj_u32 gj_seg_scan_carry_of(GJ_GLOBAL const gj_u32 *seg_of, gj_u32 i, gj_u32 shift)
{
    gj_u32 g = i / GJ_SCAN_GROUP, first = g * GJ_SCAN_GROUP;

    return g != 0 && seg_of[i >> shift] == seg_of[first >> shift] && !gj_scan_is_head(seg_of, first, shift);
}

#endif /* GJ_KERNELS_SCAN_H */
