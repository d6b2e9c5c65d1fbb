/* random_campaign.c: a campaign of random scenarios, in one process or
 * one process per scenario (see random_campaign.h). */
#include "regress/random_campaign.h"

#include "regress/campaign.h"
#include "regress/junit.h"
#include "regress/random_regress.h"
#include "regress/random_shrink.h"
#include "waves/interrupt.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

bool wm_random_run_scenario(const wm_random_campaign *c, const wm_random_scenario *rs, const char *name, FILE *out,
                            bool *interrupted, uint64_t *router_cycles)
{
    char text[WM_RANDOM_TEXT_MAX];
    wm_random_format(rs, text, sizeof text);
    wm_regress_report rep;
    wm_random_regress_run(rs, name, c->expected, c->got, &rep);
    *interrupted = rep.interrupted;
    *router_cycles = wm_random_router_cycles(rs, &rep);
    fprintf(out, "%s | %s --scenario %s%s\n", rep.line, c->command, text, c->extra_args);
    fputs(rep.detail, out);
    fflush(out);
    if (rep.passed || rep.interrupted || !c->shrink_runs) return rep.passed;
    wm_random_scenario small;
    wm_regress_report small_rep;
    wm_random_shrink_stats st;
    wm_random_shrink(rs, &rep, c->expected, c->got, c->shrink_runs, out, &small, &small_rep, &st);
    if (wm_interrupt_signal()) {
        *interrupted = true;
        fprintf(out, "  shrinking interrupted after %u steps\n", st.steps);
    }
    wm_random_format(&small, text, sizeof text);
    fprintf(out, "  smallest failing version (%u steps, %u runs): %s\n", st.steps, st.runs, small_rep.line);
    fprintf(out, "  reproduce: %s --scenario %s%s\n", c->command, text, c->extra_args);
    fflush(out);
    return false;
}

/* ------------------------------------------------------------ what a campaign covered */

typedef struct {
    uint64_t cores, lines, columns, single, big, offmesh, disabled, toggled, slowpop, long_msgs, len1;
    uint64_t patterns[4];
    unsigned max_w, max_h;
} coverage;

static void count(coverage *cv, const wm_random_scenario *s)
{
    if (s->w * s->h > cv->max_w * cv->max_h) {
        cv->max_w = s->w;
        cv->max_h = s->h;
    }
    if (s->w == 1 && s->h == 1) cv->single++;
    else if (s->w == 1) cv->columns++;
    else if (s->h == 1) cv->lines++;
    if (s->w >= 16 && s->h >= 16) cv->big++;
    if (s->cores) {
        cv->cores++;
        return;
    }
    cv->patterns[s->traffic.pattern]++;
    if (s->traffic.offmesh_fraction > 0) cv->offmesh++;
    if (s->ndisabled && s->on_at) cv->toggled++;
    else if (s->ndisabled) cv->disabled++;
    if (s->traffic.pop_interval > 1) cv->slowpop++;
    if (s->traffic.len > 56) cv->long_msgs++; /* the longest class: 57..WM_LEN_MAX + 1 wavelets */
    if (s->traffic.len == 1) cv->len1++;
}

static void print_summary(FILE *f, const wm_random_campaign *c, const wm_random_summary *s, const coverage *cv)
{
    char with[64], shard[64] = "", range[120], unfinished[80] = "";
    if (c->mpi && c->mpi->ops) snprintf(with, sizeof with, "%d ranks", c->mpi->size);
    else snprintf(with, sizeof with, "%u job%s", c->jobs, c->jobs == 1 ? "" : "s");
    if (c->shard_n) snprintf(shard, sizeof shard, ", shard %u/%u", c->shard_k, c->shard_n);
    if (c->indices)
        snprintf(range, sizeof range, "%.100s%s", c->indices_text, strlen(c->indices_text) > 100 ? "..." : "");
    else snprintf(range, sizeof range, "%" PRIu64 "..%" PRIu64, c->first, c->first + (c->count ? c->count - 1 : 0));
    if (s->lost || s->not_run)
        snprintf(unfinished, sizeof unfinished, ", %" PRIu64 " lost, %" PRIu64 " not run", s->lost, s->not_run);
    const double per_min = s->seconds > 0 ? 60.0 * (double)s->run / s->seconds : 0;
    fprintf(f,
            "random: %" PRIu64 " scenarios (seed %" PRIu64 ", scenarios %s%s): %" PRIu64 " passed, %" PRIu64
            " failed%s%s; %.1f s with %s, %.0f scenarios/min, %.2f M router-cycles/s per backend\n",
            wm_random_campaign_items(c), c->seed, range, shard, s->passed, s->failed, unfinished,
            s->interrupted ? " (interrupted)" : "", s->seconds, with, per_min,
            s->seconds > 0 ? (double)s->router_cycles / s->seconds / 1e6 : 0.0);
    fprintf(f,
            "random: covered %" PRIu64 " on the cores, %" PRIu64 " 1x1, %" PRIu64 " 1xN, %" PRIu64 " Nx1, %" PRIu64
            " of 16x16 or more (largest %ux%u); uniform %" PRIu64 ", transpose %" PRIu64 ", bitcomp %" PRIu64
            ", hotspot %" PRIu64 "; length 1: %" PRIu64 ", over 56: %" PRIu64 "; off-mesh headers %" PRIu64
            ", routers disabled %" PRIu64 ", toggled %" PRIu64 ", slow pops %" PRIu64 "\n",
            cv->cores, cv->single, cv->columns, cv->lines, cv->big, cv->max_w, cv->max_h, cv->patterns[0],
            cv->patterns[1], cv->patterns[2], cv->patterns[3], cv->len1, cv->long_msgs, cv->offmesh, cv->disabled,
            cv->toggled, cv->slowpop);
}

