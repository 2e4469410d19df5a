/*
 * make_image: writes the synthetic pictures of the test corpus, and crops photos.
 *
 *   make_image [--gray] [--seed N] PATTERN WIDTH HEIGHT OUT.pnm
 *       PATTERN: gradient (smooth ramps), noise (uniform random samples: long
 *       Huffman codes), solid (one colour), checker (1-pixel checkerboard: the
 *       highest frequencies), blocks (3x5 cells that straddle the 8x8 blocks),
 *       rings (concentric circles).
 *   make_image crop X Y WIDTH HEIGHT IN.pnm OUT.pnm
 *
 * Deterministic: the same arguments give the same bytes on every machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnm.h"
#include "rng.h"


static int sample(const char *pattern, int x, int y, int c, int w, int h, int seed)
{
    if (!strcmp(pattern, "gradient")) {
        int ramps[3] = { x * 255 / (w > 1 ? w - 1 : 1), y * 255 / (h > 1 ? h - 1 : 1),
                         (x + y) * 255 / (w + h > 2 ? w + h - 2 : 1) };
        return ramps[c];
    }
    if (!strcmp(pattern, "noise"))
        return rng_next() & 255;
    if (!strcmp(pattern, "solid"))
        return (seed * 97 + c * 71 + 13) & 255;
    if (!strcmp(pattern, "checker"))
        return ((x + y) & 1) ? 255 - c * 40 : c * 40;
    if (!strcmp(pattern, "blocks"))
        return (((x / 3) * 7 + (y / 5) * 13 + c * 5 + seed) * 37) & 255;
    if (!strcmp(pattern, "rings")) {
        long dx = x - w / 2, dy = y - h / 2;
        return (int)((dx * dx + dy * dy) / (4 + c)) & 255;
    }
    return -1;
}

static int make_pattern(const char *pattern, int w, int h, int channels, int seed, const char *out)
{
    pnm_image img;
    long i = 0;
    int x, y, c;

    if (w < 1 || h < 1 || pnm_alloc(&img, w, h, channels))
        return 2;
    rng_state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            for (c = 0; c < channels; c++) {
                int v = sample(pattern, x, y, c, w, h, seed);
                if (v < 0) {
                    fprintf(stderr, "make_image: unknown pattern %s\n", pattern);
                    return 2;
                }
                img.data[i++] = (unsigned char)v;
            }
    if (pnm_write(out, &img)) {
        perror(out);
        return 2;
    }
    pnm_free(&img);
    return 0;
}

static int crop(int x0, int y0, int w, int h, const char *in, const char *out)
{
    pnm_image src, dst;
    char err[256];
    int y;

    if (pnm_read(in, &src, err, sizeof(err))) {
        fprintf(stderr, "make_image: %s\n", err);
        return 2;
    }
    if (x0 < 0 || y0 < 0 || w < 1 || h < 1 || x0 + w > src.width || y0 + h > src.height) {
        fprintf(stderr, "make_image: crop %dx%d+%d+%d outside the %dx%d picture\n",
                w, h, x0, y0, src.width, src.height);
        return 2;
    }
    if (pnm_alloc(&dst, w, h, src.channels))
        return 2;
    for (y = 0; y < h; y++)
        memcpy(dst.data + (size_t)y * w * src.channels,
               src.data + ((size_t)(y0 + y) * src.width + x0) * src.channels,
               (size_t)w * src.channels);
    if (pnm_write(out, &dst)) {
        perror(out);
        return 2;
    }
    pnm_free(&src);
    pnm_free(&dst);
    return 0;
}

int main(int argc, char **argv)
{
    int channels = 3, seed = 1;

    if (argc == 8 && !strcmp(argv[1], "crop"))
        return crop(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), argv[6], argv[7]);
    for (argv++, argc--; argc > 0 && !strncmp(argv[0], "--", 2); argv++, argc--) {
        if (!strcmp(argv[0], "--gray")) {
            channels = 1;
        } else if (!strcmp(argv[0], "--seed") && argc > 1) {
            seed = atoi(argv[1]);
            argv++, argc--;
        } else {
            break;
        }
    }
    if (argc == 4)
        return make_pattern(argv[0], atoi(argv[1]), atoi(argv[2]), channels, seed, argv[3]);
    fprintf(stderr,
            "usage: make_image [--gray] [--seed N] gradient|noise|solid|checker|blocks|rings W H OUT\n"
            "       make_image crop X Y W H IN OUT\n");
    return 2;
}
