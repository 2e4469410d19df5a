/*
 * MJPEG hwaccel on libgpujpeg: the native mjpeg decoder parses the headers and
 * allocates the CUDA or OpenCL picture; libgpujpeg decodes the whole JPEG of
 * the packet into it on FFmpeg's own device context and stream/queue.
 */

#include "config_components.h"

#include <gpujpeg/av.h>

#include "libavutil/pixdesc.h"

#include "avcodec.h"
#include "decode.h"
#include "hwaccel_internal.h"
#include "internal.h"
#include "mjpegdec.h"
#include "gpujpeg_mjpeg.h"
#include "libgpujpeg.h"

typedef struct GJHWAccelContext {
    GJDecodeContext gj;
    const uint8_t  *jpeg;      ///< the current picture, from its SOI marker
    size_t          jpeg_size; ///< up to the end of the packet
} GJHWAccelContext;

/* mjpegdec points raw_image_buffer just past the SOI marker it consumed;
 * the library wants the JPEG from SOI on. */
static int jpeg_start(const uint8_t *after_soi, size_t size,
                      const uint8_t **jpeg, size_t *jpeg_size)
{
    if (!after_soi || after_soi[-2] != 0xFF || after_soi[-1] != 0xD8)
        return 0;
    *jpeg      = after_soi - 2;
    *jpeg_size = size + 2;
    return 1;
}

static const char *unsupported_reason(MJpegDecodeContext *s)
{
    AVCodecContext *avctx = s->avctx;
    const uint8_t *jpeg;
    size_t size;
    gj_jpeg_info info;

    if (s->progressive)
        return "progressive JPEG";
    if (s->lossless || s->ls)
        return "lossless JPEG";
    if (s->bits != 8)
        return "a precision other than 8 bits";
    if (s->interlaced)
        return "two interlaced fields per packet";
    if (!jpeg_start(s->raw_image_buffer, s->raw_image_buffer_size, &jpeg, &size))
        return "no SOI marker before the frame header";
    if (gj_jpeg_read_info(jpeg, size, &info) < 0)
        return "libgpujpeg rejects its headers";
    /* Samplings that mjpegdec upscales into another layout (and ITU-601
     * range pictures) have no bit-exact planar twin here. */
    if (gj_av_pixel_format(info.native_format) != avctx->pix_fmt)
        return "a sampling that the native decoder outputs in another layout";
    return NULL;
}

int ff_gpujpeg_mjpeg_check(MJpegDecodeContext *s)
{
    AVCodecContext *avctx = s->avctx;
    const char *why;

    if (!avctx->hw_device_ctx && !avctx->hw_frames_ctx)
        return 0;
    if (!(why = unsupported_reason(s)))
        return 1;
    /* once per switch to software, not for every picture */
    if (s->gpujpeg_ok || s->hwaccel_sw_pix_fmt == AV_PIX_FMT_NONE)
        av_log(avctx, AV_LOG_WARNING, "gpujpeg hwaccel: %s (%s, %dx%d) is not supported, "
               "decoding in software\n", why, av_get_pix_fmt_name(avctx->pix_fmt),
               avctx->width, avctx->height);
    return 0;
}

static int gpujpeg_hwaccel_init(AVCodecContext *avctx)
{
    GJHWAccelContext *ctx = avctx->internal->hwaccel_priv_data;
    MJpegDecodeContext *s = avctx->priv_data;
    enum AVHWDeviceType type = avctx->hwaccel->pix_fmt == AV_PIX_FMT_CUDA ?
                               AV_HWDEVICE_TYPE_CUDA : AV_HWDEVICE_TYPE_OPENCL;
    AVHWFramesContext *frames;
    int ret;

    /* Reached when AV_PIX_FMT_CUDA was offered for NVDEC's sake; failing makes
     * ff_get_format() pick the software format. */
    if (!s->gpujpeg_ok)
        return AVERROR(ENOTSUP);
    if ((ret = ff_decode_get_hw_frames_ctx(avctx, type)) < 0)
        return ret;
    frames = (AVHWFramesContext *)avctx->hw_frames_ctx->data;
    if ((ret = ff_gpujpeg_open(avctx, &ctx->gj, AV_CODEC_ID_MJPEG, frames->device_ref, NULL)) < 0)
        return ret;
    av_log(avctx, AV_LOG_VERBOSE, "gpujpeg hwaccel: %s frames (%s) on %s\n",
           av_get_pix_fmt_name(frames->format), av_get_pix_fmt_name(frames->sw_format),
           gj_device_name(ctx->gj.dev));
    return 0;
}

