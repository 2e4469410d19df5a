/* T1's tables of several pictures joined (t1_merge.h). */
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/common.h"
#include "j2k/t1_merge.h"
#include "j2k/t1_queue.h"
#include "kernels/j2k_params.h"

int j2k_t1_merge_begin(j2k_t1_merge *m, j2k_t1_part *parts, int n)
{
    m->parts = parts;
    m->n = n;
    m->nb_cblks = m->nb_segments = 0;
    m->data_size = 0;
    for (int i = 0; i < n; i++) {
        const j2k_layout *l = parts[i].layout;
        uint64_t elem = l->wide ? 4 : 2;

        if (parts[i].coef_at % 4 || parts[i].coef_at / elem + l->coef_count > UINT32_MAX)
            return GJ_ERROR_UNSUPPORTED;
        parts[i].segment_first = m->nb_segments;
        parts[i].data_first = m->data_size;
        m->nb_cblks += l->nb_cblks;
        m->nb_segments += l->nb_segments;
        m->data_size += l->data_size;
    }
    if (m->data_size > UINT32_MAX || m->nb_segments > UINT32_MAX)
        return GJ_ERROR_UNSUPPORTED;
    return 0;
}

/*
 * A code-block's place in the join: most coding passes first (the longest walks),
 * and among equal passes the most coded bytes first (the most decisions), in
 * J2K_T1_BYTE_STEPS steps per doubling. The work-groups of the batch kernels wait
 * for their slowest code-block (j2k_t1.h): neighbours in the table share one.
 * 0 for a code-block with no coding pass.
 */
#define J2K_T1_BYTE_STEPS 4
#define J2K_T1_BYTE_KEYS (J2K_T1_BYTE_STEPS * 26)
/* Passes beyond what a code-block holds (3 per bit-plane) come from hostile streams
 * only: they share the last keys, which keeps the counting sort's table small. */
#define J2K_T1_KEY_PASSES 255u
/* The largest key below (bytes under 2^25: 100 of a pass count's keys) fits t1_part.keys. */
_Static_assert(J2K_T1_KEY_PASSES * J2K_T1_BYTE_KEYS + J2K_T1_BYTE_KEYS - 1 <= 0xFFFF, "work keys fit 16 bits");

static unsigned key_passes(const gj_j2k_cblk *cb)
{
    return cb->passes < J2K_T1_KEY_PASSES ? cb->passes : J2K_T1_KEY_PASSES;
}

static unsigned work_key(const j2k_layout *l, const gj_j2k_cblk *cb)
{
    uint64_t sum = 0;
    uint32_t bytes, log2;

    if (!cb->passes)
        return 0;
    for (unsigned s = 0; s < cb->seg_count; s++)
        sum += l->segments[cb->seg_first + s] & 0xFFFFFFu;
    bytes = sum < (1u << 25) ? (uint32_t)sum : (1u << 25) - 1;
    log2 = bytes ? 31u - (uint32_t)__builtin_clz(bytes) : 0;
    /* the doubling, then the two bits below its top one */
    return key_passes(cb) * J2K_T1_BYTE_KEYS + (bytes ? log2 * J2K_T1_BYTE_STEPS + 1 + ((bytes << 2 >> log2) & 3u) : 0);
}

