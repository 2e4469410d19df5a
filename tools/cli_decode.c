/*
 * gpujpeg decode: one device and one decoder for every input, as a stream of
 * pictures would use them; each picture goes to an output module (output/).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpujpeg/gpujpeg.h"
#include "cli.h"
#include "output/output.h"
#include "progress.h"

typedef struct decode_options {
    const char *device;
    int explicit_format;            /* --format given */
    enum gj_pixel_format format;    /* GJ_PIX_FMT_NONE: planar, the JPEG's native format */
    const char *out_dir;            /* -o */
    const char *out_path;           /* IN OUT */
    const output_module *module;
    int repeat;
    int reduce;                     /* JPEG 2000: --reduce */
    int layers;                     /* JPEG 2000: --layers (0: all) */
    int log_level;
    int help;
    char **inputs;
    int nb_inputs;
} decode_options;

/* JPEG 2000 inputs of a run decode this many at a time through gj_j2k_decode_batch(). */
#define J2K_BATCH 8

typedef struct j2k_item {
    const char *in;
    char *out;              /* the output path (owned), or NULL */
    uint8_t *buf;           /* the file, kept from batch to batch */
    size_t capacity, size;
    size_t icc_offset, icc_size;    /* its ICC profile (gj_j2k_info) */
} j2k_item;

typedef struct j2k_batch {
    j2k_item items[J2K_BATCH];
    int n;
} j2k_batch;

typedef struct decode_session {
    const decode_options *opts;
    gj_device *dev;
    gj_jpeg_decoder *dec;
    gj_j2k_decoder *j2k;
    gj_frame frame;         /* kept while pictures keep their size and format */
    gj_j2k_components components;   /* a JPEG 2000 picture's components, for PGX files */
    uint8_t *buf;           /* the current input file */
    size_t buf_capacity;
    size_t size;
    progress progress;
    int done;               /* decodes finished or skipped after a failure */
    int decoded;            /* successful decodes, repeats included */
    int failed;             /* failed inputs */
    double pixels;          /* of the successful decodes */
    j2k_batch *batch;       /* with several inputs: JPEG 2000 ones queued for gj_j2k_decode_batch() */
} decode_session;

static const struct {
    const char *name;
    enum gj_pixel_format format;
} format_names[] = {
    { "planar", GJ_PIX_FMT_NONE },
    { "rgb24",  GJ_PIX_FMT_RGB24 },
    { "rgba",   GJ_PIX_FMT_RGBA },
    { "bgra",   GJ_PIX_FMT_BGRA },
    { "gray",   GJ_PIX_FMT_GRAY8 },
};

enum { OPT_OUTPUT_FORMAT = 256, OPT_REDUCE, OPT_LAYERS };

/* What decode_input() needs of a picture, JPEG or JPEG 2000. */
typedef struct picture_info {
    int j2k;
    int width, height;
    int gray;
    enum gj_pixel_format native_format;
    size_t icc_offset, icc_size;    /* a JP2 file's ICC profile, for the output file */
} picture_info;

