/* collect.c: a run's profile, read while it goes (see collect.h). */
#include "profile/collect.h"
#include "profile/critical_path.h"

#include "core/xalloc.h"
#include "mpi/pack.h"
#include "mpi/partition.h"
#include "run/ending.h"
#include "waves/fw_syms.h"
#include "cost_model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NO_PE = SIZE_MAX };

typedef struct {
    uint64_t cycle;
    uint32_t wavelet;
} port_event;

typedef struct {
    port_event *v;
    size_t n, cap;
} port_list;

typedef struct {
    wm_prof_slice *v;
    size_t n, cap;
} slice_list;

/* A kernel's cycles by PC: by_word[pc / 4] for a PC of its code (RV32IM
 * has no compressed instructions), the rare other (a jump off the code,
 * a fault) in a list. */
typedef struct {
    wm_prof_pc *by_word;
    size_t nwords;
    wm_prof_pc *other;
    size_t nother;
} pc_cycles;

/* One kernel's image on the cores: its symbols, each with its name's id,
 * the addresses of the kernel's own function (start-up ends there), and
 * the cycles of its PEs by PC. */
typedef struct {
    const char *kernel;
    wm_fw_syms syms;
    uint32_t *name_of_sym;
    uint32_t entry_lo, entry_hi;
    pc_cycles pcs;
    size_t npes;
} kernel_syms;

typedef struct {
    const wm_instance *inst;
    uint32_t kernel_func; /* name id of wm_kernel_NAME */
    uint64_t start, cursor; /* cursor: the first cycle not yet given to a slice */
    bool ended;
    uint64_t end;
    slice_list slices;
    port_list pushes, pops;
    /* the cores */
    kernel_syms *ks;
    bool entered;     /* the kernel's function has run: start-up is over */
    bool pop_pending; /* an RX load popped at pop_cycle, not yet retired */
    uint64_t pop_cycle;
    uint32_t cache_lo, cache_hi, cache_func; /* the last PC's symbol */
} pe_rec;

/* The names of functions: an id per distinct name; key is the pointer a
 * caller gave (native calls pass string literals), to find it again fast. */
typedef struct {
    char *name;
    const char *key;
} name_entry;

struct wm_profiler {
    const wm_fabric_ops *ops;
    wm_fabric *f;
    wm_sched *s;
    wm_pe_mode mode;
    pe_rec *pes;
    size_t npes;
    size_t *pe_of_tile;
    unsigned width, height;
    name_entry *names;
    size_t nnames, cap_names;
    kernel_syms *kernels;
    size_t nkernels;
    bool hooked;
    wm_core_hook prev_hook;
    void *prev_ctx;
    wm_partition *part; /* a partitioned run: this rank hears of its own PEs only */
};

/* ------------------------------------------------------------ names */

static uint32_t intern(wm_profiler *p, const char *name, const char *key)
{
    for (size_t i = 0; i < p->nnames; i++)
        if (key && p->names[i].key == key) return (uint32_t)i;
    for (size_t i = 0; i < p->nnames; i++) {
        if (!strcmp(p->names[i].name, name)) {
            if (key && !p->names[i].key) p->names[i].key = key;
            return (uint32_t)i;
        }
    }
    if (p->nnames == p->cap_names) {
        p->cap_names = p->cap_names ? 2 * p->cap_names : 32;
        p->names = wm_xrealloc(p->names, p->cap_names * sizeof *p->names);
    }
    p->names[p->nnames] = (name_entry){wm_xstrdup(name), key};
    return (uint32_t)p->nnames++;
}

/* ------------------------------------------------------------ slices */

static void port_add(port_list *l, uint64_t cycle, uint32_t wavelet)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = wm_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (port_event){cycle, wavelet};
}

/* Cycles [from, to) of PE r in func, of kind; joined to the slice before
 * when that one is the same and ends at from. */
