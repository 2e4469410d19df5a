/*
 * bench_nvjpeg2k: times NVIDIA nvJPEG2000 on whole files, the peer of bench_j2k.
 *
 *   bench_nvjpeg2k [--device N] [--iters N] [--seconds S] [--batch B [--threads T]] FILE...
 *
 * For each file (.j2k, .j2c, .jp2): 2 warm-up decodes, then up to N timed decodes
 * (default 30; at least 3, no more once S seconds (default 5) have passed), each
 * timed around nvjpeg2kStreamParse() (the codestream's headers and packets, on the
 * CPU), nvjpeg2kDecodeImage() and cudaStreamSynchronize(): the same span as
 * bench_j2k's gj_j2k_decode(). Output: interleaved samples in device memory (8-bit
 * for pictures of up to 8 bits, 16-bit beyond), RGB for three components; a plane a
 * component where they differ in size (subsampled YUV, as bench_j2k's planar
 * formats; nvJPEG2000's interleaved output needs one size). One line per file, as
 * bench_j2k's:
 *     nvjpeg2k FILE WxH COMPONENTS MODE MEDIAN_MS MIN_MS FPS MPIX/S gpu_mem=... frame=...
 * gpu_mem is the drop of the device's free memory from before the handle was made
 * to its lowest point, the output included.
 *
 * --batch B (throughput, nvJPEG2000's documented way of decoding many pictures: its
 * handle is shared, a decode state and a bitstream handle per host thread, here a
 * CUDA stream and an output each too): each timed sample decodes the file B times
 * on T host threads (default 4), each taking the next picture, parsing it and
 * decoding it on its own stream; MEDIAN_MS and MIN_MS are per picture (the sample's
 * time / B), FPS the pictures per second. Mode dev-interleaved8-batchB-tT.
 *
 * Built on the GPU machine only (the library comes from the PyPI wheel
 * nvidia-nvjpeg2k-cu13: its include/ and lib/ directories):
 *   gcc -O2 -std=gnu11 -I$NVJ2K/include -I$CUDA/include bench/bench_nvjpeg2k.c bench/bench_util.c \
 *       -o bench_nvjpeg2k $NVJ2K/lib/libnvjpeg2k.so.0 -L$CUDA/lib64 -lcudart -Wl,-rpath,$NVJ2K/lib
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nvjpeg2k.h>

#include "bench_util.h"

#define WARMUP 2
#define NVJ_MAX_COMPONENTS 4

typedef struct options {
    int device;
    int iters;
    double seconds;
    int batch;
    int threads;
} options;

/* One file's run: everything it creates, so one function can free it all. */
typedef struct run {
    nvjpeg2kHandle_t handle;
    nvjpeg2kDecodeState_t state;
    nvjpeg2kStream_t stream_info;
    nvjpeg2kDecodeParams_t params;
    cudaStream_t stream;
    void *pixels;
    size_t pitch, output_bytes;
    void *planes[NVJ_MAX_COMPONENTS];
    size_t pitches[NVJ_MAX_COMPONENTS];
    nvjpeg2kImage_t image;
    nvjpeg2kImageInfo_t info;
    int deep, planar;
    char error[256];            /* why the run failed */
} run;

static int nvj_ok(run *r, nvjpeg2kStatus_t s, const char *call)
{
    if (s == NVJPEG2K_STATUS_SUCCESS)
        return 1;
    snprintf(r->error, sizeof(r->error), "%s: status %d", call, (int)s);
    return 0;
}

static int cuda_ok(run *r, cudaError_t e, const char *call)
{
    if (e == cudaSuccess)
        return 1;
    snprintf(r->error, sizeof(r->error), "%s: %s (%s)", call, cudaGetErrorString(e), cudaGetErrorName(e));
    return 0;
}

static size_t free_gpu_bytes(void)
{
    size_t free_bytes = 0, total_bytes = 0;

    return cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess ? free_bytes : 0;
}

