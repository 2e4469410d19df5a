/*
 * T1 before T2 ends (early.h). Which code-blocks: those of resolutions 0..top_res
 * of the first tile whose packets of those resolutions (every component, every
 * layer kept) T2 reads to the end; top_res is the highest resolution whose
 * coefficients (all components) stay within 1/EARLY_SHARE of the tile's, so that
 * the buffer of magnitudes stays small (4 bytes each). A 4K picture of five levels
 * sends resolutions 0 to 2 early, which hold its longest chains; the trigger
 * comes after a few per cent of the codestream in LRCP, RLCP and RPCL, late in
 * CPRL and PCRL (where it gains little but costs no more).
 */
#include <stdlib.h>
#include <string.h>

#include "j2k/array.h"
#include "j2k/early.h"
#include "j2k/t1_queue.h"
#include "log.h"

#define EARLY_SHARE 64
#define EARLY_GROUP 64

static int early_packet(void *opaque, j2k_tile_state *ts, int comp, int res, int layer);

void j2k_early_init(j2k_early *e, gj_device *dev, j2k_early_plane_fn plane, void *opaque)
{
    const char *env = getenv("GJ_J2K_EARLY");

    memset(e, 0, sizeof(*e));
    e->parent = dev;
    e->plane = plane;
    e->plane_opaque = opaque;
    e->enabled = !env || atoi(env) != 0;
    e->watch.packet = early_packet;
    e->watch.opaque = e;
}

/* Waits until the last launch ran: its tables are about to be reused. */
static int early_idle(j2k_early *e)
{
    int ret = e->count && e->dev ? e->dev->ops->finish(e->dev) : 0;

    if (e->region.handle)
        e->parent->ops->view_release(e->parent, &e->region);
    memset(&e->region, 0, sizeof(e->region));
    e->count = 0;
    return ret;
}

void j2k_early_free(j2k_early *e)
{
    early_idle(e);
    if (e->dev && e->dev != e->parent)
        gj_device_free(&e->dev);
    j2k_layout_free(&e->tables);
    free(e->blocks);
    memset(e, 0, sizeof(*e));
}

int j2k_early_begin(j2k_early *e, int reduce, int max_layers, const j2k_t2_watch **watch)
{
    int ret = early_idle(e);

    e->reduce = reduce;
    e->max_layers = max_layers ? max_layers : 65535;
    e->tile = -1;
    e->start_ms = gj_time_ms();
    e->launch_ms = 0;
    *watch = e->enabled ? &e->watch : NULL;
    return ret;
}

static uint64_t area(const j2k_resolution *r)
{
    return (uint64_t)(r->x1 - r->x0) * (uint64_t)(r->y1 - r->y0);
}

/* The decoded resolution of component c, or -1 when reduce leaves none (the layout refuses that). */
static int top_of(const j2k_early *e, const j2k_tile_state *ts, int c)
{
    return ts->comps[c].nb_res - 1 - e->reduce;
}

/* Starts watching tile ts: which resolutions go early and how many packets they wait for. */
static void watch_tile(j2k_early *e, const j2k_tile_state *ts)
{
    uint64_t total = 0;
    int layers = ts->tile->cod.layers < e->max_layers ? ts->tile->cod.layers : e->max_layers;

    e->tile = ts->index;
    e->top_res = -1;
    e->pending = 0;
    for (int c = 0; c < ts->nb_comps; c++) {
        if (top_of(e, ts, c) < 0)
            return;
        total += area(&ts->comps[c].res[top_of(e, ts, c)]);
    }
    /* A resolution's rectangle holds the lower ones' sub-bands: its area is theirs and its own. */
    for (int r = 0; r < J2K_MAX_RESOLUTIONS; r++) {
        uint64_t upto = 0;

        for (int c = 0; c < ts->nb_comps; c++)
            upto += area(&ts->comps[c].res[r < top_of(e, ts, c) ? r : top_of(e, ts, c)]);
        if (upto * EARLY_SHARE > total)
            break;
        e->top_res = r;
    }
    for (int c = 0; c < ts->nb_comps; c++)
        for (int r = 0; r <= e->top_res && r <= top_of(e, ts, c); r++)
            e->pending += (size_t)ts->comps[c].res[r].pw * (size_t)ts->comps[c].res[r].ph * (size_t)layers;
}

