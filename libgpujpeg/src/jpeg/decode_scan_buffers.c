/*
 * Where a scan's buffers live. The output frame's device memory is neither read nor
 * written before the pixels (the IDCT writes planar output, the colour kernel packed
 * output; until then the coefficients are the decode's state), so while the scans
 * decode it holds their unstuffed bytes and per-chunk arrays, which then cost no
 * memory beyond the frame: the decoder's limit is the output, the coefficients and
 * about a byte per pixel, and dense scans exceed it otherwise (q100 photos: about
 * a byte per pixel of scan bytes, and two thirds of that again in per-chunk arrays).
 * Scans that run one after another on unit 0 may each use the whole frame (each
 * one's upload comes after the last one's kernels on the same queue); scans that run
 * at once on units of their own take consecutive parts of it (decode_scan_units.c).
 * What does not fit goes to the unit's own buffers, kept across frames as before.
 */
#include <string.h>

#include "device/staging.h"
#include "jpeg/decoder_private.h"

/* The buffers that may be views, from the largest per pixel: the others are per
 * group of chunks or per scan, a few kilobytes. */
static const int in_frame[] = { BUF_BYTES, BUF_SUMS, BUF_STATES, BUF_PART_STATES, BUF_CHUNK_SEG, BUF_SEGMENTS };
#define IN_FRAME (sizeof(in_frame) / sizeof(in_frame[0]))

/* u->buf[which] is the unit's own again (or nothing, until it is ensured). */
static void release_view(gj_jpeg_scan_unit *u, int which)
{
    if (!(u->frame_views & (1u << which)))
        return;
    u->dev->ops->view_release(u->dev, &u->buf[which]);
    u->buf[which] = u->parked[which];
    memset(&u->parked[which], 0, sizeof(u->parked[which]));
    u->frame_views &= ~(1u << which);
}

void gj_jpeg_scan_views_release(gj_jpeg_scan_unit *u)
{
    for (int i = 0; i < SCAN_BUFS; i++)
        release_view(u, i);
}

void gj_jpeg_return_frame(gj_jpeg_decoder *dec)
{
    for (int i = 0; i < GJ_JPEG_MAX_SCANS; i++)
        if (dec->units[i].dev)
            gj_jpeg_scan_views_release(&dec->units[i]);
    memset(&dec->borrowed, 0, sizeof(dec->borrowed));
    dec->borrowed_offset = dec->borrowed_free = 0;
}

void gj_jpeg_borrow_frame(gj_jpeg_decoder *dec, const gj_frame *target)
{
    gj_jpeg_return_frame(dec);
    gj_staging_contiguous(target, &dec->borrowed, &dec->borrowed_offset);
    dec->borrowed_free = dec->borrowed_offset;
}

/* Empty ones too: the kernels take them (only passed), as ensure's 16 bytes. */
static size_t view_size(const size_t *sizes, int which)
{
    return sizes[which] ? sizes[which] : 16;
}

int gj_jpeg_scan_buffers_fit(const gj_jpeg_decoder *dec, const gj_device *dev, const size_t *sizes)
{
    uint64_t need = 0;

    if (!dec->borrowed.handle)
        return 0;
    for (size_t i = 0; i < IN_FRAME; i++)
        need += view_size(sizes, in_frame[i]) + dev->view_align;
    return dec->borrowed_free <= dec->borrowed.size && need <= dec->borrowed.size - dec->borrowed_free;
}

/* Binds u->buf[which] to `size` bytes of the frame from *at on, moving *at past them;
 * 0 when they do not fit or the backend makes no such view. */
static int bind_view(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, int which, size_t size, uint64_t *at)
{
    gj_buffer view;
    size_t start;

    if (!dec->borrowed.handle ||
        u->dev->ops->view_create(u->dev, &dec->borrowed, (size_t)*at, size, &view, &start) < 0)
        return 0;
    u->parked[which] = u->buf[which];
    u->buf[which] = view;
    u->frame_views |= 1u << which;
    *at = start + size;
    return 1;
}

int gj_jpeg_scan_buffers(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, const size_t *sizes)
{
    uint64_t at = dec->borrowed_free;
    uint32_t placed = 0;
    size_t i;
    int ret;

    /* The unit's last scan's views: its queued kernels keep what they need (view_release). */
    gj_jpeg_scan_views_release(u);
    for (i = 0; i < IN_FRAME; i++) {
        int which = in_frame[i];
        if (bind_view(dec, u, which, view_size(sizes, which), &at))
            placed |= 1u << which;
    }
    dec->borrowed_free = at;
    for (i = 0; i < SCAN_BUFS; i++)
        if (!(placed & (1u << i)) &&
            (ret = gj_jpeg_ensure_device_buffer(u->dev, &u->buf[i], sizes[i], dec->pending)) < 0)
            return ret;
    return 0;
}
