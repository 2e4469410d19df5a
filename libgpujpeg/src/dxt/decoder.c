/*
 * The DXT decoder: blocks in host or device memory to an RGB(A) or gray frame
 * in host or device memory, one kernel launch (dxt_decode.h). Host pictures are
 * decoded into a device staging frame, then downloaded.
 */
#include <stdlib.h>
#include <string.h>

#include "device/staging.h"
#include "dxt/dxt_private.h"
#include "log.h"

struct gj_dxt_decoder {
    gj_device *dev;
    gj_buffer params_buf;
    gj_buffer blocks;           /* host blocks, uploaded */
    gj_frame staging;           /* device picture for host-memory output */
    gj_dxt_params params;       /* uploaded asynchronously: lives until the queue ran */
};

int gj_dxt_decoder_create(gj_dxt_decoder **out, gj_device *dev)
{
    gj_dxt_decoder *dec;

    if (!out || !dev)
        return GJ_ERROR_INVAL;
    dec = calloc(1, sizeof(*dec));
    if (!dec)
        return GJ_ERROR_NOMEM;
    dec->dev = dev;
    *out = dec;
    return 0;
}

void gj_dxt_decoder_free(gj_dxt_decoder **pdec)
{
    gj_dxt_decoder *dec;

    if (!pdec || !*pdec)
        return;
    dec = *pdec;
    dec->dev->ops->finish(dec->dev);
    if (dec->params_buf.handle)
        dec->dev->ops->buffer_destroy(dec->dev, &dec->params_buf);
    if (dec->blocks.handle)
        dec->dev->ops->buffer_destroy(dec->dev, &dec->blocks);
    gj_frame_unref(&dec->staging);
    free(dec);
    *pdec = NULL;
}

static int output_layout(enum gj_dxt_format format, enum gj_pixel_format out, gj_dxt_params *p)
{
    p->chan_r = 0;
    p->chan_g = 1;
    p->chan_b = 2;
    p->chan_a = 3;
    switch (out) {
    case GJ_PIX_FMT_BGRA:
        p->chan_r = 2;
        p->chan_b = 0;
        /* fall through */
    case GJ_PIX_FMT_RGBA:
        p->layout = GJ_DXT_OUT_RGBA;
        return 0;
    case GJ_PIX_FMT_RGB24:
        p->layout = GJ_DXT_OUT_RGB24;
        return 0;
    case GJ_PIX_FMT_GRAY8:
        if (format == GJ_DXT_FORMAT_BC4) {
            p->layout = GJ_DXT_OUT_GRAY;
            return 0;
        }
        return gj_fail(GJ_ERROR_INVAL, "DXT decoder: gray output is for bc4 only, not %s",
                       gj_dxt_format_name(format));
    default:
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: the DXT decoder writes rgba, bgra, rgb24 or "
                       "(bc4) gray, not %s",
                       out == GJ_PIX_FMT_NONE ? "untyped frames" : gj_pixel_format_describe(out)->name);
    }
}

static int check_blocks(const gj_dxt_blocks *in)
{
    size_t need;
    int ret;

    if ((ret = gj_dxt_check_format("DXT decoder", in->format)) < 0 ||
        (ret = gj_dxt_check_size("DXT decoder", in->width, in->height)) < 0)
        return ret;
    need = gj_dxt_size(in->format, in->width, in->height);
    if (!in->data)
        return gj_fail(GJ_ERROR_INVAL, "DXT decoder: the blocks have no data");
    if (in->size < need)
        return gj_fail(GJ_ERROR_INVALIDDATA, "DXT decoder: %zu bytes of %s blocks, a %dx%d picture needs %zu",
                       in->size, gj_dxt_format_name(in->format), in->width, in->height, need);
    return 0;
}

/* The blocks as a device buffer: the caller's, or our upload of host blocks. */
static int bind_blocks(gj_dxt_decoder *dec, const gj_dxt_blocks *in, gj_buffer *src, uint64_t *offset)
{
    gj_device *dev = dec->dev;
    size_t size = gj_dxt_size(in->format, in->width, in->height);
    int ret;

    if (in->memory != GJ_MEMORY_HOST) {
        *offset = in->offset;
        return gj_dxt_blocks_buffer(dev, in, src);
    }
    if ((ret = gj_dxt_ensure_buffer(dev, &dec->blocks, size)) < 0 ||
        (ret = dev->ops->upload(dev, &dec->blocks, 0, in->data, size)) < 0)
        return ret;
    *src = dec->blocks;
    *offset = 0;
    return 0;
}

int gj_dxt_decode(gj_dxt_decoder *dec, const gj_dxt_blocks *in, gj_frame *out)
{
    gj_device *dev;
    gj_dxt_params *p;
    gj_frame *target = NULL;
    gj_buffer src, dst;
    uint64_t src_offset, dst_offset;
    int ret;

    if (!dec || !in || !out)
        return GJ_ERROR_INVAL;
    dev = dec->dev;
    p = &dec->params;
    if ((ret = check_blocks(in)) < 0)
        return ret;
    if (out->data[0] && (out->width != in->width || out->height != in->height))
        return gj_fail(GJ_ERROR_INVAL, "DXT decoder: the output frame is %dx%d, the blocks hold %dx%d",
                       out->width, out->height, in->width, in->height);
    /* Queued work may still read the previous parameters. */
    if ((ret = dev->ops->finish(dev)) < 0)
        return ret;
    memset(p, 0, sizeof(*p));
    if ((ret = output_layout(in->format, out->format, p)) < 0 ||
        (ret = bind_blocks(dec, in, &src, &src_offset)) < 0 ||
        (ret = gj_staging_target(dev, &dec->staging, in->width, in->height, out, &target, "DXT decoder")) < 0)
        return ret;
    dst = gj_staging_plane0(target, &dst_offset);
    p->width = (gj_u32)in->width;
    p->height = (gj_u32)in->height;
    p->blocks_w = (p->width + 3) / 4;
    p->blocks_h = (p->height + 3) / 4;
    p->format = (gj_u32)in->format;
    p->pitch[0] = (gj_u32)target->linesize[0];
    gj_dxt_set_offset(&p->offset_lo[0], &p->offset_hi[0], dst_offset);
    gj_dxt_set_offset(&p->blocks_offset_lo, &p->blocks_offset_hi, src_offset);
    if ((ret = gj_dxt_ensure_buffer(dev, &dec->params_buf, sizeof(*p))) < 0 ||
        (ret = dev->ops->upload(dev, &dec->params_buf, 0, p, sizeof(*p))) < 0)
        return ret;
    {
        gj_karg a[] = { GJ_ARG_BUF(&dec->params_buf), GJ_ARG_BUF(&src), GJ_ARG_BUF(&dst) };
        if ((ret = gj_dxt_launch(dev, "gj_dxt_decode", p, a, 3)) < 0)
            return ret;
    }
    if (target != out && (ret = gj_staging_download(dev, target, out, in->width, in->height)) < 0)
        return ret;
    return dev->ops->finish(dev);
}
