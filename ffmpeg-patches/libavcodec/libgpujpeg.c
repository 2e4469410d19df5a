/*
 * libgpujpeg glue of the mjpeg_gpujpeg and jpeg2000_gpujpeg decoders, the
 * mjpeg_gpujpeg and hap_gpujpeg encoders and the mjpeg hwaccel: decoding into
 * AVFrames, the encoders' formats and hardware configurations. What does not
 * need libavcodec (devices, logs, staging, input frames) is gpujpeg_device.c,
 * compiled here so that one object serves the codecs (and libavfilter's
 * dxt_gpujpeg filter in static builds).
 */

#include "gpujpeg_device.c"

#include "libavutil/imgutils.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "decode.h"
#include "hwconfig.h"
#include "libgpujpeg.h"

enum AVPixelFormat ff_gpujpeg_hw_sw_format(enum AVPixelFormat native)
{
    switch (native) {
    case AV_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUV444P;
    case AV_PIX_FMT_YUVJ440P: return AV_PIX_FMT_YUV440P;
    case AV_PIX_FMT_YUVJ411P: return AV_PIX_FMT_YUV411P;
    default:                  return native;
    }
}

int ff_gpujpeg_hw_can_hold(AVBufferRef *device_ref, enum AVPixelFormat sw_format)
{
    AVHWFramesConstraints *cst = av_hwdevice_get_hwframe_constraints(device_ref, NULL);
    enum AVPixelFormat want = ff_gpujpeg_hw_sw_format(sw_format);
    int ok;

    /* no hardware frames hold a palette (and libgpujpeg writes none into them) */
    if (!cst || av_pix_fmt_desc_get(want)->flags & AV_PIX_FMT_FLAG_PAL) {
        av_hwframe_constraints_free(&cst);
        return 0;
    }
    ok = !cst->valid_sw_formats;       /* no list: any format */
    for (int i = 0; cst->valid_sw_formats && cst->valid_sw_formats[i] != AV_PIX_FMT_NONE; i++)
        ok |= cst->valid_sw_formats[i] == want;
    av_hwframe_constraints_free(&cst);
    return ok;
}

void ff_gpujpeg_frames_size(AVHWFramesContext *frames, int w, int h)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(frames->sw_format);

    /* OpenCL frames must be whole chroma samples wide and high (4:1:1 at
     * 130x66 ...); the decoded picture is cropped to w x h by the frame. */
    frames->width  = FFALIGN(w, 1 << desc->log2_chroma_w);
    frames->height = FFALIGN(h, 1 << desc->log2_chroma_h);
}


int ff_gpujpeg_open(void *logctx, GJDecodeContext *c, enum AVCodecID codec,
                    AVBufferRef *device_ref, const char *spec)
{
    int ret;

    if ((ret = ff_gpujpeg_open_device(logctx, c, device_ref, spec)) < 0)
        return ret;
    if (codec == AV_CODEC_ID_JPEG2000)
        ret = gj_j2k_decoder_create(&c->j2k, c->dev);
    else
        ret = gj_jpeg_decoder_create(&c->dec, c->dev);
    if (ret < 0)
        return ff_gpujpeg_error(logctx, ret, "cannot create the decoder");
    av_log(logctx, AV_LOG_VERBOSE, "libgpujpeg %s decoding on %s\n",
           gj_version(), gj_device_name(c->dev));
    return 0;
}


/*
 * Software frames in the device's host memory: page-locked on CUDA, which the
 * device's copies fill at the bus's speed (a 4K 16-bit RGB picture in 0.9 ms on an
 * H200's host, where FFmpeg's pageable frames took 4.6 ms). One buffer a frame, its
 * planes laid out as FFmpeg's default allocator lays them; each buffer holds the
 * device (c->dev_owner) until it is freed, so frames outlive the codec.
 */
#define HOST_FRAME_ALIGN 64

static void host_buffer_free(void *opaque, uint8_t *data)
{
    gj_device_host_free(((GJDeviceOwner *)opaque)->dev, data);
}

static AVBufferRef *host_buffer_alloc(void *opaque, size_t size)
{
    GJDeviceOwner *o = (GJDeviceOwner *)((AVBufferRef *)opaque)->data;
    uint8_t *data = gj_device_host_alloc(o->dev, size);
    AVBufferRef *buf;

    /* page-locked memory is scarcer than memory: past it, FFmpeg's kind (the pool keeps
     * each buffer's own free function) */
    if (!data)
        return av_buffer_alloc(size);
    if (!(buf = av_buffer_create(data, size, host_buffer_free, o, 0)))
        gj_device_host_free(o->dev, data);
    return buf;
}

