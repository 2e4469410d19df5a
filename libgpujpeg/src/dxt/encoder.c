/*
 * The DXT encoder: frames in host or device memory, one kernel launch per
 * picture (dxt_encode.h: read, convert, fit, pack), blocks to host or device
 * memory. Device buffers and the staging copy of host frames are kept across
 * calls and grow when a frame needs more.
 */
#include <stdlib.h>
#include <string.h>

#include "dxt/dxt_private.h"
#include "kernels/dxt_color_fit.h"
#include "log.h"

struct gj_dxt_encoder {
    gj_device *dev;
    gj_buffer params_buf;
    gj_buffer input;            /* host frames, uploaded */
    gj_buffer blocks;           /* blocks on their way to host memory */
    uint8_t *host_input;        /* page-locked packed copy of a host frame */
    size_t host_input_size;
    gj_dxt_params params;       /* uploaded asynchronously: lives until the queue ran */
    gj_u16 flat_pairs[2][256];  /* the kernels' table for flat blocks, made once */
};

/* One kernel per format and quality (kernels/dxt_encode.h). */
static const char *const kernels[GJ_DXT_FORMAT_NB][GJ_DXT_QUALITY_NB] = {
    { "gj_dxt_encode_bc1_fast", "gj_dxt_encode_bc1_balanced", "gj_dxt_encode_bc1_high" },
    { "gj_dxt_encode_bc3_fast", "gj_dxt_encode_bc3_balanced", "gj_dxt_encode_bc3_high" },
    { "gj_dxt_encode_ycocg_fast", "gj_dxt_encode_ycocg_balanced", "gj_dxt_encode_ycocg_high" },
    { "gj_dxt_encode_bc4_fast", "gj_dxt_encode_bc4_balanced", "gj_dxt_encode_bc4_high" },
};

int gj_dxt_encoder_create(gj_dxt_encoder **out, gj_device *dev)
{
    gj_dxt_encoder *enc;

    if (!out || !dev)
        return GJ_ERROR_INVAL;
    enc = calloc(1, sizeof(*enc));
    if (!enc)
        return GJ_ERROR_NOMEM;
    enc->dev = dev;
    gj_dxt_fill_flat_pairs(&enc->flat_pairs[0][0]);
    *out = enc;
    return 0;
}

void gj_dxt_encoder_free(gj_dxt_encoder **penc)
{
    gj_dxt_encoder *enc;
    gj_device *dev;

    if (!penc || !*penc)
        return;
    enc = *penc;
    dev = enc->dev;
    dev->ops->finish(dev);
    if (enc->params_buf.handle)
        dev->ops->buffer_destroy(dev, &enc->params_buf);
    if (enc->input.handle)
        dev->ops->buffer_destroy(dev, &enc->input);
    if (enc->blocks.handle)
        dev->ops->buffer_destroy(dev, &enc->blocks);
    if (enc->host_input)
        dev->ops->host_free(dev, enc->host_input);
    free(enc);
    *penc = NULL;
}

/* The kernel's reading rules for the input format; unsupported formats fail here. */
static int input_layout(enum gj_pixel_format format, gj_dxt_params *p)
{
    p->chan_r = 0;
    p->chan_g = 1;
    p->chan_b = 2;
    p->chan_a = 3;
    switch (format) {
    case GJ_PIX_FMT_BGRA:
        p->chan_r = 2;
        p->chan_b = 0;
        /* fall through */
    case GJ_PIX_FMT_RGBA:
        p->layout = GJ_DXT_IN_RGBA;
        return 0;
    case GJ_PIX_FMT_RGB24:
        p->layout = GJ_DXT_IN_RGB24;
        return 0;
    case GJ_PIX_FMT_GRAY8:
        p->layout = GJ_DXT_IN_GRAY;
        return 0;
    case GJ_PIX_FMT_YUVJ420P:
    case GJ_PIX_FMT_YUVJ422P:
    case GJ_PIX_FMT_YUVJ444P:
        p->layout = GJ_DXT_IN_YUV;
        p->log2_chroma_w = (gj_u32)gj_pixel_format_describe(format)->log2_chroma_w;
        p->log2_chroma_h = (gj_u32)gj_pixel_format_describe(format)->log2_chroma_h;
        return 0;
    default:
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: the DXT encoder cannot read %s frames (it takes "
                       "rgba, bgra, rgb24, gray, yuvj420p, yuvj422p, yuvj444p)",
                       format == GJ_PIX_FMT_NONE ? "untyped" : gj_pixel_format_describe(format)->name);
    }
}

