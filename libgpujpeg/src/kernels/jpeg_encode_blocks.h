/*
 * Encoder front end: one kernel reads the picture, converts and downsamples it
 * (jpeg_encode_color.h), transforms and quantises each 8x8 block (jpeg_fdct.h)
 * and stores the coefficients in zig-zag order, block after block in the order
 * the scan codes them (MCU by MCU, T.81 A.2.3). Blocks that only pad the MCU grid
 * (right of or below the component's picture) get the DC of the picture block
 * libjpeg copies it from and zero AC (jccoefct.c "dummy blocks").
 */
#ifndef GJ_KERNELS_JPEG_ENCODE_BLOCKS_H
#define GJ_KERNELS_JPEG_ENCODE_BLOCKS_H

#include "jpeg_encode_color.h"
#include "jpeg_fdct.h"

/* Natural (row-major) index -> zig-zag index (inverse of T.81 Figure A.6). */
GJ_CONST_DATA gj_u8 gj_enc_zigzag_of_natural[64] = {
     0,  1,  5,  6, 14, 15, 27, 28,
     2,  4,  7, 13, 16, 26, 29, 42,
     3,  8, 12, 17, 25, 30, 41, 43,
     9, 11, 18, 24, 31, 40, 44, 53,
    10, 19, 23, 32, 39, 45, 52, 54,
    20, 22, 33, 38, 46, 51, 55, 60,
    21, 34, 37, 47, 50, 56, 59, 61,
    35, 36, 48, 49, 57, 58, 62, 63,
};

/*
 * Where block k of the scan takes its samples from: the block itself, or for a
 * padding block the picture block whose DC it repeats (the last one of its row,
 * or below the picture the MCU's last block of the row above). Returns whether k
 * is a padding block.
 */
GJ_FUNC gj_u32 gj_enc_block_source(GJ_GLOBAL const gj_enc_params *p, gj_u32 k, gj_u32 *comp, gj_u32 *src_x,
                                   gj_u32 *src_y)
{
    gj_u32 mcu = k / p->blocks_in_mcu, s = k - mcu * p->blocks_in_mcu;
    GJ_GLOBAL const gj_enc_slot *slot = &p->slots[s];
    GJ_GLOBAL const gj_enc_component *cp = &p->comp[slot->comp];
    gj_u32 mx = mcu % p->mcus_x, my = mcu / p->mcus_x;
    gj_u32 bx = mx * cp->h + slot->block_x, by = my * cp->v + slot->block_y;

    *comp = slot->comp;
    if (by >= cp->blocks_h) {
        *src_y = cp->blocks_h - 1;
        *src_x = gj_min(mx * cp->h + cp->h - 1, cp->blocks_w - 1);
        return 1;
    }
    *src_y = by;
    *src_x = gj_min(bx, cp->blocks_w - 1);
    return bx >= cp->blocks_w;
}

/*
 * Row y of 8 samples at column x0 of the component's source: two word loads
 * where the row lies whole in an aligned plane at full resolution (the common
 * case: every plane once packed RGB is converted), else sample by sample.
 */
GJ_FUNC void gj_enc_block_row(GJ_GLOBAL const gj_enc_params *p, const gj_enc_source *src, gj_u32 plane,
                              gj_u32 x0, gj_u32 y, gj_i32 *d)
{
    gj_u32 i;

    if (src->fx == 1 && src->fy == 1 && (p->plane_aligned >> plane & 1) && x0 + 7 <= src->last_x) {
        GJ_GLOBAL const gj_u32 *w = (GJ_GLOBAL const gj_u32 *)
            (src->base + (gj_u64)gj_min(gj_min(y, src->last_row), src->last_y) * src->pitch + x0);
        gj_u32 lo = w[0], hi = w[1];
        GJ_UNROLL
        for (i = 0; i < 4; i++) {
            d[i] = (gj_i32)(lo >> (8 * i) & 0xff);
            d[i + 4] = (gj_i32)(hi >> (8 * i) & 0xff);
        }
        return;
    }
    gj_enc_sample_row(src, x0, y, d);
}

