/*
 * libFuzzer target: every host-side step of JPEG 2000 decoding, i.e. the header
 * parser through the public gj_j2k_read_info() and gj_j2k_read_palette(), then JP2
 * boxes, markers, T2 of every tile and the kernels' tables (j2k_host_decode()), at
 * full and reduced resolution, with fewer layers and for a components decode. Built
 * by make check with clang and ASan/UBSan (tests/tests.mk). Besides memory errors it
 * checks the promises the GPU kernels rely on: every code-block, transform job and
 * output tile stays inside the coefficient buffer, every segment inside the data.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpujpeg/common.h"
#include "fuzz_common.h"
#include "gpujpeg/j2k.h"
#include "j2k/host_decode.h"


/* Larger pictures are left out: they only cost time here. */
#define MAX_FUZZ_SAMPLES (1 << 22)

/*
 * So are codestreams of more tile-component resolutions than this (tiles x components
 * x the first component's levels + 1). The host's work grows with them, not with the data:
 * 32,896 tiles of 2x1 samples and 32 levels (a 177-byte input, 1.1 million resolutions,
 * 0.2 s of host time in a release build) took 26 s here under the sanitizers, four
 * settings and libFuzzer's leak check, past its 10-second limit. The decoder's own
 * bound, J2K_MAX_TILE_RESOLUTIONS (2^21), is checked by the J2K test
 * unsupported_many_resolutions.
 */
#define MAX_FUZZ_RESOLUTIONS (1 << 15)

static int inside(uint64_t offset, uint64_t stride, uint64_t w, uint64_t h, uint64_t count)
{
    return w == 0 || h == 0 || offset + (h - 1) * stride + w <= count;
}