static void slice_add(pe_rec *r, uint64_t from, uint64_t to, uint32_t func, wm_prof_kind kind)
{
    if (from >= to) return;
    slice_list *l = &r->slices;
    if (l->n) {
        wm_prof_slice *last = &l->v[l->n - 1];
        if (last->end == from && last->func == func && last->kind == kind) {
            last->end = to;
            return;
        }
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = wm_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (wm_prof_slice){from, to, func, (uint8_t)kind};
}

/* ------------------------------------------------------------ native */

static void native_charge(void *ctx, size_t pe, uint64_t from, uint64_t to, const char *func)
{
    wm_profiler *p = ctx;
    pe_rec *r = &p->pes[pe];
    const uint32_t id = func ? intern(p, func, func) : r->kernel_func;
    if (from < r->cursor) from = r->cursor;
    slice_add(r, r->cursor, from, id, WM_PROF_EXEC);
    slice_add(r, from, to, id, WM_PROF_EXEC);
    if (to > r->cursor) r->cursor = to;
}

static void native_access(void *ctx, size_t pe, uint64_t cycle, wm_sched_access what, uint32_t wavelet,
                          const char *func)
{
    wm_profiler *p = ctx;
    pe_rec *r = &p->pes[pe];
    const uint32_t id = func ? intern(p, func, func) : r->kernel_func;
    const wm_prof_kind wait = what == WM_ACCESS_PUSH  ? WM_PROF_STALL_TX
                              : what == WM_ACCESS_POP ? WM_PROF_STALL_RX
                                                      : WM_PROF_EXEC;
    slice_add(r, r->cursor, cycle, id, wait);
    slice_add(r, cycle, cycle + 1, id, WM_PROF_EXEC);
    r->cursor = cycle + 1;
    if (what == WM_ACCESS_PUSH) port_add(&r->pushes, cycle, wavelet);
    if (what == WM_ACCESS_POP) port_add(&r->pops, cycle, wavelet);
}

static void on_end(void *ctx, size_t pe, uint64_t cycle)
{
    wm_profiler *p = ctx;
    p->pes[pe].ended = true;
    p->pes[pe].end = cycle;
}

/* ------------------------------------------------------------ cores */

static uint32_t func_at(wm_profiler *p, pe_rec *r, uint32_t pc)
{
    if (pc >= r->cache_lo && pc < r->cache_hi) return r->cache_func;
    const kernel_syms *ks = r->ks;
    const long i = wm_fw_syms_find(&ks->syms, pc);
    if (i < 0 && pc >= ks->syms.code_end) {
        r->cache_lo = ks->syms.code_end;
        r->cache_hi = UINT32_MAX;
        r->cache_func = intern(p, "(outside the image's code)", NULL);
    } else if (i < 0) {
        r->cache_lo = 0;
        r->cache_hi = ks->syms.n ? ks->syms.syms[0].addr : UINT32_MAX;
        r->cache_func = intern(p, "(before the first symbol)", NULL);
    } else {
        r->cache_lo = ks->syms.syms[i].addr;
        r->cache_hi = (size_t)i + 1 < ks->syms.n ? ks->syms.syms[i + 1].addr : ks->syms.code_end;
        r->cache_func = ks->name_of_sym[i];
    }
    return r->cache_func;
}

/* The cycles [from, to) of PE r to the instruction at pc in func, of kind:
 * a slice, and the PC's count for its kernel. */
static wm_prof_pc *pc_slot(pc_cycles *pcs, uint32_t pc)
{
    wm_prof_pc *at = NULL;
    if (pc % 4 == 0 && pc / 4 < pcs->nwords) {
        at = &pcs->by_word[pc / 4];
    } else {
        for (size_t i = 0; i < pcs->nother && !at; i++)
            if (pcs->other[i].pc == pc) at = &pcs->other[i];
        if (!at) {
            pcs->other = wm_xrealloc(pcs->other, (pcs->nother + 1) * sizeof *pcs->other);
            at = &pcs->other[pcs->nother++];
            memset(at, 0, sizeof *at);
        }
    }
    at->pc = pc;
    return at;
}

static void core_charge(pe_rec *r, uint64_t from, uint64_t to, uint32_t pc, uint32_t func, wm_prof_kind kind)
{
    if (from >= to) return;
    slice_add(r, from, to, func, kind);
    wm_prof_pc *at = pc_slot(&r->ks->pcs, pc);
    at->func = func;
    at->cycles[kind] += to - from;
}

/* The instruction at pc retired in cycle c (and pushed in it, if pushed):
 * the cycles since the last retirement are its own. */
static void core_retire(wm_profiler *p, pe_rec *r, uint64_t c, uint32_t pc, bool pushed)
{
    const uint32_t func = func_at(p, r, pc);
    if (!r->entered && pc >= r->ks->entry_lo && pc < r->ks->entry_hi) r->entered = true;
    const wm_prof_kind kind = r->entered ? WM_PROF_EXEC : WM_PROF_STARTUP;
    if (r->pop_pending) {
        core_charge(r, r->cursor, r->pop_cycle, pc, func, WM_PROF_STALL_RX);
        core_charge(r, r->pop_cycle < r->cursor ? r->cursor : r->pop_cycle, c + 1, pc, func, kind);
        r->pop_pending = false;
    } else if (pushed) {
        core_charge(r, r->cursor, c, pc, func, WM_PROF_STALL_TX);
        core_charge(r, c < r->cursor ? r->cursor : c, c + 1, pc, func, kind);
    } else {
        core_charge(r, r->cursor, c + 1, pc, func, kind);
    }
    r->cursor = c + 1;
}

static void core_event(void *ctx, const wm_core_event *ev)
{
    wm_profiler *p = ctx;
    const size_t tile = (size_t)ev->y * p->width + ev->x;
    const size_t pe = ev->x < p->width && ev->y < p->height ? p->pe_of_tile[tile] : NO_PE;
    if (pe != NO_PE) {
        pe_rec *r = &p->pes[pe];
        if (ev->what.pop) {
            port_add(&r->pops, ev->cycle, ev->pop_data);
            r->pop_pending = true;
            r->pop_cycle = ev->cycle;
        }
        if (ev->what.push) port_add(&r->pushes, ev->cycle, ev->what.push_data);
        if (ev->what.retire) core_retire(p, r, ev->cycle, ev->what.retire_pc, ev->what.push);
    }
    if (p->prev_hook) p->prev_hook(p->prev_ctx, ev);
}

static kernel_syms *kernel_syms_of(wm_profiler *p, const char *kernel, char *err, size_t err_size)
{
    for (size_t i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].kernel, kernel)) return &p->kernels[i];
    kernel_syms ks;
    memset(&ks, 0, sizeof ks);
    ks.kernel = kernel;
    if (!wm_fw_syms_load_kernel(kernel, &ks.syms, err, err_size)) return NULL;
    ks.name_of_sym = wm_xcalloc(ks.syms.n ? ks.syms.n : 1, sizeof *ks.name_of_sym);
    ks.pcs.nwords = ks.syms.code_end / 4;
    ks.pcs.by_word = wm_xcalloc(ks.pcs.nwords ? ks.pcs.nwords : 1, sizeof *ks.pcs.by_word);
    char entry[256];
    snprintf(entry, sizeof entry, "wm_kernel_%s", kernel);
    ks.entry_lo = ks.entry_hi = 0;
    for (size_t i = 0; i < ks.syms.n; i++) {
        ks.name_of_sym[i] = intern(p, ks.syms.syms[i].name, NULL);
        if (!strcmp(ks.syms.syms[i].name, entry)) {
            ks.entry_lo = ks.syms.syms[i].addr;
            ks.entry_hi = i + 1 < ks.syms.n ? ks.syms.syms[i + 1].addr : UINT32_MAX;
        }
    }
    p->kernels = wm_xrealloc(p->kernels, (p->nkernels + 1) * sizeof *p->kernels);
    p->kernels[p->nkernels] = ks;
    return &p->kernels[p->nkernels++];
}