static void host_pool_free(void *opaque)
{
    AVBufferRef *owner = opaque;

    av_buffer_unref(&owner);
}

static int host_pool_ensure(GJDecodeContext *c, size_t size)
{
    AVBufferRef *owner;

    if (c->host_pool && c->host_pool_size == size)
        return 0;
    /* the old pool goes with its last frame */
    av_buffer_pool_uninit(&c->host_pool);
    c->host_pool_size = 0;
    if (!(owner = av_buffer_ref(c->dev_owner)))
        return AVERROR(ENOMEM);
    if (!(c->host_pool = av_buffer_pool_init2(size, owner, host_buffer_alloc, host_pool_free))) {
        av_buffer_unref(&owner);
        return AVERROR(ENOMEM);
    }
    c->host_pool_size = size;
    return 0;
}

int ff_gpujpeg_get_buffer(AVCodecContext *avctx, GJDecodeContext *c, AVFrame *frame)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(avctx->pix_fmt);
    ptrdiff_t linesizes[4] = { 0 };
    size_t sizes[4], size = 16 + HOST_FRAME_ALIGN - 1;
    int ret, rows;

    /* hardware frames and palettes: FFmpeg's way */
    if (!c->dev_owner || !desc || desc->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_PAL))
        return ff_get_buffer(avctx, frame, 0);
    if ((unsigned)avctx->width > INT_MAX - HOST_FRAME_ALIGN)
        return AVERROR(EINVAL);
    if ((ret = av_image_check_size2(FFALIGN(avctx->width, HOST_FRAME_ALIGN), avctx->height, avctx->max_pixels,
                                    AV_PIX_FMT_NONE, 0, avctx)) < 0)
        return ret;
    frame->width  = avctx->width;
    frame->height = avctx->height;
    frame->format = avctx->pix_fmt;
    if ((ret = ff_decode_frame_props(avctx, frame)) < 0 ||
        (ret = av_image_fill_linesizes(frame->linesize, avctx->pix_fmt, avctx->width)) < 0)
        return ret;
    /* whole 64-byte rows and 32-row planes, as av_frame_get_buffer() makes them */
    rows = FFALIGN(avctx->height, 32);
    for (int i = 0; i < 4; i++) {
        frame->linesize[i] = FFALIGN(frame->linesize[i], HOST_FRAME_ALIGN);
        linesizes[i] = frame->linesize[i];
    }
    if ((ret = av_image_fill_plane_sizes(sizes, avctx->pix_fmt, rows, linesizes)) < 0)
        return ret;
    for (int i = 0; i < 4; i++)
        size += sizes[i];
    if ((ret = host_pool_ensure(c, size)) < 0)
        return ret;
    if (!(frame->buf[0] = av_buffer_pool_get(c->host_pool)))
        return AVERROR(ENOMEM);
    if ((ret = av_image_fill_pointers(frame->data, avctx->pix_fmt, rows, frame->buf[0]->data,
                                      frame->linesize)) < 0) {
        av_buffer_unref(&frame->buf[0]);
        return ret;
    }
    frame->extended_data = frame->data;
    avctx->sw_pix_fmt = avctx->pix_fmt;
    return 0;
}

/* Decodes with whichever decoder is open; CUDA frames of a JPEG are queued on one
 * of the decoder's lanes, joined to the device context's stream, which FFmpeg's
 * readers of the frame use, so the next packets are parsed while this one decodes. */
static int decode_picture(GJDecodeContext *c, const uint8_t *data, size_t size, gj_frame *out)
{
    if (c->j2k)
        return gj_j2k_decode(c->j2k, data, size, out);
    if (out->memory == GJ_MEMORY_CUDA)
        return gj_jpeg_decode_async(c->dec, data, size, out);
    return gj_jpeg_decode(c->dec, data, size, out);
}

#if CONFIG_OPENCL

/* Decodes into the packed staging buffer, then copies each plane into the
 * frame's image on the same in-order queue (no host round trip). */
