/* Unstuffing and segmentation of entropy-coded data (T.81 B.1.1.5, F.1.2.3). */
#include <stdlib.h>
#include <string.h>

/* SSE2 (every x86-64) where the compiler has its intrinsics, else 64-bit words;
 * GJ_WORDWISE_UNSTUFF picks the words anyway (a unit test builds both). */
#if defined(__SSE2__) && defined(__GNUC__) && !defined(GJ_WORDWISE_UNSTUFF)
#define UNSTUFF_SSE2 1
#include <emmintrin.h>
#endif

#include "jpeg/entropy_segments.h"
#include "log.h"

/* The capacity an array of `cap` grows to for `need` elements: doubled, so growth is amortised. */
static size_t grown_capacity(uint32_t cap, size_t need)
{
    size_t c = cap ? cap : 16;

    while (c < need)
        c *= 2;
    return c;
}

static int grow(void **p, uint32_t *cap, size_t need, size_t elem)
{
    void *n;
    size_t c = grown_capacity(*cap, need);

    if (need <= *cap)
        return 0;
    if (c > UINT32_MAX)
        return GJ_ERROR_NOMEM;
    n = realloc(*p, c * elem);
    if (!n)
        return GJ_ERROR_NOMEM;
    *p = n;
    *cap = (uint32_t)c;
    return 0;
}

static void *alloc_uploaded(gj_entropy_layout *e, size_t size)
{
    return e->bytes_alloc ? e->bytes_alloc(e->bytes_opaque, size) : malloc(size);
}

static void free_uploaded(gj_entropy_layout *e, void *ptr)
{
    if (e->bytes_free)
        e->bytes_free(e->bytes_opaque, ptr);
    else
        free(ptr);
}

static void free_bytes(gj_entropy_layout *e)
{
    free_uploaded(e, e->bytes);
    e->bytes = NULL;
    e->bytes_cap = 0;
}

/*
 * grow() for an array that is uploaded (segments, chunk_segment): from the layout's
 * allocator, page-locked in the decoder, whose copies run asynchronously; from
 * pageable memory the driver copies it into a staging buffer first, on the host,
 * while the GPU waits for it. Its contents are not kept: each user rewrites it.
 */
static int grow_uploaded(gj_entropy_layout *e, void **p, uint32_t *cap, size_t need, size_t elem)
{
    void *n;
    size_t c = grown_capacity(*cap, need);

    if (need <= *cap)
        return 0;
    if (c > UINT32_MAX || !(n = alloc_uploaded(e, c * elem)))
        return GJ_ERROR_NOMEM;
    free_uploaded(e, *p);
    *p = n;
    *cap = (uint32_t)c;
    return 0;
}

/* Room for one more piece (amortised: the arrays double, and are kept between scans). */
static int grow_pieces(gj_entropy_layout *e)
{
    uint32_t old = e->pieces_cap;

    if (grow((void **)&e->piece_start, &e->pieces_cap, (size_t)e->num_pieces + 1, sizeof(*e->piece_start)) < 0)
        return GJ_ERROR_NOMEM;
    if (e->pieces_cap != old) {
        uint8_t *rst = realloc(e->piece_rst, e->pieces_cap);
        if (!rst)
            return GJ_ERROR_NOMEM;
        e->piece_rst = rst;
    }
    return 0;
}

/*
 * Copies src to dst up to its first 0xFF byte, in one pass a vector (or a word) at a
 * time, and returns how many bytes come before it (n: none). Whole vectors are
 * stored: dst's n bytes may all be written, past the returned count; the caller
 * overwrites those. Entropy data holds a 0xFF about every 100 bytes (stuffing,
 * restart markers): a memchr + memcpy pair per 0xFF cost more in calls than copying.
 */
static size_t copy_to_ff(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t k = 0;

#ifdef UNSTUFF_SSE2
    const __m128i ff = _mm_set1_epi8((char)0xFF);

    /* Two vectors a step: a 0xFF comes every few steps, so the loop's own work counts. */
    for (; k + 32 <= n; k += 32) {
        __m128i v0 = _mm_loadu_si128((const __m128i *)(src + k));
        __m128i v1 = _mm_loadu_si128((const __m128i *)(src + k + 16));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, ff)) |
                        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, ff)) << 16;

        _mm_storeu_si128((__m128i *)(dst + k), v0);
        _mm_storeu_si128((__m128i *)(dst + k + 16), v1);
        if (mask)
            return k + (size_t)__builtin_ctz(mask);
    }
#else
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;

    for (; k + 8 <= n; k += 8) {
        uint64_t v;

        memcpy(&v, src + k, 8);
        memcpy(dst + k, &v, 8);
        /* Nonzero when a byte of v is 0xFF, i.e. a byte of ~v is zero (the lowest
         * such byte is flagged exactly): the word holds one, find it bytewise. */
        if ((~v - ones) & v & highs)
            break;
    }