/* ------------------------------------------------------------ attach */

static const wm_sched_profiler native_listener = {
    .on_charge = native_charge,
    .on_access = native_access,
    .on_end = on_end,
};
static const wm_sched_profiler core_listener = {.on_end = on_end};

static void free_profiler(wm_profiler *p)
{
    for (size_t i = 0; i < p->npes; i++) {
        free(p->pes[i].slices.v);
        free(p->pes[i].pushes.v);
        free(p->pes[i].pops.v);
    }
    for (size_t i = 0; i < p->nkernels; i++) {
        wm_fw_syms_free(&p->kernels[i].syms);
        free(p->kernels[i].name_of_sym);
        free(p->kernels[i].pcs.by_word);
        free(p->kernels[i].pcs.other);
    }
    for (size_t i = 0; i < p->nnames; i++) free(p->names[i].name);
    free(p->names);
    free(p->kernels);
    free(p->pes);
    free(p->pe_of_tile);
    free(p);
}

static void detach(wm_profiler *p)
{
    wm_sched_set_profiler(p->s, NULL, NULL);
    if (p->hooked) p->ops->set_core_hook(p->f, p->prev_hook, p->prev_ctx);
    p->hooked = false;
}

void wm_profiler_destroy(wm_profiler *p)
{
    if (!p) return;
    detach(p);
    free_profiler(p);
}

wm_profiler *wm_profiler_attach(wm_runner *r, const wm_fabric_ops *ops, char *err, size_t err_size)
{
    return wm_profiler_attach_sched(wm_runner_sched(r), ops, wm_runner_fabric(r), err, err_size);
}

