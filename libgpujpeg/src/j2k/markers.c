/*
 * JPEG 2000 codestream markers (T.800 Annex A): the main header, tile-part
 * headers and the tile-part bodies they announce. Index-only segments (TLM, PLM,
 * PLT, CRG) are skipped; HTJ2K and Part-2 features are refused as unsupported.
 */
#include <stdlib.h>
#include <string.h>

#include "j2k/codestream.h"
#include "log.h"
#include "gpujpeg/common.h"

enum {
    M_SOC = 0xFF4F, M_CAP = 0xFF50, M_SIZ = 0xFF51, M_COD = 0xFF52, M_COC = 0xFF53,
    M_TLM = 0xFF55, M_PLM = 0xFF57, M_PLT = 0xFF58, M_CPF = 0xFF59, M_QCD = 0xFF5C,
    M_QCC = 0xFF5D, M_RGN = 0xFF5E, M_POC = 0xFF5F, M_PPM = 0xFF60, M_PPT = 0xFF61,
    M_CRG = 0xFF63, M_COM = 0xFF64, M_SOT = 0xFF90, M_SOD = 0xFF93, M_EOC = 0xFFD9,
};

/* A marker segment's parameters, read with bounds checks. */
typedef struct reader {
    const uint8_t *p;
    size_t size, pos;
    const char *marker;         /* for messages */
} reader;

static int need(reader *r, size_t n)
{
    if (r->size - r->pos < n)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: segment too short", r->marker);
    return 0;
}

static unsigned u8(reader *r)
{
    return r->p[r->pos++];
}

static unsigned u16(reader *r)
{
    unsigned v = (unsigned)r->p[r->pos] << 8 | r->p[r->pos + 1];
    r->pos += 2;
    return v;
}

static uint32_t u32(reader *r)
{
    uint32_t v = (uint32_t)u16(r) << 16;
    return v | u16(r);
}

int j2k_bytes_append(j2k_bytes *b, const uint8_t *data, size_t size)
{
    if (b->size + size > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 4096;
        uint8_t *p;

        while (cap < b->size + size)
            cap *= 2;
        /* A run that only pointed into the input (j2k_bytes_take) becomes a copy. */
        if (!(p = b->capacity ? realloc(b->data, cap) : malloc(cap)))
            return GJ_ERROR_NOMEM;
        if (!b->capacity && b->size)
            memcpy(p, b->data, b->size);
        b->data = p;
        b->capacity = cap;
    }
    if (size)
        memcpy(b->data + b->size, data, size);
    b->size += size;
    return 0;
}

int j2k_bytes_take(j2k_bytes *b, const uint8_t *data, size_t size)
{
    if (b->size || !size)
        return j2k_bytes_append(b, data, size);
    b->data = (uint8_t *)data;
    b->size = size;
    return 0;
}

void j2k_bytes_free(j2k_bytes *b)
{
    if (b->capacity)
        free(b->data);
    memset(b, 0, sizeof(*b));
}

static const char *marker_name(unsigned m)
{
    switch (m) {
    case M_SIZ: return "SIZ";
    case M_COD: return "COD";
    case M_COC: return "COC";
    case M_QCD: return "QCD";
    case M_QCC: return "QCC";
    case M_RGN: return "RGN";
    case M_POC: return "POC";
    case M_PPM: return "PPM";
    case M_PPT: return "PPT";
    case M_SOT: return "SOT";
    case M_CAP: return "CAP";
    case M_COM: return "COM";
    case M_TLM: return "TLM";
    case M_PLM: return "PLM";
    case M_PLT: return "PLT";
    case M_CRG: return "CRG";
    case M_CPF: return "CPF";
    default:    return "a marker segment";
    }
}

