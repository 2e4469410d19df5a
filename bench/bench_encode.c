/*
 * bench_encode: JPEG encoding on the GPU, from device and from host memory.
 *
 *   bench_encode [--device D] [--iters N] [--seconds S] [--quality Q]
 *                [--sampling 420|422|444|440|gray] [--optimize] [--write DIR] FILE.jpg...
 *
 * Each file decodes once on the GPU into the pictures encoded: rgb24 and its own
 * planar format (yuvj420p ...), each in device memory, in page-locked host
 * memory (gj_frame_alloc with the device) and in pageable host memory. Modes:
 *   device-rgb24, device-yuv       encode from device memory to a JPEG in host memory
 *   host-rgb24, host-yuv           the same from page-locked host memory (upload included)
 *   pageable-rgb24, pageable-yuv   the same from malloc'd host memory
 * Each mode: 3 warm-up encodes, then up to N timed ones (default 50; at least 5,
 * no more once S seconds (default 5) have passed), each from the call to the
 * JPEG in host memory. Result lines as the other benchmarks (bench_util.h), the
 * mode suffixed with -qQ-SAMPLING[-opt]; notes: the JPEG's size. --write DIR
 * writes each mode's JPEG to DIR/NAME-MODE.jpg (for md5 checks against cjpeg).
 *
 * Build from the top of a configured and built tree (`make` builds it as
 * bench/bench_encode).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpujpeg/gpujpeg.h>

#include "bench_util.h"

#define WARMUP 3

typedef struct options {
    const char *device;
    int iters;
    double seconds;
    gj_jpeg_encode_params params;
    const char *write_dir;
} options;

static int parse(int argc, char **argv, options *o, int *first)
{
    const char *v;
    int i, r;

    for (i = 1; i < argc; i++) {
        if ((r = bench_option_value(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0)
                return -1;
            o->device = v;
        } else if ((r = bench_option_value(argc, argv, &i, "--quality", &v)) != 0) {
            if (r < 0 || bench_parse_int("--quality", v, 1, &o->params.quality) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--sampling", &v)) != 0) {
            if (r < 0 || gj_jpeg_sampling_from_name(v, &o->params.sampling) < 0) {
                fprintf(stderr, "bench_encode: --sampling 420, 422, 444, 440 or gray\n");
                return -1;
            }
        } else if ((r = bench_option_value(argc, argv, &i, "--write", &v)) != 0) {
            if (r < 0)
                return -1;
            o->write_dir = v;
        } else if (!strcmp(argv[i], "--optimize")) {
            o->params.optimize = 1;
        } else if ((r = bench_common_option(argc, argv, &i, &o->iters, &o->seconds)) != 0) {
            if (r < 0)
                return -1;
        } else {
            break;
        }
    }
    return bench_options_end(argc, argv, i, first);
}

static void write_output(const options *o, const char *path, const char *mode, const gj_jpeg_output *jpeg)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char name[1024];
    FILE *f;

    if (!o->write_dir)
        return;
    snprintf(name, sizeof(name), "%s/%.*s-%s.jpg", o->write_dir, (int)(strcspn(base, ".")), base, mode);
    if (!(f = fopen(name, "wb")) || fwrite(jpeg->data, 1, jpeg->size, f) != jpeg->size)
        fprintf(stderr, "bench_encode: cannot write %s\n", name);
    if (f)
        fclose(f);
}

/* Times one mode: encodes of `in` until the sample budget is spent. */
static void run_mode(const options *o, gj_jpeg_encoder *enc, const char *path, const bench_jpeg_desc *desc,
                     const char *what, const gj_frame *in)
{
    gj_jpeg_output jpeg = { 0 };
    double ms[1000], start;
    char mode[96], notes[64];
    bench_result r;
    int n = 0, i, ret = 0;

    snprintf(mode, sizeof(mode), "%s-q%d-%s%s", what, o->params.quality,
             gj_jpeg_sampling_name(o->params.sampling), o->params.optimize ? "-opt" : "");
    for (i = 0; i < WARMUP && ret >= 0; i++)
        ret = gj_jpeg_encode(enc, in, &o->params, &jpeg);
    start = bench_now_ms();
    while (ret >= 0 && bench_more_samples(n, o->iters < 1000 ? o->iters : 1000, bench_now_ms() - start,
                                          o->seconds * 1e3)) {
        double t0 = bench_now_ms();
        ret = gj_jpeg_encode(enc, in, &o->params, &jpeg);
        ms[n++] = bench_now_ms() - t0;
    }
    if (ret < 0) {
        bench_print_failure(path, desc, mode, gj_strerror(ret));
    } else {
        bench_stats(ms, n, 1, &r);
        snprintf(notes, sizeof(notes), "%zu bytes", jpeg.size);
        bench_print_result(path, desc, mode, &r, notes);
        write_output(o, path, mode, &jpeg);
    }
    gj_jpeg_output_unref(&jpeg);
}

