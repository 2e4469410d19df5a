/* Pixels on the GPU: dequantisation + IDCT, upsampling and colour conversion. */
#include <string.h>

#include "device/staging.h"
#include "jpeg/decoder_private.h"
#include "log.h"

/* libjpeg-turbo's upsampling choice for one component (jdsample.c jinit_upsampler). */
int gj_jpeg_upsample_method(const gj_jpeg_stream *s, int c, uint32_t *fx, uint32_t *fy)
{
    const gj_jpeg_component *comp = &s->comp[c];

    if (s->hmax % comp->h || s->vmax % comp->v)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: fractional sampling (component %d is %dx%d, "
                       "maximum %dx%d) cannot be converted to RGB", comp->id, comp->h, comp->v, s->hmax, s->vmax);
    *fx = (uint32_t)(s->hmax / comp->h);
    *fy = (uint32_t)(s->vmax / comp->v);
    if (*fx == 1 && *fy == 1)
        return GJ_UPSAMPLE_FULL;
    if (*fx == 2 && *fy == 1 && comp->width > 2)
        return GJ_UPSAMPLE_H2V1;
    if (*fx == 2 && *fy == 2 && comp->width > 2)
        return GJ_UPSAMPLE_H2V2;
    if (*fx == 1 && *fy == 2)
        return GJ_UPSAMPLE_H1V2;
    return GJ_UPSAMPLE_REPLICATE;
}

uint64_t gj_jpeg_block_offset(const gj_jpeg_stream *s, int c)
{
    uint64_t n = 0;
    int i;

    for (i = 0; i < c; i++)
        n += (uint64_t)s->comp[i].blocks_w * (uint64_t)s->comp[i].blocks_h;
    return n;
}

uint64_t gj_jpeg_coef_bytes(const gj_jpeg_stream *s)
{
    return gj_jpeg_block_offset(s, s->num_components) * GJ_BLOCK_BYTES;
}

plane_ref gj_jpeg_frame_plane(const gj_frame *f, int i)
{
    plane_ref r;

    r.buf = gj_staging_plane(f, i, &r.offset);
    r.pitch = (uint32_t)f->linesize[i];
    return r;
}

static int launch_idct(gj_jpeg_decoder *dec, int c, const plane_ref *dst, uint32_t w, uint32_t h)
{
    const gj_jpeg_stream *s = &dec->stream;
    const gj_jpeg_component *comp = &s->comp[c];
    uint64_t block_offset = gj_jpeg_block_offset(s, c);
    uint32_t nbx = (w + 7) / 8, nby = (h + 7) / 8;

    {
        gj_karg a[] = {
            GJ_ARG_BUF(&dec->buf[BUF_COEFS]), GJ_ARG_U64(block_offset), GJ_ARG_U32(comp->blocks_w),
            GJ_ARG_BUF(&dec->buf[BUF_QUANT]), GJ_ARG_U32(c), GJ_ARG_U32(nbx), GJ_ARG_U32(nby),
            GJ_ARG_BUF(&dst->buf), GJ_ARG_U64(dst->offset), GJ_ARG_U32(dst->pitch), GJ_ARG_U32(w), GJ_ARG_U32(h),
        };
        return gj_dev_launch(dec->dev, "gj_jpeg_idct", gj_jpeg_groups((size_t)nbx * nby, HUFF_GROUP), HUFF_GROUP, a, 12);
    }
}