wm_profiler *wm_profiler_attach_sched(wm_sched *s, const wm_fabric_ops *ops, wm_fabric *f, char *err,
                                      size_t err_size)
{
    wm_profiler *p = wm_xcalloc(1, sizeof *p);
    p->ops = ops;
    p->f = f;
    p->s = s;
    p->mode = wm_sched_mode(p->s);
    p->npes = wm_sched_pe_count(p->s);
    p->pes = wm_xcalloc(p->npes ? p->npes : 1, sizeof *p->pes);
    unsigned w = 0, h = 0;
    for (size_t i = 0; i < p->npes; i++) {
        const wm_instance *in = wm_sched_pe_instance(p->s, i);
        if (in->x + 1u > w) w = in->x + 1u;
        if (in->y + 1u > h) h = in->y + 1u;
    }
    p->width = w;
    p->height = h;
    const size_t ntiles = (size_t)w * h;
    p->pe_of_tile = wm_xmalloc((ntiles ? ntiles : 1) * sizeof *p->pe_of_tile);
    for (size_t t = 0; t < ntiles; t++) p->pe_of_tile[t] = NO_PE;
    const uint64_t now = ops->cycle(p->f);
    for (size_t i = 0; i < p->npes; i++) {
        pe_rec *rec = &p->pes[i];
        rec->inst = wm_sched_pe_instance(p->s, i);
        p->pe_of_tile[(size_t)rec->inst->y * w + rec->inst->x] = i;
        char name[256];
        snprintf(name, sizeof name, "wm_kernel_%s", rec->inst->kernel->name);
        rec->kernel_func = intern(p, name, NULL);
        rec->start = rec->cursor = now;
        if (p->mode == WM_PE_NATIVE) {
            /* What the cost model charges before the kernel (native_sched.c). */
            slice_add(rec, now, now + WM_COST_START, intern(p, "_start", NULL), WM_PROF_STARTUP);
            rec->cursor = now + WM_COST_START;
        } else {
            rec->cache_hi = 0;
            if (!(rec->ks = kernel_syms_of(p, rec->inst->kernel->name, err, err_size))) {
                free_profiler(p);
                return NULL;
            }
        }
    }
    if (p->mode == WM_PE_CORE) {
        /* The kernels' array moved as it grew: point every PE at its final place. */
        for (size_t i = 0; i < p->npes; i++)
            for (size_t k = 0; k < p->nkernels; k++)
                if (!strcmp(p->kernels[k].kernel, p->pes[i].inst->kernel->name)) {
                    p->pes[i].ks = &p->kernels[k];
                    p->kernels[k].npes++;
                }
        if (!ops->get_core_hook || !ops->set_core_hook) {
            snprintf(err, err_size, "the %s backend cannot pass its cores' events on", ops->name);
            free_profiler(p);
            return NULL;
        }
        p->prev_hook = ops->get_core_hook(p->f, &p->prev_ctx);
        ops->set_core_hook(p->f, core_event, p);
        p->hooked = true;
        wm_sched_set_profiler(p->s, &core_listener, p);
    } else {
        wm_sched_set_profiler(p->s, &native_listener, p);
    }
    return p;
}

/* ------------------------------------------------------------ finish */

/* PE r's slices cut at cycle end: a native kernel charges ahead of the
 * loop, past the end of a run cut short. */
static void clip(pe_rec *r, uint64_t end)
{
    slice_list *l = &r->slices;
    while (l->n && l->v[l->n - 1].start >= end) l->n--;
    if (l->n && l->v[l->n - 1].end > end) l->v[l->n - 1].end = end;
    if (r->cursor > end) r->cursor = end;
}

/* A kernel not done when the run ended ends with it: its last cycles go
 * to what it waits for, in the function it is in. */
static void close_pe(wm_profiler *p, pe_rec *r, size_t i, uint64_t run_end)
{
    if (!r->ended) {
        r->end = run_end;
        clip(r, run_end);
    }
    if (r->end < r->cursor) r->end = r->cursor;
    if (r->cursor == r->end) return;
    const wm_pe_state st = wm_sched_pe_state(p->s, i);
    wm_prof_kind kind = st == WM_PE_BLOCKED_RECV   ? WM_PROF_STALL_RX
                        : st == WM_PE_BLOCKED_SEND ? WM_PROF_STALL_TX
                                                   : WM_PROF_EXEC;
    const char *call = p->mode == WM_PE_NATIVE ? wm_sched_pe_call(p->s, i) : NULL;
    uint32_t func = call ? intern(p, call, call) : r->kernel_func;
    if (p->mode == WM_PE_CORE) {
        const wm_core_status cs = wm_sched_core(p->s, i);
        const uint32_t pc = cs.halt.state == WM_CORE_RUNNING ? cs.pc : cs.halt.pc;
        func = func_at(p, r, pc);
        if (kind == WM_PROF_EXEC && !r->entered) kind = WM_PROF_STARTUP;
        if (r->pop_pending) {
            core_charge(r, r->cursor, r->pop_cycle, pc, func, WM_PROF_STALL_RX);
            core_charge(r, r->pop_cycle < r->cursor ? r->cursor : r->pop_cycle, r->end, pc, func,
                        r->entered ? WM_PROF_EXEC : WM_PROF_STARTUP);
        } else {
            core_charge(r, r->cursor, r->end, pc, func, kind);
        }
        r->cursor = r->end;
        return;
    }
    slice_add(r, r->cursor, r->end, func, kind);
    r->cursor = r->end;
}

