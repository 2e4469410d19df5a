/*
 * Counting the JPEG 2000 decodes that went again with the worst case's 9/7 fractions
 * (their optimistic ones saturated: j2k/decoder.c logs it at the verbose level) from
 * the log, whatever its level; every other line is dropped.
 */
#ifndef GJ_TESTS_UNIT_DECODED_AGAIN_H
#define GJ_TESTS_UNIT_DECODED_AGAIN_H

#include <string.h>

#include "gpujpeg/gpujpeg.h"

static int decoded_again;

static inline void unit_count_again(void *opaque, int level, const char *message)
{
    (void)opaque;
    (void)level;
    decoded_again += strstr(message, "saturated with the optimistic fractions") != NULL;
}

/* From now on the log only counts (gj_log_set_callback(NULL, NULL) gives it back). */
static inline void unit_count_decoded_again(void)
{
    gj_log_set_callback(unit_count_again, NULL);
}

#endif /* GJ_TESTS_UNIT_DECODED_AGAIN_H */
