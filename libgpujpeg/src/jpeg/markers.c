/* JPEG marker reader (T.81 Annex B, JFIF, Adobe APP14), following libjpeg's rules. */
#include <stdlib.h>
#include <string.h>

#include "jpeg/huffman_tables.h"
#include "jpeg/markers.h"
#include "kernels/jpeg_params.h"
#include "log.h"

enum {
    M_SOF0 = 0xC0, M_SOF1 = 0xC1, M_SOF2 = 0xC2, M_SOF3 = 0xC3, M_DHT = 0xC4,
    M_SOF5 = 0xC5, M_SOF15 = 0xCF, M_JPG = 0xC8, M_DAC = 0xCC,
    M_RST0 = 0xD0, M_RST7 = 0xD7, M_SOI = 0xD8, M_EOI = 0xD9, M_SOS = 0xDA,
    M_DQT = 0xDB, M_DNL = 0xDC, M_DRI = 0xDD, M_DHP = 0xDE, M_EXP = 0xDF,
    M_APP0 = 0xE0, M_APP14 = 0xEE, M_APP15 = 0xEF, M_COM = 0xFE,
};

typedef struct parser {
    const uint8_t *data;
    size_t size;
    size_t pos;
    gj_jpeg_stream *s;
    uint16_t quant[4][64];
    int quant_defined[4];
    gj_huffman_spec huff[2][4];     /* [class: 0 DC, 1 AC][id] */
    int huff_defined[2][4];
    int restart_interval;
    int saw_sof;
    gj_jpeg_scan_walker walk;       /* NULL: entropy_end() */
    gj_jpeg_scan_ready ready;       /* NULL: none */
    void *walk_opaque;
} parser;

static const uint8_t natural_order[80] = GJ_JPEG_NATURAL_ORDER_INIT;

static int read_u16(const parser *p, size_t at)
{
    return (p->data[at] << 8) | p->data[at + 1];
}

/* Finds the next marker, tolerating fill bytes and (with a warning) garbage, as libjpeg does. */
static int next_marker(parser *p, int *marker)
{
    size_t skipped = 0;

    for (;;) {
        while (p->pos < p->size && p->data[p->pos] != 0xFF) {
            p->pos++;
            skipped++;
        }
        while (p->pos < p->size && p->data[p->pos] == 0xFF)
            p->pos++;
        if (p->pos >= p->size)
            return GJ_ERROR_INVALIDDATA;
        if (p->data[p->pos] != 0x00)
            break;
        skipped += 2;   /* a stuffed 0xFF00 outside a scan is garbage too */
        p->pos++;
    }
    if (skipped) {
        gj_log(GJ_LOG_WARNING, "corrupt JPEG data: %zu extraneous bytes before marker 0x%02x",
               skipped, p->data[p->pos]);
        p->s->warnings++;
    }
    *marker = p->data[p->pos++];
    return 0;
}

/* Reads a marker segment's length and returns its payload bounds. */
static int segment_bounds(parser *p, int marker, size_t *payload, size_t *len)
{
    int length;

    if (p->pos + 2 > p->size)
        return gj_fail(GJ_ERROR_INVALIDDATA, "marker 0x%02x: file ends inside the segment length", marker);
    length = read_u16(p, p->pos);
    if (length < 2 || p->pos + length > p->size)
        return gj_fail(GJ_ERROR_INVALIDDATA, "marker 0x%02x: segment length %d runs past the end of the file",
                       marker, length);
    *payload = p->pos + 2;
    *len = (size_t)length - 2;
    p->pos += length;
    return 0;
}

static int unsupported_sof(int marker)
{
    const char *what;

    if (marker == M_SOF2)
        what = "progressive JPEG (SOF2)";
    else if (marker == M_SOF3)
        what = "lossless JPEG (SOF3)";
    else if (marker >= M_SOF5 && marker <= 0xC7)
        what = "hierarchical (differential) JPEG";
    else if (marker == M_DHP || marker == M_EXP)
        what = "hierarchical JPEG (DHP/EXP marker)";
    else if (marker == M_DAC || (marker >= 0xC9 && marker <= M_SOF15))
        what = "arithmetic-coded JPEG";
    else
        what = "reserved SOF marker";
    return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %s (marker 0x%02x)", what, marker);
}

