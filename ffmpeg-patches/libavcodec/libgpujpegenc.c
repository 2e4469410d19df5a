/*
 * mjpeg_gpujpeg: Motion JPEG encoder on libgpujpeg (CUDA or OpenCL).
 *
 * Colour conversion, downsampling, the DCT, quantisation and Huffman coding
 * run on the GPU; each packet is a baseline JFIF file (one interleaved scan).
 * Software frames are uploaded as they lie; CUDA frames are encoded in place,
 * and OpenCL frames (images) are copied into a buffer on the device first:
 * only the JPEG comes back to the host.
 */

#include "config.h"

#include <gpujpeg/av.h>

#include "libavutil/intreadwrite.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/rational.h"

#include "avcodec.h"
#include "codec_internal.h"
#include "encode.h"
#include "hwconfig.h"
#include "libgpujpeg.h"
#include "mpeg12data.h"

#define SAMPLING_AUTO -1

typedef struct GJEncoderContext {
    const AVClass     *class;
    GJDecodeContext    gj;              ///< the device (FFmpeg's, or made from gpu_device)
    gj_jpeg_encoder   *enc;
    gj_jpeg_output     jpeg;            ///< page-locked, reused from frame to frame
    gj_jpeg_encode_params params;
    uint16_t           qtables[2][64];  ///< -q:v: the tables FFmpeg's mjpeg encoder uses
    int                limited_range;   ///< YUV of limited range: tagged "CS=ITU601" as mjpeg does

    /* options */
    int                quality;
    int                sampling;
    int                huffman;
    int                restart;
    char              *device;
} GJEncoderContext;

static const enum AVPixelFormat sw_formats[] = {
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
    AV_PIX_FMT_YUV420P,  AV_PIX_FMT_YUV422P,  AV_PIX_FMT_YUV444P,  AV_PIX_FMT_YUV440P,
    AV_PIX_FMT_GRAY8,    AV_PIX_FMT_RGB24,    AV_PIX_FMT_RGBA,     AV_PIX_FMT_BGRA,
};

static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
    AV_PIX_FMT_YUV420P,  AV_PIX_FMT_YUV422P,  AV_PIX_FMT_YUV444P,  AV_PIX_FMT_YUV440P,
    AV_PIX_FMT_GRAY8,    AV_PIX_FMT_RGB24,    AV_PIX_FMT_RGBA,     AV_PIX_FMT_BGRA,
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
#if CONFIG_OPENCL
    AV_PIX_FMT_OPENCL,
#endif
    AV_PIX_FMT_NONE
};

/* The sampling the input's own chroma has (RGB: cjpeg's default, 4:2:0). */
static enum gj_jpeg_sampling auto_sampling(const AVPixFmtDescriptor *desc)
{
    if (desc->nb_components == 1)
        return GJ_JPEG_SAMPLING_GRAY;
    if (desc->flags & AV_PIX_FMT_FLAG_RGB)
        return GJ_JPEG_SAMPLING_420;
    if (desc->log2_chroma_w)
        return desc->log2_chroma_h ? GJ_JPEG_SAMPLING_420 : GJ_JPEG_SAMPLING_422;
    return desc->log2_chroma_h ? GJ_JPEG_SAMPLING_440 : GJ_JPEG_SAMPLING_444;
}

/*
 * -q:v / global_quality as FFmpeg's mjpeg encoder takes it: lambda -> qscale
 * (mpegvideo_enc.c's update_qscale, clipped to qmin..qmax), then its tables:
 * the MPEG-1 intra matrix (or the caller's intra_matrix / chroma_intra_matrix)
 * times qscale / 8, DC 8 (mpegvideo_enc.c, "for mjpeg, we do include qscale").
 */
