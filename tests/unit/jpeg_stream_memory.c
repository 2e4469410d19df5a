/*
 * A long MJPEG-like stream on the test device (GJ_TEST_DEVICE, default opencl-cpu)
 * holds steady memory: the same decoder decodes the corpus's good/ pictures (mixed
 * sizes and samplings) interleaved with its corrupt/ and truncated ones, round after
 * round, one at a time to host and to device memory, by gj_jpeg_decode_async() and by
 * gj_jpeg_decode_batch(). The first round is the warm-up (the decoder's buffers grow
 * to the largest picture); after it, every round must end with the same device
 * buffers held (the library's own count, gj_device_buffer_bytes(), and the same peak),
 * and the host heap in use and the resident size must not grow beyond what allocator
 * noise explains. A decoder that kept a buffer, a view or a frame reference per frame
 * or per failure would grow round after round.
 */
#include <dirent.h>
#include <stdint.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"

#define MAX_FILES 80
#define MAX_PER_DIR 40
#define MAX_BYTES (300 * 1024)      /* keeps the rounds quick on PoCL */
#ifndef ROUNDS
#define ROUNDS 6
#endif
#define BATCH 4
/* Rounds 1-3 warm up (the decoder's lanes, the ICD's own caches and pools settle);
 * rounds 4 on are compared with round 3. Allocator noise is either a one-time jump
 * (a thread's arena, a pool of PoCL's: up to about 350 KB) or a slow creep (PoCL's
 * command lists, 1-5 KB a round on a loaded machine), so the host heap fails when
 * it grows in every round by more than HEAP_CREEP (a leak of 256 bytes a frame
 * does) or by more than HEAP_SLACK in all. */
#define WARM_ROUNDS 3
#define HEAP_CREEP (16 * 1024)
#define HEAP_SLACK (2 * 1024 * 1024)
#define RSS_SLACK (8 * 1024 * 1024)

typedef struct picture {
    char name[300];
    uint8_t *data;
    size_t size;
} picture;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const picture *)a)->name, ((const picture *)b)->name);
}

/* The JPEGs of corpus/SUB (at most MAX_BYTES each) appended to pics, in name order. */
static int load_dir(const char *corpus, const char *sub, picture *pics, int n)
{
    char dir[1024], path[1400];
    struct dirent *e;
    int first = n, limit = n + MAX_PER_DIR < MAX_FILES ? n + MAX_PER_DIR : MAX_FILES;
    DIR *d;

    snprintf(dir, sizeof(dir), "%s/%s", corpus, sub);
    if (!(d = opendir(dir)))
        return n;
    while ((e = readdir(d)) && n < limit) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".jpg") || len + strlen(sub) + 2 >= sizeof(pics[n].name))
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (!(pics[n].data = unit_read_file(path, MAX_BYTES, &pics[n].size)))
            continue;
        snprintf(pics[n].name, sizeof(pics[n].name), "%s/%s", sub, e->d_name);
        n++;
    }
    closedir(d);
    qsort(pics + first, (size_t)(n - first), sizeof(*pics), by_name);
    return n;
}

/* The heap in use once the ICD's worker threads have released what the finished
 * commands held (they free it shortly after the wait returns, later on a loaded
 * machine): the least of a few samples 20 ms apart. */
static size_t heap_in_use(void)
{
    size_t least = SIZE_MAX;

    for (int i = 0; i < 5; i++) {
        struct timespec pause = { 0, 20 * 1000 * 1000 };
        size_t now;

        nanosleep(&pause, NULL);
        now = mallinfo2().uordblks;
        least = now < least ? now : least;
    }
    return least;
}

