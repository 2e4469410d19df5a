/* av-compatible frames: pixel format table and plane allocation in host or device memory. */
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "gpujpeg/frame.h"
#include "log.h"

/* Rows start on this boundary so kernels and SIMD copies see aligned rows, as FFmpeg's do. */
#define LINESIZE_ALIGN 64

#define DEEP_YUV(bits)                                                                   \
    [GJ_PIX_FMT_YUV420P##bits] = { "yuv420p" #bits "le", 3, 1, 1, 2, bits },               \
    [GJ_PIX_FMT_YUV422P##bits] = { "yuv422p" #bits "le", 3, 1, 0, 2, bits },               \
    [GJ_PIX_FMT_YUV444P##bits] = { "yuv444p" #bits "le", 3, 0, 0, 2, bits }

#define YUVA(bits, bytes, id, suffix)                                                          \
    [GJ_PIX_FMT_YUVA420P##id] = { "yuva420p" suffix, 4, 1, 1, bytes, bits },                      \
    [GJ_PIX_FMT_YUVA422P##id] = { "yuva422p" suffix, 4, 1, 0, bytes, bits },                      \
    [GJ_PIX_FMT_YUVA444P##id] = { "yuva444p" suffix, 4, 0, 0, bytes, bits }

static const gj_pixel_format_desc format_descs[GJ_PIX_FMT_NB] = {
    [GJ_PIX_FMT_GRAY8]    = { "gray",     1, 0, 0, 1, 8 },
    [GJ_PIX_FMT_YUVJ420P] = { "yuvj420p", 3, 1, 1, 1, 8 },
    [GJ_PIX_FMT_YUVJ422P] = { "yuvj422p", 3, 1, 0, 1, 8 },
    [GJ_PIX_FMT_YUVJ444P] = { "yuvj444p", 3, 0, 0, 1, 8 },
    [GJ_PIX_FMT_YUVJ440P] = { "yuvj440p", 3, 0, 1, 1, 8 },
    [GJ_PIX_FMT_YUVJ411P] = { "yuvj411p", 3, 2, 0, 1, 8 },
    [GJ_PIX_FMT_RGB24]    = { "rgb24",    1, 0, 0, 3, 8 },
    [GJ_PIX_FMT_RGBA]     = { "rgba",     1, 0, 0, 4, 8 },
    [GJ_PIX_FMT_BGRA]     = { "bgra",     1, 0, 0, 4, 8 },
    [GJ_PIX_FMT_GBRP]     = { "gbrp",     3, 0, 0, 1, 8 },
    [GJ_PIX_FMT_GRAY16]   = { "gray16le", 1, 0, 0, 2, 16 },
    [GJ_PIX_FMT_RGB48]    = { "rgb48le",  1, 0, 0, 6, 16 },
    [GJ_PIX_FMT_YUV410P]  = { "yuv410p",  3, 2, 2, 1, 8 },
    DEEP_YUV(9), DEEP_YUV(10), DEEP_YUV(12), DEEP_YUV(14), DEEP_YUV(16),
    [GJ_PIX_FMT_YA8]      = { "ya8",      1, 0, 0, 2, 8 },
    [GJ_PIX_FMT_YA16]     = { "ya16le",   1, 0, 0, 4, 16 },
    [GJ_PIX_FMT_RGBA64]   = { "rgba64le", 1, 0, 0, 8, 16 },
    YUVA(8, 1, , ""), YUVA(9, 2, 9, "9le"), YUVA(10, 2, 10, "10le"), YUVA(16, 2, 16, "16le"),
};

/* Owner of planes the library allocated. */
typedef struct frame_owner {
    gj_device *dev;     /* NULL for host memory from malloc */
    gj_buffer buffer;
    void *host;         /* host planes: page-locked memory of dev when dev is set */
} frame_owner;

const gj_pixel_format_desc *gj_pixel_format_describe(enum gj_pixel_format format)
{
    static const gj_pixel_format_desc none = { "none", 0, 0, 0, 0, 0 };

    if (format < 0 || format >= GJ_PIX_FMT_NB)
        return &none;
    return &format_descs[format];
}

enum gj_pixel_format gj_pixel_format_from_name(const char *name)
{
    int i;

    for (i = 0; i < GJ_PIX_FMT_NB; i++)
        if (name && !strcmp(format_descs[i].name, name))
            return (enum gj_pixel_format)i;
    return GJ_PIX_FMT_NONE;
}

/* Chroma planes round up, like FFmpeg's AV_CEIL_RSHIFT. */
int gj_frame_plane_width(enum gj_pixel_format format, int plane, int width)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(format);

    if (plane < 0 || plane >= d->nb_planes)
        return 0;
    /* plane 3: a YUVA format's alpha, full size */
    if (plane == 0 || plane == 3 || d->nb_planes < 3 || format == GJ_PIX_FMT_GBRP)
        return width;
    return -((-width) >> d->log2_chroma_w);
}

int gj_frame_plane_height(enum gj_pixel_format format, int plane, int height)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(format);

    if (plane < 0 || plane >= d->nb_planes)
        return 0;
    if (plane == 0 || plane == 3 || d->nb_planes < 3 || format == GJ_PIX_FMT_GBRP)
        return height;
    return -((-height) >> d->log2_chroma_h);
}

/* A planar format's samples are one size in every plane: bytes_per_pixel's. */
size_t gj_frame_plane_row_bytes(enum gj_pixel_format format, int plane, int width)
{
    return (size_t)gj_frame_plane_width(format, plane, width) *
           (size_t)gj_pixel_format_describe(format)->bytes_per_pixel;
}

/* Fills linesize and offset for a packed allocation; returns the total size. */
static size_t layout_planes(gj_frame *frame)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(frame->format);
    size_t total = 0;
    int i;

    for (i = 0; i < 4; i++) {
        frame->linesize[i] = 0;
        frame->offset[i] = 0;
    }
    for (i = 0; i < d->nb_planes; i++) {
        size_t row = gj_frame_plane_row_bytes(frame->format, i, frame->width);
        row = (row + LINESIZE_ALIGN - 1) & ~(size_t)(LINESIZE_ALIGN - 1);
        frame->linesize[i] = (int)row;
        frame->offset[i] = total;
        total += row * (size_t)gj_frame_plane_height(frame->format, i, frame->height);
    }
    return total;
}

int gj_frame_alloc(gj_frame *frame, gj_device *dev)
{
    const gj_pixel_format_desc *d;
    frame_owner *owner;
    size_t size;
    int i, ret;

    if (!frame)
        return GJ_ERROR_INVAL;
    d = gj_pixel_format_describe(frame->format);
    if (!d->nb_planes || frame->width <= 0 || frame->height <= 0 ||
        frame->width > 65535 * 4 || frame->height > 65535 * 4)
        return gj_fail(GJ_ERROR_INVAL, "cannot allocate a %dx%d %s frame",
                       frame->width, frame->height, d->name);
    if (frame->memory != GJ_MEMORY_HOST && (!dev || dev->ops->memory != frame->memory))
        return gj_fail(GJ_ERROR_INVAL, "frame memory type does not match the device");

    owner = calloc(1, sizeof(*owner));
    if (!owner)
        return GJ_ERROR_NOMEM;
    size = layout_planes(frame);
    if (frame->memory == GJ_MEMORY_HOST) {
        /* With a device: page-locked memory, which its copies reach at the bus's speed. */
        if (dev ? !(owner->host = dev->ops->host_alloc(dev, size)) : posix_memalign(&owner->host, LINESIZE_ALIGN, size)) {
            free(owner);
            return gj_fail(GJ_ERROR_NOMEM, "out of host memory for a %zu-byte frame", size);
        }
        owner->dev = dev;
        for (i = 0; i < d->nb_planes; i++)
            frame->data[i] = (uint8_t *)owner->host + frame->offset[i];
        for (i = 0; i < 4; i++)
            frame->offset[i] = 0;
    } else {
        ret = dev->ops->buffer_create(dev, size, &owner->buffer);
        if (ret < 0) {
            free(owner);
            return ret;
        }
        owner->dev = dev;
        for (i = 0; i < d->nb_planes; i++) {
            if (frame->memory == GJ_MEMORY_CUDA) {
                frame->data[i] = (uint8_t *)(owner->buffer.handle + frame->offset[i]);
                frame->offset[i] = 0;
            } else {
                frame->data[i] = (uint8_t *)owner->buffer.handle;
            }
        }
    }
    for (i = d->nb_planes; i < 4; i++)
        frame->data[i] = NULL;
    frame->opaque_owner = owner;
    return 0;
}

void gj_frame_unref(gj_frame *frame)
{
    frame_owner *owner;
    int i;

    if (!frame)
        return;
    owner = frame->opaque_owner;
    if (owner) {
        if (owner->dev && owner->host)
            owner->dev->ops->host_free(owner->dev, owner->host);
        else if (owner->dev)
            owner->dev->ops->buffer_destroy(owner->dev, &owner->buffer);
        else
            free(owner->host);
        free(owner);
    }
    for (i = 0; i < 4; i++) {
        frame->data[i] = NULL;
        frame->linesize[i] = 0;
        frame->offset[i] = 0;
    }
    frame->opaque_owner = NULL;
}
