/*
 * Slot hypotheses: good first guesses of every chunk's end state, found without
 * decoding chunk after chunk.
 *
 * A decoder started at a chunk's first bit soon falls onto true codeword and block
 * boundaries, but not always onto the true block slot of the MCU: in a 4:2:0 scan
 * (Y Y Y Y Cb Cr) a decoder one luma block off decodes the same bits for a long
 * while before the table change shows, so guessing slot 0 is wrong for most
 * chunks and the corrections would run from chunk to chunk. Instead:
 *   1. gj_huff_hyp_decode: every chunk decodes once per slot h (hypothesis h: a
 *      block of slot h begins at the chunk's first bit), keeping the end state and
 *      the first GJ_HYP_MARKS block boundaries it passes ("marks");
 *   2. gj_huff_hyp_link: for every hypothesis h' of chunk i-1, a decoder started at
 *      its end state runs into chunk i until it reaches a block boundary that some
 *      hypothesis h of chunk i also passed: from there the two decode alike, so
 *      "chunk i-1 ended as h' predicts" implies "chunk i ends as h predicts". When
 *      no mark matches, the decoder runs to the end of chunk i and its end state
 *      may still equal some hypothesis' end state. That gives a map h' -> h per
 *      chunk. When nothing matches at all (about 2% of the links of a 4:2:0 photo),
 *      the end state itself becomes an extra state of chunk i, "X1(h')" with index
 *      hyps + h', and the same thread links X1(h') of chunk i into chunk i+1 the
 *      same way (level 1); what fails there becomes X2(h') of chunk i+1 (index
 *      2 hyps + h'), and so on up to hyp_levels levels; what fails at the last
 *      level is guessed as hypothesis 0;
 *   3. gj_huff_hyp_group_maps composes the maps of each work-group's chunks (and
 *      keeps every chunk's path), and its last work-group walks the group maps
 *      of the scan in order, so that each group knows the state index of the
 *      chunk before it; a segment's first chunk is exact as hypothesis 0.
 * The guesses are only guesses: gj_huff_sync decodes every chunk from its
 * predecessor's guessed end state and corrects the few that were wrong.
 */
#ifndef GJ_KERNELS_JPEG_HUFFMAN_HYP_H
#define GJ_KERNELS_JPEG_HUFFMAN_HYP_H

#include "jpeg_huffman.h"

#define GJ_HYP_GROUP 128    /* threads of the decode and link kernels */

/* One of the hypothesis arrays in the scratch buffer. */
GJ_FUNC GJ_GLOBAL gj_u8 *gj_hyp_array(GJ_GLOBAL gj_u8 *scratch, GJ_GLOBAL const gj_scan_params *p, gj_u32 which)
{
    return scratch + (gj_u64)p->hyp_offset[which] * 16;
}
#define GJ_HYP_STATES(scratch, p) ((GJ_GLOBAL gj_huff_packed_state *)gj_hyp_array(scratch, p, GJ_HYP_ARRAY_STATES))
#define GJ_HYP_X(scratch, p) ((GJ_GLOBAL gj_huff_packed_state *)gj_hyp_array(scratch, p, GJ_HYP_ARRAY_X))
#define GJ_HYP_MARKS_OF(scratch, p) ((GJ_GLOBAL gj_u16 *)gj_hyp_array(scratch, p, GJ_HYP_ARRAY_MARKS))
#define GJ_HYP_MAP(scratch, p) gj_hyp_array(scratch, p, GJ_HYP_ARRAY_MAP)
#define GJ_HYP_GROUP_MAP(scratch, p) gj_hyp_array(scratch, p, GJ_HYP_ARRAY_GROUP_MAP)
#define GJ_HYP_GROUP_IN(scratch, p) gj_hyp_array(scratch, p, GJ_HYP_ARRAY_GROUP_IN)
#define GJ_HYP_HEAD 0xFEu   /* map entry of a segment's first chunk: hypothesis 0 */

/* The hypothesis (chunk, h) a thread of the decode and link kernels works on. */
GJ_FUNC gj_u32 gj_huff_hyp_thread(GJ_GLOBAL const gj_scan_params *p, gj_u32 *chunk, gj_u32 *h)
{
    gj_u64 id = gj_global_id();
    gj_u32 hyps = p->blocks_in_mcu;

    *chunk = (gj_u32)(id / hyps);
    *h = (gj_u32)(id - (gj_u64)*chunk * hyps);
    return *chunk < p->num_chunks;
}

