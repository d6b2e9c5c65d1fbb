/* scheduler.c: the scheduler's base (see scheduler.h, scheduler_internal.h):
 * the PEs and their state, observers, exports, data memory, the status
 * line, interrupts and the stall snapshots, the same in every PE mode. A
 * run is its mode's; the base reaches the mode only through its table. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include "core/xalloc.h"
#include "mpi/pack.h"
#include "waves/interrupt.h"

#include <stdlib.h>
#include <string.h>

wm_pe_mode wm_sched_mode(const wm_sched *s) { return s->pm->mode; }
wm_core_status wm_sched_core(const wm_sched *s, size_t pe)
{
    return s->cpes ? s->cpes[pe].core : (wm_core_status){.halt.state = WM_CORE_RUNNING};
}

char *wm_sched_fault_text(wm_mp *mp)
{
    if (!mp->fault) mp->fault = wm_xcalloc(1, FAULT_TEXT);
    return mp->fault;
}

wm_sched *wm_sched_create_with(const wm_pe_mode_ops *pm, const wm_fabric_ops *ops, wm_fabric *f,
                               const wm_layout *layout, wm_partition *part)
{
    wm_sched *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->pm = pm;
    s->ops = ops;
    s->f = f;
    s->layout = layout;
    s->part = part;
    s->n = wm_layout_count(layout);
    s->pes = calloc(s->n ? s->n : 1, sizeof *s->pes);
    s->live = calloc(s->n ? s->n : 1, sizeof *s->live);
    if (!s->pes || !s->live) {
        wm_sched_destroy(s);
        return NULL;
    }
    s->cycle = ops->cycle(f);
    if (!wm_msg_flight_init(&s->msgs, wm_layout_width(layout), wm_layout_height(layout))) {
        fprintf(stderr, "wavemesh: out of memory for the count of messages in flight\n");
        wm_sched_destroy(s);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++) {
        wm_mp *mp = &s->pes[i];
        mp->s = s;
        mp->index = i;
        mp->inst = wm_layout_instance(layout, i);
        mp->state = WM_PE_RUNNING;
        if (wm_sched_pe_here(s, i)) s->live[s->nlive++] = i;
    }
    s->live_all = s->n;
    if (!pm->init(s)) {
        wm_sched_destroy(s);
        return NULL;
    }
    return s;
}

void wm_sched_destroy(wm_sched *s)
{
    if (!s) return;
    for (size_t i = 0; s->pes && i < s->n; i++) {
        free(s->pes[i].exports);
        free(s->pes[i].fault);
        if (s->pes[i].mem_owned) free(s->pes[i].mem);
    }
    s->pm->free(s);
    free(s->pes);
    free(s->live);
    free(s->snap);
    free(s->prev_snap);
    wm_msg_flight_free(&s->msgs);
    for (size_t i = 0; i < s->nnames; i++) free(s->names[i]);
    free(s->names);
    free(s->events);
    free(s);
}

void wm_sched_step(const wm_sched *s)
{
    s->ops->step(s->f);
    if (s->part) wm_partition_exchange(s->part, s->ops, s->f, s->ops->cycle(s->f));
}

/* One push or pop, as it travels between ranks: at is the scheduler's
 * cycle it was noted in, the order of one process's calls being by at,
 * then by key, a push before a pop. */
struct wm_msg_event {
    uint64_t at, key, tile, cycle, site;
    uint32_t wavelet;
    uint8_t pop, host_site;
};

/* The pushes and pops the ranks hold, summed, that make them trade them:
 * they are counted only where read (the reports, once the run is over),
 * and a rank holds at most about this many between two trades. */
enum { EVENTS_TRADED_AT = 1 << 14 };

/* The start of this program's code: a native site travels as its
 * distance from it, the same in every rank's process. */
extern const char __executable_start[];

static void note_event(wm_sched *s, const struct wm_msg_event *e)
{
    if (s->nevents == s->cap_events) {
        s->cap_events = s->cap_events ? 2 * s->cap_events : 64;
        s->events = wm_xrealloc(s->events, s->cap_events * sizeof *s->events);
    }
    s->events[s->nevents++] = *e;
}

void wm_sched_msg_push(wm_sched *s, uint64_t key, size_t tile, uint32_t wavelet, uint64_t cycle, uint64_t site,
                       bool host_site)
{
    if (!s->part) {
        wm_msg_flight_push(&s->msgs, tile, wavelet, cycle, site);
        return;
    }
    struct wm_msg_event e = {s->cycle, key, tile, cycle, site, wavelet, 0, host_site};
    if (host_site && site) e.site = site - (uint64_t)(uintptr_t)__executable_start;
    note_event(s, &e);
}

