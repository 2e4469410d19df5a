/* gpujpeg tool: progress bar. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

#define BAR_WIDTH 30

/* stderr is one line for the whole process, so whether a bar occupies it is global. */
static int bar_drawn;

void progress_start(progress *p, int total, int wanted)
{
    p->enabled = wanted && isatty(STDERR_FILENO);
    p->total = total;
    p->start = cli_now();
    p->last_draw = 0;
}

void progress_update(progress *p, int done)
{
    char bar[BAR_WIDTH + 1];
    double now = cli_now();
    int filled;

    if (!p->enabled || now - p->last_draw < 0.1)
        return;
    filled = p->total > 0 ? (int)((long long)done * BAR_WIDTH / p->total) : 0;
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    fprintf(stderr, "\r[%s] %d/%d  %.0f img/s\033[K", bar, done, p->total,
            now > p->start ? done / (now - p->start) : 0.0);
    bar_drawn = 1;
    p->last_draw = now;
}

void progress_end(progress *p)
{
    if (p->enabled)
        progress_interrupt();
}

void progress_interrupt(void)
{
    if (!bar_drawn)
        return;
    fputs("\r\033[K", stderr);
    bar_drawn = 0;
}
