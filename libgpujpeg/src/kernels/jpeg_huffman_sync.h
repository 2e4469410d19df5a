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
 *   2. gj_huff_sync, rounds (a few, queued without looking): a group whose
 *      predecessor group's last end state changed redoes step 1's fixpoint from
 *      that state; gj_huff_sync_finish then walks whatever is left in order. A
 *      global fixpoint means every end state equals the one a sequential decoder
 *      reaches. The chunks' end states live in one array, updated in place: only
 *      each group's last end state is read by another group, and that one is
 *      also kept per round in a small array of group "bounds" (round r reads
 *      round r - 1's half and writes its own);
 *   3. counts of blocks and sums of DC differences per part of a chunk (every
 *      synchronising decode of a chunk records where its parts begin) are
 *      prefix-summed inside each segment (scan.h; the carries across its
 *      work-groups are added by step 4);
 *   4. gj_huff_decode_write: each part of a chunk decodes from its true start and
 *      writes its coefficients, with the DC predictor from the prefix sums.
 * The scan's Huffman tables are copied to local memory by every work-group.
 */
#ifndef GJ_KERNELS_JPEG_HUFFMAN_SYNC_H
#define GJ_KERNELS_JPEG_HUFFMAN_SYNC_H

#include "jpeg_huffman_hyp.h"
#include "scan.h"

/* Every chunk's current state in local memory, for the in-group fixpoint. */
typedef struct gj_huff_group_states {
    gj_u32 bit[GJ_HUFF_GROUP], slot[GJ_HUFF_GROUP], zz[GJ_HUFF_GROUP], flags[GJ_HUFF_GROUP];
    gj_u32 changed[GJ_HUFF_GROUP];
    gj_u32 any, active, last_changed;   /* active, last_changed: of the group (the walk's) */
} gj_huff_group_states;

GJ_FUNC void gj_huff_group_publish(GJ_LOCAL gj_huff_group_states *l, gj_u32 t, const gj_huff_state *st)
{
    l->bit[t] = st->bit;
    l->slot[t] = st->slot;
    l->zz[t] = st->zz;
    l->flags[t] = st->flags;
}

/*
 * In-group rounds: a chunk re-decodes from its predecessor's end state when that
 * changed, until nothing changes in the group. Entered after a barrier, with every
 * thread's state published and l->changed[t] set; `follows` says whether the chunk
 * continues its predecessor's segment.
 */
GJ_FUNC void gj_huff_group_fixpoint(GJ_GLOBAL const gj_scan_params *p, GJ_LOCAL const gj_huff_table *tables,
                                    GJ_LOCAL const gj_u32 *slot_info, GJ_GLOBAL const gj_u32 *words,
                                    GJ_GLOBAL const gj_segment *seg, gj_u32 chunk, gj_u32 follows,
                                    gj_huff_state *st, const gj_huff_sync_out *res,
                                    GJ_LOCAL gj_huff_group_states *l)
{
    gj_u32 t = gj_local_id();

    if (t == 0)
        l->any = 0;
    gj_barrier();
    for (;;) {
        gj_huff_state pred;
        gj_u32 changed = 0, pred_changed = t > 0 && follows && l->changed[t - 1];
        if (pred_changed) {
            pred.bit = l->bit[t - 1];
            pred.slot = l->slot[t - 1];
            pred.zz = l->zz[t - 1];
            pred.flags = l->flags[t - 1];
        }
        gj_barrier();
        if (pred_changed) {
            gj_huff_state prev = *st;
            *st = pred;
            gj_huff_sync_chunk(p, tables, slot_info, words, seg, chunk, st, res);
            if (!gj_huff_state_equal(st, &prev)) {
                changed = 1;
                gj_huff_group_publish(l, t, st);
                l->any = 1;
            }
        }
        l->changed[t] = changed;
        gj_barrier();
        if (!l->any)
            break;
        gj_barrier();
        if (t == 0)
            l->any = 0;
    }
}

/*
 * A later round's start (step 2), and the finishing walk's: each chunk keeps the
 * state it ended in (*old, read from `own`); when the end state of the chunk before
 * the group changed (active), the group's first chunk decodes again from it
 * (`pred`, read only then). Returns whether the chunk's end state changed.
 */
GJ_FUNC gj_u32 gj_huff_resync_start(GJ_GLOBAL const gj_scan_params *p, GJ_LOCAL const gj_huff_table *tables,
                                    GJ_LOCAL const gj_u32 *slot_info, GJ_GLOBAL const gj_u32 *words,
                                    GJ_GLOBAL const gj_segment *seg, gj_u32 chunk, gj_u32 first_of_group,
                                    gj_u32 active, GJ_GLOBAL const gj_huff_packed_state *own,
                                    GJ_GLOBAL const gj_huff_packed_state *pred, gj_huff_state *st,
                                    gj_huff_state *old, const gj_huff_sync_out *res)
{
    gj_huff_state_load(old, own);
    *st = *old;
    if (!first_of_group || !active)
        return 0;
    gj_huff_state_load(st, pred);
    gj_huff_sync_chunk(p, tables, slot_info, words, seg, chunk, st, res);
    return !gj_huff_state_equal(st, old);
}

/* Whether group g's first chunk continues the segment of the chunk before it. */
GJ_FUNC gj_u32 gj_huff_group_follows(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_segment *segs,
                                     GJ_GLOBAL const gj_u32 *chunk_seg, gj_u32 g)
{
    gj_u32 first = g * GJ_HUFF_GROUP;

    return first > 0 && first < p->num_chunks && segs[chunk_seg[first]].first_chunk != first;
}

/* Whether the chunk is the last of its work-group. */
GJ_FUNC gj_u32 gj_huff_last_in_group(GJ_GLOBAL const gj_scan_params *p, gj_u32 chunk)
{
    return chunk % GJ_HUFF_GROUP == GJ_HUFF_GROUP - 1 || chunk + 1 == p->num_chunks;
}

/*
 * Steps 1 and 2 (see the top of this file). round 0 is the first pass, from the
 * slot hypotheses' guesses when num_hyps is not 0; in later rounds a group works
 * only when the end state of the chunk before it changed in the previous round
 * (its GJ_STATE_CHANGED mark in that round's bounds). Writes every chunk's state,
 * marked when it changed, and its group's last one to this round's bounds
 * (bounds: 2 x num_groups states), and counts in num_changed[counter] the groups
 * whose last end state changed.
 * Barriers stay at the top level (and in uniform loops): PoCL's kernel compiler
 * fails on barriers inside branches of some shapes.
 */
GJ_KERNEL gj_huff_sync(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                       GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                       GJ_GLOBAL gj_huff_packed_state *states, GJ_GLOBAL gj_huff_packed_state *bounds,
                       GJ_GLOBAL gj_i32 *sums_out, GJ_GLOBAL gj_huff_packed_state *part_states,
                       GJ_GLOBAL gj_u32 *num_changed, gj_u32 counter, gj_u32 round, GJ_GLOBAL gj_u8 *scratch,
                       gj_u32 num_hyps)
{
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_HUFF_SLOT_WORDS];
    GJ_LOCAL_DECL gj_huff_group_states l;
    gj_u32 t = gj_local_id(), g = gj_group_id(), first = g * GJ_HUFF_GROUP, chunk = first + t;
    gj_u32 valid = chunk < p->num_chunks, seg_first = 0, changed = 0, idx, limit, is_last;
    gj_huff_state st = { 0, 0, 0, 0 }, old = { 0, 0, 0, 0 };
    GJ_GLOBAL const gj_segment *seg = 0;
    GJ_GLOBAL const gj_huff_packed_state *hyp_states = GJ_HYP_STATES(scratch, p);
    GJ_GLOBAL const gj_huff_packed_state *hyp_x = GJ_HYP_X(scratch, p);
    GJ_GLOBAL gj_huff_packed_state *bounds_out = bounds + (gj_u64)(round & 1) * p->num_groups;
    /* The bound of the group before, from the previous round (read only when g > 0). */
    GJ_GLOBAL const gj_huff_packed_state *pred =
        bounds + (gj_u64)((round + 1) & 1) * p->num_groups + (g ? g - 1 : 0);
    gj_huff_sync_out res;

    res.sums = sums_out;
    res.part_states = part_states;

    if (t == 0)
        l.active = round > 0 && gj_huff_group_follows(p, segs, chunk_seg, g) && gj_huff_state_changed(pred);
    /* Inactive groups run the same code without decoding: barriers stay uniform. */
    gj_barrier();
    gj_huff_load_tables(p, tables, slot_info);
    if (valid) {
        seg = &segs[chunk_seg[chunk]];
        gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
        seg_first = idx == 0;
        if (round > 0) {
            changed = gj_huff_resync_start(p, tables, slot_info, words, seg, chunk, t == 0, l.active,
                                           &states[chunk], pred, &st, &old, &res);
        } else {
            if (seg_first || !num_hyps) {
                /* A block begins at the chunk's first bit (exact for a segment's first chunk). */
                gj_huff_start_state(seg, idx * p->chunk_bits, 0, &st);
            } else {
                gj_huff_hyp_state(p, hyp_states, hyp_x, chunk - 1, gj_huff_hyp_guess(p, scratch, chunk - 1), &st);
            }
            gj_huff_sync_chunk(p, tables, slot_info, words, seg, chunk, &st, &res);
            if (num_hyps)
                gj_huff_hyp_state(p, hyp_states, hyp_x, chunk, gj_huff_hyp_guess(p, scratch, chunk), &old);
            /* Without hypotheses the successor assumed nothing: it must look. */
            changed = !num_hyps || !gj_huff_state_equal(&st, &old);
        }
        gj_huff_group_publish(&l, t, &st);
    }
    l.changed[t] = changed;
    gj_huff_group_fixpoint(p, tables, slot_info, words, seg, chunk, valid && !seg_first, &st, &res, &l);
    if (valid) {
        changed = (round == 0 && !num_hyps) || !gj_huff_state_equal(&st, &old);
        gj_huff_state_store(&states[chunk], &st, changed);
        if (gj_huff_last_in_group(p, chunk)) {
            gj_huff_state_store(&bounds_out[g], &st, changed);
            if (changed)
                gj_atomic_add_u32(num_changed + counter, 1u);
        }
    }
}

