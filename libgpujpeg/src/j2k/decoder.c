/*
 * The JPEG 2000 decoder: markers, JP2 boxes and T2 on the CPU (markers.c, jp2.c,
 * t2.c), then on the device T1 with dequantisation (j2k_t1.h), the IDWT level by
 * level (j2k_dwt.h) and the component transform, DC shift and packing (j2k_output.h).
 * T1 of the lowest resolutions may start while T2 goes on (early.h).
 */
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/j2k.h"
#include "device/device.h"
#include "device/staging.h"
#include "j2k/decoder_private.h"
#include "j2k/host_decode.h"
#include "j2k/t1_queue.h"
#include "log.h"

#define J2K_GROUP 64

/* early.h's j2k_early_plane_fn: the output picture's first plane, during T2. */
static int early_plane(void *opaque, gj_buffer *plane, uint64_t *start);

int gj_j2k_decoder_create(gj_j2k_decoder **out, gj_device *dev)
{
    gj_j2k_decoder *dec;
    const char *env;

    if (!out || !dev)
        return GJ_ERROR_INVAL;
    if (!(dec = calloc(1, sizeof(*dec))))
        return GJ_ERROR_NOMEM;
    dec->dev = dev;
    dec->frame_dev = dev;
    /* 32-bit coefficients whatever the bound: to compare the two widths (tests, benchmarks). */
    dec->layout.force_wide = getenv("GJ_J2K_WIDE") && atoi(getenv("GJ_J2K_WIDE")) > 0;
    /* 9/7 fractions from the worst case, as a saturated decode's second pass takes them: to compare. */
    dec->layout.worst_case = getenv("GJ_J2K_WORST_CASE") && atoi(getenv("GJ_J2K_WORST_CASE")) > 0;
    j2k_early_init(&dec->early, dev, early_plane, dec);
    dec->profile = getenv("GJ_PROFILE") && atoi(getenv("GJ_PROFILE")) == 2;
    dec->output_general = getenv("GJ_J2K_OUTPUT_GENERAL") && atoi(getenv("GJ_J2K_OUTPUT_GENERAL")) > 0;
    env = getenv("GJ_LANES");           /* for tuning runs of the benchmark */
    dec->lanes_wanted = env && atoi(env) >= 1 && atoi(env) <= GJ_J2K_MAX_LANES ? atoi(env) : GJ_J2K_DEFAULT_LANES;
    *out = dec;
    return 0;
}

void gj_j2k_decoder_free(gj_j2k_decoder **pdec)
{
    gj_j2k_decoder *dec;
    gj_buffer *bufs[9];

    if (!pdec || !*pdec)
        return;
    dec = *pdec;
    gj_j2k_lanes_free(dec);
    dec->dev->ops->finish(dec->dev);
    j2k_early_free(&dec->early);
    bufs[0] = &dec->t1_input; bufs[1] = &dec->coef; bufs[2] = &dec->tmp; bufs[3] = &dec->jobs;
    bufs[4] = &dec->out_tiles; bufs[5] = &dec->out_params; bufs[6] = &dec->palette; bufs[7] = &dec->plane_jobs;
    bufs[8] = &dec->saturated;
    for (int i = 0; i < 9; i++)
        if (bufs[i]->handle)
            dec->dev->ops->buffer_destroy(dec->dev, bufs[i]);
    dec->dev->ops->host_free(dec->dev, dec->saturated_host);
    gj_frame_unref(&dec->staging);
    j2k_layout_free(&dec->layout);
    if (dec->owns_dev)
        gj_device_free(&dec->dev);
    free(dec);
    *pdec = NULL;
}

int gj_j2k_decoder_set_reduce(gj_j2k_decoder *dec, int reduce)
{
    if (!dec || reduce < 0 || reduce > 32)
        return gj_fail(GJ_ERROR_INVAL, "reduce %d: from 0 to 32", reduce);
    dec->reduce = reduce;
    return 0;
}

int gj_j2k_decoder_set_layers(gj_j2k_decoder *dec, int layers)
{
    if (!dec || layers < 0 || layers > 65535)
        return gj_fail(GJ_ERROR_INVAL, "layers %d: from 0 (all) to 65535", layers);
    dec->max_layers = layers;
    return 0;
}

