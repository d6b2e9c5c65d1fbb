/* random_shrink.h: the smallest random scenario that still fails.
 *
 * A failing scenario is shrunk greedily: from a list of smaller versions
 * of it (a smaller mesh, fewer cycles, fewer or shorter messages, fewer
 * disabled routers, no slow pops or off-mesh headers; for the cores fewer,
 * shorter, closer messages), the first one that still fails the same way
 * (a link divergence stays a link divergence, a result a result...)
 * replaces it, and the list is made again from there, until no smaller
 * version fails or the run budget is spent. Each version is a scenario of
 * its own text, so the last one is reproduced by its one command. */
#ifndef WM_RANDOM_SHRINK_H
#define WM_RANDOM_SHRINK_H

#include "regress/random_regress.h"

#include <stdio.h>

typedef struct {
    unsigned steps; /* smaller versions that still failed, taken */
    unsigned runs;  /* versions tried (each on both backends) */
} wm_random_shrink_stats;

/* Shrinks `failing`, whose report is `failed`, trying at most max_runs
 * versions; *smallest and *smallest_rep are the last version that failed
 * (failing itself if none did). Each step taken is told on `progress`
 * (when not NULL), as its scenario text. */
void wm_random_shrink(const wm_random_scenario *failing, const wm_regress_report *failed,
                      const wm_fabric_ops *expected, const wm_fabric_ops *got, unsigned max_runs, FILE *progress,
                      wm_random_scenario *smallest, wm_regress_report *smallest_rep, wm_random_shrink_stats *stats);

/* A report failed the same way as another: the same kind of failure. */
bool wm_random_same_failure(const wm_regress_report *a, const wm_regress_report *b);

#endif
