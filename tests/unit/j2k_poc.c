/*
 * Which progression volumes a tile takes (j2k/markers.c) when its tile-part headers
 * hold a POC, on made-up codestreams parsed on the host: a tile-part POC replaces the
 * main header's (T.800 A.6.6) and later tile-parts' POCs extend it, except a tile's
 * first list of the main header's volumes in other orders, the copy that Grok 10's
 * encoder writes: that tile keeps the main header's orders, and the library warns, once
 * a codestream.
 */
#include <stdio.h>
#include <string.h>

#include "unit_check.h"
#include "j2k/codestream.h"

/* One 16x16 8-bit component in one tile, one level of 5/3, LRCP, two layers. */
static const uint8_t main_header[] = {
    0xff, 0x4f, 0xff, 0x51, 0x00, 0x29, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x07, 0x01, 0x01, 0xff, 0x52, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x04, 0x04, 0x00, 0x01, 0xff, 0x5c, 0x00, 0x07, 0x40,
    0x48, 0x50, 0x50, 0x58,
};

/* A POC entry (Csiz < 257): RSpoc, CSpoc, LYEpoc, REpoc, CEpoc, Ppoc. */
typedef struct { uint8_t res_start, comp_start; uint16_t layer_end; uint8_t res_end, comp_end, order; } entry;

static size_t put_poc(uint8_t *p, const entry *e, int n)
{
    size_t k = 0;

    if (!n)
        return 0;
    p[k++] = 0xff;
    p[k++] = 0x5f;
    p[k++] = 0;
    p[k++] = (uint8_t)(2 + 7 * n);
    for (int i = 0; i < n; i++) {
        uint8_t v[7] = { e[i].res_start, e[i].comp_start, (uint8_t)(e[i].layer_end >> 8), (uint8_t)e[i].layer_end,
                         e[i].res_end, e[i].comp_end, e[i].order };

        memcpy(p + k, v, 7);
        k += 7;
    }
    return k;
}

/* A tile-part (index part of parts) of tile `tile`, its header's POC, SOD and one empty packet. */
static size_t put_tile_part(uint8_t *p, int tile, int part, int parts, const entry *e, int n)
{
    size_t k = 12 + put_poc(p + 12, e, n);
    uint32_t psot = (uint32_t)k + 3;
    uint8_t sot[12] = { 0xff, 0x90, 0x00, 0x0a, 0x00, (uint8_t)tile, (uint8_t)(psot >> 24), (uint8_t)(psot >> 16),
                        (uint8_t)(psot >> 8), (uint8_t)psot, (uint8_t)part, (uint8_t)parts };

    memcpy(p, sot, 12);
    p[k++] = 0xff;
    p[k++] = 0x93;
    p[k++] = 0;
    return k;
}

static int warnings;

/* Ends the codestream of n bytes (EOC) and parses it into s, counting its warnings. */
static int parse(uint8_t *stream, size_t n, gj_j2k_stream *s)
{
    stream[n++] = 0xff;
    stream[n++] = 0xd9;
    memset(s, 0, sizeof(*s));
    warnings = 0;
    return j2k_parse_codestream(stream, n, s);
}

static void count_warnings(void *opaque, int level, const char *message)
{
    (void)opaque;
    if (level == GJ_LOG_WARNING && strstr(message, "POC:"))
        warnings++;
}

/*
 * Parses the codestream of these POCs (main header, tile-part 0, tile-part 1) and checks
 * tile 0's list against want (n_want entries) and the warnings against n_warnings.
 */
