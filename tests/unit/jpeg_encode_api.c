/*
 * JPEG encoder API test on the test device (GJ_TEST_DEVICE, default opencl-cpu):
 * bad input gets a clear error (null arguments, zero and oversized pictures,
 * unsupported pixel formats and samplings, qualities, tables and restart
 * intervals out of range, short rows); rgb24, rgba and bgra pictures of the same
 * pixels encode to the same file; a picture in device memory encodes to the same
 * file as the same picture in host memory (planar and packed, odd sizes); custom
 * tables equal to the quality-scaled ones change nothing; a batch equals single
 * encodes; one output buffer serves pictures of different sizes; a caller's own
 * output buffer is used when large enough and refused with an error when not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"


/* A picture with edges and gradients in rgb24, rgba or bgra. */
static void make_picture(gj_frame *f, enum gj_pixel_format format, int w, int h)
{
    int bpp = format == GJ_PIX_FMT_RGB24 ? 3 : 4;

    *f = (gj_frame){ .width = w, .height = h, .format = format, .memory = GJ_MEMORY_HOST };
    gj_frame_alloc(f, NULL);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t *p = f->data[0] + (size_t)y * f->linesize[0] + (size_t)x * bpp;
            int r = (x * 255) / (w > 1 ? w - 1 : 1), g = (y * 7 + x * 3) & 255, b = ((x / 5 + y / 3) & 1) * 200;
            p[format == GJ_PIX_FMT_BGRA ? 2 : 0] = (uint8_t)r;
            p[1] = (uint8_t)g;
            p[format == GJ_PIX_FMT_BGRA ? 0 : 2] = (uint8_t)b;
            if (bpp == 4)
                p[3] = (uint8_t)(x ^ y);    /* alpha is ignored */
        }
    }
}

static int same_output(const gj_jpeg_output *a, const gj_jpeg_output *b)
{
    return a->size == b->size && a->size && !memcmp(a->data, b->data, a->size);
}

static int encode(gj_jpeg_encoder *enc, const gj_frame *f, int quality, enum gj_jpeg_sampling sampling,
                  gj_jpeg_output *out)
{
    gj_jpeg_encode_params p;

    gj_jpeg_encode_params_default(&p);
    p.quality = quality;
    p.sampling = sampling;
    return gj_jpeg_encode(enc, f, &p, out);
}

static void check_errors(gj_jpeg_encoder *enc)
{
    gj_jpeg_encode_params p;
    gj_jpeg_output out = { 0 };
    gj_frame f;
    uint16_t table[64];
    int ret;

    gj_jpeg_encode_params_default(&p);
    make_picture(&f, GJ_PIX_FMT_RGB24, 8, 8);
    CHECK(gj_jpeg_encode(NULL, &f, &p, &out) == GJ_ERROR_INVAL && gj_jpeg_encode(enc, NULL, &p, &out) ==
          GJ_ERROR_INVAL && gj_jpeg_encode(enc, &f, NULL, &out) == GJ_ERROR_INVAL &&
          gj_jpeg_encode(enc, &f, &p, NULL) == GJ_ERROR_INVAL, "null arguments are not refused");
    p.quality = 0;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "quality 0: %d", ret);
    p.quality = 101;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "quality 101: %d", ret);
    p.quality = 75;
    p.sampling = (enum gj_jpeg_sampling)9;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "sampling 9: %d", ret);
    p.sampling = GJ_JPEG_SAMPLING_420;
    p.restart_interval = -1;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "restart -1: %d", ret);
    p.restart_interval = 0;
    memset(table, 0, sizeof(table));
    p.quant_tables[1] = table;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "table of zeros: %d", ret);
    p.quant_tables[1] = NULL;
    f.width = 0;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "0x8 picture: %d", ret);
    f.width = 65536;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "65536x8 picture: %d", ret);
    f.width = 8;
    f.linesize[0] = 23;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "23-byte rows of 24 bytes: %d", ret);
    gj_frame_unref(&f);

    f = (gj_frame){ .width = 8, .height = 8, .format = GJ_PIX_FMT_GBRP, .memory = GJ_MEMORY_HOST };
    gj_frame_alloc(&f, NULL);
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_UNSUPPORTED, "gbrp input: %d", ret);
    gj_frame_unref(&f);
    f = (gj_frame){ .width = 8, .height = 8, .format = GJ_PIX_FMT_GRAY8, .memory = GJ_MEMORY_HOST };
    gj_frame_alloc(&f, NULL);
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_INVAL, "gray8 input, 4:2:0: %d", ret);
    p.sampling = GJ_JPEG_SAMPLING_GRAY;
    memset(f.data[0], 90, (size_t)f.linesize[0] * 8);
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == 0, "gray8 input, gray: %d", ret);
    gj_frame_unref(&f);
    f = (gj_frame){ .width = 8, .height = 8, .format = GJ_PIX_FMT_YUVJ420P, .memory = GJ_MEMORY_HOST };
    gj_frame_alloc(&f, NULL);
    p.sampling = GJ_JPEG_SAMPLING_444;
    CHECK((ret = gj_jpeg_encode(enc, &f, &p, &out)) == GJ_ERROR_UNSUPPORTED, "yuvj420p input, 4:4:4: %d", ret);
    gj_frame_unref(&f);
    gj_jpeg_output_unref(&out);
}