/* Uploads count elements of size elem into *buf (grown as needed). */
static int upload_table(gj_device *dev, gj_buffer *buf, const void *table, size_t count, size_t elem)
{
    int ret;

    if ((ret = gj_dev_ensure_buffer(dev, buf, count * elem)) < 0)
        return ret;
    return count ? dev->ops->upload(dev, buf, 0, table, count * elem) : 0;
}

static size_t groups(uint64_t threads)
{
    return (size_t)((threads + J2K_GROUP - 1) / J2K_GROUP);
}

/*
 * Whether `size` bytes fit in buf, a picture's memory, from `offset` (16-byte aligned up:
 * *at) to `end`. A CUDA plane's handle is its address: it must be aligned too.
 */
static int picture_room(const gj_frame *target, const gj_buffer *buf, uint64_t offset, uint64_t end, uint64_t size,
                        uint64_t *at)
{
    *at = j2k_align16(offset);
    return !(target->memory == GJ_MEMORY_CUDA && (buf->handle & 15)) && *at + size <= end;
}

/*
 * A horizontal IDWT step in place, a work-group per few rows (a kernel per filter and
 * width); that of a scratch pair writes into *scratch at `at` instead.
 */
static int run_idwt_rows(gj_j2k_decoder *dec, const j2k_dwt_pass *p, const gj_buffer *scratch, uint64_t at)
{
    static const char *const names[2][2] = { { "gj_j2k_idwt_rows_53_16", "gj_j2k_idwt_rows_53_32" },
                                             { "gj_j2k_idwt_rows_97_16", "gj_j2k_idwt_rows_97_32" } };
    gj_karg a[] = { GJ_ARG_BUF(&dec->jobs), GJ_ARG_U32(p->first), GJ_ARG_U32(p->count), GJ_ARG_BUF(dec->coefs),
                    GJ_ARG_BUF(&dec->saturated), GJ_ARG_BUF(scratch ? scratch : dec->coefs), GJ_ARG_U64(at),
                    GJ_ARG_U32(scratch != NULL) };

    return gj_dev_launch(dec->dev, names[p->irreversible != 0][dec->layout.wide != 0], (size_t)p->groups,
                         GJ_J2K_DWT_GROUP, a, 8);
}

/* A vertical IDWT step in place, a work-group per few adjacent columns (no scratch). */
static int run_idwt_lines(gj_j2k_decoder *dec, const j2k_dwt_pass *p)
{
    static const char *const names[2][2][2] = {
        { { "gj_j2k_idwt_53_16", "gj_j2k_idwt_53_32" }, { "gj_j2k_idwt_97_16", "gj_j2k_idwt_97_32" } },
        { { "gj_j2k_idwt_long_53_16", "gj_j2k_idwt_long_53_32" }, { "gj_j2k_idwt_long_97_16", "gj_j2k_idwt_long_97_32" } } };
    gj_karg a[] = { GJ_ARG_BUF(&dec->jobs), GJ_ARG_U32(p->first), GJ_ARG_U32(p->count), GJ_ARG_BUF(dec->coefs),
                    GJ_ARG_BUF(&dec->saturated), GJ_ARG_BUF(dec->coefs), GJ_ARG_U64(0), GJ_ARG_U32(0) };

    return gj_dev_launch(dec->dev, names[p->long_lines][p->irreversible != 0][dec->layout.wide != 0],
                         (size_t)p->groups, GJ_J2K_DWT_GROUP, a, 8);
}

/* The vertical step of a scratch pair: from *scratch at `at` into the coefficients. */
static int run_idwt_columns(gj_j2k_decoder *dec, const j2k_dwt_pass *p, const gj_buffer *scratch, uint64_t at)
{
    static const char *const names[2][2] = { { "gj_j2k_idwt_columns_53_16", "gj_j2k_idwt_columns_53_32" },
                                             { "gj_j2k_idwt_columns_97_16", "gj_j2k_idwt_columns_97_32" } };
    gj_karg a[] = { GJ_ARG_BUF(&dec->jobs), GJ_ARG_U32(p->first), GJ_ARG_U32(p->count), GJ_ARG_BUF(dec->coefs),
                    GJ_ARG_BUF(&dec->saturated), GJ_ARG_BUF(scratch), GJ_ARG_U64(at) };

    return gj_dev_launch(dec->dev, names[p->irreversible != 0][dec->layout.wide != 0], (size_t)p->column_groups,
                         GJ_J2K_DWT_COLUMNS, a, 7);
}