/* Host frame: its planes packed row after row into one upload. */
static int bind_host_input(gj_dxt_encoder *enc, const gj_frame *in, int nb_planes, gj_dxt_params *p,
                           gj_karg *planes)
{
    gj_device *dev = enc->dev;
    size_t total = 0, pos = 0;
    int i, y, ret;

    for (i = 0; i < nb_planes; i++)
        total += gj_frame_plane_row_bytes(in->format, i, in->width) *
                 (size_t)gj_frame_plane_height(in->format, i, in->height);
    if (total > enc->host_input_size) {
        if (enc->host_input)
            dev->ops->host_free(dev, enc->host_input);
        enc->host_input_size = 0;
        if (!(enc->host_input = dev->ops->host_alloc(dev, total)))
            return gj_fail(GJ_ERROR_NOMEM, "out of host memory for a %zu-byte staging copy", total);
        enc->host_input_size = total;
    }
    /* The previous frame's upload may still read the staging copy. */
    if ((ret = dev->ops->finish(dev)) < 0 || (ret = gj_dxt_ensure_buffer(dev, &enc->input, total)) < 0)
        return ret;
    for (i = 0; i < nb_planes; i++) {
        size_t row = gj_frame_plane_row_bytes(in->format, i, in->width);
        int rows = gj_frame_plane_height(in->format, i, in->height);
        if (in->linesize[i] < 0 || (size_t)in->linesize[i] < row)
            return gj_fail(GJ_ERROR_INVAL, "DXT encoder: plane %d's linesize %d is below its %zu-byte rows",
                           i, in->linesize[i], row);
        p->pitch[i] = (gj_u32)row;
        gj_dxt_set_offset(&p->offset_lo[i], &p->offset_hi[i], pos);
        for (y = 0; y < rows; y++, pos += row)
            memcpy(enc->host_input + pos, in->data[i] + (size_t)y * (size_t)in->linesize[i], row);
        planes[i] = GJ_ARG_BUF(&enc->input);
    }
    p->word_aligned = 1;   /* packed rows of 4-byte pixels from offset 0 */
    return dev->ops->upload(dev, &enc->input, 0, enc->host_input, total);
}

/* Device frame: the kernel reads its planes where they are. */
static int bind_device_input(gj_dxt_encoder *enc, const gj_frame *in, int nb_planes, gj_dxt_params *p,
                             gj_karg *planes)
{
    int i;

    if (in->memory != enc->dev->ops->memory)
        return gj_fail(GJ_ERROR_INVAL, "DXT encoder: the input frame is in another device's memory");
    p->word_aligned = 1;
    for (i = 0; i < nb_planes; i++) {
        gj_buffer b = { (uintptr_t)in->data[i], 0 };
        size_t offset = in->memory == GJ_MEMORY_OPENCL ? in->offset[i] : 0;
        size_t row = gj_frame_plane_row_bytes(in->format, i, in->width);
        if (in->linesize[i] < 0 || (size_t)in->linesize[i] < row)
            return gj_fail(GJ_ERROR_INVAL, "DXT encoder: plane %d's linesize %d is below its %zu-byte rows",
                           i, in->linesize[i], row);
        p->pitch[i] = (gj_u32)in->linesize[i];
        gj_dxt_set_offset(&p->offset_lo[i], &p->offset_hi[i], offset);
        if (i == 0 && (offset % 4 || in->linesize[0] % 4 || (in->memory == GJ_MEMORY_CUDA && b.handle % 4)))
            p->word_aligned = 0;
        planes[i] = GJ_ARG_BUF(&b);
    }
    return 0;
}

static int check_input(const gj_frame *in, enum gj_dxt_format format, enum gj_dxt_quality quality)
{
    const gj_pixel_format_desc *d;
    int i, ret;

    if ((ret = gj_dxt_check_format("DXT encoder", format)) < 0)
        return ret;
    if ((unsigned)quality >= GJ_DXT_QUALITY_NB)
        return gj_fail(GJ_ERROR_INVAL, "DXT encoder: unknown quality %d (fast, balanced, high)", (int)quality);
    if ((ret = gj_dxt_check_size("DXT encoder", in->width, in->height)) < 0)
        return ret;
    d = gj_pixel_format_describe(in->format);
    for (i = 0; i < d->nb_planes; i++)
        if (!in->data[i])
            return gj_fail(GJ_ERROR_INVAL, "DXT encoder: the %s input frame has no plane %d", d->name, i);
    return 0;
}