static int decode_opencl(void *logctx, GJDecodeContext *c, const uint8_t *data,
                         size_t size, gj_frame *out, const AVFrame *frame)
{
    cl_int err;
    int ret;

    if ((ret = ff_gpujpeg_cl_stage(logctx, c, out)) < 0 ||
        (ret = decode_picture(c, data, size, out)) < 0 ||
        (ret = ff_gpujpeg_cl_copy(logctx, c, out, frame, 1)) < 0)
        return ret;
    /* FFmpeg reads the images on its own queue (transfers, filters) */
    if ((err = clFinish(c->cl_queue)) != CL_SUCCESS) {
        av_log(logctx, AV_LOG_ERROR, "OpenCL copy into the frame failed: error %d\n", err);
        return AVERROR_EXTERNAL;
    }
    return 0;
}
#endif

/* The frame's planes as the decoder's output, where the decoder's device can write them. */
static int gj_output(void *logctx, const GJDecodeContext *c, const AVFrame *frame, gj_frame *out)
{
    int ret;

    if ((ret = gj_frame_from_av(out, frame)) < 0) {
        av_log(logctx, AV_LOG_ERROR, "libgpujpeg cannot write %s frames\n",
               av_get_pix_fmt_name(frame->format));
        return ret;
    }
    if (out->memory != GJ_MEMORY_HOST && out->memory != gj_device_memory(c->dev)) {
        av_log(logctx, AV_LOG_ERROR, "the hardware frames do not belong to the decoding device\n");
        return AVERROR(EINVAL);
    }
    return 0;
}

/* A decode's result for its frame: the error logged, or what the picture says of itself. */
static int decoded(void *logctx, const GJDecodeContext *c, int ret, const gj_frame *out, AVFrame *frame)
{
    if (ret < 0) {
        av_log(logctx, AV_LOG_ERROR, "%s decoding failed: %s\n", c->j2k ? "JPEG 2000" : "JPEG",
               gj_strerror(ret));
        return ret;
    }
    if (!c->j2k)
        frame->color_range = AVCOL_RANGE_JPEG;
    if (out->decode_error_flags)
        frame->decode_error_flags |= FF_DECODE_ERROR_CONCEALMENT_ACTIVE;
    return 0;
}

int ff_gpujpeg_decode_frame(void *logctx, GJDecodeContext *c, const uint8_t *data,
                            size_t size, AVFrame *frame)
{
    gj_frame out;
    int ret;

    if ((ret = gj_output(logctx, c, frame, &out)) < 0)
        return ret;
#if CONFIG_OPENCL
    if (out.memory == GJ_MEMORY_OPENCL)
        ret = decode_opencl(logctx, c, data, size, &out, frame);
    else
#endif
        ret = decode_picture(c, data, size, &out);
    return decoded(logctx, c, ret, &out, frame);
}

/* A palette column's value at 8 bits as the native decoder scales it (the low bits
 * repeat the high ones at depths below 8). */
static uint32_t pal8_channel(uint32_t v, int depth)
{
    if (depth > 8)
        return v >> (depth - 8) & 0xFF;
    v <<= 8 - depth;
    return (v | v >> depth) & 0xFF;
}

int ff_gpujpeg_decode_j2k_pal8(void *logctx, GJDecodeContext *c, const uint8_t *data,
                               size_t size, AVFrame *frame)
{
    gj_j2k_components *indices = &c->j2k_indices;
    const gj_j2k_plane *plane = NULL;
    gj_j2k_palette *palette;
    uint32_t *colours = (uint32_t *)frame->data[1];
    int ret;

    if (!c->j2k || frame->format != AV_PIX_FMT_PAL8)
        return AVERROR_BUG;
    if (!(palette = av_malloc(sizeof(*palette))))
        return AVERROR(ENOMEM);
    indices->buffer.memory = GJ_MEMORY_HOST;
    if ((ret = gj_j2k_read_palette(data, size, palette)) >= 0)
        ret = gj_j2k_decode_components(c->j2k, data, size, indices);
    if (ret >= 0) {
        plane = &indices->planes[0];
        if (indices->nb_components != 1 || plane->bytes_per_sample != 1 || plane->width != frame->width ||
            plane->height != frame->height || palette->columns != 3 || palette->entries > AVPALETTE_COUNT) {
            av_log(logctx, AV_LOG_ERROR, "the JPEG 2000 picture is not pal8 %dx%d\n", frame->width, frame->height);
            ret = AVERROR_INVALIDDATA;
        }
    }
    if (ret >= 0) {
        av_image_copy_plane(frame->data[0], frame->linesize[0], indices->buffer.data[0] + plane->offset,
                            plane->linesize, plane->width, plane->height);
        for (int i = 0; i < AVPALETTE_COUNT; i++)
            colours[i] = i >= palette->entries ? 0 : 0xFFu << 24 |
                         pal8_channel(palette->values[i][0], palette->depth[0]) << 16 |
                         pal8_channel(palette->values[i][1], palette->depth[1]) << 8 |
                         pal8_channel(palette->values[i][2], palette->depth[2]);
    }
    av_free(palette);
    return decoded(logctx, c, ret, &indices->buffer, frame);
}

