/* libgpujpeg: GPU image codecs for CUDA and OpenCL. The whole public API. */
#ifndef GPUJPEG_GPUJPEG_H
#define GPUJPEG_GPUJPEG_H

#include "gpujpeg/common.h"
#include "gpujpeg/frame.h"
#include "gpujpeg/device.h"
#include "gpujpeg/jpeg.h"
#include "gpujpeg/jpeg_encode.h"
#include "gpujpeg/dxt.h"
#include "gpujpeg/j2k.h"

#endif /* GPUJPEG_GPUJPEG_H */