static void qscale_tables(AVCodecContext *avctx, GJEncoderContext *ctx)
{
    const uint16_t *m[2] = { ff_mpeg1_default_intra_matrix, ff_mpeg1_default_intra_matrix };
    int qscale = (avctx->global_quality * 139 + FF_LAMBDA_SCALE * 64) >> (FF_LAMBDA_SHIFT + 7);
    int t, i;

    qscale = av_clip(qscale, FFMAX(avctx->qmin, 1), FFMAX(avctx->qmax, 1));
    if (avctx->intra_matrix)
        m[0] = m[1] = avctx->intra_matrix;
    if (avctx->chroma_intra_matrix)
        m[1] = avctx->chroma_intra_matrix;
    for (t = 0; t < 2; t++) {
        ctx->qtables[t][0] = 8;
        for (i = 1; i < 64; i++)
            ctx->qtables[t][i] = FFMAX(av_clip_uint8((m[t][i] * qscale) >> 3), 1);
        ctx->params.quant_tables[t] = ctx->qtables[t];
    }
    av_log(avctx, AV_LOG_VERBOSE, "qscale %d (FFmpeg mjpeg's tables)\n", qscale);
}

/* Limited-range YUV is what mjpeg writes only with -strict unofficial (ff_mjpeg_encode_check_pix_fmt). */
static int check_range(AVCodecContext *avctx, const AVPixFmtDescriptor *desc, enum AVPixelFormat sw)
{
    GJEncoderContext *ctx = avctx->priv_data;
    int yuvj = sw == AV_PIX_FMT_YUVJ420P || sw == AV_PIX_FMT_YUVJ422P ||
               sw == AV_PIX_FMT_YUVJ444P || sw == AV_PIX_FMT_YUVJ440P;

    if (desc->flags & AV_PIX_FMT_FLAG_RGB)
        return 0;
    ctx->limited_range = avctx->color_range == AVCOL_RANGE_MPEG ||
                         (!yuvj && desc->nb_components > 1 && avctx->color_range != AVCOL_RANGE_JPEG);
    if (ctx->limited_range && avctx->strict_std_compliance > FF_COMPLIANCE_UNOFFICIAL) {
        av_log(avctx, AV_LOG_ERROR, "%s of %s range: JPEG is full range; convert it (-color_range pc "
               "on the output, or the yuvj formats), or set -strict unofficial to encode it as it is\n",
               av_get_pix_fmt_name(sw), av_color_range_name(avctx->color_range));
        return AVERROR(EINVAL);
    }
    return 0;
}

static av_cold int gpujpeg_encode_init(AVCodecContext *avctx)
{
    GJEncoderContext *ctx = avctx->priv_data;
    enum AVPixelFormat sw;
    AVBufferRef *device_ref;
    const AVPixFmtDescriptor *desc;
    int i, ret;

    if ((ret = ff_gpujpeg_encoder_format(avctx, &sw, &device_ref)) < 0)
        return ret;
    for (i = 0; i < FF_ARRAY_ELEMS(sw_formats) && sw_formats[i] != sw; i++)
        ;
    if (i == FF_ARRAY_ELEMS(sw_formats)) {
        av_log(avctx, AV_LOG_ERROR, "%s frames cannot be encoded (planar YUV, gray, rgb24, rgba "
               "or bgra can)\n", av_get_pix_fmt_name(sw));
        return AVERROR(ENOSYS);
    }
    desc = av_pix_fmt_desc_get(sw);
    if ((ret = check_range(avctx, desc, sw)) < 0)
        return ret;

    gj_jpeg_encode_params_default(&ctx->params);
    ctx->params.sampling         = ctx->sampling == SAMPLING_AUTO ? auto_sampling(desc) : ctx->sampling;
    ctx->params.optimize         = ctx->huffman;
    ctx->params.restart_interval = ctx->restart;
    if (ctx->quality > 0)
        ctx->params.quality = ctx->quality;
    else if (avctx->flags & AV_CODEC_FLAG_QSCALE)
        qscale_tables(avctx, ctx);
    else
        ctx->params.quality = 90;

    if ((ret = ff_gpujpeg_open_device(avctx, &ctx->gj, device_ref, ctx->device)) < 0)
        return ret;
    if ((ret = gj_jpeg_encoder_create(&ctx->enc, ctx->gj.dev)) < 0)
        return ff_gpujpeg_error(avctx, ret, "cannot create the JPEG encoder");
    av_log(avctx, AV_LOG_VERBOSE, "libgpujpeg %s encoding %s, sampling %s, on %s\n", gj_version(),
           av_get_pix_fmt_name(sw), gj_jpeg_sampling_name(ctx->params.sampling), gj_device_name(ctx->gj.dev));
    return 0;
}

