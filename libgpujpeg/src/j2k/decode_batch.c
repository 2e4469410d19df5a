/*
 * Batches of JPEG 2000 pictures (gj_j2k_decode_batch()), in waves of up to
 * `lanes_wanted` pictures. A lane is a decoder of its own, on a sibling device of
 * the decoder's (its own queue) where the device is a GPU, else on the decoder's
 * device itself. The lanes parse a wave's pictures side by side on the decoder's
 * pool of host threads (markers, T2), then join their T1 tables there into a
 * page-locked copy of T1's input (t1_merge.h: the longest code-blocks of every
 * picture first), which one upload sends; one T1 launch then decodes every
 * code-block of the wave's pictures into one coefficient buffer, and each lane
 * queues its picture's IDWT and output on its own queue behind it.
 *
 * Waves take GJ_J2K_LANE_SETS sets of lanes in turn, and GJ_J2K_WAVE_SLOTS slots
 * (a T1 queue, a copy of T1's input, a coefficient buffer) in turn. Three sets of
 * lanes: a wave's lanes parse it, and its T1 input is joined, while the GPU still
 * runs the two waves before it; the host then waits for the slot's previous wave
 * (two back) before its T1 takes the slot's coefficients. With two sets the host
 * waited for that wave before parsing: its IDWT and output shared the GPU with the
 * next wave's long T1 work-groups and ended late, and the GPU idled while the lanes
 * parsed. Output frames are allocated on the decoder's device, so they outlive the
 * lanes.
 */
#include <stdlib.h>

#include "j2k/decoder_private.h"
#include "j2k/t1_merge.h"
#include "j2k/t1_queue.h"
#include "log.h"

/* Wave slot s's T1 queue: the decoder's, or for the second slot a sibling of it. */
static gj_device *wave_dev(gj_j2k_decoder *dec, int s)
{
    return s && dec->t1_dev ? dec->t1_dev : dec->dev;
}

static int ensure_lanes(gj_j2k_decoder *dec)
{
    int ret, wanted = GJ_J2K_LANE_SETS * dec->lanes_wanted;

    /* The second slot's T1 queue; a CPU device's lanes and launches share the decoder's
     * queue: its kernels take every core already, and PoCL 3.1's pthread driver trips an
     * assertion in pocl_release_dlhandle_cache when several queues run them at once. */
    if (!dec->t1_dev) {
        if (!dec->dev->desc.is_gpu)
            dec->t1_dev = dec->dev;
        else if ((ret = gj_dev_open_sibling(dec->dev, &dec->t1_dev)) < 0)
            return ret;
    }
    while (dec->num_lanes < wanted) {
        gj_device *sibling;
        gj_j2k_decoder *lane;

        /* Urgent: a wave's IDWT and output, queued behind its T1, start ahead of the
         * next wave's T1 work-groups, so that the wave is done, and its lanes free to
         * parse again, soon after its T1 (else they waited for most of the next T1). */
        if (!dec->dev->desc.is_gpu) {
            sibling = dec->dev;
        } else if ((ret = gj_dev_open_urgent_sibling(dec->dev, &sibling)) < 0) {
            return ret;
        }
        if ((ret = gj_j2k_decoder_create(&lane, sibling)) < 0) {
            if (sibling != dec->dev)
                gj_device_free(&sibling);
            return ret;
        }
        lane->owns_dev = sibling != dec->dev;
        lane->frame_dev = dec->dev;
        /* Lanes share the GPU with each other's pictures: no early T1 (early.h). */
        lane->early.enabled = 0;
        /* The wave's join orders every picture's code-blocks (a DCI 4K picture's own
         * sort was 17 % of its host time, measured on the CPU) */
        lane->layout.unsorted = 1;
        dec->lanes[dec->num_lanes++] = lane;
    }
    if (!dec->pool || gj_thread_pool_threads(dec->pool) != dec->lanes_wanted) {
        gj_thread_pool_free(&dec->pool);
        if ((ret = gj_thread_pool_create(&dec->pool, dec->lanes_wanted)) < 0)
            return ret;
    }
    return 0;
}

