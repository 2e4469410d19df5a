/*
 * libgpujpeg: JPEG encoding on the GPU.
 *
 * Typical use:
 *     gj_jpeg_encoder *enc;
 *     gj_jpeg_encode_params params;
 *     gj_jpeg_output jpeg = { 0 };
 *     gj_jpeg_encoder_create(&enc, dev);
 *     gj_jpeg_encode_params_default(&params);     // q75 4:2:0, standard tables
 *     params.quality = 90;
 *     gj_jpeg_encode(enc, &frame, &params, &jpeg); // jpeg.data, jpeg.size
 *     ...                                          // more frames reuse enc and jpeg
 *     gj_jpeg_output_unref(&jpeg);
 *     gj_jpeg_encoder_free(&enc);
 *
 * The output is a baseline JFIF file (extended sequential where a quantisation
 * table needs 16-bit values): one interleaved scan (restart markers only
 * when asked for), YCbCr or gray. Colour conversion, downsampling, the integer
 * forward DCT, quantisation and Huffman coding all run on the GPU and follow
 * libjpeg-turbo's compressor bit for bit: an rgb24 picture encodes to the same
 * file as `cjpeg -dct int -quality Q -sample HxV [-optimize] [-restart NB]`.
 */
#ifndef GPUJPEG_JPEG_ENCODE_H
#define GPUJPEG_JPEG_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/device.h"
#include "gpujpeg/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Chroma sampling of the coded picture. */
enum gj_jpeg_sampling {
    GJ_JPEG_SAMPLING_420,   /* luma 2x2 (cjpeg -sample 2x2, its default) */
    GJ_JPEG_SAMPLING_422,   /* luma 2x1 */
    GJ_JPEG_SAMPLING_444,   /* luma 1x1 */
    GJ_JPEG_SAMPLING_440,   /* luma 1x2 */
    GJ_JPEG_SAMPLING_GRAY,  /* luma only (cjpeg -grayscale) */
    GJ_JPEG_SAMPLING_NB
};

/* "420", "422", "444", "440", "gray" (NULL if out of range), and back (0 or GJ_ERROR_INVAL). */
GJ_API const char *gj_jpeg_sampling_name(enum gj_jpeg_sampling sampling);
GJ_API int gj_jpeg_sampling_from_name(const char *name, enum gj_jpeg_sampling *sampling);

typedef struct gj_jpeg_encode_params {
    /* 1..100: libjpeg's scaling of the T.81 K.1/K.2 tables (jpeg_quality_scaling).
     * Ignored for a table given below. */
    int quality;
    /* Non-zero: scaled table values are limited to 255 so that the file is baseline
     * (cjpeg -baseline). Otherwise, as cjpeg by default, qualities below 24 make
     * values above 255: 16-bit DQT tables in an extended sequential (SOF1) file. */
    int baseline;
    enum gj_jpeg_sampling sampling;
    /* Custom quantisation tables in natural (row-major) order, values 1..8191:
     * [0] luma, [1] chroma; NULL: the quality-scaled standard table. */
    const uint16_t *quant_tables[2];
    /* MCUs per restart interval (RSTn markers, T.81 B.2.4.4); 0: none. */
    int restart_interval;
    /* Non-zero: optimal Huffman tables for this picture (T.81 K.2, as libjpeg's
     * optimize_coding), from symbol counts gathered on the GPU; a second coding pass. */
    int optimize;
} gj_jpeg_encode_params;

/* Quality 75, 4:2:0, standard tables, no restart markers, not optimised (cjpeg's defaults). */
GJ_API void gj_jpeg_encode_params_default(gj_jpeg_encode_params *params);

/*
 * An encoded JPEG file in host memory. Start with all fields zero: the library
 * allocates the buffer (page-locked memory of the encoder's device, which the
 * GPU writes at the bus's speed), grows it as needed and reuses it from call to
 * call; free it with gj_jpeg_output_unref() before freeing the device. Or point
 * data at a buffer of your own of `capacity` bytes (opaque_owner NULL): a JPEG
 * that does not fit fails with GJ_ERROR_INVAL.
 */
typedef struct gj_jpeg_output {
    uint8_t *data;
    size_t size;            /* bytes of the file */
    size_t capacity;        /* bytes available at data */
    void *opaque_owner;     /* set when the library allocated data */
} gj_jpeg_output;

GJ_API void gj_jpeg_output_unref(gj_jpeg_output *out);

typedef struct gj_jpeg_encoder gj_jpeg_encoder;

/* An encoder keeps its GPU buffers between calls: reuse it for every frame of a stream. */
GJ_API int gj_jpeg_encoder_create(gj_jpeg_encoder **enc, gj_device *dev);
GJ_API void gj_jpeg_encoder_free(gj_jpeg_encoder **enc);

/*
 * Encodes `in` into out. in: rgb24, rgba, bgra (converted as libjpeg does, alpha
 * ignored), gray8, or full-range planar YCbCr (yuvj444p, yuvj422p, yuvj420p,
 * yuvj440p; chroma downsampled further where the sampling asks for it), in host
 * memory or in the encoder device's memory, 1..65535 pixels each way. Returns 0
 * or a negative error code (message logged).
 */
GJ_API int gj_jpeg_encode(gj_jpeg_encoder *enc, const gj_frame *in, const gj_jpeg_encode_params *params,
                          gj_jpeg_output *out);

/*
 * Encodes n frames with the same parameters; outs[i] as for gj_jpeg_encode().
 * Returns 0 if all succeeded, else the first error; results[i] (may be NULL)
 * receives each frame's own return code.
 */
GJ_API int gj_jpeg_encode_batch(gj_jpeg_encoder *enc, const gj_frame *const *ins, int n,
                                const gj_jpeg_encode_params *params, gj_jpeg_output *outs, int *results);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_JPEG_ENCODE_H */
