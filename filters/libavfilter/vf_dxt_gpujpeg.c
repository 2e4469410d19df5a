/*
 * dxt_gpujpeg: DXT/BCn compression of video frames on the GPU (libgpujpeg,
 * CUDA or OpenCL), so that a graph passes compressed textures on.
 *
 * FFmpeg has no pixel format for texture blocks: the output frames are
 * hardware frames of the input's device with sw_format gray8, one row per row
 * of 4x4 blocks, blocks_x * block_bytes bytes wide (8 for bc1 and bc4, 16 for
 * bc3 and ycocg) and blocks_y rows high, so that the frame's bytes are the
 * blocks exactly as DDS and HAP store them (rows of a padded hardware frame
 * carry the blocks of one block row; hwdownload gives the DDS payload). Frame
 * metadata names the texture: lavfi.dxt_gpujpeg.format (bc1, bc3, ycocg, bc4),
 * lavfi.dxt_gpujpeg.width and lavfi.dxt_gpujpeg.height (the picture's size).
 *
 * Input: CUDA or OpenCL frames (compressed in place: only the blocks are
 * written, into the output frame), or software frames, which the library
 * uploads to the filter's device (-filter_hw_device). Sizes that are not
 * multiples of 4 are padded by edge replication, as in hap_gpujpeg.
 */

#include "config.h"

#include <gpujpeg/av.h>

#include "libavutil/hwcontext.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#if CONFIG_CUDA
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext_cuda_internal.h"
#endif
#if CONFIG_OPENCL
#include "libavutil/hwcontext_opencl.h"
#endif

#include "libavcodec/gpujpeg_device.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "video.h"

typedef struct DXTGpujpegContext {
    const AVClass  *class;
    GJDecodeContext gj;             ///< the device of the input frames (or of -filter_hw_device)
    gj_dxt_encoder *enc;
    /* Device blocks, kept across frames, where the output frame cannot take
     * them directly: OpenCL frames are images, CUDA frames may have padded rows. */
    gj_dxt_blocks   blocks;
    AVBufferRef    *frames_ref;     ///< the output frames: gray8 rows of blocks
    enum AVPixelFormat sw_format;   ///< of the input pictures
    int             row_bytes;      ///< of one row of blocks
    int             block_rows;

    /* options */
    int format;
    int quality;
} DXTGpujpegContext;

/* What the DXT kernels read (gj_dxt_encode). YCbCr is full range (JPEG's):
 * the yuv formats are taken when the frames say so (checked per frame). */
static const enum AVPixelFormat sw_formats[] = {
    AV_PIX_FMT_RGBA,     AV_PIX_FMT_BGRA,     AV_PIX_FMT_RGB24,    AV_PIX_FMT_GRAY8,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
    AV_PIX_FMT_YUV420P,  AV_PIX_FMT_YUV422P,  AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_NONE
};

static const enum AVPixelFormat hw_formats[] = {
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
#if CONFIG_OPENCL
    AV_PIX_FMT_OPENCL,
#endif
    AV_PIX_FMT_NONE
};

static enum AVPixelFormat device_pix_fmt(AVBufferRef *device_ref)
{
    switch (((AVHWDeviceContext *)device_ref->data)->type) {
    case AV_HWDEVICE_TYPE_CUDA:   return CONFIG_CUDA ? AV_PIX_FMT_CUDA : AV_PIX_FMT_NONE;
    case AV_HWDEVICE_TYPE_OPENCL: return CONFIG_OPENCL ? AV_PIX_FMT_OPENCL : AV_PIX_FMT_NONE;
    default:                      return AV_PIX_FMT_NONE;
    }
}

/* Without a device of the filter's own, input and output share one list (and
 * so one format): hardware frames give their blocks to frames of their own
 * device; software frames are refused in config_output with a message rather
 * than by a failed negotiation. With a device, software frames may come in
 * too, and the output is that device's. */
static int dxt_gpujpeg_query_formats(AVFilterContext *avctx)
{
    AVFilterFormats *in = ff_make_format_list((const int *)sw_formats);
    enum AVPixelFormat hw;
    int ret;

    for (int i = 0; in && hw_formats[i] != AV_PIX_FMT_NONE; i++)
        if ((ret = ff_add_format(&in, hw_formats[i])) < 0)
            return ret;
    if (!in)
        return AVERROR(ENOMEM);
    if (!avctx->hw_device_ctx)
        return ff_set_common_formats(avctx, in);

    hw = device_pix_fmt(avctx->hw_device_ctx);
    if (hw == AV_PIX_FMT_NONE) {
        av_log(avctx, AV_LOG_ERROR, "libgpujpeg cannot use a %s device (CUDA and OpenCL devices can)\n",
               av_hwdevice_get_type_name(((AVHWDeviceContext *)avctx->hw_device_ctx->data)->type));
        ff_formats_unref(&in);
        return AVERROR(ENOSYS);
    }
    if ((ret = ff_formats_ref(in, &avctx->inputs[0]->outcfg.formats)) < 0)
        return ret;
    return ff_formats_ref(ff_make_format_list((const int[]){ hw, AV_PIX_FMT_NONE }),
                          &avctx->outputs[0]->incfg.formats);
}