/* ------------------------------------------------------------ progress */

typedef struct {
    bool on, tty;
    double start, last;
    uint64_t last_done;
} progress;

static void show_progress(progress *p, const wm_random_campaign *c, const wm_random_summary *s, bool final)
{
    if (!p->on) return;
    const double t = now_seconds();
    /* on a terminal, a line redrawn every second; in a log, a line every
     * tenth of the campaign or every minute */
    const uint64_t tenth = c->count / 10 ? c->count / 10 : 1;
    if (!final && (p->tty ? t - p->last < 1.0 : s->run - p->last_done < tenth && t - p->last < 60.0)) return;
    if (final && !p->tty && s->run == p->last_done) return; /* the last line said it all */
    p->last = t;
    p->last_done = s->run;
    const double el = t - p->start, rate = el > 0 ? s->run / el : 0;
    const double eta = rate > 0 ? (double)(c->count - s->run) / rate : 0;
    fprintf(stderr, "%srandom: %" PRIu64 "/%" PRIu64 " scenarios, %" PRIu64 " failed, %.0f s, %.0f/min, %.0f s to go%s",
            p->tty ? "\r" : "", s->run, c->count, s->failed, el, 60 * rate, eta, p->tty && !final ? "   " : "\n");
    fflush(stderr);
}

/* ------------------------------------------------------------ the campaign */

uint64_t wm_random_campaign_items(const wm_random_campaign *c)
{
    if (c->indices) return c->indices->count;
    if (!c->shard_n) return c->count;
    return c->count > c->shard_k - 1 ? (c->count - (c->shard_k - 1) + c->shard_n - 1) / c->shard_n : 0;
}

uint64_t wm_random_campaign_index(const wm_random_campaign *c, uint64_t item)
{
    if (c->indices) return wm_index_list_at(c->indices, item);
    return c->first + (c->shard_n ? (c->shard_k - 1) + item * c->shard_n : item);
}

static uint64_t ledger_index(const void *ctx, uint64_t item)
{
    return wm_random_campaign_index(ctx, item);
}

/* The items lost or not run, and the command that runs exactly those. */
static void print_unfinished(FILE *f, const wm_random_campaign *c, const wm_random_summary *s)
{
    if (!s->lost && !s->not_run) return;
    const wm_ledger *l = s->ledger;
    char *lost = wm_ledger_list(l, 1u << WM_LEDGER_LOST, ledger_index, c);
    char *not_run = wm_ledger_list(l, 1u << WM_LEDGER_NOT_RUN, ledger_index, c);
    char *both = wm_ledger_list(l, 1u << WM_LEDGER_LOST | 1u << WM_LEDGER_NOT_RUN, ledger_index, c);
    fprintf(f,
            "random: %s%s%s%s%s; run them: %s --indices %s --seed %" PRIu64 " --max-side %u --max-core-side %u%s%s\n",
            *lost ? "lost: " : "", lost, *lost && *not_run ? "; " : "", *not_run ? "not run: " : "", not_run,
            c->command, both, c->seed, c->limits.max_side, c->limits.max_core_side,
            c->limits.pe < 0 ? "" : c->limits.pe ? " --pe core" : " --pe native", c->extra_args);
    free(lost);
    free(not_run);
    free(both);
}

