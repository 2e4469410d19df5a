/*
 * A tile's geometry (T.800 B.5-B.7): tile-components (B-12), resolutions (B-14),
 * sub-bands (B-15), precincts (B.6) and code-blocks (B.7), and the step sizes of
 * every sub-band (E.1).
 *
 * A tile's state is kept from one picture to the next (j2k_tile_cache): when the
 * geometry stays (a video), its precincts, code-blocks and tag trees stand, and
 * only their T2 state is reset; a DCI 4K picture's tens of thousands of them then
 * take no allocation nor setting up.
 */
#include <stdlib.h>
#include <string.h>

#include "j2k/array.h"
#include "j2k/tile.h"
#include "log.h"
#include "gpujpeg/common.h"

/* ceil(a / 2^e) and floor(a / 2^e) for any sign of a. */
static int64_t ceil_pow2(int64_t a, int e)
{
    return -((-a) >> e);
}

static int64_t floor_pow2(int64_t a, int e)
{
    return a >> e;
}

/* E.1: the step size exponent and mantissa of band number b (0 = LL, then HL, LH, HH per level). */
static int band_step(const j2k_quant *q, int levels, int b, int decomposition_level, int *exponent, int *mantissa)
{
    if (q->style == J2K_QUANT_DERIVED) {
        /* E-5: derived from the LL band's values. */
        *exponent = q->exponent[0] - levels + decomposition_level;
        *mantissa = q->mantissa[0];
        if (*exponent < 0)
            return gj_fail(GJ_ERROR_INVALIDDATA, "QCD: derived exponent %d for band %d", *exponent, b);
        return 0;
    }
    if (b >= q->nb_steps)
        return gj_fail(GJ_ERROR_INVALIDDATA, "QCD: %d step sizes for %d decomposition levels",
                       q->nb_steps, levels);
    *exponent = q->exponent[b];
    *mantissa = q->mantissa[b];
    return 0;
}

static int init_band(j2k_band *band, const j2k_component *comp, const j2k_tile_component *tc,
                     int r, int orientation)
{
    const j2k_coding *cod = &comp->coding;
    int levels = cod->levels;
    int nb = r == 0 ? levels : levels - r + 1;      /* the band's decomposition level */
    int xob = orientation == J2K_HL || orientation == J2K_HH;
    int yob = orientation == J2K_LH || orientation == J2K_HH;
    int index = r == 0 ? 0 : 3 * (r - 1) + orientation;
    const j2k_resolution *res = &tc->res[r];
    int ret;

    band->orientation = orientation;
    /* B-15 */
    band->x0 = (int)ceil_pow2((int64_t)tc->x0 - ((int64_t)xob << nb >> 1), nb);
    band->y0 = (int)ceil_pow2((int64_t)tc->y0 - ((int64_t)yob << nb >> 1), nb);
    band->x1 = (int)ceil_pow2((int64_t)tc->x1 - ((int64_t)xob << nb >> 1), nb);
    band->y1 = (int)ceil_pow2((int64_t)tc->y1 - ((int64_t)yob << nb >> 1), nb);
    band->prec_w_exp = r == 0 ? res->prec_w_exp : res->prec_w_exp - 1;
    band->prec_h_exp = r == 0 ? res->prec_h_exp : res->prec_h_exp - 1;
    band->cblk_w_exp = cod->cblk_w_exp < band->prec_w_exp ? cod->cblk_w_exp : band->prec_w_exp;
    band->cblk_h_exp = cod->cblk_h_exp < band->prec_h_exp ? cod->cblk_h_exp : band->prec_h_exp;
    band->log2_gain = xob + yob;
    if ((ret = band_step(&comp->quant, levels, index, nb, &band->exponent, &band->mantissa)) < 0)
        return ret;
    band->mb = comp->quant.guard_bits + band->exponent - 1;
    if (band->mb > 30 || band->mb < 0)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: QCD: %d magnitude bit-planes in a sub-band",
                       band->mb);
    /* In the coefficient layout, the lower resolution fills the top-left corner. */
    if (r == 0) {
        band->mallat_x = band->mallat_y = 0;
    } else {
        band->mallat_x = xob ? tc->res[r - 1].x1 - tc->res[r - 1].x0 : 0;
        band->mallat_y = yob ? tc->res[r - 1].y1 - tc->res[r - 1].y0 : 0;
    }
    return 0;
}

