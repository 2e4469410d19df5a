/*
 * Where a scan's buffers live. The output frame's device memory is neither read nor
 * written before the pixels (the IDCT writes planar output, the colour kernel packed
 * output; until then the coefficients are the decode's state), so while the scans
 * decode it holds their unstuffed bytes and per-chunk arrays, which then cost no
 * memory beyond the frame: the decoder's limit is the output, the coefficients and
 * about a byte per pixel, and dense scans exceed it otherwise (q100 photos: about
 * a byte per pixel of scan bytes, and two thirds of that again in per-chunk arrays). The scans of a decode
 * run in stream order on the decoder's queue, each one's upload after the last
 * one's kernels, so every scan may use the whole frame. What does not fit goes to
 * the decoder's own buffers, kept across frames as before.
 */
#include <string.h>

#include "device/staging.h"
#include "jpeg/decoder_private.h"

/* The buffers that may be views, from the largest per pixel: the others are per
 * group of chunks or per scan, a few kilobytes. */
static const int in_frame[] = { BUF_BYTES, BUF_SUMS, BUF_STATES, BUF_CHUNK_SEG, BUF_SEGMENTS };

/* buf[which] is the decoder's own again (or nothing, until it is ensured). */
static void release_view(gj_jpeg_decoder *dec, int which)
{
    if (!(dec->frame_views & (1u << which)))
        return;
    dec->dev->ops->view_release(dec->dev, &dec->buf[which]);
    dec->buf[which] = dec->parked[which];
    memset(&dec->parked[which], 0, sizeof(dec->parked[which]));
    dec->frame_views &= ~(1u << which);
}

static void release_views(gj_jpeg_decoder *dec)
{
    for (int i = 0; i < BUF_COUNT; i++)
        release_view(dec, i);
}

void gj_jpeg_return_frame(gj_jpeg_decoder *dec)
{
    release_views(dec);
    memset(&dec->borrowed, 0, sizeof(dec->borrowed));
    dec->borrowed_offset = 0;
}

void gj_jpeg_borrow_frame(gj_jpeg_decoder *dec, const gj_frame *target)
{
    gj_jpeg_return_frame(dec);
    gj_staging_contiguous(target, &dec->borrowed, &dec->borrowed_offset);
}

/* Binds buf[which] to `size` bytes of the frame from *at on, moving *at past them;
 * 0 when they do not fit or the backend makes no such view. */
static int bind_view(gj_jpeg_decoder *dec, int which, size_t size, uint64_t *at)
{
    gj_buffer view;
    size_t start;

    if (!dec->borrowed.handle ||
        dec->dev->ops->view_create(dec->dev, &dec->borrowed, (size_t)*at, size, &view, &start) < 0)
        return 0;
    dec->parked[which] = dec->buf[which];
    dec->buf[which] = view;
    dec->frame_views |= 1u << which;
    *at = start + size;
    return 1;
}

int gj_jpeg_scan_buffers(gj_jpeg_decoder *dec, const size_t *sizes)
{
    uint64_t at = dec->borrowed_offset;
    uint32_t placed = 0;
    size_t i;
    int ret;

    /* The last scan's views: its queued kernels keep what they need (view_release). */
    release_views(dec);
    for (i = 0; i < sizeof(in_frame) / sizeof(in_frame[0]); i++) {
        int which = in_frame[i];
        /* Empty ones too: the kernels take them (only passed), as ensure_buffer's 16 bytes. */
        if (bind_view(dec, which, sizes[which] ? sizes[which] : 16, &at))
            placed |= 1u << which;
    }
    for (i = 0; i < SCAN_BUFS; i++)
        if (!(placed & (1u << i)) && (ret = gj_jpeg_ensure_buffer(dec, (int)i, sizes[i])) < 0)
            return ret;
    return 0;
}
