/* Entropy decoding of a scan on the GPU: layout, synchronisation rounds, prefix sums, writing. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/decoder_private.h"
#include "jpeg/huffman_tables.h"
#include "log.h"

/* BUF_COUNTER: the rounds' counts of changed groups, then the tickets of the
 * launches whose last work-group goes on with the next step (kernels/common.h). */
#define TICKET_GROUP_MAPS SYNC_MAX_ROUNDS
#define TICKET_SCAN (SYNC_MAX_ROUNDS + 1)
#define COUNTER_WORDS (SYNC_MAX_ROUNDS + 2)

/* The kernels copy slot_info and tables[] as one image of 16-byte words (kernels/jpeg_huffman.h). */
_Static_assert(offsetof(gj_scan_params, slot_info) % 16 == 0 && sizeof(gj_huff_table) % 16 == 0 &&
                   offsetof(gj_scan_params, tables) == offsetof(gj_scan_params, slot_info) + 4 * GJ_HUFF_SLOT_WORDS,
               "gj_scan_params: the Huffman image is not one piece of 16-byte words");

/* The index of the decoding table for spec in p->tables, building it on first use. */
static int table_index(gj_scan_params *p, const gj_huffman_spec **specs, int *is_ac,
                       const gj_huffman_spec *spec, int ac)
{
    uint32_t i;
    int ret;

    for (i = 0; i < p->num_tables; i++)
        if (is_ac[i] == ac && specs[i]->count == spec->count && !memcmp(specs[i]->bits, spec->bits, 17) &&
            !memcmp(specs[i]->values, spec->values, (size_t)spec->count))
            return (int)i;
    if ((ret = gj_huffman_table_build(spec, ac, &p->tables[i])) < 0)
        return ret;
    specs[i] = spec;
    is_ac[i] = ac;
    p->num_tables = i + 1;
    return (int)i;
}

static int fill_scan_params(const gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, const gj_jpeg_scan *scan,
                            uint32_t chunk_bits, uint32_t part_shift)
{
    const gj_jpeg_stream *s = &dec->stream;
    gj_scan_params *p = u->scan_params;
    const gj_huffman_spec *specs[GJ_MAX_SCAN_TABLES];
    int is_ac[GJ_MAX_SCAN_TABLES];
    uint32_t n = 0;
    int i, h, v;

    memset(p, 0, sizeof(*p));
    for (i = 0; i < scan->num_components; i++) {
        const gj_jpeg_component *c = &s->comp[scan->comp[i]];
        int bw = scan->num_components == 1 ? 1 : c->h, bh = scan->num_components == 1 ? 1 : c->v;
        uint32_t w = (uint32_t)c->blocks_w, base = (uint32_t)gj_jpeg_block_offset(s, scan->comp[i]);

        int dc = table_index(p, specs, is_ac, &scan->dc[i], 0), ac = table_index(p, specs, is_ac, &scan->ac[i], 1);
        if (dc < 0 || ac < 0)
            return dc < 0 ? dc : ac;
        for (v = 0; v < bh; v++) {
            for (h = 0; h < bw; h++, n++) {
                GJ_SLOT_INFO(p->slot_info, n) = (uint32_t)scan->comp[i] | (uint32_t)dc << 4 | (uint32_t)ac << 8;
                GJ_SLOT_BASE(p->slot_info, n) = base + (uint32_t)v * w + (uint32_t)h;
                GJ_SLOT_ROW(p->slot_info, n) = (uint32_t)bh * w;
                GJ_SLOT_COL(p->slot_info, n) = (uint32_t)bw;
            }
        }
    }
    p->blocks_in_mcu = n;
    p->mcus_x = (uint32_t)scan->mcus_x;
    p->num_chunks = u->layout->num_chunks;
    p->chunk_bits = chunk_bits;
    p->part_shift = part_shift;
    p->part_bits = chunk_bits >> part_shift;
    return 0;
}