#endif
    for (; k < n && src[k] != 0xFF; k++)
        dst[k] = src[k];
    return k;
}

/*
 * Walks from one 0xFF to the next: a stuffed 0xFF 0x00 keeps the 0xFF, RSTn starts
 * a new piece, any other marker ends the scan, and so does a 0xFF that ends the
 * file (dropped, as its marker was cut off).
 */
int gj_entropy_layout_unstuff(gj_entropy_layout *e, const uint8_t *data, size_t at, size_t size, size_t *end)
{
    size_t i = at, o = 0, room;
    uint8_t *out, *rsts;
    uint32_t *starts, pieces;

    /* Past the largest scan the parser accepts, it refuses the scan: walk no further. */
    if (size - at > GJ_JPEG_MAX_SCAN_BYTES)
        size = at + GJ_JPEG_MAX_SCAN_BYTES + 1;
    room = size - at;
    *end = size;
    /* Room for the rest of the file and a zero-padded last word: the kernels read whole 32-bit words. */
    if (room + 4 > e->bytes_cap) {
        size_t bytes_cap = room + 4 + room / 4;
        uint8_t *b = alloc_uploaded(e, bytes_cap);
        if (!b)
            return gj_fail(GJ_ERROR_NOMEM, "out of memory for a scan of up to %zu bytes", room);
        free_bytes(e);
        e->bytes = b;
        e->bytes_cap = bytes_cap;
    }
    e->num_pieces = 0;
    if (grow_pieces(e) < 0)
        return gj_fail(GJ_ERROR_NOMEM, "out of memory laying out a scan");
    e->piece_start[e->num_pieces++] = 0;
    /* In locals: the byte stores may alias *e, which would be read again at every 0xFF. */
    out = e->bytes;
    starts = e->piece_start;
    rsts = e->piece_rst;
    pieces = e->num_pieces;
    while (i < size) {
        /* The output never runs ahead of the input (o <= i - at), so the copy's
         * whole vectors stay within the room for the rest of the file. */
        size_t run = copy_to_ff(out + o, data + i, size - i);
        uint8_t next;
        int is_rst;

        o += run;
        i += run;
        if (i + 1 >= size)
            break;      /* no 0xFF left, or one that starts a marker cut off by the file's end */
        next = data[i + 1];
        /* Neither stuffing (0x00) nor RSTn (0xD0-0xD7), i.e. gj_jpeg_ends_scan(), as
         * one product, both factors nonzero: compilers branch on each of two
         * comparisons, and the two alternate unpredictably in restart-rich scans. */
        if ((((next & 0xF8u) ^ 0xD0u) * next) != 0) {
            *end = i;
            break;
        }
        if (pieces == e->pieces_cap) {
            e->num_pieces = pieces;
            if (grow_pieces(e) < 0)
                return gj_fail(GJ_ERROR_NOMEM, "out of memory laying out a scan");
            starts = e->piece_start;
            rsts = e->piece_rst;
        }
        /* A stuffed 0xFF 0x00 keeps its 0xFF; RSTn starts a new piece here. */
        is_rst = next != 0x00;
        out[o] = 0xFF;
        o += (size_t)!is_rst;
        rsts[pieces] = next & 7;
        starts[pieces] = (uint32_t)o;
        pieces += (uint32_t)is_rst;
        i += 2;
    }
    e->num_pieces = pieces;
    e->num_bytes = o;
    memset(e->bytes + o, 0, 4);
    return 0;
}

/*
 * Writes restart interval k as *seg, holding `bits` bits from bit `start` (none:
 * libjpeg decodes its first MCU from zero bits). Field by field: a compound literal
 * went through the stack and stalled on the copy out (1/3 of placing a segment).
 */
static inline void put_segment(gj_segment *seg, uint32_t k, uint32_t interval, uint32_t total_mcus,
                               uint64_t start, uint32_t bits)
{
    uint32_t first = k * interval;

    seg->bit_start_lo = (uint32_t)start;
    seg->bit_start_hi = (uint32_t)(start >> 32);
    seg->bit_count = bits;
    seg->first_mcu = first;
    seg->mcu_count = total_mcus - first < interval ? total_mcus - first : interval;
    seg->first_chunk = 0;
    seg->num_chunks = 0;
    seg->present = 1;
}

/* Writes restart interval k with the data of piece p (of num_pieces, the last
 * ending at num_bytes) to *seg; returns its bits. */
static inline uint32_t take_piece(gj_segment *seg, uint32_t k, uint32_t interval, uint32_t total_mcus,
                                  const uint32_t *piece_start, uint32_t num_pieces, size_t num_bytes, uint32_t p)
{
    uint32_t end = p + 1 < num_pieces ? piece_start[p + 1] : (uint32_t)num_bytes;
    uint32_t bits = (end - piece_start[p]) * 8;

    put_segment(seg, k, interval, total_mcus, (uint64_t)piece_start[p] * 8, bits);
    return bits;
}

