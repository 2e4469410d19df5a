/*
 * bench_j2k: times libgpujpeg's JPEG 2000 decoder on whole files.
 *
 *   bench_j2k [--device D] [--iters N] [--seconds S] [--host] [--reduce R] [--batch B [--mixed]] FILE...
 *
 * For each file (.j2k, .j2c, .jp2): 2 warm-up decodes, then up to N timed decodes
 * (default 30; at least 3, no more once S seconds (default 5) have passed), each
 * timed with CLOCK_MONOTONIC around gj_j2k_decode() (CPU parsing and T2, upload,
 * kernels) and gj_device_synchronize(). Output stays in device memory unless
 * --host. One line per file:
 *     j2k FILE WxH COMPONENTS MODE MEDIAN_MS MIN_MS FPS MPIX/S peak=... (Nx frame) [gpu_mem=...] frame=...
 * peak is the library's own count (gj_device_buffer_bytes(), any backend) of the
 * device buffers held at once from before the decoder was created: the decoder's
 * and the output frame's (in device memory unless --host), against the decoded
 * frame's size, as the "at most 3x the frame" target asks. On CUDA,
 * gpu_mem is the driver's view: the drop of the device's free memory over the
 * same span (allocation granularity and the driver's own allocations included).
 *
 * --batch B: each timed call is one gj_j2k_decode_batch() of B pictures (the file
 * B times) into B frames, after one warm-up batch; MEDIAN_MS and MIN_MS are per
 * picture (the batch's time / B) and FPS the stream's pictures per second. With
 * --mixed, one more line for batches of B pictures taken from every FILE in turn
 * (pictures of different sizes and kinds side by side). GJ_LANES sets the lanes.
 * peak is then the decoder's device only (output frames; the lanes' buffers are on
 * sibling devices); gpu_mem (CUDA) counts everything, also given per picture.
 *
 * With GJ_PROFILE=2 the decoder's host times are printed too (doc/api.md).
 *
 * Build from the top of a configured and built tree (`make` builds it as bench/bench_j2k).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpujpeg/gpujpeg.h>

#include "bench_util.h"
#include "cuda_meminfo.h"

#define WARMUP 2

typedef struct options {
    const char *device;
    int iters;
    double seconds;
    int host;
    int reduce;
    int batch;
    int mixed;
} options;

static int parse_options(int argc, char **argv, options *o, int *first_file)
{
    int i;

    *o = (options){ .device = "auto", .iters = 30, .seconds = 5 };
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        int r;

        if (!strcmp(argv[i], "--host")) {
            o->host = 1;
        } else if (!strcmp(argv[i], "--mixed")) {
            o->mixed = 1;
        } else if ((r = bench_option_value(argc, argv, &i, "--batch", &v)) != 0) {
            if (r < 0 || bench_parse_int("--batch", v, 1, &o->batch) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0)
                return -1;
            o->device = v;
        } else if ((r = bench_option_value(argc, argv, &i, "--reduce", &v)) != 0) {
            if (r < 0 || bench_parse_int("--reduce", v, 0, &o->reduce) < 0)
                return -1;
        } else if ((r = bench_common_option(argc, argv, &i, &o->iters, &o->seconds)) != 0) {
            if (r < 0)
                return -1;
        } else {
            break;
        }
    }
    if (o->mixed && !o->batch) {
        fprintf(stderr, "bench_j2k: --mixed goes with --batch B\n");
        return -1;
    }
    return bench_options_end(argc, argv, i, first_file);
}

/* A frame's samples in bytes, every plane (subsampled chroma and alpha too). */
static double frame_bytes(const gj_frame *f)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(f->format);
    double bytes = 0;

    for (int p = 0; p < d->nb_planes; p++)
        bytes += (double)gj_frame_plane_row_bytes(f->format, p, f->width) *
                 gj_frame_plane_height(f->format, p, f->height);
    return bytes;
}

static int decode_once(gj_j2k_decoder *dec, gj_device *dev, const uint8_t *data, size_t size, gj_frame *f)
{
    int ret = gj_j2k_decode(dec, data, size, f);

    return ret < 0 ? ret : gj_device_synchronize(dev);
}

