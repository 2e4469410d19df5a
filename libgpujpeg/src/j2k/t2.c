/*
 * T2 (T.800 B.9-B.12): the packets of one tile in progression order, their headers
 * (inclusion and zero bit-plane tag trees, coding passes, lengths) and bodies,
 * which become each code-block's segments and data chunks.
 */
#include <stdlib.h>
#include <string.h>

#include "j2k/array.h"
#include "j2k/t2.h"
#include "log.h"
#include "gpujpeg/common.h"

/* A code-block's new data in the packet being read: lengths come before the bodies. */
typedef struct pending {
    int cblk, seg;
    int passes;
    uint32_t length;
} pending;

typedef struct packet_reader {
    j2k_tile_state *ts;
    j2k_bits header;            /* packet headers: the tile data, or PPT/PPM */
    const uint8_t *body;
    size_t body_size, body_pos;
    int packed_headers;
    pending *pend;
    size_t nb_pend, pend_capacity;
    int max_layers;
    const j2k_t2_watch *watch;
} packet_reader;

/* One packet's place in the progression (B.12). */
typedef struct packet_id {
    int comp, res, prec;
    int64_t key[4];             /* sort key of the position-driven orders */
} packet_id;

static int new_segment(j2k_tile_state *ts, j2k_codeblock *cb, int style)
{
    j2k_segment *seg;
    int max;

    if (ts->nb_segs >= INT32_MAX || J2K_GROW(ts->segs, ts->nb_segs, ts->segs_capacity, 1) < 0)
        return GJ_ERROR_NOMEM;
    /* B.10.7.2: terminated passes end a segment; in bypass mode the first 10 passes form
     * one, then raw (2 passes) and MQ (1 pass) segments alternate. */
    if (style & J2K_CBLK_TERMALL) {
        max = 1;
    } else if (style & J2K_CBLK_BYPASS) {
        if (cb->last_seg < 0) {
            max = 10;
        } else {
            int prev = ts->segs[cb->last_seg].max_passes;
            max = prev == 10 || prev == 1 ? 2 : 1;
        }
    } else {
        max = 109;      /* 3 * (37 - 1) + 1: no termination before the last pass */
    }
    seg = &ts->segs[ts->nb_segs];
    memset(seg, 0, sizeof(*seg));
    seg->max_passes = (uint16_t)max;
    seg->next = -1;
    if (cb->last_seg >= 0)
        ts->segs[cb->last_seg].next = (int32_t)ts->nb_segs;
    else
        cb->first_seg = (int32_t)ts->nb_segs;
    cb->last_seg = (int32_t)ts->nb_segs++;
    return 0;
}

static int add_pending(packet_reader *pr, int cblk, int seg, int passes, uint32_t length)
{
    if (J2K_GROW(pr->pend, pr->nb_pend, pr->pend_capacity, 1) < 0)
        return GJ_ERROR_NOMEM;
    pr->pend[pr->nb_pend++] = (pending){ cblk, seg, passes, length };
    return 0;
}

static int add_chunk(j2k_tile_state *ts, j2k_codeblock *cb, uint32_t offset, uint32_t length)
{
    j2k_chunk *c;

    if (ts->nb_chunks >= INT32_MAX || J2K_GROW(ts->chunks, ts->nb_chunks, ts->chunks_capacity, 1) < 0)
        return GJ_ERROR_NOMEM;
    c = &ts->chunks[ts->nb_chunks];
    c->offset = offset;
    c->length = length;
    c->next = -1;
    if (cb->last_chunk >= 0)
        ts->chunks[cb->last_chunk].next = (int32_t)ts->nb_chunks;
    else
        cb->first_chunk = (int32_t)ts->nb_chunks;
    cb->last_chunk = (int32_t)ts->nb_chunks++;
    return 0;
}

/* Table B.4 */
static int read_pass_count(j2k_bits *b)
{
    unsigned n;

    if (!j2k_bits_read_bit(b))
        return 1;
    if (!j2k_bits_read_bit(b))
        return 2;
    if ((n = j2k_bits_read(b, 2)) != 3)
        return 3 + (int)n;
    if ((n = j2k_bits_read(b, 5)) != 31)
        return 6 + (int)n;
    return 37 + (int)j2k_bits_read(b, 7);
}

/* v > 0 */
static int floor_log2(unsigned v)
{
    return 31 - __builtin_clz(v);
}

