/* gpujpeg tool: PNG reader (libpng's simplified API): gray, rgb24 or rgba as the file has. */
#include <string.h>

#include <png.h>

#include "gpujpeg/common.h"
#include "input.h"

static int png_probe(const uint8_t *data, size_t size)
{
    return size >= 8 && !png_sig_cmp(data, 0, 8);
}

static int png_read(const uint8_t *data, size_t size, gj_frame *frame)
{
    png_image image;
    int ret;

    memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size))
        return input_fail(GJ_ERROR_INVALIDDATA, "libpng: %s", image.message);
    if (image.format & PNG_FORMAT_FLAG_ALPHA) {
        image.format = PNG_FORMAT_RGBA;
        frame->format = GJ_PIX_FMT_RGBA;
    } else if (image.format & PNG_FORMAT_FLAG_COLOR) {
        image.format = PNG_FORMAT_RGB;
        frame->format = GJ_PIX_FMT_RGB24;
    } else {
        image.format = PNG_FORMAT_GRAY;
        frame->format = GJ_PIX_FMT_GRAY8;
    }
    frame->width = (int)image.width;
    frame->height = (int)image.height;
    frame->memory = GJ_MEMORY_HOST;
    if ((ret = gj_frame_alloc(frame, NULL)) < 0) {
        png_image_free(&image);
        return ret;
    }
    if (!png_image_finish_read(&image, NULL, frame->data[0], frame->linesize[0], NULL)) {
        gj_frame_unref(frame);
        return input_fail(GJ_ERROR_INVALIDDATA, "libpng: %s", image.message);
    }
    return 0;
}

const input_module input_png = {
    .name  = "png",
    .probe = png_probe,
    .read  = png_read,
};
