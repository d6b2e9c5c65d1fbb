/* cmd_regress.c: `wavemesh regress`, the lockstep regression of the sw
 * backend against the rtl backend over the scenario corpus, or over one
 * layout of the user's. */
#include "cli/commands.h"
#include "core/datadir.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "regress/campaign.h"
#include "regress/junit.h"
#include "regress/layout_regress.h"
#include "regress/ledger.h"
#include "regress/random_campaign.h"
#include "regress/regress.h"
#include "run/scheduler.h"
#include "waves/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char about[] =
    "Runs every scenario of the corpus on the expected backend (default rtl)\n"
    "and on the backend under test (default sw), and compares the link-event\n"
    "traces (every wavelet in every output register at every cycle) and the\n"
    "results. One line per scenario; on a mismatch, the first divergence:\n"
    "cycle, tile, port, the expected and the observed wavelet. Ends with\n"
    "'N passed, M failed' and exits non-zero on any failure. Scenarios named\n"
    "core-* run firmware on the PE cores (docs/core.md) and compare every core's\n"
    "retired instructions, register writes, pushes and pops too; a divergence\n"
    "there, or on the links, names the PC and instruction the tile's core\n"
    "retired last on each side.\n"
    "A scenario in which an RTL assertion fails, or that runs past its cycle cap\n"
    "(10 x a correct run's cycles, + 10000) on either backend, is reported FAIL with\n"
    "the cycle, and the next one runs; SIGINT or SIGTERM ends the regression after\n"
    "a FAIL line for the scenario it stopped.\n"
    "With LAYOUT, that layout (with its --set overrides) is the one scenario, run\n"
    "in each PE mode given (default both, native then core) and compared the same\n"
    "way: link events, cycles, every PE's state and exports, the cores' retired\n"
    "instructions, the fabric's final state. --max-cycles bounds each run; a run\n"
    "that reaches it on both backends alike still agrees; several LAYOUTs are a\n"
    "campaign of them. Agreement is not enough: a scenario whose run ends in a\n"
    "deadlock, a stall, a firmware fault, the cycle limit or with a message left\n"
    "unread FAILs even when both backends agree, with the report `run` prints\n"
    "under its line, unless its layout says it is meant to end that way\n"
    "(`expect deadlock`, docs/layouts.md).\n"
    "Started by mpirun or srun (more than one rank), a campaign (the corpus,\n"
    "--random, LAYOUTs) spreads over the ranks: rank 0 hands out scenarios as\n"
    "ranks finish and prints the lines in scenario order and the one summary\n"
    "(docs/verification.md, \"Campaigns on MPI\"). With --merge, the LAYOUTs are\n"
    "the --junit files of a campaign's shards, and their lines and summary are\n"
    "printed as the whole campaign's.\n";

/* --perturb SPEC: the sw model made deliberately wrong (fabric_sw.h), and
 * the text, which the random campaign's commands repeat. */
typedef struct {
    wm_sw_perturbation p;
    const char *text;
} perturb_option;

static bool perturbation_parse(const char *text, void *to)
{
    perturb_option *o = to;
    char err[200];
    o->text = text;
    return wm_sw_perturbation_parse(text, &o->p, err, sizeof err);
}

/* --indices LIST: the seed's scenarios a campaign runs, and the text. */
typedef struct {
    wm_index_list list;
    const char *text;
} indices_option;

static bool indices_parse(const char *text, void *to)
{
    indices_option *o = to;
    char err[300];
    wm_index_list_free(&o->list);
    o->text = text;
    return wm_index_list_parse(text, UINT64_MAX / 2, &o->list, err, sizeof err);
}

/* The options of a random campaign (--random, --indices or --scenario). */
typedef struct {
    unsigned long long random, seed, first, jobs, max_side, max_core_side, shrink_runs;
    bool have_random, progress, have_max_core_side;
    const char *scenario, *log, *perturb, *indices;
    const wm_index_list *index_list; /* --indices parsed */
    unsigned long long max_line_side; /* 0: --max-side */
} random_options;

/* What every kind of campaign shares: how it is spread and reported. */
typedef struct {
    unsigned jobs;
    const char *junit;
    unsigned shard_k, shard_n;
    double rank_timeout;
    wm_campaign_mpi mpi;
    char extra[300]; /* the options each reproducing command repeats */
    /* what changes the results, written in the JUnit file for --merge */
    const char *pe, *perturb, *expected, *got, *only;
    bool quick;
} campaign_options;

static int run_random(const random_options *o, int cores_only, campaign_options *co, const wm_fabric_ops *expected,
                      const wm_fabric_ops *got);

/* --shard K/N */
static bool shard_parse(const char *text, void *to)
{
    campaign_options *co = to;
    unsigned k, n;
    char end;
    if (sscanf(text, "%u/%u%c", &k, &n, &end) != 2 || strchr(text, '+') || strchr(text, '-') ||
        strchr(text, ' '))
        return false;
    if (k < 1 || n < 1 || n > 1000000 || k > n) return false;
    co->shard_k = k;
    co->shard_n = n;
    return true;
}

/* ------------------------------------------------------------ corpus and layouts as campaigns */