GJ_KERNEL gj_huff_hyp_decode(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                             GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                             GJ_GLOBAL gj_u8 *scratch)
{
    GJ_GLOBAL gj_huff_packed_state *hyp_states = GJ_HYP_STATES(scratch, p);
    GJ_GLOBAL gj_u16 *hyp_marks = GJ_HYP_MARKS_OF(scratch, p);
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_HUFF_SLOT_WORDS];
    gj_u32 chunk, h, idx, limit, is_last, i;
    gj_huff_state st;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];
    GJ_GLOBAL const gj_segment *seg;
    gj_u64 hyp;

    gj_huff_load_tables(p, tables, slot_info);
    if (!gj_huff_hyp_thread(p, &chunk, &h))
        return;
    hyp = (gj_u64)chunk * p->blocks_in_mcu + h;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    gj_huff_start_state(seg, idx * p->chunk_bits, h, &st);
    gj_huff_output_plain(&out);
    out.mark_mode = GJ_MARK_RECORD;
    out.mark_base = st.bit;
    out.mark_count = 0;
    out.marks = &hyp_marks[hyp * GJ_HYP_MARKS];
    gj_huff_run(p, tables, slot_info, words, seg, limit, is_last, &st, sums, &out);
    for (i = out.mark_count; i < GJ_HYP_MARKS; i++)
        out.marks[i] = (gj_u16)GJ_HYP_NO_MARK;
    gj_huff_state_store(&hyp_states[hyp], &st, 0);
}

/* Where the extra state of level `level` (1 .. hyp_levels) of hypothesis h of a chunk lies. */
GJ_FUNC gj_u64 gj_huff_hyp_x_index(GJ_GLOBAL const gj_scan_params *p, gj_u32 level, gj_u32 chunk, gj_u32 h)
{
    return ((gj_u64)(level - 1) * p->num_chunks + chunk) * p->blocks_in_mcu + h;
}

/* A chunk's state with index i: hypothesis i, or the extra state X<level>(h) of index
 * level * hyps + h. */
GJ_FUNC void gj_huff_hyp_state(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_huff_packed_state *hyp_states,
                               GJ_GLOBAL const gj_huff_packed_state *hyp_x, gj_u32 chunk, gj_u32 i, gj_huff_state *st)
{
    gj_u32 hyps = p->blocks_in_mcu, level = i / hyps;

    if (level == 0)
        gj_huff_state_load(st, &hyp_states[(gj_u64)chunk * hyps + i]);
    else
        gj_huff_state_load(st, &hyp_x[gj_huff_hyp_x_index(p, level, chunk, i - level * hyps)]);
}

/*
 * The MATCH filters (jpeg_huffman.h GJ_HYP_FILTER_BITS) of the chunks whose
 * hypotheses the work-group's threads link into, and of the chunk after them
 * (level 1), from their marks: *first gets the first of those chunks, *count how
 * many have one (the deeper levels' chunks, rare, search every mark).
 */
#define GJ_HYP_FILTER_CHUNKS (GJ_HYP_GROUP / 3 + 3)     /* hypotheses pay with 3 or more slots */
GJ_FUNC void gj_huff_hyp_build_filters(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u16 *hyp_marks,
                                       GJ_LOCAL gj_u32 *filters, gj_u32 *first, gj_u32 *filtered)
{
    gj_u32 hyps = p->blocks_in_mcu, per_chunk = hyps * GJ_HYP_MARKS, i;
    gj_u64 first_id = (gj_u64)gj_group_id() * gj_group_size();
    gj_u32 lo = (gj_u32)(first_id / hyps);
    gj_u32 hi = (gj_u32)gj_min((first_id + gj_group_size() - 1) / hyps + 1, (gj_u64)p->num_chunks - 1);
    gj_u32 count = lo <= hi ? gj_min(hi - lo + 1, (gj_u32)GJ_HYP_FILTER_CHUNKS) : 0;

    *first = lo;
    *filtered = count;
    for (i = gj_local_id(); i < count * GJ_HYP_FILTER_WORDS; i += gj_group_size())
        filters[i] = 0;
    gj_barrier();
    for (i = gj_local_id(); i < count * per_chunk; i += gj_group_size()) {
        gj_u32 c = i / per_chunk, rel = hyp_marks[(gj_u64)lo * per_chunk + i] >> 4;
        if (rel < GJ_HYP_FILTER_BITS)
            gj_atomic_or_u32(&filters[c * GJ_HYP_FILTER_WORDS + (rel >> 5)], 1u << (rel & 31));
    }
    gj_barrier();
}

/*
 * Links a decoder that starts chunk `chunk` (not a segment's first) in state *st:
 * returns the hypothesis of the chunk it falls onto, or GJ_HYP_NONE with *st the
 * chunk's end state as reached from that start.
 */