/* A.5.1 */
static int parse_siz(reader *r, gj_j2k_stream *s)
{
    int ret, i;

    if ((ret = need(r, 36)) < 0)
        return ret;
    s->capabilities = (int)u16(r);
    s->x1 = u32(r);
    s->y1 = u32(r);
    s->x0 = u32(r);
    s->y0 = u32(r);
    s->tw = u32(r);
    s->th = u32(r);
    s->tx0 = u32(r);
    s->ty0 = u32(r);
    s->nb_comps = (int)u16(r);
    if (s->capabilities & 0x4000)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: SIZ: HTJ2K (Part 15) codestream (Rsiz 0x%04x)",
                       s->capabilities);
    if (s->nb_comps < 1 || s->nb_comps > J2K_MAX_COMPONENTS)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: Csiz %d", s->nb_comps);
    if (s->x1 <= s->x0 || s->y1 <= s->y0)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: empty image area (%u..%u x %u..%u)",
                       s->x0, s->x1, s->y0, s->y1);
    if (!s->tw || !s->th)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: tile size %ux%u", s->tw, s->th);
    if (s->tx0 > s->x0 || s->ty0 > s->y0 || (uint64_t)s->tx0 + s->tw <= s->x0 ||
        (uint64_t)s->ty0 + s->th <= s->y0)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: the first tile does not cover the image origin");
    {
        uint64_t tx = ((uint64_t)s->x1 - s->tx0 + s->tw - 1) / s->tw;
        uint64_t ty = ((uint64_t)s->y1 - s->ty0 + s->th - 1) / s->th;

        if (tx * ty > 65535)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: %llu tiles (at most 65535)",
                           (unsigned long long)(tx * ty));
        s->tiles_x = (int)tx;
        s->tiles_y = (int)ty;
    }
    if ((ret = need(r, 3 * (size_t)s->nb_comps)) < 0)
        return ret;
    if (!(s->comps = calloc((size_t)s->nb_comps, sizeof(*s->comps))))
        return GJ_ERROR_NOMEM;
    for (i = 0; i < s->nb_comps; i++) {
        j2k_component *c = &s->comps[i];
        unsigned ssiz = u8(r);

        c->precision = (int)(ssiz & 0x7f) + 1;
        c->is_signed = !!(ssiz & 0x80);
        c->dx = (int)u8(r);
        c->dy = (int)u8(r);
        if (c->precision > 38)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: component %d has %d bits", i, c->precision);
        if (!c->dx || !c->dy)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: component %d has subsampling %dx%d", i, c->dx, c->dy);
    }
    if (!(s->tiles = calloc((size_t)s->tiles_x * s->tiles_y, sizeof(*s->tiles))))
        return GJ_ERROR_NOMEM;
    return 0;
}

/* SPcod/SPcoc (Table A.15): levels, code-block size and style, transform, precincts. */
static int parse_coding_style(reader *r, j2k_coding *c, int user_precincts)
{
    int ret, i;

    if ((ret = need(r, 5)) < 0)
        return ret;
    c->levels = (int)u8(r);
    c->cblk_w_exp = (int)u8(r) + 2;
    c->cblk_h_exp = (int)u8(r) + 2;
    c->cblk_style = (int)u8(r);
    i = (int)u8(r);
    if (c->levels > 32)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: %d decomposition levels (at most 32)", r->marker, c->levels);
    if (c->cblk_w_exp > 10 || c->cblk_h_exp > 10 || c->cblk_w_exp + c->cblk_h_exp > 12)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: code-block size 2^%d x 2^%d", r->marker,
                       c->cblk_w_exp, c->cblk_h_exp);
    if (c->cblk_style & J2K_CBLK_HT)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %s: HTJ2K (Part 15) code-blocks", r->marker);
    if (c->cblk_style & 0x80)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %s: code-block style 0x%02x (Part 2)",
                       r->marker, c->cblk_style);
    if (i > 1)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %s: wavelet transform %d (Part 2)", r->marker, i);
    c->reversible = i == 1;
    for (i = 0; i <= c->levels; i++) {
        unsigned pp = 0xff;

        if (user_precincts) {
            if ((ret = need(r, 1)) < 0)
                return ret;
            pp = u8(r);
            if (i > 0 && ((pp & 15) == 0 || (pp >> 4) == 0))
                return gj_fail(GJ_ERROR_INVALIDDATA, "%s: precinct size exponent 0 at resolution %d",
                               r->marker, i);
        }
        /* Without user precincts, PPx = PPy = 15 (A.6.1). */
        c->precinct_w_exp[i] = user_precincts ? (int)(pp & 15) : 15;
        c->precinct_h_exp[i] = user_precincts ? (int)(pp >> 4) : 15;
    }
    return 0;
}

static int component_index(reader *r, const gj_j2k_stream *s, int *c)
{
    int ret;

    if ((ret = need(r, s->nb_comps < 257 ? 1 : 2)) < 0)
        return ret;
    *c = s->nb_comps < 257 ? (int)u8(r) : (int)u16(r);
    if (*c >= s->nb_comps)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: component %d of %d", r->marker, *c, s->nb_comps);
    return 0;
}