static bool has_cycles(const wm_prof_pc *c)
{
    for (int k = 0; k < WM_PROF_NKINDS; k++)
        if (c->cycles[k]) return true;
    return false;
}

/* ------------------------------------------------------------ a partitioned run */

/* Whether PE i runs in this process: in a partitioned run, whether its
 * tile is in this rank's block; only then does this rank hear of it. */
static bool pe_here(const wm_profiler *p, size_t i)
{
    return !p->part || wm_partition_owns(p->part, p->pes[i].inst->x, p->pes[i].inst->y);
}

static void put_ports(wm_pack *k, const port_list *l)
{
    wm_pack_u64(k, l->n);
    wm_pack_put(k, l->v, l->n * sizeof *l->v);
}

static void get_ports(wm_unpack *u, port_list *l)
{
    free(l->v);
    l->n = l->cap = wm_unpack_count(u, sizeof *l->v);
    l->v = wm_xmalloc((l->n ? l->n : 1) * sizeof *l->v);
    wm_unpack_get(u, l->v, l->n * sizeof *l->v);
}

/* This rank's part of the profile: its function names, its PEs (closed
 * already) and its kernels' cycles by PC. */
static void pack_rank(const wm_profiler *p, wm_pack *k)
{
    wm_pack_u64(k, p->nnames);
    for (size_t n = 0; n < p->nnames; n++) {
        const size_t len = strlen(p->names[n].name);
        wm_pack_u64(k, len);
        wm_pack_put(k, p->names[n].name, len);
    }
    size_t mine = 0;
    for (size_t i = 0; i < p->npes; i++) mine += pe_here(p, i);
    wm_pack_u64(k, mine);
    for (size_t i = 0; i < p->npes; i++) {
        if (!pe_here(p, i)) continue;
        const pe_rec *r = &p->pes[i];
        wm_pack_u64(k, i);
        wm_pack_u64(k, r->start);
        wm_pack_u64(k, r->end);
        wm_pack_u64(k, r->slices.n);
        wm_pack_put(k, r->slices.v, r->slices.n * sizeof *r->slices.v);
        put_ports(k, &r->pushes);
        put_ports(k, &r->pops);
    }
    wm_pack_u64(k, p->nkernels);
    for (size_t n = 0; n < p->nkernels; n++) {
        const pc_cycles *pcs = &p->kernels[n].pcs;
        size_t used = 0;
        for (size_t w = 0; w < pcs->nwords; w++) used += has_cycles(&pcs->by_word[w]);
        for (size_t w = 0; w < pcs->nother; w++) used += has_cycles(&pcs->other[w]);
        wm_pack_u64(k, used);
        for (size_t w = 0; w < pcs->nwords; w++)
            if (has_cycles(&pcs->by_word[w])) wm_pack_put(k, &pcs->by_word[w], sizeof pcs->by_word[w]);
        for (size_t w = 0; w < pcs->nother; w++)
            if (has_cycles(&pcs->other[w])) wm_pack_put(k, &pcs->other[w], sizeof pcs->other[w]);
    }
}

/* Another rank's part into this one's: its PEs' records replace the ones
 * this rank never heard of, its cycles by PC add to this rank's, its
 * function ids renumbered into this rank's names. */
static void unpack_rank(wm_profiler *p, wm_unpack *u)
{
    const size_t nnames = wm_unpack_count(u, sizeof(uint64_t));
    uint32_t *id = wm_xmalloc((nnames ? nnames : 1) * sizeof *id);
    for (size_t n = 0; n < nnames; n++) {
        const size_t len = wm_unpack_count(u, 1);
        char *name = wm_xmalloc(len + 1);
        wm_unpack_get(u, name, len);
        name[len] = '\0';
        id[n] = intern(p, name, NULL);
        free(name);
    }
    const size_t npes = wm_unpack_count(u, sizeof(uint64_t));
    for (size_t k = 0; k < npes; k++) {
        const uint64_t i = wm_unpack_u64(u);
        pe_rec dump, *r = i < p->npes ? &p->pes[i] : &dump;
        if (r == &dump) memset(&dump, 0, sizeof dump);
        r->start = wm_unpack_u64(u);
        r->end = r->cursor = wm_unpack_u64(u);
        r->ended = true;
        free(r->slices.v);
        r->slices.n = r->slices.cap = wm_unpack_count(u, sizeof *r->slices.v);
        r->slices.v = wm_xmalloc((r->slices.n ? r->slices.n : 1) * sizeof *r->slices.v);
        wm_unpack_get(u, r->slices.v, r->slices.n * sizeof *r->slices.v);
        for (size_t s = 0; s < r->slices.n; s++)
            r->slices.v[s].func = r->slices.v[s].func < nnames ? id[r->slices.v[s].func] : 0;
        get_ports(u, &r->pushes);
        get_ports(u, &r->pops);
        if (r == &dump) {
            free(dump.slices.v);
            free(dump.pushes.v);
            free(dump.pops.v);
        }
    }
    const size_t nkernels = wm_unpack_count(u, sizeof(uint64_t));
    for (size_t n = 0; n < nkernels; n++) {
        const size_t used = wm_unpack_count(u, sizeof(wm_prof_pc));
        for (size_t w = 0; w < used; w++) {
            wm_prof_pc c;
            wm_unpack_get(u, &c, sizeof c);
            if (n >= p->nkernels) continue;
            wm_prof_pc *at = pc_slot(&p->kernels[n].pcs, c.pc);
            at->func = c.func < nnames ? id[c.func] : 0;
            for (int kind = 0; kind < WM_PROF_NKINDS; kind++) at->cycles[kind] += c.cycles[kind];
        }
    }
    free(id);
}

