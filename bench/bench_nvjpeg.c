/*
 * bench_nvjpeg: times NVIDIA nvJPEG on whole files, the peer of bench_decode.
 *
 *   bench_nvjpeg [--device N] [--iters N] [--seconds S] [--format planar|rgb24]
 *                [--batch B] [--modes single,hw] FILE.jpg...
 *
 * single: the default backend (nvjpegCreateSimple), nvjpegDecode() of one image
 *         into device memory, NVJPEG_OUTPUT_YUV (planar) or NVJPEG_OUTPUT_RGBI
 *         (rgb24), timed with cudaStreamSynchronize() included.
 * hw:     the hardware JPEG engines (NVJPEG_BACKEND_HARDWARE, batched decoding
 *         only): nvjpegDecodeBatched() of B copies of the file (default 32);
 *         times are per image. GPUs without the engines say "not supported".
 * Each (file, mode): 3 warm-up decodes (1 batch in mode hw), then up to N timed
 * ones (default 50; at least 5, no more once S seconds (default 5) have passed). The handle, state
 * and outputs are made per file, so the notes can give the GPU memory the
 * decode took (drop of cudaMemGetInfo's free memory) beyond the outputs.
 *
 * Build (CUDA=/usr/local/cuda, or wherever nvjpeg.h and libnvjpeg are):
 *   gcc -O2 -std=gnu11 -I$CUDA/include bench/bench_nvjpeg.c bench/bench_util.c \
 *       -o bench_nvjpeg -L$CUDA/lib64 -lnvjpeg -lcudart -Wl,-rpath,$CUDA/lib64
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include "bench_util.h"

/* Warm-up calls before the timed ones: single decodes, batches. */
#define WARMUP_DECODES 3
#define WARMUP_BATCHES 1

typedef struct options {
    int device;
    int iters;
    double seconds;
    int rgb;
    int batch;
    int single;
    int hw;
} options;

/* One (file, mode) run: everything it creates, so one function can free it all. */
typedef struct run {
    nvjpegHandle_t handle;
    nvjpegJpegState_t state;
    nvjpegJpegStream_t stream_info;
    cudaStream_t stream;
    nvjpegImage_t *images;
    int n;                       /* images decoded per call */
    size_t output_bytes;         /* of all n images */
    char error[256];             /* why the run failed */
} run;

static const char *status_name(nvjpegStatus_t s)
{
    switch (s) {
    case NVJPEG_STATUS_SUCCESS: return "NVJPEG_STATUS_SUCCESS";
    case NVJPEG_STATUS_NOT_INITIALIZED: return "NVJPEG_STATUS_NOT_INITIALIZED";
    case NVJPEG_STATUS_INVALID_PARAMETER: return "NVJPEG_STATUS_INVALID_PARAMETER";
    case NVJPEG_STATUS_BAD_JPEG: return "NVJPEG_STATUS_BAD_JPEG";
    case NVJPEG_STATUS_JPEG_NOT_SUPPORTED: return "NVJPEG_STATUS_JPEG_NOT_SUPPORTED";
    case NVJPEG_STATUS_ALLOCATOR_FAILURE: return "NVJPEG_STATUS_ALLOCATOR_FAILURE";
    case NVJPEG_STATUS_EXECUTION_FAILED: return "NVJPEG_STATUS_EXECUTION_FAILED";
    case NVJPEG_STATUS_ARCH_MISMATCH: return "NVJPEG_STATUS_ARCH_MISMATCH";
    case NVJPEG_STATUS_INTERNAL_ERROR: return "NVJPEG_STATUS_INTERNAL_ERROR";
    case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED: return "NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED";
    case NVJPEG_STATUS_INCOMPLETE_BITSTREAM: return "NVJPEG_STATUS_INCOMPLETE_BITSTREAM";
    }
    return "unknown nvjpegStatus_t";
}

/* Records why a call failed in r->error; returns 0 so callers can `return nvj_ok(...)`. */
static int nvj_ok(run *r, nvjpegStatus_t s, const char *call)
{
    if (s == NVJPEG_STATUS_SUCCESS)
        return 1;
    snprintf(r->error, sizeof(r->error), "%s: %s (%d)", call, status_name(s), (int)s);
    return 0;
}

