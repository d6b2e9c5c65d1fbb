/* native_sched.c: the scheduler's native mode (scheduler.h, WM_PE_NATIVE):
 * one coroutine per kernel, and the port primitives of mp_native.c.
 *
 * A coroutine is started once with makecontext and switched afterwards with
 * _setjmp/_longjmp, which make no system call: swapcontext costs about 2 us
 * a round trip here (it sets the signal mask), 40x more. _longjmp onto
 * another stack aborts under _FORTIFY_SOURCE, hence the #undef. */
#undef _FORTIFY_SOURCE
#include "run/scheduler.h"
#include "fabric/fabric_sw.h"
#include "run/host_lines.h"
#include "run/scheduler_internal.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

/* AddressSanitizer keeps a shadow of each stack: it is told of every
 * switch between the loop's stack and a kernel's, before (start, with
 * where it goes; NULL for a coroutine that will not come back) and after
 * (finish, on the stack arrived at), so it reports no false overflow or
 * use after return. Nothing without it. */
#if defined(__SANITIZE_ADDRESS__)
#define WM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WM_ASAN 1
#endif
#endif
#ifdef WM_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
#define SWITCH_START(save, bottom, size) __sanitizer_start_switch_fiber((save), (bottom), (size))
#define SWITCH_FINISH(save, bottom, size) __sanitizer_finish_switch_fiber((save), (bottom), (size))
#else
#define SWITCH_START(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#define SWITCH_FINISH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

/* The flags of wm_sched's waits, above a queue byte's index: both set,
 * the kernel computes until the cycle wakes[k] says. */
enum { WAITS_TILE = 1u << 30 };
#define WAITS_RECV (1u << 31)
#define WAITS_SEND (1u << 30)
#define WAITS_COMPUTE (WAITS_RECV | WAITS_SEND)

/* From a kernel's stack back to the loop's, for good when done. */
static void to_loop(wm_mp *mp, bool done)
{
    wm_sched *s = mp->s;
    wm_coroutine *co = &s->cos[mp->index];
    SWITCH_START(done ? NULL : &co->asan_fake_stack, s->main_stack, s->main_stack_size);
    if (!_setjmp(co->jb)) _longjmp(s->jb, 1);
    SWITCH_FINISH(co->asan_fake_stack, NULL, NULL);
}