/*
 * Whether passes i and i + 1 go through a scratch (j2k_params.h): the picture's memory
 * (its longest run of planes), which only the output stage writes after the IDWT, at
 * *at, if it has room (T1's inputs there are read by then: T1 ran before on the same
 * queue, or the queue waited for it).
 */
static int idwt_scratch(const j2k_layout *l, size_t i, gj_frame *target, gj_buffer *scratch, uint64_t *at)
{
    const j2k_dwt_pass *h = &l->passes[i], *v = h + 1;
    uint64_t offset;

    if (!l->dwt_in_place || !h->scratch_pair || h->vertical || i + 1 >= l->nb_passes || !v->scratch_pair ||
        !v->vertical || v->first != h->first + h->count || v->count != h->count ||
        v->irreversible != h->irreversible || v->min_line < GJ_J2K_DWT_MIN_COLUMN)
        return 0;
    return gj_staging_contiguous(target, scratch, &offset) &&
           picture_room(target, scratch, offset, scratch->size, h->scratch_bytes, at);
}

/* One IDWT step for pictures with lines too long for local memory: a thread per sample and stage. */
static int run_idwt_samples(gj_j2k_decoder *dec, const j2k_dwt_pass *p)
{
    /* Horizontal: sub-bands -> rows in dec->tmp; vertical: back into dec->coef (F.3.2). */
    gj_buffer *src = p->vertical ? &dec->tmp : dec->coefs, *dst = p->vertical ? dec->coefs : &dec->tmp;
    int first = p->irreversible ? 2 : 0, last = p->irreversible ? 5 : 1, ret;
    gj_karg ia[] = { GJ_ARG_BUF(&dec->jobs), GJ_ARG_U32(p->first), GJ_ARG_U32(p->count),
                     GJ_ARG_U64(p->threads), GJ_ARG_U32(p->irreversible), GJ_ARG_BUF(src), GJ_ARG_BUF(dst) };

    if ((ret = gj_dev_launch(dec->dev, "gj_j2k_idwt_interleave", groups(p->threads), J2K_GROUP, ia, 7)) < 0)
        return ret;
    for (int lift = first; lift <= last && ret >= 0; lift++) {
        gj_karg la[] = { GJ_ARG_BUF(&dec->jobs), GJ_ARG_U32(p->first), GJ_ARG_U32(p->count),
                         GJ_ARG_U64(p->threads), GJ_ARG_U32(lift), GJ_ARG_BUF(dst) };

        ret = gj_dev_launch(dec->dev, "gj_j2k_idwt_lift", groups(p->threads), J2K_GROUP, la, 6);
    }
    return ret;
}

/*
 * Where T1's inputs go (t1_queue.h): the picture is written only by the output stage,
 * after T1: when its first plane has room, they go there (so that a decode's peak is
 * the coefficients and the picture), else into a buffer of the decoder's own. *at is
 * where they start in *buf; *view: *buf is a view to release once T1 is queued.
 */
static int place_t1_input(gj_j2k_decoder *dec, gj_frame *target, gj_buffer *buf, uint64_t *at, int *view)
{
    gj_device *dev = dec->dev;
    uint64_t offset, segments_at, data_at;
    gj_buffer plane = gj_staging_plane0(target, &offset);
    size_t size = j2k_t1_input_size(&dec->layout, &segments_at, &data_at), start;
    /* The early launch's region (early.h) ends the plane. */
    uint64_t end = dec->early.count ? dec->early.region_at : plane.size;
    int ret;

    *view = 0;
    if (picture_room(target, &plane, offset, end, size, at)) {
        if (!dec->early.count) {
            *buf = plane;
            return 0;
        }
        /* The early launch writes a view of the plane on another queue meanwhile, and
         * OpenCL leaves a buffer used beside a view of it undefined (NVIDIA's driver
         * garbled the picture): T1 reads a view of its own, apart from the region. */
        if (dev->ops->view_create(dev, &plane, (size_t)*at, size, buf, &start) >= 0) {
            if (start + size <= end) {
                *at = 0;
                *view = 1;
                return 0;
            }
            dev->ops->view_release(dev, buf);
        }
    }
    if ((ret = gj_dev_ensure_buffer(dev, &dec->t1_input, size)) < 0)
        return ret;
    *buf = dec->t1_input;
    *at = 0;
    return 0;
}

