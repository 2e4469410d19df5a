/*
 * The JPEG decoder's API: markers and entropy layout on the CPU, then the GPU
 * stages of decode_entropy.c and decode_pixels.c; device buffers kept across
 * frames, output frames in host or device memory, stage timing (GJ_PROFILE=1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/staging.h"
#include "jpeg/decoder_private.h"
#include "log.h"

static const char *const stage_names[ST_COUNT] = {
    "wait", "parse", "layout", "upload", "hypotheses", "first", "sync", "prefix", "write", "pixels", "download", "join",
};

void gj_jpeg_profile_mark(gj_jpeg_decoder *dec, int stage)
{
    double t;

    if (!dec->profile)
        return;
    if (dec->profile == 1)
        dec->dev->ops->finish(dec->dev);
    t = gj_time_ms();
    dec->profile_ms[stage] += t - dec->profile_last;
    dec->profile_last = t;
}

static void profile_report(gj_jpeg_decoder *dec)
{
    char line[512];
    int i, n = 0;
    uint32_t decodes = dec->profile_decodes ? dec->profile_decodes : 1;

    if (!dec->profile)
        return;
    for (i = 0; i < ST_COUNT; i++)
        n += snprintf(line + n, sizeof(line) - (size_t)n, "%s %.3f ", stage_names[i], dec->profile_ms[i] / decodes);
    gj_log(GJ_LOG_INFO, "profile (ms%s): %ssync rounds %u", decodes > 1 ? " per decode" : "", line,
           dec->profile_rounds);
    memset(dec->profile_ms, 0, sizeof(dec->profile_ms));
    dec->profile_rounds = 0;
    dec->profile_decodes = 0;
}

/* The host time of a stream's decodes on lanes (GJ_PROFILE=2), per decode. */
static void profile_report_lanes(gj_jpeg_decoder *dec)
{
    int i, l;

    if (!dec->profile || !dec->num_lanes)
        return;
    for (l = 0; l < dec->num_lanes; l++) {
        for (i = 0; i < ST_COUNT; i++)
            dec->profile_ms[i] += dec->lanes[l]->profile_ms[i];
        dec->profile_rounds += dec->lanes[l]->profile_rounds;
        dec->profile_decodes += dec->lanes[l]->profile_decodes;
    }
    if (dec->profile_decodes)
        profile_report(dec);
}

int gj_jpeg_ensure_device_buffer(gj_device *dev, gj_buffer *b, size_t size, int pending)
{
    if (b->handle && b->size >= size)
        return 0;
    /* Queued work of this decode (an earlier scan's) may still use it. */
    if (b->handle && pending) {
        int ret = dev->ops->finish(dev);
        if (ret < 0)
            return ret;
    }
    if (b->handle)
        dev->ops->buffer_destroy(dev, b);
    memset(b, 0, sizeof(*b));
    /* Exact sizes: a stream of equal frames allocates once, and the peak stays within
     * the output, the coefficients and about a byte per pixel. */
    return dev->ops->buffer_create(dev, size ? size : 16, b);
}