/* A.6.1 */
static int parse_cod(reader *r, gj_j2k_stream *s, j2k_tile_coding *tc, j2k_component *comps, int origin)
{
    j2k_coding coding;
    unsigned scod;
    int ret, i;

    if ((ret = need(r, 5)) < 0)
        return ret;
    scod = u8(r);
    tc->user_precincts = scod & 1;
    tc->sop = !!(scod & 2);
    tc->eph = !!(scod & 4);
    if (scod & ~7u)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: COD: Scod 0x%02x (Part 2)", scod);
    tc->order = (int)u8(r);
    tc->layers = (int)u16(r);
    tc->mct = (int)u8(r);
    if (tc->order > J2K_CPRL)
        return gj_fail(GJ_ERROR_INVALIDDATA, "COD: progression order %d", tc->order);
    if (tc->layers < 1)
        return gj_fail(GJ_ERROR_INVALIDDATA, "COD: %d layers", tc->layers);
    if (tc->mct > 1)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: COD: multiple component transform %d (Part 2)",
                       tc->mct);
    /* Encoders that set it on gray pictures exist: OpenJPEG leaves the transform out, and so do we. */
    if (tc->mct && s->nb_comps < 3) {
        gj_log(GJ_LOG_WARNING, "COD: component transform with %d component%s: left out", s->nb_comps,
               s->nb_comps == 1 ? "" : "s");
        tc->mct = 0;
    }
    if ((ret = parse_coding_style(r, &coding, tc->user_precincts)) < 0)
        return ret;
    for (i = 0; i < s->nb_comps; i++) {
        if (comps[i].coding_origin <= origin) {
            comps[i].coding = coding;
            comps[i].coding_origin = origin;
        }
    }
    return 0;
}

/* A.6.2 */
static int parse_coc(reader *r, gj_j2k_stream *s, j2k_component *comps, int origin)
{
    int ret, c, user_precincts;

    if ((ret = component_index(r, s, &c)) < 0 || (ret = need(r, 1)) < 0)
        return ret;
    user_precincts = (int)(u8(r) & 1);
    if ((ret = parse_coding_style(r, &comps[c].coding, user_precincts)) < 0)
        return ret;
    comps[c].coding_origin = origin;
    return 0;
}

/* SQcd/SPqcd (Tables A.28-A.30). */
static int parse_quant_values(reader *r, j2k_quant *q)
{
    unsigned sq;
    int ret, i, n;

    if ((ret = need(r, 1)) < 0)
        return ret;
    sq = u8(r);
    q->style = (int)(sq & 31);
    q->guard_bits = (int)(sq >> 5);
    if (q->style > J2K_QUANT_EXPOUNDED)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: quantisation style %d", r->marker, q->style);
    if (q->style == J2K_QUANT_NONE) {
        n = (int)(r->size - r->pos);
        if (n > J2K_MAX_BANDS)
            n = J2K_MAX_BANDS;
        for (i = 0; i < n; i++) {
            q->exponent[i] = (uint16_t)(u8(r) >> 3);
            q->mantissa[i] = 0;
        }
    } else {
        n = (int)(r->size - r->pos) / 2;
        if (q->style == J2K_QUANT_DERIVED)
            n = n > 1 ? 1 : n;
        if (n > J2K_MAX_BANDS)
            n = J2K_MAX_BANDS;
        for (i = 0; i < n; i++) {
            unsigned v = u16(r);

            q->exponent[i] = (uint16_t)(v >> 11);
            q->mantissa[i] = (uint16_t)(v & 0x7ff);
        }
    }
    if (n < 1)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: no step sizes", r->marker);
    q->nb_steps = n;
    return 0;
}

/* A.6.4 */
static int parse_qcd(reader *r, gj_j2k_stream *s, j2k_component *comps, int origin)
{
    j2k_quant q;
    int ret, i;

    if ((ret = parse_quant_values(r, &q)) < 0)
        return ret;
    for (i = 0; i < s->nb_comps; i++) {
        if (comps[i].quant_origin <= origin) {
            comps[i].quant = q;
            comps[i].quant_origin = origin;
        }
    }
    return 0;
}

/* A.6.5 */
static int parse_qcc(reader *r, gj_j2k_stream *s, j2k_component *comps, int origin)
{
    int ret, c;

    if ((ret = component_index(r, s, &c)) < 0 || (ret = parse_quant_values(r, &comps[c].quant)) < 0)
        return ret;
    comps[c].quant_origin = origin;
    return 0;
}

