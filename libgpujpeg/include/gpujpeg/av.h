/*
 * libgpujpeg <-> FFmpeg, header only: converts AVFrame <-> gj_frame without
 * copying, including AV_PIX_FMT_CUDA hardware frames (device pointers) and
 * AV_PIX_FMT_OPENCL frames whose planes are OpenCL buffers.
 *
 * Include after libavutil/frame.h and libavutil/hwcontext.h. Nothing here is
 * compiled into libgpujpeg, so the library itself does not depend on FFmpeg.
 */
#ifndef GPUJPEG_AV_H
#define GPUJPEG_AV_H

#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/pixfmt.h>

#include "gpujpeg/frame.h"

static inline enum AVPixelFormat gj_av_pixel_format(enum gj_pixel_format f)
{
    switch (f) {
    case GJ_PIX_FMT_GRAY8:    return AV_PIX_FMT_GRAY8;
    case GJ_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUVJ420P;
    case GJ_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUVJ422P;
    case GJ_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUVJ444P;
    case GJ_PIX_FMT_YUVJ440P: return AV_PIX_FMT_YUVJ440P;
    case GJ_PIX_FMT_YUVJ411P: return AV_PIX_FMT_YUVJ411P;
    case GJ_PIX_FMT_RGB24:    return AV_PIX_FMT_RGB24;
    case GJ_PIX_FMT_RGBA:     return AV_PIX_FMT_RGBA;
    case GJ_PIX_FMT_BGRA:     return AV_PIX_FMT_BGRA;
    case GJ_PIX_FMT_GBRP:     return AV_PIX_FMT_GBRP;
    case GJ_PIX_FMT_GRAY16:   return AV_PIX_FMT_GRAY16LE;
    case GJ_PIX_FMT_RGB48:    return AV_PIX_FMT_RGB48LE;
    case GJ_PIX_FMT_YUV410P:  return AV_PIX_FMT_YUV410P;
    case GJ_PIX_FMT_YA8:      return AV_PIX_FMT_YA8;
    case GJ_PIX_FMT_YA16:     return AV_PIX_FMT_YA16LE;
    case GJ_PIX_FMT_RGBA64:   return AV_PIX_FMT_RGBA64LE;
    case GJ_PIX_FMT_YUVA420P:   return AV_PIX_FMT_YUVA420P;
    case GJ_PIX_FMT_YUVA422P:   return AV_PIX_FMT_YUVA422P;
    case GJ_PIX_FMT_YUVA444P:   return AV_PIX_FMT_YUVA444P;
    case GJ_PIX_FMT_YUVA420P9:  return AV_PIX_FMT_YUVA420P9LE;
    case GJ_PIX_FMT_YUVA422P9:  return AV_PIX_FMT_YUVA422P9LE;
    case GJ_PIX_FMT_YUVA444P9:  return AV_PIX_FMT_YUVA444P9LE;
    case GJ_PIX_FMT_YUVA420P10: return AV_PIX_FMT_YUVA420P10LE;
    case GJ_PIX_FMT_YUVA422P10: return AV_PIX_FMT_YUVA422P10LE;
    case GJ_PIX_FMT_YUVA444P10: return AV_PIX_FMT_YUVA444P10LE;
    case GJ_PIX_FMT_YUVA420P16: return AV_PIX_FMT_YUVA420P16LE;
    case GJ_PIX_FMT_YUVA422P16: return AV_PIX_FMT_YUVA422P16LE;
    case GJ_PIX_FMT_YUVA444P16: return AV_PIX_FMT_YUVA444P16LE;
    case GJ_PIX_FMT_YUV420P9:  return AV_PIX_FMT_YUV420P9LE;
    case GJ_PIX_FMT_YUV422P9:  return AV_PIX_FMT_YUV422P9LE;
    case GJ_PIX_FMT_YUV444P9:  return AV_PIX_FMT_YUV444P9LE;
    case GJ_PIX_FMT_YUV420P10: return AV_PIX_FMT_YUV420P10LE;
    case GJ_PIX_FMT_YUV422P10: return AV_PIX_FMT_YUV422P10LE;
    case GJ_PIX_FMT_YUV444P10: return AV_PIX_FMT_YUV444P10LE;
    case GJ_PIX_FMT_YUV420P12: return AV_PIX_FMT_YUV420P12LE;
    case GJ_PIX_FMT_YUV422P12: return AV_PIX_FMT_YUV422P12LE;
    case GJ_PIX_FMT_YUV444P12: return AV_PIX_FMT_YUV444P12LE;
    case GJ_PIX_FMT_YUV420P14: return AV_PIX_FMT_YUV420P14LE;
    case GJ_PIX_FMT_YUV422P14: return AV_PIX_FMT_YUV422P14LE;
    case GJ_PIX_FMT_YUV444P14: return AV_PIX_FMT_YUV444P14LE;
    case GJ_PIX_FMT_YUV420P16: return AV_PIX_FMT_YUV420P16LE;
    case GJ_PIX_FMT_YUV422P16: return AV_PIX_FMT_YUV422P16LE;
    case GJ_PIX_FMT_YUV444P16: return AV_PIX_FMT_YUV444P16LE;
    default:                  return AV_PIX_FMT_NONE;
    }
}