/* A partitioned run: every rank's part to rank 0, which then holds every
 * PE as one process would. True on rank 0. */
static bool gather_to_first(wm_profiler *p, uint64_t cycle)
{
    wm_pack k = {0};
    wm_pack_u64(&k, 0); /* the part's length, after it is packed */
    pack_rank(p, &k);
    const uint64_t len = k.len;
    memcpy(k.bytes, &len, sizeof len);
    size_t total = 0;
    char *all = wm_partition_gather(p->part, k.bytes, k.len, &total, cycle);
    free(k.bytes);
    if (wm_partition_rank(p->part) != 0) {
        free(all);
        return false;
    }
    /* rank 0's part first, already here */
    wm_unpack whole = {all, all + total};
    for (int rank = 0; whole.at < whole.end; rank++) {
        const char *start = whole.at;
        const uint64_t part_len = wm_unpack_u64(&whole);
        const size_t left = (size_t)(whole.end - start);
        const size_t this_len = part_len < sizeof part_len || part_len > left ? left : (size_t)part_len;
        wm_unpack one = {whole.at, start + this_len};
        if (rank != 0) unpack_rank(p, &one);
        whole.at = start + this_len;
    }
    free(all);
    return true;
}

/* A message framed at one end: its header, its data, its cycles. */
typedef struct {
    size_t pe;         /* sender (sends) or receiver (receives) */
    size_t dest;       /* sends: the PE at the header's destination, NO_PE if none */
    uint32_t header;
    size_t data;       /* index of its first data wavelet in the pool */
    unsigned len;
    uint64_t first, last; /* the cycles of its header's and its last wavelet's access */
    bool complete;
    size_t match;      /* sends: matched already */
} framed;

typedef struct {
    framed *v;
    size_t n, cap;
} framed_list;

typedef struct {
    uint32_t *v;
    size_t n, cap;
} pool;

static void pool_add(pool *pl, uint32_t w)
{
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? 2 * pl->cap : 256;
        pl->v = wm_xrealloc(pl->v, pl->cap * sizeof *pl->v);
    }
    pl->v[pl->n++] = w;
}

static void frame(const port_list *l, size_t pe, framed_list *out, pool *pl)
{
    unsigned left = 0;
    for (size_t k = 0; k < l->n; k++) {
        const port_event *e = &l->v[k];
        if (left == 0) {
            if (out->n == out->cap) {
                out->cap = out->cap ? 2 * out->cap : 64;
                out->v = wm_xrealloc(out->v, out->cap * sizeof *out->v);
            }
            left = wm_header_len(e->wavelet);
            out->v[out->n++] = (framed){pe, NO_PE, e->wavelet, pl->n, left, e->cycle, e->cycle, left == 0, NO_PE};
            continue;
        }
        framed *m = &out->v[out->n - 1];
        pool_add(pl, e->wavelet);
        m->last = e->cycle;
        if (--left == 0) m->complete = true;
    }
}

static int compare_msgs(const void *x, const void *y)
{
    const wm_prof_msg *a = x, *b = y;
    if (a->sent != b->sent) return a->sent < b->sent ? -1 : 1;
    if (a->from != b->from) return a->from < b->from ? -1 : 1;
    return a->received < b->received ? -1 : a->received > b->received;
}

/* The messages: every PE's sends and receives framed, each receive matched
 * to the first unmatched identical send to its PE. */
