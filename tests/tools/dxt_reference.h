/*
 * The DXT tests' plain C references: a block decoder (dxt_palette.h's block
 * rules, the same header the GPU decoder uses, applied by a plain loop) and an
 * independent BC1 cluster-fit encoder in floating point, plus DDS files
 * through the library's header functions.
 */
#ifndef TESTS_TOOLS_DXT_REFERENCE_H
#define TESTS_TOOLS_DXT_REFERENCE_H

#include <stddef.h>

#include "pnm.h"

/* Writes a DDS file: 0, or 1 with a message on stderr. */
int dxt_ref_write_dds(const char *path, unsigned format, int width, int height, const unsigned char *blocks,
                      size_t size);

/* Decodes a DDS file's blocks: BC1 and YCoCg to RGB, BC3 to RGBA, BC4 to gray. 0, or 1 with a message. */
int dxt_ref_decode_dds(const unsigned char *data, size_t size, pnm_image *img);

/*
 * BC1 by exhaustive cluster fit (squish's method): pixels ordered along the
 * principal axis, every split into 4 clusters (and 3 with the midpoint), each
 * solved by least squares in double, quantised, and measured with its
 * clusters' palette entries; the best split's endpoints then take the nearest
 * entry per pixel. Edge blocks repeat the last column and row.
 */
void dxt_ref_cluster_bc1(const pnm_image *img, unsigned char *blocks);

#endif /* TESTS_TOOLS_DXT_REFERENCE_H */
