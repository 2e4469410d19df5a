/*
 * The part of the libgpujpeg glue that does not need libavcodec: log routing,
 * devices made from FFmpeg's hardware contexts, OpenCL staging buffers, the
 * input frames of the GPU encoders. libavcodec compiles it inside libgpujpeg.c
 * (its codecs and hwaccel); libavfilter's dxt_gpujpeg filter compiles this file
 * alone in shared builds (libavfilter/gpujpeg_device.c), as FFmpeg shares
 * code between its libraries, and uses libavcodec's copy in static builds.
 */

#include "config.h"

#include <gpujpeg/av.h>

#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"

#if CONFIG_CUDA
#include "compat/cuda/dynlink_loader.h"
#include "libavutil/hwcontext_cuda.h"
#endif
#if CONFIG_OPENCL
#include "libavutil/hwcontext_opencl.h"
#endif

#include "gpujpeg_device.h"

/* One AVClass for the library's own messages: they are not tied to a codec context
 * (the log callback is global), so they appear as "[libgpujpeg @ ...]". */
static const AVClass gj_log_class = {
    .class_name = "libgpujpeg",
    .item_name  = av_default_item_name,
    .version    = LIBAVUTIL_VERSION_INT,
};
static const AVClass *const gj_log_ctx = &gj_log_class;

static void gj_log_to_av(void *opaque, int level, const char *message)
{
    /* gj_log_level uses the AV_LOG_* values */
    av_log((void *)&gj_log_ctx, level, "%s\n", message);
}

static void log_init_once(void)
{
    gj_log_set_callback(gj_log_to_av, NULL);
}

void ff_gpujpeg_log_init(void)
{
    static AVOnce once = AV_ONCE_INIT;
    ff_thread_once(&once, log_init_once);
}

int ff_gpujpeg_error(void *logctx, int ret, const char *what)
{
    av_log(logctx, AV_LOG_ERROR, "%s: %s\n", what, gj_strerror(ret));
    return ret;
}

static int wrap_device(void *logctx, GJDecodeContext *c, AVBufferRef *device_ref)
{
    AVHWDeviceContext *dc = (AVHWDeviceContext *)device_ref->data;
    int ret = AVERROR(ENOSYS);

    switch (dc->type) {
#if CONFIG_CUDA
    case AV_HWDEVICE_TYPE_CUDA: {
        AVCUDADeviceContext *hw = dc->hwctx;
        ret = gj_device_wrap_cuda(&c->dev, hw->cuda_ctx, hw->stream);
        break;
    }
#endif
#if CONFIG_OPENCL
    case AV_HWDEVICE_TYPE_OPENCL: {
        AVOpenCLDeviceContext *hw = dc->hwctx;
        cl_int err = CL_SUCCESS;
        /* The device context's queue is optional (FFmpeg then uses a private
         * one): without it we use a queue of our own and finish each frame on it. */
        c->cl_queue = hw->command_queue;
        if (!c->cl_queue) {
            c->cl_queue = clCreateCommandQueue(hw->context, hw->device_id, 0, &err);
            if (err != CL_SUCCESS) {
                av_log(logctx, AV_LOG_ERROR, "cannot create an OpenCL command queue: error %d\n", err);
                return AVERROR_EXTERNAL;
            }
            c->cl_own_queue = 1;
        }
        ret = gj_device_wrap_opencl(&c->dev, hw->context, hw->device_id, c->cl_queue);
        break;
    }
#endif
    default:
        av_log(logctx, AV_LOG_ERROR, "libgpujpeg cannot use a %s device\n",
               av_hwdevice_get_type_name(dc->type));
        return AVERROR(ENOSYS);
    }
    if (ret < 0)
        return ff_gpujpeg_error(logctx, ret, "cannot use the hardware device");
    return 0;
}

/* What GJDecodeContext.dev_owner holds. */
typedef struct GJDeviceOwner {
    gj_device   *dev;
    void        *cl_queue;      ///< cl_command_queue made for dev here, released after it
    AVBufferRef *hw_device;     ///< the AVHWDeviceContext whose context dev wraps
} GJDeviceOwner;

/* A device made or wrapped here, and the queue made for it (NULL: none). */
static void free_device(gj_device **dev, void *own_queue)
{
    gj_device_free(dev);
#if CONFIG_OPENCL
    if (own_queue)
        clReleaseCommandQueue(own_queue);
#endif
}

