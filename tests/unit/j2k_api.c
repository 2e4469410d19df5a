/*
 * JPEG 2000 API test on the test device (GJ_TEST_DEVICE, default opencl-cpu), on
 * streams of the J2K corpus (GJ_J2K_CORPUS, default tests/j2k-corpus; skipped
 * without it): bad arguments and options get a clear error; a host picture, a
 * reused caller frame, a caller frame in the device's host memory and a second
 * decoder give the same bytes, packed and planar;
 * a picture kept in device memory has the host picture's size and format; the
 * reduced size; a components decode holds the picture's channels, again into the
 * same result and into device memory, and a two-component picture of another size;
 * a JP2 palette's values, which at a components decode's indices give the picture;
 * a JP2 file's colour space or ICC profile; decode_error_flags for a cut codestream
 * and tile-parts out of their order, not for a whole one;
 * pictures past the optimistic 16-bit fractions decode again (the log says so) into
 * the bytes of a decoder that takes the worst case's (GJ_J2K_WORST_CASE=1), and
 * others do not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"
#include "unit_decoded_again.h"


static void check_errors(gj_j2k_decoder *dec, const uint8_t *data, size_t size)
{
    gj_frame f = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST }, truncated = { .format = GJ_PIX_FMT_NONE };
    gj_j2k_info info;
    int ret;

    CHECK(gj_j2k_read_info(NULL, 0, &info) == GJ_ERROR_INVAL, "read_info(NULL)");
    CHECK(gj_j2k_read_info((const uint8_t *)"\xff\xd8\xff\xe0", 4, &info) == GJ_ERROR_INVALIDDATA,
          "a JPEG is not a codestream");
    CHECK(gj_j2k_decode(dec, NULL, 0, &f) == GJ_ERROR_INVAL, "decode(NULL)");
    CHECK(gj_j2k_decoder_set_reduce(dec, -1) == GJ_ERROR_INVAL, "reduce -1");
    CHECK(gj_j2k_decoder_set_layers(dec, -2) == GJ_ERROR_INVAL, "layers -2");
    CHECK(gj_j2k_decoder_set_reduce(dec, 31) == 0, "reduce 31");
    ret = gj_j2k_decode(dec, data, size, &f);
    CHECK(ret == GJ_ERROR_INVAL, "reduce past the levels: %d", ret);
    gj_j2k_decoder_set_reduce(dec, 0);
    f.format = GJ_PIX_FMT_GRAY8;
    ret = gj_j2k_decode(dec, data, size, &f);
    CHECK(ret == GJ_ERROR_INVAL, "an RGB picture as gray8: %d", ret);
    ret = gj_j2k_decode(dec, data, size / 2, &truncated);
    CHECK(ret == 0, "a truncated stream decodes what is there: %d", ret);
    gj_frame_unref(&truncated);
}

/* The bytes of the corpus file NAME (a failure, and NULL, where it cannot be read). */
static uint8_t *read_corpus(const char *corpus, const char *name, size_t *size)
{
    char path[1024];
    uint8_t *data;

    snprintf(path, sizeof(path), "%s/%s", corpus, name);
    if (!(data = unit_read_file(path, 0, size)))
        CHECK(0, "%s: cannot read", path);
    return data;
}

/*
 * decode_error_flags: set for a picture that may be damaged (a cut codestream, a
 * tile's parts out of their order), not for a whole one.
 */
static void check_error_flags(gj_j2k_decoder *dec, const char *corpus)
{
    static const struct { const char *name; size_t cut; int damaged; } files[] = {
        { "lossless_tile_parts.j2k", 0, 0 }, { "lossless_tile_parts.j2k", 2000, 1 },
        { "broken_tile_part_order.j2k", 0, 1 },
    };

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        gj_frame f = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
        size_t size;
        uint8_t *data = read_corpus(corpus, files[i].name, &size);
        int ret;

        if (!data)
            continue;
        ret = gj_j2k_decode(dec, data, files[i].cut ? files[i].cut : size, &f);
        CHECK(ret == 0 && !!f.decode_error_flags == files[i].damaged, "%s (%zu bytes): decode %d, decode_error_flags %d",
              files[i].name, files[i].cut ? files[i].cut : size, ret, f.decode_error_flags);
        gj_frame_unref(&f);
        free(data);
    }
}

