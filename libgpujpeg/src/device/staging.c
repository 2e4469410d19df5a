/* Device pictures for single-plane decoders (staging.h). */
#include <string.h>

#include "device/staging.h"
#include "log.h"

int gj_staging_target(gj_device *dev, gj_frame *staging, int w, int h, gj_frame *out,
                      gj_frame **target, const char *who)
{
    enum gj_memory mem = dev->ops->memory;
    int ret;

    if (out->memory == mem) {
        if (!out->data[0]) {
            out->width = w;
            out->height = h;
            if ((ret = gj_frame_alloc(out, dev)) < 0)
                return ret;
        }
        *target = out;
        return 0;
    }
    if (out->memory != GJ_MEMORY_HOST)
        return gj_fail(GJ_ERROR_INVAL, "%s: the output frame is in another device's memory", who);
    if (!staging->opaque_owner || staging->width != w || staging->height != h ||
        staging->format != out->format) {
        gj_frame_unref(staging);
        memset(staging, 0, sizeof(*staging));
        staging->width = w;
        staging->height = h;
        staging->format = out->format;
        staging->memory = mem;
        if ((ret = gj_frame_alloc(staging, dev)) < 0)
            return ret;
    }
    *target = staging;
    return 0;
}

gj_buffer gj_staging_plane0(const gj_frame *f, uint64_t *offset)
{
    gj_buffer b;

    *offset = f->memory == GJ_MEMORY_OPENCL ? f->offset[0] : 0;
    b.handle = (uintptr_t)f->data[0];
    b.size = *offset + (size_t)f->linesize[0] * (size_t)f->height;
    return b;
}

int gj_staging_download(gj_device *dev, const gj_frame *target, gj_frame *out, int w, int h)
{
    size_t row = (size_t)w * (size_t)gj_pixel_format_describe(out->format)->bytes_per_pixel;
    uint64_t offset;
    gj_buffer src = gj_staging_plane0(target, &offset);
    int ret;

    if (!out->data[0]) {
        out->width = w;
        out->height = h;
        if ((ret = gj_frame_alloc(out, NULL)) < 0)
            return ret;
    }
    return dev->ops->download_2d(dev, out->data[0], (size_t)out->linesize[0], &src, offset,
                                 (size_t)target->linesize[0], row, (size_t)h);
}
