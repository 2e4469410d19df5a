/*
 * The bound behind 16-bit coefficients (coef_range.h).
 *
 * Every value is bounded from what the codestream says, never from the image:
 *  - T1: a code-block with P coded bit-planes (ROI shift included) ends with
 *    magnitudes below 2^(P + 1) (the extra half bit of j2k_t1.h), so 16-bit
 *    magnitudes need P <= 15; after dequantisation (E.1) |v| < 2^P * step, the
 *    step being 1 for 5/3 and (1 + mantissa / 2^11) 2^(R_b - exponent) for 9/7.
 *    A sub-band's bound is that of its code-block with the most bit-planes.
 *  - IDWT: every value the IDWT stores is a linear combination of sub-band
 *    samples, so it is bounded by the sum over sub-bands of their bound times the
 *    largest sum of |weights| one output sample gives that sub-band's samples
 *    (symmetric extension only folds weights together, which cannot raise the sum).
 *    5/3 (F-6, F-7), one 1-D step from a low-pass input bounded by a and a
 *    high-pass one by b: even outputs L - floor((H + H' + 2) / 4) <= a + b/2 + 1;
 *    odd ones H + floor((X + X') / 2) weigh H by |1 - 1/4| + 1/8 + 1/8 = 1 and the
 *    lows by 1/2 + 1/2, so S(a, b) = a + b + 2 with the floors. A level from
 *    resolution r - 1 (LL bounded by A) to r, horizontal then vertical (F.3.2):
 *    rows T = S(A, HL), U = S(LH, HH), then A' = S(T, U).
 *    9/7 (F.3.8.2, K scaling included) in one step: 1.2302 a + 0.5675 b for even
 *    outputs, 1.3651 a + 0.8129 b for odd ones; applied level by level that grows
 *    1.86x per level, but the weights of n steps in cascade sum to far less (the
 *    table of cascade_97(), the largest over the 2^n output phases of the
 *    synthesis impulse responses' |taps|, converging to 1.4687 for a low-pass
 *    sample and 0.9716 for a high-pass one), and a separable 2-D step multiplies
 *    the two directions' sums. Each stored value rounds to the stored fraction:
 *    a few of its units per stored step cover that.
 * So for 5/3 with G guard bits on B-bit samples, where every sub-band may use
 * its Mb = G + B + gain - 1 planes (E-2, Table E.1), L levels reach at most
 * (1 + 8 L) 2^(G + B - 1) + 6 L: 16 bits hold B = 8 with G = 2 up to L = 7, or
 * G = 1 up to L = 15; the actual bit-plane counts usually allow more. For 9/7 the
 * stored fraction adapts, level by level: the largest (up to GJ_J2K_FRAC_BITS())
 * that keeps every value a level stores within 15 bits plus a sign, if it is at
 * least J2K_MIN_FRACTION everywhere; 8-bit pictures get 3 to 12 bits at the top
 * level and more below, 12-bit ones (and deeper 5/3) stay 32-bit.
 */
#include "j2k/coef_range.h"
#include "kernels/j2k_params.h"

#define J2K_MAX_PLANES_16 15
#define J2K_LIMIT_16 32767.0
/* 9/7 fractions below this lose visible precision: such pictures stay 32-bit. */
#define J2K_MIN_FRACTION 3

/* 2^e for the bounds (no libm). */
static double pow2(int e)
{
    double v = 1;

    for (; e > 0; e--)
        v *= 2;
    for (; e < 0; e++)
        v /= 2;
    return v;
}

static double larger(double a, double b)
{
    return a > b ? a : b;
}

/* The most bit-planes (with the ROI shift) of one sub-band's code-blocks, 0 if none is coded. */
static int band_planes(const j2k_tile_state *ts, const j2k_resolution *res, int b)
{
    int planes = 0;

    for (int p = 0; p < res->pw * res->ph; p++) {
        const j2k_precinct_band *pb = j2k_precinct_band_at(res, p, b);

        for (int i = 0; i < pb->cw * pb->ch; i++) {
            const j2k_codeblock *cb = &ts->cblks[pb->first_cblk + i];

            if (cb->passes && cb->coded_planes > planes)
                planes = cb->coded_planes;
        }
    }
    return planes;
}

/* Gain of n 1-D 9/7 synthesis steps (the first from a high-pass band if high); 10000ths, rounded up. */
static double cascade_97(int n, int high)
{
    static const int low_gain[] = { 10000, 13651, 13939, 14330, 14563, 14646, 14674, 14683, 14686, 14687, 14690 };
    static const int high_gain[] = { 10000, 8129, 9065, 9475, 9632, 9688, 9707, 9713, 9715, 9716, 9718 };

    if (n == 0)
        return 1;
    n = n < 10 ? n : 10;
    return (high ? high_gain[n] : low_gain[n]) / 10000.0;
}

