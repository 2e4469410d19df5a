/*
 * Parallel Huffman decoding of a baseline scan, with or without restart markers.
 *
 * Each segment (restart interval, or the whole scan) is cut into chunks of
 * chunk_bits. Huffman codes self-synchronise (Weissenberger & Schmidt, ICPP 2018):
 * a decoder started at a chunk's first bit as if a block began there soon falls
 * onto the true codeword boundaries. So:
 *   1. gj_huff_sync_start: every chunk decodes speculatively from its first bit to
 *      the first symbol boundary at or past its end and records that end state;
 *   2. gj_huff_sync_round (queued by the host in batches until a round changes
 *      nothing): a chunk whose predecessor's end state changed re-decodes from it.
 *      A fixpoint means every end state equals the one a sequential decoder reaches;
 *   3. counts of blocks and sums of DC differences per chunk are prefix-summed
 *      inside each segment (scan.h);
 *   4. gj_huff_decode_write: each chunk decodes from its true start state and writes
 *      its coefficients, with the DC predictor from the prefix sums.
 * Decoding follows libjpeg-turbo exactly, including its handling of corrupt data:
 * an invalid code yields symbol 0 after 17 bits, runs past coefficient 63 land
 * on 63, and when a segment's data runs out the current MCU is finished with
 * zero bits and the rest of the segment stays zero (grey).
 */
#ifndef GJ_KERNELS_JPEG_HUFFMAN_H
#define GJ_KERNELS_JPEG_HUFFMAN_H

#include "common.h"
#include "jpeg_bitreader.h"
#include "jpeg_params.h"

/* Per-chunk results of a decode run: blocks begun and DC differences per component. */
#define GJ_CHUNK_SUMS 5     /* [0] blocks, [1..4] DC sums of components 0..3 */

GJ_CONST_DATA gj_u8 gj_natural_order[80] = GJ_JPEG_NATURAL_ORDER_INIT;

/* T.81 F.2.2.1 EXTEND: the signed value of an s-bit magnitude field. */
GJ_FUNC gj_i32 gj_huff_extend(gj_u32 v, gj_u32 s)
{
    if (s == 0)
        return 0;
    return v < (1u << (s - 1)) ? (gj_i32)v - (gj_i32)((1u << s) - 1) : (gj_i32)v;
}

/* Decodes one Huffman symbol (T.81 F.2.2.3 with a lookup table for short codes). */
GJ_FUNC gj_u32 gj_huff_symbol(gj_bitreader *br, GJ_GLOBAL const gj_huff_table *t)
{
    gj_u32 peek = gj_br_peek(br, 16);
    gj_u32 e = t->lookup[peek >> (16 - GJ_HUFF_LOOKUP_BITS)];
    gj_u32 l;

    if (e >> 8) {
        gj_br_skip(br, e >> 8);
        return e & 0xFF;
    }
    for (l = GJ_HUFF_LOOKUP_BITS + 1; l <= 16; l++) {
        gj_i32 code = (gj_i32)(peek >> (16 - l));
        if (code <= t->maxcode[l]) {
            gj_br_skip(br, l);
            return t->values[(gj_u32)(code + t->valoffset[l]) & 0xFF];
        }
    }
    gj_br_skip(br, 17);     /* libjpeg: a bad code costs 17 bits and decodes as 0 */
    return 0;
}

/* Where one decode run writes; block_base < 0 (as u32 all ones) means "do not write". */
typedef struct gj_huff_output {
    GJ_GLOBAL gj_i16 *coefs;
    gj_u32 write;
    gj_u32 first_block;         /* scan-relative index of the next block begun */
    gj_u32 block_limit;         /* blocks at or past this index are dropped */
    gj_i32 dc_base[4];          /* DC predictors at the run's start */
} gj_huff_output;

