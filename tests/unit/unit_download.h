/* Reading a device frame back in the unit tests (through the backend layer). */
#ifndef GJ_TESTS_UNIT_DOWNLOAD_H
#define GJ_TESTS_UNIT_DOWNLOAD_H

#include "gpujpeg/gpujpeg.h"
#include "device/device.h"

/* Copies a device frame's picture into a new host frame of the same shape. */
static inline int unit_download(gj_device *dev, const gj_frame *src, gj_frame *dst)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(src->format);
    int ret;

    *dst = (gj_frame){ .width = src->width, .height = src->height, .format = src->format, .memory = GJ_MEMORY_HOST };
    if ((ret = gj_frame_alloc(dst, NULL)) < 0)
        return ret;
    for (int p = 0; p < d->nb_planes; p++) {
        size_t rows = (size_t)gj_frame_plane_height(src->format, p, src->height);
        size_t offset = src->memory == GJ_MEMORY_OPENCL ? src->offset[p] : 0;
        gj_buffer buf = { .handle = (uintptr_t)src->data[p], .size = offset + (size_t)src->linesize[p] * rows };
        if ((ret = dev->ops->download_2d(dev, dst->data[p], (size_t)dst->linesize[p], &buf, offset,
                                         (size_t)src->linesize[p],
                                         gj_frame_plane_row_bytes(src->format, p, src->width),
                                         rows)) < 0)
            return ret;
    }
    return gj_device_synchronize(dev);
}

#endif /* GJ_TESTS_UNIT_DOWNLOAD_H */
