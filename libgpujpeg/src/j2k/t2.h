/* T2: the packets of a tile (T.800 B.9-B.12) into code-block segments (tile.h). */
#ifndef GJ_J2K_T2_H
#define GJ_J2K_T2_H

#include "j2k/tile.h"

/*
 * Reads every packet of the tile in its progression order (COD, or the POC volumes).
 * Data of layers >= max_layers is parsed but left out. A truncated tile keeps what
 * arrived (ts->truncated, a warning). Returns 0 or a negative code.
 */
int j2k_t2_decode_tile(j2k_tile_state *ts, int max_layers);

#endif /* GJ_J2K_T2_H */
