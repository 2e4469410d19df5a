/*
 * The host entropy layout's fast paths (jpeg/entropy_segments.c) against plain
 * models of what they promise: the unstuffing (copied a vector or a word at a time)
 * against a byte-by-byte walk, on a 0xFF at every alignment followed by stuffing,
 * every RSTn, another marker, 0xFF or nothing (the file's last byte), and on long
 * random scans; the chunking (one multiplication per segment instead of a
 * division) against exact ceilings, near every multiple of the chunk length and
 * up to 32-bit segment lengths; the arrays that are uploaded come from the
 * layout's allocator. Built twice (tests/tests.mk): with SSE2 where
 * the compiler has it, and with 64-bit words (GJ_WORDWISE_UNSTUFF).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/rng.h"
#include "jpeg/entropy_segments.h"
#include "unit_check.h"

/* A byte of entropy data that is not 0xFF. */
static uint8_t data_byte(void)
{
    return (uint8_t)(rng_next() % 255);
}

/* What the unstuffing must give, one byte at a time (T.81 B.1.1.5, F.1.2.3). */
typedef struct model {
    uint8_t *bytes;
    size_t num_bytes, end;
    uint32_t *piece_start;
    uint8_t *piece_rst;
    uint32_t num_pieces;
} model;

static void model_unstuff(model *m, const uint8_t *data, size_t at, size_t size)
{
    size_t i = at;

    m->num_bytes = 0;
    m->end = size;
    m->num_pieces = 1;
    m->piece_start[0] = 0;
    while (i < size) {
        if (data[i] != 0xFF) {
            m->bytes[m->num_bytes++] = data[i++];
            continue;
        }
        if (i + 1 >= size)
            break;      /* a 0xFF ending the file: its marker was cut off */
        if (data[i + 1] == 0x00) {
            m->bytes[m->num_bytes++] = 0xFF;
        } else if (data[i + 1] >= 0xD0 && data[i + 1] <= 0xD7) {
            m->piece_rst[m->num_pieces] = data[i + 1] & 7;
            m->piece_start[m->num_pieces++] = (uint32_t)m->num_bytes;
        } else {
            m->end = i;
            break;
        }
        i += 2;
    }
}

/* Unstuffs data[at, size) both ways; returns 1 when they agree. */
static int same_unstuff(gj_entropy_layout *e, model *m, const uint8_t *data, size_t at, size_t size)
{
    static const uint8_t zeros[4];
    size_t end = 0;

    if (gj_entropy_layout_unstuff(e, data, at, size, &end) < 0)
        return 0;
    model_unstuff(m, data, at, size);
    return end == m->end && e->num_bytes == m->num_bytes && !memcmp(e->bytes, m->bytes, m->num_bytes) &&
           !memcmp(e->bytes + e->num_bytes, zeros, 4) && e->num_pieces == m->num_pieces &&
           !memcmp(e->piece_start, m->piece_start, m->num_pieces * sizeof(uint32_t)) &&
           (m->num_pieces < 2 || !memcmp(e->piece_rst + 1, m->piece_rst + 1, m->num_pieces - 1));
}

/* One 0xFF at every offset of scans of every length up to 80 bytes, starting at every
 * offset of a 32-byte vector, followed by each kind of byte or by the file's end. */
static void check_every_alignment(gj_entropy_layout *e, model *m)
{
    static const int followers[] = { 0x00, 0xD0, 0xD3, 0xD7, 0xD9, 0xC4, 0xFF, 0x01, -1 };
    uint8_t data[160];
    int len, at, pos, f, bad = 0, cases = 0;

    for (len = 1; len <= 80; len++)
        for (at = 0; at < 32; at++)
            for (pos = 0; pos < len; pos++)
                for (f = 0; f < (int)(sizeof(followers) / sizeof(followers[0])); f++) {
                    int size = at + len, i;

                    if (followers[f] < 0 && pos != len - 1)
                        continue;       /* the file ends right after the 0xFF */
                    if (followers[f] >= 0 && pos == len - 1)
                        continue;
                    for (i = 0; i < size; i++)
                        data[i] = data_byte();
                    data[at + pos] = 0xFF;
                    if (followers[f] >= 0)
                        data[at + pos + 1] = (uint8_t)followers[f];
                    cases++;
                    if (!same_unstuff(e, m, data, (size_t)at, (size_t)size)) {
                        if (!bad)
                            fprintf(stderr, "first difference: length %d at %d, 0xFF at %d followed by %d\n",
                                    len, at, pos, followers[f]);
                        bad++;
                    }
                }
    CHECK(bad == 0, "unstuffing: %d of %d single-0xFF scans differ from the byte-by-byte walk", bad, cases);
}