/* B.10.4-B.10.7: the part of a packet header of code-block (x, y) of a precinct-band. */
static int read_codeblock_header(packet_reader *pr, j2k_precinct_band *pb, const j2k_band *band,
                                 const j2k_component *comp, int x, int y, int layer)
{
    j2k_tile_state *ts = pr->ts;
    int i = y * pb->cw + x, index = pb->first_cblk + i;
    j2k_codeblock *cb = &ts->cblks[index];
    j2k_bits *b = &pr->header;
    int style = comp->coding.cblk_style;
    /* Its state is not read before its precinct-band has a code-block included (tile.h). */
    int before = pb->included && cb->included;
    int included, passes, ret;

    if (!before)
        included = j2k_tag_tree_decode(&pb->inclusion, b, x, y, layer + 1);
    else
        included = (int)j2k_bits_read_bit(b);
    if (!included)
        return 0;
    if (!before) {
        /* Set first: the zero bit-plane tree changes even if the decode fails (tile.h). */
        pb->included = 1;
        /* B.10.5: the number of missing most significant bit-planes, at most 74. One
         * decode to the bound reads the bits that raising the threshold one by one would. */
        if (!j2k_tag_tree_decode(&pb->zero_planes, b, x, y, 75))
            return gj_fail(GJ_ERROR_INVALIDDATA, "packet header: %s",
                           b->overrun ? "truncated in a code-block's missing bit-planes" :
                                        "more than 74 missing bit-planes in a code-block");
        /* With the max-shift ROI (Annex H) a code-block has up to Mb + s bit-planes,
         * P counting from the top of them (as OpenJPEG reads it): one of background
         * alone misses more than Mb (conformance stream p0_06). */
        cb->coded_planes = band->mb + comp->roi_shift - pb->zero_planes.nodes[i].value;
        cb->included = 1;
    }
    passes = read_pass_count(b);
    while (j2k_bits_read_bit(b)) {      /* B.10.7.1: Lblock increments, a comma code */
        if (++cb->len_bits > 32 || b->overrun)
            return gj_fail(GJ_ERROR_INVALIDDATA, "packet header: Lblock %d", cb->len_bits);
    }
    if (cb->last_seg < 0 || ts->segs[cb->last_seg].passes == ts->segs[cb->last_seg].max_passes)
        if ((ret = new_segment(ts, cb, style)) < 0)
            return ret;
    while (passes > 0) {
        j2k_segment *seg = &ts->segs[cb->last_seg];
        int room = seg->max_passes - seg->passes;
        int n = passes < room ? passes : room;
        int bits = cb->len_bits + floor_log2((unsigned)n);

        if (bits > 32)
            return gj_fail(GJ_ERROR_INVALIDDATA, "packet header: %d-bit code-block length", bits);
        if ((ret = add_pending(pr, index, cb->last_seg, n, j2k_bits_read(b, bits))) < 0)
            return ret;
        /* Reserve the passes now so the next segment starts where this one ends. */
        seg->passes = (uint16_t)(seg->passes + n);
        passes -= n;
        if (passes > 0 && (ret = new_segment(ts, cb, style)) < 0)
            return ret;
    }
    return 0;
}

/* The code-blocks of one precinct-band in a packet header, in raster order (B.10.4). */
static int read_band_header(packet_reader *pr, j2k_precinct_band *pb, const j2k_band *band,
                            const j2k_component *comp, int layer)
{
    int ret;

    for (int y = 0; y < pb->ch; y++)
        for (int x = 0; x < pb->cw; x++) {
            if ((ret = read_codeblock_header(pr, pb, band, comp, x, y, layer)) < 0)
                return ret;
            /* None of the band's code-blocks in this layer nor before: the rest read
             * no bits (most precincts of a DCI 4K picture's high resolutions) */
            if (!pb->included && j2k_tag_tree_none_below(&pb->inclusion, layer + 1))
                return 0;
        }
    return 0;
}

static int skip_marker(const uint8_t *p, size_t size, size_t *pos, unsigned marker, size_t length)
{
    if (size - *pos >= length && p[*pos] == 0xFF && p[*pos + 1] == (marker & 0xFF)) {
        *pos += length;
        return 1;
    }
    return 0;
}

