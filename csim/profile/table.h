/* table.h: a profile (profile.h) as text and as CSV.
 *
 * Text: per PE a table of its cycles by function, one column per kind
 * (exec, stall TX, stall RX, start-up) and their total, the functions by
 * total, most first; its total row adds up to the PE's end - start. Then
 * the same over the run, the messages, and the critical path, one line a
 * segment, closing with the line a script checks:
 *
 *   critical path: N cycles in K segments; the run's last event at cycle M
 *
 * CSV: one row per PE and function, then one per function over the run
 * (pe `all`), with a header row. */
#ifndef WM_PROFILE_TABLE_H
#define WM_PROFILE_TABLE_H

#include "profile/profile.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The cycles of PE pe (or of every PE, pe == p->npes) by function and
 * kind: cycles[func * WM_PROF_NKINDS + kind], p->nfuncs * WM_PROF_NKINDS
 * of them, zeroed first. */
void wm_profile_tally(const wm_profile *p, size_t pe, uint64_t *cycles);

/* More PEs than this get a summary instead of a table each. */
enum { WM_PROFILE_TABLES_MAX = 256 };

/* The tables (past WM_PROFILE_TABLES_MAX PEs, a summary: the busiest and
 * idlest PEs by cycles executing, and a histogram over the PEs of the
 * share of their span in each kind), the run's table and the messages. */
void wm_profile_print_tables(const wm_profile *p, FILE *out);
/* The critical path and its summary line. */
void wm_profile_print_path(const wm_profile *p, FILE *out);
/* The sum of the path's segments. */
uint64_t wm_profile_path_cycles(const wm_profile *p);

/* A 64-bit digest (FNV-1a) of the text of the tables and the path: two
 * runs with the same digest printed the same profile. */
uint64_t wm_profile_digest(const wm_profile *p);

/* The CSV; false with the reason in err when writing fails. */
WM_MUST_USE bool wm_profile_write_csv(const wm_profile *p, FILE *out, char *err, size_t err_size);

#endif
