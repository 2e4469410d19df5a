/* Logging, error strings and version. */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <string.h>

#include "log.h"

static gj_log_callback log_callback;
static void *log_opaque;
static int log_level = GJ_LOG_WARNING;

void gj_log_set_callback(gj_log_callback cb, void *opaque)
{
    log_callback = cb;
    log_opaque = opaque;
}

void gj_log_set_level(int level)
{
    log_level = level;
}

int gj_log_get_level(void)
{
    return log_level;
}

int gj_log_wanted(int level)
{
    return log_callback || level <= log_level;
}

static void log_va(int level, const char *fmt, va_list ap)
{
    char line[1024];

    if (!gj_log_wanted(level))
        return;
    vsnprintf(line, sizeof(line), fmt, ap);
    if (log_callback) {
        log_callback(log_opaque, level, line);
        return;
    }
    fprintf(stderr, "gpujpeg: %s%s\n",
            level <= GJ_LOG_ERROR ? "error: " : level <= GJ_LOG_WARNING ? "warning: " : "",
            line);
}

void gj_log(int level, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_va(level, fmt, ap);
    va_end(ap);
}

int gj_fail(int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_va(GJ_LOG_ERROR, fmt, ap);
    va_end(ap);
    return code;
}

const char *gj_strerror(int code)
{
    switch (code) {
    case 0:                     return "success";
    case GJ_ERROR_INVALIDDATA:  return "invalid data found when processing input";
    case GJ_ERROR_UNSUPPORTED:  return "unsupported feature";
    case GJ_ERROR_EXTERNAL:     return "error in an external library (GPU driver)";
    case GJ_ERROR_BUG:          return "internal bug";
    case GJ_ERROR_NODEV:        return "no such device";
    default:
        if (code < 0 && code > -4096)
            return strerror(-code);
        return "unknown error";
    }
}

const char *gj_version(void)
{
#define GJ_STR2(x) #x
#define GJ_STR(x) GJ_STR2(x)
    return GJ_STR(GJ_VERSION_MAJOR) "." GJ_STR(GJ_VERSION_MINOR) "." GJ_STR(GJ_VERSION_MICRO);
}

double gj_time_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