static void release(DXTGpujpegContext *s)
{
    gj_dxt_blocks_unref(&s->blocks);
    gj_dxt_encoder_free(&s->enc);
    ff_gpujpeg_close(&s->gj);
    av_buffer_unref(&s->frames_ref);
}

static int dxt_gpujpeg_config_output(AVFilterLink *outlink)
{
    AVFilterContext  *avctx = outlink->src;
    DXTGpujpegContext    *s = avctx->priv;
    AVFilterLink    *inlink = avctx->inputs[0];
    FilterLink         *inl = ff_filter_link(inlink);
    FilterLink        *outl = ff_filter_link(outlink);
    const char       *fname = gj_dxt_format_name(s->format);
    AVBufferRef *device_ref;
    AVHWFramesContext *frames;
    size_t row_bytes;
    int i, ret;

    release(s);
    if (inl->hw_frames_ctx) {
        AVHWFramesContext *in_frames = (AVHWFramesContext *)inl->hw_frames_ctx->data;
        device_ref   = in_frames->device_ref;
        s->sw_format = in_frames->sw_format;
    } else {
        device_ref   = avctx->hw_device_ctx;
        s->sw_format = inlink->format;
    }
    for (i = 0; sw_formats[i] != AV_PIX_FMT_NONE && sw_formats[i] != s->sw_format; i++)
        ;
    if (sw_formats[i] == AV_PIX_FMT_NONE) {
        av_log(avctx, AV_LOG_ERROR, "%s frames cannot be compressed (rgba, bgra, rgb24, gray, or full-range "
               "yuv420p/422p/444p can)\n", av_get_pix_fmt_name(s->sw_format));
        return AVERROR(ENOSYS);
    }
    if (!device_ref || outlink->format != device_pix_fmt(device_ref)) {
        av_log(avctx, AV_LOG_ERROR, "the blocks go into CUDA or OpenCL frames: give software frames a "
               "device (-filter_hw_device), or upload them first\n");
        return AVERROR(EINVAL);
    }

    /* the blocks' rows as gray8 rows: 4 picture rows per frame row */
    row_bytes = gj_dxt_size(s->format, inlink->w, 4);
    if (!row_bytes || row_bytes > INT_MAX) {
        av_log(avctx, AV_LOG_ERROR, "cannot compress %dx%d pictures into %s blocks\n",
               inlink->w, inlink->h, fname);
        return AVERROR(EINVAL);
    }
    s->row_bytes  = row_bytes;
    s->block_rows = (inlink->h + 3) / 4;

    if ((ret = ff_gpujpeg_open_device(avctx, &s->gj, device_ref, NULL)) < 0)
        return ret;
    if ((ret = gj_dxt_encoder_create(&s->enc, s->gj.dev)) < 0)
        return ff_gpujpeg_error(avctx, ret, "cannot create the DXT encoder");
    s->blocks.memory = gj_device_memory(s->gj.dev);

    if (!(s->frames_ref = av_hwframe_ctx_alloc(device_ref)))
        return AVERROR(ENOMEM);
    frames            = (AVHWFramesContext *)s->frames_ref->data;
    frames->format    = device_pix_fmt(device_ref);
    frames->sw_format = AV_PIX_FMT_GRAY8;
    frames->width     = s->row_bytes;
    frames->height    = s->block_rows;
    if ((ret = av_hwframe_ctx_init(s->frames_ref)) < 0) {
        av_log(avctx, AV_LOG_ERROR, "the device cannot hold the %s blocks of %dx%d pictures as %dx%d gray "
               "frames\n", fname, inlink->w, inlink->h, s->row_bytes, s->block_rows);
        return ret;
    }
    if (!(outl->hw_frames_ctx = av_buffer_ref(s->frames_ref)))
        return AVERROR(ENOMEM);
    outlink->w = s->row_bytes;
    outlink->h = s->block_rows;
    outlink->sample_aspect_ratio = (AVRational){ 1, 1 };

    av_log(avctx, AV_LOG_VERBOSE, "libgpujpeg %s: %s %s blocks of %dx%d %s, as %dx%d gray, on %s\n",
           gj_version(), gj_dxt_quality_name(s->quality), fname, inlink->w, inlink->h,
           av_get_pix_fmt_name(s->sw_format), s->row_bytes, s->block_rows, gj_device_name(s->gj.dev));
    return 0;
}

