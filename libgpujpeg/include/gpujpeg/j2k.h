/*
 * libgpujpeg: JPEG 2000 (Part 1) decoding on the GPU: codestreams (.j2k, .j2c)
 * and JP2 files.
 *
 * Typical use:
 *     gj_j2k_decoder *dec;
 *     gj_j2k_decoder_create(&dec, dev);
 *     gj_frame out = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
 *     gj_j2k_decode(dec, data, size, &out);   // allocates out's planes
 *     ...
 *     gj_frame_unref(&out);
 *     gj_j2k_decoder_free(&dec);
 *
 * Markers, JP2 boxes and packets (T2) are parsed on the CPU; code-block decoding
 * (T1), dequantisation, the inverse wavelet transform, the component transform
 * and the output packing run on the device.
 */
#ifndef GPUJPEG_J2K_H
#define GPUJPEG_J2K_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/device.h"
#include "gpujpeg/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GJ_J2K_MAX_INFO_COMPONENTS 4

typedef struct gj_j2k_info {
    int width;                  /* of the image area (Xsiz - XOsiz) at full resolution */
    int height;
    int x0, y0;                 /* the image area's origin on the reference grid (XOsiz, YOsiz) */
    int profile;                /* Rsiz: 0 (Part 1 only), 1, 2 (profiles 0, 1), 3, 4 (DCI 2K, 4K) ... */
    int num_components;
    int precision[GJ_J2K_MAX_INFO_COMPONENTS];    /* bits, of the first four components */
    int is_signed[GJ_J2K_MAX_INFO_COMPONENTS];
    int dx[GJ_J2K_MAX_INFO_COMPONENTS];           /* subsampling (XRsiz, YRsiz) */
    int dy[GJ_J2K_MAX_INFO_COMPONENTS];
    int tiles_x, tiles_y;
    int levels;                 /* decomposition levels of the main header's COD */
    int layers;
    int reversible;             /* 5/3 filter (lossless capable) rather than 9/7 */
    int mct;                    /* RCT/ICT on components 0-2 */
    int jp2;                    /* the data is a JP2 file */
    /* The format the picture decodes to, or GJ_PIX_FMT_NONE when none fits. */
    enum gj_pixel_format native_format;
    /* A JP2 file's sample aspect ratio, from its resolution box (res: the capture
     * or display resolution it holds first, vertical over horizontal, as FFmpeg's
     * jpeg2000 decoder reads it); 0/0 when unknown. */
    int sar_num, sar_den;
    /* A JP2 file's colour specification (colr, T.800 I.5.3.3): its enumerated colour
     * space (16 sRGB, 17 greyscale, 18 sYCC), or 0 for none or an ICC profile. */
    int colour_space;
    /* Its ICC profile (colr of method 2), which the decode does not apply: the profile is
     * data[icc_offset] to data[icc_offset + icc_size - 1], for the application (FFmpeg's
     * frames carry it as AV_FRAME_DATA_ICC_PROFILE); icc_size 0 without one. */
    size_t icc_offset, icc_size;
} gj_j2k_info;

/*
 * Parses the headers (the JP2 boxes and the main header); no GPU work.
 * Returns GJ_ERROR_UNSUPPORTED (message logged) for HTJ2K and Part-2 features.
 */
GJ_API int gj_j2k_read_info(const uint8_t *data, size_t size, gj_j2k_info *info);

#define GJ_J2K_MAX_PALETTE_ENTRIES 1024

/*
 * A JP2 file's palette (pclr, T.800 I.5.3.4) as the file holds it: entries rows of
 * columns unsigned values, column c of depth[c] bits. gj_j2k_decode() applies it
 * through the component map; a components decode (below) leaves the indices, which
 * this gives the colours of (FFmpeg's pal8, for example).
 */
typedef struct gj_j2k_palette {
    int entries;                /* 1 to 1024; 0: no palette (a codestream, or a JP2 file without one) */
    int columns;                /* 1 to 4 (palettes of more columns are refused) */
    int depth[GJ_J2K_MAX_INFO_COMPONENTS];
    uint16_t values[GJ_J2K_MAX_PALETTE_ENTRIES][GJ_J2K_MAX_INFO_COMPONENTS];
} gj_j2k_palette;

/* Parses the JP2 boxes for the palette; no GPU work. Errors as gj_j2k_read_info()'s for the boxes. */
GJ_API int gj_j2k_read_palette(const uint8_t *data, size_t size, gj_j2k_palette *palette);

/*
 * The size of the picture gj_j2k_decode() makes at 1/2^reduce of the full size (that
 * of the first component, as OpenJPEG reports it). Returns GJ_ERROR_INVAL when the
 * reduced picture is empty.
 */
GJ_API int gj_j2k_output_size(const gj_j2k_info *info, int reduce, int *width, int *height);

typedef struct gj_j2k_decoder gj_j2k_decoder;

