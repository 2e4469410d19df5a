/*
 * jpeg_cmyk_encode: writes 4-component JPEGs, which cjpeg cannot make.
 *
 *   jpeg_cmyk_encode [--ycck] [--quality N] [--sample H1xV1,H2xV2,H3xV3,H4xV4]
 *                    [--restart ROWS] IN.ppm OUT.jpg
 *
 * The RGB picture becomes CMYK stored inverted, as Adobe applications write it
 * (255 = no ink): c = 255 - C, k = 255 - K with K = 255 - max(R, G, B). That is
 * also what libjpeg-turbo's djpeg assumes when it turns CMYK into RGB for PPM
 * output (R = c * k / 255), so the reference pictures look like the photo.
 * The Adobe APP14 marker says transform 0 (CMYK) or 2 (YCCK: libjpeg converts
 * the CMY part to YCbCr before coding).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "pnm.h"

static int parse_sampling(const char *s, struct jpeg_compress_struct *cinfo)
{
    int c, h, v, used;

    for (c = 0; c < 4; c++) {
        if (sscanf(s, "%dx%d%n", &h, &v, &used) != 2 || h < 1 || h > 4 || v < 1 || v > 4)
            return -1;
        cinfo->comp_info[c].h_samp_factor = h;
        cinfo->comp_info[c].v_samp_factor = v;
        s += used;
        if (c < 3 && *s++ != ',')
            return -1;
    }
    return *s ? -1 : 0;
}

static void rgb_to_inverted_cmyk(const unsigned char *rgb, unsigned char *cmyk)
{
    int max = rgb[0], c;

    for (c = 1; c < 3; c++)
        if (rgb[c] > max)
            max = rgb[c];
    /* Inverted CMY = RGB scaled so the brightest channel is full; inverted K = max. */
    for (c = 0; c < 3; c++)
        cmyk[c] = max ? (unsigned char)((rgb[c] * 255 + max / 2) / max) : 255;
    cmyk[3] = (unsigned char)max;
}

int main(int argc, char **argv)
{
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    const char *sampling = NULL;
    int ycck = 0, quality = 90, restart_rows = 0, y, x;
    unsigned char *row;
    pnm_image img;
    char err[256];
    FILE *out;

    for (argv++, argc--; argc > 2; argv++, argc--) {
        if (!strcmp(argv[0], "--ycck")) {
            ycck = 1;
        } else if (!strcmp(argv[0], "--quality") && argc > 3) {
            quality = atoi(*++argv);
            argc--;
        } else if (!strcmp(argv[0], "--sample") && argc > 3) {
            sampling = *++argv;
            argc--;
        } else if (!strcmp(argv[0], "--restart") && argc > 3) {
            restart_rows = atoi(*++argv);
            argc--;
        } else {
            break;
        }
    }
    if (argc != 2) {
        fprintf(stderr, "usage: jpeg_cmyk_encode [--ycck] [--quality N] "
                        "[--sample HxV,HxV,HxV,HxV] [--restart ROWS] IN.ppm OUT.jpg\n");
        return 2;
    }
    if (pnm_read(argv[0], &img, err, sizeof(err)) || img.channels != 3) {
        fprintf(stderr, "jpeg_cmyk_encode: %s\n", img.data ? "input must be a PPM" : err);
        return 2;
    }
    out = fopen(argv[1], "wb");
    if (!out) {
        perror(argv[1]);
        return 2;
    }

    cinfo.err = jpeg_std_error(&jerr);   /* errors exit(): fine for a generator */
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, out);
    cinfo.image_width = img.width;
    cinfo.image_height = img.height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, ycck ? JCS_YCCK : JCS_CMYK);   /* writes the Adobe marker */
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.restart_in_rows = restart_rows;
    if (sampling && parse_sampling(sampling, &cinfo)) {
        fprintf(stderr, "jpeg_cmyk_encode: bad --sample %s\n", sampling);
        return 2;
    }
    jpeg_start_compress(&cinfo, TRUE);

    row = malloc((size_t)img.width * 4);
    for (y = 0; y < img.height; y++) {
        JSAMPROW rows[1] = { row };
        for (x = 0; x < img.width; x++)
            rgb_to_inverted_cmyk(img.data + ((size_t)y * img.width + x) * 3, row + x * 4);
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(row);
    pnm_free(&img);
    return fclose(out) ? 2 : 0;
}
