/* The DXT tests' plain C references (see dxt_reference.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/dxt.h"
#include "kernels/dxt_palette.h"
#include "dxt_reference.h"

int dxt_ref_write_dds(const char *path, unsigned format, int width, int height, const unsigned char *blocks,
                      size_t size)
{
    unsigned char header[GJ_DDS_HEADER_SIZE];
    FILE *f;

    if (gj_dds_write_header(header, (enum gj_dxt_format)format, width, height) < 0) {
        fprintf(stderr, "dxt_tool: no DDS header for format %u %dx%d\n", format, width, height);
        return 1;
    }
    f = fopen(path, "wb");
    if (!f || fwrite(header, 1, sizeof(header), f) != sizeof(header) || fwrite(blocks, 1, size, f) != size ||
        fclose(f)) {
        fprintf(stderr, "dxt_tool: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

static unsigned le32(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

int dxt_ref_decode_dds(const unsigned char *data, size_t size, pnm_image *img)
{
    enum gj_dxt_format format;
    int w, h, channels;
    size_t offset, bytes;

    if (gj_dds_parse_header(data, size, &format, &w, &h, &offset) < 0) {
        fprintf(stderr, "dxt_tool: not a DDS file this decoder reads\n");
        return 1;
    }
    channels = format == GJ_DXT_FORMAT_BC4 ? 1 : format == GJ_DXT_FORMAT_BC3 ? 4 : 3;
    bytes = GJ_DXT_BLOCK_BYTES((unsigned)format);
    if (pnm_alloc(img, w, h, channels))
        return 1;
    strcpy(img->tupltype, channels == 1 ? "GRAYSCALE" : channels == 3 ? "RGB" : "RGB_ALPHA");
    for (int by = 0; by < (h + 3) / 4; by++) {
        for (int bx = 0; bx < (w + 3) / 4; bx++) {
            const unsigned char *b = data + offset + ((size_t)by * ((w + 3) / 4) + bx) * bytes;
            gj_u32 words[4] = { 0, 0, 0, 0 }, px[16];
            for (size_t i = 0; i < bytes / 4; i++)
                words[i] = le32(b + 4 * i);
            gj_dxt_decode_block((gj_u32)format, words, px);
            for (int j = 0; j < 4; j++) {
                for (int i = 0; i < 4; i++) {
                    int x = bx * 4 + i, y = by * 4 + j;
                    if (x >= w || y >= h)
                        continue;
                    for (int c = 0; c < channels; c++)
                        img->data[((size_t)y * w + x) * channels + c] = (unsigned char)(px[4 * j + i] >> (8 * c));
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ cluster fit */

static unsigned quantize(const double *e)
{
    int r = (int)lround(fmin(fmax(e[0], 0), 255) * 31 / 255);
    int g = (int)lround(fmin(fmax(e[1], 0), 255) * 63 / 255);
    int b = (int)lround(fmin(fmax(e[2], 0), 255) * 31 / 255);

    return (unsigned)(r << 11 | g << 5 | b);
}

static double dist2(const double *x, gj_u32 pal)
{
    double d = 0;

    for (int c = 0; c < 3; c++)
        d += (x[c] - (double)(pal >> (8 * c) & 255)) * (x[c] - (double)(pal >> (8 * c) & 255));
    return d;
}

/* Least squares for weights w[p] (of endpoint 0): endpoints a, b; 0 if singular. */
static int solve(double (*x)[3], const double *w, double *a, double *b)
{
    double aa = 0, bb = 0, ab = 0, ax[3] = { 0 }, bx[3] = { 0 }, det;

    for (int p = 0; p < 16; p++) {
        double u = w[p], v = 1 - u;
        aa += u * u;
        bb += v * v;
        ab += u * v;
        for (int c = 0; c < 3; c++) {
            ax[c] += u * x[p][c];
            bx[c] += v * x[p][c];
        }
    }
    det = aa * bb - ab * ab;
    if (fabs(det) < 1e-9)
        return 0;
    for (int c = 0; c < 3; c++) {
        a[c] = (bb * ax[c] - ab * bx[c]) / det;
        b[c] = (aa * bx[c] - ab * ax[c]) / det;
    }
    return 1;
}

/*
 * Error of endpoints (q0, q1) when pixel p uses palette entry slot[p] of that
 * order; the endpoints swap (and the slots with them) when the mode needs the
 * other order: four colours q0 > q1, three colours q0 <= q1.
 */
static double cluster_error(double (*x)[3], unsigned *q0, unsigned *q1, int four, const int *slot)
{
    static const int swapped[4] = { 1, 0, 3, 2 }, swapped3[4] = { 1, 0, 2, 3 };
    gj_u32 pal[4];
    double e = 0;
    int swap = four ? *q0 < *q1 : *q0 > *q1;

    if (four && *q0 == *q1)
        return 1e30;
    if (swap) {
        unsigned t = *q0;
        *q0 = *q1;
        *q1 = t;
    }
    gj_dxt_color_palette(*q0, *q1, 0, pal);
    for (int p = 0; p < 16; p++)
        e += dist2(x[p], pal[swap ? (four ? swapped : swapped3)[slot[p]] : slot[p]]);
    return e;
}

