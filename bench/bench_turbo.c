/*
 * bench_turbo: times libjpeg-turbo decoding whole files to RGB, the CPU peer of
 * bench_decode.
 *
 *   bench_turbo [--iters N] [--seconds S] [--threads T] FILE.jpg...
 *
 * Decodes as djpeg does by default (islow IDCT, fancy upsampling, RGB output)
 * from memory into a buffer allocated once.
 * 1 thread (mode "rgb24-1t"): 3 warm-up decodes, then up to N timed decodes
 *     (default 50; at least 5, no more once S seconds (default 5) have passed).
 * --threads T (mode "rgb24-Tt", in addition): T threads each decode the file
 *     over and over for S seconds (default 5, at most 2 here); img/s is the sum
 *     over the threads, median_ms the median time of one decode.
 *
 * Built on a Debian machine and carried to the GPU machine with its library
 * (that one may have no libjpeg headers):
 *   gcc -O2 -std=gnu11 bench/bench_turbo.c bench/bench_util.c -o bench_turbo -ljpeg -lpthread
 *   cp -L /usr/lib/x86_64-linux-gnu/libjpeg.so.62 .   # run with LD_LIBRARY_PATH=.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "bench_util.h"

#define WARMUP_DECODES 3
/* The all-cores run lasts min(--seconds, this): enough for a steady rate. */
#define THREADED_SECONDS_MAX 2.0
/* Per-thread bound on the recorded decode times. */
#define THREAD_MAX_SAMPLES 100000

typedef struct options {
    int iters;
    double seconds;
    int threads;
} options;

/* libjpeg's error manager, made to return to the decoder instead of exiting. */
typedef struct decoder_error {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} decoder_error;

/* One decoding context: a thread's own decompressor and output buffer. */
typedef struct decoder {
    struct jpeg_decompress_struct cinfo;
    decoder_error err;
    unsigned char *pixels;
    size_t pixels_size;
} decoder;

/* What one thread of the all-cores run shares and returns. */
typedef struct worker {
    pthread_t thread;
    pthread_barrier_t *start;
    const uint8_t *data;
    size_t size;
    double duration_ms;
    double *ms;             /* THREAD_MAX_SAMPLES */
    long decoded;           /* all decodes, including those past the sample bound */
    int samples;
    int failed;
} worker;

static void error_exit(j_common_ptr cinfo)
{
    decoder_error *err = (decoder_error *)cinfo->err;

    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void decoder_init(decoder *d)
{
    memset(d, 0, sizeof(*d));
    d->cinfo.err = jpeg_std_error(&d->err.mgr);
    d->err.mgr.error_exit = error_exit;
    jpeg_create_decompress(&d->cinfo);
}

static void decoder_free(decoder *d)
{
    jpeg_destroy_decompress(&d->cinfo);
    free(d->pixels);
}

/* Decodes one image to RGB; 0, or -1 with d->err.message set. */
static int decode_rgb(decoder *d, const uint8_t *data, size_t size)
{
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    size_t stride, needed;

    if (setjmp(d->err.jump)) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    cinfo->out_color_space = JCS_RGB;
    cinfo->dct_method = JDCT_ISLOW;     /* djpeg's defaults, spelt out */
    cinfo->do_fancy_upsampling = TRUE;
    jpeg_start_decompress(cinfo);
    stride = (size_t)cinfo->output_width * cinfo->output_components;
    needed = stride * cinfo->output_height;
    if (needed > d->pixels_size) {
        unsigned char *p = realloc(d->pixels, needed);

        if (!p) {
            snprintf(d->err.message, sizeof(d->err.message), "out of memory");
            jpeg_abort_decompress(cinfo);
            return -1;
        }
        d->pixels = p;
        d->pixels_size = needed;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[16];
        unsigned i, n = cinfo->output_height - cinfo->output_scanline;

        if (n > 16)
            n = 16;
        for (i = 0; i < n; i++)
            rows[i] = d->pixels + (cinfo->output_scanline + i) * stride;
        jpeg_read_scanlines(cinfo, rows, n);
    }
    jpeg_finish_decompress(cinfo);
    return 0;
}

static void usage(void)
{
    printf("usage: bench_turbo [--iters N] [--seconds S] [--threads T] FILE.jpg...\n"
           "  --iters N      timed single-thread decodes per file (default 50)\n"
           "  --seconds S    time budget per file and mode (default 5; all-cores runs at most 2)\n"
           "  --threads T    also decode with T threads at once and report the total rate\n");
}

static int parse_options(int argc, char **argv, options *o, int *first_file)
{
    int i;

    *o = (options){ .iters = 50, .seconds = 5 };
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        int r;

        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            exit(0);
        }
        if ((r = bench_common_option(argc, argv, &i, &o->iters, &o->seconds)) != 0) {
            if (r < 0)
                return -1;
        } else if ((r = bench_option_value(argc, argv, &i, "--threads", &v)) != 0) {
            if (r < 0 || bench_parse_int("--threads", v, 1, &o->threads) < 0)
                return -1;
        } else {
            break;
        }
    }
    return bench_options_end(argc, argv, i, first_file);
}

