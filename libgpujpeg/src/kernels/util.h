/* Small generic kernels: buffer fills used by every pipeline. */
#ifndef GJ_KERNELS_UTIL_H
#define GJ_KERNELS_UTIL_H

#include "common.h"

/* dst[offset + i] = value for i < count (u32 elements). */
GJ_KERNEL gj_fill_u32(GJ_GLOBAL gj_u32 *dst, gj_u64 offset, gj_u32 value, gj_u64 count)
{
    gj_u64 i = gj_global_id();

    if (i < count)
        dst[offset + i] = value;
}

#endif /* GJ_KERNELS_UTIL_H */
