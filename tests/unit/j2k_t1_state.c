/*
 * T1's two state formats (kernels/j2k_t1.h: words, or half-words read with the
 * stripes above and below) and its two MQ decoders (j2k_mq.h's speculate) give
 * the same coefficients, on the CPU: the kernel headers compiled as C, each
 * code-block decoded by gj_j2k_t1_group() as a work-group of one thread, over
 * every stream of the J2K corpus (GJ_J2K_CORPUS, default tests/j2k-corpus;
 * skipped without it) that parses. Every code-block style, size and shape of the
 * corpus goes through both formats here, whichever kernel a batch would choose.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/common.h"
#include "unit_one_item.h"
#include "kernels/j2k_t1.h"

#include "j2k/host_decode.h"
#include "j2k/t1_queue.h"
#include "unit_check.h"

/* T1's input buffer as t1_queue.c uploads it: code-blocks, segments, data. */
static uint8_t *t1_input(const j2k_layout *l, uint64_t *segments_at, uint64_t *data_at)
{
    size_t size = j2k_t1_input_size(l, segments_at, data_at);
    uint8_t *in = calloc(1, size + 1);

    if (!in)
        return NULL;
    memcpy(in, l->cblks, l->nb_cblks * sizeof(*l->cblks));
    memcpy(in + *segments_at, l->segments, l->nb_segments * sizeof(*l->segments));
    if (!l->nb_runs && l->data_size)
        memcpy(in + *data_at, l->data, l->data_size);
    for (size_t i = 0, at = 0; i < l->nb_runs; at += l->runs[i++].size)
        memcpy(in + *data_at + at, l->runs[i].data, l->runs[i].size);
    return in;
}

/*
 * Every code-block of l into coef, in one state format with one MQ decoder. Each
 * code-block's state is a heap block of its own size, so that a sanitizer build
 * (AddressSanitizer) sees a read past it: a group's state slots lie side by side.
 */
static void decode_all(const j2k_layout *l, const uint8_t *in, uint64_t segments_at, uint64_t data_at,
                       gj_i32 *coef, gj_u32 halves, gj_u32 speculate)
{
    static gj_u32 ctx[GJ_T1_CONTEXTS], trans[GJ_MQ_TRANSITIONS];
    static gj_u8 tables[GJ_T1_TABLE_BYTES];

    for (size_t b = 0; b < l->nb_cblks; b++) {
        const gj_j2k_cblk *cb = &l->cblks[b];
        gj_u32 n = GJ_J2K_T1_WORDS_OF(cb->width, cb->height);
        gj_u32 *words = malloc(GJ_T1_STATE_U32(n, halves) * sizeof(gj_u32));

        CHECK(words != NULL, "out of memory");
        if (!words)
            return;
        gj_j2k_t1_group(in, 0, (gj_u32)l->nb_cblks, segments_at, data_at, coef, (gj_u32)l->wide, b, 1, 1, n,
                        speculate, halves, words, tables, ctx, trans);
        free(words);
    }
}

/* 1 if the stream parsed and its four decodes were compared, else 0. */
static int check_stream(const char *path)
{
    static const char *const names[4] = { "words", "words, speculative MQ", "half-words",
                                          "half-words, speculative MQ" };
    size_t size, bytes;
    uint8_t *data = unit_read_file(path, 0, &size), *in = NULL;
    gj_i32 *coef[4] = { NULL };
    uint64_t segments_at, data_at;
    j2k_layout l;
    int truncated, compared = 0;

    memset(&l, 0, sizeof(l));
    if (!data || j2k_host_decode(data, size, 0, 0, &l, &truncated, NULL) < 0 || !l.nb_cblks)
        goto done;
    bytes = l.coef_count * (l.wide ? 4 : 2) + 4;
    if (!(in = t1_input(&l, &segments_at, &data_at)))
        goto done;
    for (int v = 0; v < 4; v++) {
        if (!(coef[v] = malloc(bytes)))
            goto done;
        memset(coef[v], 0x5A, bytes);       /* T1 writes every coefficient */
        decode_all(&l, in, segments_at, data_at, coef[v], v >= 2, v & 1);
    }
    for (int v = 1; v < 4; v++)
        CHECK(!memcmp(coef[0], coef[v], bytes - 4), "%s: T1 with %s differs from T1 with %s", path, names[v],
              names[0]);
    compared = 1;
done:
    for (int v = 0; v < 4; v++)
        free(coef[v]);
    free(in);
    j2k_layout_free(&l);
    free(data);
    return compared;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    const char *corpus = getenv("GJ_J2K_CORPUS") ? getenv("GJ_J2K_CORPUS") : "tests/j2k-corpus";
    DIR *dir = opendir(corpus);
    struct dirent *e;
    char *paths[512];
    int n = 0, compared = 0;

    /* the corpus' broken streams fail to parse: no messages for them */
    gj_log_set_level(GJ_LOG_QUIET);
    if (!dir) {
        printf("no JPEG 2000 corpus in %s\n", corpus);
        return 77;
    }
    while ((e = readdir(dir)) && n < 512) {
        size_t len = strlen(e->d_name);

        if (len > 4 && (!strcmp(e->d_name + len - 4, ".j2k") || !strcmp(e->d_name + len - 4, ".jp2"))) {
            size_t room = strlen(corpus) + len + 2;

            if ((paths[n] = malloc(room)))
                snprintf(paths[n++], room, "%s/%s", corpus, e->d_name);
        }
    }
    closedir(dir);
    qsort(paths, (size_t)n, sizeof(*paths), by_name);
    for (int i = 0; i < n; i++) {
        compared += check_stream(paths[i]);
        free(paths[i]);
    }
    /* The corpus' broken streams may not parse; the rest must, or this checks nothing. */
    CHECK(compared >= 40, "only %d of %d streams compared", compared, n);
    printf("%d streams, %d failures\n", compared, failures);
    return failures ? 1 : 0;
}
