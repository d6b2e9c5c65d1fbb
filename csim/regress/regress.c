/* regress.c: runs a scenario on two backends and finds the first divergence.
 *
 * First pass: each backend runs the scenario with a digest recorder; the
 * digests name the first cycle where the traces differ. Second pass, only
 * on a mismatch: both run again capturing that cycle whole, which gives
 * the first divergent event without keeping millions of events around.
 */
#include "regress/regress.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NO_PE = -1 };

typedef struct {
    const char *name;
    int x, y; /* NO_PE for a word of the whole run */
    uint64_t value;
} result_word;

struct wm_regress_results {
    result_word *words;
    size_t n, cap;
    bool ok;
};

void wm_regress_result_pe(wm_regress_results *r, const char *name, unsigned x, unsigned y, uint64_t value)
{
    if (!r->ok) return;
    if (r->n == r->cap) {
        const size_t cap = r->cap ? 2 * r->cap : 256;
        result_word *w = realloc(r->words, cap * sizeof *w);
        if (!w) {
            r->ok = false;
            return;
        }
        r->words = w;
        r->cap = cap;
    }
    r->words[r->n++] = (result_word){name, (int)x, (int)y, value};
}

void wm_regress_result(wm_regress_results *r, const char *name, uint64_t value)
{
    wm_regress_result_pe(r, name, 0, 0, value);
    if (r->ok) r->words[r->n - 1].x = r->words[r->n - 1].y = NO_PE;
}

void wm_regress_fabric_state(const wm_fabric_ops *ops, const wm_fabric *f, unsigned w, unsigned h,
                             wm_regress_results *r)
{
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const wm_pe_status st = ops->pe_status(f, x, y);
            wm_regress_result_pe(r, "status", x, y, st.status);
            wm_regress_result_pe(r, "tx_count", x, y, st.tx_count);
            wm_regress_result_pe(r, "rx_count", x, y, st.rx_count);
            if (st.rx_count) wm_regress_result_pe(r, "rx_head", x, y, st.rx_head);
            wm_regress_result_pe(r, "err_hdr", x, y, st.err_hdr);
            wm_regress_result_pe(r, "tsc", x, y, st.tsc);
        }
    }
    wm_regress_result(r, "quiescent", ops->quiescent(f));
    const size_t n = ops->in_flight(f, NULL, 0);
    wm_regress_result(r, "places in flight", n);
    wm_flight *places = calloc(n ? n : 1, sizeof *places);
    if (!places) {
        r->ok = false;
        return;
    }
    ops->in_flight(f, places, n);
    for (size_t k = 0; k < n; k++) {
        const wm_flight *p = &places[k];
        wm_regress_result_pe(r, "in flight (place, port, count)", p->x, p->y,
                             ((uint64_t)p->place << 16) | ((uint64_t)p->port << 8) | p->count);
        wm_regress_result_pe(r, "in flight (oldest wavelet)", p->x, p->y, p->head);
    }
    free(places);
}

const wm_regress_scenario *wm_regress_find(const char *name)
{
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++)
        if (!strcmp(s->name, name)) return s;
    return NULL;
}

typedef struct {
    wm_trace *trace;
    wm_regress_results results;
    uint64_t cycles;
    bool ran;
} run_record;

static void run_once(const wm_regress_scenario *s, const wm_fabric_ops *ops, uint64_t capture, run_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->results.ok = true;
    rec->trace = wm_trace_create();
    if (!rec->trace) return;
    wm_trace_capture(rec->trace, capture);
    wm_fabric *f = ops->create(s->w, s->h);
    if (!f) return;
    ops->set_link_hook(f, wm_trace_record, rec->trace);
    rec->ran = s->run(ops, f, s->w, s->h, s->arg, &rec->results) && rec->results.ok && wm_trace_ok(rec->trace);
    rec->cycles = ops->cycle(f);
    ops->destroy(f);
}

static void free_record(run_record *rec)
{
    wm_trace_destroy(rec->trace);
    free(rec->results.words);
}

static void describe_word(const result_word *w, char *buf, size_t size)
{
    if (w->x == NO_PE) snprintf(buf, size, "result '%s'", w->name);
    else snprintf(buf, size, "result '%s' of PE (%d,%d)", w->name, w->x, w->y);
}

/* The first result word that differs, described into buf; false if none. */
static bool compare_results(const wm_regress_results *e, const wm_regress_results *g, char *buf, size_t size)
{
    char what[160];
    for (size_t k = 0; k < e->n && k < g->n; k++) {
        const result_word *a = &e->words[k], *b = &g->words[k];
        if (strcmp(a->name, b->name) || a->x != b->x || a->y != b->y) {
            describe_word(a, what, sizeof what);
            snprintf(buf, size, "results differ in kind at word %zu: expected %s", k, what);
            return true;
        }
        if (a->value != b->value) {
            describe_word(a, what, sizeof what);
            snprintf(buf, size, "%s: expected %" PRIu64 " (0x%" PRIx64 "), got %" PRIu64 " (0x%" PRIx64 ")", what,
                     a->value, a->value, b->value, b->value);
            return true;
        }
    }
    if (e->n != g->n) {
        snprintf(buf, size, "expected %zu result words, got %zu", e->n, g->n);
        return true;
    }
    return false;
}

void wm_regress_run(const wm_regress_scenario *s, const wm_fabric_ops *expected, const wm_fabric_ops *got,
                    wm_regress_report *rep)
{
    memset(rep, 0, sizeof *rep);
    run_record e, g;
    run_once(s, expected, UINT64_MAX, &e);
    run_once(s, got, UINT64_MAX, &g);
    rep->cycles = e.cycles;
    rep->events = e.trace ? wm_trace_event_count(e.trace) : 0;
    char why[320];
    uint64_t cycle;
    if (!e.ran || !g.ran) {
        rep->could_not_run = true;
        snprintf(why, sizeof why, "could not run on the %s backend", !e.ran ? expected->name : got->name);
    } else if (wm_trace_first_difference(e.trace, g.trace, &cycle)) {
        run_record e2, g2;
        run_once(s, expected, cycle, &e2);
        run_once(s, got, cycle, &g2);
        rep->diverged = e2.ran && g2.ran && wm_trace_first_divergence(e2.trace, g2.trace, &rep->first);
        if (rep->diverged) {
            char at[200];
            wm_divergence_format(&rep->first, at, sizeof at);
            snprintf(why, sizeof why, "first divergence at %s", at);
        } else {
            rep->could_not_run = true;
            snprintf(why, sizeof why, "traces differ at cycle %" PRIu64 " but not when run again: nondeterministic",
                     cycle);
        }
        free_record(&e2);
        free_record(&g2);
    } else if (e.cycles != g.cycles) {
        rep->result_differs = true;
        snprintf(why, sizeof why, "expected a run of %" PRIu64 " cycles, got %" PRIu64, e.cycles, g.cycles);
    } else if (compare_results(&e.results, &g.results, why, sizeof why)) {
        rep->result_differs = true;
    } else {
        rep->passed = true;
    }
    if (rep->passed)
        snprintf(rep->line, sizeof rep->line, "PASS %-24s %3ux%-3u %7" PRIu64 " cycles %9" PRIu64 " events", s->name,
                 s->w, s->h, rep->cycles, rep->events);
    else
        snprintf(rep->line, sizeof rep->line, "FAIL %s %ux%u: %s", s->name, s->w, s->h, why);
    free_record(&e);
    free_record(&g);
}
