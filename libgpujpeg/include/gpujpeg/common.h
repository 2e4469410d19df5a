/*
 * libgpujpeg: errors, logging and version.
 *
 * Every call returns 0 on success or a negative error code. The codes have the
 * same values as FFmpeg's AVERROR_* so wrappers can pass them through unchanged.
 */
#ifndef GPUJPEG_COMMON_H
#define GPUJPEG_COMMON_H

#include <errno.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the exported functions; the library is built with hidden visibility. */
#if defined(__GNUC__)
#define GJ_API __attribute__((visibility("default")))
#else
#define GJ_API
#endif

#define GJ_VERSION_MAJOR 0
#define GJ_VERSION_MINOR 1
#define GJ_VERSION_MICRO 0

#define GJ_TAG(a, b, c, d) ((int)((unsigned)(a) | ((unsigned)(b) << 8) | \
                                  ((unsigned)(c) << 16) | ((unsigned)(d) << 24)))

/* errno-style codes are negated errno values, as AVERROR(e). */
#define GJ_ERROR(e)            (-(e))
#define GJ_ERROR_NOMEM         GJ_ERROR(ENOMEM)
#define GJ_ERROR_INVAL         GJ_ERROR(EINVAL)
#define GJ_ERROR_NODEV         GJ_ERROR(ENODEV)
#define GJ_ERROR_IO            GJ_ERROR(EIO)
/* Same values as AVERROR_INVALIDDATA, AVERROR_PATCHWELCOME, AVERROR_EXTERNAL, AVERROR_BUG. */
#define GJ_ERROR_INVALIDDATA   (-GJ_TAG('I', 'N', 'D', 'A'))
#define GJ_ERROR_UNSUPPORTED   (-GJ_TAG('P', 'A', 'W', 'E'))
#define GJ_ERROR_EXTERNAL      (-GJ_TAG('E', 'X', 'T', ' '))
#define GJ_ERROR_BUG           (-GJ_TAG('B', 'U', 'G', '!'))

/* Describes a code returned by any gj_ call. Never returns NULL. */
GJ_API const char *gj_strerror(int code);

/* Log levels, with the values of FFmpeg's AV_LOG_* levels. */
enum gj_log_level {
    GJ_LOG_QUIET   = -8,
    GJ_LOG_ERROR   = 16,
    GJ_LOG_WARNING = 24,
    GJ_LOG_INFO    = 32,
    GJ_LOG_VERBOSE = 40,
    GJ_LOG_DEBUG   = 48,
};

typedef void (*gj_log_callback)(void *opaque, int level, const char *message);

/*
 * Routes the library's messages (one line each, without the newline) to cb.
 * cb == NULL restores the default: messages at or below the log level go to stderr.
 * Global; set it before creating devices.
 */
GJ_API void gj_log_set_callback(gj_log_callback cb, void *opaque);
GJ_API void gj_log_set_level(int level);
GJ_API int gj_log_get_level(void);

/* "MAJOR.MINOR.MICRO" of the library actually loaded. */
GJ_API const char *gj_version(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_COMMON_H */
