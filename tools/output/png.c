/*
 * gpujpeg tool: PNG writer. 8-bit pictures through libpng's simplified API (which also
 * turns BGRA into RGBA); 16-bit ones (JPEG 2000's gray16le, rgb48le, rgba64le, ya16le)
 * and pictures with an ICC profile (an iCCP chunk) through its full API, whose
 * simplified one would take 16-bit samples for linear light and has no profile.
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

static void png_warning_message(png_structp png, png_const_charp message)
{
    (void)png;
    fprintf(stderr, "gpujpeg: warning: libpng: %s\n", message);
}

static int png_type(enum gj_pixel_format format)
{
    switch (format) {
    case GJ_PIX_FMT_GRAY8:
    case GJ_PIX_FMT_GRAY16: return PNG_COLOR_TYPE_GRAY;
    case GJ_PIX_FMT_YA8:
    case GJ_PIX_FMT_YA16:   return PNG_COLOR_TYPE_GRAY_ALPHA;
    case GJ_PIX_FMT_RGBA:
    case GJ_PIX_FMT_BGRA:
    case GJ_PIX_FMT_RGBA64: return PNG_COLOR_TYPE_RGB_ALPHA;
    default:                return PNG_COLOR_TYPE_RGB;
    }
}

/*
 * Through the full API: 16-bit samples, little-endian in the frame (libpng swaps them
 * to PNG's order), and the ICC profile if any. A profile libpng finds unfit for the
 * picture (a gray one for colour, a length its header contradicts) is left out with a
 * warning: libpng's checks are benign errors here, the picture still written.
 */
static int png_write_full(FILE *f, const gj_frame *frame, const uint8_t *icc, size_t icc_size)
{
    int deep = gj_pixel_format_describe(frame->format)->bits_per_sample > 8;
    char message[256] = "";
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, png_error_message,
                                              png_warning_message);
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
    png_set_benign_errors(png, 1);
    png_set_IHDR(png, info, (png_uint_32)frame->width, (png_uint_32)frame->height, deep ? 16 : 8,
                 png_type(frame->format), PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_size <= PNG_UINT_31_MAX)
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_size);
    png_write_info(png, info);
    if (deep)
        png_set_swap(png);
    if (frame->format == GJ_PIX_FMT_BGRA)
        png_set_bgr(png);
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
        return png_write_full(f, frame, NULL, 0);

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
    .write_with_icc = png_write_full,
};
