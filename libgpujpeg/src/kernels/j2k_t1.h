/*
 * T1: EBCOT coefficient bit modelling (T.800 Annex D), one code-block per warp.
 *
 * Coefficients are kept as OpenJPEG keeps them, with one bit below the current
 * bit-plane: a coefficient that becomes significant at bit-plane p has the
 * magnitude (3 << p) / 2 ("one plus half", the mid-point reconstruction of D.5 at p),
 * refinements move it by half a step. During T1 the coefficient buffer holds
 * magnitudes only (signs stay in the state words), so that a refinement is an XOR
 * sent to memory without waiting for the old value. At the end the code-block is
 * dequantised (E.1) in place: integers for 5/3, fixed point for 9/7, in the
 * buffer's width (j2k_coef.h: 16-bit magnitudes need at most 15 bit-planes).
 *
 * The state lives in local memory, one word per column of a stripe (below). The
 * decoding lane walks a stripe holding the words of the columns left of, at and
 * right of the current one in registers: every context comes from those three
 * words, and a column with nothing to code in a pass costs a few bit operations.
 */
#ifndef GJ_KERNELS_J2K_T1_H
#define GJ_KERNELS_J2K_T1_H

#include "common.h"
#include "j2k_params.h"
#include "j2k_coef.h"
#include "j2k_mq.h"

/*
 * A stripe column's word: significance (sigma) and sign (chi) of its rows -1 to 4,
 * i.e. of its four coefficients and of the nearest rows of the stripes above and
 * below, then for each of its coefficients whether it was coded in this bit-plane's
 * significance pass (pi) and whether it was refined before (mu: bits 16, 21, 22 and
 * 27, gj_j2k_t1_mu).
 *
 * Kept in memory in one of two ways, a constant of the kernel (t->halves):
 *  - the word itself, rows -1 and 4 being copies that a coefficient becoming
 *    significant in the stripe above or below writes;
 *  - a 16-bit half-word of the column's own rows: the word's bits 1-4, 7-10 and
 *    12-15 in place and mu in the bits of rows -1 and 4 (0, 5, 6, 11). Loading a
 *    column reads the stripes above and below too. Half the local memory: a warp
 *    holds four 64x64 code-blocks where it held two (gj_j2k_t1_decode_half).
 */
#define GJ_T1_SIGMA(r)  (1u << ((r) + 1))   /* r from -1 to 4 */
#define GJ_T1_CHI(r)    (1u << ((r) + 7))
#define GJ_T1_PI_ALL    0xF000u
#define GJ_T1_SIGMA_ALL 0x3Fu
/* A half-word's bits that are the word's own; its mu bits, at 16 and above in the word. */
#define GJ_T1_HALF_OWN  0xF79Eu
#define GJ_T1_HALF_MU   0x0861u
/* 32-bit words holding n entries of the state: words, or half-words two to a word. */
#define GJ_T1_STATE_U32(n, halves) ((halves) ? ((n) + 1u) / 2u : (n))

/* Contexts (Tables D.1-D.4): 0-8 zero coding, 9-13 sign, 14-16 refinement, run length, uniform. */
#define GJ_T1_CTX_RL 17
#define GJ_T1_CTX_UNI 18
#define GJ_T1_CONTEXTS 19

/* Entries of a zero coding table: a 3x3 neighbourhood's significance (gj_j2k_t1_zc_entry). */
#define GJ_T1_ZC_ENTRIES 512
/* Entries of the sign coding table: the four direct neighbours' significance and signs (gj_j2k_t1_sc_index). */
#define GJ_T1_SC_ENTRIES 1024
/* A work-group's tables in local memory: the zero coding tables of the three kinds of sub-band, the sign table. */
#define GJ_T1_TABLE_BYTES (3 * GJ_T1_ZC_ENTRIES + GJ_T1_SC_ENTRIES)

typedef struct gj_j2k_t1 {
    GJ_GLOBAL gj_i32 *coef;
    GJ_LOCAL gj_u32 *words;     /* the state, gj_j2k_t1_index(); columns -1 and w stay 0 (shared) */
    GJ_LOCAL gj_u32 *ctx;       /* the MQ contexts (j2k_mq.h) */
    GJ_LOCAL const gj_u32 *trans;   /* the MQ transition table */
    GJ_LOCAL const gj_u8 *zc;   /* the zero coding tables */
    gj_u32 zc_kind;             /* this sub-band's table: its first entry (gj_j2k_t1_zc) */
    GJ_LOCAL const gj_u8 *sc;   /* the sign coding table (gj_j2k_t1_sc_entry) */
    gj_u32 base, stride;        /* coefficients: the code-block's first and the row pitch */
    gj_i32 w, h, pitch;
    gj_u32 vcausal;
    gj_u32 halves;              /* a constant of the kernel: the state in half-words (above) */
    gj_u32 live;                /* gj_j2k_t1_stripe_bit(s) for every stripe s holding a significant coefficient */
    gj_u32 wide;                /* 32-bit coefficients (j2k_coef.h) */
    gj_u32 speculate;           /* a constant of the kernel: the MQ decoder's loads (j2k_mq.h) */
    gj_j2k_mq mq;
    GJ_GLOBAL const gj_u8 *data;
} gj_j2k_t1;

/* Table D.7: the initial states. */
GJ_FUNC void gj_j2k_t1_reset_contexts(gj_j2k_t1 *t)
{
    for (int i = 0; i < GJ_T1_CONTEXTS; i++)
        t->ctx[i] = gj_j2k_mq_context(0, 0);
    t->ctx[0] = gj_j2k_mq_context(4, 0);
    t->ctx[GJ_T1_CTX_RL] = gj_j2k_mq_context(3, 0);
    t->ctx[GJ_T1_CTX_UNI] = gj_j2k_mq_context(46, 0);
}