typedef struct {
    const wm_regress_scenario **corpus; /* the corpus scenarios, or */
    const char **layouts;               /* the layouts, each in modes[] */
    int modes[2];
    size_t nmodes;
    const wm_setting *settings;
    size_t nsettings;
    unsigned long long max_cycles;
    unsigned long long jitter;          /* the runs' schedule seed, 0: none */
    size_t count;                       /* of the whole campaign */
    campaign_options *co;
    const wm_fabric_ops *expected, *got;
    unsigned passed, failed, lost, not_run;
    bool interrupted;
    wm_junit *junit;
    wm_ledger ledger;
} plain_campaign;

/* The campaign's index of item i of the shard. */
static size_t plain_index(const plain_campaign *p, uint64_t item)
{
    return p->co->shard_n ? (p->co->shard_k - 1) + (size_t)item * p->co->shard_n : (size_t)item;
}

static void plain_name(void *ctx, uint64_t item, char *buf, size_t size)
{
    const plain_campaign *p = ctx;
    const size_t i = plain_index(p, item);
    if (p->corpus) snprintf(buf, size, "%s", p->corpus[i]->name);
    else snprintf(buf, size, "%s (%s)", p->layouts[i / p->nmodes], p->modes[i % p->nmodes] ? "core" : "native");
}

static bool plain_run(void *ctx, uint64_t item, FILE *out, bool *interrupted, uint64_t *router_cycles)
{
    const plain_campaign *p = ctx;
    const size_t i = plain_index(p, item);
    wm_regress_report rep;
    *router_cycles = 0;
    if (p->corpus) {
        wm_regress_run(p->corpus[i], p->expected, p->got, &rep);
    } else {
        const wm_layout_regress lr = {p->layouts[i / p->nmodes], p->settings, p->nsettings,
                                      p->modes[i % p->nmodes] ? WM_PE_CORE : WM_PE_NATIVE, p->max_cycles, p->jitter};
        if (!wm_layout_regress_run(&lr, p->expected, p->got, &rep)) {
            char name[300];
            plain_name(ctx, item, name, sizeof name);
            snprintf(rep.line, sizeof rep.line, "FAIL %s: the layout does not load", name);
            rep.detail[0] = '\0';
            rep.passed = rep.interrupted = false;
        }
    }
    fprintf(out, "%s\n%s", rep.line, rep.detail);
    fflush(out);
    *interrupted = rep.interrupted;
    return rep.passed;
}

/* The command that reproduces item i alone. */
static void plain_reproduce(const plain_campaign *p, uint64_t item, char *buf, size_t size)
{
    const size_t i = plain_index(p, item);
    if (p->corpus) {
        snprintf(buf, size, "%s regress --only %s%s", wm_self_name(), p->corpus[i]->name, p->co->extra);
        return;
    }
    size_t n = (size_t)snprintf(buf, size, "%s regress %s", wm_self_name(), p->layouts[i / p->nmodes]);
    for (size_t k = 0; k < p->nsettings && n < size; k++)
        n += (size_t)snprintf(buf + n, size - n, " --set %s=%lld", p->settings[k].name, (long long)p->settings[k].value);
    if (n < size)
        snprintf(buf + n, size - n, " --pe %s%s", p->modes[i % p->nmodes] ? "core" : "native", p->co->extra);
}

static void plain_done(void *ctx, uint64_t item, const wm_campaign_result *r)
{
    plain_campaign *p = ctx;
    const wm_ledger_state state = wm_campaign_state(r);
    p->ledger.state[item] = (unsigned char)state;
    fputs(r->text, stdout);
    fflush(stdout);
    /* a job being torn down may drop what standard output cannot take */
    if (!r->passed && wm_campaign_torn_down(&p->co->mpi)) fputs(r->text, stderr);
    if (r->not_run) p->not_run++;
    else if (r->lost) p->lost++;
    else if (r->passed) p->passed++;
    else p->failed++;
    if (r->interrupted) p->interrupted = true;
    if (p->junit) {
        char name[300], cmd[5000];
        plain_name(ctx, item, name, sizeof name);
        plain_reproduce(p, item, cmd, sizeof cmd);
        wm_junit_add(p->junit, p->corpus ? "corpus" : "layout", name, r->text, cmd, r->seconds, state);
    }
}

/* The summary: the counts, then each scenario lost or not run with the
 * command that runs it. */
static void plain_summary(const plain_campaign *p, FILE *f)
{
    fprintf(f, "%u passed, %u failed", p->passed, p->failed);
    if (p->lost || p->not_run) fprintf(f, ", %u lost, %u not run", p->lost, p->not_run);
    fputc('\n', f);
    for (uint64_t i = 0; i < p->ledger.count; i++) {
        if (p->ledger.state[i] != WM_LEDGER_LOST && p->ledger.state[i] != WM_LEDGER_NOT_RUN) continue;
        char name[300], cmd[5000];
        plain_name((void *)p, i, name, sizeof name);
        plain_reproduce(p, i, cmd, sizeof cmd);
        fprintf(f, "%s %s: %s\n", p->ledger.state[i] == WM_LEDGER_LOST ? "lost" : "not run", name, cmd);
    }
    fflush(f);
}

/* The suite's properties that --merge needs: the kind, the shard, and
 * every option that changes the campaign's results, each named as the
 * option is (the kind's own ones added by its caller). */
