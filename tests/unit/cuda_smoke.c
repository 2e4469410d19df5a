/*
 * CUDA smoke test: opens CUDA device 0, zeroes a buffer, runs gj_fill_u32 over
 * its middle, reads it back whole and as a 2-D window, and checks every word.
 * Exits 77 (automake's SKIP) on machines without a CUDA device.
 */
#include <stdint.h>
#include <stdio.h>

#include "gpujpeg/common.h"
#include "gpujpeg/device.h"
#include "device/device.h"

#define COUNT 1000003   /* not a multiple of the group size: the kernel's bound matters */
#define MARGIN 17       /* words left zero at each end */
#define GROUP 256
#define VALUE 0xdeadbeefu

static uint32_t expected(size_t i)
{
    return i >= MARGIN && i < COUNT - MARGIN ? VALUE : 0;
}

static int check(const uint32_t *words, size_t n, size_t first, const char *what)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (words[i] != expected(first + i)) {
            fprintf(stderr, "%s: word %zu is 0x%08x, expected 0x%08x\n",
                    what, first + i, words[i], expected(first + i));
            return 1;
        }
    }
    return 0;
}

/* Queues the fill and both downloads into host, which holds COUNT + 2 * 8 words. */
static int run(gj_device *dev, const gj_buffer *buf, uint32_t *host)
{
    const gj_karg args[] = {
        GJ_ARG_BUF(buf), GJ_ARG_U64(MARGIN), GJ_ARG_U32(VALUE), GJ_ARG_U64(COUNT - 2 * MARGIN),
    };
    int ret;

    if ((ret = dev->ops->fill_zero(dev, buf, 0, COUNT * 4)) < 0 ||
        (ret = gj_dev_launch(dev, "gj_fill_u32", (COUNT + GROUP - 1) / GROUP, GROUP,
                             args, 4)) < 0 ||
        (ret = dev->ops->download(dev, host, buf, 0, COUNT * 4)) < 0)
        return ret;
    /* 8 rows of 2 words, 1000 words apart, from word MARGIN - 1: row 0 straddles the margin. */
    ret = dev->ops->download_2d(dev, host + COUNT, 8, buf, (MARGIN - 1) * 4, 1000 * 4, 8, 8);
    if (ret < 0)
        return ret;
    return gj_dev_finish(dev);
}

int main(void)
{
    gj_device *dev;
    gj_buffer buf;
    uint32_t *host;
    int ret, failed = 0, row;

    ret = gj_device_create(&dev, GJ_DEVICE_CUDA, 0);
    if (ret == GJ_ERROR_NODEV) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    if (ret < 0) {
        fprintf(stderr, "gj_device_create: %s\n", gj_strerror(ret));
        return 1;
    }
    printf("%s\n", gj_device_name(dev));
    if ((ret = dev->ops->buffer_create(dev, COUNT * 4, &buf)) < 0) {
        fprintf(stderr, "buffer_create: %s\n", gj_strerror(ret));
        gj_device_free(&dev);
        return 1;
    }
    host = dev->ops->host_alloc(dev, (COUNT + 16) * 4);
    if (!host) {
        ret = GJ_ERROR_NOMEM;
    } else if ((ret = run(dev, &buf, host)) == 0) {
        failed = check(host, COUNT, 0, "download");
        for (row = 0; row < 8; row++)
            failed |= check(host + COUNT + 2 * row, 2, MARGIN - 1 + 1000 * row, "download_2d");
    }
    if (ret < 0)
        fprintf(stderr, "cuda_smoke: %s\n", gj_strerror(ret));
    dev->ops->host_free(dev, host);
    dev->ops->buffer_destroy(dev, &buf);
    gj_device_free(&dev);
    if (ret < 0 || failed)
        return 1;
    printf("PASS: gj_fill_u32 over %d words\n", COUNT);
    return 0;
}
