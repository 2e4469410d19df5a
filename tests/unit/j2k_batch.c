/*
 * JPEG 2000 batches on the test device (GJ_TEST_DEVICE, default opencl-cpu), on
 * streams of the J2K corpus (GJ_J2K_CORPUS, default tests/j2k-corpus; skipped
 * without it): gj_j2k_decode_batch() gives every picture of a mixed set (packed
 * and planar, 8 and 16 bits, tiles, JP2) exactly as gj_j2k_decode() does, to host
 * and to device memory, with fewer lanes than pictures, more, and one (a picture
 * whose code-blocks T1 leaves out where an earlier wave left coefficients); broken
 * pictures among them fail alone (a truncated one decodes concealed, as alone);
 * the decoder's reduce applies; bad lane counts are refused; pictures past the
 * optimistic 16-bit fractions are decoded again, as alone (the log counts them).
 * Batches of small code-blocks take T1's kernel for 32x32 ones, and
 * GJ_J2K_T1_LONG=1 packs nearly every code-block several to a warp (the corpus'
 * pictures are too small to). Waves of lossless pictures (a coded bit or more per
 * coefficient) take the kernel of 64x64 code-blocks in half-words, the wave of two
 * lossy_rgb ones the one in words (t1_queue.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"
#include "unit_decoded_again.h"
#include "unit_download.h"

#define MAX_PICS 16

typedef struct picture {
    const char *name;
    uint8_t *data;
    size_t size;
    int result;             /* of gj_j2k_decode() */
    gj_frame ref;           /* gj_j2k_decode() to host memory */
    int again;              /* gj_j2k_decode() decoded it again (its optimistic fractions saturated) */
} picture;

static const uint8_t garbage[] = { 0xff, 0x4f, 0xff, 0x51, 0x00, 0x2f, 0x00, 0x00, 0x01 };

/* Decodes pics[first..n) alone (their references). */
static void decode_refs(gj_j2k_decoder *dec, picture *pics, int first, int n)
{
    for (int i = first; i < n; i++) {
        int before = decoded_again;

        pics[i].ref = (gj_frame){ .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST };
        pics[i].result = gj_j2k_decode(dec, pics[i].data, pics[i].size, &pics[i].ref);
        pics[i].again = decoded_again - before;
    }
}

/* The corpus' streams of those names that it has, each decoded alone (its reference); their count. */
static int load_named(gj_j2k_decoder *dec, const char *corpus, const char *const *names, int count, picture *pics)
{
    char path[1024];
    int n = 0;

    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof(path), "%s/%s", corpus, names[i]);
        if (!(pics[n].data = unit_read_file(path, 0, &pics[n].size)))
            continue;
        pics[n++].name = names[i];
    }
    decode_refs(dec, pics, 0, n);
    return n;
}

/* The good streams, then broken ones: garbage after SOC, a stream cut short, a stream cut in its main header. */
static int load_pictures(gj_j2k_decoder *dec, const char *corpus, picture *pics)
{
    static const char *const names[] = { "lossless_rgb.j2k", "lossy_tiles.j2k", "planar_opj420.j2k",
                                         "lossless_deep16.j2k", "lossless_file_jp2.jp2", "lossless_gray.j2k",
                                         "lossy_rgb.j2k", "lossy_saturate.j2k", "lossy_saturate_wide.j2k" };
    int good = load_named(dec, corpus, names, (int)(sizeof(names) / sizeof(names[0])), pics), n = good;

    if (n < 3)
        return n;
    pics[n] = (picture){ .name = "garbage", .data = malloc(sizeof(garbage)), .size = sizeof(garbage) };
    if (pics[n].data)
        memcpy(pics[n++].data, garbage, sizeof(garbage));
    pics[n] = (picture){ .name = "cut in the packets", .data = malloc(pics[0].size / 2), .size = pics[0].size / 2 };
    if (pics[n].data)
        memcpy(pics[n++].data, pics[0].data, pics[0].size / 2);
    pics[n] = (picture){ .name = "cut in the header", .data = malloc(20), .size = 20 };
    if (pics[n].data)
        memcpy(pics[n++].data, pics[1].data, 20);
    decode_refs(dec, pics, good, n);
    return n;
}

/* The index of the picture of that name, or -1. */
static int find_picture(const picture *pics, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(pics[i].name, name))
            return i;
    return -1;
}