/* The sub-bands' bounds (T1's output): bound[r][orientation]; -1 if a code-block is too deep for 16 bits. */
static int band_bounds(const j2k_tile_state *ts, int c, int top, double (*bound)[4], double unit)
{
    const j2k_tile_component *tc = &ts->comps[c];
    const j2k_component *comp = &ts->tile->comps[c];
    int reversible = comp->coding.reversible;

    for (int r = 0; r <= top; r++) {
        const j2k_resolution *res = &tc->res[r];

        bound[r][0] = bound[r][1] = bound[r][2] = bound[r][3] = 0;
        for (int b = 0; b < res->nb_bands; b++) {
            const j2k_band *bd = &res->bands[b];
            int planes = band_planes(ts, res, b);
            double step = reversible ? 1 : (1 + bd->mantissa / 2048.0) *
                                           pow2(comp->precision + bd->log2_gain - bd->exponent);

            if (planes > J2K_MAX_PLANES_16)
                return -1;
            bound[r][bd->orientation] = step * pow2(planes) + (reversible ? 0 : unit);
        }
    }
    return 0;
}

/* 5/3: the level by level recurrence with S(a, b) = a + b + 2. */
static double worst_53(double (*bound)[4], int top)
{
    double worst = bound[0][J2K_LL], ll = worst;

    for (int r = 1; r <= top; r++) {
        double t = ll + bound[r][J2K_HL] + 2, u = bound[r][J2K_LH] + bound[r][J2K_HH] + 2;

        ll = t + u + 2;
        worst = larger(worst, larger(larger(bound[r][J2K_HL], bound[r][J2K_LH]), larger(bound[r][J2K_HH], ll)));
        worst = larger(worst, larger(t, u));
    }
    return worst;
}

/*
 * 9/7 after synthesis up to resolution rx across and ry down, of the sub-bands of
 * resolutions up to ry (and HL of rx when ry = rx - 1, the rows a horizontal step made).
 */
static double reach_97(double (*bound)[4], int rx, int ry)
{
    double sum = bound[0][J2K_LL] * cascade_97(rx, 0) * cascade_97(ry, 0);

    for (int r = 1; r <= ry; r++)
        for (int o = J2K_HL; o <= J2K_HH; o++)
            sum += bound[r][o] * cascade_97(rx - r + 1, o != J2K_LH) * cascade_97(ry - r + 1, o != J2K_HL);
    if (ry < rx)
        sum += bound[rx][J2K_HL] * cascade_97(1, 1);
    return sum;
}

/* The most fractional bits (up to `most`) that keep values bounded by `bound` within 15 bits and a sign. */
static int fraction_for(double bound, int most)
{
    int f = most;

    while (f >= J2K_MIN_FRACTION && bound * pow2(f) > J2K_LIMIT_16)
        f--;
    return f;
}

int j2k_coef_fractions(const j2k_tile_state *ts, int c, int top, int *frac)
{
    const j2k_component *comp = &ts->tile->comps[c];
    double bound[J2K_MAX_RESOLUTIONS][4] = { { 0 } }, unit = pow2(-J2K_MIN_FRACTION);
    int most = GJ_J2K_FRAC_BITS(comp->precision);

    if (band_bounds(ts, c, top, bound, unit) < 0)
        return -1;
    if (comp->coding.reversible) {
        for (int r = 0; r <= top + 1; r++)
            frac[r] = 0;
        return worst_53(bound, top) <= J2K_LIMIT_16 ? 0 : -1;
    }
    /*
     * 9/7: level r stores the rows of its horizontal step (T: LL and HL, U: LH and
     * HH) over its inputs (its sub-bands, the LL it starts from), each the sum of
     * every sub-band's bound times the gain of the steps it went through; rounding
     * adds a few units of the stored fraction per stored step (each unit error
     * grows by at most 1.469^2 through the later steps), counted in the coarsest
     * unit allowed. Each level and the picture get the most bits their own bound
     * allows: the lower levels' values are smaller, so they keep finer fractions
     * where rounding errors would grow most through the levels above.
     */
    for (int r = 1; r <= top; r++) {
        double slop = unit * 3 * (2 * r + 2), ll = r == 1 ? bound[0][J2K_LL] : reach_97(bound, r - 1, r - 1) + slop;
        double t = reach_97(bound, r, r - 1) + slop;
        double u = bound[r][J2K_LH] * cascade_97(1, 0) + bound[r][J2K_HH] * cascade_97(1, 1) + slop;
        double worst = larger(larger(ll, larger(t, u)), larger(bound[r][J2K_HL], larger(bound[r][J2K_LH],
                                                                                           bound[r][J2K_HH])));

        frac[r] = fraction_for(worst, most);
    }
    frac[top + 1] = fraction_for(top ? reach_97(bound, top, top) + unit * 3 * (2 * top + 2) : bound[0][J2K_LL], most);
    frac[0] = top ? frac[1] : frac[top + 1];
    for (int r = 0; r <= top + 1; r++)
        if (frac[r] < J2K_MIN_FRACTION)
            return -1;
    return 0;
}
