/*
 * mjpeg_gpujpeg and jpeg2000_gpujpeg: Motion JPEG and JPEG 2000 decoders on
 * libgpujpeg (CUDA or OpenCL).
 *
 * Software output in the format the native decoder reports (mjpeg: yuvj420p,
 * yuvj422p, gray, gbrp ...; jpeg2000: rgb24, rgb48le, yuv420p, gray16le, xyz12le
 * for digital cinema, pal8 ...), or CUDA / OpenCL hardware frames decoded in place
 * when the caller sets a hardware device or frames context and the device's
 * frames can hold the format. jpeg2000_gpujpeg decodes its packets in batches
 * (receive_frame: a batch's worth of delay). Software frames lie in the device's
 * page-locked host memory (the pinned option, ff_gpujpeg_get_buffer()).
 */

#include "config.h"
#include "config_components.h"

#include <gpujpeg/av.h>

#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avcodec.h"
#include "codec_internal.h"
#include "decode.h"
#include "hwconfig.h"
#include "libgpujpeg.h"

/* A JPEG 2000 packet taken for a batch, and what its picture decodes to. */
typedef struct GJQueued {
    AVPacket       *pkt;
    int             probed;         ///< probe_j2k()'s result: < 0, the packet's frame is that error
    int             width, height;
    enum AVPixelFormat sw;
    AVRational      sar;            ///< a JP2 file's resolution box's, else 0/0
    size_t          icc_offset, icc_size;   ///< a JP2 file's ICC profile in the packet (size 0: none)
} GJQueued;

typedef struct GJDecoderContext {
    const AVClass  *class;
    GJDecodeContext gj;
    int             gj_on_hw;       ///< gj decodes on the hw device context's device
    int             own_frames;     ///< avctx->hw_frames_ctx was made here
    int             width, height;  ///< of the negotiated output
    enum AVPixelFormat sw_format;   ///< of the negotiated output

    /* jpeg2000: the batch's packets, then at most one that starts the next (another
     * format, or no picture); the decoded batch's frames, handed out in order */
    GJQueued        queue[FF_GPUJPEG_BATCH_MAX + 1];
    int             nb_queued;
    AVFrame        *frames[FF_GPUJPEG_BATCH_MAX];
    int             results[FF_GPUJPEG_BATCH_MAX];
    int             nb_frames, next_frame;
    int             eof;            ///< the last packet was taken

    /* options */
    char           *device;
    enum AVPixelFormat output_format;
    int             batch;
    int             pinned;
} GJDecoderContext;

static enum AVPixelFormat hw_format(AVCodecContext *avctx)
{
    if (avctx->hw_frames_ctx)
        return ((AVHWFramesContext *)avctx->hw_frames_ctx->data)->format;
    if (avctx->hw_device_ctx) {
        switch (((AVHWDeviceContext *)avctx->hw_device_ctx->data)->type) {
#if CONFIG_CUDA
        case AV_HWDEVICE_TYPE_CUDA:   return AV_PIX_FMT_CUDA;
#endif
#if CONFIG_OPENCL
        case AV_HWDEVICE_TYPE_OPENCL: return AV_PIX_FMT_OPENCL;
#endif
        default: break;
        }
    }
    return AV_PIX_FMT_NONE;
}

static int make_frames_ctx(AVCodecContext *avctx, enum AVPixelFormat hw, enum AVPixelFormat sw)
{
    AVHWFramesContext *frames;
    int ret;

    if (avctx->hw_frames_ctx) {
        frames = (AVHWFramesContext *)avctx->hw_frames_ctx->data;
        if (ff_gpujpeg_hw_sw_format(frames->sw_format) != ff_gpujpeg_hw_sw_format(sw) ||
            frames->width < avctx->width || frames->height < avctx->height) {
            av_log(avctx, AV_LOG_ERROR, "the hardware frames (%s %dx%d) cannot hold "
                   "%s %dx%d pictures\n", av_get_pix_fmt_name(frames->sw_format),
                   frames->width, frames->height, av_get_pix_fmt_name(sw),
                   avctx->width, avctx->height);
            return AVERROR(EINVAL);
        }
        return 0;
    }
    if (!(avctx->hw_frames_ctx = av_hwframe_ctx_alloc(avctx->hw_device_ctx)))
        return AVERROR(ENOMEM);
    frames            = (AVHWFramesContext *)avctx->hw_frames_ctx->data;
    frames->format    = hw;
    frames->sw_format = ff_gpujpeg_hw_sw_format(sw);
    ff_gpujpeg_frames_size(frames, avctx->width, avctx->height);
    if ((ret = av_hwframe_ctx_init(avctx->hw_frames_ctx)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "cannot make %s frames of %s: %s\n", av_get_pix_fmt_name(hw),
               av_get_pix_fmt_name(frames->sw_format), av_err2str(ret));
        av_buffer_unref(&avctx->hw_frames_ctx);
    }
    return ret;
}

