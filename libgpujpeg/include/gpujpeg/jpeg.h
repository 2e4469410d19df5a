/*
 * libgpujpeg: JPEG decoding on the GPU.
 *
 * Typical use:
 *     gj_jpeg_decoder *dec;
 *     gj_jpeg_decoder_create(&dec, dev);
 *     gj_frame out = { .format = GJ_PIX_FMT_RGB24, .memory = GJ_MEMORY_HOST };
 *     gj_jpeg_decode(dec, data, size, &out);   // allocates out's planes
 *     ...
 *     gj_frame_unref(&out);
 *     gj_jpeg_decoder_free(&dec);
 */
#ifndef GPUJPEG_JPEG_H
#define GPUJPEG_JPEG_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/device.h"
#include "gpujpeg/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The colour space of the coded components (T.81 + JFIF + Adobe APP14 rules, as libjpeg). */
enum gj_jpeg_color_space {
    GJ_JPEG_CS_GRAY,
    GJ_JPEG_CS_YCBCR,
    GJ_JPEG_CS_RGB,
    GJ_JPEG_CS_CMYK,
    GJ_JPEG_CS_YCCK,
};

typedef struct gj_jpeg_info {
    int width;
    int height;
    int num_components;
    enum gj_jpeg_color_space color_space;
    int h_samp[4];
    int v_samp[4];
    int restart_interval;     /* of the first scan, in MCUs (0: none) */
    int num_scans;
    /* The planar format the picture decodes to without conversion, or
     * GJ_PIX_FMT_NONE when the sampling has no such format. */
    enum gj_pixel_format native_format;
} gj_jpeg_info;

/*
 * Parses the headers up to the first scan; no GPU work. Returns
 * GJ_ERROR_UNSUPPORTED (message logged) for progressive, lossless,
 * arithmetic-coded, 12-bit and hierarchical files.
 */
GJ_API int gj_jpeg_read_info(const uint8_t *data, size_t size, gj_jpeg_info *info);

typedef struct gj_jpeg_decoder gj_jpeg_decoder;

/* A decoder keeps its GPU buffers between calls: reuse it for every frame of a stream. */
GJ_API int gj_jpeg_decoder_create(gj_jpeg_decoder **dec, gj_device *dev);
GJ_API void gj_jpeg_decoder_free(gj_jpeg_decoder **dec);

/*
 * Decodes one JPEG into out.
 *   out->format: GJ_PIX_FMT_NONE for the native planar format, or rgb24, rgba,
 *                bgra, gray8 (luma / gray only) or a planar format equal to the native one.
 *   out->memory: GJ_MEMORY_HOST, or the decoder device's memory type to keep the
 *                picture on the GPU.
 *   If out->data[0] is NULL the planes are allocated (free with gj_frame_unref());
 *   otherwise they must be large enough for the picture.
 * Corrupt or truncated entropy data is concealed as libjpeg-turbo does; a warning is
 * logged and out->decode_error_flags is set. Returns 0 or a negative error code.
 */
GJ_API int gj_jpeg_decode(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out);

/*
 * Decodes n JPEGs; outs[i] follows the rules of gj_jpeg_decode(). The images are
 * spread over the decoder's lanes, one host thread each, so they overlap on the
 * device and on the host. Returns 0 if all succeeded, else the first error;
 * results[i] (may be NULL) receives each image's own return code.
 */
GJ_API int gj_jpeg_decode_batch(gj_jpeg_decoder *dec, const uint8_t *const *data,
                         const size_t *sizes, int n, gj_frame *outs, int *results);

/*
 * Streaming without waiting: queues the decode of one JPEG on the next lane and
 * returns as soon as the work is queued; data may be reused at once. out follows
 * the rules of gj_jpeg_decode() and its decode_error_flags are set on return. The
 * picture is complete for work queued on the decoder's device (its stream or queue)
 * after this call, and for the host after gj_device_synchronize(); a host-memory
 * out must not be read before. Each lane decodes into a picture of its own, copied
 * into out on the device's stream or queue (after the work queued there before),
 * so with n lanes up to n pictures decode at once while the host stages the next.
 */
GJ_API int gj_jpeg_decode_async(gj_jpeg_decoder *dec, const uint8_t *data, size_t size,
                                gj_frame *out);

/*
 * Lanes: decoders of the decoder's own (GPU buffers and a queue each) that
 * gj_jpeg_decode_batch() and gj_jpeg_decode_async() overlap; 1 to 16, default 10.
 * Each lane holds the memory one decode needs. gj_jpeg_decode() uses none.
 */
GJ_API int gj_jpeg_decoder_set_lanes(gj_jpeg_decoder *dec, int lanes);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_JPEG_H */
