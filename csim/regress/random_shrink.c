/* random_shrink.c: greedy shrinking of a failing random scenario (see
 * random_shrink.h). */
#include "regress/random_shrink.h"

#include <string.h>

typedef enum { KIND_NONE, KIND_LINKS, KIND_CORES, KIND_RESULTS, KIND_ASSERTION, KIND_CAP, KIND_RUN } failure_kind;

static failure_kind kind(const wm_regress_report *r)
{
    if (r->passed || r->interrupted) return KIND_NONE;
    if (r->diverged) return KIND_LINKS;
    if (r->core_diverged) return KIND_CORES;
    if (r->result_differs) return KIND_RESULTS;
    if (r->asserted) return KIND_ASSERTION;
    if (r->capped) return KIND_CAP;
    return KIND_RUN;
}

bool wm_random_same_failure(const wm_regress_report *a, const wm_regress_report *b)
{
    return kind(a) != KIND_NONE && kind(a) == kind(b);
}

/* A number of the scenario that the shrinker may lower. */
typedef struct {
    uint64_t (*get)(const wm_random_scenario *s, const wm_regress_report *rep);
    void (*set)(wm_random_scenario *s, uint64_t v);
    uint64_t min;
} dimension;

/* The cycles a version runs: its limit, else what the run took. */
static uint64_t get_cycles(const wm_random_scenario *s, const wm_regress_report *rep)
{
    return s->cycles && s->cycles < rep->cycles ? s->cycles : rep->cycles;
}
static void set_cycles(wm_random_scenario *s, uint64_t v) { s->cycles = v; }

/* A smaller mesh: the routers outside it no longer disabled, a shift that
 * wraps on it, a transpose's mesh kept square. */
static void fit_mesh(wm_random_scenario *s)
{
    unsigned kept = 0;
    for (unsigned k = 0; k < s->ndisabled; k++) {
        if (s->disabled[k][0] >= s->w || s->disabled[k][1] >= s->h) continue;
        s->disabled[kept][0] = s->disabled[k][0];
        s->disabled[kept][1] = s->disabled[k][1];
        kept++;
    }
    s->ndisabled = kept;
    s->stream.dx %= s->w;
    s->stream.dy %= s->h;
}
static uint64_t get_w(const wm_random_scenario *s, const wm_regress_report *rep) { (void)rep; return s->w; }
static uint64_t get_h(const wm_random_scenario *s, const wm_regress_report *rep) { (void)rep; return s->h; }
static void set_w(wm_random_scenario *s, uint64_t v)
{
    s->w = (unsigned)v;
    if (s->cores && s->stream.pattern == WM_STREAM_TRANSPOSE) s->h = s->w;
    fit_mesh(s);
}
static void set_h(wm_random_scenario *s, uint64_t v)
{
    s->h = (unsigned)v;
    if (s->cores && s->stream.pattern == WM_STREAM_TRANSPOSE) s->w = s->h;
    fit_mesh(s);
}

/* Messages: without a limit, about twice what the rate makes in the
 * cycles run, a start for the search. */
static uint64_t get_messages(const wm_random_scenario *s, const wm_regress_report *rep)
{
    const wm_traffic_config *t = &s->traffic;
    if (t->max_messages) return t->max_messages;
    const double made = (double)s->w * s->h * t->rate / t->len * (double)get_cycles(s, rep);
    return 2 * (uint64_t)made + 10;
}
static void set_messages(wm_random_scenario *s, uint64_t v) { s->traffic.max_messages = v; }

#define FIELD_DIMENSION(name, field, type)                                                   \
    static uint64_t get_##name(const wm_random_scenario *s, const wm_regress_report *rep)   \
    {                                                                                        \
        (void)rep;                                                                           \
        return s->field;                                                                     \
    }                                                                                        \
    static void set_##name(wm_random_scenario *s, uint64_t v) { s->field = (type)v; }
FIELD_DIMENSION(len, traffic.len, unsigned)
FIELD_DIMENSION(warmup, traffic.warmup, uint64_t)
FIELD_DIMENSION(sample, traffic.sample, uint64_t)
FIELD_DIMENSION(drain, traffic.drain_max, uint64_t)
FIELD_DIMENSION(pop, traffic.pop_interval, unsigned)
FIELD_DIMENSION(disabled, ndisabled, unsigned)
FIELD_DIMENSION(count, stream.count, unsigned)
FIELD_DIMENSION(stream_len, stream.len, unsigned)
FIELD_DIMENSION(gap, stream.gap, unsigned)
FIELD_DIMENSION(dx, stream.dx, unsigned)
FIELD_DIMENSION(dy, stream.dy, unsigned)
#undef FIELD_DIMENSION
static uint64_t get_offmesh(const wm_random_scenario *s, const wm_regress_report *rep)
{
    (void)rep;
    return s->traffic.offmesh_fraction > 0.0;
}
static void set_offmesh(wm_random_scenario *s, uint64_t v)
{
    if (!v) s->traffic.offmesh_fraction = 0.0;
}