/* Called when the picture size or format changes: asks get_format() for
 * hardware or software frames and opens the decoder on the matching device. */
static int negotiate(AVCodecContext *avctx, int width, int height, enum AVPixelFormat sw)
{
    GJDecoderContext *ctx = avctx->priv_data;
    enum AVPixelFormat fmts[3], *f = fmts, hw = hw_format(avctx), chosen;
    AVBufferRef *device = NULL;
    int ret, on_hw;

    /* the full size: FFmpeg divides it by lowres (a reduced JPEG 2000 decode); max_lowres
     * is 31, where a picture's reduced size shifted back can pass an int */
    if ((int64_t)width << avctx->lowres > INT_MAX || (int64_t)height << avctx->lowres > INT_MAX) {
        av_log(avctx, AV_LOG_ERROR, "lowres %d is too large: the reduced %dx%d picture shifted back passes INT_MAX\n",
               avctx->lowres, width, height);
        return AVERROR(EINVAL);
    }
    if ((ret = ff_set_dimensions(avctx, width << avctx->lowres, height << avctx->lowres)) < 0)
        return ret;
    if (hw != AV_PIX_FMT_NONE && !ff_gpujpeg_hw_can_hold(avctx->hw_frames_ctx ?
            ((AVHWFramesContext *)avctx->hw_frames_ctx->data)->device_ref : avctx->hw_device_ctx, sw)) {
        av_log(avctx, AV_LOG_VERBOSE, "%s frames cannot hold %s pictures: software frames\n",
               av_get_pix_fmt_name(hw), av_get_pix_fmt_name(sw));
        hw = AV_PIX_FMT_NONE;
    }
    if (hw != AV_PIX_FMT_NONE)
        *f++ = hw;
    *f++ = sw;
    *f   = AV_PIX_FMT_NONE;
    if ((chosen = ff_get_format(avctx, fmts)) < 0)
        return chosen;
    on_hw = chosen == hw && hw != AV_PIX_FMT_NONE;
    if (on_hw) {
        /* a pool we made for the previous size or format; the caller's is checked */
        if (ctx->own_frames)
            av_buffer_unref(&avctx->hw_frames_ctx);
        ctx->own_frames = !avctx->hw_frames_ctx;
        if ((ret = make_frames_ctx(avctx, hw, sw)) < 0)
            return ret;
        device = ((AVHWFramesContext *)avctx->hw_frames_ctx->data)->device_ref;
    }
    avctx->pix_fmt = chosen;
    ctx->width     = width;
    ctx->height    = height;
    ctx->sw_format = sw;
    if ((ctx->gj.dec || ctx->gj.j2k) && ctx->gj_on_hw == on_hw)
        return 0;
    ff_gpujpeg_close(&ctx->gj);
    ctx->gj_on_hw = on_hw;
    return ff_gpujpeg_open(avctx, &ctx->gj, avctx->codec_id, device, ctx->device);
}

/* The JPEG's size and the format it decodes to (output_format, or its planar one). */
static int probe_jpeg(AVCodecContext *avctx, const AVPacket *pkt, int *w, int *h,
                      enum AVPixelFormat *sw)
{
    GJDecoderContext *ctx = avctx->priv_data;
    gj_jpeg_info info;
    int ret;

    if ((ret = gj_jpeg_read_info(pkt->data, pkt->size, &info)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "invalid or unsupported JPEG (%s)\n", gj_strerror(ret));
        return ret;
    }
    *w  = info.width;
    *h  = info.height;
    *sw = ctx->output_format;
    if (*sw == AV_PIX_FMT_NONE) {
        *sw = gj_av_pixel_format(info.native_format);
        /* CMYK/YCCK and samplings without a planar layout: like djpeg, RGB */
        if (*sw == AV_PIX_FMT_NONE)
            *sw = AV_PIX_FMT_RGB24;
    }
    return 0;
}

/*
 * Whether the native decoder reports the picture as pal8: a JP2 palette (pclr) of
 * at most 256 entries of three columns on one component of up to 8 bits.
 */
