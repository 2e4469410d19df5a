/*
 * JPEG 2000 Part-1 codestream (T.800 Annex A): what the marker segments say.
 *
 * markers.c fills a gj_j2k_stream from the main header and every tile-part
 * header; tile data stays in the caller's buffer and is referenced by pointer.
 */
#ifndef GJ_J2K_CODESTREAM_H
#define GJ_J2K_CODESTREAM_H

#include <stddef.h>
#include <stdint.h>

#define J2K_MAX_COMPONENTS 16384
#define J2K_MAX_RESOLUTIONS 33      /* 32 decomposition levels + 1 (A.6.1) */
#define J2K_MAX_BANDS (3 * (J2K_MAX_RESOLUTIONS - 1) + 1)
#define J2K_MAX_POC 32

/* Progression orders (A.6.1, Table A.16). */
enum j2k_progression {
    J2K_LRCP = 0,
    J2K_RLCP = 1,
    J2K_RPCL = 2,
    J2K_PCRL = 3,
    J2K_CPRL = 4,
};

/* Code-block style bits (Table A.19). */
enum {
    J2K_CBLK_BYPASS   = 0x01,   /* selective arithmetic coding bypass */
    J2K_CBLK_RESET    = 0x02,   /* reset context probabilities after each pass */
    J2K_CBLK_TERMALL  = 0x04,   /* termination on each coding pass */
    J2K_CBLK_VCAUSAL  = 0x08,   /* vertically causal context */
    J2K_CBLK_PTERM    = 0x10,   /* predictable termination */
    J2K_CBLK_SEGSYM   = 0x20,   /* segmentation symbols */
    J2K_CBLK_HT       = 0x40,   /* HTJ2K (Part 15) */
};

/* Quantisation styles (Table A.28). */
enum {
    J2K_QUANT_NONE = 0,
    J2K_QUANT_DERIVED = 1,
    J2K_QUANT_EXPOUNDED = 2,
};

/* COD/COC parameters of one component (SPcod/SPcoc, A.6.1-A.6.2). */
typedef struct j2k_coding {
    int levels;                 /* decomposition levels NL */
    int cblk_w_exp, cblk_h_exp; /* xcb, ycb */
    int cblk_style;
    int reversible;             /* 5/3 filter (1) or 9/7 (0) */
    int precinct_w_exp[J2K_MAX_RESOLUTIONS];
    int precinct_h_exp[J2K_MAX_RESOLUTIONS];
} j2k_coding;

/* QCD/QCC parameters of one component (A.6.4-A.6.5). */
typedef struct j2k_quant {
    int style;
    int guard_bits;
    int nb_steps;               /* values read from the segment */
    uint16_t exponent[J2K_MAX_BANDS];
    uint16_t mantissa[J2K_MAX_BANDS];
} j2k_quant;

/* Where each component's COD/COC/QCD/QCC came from: later, more specific ones win (A.6). */
enum j2k_origin {
    J2K_FROM_MAIN_COD = 0,
    J2K_FROM_MAIN_COC = 1,
    J2K_FROM_TILE_COD = 2,
    J2K_FROM_TILE_COC = 3,
};

typedef struct j2k_component {
    int precision;              /* bits, 1..38 (Ssiz) */
    int is_signed;
    int dx, dy;                 /* XRsiz, YRsiz */
    j2k_coding coding;
    j2k_quant quant;
    int coding_origin, quant_origin;
    int roi_shift;              /* RGN SPrgn (A.6.3) */
} j2k_component;

/* One progression volume (POC, A.6.6, or the COD default). */
typedef struct j2k_progression_volume {
    int res_start, comp_start;
    int layer_end, res_end, comp_end;
    int order;
} j2k_progression_volume;

/* A run of bytes inside the input (tile-part bodies, PPT/PPM packet headers). */
typedef struct j2k_bytes {
    uint8_t *data;              /* owned copy when several pieces were joined */
    size_t size;
    size_t capacity;            /* 0: data points into the input (j2k_bytes_take) */
} j2k_bytes;

