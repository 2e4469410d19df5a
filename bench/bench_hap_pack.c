/*
 * bench_hap_pack: the host's share of HAP encoding, on real DXT blocks.
 *
 *   bench_hap_pack [--threads 1,2,4,8,12,16] [--iters N] [--seconds S] [--device D] FILE.dds...
 *
 * FILE.dds: blocks as `gpujpeg dxt` writes them (BC1 for hap, YCoCg for hap_q,
 * BC3 for hap_alpha). Without --device nothing runs on a GPU: the rows are what
 * the host does per frame, each timed over up to N frames (default 200) or S
 * seconds (default 0.5), median and minimum per frame:
 *   memcpy            a copy of the blocks into a buffer in use (the floor)
 *   packet            malloc + memcpy + free of a buffer of the blocks' size
 *                     (what a packet allocated per frame and filled costs)
 *   oneshot C T       gj_hap_pack(): C chunks on T threads started per frame
 *   packer C T        gj_hap_packer_pack(): the same on a persistent pool
 * C is "auto" (gj_hap_auto_chunks) or a count; T runs over --threads (default
 * 1,2,4,8,12,16). With --device D (e.g. cuda), the blocks are decoded into an
 * RGBA picture in device memory and encoded again (balanced) each frame:
 *   gpu device        gj_dxt_encode into device blocks (the kernel)
 *   gpu pageable      the same into host blocks in ordinary memory
 *   gpu page-locked   the same into page-locked host blocks (gj_dxt_blocks_alloc)
 * One line per row:
 *     hap_pack FILE FORMAT ROW CHUNKS THREADS MEDIAN_MS MIN_MS MB/S(blocks) BYTES/FRAME
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpujpeg/gpujpeg.h>

#include "bench_util.h"

#define MAX_THREAD_COUNTS 16

typedef struct bench_ctx {
    const char *path;
    gj_dxt_blocks blocks;       /* the file's blocks, host memory */
    uint8_t *out;               /* a packed frame, or the memcpy target */
    size_t out_size;
    int iters;
    double seconds;
} bench_ctx;

/* One row's work for one frame: returns the bytes it produced, or < 0. */
typedef long long (*row_fn)(bench_ctx *b, void *arg);

static void print_row(const bench_ctx *b, const char *row, const char *chunks, int threads, row_fn fn, void *arg)
{
    double *ms = malloc(sizeof(*ms) * (size_t)b->iters), start = bench_now_ms();
    long long bytes = 0;
    bench_result r;
    int n = 0;

    if (!ms)
        return;
    fn((bench_ctx *)b, arg);      /* warm-up: pages, threads, snappy's tables */
    while (bench_more_samples(n, b->iters, bench_now_ms() - start, b->seconds * 1000)) {
        double t = bench_now_ms();
        if ((bytes = fn((bench_ctx *)b, arg)) < 0) {
            printf("hap_pack %s %s %s %s %d failed\n", b->path, gj_dxt_format_name(b->blocks.format), row, chunks,
                   threads);
            free(ms);
            return;
        }
        ms[n++] = bench_now_ms() - t;
    }
    bench_stats(ms, n, 1, &r);
    printf("hap_pack %s %s %-15s %4s %2d %8.3f %8.3f %8.0f %10lld\n", b->path, gj_dxt_format_name(b->blocks.format),
           row, chunks, threads, r.median_ms, r.min_ms, (double)b->blocks.size / 1e3 / r.median_ms, bytes);
    fflush(stdout);
    free(ms);
}

static long long row_memcpy(bench_ctx *b, void *arg)
{
    (void)arg;
    memcpy(b->out, b->blocks.data, b->blocks.size);
    return (long long)b->blocks.size;
}

static long long row_packet(bench_ctx *b, void *arg)
{
    volatile uint8_t sink;
    uint8_t *p = malloc(b->blocks.size + 64);

    (void)arg;
    if (!p)
        return -1;
    memcpy(p, b->blocks.data, b->blocks.size);
    sink = p[b->blocks.size / 2];
    (void)sink;
    free(p);
    return (long long)b->blocks.size;
}

