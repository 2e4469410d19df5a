/*
 * T1 of several pictures in one launch (decode_batch.c): their tables joined, so
 * that the longest code-blocks of every picture start first, side by side, and the
 * short ones fill the GPU around them. One picture's T1 leaves most of the GPU idle
 * while its few longest code-blocks finish; pictures launched one after another
 * each wait for theirs.
 */
#ifndef GJ_J2K_T1_MERGE_H
#define GJ_J2K_T1_MERGE_H

#include <stdint.h>

#include "j2k/layout.h"

/* One picture: its tables (T2 done) and where its coefficients start in the shared buffer, in bytes. */
typedef struct j2k_t1_part {
    const j2k_layout *layout;
    uint64_t coef_at;
} j2k_t1_part;

/*
 * Fills merged's code-blocks, segments and data runs (its memory kept for the next
 * call) from the parts', each code-block pointed at its picture's segments, data and
 * coefficients: first the *narrow code-blocks of pictures with 16-bit coefficients,
 * then those of pictures with 32-bit ones (a launch each), each most coding passes
 * first over every picture. The runs point into the parts' data, which must live
 * until the upload. GJ_ERROR_UNSUPPORTED when an offset would not fit the kernels'
 * 32 bits (coef_at must be a multiple of 4).
 */
int j2k_t1_merge(j2k_layout *merged, const j2k_t1_part *parts, int n, size_t *narrow);

#endif /* GJ_J2K_T1_MERGE_H */
