/*
 * gpujpeg encode: JPEG encoding of PNG, Netpbm and Y4M pictures on the GPU.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "cli.h"
#include "input/input.h"

enum { OPT_QUIET = 256, OPT_OPTIMIZE, OPT_RESTART };

static const struct option encode_options[] = {
    { "device",   required_argument, NULL, 'd' },
    { "quality",  required_argument, NULL, 'q' },
    { "sampling", required_argument, NULL, 's' },
    { "optimize", no_argument,       NULL, OPT_OPTIMIZE },
    { "restart",  required_argument, NULL, OPT_RESTART },
    { "verbose",  no_argument,       NULL, 'v' },
    { "quiet",    no_argument,       NULL, OPT_QUIET },
    { "help",     no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void print_help(void)
{
    printf("Usage: gpujpeg encode [options] IN.{ppm,pgm,pam,png,y4m} OUT.jpg\n"
           "\n"
           "Encodes a picture into a baseline JPEG (JFIF) file on the GPU: colour\n"
           "conversion, downsampling, DCT, quantisation and Huffman coding as\n"
           "libjpeg-turbo's `cjpeg -dct int` does them, so the files are the same.\n"
           "\n"
           "Options:\n"
           "  -d, --device DEV     auto (default), cuda[:N], opencl[:N], opencl-gpu[:N], opencl-cpu[:N]\n"
           "  -q, --quality Q      1..100 (default 75), libjpeg's scaling of the standard tables\n"
           "  -s, --sampling S     420 (default), 422, 444, 440, gray (default for gray pictures)\n"
           "      --optimize       optimal Huffman tables for the picture (a second coding pass)\n"
           "      --restart N      a restart marker every N MCUs (default 0: none)\n"
           "  -v, --verbose        more messages (twice: debug)\n"
           "      --quiet          errors only\n"
           "  -h, --help           this text\n");
}

typedef struct encode_opts {
    const char *device;
    gj_jpeg_encode_params params;
    int sampling_given;
    int log_level;
    int help;
    const char *in, *out;
} encode_opts;

/* A whole decimal number in [lo, hi], or -1. */
static long parse_number(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);

    return *s && !*end && v >= lo && v <= hi ? v : -1;
}

static int parse(int argc, char **argv, encode_opts *o)
{
    int verbose = 0, quiet = 0, c;
    long v;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:q:s:vh", encode_options, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'q':
            if ((v = parse_number(optarg, 1, 100)) < 0)
                return cli_usage_error("encode", "--quality '%s' is not a number from 1 to 100", optarg);
            o->params.quality = (int)v;
            break;
        case 's':
            if (gj_jpeg_sampling_from_name(optarg, &o->params.sampling) < 0)
                return cli_usage_error("encode", "unknown --sampling '%s' (420, 422, 444, 440, gray)", optarg);
            o->sampling_given = 1;
            break;
        case OPT_OPTIMIZE: o->params.optimize = 1; break;
        case OPT_RESTART:
            if ((v = parse_number(optarg, 0, 65535)) < 0)
                return cli_usage_error("encode", "--restart '%s' is not a number of MCUs from 0 to 65535", optarg);
            o->params.restart_interval = (int)v;
            break;
        case 'v': verbose++; break;
        case OPT_QUIET: quiet = 1; break;
        case 'h': o->help = 1; break;
        default:  return cli_option_error("encode", argv, c);
        }
    }
    o->log_level = cli_log_level(verbose, quiet);
    if (o->help)
        return 0;
    if (argc - optind != 2)
        return cli_usage_error("encode", "expected IN OUT.jpg");
    o->in = argv[optind];
    o->out = argv[optind + 1];
    return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    int ok;

    if (!f)
        return -1;
    ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static int run_encode(encode_opts *o)
{
    const char *spec = o->device ? o->device : "auto";
    const input_module *m;
    gj_device *dev = NULL;
    gj_jpeg_encoder *enc = NULL;
    gj_frame frame = { .format = GJ_PIX_FMT_NONE };
    gj_jpeg_output jpeg = { 0 };
    uint8_t *buf = NULL;
    size_t cap = 0, size;
    int ret;

    if ((ret = gj_device_create_from_string(&dev, spec)) < 0) {
        char name[64];
        snprintf(name, sizeof(name), "device %s", spec);
        cli_report(name, ret);
        return CLI_EXIT_FAILURE;
    }
    cli_verbose("%s", gj_device_name(dev));
    cli_set_subject(o->in);
    if ((ret = cli_read_file(o->in, &buf, &cap, &size)) < 0) {
        cli_report(o->in, ret);
    } else if (!(m = input_find(buf, size))) {
        ret = cli_report(o->in, cli_fail(GJ_ERROR_INVALIDDATA, "unknown file type (ppm, pgm, pam, png or y4m)"));
    } else if ((ret = m->read(buf, size, &frame)) < 0) {
        cli_report(o->in, ret);
    } else {
        /* Gray pictures make gray JPEGs unless a sampling was asked for, as with cjpeg. */
        if (frame.format == GJ_PIX_FMT_GRAY8 && !o->sampling_given)
            o->params.sampling = GJ_JPEG_SAMPLING_GRAY;
        if ((ret = gj_jpeg_encoder_create(&enc, dev)) < 0 ||
            (ret = gj_jpeg_encode(enc, &frame, &o->params, &jpeg)) < 0) {
            cli_report(o->in, ret);
        } else if (write_file(o->out, jpeg.data, jpeg.size) < 0) {
            cli_error(o->out, "cannot write the file");
            ret = GJ_ERROR_IO;
        } else {
            cli_verbose("%s: %dx%d %s -> q%d %s%s, %zu bytes", o->in, frame.width, frame.height,
                        gj_pixel_format_describe(frame.format)->name, o->params.quality,
                        gj_jpeg_sampling_name(o->params.sampling), o->params.optimize ? " optimized" : "",
                        jpeg.size);
        }
    }
    cli_set_subject(NULL);
    gj_jpeg_output_unref(&jpeg);
    gj_frame_unref(&frame);
    gj_jpeg_encoder_free(&enc);
    gj_device_free(&dev);
    free(buf);
    return ret < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

int cli_encode_main(int argc, char **argv)
{
    encode_opts o = { 0 };
    int ret;

    gj_jpeg_encode_params_default(&o.params);
    if ((ret = parse(argc, argv, &o)))
        return ret;
    if (o.help) {
        print_help();
        return CLI_EXIT_OK;
    }
    cli_log_init(o.log_level);
    return run_encode(&o);
}
