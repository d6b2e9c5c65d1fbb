/* random_campaign.h: N random scenarios of a seed, each on both backends.
 *
 * Scenario I of the campaign is wm_random_generate(seed, first + I): a
 * campaign can be cut into pieces by `first` and `count` and the pieces
 * run anywhere, or cut into N deterministic slices (shard K of N: scenarios
 * K-1, K-1+N, ...). With jobs > 1 every scenario runs in a process of its
 * own, up to `jobs` at a time; with jobs = 1 they run one after the other
 * in this one (what the tests use); on the ranks of an MPI job, as
 * campaign.h hands them out. Lines come in scenario order whichever way.
 *
 * Every scenario writes one line to `out`, PASS or FAIL, ending with the
 * command that runs it alone ("wavemesh regress --scenario TEXT", with the
 * campaign's extra arguments such as --perturb). A failing one is then
 * shrunk (random_shrink.h) and the smallest version's report and command
 * follow. Failures go to `failures` too when it is another stream. A
 * progress line goes to stderr when asked, and the summary to `failures`
 * (or `out`): scenarios passed, failed, lost and not run (ledger.h), the
 * time, scenarios per minute, and what the campaign covered (shapes,
 * patterns, lengths, off-mesh headers, disabled and toggled routers, slow
 * pops, cores); when some were lost or not run, their numbers and the
 * command that runs exactly those (--indices).
 */
#ifndef WM_RANDOM_CAMPAIGN_H
#define WM_RANDOM_CAMPAIGN_H

#include "regress/campaign.h"
#include "regress/junit.h"
#include "regress/ledger.h"
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
    unsigned shard_k, shard_n;          /* only scenarios first + K-1 + i*N (1 <= K <= N); N = 0: all */
    const wm_index_list *indices;       /* instead of first, count and shard: these scenarios, or NULL */
    const char *indices_text;           /* the list as given */
    wm_campaign_mpi *mpi;               /* the ranks of an MPI job, or NULL (campaign.h) */
    double rank_timeout;                /* MPI: the silence after which a rank is dead */
    wm_junit *junit;                    /* each scenario's case, or NULL */
} wm_random_campaign;

typedef struct {
    uint64_t run, passed, failed, lost, not_run; /* run: passed, failed or lost */
    bool interrupted;
    double seconds;
    uint64_t router_cycles; /* tiles x cycles of every expected run */
    const wm_ledger *ledger; /* every item's state */
} wm_random_summary;

/* The scenarios of the campaign's slice, and the seed's index of item i. */
uint64_t wm_random_campaign_items(const wm_random_campaign *c);
uint64_t wm_random_campaign_index(const wm_random_campaign *c, uint64_t item);
/* The summary lines on f: the counts, the coverage over the items that
 * passed or failed, and the items lost or not run with the command that
 * runs exactly those. */
void wm_random_campaign_summary(const wm_random_campaign *c, const wm_random_summary *s, FILE *f);

/* Runs the campaign (campaign.h: in this process, in jobs processes or on
 * the ranks of c->mpi); 0 when every scenario passed, 1 otherwise, 2 when
 * out of memory. A rank other than 0 prints nothing and returns 0. */
int wm_random_campaign_run(const wm_random_campaign *c, wm_random_summary *sum);

/* One scenario: its line (and, failing, its shrinking) on out; true when
 * it passed. *router_cycles gets what the expected backend ran. */
bool wm_random_run_scenario(const wm_random_campaign *c, const wm_random_scenario *rs, const char *name, FILE *out,
                            bool *interrupted, uint64_t *router_cycles);

#endif
