/*
 * The JPEG decode pipeline: markers and entropy layout on the CPU; Huffman
 * decoding, dequantisation + IDCT, upsampling + colour conversion on the GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/device.h"
#include "jpeg/entropy_segments.h"
#include "jpeg/huffman_tables.h"
#include "jpeg/markers.h"
#include "kernels/jpeg_params.h"
#include "log.h"

#define SCAN_GROUP 256          /* kernels/scan.h GJ_SCAN_GROUP */
#define SCAN_LANES 5            /* kernels/scan.h GJ_SCAN_LANES == jpeg_huffman.h GJ_CHUNK_SUMS */
#define HUFF_GROUP 128
#define PIXEL_GROUP 256
/* Chunk length: shorter chunks decode in parallel better, but 4:2:0 scans (6 blocks
 * per MCU) take longer to synchronise, which costs more with short chunks
 * (measured on an H200, doc/benchmarks.md). */
#define CHUNK_BITS_FEW_BLOCKS 256
#define CHUNK_BITS_MANY_BLOCKS 512
/* Synchronisation rounds queued between two looks at whether they converged. */
#define ROUNDS_PER_BATCH 8

/* Device buffers kept across frames; each grows to the largest frame seen. */
enum {
    BUF_SCAN_PARAMS, BUF_BYTES, BUF_SEGMENTS, BUF_CHUNK_SEG, BUF_STATES0, BUF_STATES1,
    BUF_CHANGED0, BUF_CHANGED1, BUF_SUMS, BUF_OFFSETS, BUF_AGGR, BUF_AGGR_HEAD, BUF_CARRY,
    BUF_COUNTER, BUF_COEFS, BUF_QUANT, BUF_PLANES, BUF_COLOR_PARAMS, BUF_COUNT
};

/* Stage timing for tuning (GJ_PROFILE=1): each mark waits for the device. */
enum { ST_PARSE, ST_LAYOUT, ST_UPLOAD, ST_SPECULATE, ST_SYNC, ST_PREFIX, ST_WRITE, ST_PIXELS, ST_DOWNLOAD, ST_COUNT };
static const char *const stage_names[ST_COUNT] = {
    "parse", "layout", "upload", "speculate", "sync", "prefix", "write", "pixels", "download",
};

struct gj_jpeg_decoder {
    gj_device *dev;
    int profile;
    double profile_last;
    double profile_ms[ST_COUNT];
    uint32_t profile_rounds;
    gj_buffer buf[BUF_COUNT];
    gj_jpeg_stream stream;
    gj_entropy_layout layout;
    /* Host copies of what is uploaded: they must live until the queue has run. */
    gj_scan_params *scan_params;
    gj_color_params color_params;
    uint16_t quant[4][64];
    gj_frame staging;                /* device picture for host-memory output */
    uint32_t chunk_bits;             /* of the scan being decoded */
    uint32_t chunk_bits_override;    /* GJ_CHUNK_BITS, for tuning; 0: chosen per scan */
    uint32_t *counter_host;         /* ROUNDS_PER_BATCH change counts */
};

/* A plane of an output frame as a device buffer and a byte offset. */
typedef struct plane_ref {
    gj_buffer buf;
    uint64_t offset;
    uint32_t pitch;
} plane_ref;

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void profile_mark(gj_jpeg_decoder *dec, int stage)
{
    double t;

    if (!dec->profile)
        return;
    dec->dev->ops->finish(dec->dev);
    t = now_ms();
    dec->profile_ms[stage] += t - dec->profile_last;
    dec->profile_last = t;
}

static void profile_report(gj_jpeg_decoder *dec)
{
    char line[512];
    int i, n = 0;

    if (!dec->profile)
        return;
    for (i = 0; i < ST_COUNT; i++)
        n += snprintf(line + n, sizeof(line) - (size_t)n, "%s %.3f ", stage_names[i], dec->profile_ms[i]);
    gj_log(GJ_LOG_INFO, "profile (ms): %ssync rounds %u", line, dec->profile_rounds);
    memset(dec->profile_ms, 0, sizeof(dec->profile_ms));
    dec->profile_rounds = 0;
}