void wm_random_campaign_summary(const wm_random_campaign *c, const wm_random_summary *s, FILE *f)
{
    coverage cv;
    memset(&cv, 0, sizeof cv);
    for (uint64_t i = 0; i < s->ledger->count; i++) {
        if (s->ledger->state[i] != WM_LEDGER_PASSED && s->ledger->state[i] != WM_LEDGER_FAILED) continue;
        wm_random_scenario rs;
        wm_random_generate(c->seed, wm_random_campaign_index(c, i), &c->limits, &rs);
        count(&cv, &rs);
    }
    print_summary(f, c, s, &cv);
    print_unfinished(f, c, s);
    /* under a launcher that is ending the job, rank 0 may be killed before
     * it exits: the summary must be out by then */
    fflush(f);
}

static void scenario_name(const wm_random_campaign *c, uint64_t index, char *buf, size_t size)
{
    snprintf(buf, size, "random-%" PRIu64 "-%" PRIu64, c->seed, index);
}

typedef struct {
    const wm_random_campaign *c;
    wm_random_summary *s;
    progress *p;
    wm_ledger *ledger;
} run_ctx;

static bool item_run(void *ctx, uint64_t item, FILE *out, bool *interrupted, uint64_t *router_cycles)
{
    const run_ctx *x = ctx;
    const uint64_t index = wm_random_campaign_index(x->c, item);
    wm_random_scenario rs;
    wm_random_generate(x->c->seed, index, &x->c->limits, &rs);
    char name[64];
    scenario_name(x->c, index, name, sizeof name);
    return wm_random_run_scenario(x->c, &rs, name, out, interrupted, router_cycles);
}

static void item_name(void *ctx, uint64_t item, char *buf, size_t size)
{
    const run_ctx *x = ctx;
    scenario_name(x->c, wm_random_campaign_index(x->c, item), buf, size);
}

static void item_done(void *ctx, uint64_t item, const wm_campaign_result *r)
{
    run_ctx *x = ctx;
    const wm_random_campaign *c = x->c;
    const wm_ledger_state state = wm_campaign_state(r);
    x->ledger->state[item] = (unsigned char)state;
    if (c->junit) {
        char name[64];
        item_name(ctx, item, name, sizeof name);
        wm_junit_add(c->junit, "random", name, r->text, NULL, r->seconds, state);
    }
    if (r->not_run) {
        x->s->not_run++;
        return;
    }
    fputs(r->text, c->out);
    fflush(c->out);
    if (!r->passed && c->failures && c->failures != c->out) {
        fputs(r->text, c->failures);
        fflush(c->failures);
    }
    /* a job being torn down may drop what standard output cannot take */
    if (!r->passed && wm_campaign_torn_down(c->mpi)) fputs(r->text, stderr);
    x->s->run++;
    x->s->router_cycles += r->router_cycles;
    if (r->lost) x->s->lost++;
    else if (r->passed) x->s->passed++;
    else x->s->failed++;
    if (r->interrupted) x->s->interrupted = true;
    show_progress(x->p, c, x->s, false);
}

int wm_random_campaign_run(const wm_random_campaign *c, wm_random_summary *s)
{
    memset(s, 0, sizeof *s);
    progress p = {c->progress, isatty(STDERR_FILENO) != 0, now_seconds(), now_seconds(), 0};
    wm_ledger ledger;
    if (!wm_ledger_init(&ledger, wm_random_campaign_items(c))) {
        fprintf(stderr, "wavemesh regress: out of memory for a ledger of %" PRIu64 " scenarios\n",
                wm_random_campaign_items(c));
        return 2;
    }
    s->ledger = &ledger;
    run_ctx x = {c, s, &p, &ledger};
    const wm_campaign camp = {wm_random_campaign_items(c), item_run, item_name, item_done, &x,
                              c->jobs, c->mpi, c->rank_timeout};
    const double start = now_seconds();
    bool reporter;
    const bool whole = wm_campaign_run(&camp, &reporter);
    if (!reporter) {
        wm_ledger_free(&ledger);
        return 0;
    }
    if (!whole) s->interrupted = true;
    s->seconds = now_seconds() - start;
    show_progress(&p, c, s, true);
    wm_random_campaign_summary(c, s, c->failures ? c->failures : c->out);
    if (c->failures && c->failures != c->out) wm_random_campaign_summary(c, s, c->out);
    if (wm_campaign_torn_down(c->mpi)) wm_random_campaign_summary(c, s, stderr);
    wm_ledger_free(&ledger);
    s->ledger = NULL;
    return s->failed || s->lost || s->not_run || s->interrupted ? 1 : 0;
}