static void set_component_geometry(gj_jpeg_stream *s)
{
    int i;

    s->hmax = s->vmax = 1;
    for (i = 0; i < s->num_components; i++) {
        if (s->comp[i].h > s->hmax)
            s->hmax = s->comp[i].h;
        if (s->comp[i].v > s->vmax)
            s->vmax = s->comp[i].v;
    }
    s->mcus_x = (s->width + 8 * s->hmax - 1) / (8 * s->hmax);
    s->mcus_y = (s->height + 8 * s->vmax - 1) / (8 * s->vmax);
    for (i = 0; i < s->num_components; i++) {
        gj_jpeg_component *c = &s->comp[i];
        /* T.81 A.1.1: x_i = ceil(X * H_i / Hmax) */
        c->width = (int)(((long long)s->width * c->h + s->hmax - 1) / s->hmax);
        c->height = (int)(((long long)s->height * c->v + s->vmax - 1) / s->vmax);
        c->blocks_w = s->mcus_x * c->h;
        c->blocks_h = s->mcus_y * c->v;
    }
}

static int parse_sof(parser *p, int marker, size_t at, size_t len)
{
    gj_jpeg_stream *s = p->s;
    int precision, i, j;

    if (p->saw_sof)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: a second frame header", marker - M_SOF0);
    p->saw_sof = 1;
    if (len < 6)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: segment too short (%zu bytes)", marker - M_SOF0, len);
    precision = p->data[at];
    s->height = read_u16(p, at + 1);
    s->width = read_u16(p, at + 3);
    s->num_components = p->data[at + 5];
    if (precision != 8)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %d-bit sample precision (SOF%d); only 8-bit JPEG is supported",
                       precision, marker - M_SOF0);
    if (s->height == 0)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: image height 0 in SOF%d (height given by a DNL marker)",
                       marker - M_SOF0);
    if (s->width == 0)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: image width is 0", marker - M_SOF0);
    if (s->num_components != 1 && s->num_components != 3 && s->num_components != 4)
        return gj_fail(s->num_components == 0 ? GJ_ERROR_INVALIDDATA : GJ_ERROR_UNSUPPORTED,
                       "%s: %d components in SOF%d (1, 3 or 4 supported)",
                       s->num_components == 0 ? "invalid" : "unsupported", s->num_components, marker - M_SOF0);
    if (len != 6 + 3 * (size_t)s->num_components)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: length %zu does not match %d components",
                       marker - M_SOF0, len + 2, s->num_components);
    for (i = 0; i < s->num_components; i++) {
        gj_jpeg_component *c = &s->comp[i];
        const uint8_t *b = p->data + at + 6 + 3 * i;

        c->id = b[0];
        c->h = b[1] >> 4;
        c->v = b[1] & 15;
        c->quant_index = b[2];
        if (c->h < 1 || c->h > 4 || c->v < 1 || c->v > 4)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: component %d has sampling factor %dx%d (1..4 allowed)",
                           marker - M_SOF0, c->id, c->h, c->v);
        if (c->quant_index > 3)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: component %d uses quantization table %d (0..3 allowed)",
                           marker - M_SOF0, c->id, c->quant_index);
        for (j = 0; j < i; j++)
            if (s->comp[j].id == c->id)
                return gj_fail(GJ_ERROR_INVALIDDATA, "SOF%d: component id %d appears twice",
                               marker - M_SOF0, c->id);
    }
    set_component_geometry(s);
    return 0;
}

static int parse_dqt(parser *p, size_t at, size_t len)
{
    size_t end = at + len;

    while (at < end) {
        int pq = p->data[at] >> 4, tq = p->data[at] & 15, k;
        size_t need = 1 + 64 * (size_t)(pq ? 2 : 1);

        if (pq > 1 || tq > 3)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DQT: bad table precision %d or id %d", pq, tq);
        if (at + need > end)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DQT: table %d is cut short", tq);
        for (k = 0; k < 64; k++)
            p->quant[tq][natural_order[k]] = pq ? (uint16_t)read_u16(p, at + 1 + 2 * k)
                                                : p->data[at + 1 + k];
        p->quant_defined[tq] = 1;
        at += need;
    }
    return 0;
}

static int parse_dht(parser *p, size_t at, size_t len)
{
    size_t end = at + len;

    while (at < end) {
        int tc, th, l, count = 0;
        gj_huffman_spec *spec;

        if (at + 17 > end)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DHT: table header cut short");
        tc = p->data[at] >> 4;
        th = p->data[at] & 15;
        if (tc > 1 || th > 3)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DHT: bad table class %d or id %d", tc, th);
        spec = &p->huff[tc][th];
        spec->bits[0] = 0;
        for (l = 1; l <= 16; l++) {
            spec->bits[l] = p->data[at + l];
            count += spec->bits[l];
        }
        if (count > 256 || at + 17 + count > end)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DHT: %s table %d declares %d codes, more than %s",
                           tc ? "AC" : "DC", th, count, count > 256 ? "256" : "the segment holds");
        memcpy(spec->values, p->data + at + 17, count);
        spec->count = count;
        p->huff_defined[tc][th] = 1;
        at += 17 + count;
    }
    return 0;
}