static void junit_campaign(wm_junit *j, const char *kind, const campaign_options *co, size_t count)
{
    char v[64];
    wm_junit_property(j, "kind", kind);
    snprintf(v, sizeof v, "%u/%u", co->shard_n ? co->shard_k : 1, co->shard_n ? co->shard_n : 1);
    wm_junit_property(j, "shard", v);
    snprintf(v, sizeof v, "%zu", count);
    wm_junit_property(j, "count", v);
    wm_junit_property(j, "pe", co->pe);
    wm_junit_property(j, "perturb", co->perturb ? co->perturb : "none");
    wm_junit_property(j, "expected", co->expected);
    wm_junit_property(j, "got", co->got);
}

static bool junit_finish(wm_junit *j, const char *path)
{
    char err[4400];
    const bool ok = wm_junit_write(j, path, err, sizeof err);
    if (!ok) fprintf(stderr, "wavemesh regress: --junit: %s\n", err);
    wm_junit_free(j);
    return ok;
}

/* The corpus's selected scenarios or the layouts, as one campaign. */
static int run_plain(plain_campaign *p)
{
    campaign_options *co = p->co;
    wm_junit junit = {0};
    if (co->junit && (!co->mpi.ops || co->mpi.rank == 0)) p->junit = &junit;
    if (p->junit) {
        junit_campaign(p->junit, p->corpus ? "corpus" : "layout", co, p->count);
        if (p->corpus) {
            wm_junit_property(p->junit, "quick", co->quick ? "yes" : "no");
            wm_junit_property(p->junit, "only", co->only ? co->only : "");
        } else {
            char cmd[5000];
            size_t n = 0;
            for (size_t i = 0; i < p->count / p->nmodes && n < sizeof cmd; i++)
                n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s", i ? " " : "", p->layouts[i]);
            wm_junit_property(p->junit, "LAYOUT", cmd);
            n = 0;
            cmd[0] = '\0';
            for (size_t k = 0; k < p->nsettings && n < sizeof cmd; k++)
                n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s=%lld", k ? " " : "", p->settings[k].name,
                                      (long long)p->settings[k].value);
            wm_junit_property(p->junit, "set", cmd);
            snprintf(cmd, sizeof cmd, "%llu", p->max_cycles);
            wm_junit_property(p->junit, "max-cycles", cmd);
        }
    }
    uint64_t items = p->count;
    if (co->shard_n) items = p->count > co->shard_k - 1 ? (p->count - (co->shard_k - 1) + co->shard_n - 1) / co->shard_n : 0;
    if (!wm_ledger_init(&p->ledger, items)) {
        fprintf(stderr, "wavemesh regress: out of memory\n");
        return 2;
    }
    const wm_campaign c = {items, plain_run, plain_name, plain_done, p, co->jobs, &co->mpi, co->rank_timeout};
    bool reporter;
    const bool whole = wm_campaign_run(&c, &reporter);
    if (reporter) {
        if (!whole) p->interrupted = true;
        plain_summary(p, stdout);
        if (wm_campaign_torn_down(&co->mpi)) plain_summary(p, stderr);
    }
    wm_ledger_free(&p->ledger);
    if (!reporter) return 0;
    if (p->junit && !junit_finish(p->junit, co->junit)) return 2;
    return p->failed || p->lost || p->not_run || p->interrupted ? 1 : 0;
}

/* ------------------------------------------------------------ --merge */

/* The properties a shard's file holds of itself alone. */
static bool shard_own(const char *property)
{
    return !strcmp(property, "shard") || !strcmp(property, "router-cycles");
}

/* The first property of the campaign (every option that changes its
 * results) on which two shards' files differ, or NULL. */
static const char *campaigns_differ(const wm_junit *a, const wm_junit *b)
{
    for (int pass = 0; pass < 2; pass++) {
        const wm_junit *x = pass ? b : a, *y = pass ? a : b;
        for (size_t i = 0; i < x->nprops; i++) {
            const char *name = x->prop_name[i], *other = wm_junit_get(y, name);
            if (!shard_own(name) && (!other || strcmp(other, x->prop_value[i]))) return name;
        }
    }
    return NULL;
}

