/* gpujpeg tool: raw writer: the planes one after another, rows unpadded (FFmpeg's
 * rawvideo): planar formats, and the packed ones no other module writes as they are. */
#include "output.h"

static const enum gj_pixel_format yuv_formats[] = {
    GJ_PIX_FMT_YUVJ420P, GJ_PIX_FMT_YUVJ422P, GJ_PIX_FMT_YUVJ444P, GJ_PIX_FMT_YUVJ440P,
    GJ_PIX_FMT_YUVJ411P, GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_GBRP, GJ_PIX_FMT_YUV410P, GJ_DEEP_YUV_FORMATS,
    GJ_PIX_FMT_YA8, GJ_PIX_FMT_YA16, GJ_PIX_FMT_RGBA64, GJ_PIX_FMT_YUVA420P, GJ_PIX_FMT_YUVA422P,
    GJ_PIX_FMT_YUVA444P, GJ_PIX_FMT_YUVA420P9, GJ_PIX_FMT_YUVA422P9, GJ_PIX_FMT_YUVA444P9, GJ_PIX_FMT_YUVA420P10,
    GJ_PIX_FMT_YUVA422P10, GJ_PIX_FMT_YUVA444P10, GJ_PIX_FMT_YUVA420P16, GJ_PIX_FMT_YUVA422P16,
    GJ_PIX_FMT_YUVA444P16, GJ_PIX_FMT_NONE
};

const output_module output_yuv = {
    .name           = "yuv",
    .formats        = yuv_formats,
    .default_format = GJ_PIX_FMT_NONE,
    .write          = output_write_planes,
};
