/*
 * gpujpeg tool: Netpbm writers. PPM (P6) and PGM (P5) hold rgb24 and gray8 as
 * they are, and rgb48/gray16 with MAXVAL 65535 (Netpbm's samples are big-endian);
 * PAM (P7) also holds RGBA, written in RGBA order whatever the frame's, gray with
 * alpha, and their 16-bit forms (rgba64, ya16: MAXVAL 65535, as FFmpeg writes them).
 */
#include <stdlib.h>

#include "gpujpeg/common.h"
#include "output.h"

/* Rows of 16-bit little-endian samples as Netpbm's big-endian ones. */
static int write_swapped_16(FILE *f, const gj_frame *frame)
{
    size_t row = gj_frame_plane_row_bytes(frame->format, 0, frame->width);
    uint8_t *buf = malloc(row);
    int ret = 0;

    if (!buf)
        return GJ_ERROR_NOMEM;
    for (int y = 0; y < frame->height && ret >= 0; y++) {
        const uint8_t *src = frame->data[0] + (size_t)y * frame->linesize[0];

        for (size_t i = 0; i < row; i += 2) {
            buf[i] = src[i + 1];
            buf[i + 1] = src[i];
        }
        if (fwrite(buf, 1, row, f) != row)
            ret = output_io_error();
    }
    free(buf);
    return ret;
}

static int pnm_write(FILE *f, const gj_frame *frame)
{
    int gray = frame->format == GJ_PIX_FMT_GRAY8 || frame->format == GJ_PIX_FMT_GRAY16;
    int deep = frame->format == GJ_PIX_FMT_GRAY16 || frame->format == GJ_PIX_FMT_RGB48;

    fprintf(f, "P%c\n%d %d\n%d\n", gray ? '5' : '6', frame->width, frame->height, deep ? 65535 : 255);
    return deep ? write_swapped_16(f, frame) : output_write_planes(f, frame);
}

static int write_bgra_as_rgba(FILE *f, const gj_frame *frame)
{
    size_t row = (size_t)frame->width * 4;
    uint8_t *buf = malloc(row);
    int ret = 0;

    if (!buf)
        return GJ_ERROR_NOMEM;
    for (int y = 0; y < frame->height && ret >= 0; y++) {
        output_bgra_to_rgba(buf, frame->data[0] + (size_t)y * frame->linesize[0], frame->width);
        if (fwrite(buf, 1, row, f) != row)
            ret = output_io_error();
    }
    free(buf);
    return ret;
}

static int pam_write(FILE *f, const gj_frame *frame)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(frame->format);
    int deep = d->bits_per_sample > 8, depth = d->bytes_per_pixel / (deep ? 2 : 1);
    static const char *const tupltype[] = {
        [1] = "GRAYSCALE", [2] = "GRAYSCALE_ALPHA", [3] = "RGB", [4] = "RGB_ALPHA"
    };

    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL %d\nTUPLTYPE %s\nENDHDR\n",
            frame->width, frame->height, depth, deep ? 65535 : 255, tupltype[depth]);
    if (frame->format == GJ_PIX_FMT_BGRA)
        return write_bgra_as_rgba(f, frame);
    return deep ? write_swapped_16(f, frame) : output_write_planes(f, frame);
}

static const enum gj_pixel_format ppm_formats[] = { GJ_PIX_FMT_RGB24, GJ_PIX_FMT_RGB48, GJ_PIX_FMT_NONE };
static const enum gj_pixel_format pgm_formats[] = { GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_GRAY16, GJ_PIX_FMT_NONE };
static const enum gj_pixel_format pam_formats[] = {
    GJ_PIX_FMT_RGB24, GJ_PIX_FMT_RGBA, GJ_PIX_FMT_BGRA, GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_YA8,
    GJ_PIX_FMT_YA16, GJ_PIX_FMT_RGBA64, GJ_PIX_FMT_RGB48, GJ_PIX_FMT_GRAY16, GJ_PIX_FMT_NONE
};

const output_module output_ppm = {
    .name           = "ppm",
    .formats        = ppm_formats,
    .default_format = GJ_PIX_FMT_RGB24,
    .write          = pnm_write,
};

const output_module output_pgm = {
    .name           = "pgm",
    .formats        = pgm_formats,
    .default_format = GJ_PIX_FMT_GRAY8,
    .write          = pnm_write,
};

const output_module output_pam = {
    .name           = "pam",
    .formats        = pam_formats,
    .default_format = GJ_PIX_FMT_RGBA,
    .write          = pam_write,
};