/* The scan's bytes as whole words, the way the kernels read them. */
static size_t padded_bytes(const gj_entropy_layout *e)
{
    return (e->num_bytes + 4) & ~(size_t)3;
}

/* Every segment one chunk (restart_direct()): each chunk's start is exact, and so
 * is its place in the scan; no synchronisation and no prefix sums are needed. */
static int chunks_are_segments(const gj_entropy_layout *e)
{
    return e->max_chunks_per_segment == 1;
}

/* What the scan's buffers hold: its inputs, and room for what the synchronisation
 * and the prefix sums keep per chunk and per part of it (none when the chunks are
 * segments: their buffers are only passed). */
static void scan_buffer_sizes(const gj_entropy_layout *e, uint32_t part_shift, size_t *sizes)
{
    size_t nch = e->num_chunks, synced = chunks_are_segments(e) ? 0 : nch, parts = synced << part_shift;
    size_t groups = gj_jpeg_groups(parts, SCAN_GROUP), sync_groups = gj_jpeg_groups(synced, HUFF_GROUP);

    sizes[BUF_SCAN_PARAMS] = sizeof(gj_scan_params);
    sizes[BUF_BYTES] = padded_bytes(e);
    sizes[BUF_SEGMENTS] = e->num_segments * sizeof(gj_segment);
    sizes[BUF_CHUNK_SEG] = nch * sizeof(uint32_t);
    sizes[BUF_STATES] = synced * sizeof(gj_huff_packed_state);
    sizes[BUF_BOUNDS] = 2 * sync_groups * sizeof(gj_huff_packed_state);
    sizes[BUF_SUMS] = parts * SCAN_LANES * sizeof(int32_t);
    sizes[BUF_PART_STATES] = (parts - synced) * sizeof(gj_huff_packed_state);
    sizes[BUF_AGGR] = groups * SCAN_LANES * sizeof(int32_t);
    sizes[BUF_AGGR_HEAD] = groups * sizeof(uint32_t);
    sizes[BUF_CARRY] = groups * SCAN_LANES * sizeof(int32_t);
    sizes[BUF_COUNTER] = COUNTER_WORDS * sizeof(uint32_t);
}

/* The scan's buffers (in the output frame where they fit, decode_scan_buffers.c) and
 * its inputs in them. */
static int upload_scan(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, const size_t *sizes)
{
    gj_device *dev = u->dev;
    const gj_entropy_layout *e = u->layout;
    int ret;

    if ((ret = gj_jpeg_scan_buffers(dec, u, sizes)) < 0)
        return ret;
    if ((ret = dev->ops->upload(dev, &u->buf[BUF_SCAN_PARAMS], 0, u->scan_params, sizeof(gj_scan_params))) < 0 ||
        (ret = dev->ops->upload(dev, &u->buf[BUF_BYTES], 0, e->bytes, padded_bytes(e))) < 0 ||
        (ret = dev->ops->upload(dev, &u->buf[BUF_SEGMENTS], 0, e->segments,
                                e->num_segments * sizeof(gj_segment))) < 0)
        return ret;
    return dev->ops->upload(dev, &u->buf[BUF_CHUNK_SEG], 0, e->chunk_segment, e->num_chunks * sizeof(uint32_t));
}

/*
 * Restart-rich scans (a marker every few MCUs, as GPUJPEG and many cameras write
 * them) decode fastest one thread per segment, the writing kernel alone, when the
 * segments are many enough to fill the GPU and short enough for one thread each
 * (measured on an H200, doc/benchmarks.md). GJ_DIRECT=0/1 overrides, for tuning.
 * Decided on the placed segments, before they are chunked: the chunk length that
 * makes every segment one chunk, else chunk_bits.
 */
