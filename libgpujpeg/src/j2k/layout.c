/*
 * From the tiles' T2 state to the kernels' tables: every code-block with its
 * segments and joined data (T1), the IDWT's jobs level by level, and the output
 * stage's tiles. Each tile-component's coefficients occupy one rectangle of the
 * coefficient buffer in the sub-band layout of T.800 F.3.3 (the lower resolution
 * in the top-left corner, then HL, LH, HH around it).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "j2k/array.h"
#include "j2k/coef_range.h"
#include "j2k/layout.h"
#include "log.h"
#include "gpujpeg/common.h"

#define GROW(l, arr, count, cap, extra) J2K_GROW((l)->arr, (l)->count, (l)->cap, extra)

/* Each tile-component's stored 9/7 fractions by level (coef_range.h's frac[]), `stride` apart. */
typedef struct j2k_fractions {
    int *bits;
    int stride;
} j2k_fractions;

static int *fractions_of(const j2k_fractions *f, const gj_j2k_stream *s, int t, int c)
{
    return f->bits + ((size_t)t * (size_t)s->nb_comps + (size_t)c) * (size_t)f->stride;
}

/* The code-block's segments and bytes, in order, into the tables. */
static int add_data(j2k_layout *l, const j2k_tile_state *ts, const j2k_codeblock *cb, gj_j2k_cblk *d)
{
    int ret;

    if (l->bodies_direct) {
        /* One piece in a tile body that is uploaded whole (see direct_bodies()). */
        d->data_offset = (gj_u32)(l->body_base + (cb->first_chunk >= 0 ? ts->chunks[cb->first_chunk].offset : 0));
    } else {
        if (l->data_size + cb->bytes > UINT32_MAX)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: more than 4 GiB of code-block data");
        if ((ret = GROW(l, data, data_size, data_cap, cb->bytes)) < 0)
            return ret;
        d->data_offset = (gj_u32)l->data_size;
        for (int32_t c = cb->first_chunk; c >= 0; c = ts->chunks[c].next) {
            memcpy(l->data + l->data_size, ts->tile->data.data + ts->chunks[c].offset, ts->chunks[c].length);
            l->data_size += ts->chunks[c].length;
        }
    }
    d->seg_first = (gj_u32)l->nb_segments;
    /* The segments' passes count those of skipped layers and of a truncated tail (t2.c):
     * only the received ones, cb->passes, go to T1. */
    for (int32_t s = cb->first_seg, left = cb->passes; s >= 0 && left > 0; s = ts->segs[s].next) {
        const j2k_segment *seg = &ts->segs[s];
        int passes = seg->passes < left ? seg->passes : left;

        if (!passes)
            continue;
        if (seg->length >= (1u << 24))
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: a %u-byte code-block segment", seg->length);
        if ((ret = GROW(l, segments, nb_segments, segments_cap, 1)) < 0)
            return ret;
        l->segments[l->nb_segments++] = (uint32_t)passes << 24 | seg->length;
        d->seg_count++;
        left -= passes;
    }
    return 0;
}

/*
 * Whether T1's data can be the tile bodies themselves, uploaded as they are: every
 * tile in one tile-part (its body points into the input, which outlives the upload)
 * and every code-block's bytes in one piece (one layer, or one layer kept). Then a
 * 4K picture's megabytes are not copied on the host; the packet headers between the
 * pieces go along (a few per cent). Else the pieces are joined into l->data.
 */
static int direct_bodies(const gj_j2k_stream *s, const j2k_tile_state *tiles)
{
    uint64_t total = 0;

    for (int t = 0; t < s->tiles_x * s->tiles_y; t++) {
        const j2k_tile_state *ts = &tiles[t];

        if (ts->tile->data.capacity)
            return 0;
        total += ts->tile->data.size;
        for (int i = 0; i < ts->nb_cblks; i++)
            if (ts->cblks[i].first_chunk >= 0 && ts->chunks[ts->cblks[i].first_chunk].next >= 0)
                return 0;
    }
    return total <= UINT32_MAX;
}

