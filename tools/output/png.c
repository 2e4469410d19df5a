/* gpujpeg tool: PNG writer (libpng's simplified API, which also turns BGRA into RGBA). */
#include <errno.h>
#include <string.h>

#include <png.h>

#include "gpujpeg/common.h"
#include "output.h"

static png_uint_32 png_format(enum gj_pixel_format format)
{
    switch (format) {
    case GJ_PIX_FMT_GRAY8: return PNG_FORMAT_GRAY;
    case GJ_PIX_FMT_RGBA:  return PNG_FORMAT_RGBA;
    case GJ_PIX_FMT_BGRA:  return PNG_FORMAT_BGRA;
    default:               return PNG_FORMAT_RGB;
    }
}

static int png_write(FILE *f, const gj_frame *frame)
{
    png_image image;

    memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    image.width   = frame->width;
    image.height  = frame->height;
    image.format  = png_format(frame->format);
    errno = 0;
    /* row_stride counts components, which are bytes here. */
    if (png_image_write_to_stdio(&image, f, 0, frame->data[0], frame->linesize[0], NULL))
        return 0;
    if (ferror(f))
        return output_io_error();
    return output_fail(GJ_ERROR_EXTERNAL, "libpng: %s", image.message);
}

static const enum gj_pixel_format png_formats[] = {
    GJ_PIX_FMT_RGB24, GJ_PIX_FMT_RGBA, GJ_PIX_FMT_BGRA, GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_NONE
};

const output_module output_png = {
    .name           = "png",
    .formats        = png_formats,
    .default_format = GJ_PIX_FMT_RGB24,
    .write          = png_write,
};