/* B.9-B.10: one packet; pr->pend collects its code-block contributions. */
static int read_packet(packet_reader *pr, const packet_id *id, int layer)
{
    j2k_tile_state *ts = pr->ts;
    const j2k_tile *t = ts->tile;
    j2k_resolution *res = &ts->comps[id->comp].res[id->res];
    const j2k_component *comp = &t->comps[id->comp];
    j2k_bits *b = &pr->header;
    int keep = layer < pr->max_layers;
    size_t k;
    int ret;

    pr->nb_pend = 0;
    /* SOP (A.8.1) precedes the packet in the body. */
    if (t->cod.sop)
        skip_marker(pr->body, pr->body_size, &pr->body_pos, 0xFF91, 6);
    if (!pr->packed_headers)
        j2k_bits_init(b, pr->body + pr->body_pos, pr->body_size - pr->body_pos);
    if (j2k_bits_read_bit(b)) {         /* B.10.3: a packet with content */
        for (int band = 0; band < res->nb_bands; band++)
            if ((ret = read_band_header(pr, j2k_precinct_band_at(res, id->prec, band), &res->bands[band],
                                        comp, layer)) < 0)
                return ret;
    }
    j2k_bits_align(b);
    if (b->overrun) {
        ts->truncated = 1;
        return 0;
    }
    if (pr->packed_headers) {
        if (t->cod.eph)
            skip_marker(b->data, b->size, &b->pos, 0xFF92, 2);
    } else {
        pr->body_pos += b->pos;
        if (t->cod.eph)
            skip_marker(pr->body, pr->body_size, &pr->body_pos, 0xFF92, 2);
    }
    for (k = 0; k < pr->nb_pend; k++) {
        pending *pd = &pr->pend[k];
        j2k_codeblock *cb = &ts->cblks[pd->cblk];
        j2k_segment *seg = &ts->segs[pd->seg];
        uint32_t len = pd->length;

        if (pr->body_size - pr->body_pos < len) {
            /* Truncated: keep what is there of this code-block (as OpenJPEG does). */
            len = (uint32_t)(pr->body_size - pr->body_pos);
            ts->truncated = 1;
        }
        if (keep && len) {
            if ((ret = add_chunk(ts, cb, (uint32_t)pr->body_pos, len)) < 0)
                return ret;
            seg->length += len;
            cb->bytes += len;
        }
        /* Skipped layers keep their passes in the segment: later packet headers split
         * the passes into segments (bypass, termall) counting them. */
        if (keep)
            cb->passes += pd->passes;
        pr->body_pos += len;
        if (ts->truncated)
            break;
    }
    return 0;
}

/* --------------------------------------------------------------- progression (B.12) */

/*
 * The sort key of a packet in the position-driven orders: the loops of B.12.1.3-B.12.1.5
 * meet precinct p of (c, r) where it starts on the reference grid.
 */
static void position_key(const j2k_tile_state *ts, const j2k_component *comp, int order, packet_id *id)
{
    const j2k_resolution *res = &ts->comps[id->comp].res[id->res];
    int level = comp->coding.levels - id->res;
    int64_t px = ((int64_t)(res->x0 >> res->prec_w_exp) + id->prec % res->pw) << res->prec_w_exp;
    int64_t py = ((int64_t)(res->y0 >> res->prec_h_exp) + id->prec / res->pw) << res->prec_h_exp;
    /* The first precinct starts before an unaligned tile: the loops meet it at the tile's edge. */
    int64_t x = px < res->x0 ? ts->x0 : (px * comp->dx) << level;
    int64_t y = py < res->y0 ? ts->y0 : (py * comp->dy) << level;
    int64_t c = id->comp, r = id->res;

    switch (order) {
    case J2K_RPCL: id->key[0] = r; id->key[1] = y; id->key[2] = x; id->key[3] = c; break;
    case J2K_PCRL: id->key[0] = y; id->key[1] = x; id->key[2] = c; id->key[3] = r; break;
    default:       id->key[0] = c; id->key[1] = y; id->key[2] = x; id->key[3] = r; break;
    }
}

static int compare_packets(const void *pa, const void *pb)
{
    const packet_id *a = pa, *b = pb;

    for (int i = 0; i < 4; i++)
        if (a->key[i] != b->key[i])
            return a->key[i] < b->key[i] ? -1 : 1;
    return 0;
}

static int decode_one(packet_reader *pr, const packet_id *id, int layer)
{
    j2k_tile_state *ts = pr->ts;
    const j2k_resolution *res = &ts->comps[id->comp].res[id->res];
    uint8_t *done = &ts->packet_done[res->packet_base + (size_t)id->prec * ts->tile->cod.layers + layer];
    int ret;

    if (*done || ts->truncated)
        return 0;
    *done = 1;
    if ((ret = read_packet(pr, id, layer)) < 0 || ts->truncated || !pr->watch)
        return ret;
    return pr->watch->packet(pr->watch->opaque, ts, id->comp, id->res, layer);
}

