/*
 * The interleaved output stage (kernels/j2k_output.h) works in 32 bits: on the CPU,
 * the kernel compiled as C against the 64-bit arithmetic it replaced, written out
 * here, for pixels of every kind a stream makes (16- and 32-bit coefficients, the
 * fractions each width takes, ICT, RCT, no transform, 8- to 16-bit components),
 * with values up to and past a full-scale sample's overshoot: the same samples.
 * Built with UBSan (tests/tests.mk), a sum past 31 bits or a shift out of range
 * anywhere, corrupt streams' values included, aborts it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/common.h"
/* (for the IDWT's kernels, which j2k_output.h brings along: only the output stage runs here) */
#include "unit_one_item.h"
#include "kernels/j2k_output.h"
#include "unit_check.h"

#define PIXELS 64

/* The 64-bit output stage before b0445f7: a channel's sample of one pixel. */
static uint32_t reference_sample(const int64_t *in, const uint32_t *frac, const uint32_t *precision, int mct,
                                 int channel)
{
    int64_t v[3];

    for (int c = 0; c < 3; c++)
        v[c] = in[c];
    if (mct && frac[0]) {
        uint32_t f = frac[0];
        int64_t y0 = v[0];
        int64_t cb = frac[1] >= f ? v[1] >> (frac[1] - f) : v[1] * ((int64_t)1 << (f - frac[1]));
        int64_t cr = frac[2] >= f ? v[2] >> (frac[2] - f) : v[2] * ((int64_t)1 << (f - frac[2]));

        v[0] = y0 + ((cr * GJ_J2K_ICT_CR_R + ((int64_t)1 << 23)) >> 24);
        v[1] = y0 - ((cb * GJ_J2K_ICT_CB_G + ((int64_t)1 << 23)) >> 24) -
               ((cr * GJ_J2K_ICT_CR_G + ((int64_t)1 << 23)) >> 24);
        v[2] = y0 + ((cb * GJ_J2K_ICT_CB_B + ((int64_t)1 << 23)) >> 24);
        for (int c = 0; c < 3; c++)
            v[c] = (v[c] + ((int64_t)1 << (f - 1))) >> f;
    } else {
        for (int c = 0; c < 3; c++)
            v[c] = frac[c] ? (v[c] + ((int64_t)1 << (frac[c] - 1))) >> frac[c] : v[c];
    }
    if (mct && !frac[0]) {
        int64_t g = v[0] - ((v[1] + v[2]) >> 2);

        v[0] = v[2] + g;
        v[2] = v[1] + g;
        v[1] = g;
    }
    v[channel] += (int64_t)1 << (precision[channel] - 1);
    if (v[channel] < 0)
        return 0;
    return v[channel] > ((int64_t)1 << precision[channel]) - 1 ? (1u << precision[channel]) - 1 : (uint32_t)v[channel];
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static int64_t random_in(int64_t limit)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int64_t)(rng % (uint64_t)(2 * limit + 1)) - limit;
}

/*
 * PIXELS pixels of values within `limit` (with its extremes) through gj_j2k_output;
 * `exact`: against the reference, else only that the kernel ran (UBSan checks its
 * arithmetic).
 */