static const struct option long_options[] = {
    { "device",        required_argument, NULL, 'd' },
    { "format",        required_argument, NULL, 'f' },
    { "output-dir",    required_argument, NULL, 'o' },
    { "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
    { "null",          no_argument,       NULL, 'n' },
    { "repeat",        required_argument, NULL, 'r' },
    { "reduce",        required_argument, NULL, OPT_REDUCE },
    { "layers",        required_argument, NULL, OPT_LAYERS },
    { "verbose",       no_argument,       NULL, 'v' },
    { "quiet",         no_argument,       NULL, 'q' },
    { "help",          no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void print_help(void)
{
    printf("Usage: gpujpeg decode [options] IN.jpg OUT\n"
           "       gpujpeg decode [options] -o DIR IN.jpg...\n"
           "       gpujpeg decode [options] --null IN.jpg...\n"
           "\n"
           "Decodes JPEG and JPEG 2000 (.j2k, .j2c, .jp2) files on the GPU. OUT's\n"
           "extension picks the file format: ppm, pgm, pam, png, y4m, yuv, or pgx\n"
           "(JPEG 2000: each component as it is, OUT_<c>.pgx when there are several);\n"
           "OUT '-' decodes without writing.\n"
           "\n"
           "Options:\n"
           "  -d, --device DEV         auto (default), cuda[:N], opencl[:N],\n"
           "                           opencl-gpu[:N], opencl-cpu[:N]\n"
           "  -f, --format FMT         planar (the JPEG's own), rgb24, rgba, bgra, gray;\n"
           "                           default: what the output file format holds\n"
           "  -o, --output-dir DIR     write each IN to DIR/<name>.<ext>\n"
           "      --output-format EXT  file format with -o: ppm (default), pgm, pam,\n"
           "                           png, y4m, yuv, pgx\n"
           "  -n, --null               decode and discard (timing)\n"
           "  -r, --repeat N           decode each input N times (timing)\n"
           "      --reduce N           JPEG 2000: decode at 1/2^N of the size\n"
           "      --layers N           JPEG 2000: decode the first N quality layers\n"
           "  -v, --verbose            more messages (twice: debug)\n"
           "  -q, --quiet              errors only, no progress bar\n"
           "  -h, --help               this text\n");
}

static const char *format_name(enum gj_pixel_format format)
{
    return gj_pixel_format_describe(format)->name;
}

/* "rgb24, rgba, bgra, gray": the formats a module takes, for error messages. */
static const char *accepted_formats(const output_module *m)
{
    static char list[256];
    size_t len = 0;

    list[0] = '\0';
    for (const enum gj_pixel_format *f = m->formats; *f != GJ_PIX_FMT_NONE; f++)
        len += snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "", format_name(*f));
    return list;
}

/* One line: "gpujpeg: <name>: ppm cannot hold yuvj420p (it takes rgb24)". */
static void report_mismatch(const char *name, const output_module *m, enum gj_pixel_format format)
{
    cli_error(name, "%s cannot hold %s (it takes %s)", m->name, format_name(format),
              accepted_formats(m));
}

static int parse_format(const char *arg, decode_options *o)
{
    for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
        if (!strcmp(arg, format_names[i].name)) {
            o->explicit_format = 1;
            o->format = format_names[i].format;
            return 0;
        }
    }
    return cli_usage_error("decode", "unknown --format '%s' (planar, rgb24, rgba, bgra, gray)",
                           arg);
}

/* A whole number from min to max for option `name`. */
static int parse_count(const char *arg, const char *name, long min, long max, int *value)
{
    char *end;
    long n;

    errno = 0;
    n = strtol(arg, &end, 10);
    if (errno || end == arg || *end || n < min || n > max)
        return cli_usage_error("decode", "%s takes a count from %ld to %ld, not '%s'", name, min, max, arg);
    *value = (int)n;
    return 0;
}

/* Options and the output module; the positional arguments are checked by check_operands(). */
static int parse_options(int argc, char **argv, decode_options *o, const char **output_format,
                         int *null_output)
{
    int verbose = 0, quiet = 0, c, ret = 0;

    opterr = 0;
    while (ret == 0 && (c = getopt_long(argc, argv, ":d:f:o:nr:vqh", long_options, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'f': ret = parse_format(optarg, o); break;
        case 'o': o->out_dir = optarg; break;
        case OPT_OUTPUT_FORMAT: *output_format = optarg; break;
        case 'n': *null_output = 1; break;
        case 'r': ret = parse_count(optarg, "--repeat", 1, 1000000, &o->repeat); break;
        case OPT_REDUCE: ret = parse_count(optarg, "--reduce", 0, 32, &o->reduce); break;
        case OPT_LAYERS: ret = parse_count(optarg, "--layers", 1, 65535, &o->layers); break;
        case 'v': verbose++; break;
        case 'q': quiet = 1; break;
        case 'h': o->help = 1; break;
        default:  ret = cli_option_error("decode", argv, c); break;
        }
    }
    o->log_level = cli_log_level(verbose, quiet);
    o->inputs = argv + optind;
    o->nb_inputs = argc - optind;
    return ret;
}

/* Which form of the command this is, and so which module writes the pictures. */
static int check_operands(decode_options *o, const char *output_format, int null_output)
{
    if (o->out_dir && null_output)
        return cli_usage_error("decode", "-o and --null exclude each other");
    if (output_format && !o->out_dir)
        return cli_usage_error("decode", "--output-format goes with -o DIR");
    if (o->out_dir || null_output) {
        if (o->nb_inputs < 1)
            return cli_usage_error("decode", "no input files");
        o->module = null_output ? &output_null : &output_ppm;
        if (output_format && !(o->module = output_find(output_format)))
            return cli_usage_error("decode", "unknown --output-format '%s' "
                                   "(ppm, pgm, pam, png, y4m, yuv, pgx)", output_format);
    } else {
        if (o->nb_inputs != 2)
            return cli_usage_error("decode", "expected IN.jpg OUT, or -o DIR / --null with inputs");
        o->out_path = o->inputs[1];
        o->nb_inputs = 1;
        o->module = strcmp(o->out_path, "-") ? output_for_path(o->out_path) : &output_null;
        if (!o->module)
            return cli_usage_error("decode", "%s: unknown file type (ppm, pgm, pam, png, y4m, "
                                   "yuv, pgx; '-' for none)", o->out_path);
    }
    if (o->module->components && o->explicit_format)
        return cli_usage_error("decode", "pgx holds the components as they are: no --format");
    if (o->nb_inputs > INT_MAX / o->repeat)
        return cli_usage_error("decode", "too many decodes: inputs x --repeat exceeds %d", INT_MAX);
    /* Planar formats depend on each JPEG; a fixed format can be checked now. */
    if (o->explicit_format && o->format != GJ_PIX_FMT_NONE && !output_accepts(o->module, o->format)) {
        report_mismatch(o->out_path ? o->out_path : o->out_dir, o->module, o->format);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* DIR/<name of IN without directory and extension>.<module's extension> */
static char *output_path_in_dir(const char *dir, const char *in, const output_module *m)
{
    const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
    const char *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    size_t size = strlen(dir) + 1 + stem + 1 + strlen(m->name) + 1;
    char *path = malloc(size);

    if (path)
        snprintf(path, size, "%s/%.*s.%s", dir, stem, base, m->name);
    return path;
}

/* Decodes into the planes of the previous picture when size and format match. */
static int decode_picture(decode_session *s, const picture_info *info,
                          enum gj_pixel_format format, enum gj_pixel_format result)
{
    gj_frame *f = &s->frame;
    int ret;

    if (!f->data[0] || f->width != info->width || f->height != info->height || f->format != result) {
        gj_frame_unref(f);
        *f = (gj_frame){ .format = format, .memory = GJ_MEMORY_HOST };
    }
    f->decode_error_flags = 0;
    ret = info->j2k ? gj_j2k_decode(s->j2k, s->buf, s->size, f) : gj_jpeg_decode(s->dec, s->buf, s->size, f);
    if (ret < 0)
        gj_frame_unref(f);
    return ret;
}

/* With the ICC profile at icc_offset in the input file, icc_size bytes (0: none), where the format holds one. */
static int write_picture(decode_session *s, const char *out, const gj_frame *frame, const uint8_t *file,
                         size_t icc_offset, size_t icc_size)
{
    int ret = output_write(s->opts->module, out, frame, icc_size ? file + icc_offset : NULL, icc_size);

    if (ret < 0)
        cli_error(out, "%s", output_error(ret));
    return ret;
}

/* A JPEG 2000 picture's components as PGX files. */
static int write_components(decode_session *s, const char *out)
{
    int ret = output_write_pgx(out, &s->components);

    if (ret < 0)
        cli_error(out, "%s", output_error(ret));
    return ret;
}

static int read_picture_info(const uint8_t *data, size_t size, picture_info *info)
{
    int ret;

    memset(info, 0, sizeof(*info));
    info->j2k = cli_is_j2k(data, size);
    if (info->j2k) {
        gj_j2k_info j;

        if ((ret = gj_j2k_read_info(data, size, &j)) < 0)
            return ret;
        info->width = j.width;
        info->height = j.height;
        info->gray = j.num_components == 1;
        info->native_format = j.native_format;
        info->icc_offset = j.icc_offset;
        info->icc_size = j.icc_size;
    } else {
        gj_jpeg_info j;

        if ((ret = gj_jpeg_read_info(data, size, &j)) < 0)
            return ret;
        info->width = j.width;
        info->height = j.height;
        info->gray = j.color_space == GJ_JPEG_CS_GRAY;
        info->native_format = j.native_format;
    }
    return 0;
}

/* The format to ask the decoder for and the one it gives; GJ_ERROR_INVAL (reported) when the module cannot hold it. */
static int pick_formats(const decode_options *o, const char *in, const picture_info *info,
                        enum gj_pixel_format *format, enum gj_pixel_format *result)
{
    *format = output_pick_format(o->module, o->explicit_format, o->format, info->gray);
    /* JPEG 2000 pictures decode to their own format only. */
    if (info->j2k && !o->explicit_format)
        *format = GJ_PIX_FMT_NONE;
    *result = *format == GJ_PIX_FMT_NONE ? info->native_format : *format;
    /* Without a native format the decoder itself explains why. */
    if (*result != GJ_PIX_FMT_NONE && !output_accepts(o->module, *result)) {
        report_mismatch(in, o->module, *result);
        return GJ_ERROR_INVAL;
    }
    return 0;
}

static int decode_input(decode_session *s, const char *in, const char *out)
{
    const decode_options *o = s->opts;
    enum gj_pixel_format format = GJ_PIX_FMT_NONE, result = GJ_PIX_FMT_NONE;
    picture_info info;
    int ret;

    cli_set_subject(in);
    if ((ret = cli_read_file(in, &s->buf, &s->buf_capacity, &s->size)) < 0 ||
        (ret = read_picture_info(s->buf, s->size, &info)) < 0)
        return cli_report(in, ret);
    if (o->module->components) {
        if (!info.j2k) {
            cli_error(in, "pgx holds JPEG 2000 components; this is a JPEG");
            return GJ_ERROR_INVAL;
        }
    } else if ((ret = pick_formats(o, in, &info, &format, &result)) < 0) {
        return ret;
    }
    for (int r = 0; r < o->repeat; r++) {
        cli_mute_warnings(r > 0);
        ret = o->module->components ? gj_j2k_decode_components(s->j2k, s->buf, s->size, &s->components)
                                    : decode_picture(s, &info, format, result);
        cli_mute_warnings(0);
        if (ret < 0)
            return cli_report(in, ret);
        s->decoded++;
        /* of the decoded picture: a components decode's first component */
        s->pixels += o->module->components
                         ? (double)s->components.planes[0].width * s->components.planes[0].height
                         : (double)s->frame.width * s->frame.height;
        progress_update(&s->progress, ++s->done);
    }
    if (o->module->components)
        return write_components(s, out);
    return o->module->write ? write_picture(s, out, &s->frame, s->buf, info.icc_offset, info.icc_size) : 0;
}

/*
 * Queues a JPEG 2000 input for the next batch; 0 when it is no JPEG 2000 file (or
 * unreadable: decode_input() reports it). Only the header is peeked at first, so
 * that the other inputs are read once, by decode_input().
 */
static int queue_j2k(decode_session *s, const char *in, char *out)
{
    j2k_item *it;

    if (!s->batch || s->opts->module->components || !cli_file_is_j2k(in))
        return 0;
    it = &s->batch->items[s->batch->n];
    if (cli_read_file(in, &it->buf, &it->capacity, &it->size) < 0 || !cli_is_j2k(it->buf, it->size))
        return 0;
    it->in = in;
    it->out = out;
    return ++s->batch->n == J2K_BATCH ? 2 : 1;
}

/* The batch's pictures that can decode: headers read, formats that the output module takes. */
static int prepare_batch(decode_session *s, const uint8_t **data, size_t *sizes, gj_frame *frames, int *index)
{
    int m = 0;

    for (int k = 0; k < s->batch->n; k++) {
        j2k_item *it = &s->batch->items[k];
        enum gj_pixel_format format, result;
        picture_info info;
        int ret;

        cli_set_subject(it->in);
        if ((ret = read_picture_info(it->buf, it->size, &info)) < 0) {
            cli_report(it->in, ret);
            s->failed++;
        } else if (pick_formats(s->opts, it->in, &info, &format, &result) < 0) {
            s->failed++;
        } else {
            data[m] = it->buf;
            sizes[m] = it->size;
            it->icc_offset = info.icc_offset;
            it->icc_size = info.icc_size;
            frames[m] = (gj_frame){ .format = format, .memory = GJ_MEMORY_HOST };
            index[m++] = k;
        }
    }
    return m;
}

/*
 * Decodes the queued JPEG 2000 inputs with gj_j2k_decode_batch() (--repeat times),
 * then writes them in order. The library is quiet meanwhile: a picture that failed
 * or was concealed is decoded again alone, so that its messages name it.
 */
static void flush_batch(decode_session *s)
{
    const decode_options *o = s->opts;
    const uint8_t *data[J2K_BATCH];
    size_t sizes[J2K_BATCH];
    gj_frame frames[J2K_BATCH];
    int results[J2K_BATCH], index[J2K_BATCH], m;

    if (!s->batch || !s->batch->n)
        return;
    m = prepare_batch(s, data, sizes, frames, index);
    cli_set_subject(NULL);
    cli_mute_library(1);
    for (int r = 0; r < o->repeat && m; r++)
        gj_j2k_decode_batch(s->j2k, data, sizes, m, frames, results);
    cli_mute_library(0);
    for (int k = 0; k < m; k++) {
        j2k_item *it = &s->batch->items[index[k]];
        int ret = results[k];

        cli_set_subject(it->in);
        if (ret < 0 || frames[k].decode_error_flags) {
            enum gj_pixel_format format = frames[k].format;

            gj_frame_unref(&frames[k]);
            frames[k] = (gj_frame){ .format = format, .memory = GJ_MEMORY_HOST };
            ret = gj_j2k_decode(s->j2k, data[k], sizes[k], &frames[k]);
        }
        if (ret < 0) {
            cli_report(it->in, ret);
            s->failed++;
        } else {
            s->decoded += o->repeat;
            s->pixels += (double)frames[k].width * frames[k].height * o->repeat;
            if (o->module->write && write_picture(s, it->out, &frames[k], it->buf, it->icc_offset, it->icc_size) < 0)
                s->failed++;
        }
        gj_frame_unref(&frames[k]);
    }
    for (int k = 0; k < s->batch->n; k++) {
        free(s->batch->items[k].out);
        s->batch->items[k].out = NULL;
    }
    s->done += s->batch->n * o->repeat;
    progress_update(&s->progress, s->done);
    s->batch->n = 0;
}

static int decode_inputs(decode_session *s)
{
    const decode_options *o = s->opts;

    for (int i = 0; i < o->nb_inputs; i++) {
        char *out = o->out_dir ? output_path_in_dir(o->out_dir, o->inputs[i], o->module) : NULL;
        int queued;

        if (o->out_dir && !out) {
            flush_batch(s);
            cli_error(o->inputs[i], "%s", gj_strerror(GJ_ERROR_NOMEM));
            s->failed++;
            s->done += o->repeat;
        } else if ((queued = queue_j2k(s, o->inputs[i], out))) {
            out = NULL;         /* the batch's now */
            if (queued == 2)
                flush_batch(s);
        } else {
            int done;

            flush_batch(s);
            done = s->done;
            if (decode_input(s, o->inputs[i], out ? out : o->out_path) < 0)
                s->failed++;
            s->done = done + o->repeat;
        }
        free(out);
        progress_update(&s->progress, s->done);
    }
    flush_batch(s);
    cli_set_subject(NULL);
    return s->failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

static int open_device(decode_session *s)
{
    const char *spec = s->opts->device ? s->opts->device : "auto";
    double start = cli_now();
    int ret;

    cli_set_subject(NULL);
    if ((ret = gj_device_create_from_string(&s->dev, spec)) < 0) {
        char name[64];

        snprintf(name, sizeof(name), "device %s", spec);
        return cli_report(name, ret);
    }
    if ((ret = gj_jpeg_decoder_create(&s->dec, s->dev)) < 0 ||
        (ret = gj_j2k_decoder_create(&s->j2k, s->dev)) < 0 ||
        (ret = gj_j2k_decoder_set_reduce(s->j2k, s->opts->reduce)) < 0 ||
        (ret = gj_j2k_decoder_set_layers(s->j2k, s->opts->layers)) < 0)
        return cli_report(gj_device_name(s->dev), ret);
    cli_verbose("%s, ready in %.3f s", gj_device_name(s->dev), cli_now() - start);
    return 0;
}

static int make_output_dir(const char *dir)
{
    struct stat st;
    int err;

    if (mkdir(dir, 0777) == 0)
        return 0;
    err = errno;
    if (err != EEXIST) {
        cli_error(dir, "%s", strerror(err));
        return GJ_ERROR(err);
    }
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    cli_error(dir, "exists and is not a directory");
    return GJ_ERROR(ENOTDIR);
}

static void print_summary(const decode_session *s, double seconds)
{
    if (seconds <= 0)
        seconds = 1e-9;
    printf("decoded %d images (%d failed) in %.3f s: %.1f images/s, %.1f Mpixel/s on %s\n",
           s->decoded, s->failed, seconds, s->decoded / seconds, s->pixels / seconds / 1e6,
           gj_device_name(s->dev));
}

static void close_session(decode_session *s)
{
    gj_frame_unref(&s->frame);
    gj_j2k_components_unref(&s->components);
    gj_jpeg_decoder_free(&s->dec);
    gj_j2k_decoder_free(&s->j2k);
    gj_device_free(&s->dev);
    free(s->buf);
    for (int k = 0; s->batch && k < J2K_BATCH; k++) {
        free(s->batch->items[k].buf);
        free(s->batch->items[k].out);
    }
    free(s->batch);
}

static int run(const decode_options *o)
{
    decode_session s = { .opts = o };
    int total = o->nb_inputs * o->repeat;
    double start;
    int status;

    if (o->out_dir && make_output_dir(o->out_dir) < 0)
        return CLI_EXIT_FAILURE;
    /* Without memory for a batch, the inputs decode one by one. */
    if (o->nb_inputs > 1)
        s.batch = calloc(1, sizeof(*s.batch));
    if (open_device(&s) < 0) {
        close_session(&s);
        return CLI_EXIT_FAILURE;
    }
    progress_start(&s.progress, total, o->log_level > GJ_LOG_ERROR && total > 1);
    start = cli_now();
    status = decode_inputs(&s);
    progress_end(&s.progress);
    /* A single picture written to a file speaks for itself; anything else is a run to measure. */
    if (o->out_dir || (!o->module->write && !o->module->components) || o->repeat > 1)
        print_summary(&s, cli_now() - start);
    close_session(&s);
    return status;
}

int cli_decode_main(int argc, char **argv)
{
    decode_options o = { .format = GJ_PIX_FMT_NONE, .repeat = 1 };
    const char *output_format = NULL;
    int null_output = 0;
    int ret = parse_options(argc, argv, &o, &output_format, &null_output);

    if (ret)
        return ret;
    if (o.help) {
        print_help();
        return CLI_EXIT_OK;
    }
    if ((ret = check_operands(&o, output_format, null_output)))
        return ret;
    cli_log_init(o.log_level);
    return run(&o);
}
