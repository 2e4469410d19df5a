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
#include "thread_pool.h"

/*
 * Lanes: decoders on sibling devices (a queue each), one host thread each in a
 * batch. A lane holds what one decode needs (coefficients, T1's input, a staging
 * picture for host output), so a batch holds that much per lane.
 */
#define GJ_J2K_MAX_LANES 16
#define GJ_J2K_DEFAULT_LANES 4

struct gj_j2k_decoder {
    gj_device *dev;
    gj_device *frame_dev;       /* allocates device output frames: the caller's device, for lanes too */
    int owns_dev;               /* a lane's sibling device, destroyed with it */
    int reduce;
    int max_layers;
    j2k_layout layout;          /* uploaded asynchronously: lives until the queue ran */
    gj_j2k_out_params out;
    gj_buffer t1_input, coef, tmp, jobs, out_tiles, out_params, palette;
    gj_frame staging;           /* device picture for host-memory output */
    j2k_early early;            /* T1 of the lowest resolutions while T2 goes on (not on lanes) */
    gj_frame *early_out;        /* the output frame of the decode being done, for the early launch */
    int profile;                /* GJ_PROFILE=2: the host's time to the early launch and to the kernels */
    struct gj_j2k_decoder *lanes[GJ_J2K_MAX_LANES];
    int num_lanes;
    int lanes_wanted;           /* GJ_LANES, else GJ_J2K_DEFAULT_LANES, until gj_j2k_decoder_set_lanes() */
    gj_thread_pool *pool;       /* a thread per lane for batches */
};

/* decode_batch.c */
void gj_j2k_lanes_free(gj_j2k_decoder *dec);

#endif /* GJ_J2K_DECODER_PRIVATE_H */
