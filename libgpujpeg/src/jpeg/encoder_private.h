/*
 * What the JPEG encoder's files share: the picture geometry and tables of one
 * encode (encode_setup.c) and the pipeline that runs them (encoder.c).
 * Not part of the public API.
 */
#ifndef GJ_JPEG_ENCODER_PRIVATE_H
#define GJ_JPEG_ENCODER_PRIVATE_H

#include "gpujpeg/jpeg_encode.h"
#include "jpeg/markers.h"
#include "kernels/jpeg_encode_params.h"

/* T.81 B.2.2: 16-bit frame dimensions. */
#define GJ_JPEG_ENCODE_MAX_SIDE 65535

/* The tables of one encode: quantisation (natural order) and Huffman, 0 luma, 1 chroma. */
typedef struct gj_jpeg_tables {
    uint16_t quant[2][64];
    gj_huffman_spec dc[2];
    gj_huffman_spec ac[2];
    int count;                   /* table sets in use: 1 for gray, else 2 */
} gj_jpeg_tables;

/*
 * Checks the frame and settings and fills the kernels' parameters (everything
 * but the plane pitches and offsets, which depend on where the planes are) and
 * the tables (standard Huffman tables). Logs and returns a negative code for
 * anything the encoder cannot do.
 */
int gj_jpeg_encode_setup(const gj_frame *in, const gj_jpeg_encode_params *s, gj_enc_params *p,
                         gj_jpeg_tables *t);

#endif /* GJ_JPEG_ENCODER_PRIVATE_H */
