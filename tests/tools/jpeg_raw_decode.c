/*
 * jpeg_raw_decode: the reference for planar output. Decodes with libjpeg-turbo's
 * raw-data interface (no upsampling, no colour conversion) and the accurate
 * integer IDCT, and writes every component's plane cropped to its downsampled
 * size (T.81 A.1.1: ceil(X * H / Hmax) x ceil(Y * V / Vmax)), one plane after
 * another, rows without padding: the layout of `gpujpeg decode --format planar
 * OUT.yuv`. Planes are written in the order of the matching FFmpeg pixel
 * format, which is component order except for gbrp (G, B, R).
 *
 *   jpeg_raw_decode IN.jpg OUT.yuv
 *   jpeg_raw_decode --info IN.jpg
 *       prints "FORMAT W0xH0,W1xH1,...": FORMAT is the FFmpeg pixel format the
 *       planes make (gray, yuvj444p, yuvj422p, yuvj420p, yuvj440p, yuvj411p,
 *       gbrp) or "none" when no planar format describes the sampling.
 *
 * Exit status: 0 decoded (warnings such as truncated data go to stderr, as
 * djpeg's), 1 libjpeg refused the file, 2 usage or I/O error.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} error_manager;

static void on_error(j_common_ptr cinfo)
{
    error_manager *err = (error_manager *)cinfo->err;

    (*cinfo->err->output_message)(cinfo);
    longjmp(err->jump, 1);
}

/* The FFmpeg planar format whose chroma shifts equal this sampling, or NULL. */
static const char *planar_format(const struct jpeg_decompress_struct *cinfo)
{
    static const struct { int h, v; const char *name; } ratios[] = {
        { 1, 1, "yuvj444p" }, { 2, 1, "yuvj422p" }, { 2, 2, "yuvj420p" },
        { 1, 2, "yuvj440p" }, { 4, 1, "yuvj411p" },
    };
    const jpeg_component_info *c = cinfo->comp_info;
    int hmax = cinfo->max_h_samp_factor, vmax = cinfo->max_v_samp_factor, i;

    if (cinfo->num_components == 1)
        return "gray";
    if (cinfo->num_components != 3)
        return NULL;
    if (cinfo->jpeg_color_space == JCS_RGB)
        return c[0].h_samp_factor == hmax && c[1].h_samp_factor == hmax &&
               c[2].h_samp_factor == hmax && c[0].v_samp_factor == vmax &&
               c[1].v_samp_factor == vmax && c[2].v_samp_factor == vmax ? "gbrp" : NULL;
    if (cinfo->jpeg_color_space != JCS_YCbCr)
        return NULL;
    /* Luma at full resolution, both chroma planes alike, integer power-of-two ratios. */
    if (c[0].h_samp_factor != hmax || c[0].v_samp_factor != vmax ||
        c[1].h_samp_factor != c[2].h_samp_factor || c[1].v_samp_factor != c[2].v_samp_factor ||
        hmax % c[1].h_samp_factor || vmax % c[1].v_samp_factor)
        return NULL;
    for (i = 0; i < (int)(sizeof(ratios) / sizeof(ratios[0])); i++)
        if (ratios[i].h == hmax / c[1].h_samp_factor && ratios[i].v == vmax / c[1].v_samp_factor)
            return ratios[i].name;
    return NULL;
}

/* Plane p of the output is component plane_component(p). */
static int plane_component(const char *format, int p)
{
    static const int gbrp[3] = { 1, 2, 0 };

    return format && !strcmp(format, "gbrp") ? gbrp[p] : p;
}

static int print_info(struct jpeg_decompress_struct *cinfo)
{
    const char *format = planar_format(cinfo);
    int p;

    jpeg_calc_output_dimensions(cinfo);
    printf("%s ", format ? format : "none");
    for (p = 0; p < cinfo->num_components; p++) {
        const jpeg_component_info *c = &cinfo->comp_info[plane_component(format, p)];
        printf("%s%ux%u", p ? "," : "", c->downsampled_width, c->downsampled_height);
    }
    printf("\n");
    return 0;
}

static int write_raw(struct jpeg_decompress_struct *cinfo, FILE *out)
{
    const char *format;
    JSAMPARRAY rows[MAX_COMPONENTS];
    JSAMPLE *planes[MAX_COMPONENTS];
    int n = cinfo->num_components, rows_per_call, p, c;
    unsigned y;

    cinfo->raw_data_out = TRUE;
    cinfo->dct_method = JDCT_ISLOW;
    jpeg_start_decompress(cinfo);
    format = planar_format(cinfo);
    rows_per_call = cinfo->max_v_samp_factor * DCTSIZE;

    /* Whole planes at the padded block size; cropped when written. */
    for (c = 0; c < n; c++) {
        const jpeg_component_info *ci = &cinfo->comp_info[c];
        size_t stride = (size_t)ci->width_in_blocks * DCTSIZE;
        size_t height = (size_t)(cinfo->total_iMCU_rows * ci->v_samp_factor) * DCTSIZE;

        planes[c] = malloc(stride * height);
        rows[c] = malloc(height * sizeof(JSAMPROW));
        if (!planes[c] || !rows[c]) {
            fprintf(stderr, "jpeg_raw_decode: out of memory\n");
            return 2;
        }
        for (y = 0; y < height; y++)
            rows[c][y] = planes[c] + y * stride;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPARRAY at[MAX_COMPONENTS];
        unsigned imcu = cinfo->output_scanline / rows_per_call;

        for (c = 0; c < n; c++)
            at[c] = rows[c] + (size_t)imcu * cinfo->comp_info[c].v_samp_factor * DCTSIZE;
        if (jpeg_read_raw_data(cinfo, at, rows_per_call) == 0) {
            fprintf(stderr, "jpeg_raw_decode: suspended (cannot happen with a file source)\n");
            return 2;
        }
    }
    for (p = 0; p < n; p++) {
        const jpeg_component_info *ci = &cinfo->comp_info[plane_component(format, p)];

        for (y = 0; y < ci->downsampled_height; y++)
            if (fwrite(rows[plane_component(format, p)][y], 1, ci->downsampled_width, out) !=
                ci->downsampled_width) {
                perror("jpeg_raw_decode: write");
                return 2;
            }
    }
    jpeg_finish_decompress(cinfo);
    for (c = 0; c < n; c++) {
        free(planes[c]);
        free(rows[c]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct jpeg_decompress_struct cinfo;
    error_manager err;
    FILE *in, *out = NULL;
    int info = argc == 3 && !strcmp(argv[1], "--info");
    const char *in_path = info ? argv[2] : argv[1];
    int ret;

    if (argc != 3) {
        fprintf(stderr, "usage: jpeg_raw_decode IN.jpg OUT.yuv\n"
                        "       jpeg_raw_decode --info IN.jpg\n");
        return 2;
    }
    in = fopen(in_path, "rb");
    if (!in || (!info && !(out = fopen(argv[2], "wb")))) {
        perror(in ? argv[2] : in_path);
        return 2;
    }
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, in);
    jpeg_read_header(&cinfo, TRUE);
    ret = info ? print_info(&cinfo) : write_raw(&cinfo, out);
    jpeg_destroy_decompress(&cinfo);
    fclose(in);
    if (out && fclose(out)) {
        perror(argv[2]);
        return 2;
    }
    return ret;
}