#if CONFIG_CUDA
/* The frame's rows are padded to the texture alignment: the packed blocks are
 * copied into them on the device context's stream, after the kernels. */
static int cuda_copy_rows(AVFilterContext *avctx, DXTGpujpegContext *s, AVFrame *out)
{
    AVHWFramesContext  *frames = (AVHWFramesContext *)s->frames_ref->data;
    AVCUDADeviceContext *hwctx = frames->device_ctx->hwctx;
    CudaFunctions          *cu = hwctx->internal->cuda_dl;
    CUDA_MEMCPY2D copy = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE,
        .srcDevice     = (CUdeviceptr)s->blocks.data + s->blocks.offset,
        .srcPitch      = s->row_bytes,
        .dstMemoryType = CU_MEMORYTYPE_DEVICE,
        .dstDevice     = (CUdeviceptr)out->data[0],
        .dstPitch      = out->linesize[0],
        .WidthInBytes  = s->row_bytes,
        .Height        = s->block_rows,
    };
    CUcontext dummy;
    int ret;

    if ((ret = FF_CUDA_CHECK_DL(avctx, cu, cu->cuCtxPushCurrent(hwctx->cuda_ctx))) < 0)
        return ret;
    ret = FF_CUDA_CHECK_DL(avctx, cu, cu->cuMemcpy2DAsync(&copy, hwctx->stream));
    FF_CUDA_CHECK_DL(avctx, cu, cu->cuCtxPopCurrent(&dummy));
    return ret;
}
#endif

#if CONFIG_OPENCL
/* The blocks, packed in a buffer, into the frame's image; finished here, as
 * FFmpeg reads the image on its own queue (transfers, filters). */
static int opencl_copy_rows(AVFilterContext *avctx, DXTGpujpegContext *s, AVFrame *out)
{
    size_t origin[3] = { 0, 0, 0 };
    size_t region[3] = { s->row_bytes, s->block_rows, 1 };
    cl_int err;

    err = clEnqueueCopyBufferToImage(s->gj.cl_queue, (cl_mem)s->blocks.data, (cl_mem)out->data[0],
                                     s->blocks.offset, origin, region, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(s->gj.cl_queue);
    if (err != CL_SUCCESS) {
        av_log(avctx, AV_LOG_ERROR, "cannot copy the blocks into the OpenCL frame: error %d\n", err);
        return AVERROR_EXTERNAL;
    }
    return 0;
}
#endif

static int compress(AVFilterContext *avctx, DXTGpujpegContext *s, const AVFrame *in, AVFrame *out)
{
    gj_frame pic;
    int ret;

    if (in->format != AV_PIX_FMT_CUDA && in->format != AV_PIX_FMT_OPENCL && in->format != s->sw_format) {
        av_log(avctx, AV_LOG_ERROR, "a %s frame in a stream of %s frames\n", av_get_pix_fmt_name(in->format),
               av_get_pix_fmt_name(s->sw_format));
        return AVERROR(EINVAL);
    }
    /* the kernels convert full-range YCbCr (JPEG's) to RGB */
    if ((s->sw_format == AV_PIX_FMT_YUV420P || s->sw_format == AV_PIX_FMT_YUV422P ||
         s->sw_format == AV_PIX_FMT_YUV444P) && in->color_range != AVCOL_RANGE_JPEG) {
        av_log(avctx, AV_LOG_ERROR, "%s of %s range: the filter converts full-range YUV to RGB; convert the "
               "frames to full range (scale=out_range=pc) or to rgba first\n",
               av_get_pix_fmt_name(s->sw_format), av_color_range_name(in->color_range));
        return AVERROR(EINVAL);
    }
    if ((ret = ff_gpujpeg_encoder_frame(avctx, &s->gj, in, &pic)) < 0)
        return ret;

#if CONFIG_CUDA
    /* rows that are not padded take the blocks in place */
    if (out->format == AV_PIX_FMT_CUDA && out->linesize[0] == s->row_bytes) {
        gj_dxt_blocks direct = { .memory = GJ_MEMORY_CUDA, .data = out->data[0],
                                 .size = (size_t)s->row_bytes * s->block_rows };
        if ((ret = gj_dxt_encode(s->enc, &pic, s->format, s->quality, &direct)) < 0)
            return ff_gpujpeg_error(avctx, ret, "DXT compression failed");
        return 0;
    }
#endif
    if ((ret = gj_dxt_encode(s->enc, &pic, s->format, s->quality, &s->blocks)) < 0)
        return ff_gpujpeg_error(avctx, ret, "DXT compression failed");
#if CONFIG_CUDA
    if (out->format == AV_PIX_FMT_CUDA)
        return cuda_copy_rows(avctx, s, out);
#endif
#if CONFIG_OPENCL
    if (out->format == AV_PIX_FMT_OPENCL)
        return opencl_copy_rows(avctx, s, out);
#endif
    return AVERROR_BUG;
}

static int dxt_gpujpeg_filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *avctx = inlink->dst;
    DXTGpujpegContext   *s = avctx->priv;
    AVFilterLink  *outlink = avctx->outputs[0];
    AVFrame *out;
    int ret;

    if (!(out = ff_get_video_buffer(outlink, outlink->w, outlink->h))) {
        av_frame_free(&in);
        return AVERROR(ENOMEM);
    }
    if ((ret = av_frame_copy_props(out, in)) < 0 ||
        (ret = compress(avctx, s, in, out)) < 0 ||
        (ret = av_dict_set(&out->metadata, "lavfi.dxt_gpujpeg.format", gj_dxt_format_name(s->format), 0)) < 0 ||
        (ret = av_dict_set_int(&out->metadata, "lavfi.dxt_gpujpeg.width", inlink->w, 0)) < 0 ||
        (ret = av_dict_set_int(&out->metadata, "lavfi.dxt_gpujpeg.height", inlink->h, 0)) < 0)
        goto fail;
    /* bytes, not a picture: nothing downstream should convert them */
    out->color_range     = AVCOL_RANGE_JPEG;
    out->colorspace      = AVCOL_SPC_UNSPECIFIED;
    out->color_primaries = AVCOL_PRI_UNSPECIFIED;
    out->color_trc       = AVCOL_TRC_UNSPECIFIED;
    out->sample_aspect_ratio = (AVRational){ 1, 1 };
    av_frame_free(&in);
    return ff_filter_frame(outlink, out);

fail:
    av_frame_free(&in);
    av_frame_free(&out);
    return ret;
}

