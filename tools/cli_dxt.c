/*
 * gpujpeg dxt / undxt: DXT texture encoding of PNG, Netpbm and JPEG pictures
 * into DDS files, and DDS files back to pictures. A JPEG decodes on the GPU
 * and its picture goes to the DXT encoder in device memory.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/gpujpeg.h"
#include "cli.h"
#include "input/input.h"
#include "output/output.h"

static const struct option dxt_options[] = {
    { "device",  required_argument, NULL, 'd' },
    { "format",  required_argument, NULL, 'f' },
    { "quality", required_argument, NULL, 'Q' },
    { "verbose", no_argument,       NULL, 'v' },
    { "quiet",   no_argument,       NULL, 'q' },
    { "help",    no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void print_dxt_help(void)
{
    printf("Usage: gpujpeg dxt [options] IN.{png,ppm,pgm,pam,jpg} OUT.dds\n"
           "\n"
           "Compresses a picture into DXT/BCn blocks on the GPU and writes a DDS file.\n"
           "A JPEG decodes on the GPU and stays in device memory for the encoder.\n"
           "\n"
           "Options:\n"
           "  -d, --device DEV     auto (default), cuda[:N], opencl[:N], opencl-gpu[:N], opencl-cpu[:N]\n"
           "  -f, --format FMT     bc1 (DXT1, default), bc3 (DXT5), ycocg (scaled YCoCg-DXT5,\n"
           "                       HAP Q), bc4 (one channel: alpha, or gray without alpha)\n"
           "      --quality Q      fast, balanced (default), high\n"
           "  -v, --verbose        more messages (twice: debug)\n"
           "  -q, --quiet          errors only\n"
           "  -h, --help           this text\n");
}

static void print_undxt_help(void)
{
    printf("Usage: gpujpeg undxt [options] IN.dds OUT.{png,ppm,pgm,pam}\n"
           "\n"
           "Decodes a DDS file's DXT1, DXT5, YCoCg-DXT5 or BC4 blocks on the GPU.\n"
           "\n"
           "Options:\n"
           "  -d, --device DEV     as for dxt\n"
           "  -v, --verbose        more messages (twice: debug)\n"
           "  -q, --quiet          errors only\n"
           "  -h, --help           this text\n");
}

typedef struct dxt_options_t {
    const char *device;
    enum gj_dxt_format format;
    enum gj_dxt_quality quality;
    int log_level;
    int help;
    const char *in, *out;
} dxt_opts;

static int parse(const char *command, int argc, char **argv, dxt_opts *o)
{
    int verbose = 0, quiet = 0, c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:f:vqh", dxt_options, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'f':
            if (strcmp(command, "dxt") || gj_dxt_format_from_name(optarg, &o->format) < 0)
                return cli_usage_error(command, "unknown --format '%s' (bc1, bc3, ycocg, bc4)", optarg);
            break;
        case 'Q':
            if (strcmp(command, "dxt") || gj_dxt_quality_from_name(optarg, &o->quality) < 0)
                return cli_usage_error(command, "unknown --quality '%s' (fast, balanced, high)", optarg);
            break;
        case 'v': verbose++; break;
        case 'q': quiet = 1; break;
        case 'h': o->help = 1; break;
        default:  return cli_option_error(command, argv, c);
        }
    }
    o->log_level = cli_log_level(verbose, quiet);
    if (o->help)
        return 0;
    if (argc - optind != 2)
        return cli_usage_error(command, "expected %s", strcmp(command, "dxt") ? "IN.dds OUT" : "IN OUT.dds");
    o->in = argv[optind];
    o->out = argv[optind + 1];
    return 0;
}

static int open_device(const dxt_opts *o, gj_device **dev)
{
    const char *spec = o->device ? o->device : "auto";
    int ret = gj_device_create_from_string(dev, spec);

    if (ret < 0) {
        char name[64];
        snprintf(name, sizeof(name), "device %s", spec);
        return cli_report(name, ret);
    }
    cli_verbose("%s", gj_device_name(*dev));
    return 0;
}

static int is_jpeg(const uint8_t *data, size_t size)
{
    return size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff;
}

/* The picture to encode: a JPEG decoded into device memory, or a file read into host memory. */
static int load_picture(gj_device *dev, const uint8_t *data, size_t size, gj_frame *frame)
{
    const input_module *m;

    if (is_jpeg(data, size)) {
        gj_jpeg_decoder *dec;
        gj_jpeg_info info;
        int ret = gj_jpeg_read_info(data, size, &info);

        if (ret < 0 || (ret = gj_jpeg_decoder_create(&dec, dev)) < 0)
            return ret;
        /* The encoder reads 4:2:0, 4:2:2, 4:4:4 and gray as they are; other samplings via RGBA. */
        frame->format = info.native_format == GJ_PIX_FMT_YUVJ420P || info.native_format == GJ_PIX_FMT_YUVJ422P ||
                        info.native_format == GJ_PIX_FMT_YUVJ444P || info.native_format == GJ_PIX_FMT_GRAY8
                            ? info.native_format : GJ_PIX_FMT_RGBA;
        frame->memory = gj_device_memory(dev);
        ret = gj_jpeg_decode(dec, data, size, frame);
        gj_jpeg_decoder_free(&dec);
        return ret;
    }
    if (!(m = input_find(data, size)))
        return cli_fail(GJ_ERROR_INVALIDDATA, "unknown file type (png, ppm, pgm, pam or jpg)");
    return m->read(data, size, frame);
}