static int is_pal8(const AVPacket *pkt, const gj_j2k_info *info)
{
    gj_j2k_palette *palette;
    int pal8;

    if (!info->jp2 || info->num_components != 1 || info->precision[0] > 8 || info->dx[0] != 1 ||
        info->dy[0] != 1 || !(palette = av_malloc(sizeof(*palette))))
        return 0;
    pal8 = gj_j2k_read_palette(pkt->data, pkt->size, palette) >= 0 && palette->entries &&
           palette->entries <= AVPALETTE_COUNT && palette->columns == 3;
    av_free(palette);
    return pal8;
}

/*
 * The JPEG 2000 picture's size at avctx->lowres, its format as the native
 * jpeg2000 decoder reports it (plain, not full-range, YUV, XYZ for the digital
 * cinema profiles: 12-bit X'Y'Z' samples, as RGB48's layout holds them, and pal8
 * for a JP2 palette that it holds), the sample aspect ratio of a JP2 file's
 * resolution box and where its ICC profile lies (q's fields).
 */
static int probe_j2k(AVCodecContext *avctx, GJQueued *q)
{
    const AVPacket *pkt = q->pkt;
    gj_j2k_info info;
    int ret;

    if ((ret = gj_j2k_read_info(pkt->data, pkt->size, &info)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "invalid or unsupported JPEG 2000 (%s)\n", gj_strerror(ret));
        return ret;
    }
    if ((ret = gj_j2k_output_size(&info, avctx->lowres, &q->width, &q->height)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "lowres %d leaves no picture of %dx%d\n",
               avctx->lowres, info.width, info.height);
        return ret;
    }
    q->sw = ff_gpujpeg_hw_sw_format(gj_av_pixel_format(info.native_format));
    if (is_pal8(pkt, &info))
        q->sw = AV_PIX_FMT_PAL8;
    if (q->sw == AV_PIX_FMT_NONE) {
        av_log(avctx, AV_LOG_ERROR, "unsupported JPEG 2000 picture: %d components\n",
               info.num_components);
        return AVERROR_PATCHWELCOME;
    }
    if (q->sw == AV_PIX_FMT_RGB48LE &&
        (info.profile == AV_PROFILE_JPEG2000_DCINEMA_2K || info.profile == AV_PROFILE_JPEG2000_DCINEMA_4K))
        q->sw = AV_PIX_FMT_XYZ12LE;
    avctx->profile = info.profile;
    q->sar = (AVRational){ info.sar_num, info.sar_den };
    q->icc_offset = info.icc_offset;
    q->icc_size = info.icc_size;
    return 0;
}

static int get_buffer(AVCodecContext *avctx, AVFrame *frame)
{
    GJDecoderContext *ctx = avctx->priv_data;

    return ctx->pinned ? ff_gpujpeg_get_buffer(avctx, &ctx->gj, frame) : ff_get_buffer(avctx, frame, 0);
}

/* mjpeg_gpujpeg: a packet at a time (CUDA frames are decoded asynchronously: libgpujpeg.c) */
static int mjpeg_decode(AVCodecContext *avctx, AVFrame *frame, int *got_frame, AVPacket *pkt)
{
    GJDecoderContext *ctx = avctx->priv_data;
    enum AVPixelFormat sw;
    int ret, w, h;

    if ((ret = probe_jpeg(avctx, pkt, &w, &h, &sw)) < 0)
        return ret;
    if (!ctx->gj.dec || w != ctx->width || h != ctx->height || sw != ctx->sw_format) {
        if ((ret = negotiate(avctx, w, h, sw)) < 0)
            return ret;
    }
    if ((ret = get_buffer(avctx, frame)) < 0)
        return ret;
    if ((ret = ff_gpujpeg_decode_frame(avctx, &ctx->gj, pkt->data, pkt->size, frame)) < 0)
        return ret;
    frame->pict_type = AV_PICTURE_TYPE_I;
    frame->flags    |= AV_FRAME_FLAG_KEY;
    *got_frame = 1;
    return pkt->size;
}

/*
 * jpeg2000_gpujpeg takes `batch` packets (auto: 16, or 1 with threads=1, the
 * usual way to ask a decoder for no delay) and decodes them together: their host
 * work side by side on the lanes' threads, their T1 in one launch a wave, several
 * times one picture's throughput. Each frame comes with its own packet's
 * properties; a packet whose picture differs in size or format, or that is not
 * JPEG 2000, ends the batch before it.
 */
