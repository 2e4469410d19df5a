/*
 * What the unit test programs share: CHECK (counts a failure and says why, without
 * stopping the test), reading an input file whole, comparing two host pictures,
 * opening the test device.
 * Each program includes it once.
 */
#ifndef GJ_TESTS_UNIT_CHECK_H
#define GJ_TESTS_UNIT_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); failures++; } } while (0)

/* The whole file, or NULL when it cannot be read, is empty or (max_bytes not 0) larger. */
static inline uint8_t *unit_read_file(const char *path, size_t max_bytes, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;

    *size = 0;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && (!max_bytes || (size_t)n <= max_bytes) &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        *size = (size_t)n;
    fclose(f);
    return buf;
}

/* Whether two frames in host memory hold the same picture (rows without padding). */
static inline int unit_same_picture(const gj_frame *a, const gj_frame *b)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(a->format);

    if (a->format != b->format || a->width != b->width || a->height != b->height)
        return 0;
    for (int p = 0; p < d->nb_planes; p++) {
        size_t row = gj_frame_plane_row_bytes(a->format, p, a->width);

        for (int y = 0; y < gj_frame_plane_height(a->format, p, a->height); y++)
            if (memcmp(a->data[p] + (size_t)y * a->linesize[p], b->data[p] + (size_t)y * b->linesize[p], row))
                return 0;
    }
    return 1;
}

/* The test device (GJ_TEST_DEVICE, default opencl-cpu) and the corpus (GJ_TEST_CORPUS),
 * quiet logs; 0, or 77 (skip: the test's exit status) with the reason printed. */
static inline int unit_open_with_corpus(gj_device **dev, const char **corpus)
{
    const char *spec = getenv("GJ_TEST_DEVICE") ? getenv("GJ_TEST_DEVICE") : "opencl-cpu";

    gj_log_set_level(GJ_LOG_QUIET);
    if (!(*corpus = getenv("GJ_TEST_CORPUS"))) {
        printf("GJ_TEST_CORPUS is not set\n");
        return 77;
    }
    if (gj_device_create_from_string(dev, spec) < 0) {
        printf("no %s device\n", spec);
        return 77;
    }
    return 0;
}

#endif /* GJ_TESTS_UNIT_CHECK_H */
