/*
 * The scans of one picture at the same time. A picture coded one scan per component
 * (GPUJPEG's files, many encoders' non-interleaved output) gives each scan a quarter
 * of the GPU's work or less: a chroma scan of a 4K 4:2:0 picture fills 24 work-groups
 * of an H200's 132 multiprocessors and takes as long as the luma scan (its kernels
 * are bound by the length of a chunk's decode, not by their count). The parser
 * refuses a component in two scans, so the scans write disjoint coefficients and
 * may run in any order: each one runs on a unit of its own, a sibling queue of the
 * decoder's device with its own scan buffers, and unit 0's queue (the decoder's)
 * waits for them all before the pixels.
 *
 * Order on the device: unit 0 zeroes the coefficients, then every other unit's
 * queue waits for that point, then each scan is queued on its unit as the parser
 * finds it. The scans' views into the borrowed frame lie side by side; a scan whose
 * buffers do not fit beside the others' waits for them on unit 0 instead.
 */
#include <string.h>

#include "jpeg/decoder_private.h"

void gj_jpeg_scan_units_init(gj_jpeg_decoder *dec)
{
    dec->units[0].dev = dec->dev;
}

/* Whether this decode's scans run at once: the first scan leaves components to later
 * ones, and the decoder has the GPU to itself (lanes already fill it with pictures).
 * Slot hypotheses then use no scratch (they pay on interleaved subsampled scans only,
 * which such pictures rarely have): unit 0's scratch, the coefficients, is zeroed first. */
static int scans_at_once(const gj_jpeg_decoder *dec)
{
    const gj_jpeg_stream *s = &dec->stream;

    return dec->scan_units_wanted && !dec->shares_gpu && dec->sync_mode != SYNC_HYPOTHESES &&
           s->num_scans > 0 && s->scans[0].num_components < s->num_components;
}

int gj_jpeg_scan_units_start(gj_jpeg_decoder *dec)
{
    int units = dec->stream.num_components - dec->stream.scans[0].num_components + 1, ret;

    dec->scans_at_once = scans_at_once(dec);
    if (!dec->scans_at_once)
        return 0;
    if ((ret = dec->dev->ops->fill_zero(dec->dev, &dec->buf[BUF_COEFS], 0, gj_jpeg_coef_bytes(&dec->stream))) < 0)
        return ret;
    for (int i = 1; i < units && i < GJ_JPEG_MAX_SCANS; i++) {
        gj_jpeg_scan_unit *u = &dec->units[i];

        /* On a CPU device the units share unit 0's queue (the same steps, one after
         * another): its kernels take every core already, and PoCL 3.1's pthread driver
         * trips an assertion in pocl_release_dlhandle_cache when several queues run them
         * at once (j2k/decode_batch.c). */
        if (!u->dev && !dec->dev->desc.is_gpu) {
            u->dev = dec->dev;
        } else if (!u->dev) {
            if ((ret = gj_dev_open_sibling(dec->dev, &u->dev)) < 0)
                return ret;
            u->owns_dev = 1;
        }
        if ((ret = u->dev->ops->wait_for(u->dev, dec->dev)) < 0)
            return ret;
    }
    return 0;
}

int gj_jpeg_scan_unit_for(gj_jpeg_decoder *dec, int index, const size_t *sizes, gj_jpeg_scan_unit **unit)
{
    gj_jpeg_scan_unit *u = &dec->units[index];
    int ret;

    if (dec->scans_at_once && index > 0 && u->dev && gj_jpeg_scan_buffers_fit(dec, u->dev, sizes)) {
        u->busy = 1;
        *unit = u;
        return 0;
    }
    /* One after another on unit 0, every scan from the frame's start: from here on for
     * the rest of the decode, since unit 0's queued scans may still use any part of it. */
    if (dec->scans_at_once && index > 0) {
        if ((ret = gj_jpeg_scan_units_join(dec)) < 0)
            return ret;
        dec->scans_at_once = 0;
    }
    dec->borrowed_free = dec->borrowed_offset;
    *unit = &dec->units[0];
    return 0;
}

int gj_jpeg_scan_units_join(gj_jpeg_decoder *dec)
{
    for (int i = 1; i < GJ_JPEG_MAX_SCANS; i++) {
        gj_jpeg_scan_unit *u = &dec->units[i];
        int ret;

        if (!u->busy)
            continue;
        if ((ret = dec->dev->ops->wait_for(dec->dev, u->dev)) < 0)
            return ret;
        u->busy = 0;
    }
    return 0;
}

void gj_jpeg_scan_units_free(gj_jpeg_decoder *dec)
{
    for (int i = 0; i < GJ_JPEG_MAX_SCANS; i++) {
        gj_jpeg_scan_unit *u = &dec->units[i];

        if (!u->dev)
            continue;
        u->dev->ops->finish(u->dev);
        gj_jpeg_scan_views_release(u);
        for (int b = 0; b < SCAN_BUFS; b++)
            if (u->buf[b].handle)
                u->dev->ops->buffer_destroy(u->dev, &u->buf[b]);
        if (u->owns_dev)
            gj_device_free(&u->dev);
        memset(u, 0, sizeof(*u));
    }
}
