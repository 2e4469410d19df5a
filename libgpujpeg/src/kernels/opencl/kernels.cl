/* The OpenCL C build of the single-source kernels (see ../common.h). */
#include "../util.h"
#include "../scan.h"
#include "../jpeg_huffman_sync.h"
#include "../jpeg_idct.h"
#include "../jpeg_color.h"
#include "../dxt_encode.h"
#include "../dxt_decode.h"
