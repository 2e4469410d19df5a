/*
 * T1: EBCOT coefficient bit modelling (T.800 Annex D), one code-block per thread.
 *
 * Coefficients are kept as OpenJPEG keeps them, in two's complement with one bit
 * below the current bit-plane: a coefficient that becomes significant at bit-plane
 * p is (3 << p) / 2 ("one plus half", the mid-point reconstruction of D.5 at p),
 * refinements move it by half a step. State words (below) live in 16 bits per
 * coefficient in global memory, beside the coefficients. At the end the code-block is
 * dequantised (E.1) in place: integers for 5/3, fixed point for 9/7.
 */
#ifndef GJ_KERNELS_J2K_T1_H
#define GJ_KERNELS_J2K_T1_H

#include "common.h"
#include "j2k_params.h"
#include "j2k_mq.h"

/*
 * A coefficient's state (16 bits): its own flags, then which of its eight neighbours
 * are significant and the signs of the four direct ones. A coefficient that becomes
 * significant updates its neighbours' words, so every context (Tables D.1-D.4)
 * comes from the one word of the coefficient being coded.
 */
#define GJ_T1_SIG     0x0001u   /* significant */
#define GJ_T1_NEG     0x0002u   /* its sign is negative */
#define GJ_T1_VISITED 0x0004u   /* coded in this bit-plane's significance pass */
#define GJ_T1_REFINED 0x0008u   /* refined at least once */
#define GJ_T1_SIG_N   0x0010u   /* neighbours: north (y - 1), south, west (x - 1), east */
#define GJ_T1_SIG_S   0x0020u
#define GJ_T1_SIG_W   0x0040u
#define GJ_T1_SIG_E   0x0080u
#define GJ_T1_SIG_NW  0x0100u
#define GJ_T1_SIG_NE  0x0200u
#define GJ_T1_SIG_SW  0x0400u
#define GJ_T1_SIG_SE  0x0800u
#define GJ_T1_NEG_N   0x1000u   /* signs of the direct neighbours */
#define GJ_T1_NEG_S   0x2000u
#define GJ_T1_NEG_W   0x4000u
#define GJ_T1_NEG_E   0x8000u
#define GJ_T1_NEIGHBOURS 0x0FF0u

/* Contexts (Tables D.1-D.4): 0-8 zero coding, 9-13 sign, 14-16 refinement, run length, uniform. */
#define GJ_T1_CTX_RL 17
#define GJ_T1_CTX_UNI 18
#define GJ_T1_CONTEXTS 19

typedef struct gj_j2k_t1 {
    GJ_GLOBAL gj_i32 *coef;
    GJ_GLOBAL gj_u16 *flags;
    gj_u32 base, stride;        /* coefficients: the code-block's first and the row pitch */
    gj_u32 flags_base;          /* state words, stripe column by stripe column */
    gj_i32 w, h;
    gj_u32 vcausal, orientation;
    gj_u8 ctx[GJ_T1_CONTEXTS];
    gj_j2k_mq mq;
    gj_u32 raw;                 /* this pass is raw-coded (bypass) */
    GJ_GLOBAL const gj_u8 *data;
} gj_j2k_t1;

/* Table D.7: the initial states. */
GJ_FUNC void gj_j2k_t1_reset_contexts(gj_j2k_t1 *t)
{
    for (int i = 0; i < GJ_T1_CONTEXTS; i++)
        t->ctx[i] = 0;
    t->ctx[0] = 4;
    t->ctx[GJ_T1_CTX_RL] = 3;
    t->ctx[GJ_T1_CTX_UNI] = 46;
}

GJ_FUNC gj_u32 gj_j2k_t1_coef_index(const gj_j2k_t1 *t, gj_i32 x, gj_i32 y)
{
    return t->base + (gj_u32)y * t->stride + (gj_u32)x;
}

/* State words follow the coding order (D.2.1): the four of a stripe's column are adjacent. */
GJ_FUNC gj_u32 gj_j2k_t1_index(const gj_j2k_t1 *t, gj_i32 x, gj_i32 y)
{
    return t->flags_base + ((((gj_u32)y >> 2) * (gj_u32)t->w + (gj_u32)x) << 2) + ((gj_u32)y & 3u);
}

/* The coefficient's word as its contexts see it: in vertically causal mode (D.7) the
 * stripe below does not exist for the last row of a stripe. */
GJ_FUNC gj_u32 gj_j2k_t1_state(const gj_j2k_t1 *t, gj_u32 i, gj_i32 y)
{
    gj_u32 f = t->flags[i];

    if (t->vcausal && (y & 3) == 3)
        f &= ~(GJ_T1_SIG_S | GJ_T1_SIG_SW | GJ_T1_SIG_SE | GJ_T1_NEG_S);
    return f;
}

