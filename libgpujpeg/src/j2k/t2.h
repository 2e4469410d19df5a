/* T2: the packets of a tile (T.800 B.9-B.12) into code-block segments (tile.h). */
#ifndef GJ_J2K_T2_H
#define GJ_J2K_T2_H

#include "j2k/tile.h"

/*
 * Told of each packet once it is in the tile's state (not of a truncated one), so
 * that work on finished code-blocks can start while T2 goes on (j2k/early.c).
 * A negative return ends T2 with that code.
 */
typedef struct j2k_t2_watch {
    int (*packet)(void *opaque, j2k_tile_state *ts, int comp, int res, int layer);
    void *opaque;
} j2k_t2_watch;

/*
 * Reads every packet of the tile in its progression order (COD, or the POC volumes).
 * Data of layers >= max_layers is parsed but left out. A truncated tile keeps what
 * arrived (ts->truncated, a warning). watch may be NULL. Returns 0 or a negative code.
 */
int j2k_t2_decode_tile(j2k_tile_state *ts, int max_layers, const j2k_t2_watch *watch);

#endif /* GJ_J2K_T2_H */
