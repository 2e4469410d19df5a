/*
 * image_compare: tells whether two decoded pictures are identical and, if not,
 * where they first differ, so a failing conformance test names a pixel.
 *
 *   image_compare A.pnm B.pnm
 *       Netpbm/PAM (or PNG) pictures. A may have an alpha channel that B lacks
 *       (rgba output against djpeg's PPM): colour must match and alpha must be 255.
 *   image_compare --planes W0xH0[,W1xH1...] A.yuv B.yuv
 *       Raw planes one after another, each plane's rows without padding.
 *
 * Exit status: 0 identical, 1 different (one line on stdout says how), 2 error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_load.h"
#include "pnm.h"

#define MAX_PLANES 4

typedef struct difference {
    long count;
    long first;          /* index of the first differing sample, -1 if none */
    int first_a, first_b;
    int max_abs;
} difference;

static void note(difference *d, long index, int a, int b)
{
    int abs_diff = a > b ? a - b : b - a;

    if (d->first < 0) {
        d->first = index;
        d->first_a = a;
        d->first_b = b;
    }
    d->count++;
    if (abs_diff > d->max_abs)
        d->max_abs = abs_diff;
}

/* Netpbm or, by its signature, PNG. */
static int load(const char *path, pnm_image *img, char *err, size_t errlen)
{
    static const unsigned char png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    unsigned char head[8] = { 0 };
    FILE *f = fopen(path, "rb");

    if (f) {
        if (fread(head, 1, sizeof(head), f) != sizeof(head))
            head[0] = 0;
        fclose(f);
    }
    if (!memcmp(head, png_signature, sizeof(head)))
        return png_load(path, img, err, errlen);
    return pnm_read(path, img, err, errlen);
}

static int compare_pnm(const char *path_a, const char *path_b)
{
    pnm_image a, b;
    char err[256];
    difference d = { 0, -1, 0, 0, 0 };
    long pixels, p;
    int c, ca, cb;

    if (load(path_a, &a, err, sizeof(err)) || load(path_b, &b, err, sizeof(err))) {
        fprintf(stderr, "image_compare: %s\n", err);
        return 2;
    }
    ca = a.channels;
    cb = b.channels;
    if (a.width != b.width || a.height != b.height || !(ca == cb || (ca == 4 && cb == 3))) {
        printf("size differs: %dx%d with %d channels vs %dx%d with %d channels\n",
               a.width, a.height, ca, b.width, b.height, cb);
        return 1;
    }
    pixels = (long)a.width * a.height;
    for (p = 0; p < pixels; p++) {
        for (c = 0; c < cb; c++) {
            int va = a.data[p * ca + c], vb = b.data[p * cb + c];
            if (va != vb)
                note(&d, p * ca + c, va, vb);
        }
        if (ca == 4 && cb == 3 && a.data[p * ca + 3] != 255)
            note(&d, p * ca + 3, a.data[p * ca + 3], 255);
    }
    if (d.first >= 0) {
        p = d.first / ca;
        printf("%ld samples differ, first at pixel (%ld,%ld) channel %ld: %d vs %d; max |diff| %d\n",
               d.count, p % a.width, p / a.width, d.first % ca, d.first_a, d.first_b, d.max_abs);
    }
    pnm_free(&a);
    pnm_free(&b);
    return d.first >= 0;
}

static unsigned char *read_file(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;

    if (!f || fseek(f, 0, SEEK_END) || (*size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
        goto out;
    buf = malloc(*size ? *size : 1);
    if (buf && fread(buf, 1, *size, f) != (size_t)*size) {
        free(buf);
        buf = NULL;
    }
out:
    if (f)
        fclose(f);
    if (!buf)
        fprintf(stderr, "image_compare: cannot read %s\n", path);
    return buf;
}

static int compare_planes(const char *spec, const char *path_a, const char *path_b)
{
    int w[MAX_PLANES], h[MAX_PLANES], n = 0, i, ret = 0;
    long size_a, size_b, expected = 0, offset = 0;
    unsigned char *a, *b;
    const char *s = spec;
    int used;

    while (n < MAX_PLANES && sscanf(s, "%dx%d%n", &w[n], &h[n], &used) == 2) {
        expected += (long)w[n] * h[n];
        n++;
        s += used;
        if (*s != ',')
            break;
        s++;
    }
    if (!n || *s) {
        fprintf(stderr, "image_compare: bad plane list '%s'\n", spec);
        return 2;
    }
    a = read_file(path_a, &size_a);
    b = read_file(path_b, &size_b);
    if (!a || !b)
        return 2;
    if (size_a != expected || size_b != expected) {
        printf("size differs: %ld and %ld bytes, planes %s need %ld\n", size_a, size_b, spec, expected);
        ret = 1;
    }
    for (i = 0; i < n && !ret; i++) {
        long plane = (long)w[i] * h[i], k;
        difference d = { 0, -1, 0, 0, 0 };

        for (k = 0; k < plane; k++)
            if (a[offset + k] != b[offset + k])
                note(&d, k, a[offset + k], b[offset + k]);
        if (d.first >= 0) {
            printf("plane %d: %ld samples differ, first at (%ld,%ld): %d vs %d; max |diff| %d\n",
                   i, d.count, d.first % w[i], d.first / w[i], d.first_a, d.first_b, d.max_abs);
            ret = 1;
        }
        offset += plane;
    }
    free(a);
    free(b);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--planes"))
        return compare_planes(argv[2], argv[3], argv[4]);
    if (argc == 3)
        return compare_pnm(argv[1], argv[2]);
    fprintf(stderr, "usage: image_compare A.pnm B.pnm\n"
                    "       image_compare --planes W0xH0[,W1xH1...] A.yuv B.yuv\n");
    return 2;
}
