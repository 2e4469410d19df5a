/*
 * Batches of JPEG 2000 pictures (gj_j2k_decode_batch()): lanes are decoders of
 * their own on sibling devices of the decoder's device, each with its queue, and
 * each lane has a host thread of the decoder's pool. A lane parses its next
 * picture (markers, T2: the host's share) while the other lanes' kernels run, and
 * the kernels of several pictures run on the GPU side by side: one picture's T1
 * leaves most of an H200 idle while its longest code-blocks finish.
 * Output frames are allocated on the decoder's device, so they outlive the lanes.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "j2k/decoder_private.h"
#include "log.h"

static int ensure_lanes(gj_j2k_decoder *dec)
{
    int ret;

    while (dec->num_lanes < dec->lanes_wanted) {
        gj_device *sibling;
        gj_j2k_decoder *lane;

        if ((ret = gj_dev_open_sibling(dec->dev, &sibling)) < 0)
            return ret;
        if ((ret = gj_j2k_decoder_create(&lane, sibling)) < 0) {
            gj_device_free(&sibling);
            return ret;
        }
        lane->owns_dev = 1;
        lane->frame_dev = dec->dev;
        /* Lanes share the GPU with each other's pictures: no early T1 (early.h). */
        lane->early.enabled = 0;
        dec->lanes[dec->num_lanes++] = lane;
    }
    if (!dec->pool || gj_thread_pool_threads(dec->pool) != dec->num_lanes) {
        gj_thread_pool_free(&dec->pool);
        if ((ret = gj_thread_pool_create(&dec->pool, dec->num_lanes)) < 0)
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
}

int gj_j2k_decoder_set_lanes(gj_j2k_decoder *dec, int lanes)
{
    if (!dec || lanes < 1 || lanes > GJ_J2K_MAX_LANES)
        return gj_fail(GJ_ERROR_INVAL, "J2K decoder: %d lanes (1 to %d)", lanes, GJ_J2K_MAX_LANES);
    dec->lanes_wanted = lanes;
    free_lanes(dec, lanes);
    return 0;
}

typedef struct batch {
    gj_j2k_decoder *dec;
    const uint8_t *const *data;
    const size_t *sizes;
    gj_frame *outs;
    int *results;
    int n;
    atomic_int next;
} batch;

/* Lane `lane` takes pictures until none is left: each fails or succeeds alone. */
static void lane_work(void *opaque, int lane)
{
    batch *b = opaque;
    gj_j2k_decoder *l = b->dec->lanes[lane];
    int i;

    while ((i = atomic_fetch_add(&b->next, 1)) < b->n)
        b->results[i] = gj_j2k_decode(l, b->data[i], b->sizes[i], &b->outs[i]);
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
        if ((ret = lane->dev->ops->wait_for(lane->dev, dec->dev)) < 0)
            return ret;
    }
    return 0;
}

int gj_j2k_decode_batch(gj_j2k_decoder *dec, const uint8_t *const *data, const size_t *sizes, int n,
                        gj_frame *outs, int *results)
{
    batch b = { .dec = dec, .data = data, .sizes = sizes, .outs = outs, .n = n };
    int first = 0;

    if (!dec || n < 0 || (n && (!data || !sizes || !outs)))
        return GJ_ERROR_INVAL;
    if (n == 0)
        return 0;
    b.results = results ? results : calloc((size_t)n, sizeof(int));
    if (!b.results)
        return GJ_ERROR_NOMEM;
    atomic_init(&b.next, 0);
    /* One picture gains nothing from lanes, nor does a CPU device, whose kernels use
     * every core already (and PoCL 3.1's pthread driver trips an assertion in
     * pocl_release_dlhandle_cache when several queues run these kernels at once).
     * Without lanes (no memory for another queue, say) the pictures still decode,
     * one after another, on the decoder itself. */
    if (n == 1 || dec->lanes_wanted < 2 || !dec->dev->desc.is_gpu || ensure_lanes(dec) < 0 ||
        prepare_lanes(dec) < 0) {
        for (int i = 0; i < n; i++)
            b.results[i] = gj_j2k_decode(dec, data[i], sizes[i], &outs[i]);
    } else {
        gj_thread_pool_run(dec->pool, lane_work, &b, n < dec->num_lanes ? n : dec->num_lanes);
    }
    for (int i = 0; i < n && !first; i++)
        first = b.results[i] < 0 ? b.results[i] : 0;
    if (!results)
        free(b.results);
    return first;
}
