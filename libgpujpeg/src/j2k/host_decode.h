/*
 * Everything the CPU does for one JPEG 2000 picture: JP2 boxes, markers, T2 of
 * every tile and the kernels' tables (layout.h). The decoder runs it before its
 * kernels; the fuzzing harness runs it alone.
 */
#ifndef GJ_J2K_HOST_DECODE_H
#define GJ_J2K_HOST_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/frame.h"
#include "j2k/codestream.h"
#include "j2k/jp2.h"
#include "j2k/layout.h"
#include "j2k/t2.h"

/*
 * The codestream inside data: data itself, or a JP2 file's jp2c box (then *boxes
 * holds the boxes: free with j2k_jp2_free(); boxes->codestream is NULL otherwise).
 */
int j2k_find_codestream(const uint8_t *data, size_t size, j2k_jp2 *boxes, const uint8_t **cs, size_t *cs_size);

/*
 * The frame format the picture decodes to (the components, or a JP2 file's channels
 * when boxes has a component map), or GJ_PIX_FMT_NONE with *why saying what does not fit.
 */
enum gj_pixel_format j2k_native_format(const gj_j2k_stream *s, const j2k_jp2 *boxes, const char **why);

/*
 * Parses data and fills l for a decode at 1/2^reduce of the size with the first
 * max_layers layers (0: all). *truncated is set when parts of the codestream are
 * missing. l->native_format says what the picture decodes to. l->runs may point
 * into data: keep it until they are uploaded. watch (may be NULL) is told of every
 * packet of T2 (t2.h).
 */
int j2k_host_decode(const uint8_t *data, size_t size, int reduce, int max_layers, j2k_layout *l,
                    int *truncated, const j2k_t2_watch *watch);

#endif /* GJ_J2K_HOST_DECODE_H */
