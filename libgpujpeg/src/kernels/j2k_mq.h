/*
 * The MQ arithmetic decoder (T.800 Annex C) and the raw bit reader of the bypass
 * mode (D.6), one per thread, over one coded segment in global memory. Bytes past
 * the segment's end read as 0xFF, which the decoders treat as a marker and feed
 * 1-bits (C.3.4): no read ever leaves the segment.
 */
#ifndef GJ_KERNELS_J2K_MQ_H
#define GJ_KERNELS_J2K_MQ_H

#include "common.h"

/* Table C.2: Qe, then NMPS | NLPS << 8 | SWITCH << 16, per state. */
GJ_CONST_DATA gj_u32 gj_j2k_mq_qe[47] = {
    0x5601, 0x3401, 0x1801, 0x0AC1, 0x0521, 0x0221, 0x5601, 0x5401, 0x4801, 0x3801,
    0x3001, 0x2401, 0x1C01, 0x1601, 0x5601, 0x5401, 0x5101, 0x4801, 0x3801, 0x3401,
    0x3001, 0x2801, 0x2401, 0x2201, 0x1C01, 0x1801, 0x1601, 0x1401, 0x1201, 0x1101,
    0x0AC1, 0x09C1, 0x08A1, 0x0521, 0x0441, 0x02A1, 0x0221, 0x0141, 0x0111, 0x0085,
    0x0049, 0x0025, 0x0015, 0x0009, 0x0005, 0x0001, 0x5601,
};

#define GJ_MQ_T(nmps, nlps, sw) ((nmps) | (nlps) << 8 | (sw) << 16)
GJ_CONST_DATA gj_u32 gj_j2k_mq_next[47] = {
    GJ_MQ_T(1, 1, 1),   GJ_MQ_T(2, 6, 0),   GJ_MQ_T(3, 9, 0),   GJ_MQ_T(4, 12, 0),  GJ_MQ_T(5, 29, 0),
    GJ_MQ_T(38, 33, 0), GJ_MQ_T(7, 6, 1),   GJ_MQ_T(8, 14, 0),  GJ_MQ_T(9, 14, 0),  GJ_MQ_T(10, 14, 0),
    GJ_MQ_T(11, 17, 0), GJ_MQ_T(12, 18, 0), GJ_MQ_T(13, 20, 0), GJ_MQ_T(29, 21, 0), GJ_MQ_T(15, 14, 1),
    GJ_MQ_T(16, 14, 0), GJ_MQ_T(17, 15, 0), GJ_MQ_T(18, 16, 0), GJ_MQ_T(19, 17, 0), GJ_MQ_T(20, 18, 0),
    GJ_MQ_T(21, 19, 0), GJ_MQ_T(22, 19, 0), GJ_MQ_T(23, 20, 0), GJ_MQ_T(24, 21, 0), GJ_MQ_T(25, 22, 0),
    GJ_MQ_T(26, 23, 0), GJ_MQ_T(27, 24, 0), GJ_MQ_T(28, 25, 0), GJ_MQ_T(29, 26, 0), GJ_MQ_T(30, 27, 0),
    GJ_MQ_T(31, 28, 0), GJ_MQ_T(32, 29, 0), GJ_MQ_T(33, 30, 0), GJ_MQ_T(34, 31, 0), GJ_MQ_T(35, 32, 0),
    GJ_MQ_T(36, 33, 0), GJ_MQ_T(37, 34, 0), GJ_MQ_T(38, 35, 0), GJ_MQ_T(39, 36, 0), GJ_MQ_T(40, 37, 0),
    GJ_MQ_T(41, 38, 0), GJ_MQ_T(42, 39, 0), GJ_MQ_T(43, 40, 0), GJ_MQ_T(44, 41, 0), GJ_MQ_T(45, 42, 0),
    GJ_MQ_T(45, 43, 0), GJ_MQ_T(46, 46, 0),
};
#undef GJ_MQ_T

/*
 * A context is one word: its Qe in bits 16-31, where the decoder keeps A and the
 * high half of C, so that the common MPS path (C.3.2) needs the word alone; the
 * shift that renormalises A = Qe after an LPS exchange in bits 8-11 (no count of
 * leading zeros on the decision's chain); its state index and MPS as
 * (state << 1 | mps) in bits 0-6, which index the transition table
 * (gj_j2k_mq_transition) on the rarer paths.
 */
GJ_FUNC gj_u32 gj_j2k_mq_context(gj_u32 state, gj_u32 mps)
{
    gj_u32 qe = gj_j2k_mq_qe[state] << 16;

    return qe | (gj_clz64(qe) - 32u) << 8 | state << 1 | mps;
}