/*
 * Step 2's end, without the host: one work-group finishes what the queued rounds
 * left undone (num_changed[counter], the last round's count, is not 0), walking
 * the groups in order, so that the decode needs no round trip to the host. Each
 * group redoes its fixpoint when the end state before it changed in the last
 * round or in this walk; its own last end state is then exact. states are the last
 * round's outputs, updated in place (the GJ_STATE_CHANGED marks keep the round's,
 * or-ed with the walk's: the walk reads them a block of groups ahead). Rare (long
 * chains of wrong guesses), so slow is acceptable; the tests force it.
 */
GJ_KERNEL gj_huff_sync_finish(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                              GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                              GJ_GLOBAL gj_huff_packed_state *states, GJ_GLOBAL gj_i32 *sums_out,
                              GJ_GLOBAL gj_huff_packed_state *part_states, GJ_GLOBAL const gj_u32 *num_changed,
                              gj_u32 counter)
{
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_HUFF_SLOT_WORDS];
    GJ_LOCAL_DECL gj_huff_group_states l;
    GJ_LOCAL_DECL gj_u32 l_dirty[GJ_HUFF_GROUP];
    gj_u32 t = gj_local_id(), base, g, carry = 0;
    gj_huff_sync_out res;

    res.sums = sums_out;
    res.part_states = part_states;
    gj_huff_load_tables(p, tables, slot_info);
    /* Nothing to walk when the last round changed nothing (the same for every thread). */
    for (base = num_changed[counter] ? 0 : p->num_groups; base < p->num_groups; base += GJ_HUFF_GROUP) {
        /* Which groups the last round left a changed predecessor, a block of them at a time. */
        g = base + t;
        l_dirty[t] = g < p->num_groups && gj_huff_group_follows(p, segs, chunk_seg, g) &&
                     gj_huff_state_changed(&states[g * GJ_HUFF_GROUP - 1]);
        gj_barrier();
        for (g = base; g < p->num_groups && g < base + GJ_HUFF_GROUP; g++) {
            gj_u32 chunk = g * GJ_HUFF_GROUP + t, valid = chunk < p->num_chunks, follows = 0, ch = 0, idx, limit, last;
            gj_huff_state st = { 0, 0, 0, 0 }, old = { 0, 0, 0, 0 };
            GJ_GLOBAL const gj_segment *seg = 0;

            if (t == 0) {
                l.active = gj_huff_group_follows(p, segs, chunk_seg, g) && (l_dirty[g - base] || carry);
                l.last_changed = 0;
            }
            gj_barrier();
            if (valid) {
                seg = &segs[chunk_seg[chunk]];
                gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &last);
                follows = idx != 0;
                ch = gj_huff_resync_start(p, tables, slot_info, words, seg, chunk, t == 0, l.active,
                                          &states[chunk], &states[chunk ? chunk - 1 : 0], &st, &old, &res);
                gj_huff_group_publish(&l, t, &st);
            }
            l.changed[t] = ch;
            gj_huff_group_fixpoint(p, tables, slot_info, words, seg, chunk, valid && follows, &st, &res, &l);
            if (valid) {
                ch = !gj_huff_state_equal(&st, &old);
                gj_huff_state_store(&states[chunk], &st, ch || gj_huff_state_changed(&states[chunk]));
                if (gj_huff_last_in_group(p, chunk))
                    l.last_changed = ch;
            }
            gj_barrier();
            carry = l.active && l.last_changed;
            gj_barrier();
        }
    }
}

