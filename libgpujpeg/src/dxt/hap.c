/*
 * HAP frames (Vidvox's HAP video specification): a section header holding the
 * texture format and the second-stage compressor, then the blocks as DDS lays
 * them out, either whole (one chunk) or as chunks described by decode
 * instructions. Section header: 3 bytes of little-endian size and a type byte;
 * size 0 means the size follows in 4 more bytes (sections of 2^24 bytes or more).
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dxt/dxt_private.h"
#include "log.h"
#include "thread_pool.h"

#ifdef HAVE_SNAPPY
#include <snappy-c.h>
#endif

/* Texture formats (low nibble of the top section's type). */
#define HAP_TEXTURE_BC1     0x0b
#define HAP_TEXTURE_BC3     0x0e
#define HAP_TEXTURE_YCOCG   0x0f
#define HAP_TEXTURE_RGTC1   0x01

/* Second-stage compressors (high nibble of the top section's type; low nibble in the compressor table). */
#define HAP_STORED          0x0a
#define HAP_SNAPPY          0x0b
#define HAP_COMPLEX         0x0c

/* Decode instructions and their sections. */
#define HAP_DECODE_INSTRUCTIONS 0x01
#define HAP_COMPRESSOR_TABLE    0x02
#define HAP_SIZE_TABLE          0x03

#define HAP_SHORT_HEADER 4
#define HAP_LONG_HEADER 8

int gj_hap_snappy_available(void)
{
#ifdef HAVE_SNAPPY
    return 1;
#else
    return 0;
#endif
}

/* The largest a chunk of n bytes can become (snappy's bound; stored chunks are never larger). */
static size_t chunk_bound(size_t n)
{
#ifdef HAVE_SNAPPY
    return snappy_max_compressed_length(n);
#else
    return n;
#endif
}

/* Bytes of the top section's header and of the decode instructions before the chunks. */
static size_t header_size(int chunks)
{
    size_t n = HAP_LONG_HEADER;

    if (chunks > 1)     /* instructions header, compressor table, size table */
        n += HAP_SHORT_HEADER + HAP_SHORT_HEADER + (size_t)chunks + HAP_SHORT_HEADER + 4 * (size_t)chunks;
    return n;
}

size_t gj_hap_max_size(size_t blocks_size, int chunks)
{
    if (chunks < 1 || chunks > GJ_HAP_MAX_CHUNKS || !blocks_size)
        return 0;
    /* Every chunk is at most its bound; the bound of the largest covers each. */
    return header_size(chunks) + (size_t)chunks * chunk_bound(blocks_size / (size_t)chunks + 16);
}

/* A section header of `size` bytes after it; the long form when size needs more than 24 bits or `long_form`. */
static uint8_t *put_section_header(uint8_t *p, size_t size, uint8_t type, int long_form)
{
    long_form |= size >= (1u << 24);
    p[0] = long_form ? 0 : (uint8_t)size;
    p[1] = long_form ? 0 : (uint8_t)(size >> 8);
    p[2] = long_form ? 0 : (uint8_t)(size >> 16);
    p[3] = type;
    if (!long_form)
        return p + HAP_SHORT_HEADER;
    for (int i = 0; i < 4; i++)
        p[4 + i] = (uint8_t)(size >> (8 * i));
    return p + HAP_LONG_HEADER;
}

static int texture_format(enum gj_dxt_format format)
{
    switch (format) {
    case GJ_DXT_FORMAT_BC1:   return HAP_TEXTURE_BC1;
    case GJ_DXT_FORMAT_BC3:   return HAP_TEXTURE_BC3;
    case GJ_DXT_FORMAT_YCOCG: return HAP_TEXTURE_YCOCG;
    case GJ_DXT_FORMAT_BC4:   return HAP_TEXTURE_RGTC1;
    default:                  return -1;
    }
}

/* One chunk: its blocks, where its compressed bytes go first (a slot of
 * chunk_bound bytes), its final place in the frame, and the result. */
typedef struct hap_chunk {
    const uint8_t *src;
    size_t src_size;
    uint8_t *slot;
    uint8_t *dst;
    size_t dst_size;
    uint8_t compressor;     /* HAP_STORED or HAP_SNAPPY */
} hap_chunk;