/* pics in the order `order` (indices), as one batch; each result and picture as gj_j2k_decode() gave. */
static void check_batch(gj_device *dev, gj_j2k_decoder *dec, picture *pics, const int *order, int n,
                        enum gj_memory memory, const char *how)
{
    const uint8_t *data[MAX_PICS] = { 0 };
    size_t sizes[MAX_PICS] = { 0 };
    gj_frame outs[MAX_PICS];
    int results[MAX_PICS], ret, first = 0, again = 0, before = decoded_again;

    for (int i = 0; i < n; i++) {
        data[i] = pics[order[i]].data;
        sizes[i] = pics[order[i]].size;
        outs[i] = (gj_frame){ .format = GJ_PIX_FMT_NONE, .memory = memory };
    }
    ret = gj_j2k_decode_batch(dec, data, sizes, n, outs, results);
    for (int i = 0; i < n && !first; i++)
        first = results[i];
    CHECK(ret == first, "%s: returned %d, the first error being %d", how, ret, first);
    for (int i = 0; i < n; i++)
        again += pics[order[i]].again;
    CHECK(decoded_again - before == again, "%s: %d pictures decoded again, alone %d", how, decoded_again - before,
          again);
    for (int i = 0; i < n; i++) {
        picture *p = &pics[order[i]];
        gj_frame host;

        CHECK((results[i] < 0) == (p->result < 0), "%s: %s gave %d, alone %d", how, p->name, results[i], p->result);
        if (results[i] < 0 || p->result < 0) {
            gj_frame_unref(&outs[i]);
            continue;
        }
        CHECK(outs[i].decode_error_flags == p->ref.decode_error_flags, "%s: %s: error flags %d, alone %d", how,
              p->name, outs[i].decode_error_flags, p->ref.decode_error_flags);
        if (memory == GJ_MEMORY_HOST) {
            CHECK(unit_same_picture(&outs[i], &p->ref), "%s: %s differs from gj_j2k_decode()", how, p->name);
        } else if (unit_download(dev, &outs[i], &host) == 0) {
            CHECK(unit_same_picture(&host, &p->ref), "%s: %s differs from gj_j2k_decode()", how, p->name);
            gj_frame_unref(&host);
        } else {
            CHECK(0, "%s: %s: cannot read the device frame back", how, p->name);
        }
        gj_frame_unref(&outs[i]);
    }
}

/* Streams of small code-blocks (at most 32x32). */
static int load_small(gj_j2k_decoder *dec, const char *corpus, picture *pics)
{
    static const char *const names[] = { "lossless_cblk_16x16.j2k", "lossless_cblk_4x4.j2k",
                                         "lossless_cblk_64x8.j2k" };

    return load_named(dec, corpus, names, (int)(sizeof(names) / sizeof(names[0])), pics);
}

/* The decoder's reduce reaches the lanes. */
static void check_reduce(gj_j2k_decoder *dec, picture *pics)
{
    const uint8_t *data[2] = { pics[0].data, pics[1].data };
    size_t sizes[2] = { pics[0].size, pics[1].size };
    gj_frame outs[2] = { { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST },
                         { .format = GJ_PIX_FMT_NONE, .memory = GJ_MEMORY_HOST } };
    int ret;

    gj_j2k_decoder_set_reduce(dec, 1);
    ret = gj_j2k_decode_batch(dec, data, sizes, 2, outs, NULL);
    CHECK(ret == 0 && outs[0].width == (pics[0].ref.width + 1) / 2 && outs[1].height == (pics[1].ref.height + 1) / 2,
          "reduce 1 in a batch: %d, %dx%d", ret, outs[0].width, outs[0].height);
    gj_j2k_decoder_set_reduce(dec, 0);
    gj_frame_unref(&outs[0]);
    gj_frame_unref(&outs[1]);
}