/*
 * Step 4: decode every chunk from its true start and write coefficients, one thread
 * per part of a chunk (a chunk's decode is a chain of dependent steps: in parts, the
 * chains of a small picture are shorter and its threads fill more of the GPU). A
 * part begins where the synchronisation recorded it (gj_huff_sync_chunk()) and ends
 * where the next one begins; when the synchronising run never got there (it ended
 * the segment first, by its own bound), the part decodes on to the segment's end as
 * the writing run sees it, and the parts after it decode nothing.
 * offsets[(chunk << part_shift) + part] holds the exclusive in-segment prefix sums of
 * the parts' sums (scan.h turned the sums into them in place), but for their scan
 * group's carry, added here (gj_seg_scan_carry_of()).
 */
GJ_KERNEL gj_huff_decode_write(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                               GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                               GJ_GLOBAL const gj_huff_packed_state *states,
                               GJ_GLOBAL const gj_huff_packed_state *part_states, GJ_GLOBAL const gj_i32 *offsets,
                               GJ_GLOBAL gj_i16 *coefs, GJ_GLOBAL const gj_i32 *carry)
{
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_HUFF_SLOT_WORDS];
    GJ_LOCAL_DECL gj_u8 natural[GJ_NATURAL_ORDER_SIZE];
    gj_u64 id = gj_global_id();
    gj_u32 shift = p->part_shift, parts = 1u << shift;
    gj_u32 chunk = (gj_u32)(id >> shift), part = (gj_u32)id & (parts - 1);
    gj_u32 idx, limit, is_last;
    gj_huff_state st, next;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];
    GJ_GLOBAL const gj_segment *seg;
    GJ_GLOBAL const gj_huff_packed_state *begins = &part_states[(gj_u64)chunk * (parts - 1)];
    GJ_GLOBAL const gj_i32 *off;

    if (gj_local_id() < GJ_NATURAL_ORDER_SIZE)
        natural[gj_local_id()] = gj_natural_order[gj_local_id()];
    gj_huff_load_tables(p, tables, slot_info);      /* its barrier publishes natural[] too */
    if (chunk >= p->num_chunks)
        return;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    if (part != 0)
        gj_huff_state_load(&st, &begins[part - 1]);
    else if (idx == 0)
        gj_huff_start_state(seg, 0, 0, &st);
    else
        gj_huff_state_load(&st, &states[chunk - 1]);
    gj_huff_output_plain(&out);
    if (part + 1 < parts) {
        gj_huff_state_load(&next, &begins[part]);
        if (!(next.flags & GJ_STATE_DONE))
            out.stop_after = next.bit - 1;
    }
    out.coefs = coefs;
    out.natural = natural;
    out.write = 1;
    out.first_block = seg->first_mcu * p->blocks_in_mcu;
    out.block_limit = (seg->first_mcu + seg->mcu_count) * p->blocks_in_mcu;
    out.dc_base0 = out.dc_base1 = out.dc_base2 = out.dc_base3 = 0;
    /* A segment's first part starts at zero: its offsets are not computed when every
     * chunk is a segment (restart-rich scans). */
    if (idx != 0 || part != 0) {
        off = &offsets[id * GJ_CHUNK_SUMS];
        out.first_block += (gj_u32)off[0];
        out.dc_base0 = off[1];
        out.dc_base1 = off[2];
        out.dc_base2 = off[3];
        out.dc_base3 = off[4];
        if (gj_seg_scan_carry_of(chunk_seg, (gj_u32)id, shift)) {
            off = &carry[(id / GJ_SCAN_GROUP) * GJ_SCAN_LANES];
            out.first_block += (gj_u32)off[0];
            out.dc_base0 += off[1];
            out.dc_base1 += off[2];
            out.dc_base2 += off[3];
            out.dc_base3 += off[4];
        }
    }
    gj_huff_run(p, tables, slot_info, words, seg, limit, is_last, &st, sums, &out);
}

#endif /* GJ_KERNELS_JPEG_HUFFMAN_SYNC_H */
