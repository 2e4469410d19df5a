/*
 * gpujpeg info: without files, the backends, the devices and which one `auto`
 * picks; with files, what their headers say (no GPU work).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpujpeg/gpujpeg.h"
#include "cli.h"

static const struct option long_options[] = {
    { "verbose", no_argument, NULL, 'v' },
    { "quiet",   no_argument, NULL, 'q' },
    { "help",    no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void print_help(void)
{
    printf("Usage: gpujpeg info [options]\n"
           "       gpujpeg info [options] FILE.jpg...\n"
           "\n"
           "Without files: lists the backends built in, every device found and the one\n"
           "'--device auto' picks. With files: describes each JPEG's headers.\n"
           "\n"
           "Options:\n"
           "  -v, --verbose   more messages (twice: debug)\n"
           "  -q, --quiet     errors only\n"
           "  -h, --help      this text\n");
}

/* The --device value that selects d: explicit kinds count devices in list order. */
static void device_spec(char *spec, size_t size, const gj_device_desc *descs, int i)
{
    const gj_device_desc *d = &descs[i];
    int n = 0;

    for (int j = 0; j < i; j++)
        n += descs[j].backend == d->backend && descs[j].is_gpu == d->is_gpu;
    if (d->backend == GJ_BACKEND_CUDA)
        snprintf(spec, size, "cuda:%d", n);
    else
        snprintf(spec, size, "opencl-%s:%d", d->is_gpu ? "gpu" : "cpu", n);
}

static void print_devices(const gj_device_desc *descs, int n)
{
    char spec[32];

    if (n == 0)
        printf("devices:  none\n");
    else
        printf("devices:\n");
    for (int i = 0; i < n; i++) {
        device_spec(spec, sizeof(spec), descs, i);
        printf("  %-14s %-6s %s %7.1f GiB  %s  [%s]\n", spec,
               descs[i].backend == GJ_BACKEND_CUDA ? "CUDA" : "OpenCL",
               descs[i].is_gpu ? "GPU" : "CPU", descs[i].memory_bytes / (1024.0 * 1024 * 1024),
               descs[i].name, descs[i].platform);
    }
}

static int print_auto_choice(void)
{
    gj_device *dev;
    int ret;

    cli_set_subject(NULL);
    if ((ret = gj_device_create(&dev, GJ_DEVICE_AUTO, 0)) < 0) {
        printf("auto:     none\n");
        cli_report("device auto", ret);
        return CLI_EXIT_FAILURE;
    }
    printf("auto:     %s\n", gj_device_name(dev));
    gj_device_free(&dev);
    return CLI_EXIT_OK;
}

static int list_devices(void)
{
    gj_device_desc *descs = NULL;
    int n = gj_device_list(NULL, 0);

    printf("gpujpeg (libgpujpeg) %s\n", gj_version());
    printf("backends: CUDA %s, OpenCL %s\n",
           gj_backend_available(GJ_BACKEND_CUDA) ? "yes" : "no",
           gj_backend_available(GJ_BACKEND_OPENCL) ? "yes" : "no");
    if (n > 0 && !(descs = calloc(n, sizeof(*descs)))) {
        cli_report("devices", GJ_ERROR_NOMEM);
        return CLI_EXIT_FAILURE;
    }
    if (n > 0) {
        int filled = gj_device_list(descs, n);

        n = filled < n ? filled : n;
    }
    print_devices(descs, n);
    free(descs);
    return print_auto_choice();
}

static const char *color_space_name(enum gj_jpeg_color_space cs)
{
    switch (cs) {
    case GJ_JPEG_CS_GRAY:  return "gray";
    case GJ_JPEG_CS_YCBCR: return "YCbCr";
    case GJ_JPEG_CS_RGB:   return "RGB";
    case GJ_JPEG_CS_CMYK:  return "CMYK";
    case GJ_JPEG_CS_YCCK:  return "YCCK";
    }
    return "unknown";
}

/* "4:2:0" when every chroma component shares one whole-ratio subsampling of the first. */
static const char *subsampling_name(const gj_jpeg_info *info)
{
    static const struct { int h, v; const char *name; } names[] = {
        { 1, 1, "4:4:4" }, { 2, 1, "4:2:2" }, { 2, 2, "4:2:0" },
        { 1, 2, "4:4:0" }, { 4, 1, "4:1:1" }, { 4, 2, "4:1:0" },
    };
    const int *h = info->h_samp, *v = info->v_samp;

    if (info->num_components < 3 || h[0] % h[1] || v[0] % v[1])
        return NULL;
    for (int c = 2; c < info->num_components; c++)
        if (h[c] != h[1] || v[c] != v[1])
            return NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].h == h[0] / h[1] && names[i].v == v[0] / v[1])
            return names[i].name;
    return NULL;
}

static void print_sampling(const gj_jpeg_info *info)
{
    const char *name = subsampling_name(info);

    printf("  sampling:          %s%s(", name ? name : "", name ? " " : "");
    for (int c = 0; c < info->num_components; c++)
        printf("%s%dx%d", c ? "," : "", info->h_samp[c], info->v_samp[c]);
    printf(")\n");
}