/* What T1 takes alike for every code-block of a band (their places and passes differ). */
static gj_j2k_cblk band_model(const j2k_component *comp, const j2k_band *band, uint32_t stride, int fraction)
{
    gj_j2k_cblk m = { 0 };

    m.stride = stride;
    m.orientation = (gj_u8)band->orientation;
    m.style = (gj_u8)comp->coding.cblk_style;
    m.roi_shift = (gj_u8)comp->roi_shift;
    if (!comp->coding.reversible) {
        m.step_mult = 2048u + (gj_u32)band->mantissa;
        m.step_shift = comp->precision + band->log2_gain - band->exponent - 12 + fraction;
    }
    return m;
}

/* Where code-block cb's entry goes: the tables', or the early launch's place list. NULL: no memory. */
static gj_j2k_cblk *codeblock_entry(j2k_layout *l, const j2k_codeblock *cb)
{
    if (cb->early) {
        /* Its T1 ran early: described for gj_j2k_t1_place, which takes no data. */
        if (J2K_GROW(l->placed, 0, l->placed_cap, cb->early) < 0)
            return NULL;
        l->nb_placed = gj_max(l->nb_placed, (size_t)cb->early);
        return &l->placed[cb->early - 1];
    }
    if (GROW(l, cblks, nb_cblks, cblks_cap, 1) < 0)
        return NULL;
    return &l->cblks[l->nb_cblks++];
}

/* Entry d of a code-block of band at place: the band's model, its coefficients and size. */
static inline int place_codeblock(gj_j2k_cblk *d, const gj_j2k_cblk *model, const j2k_band *band,
                                  const j2k_rect *place, uint32_t offset)
{
    *d = *model;
    d->coef_offset = offset + (uint32_t)(band->mallat_y + place->y0 - band->y0) * model->stride +
                     (uint32_t)(band->mallat_x + place->x0 - band->x0);
    d->width = (gj_u16)(place->x1 - place->x0);
    d->height = (gj_u16)(place->y1 - place->y0);
    if (GJ_J2K_T1_WORDS_OF(d->width, d->height) > GJ_J2K_T1_WORDS)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: a %ux%u code-block", d->width, d->height);
    return 0;
}

/* The coded passes of code-block cb into its entry d, and its data unless its T1 ran early. */
static int add_passes(j2k_layout *l, const j2k_tile_state *ts, const j2k_codeblock *cb, gj_j2k_cblk *d)
{
    int planes = cb->coded_planes;

    if (!cb->passes || planes <= 0)
        return 0;       /* nothing coded: zeros */
    if (planes > 30 || d->roi_shift > 30)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %d bit-planes in a code-block", planes);
    d->planes = (gj_u8)planes;
    d->passes = (gj_u16)(cb->passes > 0xFFFF ? 0xFFFF : cb->passes);
    return cb->early ? 0 : add_data(l, ts, cb, d);
}

int j2k_layout_add_early(j2k_layout *l, const j2k_tile_state *ts, int c, const j2k_band *band,
                         const j2k_codeblock *cb, j2k_rect place, uint32_t coef_offset)
{
    gj_j2k_cblk model = band_model(&ts->tile->comps[c], band, 0, 0), *d;
    int ret;

    if (!(d = codeblock_entry(l, cb)))
        return GJ_ERROR_NOMEM;
    if ((ret = place_codeblock(d, &model, band, &place, 0)) < 0 || (ret = add_passes(l, ts, cb, d)) < 0)
        return ret;
    d->coef_offset = coef_offset;
    d->stride = d->width;
    /* mag * 1 << 0: the magnitude itself (after the ROI shift), whatever the filter. */
    d->step_mult = 1;
    d->step_shift = 0;
    return 0;
}

