/*
 * T1 of several pictures in one launch (decode_batch.c): their tables joined, so
 * that the longest code-blocks of every picture start first, side by side, and the
 * short ones fill the GPU around them. One picture's T1 leaves most of the GPU idle
 * while its few longest code-blocks finish; pictures launched one after another
 * each wait for theirs.
 *
 * The join is written straight into a host copy of T1's input buffer (t1_queue.h's
 * layout: code-block table, segments, data), which one upload then copies: from
 * page-locked memory that upload does not hold the host. It runs in phases, so that
 * each picture's share of the work (its code-blocks, segments and data: megabytes
 * for a wave of 4K pictures) runs on its own thread:
 *   j2k_t1_merge_begin                the totals;
 *   j2k_t1_merge_count(m, k)          picture k's code-blocks by work (passes, then coded bytes);
 *   j2k_t1_merge_plan                 where each picture's code-blocks go, the buffer's size;
 *   j2k_t1_merge_fill(m, k, staging)  picture k's part of the buffer.
 * Code-blocks with nothing coded are left out of the table (most of a DCI 4K
 * picture's, 60 % of a 4K lossy one's): T1 would only write their zeros, which the
 * caller writes instead, over the coefficients of the pictures that have any
 * (j2k_t1_part.empty).
 */
#ifndef GJ_J2K_T1_MERGE_H
#define GJ_J2K_T1_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "j2k/layout.h"

/* One picture: its tables (T2 done) and where its coefficients start in the shared buffer, in bytes. */
typedef struct j2k_t1_part {
    const j2k_layout *layout;
    uint64_t coef_at;
    /* Set by the phases. */
    unsigned max_key;           /* of its code-blocks' places (t1_merge.c's work_key) */
    uint32_t max_words;         /* the state words (GJ_J2K_T1_WORDS_OF) of its largest code-block T1 decodes */
    size_t empty;               /* its code-blocks with no coding pass, left out of the table */
    size_t *slots;              /* by work key: its count of code-blocks, then the next one's slot */
    size_t slots_cap;
    uint16_t *keys;             /* its code-blocks' work keys, from the count for the fill */
    size_t keys_cap;
    uint64_t segment_first, data_first;
} j2k_t1_part;

typedef struct j2k_t1_merge {
    j2k_t1_part *parts;
    int n;
    size_t nb_cblks, nb_segments;   /* the parts' totals; from j2k_t1_merge_plan on, the table's code-blocks */
    uint64_t data_size;
    uint64_t segments_at, data_at, size;    /* the buffer's layout (j2k_t1_input_offsets), set by the plan */
    size_t narrow;              /* the code-blocks of 16-bit pictures come first, this many */
    uint32_t max_words[2];      /* of those and of the rest (32-bit pictures) */
} j2k_t1_merge;

/* GJ_ERROR_UNSUPPORTED when an offset would not fit the kernels' 32 bits (coef_at must be a multiple of 4). */
int j2k_t1_merge_begin(j2k_t1_merge *m, j2k_t1_part *parts, int n);
int j2k_t1_merge_count(j2k_t1_merge *m, int k);
void j2k_t1_merge_plan(j2k_t1_merge *m);
/* Code-blocks first by width (16-bit pictures' first), then by coding passes (most first),
 * then by coded bytes (most first, in steps of a quarter doubling), then by picture, then
 * in each picture's own order; none without a coding pass. The data runs are read here. */
void j2k_t1_merge_fill(const j2k_t1_merge *m, int k, uint8_t *staging);
/* The parts' scratch. */
void j2k_t1_part_free(j2k_t1_part *part);

#endif /* GJ_J2K_T1_MERGE_H */