/* Lists the coded code-blocks of resolutions 0..top_res of ts into e->tables, by work. */
static int list_blocks(j2k_early *e, const j2k_tile_state *ts)
{
    uint64_t at = 0;
    int ret;

    j2k_layout_reset(&e->tables);
    for (int c = 0; c < ts->nb_comps; c++)
        for (int r = 0; r <= e->top_res && r <= top_of(e, ts, c); r++) {
            const j2k_resolution *res = &ts->comps[c].res[r];

            for (int p = 0; p < res->pw * res->ph; p++)
                for (int b = 0; b < res->nb_bands; b++) {
                    const j2k_precinct_band *pb = j2k_precinct_band_at(res, p, b);

                    if (!pb->included)
                        continue;   /* nothing coded (tile.h) */
                    for (int i = 0; i < pb->cw * pb->ch; i++) {
                        const j2k_codeblock *cb = &ts->cblks[pb->first_cblk + i];
                        size_t n = e->tables.nb_cblks;

                        /* Nothing coded: zeros, which the main launch writes as cheaply. */
                        if (!cb->passes || cb->coded_planes <= 0)
                            continue;
                        if ((ret = J2K_GROW(e->blocks, n, e->blocks_cap, 1)) < 0)
                            return ret;
                        e->blocks[n] = cb;      /* first: go() reads it back if the entry fails */
                        if ((ret = j2k_layout_add_early(&e->tables, ts, c, &res->bands[b], cb,
                                                        j2k_codeblock_rect(pb, &res->bands[b], i % pb->cw,
                                                                           i / pb->cw),
                                                        (uint32_t)n)) < 0)
                            return ret;
                    }
                }
        }
    /* The list index rides in coef_offset through the sort, then the magnitudes' places replace it. */
    if ((ret = j2k_layout_sort_by_work(&e->tables)) < 0)
        return ret;
    for (size_t k = 0; k < e->tables.nb_cblks; k++) {
        gj_j2k_cblk *d = &e->tables.cblks[k];

        if (at + (uint64_t)d->width * d->height > UINT32_MAX)
            return GJ_ERROR_UNSUPPORTED;
        ((j2k_codeblock *)e->blocks[d->coef_offset])->early = (uint32_t)k + 1;
        d->coef_offset = (uint32_t)at;
        at += (uint64_t)d->width * d->height;
    }
    e->coefs = at;
    return 0;
}

/*
 * Takes the end of the output picture's first plane (early.h), uploads the tables
 * there and queues T1 on the sibling. A plane too small, or one that cannot have
 * views (an OpenCL image), means no early launch.
 */
static int launch(j2k_early *e)
{
    uint64_t tables_at = j2k_align16(e->coefs * 4), segments_at, data_at, start, offset;
    size_t size = tables_at + j2k_t1_input_size(&e->tables, &segments_at, &data_at), at;
    gj_buffer plane;
    int ret;

    if ((ret = e->plane(e->plane_opaque, &plane, &start)) < 0)
        return ret;
    /* The view starts on the device's alignment at or after `offset`: room for that too. */
    if (plane.size < start + size + e->parent->view_align)
        return GJ_ERROR_UNSUPPORTED;
    offset = plane.size - size - e->parent->view_align;
    if ((ret = e->parent->ops->view_create(e->parent, &plane, offset, size, &e->region, &at)) < 0)
        return ret;
    e->region_at = at;
    /* A CPU device's launches share the decoder's queue: its kernels take every core
     * already, and PoCL 3.1's pthread driver trips an assertion in
     * pocl_release_dlhandle_cache when several queues run them at once (decode_batch.c). */
    if (!e->dev && !e->parent->desc.is_gpu)
        e->dev = e->parent;
    if (!e->dev && (ret = gj_dev_open_sibling(e->parent, &e->dev)) < 0)
        return ret;
    /* The magnitudes, 32-bit, at the region's start. */
    return j2k_t1_queue(e->dev, &e->region, tables_at, &e->tables, &e->region, 1);
}