/*
 * When libjpeg leaves a marker unread at the end of interval k, the next interval
 * reads no data; its first MCU is still decoded (from zero bits) unless the data
 * had already run out, i.e. unless interval k got no data itself (the last of the
 * n segments so far is not k's, or is empty) or the file ends there (a truncated scan).
 */
static int keep_decodes_one_mcu(const gj_segment *segs, uint32_t n, uint32_t k, uint32_t interval, int rst,
                                int truncated)
{
    if (rst < 0 && truncated)
        return 0;
    return n && segs[n - 1].first_mcu == k * interval && segs[n - 1].bit_count > 0;
}

enum { RESYNC_TAKE = 1, RESYNC_SKIP = 2, RESYNC_KEEP = 3 };

/*
 * libjpeg's jpeg_resync_to_restart: what to do with marker `rst` (-1: not a
 * restart marker, e.g. EOI or the end of the file) when RST`desired` is due.
 * TAKE: use the data after it; SKIP: drop that data and look at the next marker;
 * KEEP: leave the marker for a later restart, the segment stays empty (grey).
 */
static int resync_action(int rst, uint32_t desired)
{
    if (rst < 0)
        return RESYNC_KEEP;
    if ((uint32_t)rst == ((desired + 1) & 7) || (uint32_t)rst == ((desired + 2) & 7))
        return RESYNC_KEEP;
    if ((uint32_t)rst == ((desired - 1) & 7) || (uint32_t)rst == ((desired - 2) & 7))
        return RESYNC_SKIP;
    return RESYNC_TAKE;     /* the desired marker, or one too far away to tell */
}

/*
 * Assigns the RSTn-delimited pieces to the restart intervals the way libjpeg reads
 * them: after interval k it expects RST(k mod 8) and resynchronises on anything else.
 * Only intervals that get data become segments: the others stay zero (grey), so a
 * small file declaring a huge picture costs no host memory per interval.
 */
static int place_pieces(gj_entropy_layout *e, const gj_jpeg_scan *scan, uint32_t total_mcus)
{
    const uint32_t *piece_start = e->piece_start;
    const uint8_t *piece_rst = e->piece_rst;
    uint32_t num_pieces = e->num_pieces;
    uint32_t interval = scan->restart_interval ? (uint32_t)scan->restart_interval : total_mcus;
    uint32_t nseg = interval ? (total_mcus + interval - 1) / interval : 0, k, p = 0;
    /* The count and the longest in locals: the segments' stores could alias *e's. */
    uint32_t n = 0, max_bits, bits;
    gj_segment *segs;

    e->num_segments = 0;
    e->max_segment_bits = 0;
    if (!scan->restart_interval && num_pieces > 1) {
        gj_log(GJ_LOG_WARNING, "corrupt JPEG data: RST marker in a scan without restart interval; "
               "the data after it is ignored");
        e->damaged = 1;
        num_pieces = 1;
    }
    if (!nseg)
        return 0;
    /* At most one segment per piece, plus one empty one after each. */
    if (grow_uploaded(e, (void **)&e->segments, &e->segments_cap, 2 * num_pieces < nseg ? 2 * num_pieces : nseg,
                      sizeof(*e->segments)) < 0)
        return GJ_ERROR_NOMEM;
    segs = e->segments;
    max_bits = take_piece(&segs[n++], 0, interval, total_mcus, piece_start, num_pieces, e->num_bytes, 0);
    for (k = 0; k + 1 < nseg; k++) {
        int rst = p + 1 < num_pieces ? piece_rst[p + 1] : -1;

        if (rst == (int)(k & 7)) {      /* the marker due: taken, nothing to resynchronise */
            bits = take_piece(&segs[n++], k + 1, interval, total_mcus, piece_start, num_pieces, e->num_bytes, ++p);
            max_bits = bits > max_bits ? bits : max_bits;
            continue;
        }
        for (;;) {
            int action;
            rst = p + 1 < num_pieces ? piece_rst[p + 1] : -1;
            action = resync_action(rst, k & 7);
            if (action == RESYNC_SKIP) {
                p++;
                continue;
            }
            if (action == RESYNC_TAKE) {
                bits = take_piece(&segs[n++], k + 1, interval, total_mcus, piece_start, num_pieces, e->num_bytes, ++p);
                max_bits = bits > max_bits ? bits : max_bits;
            } else if (keep_decodes_one_mcu(segs, n, k, interval, rst, scan->truncated)) {
                put_segment(&segs[n++], k + 1, interval, total_mcus, 0, 0);
            }
            break;
        }
        if (rst != (int)(k & 7))
            e->damaged = 1;
        if (rst < 0 && !(n && segs[n - 1].first_mcu == (k + 1) * interval))
            break;      /* no data left: every later interval stays grey */
    }
    e->num_segments = n;
    e->max_segment_bits = max_bits;
    return 0;
}

