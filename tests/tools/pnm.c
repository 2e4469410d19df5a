/* Minimal 8-bit PNM/PAM reader and writer: see pnm.h. */
#include "pnm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Reads one whitespace-separated token, skipping '#' comments (Netpbm rules). */
static int read_token(FILE *f, char *tok, size_t len)
{
    int c;
    size_t n = 0;

    for (;;) {
        c = getc(f);
        if (c == '#') {
            while (c != EOF && c != '\n')
                c = getc(f);
        }
        if (c == EOF)
            return -1;
        if (!isspace(c))
            break;
    }
    while (c != EOF && !isspace(c)) {
        if (n + 1 < len)
            tok[n++] = (char)c;
        c = getc(f);
    }
    tok[n] = '\0';
    return 0;   /* the single whitespace after the token has been consumed */
}

static int read_int(FILE *f, int *v)
{
    char tok[32], *end;
    long l;

    if (read_token(f, tok, sizeof(tok)))
        return -1;
    l = strtol(tok, &end, 10);
    if (*end || l < 0 || l > 1000000)
        return -1;
    *v = (int)l;
    return 0;
}

static int read_pam_header(FILE *f, pnm_image *img, int *maxval, char *err, size_t errlen)
{
    char tok[64];

    img->width = img->height = img->channels = *maxval = -1;
    for (;;) {
        if (read_token(f, tok, sizeof(tok)))
            return fail(err, errlen, "PAM header ends early");
        if (!strcmp(tok, "ENDHDR"))
            break;
        if (!strcmp(tok, "WIDTH") && !read_int(f, &img->width))
            continue;
        if (!strcmp(tok, "HEIGHT") && !read_int(f, &img->height))
            continue;
        if (!strcmp(tok, "DEPTH") && !read_int(f, &img->channels))
            continue;
        if (!strcmp(tok, "MAXVAL") && !read_int(f, maxval))
            continue;
        if (!strcmp(tok, "TUPLTYPE") && !read_token(f, img->tupltype, sizeof(img->tupltype)))
            continue;
        return fail(err, errlen, "bad PAM header field %s", tok);
    }
    if (img->channels < 1 || img->channels > 4)
        return fail(err, errlen, "PAM DEPTH %d not in 1..4", img->channels);
    return 0;
}

int pnm_read(const char *path, pnm_image *img, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char magic[4];
    int maxval, ret = -1;
    size_t size;

    memset(img, 0, sizeof(*img));
    if (!f)
        return fail(err, errlen, "%s: cannot open", path);
    if (read_token(f, magic, sizeof(magic)) || magic[0] != 'P') {
        fail(err, errlen, "%s: not a PNM/PAM file", path);
        goto out;
    }
    if (magic[1] == '7') {
        if (read_pam_header(f, img, &maxval, err, errlen))
            goto out;
    } else if (magic[1] == '5' || magic[1] == '6') {
        img->channels = magic[1] == '5' ? 1 : 3;
        strcpy(img->tupltype, magic[1] == '5' ? "GRAYSCALE" : "RGB");
        if (read_int(f, &img->width) || read_int(f, &img->height) || read_int(f, &maxval)) {
            fail(err, errlen, "%s: bad %s header", path, magic);
            goto out;
        }
    } else {
        fail(err, errlen, "%s: unsupported Netpbm type %s", path, magic);
        goto out;
    }
    if (maxval != 255 || img->width < 1 || img->height < 1) {
        fail(err, errlen, "%s: %dx%d maxval %d (want 8-bit, non-empty)", path,
             img->width, img->height, maxval);
        goto out;
    }
    size = (size_t)img->width * img->height * img->channels;
    img->data = malloc(size);
    if (!img->data) {
        fail(err, errlen, "%s: out of memory", path);
        goto out;
    }
    if (fread(img->data, 1, size, f) != size) {
        fail(err, errlen, "%s: pixel data is short", path);
        goto out;
    }
    if (getc(f) != EOF) {
        fail(err, errlen, "%s: trailing bytes after the pixel data", path);
        goto out;
    }
    ret = 0;
out:
    fclose(f);
    if (ret)
        pnm_free(img);
    return ret;
}

int pnm_alloc(pnm_image *img, int width, int height, int channels)
{
    memset(img, 0, sizeof(*img));
    img->width = width;
    img->height = height;
    img->channels = channels;
    strcpy(img->tupltype, channels == 1 ? "GRAYSCALE" : channels == 3 ? "RGB" :
                          channels == 4 ? "RGB_ALPHA" : "GRAYSCALE_ALPHA");
    img->data = calloc((size_t)width * height, channels);
    return img->data ? 0 : -1;
}

int pnm_write(const char *path, const pnm_image *img)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    size_t size = (size_t)img->width * img->height * img->channels;
    int ok;

    if (!f)
        return -1;
    if (img->channels == 1 || img->channels == 3)
        fprintf(f, "P%c\n%d %d\n255\n", img->channels == 1 ? '5' : '6', img->width, img->height);
    else
        fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL 255\nTUPLTYPE %s\nENDHDR\n",
                img->width, img->height, img->channels, img->tupltype);
    ok = fwrite(img->data, 1, size, f) == size;
    if (f != stdout)
        ok = !fclose(f) && ok;
    else
        ok = !fflush(f) && ok;
    return ok ? 0 : -1;
}

void pnm_free(pnm_image *img)
{
    free(img->data);
    img->data = NULL;
}
