/*
 * Whether a picture's coefficients fit 16 bits: the worst case of every value
 * the device holds (T1's magnitudes, the sub-bands, each IDWT step's output),
 * bounded from the code-blocks' bit-plane counts (coef_range.c).
 */
#ifndef GJ_J2K_COEF_RANGE_H
#define GJ_J2K_COEF_RANGE_H

#include "j2k/tile.h"

/*
 * The fractional bits of tile-component c's 16-bit coefficients decoded up to
 * resolution top (0 for 5/3 integers, at most GJ_J2K_FRAC_BITS() for 9/7), or
 * -1 when it needs 32-bit ones.
 */
int j2k_coef_fraction(const j2k_tile_state *ts, int c, int top);

#endif /* GJ_J2K_COEF_RANGE_H */