static int cuda_ok(run *r, cudaError_t e, const char *call)
{
    if (e == cudaSuccess)
        return 1;
    snprintf(r->error, sizeof(r->error), "%s: %s (%s)", call, cudaGetErrorString(e),
             cudaGetErrorName(e));
    return 0;
}

static size_t free_gpu_bytes(void)
{
    size_t free_bytes = 0, total_bytes = 0;

    return cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess ? free_bytes : 0;
}

static void usage(void)
{
    printf("usage: bench_nvjpeg [--device N] [--iters N] [--seconds S] [--format planar|rgb24] "
           "[--batch B] [--modes single,hw] FILE.jpg...\n"
           "  --device N     CUDA device ordinal (default 0)\n"
           "  --iters N      timed decodes per file and mode (default 50)\n"
           "  --seconds S    stop timing after S seconds once 5 decodes are done (default 5)\n"
           "  --format F     planar (NVJPEG_OUTPUT_YUV, default) or rgb24 (NVJPEG_OUTPUT_RGBI)\n"
           "  --batch B      images per nvjpegDecodeBatched() call in mode hw (default 32)\n"
           "  --modes LIST   single (default backend, one image), hw (hardware, batched); "
           "default both\n");
}

static int parse_modes(const char *list, options *o)
{
    char buf[64], *tok, *save;

    o->single = o->hw = 0;
    snprintf(buf, sizeof(buf), "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!strcmp(tok, "single")) {
            o->single = 1;
        } else if (!strcmp(tok, "hw")) {
            o->hw = 1;
        } else {
            fprintf(stderr, "--modes: unknown mode '%s' (single, hw)\n", tok);
            return -1;
        }
    }
    return o->single || o->hw ? 0 : -1;
}

static int parse_options(int argc, char **argv, options *o, int *first_file)
{
    int i;

    *o = (options){ .iters = 50, .seconds = 5, .batch = 32, .single = 1, .hw = 1 };
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        int r;

        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            exit(0);
        }
        if ((r = bench_option_value(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0 || bench_parse_int("--device", v, 0, &o->device) < 0)
                return -1;
        } else if ((r = bench_common_option(argc, argv, &i, &o->iters, &o->seconds)) != 0) {
            if (r < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--batch", &v)) != 0) {
            if (r < 0 || bench_parse_int("--batch", v, 1, &o->batch) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--modes", &v)) != 0) {
            if (r < 0 || parse_modes(v, o) < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0 || bench_parse_format(v, &o->rgb) < 0)
                return -1;
        } else {
            break;
        }
    }
    return bench_options_end(argc, argv, i, first_file);
}

/* Allocates r->n output images in device memory for the picture in data. */
static int alloc_outputs(run *r, const options *o, const uint8_t *data, size_t size)
{
    int nc, w[NVJPEG_MAX_COMPONENT], h[NVJPEG_MAX_COMPONENT], i, c;
    nvjpegChromaSubsampling_t subsampling;

    if (!nvj_ok(r, nvjpegGetImageInfo(r->handle, data, size, &nc, &subsampling, w, h),
                "nvjpegGetImageInfo"))
        return 0;
    if (!(r->images = calloc((size_t)r->n, sizeof(*r->images)))) {
        snprintf(r->error, sizeof(r->error), "out of memory");
        return 0;
    }
    for (i = 0; i < r->n; i++) {
        for (c = 0; c < (o->rgb ? 1 : nc); c++) {
            size_t pitch = o->rgb ? (size_t)w[0] * 3 : (size_t)w[c];
            void *plane;

            if (!cuda_ok(r, cudaMalloc(&plane, pitch * (size_t)h[c]), "cudaMalloc"))
                return 0;
            r->images[i].channel[c] = plane;
            r->images[i].pitch[c] = pitch;
            r->output_bytes += pitch * (size_t)h[c];
        }
    }
    return 1;
}

static void run_free(run *r)
{
    int i, c;

    for (i = 0; r->images && i < r->n; i++) {
        for (c = 0; c < NVJPEG_MAX_COMPONENT; c++)
            cudaFree(r->images[i].channel[c]);
    }
    free(r->images);
    if (r->stream_info)
        nvjpegJpegStreamDestroy(r->stream_info);
    if (r->state)
        nvjpegJpegStateDestroy(r->state);
    if (r->handle)
        nvjpegDestroy(r->handle);
    if (r->stream)
        cudaStreamDestroy(r->stream);
}

/* Creates what mode `hw` needs; on an unsupported GPU *no_hardware is set. */
static int setup_hw(run *r, const uint8_t *data, size_t size, int *no_hardware)
{
    nvjpegStatus_t s;
    int unsupported = 0;

    s = nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, NULL, NULL, NVJPEG_FLAGS_DEFAULT, &r->handle);
    if (s == NVJPEG_STATUS_ARCH_MISMATCH || s == NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED ||
        s == NVJPEG_STATUS_JPEG_NOT_SUPPORTED) {
        *no_hardware = 1;
        r->handle = NULL;
        return nvj_ok(r, s, "nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE)");
    }
    if (!nvj_ok(r, s, "nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE)") ||
        !nvj_ok(r, nvjpegJpegStateCreate(r->handle, &r->state), "nvjpegJpegStateCreate") ||
        !nvj_ok(r, nvjpegJpegStreamCreate(r->handle, &r->stream_info), "nvjpegJpegStreamCreate") ||
        !nvj_ok(r, nvjpegJpegStreamParse(r->handle, data, size, 0, 0, r->stream_info),
                "nvjpegJpegStreamParse") ||
        !nvj_ok(r, nvjpegDecodeBatchedSupported(r->handle, r->stream_info, &unsupported),
                "nvjpegDecodeBatchedSupported"))
        return 0;
    if (unsupported) {
        snprintf(r->error, sizeof(r->error), "the hardware decoder does not take this file "
                 "(nvjpegDecodeBatchedSupported)");
        return 0;
    }
    return 1;
}

