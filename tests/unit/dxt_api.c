/*
 * DXT API test on the test device (GJ_TEST_DEVICE, default opencl-cpu): bad
 * input gets a clear error (zero and oversized pictures, unsupported pixel
 * formats, unknown formats and qualities, short outputs, gray output of colour
 * blocks); every memory path gives the same blocks (host -> host, device frame ->
 * device blocks, device blocks -> host and device pictures), for odd sizes too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"


static void fill(gj_frame *f)
{
    for (int y = 0; y < f->height; y++)
        for (int x = 0; x < f->width * 4; x++)
            f->data[0][(size_t)y * f->linesize[0] + x] = (uint8_t)((x * 7 + y * 13 + (x >> 2) * y) & 255);
}

static void check_errors(gj_dxt_encoder *enc, gj_dxt_decoder *dec)
{
    gj_frame f = { .width = 8, .height = 8, .format = GJ_PIX_FMT_GBRP, .memory = GJ_MEMORY_HOST };
    gj_dxt_blocks out = { .memory = GJ_MEMORY_HOST };
    uint8_t small[8];
    int ret;

    gj_frame_alloc(&f, NULL);
    ret = gj_dxt_encode(enc, &f, GJ_DXT_FORMAT_BC1, GJ_DXT_QUALITY_FAST, &out);
    CHECK(ret == GJ_ERROR_UNSUPPORTED, "gbrp input: %d, expected GJ_ERROR_UNSUPPORTED", ret);
    gj_frame_unref(&f);

    f = (gj_frame){ .width = 8, .height = 8, .format = GJ_PIX_FMT_RGBA, .memory = GJ_MEMORY_HOST };
    gj_frame_alloc(&f, NULL);
    fill(&f);
    f.width = 0;
    ret = gj_dxt_encode(enc, &f, GJ_DXT_FORMAT_BC1, GJ_DXT_QUALITY_FAST, &out);
    CHECK(ret == GJ_ERROR_INVAL, "0x8 picture: %d, expected GJ_ERROR_INVAL", ret);
    f.width = 8;
    ret = gj_dxt_encode(enc, &f, (enum gj_dxt_format)9, GJ_DXT_QUALITY_FAST, &out);
    CHECK(ret == GJ_ERROR_INVAL, "format 9: %d", ret);
    ret = gj_dxt_encode(enc, &f, GJ_DXT_FORMAT_BC1, (enum gj_dxt_quality)7, &out);
    CHECK(ret == GJ_ERROR_INVAL, "quality 7: %d", ret);
    out.data = small;
    out.size = sizeof(small) - 1;
    ret = gj_dxt_encode(enc, &f, GJ_DXT_FORMAT_BC1, GJ_DXT_QUALITY_FAST, &out);
    CHECK(ret == GJ_ERROR_INVAL, "7-byte output for 32 bytes of blocks: %d", ret);
    out = (gj_dxt_blocks){ .memory = GJ_MEMORY_HOST };
    ret = gj_dxt_encode(enc, &f, GJ_DXT_FORMAT_BC3, GJ_DXT_QUALITY_FAST, &out);
    CHECK(ret == 0 && out.size == 64, "8x8 bc3: %d, %zu bytes", ret, out.size);
    {
        gj_frame gray = { .format = GJ_PIX_FMT_GRAY8, .memory = GJ_MEMORY_HOST };
        ret = gj_dxt_decode(dec, &out, &gray);
        CHECK(ret == GJ_ERROR_INVAL, "gray output of bc3: %d", ret);
        gj_frame_unref(&gray);
    }
    out.size = 10;
    {
        gj_frame rgba = { .format = GJ_PIX_FMT_RGBA, .memory = GJ_MEMORY_HOST };
        ret = gj_dxt_decode(dec, &out, &rgba);
        CHECK(ret == GJ_ERROR_INVALIDDATA, "10 bytes of bc3 blocks for 8x8: %d", ret);
        gj_frame_unref(&rgba);
    }
    out.size = 64;
    gj_dxt_blocks_unref(&out);
    gj_frame_unref(&f);
    CHECK(gj_dxt_size(GJ_DXT_FORMAT_BC1, 0, 4) == 0 && gj_dxt_size(GJ_DXT_FORMAT_BC4, 5, 5) == 32,
          "gj_dxt_size");
}

/* Equal rows of two host RGBA pictures (not their padding). */
static int same_pixels(const gj_frame *a, const gj_frame *b)
{
    for (int y = 0; y < a->height; y++)
        if (memcmp(a->data[0] + (size_t)y * a->linesize[0], b->data[0] + (size_t)y * b->linesize[0],
                   (size_t)a->width * 4))
            return 0;
    return a->width == b->width && a->height == b->height;
}

/* Decodes blocks into a new host picture. */
static int decode_host(gj_dxt_decoder *dec, const gj_dxt_blocks *b, gj_frame *pic)
{
    *pic = (gj_frame){ .format = GJ_PIX_FMT_RGBA, .memory = GJ_MEMORY_HOST };
    return gj_dxt_decode(dec, b, pic);
}

/*
 * A host picture and the same picture in device memory encode to blocks that
 * decode alike, whether the blocks are in host or device memory and whether the
 * picture is decoded to host or device memory.
 */