static void co_entry(unsigned hi, unsigned lo)
{
    wm_mp *mp = (wm_mp *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
    SWITCH_FINISH(NULL, &mp->s->main_stack, &mp->s->main_stack_size);
    to_loop(mp, false);
    mp->inst->kernel->run(mp);
    mp->wait = WAIT_NONE; /* the scheduler reports DONE */
    SWITCH_START(NULL, mp->s->main_stack, mp->s->main_stack_size);
    _longjmp(mp->s->jb, 1);
}

static bool start_coroutine(wm_sched *s, wm_mp *mp)
{
    ucontext_t uc;
    if (getcontext(&uc) != 0) return false;
    uc.uc_stack.ss_sp = wm_stacks_bottom(s->stacks, mp->index);
    uc.uc_stack.ss_size = WM_STACK_BYTES;
    uc.uc_link = NULL;
    const uintptr_t p = (uintptr_t)mp;
    makecontext(&uc, (void (*)(void))co_entry, 2, (unsigned)(p >> 32), (unsigned)(p & 0xffffffffu));
    SWITCH_START(&s->asan_fake_stack, uc.uc_stack.ss_sp, WM_STACK_BYTES);
    if (!_setjmp(s->jb)) setcontext(&uc);
    SWITCH_FINISH(s->asan_fake_stack, NULL, NULL);
    return true;
}

/* How a stack overflow names its PE. */
static void describe_pe(const void *ctx, size_t i, char *buf, size_t size)
{
    const wm_instance *in = ((const wm_sched *)ctx)->pes[i].inst;
    snprintf(buf, size, "PE (%u,%u) %s [%s]", in->x, in->y, in->name, in->kernel->name);
}

/* Whether PE i runs here: another rank's kernel has no coroutine here. */
static bool pe_here(const void *ctx, size_t i) { return wm_sched_pe_here(ctx, i); }

static bool native_init(wm_sched *s)
{
    /* The native loop sees every push and pop itself. */
    s->msgs_kept = true;
    char why[400];
    s->cos = calloc(s->n ? s->n : 1, sizeof *s->cos);
    s->waits = calloc(s->n ? s->n : 1, sizeof *s->waits);
    s->wakes = calloc(s->n ? s->n : 1, sizeof *s->wakes);
    if (!s->cos || !s->waits || !s->wakes) {
        fprintf(stderr, "wavemesh: out of memory for the coroutines of %zu kernels\n", s->n);
        return false;
    }
    if (!(s->stacks = wm_stacks_create(s->n, pe_here, describe_pe, s, why, sizeof why))) {
        fprintf(stderr, "wavemesh: %s\n", why);
        return false;
    }
    /* On the sw backend a waiting kernel's queue is a byte to read, not a
     * status to ask for: most kernels of a large run wait most cycles. */
    const wm_sw_queues q = wm_fabric_is(s->ops, "sw") ? wm_fabric_sw_queues(s->f) : (wm_sw_queues){0};
    /* a queue byte's index leaves room for the two flags of waits */
    const bool sw = q.rx_count && (uint64_t)q.stride * (wm_layout_height(s->layout) + 2) < WAITS_TILE;
    s->tx_queued = sw ? q.tx_count : NULL;
    s->rx_queued = sw ? q.rx_count : NULL;
    const wm_fabric_band whole = {0, wm_layout_height(s->layout), 0, wm_layout_width(s->layout)};
    const wm_fabric_band b = s->part ? wm_partition_band(s->part) : whole;
    for (size_t i = 0; i < s->n; i++) {
        wm_mp *mp = &s->pes[i];
        if (!wm_sched_pe_here(s, i)) continue; /* another rank's */
        if (sw) mp->queued_at = (uint32_t)((mp->inst->y - b.row_begin) * q.stride + (mp->inst->x - b.col_begin));
        mp->wait = WAIT_START;
        /* What a core spends before its kernel starts (sw/cost_model.h). */
        mp->ready = s->cycle + WM_COST_START;
        if (!start_coroutine(s, mp)) {
            fprintf(stderr, "wavemesh: cannot make a stack for kernel %zu of %zu\n", i, s->n);
            return false;
        }
    }
    return true;
}

static void native_free(wm_sched *s)
{
    wm_stacks_destroy(s->stacks);
    s->stacks = NULL;
    free(s->cos);
    s->cos = NULL;
    free(s->waits);
    s->waits = NULL;
    free(s->wakes);
    s->wakes = NULL;
}

static void resume(wm_sched *s, wm_mp *mp)
{
    mp->charges = 0;
    SWITCH_START(&s->asan_fake_stack, wm_stacks_bottom(s->stacks, mp->index), WM_STACK_BYTES);
    if (!_setjmp(s->jb)) _longjmp(s->cos[mp->index].jb, 1);
    SWITCH_FINISH(s->asan_fake_stack, NULL, NULL);
}

static void yield(wm_mp *mp) { to_loop(mp, false); }

/* A push the kernel posted in cycle c: the router takes the first wavelet
 * of the TX queue for a header, and the len after it for its data. */
static void note_push(wm_mp *mp, uint64_t c)
{
    const bool header = mp->tx_left == 0;
    mp->tx_left = header ? wm_header_len(mp->push_data) : mp->tx_left - 1;
    mp->tx_headers = (mp->tx_headers << 1) | (header ? 1u : 0u);
    wm_sched_msg_push(mp->s, mp->index, (size_t)mp->inst->y * wm_layout_width(mp->s->layout) + mp->inst->x,
                      mp->push_data, c, (uint64_t)(uintptr_t)mp->s->cos[mp->index].call_site, true);
    if (header && mp->s->obs.on_send) mp->s->obs.on_send(mp->s->obs_ctx, mp->index, c, mp->push_data);
    mp->pushes++;
    mp->last_push_cycle = c;
}

/* Kernel mp waits this cycle for a wavelet to pop: false, it did not act. */
static bool blocked_recv(wm_sched *s, wm_mp *mp)
{
    if (mp->state != WM_PE_BLOCKED_RECV) mp->blocked_since = s->cycle;
    wm_sched_set_state(s, mp, WM_PE_BLOCKED_RECV);
    return false;
}

/* Kernel mp waits this cycle for room in its TX queue. */
static bool blocked_send(wm_sched *s, wm_mp *mp)
{
    wm_sched_set_state(s, mp, WM_PE_BLOCKED_SEND);
    return false;
}

/* Give kernel mp the current cycle: perform its pending access if the port
 * allows it now, and let it run to its next one. Returns true if it used
 * the port. */
static bool serve(wm_sched *s, wm_mp *mp)
{
    const uint64_t c = s->cycle;
    bool acted = false;
    for (;;) {
        if (mp->wait == WAIT_START) {
            resume(s, mp);
            continue;
        }
        /* A kernel that has returned is done once the compute it charged
         * after its last access has run, as a core is done at its exit. */
        if (mp->wait == WAIT_NONE && (mp->fault || c >= mp->ready)) {
            wm_sched_set_state(s, mp, mp->fault ? WM_PE_FAULT : WM_PE_DONE);
            return acted;
        }
        if (c < mp->ready) {
            wm_sched_set_state(s, mp, WM_PE_COMPUTING);
            return acted;
        }
        if (mp->wait == WAIT_WORK) {
            /* Its charge has elapsed: it computes on, as if it never stopped. */
            resume(s, mp);
            continue;
        }
        if (acted) return acted; /* one access per cycle */
        /* still waiting, seen without asking for the status */
        if (mp->wait == WAIT_POP && s->rx_queued && s->rx_queued[mp->queued_at] == 0) return blocked_recv(s, mp);
        if (mp->wait == WAIT_PUSH && s->tx_queued && s->tx_queued[mp->queued_at] >= WM_TX_DEPTH)
            return blocked_send(s, mp);
        const unsigned x = mp->inst->x, y = mp->inst->y;
        const wm_pe_status st = s->ops->pe_status(s->f, x, y);
        switch (mp->wait) {
        case WAIT_PUSH:
            if (st.tx_count >= WM_TX_DEPTH) return blocked_send(s, mp);
            s->ops->pe_push(s->f, x, y, mp->push_data);
            note_push(mp, c);
            if (s->prof.on_access) s->prof.on_access(s->prof_ctx, mp->index, c, WM_ACCESS_PUSH, mp->push_data, mp->func);
            break;
        case WAIT_POP:
            if (st.rx_count == 0) return blocked_recv(s, mp);
            mp->popped = st.rx_head;
            if (mp->pop_is_header) mp->headers_received++;
            wm_sched_msg_pop(s, mp->index, (size_t)y * wm_layout_width(s->layout) + x, st.rx_head, c);
            s->ops->pe_pop(s->f, x, y);
            mp->pops++;
            mp->last_pop_cycle = c;
            if (s->prof.on_access) s->prof.on_access(s->prof_ctx, mp->index, c, WM_ACCESS_POP, mp->popped, mp->func);
            break;
        case WAIT_TSC:
            mp->tsc_read = st.tsc;
            if (s->prof.on_access) s->prof.on_access(s->prof_ctx, mp->index, c, WM_ACCESS_READ, 0, mp->func);
            break;
        case WAIT_QUEUES:
            mp->tx_read = st.tx_count;
            mp->rx_read = st.rx_count;
            if (s->prof.on_access) s->prof.on_access(s->prof_ctx, mp->index, c, WM_ACCESS_READ, 0, mp->func);
            break;
        case WAIT_START:
        case WAIT_WORK:
        case WAIT_NONE:
            break;
        }
        acted = true;
        mp->ready = c + 1;
        wm_sched_set_state(s, mp, WM_PE_RUNNING);
        resume(s, mp);
    }
}

/* What kernel mp waits on, for waits (see there): its queue byte, or the
 * cycle its compute ends (a kernel yet to start is started at once). */
static uint32_t waits_of(const wm_sched *s, const wm_mp *mp)
{
    if (mp->state == WM_PE_COMPUTING && mp->wait != WAIT_START) return WAITS_COMPUTE;
    if (!s->rx_queued) return 0; /* no queue bytes to read: the rtl backend */
    if (mp->state == WM_PE_BLOCKED_RECV) return WAITS_RECV | mp->queued_at;
    if (mp->state == WM_PE_BLOCKED_SEND) return WAITS_SEND | mp->queued_at;
    return 0;
}

static wm_run_result native_run(wm_sched *s, uint64_t max_cycles)
{
    for (;;) {
        s->cycle = s->ops->cycle(s->f);
        /* a partitioned run stops where every rank does: below */
        if (!s->part && wm_sched_interrupted(s)) return WM_RUN_INTERRUPTED;
        wm_sched_progress(s);
        bool acted = false, faulted = false;
        size_t blocked_recv = 0, blocked = 0, kept = 0;
        for (size_t k = 0; k < s->nlive; k++) {
            /* Still waiting, as its queue byte says: what serve would find,
             * with nothing to change (only serve changes a kernel's wait). */
            const uint32_t w = s->waits[k];
            const uint32_t kind = w & WAITS_COMPUTE;
            if ((kind == WAITS_RECV && s->rx_queued[w & (WAITS_TILE - 1)] == 0) ||
                (kind == WAITS_SEND && s->tx_queued[w & (WAITS_TILE - 1)] >= WM_TX_DEPTH)) {
                blocked_recv += kind == WAITS_RECV;
                blocked++;
                s->waits[kept] = w;
                s->live[kept++] = s->live[k];
                continue;
            }
            if (kind == WAITS_COMPUTE && s->cycle < s->wakes[k]) {
                s->waits[kept] = w;
                s->wakes[kept] = s->wakes[k];
                s->live[kept++] = s->live[k];
                continue;
            }
            wm_mp *mp = &s->pes[s->live[k]];
            if (serve(s, mp)) acted = true;
            if (mp->state == WM_PE_FAULT) faulted = true;
            if (mp->state == WM_PE_DONE || mp->state == WM_PE_FAULT) continue;
            if (mp->state == WM_PE_BLOCKED_RECV) blocked_recv++;
            if (mp->state == WM_PE_BLOCKED_RECV || mp->state == WM_PE_BLOCKED_SEND) blocked++;
            s->waits[kept] = waits_of(s, mp);
            s->wakes[kept] = mp->ready;
            s->live[kept++] = s->live[k];
        }
        s->nlive = kept;
        /* The fabric is looked at only where it decides a deadlock. */
        const bool waits = !acted && blocked_recv == s->nlive;
        wm_sched_tally t = {faulted, s->nlive, blocked_recv, blocked, acted, waits && !s->ops->quiescent(s->f),
                            s->part && wm_sched_interrupted(s), 0};
        wm_sched_agree(s, &t);
        if (t.faulted) return WM_RUN_FAULT;
        if (t.live == 0) return WM_RUN_DONE;
        if (!t.acted && t.blocked_recv == t.live && !t.busy) return WM_RUN_DEADLOCK;
        if (!t.acted && t.blocked == t.live) {
            if (++s->idle_cycles % STALL_WINDOW == 0 && wm_sched_snapshot_unchanged(s)) return WM_RUN_STALLED;
        } else {
            s->idle_cycles = 0;
            s->prev_snap_n = (size_t)-1;
        }
        if (t.stop) return WM_RUN_INTERRUPTED;
        if (s->cycle >= max_cycles) return WM_RUN_MAX_CYCLES;
        wm_sched_step(s);
        if (s->obs.on_cycle) s->obs.on_cycle(s->obs_ctx, s->ops->cycle(s->f));
    }
}

static void native_report_pe(const wm_sched *s, const wm_mp *mp, bool deadlocked, FILE *out)
{
    const wm_instance *in = mp->inst;
    fprintf(out, "  PE (%u,%u) %s [%s]: ", in->x, in->y, in->name, in->kernel->name);
    /* where the kernel's code is: the line of its last call of sw/mp.h */
    char line[600] = "";
    if (mp->state == WM_PE_BLOCKED_RECV || mp->state == WM_PE_BLOCKED_SEND || mp->state == WM_PE_COMPUTING) {
        char where[560];
        if (s->cos && wm_host_line_of(s->cos[mp->index].call_site, where, sizeof where))
            snprintf(line, sizeof line, " at %s", where);
    }
    switch (mp->state) {
    case WM_PE_BLOCKED_RECV:
        if (mp->pop_is_header)
            fprintf(out, "blocked on receive%s: waits for message %u%s", line, mp->headers_received + 1,
                    deadlocked ? ", which nobody has sent" : "");
        else
            fprintf(out, "blocked on receive%s: waits for a data wavelet of message %u", line, mp->headers_received);
        break;
    case WM_PE_BLOCKED_SEND:
        fprintf(out, "blocked on send%s: its TX queue is full", line);
        break;
    case WM_PE_COMPUTING:
        fprintf(out, "computing%s until cycle %" PRIu64, line, mp->ready);
        break;
    case WM_PE_FAULT:
        fprintf(out, "fault: %s", mp->fault);
        break;
    default:
        fprintf(out, "%s", wm_pe_state_name(mp->state));
        break;
    }
    fputc('\n', out);
}

/* A send's site is the kernel's call of sw/mp.h: its line and function. */
static void native_report_site(const wm_sched *s, const wm_mp *mp, uint64_t site, FILE *out)
{
    (void)s;
    (void)mp;
    char where[560];
    if (site && wm_host_line_of((const void *)(uintptr_t)site, where, sizeof where)) fprintf(out, " from %s", where);
}

/* Jitter: nothing to make, and a start delayed is a first port access
 * that waits (the kernel computes from its first cycle). */
static bool native_jitter_start(wm_sched *s, char *err, size_t err_size)
{
    (void)s, (void)err, (void)err_size;
    return true;
}

static void native_delay_start(wm_sched *s, wm_mp *mp, unsigned cycles)
{
    (void)s;
    mp->ready += cycles;
}

const wm_pe_mode_ops wm_pe_native_ops = {
    .mode = WM_PE_NATIVE,
    .name = "native",
    .init = native_init,
    .run = native_run,
    .report_pe = native_report_pe,
    .report_site = native_report_site,
    .free = native_free,
    .jitter_start = native_jitter_start,
    .delay_start = native_delay_start,
    .sees_port = true,
};

/* ---------------------------------------------------------------- kernel side */

void wm_sched_push(wm_mp *mp, uint32_t wavelet)
{
    mp->wait = WAIT_PUSH;
    mp->push_data = wavelet;
    yield(mp);
}

static uint32_t pop(wm_mp *mp, bool header)
{
    mp->wait = WAIT_POP;
    mp->pop_is_header = header;
    yield(mp);
    return mp->popped;
}

uint32_t wm_sched_pop(wm_mp *mp) { return pop(mp, false); }
uint32_t wm_sched_pop_header(wm_mp *mp) { return pop(mp, true); }

uint64_t wm_sched_tsc(wm_mp *mp)
{
    mp->wait = WAIT_TSC;
    yield(mp);
    return mp->tsc_read;
}

void wm_sched_queues(wm_mp *mp, unsigned *tx_count, unsigned *rx_count)
{
    mp->wait = WAIT_QUEUES;
    yield(mp);
    *tx_count = mp->tx_read;
    *rx_count = mp->rx_read;
}

const char *wm_sched_enter(wm_mp *mp, const char *func)
{
    const char *before = mp->func;
    mp->func = func;
    return before;
}

void wm_sched_note_call(wm_mp *mp, const void *site)
{
    if (!mp->func) mp->s->cos[mp->index].call_site = site;
}

const char *wm_sched_enter_from(wm_mp *mp, const char *func, const void *site)
{
    wm_sched_note_call(mp, site);
    return wm_sched_enter(mp, func);
}

void wm_sched_charge(wm_mp *mp, unsigned cycles)
{
    const uint64_t from = mp->ready;
    mp->ready += cycles;
    /* A kernel that computes for long without touching its port: give the
     * loop the cycles in between, to the cycle limit and signals. Its port
     * accesses happen at the same cycles as without the break. A pathological
     * run of WORK_CALLS zero-cycle charges is charged one cycle. */
    const uint64_t now = mp->s->cycle;
    const bool give_back = mp->ready > now + WORK_AHEAD || ++mp->charges >= WORK_CALLS;
    if (give_back && mp->ready <= now) mp->ready = now + 1;
    if (mp->s->prof.on_charge) mp->s->prof.on_charge(mp->s->prof_ctx, mp->index, from, mp->ready, mp->func);
    if (give_back) {
        mp->wait = WAIT_WORK;
        yield(mp);
    }
}

uint32_t *wm_sched_mem(wm_mp *mp)
{
    if (!mp->mem) {
        mp->mem = calloc(WM_PE_DATA_WORDS, sizeof *mp->mem);
        if (!mp->mem) wm_sched_fault(mp, "out of host memory for the PE's %d bytes", WM_PE_DATA_BYTES);
        mp->mem_owned = true;
    }
    return mp->mem;
}

int64_t wm_sched_param(wm_mp *mp, unsigned index)
{
    if (index >= mp->inst->nparams)
        wm_sched_fault(mp, "kernel %s reads parameter %u, but declares %zu", mp->inst->kernel->name, index,
                       mp->inst->nparams);
    return mp->inst->params[index].value;
}

void wm_sched_export(wm_mp *mp, unsigned index, int64_t value)
{
    const char *const *list = mp->inst->kernel->exports;
    unsigned n = 0;
    while (list && list[n]) n++;
    if (index >= n)
        wm_sched_fault(mp, "kernel %s exports result %u, but its exports list has %u", mp->inst->kernel->name,
                       index, n);
    const char *name = list[index];
    size_t e = 0;
    while (e < mp->nexports && strcmp(mp->exports[e].name, name)) e++;
    if (e == mp->nexports) {
        if (mp->nexports == mp->cap_exports) {
            size_t cap = mp->cap_exports ? 2 * mp->cap_exports : 8;
            wm_export *grown = realloc(mp->exports, cap * sizeof *grown);
            if (!grown) wm_sched_fault(mp, "out of memory exporting %s", name);
            mp->exports = grown;
            mp->cap_exports = cap;
        }
        mp->nexports++;
    }
    mp->exports[e] = (wm_export){name, value, mp->s->cycle};
    if (mp->s->obs.on_export) mp->s->obs.on_export(mp->s->obs_ctx, mp->index, mp->s->cycle, name, value);
}

void wm_sched_fault(wm_mp *mp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = wm_sched_fault_text(mp);
    vsnprintf(text, FAULT_TEXT, fmt, ap);
    va_end(ap);
    if (!text[0]) snprintf(text, FAULT_TEXT, "fault");
    mp->wait = WAIT_NONE;
    SWITCH_START(NULL, mp->s->main_stack, mp->s->main_stack_size);
    _longjmp(mp->s->jb, 1);
}