/* Table D.1 from the numbers of significant horizontal, vertical and diagonal neighbours. */
GJ_FUNC gj_u32 gj_j2k_t1_zc_context(gj_u32 orientation, gj_u32 h, gj_u32 v, gj_u32 d)
{
    gj_u32 hv;

    if (orientation == 3) {
        hv = h + v;
        if (d >= 3)
            return 8;
        if (d == 2)
            return hv >= 1 ? 7 : 6;
        if (d == 1)
            return hv >= 2 ? 5 : 3 + hv;
        return hv >= 2 ? 2 : hv;
    }
    if (orientation == 1) {     /* HL: horizontally high-pass, the roles of h and v swap */
        hv = h;
        h = v;
        v = hv;
    }
    if (h == 2)
        return 8;
    if (h == 1)
        return v >= 1 ? 7 : d >= 1 ? 6 : 5;
    if (v == 2)
        return 4;
    if (v == 1)
        return 3;
    return d >= 2 ? 2 : d;
}

/*
 * A zero coding table's entry i: the significance of rows r-1, r, r+1 of the left
 * column in bits 0-2, of the coefficient's own column in bits 3-5 and of the right
 * column in bits 6-8, as (word >> r) & 7 gives them.
 */
GJ_FUNC gj_u32 gj_j2k_t1_zc_entry(gj_u32 orientation, gj_u32 i)
{
    gj_u32 h = ((i >> 1) & 1u) + ((i >> 7) & 1u);
    gj_u32 v = ((i >> 3) & 1u) + ((i >> 5) & 1u);
    gj_u32 d = (i & 1u) + ((i >> 2) & 1u) + ((i >> 6) & 1u) + ((i >> 8) & 1u);

    return gj_j2k_t1_zc_context(orientation, h, v, d);
}

/*
 * The left and right columns' significance side by side (bits 0-5 and 6-11): a
 * row's entry then takes two shifts, not three.
 */
GJ_FUNC gj_u32 gj_j2k_t1_zc_sides(gj_u32 left, gj_u32 right)
{
    return (left & GJ_T1_SIGMA_ALL) | right << 6;
}

/* The zero coding context of row r (sides from gj_j2k_t1_zc_sides). */
GJ_FUNC gj_u32 gj_j2k_t1_zc(const gj_j2k_t1 *t, gj_u32 sides, gj_u32 cur, gj_u32 r)
{
    return t->zc[((sides >> r) & 0x1C7u) | t->zc_kind | ((cur << 3 >> r) & 0x38u)];
}

/* Bit r: some of row r's eight neighbours is significant. */
GJ_FUNC gj_u32 gj_j2k_t1_neighbours(gj_u32 left, gj_u32 cur, gj_u32 right)
{
    gj_u32 lr = left | right;

    return (lr | lr >> 1 | lr >> 2 | cur | cur >> 2) & 0xFu;
}

/*
 * Stripe s's bit of t->live: the significance and refinement passes skip stripes with
 * nothing significant in or next to them (a quarter to a third of their columns in
 * 4K pictures: the first bit-planes' and the empty sub-bands'). Stripes from 31 on
 * share the last bit.
 */
GJ_FUNC gj_u32 gj_j2k_t1_stripe_bit(gj_i32 s)
{
    return 1u << (s < 31 ? s : 31);
}

/* Where column x (-1 to w) of stripe s lies in the state: a word's or a half-word's index. */
GJ_FUNC gj_u32 gj_j2k_t1_index(const gj_j2k_t1 *t, gj_i32 s, gj_i32 x)
{
    return (gj_u32)(s * t->pitch + x + 1);
}

/*
 * A pass's walk along a stripe: the state of the column it codes, a word or a
 * half-word, and for half-words that column's half-words in the stripes above and
 * below, whose bits that count are up_bits and down_bits. Half-words have no
 * stripes of zeros above the first and below the last (those would take a tenth of
 * a 64x64 code-block's state, and the batch kernel's groups an SM are set by it):
 * there a column's load reads its own half-word again and masks it out, as it
 * masks out the stripe below in vertically causal mode (D.7). Pointers stepped
 * together: a column's load and store take no address arithmetic (an index into
 * the state took three multiply-adds a column).
 */
typedef struct gj_j2k_t1_walk {
    GJ_LOCAL gj_u32 *word;      /* words */
    GJ_LOCAL gj_u16 *own;       /* half-words */
    GJ_LOCAL const gj_u16 *above, *below;
    gj_u32 up_bits, down_bits;
} gj_j2k_t1_walk;

/* A pass enters stripe s at column 0. */
GJ_FUNC gj_j2k_t1_walk gj_j2k_t1_stripe(const gj_j2k_t1 *t, gj_i32 s)
{
    gj_u32 first = s == 0, last = (s + 1) * 4 >= t->h, at = gj_j2k_t1_index(t, s, 0);
    gj_j2k_t1_walk k;

    k.word = t->words + at;
    k.own = (GJ_LOCAL gj_u16 *)t->words + at;
    k.above = k.own - (first ? 0 : t->pitch);
    k.below = k.own + (last ? 0 : t->pitch);
    k.up_bits = first ? 0u : 0x41u;
    k.down_bits = last || t->vcausal ? 0u : 0x820u;
    return k;
}

