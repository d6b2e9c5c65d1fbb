/* regress.c: runs a scenario on two backends and finds the first divergence.
 *
 * First pass: each backend runs the scenario with a digest recorder; the
 * digests name the first cycle where the traces differ. Second pass, only
 * on a mismatch: both run again capturing that cycle whole, which gives
 * the first divergent event without keeping millions of events around.
 */
#include "regress/regress.h"

#include "core/rv32_asm.h"
#include "waves/interrupt.h"

#include <inttypes.h>
#include <setjmp.h>
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
    /* wm_regress_judge: how the run ended, when not as expected, and why */
    bool judged_wrong;
    wm_ending ending, expected;
    uint64_t ending_cycle;
    char *report;
    /* wm_regress_fault: the first property the run broke, or "" */
    char fault[600];
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

void wm_regress_judge(wm_regress_results *r, const wm_sched *s, wm_run_result res, wm_ending expected)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    const uint64_t cycle = wm_sched_cycle(s);
    const wm_ending e = wm_sched_ending(s, res, mem ? mem : stderr);
    if (mem) fclose(mem);
    wm_regress_result(r, "ending", (uint64_t)e);
    if (e != expected && !r->judged_wrong) {
        r->judged_wrong = true;
        r->ending = e;
        r->expected = expected;
        r->ending_cycle = cycle;
        r->report = text;
        text = NULL;
    }
    free(text);
}

