/*
 * gpujpeg: command-line front end of libgpujpeg.
 *
 * main() dispatches to a subcommand (cli_decode.c, cli_info.c); this file also
 * holds what the subcommands share: message routing and file input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gpujpeg/gpujpeg.h"
#include "cli.h"
#include "progress.h"

static const struct {
    const char *name;
    int (*main)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "decode", cli_decode_main, "decode JPEG and JPEG 2000 files on the GPU" },
    { "encode", cli_encode_main, "encode pictures into JPEG files on the GPU" },
    { "info",   cli_info_main,   "list the GPU devices, or describe JPEG and JPEG 2000 files" },
    { "dxt",    cli_dxt_main,    "compress a picture into DXT/BCn blocks (a DDS file)" },
    { "undxt",  cli_undxt_main,  "decode a DDS file's DXT/BCn blocks" },
};

static int log_level = GJ_LOG_WARNING;
static const char *subject;
static int warnings_muted;
static int library_muted;
/* The first error of the current subject: the cause, where later ones are consequences. */
static char held_error[1024];

static void print_message(const char *name, const char *label, const char *fmt, va_list ap)
{
    /* Keeps the order of results and messages when both go to one file. */
    fflush(stdout);
    progress_interrupt();
    fputs("gpujpeg: ", stderr);
    if (name)
        fprintf(stderr, "%s: ", name);
    fputs(label, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void print_line(const char *name, const char *label, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    print_message(name, label, fmt, ap);
    va_end(ap);
}

static void log_callback(void *opaque, int level, const char *message)
{
    (void)opaque;
    if (library_muted)
        return;
    if (level <= GJ_LOG_ERROR && !held_error[0])
        snprintf(held_error, sizeof(held_error), "%s", message);
    /* Errors reach the user through cli_report(); -v shows each as it happens too. */
    if (level > log_level || (level <= GJ_LOG_ERROR && log_level < GJ_LOG_VERBOSE) ||
        (level > GJ_LOG_ERROR && warnings_muted))
        return;
    print_line(subject, level <= GJ_LOG_ERROR ? "error: " :
                        level <= GJ_LOG_WARNING ? "warning: " : "", "%s", message);
}

void cli_log_init(int level)
{
    log_level = level;
    gj_log_set_level(level);
    gj_log_set_callback(log_callback, NULL);
}

int cli_log_level(int verbose, int quiet)
{
    static const int levels[] = { GJ_LOG_WARNING, GJ_LOG_VERBOSE, GJ_LOG_DEBUG };

    if (quiet)
        return GJ_LOG_ERROR;
    return levels[verbose < 2 ? verbose : 2];
}

void cli_mute_warnings(int mute)
{
    warnings_muted = mute;
}

void cli_mute_library(int mute)
{
    library_muted = mute;
}

void cli_set_subject(const char *name)
{
    subject = name;
    held_error[0] = '\0';
}

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;

    if (held_error[0])
        return code;
    va_start(ap, fmt);
    vsnprintf(held_error, sizeof(held_error), fmt, ap);
    va_end(ap);
    return code;
}

int cli_report(const char *name, int code)
{
    print_line(name, "", "%s", held_error[0] ? held_error : gj_strerror(code));
    held_error[0] = '\0';
    return code;
}

void cli_error(const char *name, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    print_message(name, "", fmt, ap);
    va_end(ap);
}

void cli_verbose(const char *fmt, ...)
{
    va_list ap;

    if (log_level < GJ_LOG_VERBOSE)
        return;
    va_start(ap, fmt);
    print_message(NULL, "", fmt, ap);
    va_end(ap);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    print_message(NULL, "", fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'gpujpeg%s%s --help'.\n", command ? " " : "", command ? command : "");
    return CLI_EXIT_USAGE;
}

int cli_option_error(const char *command, char **argv, int c)
{
    const char *arg = argv[optind - 1];

    if (c == ':')
        return cli_usage_error(command, "option '%s' needs an argument", arg);
    /* A long option is quoted as written; optopt is set only when it exists but took "=value". */
    if (arg[0] == '-' && arg[1] == '-' && optopt)
        return cli_usage_error(command, "option '%.*s' takes no argument",
                               (int)strcspn(arg, "="), arg);
    if (arg[0] == '-' && arg[1] == '-')
        return cli_usage_error(command, "unknown option '%s'", arg);
    return cli_usage_error(command, "unknown option '-%c'", optopt);
}

static int grow(uint8_t **buf, size_t *capacity, size_t want)
{
    uint8_t *p;

    if (want <= *capacity)
        return 0;
    p = realloc(*buf, want);
    if (!p)
        return GJ_ERROR_NOMEM;
    *buf = p;
    *capacity = want;
    return 0;
}

static int too_large(void)
{
    return cli_fail(GJ_ERROR(EFBIG), "larger than the 1 GiB limit for an input");
}

/* Reads to EOF, growing the buffer; a regular file's size makes it one fread. */
static int read_stream(FILE *f, size_t size_hint, uint8_t **buf, size_t *capacity, size_t *size)
{
    size_t len = 0;
    /* One byte more than the size, so that the read that fills it meets EOF. */
    int ret = grow(buf, capacity, size_hint ? size_hint + 1 : 65536);

    while (ret >= 0) {
        errno = 0;
        len += fread(*buf + len, 1, *capacity - len, f);
        if (ferror(f))
            return GJ_ERROR(errno ? errno : EIO);
        if (len > CLI_MAX_FILE_SIZE)
            return too_large();
        if (len < *capacity)
            break;
        ret = grow(buf, capacity, *capacity < CLI_MAX_FILE_SIZE / 2 ? *capacity * 2
                                                                   : CLI_MAX_FILE_SIZE + 1);
    }
    *size = len;
    return ret;
}

int cli_read_file(const char *path, uint8_t **buf, size_t *capacity, size_t *size)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    size_t hint = 0;
    int ret;

    if (!f)
        return GJ_ERROR(errno);
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((unsigned long long)st.st_size > CLI_MAX_FILE_SIZE) {
            fclose(f);
            return too_large();
        }
        hint = st.st_size;
    }
    ret = read_stream(f, hint, buf, capacity, size);
    fclose(f);
    return ret;
}

int cli_is_j2k(const uint8_t *p, size_t size)
{
    static const uint8_t jp2[12] = { 0, 0, 0, 12, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A };

    return (size >= 2 && p[0] == 0xFF && p[1] == 0x4F) || (size >= 12 && !memcmp(p, jp2, 12));
}

int cli_file_is_j2k(const char *path)
{
    uint8_t head[12];
    FILE *f = fopen(path, "rb");
    size_t n;

    if (!f)
        return 0;
    n = fread(head, 1, sizeof(head), f);
    fclose(f);
    return cli_is_j2k(head, n);
}

double cli_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void print_help(void)
{
    printf("Usage: gpujpeg <command> [options] [files]\n"
           "       gpujpeg --help | --version\n"
           "\n"
           "Commands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        printf("  %-8s %s\n", commands[i].name, commands[i].summary);
    printf("\n"
           "'gpujpeg <command> --help' lists a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(NULL, "no command given");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_help();
        return CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("gpujpeg (libgpujpeg) %s\n", gj_version());
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].main(argc - 1, argv + 1);
    return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
}
