/*
 * Huffman decoding primitives of a baseline scan (T.81 F.2.2), shared by the
 * synchronisation kernels (jpeg_huffman_hyp.h, jpeg_huffman_sync.h) and the
 * coefficient writer. Decoding follows libjpeg-turbo exactly, including its
 * handling of corrupt data: an invalid code yields symbol 0 after 17 bits, runs
 * past coefficient 63 land on 63, and when a segment's data runs out the current
 * MCU is finished with zero bits and the rest of the segment stays zero (grey).
 */
#ifndef GJ_KERNELS_JPEG_HUFFMAN_H
#define GJ_KERNELS_JPEG_HUFFMAN_H

#include "common.h"
#include "jpeg_bitreader.h"
#include "jpeg_params.h"

/* Per-chunk results of a decode run: blocks begun and DC differences per component. */
#define GJ_CHUNK_SUMS 5     /* [0] blocks, [1..4] DC sums of components 0..3 */

#define GJ_NATURAL_ORDER_SIZE 80
GJ_CONST_DATA gj_u8 gj_natural_order[GJ_NATURAL_ORDER_SIZE] = GJ_JPEG_NATURAL_ORDER_INIT;

/* T.81 F.2.2.1 EXTEND: the signed value of an s-bit magnitude field (s <= 16),
 * without a branch: a field whose top bit is clear is negative; s = 0 gives 0. */
GJ_FUNC gj_i32 gj_huff_extend(gj_u32 v, gj_u32 s)
{
    return (gj_i32)v - ((v << 1) >> s == 0 ? (gj_i32)((1u << s) - 1) : 0);
}

/*
 * Decodes one Huffman symbol (T.81 F.2.2.3 with a lookup table for short codes)
 * from the next 32 bits, `peek`; *len receives its code length. Longer codes take
 * the shortest length whose largest code is not below the peeked prefix; every
 * length is tested without an early exit, so the threads of a warp, which all
 * reach this path when one does, stay together.
 */
GJ_FUNC gj_u32 gj_huff_symbol(gj_u32 peek, GJ_LOCAL const gj_huff_table *t, gj_u32 *len)
{
    gj_u32 e = t->lookup[peek >> (32 - GJ_HUFF_LOOKUP_BITS)];
    gj_u32 l = e >> 8, sym = e & 0xFF, code = peek >> 16, k;

    if (!l) {
        l = 17;         /* libjpeg: a bad code costs 17 bits and decodes as 0 */
        for (k = 16; k > GJ_HUFF_LOOKUP_BITS; k--)
            l = (gj_i32)(code >> (16 - k)) <= t->maxcode[k] ? k : l;
        sym = l <= 16 ? t->values[(gj_u32)((gj_i32)(code >> (16 - l)) + t->valoffset[l]) & 0xFF] : 0;
    }
    *len = l;
    return sym;
}

/* The s value bits that follow a code of `len` bits in `peek` (s + len <= 32; s = 0
 * gives 0 from the 64-bit shift, without a branch). */
GJ_FUNC gj_u32 gj_huff_value_bits(gj_u32 peek, gj_u32 len, gj_u32 s)
{
    return (gj_u32)((gj_u64)(peek << len) >> (32 - s));
}

GJ_FUNC gj_u32 gj_huff_state_equal(const gj_huff_state *a, const gj_huff_state *b)
{
    return a->bit == b->bit && a->slot == b->slot && a->zz == b->zz && a->flags == b->flags;
}

/* Every global read and write of a state goes through these two (jpeg_params.h
 * gj_huff_packed_state); the load leaves GJ_STATE_CHANGED out of the flags. */
GJ_FUNC void gj_huff_state_load(gj_huff_state *dst, GJ_GLOBAL const gj_huff_packed_state *src)
{
    gj_u64 v = *src;
    gj_u32 w = (gj_u32)(v >> 32);

    dst->bit = (gj_u32)v;
    dst->slot = w & 0xFFu;
    dst->zz = (w >> 8) & 0xFFu;
    dst->flags = (w >> 16) & ~GJ_STATE_CHANGED;
}

