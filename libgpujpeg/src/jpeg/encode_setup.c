/*
 * JPEG encoder set-up on the host: what the input frame holds and how each
 * component is made from it, the MCU geometry (T.81 A.1.1, A.2), the
 * quantisation divisors and the standard Huffman tables. No GPU work.
 */
#include <string.h>
#include <strings.h>

#include "jpeg/encoder_private.h"
#include "jpeg/huffman_tables.h"
#include "jpeg/quant_tables.h"
#include "log.h"

static const char *const sampling_names[GJ_JPEG_SAMPLING_NB] = { "420", "422", "444", "440", "gray" };
/* Luma sampling factors per sampling (chroma is 1x1). */
static const int luma_h[GJ_JPEG_SAMPLING_NB] = { 2, 2, 1, 1, 1 };
static const int luma_v[GJ_JPEG_SAMPLING_NB] = { 2, 1, 1, 2, 1 };

const char *gj_jpeg_sampling_name(enum gj_jpeg_sampling sampling)
{
    return (unsigned)sampling < GJ_JPEG_SAMPLING_NB ? sampling_names[sampling] : NULL;
}

int gj_jpeg_sampling_from_name(const char *name, enum gj_jpeg_sampling *sampling)
{
    int i;

    if (!name || !sampling)
        return GJ_ERROR_INVAL;
    for (i = 0; i < GJ_JPEG_SAMPLING_NB; i++) {
        if (!strcasecmp(name, sampling_names[i])) {
            *sampling = (enum gj_jpeg_sampling)i;
            return 0;
        }
    }
    return GJ_ERROR_INVAL;
}

void gj_jpeg_encode_params_default(gj_jpeg_encode_params *s)
{
    memset(s, 0, sizeof(*s));
    s->quality = 75;
    s->sampling = GJ_JPEG_SAMPLING_420;
}

static int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

static const char *format_name(enum gj_pixel_format format)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(format);

    return d && d->name ? d->name : "untyped";
}

/* How the kernels read the frame: packed RGB converted, or planes taken as they are. */
static int input_layout(const gj_frame *in, enum gj_jpeg_sampling sampling, gj_enc_params *p)
{
    p->chan_r = 0;
    p->chan_g = 1;
    p->chan_b = 2;
    switch (in->format) {
    case GJ_PIX_FMT_BGRA:
        p->chan_r = 2;
        p->chan_b = 0;
        /* fall through */
    case GJ_PIX_FMT_RGBA:
    case GJ_PIX_FMT_RGB24:
        p->layout = GJ_ENC_IN_PACKED_RGB;
        p->pixel_bytes = in->format == GJ_PIX_FMT_RGB24 ? 3 : 4;
        return 0;
    case GJ_PIX_FMT_GRAY8:
        if (sampling != GJ_JPEG_SAMPLING_GRAY)
            return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: a gray8 frame encodes only with sampling gray, not %s",
                           sampling_names[sampling]);
        /* fall through */
    case GJ_PIX_FMT_YUVJ444P:
    case GJ_PIX_FMT_YUVJ422P:
    case GJ_PIX_FMT_YUVJ420P:
    case GJ_PIX_FMT_YUVJ440P:
        p->layout = GJ_ENC_IN_PLANES;
        return 0;
    default:
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: the JPEG encoder cannot read %s frames (it takes "
                       "rgb24, rgba, bgra, gray8, yuvj444p, yuvj422p, yuvj420p, yuvj440p)",
                       format_name(in->format));
    }
}

/*
 * Component c's source: for packed RGB the picture at full size, downsampled by
 * hmax/h x vmax/v; for planar input plane c, downsampled by what separates its
 * resolution from the component's (1 or 2 each way).
 */
static int component_source(const gj_frame *in, gj_enc_params *p, int c, int hmax, int vmax)
{
    gj_enc_component *cp = &p->comp[c];
    const gj_pixel_format_desc *d = gj_pixel_format_describe(in->format);
    int lw = c && d->nb_planes > 1 ? d->log2_chroma_w : 0, lh = c && d->nb_planes > 1 ? d->log2_chroma_h : 0;
    int fx, fy;

    if (p->layout == GJ_ENC_IN_PACKED_RGB) {
        cp->plane = 0;
        cp->factor_x = (gj_u32)(hmax / (int)cp->h);
        cp->factor_y = (gj_u32)(vmax / (int)cp->v);
        cp->src_w = p->width;
        cp->src_h = p->height;
        /* jcprepct.c pads the picture to whole row groups of vmax rows, then downsamples. */
        cp->last_row = (gj_u32)(ceil_div((int)p->height, vmax) * (int)cp->v - 1);
        return 0;
    }
    /* The plane has 1/2^lw of the picture's columns, the component h/hmax of them. */
    fx = hmax >> lw;
    fy = vmax >> lh;
    if (fx * (1 << lw) != hmax || fy * (1 << lh) != vmax || fx % (int)cp->h || fy % (int)cp->v ||
        fx / (int)cp->h > 2 || fy / (int)cp->v > 2)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %s chroma cannot make %s sampling (the encoder "
                       "downsamples, it does not upsample)", format_name(in->format),
                       c ? "this" : "the luma of this");
    cp->plane = (gj_u32)c;
    cp->factor_x = (gj_u32)(fx / (int)cp->h);
    cp->factor_y = (gj_u32)(fy / (int)cp->v);
    cp->src_w = (gj_u32)gj_frame_plane_width(in->format, c, in->width);
    cp->src_h = (gj_u32)gj_frame_plane_height(in->format, c, in->height);
    cp->last_row = (gj_u32)(ceil_div((int)cp->src_h, (int)cp->factor_y) - 1);
    return 0;
}