/* rgb24, rgba and bgra of the same pixels, and quality-scaled tables given as custom ones. */
static void check_formats(gj_jpeg_encoder *enc)
{
    gj_jpeg_output ref = { 0 }, out = { 0 };
    gj_frame f;
    enum gj_pixel_format formats[2] = { GJ_PIX_FMT_RGBA, GJ_PIX_FMT_BGRA };
    int i, ret;

    make_picture(&f, GJ_PIX_FMT_RGB24, 37, 21);
    ret = encode(enc, &f, 80, GJ_JPEG_SAMPLING_422, &ref);
    CHECK(ret == 0, "rgb24 37x21: %d", ret);
    gj_frame_unref(&f);
    for (i = 0; i < 2; i++) {
        make_picture(&f, formats[i], 37, 21);
        ret = encode(enc, &f, 80, GJ_JPEG_SAMPLING_422, &out);
        CHECK(ret == 0 && same_output(&ref, &out), "%s: %d, differs from rgb24",
              gj_pixel_format_describe(formats[i])->name, ret);
        gj_frame_unref(&f);
    }
    {
        /* Quality 80 scales K.1 by 0.4: the same tables given explicitly. */
        static const uint16_t k1[64] = {
            16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
            14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
            18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
            49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99 };
        uint16_t luma[64];
        gj_jpeg_encode_params p;
        for (i = 0; i < 64; i++)
            luma[i] = (uint16_t)((k1[i] * 40 + 50) / 100);
        gj_jpeg_encode_params_default(&p);
        p.quality = 80;
        p.sampling = GJ_JPEG_SAMPLING_422;
        p.quant_tables[0] = luma;
        make_picture(&f, GJ_PIX_FMT_RGB24, 37, 21);
        ret = gj_jpeg_encode(enc, &f, &p, &out);
        CHECK(ret == 0 && same_output(&ref, &out), "custom luma table = q80's: %d, the files differ", ret);
        p.quality = 20;     /* the chroma table still follows the quality */
        ret = gj_jpeg_encode(enc, &f, &p, &out);
        CHECK(ret == 0 && !same_output(&ref, &out), "quality 20 chroma: %d, the same file", ret);
        gj_frame_unref(&f);
    }
    gj_jpeg_output_unref(&ref);
    gj_jpeg_output_unref(&out);
}

/*
 * A picture known in both memories (a JPEG decoded to host and to device memory)
 * encodes to the same file from either.
 */
static void check_device_input(gj_device *dev, gj_jpeg_encoder *enc, enum gj_pixel_format format, int w, int h,
                               enum gj_jpeg_sampling sampling)
{
    gj_jpeg_decoder *dec = NULL;
    gj_jpeg_output jpeg = { 0 }, from_host = { 0 }, from_dev = { 0 };
    gj_frame src, host = { .format = format, .memory = GJ_MEMORY_HOST };
    gj_frame on_dev = { .format = format, .memory = gj_device_memory(dev) };
    int ret;

    /* The decoder gives planar pictures in the file's own sampling. */
    enum gj_jpeg_sampling native = format == GJ_PIX_FMT_YUVJ420P ? GJ_JPEG_SAMPLING_420 :
                                   format == GJ_PIX_FMT_YUVJ422P ? GJ_JPEG_SAMPLING_422 :
                                   format == GJ_PIX_FMT_YUVJ440P ? GJ_JPEG_SAMPLING_440 : GJ_JPEG_SAMPLING_444;

    make_picture(&src, GJ_PIX_FMT_RGB24, w, h);
    ret = encode(enc, &src, 90, native, &jpeg);
    CHECK(ret == 0, "source encode: %d", ret);
    CHECK(gj_jpeg_decoder_create(&dec, dev) == 0, "decoder");
    ret = gj_jpeg_decode(dec, jpeg.data, jpeg.size, &host);
    CHECK(ret == 0, "decode to host %s: %d", gj_pixel_format_describe(format)->name, ret);
    ret = gj_jpeg_decode(dec, jpeg.data, jpeg.size, &on_dev);
    CHECK(ret == 0, "decode to device %s: %d", gj_pixel_format_describe(format)->name, ret);
    CHECK(encode(enc, &host, 75, sampling, &from_host) == 0 && encode(enc, &on_dev, 75, sampling, &from_dev) == 0 &&
          same_output(&from_host, &from_dev), "%s %dx%d -> %s: device input encodes differently",
          gj_pixel_format_describe(format)->name, w, h, gj_jpeg_sampling_name(sampling));
    gj_frame_unref(&host);
    gj_frame_unref(&on_dev);
    gj_frame_unref(&src);
    gj_jpeg_decoder_free(&dec);
    gj_jpeg_output_unref(&jpeg);
    gj_jpeg_output_unref(&from_host);
    gj_jpeg_output_unref(&from_dev);
}