static int batch_size(AVCodecContext *avctx)
{
    GJDecoderContext *ctx = avctx->priv_data;

    if (ctx->batch > 0)
        return ctx->batch;
    return avctx->thread_count == 1 ? 1 : 16;
}

/* Takes the next packet into the queue and probes it; 0, or EAGAIN/EOF/an error from the caller. */
static int take_packet(AVCodecContext *avctx)
{
    GJDecoderContext *ctx = avctx->priv_data;
    GJQueued *q = &ctx->queue[ctx->nb_queued];
    int ret;

    if ((ret = ff_decode_get_packet(avctx, q->pkt)) < 0)
        return ret;
    q->probed = probe_j2k(avctx, q);
    ctx->nb_queued++;
    return 0;
}

/* Whether queued packet i belongs to the batch that starts at packet 0. */
static int same_batch(const GJDecoderContext *ctx, int i)
{
    const GJQueued *a = &ctx->queue[0], *b = &ctx->queue[i];

    return a->probed >= 0 && b->probed >= 0 && a->width == b->width && a->height == b->height &&
           a->sw == b->sw;
}

/* A JP2 file's ICC profile as the frame's side data, for the application to apply (as the png and mjpeg decoders give theirs). */
static int attach_icc_profile(AVCodecContext *avctx, AVFrame *frame, const GJQueued *q)
{
    AVFrameSideData *sd;
    int ret;

    if (!q->icc_size)
        return 0;
    if ((ret = ff_frame_new_side_data(avctx, frame, AV_FRAME_DATA_ICC_PROFILE, q->icc_size, &sd)) < 0)
        return ret;
    if (sd)
        memcpy(sd->data, q->pkt->data + q->icc_offset, q->icc_size);
    return 0;
}

/* Decodes the first n queued packets (of one format) into ctx->frames. */
static int decode_batch(AVCodecContext *avctx, int n)
{
    GJDecoderContext *ctx = avctx->priv_data;
    AVPacket *pkts[FF_GPUJPEG_BATCH_MAX];
    GJQueued *q = &ctx->queue[0];
    int ret;

    if (q->width != ctx->width || q->height != ctx->height || q->sw != ctx->sw_format || !ctx->gj.j2k) {
        if ((ret = negotiate(avctx, q->width, q->height, q->sw)) < 0)
            return ret;
    }
    if ((ret = gj_j2k_decoder_set_reduce(ctx->gj.j2k, avctx->lowres)) < 0)
        return ff_gpujpeg_error(avctx, ret, "lowres");
    for (int i = 0; i < n; i++) {
        pkts[i] = ctx->queue[i].pkt;
        /* as the native decoder: a picture's ratio stays for the pictures without one */
        if (ctx->queue[i].sar.num)
            avctx->sample_aspect_ratio = ctx->queue[i].sar;
        if ((ret = get_buffer(avctx, ctx->frames[i])) < 0 ||
            (ret = ff_decode_frame_props_from_pkt(avctx, ctx->frames[i], pkts[i])) < 0 ||
            (ret = attach_icc_profile(avctx, ctx->frames[i], &ctx->queue[i])) < 0)
            return ret;
        ctx->frames[i]->pict_type = AV_PICTURE_TYPE_I;
        ctx->frames[i]->flags    |= AV_FRAME_FLAG_KEY;
    }
    /* pal8: the indices a picture at a time, their palette on the host */
    if (q->sw == AV_PIX_FMT_PAL8) {
        for (int i = 0; i < n; i++)
            ctx->results[i] = ff_gpujpeg_decode_j2k_pal8(avctx, &ctx->gj, pkts[i]->data, pkts[i]->size,
                                                         ctx->frames[i]);
        return 0;
    }
    if (n > 1)
        return ff_gpujpeg_decode_j2k_batch(avctx, &ctx->gj, pkts, ctx->frames, n, ctx->results);
    ctx->results[0] = ff_gpujpeg_decode_frame(avctx, &ctx->gj, pkts[0]->data, pkts[0]->size,
                                              ctx->frames[0]);
    return 0;
}

/* Drops the first n queued packets (their AVPackets go to the end, for reuse). */
static void dequeue(GJDecoderContext *ctx, int n)
{
    GJQueued done[FF_GPUJPEG_BATCH_MAX + 1];
    int left = ctx->nb_queued - n;

    for (int i = 0; i < n; i++)
        av_packet_unref(ctx->queue[i].pkt);
    memcpy(done, ctx->queue, n * sizeof(*done));
    memmove(ctx->queue, ctx->queue + n, left * sizeof(*done));
    memcpy(ctx->queue + left, done, n * sizeof(*done));
    ctx->nb_queued = left;
}

