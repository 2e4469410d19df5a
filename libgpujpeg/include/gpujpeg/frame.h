/*
 * libgpujpeg: av-compatible frames in host, CUDA or OpenCL memory.
 *
 * A gj_frame has the shape of an AVFrame's picture part: width, height, a pixel
 * format that maps 1:1 to an AVPixelFormat, data[4] and linesize[4].
 * gpujpeg/av.h converts between the two without copying.
 */
#ifndef GPUJPEG_FRAME_H
#define GPUJPEG_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each value names the AVPixelFormat it maps to (see gpujpeg/av.h). */
enum gj_pixel_format {
    GJ_PIX_FMT_NONE = -1,
    GJ_PIX_FMT_GRAY8,       /* AV_PIX_FMT_GRAY8 */
    GJ_PIX_FMT_YUVJ420P,    /* AV_PIX_FMT_YUVJ420P: full-range, 2x2 chroma */
    GJ_PIX_FMT_YUVJ422P,    /* AV_PIX_FMT_YUVJ422P: 2x1 chroma */
    GJ_PIX_FMT_YUVJ444P,    /* AV_PIX_FMT_YUVJ444P */
    GJ_PIX_FMT_YUVJ440P,    /* AV_PIX_FMT_YUVJ440P: 1x2 chroma */
    GJ_PIX_FMT_YUVJ411P,    /* AV_PIX_FMT_YUVJ411P: 4x1 chroma */
    GJ_PIX_FMT_RGB24,       /* AV_PIX_FMT_RGB24 */
    GJ_PIX_FMT_RGBA,        /* AV_PIX_FMT_RGBA (alpha 255) */
    GJ_PIX_FMT_BGRA,        /* AV_PIX_FMT_BGRA (alpha 255) */
    GJ_PIX_FMT_GBRP,        /* AV_PIX_FMT_GBRP: planar RGB (Adobe RGB JPEGs, native) */
    GJ_PIX_FMT_GRAY16,      /* AV_PIX_FMT_GRAY16LE: samples of 9-16 bits, most significant bit aligned */
    GJ_PIX_FMT_RGB48,       /* AV_PIX_FMT_RGB48LE: the same, three channels */
    GJ_PIX_FMT_YUV410P,     /* AV_PIX_FMT_YUV410P: 4x4 chroma */
    /* Planar YUV of 9-16 bits, AV_PIX_FMT_YUV420P10LE and the like: 16-bit samples,
     * least significant bit aligned (as FFmpeg's decoders store them). */
    GJ_PIX_FMT_YUV420P9,
    GJ_PIX_FMT_YUV422P9,
    GJ_PIX_FMT_YUV444P9,
    GJ_PIX_FMT_YUV420P10,
    GJ_PIX_FMT_YUV422P10,
    GJ_PIX_FMT_YUV444P10,
    GJ_PIX_FMT_YUV420P12,
    GJ_PIX_FMT_YUV422P12,
    GJ_PIX_FMT_YUV444P12,
    GJ_PIX_FMT_YUV420P14,
    GJ_PIX_FMT_YUV422P14,
    GJ_PIX_FMT_YUV444P14,
    GJ_PIX_FMT_YUV420P16,
    GJ_PIX_FMT_YUV422P16,
    GJ_PIX_FMT_YUV444P16,
    GJ_PIX_FMT_YA8,         /* AV_PIX_FMT_YA8: gray and alpha, interleaved */
    GJ_PIX_FMT_YA16,        /* AV_PIX_FMT_YA16LE: the same of 9-16 bits, at their own bits (as FFmpeg's
                             * JPEG 2000 decoder stores them) */
    GJ_PIX_FMT_RGBA64,      /* AV_PIX_FMT_RGBA64LE: samples of 9-16 bits, most significant bit aligned */
    /* Planar YUV with a full-size alpha plane (plane 3), AV_PIX_FMT_YUVA420P and the like;
     * 9-16 bits as the deep planar YUV formats above. */
    GJ_PIX_FMT_YUVA420P,
    GJ_PIX_FMT_YUVA422P,
    GJ_PIX_FMT_YUVA444P,
    GJ_PIX_FMT_YUVA420P9,
    GJ_PIX_FMT_YUVA422P9,
    GJ_PIX_FMT_YUVA444P9,
    GJ_PIX_FMT_YUVA420P10,
    GJ_PIX_FMT_YUVA422P10,
    GJ_PIX_FMT_YUVA444P10,
    GJ_PIX_FMT_YUVA420P16,
    GJ_PIX_FMT_YUVA422P16,
    GJ_PIX_FMT_YUVA444P16,
    GJ_PIX_FMT_NB
};

/* Where a frame's planes live. */
enum gj_memory {
    GJ_MEMORY_HOST,   /* data[i]: host pointers */
    GJ_MEMORY_CUDA,   /* data[i]: CUdeviceptr values cast to uint8_t * */
    GJ_MEMORY_OPENCL, /* data[i]: cl_mem buffers cast to uint8_t *; plane i starts at offset[i] */
};

typedef struct gj_frame {
    int width;
    int height;
    enum gj_pixel_format format;
    enum gj_memory memory;
    uint8_t *data[4];
    int linesize[4];
    size_t offset[4];          /* byte offset of each plane inside data[i] (OpenCL only) */
    /* Set by decoders: non-zero when the picture was concealed (corrupt or truncated
     * input, like AVFrame.decode_error_flags). */
    int decode_error_flags;
    /* Owner of the planes when the library allocated them; NULL for caller memory. */
    void *opaque_owner;
} gj_frame;

/* Planes, chroma shifts and bytes per pixel of a format (0 planes if unknown). */
typedef struct gj_pixel_format_desc {
    const char *name;         /* FFmpeg's name, e.g. "yuvj420p" */
    int nb_planes;
    int log2_chroma_w;
    int log2_chroma_h;
    int bytes_per_pixel;      /* of plane 0; a planar format's samples, in every plane */
    int bits_per_sample;      /* the samples' bits: 8, 16 (gray16le, rgb48le), 9-16 (deep planar YUV) */
} gj_pixel_format_desc;

GJ_API const gj_pixel_format_desc *gj_pixel_format_describe(enum gj_pixel_format format);
GJ_API enum gj_pixel_format gj_pixel_format_from_name(const char *name);

/* Width in samples and height in rows of plane `plane` of a w x h picture. */
GJ_API int gj_frame_plane_width(enum gj_pixel_format format, int plane, int width);
GJ_API int gj_frame_plane_height(enum gj_pixel_format format, int plane, int height);
/* Bytes of a row of plane `plane` of a picture `width` wide, without padding. */
GJ_API size_t gj_frame_plane_row_bytes(enum gj_pixel_format format, int plane, int width);

struct gj_device;

/*
 * Allocates the planes of frame->width x frame->height in frame->format, in host
 * memory or in the memory of dev (frame->memory must match the device's). Host
 * planes are page-locked memory of dev when dev is given (copies to and from it
 * are faster; free the frame before the device), else ordinary memory (dev
 * NULL). Fills data, linesize and offset. Free with gj_frame_unref().
 */
GJ_API int gj_frame_alloc(gj_frame *frame, struct gj_device *dev);

/* Frees planes the library allocated and resets the frame's plane fields. */
GJ_API void gj_frame_unref(gj_frame *frame);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_FRAME_H */