static void run(int wide, const uint32_t *frac, uint32_t precision, int mct, int64_t limit, int exact)
{
    gj_j2k_out_tile tile = { 0 };
    gj_j2k_out_params p = { 0 };
    int32_t coef[3 * PIXELS];
    int64_t values[3 * PIXELS];
    uint8_t out[PIXELS * 6];
    uint16_t palette[1] = { 0 };
    uint32_t prec[3] = { precision, precision, precision };

    for (int i = 0; i < 3 * PIXELS; i++) {
        int64_t v = i < 6 ? (i & 1 ? limit : -limit) : random_in(limit);

        values[i] = v;
        if (wide)
            coef[i] = (int32_t)v;
        else
            ((int16_t *)coef)[i] = (int16_t)v;
    }
    tile.width = PIXELS;
    tile.height = 1;
    tile.mct = (uint32_t)mct;
    for (int c = 0; c < 3; c++) {
        tile.coef_offset[c] = (uint32_t)(c * PIXELS);
        tile.stride[c] = PIXELS;
        tile.frac_bits[c] = frac[c];
        p.precision[c] = precision;
        p.channel_comp[c] = (uint32_t)c;
        p.channel_column[c] = GJ_J2K_DIRECT;
        p.shift[c] = 0;
    }
    p.nb_comps = p.nb_channels = 3;
    p.read_mask = 7;
    p.bytes_per_sample = 2;
    p.pixel_stride = 6;
    p.channel_step = 2;
    p.pitch = PIXELS * 6;
    memset(out, 0, sizeof(out));
    for (uint64_t id = 0; id < GJ_J2K_OUT_THREADS(PIXELS, 1); id++) {
        *gj_host_global_id() = id;
        gj_j2k_output(&tile, 1, GJ_J2K_OUT_THREADS(PIXELS, 1), &p, coef, palette, out, (gj_u32)wide);
    }
    for (int x = 0; x < PIXELS && exact; x++) {
        int64_t in[3] = { values[x], values[PIXELS + x], values[2 * PIXELS + x] };

        for (int c = 0; c < 3; c++) {
            uint32_t got = out[x * 6 + c * 2] | (uint32_t)out[x * 6 + c * 2 + 1] << 8;
            uint32_t want = reference_sample(in, frac, prec, mct, c);

            CHECK(got == want, "wide %d, fractions %u %u %u, %u bits, mct %d, pixel %d channel %d: %u, not %u "
                  "(values %lld %lld %lld)", wide, frac[0], frac[1], frac[2], precision, mct, x, c, got, want,
                  (long long)in[0], (long long)in[1], (long long)in[2]);
        }
    }
}

int main(void)
{
    static const uint32_t precisions[] = { 8, 10, 12, 13, 14, 16 };
    int checked = 0;

    for (int k = 0; k < 6; k++) {
        uint32_t p = precisions[k], most = GJ_J2K_FRAC_BITS(p);

        for (int mct = 0; mct < 2; mct++) {
            /* 32-bit coefficients: GJ_J2K_FRAC_BITS() for 9/7, integers for 5/3; a full-scale
             * sample with four times its overshoot, the clamp's bound, then a corrupt one's */
            for (int irreversible = 0; irreversible < 2; irreversible++) {
                uint32_t f = irreversible ? most : 0, same[3] = { f, f, f };
                int64_t full = ((int64_t)1 << (p - 1)) << f;

                for (int round = 0; round < 20; round++, checked++)
                    run(1, same, p, mct, 2 * full, 1);
                run(1, same, p, mct, GJ_J2K_OUT_MAX_VALUE, 1);
                run(1, same, p, mct, INT32_MAX, 0);
            }
            /* components of different precisions: fractions up to 3 bits apart */
            for (uint32_t d = 1; d <= 3; d++) {
                uint32_t apart[3] = { 13, 13 - d, 13 - (d > 1 ? d - 1 : 0) };

                for (int round = 0; round < 20; round++, checked++)
                    run(1, apart, p, mct, (int64_t)1 << 26, 1);
                run(1, apart, p, mct, INT32_MAX, 0);
            }
            /* 16-bit coefficients: coef_range.c's fractions from 0 to 13, any 16-bit value */
            for (int round = 0; round < 200; round++, checked++) {
                uint32_t frac[3];

                for (int c = 0; c < 3; c++)
                    frac[c] = (uint32_t)((random_in(7) + 7) % 14);
                if (round & 1)
                    frac[0] = frac[1] = frac[2];
                run(0, frac, p, mct, 32767, 1);
            }
        }
    }
    /* components of different filters (not allowed with the transform): no sum past 31 bits */
    for (int k = 0; k < 6; k++) {
        uint32_t mixed[3] = { 13, 0, 0 };

        run(1, mixed, precisions[k], 1, INT32_MAX, 0);
        run(1, mixed, precisions[k], 1, (int64_t)1 << 17, 0);
    }
    printf("%d pixels against the 64-bit output stage, %d failures\n", checked * PIXELS, failures);
    return failures != 0;
}