/* A batch of different sizes equals single encodes; one output buffer serves a large then a small picture. */
static void check_batch(gj_jpeg_encoder *enc)
{
    gj_frame f[3];
    const gj_frame *ins[3] = { &f[0], &f[1], &f[2] };
    gj_jpeg_output outs[3] = { { 0 } }, one = { 0 };
    gj_jpeg_encode_params p;
    int results[3], i, ret;

    make_picture(&f[0], GJ_PIX_FMT_RGB24, 300, 200);
    make_picture(&f[1], GJ_PIX_FMT_RGBA, 1, 1);
    make_picture(&f[2], GJ_PIX_FMT_BGRA, 65, 33);
    gj_jpeg_encode_params_default(&p);
    p.optimize = 1;
    p.restart_interval = 2;
    ret = gj_jpeg_encode_batch(enc, ins, 3, &p, outs, results);
    CHECK(ret == 0, "batch: %d", ret);
    for (i = 0; i < 3; i++) {
        ret = gj_jpeg_encode(enc, &f[i], &p, &one);
        CHECK(ret == 0 && results[i] == 0 && same_output(&one, &outs[i]), "batch picture %d differs", i);
        gj_frame_unref(&f[i]);
        gj_jpeg_output_unref(&outs[i]);
    }
    gj_jpeg_output_unref(&one);
}

/* A buffer of the caller's: used when the JPEG fits, a clear error when not. */
static void check_caller_buffer(gj_jpeg_encoder *enc)
{
    gj_jpeg_output ref = { 0 }, mine = { 0 };
    gj_frame f;
    int ret;

    make_picture(&f, GJ_PIX_FMT_RGB24, 40, 30);
    CHECK(encode(enc, &f, 75, GJ_JPEG_SAMPLING_420, &ref) == 0, "reference encode");
    mine.capacity = ref.size;
    mine.data = malloc(mine.capacity);
    ret = encode(enc, &f, 75, GJ_JPEG_SAMPLING_420, &mine);
    CHECK(ret == 0 && same_output(&ref, &mine) && !mine.opaque_owner, "a buffer of exactly the size: %d", ret);
    mine.capacity = ref.size - 1;
    ret = encode(enc, &f, 75, GJ_JPEG_SAMPLING_420, &mine);
    CHECK(ret == GJ_ERROR_INVAL, "a buffer one byte short: %d, expected GJ_ERROR_INVAL", ret);
    mine.capacity = 10;
    ret = encode(enc, &f, 75, GJ_JPEG_SAMPLING_420, &mine);
    CHECK(ret == GJ_ERROR_INVAL, "a 10-byte buffer: %d, expected GJ_ERROR_INVAL", ret);
    free(mine.data);
    gj_frame_unref(&f);
    gj_jpeg_output_unref(&ref);
}

int main(void)
{
    const char *spec = getenv("GJ_TEST_DEVICE") ? getenv("GJ_TEST_DEVICE") : "opencl-cpu";
    gj_device *dev = NULL;
    gj_jpeg_encoder *enc = NULL;

    gj_log_set_level(GJ_LOG_QUIET);
    if (gj_device_create_from_string(&dev, spec) < 0) {
        printf("no %s device\n", spec);
        return 77;
    }
    if (gj_jpeg_encoder_create(&enc, dev) < 0)
        return 1;
    check_errors(enc);
    check_formats(enc);
    check_device_input(dev, enc, GJ_PIX_FMT_YUVJ420P, 45, 29, GJ_JPEG_SAMPLING_420);
    check_device_input(dev, enc, GJ_PIX_FMT_YUVJ422P, 16, 9, GJ_JPEG_SAMPLING_420);
    check_device_input(dev, enc, GJ_PIX_FMT_YUVJ444P, 33, 17, GJ_JPEG_SAMPLING_422);
    check_device_input(dev, enc, GJ_PIX_FMT_YUVJ440P, 20, 31, GJ_JPEG_SAMPLING_440);
    check_device_input(dev, enc, GJ_PIX_FMT_RGB24, 51, 19, GJ_JPEG_SAMPLING_420);
    check_device_input(dev, enc, GJ_PIX_FMT_RGBA, 8, 8, GJ_JPEG_SAMPLING_GRAY);
    check_batch(enc);
    check_caller_buffer(enc);
    gj_jpeg_encoder_free(&enc);
    gj_device_free(&dev);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
