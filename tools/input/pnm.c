/*
 * gpujpeg tool: Netpbm reader for 8-bit P5 (gray), P6 (RGB) and P7 (PAM with
 * DEPTH 1, 3 or 4: gray, RGB, RGB_ALPHA).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/common.h"
#include "input.h"

static int pnm_probe(const uint8_t *data, size_t size)
{
    return size >= 3 && data[0] == 'P' && (data[1] == '5' || data[1] == '6' || data[1] == '7') &&
           isspace(data[2]);
}

/* The next header token (whitespace and # comments skipped) as a number, or -1. */
static long header_number(const uint8_t *data, size_t size, size_t *pos)
{
    long v = 0;
    int digits = 0;

    while (*pos < size && (isspace(data[*pos]) || data[*pos] == '#')) {
        if (data[*pos] == '#')
            while (*pos < size && data[*pos] != '\n')
                (*pos)++;
        else
            (*pos)++;
    }
    while (*pos < size && isdigit(data[*pos]) && digits < 9) {
        v = v * 10 + (data[(*pos)++] - '0');
        digits++;
    }
    return digits ? v : -1;
}

/* PAM: "KEY value" lines up to ENDHDR. */
static int pam_header(const uint8_t *data, size_t size, size_t *pos, long *w, long *h, long *depth, long *maxval)
{
    while (*pos < size) {
        size_t end = *pos;
        char line[128];
        while (end < size && data[end] != '\n')
            end++;
        if (end - *pos >= sizeof(line))
            return -1;
        memcpy(line, data + *pos, end - *pos);
        line[end - *pos] = '\0';
        *pos = end + 1;
        if (!strncmp(line, "ENDHDR", 6))
            return 0;
        if (!strncmp(line, "WIDTH ", 6))
            *w = atol(line + 6);
        else if (!strncmp(line, "HEIGHT ", 7))
            *h = atol(line + 7);
        else if (!strncmp(line, "DEPTH ", 6))
            *depth = atol(line + 6);
        else if (!strncmp(line, "MAXVAL ", 7))
            *maxval = atol(line + 7);
    }
    return -1;
}

static int pnm_read(const uint8_t *data, size_t size, gj_frame *frame)
{
    size_t pos = 3, row;
    long w = -1, h = -1, depth = data[1] == '5' ? 1 : 3, maxval = -1;
    int ret;

    if (data[1] == '7') {
        if (pam_header(data, size, &pos, &w, &h, &depth, &maxval) < 0)
            return input_fail(GJ_ERROR_INVALIDDATA, "PAM header without ENDHDR");
    } else {
        w = header_number(data, size, &pos);
        h = header_number(data, size, &pos);
        maxval = header_number(data, size, &pos);
        pos++;      /* the one whitespace byte before the samples */
    }
    if (w < 1 || h < 1 || w > 65535 * 4 || h > 65535 * 4)
        return input_fail(GJ_ERROR_INVALIDDATA, "PNM size %ldx%ld is out of range", w, h);
    if (maxval != 255)
        return input_fail(GJ_ERROR_UNSUPPORTED, "unsupported: PNM with maxval %ld (8-bit only)", maxval);
    if (depth != 1 && depth != 3 && depth != 4)
        return input_fail(GJ_ERROR_UNSUPPORTED, "unsupported: PAM depth %ld (1, 3 or 4)", depth);
    row = (size_t)w * (size_t)depth;
    if (pos > size || (size - pos) / row < (size_t)h)
        return input_fail(GJ_ERROR_INVALIDDATA, "truncated PNM: %ldx%ld needs %zu bytes of samples",
                          w, h, row * (size_t)h);
    frame->width = (int)w;
    frame->height = (int)h;
    frame->format = depth == 1 ? GJ_PIX_FMT_GRAY8 : depth == 3 ? GJ_PIX_FMT_RGB24 : GJ_PIX_FMT_RGBA;
    frame->memory = GJ_MEMORY_HOST;
    if ((ret = gj_frame_alloc(frame, NULL)) < 0)
        return ret;
    for (long y = 0; y < h; y++)
        memcpy(frame->data[0] + (size_t)y * (size_t)frame->linesize[0], data + pos + (size_t)y * row, row);
    return 0;
}

const input_module input_pnm = {
    .name  = "pnm",
    .probe = pnm_probe,
    .read  = pnm_read,
};
