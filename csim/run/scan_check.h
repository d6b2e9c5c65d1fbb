/* scan_check.h: the independent reference for the collectives' results.
 *
 * The leaves are the instances l0..l{P-1} with a VAL parameter; the
 * reference is a plain loop over their values, exact in 64 bits: leaf i's
 * excl is the sum of the values before it, incl adds its own, and every
 * instance that exports total (the root, the chain's last PE) must hold
 * the sum of all. A run's exports are 32-bit words (run/exact.h), so the
 * check compares each with the word of its exact value; whether an exact
 * value fits its word is run/exact.h's question. A layout with a root must
 * export root.total. */
#ifndef WM_SCAN_CHECK_H
#define WM_SCAN_CHECK_H

#include "run/exact.h"
#include "run/layout.h"
#include "run/scheduler.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The reference loop itself, wm_scan_reference, is run/exact.h's. */

/* Compares a finished run with the reference; prints one line per wrong or
 * missing value to report (may be NULL) and returns how many there were
 * (a layout without leaves counts as one). */
size_t wm_scan_check(const wm_layout *l, const wm_sched *s, FILE *report);

#endif
