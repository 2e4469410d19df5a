/*
 * libFuzzer target: every host-side step of JPEG decoding, i.e. the header parser
 * through the public gj_jpeg_read_info(), then the whole-file marker parse, the
 * Huffman decoding tables and the entropy layout (unstuffing, restart segments,
 * chunks) of every scan, also the decoder's way (unstuffed while the parser
 * walks the scan), which must give the same stream and layouts. Built by make check with clang and ASan/UBSan
 * (tests/tests.mk) and run for a bounded time. Besides memory errors it checks
 * the promises the GPU kernels rely on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/common.h"
#include "fuzz_common.h"
#include "gpujpeg/jpeg.h"
#include "jpeg/entropy_segments.h"
#include "jpeg/huffman_tables.h"
#include "jpeg/markers.h"

/* The layout the kernels read: chunks cover segments, segments lie inside the bytes. */
static void check_layout(const gj_entropy_layout *e, uint32_t chunk_bits)
{
    uint32_t k, c = 0;

    for (k = 0; k < e->num_segments; k++) {
        const gj_segment *s = &e->segments[k];
        uint64_t start = (uint64_t)s->bit_start_hi << 32 | s->bit_start_lo;
        REQUIRE(s->first_chunk == c && s->num_chunks >= 1);
        REQUIRE((uint64_t)s->num_chunks * chunk_bits < (uint64_t)s->bit_count + 2 * chunk_bits);
        REQUIRE(start / 8 + s->bit_count / 8 <= e->num_bytes);
        c += s->num_chunks;
    }
    REQUIRE(c == e->num_chunks);
    for (k = 0; k < e->num_chunks; k++)
        REQUIRE(e->chunk_segment[k] < e->num_segments);
}

static gj_entropy_layout walked[GJ_JPEG_MAX_SCANS];

static int walk_scan(void *opaque, int scan, const uint8_t *data, size_t at, size_t size, size_t *end)
{
    (void)opaque;
    REQUIRE(scan >= 0 && scan < GJ_JPEG_MAX_SCANS);
    return gj_entropy_layout_unstuff(&walked[scan], data, at, size, end);
}

/* The same bytes, segments and chunks. */
static void check_same_layout(const gj_entropy_layout *a, const gj_entropy_layout *b)
{
    REQUIRE(a->num_bytes == b->num_bytes && !memcmp(a->bytes, b->bytes, a->num_bytes + 4));
    REQUIRE(a->num_segments == b->num_segments && a->num_chunks == b->num_chunks && a->damaged == b->damaged);
    REQUIRE(!memcmp(a->segments, b->segments, a->num_segments * sizeof(*a->segments)));
    REQUIRE(!memcmp(a->chunk_segment, b->chunk_segment, a->num_chunks * sizeof(*a->chunk_segment)));
}

static void check_host_paths(const uint8_t *data, size_t size)
{
    static gj_jpeg_stream stream, stream_walked;
    static gj_entropy_layout layout;
    gj_huff_table table;
    int i, c, walked_ret;

    walked_ret = gj_jpeg_parse_walking(data, size, &stream_walked, walk_scan, NULL, NULL);
    if (gj_jpeg_parse(data, size, 0, &stream) < 0) {
        REQUIRE(walked_ret < 0);
        return;
    }
    REQUIRE(walked_ret == 0 && !memcmp(&stream, &stream_walked, sizeof(stream)));
    for (i = 0; i < stream.num_scans; i++) {
        const gj_jpeg_scan *scan = &stream.scans[i];
        REQUIRE(scan->data_offset + scan->data_size <= size);
        REQUIRE(scan->blocks_in_mcu >= 1 && scan->blocks_in_mcu <= GJ_JPEG_MAX_BLOCKS_IN_MCU);
        for (c = 0; c < scan->num_components; c++) {
            gj_huffman_table_build(&scan->dc[c], 0, &table);
            gj_huffman_table_build(&scan->ac[c], 1, &table);
        }
        if (gj_entropy_layout_scan(&layout, data, scan, (uint32_t)(scan->mcus_x * scan->mcus_y), 512) == 0) {
            check_layout(&layout, 512);
            REQUIRE(gj_entropy_layout_place(&walked[i], scan, (uint32_t)(scan->mcus_x * scan->mcus_y)) == 0);
            REQUIRE(gj_entropy_layout_chunk(&walked[i], 512) == 0);
            check_same_layout(&layout, &walked[i]);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gj_jpeg_info info;
    int c;

    if (gj_jpeg_read_info(data, size, &info) < 0)
        return 0;
    REQUIRE(info.width >= 1 && info.width <= 65535);
    REQUIRE(info.height >= 1 && info.height <= 65535);
    REQUIRE(info.num_components == 1 || info.num_components == 3 || info.num_components == 4);
    for (c = 0; c < info.num_components; c++) {
        REQUIRE(info.h_samp[c] >= 1 && info.h_samp[c] <= 4);
        REQUIRE(info.v_samp[c] >= 1 && info.v_samp[c] <= 4);
    }
    REQUIRE(info.restart_interval >= 0);
    check_host_paths(data, size);
    return 0;
}