static int merge(const char *const *files, size_t nfiles, const wm_fabric_ops *expected, const wm_fabric_ops *got)
{
    wm_junit *js = calloc(nfiles, sizeof *js);
    char err[4400];
    int status = 2;
    size_t n = 0, total = 0;
    const wm_junit_case **all = NULL;
    const char *kind = NULL;
    wm_ledger ledger = {0, NULL};
    if (!js) goto out;
    for (; n < nfiles; n++)
        if (!wm_junit_read(files[n], &js[n], err, sizeof err)) {
            fprintf(stderr, "wavemesh regress: --merge: %s\n", err);
            goto out;
        }
    unsigned shards = 0;
    kind = wm_junit_get(&js[0], "kind");
    for (size_t f = 0; f < nfiles; f++) {
        unsigned k = 0, m = 0;
        const char *sh = wm_junit_get(&js[f], "shard");
        if (!sh || sscanf(sh, "%u/%u", &k, &m) != 2 || !k || k > m || !wm_junit_get(&js[f], "kind") ||
            strcmp(wm_junit_get(&js[f], "kind"), kind)) {
            fprintf(stderr, "wavemesh regress: --merge: %s is not a shard of the same campaign as %s\n", files[f],
                    files[0]);
            goto out;
        }
        const char *differ = campaigns_differ(&js[0], &js[f]);
        if (differ) {
            const char *a = wm_junit_get(&js[0], differ), *b = wm_junit_get(&js[f], differ);
            fprintf(stderr,
                    "wavemesh regress: --merge: %s and %s are shards of different campaigns: %s%s is %s in the "
                    "one, %s in the other\n",
                    files[0], files[f], strcmp(differ, "count") ? "--" : "the scenario ", differ,
                    a ? a : "not given", b ? b : "not given");
            goto out;
        }
        if (f == 0) shards = m;
        if (m != shards || nfiles != m) {
            fprintf(stderr, "wavemesh regress: --merge: %s is shard %u of %u; %zu file%s given\n", files[f], k, m,
                    nfiles, nfiles == 1 ? "" : "s");
            goto out;
        }
        total += js[f].n;
    }
    all = calloc(total ? total : 1, sizeof *all);
    if (!all) goto out;
    for (size_t f = 0; f < nfiles; f++) {
        unsigned k = 0, m = 0;
        if (sscanf(wm_junit_get(&js[f], "shard"), "%u/%u", &k, &m) != 2) goto out;
        for (size_t i = 0; i < js[f].n; i++) {
            const size_t g = (k - 1) + i * m;
            if (g >= total || all[g]) {
                fprintf(stderr, "wavemesh regress: --merge: %s: shard %u/%u given twice or cut short\n", files[f],
                        k, m);
                goto out;
            }
            all[g] = &js[f].cases[i];
        }
    }
    /* the counts come from the cases (each checked against its own lines
     * when read), never from a file's summary */
    if (!wm_ledger_init(&ledger, total)) goto out;
    uint64_t count[WM_LEDGER_STATES] = {0};
    double seconds = 0;
    for (size_t g = 0; g < total; g++) {
        if (!all[g]) {
            fprintf(stderr, "wavemesh regress: --merge: scenario %zu of the campaign is in no shard\n", g);
            goto out;
        }
        fputs(all[g]->text, stdout);
        ledger.state[g] = (unsigned char)all[g]->state;
        count[all[g]->state]++;
        seconds += all[g]->seconds;
    }
    const uint64_t passed = count[WM_LEDGER_PASSED], failed = count[WM_LEDGER_FAILED];
    const uint64_t lost = count[WM_LEDGER_LOST], not_run = count[WM_LEDGER_NOT_RUN];
    if (!strcmp(kind, "random")) {
        const char *pe = wm_junit_get(&js[0], "pe"), *indices = wm_junit_get(&js[0], "indices");
        char command[4200], extra[300] = "";
        snprintf(command, sizeof command, "%s regress", wm_self_name());
        /* the options each command repeats, as co->extra has them: those not at their default */
        static const char *const repeated[][2] = {{"perturb", "none"}, {"expected", "rtl"}, {"got", "sw"}};
        for (size_t q = 0, e = 0; q < sizeof repeated / sizeof repeated[0] && e < sizeof extra; q++) {
            const char *v = wm_junit_get(&js[0], repeated[q][0]);
            if (v && strcmp(v, repeated[q][1]))
                e += (size_t)snprintf(extra + e, sizeof extra - e, " --%s %s", repeated[q][0], v);
        }
        wm_index_list list = {0};
        if (indices && !wm_index_list_parse(indices, UINT64_MAX / 2, &list, err, sizeof err)) {
            fprintf(stderr, "wavemesh regress: --merge: %s: indices: %s\n", files[0], err);
            goto out;
        }
        wm_random_campaign c = {
            .count = total,
            .seed = strtoull(wm_junit_get(&js[0], "seed") ? wm_junit_get(&js[0], "seed") : "1", NULL, 10),
            .first = strtoull(wm_junit_get(&js[0], "first") ? wm_junit_get(&js[0], "first") : "0", NULL, 10),
            .jobs = (unsigned)nfiles,
            .limits = {(unsigned)strtoul(wm_junit_get(&js[0], "max-side") ? wm_junit_get(&js[0], "max-side") : "32",
                                         NULL, 10),
                       (unsigned)strtoul(wm_junit_get(&js[0], "max-core-side") ? wm_junit_get(&js[0], "max-core-side")
                                                                              : "6",
                                         NULL, 10),
                       pe && !strcmp(pe, "core") ? 1 : pe && !strcmp(pe, "native") ? 0 : -1,
                       (unsigned)strtoul(wm_junit_get(&js[0], "max-line-side") ? wm_junit_get(&js[0], "max-line-side")
                                                                              : "0",
                                         NULL, 10)},
            .expected = expected,
            .got = got,
            .command = command,
            .extra_args = extra,
            .indices = indices ? &list : NULL,
            .indices_text = indices,
        };
        uint64_t rc = 0;
        for (size_t f = 0; f < nfiles; f++)
            rc += strtoull(wm_junit_get(&js[f], "router-cycles") ? wm_junit_get(&js[f], "router-cycles") : "0", NULL,
                           10);
        const wm_random_summary sum = {passed + failed + lost, passed, failed, lost, not_run, not_run != 0,
                                       seconds, rc, &ledger};
        wm_random_campaign_summary(&c, &sum, stdout);
        wm_index_list_free(&list);
    } else {
        printf("%" PRIu64 " passed, %" PRIu64 " failed", passed, failed);
        if (lost || not_run) printf(", %" PRIu64 " lost, %" PRIu64 " not run", lost, not_run);
        putchar('\n');
        for (size_t g = 0; g < total; g++)
            if (all[g]->state == WM_LEDGER_LOST || all[g]->state == WM_LEDGER_NOT_RUN)
                printf("%s %s\n", all[g]->state == WM_LEDGER_LOST ? "lost" : "not run", all[g]->name);
    }
    status = failed || lost || not_run ? 1 : 0;
out:
    wm_ledger_free(&ledger);
    for (size_t f = 0; f < n; f++) wm_junit_free(&js[f]);
    free(js);
    free(all);
    return status;
}

