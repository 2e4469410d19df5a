/*
 * bench_nvjpeg_encode: times NVIDIA nvJPEG encoding, the peer of bench_encode.
 *
 *   bench_nvjpeg_encode [--device N] [--iters N] [--seconds S] [--quality Q] FILE.jpg...
 *
 * Each file decodes once with nvJPEG into device memory, as interleaved RGB and
 * as planar YUV, then is encoded at quality Q (default 90), 4:2:0, standard
 * Huffman tables. Modes (as bench_encode's):
 *   device-rgb24  nvjpegEncodeImage(NVJPEG_INPUT_RGBI) from device memory
 *   device-yuv    nvjpegEncodeYUV() of the decoded 4:2:0 planes
 *   host-rgb24    the RGB picture copied from (pageable) host memory first
 * each timed from the first call to the bitstream in host memory
 * (nvjpegEncodeRetrieveBitstream, cudaStreamSynchronize): 3 warm-up encodes,
 * then up to N timed ones (default 50; at least 5, no more once S seconds
 * (default 5) have passed).
 *
 * Build (CUDA=/usr/local/cuda):
 *   gcc -O2 -std=gnu11 -I$CUDA/include bench/bench_nvjpeg_encode.c bench/bench_util.c \
 *       -o bench_nvjpeg_encode -L$CUDA/lib64 -lnvjpeg -lcudart -Wl,-rpath,$CUDA/lib64
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nvjpeg.h>

#include "bench_util.h"

#define WARMUP 3

typedef struct context {
    nvjpegHandle_t handle;
    nvjpegEncoderState_t state;
    nvjpegEncoderParams_t params;
    cudaStream_t stream;
    unsigned char *bitstream;
    size_t capacity;
} context;

#define NV(call) do { nvjpegStatus_t s_ = (call); if (s_ != NVJPEG_STATUS_SUCCESS) { \
    fprintf(stderr, "bench_nvjpeg_encode: %s: status %d\n", #call, (int)s_); return -1; } } while (0)
#define CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "bench_nvjpeg_encode: %s: %s\n", #call, cudaGetErrorString(e_)); return -1; } } while (0)

/* One encode: the picture (uploaded first from `host` when not NULL) to a bitstream in host memory. */
static int encode(context *c, const nvjpegImage_t *img, int yuv, int w, int h, const void *host, size_t host_size,
                  size_t *length)
{
    size_t len = 0;

    if (host)
        CU(cudaMemcpyAsync(img->channel[0], host, host_size, cudaMemcpyHostToDevice, c->stream));
    if (yuv)
        NV(nvjpegEncodeYUV(c->handle, c->state, c->params, img, NVJPEG_CSS_420, w, h, c->stream));
    else
        NV(nvjpegEncodeImage(c->handle, c->state, c->params, img, NVJPEG_INPUT_RGBI, w, h, c->stream));
    NV(nvjpegEncodeRetrieveBitstream(c->handle, c->state, NULL, &len, c->stream));
    if (len > c->capacity) {
        free(c->bitstream);
        c->capacity = len;
        if (!(c->bitstream = malloc(len)))
            return -1;
    }
    NV(nvjpegEncodeRetrieveBitstream(c->handle, c->state, c->bitstream, &len, c->stream));
    CU(cudaStreamSynchronize(c->stream));
    *length = len;
    return 0;
}

static void run_mode(context *c, const char *path, const bench_jpeg_desc *desc, const char *mode,
                     const nvjpegImage_t *img, int yuv, const void *host, size_t host_size, int iters,
                     double seconds)
{
    double ms[1000], start;
    size_t len = 0;
    char notes[64];
    bench_result r;
    int n = 0, i, ret = 0;

    for (i = 0; i < WARMUP && ret >= 0; i++)
        ret = encode(c, img, yuv, desc->width, desc->height, host, host_size, &len);
    start = bench_now_ms();
    while (ret >= 0 && bench_more_samples(n, iters < 1000 ? iters : 1000, bench_now_ms() - start, seconds * 1e3)) {
        double t0 = bench_now_ms();
        ret = encode(c, img, yuv, desc->width, desc->height, host, host_size, &len);
        ms[n++] = bench_now_ms() - t0;
    }
    if (ret < 0) {
        bench_print_failure(path, desc, mode, "nvJPEG error");
        return;
    }
    bench_stats(ms, n, 1, &r);
    snprintf(notes, sizeof(notes), "%zu bytes", len);
    bench_print_result(path, desc, mode, &r, notes);
}