static void bench_file(gj_device *dev, const options *o, cuda_meminfo *mem, const char *path)
{
    gj_j2k_decoder *dec = NULL;
    gj_frame frame = { .format = GJ_PIX_FMT_NONE, .memory = o->host ? GJ_MEMORY_HOST : gj_device_memory(dev) };
    gj_j2k_info info;
    uint8_t *data = NULL;
    size_t size, free_before = cuda_free_bytes(mem), free_lowest = free_before, free_now;
    double *ms = malloc(sizeof(*ms) * (size_t)(o->iters > 0 ? o->iters : 1)), start;
    bench_result r;
    char notes[200] = "";
    size_t peak = 0;
    double frame_mib;
    int len;
    int n = 0, ret;

    if (!ms || bench_read_file(path, &data, &size) < 0)
        goto out;
    gj_device_reset_peak(dev);
    if ((ret = gj_j2k_read_info(data, size, &info)) < 0 || (ret = gj_j2k_decoder_create(&dec, dev)) < 0 ||
        (ret = gj_j2k_decoder_set_reduce(dec, o->reduce)) < 0) {
        printf("j2k %s failed: %s\n", path, gj_strerror(ret));
        goto out;
    }
    for (int i = 0; i < WARMUP && ret >= 0; i++)
        ret = decode_once(dec, dev, data, size, &frame);
    start = bench_now_ms();
    while (ret >= 0 && bench_more_samples(n, o->iters, bench_now_ms() - start, o->seconds * 1e3)) {
        double t0 = bench_now_ms();

        ret = decode_once(dec, dev, data, size, &frame);
        ms[n++] = bench_now_ms() - t0;
        if ((free_now = cuda_free_bytes(mem)) && free_now < free_lowest)
            free_lowest = free_now;
    }
    if (ret < 0) {
        printf("j2k %s failed: %s\n", path, gj_strerror(ret));
        goto out;
    }
    bench_stats(ms, n, 1, &r);
    gj_device_buffer_bytes(dev, NULL, &peak);
    frame_mib = frame_bytes(&frame) / 1048576;
    len = snprintf(notes, sizeof(notes), " peak=%.1fMiB (%.2fx frame)", (double)peak / 1048576,
                   (double)peak / 1048576 / frame_mib);
    if (free_before && free_lowest)
        len += snprintf(notes + len, sizeof(notes) - len, " gpu_mem=%.1fMiB",
                        (double)(free_before - free_lowest) / 1048576);
    snprintf(notes + len, sizeof(notes) - len, " frame=%.1fMiB", frame_mib);
    printf("j2k %s %dx%d %d %s-%s%s %.3f %.3f %.1f %.1f%s%s\n", path, frame.width, frame.height,
           info.num_components, o->host ? "host" : "dev", gj_pixel_format_describe(frame.format)->name,
           o->reduce ? "-reduced" : "", r.median_ms, r.min_ms, r.images_per_s,
           (double)frame.width * frame.height / (r.median_ms * 1e3), notes,
           frame.decode_error_flags ? " CONCEALED" : "");
out:
    fflush(stdout);
    gj_frame_unref(&frame);
    gj_j2k_decoder_free(&dec);
    free(data);
    free(ms);
}

/* One batch of b->n pictures; the first failure is printed. */
static int decode_batch_once(gj_j2k_decoder *dec, gj_device *dev, const uint8_t **data, const size_t *sizes, int n,
                             gj_frame *frames, int *results)
{
    int ret = gj_j2k_decode_batch(dec, data, sizes, n, frames, results);

    return ret < 0 ? ret : gj_device_synchronize(dev);
}

/*
 * Batches of o->batch pictures taken from paths[0..nb_paths) in turn; one line
 * named `label` (the file, or "mixed:N").
 */