/* Where the kernel writes: the caller's device blocks, or our buffer for a download. */
static int bind_output(gj_dxt_encoder *enc, gj_dxt_blocks *out, gj_buffer *dst, uint64_t *dst_offset)
{
    gj_device *dev = enc->dev;
    size_t size = out->size;
    int ret;

    if (out->memory != GJ_MEMORY_HOST && out->memory != dev->ops->memory)
        return gj_fail(GJ_ERROR_INVAL, "DXT encoder: output blocks in another device's memory");
    if (out->data && out->size < gj_dxt_size(out->format, out->width, out->height))
        return gj_fail(GJ_ERROR_INVAL, "DXT encoder: the output holds %zu bytes, the blocks need %zu",
                       out->size, gj_dxt_size(out->format, out->width, out->height));
    out->size = gj_dxt_size(out->format, out->width, out->height);
    /* host blocks in ordinary memory: they may outlive the device (gj_dxt_blocks_alloc) */
    if (!out->data && (ret = gj_dxt_blocks_alloc(out, out->memory == GJ_MEMORY_HOST ? NULL : dev)) < 0) {
        out->size = size;
        return ret;
    }
    if (out->memory == GJ_MEMORY_HOST) {
        *dst_offset = 0;
        if ((ret = gj_dxt_ensure_buffer(dev, &enc->blocks, out->size)) < 0)
            return ret;
        *dst = enc->blocks;
        return 0;
    }
    *dst_offset = out->offset;
    return gj_dxt_blocks_buffer(dev, out, dst);
}

/*
 * The parameters live in a device buffer read by every launch. A stream of frames
 * of one shape keeps them, so device-to-device encodes queue only the kernel;
 * new ones wait for queued work that may still read the old ones.
 */
static int upload_params(gj_dxt_encoder *enc, const gj_dxt_params *p)
{
    gj_device *dev = enc->dev;
    int ret;

    if (enc->params_buf.handle && !memcmp(p, &enc->params, sizeof(*p)))
        return 0;
    if ((ret = dev->ops->finish(dev)) < 0 || (ret = gj_dxt_ensure_buffer(dev, &enc->params_buf, sizeof(*p))) < 0)
        return ret;
    enc->params = *p;
    if ((ret = dev->ops->upload(dev, &enc->params_buf, 0, &enc->params, sizeof(*p))) < 0)
        memset(&enc->params, 0, sizeof(enc->params));
    return ret;
}

int gj_dxt_encode_async(gj_dxt_encoder *enc, const gj_frame *in, enum gj_dxt_format format,
                        enum gj_dxt_quality quality, gj_dxt_blocks *out)
{
    gj_device *dev;
    gj_dxt_params params, *p = &params;
    gj_karg args[5];
    gj_buffer dst;
    uint64_t dst_offset = 0;
    int nb_planes, i, ret;

    if (!enc || !in || !out)
        return GJ_ERROR_INVAL;
    dev = enc->dev;
    if ((ret = check_input(in, format, quality)) < 0)
        return ret;
    memset(p, 0, sizeof(*p));
    if ((ret = input_layout(in->format, p)) < 0)
        return ret;
    nb_planes = gj_pixel_format_describe(in->format)->nb_planes;
    out->format = format;
    out->width = in->width;
    out->height = in->height;
    if ((ret = bind_output(enc, out, &dst, &dst_offset)) < 0)
        return ret;
    ret = in->memory == GJ_MEMORY_HOST ? bind_host_input(enc, in, nb_planes, p, args + 1)
                                       : bind_device_input(enc, in, nb_planes, p, args + 1);
    if (ret < 0)
        return ret;
    for (i = nb_planes; i < 3; i++)
        args[1 + i] = args[1];      /* planes the format lacks: never read */
    p->width = (gj_u32)in->width;
    p->height = (gj_u32)in->height;
    p->blocks_w = (p->width + 3) / 4;
    p->blocks_h = (p->height + 3) / 4;
    p->format = (gj_u32)format;
    memcpy(p->flat_pairs, enc->flat_pairs, sizeof(p->flat_pairs));
    gj_dxt_set_offset(&p->blocks_offset_lo, &p->blocks_offset_hi, dst_offset);
    if ((ret = upload_params(enc, p)) < 0)
        return ret;
    args[0] = GJ_ARG_BUF(&enc->params_buf);
    args[4] = GJ_ARG_BUF(&dst);
    if ((ret = gj_dxt_launch(dev, kernels[format][quality], p, args, 5)) < 0)
        return ret;
    if (out->memory != GJ_MEMORY_HOST)
        return 0;   /* queued on the device's stream: later work there sees the blocks */
    return dev->ops->download(dev, out->data, &enc->blocks, 0, out->size);
}

int gj_dxt_encode(gj_dxt_encoder *enc, const gj_frame *in, enum gj_dxt_format format,
                  enum gj_dxt_quality quality, gj_dxt_blocks *out)
{
    int ret = gj_dxt_encode_async(enc, in, format, quality, out);

    if (ret < 0 || out->memory != GJ_MEMORY_HOST)
        return ret;
    return enc->dev->ops->finish(enc->dev);
}
