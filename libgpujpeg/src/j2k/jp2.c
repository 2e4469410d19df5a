/*
 * JP2 boxes (T.800 Annex I): the signature, the header super box (ihdr, colr,
 * pclr, cmap, cdef, res) and the Contiguous Codestream box.
 */
#include <stdlib.h>
#include <string.h>

#include "j2k/jp2.h"
#include "log.h"
#include "gpujpeg/common.h"

#define BOX(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int j2k_is_jp2(const uint8_t *data, size_t size)
{
    static const uint8_t signature[12] = { 0, 0, 0, 12, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A };

    return size >= 12 && !memcmp(data, signature, 12);
}

/* One box: its type and contents. */
typedef struct box {
    uint32_t type;
    const uint8_t *body;
    size_t size;
} box;

/* A box that does not fit: said, or only returned where the caller reads on without it. */
#define BOX_FAIL(quiet, ...) ((quiet) ? GJ_ERROR_INVALIDDATA : gj_fail(GJ_ERROR_INVALIDDATA, __VA_ARGS__))

/* I.4: LBox, TBox and an optional XLBox; *pos stays where it was when the box does not fit. */
static int next_box(const uint8_t *data, size_t size, size_t *pos, box *b, int quiet)
{
    uint32_t *type = &b->type;
    uint64_t len;
    size_t header = 8;

    if (size - *pos < 8)
        return BOX_FAIL(quiet, "JP2: a box header is cut at byte %zu", *pos);
    len = rd32(data + *pos);
    *type = rd32(data + *pos + 4);
    if (len == 1) {
        if (size - *pos < 16)
            return BOX_FAIL(quiet, "JP2: an extended box length is cut at byte %zu", *pos);
        len = (uint64_t)rd32(data + *pos + 8) << 32 | rd32(data + *pos + 12);
        header = 16;
    } else if (len == 0) {
        len = size - *pos;      /* the last box runs to the end of the file */
    }
    /* A codestream box cut short is a truncated codestream: OpenJPEG decodes what is there. */
    if (*type == BOX('j', 'p', '2', 'c') && len > size - *pos && size - *pos >= header) {
        gj_log(GJ_LOG_WARNING, "JP2: the codestream box is cut short (%llu bytes declared, %zu left)",
               (unsigned long long)len, size - *pos);
        len = size - *pos;
    }
    if (len < header || len > size - *pos)
        return BOX_FAIL(quiet, "JP2: box '%c%c%c%c' has length %llu (%zu bytes left)",
                        (char)(*type >> 24), (char)(*type >> 16), (char)(*type >> 8), (char)*type,
                        (unsigned long long)len, size - *pos);
    b->body = data + *pos + header;
    b->size = (size_t)len - header;
    *pos += (size_t)len;
    return 0;
}

/* I.5.3.4: NE, NPC, the depth of each column, then the entries row by row. */
static int parse_palette(const uint8_t *b, size_t n, j2k_jp2 *jp2)
{
    size_t pos = 3, row = 0;
    int ne, npc;

    if (n < 3)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: pclr is %zu bytes", n);
    ne = b[0] << 8 | b[1];
    npc = b[2];
    if (ne < 1 || ne > J2K_JP2_MAX_ENTRIES || npc < 1)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: pclr with %d entries of %d columns", ne, npc);
    if (npc > J2K_JP2_MAX_CHANNELS)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: JP2: a palette of %d columns", npc);
    if (n < 3 + (size_t)npc)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: pclr is %zu bytes", n);
    for (int c = 0; c < npc; c++) {
        jp2->palette_depth[c] = (b[pos] & 0x7F) + 1;
        if (b[pos] & 0x80)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: JP2: signed palette column %d", c);
        if (jp2->palette_depth[c] > 16)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: JP2: %d-bit palette column", jp2->palette_depth[c]);
        row += jp2->palette_depth[c] > 8 ? 2 : 1;
        pos++;
    }
    if (n < pos + row * (size_t)ne)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: pclr is %zu bytes for %d entries", n, ne);
    free(jp2->palette);
    if (!(jp2->palette = malloc((size_t)ne * npc * sizeof(*jp2->palette))))
        return GJ_ERROR_NOMEM;
    for (int e = 0; e < ne; e++)
        for (int c = 0; c < npc; c++) {
            int wide = jp2->palette_depth[c] > 8;

            jp2->palette[e * npc + c] = (uint16_t)(wide ? b[pos] << 8 | b[pos + 1] : b[pos]);
            pos += wide ? 2 : 1;
        }
    jp2->palette_entries = ne;
    jp2->palette_columns = npc;
    return 0;
}

