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

/*
 * The IDCT of every component in one launch (kernels/jpeg_idct.h gj_jpeg_idct):
 * component c's samples go to dst[c]; its params and quantisation tables are
 * uploaded together.
 */
static int launch_idct(gj_jpeg_decoder *dec, const plane_ref *dst)
{
    const gj_jpeg_stream *s = &dec->stream;
    gj_idct_params *p = &dec->idct_params;
    uint32_t threads = 0;
    int c, ret;

    memset(p, 0, sizeof(*p));
    for (c = 0; c < 4; c++)
        p->first_id[c] = UINT32_MAX;
    for (c = 0; c < s->num_components; c++) {
        const gj_jpeg_component *comp = &s->comp[c];
        uint64_t block = gj_jpeg_block_offset(s, c);
        uint32_t w = (uint32_t)comp->width, h = (uint32_t)comp->height;

        memcpy(p->quant[c], comp->quant, sizeof(p->quant[c]));
        p->first_id[c] = threads;
        p->nbx[c] = (w + 7) / 8;
        p->nby[c] = (h + 7) / 8;
        p->blocks_w[c] = (uint32_t)comp->blocks_w;
        p->block_lo[c] = (uint32_t)block;
        p->block_hi[c] = (uint32_t)(block >> 32);
        p->out_lo[c] = (uint32_t)dst[c].offset;
        p->out_hi[c] = (uint32_t)(dst[c].offset >> 32);
        p->out_pitch[c] = dst[c].pitch;
        p->out_w[c] = w;
        p->out_h[c] = h;
        /* Within the sizes the parser accepts (65535 x 65535 samples, 4 components). */
        threads += p->nbx[c] * p->nby[c];
    }
    p->num_blocks = threads;
    if ((ret = gj_jpeg_ensure_buffer(dec, BUF_IDCT_PARAMS, sizeof(*p))) < 0 ||
        (ret = dec->dev->ops->upload(dec->dev, &dec->buf[BUF_IDCT_PARAMS], 0, p, sizeof(*p))) < 0)
        return ret;
    {
        int last = s->num_components - 1;
        gj_karg a[] = {
            GJ_ARG_BUF(&dec->buf[BUF_COEFS]), GJ_ARG_BUF(&dec->buf[BUF_IDCT_PARAMS]),
            GJ_ARG_BUF(&dst[0].buf), GJ_ARG_BUF(&dst[last > 0 ? 1 : 0].buf),
            GJ_ARG_BUF(&dst[last > 1 ? 2 : 0].buf), GJ_ARG_BUF(&dst[last > 2 ? 3 : 0].buf),
        };
        return gj_dev_launch(dec->dev, "gj_jpeg_idct", gj_jpeg_groups(threads, HUFF_GROUP), HUFF_GROUP, a, 6);
    }
}

/* Planar output: the IDCT writes the cropped planes of the frame directly. */
int gj_jpeg_write_planar(gj_jpeg_decoder *dec, const gj_frame *out)
{
    const gj_jpeg_stream *s = &dec->stream;
    plane_ref dst[4];
    int p;

    for (p = 0; p < s->num_components; p++)
        /* gbrp stores G, B, R: component (p + 1) % 3 goes to plane p. */
        dst[out->format == GJ_PIX_FMT_GBRP ? (p + 1) % 3 : p] = gj_jpeg_frame_plane(out, p);
    return launch_idct(dec, dst);
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
    plane_ref in_place[4];

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
    for (c = 0; c < 4; c++)
        in_place[c] = (plane_ref){ dec->buf[BUF_COEFS], 0, 0 };
    if ((ret = launch_idct(dec, in_place)) < 0)
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