/* T1 over every code-block into dec->coef. */
static int run_t1(gj_j2k_decoder *dec, gj_frame *target)
{
    gj_device *dev = dec->dev;
    j2k_layout *l = &dec->layout;
    gj_buffer input;
    uint64_t at;
    int ret, view;

    if ((ret = place_t1_input(dec, target, &input, &at, &view)) < 0)
        return ret;
    /* Whole 32-bit words: T1 XORs a 16-bit coefficient through its word (j2k_coef.h). */
    if ((ret = gj_dev_ensure_buffer(dev, &dec->coef, j2k_coef_bytes(l))) >= 0)
        ret = j2k_t1_queue(dev, &input, at, l, &dec->coef, l->wide);
    if (view)
        dev->ops->view_release(dev, &input);
    if (ret < 0)
        return ret;
    return j2k_early_place(&dec->early, dev, l, &dec->coef);
}

/*
 * The IDWT passes over *dec->coefs, in place (their tables uploaded). With optimistic
 * fractions, the saturation flag is cleared before them and copied back after, into
 * page-locked memory (a copy into pageable memory would hold the host until the queue
 * got there), to be read once the queue finished (j2k_decode_saturated()); other
 * pictures skip both.
 */
static int run_idwt(gj_j2k_decoder *dec, gj_frame *target)
{
    gj_device *dev = dec->dev;
    j2k_layout *l = &dec->layout;
    int ret;

    if ((ret = gj_dev_ensure_buffer(dev, &dec->saturated, sizeof(*dec->saturated_host))) < 0)
        return ret;
    if (l->optimistic) {
        if (!dec->saturated_host && !(dec->saturated_host = dev->ops->host_alloc(dev, sizeof(*dec->saturated_host))))
            return GJ_ERROR_NOMEM;
        if ((ret = dev->ops->fill_zero(dev, &dec->saturated, 0, sizeof(*dec->saturated_host))) < 0)
            return ret;
    }
    for (size_t i = 0; i < l->nb_passes && ret >= 0; i++) {
        gj_buffer scratch;
        uint64_t at;

        if (idwt_scratch(l, i, target, &scratch, &at)) {
            if ((ret = run_idwt_rows(dec, &l->passes[i], &scratch, at)) >= 0)
                ret = run_idwt_columns(dec, &l->passes[i + 1], &scratch, at);
            i++;
        } else if (!l->dwt_in_place) {
            ret = run_idwt_samples(dec, &l->passes[i]);
        } else {
            ret = l->passes[i].vertical ? run_idwt_lines(dec, &l->passes[i])
                                        : run_idwt_rows(dec, &l->passes[i], NULL, 0);
        }
    }
    if (ret >= 0 && l->optimistic)
        ret = dev->ops->download(dev, dec->saturated_host, &dec->saturated, 0, sizeof(*dec->saturated_host));
    return ret;
}

/* The IDWT's and the output stage's tables (the output's pixel layout from target). */
int j2k_decode_tables(gj_j2k_decoder *dec, gj_frame *target)
{
    gj_device *dev = dec->dev;
    j2k_layout *l = &dec->layout;
    gj_j2k_out_params *p = &dec->out;
    uint64_t offset;
    int ret;

    if ((ret = upload_table(dev, &dec->jobs, l->jobs, l->nb_jobs, sizeof(*l->jobs))) < 0 ||
        (!l->dwt_in_place && (ret = gj_dev_ensure_buffer(dev, &dec->tmp, l->coef_count * 4)) < 0))
        return ret;
    if (l->planar &&
        (ret = upload_table(dev, &dec->plane_jobs, l->plane_jobs, l->nb_plane_jobs, sizeof(*l->plane_jobs))) < 0)
        return ret;
    if (!j2k_layout_interleaved(l))
        return 0;
    gj_staging_plane0(target, &offset);
    *p = l->out;
    if (l->components) {
        /* lay_out_components() placed the channels: they start at plane 0's first sample. */
        offset += l->planes[0].offset;
    } else {
        p->pixel_stride = (gj_u32)gj_pixel_format_describe(target->format)->bytes_per_pixel;
        p->pitch = (gj_u32)target->linesize[0];
        p->channel_step = p->bytes_per_sample;
    }
    p->offset_lo = (gj_u32)offset;
    p->offset_hi = (gj_u32)(offset >> 32);
    if ((ret = upload_table(dev, &dec->out_tiles, l->out_tiles, l->nb_out_tiles, sizeof(*l->out_tiles))) < 0 ||
        (ret = upload_table(dev, &dec->out_params, p, 1, sizeof(*p))) < 0)
        return ret;
    return upload_table(dev, &dec->palette, l->palette, l->palette ? (size_t)p->palette_entries *
                        p->palette_columns : 0, sizeof(*l->palette));
}

