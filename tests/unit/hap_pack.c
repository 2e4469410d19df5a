/*
 * HAP packing test (no GPU): gj_hap_pack() frames read back by a parser written
 * from the HAP specification (section headers, texture format, decode
 * instructions) give back the blocks, for every format, 1 to 64 chunks, stored
 * and snappy chunks (when the library has libsnappy: then compressible blocks
 * must shrink), several threads; bad arguments get errors. FFmpeg's hap decoder
 * reads our frames in the FATE tests of the hap_gpujpeg encoder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gpujpeg/gpujpeg.h"
#include "unit_check.h"

#ifdef HAVE_SNAPPY
#include <snappy-c.h>
#endif


/* A section header at *p (of n bytes left): its body size and type; 0 on a truncated header. */
static int read_section(const uint8_t **p, size_t *n, size_t *size, int *type)
{
    const uint8_t *h = *p;
    size_t len = 4;

    if (*n < 4)
        return 0;
    *size = h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16;
    *type = h[3];
    if (!*size) {
        if (*n < 8)
            return 0;
        *size = h[4] | (size_t)h[5] << 8 | (size_t)h[6] << 16 | (size_t)h[7] << 24;
        len = 8;
    }
    if (*size > *n - len)
        return 0;
    *p += len;
    *n -= len;
    return 1;
}

/* One chunk's bytes appended to out (at *pos) after undoing its compressor (0xA stored, 0xB snappy). */
static int unpack_chunk(int compressor, const uint8_t *src, size_t n, uint8_t *out, size_t cap, size_t *pos)
{
    if (compressor == 0x0a) {
        if (n > cap - *pos)
            return 0;
        memcpy(out + *pos, src, n);
        *pos += n;
        return 1;
    }
#ifdef HAVE_SNAPPY
    if (compressor == 0x0b) {
        size_t len;
        if (snappy_uncompressed_length((const char *)src, n, &len) != SNAPPY_OK || len > cap - *pos ||
            snappy_uncompress((const char *)src, n, (char *)out + *pos, &len) != SNAPPY_OK)
            return 0;
        *pos += len;
        return 1;
    }
#endif
    return 0;
}

/* Parses a frame; the texture format byte, the blocks in out and how many chunks were snappy. */
static int parse_frame(const uint8_t *frame, size_t n, int *texture, uint8_t *out, size_t cap, size_t *got,
                       int *snappy_chunks)
{
    size_t size, isize, csize, ssize;
    int type, itype, ctype, stype;
    const uint8_t *p = frame, *ctab, *stab;

    *got = 0;
    *snappy_chunks = 0;
    if (!read_section(&p, &n, &size, &type) || size != n)
        return 0;
    *texture = type & 15;
    if (type >> 4 != 0x0c) {
        *snappy_chunks = type >> 4 == 0x0b;
        return unpack_chunk(type >> 4, p, size, out, cap, got);
    }
    if (!read_section(&p, &n, &isize, &itype) || itype != 0x01)
        return 0;
    if (!read_section(&p, &n, &csize, &ctype) || ctype != 0x02)
        return 0;
    ctab = p;
    p += csize;
    n -= csize;
    if (!read_section(&p, &n, &ssize, &stype) || stype != 0x03 || ssize != 4 * csize ||
        isize != 8 + csize + ssize)
        return 0;
    stab = p;
    p += ssize;
    n -= ssize;
    for (size_t i = 0; i < csize; i++) {
        size_t len = stab[4 * i] | (size_t)stab[4 * i + 1] << 8 | (size_t)stab[4 * i + 2] << 16 |
                     (size_t)stab[4 * i + 3] << 24;
        if (len > n || !unpack_chunk(ctab[i], p, len, out, cap, got))
            return 0;
        *snappy_chunks += ctab[i] == 0x0b;
        p += len;
        n -= len;
    }
    return n == 0;
}

/* A packer kept across the frames of every check, as a stream's encoder keeps it. */
static gj_hap_packer *packer;