static uint32_t restart_direct(const gj_jpeg_decoder *dec, const gj_entropy_layout *e, uint32_t chunk_bits)
{
    uint32_t bits = e->max_segment_bits > 32 ? (e->max_segment_bits + 31) & ~31u : 32;

    if (e->num_segments < 2 || e->max_segment_bits <= chunk_bits)
        return chunk_bits;      /* one chunk per segment already */
    if (dec->direct_mode == 0 ||
        (dec->direct_mode < 0 && (e->num_segments < DIRECT_MIN_SEGMENTS || bits > DIRECT_MAX_SEGMENT_BITS)))
        return chunk_bits;
    return bits;
}

/*
 * The writing kernel's parts per chunk, 1 << shift (kernels/jpeg_huffman_sync.h
 * gj_huff_decode_write()). Chunks are written in WRITE_PARTS parts: a picture alone
 * on the GPU decodes as a chain of kernels each as long as one thread's chain of
 * symbols, and the writing kernel's shrinks with its parts; pictures on lanes gain
 * from the threads that wait less too, but for those that fill the GPU by themselves
 * (parts cost more warp steps in all; measured on an H200, doc/benchmarks.md).
 * Parts stay longer than a symbol can be (kernels/jpeg_huffman.h
 * gj_huff_part_begins()), and their arrays within the output frame, the decoder's
 * memory line (fewer parts where they do not fit).
 */
static uint32_t write_part_shift(const gj_jpeg_decoder *dec, const gj_entropy_layout *e, uint32_t chunk_bits)
{
    size_t sizes[SCAN_BUFS];
    uint32_t shift = 0;

    if (chunks_are_segments(e) ||
        (dec->shares_gpu && gj_jpeg_groups(e->num_chunks, HUFF_GROUP) > LANES_PARTS_MAX_GROUPS))
        return 0;
    while ((2u << shift) <= WRITE_PARTS && (chunk_bits >> (shift + 1)) >= MIN_PART_BITS)
        shift++;
    for (; shift > 0; shift--) {
        scan_buffer_sizes(e, shift, sizes);
        if (gj_jpeg_scan_buffers_fit(dec, dec->dev, sizes))
            break;
    }
    return shift;
}

/* One group: the first synchronisation pass is exact on its own. (Chunks that are
 * whole segments need no pass at all, nor hypotheses.) */
static int first_pass_exact(const gj_jpeg_scan_unit *u)
{
    return u->layout->num_chunks <= HUFF_GROUP || chunks_are_segments(u->layout);
}

/* The slot hypotheses of kernels/jpeg_huffman_hyp.h: a guessed start state for every chunk. */
static int guess_with_hypotheses(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, size_t groups)
{
    gj_device *dev = u->dev;
    size_t hyp_groups = gj_jpeg_groups(u->layout->num_chunks * u->hyps, HYP_GROUP);
    gj_karg a[] = {
        GJ_ARG_BUF(&u->buf[BUF_SCAN_PARAMS]), GJ_ARG_BUF(&u->buf[BUF_BYTES]),
        GJ_ARG_BUF(&u->buf[BUF_SEGMENTS]), GJ_ARG_BUF(&u->buf[BUF_CHUNK_SEG]),
        GJ_ARG_BUF(&dec->buf[u->hyp_scratch]),
    };
    gj_karg maps[] = { a[0], a[4], GJ_ARG_BUF(&u->buf[BUF_COUNTER]), GJ_ARG_U32(TICKET_GROUP_MAPS) };
    int ret;

    if ((ret = gj_dev_launch(dev, "gj_huff_hyp_decode", hyp_groups, HYP_GROUP, a, 5)) < 0 ||
        (ret = gj_dev_launch(dev, "gj_huff_hyp_link", hyp_groups, HYP_GROUP, a, 5)) < 0)
        return ret;
    return gj_dev_launch(dev, "gj_huff_hyp_group_maps", groups, HUFF_GROUP, maps, 4);
}