/* A perturbed tile must lie on the mesh of a scenario that runs, or the
 * check it exercises would pass without having seen the fault. */
static int regress_campaign(const char *const *layouts, size_t nlayouts, const wm_setting *settings, size_t nsettings,
                            int cores_only, unsigned long long max_cycles, unsigned long long jitter, bool quick,
                            bool list, const char *only, const wm_sw_perturbation *pp, random_options *rop, campaign_options *cop,
                            const wm_fabric_ops *expected, const wm_fabric_ops *got);

static bool perturbation_lands(const wm_sw_perturbation *p, bool quick, const char *only, int cores_only)
{
    unsigned w = 0, h = 0;
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++) {
        if ((quick && !s->quick) || (only && !strstr(s->name, only)) ||
            (cores_only >= 0 && s->cores != (cores_only == 1)))
            continue;
        if (p->x < s->w && p->y < s->h) return true;
        if (s->w * s->h > w * h) w = s->w, h = s->h;
    }
    fprintf(stderr, "wavemesh regress: --perturb: tile (%u,%u) is off the mesh of every scenario selected", p->x, p->y);
    if (w) fprintf(stderr, " (the largest is %ux%u: tiles 0,0..%u,%u)", w, h, w - 1, h - 1);
    fputc('\n', stderr);
    return false;
}

static int regress_command(int argc, char **argv, indices_option *indices_given);

int wm_cmd_regress(int argc, char **argv)
{
    /* --indices holds its parsed list until the command ends */
    indices_option indices = {{NULL, NULL, 0, 0}, NULL};
    const int status = regress_command(argc, argv, &indices);
    wm_index_list_free(&indices.list);
    return status;
}