GJ_FUNC void gj_huff_state_store(GJ_GLOBAL gj_huff_packed_state *dst, const gj_huff_state *src, gj_u32 changed)
{
    gj_u32 w = src->slot | src->zz << 8 | (src->flags | (changed ? GJ_STATE_CHANGED : 0u)) << 16;

    *dst = (gj_u64)w << 32 | src->bit;
}

/* Whether the stored state was marked changed (gj_huff_state_store()). */
GJ_FUNC gj_u32 gj_huff_state_changed(GJ_GLOBAL const gj_huff_packed_state *src)
{
    return (gj_u32)(*src >> 48) & GJ_STATE_CHANGED ? 1u : 0u;
}

/* Block-boundary marks of a run (jpeg_huffman_hyp.h): a mark is the state at a block
 * boundary, (bit - mark_base) << 4 | slot; below GJ_HYP_NO_MARK, which fills unused ones. */
#define GJ_MARK_NONE 0
#define GJ_MARK_RECORD 1        /* write the first GJ_HYP_MARKS marks the run passes */
#define GJ_MARK_MATCH 2         /* stop at the first mark found among match[] */
#define GJ_HYP_MARKS 6
#define GJ_HYP_NO_MARK 0xFFFFu
#define GJ_HYP_NONE 0xFFu       /* no hypothesis matched */

/* Where one decode run writes, and the DC predictors at its start. */
typedef struct gj_huff_output {
    GJ_GLOBAL gj_i16 *coefs;
    GJ_LOCAL const gj_u8 *natural;  /* gj_natural_order in local memory: a constant load per
                                     * coefficient held each store behind it */
    gj_u32 write;
    gj_u32 first_block;         /* scan-relative index of the next block begun */
    gj_u32 block_limit;         /* blocks at or past this index are dropped */
    gj_i32 dc_base0, dc_base1, dc_base2, dc_base3;
    gj_u32 mark_mode;           /* GJ_MARK_* */
    gj_u32 mark_base;
    gj_u32 mark_count;          /* RECORD: marks written; MATCH: entries of match[] */
    gj_u32 matched;             /* MATCH: index of the matching entry, or GJ_HYP_NONE */
    GJ_GLOBAL gj_u16 *marks;
    GJ_GLOBAL const gj_u16 *match;
    GJ_LOCAL const gj_u32 *filter;  /* MATCH, when filtered: bit r set when some entry of match[] is at r */
    gj_u32 filtered;
    /* A synchronising run records where the writing kernel's parts of the chunk start
     * (gj_huff_part_begins()): the state at the first symbol boundary past bit
     * part_after, then part_bits further, parts_left times, each with the sums of the
     * part it ends; part_prev holds the sums at the last one. ~0u: none (no bit is
     * past it, so the other runs compile without the test). */
    gj_u32 part_after, part_bits, parts_left;
    gj_i32 part_prev[GJ_CHUNK_SUMS];
    GJ_GLOBAL gj_huff_packed_state *part_states;
    GJ_GLOBAL gj_i32 *part_sums;
    gj_u32 stop_after;          /* writing run of a part: ends at the first symbol boundary past
                                 * this bit, in a segment's last chunk too (~0u: no part end) */
} gj_huff_output;

/* A run that records nothing, writes nothing and ends where its chunk does. */
GJ_FUNC void gj_huff_output_plain(gj_huff_output *out)
{
    out->write = 0;
    out->first_block = 0;
    out->mark_mode = GJ_MARK_NONE;
    out->part_after = ~0u;
    out->parts_left = 0;
    out->stop_after = ~0u;
}

/*
 * A MATCH run's filter: one bit per position (bit - mark_base) below
 * GJ_HYP_FILTER_BITS, set where some entry of match[] lies. Each lane of a warp
 * reaches its block boundaries at other symbols, so a search of every entry at
 * every boundary held the whole warp at nearly every symbol; the filter leaves
 * the search to the positions where some entry lies (farther ones always search).
 */
