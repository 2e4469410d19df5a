/*
 * The bounds on the tiles' host state (j2k/tile.h) on made-up codestreams, on the
 * host. T2's packet marks (J2K_MAX_PACKETS): a codestream of 300 tiles of 906,300
 * packets each, one of them with a tile-part (libFuzzer's find, made smaller: the 10,924
 * tiles of the find took 10 GB and 27 s) keeps marks for that tile only; two tiles of
 * 47 million packets each are refused once both have tile-parts, and decode
 * (truncated) when only the first has one. Code-blocks (J2K_MAX_CBLKS): tiles of
 * one-sample code-blocks are refused past the bound in all tiles, and decode below it.
 */
#include <stdio.h>
#include <string.h>

#include "unit_check.h"
#include "j2k/host_decode.h"
#include "j2k/tile.h"

/* 8 x 3600 samples of two components in 12x12 tiles, 2x2 precincts, 15,105 layers. */
static const uint8_t many_tiles[] = {
    0xff, 0x4f, 0xff, 0x51, 0x00, 0x2c, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x0e, 0x10,
    0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x0c,
    0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x07, 0x01, 0x01, 0x07, 0x01, 0x01,
    0xff, 0x52, 0x00, 0x0e, 0x07, 0x02, 0x3b, 0x01, 0x00, 0x01, 0x04, 0x04, 0x00, 0x01, 0x00, 0x11,
    0xff, 0x53, 0x00, 0x0b, 0x01, 0x01, 0x01, 0x04, 0x04, 0x00, 0x01, 0x11, 0x22, 0xff, 0x5c, 0x00,
    0x07, 0x40, 0x40, 0x48, 0x48, 0x50, 0xff, 0x64, 0x00, 0x2d, 0x00, 0x01, 0x43, 0x72, 0x65, 0x61,
    0x74, 0x6f, 0x72, 0x3a, 0x20, 0x41, 0x56, 0x2d, 0x4a, 0x32, 0x4b, 0x20, 0x28, 0x63, 0x29, 0x20,
    0x32, 0x30, 0x30, 0x30, 0x2c, 0x32, 0x30, 0x30, 0x31, 0x20, 0x41, 0x6c, 0x67, 0x6f, 0x20, 0x56,
    0x69, 0x73, 0x69, 0x6f, 0x6e, 0xff, 0x90, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x01, 0xb2, 0x00,
    0x01, 0xff, 0x93, 0xff, 0x91, 0x00, 0x04, 0x00, 0x00, 0xcf, 0xb4, 0x14, 0xff, 0x92, 0x0d, 0xe6,
    0x72, 0x28, 0x08, 0xff, 0x91, 0x00, 0x04, 0x00, 0x01, 0xcf, 0xb4, 0x04, 0x04, 0xff, 0x92, 0x04,
    0xff, 0x91, 0x00, 0x04, 0x00, 0x11, 0x80, 0xff, 0x92, 0xff, 0x91, 0x00, 0x04, 0x00, 0x12, 0xcf,
    0xc0, 0x04, 0xff, 0x92, 0x04, 0xff, 0x91, 0x00, 0x04, 0x00, 0x13, 0xc7, 0xda, 0x07, 0x0f, 0xa8,
    0x0a, 0x1f, 0x68, 0x10, 0xff, 0x1a, 0x80, 0xff, 0x92, 0xff, 0x91, 0x00, 0x04, 0x00, 0x1b, 0xc7,
    0xda, 0x0a, 0x00, 0xff, 0x92, 0x01, 0x66, 0x1a, 0xa1, 0x0d, 0xff, 0x91, 0x00, 0x04, 0x00, 0x1c,
    0xcf, 0xc0, 0x04, 0xff, 0x92, 0x04, 0xff, 0x91, 0x00, 0x04, 0x00, 0x1d, 0x80, 0xff, 0x92, 0xff,
    0xd9,
};

static size_t put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return 2;
}

static size_t put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xFFFFu);
    return 4;
}

/*
 * A codestream of one 8-bit component in square tiles of `tile` samples, one level of
 * 5/3, 2x2 precincts (code-blocks of 2x2 samples in the lowest resolution, of one in
 * the other) and `layers` layers. Its first `parts` tiles get a tile-part of one empty
 * packet. p takes 64 + 15 x parts bytes.
 */
