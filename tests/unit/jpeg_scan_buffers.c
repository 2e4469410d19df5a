/*
 * The JPEG decoder's scan buffers in the output frame (jpeg/decode_scan_buffers.c),
 * on the test device (GJ_TEST_DEVICE, default opencl-cpu):
 *   - memory: decoding the corpus's q100 photos takes at most the output frame, the
 *     16-bit coefficients and one byte per pixel of library buffers (planar and
 *     rgb24, frames the library allocates), and gives gj_jpeg_decode()'s picture;
 *   - a caller's frame whose planes lie apart in one buffer, with pitches wider than
 *     the rows and starts off the device's view alignment, and one whose planes are
 *     views of a buffer (OpenCL: sub-buffers): same picture, and not a byte written
 *     outside the planes' rows;
 *   - a decode that fails after its first scan was queued into a frame, then a good
 *     one into the same frame: the good picture.
 * With main's decoder (the scans' buffers its own) the memory checks fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "device/device.h"
#include "unit_check.h"

#define GUARD 0xA5

static const char *const q100_photos[] = {
    "photo_1280x800_420_q100", "photo_420_q100", "photo_422_q100",
};

/* Bytes of the 16-bit coefficients of every block of the picture (T.81 A.2). */
static size_t coefficient_bytes(const uint8_t *data, size_t size)
{
    gj_jpeg_info info;
    size_t blocks = 0, mcus_x, mcus_y;
    int hmax = 1, vmax = 1, c;

    if (gj_jpeg_read_info(data, size, &info) < 0)
        return 0;
    for (c = 0; c < info.num_components; c++) {
        hmax = info.h_samp[c] > hmax ? info.h_samp[c] : hmax;
        vmax = info.v_samp[c] > vmax ? info.v_samp[c] : vmax;
    }
    mcus_x = (size_t)(info.width + 8 * hmax - 1) / (size_t)(8 * hmax);
    mcus_y = (size_t)(info.height + 8 * vmax - 1) / (size_t)(8 * vmax);
    for (c = 0; c < info.num_components; c++)
        blocks += mcus_x * (size_t)info.h_samp[c] * mcus_y * (size_t)info.v_samp[c];
    return blocks * 64 * 2;
}

static size_t plane_bytes(const gj_frame *f, int p)
{
    return (size_t)f->linesize[p] * (size_t)gj_frame_plane_height(f->format, p, f->height);
}

/* Copies a device frame's picture into a host frame of the same shape. */
static int download(gj_device *dev, const gj_frame *src, gj_frame *dst)
{
    int ret;

    *dst = (gj_frame){ .width = src->width, .height = src->height, .format = src->format, .memory = GJ_MEMORY_HOST };
    if ((ret = gj_frame_alloc(dst, NULL)) < 0)
        return ret;
    for (int p = 0; p < gj_pixel_format_describe(src->format)->nb_planes; p++) {
        size_t offset = src->memory == GJ_MEMORY_OPENCL ? src->offset[p] : 0;
        gj_buffer buf = { .handle = (uintptr_t)src->data[p], .size = offset + plane_bytes(src, p) };
        if ((ret = dev->ops->download_2d(dev, dst->data[p], (size_t)dst->linesize[p], &buf, offset,
                                         (size_t)src->linesize[p], gj_frame_plane_row_bytes(src->format, p, src->width),
                                         (size_t)gj_frame_plane_height(src->format, p, src->height))) < 0)
            return ret;
    }
    return gj_device_synchronize(dev);
}

/* Whether the device frame holds the host reference picture. */
static int device_frame_is(gj_device *dev, const gj_frame *f, const gj_frame *ref)
{
    gj_frame host;
    int same;

    if (download(dev, f, &host) < 0)
        return 0;
    same = unit_same_picture(&host, ref);
    gj_frame_unref(&host);
    return same;
}

static void check_memory(gj_device *dev, const char *name, const uint8_t *data, size_t size,
                         enum gj_pixel_format format)
{
    gj_jpeg_decoder *dec = NULL;
    gj_frame out = { .format = format, .memory = gj_device_memory(dev) }, ref = { .format = format };
    size_t before, peak, frame = 0, limit;

