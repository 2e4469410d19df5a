/* T1's inputs and launch (t1_queue.h). */
#include <stdlib.h>

#include "j2k/t1_queue.h"
#include "kernels/j2k_params.h"

/*
 * Batches: the code-blocks with the most coding passes (the longest serial MQ
 * chains: a 4K lossy picture's lowest resolutions, about a hundred code-blocks)
 * keep a warp each; the rest go two or four to a warp (t1_queue.h), which cuts
 * the instructions issued for their decisions once the GPU is full. The wave's
 * longest 256: on an H200 with work-groups of four warps (batches of 16), 4K
 * lossy 1-2 % faster than with 1024 or 128 of them (lossless 1.5 % faster than
 * with 1024, as with 128), within 1 % of 512; 64 left 4K lossy 5 % slower.
 */
#define J2K_T1_LONG_BLOCKS 256

/*
 * The half-word kernel (four 64x64 code-blocks a warp) issues a quarter fewer
 * instructions than the word kernel (two a warp) but holds 96 code-blocks an SM
 * against 48 (80 when this was measured), so a launch with few code-blocks leaves
 * fewer warps to hide each other's latency, and its slowest work-groups set the
 * time. On an H200 (132 SMs) 4K batches took half-words from about 24,000
 * code-blocks with something coded: lossless (6,321 a picture, 6 lanes) 13 % faster,
 * 0.8 bits a sample (3,471 a picture) 6 % slower with 6 lanes and 7 % faster with 8,
 * 0.4 bits (2,092) 13 % slower with 6 and 8 lanes. With 96 a count of 120 or 240 per
 * unit gave 4K lossy the same times (run131.sh). GJ_J2K_T1_HALF_BLOCKS sets another.
 */
#define J2K_T1_HALF_BLOCKS_PER_UNIT 180

size_t j2k_t1_input_offsets(size_t nb_cblks, size_t nb_segments, uint64_t data_size, uint64_t *segments_at,
                            uint64_t *data_at)
{
    *segments_at = j2k_align16(nb_cblks * sizeof(gj_j2k_cblk));
    *data_at = *segments_at + j2k_align16(nb_segments * sizeof(uint32_t));
    return *data_at + data_size;
}

size_t j2k_t1_input_size(const j2k_layout *l, uint64_t *segments_at, uint64_t *data_at)
{
    return j2k_t1_input_offsets(l->nb_cblks, l->nb_segments, l->data_size, segments_at, data_at);
}

int j2k_t1_upload(gj_device *dev, const gj_buffer *buf, uint64_t at, const j2k_layout *l)
{
    uint64_t segments_at, data_at;
    int ret;

    j2k_t1_input_size(l, &segments_at, &data_at);
    if (!l->nb_cblks)
        return 0;
    if ((ret = dev->ops->upload(dev, buf, at, l->cblks, l->nb_cblks * sizeof(*l->cblks))) < 0 ||
        (l->nb_segments && (ret = dev->ops->upload(dev, buf, at + segments_at, l->segments,
                                                   l->nb_segments * sizeof(*l->segments))) < 0))
        return ret;
    /* The data: its runs (layout.h), or the bytes joined on the host where there are none. */
    if (!l->nb_runs && l->data_size && (ret = dev->ops->upload(dev, buf, at + data_at, l->data, l->data_size)) < 0)
        return ret;
    for (size_t i = 0, run_at = 0; i < l->nb_runs; run_at += l->runs[i++].size)
        if ((ret = dev->ops->upload(dev, buf, at + data_at + run_at, l->runs[i].data, l->runs[i].size)) < 0)
            return ret;
    return 0;
}