/* The transition table's LPS half starts at entry GJ_MQ_LPS: no more than the 94
 * contexts, so that the batch kernel's groups an SM are not set by its size. */
#define GJ_MQ_LPS 94u
#define GJ_MQ_TRANSITIONS (2u * GJ_MQ_LPS)

/* Entry (state << 1 | mps) + lps * GJ_MQ_LPS: the context after an MPS (lps 0) or LPS (1) renormalisation. */
GJ_FUNC gj_u32 gj_j2k_mq_transition(gj_u32 i)
{
    gj_u32 lps = i >= GJ_MQ_LPS, e = i - (lps ? GJ_MQ_LPS : 0u), s = e >> 1, mps = e & 1u, next;

    next = gj_j2k_mq_next[s];
    if (!lps)
        return gj_j2k_mq_context(next & 0xFFu, mps);
    return gj_j2k_mq_context((next >> 8) & 0xFFu, mps ^ (next >> 16));
}

typedef struct gj_j2k_mq {
    gj_u32 a, c;                /* A scaled by 2^16; C's high half (Chigh) in bits 16-31 */
    gj_i32 ct;
    gj_u32 pos, end;            /* byte positions in the data buffer */
} gj_j2k_mq;

GJ_FUNC gj_u32 gj_j2k_byte(GJ_GLOBAL const gj_u8 *data, gj_u32 pos, gj_u32 end)
{
    return pos < end ? (gj_u32)data[pos] : 0xFFu;
}

/*
 * C.3.4 BYTEIN, when C's low half is empty (CT = 0): the byte after an 0xFF carries
 * 7 bits; 0xFF followed by > 0x8F is a marker, which feeds 1-bits and is not passed.
 * Where neither the last byte passed nor the next is 0xFF, the next two bytes go in
 * at once (16 bits, CT = 16): BYTEIN twice as the standard does it, for half the
 * calls on the renormalisation's path, each a divergent stretch of a warp. C's low
 * half only ever moves up into its high half, so the bits may arrive early. Otherwise
 * one byte, the cases selected without a branch. All loads are issued together.
 */
GJ_FUNC void gj_j2k_mq_bytein(gj_j2k_mq *m, GJ_GLOBAL const gj_u8 *data)
{
    /* One address for the three bytes: positions added as 32-bit numbers could wrap,
     * so each took an address of its own. */
    GJ_GLOBAL const gj_u8 *at = data + m->pos;
    gj_u32 room = m->pos < m->end ? m->end - m->pos : 0u;
    gj_u32 b = room > 0u ? (gj_u32)at[0] : 0xFFu, next = room > 1u ? (gj_u32)at[1] : 0xFFu;
    gj_u32 after = room > 2u ? (gj_u32)at[2] : 0xFFu;
    gj_u32 ff = b == 0xFFu, marker = ff && next > 0x8Fu;

    if (!ff && next != 0xFFu && room > 2u) {
        m->c += next << 8 | after;
        m->ct = 16;
        m->pos += 2u;
        return;
    }
    m->c += marker ? 0xFF00u : next << (8u + ff);
    m->ct = 8 - (gj_i32)(ff & (marker ^ 1u));
    m->pos += marker ^ 1u;
}

/* C.3.5 INITDEC */
GJ_FUNC void gj_j2k_mq_init(gj_j2k_mq *m, GJ_GLOBAL const gj_u8 *data, gj_u32 start, gj_u32 end)
{
    m->pos = start;
    m->end = end;
    m->c = gj_j2k_byte(data, start, end) << 16;
    gj_j2k_mq_bytein(m, data);
    m->c <<= 7;
    m->ct -= 7;
    m->a = 0x8000u << 16;
}

/*
 * C.3.3 RENORMD of a = A by n bits (the caller knows n): all bits at once while C
 * holds them.
 */
GJ_FUNC void gj_j2k_mq_renorm(gj_j2k_mq *m, GJ_GLOBAL const gj_u8 *data, gj_u32 a, gj_u32 n)
{
    while (n > (gj_u32)m->ct) {
        a <<= m->ct;
        m->c <<= m->ct;
        n -= (gj_u32)m->ct;
        gj_j2k_mq_bytein(m, data);
    }
    m->a = a << n;
    m->c <<= n;
    m->ct -= (gj_i32)n;
}