static av_cold int dxt_gpujpeg_init(AVFilterContext *avctx)
{
    ff_gpujpeg_log_init();
    return 0;
}

static av_cold void dxt_gpujpeg_uninit(AVFilterContext *avctx)
{
    release(avctx->priv);
}

#define OFFSET(x) offsetof(DXTGpujpegContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)
static const AVOption dxt_gpujpeg_options[] = {
    { "format", "texture format", OFFSET(format), AV_OPT_TYPE_INT, { .i64 = GJ_DXT_FORMAT_BC1 },
      GJ_DXT_FORMAT_BC1, GJ_DXT_FORMAT_BC4, FLAGS, .unit = "format" },
        { "bc1",       "DXT1, opaque RGB",         0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC1 },   0, 0, FLAGS, .unit = "format" },
        { "dxt1",      "BC1",                      0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC1 },   0, 0, FLAGS, .unit = "format" },
        { "hap",       "BC1 (HAP's name)",         0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC1 },   0, 0, FLAGS, .unit = "format" },
        { "bc3",       "DXT5, RGBA",               0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC3 },   0, 0, FLAGS, .unit = "format" },
        { "dxt5",      "BC3",                      0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC3 },   0, 0, FLAGS, .unit = "format" },
        { "hap_alpha", "BC3 (HAP's name)",         0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC3 },   0, 0, FLAGS, .unit = "format" },
        { "ycocg",     "scaled YCoCg in DXT5",     0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_YCOCG }, 0, 0, FLAGS, .unit = "format" },
        { "hap_q",     "scaled YCoCg (HAP's name)", 0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_YCOCG }, 0, 0, FLAGS, .unit = "format" },
        { "bc4",       "one channel: alpha, or gray without alpha", 0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_FORMAT_BC4 }, 0, 0, FLAGS, .unit = "format" },
    FF_GPUJPEG_DXT_QUALITY_OPTIONS(OFFSET(quality), FLAGS),
    { NULL }
};

AVFILTER_DEFINE_CLASS(dxt_gpujpeg);

static const AVFilterPad dxt_gpujpeg_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .filter_frame = dxt_gpujpeg_filter_frame,
    },
};

static const AVFilterPad dxt_gpujpeg_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = dxt_gpujpeg_config_output,
    },
};

const AVFilter ff_vf_dxt_gpujpeg = {
    .name           = "dxt_gpujpeg",
    .description    = NULL_IF_CONFIG_SMALL("DXT/BCn texture compression on the GPU (libgpujpeg, CUDA/OpenCL)"),
    .priv_size      = sizeof(DXTGpujpegContext),
    .priv_class     = &dxt_gpujpeg_class,
    .init           = dxt_gpujpeg_init,
    .uninit         = dxt_gpujpeg_uninit,
    FILTER_INPUTS(dxt_gpujpeg_inputs),
    FILTER_OUTPUTS(dxt_gpujpeg_outputs),
    FILTER_QUERY_FUNC(dxt_gpujpeg_query_formats),
    .flags          = AVFILTER_FLAG_HWDEVICE,
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
