/*
 * hap_gpujpeg: HAP encoder on libgpujpeg (CUDA or OpenCL).
 *
 * The DXT blocks are fitted on the GPU (gj_dxt_encode_async) from software
 * frames, from CUDA frames in place, or from OpenCL frames (images) copied into
 * a buffer on the device: only the compressed blocks come back to the host,
 * into page-locked memory, where a gj_hap_packer splits them into chunks and
 * snappy-compresses the chunks on threads that stay between frames, straight
 * into the packet (buffers of a pool, reused). The encoder runs one frame
 * behind (AV_CODEC_CAP_DELAY): frame N+1 is queued on the GPU before frame N
 * is packed, so the GPU's work and the host's overlap. The options are those of
 * FFmpeg's hap encoder (format, chunks, compressor) plus the DXT fit (quality).
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

/* One frame in flight: its input, kept until its blocks are back (CUDA frames
 * are read in place), and its blocks in page-locked host memory. */
typedef struct GJHapFrame {
    AVFrame      *frame;
    gj_dxt_blocks blocks;
} GJHapFrame;

typedef struct GJHapEncoderContext {
    const AVClass  *class;
    GJDecodeContext gj;            ///< the device (FFmpeg's, or made from gpu_device)
    gj_dxt_encoder *enc;
    gj_hap_packer  *packer;        ///< snappy on threads that stay between frames
    AVBufferPool   *packets;       ///< packet buffers of max_size bytes (+ padding)
    size_t          max_size;
    int             nb_chunks;     ///< the chunks option, or its automatic value
    GJHapFrame      slots[2];      ///< the frame on the GPU and the next one
    int             pending;       ///< the slot whose blocks are on their way back, or -1
    int             eof;

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
    size_t blocks_size;
    int threads, ret;

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
    blocks_size = gj_dxt_size(dxt_formats[ctx->format], avctx->width, avctx->height);
    if (!blocks_size) {
        av_log(avctx, AV_LOG_ERROR, "%dx%d pictures cannot be encoded\n", avctx->width, avctx->height);
        return AVERROR(EINVAL);
    }
    /* The chunk count follows the picture size, not the machine: the same
     * frames give the same file everywhere (gj_hap_auto_chunks). */
    ctx->nb_chunks = ctx->chunks ? ctx->chunks : gj_hap_auto_chunks(blocks_size);
    ctx->max_size  = gj_hap_max_size(blocks_size, ctx->nb_chunks);
    if (!ctx->max_size || ctx->max_size > INT_MAX - AV_INPUT_BUFFER_PADDING_SIZE ||
        ctx->nb_chunks > ((avctx->width + 3) / 4) * ((avctx->height + 3) / 4)) {
        av_log(avctx, AV_LOG_ERROR, "%d chunks for a %dx%d picture: too many or too large\n", ctx->nb_chunks,
               avctx->width, avctx->height);
        return AVERROR(EINVAL);
    }
    /* AV_CODEC_CAP_OTHER_THREADS with FF_CODEC_CAP_AUTO_THREADS: 0 is "auto";
     * no more threads than chunks to share */
    threads = avctx->thread_count > 0 ? avctx->thread_count : av_cpu_count();
    if ((ret = gj_hap_packer_create(&ctx->packer, FFMIN(threads, ctx->nb_chunks))) < 0)
        return ff_gpujpeg_error(avctx, ret, "cannot create the HAP packer");
    if (!(ctx->packets = av_buffer_pool_init(ctx->max_size + AV_INPUT_BUFFER_PADDING_SIZE, NULL)))
        return AVERROR(ENOMEM);
    ctx->pending = -1;
    for (int i = 0; i < FF_ARRAY_ELEMS(ctx->slots); i++)
        if (!(ctx->slots[i].frame = av_frame_alloc()))
            return AVERROR(ENOMEM);

    if ((ret = ff_gpujpeg_open_device(avctx, &ctx->gj, device_ref, ctx->device)) < 0)
        return ret;
    if ((ret = gj_dxt_encoder_create(&ctx->enc, ctx->gj.dev)) < 0)
        return ff_gpujpeg_error(avctx, ret, "cannot create the DXT encoder");
    for (int i = 0; i < FF_ARRAY_ELEMS(ctx->slots); i++) {
        gj_dxt_blocks *b = &ctx->slots[i].blocks;
        b->format = dxt_formats[ctx->format];
        b->width  = avctx->width;
        b->height = avctx->height;
        b->memory = GJ_MEMORY_HOST;
        b->size   = blocks_size;
        /* page-locked: the download overlaps the host's work */
        if ((ret = gj_dxt_blocks_alloc(b, ctx->gj.dev)) < 0)
            return ff_gpujpeg_error(avctx, ret, "cannot allocate the blocks");
    }
    av_log(avctx, AV_LOG_VERBOSE, "libgpujpeg %s: %s %s blocks of %s, %d chunk(s) on %d thread(s), on %s\n",
           gj_version(), gj_dxt_quality_name(ctx->quality), gj_dxt_format_name(dxt_formats[ctx->format]),
           av_get_pix_fmt_name(sw), ctx->nb_chunks, FFMIN(threads, ctx->nb_chunks), gj_device_name(ctx->gj.dev));
    return 0;
}

