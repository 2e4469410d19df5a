/*
 * The JPEG 2000 coefficient buffer's two widths (j2k/coef_range.c picks one per
 * picture): 32-bit integers, or 16-bit ones when the picture's worst case fits
 * (half the memory and half the IDWT's traffic). Kernels take the buffer as
 * gj_i32 words and a `wide` flag; these helpers index it in either width.
 * The 16-bit view relies on little-endian devices (every CUDA GPU; OpenCL GPUs
 * and PoCL on x86 and ARM) for the refinement's XOR on the enclosing word.
 */
#ifndef GJ_KERNELS_J2K_COEF_H
#define GJ_KERNELS_J2K_COEF_H

#include "common.h"

GJ_FUNC gj_i32 gj_j2k_coef_load(GJ_GLOBAL const gj_i32 *coef, gj_u32 i, gj_u32 wide)
{
    return wide ? coef[i] : (gj_i32)((GJ_GLOBAL const gj_i16 *)coef)[i];
}

/* Stores v, saturated to 16 bits in the narrow width (T1's exact bound makes that a no-op; the IDWT checks). */
GJ_FUNC void gj_j2k_coef_store(GJ_GLOBAL gj_i32 *coef, gj_u32 i, gj_i32 v, gj_u32 wide)
{
    if (wide)
        coef[i] = v;
    else
        ((GJ_GLOBAL gj_i16 *)coef)[i] = (gj_i16)gj_max(-32768, gj_min(32767, v));
}

/* T1's unsigned magnitudes (below 2^16 in the narrow width). */
GJ_FUNC gj_u32 gj_j2k_coef_load_mag(GJ_GLOBAL const gj_i32 *coef, gj_u32 i, gj_u32 wide)
{
    return wide ? (gj_u32)coef[i] : (gj_u32)((GJ_GLOBAL const gj_u16 *)coef)[i];
}

GJ_FUNC void gj_j2k_coef_store_mag(GJ_GLOBAL gj_i32 *coef, gj_u32 i, gj_u32 v, gj_u32 wide)
{
    if (wide)
        coef[i] = (gj_i32)v;
    else
        ((GJ_GLOBAL gj_u16 *)coef)[i] = (gj_u16)v;
}

/*
 * mag ^= v without waiting for the old value. A 16-bit coefficient may share its
 * 32-bit word with a neighbouring code-block's, which another warp writes: the
 * XOR on the whole word is atomic, and v's zero half leaves the neighbour alone.
 */
GJ_FUNC void gj_j2k_coef_xor_mag(GJ_GLOBAL gj_i32 *coef, gj_u32 i, gj_u32 v, gj_u32 wide)
{
    if (wide)
        gj_atomic_xor_u32((GJ_GLOBAL gj_u32 *)&coef[i], v);
    else
        gj_atomic_xor_u32((GJ_GLOBAL gj_u32 *)&coef[i >> 1], v << ((i & 1u) * 16u));
}

#endif /* GJ_KERNELS_J2K_COEF_H */