GJ_FUNC void gj_j2k_t1_step(gj_j2k_t1_walk *k)
{
    k->word++;
    k->own++;
    k->above++;
    k->below++;
}

/* What the state holds at index i: a word, or a half-word (chi in bits 7-10 either way). */
GJ_FUNC gj_u32 gj_j2k_t1_stored(const gj_j2k_t1 *t, gj_u32 i)
{
    return t->halves ? (gj_u32)((GJ_LOCAL const gj_u16 *)t->words)[i] : t->words[i];
}

/*
 * The word of the walk's column (next 0) or of the one right of it (next 1). From
 * half-words: the column's own, with mu moved up, row 3 of the stripe above as row
 * -1 and row 0 of the one below as row 4 (gj_j2k_t1_walk says where they are and
 * whether they count).
 */
GJ_FUNC gj_u32 gj_j2k_t1_load(const gj_j2k_t1 *t, const gj_j2k_t1_walk *k, gj_u32 next)
{
    gj_u32 own, above, below;

    if (!t->halves)
        return k->word[next];
    own = k->own[next];
    above = k->above[next];
    below = k->below[next];
    return ((own | own << 16) & (GJ_T1_HALF_OWN | GJ_T1_HALF_MU << 16)) | ((above >> 4) & k->up_bits) |
           ((below << 4) & k->down_bits);
}

/* The walk's column's new word. */
GJ_FUNC void gj_j2k_t1_store(const gj_j2k_t1 *t, gj_j2k_t1_walk *k, gj_u32 word)
{
    if (t->halves)
        *k->own = (gj_u16)((word & GJ_T1_HALF_OWN) | ((word >> 16) & GJ_T1_HALF_MU));
    else
        *k->word = word;
}

/* mu of rows 0-3 (bits 0-3) from a word; a word's mu bits of the rows in bits 0-3. */
GJ_FUNC gj_u32 gj_j2k_t1_mu(gj_u32 word)
{
    return ((word >> 16) & 1u) | ((word >> 20) & 6u) | ((word >> 24) & 8u);
}

GJ_FUNC gj_u32 gj_j2k_t1_mu_bits(gj_u32 rows)
{
    return (rows & 1u) << 16 | (rows & 6u) << 20 | (rows & 8u) << 24;
}

/*
 * The rows of the last stripe past the code-block's height, "ghosts": chi set and
 * sigma never (chi counts only beside sigma, in every context), set as the state is
 * cleared. A pass leaves out rows with sigma or chi, so that it need not know which
 * rows of a stripe exist. State entry j's ghost bits.
 */
GJ_FUNC gj_u32 gj_j2k_t1_ghosts(const gj_j2k_t1 *t, gj_u32 j)
{
    gj_u32 last = (gj_u32)(t->h - 1) / 4u, past = (0xFu << (t->h - 4 * (gj_i32)last)) & 0xFu;

    return j - gj_j2k_t1_index(t, (gj_i32)last, 0) < (gj_u32)t->w ? past << 7 : 0u;
}

/* Rows 0-3 that are neither significant nor ghosts. */
GJ_FUNC gj_u32 gj_j2k_t1_open(gj_u32 word)
{
    return ~((word >> 1) | (word >> 7)) & 0xFu;
}

/* A direct neighbour's contribution to the sign context (Table D.2): sigma bit b of its word. */
GJ_FUNC gj_i32 gj_j2k_t1_sign_of(gj_u32 word, gj_u32 b)
{
    return ((word >> b) & 1u) ? (((word >> (b + 6)) & 1u) ? -1 : 1) : 0;
}

/* Table D.3 for row r: the sign context (low bits) and the XOR bit (bit 8). */
GJ_FUNC gj_u32 gj_j2k_t1_sign_context(gj_u32 left, gj_u32 cur, gj_u32 right, gj_u32 r)
{
    gj_i32 h = gj_j2k_t1_sign_of(left, r + 1) + gj_j2k_t1_sign_of(right, r + 1);
    gj_i32 v = gj_j2k_t1_sign_of(cur, r) + gj_j2k_t1_sign_of(cur, r + 2);

    h = gj_max(-1, gj_min(1, h));
    v = gj_max(-1, gj_min(1, v));
    if (h == 0)
        return v == 0 ? 9u : (10u | (v < 0 ? 256u : 0u));
    if (h > 0)
        return (gj_u32)(12 + v);
    return (gj_u32)(12 - v) | 256u;
}

/*
 * Row r's four direct neighbours in 10 bits, an index of the sign coding table, where
 * the words' bits fall after the shift by r: the column's rows r - 1 and r + 1, sigma
 * in bits 0 and 2 and chi in bits 6 and 8; the left column's sigma and chi in bits 1
 * and 7, the right column's moved to bits 3 and 9. Seven instructions where packing
 * them into 8 bits took twelve, on the decisions' path that a warp's decoders share
 * least; the table takes 768 bytes more.
 */
GJ_FUNC gj_u32 gj_j2k_t1_sc_index(gj_u32 left, gj_u32 cur, gj_u32 right, gj_u32 r)
{
    return ((cur >> r) & 0x145u) | ((left >> r) & 0x82u) | ((right >> r) & 0x82u) << 2;
}

/*
 * Table D.3 for index i of gj_j2k_t1_sc_index: the sign context times 4 in bits 2-5
 * (the context word's byte offset, which the index's shift then need not make), the
 * XOR bit in bit 7.
 */
GJ_FUNC gj_u32 gj_j2k_t1_sc_entry(gj_u32 i)
{
    gj_u32 sc = gj_j2k_t1_sign_context(i & 0x82u, i & 0x145u, (i >> 2) & 0x82u, 0);

    return (sc & 15u) << 2 | (sc >> 8) << 7;
}

