/*
 * The libjpeg-turbo reference for encoding planar YCbCr (the first frame of a
 * Y4M file), as gpujpeg encode does it:
 *
 *   jpeg_ycc_encode QUALITY SAMPLING IN.y4m OUT.jpg      SAMPLING: 420 422 444 440 gray
 *
 * 4:4:4 input is handed to libjpeg as YCbCr pixels (no colour conversion; libjpeg
 * downsamples to SAMPLING). Input already in SAMPLING goes in as raw data
 * (jpeg_write_raw_data), its planes padded to whole MCUs by repeating the last
 * column and row. gray encodes the Y plane. Islow DCT, cjpeg's other defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct picture {
    int w, h, cw, ch;           /* luma and chroma plane sizes */
    unsigned char *plane[3];
} picture;

static int fail(const char *msg)
{
    fprintf(stderr, "jpeg_ycc_encode: %s\n", msg);
    return 1;
}

static int read_y4m(const char *path, picture *p, char *cs, size_t cs_size)
{
    FILE *f = fopen(path, "rb");
    char line[256], *t;
    int i;

    if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "YUV4MPEG2 ", 10))
        return -1;
    snprintf(cs, cs_size, "420");
    for (t = strtok(line + 10, " \n"); t; t = strtok(NULL, " \n")) {
        if (t[0] == 'W')
            p->w = atoi(t + 1);
        else if (t[0] == 'H')
            p->h = atoi(t + 1);
        else if (t[0] == 'C')
            snprintf(cs, cs_size, "%s", t + 1);
    }
    if (!fgets(line, sizeof(line), f) || strncmp(line, "FRAME", 5) || p->w < 1 || p->h < 1)
        return -1;
    p->cw = !strncmp(cs, "444", 3) || !strncmp(cs, "440", 3) ? p->w : (p->w + 1) / 2;
    p->ch = !strncmp(cs, "420", 3) || !strncmp(cs, "440", 3) ? (p->h + 1) / 2 : p->h;
    for (i = 0; i < (strcmp(cs, "mono") ? 3 : 1); i++) {
        size_t n = i ? (size_t)p->cw * p->ch : (size_t)p->w * p->h;
        if (!(p->plane[i] = malloc(n)) || fread(p->plane[i], 1, n, f) != n)
            return -1;
    }
    fclose(f);
    return 0;
}

/* Sample (x, y) of plane i with the last column and row repeated past the edges. */
static unsigned char sample(const picture *p, int i, int x, int y)
{
    int w = i ? p->cw : p->w, h = i ? p->ch : p->h;

    return p->plane[i][(size_t)(y < h ? y : h - 1) * w + (x < w ? x : w - 1)];
}

static void write_raw(struct jpeg_compress_struct *c, const picture *p)
{
    JSAMPARRAY rows[3];
    int vmax = c->max_v_samp_factor, i, y, x;

    for (i = 0; i < c->num_components; i++) {
        jpeg_component_info *ci = &c->comp_info[i];
        int width = (int)ci->width_in_blocks * DCTSIZE + 2 * DCTSIZE;
        rows[i] = malloc(sizeof(JSAMPROW) * ci->v_samp_factor * DCTSIZE);
        for (y = 0; y < ci->v_samp_factor * DCTSIZE; y++)
            rows[i][y] = malloc((size_t)width);
    }
    for (int row0 = 0; row0 < (int)c->image_height; row0 += vmax * DCTSIZE) {
        for (i = 0; i < c->num_components; i++) {
            jpeg_component_info *ci = &c->comp_info[i];
            int n = ci->v_samp_factor * DCTSIZE, first = row0 / vmax * ci->v_samp_factor;
            for (y = 0; y < n; y++)
                for (x = 0; x < (int)ci->width_in_blocks * DCTSIZE + 2 * DCTSIZE; x++)
                    rows[i][y][x] = sample(p, i, x, first + y);
        }
        jpeg_write_raw_data(c, rows, (JDIMENSION)(vmax * DCTSIZE));
    }
}

static void write_pixels(struct jpeg_compress_struct *c, const picture *p)
{
    JSAMPROW row = malloc((size_t)p->w * c->input_components);

    while (c->next_scanline < c->image_height) {
        int y = (int)c->next_scanline;
        for (int x = 0; x < p->w; x++)
            for (int i = 0; i < c->input_components; i++)
                row[x * c->input_components + i] = sample(p, i, x, y);
        jpeg_write_scanlines(c, &row, 1);
    }
    free(row);
}

int main(int argc, char **argv)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    picture p = { 0 };
    char cs[32];
    const char *s;
    int gray, h, v, raw;
    FILE *out;

    if (argc != 5)
        return fail("usage: jpeg_ycc_encode QUALITY 420|422|444|440|gray IN.y4m OUT.jpg");
    s = argv[2];
    if (read_y4m(argv[3], &p, cs, sizeof(cs)) < 0)
        return fail("cannot read the Y4M file");
    gray = !strcmp(s, "gray");
    h = !strcmp(s, "420") || !strcmp(s, "422") ? 2 : 1;
    v = !strcmp(s, "420") || !strcmp(s, "440") ? 2 : 1;
    /* Input in the output's sampling goes in raw; 4:4:4 is downsampled by libjpeg. */
    raw = !gray && strncmp(cs, "444", 3);
    if (raw && strncmp(cs, s, 3))
        return fail("the input's sampling must be 4:4:4 or the output's");
    if (!(out = fopen(argv[4], "wb")))
        return fail("cannot write the output");
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, out);
    c.image_width = (JDIMENSION)p.w;
    c.image_height = (JDIMENSION)p.h;
    c.input_components = gray ? 1 : 3;
    c.in_color_space = gray ? JCS_GRAYSCALE : JCS_YCbCr;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, atoi(argv[1]), FALSE);
    c.dct_method = JDCT_ISLOW;
    if (!gray) {
        c.comp_info[0].h_samp_factor = h;
        c.comp_info[0].v_samp_factor = v;
    }
    c.raw_data_in = raw;
    jpeg_start_compress(&c, TRUE);
    if (raw)
        write_raw(&c, &p);
    else
        write_pixels(&c, &p);
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    fclose(out);
    return 0;
}
