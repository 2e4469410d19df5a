/* gpujpeg tool: DDS writer (the header from the library, then the blocks as they are). */
#include <stdio.h>

#include "gpujpeg/dxt.h"
#include "output.h"

static int dds_write(FILE *f, const void *opaque)
{
    const gj_dxt_blocks *b = opaque;
    uint8_t header[GJ_DDS_HEADER_SIZE];
    int ret = gj_dds_write_header(header, b->format, b->width, b->height);

    if (ret < 0)
        return output_fail(ret, "cannot describe %dx%d %s blocks in a DDS header", b->width, b->height,
                           gj_dxt_format_name(b->format));
    if (fwrite(header, 1, sizeof(header), f) != sizeof(header) || fwrite(b->data, 1, b->size, f) != b->size)
        return output_io_error();
    return 0;
}

int output_write_dds(const char *path, const gj_dxt_blocks *blocks)
{
    return output_write_with(path, dds_write, blocks);
}