void wm_sched_msg_pop(wm_sched *s, uint64_t key, size_t tile, uint32_t wavelet, uint64_t cycle)
{
    if (!s->part) {
        wm_msg_flight_pop(&s->msgs, tile, wavelet, cycle);
        return;
    }
    const struct wm_msg_event e = {s->cycle, key, tile, cycle, 0, wavelet, 1, 0};
    note_event(s, &e);
}

static int event_cmp(const void *a, const void *b)
{
    const struct wm_msg_event *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (int)x->pop - (int)y->pop;
}

/* Every rank's pushes and pops since the last trade, counted here in one
 * process's order. */
static void count_events(wm_sched *s)
{
    size_t total = 0;
    char *all = wm_partition_allgather(s->part, s->events, s->nevents * sizeof *s->events, &total, s->cycle);
    s->nevents = 0;
    struct wm_msg_event *e = (struct wm_msg_event *)(void *)all;
    const size_t n = total / sizeof *e;
    if (n) qsort(e, n, sizeof *e, event_cmp);
    for (size_t i = 0; i < n; i++) {
        if (e[i].pop) {
            wm_msg_flight_pop(&s->msgs, e[i].tile, e[i].wavelet, e[i].cycle);
        } else {
            const uint64_t site =
                e[i].host_site && e[i].site ? e[i].site + (uint64_t)(uintptr_t)__executable_start : e[i].site;
            wm_msg_flight_push(&s->msgs, e[i].tile, e[i].wavelet, e[i].cycle, site);
        }
    }
    free(all);
}