static void messages(wm_profiler *p, wm_profile *prof)
{
    framed_list sends = {0}, recvs = {0};
    pool pl = {0};
    for (size_t i = 0; i < p->npes; i++) frame(&p->pes[i].pushes, i, &sends, &pl);
    for (size_t i = 0; i < p->npes; i++) frame(&p->pes[i].pops, i, &recvs, &pl);
    for (size_t k = 0; k < sends.n; k++) {
        framed *m = &sends.v[k];
        const unsigned x = wm_header_col(m->header), y = wm_header_row(m->header);
        if (x < p->width && y < p->height) m->dest = p->pe_of_tile[(size_t)y * p->width + x];
    }
    /* Sends by destination, each in the order pushed. */
    size_t *order = wm_xmalloc((sends.n ? sends.n : 1) * sizeof *order);
    for (size_t k = 0; k < sends.n; k++) order[k] = k;
    for (size_t a = 1; a < sends.n; a++) { /* insertion sort: stable, by (dest, first, pe) */
        const size_t key = order[a];
        const framed *km = &sends.v[key];
        size_t b = a;
        while (b > 0) {
            const framed *om = &sends.v[order[b - 1]];
            const bool after = om->dest > km->dest || (om->dest == km->dest && (om->first > km->first ||
                                                                                 (om->first == km->first && om->pe > km->pe)));
            if (!after) break;
            order[b] = order[b - 1];
            b--;
        }
        order[b] = key;
    }
    size_t *first_of = wm_xmalloc((p->npes + 1) * sizeof *first_of);
    for (size_t q = 0, k = 0; q <= p->npes; q++) {
        while (k < sends.n && sends.v[order[k]].dest < q) k++;
        first_of[q] = k;
    }
    prof->msgs = wm_xcalloc(recvs.n ? recvs.n : 1, sizeof *prof->msgs);
    prof->nmsgs = 0;
    for (size_t k = 0; k < recvs.n; k++) {
        const framed *rv = &recvs.v[k];
        if (!rv->complete) continue;
        const size_t q = rv->pe;
        for (size_t j = first_of[q]; j < first_of[q + 1]; j++) {
            framed *sd = &sends.v[order[j]];
            if (sd->match != NO_PE || !sd->complete || sd->header != rv->header || sd->first >= rv->first) continue;
            if (sd->len && memcmp(&pl.v[sd->data], &pl.v[rv->data], sd->len * sizeof *pl.v)) continue;
            sd->match = k;
            const wm_instance *a = p->pes[sd->pe].inst, *b = p->pes[q].inst;
            const unsigned dx = a->x > b->x ? a->x - b->x : b->x - a->x, dy = a->y > b->y ? a->y - b->y : b->y - a->y;
            prof->msgs[prof->nmsgs++] = (wm_prof_msg){(uint32_t)sd->pe, (uint32_t)q,    sd->first, rv->last,
                                                      (uint16_t)sd->len, (uint16_t)(dx + dy)};
            break;
        }
    }
    if (prof->nmsgs) qsort(prof->msgs, prof->nmsgs, sizeof *prof->msgs, compare_msgs);
    free(order);
    free(first_of);
    free(sends.v);
    free(recvs.v);
    free(pl.v);
}

