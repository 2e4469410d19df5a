/*
 * Bit reader over one entropy-coded segment whose byte stuffing was removed on the
 * host. Bits past the segment's end read as zeros, which is how libjpeg fills a
 * segment that ends early (T.81 F.2.2.5; libjpeg's jpeg_fill_bit_buffer).
 * Bytes are fetched as aligned 32-bit words: the buffer is padded to a word.
 */
#ifndef GJ_KERNELS_JPEG_BITREADER_H
#define GJ_KERNELS_JPEG_BITREADER_H

#include "common.h"

typedef struct gj_bitreader {
    GJ_GLOBAL const gj_u32 *words;  /* the whole buffer, as words */
    gj_u64 byte_end;                /* first byte past the segment */
    gj_u64 next_byte;               /* where the next word to use starts (word-aligned) */
    gj_u32 ahead;                   /* that word, loaded one word early: its latency hides
                                     * behind the decoding of the bits before it */
    gj_u64 cache;                   /* left-aligned unread bits */
    gj_u32 cached;                  /* how many bits of cache are valid */
    gj_u32 pos;                     /* bits consumed since the segment start */
} gj_bitreader;

GJ_FUNC gj_u32 gj_bswap32(gj_u32 w)
{
    return (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
}

/* The word at aligned byte `at`, unless it starts past the segment. */
GJ_FUNC gj_u32 gj_br_fetch(const gj_bitreader *br, gj_u64 at)
{
    return at < br->byte_end ? br->words[at >> 2] : 0;
}

/* w holds the n bytes from byte `at` on, left-aligned: zeroes those past the segment. */
GJ_FUNC gj_u32 gj_br_clip(const gj_bitreader *br, gj_u64 at, gj_u32 n, gj_u32 w)
{
    if (at + n > br->byte_end && w) {
        gj_u32 valid = br->byte_end > at ? (gj_u32)(br->byte_end - at) : 0;
        w = valid ? w & ~(0xFFFFFFFFu >> (8 * valid)) : 0;
    }
    return w;
}

/* Appends the word ahead to the cache and starts loading the one after it. Needs cached <= 32. */
GJ_FUNC void gj_br_load_word(gj_bitreader *br)
{
    gj_u64 at = br->next_byte;
    gj_u32 w = gj_br_clip(br, at, 4, gj_bswap32(br->ahead));

    br->cache |= (gj_u64)w << (32 - br->cached);
    br->cached += 32;
    br->next_byte = at + 4;
    br->ahead = gj_br_fetch(br, at + 4);
}

GJ_FUNC void gj_br_refill(gj_bitreader *br)
{
    while (br->cached <= 32)
        gj_br_load_word(br);
}

GJ_FUNC void gj_br_init(gj_bitreader *br, GJ_GLOBAL const gj_u32 *words, gj_u64 byte_start,
                        gj_u32 byte_count, gj_u32 bit_pos)
{
    gj_u64 at = byte_start + (bit_pos >> 3);
    gj_u32 skip = (gj_u32)(at & 3), n = 4 - skip;
    gj_u32 w;

    br->words = words;
    br->byte_end = byte_start + byte_count;
    /* The rest of the word holding the first byte, then whole words. */
    br->next_byte = at - skip + 4;
    br->ahead = gj_br_fetch(br, br->next_byte);
    w = at < br->byte_end ? gj_bswap32(words[at >> 2]) << (8 * skip) : 0;
    br->cache = (gj_u64)gj_br_clip(br, at, n, w) << 32;
    br->cached = 8 * n;
    br->pos = bit_pos;
    gj_br_refill(br);
    br->cache <<= bit_pos & 7;
    br->cached -= bit_pos & 7;
}

/* The next n bits (1..32) without consuming them. */
GJ_FUNC gj_u32 gj_br_peek(const gj_bitreader *br, gj_u32 n)
{
    return (gj_u32)(br->cache >> (64 - n));
}

GJ_FUNC void gj_br_skip(gj_bitreader *br, gj_u32 n)
{
    br->cache <<= n;
    br->cached -= n;
    br->pos += n;
    if (br->cached < 32)
        gj_br_refill(br);
}

GJ_FUNC gj_u32 gj_br_get(gj_bitreader *br, gj_u32 n)
{
    gj_u32 v;

    if (n == 0)
        return 0;
    v = gj_br_peek(br, n);
    gj_br_skip(br, n);
    return v;
}

#endif /* GJ_KERNELS_JPEG_BITREADER_H */
