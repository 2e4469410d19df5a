/*
 * T1 before T2 ends: the decoder's longest MQ chains are the code-blocks of the
 * lowest resolutions, which the resolution-first progressions (LRCP, RLCP, RPCL)
 * put first in the codestream. Once T2 has read every packet of the lowest
 * resolutions of a tile, their code-blocks go to T1 on a sibling queue of the
 * decoder's device while the host goes on with T2 and the tables (early.c).
 *
 * At that point the coefficients' width and the 9/7 fractions are not known yet
 * (coef_range.c bounds them from every code-block's bit-planes), so the early
 * launch keeps T1's signed magnitudes, 32-bit, apart; after the rest of T1, the
 * decoder's queue waits for the sibling and places them into the coefficients,
 * dequantised as T1 would have (gj_j2k_t1_place): the same bytes. The magnitudes
 * and the launch's tables and data take no memory of their own: they lie at the
 * end of the output picture's first plane, which only the output stage writes
 * (the rest of T1's input goes below them, decoder.c), so a decode's peak stays
 * the coefficients and the picture.
 */
#ifndef GJ_J2K_EARLY_H
#define GJ_J2K_EARLY_H

#include "device/device.h"
#include "j2k/layout.h"
#include "j2k/t2.h"

/* The decoder's output picture's first plane: the buffer, where the picture's bytes start and end. */
typedef int (*j2k_early_plane_fn)(void *opaque, gj_buffer *plane, uint64_t *start);

typedef struct j2k_early {
    int enabled;                /* GJ_J2K_EARLY unset or not 0, and the decoder has the GPU to itself */
    int reduce, max_layers;     /* of the decode being watched */
    gj_device *parent;          /* the decoder's device */
    gj_device *dev;             /* its queue: a sibling opened at the first early launch (on a GPU) */
    j2k_early_plane_fn plane;   /* asked at the launch (a negative code: no launch) */
    void *plane_opaque;
    j2k_t2_watch watch;
    int tile;                   /* the tile being watched, -1 before the first packet */
    int top_res;                /* its resolutions 0..top_res go early; -1: none */
    size_t pending;             /* their packets T2 has still to read */
    const j2k_codeblock **blocks;   /* the launch's code-blocks, in the order they were listed */
    size_t blocks_cap;
    j2k_layout tables;          /* the launch's code-blocks, segments and data: read until it ran */
    size_t count;               /* code-blocks launched (0: none this decode) */
    uint64_t coefs;             /* their coefficients */
    gj_buffer region;           /* a view of the plane: magnitudes, then the tables (then gj_j2k_t1_place's) */
    uint64_t region_at;         /* where it starts in the plane: the rest of T1's input must end before */
    double start_ms, launch_ms; /* host time of the decode's start and of the launch (GJ_PROFILE=2) */
} j2k_early;

/* Sets e up for the decodes of a decoder on dev; enabled unless GJ_J2K_EARLY=0. */
void j2k_early_init(j2k_early *e, gj_device *dev, j2k_early_plane_fn plane, void *opaque);
void j2k_early_free(j2k_early *e);

/*
 * Before a picture's host decode: waits until the previous early launch ran (its
 * inputs are reused) and returns the watch to hand to T2, or NULL when disabled.
 */
int j2k_early_begin(j2k_early *e, int reduce, int max_layers, const j2k_t2_watch **watch);

/*
 * After the rest of T1 on dev (the decoder's queue): waits for the early launch
 * and places its code-blocks (l->placed, in the launch's order) into coef.
 * Does nothing when there was no early launch.
 */
int j2k_early_place(j2k_early *e, gj_device *dev, j2k_layout *l, const gj_buffer *coef);

/* GJ_PROFILE=2: logs the host's time from j2k_early_begin() to the launch and to now. */
void j2k_early_report(const j2k_early *e, size_t main_cblks);

#endif /* GJ_J2K_EARLY_H */