int j2k_t1_merge_count(j2k_t1_merge *m, int k)
{
    j2k_t1_part *part = &m->parts[k];
    const j2k_layout *l = part->layout;
    unsigned max_passes = 0, max_key;
    uint32_t max_words = 0;

    if (l->nb_cblks > part->keys_cap) {
        uint16_t *keys = realloc(part->keys, l->nb_cblks * sizeof(*keys));

        if (!keys)
            return GJ_ERROR_NOMEM;
        part->keys = keys;
        part->keys_cap = l->nb_cblks;
    }
    /* One walk over the code-blocks and their segments: the fill reads the keys back. */
    for (size_t i = 0; i < l->nb_cblks; i++) {
        const gj_j2k_cblk *cb = &l->cblks[i];
        uint32_t words = GJ_J2K_T1_WORDS_OF(cb->width, cb->height);
        unsigned passes = key_passes(cb);

        part->keys[i] = (uint16_t)work_key(l, cb);
        if (!passes)
            continue;
        max_passes = passes > max_passes ? passes : max_passes;
        max_words = words > max_words ? words : max_words;
    }
    max_key = max_passes * J2K_T1_BYTE_KEYS + J2K_T1_BYTE_KEYS - 1;
    if (max_key + 1 > part->slots_cap) {
        size_t *s = realloc(part->slots, (max_key + 1) * sizeof(*s));

        if (!s)
            return GJ_ERROR_NOMEM;
        part->slots = s;
        part->slots_cap = max_key + 1;
    }
    memset(part->slots, 0, (max_key + 1) * sizeof(*part->slots));
    for (size_t i = 0; i < l->nb_cblks; i++)
        part->slots[part->keys[i]]++;
    part->max_key = max_key;
    part->max_words = max_words;
    part->empty = part->slots[0];
    return 0;
}

/* A counting sort's offsets: each (width, work key) bucket holds the pictures one after another;
 * no bucket for no passes. */
void j2k_t1_merge_plan(j2k_t1_merge *m)
{
    unsigned max_key = 0;
    size_t at = 0;

    for (int i = 0; i < m->n; i++)
        max_key = m->parts[i].max_key > max_key ? m->parts[i].max_key : max_key;
    m->max_words[0] = m->max_words[1] = 0;
    for (int wide = 0; wide < 2; wide++) {
        if (wide)
            m->narrow = at;
        for (int p = (int)max_key; p >= 1; p--)
            for (int i = 0; i < m->n; i++) {
                j2k_t1_part *part = &m->parts[i];
                size_t count;

                if (!part->layout->wide != !wide || (unsigned)p > part->max_key)
                    continue;
                count = part->slots[p];
                part->slots[p] = at;
                at += count;
                if (count && part->max_words > m->max_words[wide])
                    m->max_words[wide] = part->max_words;
            }
    }
    m->nb_cblks = at;
    m->size = j2k_t1_input_offsets(m->nb_cblks, m->nb_segments, m->data_size, &m->segments_at, &m->data_at);
}

void j2k_t1_merge_fill(const j2k_t1_merge *m, int k, uint8_t *staging)
{
    j2k_t1_part *part = &m->parts[k];
    const j2k_layout *l = part->layout;
    gj_j2k_cblk *cblks = (gj_j2k_cblk *)staging;
    uint8_t *data = staging + m->data_at + part->data_first;
    uint32_t coef_base = (uint32_t)(part->coef_at / (l->wide ? 4 : 2));

    for (size_t i = 0; i < l->nb_cblks; i++) {
        gj_j2k_cblk *d;

        if (!part->keys[i])
            continue;   /* no coding pass */
        d = &cblks[part->slots[part->keys[i]]++];
        *d = l->cblks[i];
        d->data_offset += (gj_u32)part->data_first;
        d->seg_first += (gj_u32)part->segment_first;
        d->coef_offset += coef_base;
    }
    if (l->nb_segments)
        memcpy(staging + m->segments_at + part->segment_first * sizeof(*l->segments), l->segments,
               l->nb_segments * sizeof(*l->segments));
    if (!l->nb_runs && l->data_size)
        memcpy(data, l->data, l->data_size);
    for (size_t i = 0, at = 0; i < l->nb_runs; at += l->runs[i++].size)
        memcpy(data + at, l->runs[i].data, l->runs[i].size);
}

void j2k_t1_part_free(j2k_t1_part *part)
{
    free(part->slots);
    free(part->keys);
    part->slots = NULL;
    part->keys = NULL;
    part->slots_cap = part->keys_cap = 0;
}