/* Random scans of up to 64 KiB with 0xFF runs, stuffing and markers at every density. */
static void check_random_scans(gj_entropy_layout *e, model *m, uint8_t *data, size_t cap)
{
    int t, bad = 0;

    for (t = 0; t < 400; t++) {
        size_t size = 1 + rng_next() % cap, at = rng_next() % 64, i;
        uint32_t gap = 1 + rng_next() % 300, other = rng_next() % 4;

        if (at >= size)
            at = 0;
        for (i = 0; i < size; i++) {
            uint32_t r = rng_next();
            if (r % gap) {
                data[i] = data_byte();
            } else if (i + 1 < size) {
                /* Mostly stuffing and restart markers, runs of 0xFF, and rarely
                 * another marker (which ends the scan). */
                uint32_t kind = (r / gap) % 64;
                data[i++] = 0xFF;
                data[i] = kind < 30 ? 0x00 : kind < 60 ? (uint8_t)(0xD0 + kind % 8) : kind < 63 ? 0xFF :
                          other ? 0x00 : 0xD9;
            } else {
                data[i] = 0xFF;
            }
        }
        if (!same_unstuff(e, m, data, at, size))
            bad++;
    }
    CHECK(bad == 0, "unstuffing: %d of 400 random scans differ from the byte-by-byte walk", bad);
}

/* Segments of chosen lengths, chunked, against ceil(bits / chunk_bits) chunks each. */
static int chunks_exact(gj_entropy_layout *e, const uint32_t *bits, uint32_t n, uint32_t chunk_bits)
{
    uint64_t total = 0;
    uint32_t k, c, expect_max = 0, first = 0;

    e->segments = realloc(e->segments, n * sizeof(*e->segments));
    if (!e->segments)
        return 0;
    e->segments_cap = n;
    e->num_segments = n;
    e->max_segment_bits = 0;
    for (k = 0; k < n; k++) {
        memset(&e->segments[k], 0, sizeof(e->segments[k]));
        e->segments[k].bit_count = bits[k];
        e->max_segment_bits = bits[k] > e->max_segment_bits ? bits[k] : e->max_segment_bits;
        total += bits[k];
    }
    e->num_bytes = (size_t)((total + 7) / 8);   /* the chunk array's bound follows the data */
    if (gj_entropy_layout_chunk(e, chunk_bits) < 0)
        return 0;
    for (k = 0; k < n; k++) {
        uint32_t want = bits[k] ? (uint32_t)(((uint64_t)bits[k] + chunk_bits - 1) / chunk_bits) : 1;
        const gj_segment *s = &e->segments[k];

        if (s->num_chunks != want || s->first_chunk != first)
            return 0;
        for (c = 0; c < want; c++)
            if (e->chunk_segment[first + c] != k)
                return 0;
        first += want;
        expect_max = want > expect_max ? want : expect_max;
    }
    return e->num_chunks == first && e->max_chunks_per_segment == expect_max;
}

static void check_chunking(gj_entropy_layout *e)
{
    static const uint32_t lengths[] = { 32, 64, 96, 256, 384, 512, 768, 1000, 1024, 4096, 12345, 1u << 20 };
    static const uint32_t big[] = { 1u << 24, 0x7FFFFFE0u, 0x80000000u, 0xFFFFFFE0u };
    uint32_t bits[64];
    int l, j, bad = 0, cases = 0;

    for (l = 0; l < (int)(sizeof(lengths) / sizeof(lengths[0])); l++) {
        uint32_t cb = lengths[l], n = 0;

        /* Around the first few multiples, empty segments, random lengths. */
        for (j = 1; j <= 5; j++) {
            bits[n++] = j * cb - 1;
            bits[n++] = j * cb;
            bits[n++] = j * cb + 1;
        }
        bits[n++] = 0;
        bits[n++] = 1;
        bits[n++] = 8;
        while (n < 40)
            bits[n++] = rng_next() % (20 * cb);
        cases++;
        bad += !chunks_exact(e, bits, n, cb);
        /* Every segment one chunk (the restart-rich path). */
        bits[0] = 0;
        bits[1] = 1;
        bits[2] = cb - 1;
        bits[3] = cb;
        cases++;
        bad += !chunks_exact(e, bits, 4, cb);
    }
    /* 32-bit lengths: up to a few thousand chunks each. */
    for (l = 0; l < (int)(sizeof(big) / sizeof(big[0])); l++) {
        uint32_t cb = big[l], n = 0, top = 0xFFFFFFF8u;

        bits[n++] = top;
        bits[n++] = top - cb + 1;
        bits[n++] = cb - 1;
        bits[n++] = cb;
        bits[n++] = cb + 8 <= top ? cb + 8 : top;
        bits[n++] = rng_next() | 1u << 31;
        cases++;
        bad += !chunks_exact(e, bits, n, cb);
    }
    CHECK(bad == 0, "chunking: %d of %d sets of segments got other chunks than their ceilings", bad, cases);
}

