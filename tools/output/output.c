/* gpujpeg tool: the table of output modules and the file handling they share. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpujpeg/common.h"
#include "output.h"

static const enum gj_pixel_format all_formats[] = {
    GJ_PIX_FMT_GRAY8, GJ_PIX_FMT_YUVJ420P, GJ_PIX_FMT_YUVJ422P, GJ_PIX_FMT_YUVJ444P,
    GJ_PIX_FMT_YUVJ440P, GJ_PIX_FMT_YUVJ411P, GJ_PIX_FMT_RGB24, GJ_PIX_FMT_RGBA,
    GJ_PIX_FMT_BGRA, GJ_PIX_FMT_GBRP, GJ_PIX_FMT_GRAY16, GJ_PIX_FMT_RGB48, GJ_PIX_FMT_NONE
};

const output_module output_null = {
    .name           = "null",
    .formats        = all_formats,
    .default_format = GJ_PIX_FMT_RGB24,
};

const output_module *const output_modules[] = {
    &output_ppm, &output_pgm, &output_pam, &output_png, &output_y4m, &output_yuv, &output_pgx, NULL
};

/* The tool is single-threaded: one pending description is enough. */
static char error_message[256];

const output_module *output_find(const char *name)
{
    for (int i = 0; output_modules[i]; i++)
        if (!strcasecmp(output_modules[i]->name, name))
            return output_modules[i];
    return NULL;
}

const output_module *output_for_path(const char *path)
{
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base : path, '.');

    return dot ? output_find(dot + 1) : NULL;
}

int output_accepts(const output_module *m, enum gj_pixel_format format)
{
    for (const enum gj_pixel_format *f = m->formats; *f != GJ_PIX_FMT_NONE; f++)
        if (*f == format)
            return 1;
    return 0;
}

enum gj_pixel_format output_pick_format(const output_module *m, int explicit_format,
                                        enum gj_pixel_format requested, int gray_jpeg)
{
    if (explicit_format)
        return requested;
    if (gray_jpeg && output_accepts(m, GJ_PIX_FMT_GRAY8))
        return GJ_PIX_FMT_GRAY8;
    return m->default_format;
}

int output_fail(int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(error_message, sizeof(error_message), fmt, ap);
    va_end(ap);
    return code;
}

int output_io_error(void)
{
    return GJ_ERROR(errno ? errno : EIO);
}

const char *output_error(int code)
{
    return error_message[0] ? error_message : gj_strerror(code);
}

/* mkstemp() creates files with mode 0600; give the result the mode fopen() would. */
static int open_temporary(char *template, FILE **f)
{
    mode_t mask = umask(0);
    int fd;

    umask(mask);
    fd = mkstemp(template);
    if (fd < 0)
        return output_io_error();
    if (fchmod(fd, 0666 & ~mask) < 0 || !(*f = fdopen(fd, "wb"))) {
        int ret = output_io_error();

        close(fd);
        unlink(template);
        return ret;
    }
    return 0;
}

static int close_checked(FILE *f, int ret)
{
    errno = 0;
    if ((fflush(f) != 0 || ferror(f)) && ret >= 0)
        ret = output_io_error();
    if (fclose(f) != 0 && ret >= 0)
        ret = output_io_error();
    return ret;
}

typedef struct frame_job {
    const output_module *module;
    const gj_frame *frame;
    const uint8_t *icc;
    size_t icc_size;
} frame_job;

static int write_frame(FILE *f, const void *opaque)
{
    const frame_job *job = opaque;

    if (job->icc && job->module->write_with_icc)
        return job->module->write_with_icc(f, job->frame, job->icc, job->icc_size);
    return job->module->write(f, job->frame);
}

int output_write(const output_module *m, const char *path, const gj_frame *frame, const uint8_t *icc,
                 size_t icc_size)
{
    frame_job job = { m, frame, icc, icc_size };

    return output_write_with(path, write_frame, &job);
}

int output_write_with(const char *path, int (*write)(FILE *f, const void *opaque), const void *opaque)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof(".XXXXXX"));
    FILE *f;
    int ret;

    error_message[0] = '\0';
    if (!tmp)
        return GJ_ERROR_NOMEM;
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
    ret = open_temporary(tmp, &f);
    if (ret < 0) {
        free(tmp);
        return ret;
    }
    ret = close_checked(f, write(f, opaque));
    if (ret >= 0 && rename(tmp, path) < 0)
        ret = output_io_error();
    if (ret < 0)
        unlink(tmp);
    free(tmp);
    return ret;
}

int output_write_planes(FILE *f, const gj_frame *frame)
{
    const gj_pixel_format_desc *desc = gj_pixel_format_describe(frame->format);

    /* Packed formats have one plane; planar ones use one sample size in every plane. */
    for (int p = 0; p < desc->nb_planes; p++) {
        size_t row = gj_frame_plane_row_bytes(frame->format, p, frame->width);
        int rows = gj_frame_plane_height(frame->format, p, frame->height);
        const uint8_t *src = frame->data[p];

        for (int y = 0; y < rows; y++, src += frame->linesize[p])
            if (fwrite(src, 1, row, f) != row)
                return output_io_error();
    }
    return 0;
}

void output_bgra_to_rgba(uint8_t *dst, const uint8_t *src, int width)
{
    for (int x = 0; x < width; x++, src += 4, dst += 4) {
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        dst[3] = src[3];
    }
}