static int regress_command(int argc, char **argv, indices_option *indices_given)
{
    indices_option *const indices = indices_given;
    enum { MAX_LAYOUTS = 256 };
    const char *layouts[MAX_LAYOUTS];
    size_t nlayouts = 0;
    bool merge_given = false;
    unsigned long long rank_timeout = 10;
    campaign_options co = {0};
    wm_setting settings[WM_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = WM_MAX_CYCLES_DEFAULT;
    unsigned long long jitter = 0;
    bool quick = false, list = false, pe_given = false;
    const char *only = NULL, *expected_name = "rtl", *got_name = "sw", *pe = "native";
    perturb_option perturb = {{WM_SW_EXACT, 0, 0, 0}, NULL};
    random_options ro = {0, 1, 0, 1, WM_RANDOM_SIDE_MAX, 6, 200, false, false, false, NULL, NULL, NULL, NULL, NULL, 0};
    const wm_option options[] = {
        {"LAYOUT...", NULL, WM_OPT_POSITIONAL, .to.str = layouts, .max_count = MAX_LAYOUTS, .count = &nlayouts,
         .path = WM_PATH_IN},
        WM_OPT_FLAG_ROW("--quick", &quick, "only the short scenarios (the ones `make test` runs)"),
        WM_OPT_STRING_ROW("--only", "TEXT", &only, "only the scenarios whose name contains TEXT"),
        {"--pe", NULL, WM_OPT_CHOICE, .to.word = &pe, .words = wm_pe_words, .given = &pe_given,
         .help = "only the scenarios on the PE cores (core) or without (native)"},
        WM_OPT_FLAG_ROW("--list", &list, "print the scenario names and stop"),
        {"--perturb", "SPEC", WM_OPT_CUSTOM, .to.custom = &perturb, .parse = perturbation_parse,
         .expected = "rr-reverse:X,Y, late-grant:X,Y,PORT (PORT N/E/S/W/L), core-sltu:X,Y, core-div33:X,Y or "
                     "core-rx-late:X,Y, each X,Y in 0..1023",
         .help = "make the sw model deliberately wrong, to see the check fire: rr-reverse:X,Y (tile X,Y "
                 "arbitrates in reverse order) or late-grant:X,Y,PORT (its output PORT, N/E/S/W/L, grants a "
                 "header one cycle late), or core-sltu:X,Y, core-div33:X,Y, core-rx-late:X,Y (tile X,Y's core "
                 "simulator: SLTU compares signed, DIV takes 33 cycles, an RX load pops a cycle late)"},
        WM_OPT_CHOICE_ROW("--expected", &expected_name, wm_backend_words, "the reference backend (default rtl)"),
        WM_OPT_CHOICE_ROW("--got", &got_name, wm_backend_words, "the backend under test (default sw)"),
        WM_OPT_SETTINGS_ROW(settings, WM_MAX_SETTINGS, &nsettings, "with LAYOUT: override a parameter of it"),
        WM_OPT_MAX_CYCLES_ROW(&max_cycles),
        WM_OPT_U64_ROW("--jitter", "SEED", &jitter, 1, UINT64_MAX,
                       "with LAYOUT: its runs (native and core) under the schedule of SEED (docs/kernels.md), the "
                       "same on both backends"),
        WM_OPT_HEADING_ROW("Constrained-random lockstep (docs/verification.md):"),
        {"--random", "N", WM_OPT_U64, .to.u = &ro.random, .umin = 1, .umax = UINT64_MAX / 2,
         .given = &ro.have_random,
         .help = "N scenarios drawn from the seed instead of the corpus: a mesh of 1x1..32x32 (1xN, Nx1 too), a "
                 "traffic pattern, a rate, message lengths 1..256, slow-popping PEs, off-mesh headers, routers "
                 "disabled or toggled; or (one in eight, or all with --pe core) random firmware traffic on the PE "
                 "cores. Each line ends with the command that runs that scenario alone; a failing one is shrunk "
                 "(smaller mesh, fewer cycles, fewer messages) to the smallest version that still fails, and its "
                 "command printed"},
        WM_OPT_U64_ROW("--seed", "S", &ro.seed, 0, UINT64_MAX, "the campaign's seed (default 1)"),
        WM_OPT_U64_ROW("--first", "K", &ro.first, 0, UINT64_MAX / 2,
                       "start at scenario K of the seed (default 0): pieces of one campaign run anywhere"),
        WM_OPT_U64_ROW("--jobs", "J", &ro.jobs, 1, 256,
                       "J scenarios at a time, in J forked processes (a crash is a FAIL of its own); default 1: "
                       "one after the other in this process"),
        WM_OPT_U64_ROW("--max-side", "N", &ro.max_side, 1, WM_RANDOM_SIDE_MAX, "mesh sides 1..N (default 32)"),
        WM_OPT_U64_ROW("--max-line-side", "N", &ro.max_line_side, 1, WM_MESH_MAX,
                       "the long side of a 1xN or Nx1 mesh 1..N (default --max-side): above 256 the header's "
                       "10-bit coordinates"),
        {"--max-core-side", "N", WM_OPT_U64, .to.u = &ro.max_core_side, .umin = 1, .umax = WM_RANDOM_SIDE_MAX,
         .given = &ro.have_max_core_side,
         .help = "the same on the cores, at most --max-side (default 6, or --max-side when smaller)"},
        {"--indices", "LIST", WM_OPT_CUSTOM, .to.custom = indices, .parse = indices_parse,
         .expected = "numbers N, ranges A-B and A-B:S (every S-th) separated by commas, ascending, each number "
                     "once, at most 4611686018427387903",
         .help = "instead of --random N: the seed's scenarios LIST (3,17-20,40-100:4), as a summary prints those "
                 "lost or not run"},
        WM_OPT_U64_ROW("--shrink-runs", "N", &ro.shrink_runs, 0, 100000,
                       "versions a failure's shrinking may try (default 200; 0: no shrinking)"),
        WM_OPT_OUTPUT_ROW("--log", "FILE", &ro.log,
                          "every scenario's line to FILE; failures, progress and the summary on the terminal"),
        WM_OPT_FLAG_ROW("--progress", &ro.progress, "a progress line on stderr (scenarios done, failed, per minute)"),
        WM_OPT_STRING_ROW("--scenario", "TEXT", &ro.scenario,
                          "run one scenario from its text (as the lines print it), and shrink it if it fails"),
        WM_OPT_HEADING_ROW("Campaigns (the corpus, --random, LAYOUTs), on MPI and in CI (docs/verification.md):"),
        WM_OPT_OUTPUT_ROW("--junit", "FILE", &co.junit,
                          "the campaign as JUnit XML: a testcase per scenario, a failure with its first divergence "
                          "and the commands that reproduce it"),
        {"--shard", "K/N", WM_OPT_CUSTOM, .to.custom = &co, .parse = shard_parse,
         .expected = "K/N, integers with 1 <= K <= N <= 1000000",
         .help = "only the K-th of N deterministic slices of the campaign (scenarios K-1, K-1+N, ...): for job "
                 "arrays and CI matrices; --merge joins their --junit files"},
        WM_OPT_FLAG_ROW("--merge", &merge_given,
                        "the LAYOUTs are the --junit files of all N shards of one campaign: print its lines and "
                        "summary, as the unsharded run prints them"),
        WM_OPT_U64_ROW("--rank-timeout", "S", &rank_timeout, 1, 3600,
                       "on MPI: a rank silent for S seconds is dead, its scenario in hand lost (default 10)"),
    };
    const wm_opts opts = WM_OPTS("regress", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    ro.indices = indices->text;
    ro.index_list = &indices->list;
    co.pe = pe_given ? pe : "both";
    co.perturb = perturb.text;
    co.expected = expected_name;
    co.got = got_name;
    co.quick = quick;
    co.only = only;
    if (merge_given && (co.junit || ro.log)) {
        fprintf(stderr, "wavemesh regress: --merge prints the merged campaign on standard output; it takes no %s\n",
                co.junit ? "--junit" : "--log");
        return 2;
    }
    if (ro.log && !ro.have_random && !ro.indices) {
        fprintf(stderr, "wavemesh regress: --log takes the lines of a --random or --indices campaign; the corpus, "
                        "LAYOUTs and --scenario print theirs on standard output\n");
        return 2;
    }
    if (!ro.have_max_core_side && ro.max_core_side > ro.max_side) ro.max_core_side = ro.max_side;
    if (ro.max_core_side > ro.max_side) {
        fprintf(stderr, "wavemesh regress: --max-core-side %llu is above --max-side %llu: 1..%llu\n",
                ro.max_core_side, ro.max_side, ro.max_side);
        return 2;
    }
    /* -1: every scenario; 0: native; 1: core */
    const int cores_only = pe_given ? wm_pe_mode_of(pe) == WM_PE_CORE : -1;
    co.jobs = (unsigned)ro.jobs;
    co.rank_timeout = (double)rank_timeout;
    const wm_sw_perturbation perturbation = perturb.p;
    ro.perturb = perturb.text;
    const wm_fabric_ops *expected = wm_fabric_backend(expected_name);
    const wm_fabric_ops *got = wm_fabric_backend(got_name);
    /* The perturbation goes with the backends, given to every sw fabric
     * they make (the rtl ones ignore it). */
    const wm_fabric_config fabric_cfg = {.perturbation = perturbation};
    wm_fabric_ops expected_ops = *expected, got_ops = *got;
    expected_ops.config = got_ops.config = &fabric_cfg;
    expected = &expected_ops;
    got = &got_ops;
    if (merge_given) {
        if (!nlayouts) {
            fprintf(stderr, "wavemesh regress: --merge needs the shards' --junit files (see --help)\n");
            return 2;
        }
        return merge(layouts, nlayouts, expected, got);
    }
    {
        size_t n = 0;
        if (perturb.text) n += (size_t)snprintf(co.extra + n, sizeof co.extra - n, " --perturb %s", perturb.text);
        if (strcmp(expected_name, "rtl") && n < sizeof co.extra)
            n += (size_t)snprintf(co.extra + n, sizeof co.extra - n, " --expected %s", expected_name);
        if (strcmp(got_name, "sw") && n < sizeof co.extra)
            snprintf(co.extra + n, sizeof co.extra - n, " --got %s", got_name);
    }
    /* under a launcher of several processes the campaign is spread over
     * them; the plugin is loaded then only (campaign.h) */
    if (!list && !ro.scenario) {
        char err[5000];
        if (!wm_campaign_mpi_open(&co.mpi, err, sizeof err)) {
            fprintf(stderr, "wavemesh regress: %s\n", err);
            return 2;
        }
    }
    status = regress_campaign(layouts, nlayouts, settings, nsettings, cores_only, max_cycles, jitter, quick, list, only,
                              &perturbation, &ro, &co, expected, got);
    wm_campaign_mpi_close(&co.mpi);
    return status;
}

/* The campaign the options select: LAYOUTs, --random/--scenario or the corpus. */
static int regress_campaign(const char *const *layouts, size_t nlayouts, const wm_setting *settings, size_t nsettings,
                            int cores_only, unsigned long long max_cycles, unsigned long long jitter, bool quick,
                            bool list, const char *only, const wm_sw_perturbation *pp, random_options *rop, campaign_options *cop,
                            const wm_fabric_ops *expected, const wm_fabric_ops *got)
{
    const char *layout = nlayouts ? layouts[0] : NULL;
    const wm_sw_perturbation perturbation = *pp;
    random_options ro = *rop;
    campaign_options *co = cop;
    int status;
    if (!layout && nsettings) {
        fprintf(stderr, "wavemesh regress: --set needs a LAYOUT (see --help)\n");
        return 2;
    }
    if (!layout && jitter) {
        fprintf(stderr, "wavemesh regress: --jitter needs a LAYOUT (see --help)\n");
        return 2;
    }
    if (layout) {
        if (quick || list || only || ro.have_random || ro.scenario || ro.indices) {
            fprintf(stderr, "wavemesh regress: --quick, --only, --list, --random, --indices and --scenario select "
                            "corpus or random scenarios, not a LAYOUT\n");
            return 2;
        }
        plain_campaign p = {.layouts = (const char **)layouts, .nmodes = 0, .settings = settings,
                            .nsettings = nsettings, .max_cycles = max_cycles, .jitter = jitter, .co = co,
                            .expected = expected, .got = got};
        for (int core = 0; core < 2; core++)
            if (cores_only < 0 || core == cores_only) p.modes[p.nmodes++] = core;
        const wm_fabric_ops *both[] = {expected, got};
        for (size_t b = 0; jitter && cores_only != 0 && b < 2; b++)
            if (!both[b]->core_hold) {
                fprintf(stderr,
                        "wavemesh regress: --jitter on the cores needs backends that hold one core at a time (rtl "
                        "or sw), not %s; --pe native runs it natively only\n",
                        both[b]->name);
                return 2;
            }
        p.count = nlayouts * p.nmodes;
        return run_plain(&p);
    }
    if (ro.have_random || ro.scenario || ro.indices) {
        if (ro.have_random + !!ro.scenario + !!ro.indices > 1) {
            fprintf(stderr, "wavemesh regress: --random, --indices and --scenario exclude each other\n");
            return 2;
        }
        if (quick || list || only) {
            fprintf(stderr, "wavemesh regress: --quick, --only and --list select from the corpus, not with %s\n",
                    ro.scenario ? "--scenario" : ro.indices ? "--indices" : "--random");
            return 2;
        }
        if (ro.indices && (ro.first || co->shard_n)) {
            fprintf(stderr, "wavemesh regress: --indices names its scenarios: it takes no %s\n",
                    ro.first ? "--first" : "--shard");
            return 2;
        }
        status = run_random(&ro, cores_only, co, expected, got);
        return status;
    }
    if (perturbation.kind != WM_SW_EXACT && !list && !perturbation_lands(&perturbation, quick, only, cores_only))
        return 2;
    size_t ncorpus = 0;
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++) ncorpus++;
    const wm_regress_scenario **sel = calloc(ncorpus + 1, sizeof *sel);
    if (!sel) {
        fprintf(stderr, "wavemesh regress: out of memory\n");
        return 2;
    }
    size_t nsel = 0;
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++) {
        if (quick && !s->quick) continue;
        if (only && !strstr(s->name, only)) continue;
        if (cores_only >= 0 && s->cores != (cores_only == 1)) continue;
        if (list) printf("%s %ux%u%s\n", s->name, s->w, s->h, s->quick ? " (quick)" : "");
        else sel[nsel++] = s;
    }
    if (list) {
        free(sel);
        return 0;
    }
    if (nsel == 0) {
        free(sel);
        fprintf(stderr, "wavemesh regress: no scenario matches (see --list)\n");
        return 2;
    }
    plain_campaign p = {.corpus = sel, .count = nsel, .co = co, .expected = expected, .got = got};
    status = run_plain(&p);
    free(sel);
    return status;
}