GJ_FUNC gj_u32 gj_j2k_t1_decode(gj_j2k_t1 *t, gj_u32 ctx)
{
    return gj_j2k_mq_decode(&t->mq, t->data, &t->ctx[ctx], t->trans, t->speculate);
}

/* A decision on a context that a pass holds in a register (no local memory latency). */
GJ_FUNC gj_u32 gj_j2k_t1_decode_word(gj_j2k_t1 *t, gj_u32 *w)
{
    return gj_j2k_mq_decode_word(&t->mq, t->data, w, t->trans, t->speculate);
}

GJ_FUNC gj_u32 gj_j2k_t1_coef_index(const gj_j2k_t1 *t, gj_i32 x, gj_i32 y)
{
    return t->base + (gj_u32)y * t->stride + (gj_u32)x;
}

/*
 * The passes take `raw` (a raw-coded pass of the bypass mode, D.6) as a constant
 * argument: each is inlined once per value, and the MQ passes test nothing per
 * decision.
 *
 * Row r of column x in stripe s becomes significant: its sign (D.3.2), its magnitude
 * at bit-plane p, the copies of its row in the stripes above and below (none above
 * in vertically causal mode, D.7). Returns the column's new word.
 */
GJ_FUNC gj_u32 gj_j2k_t1_set_significant(gj_j2k_t1 *t, gj_i32 s, gj_i32 x, gj_u32 r, gj_u32 left, gj_u32 cur,
                                         gj_u32 right, gj_i32 one_plus_half, gj_u32 raw)
{
    gj_u32 neg;

    if (raw) {
        neg = gj_j2k_raw_decode(&t->mq, t->data);
    } else {
        /* a table, not Table D.3's arithmetic: 36 instructions fewer on an H100/H200 */
        gj_u32 e = t->sc[gj_j2k_t1_sc_index(left, cur, right, r)];

        neg = gj_j2k_t1_decode(t, (e >> 2) & 15u) ^ (e >> 7);
    }
    gj_j2k_coef_store_mag(t->coef, gj_j2k_t1_coef_index(t, x, s * 4 + (gj_i32)r), (gj_u32)one_plus_half, t->wide);
    t->live |= gj_j2k_t1_stripe_bit(s);
    /* the copies in the stripes above and below (half-words are read from there) */
    if (r == 0 && s > 0 && !t->vcausal && !t->halves)
        t->words[gj_j2k_t1_index(t, s - 1, x)] |= GJ_T1_SIGMA(4) | (neg ? GJ_T1_CHI(4) : 0u);
    if (r == 3 && (s + 1) * 4 < t->h && !t->halves)
        t->words[gj_j2k_t1_index(t, s + 1, x)] |= GJ_T1_SIGMA(-1) | (neg ? GJ_T1_CHI(-1) : 0u);
    return cur | GJ_T1_SIGMA(r) | (neg ? GJ_T1_CHI(r) : 0u);
}

/* D.3.1: significance propagation at bit-plane p (p counts the extra half bit). */
GJ_FUNC void gj_j2k_t1_sig_pass(gj_j2k_t1 *t, gj_u32 p, gj_u32 raw)
{
    gj_i32 one_plus_half = (gj_i32)((1u << p) | (1u << p >> 1));

    for (gj_i32 s = 0; s * 4 < t->h; s++) {
        gj_u32 left = 0, cur;
        gj_j2k_t1_walk k;

        /* a coefficient's neighbours lie in its stripe and the ones above and below */
        if (!(t->live & (gj_j2k_t1_stripe_bit(s - (s > 0)) | gj_j2k_t1_stripe_bit(s) | gj_j2k_t1_stripe_bit(s + 1))))
            continue;
        k = gj_j2k_t1_stripe(t, s);
        cur = gj_j2k_t1_load(t, &k, 0);
        for (gj_i32 x = 0; x < t->w; x++, gj_j2k_t1_step(&k)) {
            gj_u32 right = gj_j2k_t1_load(t, &k, 1);
            /* Insignificant coefficients with a significant neighbour, lowest row first */
            gj_u32 todo = gj_j2k_t1_neighbours(left, cur, right) & gj_j2k_t1_open(cur), coded = todo;

            if (todo) {
                do {
                    gj_u32 r = gj_ctz(todo);

                    todo &= todo - 1u;
                    if (raw ? gj_j2k_raw_decode(&t->mq, t->data)
                            : gj_j2k_t1_decode(t, gj_j2k_t1_zc(t, gj_j2k_t1_zc_sides(left, right), cur, r))) {
                        /* which makes the next row a candidate too (rows are coded lowest
                         * first: the rows ever to do are the ones coded) */
                        gj_u32 next;

                        cur = gj_j2k_t1_set_significant(t, s, x, r, left, cur, right, one_plus_half, raw);
                        next = (2u << r) & gj_j2k_t1_open(cur);
                        todo |= next;
                        coded |= next;
                    }
                } while (todo);
                cur |= coded << 12;     /* pi */
                gj_j2k_t1_store(t, &k, cur);
            }
            left = cur;
            cur = right;
        }
    }
}