/*
 * Whether slot hypotheses pay for this scan: a decoder that starts at the wrong slot
 * stays wrong for long only where consecutive slots share tables (4:2:0's four luma
 * blocks); elsewhere guessing "slot 0 at the chunk's first bit" is nearly always
 * right and cheaper (measured on an H200, doc/benchmarks.md).
 */
static int hypotheses_pay(const gj_jpeg_decoder *dec, const gj_jpeg_scan *scan)
{
    int i;

    if (dec->sync_mode != SYNC_AUTO)
        return dec->sync_mode == SYNC_HYPOTHESES;
    for (i = 0; scan->num_components > 1 && i < scan->num_components; i++)
        if (dec->stream.comp[scan->comp[i]].h * dec->stream.comp[scan->comp[i]].v > 1)
            return 1;
    return 0;
}

/* Lays the hypothesis arrays out in the scan params for p->hyp_levels levels of extra
 * states; their bytes in all, or 0 for a scan too large to synchronise. */
static size_t lay_out_hypotheses(gj_scan_params *p, uint32_t hyps)
{
    size_t nhyp = (size_t)p->num_chunks * hyps, row = (size_t)(p->hyp_levels + 1) * hyps, sizes[6], total = 0;
    int i;

    sizes[GJ_HYP_ARRAY_STATES] = nhyp * sizeof(gj_huff_packed_state);
    sizes[GJ_HYP_ARRAY_X] = p->hyp_levels * nhyp * sizeof(gj_huff_packed_state);
    sizes[GJ_HYP_ARRAY_MARKS] = nhyp * HYP_MARKS * sizeof(uint16_t);
    sizes[GJ_HYP_ARRAY_MAP] = p->num_chunks * row;
    sizes[GJ_HYP_ARRAY_GROUP_MAP] = p->num_groups * row;
    sizes[GJ_HYP_ARRAY_GROUP_IN] = p->num_groups;
    for (i = 0; i < 6; i++) {
        if (total / 16 > UINT32_MAX)
            return 0;
        p->hyp_offset[i] = (uint32_t)(total / 16);
        total += (sizes[i] + 15) & ~(size_t)15;
    }
    return total;
}

/*
 * Decides whether the scan uses slot hypotheses and lays their arrays out in the
 * scan params, in the coefficient buffer while it is still scratch (the first scan)
 * and large enough: with GJ_HYP_MAX_LEVELS levels of extra states, else as many as
 * fit. Elsewhere (a later scan, or one so dense that its chunks hold fewer
 * coefficient bytes than hypothesis bytes: 4:2:0 in 256-bit chunks above about 180
 * bits per block) they would need a buffer of their own, bytes per pixel beyond
 * the decoder's memory limit (the output, the coefficients and a byte per pixel):
 * the scan does without them (plain guesses are slower, never wrong), unless
 * GJ_SYNC asks for them. Before the params are uploaded.
 */
static int plan_hypotheses(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, const gj_jpeg_scan *scan, int first)
{
    gj_scan_params *p = u->scan_params;
    size_t total;

    p->num_groups = (uint32_t)gj_jpeg_groups(p->num_chunks, HUFF_GROUP);
    u->hyps = !first_pass_exact(u) && hypotheses_pay(dec, scan) ? p->blocks_in_mcu : 0;
    if (!u->hyps)
        return 0;
    for (p->hyp_levels = GJ_HYP_MAX_LEVELS; p->hyp_levels > 0; p->hyp_levels--) {
        if (!(total = lay_out_hypotheses(p, u->hyps)))
            return gj_fail(GJ_ERROR_NOMEM, "JPEG scan of %u chunks: too large to synchronise", p->num_chunks);
        if (first && dec->buf[BUF_COEFS].size >= total) {
            u->hyp_scratch = BUF_COEFS;
            return 0;
        }
    }
    if (dec->sync_mode == SYNC_AUTO) {
        u->hyps = 0;
        return 0;
    }
    p->hyp_levels = GJ_HYP_MAX_LEVELS;
    u->hyp_scratch = BUF_HYP_SCRATCH;
    return gj_jpeg_ensure_buffer(dec, BUF_HYP_SCRATCH, lay_out_hypotheses(p, u->hyps));
}