GJ_FUNC gj_u64 gj_huff_block_offset(GJ_GLOBAL const gj_scan_params *p, gj_u32 block)
{
    gj_u32 mcu = block / p->blocks_in_mcu;
    gj_u32 slot = block - mcu * p->blocks_in_mcu;
    GJ_GLOBAL const gj_mcu_slot *s = &p->slots[slot];
    gj_u32 mx = mcu % p->mcus_x, my = mcu / p->mcus_x;
    gj_u64 bx = (gj_u64)mx * s->mcu_bw + s->block_x;
    gj_u64 by = (gj_u64)my * s->mcu_bh + s->block_y;

    return ((gj_u64)p->comp_block_offset[s->comp] + by * p->comp_blocks_w[s->comp] + bx) * 64;
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
 * Decodes from state *st until the run ends: at the first symbol boundary at or past
 * `limit` (not the segment's last chunk), or when the segment is complete (last chunk:
 * the MCU bound is reached, only padding bits remain, or the data ran out).
 * sums receives the blocks begun and per-component DC difference sums.
 */
GJ_FUNC void gj_huff_run(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u8 *bytes,
                         GJ_GLOBAL const gj_segment *seg, gj_u32 limit, gj_u32 is_last,
                         gj_huff_state *st, gj_i32 *sums, gj_huff_output *out)
{
    gj_bitreader br;
    gj_u64 byte_start = ((gj_u64)seg->bit_start_hi << 32 | seg->bit_start_lo) >> 3;
    gj_u32 slot = st->slot, zz = st->zz, mcus = 0, starved = 0, i;
    gj_u32 cur_block = out->first_block - 1;
    gj_u64 block_off = 0;
    gj_u32 block_ok = 0;

    for (i = 0; i < GJ_CHUNK_SUMS; i++)
        sums[i] = 0;
    if (st->flags & GJ_STATE_DONE)
        return;
    gj_br_init(&br, bytes + byte_start, seg->bit_count >> 3, st->bit);
    if (out->write && zz != 0 && cur_block < out->block_limit) {
        block_ok = 1;
        block_off = gj_huff_block_offset(p, cur_block);
    }
    for (;;) {
        GJ_GLOBAL const gj_mcu_slot *s = &p->slots[slot];

        if (slot == 0 && zz == 0 && (starved || (is_last && gj_huff_segment_complete(&br, seg, mcus, cur_block, out)))) {
            st->flags |= GJ_STATE_DONE;
            break;
        }
        if (!is_last && br.pos >= limit)
            break;
        if (zz == 0) {
            gj_u32 cat = gj_huff_symbol(&br, &p->tables[s->dc_table]);
            gj_i32 diff = gj_huff_extend(gj_br_get(&br, cat & 15), cat & 15);
            sums[0]++;
            sums[1 + s->comp] += diff;
            cur_block++;
            block_ok = out->write && cur_block < out->block_limit;
            if (block_ok) {
                block_off = gj_huff_block_offset(p, cur_block);
                out->coefs[block_off] = (gj_i16)(out->dc_base[s->comp] + sums[1 + s->comp]);
            }
            zz = 1;
        } else {
            gj_u32 rs = gj_huff_symbol(&br, &p->tables[s->ac_table]);
            gj_u32 r = rs >> 4, sz = rs & 15;
            if (sz) {
                gj_u32 k = zz + r;
                gj_i32 v = gj_huff_extend(gj_br_get(&br, sz), sz);
                if (block_ok)
                    out->coefs[block_off + gj_natural_order[k]] = (gj_i16)v;
                zz = k + 1;
            } else {
                zz = r == 15 ? zz + 16 : 64;
            }
        }
        if (br.pos > seg->bit_count)
            starved = 1;
        if (zz >= 64) {
            zz = 0;
            if (++slot == p->blocks_in_mcu) {
                slot = 0;
                mcus++;
            }
        }
    }
    st->bit = br.pos;
    st->slot = slot;
    st->zz = zz;
}

/* The chunk's segment, its index inside the segment, and where its run ends. */
GJ_FUNC void gj_huff_chunk_bounds(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_segment *seg,
                                  gj_u32 chunk, gj_u32 *local_index, gj_u32 *limit, gj_u32 *is_last)
{
    *local_index = chunk - seg->first_chunk;
    *is_last = *local_index + 1 == seg->num_chunks;
    *limit = (*local_index + 1) * p->chunk_bits;
}

GJ_FUNC void gj_huff_store(GJ_GLOBAL gj_huff_state *dst, const gj_huff_state *st)
{
    dst->bit = st->bit;
    dst->slot = st->slot;
    dst->zz = st->zz;
    dst->flags = st->flags;
}

GJ_FUNC void gj_huff_store_sums(GJ_GLOBAL gj_i32 *dst, const gj_i32 *sums)
{
    gj_u32 i;

    for (i = 0; i < GJ_CHUNK_SUMS; i++)
        dst[i] = sums[i];
}

/* Step 1: decode every chunk from its first bit, as if a block began there. */
GJ_KERNEL gj_huff_sync_start(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u8 *bytes,
                             GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                             GJ_GLOBAL gj_huff_state *states, GJ_GLOBAL gj_i32 *sums_out)
{
    gj_u32 chunk = (gj_u32)gj_global_id();
    gj_u32 idx, limit, is_last;
    gj_huff_state st;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];
    GJ_GLOBAL const gj_segment *seg;

    if (chunk >= p->num_chunks)
        return;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    st.bit = idx * p->chunk_bits;
    st.slot = 0;
    st.zz = 0;
    st.flags = seg->present ? 0 : GJ_STATE_DONE;
    out.write = 0;
    out.first_block = 0;
    gj_huff_run(p, bytes, seg, limit, is_last, &st, sums, &out);
    gj_huff_store(&states[chunk], &st);
    gj_huff_store_sums(&sums_out[(gj_u64)chunk * GJ_CHUNK_SUMS], sums);
}