static void free_device_owner(void *opaque, uint8_t *data)
{
    GJDeviceOwner *o = (GJDeviceOwner *)data;

    free_device(&o->dev, o->cl_queue);
    av_buffer_unref(&o->hw_device);
    av_free(o);
}

/* Hands c->dev, its queue made here and device_ref to c->dev_owner. */
static int own_device(GJDecodeContext *c, AVBufferRef *device_ref)
{
    GJDeviceOwner *o = av_mallocz(sizeof(*o));

    if (!o || (device_ref && !(o->hw_device = av_buffer_ref(device_ref))) ||
        !(c->dev_owner = av_buffer_create((uint8_t *)o, sizeof(*o), free_device_owner, NULL, 0))) {
        if (o)
            av_buffer_unref(&o->hw_device);
        av_free(o);
        return AVERROR(ENOMEM);
    }
    o->dev = c->dev;
    o->cl_queue = c->cl_own_queue ? c->cl_queue : NULL;
    return 0;
}

int ff_gpujpeg_open_device(void *logctx, GJDecodeContext *c, AVBufferRef *device_ref,
                           const char *spec)
{
    int ret;

    ff_gpujpeg_log_init();
    if (device_ref) {
        if ((ret = wrap_device(logctx, c, device_ref)) < 0)
            return ret;
    } else if ((ret = gj_device_create_from_string(&c->dev, spec)) < 0) {
        av_log(logctx, AV_LOG_ERROR, "no libgpujpeg device '%s': %s\n", spec, gj_strerror(ret));
        return ret;
    }
    return own_device(c, device_ref);
}

void ff_gpujpeg_close(GJDecodeContext *c)
{
#if CONFIG_OPENCL
    if (c->cl_staging)
        clReleaseMemObject(c->cl_staging);
#endif
    c->cl_staging = NULL;
    c->cl_staging_size = 0;
    gj_jpeg_decoder_free(&c->dec);
    gj_j2k_decoder_free(&c->j2k);
    gj_j2k_components_unref(&c->j2k_indices);
    av_buffer_pool_uninit(&c->host_pool);
    c->host_pool_size = 0;
    if (c->dev_owner) {
        c->dev = NULL;      /* the owner's, with the queue made here */
        av_buffer_unref(&c->dev_owner);
    } else {
        /* an open that failed before the owner was made */
        free_device(&c->dev, c->cl_own_queue ? c->cl_queue : NULL);
    }
    c->cl_queue = NULL;
    c->cl_own_queue = 0;
}

#if CONFIG_OPENCL
static int cl_staging(void *logctx, GJDecodeContext *c, size_t size)
{
    cl_context ctx;
    cl_int err;

    if (size <= c->cl_staging_size)
        return 0;
    if (c->cl_staging)
        clReleaseMemObject(c->cl_staging);
    c->cl_staging = NULL;
    c->cl_staging_size = 0;
    err = clGetCommandQueueInfo(c->cl_queue, CL_QUEUE_CONTEXT, sizeof(ctx), &ctx, NULL);
    if (err == CL_SUCCESS)
        c->cl_staging = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    if (err != CL_SUCCESS) {
        av_log(logctx, AV_LOG_ERROR, "cannot allocate a %zu-byte OpenCL buffer: error %d\n",
               size, err);
        return AVERROR(ENOMEM);
    }
    c->cl_staging_size = size;
    return 0;
}

/* f's planes tightly packed from offset `at`; returns the bytes they take, or 0 for no format. */
static size_t cl_layout(gj_frame *f, size_t at)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(f->format);
    size_t offset = at;

    if (!d || !d->nb_planes)
        return 0;
    for (int p = 0; p < d->nb_planes; p++) {
        f->linesize[p] = (int)gj_frame_plane_row_bytes(f->format, p, f->width);
        f->offset[p] = offset;
        offset += (size_t)f->linesize[p] * gj_frame_plane_height(f->format, p, f->height);
    }
    return offset - at;
}

int ff_gpujpeg_cl_stage(void *logctx, GJDecodeContext *c, gj_frame *f)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(f->format);
    size_t size = cl_layout(f, 0);
    int ret;

    if (!size)
        return AVERROR_BUG;
    if ((ret = cl_staging(logctx, c, size)) < 0)
        return ret;
    for (int p = 0; p < d->nb_planes; p++)
        f->data[p] = c->cl_staging;
    return 0;
}

