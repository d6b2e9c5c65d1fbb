/* progress.c: the status line of a long run (see progress.h). */
#include "waves/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void wm_progress_begin(wm_progress *p, uint64_t cycle)
{
    p->tty = isatty(STDERR_FILENO) == 1;
    p->shown = false;
    p->countdown = WM_PROGRESS_STRIDE;
    p->start = p->last = now_seconds();
    p->last_cycle = cycle;
}

bool wm_progress_clock_due(wm_progress *p)
{
    const double now = now_seconds();
    if (now - p->start < WM_PROGRESS_AFTER) return false;
    return !p->shown || now - p->last >= WM_PROGRESS_EVERY;
}

void wm_progress_format(char *buf, unsigned size, uint64_t cycle, double cycles_per_s, const char *in_flight)
{
    const char *unit = "";
    double rate = cycles_per_s;
    if (rate >= 1e6) {
        rate /= 1e6;
        unit = " M";
    } else if (rate >= 1e3) {
        rate /= 1e3;
        unit = " k";
    }
    snprintf(buf, size, "cycle %llu, %.3g%s cycles/s, %s", (unsigned long long)cycle, rate, unit, in_flight);
}

void wm_progress_show(wm_progress *p, uint64_t cycle, const char *in_flight)
{
    const double now = now_seconds();
    const double rate = now > p->last ? (double)(cycle - p->last_cycle) / (now - p->last) : 0.0;
    char line[200];
    wm_progress_format(line, sizeof line, cycle, rate, in_flight);
    fprintf(stderr, "\r\033[Kwavemesh: %s", line);
    fflush(stderr);
    p->shown = true;
    p->last = now;
    p->last_cycle = cycle;
}

void wm_progress_end(wm_progress *p)
{
    if (!p->shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}