int main(void)
{
    const char *spec = getenv("GJ_TEST_DEVICE") ? getenv("GJ_TEST_DEVICE") : "opencl-cpu";
    const char *corpus = getenv("GJ_J2K_CORPUS") ? getenv("GJ_J2K_CORPUS") : "tests/j2k-corpus";
    static picture pics[MAX_PICS], small[4];
    int order[MAX_PICS], n, good, nsmall;
    gj_device *dev;
    gj_j2k_decoder *dec;

    gj_log_set_level(GJ_LOG_QUIET);
    unit_count_decoded_again();
    if (gj_device_create_from_string(&dev, spec) < 0) {
        printf("no %s device\n", spec);
        return 77;
    }
    gj_j2k_decoder_create(&dec, dev);
    if ((n = load_pictures(dec, corpus, pics)) < 6) {
        printf("no JPEG 2000 corpus in %s\n", corpus);
        return 77;
    }
    good = n - 3;
    for (int i = 0; i < good; i++)
        CHECK(pics[i].result == 0, "%s: gj_j2k_decode() %d", pics[i].name, pics[i].result);
    for (int i = 0; i < good; i++)
        CHECK(pics[i].again == !strncmp(pics[i].name, "lossy_saturate", 14), "%s: decoded again %d times",
              pics[i].name, pics[i].again);
    CHECK(pics[good].result < 0 && pics[good + 2].result < 0, "the broken streams fail alone");
    CHECK(pics[good + 1].result == 0 && pics[good + 1].ref.decode_error_flags, "the cut stream decodes concealed");
    CHECK(gj_j2k_decoder_set_lanes(dec, 0) == GJ_ERROR_INVAL && gj_j2k_decoder_set_lanes(dec, 17) == GJ_ERROR_INVAL &&
          gj_j2k_decoder_set_lanes(NULL, 2) == GJ_ERROR_INVAL, "bad lane counts are refused");
    CHECK(gj_j2k_decode_batch(dec, NULL, NULL, 2, NULL, NULL) == GJ_ERROR_INVAL &&
          gj_j2k_decode_batch(dec, NULL, NULL, 0, NULL, NULL) == 0, "bad batches are refused, empty ones do nothing");
    /* Broken pictures between good ones, the good ones twice over (a lane decodes several). */
    for (int i = 0; i < n; i++)
        order[i] = (i * 5) % n;             /* n is not a multiple of 5: a permutation */
    for (int i = n; i < n + good && i < MAX_PICS; i++)
        order[i] = i - n;
    gj_j2k_decoder_set_lanes(dec, 3);
    check_batch(dev, dec, pics, order, n + good < MAX_PICS ? n + good : MAX_PICS, GJ_MEMORY_HOST, "3 lanes to host");
    check_batch(dev, dec, pics, order, n, gj_device_memory(dev), "3 lanes to device");
    gj_j2k_decoder_set_lanes(dec, 16);
    check_batch(dev, dec, pics, order, n, GJ_MEMORY_HOST, "16 lanes to host");
    /* The corpus's waves are too small for the half-word kernel (t1_queue.c) unless told */
    setenv("GJ_J2K_T1_HALF_BLOCKS", "0", 1);
    check_batch(dev, dec, pics, order, n, GJ_MEMORY_HOST, "16 lanes to host, 64x64 code-blocks in half-words");
    unsetenv("GJ_J2K_T1_HALF_BLOCKS");
    gj_j2k_decoder_set_lanes(dec, 1);
    check_batch(dev, dec, pics, order, n, gj_device_memory(dev), "1 lane to device");
    /* A picture with code-blocks of nothing coded (left out of T1, their coefficients
     * zeroed instead) where an earlier wave of its lane set left another picture's. */
    {
        int dense = find_picture(pics, n, "lossless_rgb.j2k"), sparse = find_picture(pics, n, "lossy_rgb.j2k");

        CHECK(dense >= 0 && sparse >= 0, "lossless_rgb and lossy_rgb in the corpus");
        if (dense >= 0 && sparse >= 0) {
            int reuse[6] = { dense, dense, dense, dense, sparse, sparse };

            gj_j2k_decoder_set_lanes(dec, 2);
            check_batch(dev, dec, pics, reuse, 6, GJ_MEMORY_HOST, "2 lanes, sparse pictures after dense ones");
        }
    }
    gj_j2k_decoder_set_lanes(dec, 4);
    check_reduce(dec, pics);
    setenv("GJ_J2K_T1_LONG", "1", 1);
    gj_j2k_decoder_set_lanes(dec, 3);
    check_batch(dev, dec, pics, order, n, GJ_MEMORY_HOST, "3 lanes to host, code-blocks packed");
    CHECK((nsmall = load_small(dec, corpus, small)) == 3, "%d streams of small code-blocks", nsmall);
    for (int i = 0; i < nsmall; i++)
        order[i] = i;
    check_batch(dev, dec, small, order, nsmall, gj_device_memory(dev), "small code-blocks, packed, to device");
    unsetenv("GJ_J2K_T1_LONG");
    check_batch(dev, dec, small, order, nsmall, GJ_MEMORY_HOST, "small code-blocks to host");
    for (int i = 0; i < nsmall; i++) {
        gj_frame_unref(&small[i].ref);
        free(small[i].data);
    }
    for (int i = 0; i < n; i++) {
        gj_frame_unref(&pics[i].ref);
        free(pics[i].data);
    }
    gj_j2k_decoder_free(&dec);
    gj_device_free(&dev);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