/* COD parameters that apply to a whole tile (Scod, SGcod). */
typedef struct j2k_tile_coding {
    int sop, eph;               /* Scod bits 1 and 2 */
    int user_precincts;         /* Scod bit 0 */
    int order;
    int layers;
    int mct;
} j2k_tile_coding;

typedef struct j2k_tile {
    j2k_tile_coding cod;
    /* The component parameters and progression volumes: the main header's, until a
     * tile-part header changes them (then a copy of the tile's own: own_comps, own_poc).
     * A codestream may have 65,535 tiles: most share. */
    j2k_component *comps;
    int own_comps;
    int nb_poc;
    int own_poc;                /* a tile-part header's POC replaced the main header's */
    j2k_progression_volume *poc;
    j2k_bytes data;             /* tile-part bodies joined in order */
    j2k_bytes ppt;              /* packed packet headers (PPT, or this tile's PPM share) */
    int has_packed_headers;
    int tile_parts_seen;
    int seen;                   /* at least one tile-part */
} j2k_tile;

typedef struct gj_j2k_stream {
    /* SIZ (A.5.1) */
    int capabilities;           /* Rsiz */
    uint32_t x1, y1, x0, y0;    /* Xsiz, Ysiz, XOsiz, YOsiz */
    uint32_t tw, th, tx0, ty0;  /* XTsiz, YTsiz, XTOsiz, YTOsiz */
    int tiles_x, tiles_y;
    int nb_comps;
    /* Main-header defaults, copied into each tile at its first tile-part. */
    j2k_tile_coding cod;
    j2k_component *comps;
    int nb_poc;
    j2k_progression_volume poc[J2K_MAX_POC];
    int poc_copies;             /* tiles whose POC repeated the main header's (markers.c) */
    int misordered_parts;       /* tile-parts whose TPsot is not their place in the codestream */
    j2k_bytes ppm;              /* all PPM data (Nppm-prefixed pieces per tile-part) */
    size_t ppm_pos;             /* next tile-part's piece */
    int has_ppm;
    j2k_tile *tiles;
    int truncated;              /* the codestream ended before EOC */
} gj_j2k_stream;

/*
 * Parses a codestream (SOC ... EOC). Tiles keep pointers into `data` or own copies.
 * Errors name the marker: "SIZ: Csiz 0". Returns 0 or a negative code.
 */
int j2k_parse_codestream(const uint8_t *data, size_t size, gj_j2k_stream *s);
/* Parses only the main header (up to the first SOT): enough for the picture's description. */
int j2k_parse_main_header(const uint8_t *data, size_t size, gj_j2k_stream *s);
void j2k_stream_free(gj_j2k_stream *s);
/* Gives tile t the main header's parameters (its first tile-part, or a tile that never came). */
int j2k_tile_defaults(gj_j2k_stream *s, j2k_tile *t);

/* ceil(a / b) for b > 0, and ceil(a / 2^e). */
static inline uint32_t j2k_ceil_div(uint64_t a, uint64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

static inline uint32_t j2k_ceil_shift(uint64_t a, int e)
{
    return (uint32_t)((a + (((uint64_t)1 << e) - 1)) >> e);
}

/* The extent of a component subsampled by d over a0..a1 of the reference grid, at
 * 1/2^reduce of the full size (B-12 and B-14). */
static inline uint32_t j2k_reduced_extent(uint32_t a0, uint32_t a1, int d, int reduce)
{
    return j2k_ceil_div(a1, (uint64_t)d << reduce) - j2k_ceil_div(a0, (uint64_t)d << reduce);
}

/* Appends bytes to a growable run. */
int j2k_bytes_append(j2k_bytes *b, const uint8_t *data, size_t size);
/* The same, but an empty run only points at data (which must outlive it): a tile in
 * one tile-part, the usual case, is never copied. */
int j2k_bytes_take(j2k_bytes *b, const uint8_t *data, size_t size);
void j2k_bytes_free(j2k_bytes *b);

#endif /* GJ_J2K_CODESTREAM_H */
