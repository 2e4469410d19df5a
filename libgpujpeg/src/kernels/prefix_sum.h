/*
 * Exclusive prefix sums of u64 values: out[i] = in[0] + ... + in[i - 1] for
 * i < n, and the total in out[n]. Three kernels: a scan inside each work-group,
 * the group totals scanned by one work-group, the carries added back.
 */
#ifndef GJ_KERNELS_PREFIX_SUM_H
#define GJ_KERNELS_PREFIX_SUM_H

#include "common.h"

#define GJ_PREFIX_GROUP 256

/* The kernels need local memory: host C includes this file for the constant only. */
#if defined(__CUDACC__) || defined(__OPENCL_VERSION__)

/* In-place inclusive scan of the group's values (Hillis-Steele). Starts and ends with a barrier. */
GJ_FUNC void gj_prefix_scan_local(GJ_LOCAL gj_u64 *val, gj_u32 t)
{
    gj_u32 d;

    gj_barrier();
    for (d = 1; d < GJ_PREFIX_GROUP; d <<= 1) {
        gj_u64 add = t >= d ? val[t - d] : 0;
        gj_barrier();
        val[t] += add;
        gj_barrier();
    }
}

/* Group-local exclusive scan of in[0..n) into out; each group's total into totals. */
GJ_KERNEL gj_prefix_sum_groups(GJ_GLOBAL const gj_u64 *in, gj_u32 n, GJ_GLOBAL gj_u64 *out,
                               GJ_GLOBAL gj_u64 *totals)
{
    GJ_LOCAL_DECL gj_u64 val[GJ_PREFIX_GROUP];
    gj_u32 t = gj_local_id(), i = gj_group_id() * GJ_PREFIX_GROUP + t;
    gj_u64 mine = i < n ? in[i] : 0;

    val[t] = mine;
    gj_prefix_scan_local(val, t);
    if (i < n)
        out[i] = val[t] - mine;
    if (t == GJ_PREFIX_GROUP - 1)
        totals[gj_group_id()] = val[t];
}

/* One work-group: totals[g] becomes the sum of the groups before g; out[n] the grand total. */
GJ_KERNEL gj_prefix_sum_totals(GJ_GLOBAL gj_u64 *totals, gj_u32 groups, GJ_GLOBAL gj_u64 *out, gj_u32 n)
{
    GJ_LOCAL_DECL gj_u64 val[GJ_PREFIX_GROUP];
    GJ_LOCAL_DECL gj_u64 run;
    gj_u32 t = gj_local_id(), base;

    if (t == 0)
        run = 0;
    for (base = 0; base < groups; base += GJ_PREFIX_GROUP) {
        gj_u32 i = base + t;
        gj_u64 mine = i < groups ? totals[i] : 0;
        val[t] = mine;
        gj_prefix_scan_local(val, t);
        if (i < groups)
            totals[i] = run + val[t] - mine;
        gj_barrier();
        if (t == 0)
            run += val[GJ_PREFIX_GROUP - 1];
        gj_barrier();
    }
    if (t == 0)
        out[n] = run;
}

GJ_KERNEL gj_prefix_sum_add(GJ_GLOBAL gj_u64 *out, gj_u32 n, GJ_GLOBAL const gj_u64 *totals)
{
    gj_u32 i = (gj_u32)gj_global_id();

    if (i < n && i >= GJ_PREFIX_GROUP)
        out[i] += totals[i / GJ_PREFIX_GROUP];
}

#endif /* GPU compilers */

#endif /* GJ_KERNELS_PREFIX_SUM_H */