/* D.3.3: magnitude refinement of coefficients significant before this bit-plane. */
GJ_FUNC void gj_j2k_t1_ref_pass(gj_j2k_t1 *t, gj_u32 p, gj_u32 raw)
{
    /* "One plus half" at p, refined: the half bit p becomes the decoded bit, p - 1 the
     * new half: the XOR for a decoded 0, and for a decoded 1. */
    gj_u32 xor0 = 3u << p >> 1, xor1 = xor0 ^ 1u << p;
    /* In the one-picture kernel its three contexts (Table D.4) stay in registers
     * during the pass (no local memory latency on the decisions' chain) */
    gj_u32 alone = t->ctx[14], neighbour = t->ctx[15], again = t->ctx[16];

    for (gj_i32 s = 0; s * 4 < t->h; s++) {
        gj_u32 left = 0, cur;
        gj_j2k_t1_walk k;

        if (!(t->live & gj_j2k_t1_stripe_bit(s)))
            continue;
        k = gj_j2k_t1_stripe(t, s);
        cur = gj_j2k_t1_load(t, &k, 0);
        for (gj_i32 x = 0; x < t->w; x++, gj_j2k_t1_step(&k)) {
            gj_u32 right = gj_j2k_t1_load(t, &k, 1);
            /* significant (rows that exist), not coded in this plane */
            gj_u32 todo = (cur >> 1) & ~(cur >> 12) & 0xFu;

            if (todo) {
                /* Table D.4 per row from bit 4 (mu: refined before) and bit 0 (a
                 * significant neighbour) of sel >> r */
                gj_u32 mu = gj_j2k_t1_mu(cur);
                gj_u32 sel = (gj_j2k_t1_neighbours(left, cur, right) & ~mu) | mu << 4;
                gj_u32 c = gj_j2k_t1_coef_index(t, x, s * 4), rows = todo, bits = 0, r = gj_ctz(todo);

                cur |= gj_j2k_t1_mu_bits(todo);
                gj_j2k_t1_store(t, &k, cur);
                /* The decisions, one dependent chain: the next row is found while a
                 * decision runs, and the refined magnitudes are stored after the column. */
                do {
                    gj_u32 k = sel >> r, row = r, bit;

                    todo &= todo - 1u;
                    r = gj_ctz(todo | 0x10u);
                    if (raw) {
                        bit = gj_j2k_raw_decode(&t->mq, t->data);
                    } else if (!t->speculate) {
                        /* Where instruction issue sets the time, the context in local
                         * memory, found by index, costs fewer than selects: 14 alone,
                         * 15 with a significant neighbour, 16 refined before. */
                        bit = gj_j2k_t1_decode(t, 14u + ((k & 1u) | ((k >> 3) & 2u)));
                    } else {
                        gj_u32 w = (k & 0x10u) ? again : (k & 1u) ? neighbour : alone;

                        bit = gj_j2k_t1_decode_word(t, &w);
                        /* selects, not branches: the word changes only on a renormalisation */
                        again = (k & 0x10u) ? w : again;
                        neighbour = (k & 0x11u) == 1u ? w : neighbour;
                        alone = (k & 0x11u) == 0u ? w : alone;
                    }
                    bits |= bit << row;
                } while (todo);
                /* Four stores without a branch, so that they issue back to back: a row
                 * without a refinement XORs 0 into the column's first coefficient. */
                GJ_UNROLL
                for (gj_u32 q = 0; q < 4; q++) {
                    gj_u32 on = (rows >> q) & 1u;

                    gj_j2k_coef_xor_mag(t->coef, c + (on ? q * t->stride : 0u),
                                        on ? (((bits >> q) & 1u) ? xor1 : xor0) : 0u, t->wide);
                }
            }
            left = cur;
            cur = right;
        }
    }
    if (t->speculate) {
        t->ctx[14] = alone;
        t->ctx[15] = neighbour;
        t->ctx[16] = again;
    }
}

/* D.3.4: cleanup, with the run-length mode on whole columns of a stripe. */
GJ_FUNC void gj_j2k_t1_cleanup_pass(gj_j2k_t1 *t, gj_u32 p, gj_u32 segsym)
{
    gj_i32 one_plus_half = (gj_i32)((1u << p) | (1u << p >> 1));
    /* The run-length mode's contexts stay in registers during the pass */
    gj_u32 rl = t->ctx[GJ_T1_CTX_RL], uni = t->ctx[GJ_T1_CTX_UNI];

    for (gj_i32 s = 0; s * 4 < t->h; s++) {
        gj_u32 left = 0, cur;
        gj_j2k_t1_walk k = gj_j2k_t1_stripe(t, s);

        cur = gj_j2k_t1_load(t, &k, 0);

        for (gj_i32 x = 0; x < t->w; x++, gj_j2k_t1_step(&k)) {
            gj_u32 right = gj_j2k_t1_load(t, &k, 1);
            gj_u32 todo = gj_j2k_t1_open(cur) & ~(cur >> 12);   /* not coded (pi) either */

            /* Run-length mode: four rows to code and no significant neighbour at all */
            if (todo == 0xFu && !((left | cur | right) & GJ_T1_SIGMA_ALL)) {
                gj_u32 r;

                if (!gj_j2k_t1_decode_word(t, &rl)) {
                    left = cur;     /* the whole column stays insignificant */
                    cur = right;
                    continue;
                }
                r = gj_j2k_t1_decode_word(t, &uni) << 1;
                r |= gj_j2k_t1_decode_word(t, &uni);
                cur = gj_j2k_t1_set_significant(t, s, x, r, left, cur, right, one_plus_half, 0);
                todo &= 0xEu << r;
            }
            while (todo) {
                gj_u32 r = gj_ctz(todo);

                todo &= todo - 1u;
                if (gj_j2k_t1_decode(t, gj_j2k_t1_zc(t, gj_j2k_t1_zc_sides(left, right), cur, r)))
                    cur = gj_j2k_t1_set_significant(t, s, x, r, left, cur, right, one_plus_half, 0);
            }
            cur &= ~GJ_T1_PI_ALL;
            gj_j2k_t1_store(t, &k, cur);
            left = cur;
            cur = right;
        }
    }
    /* D.5: the segmentation symbol 1010 ends each cleanup pass; only its bits are consumed. */
    if (segsym)
        for (int k = 0; k < 4; k++)
            gj_j2k_t1_decode_word(t, &uni);
    t->ctx[GJ_T1_CTX_RL] = rl;
    t->ctx[GJ_T1_CTX_UNI] = uni;
}