#define GJ_HYP_FILTER_BITS 1024
#define GJ_HYP_FILTER_WORDS (GJ_HYP_FILTER_BITS / 32)

/* Records or matches the block boundary at (pos, slot); returns 1 to end the run. */
GJ_FUNC gj_u32 gj_huff_mark(gj_huff_output *out, gj_u32 pos, gj_u32 slot)
{
    gj_u32 rel = pos - out->mark_base, m = rel << 4 | slot, i;

    if (rel >= (GJ_HYP_NO_MARK >> 4))
        return 0;
    if (out->mark_mode == GJ_MARK_RECORD) {
        if (out->mark_count < GJ_HYP_MARKS)
            out->marks[out->mark_count++] = (gj_u16)m;
        return 0;
    }
    if (out->filtered && rel < GJ_HYP_FILTER_BITS && !((out->filter[rel >> 5] >> (rel & 31)) & 1u))
        return 0;
    for (i = 0; i < out->mark_count; i++) {
        if (out->match[i] == m) {
            out->matched = i;
            return 1;
        }
    }
    return 0;
}

/* Per-component values live in scalars: a private array indexed at run time
 * would go to (slow) local memory on GPUs. */
GJ_FUNC gj_i32 gj_pick4(gj_u32 c, gj_i32 a, gj_i32 b, gj_i32 d, gj_i32 e)
{
    return c == 0 ? a : c == 1 ? b : c == 2 ? d : e;
}

/* Where the block of `slot` in MCU (mx, my) starts in the coefficient buffer. */
GJ_FUNC gj_u64 gj_huff_block_offset(GJ_LOCAL const gj_u32 *slot_info, gj_u32 slot, gj_u32 mx, gj_u32 my)
{
    gj_u32 block = GJ_SLOT_BASE(slot_info, slot) + my * GJ_SLOT_ROW(slot_info, slot) + mx * GJ_SLOT_COL(slot_info, slot);

    return (gj_u64)block * 64;
}

/*
 * At an MCU boundary of a segment's last chunk: is the segment done? The writing
 * run knows where the segment ends and decodes exactly its MCUs, like libjpeg
 * (which, when the data ends on an MCU boundary, still decodes one more MCU from
 * zero bits). The speculative runs only need a cheap bound: they stop at the
 * padding (fewer than 8 bits left, all ones) or after the segment's MCU count.
 */
GJ_FUNC gj_u32 gj_huff_segment_complete(const gj_bitreader *br, GJ_GLOBAL const gj_segment *seg, gj_u32 mcus,
                                        gj_u32 cur_block, const gj_huff_output *out)
{
    gj_u32 left;

    if (out->write)
        return cur_block + 1 >= out->block_limit;
    left = br->pos < seg->bit_count ? seg->bit_count - br->pos : 0;
    return mcus >= seg->mcu_count || (left < 8 && gj_br_peek(br, 8) >> (8 - left) == (1u << left) - 1);
}

/*
 * The run reached a part start (gj_huff_output): records the state and the sums of
 * the part it ends. Part starts lie at least MIN_PART_BITS (48, decoder_private.h)
 * apart and a symbol is at most 32 bits, so a run passes one per symbol at most,
 * and the writing run of a part (out->stop_after) ends where the next one was
 * recorded.
 */
GJ_FUNC void gj_huff_part_begins(gj_huff_output *out, gj_u32 pos, gj_u32 slot, gj_u32 zz, gj_i32 blocks,
                                 gj_i32 dc0, gj_i32 dc1, gj_i32 dc2, gj_i32 dc3)
{
    gj_i32 cur[GJ_CHUNK_SUMS] = { blocks, dc0, dc1, dc2, dc3 };
    gj_huff_state st;
    gj_u32 i;

    GJ_UNROLL
    for (i = 0; i < GJ_CHUNK_SUMS; i++) {
        out->part_sums[i] = cur[i] - out->part_prev[i];
        out->part_prev[i] = cur[i];
    }
    out->part_sums += GJ_CHUNK_SUMS;

    st.bit = pos;
    st.slot = slot;
    st.zz = zz;
    st.flags = 0;
    gj_huff_state_store(out->part_states++, &st, 0);
    out->part_after = --out->parts_left ? out->part_after + out->part_bits : ~0u;
}

