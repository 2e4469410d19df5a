/* gpujpeg tool: the subcommands and what they share (messages, errors, file input). */
#ifndef GPUJPEG_TOOLS_CLI_H
#define GPUJPEG_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

enum cli_exit {
    CLI_EXIT_OK      = 0,
    CLI_EXIT_FAILURE = 1,   /* some input, output or device failed */
    CLI_EXIT_USAGE   = 2,   /* the command line is wrong */
};

/* Subcommands: argv[0] is the subcommand's name. They return the exit status. */
int cli_decode_main(int argc, char **argv);
int cli_info_main(int argc, char **argv);
int cli_dxt_main(int argc, char **argv);
int cli_undxt_main(int argc, char **argv);
int cli_encode_main(int argc, char **argv);

/*
 * Routes the library's messages: those at or below `level` (a GJ_LOG_* value)
 * are printed, prefixed with the current subject; errors are held back for
 * cli_report(), so that a failure reads as one line.
 */
void cli_log_init(int level);
/* The -v/-q options: GJ_LOG_WARNING, one level up per -v, GJ_LOG_ERROR with -q. */
int cli_log_level(int verbose, int quiet);

/* Names the file that messages are about from now on (NULL: none) and forgets any held error. */
void cli_set_subject(const char *name);
/* While set, library warnings are dropped: a repeated decode repeats the first one's. */
void cli_mute_warnings(int mute);
/* While set, every library message is dropped: pictures decoding at once on several
 * threads cannot be told apart (the caller decodes a failed one again alone). */
void cli_mute_library(int mute);
/* Holds a description of a failure for cli_report(), as the library's log does; returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Prints "gpujpeg: <name>: <reason>", the reason being the first error held since
 * cli_set_subject(), else gj_strerror(code). Returns code.
 */
int cli_report(const char *name, int code);
/* Prints "gpujpeg: <name>: <message>". */
void cli_error(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints a message when the log level is GJ_LOG_VERBOSE or more. */
void cli_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "gpujpeg: <message>" and where to find help; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* After getopt_long() (optstring starting with ':') returned ':' or '?': the usage error. */
int cli_option_error(const char *command, char **argv, int c);

/* Inputs are read whole; larger files are refused. */
#define CLI_MAX_FILE_SIZE ((size_t)1 << 30)
/*
 * Reads the file at path into *buf, growing *buf (of *capacity bytes, both
 * reused from call to call; free(*buf) at the end). Returns 0 or a negative code.
 */
int cli_read_file(const char *path, uint8_t **buf, size_t *capacity, size_t *size);

/* Whether a file's first bytes are a JPEG 2000 codestream's (SOC) or a JP2 file's (signature box). */
int cli_is_j2k(const uint8_t *data, size_t size);
/* Whether the file at path starts as cli_is_j2k() wants (its first 12 bytes only; 0 when unreadable). */
int cli_file_is_j2k(const char *path);

/* Monotonic time in seconds. */
double cli_now(void);

#endif /* GPUJPEG_TOOLS_CLI_H */