static void encode_block(double (*x)[3], unsigned char *out)
{
    double mean[3] = { 0 }, cov[3][3] = { { 0 } }, axis[3] = { 1, 1, 1 }, t[16], best = 1e30;
    int order[16], slot[16];
    unsigned best_q0 = 0, best_q1 = 0, idx = 0;
    gj_u32 pal[4];

    for (int p = 0; p < 16; p++)
        for (int c = 0; c < 3; c++)
            mean[c] += x[p][c] / 16;
    for (int p = 0; p < 16; p++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                cov[a][b] += (x[p][a] - mean[a]) * (x[p][b] - mean[b]);
    for (int it = 0; it < 8; it++) {
        double v[3], m = 0;
        for (int a = 0; a < 3; a++)
            v[a] = cov[a][0] * axis[0] + cov[a][1] * axis[1] + cov[a][2] * axis[2];
        for (int a = 0; a < 3; a++)
            m = fmax(m, fabs(v[a]));
        if (m == 0)
            break;
        for (int a = 0; a < 3; a++)
            axis[a] = v[a] / m;
    }
    for (int p = 0; p < 16; p++) {
        t[p] = axis[0] * x[p][0] + axis[1] * x[p][1] + axis[2] * x[p][2];
        order[p] = p;
    }
    for (int i = 1; i < 16; i++)    /* insertion sort by projection */
        for (int j = i; j > 0 && t[order[j]] < t[order[j - 1]]; j--) {
            int s = order[j];
            order[j] = order[j - 1];
            order[j - 1] = s;
        }
    /* Four clusters: weights 1, 2/3, 1/3, 0 (palette entries 0, 2, 3, 1 with c0 > c1). */
    for (int i = 0; i <= 16; i++)
        for (int j = i; j <= 16; j++)
            for (int k = j; k <= 16; k++) {
                double w[16], a[3], b[3];
                for (int m = 0; m < 16; m++) {
                    int p = order[m];
                    w[p] = m < i ? 1 : m < j ? 2.0 / 3 : m < k ? 1.0 / 3 : 0;
                    slot[p] = m < i ? 0 : m < j ? 2 : m < k ? 3 : 1;
                }
                if (!solve(x, w, a, b))
                    continue;
                unsigned q0 = quantize(a), q1 = quantize(b);
                double err = cluster_error(x, &q0, &q1, 1, slot);
                if (err < best) {
                    best = err;
                    best_q0 = q0;
                    best_q1 = q1;
                }
            }
    /* Three clusters: weights 1, 1/2, 0 (entries 0, 2, 1 with c0 <= c1). */
    for (int i = 0; i <= 16; i++)
        for (int j = i; j <= 16; j++) {
            double w[16], a[3], b[3];
            for (int m = 0; m < 16; m++) {
                int p = order[m];
                w[p] = m < i ? 1 : m < j ? 0.5 : 0;
                slot[p] = m < i ? 0 : m < j ? 2 : 1;
            }
            if (!solve(x, w, a, b))
                continue;
            unsigned q0 = quantize(a), q1 = quantize(b);
            double err = cluster_error(x, &q0, &q1, 0, slot);
            if (err < best) {
                best = err;
                best_q0 = q0;
                best_q1 = q1;
            }
        }
    if (best == 1e30) {     /* one colour */
        best_q0 = best_q1 = quantize(mean);
    }
    gj_dxt_color_palette(best_q0, best_q1, 0, pal);
    for (int p = 0; p < 16; p++) {
        int bi = 0;
        for (int e = 1; e < 4; e++)
            if (dist2(x[p], pal[e]) < dist2(x[p], pal[bi]))
                bi = e;
        idx |= (unsigned)bi << (2 * p);
    }
    out[0] = (unsigned char)best_q0;
    out[1] = (unsigned char)(best_q0 >> 8);
    out[2] = (unsigned char)best_q1;
    out[3] = (unsigned char)(best_q1 >> 8);
    for (int i = 0; i < 4; i++)
        out[4 + i] = (unsigned char)(idx >> (8 * i));
}

void dxt_ref_cluster_bc1(const pnm_image *img, unsigned char *blocks)
{
    int bw = (img->width + 3) / 4, bh = (img->height + 3) / 4;

    for (int by = 0; by < bh; by++)
        for (int bx = 0; bx < bw; bx++) {
            double x[16][3];
            for (int p = 0; p < 16; p++) {
                int xx = bx * 4 + p % 4, yy = by * 4 + p / 4;
                xx = xx < img->width ? xx : img->width - 1;
                yy = yy < img->height ? yy : img->height - 1;
                for (int c = 0; c < 3; c++)
                    x[p][c] = img->data[((size_t)yy * img->width + xx) * img->channels +
                                        (img->channels == 1 ? 0 : c)];
            }
            encode_block(x, blocks + ((size_t)by * bw + bx) * 8);
        }
}
