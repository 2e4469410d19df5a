/*
 * libgpujpeg: DXT/BCn texture encoding and decoding on the GPU.
 *
 * Typical use:
 *     gj_dxt_encoder *enc;
 *     gj_dxt_encoder_create(&enc, dev);
 *     gj_dxt_blocks out = { .memory = GJ_MEMORY_HOST };
 *     gj_dxt_encode(enc, &frame, GJ_DXT_FORMAT_BC1, GJ_DXT_QUALITY_BALANCED, &out);
 *     fwrite(out.data, 1, out.size, f);           // after a DDS header (gj_dds_write_header)
 *     gj_dxt_blocks_unref(&out);
 *     gj_dxt_encoder_free(&enc);
 *
 * Blocks are stored as DDS and HAP store them: 4x4-pixel blocks in raster order,
 * each 8 (BC1, BC4) or 16 bytes (BC3, YCoCg), little-endian. Pictures whose
 * size is not a multiple of 4 are padded by repeating the last column and row.
 */
#ifndef GPUJPEG_DXT_H
#define GPUJPEG_DXT_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/device.h"
#include "gpujpeg/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gj_dxt_format {
    GJ_DXT_FORMAT_BC1,      /* DXT1, opaque RGB (HAP) */
    GJ_DXT_FORMAT_BC3,      /* DXT5, RGBA (HAP Alpha) */
    GJ_DXT_FORMAT_YCOCG,    /* scaled YCoCg in DXT5 (HAP Q) */
    GJ_DXT_FORMAT_BC4,      /* one channel (HAP Alpha-only): alpha, or gray without alpha */
    GJ_DXT_FORMAT_NB
};

enum gj_dxt_quality {
    GJ_DXT_QUALITY_FAST,        /* bounding box with inset */
    GJ_DXT_QUALITY_BALANCED,    /* LSpiro regression + least-squares refit */
    GJ_DXT_QUALITY_HIGH,        /* cluster fit + endpoint refinement */
    GJ_DXT_QUALITY_NB
};

/* "bc1", "bc3", "ycocg", "bc4"; "fast", "balanced", "high" (NULL if out of range). */
GJ_API const char *gj_dxt_format_name(enum gj_dxt_format format);
GJ_API const char *gj_dxt_quality_name(enum gj_dxt_quality quality);
/* Parses those names (also "dxt1", "dxt5"); returns 0 or GJ_ERROR_INVAL. */
GJ_API int gj_dxt_format_from_name(const char *name, enum gj_dxt_format *format);
GJ_API int gj_dxt_quality_from_name(const char *name, enum gj_dxt_quality *quality);

/* Bytes of the blocks of a width x height picture; 0 for a bad format or size. */
GJ_API size_t gj_dxt_size(enum gj_dxt_format format, int width, int height);

/* Compressed blocks of one picture, in host or device memory. */
typedef struct gj_dxt_blocks {
    enum gj_dxt_format format;
    int width;                  /* of the picture (not rounded up to blocks) */
    int height;
    enum gj_memory memory;
    /* Host pointer, CUdeviceptr cast to uint8_t *, or cl_mem cast to uint8_t *. */
    uint8_t *data;
    size_t offset;              /* where the blocks start in data (device memory; a multiple of 4) */
    size_t size;                /* gj_dxt_size(format, width, height) */
    void *opaque_owner;         /* set when the library allocated data */
} gj_dxt_blocks;

/* Frees blocks the library allocated and resets data, offset and size. */
GJ_API void gj_dxt_blocks_unref(gj_dxt_blocks *blocks);

typedef struct gj_dxt_encoder gj_dxt_encoder;

/* An encoder keeps its GPU buffers between calls: reuse it for every frame of a stream. */
GJ_API int gj_dxt_encoder_create(gj_dxt_encoder **enc, gj_device *dev);
GJ_API void gj_dxt_encoder_free(gj_dxt_encoder **enc);

/*
 * Encodes `in` (rgba, bgra, rgb24, gray8, yuvj420p, yuvj422p or yuvj444p, in
 * host memory or in the encoder device's memory; YCbCr is full-range BT.601 as
 * in JPEG) into out.
 *   out->memory: GJ_MEMORY_HOST, or the device's memory type to keep the blocks
 *                on the GPU.
 *   If out->data is NULL it is allocated (free with gj_dxt_blocks_unref());
 *   otherwise it must hold gj_dxt_size() bytes from out->offset.
 * BC4 encodes the alpha channel of rgba/bgra, else the gray level (Y of YCbCr,
 * BT.601 luma of rgb24). Returns 0 or a negative error code (message logged).
 */
GJ_API int gj_dxt_encode(gj_dxt_encoder *enc, const gj_frame *in, enum gj_dxt_format format,
                         enum gj_dxt_quality quality, gj_dxt_blocks *out);

/*
 * gj_dxt_encode() without the wait: returns once the work is queued on the
 * encoder's device. Blocks in device memory may be used by later work on that
 * device at once; blocks in host memory are complete after
 * gj_device_synchronize(), and the copy overlaps the host's work only when
 * they are page-locked (gj_dxt_blocks_alloc() with the device). The input
 * frame must stay unchanged until then too.
 */
