/*
 * gpujpeg tool: picture readers, one per file format, for the encoders. A reader
 * fills a host frame (allocated with gj_frame_alloc) in the format the file
 * holds: gray8, rgb24, rgba, or planar YCbCr (Y4M). JPEG input is not here: it
 * decodes on the GPU.
 */
#ifndef GPUJPEG_TOOLS_INPUT_H
#define GPUJPEG_TOOLS_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/frame.h"

typedef struct input_module {
    const char *name;
    /* Whether data (the first bytes of a file) has this format's signature. */
    int (*probe)(const uint8_t *data, size_t size);
    /* Returns 0, or a negative code after input_fail(). */
    int (*read)(const uint8_t *data, size_t size, gj_frame *frame);
} input_module;

extern const input_module input_png, input_pnm, input_y4m;

/* The reader for a file's contents, by signature; NULL if none. */
const input_module *input_find(const uint8_t *data, size_t size);

/* For readers: holds a description of the failure (for cli_report) and returns code. */
int input_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* GPUJPEG_TOOLS_INPUT_H */