static int ensure_buffer(gj_jpeg_decoder *dec, int which, size_t size)
{
    gj_buffer *b = &dec->buf[which];

    if (b->handle && b->size >= size)
        return 0;
    if (b->handle)
        dec->dev->ops->buffer_destroy(dec->dev, b);
    memset(b, 0, sizeof(*b));
    /* Exact sizes: a stream of equal frames allocates once, and the peak stays within
     * the output, the coefficients and about a byte per pixel. */
    return dec->dev->ops->buffer_create(dec->dev, size ? size : 16, b);
}

static void *layout_bytes_alloc(void *opaque, size_t size)
{
    gj_device *dev = opaque;

    return dev->ops->host_alloc(dev, size);
}

static void layout_bytes_free(void *opaque, void *ptr)
{
    gj_device *dev = opaque;

    dev->ops->host_free(dev, ptr);
}

int gj_jpeg_decoder_create(gj_jpeg_decoder **out, gj_device *dev)
{
    gj_jpeg_decoder *dec;
    const char *env;

    if (!out || !dev)
        return GJ_ERROR_INVAL;
    dec = calloc(1, sizeof(*dec));
    if (!dec)
        return GJ_ERROR_NOMEM;
    dec->scan_params = calloc(1, sizeof(*dec->scan_params));
    dec->counter_host = dev->ops->host_alloc(dev, ROUNDS_PER_BATCH * sizeof(uint32_t));
    if (!dec->scan_params || !dec->counter_host) {
        free(dec->scan_params);
        if (dec->counter_host)
            dev->ops->host_free(dev, dec->counter_host);
        free(dec);
        return GJ_ERROR_NOMEM;
    }
    dec->dev = dev;
    dec->layout.bytes_alloc = layout_bytes_alloc;
    dec->layout.bytes_free = layout_bytes_free;
    dec->layout.bytes_opaque = dev;

    dec->profile = getenv("GJ_PROFILE") && atoi(getenv("GJ_PROFILE")) > 0;
    env = getenv("GJ_CHUNK_BITS");      /* for tuning runs of the benchmark */
    if (env && atoi(env) >= 64 && atoi(env) <= (1 << 20))
        dec->chunk_bits_override = (uint32_t)atoi(env);
    *out = dec;
    return 0;
}

void gj_jpeg_decoder_free(gj_jpeg_decoder **pdec)
{
    gj_jpeg_decoder *dec;
    int i;

    if (!pdec || !*pdec)
        return;
    dec = *pdec;
    dec->dev->ops->finish(dec->dev);
    for (i = 0; i < BUF_COUNT; i++)
        if (dec->buf[i].handle)
            dec->dev->ops->buffer_destroy(dec->dev, &dec->buf[i]);
    gj_frame_unref(&dec->staging);
    gj_entropy_layout_free(&dec->layout);
    dec->dev->ops->host_free(dec->dev, dec->counter_host);
    free(dec->scan_params);
    free(dec);
    *pdec = NULL;
}

/* ------------------------------------------------------------------ output checks */

static int is_planar(enum gj_pixel_format f)
{
    return f == GJ_PIX_FMT_GRAY8 || f == GJ_PIX_FMT_YUVJ420P || f == GJ_PIX_FMT_YUVJ422P ||
           f == GJ_PIX_FMT_YUVJ444P || f == GJ_PIX_FMT_YUVJ440P || f == GJ_PIX_FMT_YUVJ411P ||
           f == GJ_PIX_FMT_GBRP;
}

/* libjpeg-turbo's upsampling choice for one component (jdsample.c jinit_upsampler). */
static int upsample_method(const gj_jpeg_stream *s, int c, uint32_t *fx, uint32_t *fy)
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