GJ_FUNC gj_u32 gj_huff_hyp_link_one(GJ_GLOBAL const gj_scan_params *p, GJ_LOCAL const gj_huff_table *tables,
                                    GJ_LOCAL const gj_u32 *slot_info, GJ_GLOBAL const gj_u32 *words,
                                    GJ_GLOBAL const gj_segment *seg, GJ_GLOBAL const gj_huff_packed_state *hyp_states,
                                    GJ_GLOBAL const gj_u16 *hyp_marks, GJ_LOCAL const gj_u32 *filters,
                                    gj_u32 first_filtered, gj_u32 num_filtered, gj_u32 chunk, gj_huff_state *st)
{
    gj_u32 idx, limit, is_last, hyps = p->blocks_in_mcu, result = GJ_HYP_NONE, k;
    gj_huff_state end;
    gj_huff_output out;
    gj_i32 sums[GJ_CHUNK_SUMS];

    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    gj_huff_output_plain(&out);
    out.mark_mode = GJ_MARK_MATCH;
    out.mark_base = idx * p->chunk_bits;
    out.mark_count = hyps * GJ_HYP_MARKS;
    out.matched = GJ_HYP_NONE;
    out.match = &hyp_marks[(gj_u64)chunk * hyps * GJ_HYP_MARKS];
    /* Scans of fewer than 3 slots (hypotheses forced, GJ_SYNC) may span more chunks. */
    out.filtered = chunk - first_filtered < num_filtered;
    out.filter = &filters[out.filtered ? (chunk - first_filtered) * GJ_HYP_FILTER_WORDS : 0];
    gj_huff_run(p, tables, slot_info, words, seg, limit, is_last, st, sums, &out);
    if (out.matched != GJ_HYP_NONE)
        return out.matched / GJ_HYP_MARKS;
    /* The run went to the chunk's end: st is where this start really leads. */
    for (k = 0; k < hyps; k++) {
        gj_huff_state_load(&end, &hyp_states[(gj_u64)chunk * hyps + k]);
        if (gj_huff_state_equal(st, &end))
            result = k;
    }
    return result;
}

/*
 * Level 0 links hypothesis h of chunk - 1 into the chunk (map entry h); where
 * nothing matches, the end state becomes X1(h) and the thread goes on at once with
 * level 1, X1(h) linked into the next chunk (entry hyps + h of the next row), and
 * so on: this thread owns entry level * hyps + h of the row `level` chunks on, for
 * every level the segment reaches, and of its own row the entries of the levels a
 * chain from before the segment would have. Level 1 as a launch of its own cost an
 * HD q90 picture 32 us on an H200, nearly all of it work-groups loading tables for
 * no link; guessing X1(h)'s successor instead left long chains to gj_huff_sync
 * (0.71 ms instead of 0.45); and what failed at level 1 (about one link on the
 * path of 600 in an HD q90 photo) left gj_huff_sync's fixpoint a chain of up to 5
 * chunks decoded one after another (doc/benchmarks.md).
 */
