/*
 * The gpujpeg hwaccel's hook in the mjpeg decoder's SOF handling.
 */
#ifndef AVCODEC_GPUJPEG_MJPEG_H
#define AVCODEC_GPUJPEG_MJPEG_H

#include "config_components.h"

struct MJpegDecodeContext;

#if CONFIG_MJPEG_GPUJPEG_CUDA_HWACCEL || CONFIG_MJPEG_GPUJPEG_OPENCL_HWACCEL
/**
 * Whether the gpujpeg hwaccel can decode the picture whose SOF is being parsed
 * (0 when no hardware device or frames are configured). Logs a warning when a
 * picture has to be decoded in software instead.
 */
int ff_gpujpeg_mjpeg_check(struct MJpegDecodeContext *s);
#else
static inline int ff_gpujpeg_mjpeg_check(struct MJpegDecodeContext *s)
{
    return 0;
}
#endif

#endif /* AVCODEC_GPUJPEG_MJPEG_H */
