/*
 * The JPEG 2000 decoder's state, shared by decoder.c (one picture at a time) and
 * decode_batch.c (pictures on lanes that overlap).
 */
#ifndef GJ_J2K_DECODER_PRIVATE_H
#define GJ_J2K_DECODER_PRIVATE_H

#include "gpujpeg/j2k.h"
#include "device/device.h"
#include "j2k/early.h"
#include "j2k/layout.h"
#include "j2k/t1_merge.h"
#include "thread_pool.h"

/*
 * Lanes: decoders on sibling devices (a queue each), in GJ_J2K_LANE_SETS sets of up
 * to GJ_J2K_MAX_LANES that take a batch's waves in turn (decode_batch.c). A lane
 * holds its picture's tables and, for host output, a staging picture; the
 * coefficients of a wave's pictures share one buffer of GJ_J2K_WAVE_SLOTS, which
 * the waves also take in turn.
 */
#define GJ_J2K_MAX_LANES 16
#define GJ_J2K_DEFAULT_LANES 6
#define GJ_J2K_LANE_SETS 3
#define GJ_J2K_WAVE_SLOTS 2

struct gj_j2k_decoder {
    gj_device *dev;
    gj_device *frame_dev;       /* allocates device output frames: the caller's device, for lanes too */
    int owns_dev;               /* a lane's sibling device, destroyed with it */
    int reduce;
    int max_layers;
    j2k_layout layout;          /* uploaded asynchronously: lives until the queue ran */
    gj_j2k_out_params out;
    gj_buffer t1_input, coef, tmp, jobs, out_tiles, out_params, palette, plane_jobs;
    gj_buffer saturated;        /* the IDWT's flag: a 16-bit store saturated (j2k_dwt.h) */
    uint32_t *saturated_host;   /* its copy after an IDWT with optimistic fractions (layout.optimistic): */
                                /* page-locked, allocated by the first such IDWT */
    gj_buffer *coefs;           /* the decode's coefficients: &coef, or a lane's part of its batch's (decode_batch.c) */
    gj_frame staging;           /* device picture for host-memory output */
    j2k_early early;            /* T1 of the lowest resolutions while T2 goes on (not on lanes) */
    gj_frame *early_out;        /* the output frame of the decode being done, for the early launch */
    int profile;                /* GJ_PROFILE=2: the host's time to the early launch and to the kernels */
    int output_general;         /* GJ_J2K_OUTPUT_GENERAL=1: the general output kernel for every shape (to compare) */
    struct gj_j2k_decoder *lanes[GJ_J2K_LANE_SETS * GJ_J2K_MAX_LANES];
    int num_lanes;
    int lanes_wanted;           /* GJ_LANES, else GJ_J2K_DEFAULT_LANES, until gj_j2k_decoder_set_lanes() */
    gj_thread_pool *pool;       /* a thread per lane of a wave for batches */
    /* Batches' waves (decode_batch.c), by slot: T1's queue (the decoder's, and
     * t1_dev: a sibling on a GPU), its pictures' parts of the joined tables, the
     * host copy of its inputs (t1_merge.h: page-locked where the device has such
     * memory, allocated by that queue's device), the inputs, the coefficients. */
    gj_device *t1_dev;
    j2k_t1_part wave_parts[GJ_J2K_WAVE_SLOTS][GJ_J2K_MAX_LANES];
    uint8_t *wave_staging[GJ_J2K_WAVE_SLOTS];
    size_t wave_staging_size[GJ_J2K_WAVE_SLOTS];
    gj_buffer wave_input[GJ_J2K_WAVE_SLOTS], wave_coef[GJ_J2K_WAVE_SLOTS];
};

/* decoder.c: gj_j2k_decode() in two halves, which batches call apart (decode_batch.c). */
/* The bytes of l's coefficients on the device (whole 32-bit words: T1 XORs a 16-bit one through its word). */
size_t j2k_coef_bytes(const j2k_layout *l);
/*
 * The host's half: waits for the decoder's queued work, parses the picture (markers,
 * T2, the kernels' tables) and prepares the output: *target is the picture the
 * kernels write (out, or the staging picture). *truncated: the stream ended early.
 */
int j2k_decode_host(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_frame *out, gj_frame **target,
                    int *truncated);
/*
 * The device's half, queued: the IDWT's and output's tables first (an upload from
 * pageable memory waits for the queue's earlier work on CUDA: a lane uploads them
 * before its queue waits for its batch's T1), then T1 into dec->coef unless t1_done
 * (the coefficients are in *dec->coefs then), the IDWT and the output into target;
 * last the picture into out where target is the staging picture (host frames: the
 * copy waits for the kernels, so a batch makes it once the wave's lanes are done).
 */
int j2k_decode_tables(gj_j2k_decoder *dec, gj_frame *target);
int j2k_decode_kernels(gj_j2k_decoder *dec, gj_frame *target, int t1_done);
int j2k_decode_download(gj_j2k_decoder *dec, gj_frame *out, const gj_frame *target);
/*
 * After a decode finished: whether its optimistic 9/7 fractions (j2k/coef_range.h)
 * saturated a 16-bit store of the IDWT (logged, verbose); then the picture must be
 * decoded again with the worst case's (j2k_decode_frame_worst_case(); gj_j2k_decode()
 * and gj_j2k_decode_components() do so themselves).
 */
int j2k_decode_saturated(const gj_j2k_decoder *dec);
/* gj_j2k_decode() with the worst case's fractions. */
int j2k_decode_frame_worst_case(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_frame *out);

/* decode_batch.c */
void gj_j2k_lanes_free(gj_j2k_decoder *dec);

#endif /* GJ_J2K_DECODER_PRIVATE_H */