/*
 * The library's JFIF file into the packet, with what FFmpeg's mjpeg encoder
 * adds: the sample aspect ratio in APP0's density fields, and a "CS=ITU601"
 * comment after APP0 for limited-range YUV (mjpegdec then reports that range).
 */
static int write_packet(AVCodecContext *avctx, AVPacket *pkt)
{
    static const uint8_t itu601[] = { 0xff, 0xfe, 0x00, 0x0c, 'C', 'S', '=', 'I', 'T', 'U', '6', '0', '1', 0 };
    GJEncoderContext *ctx = avctx->priv_data;
    const uint8_t *src = ctx->jpeg.data;
    /* the end of SOI and APP0 (JFIF): the library's files start with both */
    int jfif = ctx->jpeg.size > 18 && AV_RB16(src + 2) == 0xffe0 && !memcmp(src + 6, "JFIF", 5);
    size_t app0 = jfif ? 4 + AV_RB16(src + 4) : 2;
    size_t extra = ctx->limited_range ? sizeof(itu601) : 0;
    AVRational sar = avctx->sample_aspect_ratio;
    int ret;

    if ((ret = ff_get_encode_buffer(avctx, pkt, ctx->jpeg.size + extra, 0)) < 0)
        return ret;
    memcpy(pkt->data, src, app0);
    memcpy(pkt->data + app0, itu601, extra);
    memcpy(pkt->data + app0 + extra, src + app0, ctx->jpeg.size - app0);
    if (jfif && sar.num > 0 && sar.den > 0 &&
        av_reduce(&sar.num, &sar.den, sar.num, sar.den, 65535)) {
        /* APP0: length, "JFIF\0", version, units (0: aspect only), Xdensity, Ydensity */
        pkt->data[4 + 2 + 5 + 2] = 0;
        AV_WB16(pkt->data + 4 + 2 + 5 + 3, sar.num);
        AV_WB16(pkt->data + 4 + 2 + 5 + 5, sar.den);
    }
    return 0;
}

static int gpujpeg_encode_frame(AVCodecContext *avctx, AVPacket *pkt,
                                const AVFrame *frame, int *got_packet)
{
    GJEncoderContext *ctx = avctx->priv_data;
    gj_frame in;
    int ret;

    if ((ret = ff_gpujpeg_encoder_frame(avctx, &ctx->gj, frame, &in)) < 0)
        return ret;
    /* CUDA frames: read in place, on the device context's stream (after its uploads) */
    if ((ret = gj_jpeg_encode(ctx->enc, &in, &ctx->params, &ctx->jpeg)) < 0)
        return ff_gpujpeg_error(avctx, ret, "JPEG encoding failed");
    if ((ret = write_packet(avctx, pkt)) < 0)
        return ret;
    *got_packet = 1;
    return 0;
}

static av_cold int gpujpeg_encode_close(AVCodecContext *avctx)
{
    GJEncoderContext *ctx = avctx->priv_data;

    gj_jpeg_output_unref(&ctx->jpeg);   /* page-locked memory of the device: before it */
    gj_jpeg_encoder_free(&ctx->enc);
    ff_gpujpeg_close(&ctx->gj);
    return 0;
}

/* Limited-range YUV only with -strict unofficial, as FFmpeg's mjpeg encoder. */
static int gpujpeg_get_supported_config(const AVCodecContext *avctx, const AVCodec *codec,
                                        enum AVCodecConfig config, unsigned flags,
                                        const void **out, int *out_num)
{
    if (config == AV_CODEC_CONFIG_COLOR_RANGE) {
        static const enum AVColorRange ranges[] = {
            AVCOL_RANGE_MPEG, AVCOL_RANGE_JPEG, AVCOL_RANGE_UNSPECIFIED,
        };
        int strict = avctx ? avctx->strict_std_compliance : 0;
        int index  = strict > FF_COMPLIANCE_UNOFFICIAL ? 1 : 0;
        *out     = &ranges[index];
        *out_num = FF_ARRAY_ELEMS(ranges) - index - 1;
        return 0;
    }
    return ff_default_get_supported_config(avctx, codec, config, flags, out, out_num);
}