static void parse_app(parser *p, int marker, size_t at, size_t len)
{
    const uint8_t *b = p->data + at;

    if (marker == M_APP0 && len >= 5 && !memcmp(b, "JFIF\0", 5))
        p->s->saw_jfif = 1;
    if (marker == M_APP14 && len >= 12 && !memcmp(b, "Adobe", 5)) {
        p->s->saw_adobe = 1;
        p->s->adobe_transform = b[11];
    }
}

/* Finds the end of the entropy-coded data: the first marker other than RSTn. */
static size_t entropy_end(const parser *p, size_t at)
{
    const uint8_t *d = p->data;

    for (;;) {
        const uint8_t *ff = memchr(d + at, 0xFF, p->size - at);

        if (!ff || (size_t)(ff - d) + 1 >= p->size)
            return p->size;
        at = (size_t)(ff - d);
        if (gj_jpeg_ends_scan(d[at + 1]))
            return at;
        at += 2;
    }
}

static int latch_scan_tables(parser *p, gj_jpeg_scan *scan, int i, int td, int ta)
{
    gj_jpeg_component *c = &p->s->comp[scan->comp[i]];
    int ret;

    if (!p->quant_defined[c->quant_index])
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: quantization table %d of component %d was not defined",
                       c->quant_index, c->id);
    memcpy(c->quant, p->quant[c->quant_index], sizeof(c->quant));
    c->quant_latched = 1;
    ret = gj_huffman_spec_or_default(&scan->dc[i], p->huff_defined[0][td] ? &p->huff[0][td] : NULL, 0, td);
    if (ret < 0)
        return ret;
    return gj_huffman_spec_or_default(&scan->ac[i], p->huff_defined[1][ta] ? &p->huff[1][ta] : NULL, 1, ta);
}

static int set_scan_geometry(gj_jpeg_stream *s, gj_jpeg_scan *scan)
{
    int i;

    if (scan->num_components == 1) {
        const gj_jpeg_component *c = &s->comp[scan->comp[0]];
        scan->mcus_x = (c->width + 7) / 8;
        scan->mcus_y = (c->height + 7) / 8;
        scan->blocks_in_mcu = 1;
        return 0;
    }
    scan->mcus_x = s->mcus_x;
    scan->mcus_y = s->mcus_y;
    scan->blocks_in_mcu = 0;
    for (i = 0; i < scan->num_components; i++)
        scan->blocks_in_mcu += s->comp[scan->comp[i]].h * s->comp[scan->comp[i]].v;
    if (scan->blocks_in_mcu > GJ_JPEG_MAX_BLOCKS_IN_MCU)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: sampling factors too large for an interleaved scan "
                       "(%d blocks per MCU, 10 allowed)", scan->blocks_in_mcu);
    return 0;
}

static int parse_sos(parser *p, size_t at, size_t len)
{
    gj_jpeg_stream *s = p->s;
    gj_jpeg_scan *scan;
    int ns, i, j, ret, ss, se, ahal;

    if (!p->saw_sof)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOS before any SOF marker");
    if (s->num_scans >= GJ_JPEG_MAX_SCANS)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: more than %d scans in a sequential JPEG", GJ_JPEG_MAX_SCANS);
    ns = len ? p->data[at] : 0;
    if (ns < 1 || ns > s->num_components || len != 4 + 2 * (size_t)ns)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: bad component count %d or length %zu", ns, len + 2);
    scan = &s->scans[s->num_scans];
    memset(scan, 0, sizeof(*scan));
    scan->num_components = ns;
    for (i = 0; i < ns; i++) {
        int cid = p->data[at + 1 + 2 * i], td = p->data[at + 2 + 2 * i] >> 4, ta = p->data[at + 2 + 2 * i] & 15;

        for (j = 0; j < s->num_components && s->comp[j].id != cid; j++)
            ;
        if (j == s->num_components)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: component id %d is not in the frame", cid);
        if (s->comp[j].scanned)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: component %d is coded in more than one scan", cid);
        if (td > 3 || ta > 3)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SOS: component %d uses Huffman table DC%d/AC%d (0..3 allowed)",
                           cid, td, ta);
        s->comp[j].scanned = 1;
        scan->comp[i] = j;
        ret = latch_scan_tables(p, scan, i, td, ta);
        if (ret < 0)
            return ret;
    }
    ss = p->data[at + 1 + 2 * ns];
    se = p->data[at + 2 + 2 * ns];
    ahal = p->data[at + 3 + 2 * ns];
    if (ss != 0 || se != 63 || ahal != 0) {
        gj_log(GJ_LOG_WARNING, "SOS: Ss=%d Se=%d Ah/Al=0x%02x are not those of a sequential scan; ignored",
               ss, se, ahal);
        s->warnings++;
    }
    scan->restart_interval = p->restart_interval;
    s->num_scans++;
    return set_scan_geometry(s, scan);
}

