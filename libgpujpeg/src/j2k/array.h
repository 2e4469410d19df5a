/* Growable arrays for the parser's tables. */
#ifndef GJ_J2K_ARRAY_H
#define GJ_J2K_ARRAY_H

#include <stddef.h>
#include <stdlib.h>

#include "gpujpeg/common.h"

/*
 * Makes room for `need` elements of `elem` bytes in *p (capacity *cap): at least
 * `first` when it has none, else at least double what it has.
 */
static inline int j2k_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
    size_t n = *cap ? 2 * *cap : first;
    void *q;

    if (need <= *cap)
        return 0;
    if (n < need)
        n = need;
    if (!(q = realloc(*p, n * elem)))
        return GJ_ERROR_NOMEM;
    *p = q;
    *cap = n;
    return 0;
}

/* Room for `extra` more elements after the `count` in use of array `arr` with capacity `cap`. */
#define J2K_GROW(arr, count, cap, extra) \
    j2k_grow((void **)&(arr), &(cap), (size_t)(count) + (extra), sizeof(*(arr)), 64)

/*
 * Room for `need` elements of `arr`, no more at first: a tile's state takes what
 * its tile needs (a picture of 65,535 small tiles keeps a state for each).
 */
#define J2K_RESERVE(arr, cap, need) j2k_grow((void **)&(arr), &(cap), (size_t)(need), sizeof(*(arr)), 0)

#endif /* GJ_J2K_ARRAY_H */