/* The code-blocks of one precinct-band, in raster order. */
static int add_precinct_band(j2k_layout *l, const j2k_tile_state *ts, const j2k_component *comp,
                             const j2k_band *band, const j2k_precinct_band *pb, uint32_t offset, uint32_t stride,
                             int fraction)
{
    gj_j2k_cblk model = band_model(comp, band, stride, fraction), *d;
    int step, ret;
    const j2k_codeblock *cb = j2k_precinct_band_cblks(ts, pb, &step);

    /* Room for all: only the code-blocks of the early launch go elsewhere. */
    if ((ret = GROW(l, cblks, nb_cblks, cblks_cap, (size_t)pb->cw * pb->ch)) < 0)
        return ret;
    for (int y = 0; y < pb->ch; y++)
        for (int x = 0; x < pb->cw; x++, cb += step) {
            j2k_rect place = j2k_codeblock_rect(pb, band, x, y);

            if (!(d = cb->early ? codeblock_entry(l, cb) : &l->cblks[l->nb_cblks++]))
                return GJ_ERROR_NOMEM;
            if ((ret = place_codeblock(d, &model, band, &place, offset)) < 0 ||
                (cb->passes && (ret = add_passes(l, ts, cb, d)) < 0))
                return ret;
        }
    return 0;
}

/* The code-blocks of resolutions 0..top of one tile-component. */
static int add_tile_component(j2k_layout *l, const j2k_tile_state *ts, int c, int top, uint32_t offset,
                              const int *frac)
{
    const j2k_tile_component *tc = &ts->comps[c];
    const j2k_component *comp = &ts->tile->comps[c];
    uint32_t stride = (uint32_t)(tc->res[top].x1 - tc->res[top].x0);
    int ret;

    for (int r = 0; r <= top; r++) {
        const j2k_resolution *res = &tc->res[r];

        for (int p = 0; p < res->pw * res->ph; p++)
            for (int b = 0; b < res->nb_bands; b++)
                if ((ret = add_precinct_band(l, ts, comp, &res->bands[b], j2k_precinct_band_at(res, p, b),
                                             offset, stride, frac[r])) < 0)
                    return ret;
    }
    return 0;
}

_Static_assert(offsetof(gj_j2k_dwt_job, column_group_first) == GJ_J2K_DWT_JOB_COLUMN_GROUP * 4,
               "gj_j2k_idwt_columns finds its job by column_group_first");

/* Whether a column of this many samples takes the kernels of long columns, or the scratch (j2k_params.h). */
static int long_column(uint32_t samples)
{
    return samples > GJ_J2K_DWT_LINE / 4;
}

/*
 * The resolution that level `it` of max_levels brings tile-component tc to, below 1
 * while it has none to do: tile-components of fewer levels start later, so that all
 * finish together.
 */
static int level_resolution(const j2k_tile_component *tc, int it, int max_levels, int reduce)
{
    return it - (max_levels - (tc->nb_res - 1 - reduce)) + 1;
}

/* F.3.2: the level that brings resolution r-1 to resolution r, horizontal then vertical. */
static int add_dwt_job(j2k_layout *l, const j2k_tile_component *tc, int r, uint32_t offset, uint32_t stride,
                       int vertical, uint32_t shift_in, uint32_t shift_out, j2k_dwt_pass *pass)
{
    const j2k_resolution *res = &tc->res[r], *low = &tc->res[r - 1];
    gj_j2k_dwt_job *j;
    int ret, long_lines;

    if (res->x1 == res->x0 || res->y1 == res->y0)
        return 0;
    if ((ret = GROW(l, jobs, nb_jobs, jobs_cap, 1)) < 0)
        return ret;
    j = &l->jobs[l->nb_jobs++];
    j->thread_first = (gj_u32)pass->threads;
    j->group_first = (gj_u32)pass->groups;
    j->offset = offset;
    j->stride = stride;
    j->width = (gj_u32)(res->x1 - res->x0);
    j->height = (gj_u32)(res->y1 - res->y0);
    j->low_count = (gj_u32)(vertical ? low->y1 - low->y0 : low->x1 - low->x0);
    j->parity = (gj_u32)((vertical ? res->y0 : res->x0) & 1);
    j->vertical = (gj_u32)vertical;
    /* Lines share a work-group as far as its local memory holds them; long columns
     * take the pass to the kernels that hold more, rows take gj_j2k_idwt_rows (j2k_params.h). */
    long_lines = vertical && long_column(j->height);
    if (vertical)
        j->lines = gj_max(1u, gj_min(GJ_J2K_DWT_LINES,
                                     (long_lines ? GJ_J2K_DWT_LONG_LINE : GJ_J2K_DWT_LINE) / j->height));
    else
        j->lines = gj_max(1u, GJ_J2K_DWT_ROW_LINES(j->width));
    pass->long_lines |= long_lines;
    j->shift_in = shift_in;
    j->shift_out = shift_out;
    /* The scratch holds the pass's regions one after another, rows width apart, from 16-byte
     * boundaries (in the 16-bit width too: 8 samples); so does the other pass of the pair. */
    pass->scratch_bytes = (pass->scratch_bytes + 15) & ~(uint64_t)15;
    j->scratch_at = (gj_u32)(pass->scratch_bytes / (l->wide ? 4 : 2));
    pass->scratch_bytes += (uint64_t)j->width * j->height * (l->wide ? 4 : 2);
    j->column_group_first = (gj_u32)pass->column_groups;
    pass->column_groups += (uint64_t)((j->width + GJ_J2K_DWT_COLUMNS - 1) / GJ_J2K_DWT_COLUMNS) *
                           ((j->height + GJ_J2K_DWT_SEGMENT - 1) / GJ_J2K_DWT_SEGMENT);
    pass->threads += (uint64_t)j->width * j->height;
    pass->groups += ((vertical ? j->width : j->height) + j->lines - 1) / j->lines;
    pass->max_line = gj_max(pass->max_line, vertical ? j->height : j->width);
    pass->min_line = pass->count++ ? gj_min(pass->min_line, vertical ? j->height : j->width)
                                   : (vertical ? j->height : j->width);
    return 0;
}

