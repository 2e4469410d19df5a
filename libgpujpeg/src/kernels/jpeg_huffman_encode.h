/*
 * Huffman coding of the quantised blocks (T.81 F.1.2), in parallel without
 * restart markers: every block's coded length is computed on its own (DC
 * differences need only the previous block's DC, which is already known), a
 * prefix sum gives each block its bit offset, and each block then writes its
 * codes at that offset. Restart intervals (T.81 B.2.1, F.1.2.3) start byte-aligned
 * segments whose DC predictors restart at 0; every segment ends padded with 1
 * bits (libjpeg's flush_bits). The symbol histograms for optimised tables (K.2)
 * come from the same walk over the blocks.
 */
#ifndef GJ_KERNELS_JPEG_HUFFMAN_ENCODE_H
#define GJ_KERNELS_JPEG_HUFFMAN_ENCODE_H

#include "jpeg_encode_params.h"

/* Bits of |v| (T.81 F.1.2.1.1 SSSS). */
GJ_FUNC gj_u32 gj_enc_magnitude_bits(gj_i32 v)
{
    return 64 - gj_clz64((gj_u64)(gj_u32)(v < 0 ? -v : v));
}

/* The SSSS low bits that follow a symbol: v, or v - 1 for negative v (F.1.2.1.1). */
GJ_FUNC gj_u32 gj_enc_magnitude_code(gj_i32 v, gj_u32 bits)
{
    return (gj_u32)(v < 0 ? v - 1 : v) & ((1u << bits) - 1);
}

GJ_FUNC gj_u32 gj_enc_segment_of(GJ_GLOBAL const gj_enc_params *p, gj_u32 mcu)
{
    return p->restart_interval ? mcu / p->restart_interval : 0;
}

/* DC difference of block k (F.1.2.1): the predictor is the component's previous
 * block in the same segment, 0 at the start of a segment. */
GJ_FUNC gj_i32 gj_enc_dc_diff(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_i16 *coefs, gj_u32 k)
{
    gj_u32 bim = p->blocks_in_mcu, mcu = k / bim, s = k - mcu * bim;
    GJ_GLOBAL const gj_enc_slot *slot = &p->slots[s];
    gj_i32 dc = coefs[(gj_u64)k * 64];
    gj_u32 prev;

    if (slot->prev_in_last_mcu) {
        if (mcu == 0 || (p->restart_interval && mcu % p->restart_interval == 0))
            return dc;
        prev = (mcu - 1) * bim + slot->prev_slot;
    } else {
        prev = mcu * bim + slot->prev_slot;
    }
    return dc - coefs[(gj_u64)prev * 64];
}

/* A block's AC coefficients in zig-zag order, and where the walk over them stands. */
typedef struct gj_enc_ac_walk {
    GJ_GLOBAL const gj_i16 *block;
    gj_u64 rest;            /* non-zero coefficients not yet coded (bit = zig-zag index) */
    gj_u32 pos;             /* the next index to code */
} gj_enc_ac_walk;

GJ_FUNC gj_enc_ac_walk gj_enc_ac_start(GJ_GLOBAL const gj_i16 *coefs, GJ_GLOBAL const gj_u32 *masks, gj_u32 k)
{
    gj_enc_ac_walk w;

    w.block = coefs + (gj_u64)k * 64;
    w.rest = (gj_u64)masks[(gj_u64)k * 2 + 1] << 32 | masks[(gj_u64)k * 2];
    w.pos = 1;
    return w;
}

/*
 * The next AC symbol (F.1.2.2): RRRRSSSS with its magnitude bits, ZRL (0xF0) for
 * 16 zeros before a non-zero coefficient, EOB (0x00) when only zeros remain.
 * Returns 0 after the last symbol.
 */
GJ_FUNC gj_u32 gj_enc_next_ac(gj_enc_ac_walk *w, gj_u32 *symbol, gj_u32 *extra, gj_u32 *extra_bits)
{
    gj_u32 nz, run;
    gj_i32 v;

    if (w->pos >= 64)
        return 0;
    *extra = 0;
    *extra_bits = 0;
    if (!w->rest) {
        w->pos = 64;
        *symbol = 0x00;
        return 1;
    }
    nz = 63 - gj_clz64(w->rest & (~w->rest + 1));     /* the lowest set bit */
    run = nz - w->pos;
    if (run > 15) {
        w->pos += 16;
        *symbol = 0xf0;
        return 1;
    }
    v = w->block[nz];
    w->pos = nz + 1;
    w->rest &= w->rest - 1;
    *extra_bits = gj_enc_magnitude_bits(v);
    *extra = gj_enc_magnitude_code(v, *extra_bits);
    *symbol = run << 4 | *extra_bits;
    return 1;
}

