/*
 * Bit reader over one entropy-coded segment whose byte stuffing was removed on the
 * host. Bits past the segment's end read as zeros, which is how libjpeg fills a
 * segment that ends early (T.81 F.2.2.5; libjpeg's jpeg_fill_bit_buffer).
 * Bytes are fetched as aligned 32-bit words: the buffer is padded to a word.
 *
 * The decoders take a symbol and its value bits (at most 32 together) in one
 * gj_br_consume(), which tops the cache up with at most one word: every lane of a
 * warp refills at a different symbol, so the refill is short and has no loop (a
 * refill after the code and another after the value bits, each a loop, made half
 * of the decoding loop's instructions on a GPU). Positions are 32-bit, relative to
 * the word holding the segment's first byte (a scan is at most 2^29 bytes).
 */
#ifndef GJ_KERNELS_JPEG_BITREADER_H
#define GJ_KERNELS_JPEG_BITREADER_H

#include "common.h"

typedef struct gj_bitreader {
    GJ_GLOBAL const gj_u32 *words;  /* from the word holding the segment's first byte */
    gj_u32 byte_end;                /* first byte past the segment, relative to words */
    gj_u32 end_mask;                /* the bytes of the word holding byte_end before it */
    gj_u32 next_byte;               /* where the word ahead starts (word-aligned) */
    gj_u32 ahead;                   /* that word, loaded one word early: its latency hides
                                     * behind the decoding of the bits before it */
    gj_u64 cache;                   /* left-aligned unread bits */
    gj_u32 cached;                  /* how many bits of cache are valid: 32 or more
                                     * between two gj_br_consume() */
    gj_u32 pos;                     /* bits consumed since the segment start */
} gj_bitreader;

#if defined(__CUDACC__)
#define gj_bswap32(w) __byte_perm((w), 0u, 0x0123u)
#else
GJ_FUNC gj_u32 gj_bswap32(gj_u32 w)
{
    return (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
}
#endif

/* The word at aligned byte `at`, unless it starts past the segment. */
GJ_FUNC gj_u32 gj_br_fetch(const gj_bitreader *br, gj_u32 at)
{
    return at < br->byte_end ? br->words[at >> 2] : 0;
}

/* w, fetched at the aligned byte `at` and byte-swapped, holds the bytes from `at` on,
 * left-aligned: zeroes those past the segment (only the word holding byte_end has
 * some; the fetch gave 0 for the words after it). */
GJ_FUNC gj_u32 gj_br_clip(const gj_bitreader *br, gj_u32 at, gj_u32 w)
{
    return (at ^ br->byte_end) < 4 ? w & br->end_mask : w;
}

/* Appends the word ahead to the cache and starts loading the one after it. Needs cached <= 32. */
GJ_FUNC void gj_br_load_word(gj_bitreader *br)
{
    gj_u32 at = br->next_byte;

    br->cache |= (gj_u64)gj_br_clip(br, at, gj_bswap32(br->ahead)) << (32 - br->cached);
    br->cached += 32;
    br->next_byte = at + 4;
    br->ahead = gj_br_fetch(br, at + 4);
}

GJ_FUNC void gj_br_init(gj_bitreader *br, GJ_GLOBAL const gj_u32 *words, gj_u64 byte_start,
                        gj_u32 byte_count, gj_u32 bit_pos)
{
    gj_u32 base = (gj_u32)(byte_start & 3), at = base + (bit_pos >> 3);
    gj_u32 skip = at & 3;

    br->words = words + (byte_start >> 2);
    br->byte_end = base + byte_count;
    br->end_mask = ~(0xFFFFFFFFu >> (8 * (br->byte_end & 3)));
    /* The rest of the word holding the first byte, then whole words. */
    br->next_byte = at - skip;
    br->ahead = gj_br_fetch(br, br->next_byte);
    br->cache = 0;
    br->cached = 0;
    gj_br_load_word(br);
    br->cache <<= 8 * skip + (bit_pos & 7);
    br->cached -= 8 * skip + (bit_pos & 7);
    gj_br_load_word(br);
    br->pos = bit_pos;
}

/* The next n bits (1..32) without consuming them. */
GJ_FUNC gj_u32 gj_br_peek(const gj_bitreader *br, gj_u32 n)
{
    return (gj_u32)(br->cache >> (64 - n));
}

/*
 * Consumes n bits (at most 32), keeping 32 or more in the cache. The refill is
 * selects and a predicated load, not a branch: some lane of a warp refills at
 * nearly every symbol, so a branch only added its divergence and reconvergence.
 */
GJ_FUNC void gj_br_consume(gj_bitreader *br, gj_u32 n)
{
    gj_u32 at = br->next_byte, left = br->cached - n, refill = left < 32;
    gj_u64 w = gj_br_clip(br, at, gj_bswap32(br->ahead));

    br->cache = br->cache << n | (refill ? w << ((32 - left) & 63) : 0);
    br->cached = refill ? left + 32 : left;
    br->pos += n;
    br->next_byte = refill ? at + 4 : at;
    if (refill)
        br->ahead = gj_br_fetch(br, at + 4);
}

#endif /* GJ_KERNELS_JPEG_BITREADER_H */