/*
 * C.3.2 DECODE with the exchanges (C.3.3) on a context word that the caller holds
 * (*w, a register where a pass keeps its few contexts): the decision, and the
 * context's new word from the transition table (trans, GJ_MQ_TRANSITIONS entries)
 * when A needs renormalising. The common MPS without renormalisation (C >= Qe and
 * A - Qe >= 0x8000) is tested on the word itself, without extracting Qe first:
 * A's low half is 0 and the word's low half is below 0x10000, so x >= Qe is
 * (x | 0xFFFF) >= word for either. That saves the extraction's latency; where
 * instruction issue sets the time (speculate 0, below), C >= Qe and bit 31 of
 * A - Qe (A - Qe >= 0x8000, as A < 0x10000) are tested: three instructions fewer.
 * The shift is known without counting A's leading zeros: after an LPS exchange
 * A = Qe (the word's bits 8-11); after an MPS exchange A - Qe lies between
 * 0x8000 - 0x5601 and 0x8000, one or two shifts.
 *
 * speculate (a constant of the kernel): both next words are loaded before they are
 * known to be needed, so that the loads' latency overlaps the tests instead of
 * following them. That shortens one decoder's chain (one picture, whose longest
 * code-blocks set the time) but costs instructions on every decision, the common
 * ones too: where many decoders share the GPU (batches) instruction issue sets the
 * time, and the one word needed is loaded once known.
 */
GJ_FUNC gj_u32 gj_j2k_mq_decode_word(gj_j2k_mq *m, GJ_GLOBAL const gj_u8 *data, gj_u32 *w,
                                     GJ_LOCAL const gj_u32 *trans, gj_u32 speculate)
{
    gj_u32 old = *w, qe = old & 0xFFFF0000u, a = m->a - qe, lps, n, next_mps = 0, next_lps = 0;

    if (speculate) {
        next_mps = trans[old & 0x7Fu];
        next_lps = trans[(old & 0x7Fu) + GJ_MQ_LPS];
    }

    /* A >= 0x8000 always: A - 0x8000 is A with bit 31 cleared */
    if (speculate ? (m->c | 0xFFFFu) >= old && ((m->a & 0x7FFFFFFFu) | 0xFFFFu) >= old
                  : m->c >= qe && (gj_i32)a < 0) {
        m->c -= qe;
        m->a = a;
        return old & 1u;
    }
    if (m->c >= qe) {
        /* MPS exchange */
        m->c -= qe;
        lps = a < qe;
        n = 2u - (a >> 30);
    } else {
        /* LPS exchange: the LPS takes the interval unless it is the larger one */
        lps = a >= qe;
        a = qe;
        n = (old >> 8) & 0xFu;
    }
    /* the LPS half's base by a select: one instruction fewer than adding the index's part */
    *w = speculate ? (lps ? next_lps : next_mps) : (trans + (lps ? GJ_MQ_LPS : 0u))[old & 0x7Fu];
    gj_j2k_mq_renorm(m, data, a, n);
    return (old & 1u) ^ lps;
}

/* The same on a context in local memory (stored back on every path: a store costs
 * less than a test). */
GJ_FUNC gj_u32 gj_j2k_mq_decode(gj_j2k_mq *m, GJ_GLOBAL const gj_u8 *data, GJ_LOCAL gj_u32 *ctx,
                                GJ_LOCAL const gj_u32 *trans, gj_u32 speculate)
{
    gj_u32 w = *ctx, d = gj_j2k_mq_decode_word(m, data, &w, trans, speculate);

    *ctx = w;
    return d;
}

/* D.6: raw bits, MSB first; after an 0xFF byte the next one carries 7 bits. Shares gj_j2k_mq's fields. */
GJ_FUNC void gj_j2k_raw_init(gj_j2k_mq *m, gj_u32 start, gj_u32 end)
{
    m->pos = start;
    m->end = end;
    m->c = 0;
    m->ct = 0;
}

GJ_FUNC gj_u32 gj_j2k_raw_decode(gj_j2k_mq *m, GJ_GLOBAL const gj_u8 *data)
{
    if (m->ct == 0) {
        if (m->c == 0xFFu) {
            gj_u32 b = gj_j2k_byte(data, m->pos, m->end);

            if (b > 0x8Fu) {
                m->c = 0xFFu;
                m->ct = 8;
            } else {
                m->c = b;
                m->pos++;
                m->ct = 7;
            }
        } else {
            m->c = gj_j2k_byte(data, m->pos, m->end);
            m->pos++;
            m->ct = 8;
        }
    }
    m->ct--;
    return (m->c >> m->ct) & 1u;
}

#endif /* GJ_KERNELS_J2K_MQ_H */