/* Symbol counts of every table (layout of gj_enc_huffman: DC 0, DC 1, AC 0, AC 1). */
GJ_KERNEL gj_jpeg_enc_histogram(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_i16 *coefs,
                                GJ_GLOBAL const gj_u32 *masks, GJ_GLOBAL gj_u32 *histogram)
{
    GJ_LOCAL_DECL gj_u32 counts[GJ_ENC_HISTOGRAM_WORDS];
    gj_u32 t = gj_local_id(), k = (gj_u32)gj_global_id(), i;

    for (i = t; i < GJ_ENC_HISTOGRAM_WORDS; i += GJ_ENC_GROUP)
        counts[i] = 0;
    gj_barrier();
    if (k < p->num_blocks) {
        gj_enc_ac_walk w = gj_enc_ac_start(coefs, masks, k);
        gj_u32 table = p->slots[k % p->blocks_in_mcu].table, symbol, extra, extra_bits;
        gj_atomic_add_u32(&counts[table * 256 + gj_enc_magnitude_bits(gj_enc_dc_diff(p, coefs, k))], 1u);
        while (gj_enc_next_ac(&w, &symbol, &extra, &extra_bits))
            gj_atomic_add_u32(&counts[(2 + table) * 256 + symbol], 1u);
    }
    gj_barrier();
    for (i = t; i < GJ_ENC_HISTOGRAM_WORDS; i += GJ_ENC_GROUP)
        if (counts[i])
            gj_atomic_add_u32(&histogram[i], counts[i]);
}

/* Coded bits of block k with the tables in `codes` (gj_enc_huffman words). */
GJ_FUNC gj_u32 gj_enc_block_bits(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_i16 *coefs,
                                 GJ_GLOBAL const gj_u32 *masks, GJ_GLOBAL const gj_u32 *codes, gj_u32 k)
{
    gj_enc_ac_walk w = gj_enc_ac_start(coefs, masks, k);
    gj_u32 table = p->slots[k % p->blocks_in_mcu].table, symbol, extra, extra_bits;
    gj_u32 dc_bits = gj_enc_magnitude_bits(gj_enc_dc_diff(p, coefs, k));
    gj_u32 total = (codes[table * 256 + dc_bits] & 0xff) + dc_bits;

    while (gj_enc_next_ac(&w, &symbol, &extra, &extra_bits))
        total += (codes[(2 + table) * 256 + symbol] & 0xff) + extra_bits;
    return total;
}

/* bits[k] = coded bits of block k. */
GJ_KERNEL gj_jpeg_enc_block_bits(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_i16 *coefs,
                                 GJ_GLOBAL const gj_u32 *masks, GJ_GLOBAL const gj_u32 *codes, GJ_GLOBAL gj_u64 *bits)
{
    gj_u32 k = (gj_u32)gj_global_id();

    if (k < p->num_blocks)
        bits[k] = gj_enc_block_bits(p, coefs, masks, codes, k);
}

/*
 * seg_bits[s] = the coded bits of segment s padded to whole bytes (offsets: the
 * blocks' exclusive prefix sum, with the total at [num_blocks]). A picture of one
 * segment needs no prefix sum of them: its offsets go to seg_offsets directly.
 */
GJ_KERNEL gj_jpeg_enc_segment_bits(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_u64 *offsets,
                                   GJ_GLOBAL gj_u64 *seg_bits, GJ_GLOBAL gj_u64 *seg_offsets)
{
    gj_u32 s = (gj_u32)gj_global_id();
    gj_u64 per = p->restart_interval ? (gj_u64)p->restart_interval * p->blocks_in_mcu : p->num_blocks;
    gj_u64 first, end, bits;

    if (s >= p->num_segments)
        return;
    first = (gj_u64)s * per;
    end = gj_min(first + per, (gj_u64)p->num_blocks);
    bits = (offsets[end] - offsets[first] + 7) & ~(gj_u64)7;
    seg_bits[s] = bits;
    if (p->num_segments == 1) {
        seg_offsets[0] = 0;
        seg_offsets[1] = bits;
    }
}