/*
 * Resets the batched decoder before each batch, as NVIDIA's nvjpegDecoder sample
 * does; it runs on the CPU and is left out of the timings (in nvJPEG's favour).
 */
static int init_batch(run *r, const options *o)
{
    nvjpegOutputFormat_t fmt = o->rgb ? NVJPEG_OUTPUT_RGBI : NVJPEG_OUTPUT_YUV;

    return nvj_ok(r, nvjpegDecodeBatchedInitialize(r->handle, r->state, r->n, 1, fmt),
                  "nvjpegDecodeBatchedInitialize");
}

/* One timed unit: a single decode or a batch, finished on the GPU. */
static int decode_once(run *r, const options *o, int hw, const unsigned char *const *data,
                       const size_t *sizes)
{
    nvjpegOutputFormat_t fmt = o->rgb ? NVJPEG_OUTPUT_RGBI : NVJPEG_OUTPUT_YUV;

    if (hw) {
        if (!nvj_ok(r, nvjpegDecodeBatched(r->handle, r->state, data, sizes, r->images, r->stream),
                    "nvjpegDecodeBatched"))
            return 0;
    } else if (!nvj_ok(r, nvjpegDecode(r->handle, r->state, data[0], sizes[0], fmt, &r->images[0],
                                       r->stream), "nvjpegDecode")) {
        return 0;
    }
    return cuda_ok(r, cudaStreamSynchronize(r->stream), "cudaStreamSynchronize");
}