/* Whether level `it` (of max_levels) has a column that the long kernels would take. */
static int level_long_columns(const gj_j2k_stream *s, const j2k_tile_state *tiles, int reduce, int it,
                              int max_levels)
{
    for (int t = 0; t < s->tiles_x * s->tiles_y; t++)
        for (int c = 0; c < s->nb_comps; c++) {
            const j2k_tile_component *tc = &tiles[t].comps[c];
            int r = level_resolution(tc, it, max_levels, reduce);

            if (r >= 1 && long_column((uint32_t)(tc->res[r].y1 - tc->res[r].y0)))
                return 1;
        }
    return 0;
}

/*
 * The IDWT passes. Tile-components may have different numbers of levels: all
 * finish together, each starting when the levels left equal its own.
 */
static int add_dwt_passes(j2k_layout *l, const gj_j2k_stream *s, const j2k_tile_state *tiles,
                          const uint32_t *offsets, const j2k_fractions *fractions, int reduce)
{
    int nb_tiles = s->tiles_x * s->tiles_y, max_levels = 0, ret;

    for (int t = 0; t < nb_tiles; t++)
        for (int c = 0; c < s->nb_comps; c++)
            if (tiles[t].comps[c].nb_res - 1 - reduce > max_levels)
                max_levels = tiles[t].comps[c].nb_res - 1 - reduce;
    for (int it = 0; it < max_levels; it++) {
        /* A level of long columns goes a component at a time, each step's pair (horizontal, then
         * vertical) over the same jobs: one component's regions fit a scratch in the picture's
         * memory where all of them would not (j2k_params.h). Pictures of many components keep
         * one pass a step (their launches would multiply). */
        int pieces = s->nb_comps <= GJ_J2K_MAX_OUT_COMPS && level_long_columns(s, tiles, reduce, it, max_levels)
                     ? s->nb_comps : 0;

        for (int piece = 0; piece < gj_max(pieces, 1); piece++) {
            for (int step = 0; step < 4; step++) {
                /* in pieces, each filter's pair in turn; else every horizontal step first */
                int vertical = pieces ? step & 1 : step >> 1, irreversible = pieces ? step >> 1 : step & 1;
                j2k_dwt_pass pass = { .first = (uint32_t)l->nb_jobs, .irreversible = irreversible,
                                      .vertical = vertical, .scratch_pair = pieces > 0 };

                for (int t = 0; t < nb_tiles; t++)
                    for (int c = pieces ? piece : 0; c < (pieces ? piece + 1 : s->nb_comps); c++) {
                        const j2k_tile_component *tc = &tiles[t].comps[c];
                        int r = level_resolution(tc, it, max_levels, reduce), top = tc->nb_res - 1 - reduce;
                        const j2k_component *comp = &tiles[t].tile->comps[c];
                        const int *frac = fractions_of(fractions, s, t, c);
                        /* 9/7 in 16 bits: the level's inputs in its fraction, a vertical step's output in the next's. */
                        int most = comp->coding.reversible ? 0 : GJ_J2K_FRAC_BITS(comp->precision);

                        if (r < 1 || tiles[t].tile->comps[c].coding.reversible == irreversible)
                            continue;
                        if (pass.threads > UINT32_MAX)
                            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: picture too large");
                        if ((ret = add_dwt_job(l, tc, r, offsets[t * s->nb_comps + c],
                                               (uint32_t)(tc->res[top].x1 - tc->res[top].x0), vertical,
                                               (uint32_t)(most - frac[r]),
                                               (uint32_t)(most - frac[vertical ? r + 1 : r]), &pass)) < 0)
                            return ret;
                    }
                if (!pass.count)
                    continue;
                if ((ret = GROW(l, passes, nb_passes, passes_cap, 1)) < 0)
                    return ret;
                l->passes[l->nb_passes++] = pass;
                if (pass.max_line > GJ_J2K_DWT_LINE)
                    l->dwt_in_place = 0;
            }
        }
    }
    return 0;
}

