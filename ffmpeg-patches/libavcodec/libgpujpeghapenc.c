/*
 * hap_gpujpeg: HAP encoder on libgpujpeg (CUDA or OpenCL).
 *
 * The DXT blocks are fitted on the GPU (gj_dxt_encode) from software frames,
 * from CUDA frames in place, or from OpenCL frames (images) copied into a
 * buffer on the device: only the compressed blocks come back to the host,
 * where gj_hap_pack splits them into chunks and snappy-compresses the chunks
 * on several threads. The options are those of FFmpeg's hap encoder (format,
 * chunks, compressor) plus the DXT fit (quality).
 *
 * Sizes that are not multiples of 4 (which FFmpeg's hap encoder refuses) are
 * padded by edge replication: the kernels clamp the last blocks' rows and
 * columns to the picture, and HAP decoders crop the blocks to the stream's size.
 */

#include "config.h"

#include <gpujpeg/av.h>

#include "libavutil/cpu.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avcodec.h"
#include "codec_internal.h"
#include "encode.h"
#include "hwconfig.h"
#include "libgpujpeg.h"

enum { HAP_GJ_HAP, HAP_GJ_ALPHA, HAP_GJ_Q };

typedef struct GJHapEncoderContext {
    const AVClass  *class;
    GJDecodeContext gj;            ///< the device (FFmpeg's, or made from gpu_device)
    gj_dxt_encoder *enc;
    gj_dxt_blocks   blocks;        ///< host blocks, reused across frames
    int             threads;       ///< for the chunks' compression

    /* options */
    int   format;
    int   quality;
    int   chunks;
    int   compressor;
    char *device;
} GJHapEncoderContext;

static const enum gj_dxt_format dxt_formats[] = {
    [HAP_GJ_HAP] = GJ_DXT_FORMAT_BC1, [HAP_GJ_ALPHA] = GJ_DXT_FORMAT_BC3, [HAP_GJ_Q] = GJ_DXT_FORMAT_YCOCG,
};

/* What the DXT kernels read. YCbCr is full range (JPEG's): software frames
 * come as yuvj, hardware frames (whose pools know no yuvj) as yuv tagged full
 * range (checked in init). */
static const enum AVPixelFormat sw_formats[] = {
    AV_PIX_FMT_RGBA,     AV_PIX_FMT_BGRA,     AV_PIX_FMT_RGB24,    AV_PIX_FMT_GRAY8,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
    AV_PIX_FMT_YUV420P,  AV_PIX_FMT_YUV422P,  AV_PIX_FMT_YUV444P,
};

static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_RGBA,     AV_PIX_FMT_BGRA,     AV_PIX_FMT_RGB24,    AV_PIX_FMT_GRAY8,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
#if CONFIG_OPENCL
    AV_PIX_FMT_OPENCL,
#endif
    AV_PIX_FMT_NONE
};

static int check_format(AVCodecContext *avctx, enum AVPixelFormat sw)
{
    int i;

    for (i = 0; i < FF_ARRAY_ELEMS(sw_formats) && sw_formats[i] != sw; i++)
        ;
    if (i == FF_ARRAY_ELEMS(sw_formats)) {
        av_log(avctx, AV_LOG_ERROR, "%s frames cannot be encoded (rgba, bgra, rgb24, gray, or full-range "
               "yuv420p/422p/444p can)\n", av_get_pix_fmt_name(sw));
        return AVERROR(ENOSYS);
    }
    if ((sw == AV_PIX_FMT_YUV420P || sw == AV_PIX_FMT_YUV422P || sw == AV_PIX_FMT_YUV444P) &&
        avctx->color_range != AVCOL_RANGE_JPEG) {
        av_log(avctx, AV_LOG_ERROR, "%s of %s range: the encoder converts full-range YUV to RGB; convert the "
               "frames to full range (scale=out_range=pc) or to rgba first\n", av_get_pix_fmt_name(sw),
               av_color_range_name(avctx->color_range));
        return AVERROR(EINVAL);
    }
    return 0;
}

