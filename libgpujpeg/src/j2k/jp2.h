/* JP2 files (T.800 Annex I): the boxes around a codestream. */
#ifndef GJ_J2K_JP2_H
#define GJ_J2K_JP2_H

#include <stddef.h>
#include <stdint.h>

/* Palette columns and mapped channels we take (RGB and RGBA palettes). */
#define J2K_JP2_MAX_CHANNELS 4
/* NE's bound (I.5.3.4) */
#define J2K_JP2_MAX_ENTRIES 1024

typedef struct j2k_jp2 {
    const uint8_t *codestream;  /* the Contiguous Codestream box's contents */
    size_t codestream_size;
    uint32_t width, height;     /* ihdr */
    int nb_comps, bpc;
    int colour_method;          /* colr METH: 1 enumerated, 2 ICC (passed through) */
    int enum_cs;                /* 16 sRGB, 17 greyscale, 18 sYCC */
    const uint8_t *icc;         /* METH 2: the profile, in the file's bytes */
    size_t icc_size;
    /* pclr (I.5.3.4): palette_entries (NE) rows of palette_columns (NPC) values. */
    int palette_entries;        /* 0: no palette */
    int palette_columns;
    int palette_depth[J2K_JP2_MAX_CHANNELS];
    uint16_t *palette;          /* row-major, NE x NPC, unsigned */
    /* cmap (I.5.3.5): where each output channel comes from. */
    int nb_channels;
    int channel_component[J2K_JP2_MAX_CHANNELS];
    int channel_column[J2K_JP2_MAX_CHANNELS];   /* palette column, or -1 for the component itself */
    /* cdef (I.5.3.6): the colour each of the first channels is associated with, Asoc:
     * 1-based, 0 for the whole image (opacity), -1 where the box names none. */
    int has_cdef;
    int channel_association[J2K_JP2_MAX_CHANNELS];
    /* res (I.5.3.7): its first box, capture (resc) or default display (resd)
     * resolution, as the samples' aspect ratio (0/0 without one) */
    int sar_num, sar_den;
} j2k_jp2;

/* Whether data starts with the JP2 signature box (I.5.1). */
int j2k_is_jp2(const uint8_t *data, size_t size);
/* Parses the boxes; errors name the box ("jp2h: ihdr missing"). Free with j2k_jp2_free(). */
int j2k_parse_jp2(const uint8_t *data, size_t size, j2k_jp2 *jp2);
void j2k_jp2_free(j2k_jp2 *jp2);

#endif /* GJ_J2K_JP2_H */