/* A JP2 file's resolution box gives the sample aspect ratio (3:4 in the corpus's), its absence 0/0. */
static void check_aspect(const char *corpus)
{
    static const struct { const char *name; int num, den; } files[] = {
        { "lossless_res_jp2.jp2", 3, 4 }, { "lossless_file_jp2.jp2", 0, 0 }, { "lossless_rgb.j2k", 0, 0 },
    };

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        gj_j2k_info info;
        size_t size;
        uint8_t *data = read_corpus(corpus, files[i].name, &size);
        int ret;

        if (!data)
            continue;
        ret = gj_j2k_read_info(data, size, &info);
        CHECK(ret == 0 && info.sar_num == files[i].num && info.sar_den == files[i].den,
              "%s: read_info %d, sample aspect ratio %d:%d", files[i].name, ret, info.sar_num, info.sar_den);
        free(data);
    }
}

/*
 * A JP2 file's colour specification: its enumerated space, or where its ICC profile lies
 * (the bytes of NAME.icc); a codestream has neither. The ICC files are left out of a corpus
 * made without icc-profiles-free.
 */
static void check_colour(const char *corpus)
{
    static const struct { const char *name; int space, icc; } files[] = {
        { "lossless_file_jp2", 16, 0 }, { "lossless_rgb", 0, 0 }, { "lossless_icc_jp2", 0, 1 },
        { "lossless_icc_any_jp2", 16, 0 }, { "lossless_grok_icc_gray_jp2", 0, 1 },
    };

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[1024];
        gj_j2k_info info;
        size_t size, icc_size = 0;
        uint8_t *data, *icc = NULL;
        int ret;

        snprintf(path, sizeof(path), "%s/%s.%s", corpus, files[i].name, strstr(files[i].name, "jp2") ? "jp2" : "j2k");
        if (!(data = unit_read_file(path, 0, &size))) {
            CHECK(!strstr(files[i].name, "icc"), "%s: cannot read", path);
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s.icc", corpus, files[i].name);
        CHECK(!files[i].icc || (icc = unit_read_file(path, 0, &icc_size)), "%s: cannot read", path);
        ret = gj_j2k_read_info(data, size, &info);
        CHECK(ret == 0 && info.colour_space == files[i].space && info.icc_size == icc_size,
              "%s: read_info %d, colour space %d, ICC profile of %zu bytes", files[i].name, ret, info.colour_space,
              info.icc_size);
        CHECK(ret < 0 || !icc || (info.icc_offset + info.icc_size <= size &&
                                  !memcmp(data + info.icc_offset, icc, icc_size)),
              "%s: not the file's ICC profile at byte %zu", files[i].name, info.icc_offset);
        free(icc);
        free(data);
    }
}

/* One stream through every memory path. */
/*
 * A caller frame in the device's host memory (gj_device_host_alloc(): page-locked on
 * CUDA, as FFmpeg's software frames are), its rows 64 bytes longer than the
 * picture's and the rest filled, gets host's picture.
 */
static void check_host_memory(gj_device *dev, gj_j2k_decoder *dec, const uint8_t *data, size_t size,
                              const gj_frame *host, const char *path)
{
    const gj_pixel_format_desc *d = gj_pixel_format_describe(host->format);
    gj_frame f = { .width = host->width, .height = host->height, .format = host->format, .memory = GJ_MEMORY_HOST };
    size_t offsets[4], total = 0;
    uint8_t *mem;
    int ret;

    for (int p = 0; p < d->nb_planes; p++) {
        f.linesize[p] = (int)((gj_frame_plane_row_bytes(f.format, p, f.width) + 127) & ~(size_t)63);
        offsets[p] = total;
        total += (size_t)f.linesize[p] * (size_t)gj_frame_plane_height(f.format, p, f.height);
    }
    mem = gj_device_host_alloc(dev, total);
    CHECK(mem != NULL && ((uintptr_t)mem & 63) == 0, "%s: %zu bytes of the device's host memory, 64-byte aligned",
          path, total);
    if (!mem)
        return;
    memset(mem, 0xA5, total);
    for (int p = 0; p < d->nb_planes; p++)
        f.data[p] = mem + offsets[p];
    ret = gj_j2k_decode(dec, data, size, &f);
    CHECK(ret == 0 && unit_same_picture(host, &f), "%s: into the device's host memory %d", path, ret);
    gj_device_host_free(dev, mem);
}