/* A.6.3: only the implicit (max-shift) ROI method exists in Part 1. */
static int parse_rgn(reader *r, gj_j2k_stream *s, j2k_component *comps)
{
    int ret, c;
    unsigned style;

    if ((ret = component_index(r, s, &c)) < 0 || (ret = need(r, 2)) < 0)
        return ret;
    style = u8(r);
    if (style != 0)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: RGN: ROI style %u (Part 2)", style);
    comps[c].roi_shift = (int)u8(r);
    if (comps[c].roi_shift > 37)
        return gj_fail(GJ_ERROR_INVALIDDATA, "RGN: shift %d", comps[c].roi_shift);
    return 0;
}

/* A.6.6 */
static int parse_poc(reader *r, gj_j2k_stream *s, j2k_progression_volume *poc, int *nb_poc)
{
    size_t entry = s->nb_comps < 257 ? 7 : 9;
    int ret;

    if (r->size - r->pos < entry || (r->size - r->pos) % entry)
        return gj_fail(GJ_ERROR_INVALIDDATA, "POC: length %zu", r->size);
    while (r->pos < r->size) {
        j2k_progression_volume *v;

        if (*nb_poc >= J2K_MAX_POC)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: POC: more than %d progression changes",
                           J2K_MAX_POC);
        if ((ret = need(r, entry)) < 0)
            return ret;
        v = &poc[(*nb_poc)++];
        v->res_start = (int)u8(r);
        v->comp_start = s->nb_comps < 257 ? (int)u8(r) : (int)u16(r);
        v->layer_end = (int)u16(r);
        v->res_end = (int)u8(r);
        v->comp_end = s->nb_comps < 257 ? (int)u8(r) : (int)u16(r);
        if (v->comp_end == 0)
            v->comp_end = 256;  /* CEpoc 0 means 256 (Table A.32) */
        v->order = (int)u8(r);
        if (v->order > J2K_CPRL)
            return gj_fail(GJ_ERROR_INVALIDDATA, "POC: progression order %d", v->order);
    }
    return 0;
}

/*
 * Grok's encoder (up to its issue 435, fixed in 2026) repeated the main header's POC in
 * every tile's first tile-part with the orders (Ppoc) overwritten, mostly by 0 (LRCP),
 * while its packets follow the main header's orders. OpenJPEG and Grok's decoder of
 * that time append a tile's POC to the main header's, so they read those streams
 * right; read as the standard says, the tile's orders put every packet in the wrong
 * place. A tile list of the main header's volumes, volume for volume, is taken for
 * that copy: its packets in the main header's orders. Only the orders can differ
 * between the two lists, and no encoder is known to write such a list to change them.
 */
static void keep_main_orders(gj_j2k_stream *s, j2k_tile *t, unsigned tile_index)
{
    int orders_differ = 0;

    if (t->nb_poc != s->nb_poc)
        return;
    for (int i = 0; i < s->nb_poc; i++) {
        const j2k_progression_volume *a = &s->poc[i], *b = &t->poc[i];

        if (a->res_start != b->res_start || a->comp_start != b->comp_start || a->layer_end != b->layer_end ||
            a->res_end != b->res_end || a->comp_end != b->comp_end)
            return;
        orders_differ |= a->order != b->order;
    }
    if (!orders_differ)
        return;
    /* once a codestream: Grok repeats the list in every tile */
    if (!s->poc_copies++)
        gj_log(GJ_LOG_WARNING, "POC: tile %u's list repeats the main header's volumes in other orders "
               "(Grok's encoder before its fix): the main header's orders are kept", tile_index);
    memcpy(t->poc, s->poc, (size_t)s->nb_poc * sizeof(*t->poc));
}

/*
 * The packed packet headers of one header, PPM's (the main header's) or PPT's (a
 * tile-part header's): each segment's index (Zppm, Zppt: A.7.4, A.7.5), then its
 * share, the shares joined in the order of their indices, which need not be the
 * segments' (a compliance codestream writes them from the last index down).
 */
typedef struct packed_headers {
    int any;                    /* the arrays are set only once a segment came */
    const uint8_t *share[256];
    size_t size[256];
} packed_headers;

static int parse_packed_headers(reader *r, packed_headers *ph)
{
    unsigned z;
    int ret;

    if ((ret = need(r, 1)) < 0)
        return ret;
    z = u8(r);
    if (!ph->any) {
        memset(ph, 0, sizeof(*ph));
        ph->any = 1;
    }
    if (ph->share[z])
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: index %u twice", r->marker, z);
    ph->share[z] = r->p + r->pos;
    ph->size[z] = r->size - r->pos;
    return 0;
}

