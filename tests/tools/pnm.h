/*
 * Minimal 8-bit PNM/PAM reader and writer for the test tools (P5 PGM, P6 PPM,
 * P7 PAM with DEPTH 1..4). Netpbm formats are what djpeg writes and what the
 * gpujpeg tool writes for gray/rgb/rgba, so comparing them needs nothing else.
 */
#ifndef TESTS_TOOLS_PNM_H
#define TESTS_TOOLS_PNM_H

#include <stddef.h>

typedef struct pnm_image {
    int width;
    int height;
    int channels;          /* 1 gray, 3 rgb, 4 rgba (PAM) */
    char tupltype[32];     /* PAM TUPLTYPE, or "GRAYSCALE"/"RGB" for P5/P6 */
    unsigned char *data;   /* width * height * channels bytes, rows top to bottom */
} pnm_image;

/* Returns 0, or -1 with a one-line reason in err. */
int pnm_read(const char *path, pnm_image *img, char *err, size_t errlen);

/* Writes P5 (1 channel), P6 (3) or P7 (otherwise). Returns 0 or -1 (errno set). */
int pnm_write(const char *path, const pnm_image *img);

/* Allocates data for width x height x channels; returns 0 or -1. */
int pnm_alloc(pnm_image *img, int width, int height, int channels);

void pnm_free(pnm_image *img);

#endif /* TESTS_TOOLS_PNM_H */