static int append_packet(packet_id **list, size_t *n, size_t *cap, packet_id id)
{
    if (*n == *cap) {
        size_t grown = *cap ? 2 * *cap : 256;
        packet_id *q = realloc(*list, grown * sizeof(*q));

        if (!q)
            return GJ_ERROR_NOMEM;
        *list = q;
        *cap = grown;
    }
    (*list)[(*n)++] = id;
    return 0;
}

/*
 * The packets of one progression volume, in its order. Only the precincts that
 * exist are listed, and the walk ends at the first truncated packet: every packet
 * it meets then either was read before or takes at least one byte, so a hostile
 * header (65535 layers over empty resolutions, say) costs no more than its data.
 */
static int decode_volume(packet_reader *pr, const j2k_progression_volume *v)
{
    j2k_tile_state *ts = pr->ts;
    const j2k_tile *t = ts->tile;
    int position = v->order != J2K_LRCP && v->order != J2K_RLCP;
    int ret = 0;
    packet_id *list = NULL;
    size_t n = 0, cap = 0, i, j;

    /* Resolution-major, as the layer- and resolution-driven orders meet them. */
    for (int r = v->res_start; r < v->res_end && ret >= 0; r++) {
        for (int c = v->comp_start; c < v->comp_end && ret >= 0; c++) {
            const j2k_resolution *res = &ts->comps[c].res[r];

            if (r >= ts->comps[c].nb_res)
                continue;
            for (int p = 0; p < res->pw * res->ph && ret >= 0; p++) {
                packet_id id = { .comp = c, .res = r, .prec = p };

                if (position)
                    position_key(ts, &t->comps[c], v->order, &id);
                ret = append_packet(&list, &n, &cap, id);
            }
        }
    }
    if (ret < 0) {
        free(list);
        return ret;
    }
#define WALKING (ret >= 0 && !ts->truncated)
    if (v->order == J2K_LRCP) {
        for (int l = 0; l < v->layer_end && WALKING; l++)
            for (i = 0; i < n && WALKING; i++)
                ret = decode_one(pr, &list[i], l);
    } else if (v->order == J2K_RLCP) {
        for (i = 0; i < n && WALKING; i = j) {
            for (j = i; j < n && list[j].res == list[i].res; j++)
                ;
            for (int l = 0; l < v->layer_end && WALKING; l++)
                for (size_t k = i; k < j && WALKING; k++)
                    ret = decode_one(pr, &list[k], l);
        }
    } else if (n) {
        qsort(list, n, sizeof(*list), compare_packets);
        for (i = 0; i < n && WALKING; i++)
            for (int l = 0; l < v->layer_end && WALKING; l++)
                ret = decode_one(pr, &list[i], l);
    }
#undef WALKING
    free(list);
    return ret;
}

int j2k_t2_decode_tile(j2k_tile_state *ts, int max_layers, const j2k_t2_watch *watch)
{
    static const uint8_t empty[1];
    const j2k_tile *t = ts->tile;
    packet_reader pr = { .ts = ts, .max_layers = max_layers, .watch = watch };
    j2k_progression_volume volumes[J2K_MAX_POC];
    int nb = t->nb_poc, i, ret = 0, max_res = 0;

    for (i = 0; i < ts->nb_comps; i++)
        if (ts->comps[i].nb_res > max_res)
            max_res = ts->comps[i].nb_res;
    if (nb) {
        memcpy(volumes, t->poc, sizeof(volumes[0]) * (size_t)nb);
    } else {
        volumes[0] = (j2k_progression_volume){ 0, 0, t->cod.layers, max_res, ts->nb_comps, t->cod.order };
        nb = 1;
    }
    /* A tile without data (cut off) reads as empty. */
    pr.body = t->data.data ? t->data.data : empty;
    pr.body_size = t->data.size;
    pr.packed_headers = t->has_packed_headers;
    if (pr.packed_headers)
        j2k_bits_init(&pr.header, t->ppt.data ? t->ppt.data : empty, t->ppt.size);
    for (i = 0; i < nb && ret >= 0 && !ts->truncated; i++) {
        j2k_progression_volume v = volumes[i];

        if (v.layer_end > t->cod.layers)
            v.layer_end = t->cod.layers;
        if (v.res_end > max_res)
            v.res_end = max_res;
        if (v.comp_end > ts->nb_comps)
            v.comp_end = ts->nb_comps;
        if (v.res_start >= v.res_end || v.comp_start >= v.comp_end || v.layer_end <= 0)
            continue;
        ret = decode_volume(&pr, &v);
    }
    free(pr.pend);
    if (ret >= 0 && ts->truncated)
        gj_log(GJ_LOG_WARNING, "tile %d: the packets end early (truncated codestream); decoding what is there",
               ts->index);
    return ret;
}