static int join_packed_headers(const packed_headers *ph, j2k_bytes *to)
{
    int ret;

    for (int z = 0; ph->any && z < 256; z++)
        if (ph->share[z] && (ret = j2k_bytes_append(to, ph->share[z], ph->size[z])) < 0)
            return ret;
    return 0;
}

/* Reads the marker at *pos and its segment; *seg covers the parameters after Lxxx. */
static int next_segment(const uint8_t *data, size_t size, size_t *pos, unsigned *marker, reader *seg)
{
    unsigned len;

    if (size - *pos < 2)
        return gj_fail(GJ_ERROR_INVALIDDATA, "codestream ends inside a header (at byte %zu)", *pos);
    *marker = (unsigned)data[*pos] << 8 | data[*pos + 1];
    if ((*marker >> 8) != 0xFF || *marker < 0xFF30)
        return gj_fail(GJ_ERROR_INVALIDDATA, "expected a marker at byte %zu, found 0x%04x", *pos, *marker);
    *pos += 2;
    if (*marker == M_SOD || *marker == M_EOC || (*marker >= 0xFF30 && *marker <= 0xFF3F))
        return 0;
    if (size - *pos < 2)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: codestream ends inside the segment", marker_name(*marker));
    len = (unsigned)data[*pos] << 8 | data[*pos + 1];
    if (len < 2 || size - *pos < len)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: segment length %u (%zu bytes left)",
                       marker_name(*marker), len, size - *pos);
    seg->p = data + *pos + 2;
    seg->size = len - 2;
    seg->pos = 0;
    seg->marker = marker_name(*marker);
    *pos += len;
    return 0;
}

static int is_part2_marker(unsigned m)
{
    /* DCO, MCT, NLT, MCC, MCO, CBD, ATK (T.801) */
    return m == 0xFF70 || (m >= 0xFF74 && m <= 0xFF79) || m == 0xFF7A;
}

static void set_defaults(gj_j2k_stream *s)
{
    for (int i = 0; i < s->nb_comps; i++)
        s->comps[i].coding_origin = s->comps[i].quant_origin = -1;
}

static int check_component_defaults(const gj_j2k_stream *s, const j2k_component *comps, const char *where)
{
    for (int i = 0; i < s->nb_comps; i++) {
        if (comps[i].coding_origin < 0)
            return gj_fail(GJ_ERROR_INVALIDDATA, "%s: no COD for component %d", where, i);
        if (comps[i].quant_origin < 0)
            return gj_fail(GJ_ERROR_INVALIDDATA, "%s: no QCD for component %d", where, i);
    }
    return 0;
}

/* Main header: SOC, SIZ, then anything until the first SOT. *pos ends at the SOT. */
static int parse_main(const uint8_t *data, size_t size, gj_j2k_stream *s, size_t *pos)
{
    unsigned m;
    reader seg;
    int ret, seen_cod = 0, seen_qcd = 0;
    packed_headers ppm;

    ppm.any = 0;
    memset(s, 0, sizeof(*s));
    if (size < 2 || data[0] != 0xFF || data[1] != 0x4F)
        return gj_fail(GJ_ERROR_INVALIDDATA, "not a JPEG 2000 codestream (no SOC marker)");
    *pos = 2;
    if ((ret = next_segment(data, size, pos, &m, &seg)) < 0)
        return ret;
    if (m != M_SIZ)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SIZ: missing (marker 0x%04x follows SOC)", m);
    if ((ret = parse_siz(&seg, s)) < 0)
        return ret;
    set_defaults(s);
    for (;;) {
        size_t at = *pos;

        if ((ret = next_segment(data, size, pos, &m, &seg)) < 0)
            return ret;
        switch (m) {
        case M_SOT:
            *pos = at;
            if (!seen_cod || !seen_qcd)
                return gj_fail(GJ_ERROR_INVALIDDATA, "main header: no %s", seen_cod ? "QCD" : "COD");
            /* tile-parts take Nppm-prefixed pieces of the joined PPM data in order */
            s->has_ppm = ppm.any;
            if ((ret = join_packed_headers(&ppm, &s->ppm)) < 0)
                return ret;
            return check_component_defaults(s, s->comps, "main header");
        case M_COD: ret = parse_cod(&seg, s, &s->cod, s->comps, J2K_FROM_MAIN_COD); seen_cod = 1; break;
        case M_COC: ret = parse_coc(&seg, s, s->comps, J2K_FROM_MAIN_COC); break;
        case M_QCD: ret = parse_qcd(&seg, s, s->comps, J2K_FROM_MAIN_COD); seen_qcd = 1; break;
        case M_QCC: ret = parse_qcc(&seg, s, s->comps, J2K_FROM_MAIN_COC); break;
        case M_RGN: ret = parse_rgn(&seg, s, s->comps); break;
        case M_POC: ret = parse_poc(&seg, s, s->poc, &s->nb_poc); break;
        case M_PPM: ret = parse_packed_headers(&seg, &ppm); break;
        case M_CAP:
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: CAP: HTJ2K (Part 15) capabilities");
        case M_SOD: case M_EOC:
            return gj_fail(GJ_ERROR_INVALIDDATA, "main header: 0x%04x before the first SOT", m);
        default:
            if (is_part2_marker(m))
                return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: marker 0x%04x (Part 2)", m);
            break;  /* TLM, PLM, CRG, COM, CPF and unknown segments: nothing to decode */
        }
        if (ret < 0)
            return ret;
    }
}