    gj_device_reset_peak(dev);
    gj_device_buffer_bytes(dev, &before, NULL);
    CHECK(gj_jpeg_decoder_create(&dec, dev) == 0, "%s: no decoder", name);
    if (!dec)
        return;
    CHECK(gj_jpeg_decode(dec, data, size, &out) == 0, "%s: decode to the device failed", name);
    gj_device_buffer_bytes(dev, NULL, &peak);
    for (int p = 0; out.data[0] && p < gj_pixel_format_describe(out.format)->nb_planes; p++)
        frame += plane_bytes(&out, p);
    limit = coefficient_bytes(data, size) + (size_t)out.width * (size_t)out.height;
    CHECK(peak - before <= frame + limit, "%s (%s): %zu bytes of buffers beyond the %zu-byte frame, "
          "limit %zu (coefficients and a byte per pixel)", name, gj_pixel_format_describe(out.format)->name,
          peak - before - frame, frame, limit);
    ref.memory = GJ_MEMORY_HOST;
    ref.format = out.format;
    CHECK(gj_jpeg_decode(dec, data, size, &ref) == 0, "%s: decode to the host failed", name);
    CHECK(out.data[0] && device_frame_is(dev, &out, &ref), "%s: the device frame differs from the host's", name);
    gj_frame_unref(&ref);
    gj_frame_unref(&out);
    gj_jpeg_decoder_free(&dec);
}

/*
 * A caller's frame in one buffer: planes `gap` bytes apart (gap 0: views of the
 * buffer, one per plane, gj_device view_create), rows of `pad` bytes beyond the
 * widest, every byte filled with GUARD first.
 */
typedef struct caller_frame {
    gj_frame frame;
    gj_buffer buffer, views[4];
    size_t start[4];
} caller_frame;

static int caller_frame_make(gj_device *dev, caller_frame *c, int w, int h, enum gj_pixel_format format,
                             size_t gap, size_t pad)
{
    int planes = gj_pixel_format_describe(format)->nb_planes, ret;
    size_t at = 80, pitch;      /* 80: the first plane starts off every view alignment */
    uint8_t *fill;

    memset(c, 0, sizeof(*c));
    c->frame = (gj_frame){ .width = w, .height = h, .format = format, .memory = gj_device_memory(dev) };
    pitch = gj_frame_plane_row_bytes(c->frame.format, 0, c->frame.width) + pad;
    for (int p = 0; p < planes; p++) {
        c->frame.linesize[p] = (int)pitch;
        if (!gap)
            at = (at + dev->view_align - 1) & ~(dev->view_align - 1);
        c->start[p] = at;
        at += plane_bytes(&c->frame, p) + (gap ? gap : 1);
    }
    at += 4096;
    if ((ret = dev->ops->buffer_create(dev, at, &c->buffer)) < 0)
        return ret;
    if (!(fill = malloc(at)))
        return GJ_ERROR_NOMEM;
    memset(fill, GUARD, at);
    ret = dev->ops->upload(dev, &c->buffer, 0, fill, at);
    if (ret == 0)
        ret = gj_device_synchronize(dev);
    free(fill);
    for (int p = 0; ret == 0 && p < planes; p++) {
        size_t start = c->start[p];
        if (!gap && (ret = dev->ops->view_create(dev, &c->buffer, c->start[p], plane_bytes(&c->frame, p),
                                                 &c->views[p], &start)) == 0 && start != c->start[p])
            ret = GJ_ERROR_BUG;
        if (!gap)
            c->frame.data[p] = (uint8_t *)c->views[p].handle;
        else if (c->frame.memory == GJ_MEMORY_OPENCL)
            c->frame.data[p] = (uint8_t *)c->buffer.handle, c->frame.offset[p] = c->start[p];
        else
            c->frame.data[p] = (uint8_t *)(c->buffer.handle + c->start[p]);
    }
    return ret;
}

/* Bytes outside the planes' rows (pitch x rows) that are not GUARD any more. */
static size_t caller_frame_damage(gj_device *dev, const caller_frame *c)
{
    size_t n = 0, plane_end = 0;
    int p = 0, planes = gj_pixel_format_describe(c->frame.format)->nb_planes;
    uint8_t *all = malloc(c->buffer.size);

    if (!all || dev->ops->download(dev, all, &c->buffer, 0, c->buffer.size) < 0 || gj_device_synchronize(dev) < 0) {
        free(all);
        return (size_t)-1;
    }
    for (size_t i = 0; i < c->buffer.size; i++) {
        if (p < planes && i == c->start[p])
            plane_end = c->start[p] + plane_bytes(&c->frame, p), p++;
        if (i >= plane_end && all[i] != GUARD)
            n++;
    }
    free(all);
    return n;
}

static void caller_frame_free(gj_device *dev, caller_frame *c)
{
    for (int p = 0; p < 4; p++)
        if (c->views[p].handle)
            dev->ops->view_release(dev, &c->views[p]);
    dev->ops->buffer_destroy(dev, &c->buffer);
}