struct gj_hap_packer {
    gj_thread_pool *pool;
    uint8_t *scratch;       /* the slots of frames of several chunks, kept across frames */
    size_t scratch_size;
};

/* Compresses a chunk into its slot; where snappy does not make it smaller it is stored. */
static void compress_chunk(void *arg, int i)
{
    hap_chunk *c = (hap_chunk *)arg + i;

    c->compressor = HAP_STORED;
    c->dst_size = c->src_size;
#ifdef HAVE_SNAPPY
    {
        size_t n = chunk_bound(c->src_size);
        if (snappy_compress((const char *)c->src, c->src_size, (char *)c->slot, &n) == SNAPPY_OK &&
            n < c->src_size) {
            c->dst_size = n;
            c->compressor = HAP_SNAPPY;
        }
    }
#endif
}

/* Puts a chunk in its place in the frame: stored from the blocks, snappy from its slot. */
static void place_chunk(void *arg, int i)
{
    hap_chunk *c = (hap_chunk *)arg + i;

    if (c->compressor == HAP_STORED)
        memcpy(c->dst, c->src, c->dst_size);
    else if (c->dst != c->slot)
        memcpy(c->dst, c->slot, c->dst_size);
}

int gj_hap_packer_create(gj_hap_packer **out, int threads)
{
    gj_hap_packer *packer;
    int ret;

    if (!out)
        return GJ_ERROR_INVAL;
    *out = NULL;
    if (!(packer = calloc(1, sizeof(*packer))))
        return GJ_ERROR_NOMEM;
    threads = threads < 1 ? 1 : threads > GJ_HAP_MAX_CHUNKS ? GJ_HAP_MAX_CHUNKS : threads;
    if ((ret = gj_thread_pool_create(&packer->pool, threads)) < 0) {
        free(packer);
        return ret;
    }
    *out = packer;
    return 0;
}

void gj_hap_packer_free(gj_hap_packer **ppacker)
{
    gj_hap_packer *packer = ppacker ? *ppacker : NULL;

    if (!packer)
        return;
    gj_thread_pool_free(&packer->pool);
    free(packer->scratch);
    free(packer);
    *ppacker = NULL;
}

int gj_hap_auto_chunks(size_t blocks_size)
{
    size_t chunks = blocks_size / GJ_HAP_AUTO_CHUNK_BYTES;

    return chunks < 1 ? 1 : chunks > GJ_HAP_MAX_CHUNKS ? GJ_HAP_MAX_CHUNKS : (int)chunks;
}

/*
 * Compresses every chunk on the pool's threads. One chunk goes straight into
 * the frame. Several go first into slots of the scratch buffer (their sizes are
 * known only afterwards), then each is copied into its place, in parallel as
 * well: the places do not overlap the slots, unlike slots in the frame itself,
 * which would have to be closed up one after the other.
 */
static int compress_chunks(gj_hap_packer *packer, hap_chunk *c, int chunks, int snappy, uint8_t *frame_data)
{
    size_t need = 0, total = 0;

    for (int i = 0; i < chunks; i++) {
        c[i].compressor = HAP_STORED;
        c[i].dst_size = c[i].src_size;
        c[i].slot = NULL;
        need += chunk_bound(c[i].src_size);
    }
    if (snappy && chunks == 1) {
        c[0].slot = frame_data;
    } else if (snappy) {
        if (need > packer->scratch_size) {
            free(packer->scratch);
            packer->scratch_size = 0;
            if (!(packer->scratch = malloc(need)))
                return gj_fail(GJ_ERROR_NOMEM, "HAP: out of memory for %zu bytes of chunks", need);
            packer->scratch_size = need;
        }
        c[0].slot = packer->scratch;
        for (int i = 1; i < chunks; i++)
            c[i].slot = c[i - 1].slot + chunk_bound(c[i - 1].src_size);
    }
    if (snappy)
        gj_thread_pool_run(packer->pool, compress_chunk, c, chunks);
    for (int i = 0; i < chunks; i++) {
        c[i].dst = frame_data + total;
        total += c[i].dst_size;
    }
    gj_thread_pool_run(packer->pool, place_chunk, c, chunks);
    return 0;
}