/* Big-endian bit writer into 32-bit words (stored byte-swapped: memory is little-endian). */
typedef struct gj_enc_bit_writer {
    GJ_GLOBAL gj_u32 *words;
    gj_u64 word;            /* index of the word being filled */
    gj_u64 acc;             /* its bits from bit 63 down */
    gj_u32 used;            /* bits of acc in use, including those of earlier blocks */
    gj_u32 shared;          /* the word being filled may hold another block's bits */
} gj_enc_bit_writer;

GJ_FUNC gj_u32 gj_enc_bswap32(gj_u32 v)
{
    return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}

GJ_FUNC void gj_enc_flush_word(gj_enc_bit_writer *w)
{
    gj_u32 v = gj_enc_bswap32((gj_u32)(w->acc >> 32));

    if (w->shared)
        gj_atomic_or_u32(&w->words[w->word], v);
    else
        w->words[w->word] = v;
}

/* Appends the low n bits of value (n <= 32). */
GJ_FUNC void gj_enc_put_bits(gj_enc_bit_writer *w, gj_u32 value, gj_u32 n)
{
    if (!n)
        return;
    w->acc |= (gj_u64)(value & (gj_u32)(((gj_u64)1 << n) - 1)) << (64 - w->used - n);
    w->used += n;
    if (w->used >= 32) {
        gj_enc_flush_word(w);
        w->acc <<= 32;
        w->used -= 32;
        w->word++;
        w->shared = 0;
    }
}

/* Appends the code of `symbol` in table `t` (codes: code << 8 | length) and `extra_bits` more bits. */
GJ_FUNC void gj_enc_put_symbol(gj_enc_bit_writer *w, GJ_GLOBAL const gj_u32 *codes, gj_u32 t, gj_u32 symbol,
                               gj_u32 extra, gj_u32 extra_bits)
{
    gj_u32 c = codes[t * 256 + symbol];

    gj_enc_put_bits(w, c >> 8, c & 0xff);
    gj_enc_put_bits(w, extra, extra_bits);
}

/*
 * Writes block k's codes at its bit offset into `words` (zeroed beforehand: words
 * shared with the neighbouring blocks are OR-ed in); the last block of a segment
 * pads the segment to a byte boundary with 1 bits.
 */
GJ_KERNEL gj_jpeg_enc_pack(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_i16 *coefs,
                           GJ_GLOBAL const gj_u32 *masks, GJ_GLOBAL const gj_u32 *codes, GJ_GLOBAL const gj_u64 *offsets,
                           GJ_GLOBAL const gj_u64 *seg_offsets, GJ_GLOBAL gj_u32 *words)
{
    gj_u32 k = (gj_u32)gj_global_id();
    gj_u32 bim = p->blocks_in_mcu, table, symbol, extra, extra_bits, dc_bits, seg;
    gj_u64 per = p->restart_interval ? (gj_u64)p->restart_interval * bim : p->num_blocks, first, bit;
    gj_enc_ac_walk walk;
    gj_enc_bit_writer w;
    gj_i32 diff;

    if (k >= p->num_blocks)
        return;
    walk = gj_enc_ac_start(coefs, masks, k);
    table = p->slots[k % bim].table;
    seg = gj_enc_segment_of(p, k / bim);
    first = (gj_u64)seg * per;
    bit = seg_offsets[seg] + offsets[k] - offsets[first];
    w.words = words;
    w.word = bit >> 5;
    w.used = (gj_u32)(bit & 31);
    w.acc = 0;
    w.shared = 1;
    diff = gj_enc_dc_diff(p, coefs, k);
    dc_bits = gj_enc_magnitude_bits(diff);
    gj_enc_put_symbol(&w, codes, table, dc_bits, gj_enc_magnitude_code(diff, dc_bits), dc_bits);
    while (gj_enc_next_ac(&walk, &symbol, &extra, &extra_bits))
        gj_enc_put_symbol(&w, codes, 2 + table, symbol, extra, extra_bits);
    if (k + 1 == p->num_blocks || k + 1 == first + per)
        gj_enc_put_bits(&w, 0xff, (8 - (w.used & 7)) & 7);
    if (w.used) {
        w.shared = 1;
        gj_enc_flush_word(&w);
    }
}

#endif /* GJ_KERNELS_JPEG_HUFFMAN_ENCODE_H */