static void check_caller_frame(gj_device *dev, const char *name, const uint8_t *data, size_t size, size_t gap)
{
    gj_jpeg_decoder *dec = NULL;
    gj_frame ref = { .memory = GJ_MEMORY_HOST };
    caller_frame c;
    size_t damage;

    memset(&c, 0, sizeof(c));
    CHECK(gj_jpeg_decoder_create(&dec, dev) == 0 && gj_jpeg_decode(dec, data, size, &ref) == 0,
          "%s: decode to the host failed", name);
    if (!ref.data[0] || caller_frame_make(dev, &c, ref.width, ref.height, ref.format, gap, 96) < 0) {
        CHECK(0, "%s: no frame of the caller's (gap %zu)", name, gap);
    } else {
        CHECK(gj_jpeg_decode(dec, data, size, &c.frame) == 0, "%s: decode into the caller's frame failed", name);
        CHECK(device_frame_is(dev, &c.frame, &ref), "%s: the caller's frame (gap %zu) differs from the host's",
              name, gap);
        damage = caller_frame_damage(dev, &c);
        CHECK(damage == 0, "%s: %zu bytes written outside the caller's planes (gap %zu)", name, damage, gap);
    }
    caller_frame_free(dev, &c);
    gj_frame_unref(&ref);
    gj_jpeg_decoder_free(&dec);
}

/* The good picture, then a second scan whose header names a component that is not
 * in the frame: the parse fails with the first scan queued, its buffers in the frame. */
static void check_failed_then_good(gj_device *dev, const char *name, const uint8_t *good, size_t size)
{
    static const uint8_t bad_sos[] = { 0xFF, 0xDA, 0x00, 0x08, 0x01, 0xEE, 0x00, 0x00, 0x3F, 0x00, 0xFF, 0xD9 };
    uint8_t *broken = malloc(size + sizeof(bad_sos));
    gj_jpeg_decoder *dec = NULL;
    gj_frame out = { .memory = gj_device_memory(dev) }, ref = { .memory = GJ_MEMORY_HOST };

    CHECK(broken && size > 2 && good[size - 2] == 0xFF && good[size - 1] == 0xD9, "%s: no EOI at the end", name);
    CHECK(gj_jpeg_decoder_create(&dec, dev) == 0, "no decoder");
    if (broken && dec && good[size - 1] == 0xD9) {
        memcpy(broken, good, size - 2);
        memcpy(broken + size - 2, bad_sos, sizeof(bad_sos));
        CHECK(gj_jpeg_decode(dec, good, size, &ref) == 0, "%s: decode to the host failed", name);
        out.format = ref.format;
        out.width = ref.width;
        out.height = ref.height;
        CHECK(gj_frame_alloc(&out, dev) == 0, "no device frame");
        CHECK(gj_jpeg_decode(dec, broken, size + sizeof(bad_sos) - 2, &out) < 0,
              "%s: a second scan of a component not in the frame was accepted", name);
        CHECK(gj_jpeg_decode(dec, good, size, &out) == 0, "%s: decode after the failed one failed", name);
        CHECK(device_frame_is(dev, &out, &ref), "%s: the picture after the failed decode differs", name);
    }
    gj_frame_unref(&out);
    gj_frame_unref(&ref);
    gj_jpeg_decoder_free(&dec);
    free(broken);
}

int main(void)
{
    const char *corpus;
    gj_device *dev;

    if (unit_open_with_corpus(&dev, &corpus))
        return 77;
    for (size_t i = 0; i < sizeof(q100_photos) / sizeof(q100_photos[0]); i++) {
        char path[1200];
        size_t size;
        uint8_t *data;

        snprintf(path, sizeof(path), "%s/good/%s.jpg", corpus, q100_photos[i]);
        if (!(data = unit_read_file(path, 0, &size))) {
            CHECK(0, "cannot read %s", path);
            continue;
        }
        check_memory(dev, q100_photos[i], data, size, GJ_PIX_FMT_NONE);
        check_memory(dev, q100_photos[i], data, size, GJ_PIX_FMT_RGB24);
        check_caller_frame(dev, q100_photos[i], data, size, 4096 + 16);
        check_caller_frame(dev, q100_photos[i], data, size, 0);
        check_failed_then_good(dev, q100_photos[i], data, size);
        free(data);
    }
    gj_device_free(&dev);
    printf("%zu photos, %d failures\n", sizeof(q100_photos) / sizeof(q100_photos[0]), failures);
    return failures ? 1 : 0;
}