/* In the order tried: what makes later runs cheap first. */
static const dimension traffic_dimensions[] = {
    {get_cycles, set_cycles, 1}, {get_w, set_w, 1},           {get_h, set_h, 1},         {get_messages, set_messages, 1},
    {get_disabled, set_disabled, 0}, {get_len, set_len, 1},   {get_pop, set_pop, 1},     {get_offmesh, set_offmesh, 0},
    {get_warmup, set_warmup, 0},   {get_sample, set_sample, 1}, {get_drain, set_drain, 0},
};
static const dimension stream_dimensions[] = {
    {get_cycles, set_cycles, 1},     {get_w, set_w, 1},   {get_h, set_h, 1}, {get_count, set_count, 1},
    {get_stream_len, set_stream_len, 0}, {get_gap, set_gap, 0}, {get_dx, set_dx, 0}, {get_dy, set_dy, 0},
};

typedef struct {
    const wm_regress_report *failed;
    const wm_fabric_ops *expected, *got;
    unsigned max_runs;
    FILE *progress;
    wm_random_scenario *cur;
    wm_regress_report *cur_rep;
    wm_random_shrink_stats *stats;
    bool interrupted;
} shrinker;

/* Runs c; when it fails as the original did, it becomes the current one. */
static bool try_version(shrinker *k, const wm_random_scenario *c)
{
    char err[200];
    if (k->interrupted || k->stats->runs >= k->max_runs || !wm_random_check(c, err, sizeof err)) return false;
    wm_regress_report rep;
    wm_random_regress_run(c, "shrunk", k->expected, k->got, &rep);
    k->stats->runs++;
    if (rep.interrupted) k->interrupted = true;
    if (!wm_random_same_failure(&rep, k->failed)) return false;
    *k->cur = *c;
    *k->cur_rep = rep;
    k->stats->steps++;
    if (k->progress) {
        char text[WM_RANDOM_TEXT_MAX];
        wm_random_format(c, text, sizeof text);
        fprintf(k->progress, "  shrink step %u (run %u): %s\n", k->stats->steps, k->stats->runs, text);
        fflush(k->progress);
    }
    return true;
}

/* The smallest value of d that still fails: its minimum, else a binary
 * search between it (passes) and the current value (fails). Failing is
 * not monotonic in every number, so this finds a local minimum, which is
 * what a reader of the report needs. */
static bool shrink_dimension(shrinker *k, const dimension *d)
{
    const uint64_t v = d->get(k->cur, k->cur_rep);
    if (v <= d->min) return false;
    wm_random_scenario c = *k->cur;
    d->set(&c, d->min);
    if (try_version(k, &c)) return true;
    uint64_t lo = d->min, hi = v;
    bool took = false;
    while (hi - lo > 1 && !k->interrupted && k->stats->runs < k->max_runs) {
        const uint64_t mid = lo + (hi - lo) / 2;
        c = *k->cur;
        d->set(&c, mid);
        if (try_version(k, &c)) {
            hi = mid;
            took = true;
        } else {
            lo = mid;
        }
    }
    return took;
}

void wm_random_shrink(const wm_random_scenario *failing, const wm_regress_report *failed,
                      const wm_fabric_ops *expected, const wm_fabric_ops *got, unsigned max_runs, FILE *progress,
                      wm_random_scenario *smallest, wm_regress_report *smallest_rep, wm_random_shrink_stats *stats)
{
    *smallest = *failing;
    *smallest_rep = *failed;
    memset(stats, 0, sizeof *stats);
    shrinker k = {failed, expected, got, max_runs, progress, smallest, smallest_rep, stats, false};
    const dimension *dims = failing->cores ? stream_dimensions : traffic_dimensions;
    const size_t ndims = failing->cores ? sizeof stream_dimensions / sizeof stream_dimensions[0]
                                        : sizeof traffic_dimensions / sizeof traffic_dimensions[0];
    for (bool took = true; took && !k.interrupted && stats->runs < max_runs;) {
        took = false;
        /* a divergence on the links: the cycles up to it are enough */
        if (smallest_rep->diverged && smallest_rep->first.cycle < get_cycles(smallest, smallest_rep)) {
            wm_random_scenario c = *smallest;
            c.cycles = smallest_rep->first.cycle;
            took |= try_version(&k, &c);
        }
        for (size_t d = 0; d < ndims; d++) took |= shrink_dimension(&k, &dims[d]);
        /* each disabled router on its own */
        for (unsigned r = 0; smallest->ndisabled > 1 && r < smallest->ndisabled; r++) {
            wm_random_scenario c = *smallest;
            memmove(c.disabled[r], c.disabled[r + 1], (size_t)(c.ndisabled - r - 1) * sizeof c.disabled[0]);
            c.ndisabled--;
            if (try_version(&k, &c)) {
                took = true;
                r--;
            }
        }
    }
    /* a limit past the run's own end says nothing: the run's length does */
    if (smallest->cycles > smallest_rep->cycles) smallest->cycles = smallest_rep->cycles;
}