/* Where component c's samples start on its own grid at 1/2^reduce (B-12, B-14). */
static uint32_t component_origin(uint32_t x0, int d, int reduce)
{
    return j2k_ceil_div(x0, (uint64_t)d << reduce);
}

/* The output stage's tiles, positioned in the reduced picture of component 0's grid. */
static int add_out_tiles(j2k_layout *l, const gj_j2k_stream *s, const j2k_tile_state *tiles,
                         const uint32_t *offsets, const j2k_fractions *fractions, int reduce)
{
    const j2k_component *c0 = &s->comps[0];
    uint32_t ox = component_origin(s->x0, c0->dx, reduce), oy = component_origin(s->y0, c0->dy, reduce);
    int nb_tiles = s->tiles_x * s->tiles_y, nc = l->out.nb_comps, ret;

    for (int t = 0; t < nb_tiles; t++) {
        const j2k_tile_state *ts = &tiles[t];
        const j2k_resolution *top = &ts->comps[0].res[ts->comps[0].nb_res - 1 - reduce];
        gj_j2k_out_tile *o;

        if (top->x1 == top->x0 || top->y1 == top->y0)
            continue;
        if ((ret = GROW(l, out_tiles, nb_out_tiles, out_tiles_cap, 1)) < 0)
            return ret;
        o = &l->out_tiles[l->nb_out_tiles++];
        memset(o, 0, sizeof(*o));
        o->thread_first = (gj_u32)l->out_threads;
        o->x0 = (gj_u32)top->x0 - ox;
        o->y0 = (gj_u32)top->y0 - oy;
        o->width = (gj_u32)(top->x1 - top->x0);
        o->height = (gj_u32)(top->y1 - top->y0);
        /* G.2, G.3: components 0-2 of one size, as OpenJPEG (host_decode.c warns of the others). */
        o->mct = (gj_u32)ts->tile->cod.mct && (l->out.read_mask & 7u) == 7u;
        for (int c = 0; c < nc; c++) {
            const j2k_tile_component *tc = &ts->comps[c];
            const j2k_resolution *rc = &tc->res[tc->nb_res - 1 - reduce];

            o->coef_offset[c] = offsets[t * s->nb_comps + c];
            o->stride[c] = (gj_u32)(rc->x1 - rc->x0);
            o->frac_bits[c] = ts->tile->comps[c].coding.reversible ? 0 :
                              (gj_u32)fractions_of(fractions, s, t, c)[tc->nb_res - reduce];
        }
        l->out_threads += GJ_J2K_OUT_THREADS(o->width, o->height);
        if (l->out_threads > UINT32_MAX)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: picture too large");
    }
    return 0;
}

