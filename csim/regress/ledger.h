/* ledger.h: a campaign's ledger, the state every item of it ends in, and
 * the lists of scenario numbers it is read and written as.
 *
 * Every item of a campaign ends in exactly one state: passed, failed, lost
 * (its process or rank died with it in hand, or before it reported it) or
 * not run (the campaign was stopped first). The summary, the scenario lines
 * and the JUnit file are written from it, and the items lost or not run
 * are printed as a list that `regress --indices` takes back, so that a
 * campaign cut short is finished by running exactly those.
 *
 * A list is numbers and ranges separated by commas, ascending, none twice:
 * "3,17-20,40-100:4" (A-B:S is every S-th number from A to B). */
#ifndef WM_LEDGER_H
#define WM_LEDGER_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WM_LEDGER_NOT_RUN,
    WM_LEDGER_PASSED,
    WM_LEDGER_FAILED,
    WM_LEDGER_LOST,
    WM_LEDGER_STATES /* how many */
} wm_ledger_state;

typedef struct {
    uint64_t count;       /* items 0..count-1 */
    unsigned char *state; /* wm_ledger_state by item; every item not run at first */
} wm_ledger;

/* A ledger of count items, all not run; false when out of memory. */
WM_MUST_USE bool wm_ledger_init(wm_ledger *l, uint64_t count);
void wm_ledger_free(wm_ledger *l);
/* How many items are in state s. */
uint64_t wm_ledger_count(const wm_ledger *l, wm_ledger_state s);
/* The numbers of the items whose state is in mask (bit 1 << state), each
 * item's number index(ctx, item), as a list (a new string; "" when none). */
char *wm_ledger_list(const wm_ledger *l, unsigned mask, uint64_t (*index)(const void *ctx, uint64_t item),
                     const void *ctx);

/* A list of numbers as --indices gives it. */
typedef struct {
    uint64_t from, to, step;
} wm_index_range;

typedef struct {
    wm_index_range *range;
    uint64_t *before; /* how many numbers the ranges before range k hold */
    size_t n;
    uint64_t count;   /* how many numbers in all */
} wm_index_list;

/* Parses a list; false with the reason (and where) in err. The numbers
 * are at most max. */
WM_MUST_USE bool wm_index_list_parse(const char *text, uint64_t max, wm_index_list *l, char *err, size_t err_size);
/* The list's number i (0 <= i < count), in ascending order. */
uint64_t wm_index_list_at(const wm_index_list *l, uint64_t i);
void wm_index_list_free(wm_index_list *l);

#endif
