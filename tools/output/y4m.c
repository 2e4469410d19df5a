/*
 * gpujpeg tool: YUV4MPEG2 writer, one frame. The C tags are FFmpeg's; JPEG
 * samples are full range, hence XCOLORRANGE=FULL.
 */
#include "output.h"

static const char *y4m_colorspace(enum gj_pixel_format format)
{
    switch (format) {
    case GJ_PIX_FMT_YUVJ420P: return "420jpeg";
    case GJ_PIX_FMT_YUVJ422P: return "422";
    case GJ_PIX_FMT_YUVJ444P: return "444";
    case GJ_PIX_FMT_YUVJ440P: return "440";
    case GJ_PIX_FMT_YUVJ411P: return "411";
    default:                  return "mono";
    }
}

static int y4m_write(FILE *f, const gj_frame *frame)
{
    /* Still pictures have no rate or known aspect: 25 fps as FFmpeg assumes, A0:0 = unknown. */
    fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip A0:0 C%s XCOLORRANGE=FULL\nFRAME\n",
            frame->width, frame->height, y4m_colorspace(frame->format));
    return output_write_planes(f, frame);
}

static const enum gj_pixel_format y4m_formats[] = {
    GJ_PIX_FMT_YUVJ420P, GJ_PIX_FMT_YUVJ422P, GJ_PIX_FMT_YUVJ444P, GJ_PIX_FMT_YUVJ440P,
    GJ_PIX_FMT_YUVJ411P, GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_NONE
};

const output_module output_y4m = {
    .name           = "y4m",
    .formats        = y4m_formats,
    .default_format = GJ_PIX_FMT_NONE,
    .write          = y4m_write,
};
