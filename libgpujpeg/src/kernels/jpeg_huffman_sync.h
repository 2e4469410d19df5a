/*
 * Parallel Huffman decoding of a baseline scan, with or without restart markers.
 *
 * Each segment (restart interval, or the whole scan) is cut into chunks of
 * chunk_bits. Huffman codes self-synchronise (Weissenberger & Schmidt, ICPP 2018):
 * a decoder started at a chunk's first bit as if a block began there soon falls
 * onto the true codeword boundaries. So:
 *   1. gj_huff_sync, first pass: every chunk decodes from a guess of its start
 *      state to the first symbol boundary at or past its end. The guess is the
 *      predecessor's end state as the slot hypotheses predict it
 *      (jpeg_huffman_hyp.h), or, without them, "a block begins at the chunk's
 *      first bit". Then, inside each work-group, a chunk whose predecessor's end
 *      state differs from what it started from re-decodes from it, until nothing
 *      changes in the group (a fixpoint given the group's first start);
 *   2. gj_huff_sync, rounds (queued by the host until a round changes nothing):
 *      a group whose predecessor group's last end state changed redoes step 1's
 *      fixpoint from that state. A global fixpoint means every end state equals
 *      the one a sequential decoder reaches;
 *   3. counts of blocks and sums of DC differences per chunk are prefix-summed
 *      inside each segment (scan.h);
 *   4. gj_huff_decode_write: each chunk decodes from its true start and writes
 *      its coefficients, with the DC predictor from the prefix sums.
 * The scan's Huffman tables are copied to local memory by every work-group.
 */
#ifndef GJ_KERNELS_JPEG_HUFFMAN_SYNC_H
#define GJ_KERNELS_JPEG_HUFFMAN_SYNC_H

#include "jpeg_huffman_hyp.h"

/*
 * Steps 1 and 2 (see the top of this file). round 0 is the first pass, from the
 * slot hypotheses' guesses when num_hyps is not 0; in later rounds a group works
 * only when the end state of the chunk before it changed in the previous round
 * (changed_in). Writes states_out and changed_out for every chunk, and counts in
 * num_changed[counter] the groups whose last end state changed.
 */
