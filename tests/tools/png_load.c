/* Reads an 8-bit PNG with libpng's simplified API: see png_load.h. */
#include "png_load.h"

#include <stdio.h>
#include <string.h>

#include <png.h>

int png_load(const char *path, pnm_image *img, char *err, size_t errlen)
{
    png_image png;
    int channels;

    memset(&png, 0, sizeof(png));
    memset(img, 0, sizeof(*img));
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&png, path)) {
        snprintf(err, errlen, "%s: %s", path, png.message);
        return -1;
    }
    /* Keep what the file has: an alpha channel in a file that should not have one is a bug. */
    channels = PNG_IMAGE_SAMPLE_CHANNELS(png.format);
    png.format = channels == 1 ? PNG_FORMAT_GRAY : channels == 2 ? PNG_FORMAT_GA :
                 channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
    if (pnm_alloc(img, (int)png.width, (int)png.height, channels) ||
        !png_image_finish_read(&png, NULL, img->data, 0, NULL)) {
        snprintf(err, errlen, "%s: %s", path, png.message[0] ? png.message : "out of memory");
        png_image_free(&png);
        pnm_free(img);
        return -1;
    }
    return 0;
}