/* Rounds queued after the first pass before gj_huff_sync_finish walks what they left:
 * good guesses (hypotheses) leave nothing to carry across groups, plain guesses
 * nearly always settle in one round and a second confirms (measured on an H200). */
static uint32_t rounds_after_first(const gj_jpeg_decoder *dec, const gj_jpeg_scan_unit *u)
{
    if (dec->sync_rounds_override >= 0)
        return (uint32_t)dec->sync_rounds_override;
    return u->hyps ? 1 : 2;
}

/* Steps 1-2 of kernels/jpeg_huffman_sync.h: a first pass with in-group fixpoints
 * (from the slot hypotheses' guesses where they pay), a few rounds across groups,
 * then one walk over what is left. All queued without waiting for the device. */
static int synchronise_chunks(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u)
{
    gj_device *dev = u->dev;
    size_t nch = u->layout->num_chunks, groups = gj_jpeg_groups(nch, HUFF_GROUP);
    uint32_t round, hyps = u->hyps;
    uint32_t rounds = first_pass_exact(u) ? 1 : 1 + rounds_after_first(dec, u);
    int ret;

    if (chunks_are_segments(u->layout))
        return 0;
    if ((ret = dev->ops->fill_zero(dev, &u->buf[BUF_COUNTER], 0, COUNTER_WORDS * sizeof(uint32_t))) < 0 ||
        (hyps && (ret = guess_with_hypotheses(dec, u, groups)) < 0))
        return ret;
    gj_jpeg_profile_mark(dec, ST_HYPOTHESES);
    for (round = 0; round < rounds; round++) {
        gj_karg a[] = {
            GJ_ARG_BUF(&u->buf[BUF_SCAN_PARAMS]), GJ_ARG_BUF(&u->buf[BUF_BYTES]),
            GJ_ARG_BUF(&u->buf[BUF_SEGMENTS]), GJ_ARG_BUF(&u->buf[BUF_CHUNK_SEG]),
            GJ_ARG_BUF(&u->buf[BUF_STATES]), GJ_ARG_BUF(&u->buf[BUF_BOUNDS]),
            GJ_ARG_BUF(&u->buf[BUF_SUMS]), GJ_ARG_BUF(&u->buf[BUF_PART_STATES]), GJ_ARG_BUF(&u->buf[BUF_COUNTER]),
            GJ_ARG_U32(round), GJ_ARG_U32(round),
            /* Without hypotheses the scratch buffer is not read; any valid one will do. */
            GJ_ARG_BUF(hyps ? &dec->buf[u->hyp_scratch] : &u->buf[BUF_STATES]), GJ_ARG_U32(hyps),
        };
        if ((ret = gj_dev_launch(dev, "gj_huff_sync", groups, HUFF_GROUP, a, 13)) < 0)
            return ret;
        if (round == 0)
            gj_jpeg_profile_mark(dec, ST_FIRST_PASS);
        else
            dec->profile_rounds++;
    }
    if (!first_pass_exact(u)) {
        gj_karg a[] = {
            GJ_ARG_BUF(&u->buf[BUF_SCAN_PARAMS]), GJ_ARG_BUF(&u->buf[BUF_BYTES]),
            GJ_ARG_BUF(&u->buf[BUF_SEGMENTS]), GJ_ARG_BUF(&u->buf[BUF_CHUNK_SEG]),
            GJ_ARG_BUF(&u->buf[BUF_STATES]), GJ_ARG_BUF(&u->buf[BUF_SUMS]), GJ_ARG_BUF(&u->buf[BUF_PART_STATES]),
            GJ_ARG_BUF(&u->buf[BUF_COUNTER]), GJ_ARG_U32(rounds - 1),
        };
        if ((ret = gj_dev_launch(dev, "gj_huff_sync_finish", 1, HUFF_GROUP, a, 9)) < 0)
            return ret;
    }
    return 0;
}