static void check_paths(gj_device *dev, gj_dxt_encoder *enc, gj_dxt_decoder *dec, enum gj_dxt_format format,
                        int w, int h)
{
    enum gj_memory mem = gj_device_memory(dev);
    gj_frame src = { .width = w, .height = h, .format = GJ_PIX_FMT_RGBA, .memory = GJ_MEMORY_HOST };
    gj_frame on_dev = { .format = GJ_PIX_FMT_RGBA, .memory = mem }, pic, from_host, from_dev;
    gj_dxt_blocks first = { .memory = GJ_MEMORY_HOST }, host_blocks = { .memory = GJ_MEMORY_HOST };
    gj_dxt_blocks dev_blocks = { .memory = mem };
    int ret;

    gj_frame_alloc(&src, NULL);
    fill(&src);
    /* A picture known in both memories: the decode of some blocks, to host and to the device. */
    ret = gj_dxt_encode(enc, &src, format, GJ_DXT_QUALITY_HIGH, &first);
    CHECK(ret == 0, "host encode: %d", ret);
    CHECK(decode_host(dec, &first, &pic) == 0 && gj_dxt_decode(dec, &first, &on_dev) == 0, "decodes failed");
    ret = gj_dxt_encode(enc, &pic, format, GJ_DXT_QUALITY_HIGH, &host_blocks);
    CHECK(ret == 0, "host picture -> host blocks: %d", ret);
    ret = gj_dxt_encode(enc, &on_dev, format, GJ_DXT_QUALITY_HIGH, &dev_blocks);
    CHECK(ret == 0, "device picture -> device blocks: %d", ret);
    CHECK(decode_host(dec, &host_blocks, &from_host) == 0 && decode_host(dec, &dev_blocks, &from_dev) == 0,
          "decodes to host failed");
    CHECK(same_pixels(&from_host, &from_dev), "%s %dx%d: blocks encoded from device memory decode differently",
          gj_dxt_format_name(format), w, h);
    gj_frame_unref(&on_dev);
    on_dev = (gj_frame){ .format = GJ_PIX_FMT_RGBA, .memory = mem };
    CHECK(gj_dxt_decode(dec, &dev_blocks, &on_dev) == 0, "device blocks -> device picture failed");
    gj_dxt_blocks_unref(&first);
    gj_dxt_blocks_unref(&host_blocks);
    gj_dxt_blocks_unref(&dev_blocks);
    gj_frame_unref(&src);
    gj_frame_unref(&pic);
    gj_frame_unref(&on_dev);
    gj_frame_unref(&from_host);
    gj_frame_unref(&from_dev);
}

/*
 * gj_dxt_encode_async into page-locked host blocks, two pictures in flight as
 * the FFmpeg encoder keeps them: after the synchronisation each holds the
 * blocks that gj_dxt_encode gives for its picture.
 */
static void check_async(gj_device *dev, gj_dxt_encoder *enc, enum gj_dxt_format format, int w, int h)
{
    gj_frame pics[2];
    gj_dxt_blocks async[2], ref[2];
    int ret;

    for (int i = 0; i < 2; i++) {
        pics[i] = (gj_frame){ .width = w, .height = h, .format = GJ_PIX_FMT_RGBA, .memory = GJ_MEMORY_HOST };
        gj_frame_alloc(&pics[i], NULL);
        fill(&pics[i]);
        for (int y = 0; y < h; y++)     /* two different pictures */
            pics[i].data[0][(size_t)y * (size_t)pics[i].linesize[0]] ^= (uint8_t)(0x55 * (i + 1));
        ref[i] = (gj_dxt_blocks){ .memory = GJ_MEMORY_HOST };
        ret = gj_dxt_encode(enc, &pics[i], format, GJ_DXT_QUALITY_BALANCED, &ref[i]);
        CHECK(ret == 0, "reference encode: %d", ret);
        async[i] = (gj_dxt_blocks){ .format = format, .width = w, .height = h, .memory = GJ_MEMORY_HOST };
        ret = gj_dxt_blocks_alloc(&async[i], dev);
        CHECK(ret == 0 && async[i].size == gj_dxt_size(format, w, h), "page-locked blocks: %d", ret);
    }
    for (int i = 0; i < 2; i++) {
        ret = gj_dxt_encode_async(enc, &pics[i], format, GJ_DXT_QUALITY_BALANCED, &async[i]);
        CHECK(ret == 0, "async encode %d: %d", i, ret);
    }
    CHECK(gj_device_synchronize(dev) == 0, "synchronize failed");
    for (int i = 0; i < 2; i++)
        CHECK(!memcmp(async[i].data, ref[i].data, ref[i].size), "%s %dx%d: async blocks of picture %d differ",
              gj_dxt_format_name(format), w, h, i);
    for (int i = 0; i < 2; i++) {
        gj_dxt_blocks_unref(&async[i]);
        gj_dxt_blocks_unref(&ref[i]);
        gj_frame_unref(&pics[i]);
    }
}

int main(void)
{
    const char *spec = getenv("GJ_TEST_DEVICE") ? getenv("GJ_TEST_DEVICE") : "opencl-cpu";
    gj_device *dev;
    gj_dxt_encoder *enc;
    gj_dxt_decoder *dec;

    gj_log_set_level(GJ_LOG_QUIET);
    if (gj_device_create_from_string(&dev, spec) < 0) {
        printf("no %s device\n", spec);
        return 77;
    }
    gj_dxt_encoder_create(&enc, dev);
    gj_dxt_decoder_create(&dec, dev);
    check_errors(enc, dec);
    for (int f = 0; f < GJ_DXT_FORMAT_NB; f++) {
        check_paths(dev, enc, dec, (enum gj_dxt_format)f, 37, 21);
        check_paths(dev, enc, dec, (enum gj_dxt_format)f, 1, 1);
        check_async(dev, enc, (enum gj_dxt_format)f, 45, 30);
    }
    gj_dxt_decoder_free(&dec);
    gj_dxt_encoder_free(&enc);
    gj_device_free(&dev);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