/* Frees the lanes after the first `keep` (and the pool, sized for the old count). */
static void free_lanes(gj_j2k_decoder *dec, int keep)
{
    gj_thread_pool_free(&dec->pool);
    while (dec->num_lanes > keep)
        gj_j2k_decoder_free(&dec->lanes[--dec->num_lanes]);
}

void gj_j2k_lanes_free(gj_j2k_decoder *dec)
{
    free_lanes(dec, 0);
    for (int s = 0; s < GJ_J2K_WAVE_SLOTS; s++) {
        gj_device *dev = wave_dev(dec, s);

        dev->ops->finish(dev);
        if (dec->wave_coef[s].handle)
            dev->ops->buffer_destroy(dev, &dec->wave_coef[s]);
        if (dec->wave_input[s].handle)
            dev->ops->buffer_destroy(dev, &dec->wave_input[s]);
        if (dec->wave_staging[s])
            dev->ops->host_free(dev, dec->wave_staging[s]);
        dec->wave_staging[s] = NULL;
        dec->wave_staging_size[s] = 0;
        for (int k = 0; k < GJ_J2K_MAX_LANES; k++)
            j2k_t1_part_free(&dec->wave_parts[s][k]);
    }
    if (dec->t1_dev && dec->t1_dev != dec->dev)
        gj_device_free(&dec->t1_dev);
    dec->t1_dev = NULL;
}

int gj_j2k_decoder_set_lanes(gj_j2k_decoder *dec, int lanes)
{
    if (!dec || lanes < 1 || lanes > GJ_J2K_MAX_LANES)
        return gj_fail(GJ_ERROR_INVAL, "J2K decoder: %d lanes (1 to %d)", lanes, GJ_J2K_MAX_LANES);
    dec->lanes_wanted = lanes;
    free_lanes(dec, GJ_J2K_LANE_SETS * lanes);
    return 0;
}

/* One wave's state: pictures first .. first + count - 1, lane set * lanes_wanted + k taking first + k. */
typedef struct wave {
    int set, slot, first, count;
    int t1_waited, t1_result;   /* its slot's T1 queue finished (by the slot's next wave), and how */
    gj_frame *targets[GJ_J2K_MAX_LANES];
    int truncated[GJ_J2K_MAX_LANES];
    int merged[GJ_J2K_MAX_LANES];   /* its T1 ran in the wave's launch, into views[k] */
    gj_buffer views[GJ_J2K_MAX_LANES];
} wave;

typedef struct batch {
    gj_j2k_decoder *dec;
    const uint8_t *const *data;
    const size_t *sizes;
    gj_frame *outs;
    int *results;
    wave waves[GJ_J2K_LANE_SETS];  /* by set */
    wave *parsing;              /* the wave host_work parses */
    wave *finishing;            /* the wave finish_work finishes, */
    int finishing_t1;           /* its T1 launch's result */
    int finished[GJ_J2K_MAX_LANES];
    j2k_t1_merge merge;         /* the join of its tables (count_work, fill_work) */
    uint8_t *staging;
    int counted[GJ_J2K_MAX_LANES];
} batch;

static gj_j2k_decoder *lane_of(const batch *b, const wave *w, int k)
{
    return b->dec->lanes[w->set * b->dec->lanes_wanted + k];
}

/* Lanes take the decoder's settings; frames the caller hands in may still be in use by its queued work. */
static int prepare_lanes(gj_j2k_decoder *dec)
{
    int ret;

    for (int i = 0; i < dec->num_lanes; i++) {
        gj_j2k_decoder *lane = dec->lanes[i];

        lane->reduce = dec->reduce;
        lane->max_layers = dec->max_layers;
        lane->layout.force_wide = dec->layout.force_wide;
        lane->layout.worst_case = dec->layout.worst_case;
        if (lane->dev != dec->dev && (ret = lane->dev->ops->wait_for(lane->dev, dec->dev)) < 0)
            return ret;
    }
    if (dec->t1_dev != dec->dev && (ret = dec->t1_dev->ops->wait_for(dec->t1_dev, dec->dev)) < 0)
        return ret;
    return 0;
}