static void bench_batch(gj_device *dev, const options *o, cuda_meminfo *mem, char **paths, int nb_paths,
                        const char *label)
{
    int n = o->batch, samples = 0, ret = 0, w = 0, h = 0, comps = 0;
    gj_j2k_decoder *dec = NULL;
    uint8_t **files = calloc((size_t)nb_paths, sizeof(*files));
    size_t *file_sizes = calloc((size_t)nb_paths, sizeof(*file_sizes));
    const uint8_t **data = calloc((size_t)n, sizeof(*data));
    size_t *sizes = calloc((size_t)n, sizeof(*sizes));
    gj_frame *frames = calloc((size_t)n, sizeof(*frames));
    int *results = calloc((size_t)n, sizeof(*results));
    double *ms = malloc(sizeof(*ms) * (size_t)(o->iters > 0 ? o->iters : 1)), start, pixels = 0, bytes = 0;
    size_t free_before = cuda_free_bytes(mem), free_lowest = free_before, free_now, peak = 0;
    char notes[240] = "";
    bench_result r;
    gj_j2k_info info;
    int len;

    if (!files || !file_sizes || !data || !sizes || !frames || !results || !ms)
        goto out;
    for (int i = 0; i < nb_paths; i++)
        if (bench_read_file(paths[i], &files[i], &file_sizes[i]) < 0)
            goto out;
    for (int i = 0; i < n; i++) {
        data[i] = files[i % nb_paths];
        sizes[i] = file_sizes[i % nb_paths];
        frames[i] = (gj_frame){ .format = GJ_PIX_FMT_NONE, .memory = o->host ? GJ_MEMORY_HOST : gj_device_memory(dev) };
    }
    gj_device_reset_peak(dev);
    if ((ret = gj_j2k_decoder_create(&dec, dev)) < 0 || (ret = gj_j2k_decoder_set_reduce(dec, o->reduce)) < 0 ||
        (ret = decode_batch_once(dec, dev, data, sizes, n, frames, results)) < 0)
        goto fail;
    start = bench_now_ms();
    while (bench_more_samples(samples, o->iters, bench_now_ms() - start, o->seconds * 1e3)) {
        double t0 = bench_now_ms();

        if ((ret = decode_batch_once(dec, dev, data, sizes, n, frames, results)) < 0)
            goto fail;
        ms[samples++] = bench_now_ms() - t0;
        if ((free_now = cuda_free_bytes(mem)) && free_now < free_lowest)
            free_lowest = free_now;
    }
    bench_stats(ms, samples, n, &r);
    for (int i = 0; i < n; i++) {
        pixels += (double)frames[i].width * frames[i].height;
        bytes += frame_bytes(&frames[i]);
    }
    w = frames[0].width;
    h = frames[0].height;
    if (gj_j2k_read_info(files[0], file_sizes[0], &info) == 0)
        comps = info.num_components;
    gj_device_buffer_bytes(dev, NULL, &peak);
    len = snprintf(notes, sizeof(notes), " peak=%.1fMiB (decoder's device)", (double)peak / 1048576);
    if (free_before && free_lowest)
        len += snprintf(notes + len, sizeof(notes) - len, " gpu_mem=%.1fMiB (%.1fMiB, %.2fx frame per picture)",
                        (double)(free_before - free_lowest) / 1048576,
                        (double)(free_before - free_lowest) / 1048576 / n, (double)(free_before - free_lowest) / bytes);
    snprintf(notes + len, sizeof(notes) - len, " frame=%.1fMiB", bytes / n / 1048576);
    printf("j2k %s %dx%d %d %s-%s-batch%d%s %.3f %.3f %.1f %.1f%s\n", label, w, h, comps, o->host ? "host" : "dev",
           nb_paths > 1 ? "mixed" : gj_pixel_format_describe(frames[0].format)->name, n,
           o->reduce ? "-reduced" : "", r.median_ms, r.min_ms, r.images_per_s, pixels / n / (r.median_ms * 1e3), notes);
    goto out;
fail:
    for (int i = 0; i < n && ret < 0; i++)
        if (results[i] < 0) {
            printf("j2k %s batch%d failed: picture %d (%s): %s\n", label, n, i, paths[i % nb_paths],
                   gj_strerror(results[i]));
            break;
        }
    if (ret >= 0 || !results[0])
        printf("j2k %s batch%d failed: %s\n", label, n, gj_strerror(ret));
out:
    fflush(stdout);
    gj_j2k_decoder_free(&dec);
    for (int i = 0; frames && i < n; i++)
        gj_frame_unref(&frames[i]);
    for (int i = 0; files && i < nb_paths; i++)
        free(files[i]);
    free(files);
    free(file_sizes);
    free(data);
    free(sizes);
    free(frames);
    free(results);
    free(ms);
}

int main(int argc, char **argv)
{
    options o;
    gj_device *dev;
    cuda_meminfo mem = { 0 };
    int first, ret;

    if (parse_options(argc, argv, &o, &first) < 0)
        return 2;
    /* GJ_PROFILE=2's host times (early T1 launch, end of T2 and tables) are logged at info level */
    if (getenv("GJ_PROFILE"))
        gj_log_set_level(GJ_LOG_INFO);
    if ((ret = gj_device_create_from_string(&dev, o.device)) < 0) {
        fprintf(stderr, "bench_j2k: %s: %s\n", o.device, gj_strerror(ret));
        return 1;
    }
    if (gj_device_backend(dev) == GJ_BACKEND_CUDA)
        cuda_meminfo_open(&mem, cuda_ordinal(o.device));
    printf("# %s\n# j2k FILE WxH COMPONENTS MODE MEDIAN_MS MIN_MS FPS MPIX/S [NOTES]\n", gj_device_name(dev));
    for (int i = first; i < argc; i++) {
        if (o.batch)
            bench_batch(dev, &o, &mem, &argv[i], 1, argv[i]);
        else
            bench_file(dev, &o, &mem, argv[i]);
    }
    if (o.mixed) {
        char label[32];

        snprintf(label, sizeof(label), "mixed:%d", argc - first);
        bench_batch(dev, &o, &mem, &argv[first], argc - first, label);
    }
    cuda_meminfo_close(&mem);
    gj_device_free(&dev);
    return 0;
}