static int run_dxt(const dxt_opts *o)
{
    gj_device *dev = NULL;
    gj_dxt_encoder *enc = NULL;
    gj_frame frame = { .format = GJ_PIX_FMT_NONE };
    gj_dxt_blocks blocks = { .memory = GJ_MEMORY_HOST };
    uint8_t *buf = NULL;
    size_t cap = 0, size;
    int ret;

    if (open_device(o, &dev) < 0)
        return CLI_EXIT_FAILURE;
    cli_set_subject(o->in);
    if ((ret = cli_read_file(o->in, &buf, &cap, &size)) < 0 || (ret = load_picture(dev, buf, size, &frame)) < 0 ||
        (ret = gj_dxt_encoder_create(&enc, dev)) < 0 ||
        (ret = gj_dxt_encode(enc, &frame, o->format, o->quality, &blocks)) < 0) {
        cli_report(o->in, ret);
    } else if ((ret = output_write_dds(o->out, &blocks)) < 0) {
        cli_error(o->out, "%s", output_error(ret));
    } else {
        cli_verbose("%s: %dx%d %s -> %s %s, %zu bytes", o->in, frame.width, frame.height,
                    gj_pixel_format_describe(frame.format)->name, gj_dxt_format_name(o->format),
                    gj_dxt_quality_name(o->quality), blocks.size);
    }
    cli_set_subject(NULL);
    gj_dxt_blocks_unref(&blocks);
    gj_frame_unref(&frame);
    gj_dxt_encoder_free(&enc);
    gj_device_free(&dev);
    free(buf);
    return ret < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

/* The decoded picture's format: the file format's first choice among what the blocks hold. */
static enum gj_pixel_format undxt_format(const output_module *m, enum gj_dxt_format format)
{
    enum gj_pixel_format natural = format == GJ_DXT_FORMAT_BC4 ? GJ_PIX_FMT_GRAY8
                                   : format == GJ_DXT_FORMAT_BC3 ? GJ_PIX_FMT_RGBA : GJ_PIX_FMT_RGB24;

    if (output_accepts(m, natural))
        return natural;
    return output_accepts(m, GJ_PIX_FMT_RGB24) ? GJ_PIX_FMT_RGB24 : GJ_PIX_FMT_RGBA;
}

static int run_undxt(const dxt_opts *o)
{
    const output_module *m = output_for_path(o->out);
    gj_device *dev = NULL;
    gj_dxt_decoder *dec = NULL;
    gj_dxt_blocks blocks = { .memory = GJ_MEMORY_HOST };
    gj_frame frame = { .memory = GJ_MEMORY_HOST };
    uint8_t *buf = NULL;
    size_t cap = 0, size, offset;
    int ret;

    if (!m || !m->write || (!output_accepts(m, GJ_PIX_FMT_RGB24) && !output_accepts(m, GJ_PIX_FMT_RGBA)))
        return cli_usage_error("undxt", "%s: unknown file type (png, ppm, pgm, pam)", o->out);
    if (open_device(o, &dev) < 0)
        return CLI_EXIT_FAILURE;
    cli_set_subject(o->in);
    if ((ret = cli_read_file(o->in, &buf, &cap, &size)) < 0 ||
        (ret = gj_dds_parse_header(buf, size, &blocks.format, &blocks.width, &blocks.height, &offset)) < 0 ||
        (ret = gj_dxt_decoder_create(&dec, dev)) < 0) {
        cli_report(o->in, ret);
    } else {
        blocks.data = buf + offset;
        blocks.size = size - offset;
        frame.format = undxt_format(m, blocks.format);
        if ((ret = gj_dxt_decode(dec, &blocks, &frame)) < 0)
            cli_report(o->in, ret);
        else if ((ret = output_write(m, o->out, &frame, NULL, 0)) < 0)
            cli_error(o->out, "%s", output_error(ret));
    }
    cli_set_subject(NULL);
    gj_frame_unref(&frame);
    gj_dxt_decoder_free(&dec);
    gj_device_free(&dev);
    free(buf);
    return ret < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

static int dxt_command(const char *command, int argc, char **argv)
{
    dxt_opts o = { .format = GJ_DXT_FORMAT_BC1, .quality = GJ_DXT_QUALITY_BALANCED };
    int ret = parse(command, argc, argv, &o);

    if (ret)
        return ret;
    if (o.help) {
        if (strcmp(command, "dxt"))
            print_undxt_help();
        else
            print_dxt_help();
        return CLI_EXIT_OK;
    }
    cli_log_init(o.log_level);
    return strcmp(command, "dxt") ? run_undxt(&o) : run_dxt(&o);
}

int cli_dxt_main(int argc, char **argv)
{
    return dxt_command("dxt", argc, argv);
}

int cli_undxt_main(int argc, char **argv)
{
    return dxt_command("undxt", argc, argv);
}
