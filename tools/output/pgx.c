/*
 * gpujpeg tool: PGX files (T.803's format for JPEG 2000 components): one file per
 * component, "PG ML <sign> <bits> <width> <height>" and big-endian samples of 1 or
 * 2 bytes, signed ones as two's complement. They are named as opj_decompress
 * names them: OUT.pgx for one component, else OUT_0.pgx, OUT_1.pgx, ...
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpujpeg/j2k.h"
#include "output.h"

typedef struct pgx_plane {
    const gj_j2k_components *picture;
    int c;
} pgx_plane;

static int pgx_write(FILE *f, const void *opaque)
{
    const pgx_plane *pp = opaque;
    const gj_j2k_plane *p = &pp->picture->planes[pp->c];
    const uint8_t *base = pp->picture->buffer.data[0] + p->offset;
    /* The decoder offsets signed samples into the unsigned range; PGX holds them as they are. */
    int bias = p->is_signed ? 1 << (p->precision - 1) : 0;
    size_t row = (size_t)p->width * (size_t)p->bytes_per_sample;
    uint8_t *buf = malloc(row ? row : 1);
    int ret = 0;

    if (!buf)
        return GJ_ERROR_NOMEM;
    fprintf(f, "PG ML %c %d %d %d\n", p->is_signed ? '-' : '+', p->precision, p->width, p->height);
    for (int y = 0; y < p->height && ret >= 0; y++) {
        const uint8_t *src = base + (size_t)y * (size_t)p->linesize;

        for (int x = 0; x < p->width; x++) {
            if (p->bytes_per_sample == 1) {
                buf[x] = (uint8_t)(src[x] - bias);
            } else {
                unsigned v = (unsigned)((src[2 * x] | src[2 * x + 1] << 8) - bias);

                buf[2 * x] = (uint8_t)(v >> 8);
                buf[2 * x + 1] = (uint8_t)v;
            }
        }
        if (fwrite(buf, 1, row, f) != row)
            ret = output_io_error();
    }
    free(buf);
    return ret;
}

int output_write_pgx(const char *path, const gj_j2k_components *picture)
{
    size_t len = strlen(path), stem = len > 4 && !strcasecmp(path + len - 4, ".pgx") ? len - 4 : len;
    char *name = malloc(stem + 32);
    int ret = 0;

    if (!name)
        return output_fail(GJ_ERROR_NOMEM, "%s", gj_strerror(GJ_ERROR_NOMEM));
    for (int c = 0; c < picture->nb_components && ret >= 0; c++) {
        pgx_plane pp = { picture, c };

        if (picture->nb_components == 1)
            snprintf(name, stem + 32, "%s", path);
        else
            snprintf(name, stem + 32, "%.*s_%d.pgx", (int)stem, path, c);
        ret = output_write_with(name, pgx_write, &pp);
    }
    free(name);
    return ret;
}

static const enum gj_pixel_format no_formats[] = { GJ_PIX_FMT_NONE };

const output_module output_pgx = {
    .name           = "pgx",
    .formats        = no_formats,
    .default_format = GJ_PIX_FMT_NONE,
    .components     = 1,
};
