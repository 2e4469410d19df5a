/*
 * What the libgpujpeg codecs (libgpujpegdec.c: JPEG and JPEG 2000 decoders,
 * libgpujpegenc.c and libgpujpeghapenc.c: MJPEG and HAP encoders) and the mjpeg
 * hwaccel (gpujpeg_mjpeg.c) share beyond gpujpeg_device.h: the encoders' formats
 * and hardware configurations, and decoding one picture into an AVFrame
 * wherever its planes live.
 */
#ifndef AVCODEC_LIBGPUJPEG_H
#define AVCODEC_LIBGPUJPEG_H

#include "libavutil/buffer.h"
#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/pixfmt.h"

#include "avcodec.h"
#include "gpujpeg_device.h"

/**
 * For encoders: the software format of avctx's frames (the pool's sw_format
 * for CUDA and OpenCL frames, which need avctx->hw_frames_ctx) and the
 * hardware device they or avctx->hw_device_ctx belong to (NULL: none; then
 * the encoder makes its own from its gpu_device option).
 */
int ff_gpujpeg_encoder_format(AVCodecContext *avctx, enum AVPixelFormat *sw_format,
                              AVBufferRef **device_ref);

/** The encoders' hardware configurations: CUDA and OpenCL frames and devices. */
extern const struct AVCodecHWConfigInternal *const ff_gpujpeg_encoder_hw_configs[];

/** The encoders' gpu_device option (a string field at offset off of their context). */
#define FF_GPUJPEG_GPU_DEVICE_OPTION(off, flags)                                                      \
    { "gpu_device", "device for software frames: auto, cuda[:N], opencl[:N], opencl-gpu[:N], opencl-cpu " \
                    "(hardware frames and a hw device context use their own)",                        \
      off, AV_OPT_TYPE_STRING, { .str = "auto" }, 0, 0, flags }

/**
 * Creates the decoder of codec (AV_CODEC_ID_MJPEG or AV_CODEC_ID_JPEG2000) on
 * the device of a CUDA or OpenCL AVHWDeviceContext (wrapping its context and
 * stream/queue), or, with device_ref NULL, on the device that
 * gj_device_create_from_string() makes of spec.
 */
int ff_gpujpeg_open(void *logctx, GJDecodeContext *c, enum AVCodecID codec,
                    AVBufferRef *device_ref, const char *spec);

/**
 * ff_get_buffer() for the decoders' pinned option: software frames come from a pool
 * of c's device's host memory (page-locked on CUDA, which the device's copies fill
 * several times faster than pageable memory), not from avctx->get_buffer2 (the
 * decoders do not claim AV_CODEC_CAP_DR1); the frames keep the device until they
 * are freed. Hardware and pal8 frames are ff_get_buffer()'s.
 */
int ff_gpujpeg_get_buffer(AVCodecContext *avctx, GJDecodeContext *c, AVFrame *frame);

/**
 * Decodes one JPEG or JPEG 2000 picture into frame (software, AV_PIX_FMT_CUDA
 * or AV_PIX_FMT_OPENCL planes already allocated in the picture's format). Sets
 * the frame's colour range (JPEG) and decode_error_flags (concealed corrupt or
 * truncated data).
 */
int ff_gpujpeg_decode_frame(void *logctx, GJDecodeContext *c, const uint8_t *data,
                            size_t size, AVFrame *frame);

/**
 * Decodes a JPEG 2000 picture that the native decoder reports as pal8 (a JP2
 * palette of RGB entries on its one component) into a software pal8 frame: the
 * component's samples are the indices, the palette's colours come as the native
 * decoder makes them 8 bits, the entries past the palette's end are 0.
 */
int ff_gpujpeg_decode_j2k_pal8(void *logctx, GJDecodeContext *c, const uint8_t *data,
                               size_t size, AVFrame *frame);

/** The most JPEG 2000 pictures ff_gpujpeg_decode_j2k_batch() decodes at once. */
#define FF_GPUJPEG_BATCH_MAX 64

/**
 * Decodes n JPEG 2000 packets together (gj_j2k_decode_batch: their host work side
 * by side, one T1 launch a wave) into frames, allocated in their format in host,
 * CUDA or OpenCL memory (the images through sub-buffers of the staging buffer);
 * results[i] is frames[i]'s outcome as ff_gpujpeg_decode_frame()'s. Returns 0, or
 * an error for them all before any decode.
 */
int ff_gpujpeg_decode_j2k_batch(void *logctx, GJDecodeContext *c, AVPacket *const *pkts,
                                AVFrame *const *frames, int n, int *results);

/** The software format libgpujpeg writes for an AVFrame/hw frames pool:
 *  the yuvj formats as their yuv twins (hwcontexts know only those). */
enum AVPixelFormat ff_gpujpeg_hw_sw_format(enum AVPixelFormat native);

/** Whether frames of the hardware device can hold pictures of sw_format. */
int ff_gpujpeg_hw_can_hold(AVBufferRef *device_ref, enum AVPixelFormat sw_format);

/** Sets a frames pool's size for w x h pictures of its sw_format. */
void ff_gpujpeg_frames_size(AVHWFramesContext *frames, int w, int h);

#endif /* AVCODEC_LIBGPUJPEG_H */