int ff_gpujpeg_decode_j2k_batch(void *logctx, GJDecodeContext *c, AVPacket *const *pkts,
                                AVFrame *const *frames, int n, int *results)
{
    const uint8_t *data[FF_GPUJPEG_BATCH_MAX];
    size_t sizes[FF_GPUJPEG_BATCH_MAX];
    gj_frame outs[FF_GPUJPEG_BATCH_MAX];
    int ret, failed = 0, opencl = 0;
#if CONFIG_OPENCL
    void *subs[FF_GPUJPEG_BATCH_MAX];
    gj_frame views[FF_GPUJPEG_BATCH_MAX];
#endif

    if (!c->j2k || n < 1 || n > FF_GPUJPEG_BATCH_MAX)
        return AVERROR_BUG;
    for (int i = 0; i < n; i++) {
        if ((ret = gj_output(logctx, c, frames[i], &outs[i])) < 0)
            return ret;
        opencl |= outs[i].memory == GJ_MEMORY_OPENCL;
        data[i]    = pkts[i]->data;
        sizes[i]   = pkts[i]->size;
        results[i] = 0;
    }
#if CONFIG_OPENCL
    /* OpenCL images: the pictures go to sub-buffers of the staging buffer, then into the images */
    if (opencl && (ret = ff_gpujpeg_cl_stage_batch(logctx, c, outs, n, subs, views)) < 0)
        return ret;
#endif
    ret = gj_j2k_decode_batch(c->j2k, data, sizes, n, outs, results);
    for (int i = 0; i < n; i++)
        failed |= results[i] < 0;
    /* a failure before any picture (the arguments): every picture's */
    for (int i = 0; i < n && ret < 0 && !failed; i++)
        results[i] = ret;
#if CONFIG_OPENCL
    if (opencl) {
        cl_int err;

        for (int i = 0; i < n; i++) {
            if (results[i] >= 0)
                results[i] = ff_gpujpeg_cl_copy(logctx, c, &views[i], frames[i], 1);
            clReleaseMemObject(subs[i]);
        }
        /* FFmpeg reads the images on its own queue (transfers, filters) */
        if ((err = clFinish(c->cl_queue)) != CL_SUCCESS) {
            av_log(logctx, AV_LOG_ERROR, "OpenCL copy into the frames failed: error %d\n", err);
            return AVERROR_EXTERNAL;
        }
    }
#endif
    for (int i = 0; i < n; i++)
        results[i] = decoded(logctx, c, results[i], &outs[i], frames[i]);
    return 0;
}

int ff_gpujpeg_encoder_format(AVCodecContext *avctx, enum AVPixelFormat *sw_format,
                              AVBufferRef **device_ref)
{
    *sw_format  = avctx->pix_fmt;
    *device_ref = avctx->hw_device_ctx;
    if (avctx->pix_fmt == AV_PIX_FMT_CUDA || avctx->pix_fmt == AV_PIX_FMT_OPENCL) {
        AVHWFramesContext *frames;
        if (!avctx->hw_frames_ctx) {
            av_log(avctx, AV_LOG_ERROR, "%s frames need a hardware frames context\n",
                   av_get_pix_fmt_name(avctx->pix_fmt));
            return AVERROR(EINVAL);
        }
        frames      = (AVHWFramesContext *)avctx->hw_frames_ctx->data;
        *sw_format  = frames->sw_format;
        *device_ref = frames->device_ref;
    }
    return 0;
}


const AVCodecHWConfigInternal *const ff_gpujpeg_encoder_hw_configs[] = {
#if CONFIG_CUDA
    HW_CONFIG_ENCODER_FRAMES(CUDA,   CUDA),
    HW_CONFIG_ENCODER_DEVICE(NONE,   CUDA),
#endif
#if CONFIG_OPENCL
    HW_CONFIG_ENCODER_FRAMES(OPENCL, OPENCL),
    HW_CONFIG_ENCODER_DEVICE(NONE,   OPENCL),
#endif
    NULL
};