GJ_KERNEL gj_huff_sync(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                       GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                       GJ_GLOBAL const gj_huff_state *states_in, GJ_GLOBAL gj_huff_state *states_out,
                       GJ_GLOBAL const gj_u32 *changed_in, GJ_GLOBAL gj_u32 *changed_out,
                       GJ_GLOBAL gj_i32 *sums_out, GJ_GLOBAL gj_u32 *num_changed, gj_u32 counter,
                       gj_u32 round, GJ_GLOBAL gj_u8 *scratch, gj_u32 num_hyps)
{
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_MAX_SLOTS];
    GJ_LOCAL_DECL gj_u32 l_bit[GJ_HUFF_GROUP], l_slot[GJ_HUFF_GROUP], l_zz[GJ_HUFF_GROUP];
    GJ_LOCAL_DECL gj_u32 l_flags[GJ_HUFF_GROUP], l_changed[GJ_HUFF_GROUP];
    GJ_LOCAL_DECL gj_u8 l_map[GJ_HUFF_GROUP * 2 * GJ_MAX_SLOTS], l_idx[GJ_HUFF_GROUP];
    GJ_LOCAL_DECL gj_u32 l_any, l_active;
    gj_u32 t = gj_local_id(), g = gj_group_id(), first = g * GJ_HUFF_GROUP, chunk = first + t;
    gj_u32 valid = chunk < p->num_chunks, seg_first = 0, changed = 0, idx, limit, is_last;
    gj_huff_state st, old = { 0, 0, 0, 0 };
    GJ_GLOBAL const gj_segment *seg = 0;
    GJ_GLOBAL const gj_huff_state *hyp_states = GJ_HYP_STATES(scratch, p);
    GJ_GLOBAL const gj_huff_state *hyp_x = GJ_HYP_X(scratch, p);
    GJ_GLOBAL const gj_u8 *group_in = GJ_HYP_GROUP_IN(scratch, p);

    if (valid) {
        seg = &segs[chunk_seg[chunk]];
        gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
        seg_first = idx == 0;
    }
    if (t == 0) {
        l_any = 0;
        l_active = round == 0 || (first > 0 && !seg_first && changed_in[first - 1]);
    }
    /* Inactive groups run the same code without decoding: barriers stay uniform. */
    gj_barrier();
    gj_huff_load_tables(p, tables, slot_info);
    if (round == 0 && num_hyps)
        gj_huff_hyp_walk(p, GJ_HYP_MAP(scratch, p), group_in, g, l_map, l_idx);
    if (valid) {
        if (round == 0) {
            if (seg_first || !num_hyps) {
                /* A block begins at the chunk's first bit (exact for a segment's first chunk). */
                gj_huff_start_state(seg, idx * p->chunk_bits, 0, &st);
            } else {
                gj_huff_hyp_state(hyp_states, hyp_x, chunk - 1, num_hyps, t ? l_idx[t - 1] : group_in[g], &st);
            }
            gj_huff_sync_chunk(p, tables, slot_info, words, seg, chunk, &st, sums_out);
            if (num_hyps)
                gj_huff_hyp_state(hyp_states, hyp_x, chunk, num_hyps, l_idx[t], &old);
            /* Without hypotheses the successor assumed nothing: it must look. */
            changed = !num_hyps || !gj_huff_state_equal(&st, &old);
        } else {
            gj_huff_state_load(&old, &states_in[chunk]);
            st = old;
            if (t == 0 && l_active) {
                gj_huff_state_load(&st, &states_in[chunk - 1]);
                gj_huff_sync_chunk(p, tables, slot_info, words, seg, chunk, &st, sums_out);
                changed = !gj_huff_state_equal(&st, &old);
            }
        }
        l_bit[t] = st.bit;
        l_slot[t] = st.slot;
        l_zz[t] = st.zz;
        l_flags[t] = st.flags;
    }
    l_changed[t] = changed;
    gj_barrier();
    /* In-group rounds: a chunk re-decodes from its predecessor's end state when that changed. */
    for (;;) {
        gj_huff_state pred;
        gj_u32 pred_changed = t > 0 && valid && !seg_first && l_changed[t - 1];
        if (pred_changed) {
            pred.bit = l_bit[t - 1];
            pred.slot = l_slot[t - 1];
            pred.zz = l_zz[t - 1];
            pred.flags = l_flags[t - 1];
        }
        gj_barrier();
        changed = 0;
        if (pred_changed) {
            gj_huff_state prev = st;
            st = pred;
            gj_huff_sync_chunk(p, tables, slot_info, words, seg, chunk, &st, sums_out);
            if (!gj_huff_state_equal(&st, &prev)) {
                changed = 1;
                l_bit[t] = st.bit;
                l_slot[t] = st.slot;
                l_zz[t] = st.zz;
                l_flags[t] = st.flags;
                l_any = 1;
            }
        }
        l_changed[t] = changed;
        gj_barrier();
        if (!l_any)
            break;
        gj_barrier();
        if (t == 0)
            l_any = 0;
    }
    if (valid) {
        gj_huff_state_store(&states_out[chunk], &st);
        changed = (round == 0 && !num_hyps) || !gj_huff_state_equal(&st, &old);
        changed_out[chunk] = changed;
        if (changed && (t == GJ_HUFF_GROUP - 1 || chunk + 1 == p->num_chunks))
            gj_atomic_add_u32(num_changed + counter, 1u);
    }
}

/*
 * Step 4: decode every chunk from its true start and write coefficients.
 * offsets[chunk] holds the exclusive in-segment prefix sums of sums_out.
 */
GJ_KERNEL gj_huff_decode_write(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                               GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                               GJ_GLOBAL const gj_huff_state *states, GJ_GLOBAL const gj_i32 *offsets,
                               GJ_GLOBAL gj_i16 *coefs)
{
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_MAX_SLOTS];
    gj_u32 chunk = (gj_u32)gj_global_id();
    gj_u32 idx, limit, is_last;
    gj_huff_state st;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];
    GJ_GLOBAL const gj_segment *seg;
    GJ_GLOBAL const gj_i32 *off;

    gj_huff_load_tables(p, tables, slot_info);
    if (chunk >= p->num_chunks)
        return;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    if (idx == 0) {
        gj_huff_start_state(seg, 0, 0, &st);
    } else {
        gj_huff_state_load(&st, &states[chunk - 1]);
    }
    off = &offsets[(gj_u64)chunk * GJ_CHUNK_SUMS];
    out.coefs = coefs;
    out.write = 1;
    out.mark_mode = GJ_MARK_NONE;
    out.first_block = seg->first_mcu * p->blocks_in_mcu + (gj_u32)off[0];
    out.block_limit = (seg->first_mcu + seg->mcu_count) * p->blocks_in_mcu;
    out.dc_base0 = off[1];
    out.dc_base1 = off[2];
    out.dc_base2 = off[3];
    out.dc_base3 = off[4];
    gj_huff_run(p, tables, slot_info, words, seg, limit, is_last, &st, sums, &out);
}

#endif /* GJ_KERNELS_JPEG_HUFFMAN_SYNC_H */
