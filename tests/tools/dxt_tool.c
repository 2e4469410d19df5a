/*
 * dxt_tool: the DXT tests' references and measurements, on the CPU.
 *
 *   dxt_tool encode FORMAT QUALITY IN.pnm OUT.dds
 *       The GPU encoder's own single-source kernel (kernels/dxt_encode.h) built
 *       for the host and run block by block: the GPU output must equal it.
 *   dxt_tool encode-yuv FORMAT QUALITY WxH yuvj420p|yuvj422p|yuvj444p IN.yuv OUT.dds
 *       The same from planar full-range YCbCr (planes without padding).
 *   dxt_tool cluster IN.pnm OUT.dds
 *       BC1 by an independent exhaustive cluster fit in floating point
 *       (dxt_reference.c): the quality reference.
 *   dxt_tool decode IN.dds OUT.pnm
 *       The plain C reference decoder (dxt_reference.c).
 *   dxt_tool random FORMAT WxH SEED OUT.dds
 *       Random blocks: every endpoint order and index, for the decoders.
 *   dxt_tool synth PATTERN WxH OUT.pam
 *       Hard cases: gradient, hue (saturated ramps), solid, two (two colours),
 *       dark (near-black noise), alpha-edge (RGBA with hard alpha edges).
 *   dxt_tool psnr REF.pnm TEST.pnm [rgb|alpha|gray]
 *       PSNR over the RGB channels (default), alpha, or channel 0.
 *
 * Exit status: 0 done, 1 failure (one line on stderr says why), 2 usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/dxt_encode.h"
#include "dxt_reference.h"
#include "pnm.h"
#include "rng.h"

static int usage(void)
{
    fprintf(stderr, "usage: dxt_tool encode|encode-yuv|cluster|decode|random|synth|psnr ... (see the source)\n");
    return 2;
}

static int parse_format(const char *s, gj_u32 *format)
{
    static const char *const names[] = { "bc1", "bc3", "ycocg", "bc4" };

    for (gj_u32 i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *format = i;
            return 0;
        }
    fprintf(stderr, "dxt_tool: unknown format %s\n", s);
    return -1;
}

static int parse_quality(const char *s, gj_u32 *quality)
{
    static const char *const names[] = { "fast", "balanced", "high" };

    for (gj_u32 i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *quality = i;
            return 0;
        }
    fprintf(stderr, "dxt_tool: unknown quality %s\n", s);
    return -1;
}

static int parse_size(const char *s, int *w, int *h)
{
    if (sscanf(s, "%dx%d", w, h) != 2 || *w < 1 || *h < 1 || *w > 16384 || *h > 16384) {
        fprintf(stderr, "dxt_tool: bad size %s\n", s);
        return -1;
    }
    return 0;
}

static int read_file(const char *path, unsigned char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long n;

    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "dxt_tool: cannot read %s\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    *data = malloc((size_t)n + 1);
    *size = (size_t)n;
    if (!*data || fread(*data, 1, *size, f) != *size) {
        fprintf(stderr, "dxt_tool: cannot read %s\n", path);
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

/* Runs the encode kernel's block function over every block id, as the GPU does. */
static void run_encode_kernel(const gj_dxt_params *p, const gj_u8 *planes[3], gj_u32 quality, gj_u32 *blocks)
{
    gj_u64 n = (gj_u64)p->blocks_w * p->blocks_h;

    for (gj_u64 id = 0; id < n; id++) {
        gj_global_id() = id;
        gj_dxt_encode_block(p, planes[0], planes[1], planes[2], blocks, p->format, quality);
    }
}

static void init_params(gj_dxt_params *p, int w, int h, gj_u32 format)
{
    memset(p, 0, sizeof(*p));
    p->width = (gj_u32)w;
    p->height = (gj_u32)h;
    p->blocks_w = (p->width + 3) / 4;
    p->blocks_h = (p->height + 3) / 4;
    p->format = format;
    p->chan_r = 0;
    p->chan_g = 1;
    p->chan_b = 2;
    p->chan_a = 3;
    gj_dxt_fill_flat_pairs(&p->flat_pairs[0][0]);
}

static int encode_common(const gj_dxt_params *p, const gj_u8 *planes[3], gj_u32 quality, const char *out)
{
    size_t size = (size_t)p->blocks_w * p->blocks_h * GJ_DXT_BLOCK_BYTES(p->format);
    gj_u32 *blocks = calloc(1, size);
    int ret;

    if (!blocks)
        return 1;
    run_encode_kernel(p, planes, quality, blocks);
    ret = dxt_ref_write_dds(out, p->format, (int)p->width, (int)p->height, (const unsigned char *)blocks, size);
    free(blocks);
    return ret;
}