int gj_jpeg_ensure_buffer(gj_jpeg_decoder *dec, int which, size_t size)
{
    return gj_jpeg_ensure_device_buffer(dec->dev, &dec->buf[which], size, dec->pending);
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
    int i;

    if (!out || !dev)
        return GJ_ERROR_INVAL;
    dec = calloc(1, sizeof(*dec));
    if (!dec)
        return GJ_ERROR_NOMEM;
    dec->dev = dev;
    dec->frame_dev = dev;
    gj_jpeg_scan_units_init(dec);
    for (i = 0; i < GJ_JPEG_MAX_SCANS; i++) {
        dec->layouts[i].bytes_alloc = layout_bytes_alloc;
        dec->layouts[i].bytes_free = layout_bytes_free;
        dec->layouts[i].bytes_opaque = dev;
    }

    env = getenv("GJ_PROFILE");
    dec->profile = env && atoi(env) > 0 ? (atoi(env) == 2 ? 2 : 1) : 0;
    env = getenv("GJ_CHUNK_BITS");      /* for tuning runs of the benchmark */
    if (env && atoi(env) >= 64 && atoi(env) <= (1 << 20))
        dec->chunk_bits_override = (uint32_t)atoi(env);
    env = getenv("GJ_SYNC");
    dec->sync_mode = !env ? SYNC_AUTO : !strcmp(env, "plain") ? SYNC_PLAIN :
                     !strcmp(env, "hyp") ? SYNC_HYPOTHESES : SYNC_AUTO;
    env = getenv("GJ_LANES");           /* for tuning runs of the benchmark */
    dec->lanes_wanted = env && atoi(env) >= 1 && atoi(env) <= MAX_LANES ? atoi(env) : DEFAULT_LANES;
    env = getenv("GJ_SYNC_ROUNDS");
    dec->sync_rounds_override = env && atoi(env) >= 0 && atoi(env) < SYNC_MAX_ROUNDS ? atoi(env) : -1;
    env = getenv("GJ_DIRECT");
    dec->direct_mode = env && (!strcmp(env, "0") || !strcmp(env, "1")) ? atoi(env) : -1;
    env = getenv("GJ_SCAN_UNITS");
    dec->scan_units_wanted = !env || strcmp(env, "0");
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
    profile_report_lanes(dec);
    gj_jpeg_lanes_free(dec);
    dec->dev->ops->finish(dec->dev);
    gj_jpeg_return_frame(dec);
    gj_jpeg_scan_units_free(dec);
    for (i = 0; i < BUF_COUNT; i++)
        if (dec->buf[i].handle)
            dec->dev->ops->buffer_destroy(dec->dev, &dec->buf[i]);
    gj_frame_unref(&dec->staging);
    for (i = 0; i < GJ_JPEG_MAX_SCANS; i++) {
        gj_entropy_layout_free(&dec->layouts[i]);
        dec->dev->ops->host_free(dec->dev, dec->scan_params_of[i]);
    }
    if (dec->owns_dev)
        gj_device_free(&dec->dev);
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

/*
 * Resolves the requested format (NONE: native planar). The native planar format
 * is written by the IDCT directly; packed formats and gray from colour go through
 * upsampling and colour conversion; other planar formats are refused.
 */
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
    }
    if (*format == native)
        return 0;
    if (*format != GJ_PIX_FMT_RGB24 && *format != GJ_PIX_FMT_RGBA && *format != GJ_PIX_FMT_BGRA &&
        *format != GJ_PIX_FMT_GRAY8) {
        if (is_planar(*format))
            return gj_fail(GJ_ERROR_INVAL, "cannot decode this JPEG to %s (its planar format is %s)",
                           gj_pixel_format_describe(*format)->name, gj_pixel_format_describe(native)->name);
        return gj_fail(GJ_ERROR_INVAL, "the JPEG decoder cannot output %s", gj_pixel_format_describe(*format)->name);
    }
    if (*format == GJ_PIX_FMT_GRAY8 && s->num_components == 4)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: gray output from a CMYK/YCCK JPEG");
    for (c = 0; c < s->num_components; c++)
        if ((ret = gj_jpeg_upsample_method(s, c, &fx, &fy)) < 0)
            return ret;
    return 0;
}

/* One decode as the parser's callbacks see it. */
typedef struct parse_context {
    gj_jpeg_decoder *dec;
    gj_frame *out;
    gj_frame *target;           /* the device picture, chosen before the first scan is queued */
    int damaged;
} parse_context;

/* The parser's walker: each scan's data is unstuffed as its end is found, so the
 * file is read once (the layout of decode_entropy.c only places it then). */
static int unstuff_scan(void *opaque, int scan, const uint8_t *data, size_t at, size_t size, size_t *end)
{
    parse_context *ctx = opaque;

    return gj_entropy_layout_unstuff(&ctx->dec->layouts[scan], data, at, size, end);
}

static int choose_target(parse_context *ctx);

/* A scan is located: its decoding is queued at once, so that the GPU decodes it while
 * the host walks the next one (GPUJPEG writes one scan per component). The frame
 * header came before the first scan, so the coefficient buffer's size is known, and
 * the output picture, which holds the scans' buffers. */
static int queue_scan(void *opaque, int scan)
{
    parse_context *ctx = opaque;
    gj_jpeg_decoder *dec = ctx->dec;
    const gj_jpeg_stream *s = &dec->stream;
    int ret;

    gj_jpeg_profile_mark(dec, ST_PARSE);
    if (scan == 0) {
        if ((ret = choose_target(ctx)) < 0 ||
            (ret = gj_jpeg_ensure_buffer(dec, BUF_COEFS, gj_jpeg_coef_bytes(s))) < 0)
            return ret;
        dec->pending = 1;
        if ((ret = gj_jpeg_scan_units_start(dec)) < 0)
            return ret;
    }
    return gj_jpeg_decode_scan(dec, &s->scans[scan], scan, &ctx->damaged);
}

/* ------------------------------------------------------------------ frames */

/* The device picture the kernels write: the caller's frame, or our staging frame
 * (also for a device frame when a lane's caller copies it, decode_lanes.c). */