static void print_info(const char *path, const gj_jpeg_info *info)
{
    printf("%s:\n", path);
    printf("  size:              %dx%d\n", info->width, info->height);
    printf("  components:        %d, %s\n", info->num_components,
           color_space_name(info->color_space));
    print_sampling(info);
    if (info->restart_interval)
        printf("  restart interval:  %d MCUs\n", info->restart_interval);
    else
        printf("  restart interval:  none\n");
    printf("  scans:             %d\n", info->num_scans);
    printf("  native format:     %s\n", gj_pixel_format_describe(info->native_format)->name);
}

/* The capabilities a SIZ marker's Rsiz names (T.800 A.5.1, Table A.10), those of Part 1. */
static const char *profile_name(int rsiz)
{
    switch (rsiz) {
    case 0: return "no restrictions";
    case 1: return "profile 0";
    case 2: return "profile 1";
    case 3: return "digital cinema 2K";
    case 4: return "digital cinema 4K";
    }
    return NULL;
}

/* T.800 Table I.10's enumerated colour spaces. */
static const char *colour_space_name(int enumcs)
{
    static char other[32];

    switch (enumcs) {
    case 16: return "sRGB";
    case 17: return "greyscale";
    case 18: return "sYCC";
    }
    snprintf(other, sizeof(other), "enumerated %u", (unsigned)enumcs);
    return other;
}

static void print_j2k_info(const char *path, const gj_j2k_info *info, const gj_j2k_palette *palette)
{
    const char *profile = profile_name(info->profile);

    printf("%s:\n", path);
    printf("  JPEG 2000:         %s\n", info->jp2 ? "JP2 file" : "codestream");
    if (profile)
        printf("  profile:           %d (%s)\n", info->profile, profile);
    else
        printf("  profile:           %d (0x%04x)\n", info->profile, info->profile);
    printf("  size:              %dx%d\n", info->width, info->height);
    printf("  components:        %d (", info->num_components);
    for (int c = 0; c < info->num_components && c < GJ_J2K_MAX_INFO_COMPONENTS; c++)
        printf("%s%d-bit%s %dx%d", c ? ", " : "", info->precision[c], info->is_signed[c] ? " signed" : "",
               info->dx[c], info->dy[c]);
    printf("%s)\n", info->num_components > GJ_J2K_MAX_INFO_COMPONENTS ? ", ..." : "");
    printf("  tiles:             %dx%d\n", info->tiles_x, info->tiles_y);
    printf("  transform:         %s, %d levels%s\n", info->reversible ? "5/3 (reversible)" : "9/7",
           info->levels, info->mct ? ", component transform" : "");
    printf("  layers:            %d\n", info->layers);
    printf("  native format:     %s\n", gj_pixel_format_describe(info->native_format)->name);
    if (info->sar_num)
        printf("  sample aspect:     %d:%d (JP2 res box)\n", info->sar_num, info->sar_den);
    if (info->icc_size)
        printf("  colour:            ICC profile, %zu bytes (JP2 colr box)\n", info->icc_size);
    else if (info->colour_space)
        printf("  colour:            %s (JP2 colr box)\n", colour_space_name(info->colour_space));
    if (palette->entries) {
        printf("  palette:           %d entries of %d columns (", palette->entries, palette->columns);
        for (int c = 0; c < palette->columns; c++)
            printf("%s%d", c ? ", " : "", palette->depth[c]);
        printf(" bits; JP2 pclr box)\n");
    }
}

static int describe_files(char **paths, int n)
{
    uint8_t *buf = NULL;
    size_t capacity = 0, size;
    gj_j2k_palette *palette = malloc(sizeof(*palette));
    int status = CLI_EXIT_OK;

    if (!palette) {
        cli_report(paths[0], GJ_ERROR_NOMEM);
        return CLI_EXIT_FAILURE;
    }

    for (int i = 0; i < n; i++) {
        gj_jpeg_info info;
        gj_j2k_info j2k;
        int ret, is_j2k = 0;

        cli_set_subject(paths[i]);
        if ((ret = cli_read_file(paths[i], &buf, &capacity, &size)) >= 0) {
            is_j2k = cli_is_j2k(buf, size);
            ret = is_j2k ? gj_j2k_read_info(buf, size, &j2k) : gj_jpeg_read_info(buf, size, &info);
            if (ret >= 0 && is_j2k)
                ret = gj_j2k_read_palette(buf, size, palette);
        }
        if (ret < 0) {
            cli_report(paths[i], ret);
            status = CLI_EXIT_FAILURE;
            continue;
        }
        if (is_j2k)
            print_j2k_info(paths[i], &j2k, palette);
        else
            print_info(paths[i], &info);
    }
    free(palette);
    free(buf);
    return status;
}

int cli_info_main(int argc, char **argv)
{
    int verbose = 0, quiet = 0, c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":vqh", long_options, NULL)) != -1) {
        switch (c) {
        case 'v': verbose++; break;
        case 'q': quiet = 1; break;
        case 'h': print_help(); return CLI_EXIT_OK;
        default:  return cli_option_error("info", argv, c);
        }
    }
    cli_log_init(cli_log_level(verbose, quiet));
    if (optind == argc)
        return list_devices();
    return describe_files(argv + optind, argc - optind);
}