/*
 * Decodes from state *st until the run ends: at the first symbol boundary at or past
 * `limit` (not the segment's last chunk) or past out->stop_after, or when the segment
 * is complete (last chunk: the MCU bound is reached, only padding bits remain, or the
 * data ran out).
 * sums receives the blocks begun and per-component DC difference sums.
 */
GJ_FUNC void gj_huff_run(GJ_GLOBAL const gj_scan_params *p, GJ_LOCAL const gj_huff_table *tables,
                         GJ_LOCAL const gj_u32 *slot_info, GJ_GLOBAL const gj_u32 *words,
                         GJ_GLOBAL const gj_segment *seg, gj_u32 limit, gj_u32 is_last, gj_huff_state *st,
                         gj_i32 *sums, gj_huff_output *out)
{
    gj_bitreader br;
    gj_u64 byte_start = ((gj_u64)seg->bit_start_hi << 32 | seg->bit_start_lo) >> 3;
    gj_u32 bit_count = seg->bit_count, blocks_in_mcu = p->blocks_in_mcu;
    gj_u32 slot = st->slot, zz = st->zz, mcus = 0, starved = 0, blocks = 0;
    gj_u32 cur_block = out->first_block - 1;
    gj_i32 dc0 = 0, dc1 = 0, dc2 = 0, dc3 = 0;
    gj_u64 block_off = 0;
    gj_u32 block_ok = 0, mx = 0, my = 0;
    /* The slot's component and tables, looked up when the slot changes: a lookup per
     * symbol lengthened every symbol's chain of dependent loads. */
    gj_u32 info = GJ_SLOT_INFO(slot_info, slot), c = info & 15;
    GJ_LOCAL const gj_huff_table *dc_table = &tables[(info >> 4) & 15], *ac_table = &tables[info >> 8];

    if (!(st->flags & GJ_STATE_DONE)) {
        gj_br_init(&br, words, byte_start, bit_count >> 3, st->bit);
        if (out->write) {
            /* The MCU of the block being decoded, or of the next one at a block boundary. */
            gj_u32 mcu = (cur_block + (zz == 0 ? 1u : 0u)) / blocks_in_mcu;
            my = mcu / p->mcus_x;
            mx = mcu - my * p->mcus_x;
        }
        if (out->write && zz != 0 && cur_block < out->block_limit) {
            block_ok = 1;
            block_off = gj_huff_block_offset(slot_info, slot, mx, my);
        }
        for (;;) {
            if (slot == 0 && zz == 0 &&
                (starved || (is_last && gj_huff_segment_complete(&br, seg, mcus, cur_block, out)))) {
                st->flags |= GJ_STATE_DONE;
                break;
            }
            if (br.pos > out->part_after)
                gj_huff_part_begins(out, br.pos, slot, zz, (gj_i32)blocks, dc0, dc1, dc2, dc3);
            if ((!is_last && br.pos >= limit) || br.pos > out->stop_after)
                break;
            {
                /* DC and AC share the symbol decoding and the bookkeeping, as selects rather
                 * than branches: one path for the whole warp. */
                gj_u32 is_dc = zz == 0, len, peek = gj_br_peek(&br, 32);
                gj_u32 sym = gj_huff_symbol(peek, is_dc ? dc_table : ac_table, &len);
                gj_u32 sz = sym & 15, r = sym >> 4;
                gj_i32 v = gj_huff_extend(gj_huff_value_bits(peek, len, sz), sz), dv = is_dc ? v : 0;

                gj_br_consume(&br, len + sz);
                dc0 += c == 0 ? dv : 0;
                dc1 += c == 1 ? dv : 0;
                dc2 += c == 2 ? dv : 0;
                dc3 += c == 3 ? dv : 0;
                blocks += is_dc;
                cur_block += is_dc;
                if (out->write && is_dc) {
                    block_ok = cur_block < out->block_limit;
                    if (block_ok) {
                        block_off = gj_huff_block_offset(slot_info, slot, mx, my);
                        out->coefs[block_off] = (gj_i16)(gj_pick4(c, out->dc_base0 + dc0, out->dc_base1 + dc1,
                                                                  out->dc_base2 + dc2, out->dc_base3 + dc3));
                    }
                }
                if (out->write && !is_dc && sz && block_ok)
                    out->coefs[block_off + out->natural[zz + r]] = (gj_i16)v;
                /* DC: on to coefficient 1; AC: past the run and the value, 16 zeros (ZRL), or
                 * the block's end (EOB: any step that reaches 64). */
                zz += is_dc ? 1u : sz ? r + 1 : r == 15 ? 16u : 64u;
            }
            if (br.pos > bit_count)
                starved = 1;
            if (zz >= 64) {
                zz = 0;
                if (++slot == blocks_in_mcu) {
                    slot = 0;
                    mcus++;
                    if (++mx == p->mcus_x) {
                        mx = 0;
                        my++;
                    }
                }
                info = GJ_SLOT_INFO(slot_info, slot);
                c = info & 15;
                dc_table = &tables[(info >> 4) & 15];
                ac_table = &tables[info >> 8];
                if (out->mark_mode != GJ_MARK_NONE && gj_huff_mark(out, br.pos, slot))
                    break;
            }
        }
        st->bit = br.pos;
        st->slot = slot;
        st->zz = zz;
    }
    sums[0] = (gj_i32)blocks;
    sums[1] = dc0;
    sums[2] = dc1;
    sums[3] = dc2;
    sums[4] = dc3;
}