/* Decodes the file into device RGBI and YUV pictures with nvJPEG. */
static int decode(context *c, const uint8_t *data, size_t size, int w, int h, nvjpegImage_t *rgb,
                  nvjpegImage_t *yuv)
{
    nvjpegJpegState_t js;
    int i;

    memset(rgb, 0, sizeof(*rgb));
    memset(yuv, 0, sizeof(*yuv));
    rgb->pitch[0] = (size_t)w * 3;
    CU(cudaMalloc((void **)&rgb->channel[0], rgb->pitch[0] * h));
    for (i = 0; i < 3; i++) {
        yuv->pitch[i] = i ? (size_t)(w + 1) / 2 : (size_t)w;
        CU(cudaMalloc((void **)&yuv->channel[i], yuv->pitch[i] * (i ? (h + 1) / 2 : h)));
    }
    NV(nvjpegJpegStateCreate(c->handle, &js));
    NV(nvjpegDecode(c->handle, js, data, size, NVJPEG_OUTPUT_RGBI, rgb, c->stream));
    NV(nvjpegDecode(c->handle, js, data, size, NVJPEG_OUTPUT_YUV, yuv, c->stream));
    CU(cudaStreamSynchronize(c->stream));
    NV(nvjpegJpegStateDestroy(js));
    return 0;
}

static int setup(context *c, int quality)
{
    CU(cudaStreamCreate(&c->stream));
    NV(nvjpegCreateSimple(&c->handle));
    NV(nvjpegEncoderStateCreate(c->handle, &c->state, c->stream));
    NV(nvjpegEncoderParamsCreate(c->handle, &c->params, c->stream));
    NV(nvjpegEncoderParamsSetQuality(c->params, quality, c->stream));
    NV(nvjpegEncoderParamsSetSamplingFactors(c->params, NVJPEG_CSS_420, c->stream));
    NV(nvjpegEncoderParamsSetOptimizedHuffman(c->params, 0, c->stream));
    return 0;
}

int main(int argc, char **argv)
{
    int device = 0, iters = 50, quality = 90, first, i, r;
    double seconds = 5;
    const char *v;
    context c = { 0 };

    for (i = 1; i < argc; i++) {
        if ((r = bench_option_value(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0 || bench_parse_int("--device", v, 0, &device) < 0)
                return 2;
        } else if ((r = bench_encode_option(argc, argv, &i, &quality, &iters, &seconds)) != 0) {
            if (r < 0)
                return 2;
        } else {
            break;
        }
    }
    if (bench_options_end(argc, argv, i, &first) < 0)
        return 2;
    if (cudaSetDevice(device) != cudaSuccess || setup(&c, quality) < 0)
        return 1;
    printf("# bench_nvjpeg_encode: nvJPEG %s, q%d 4:2:0, bitstream in host memory\n", "encoder", quality);
    bench_print_header();
    for (i = first; i < argc; i++) {
        bench_jpeg_desc desc;
        nvjpegImage_t rgb, yuv;
        uint8_t *data, *host;
        size_t size, rgb_size;
        char mode[64];

        if (bench_read_file(argv[i], &data, &size) < 0 || bench_probe_jpeg(data, size, &desc) < 0)
            continue;
        if (decode(&c, data, size, desc.width, desc.height, &rgb, &yuv) < 0) {
            bench_print_failure(argv[i], &desc, "decode", "nvJPEG could not decode the file");
            continue;
        }
        rgb_size = (size_t)desc.width * desc.height * 3;
        host = malloc(rgb_size);
        cudaMemcpy(host, rgb.channel[0], rgb_size, cudaMemcpyDeviceToHost);
        snprintf(mode, sizeof(mode), "device-rgb24-q%d-420", quality);
        run_mode(&c, argv[i], &desc, mode, &rgb, 0, NULL, 0, iters, seconds);
        snprintf(mode, sizeof(mode), "device-yuv-q%d-420", quality);
        run_mode(&c, argv[i], &desc, mode, &yuv, 1, NULL, 0, iters, seconds);
        snprintf(mode, sizeof(mode), "host-rgb24-q%d-420", quality);
        run_mode(&c, argv[i], &desc, mode, &rgb, 0, host, rgb_size, iters, seconds);
        free(host);
        cudaFree(rgb.channel[0]);
        for (int p = 0; p < 3; p++)
            cudaFree(yuv.channel[p]);
        free(data);
    }
    return 0;
}