/*
 * The output kernel for the parameters (j2k_output.h): one made for their shape, where
 * they have one (1, 3 or 4 components in order into as many packed channels of 8 or
 * 16 bits, the 16-bit ones aligned, no palette), else the general one.
 */
static const char *output_kernel(const gj_j2k_out_params *p)
{
    static const char *const names[4][2] = { { "gj_j2k_output_1x8", "gj_j2k_output_1x16" }, { NULL, NULL },
                                             { "gj_j2k_output_3x8", "gj_j2k_output_3x16" },
                                             { "gj_j2k_output_4x8", "gj_j2k_output_4x16" } };
    uint32_t n = p->nb_comps, bytes = p->bytes_per_sample;

    if (n < 1 || n > 4 || !names[n - 1][0] || (bytes != 1 && bytes != 2) || p->nb_channels != n ||
        p->read_mask != (1u << n) - 1u || p->channel_step != bytes || p->pixel_stride != n * bytes ||
        (bytes == 2 && ((p->offset_lo | p->pitch) & 1u)))
        return "gj_j2k_output";
    for (uint32_t c = 0; c < n; c++)
        if (p->channel_comp[c] != c || p->channel_column[c] != GJ_J2K_DIRECT)
            return "gj_j2k_output";
    return names[n - 1][bytes - 1];
}

/* Interleaved output: every component of a pixel, with the component transform. */
static int run_packed_output(gj_j2k_decoder *dec, gj_frame *target)
{
    j2k_layout *l = &dec->layout;
    uint64_t offset;
    gj_buffer dst = gj_staging_plane0(target, &offset);

    if (l->out_threads) {
        gj_karg a[] = { GJ_ARG_BUF(&dec->out_tiles), GJ_ARG_U32(l->nb_out_tiles), GJ_ARG_U64(l->out_threads),
                        GJ_ARG_BUF(&dec->out_params), GJ_ARG_BUF(dec->coefs), GJ_ARG_BUF(&dec->palette),
                        GJ_ARG_BUF(&dst), GJ_ARG_U32(l->wide) };

        return gj_dev_launch(dec->dev, dec->output_general ? "gj_j2k_output" : output_kernel(&dec->out),
                             groups(l->out_threads), J2K_GROUP, a, 8);
    }
    return 0;
}

/* Planar output: one launch per plane (a frame's, or a components decode's in plane 0). */
static int run_planar_output(gj_j2k_decoder *dec, gj_frame *target)
{
    gj_device *dev = dec->dev;
    j2k_layout *l = &dec->layout;
    int ret;

    for (size_t i = 0; i < l->nb_planes; i++) {
        const j2k_out_plane *p = &l->planes[i];
        uint64_t offset;
        gj_buffer dst = l->components ? gj_staging_plane0(target, &offset) : gj_staging_plane(target, (int)i, &offset);
        int pitch = l->components ? p->linesize : target->linesize[i];
        gj_karg a[] = { GJ_ARG_BUF(&dec->plane_jobs), GJ_ARG_U32(p->first), GJ_ARG_U32(p->count),
                        GJ_ARG_U64(p->threads), GJ_ARG_U32(p->precision), GJ_ARG_U32(p->shift),
                        GJ_ARG_U32(p->bytes), GJ_ARG_BUF(dec->coefs), GJ_ARG_BUF(&dst),
                        GJ_ARG_U64(offset + (l->components ? p->offset : 0)), GJ_ARG_U32(pitch),
                        GJ_ARG_U32(l->wide) };

        if (p->threads &&
            (ret = gj_dev_launch(dev, "gj_j2k_output_planar", groups(p->threads), J2K_GROUP, a, 12)) < 0)
            return ret;
    }
    return 0;
}

