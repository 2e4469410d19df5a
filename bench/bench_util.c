/* Shared helpers of the benchmark programs; see bench_util.h. */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A timed loop takes at least this many samples, whatever its time budget. */
#define MIN_SAMPLES 5

double bench_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int bench_read_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long len;
    uint8_t *buf;

    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "%s: cannot find the file size: %s\n", path, strerror(errno));
        fclose(f);
        return -1;
    }
    if (len == 0 || !(buf = malloc((size_t)len))) {
        fprintf(stderr, "%s: %s\n", path, len == 0 ? "empty file" : "out of memory");
        fclose(f);
        return -1;
    }
    if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "%s: short read\n", path);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    *data = buf;
    *size = (size_t)len;
    return 0;
}

/* The usual name of a sampling, from the factors of the SOF components. */
static void name_sampling(int nc, const int *h, const int *v, char *out, size_t out_size)
{
    static const struct { int h, v; const char *name; } names[] = {
        { 1, 1, "4:4:4" }, { 2, 1, "4:2:2" }, { 2, 2, "4:2:0" },
        { 1, 2, "4:4:0" }, { 4, 1, "4:1:1" },
    };
    size_t len = 0;
    int i;

    if (nc == 1) {
        snprintf(out, out_size, "gray");
        return;
    }
    if (nc == 3 && h[1] == 1 && v[1] == 1 && h[2] == 1 && v[2] == 1) {
        for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
            if (h[0] == names[i].h && v[0] == names[i].v) {
                snprintf(out, out_size, "%s", names[i].name);
                return;
            }
        }
    }
    out[0] = '\0';
    for (i = 0; i < nc && len + 1 < out_size; i++)
        len += (size_t)snprintf(out + len, out_size - len, "%s%dx%d", i ? "," : "", h[i], v[i]);
}

int bench_probe_jpeg(const uint8_t *data, size_t size, bench_jpeg_desc *desc)
{
    size_t pos = 2;
    int have_sof = 0;

    memset(desc, 0, sizeof(*desc));
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) {
        fprintf(stderr, "not a JPEG file (no SOI marker)\n");
        return -1;
    }
    while (pos + 4 <= size) {
        int marker;
        size_t len;

        if (data[pos] != 0xFF) {
            fprintf(stderr, "bad marker at byte %zu\n", pos);
            return -1;
        }
        marker = data[pos + 1];
        if (marker == 0xFF) {           /* fill byte (T.81 B.1.1.2) */
            pos++;
            continue;
        }
        len = (size_t)data[pos + 2] << 8 | data[pos + 3];
        if (len < 2 || pos + 2 + len > size) {
            fprintf(stderr, "marker 0xFF%02X at byte %zu runs past the end\n", marker, pos);
            return -1;
        }
        if (marker == 0xDA)             /* SOS: the header ends here */
            break;
        if (marker == 0xDD && len >= 4) /* DRI */
            desc->restart_interval = data[pos + 4] << 8 | data[pos + 5];
        /* SOFn, except DHT (C4), JPG (C8) and DAC (CC) */
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
            marker != 0xCC && len >= 8) {
            const uint8_t *p = data + pos + 4;
            int nc = p[5], h[4] = { 0 }, v[4] = { 0 }, i;

            if (nc < 1 || nc > 4 || len < 8 + 3 * (size_t)nc) {
                fprintf(stderr, "SOF: bad component count %d\n", nc);
                return -1;
            }
            desc->height = p[1] << 8 | p[2];
            desc->width = p[3] << 8 | p[4];
            for (i = 0; i < nc; i++) {
                h[i] = p[7 + 3 * i] >> 4;
                v[i] = p[7 + 3 * i] & 15;
            }
            name_sampling(nc, h, v, desc->sampling, sizeof(desc->sampling));
            have_sof = 1;
        }
        pos += 2 + len;
    }
    if (!have_sof) {
        fprintf(stderr, "no frame header (SOF) before the first scan\n");
        return -1;
    }
    return 0;
}