static int gpujpeg_hwaccel_uninit(AVCodecContext *avctx)
{
    GJHWAccelContext *ctx = avctx->internal->hwaccel_priv_data;

    ff_gpujpeg_close(&ctx->gj);
    return 0;
}

static int gpujpeg_hwaccel_frame_params(AVCodecContext *avctx, AVBufferRef *hw_frames_ctx)
{
    AVHWFramesContext *frames = (AVHWFramesContext *)hw_frames_ctx->data;

    frames->format    = avctx->hwaccel->pix_fmt;
    frames->sw_format = ff_gpujpeg_hw_sw_format(avctx->sw_pix_fmt);
    ff_gpujpeg_frames_size(frames, avctx->coded_width, avctx->coded_height);
    return 0;
}

static int gpujpeg_hwaccel_start_frame(AVCodecContext *avctx, const uint8_t *buf,
                                       uint32_t size)
{
    GJHWAccelContext *ctx = avctx->internal->hwaccel_priv_data;

    if (!jpeg_start(buf, size, &ctx->jpeg, &ctx->jpeg_size)) {
        av_log(avctx, AV_LOG_ERROR, "gpujpeg hwaccel: no SOI marker before the frame header\n");
        return AVERROR_INVALIDDATA;
    }
    return 0;
}

/* The whole JPEG is decoded at end_frame: the library wants all scans at once. */
static int gpujpeg_hwaccel_decode_slice(AVCodecContext *avctx, const uint8_t *buf,
                                        uint32_t size)
{
    return 0;
}

static int gpujpeg_hwaccel_end_frame(AVCodecContext *avctx)
{
    GJHWAccelContext *ctx = avctx->internal->hwaccel_priv_data;
    MJpegDecodeContext *s = avctx->priv_data;

    return ff_gpujpeg_decode_frame(avctx, &ctx->gj, ctx->jpeg, ctx->jpeg_size, s->picture_ptr);
}

#define GPUJPEG_HWACCEL(api, PIX)                                         \
const FFHWAccel ff_mjpeg_gpujpeg_ ## api ## _hwaccel = {                  \
    .p.name         = "mjpeg_gpujpeg_" #api,                              \
    .p.type         = AVMEDIA_TYPE_VIDEO,                                 \
    .p.id           = AV_CODEC_ID_MJPEG,                                  \
    .p.pix_fmt      = AV_PIX_FMT_ ## PIX,                                 \
    .start_frame    = gpujpeg_hwaccel_start_frame,                        \
    .decode_slice   = gpujpeg_hwaccel_decode_slice,                       \
    .end_frame      = gpujpeg_hwaccel_end_frame,                          \
    .frame_params   = gpujpeg_hwaccel_frame_params,                       \
    .init           = gpujpeg_hwaccel_init,                               \
    .uninit         = gpujpeg_hwaccel_uninit,                             \
    .priv_data_size = sizeof(GJHWAccelContext),                           \
};

#if CONFIG_MJPEG_GPUJPEG_CUDA_HWACCEL
GPUJPEG_HWACCEL(cuda, CUDA)
#endif
#if CONFIG_MJPEG_GPUJPEG_OPENCL_HWACCEL
GPUJPEG_HWACCEL(opencl, OPENCL)
#endif