/* The planar output stage's jobs: every tile of each plane's component, plane after plane. */
static int add_plane_jobs(j2k_layout *l, const gj_j2k_stream *s, const j2k_tile_state *tiles,
                          const uint32_t *offsets, const j2k_fractions *fractions, int reduce)
{
    int nb_tiles = s->tiles_x * s->tiles_y, ret;

    for (size_t p = 0; p < l->nb_planes; p++) {
        j2k_out_plane *plane = &l->planes[p];
        int c = plane->comp;
        const j2k_component *comp = &s->comps[c];
        uint32_t ox = component_origin(s->x0, comp->dx, reduce), oy = component_origin(s->y0, comp->dy, reduce);

        plane->first = (uint32_t)l->nb_plane_jobs;
        plane->threads = 0;
        for (int t = 0; t < nb_tiles && !plane->interleaved; t++) {
            const j2k_tile_component *tc = &tiles[t].comps[c];
            const j2k_resolution *top = &tc->res[tc->nb_res - 1 - reduce];
            gj_j2k_plane_job *j;

            if (top->x1 == top->x0 || top->y1 == top->y0)
                continue;
            if ((ret = GROW(l, plane_jobs, nb_plane_jobs, plane_jobs_cap, 1)) < 0)
                return ret;
            j = &l->plane_jobs[l->nb_plane_jobs++];
            j->thread_first = (gj_u32)plane->threads;
            j->x0 = (gj_u32)top->x0 - ox;
            j->y0 = (gj_u32)top->y0 - oy;
            j->width = (gj_u32)(top->x1 - top->x0);
            j->height = (gj_u32)(top->y1 - top->y0);
            j->coef_offset = offsets[t * s->nb_comps + c];
            j->stride = j->width;
            j->frac_bits = tiles[t].tile->comps[c].coding.reversible ? 0 :
                           (gj_u32)fractions_of(fractions, s, t, c)[tc->nb_res - reduce];
            plane->threads += GJ_J2K_OUT_THREADS(j->width, j->height);
        }
        plane->count = (uint32_t)(l->nb_plane_jobs - plane->first);
    }
    return 0;
}

/* Most coding passes first, so that a warp's threads do alike work and the longest start first. */
static int compare_work(const void *pa, const void *pb)
{
    const gj_j2k_cblk *a = pa, *b = pb;

    if (a->passes != b->passes)
        return a->passes > b->passes ? -1 : 1;
    return a->coef_offset < b->coef_offset ? -1 : a->coef_offset > b->coef_offset;
}

/*
 * compare_work's order (coefficient offsets are unique per code-block) by an LSD
 * radix sort of 64-bit keys: passes inverted, offset, the code-block's index in the
 * low 16 bits. qsort of the 36-byte entries took a fifth of a 4K picture's host time.
 */
static int sort_by_work(j2k_layout *l)
{
    size_t n = l->nb_cblks;
    uint64_t *keys, *tmp;

    if (n < 2)                  /* nothing to order; the digit check below reads keys[0] */
        return 0;
    if (n > 65536) {            /* the index would not fit the key */
        qsort(l->cblks, n, sizeof(*l->cblks), compare_work);
        return 0;
    }
    if (n > l->sort_cap) {
        uint64_t *k = realloc(l->sort_keys, 2 * n * sizeof(*k));
        gj_j2k_cblk *c;

        if (!k)
            return GJ_ERROR_NOMEM;
        l->sort_keys = k;
        if (!(c = realloc(l->sort_cblks, n * sizeof(*c))))
            return GJ_ERROR_NOMEM;
        l->sort_cblks = c;
        l->sort_cap = n;
    }
    keys = l->sort_keys;
    tmp = keys + n;
    for (size_t i = 0; i < n; i++)
        keys[i] = ((uint64_t)(0xFFFFu - l->cblks[i].passes) << 32 | l->cblks[i].coef_offset) << 16 | i;
    /* Byte digits of bits 16..63 (the index bits are unique: no pass for them). */
    for (int shift = 16; shift < 64; shift += 8) {
        size_t count[256] = { 0 }, sum = 0;
        uint64_t *t;

        for (size_t i = 0; i < n; i++)
            count[(keys[i] >> shift) & 0xFF]++;
        if (count[(keys[0] >> shift) & 0xFF] == n)
            continue;           /* one digit for all: the order stands */
        for (int d = 0; d < 256; d++) {
            size_t c = count[d];

            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(keys[i] >> shift) & 0xFF]++] = keys[i];
        t = keys;
        keys = tmp;
        tmp = t;
    }
    for (size_t i = 0; i < n; i++)
        l->sort_cblks[i] = l->cblks[keys[i] & 0xFFFF];
    memcpy(l->cblks, l->sort_cblks, n * sizeof(*l->cblks));
    return 0;
}