static void set_color_space(gj_jpeg_stream *s)
{
    const gj_jpeg_component *c = s->comp;

    if (s->num_components == 1) {
        s->color_space = GJ_JPEG_CS_GRAY;
    } else if (s->num_components == 3) {
        /* libjpeg's rules: JFIF wins, then Adobe's transform, then the component ids. */
        if (s->saw_jfif)
            s->color_space = GJ_JPEG_CS_YCBCR;
        else if (s->saw_adobe)
            s->color_space = s->adobe_transform == 0 ? GJ_JPEG_CS_RGB : GJ_JPEG_CS_YCBCR;
        else if (c[0].id == 'R' && c[1].id == 'G' && c[2].id == 'B')
            s->color_space = GJ_JPEG_CS_RGB;
        else
            s->color_space = GJ_JPEG_CS_YCBCR;
    } else {
        if (s->saw_adobe)
            s->color_space = s->adobe_transform == 0 ? GJ_JPEG_CS_CMYK : GJ_JPEG_CS_YCCK;
        else
            s->color_space = GJ_JPEG_CS_CMYK;
    }
}

/* Records the scan's entropy-coded bytes and moves past them. */
static int locate_scan_data(parser *p)
{
    gj_jpeg_scan *scan = &p->s->scans[p->s->num_scans - 1];
    size_t end;
    int ret;

    if (!p->walk)
        end = entropy_end(p, p->pos);
    else if ((ret = p->walk(p->walk_opaque, p->s->num_scans - 1, p->data, p->pos, p->size, &end)) < 0)
        return ret;

    scan->data_offset = p->pos;
    scan->data_size = end - p->pos;
    scan->truncated = end == p->size;
    p->pos = end;
    if (scan->data_size > GJ_JPEG_MAX_SCAN_BYTES)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: scan %d holds more than 512 MiB of entropy data",
                       p->s->num_scans - 1);
    return p->ready ? p->ready(p->walk_opaque, p->s->num_scans - 1) : 0;
}

static int handle_marker(parser *p, int marker, int headers_only, int *stop)
{
    size_t at = 0, len = 0;
    int ret;

    if (marker == M_EOI) {
        p->s->saw_eoi = 1;
        *stop = 1;
        return 0;
    }
    if (marker == M_SOI)
        return gj_fail(GJ_ERROR_INVALIDDATA, "a second SOI marker");
    if (marker >= M_RST0 && marker <= M_RST7) {
        gj_log(GJ_LOG_WARNING, "corrupt JPEG data: RST%d marker outside a scan", marker - M_RST0);
        p->s->warnings++;
        return 0;
    }
    if ((marker >= M_SOF2 && marker <= M_SOF15 && marker != M_DHT && marker != M_DAC) || marker == M_DHP ||
        marker == M_EXP || marker == M_DAC)
        return unsupported_sof(marker);
    ret = segment_bounds(p, marker, &at, &len);
    if (ret < 0)
        return ret;
    switch (marker) {
    case M_SOF0:
    case M_SOF1:
        return parse_sof(p, marker, at, len);
    case M_DQT:
        return parse_dqt(p, at, len);
    case M_DHT:
        return parse_dht(p, at, len);
    case M_DRI:
        if (len != 2)
            return gj_fail(GJ_ERROR_INVALIDDATA, "DRI: length %zu (4 expected)", len + 2);
        p->restart_interval = read_u16(p, at);
        return 0;
    case M_DNL:
        return 0;   /* only meaningful with height 0, which SOF already refused */
    case M_SOS:
        ret = parse_sos(p, at, len);
        if (ret < 0)
            return ret;
        /* Known from the first scan on, as libjpeg's jpeg_read_header() decides it:
         * the decoder picks the output's format before it queues that scan. */
        if (p->s->num_scans == 1)
            set_color_space(p->s);
        if (headers_only) {
            *stop = 1;
            return 0;
        }
        return locate_scan_data(p);
    default:
        if (marker >= M_APP0 && marker <= M_APP15)
            parse_app(p, marker, at, len);
        return 0;   /* COM and other APPn: skipped */
    }
}