int j2k_parse_main_header(const uint8_t *data, size_t size, gj_j2k_stream *s)
{
    size_t pos;
    int ret = parse_main(data, size, s, &pos);

    if (ret < 0)
        j2k_stream_free(s);
    return ret;
}

int j2k_tile_defaults(gj_j2k_stream *s, j2k_tile *t)
{
    if (t->seen)
        return 0;
    t->seen = 1;
    t->cod = s->cod;
    t->comps = s->comps;
    t->nb_poc = s->nb_poc;
    t->poc = s->poc;
    return 0;
}

/* The tile's own component parameters, for a tile-part header to change. */
static int own_comps(const gj_j2k_stream *s, j2k_tile *t)
{
    j2k_component *comps;

    if (t->own_comps)
        return 0;
    if (!(comps = malloc((size_t)s->nb_comps * sizeof(*comps))))
        return GJ_ERROR_NOMEM;
    memcpy(comps, t->comps, (size_t)s->nb_comps * sizeof(*comps));
    t->comps = comps;
    t->own_comps = 1;
    return 0;
}

static int same_coding(const j2k_coding *a, const j2k_coding *b)
{
    if (a->levels != b->levels || a->cblk_w_exp != b->cblk_w_exp || a->cblk_h_exp != b->cblk_h_exp ||
        a->cblk_style != b->cblk_style || a->reversible != b->reversible)
        return 0;
    for (int i = 0; i <= a->levels; i++)
        if (a->precinct_w_exp[i] != b->precinct_w_exp[i] || a->precinct_h_exp[i] != b->precinct_h_exp[i])
            return 0;
    return 1;
}

static int same_quant(const j2k_quant *a, const j2k_quant *b)
{
    if (a->style != b->style || a->guard_bits != b->guard_bits || a->nb_steps != b->nb_steps)
        return 0;
    for (int i = 0; i < a->nb_steps; i++)
        if (a->exponent[i] != b->exponent[i] || a->mantissa[i] != b->mantissa[i])
            return 0;
    return 1;
}

static int is_tile_parameter(unsigned m)
{
    return m == M_COD || m == M_COC || m == M_QCD || m == M_QCC || m == M_RGN;
}

/* A tile-part header's COD, COC, QCD, QCC or RGN into a tile's coding and component parameters. */
static int parse_tile_parameter(unsigned m, reader *seg, gj_j2k_stream *s, j2k_tile_coding *cod,
                                j2k_component *comps)
{
    switch (m) {
    case M_COD: return parse_cod(seg, s, cod, comps, J2K_FROM_TILE_COD);
    case M_COC: return parse_coc(seg, s, comps, J2K_FROM_TILE_COC);
    case M_QCD: return parse_qcd(seg, s, comps, J2K_FROM_TILE_COD);
    case M_QCC: return parse_qcc(seg, s, comps, J2K_FROM_TILE_COC);
    default:    return parse_rgn(seg, s, comps);
    }
}

/*
 * A COD, COC, QCD, QCC or RGN in a tile's later tile-part, where A.4.2 allows them
 * in the first only: some encoders repeat the tile's parameters in every tile-part,
 * which OpenJPEG and FFmpeg read. A copy is let be; one that would change what the
 * tile's earlier tile-parts were coded with is refused (OpenJPEG decodes the whole
 * tile with it: another picture).
 */