/* Lane k of the wave being parsed parses its picture. */
static void host_work(void *opaque, int k)
{
    batch *b = opaque;
    wave *w = b->parsing;
    int i = w->first + k;

    b->results[i] = j2k_decode_host(lane_of(b, w, k), b->data[i], b->sizes[i], &b->outs[i], &w->targets[k],
                                    &w->truncated[k]);
}

/* The join's per-picture phases (t1_merge.h), on the pool: counting, then filling. */
static void count_work(void *opaque, int k)
{
    batch *b = opaque;

    b->counted[k] = j2k_t1_merge_count(&b->merge, k);
}

static void fill_work(void *opaque, int k)
{
    batch *b = opaque;

    j2k_t1_merge_fill(&b->merge, k, b->staging);
}

/* The slot's host copy of T1's inputs, at least `size` bytes. */
static int ensure_staging(gj_j2k_decoder *dec, gj_device *dev, int slot, size_t size)
{
    if (size <= dec->wave_staging_size[slot])
        return 0;
    if (dec->wave_staging[slot])
        dev->ops->host_free(dev, dec->wave_staging[slot]);
    dec->wave_staging_size[slot] = 0;
    /* A little more than asked: the next waves' pictures differ in size. */
    size += size / 8;
    if (!(dec->wave_staging[slot] = dev->ops->host_alloc(dev, size)))
        return GJ_ERROR_NOMEM;
    dec->wave_staging_size[slot] = size;
    return 0;
}

/*
 * The slot's previous wave (count 0 if none) read the host copy of T1's input
 * until its T1 ran, and its lanes read the coefficients until their IDWT and output
 * ran: the host waits for the first before the join fills the copy, for the second
 * before the slot's coefficients get new views. Its views go then, not when the
 * wave finishes: NVIDIA's OpenCL crashed releasing a sub-buffer once another one over
 * the same bytes had been made.
 */
static void wait_slot_input(wave *prev, gj_device *dev)
{
    if (!prev->count || prev->t1_waited)
        return;
    prev->t1_result = dev->ops->finish(dev);
    prev->t1_waited = 1;
}

static void wait_slot_coefs(batch *b, wave *prev, gj_device *dev)
{
    for (int k = 0; k < prev->count; k++) {
        gj_device *lane_dev = lane_of(b, prev, k)->dev;

        lane_dev->ops->finish(lane_dev);
        if (prev->merged[k])
            dev->ops->view_release(dev, &prev->views[k]);
    }
}

/*
 * Places the parsed pictures' coefficients in the slot's buffer, each at a multiple
 * of the device's view alignment with a view of its own, and queues their T1 in one
 * launch on the slot's queue. The join comes before the views: the host fills T1's
 * input while the GPU finishes the slot's previous wave. Pictures left out (an
 * offset beyond 32 bits, no memory for the buffer or a view) run their own T1 on
 * their lane.
 */
