/*
 * The second half of an early T1 launch (j2k/early.h). gj_j2k_t1_decode_blocks ran
 * on those code-blocks before the picture's coefficient width and 9/7 fractions
 * were known, with a step of 1 (j2k_layout_add_early): it left T1's signed
 * magnitudes (the ROI shift applied), 32-bit, each code-block's rows one after
 * another, at the start of a region of the output picture. Here they are
 * dequantised (E.1) into the coefficients as gj_j2k_t1_decode_blocks would have
 * done in one go: the same gj_j2k_dequantise of the same magnitude and sign.
 */
#ifndef GJ_KERNELS_J2K_T1_PLACE_H
#define GJ_KERNELS_J2K_T1_PLACE_H

#include "j2k_t1.h"

/*
 * A work-group per code-block of the table at placed_at in region: its final entry
 * (coefficient offset, stride, step) with data_offset saying where its magnitudes
 * start (region's first bytes) and roi_shift 0 (already applied). It runs after the
 * rest of T1 on the decoder's queue: in 16-bit coefficients a word may hold a
 * coefficient of another code-block.
 */
GJ_KERNEL gj_j2k_t1_place(GJ_GLOBAL const gj_u8 *region, gj_u64 placed_at, gj_u32 count, GJ_GLOBAL gj_i32 *coef,
                          gj_u32 wide)
{
    GJ_GLOBAL const gj_i32 *mags = (GJ_GLOBAL const gj_i32 *)region;
    GJ_GLOBAL const gj_j2k_cblk *placed = (GJ_GLOBAL const gj_j2k_cblk *)(region + placed_at);
    GJ_GLOBAL const gj_j2k_cblk *cb = &placed[gj_group_id() < count ? gj_group_id() : 0];
    gj_u32 w = cb->width, n = gj_group_id() < count ? w * cb->height : 0u;
    gj_j2k_dequant dequant = gj_j2k_dequant_of(cb);

    for (gj_u32 k = gj_local_id(); k < n; k += gj_group_size()) {
        gj_i32 v = mags[cb->data_offset + k];

        gj_j2k_coef_store(coef, cb->coef_offset + (k / w) * cb->stride + k % w,
                          gj_j2k_dequantise((gj_u32)(v < 0 ? -v : v), v < 0, &dequant), wide);
    }
}

#endif /* GJ_KERNELS_J2K_T1_PLACE_H */