/* The chunk's segment, its index inside the segment, and where its run ends. */
GJ_FUNC void gj_huff_chunk_bounds(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_segment *seg,
                                  gj_u32 chunk, gj_u32 *local_index, gj_u32 *limit, gj_u32 *is_last)
{
    *local_index = chunk - seg->first_chunk;
    *is_last = *local_index + 1 == seg->num_chunks;
    *limit = (*local_index + 1) * p->chunk_bits;
}

/* A block of `slot` begins at bit `bit` of the segment (exact at bit 0, slot 0); a
 * segment whose restart marker was never found has nothing to decode. */
GJ_FUNC void gj_huff_start_state(GJ_GLOBAL const gj_segment *seg, gj_u32 bit, gj_u32 slot, gj_huff_state *st)
{
    st->bit = bit;
    st->slot = slot;
    st->zz = 0;
    st->flags = seg->present ? 0 : GJ_STATE_DONE;
}

/*
 * Every work-group copies the scan's slot table and Huffman tables into local
 * memory first: the image the host built (jpeg_params.h), read as 16-byte words,
 * every load of a thread issued before its first store, so the copy waits for
 * global memory once (a loop of 32-bit loads and stores waited once per word: a
 * tenth of the decoding kernels' stall samples on an H200).
 */
#define GJ_HUFF_GROUP 128
#define GJ_HUFF_IMAGE_VECS ((GJ_HUFF_SLOT_WORDS + GJ_MAX_SCAN_TABLES * GJ_HUFF_TABLE_WORDS) / 4)
#define GJ_HUFF_COPY_STEPS ((GJ_HUFF_IMAGE_VECS + GJ_HUFF_GROUP - 1) / GJ_HUFF_GROUP)