/* MCU geometry (A.2): an interleaved scan's MCUs, or single blocks for one component. */
static void mcu_geometry(gj_enc_params *p, int hmax, int vmax)
{
    int c, s = 0, x, y;

    if (p->num_components == 1) {
        p->mcus_x = p->comp[0].blocks_w;
        p->mcus_y = p->comp[0].blocks_h;
    } else {
        p->mcus_x = (gj_u32)ceil_div((int)p->width, 8 * hmax);
        p->mcus_y = (gj_u32)ceil_div((int)p->height, 8 * vmax);
    }
    for (c = 0; c < (int)p->num_components; c++) {
        int first = s, n = (int)(p->comp[c].h * p->comp[c].v);
        for (y = 0; y < (int)p->comp[c].v; y++) {
            for (x = 0; x < (int)p->comp[c].h; x++, s++) {
                gj_enc_slot *slot = &p->slots[s];
                slot->comp = (gj_u32)c;
                slot->block_x = (gj_u32)x;
                slot->block_y = (gj_u32)y;
                slot->table = c ? 1 : 0;
                /* DC prediction (F.1.2.1) follows the component's blocks in scan order. */
                slot->prev_in_last_mcu = s == first;
                slot->prev_slot = (gj_u32)(s == first ? first + n - 1 : s - 1);
            }
        }
    }
    p->blocks_in_mcu = (gj_u32)s;
    p->num_mcus = p->mcus_x * p->mcus_y;
}

static int check_settings(const gj_frame *in, const gj_jpeg_encode_params *s)
{
    int t, i;

    if (in->width < 1 || in->height < 1 || in->width > GJ_JPEG_ENCODE_MAX_SIDE ||
        in->height > GJ_JPEG_ENCODE_MAX_SIDE)
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: picture size %dx%d is out of range (1..%d each way)",
                       in->width, in->height, GJ_JPEG_ENCODE_MAX_SIDE);
    if ((unsigned)s->sampling >= GJ_JPEG_SAMPLING_NB)
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: unknown sampling %d", (int)s->sampling);
    for (t = 0; t < 2; t++) {
        if (!s->quant_tables[t]) {
            if (s->quality < 1 || s->quality > 100)
                return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: quality %d is out of range (1..100)", s->quality);
            continue;
        }
        for (i = 0; i < 64; i++)
            if (s->quant_tables[t][i] < 1 || s->quant_tables[t][i] > GJ_QUANT_MAX)
                return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: quantisation table %d holds %u at %d (1..%d)",
                               t, s->quant_tables[t][i], i, GJ_QUANT_MAX);
    }
    if (s->restart_interval < 0 || s->restart_interval > 65535)
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: restart interval %d is out of range (0..65535 MCUs)",
                       s->restart_interval);
    return 0;
}

int gj_jpeg_encode_setup(const gj_frame *in, const gj_jpeg_encode_params *s, gj_enc_params *p, gj_jpeg_tables *t)
{
    int gray, hmax, vmax, c, ret;

    memset(p, 0, sizeof(*p));
    memset(t, 0, sizeof(*t));
    if ((ret = check_settings(in, s)) < 0 || (ret = input_layout(in, s->sampling, p)) < 0)
        return ret;
    gray = s->sampling == GJ_JPEG_SAMPLING_GRAY;
    p->width = (gj_u32)in->width;
    p->height = (gj_u32)in->height;
    p->num_components = gray ? 1 : 3;
    hmax = luma_h[s->sampling];
    vmax = luma_v[s->sampling];
    for (c = 0; c < (int)p->num_components; c++) {
        gj_enc_component *cp = &p->comp[c];
        cp->h = c ? 1 : (gj_u32)hmax;
        cp->v = c ? 1 : (gj_u32)vmax;
        /* A.1.1: the component's size, then whole blocks. */
        cp->blocks_w = (gj_u32)ceil_div(ceil_div(in->width * (int)cp->h, hmax), 8);
        cp->blocks_h = (gj_u32)ceil_div(ceil_div(in->height * (int)cp->v, vmax), 8);
        if ((ret = component_source(in, p, c, hmax, vmax)) < 0)
            return ret;
    }
    mcu_geometry(p, hmax, vmax);
    p->num_blocks = p->num_mcus * p->blocks_in_mcu;
    p->restart_interval = (gj_u32)s->restart_interval;
    p->num_segments = s->restart_interval ? (gj_u32)ceil_div((int)p->num_mcus, s->restart_interval) : 1;

    t->count = gray ? 1 : 2;
    for (c = 0; c < t->count; c++) {
        if (s->quant_tables[c])
            memcpy(t->quant[c], s->quant_tables[c], sizeof(t->quant[c]));
        else
            gj_quant_table_for_quality(c, s->quality, s->baseline, t->quant[c]);
        gj_quant_divisors(t->quant[c], c, p);
        if ((ret = gj_huffman_spec_or_default(&t->dc[c], NULL, 0, c)) < 0 ||
            (ret = gj_huffman_spec_or_default(&t->ac[c], NULL, 1, c)) < 0)
            return ret;
    }
    return 0;
}