static int device_target(gj_jpeg_decoder *dec, gj_frame *out, gj_frame **target)
{
    const gj_jpeg_stream *s = &dec->stream;
    int ret;

    if (out->memory == dec->dev->ops->memory) {
        if (!out->data[0]) {
            out->width = s->width;
            out->height = s->height;
            if ((ret = gj_frame_alloc(out, dec->frame_dev)) < 0)
                return ret;
        }
        *target = out;
        if (!dec->stage_device_output)
            return 0;
    } else if (out->memory != GJ_MEMORY_HOST) {
        return gj_fail(GJ_ERROR_INVAL, "output frame memory does not belong to the decoder's device");
    }
    if ((ret = gj_staging_ensure(dec->dev, &dec->staging, s->width, s->height, out->format)) < 0)
        return ret;
    *target = &dec->staging;
    return 0;
}

/* The output's format and the device picture the kernels write, known from the frame
 * header: the scans' buffers may live in that picture until the pixels are written. */
static int choose_target(parse_context *ctx)
{
    gj_jpeg_decoder *dec = ctx->dec;
    const gj_jpeg_stream *s = &dec->stream;
    gj_frame *out = ctx->out;
    enum gj_pixel_format format = out->format;
    int ret;

    if ((ret = check_output_format(s, &format)) < 0)
        return ret;
    if (out->data[0] && (out->width != s->width || out->height != s->height || out->format != format))
        return gj_fail(GJ_ERROR_INVAL, "output frame is %dx%d %s, the JPEG decodes to %dx%d %s",
                       out->width, out->height, gj_pixel_format_describe(out->format)->name,
                       s->width, s->height, gj_pixel_format_describe(format)->name);
    out->format = format;
    if ((ret = device_target(dec, out, &ctx->target)) < 0)
        return ret;
    gj_jpeg_borrow_frame(dec, ctx->target);
    return 0;
}

/* Everything of gj_jpeg_decode_queue() but giving the frame back. */
static int decode_queue(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    gj_jpeg_stream *s = &dec->stream;
    parse_context ctx = { dec, out, NULL, 0 };
    int ret, i;

    if (dec->profile) {
        dec->profile_last = gj_time_ms();
        dec->profile_decodes++;
    }
    /* The host copies of the last decode's uploads are rewritten now (a failed decode's
     * scans on other units are joined first: unit 0's queue then covers them). */
    if ((ret = gj_jpeg_scan_units_join(dec)) < 0 || (dec->pending && (ret = dec->dev->ops->finish(dec->dev)) < 0))
        return ret;
    dec->pending = 0;
    dec->scans_at_once = 0;
    gj_jpeg_profile_mark(dec, ST_WAIT);
    if ((ret = gj_jpeg_parse_walking(data, size, s, unstuff_scan, queue_scan, &ctx)) < 0)
        return ret;
    if ((!ctx.target && (ret = choose_target(&ctx)) < 0) || (ret = gj_jpeg_scan_units_join(dec)) < 0)
        return ret;
    for (i = 0; i < s->num_components; i++)
        ctx.damaged |= !s->comp[i].scanned;
    ret = out->format == gj_jpeg_native_format(s) ? gj_jpeg_write_planar(dec, ctx.target) :
          gj_jpeg_write_packed(dec, ctx.target);
    gj_jpeg_profile_mark(dec, ST_PIXELS);
    /* A staged device picture is copied by the caller (decode_lanes.c). */
    if (ret >= 0 && ctx.target != out && out->memory == GJ_MEMORY_HOST)
        ret = gj_staging_download(dec->dev, ctx.target, out, s->width, s->height);
    if (ret < 0)
        return ret;
    out->decode_error_flags = ctx.damaged || s->warnings;
    if (ctx.damaged)
        gj_log(GJ_LOG_WARNING, "corrupt JPEG data: premature end of data segment or missing restart markers; "
               "the missing part is grey");
    return 0;
}

int gj_jpeg_decode_queue(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    int ret;

    if (!dec || !out || (!data && size))
        return GJ_ERROR_INVAL;
    ret = decode_queue(dec, data, size, out);
    /* Queued work keeps its views; an error leaves the frame's content undefined. */
    gj_jpeg_return_frame(dec);
    return ret;
}

int gj_jpeg_decode(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out)
{
    int ret = gj_jpeg_decode_queue(dec, data, size, out);

    if (ret < 0)
        return ret;
    if ((ret = dec->dev->ops->finish(dec->dev)) < 0)
        return ret;
    dec->pending = 0;
    gj_jpeg_profile_mark(dec, ST_DOWNLOAD);
    profile_report(dec);
    return 0;
}