/* Table D.1: the zero coding context. */
GJ_FUNC gj_u32 gj_j2k_t1_zc_context(gj_u32 orientation, gj_u32 f)
{
    gj_u32 h = ((f >> 6) & 1u) + ((f >> 7) & 1u);
    gj_u32 v = ((f >> 4) & 1u) + ((f >> 5) & 1u);
    gj_u32 d = ((f >> 8) & 1u) + ((f >> 9) & 1u) + ((f >> 10) & 1u) + ((f >> 11) & 1u), hv;

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

/* A direct neighbour's contribution to the sign context: +1, -1 or 0 (Table D.2). */
GJ_FUNC gj_i32 gj_j2k_t1_sign_of(gj_u32 f, gj_u32 sig, gj_u32 neg)
{
    return (f & sig) ? ((f & neg) ? -1 : 1) : 0;
}

/* Table D.3: the sign context (low bits) and the XOR bit (bit 8). */
GJ_FUNC gj_u32 gj_j2k_t1_sign_context(gj_u32 f)
{
    gj_i32 h = gj_j2k_t1_sign_of(f, GJ_T1_SIG_W, GJ_T1_NEG_W) + gj_j2k_t1_sign_of(f, GJ_T1_SIG_E, GJ_T1_NEG_E);
    gj_i32 v = gj_j2k_t1_sign_of(f, GJ_T1_SIG_N, GJ_T1_NEG_N) + gj_j2k_t1_sign_of(f, GJ_T1_SIG_S, GJ_T1_NEG_S);

    h = gj_max(-1, gj_min(1, h));
    v = gj_max(-1, gj_min(1, v));
    if (h == 0)
        return v == 0 ? 9u : (10u | (v < 0 ? 256u : 0u));
    if (h > 0)
        return (gj_u32)(12 + v);
    return (gj_u32)(12 - v) | 256u;
}

GJ_FUNC gj_u32 gj_j2k_t1_decode(gj_j2k_t1 *t, gj_u32 ctx)
{
    return gj_j2k_mq_decode(&t->mq, t->data, &t->ctx[ctx]);
}

/* Tells the neighbour at (x + dx, y + dy), if inside the code-block, about a new significant coefficient. */
GJ_FUNC void gj_j2k_t1_tell(gj_j2k_t1 *t, gj_i32 x, gj_i32 y, gj_u32 bits)
{
    if (x >= 0 && y >= 0 && x < t->w && y < t->h) {
        gj_u32 i = gj_j2k_t1_index(t, x, y);
        t->flags[i] = (gj_u16)(t->flags[i] | bits);
    }
}

/* A coefficient becomes significant: its sign (D.3.2), its value at bit-plane p, its neighbours' words. */
GJ_FUNC void gj_j2k_t1_set_significant(gj_j2k_t1 *t, gj_i32 x, gj_i32 y, gj_u32 f, gj_i32 one_plus_half, gj_u32 extra)
{
    gj_u32 i = gj_j2k_t1_index(t, x, y), neg;

    if (t->raw) {
        neg = gj_j2k_raw_decode(&t->mq, t->data);
    } else {
        gj_u32 sc = gj_j2k_t1_sign_context(f);
        neg = gj_j2k_t1_decode(t, sc & 255u) ^ (sc >> 8);
    }
    t->coef[gj_j2k_t1_coef_index(t, x, y)] = neg ? -one_plus_half : one_plus_half;
    t->flags[i] = (gj_u16)(t->flags[i] | GJ_T1_SIG | (neg ? GJ_T1_NEG : 0u) | extra);
    gj_j2k_t1_tell(t, x, y - 1, GJ_T1_SIG_S | (neg ? GJ_T1_NEG_S : 0u));
    gj_j2k_t1_tell(t, x, y + 1, GJ_T1_SIG_N | (neg ? GJ_T1_NEG_N : 0u));
    gj_j2k_t1_tell(t, x - 1, y, GJ_T1_SIG_E | (neg ? GJ_T1_NEG_E : 0u));
    gj_j2k_t1_tell(t, x + 1, y, GJ_T1_SIG_W | (neg ? GJ_T1_NEG_W : 0u));
    gj_j2k_t1_tell(t, x - 1, y - 1, GJ_T1_SIG_SE);
    gj_j2k_t1_tell(t, x + 1, y - 1, GJ_T1_SIG_SW);
    gj_j2k_t1_tell(t, x - 1, y + 1, GJ_T1_SIG_NE);
    gj_j2k_t1_tell(t, x + 1, y + 1, GJ_T1_SIG_NW);
}

/* D.3.1: significance propagation at bit-plane p (p counts the extra half bit). */
GJ_FUNC void gj_j2k_t1_sig_pass(gj_j2k_t1 *t, gj_u32 p)
{
    gj_i32 one_plus_half = (gj_i32)((1u << p) | (1u << p >> 1));

    for (gj_i32 y0 = 0; y0 < t->h; y0 += 4)
        for (gj_i32 x = 0; x < t->w; x++)
            for (gj_i32 y = y0; y < y0 + 4 && y < t->h; y++) {
                gj_u32 i = gj_j2k_t1_index(t, x, y), f = gj_j2k_t1_state(t, i, y);

                if ((f & GJ_T1_SIG) || !(f & GJ_T1_NEIGHBOURS))
                    continue;
                if (t->raw ? gj_j2k_raw_decode(&t->mq, t->data)
                           : gj_j2k_t1_decode(t, gj_j2k_t1_zc_context(t->orientation, f)))
                    gj_j2k_t1_set_significant(t, x, y, f, one_plus_half, GJ_T1_VISITED);
                else
                    t->flags[i] = (gj_u16)(t->flags[i] | GJ_T1_VISITED);
            }
}

/* D.3.3: magnitude refinement of coefficients significant before this bit-plane. */
GJ_FUNC void gj_j2k_t1_ref_pass(gj_j2k_t1 *t, gj_u32 p)
{
    gj_i32 half_step = (gj_i32)(1u << p >> 1);

    for (gj_i32 y0 = 0; y0 < t->h; y0 += 4)
        for (gj_i32 x = 0; x < t->w; x++)
            for (gj_i32 y = y0; y < y0 + 4 && y < t->h; y++) {
                gj_u32 i = gj_j2k_t1_index(t, x, y), f = gj_j2k_t1_state(t, i, y), bit;

                if ((f & (GJ_T1_SIG | GJ_T1_VISITED)) != GJ_T1_SIG)
                    continue;
                if (t->raw) {
                    bit = gj_j2k_raw_decode(&t->mq, t->data);
                } else {
                    /* Table D.4 */
                    gj_u32 ctx = (f & GJ_T1_REFINED) ? 16u : (f & GJ_T1_NEIGHBOURS) ? 15u : 14u;
                    bit = gj_j2k_t1_decode(t, ctx);
                }
                {
                    gj_u32 c = gj_j2k_t1_coef_index(t, x, y);
                    t->coef[c] += (bit ^ (gj_u32)(t->coef[c] < 0)) ? half_step : -half_step;
                }
                t->flags[i] = (gj_u16)(t->flags[i] | GJ_T1_REFINED);
            }
}

/* D.3.4: cleanup, with the run-length mode on whole columns of a stripe. */
GJ_FUNC void gj_j2k_t1_cleanup_pass(gj_j2k_t1 *t, gj_u32 p, gj_u32 segsym)
{
    gj_i32 one_plus_half = (gj_i32)((1u << p) | (1u << p >> 1));

    for (gj_i32 y0 = 0; y0 < t->h; y0 += 4)
        for (gj_i32 x = 0; x < t->w; x++) {
            gj_i32 y = y0, y_end = gj_min(y0 + 4, t->h);

            if (y_end - y0 == 4) {
                gj_u32 busy = 0;

                for (gj_i32 k = y0; k < y_end; k++)
                    busy |= gj_j2k_t1_state(t, gj_j2k_t1_index(t, x, k), k) &
                            (GJ_T1_SIG | GJ_T1_VISITED | GJ_T1_NEIGHBOURS);
                if (!busy) {
                    if (!gj_j2k_t1_decode(t, GJ_T1_CTX_RL))
                        continue;   /* the whole column stays insignificant */
                    y = y0 + (gj_i32)(gj_j2k_t1_decode(t, GJ_T1_CTX_UNI) << 1);
                    y += (gj_i32)gj_j2k_t1_decode(t, GJ_T1_CTX_UNI);
                    gj_j2k_t1_set_significant(t, x, y, gj_j2k_t1_state(t, gj_j2k_t1_index(t, x, y), y),
                                              one_plus_half, 0);
                    y++;
                }
            }
            for (; y < y_end; y++) {
                gj_u32 i = gj_j2k_t1_index(t, x, y), f = gj_j2k_t1_state(t, i, y);

                if (!(f & (GJ_T1_SIG | GJ_T1_VISITED)) &&
                    gj_j2k_t1_decode(t, gj_j2k_t1_zc_context(t->orientation, f)))
                    gj_j2k_t1_set_significant(t, x, y, f, one_plus_half, 0);
            }
            for (y = y0; y < y_end; y++) {
                gj_u32 i = gj_j2k_t1_index(t, x, y);

                t->flags[i] = (gj_u16)(t->flags[i] & ~GJ_T1_VISITED);
            }
        }
    /* D.5: the segmentation symbol 1010 ends each cleanup pass; only its bits are consumed. */
    if (segsym)
        for (int k = 0; k < 4; k++)
            gj_j2k_t1_decode(t, GJ_T1_CTX_UNI);
}

/* E.1: from T1's value (one extra bit below the last plane) to the transform's input. */
GJ_FUNC gj_i32 gj_j2k_dequantise(gj_i32 v, GJ_GLOBAL const gj_j2k_cblk *cb)
{
    gj_u32 mag = (gj_u32)(v < 0 ? -v : v);
    gj_u64 r;

    /* The max-shift ROI (H.1), applied as OpenJPEG applies it. */
    if (cb->roi_shift && mag >= (1u << cb->roi_shift))
        mag >>= cb->roi_shift;
    if (!cb->step_mult) {
        r = mag >> 1;
    } else if (cb->step_shift >= 0) {
        r = ((gj_u64)mag * cb->step_mult) << cb->step_shift;
    } else {
        gj_u32 s = (gj_u32)(-cb->step_shift);
        r = s >= 63 ? 0 : ((gj_u64)mag * cb->step_mult + ((gj_u64)1 << (s - 1))) >> s;
    }
    if (r > 0x7FFFFFFFull)
        r = 0x7FFFFFFFull;
    return v < 0 ? -(gj_i32)r : (gj_i32)r;
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
        t->raw = (cb->style & GJ_J2K_BYPASS) && pass >= 10 && type < 2;
        if (t->raw)
            gj_j2k_raw_init(&t->mq, pos, pos + length);
        else
            gj_j2k_mq_init(&t->mq, t->data, pos, pos + length);
        for (gj_u32 k = 0; k < passes && p >= 1 && pass < cb->passes; k++, pass++) {
            if (type == 0)
                gj_j2k_t1_sig_pass(t, p);
            else if (type == 1)
                gj_j2k_t1_ref_pass(t, p);
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
 * GJ_J2K_T1_LANES threads (a warp) per code-block: they clear its coefficients and
 * state words, the first decodes the passes (the MQ decoder is serial), then all
 * dequantise. With one decoding lane per warp the decoders never diverge, and a
 * warp scheduler interleaves many code-blocks. Work-groups hold whole code-blocks.
 */
GJ_KERNEL gj_j2k_t1_decode_blocks(GJ_GLOBAL const gj_j2k_cblk *cblks, gj_u32 count,
                                  GJ_GLOBAL const gj_u32 *segments, GJ_GLOBAL const gj_u8 *data,
                                  GJ_GLOBAL gj_i32 *coef, GJ_GLOBAL gj_u16 *flags)
{
    gj_u64 id = gj_global_id();
    gj_u64 block = id / GJ_J2K_T1_LANES;
    gj_u32 lane = (gj_u32)(id % GJ_J2K_T1_LANES), n = 0;
    GJ_GLOBAL const gj_j2k_cblk *cb = &cblks[block < count ? block : 0];
    gj_j2k_t1 t;

    t.coef = coef;
    t.flags = flags;
    t.base = cb->coef_offset;
    t.flags_base = cb->flags_offset;
    t.stride = cb->stride;
    t.w = cb->width;
    t.h = cb->height;
    t.vcausal = (cb->style & GJ_J2K_VCAUSAL) != 0;
    t.orientation = cb->orientation;
    t.data = data;
    t.raw = 0;
    if (block < count)
        n = (gj_u32)t.w * (gj_u32)t.h;
    for (gj_u32 k = lane; k < n; k += GJ_J2K_T1_LANES) {
        gj_i32 x = (gj_i32)(k % (gj_u32)t.w), y = (gj_i32)(k / (gj_u32)t.w);

        coef[gj_j2k_t1_coef_index(&t, x, y)] = 0;
        flags[gj_j2k_t1_index(&t, x, y)] = 0;
    }
    gj_barrier();
    if (n && lane == 0)
        gj_j2k_t1_decode_passes(&t, cb, segments);
    gj_barrier();
    for (gj_u32 k = lane; k < n; k += GJ_J2K_T1_LANES) {
        gj_u32 i = gj_j2k_t1_coef_index(&t, (gj_i32)(k % (gj_u32)t.w), (gj_i32)(k / (gj_u32)t.w));

        coef[i] = gj_j2k_dequantise(coef[i], cb);
    }
}

#endif /* GJ_KERNELS_J2K_T1_H */
