/*
 * gpujpeg tool: PNG writer. 8-bit pictures through libpng's simplified API (which also
 * turns BGRA into RGBA); 16-bit ones (JPEG 2000's gray16le, rgb48le, rgba64le, ya16le)
 * through its full API, whose simplified one would take them for linear light.
 */
#include <errno.h>
#include <setjmp.h>
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
    case GJ_PIX_FMT_YA8:   return PNG_FORMAT_GA;
    default:               return PNG_FORMAT_RGB;
    }
}

static void png_error_message(png_structp png, png_const_charp message)
{
    snprintf((char *)png_get_error_ptr(png), 256, "%s", message);
    png_longjmp(png, 1);
}

/* 16-bit samples, little-endian in the frame: libpng swaps them to PNG's order. */
static int png_write_deep(FILE *f, const gj_frame *frame)
{
    int type = frame->format == GJ_PIX_FMT_GRAY16 ? PNG_COLOR_TYPE_GRAY :
               frame->format == GJ_PIX_FMT_YA16 ? PNG_COLOR_TYPE_GRAY_ALPHA :
               frame->format == GJ_PIX_FMT_RGBA64 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
    char message[256] = "";
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, png_error_message, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;

    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return GJ_ERROR_NOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        if (ferror(f))
            return output_io_error();
        return output_fail(GJ_ERROR_EXTERNAL, "libpng: %s", message);
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)frame->width, (png_uint_32)frame->height, 16, type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_swap(png);
    for (int y = 0; y < frame->height; y++)
        png_write_row(png, frame->data[0] + (size_t)y * frame->linesize[0]);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

static int png_write(FILE *f, const gj_frame *frame)
{
    png_image image;

    if (gj_pixel_format_describe(frame->format)->bits_per_sample > 8)
        return png_write_deep(f, frame);

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
    GJ_PIX_FMT_RGB24, GJ_PIX_FMT_RGBA, GJ_PIX_FMT_BGRA, GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_YA8, GJ_PIX_FMT_GRAY16,
    GJ_PIX_FMT_RGB48, GJ_PIX_FMT_RGBA64, GJ_PIX_FMT_YA16, GJ_PIX_FMT_NONE
};

const output_module output_png = {
    .name           = "png",
    .formats        = png_formats,
    .default_format = GJ_PIX_FMT_RGB24,
    .write          = png_write,
};