typedef struct pack_arg {
    int chunks, threads;
    gj_hap_packer *packer;      /* NULL: gj_hap_pack() */
} pack_arg;

static long long row_pack(bench_ctx *b, void *opaque)
{
    pack_arg *a = opaque;
    size_t n = 0;
    int ret = a->packer ? gj_hap_packer_pack(a->packer, &b->blocks, GJ_HAP_SNAPPY, a->chunks, b->out, b->out_size, &n)
                        : gj_hap_pack(&b->blocks, GJ_HAP_SNAPPY, a->chunks, a->threads, b->out, b->out_size, &n);

    return ret < 0 ? -1 : (long long)n;
}

typedef struct gpu_arg {
    gj_device *dev;
    gj_dxt_encoder *enc;
    gj_frame *picture;
    gj_dxt_blocks *out;
} gpu_arg;

static long long row_gpu(bench_ctx *b, void *opaque)
{
    gpu_arg *a = opaque;
    int ret = gj_dxt_encode(a->enc, a->picture, b->blocks.format, GJ_DXT_QUALITY_BALANCED, a->out);

    if (ret >= 0 && a->out->memory != GJ_MEMORY_HOST)
        ret = gj_device_synchronize(a->dev);
    return ret < 0 ? -1 : (long long)a->out->size;
}

/* The GPU rows: the blocks decoded into an RGBA picture on the device, encoded again per frame. */
static void gpu_rows(bench_ctx *b, const char *device)
{
    gj_device *dev = NULL;
    gj_dxt_decoder *dec = NULL;
    gj_dxt_encoder *enc = NULL;
    gj_frame picture = { .width = b->blocks.width, .height = b->blocks.height, .format = GJ_PIX_FMT_RGBA };
    gj_dxt_blocks out = { .memory = GJ_MEMORY_HOST };
    gpu_arg a;

    if (gj_device_create_from_string(&dev, device) < 0 || gj_dxt_decoder_create(&dec, dev) < 0 ||
        gj_dxt_encoder_create(&enc, dev) < 0) {
        printf("hap_pack %s: no device %s\n", b->path, device);
        goto end;
    }
    picture.memory = gj_device_memory(dev);
    if (gj_dxt_decode(dec, &b->blocks, &picture) < 0 || gj_device_synchronize(dev) < 0) {
        printf("hap_pack %s: cannot decode the blocks on %s\n", b->path, device);
        goto end;
    }
    a.dev = dev;
    a.enc = enc;
    a.picture = &picture;
    a.out = &out;
    out.memory = gj_device_memory(dev);
    print_row(b, "gpu-device", "-", 1, row_gpu, &a);
    gj_dxt_blocks_unref(&out);
    out.memory = GJ_MEMORY_HOST;
    print_row(b, "gpu-pageable", "-", 1, row_gpu, &a);
    gj_dxt_blocks_unref(&out);
    out = (gj_dxt_blocks){ .format = b->blocks.format, .width = picture.width, .height = picture.height,
                           .memory = GJ_MEMORY_HOST };
    if (gj_dxt_blocks_alloc(&out, dev) == 0)
        print_row(b, "gpu-page-locked", "-", 1, row_gpu, &a);
    gj_dxt_blocks_unref(&out);
end:
    gj_frame_unref(&picture);
    gj_dxt_encoder_free(&enc);
    gj_dxt_decoder_free(&dec);
    gj_device_free(&dev);
}

