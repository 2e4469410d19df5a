/*
 * Whether a picture's coefficients fit 16 bits: the worst case of every value
 * the device holds (T1's magnitudes, the sub-bands, each IDWT step's output),
 * bounded from the code-blocks' bit-plane counts (coef_range.c), or for the 9/7
 * IDWT's values an optimistic bound from the samples' range, which the IDWT checks.
 */
#ifndef GJ_J2K_COEF_RANGE_H
#define GJ_J2K_COEF_RANGE_H

#include "j2k/tile.h"

/*
 * The fractional bits of tile-component c's 16-bit coefficients decoded up to
 * resolution top (0 for 5/3 integers, at most GJ_J2K_FRAC_BITS() for 9/7), by
 * level: frac[r] for the sub-bands of resolution r and the values synthesis
 * level r stores on its way (frac[0] = frac[1]: LL_0 is level 1's input), and
 * frac[top + 1] for the picture (the last level's output; LL_0 itself when top
 * is 0). optimistic: 9/7 fractions from the optimistic bound where it allows more
 * bits, else from the worst case. Returns 0 (every value fits), 1 (optimistic
 * fractions above the worst case's somewhere: the IDWT's stores may saturate, the
 * decoder checks), or -1 when the tile-component needs 32-bit coefficients.
 */
int j2k_coef_fractions(const j2k_tile_state *ts, int c, int top, int optimistic, int *frac);

#endif /* GJ_J2K_COEF_RANGE_H */
