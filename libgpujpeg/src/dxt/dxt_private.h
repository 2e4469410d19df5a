/*
 * What the DXT encoder (encoder.c) and decoder (decoder.c) share: buffers that
 * grow as frames need, the planes of a frame as kernel arguments, block storage
 * (format.c). Not part of the public API.
 */
#ifndef GJ_DXT_DXT_PRIVATE_H
#define GJ_DXT_DXT_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/dxt.h"
#include "device/device.h"
#include "kernels/dxt_params.h"

/* (Re)creates *buf when it is smaller than size; contents are not kept. */
int gj_dxt_ensure_buffer(gj_device *dev, gj_buffer *buf, size_t size);

/* Checks a picture size for DXT: 1..GJ_DXT_MAX_SIDE each way. `what` names the caller in messages. */
#define GJ_DXT_MAX_SIDE (1 << 18)
int gj_dxt_check_size(const char *what, int width, int height);
int gj_dxt_check_format(const char *what, enum gj_dxt_format format);

/* Stores a byte offset in the params' lo/hi pair. */
static inline void gj_dxt_set_offset(gj_u32 *lo, gj_u32 *hi, uint64_t offset)
{
    *lo = (gj_u32)offset;
    *hi = (gj_u32)(offset >> 32);
}

/*
 * Where the blocks of `b` are on dev: a buffer (b's own memory, which must be
 * dev's) covering offset + size bytes. Fails for blocks in other device memory.
 */
int gj_dxt_blocks_buffer(gj_device *dev, const gj_dxt_blocks *b, gj_buffer *buf);

/* Launches `kernel` over every block of the params' picture. */
int gj_dxt_launch(gj_device *dev, const char *kernel, const gj_dxt_params *p, const gj_karg *args, int nargs);

#endif /* GJ_DXT_DXT_PRIVATE_H */
