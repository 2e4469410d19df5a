/* Huffman tables of the encoder (T.81 Annexes C and K.2). */
#include <string.h>

#include "jpeg/huffman_encode.h"

void gj_huffman_codes(const gj_huffman_spec *spec, uint32_t codes[256])
{
    unsigned code = 0;
    int l, i, k = 0;

    memset(codes, 0, 256 * sizeof(*codes));
    /* C.2: canonical codes, consecutive within a length, doubled at each longer length. */
    for (l = 1; l <= 16; l++) {
        for (i = 0; i < spec->bits[l]; i++, k++, code++)
            codes[spec->values[k]] = code << 8 | (unsigned)l;
        code <<= 1;
    }
}

#define MAX_CODE_LENGTH 32      /* before the 16-bit limit is enforced */

void gj_huffman_optimal(const uint32_t counts[256], gj_huffman_spec *spec)
{
    /* Symbol 256 is reserved with count 1 so that no real code is all ones (K.2). */
    long freq[257];
    int codesize[257], others[257], bits[MAX_CODE_LENGTH + 1];
    int i, j, n = 0;

    for (i = 0; i < 256; i++)
        freq[i] = counts[i];
    freq[256] = 1;
    memset(codesize, 0, sizeof(codesize));
    memset(bits, 0, sizeof(bits));
    for (i = 0; i < 257; i++)
        others[i] = -1;
    /* Figure K.1: merge the two least frequent trees; ties go to the larger symbol. */
    for (;;) {
        int c1 = -1, c2 = -1;
        long v = 1000000000L;
        for (i = 0; i <= 256; i++)
            if (freq[i] && freq[i] <= v) {
                v = freq[i];
                c1 = i;
            }
        v = 1000000000L;
        for (i = 0; i <= 256; i++)
            if (freq[i] && freq[i] <= v && i != c1) {
                v = freq[i];
                c2 = i;
            }
        if (c2 < 0)
            break;
        freq[c1] += freq[c2];
        freq[c2] = 0;
        codesize[c1]++;
        while (others[c1] >= 0) {
            c1 = others[c1];
            codesize[c1]++;
        }
        others[c1] = c2;
        codesize[c2]++;
        while (others[c2] >= 0) {
            c2 = others[c2];
            codesize[c2]++;
        }
    }
    for (i = 0; i <= 256; i++)
        if (codesize[i])
            bits[codesize[i] < MAX_CODE_LENGTH ? codesize[i] : MAX_CODE_LENGTH]++;
    /* Figure K.3: move codes longer than 16 bits up the tree. */
    for (i = MAX_CODE_LENGTH; i > 16; i--) {
        while (bits[i] > 0) {
            j = i - 2;
            while (bits[j] == 0)
                j--;
            bits[i] -= 2;
            bits[i - 1]++;
            bits[j + 1] += 2;
            bits[j]--;
        }
    }
    /* Drop the reserved symbol from the longest length. */
    while (bits[i] == 0)
        i--;
    bits[i]--;
    memset(spec, 0, sizeof(*spec));
    for (i = 1; i <= 16; i++)
        spec->bits[i] = (uint8_t)bits[i];
    /* Figure K.4: symbols sorted by code length, then by value. */
    for (i = 1; i <= MAX_CODE_LENGTH; i++)
        for (j = 0; j <= 255; j++)
            if (codesize[j] == i)
                spec->values[n++] = (uint8_t)j;
    spec->count = n;
}
