/* Device pictures for decoders: the caller's frame or a staging frame (staging.h). */
#include <string.h>

#include "device/staging.h"
#include "log.h"

int gj_staging_ensure(gj_device *dev, gj_frame *staging, int w, int h, enum gj_pixel_format format)
{
    if (staging->opaque_owner && staging->width == w && staging->height == h && staging->format == format)
        return 0;
    gj_frame_unref(staging);
    memset(staging, 0, sizeof(*staging));
    staging->width = w;
    staging->height = h;
    staging->format = format;
    staging->memory = dev->ops->memory;
    return gj_frame_alloc(staging, dev);
}

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
    if ((ret = gj_staging_ensure(dev, staging, w, h, out->format)) < 0)
        return ret;
    *target = staging;
    return 0;
}

gj_buffer gj_staging_plane(const gj_frame *f, int i, uint64_t *offset)
{
    gj_buffer b;

    *offset = f->memory == GJ_MEMORY_OPENCL ? f->offset[i] : 0;
    b.handle = (uintptr_t)f->data[i];
    b.size = *offset + (size_t)f->linesize[i] * (size_t)gj_frame_plane_height(f->format, i, f->height);
    return b;
}

gj_buffer gj_staging_plane0(const gj_frame *f, uint64_t *offset)
{
    return gj_staging_plane(f, 0, offset);
}

/* Plane a's rows end where plane b's begin (gj_staging_plane()'s sizes end with the
 * rows): OpenCL planes share a buffer at offsets, CUDA planes are addresses. */
static int planes_abut(const gj_frame *f, const gj_buffer *a, const gj_buffer *b, uint64_t b_offset)
{
    if (f->memory == GJ_MEMORY_OPENCL)
        return a->handle == b->handle && b_offset == a->size;
    return b->handle == a->handle + a->size;
}

size_t gj_staging_contiguous(const gj_frame *f, gj_buffer *buf, uint64_t *offset)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(f->format);
    gj_buffer run = { 0, 0 }, prev = { 0, 0 };
    uint64_t run_offset = 0;
    size_t best = 0;

    buf->handle = 0;
    buf->size = 0;
    *offset = 0;
    for (int p = 0; p < d->nb_planes; p++) {
        uint64_t at;
        gj_buffer plane = gj_staging_plane(f, p, &at);

        if (!plane.handle || f->linesize[p] <= 0) {
            run.handle = 0;
            continue;
        }
        if (run.handle && planes_abut(f, &prev, &plane, at)) {
            run.size = f->memory == GJ_MEMORY_OPENCL ? plane.size : plane.handle + plane.size - run.handle;
        } else {
            run = plane;
            run_offset = at;
        }
        prev = plane;
        if (run.size - run_offset > best) {
            best = run.size - run_offset;
            *buf = run;
            *offset = run_offset;
        }
    }
    return best;
}

int gj_staging_download(gj_device *dev, const gj_frame *target, gj_frame *out, int w, int h)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(out->format);
    int ret;

    if (!out->data[0]) {
        out->width = w;
        out->height = h;
        if ((ret = gj_frame_alloc(out, NULL)) < 0)
            return ret;
    }
    for (int p = 0; p < d->nb_planes; p++) {
        size_t row = gj_frame_plane_row_bytes(out->format, p, w);
        uint64_t offset;
        gj_buffer src = gj_staging_plane(target, p, &offset);

        if ((ret = dev->ops->download_2d(dev, out->data[p], (size_t)out->linesize[p], &src, offset,
                                         (size_t)target->linesize[p], row,
                                         (size_t)gj_frame_plane_height(out->format, p, h))) < 0)
            return ret;
    }
    return 0;
}

int gj_staging_copy(gj_device *dev, const gj_frame *src, const gj_frame *dst)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(dst->format);
    int ret;

    for (int p = 0; p < d->nb_planes; p++) {
        size_t row = gj_frame_plane_row_bytes(dst->format, p, dst->width);
        uint64_t src_offset, dst_offset;
        gj_buffer from = gj_staging_plane(src, p, &src_offset), to = gj_staging_plane(dst, p, &dst_offset);

        if ((ret = dev->ops->copy_2d(dev, &to, dst_offset, (size_t)dst->linesize[p], &from, src_offset,
                                     (size_t)src->linesize[p], row,
                                     (size_t)gj_frame_plane_height(dst->format, p, dst->height))) < 0)
            return ret;
    }
    return 0;
}