GJ_KERNEL gj_huff_hyp_link(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL const gj_u32 *words,
                           GJ_GLOBAL const gj_segment *segs, GJ_GLOBAL const gj_u32 *chunk_seg,
                           GJ_GLOBAL gj_u8 *scratch)
{
    GJ_GLOBAL const gj_huff_packed_state *hyp_states = GJ_HYP_STATES(scratch, p);
    GJ_GLOBAL const gj_u16 *hyp_marks = GJ_HYP_MARKS_OF(scratch, p);
    GJ_GLOBAL gj_huff_packed_state *hyp_x = GJ_HYP_X(scratch, p);
    GJ_GLOBAL gj_u8 *hyp_map = GJ_HYP_MAP(scratch, p);
    GJ_LOCAL_DECL gj_huff_table tables[GJ_MAX_SCAN_TABLES];
    GJ_LOCAL_DECL gj_u32 slot_info[GJ_HUFF_SLOT_WORDS];
    GJ_LOCAL_DECL gj_u32 filters[GJ_HYP_FILTER_CHUNKS * GJ_HYP_FILTER_WORDS];
    gj_u32 chunk, h, idx, limit, is_last, hyps = p->blocks_in_mcu, row = GJ_HYP_ROW(p), first_filtered, num_filtered;
    gj_u32 level, entry, result, left;
    gj_huff_state st;
    GJ_GLOBAL const gj_segment *seg;

    gj_huff_load_tables(p, tables, slot_info);
    gj_huff_hyp_build_filters(p, hyp_marks, filters, &first_filtered, &num_filtered);
    if (!gj_huff_hyp_thread(p, &chunk, &h))
        return;
    seg = &segs[chunk_seg[chunk]];
    gj_huff_chunk_bounds(p, seg, chunk, &idx, &limit, &is_last);
    left = seg->num_chunks - 1 - idx;   /* chunks of the segment after this one */
    for (level = idx + 1; level <= p->hyp_levels; level++)
        hyp_map[(gj_u64)chunk * row + level * hyps + h] = (gj_u8)(idx == 0 ? GJ_HYP_HEAD : GJ_HYP_NONE);
    level = 0;
    if (idx == 0) {
        hyp_map[(gj_u64)chunk * row + h] = (gj_u8)GJ_HYP_HEAD;
        level = 1;      /* no chain starts at a segment's first chunk */
    } else {
        gj_huff_state_load(&st, &hyp_states[(gj_u64)(chunk - 1) * hyps + h]);
        for (entry = h;; level++) {
            result = gj_huff_hyp_link_one(p, tables, slot_info, words, seg, hyp_states, hyp_marks, filters,
                                          first_filtered, num_filtered, chunk + level, &st);
            if (result == GJ_HYP_NONE && level < p->hyp_levels) {
                /* st, where this chain really leads, becomes an extra state of the chunk */
                gj_huff_state_store(&hyp_x[gj_huff_hyp_x_index(p, level + 1, chunk + level, h)], &st, 0);
                result = (level + 1) * hyps + h;
            }
            hyp_map[(gj_u64)(chunk + level) * row + entry] = (gj_u8)result;
            if (result < hyps || result == GJ_HYP_NONE || level == left)
                break;
            entry = result;
        }
        level++;
    }
    /* The levels this chain did not reach have no extra state there. */
    for (; level <= p->hyp_levels && level <= left; level++)
        hyp_map[(gj_u64)(chunk + level) * row + level * hyps + h] = (gj_u8)GJ_HYP_NONE;
}

/*
 * Copies map rows first .. first + count - 1 (of `row` entries; first a multiple of
 * 16) to local memory, as 16-byte words and the last few bytes, every load of a
 * thread issued before its first store: a byte per step waited for global memory at
 * every step, 24 steps a thread with 3 levels of extra states (group maps 18 -> 26
 * us of an HD picture on an H200). Nothing past the rows is read (the arrays' padding
 * is never written). Work-groups of GJ_HUFF_GROUP threads.
 */
#define GJ_HYP_MAP_VECS (GJ_HUFF_GROUP * (GJ_HYP_MAX_LEVELS + 1) * GJ_MAX_SLOTS / 16)
#define GJ_HYP_MAP_STEPS ((GJ_HYP_MAP_VECS + GJ_HUFF_GROUP - 1) / GJ_HUFF_GROUP)
GJ_FUNC void gj_huff_hyp_load_maps(GJ_GLOBAL const gj_u8 *maps, gj_u32 first, gj_u32 count, gj_u32 row,
                                   GJ_LOCAL uint4 *l_map)
{
    GJ_GLOBAL const gj_u8 *rows = maps + (gj_u64)first * row;
    GJ_GLOBAL const uint4 *src = (GJ_GLOBAL const uint4 *)rows;
    gj_u32 bytes = count * row, n = bytes / 16, t = gj_local_id(), tail = n * 16 + t, k;
    uint4 v[GJ_HYP_MAP_STEPS];
    gj_u8 last = 0;

    GJ_UNROLL
    for (k = 0; k < GJ_HYP_MAP_STEPS; k++)
        if (t + k * GJ_HUFF_GROUP < n)
            v[k] = src[t + k * GJ_HUFF_GROUP];
    if (tail < bytes)
        last = rows[tail];
    GJ_UNROLL
    for (k = 0; k < GJ_HYP_MAP_STEPS; k++)
        if (t + k * GJ_HUFF_GROUP < n)
            l_map[t + k * GJ_HUFF_GROUP] = v[k];
    if (tail < bytes)
        ((GJ_LOCAL gj_u8 *)l_map)[tail] = last;
    gj_barrier();
}

/* One step of a walk: the state index of chunk k (of the loaded ones) given that of
 * chunk k - 1. A failed link guesses hypothesis 0, as a segment's first chunk is. */
GJ_FUNC gj_u32 gj_huff_hyp_step(GJ_LOCAL const gj_u8 *l_map, gj_u32 k, gj_u32 row, gj_u32 prev)
{
    gj_u32 m = l_map[k * row + prev];

    return m < row ? m : 0;
}

/* group_in[g] = the state index of the chunk before group g, for groups
 * 0 .. num_groups - 1 (0: nothing to do, the same for every thread): one
 * work-group, thread 0 walking the group maps a tile of `tile` groups at a time. */