int bench_option_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t len = strlen(name);

    if (strncmp(argv[*i], name, len) != 0)
        return 0;
    if (argv[*i][len] == '=') {
        *value = argv[*i] + len + 1;
        return 1;
    }
    if (argv[*i][len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int bench_parse_int(const char *option, const char *value, int min, int *out)
{
    char *end;
    long n;

    errno = 0;
    n = strtol(value, &end, 10);
    if (errno || end == value || *end || n < min || n > 1000000) {
        fprintf(stderr, "%s: expected an integer from %d to 1000000, got '%s'\n", option, min, value);
        return -1;
    }
    *out = (int)n;
    return 0;
}

int bench_parse_seconds(const char *option, const char *value, double *out)
{
    char *end;
    double s;

    errno = 0;
    s = strtod(value, &end);
    if (errno || end == value || *end || !(s > 0 && s <= 3600)) {
        fprintf(stderr, "%s: expected a number of seconds, got '%s'\n", option, value);
        return -1;
    }
    *out = s;
    return 0;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

void bench_stats(double *ms, int n, int images_per_sample, bench_result *r)
{
    double median;

    qsort(ms, (size_t)n, sizeof(*ms), compare_double);
    median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    r->median_ms = median / images_per_sample;
    r->min_ms = ms[0] / images_per_sample;
    r->images_per_s = r->median_ms > 0 ? 1e3 / r->median_ms : 0;
    r->samples = n;
}

int bench_more_samples(int samples, int max_samples, double elapsed_ms, double budget_ms)
{
    if (samples >= max_samples)
        return 0;
    return samples < MIN_SAMPLES || elapsed_ms < budget_ms;
}

void bench_print_header(void)
{
    printf("# %-30s %-9s %-8s %-8s %-16s %9s %9s %9s %9s %s\n", "file", "size", "sampling",
           "restart", "mode", "median_ms", "min_ms", "img/s", "Mpix/s", "notes");
}

/* The file name without its directories: the tables stay narrow. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

static void print_columns(const char *path, const bench_jpeg_desc *desc, const char *mode)
{
    char size[32], restart[16];

    snprintf(size, sizeof(size), "%dx%d", desc->width, desc->height);
    if (desc->restart_interval)
        snprintf(restart, sizeof(restart), "rst%d", desc->restart_interval);
    else
        snprintf(restart, sizeof(restart), "none");
    printf("%-32s %-9s %-8s %-8s %-16s", base_name(path), size, desc->sampling[0] ? desc->sampling : "?",
           restart, mode);
}

void bench_print_result(const char *path, const bench_jpeg_desc *desc, const char *mode,
                        const bench_result *r, const char *notes)
{
    double mpix_s = r->images_per_s * desc->width * desc->height / 1e6;

    print_columns(path, desc, mode);
    printf(" %9.3f %9.3f %9.1f %9.1f n=%d%s%s\n", r->median_ms, r->min_ms, r->images_per_s, mpix_s,
           r->samples, notes ? " " : "", notes ? notes : "");
    fflush(stdout);
}

void bench_print_failure(const char *path, const bench_jpeg_desc *desc, const char *mode,
                         const char *why)
{
    print_columns(path, desc, mode);
    printf(" failed: %s\n", why);
    fflush(stdout);
}

int bench_common_option(int argc, char **argv, int *i, int *iters, double *seconds)
{
    const char *v;
    int r;

    if ((r = bench_option_value(argc, argv, i, "--iters", &v)) != 0)
        return r < 0 || bench_parse_int("--iters", v, 1, iters) < 0 ? -1 : 1;
    if ((r = bench_option_value(argc, argv, i, "--seconds", &v)) != 0)
        return r < 0 || bench_parse_seconds("--seconds", v, seconds) < 0 ? -1 : 1;
    return 0;
}

int bench_parse_format(const char *value, int *rgb)
{
    if (strcmp(value, "planar") && strcmp(value, "rgb24")) {
        fprintf(stderr, "--format: expected planar or rgb24, got '%s'\n", value);
        return -1;
    }
    *rgb = !strcmp(value, "rgb24");
    return 0;
}

int bench_options_end(int argc, char **argv, int i, int *first_file)
{
    if (i < argc && argv[i][0] == '-') {
        fprintf(stderr, "unknown option '%s'\n", argv[i]);
        return -1;
    }
    if (i == argc) {
        fprintf(stderr, "no input files\n");
        return -1;
    }
    *first_file = i;
    return 0;
}

int bench_encode_option(int argc, char **argv, int *i, int *quality, int *iters, double *seconds)
{
    const char *v;
    int r;

    if ((r = bench_option_value(argc, argv, i, "--quality", &v)) != 0) {
        if (r < 0 || bench_parse_int("--quality", v, 1, quality) < 0)
            return -1;
        if (*quality > 100) {
            fprintf(stderr, "--quality: expected 1 to 100, got %d\n", *quality);
            return -1;
        }
        return 1;
    }
    return bench_common_option(argc, argv, i, iters, seconds);
}