/* I.5.3.5: for each channel, CMP (2 bytes), MTYP and PCOL. */
static int parse_component_map(const uint8_t *b, size_t n, j2k_jp2 *jp2)
{
    int channels = (int)(n / 4);

    if (n % 4 || channels < 1)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: cmap is %zu bytes", n);
    if (channels > J2K_JP2_MAX_CHANNELS)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: JP2: cmap with %d channels", channels);
    for (int i = 0; i < channels; i++) {
        const uint8_t *m = b + 4 * i;

        jp2->channel_component[i] = m[0] << 8 | m[1];
        if (m[2] > 1)
            return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: cmap channel %d has mapping type %d", i, m[2]);
        jp2->channel_column[i] = m[2] == 1 ? m[3] : -1;
    }
    jp2->nb_channels = channels;
    return 0;
}

/* I.5.3.6: N (2 bytes), then for each definition Cn, Typ and Asoc (2 bytes each). */
static int parse_channel_definitions(const uint8_t *b, size_t n, j2k_jp2 *jp2)
{
    size_t count = n >= 2 ? (size_t)(b[0] << 8 | b[1]) : 0;

    if (n < 2 || n < 2 + 6 * count)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: cdef is %zu bytes", n);
    jp2->has_cdef = 1;
    for (int i = 0; i < J2K_JP2_MAX_CHANNELS; i++)
        jp2->channel_association[i] = -1;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *d = b + 2 + 6 * i;
        int channel = d[0] << 8 | d[1], asoc = d[4] << 8 | d[5];

        if (channel < J2K_JP2_MAX_CHANNELS && asoc != 0xFFFF)
            jp2->channel_association[channel] = asoc;
    }
    return 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;

        a = b;
        b = t;
    }
    return a;
}

/*
 * I.5.3.7: the Resolution box's first box, resc or resd: VRN, VRD, HRN, HRD (2 bytes
 * each), VRE, HRE (signed bytes), grid points a metre VRN / VRD * 10^VRE vertically
 * and HRN / HRD * 10^HRE horizontally. Their ratio, vertical over horizontal, is the
 * samples' aspect ratio, as FFmpeg's native decoder reads it. Like that decoder, a
 * box it cannot read (a zero term, or a ratio past 32-bit terms) is a warning and
 * leaves the ratio unknown; the picture still decodes.
 */
static void parse_resolution(const uint8_t *b, size_t n, j2k_jp2 *jp2)
{
    uint32_t type;
    uint64_t num, den, g;
    int e;

    if (n < 18)
        return;
    type = rd32(b + 4);
    if (type != BOX('r', 'e', 's', 'c') && type != BOX('r', 'e', 's', 'd'))
        return;
    b += 8;
    num = (uint64_t)(b[0] << 8 | b[1]) * (uint64_t)(b[6] << 8 | b[7]);     /* VRN * HRD */
    den = (uint64_t)(b[4] << 8 | b[5]) * (uint64_t)(b[2] << 8 | b[3]);     /* HRN * VRD */
    e = (int8_t)b[8] - (int8_t)b[9];
    if (!num || !den || e > 9 || e < -9) {
        gj_log(GJ_LOG_WARNING, "JP2: res box not read (a zero term, or 10^%d)", e);
        return;
    }
    for (; e > 0; e--)
        num *= 10;
    for (; e < 0; e++)
        den *= 10;
    g = gcd64(num, den);
    num /= g;
    den /= g;
    if (num > INT32_MAX || den > INT32_MAX) {
        gj_log(GJ_LOG_WARNING, "JP2: res box's aspect ratio %llu:%llu not kept",
               (unsigned long long)num, (unsigned long long)den);
        return;
    }
    jp2->sar_num = (int)num;
    jp2->sar_den = (int)den;
}