static int check_output_format(const gj_jpeg_stream *s, enum gj_pixel_format *format)
{
    enum gj_pixel_format native = gj_jpeg_native_format(s);
    int c, ret;
    uint32_t fx, fy;

    if (*format == GJ_PIX_FMT_NONE) {
        if (native == GJ_PIX_FMT_NONE)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: no planar pixel format holds this %d-component "
                           "JPEG's sampling; decode to rgb24, rgba or bgra instead", s->num_components);
        *format = native;
        return 0;
    }
    if (is_planar(*format) && !(*format == GJ_PIX_FMT_GRAY8 && native != GJ_PIX_FMT_GRAY8)) {
        if (*format != native)
            return gj_fail(GJ_ERROR_INVAL, "cannot decode this JPEG to %s (its planar format is %s)",
                           gj_pixel_format_describe(*format)->name, gj_pixel_format_describe(native)->name);
        return 0;
    }
    if (*format == GJ_PIX_FMT_GRAY8 && s->num_components == 4)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: gray output from a CMYK/YCCK JPEG");
    if (*format != GJ_PIX_FMT_RGB24 && *format != GJ_PIX_FMT_RGBA && *format != GJ_PIX_FMT_BGRA &&
        *format != GJ_PIX_FMT_GRAY8)
        return gj_fail(GJ_ERROR_INVAL, "the JPEG decoder cannot output %s", gj_pixel_format_describe(*format)->name);
    for (c = 0; c < s->num_components; c++)
        if ((ret = upsample_method(s, c, &fx, &fy)) < 0)
            return ret;
    return 0;
}

/* ------------------------------------------------------------------ entropy decoding */

/* The index of the decoding table for spec in p->tables, building it on first use. */
static int table_index(gj_scan_params *p, const gj_huffman_spec **specs, int *is_ac,
                       const gj_huffman_spec *spec, int ac)
{
    uint32_t i;
    int ret;

    for (i = 0; i < p->num_tables; i++)
        if (is_ac[i] == ac && specs[i]->count == spec->count && !memcmp(specs[i]->bits, spec->bits, 17) &&
            !memcmp(specs[i]->values, spec->values, (size_t)spec->count))
            return (int)i;
    if ((ret = gj_huffman_table_build(spec, ac, &p->tables[i])) < 0)
        return ret;
    specs[i] = spec;
    is_ac[i] = ac;
    p->num_tables = i + 1;
    return (int)i;
}

static int fill_scan_params(gj_jpeg_decoder *dec, const gj_jpeg_scan *scan)
{
    const gj_jpeg_stream *s = &dec->stream;
    gj_scan_params *p = dec->scan_params;
    const gj_huffman_spec *specs[GJ_MAX_SCAN_TABLES];
    int is_ac[GJ_MAX_SCAN_TABLES];
    uint32_t offset = 0, n = 0;
    int i, h, v;

    memset(p, 0, sizeof(*p));
    for (i = 0; i < s->num_components; i++) {
        p->comp_block_offset[i] = offset;
        p->comp_blocks_w[i] = (uint32_t)s->comp[i].blocks_w;
        offset += (uint32_t)(s->comp[i].blocks_w * s->comp[i].blocks_h);
    }
    for (i = 0; i < scan->num_components; i++) {
        const gj_jpeg_component *c = &s->comp[scan->comp[i]];
        int bw = scan->num_components == 1 ? 1 : c->h, bh = scan->num_components == 1 ? 1 : c->v;

        int dc = table_index(p, specs, is_ac, &scan->dc[i], 0), ac = table_index(p, specs, is_ac, &scan->ac[i], 1);
        if (dc < 0 || ac < 0)
            return dc < 0 ? dc : ac;
        for (v = 0; v < bh; v++) {
            for (h = 0; h < bw; h++, n++) {
                p->slots[n].comp = (uint32_t)scan->comp[i];
                p->slots[n].dc_table = (uint32_t)dc;
                p->slots[n].ac_table = (uint32_t)ac;
                p->slots[n].block_x = (uint32_t)h;
                p->slots[n].block_y = (uint32_t)v;
                p->slots[n].mcu_bw = (uint32_t)bw;
                p->slots[n].mcu_bh = (uint32_t)bh;
            }
        }
    }
    p->blocks_in_mcu = n;
    p->mcus_x = (uint32_t)scan->mcus_x;
    p->total_mcus = (uint32_t)scan->mcus_x * (uint32_t)scan->mcus_y;
    p->num_segments = dec->layout.num_segments;
    p->num_chunks = dec->layout.num_chunks;
    p->chunk_bits = dec->chunk_bits;
    return 0;
}

static size_t groups_for(size_t threads, size_t group)
{
    return (threads + group - 1) / group;
}

/* The scan's bytes as whole words, the way the kernels read them. */
static size_t padded_bytes(const gj_entropy_layout *e)
{
    return (e->num_bytes + 4) & ~(size_t)3;
}