static int parse_options(int argc, char **argv, options *o, int *first_file)
{
    int i;

    *o = (options){ .iters = 30, .seconds = 5, .threads = 4 };
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        int r;

        if ((r = bench_option_value(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0 || bench_parse_int("--device", v, 0, &o->device) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--batch", &v)) != 0) {
            if (r < 0 || bench_parse_int("--batch", v, 1, &o->batch) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--threads", &v)) != 0) {
            if (r < 0 || bench_parse_int("--threads", v, 1, &o->threads) < 0)
                return -1;
        } else if ((r = bench_common_option(argc, argv, &i, &o->iters, &o->seconds)) != 0) {
            if (r < 0)
                return -1;
        } else {
            break;
        }
    }
    return bench_options_end(argc, argv, i, first_file);
}

/*
 * Handle (shared when `shared` is given), state, parameters and the interleaved
 * output of the picture in data.
 */
static int setup(run *r, const uint8_t *data, size_t size, nvjpeg2kHandle_t shared)
{
    nvjpeg2kImageComponentInfo_t comp, comps[NVJ_MAX_COMPONENTS];

    if (shared)
        r->handle = shared;
    if (!cuda_ok(r, cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags") ||
        (!shared && !nvj_ok(r, nvjpeg2kCreateSimple(&r->handle), "nvjpeg2kCreateSimple")) ||
        !nvj_ok(r, nvjpeg2kDecodeStateCreate(r->handle, &r->state), "nvjpeg2kDecodeStateCreate") ||
        !nvj_ok(r, nvjpeg2kStreamCreate(&r->stream_info), "nvjpeg2kStreamCreate") ||
        !nvj_ok(r, nvjpeg2kDecodeParamsCreate(&r->params), "nvjpeg2kDecodeParamsCreate") ||
        !nvj_ok(r, nvjpeg2kStreamParse(r->handle, data, size, 0, 0, r->stream_info), "nvjpeg2kStreamParse") ||
        !nvj_ok(r, nvjpeg2kStreamGetImageInfo(r->stream_info, &r->info), "nvjpeg2kStreamGetImageInfo") ||
        !nvj_ok(r, nvjpeg2kStreamGetImageComponentInfo(r->stream_info, &comp, 0),
                "nvjpeg2kStreamGetImageComponentInfo"))
        return 0;
    if (r->info.num_components > NVJ_MAX_COMPONENTS) {
        snprintf(r->error, sizeof(r->error), "%u components", r->info.num_components);
        return 0;
    }
    for (unsigned c = 0; c < r->info.num_components; c++) {
        if (!nvj_ok(r, nvjpeg2kStreamGetImageComponentInfo(r->stream_info, &comps[c], c),
                    "nvjpeg2kStreamGetImageComponentInfo"))
            return 0;
        r->planar |= comps[c].component_width != comp.component_width ||
                     comps[c].component_height != comp.component_height;
    }
    if (!nvj_ok(r, nvjpeg2kDecodeParamsSetOutputFormat(r->params, r->planar ? NVJPEG2K_FORMAT_PLANAR
                                                                            : NVJPEG2K_FORMAT_INTERLEAVED),
                "nvjpeg2kDecodeParamsSetOutputFormat") ||
        !nvj_ok(r, nvjpeg2kDecodeParamsSetRGBOutput(r->params, !r->planar && r->info.num_components == 3),
                "nvjpeg2kDecodeParamsSetRGBOutput"))
        return 0;
    r->deep = comp.precision > 8;
    r->pitch = (size_t)r->info.image_width * r->info.num_components * (r->deep ? 2 : 1);
    r->output_bytes = r->pitch * r->info.image_height;
    if (r->planar) {
        r->output_bytes = 0;
        for (unsigned c = 0; c < r->info.num_components; c++)
            r->output_bytes += (size_t)comps[c].component_width * (r->deep ? 2 : 1) * comps[c].component_height;
    }
    if (!cuda_ok(r, cudaMalloc(&r->pixels, r->output_bytes), "cudaMalloc"))
        return 0;
    r->planes[0] = r->pixels;
    r->pitches[0] = r->pitch;
    for (unsigned c = 0, at = 0; r->planar && c < r->info.num_components; c++) {
        r->planes[c] = (uint8_t *)r->pixels + at;
        r->pitches[c] = (size_t)comps[c].component_width * (r->deep ? 2 : 1);
        at += (unsigned)(r->pitches[c] * comps[c].component_height);
    }
    r->image.pixel_data = r->planes;
    r->image.pitch_in_bytes = r->pitches;
    r->image.pixel_type = r->deep ? NVJPEG2K_UINT16 : NVJPEG2K_UINT8;
    r->image.num_components = r->info.num_components;
    return 1;
}

static void run_free(run *r, int owns_handle)
{
    cudaFree(r->pixels);
    if (r->params)
        nvjpeg2kDecodeParamsDestroy(r->params);
    if (r->stream_info)
        nvjpeg2kStreamDestroy(r->stream_info);
    if (r->state)
        nvjpeg2kDecodeStateDestroy(r->state);
    if (r->handle && owns_handle)
        nvjpeg2kDestroy(r->handle);
    if (r->stream)
        cudaStreamDestroy(r->stream);
}

static int decode_once(run *r, const uint8_t *data, size_t size)
{
    return nvj_ok(r, nvjpeg2kStreamParse(r->handle, data, size, 0, 0, r->stream_info), "nvjpeg2kStreamParse") &&
           nvj_ok(r, nvjpeg2kDecodeImage(r->handle, r->state, r->stream_info, r->params, &r->image, r->stream),
                  "nvjpeg2kDecodeImage") &&
           cuda_ok(r, cudaStreamSynchronize(r->stream), "cudaStreamSynchronize");
}

static void bench_file(const options *o, const char *path)
{
    run r = { 0 };
    uint8_t *data = NULL;
    size_t size, free_before = free_gpu_bytes(), free_lowest = free_before, free_now;
    double *ms = calloc((size_t)o->iters, sizeof(*ms)), start;
    bench_result res;
    int n = 0, ok;

    ok = ms && bench_read_file(path, &data, &size) == 0;
    if (!ok)
        snprintf(r.error, sizeof(r.error), "cannot read the file");
    ok = ok && setup(&r, data, size, NULL);
    for (int i = 0; ok && i < WARMUP; i++)
        ok = decode_once(&r, data, size);
    start = bench_now_ms();
    while (ok && bench_more_samples(n, o->iters, bench_now_ms() - start, o->seconds * 1e3)) {
        double t0 = bench_now_ms();

        ok = decode_once(&r, data, size);
        ms[n++] = bench_now_ms() - t0;
        if ((free_now = free_gpu_bytes()) && free_now < free_lowest)
            free_lowest = free_now;
    }
    if (!ok) {
        printf("nvjpeg2k %s failed: %s\n", path, r.error);
    } else {
        double pixels = (double)r.info.image_width * r.info.image_height;

        bench_stats(ms, n, 1, &res);
        printf("nvjpeg2k %s %ux%u %u dev-%s%s %.3f %.3f %.1f %.1f gpu_mem=%.1fMiB frame=%.1fMiB\n", path,
               r.info.image_width, r.info.image_height, r.info.num_components, r.planar ? "planar" : "interleaved",
               r.deep ? "16" : "8", res.median_ms,
               res.min_ms, res.images_per_s, pixels / (res.median_ms * 1e3),
               (double)(free_before - free_lowest) / 1048576, r.output_bytes / 1048576.0);
    }
    fflush(stdout);
    run_free(&r, 1);
    free(data);
    free(ms);
}

/* One timed sample of the throughput mode: pictures left to take, and the threads' runs. */
typedef struct batch {
    const uint8_t *data;
    size_t size;
    atomic_int next;
    int n;
    atomic_int failed;
} batch;

typedef struct worker {
    batch *b;
    run *r;
    pthread_t thread;
} worker;

static void *batch_work(void *opaque)
{
    worker *w = opaque;

    while (atomic_fetch_add(&w->b->next, 1) < w->b->n)
        if (!decode_once(w->r, w->b->data, w->b->size))
            atomic_store(&w->b->failed, 1);
    return NULL;
}

/* Decodes b->n pictures on `threads` threads (the caller's being the first); 0 if one failed. */
static int batch_once(batch *b, worker *workers, int threads)
{
    int started = 1;

    atomic_store(&b->next, 0);
    for (int t = 1; t < threads; t++, started++)
        if (pthread_create(&workers[t].thread, NULL, batch_work, &workers[t]))
            break;
    batch_work(&workers[0]);
    for (int t = 1; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    return !atomic_load(&b->failed);
}

static void bench_batch(const options *o, const char *path)
{
    int threads = o->threads, n = 0, ok, ready = 0;
    run *runs = calloc((size_t)threads, sizeof(*runs));
    worker *workers = calloc((size_t)threads, sizeof(*workers));
    double *ms = calloc((size_t)o->iters, sizeof(*ms)), start;
    size_t free_before = free_gpu_bytes(), free_lowest = free_before, free_now;
    nvjpeg2kHandle_t handle = NULL;
    batch b = { .n = o->batch };
    uint8_t *data = NULL;
    const char *error = "cannot read the file";
    bench_result res;
    size_t size;

    ok = runs && workers && ms && bench_read_file(path, &data, &size) == 0;
    if (ok && nvjpeg2kCreateSimple(&handle) != NVJPEG2K_STATUS_SUCCESS) {
        ok = 0;
        error = "nvjpeg2kCreateSimple failed";
    }
    b.data = data;
    b.size = size;
    atomic_init(&b.failed, 0);
    for (int t = 0; ok && t < threads; t++, ready++) {
        workers[t] = (worker){ .b = &b, .r = &runs[t] };
        if (!(ok = setup(&runs[t], data, size, handle)))
            error = runs[t].error;
    }
    ok = ok && batch_once(&b, workers, threads);     /* warm-up */
    start = bench_now_ms();
    while (ok && bench_more_samples(n, o->iters, bench_now_ms() - start, o->seconds * 1e3)) {
        double t0 = bench_now_ms();

        ok = batch_once(&b, workers, threads);
        ms[n++] = bench_now_ms() - t0;
        if ((free_now = free_gpu_bytes()) && free_now < free_lowest)
            free_lowest = free_now;
    }
    if (!ok) {
        for (int t = 0; t < ready; t++)
            if (runs[t].error[0])
                error = runs[t].error;
        printf("nvjpeg2k %s batch%d failed: %s\n", path, o->batch, error);
    } else {
        double pixels = (double)runs[0].info.image_width * runs[0].info.image_height;

        bench_stats(ms, n, o->batch, &res);
        printf("nvjpeg2k %s %ux%u %u dev-%s%s-batch%d-t%d %.3f %.3f %.1f %.1f gpu_mem=%.1fMiB "
               "frame=%.1fMiB\n", path, runs[0].info.image_width, runs[0].info.image_height,
               runs[0].info.num_components, runs[0].planar ? "planar" : "interleaved", runs[0].deep ? "16" : "8",
               o->batch, threads, res.median_ms, res.min_ms,
               res.images_per_s, pixels / (res.median_ms * 1e3), (double)(free_before - free_lowest) / 1048576,
               runs[0].output_bytes / 1048576.0);
    }
    fflush(stdout);
    for (int t = 0; t < ready; t++)
        run_free(&runs[t], 0);
    if (handle)
        nvjpeg2kDestroy(handle);
    free(runs);
    free(workers);
    free(data);
    free(ms);
}

int main(int argc, char **argv)
{
    options o;
    struct cudaDeviceProp prop;
    int first_file, major = 0, minor = 0, patch = 0;
    cudaError_t e;

    if (parse_options(argc, argv, &o, &first_file) < 0) {
        fprintf(stderr, "usage: bench_nvjpeg2k [--device N] [--iters N] [--seconds S] [--batch B [--threads T]] "
                "FILE...\n");
        return 2;
    }
    if ((e = cudaSetDevice(o.device)) != cudaSuccess || (e = cudaGetDeviceProperties(&prop, o.device)) != cudaSuccess) {
        fprintf(stderr, "bench_nvjpeg2k: CUDA device %d: %s (%s)\n", o.device, cudaGetErrorString(e),
                cudaGetErrorName(e));
        return 1;
    }
    nvjpeg2kGetProperty(MAJOR_VERSION, &major);
    nvjpeg2kGetProperty(MINOR_VERSION, &minor);
    nvjpeg2kGetProperty(PATCH_LEVEL, &patch);
    printf("# bench_nvjpeg2k (nvJPEG2000 %d.%d.%d) on CUDA: %s: up to %d timed decodes per file, "
           "output to device memory\n", major, minor, patch, prop.name, o.iters);
    for (int i = first_file; i < argc; i++) {
        if (o.batch)
            bench_batch(&o, argv[i]);
        else
            bench_file(&o, argv[i]);
    }
    return 0;
}