/* One box of the JP2 Header box (I.5.3) but ihdr. */
static int parse_header_child(const box *bx, j2k_jp2 *jp2)
{
    const uint8_t *b = bx->body;
    size_t n = bx->size;

    switch (bx->type) {
    case BOX('c', 'o', 'l', 'r'):
        /* Only the first colr counts (I.5.3.3); one of another METH than 1 or 2 (JPX's
         * any ICC, vendor methods) is ignored whole (Table I.9), so that a later one
         * counts, as OpenJPEG reads them. */
        if (n < 3)
            return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: colr is %zu bytes", n);
        if (!jp2->colour_method && (b[0] == 1 || b[0] == 2)) {
            jp2->colour_method = b[0];
            if (b[0] == 1 && n >= 7)
                jp2->enum_cs = (int)rd32(b + 3);
            if (b[0] == 2 && n > 3) {
                jp2->icc = b + 3;
                jp2->icc_size = n - 3;
            }
        }
        return 0;
    case BOX('p', 'c', 'l', 'r'):
        return parse_palette(b, n, jp2);
    case BOX('c', 'm', 'a', 'p'):
        return parse_component_map(b, n, jp2);
    case BOX('c', 'd', 'e', 'f'):
        return parse_channel_definitions(b, n, jp2);
    case BOX('r', 'e', 's', ' '):
        if (!jp2->sar_num)
            parse_resolution(b, n, jp2);
        return 0;
    default:
        return 0;       /* uuid, ... */
    }
}

/* I.5.3: the JP2 Header box's contents. */
static int parse_header_box(const uint8_t *data, size_t size, j2k_jp2 *jp2)
{
    size_t pos = 0;
    int seen_ihdr = 0, ret;

    while (pos < size) {
        box bx;

        /* Past ihdr, a box whose length runs out of jp2h (bits lost in an archive) ends
         * what is read of it, as FFmpeg's decoder reads it (OpenJPEG refuses the file). */
        if ((ret = next_box(data, size, &pos, &bx, seen_ihdr)) < 0) {
            if (!seen_ihdr)
                return ret;
            gj_log(GJ_LOG_WARNING, "JP2: a damaged box length at byte %zu of jp2h: the rest of jp2h not read", pos);
            break;
        }
        if (bx.type == BOX('i', 'h', 'd', 'r')) {
            if (bx.size < 14)
                return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: ihdr is %zu bytes", bx.size);
            jp2->height = rd32(bx.body);
            jp2->width = rd32(bx.body + 4);
            jp2->nb_comps = bx.body[8] << 8 | bx.body[9];
            jp2->bpc = bx.body[10];
            seen_ihdr = 1;
        } else if ((ret = parse_header_child(&bx, jp2)) < 0) {
            return ret;
        }
    }
    if (!seen_ihdr)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: jp2h has no ihdr box");
    return 0;
}

/*
 * A box of the header's kinds after the JP2 Header box, outside it (a writer's
 * mistake: OpenJPEG reads such a box as if inside): read where jp2h gave none of
 * its kind.
 */