static void check_roundtrip(enum gj_dxt_format format, int w, int h, int chunks, enum gj_hap_compressor comp,
                            int threads, int compressible)
{
    static const int textures[] = { 0x0b, 0x0e, 0x0f, 0x01 };
    gj_dxt_blocks b = { .format = format, .width = w, .height = h, .memory = GJ_MEMORY_HOST };
    size_t cap, frame_size = 0, got;
    uint32_t rng = 2463534242u;
    uint8_t *frame, *back;
    int ret, texture = -1, snappy_chunks;

    b.size = gj_dxt_size(format, w, h);
    b.data = malloc(b.size);
    for (size_t i = 0; i < b.size; i++) {  /* runs of repeated bytes compress; noise (xorshift) does not */
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        b.data[i] = compressible ? (uint8_t)(i / 64 * 37) : (uint8_t)(rng >> 24);
    }
    cap = gj_hap_max_size(b.size, chunks);
    frame = malloc(cap);
    back = malloc(b.size);
    ret = gj_hap_pack(&b, comp, chunks, threads, frame, cap, &frame_size);
    CHECK(ret == 0, "format %d, %d chunks: gj_hap_pack returned %d", format, chunks, ret);
    if (ret == 0) {
        CHECK(frame_size <= cap, "frame of %zu bytes over the bound %zu", frame_size, cap);
        CHECK(parse_frame(frame, frame_size, &texture, back, b.size, &got, &snappy_chunks),
              "format %d, %d chunks, compressor %d: the frame does not parse", format, chunks, comp);
        CHECK(texture == textures[format], "texture format %#x, expected %#x", texture, textures[format]);
        CHECK(got == b.size && !memcmp(back, b.data, b.size), "format %d, %d chunks: blocks differ", format,
              chunks);
        if (comp == GJ_HAP_SNAPPY && compressible)
            CHECK(snappy_chunks == chunks && frame_size < b.size / 2, "compressible blocks: %d of %d chunks "
                  "snappy, %zu bytes of %zu", snappy_chunks, chunks, frame_size, b.size);
        if (!compressible)
            CHECK(snappy_chunks == 0, "noise: snappy chunks kept where they do not shrink");
        /* the persistent packer (other thread count, buffers of earlier frames) writes the same frame */
        {
            uint8_t *again = malloc(cap);
            size_t again_size = 0;
            ret = gj_hap_packer_pack(packer, &b, comp, chunks, again, cap, &again_size);
            CHECK(ret == 0 && again_size == frame_size && !memcmp(again, frame, frame_size),
                  "format %d, %d chunks: the packer's frame differs from gj_hap_pack's (%d)", format, chunks, ret);
            free(again);
        }
    }
    free(frame);
    free(back);
    free(b.data);
}

int main(void)
{
    enum gj_hap_compressor comp = gj_hap_snappy_available() ? GJ_HAP_SNAPPY : GJ_HAP_NONE;
    gj_dxt_blocks b = { .format = GJ_DXT_FORMAT_BC1, .width = 8, .height = 8, .memory = GJ_MEMORY_HOST };
    uint8_t data[32], out[256];
    size_t n;

    CHECK(gj_hap_packer_create(&packer, 3) == 0, "cannot create a packer");
    for (int f = 0; f < GJ_DXT_FORMAT_NB; f++) {
        check_roundtrip(f, 64, 36, 1, GJ_HAP_NONE, 1, 1);
        check_roundtrip(f, 64, 36, 7, GJ_HAP_NONE, 4, 1);
        check_roundtrip(f, 61, 37, 1, comp, 1, 1);
        check_roundtrip(f, 61, 37, 5, comp, 3, 1);
        check_roundtrip(f, 256, 200, 64, comp, 8, 1);
        check_roundtrip(f, 256, 200, 16, comp, 4, 0);
    }
    /* A frame over 2^24 bytes: the long section header. */
    check_roundtrip(GJ_DXT_FORMAT_BC3, 4096, 4104, 1, GJ_HAP_NONE, 1, 1);

    memset(data, 0, sizeof(data));
    b.data = data;
    b.size = sizeof(data);
    CHECK(gj_hap_pack(&b, GJ_HAP_NONE, 5, 1, out, sizeof(out), &n) == GJ_ERROR_INVAL, "5 chunks of 4 blocks");
    CHECK(gj_hap_pack(&b, GJ_HAP_NONE, 0, 1, out, sizeof(out), &n) == GJ_ERROR_INVAL, "0 chunks");
    CHECK(gj_hap_pack(&b, GJ_HAP_NONE, 1, 1, out, 16, &n) == GJ_ERROR_INVAL, "a short output");
    CHECK(gj_hap_pack(&b, 7, 1, 1, out, sizeof(out), &n) == GJ_ERROR_INVAL, "an unknown compressor");
    b.size = 30;
    CHECK(gj_hap_pack(&b, GJ_HAP_NONE, 1, 1, out, sizeof(out), &n) == GJ_ERROR_INVAL, "partial blocks");
    b.size = 32;
    b.memory = GJ_MEMORY_CUDA;
    CHECK(gj_hap_pack(&b, GJ_HAP_NONE, 1, 1, out, sizeof(out), &n) == GJ_ERROR_INVAL, "device blocks");
    if (!gj_hap_snappy_available()) {
        b.memory = GJ_MEMORY_HOST;
        CHECK(gj_hap_pack(&b, GJ_HAP_SNAPPY, 1, 1, out, sizeof(out), &n) == GJ_ERROR_UNSUPPORTED,
              "snappy without libsnappy");
    }
    gj_hap_packer_free(&packer);
    /* one chunk per 128 KiB, 1 to 64 */
    CHECK(gj_hap_auto_chunks(1000) == 1 && gj_hap_auto_chunks(4147200) == 31 && gj_hap_auto_chunks(8294400) == 63 &&
          gj_hap_auto_chunks((size_t)1 << 30) == GJ_HAP_MAX_CHUNKS, "gj_hap_auto_chunks");
    printf("hap_pack: %d failures (snappy %s)\n", failures, gj_hap_snappy_available() ? "yes" : "no");
    return failures != 0;
}