int gj_hap_packer_pack(gj_hap_packer *packer, const gj_dxt_blocks *blocks, enum gj_hap_compressor compressor,
                       int chunks, uint8_t *out, size_t out_size, size_t *frame_size)
{
    hap_chunk c[GJ_HAP_MAX_CHUNKS];
    size_t nb_blocks, block_bytes, total = 0, head;
    int texture, ret;
    uint8_t *p;

    if (!packer || !blocks || !out || !frame_size)
        return GJ_ERROR_INVAL;
    if ((texture = texture_format(blocks->format)) < 0)
        return gj_fail(GJ_ERROR_INVAL, "HAP: blocks of unknown format %d", (int)blocks->format);
    if (blocks->memory != GJ_MEMORY_HOST || !blocks->data)
        return gj_fail(GJ_ERROR_INVAL, "HAP: the blocks must be in host memory");
    if (compressor != GJ_HAP_NONE && compressor != GJ_HAP_SNAPPY)
        return gj_fail(GJ_ERROR_INVAL, "HAP: unknown compressor %d", (int)compressor);
    if (compressor == GJ_HAP_SNAPPY && !gj_hap_snappy_available())
        return gj_fail(GJ_ERROR_UNSUPPORTED, "HAP: snappy compression is unsupported (built without libsnappy)");
    block_bytes = blocks->format == GJ_DXT_FORMAT_BC1 || blocks->format == GJ_DXT_FORMAT_BC4 ? 8 : 16;
    nb_blocks = blocks->size / block_bytes;
    if (!nb_blocks || blocks->size % block_bytes)
        return gj_fail(GJ_ERROR_INVAL, "HAP: %zu bytes are not whole blocks", blocks->size);
    if (chunks < 1 || chunks > GJ_HAP_MAX_CHUNKS || (size_t)chunks > nb_blocks)
        return gj_fail(GJ_ERROR_INVAL, "HAP: %d chunks for %zu blocks (1 to %d, at most one per block)", chunks,
                       nb_blocks, GJ_HAP_MAX_CHUNKS);
    if (out_size < gj_hap_max_size(blocks->size, chunks))
        return gj_fail(GJ_ERROR_INVAL, "HAP: output of %zu bytes, %zu needed", out_size,
                       gj_hap_max_size(blocks->size, chunks));

    /* Chunks of whole blocks, as even as the block count allows. */
    head = header_size(chunks);
    for (int i = 0; i < chunks; i++) {
        size_t first = nb_blocks * (size_t)i / (size_t)chunks, end = nb_blocks * (size_t)(i + 1) / (size_t)chunks;
        c[i].src = blocks->data + blocks->offset + first * block_bytes;
        c[i].src_size = (end - first) * block_bytes;
    }
    if ((ret = compress_chunks(packer, c, chunks, compressor == GJ_HAP_SNAPPY, out + head)) < 0)
        return ret;
    for (int i = 0; i < chunks; i++)
        total += c[i].dst_size;

    p = out;
    if (chunks == 1) {
        put_section_header(p, total, (uint8_t)(c[0].compressor << 4 | texture), 1);
    } else {
        p = put_section_header(p, head - HAP_LONG_HEADER + total, (uint8_t)(HAP_COMPLEX << 4 | texture), 1);
        p = put_section_header(p, head - HAP_LONG_HEADER - HAP_SHORT_HEADER, HAP_DECODE_INSTRUCTIONS, 0);
        p = put_section_header(p, (size_t)chunks, HAP_COMPRESSOR_TABLE, 0);
        for (int i = 0; i < chunks; i++)
            *p++ = c[i].compressor;
        p = put_section_header(p, 4 * (size_t)chunks, HAP_SIZE_TABLE, 0);
        for (int i = 0; i < chunks; i++)
            for (int b = 0; b < 4; b++)
                *p++ = (uint8_t)(c[i].dst_size >> (8 * b));
    }
    *frame_size = head + total;
    return 0;
}

int gj_hap_pack(const gj_dxt_blocks *blocks, enum gj_hap_compressor compressor, int chunks, int threads,
                uint8_t *out, size_t out_size, size_t *frame_size)
{
    gj_hap_packer *packer;
    int ret;

    /* threads for this frame only; no more than there are chunks to share */
    if ((ret = gj_hap_packer_create(&packer, threads < chunks ? threads : chunks)) < 0)
        return ret;
    ret = gj_hap_packer_pack(packer, blocks, compressor, chunks, out, out_size, frame_size);
    gj_hap_packer_free(&packer);
    return ret;
}