/* The decoder's allocator of uploaded arrays, counted: page-locked memory there. */
static int live_blocks;

static void *count_alloc(void *opaque, size_t size)
{
    (void)opaque;
    live_blocks++;
    return malloc(size);
}

static void count_free(void *opaque, void *ptr)
{
    (void)opaque;
    live_blocks -= ptr != NULL;
    free(ptr);
}

/*
 * Every uploaded array (bytes, segments, chunk table) comes from the layout's
 * allocator, and growing them (new blocks, contents not kept) lays scans out as
 * malloc and realloc do: restart-rich scans of growing sizes, both ways.
 */
static void check_allocator(uint8_t *data, size_t cap)
{
    gj_entropy_layout own, plain;
    gj_jpeg_scan scan;
    int t, bad = 0;

    memset(&own, 0, sizeof(own));
    memset(&plain, 0, sizeof(plain));
    memset(&scan, 0, sizeof(scan));
    own.bytes_alloc = count_alloc;
    own.bytes_free = count_free;
    scan.restart_interval = 1;
    for (t = 0; t < 12; t++) {
        size_t size = (cap >> 11) << t / 2, i, n = 0;
        uint32_t mcus;

        size = size < cap ? size : cap;
        /* A restart marker every 0-40 bytes, in order, stuffing in between. */
        for (i = 0; i + 1 < size; i++) {
            uint32_t r = rng_next() % 48;
            if (r < 40) {
                data[i] = data_byte();
            } else {
                data[i++] = 0xFF;
                data[i] = r < 44 ? 0x00 : (uint8_t)(0xD0 + n++ % 8);
            }
        }
        data[size - 1] = 0;
        mcus = (uint32_t)n + 1;
        scan.data_offset = 0;
        scan.data_size = size;
        if (gj_entropy_layout_scan(&own, data, &scan, mcus, 32 + 32 * (t % 3)) < 0 ||
            gj_entropy_layout_scan(&plain, data, &scan, mcus, 32 + 32 * (t % 3)) < 0 ||
            own.num_bytes != plain.num_bytes || own.num_segments != plain.num_segments ||
            own.num_chunks != plain.num_chunks || memcmp(own.bytes, plain.bytes, own.num_bytes) ||
            memcmp(own.segments, plain.segments, own.num_segments * sizeof(*own.segments)) ||
            memcmp(own.chunk_segment, plain.chunk_segment, own.num_chunks * sizeof(*own.chunk_segment)))
            bad++;
    }
    CHECK(bad == 0, "layout: %d of 12 scans differ with the decoder's allocator", bad);
    CHECK(live_blocks == 3, "layout: %d blocks from its allocator, 3 expected (bytes, segments, chunks)", live_blocks);
    gj_entropy_layout_free(&own);
    gj_entropy_layout_free(&plain);
    CHECK(live_blocks == 0, "layout: %d blocks of its allocator left after it is freed", live_blocks);
}

int main(void)
{
    gj_entropy_layout e;
    model m;
    size_t cap = 1 << 16;
    uint8_t *data = malloc(cap + 64);

    rng_state = 0x9E3779B97F4A7C15ull;
    memset(&e, 0, sizeof(e));
    m.bytes = malloc(cap + 64);
    m.piece_start = malloc((cap + 64) * sizeof(uint32_t));
    m.piece_rst = malloc(cap + 64);
    if (!data || !m.bytes || !m.piece_start || !m.piece_rst) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    check_every_alignment(&e, &m);
    check_random_scans(&e, &m, data, cap);
    check_chunking(&e);
    check_allocator(data, cap);
    gj_entropy_layout_free(&e);
    free(data);
    free(m.bytes);
    free(m.piece_start);
    free(m.piece_rst);
    if (failures)
        return 1;
    printf("jpeg_layout: unstuffing and chunking equal their models\n");
    return 0;
}