/* B.6-B.7: the code-blocks of one precinct in one band (their states: clear_t2_state()). */
static int init_precinct_band(j2k_tile_state *ts, j2k_precinct_band *pb, const j2k_band *band,
                              int64_t px0, int64_t py0)
{
    int64_t x0 = px0 > band->x0 ? px0 : band->x0;
    int64_t y0 = py0 > band->y0 ? py0 : band->y0;
    int64_t x1 = px0 + ((int64_t)1 << band->prec_w_exp), y1 = py0 + ((int64_t)1 << band->prec_h_exp);
    int ret;

    if (x1 > band->x1)
        x1 = band->x1;
    if (y1 > band->y1)
        y1 = band->y1;
    *pb = (j2k_precinct_band){ .first_cblk = ts->nb_cblks };
    if (x0 >= x1 || y0 >= y1)
        return 0;
    pb->area = (j2k_rect){ (int)x0, (int)y0, (int)x1, (int)y1 };
    pb->cblk_x0 = (int)floor_pow2(x0, band->cblk_w_exp);
    pb->cblk_y0 = (int)floor_pow2(y0, band->cblk_h_exp);
    pb->cw = (int)(ceil_pow2(x1, band->cblk_w_exp) - pb->cblk_x0);
    pb->ch = (int)(ceil_pow2(y1, band->cblk_h_exp) - pb->cblk_y0);
    if ((int64_t)ts->nb_cblks + (int64_t)pb->cw * pb->ch > (int64_t)J2K_MAX_CBLKS)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: more than %zu code-blocks in tile %d", J2K_MAX_CBLKS,
                       ts->index);
    /* Geometric growth: a tile of many small precincts must not copy the table each time.
     * From what the first precinct-band needs, not 64: a picture of 65535 small tiles
     * keeps a table for each. */
    if ((ret = J2K_RESERVE(ts->cblks, ts->cblks_capacity, (size_t)ts->nb_cblks + (size_t)pb->cw * pb->ch)) < 0)
        return ret;
    ts->nb_cblks += pb->cw * pb->ch;
    return 0;
}

/* The precinct-bands of resolution r of tc and their code-blocks, after those of ts so far. */
static int init_precincts(j2k_tile_state *ts, j2k_tile_component *tc, int r)
{
    j2k_resolution *res = &tc->res[r];
    size_t first = ts->nb_precincts, count = (size_t)res->pw * res->ph * res->nb_bands;
    int64_t prx0, pry0;
    int ret;

    if (!count)
        return 0;
    if ((ret = J2K_RESERVE(ts->precincts, ts->precincts_capacity, first + count)) < 0)
        return ret;
    ts->nb_precincts += count;
    prx0 = floor_pow2(res->x0, res->prec_w_exp) << res->prec_w_exp;
    pry0 = floor_pow2(res->y0, res->prec_h_exp) << res->prec_h_exp;
    for (int p = 0; p < res->pw * res->ph; p++) {
        int64_t px = prx0 + ((int64_t)(p % res->pw) << res->prec_w_exp);
        int64_t py = pry0 + ((int64_t)(p / res->pw) << res->prec_h_exp);

        for (int b = 0; b < res->nb_bands; b++) {
            int64_t bx = r == 0 ? px : px >> 1, by = r == 0 ? py : py >> 1;
            j2k_precinct_band *pb = &ts->precincts[first + (size_t)p * res->nb_bands + b];

            if ((ret = init_precinct_band(ts, pb, &res->bands[b], bx, by)) < 0)
                return ret;
        }
    }
    return 0;
}