/* A decoder keeps its GPU buffers between calls: reuse it for every frame of a stream. */
GJ_API int gj_j2k_decoder_create(gj_j2k_decoder **dec, gj_device *dev);
GJ_API void gj_j2k_decoder_free(gj_j2k_decoder **dec);

/*
 * Decodes at 1/2^reduce of the full size (the `reduce` of OpenJPEG: the highest
 * `reduce` resolution levels are left out); 0 (default) is the full picture.
 */
GJ_API int gj_j2k_decoder_set_reduce(gj_j2k_decoder *dec, int reduce);
/* Decodes only the first `layers` quality layers; 0 (default) decodes them all. */
GJ_API int gj_j2k_decoder_set_layers(gj_j2k_decoder *dec, int layers);

/*
 * Decodes one codestream or JP2 file into out.
 *   out->format: GJ_PIX_FMT_NONE for the native format, or that format itself.
 *   out->memory: GJ_MEMORY_HOST, or the decoder device's memory type.
 *   If out->data[0] is NULL the planes are allocated (free with gj_frame_unref());
 *   otherwise they must be large enough for the picture.
 * A truncated codestream decodes what is there (a warning is logged and
 * out->decode_error_flags is set); so does one whose tile-parts come out of their
 * order (TPsot), read in the codestream's. Returns 0 or a negative error code.
 * A device frame's memory also serves as the decoder's scratch space before the
 * picture is written (that keeps the decode within 3x the frame's size): after an
 * error, and in row padding past the picture, it holds no defined contents.
 */
GJ_API int gj_j2k_decode(gj_j2k_decoder *dec, const uint8_t *data, size_t size, gj_frame *out);

/*
 * Decodes n pictures; outs[i] follows the rules of gj_j2k_decode(). The pictures
 * go in waves of as many as the decoder has lanes: the lanes parse a wave's
 * pictures side by side on host threads (markers, T2), one T1 launch decodes the
 * code-blocks of all of them (the longest of every picture first), and each lane
 * finishes its picture on its own queue while the next wave is parsed. Returns 0
 * if all succeeded, else the first error; results[i] (may be NULL) receives each
 * picture's own return code: a broken picture fails alone. Device outputs are
 * complete when it returns. On a CPU device (PoCL) the lanes share the decoder's
 * queue.
 */
GJ_API int gj_j2k_decode_batch(gj_j2k_decoder *dec, const uint8_t *const *data, const size_t *sizes, int n,
                               gj_frame *outs, int *results);

/*
 * Lanes: the pictures per wave of gj_j2k_decode_batch(); 1 to 16, default 6 (1:
 * the pictures decode one after another, as by gj_j2k_decode()). Two waves are in
 * flight at a time, each holding its pictures' coefficients (2 bytes per sample and
 * component, 4 for deep or wide-ranging ones): beyond the output frames, a batch
 * holds up to 2 x lanes pictures' coefficients (gj_j2k_decode() uses none of them).
 */
GJ_API int gj_j2k_decoder_set_lanes(gj_j2k_decoder *dec, int lanes);

/*
 * A picture's components as the codestream has them, each in its own plane at its
 * own size (OpenJPEG's opj_image, PGX files): for pictures that no pixel format
 * holds (two components, more than four, four of more than 8 bits or of different
 * sizes) and for tools that want the components themselves. A JP2 file's palette
 * and channel boxes are not applied. The component transform (RCT/ICT) is, where
 * components 0-2 have one size (else it is left out with a warning, as OpenJPEG does).
 */
typedef struct gj_j2k_plane {
    int width, height;          /* the component's, at the decoded resolution (B-12 on its own grid) */
    int precision;              /* bits of a sample: values 0 .. 2^precision - 1 */
    int is_signed;              /* the samples are offset by 2^(precision - 1), as in frames */
    int bytes_per_sample;       /* 1 up to 8 bits, else 2 (native byte order, not shifted) */
    int linesize;               /* bytes from one row to the next */
    size_t offset;              /* where the plane starts in the buffer's plane 0 */
} gj_j2k_plane;

typedef struct gj_j2k_components {
    int nb_components;
    gj_j2k_plane *planes;       /* nb_components of them, allocated by the decoder */
    /*
     * One gray8 "picture" of bytes that holds every plane, in host memory or in the
     * decoder device's (set buffer.memory before decoding; the decoder allocates it).
     * Component c starts at buffer.data[0] + planes[c].offset (+ buffer.offset[0] on OpenCL).
     */
    gj_frame buffer;
} gj_j2k_components;

/*
 * Decodes one codestream or JP2 file into its components (reduce and layers as for
 * gj_j2k_decode()); out's planes and buffer are (re)allocated: out must be empty
 * or hold an earlier result. Returns 0 or a negative code; a truncated codestream
 * sets out->buffer.decode_error_flags.
 */
GJ_API int gj_j2k_decode_components(gj_j2k_decoder *dec, const uint8_t *data, size_t size,
                                    gj_j2k_components *out);
/* Frees the planes and the buffer; out->buffer.memory is kept. */
GJ_API void gj_j2k_components_unref(gj_j2k_components *out);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_J2K_H */
