/*
 * bench_dxt: DXT kernel throughput on a picture in device memory.
 *
 *   bench_dxt [--device D] [--iters N] [--seconds S] [--input rgba|yuv] FILE.jpg
 *
 * The JPEG decodes once on the GPU into device memory (RGBA, or with --input yuv
 * its own planar 4:2:0/4:2:2/4:4:4 picture, colour conversion then runs in the
 * encoder). Then for every format x quality: 2 warm-up encodes, then batches of
 * encodes from that picture into device blocks, each batch timed from before
 * the first launch to gj_device_synchronize() after the last, up to N batches
 * (default 20) or S seconds (default 2). A stream of same-shaped frames queues
 * only the kernel (the encoder keeps its parameters), so a batch measures the
 * kernel. One line per format x quality:
 *     dxt FORMAT QUALITY WxH INPUT MEDIAN_MS MIN_MS GPIX/S(median) GB/S(blocks)
 *
 * Build from the top of a configured and built tree (`make` builds it as
 * bench/bench_dxt).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpujpeg/gpujpeg.h>

#include "bench_util.h"

#define WARMUP 2
#define BATCH 20

static int encode_batch(gj_dxt_encoder *enc, const gj_frame *in, enum gj_dxt_format f, enum gj_dxt_quality q,
                        gj_dxt_blocks *out, int n)
{
    for (int i = 0; i < n; i++) {
        int ret = gj_dxt_encode(enc, in, f, q, out);
        if (ret < 0)
            return ret;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *device = "cuda", *input = "rgba", *value;
    int iters = 20, first = 0, ret, i;
    double seconds = 2;
    uint8_t *data;
    size_t size;
    gj_device *dev;
    gj_jpeg_decoder *jdec;
    gj_dxt_encoder *enc;
    gj_frame frame;

    for (i = 1; i < argc; i++) {
        int r;
        if ((r = bench_option_value(argc, argv, &i, "--device", &value)) != 0) {
            if (r < 0)
                return 2;
            device = value;
        } else if ((r = bench_option_value(argc, argv, &i, "--input", &value)) != 0) {
            if (r < 0 || (strcmp(value, "rgba") && strcmp(value, "yuv"))) {
                fprintf(stderr, "bench_dxt: --input rgba or yuv\n");
                return 2;
            }
            input = value;
        } else if ((r = bench_common_option(argc, argv, &i, &iters, &seconds)) != 0) {
            if (r < 0)
                return 2;
        } else {
            break;
        }
    }
    if (bench_options_end(argc, argv, i, &first) < 0 || argc - first != 1)
        return 2;
    if (bench_read_file(argv[first], &data, &size) < 0)
        return 1;
    if ((ret = gj_device_create_from_string(&dev, device)) < 0 || (ret = gj_jpeg_decoder_create(&jdec, dev)) < 0 ||
        (ret = gj_dxt_encoder_create(&enc, dev)) < 0) {
        fprintf(stderr, "bench_dxt: %s: %s\n", device, gj_strerror(ret));
        return 1;
    }
    frame = (gj_frame){ .format = strcmp(input, "yuv") ? GJ_PIX_FMT_RGBA : GJ_PIX_FMT_NONE,
                        .memory = gj_device_memory(dev) };
    if ((ret = gj_jpeg_decode(jdec, data, size, &frame)) < 0) {
        fprintf(stderr, "bench_dxt: %s: %s\n", argv[first], gj_strerror(ret));
        return 1;
    }
    printf("# %s, %s, %dx%d %s in device memory, batches of %d encodes to device blocks\n",
           gj_device_name(dev), argv[first], frame.width, frame.height,
           gj_pixel_format_describe(frame.format)->name, BATCH);
    printf("# dxt FORMAT QUALITY WxH INPUT MEDIAN_MS MIN_MS GPIX/S GB/S(blocks)\n");
    for (int f = 0; f < GJ_DXT_FORMAT_NB; f++) {
        for (int q = 0; q < GJ_DXT_QUALITY_NB; q++) {
            gj_dxt_blocks out = { .memory = gj_device_memory(dev) };
            double ms[1000], start = bench_now_ms();
            int n = 0;
            bench_result r;

            ret = encode_batch(enc, &frame, f, q, &out, WARMUP);
            if (ret >= 0)
                ret = gj_device_synchronize(dev);
            while (ret >= 0 && bench_more_samples(n, iters < 1000 ? iters : 1000, bench_now_ms() - start,
                                                  seconds * 1e3)) {
                double t0 = bench_now_ms();
                ret = encode_batch(enc, &frame, f, q, &out, BATCH);
                if (ret >= 0)
                    ret = gj_device_synchronize(dev);
                ms[n++] = bench_now_ms() - t0;
            }
            if (ret < 0) {
                printf("dxt %s %s failed: %s\n", gj_dxt_format_name(f), gj_dxt_quality_name(q), gj_strerror(ret));
                gj_dxt_blocks_unref(&out);
                continue;
            }
            bench_stats(ms, n, BATCH, &r);
            printf("dxt %s %s %dx%d %s %.4f %.4f %.1f %.1f\n", gj_dxt_format_name(f), gj_dxt_quality_name(q),
                   frame.width, frame.height, gj_pixel_format_describe(frame.format)->name, r.median_ms,
                   r.min_ms, (double)frame.width * frame.height / (r.median_ms * 1e6),
                   (double)out.size / (r.median_ms * 1e6));
            fflush(stdout);
            gj_dxt_blocks_unref(&out);
        }
    }
    gj_frame_unref(&frame);
    gj_dxt_encoder_free(&enc);
    gj_jpeg_decoder_free(&jdec);
    gj_device_free(&dev);
    free(data);
    return 0;
}