GJ_FUNC void gj_huff_load_tables(GJ_GLOBAL const gj_scan_params *p, GJ_LOCAL gj_huff_table *tables,
                                 GJ_LOCAL gj_u32 *slot_info)
{
    GJ_GLOBAL const uint4 *src = (GJ_GLOBAL const uint4 *)p->slot_info;
    GJ_LOCAL gj_u32 *table_words = (GJ_LOCAL gj_u32 *)tables;
    gj_u32 n = (GJ_HUFF_SLOT_WORDS + p->num_tables * (gj_u32)GJ_HUFF_TABLE_WORDS) / 4;
    gj_u32 step = GJ_HUFF_COPY_STEPS * gj_group_size(), base, k;
    uint4 v[GJ_HUFF_COPY_STEPS];

    for (base = gj_local_id(); base < n; base += step) {
        GJ_UNROLL
        for (k = 0; k < GJ_HUFF_COPY_STEPS; k++)
            if (base + k * gj_group_size() < n)
                v[k] = src[base + k * gj_group_size()];
        GJ_UNROLL
        for (k = 0; k < GJ_HUFF_COPY_STEPS; k++) {
            gj_u32 i = base + k * gj_group_size();
            GJ_LOCAL gj_u32 *dst = i < GJ_HUFF_SLOT_WORDS / 4 ? slot_info + 4 * i
                                                                : table_words + 4 * (i - GJ_HUFF_SLOT_WORDS / 4);
            if (i < n) {
                dst[0] = v[k].x;
                dst[1] = v[k].y;
                dst[2] = v[k].z;
                dst[3] = v[k].w;
            }
        }
    }
    gj_barrier();
}

/*
 * Where a synchronising decode of a chunk leaves what the writing kernel needs: the
 * sums of each of its 1 << part_shift parts, sums[(chunk << part_shift) + part], and
 * where its parts after the first begin, part_states[chunk * (parts - 1) + part - 1].
 */
typedef struct gj_huff_sync_out {
    GJ_GLOBAL gj_i32 *sums;
    GJ_GLOBAL gj_huff_packed_state *part_states;
} gj_huff_sync_out;

/* Decodes the chunk from *st (replaced by its end state) and stores its parts' sums and starts. */
GJ_FUNC void gj_huff_sync_chunk(GJ_GLOBAL const gj_scan_params *p, GJ_LOCAL const gj_huff_table *tables,
                                GJ_LOCAL const gj_u32 *slot_info, GJ_GLOBAL const gj_u32 *words, GJ_GLOBAL const gj_segment *seg,
                                gj_u32 chunk, gj_huff_state *st, const gj_huff_sync_out *res)
{
    gj_u32 idx, limit, is_last, parts = 1u << p->part_shift, i;
    gj_i32 sums[GJ_CHUNK_SUMS];
    gj_huff_output out;
    gj_huff_state done = { 0, 0, 0, GJ_STATE_DONE };

    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    gj_huff_output_plain(&out);
    out.part_bits = p->part_bits;
    out.parts_left = parts - 1;
    out.part_after = parts > 1 ? idx * p->chunk_bits + p->part_bits - 1 : ~0u;
    out.part_sums = &res->sums[((gj_u64)chunk << p->part_shift) * GJ_CHUNK_SUMS];
    out.part_states = &res->part_states[(gj_u64)chunk * (parts - 1)];
    GJ_UNROLL
    for (i = 0; i < GJ_CHUNK_SUMS; i++)
        out.part_prev[i] = 0;
    gj_huff_run(p, tables, slot_info, words, seg, limit, is_last, st, sums, &out);
    /* The part the run ended in, then the parts it never reached: empty, begun done. */
    GJ_UNROLL
    for (i = 0; i < GJ_CHUNK_SUMS; i++)
        out.part_sums[i] = sums[i] - out.part_prev[i];
    for (; out.parts_left; out.parts_left--) {
        out.part_sums += GJ_CHUNK_SUMS;
        GJ_UNROLL
        for (i = 0; i < GJ_CHUNK_SUMS; i++)
            out.part_sums[i] = 0;
        gj_huff_state_store(out.part_states++, &done, 0);
    }
}

#endif /* GJ_KERNELS_JPEG_HUFFMAN_H */
