/* Huffman tables: T.81 Annex K defaults and the decoding tables the kernels use. */
#ifndef GJ_JPEG_HUFFMAN_TABLES_H
#define GJ_JPEG_HUFFMAN_TABLES_H

#include "jpeg/markers.h"
#include "kernels/jpeg_params.h"

/*
 * Copies `defined` into dst, or, when a scan names a table that no DHT defined,
 * the T.81 K.3 table for ids 0 (luminance) and 1 (chrominance), as libjpeg-turbo
 * does for Motion-JPEG frames that omit their DHT. Other ids are an error.
 */
int gj_huffman_spec_or_default(gj_huffman_spec *dst, const gj_huffman_spec *defined, int is_ac, int id);

/* Validates a table (T.81 C.2) and builds the kernels' decoding table. */
int gj_huffman_table_build(const gj_huffman_spec *spec, int is_ac, gj_huff_table *out);

#endif /* GJ_JPEG_HUFFMAN_TABLES_H */