void wm_regress_fault(wm_regress_results *r, const char *why)
{
    if (!r->fault[0]) snprintf(r->fault, sizeof r->fault, "%s", why);
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

typedef enum { STOP_NONE = 0, STOP_CAP, STOP_ASSERTION, STOP_INTERRUPT } stop_reason;

/* The last instruction a core retired at or before the captured cycle. */
typedef struct {
    bool valid;
    uint64_t cycle;
    uint32_t pc, insn;
} last_retire;

typedef struct {
    wm_trace *trace;
    /* Cores: their eventful cycles as pseudo link events (core_record), so
     * the same digests find the first cycle where two runs' cores differ. */
    wm_trace *core_trace;
    uint64_t capture;
    unsigned w;
    last_retire *last; /* w * h */
    wm_regress_results results;
    uint64_t cycles;
    bool ran;
    stop_reason stop; /* why the run was cut short, at stop_at */
    uint64_t stop_at;
} run_record;

/* The scenario runs on a copy of the backend's table whose step looks,
 * after each edge, for the three reasons to stop it: a signal, a failed
 * RTL assertion, the scenario's cap. Any of them jumps straight back to
 * run_guarded, since the scenario's own loop may never come back (a gs
 * kernel waiting for words a broken fabric lost). One scenario runs at a
 * time, so the guard is one static. */
static struct {
    const wm_fabric_ops *inner;
    wm_fabric_ops ops;
    uint64_t cap;
    jmp_buf jb;
    stop_reason why;
    uint64_t at;
} guard;

static void guarded_step(wm_fabric *f)
{
    guard.inner->step(f);
    uint64_t at = guard.inner->cycle(f), asserted_at;
    if (wm_interrupt_signal()) {
        guard.why = STOP_INTERRUPT;
    } else if (wm_interrupt_assertion(&asserted_at)) {
        guard.why = STOP_ASSERTION;
        at = asserted_at;
    } else if (at >= guard.cap) {
        guard.why = STOP_CAP;
    } else {
        return;
    }
    guard.at = at;
    longjmp(guard.jb, 1);
}

/* s->run on f under the guard; false when it could not run or was stopped
 * (rec->stop says which). */
static bool run_guarded(const wm_regress_scenario *s, const wm_fabric_ops *ops, wm_fabric *f, run_record *rec)
{
    guard.inner = ops;
    guard.ops = *ops;
    guard.ops.step = guarded_step;
    guard.cap = s->cap;
    guard.why = STOP_NONE;
    guard.at = 0;
    wm_interrupt_clear_assertion();
    if (setjmp(guard.jb)) {
        rec->stop = guard.why;
        rec->stop_at = guard.at;
        wm_interrupt_clear_assertion();
        return false;
    }
    const bool ok = s->run(&guard.ops, f, s->w, s->h, s->arg, &rec->results);
    /* A scheduler inside the scenario sees a signal before the step does,
     * and ends its run without another step. */
    if (wm_interrupt_signal()) {
        rec->stop = STOP_INTERRUPT;
        rec->stop_at = ops->cycle(f);
        return false;
    }
    return ok;
}

/* Pseudo ports of a core event in core_trace. */
enum { CORE_RETIRE_PC = 8, CORE_RETIRE_INSN, CORE_RD, CORE_PUSH, CORE_POP, CORE_NPORTS };

static void core_record(void *ctx, const wm_core_event *ev)
{
    run_record *rec = ctx;
    wm_link_event le = {ev->cycle, ev->x, ev->y, 0, 0};
    if (ev->what.retire) {
        le.port = CORE_RETIRE_PC;
        le.data = ev->what.retire_pc;
        wm_trace_record(rec->core_trace, &le);
        le.port = CORE_RETIRE_INSN;
        le.data = ev->what.retire_insn;
        wm_trace_record(rec->core_trace, &le);
        if (ev->cycle <= rec->capture || rec->capture == UINT64_MAX)
            rec->last[(size_t)ev->y * rec->w + ev->x] =
                (last_retire){true, ev->cycle, ev->what.retire_pc, ev->what.retire_insn};
    }
    if (ev->what.rd_we) {
        le.port = CORE_RD;
        le.data = ev->what.rd_data ^ ((uint32_t)ev->what.rd << 27);
        wm_trace_record(rec->core_trace, &le);
    }
    if (ev->what.push) {
        le.port = CORE_PUSH;
        le.data = ev->what.push_data;
        wm_trace_record(rec->core_trace, &le);
    }
    if (ev->what.pop) {
        le.port = CORE_POP;
        le.data = 1;
        wm_trace_record(rec->core_trace, &le);
    }
}

static void run_once(const wm_regress_scenario *s, const wm_fabric_ops *ops, uint64_t capture, run_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->results.ok = true;
    rec->capture = capture;
    rec->w = s->w;
    rec->trace = wm_trace_create();
    rec->core_trace = wm_trace_create();
    rec->last = calloc((size_t)s->w * s->h, sizeof *rec->last);
    if (!rec->trace || !rec->core_trace || !rec->last) return;
    wm_trace_capture(rec->trace, capture);
    wm_trace_capture(rec->core_trace, capture);
    if (s->cores && !ops->create_cores) {
        fprintf(stderr, "regress: the %s backend has no PE cores\n", ops->name);
        return;
    }
    wm_fabric *f = wm_interrupt_fabric_create(ops, s->w, s->h, s->cores);
    if (!f) return;
    ops->set_link_hook(f, wm_trace_record, rec->trace);
    if (s->cores) ops->set_core_hook(f, core_record, rec);
    rec->ran = run_guarded(s, ops, f, rec) && rec->results.ok && wm_trace_ok(rec->trace) &&
               wm_trace_ok(rec->core_trace);
    rec->cycles = ops->cycle(f);
    ops->destroy(f);
}

static void free_record(run_record *rec)
{
    wm_trace_destroy(rec->trace);
    wm_trace_destroy(rec->core_trace);
    free(rec->last);
    free(rec->results.words);
    free(rec->results.report);
}

/* " (core: expected pc P insn I (text), got ...)" for tile (x, y). */
static void describe_cores(const run_record *e, const run_record *g, unsigned x, unsigned y, char *buf, size_t size)
{
    const last_retire *a = &e->last[(size_t)y * e->w + x], *b = &g->last[(size_t)y * g->w + x];
    char ta[64] = "", tb[64] = "", sa[120] = "nothing retired", sb[120] = "nothing retired";
    if (a->valid) {
        rv_disasm(a->insn, ta, sizeof ta);
        snprintf(sa, sizeof sa, "pc 0x%08" PRIx32 " %08" PRIx32 " (%s) at cycle %" PRIu64, a->pc, a->insn, ta, a->cycle);
    }
    if (b->valid) {
        rv_disasm(b->insn, tb, sizeof tb);
        snprintf(sb, sizeof sb, "pc 0x%08" PRIx32 " %08" PRIx32 " (%s) at cycle %" PRIu64, b->pc, b->insn, tb, b->cycle);
    }
    snprintf(buf, size, "; core (%u,%u) last retired: expected %s, got %s", x, y, sa, sb);
}

static const char *core_port_name(unsigned port)
{
    switch (port) {
    case CORE_RETIRE_PC: return "retired pc";
    case CORE_RETIRE_INSN: return "retired instruction";
    case CORE_RD: return "register write (rd<<27 ^ value)";
    case CORE_PUSH: return "TX push";
    case CORE_POP: return "RX pop";
    }
    return "?";
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

/* text with every line indented by two spaces, into out (cut at size). */
static void indent(const char *text, char *out, size_t size)
{
    size_t n = 0;
    bool start = true;
    for (const char *c = text ? text : ""; *c && n + 4 < size; c++) {
        if (start) out[n++] = ' ', out[n++] = ' ';
        out[n++] = *c;
        start = *c == '\n';
    }
    if (n && out[n - 1] != '\n' && n + 1 < size) out[n++] = '\n';
    out[n] = '\0';
}

void wm_regress_run(const wm_regress_scenario *s, const wm_fabric_ops *expected, const wm_fabric_ops *got,
                    wm_regress_report *rep)
{
    memset(rep, 0, sizeof *rep);
    run_record e, g;
    run_once(s, expected, UINT64_MAX, &e);
    if (e.stop == STOP_INTERRUPT) memset(&g, 0, sizeof g);
    else run_once(s, got, UINT64_MAX, &g);
    rep->cycles = e.cycles;
    rep->events = e.trace ? wm_trace_event_count(e.trace) : 0;
    char why[700];
    uint64_t cycle;
    if (e.stop || g.stop) {
        const run_record *r = e.stop ? &e : &g;
        const char *backend = e.stop ? expected->name : got->name;
        if (r->stop == STOP_INTERRUPT) {
            rep->interrupted = true;
            char text[200];
            wm_interrupt_describe(text, sizeof text);
            snprintf(why, sizeof why, "%s at cycle %" PRIu64 " of the %s run", text, r->stop_at, backend);
            wm_interrupt_note_reported();
        } else if (r->stop == STOP_ASSERTION) {
            rep->asserted = true;
            snprintf(why, sizeof why,
                     "an RTL assertion failed on the %s backend in the edge to cycle %" PRIu64
                     " (the simulator's message is above)",
                     backend, r->stop_at);
        } else {
            rep->capped = true;
            snprintf(why, sizeof why,
                     "the %s run reached the scenario's cap of %" PRIu64
                     " cycles (10 x a correct run's, + 10000): it does not end, or its cap in regress_corpus.c is "
                     "out of date",
                     backend, s->cap);
        }
    } else if (!e.ran || !g.ran) {
        rep->could_not_run = true;
        snprintf(why, sizeof why, "could not run on the %s backend", !e.ran ? expected->name : got->name);
    } else if (wm_trace_first_difference(e.trace, g.trace, &cycle)) {
        run_record e2, g2;
        run_once(s, expected, cycle, &e2);
        run_once(s, got, cycle, &g2);
        rep->diverged = e2.ran && g2.ran && wm_trace_first_divergence(e2.trace, g2.trace, &rep->first);
        if (rep->diverged) {
            char at[200], cores[400] = "";
            wm_divergence_format(&rep->first, at, sizeof at);
            if (s->cores) describe_cores(&e2, &g2, rep->first.x, rep->first.y, cores, sizeof cores);
            snprintf(why, sizeof why, "first divergence at %s%s", at, cores);
        } else {
            rep->could_not_run = true;
            snprintf(why, sizeof why, "traces differ at cycle %" PRIu64 " but not when run again: nondeterministic",
                     cycle);
        }
        free_record(&e2);
        free_record(&g2);
    } else if (s->cores && wm_trace_first_difference(e.core_trace, g.core_trace, &cycle)) {
        run_record e2, g2;
        run_once(s, expected, cycle, &e2);
        run_once(s, got, cycle, &g2);
        wm_divergence d;
        rep->core_diverged = e2.ran && g2.ran && wm_trace_first_divergence(e2.core_trace, g2.core_trace, &d);
        if (rep->core_diverged) {
            char ev[32] = "nothing", gv[32] = "nothing", cores[400];
            if (d.has_expected) snprintf(ev, sizeof ev, "%08" PRIx32, d.expected);
            if (d.has_got) snprintf(gv, sizeof gv, "%08" PRIx32, d.got);
            describe_cores(&e2, &g2, d.x, d.y, cores, sizeof cores);
            snprintf(why, sizeof why, "first core divergence at cycle %" PRIu64 " core (%u,%u) %s: expected %s, got %s%s",
                     d.cycle, d.x, d.y, core_port_name(d.port), ev, gv, cores);
        } else {
            rep->could_not_run = true;
            snprintf(why, sizeof why, "core traces differ at cycle %" PRIu64 " but not when run again", cycle);
        }
        free_record(&e2);
        free_record(&g2);
    } else if (e.cycles != g.cycles) {
        rep->result_differs = true;
        snprintf(why, sizeof why, "expected a run of %" PRIu64 " cycles, got %" PRIu64, e.cycles, g.cycles);
    } else if (compare_results(&e.results, &g.results, why, sizeof why)) {
        rep->result_differs = true;
    } else if (e.results.fault[0]) {
        /* Agreement is not correctness: both broke the same property. */
        rep->run_failed = true;
        snprintf(why, sizeof why, "both backends agree, but %s", e.results.fault);
    } else if (e.results.judged_wrong) {
        /* Agreement is not correctness: both ran the same wrong run. */
        const wm_regress_results *j = &e.results;
        rep->run_failed = true;
        if (j->expected == WM_END_RETURNED)
            snprintf(why, sizeof why, "both backends agree, but the run ended with %s at cycle %" PRIu64,
                     wm_ending_phrase(j->ending), j->ending_cycle);
        else
            snprintf(why, sizeof why,
                     "both backends agree, but the run ended with %s at cycle %" PRIu64 ", not with %s (`expect %s`)",
                     wm_ending_phrase(j->ending), j->ending_cycle, wm_ending_phrase(j->expected),
                     wm_ending_word(j->expected));
        indent(j->report, rep->detail, sizeof rep->detail);
    } else {
        rep->passed = true;
    }
    if (!rep->interrupted && wm_interrupt_signal()) {
        /* during the second pass, which looks for the first divergence */
        rep->interrupted = true;
        rep->passed = rep->diverged = rep->core_diverged = rep->could_not_run = rep->run_failed = false;
        rep->detail[0] = '\0';
        wm_interrupt_describe(why, sizeof why);
        wm_interrupt_note_reported();
    }
    if (rep->passed)
        snprintf(rep->line, sizeof rep->line, "PASS %-24s %3ux%-3u %7" PRIu64 " cycles %9" PRIu64 " events", s->name,
                 s->w, s->h, rep->cycles, rep->events);
    else
        snprintf(rep->line, sizeof rep->line, "FAIL %s %ux%u: %s", s->name, s->w, s->h, why);
    free_record(&e);
    free_record(&g);
}
