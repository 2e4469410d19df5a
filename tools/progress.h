/* gpujpeg tool: a one-line progress bar on stderr, drawn only on a terminal. */
#ifndef GPUJPEG_TOOLS_PROGRESS_H
#define GPUJPEG_TOOLS_PROGRESS_H

typedef struct progress {
    int enabled;
    int total;
    double start;       /* cli_now() seconds */
    double last_draw;
} progress;

/* wanted: the caller's choice (not quiet, more than one decode); a pipe never gets a bar. */
void progress_start(progress *p, int total, int wanted);
/* Redraws with `done` finished, at most ten times a second. */
void progress_update(progress *p, int done);
/* Erases the bar. */
void progress_end(progress *p);
/* Erases the bar, if one is drawn, so that a message can take the line. */
void progress_interrupt(void);

#endif /* GPUJPEG_TOOLS_PROGRESS_H */
