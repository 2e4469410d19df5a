/*
 * JPEG marker writer of the encoder: the headers of a baseline sequential JFIF
 * file (T.81 Annex B, JFIF 1.01) in the order libjpeg writes them, so that our
 * files can equal cjpeg's byte for byte.
 */
#ifndef GJ_JPEG_MARKERS_WRITE_H
#define GJ_JPEG_MARKERS_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "jpeg/markers.h"

typedef struct gj_jpeg_header {
    int width, height;
    int num_components;          /* 1 (gray) or 3 (YCbCr) */
    int h[3], v[3];              /* sampling factors */
    const uint16_t *quant[2];    /* natural order; [0] luma, [1] chroma */
    const gj_huffman_spec *dc[2];
    const gj_huffman_spec *ac[2];
    int restart_interval;        /* MCUs; 0: no DRI */
} gj_jpeg_header;

/* Upper bound of the headers' size. */
#define GJ_JPEG_HEADER_MAX 2048
/* The end of the file (EOI). */
#define GJ_JPEG_TRAILER_SIZE 2

/* Writes SOI, APP0 (JFIF), DQT, SOF0, DHT, DRI, SOS into dst (GJ_JPEG_HEADER_MAX bytes); returns the size. */
size_t gj_jpeg_write_headers(uint8_t *dst, const gj_jpeg_header *h);

/* Writes EOI. */
void gj_jpeg_write_trailer(uint8_t *dst);

#endif /* GJ_JPEG_MARKERS_WRITE_H */
