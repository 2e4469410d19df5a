/* Growable arrays for the parser's tables. */
#ifndef GJ_J2K_ARRAY_H
#define GJ_J2K_ARRAY_H

#include <stddef.h>
#include <stdlib.h>

#include "gpujpeg/common.h"

/* Makes room for `need` elements of `elem` bytes in *p (capacity *cap, doubled as needed). */
static inline int j2k_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 64;
    void *q;

    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    if (!(q = realloc(*p, n * elem)))
        return GJ_ERROR_NOMEM;
    *p = q;
    *cap = n;
    return 0;
}

/* Room for `extra` more elements after the `count` in use of array `arr` with capacity `cap`. */
#define J2K_GROW(arr, count, cap, extra) j2k_grow((void **)&(arr), &(cap), (size_t)(count) + (extra), sizeof(*(arr)))

#endif /* GJ_J2K_ARRAY_H */
