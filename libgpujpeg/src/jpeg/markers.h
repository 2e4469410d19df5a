/*
 * JPEG marker reader: parses a JPEG file (T.81 Annex B) on the CPU into the frame,
 * component, table and scan descriptions the GPU pipeline needs. No GPU work.
 */
#ifndef GJ_JPEG_MARKERS_H
#define GJ_JPEG_MARKERS_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/jpeg.h"

#define GJ_JPEG_MAX_COMPONENTS 4
/* Sequential JPEG codes every component in exactly one scan. */
#define GJ_JPEG_MAX_SCANS GJ_JPEG_MAX_COMPONENTS
/* Largest entropy-coded scan we accept: bit positions stay inside 32 bits. */
#define GJ_JPEG_MAX_SCAN_BYTES ((size_t)1 << 29)
/* T.81 B.2.3: at most 10 blocks in an interleaved MCU. */
#define GJ_JPEG_MAX_BLOCKS_IN_MCU 10

typedef struct gj_huffman_spec {
    uint8_t bits[17];      /* bits[l]: number of codes of length l (1..16) */
    uint8_t values[256];
    int count;             /* sum of bits[] */
} gj_huffman_spec;

typedef struct gj_jpeg_component {
    int id;
    int h, v;               /* sampling factors */
    int quant_index;        /* Tq */
    uint16_t quant[64];     /* table latched at the component's scan, natural order */
    int quant_latched;
    int width, height;      /* downsampled size in samples: ceil(W * h / hmax) */
    int blocks_w, blocks_h; /* coded blocks: MCU-padded grid (mcus_x * h, mcus_y * v) */
    int scanned;            /* coded by some scan */
} gj_jpeg_component;

typedef struct gj_jpeg_scan {
    int num_components;
    int comp[GJ_JPEG_MAX_COMPONENTS];       /* indices into the frame's components */
    gj_huffman_spec dc[GJ_JPEG_MAX_COMPONENTS];
    gj_huffman_spec ac[GJ_JPEG_MAX_COMPONENTS];
    int restart_interval;   /* DRI in effect at this scan (MCUs), 0 = none */
    size_t data_offset;     /* entropy-coded segment: stuffed bytes and RSTn markers */
    size_t data_size;
    int truncated;          /* the file ended inside this scan */
    /* MCU geometry of this scan (T.81 A.2): non-interleaved scans use single blocks. */
    int mcus_x, mcus_y;
    int blocks_in_mcu;
} gj_jpeg_scan;

typedef struct gj_jpeg_stream {
    int width, height;
    int num_components;
    gj_jpeg_component comp[GJ_JPEG_MAX_COMPONENTS];
    int hmax, vmax;
    int mcus_x, mcus_y;     /* interleaved MCU grid of the frame */
    enum gj_jpeg_color_space color_space;
    int saw_jfif, saw_adobe, adobe_transform;
    int num_scans;
    gj_jpeg_scan scans[GJ_JPEG_MAX_SCANS];
    int saw_eoi;
    int warnings;           /* count of recoverable problems found while parsing */
} gj_jpeg_stream;

/*
 * Parses the whole file. With headers_only the parse stops at the first SOS (scan
 * data not located). Logs and returns GJ_ERROR_INVALIDDATA / GJ_ERROR_UNSUPPORTED
 * with a message naming the marker and the problem.
 */
int gj_jpeg_parse(const uint8_t *data, size_t size, int headers_only, gj_jpeg_stream *s);

/* In entropy-coded data, the byte after a 0xFF: 0x00 (stuffing) and RSTn continue
 * the scan, anything else is the marker that ends it. */
static inline int gj_jpeg_is_rst(uint8_t code)
{
    return code >= 0xD0 && code <= 0xD7;
}

static inline int gj_jpeg_ends_scan(uint8_t code)
{
    return code != 0x00 && !gj_jpeg_is_rst(code);
}

/*
 * Finds where the entropy-coded data of scan `scan`, from data + at, ends: at the
 * first marker other than RSTn, else at `size` (*end). The decoder's walker also
 * unstuffs the data on its way (entropy_segments.c), so the data is read once.
 * Returns 0 or a GJ_ERROR_* code.
 */
typedef int (*gj_jpeg_scan_walker)(void *opaque, int scan, const uint8_t *data, size_t at, size_t size,
                                   size_t *end);

/* Called as soon as scan `scan` is located (s->scans[scan] complete, the headers before
 * it parsed), so that its decoding can start while the rest of the file is parsed. */
typedef int (*gj_jpeg_scan_ready)(void *opaque, int scan);

/* gj_jpeg_parse() of the whole file with `walk` locating each scan's data and `ready`
 * (may be NULL) told of each scan; both get opaque. */
int gj_jpeg_parse_walking(const uint8_t *data, size_t size, gj_jpeg_stream *s, gj_jpeg_scan_walker walk,
                          gj_jpeg_scan_ready ready, void *opaque);

/* The native planar format of the stream's sampling, or GJ_PIX_FMT_NONE. */
enum gj_pixel_format gj_jpeg_native_format(const gj_jpeg_stream *s);

#endif /* GJ_JPEG_MARKERS_H */
