/*
 * The DXT refits' rounded quotients by a shared reciprocal (kernels/dxt_color_fit.h:
 * gj_dxt_recip, gj_dxt_div_round) equal C's division, n / d rounded to nearest with
 * halves away from zero: the host build of the kernels' own code, on every divisor up
 * to 70000 (the determinants reach 614656 in the alpha refit: a sample above), with
 * random dividends, the halves around small quotients and the largest dividends the
 * function takes (|n| + d / 2 < 2^31). No GPU needed; the GPU runs the same source
 * (make check's DXT tests compare its blocks with this host build).
 */
#include <stdint.h>
#include <stdio.h>

#include "kernels/dxt_color_fit.h"
#include "unit_check.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static int32_t reference(int32_t n, int32_t d)
{
    return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d);
}

static int mismatches;

static void check_one(int32_t n, int32_t d, gj_u32 r)
{
    int32_t got = gj_dxt_div_round(n, d, r), want = reference(n, d);

    if (got != want && mismatches++ < 5)
        CHECK(0, "%d / %d: %d, C's division %d", n, d, got, want);
}

/* Random dividends within the bound, the halves around quotients 0..15 and the bound itself. */
static void check_divisor(int32_t d)
{
    gj_u32 r = gj_dxt_recip(d);
    int32_t limit = INT32_MAX - d / 2, q;
    int k;

    for (k = 0; k < 64; k++) {
        int32_t n = (int32_t)(next() % (uint32_t)limit);
        check_one(k & 1 ? -n : n, d, r);
        n = (int32_t)(next() % (1u << 24));    /* the refits' magnitudes */
        check_one(k & 1 ? -n : n, d, r);
    }
    for (q = 0; q < 16 && (int64_t)q * d + d <= limit; q++) {
        int32_t half = q * d + d / 2;
        for (k = -1; k <= 1; k++) {
            check_one(half + k, d, r);
            check_one(-(half + k), d, r);
        }
    }
    check_one(limit, d, r);
    check_one(-limit, d, r);
}

int main(void)
{
    int32_t d;
    int k;

    for (d = 1; d <= 70000; d++)
        check_divisor(d);
    for (k = 0; k < 20000; k++)
        check_divisor(1 + (int32_t)(next() % (uint32_t)INT32_MAX));
    check_divisor(INT32_MAX);
    return failures ? 1 : 0;
}
