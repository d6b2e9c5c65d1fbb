/* random_campaign.h: N random scenarios of a seed, each on both backends.
 *
 * Scenario I of the campaign is wm_random_generate(seed, first + I): a
 * campaign can be cut into pieces by `first` and `count` and the pieces
 * run anywhere. With jobs > 1 every scenario runs in a process of its own,
 * up to `jobs` at a time; with jobs = 1 they run one after the other in
 * this one (what the tests use).
 *
 * Every scenario writes one line to `out`, PASS or FAIL, ending with the
 * command that runs it alone ("wavemesh regress --scenario TEXT", with the
 * campaign's extra arguments such as --perturb). A failing one is then
 * shrunk (random_shrink.h) and the smallest version's report and command
 * follow. Failures go to `failures` too when it is another stream. A
 * progress line goes to stderr when asked, and the summary to `failures`
 * (or `out`): scenarios passed and failed, the time, scenarios per minute,
 * and what the campaign covered (shapes, patterns, lengths, off-mesh
 * headers, disabled and toggled routers, slow pops, cores).
 */
#ifndef WM_RANDOM_CAMPAIGN_H
#define WM_RANDOM_CAMPAIGN_H

#include "regress/random_scenario.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t count, seed, first;
    unsigned jobs;                      /* processes at a time; 1: in this process */
    wm_random_limits limits;
    const wm_fabric_ops *expected, *got;
    const char *command;                /* "wavemesh regress": how each line's command starts */
    const char *extra_args;             /* appended to each command ("" or " --perturb ...") */
    unsigned shrink_runs;               /* versions a failure's shrinking may try; 0: no shrinking */
    FILE *out;                          /* every scenario's line */
    FILE *failures;                     /* failures and the summary; NULL: out */
    bool progress;                      /* a progress line on stderr */
} wm_random_campaign;

typedef struct {
    uint64_t run, passed, failed;
    bool interrupted;
    double seconds;
    uint64_t router_cycles; /* tiles x cycles of every expected run */
} wm_random_summary;

/* Runs the campaign; 0 when every scenario passed, 1 otherwise. */
int wm_random_campaign_run(const wm_random_campaign *c, wm_random_summary *sum);

/* One scenario: its line (and, failing, its shrinking) on out; true when
 * it passed. *router_cycles gets what the expected backend ran. */
bool wm_random_run_scenario(const wm_random_campaign *c, const wm_random_scenario *rs, const char *name, FILE *out,
                            bool *interrupted, uint64_t *router_cycles);

#endif