static int cmd_encode(int argc, char **argv)
{
    gj_u32 format, quality;
    gj_dxt_params p;
    pnm_image img;
    char err[256];
    const gj_u8 *planes[3];
    int ret;

    if (argc != 6 || parse_format(argv[2], &format) || parse_quality(argv[3], &quality))
        return usage();
    if (pnm_read(argv[4], &img, err, sizeof(err))) {
        fprintf(stderr, "dxt_tool: %s: %s\n", argv[4], err);
        return 1;
    }
    init_params(&p, img.width, img.height, format);
    p.layout = img.channels == 1 ? GJ_DXT_IN_GRAY : img.channels == 3 ? GJ_DXT_IN_RGB24 : GJ_DXT_IN_RGBA;
    p.pitch[0] = (gj_u32)(img.width * img.channels);
    p.word_aligned = 1;
    planes[0] = planes[1] = planes[2] = img.data;
    ret = encode_common(&p, planes, quality, argv[5]);
    pnm_free(&img);
    return ret;
}

static int cmd_encode_yuv(int argc, char **argv)
{
    gj_u32 format, quality;
    gj_dxt_params p;
    unsigned char *data;
    size_t size, need;
    const gj_u8 *planes[3];
    int w, h, sw = 1, sh = 1, cw, ch, ret;

    if (argc != 8 || parse_format(argv[2], &format) || parse_quality(argv[3], &quality) ||
        parse_size(argv[4], &w, &h))
        return usage();
    if (!strcmp(argv[5], "yuvj420p"))
        sw = sh = 1;
    else if (!strcmp(argv[5], "yuvj422p"))
        sh = 0;
    else if (!strcmp(argv[5], "yuvj444p"))
        sw = sh = 0;
    else
        return usage();
    if (read_file(argv[6], &data, &size))
        return 1;
    cw = (w + (1 << sw) - 1) >> sw;
    ch = (h + (1 << sh) - 1) >> sh;
    need = (size_t)w * h + 2 * (size_t)cw * ch;
    if (size != need) {
        fprintf(stderr, "dxt_tool: %s has %zu bytes, %dx%d %s needs %zu\n", argv[6], size, w, h, argv[5], need);
        free(data);
        return 1;
    }
    init_params(&p, w, h, format);
    p.layout = GJ_DXT_IN_YUV;
    p.log2_chroma_w = (gj_u32)sw;
    p.log2_chroma_h = (gj_u32)sh;
    p.pitch[0] = (gj_u32)w;
    p.pitch[1] = p.pitch[2] = (gj_u32)cw;
    planes[0] = data;
    planes[1] = data + (size_t)w * h;
    planes[2] = planes[1] + (size_t)cw * ch;
    ret = encode_common(&p, planes, quality, argv[7]);
    free(data);
    return ret;
}

static int cmd_cluster(int argc, char **argv)
{
    pnm_image img;
    char err[256];
    unsigned char *blocks;
    size_t size;
    int ret;

    if (argc != 4)
        return usage();
    if (pnm_read(argv[2], &img, err, sizeof(err))) {
        fprintf(stderr, "dxt_tool: %s: %s\n", argv[2], err);
        return 1;
    }
    size = (size_t)((img.width + 3) / 4) * ((img.height + 3) / 4) * 8;
    blocks = malloc(size);
    if (!blocks)
        return 1;
    dxt_ref_cluster_bc1(&img, blocks);
    ret = dxt_ref_write_dds(argv[3], GJ_DXT_BC1, img.width, img.height, blocks, size);
    free(blocks);
    pnm_free(&img);
    return ret;
}

static int cmd_decode(int argc, char **argv)
{
    unsigned char *data;
    size_t size;
    pnm_image img;
    int ret;

    if (argc != 4)
        return usage();
    if (read_file(argv[2], &data, &size))
        return 1;
    ret = dxt_ref_decode_dds(data, size, &img);
    free(data);
    if (ret)
        return 1;
    ret = pnm_write(argv[3], &img) ? 1 : 0;
    if (ret)
        fprintf(stderr, "dxt_tool: cannot write %s\n", argv[3]);
    pnm_free(&img);
    return ret;
}

static int cmd_random(int argc, char **argv)
{
    gj_u32 format;
    int w, h;
    size_t size;
    unsigned char *blocks;
    int ret;

    if (argc != 6 || parse_format(argv[2], &format) || parse_size(argv[3], &w, &h))
        return usage();
    rng_state = 0x9e3779b97f4a7c15ull ^ (unsigned long long)atoi(argv[4]);
    size = (size_t)((w + 3) / 4) * ((h + 3) / 4) * GJ_DXT_BLOCK_BYTES(format);
    blocks = malloc(size);
    if (!blocks)
        return 1;
    for (size_t i = 0; i < size; i++)
        blocks[i] = (unsigned char)rng_next();
    /* Equal endpoints are rare in random bytes: make some, they have their own rules. */
    for (size_t i = 0; i + 16 <= size; i += 16 * 7)
        memcpy(blocks + i + 2, blocks + i, 2);
    ret = dxt_ref_write_dds(argv[5], format, w, h, blocks, size);
    free(blocks);
    return ret;
}

