/*
 * The libgpujpeg glue that libavcodec's codecs and libavfilter's dxt_gpujpeg
 * filter share (gpujpeg_device.c; nothing here needs libavcodec): log routing,
 * devices made from FFmpeg's hardware contexts, OpenCL staging buffers and the
 * input frames of the GPU encoders.
 */
#ifndef AVCODEC_GPUJPEG_DEVICE_H
#define AVCODEC_GPUJPEG_DEVICE_H

#include <gpujpeg/gpujpeg.h>

#include "libavutil/buffer.h"
#include "libavutil/frame.h"

typedef struct GJDecodeContext {
    gj_device       *dev;
    /* dev's owner (GJDeviceOwner), with the queue made here and the hardware device
     * that dev wraps: buffers of dev's host memory that outlive the codec hold a
     * reference of it, so the device goes with the last of them (host_pool). */
    AVBufferRef     *dev_owner;
    AVBufferPool    *host_pool;       ///< software frames in dev's host memory (libgpujpeg.c)
    size_t           host_pool_size;
    gj_jpeg_decoder *dec;             ///< JPEG, or
    gj_j2k_decoder  *j2k;             ///< JPEG 2000 (both NULL for encoders: ff_gpujpeg_open_device)
    gj_j2k_components j2k_indices;    ///< a JP2 palette's indices (pal8 pictures), in host memory
    /* OpenCL frames are images, the library reads and writes buffers: a
     * buffer of tightly packed planes stands in for them (ff_gpujpeg_cl_stage). */
    void            *cl_staging;      ///< cl_mem
    size_t           cl_staging_size;
    void            *cl_queue;        ///< cl_command_queue of the wrapped device
    int              cl_own_queue;    ///< cl_queue was created here
} GJDecodeContext;

/** Routes libgpujpeg's messages to av_log (global; idempotent). */
void ff_gpujpeg_log_init(void);

/** Maps a libgpujpeg error code to an AVERROR (they share values; this only names them). */
int ff_gpujpeg_error(void *logctx, int ret, const char *what);

/**
 * Makes c->dev: the device of a CUDA or OpenCL AVHWDeviceContext (wrapping its
 * context and stream/queue), or, with device_ref NULL, the device that
 * gj_device_create_from_string() makes of spec. Undone by ff_gpujpeg_close().
 */
int ff_gpujpeg_open_device(void *logctx, GJDecodeContext *c, AVBufferRef *device_ref,
                           const char *spec);

/**
 * Frees the decoder and its indices and the staging buffer, and lets go of the device
 * (with the queue made here): it goes when the host pool's last frame does.
 */
void ff_gpujpeg_close(GJDecodeContext *c);

/**
 * OpenCL frames are images, the library reads and writes buffers: points f's
 * planes (format, width and height set) at c->cl_staging, tightly packed, the
 * buffer kept and grown across frames. Then ff_gpujpeg_cl_copy() copies the
 * planes between it and the AVFrame's images (to_frame: into them) on
 * c->cl_queue. OpenCL builds only.
 */
int ff_gpujpeg_cl_stage(void *logctx, GJDecodeContext *c, gj_frame *f);
/**
 * The same for n pictures of fs's one format at once (at most 64), each in a
 * sub-buffer of its own (subs[i], cl_mem: the library's lanes write them on their
 * own queues, and distinct memory objects make that defined), aligned as the
 * device requires; views[i] is fs[i] over the whole buffer, for ff_gpujpeg_cl_copy().
 * The caller releases the sub-buffers.
 */
int ff_gpujpeg_cl_stage_batch(void *logctx, GJDecodeContext *c, gj_frame *fs, int n, void **subs,
                              gj_frame *views);
int ff_gpujpeg_cl_copy(void *logctx, GJDecodeContext *c, const gj_frame *f,
                       const AVFrame *frame, int to_frame);

/**
 * For encoders and the dxt_gpujpeg filter: f describes frame's picture in
 * host memory or in c's device memory; OpenCL images are copied into
 * c->cl_staging on c->cl_queue, which the library's kernels then read in
 * order. Logs what is wrong with frame.
 */
int ff_gpujpeg_encoder_frame(void *logctx, GJDecodeContext *c, const AVFrame *frame, gj_frame *f);

/**
 * The "quality" AVOption of the DXT encoders (hap_gpujpeg, dxt_gpujpeg): the
 * library's fits, default balanced. FIELD is the context's offset of an int,
 * FLAGS the option flags; the user includes libavutil/opt.h.
 */
#define FF_GPUJPEG_DXT_QUALITY_OPTIONS(FIELD, FLAGS)                                                        \
    { "quality", "DXT fit", FIELD, AV_OPT_TYPE_INT, { .i64 = GJ_DXT_QUALITY_BALANCED },                     \
      GJ_DXT_QUALITY_FAST, GJ_DXT_QUALITY_HIGH, FLAGS, .unit = "quality" },                                  \
        { "fast",     "bounding box",                 0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_QUALITY_FAST },     \
          0, 0, FLAGS, .unit = "quality" },                                                                  \
        { "balanced", "LSpiro regression and refits", 0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_QUALITY_BALANCED }, \
          0, 0, FLAGS, .unit = "quality" },                                                                  \
        { "high",     "cluster fit and refinement",   0, AV_OPT_TYPE_CONST, { .i64 = GJ_DXT_QUALITY_HIGH },     \
          0, 0, FLAGS, .unit = "quality" }

#endif /* AVCODEC_GPUJPEG_DEVICE_H */
