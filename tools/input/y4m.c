/*
 * gpujpeg tool: YUV4MPEG2 reader, the first frame: C420jpeg/C420/C420paldv/
 * C420mpeg2, C422, C444, C440 and Cmono, 8 bits. JPEG codes full-range samples:
 * files tagged XCOLORRANGE=LIMITED are refused rather than encoded with the
 * wrong levels.
 */
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/common.h"
#include "input.h"

#define Y4M_SIGNATURE "YUV4MPEG2 "

static int y4m_probe(const uint8_t *data, size_t size)
{
    return size >= 10 && !memcmp(data, Y4M_SIGNATURE, 10);
}

static enum gj_pixel_format y4m_format(const char *tag)
{
    static const struct { const char *tag; enum gj_pixel_format format; } map[] = {
        { "420jpeg", GJ_PIX_FMT_YUVJ420P }, { "420", GJ_PIX_FMT_YUVJ420P }, { "420paldv", GJ_PIX_FMT_YUVJ420P },
        { "420mpeg2", GJ_PIX_FMT_YUVJ420P }, { "422", GJ_PIX_FMT_YUVJ422P }, { "444", GJ_PIX_FMT_YUVJ444P },
        { "440", GJ_PIX_FMT_YUVJ440P }, { "mono", GJ_PIX_FMT_GRAY8 },
    };
    size_t i;

    for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (!strcmp(tag, map[i].tag))
            return map[i].format;
    return GJ_PIX_FMT_NONE;
}

/* The stream header's W, H and C tags (space-separated, up to the newline). */
static int y4m_header(const char *line, long *w, long *h, char *colorspace, size_t cs_size, int *limited)
{
    const char *p = line + 10;

    while (*p) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (p[0] == 'W')
            *w = atol(p + 1);
        else if (p[0] == 'H')
            *h = atol(p + 1);
        else if (p[0] == 'C' && len - 1 < cs_size) {
            memcpy(colorspace, p + 1, len - 1);
            colorspace[len - 1] = '\0';
        } else if (len == 19 && !strncmp(p, "XCOLORRANGE=LIMITED", 19)) {
            *limited = 1;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

static int y4m_read(const uint8_t *data, size_t size, gj_frame *frame)
{
    char line[256], colorspace[16] = "420jpeg";
    const uint8_t *nl = memchr(data, '\n', size < sizeof(line) ? size : sizeof(line));
    long w = -1, h = -1;
    int limited = 0, i, ret;
    size_t pos;

    if (!nl)
        return input_fail(GJ_ERROR_INVALIDDATA, "Y4M header without an end of line");
    memcpy(line, data, (size_t)(nl - data));
    line[nl - data] = '\0';
    y4m_header(line, &w, &h, colorspace, sizeof(colorspace), &limited);
    if (w < 1 || h < 1 || w > 65535 || h > 65535)
        return input_fail(GJ_ERROR_INVALIDDATA, "Y4M size %ldx%ld is out of range", w, h);
    if ((frame->format = y4m_format(colorspace)) == GJ_PIX_FMT_NONE)
        return input_fail(GJ_ERROR_UNSUPPORTED, "unsupported: Y4M colour space C%s", colorspace);
    if (limited)
        return input_fail(GJ_ERROR_UNSUPPORTED, "unsupported: limited-range Y4M (JPEG codes full-range samples)");
    pos = (size_t)(nl - data) + 1;
    if (size - pos < 6 || memcmp(data + pos, "FRAME", 5))
        return input_fail(GJ_ERROR_INVALIDDATA, "Y4M file without a frame");
    nl = memchr(data + pos, '\n', size - pos);
    if (!nl)
        return input_fail(GJ_ERROR_INVALIDDATA, "Y4M frame header without an end of line");
    pos = (size_t)(nl - data) + 1;
    frame->width = (int)w;
    frame->height = (int)h;
    frame->memory = GJ_MEMORY_HOST;
    if ((ret = gj_frame_alloc(frame, NULL)) < 0)
        return ret;
    for (i = 0; i < gj_pixel_format_describe(frame->format)->nb_planes; i++) {
        size_t row = gj_frame_plane_row_bytes(frame->format, i, frame->width);
        int rows = gj_frame_plane_height(frame->format, i, frame->height);
        if ((size - pos) / row < (size_t)rows) {
            gj_frame_unref(frame);
            return input_fail(GJ_ERROR_INVALIDDATA, "truncated Y4M frame");
        }
        for (int y = 0; y < rows; y++, pos += row)
            memcpy(frame->data[i] + (size_t)y * (size_t)frame->linesize[i], data + pos, row);
    }
    return 0;
}

const input_module input_y4m = {
    .name  = "y4m",
    .probe = y4m_probe,
    .read  = y4m_read,
};