GJ_FUNC void gj_huff_hyp_resolve_groups(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL gj_u8 *scratch,
                                        gj_u32 num_groups, gj_u32 tile, GJ_LOCAL uint4 *l_maps,
                                        GJ_LOCAL gj_u8 *l_in, GJ_LOCAL gj_u32 *l_i)
{
    GJ_GLOBAL const gj_u8 *group_map = GJ_HYP_GROUP_MAP(scratch, p);
    GJ_LOCAL const gj_u8 *l_map = (GJ_LOCAL const gj_u8 *)l_maps;
    GJ_GLOBAL gj_u8 *group_in = GJ_HYP_GROUP_IN(scratch, p);
    gj_u32 t = gj_local_id(), row = GJ_HYP_ROW(p), base, count, k, i;

    if (t == 0)
        *l_i = 0;
    for (base = 0; base < num_groups; base += tile) {
        count = gj_min(tile, num_groups - base);
        gj_huff_hyp_load_maps(group_map, base, count, row, l_maps);
        if (t == 0) {
            for (i = *l_i, k = 0; k < count; k++) {
                l_in[k] = (gj_u8)i;
                i = l_map[k * row + i];
            }
            *l_i = i;
        }
        gj_barrier();
        for (k = t; k < count; k += gj_group_size())
            group_in[base + k] = l_in[k];
        gj_barrier();
    }
}

/*
 * group_map[g * row + i]: the state index of the last chunk of gj_huff_sync's
 * group g when the chunk before the group ended in its state i. The walks also
 * overwrite each chunk's map row with their path: entry i becomes the chunk's own
 * state index when the chunk before the group ended in state i, so that
 * gj_huff_sync finds every chunk's guess with one load (gj_huff_hyp_guess())
 * instead of walking its group again (thread 0 walking while the others waited was
 * an eighth of its stall samples on an H200).
 * The last work-group to finish (ticket counters[ticket]) then resolves the group
 * inputs (gj_huff_hyp_resolve_groups()): a launch less on the chain of a small
 * picture.
 */
GJ_KERNEL gj_huff_hyp_group_maps(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL gj_u8 *scratch,
                                 GJ_GLOBAL gj_u32 *counters, gj_u32 ticket)
{
    GJ_GLOBAL gj_u8 *hyp_map = GJ_HYP_MAP(scratch, p);
    GJ_GLOBAL gj_u8 *group_map = GJ_HYP_GROUP_MAP(scratch, p);
    GJ_LOCAL_DECL uint4 l_maps[GJ_HYP_MAP_VECS];
    GJ_LOCAL_DECL gj_u8 l_in[GJ_HUFF_GROUP];
    GJ_LOCAL_DECL gj_u32 l_i, l_last;
    gj_u32 g = gj_group_id(), t = gj_local_id(), row = GJ_HYP_ROW(p);
    gj_u32 first = g * GJ_HUFF_GROUP, count = gj_min((gj_u32)GJ_HUFF_GROUP, p->num_chunks - first), k, i;
    GJ_LOCAL const gj_u8 *l_map = (GJ_LOCAL const gj_u8 *)l_maps;

    gj_huff_hyp_load_maps(hyp_map, first, count, row, l_maps);
    if (t < row) {
        for (i = t, k = 0; k < count; k++) {
            i = gj_huff_hyp_step(l_map, k, row, i);
            hyp_map[(gj_u64)(first + k) * row + t] = (gj_u8)i;
        }
        group_map[(gj_u64)g * row + t] = (gj_u8)i;
    }
    /* l_maps is free again once every thread passed the ticket's first barrier. */
    gj_huff_hyp_resolve_groups(p, scratch, gj_last_group(&counters[ticket], &l_last) ? p->num_groups : 0,
                               GJ_HUFF_GROUP, l_maps, l_in, &l_i);
}

/* For gj_huff_sync's first pass, after gj_huff_hyp_group_maps: the state index of the
 * chunk (its guessed end state), from its path entry for its group's start. */
GJ_FUNC gj_u32 gj_huff_hyp_guess(GJ_GLOBAL const gj_scan_params *p, GJ_GLOBAL gj_u8 *scratch, gj_u32 chunk)
{
    gj_u32 in = GJ_HYP_GROUP_IN(scratch, p)[chunk / GJ_HUFF_GROUP];

    return GJ_HYP_MAP(scratch, p)[(gj_u64)chunk * GJ_HYP_ROW(p) + in];
}

#endif /* GJ_KERNELS_JPEG_HUFFMAN_HYP_H */