/* Full-range YUV maps both ways: yuv420p + AVCOL_RANGE_JPEG is yuvj420p for us. */
static inline enum gj_pixel_format gj_from_av_pixel_format(enum AVPixelFormat f)
{
    switch (f) {
    case AV_PIX_FMT_GRAY8:    return GJ_PIX_FMT_GRAY8;
    case AV_PIX_FMT_YUVJ420P:
    case AV_PIX_FMT_YUV420P:  return GJ_PIX_FMT_YUVJ420P;
    case AV_PIX_FMT_YUVJ422P:
    case AV_PIX_FMT_YUV422P:  return GJ_PIX_FMT_YUVJ422P;
    case AV_PIX_FMT_YUVJ444P:
    case AV_PIX_FMT_YUV444P:  return GJ_PIX_FMT_YUVJ444P;
    case AV_PIX_FMT_YUVJ440P:
    case AV_PIX_FMT_YUV440P:  return GJ_PIX_FMT_YUVJ440P;
    case AV_PIX_FMT_YUVJ411P:
    case AV_PIX_FMT_YUV411P:  return GJ_PIX_FMT_YUVJ411P;
    case AV_PIX_FMT_RGB24:    return GJ_PIX_FMT_RGB24;
    case AV_PIX_FMT_RGBA:     return GJ_PIX_FMT_RGBA;
    case AV_PIX_FMT_BGRA:     return GJ_PIX_FMT_BGRA;
    case AV_PIX_FMT_GBRP:     return GJ_PIX_FMT_GBRP;
    case AV_PIX_FMT_GRAY16LE: return GJ_PIX_FMT_GRAY16;
    case AV_PIX_FMT_RGB48LE:  return GJ_PIX_FMT_RGB48;
    /* 12-bit X'Y'Z' in the top bits of 16: RGB48's layout (JPEG 2000 digital cinema) */
    case AV_PIX_FMT_XYZ12LE:  return GJ_PIX_FMT_RGB48;
    case AV_PIX_FMT_YUV410P:  return GJ_PIX_FMT_YUV410P;
    case AV_PIX_FMT_YA8:      return GJ_PIX_FMT_YA8;
    case AV_PIX_FMT_YA16LE:   return GJ_PIX_FMT_YA16;
    case AV_PIX_FMT_RGBA64LE: return GJ_PIX_FMT_RGBA64;
    case AV_PIX_FMT_YUVA420P:     return GJ_PIX_FMT_YUVA420P;
    case AV_PIX_FMT_YUVA422P:     return GJ_PIX_FMT_YUVA422P;
    case AV_PIX_FMT_YUVA444P:     return GJ_PIX_FMT_YUVA444P;
    case AV_PIX_FMT_YUVA420P9LE:  return GJ_PIX_FMT_YUVA420P9;
    case AV_PIX_FMT_YUVA422P9LE:  return GJ_PIX_FMT_YUVA422P9;
    case AV_PIX_FMT_YUVA444P9LE:  return GJ_PIX_FMT_YUVA444P9;
    case AV_PIX_FMT_YUVA420P10LE: return GJ_PIX_FMT_YUVA420P10;
    case AV_PIX_FMT_YUVA422P10LE: return GJ_PIX_FMT_YUVA422P10;
    case AV_PIX_FMT_YUVA444P10LE: return GJ_PIX_FMT_YUVA444P10;
    case AV_PIX_FMT_YUVA420P16LE: return GJ_PIX_FMT_YUVA420P16;
    case AV_PIX_FMT_YUVA422P16LE: return GJ_PIX_FMT_YUVA422P16;
    case AV_PIX_FMT_YUVA444P16LE: return GJ_PIX_FMT_YUVA444P16;
    case AV_PIX_FMT_YUV420P9LE:  return GJ_PIX_FMT_YUV420P9;
    case AV_PIX_FMT_YUV422P9LE:  return GJ_PIX_FMT_YUV422P9;
    case AV_PIX_FMT_YUV444P9LE:  return GJ_PIX_FMT_YUV444P9;
    case AV_PIX_FMT_YUV420P10LE: return GJ_PIX_FMT_YUV420P10;
    case AV_PIX_FMT_YUV422P10LE: return GJ_PIX_FMT_YUV422P10;
    case AV_PIX_FMT_YUV444P10LE: return GJ_PIX_FMT_YUV444P10;
    case AV_PIX_FMT_YUV420P12LE: return GJ_PIX_FMT_YUV420P12;
    case AV_PIX_FMT_YUV422P12LE: return GJ_PIX_FMT_YUV422P12;
    case AV_PIX_FMT_YUV444P12LE: return GJ_PIX_FMT_YUV444P12;
    case AV_PIX_FMT_YUV420P14LE: return GJ_PIX_FMT_YUV420P14;
    case AV_PIX_FMT_YUV422P14LE: return GJ_PIX_FMT_YUV422P14;
    case AV_PIX_FMT_YUV444P14LE: return GJ_PIX_FMT_YUV444P14;
    case AV_PIX_FMT_YUV420P16LE: return GJ_PIX_FMT_YUV420P16;
    case AV_PIX_FMT_YUV422P16LE: return GJ_PIX_FMT_YUV422P16;
    case AV_PIX_FMT_YUV444P16LE: return GJ_PIX_FMT_YUV444P16;
    default:                  return GJ_PIX_FMT_NONE;
    }
}

