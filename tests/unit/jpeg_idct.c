/*
 * The IDCT's 32-bit way (kernels/jpeg_idct.h, taken where a 1-D transform's inputs
 * are at most GJ_IDCT_NARROW_MAX) gives exactly what the 64-bit way (libjpeg-turbo's
 * arithmetic) gives: the host build of the kernel's own code, on blocks from real
 * magnitudes to hostile ones (coefficients up to +-32768, quantizers up to 65535),
 * especially around the bound. No GPU needed; the GPU runs the same source (make
 * check's decodes compare it with libjpeg-turbo).
 */
#include <stdint.h>
#include <stdio.h>

#include "kernels/jpeg_idct.h"
#include "unit_check.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* A value of up to `limit` in magnitude, often 0 (as AC coefficients are). */
static int32_t draw(int32_t limit, int sparse)
{
    if (sparse && next() % 3)
        return 0;
    return (int32_t)(next() % (2u * (uint32_t)limit + 1)) - limit;
}

/*
 * The worst cases: eight inputs of the largest magnitude the 32-bit way takes (and a
 * few below), in every sign pattern, with some of them zero, through both descales:
 * what random blocks rarely reach.
 */
static int check_extremes(void)
{
    static const gj_u32 shifts[2] = { GJ_IDCT_CONST_BITS - GJ_IDCT_PASS1_BITS,
                                      GJ_IDCT_CONST_BITS + GJ_IDCT_PASS1_BITS + 3 };
    static const int32_t mags[] = { (int32_t)GJ_IDCT_NARROW_MAX, (int32_t)GJ_IDCT_NARROW_MAX - 1, 9000, 4096 };
    gj_i32 v[8], narrow[8], wide[8];
    int m, signs, zeros, s, k, bad = 0;

    for (m = 0; m < (int)(sizeof(mags) / sizeof(mags[0])); m++)
        for (signs = 0; signs < 256; signs++)
            for (zeros = 0; zeros < 256; zeros += 17)
                for (s = 0; s < 2; s++) {
                    for (k = 0; k < 8; k++)
                        v[k] = (zeros >> k & 1) ? 0 : (signs >> k & 1) ? -mags[m] : mags[m];
                    gj_idct_1d(v, 1, shifts[s], GJ_IDCT_NARROW_MAX, narrow);
                    gj_idct_1d(v, 1, shifts[s], 0, wide);
                    bad += memcmp(narrow, wide, sizeof(narrow)) != 0;
                }
    CHECK(bad == 0, "%d extreme 1-D transforms differ between the 32- and 64-bit ways", bad);
    return bad;
}

int main(void)
{
    /* coefficient and quantizer ranges: real pictures, the bound, hostile files */
    static const struct { int32_t coef, quant; } kinds[] = {
        { 1024, 16 }, { 2047, 8 }, { 100, 120 }, { 750, 16 }, { 1500, 8 }, { 3000, 4 },
        { 2047, 255 }, { 32767, 1 }, { 32768, 65535 }, { 6000, 2 },
    };
    int32_t coef[64];
    uint16_t quant[64];
    gj_i16 c16[64];
    gj_u32 narrow[16], wide[16];
    int kind, n, k, narrow_taken = 0, mismatches = 0;

    for (kind = 0; kind < (int)(sizeof(kinds) / sizeof(kinds[0])); kind++) {
        for (n = 0; n < 20000; n++) {
            for (k = 0; k < 64; k++) {
                coef[k] = draw(kinds[kind].coef, k > 0);
                if (coef[k] > 32767)
                    coef[k] = -32768;
                c16[k] = (gj_i16)coef[k];
                quant[k] = (uint16_t)(1 + next() % (uint32_t)kinds[kind].quant);
            }
            gj_idct_islow(c16, quant, GJ_IDCT_NARROW_MAX, narrow);
            gj_idct_islow(c16, quant, 0, wide);
            if (memcmp(narrow, wide, sizeof(narrow)) && mismatches++ < 5)
                CHECK(0, "kind %d block %d: the 32-bit way differs from the 64-bit way", kind, n);
            for (k = 0; k < 8; k++)
                narrow_taken += gj_idct_max_abs(coef + k, 8) <= GJ_IDCT_NARROW_MAX;
        }
    }
    CHECK(mismatches == 0, "%d blocks differ", mismatches);
    check_extremes();
    /* both ways were taken */
    CHECK(narrow_taken > 0 && narrow_taken < 8 * 20000 * (int)(sizeof(kinds) / sizeof(kinds[0])),
          "the test drew no block for one of the ways (%d narrow columns)", narrow_taken);
    printf("jpeg_idct: %d columns within the 32-bit bound, %d blocks differ, %d failures\n", narrow_taken,
           mismatches, failures);
    return failures ? 1 : 0;
}
