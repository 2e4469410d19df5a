/* DXT formats and qualities by name, block sizes, and block storage. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dxt/dxt_private.h"
#include "log.h"

/* The public enums are the kernels' constants. */
_Static_assert(GJ_DXT_FORMAT_BC1 == GJ_DXT_BC1 && GJ_DXT_FORMAT_BC3 == GJ_DXT_BC3 &&
               GJ_DXT_FORMAT_YCOCG == GJ_DXT_YCOCG && GJ_DXT_FORMAT_BC4 == GJ_DXT_BC4, "format values");
_Static_assert(GJ_DXT_QUALITY_FAST == GJ_DXT_FAST && GJ_DXT_QUALITY_BALANCED == GJ_DXT_BALANCED &&
               GJ_DXT_QUALITY_HIGH == GJ_DXT_HIGH, "quality values");

static const char *const format_names[GJ_DXT_FORMAT_NB] = { "bc1", "bc3", "ycocg", "bc4" };
static const char *const quality_names[GJ_DXT_QUALITY_NB] = { "fast", "balanced", "high" };

const char *gj_dxt_format_name(enum gj_dxt_format format)
{
    return (unsigned)format < GJ_DXT_FORMAT_NB ? format_names[format] : NULL;
}

const char *gj_dxt_quality_name(enum gj_dxt_quality quality)
{
    return (unsigned)quality < GJ_DXT_QUALITY_NB ? quality_names[quality] : NULL;
}

int gj_dxt_format_from_name(const char *name, enum gj_dxt_format *format)
{
    int i;

    if (!name || !format)
        return GJ_ERROR_INVAL;
    for (i = 0; i < GJ_DXT_FORMAT_NB; i++) {
        if (!strcasecmp(name, format_names[i])) {
            *format = (enum gj_dxt_format)i;
            return 0;
        }
    }
    if (!strcasecmp(name, "dxt1") || !strcasecmp(name, "dxt5")) {
        *format = name[3] == '1' ? GJ_DXT_FORMAT_BC1 : GJ_DXT_FORMAT_BC3;
        return 0;
    }
    return GJ_ERROR_INVAL;
}

int gj_dxt_quality_from_name(const char *name, enum gj_dxt_quality *quality)
{
    int i;

    if (!name || !quality)
        return GJ_ERROR_INVAL;
    for (i = 0; i < GJ_DXT_QUALITY_NB; i++) {
        if (!strcasecmp(name, quality_names[i])) {
            *quality = (enum gj_dxt_quality)i;
            return 0;
        }
    }
    return GJ_ERROR_INVAL;
}

size_t gj_dxt_size(enum gj_dxt_format format, int width, int height)
{
    if ((unsigned)format >= GJ_DXT_FORMAT_NB || width <= 0 || height <= 0 ||
        width > GJ_DXT_MAX_SIDE || height > GJ_DXT_MAX_SIDE)
        return 0;
    return (size_t)((width + 3) / 4) * (size_t)((height + 3) / 4) * GJ_DXT_BLOCK_BYTES((unsigned)format);
}

int gj_dxt_check_size(const char *what, int width, int height)
{
    if (width <= 0 || height <= 0)
        return gj_fail(GJ_ERROR_INVAL, "%s: the picture is %dx%d: width and height must be at least 1",
                       what, width, height);
    if (width > GJ_DXT_MAX_SIDE || height > GJ_DXT_MAX_SIDE)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %s: %dx%d exceeds %d pixels a side",
                       what, width, height, GJ_DXT_MAX_SIDE);
    return 0;
}

int gj_dxt_check_format(const char *what, enum gj_dxt_format format)
{
    if ((unsigned)format >= GJ_DXT_FORMAT_NB)
        return gj_fail(GJ_ERROR_INVAL, "%s: unknown DXT format %d (bc1, bc3, ycocg, bc4)", what, (int)format);
    return 0;
}

int gj_dxt_ensure_buffer(gj_device *dev, gj_buffer *buf, size_t size)
{
    return gj_dev_ensure_buffer(dev, buf, size);
}

int gj_dxt_launch(gj_device *dev, const char *kernel, const gj_dxt_params *p, const gj_karg *args, int nargs)
{
    size_t blocks = (size_t)p->blocks_w * p->blocks_h;

    return gj_dev_launch(dev, kernel, (blocks + GJ_DXT_GROUP - 1) / GJ_DXT_GROUP, GJ_DXT_GROUP, args, nargs);
}

/* ------------------------------------------------------------------ block storage */

typedef struct blocks_owner {
    gj_device *dev;         /* device memory, or page-locked host memory: their device */
    gj_buffer buffer;
    void *host;
} blocks_owner;

int gj_dxt_blocks_buffer(gj_device *dev, const gj_dxt_blocks *b, gj_buffer *buf)
{
    if (b->memory != dev->ops->memory)
        return gj_fail(GJ_ERROR_INVAL, "DXT blocks are in another memory than the device's");
    if (!b->data)
        return gj_fail(GJ_ERROR_INVAL, "DXT blocks have no data");
    if (b->offset % 4)
        return gj_fail(GJ_ERROR_INVAL, "DXT blocks at offset %zu: device blocks must start at a multiple "
                       "of 4 bytes", b->offset);
    buf->handle = (uintptr_t)b->data;
    buf->size = b->offset + b->size;
    if (b->memory == GJ_MEMORY_CUDA && buf->handle % 4)
        return gj_fail(GJ_ERROR_INVAL, "DXT blocks: the CUDA pointer is not 4-byte aligned");
    return 0;
}

int gj_dxt_blocks_alloc(gj_dxt_blocks *b, gj_device *dev)
{
    blocks_owner *owner;
    int ret;

    if (!b)
        return GJ_ERROR_INVAL;
    if (!b->size && !(b->size = gj_dxt_size(b->format, b->width, b->height)))
        return gj_fail(GJ_ERROR_INVAL, "DXT blocks: no size, and no format and picture size to take it from");
    if (!(owner = calloc(1, sizeof(*owner))))
        return GJ_ERROR_NOMEM;
    b->offset = 0;
    if (b->memory == GJ_MEMORY_HOST) {
        /* With a device: page-locked memory, which its downloads reach at the bus's speed. */
        owner->host = dev ? dev->ops->host_alloc(dev, b->size ? b->size : 1) : malloc(b->size ? b->size : 1);
        owner->dev = dev;
        if (!owner->host) {
            free(owner);
            return gj_fail(GJ_ERROR_NOMEM, "out of host memory for %zu bytes of DXT blocks", b->size);
        }
        b->data = owner->host;
    } else {
        if (!dev || dev->ops->memory != b->memory) {
            free(owner);
            return gj_fail(GJ_ERROR_INVAL, "DXT blocks: memory type does not match the device");
        }
        if ((ret = dev->ops->buffer_create(dev, b->size, &owner->buffer)) < 0) {
            free(owner);
            return ret;
        }
        owner->dev = dev;
        b->data = (uint8_t *)owner->buffer.handle;
    }
    b->opaque_owner = owner;
    return 0;
}

void gj_dxt_blocks_unref(gj_dxt_blocks *b)
{
    blocks_owner *owner;

    if (!b)
        return;
    owner = b->opaque_owner;
    if (owner) {
        if (owner->host && owner->dev)
            owner->dev->ops->host_free(owner->dev, owner->host);
        else if (owner->dev)
            owner->dev->ops->buffer_destroy(owner->dev, &owner->buffer);
        else
            free(owner->host);
        free(owner);
    }
    b->data = NULL;
    b->offset = 0;
    b->size = 0;
    b->opaque_owner = NULL;
}