/* T2 has read every packet of the early resolutions of ts: their code-blocks go. */
static void go(j2k_early *e, j2k_tile_state *ts)
{
    int ret;

    if ((ret = list_blocks(e, ts)) >= 0 && e->tables.nb_cblks && (ret = launch(e)) >= 0) {
        e->count = e->tables.nb_cblks;
        e->launch_ms = gj_time_ms();
        return;
    }
    /* Nothing launched: every code-block stays with the main launch, and the decode goes on
     * (a launch that failed half-way was queued on nothing the decode reads). */
    for (size_t k = 0; k < e->tables.nb_cblks; k++)
        ((j2k_codeblock *)e->blocks[k])->early = 0;
    if (e->region.handle)
        e->parent->ops->view_release(e->parent, &e->region);
    memset(&e->region, 0, sizeof(e->region));
    if (ret < 0)
        gj_log(GJ_LOG_DEBUG, "J2K: no early T1 launch (%s)", gj_strerror(ret));
}

/* t2.h's watch: counts the packets of the early resolutions of the tile being watched. */
static int early_packet(void *opaque, j2k_tile_state *ts, int comp, int res, int layer)
{
    j2k_early *e = opaque;

    if (e->count || (e->tile >= 0 && e->tile != ts->index && e->pending))
        return 0;       /* launched already; or a tile that did not finish them, then another: done */
    if (e->tile != ts->index)
        watch_tile(e, ts);
    if (!e->pending || res > e->top_res || res > top_of(e, ts, comp) || layer >= e->max_layers)
        return 0;
    if (--e->pending == 0)
        go(e, ts);
    return 0;
}

int j2k_early_place(j2k_early *e, gj_device *dev, j2k_layout *l, const gj_buffer *coef)
{
    uint64_t placed_at = j2k_align16(e->coefs * 4);
    int ret;

    if (!e->count)
        return 0;
    if (l->nb_placed != e->count)
        return gj_fail(GJ_ERROR_BUG, "J2K: %zu code-blocks placed of %zu decoded early", l->nb_placed, e->count);
    for (size_t k = 0; k < e->count; k++) {
        l->placed[k].data_offset = e->tables.cblks[k].coef_offset;
        l->placed[k].roi_shift = 0;
    }
    /* Over the early launch's own table, which it has read by then: the same size. */
    if ((ret = dev->ops->wait_for(dev, e->dev)) < 0 ||
        (ret = dev->ops->upload(dev, &e->region, placed_at, l->placed, e->count * sizeof(*l->placed))) < 0)
        return ret;
    {
        gj_karg a[] = { GJ_ARG_BUF(&e->region), GJ_ARG_U64(placed_at), GJ_ARG_U32(e->count), GJ_ARG_BUF(coef),
                        GJ_ARG_U32(l->wide) };

        return gj_dev_launch(dev, "gj_j2k_t1_place", e->count, EARLY_GROUP, a, 5);
    }
}

void j2k_early_report(const j2k_early *e, size_t main_cblks)
{
    double now = gj_time_ms() - e->start_ms;

    if (e->count)
        gj_log(GJ_LOG_INFO, "profile (ms): early T1 of %zu code-blocks at %.3f, host decode done at %.3f "
               "(%zu code-blocks more)", e->count, e->launch_ms - e->start_ms, now, main_cblks);
    else
        gj_log(GJ_LOG_INFO, "profile (ms): no early T1, host decode done at %.3f (%zu code-blocks)", now, main_cblks);
}