static int j2k_receive_frame(AVCodecContext *avctx, AVFrame *frame)
{
    GJDecoderContext *ctx = avctx->priv_data;
    int ret, n;

    while (ctx->next_frame == ctx->nb_frames) {
        ctx->nb_frames = ctx->next_frame = 0;
        /* a batch ends at its size, at the end, or before a packet that cannot join it */
        for (n = 0; n < ctx->nb_queued && n < batch_size(avctx) && same_batch(ctx, n); n++)
            ;
        while (!ctx->eof && n == ctx->nb_queued && n < batch_size(avctx)) {
            ret = take_packet(avctx);
            if (ret == AVERROR_EOF)
                ctx->eof = 1;
            else if (ret < 0)
                return ret;     /* AVERROR(EAGAIN): the batch waits for more packets */
            else if (same_batch(ctx, n))
                n++;
        }
        if (!ctx->nb_queued)
            return AVERROR_EOF;
        if (!n) {
            /* a packet without a picture: its error, in its turn */
            ret = ctx->queue[0].probed;
            dequeue(ctx, 1);
            return ret;
        }
        ret = decode_batch(avctx, n);
        dequeue(ctx, n);
        if (ret < 0) {
            for (int i = 0; i < n; i++)
                av_frame_unref(ctx->frames[i]);
            return ret;
        }
        ctx->nb_frames = n;
    }
    ret = ctx->results[ctx->next_frame];
    if (ret >= 0)
        av_frame_move_ref(frame, ctx->frames[ctx->next_frame]);
    av_frame_unref(ctx->frames[ctx->next_frame++]);
    return ret;
}

static void j2k_flush(AVCodecContext *avctx)
{
    GJDecoderContext *ctx = avctx->priv_data;

    dequeue(ctx, ctx->nb_queued);
    for (int i = 0; i < FF_GPUJPEG_BATCH_MAX; i++)
        av_frame_unref(ctx->frames[i]);
    ctx->nb_frames = ctx->next_frame = 0;
    ctx->eof = 0;
}

static av_cold int gpujpeg_init(AVCodecContext *avctx)
{
    GJDecoderContext *ctx = avctx->priv_data;
    static const enum AVPixelFormat outputs[] = {
        AV_PIX_FMT_NONE, AV_PIX_FMT_RGB24, AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, AV_PIX_FMT_GRAY8,
    };
    int i;

    ff_gpujpeg_log_init();
    ctx->sw_format = AV_PIX_FMT_NONE;
    if (avctx->codec_id == AV_CODEC_ID_JPEG2000) {
        /* the native format only; the batches' packets and frames */
        for (i = 0; i < FF_ARRAY_ELEMS(ctx->queue); i++)
            if (!(ctx->queue[i].pkt = av_packet_alloc()))
                return AVERROR(ENOMEM);
        for (i = 0; i < FF_ARRAY_ELEMS(ctx->frames); i++)
            if (!(ctx->frames[i] = av_frame_alloc()))
                return AVERROR(ENOMEM);
        return 0;
    }
    for (i = 0; i < FF_ARRAY_ELEMS(outputs); i++)
        if (ctx->output_format == outputs[i])
            return 0;
    av_log(avctx, AV_LOG_ERROR, "output_format %s: only rgb24, rgba, bgra and gray "
           "(or none: the JPEG's planar format) can be decoded to\n",
           av_get_pix_fmt_name(ctx->output_format));
    return AVERROR(EINVAL);
}

static av_cold int gpujpeg_close(AVCodecContext *avctx)
{
    GJDecoderContext *ctx = avctx->priv_data;

    for (int i = 0; i < FF_ARRAY_ELEMS(ctx->queue); i++)
        av_packet_free(&ctx->queue[i].pkt);
    for (int i = 0; i < FF_ARRAY_ELEMS(ctx->frames); i++)
        av_frame_free(&ctx->frames[i]);
    ff_gpujpeg_close(&ctx->gj);
    return 0;
}

#define OFFSET(x) offsetof(GJDecoderContext, x)
#define VD AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_DECODING_PARAM
#define DEVICE_OPTION                                                                        \
    { "gpu_device",    "device for software output: auto, cuda[:N], opencl[:N], opencl-gpu[:N], " \
                       "opencl-cpu (hardware output uses the hw device context's)",           \
                       OFFSET(device),        AV_OPT_TYPE_STRING,    { .str = "auto" }, 0, 0, VD }, \
    { "pinned",        "software frames in the device's page-locked host memory, which its copies " \
                       "fill several times faster (0: FFmpeg's buffers)",                      \
                       OFFSET(pinned),        AV_OPT_TYPE_BOOL,      { .i64 = 1 }, 0, 1, VD }