static int run_output(gj_j2k_decoder *dec, gj_frame *target)
{
    j2k_layout *l = &dec->layout;
    int ret;

    if ((l->planar && (ret = run_planar_output(dec, target)) < 0) ||
        (j2k_layout_interleaved(l) && (ret = run_packed_output(dec, target)) < 0))
        return ret;
    return 0;
}

/* Checks the requested format against the picture's. */
static int check_format(const j2k_layout *l, gj_frame *out)
{
    if (out->format == GJ_PIX_FMT_NONE)
        out->format = l->native_format;
    if (out->format != l->native_format)
        return gj_fail(GJ_ERROR_INVAL, "J2K decoder: this picture decodes to %s, not %s",
                       gj_pixel_format_describe(l->native_format)->name,
                       gj_pixel_format_describe(out->format)->name);
    if (out->data[0] && (out->width != l->out_width || out->height != l->out_height))
        return gj_fail(GJ_ERROR_INVAL, "J2K decoder: the output frame is %dx%d, the picture %dx%d",
                       out->width, out->height, l->out_width, l->out_height);
    return 0;
}

/* An empty device frame is allocated on the caller's device, so that a lane's pictures outlive the lane. */
static int alloc_device_output(gj_j2k_decoder *dec, gj_frame *out)
{
    if (out->memory != dec->dev->ops->memory || out->data[0])
        return 0;
    out->width = dec->layout.out_width;
    out->height = dec->layout.out_height;
    return gj_frame_alloc(out, dec->frame_dev);
}

/* The output frame of the decode being done, and the picture the kernels write (it, or the staging picture). */
static int prepare_target(gj_j2k_decoder *dec, gj_frame *out, gj_frame **target)
{
    int ret;

    /* A components buffer of an earlier picture makes way for this one's. */
    if (dec->layout.components && out->data[0] &&
        (out->width != dec->layout.out_width || out->height != dec->layout.out_height))
        gj_frame_unref(out);

    if ((ret = check_format(&dec->layout, out)) < 0 || (ret = alloc_device_output(dec, out)) < 0)
        return ret;
    return gj_staging_target(dec->dev, &dec->staging, dec->layout.out_width, dec->layout.out_height, out,
                             target, "J2K decoder");
}

/* The picture's format and size are known from the main header (host_decode.c sets them before T2). */
static int early_plane(void *opaque, gj_buffer *plane, uint64_t *start)
{
    gj_j2k_decoder *dec = opaque;
    const j2k_layout *l = &dec->layout;
    gj_frame *out = dec->early_out, *target;
    int ret;

    /* What prepare_target() would refuse it reports after T2, once. */
    if ((out->format != GJ_PIX_FMT_NONE && out->format != l->native_format) ||
        (!l->components && out->data[0] && (out->width != l->out_width || out->height != l->out_height)) ||
        (out->memory != GJ_MEMORY_HOST && out->memory != dec->dev->ops->memory))
        return GJ_ERROR_INVAL;
    if ((ret = prepare_target(dec, out, &target)) < 0)
        return ret;
    *plane = gj_staging_plane0(target, start);
    return 0;
}

size_t j2k_coef_bytes(const j2k_layout *l)
{
    return (l->coef_count * (l->wide ? 4 : 2) + 3) & ~(size_t)3;
}

int j2k_decode_host(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_frame *out, gj_frame **target,
                    int *truncated)
{
    const j2k_t2_watch *watch;
    int ret;

    *target = NULL;
    *truncated = 0;
    dec->coefs = &dec->coef;
    /* Queued work may still read the previous picture's tables (the early launch's too). */
    if ((ret = dec->dev->ops->finish(dec->dev)) < 0 ||
        (ret = j2k_early_begin(&dec->early, dec->reduce, dec->max_layers, &watch)) < 0)
        return ret;
    dec->early_out = out;
    ret = j2k_host_decode(data, size, dec->reduce, dec->max_layers, &dec->layout, truncated, watch);
    if (dec->profile)
        j2k_early_report(&dec->early, dec->layout.nb_cblks);
    if (ret < 0)
        return ret;
    return prepare_target(dec, out, target);
}

int j2k_decode_kernels(gj_j2k_decoder *dec, gj_frame *target, int t1_done)
{
    int ret;

    if ((!t1_done && (ret = run_t1(dec, target)) < 0) || (ret = run_idwt(dec, target)) < 0)
        return ret;
    return run_output(dec, target);
}

