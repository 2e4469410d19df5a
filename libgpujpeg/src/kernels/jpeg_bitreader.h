/*
 * Bit reader over one entropy-coded segment whose byte stuffing was removed on the
 * host. Bits past the segment's end read as zeros, which is how libjpeg fills a
 * segment that ends early (T.81 F.2.2.5; libjpeg's jpeg_fill_bit_buffer).
 */
#ifndef GJ_KERNELS_JPEG_BITREADER_H
#define GJ_KERNELS_JPEG_BITREADER_H

#include "common.h"

typedef struct gj_bitreader {
    GJ_GLOBAL const gj_u8 *bytes;   /* the segment's first byte */
    gj_u32 byte_count;
    gj_u32 next_byte;               /* next byte to load into the cache */
    gj_u64 cache;                   /* left-aligned unread bits */
    gj_u32 cached;                  /* how many bits of cache are valid */
    gj_u32 pos;                     /* bits consumed since the segment start */
} gj_bitreader;

GJ_FUNC void gj_br_refill(gj_bitreader *br)
{
    while (br->cached <= 56) {
        gj_u64 b = br->next_byte < br->byte_count ? (gj_u64)br->bytes[br->next_byte] : 0;
        br->cache |= b << (56 - br->cached);
        br->next_byte++;
        br->cached += 8;
    }
}

GJ_FUNC void gj_br_init(gj_bitreader *br, GJ_GLOBAL const gj_u8 *bytes, gj_u32 byte_count, gj_u32 bit_pos)
{
    br->bytes = bytes;
    br->byte_count = byte_count;
    br->next_byte = bit_pos >> 3;
    br->cache = 0;
    br->cached = 0;
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
