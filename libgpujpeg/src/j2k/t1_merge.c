/* T1's tables of several pictures joined (t1_merge.h). */
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/common.h"
#include "j2k/array.h"
#include "j2k/t1_merge.h"

/* The parts' totals, checked against the kernels' 32-bit offsets. */
static int count_parts(const j2k_t1_part *parts, int n, size_t *cblks, size_t *segments, size_t *runs,
                       uint64_t *data, unsigned *max_passes)
{
    *cblks = *segments = *runs = 0;
    *data = 0;
    *max_passes = 0;
    for (int i = 0; i < n; i++) {
        const j2k_layout *l = parts[i].layout;
        uint64_t elem = l->wide ? 4 : 2;

        if (parts[i].coef_at % 4 || parts[i].coef_at / elem + l->coef_count > UINT32_MAX)
            return GJ_ERROR_UNSUPPORTED;
        *cblks += l->nb_cblks;
        *segments += l->nb_segments;
        *runs += l->nb_runs ? l->nb_runs : l->data_size ? 1 : 0;
        *data += l->data_size;
        for (size_t k = 0; k < l->nb_cblks; k++)
            if (l->cblks[k].passes > *max_passes)
                *max_passes = l->cblks[k].passes;
    }
    if (*data > UINT32_MAX || *segments > UINT32_MAX)
        return GJ_ERROR_UNSUPPORTED;
    return 0;
}

/* Code-block k of l's place in the order: its width, then its passes, most first. */
static size_t bucket(const j2k_layout *l, size_t k, unsigned max_passes)
{
    return (l->wide ? max_passes + 1 : 0) + max_passes - l->cblks[k].passes;
}

int j2k_t1_merge(j2k_layout *merged, const j2k_t1_part *parts, int n, size_t *narrow)
{
    size_t nb_cblks, nb_segments, nb_runs, *slot, cblk = 0, segment = 0, run = 0;
    uint64_t data_size, data_at = 0;
    unsigned max_passes;
    int ret;

    if ((ret = count_parts(parts, n, &nb_cblks, &nb_segments, &nb_runs, &data_size, &max_passes)) < 0 ||
        (ret = J2K_GROW(merged->cblks, 0, merged->cblks_cap, nb_cblks)) < 0 ||
        (ret = J2K_GROW(merged->segments, 0, merged->segments_cap, nb_segments)) < 0 ||
        (ret = J2K_GROW(merged->runs, 0, merged->runs_cap, nb_runs)) < 0)
        return ret;
    /* A counting sort, by width (16-bit first) then passes (most first); stable, so
     * each picture keeps its own order. Bucket b counts into slot[b + 1]. */
    if (!(slot = calloc(2 * (max_passes + 1) + 1, sizeof(*slot))))
        return GJ_ERROR_NOMEM;
    for (int i = 0; i < n; i++) {
        const j2k_layout *l = parts[i].layout;

        for (size_t k = 0; k < l->nb_cblks; k++)
            slot[bucket(l, k, max_passes) + 1]++;
    }
    for (unsigned p = 1; p <= 2 * (max_passes + 1); p++)
        slot[p] += slot[p - 1];
    *narrow = slot[max_passes + 1];
    for (int i = 0; i < n; i++) {
        const j2k_layout *l = parts[i].layout;
        uint32_t coef_base = (uint32_t)(parts[i].coef_at / (l->wide ? 4 : 2));

        for (size_t k = 0; k < l->nb_cblks; k++) {
            gj_j2k_cblk *d = &merged->cblks[slot[bucket(l, k, max_passes)]++];

            *d = l->cblks[k];
            d->data_offset += (gj_u32)data_at;
            d->seg_first += (gj_u32)segment;
            d->coef_offset += coef_base;
        }
        cblk += l->nb_cblks;
        if (l->nb_segments)
            memcpy(merged->segments + segment, l->segments, l->nb_segments * sizeof(*l->segments));
        segment += l->nb_segments;
        if (l->nb_runs) {
            memcpy(merged->runs + run, l->runs, l->nb_runs * sizeof(*l->runs));
            run += l->nb_runs;
        } else if (l->data_size) {
            merged->runs[run++] = (j2k_data_run){ .data = l->data, .size = l->data_size };
        }
        data_at += l->data_size;
    }
    free(slot);
    merged->nb_cblks = cblk;
    merged->nb_segments = segment;
    merged->nb_runs = run;
    merged->data_size = data_at;
    return 0;
}