/*
 * x / d, rounded down, for a divisor fixed while a scan is chunked (d >= 32; magic =
 * divide_magic(d)): one multiplication instead of a division, whose latency the
 * chunking would wait on at every segment. magic = floor(2^64 / d) + 1 exceeds
 * 2^64 / d by at most 1, so x * magic / 2^64 exceeds x / d by less than x / 2^64
 * < 1/d: never past the next integer.
 */
#ifdef __SIZEOF_INT128__
static inline uint64_t divide_magic(uint32_t d)
{
    return UINT64_MAX / d + 1;
}

static inline uint32_t divide(uint32_t x, uint32_t d, uint64_t magic)
{
    (void)d;
    return (uint32_t)(((unsigned __int128)x * magic) >> 64);
}
#else
static inline uint64_t divide_magic(uint32_t d)
{
    return d;
}

static inline uint32_t divide(uint32_t x, uint32_t d, uint64_t magic)
{
    (void)magic;
    return x / d;
}
#endif

int gj_entropy_layout_chunk(gj_entropy_layout *e, uint32_t chunk_bits)
{
    gj_segment *segs = e->segments;
    uint32_t k, n = 0, c, max_chunks = 1, *chunk_segment;
    size_t most;

    if (chunk_bits < 32)        /* the kernels read whole 32-bit words */
        return gj_fail(GJ_ERROR_INVAL, "JPEG scan: chunks of %u bits (32 at least)", chunk_bits);
    /* No two segments share a byte: at most one chunk per segment and one per
     * chunk_bits of data, so the array is sized once; 3 more for the fill's last
     * group of 4. */
    most = (size_t)e->num_segments + e->num_bytes * 8 / chunk_bits + 3;
    if (grow_uploaded(e, (void **)&e->chunk_segment, &e->chunks_cap, most, sizeof(*e->chunk_segment)) < 0)
        return gj_fail(GJ_ERROR_NOMEM, "out of memory laying out %u restart intervals", e->num_segments);
    chunk_segment = e->chunk_segment;
    if (e->max_segment_bits <= chunk_bits) {
        /* Every segment one chunk: restart-rich scans, often decoded so (decode_entropy.c). */
        for (k = 0; k < e->num_segments; k++) {
            segs[k].first_chunk = k;
            segs[k].num_chunks = 1;
            chunk_segment[k] = k;
        }
        n = e->num_segments;
    } else {
        uint64_t magic = divide_magic(chunk_bits);

        for (k = 0; k < e->num_segments; k++) {
            uint32_t *fill = chunk_segment + n;
            size_t i;

            c = segs[k].bit_count ? divide(segs[k].bit_count - 1, chunk_bits, magic) + 1 : 1;
            segs[k].first_chunk = n;
            segs[k].num_chunks = c;
            max_chunks = c > max_chunks ? c : max_chunks;
            for (i = 0; i < c; i += 4) {        /* in groups of 4, one vector store, past the end */
                fill[i] = k;
                fill[i + 1] = k;
                fill[i + 2] = k;
                fill[i + 3] = k;
            }
            n += c;
        }
    }
    e->num_chunks = n;
    e->max_chunks_per_segment = e->num_segments ? max_chunks : 0;
    return 0;
}

int gj_entropy_layout_place(gj_entropy_layout *e, const gj_jpeg_scan *scan, uint32_t total_mcus)
{
    e->damaged = scan->truncated;
    if (place_pieces(e, scan, total_mcus) < 0)
        return gj_fail(GJ_ERROR_NOMEM, "out of memory laying out a scan of %zu bytes", scan->data_size);
    return 0;
}

int gj_entropy_layout_scan(gj_entropy_layout *e, const uint8_t *data, const gj_jpeg_scan *scan,
                           uint32_t total_mcus, uint32_t chunk_bits)
{
    size_t end;
    int ret = gj_entropy_layout_unstuff(e, data, scan->data_offset, scan->data_offset + scan->data_size, &end);

    if (ret < 0 || (ret = gj_entropy_layout_place(e, scan, total_mcus)) < 0)
        return ret;
    return gj_entropy_layout_chunk(e, chunk_bits);
}

void gj_entropy_layout_free(gj_entropy_layout *e)
{
    if (e->bytes)
        free_bytes(e);
    free_uploaded(e, e->segments);
    free_uploaded(e, e->chunk_segment);
    free(e->piece_start);
    free(e->piece_rst);
    memset(e, 0, sizeof(*e));
}
