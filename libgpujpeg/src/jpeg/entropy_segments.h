/*
 * Host side of entropy decoding: removes byte stuffing from a scan, splits it at
 * its restart markers into segments and each segment into fixed-size chunks.
 */
#ifndef GJ_JPEG_ENTROPY_SEGMENTS_H
#define GJ_JPEG_ENTROPY_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "jpeg/markers.h"
#include "kernels/jpeg_params.h"

typedef struct gj_entropy_layout {
    uint8_t *bytes;             /* unstuffed data of every segment, back to back, then 4 zero bytes */
    size_t num_bytes, bytes_cap;
    gj_segment *segments;
    uint32_t num_segments, segments_cap;
    uint32_t *chunk_segment;    /* chunk -> its segment */
    uint32_t num_chunks, chunks_cap;
    uint32_t max_chunks_per_segment;
    uint32_t max_segment_bits;  /* of the longest segment */
    int damaged;                /* markers missing or out of order, or data cut short */
    /* The RSTn-delimited pieces of the unstuffed bytes: where each starts, its n mod 8 */
    uint32_t *piece_start;
    uint8_t *piece_rst;
    uint32_t num_pieces, pieces_cap;
    /* Allocator of the arrays that are uploaded, `bytes`, `segments` and `chunk_segment`
     * (NULL: malloc/free); the decoder gives page-locked memory so that their uploads
     * run asynchronously, at full speed. */
    void *(*bytes_alloc)(void *opaque, size_t size);
    void (*bytes_free)(void *opaque, void *ptr);
    void *bytes_opaque;
} gj_entropy_layout;

/*
 * Lays out `scan` of the file at `data` (total_mcus MCUs) with chunks of
 * chunk_bits bits: gj_entropy_layout_unstuff() of its data,
 * gj_entropy_layout_place(), gj_entropy_layout_chunk(). Reuses the layout's
 * arrays between calls.
 */
int gj_entropy_layout_scan(gj_entropy_layout *e, const uint8_t *data, const gj_jpeg_scan *scan,
                           uint32_t total_mcus, uint32_t chunk_bits);

/*
 * Copies entropy-coded data from data + at without its stuffed bytes, split into
 * pieces at RSTn markers, up to the first other marker or `size`, where *end is
 * set: the parser's end of the scan (a gj_jpeg_scan_walker, jpeg/markers.h).
 */
int gj_entropy_layout_unstuff(gj_entropy_layout *e, const uint8_t *data, size_t at, size_t size, size_t *end);

/* Places the unstuffed pieces into the restart intervals of `scan` (total_mcus
 * MCUs) the way libjpeg reads them: the segments, max_segment_bits and damaged,
 * from which the caller picks the chunk length. */
int gj_entropy_layout_place(gj_entropy_layout *e, const gj_jpeg_scan *scan, uint32_t total_mcus);

/* Splits the placed segments into chunks of chunk_bits (once per scan). */
int gj_entropy_layout_chunk(gj_entropy_layout *e, uint32_t chunk_bits);

void gj_entropy_layout_free(gj_entropy_layout *e);

#endif /* GJ_JPEG_ENTROPY_SEGMENTS_H */