/* Planar output: the IDCT writes the cropped planes of the frame directly. */
int gj_jpeg_write_planar(gj_jpeg_decoder *dec, const gj_frame *out)
{
    const gj_jpeg_stream *s = &dec->stream;
    int p, ret;

    for (p = 0; p < s->num_components; p++) {
        /* gbrp stores G, B, R: component (p + 1) % 3 goes to plane p. */
        int c = out->format == GJ_PIX_FMT_GBRP ? (p + 1) % 3 : p;
        plane_ref dst = gj_jpeg_frame_plane(out, p);
        ret = launch_idct(dec, c, &dst, (uint32_t)s->comp[c].width, (uint32_t)s->comp[c].height);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int color_out_format(enum gj_pixel_format f)
{
    switch (f) {
    case GJ_PIX_FMT_RGBA: return GJ_COLOR_OUT_RGBA;
    case GJ_PIX_FMT_BGRA: return GJ_COLOR_OUT_BGRA;
    case GJ_PIX_FMT_GRAY8: return GJ_COLOR_OUT_GRAY;
    default: return GJ_COLOR_OUT_RGB24;
    }
}

/*
 * Packed output: the IDCT writes each block's samples over the first half of the
 * block's own coefficients (block-major planes: no buffer beyond the coefficients),
 * then one kernel upsamples and converts them.
 */
int gj_jpeg_write_packed(gj_jpeg_decoder *dec, const gj_frame *out)
{
    const gj_jpeg_stream *s = &dec->stream;
    gj_color_params *cp = &dec->color_params;
    int c, ret;
    plane_ref dst = gj_jpeg_frame_plane(out, 0);
    plane_ref in_place = { dec->buf[BUF_COEFS], 0, 0 };

    memset(cp, 0, sizeof(*cp));
    cp->width = (uint32_t)s->width;
    cp->height = (uint32_t)s->height;
    cp->out_format = (uint32_t)color_out_format(out->format);
    cp->color_space = (uint32_t)s->color_space;
    cp->num_comps = (uint32_t)s->num_components;
    /* A frame's rows start on 4-byte boundaries nearly always; odd pitches take byte stores. */
    cp->word_stores = (dst.offset % 4 == 0 && dst.pitch % 4 == 0 &&
                       (dst.buf.handle % 4 == 0 || dec->dev->ops->memory != GJ_MEMORY_CUDA));
    for (c = 0; c < s->num_components; c++) {
        uint64_t offset = gj_jpeg_block_offset(s, c) * GJ_BLOCK_BYTES;

        cp->method[c] = (uint32_t)gj_jpeg_upsample_method(s, c, &cp->fx[c], &cp->fy[c]);
        cp->comp_w[c] = (uint32_t)s->comp[c].width;
        cp->comp_h[c] = (uint32_t)s->comp[c].height;
        cp->blocks_w[c] = (uint32_t)s->comp[c].blocks_w;
        cp->offset_lo[c] = (uint32_t)offset;
        cp->offset_hi[c] = (uint32_t)(offset >> 32);
    }
    if ((ret = gj_jpeg_ensure_buffer(dec, BUF_COLOR_PARAMS, sizeof(*cp))) < 0 ||
        (ret = dec->dev->ops->upload(dec->dev, &dec->buf[BUF_COLOR_PARAMS], 0, cp, sizeof(*cp))) < 0)
        return ret;
    for (c = 0; c < s->num_components; c++)
        if ((ret = launch_idct(dec, c, &in_place, cp->comp_w[c], cp->comp_h[c])) < 0)
            return ret;
    {
        uint32_t groups_per_row = (uint32_t)gj_jpeg_groups(cp->width, (size_t)GJ_COLOR_RUN * 4 * PIXEL_GROUP);
        gj_karg a[] = {
            GJ_ARG_BUF(&dec->buf[BUF_COLOR_PARAMS]), GJ_ARG_BUF(&dec->buf[BUF_COEFS]),
            GJ_ARG_BUF(&dst.buf), GJ_ARG_U64(dst.offset), GJ_ARG_U32(dst.pitch), GJ_ARG_U32(groups_per_row),
        };
        return gj_dev_launch(dec->dev, "gj_jpeg_color", (size_t)groups_per_row * cp->height, PIXEL_GROUP, a, 6);
    }
}

int gj_jpeg_upload_quant(gj_jpeg_decoder *dec)
{
    int c;

    memset(dec->quant, 0, sizeof(dec->quant));
    for (c = 0; c < dec->stream.num_components; c++)
        memcpy(dec->quant[c], dec->stream.comp[c].quant, sizeof(dec->quant[c]));
    return dec->dev->ops->upload(dec->dev, &dec->buf[BUF_QUANT], 0, dec->quant, sizeof(dec->quant));
}