GJ_API int gj_dxt_encode_async(gj_dxt_encoder *enc, const gj_frame *in, enum gj_dxt_format format,
                               enum gj_dxt_quality quality, gj_dxt_blocks *out);

/*
 * Allocates b->size bytes for b in b->memory: dev's memory, or host memory,
 * page-locked memory of dev when dev is given (copies from the device reach it
 * at the bus's speed; free the blocks before the device), else ordinary memory.
 * Free with gj_dxt_blocks_unref().
 */
GJ_API int gj_dxt_blocks_alloc(gj_dxt_blocks *b, gj_device *dev);

typedef struct gj_dxt_decoder gj_dxt_decoder;

GJ_API int gj_dxt_decoder_create(gj_dxt_decoder **dec, gj_device *dev);
GJ_API void gj_dxt_decoder_free(gj_dxt_decoder **dec);

/*
 * Decodes blocks (host memory or the device's) into out: rgba, bgra or rgb24,
 * or gray8 for BC4, in host or device memory (out->memory), allocated when
 * out->data[0] is NULL. Decoding follows FFmpeg's texturedsp (HAP and DDS
 * decoders) bit for bit; BC1 is opaque.
 */
GJ_API int gj_dxt_decode(gj_dxt_decoder *dec, const gj_dxt_blocks *in, gj_frame *out);

/* ------------------------------------------------------------------ DDS files */

#define GJ_DDS_HEADER_SIZE 128

/*
 * Writes the 128-byte DDS header ("DDS " + DDS_HEADER) for blocks of format:
 * FourCC DXT1, DXT5, ATI1 (BC4), or DXT5 tagged "YCG2" the way GIMP's DDS
 * plugin marks scaled YCoCg (which FFmpeg's DDS decoder honours).
 */
GJ_API int gj_dds_write_header(uint8_t *dst, enum gj_dxt_format format, int width, int height);

/*
 * Parses a DDS file's header: format, size, and where the first (top) level's
 * blocks start. Returns GJ_ERROR_INVALIDDATA or GJ_ERROR_UNSUPPORTED (message
 * logged) for anything else than the formats above, and for truncated files.
 */
GJ_API int gj_dds_parse_header(const uint8_t *data, size_t size, enum gj_dxt_format *format,
                               int *width, int *height, size_t *data_offset);

/* ------------------------------------------------------------------ HAP frames */

/* The second-stage compressor of HAP chunks. */
enum gj_hap_compressor {
    GJ_HAP_NONE,
    GJ_HAP_SNAPPY,      /* needs a library built with libsnappy (gj_hap_snappy_available) */
};

/* 1 when this build compresses HAP chunks with snappy. */
GJ_API int gj_hap_snappy_available(void);

/* The most chunks a HAP frame may have (the decoders' limit). */
#define GJ_HAP_MAX_CHUNKS 64

/* The most bytes gj_hap_pack() writes for blocks of this size and chunk count; 0 for bad arguments. */
GJ_API size_t gj_hap_max_size(size_t blocks_size, int chunks);

/*
 * Packs one picture's blocks (host memory) into a HAP frame, as HAP's
 * specification lays it out: BC1 as "Hap1" (texture format 0xB), BC3 as
 * "Hap5" (0xE), YCoCg as "HapY" (0xF), BC4 as alpha-only "HapA" (RGTC1, 0x1).
 * chunks (1..GJ_HAP_MAX_CHUNKS, at most one per block) splits the blocks into
 * runs of whole blocks, each compressed on its own (snappy, or stored where
 * snappy does not shrink it), on up to `threads` threads; more than one chunk
 * adds the decode instructions (compressor and size tables). Writes at most
 * out_size bytes (gj_hap_max_size() is enough) and sets *frame_size.
 */
GJ_API int gj_hap_pack(const gj_dxt_blocks *blocks, enum gj_hap_compressor compressor, int chunks, int threads,
                       uint8_t *out, size_t out_size, size_t *frame_size);

/*
 * A packer for a stream of frames: gj_hap_pack() with threads that stay
 * between frames (starting them for every frame costs about as much as a
 * small frame's compression) and buffers kept across frames. threads: 1 to
 * GJ_HAP_MAX_CHUNKS in all, the caller's included. One frame at a time.
 */
typedef struct gj_hap_packer gj_hap_packer;
GJ_API int gj_hap_packer_create(gj_hap_packer **packer, int threads);
GJ_API void gj_hap_packer_free(gj_hap_packer **packer);
GJ_API int gj_hap_packer_pack(gj_hap_packer *packer, const gj_dxt_blocks *blocks,
                              enum gj_hap_compressor compressor, int chunks, uint8_t *out, size_t out_size,
                              size_t *frame_size);

/*
 * A chunk count for blocks of this size that does not depend on the machine:
 * one chunk per GJ_HAP_AUTO_CHUNK_BYTES, 1 to GJ_HAP_MAX_CHUNKS (a 4K BC1
 * frame gets 31). Snappy compresses in independent 64 KiB fragments, so chunks
 * of 128 KiB cost next to nothing in size, and they let encoders and decoders
 * (FFmpeg's hap decoder, Vidvox's reference) work on several cores.
 */
#define GJ_HAP_AUTO_CHUNK_BYTES (128 * 1024)
GJ_API int gj_hap_auto_chunks(size_t blocks_size);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_DXT_H */
