/* regress.h: lockstep regression of one backend against another.
 *
 * A scenario drives one fabric through the ops table, cycle by cycle, and
 * may return result words (counters, timestamps, status bits). The runner
 * runs it on the expected backend (rtl) and on the backend under test (sw),
 * records both link-event traces (trace.h), and passes the scenario when
 * every wavelet stood in the same output register at the same cycle and
 * every result word is equal. Otherwise it reports the first divergence:
 * cycle, tile, port, the expected and the observed wavelet, or the first
 * result word that differs.
 *
 * A scenario with `cores` runs on fabrics of tiles with PE cores
 * (create_cores) and compares, besides the link events, every core's
 * eventful cycles (each retired instruction's PC and word, its register
 * write, its pushes and pops, at the same cycle); a divergence names the
 * PC and instruction the cores of the divergent tile retired last.
 *
 * Adding a scenario (a firmware one, say):
 *   1. In your own file, write a function of type wm_regress_fn. It gets a
 *      fresh fabric at cycle 0 with the trace hook already set (do not set
 *      another hook), drives it only through ops, and records whatever
 *      should agree with wm_regress_result / wm_regress_result_pe;
 *      wm_regress_fabric_state records every PE's port and the wavelets
 *      in flight, a good last step. It must be deterministic: the same
 *      inputs on the same backend give the same run. It returns false,
 *      after a message on stderr, only when it could not run at all.
 *   2. Declare it in your header and append one line to wm_regress_corpus
 *      in csim/regress/regress_corpus.c:
 *      {name, w, h, function, argument, quick, cores, WM_REGRESS_CAP(cycles)}
 *      with the cycles a correct run takes (the PASS line prints them).
 *      Keep the `quick` ones short: `make test` runs them on the rtl
 *      backend, at about 2-5 M router-cycles per second.
 *
 * A scenario ends early, as its own failure, when its fabric reaches the
 * scenario's cycle cap (a broken fabric can keep firmware waiting for
 * ever), when an RTL assertion fails (the rtl backend reports it instead
 * of aborting the process, fabric_rtl.h), or on SIGINT/SIGTERM; the
 * runner then goes on with the next scenario (or, after a signal, stops).
 * The scenario function is abandoned where it stands (longjmp out of its
 * step), so what it allocated is not given back: the price of a failure.
 */
#ifndef WM_REGRESS_H
#define WM_REGRESS_H

#include "fabric/fabric.h"
#include "fabric/trace.h"
#include "run/scheduler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wm_regress_results wm_regress_results;

/* Record a named result word (name: a string that outlives the run). */
void wm_regress_result(wm_regress_results *r, const char *name, uint64_t value);
/* The same, for PE (x, y). */
void wm_regress_result_pe(wm_regress_results *r, const char *name, unsigned x, unsigned y, uint64_t value);
/* Every PE's port (status, counts, RX head, err_hdr, tsc), quiescence and
 * the places of the wavelets in flight. */
void wm_regress_fabric_state(const wm_fabric_ops *ops, const wm_fabric *f, unsigned w, unsigned h,
                             wm_regress_results *r);

/* The verdict on a scheduler's run (run/ending.h): how it ended is a
 * result word, and unless it ended as expected (WM_END_RETURNED for a
 * scenario that must simply work) the scenario fails even when both
 * backends agree, with the report `run` prints (wm_sched_ending). Call it
 * after the run, once; it lets messages still on their way land. */
void wm_regress_judge(wm_regress_results *r, const wm_sched *s, wm_run_result res, wm_ending expected);

/* A property of the run that does not hold (why: what broke, as a
 * phrase): the scenario fails even when both backends agree, after any
 * divergence, with "both backends agree, but WHY". The first one counts. */
void wm_regress_fault(wm_regress_results *r, const char *why);

typedef bool (*wm_regress_fn)(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                              wm_regress_results *out);

typedef struct {
    const char *name;
    unsigned w, h;
    wm_regress_fn run;
    const void *arg;  /* handed to run as is */
    bool quick;       /* part of `wavemesh regress --quick` and `make test` */
    bool cores;       /* tiles with PE cores (run gets a fabric from create_cores) */
    uint64_t cap;     /* the cycles either backend may run it: WM_REGRESS_CAP(a correct run's) */
} wm_regress_scenario;

/* The cap of a scenario whose correct run takes `cycles`: proportional to
 * its work, with room for a slower but still correct change (a new cost
 * model has made runs three times longer). */
#define WM_REGRESS_CAP(cycles) (10 * (uint64_t)(cycles) + 10000)

/* The corpus, terminated by an entry with a NULL name (regress_corpus.c). */
extern const wm_regress_scenario wm_regress_corpus[];
/* The scenario called name, or NULL. */
const wm_regress_scenario *wm_regress_find(const char *name);

typedef struct {
    bool passed;
    bool could_not_run;      /* a backend failed to create or run it */
    bool diverged;           /* the link traces differ at `first` */
    wm_divergence first;
    bool core_diverged;      /* link traces agree, the cores' do not */
    bool result_differs;     /* traces agree, a result word does not */
    bool capped;             /* a backend reached the scenario's cycle cap */
    bool asserted;           /* an RTL assertion failed */
    bool interrupted;        /* SIGINT or SIGTERM: the regression should stop */
    bool run_failed;         /* both backends agree, but the run did not end as it should (wm_regress_judge) */
    uint64_t cycles;         /* of the expected run */
    uint64_t events;         /* link events of the expected run */
    char line[900];          /* the report line, "PASS name ..." or "FAIL name ..." */
    char detail[4096];       /* after a FAIL line, the lines that explain it ("" if none): with
                                run_failed, the run's report, each line indented */
} wm_regress_report;

/* Runs s on both backends and compares; the report says how it went. */
void wm_regress_run(const wm_regress_scenario *s, const wm_fabric_ops *expected, const wm_fabric_ops *got,
                    wm_regress_report *rep);

#endif