static size_t resident_bytes(void)
{
    unsigned long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");

    if (f) {
        if (fscanf(f, "%lu %lu", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* One round over the stream; returns how many frames decoded. Each frame's output is
 * released before the round ends, as a player releases a shown frame. */
static int one_round(gj_device *dev, gj_jpeg_decoder *dec, const picture *pics, const int *order, int n)
{
    int decoded = 0;

    for (int i = 0; i < n; i++) {
        const picture *p = &pics[order[i]];
        enum gj_memory memory = i % 3 == 1 ? gj_device_memory(dev) : GJ_MEMORY_HOST;
        gj_frame out = { .format = i % 2 ? GJ_PIX_FMT_RGB24 : GJ_PIX_FMT_NONE, .memory = memory };

        if (i % 3 == 2) {
            out.memory = gj_device_memory(dev);
            if (gj_jpeg_decode_async(dec, p->data, p->size, &out) == 0 && gj_device_synchronize(dev) == 0)
                decoded++;
        } else if (gj_jpeg_decode(dec, p->data, p->size, &out) == 0) {
            decoded++;
        }
        gj_frame_unref(&out);
    }
    for (int i = 0; i + BATCH <= n; i += BATCH) {
        const uint8_t *data[BATCH];
        size_t sizes[BATCH];
        gj_frame outs[BATCH];
        int results[BATCH];

        for (int k = 0; k < BATCH; k++) {
            data[k] = pics[order[i + k]].data;
            sizes[k] = pics[order[i + k]].size;
            outs[k] = (gj_frame){ .format = GJ_PIX_FMT_RGB24, .memory = gj_device_memory(dev) };
        }
        gj_jpeg_decode_batch(dec, data, sizes, BATCH, outs, results);
        for (int k = 0; k < BATCH; k++) {
            decoded += results[k] == 0;
            gj_frame_unref(&outs[k]);
        }
    }
    return decoded;
}

int main(void)
{
    static picture pics[MAX_FILES];
    static int order[MAX_FILES];
    const char *corpus;
    size_t dev_cur0 = 0, dev_peak0 = 0, heap0 = 0, rss0 = 0, heap_last = 0, least_growth = SIZE_MAX;
    gj_device *dev;
    gj_jpeg_decoder *dec;
    int n = 0, good, decoded0 = 0;
    unsigned seed = 12345;

    if (unit_open_with_corpus(&dev, &corpus))
        return 77;
    n = load_dir(corpus, "good", pics, n);
    good = n;
    n = load_dir(corpus, "corrupt", pics, n);
    n = load_dir(corpus, "damaged", pics, n);
    n = load_dir(corpus, "invalid", pics, n);
    CHECK(good >= 16 && n - good >= 8, "%d good and %d broken pictures in %s", good, n - good, corpus);
    /* The same shuffled order every round: good and broken pictures interleaved. */
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j, t;
        seed = seed * 1103515245u + 12345u;
        j = (int)((seed >> 8) % (unsigned)(i + 1));
        t = order[i], order[i] = order[j], order[j] = t;
    }
    gj_jpeg_decoder_create(&dec, dev);
    gj_jpeg_decoder_set_lanes(dec, 2);
    for (int round = 0; round < ROUNDS; round++) {
        size_t cur, peak, heap, rss;
        int decoded = one_round(dev, dec, pics, order, n);

        gj_device_synchronize(dev);
        gj_device_buffer_bytes(dev, &cur, &peak);
        heap = heap_in_use();
        rss = resident_bytes();
        printf("round %d: %d of %d frames decoded, device buffers %zu B (peak %zu B), heap %zu B, resident %zu B\n",
               round + 1, decoded, n + n / BATCH * BATCH, cur, peak, heap, rss);
        if (round == 0) {
            CHECK(decoded > good, "only %d frames decoded in the first round", decoded);
            decoded0 = decoded;
        } else {
            CHECK(decoded == decoded0, "round %d decoded %d frames, the first %d", round + 1, decoded, decoded0);
        }
        if (round == WARM_ROUNDS - 1) {
            dev_cur0 = cur, dev_peak0 = peak, heap0 = heap, rss0 = rss;
        } else if (round >= WARM_ROUNDS) {
            CHECK(cur == dev_cur0, "round %d: device buffers %zu B, %zu B after round %d", round + 1, cur, dev_cur0, WARM_ROUNDS);
            CHECK(peak == dev_peak0, "round %d: device peak %zu B, %zu B after round %d", round + 1, peak, dev_peak0, WARM_ROUNDS);
            CHECK(heap <= heap0 + HEAP_SLACK, "round %d: host heap %zu B, %zu B after round %d", round + 1, heap, heap0, WARM_ROUNDS);
            if ((heap > heap_last ? heap - heap_last : 0) < least_growth)
                least_growth = heap > heap_last ? heap - heap_last : 0;
            CHECK(rss <= rss0 + RSS_SLACK, "round %d: resident %zu B, %zu B after round %d", round + 1, rss, rss0, WARM_ROUNDS);
        }
        heap_last = heap;
    }
    CHECK(least_growth <= HEAP_CREEP, "the host heap grew by at least %zu B in every round after round %d",
          least_growth, WARM_ROUNDS);
    gj_jpeg_decoder_free(&dec);
    {
        size_t cur, peak;
        gj_device_buffer_bytes(dev, &cur, &peak);
        CHECK(cur == 0, "%zu B of device buffers left after the decoder was freed", cur);
    }
    for (int i = 0; i < n; i++)
        free(pics[i].data);
    gj_device_free(&dev);
    printf("%d pictures (%d broken) x %d rounds, %d failures\n", n, n - good, ROUNDS, failures);
    return failures ? 1 : 0;
}
