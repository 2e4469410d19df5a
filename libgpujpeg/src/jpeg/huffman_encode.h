/* Huffman tables of the encoder: code assignment (T.81 C.2) and optimal tables (K.2, as libjpeg). */
#ifndef GJ_JPEG_HUFFMAN_ENCODE_H
#define GJ_JPEG_HUFFMAN_ENCODE_H

#include <stdint.h>

#include "jpeg/markers.h"

/* codes[symbol] = code << 8 | length (0 for symbols the table lacks), the kernels' format. */
void gj_huffman_codes(const gj_huffman_spec *spec, uint32_t codes[256]);

/*
 * The optimal table for these symbol counts, limited to 16-bit codes, exactly as
 * libjpeg's jpeg_gen_optimal_table builds it (so files equal `cjpeg -optimize`'s).
 */
void gj_huffman_optimal(const uint32_t counts[256], gj_huffman_spec *spec);

#endif /* GJ_JPEG_HUFFMAN_ENCODE_H */
