/*
 * bench_decode: times libgpujpeg's JPEG decoder on whole files.
 *
 *   bench_decode [--device D] [--iters N] [--seconds S] [--format planar|rgb24]
 *                [--host] [--batch B] FILE.jpg...
 *
 * For each file: 3 warm-up decodes, then up to N timed decodes (default 50; at
 * least 5, no more once S seconds (default 5) of timed decoding have passed) of
 * that one image, each timed with CLOCK_MONOTONIC around gj_jpeg_decode() and
 * gj_device_synchronize(). Output stays in device memory unless --host. With
 * --batch B each timed call is gj_jpeg_decode_batch() of the same file B times
 * into B frames (one warm-up batch), and the times are per image (the batched
 * figure); with --stream too, the B decodes are gj_jpeg_decode_async() calls
 * followed by one gj_device_synchronize() (the streamed figure). GJ_LANES sets
 * the lanes of both.
 * One result line per file (bench_util.h); on CUDA the notes give the GPU memory
 * the decode took: the drop of the device's free memory from before the decoder
 * was created to its lowest point after any decode, and what that is beyond the
 * output frames, in bytes per pixel (cuMemGetInfo counts in steps of 2 MiB). On
 * any backend, single decodes also note the library's own peak
 * (gj_device_buffer_bytes()) beyond the output frame, lib_extra, exact to the
 * byte, with the limit the decoder keeps to: its 16-bit coefficient buffer and
 * one byte per pixel (batches decode on lanes, whose buffers that count leaves out).
 * With GJ_PROFILE set the library's stage times (doc/api.md) are printed too.
 *
 * Build from the top of a configured and built tree (`make` done):
 *   gcc -O2 -std=gnu11 -Ilibgpujpeg/include bench/bench_decode.c bench/bench_util.c \
 *       -o bench_decode -L.libs -lgpujpeg -ldl -Wl,-rpath,$PWD/.libs
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpujpeg/gpujpeg.h>

#include "bench_util.h"
#include "cuda_meminfo.h"

/* Warm-up calls before the timed ones: single decodes, batches. */
#define WARMUP_DECODES 3
#define WARMUP_BATCHES 1

typedef struct options {
    const char *device;
    int iters;
    double seconds;
    enum gj_pixel_format format;   /* GJ_PIX_FMT_NONE: the native planar format */
    int host;
    int batch;
    int stream;
} options;

static void usage(void)
{
    printf("usage: bench_decode [--device D] [--iters N] [--seconds S] "
           "[--format planar|rgb24] [--host] [--batch B] FILE.jpg...\n"
           "  --device D     auto (default), cuda[:N], opencl[:N], opencl-gpu[:N], opencl-cpu[:N]\n"
           "  --iters N      timed decodes per file (default 50)\n"
           "  --seconds S    stop timing a file after S seconds once 5 decodes are done (default 5)\n"
           "  --format F     planar (native, default) or rgb24\n"
           "  --host         decode to host memory (default: device memory)\n"
           "  --batch B      decode B copies of the file per gj_jpeg_decode_batch() call\n"
           "  --stream       with --batch: B gj_jpeg_decode_async() calls, then one synchronize\n");
}

static int parse_options(int argc, char **argv, options *o, int *first_file)
{
    int i;

    *o = (options){ .device = "auto", .iters = 50, .seconds = 5, .format = GJ_PIX_FMT_NONE,
                    .batch = 1 };
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        int r;

        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            exit(0);
        }
        if (!strcmp(argv[i], "--host")) {
            o->host = 1;
        } else if (!strcmp(argv[i], "--stream")) {
            o->stream = 1;
        } else if ((r = bench_option_value(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0)
                return -1;
            o->device = v;
        } else if ((r = bench_common_option(argc, argv, &i, &o->iters, &o->seconds)) != 0) {
            if (r < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--batch", &v)) != 0) {
            if (r < 0 || bench_parse_int("--batch", v, 1, &o->batch) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--format", &v)) != 0) {
            int rgb;
            if (r < 0 || bench_parse_format(v, &rgb) < 0)
                return -1;
            o->format = rgb ? GJ_PIX_FMT_RGB24 : GJ_PIX_FMT_NONE;
        } else {
            break;
        }
    }
    return bench_options_end(argc, argv, i, first_file);
}

/* Bytes of GPU memory that a decoded frame occupies. */
static size_t frame_bytes(const gj_frame *f)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(f->format);
    size_t total = 0;
    int p;

    for (p = 0; d && p < d->nb_planes; p++)
        total += (size_t)f->linesize[p] * gj_frame_plane_height(f->format, p, f->height);
    return total;
}

/* One timed unit of work: a single decode, one batch or one stream of decodes,
 * finished on the device. */