/*
 * 8 threads per block: thread r transforms row r, then column r through local
 * memory, and quantises that column into the block's zig-zag order in local
 * memory; the block then goes out as 32 words, thread r storing words r, r + 8,
 * ... so that each store of the group fills whole memory sectors (a store per
 * coefficient at its zig-zag place would write each sector in 2-byte pieces).
 * masks[2k], masks[2k + 1]: the low and high words of block k's map of non-zero
 * AC coefficients (bit = zig-zag index), which lets the Huffman kernels skip the
 * zeros. The input is planar (packed RGB went through gj_jpeg_enc_rgb_to_planes);
 * plane c feeds component c.
 */
GJ_KERNEL gj_jpeg_enc_fdct(GJ_GLOBAL const gj_enc_params *p, GJ_GLOBAL const gj_u8 *plane0,
                           GJ_GLOBAL const gj_u8 *plane1, GJ_GLOBAL const gj_u8 *plane2,
                           GJ_GLOBAL gj_i16 *coefs, GJ_GLOBAL gj_u32 *masks)
{
    GJ_LOCAL_DECL gj_i32 rows[GJ_ENC_BLOCKS_PER_FDCT_GROUP][64];
    GJ_LOCAL_DECL gj_u32 nonzero[GJ_ENC_BLOCKS_PER_FDCT_GROUP][2];
    gj_u32 t = gj_local_id(), b = t >> 3, r = t & 7;
    gj_u32 k = gj_group_id() * GJ_ENC_BLOCKS_PER_FDCT_GROUP + b;
    gj_u32 active = k < p->num_blocks, comp = 0, sx = 0, sy = 0, padding = 0, i, lo = 0, hi = 0;
    gj_i32 d[8], q[8];

    if (r < 2)
        nonzero[b][r] = 0;
    if (active) {
        gj_enc_source src;
        padding = gj_enc_block_source(p, k, &comp, &sx, &sy);
        src = gj_enc_source_of(p, comp == 0 ? plane0 : comp == 1 ? plane1 : plane2, comp);
        gj_enc_block_row(p, &src, p->comp[comp].plane, sx * 8, sy * 8 + r, d);
        for (i = 0; i < 8; i++)
            d[i] -= 128;    /* level shift, A.3.1 */
        gj_fdct_pass(d, 0);
        for (i = 0; i < 8; i++)
            rows[b][r * 8 + i] = d[i];
    }
    gj_barrier();
    if (active) {
        gj_u32 table = p->slots[k % p->blocks_in_mcu].table;
        for (i = 0; i < 8; i++)
            d[i] = rows[b][i * 8 + r];
        gj_fdct_pass(d, 1);
        for (i = 0; i < 8; i++) {
            gj_u32 n = i * 8 + r;
            q[i] = gj_fdct_quantize(d[i], p->quant_recip[table][n], p->quant_corr[table][n],
                                    p->quant_shift[table][n]);
            if (padding && n)
                q[i] = 0;
        }
    }
    gj_barrier();       /* every column read: rows[b] now takes the zig-zag order */
    if (active)
        for (i = 0; i < 8; i++)
            rows[b][gj_enc_zigzag_of_natural[i * 8 + r]] = q[i];
    gj_barrier();
    if (active) {
        GJ_GLOBAL gj_u32 *out = (GJ_GLOBAL gj_u32 *)(coefs + (gj_u64)k * 64);
        for (i = 0; i < 4; i++) {
            gj_u32 w = i * 8 + r, z = 2 * w;
            gj_i32 c0 = rows[b][z], c1 = rows[b][z + 1];
            out[w] = (gj_u32)(gj_u16)c0 | (gj_u32)(gj_u16)c1 << 16;   /* little-endian: element z first */
            if (c0 && z)
                *(z < 32 ? &lo : &hi) |= 1u << (z & 31);
            if (c1)
                *(z + 1 < 32 ? &lo : &hi) |= 1u << ((z + 1) & 31);
        }
        if (lo)
            gj_atomic_or_u32(&nonzero[b][0], lo);
        if (hi)
            gj_atomic_or_u32(&nonzero[b][1], hi);
    }
    gj_barrier();
    if (active && r < 2)
        masks[(gj_u64)k * 2 + r] = nonzero[b][r];
}

#endif /* GJ_KERNELS_JPEG_ENCODE_BLOCKS_H */