/*
 * E.1's parameters of a code-block, read from its table entry once: a loop that
 * stores coefficients would read them again after every store, as the table and
 * the coefficients both lie in global memory.
 */
typedef struct gj_j2k_dequant {
    gj_u32 roi_shift, mult;
    gj_i32 shift;
} gj_j2k_dequant;

GJ_FUNC gj_j2k_dequant gj_j2k_dequant_of(GJ_GLOBAL const gj_j2k_cblk *cb)
{
    gj_j2k_dequant q;

    q.roi_shift = cb->roi_shift;
    q.mult = cb->step_mult;
    q.shift = cb->step_shift;
    return q;
}

/* E.1: from T1's value (one extra bit below the last plane) to the transform's input. */
GJ_FUNC gj_i32 gj_j2k_dequantise(gj_u32 mag, gj_u32 neg, const gj_j2k_dequant *q)
{
    gj_u64 r;

    /* The max-shift ROI (H.1), applied as OpenJPEG applies it. */
    if (q->roi_shift && mag >= (1u << q->roi_shift))
        mag >>= q->roi_shift;
    if (!q->mult) {
        r = mag >> 1;
    } else if (q->shift >= 0) {
        r = ((gj_u64)mag * q->mult) << q->shift;
    } else {
        gj_u32 s = (gj_u32)(-q->shift);
        r = s >= 63 ? 0 : ((gj_u64)mag * q->mult + ((gj_u64)1 << (s - 1))) >> s;
    }
    if (r > 0x7FFFFFFFull)
        r = 0x7FFFFFFFull;
    return neg ? -(gj_i32)r : (gj_i32)r;
}

/*
 * A lane's walk over a code-block's coefficients in raster order, every `step`th
 * from its own: column x of row y, stepped without dividing by the width.
 */
typedef struct gj_j2k_raster {
    gj_u32 x, y;
} gj_j2k_raster;

GJ_FUNC gj_j2k_raster gj_j2k_raster_at(gj_u32 first, gj_u32 w)
{
    gj_j2k_raster c;

    c.x = w ? first % w : 0u;
    c.y = w ? first / w : 0u;
    return c;
}

/* The next coefficient `step` on. w must be at least 1 (the loops call it only for a
 * code-block with coefficients): with w 0 it would not end. */
GJ_FUNC void gj_j2k_raster_step(gj_j2k_raster *c, gj_u32 step, gj_u32 w)
{
    for (c->x += step; c->x >= w; c->x -= w)
        c->y++;
}

/* The coding passes of one code-block, cleared beforehand (D.3, D.4). */
GJ_FUNC void gj_j2k_t1_decode_passes(gj_j2k_t1 *t, GJ_GLOBAL const gj_j2k_cblk *cb,
                                     GJ_GLOBAL const gj_u32 *segments)
{
    gj_u32 pos = cb->data_offset, pass = 0, type = 2, p = cb->planes;

    gj_j2k_t1_reset_contexts(t);
    for (gj_u32 s = 0; s < cb->seg_count && p >= 1; s++) {
        gj_u32 seg = segments[cb->seg_first + s];
        gj_u32 length = seg & 0xFFFFFFu, passes = seg >> 24;

        /* D.6: in bypass mode, significance and refinement passes after the tenth are raw. */
        gj_u32 raw = (cb->style & GJ_J2K_BYPASS) && pass >= 10 && type < 2;

        if (raw)
            gj_j2k_raw_init(&t->mq, pos, pos + length);
        else
            gj_j2k_mq_init(&t->mq, t->data, pos, pos + length);
        for (gj_u32 k = 0; k < passes && p >= 1 && pass < cb->passes; k++, pass++) {
            if (type == 0 && raw)
                gj_j2k_t1_sig_pass(t, p, 1);
            else if (type == 0)
                gj_j2k_t1_sig_pass(t, p, 0);
            else if (type == 1 && raw)
                gj_j2k_t1_ref_pass(t, p, 1);
            else if (type == 1)
                gj_j2k_t1_ref_pass(t, p, 0);
            else
                gj_j2k_t1_cleanup_pass(t, p, cb->style & GJ_J2K_SEGSYM);
            if (cb->style & GJ_J2K_RESET)
                gj_j2k_t1_reset_contexts(t);
            if (++type == 3) {
                type = 0;
                p--;
            }
        }
        pos += length;
    }
}

/*
 * The code-block table, the segments and the data lie in one buffer (`input`, at
 * 16-byte aligned offsets: the output picture's plane, which only later stages write).
 * A work-group of `threads` takes `blocks` code-blocks from `first`, each with
 * `max_words` state words (half-words if `halves`) in local memory and threads /
 * blocks threads: they clear the code-block's coefficients and state, the first of
 * them decodes the passes (the MQ decoder is serial), then all dequantise. With a
 * warp per code-block the decoders never diverge, and a warp scheduler interleaves
 * many code-blocks; two or four per warp issue fewer instructions for the same
 * decisions where the GPU is full. The group first
 * fills the zero coding tables of the three kinds of sub-band (LL and LH share
 * theirs), the sign coding table and the MQ transition table.
 */
