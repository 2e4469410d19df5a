/*
 * bench_turbo_encode: times libjpeg-turbo encoding, the CPU peer of bench_encode.
 *
 *   bench_turbo_encode [--iters N] [--seconds S] [--quality Q] FILE.jpg...
 *
 * Each file decodes once (djpeg's defaults) into an RGB picture in memory, which
 * is then encoded as cjpeg does by default at quality Q (default 90): islow DCT,
 * 4:2:0, standard Huffman tables, into a memory buffer (jpeg_mem_dest), one
 * thread (mode host-rgb24-qQ-420-1t): 3 warm-up encodes, then up to N timed ones
 * (default 50; at least 5, no more once S seconds (default 5) have passed).
 *
 * Built on a Debian machine and carried to the GPU machine with its library:
 *   gcc -O2 -std=gnu11 bench/bench_turbo_encode.c bench/bench_util.c -o bench_turbo_encode -ljpeg
 *   cp -L /usr/lib/x86_64-linux-gnu/libjpeg.so.62 .   # run with LD_LIBRARY_PATH=.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "bench_util.h"

#define WARMUP 3

static unsigned char *decode_rgb(const uint8_t *data, size_t size, int *w, int *h)
{
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr err;
    unsigned char *rgb;

    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, data, (unsigned long)size);
    jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_RGB;
    jpeg_start_decompress(&d);
    *w = (int)d.output_width;
    *h = (int)d.output_height;
    rgb = malloc((size_t)*w * *h * 3);
    while (d.output_scanline < d.output_height) {
        JSAMPROW row = rgb + (size_t)d.output_scanline * *w * 3;
        jpeg_read_scanlines(&d, &row, 1);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    return rgb;
}

/* One encode into *out (reused; libjpeg grows it); returns the size. */
static unsigned long encode(const unsigned char *rgb, int w, int h, int quality, unsigned char **out,
                            unsigned long *capacity)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    unsigned long size = *capacity;

    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, out, &size);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, FALSE);
    c.dct_method = JDCT_ISLOW;
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = (JSAMPROW)rgb + (size_t)c.next_scanline * w * 3;
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    if (size > *capacity)
        *capacity = size;
    return size;
}

int main(int argc, char **argv)
{
    int iters = 50, quality = 90, first, i, r;
    double seconds = 5;

    for (i = 1; i < argc && (r = bench_encode_option(argc, argv, &i, &quality, &iters, &seconds)) != 0; i++)
        if (r < 0)
            return 2;
    if (bench_options_end(argc, argv, i, &first) < 0)
        return 2;
    printf("# bench_turbo_encode: libjpeg-turbo %d, q%d 4:2:0 islow, one thread\n", LIBJPEG_TURBO_VERSION_NUMBER,
           quality);
    bench_print_header();
    for (i = first; i < argc; i++) {
        bench_jpeg_desc desc;
        uint8_t *data;
        unsigned char *rgb, *out = NULL;
        unsigned long capacity = 0, size = 0;
        size_t file_size;
        double ms[1000], start;
        char mode[64], notes[64];
        bench_result res;
        int w, h, n = 0, k;

        if (bench_read_file(argv[i], &data, &file_size) < 0 || bench_probe_jpeg(data, file_size, &desc) < 0)
            continue;
        rgb = decode_rgb(data, file_size, &w, &h);
        for (k = 0; k < WARMUP; k++)
            size = encode(rgb, w, h, quality, &out, &capacity);
        start = bench_now_ms();
        while (bench_more_samples(n, iters < 1000 ? iters : 1000, bench_now_ms() - start, seconds * 1e3)) {
            double t0 = bench_now_ms();
            size = encode(rgb, w, h, quality, &out, &capacity);
            ms[n++] = bench_now_ms() - t0;
        }
        bench_stats(ms, n, 1, &res);
        snprintf(mode, sizeof(mode), "host-rgb24-q%d-420-1t", quality);
        snprintf(notes, sizeof(notes), "%lu bytes", size);
        bench_print_result(argv[i], &desc, mode, &res, notes);
        free(out);
        free(rgb);
        free(data);
    }
    return 0;
}
