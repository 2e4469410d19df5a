/*
 * Shared helpers of the benchmark programs (bench_decode, bench_nvjpeg,
 * bench_turbo): reading files, labelling JPEGs, timing and the result line.
 *
 * Every program prints the same result line, so bench/run_gpu.sh can put the
 * peers side by side:
 *     FILE WxH SAMPLING RESTART MODE MEDIAN_MS MIN_MS IMG/S MPIX/S [NOTES]
 * MEDIAN_MS and MIN_MS are per image (a batch's time divided by its size).
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* What the result line says about a JPEG file, read from its markers. */
typedef struct bench_jpeg_desc {
    int width;
    int height;
    char sampling[32];      /* "4:2:0", "4:4:4", "gray", or "2x2,1x1,1x1" */
    int restart_interval;   /* DRI before the first scan, in MCUs; 0: none */
} bench_jpeg_desc;

/* Timings of one (file, mode) and what they add up to. */
typedef struct bench_result {
    double median_ms;       /* per image */
    double min_ms;          /* per image */
    double images_per_s;
    int samples;
} bench_result;

/* Milliseconds of CLOCK_MONOTONIC. */
double bench_now_ms(void);

/* Reads a whole file; prints the reason and returns -1 on failure. */
int bench_read_file(const char *path, uint8_t **data, size_t *size);

/* Walks the markers up to the first SOS; prints the reason and returns -1 if
 * there is no frame header. */
int bench_probe_jpeg(const uint8_t *data, size_t size, bench_jpeg_desc *desc);

/*
 * Matches argv[*i] against the option `name` taking a value, as "--name VALUE"
 * or "--name=VALUE": returns 1 and sets *value (advancing *i past a separate
 * value), 0 if argv[*i] is another option, -1 (reason printed) if the value is
 * missing.
 */
int bench_option_value(int argc, char **argv, int *i, const char *name, const char **value);

/* Parses an integer option value of at least min; prints the reason and returns -1. */
int bench_parse_int(const char *option, const char *value, int min, int *out);

/* Parses a positive number of seconds; prints the reason and returns -1. */
int bench_parse_seconds(const char *option, const char *value, double *out);

/* --iters N and --seconds S, which every benchmark takes: 1 if argv[*i] was one of
 * them, 0 if not, -1 (reason printed) on a bad value. */
int bench_common_option(int argc, char **argv, int *i, int *iters, double *seconds);

/* The encoding benchmarks' options: --quality Q (1..100) and the common ones;
 * returns as bench_common_option(). */
int bench_encode_option(int argc, char **argv, int *i, int *quality, int *iters, double *seconds);

/* --format planar|rgb24: *rgb = 1 for rgb24; -1 (reason printed) otherwise. */
int bench_parse_format(const char *value, int *rgb);

/* Ends option parsing at argv[i]: an unknown option or no input file is an error
 * (-1, reason printed); else *first_file = i. */
int bench_options_end(int argc, char **argv, int i, int *first_file);

/* Sorts ms[0..n) and fills r: median and minimum divided by images_per_sample,
 * images/s from the median. */
void bench_stats(double *ms, int n, int images_per_sample, bench_result *r);

/* Whether a timed loop that has taken `samples` samples in `elapsed_ms` should
 * take another: up to max_samples, but past min_samples only within budget_ms. */
int bench_more_samples(int samples, int max_samples, double elapsed_ms, double budget_ms);

/* The column header, as a comment line. */
void bench_print_header(void);

/* One result line; notes may be NULL. */
void bench_print_result(const char *path, const bench_jpeg_desc *desc, const char *mode,
                        const bench_result *r, const char *notes);

/* A line for a (file, mode) that could not be measured: "... MODE failed: why". */
void bench_print_failure(const char *path, const bench_jpeg_desc *desc, const char *mode,
                         const char *why);

#endif /* BENCH_UTIL_H */