/*
 * Every resolution's precincts and code-blocks, then the tag trees (B.10.2) of the
 * precinct-bands, their nodes in one array; the pointers into the arrays once
 * they stop moving.
 */
static int build_precincts(j2k_tile_state *ts)
{
    size_t at = 0, nodes = 0;
    int ret;

    ts->nb_precincts = 0;
    ts->nb_cblks = 0;
    for (int c = 0; c < ts->nb_comps; c++)
        for (int r = 0; r < ts->comps[c].nb_res; r++)
            if ((ret = init_precincts(ts, &ts->comps[c], r)) < 0)
                return ret;
    for (int c = 0; c < ts->nb_comps; c++)
        for (int r = 0; r < ts->comps[c].nb_res; r++) {
            j2k_resolution *res = &ts->comps[c].res[r];
            size_t count = (size_t)res->pw * res->ph * res->nb_bands;

            res->precincts = count ? &ts->precincts[at] : NULL;
            at += count;
        }
    for (size_t i = 0; i < ts->nb_precincts; i++)
        nodes += 2 * j2k_tag_tree_nodes(ts->precincts[i].cw, ts->precincts[i].ch);
    if ((ret = J2K_RESERVE(ts->tag_nodes, ts->tag_nodes_capacity, nodes)) < 0)
        return ret;
    ts->nb_tag_nodes = nodes;
    at = 0;
    for (size_t i = 0; i < ts->nb_precincts; i++) {
        j2k_precinct_band *pb = &ts->precincts[i];

        if (!pb->cw || !pb->ch)
            continue;       /* no code-blocks: empty trees (init_precinct_band()) */
        j2k_tag_tree_init(&pb->inclusion, pb->cw, pb->ch, &ts->tag_nodes[at]);
        at += (size_t)pb->inclusion.count;
        j2k_tag_tree_init(&pb->zero_planes, pb->cw, pb->ch, &ts->tag_nodes[at]);
        at += (size_t)pb->zero_planes.count;
    }
    return 0;
}

/* Whether two resolutions have the same precincts and code-blocks: all that init_precincts() reads of them. */
static int same_precincts(const j2k_resolution *a, const j2k_resolution *b)
{
    if (a->x0 != b->x0 || a->y0 != b->y0 || a->x1 != b->x1 || a->y1 != b->y1 || a->pw != b->pw ||
        a->ph != b->ph || a->prec_w_exp != b->prec_w_exp || a->prec_h_exp != b->prec_h_exp ||
        a->nb_bands != b->nb_bands)
        return 0;
    for (int i = 0; i < a->nb_bands; i++) {
        const j2k_band *p = &a->bands[i], *q = &b->bands[i];

        if (p->x0 != q->x0 || p->y0 != q->y0 || p->x1 != q->x1 || p->y1 != q->y1 ||
            p->prec_w_exp != q->prec_w_exp || p->prec_h_exp != q->prec_h_exp ||
            p->cblk_w_exp != q->cblk_w_exp || p->cblk_h_exp != q->cblk_h_exp)
            return 0;
    }
    return 1;
}

/*
 * Resolution r of tc (B-14, B-16) and its sub-bands, with its packets' place in
 * packet_done. *keep is cleared unless its precincts are those it had.
 */
