/*
 * gpujpeg tool: YUV4MPEG2 writer, one frame. The C tags are FFmpeg's; JPEG
 * samples are full range, hence XCOLORRANGE=FULL.
 */
#include "output.h"

/* The C tag: FFmpeg's names, deep planar ones with their bits ("420p10"). */
static void y4m_colorspace(enum gj_pixel_format format, char *tag, size_t size)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(format);
    const char *base = "mono";

    switch (format) {
    case GJ_PIX_FMT_YUVJ420P: base = "420jpeg"; break;
    case GJ_PIX_FMT_YUVJ422P: base = "422"; break;
    case GJ_PIX_FMT_YUVJ444P: base = "444"; break;
    case GJ_PIX_FMT_YUVJ440P: base = "440"; break;
    case GJ_PIX_FMT_YUVJ411P: base = "411"; break;
    default:
        if (d->nb_planes == 3 && d->bits_per_sample > 8) {
            snprintf(tag, size, "%sp%d", d->log2_chroma_h ? "420" : d->log2_chroma_w ? "422" : "444",
                     d->bits_per_sample);
            return;
        }
    }
    snprintf(tag, size, "%s", base);
}

static int y4m_write(FILE *f, const gj_frame *frame)
{
    char tag[16];

    y4m_colorspace(frame->format, tag, sizeof(tag));
    /* Still pictures have no rate or known aspect: 25 fps as FFmpeg assumes, A0:0 = unknown. */
    fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip A0:0 C%s XCOLORRANGE=FULL\nFRAME\n",
            frame->width, frame->height, tag);
    return output_write_planes(f, frame);
}

static const enum gj_pixel_format y4m_formats[] = {
    GJ_PIX_FMT_YUVJ420P, GJ_PIX_FMT_YUVJ422P, GJ_PIX_FMT_YUVJ444P, GJ_PIX_FMT_YUVJ440P,
    GJ_PIX_FMT_YUVJ411P, GJ_PIX_FMT_GRAY8, GJ_DEEP_YUV_FORMATS, GJ_PIX_FMT_NONE
};

const output_module output_y4m = {
    .name           = "y4m",
    .formats        = y4m_formats,
    .default_format = GJ_PIX_FMT_NONE,
    .write          = y4m_write,
};