#define OFFSET(x) offsetof(GJEncoderContext, x)
#define VE AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_ENCODING_PARAM
static const AVOption options[] = {
    { "quality",    "libjpeg quality 1-100 (cjpeg -quality); without it -q:v selects FFmpeg mjpeg's "
                    "tables, else 90", OFFSET(quality), AV_OPT_TYPE_INT, { .i64 = -1 }, -1, 100, VE },
    { "sampling",   "chroma sampling (auto: the input's; 4:2:0 for RGB)", OFFSET(sampling), AV_OPT_TYPE_INT,
                    { .i64 = SAMPLING_AUTO }, SAMPLING_AUTO, GJ_JPEG_SAMPLING_NB - 1, VE, .unit = "sampling" },
        { "auto", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SAMPLING_AUTO },           0, 0, VE, .unit = "sampling" },
        { "420",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = GJ_JPEG_SAMPLING_420 },  0, 0, VE, .unit = "sampling" },
        { "422",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = GJ_JPEG_SAMPLING_422 },  0, 0, VE, .unit = "sampling" },
        { "444",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = GJ_JPEG_SAMPLING_444 },  0, 0, VE, .unit = "sampling" },
        { "440",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = GJ_JPEG_SAMPLING_440 },  0, 0, VE, .unit = "sampling" },
        { "gray", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = GJ_JPEG_SAMPLING_GRAY }, 0, 0, VE, .unit = "sampling" },
    { "huffman",    "Huffman tables", OFFSET(huffman), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 1, VE, .unit = "huffman" },
        { "default", "the standard tables (T.81 K.3)",                0, AV_OPT_TYPE_CONST, { .i64 = 0 }, 0, 0, VE, .unit = "huffman" },
        { "optimal", "optimal tables per frame (a second GPU pass)",  0, AV_OPT_TYPE_CONST, { .i64 = 1 }, 0, 0, VE, .unit = "huffman" },
    { "restart",    "MCUs per restart interval (0: no restart markers)", OFFSET(restart), AV_OPT_TYPE_INT,
                    { .i64 = 0 }, 0, 65535, VE },
    FF_GPUJPEG_GPU_DEVICE_OPTION(OFFSET(device), VE),
    { NULL },
};

static const AVClass gpujpeg_encoder_class = {
    .class_name = "mjpeg_gpujpeg encoder",
    .item_name  = av_default_item_name,
    .option     = options,
    .version    = LIBAVUTIL_VERSION_INT,
};

/* not const: av_codec_init_static() fills p.pix_fmts through get_supported_config
 * (as for FFmpeg's mjpeg encoder) */
FFCodec ff_mjpeg_gpujpeg_encoder = {
    .p.name               = "mjpeg_gpujpeg",
    CODEC_LONG_NAME("MJPEG (libgpujpeg, CUDA/OpenCL)"),
    .p.type               = AVMEDIA_TYPE_VIDEO,
    .p.id                 = AV_CODEC_ID_MJPEG,
    .p.capabilities       = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_HARDWARE,
    .p.pix_fmts           = pix_fmts,
    .p.priv_class         = &gpujpeg_encoder_class,
    .p.wrapper_name       = "libgpujpeg",
    .priv_data_size       = sizeof(GJEncoderContext),
    .init                 = gpujpeg_encode_init,
    FF_CODEC_ENCODE_CB(gpujpeg_encode_frame),
    .close                = gpujpeg_encode_close,
    .get_supported_config = gpujpeg_get_supported_config,
    .hw_configs           = ff_gpujpeg_encoder_hw_configs,
    .caps_internal        = FF_CODEC_CAP_INIT_CLEANUP,
};