static int later_parameters(unsigned m, reader *seg, gj_j2k_stream *s, const j2k_tile *t, unsigned tile_index,
                            unsigned tp_index)
{
    j2k_tile_coding cod = t->cod;
    j2k_component *comps;
    int ret, same;

    if (!(comps = malloc((size_t)s->nb_comps * sizeof(*comps))))
        return GJ_ERROR_NOMEM;
    memcpy(comps, t->comps, (size_t)s->nb_comps * sizeof(*comps));
    ret = parse_tile_parameter(m, seg, s, &cod, comps);
    same = ret >= 0 && !memcmp(&cod, &t->cod, sizeof(cod));
    for (int i = 0; same && i < s->nb_comps; i++)
        same = same_coding(&comps[i].coding, &t->comps[i].coding) && same_quant(&comps[i].quant, &t->comps[i].quant) &&
               comps[i].roi_shift == t->comps[i].roi_shift;
    free(comps);
    if (ret < 0)
        return ret;
    if (!same)
        return gj_fail(GJ_ERROR_INVALIDDATA, "%s: tile %u's tile-part %u changes the tile's parameters",
                       marker_name(m), tile_index, tp_index);
    return 0;
}

/* This tile-part's share of PPM: Nppm (4 bytes) then the headers (A.7.4). */
static int take_ppm_piece(gj_j2k_stream *s, j2k_tile *t)
{
    uint32_t n;

    if (s->ppm.size - s->ppm_pos < 4)
        return gj_fail(GJ_ERROR_INVALIDDATA, "PPM: no packet headers left for a tile-part");
    n = (uint32_t)s->ppm.data[s->ppm_pos] << 24 | (uint32_t)s->ppm.data[s->ppm_pos + 1] << 16 |
        (uint32_t)s->ppm.data[s->ppm_pos + 2] << 8 | s->ppm.data[s->ppm_pos + 3];
    s->ppm_pos += 4;
    if (s->ppm.size - s->ppm_pos < n)
        return gj_fail(GJ_ERROR_INVALIDDATA, "PPM: Nppm %u exceeds the data", n);
    t->has_packed_headers = 1;
    s->ppm_pos += n;
    return j2k_bytes_append(&t->ppt, s->ppm.data + s->ppm_pos - n, n);
}