static void check_paths(gj_device *dev, gj_j2k_decoder *dec, const char *path)
{
    gj_frame host = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
    gj_frame device = { .format = GJ_PIX_FMT_NONE, .memory = gj_device_memory(dev) };
    gj_frame back = { .memory = GJ_MEMORY_HOST }, small = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
    gj_j2k_decoder *other = NULL;
    gj_j2k_info info;
    size_t size;
    uint8_t *data = unit_read_file(path, 0, &size);
    int ret;

    if (!data) {
        CHECK(0, "%s: cannot read", path);
        return;
    }
    ret = gj_j2k_read_info(data, size, &info);
    CHECK(ret == 0, "%s: read_info %d", path, ret);
    ret = gj_j2k_decode(dec, data, size, &host);
    CHECK(ret == 0 && host.format == info.native_format, "%s: host decode %d", path, ret);
    ret = gj_j2k_decode(dec, data, size, &device);
    CHECK(ret == 0 && device.width == host.width && device.height == host.height && device.format == host.format,
          "%s: device decode %d", path, ret);
    back.format = host.format;
    back.width = host.width;
    back.height = host.height;
    gj_frame_alloc(&back, NULL);
    gj_j2k_decoder_create(&other, dev);
    ret = gj_j2k_decode(other, data, size, &back);
    CHECK(ret == 0 && unit_same_picture(&host, &back), "%s: a second decoder into a caller frame %d", path, ret);
    ret = gj_j2k_decode(dec, data, size, &host);
    CHECK(ret == 0 && unit_same_picture(&host, &back), "%s: the same frame decoded again %d", path, ret);
    check_host_memory(dev, dec, data, size, &host, path);
    gj_j2k_decoder_set_reduce(other, 1);
    ret = gj_j2k_decode(other, data, size, &small);
    CHECK(ret == 0 && small.width == (host.width + 1) / 2 && small.height == (host.height + 1) / 2,
          "%s: reduce 1 gives %dx%d of %dx%d (%d)", path, small.width, small.height, host.width, host.height, ret);
    {
        int w0 = 0, h0 = 0, w1 = 0, h1 = 0;
        CHECK(gj_j2k_output_size(&info, 0, &w0, &h0) == 0 && w0 == host.width && h0 == host.height &&
              gj_j2k_output_size(&info, 1, &w1, &h1) == 0 && w1 == small.width && h1 == small.height,
              "%s: output_size %dx%d, %dx%d at reduce 1", path, w0, h0, w1, h1);
        CHECK(gj_j2k_output_size(&info, -1, &w0, &h0) == GJ_ERROR_INVAL, "%s: output_size at reduce -1", path);
    }
    ret = gj_j2k_decode(dec, data, size, &small);
    CHECK(ret == GJ_ERROR_INVAL, "%s: a frame of the wrong size: %d", path, ret);
    gj_j2k_decoder_free(&other);
    gj_frame_unref(&host);
    gj_frame_unref(&device);
    gj_frame_unref(&back);
    gj_frame_unref(&small);
    free(data);
}

/* gj_j2k_decode_components() of an 8-bit RGB stream against its rgb24 decode, then of other. */
static void check_components(gj_device *dev, gj_j2k_decoder *dec, const char *rgb_path, const char *other)
{
    gj_frame host = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
    gj_j2k_components comps = { .buffer.memory = GJ_MEMORY_HOST };
    gj_j2k_components on_dev = { .buffer.memory = gj_device_memory(dev) };
    size_t size, other_size;
    uint8_t *data = unit_read_file(rgb_path, 0, &size), *other_data = unit_read_file(other, 0, &other_size);
    int ret, same = 1;

    if (!data || !other_data) {
        CHECK(0, "%s or %s: cannot read", rgb_path, other);
        free(data);
        free(other_data);
        return;
    }
    ret = gj_j2k_decode(dec, data, size, &host);
    CHECK(ret == 0 && host.format == GJ_PIX_FMT_RGB24, "%s: rgb24 decode %d", rgb_path, ret);
    for (int pass = 0; pass < 2 && ret == 0; pass++) {
        /* The second decode goes into the first one's result. */
        ret = gj_j2k_decode_components(dec, data, size, &comps);
        CHECK(ret == 0 && comps.nb_components == 3, "%s: components decode %d: %d components", rgb_path, ret,
              comps.nb_components);
        for (int c = 0; ret == 0 && c < 3; c++) {
            const gj_j2k_plane *p = &comps.planes[c];

            CHECK(p->width == host.width && p->height == host.height && p->precision == 8 &&
                  p->bytes_per_sample == 1 && !p->is_signed, "%s: plane %d is %dx%d, %d bits", rgb_path, c,
                  p->width, p->height, p->precision);
            for (int y = 0; y < host.height && same; y++)
                for (int x = 0; x < host.width; x++)
                    same &= comps.buffer.data[0][p->offset + (size_t)y * p->linesize + x] ==
                            host.data[0][(size_t)y * host.linesize[0] + 3 * x + c];
            CHECK(same, "%s: plane %d differs from the rgb24 decode's channel", rgb_path, c);
        }
    }
    ret = gj_j2k_decode_components(dec, data, size, &on_dev);
    CHECK(ret == 0 && on_dev.nb_components == 3 && on_dev.buffer.width == comps.buffer.width &&
          on_dev.buffer.height == comps.buffer.height, "%s: components decode into device memory %d", rgb_path, ret);
    ret = gj_j2k_decode_components(dec, other_data, other_size, &comps);
    CHECK(ret == 0 && comps.nb_components == 2 && comps.planes[1].width == (comps.planes[0].width + 1) / 2,
          "%s: components decode after another picture's %d", other, ret);
    gj_j2k_components_unref(&comps);
    gj_j2k_components_unref(&on_dev);
    CHECK(!comps.planes && !comps.buffer.data[0], "components unref");
    gj_frame_unref(&host);
    free(data);
    free(other_data);
}