static int parse_misplaced_box(const box *bx, j2k_jp2 *jp2)
{
    int given;

    switch (bx->type) {
    case BOX('c', 'o', 'l', 'r'): given = jp2->colour_method != 0; break;
    case BOX('p', 'c', 'l', 'r'): given = jp2->palette_entries != 0; break;
    case BOX('c', 'm', 'a', 'p'): given = jp2->nb_channels != 0; break;
    case BOX('c', 'd', 'e', 'f'): given = jp2->has_cdef; break;
    default: return 0;
    }
    if (given)
        return 0;
    gj_log(GJ_LOG_WARNING, "JP2: a %c%c%c%c box after jp2h, outside it: read as if inside",
           (char)(bx->type >> 24), (char)(bx->type >> 16), (char)(bx->type >> 8), (char)bx->type);
    return parse_header_child(bx, jp2);
}

/*
 * A palette on a picture of one component whose channels the file does not all map
 * through it, mapped as the readers users compare with map it (component 0 through
 * palette column i as channel i, I.5.3.5's usual map), with a warning:
 *  - no cmap (I.5.3.4 requires one): as FFmpeg's decoder (OpenJPEG drops the palette);
 *  - a cmap of a channel per column that takes column i as channel i or takes the
 *    component directly, some column unused (the files of OpenJPEG's issues 235 and
 *    447): as OpenJPEG.
 */
static void complete_component_map(j2k_jp2 *jp2)
{
    int direct = 0;

    if (!jp2->palette_entries || jp2->nb_comps != 1)
        return;
    if (jp2->nb_channels) {
        if (jp2->nb_channels != jp2->palette_columns)
            return;
        for (int i = 0; i < jp2->nb_channels; i++) {
            if (jp2->channel_component[i] != 0 || (jp2->channel_column[i] >= 0 && jp2->channel_column[i] != i))
                return;
            direct += jp2->channel_column[i] < 0;
        }
        if (!direct)
            return;
        gj_log(GJ_LOG_WARNING, "JP2: cmap leaves palette columns unused: channel i through column i");
    } else {
        gj_log(GJ_LOG_WARNING, "JP2: pclr without cmap: channel i through palette column i");
    }
    jp2->nb_channels = jp2->palette_columns;
    for (int i = 0; i < jp2->nb_channels; i++) {
        jp2->channel_component[i] = 0;
        jp2->channel_column[i] = i;
    }
}

static int parse_boxes(const uint8_t *data, size_t size, j2k_jp2 *jp2)
{
    size_t pos = 12;
    int seen_header = 0, ret;

    if (!j2k_is_jp2(data, size))
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: no signature box");
    while (pos < size) {
        box b;

        if ((ret = next_box(data, size, &pos, &b, 0)) < 0)
            return ret;
        if (b.type == BOX('j', 'p', '2', 'h')) {
            if ((ret = parse_header_box(b.body, b.size, jp2)) < 0)
                return ret;
            seen_header = 1;
        } else if (b.type == BOX('j', 'p', '2', 'c')) {
            if (!seen_header)
                return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: jp2c comes before jp2h");
            jp2->codestream = b.body;
            jp2->codestream_size = b.size;
            break;
        } else if (seen_header && (ret = parse_misplaced_box(&b, jp2)) < 0) {
            return ret;
        }
    }
    if (!jp2->codestream)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: no jp2c (codestream) box");
    complete_component_map(jp2);
    if (jp2->palette_entries && !jp2->nb_channels)
        return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: pclr without cmap");
    for (int i = 0; i < jp2->nb_channels; i++)
        if (jp2->channel_column[i] >= (jp2->palette_entries ? jp2->palette_columns : 0))
            return gj_fail(GJ_ERROR_INVALIDDATA, "JP2: cmap channel %d names palette column %d of %d", i,
                           jp2->channel_column[i], jp2->palette_columns);
    return 0;
}

int j2k_parse_jp2(const uint8_t *data, size_t size, j2k_jp2 *jp2)
{
    int ret;

    memset(jp2, 0, sizeof(*jp2));
    if ((ret = parse_boxes(data, size, jp2)) < 0)
        j2k_jp2_free(jp2);
    return ret;
}

void j2k_jp2_free(j2k_jp2 *jp2)
{
    free(jp2->palette);
    memset(jp2, 0, sizeof(*jp2));
}
