/*
 * gpujpeg tool: output modules, one per file format.
 *
 * A module writes one host frame to an open file; output_write() wraps it with
 * the file handling (temporary name, rename, removal on failure), so a module
 * only serialises pixels.
 */
#ifndef GPUJPEG_TOOLS_OUTPUT_H
#define GPUJPEG_TOOLS_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "gpujpeg/frame.h"

struct gj_dxt_blocks;
struct gj_j2k_components;

typedef struct output_module {
    const char *name;                       /* also the file extension */
    const enum gj_pixel_format *formats;    /* accepted, ending with GJ_PIX_FMT_NONE */
    /* Decode to this when the user gives no --format; GJ_PIX_FMT_NONE means the
     * JPEG's native planar format. Gray JPEGs decode to gray8 where it is accepted. */
    enum gj_pixel_format default_format;
    /* frame: host memory, a format from `formats`. Returns 0 or a negative code.
     * NULL for the null module, which writes no file. */
    int (*write)(FILE *f, const gj_frame *frame);
    /* The same with the picture's ICC profile in the file (PNG's iCCP chunk); NULL where
     * the format has no place for one, the profile then left out. */
    int (*write_with_icc)(FILE *f, const gj_frame *frame, const uint8_t *icc, size_t icc_size);
    /* Writes a JPEG 2000 picture's components (output_write_pgx()), not frames. */
    int components;
} output_module;

/* The deep planar YUV formats (9-16 bits), for modules' format lists. */
#define GJ_DEEP_YUV_FORMATS                                                                  \
    GJ_PIX_FMT_YUV420P9, GJ_PIX_FMT_YUV422P9, GJ_PIX_FMT_YUV444P9, GJ_PIX_FMT_YUV420P10,     \
    GJ_PIX_FMT_YUV422P10, GJ_PIX_FMT_YUV444P10, GJ_PIX_FMT_YUV420P12, GJ_PIX_FMT_YUV422P12,  \
    GJ_PIX_FMT_YUV444P12, GJ_PIX_FMT_YUV420P14, GJ_PIX_FMT_YUV422P14, GJ_PIX_FMT_YUV444P14,  \
    GJ_PIX_FMT_YUV420P16, GJ_PIX_FMT_YUV422P16, GJ_PIX_FMT_YUV444P16

extern const output_module output_ppm, output_pgm, output_pam;
extern const output_module output_png, output_y4m, output_yuv, output_pgx;
/* Accepts every format and writes nothing: decoding for timing. */
extern const output_module output_null;

/* Every module, NULL-terminated, in the order the help text lists them. */
extern const output_module *const output_modules[];

/* The module named `name` (case-insensitive), or NULL. */
const output_module *output_find(const char *name);
/* The module for the extension of `path`, or NULL. */
const output_module *output_for_path(const char *path);
int output_accepts(const output_module *m, enum gj_pixel_format format);
/* The format to decode to for the user's choice (`requested`, or the module's
 * default when `explicit_format` is 0) and the JPEG's grayness. */
enum gj_pixel_format output_pick_format(const output_module *m, int explicit_format,
                                        enum gj_pixel_format requested, int gray_jpeg);

/*
 * Writes frame to path through a temporary file in the same directory, renamed
 * into place only when complete, with the picture's ICC profile where the module
 * takes one (icc NULL: none). On failure returns a negative code, removes the
 * temporary file and leaves a description in output_error().
 */
int output_write(const output_module *m, const char *path, const gj_frame *frame, const uint8_t *icc,
                 size_t icc_size);
/* The same file handling around any writer (DDS files: output/dds.c). */
int output_write_with(const char *path, int (*write)(FILE *f, const void *opaque), const void *opaque);
/* Writes a DDS file: the header and the blocks (host memory). */
int output_write_dds(const char *path, const struct gj_dxt_blocks *blocks);
/*
 * Writes a JPEG 2000 picture's components (host memory) as PGX files: path itself
 * for one component, else path without ".pgx" + "_<c>.pgx" for each.
 */
int output_write_pgx(const char *path, const struct gj_j2k_components *picture);
/* Describes the failure code that output_write() returned. */
const char *output_error(int code);

/* For modules: records a description of a failure and returns code. */
int output_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For modules: the code for a failed stdio call. */
int output_io_error(void);

/* For modules: writes every plane, row by row without the linesize padding. */
int output_write_planes(FILE *f, const gj_frame *frame);
/* For modules: one row of BGRA pixels as RGBA. */
void output_bgra_to_rgba(uint8_t *dst, const uint8_t *src, int width);

#endif /* GPUJPEG_TOOLS_OUTPUT_H */