/* One tile-part: SOT, its header, SOD and the body (A.4.2). *pos ends after the body. */
static int parse_tile_part(const uint8_t *data, size_t size, gj_j2k_stream *s, size_t *pos)
{
    size_t start = *pos, end;
    unsigned m, tile_index, tp_index;
    uint32_t psot;
    reader seg;
    j2k_tile *t;
    int ret, nb_tiles = s->tiles_x * s->tiles_y;
    packed_headers ppt;

    ppt.any = 0;
    if ((ret = next_segment(data, size, pos, &m, &seg)) < 0)
        return ret;
    if ((ret = need(&seg, 8)) < 0)
        return ret;
    tile_index = u16(&seg);
    psot = u32(&seg);
    tp_index = u8(&seg);
    if (tile_index >= (unsigned)nb_tiles)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOT: tile %u of %d", tile_index, nb_tiles);
    if (psot != 0 && psot < 14)
        return gj_fail(GJ_ERROR_INVALIDDATA, "SOT: tile-part length %u", psot);
    /* Psot 0: the tile-part runs to EOC; a length past the end is a truncated stream. */
    end = psot == 0 ? size : start + psot;
    if (psot == 0 && size >= 2 && data[size - 2] == 0xFF && data[size - 1] == 0xD9)
        end = size - 2;
    if (end > size) {
        s->truncated = 1;
        gj_log(GJ_LOG_WARNING, "SOT: tile %u's part runs %zu bytes past the end of the codestream",
               tile_index, end - size);
        end = size;
    }
    t = &s->tiles[tile_index];
    if ((ret = j2k_tile_defaults(s, t)) < 0)
        return ret;
    /* A.4.2: a tile's parts come in the order of their TPsot. Ones that do not are read
     * in the codestream's order, which may not be the encoder's (OpenJPEG refuses them):
     * said, not silently decoded. */
    if (tp_index != (unsigned)t->tile_parts_seen && !s->misordered_parts++)
        gj_log(GJ_LOG_WARNING, "SOT: tile %u's tile-part %u comes as its part %d: read in the codestream's order",
               tile_index, tp_index, t->tile_parts_seen);
    t->tile_parts_seen++;
    for (;;) {
        if (*pos >= end)
            return gj_fail(GJ_ERROR_INVALIDDATA, "SOT: tile %u's header has no SOD", tile_index);
        if ((ret = next_segment(data, end, pos, &m, &seg)) < 0)
            return ret;
        /* A marker that changes the component parameters changes the tile's own copy;
         * in a later tile-part it may only repeat them. */
        if (is_tile_parameter(m)) {
            if (t->tile_parts_seen > 1)
                ret = later_parameters(m, &seg, s, t, tile_index, tp_index);
            else if ((ret = own_comps(s, t)) >= 0)
                ret = parse_tile_parameter(m, &seg, s, &t->cod, t->comps);
            if (ret < 0)
                return ret;
            continue;
        }
        switch (m) {
        case M_SOD:
            if (s->has_ppm && (ret = take_ppm_piece(s, t)) < 0)
                return ret;
            t->has_packed_headers |= ppt.any;
            if ((ret = join_packed_headers(&ppt, &t->ppt)) < 0)
                return ret;
            ret = j2k_bytes_take(&t->data, data + *pos, end - *pos);
            *pos = end;
            return ret;
        case M_POC: {
            /* A tile's POC replaces the main header's (A.6.6); later tile-parts' POCs extend it. */
            int first = !t->own_poc;

            if (first) {
                if (!(t->poc = malloc(J2K_MAX_POC * sizeof(*t->poc))))
                    return GJ_ERROR_NOMEM;
                t->nb_poc = 0;
                t->own_poc = 1;
            }
            if ((ret = parse_poc(&seg, s, t->poc, &t->nb_poc)) >= 0 && first)
                keep_main_orders(s, t, tile_index);
            break;
        }
        case M_PPT:
            if (s->has_ppm)
                return gj_fail(GJ_ERROR_INVALIDDATA, "PPT: in a codestream with PPM");
            ret = parse_packed_headers(&seg, &ppt);
            break;
        case M_EOC:
            return gj_fail(GJ_ERROR_INVALIDDATA, "SOT: EOC inside tile %u's header", tile_index);
        default:
            if (is_part2_marker(m))
                return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: marker 0x%04x (Part 2)", m);
            break;  /* PLT, COM and unknown segments */
        }
        if (ret < 0)
            return ret;
    }
}

int j2k_parse_codestream(const uint8_t *data, size_t size, gj_j2k_stream *s)
{
    size_t pos;
    int ret, i;

    if ((ret = parse_main(data, size, s, &pos)) < 0)
        goto fail;
    for (;;) {
        if (size - pos < 2 || (data[pos] == 0xFF && data[pos + 1] == 0xD9)) {
            if (size - pos < 2) {
                s->truncated = 1;
                gj_log(GJ_LOG_WARNING, "codestream: no EOC marker (truncated?)");
            }
            break;
        }
        if (data[pos] != 0xFF || data[pos + 1] != 0x90) {
            /* Garbage after the last tile-part: decode what came before, as OpenJPEG does. */
            s->truncated = 1;
            gj_log(GJ_LOG_WARNING, "codestream: 0x%02x%02x at byte %zu where SOT or EOC belongs",
                   data[pos], data[pos + 1], pos);
            break;
        }
        if ((ret = parse_tile_part(data, size, s, &pos)) < 0)
            goto fail;
    }
    for (i = 0; i < s->tiles_x * s->tiles_y; i++) {
        j2k_tile *t = &s->tiles[i];

        if (t->own_comps && (ret = check_component_defaults(s, t->comps, "tile header")) < 0)
            goto fail;
    }
    return 0;
fail:
    j2k_stream_free(s);
    return ret;
}

void j2k_stream_free(gj_j2k_stream *s)
{
    if (s->tiles) {
        for (int i = 0; i < s->tiles_x * s->tiles_y; i++) {
            if (s->tiles[i].own_comps)
                free(s->tiles[i].comps);
            if (s->tiles[i].own_poc)
                free(s->tiles[i].poc);
            j2k_bytes_free(&s->tiles[i].data);
            j2k_bytes_free(&s->tiles[i].ppt);
        }
    }
    free(s->tiles);
    free(s->comps);
    j2k_bytes_free(&s->ppm);
    memset(s, 0, sizeof(*s));
}