static int synth_sample(const char *pattern, int x, int y, int c, int w, int h)
{
    if (!strcmp(pattern, "gradient")) {
        int ramps[4] = { x * 255 / (w - 1 ? w - 1 : 1), y * 255 / (h - 1 ? h - 1 : 1),
                         (x + y) * 255 / (w + h - 2 ? w + h - 2 : 1), 255 };
        return ramps[c];
    }
    if (!strcmp(pattern, "hue")) {  /* saturated colours changing along x, brightness along y */
        int seg = x * 6 / w, t = (x * 6 * 255 / w) % 256, v = 255 - y * 128 / h;
        int rgb[6][3] = { { 255, t, 0 }, { 255 - t, 255, 0 }, { 0, 255, t },
                          { 0, 255 - t, 255 }, { t, 0, 255 }, { 255, 0, 255 - t } };
        return c == 3 ? 255 : rgb[seg][c] * v / 255;
    }
    if (!strcmp(pattern, "solid")) {  /* 8x8 tiles of single colours */
        int tile = (x / 8) * 131 + (y / 8) * 71;
        return c == 3 ? 255 : (tile * (c * 2 + 3) * 37 + c * 91) & 255;
    }
    if (!strcmp(pattern, "two")) {  /* two colours per block, mixed at random */
        int bx = x / 4, by = y / 4, pick = (int)((unsigned)(x * 7919 + y * 104729) >> 3) & 1;
        return c == 3 ? 255 : ((bx * 53 + by * 29 + c * 101) * (pick ? 3 : 7)) & 255;
    }
    if (!strcmp(pattern, "dark"))
        return c == 3 ? 255 : (int)(rng_next() % 24);
    if (!strcmp(pattern, "alpha-edge")) {
        int inside = (x - w / 2) * (x - w / 2) + (y - h / 2) * (y - h / 2) < (w * w) / 9;
        return c == 3 ? (inside ? 255 : (x * 3) % 7 == 0 ? 128 : 0) : (x * 255 / w + c * 60 + y) & 255;
    }
    return -1;
}

static int cmd_synth(int argc, char **argv)
{
    pnm_image img;
    int w, h;

    if (argc != 5 || parse_size(argv[3], &w, &h))
        return usage();
    if (synth_sample(argv[2], 0, 0, 0, w, h) < 0) {
        fprintf(stderr, "dxt_tool: unknown pattern %s\n", argv[2]);
        return 2;
    }
    rng_state = 0x9e3779b97f4a7c15ull;
    if (pnm_alloc(&img, w, h, 4))
        return 1;
    strcpy(img.tupltype, "RGB_ALPHA");
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++)
                img.data[((size_t)y * w + x) * 4 + c] = (unsigned char)synth_sample(argv[2], x, y, c, w, h);
    if (pnm_write(argv[4], &img)) {
        fprintf(stderr, "dxt_tool: cannot write %s\n", argv[4]);
        pnm_free(&img);
        return 1;
    }
    pnm_free(&img);
    return 0;
}

static int cmd_psnr(int argc, char **argv)
{
    pnm_image a, b;
    char err[256];
    const char *what = argc > 4 ? argv[4] : "rgb";
    double sq = 0;
    long n = 0;

    if (argc < 4 || argc > 5)
        return usage();
    if (pnm_read(argv[2], &a, err, sizeof(err)) || pnm_read(argv[3], &b, err, sizeof(err))) {
        fprintf(stderr, "dxt_tool: %s\n", err);
        return 1;
    }
    if (a.width != b.width || a.height != b.height) {
        fprintf(stderr, "dxt_tool: sizes differ: %dx%d and %dx%d\n", a.width, a.height, b.width, b.height);
        return 1;
    }
    for (long i = 0; i < (long)a.width * a.height; i++) {
        int first = !strcmp(what, "alpha") ? 3 : 0, last = !strcmp(what, "rgb") ? 2 : first;
        for (int c = first; c <= last; c++) {
            int va = c < a.channels ? a.data[i * a.channels + c] : 255;
            int vb = c < b.channels ? b.data[i * b.channels + c] : 255;
            if (a.channels == 1 && c > 0 && c < 3)
                va = a.data[i];
            if (b.channels == 1 && c > 0 && c < 3)
                vb = b.data[i];
            sq += (double)(va - vb) * (va - vb);
            n++;
        }
    }
    printf("%.3f\n", sq > 0 ? 10 * log10(255.0 * 255.0 * n / sq) : 99.0);
    pnm_free(&a);
    pnm_free(&b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "encode"))
        return cmd_encode(argc, argv);
    if (!strcmp(argv[1], "encode-yuv"))
        return cmd_encode_yuv(argc, argv);
    if (!strcmp(argv[1], "cluster"))
        return cmd_cluster(argc, argv);
    if (!strcmp(argv[1], "decode"))
        return cmd_decode(argc, argv);
    if (!strcmp(argv[1], "random"))
        return cmd_random(argc, argv);
    if (!strcmp(argv[1], "synth"))
        return cmd_synth(argc, argv);
    if (!strcmp(argv[1], "psnr"))
        return cmd_psnr(argc, argv);
    return usage();
}
