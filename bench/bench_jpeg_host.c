/*
 * bench_jpeg_host: times the JPEG decoder's host work alone, on any machine.
 *
 *   bench_jpeg_host [--iters N] FILE.jpg...
 *
 * Decodes each file N times (default 300, after 3 warm-ups) with the real decoder
 * on a device whose operations do nothing (no kernels, no copies; host_alloc is
 * malloc), GJ_PROFILE=2, and prints the medians of the host stages that GPU work
 * would overlap with: "parse" (the markers and the walk that copies each scan
 * without its stuffed bytes) and "layout" (restart intervals, chunks, scan
 * parameters), and of the whole host decode. The walk of restart-rich files
 * (GPUJPEG's: a marker every 30 blocks) is what it was written for
 * (doc/benchmarks.md, ninth session). Links the library statically (internal
 * device layer: a new device operation needs a null one here).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "device/device.h"
#include "gpujpeg/jpeg.h"

static uintptr_t next_handle = 1;

static void null_destroy(gj_device *dev) { (void)dev; }

static int null_buffer_create(gj_device *dev, size_t size, gj_buffer *buf)
{
    (void)dev;
    buf->handle = next_handle++;
    buf->size = size;
    return 0;
}

static void null_buffer_destroy(gj_device *dev, gj_buffer *buf) { (void)dev; buf->handle = 0; }
static void *null_host_alloc(gj_device *dev, size_t size) { (void)dev; return malloc(size); }
static void null_host_free(gj_device *dev, void *ptr) { (void)dev; free(ptr); }

static int null_upload(gj_device *dev, const gj_buffer *dst, size_t dst_offset, const void *src, size_t size)
{
    (void)dev; (void)dst; (void)dst_offset; (void)src; (void)size;
    return 0;
}

static int null_download(gj_device *dev, void *dst, const gj_buffer *src, size_t src_offset, size_t size)
{
    (void)dev; (void)dst; (void)src; (void)src_offset; (void)size;
    return 0;
}

static int null_download_2d(gj_device *dev, void *dst, size_t dst_pitch, const gj_buffer *src, size_t src_offset,
                            size_t src_pitch, size_t width_bytes, size_t height)
{
    (void)dev; (void)dst; (void)dst_pitch; (void)src; (void)src_offset; (void)src_pitch; (void)width_bytes;
    (void)height;
    return 0;
}

static int null_copy_2d(gj_device *dev, const gj_buffer *dst, size_t dst_offset, size_t dst_pitch,
                        const gj_buffer *src, size_t src_offset, size_t src_pitch, size_t width_bytes, size_t height)
{
    (void)dev; (void)dst; (void)dst_offset; (void)dst_pitch; (void)src; (void)src_offset; (void)src_pitch;
    (void)width_bytes; (void)height;
    return 0;
}

static int null_fill_zero(gj_device *dev, const gj_buffer *buf, size_t offset, size_t size)
{
    (void)dev; (void)buf; (void)offset; (void)size;
    return 0;
}

/* No views: the decoder allocates (nothing) instead. */
static int null_view_create(gj_device *dev, const gj_buffer *parent, size_t offset, size_t size, gj_buffer *view,
                            size_t *start)
{
    (void)dev; (void)parent; (void)offset; (void)size; (void)view; (void)start;
    return GJ_ERROR_UNSUPPORTED;
}

static void null_view_release(gj_device *dev, gj_buffer *view) { (void)dev; (void)view; }

static int null_launch(gj_device *dev, const char *name, size_t groups, size_t group_size, const gj_karg *args,
                       int nargs)
{
    (void)dev; (void)name; (void)groups; (void)group_size; (void)args; (void)nargs;
    return 0;
}

static int null_finish(gj_device *dev) { (void)dev; return 0; }

/* No lanes: single decodes only. */
static int null_open_sibling(gj_device *dev, gj_device **sibling, int urgent)
{
    (void)dev; (void)sibling; (void)urgent;
    return GJ_ERROR_UNSUPPORTED;
}

static int null_wait_for(gj_device *dev, gj_device *other) { (void)dev; (void)other; return 0; }

/* Device memory of its own kind, so that output frames stay "on the device". */
static const gj_device_ops null_ops = {
    .backend        = GJ_BACKEND_CUDA,
    .memory         = GJ_MEMORY_CUDA,
    .destroy        = null_destroy,
    .buffer_create  = null_buffer_create,
    .buffer_destroy = null_buffer_destroy,
    .host_alloc     = null_host_alloc,
    .host_free      = null_host_free,
    .upload         = null_upload,
    .download       = null_download,
    .download_2d    = null_download_2d,
    .copy_2d        = null_copy_2d,
    .fill_zero      = null_fill_zero,
    .view_create    = null_view_create,
    .view_release   = null_view_release,
    .launch         = null_launch,
    .finish         = null_finish,
    .open_sibling   = null_open_sibling,
    .wait_for       = null_wait_for,
};

/* The stage times of the last decode, from the decoder's GJ_PROFILE line. */
static double last_parse, last_layout;

static void read_profile(void *opaque, int level, const char *message)
{
    const char *p = strstr(message, "parse ");

    (void)opaque;
    (void)level;
    if (p && sscanf(p, "parse %lf layout %lf", &last_parse, &last_layout) != 2)
        last_parse = last_layout = -1;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), compare_doubles);
    return v[n / 2];
}

static int bench_file(gj_jpeg_decoder *dec, const char *path, int iters)
{
    double *parse = calloc((size_t)iters, sizeof(double)), *layout = calloc((size_t)iters, sizeof(double));
    double *whole = calloc((size_t)iters, sizeof(double));
    uint8_t *data;
    size_t size;
    int i, ret = -1;

    if (!parse || !layout || !whole || bench_read_file(path, &data, &size) < 0)
        goto done;
    for (i = -3; i < iters; i++) {
        gj_frame out = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_CUDA };
        double t = bench_now_ms();
        int err = gj_jpeg_decode(dec, data, size, &out);

        t = bench_now_ms() - t;
        gj_frame_unref(&out);
        if (err < 0) {
            fprintf(stderr, "%s: %s\n", path, gj_strerror(err));
            goto done_data;
        }
        if (i >= 0) {
            parse[i] = last_parse;
            layout[i] = last_layout;
            whole[i] = t;
        }
    }
    printf("%-32s parse %.3f  layout %.3f  whole host decode %.3f ms (medians of %d)\n", path,
           median(parse, iters), median(layout, iters), median(whole, iters), iters);
    ret = 0;
done_data:
    free(data);
done:
    free(parse);
    free(layout);
    free(whole);
    return ret;
}

int main(int argc, char **argv)
{
    gj_device dev = { .ops = &null_ops, .view_align = 256 };
    gj_jpeg_decoder *dec;
    int iters = 300, i = 1, failed = 0;

    if (argc > 2 && !strcmp(argv[1], "--iters")) {
        iters = atoi(argv[2]);
        i = 3;
    }
    if (i >= argc || iters < 1) {
        fprintf(stderr, "usage: bench_jpeg_host [--iters N] FILE.jpg...\n");
        return 2;
    }
    setenv("GJ_PROFILE", "2", 1);
    gj_log_set_callback(read_profile, NULL);
    gj_log_set_level(GJ_LOG_INFO);
    if (gj_jpeg_decoder_create(&dec, &dev) < 0)
        return 1;
    for (; i < argc; i++)
        failed |= bench_file(dec, argv[i], iters) < 0;
    gj_jpeg_decoder_free(&dec);
    return failed;
}