static void check(const char *what, const entry *main_poc, int n_main, const entry *part0, int n0, const entry *part1,
                  int n1, const entry *want, int n_want, int n_warnings)
{
    uint8_t stream[512];
    size_t n = sizeof(main_header);
    gj_j2k_stream s;
    int ret;

    memcpy(stream, main_header, n);
    n += put_poc(stream + n, main_poc, n_main);
    n += put_tile_part(stream + n, 0, 0, 2, part0, n0);
    n += put_tile_part(stream + n, 0, 1, 2, part1, n1);
    ret = parse(stream, n, &s);
    CHECK(ret == 0, "%s: parsing returned %d", what, ret);
    if (ret < 0)
        return;
    CHECK(s.tiles[0].nb_poc == n_want, "%s: %d volumes, not %d", what, s.tiles[0].nb_poc, n_want);
    for (int i = 0; i < n_want && i < s.tiles[0].nb_poc; i++) {
        const j2k_progression_volume *v = &s.tiles[0].poc[i];

        CHECK(v->res_start == want[i].res_start && v->comp_start == want[i].comp_start &&
              v->layer_end == want[i].layer_end && v->res_end == want[i].res_end &&
              v->comp_end == want[i].comp_end && v->order == want[i].order,
              "%s: volume %d is (%d %d %d %d %d, order %d), not (%d %d %d %d %d, order %d)", what, i, v->res_start,
              v->comp_start, v->layer_end, v->res_end, v->comp_end, v->order, want[i].res_start, want[i].comp_start,
              want[i].layer_end, want[i].res_end, want[i].comp_end, want[i].order);
    }
    CHECK(warnings == n_warnings, "%s: %d warnings, not %d", what, warnings, n_warnings);
    j2k_stream_free(&s);
}

/* Two 8x16 tiles, each with Grok's copy in its one tile-part: both keep the main header's
 * orders, and the codestream gets one warning, not one a tile. */
static void check_two_tiles(const entry *main_poc, const entry *copy)
{
    uint8_t stream[512];
    size_t n = sizeof(main_header);
    gj_j2k_stream s;
    int ret;

    memcpy(stream, main_header, n);
    stream[27] = 8;             /* XTsiz */
    n += put_poc(stream + n, main_poc, 2);
    n += put_tile_part(stream + n, 0, 0, 1, copy, 2);
    n += put_tile_part(stream + n, 1, 0, 1, copy, 2);
    ret = parse(stream, n, &s);
    CHECK(ret == 0 && s.tiles_x == 2, "two tiles: parsing returned %d, %d tiles across", ret, ret ? 0 : s.tiles_x);
    if (ret < 0)
        return;
    for (int t = 0; t < 2; t++)
        CHECK(s.tiles[t].nb_poc == 2 && s.tiles[t].poc[0].order == main_poc[0].order &&
              s.tiles[t].poc[1].order == main_poc[1].order, "two tiles: tile %d's orders are not the main header's", t);
    CHECK(warnings == 1, "two tiles: %d warnings, not 1", warnings);
    j2k_stream_free(&s);
}

int main(void)
{
    const entry main_poc[2] = { { 0, 0, 1, 2, 1, J2K_RPCL }, { 0, 0, 2, 2, 1, J2K_CPRL } };
    const entry grok_copy[2] = { { 0, 0, 1, 2, 1, J2K_LRCP }, { 0, 0, 2, 2, 1, J2K_LRCP } };
    const entry other[1] = { { 0, 0, 2, 2, 1, J2K_RLCP } };
    const entry more[1] = { { 1, 0, 2, 2, 1, J2K_PCRL } };
    const entry main_then_more[3] = { main_poc[0], main_poc[1], more[0] };
    const entry other_then_more[2] = { other[0], more[0] };

    gj_log_set_callback(count_warnings, NULL);
    check("no tile-part POC", main_poc, 2, NULL, 0, NULL, 0, main_poc, 2, 0);
    check("Grok's copy", main_poc, 2, grok_copy, 2, NULL, 0, main_poc, 2, 1);
    check("a copy of the same orders", main_poc, 2, main_poc, 2, NULL, 0, main_poc, 2, 0);
    check("other volumes", main_poc, 2, other, 1, NULL, 0, other, 1, 0);
    check("one of the two volumes", main_poc, 2, grok_copy, 1, NULL, 0, grok_copy, 1, 0);
    check("a tile-part POC alone", NULL, 0, grok_copy, 2, NULL, 0, grok_copy, 2, 0);
    check("other volumes, then more", main_poc, 2, other, 1, more, 1, other_then_more, 2, 0);
    check("Grok's copy, then more", main_poc, 2, grok_copy, 2, more, 1, main_then_more, 3, 1);
    /* the tile's first list, whichever tile-part holds it */
    check("the copy in the second tile-part", main_poc, 2, NULL, 0, grok_copy, 2, main_poc, 2, 1);
    check_two_tiles(main_poc, grok_copy);
    gj_log_set_callback(NULL, NULL);
    printf("%d failures\n", failures);
    return failures != 0;
}