/* --random N, --indices LIST or --scenario TEXT: the campaign of
 * random_campaign.h, each line's command carrying the options that change
 * what it checks. */
static int run_random(const random_options *o, int cores_only, campaign_options *co, const wm_fabric_ops *expected,
                      const wm_fabric_ops *got)
{
    const wm_index_list *indices = o->indices ? o->index_list : NULL;
    const char *extra = co->extra;
    /* each line's command names the binary as it was invoked */
    char command[4200];
    snprintf(command, sizeof command, "%s regress", wm_self_name());
    wm_random_campaign c = {
        .count = indices ? indices->count : o->random,
        .indices = indices,
        .indices_text = o->indices,
        .seed = o->seed,
        .first = o->first,
        .jobs = (unsigned)o->jobs,
        .limits = {(unsigned)o->max_side, (unsigned)o->max_core_side, cores_only, (unsigned)o->max_line_side},
        .expected = expected,
        .got = got,
        .command = command,
        .extra_args = extra,
        .shrink_runs = (unsigned)o->shrink_runs,
        .out = stdout,
        .failures = NULL,
        .progress = o->progress,
        .shard_k = co->shard_k,
        .shard_n = co->shard_n,
        .mpi = &co->mpi,
        .rank_timeout = co->rank_timeout,
    };
    const bool reporter = !co->mpi.ops || co->mpi.rank == 0;
    wm_junit junit = {0};
    if (co->junit && reporter) {
        char v[64];
        c.junit = &junit;
        junit_campaign(&junit, "random", co, (size_t)c.count);
        snprintf(v, sizeof v, "%llu", o->seed);
        wm_junit_property(&junit, "seed", v);
        snprintf(v, sizeof v, "%llu", o->first);
        wm_junit_property(&junit, "first", v);
        snprintf(v, sizeof v, "%llu", o->max_side);
        wm_junit_property(&junit, "max-side", v);
        snprintf(v, sizeof v, "%llu", o->max_core_side);
        wm_junit_property(&junit, "max-core-side", v);
        if (o->max_line_side) {
            snprintf(v, sizeof v, "%llu", o->max_line_side);
            wm_junit_property(&junit, "max-line-side", v);
        }
        snprintf(v, sizeof v, "%llu", o->shrink_runs);
        wm_junit_property(&junit, "shrink-runs", v);
        if (o->indices) wm_junit_property(&junit, "indices", o->indices);
    }
    if (o->scenario) {
        wm_random_scenario rs;
        char err[300];
        if (!wm_random_parse(o->scenario, &rs, err, sizeof err)) {
            fprintf(stderr, "wavemesh regress: --scenario: %s\n", err);
            return 2;
        }
        bool interrupted;
        uint64_t router_cycles;
        return wm_random_run_scenario(&c, &rs, "scenario", stdout, &interrupted, &router_cycles) ? 0 : 1;
    }
    /* the log through the one output routine (waves/outfile.h) */
    wm_outfile *log = NULL;
    char err[4400];
    if (o->log && reporter) {
        log = wm_outfile_begin(o->log, true, err, sizeof err);
        if (!log) {
            fprintf(stderr, "wavemesh regress: --log: %s\n", err);
            return 2;
        }
        c.out = wm_outfile_stream(log);
        c.failures = stdout;
    }
    wm_random_summary sum;
    const int status = wm_random_campaign_run(&c, &sum);
    if (log && !wm_outfile_commit(log, err, sizeof err)) {
        fprintf(stderr, "wavemesh regress: --log: %s\n", err);
        return 2;
    }
    if (c.junit) {
        char v[64];
        snprintf(v, sizeof v, "%" PRIu64, sum.router_cycles);
        wm_junit_property(&junit, "router-cycles", v);
        if (!junit_finish(&junit, co->junit)) return 2;
    }
    return status;
}
