/* Internal logging: routes messages through the callback set by gj_log_set_callback(). */
#ifndef GJ_LOG_H
#define GJ_LOG_H

#include "gpujpeg/common.h"

#if defined(__GNUC__)
#define GJ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GJ_PRINTF(a, b)
#endif

void gj_log(int level, const char *fmt, ...) GJ_PRINTF(2, 3);

/* Whether a message of this level goes anywhere: to skip building one that would not. */
int gj_log_wanted(int level);

/* Logs an error message and returns `code`, so error paths read `return gj_fail(...)`. */
int gj_fail(int code, const char *fmt, ...) GJ_PRINTF(2, 3);

/* Milliseconds on the monotonic clock, for the durations that log lines report. */
double gj_time_ms(void);

#endif /* GJ_LOG_H */