/* Code-blocks first .. first + count - 1 of the table at `at`, GJ_J2K_T1_BLOCKS per group of a warp each. */
static int launch_blocks(gj_device *dev, const gj_buffer *buf, uint64_t at, uint64_t segments_at, uint64_t data_at,
                         size_t first, size_t count, const gj_buffer *coef, int wide)
{
    gj_karg a[] = { GJ_ARG_BUF(buf), GJ_ARG_U64(at + first * sizeof(gj_j2k_cblk)), GJ_ARG_U32(count),
                    GJ_ARG_U64(at + segments_at), GJ_ARG_U64(at + data_at), GJ_ARG_BUF(coef), GJ_ARG_U32(wide) };

    if (!count)
        return 0;
    return gj_dev_launch(dev, "gj_j2k_t1_decode_blocks", (count + GJ_J2K_T1_BLOCKS - 1) / GJ_J2K_T1_BLOCKS,
                         GJ_J2K_T1_LANES * GJ_J2K_T1_BLOCKS, a, 7);
}

int j2k_t1_launch(gj_device *dev, const gj_buffer *buf, uint64_t at, const j2k_layout *l, size_t first,
                  size_t count, const gj_buffer *coef, int wide)
{
    uint64_t segments_at, data_at;

    j2k_t1_input_size(l, &segments_at, &data_at);
    return launch_blocks(dev, buf, at, segments_at, data_at, first, count, coef, wide);
}

int j2k_t1_launch_batch(gj_device *dev, const gj_buffer *buf, uint64_t at, uint64_t segments_at, uint64_t data_at,
                        size_t first, size_t count, uint32_t max_words, const gj_buffer *coef, int wide)
{
    const char *name, *env = getenv("GJ_J2K_T1_LONG"), *half_env = getenv("GJ_J2K_T1_HALF_BLOCKS");
    size_t long_groups, rest, groups, pack = 2;
    size_t half_blocks = half_env ? strtoul(half_env, NULL, 10) : J2K_T1_HALF_BLOCKS_PER_UNIT;

    if (!count)
        return 0;
    if (max_words > GJ_J2K_T1_WORDS_64)
        return launch_blocks(dev, buf, at, segments_at, data_at, first, count, coef, wide);
    name = "gj_j2k_t1_decode_mixed";
    if (max_words <= GJ_J2K_T1_WORDS_32) {
        name = "gj_j2k_t1_decode_mixed32";
        pack = 4;
    } else if (count >= half_blocks * (size_t)dev->compute_units) {
        name = "gj_j2k_t1_decode_half";
        pack = 4;
    }
    long_groups = (J2K_T1_LONG_BLOCKS + GJ_J2K_T1_BATCH_WARPS - 1) / GJ_J2K_T1_BATCH_WARPS;
    if (env)
        long_groups = (size_t)atoi(env);
    if (long_groups * GJ_J2K_T1_BATCH_WARPS >= count) {
        long_groups = (count + GJ_J2K_T1_BATCH_WARPS - 1) / GJ_J2K_T1_BATCH_WARPS;
        rest = 0;
    } else {
        rest = count - long_groups * GJ_J2K_T1_BATCH_WARPS;
    }
    groups = long_groups + (rest + pack * GJ_J2K_T1_BATCH_WARPS - 1) / (pack * GJ_J2K_T1_BATCH_WARPS);
    {
        gj_karg a[] = { GJ_ARG_BUF(buf), GJ_ARG_U64(at + first * sizeof(gj_j2k_cblk)), GJ_ARG_U32(count),
                        GJ_ARG_U64(at + segments_at), GJ_ARG_U64(at + data_at), GJ_ARG_BUF(coef), GJ_ARG_U32(wide),
                        GJ_ARG_U32(long_groups) };

        return gj_dev_launch(dev, name, groups, GJ_J2K_T1_LANES * GJ_J2K_T1_BATCH_WARPS, a, 8);
    }
}

int j2k_t1_queue(gj_device *dev, const gj_buffer *buf, uint64_t at, const j2k_layout *l, const gj_buffer *coef,
                 int wide)
{
    int ret;

    if ((ret = j2k_t1_upload(dev, buf, at, l)) < 0)
        return ret;
    return j2k_t1_launch(dev, buf, at, l, 0, l->nb_cblks, coef, wide);
}