static int init_resolution(const j2k_component *comp, j2k_tile_component *tc, int r, size_t *packets, int layers,
                           int *keep)
{
    const j2k_coding *cod = &comp->coding;
    j2k_resolution *res = &tc->res[r], before = { 0 };
    int shift = cod->levels - r, b, ret;

    if (*keep)
        before = *res;
    /* B-14 */
    res->x0 = (int)ceil_pow2(tc->x0, shift);
    res->y0 = (int)ceil_pow2(tc->y0, shift);
    res->x1 = (int)ceil_pow2(tc->x1, shift);
    res->y1 = (int)ceil_pow2(tc->y1, shift);
    res->prec_w_exp = cod->precinct_w_exp[r];
    res->prec_h_exp = cod->precinct_h_exp[r];
    /* B-16 */
    res->pw = res->x0 == res->x1 ? 0 : (int)(ceil_pow2(res->x1, res->prec_w_exp) - floor_pow2(res->x0, res->prec_w_exp));
    res->ph = res->y0 == res->y1 ? 0 : (int)(ceil_pow2(res->y1, res->prec_h_exp) - floor_pow2(res->y0, res->prec_h_exp));
    res->nb_bands = r == 0 ? 1 : 3;
    for (b = 0; b < res->nb_bands; b++)
        if ((ret = init_band(&res->bands[b], comp, tc, r, r == 0 ? J2K_LL : b + 1)) < 0)
            return ret;
    if ((int64_t)res->pw * res->ph > (1 << 24))
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %d x %d precincts", res->pw, res->ph);
    res->packet_base = *packets;
    *packets += (size_t)res->pw * res->ph * (size_t)layers;
    if (*keep)
        *keep = same_precincts(&before, res);
    return 0;
}

/* A code-block before the tile's first packet: Lblock 3 (B.10.7.1), no passes, segments nor data. */
const j2k_codeblock j2k_codeblock_reset = { .len_bits = 3, .first_seg = -1, .last_seg = -1, .first_chunk = -1,
                                            .last_chunk = -1 };

/*
 * Everything T2 (and the early T1 launch) writes, as before the tile's first
 * packet: of every code-block when they are new, else of those of the
 * precinct-bands that had some included (tile.h).
 */
static void clear_t2_state(j2k_tile_state *ts, int kept)
{
    for (size_t i = 0; i < ts->nb_precincts; i++) {
        j2k_precinct_band *pb = &ts->precincts[i];

        if (pb->included || !kept) {
            for (int k = 0; k < pb->cw * pb->ch; k++)
                ts->cblks[pb->first_cblk + k] = j2k_codeblock_reset;
            j2k_tag_tree_reset(&pb->zero_planes);   /* read for included code-blocks only */
        }
        pb->included = 0;
        j2k_tag_tree_reset(&pb->inclusion);
    }
    if (ts->nb_packets)
        memset(ts->packet_done, 0, ts->nb_packets);
    ts->nb_segs = ts->nb_chunks = 0;
    ts->truncated = 0;
}

size_t j2k_tile_resolutions(const j2k_tile *t, int nb_comps)
{
    size_t n = 0;

    for (int c = 0; c < nb_comps; c++)
        n += (size_t)t->comps[c].coding.levels + 1;
    return n;
}

