/* Reads an 8-bit PNG into a pnm_image, so image_compare can check PNG output too. */
#ifndef TESTS_TOOLS_PNG_LOAD_H
#define TESTS_TOOLS_PNG_LOAD_H

#include <stddef.h>

#include "pnm.h"

/* Returns 0, or -1 with a one-line reason in err. Gray, RGB and RGBA keep their channels. */
int png_load(const char *path, pnm_image *img, char *err, size_t errlen);

#endif /* TESTS_TOOLS_PNG_LOAD_H */