static void bench_mode(const options *o, int hw, const char *path, const uint8_t *data, size_t size,
                       const bench_jpeg_desc *desc, int *no_hardware)
{
    run r = { .n = hw ? o->batch : 1 };
    const unsigned char **ptrs = calloc((size_t)r.n, sizeof(*ptrs));
    size_t *sizes = calloc((size_t)r.n, sizeof(*sizes)), free_before, free_lowest, free_now;
    double *ms = calloc((size_t)o->iters, sizeof(*ms)), elapsed = 0, pixels, taken;
    char mode[48], notes[128];
    bench_result res;
    int i, n = 0, ok;

    snprintf(mode, sizeof(mode), "%s-%s", hw ? "hw" : "dev", o->rgb ? "rgb24" : "planar");
    if (hw)
        snprintf(mode + strlen(mode), sizeof(mode) - strlen(mode), "-b%d", r.n);
    if (!ptrs || !sizes || !ms) {
        bench_print_failure(path, desc, mode, "out of memory");
        goto end;
    }
    for (i = 0; i < r.n; i++) {
        ptrs[i] = data;
        sizes[i] = size;
    }

    free_before = free_lowest = free_gpu_bytes();
    ok = cuda_ok(&r, cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking),
                 "cudaStreamCreateWithFlags");
    if (ok && hw) {
        ok = setup_hw(&r, data, size, no_hardware);
    } else if (ok) {
        ok = nvj_ok(&r, nvjpegCreateSimple(&r.handle), "nvjpegCreateSimple") &&
             nvj_ok(&r, nvjpegJpegStateCreate(r.handle, &r.state), "nvjpegJpegStateCreate");
    }
    ok = ok && alloc_outputs(&r, o, data, size);
    for (i = 0; ok && i < (hw ? WARMUP_BATCHES : WARMUP_DECODES); i++) {
        ok = (!hw || init_batch(&r, o)) && decode_once(&r, o, hw, ptrs, sizes);
        free_now = free_gpu_bytes();
        if (free_now && free_now < free_lowest)
            free_lowest = free_now;
    }
    while (ok && bench_more_samples(n, o->iters, elapsed, o->seconds * 1e3)) {
        double t0;

        if (hw && !init_batch(&r, o)) {
            ok = 0;
            break;
        }
        t0 = bench_now_ms();
        ok = decode_once(&r, o, hw, ptrs, sizes);
        ms[n] = bench_now_ms() - t0;
        elapsed += ms[n++];
        free_now = free_gpu_bytes();
        if (free_now && free_now < free_lowest)
            free_lowest = free_now;
    }
    if (!ok) {
        bench_print_failure(path, desc, mode, r.error);
        goto end;
    }
    bench_stats(ms, n, r.n, &res);
    pixels = (double)desc->width * desc->height * r.n;
    taken = free_before > free_lowest ? (double)(free_before - free_lowest) : 0;
    snprintf(notes, sizeof(notes), "gpu_mem=%.1fMiB out=%.1fMiB extra=%.2fB/px", taken / 1048576,
             r.output_bytes / 1048576.0, (taken - (double)r.output_bytes) / pixels);
    bench_print_result(path, desc, mode, &res, free_before ? notes : NULL);

end:
    run_free(&r);
    free(ptrs);
    free(sizes);
    free(ms);
}

int main(int argc, char **argv)
{
    options o;
    struct cudaDeviceProp prop;
    int first_file, i, major = 0, minor = 0, patch = 0, runtime = 0, no_hardware = 0;
    cudaError_t e;

    if (parse_options(argc, argv, &o, &first_file) < 0) {
        fprintf(stderr, "bench_nvjpeg --help lists the options\n");
        return 2;
    }
    if ((e = cudaSetDevice(o.device)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, o.device)) != cudaSuccess) {
        fprintf(stderr, "bench_nvjpeg: CUDA device %d: %s (%s)\n", o.device, cudaGetErrorString(e),
                cudaGetErrorName(e));
        return 1;
    }
    nvjpegGetProperty(MAJOR_VERSION, &major);
    nvjpegGetProperty(MINOR_VERSION, &minor);
    nvjpegGetProperty(PATCH_LEVEL, &patch);
    cudaRuntimeGetVersion(&runtime);
    printf("# bench_nvjpeg (nvJPEG %d.%d.%d, CUDA runtime %d.%d) on CUDA: %s: %d timed decodes "
           "per file and mode, output to device memory\n", major, minor, patch, runtime / 1000,
           runtime % 1000 / 10, prop.name, o.iters);
    bench_print_header();
    for (i = first_file; i < argc; i++) {
        bench_jpeg_desc desc = { 0 };
        uint8_t *data = NULL;
        size_t size;

        if (bench_read_file(argv[i], &data, &size) < 0 || bench_probe_jpeg(data, size, &desc) < 0) {
            bench_print_failure(argv[i], &desc, "nvjpeg", "cannot read the file or its JPEG header");
        } else {
            if (o.single)
                bench_mode(&o, 0, argv[i], data, size, &desc, &no_hardware);
            if (o.hw && !no_hardware) {
                bench_mode(&o, 1, argv[i], data, size, &desc, &no_hardware);
                if (no_hardware)
                    printf("# hardware backend: not supported on this GPU\n");
            }
        }
        free(data);
    }
    return 0;
}