static int upload_scan(gj_jpeg_decoder *dec)
{
    gj_device *dev = dec->dev;
    const gj_entropy_layout *e = &dec->layout;
    size_t nch = e->num_chunks, groups = groups_for(nch, SCAN_GROUP);
    int ret;

    if ((ret = ensure_buffer(dec, BUF_SCAN_PARAMS, sizeof(gj_scan_params))) < 0 ||
        (ret = ensure_buffer(dec, BUF_BYTES, padded_bytes(e))) < 0 ||
        (ret = ensure_buffer(dec, BUF_SEGMENTS, e->num_segments * sizeof(gj_segment))) < 0 ||
        (ret = ensure_buffer(dec, BUF_CHUNK_SEG, nch * sizeof(uint32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_STATES0, nch * sizeof(gj_huff_state))) < 0 ||
        (ret = ensure_buffer(dec, BUF_STATES1, nch * sizeof(gj_huff_state))) < 0 ||
        (ret = ensure_buffer(dec, BUF_CHANGED0, nch * sizeof(uint32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_CHANGED1, nch * sizeof(uint32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_SUMS, nch * SCAN_LANES * sizeof(int32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_OFFSETS, nch * SCAN_LANES * sizeof(int32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_AGGR, groups * SCAN_LANES * sizeof(int32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_AGGR_HEAD, groups * sizeof(uint32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_CARRY, groups * SCAN_LANES * sizeof(int32_t))) < 0 ||
        (ret = ensure_buffer(dec, BUF_COUNTER, ROUNDS_PER_BATCH * sizeof(uint32_t))) < 0)
        return ret;
    if ((ret = dev->ops->upload(dev, &dec->buf[BUF_SCAN_PARAMS], 0, dec->scan_params, sizeof(gj_scan_params))) < 0 ||
        (ret = dev->ops->upload(dev, &dec->buf[BUF_BYTES], 0, e->bytes, padded_bytes(e))) < 0 ||
        (ret = dev->ops->upload(dev, &dec->buf[BUF_SEGMENTS], 0, e->segments,
                                e->num_segments * sizeof(gj_segment))) < 0)
        return ret;
    return dev->ops->upload(dev, &dec->buf[BUF_CHUNK_SEG], 0, e->chunk_segment, nch * sizeof(uint32_t));
}

/* A round that changed no group's last end state ends the synchronisation. */
static int batch_converged(const uint32_t *counts, uint32_t last_slot)
{
    uint32_t k;

    for (k = 0; k <= last_slot; k++)
        if (counts[k] == 0)
            return 1;
    return 0;
}

/* Steps 1-2 of kernels/jpeg_huffman.h: speculative decode with in-group fixpoints,
 * then rounds across groups until one changes nothing. */
static int synchronise_chunks(gj_jpeg_decoder *dec, int *final_states)
{
    gj_device *dev = dec->dev;
    size_t nch = dec->layout.num_chunks, groups = groups_for(nch, HUFF_GROUP);
    uint32_t round, cur = 0;
    /* Each round makes at least one more group exact, so this many always suffice. */
    uint32_t max_rounds = (uint32_t)groups_for(dec->layout.max_chunks_per_segment, HUFF_GROUP) + 1;
    int ret;

    for (round = 0; round < max_rounds; round++) {
        uint32_t slot = round % ROUNDS_PER_BATCH;
        gj_karg a[] = {
            GJ_ARG_BUF(&dec->buf[BUF_SCAN_PARAMS]), GJ_ARG_BUF(&dec->buf[BUF_BYTES]),
            GJ_ARG_BUF(&dec->buf[BUF_SEGMENTS]), GJ_ARG_BUF(&dec->buf[BUF_CHUNK_SEG]),
            GJ_ARG_BUF(&dec->buf[BUF_STATES1 - cur]), GJ_ARG_BUF(&dec->buf[BUF_STATES0 + cur]),
            GJ_ARG_BUF(&dec->buf[BUF_CHANGED1 - cur]), GJ_ARG_BUF(&dec->buf[BUF_CHANGED0 + cur]),
            GJ_ARG_BUF(&dec->buf[BUF_SUMS]), GJ_ARG_BUF(&dec->buf[BUF_COUNTER]), GJ_ARG_U32(slot),
            GJ_ARG_U32(round),
        };
        if (slot == 0 &&
            (ret = dev->ops->fill_zero(dev, &dec->buf[BUF_COUNTER], 0, ROUNDS_PER_BATCH * sizeof(uint32_t))) < 0)
            return ret;
        if ((ret = gj_dev_launch(dev, "gj_huff_sync", groups, HUFF_GROUP, a, 12)) < 0)
            return ret;
        *final_states = BUF_STATES0 + (int)cur;
        cur ^= 1;
        if (round == 0) {
            profile_mark(dec, ST_SPECULATE);
            if (groups == 1)
                return 0;
            continue;
        }
        dec->profile_rounds++;
        /* Rounds are queued in batches: looking at the change counts costs a round trip.
         * Most scans converge in round 1 (round 2 confirms), so the first look is early. */
        if (round == 2 || slot == ROUNDS_PER_BATCH - 1 || round + 1 == max_rounds) {
            if ((ret = dev->ops->download(dev, dec->counter_host, &dec->buf[BUF_COUNTER], 0,
                                          ROUNDS_PER_BATCH * sizeof(uint32_t))) < 0 ||
                (ret = dev->ops->finish(dev)) < 0)
                return ret;
            if (batch_converged(dec->counter_host, slot))
                return 0;
        }
    }
    return 0;
}

/* Step 3: in-segment exclusive prefix sums of the per-chunk block counts and DC sums. */
static int prefix_sums(gj_jpeg_decoder *dec)
{
    gj_device *dev = dec->dev;
    uint32_t nch = dec->layout.num_chunks;
    size_t groups = groups_for(nch, SCAN_GROUP);
    int ret;
    gj_karg a1[] = {
        GJ_ARG_BUF(&dec->buf[BUF_SUMS]), GJ_ARG_BUF(&dec->buf[BUF_CHUNK_SEG]), GJ_ARG_U32(nch),
        GJ_ARG_BUF(&dec->buf[BUF_OFFSETS]), GJ_ARG_BUF(&dec->buf[BUF_AGGR]), GJ_ARG_BUF(&dec->buf[BUF_AGGR_HEAD]),
    };
    gj_karg a2[] = {
        GJ_ARG_BUF(&dec->buf[BUF_AGGR]), GJ_ARG_BUF(&dec->buf[BUF_AGGR_HEAD]), GJ_ARG_U32(groups),
        GJ_ARG_BUF(&dec->buf[BUF_CARRY]),
    };
    gj_karg a3[] = {
        GJ_ARG_BUF(&dec->buf[BUF_OFFSETS]), GJ_ARG_BUF(&dec->buf[BUF_CHUNK_SEG]), GJ_ARG_U32(nch),
        GJ_ARG_BUF(&dec->buf[BUF_CARRY]),
    };

    if ((ret = gj_dev_launch(dev, "gj_seg_scan_groups", groups, SCAN_GROUP, a1, 6)) < 0)
        return ret;
    if (groups == 1)
        return 0;
    if ((ret = gj_dev_launch(dev, "gj_seg_scan_carries", 1, SCAN_GROUP, a2, 4)) < 0)
        return ret;
    return gj_dev_launch(dev, "gj_seg_scan_add", groups, SCAN_GROUP, a3, 4);
}

static int decode_scan(gj_jpeg_decoder *dec, const uint8_t *data, const gj_jpeg_scan *scan, int *damaged)
{
    int ret, states = BUF_STATES0;
    gj_karg a[7];

    dec->chunk_bits = dec->chunk_bits_override ? dec->chunk_bits_override :
                      scan->blocks_in_mcu <= 4 ? CHUNK_BITS_FEW_BLOCKS : CHUNK_BITS_MANY_BLOCKS;
    ret = gj_entropy_layout_scan(&dec->layout, data, scan, (uint32_t)(scan->mcus_x * scan->mcus_y),
                                 dec->chunk_bits);
    if (ret < 0)
        return ret;
    *damaged |= dec->layout.damaged;
    if ((ret = fill_scan_params(dec, scan)) < 0)
        return ret;
    profile_mark(dec, ST_LAYOUT);
    if ((ret = upload_scan(dec)) < 0)
        return ret;
    profile_mark(dec, ST_UPLOAD);
    if ((ret = synchronise_chunks(dec, &states)) < 0)
        return ret;
    profile_mark(dec, ST_SYNC);
    if ((ret = prefix_sums(dec)) < 0)
        return ret;
    profile_mark(dec, ST_PREFIX);
    a[0] = GJ_ARG_BUF(&dec->buf[BUF_SCAN_PARAMS]);
    a[1] = GJ_ARG_BUF(&dec->buf[BUF_BYTES]);
    a[2] = GJ_ARG_BUF(&dec->buf[BUF_SEGMENTS]);
    a[3] = GJ_ARG_BUF(&dec->buf[BUF_CHUNK_SEG]);
    a[4] = GJ_ARG_BUF(&dec->buf[states]);
    a[5] = GJ_ARG_BUF(&dec->buf[BUF_OFFSETS]);
    a[6] = GJ_ARG_BUF(&dec->buf[BUF_COEFS]);
    ret = gj_dev_launch(dec->dev, "gj_huff_decode_write", groups_for(dec->layout.num_chunks, HUFF_GROUP),
                        HUFF_GROUP, a, 7);
    if (ret < 0)
        return ret;
    /* The host arrays are rewritten by the next scan: wait until their uploads are done. */
    ret = dec->dev->ops->finish(dec->dev);
    profile_mark(dec, ST_WRITE);
    return ret;
}

/* ------------------------------------------------------------------ pixels */

static size_t coef_blocks(const gj_jpeg_stream *s)
{
    size_t n = 0;
    int i;

    for (i = 0; i < s->num_components; i++)
        n += (size_t)s->comp[i].blocks_w * (size_t)s->comp[i].blocks_h;
    return n;
}

static plane_ref frame_plane(const gj_frame *f, int i)
{
    plane_ref r;

    memset(&r, 0, sizeof(r));
    r.buf.handle = (uintptr_t)f->data[i];
    r.offset = f->memory == GJ_MEMORY_OPENCL ? f->offset[i] : 0;
    r.pitch = (uint32_t)f->linesize[i];
    /* The extent the plane covers, which the backends check copies against. */
    r.buf.size = r.offset + (size_t)r.pitch * (size_t)gj_frame_plane_height(f->format, i, f->height);
    return r;
}

static int launch_idct(gj_jpeg_decoder *dec, int c, const plane_ref *dst, uint32_t w, uint32_t h)
{
    const gj_jpeg_stream *s = &dec->stream;
    const gj_jpeg_component *comp = &s->comp[c];
    uint64_t block_offset = 0;
    uint32_t nbx = (w + 7) / 8, nby = (h + 7) / 8;
    int i;

    for (i = 0; i < c; i++)
        block_offset += (uint64_t)s->comp[i].blocks_w * (uint64_t)s->comp[i].blocks_h;
    {
        gj_karg a[] = {
            GJ_ARG_BUF(&dec->buf[BUF_COEFS]), GJ_ARG_U64(block_offset), GJ_ARG_U32(comp->blocks_w),
            GJ_ARG_BUF(&dec->buf[BUF_QUANT]), GJ_ARG_U32(c), GJ_ARG_U32(nbx), GJ_ARG_U32(nby),
            GJ_ARG_BUF(&dst->buf), GJ_ARG_U64(dst->offset), GJ_ARG_U32(dst->pitch), GJ_ARG_U32(w), GJ_ARG_U32(h),
        };
        return gj_dev_launch(dec->dev, "gj_jpeg_idct", groups_for((size_t)nbx * nby, HUFF_GROUP), HUFF_GROUP, a, 12);
    }
}

/* Planar output: the IDCT writes the cropped planes of the frame directly. */
static int write_planar(gj_jpeg_decoder *dec, const gj_frame *out)
{
    const gj_jpeg_stream *s = &dec->stream;
    int p, ret;

    for (p = 0; p < s->num_components; p++) {
        /* gbrp stores G, B, R: component (p + 1) % 3 goes to plane p. */
        int c = out->format == GJ_PIX_FMT_GBRP ? (p + 1) % 3 : p;
        plane_ref dst = frame_plane(out, p);
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

/* Packed output: IDCT into whole component planes, then upsample + convert. */
static int write_packed(gj_jpeg_decoder *dec, const gj_frame *out)
{
    const gj_jpeg_stream *s = &dec->stream;
    gj_color_params *cp = &dec->color_params;
    uint64_t offset = 0;
    int c, ret;
    plane_ref dst = frame_plane(out, 0);

    memset(cp, 0, sizeof(*cp));
    cp->width = (uint32_t)s->width;
    cp->height = (uint32_t)s->height;
    cp->out_format = (uint32_t)color_out_format(out->format);
    cp->color_space = (uint32_t)s->color_space;
    cp->num_comps = (uint32_t)s->num_components;
    for (c = 0; c < s->num_components; c++) {
        cp->method[c] = (uint32_t)upsample_method(s, c, &cp->fx[c], &cp->fy[c]);
        cp->comp_w[c] = (uint32_t)s->comp[c].width;
        cp->comp_h[c] = (uint32_t)s->comp[c].height;
        cp->pitch[c] = (uint32_t)s->comp[c].width;
        cp->offset_lo[c] = (uint32_t)offset;
        cp->offset_hi[c] = (uint32_t)(offset >> 32);
        offset += (uint64_t)s->comp[c].width * (uint64_t)s->comp[c].height;
    }
    if ((ret = ensure_buffer(dec, BUF_PLANES, offset)) < 0 ||
        (ret = ensure_buffer(dec, BUF_COLOR_PARAMS, sizeof(*cp))) < 0 ||
        (ret = dec->dev->ops->upload(dec->dev, &dec->buf[BUF_COLOR_PARAMS], 0, cp, sizeof(*cp))) < 0)
        return ret;
    for (c = 0; c < s->num_components; c++) {
        plane_ref plane = { dec->buf[BUF_PLANES], (uint64_t)cp->offset_hi[c] << 32 | cp->offset_lo[c], cp->pitch[c] };
        if ((ret = launch_idct(dec, c, &plane, cp->comp_w[c], cp->comp_h[c])) < 0)
            return ret;
    }
    {
        gj_karg a[] = {
            GJ_ARG_BUF(&dec->buf[BUF_COLOR_PARAMS]), GJ_ARG_BUF(&dec->buf[BUF_PLANES]),
            GJ_ARG_BUF(&dst.buf), GJ_ARG_U64(dst.offset), GJ_ARG_U32(dst.pitch),
        };
        return gj_dev_launch(dec->dev, "gj_jpeg_color", groups_for((size_t)cp->width * cp->height, PIXEL_GROUP),
                             PIXEL_GROUP, a, 5);
    }
}

/* ------------------------------------------------------------------ frames */

static int frame_matches(const gj_frame *f, int w, int h, enum gj_pixel_format fmt)
{
    return f->opaque_owner && f->width == w && f->height == h && f->format == fmt;
}

/* The device picture the kernels write: the caller's frame, or our staging frame. */
static int device_target(gj_jpeg_decoder *dec, gj_frame *out, gj_frame **target)
{
    const gj_jpeg_stream *s = &dec->stream;
    enum gj_memory mem = dec->dev->ops->memory;
    int ret;

    if (out->memory == mem) {
        if (!out->data[0]) {
            out->width = s->width;
            out->height = s->height;
            if ((ret = gj_frame_alloc(out, dec->dev)) < 0)
                return ret;
        }
        *target = out;
        return 0;
    }
    if (out->memory != GJ_MEMORY_HOST)
        return gj_fail(GJ_ERROR_INVAL, "output frame memory does not belong to the decoder's device");
    if (!frame_matches(&dec->staging, s->width, s->height, out->format)) {
        gj_frame_unref(&dec->staging);
        memset(&dec->staging, 0, sizeof(dec->staging));
        dec->staging.width = s->width;
        dec->staging.height = s->height;
        dec->staging.format = out->format;
        dec->staging.memory = mem;
        if ((ret = gj_frame_alloc(&dec->staging, dec->dev)) < 0)
            return ret;
    }
    *target = &dec->staging;
    return 0;
}

static int download_frame(gj_jpeg_decoder *dec, const gj_frame *src, gj_frame *out)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(out->format);
    int p, ret;

    if (!out->data[0]) {
        out->width = src->width;
        out->height = src->height;
        if ((ret = gj_frame_alloc(out, NULL)) < 0)
            return ret;
    }
    for (p = 0; p < d->nb_planes; p++) {
        plane_ref sp = frame_plane(src, p);
        size_t row = (size_t)gj_frame_plane_width(out->format, p, out->width) * (p ? 1 : d->bytes_per_pixel);
        ret = dec->dev->ops->download_2d(dec->dev, out->data[p], (size_t)out->linesize[p], &sp.buf, sp.offset,
                                         sp.pitch, row, (size_t)gj_frame_plane_height(out->format, p, out->height));
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int upload_quant(gj_jpeg_decoder *dec)
{
    int c;

    memset(dec->quant, 0, sizeof(dec->quant));
    for (c = 0; c < dec->stream.num_components; c++)
        memcpy(dec->quant[c], dec->stream.comp[c].quant, sizeof(dec->quant[c]));
    return dec->dev->ops->upload(dec->dev, &dec->buf[BUF_QUANT], 0, dec->quant, sizeof(dec->quant));
}

int gj_jpeg_decode(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    gj_jpeg_stream *s;
    gj_frame *target = NULL;
    enum gj_pixel_format format;
    size_t coef_bytes;
    int ret, i, damaged = 0;

    if (!dec || !out || (!data && size))
        return GJ_ERROR_INVAL;
    s = &dec->stream;
    dec->profile_last = now_ms();
    if ((ret = gj_jpeg_parse(data, size, 0, s)) < 0)
        return ret;
    format = out->format;
    if ((ret = check_output_format(s, &format)) < 0)
        return ret;
    if (out->data[0] && (out->width != s->width || out->height != s->height || out->format != format))
        return gj_fail(GJ_ERROR_INVAL, "output frame is %dx%d %s, the JPEG decodes to %dx%d %s",
                       out->width, out->height, gj_pixel_format_describe(out->format)->name,
                       s->width, s->height, gj_pixel_format_describe(format)->name);
    out->format = format;
    profile_mark(dec, ST_PARSE);
    coef_bytes = coef_blocks(s) * 64 * sizeof(int16_t);
    if ((ret = ensure_buffer(dec, BUF_COEFS, coef_bytes)) < 0 ||
        (ret = ensure_buffer(dec, BUF_QUANT, 4 * 64 * sizeof(uint16_t))) < 0 ||
        (ret = dec->dev->ops->fill_zero(dec->dev, &dec->buf[BUF_COEFS], 0, coef_bytes)) < 0)
        return ret;
    for (i = 0; i < s->num_scans; i++)
        if ((ret = decode_scan(dec, data, &s->scans[i], &damaged)) < 0)
            return ret;
    for (i = 0; i < s->num_components; i++)
        damaged |= !s->comp[i].scanned;
    if ((ret = upload_quant(dec)) < 0 || (ret = device_target(dec, out, &target)) < 0)
        return ret;
    ret = format == gj_jpeg_native_format(s) ? write_planar(dec, target) : write_packed(dec, target);
    profile_mark(dec, ST_PIXELS);
    if (ret >= 0 && target != out)
        ret = download_frame(dec, target, out);
    if (ret >= 0)
        ret = dec->dev->ops->finish(dec->dev);
    if (ret < 0)
        return ret;
    profile_mark(dec, ST_DOWNLOAD);
    profile_report(dec);
    out->decode_error_flags = damaged || s->warnings;
    if (damaged)
        gj_log(GJ_LOG_WARNING, "corrupt JPEG data: premature end of data segment or missing restart markers; "
               "the missing part is grey");
    return 0;
}

int gj_jpeg_decode_batch(gj_jpeg_decoder *dec, const uint8_t *const *data, const size_t *sizes, int n,
                         gj_frame *outs, int *results)
{
    int i, first = 0;

    if (!dec || n < 0 || (n && (!data || !sizes || !outs)))
        return GJ_ERROR_INVAL;
    for (i = 0; i < n; i++) {
        int ret = gj_jpeg_decode(dec, data[i], sizes[i], &outs[i]);
        if (results)
            results[i] = ret;
        if (ret < 0 && !first)
            first = ret;
    }
    return first;
}