int j2k_decode_download(gj_j2k_decoder *dec, gj_frame *out, const gj_frame *target)
{
    if (target == out)
        return 0;
    return gj_staging_download(dec->dev, target, out, dec->layout.out_width, dec->layout.out_height);
}

int j2k_decode_saturated(const gj_j2k_decoder *dec)
{
    if (!dec->layout.optimistic || !dec->saturated_host || !*dec->saturated_host)
        return 0;
    gj_log(GJ_LOG_VERBOSE, "J2K: a 16-bit coefficient saturated with the optimistic fractions: "
           "decoding again with the worst case's");
    return 1;
}

/* One whole decode into out (a frame, or components), finished. */
typedef int (*decode_fn)(gj_j2k_decoder *dec, const uint8_t *data, size_t size, void *out);

/* One decode into a frame (a components decode's buffer too), finished. */
static int decode_frame(gj_j2k_decoder *dec, const uint8_t *data, size_t size, void *opaque)
{
    gj_frame *out = opaque, *target;
    int ret, truncated;

    if ((ret = j2k_decode_host(dec, data, size, out, &target, &truncated)) < 0 ||
        (ret = j2k_decode_tables(dec, target)) < 0 || (ret = j2k_decode_kernels(dec, target, 0)) < 0 ||
        (ret = j2k_decode_download(dec, out, target)) < 0)
        return ret;
    if (truncated)
        out->decode_error_flags = 1;
    return dec->dev->ops->finish(dec->dev);
}

/* decode() once more with the worst case's fractions, which hold for every picture (coef_range.h). */
static int decode_worst_case(gj_j2k_decoder *dec, decode_fn decode, const uint8_t *data, size_t size, void *out)
{
    int keep = dec->layout.worst_case, ret;

    dec->layout.worst_case = 1;
    ret = decode(dec, data, size, out);
    dec->layout.worst_case = keep;
    return ret;
}

int j2k_decode_frame_worst_case(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    return decode_worst_case(dec, decode_frame, data, size, out);
}

/* decode(), and again with the worst case's fractions where its optimistic ones saturated. */
static int decode_checked(gj_j2k_decoder *dec, decode_fn decode, const uint8_t *data, size_t size, void *out)
{
    int ret = decode(dec, data, size, out);

    return ret < 0 || !j2k_decode_saturated(dec) ? ret : decode_worst_case(dec, decode, data, size, out);
}

int gj_j2k_decode(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    if (!dec || !data || !out)
        return GJ_ERROR_INVAL;
    dec->layout.components = 0;
    return decode_checked(dec, decode_frame, data, size, out);
}

/* The planes of a components decode as the caller sees them. */
static int describe_components(const j2k_layout *l, gj_j2k_components *out)
{
    gj_j2k_plane *planes = realloc(out->planes, l->nb_planes * sizeof(*planes));

    if (!planes)
        return GJ_ERROR_NOMEM;
    out->planes = planes;
    out->nb_components = (int)l->nb_planes;
    for (size_t c = 0; c < l->nb_planes; c++) {
        const j2k_out_plane *p = &l->planes[c];

        planes[c] = (gj_j2k_plane){ .width = p->width, .height = p->height, .precision = (int)p->precision,
                                    .is_signed = p->is_signed, .bytes_per_sample = (int)p->bytes,
                                    .linesize = p->linesize, .offset = (size_t)p->offset };
    }
    return 0;
}

/* One components decode, finished (the planes described). */
static int decode_components(gj_j2k_decoder *dec, const uint8_t *data, size_t size, void *opaque)
{
    gj_j2k_components *out = opaque;
    int ret;

    out->nb_components = 0;
    out->buffer.decode_error_flags = 0;
    if ((ret = decode_frame(dec, data, size, &out->buffer)) < 0)
        return ret;
    return describe_components(&dec->layout, out);
}

int gj_j2k_decode_components(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_j2k_components *out)
{
    int ret;

    if (!dec || !data || !out)
        return GJ_ERROR_INVAL;
    dec->layout.components = 1;
    ret = decode_checked(dec, decode_components, data, size, out);
    dec->layout.components = 0;
    return ret;
}

void gj_j2k_components_unref(gj_j2k_components *out)
{
    if (!out)
        return;
    free(out->planes);
    out->planes = NULL;
    out->nb_components = 0;
    gj_frame_unref(&out->buffer);
    out->buffer.format = GJ_PIX_FMT_NONE;
}