/* Step 3: in-segment exclusive prefix sums of the per-part block counts and DC sums,
 * in place: nothing reads the sums afterwards, only the offsets they become (but
 * for the carries across the kernel's work-groups, added by the writing kernel). */
static int prefix_sums(gj_jpeg_scan_unit *u)
{
    gj_device *dev = u->dev;
    uint32_t shift = u->scan_params->part_shift, parts = u->layout->num_chunks << shift;
    gj_karg a[] = {
        GJ_ARG_BUF(&u->buf[BUF_SUMS]), GJ_ARG_BUF(&u->buf[BUF_CHUNK_SEG]), GJ_ARG_U32(shift), GJ_ARG_U32(parts),
        GJ_ARG_BUF(&u->buf[BUF_AGGR]), GJ_ARG_BUF(&u->buf[BUF_AGGR_HEAD]), GJ_ARG_BUF(&u->buf[BUF_COUNTER]),
        GJ_ARG_U32(TICKET_SCAN), GJ_ARG_BUF(&u->buf[BUF_CARRY]),
    };

    if (chunks_are_segments(u->layout))
        return 0;       /* the writing kernel starts every segment at zero */
    return gj_dev_launch(dev, "gj_seg_scan_groups", gj_jpeg_groups(parts, SCAN_GROUP), SCAN_GROUP, a, 9);
}

/*
 * Chunk length of a scan that uses slot hypotheses, from its density (bits per
 * block, its stuffed bytes counted). Measured on an H200 over 4K 4:2:0 and 4:2:2
 * photos from 12 to 99 bits per block (doc/benchmarks.md, sixth session): a
 * picture alone on the GPU decodes fastest in short chunks, which keep more of
 * the GPU busy (256 bits 10-25% faster than 384 below 25 bits per block); pictures
 * decoding at once on lanes fill the GPU together, and there the fewer
 * synchronisation steps of longer chunks win, the more so the denser the scan
 * (1024 bits: 1.7x the throughput of 384 at 96 bits per block), as long as the
 * picture still makes enough work-groups (twelfth session).
 */
static uint32_t chunk_bits_for(const gj_jpeg_decoder *dec, const gj_jpeg_scan *scan)
{
    uint64_t blocks = (uint64_t)scan->mcus_x * (uint64_t)scan->mcus_y * (uint64_t)scan->blocks_in_mcu;
    uint64_t density = blocks ? (uint64_t)scan->data_size * 8 / blocks : 0;
    uint64_t bits, cap;

    if (dec->chunk_bits_override)
        return dec->chunk_bits_override;
    if (!hypotheses_pay(dec, scan))
        return CHUNK_BITS_PLAIN;
    if (!dec->shares_gpu)
        return density < 25 ? 256 : CHUNK_BITS_HYPOTHESES;
    bits = density < 25 ? CHUNK_BITS_HYPOTHESES : density < 50 ? 512 : density < 85 ? 768 : 1024;
    /* A small picture in long chunks is too few work-groups for its share of the GPU: an HD
     * q90 picture in 1024-bit chunks is 40 groups, and batches of them decode 8 % faster in
     * 384-bit chunks (103 groups; q75 13 %), so a scan keeps about SHARED_MIN_GROUPS. */
    cap = ((uint64_t)scan->data_size * 8 / (SHARED_MIN_GROUPS * HUFF_GROUP)) & ~(uint64_t)127;
    if (cap < bits)
        bits = cap > CHUNK_BITS_HYPOTHESES ? cap : CHUNK_BITS_HYPOTHESES;
    return (uint32_t)bits;
}