static void queue_wave_t1(batch *b, wave *w, wave *prev)
{
    gj_j2k_decoder *dec = b->dec;
    gj_device *dev = wave_dev(dec, w->slot);
    gj_buffer *coef = &dec->wave_coef[w->slot], *input = &dec->wave_input[w->slot];
    j2k_t1_part *parts = dec->wave_parts[w->slot];
    j2k_t1_merge *m = &b->merge;
    uint64_t align = dev->view_align > 16 ? dev->view_align : 16, at = 0;
    size_t start;
    int n = 0, ret;

    for (int k = 0; k < w->count; k++) {
        const j2k_layout *l = &lane_of(b, w, k)->layout;

        w->merged[k] = 0;
        if (b->results[w->first + k] < 0)
            continue;
        at = (at + align - 1) & ~(align - 1);
        parts[n].layout = l;
        parts[n++].coef_at = at;
        at += j2k_coef_bytes(l);
        w->merged[k] = 1;
    }
    if (!n)
        return;
    wait_slot_input(prev, dev);
    if ((ret = j2k_t1_merge_begin(m, parts, n)) >= 0) {
        gj_thread_pool_run(dec->pool, count_work, b, n);
        for (int k = 0; k < n; k++)
            ret = b->counted[k] < 0 ? b->counted[k] : ret;
    }
    if (ret >= 0)
        j2k_t1_merge_plan(m);
    if (ret >= 0 && (ret = ensure_staging(dec, dev, w->slot, m->size)) >= 0) {
        b->staging = dec->wave_staging[w->slot];
        gj_thread_pool_run(dec->pool, fill_work, b, n);
    }
    wait_slot_coefs(b, prev, dev);
    if (ret >= 0 && (ret = gj_dev_ensure_buffer(dev, coef, at)) >= 0)
        ret = gj_dev_ensure_buffer(dev, input, m->size);
    for (int k = 0, i = 0; k < w->count && ret >= 0; k++) {
        if (!w->merged[k])
            continue;
        if ((ret = dev->ops->view_create(dev, coef, parts[i].coef_at, j2k_coef_bytes(parts[i].layout), &w->views[k],
                                         &start)) < 0) {
            w->merged[k] = 0;
        } else if (start != parts[i].coef_at) {
            dev->ops->view_release(dev, &w->views[k]);
            w->merged[k] = 0;
            ret = GJ_ERROR_UNSUPPORTED;
        }
        i++;
    }
    if (ret >= 0) {
        /* The zeros of the code-blocks left out of the table (t1_merge.h) */
        for (int k = 0; k < n && ret >= 0; k++)
            if (parts[k].empty)
                ret = dev->ops->fill_zero(dev, coef, parts[k].coef_at, j2k_coef_bytes(parts[k].layout));
        if (ret >= 0 && (ret = dev->ops->upload(dev, input, 0, b->staging, m->size)) >= 0 &&
            (ret = j2k_t1_launch_batch(dev, input, 0, m->segments_at, m->data_at, 0, m->narrow, m->max_words[0],
                                       coef, 0)) >= 0)
            ret = j2k_t1_launch_batch(dev, input, 0, m->segments_at, m->data_at, m->narrow, m->nb_cblks - m->narrow,
                                      m->max_words[1], coef, 1);
    }
    if (ret < 0) {
        /* Nothing queued, or a launch that failed half-way and wrote only the slot's buffer. */
        dev->ops->finish(dev);
        for (int k = 0; k < w->count; k++)
            if (w->merged[k]) {
                dev->ops->view_release(dev, &w->views[k]);
                w->merged[k] = 0;
            }
    }
}

/* Each lane of the wave queues the rest of its picture, behind the wave's T1 where it ran there. */
static void queue_wave_rest(batch *b, wave *w)
{
    gj_device *t1_dev = wave_dev(b->dec, w->slot);

    for (int k = 0; k < w->count; k++) {
        gj_j2k_decoder *lane = lane_of(b, w, k);
        int i = w->first + k, ret;

        if (b->results[i] < 0)
            continue;
        if (w->merged[k])
            lane->coefs = &w->views[k];
        if ((ret = j2k_decode_tables(lane, w->targets[k])) < 0 ||
            (w->merged[k] && lane->dev != t1_dev && (ret = lane->dev->ops->wait_for(lane->dev, t1_dev)) < 0) ||
            (ret = j2k_decode_kernels(lane, w->targets[k], w->merged[k])) < 0)
            b->results[i] = ret;
    }
}

/*
 * Lane k of the wave being finished copies its picture into a host frame from its
 * staging picture, and waits for its queue (the copy too: OpenCL's is queued). The
 * copy comes here, not after the lane's kernels were queued: a copy into pageable
 * memory holds the host until the kernels before it ran (CUDA), and the host would
 * not parse the next waves meanwhile.
 */
static void finish_work(void *opaque, int k)
{
    batch *b = opaque;
    wave *w = b->finishing;
    gj_j2k_decoder *lane = lane_of(b, w, k);
    int i = w->first + k, ret = 0, done;

    if (b->results[i] >= 0 && (!w->merged[k] || b->finishing_t1 >= 0))
        ret = j2k_decode_download(lane, &b->outs[i], w->targets[k]);
    done = lane->dev->ops->finish(lane->dev);
    b->finished[k] = ret < 0 ? ret : done;
}

/*
 * Waits for a wave's pictures; their results. A picture whose optimistic fractions
 * saturated (j2k_decode_saturated()) is decoded again on its lane, alone.
 */