static int compare_pcs(const void *x, const void *y)
{
    const wm_prof_pc *a = x, *b = y;
    return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* On the cores: each kernel's PCs that have cycles, by PC, their
 * functions renumbered as the slices' are (renum). */
static void kernels_by_pc(const wm_profiler *p, wm_profile *prof, const uint32_t *renum)
{
    if (p->mode != WM_PE_CORE) return;
    prof->kernels = wm_xcalloc(p->nkernels ? p->nkernels : 1, sizeof *prof->kernels);
    prof->nkernels = p->nkernels;
    for (size_t k = 0; k < p->nkernels; k++) {
        const kernel_syms *ks = &p->kernels[k];
        wm_prof_kernel *out = &prof->kernels[k];
        out->kernel = wm_xstrdup(ks->kernel);
        out->npes = ks->npes;
        out->pcs = wm_xmalloc((ks->pcs.nwords + ks->pcs.nother + 1) * sizeof *out->pcs);
        for (size_t w = 0; w < ks->pcs.nwords; w++)
            if (has_cycles(&ks->pcs.by_word[w])) out->pcs[out->npcs++] = ks->pcs.by_word[w];
        for (size_t w = 0; w < ks->pcs.nother; w++)
            if (has_cycles(&ks->pcs.other[w])) out->pcs[out->npcs++] = ks->pcs.other[w];
        qsort(out->pcs, out->npcs, sizeof *out->pcs, compare_pcs);
        for (size_t w = 0; w < out->npcs; w++) out->pcs[w].func = renum[out->pcs[w].func];
    }
    for (size_t i = 0; i < prof->npes; i++)
        for (size_t k = 0; k < p->nkernels; k++)
            if (p->pes[i].ks == &p->kernels[k]) prof->kernels[k].cycles += prof->pes[i].end - prof->pes[i].start;
}

wm_profile *wm_profiler_finish(wm_profiler *p, char *err, size_t err_size)
{
    detach(p);
    const uint64_t run_end = wm_sched_cycle(p->s);
    /* each PE closed where it ran: its state and its call are its rank's */
    for (size_t i = 0; i < p->npes; i++)
        if (pe_here(p, i)) close_pe(p, &p->pes[i], i, run_end);
    if (p->part && !gather_to_first(p, run_end)) {
        free_profiler(p);
        if (err_size) err[0] = '\0';
        return NULL;
    }
    wm_profile *prof = wm_xcalloc(1, sizeof *prof);
    prof->mode = p->mode == WM_PE_CORE ? "core" : "native";
    /* The functions in order of first use, PE by PE. */
    uint32_t *renum = wm_xmalloc((p->nnames ? p->nnames : 1) * sizeof *renum);
    for (size_t k = 0; k < p->nnames; k++) renum[k] = UINT32_MAX;
    const char **funcs = wm_xcalloc(p->nnames ? p->nnames : 1, sizeof *funcs);
    size_t nfuncs = 0;
    prof->pes = wm_xcalloc(p->npes ? p->npes : 1, sizeof *prof->pes);
    prof->npes = p->npes;
    for (size_t i = 0; i < p->npes; i++) {
        pe_rec *r = &p->pes[i];
        wm_prof_pe *pe = &prof->pes[i];
        pe->instance = wm_xstrdup(r->inst->name);
        pe->x = r->inst->x;
        pe->y = r->inst->y;
        pe->start = r->start;
        pe->end = r->end;
        pe->nslices = r->slices.n;
        pe->slices = r->slices.v;
        r->slices.v = NULL;
        r->slices.n = 0;
        for (size_t k = 0; k < pe->nslices; k++) {
            const uint32_t old = pe->slices[k].func;
            if (renum[old] == UINT32_MAX) {
                renum[old] = (uint32_t)nfuncs;
                funcs[nfuncs++] = wm_xstrdup(p->names[old].name);
            }
            pe->slices[k].func = renum[old];
        }
        if (pe->end > prof->last_event) prof->last_event = pe->end;
    }
    prof->funcs = funcs;
    prof->nfuncs = nfuncs;
    kernels_by_pc(p, prof, renum);
    free(renum);
    messages(p, prof);
    free_profiler(p);
    wm_profile_critical_path(prof);
    return prof;
}

void wm_profile_free(wm_profile *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nfuncs; i++) free((char *)p->funcs[i]);
    free(p->funcs);
    for (size_t i = 0; i < p->npes; i++) {
        free((char *)p->pes[i].instance);
        free(p->pes[i].slices);
    }
    free(p->pes);
    free(p->msgs);
    free(p->path);
    for (size_t k = 0; k < p->nkernels; k++) {
        free((char *)p->kernels[k].kernel);
        free(p->kernels[k].pcs);
    }
    free(p->kernels);
    free(p);
}

wm_profile *wm_profile_layout(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode,
                              uint64_t max_cycles, FILE *report, wm_run_result *result, char *err, size_t err_size)
{
    return wm_profile_layout_banded(ops, layout, mode, NULL, max_cycles, report, result, err, err_size);
}

wm_profile *wm_profile_layout_banded(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode,
                                     wm_partition *part, uint64_t max_cycles, FILE *report, wm_run_result *result,
                                     char *err, size_t err_size)
{
    wm_runner *r =
        part ? wm_runner_create_banded(ops, layout, mode, part, NULL) : wm_runner_create_mode(ops, layout, NULL, mode);
    if (!r) {
        snprintf(err, err_size, "the run could not be set up");
        return NULL;
    }
    wm_profiler *p = wm_profiler_attach(r, ops, err, err_size);
    if (!p) {
        wm_runner_destroy(r);
        return NULL;
    }
    p->part = part;
    const wm_run_result res = wm_runner_run(r, max_cycles);
    if (result) *result = res;
    /* how the run ended goes into the profile, so that the files written
     * from it say so; the report, after a run that did not end well */
    wm_sched *s = wm_runner_sched(r);
    char *why = NULL;
    size_t why_size = 0;
    FILE *mem = open_memstream(&why, &why_size);
    const wm_ending end = wm_sched_ending(s, res, mem ? mem : stderr);
    if (mem) fclose(mem);
    if (report && res != WM_RUN_DONE && why) fputs(why, report);
    free(why);
    wm_profile *prof = wm_profiler_finish(p, err, err_size);
    if (prof) {
        prof->ending = wm_ending_word(end);
        prof->ending_phrase = wm_ending_phrase(end);
        prof->end_cycle = wm_sched_cycle(s);
    }
    wm_runner_destroy(r);
    return prof;
}