static size_t codestream(uint8_t *p, uint32_t width, uint32_t height, uint32_t tile, unsigned layers, int parts)
{
    size_t n = 0;

    n += put16(p + n, 0xFF4F);
    n += put16(p + n, 0xFF51);                  /* SIZ */
    n += put16(p + n, 41);
    n += put16(p + n, 0);
    n += put32(p + n, width);
    n += put32(p + n, height);
    n += put32(p + n, 0);
    n += put32(p + n, 0);
    n += put32(p + n, tile);
    n += put32(p + n, tile);
    n += put32(p + n, 0);
    n += put32(p + n, 0);
    n += put16(p + n, 1);
    p[n++] = 7;
    p[n++] = 1;
    p[n++] = 1;
    n += put16(p + n, 0xFF52);                  /* COD */
    n += put16(p + n, 14);
    p[n++] = 1;                                 /* precincts given */
    p[n++] = 0;                                 /* LRCP */
    n += put16(p + n, layers);
    p[n++] = 0;
    p[n++] = 1;                                 /* one level */
    p[n++] = 2;                                 /* 16x16 code-blocks */
    p[n++] = 2;
    p[n++] = 0;
    p[n++] = 1;                                 /* 5/3 */
    p[n++] = 0x11;                              /* 2x2 precincts */
    p[n++] = 0x11;
    n += put16(p + n, 0xFF5C);                  /* QCD: no quantisation, 2 guard bits */
    n += put16(p + n, 7);
    p[n++] = 0x40;
    for (int b = 0; b < 4; b++)
        p[n++] = 9 << 3;
    for (int t = 0; t < parts; t++) {
        n += put16(p + n, 0xFF90);              /* SOT */
        n += put16(p + n, 10);
        n += put16(p + n, (unsigned)t);
        n += put32(p + n, 15);
        p[n++] = 0;
        p[n++] = 1;
        n += put16(p + n, 0xFF93);              /* SOD, an empty packet */
        p[n++] = 0;
    }
    n += put16(p + n, 0xFFD9);
    return n;
}

int main(void)
{
    uint8_t stream[256];
    j2k_layout l;
    j2k_tile_state *tiles;
    size_t marked = 0, marks = 0, n;
    int truncated = 0, ret;

    gj_log_set_level(GJ_LOG_QUIET);
    memset(&l, 0, sizeof(l));
    ret = j2k_host_decode(many_tiles, sizeof(many_tiles), 0, 0, &l, &truncated, NULL);
    CHECK(ret == 0 && truncated, "300 tiles: returned %d (truncated %d), not 0 and truncated", ret, truncated);
    if (ret == 0 && j2k_tile_cache_get(&l.tile_cache, 300, &tiles) == 0) {
        for (int t = 0; t < 300; t++) {
            marked += tiles[t].packet_done_capacity > 0;
            marks += tiles[t].packet_done_capacity;
        }
        CHECK(tiles[0].nb_packets == 906300, "300 tiles: tile 0 has %zu packets, not 906300", tiles[0].nb_packets);
        CHECK(marked == 1 && marks < 2 * 906300, "300 tiles: %zu tiles hold %zu packet marks, not tile 0 alone",
              marked, marks);
    }
    j2k_layout_free(&l);

    /* Two 48x48 tiles of (12 x 12 + 24 x 24) x 65,535 = 47,185,200 packets each. */
    memset(&l, 0, sizeof(l));
    n = codestream(stream, 96, 48, 48, 65535, 2);
    ret = j2k_host_decode(stream, n, 0, 0, &l, &truncated, NULL);
    CHECK(ret == GJ_ERROR_UNSUPPORTED, "two tiles of 47 M packets: returned %d, not GJ_ERROR_UNSUPPORTED", ret);
    /* the same decoder's next picture: only the first tile has a tile-part */
    n = codestream(stream, 96, 48, 48, 65535, 1);
    truncated = 0;
    ret = j2k_host_decode(stream, n, 0, 0, &l, &truncated, NULL);
    CHECK(ret == 0 && truncated, "the first of two tiles: returned %d (truncated %d), not 0 and truncated", ret,
          truncated);
    if (ret == 0 && j2k_tile_cache_get(&l.tile_cache, 2, &tiles) == 0)
        CHECK(tiles[0].nb_packets == 47185200 && !tiles[1].packet_done_capacity,
              "the first of two tiles: %zu packets, tile 1 holding %zu marks", tiles[0].nb_packets,
              tiles[1].packet_done_capacity);
    j2k_layout_free(&l);

    /* Code-blocks: 36 x 36 tiles of 64x64, 16 x 16 + 3 x 32 x 32 = 3,328 a tile (4,313,088 in
     * all), refused; 35 x 35 (4,076,800) decode. */
    memset(&l, 0, sizeof(l));
    n = codestream(stream, 36 * 64, 36 * 64, 64, 1, 1);
    ret = j2k_host_decode(stream, n, 0, 0, &l, &truncated, NULL);
    CHECK(ret == GJ_ERROR_UNSUPPORTED, "4,313,088 code-blocks: returned %d, not GJ_ERROR_UNSUPPORTED", ret);
    n = codestream(stream, 35 * 64, 35 * 64, 64, 1, 1);
    ret = j2k_host_decode(stream, n, 0, 0, &l, &truncated, NULL);
    CHECK(ret == 0 && l.nb_cblks == 4076800, "4,076,800 code-blocks: returned %d with %zu code-blocks", ret,
          l.nb_cblks);
    j2k_layout_free(&l);
    printf("%d failures\n", failures);
    return failures != 0;
}
