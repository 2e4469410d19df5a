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
 *
 * That worst case is far above what pictures reach, and its 3 bits at the top
 * levels cost 8-bit 9/7 pictures visible precision (T.803's p0_05 and p1_03 missed
 * the class-1 MSE). So decodes take optimistic 9/7 fractions, bounding the IDWT's
 * stores from the samples' range instead (where that is below the worst case): with
 * exact sub-bands the synthesis retraces the analysis, so each value it stores is
 * the picture (DC shifted: within 2^(B-1)) through the analysis filters. In JPEG
 * 2000's normalisation (low-pass DC gain 1, high-pass Nyquist gain 2) their |taps|
 * sum to at most 1.38 for a cascade of low-passes and 2.63 for a high-pass after
 * them (computed from the lifting steps over impulses), so the rows T and the LL
 * of each level stay within 1.91 x 2^(B-1) and the rows U (high-pass down) within
 * 3.63 x 2^(B-1), even for a picture made to match the filters' signs; the picture
 * itself within 2^(B-1) plus the coding error. J2K_OPTIMISTIC_LEVEL_BITS and
 * J2K_OPTIMISTIC_PICTURE_BITS leave headroom for the quantisation error on top.
 * The sub-bands T1 writes keep their exact bound (their fraction never lets a T1
 * store overflow). A store beyond the optimistic bound saturates: the IDWT flags it
 * and the decoder decodes the picture again with the worst case's fractions
 * (j2k/decoder.c), which only pathological pictures need.
 */
#include <string.h>

#include "j2k/coef_range.h"
#include "kernels/j2k_params.h"

#define J2K_MAX_PLANES_16 15
#define J2K_LIMIT_16 32767.0
/* 9/7 fractions below this lose visible precision: such pictures stay 32-bit. */
#define J2K_MIN_FRACTION 3
/*
 * The optimistic bound: the IDWT's stores of B-bit samples within 2^(B + this). The
 * levels': 4 x 2^(B-1), above the 3.63 a made-up picture reaches without coding
 * error (real ones stay far below: no photograph of the tests, at 2:1 to 400:1,
 * nor the corpus' checkerboards and noise came near); the picture's: 2 x 2^(B-1),
 * twice the samples' range. 8-bit pictures get 6 bits at the levels and 7 for the
 * picture (p1_03's worst component: MSE 0.199 against the limit 0.210; 2^(B+2) and
 * 3.5 x 2^B, 4 and 5 bits, gave 0.226 and 0.2101). 10-bit ones get 4 and 5, 12-bit
 * ones stay 32-bit.
 */
#define J2K_OPTIMISTIC_LEVEL_BITS 1
#define J2K_OPTIMISTIC_PICTURE_BITS 0

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

        if (!pb->included)
            continue;   /* nothing coded (tile.h) */
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

/* The T1 stores of level r's fraction: its sub-bands (and LL_0, which level 1 reads in it). */
static double bands_97(double (*bound)[4], int r)
{
    double b = larger(bound[r][J2K_HL], larger(bound[r][J2K_LH], bound[r][J2K_HH]));

    return r == 1 ? larger(b, bound[0][J2K_LL]) : b;
}

/*
 * The worst case of the IDWT's stores in level r's fraction, r = 1 .. top: the rows
 * of its horizontal step (T: LL and HL, U: LH and HH) and the LL it starts from
 * (level r - 1's output; LL_0 is a sub-band), each the sum of every sub-band's
 * bound times the gain of the steps it went through; rounding adds a few units of
 * the stored fraction per stored step (each unit error grows by at most 1.469^2
 * through the later steps), counted in the coarsest unit allowed. r = top + 1: the
 * picture (top > 0).
 */
static double idwt_97(double (*bound)[4], int r, int top, double unit)
{
    double slop = unit * 3 * (2 * r + 2), ll, t, u;

    if (r > top)
        return reach_97(bound, top, top) + unit * 3 * (2 * top + 2);
    ll = r == 1 ? 0 : reach_97(bound, r - 1, r - 1) + slop;
    t = reach_97(bound, r, r - 1) + slop;
    u = bound[r][J2K_LH] * cascade_97(1, 0) + bound[r][J2K_HH] * cascade_97(1, 1) + slop;
    return larger(ll, larger(t, u));
}

/* The IDWT's stores' fraction: their worst case's, or `optimistic` where that is more. */
static int stores_fraction(double worst, int optimistic, int most)
{
    int f = fraction_for(worst, most);

    return gj_max(f, gj_min(optimistic, most));
}

/*
 * The fractions of each level (and the picture) from the bounds of its stores: the
 * sub-bands' (exact: T1 writes them) and the IDWT's. `idwt` and `idwt_picture`
 * (from the samples' range) are the fractions the IDWT's stores within the levels
 * and of the picture get where their worst case would give fewer; -1: the worst case.
 */
static void fractions_97(double (*bound)[4], int top, double unit, int most, int idwt, int idwt_picture,
                         int *frac)
{
    for (int r = 1; r <= top; r++) {
        int bands = fraction_for(bands_97(bound, r), most);
        int stores = stores_fraction(idwt_97(bound, r, top, unit), idwt, most);

        frac[r] = gj_min(bands, stores);
    }
    /* The picture: the last level's output, or without levels LL_0 itself (a sub-band). */
    frac[top + 1] = top ? stores_fraction(idwt_97(bound, top + 1, top, unit), idwt_picture, most)
                        : fraction_for(bound[0][J2K_LL], most);
    frac[0] = frac[1];
}

static int usable(const int *frac, int top)
{
    for (int r = 0; r <= top + 1; r++)
        if (frac[r] < J2K_MIN_FRACTION)
            return 0;
    return 1;
}

int j2k_coef_fractions(const j2k_tile_state *ts, int c, int top, int optimistic, int *frac)
{
    const j2k_component *comp = &ts->tile->comps[c];
    double bound[J2K_MAX_RESOLUTIONS][4] = { { 0 } }, unit = pow2(-J2K_MIN_FRACTION);
    int most = GJ_J2K_FRAC_BITS(comp->precision), worst[J2K_MAX_RESOLUTIONS + 1];

    if (band_bounds(ts, c, top, bound, unit) < 0)
        return -1;
    if (comp->coding.reversible) {
        for (int r = 0; r <= top + 1; r++)
            frac[r] = 0;
        return worst_53(bound, top) <= J2K_LIMIT_16 ? 0 : -1;
    }
    /*
     * 9/7: each level and the picture get the most bits their own bound allows: the
     * lower levels' values are smaller, so they keep finer fractions where rounding
     * errors would grow most through the levels above.
     */
    fractions_97(bound, top, unit, most, -1, -1, worst);
    if (!optimistic) {
        memcpy(frac, worst, (size_t)(top + 2) * sizeof(*frac));
        return usable(frac, top) ? 0 : -1;
    }
    fractions_97(bound, top, unit, most, 15 - comp->precision - J2K_OPTIMISTIC_LEVEL_BITS,
                 15 - comp->precision - J2K_OPTIMISTIC_PICTURE_BITS, frac);
    if (!usable(frac, top))
        return -1;
    return usable(worst, top) && !memcmp(frac, worst, (size_t)(top + 2) * sizeof(*frac)) ? 0 : 1;
}