void wm_sched_agree(wm_sched *s, wm_sched_tally *t)
{
    if (!s->part) return;
    uint64_t v[8] = {t->faulted, t->live, t->blocked_recv, t->blocked, t->acted, t->busy, t->stop, s->nevents};
    wm_partition_sum(s->part, v, 8, s->cycle);
    *t = (wm_sched_tally){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
    if (t->events >= EVENTS_TRADED_AT) count_events(s);
}

void wm_sched_set_observer(wm_sched *s, const wm_sched_observer *obs, void *ctx)
{
    if (obs)
        s->obs = *obs;
    else
        memset(&s->obs, 0, sizeof s->obs);
    s->obs_ctx = ctx;
}

void wm_sched_set_profiler(wm_sched *s, const wm_sched_profiler *p, void *ctx)
{
    if (p)
        s->prof = *p;
    else
        memset(&s->prof, 0, sizeof s->prof);
    s->prof_ctx = ctx;
}

const char *wm_sched_pe_call(const wm_sched *s, size_t pe) { return s->pes[pe].func; }

static int flight_cmp(const wm_flight *a, const wm_flight *b)
{
    if (a->x != b->x) return a->x - b->x;
    if (a->y != b->y) return a->y - b->y;
    if (a->place != b->place) return a->place - b->place;
    if (a->port != b->port) return a->port - b->port;
    if (a->count != b->count) return a->count - b->count;
    return a->head < b->head ? -1 : a->head > b->head;
}

bool wm_sched_snapshot_unchanged(wm_sched *s)
{
    size_t n = s->ops->in_flight(s->f, s->snap, s->snap_cap);
    if (n > s->snap_cap) {
        size_t cap = n * 2;
        wm_flight *a = realloc(s->snap, cap * sizeof *a), *b;
        if (a) s->snap = a;
        b = realloc(s->prev_snap, cap * sizeof *b);
        if (b) s->prev_snap = b;
        if (!a || !b) return false;
        s->snap_cap = cap;
        s->prev_snap_n = (size_t)-1; /* cannot compare with a truncated one */
        n = s->ops->in_flight(s->f, s->snap, s->snap_cap);
    }
    bool same = n == s->prev_snap_n;
    for (size_t i = 0; same && i < n; i++) same = flight_cmp(&s->snap[i], &s->prev_snap[i]) == 0;
    wm_flight *t = s->prev_snap;
    s->prev_snap = s->snap;
    s->snap = t;
    s->prev_snap_n = n;
    if (s->part) {
        /* unchanged when every band is */
        uint64_t changed = !same;
        wm_partition_sum(s->part, &changed, 1, s->cycle);
        same = changed == 0;
    }
    return same;
}

static void gather(wm_sched *s);

wm_run_result wm_sched_run(wm_sched *s, uint64_t max_cycles)
{
    s->prev_snap_n = (size_t)-1;
    wm_progress_begin(&s->progress, s->ops->cycle(s->f));
    const wm_run_result r = s->pm->run(s, max_cycles);
    wm_progress_end(&s->progress);
    if (s->part) {
        /* every rank returns in the same cycle, the one the tally ended */
        count_events(s);
        gather(s);
    }
    return r;
}

void wm_sched_count_messages(wm_sched *s) { s->msgs_wanted = true; }

bool wm_sched_messages_in_flight(const wm_sched *s, uint64_t *n)
{
    if (!s->msgs_kept) return false;
    *n = wm_msg_flight_count(&s->msgs);
    return true;
}

void wm_sched_progress(wm_sched *s)
{
    if (!wm_progress_due(&s->progress)) return;
    enum { PLACES = 4096 };
    static wm_flight places[PLACES];
    const size_t n = s->ops->in_flight(s->f, places, PLACES);
    size_t wavelets = 0;
    for (size_t i = 0; i < n && i < PLACES; i++) wavelets += places[i].count;
    char text[160], messages[60] = "";
    /* Messages, when counted (a backend that cannot pass its core events
     * on leaves the cores' uncounted), then the wavelets on their way. */
    uint64_t in_flight;
    if (wm_sched_messages_in_flight(s, &in_flight))
        snprintf(messages, sizeof messages, "%llu messages (", (unsigned long long)in_flight);
    snprintf(text, sizeof text, "%s%s%zu wavelets%s in flight, %zu of %zu PEs running", messages,
             n > PLACES ? "over " : "", wavelets, messages[0] ? ")" : "", s->nlive, s->n);
    wm_progress_show(&s->progress, s->cycle, text);
}

bool wm_sched_interrupted(const wm_sched *s)
{
    (void)s;
    return wm_interrupt_pending();
}

uint64_t wm_sched_cycle(const wm_sched *s) { return s->cycle; }

bool wm_sched_set_debugger(wm_sched *s, const wm_sched_debugger *d, void *ctx)
{
    if (s->pm->mode != WM_PE_CORE) return false;
    if (d && s->jitter_seed) return false; /* both would hold cores (wm_sched_set_jitter) */
    s->dbg = d ? *d : (wm_sched_debugger){0};
    s->dbg_ctx = ctx;
    return true;
}

wm_fabric *wm_sched_fabric(const wm_sched *s) { return s->f; }

const wm_fabric_ops *wm_sched_fabric_ops(const wm_sched *s) { return s->ops; }

const char *wm_pe_state_name(wm_pe_state st)
{
    switch (st) {
    case WM_PE_RUNNING: return "running";
    case WM_PE_COMPUTING: return "computing";
    case WM_PE_BLOCKED_SEND: return "blocked on send";
    case WM_PE_BLOCKED_RECV: return "blocked on receive";
    case WM_PE_DONE: return "done";
    case WM_PE_FAULT: return "fault";
    }
    return "?";
}

size_t wm_sched_pe_count(const wm_sched *s) { return s->n; }
const wm_instance *wm_sched_pe_instance(const wm_sched *s, size_t pe) { return s->pes[pe].inst; }
bool wm_sched_pe_end(const wm_sched *s, size_t pe, uint64_t *cycle)
{
    const wm_mp *mp = &s->pes[pe];
    if (mp->state != WM_PE_DONE && mp->state != WM_PE_FAULT) return false;
    *cycle = mp->end_cycle;
    return true;
}

wm_pe_state wm_sched_pe_state(const wm_sched *s, size_t pe) { return s->pes[pe].state; }

const wm_export *wm_sched_pe_exports(const wm_sched *s, size_t pe, size_t *count)
{
    *count = s->pes[pe].nexports;
    return s->pes[pe].exports;
}

bool wm_sched_result(const wm_sched *s, const char *instance, const char *name, int64_t *value)
{
    for (size_t i = 0; i < s->n; i++) {
        const wm_mp *mp = &s->pes[i];
        if (strcmp(mp->inst->name, instance)) continue;
        for (size_t e = 0; e < mp->nexports; e++) {
            if (!strcmp(mp->exports[e].name, name)) {
                *value = mp->exports[e].value;
                return true;
            }
        }
    }
    return false;
}

void wm_sched_set_memory(wm_sched *s, size_t pe, uint32_t *words)
{
    wm_mp *mp = &s->pes[pe];
    if (mp->mem_owned) free(mp->mem);
    mp->mem = words;
    mp->mem_owned = false;
}

/* ------------------------------------------------------------ the end of a partitioned run
 * Each rank's PEs' states, end cycles, exports, faults, cores and data
 * memories, packed into bytes and brought to rank 0, which then holds
 * every PE as one process would. */

/* A name another rank's kernel exported, as a pointer for as long as s:
 * the kernel's own, when its list has it, else a copy s keeps. */
static const char *intern(wm_sched *s, const wm_instance *in, const char *name, size_t n)
{
    for (const char *const *e = in->kernel->exports; e && *e; e++)
        if (strlen(*e) == n && !memcmp(*e, name, n)) return *e;
    for (size_t i = 0; i < s->nnames; i++)
        if (strlen(s->names[i]) == n && !memcmp(s->names[i], name, n)) return s->names[i];
    s->names = wm_xrealloc(s->names, (s->nnames + 1) * sizeof *s->names);
    char *copy = wm_xmalloc(n + 1);
    memcpy(copy, name, n);
    copy[n] = '\0';
    return s->names[s->nnames++] = copy;
}

/* One PE of this rank. */
static void pack_pe(const wm_sched *s, const wm_mp *mp, wm_pack *p)
{
    wm_pack_u64(p, mp->index);
    wm_pack_u64(p, (uint64_t)mp->state);
    wm_pack_u64(p, mp->end_cycle);
    wm_pack_u64(p, mp->blocked_since);
    wm_pack_u64(p, mp->nexports);
    for (size_t e = 0; e < mp->nexports; e++) {
        wm_pack_text(p, mp->exports[e].name);
        wm_pack_u64(p, (uint64_t)mp->exports[e].value);
        wm_pack_u64(p, mp->exports[e].cycle);
    }
    wm_pack_text(p, mp->fault);
    wm_pack_u64(p, s->cpes != NULL);
    if (s->cpes) wm_pack_put(p, &s->cpes[mp->index].core, sizeof s->cpes[mp->index].core);
    /* The data memory, when the PE has one (a caller reads it back after
     * the run: gs), up to its last word that is not zero: the rest is. */
    size_t words = 0;
    if (mp->mem)
        for (words = WM_PE_DATA_WORDS; words > 0 && !mp->mem[words - 1]; words--) {
        }
    wm_pack_u64(p, mp->mem != NULL);
    wm_pack_u64(p, words);
    if (words) wm_pack_put(p, mp->mem, words * sizeof *mp->mem);
}

/* Rank 0's copy of another rank's PE's data memory: words of it, zeros
 * above. */
static void unpack_memory(wm_mp *mp, wm_unpack *u)
{
    const bool has = wm_unpack_u64(u) != 0;
    const size_t words = wm_unpack_count(u, sizeof *mp->mem);
    if (!has || words > WM_PE_DATA_WORDS) {
        u->at += words * sizeof *mp->mem;
        return;
    }
    if (!mp->mem) {
        mp->mem = wm_xcalloc(WM_PE_DATA_WORDS, sizeof *mp->mem);
        mp->mem_owned = true;
    }
    wm_unpack_get(u, mp->mem, words * sizeof *mp->mem);
    memset(mp->mem + words, 0, (WM_PE_DATA_WORDS - words) * sizeof *mp->mem);
}

/* One PE of another rank, into rank 0's. */
static void unpack_pe(wm_sched *s, wm_unpack *u)
{
    const uint64_t index = wm_unpack_u64(u);
    if (index >= s->n) {
        u->at = u->end;
        return;
    }
    wm_mp *mp = &s->pes[index];
    mp->state = (wm_pe_state)wm_unpack_u64(u);
    mp->end_cycle = wm_unpack_u64(u);
    mp->blocked_since = wm_unpack_u64(u);
    /* an export takes a length, a value and a cycle at least */
    const size_t nexports = wm_unpack_count(u, 3 * sizeof(uint64_t));
    free(mp->exports);
    mp->exports = nexports ? wm_xcalloc(nexports, sizeof *mp->exports) : NULL;
    mp->nexports = mp->cap_exports = nexports;
    for (size_t e = 0; e < nexports; e++) {
        size_t n;
        const char *name = wm_unpack_text(u, &n);
        mp->exports[e].name = intern(s, mp->inst, name, n);
        mp->exports[e].value = (int64_t)wm_unpack_u64(u);
        mp->exports[e].cycle = wm_unpack_u64(u);
    }
    size_t n;
    const char *fault = wm_unpack_text(u, &n);
    if (n) {
        snprintf(wm_sched_fault_text(mp), FAULT_TEXT, "%.*s", (int)n, fault);
    }
    if (wm_unpack_u64(u) && s->cpes) wm_unpack_get(u, &s->cpes[index].core, sizeof s->cpes[index].core);
    unpack_memory(mp, u);
}

static void gather(wm_sched *s)
{
    wm_pack p = {0};
    /* rank 0 holds its own PEs already */
    for (size_t i = 0; i < s->n && wm_partition_rank(s->part) != 0; i++)
        if (wm_sched_pe_here(s, i)) pack_pe(s, &s->pes[i], &p);
    size_t total = 0;
    char *all = wm_partition_gather(s->part, p.bytes, p.len, &total, s->cycle);
    free(p.bytes);
    if (!all) return;
    wm_unpack u = {all, all + total};
    while (u.at < u.end) unpack_pe(s, &u);
    free(all);
    s->live_all = 0;
    for (size_t i = 0; i < s->n; i++)
        s->live_all += s->pes[i].state != WM_PE_DONE && s->pes[i].state != WM_PE_FAULT;
}
