/* JP2 files (T.800 Annex I): the boxes around a codestream. */
#ifndef GJ_J2K_JP2_H
#define GJ_J2K_JP2_H

#include <stddef.h>
#include <stdint.h>

typedef struct j2k_jp2 {
    const uint8_t *codestream;  /* the Contiguous Codestream box's contents */
    size_t codestream_size;
    uint32_t width, height;     /* ihdr */
    int nb_comps, bpc;
    int colour_method;          /* colr METH: 1 enumerated, 2 ICC (passed through) */
    int enum_cs;                /* 16 sRGB, 17 greyscale, 18 sYCC */
    int palette_entries;        /* pclr NE (0: no palette) */
    int has_cdef;
} j2k_jp2;

/* Whether data starts with the JP2 signature box (I.5.1). */
int j2k_is_jp2(const uint8_t *data, size_t size);
/* Parses the boxes; errors name the box ("jp2h: ihdr missing"). */
int j2k_parse_jp2(const uint8_t *data, size_t size, j2k_jp2 *jp2);

#endif /* GJ_J2K_JP2_H */