int ff_gpujpeg_cl_stage_batch(void *logctx, GJDecodeContext *c, gj_frame *fs, int n, void **subs,
                              gj_frame *views)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(fs[0].format);
    cl_device_id dev;
    cl_uint align_bits = 0;
    size_t at = 0, origins[64], sizes[64], align;
    cl_int err;
    int ret;

    if (!d || n > FF_ARRAY_ELEMS(origins))
        return AVERROR_BUG;
    err = clGetCommandQueueInfo(c->cl_queue, CL_QUEUE_DEVICE, sizeof(dev), &dev, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits, NULL);
    align = err == CL_SUCCESS && align_bits >= 8 ? align_bits / 8 : 4096;
    for (int i = 0; i < n; i++) {
        at = (at + align - 1) / align * align;
        origins[i] = at;
        if (!(sizes[i] = cl_layout(&fs[i], 0)))
            return AVERROR_BUG;
        at += sizes[i];
    }
    if ((ret = cl_staging(logctx, c, at)) < 0)
        return ret;
    for (int i = 0; i < n; i++) {
        cl_buffer_region region = { origins[i], sizes[i] };

        subs[i] = clCreateSubBuffer(c->cl_staging, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                    &region, &err);
        if (err != CL_SUCCESS) {
            av_log(logctx, AV_LOG_ERROR, "cannot make a sub-buffer of the OpenCL staging buffer: error %d\n", err);
            for (int k = 0; k < i; k++)
                clReleaseMemObject(subs[k]);
            return AVERROR_EXTERNAL;
        }
        views[i] = fs[i];
        cl_layout(&views[i], origins[i]);
        for (int p = 0; p < d->nb_planes; p++) {
            fs[i].data[p]    = subs[i];
            views[i].data[p] = c->cl_staging;
        }
    }
    return 0;
}

int ff_gpujpeg_cl_copy(void *logctx, GJDecodeContext *c, const gj_frame *f,
                       const AVFrame *frame, int to_frame)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(f->format);
    cl_int err;
    int p;

    for (p = 0; p < d->nb_planes; p++) {
        size_t origin[3] = { 0, 0, 0 };
        /* in image elements (pixels), the rows packed as the buffer holds them */
        size_t region[3] = { gj_frame_plane_width(f->format, p, f->width),
                             gj_frame_plane_height(f->format, p, f->height), 1 };
        cl_mem image = (cl_mem)frame->data[p];
        err = to_frame ? clEnqueueCopyBufferToImage(c->cl_queue, c->cl_staging, image,
                                                    f->offset[p], origin, region, 0, NULL, NULL)
                       : clEnqueueCopyImageToBuffer(c->cl_queue, image, c->cl_staging,
                                                    origin, region, f->offset[p], 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            av_log(logctx, AV_LOG_ERROR, "cannot copy plane %d %s the OpenCL frame: error %d\n",
                   p, to_frame ? "into" : "out of", err);
            return AVERROR_EXTERNAL;
        }
    }
    return 0;
}
#endif

int ff_gpujpeg_encoder_frame(void *logctx, GJDecodeContext *c, const AVFrame *frame, gj_frame *f)
{
    int ret;

    if ((ret = gj_frame_from_av(f, frame)) < 0) {
        av_log(logctx, AV_LOG_ERROR, "%s frames cannot be encoded\n", av_get_pix_fmt_name(frame->format));
        return ret;
    }
    if (f->memory != GJ_MEMORY_HOST && f->memory != gj_device_memory(c->dev)) {
        av_log(logctx, AV_LOG_ERROR, "the hardware frames do not belong to the encoding device (%s)\n",
               gj_device_name(c->dev));
        return AVERROR(EINVAL);
    }
#if CONFIG_OPENCL
    /* images: copied into the staging buffer on the device's queue, which the
     * encoder's kernels then read in order */
    if (f->memory == GJ_MEMORY_OPENCL &&
        ((ret = ff_gpujpeg_cl_stage(logctx, c, f)) < 0 ||
         (ret = ff_gpujpeg_cl_copy(logctx, c, f, frame, 0)) < 0))
        return ret;
#endif
    return 0;
}