/* Queues the DXT encoding of f's frame and the download of its blocks. */
static int queue_frame(AVCodecContext *avctx, GJHapFrame *f)
{
    GJHapEncoderContext *ctx = avctx->priv_data;
    gj_frame in;
    int ret;

    if (f->frame->width != avctx->width || f->frame->height != avctx->height) {
        av_log(avctx, AV_LOG_ERROR, "a %dx%d frame in a %dx%d stream\n", f->frame->width, f->frame->height,
               avctx->width, avctx->height);
        return AVERROR(EINVAL);
    }
    /* CUDA frames: read in place, on the device context's stream (after its uploads) */
    if ((ret = ff_gpujpeg_encoder_frame(avctx, &ctx->gj, f->frame, &in)) < 0)
        return ret;
    ret = gj_dxt_encode_async(ctx->enc, &in, dxt_formats[ctx->format], ctx->quality, &f->blocks);
    if (ret < 0)
        return ff_gpujpeg_error(avctx, ret, "DXT encoding failed");
    return 0;
}

/* Packs f's blocks (back in host memory) into pkt. */
static int pack_frame(AVCodecContext *avctx, GJHapFrame *f, AVPacket *pkt)
{
    GJHapEncoderContext *ctx = avctx->priv_data;
    size_t frame_size;
    int ret;

    if (!(pkt->buf = av_buffer_pool_get(ctx->packets)))
        return AVERROR(ENOMEM);
    pkt->data = pkt->buf->data;
    ret = gj_hap_packer_pack(ctx->packer, &f->blocks, ctx->compressor, ctx->nb_chunks, pkt->data, ctx->max_size,
                             &frame_size);
    if (ret < 0)
        return ff_gpujpeg_error(avctx, ret, "HAP packing failed");
    pkt->size = (int)frame_size;
    memset(pkt->data + pkt->size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    pkt->pts      = f->frame->pts;
    pkt->dts      = f->frame->pts;
    pkt->duration = f->frame->duration;
    return ff_encode_reordered_opaque(avctx, pkt, f->frame);
}

/*
 * One frame in flight: a new frame is queued on the GPU right after the
 * previous one's blocks are back, and the previous one is packed while the GPU
 * works on the new one. At the end of the stream the last frame is packed alone.
 */
static int hap_gpujpeg_receive_packet(AVCodecContext *avctx, AVPacket *pkt)
{
    GJHapEncoderContext *ctx = avctx->priv_data;
    GJHapFrame *next = &ctx->slots[ctx->pending == 0], *done;
    int ret;

    if (!ctx->eof) {
        ret = ff_encode_get_frame(avctx, next->frame);
        if (ret == AVERROR_EOF)
            ctx->eof = 1;
        else if (ret < 0)
            return ret;     /* EAGAIN: the frame in flight waits for the next one */
    }
    if (ctx->pending < 0) {
        if (ctx->eof)
            return AVERROR_EOF;
        if ((ret = queue_frame(avctx, next)) < 0) {
            av_frame_unref(next->frame);
            return ret;
        }
        ctx->pending = next - ctx->slots;
        return AVERROR(EAGAIN);
    }
    done = &ctx->slots[ctx->pending];
    if ((ret = gj_device_synchronize(ctx->gj.dev)) < 0)
        ret = ff_gpujpeg_error(avctx, ret, "DXT encoding failed");
    if (ret >= 0 && !ctx->eof)
        ret = queue_frame(avctx, next);
    if (ret >= 0)
        ret = pack_frame(avctx, done, pkt);
    av_frame_unref(done->frame);
    ctx->pending = ret >= 0 && !ctx->eof ? next - ctx->slots : -1;
    if (ret < 0)
        av_frame_unref(next->frame);
    return ret;
}

static av_cold int hap_gpujpeg_close(AVCodecContext *avctx)
{
    GJHapEncoderContext *ctx = avctx->priv_data;

    if (ctx->gj.dev)
        gj_device_synchronize(ctx->gj.dev);     /* a frame may still be on its way back */
    for (int i = 0; i < FF_ARRAY_ELEMS(ctx->slots); i++) {
        gj_dxt_blocks_unref(&ctx->slots[i].blocks);     /* page-locked: before the device */
        av_frame_free(&ctx->slots[i].frame);
    }
    gj_hap_packer_free(&ctx->packer);
    av_buffer_pool_uninit(&ctx->packets);
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
    FF_GPUJPEG_DXT_QUALITY_OPTIONS(OFFSET(quality), VE),
    { "chunks", "chunks per frame, compressed on several threads (0: one per 128 KiB of blocks)", OFFSET(chunks),
      AV_OPT_TYPE_INT, { .i64 = 0 }, 0, GJ_HAP_MAX_CHUNKS, VE },
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
    /* no AV_CODEC_CAP_DR1: packets come from our pool, whose pages stay mapped */
    .p.capabilities = AV_CODEC_CAP_DELAY | AV_CODEC_CAP_HARDWARE | AV_CODEC_CAP_OTHER_THREADS,
    .p.pix_fmts     = pix_fmts,
    .p.priv_class   = &hap_gpujpeg_class,
    .p.wrapper_name = "libgpujpeg",
    .priv_data_size = sizeof(GJHapEncoderContext),
    .init           = hap_gpujpeg_init,
    FF_CODEC_RECEIVE_PACKET_CB(hap_gpujpeg_receive_packet),
    .close          = hap_gpujpeg_close,
    .hw_configs     = ff_gpujpeg_encoder_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP | FF_CODEC_CAP_AUTO_THREADS,
};