static int parse(const uint8_t *data, size_t size, int headers_only, gj_jpeg_stream *s,
                 gj_jpeg_scan_walker walk, gj_jpeg_scan_ready ready, void *opaque)
{
    parser p;
    int ret, marker, stop = 0;

    memset(s, 0, sizeof(*s));
    memset(&p, 0, sizeof(p));
    p.data = data;
    p.size = size;
    p.s = s;
    p.walk = walk;
    p.ready = ready;
    p.walk_opaque = opaque;
    if (!data || size < 2 || data[0] != 0xFF || data[1] != M_SOI)
        return gj_fail(GJ_ERROR_INVALIDDATA, "not a JPEG file (no SOI marker)");
    p.pos = 2;
    while (!stop) {
        ret = next_marker(&p, &marker);
        if (ret < 0) {
            if (s->num_scans && !headers_only)
                break;      /* the file ended after a scan: decode what is there */
            return gj_fail(GJ_ERROR_INVALIDDATA, "file ends before the first scan (%s)",
                           p.saw_sof ? "no SOS marker" : "no SOF marker");
        }
        ret = handle_marker(&p, marker, headers_only, &stop);
        if (ret < 0)
            return ret;
    }
    if (!s->num_scans)
        return gj_fail(GJ_ERROR_INVALIDDATA, "no scan in the file");
    return 0;
}

int gj_jpeg_parse(const uint8_t *data, size_t size, int headers_only, gj_jpeg_stream *s)
{
    return parse(data, size, headers_only, s, NULL, NULL, NULL);
}

int gj_jpeg_parse_walking(const uint8_t *data, size_t size, gj_jpeg_stream *s, gj_jpeg_scan_walker walk,
                          gj_jpeg_scan_ready ready, void *opaque)
{
    return parse(data, size, 0, s, walk, ready, opaque);
}

enum gj_pixel_format gj_jpeg_native_format(const gj_jpeg_stream *s)
{
    const gj_jpeg_component *c = s->comp;

    if (s->num_components == 1)
        return GJ_PIX_FMT_GRAY8;
    if (s->num_components != 3 || c[1].h != c[2].h || c[1].v != c[2].v)
        return GJ_PIX_FMT_NONE;
    if (s->color_space == GJ_JPEG_CS_RGB)
        return c[0].h == c[1].h && c[0].v == c[1].v ? GJ_PIX_FMT_GBRP : GJ_PIX_FMT_NONE;
    if (c[1].h != 1 || c[1].v != 1) {
        /* Chroma factors other than 1 map only when they divide luma's (e.g. 2x2,2x2,2x2). */
        if (c[0].h % c[1].h || c[0].v % c[1].v)
            return GJ_PIX_FMT_NONE;
    }
    switch ((c[0].h / c[1].h) * 10 + c[0].v / c[1].v) {
    case 11: return GJ_PIX_FMT_YUVJ444P;
    case 21: return GJ_PIX_FMT_YUVJ422P;
    case 22: return GJ_PIX_FMT_YUVJ420P;
    case 12: return GJ_PIX_FMT_YUVJ440P;
    case 41: return GJ_PIX_FMT_YUVJ411P;
    default: return GJ_PIX_FMT_NONE;
    }
}

int gj_jpeg_read_info(const uint8_t *data, size_t size, gj_jpeg_info *info)
{
    gj_jpeg_stream *s;
    int ret, i;

    if (!info)
        return GJ_ERROR_INVAL;
    s = malloc(sizeof(*s));
    if (!s)
        return GJ_ERROR_NOMEM;
    ret = gj_jpeg_parse(data, size, 1, s);
    if (ret >= 0) {
        memset(info, 0, sizeof(*info));
        info->width = s->width;
        info->height = s->height;
        info->num_components = s->num_components;
        info->color_space = s->color_space;
        for (i = 0; i < s->num_components; i++) {
            info->h_samp[i] = s->comp[i].h;
            info->v_samp[i] = s->comp[i].v;
        }
        info->restart_interval = s->scans[0].restart_interval;
        info->num_scans = s->num_scans;
        info->native_format = gj_jpeg_native_format(s);
    }
    free(s);
    return ret;
}