/*
 * Describes an AVFrame's planes as a gj_frame (no copy, no reference taken: the
 * AVFrame must outlive the gj_frame). Hardware frames use their frames context's
 * sw_format. Returns 0, or a negative code if the format has no gj equivalent.
 */
static inline int gj_frame_from_av(gj_frame *dst, const AVFrame *src)
{
    enum AVPixelFormat f = (enum AVPixelFormat)src->format;
    int i;

    memset(dst, 0, sizeof(*dst));
    dst->memory = GJ_MEMORY_HOST;
    if (f == AV_PIX_FMT_CUDA || f == AV_PIX_FMT_OPENCL) {
        const AVHWFramesContext *fc;
        if (!src->hw_frames_ctx)
            return AVERROR(EINVAL);
        fc = (const AVHWFramesContext *)src->hw_frames_ctx->data;
        dst->memory = f == AV_PIX_FMT_CUDA ? GJ_MEMORY_CUDA : GJ_MEMORY_OPENCL;
        f = fc->sw_format;
    }
    dst->format = gj_from_av_pixel_format(f);
    if (dst->format == GJ_PIX_FMT_NONE)
        return AVERROR(ENOSYS);
    dst->width = src->width;
    dst->height = src->height;
    for (i = 0; i < 4; i++) {
        dst->data[i] = src->data[i];
        dst->linesize[i] = src->linesize[i];
    }
    return 0;
}

/*
 * Points an AVFrame's planes at a gj_frame's (no copy). For software frames the
 * AVFrame gets no buffer references: wrap the owner yourself (av_buffer_create)
 * if the AVFrame must own the memory.
 */
static inline int gj_frame_to_av(AVFrame *dst, const gj_frame *src)
{
    int i;

    if (src->memory != GJ_MEMORY_HOST && !dst->hw_frames_ctx)
        return AVERROR(EINVAL);
    if (src->memory == GJ_MEMORY_HOST)
        dst->format = gj_av_pixel_format(src->format);
    dst->width = src->width;
    dst->height = src->height;
    for (i = 0; i < 4; i++) {
        dst->data[i] = src->data[i];
        dst->linesize[i] = src->linesize[i];
    }
    dst->color_range = AVCOL_RANGE_JPEG;
    return 0;
}

#endif /* GPUJPEG_AV_H */
