/*
 * The join of several pictures' T1 tables (j2k/t1_merge.h) on made-up pictures:
 * code-blocks of 16-bit pictures first, then most coding passes first, then most
 * coded bytes (in quarter doublings), then by picture, then in each picture's
 * order; those without a coding pass left out
 * and counted as the picture's empty ones; each entry pointed at its picture's
 * segments, data and coefficients; segments and data (joined on the host, or runs
 * of the input) copied where the offsets say; the largest state per width; offsets
 * the kernels cannot hold refused. The per-picture phases run in any order, as
 * they do on the pool's threads.
 */
#include <stdio.h>
#include <string.h>

#include "unit_check.h"
#include "j2k/t1_merge.h"
#include "j2k/t1_queue.h"
#include "kernels/j2k_params.h"

#define PARTS 3

static gj_j2k_cblk cblk(unsigned passes, unsigned width, uint32_t data_offset, uint32_t seg_first,
                        uint32_t coef_offset)
{
    gj_j2k_cblk c = { 0 };

    c.passes = (gj_u16)passes;
    c.width = (gj_u16)width;
    c.height = 4;
    c.data_offset = data_offset;
    c.seg_first = seg_first;
    c.coef_offset = coef_offset;
    return c;
}

int main(void)
{
    /* Picture 0: 16-bit, data joined on the host. Picture 1: 32-bit, data in two runs.
     * Picture 2: 16-bit. A code-block's coef_offset names it: picture * 100 + index. Picture 0's
     * last code-block has no coding pass (and the largest state, which counts for nothing). */
    gj_j2k_cblk c0[] = { cblk(3, 4, 0, 0, 0), cblk(7, 64, 2, 1, 1), cblk(3, 4, 5, 2, 2), cblk(0, 128, 6, 2, 3) };
    gj_j2k_cblk c1[] = { cblk(5, 32, 0, 0, 100), cblk(7, 8, 4, 1, 101) };
    gj_j2k_cblk c2[] = { cblk(7, 16, 0, 0, 200), cblk(1, 4, 1, 1, 201), cblk(3, 4, 3, 2, 202) };
    uint32_t s0[] = { 11, 12, 13 }, s1[] = { 21, 22 }, s2[] = { 31, 32, 33, 34 };
    uint8_t d0[] = "abcdefg", d2[] = "xyz!", r1a[] = "PQ", r1b[] = "RSTUV";
    j2k_data_run runs1[] = { { r1a, 2 }, { r1b, 5 } };
    j2k_layout l[PARTS] = { { 0 } };
    j2k_t1_part parts[PARTS] = { { 0 } };
    j2k_t1_merge m;
    /* Expected order: (picture, index) */
    static const int order[][2] = { { 0, 1 }, { 2, 0 }, { 0, 0 }, { 0, 2 }, { 2, 2 }, { 2, 1 }, { 1, 1 },
                                    { 1, 0 } };
    const gj_j2k_cblk *src[PARTS] = { c0, c1, c2 };
    uint64_t coef_at[PARTS] = { 0, 4096, 1024 }, segment_first[PARTS] = { 0, 3, 5 }, data_first[PARTS] = { 0, 7, 14 };
    uint8_t *staging;
    gj_j2k_cblk *out;

    l[0] = (j2k_layout){ .cblks = c0, .nb_cblks = 4, .segments = s0, .nb_segments = 3, .data = d0, .data_size = 7,
                         .coef_count = 64 };
    l[1] = (j2k_layout){ .cblks = c1, .nb_cblks = 2, .segments = s1, .nb_segments = 2, .runs = runs1, .nb_runs = 2,
                         .data_size = 7, .wide = 1, .coef_count = 64 };
    l[2] = (j2k_layout){ .cblks = c2, .nb_cblks = 3, .segments = s2, .nb_segments = 4, .data = d2, .data_size = 4,
                         .coef_count = 64 };
    for (int i = 0; i < PARTS; i++) {
        parts[i].layout = &l[i];
        parts[i].coef_at = coef_at[i];
    }
    CHECK(j2k_t1_merge_begin(&m, parts, PARTS) == 0, "begin refused the parts");
    CHECK(m.nb_cblks == 9 && m.nb_segments == 9 && m.data_size == 18, "totals %zu %zu %llu", m.nb_cblks,
          m.nb_segments, (unsigned long long)m.data_size);
    for (int k = PARTS - 1; k >= 0; k--)
        CHECK(j2k_t1_merge_count(&m, k) == 0, "count %d", k);
    CHECK(parts[0].empty == 1 && parts[1].empty == 0 && parts[2].empty == 0, "empty %zu %zu %zu", parts[0].empty,
          parts[1].empty, parts[2].empty);
    j2k_t1_merge_plan(&m);
    CHECK(m.nb_cblks == 8, "table of %zu code-blocks", m.nb_cblks);
    CHECK(m.segments_at == 8 * sizeof(gj_j2k_cblk) + (16 - 8 * sizeof(gj_j2k_cblk) % 16) % 16 &&
          m.data_at == m.segments_at + 48 && m.size == m.data_at + 18, "layout %llu %llu %llu",
          (unsigned long long)m.segments_at, (unsigned long long)m.data_at, (unsigned long long)m.size);
    CHECK(m.narrow == 6, "narrow %zu", m.narrow);
    CHECK(m.max_words[0] == GJ_J2K_T1_WORDS_OF(64, 4) && m.max_words[1] == GJ_J2K_T1_WORDS_OF(32, 4),
          "max words %u %u", m.max_words[0], m.max_words[1]);
    staging = calloc(1, m.size);
    for (int k = 0; k < PARTS; k++)
        j2k_t1_merge_fill(&m, (k + 1) % PARTS, staging);
    out = (gj_j2k_cblk *)staging;
    for (int i = 0; i < 8; i++) {
        int p = order[i][0], k = order[i][1];
        const gj_j2k_cblk *c = &src[p][k];
        uint32_t base = (uint32_t)(coef_at[p] / (p == 1 ? 4 : 2));

        CHECK(out[i].coef_offset == c->coef_offset + base && out[i].passes == c->passes &&
              out[i].data_offset == c->data_offset + data_first[p] && out[i].seg_first == c->seg_first + segment_first[p],
              "entry %d: coef %u passes %u data %u seg %u, expected picture %d's code-block %d", i, out[i].coef_offset,
              out[i].passes, out[i].data_offset, out[i].seg_first, p, k);
    }
    {
        static const uint32_t segments[] = { 11, 12, 13, 21, 22, 31, 32, 33, 34 };

        CHECK(!memcmp(staging + m.segments_at, segments, sizeof(segments)), "segments");
        CHECK(!memcmp(staging + m.data_at, "abcdefgPQRSTUVxyz!", 18), "data %.18s", staging + m.data_at);
    }
    free(staging);
    {
        /* Among equal passes, the most coded bytes first (a quarter doubling apart: 300 and
         * 280 bytes share a step and keep the picture's order) */
        gj_j2k_cblk c[] = { cblk(5, 4, 0, 0, 0), cblk(5, 4, 10, 1, 1), cblk(5, 4, 310, 2, 2), cblk(6, 4, 350, 3, 3),
                            cblk(5, 4, 351, 4, 4) };
        uint32_t segs[] = { 10 | 5u << 24, 300 | 5u << 24, 40 | 5u << 24, 1 | 6u << 24, 280 | 5u << 24 };
        static uint8_t bytes[631];
        static const int want[] = { 3, 1, 4, 2, 0 };
        j2k_layout one = { .cblks = c, .nb_cblks = 5, .segments = segs, .nb_segments = 5, .data = bytes,
                           .data_size = sizeof(bytes), .coef_count = 64 };
        j2k_t1_part part = { .layout = &one };

        for (int i = 0; i < 5; i++)
            c[i].seg_count = 1;
        CHECK(j2k_t1_merge_begin(&m, &part, 1) == 0 && j2k_t1_merge_count(&m, 0) == 0, "one picture refused");
        j2k_t1_merge_plan(&m);
        staging = calloc(1, m.size);
        j2k_t1_merge_fill(&m, 0, staging);
        out = (gj_j2k_cblk *)staging;
        for (int i = 0; i < 5; i++)
            CHECK(out[i].coef_offset == (uint32_t)want[i], "by bytes, entry %d: code-block %u, expected %d", i,
                  out[i].coef_offset, want[i]);
        free(staging);
        /* A hostile count of passes still sorts first, and the sort's table stays small */
        c[1].passes = 60000;
        CHECK(j2k_t1_merge_begin(&m, &part, 1) == 0 && j2k_t1_merge_count(&m, 0) == 0, "many passes refused");
        CHECK(part.slots_cap <= 256 * 104, "a sort table of %zu entries", part.slots_cap);
        j2k_t1_merge_plan(&m);
        staging = calloc(1, m.size);
        j2k_t1_merge_fill(&m, 0, staging);
        out = (gj_j2k_cblk *)staging;
        CHECK(out[0].coef_offset == 1 && out[0].passes == 60000, "many passes: entry 0 is code-block %u",
              out[0].coef_offset);
        free(staging);
        j2k_t1_part_free(&part);
    }
    /* Coefficients the kernels' 32-bit offsets cannot reach, or not at a word */
    parts[1].coef_at = (uint64_t)UINT32_MAX * 4;
    CHECK(j2k_t1_merge_begin(&m, parts, PARTS) == GJ_ERROR_UNSUPPORTED, "an offset past 32 bits accepted");
    parts[1].coef_at = 4098;
    CHECK(j2k_t1_merge_begin(&m, parts, PARTS) == GJ_ERROR_UNSUPPORTED, "an offset off a word accepted");
    for (int i = 0; i < PARTS; i++)
        j2k_t1_part_free(&parts[i]);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