/*
 * A JP2 file's palette as the file holds it (jp2_palette.pl's: 256 entries of i,
 * 255 - i and 7i mod 256, 8 bits each), none in a codestream; its colours at the
 * indices of a components decode are the rgb24 decode, which applies it.
 */
static void check_palette(gj_j2k_decoder *dec, const char *palette_path, const char *codestream_path)
{
    gj_frame host = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
    gj_j2k_components comps = { .buffer.memory = GJ_MEMORY_HOST };
    gj_j2k_palette *pal = malloc(sizeof(*pal));
    size_t size, cs_size;
    uint8_t *data = unit_read_file(palette_path, 0, &size), *cs = unit_read_file(codestream_path, 0, &cs_size);
    int ret, same = 1;

    if (!data || !cs || !pal) {
        CHECK(0, "%s or %s: cannot read", palette_path, codestream_path);
        goto out;
    }
    CHECK(gj_j2k_read_palette(NULL, 0, pal) == GJ_ERROR_INVAL, "read_palette(NULL)");
    ret = gj_j2k_read_palette(cs, cs_size, pal);
    CHECK(ret == 0 && pal->entries == 0, "%s: read_palette %d, %d entries", codestream_path, ret, pal->entries);
    ret = gj_j2k_read_palette(data, size, pal);
    CHECK(ret == 0 && pal->entries == 256 && pal->columns == 3 && pal->depth[0] == 8 && pal->depth[1] == 8 &&
          pal->depth[2] == 8, "%s: read_palette %d: %d entries of %d columns", palette_path, ret, pal->entries,
          pal->columns);
    for (int i = 0; ret == 0 && i < 256 && same; i++)
        same = pal->values[i][0] == i && pal->values[i][1] == 255 - i && pal->values[i][2] == (i * 7 & 255);
    CHECK(same, "%s: the palette's values", palette_path);
    ret = gj_j2k_decode(dec, data, size, &host);
    CHECK(ret == 0 && host.format == GJ_PIX_FMT_RGB24, "%s: rgb24 decode %d", palette_path, ret);
    if (ret == 0)
        ret = gj_j2k_decode_components(dec, data, size, &comps);
    CHECK(ret == 0 && comps.nb_components == 1 && comps.planes[0].width == host.width &&
          comps.planes[0].height == host.height && comps.planes[0].bytes_per_sample == 1,
          "%s: components decode %d", palette_path, ret);
    for (int y = 0; ret == 0 && y < host.height && same; y++)
        for (int x = 0; x < host.width; x++) {
            int index = comps.buffer.data[0][comps.planes[0].offset + (size_t)y * comps.planes[0].linesize + x];

            for (int c = 0; c < 3; c++)
                same &= host.data[0][(size_t)y * host.linesize[0] + 3 * x + c] == pal->values[index][c];
        }
    CHECK(same, "%s: the palette at the indices differs from the rgb24 decode", palette_path);
out:
    gj_j2k_components_unref(&comps);
    gj_frame_unref(&host);
    free(pal);
    free(data);
    free(cs);
}

/* Whether two components decodes hold the same planes (the bytes between them are no one's). */
static int same_components(const gj_j2k_components *a, const gj_j2k_components *b)
{
    if (a->nb_components != b->nb_components)
        return 0;
    for (int c = 0; c < a->nb_components; c++) {
        const gj_j2k_plane *p = &a->planes[c], *q = &b->planes[c];

        if (p->width != q->width || p->height != q->height || p->bytes_per_sample != q->bytes_per_sample)
            return 0;
        for (int y = 0; y < p->height; y++)
            if (memcmp(a->buffer.data[0] + p->offset + (size_t)y * p->linesize,
                       b->buffer.data[0] + q->offset + (size_t)y * q->linesize, (size_t)p->width * p->bytes_per_sample))
                return 0;
    }
    return 1;
}

