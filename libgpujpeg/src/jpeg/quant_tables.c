/* Quantisation tables of the encoder (T.81 Annex K.1, libjpeg jcparam.c and jcdctmgr.c semantics). */
#include "jpeg/quant_tables.h"

/* T.81 Tables K.1 (luminance) and K.2 (chrominance), natural order. */
static const uint16_t standard_tables[2][64] = {
    { 16,  11,  10,  16,  24,  40,  51,  61,
      12,  12,  14,  19,  26,  58,  60,  55,
      14,  13,  16,  24,  40,  57,  69,  56,
      14,  17,  22,  29,  51,  87,  80,  62,
      18,  22,  37,  56,  68, 109, 103,  77,
      24,  35,  55,  64,  81, 104, 113,  92,
      49,  64,  78,  87, 103, 121, 120, 101,
      72,  92,  95,  98, 112, 100, 103,  99 },
    { 17,  18,  24,  47,  99,  99,  99,  99,
      18,  21,  26,  66,  99,  99,  99,  99,
      24,  26,  56,  99,  99,  99,  99,  99,
      47,  66,  99,  99,  99,  99,  99,  99,
      99,  99,  99,  99,  99,  99,  99,  99,
      99,  99,  99,  99,  99,  99,  99,  99,
      99,  99,  99,  99,  99,  99,  99,  99,
      99,  99,  99,  99,  99,  99,  99,  99 },
};

void gj_quant_table_for_quality(int id, int quality, int force_baseline, uint16_t table[64])
{
    /* jpeg_quality_scaling: 50 keeps the tables, lower qualities scale by 50/q, higher by 2 - q/50. */
    long scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
    long max = force_baseline ? 255 : 32767;
    int i;

    for (i = 0; i < 64; i++) {
        long q = ((long)standard_tables[id][i] * scale + 50) / 100;
        table[i] = (uint16_t)(q < 1 ? 1 : q > max ? max : q);
    }
}

/* Bits needed for v > 0. */
static int bit_length(unsigned v)
{
    int n = 0;

    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/*
 * libjpeg-turbo divides the DCT output (scaled up by 8) by q * 8 with a 16-bit
 * reciprocal: x / d rounded = ((x + corr) * recip) >> shift, where
 * recip = 2^r / d rounded so that the result equals the rounded division for
 * every 16-bit x (jcdctmgr.c compute_reciprocal, r = 16 + floor(log2 d)).
 */
void gj_quant_divisors(const uint16_t table[64], int id, gj_enc_params *p)
{
    int i;

    for (i = 0; i < 64; i++) {
        uint32_t d = (uint32_t)table[i] << 3;
        int r = 16 + bit_length(d) - 1;
        uint32_t recip = (uint32_t)(((uint64_t)1 << r) / d);
        uint32_t rem = (uint32_t)(((uint64_t)1 << r) % d);
        uint32_t corr = d / 2;

        if (rem == 0) {
            recip >>= 1;    /* a power of two: 2^16 does not fit 16 bits */
            r--;
        } else if (rem <= d / 2) {
            corr++;
        } else {
            recip++;
        }
        p->quant_recip[id][i] = recip;
        p->quant_corr[id][i] = corr;
        p->quant_shift[id][i] = (gj_u32)r;
    }
}