int j2k_layout_sort_by_work(j2k_layout *l)
{
    return sort_by_work(l);
}

/* Debug: tile 0's fractions, by component (tiled pictures would give a line per tile). */
static void log_fractions(const j2k_layout *l, const gj_j2k_stream *s, const j2k_tile_state *tiles, int reduce,
                          const j2k_fractions *fractions)
{
    if (!gj_log_wanted(GJ_LOG_DEBUG))
        return;
    for (int c = 0; c < s->nb_comps && !l->wide; c++) {
        const int *frac = fractions_of(fractions, s, 0, c);
        char text[J2K_MAX_RESOLUTIONS * 4 + 8];
        size_t at = 0;

        if (tiles[0].tile->comps[c].coding.reversible)
            continue;
        for (int r = 0; r <= tiles[0].comps[c].nb_res - reduce && at + 4 < sizeof(text); r++)
            at += (size_t)snprintf(text + at, sizeof(text) - at, " %d", frac[r]);
        gj_log(GJ_LOG_DEBUG, "J2K: component %d's 16-bit fractions, LL_0 to the picture:%s (%s bound)", c, text,
               l->worst_case ? "worst-case" : "optimistic");
    }
}

/*
 * The coefficients' width (16 bits where coef_range.c's bound allows it for every
 * tile-component, else 32) and each tile-component's stored 9/7 fractions:
 * optimistic ones unless l->worst_case, l->optimistic set where they exceed the
 * worst case's somewhere (the decode must then check the IDWT's stores).
 */
static int choose_width(j2k_layout *l, const gj_j2k_stream *s, const j2k_tile_state *tiles, int reduce,
                        j2k_fractions *fractions)
{
    int nb_tiles = s->tiles_x * s->tiles_y, ret;

    l->wide = l->force_wide;
    l->optimistic = 0;
    for (int t = 0; t < nb_tiles; t++)
        for (int c = 0; c < s->nb_comps; c++) {
            const j2k_tile_component *tc = &tiles[t].comps[c];
            int top = tc->nb_res - 1 - reduce;

            if (top < 0)
                return gj_fail(GJ_ERROR_INVAL, "reduce %d: component %d of tile %d has %d decomposition levels",
                               reduce, c, t, tc->nb_res - 1);
            /* Lines too long for gj_j2k_idwt_lines take the two-buffer kernels, which are 32-bit. */
            if (tc->res[top].x1 - tc->res[top].x0 > GJ_J2K_DWT_LINE ||
                tc->res[top].y1 - tc->res[top].y0 > GJ_J2K_DWT_LINE)
                l->wide = 1;
            if ((ret = j2k_coef_fractions(&tiles[t], c, top, !l->worst_case, fractions_of(fractions, s, t, c))) < 0)
                l->wide = 1;
            l->optimistic |= ret > 0;
        }
    if (l->wide) {
        l->optimistic = 0;
        for (int t = 0; t < nb_tiles; t++)
            for (int c = 0; c < s->nb_comps; c++) {
                const j2k_component *comp = &tiles[t].tile->comps[c];
                int *frac = fractions_of(fractions, s, t, c);

                for (int r = 0; r < fractions->stride; r++)
                    frac[r] = comp->coding.reversible ? 0 : GJ_J2K_FRAC_BITS(comp->precision);
            }
    }
    log_fractions(l, s, tiles, reduce, fractions);
    return 0;
}