/*
 * A stream past the optimistic fractions (lossy_saturate*: saturates is 1) decodes
 * once more, into the frame and the components a worst-case decoder gives; another
 * (saturates 0) only once, with its own (finer) fractions.
 */
static void check_saturation(gj_device *dev, gj_j2k_decoder *dec, const char *path, int saturates)
{
    gj_frame frame = { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST }, worst = frame;
    gj_j2k_components comps = { .buffer.memory = GJ_MEMORY_HOST }, worst_comps = comps;
    gj_j2k_decoder *worst_dec = NULL;
    size_t size;
    uint8_t *data = unit_read_file(path, 0, &size);
    int ret, ret_worst, before;

    if (!data) {
        CHECK(0, "%s: cannot read", path);
        return;
    }
    setenv("GJ_J2K_WORST_CASE", "1", 1);
    gj_j2k_decoder_create(&worst_dec, dev);
    unsetenv("GJ_J2K_WORST_CASE");
    unit_count_decoded_again();
    decoded_again = 0;
    ret = gj_j2k_decode(dec, data, size, &frame);
    CHECK(ret == 0 && decoded_again == saturates, "%s: decode %d, decoded again %d times", path, ret, decoded_again);
    before = decoded_again;
    ret_worst = gj_j2k_decode(worst_dec, data, size, &worst);
    CHECK(ret_worst == 0 && decoded_again == before, "%s: worst-case decode %d, decoded again", path, ret_worst);
    CHECK(!saturates || ret || ret_worst || unit_same_picture(&frame, &worst), "%s: differs from the worst-case decode",
          path);
    ret = gj_j2k_decode_components(dec, data, size, &comps);
    ret_worst = gj_j2k_decode_components(worst_dec, data, size, &worst_comps);
    CHECK(ret == 0 && ret_worst == 0 && decoded_again == before + saturates &&
          (!saturates || same_components(&comps, &worst_comps)),
          "%s: components decode %d (worst case %d, decoded again %d times) differs", path, ret, ret_worst,
          decoded_again - before);
    gj_log_set_callback(NULL, NULL);
    gj_j2k_components_unref(&comps);
    gj_j2k_components_unref(&worst_comps);
    gj_frame_unref(&frame);
    gj_frame_unref(&worst);
    gj_j2k_decoder_free(&worst_dec);
    free(data);
}

int main(void)
{
    const char *spec = getenv("GJ_TEST_DEVICE") ? getenv("GJ_TEST_DEVICE") : "opencl-cpu";
    const char *corpus = getenv("GJ_J2K_CORPUS") ? getenv("GJ_J2K_CORPUS") : "tests/j2k-corpus";
    static const char *const streams[] = { "lossless_rgb.j2k", "lossy_tiles.j2k", "planar_opj420.j2k",
                                           "lossless_deep16.j2k", "lossless_file_jp2.jp2",
                                           "planar_opj422p10.j2k" };
    char path[1024];
    gj_device *dev;
    gj_j2k_decoder *dec;
    uint8_t *data;
    size_t size;

    gj_log_set_level(GJ_LOG_QUIET);
    snprintf(path, sizeof(path), "%s/%s", corpus, streams[0]);
    if (!(data = unit_read_file(path, 0, &size))) {
        printf("no JPEG 2000 corpus in %s\n", corpus);
        return 77;
    }
    if (gj_device_create_from_string(&dev, spec) < 0) {
        printf("no %s device\n", spec);
        free(data);
        return 77;
    }
    gj_j2k_decoder_create(&dec, dev);
    check_errors(dec, data, size);
    free(data);
    check_aspect(corpus);
    check_colour(corpus);
    check_error_flags(dec, corpus);
    for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", corpus, streams[i]);
        check_paths(dev, dec, path);
    }
    {
        char other[1024];

        snprintf(path, sizeof(path), "%s/lossless_rgb.j2k", corpus);
        snprintf(other, sizeof(other), "%s/components_two.j2k", corpus);
        check_components(dev, dec, path, other);
        snprintf(path, sizeof(path), "%s/lossless_palette_jp2.jp2", corpus);
        snprintf(other, sizeof(other), "%s/lossless_gray.j2k", corpus);
        check_palette(dec, path, other);
    }
    {
        static const char *const saturation[] = { "lossy_saturate.j2k", "lossy_saturate_wide.j2k", "lossy_rgb.j2k" };

        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof(path), "%s/%s", corpus, saturation[i]);
            check_saturation(dev, dec, path, i < 2);
        }
    }
    gj_j2k_decoder_free(&dec);
    gj_device_free(&dev);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