static int decode_once(gj_jpeg_decoder *dec, gj_device *dev, const uint8_t *const *data,
                       const size_t *sizes, int n, gj_frame *frames, int stream)
{
    int i, ret = 0;

    if (stream) {
        for (i = 0; i < n && ret >= 0; i++)
            ret = gj_jpeg_decode_async(dec, data[i], sizes[i], &frames[i]);
    } else {
        ret = n == 1 ? gj_jpeg_decode(dec, data[0], sizes[0], &frames[0])
                     : gj_jpeg_decode_batch(dec, data, sizes, n, frames, NULL);
    }
    return ret < 0 ? ret : gj_device_synchronize(dev);
}

static void mode_name(const options *o, char *out, size_t size)
{
    int len = snprintf(out, size, "%s-%s", o->host ? "host" : "dev",
                       o->format == GJ_PIX_FMT_RGB24 ? "rgb24" : "planar");

    if (o->batch > 1)
        snprintf(out + len, size - (size_t)len, "-%s%d", o->stream ? "s" : "b", o->batch);
}

/* Bytes of the decoder's coefficient buffer: 64 16-bit coefficients per block of
 * every component, MCUs padded (T.81 A.2.4); 0 if the header does not parse. */
static double coefficient_bytes(const uint8_t *data, size_t size)
{
    gj_jpeg_info info;
    int hmax = 1, vmax = 1, c;
    double blocks = 0, mcus_x, mcus_y;

    if (gj_jpeg_read_info(data, size, &info) < 0)
        return 0;
    for (c = 0; c < info.num_components; c++) {
        hmax = info.h_samp[c] > hmax ? info.h_samp[c] : hmax;
        vmax = info.v_samp[c] > vmax ? info.v_samp[c] : vmax;
    }
    mcus_x = (info.width + 8 * hmax - 1) / (8 * hmax);
    mcus_y = (info.height + 8 * vmax - 1) / (8 * vmax);
    for (c = 0; c < info.num_components; c++)
        blocks += mcus_x * info.h_samp[c] * mcus_y * info.v_samp[c];
    return blocks * 64 * 2;
}

/* The notes of a result line: GPU memory taken (CUDA), the library's peak beyond
 * the output frame (single decodes; lib_peak: the peak, lib_held_before: what the
 * device held before) and concealment. */
static void describe_memory(char *out, size_t size, size_t free_before, size_t free_lowest, size_t lib_before,
                            size_t lib_peak, double coefs, const options *o, const gj_frame *frames,
                            const bench_jpeg_desc *desc)
{
    double taken, outputs, pixels = (double)desc->width * desc->height * o->batch;
    int len = 0;

    out[0] = '\0';
    outputs = o->host ? 0 : (double)frame_bytes(&frames[0]) * o->batch;
    if (free_before && free_lowest) {
        taken = free_before > free_lowest ? (double)(free_before - free_lowest) : 0;
        len = snprintf(out, size, "gpu_mem=%.1fMiB out=%.1fMiB extra=%.2fB/px",
                       taken / 1048576, outputs / 1048576, (taken - outputs) / pixels);
    }
    /* With host output the frame is the decoder's staging picture, on the device too. */
    if (o->batch == 1 && lib_peak > lib_before) {
        double lib = (double)(lib_peak - lib_before) - (double)frame_bytes(&frames[0]);
        len += snprintf(out + len, size - (size_t)len, "%slib_extra=%.2fB/px (limit %.2f)", len ? " " : "",
                        lib / pixels, coefs / pixels + 1);
    }
    if (frames[0].decode_error_flags)
        snprintf(out + len, size - (size_t)len, "%sCONCEALED(corrupt input?)", len ? " " : "");
}