GJ_FUNC void gj_j2k_t1_group(GJ_GLOBAL const gj_u8 *input, gj_u64 cblks_at, gj_u32 count, gj_u64 segments_at,
                             gj_u64 data_at, GJ_GLOBAL gj_i32 *coef, gj_u32 wide, gj_u64 first, gj_u32 threads,
                             gj_u32 blocks, gj_u32 max_words, gj_u32 speculate, gj_u32 halves,
                             GJ_LOCAL gj_u32 *words, GJ_LOCAL gj_u8 *tables, GJ_LOCAL gj_u32 *ctx,
                             GJ_LOCAL gj_u32 *trans)
{
    GJ_GLOBAL const gj_j2k_cblk *cblks = (GJ_GLOBAL const gj_j2k_cblk *)(input + cblks_at);
    GJ_GLOBAL const gj_u32 *segments = (GJ_GLOBAL const gj_u32 *)(input + segments_at);
    gj_u32 lid = gj_local_id(), per_block = threads / blocks, slot = lid / per_block, lane = lid % per_block;
    gj_u64 block = first + slot;
    GJ_GLOBAL const gj_j2k_cblk *cb = &cblks[block < count ? block : 0];
    gj_u32 n = 0, nwords = 0, kind = cb->orientation == 3 ? 2u : cb->orientation == 1 ? 1u : 0u;
    gj_j2k_t1 t;
    gj_j2k_raster at;
    gj_j2k_dequant dequant;

    /* The sign table's 256 entries that an index reaches (it never sets bits 4 and 5):
     * filling all 1024 made short-lived groups (sparse pictures) slower. */
    for (gj_u32 i = lid; i < 3u * GJ_T1_ZC_ENTRIES + 256u; i += threads) {
        gj_u32 k = i - 3u * GJ_T1_ZC_ENTRIES, j = (k & 15u) | (k >> 4) << 6;

        if (i >= 3u * GJ_T1_ZC_ENTRIES)
            tables[3u * GJ_T1_ZC_ENTRIES + j] = (gj_u8)gj_j2k_t1_sc_entry(j);
        else
            tables[i] = (gj_u8)gj_j2k_t1_zc_entry(i < GJ_T1_ZC_ENTRIES ? 0u : i < 2u * GJ_T1_ZC_ENTRIES ? 1u : 3u,
                                                  i % GJ_T1_ZC_ENTRIES);
    }
    for (gj_u32 i = lid; i < GJ_MQ_TRANSITIONS; i += threads)
        trans[i] = gj_j2k_mq_transition(i);
    t.coef = coef;
    /* max_words: words or half-words per code-block, a slot's 4-byte aligned */
    t.words = gj_local_pin(words + slot * GJ_T1_STATE_U32(max_words, halves));
    t.ctx = gj_local_pin(ctx + slot * GJ_T1_CONTEXTS);
    t.trans = gj_local_pin(trans);
    t.zc = gj_local_pin(tables);
    t.zc_kind = kind * GJ_T1_ZC_ENTRIES;
    t.sc = gj_local_pin(tables + 3 * GJ_T1_ZC_ENTRIES);
    t.base = cb->coef_offset;
    t.stride = cb->stride;
    t.w = cb->width;
    t.h = cb->height;
    t.pitch = t.w + 1;
    t.vcausal = (cb->style & GJ_J2K_VCAUSAL) != 0;
    t.halves = halves;
    t.live = 0;
    t.data = input + data_at;
    t.wide = wide;
    t.speculate = speculate;
    if (block < count && slot < blocks) {
        n = (gj_u32)t.w * (gj_u32)t.h;
        nwords = GJ_J2K_T1_WORDS_OF(t.w, t.h);
    }
    /* The host refuses larger code-blocks (layout.c) and picks the kernel by the
     * largest; this keeps hostile tables in bounds. */
    if (nwords > max_words)
        nwords = 0;
    at = gj_j2k_raster_at(lane, (gj_u32)t.w);
    for (gj_u32 k = lane; k < n; k += per_block, gj_j2k_raster_step(&at, per_block, (gj_u32)t.w))
        gj_j2k_coef_store_mag(coef, gj_j2k_t1_coef_index(&t, (gj_i32)at.x, (gj_i32)at.y), 0u, wide);
    for (gj_u32 k = lane; k < GJ_T1_STATE_U32(nwords, halves); k += per_block)
        t.words[k] = halves ? gj_j2k_t1_ghosts(&t, 2u * k) | gj_j2k_t1_ghosts(&t, 2u * k + 1u) << 16
                            : gj_j2k_t1_ghosts(&t, k);
    gj_barrier();
    if (nwords && lane == 0)
        gj_j2k_t1_decode_passes(&t, cb, segments);
    gj_barrier();
    /* n again, not kept through the passes (the batch kernel for 32x32 spilled it) */
    n = nwords ? (gj_u32)t.w * (gj_u32)t.h : 0u;
    at = gj_j2k_raster_at(lane, (gj_u32)t.w);
    dequant = gj_j2k_dequant_of(cb);
    for (gj_u32 k = lane; k < n; k += per_block, gj_j2k_raster_step(&at, per_block, (gj_u32)t.w)) {
        gj_u32 i = gj_j2k_t1_coef_index(&t, (gj_i32)at.x, (gj_i32)at.y);
        gj_u32 word = gj_j2k_t1_stored(&t, gj_j2k_t1_index(&t, (gj_i32)(at.y >> 2), (gj_i32)at.x));

        gj_j2k_coef_store(coef, i, gj_j2k_dequantise(gj_j2k_coef_load_mag(coef, i, wide),
                                                     (word >> ((at.y & 3u) + 7u)) & 1u, &dequant), wide);
    }
}