static const AVOption mjpeg_options[] = {
    DEVICE_OPTION,
    { "output_format", "decode to rgb24, rgba, bgra or gray instead of the JPEG's planar format "
                       "(colour conversion and upsampling as djpeg does)",
                       OFFSET(output_format), AV_OPT_TYPE_PIXEL_FMT, { .i64 = AV_PIX_FMT_NONE }, -1, INT_MAX, VD },
    { NULL },
};

static const AVOption j2k_options[] = {
    DEVICE_OPTION,
    { "batch",         "pictures decoded together: more throughput, as many frames of delay "
                       "(0: 16, or 1 with threads=1)",
                       OFFSET(batch),         AV_OPT_TYPE_INT,       { .i64 = 0 }, 0, FF_GPUJPEG_BATCH_MAX, VD },
    { NULL },
};

static const AVClass mjpeg_class = {
    .class_name = "mjpeg_gpujpeg",
    .item_name  = av_default_item_name,
    .option     = mjpeg_options,
    .version    = LIBAVUTIL_VERSION_INT,
};

static const AVClass j2k_class = {
    .class_name = "jpeg2000_gpujpeg",
    .item_name  = av_default_item_name,
    .option     = j2k_options,
    .version    = LIBAVUTIL_VERSION_INT,
};

/* Hardware output is ours (no hwaccel): the frames are allocated here and
 * decoded into in place. */
#define GJ_HW_CONFIG(FMT, DEVICE)                                                \
    &(const AVCodecHWConfigInternal) {                                           \
        .public = {                                                              \
            .pix_fmt     = AV_PIX_FMT_ ## FMT,                                   \
            .methods     = AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX |             \
                           AV_CODEC_HW_CONFIG_METHOD_HW_FRAMES_CTX,              \
            .device_type = AV_HWDEVICE_TYPE_ ## DEVICE,                          \
        },                                                                       \
        .hwaccel = NULL,                                                         \
    }

static const AVCodecHWConfigInternal *const gpujpeg_hw_configs[] = {
#if CONFIG_CUDA
    GJ_HW_CONFIG(CUDA, CUDA),
#endif
#if CONFIG_OPENCL
    GJ_HW_CONFIG(OPENCL, OPENCL),
#endif
    NULL
};

#if CONFIG_MJPEG_GPUJPEG_DECODER
const FFCodec ff_mjpeg_gpujpeg_decoder = {
    .p.name         = "mjpeg_gpujpeg",
    CODEC_LONG_NAME("MJPEG (libgpujpeg, CUDA/OpenCL)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_MJPEG,
    .p.capabilities = AV_CODEC_CAP_HARDWARE,
    .p.priv_class   = &mjpeg_class,
    .p.wrapper_name = "libgpujpeg",
    .priv_data_size = sizeof(GJDecoderContext),
    .init           = gpujpeg_init,
    .close          = gpujpeg_close,
    FF_CODEC_DECODE_CB(mjpeg_decode),
    .hw_configs     = gpujpeg_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
#endif

#if CONFIG_JPEG2000_GPUJPEG_DECODER
const FFCodec ff_jpeg2000_gpujpeg_decoder = {
    .p.name         = "jpeg2000_gpujpeg",
    CODEC_LONG_NAME("JPEG 2000 (libgpujpeg, CUDA/OpenCL)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_JPEG2000,
    .p.capabilities = AV_CODEC_CAP_HARDWARE | AV_CODEC_CAP_DELAY |
                      AV_CODEC_CAP_OTHER_THREADS,
    .p.priv_class   = &j2k_class,
    .p.wrapper_name = "libgpujpeg",
    .p.max_lowres   = 31,
    .priv_data_size = sizeof(GJDecoderContext),
    .init           = gpujpeg_init,
    .close          = gpujpeg_close,
    FF_CODEC_RECEIVE_FRAME_CB(j2k_receive_frame),
    .flush          = j2k_flush,
    .hw_configs     = gpujpeg_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP | FF_CODEC_CAP_SETS_FRAME_PROPS |
                      FF_CODEC_CAP_AUTO_THREADS | FF_CODEC_CAP_ICC_PROFILES,
};
#endif
