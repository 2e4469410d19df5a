/* Huffman tables: defaults (T.81 K.3) and decoding tables (T.81 C.2, F.2.2.3). */
#include <string.h>

#include "jpeg/huffman_tables.h"
#include "log.h"

/* K.3 Table K.3/K.4: DC tables (values are the categories 0..11). */
static const uint8_t dc_bits[2][17] = {
    { 0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0 },
    { 0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0 },
};

/* K.3 Tables K.5/K.6: AC tables. Their value lists start with the listed symbols;
 * every other (run, size) symbol with size 1..10 follows in ascending order. */
static const uint8_t ac_bits[2][17] = {
    { 0, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d },
    { 0, 0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77 },
};
static const uint8_t ac_luma_head[] = {
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13,
    0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42,
    0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82,
};
static const uint8_t ac_chroma_head[] = {
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51,
    0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1,
    0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24,
    0x34, 0xe1, 0x25, 0xf1,
};

static void default_ac_values(int id, gj_huffman_spec *spec)
{
    const uint8_t *head = id ? ac_chroma_head : ac_luma_head;
    int head_len = id ? (int)sizeof(ac_chroma_head) : (int)sizeof(ac_luma_head);
    uint8_t listed[256] = { 0 };
    int i, n = 0, run, size;

    for (i = 0; i < head_len; i++) {
        spec->values[n++] = head[i];
        listed[head[i]] = 1;
    }
    for (run = 0; run < 16; run++)
        for (size = 1; size <= 10; size++)
            if (!listed[run << 4 | size])
                spec->values[n++] = (uint8_t)(run << 4 | size);
    spec->count = n;
}

int gj_huffman_spec_or_default(gj_huffman_spec *dst, const gj_huffman_spec *defined, int is_ac, int id)
{
    int i;

    if (defined) {
        *dst = *defined;
        return 0;
    }
    if (id > 1)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: Huffman table %s%d was not defined", is_ac ? "AC" : "DC", id);
    memset(dst, 0, sizeof(*dst));
    memcpy(dst->bits, is_ac ? ac_bits[id] : dc_bits[id], 17);
    if (is_ac) {
        default_ac_values(id, dst);
    } else {
        for (i = 0; i < 12; i++)
            dst->values[i] = (uint8_t)i;
        dst->count = 12;
    }
    return 0;
}

int gj_huffman_table_build(const gj_huffman_spec *spec, int is_ac, gj_huff_table *out)
{
    unsigned code = 0;
    int l, i, k = 0;

    memset(out, 0, sizeof(*out));
    for (l = 1; l <= 16; l++) {
        /* C.2: the codes of each length fit in that length and none is all ones. */
        if (spec->bits[l] && code + spec->bits[l] >= (1u << l))
            return gj_fail(GJ_ERROR_INVALIDDATA, "DHT: %s table is bad (too many codes of length %d)",
                           is_ac ? "AC" : "DC", l);
        out->valoffset[l] = k - (int)code;
        for (i = 0; i < spec->bits[l]; i++, k++, code++) {
            if (l <= GJ_HUFF_LOOKUP_BITS) {
                /* Every peek whose first l bits are this code decodes to it. */
                unsigned first = code << (GJ_HUFF_LOOKUP_BITS - l);
                unsigned n = 1u << (GJ_HUFF_LOOKUP_BITS - l), j;
                for (j = 0; j < n; j++)
                    out->lookup[first + j] = (unsigned)l << 8 | spec->values[k];
            }
        }
        out->maxcode[l] = spec->bits[l] ? (int)code - 1 : -1;
        code <<= 1;
    }
    out->maxcode[17] = 0x7fffffff;    /* ends the canonical search after 16 bits */
    for (i = 0; i < spec->count; i++) {
        out->values[i] = spec->values[i];
        if (!is_ac && spec->values[i] > 15)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DHT: DC table holds category %d (15 at most)",
                           spec->values[i]);
    }
    return 0;
}