int j2k_tile_init(j2k_tile_state *ts, const gj_j2k_stream *s, int index)
{
    const j2k_tile *t = &s->tiles[index];
    int p = index % s->tiles_x, q = index / s->tiles_x, c, r, ret;
    /* The last picture's precincts stand if it built them all and every resolution is as it was. */
    int keep = ts->shaped && ts->nb_comps == s->nb_comps;
    size_t packets = 0, nb_res = 0;

    ts->shaped = 0;
    ts->index = index;
    ts->tile = t;
    /* B-7 */
    ts->x0 = (int)((uint64_t)s->tx0 + (uint64_t)p * s->tw > s->x0 ? s->tx0 + (uint64_t)p * s->tw : s->x0);
    ts->y0 = (int)((uint64_t)s->ty0 + (uint64_t)q * s->th > s->y0 ? s->ty0 + (uint64_t)q * s->th : s->y0);
    ts->x1 = (int)((uint64_t)s->tx0 + (uint64_t)(p + 1) * s->tw < s->x1 ? s->tx0 + (uint64_t)(p + 1) * s->tw : s->x1);
    ts->y1 = (int)((uint64_t)s->ty0 + (uint64_t)(q + 1) * s->th < s->y1 ? s->ty0 + (uint64_t)(q + 1) * s->th : s->y1);
    if ((ret = J2K_RESERVE(ts->comps, ts->comps_capacity, s->nb_comps)) < 0 ||
        (ret = J2K_RESERVE(ts->resolutions, ts->resolutions_capacity, j2k_tile_resolutions(t, s->nb_comps))) < 0)
        return ret;
    ts->nb_comps = s->nb_comps;
    for (c = 0; c < s->nb_comps; c++) {
        const j2k_component *comp = &t->comps[c];
        j2k_tile_component *tc = &ts->comps[c];

        /* the same place as the last picture's where every component kept its levels */
        tc->res = ts->resolutions + nb_res;
        nb_res += (size_t)comp->coding.levels + 1;

        tc->x0 = (int)j2k_ceil_div((uint32_t)ts->x0, (uint32_t)comp->dx);
        tc->y0 = (int)j2k_ceil_div((uint32_t)ts->y0, (uint32_t)comp->dy);
        tc->x1 = (int)j2k_ceil_div((uint32_t)ts->x1, (uint32_t)comp->dx);
        tc->y1 = (int)j2k_ceil_div((uint32_t)ts->y1, (uint32_t)comp->dy);
        keep = keep && tc->nb_res == comp->coding.levels + 1;
        tc->nb_res = comp->coding.levels + 1;
        for (r = 0; r < tc->nb_res; r++)
            if ((ret = init_resolution(comp, tc, r, &packets, t->cod.layers, &keep)) < 0)
                return ret;
    }
    if (!t->tile_parts_seen) {
        /* nothing to read, so no marks: those of a picture before are freed */
        packets = 0;
        free(ts->packet_done);
        ts->packet_done = NULL;
        ts->packet_done_capacity = 0;
    }
    if (packets > J2K_MAX_PACKETS)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %zu packets in tile %d", packets, index);
    ts->nb_packets = packets;
    if ((packets && (ret = J2K_RESERVE(ts->packet_done, ts->packet_done_capacity, packets)) < 0) ||
        (!keep && (ret = build_precincts(ts)) < 0))
        return ret;
    clear_t2_state(ts, keep);
    ts->shaped = 1;
    return 0;
}

static void free_tile(j2k_tile_state *ts)
{
    free(ts->comps);
    free(ts->resolutions);
    free(ts->cblks);
    free(ts->precincts);
    free(ts->tag_nodes);
    free(ts->segs);
    free(ts->chunks);
    free(ts->packet_done);
    memset(ts, 0, sizeof(*ts));
}

struct j2k_tile_cache {
    j2k_tile_state *tiles;
    int nb_tiles;
};

int j2k_tile_cache_get(j2k_tile_cache **cache, int nb_tiles, j2k_tile_state **tiles)
{
    j2k_tile_cache *tc = *cache;
    j2k_tile_state *grown;

    if (!tc && !(tc = *cache = calloc(1, sizeof(*tc))))
        return GJ_ERROR_NOMEM;
    if (nb_tiles != tc->nb_tiles) {
        /* Another tiling: the states past the new count go (a picture of 65535 tiles keeps none after it). */
        for (; tc->nb_tiles > nb_tiles; tc->nb_tiles--)
            free_tile(&tc->tiles[tc->nb_tiles - 1]);
        if (!(grown = realloc(tc->tiles, (size_t)(nb_tiles > 0 ? nb_tiles : 1) * sizeof(*grown))))
            return GJ_ERROR_NOMEM;
        tc->tiles = grown;
        if (nb_tiles > tc->nb_tiles)
            memset(&grown[tc->nb_tiles], 0, (size_t)(nb_tiles - tc->nb_tiles) * sizeof(*grown));
        tc->nb_tiles = nb_tiles;
    }
    *tiles = tc->tiles;
    return 0;
}

void j2k_tile_cache_free(j2k_tile_cache *cache)
{
    if (!cache)
        return;
    for (int t = 0; t < cache->nb_tiles; t++)
        free_tile(&cache->tiles[t]);
    free(cache->tiles);
    free(cache);
}