int j2k_layout_build(j2k_layout *l, const gj_j2k_stream *s, j2k_tile_state *tiles, int reduce)
{
    int nb_tiles = s->tiles_x * s->tiles_y, ret = 0, max_res = 1;
    j2k_fractions fractions;
    uint32_t *offsets;

    j2k_layout_reset(l);
    for (int t = 0; t < nb_tiles; t++)
        for (int c = 0; c < s->nb_comps; c++)
            max_res = gj_max(max_res, tiles[t].comps[c].nb_res);
    /* frac[0 .. top + 1] of every tile-component */
    fractions.stride = max_res + 1;
    offsets = malloc((size_t)nb_tiles * s->nb_comps * sizeof(*offsets));
    fractions.bits = malloc((size_t)nb_tiles * s->nb_comps * (size_t)fractions.stride * sizeof(*fractions.bits));
    if (!offsets || !fractions.bits) {
        free(offsets);
        free(fractions.bits);
        return GJ_ERROR_NOMEM;
    }
    ret = choose_width(l, s, tiles, reduce, &fractions);
    l->bodies_direct = direct_bodies(s, tiles);
    for (int t = 0; t < nb_tiles && ret >= 0; t++) {
        if (l->bodies_direct && tiles[t].tile->data.size) {
            if ((ret = GROW(l, runs, nb_runs, runs_cap, 1)) < 0)
                break;
            l->runs[l->nb_runs].data = tiles[t].tile->data.data;
            l->runs[l->nb_runs++].size = tiles[t].tile->data.size;
            l->body_base = l->data_size;
            l->data_size += tiles[t].tile->data.size;
        }
        for (int c = 0; c < s->nb_comps; c++) {
            const j2k_tile_component *tc = &tiles[t].comps[c];
            int top = tc->nb_res - 1 - reduce;
            const j2k_resolution *r = &tc->res[top];

            offsets[t * s->nb_comps + c] = (uint32_t)l->coef_count;
            l->coef_count += (size_t)(r->x1 - r->x0) * (size_t)(r->y1 - r->y0);
            if (l->coef_count >= UINT32_MAX) {
                ret = gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: more than 2^32 coefficients");
                break;
            }
            if ((ret = add_tile_component(l, &tiles[t], c, top, offsets[t * s->nb_comps + c],
                                          fractions_of(&fractions, s, t, c))) < 0)
                break;
        }
    }
    if (ret >= 0 && !l->bodies_direct && l->data_size) {
        if ((ret = GROW(l, runs, nb_runs, runs_cap, 1)) >= 0) {
            l->runs[l->nb_runs].data = l->data;
            l->runs[l->nb_runs++].size = l->data_size;
        }
    }
    /* Each code-block carries its own offsets: T1 may take them in any order. */
    if (ret >= 0 && !l->unsorted)
        ret = sort_by_work(l);
    if (ret >= 0)
        ret = add_dwt_passes(l, s, tiles, offsets, &fractions, reduce);
    if (ret >= 0 && l->planar)
        ret = add_plane_jobs(l, s, tiles, offsets, &fractions, reduce);
    if (ret >= 0 && j2k_layout_interleaved(l))
        ret = add_out_tiles(l, s, tiles, offsets, &fractions, reduce);
    free(offsets);
    free(fractions.bits);
    return ret;
}

void j2k_layout_reset(j2k_layout *l)
{
    l->nb_cblks = l->nb_segments = l->data_size = l->coef_count = l->nb_runs = l->nb_placed = 0;
    l->nb_jobs = l->nb_passes = l->nb_out_tiles = l->nb_plane_jobs = 0;
    l->dwt_in_place = 1;
    l->out_threads = 0;
}

void j2k_layout_free(j2k_layout *l)
{
    free(l->cblks);
    free(l->placed);
    free(l->sort_keys);
    free(l->sort_cblks);
    free(l->runs);
    free(l->segments);
    free(l->data);
    free(l->jobs);
    free(l->passes);
    free(l->out_tiles);
    free(l->plane_jobs);
    free(l->planes);
    free(l->palette);
    j2k_tile_cache_free(l->tile_cache);
    memset(l, 0, sizeof(*l));
}