static void check_layout(const j2k_layout *l)
{
    uint64_t run_bytes = 0;

    for (size_t r = 0; r < l->nb_runs; r++)
        run_bytes += l->runs[r].size;
    REQUIRE(run_bytes == l->data_size);
    for (size_t i = 0; i < l->nb_cblks; i++) {
        const gj_j2k_cblk *c = &l->cblks[i];
        uint64_t bytes = 0;

        REQUIRE((uint32_t)c->width * c->height <= 4096);
        REQUIRE(c->width <= c->stride);
        REQUIRE(inside(c->coef_offset, c->stride, c->width, c->height, l->coef_count));
        REQUIRE(GJ_J2K_T1_WORDS_OF(c->width, c->height) <= GJ_J2K_T1_WORDS);
        REQUIRE(c->planes <= 30 && c->roi_shift <= 30);
        REQUIRE((uint64_t)c->seg_first + c->seg_count <= l->nb_segments);
        for (uint32_t s = 0; s < c->seg_count; s++)
            bytes += l->segments[c->seg_first + s] & 0xFFFFFFu;
        REQUIRE(c->data_offset + bytes <= l->data_size);
    }
    for (size_t p = 0; p < l->nb_passes; p++) {
        const j2k_dwt_pass *pass = &l->passes[p];
        const j2k_dwt_pass *pair = p + 1 < l->nb_passes && pass->scratch_pair && !pass->vertical ? pass + 1 : NULL;
        uint64_t threads = 0, groups = 0, column_groups = 0, scratch_end = 0, bytes = l->wide ? 4 : 2;

        REQUIRE((uint64_t)pass->first + pass->count <= l->nb_jobs);
        REQUIRE(!l->dwt_in_place || pass->max_line <= GJ_J2K_DWT_LINE);
        REQUIRE(!pass->long_lines || pass->vertical);
        for (uint32_t k = 0; k < pass->count; k++) {
            const gj_j2k_dwt_job *j = &l->jobs[pass->first + k];

            REQUIRE(j->thread_first == threads);
            REQUIRE(j->group_first == groups);
            /* Its lines fit the local array and the lanes of the kernel its pass takes (j2k_dwt.h,
             * j2k_dwt_rows.h) */
            REQUIRE(j->lines >= 1 && (!l->dwt_in_place || (uint64_t)j->lines * (j->vertical ? j->height : j->width) <=
                                                              (pass->long_lines ? GJ_J2K_DWT_LONG_LINE : GJ_J2K_DWT_LINE)));
            REQUIRE(j->vertical || !l->dwt_in_place ||
                    ((uint64_t)j->lines * GJ_J2K_DWT_ROW_PITCH(j->width) <= GJ_J2K_DWT_ROW_WORDS &&
                     (uint64_t)j->lines * GJ_J2K_DWT_ROW_LANES(j->width) <= GJ_J2K_DWT_GROUP));
            REQUIRE((j->vertical ? j->height : j->width) <= pass->max_line);
            REQUIRE(j->width <= j->stride);
            REQUIRE(inside(j->offset, j->stride, j->width, j->height, l->coef_count));
            REQUIRE(j->low_count <= (j->vertical ? j->height : j->width));
            threads += (uint64_t)j->width * j->height;
            groups += ((j->vertical ? j->width : j->height) + j->lines - 1) / j->lines;
            REQUIRE((j->vertical ? j->height : j->width) >= pass->min_line);
            /* Through a scratch (j2k_params.h): regions one after another within scratch_bytes, and
             * the vertical step of the pair reads each where its horizontal step wrote it */
            REQUIRE((uint64_t)j->scratch_at * bytes >= scratch_end);
            scratch_end = ((uint64_t)j->scratch_at + (uint64_t)j->width * j->height) * bytes;
            REQUIRE(scratch_end <= pass->scratch_bytes);
            REQUIRE(j->column_group_first == column_groups);
            column_groups += (uint64_t)((j->width + GJ_J2K_DWT_COLUMNS - 1) / GJ_J2K_DWT_COLUMNS) *
                             ((j->height + GJ_J2K_DWT_SEGMENT - 1) / GJ_J2K_DWT_SEGMENT);
            if (pair && pair->scratch_pair && pair->vertical && pair->count == pass->count &&
                pair->first == pass->first + pass->count) {
                const gj_j2k_dwt_job *v = &l->jobs[pair->first + k];

                REQUIRE(v->scratch_at == j->scratch_at && v->width == j->width && v->height == j->height &&
                        v->offset == j->offset && v->stride == j->stride);
            }
        }
        REQUIRE(threads == pass->threads);
        REQUIRE(groups == pass->groups);
        REQUIRE(column_groups == pass->column_groups);
    }
    for (size_t t = 0, threads = 0; t < l->nb_out_tiles; t++) {
        const gj_j2k_out_tile *o = &l->out_tiles[t];
        /* A components decode's interleaved stage writes components 0-2's planes. */
        uint64_t w = l->components ? (uint64_t)l->planes[0].width : (uint64_t)l->out_width;
        uint64_t h = l->components ? (uint64_t)l->planes[0].height : (uint64_t)l->out_height;

        REQUIRE((uint64_t)o->x0 + o->width <= w);
        REQUIRE((uint64_t)o->y0 + o->height <= h);
        /* Chunks of rows (j2k_params.h), tile after tile */
        REQUIRE(o->thread_first == threads);
        threads += GJ_J2K_OUT_THREADS(o->width, o->height);
        REQUIRE(t + 1 < l->nb_out_tiles || threads == l->out_threads);
        /* The components it reads lie within their own regions: rows no wider than theirs. */
        for (uint32_t c = 0; c < l->out.nb_comps; c++) {
            if (!(l->out.read_mask >> c & 1u))
                continue;
            REQUIRE(o->width <= o->stride[c]);
            REQUIRE(inside(o->coef_offset[c], o->stride[c], o->width, o->height, l->coef_count));
        }
    }
    for (size_t i = 0; l->planar && i < l->nb_planes; i++) {
        const j2k_out_plane *p = &l->planes[i];
        uint64_t threads = 0;

        REQUIRE((uint64_t)p->first + p->count <= l->nb_plane_jobs);
        REQUIRE(!l->components || p->offset + (uint64_t)p->linesize * (uint64_t)p->height <=
                                  (uint64_t)l->out_width * (uint64_t)l->out_height);
        REQUIRE(!l->components || (uint64_t)p->linesize >= (uint64_t)p->width * p->bytes);
        for (uint32_t k = 0; k < p->count; k++) {
            const gj_j2k_plane_job *j = &l->plane_jobs[p->first + k];

            REQUIRE(j->thread_first == threads);
            REQUIRE((uint64_t)j->x0 + j->width <= (uint64_t)p->width);
            REQUIRE((uint64_t)j->y0 + j->height <= (uint64_t)p->height);
            REQUIRE(inside(j->coef_offset, j->stride, j->width, j->height, l->coef_count));
            /* Chunks of rows, as the interleaved stage's */
            threads += GJ_J2K_OUT_THREADS(j->width, j->height);
        }
        REQUIRE(threads == p->threads);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static j2k_layout layout;
    static gj_j2k_palette palette;
    static const int settings[][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };  /* reduce, layers, components */
    gj_j2k_info info;
    uint64_t samples = 0;
    int truncated;

    if (gj_j2k_read_info(data, size, &info) < 0)
        return 0;
    /* the boxes have parsed: so does the palette, of the bounds it promises */
    REQUIRE(gj_j2k_read_palette(data, size, &palette) == 0 && palette.entries >= 0 &&
            palette.entries <= GJ_J2K_MAX_PALETTE_ENTRIES && palette.columns >= 0 &&
            palette.columns <= GJ_J2K_MAX_INFO_COMPONENTS && (palette.entries == 0) == (palette.columns == 0));
    REQUIRE(info.num_components >= 1);
    /* an ICC profile lies inside the data, after its box's header */
    REQUIRE(info.icc_size ? info.icc_offset > 0 && info.icc_offset <= size && info.icc_size <= size - info.icc_offset
                          : info.icc_offset == 0);
    for (int c = 0; c < info.num_components && c < GJ_J2K_MAX_INFO_COMPONENTS; c++)
        samples += (uint64_t)(uint32_t)info.width * (uint32_t)info.height / ((uint64_t)info.dx[c] * info.dy[c]);
    if (samples * (uint64_t)info.num_components > MAX_FUZZ_SAMPLES)
        return 0;
    if ((uint64_t)info.tiles_x * (uint64_t)info.tiles_y * (uint64_t)info.num_components * (uint64_t)(info.levels + 1) >
        MAX_FUZZ_RESOLUTIONS)
        return 0;
    for (int i = 0; i < 4; i++) {
        layout.components = settings[i][2];
        if (j2k_host_decode(data, size, settings[i][0], settings[i][1], &layout, &truncated, NULL) == 0)
            check_layout(&layout);
    }
    return 0;
}