/*
 * Code-blocks of any size, GJ_J2K_T1_BLOCKS per group of a warp each: for one
 * picture, whose longest code-blocks' serial decoding sets its time.
 */
GJ_KERNEL gj_j2k_t1_decode_blocks(GJ_GLOBAL const gj_u8 *input, gj_u64 cblks_at, gj_u32 count, gj_u64 segments_at,
                                  gj_u64 data_at, GJ_GLOBAL gj_i32 *coef, gj_u32 wide)
{
    GJ_LOCAL_DECL gj_u32 words[GJ_J2K_T1_BLOCKS * GJ_J2K_T1_WORDS];
    GJ_LOCAL_DECL gj_u8 tables[GJ_T1_TABLE_BYTES];
    GJ_LOCAL_DECL gj_u32 ctx[GJ_J2K_T1_BLOCKS * GJ_T1_CONTEXTS];
    GJ_LOCAL_DECL gj_u32 trans[GJ_MQ_TRANSITIONS];

    gj_j2k_t1_group(input, cblks_at, count, segments_at, data_at, coef, wide, (gj_u64)gj_group_id() * GJ_J2K_T1_BLOCKS,
                    GJ_J2K_T1_BLOCKS * GJ_J2K_T1_LANES, GJ_J2K_T1_BLOCKS, GJ_J2K_T1_WORDS, 1, 0, words, tables, ctx,
                    trans);
}

/*
 * Batches (j2k/t1_merge.h), where the GPU is full and instruction issue sets the
 * time: groups of GJ_J2K_T1_BATCH_WARPS warps; the first long_groups of them take a
 * code-block per warp (the table's longest), the others `pack` per warp. The
 * code-blocks' state takes at most max_words: smaller state, more decoders
 * resident. Four warps share one copy of the tables where two did: 64x64 code-blocks
 * then fill an H200's shared memory with 24 warps per SM instead of 22 (batches of
 * 4K pictures 1-2 % faster).
 */
#define GJ_J2K_T1_MIXED(name, max_words, pack, groups, halves)                                                   \
    GJ_KERNEL_BOUNDED(GJ_J2K_T1_BATCH_WARPS * GJ_J2K_T1_LANES, groups)                                             \
    name(GJ_GLOBAL const gj_u8 *input, gj_u64 cblks_at, gj_u32 count, gj_u64 segments_at, gj_u64 data_at,          \
         GJ_GLOBAL gj_i32 *coef, gj_u32 wide, gj_u32 long_groups)                                                  \
    {                                                                                                              \
        GJ_LOCAL_DECL gj_u32 words[(pack) * GJ_J2K_T1_BATCH_WARPS * GJ_T1_STATE_U32(max_words, halves)];            \
        GJ_LOCAL_DECL gj_u8 tables[GJ_T1_TABLE_BYTES];                                                             \
        GJ_LOCAL_DECL gj_u32 ctx[(pack) * GJ_J2K_T1_BATCH_WARPS * GJ_T1_CONTEXTS];                                 \
        GJ_LOCAL_DECL gj_u32 trans[GJ_MQ_TRANSITIONS];                                                             \
        gj_u64 g = gj_group_id(), first = g < long_groups ? g * GJ_J2K_T1_BATCH_WARPS                              \
                                          : (long_groups + (g - long_groups) * (pack)) * GJ_J2K_T1_BATCH_WARPS;    \
                                                                                                                   \
        gj_j2k_t1_group(input, cblks_at, count, segments_at, data_at, coef, wide, first,                           \
                        GJ_J2K_T1_BATCH_WARPS * GJ_J2K_T1_LANES, g < long_groups ? GJ_J2K_T1_BATCH_WARPS           \
                        : (pack) * GJ_J2K_T1_BATCH_WARPS, max_words, 0, halves, words, tables, ctx, trans);        \
    }

/* Code-blocks up to 64x64, the usual size, in words or half-words; up to 32x32, the DCI
 * profiles' size, whose small state leaves room for four per warp (on an H200 four gave
 * DCI batches 1.5-2x two's gain). Four 64x64 code-blocks per warp in words left too few
 * groups per SM to gain; in half-words five groups fit, and the warps' instructions fell
 * by a quarter (4K lossless batches 13 % faster; t1_queue.h says where they pay).
 * The groups an SM holds: local memory sets them for 64x64 (6 in words, so the kernel
 * may take 64 registers, not 56: 4K batches 0.5-1 % faster; 6 in half-words, 37,872
 * bytes of an H200's 37,888 a group, once the half-words lost their stripes of zeros
 * and the transition table its unused entries: 4K lossless batches 7 % faster than with
 * 5) and registers for 32x32 (9; 10 at 48 registers spilled and made DCI 2K 3 % slower). */
GJ_J2K_T1_MIXED(gj_j2k_t1_decode_mixed, GJ_J2K_T1_WORDS_64, 2, 6, 0)
GJ_J2K_T1_MIXED(gj_j2k_t1_decode_half, GJ_J2K_T1_WORDS_64, 4, 6, 1)
GJ_J2K_T1_MIXED(gj_j2k_t1_decode_mixed32, GJ_J2K_T1_WORDS_32, 4, 9, 0)

#endif /* GJ_KERNELS_J2K_T1_H */
