/*
 * DDS files (Microsoft's DDS_HEADER, one surface, no mipmaps) for DXT blocks.
 * Scaled YCoCg has no FourCC of its own: GIMP's DDS plugin marks it in
 * reserved1 ("GIMP-DDS", version, "YCG2"), which FFmpeg's DDS decoder reads.
 */
#include <string.h>

#include "dxt/dxt_private.h"
#include "log.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

enum {
    DDSD_CAPS = 0x1, DDSD_HEIGHT = 0x2, DDSD_WIDTH = 0x4, DDSD_PIXELFORMAT = 0x1000,
    DDSD_LINEARSIZE = 0x80000, DDPF_FOURCC = 0x4, DDSCAPS_TEXTURE = 0x1000,
};

/* Byte offsets in the file (after the 4-byte magic, the 124-byte DDS_HEADER). */
enum {
    OFF_SIZE = 4, OFF_FLAGS = 8, OFF_HEIGHT = 12, OFF_WIDTH = 16, OFF_LINEAR_SIZE = 20,
    OFF_RESERVED1 = 32, OFF_PF_SIZE = 76, OFF_PF_FLAGS = 80, OFF_PF_FOURCC = 84, OFF_CAPS = 108,
};

#define GIMP_DDS_VERSION 0x00030000u

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int gj_dds_write_header(uint8_t *dst, enum gj_dxt_format format, int width, int height)
{
    static const uint32_t fourcc[GJ_DXT_FORMAT_NB] = {
        FOURCC('D', 'X', 'T', '1'), FOURCC('D', 'X', 'T', '5'), FOURCC('D', 'X', 'T', '5'),
        FOURCC('A', 'T', 'I', '1'),
    };
    int ret;

    if (!dst)
        return GJ_ERROR_INVAL;
    if ((ret = gj_dxt_check_format("DDS", format)) < 0 || (ret = gj_dxt_check_size("DDS", width, height)) < 0)
        return ret;
    memset(dst, 0, GJ_DDS_HEADER_SIZE);
    put_le32(dst, FOURCC('D', 'D', 'S', ' '));
    put_le32(dst + OFF_SIZE, 124);
    put_le32(dst + OFF_FLAGS, DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | DDSD_LINEARSIZE);
    put_le32(dst + OFF_HEIGHT, (uint32_t)height);
    put_le32(dst + OFF_WIDTH, (uint32_t)width);
    put_le32(dst + OFF_LINEAR_SIZE, (uint32_t)gj_dxt_size(format, width, height));
    if (format == GJ_DXT_FORMAT_YCOCG) {
        put_le32(dst + OFF_RESERVED1, FOURCC('G', 'I', 'M', 'P'));
        put_le32(dst + OFF_RESERVED1 + 4, FOURCC('-', 'D', 'D', 'S'));
        put_le32(dst + OFF_RESERVED1 + 8, GIMP_DDS_VERSION);
        put_le32(dst + OFF_RESERVED1 + 12, FOURCC('Y', 'C', 'G', '2'));
    }
    put_le32(dst + OFF_PF_SIZE, 32);
    put_le32(dst + OFF_PF_FLAGS, DDPF_FOURCC);
    put_le32(dst + OFF_PF_FOURCC, fourcc[format]);
    put_le32(dst + OFF_CAPS, DDSCAPS_TEXTURE);
    return 0;
}

int gj_dds_parse_header(const uint8_t *data, size_t size, enum gj_dxt_format *format, int *width, int *height,
                        size_t *data_offset)
{
    uint32_t fourcc, w, h;
    size_t need;
    char name[5];

    if (!data || !format || !width || !height || !data_offset)
        return GJ_ERROR_INVAL;
    if (size < GJ_DDS_HEADER_SIZE || get_le32(data) != FOURCC('D', 'D', 'S', ' ') ||
        get_le32(data + OFF_SIZE) != 124 || get_le32(data + OFF_PF_SIZE) != 32)
        return gj_fail(GJ_ERROR_INVALIDDATA, "not a DDS file (no \"DDS \" magic and 124-byte header)");
    fourcc = get_le32(data + OFF_PF_FOURCC);
    memcpy(name, data + OFF_PF_FOURCC, 4);
    name[4] = '\0';
    for (int i = 0; i < 4; i++)
        if (name[i] < 32 || name[i] > 126)
            name[i] = '?';
    if (!(get_le32(data + OFF_PF_FLAGS) & DDPF_FOURCC))
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: uncompressed DDS (only DXT1, DXT5, YCoCg-DXT5 "
                       "and ATI1/BC4U blocks)");
    if (fourcc == FOURCC('D', 'X', 'T', '1'))
        *format = GJ_DXT_FORMAT_BC1;
    else if (fourcc == FOURCC('D', 'X', 'T', '5'))
        *format = get_le32(data + OFF_RESERVED1 + 12) == FOURCC('Y', 'C', 'G', '2') ? GJ_DXT_FORMAT_YCOCG
                                                                                  : GJ_DXT_FORMAT_BC3;
    else if (fourcc == FOURCC('A', 'T', 'I', '1') || fourcc == FOURCC('B', 'C', '4', 'U'))
        *format = GJ_DXT_FORMAT_BC4;
    else
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: DDS FourCC '%s' (only DXT1, DXT5, YCoCg-DXT5 "
                       "and ATI1/BC4U)", name);
    w = get_le32(data + OFF_WIDTH);
    h = get_le32(data + OFF_HEIGHT);
    if (w == 0 || h == 0 || w > GJ_DXT_MAX_SIDE || h > GJ_DXT_MAX_SIDE)
        return gj_fail(GJ_ERROR_INVALIDDATA, "DDS: picture size %ux%u is out of range (1..%d)", w, h,
                       GJ_DXT_MAX_SIDE);
    need = gj_dxt_size(*format, (int)w, (int)h);
    if (size - GJ_DDS_HEADER_SIZE < need)
        return gj_fail(GJ_ERROR_INVALIDDATA, "DDS: truncated: %zu bytes of blocks, %ux%u %s needs %zu",
                       size - GJ_DDS_HEADER_SIZE, w, h, name, need);
    *width = (int)w;
    *height = (int)h;
    *data_offset = GJ_DDS_HEADER_SIZE;
    return 0;
}