int gj_jpeg_decode_scan(gj_jpeg_decoder *dec, const gj_jpeg_scan *scan, int index,
                        int *damaged)
{
    uint32_t chunk_bits = chunk_bits_for(dec, scan), part_shift;
    gj_entropy_layout *layout = &dec->layouts[index];
    gj_jpeg_scan_unit *u;
    size_t sizes[SCAN_BUFS];
    int ret, first = index == 0;
    gj_karg a[9];

    /* Page-locked, as the layout's arrays: an asynchronous upload (fill_scan_params() sets it all). */
    if (!dec->scan_params_of[index] &&
        !(dec->scan_params_of[index] = dec->dev->ops->host_alloc(dec->dev, sizeof(gj_scan_params))))
        return GJ_ERROR_NOMEM;

    /* The parser unstuffed the scan's data into its layout (decoder.c unstuff_scan()). */
    ret = gj_entropy_layout_place(layout, scan, (uint32_t)(scan->mcus_x * scan->mcus_y));
    if (ret < 0)
        return ret;
    *damaged |= layout->damaged;
    chunk_bits = restart_direct(dec, layout, chunk_bits);
    if ((ret = gj_entropy_layout_chunk(layout, chunk_bits)) < 0)
        return ret;
    part_shift = write_part_shift(dec, layout, chunk_bits);
    scan_buffer_sizes(layout, part_shift, sizes);
    if ((ret = gj_jpeg_scan_unit_for(dec, index, sizes, &u)) < 0)
        return ret;
    u->layout = layout;
    u->scan_params = dec->scan_params_of[index];
    /* Scans at once zeroed the coefficients first: no scratch there. */
    if ((ret = fill_scan_params(dec, u, scan, chunk_bits, part_shift)) < 0 ||
        (ret = plan_hypotheses(dec, u, scan, first && !dec->scans_at_once)) < 0)
        return ret;
    gj_jpeg_profile_mark(dec, ST_LAYOUT);
    if ((ret = upload_scan(dec, u, sizes)) < 0)
        return ret;
    gj_jpeg_profile_mark(dec, ST_UPLOAD);
    if ((ret = synchronise_chunks(dec, u)) < 0)
        return ret;
    gj_jpeg_profile_mark(dec, ST_SYNC);
    if ((ret = prefix_sums(u)) < 0)
        return ret;
    /* The coefficients are written from zero; until now the buffer was scratch. */
    if (first && !dec->scans_at_once &&
        (ret = u->dev->ops->fill_zero(u->dev, &dec->buf[BUF_COEFS], 0, gj_jpeg_coef_bytes(&dec->stream))) < 0)
        return ret;
    gj_jpeg_profile_mark(dec, ST_PREFIX);
    a[0] = GJ_ARG_BUF(&u->buf[BUF_SCAN_PARAMS]);
    a[1] = GJ_ARG_BUF(&u->buf[BUF_BYTES]);
    a[2] = GJ_ARG_BUF(&u->buf[BUF_SEGMENTS]);
    a[3] = GJ_ARG_BUF(&u->buf[BUF_CHUNK_SEG]);
    a[4] = GJ_ARG_BUF(&u->buf[BUF_STATES]);
    a[5] = GJ_ARG_BUF(&u->buf[BUF_PART_STATES]);
    a[6] = GJ_ARG_BUF(&u->buf[BUF_SUMS]);
    a[7] = GJ_ARG_BUF(&dec->buf[BUF_COEFS]);
    a[8] = GJ_ARG_BUF(&u->buf[BUF_CARRY]);
    ret = gj_dev_launch(u->dev, "gj_huff_decode_write",
                        gj_jpeg_groups((size_t)layout->num_chunks << part_shift, HUFF_GROUP), HUFF_GROUP, a, 9);
    gj_jpeg_profile_mark(dec, ST_WRITE);
    return ret;
}