static void bench_file(gj_device *dev, const options *o, cuda_meminfo *mem, const char *path)
{
    bench_jpeg_desc desc = { 0 };
    gj_jpeg_decoder *dec = NULL;
    gj_frame *frames = NULL;
    const uint8_t **ptrs = NULL;
    size_t *sizes = NULL, size, free_before, free_lowest, free_now;
    uint8_t *data = NULL;
    double *ms = NULL, elapsed = 0;
    bench_result r;
    char mode[48], notes[200];
    size_t lib_before, lib_peak;
    int i, n = 0, ret;

    mode_name(o, mode, sizeof(mode));
    if (bench_read_file(path, &data, &size) < 0 || bench_probe_jpeg(data, size, &desc) < 0) {
        bench_print_failure(path, &desc, mode, "cannot read the file or its JPEG header");
        free(data);
        return;
    }
    frames = calloc((size_t)o->batch, sizeof(*frames));
    ptrs = calloc((size_t)o->batch, sizeof(*ptrs));
    sizes = calloc((size_t)o->batch, sizeof(*sizes));
    ms = calloc((size_t)o->iters, sizeof(*ms));
    if (!frames || !ptrs || !sizes || !ms) {
        bench_print_failure(path, &desc, mode, "out of memory");
        goto end;
    }
    for (i = 0; i < o->batch; i++) {
        frames[i].format = o->format;
        frames[i].memory = o->host ? GJ_MEMORY_HOST : gj_device_memory(dev);
        ptrs[i] = data;
        sizes[i] = size;
    }

    free_before = free_lowest = cuda_free_bytes(mem);
    gj_device_reset_peak(dev);
    gj_device_buffer_bytes(dev, &lib_before, NULL);
    if ((ret = gj_jpeg_decoder_create(&dec, dev)) < 0) {
        bench_print_failure(path, &desc, mode, gj_strerror(ret));
        goto end;
    }
    /* The first decode allocates the frames (data[0] == NULL); later ones reuse them. */
    for (i = 0; i < (o->batch > 1 ? WARMUP_BATCHES : WARMUP_DECODES); i++) {
        if ((ret = decode_once(dec, dev, ptrs, sizes, o->batch, frames, o->stream)) < 0) {
            bench_print_failure(path, &desc, mode, gj_strerror(ret));
            goto end;
        }
        free_now = cuda_free_bytes(mem);
        if (free_now && free_now < free_lowest)
            free_lowest = free_now;
    }
    while (bench_more_samples(n, o->iters, elapsed, o->seconds * 1e3)) {
        double t0 = bench_now_ms();

        ret = decode_once(dec, dev, ptrs, sizes, o->batch, frames, o->stream);
        ms[n] = bench_now_ms() - t0;
        if (ret < 0) {
            bench_print_failure(path, &desc, mode, gj_strerror(ret));
            goto end;
        }
        elapsed += ms[n++];
        free_now = cuda_free_bytes(mem);
        if (free_now && free_now < free_lowest)
            free_lowest = free_now;
    }
    bench_stats(ms, n, o->batch, &r);
    gj_device_buffer_bytes(dev, NULL, &lib_peak);
    describe_memory(notes, sizeof(notes), free_before, free_lowest, lib_before, lib_peak,
                    coefficient_bytes(data, size), o, frames, &desc);
    bench_print_result(path, &desc, mode, &r, notes[0] ? notes : NULL);

end:
    for (i = 0; frames && i < o->batch; i++)
        gj_frame_unref(&frames[i]);
    gj_jpeg_decoder_free(&dec);
    free(frames);
    free(ptrs);
    free(sizes);
    free(ms);
    free(data);
}

/*
 * Decodes the first file once before anything is measured: the device loads its
 * kernels at first use, and that memory and time must not count against the
 * first file. Errors are left for bench_file() to report.
 */
static void warm_up(gj_device *dev, const options *o, const char *path)
{
    gj_jpeg_decoder *dec = NULL;
    gj_frame frame = { .format = o->format };
    uint8_t *data = NULL;
    size_t size;

    frame.memory = o->host ? GJ_MEMORY_HOST : gj_device_memory(dev);
    if (bench_read_file(path, &data, &size) == 0 && gj_jpeg_decoder_create(&dec, dev) == 0) {
        const uint8_t *ptrs[2] = { data, data };
        size_t sizes[2] = { size, size };
        gj_frame frames[2] = { frame, frame };

        decode_once(dec, dev, ptrs, sizes, 1, &frame, 0);
        if (o->batch > 1)
            decode_once(dec, dev, ptrs, sizes, 2, frames, 0);
        gj_frame_unref(&frame);
        gj_frame_unref(&frames[0]);
        gj_frame_unref(&frames[1]);
    }
    gj_jpeg_decoder_free(&dec);
    free(data);
}

int main(int argc, char **argv)
{
    options o;
    gj_device *dev = NULL;
    cuda_meminfo mem = { 0 };
    int first_file, i, ret;

    if (parse_options(argc, argv, &o, &first_file) < 0) {
        fprintf(stderr, "bench_decode --help lists the options\n");
        return 2;
    }
    /* GJ_PROFILE's stage times are logged at info level */
    if (getenv("GJ_PROFILE"))
        gj_log_set_level(GJ_LOG_INFO);
    if ((ret = gj_device_create_from_string(&dev, o.device)) < 0) {
        fprintf(stderr, "bench_decode: cannot create device '%s': %s\n", o.device, gj_strerror(ret));
        return 1;
    }
    if (gj_device_backend(dev) == GJ_BACKEND_CUDA)
        cuda_meminfo_open(&mem, cuda_ordinal(o.device));
    printf("# bench_decode (libgpujpeg %s) on %s: %d timed decodes per file, output to %s memory\n",
           gj_version(), gj_device_name(dev), o.iters, o.host ? "host" : "device");
    warm_up(dev, &o, argv[first_file]);
    bench_print_header();
    for (i = first_file; i < argc; i++)
        bench_file(dev, &o, &mem, argv[i]);
    cuda_meminfo_close(&mem);
    gj_device_free(&dev);
    return 0;
}
