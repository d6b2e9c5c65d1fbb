/* progress.h: a status line on the terminal while a long run goes on.
 *
 * A run that lasts more than WM_PROGRESS_AFTER seconds redraws one line on
 * stderr twice a second: the cycles done, the cycles per second since the
 * last line, and what the loop says is in flight. Nothing at all when
 * stderr is not a terminal (a pipe, a file, CI), so logs and tests see no
 * difference; the line is erased when the run ends, before its results. A
 * cycle loop calls wm_progress_due every cycle: it reads the clock only
 * once every WM_PROGRESS_STRIDE calls. */
#ifndef WM_PROGRESS_H
#define WM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define WM_PROGRESS_AFTER 2.0  /* seconds before the first line */
#define WM_PROGRESS_EVERY 0.5  /* seconds between lines */
enum { WM_PROGRESS_STRIDE = 64 };

typedef struct {
    bool tty;             /* stderr is a terminal */
    bool shown;           /* a line is on the screen */
    uint32_t countdown;   /* calls until the clock is read */
    double start, last;   /* seconds (monotonic): the run's start, the last line */
    uint64_t last_cycle;  /* the cycle of the last line */
} wm_progress;

/* Starts the clock at `cycle`. */
void wm_progress_begin(wm_progress *p, uint64_t cycle);

/* The clock's half of wm_progress_due. */
bool wm_progress_clock_due(wm_progress *p);

/* True when a line is due; the caller then gathers what is in flight and
 * calls wm_progress_show. */
static inline bool wm_progress_due(wm_progress *p)
{
    if (!p->tty || --p->countdown) return false;
    p->countdown = WM_PROGRESS_STRIDE;
    return wm_progress_clock_due(p);
}

/* Draws "cycle N, R cycles/s, IN_FLIGHT" (in_flight: the loop's own words,
 * e.g. "12 messages in flight"). */
void wm_progress_show(wm_progress *p, uint64_t cycle, const char *in_flight);

/* Erases the line, if one was drawn. */
void wm_progress_end(wm_progress *p);

/* The line itself, for the tests: cycles done, cycles per second, what is
 * in flight. */
void wm_progress_format(char *buf, unsigned size, uint64_t cycle, double cycles_per_s, const char *in_flight);

#endif