static void finish_wave(batch *b, wave *w)
{
    gj_device *t1_dev;
    int t1;

    /* No wave yet: nothing to wait for (the first waves of a batch). */
    if (!w->count)
        return;
    t1_dev = wave_dev(b->dec, w->slot);
    t1 = w->t1_waited ? w->t1_result : t1_dev->ops->finish(t1_dev);
    b->finishing = w;
    b->finishing_t1 = t1;
    /* Lanes of queues of their own copy side by side (host frames: each copy holds its
     * thread); a CPU device's lanes share its one queue. */
    if (lane_of(b, w, 0)->dev != b->dec->dev)
        gj_thread_pool_run(b->dec->pool, finish_work, b, w->count);
    else
        for (int k = 0; k < w->count; k++)
            finish_work(b, k);

    for (int k = 0; k < w->count; k++) {
        gj_j2k_decoder *lane = lane_of(b, w, k);
        int i = w->first + k, ret = b->finished[k];

        if (w->merged[k])
            t1_dev->ops->view_release(t1_dev, &w->views[k]);
        if (b->results[i] < 0)
            continue;
        if (ret >= 0 && w->merged[k])
            ret = t1;
        if (ret >= 0 && w->truncated[k])
            b->outs[i].decode_error_flags = 1;
        if (ret >= 0 && j2k_decode_saturated(lane))
            ret = j2k_decode_frame_worst_case(lane, b->data[i], b->sizes[i], &b->outs[i]);
        b->results[i] = ret < 0 ? ret : 0;
    }
    w->count = 0;
}

/*
 * The waves: while the GPU decodes the two before, the lanes of the third set parse
 * the next (after their previous wave finished: their tables are read until then).
 */
static void decode_waves(batch *b, int n)
{
    gj_j2k_decoder *dec = b->dec;
    int i = 0;

    for (int s = 0; s < GJ_J2K_LANE_SETS; s++)
        b->waves[s].count = 0;
    for (int first = 0; first < n; i++) {
        wave *w = &b->waves[i % GJ_J2K_LANE_SETS];
        wave *prev = &b->waves[(i + GJ_J2K_LANE_SETS - GJ_J2K_WAVE_SLOTS) % GJ_J2K_LANE_SETS];

        finish_wave(b, w);
        w->set = i % GJ_J2K_LANE_SETS;
        w->slot = i % GJ_J2K_WAVE_SLOTS;
        w->first = first;
        w->count = n - first < dec->lanes_wanted ? n - first : dec->lanes_wanted;
        w->t1_waited = 0;
        first += w->count;
        b->parsing = w;
        gj_thread_pool_run(dec->pool, host_work, b, w->count);
        queue_wave_t1(b, w, prev);
        queue_wave_rest(b, w);
    }
    /* the waves left, oldest first */
    for (int k = 0; k < GJ_J2K_LANE_SETS; k++)
        finish_wave(b, &b->waves[(i + k) % GJ_J2K_LANE_SETS]);
}

int gj_j2k_decode_batch(gj_j2k_decoder *dec, const uint8_t *const *data, const size_t *sizes, int n,
                        gj_frame *outs, int *results)
{
    batch b = { .dec = dec, .data = data, .sizes = sizes, .outs = outs };
    int first = 0;

    if (!dec || n < 0 || (n && (!data || !sizes || !outs)))
        return GJ_ERROR_INVAL;
    if (n == 0)
        return 0;
    b.results = results ? results : calloc((size_t)n, sizeof(int));
    if (!b.results)
        return GJ_ERROR_NOMEM;
    /* One picture gains nothing from lanes. Without lanes (no memory for another
     * queue, say) the pictures still decode, one after another, on the decoder itself. */
    if (n == 1 || dec->lanes_wanted < 2 || ensure_lanes(dec) < 0 || prepare_lanes(dec) < 0) {
        for (int i = 0; i < n; i++)
            b.results[i] = gj_j2k_decode(dec, data[i], sizes[i], &outs[i]);
    } else {
        decode_waves(&b, n);
    }
    for (int i = 0; i < n && !first; i++)
        first = b.results[i] < 0 ? b.results[i] : 0;
    if (!results)
        free(b.results);
    return first;
}