static void bench_file(const options *o, gj_device *dev, gj_jpeg_decoder *dec, gj_jpeg_encoder *enc,
                       const char *path)
{
    static const char *const names[6] = { "device-rgb24", "device-yuv", "host-rgb24", "host-yuv",
                                          "pageable-rgb24", "pageable-yuv" };
    gj_frame pics[6];
    bench_jpeg_desc desc;
    gj_jpeg_info info;
    uint8_t *data;
    size_t size;
    int i, ret;

    if (bench_read_file(path, &data, &size) < 0 || bench_probe_jpeg(data, size, &desc) < 0)
        return;
    ret = gj_jpeg_read_info(data, size, &info);
    for (i = 0; i < 6; i++) {
        pics[i] = (gj_frame){ .width = info.width, .height = info.height,
                              .format = i % 2 ? info.native_format : GJ_PIX_FMT_RGB24,
                              .memory = i < 2 ? gj_device_memory(dev) : GJ_MEMORY_HOST };
        /* Host pictures allocated here: page-locked (with the device) or not. */
        if (ret >= 0 && i >= 2)
            ret = gj_frame_alloc(&pics[i], i < 4 ? dev : NULL);
        if (ret >= 0)
            ret = gj_jpeg_decode(dec, data, size, &pics[i]);
    }
    if (ret < 0)
        bench_print_failure(path, &desc, "decode", gj_strerror(ret));
    for (i = 0; i < 6 && ret >= 0; i++)
        run_mode(o, enc, path, &desc, names[i], &pics[i]);
    for (i = 0; i < 6; i++)
        gj_frame_unref(&pics[i]);
    free(data);
}

int main(int argc, char **argv)
{
    options o = { .device = "auto", .iters = 50, .seconds = 5 };
    gj_device *dev;
    gj_jpeg_decoder *dec;
    gj_jpeg_encoder *enc;
    int first, ret, i;

    gj_jpeg_encode_params_default(&o.params);
    o.params.quality = 90;
    if (parse(argc, argv, &o, &first) < 0)
        return 2;
    if ((ret = gj_device_create_from_string(&dev, o.device)) < 0 || (ret = gj_jpeg_decoder_create(&dec, dev)) < 0 ||
        (ret = gj_jpeg_encoder_create(&enc, dev)) < 0) {
        fprintf(stderr, "bench_encode: %s: %s\n", o.device, gj_strerror(ret));
        return 1;
    }
    printf("# bench_encode on %s: JPEG in host memory, times per encode\n", gj_device_name(dev));
    bench_print_header();
    for (i = first; i < argc; i++)
        bench_file(&o, dev, dec, enc, argv[i]);
    gj_jpeg_encoder_free(&enc);
    gj_jpeg_decoder_free(&dec);
    gj_device_free(&dev);
    return 0;
}