GJ_FUNC gj_u32 gj_huff_state_differs(GJ_GLOBAL const gj_huff_state *a, const gj_huff_state *b)
{
    return a->bit != b->bit || a->slot != b->slot || a->zz != b->zz || a->flags != b->flags;
}

/*
 * Step 2, one round: chunks whose predecessor's end state changed in the previous
 * round (changed_in) re-decode from it; states_in -> states_out, marks changed_out
 * and counts changes in num_changed[round].
 */
GJ_KERNEL gj_huff_sync_round(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u8 *bytes,
                             GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                             GJ_GLOBAL const gj_huff_state *states_in, GJ_GLOBAL gj_huff_state *states_out,
                             GJ_GLOBAL const gj_u32 *changed_in, GJ_GLOBAL gj_u32 *changed_out,
                             GJ_GLOBAL gj_i32 *sums_out, GJ_GLOBAL gj_u32 *num_changed, gj_u32 round)
{
    gj_u32 chunk = (gj_u32)gj_global_id();
    gj_u32 idx, limit, is_last;
    gj_huff_state st;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];
    GJ_GLOBAL const gj_segment *seg;

    if (chunk >= p->num_chunks)
        return;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    states_out[chunk] = states_in[chunk];
    changed_out[chunk] = 0;
    if (idx == 0 || !changed_in[chunk - 1])
        return;
    st.bit = states_in[chunk - 1].bit;
    st.slot = states_in[chunk - 1].slot;
    st.zz = states_in[chunk - 1].zz;
    st.flags = states_in[chunk - 1].flags;
    out.write = 0;
    out.first_block = 0;
    gj_huff_run(p, bytes, seg, limit, is_last, &st, sums, &out);
    gj_huff_store_sums(&sums_out[(gj_u64)chunk * GJ_CHUNK_SUMS], sums);
    if (gj_huff_state_differs(&states_in[chunk], &st)) {
        gj_huff_store(&states_out[chunk], &st);
        changed_out[chunk] = 1;
        gj_atomic_add_u32(num_changed + round, 1u);
    }
}

/*
 * Step 4: decode every chunk from its true start and write coefficients.
 * offsets[chunk] holds the exclusive in-segment prefix sums of sums_out.
 */
GJ_KERNEL gj_huff_decode_write(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u8 *bytes,
                               GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                               GJ_GLOBAL const gj_huff_state *states, GJ_GLOBAL const gj_i32 *offsets,
                               GJ_GLOBAL gj_i16 *coefs)
{
    gj_u32 chunk = (gj_u32)gj_global_id();
    gj_u32 idx, limit, is_last, i;
    gj_huff_state st;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];
    GJ_GLOBAL const gj_segment *seg;
    GJ_GLOBAL const gj_i32 *off;

    if (chunk >= p->num_chunks)
        return;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    if (idx == 0) {
        st.bit = 0;
        st.slot = 0;
        st.zz = 0;
        st.flags = seg->present ? 0 : GJ_STATE_DONE;
    } else {
        st.bit = states[chunk - 1].bit;
        st.slot = states[chunk - 1].slot;
        st.zz = states[chunk - 1].zz;
        st.flags = states[chunk - 1].flags;
    }
    off = &offsets[(gj_u64)chunk * GJ_CHUNK_SUMS];
    out.coefs = coefs;
    out.write = 1;
    out.first_block = seg->first_mcu * p->blocks_in_mcu + (gj_u32)off[0];
    out.block_limit = (seg->first_mcu + seg->mcu_count) * p->blocks_in_mcu;
    for (i = 0; i < 4; i++)
        out.dc_base[i] = off[1 + i];
    gj_huff_run(p, bytes, seg, limit, is_last, &st, sums, &out);
}

#endif /* GJ_KERNELS_JPEG_HUFFMAN_H */
