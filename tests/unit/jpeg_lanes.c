/*
 * Overlapped decoding on the test device (GJ_TEST_DEVICE, default opencl-cpu):
 * gj_jpeg_decode_batch() (lanes on host threads) and gj_jpeg_decode_async()
 * (lanes in turn, no waiting) give every picture of a mixed set (the good/ JPEGs
 * of GJ_TEST_CORPUS: sizes, samplings, restart markers) exactly as
 * gj_jpeg_decode() does, to host and to device memory, with fewer lanes than
 * pictures and with more; a broken picture in a batch fails alone; bad lane
 * counts are refused.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"
#include "unit_download.h"

#define MAX_FILES 48
#define MAX_BYTES (600 * 1024)      /* keeps the set quick on PoCL */


typedef struct picture {
    char name[256];
    uint8_t *data;
    size_t size;
    gj_frame ref;           /* gj_jpeg_decode() to host memory */
} picture;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const picture *)a)->name, ((const picture *)b)->name);
}

/* The good/ JPEGs that decode to rgb24 on their own, in name order. */
static int load_pictures(gj_jpeg_decoder *dec, const char *corpus, picture *pics)
{
    char dir[1024], path[1400];
    struct dirent *e;
    DIR *d;
    int n = 0;

    snprintf(dir, sizeof(dir), "%s/good", corpus);
    if (!(d = opendir(dir)))
        return 0;
    while ((e = readdir(d)) && n < MAX_FILES) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".jpg") || len >= sizeof(pics[n].name))
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (!(pics[n].data = unit_read_file(path, MAX_BYTES, &pics[n].size)))
            continue;
        memcpy(pics[n].name, e->d_name, len + 1);
        n++;
    }
    closedir(d);
    qsort(pics, (size_t)n, sizeof(*pics), by_name);
    for (int i = 0; i < n; i++) {
        pics[i].ref = (gj_frame){ .format = GJ_PIX_FMT_RGB24, .memory = GJ_MEMORY_HOST };
        CHECK(gj_jpeg_decode(dec, pics[i].data, pics[i].size, &pics[i].ref) == 0, "%s: reference decode failed",
              pics[i].name);
    }
    return n;
}

static void check_outputs(gj_device *dev, picture *pics, gj_frame *outs, int n, const char *how)
{
    for (int i = 0; i < n; i++) {
        gj_frame host;
        if (outs[i].memory == GJ_MEMORY_HOST) {
            CHECK(unit_same_picture(&outs[i], &pics[i].ref), "%s: %s differs from gj_jpeg_decode()", how, pics[i].name);
        } else if (unit_download(dev, &outs[i], &host) == 0) {
            CHECK(unit_same_picture(&host, &pics[i].ref), "%s: %s differs from gj_jpeg_decode()", how, pics[i].name);
            gj_frame_unref(&host);
        } else {
            CHECK(0, "%s: %s: cannot read the device frame back", how, pics[i].name);
        }
        gj_frame_unref(&outs[i]);
    }
}

static void check_batch(gj_device *dev, gj_jpeg_decoder *dec, picture *pics, int n, enum gj_memory memory)
{
    const uint8_t *data[MAX_FILES + 1];
    size_t sizes[MAX_FILES + 1];
    gj_frame outs[MAX_FILES + 1];
    int results[MAX_FILES + 1], ret;
    static const uint8_t broken[] = { 0xff, 0xd8, 0xff, 0xc0, 0x00, 0x02 };

    for (int i = 0; i < n; i++) {
        data[i] = pics[i].data;
        sizes[i] = pics[i].size;
        outs[i] = (gj_frame){ .format = GJ_PIX_FMT_RGB24, .memory = memory };
    }
    /* A broken picture among good ones fails alone. */
    data[n] = broken;
    sizes[n] = sizeof(broken);
    outs[n] = (gj_frame){ .format = GJ_PIX_FMT_RGB24, .memory = memory };
    ret = gj_jpeg_decode_batch(dec, data, sizes, n + 1, outs, results);
    CHECK(ret < 0 && results[n] < 0, "batch: the broken picture did not fail (%d, %d)", ret, results[n]);
    for (int i = 0; i < n; i++)
        CHECK(results[i] == 0, "batch: %s failed (%d)", pics[i].name, results[i]);
    check_outputs(dev, pics, outs, n, memory == GJ_MEMORY_HOST ? "batch to host" : "batch to device");
}

static void check_async(gj_device *dev, gj_jpeg_decoder *dec, picture *pics, int n, enum gj_memory memory)
{
    gj_frame outs[MAX_FILES];

    for (int i = 0; i < n; i++) {
        outs[i] = (gj_frame){ .format = GJ_PIX_FMT_RGB24, .memory = memory };
        CHECK(gj_jpeg_decode_async(dec, pics[i].data, pics[i].size, &outs[i]) == 0, "async: %s failed",
              pics[i].name);
    }
    CHECK(gj_device_synchronize(dev) == 0, "async: synchronize failed");
    check_outputs(dev, pics, outs, n, memory == GJ_MEMORY_HOST ? "async to host" : "async to device");
}

int main(void)
{
    const char *corpus;
    static picture pics[MAX_FILES];
    gj_device *dev;
    gj_jpeg_decoder *dec;
    int n;

    if (unit_open_with_corpus(&dev, &corpus))
        return 77;
    gj_jpeg_decoder_create(&dec, dev);
    n = load_pictures(dec, corpus, pics);
    CHECK(n >= 8, "only %d pictures in %s/good", n, corpus);
    CHECK(gj_jpeg_decoder_set_lanes(dec, 0) < 0 && gj_jpeg_decoder_set_lanes(dec, 17) < 0,
          "bad lane counts were accepted");
    for (int lanes = 3; lanes >= 1; lanes -= 2) {
        gj_jpeg_decoder_set_lanes(dec, lanes);
        check_batch(dev, dec, pics, n, GJ_MEMORY_HOST);
        check_batch(dev, dec, pics, n, gj_device_memory(dev));
        check_async(dev, dec, pics, n, gj_device_memory(dev));
        check_async(dev, dec, pics, n, GJ_MEMORY_HOST);
    }
    for (int i = 0; i < n; i++) {
        gj_frame_unref(&pics[i].ref);
        free(pics[i].data);
    }
    gj_jpeg_decoder_free(&dec);
    gj_device_free(&dev);
    printf("%d pictures, %d failures\n", n, failures);
    return failures ? 1 : 0;
}