static int bench_file(bench_ctx *b, const int *threads, int nb_threads, const char *device)
{
    const int counts[] = { 16, 64 };
    char auto_name[16];
    int auto_chunks, max_threads = 1;
    uint8_t *data;
    size_t size, offset;
    pack_arg a;

    if (bench_read_file(b->path, &data, &size) < 0)
        return -1;
    memset(&b->blocks, 0, sizeof(b->blocks));
    if (gj_dds_parse_header(data, size, &b->blocks.format, &b->blocks.width, &b->blocks.height, &offset) < 0) {
        free(data);
        return -1;
    }
    b->blocks.memory = GJ_MEMORY_HOST;
    b->blocks.data = data;
    b->blocks.offset = offset;
    b->blocks.size = gj_dxt_size(b->blocks.format, b->blocks.width, b->blocks.height);
    auto_chunks = gj_hap_auto_chunks(b->blocks.size);
    b->out_size = gj_hap_max_size(b->blocks.size, GJ_HAP_MAX_CHUNKS);
    if (gj_hap_max_size(b->blocks.size, 1) > b->out_size)
        b->out_size = gj_hap_max_size(b->blocks.size, 1);
    if (!(b->out = malloc(b->out_size))) {
        free(data);
        return -1;
    }
    /* the blocks start at offset: point data there, as packers read data + offset */
    b->blocks.data = data + offset;
    b->blocks.offset = 0;
    snprintf(auto_name, sizeof(auto_name), "%d", auto_chunks);
    printf("# %s: %s %dx%d, %zu bytes of blocks, auto chunks %d\n", b->path, gj_dxt_format_name(b->blocks.format),
           b->blocks.width, b->blocks.height, b->blocks.size, auto_chunks);
    print_row(b, "memcpy", "-", 1, row_memcpy, NULL);
    print_row(b, "packet", "-", 1, row_packet, NULL);
    a = (pack_arg){ .chunks = 1, .threads = 1 };
    print_row(b, "oneshot", "1", 1, row_pack, &a);
    for (int i = 0; i < nb_threads; i++) {
        a = (pack_arg){ .chunks = auto_chunks, .threads = threads[i] };
        print_row(b, "oneshot", auto_name, threads[i], row_pack, &a);
        if (gj_hap_packer_create(&a.packer, threads[i]) < 0)
            continue;
        print_row(b, "packer", auto_name, threads[i], row_pack, &a);
        gj_hap_packer_free(&a.packer);
        max_threads = threads[i] > max_threads ? threads[i] : max_threads;
    }
    for (int i = 0; i < 2; i++) {
        char name[16];
        a = (pack_arg){ .chunks = counts[i], .threads = max_threads };
        snprintf(name, sizeof(name), "%d", counts[i]);
        if (gj_hap_packer_create(&a.packer, max_threads) < 0)
            continue;
        print_row(b, "packer", name, max_threads, row_pack, &a);
        gj_hap_packer_free(&a.packer);
    }
    if (device)
        gpu_rows(b, device);
    free(b->out);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int threads[MAX_THREAD_COUNTS] = { 1, 2, 4, 8, 12, 16 }, nb_threads = 6, first = 0, failed = 0, i;
    const char *device = NULL, *value;
    bench_ctx b = { .iters = 200, .seconds = 0.5 };

    for (i = 1; i < argc; i++) {
        int r;
        if ((r = bench_option_value(argc, argv, &i, "--device", &value)) != 0) {
            if (r < 0)
                return 2;
            device = value;
        } else if ((r = bench_option_value(argc, argv, &i, "--threads", &value)) != 0) {
            char *end;
            if (r < 0)
                return 2;
            for (nb_threads = 0; *value && nb_threads < MAX_THREAD_COUNTS; value = *end ? end + 1 : end) {
                long t = strtol(value, &end, 10);
                if (end == value || t < 1 || t > GJ_HAP_MAX_CHUNKS || (*end && *end != ',')) {
                    fprintf(stderr, "--threads: a list of counts 1 to %d, e.g. 1,2,4,8\n", GJ_HAP_MAX_CHUNKS);
                    return 2;
                }
                threads[nb_threads++] = (int)t;
            }
        } else if ((r = bench_common_option(argc, argv, &i, &b.iters, &b.seconds)) != 0) {
            if (r < 0)
                return 2;
        } else {
            break;
        }
    }
    if (bench_options_end(argc, argv, i, &first) < 0)
        return 2;
    if (!gj_hap_snappy_available()) {
        fprintf(stderr, "bench_hap_pack: libgpujpeg was built without libsnappy\n");
        return 1;
    }
    printf("# hap_pack FILE FORMAT ROW CHUNKS THREADS MEDIAN_MS MIN_MS MB/S(blocks) BYTES/FRAME\n");
    for (i = first; i < argc; i++) {
        b.path = argv[i];
        failed |= bench_file(&b, threads, nb_threads, device) < 0;
    }
    return failed;
}
