/* exact.h: the exact results the host knows, and the exports that wrapped.
 *
 * A value is a 32-bit two's-complement word (docs/kernels.md, "Values are
 * words"): a kernel adds words and exports words, so a sum past
 * -2^31..2^31-1 wraps by a multiple of 2^32, as the wavelets that carry it
 * do. The host knows what some kernels compute, from their layout alone,
 * and computes it exactly, in 64 bits: the scans of the tree collectives
 * and the chain (leaves l0..l{P-1} with a VAL parameter: each leaf's excl
 * and incl, every total) and the all-reduce (each PE's sum and total, over
 * the tree its CHILDREN and C*X/C*Y parameters draw). Where an exact result
 * does not fit the word its export holds, the export wrapped: `run` says
 * so and fails, `rows` fails the row unless an `expect` line states the
 * wrapped word on purpose. */
#ifndef WM_EXACT_H
#define WM_EXACT_H

#include "run/layout.h"
#include "run/scheduler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The word a value holds: v modulo 2^32, as a two's-complement int32. */
int64_t wm_word(int64_t v);
/* Does v fit a word unchanged (-2^31..2^31-1)? */
bool wm_word_fits(int64_t v);

/* The scans' reference loop over the leaves' values: excl, incl, n each;
 * *total the sum. Exact: 64-bit sums, not words. */
void wm_scan_reference(const int64_t *values, size_t n, int64_t *excl, int64_t *incl, int64_t *total);

typedef struct {
    const char *instance; /* the layout's name */
    const char *name;     /* the export */
    int64_t exact;
} wm_exact_value;

typedef struct wm_exact wm_exact;

/* The exact results of every kernel of l whose reference the host has
 * (none: an empty list). */
wm_exact *wm_exact_create(const wm_layout *l);
void wm_exact_destroy(wm_exact *x);
size_t wm_exact_count(const wm_exact *x);
const wm_exact_value *wm_exact_at(const wm_exact *x, size_t i);
/* instance.name's exact value, or NULL when the host has none. */
const wm_exact_value *wm_exact_find(const wm_exact *x, const char *instance, const char *name);

/* Called for each wrapped export; true excuses it (rows: an `expect` line
 * states the wrapped word). */
typedef bool (*wm_wrap_excuse)(void *ctx, const char *instance, const char *name, int64_t word);

/* One line to out for each export of the finished run s whose exact value
 * does not fit its word: `PREFIXINSTANCE.EXPORT wrapped: its exact value
 * V does not fit a 32-bit word (-2147483648..2147483647); the word holds W,
 * the exact value minus K*2^32`. Returns how many, those excused not counted (nor
 * printed). excuse may be NULL. */
size_t wm_exact_report_wraps(const wm_exact *x, const wm_sched *s, const char *prefix, wm_wrap_excuse excuse,
                             void *ctx, FILE *out);

#endif
