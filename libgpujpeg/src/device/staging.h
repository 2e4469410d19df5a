/*
 * Device pictures for decoders: the caller's frame when it lives on the device,
 * else a staging frame on the device that is downloaded into the caller's host frame.
 */
#ifndef GJ_DEVICE_STAGING_H
#define GJ_DEVICE_STAGING_H

#include <stdint.h>

#include "device/device.h"
#include "gpujpeg/frame.h"

/* Makes *staging a device frame of w x h in format, reallocating it only when it
 * is not one already. */
int gj_staging_ensure(gj_device *dev, gj_frame *staging, int w, int h, enum gj_pixel_format format);

/*
 * The device frame the kernels write for a w x h picture in out->format: out itself
 * when it lives in dev's memory (allocated when empty), else *staging (reallocated
 * when its size or format changes). `who` names the caller in messages.
 */
int gj_staging_target(gj_device *dev, gj_frame *staging, int w, int h, gj_frame *out,
                      gj_frame **target, const char *who);

/* Plane 0 of a device frame as a kernel argument, and its byte offset in the buffer. */
gj_buffer gj_staging_plane0(const gj_frame *f, uint64_t *offset);
/* Plane i of a device frame likewise. */
gj_buffer gj_staging_plane(const gj_frame *f, int i, uint64_t *offset);

/*
 * The longest stretch of a device frame's memory that is one range: its planes'
 * rows (pitch x plane height each), those that abut joined, as a parent buffer
 * (that of the stretch's first plane, sized to the stretch's end) and the
 * stretch's start in it. Returns its length; 0 when it has none.
 */
size_t gj_staging_contiguous(const gj_frame *f, gj_buffer *buf, uint64_t *offset);

/* Queues the copy of every plane of target's w x h picture into the host frame out
 * (allocated when empty). */
int gj_staging_download(gj_device *dev, const gj_frame *target, gj_frame *out, int w, int h);

/* Queues the copy of every plane of the device frame src into the device frame dst
 * (same size and format). */
int gj_staging_copy(gj_device *dev, const gj_frame *src, const gj_frame *dst);

#endif /* GJ_DEVICE_STAGING_H */