static av_cold int hap_gpujpeg_init(AVCodecContext *avctx)
{
    GJHapEncoderContext *ctx = avctx->priv_data;
    static const uint32_t tags[] = {
        [HAP_GJ_HAP] = MKTAG('H', 'a', 'p', '1'), [HAP_GJ_ALPHA] = MKTAG('H', 'a', 'p', '5'),
        [HAP_GJ_Q] = MKTAG('H', 'a', 'p', 'Y'),
    };
    enum AVPixelFormat sw;
    AVBufferRef *device_ref;
    int ret;

    if ((ret = ff_gpujpeg_encoder_format(avctx, &sw, &device_ref)) < 0 ||
        (ret = check_format(avctx, sw)) < 0)
        return ret;
    if (ctx->compressor == GJ_HAP_SNAPPY && !gj_hap_snappy_available()) {
        av_log(avctx, AV_LOG_ERROR, "compressor snappy: libgpujpeg was built without libsnappy "
               "(-compressor none works)\n");
        return AVERROR(ENOSYS);
    }
    avctx->codec_tag             = tags[ctx->format];
    avctx->bits_per_coded_sample = ctx->format == HAP_GJ_ALPHA ? 32 : 24;
    /* AV_CODEC_CAP_OTHER_THREADS: 0 is "auto" */
    ctx->threads = avctx->thread_count > 0 ? avctx->thread_count : av_cpu_count();

    if ((ret = ff_gpujpeg_open_device(avctx, &ctx->gj, device_ref, ctx->device)) < 0)
        return ret;
    if ((ret = gj_dxt_encoder_create(&ctx->enc, ctx->gj.dev)) < 0)
        return ff_gpujpeg_error(avctx, ret, "cannot create the DXT encoder");
    ctx->blocks.memory = GJ_MEMORY_HOST;
    av_log(avctx, AV_LOG_VERBOSE, "libgpujpeg %s: %s %s blocks of %s, %d chunk(s), on %s\n", gj_version(),
           gj_dxt_quality_name(ctx->quality), gj_dxt_format_name(dxt_formats[ctx->format]),
           av_get_pix_fmt_name(sw), ctx->chunks, gj_device_name(ctx->gj.dev));
    return 0;
}

static int hap_gpujpeg_encode(AVCodecContext *avctx, AVPacket *pkt, const AVFrame *frame, int *got_packet)
{
    GJHapEncoderContext *ctx = avctx->priv_data;
    size_t max_size, frame_size;
    gj_frame in;
    int ret;

    /* CUDA frames: read in place, on the device context's stream (after its uploads) */
    if ((ret = ff_gpujpeg_encoder_frame(avctx, &ctx->gj, frame, &in)) < 0)
        return ret;
    ret = gj_dxt_encode(ctx->enc, &in, dxt_formats[ctx->format], ctx->quality, &ctx->blocks);
    if (ret < 0)
        return ff_gpujpeg_error(avctx, ret, "DXT encoding failed");
    max_size = gj_hap_max_size(ctx->blocks.size, ctx->chunks);
    if (!max_size || max_size > INT_MAX - AV_INPUT_BUFFER_PADDING_SIZE) {
        av_log(avctx, AV_LOG_ERROR, "%d chunks for a %dx%d picture: too many or too large\n", ctx->chunks,
               frame->width, frame->height);
        return AVERROR(EINVAL);
    }
    if ((ret = ff_alloc_packet(avctx, pkt, (int64_t)max_size)) < 0)
        return ret;
    ret = gj_hap_pack(&ctx->blocks, ctx->compressor, ctx->chunks, ctx->threads, pkt->data, pkt->size, &frame_size);
    if (ret < 0)
        return ff_gpujpeg_error(avctx, ret, "HAP packing failed");
    av_shrink_packet(pkt, (int)frame_size);
    *got_packet = 1;
    return 0;
}

