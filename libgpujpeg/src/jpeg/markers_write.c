/* JPEG marker writer (T.81 B.2, JFIF 1.01; libjpeg jcmarker.c order). */
#include "jpeg/markers_write.h"
#include "kernels/jpeg_params.h"

enum {
    M_SOF0 = 0xc0, M_SOF1 = 0xc1, M_DHT = 0xc4, M_SOI = 0xd8, M_EOI = 0xd9, M_SOS = 0xda, M_DQT = 0xdb,
    M_DRI = 0xdd, M_APP0 = 0xe0,
};

static const uint8_t natural_order[80] = GJ_JPEG_NATURAL_ORDER_INIT;

static uint8_t *put_u8(uint8_t *p, unsigned v)
{
    *p++ = (uint8_t)v;
    return p;
}

static uint8_t *put_u16(uint8_t *p, unsigned v)
{
    p = put_u8(p, v >> 8);
    return put_u8(p, v & 0xff);
}

/* A marker and its segment length (B.1.1.4: the length counts itself, not the marker). */
static uint8_t *put_marker(uint8_t *p, int marker, unsigned payload)
{
    p = put_u8(p, 0xff);
    p = put_u8(p, (unsigned)marker);
    return payload ? put_u16(p, payload + 2) : p;
}

/* JFIF APP0: version 1.01, no density unit, aspect 1:1, no thumbnail. */
static uint8_t *put_jfif(uint8_t *p)
{
    static const uint8_t jfif[14] = { 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0 };
    int i;

    p = put_marker(p, M_APP0, sizeof(jfif));
    for (i = 0; i < (int)sizeof(jfif); i++)
        p = put_u8(p, jfif[i]);
    return p;
}

/* Whether a table needs 16-bit values (Pq = 1, not allowed in baseline files). */
static int needs_16_bits(const uint16_t *table)
{
    int k;

    for (k = 0; k < 64; k++)
        if (table[k] > 255)
            return 1;
    return 0;
}

/* B.2.4.1: one table in zig-zag order, 8-bit values where they fit (as libjpeg). */
static uint8_t *put_dqt(uint8_t *p, int id, const uint16_t *table)
{
    int wide = needs_16_bits(table), k;

    p = put_marker(p, M_DQT, 1 + 64 * (1 + (unsigned)wide));
    p = put_u8(p, (unsigned)(wide << 4 | id));
    for (k = 0; k < 64; k++)
        p = wide ? put_u16(p, table[natural_order[k]]) : put_u8(p, table[natural_order[k]]);
    return p;
}

/* B.2.4.2: one table. */
static uint8_t *put_dht(uint8_t *p, int is_ac, int id, const gj_huffman_spec *spec)
{
    int i;

    p = put_marker(p, M_DHT, 1 + 16 + (unsigned)spec->count);
    p = put_u8(p, (unsigned)(is_ac << 4 | id));
    for (i = 1; i <= 16; i++)
        p = put_u8(p, spec->bits[i]);
    for (i = 0; i < spec->count; i++)
        p = put_u8(p, spec->values[i]);
    return p;
}

size_t gj_jpeg_write_headers(uint8_t *dst, const gj_jpeg_header *h)
{
    int tables = h->num_components > 1 ? 2 : 1, extended = 0, c, t;
    uint8_t *p = dst;

    p = put_marker(p, M_SOI, 0);
    p = put_jfif(p);
    for (t = 0; t < tables; t++) {
        p = put_dqt(p, t, h->quant[t]);
        extended |= needs_16_bits(h->quant[t]);
    }
    /* B.2.2: a baseline frame, extended sequential for 16-bit tables (Table B.5);
     * component ids 1, 2, 3 as libjpeg numbers them. */
    p = put_marker(p, extended ? M_SOF1 : M_SOF0, 6 + 3 * (unsigned)h->num_components);
    p = put_u8(p, 8);
    p = put_u16(p, (unsigned)h->height);
    p = put_u16(p, (unsigned)h->width);
    p = put_u8(p, (unsigned)h->num_components);
    for (c = 0; c < h->num_components; c++) {
        p = put_u8(p, (unsigned)c + 1);
        p = put_u8(p, (unsigned)(h->h[c] << 4 | h->v[c]));
        p = put_u8(p, c ? 1 : 0);
    }
    for (t = 0; t < tables; t++) {
        p = put_dht(p, 0, t, h->dc[t]);
        p = put_dht(p, 1, t, h->ac[t]);
    }
    if (h->restart_interval) {
        p = put_marker(p, M_DRI, 2);
        p = put_u16(p, (unsigned)h->restart_interval);
    }
    /* B.2.3: one interleaved scan of every component, full spectrum. */
    p = put_marker(p, M_SOS, 1 + 2 * (unsigned)h->num_components + 3);
    p = put_u8(p, (unsigned)h->num_components);
    for (c = 0; c < h->num_components; c++) {
        p = put_u8(p, (unsigned)c + 1);
        p = put_u8(p, c ? 0x11 : 0x00);
    }
    p = put_u8(p, 0);
    p = put_u8(p, 63);
    p = put_u8(p, 0);
    return (size_t)(p - dst);
}

void gj_jpeg_write_trailer(uint8_t *dst)
{
    put_marker(dst, M_EOI, 0);
}