static void bench_single(const options *o, const char *path, const uint8_t *data, size_t size,
                         const bench_jpeg_desc *desc)
{
    double *ms = calloc((size_t)o->iters, sizeof(*ms)), elapsed = 0;
    bench_result r;
    decoder d;
    int i, n = 0;

    if (!ms) {
        bench_print_failure(path, desc, "rgb24-1t", "out of memory");
        return;
    }
    decoder_init(&d);
    for (i = 0; i < WARMUP_DECODES; i++) {
        if (decode_rgb(&d, data, size) < 0) {
            bench_print_failure(path, desc, "rgb24-1t", d.err.message);
            goto end;
        }
    }
    while (bench_more_samples(n, o->iters, elapsed, o->seconds * 1e3)) {
        double t0 = bench_now_ms();

        if (decode_rgb(&d, data, size) < 0) {
            bench_print_failure(path, desc, "rgb24-1t", d.err.message);
            goto end;
        }
        ms[n] = bench_now_ms() - t0;
        elapsed += ms[n++];
    }
    bench_stats(ms, n, 1, &r);
    bench_print_result(path, desc, "rgb24-1t", &r, NULL);
end:
    decoder_free(&d);
    free(ms);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    decoder d;
    double start, t0, t1;

    decoder_init(&d);
    if (decode_rgb(&d, w->data, w->size) < 0)   /* warm-up: allocates the buffer */
        w->failed = 1;
    pthread_barrier_wait(w->start);
    start = t1 = bench_now_ms();
    while (!w->failed && t1 - start < w->duration_ms) {
        t0 = t1;
        if (decode_rgb(&d, w->data, w->size) < 0) {
            w->failed = 1;
            break;
        }
        t1 = bench_now_ms();
        if (w->samples < THREAD_MAX_SAMPLES)
            w->ms[w->samples++] = t1 - t0;
        w->decoded++;
    }
    decoder_free(&d);
    return NULL;
}

static void bench_threads(const options *o, const char *path, const uint8_t *data, size_t size,
                          const bench_jpeg_desc *desc)
{
    double duration = (o->seconds < THREADED_SECONDS_MAX ? o->seconds : THREADED_SECONDS_MAX) * 1e3;
    worker *w = calloc((size_t)o->threads, sizeof(*w));
    double *all = calloc((size_t)o->threads * THREAD_MAX_SAMPLES, sizeof(*all)), t0, wall;
    pthread_barrier_t start;
    bench_result r;
    char mode[32];
    long decoded = 0;
    int i, started = 0, failed = 0, n = 0;

    snprintf(mode, sizeof(mode), "rgb24-%dt", o->threads);
    if (!w || !all || pthread_barrier_init(&start, NULL, (unsigned)o->threads + 1) != 0) {
        bench_print_failure(path, desc, mode, "out of memory");
        free(w);
        free(all);
        return;
    }
    for (i = 0; i < o->threads; i++) {
        w[i] = (worker){ .start = &start, .data = data, .size = size, .duration_ms = duration,
                         .ms = all + (size_t)i * THREAD_MAX_SAMPLES };
        if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) != 0)
            break;
        started++;
    }
    if (started < o->threads) {
        /* The barrier waits for every thread: it cannot be used with fewer. */
        fprintf(stderr, "bench_turbo: could only start %d of %d threads\n", started, o->threads);
        exit(1);
    }
    pthread_barrier_wait(&start);
    t0 = bench_now_ms();
    for (i = 0; i < o->threads; i++) {
        pthread_join(w[i].thread, NULL);
        failed |= w[i].failed;
        decoded += w[i].decoded;
        memmove(all + n, w[i].ms, (size_t)w[i].samples * sizeof(*all));
        n += w[i].samples;
    }
    wall = bench_now_ms() - t0;
    pthread_barrier_destroy(&start);
    if (failed || n == 0) {
        bench_print_failure(path, desc, mode, failed ? "a decode failed" : "no decode finished");
    } else {
        bench_stats(all, n, 1, &r);
        r.images_per_s = decoded / (wall / 1e3);
        bench_print_result(path, desc, mode, &r, NULL);
    }
    free(w);
    free(all);
}

int main(int argc, char **argv)
{
    options o;
    int first_file, i;

    if (parse_options(argc, argv, &o, &first_file) < 0) {
        fprintf(stderr, "bench_turbo --help lists the options\n");
        return 2;
    }
    printf("# bench_turbo (libjpeg-turbo, libjpeg API %d) on the CPU: islow IDCT, fancy "
           "upsampling, RGB output%s\n", JPEG_LIB_VERSION, o.threads ? ", 1 thread and more" : "");
    bench_print_header();
    for (i = first_file; i < argc; i++) {
        bench_jpeg_desc desc = { 0 };
        uint8_t *data = NULL;
        size_t size;

        if (bench_read_file(argv[i], &data, &size) < 0 || bench_probe_jpeg(data, size, &desc) < 0) {
            bench_print_failure(argv[i], &desc, "rgb24-1t", "cannot read the file or its JPEG header");
        } else {
            bench_single(&o, argv[i], data, size, &desc);
            if (o.threads)
                bench_threads(&o, argv[i], data, size, &desc);
        }
        free(data);
    }
    return 0;
}