static av_cold int hap_gpujpeg_close(AVCodecContext *avctx)
{
    GJHapEncoderContext *ctx = avctx->priv_data;

    gj_dxt_blocks_unref(&ctx->blocks);
    gj_dxt_encoder_free(&ctx->enc);
    ff_gpujpeg_close(&ctx->gj);
    return 0;
}

#define OFFSET(x) offsetof(GJHapEncoderContext, x)
#define VE AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_ENCODING_PARAM
static const AVOption options[] = {
    { "format", "texture format", OFFSET(format), AV_OPT_TYPE_INT, { .i64 = HAP_GJ_HAP }, HAP_GJ_HAP, HAP_GJ_Q,
      VE, .unit = "format" },
        { "hap",       "DXT1 (Hap1)",              0, AV_OPT_TYPE_CONST, { .i64 = HAP_GJ_HAP },   0, 0, VE, .unit = "format" },
        { "hap_alpha", "DXT5 with alpha (Hap5)",   0, AV_OPT_TYPE_CONST, { .i64 = HAP_GJ_ALPHA }, 0, 0, VE, .unit = "format" },
        { "hap_q",     "scaled YCoCg-DXT5 (HapY)", 0, AV_OPT_TYPE_CONST, { .i64 = HAP_GJ_Q },     0, 0, VE, .unit = "format" },
    { "quality", "DXT fit", OFFSET(quality), AV_OPT_TYPE_INT, { .i64 = GJ_DXT_QUALITY_BALANCED },
      GJ_DXT_QUALITY_FAST, GJ_DXT_QUALITY_HIGH, VE, .unit = "quality" },
        { "fast",     "bounding box",                 0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_QUALITY_FAST },     0, 0, VE, .unit = "quality" },
        { "balanced", "LSpiro regression and refits", 0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_QUALITY_BALANCED }, 0, 0, VE, .unit = "quality" },
        { "high",     "cluster fit and refinement",   0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_QUALITY_HIGH },     0, 0, VE, .unit = "quality" },
    { "chunks", "chunks per frame (compressed on several threads)", OFFSET(chunks), AV_OPT_TYPE_INT, { .i64 = 1 },
      1, GJ_HAP_MAX_CHUNKS, VE },
    { "compressor", "second-stage compressor", OFFSET(compressor), AV_OPT_TYPE_INT, { .i64 = GJ_HAP_SNAPPY },
      GJ_HAP_NONE, GJ_HAP_SNAPPY, VE, .unit = "compressor" },
        { "none",   "none",   0, AV_OPT_TYPE_CONST, { .i64 = GJ_HAP_NONE },   0, 0, VE, .unit = "compressor" },
        { "snappy", "snappy", 0, AV_OPT_TYPE_CONST, { .i64 = GJ_HAP_SNAPPY }, 0, 0, VE, .unit = "compressor" },
    FF_GPUJPEG_GPU_DEVICE_OPTION(OFFSET(device), VE),
    { NULL },
};

static const AVClass hap_gpujpeg_class = {
    .class_name = "hap_gpujpeg",
    .item_name  = av_default_item_name,
    .option     = options,
    .version    = LIBAVUTIL_VERSION_INT,
};

const FFCodec ff_hap_gpujpeg_encoder = {
    .p.name         = "hap_gpujpeg",
    CODEC_LONG_NAME("Vidvox Hap (libgpujpeg, CUDA/OpenCL)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_HAP,
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_HARDWARE | AV_CODEC_CAP_OTHER_THREADS,
    .p.pix_fmts     = pix_fmts,
    .p.priv_class   = &hap_gpujpeg_class,
    .p.wrapper_name = "libgpujpeg",
    .priv_data_size = sizeof(GJHapEncoderContext),
    .init           = hap_gpujpeg_init,
    FF_CODEC_ENCODE_CB(hap_gpujpeg_encode),
    .close          = hap_gpujpeg_close,
    .hw_configs     = ff_gpujpeg_encoder_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
