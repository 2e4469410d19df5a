/*
 * mjpeg_gpujpeg and jpeg2000_gpujpeg: Motion JPEG and JPEG 2000 decoders on
 * libgpujpeg (CUDA or OpenCL).
 *
 * Software output in the format the native decoder reports (mjpeg: yuvj420p,
 * yuvj422p, gray, gbrp ...; jpeg2000: rgb24, rgb48le, yuv420p, gray16le, xyz12le
 * for digital cinema ...), or CUDA / OpenCL hardware frames decoded in place
 * when the caller sets a hardware device or frames context and the device's
 * frames can hold the format.
 */

#include "config.h"
#include "config_components.h"

#include <gpujpeg/av.h>

#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avcodec.h"
#include "codec_internal.h"
#include "decode.h"
#include "hwconfig.h"
#include "libgpujpeg.h"

typedef struct GJDecoderContext {
    const AVClass  *class;
    GJDecodeContext gj;
    int             gj_on_hw;       ///< gj decodes on the hw device context's device
    int             own_frames;     ///< avctx->hw_frames_ctx was made here
    int             width, height;  ///< of the negotiated output
    enum AVPixelFormat sw_format;   ///< of the negotiated output

    /* options */
    char           *device;
    enum AVPixelFormat output_format;
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

    /* the full size: FFmpeg divides it by lowres (a reduced JPEG 2000 decode) */
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
    if (ctx->gj.dec && ctx->gj_on_hw == on_hw)
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
 * The JPEG 2000 picture's size at avctx->lowres and its format as the native
 * jpeg2000 decoder reports it: plain (not full-range) YUV, and XYZ for the
 * digital cinema profiles (12-bit X'Y'Z' samples, as RGB48's layout holds them).
 */
static int probe_j2k(AVCodecContext *avctx, const AVPacket *pkt, int *w, int *h,
                     enum AVPixelFormat *sw)
{
    gj_j2k_info info;
    int ret;

    if ((ret = gj_j2k_read_info(pkt->data, pkt->size, &info)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "invalid or unsupported JPEG 2000 (%s)\n", gj_strerror(ret));
        return ret;
    }
    if ((ret = gj_j2k_output_size(&info, avctx->lowres, w, h)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "lowres %d leaves no picture of %dx%d\n",
               avctx->lowres, info.width, info.height);
        return ret;
    }
    *sw = ff_gpujpeg_hw_sw_format(gj_av_pixel_format(info.native_format));
    if (*sw == AV_PIX_FMT_NONE) {
        av_log(avctx, AV_LOG_ERROR, "unsupported JPEG 2000 picture: %d components\n",
               info.num_components);
        return AVERROR_PATCHWELCOME;
    }
    if (*sw == AV_PIX_FMT_RGB48LE &&
        (info.profile == AV_PROFILE_JPEG2000_DCINEMA_2K || info.profile == AV_PROFILE_JPEG2000_DCINEMA_4K))
        *sw = AV_PIX_FMT_XYZ12LE;
    avctx->profile = info.profile;
    return 0;
}

static int gpujpeg_decode(AVCodecContext *avctx, AVFrame *frame, int *got_frame,
                          AVPacket *pkt)
{
    GJDecoderContext *ctx = avctx->priv_data;
    enum AVPixelFormat sw;
    int ret, w, h, j2k = avctx->codec_id == AV_CODEC_ID_JPEG2000;

    if ((ret = j2k ? probe_j2k(avctx, pkt, &w, &h, &sw) : probe_jpeg(avctx, pkt, &w, &h, &sw)) < 0)
        return ret;
    if ((!ctx->gj.dec && !ctx->gj.j2k) || w != ctx->width || h != ctx->height || sw != ctx->sw_format) {
        if ((ret = negotiate(avctx, w, h, sw)) < 0)
            return ret;
    }
    if (j2k && (ret = gj_j2k_decoder_set_reduce(ctx->gj.j2k, avctx->lowres)) < 0)
        return ff_gpujpeg_error(avctx, ret, "lowres");
    if ((ret = ff_get_buffer(avctx, frame, 0)) < 0)
        return ret;
    if ((ret = ff_gpujpeg_decode_frame(avctx, &ctx->gj, pkt->data, pkt->size, frame)) < 0)
        return ret;
    frame->pict_type = AV_PICTURE_TYPE_I;
    frame->flags    |= AV_FRAME_FLAG_KEY;
    *got_frame = 1;
    return pkt->size;
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
    if (avctx->codec_id == AV_CODEC_ID_JPEG2000)
        return 0;       /* the native format only */
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

    ff_gpujpeg_close(&ctx->gj);
    return 0;
}

#define OFFSET(x) offsetof(GJDecoderContext, x)
#define VD AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_DECODING_PARAM
#define DEVICE_OPTION                                                                        \
    { "gpu_device",    "device for software output: auto, cuda[:N], opencl[:N], opencl-gpu[:N], " \
                       "opencl-cpu (hardware output uses the hw device context's)",           \
                       OFFSET(device),        AV_OPT_TYPE_STRING,    { .str = "auto" }, 0, 0, VD }
static const AVOption mjpeg_options[] = {
    DEVICE_OPTION,
    { "output_format", "decode to rgb24, rgba, bgra or gray instead of the JPEG's planar format "
                       "(colour conversion and upsampling as djpeg does)",
                       OFFSET(output_format), AV_OPT_TYPE_PIXEL_FMT, { .i64 = AV_PIX_FMT_NONE }, -1, INT_MAX, VD },
    { NULL },
};

static const AVOption j2k_options[] = {
    DEVICE_OPTION,
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
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_HARDWARE,
    .p.priv_class   = &mjpeg_class,
    .p.wrapper_name = "libgpujpeg",
    .priv_data_size = sizeof(GJDecoderContext),
    .init           = gpujpeg_init,
    .close          = gpujpeg_close,
    FF_CODEC_DECODE_CB(gpujpeg_decode),
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
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_HARDWARE,
    .p.priv_class   = &j2k_class,
    .p.wrapper_name = "libgpujpeg",
    .p.max_lowres   = 31,
    .priv_data_size = sizeof(GJDecoderContext),
    .init           = gpujpeg_init,
    .close          = gpujpeg_close,
    FF_CODEC_DECODE_CB(gpujpeg_decode),
    .hw_configs     = gpujpeg_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
#endif
