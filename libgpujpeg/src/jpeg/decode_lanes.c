/*
 * Decodes that overlap: lanes are decoders of their own (buffers, host staging) on
 * sibling devices of the decoder's device, each with its own queue, so the GPU
 * runs several pictures at once and the host parses one while others decode.
 *   - gj_jpeg_decode_async() takes the lanes in turn from the caller's thread and
 *     returns once the work is queued;
 *   - gj_jpeg_decode_batch() gives every lane a host thread, so that parsing and
 *     layout, the host's share of a decode, run in parallel too.
 * Output frames are allocated on the decoder's device, so they outlive the lanes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "device/staging.h"
#include "jpeg/decoder_private.h"
#include "log.h"

static int ensure_lanes(gj_jpeg_decoder *dec)
{
    int ret;

    while (dec->num_lanes < dec->lanes_wanted) {
        gj_device *sibling;
        gj_jpeg_decoder *lane;

        if ((ret = gj_dev_open_sibling(dec->dev, &sibling)) < 0)
            return ret;
        if ((ret = gj_jpeg_decoder_create(&lane, sibling)) < 0) {
            gj_device_free(&sibling);
            return ret;
        }
        lane->owns_dev = 1;
        lane->frame_dev = dec->dev;
        lane->shares_gpu = dec->lanes_wanted > 1;
        dec->lanes[dec->num_lanes++] = lane;
    }
    return 0;
}

/* Frees the lanes after the first `keep`. */
static void free_lanes(gj_jpeg_decoder *dec, int keep)
{
    while (dec->num_lanes > keep)
        gj_jpeg_decoder_free(&dec->lanes[--dec->num_lanes]);
    dec->next_lane = 0;
}

void gj_jpeg_lanes_free(gj_jpeg_decoder *dec)
{
    free_lanes(dec, 0);
}

int gj_jpeg_decoder_set_lanes(gj_jpeg_decoder *dec, int lanes)
{
    if (!dec || lanes < 1 || lanes > MAX_LANES)
        return gj_fail(GJ_ERROR_INVAL, "JPEG decoder: %d lanes (1 to %d)", lanes, MAX_LANES);
    dec->lanes_wanted = lanes;
    free_lanes(dec, lanes);
    return 0;
}

/*
 * The lane decodes into its own staging picture and FFmpeg-style callers read the
 * output frame on the decoder's stream, so the copy into the frame is queued there:
 * it comes after the frame's earlier readers without the lane waiting for them,
 * and the lane's next decode waits only for this copy. Pictures on different lanes
 * thus decode at once.
 */
int gj_jpeg_decode_async(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    gj_jpeg_decoder *lane;
    int ret;

    if (!dec || !out || (!data && size))
        return GJ_ERROR_INVAL;
    if ((ret = ensure_lanes(dec)) < 0)
        return ret;
    lane = dec->lanes[dec->next_lane];
    dec->next_lane = (dec->next_lane + 1) % dec->num_lanes;
    lane->stage_device_output = out->memory != GJ_MEMORY_HOST;
    /* On a CPU device the lanes take turns: its kernels use every core already, and
     * PoCL 3.1's pthread driver trips an assertion in pocl_release_dlhandle_cache
     * when several queues run them at once (j2k/decode_batch.c). */
    if (!dec->dev->desc.is_gpu && (ret = lane->dev->ops->wait_for(lane->dev, dec->dev)) < 0)
        return ret;
    if ((ret = gj_jpeg_decode_queue(lane, data, size, out)) < 0 ||
        (ret = dec->dev->ops->wait_for(dec->dev, lane->dev)) < 0)
        return ret;
    if (lane->stage_device_output && (ret = gj_staging_copy(dec->dev, &lane->staging, out)) < 0)
        return ret;
    ret = lane->dev->ops->wait_for(lane->dev, dec->dev);
    gj_jpeg_profile_mark(lane, ST_JOIN);
    return ret;
}

typedef struct batch {
    const uint8_t *const *data;
    const size_t *sizes;
    gj_frame *outs;
    int *results;
    int n;
    atomic_int next;
} batch;

typedef struct batch_worker {
    batch *b;
    gj_jpeg_decoder *lane;
    pthread_t thread;
} batch_worker;

static void *batch_work(void *opaque)
{
    batch_worker *w = opaque;
    batch *b = w->b;
    int i;

    while ((i = atomic_fetch_add(&b->next, 1)) < b->n)
        b->results[i] = gj_jpeg_decode(w->lane, b->data[i], b->sizes[i], &b->outs[i]);
    return NULL;
}

/* Every image on the caller's thread, one after another. */
static void batch_in_turn(gj_jpeg_decoder *dec, batch *b)
{
    int i;

    for (i = 0; i < b->n; i++)
        b->results[i] = gj_jpeg_decode(dec, b->data[i], b->sizes[i], &b->outs[i]);
}

static void batch_on_lanes(gj_jpeg_decoder *dec, batch *b)
{
    batch_worker workers[MAX_LANES];
    int i, started = 0, lanes = dec->num_lanes < b->n ? dec->num_lanes : b->n;

    for (i = 0; i < lanes; i++) {
        workers[i].b = b;
        workers[i].lane = dec->lanes[i];
        dec->lanes[i]->stage_device_output = 0;
        /* Frames the caller hands in may still be in use by its queued work. */
        if (dec->lanes[i]->dev->ops->wait_for(dec->lanes[i]->dev, dec->dev) < 0)
            break;
        if (i > 0 && pthread_create(&workers[i].thread, NULL, batch_work, &workers[i]) != 0)
            break;
        started = i + 1;
    }
    /* The caller's thread is lane 0's; what no thread took is done there too. */
    if (started > 0)
        batch_work(&workers[0]);
    for (i = 1; i < started; i++)
        pthread_join(workers[i].thread, NULL);
    if (started == 0)
        batch_in_turn(dec, b);
}

int gj_jpeg_decode_batch(gj_jpeg_decoder *dec, const uint8_t *const *data, const size_t *sizes, int n,
                         gj_frame *outs, int *results)
{
    batch b = { .data = data, .sizes = sizes, .outs = outs, .n = n };
    int i, first = 0;

    if (!dec || n < 0 || (n && (!data || !sizes || !outs)))
        return GJ_ERROR_INVAL;
    if (n == 0)
        return 0;
    b.results = results ? results : calloc((size_t)n, sizeof(int));
    if (!b.results)
        return GJ_ERROR_NOMEM;
    atomic_init(&b.next, 0);
    /* One image gains nothing from lanes, nor does a CPU device (see
     * gj_jpeg_decode_async); without them (no memory for another queue, say) the
     * images still decode, one after another. */
    if (n == 1 || !dec->dev->desc.is_gpu || ensure_lanes(dec) < 0 || dec->num_lanes < 2)
        batch_in_turn(dec, &b);
    else
        batch_on_lanes(dec, &b);
    for (i = 0; i < n && !first; i++)
        first = b.results[i] < 0 ? b.results[i] : 0;
    if (!results)
        free(b.results);
    return first;
}
