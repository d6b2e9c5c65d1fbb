/* scheduler.c: one cycle loop, one coroutine per kernel (see scheduler.h).
 *
 * A coroutine is started once with makecontext and switched afterwards with
 * _setjmp/_longjmp, which make no system call: swapcontext costs about 2 us
 * a round trip here (it sets the signal mask), 40x more. _longjmp onto
 * another stack aborts under _FORTIFY_SOURCE, hence the #undef. */
#undef _FORTIFY_SOURCE
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include "waves/interrupt.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

static void set_state(wm_sched *s, wm_mp *mp, wm_pe_state st)
{
    if (mp->state == st) return;
    mp->state = st;
    if (s->obs.on_state) s->obs.on_state(s->obs_ctx, mp->index, s->cycle, st);
}

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

/* From a kernel's stack back to the loop's, for good when done. */
static void to_loop(wm_mp *mp, bool done)
{
    wm_sched *s = mp->s;
    SWITCH_START(done ? NULL : &mp->asan_fake_stack, s->main_stack, s->main_stack_size);
    if (!_setjmp(mp->jb)) _longjmp(s->jb, 1);
    SWITCH_FINISH(mp->asan_fake_stack, NULL, NULL);
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

bool wm_pe_mode_parse(const char *text, wm_pe_mode *out)
{
    if (!strcmp(text, "native")) *out = WM_PE_NATIVE;
    else if (!strcmp(text, "core")) *out = WM_PE_CORE;
    else return false;
    return true;
}

const char *wm_pe_mode_name(wm_pe_mode m) { return m == WM_PE_CORE ? "core" : "native"; }

wm_sched *wm_sched_create(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout)
{
    return wm_sched_create_mode(ops, f, layout, WM_PE_NATIVE);
}

wm_pe_mode wm_sched_mode(const wm_sched *s) { return s->mode; }
wm_core_status wm_sched_core(const wm_sched *s, size_t pe) { return s->pes[pe].core; }

wm_sched *wm_sched_create_mode(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout, wm_pe_mode mode)
{
    wm_sched *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->mode = mode;
    s->ops = ops;
    s->f = f;
    s->layout = layout;
    s->n = wm_layout_count(layout);
    s->pes = calloc(s->n ? s->n : 1, sizeof *s->pes);
    s->live = calloc(s->n ? s->n : 1, sizeof *s->live);
    if (!s->pes || !s->live) {
        wm_sched_destroy(s);
        return NULL;
    }
    s->cycle = ops->cycle(f);
    if (!wm_msg_flight_init(&s->msgs, (size_t)wm_layout_width(layout) * wm_layout_height(layout))) {
        fprintf(stderr, "wavemesh: out of memory for the count of messages in flight\n");
        wm_sched_destroy(s);
        return NULL;
    }
    /* The native loop sees every push and pop itself. */
    s->msgs_kept = mode == WM_PE_NATIVE;
    char why[400];
    if (mode == WM_PE_NATIVE && !(s->stacks = wm_stacks_create(s->n, describe_pe, s, why, sizeof why))) {
        fprintf(stderr, "wavemesh: %s\n", why);
        wm_sched_destroy(s);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++) {
        wm_mp *mp = &s->pes[i];
        mp->s = s;
        mp->index = i;
        mp->inst = wm_layout_instance(layout, i);
        mp->wait = WAIT_START;
        /* What a core spends before its kernel starts (sw/cost_model.h). */
        mp->ready = s->cycle + WM_COST_START;
        mp->state = WM_PE_RUNNING;
        s->live[s->nlive++] = i;
        if (mode == WM_PE_CORE) continue;
        if (!start_coroutine(s, mp)) {
            fprintf(stderr, "wavemesh: cannot make a stack for kernel %zu of %zu\n", i, s->n);
            wm_sched_destroy(s);
            return NULL;
        }
    }
    if (mode == WM_PE_CORE && !wm_core_sched_init(s)) {
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
        if (s->pes[i].mem_owned) free(s->pes[i].mem);
    }
    wm_core_sched_free(s);
    wm_stacks_destroy(s->stacks);
    free(s->pes);
    free(s->live);
    free(s->snap);
    free(s->prev_snap);
    wm_msg_flight_free(&s->msgs);
    free(s);
}

void wm_sched_set_observer(wm_sched *s, const wm_sched_observer *obs, void *ctx)
{
    if (obs)
        s->obs = *obs;
    else
        memset(&s->obs, 0, sizeof s->obs);
    s->obs_ctx = ctx;
}

static void resume(wm_sched *s, wm_mp *mp)
{
    mp->charges = 0;
    SWITCH_START(&s->asan_fake_stack, wm_stacks_bottom(s->stacks, mp->index), WM_STACK_BYTES);
    if (!_setjmp(s->jb)) _longjmp(mp->jb, 1);
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
    wm_msg_flight_push(&mp->s->msgs, (size_t)mp->inst->y * wm_layout_width(mp->s->layout) + mp->inst->x,
                       mp->push_data);
    if (header && mp->s->obs.on_send) mp->s->obs.on_send(mp->s->obs_ctx, mp->index, c, mp->push_data);
    mp->pushes++;
    mp->last_push_cycle = c;
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
        if (mp->wait == WAIT_NONE && (mp->fault[0] || c >= mp->ready)) {
            set_state(s, mp, mp->fault[0] ? WM_PE_FAULT : WM_PE_DONE);
            return acted;
        }
        if (c < mp->ready) {
            set_state(s, mp, WM_PE_COMPUTING);
            return acted;
        }
        if (mp->wait == WAIT_WORK) {
            /* Its charge has elapsed: it computes on, as if it never stopped. */
            resume(s, mp);
            continue;
        }
        if (acted) return acted; /* one access per cycle */
        const unsigned x = mp->inst->x, y = mp->inst->y;
        const wm_pe_status st = s->ops->pe_status(s->f, x, y);
        switch (mp->wait) {
        case WAIT_PUSH:
            if (st.tx_count >= WM_TX_DEPTH) {
                set_state(s, mp, WM_PE_BLOCKED_SEND);
                return false;
            }
            s->ops->pe_push(s->f, x, y, mp->push_data);
            note_push(mp, c);
            break;
        case WAIT_POP:
            if (st.rx_count == 0) {
                set_state(s, mp, WM_PE_BLOCKED_RECV);
                return false;
            }
            mp->popped = st.rx_head;
            if (mp->pop_is_header) mp->headers_received++;
            wm_msg_flight_pop(&s->msgs, (size_t)y * wm_layout_width(s->layout) + x, st.rx_head);
            s->ops->pe_pop(s->f, x, y);
            mp->pops++;
            mp->last_pop_cycle = c;
            break;
        case WAIT_TSC:
            mp->tsc_read = st.tsc;
            break;
        case WAIT_QUEUES:
            mp->tx_read = st.tx_count;
            mp->rx_read = st.rx_count;
            break;
        case WAIT_START:
        case WAIT_WORK:
        case WAIT_NONE:
            break;
        }
        acted = true;
        mp->ready = c + 1;
        set_state(s, mp, WM_PE_RUNNING);
        resume(s, mp);
    }
}

static int flight_cmp(const wm_flight *a, const wm_flight *b)
{
    if (a->x != b->x) return a->x - b->x;
    if (a->y != b->y) return a->y - b->y;
    if (a->place != b->place) return a->place - b->place;
    if (a->port != b->port) return a->port - b->port;
    if (a->count != b->count) return a->count - b->count;
    return a->head < b->head ? -1 : a->head > b->head;
}

/* Take a snapshot of the wavelets in flight; true if it equals the last. */
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
    return same;
}

static wm_run_result run_native(wm_sched *s, uint64_t max_cycles)
{
    for (;;) {
        s->cycle = s->ops->cycle(s->f);
        if (wm_sched_interrupted(s)) return WM_RUN_INTERRUPTED;
        wm_sched_progress(s);
        bool acted = false, faulted = false;
        size_t blocked_recv = 0, blocked = 0, kept = 0;
        for (size_t k = 0; k < s->nlive; k++) {
            wm_mp *mp = &s->pes[s->live[k]];
            if (serve(s, mp)) acted = true;
            if (mp->state == WM_PE_FAULT) faulted = true;
            if (mp->state == WM_PE_DONE || mp->state == WM_PE_FAULT) continue;
            if (mp->state == WM_PE_BLOCKED_RECV) blocked_recv++;
            if (mp->state == WM_PE_BLOCKED_RECV || mp->state == WM_PE_BLOCKED_SEND) blocked++;
            s->live[kept++] = s->live[k];
        }
        s->nlive = kept;
        if (faulted) return WM_RUN_FAULT;
        if (s->nlive == 0) return WM_RUN_DONE;
        if (!acted && blocked_recv == s->nlive && s->ops->quiescent(s->f)) return WM_RUN_DEADLOCK;
        if (!acted && blocked == s->nlive) {
            if (++s->idle_cycles % STALL_WINDOW == 0 && wm_sched_snapshot_unchanged(s)) return WM_RUN_STALLED;
        } else {
            s->idle_cycles = 0;
            s->prev_snap_n = (size_t)-1;
        }
        if (s->cycle >= max_cycles) return WM_RUN_MAX_CYCLES;
        s->ops->step(s->f);
        if (s->obs.on_cycle) s->obs.on_cycle(s->obs_ctx, s->ops->cycle(s->f));
    }
}

/* A core's pushes and pops, with their wavelets, from the fabric's core
 * hook; every event goes on to the hook set before. */
static void count_core_event(void *ctx, const wm_core_event *ev)
{
    wm_sched *s = ctx;
    const size_t tile = (size_t)ev->y * wm_layout_width(s->layout) + ev->x;
    if (ev->what.push) wm_msg_flight_push(&s->msgs, tile, ev->what.push_data);
    if (ev->what.pop) wm_msg_flight_pop(&s->msgs, tile, ev->pop_data);
    if (s->prev_core_hook) s->prev_core_hook(s->prev_core_ctx, ev);
}

/* On the cores, count messages from the first run on, if wanted: the
 * hook is the scheduler's only while a run holds it. */
static void hook_core_events(wm_sched *s, bool first_run)
{
    if (s->mode != WM_PE_CORE || !s->ops->get_core_hook || !(s->msgs_wanted || s->progress.tty)) return;
    if (!first_run && !s->msgs_kept) return; /* pushes before this run went uncounted */
    s->prev_core_hook = s->ops->get_core_hook(s->f, &s->prev_core_ctx);
    s->ops->set_core_hook(s->f, count_core_event, s);
    s->msgs_hooked = s->msgs_kept = true;
}

static void unhook_core_events(wm_sched *s)
{
    if (!s->msgs_hooked) return;
    s->ops->set_core_hook(s->f, s->prev_core_hook, s->prev_core_ctx);
    s->msgs_hooked = false;
}

wm_run_result wm_sched_run(wm_sched *s, uint64_t max_cycles)
{
    s->prev_snap_n = (size_t)-1;
    const bool first_run = s->mode == WM_PE_CORE && !s->cores_started;
    wm_progress_begin(&s->progress, s->ops->cycle(s->f));
    hook_core_events(s, first_run);
    const wm_run_result r = s->mode == WM_PE_CORE ? wm_core_sched_run(s, max_cycles) : run_native(s, max_cycles);
    unhook_core_events(s);
    wm_progress_end(&s->progress);
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

static const char *const port_names[WM_NPORTS] = {"N", "E", "S", "W", "L"};

static void report_pe(const wm_mp *mp, bool deadlocked, FILE *out)
{
    const wm_instance *in = mp->inst;
    if (mp->s->mode == WM_PE_CORE) {
        wm_core_sched_report_pe(mp->s, mp, deadlocked, out);
        return;
    }
    fprintf(out, "  PE (%u,%u) %s [%s]: ", in->x, in->y, in->name, in->kernel->name);
    switch (mp->state) {
    case WM_PE_BLOCKED_RECV:
        if (mp->pop_is_header)
            fprintf(out, "blocked on receive: waits for message %u%s", mp->headers_received + 1,
                    deadlocked ? ", which nobody has sent" : "");
        else
            fprintf(out, "blocked on receive: waits for a data wavelet of message %u", mp->headers_received);
        break;
    case WM_PE_BLOCKED_SEND:
        fprintf(out, "blocked on send: its TX queue is full");
        break;
    case WM_PE_COMPUTING:
        fprintf(out, "computing until cycle %" PRIu64, mp->ready);
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

/* The router a wavelet at (x, y) moves to next if it is the header h. */
static bool next_router(unsigned x, unsigned y, uint32_t h, unsigned *nx, unsigned *ny)
{
    const unsigned col = wm_header_col(h), row = wm_header_row(h);
    *nx = x;
    *ny = y;
    if (col > x) (*nx)++;
    else if (col < x) (*nx)--;
    else if (row > y) (*ny)++;
    else if (row < y) (*ny)--;
    else return false;
    return true;
}

/* The kernel on tile (x, y), or NULL. */
static const wm_mp *pe_at(const wm_sched *s, unsigned x, unsigned y)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->pes[i].inst->x == x && s->pes[i].inst->y == y) return &s->pes[i];
    return NULL;
}

typedef enum { FRAMING_UNKNOWN, FRAMING_HEADER, FRAMING_DATA } framing;

/* Whether the oldest of the count wavelets in tile (x, y)'s TX queue is a
 * header. Only a native kernel's pushes are seen, one by one; a core's
 * are not, and nothing records what crossed the links, so a link buffer's
 * head is never guessed at: a data wavelet decoded as a header sends the
 * reader to a router the message never goes near. */
static framing tx_head_framing(const wm_sched *s, unsigned x, unsigned y, unsigned count)
{
    const wm_mp *mp = pe_at(s, x, y);
    if (!mp || s->mode != WM_PE_NATIVE || count == 0) return FRAMING_UNKNOWN;
    /* A push posted in this cycle is not in the queue until the next edge. */
    const unsigned pending = mp->pushes && mp->last_push_cycle == s->cycle ? 1u : 0u;
    const unsigned back = count - 1 + pending; /* the head's distance from the newest push */
    if (back >= 32 || back >= mp->pushes) return FRAMING_UNKNOWN;
    return (mp->tx_headers >> back) & 1u ? FRAMING_HEADER : FRAMING_DATA;
}

static void report_flights(const wm_sched *s, const char *how, FILE *out)
{
    const size_t n = s->ops->in_flight(s->f, NULL, 0);
    wm_flight *fl = calloc(n ? n : 1, sizeof *fl);
    if (!fl) return;
    s->ops->in_flight(s->f, fl, n);
    for (size_t i = 0; i < n; i++) {
        const wm_flight *p = &fl[i];
        const char *place = p->place == WM_AT_TX ? "TX queue" : p->place == WM_AT_INPUT ? "input" : "output";
        fprintf(out, "  %u wavelet(s) %s at (%u,%u) %s", p->count, how, p->x, p->y, place);
        if (p->place != WM_AT_TX) fprintf(out, " %s", port_names[p->port]);
        fprintf(out, ", oldest %08" PRIx32, p->head);
        const framing fr = p->place == WM_AT_TX ? tx_head_framing(s, p->x, p->y, p->count) : FRAMING_UNKNOWN;
        unsigned nx, ny;
        if (fr == FRAMING_DATA) {
            fprintf(out, " (a data wavelet)");
        } else if (fr == FRAMING_HEADER) {
            fprintf(out, " (as a header: to (%u,%u)", wm_header_col(p->head), wm_header_row(p->head));
            if (wm_header_col(p->head) >= wm_layout_width(s->layout) ||
                wm_header_row(p->head) >= wm_layout_height(s->layout)) {
                fprintf(out, ", off the mesh");
            } else if (next_router(p->x, p->y, p->head, &nx, &ny)) {
                fprintf(out, ", next router (%u,%u)", nx, ny);
                if (!wm_layout_enabled(s->layout, nx, ny)) fprintf(out, ", outside the message-passing region");
            }
            fputc(')', out);
        }
        if (!wm_layout_enabled(s->layout, p->x, p->y))
            fprintf(out, "; router (%u,%u) itself is outside the region", p->x, p->y);
        fputc('\n', out);
    }
    free(fl);
}

/* Back-pressure from a PE that does not pop: every tile whose RX queue is
 * full, with what its kernel (if any) is doing instead. */
static void report_full_rx(const wm_sched *s, FILE *out)
{
    const unsigned w = wm_layout_width(s->layout), h = wm_layout_height(s->layout);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const wm_pe_status st = s->ops->pe_status(s->f, x, y);
            if (st.rx_count < WM_RX_DEPTH) continue;
            const wm_mp *mp = pe_at(s, x, y);
            if (!mp) {
                fprintf(out, "  RX queue of PE (%u,%u) is full (%u wavelets) and no kernel runs there to pop it\n", x,
                        y, st.rx_count);
                continue;
            }
            const wm_instance *in = mp->inst;
            fprintf(out, "  RX queue of PE (%u,%u) %s [%s] is full (%u wavelets) and not popped: the kernel is %s", x,
                    y, in->name, in->kernel->name, st.rx_count, wm_pe_state_name(mp->state));
            if (s->mode == WM_PE_NATIVE) {
                if (!mp->pops) fprintf(out, " and has never popped");
                else fprintf(out, ", its last pop was at cycle %" PRIu64, mp->last_pop_cycle);
            }
            fputc('\n', out);
        }
    }
}

/* Messages that went where no kernel reads them: discarded by a router
 * as off the mesh (its sticky error keeps the first header), or waiting in
 * the RX queue of a PE without a kernel or whose kernel has returned. */
static size_t report_lost(const wm_sched *s, FILE *out)
{
    const unsigned w = wm_layout_width(s->layout), h = wm_layout_height(s->layout);
    size_t lost = 0;
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const wm_pe_status st = s->ops->pe_status(s->f, x, y);
            if (st.status & WM_ST_ERR_OFFMESH) {
                fprintf(out,
                        "  router (%u,%u) discarded a message addressed off the %ux%u mesh: header %08" PRIx32
                        " (to (%u,%u), %u data wavelets, tag %u), the first it discarded\n",
                        x, y, w, h, st.err_hdr, wm_header_col(st.err_hdr), wm_header_row(st.err_hdr),
                        wm_header_len(st.err_hdr), wm_header_tag(st.err_hdr));
                lost++;
            }
            if (!st.rx_count) continue;
            const wm_mp *mp = pe_at(s, x, y);
            if (!mp)
                fprintf(out, "  %u wavelet(s) delivered to PE (%u,%u), where no kernel runs: oldest %08" PRIx32 "\n",
                        st.rx_count, x, y, st.rx_head);
            else if (mp->state == WM_PE_DONE || mp->state == WM_PE_FAULT)
                fprintf(out, "  %u wavelet(s) left unread in the RX queue of PE (%u,%u) %s [%s], whose kernel %s\n",
                        st.rx_count, x, y, mp->inst->name, mp->inst->kernel->name,
                        mp->state == WM_PE_DONE ? "returned" : "faulted");
            else
                continue;
            lost++;
        }
    }
    return lost;
}

bool wm_sched_check_delivered(const wm_sched *s, FILE *out)
{
    /* Let what is still on its way arrive, to say where it ends. */
    for (unsigned c = 0; c < DRAIN_CYCLES && !s->ops->quiescent(s->f); c++) s->ops->step(s->f);
    const size_t flying = s->ops->in_flight(s->f, NULL, 0);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    size_t lost = mem ? report_lost(s, mem) : 0;
    if (mem) fclose(mem);
    if (!lost && !flying) {
        free(text);
        return true;
    }
    fprintf(out, "every kernel returned at cycle %" PRIu64 ", but not every message was delivered:\n", s->cycle);
    if (text) fputs(text, out);
    if (flying) report_flights(s, "still in flight", out);
    free(text);
    return false;
}

void wm_sched_report(const wm_sched *s, wm_run_result r, FILE *out)
{
    char why[200];
    switch (r) {
    case WM_RUN_DONE:
        return;
    case WM_RUN_INTERRUPTED:
        /* One line: the run did nothing wrong, it was stopped. */
        wm_interrupt_describe(why, sizeof why);
        if (wm_interrupt_signal())
            fprintf(out, "%s at cycle %" PRIu64 "\n", why, s->cycle);
        else
            fprintf(out, "stopped at cycle %" PRIu64 ": %s\n", s->cycle, why);
        wm_interrupt_note_reported();
        return;
    case WM_RUN_DEADLOCK:
        fprintf(out, "deadlock at cycle %" PRIu64 ": the fabric is quiescent and every live kernel waits for a message\n",
                s->cycle);
        break;
    case WM_RUN_STALLED:
        fprintf(out, "stalled at cycle %" PRIu64 ": every live kernel is blocked and no wavelet has moved for %u cycles\n",
                s->cycle, STALL_WINDOW);
        break;
    case WM_RUN_FAULT:
        fprintf(out, "firmware fault at cycle %" PRIu64 "\n", s->cycle);
        break;
    case WM_RUN_MAX_CYCLES:
        fprintf(out, "cycle limit reached at cycle %" PRIu64 " with %zu kernel(s) still running\n", s->cycle,
                s->nlive);
        break;
    }
    char *lost_text = NULL;
    size_t lost_size = 0;
    FILE *mem = open_memstream(&lost_text, &lost_size);
    const size_t lost = mem ? report_lost(s, mem) : 0;
    if (mem) fclose(mem);
    for (size_t i = 0; i < s->n; i++) {
        const wm_mp *mp = &s->pes[i];
        /* "nobody has sent" only when no message went astray */
        if (mp->state != WM_PE_DONE) report_pe(mp, r == WM_RUN_DEADLOCK && !lost, out);
    }
    if (lost) {
        fprintf(out, "  messages that went astray:\n");
        fputs(lost_text, out);
    }
    free(lost_text);
    if (r == WM_RUN_STALLED || r == WM_RUN_MAX_CYCLES) report_full_rx(s, out);
    if (r == WM_RUN_STALLED) report_flights(s, "stuck", out);
    if (r == WM_RUN_MAX_CYCLES) report_flights(s, "in flight", out);
}

size_t wm_sched_pe_count(const wm_sched *s) { return s->n; }
const wm_instance *wm_sched_pe_instance(const wm_sched *s, size_t pe) { return s->pes[pe].inst; }
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

void wm_sched_charge(wm_mp *mp, unsigned cycles)
{
    mp->ready += cycles;
    /* A kernel that computes for long without touching its port: give the
     * loop the cycles in between, to the cycle limit and signals. Its port
     * accesses happen at the same cycles as without the break. A pathological
     * run of WORK_CALLS zero-cycle charges is charged one cycle. */
    const uint64_t now = mp->s->cycle;
    if (mp->ready > now + WORK_AHEAD || ++mp->charges >= WORK_CALLS) {
        if (mp->ready <= now) mp->ready = now + 1;
        mp->wait = WAIT_WORK;
        yield(mp);
    }
}

void wm_sched_set_memory(wm_sched *s, size_t pe, uint32_t *words)
{
    wm_mp *mp = &s->pes[pe];
    if (mp->mem_owned) free(mp->mem);
    mp->mem = words;
    mp->mem_owned = false;
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
    vsnprintf(mp->fault, sizeof mp->fault, fmt, ap);
    va_end(ap);
    if (!mp->fault[0]) snprintf(mp->fault, sizeof mp->fault, "fault");
    mp->wait = WAIT_NONE;
    SWITCH_START(NULL, mp->s->main_stack, mp->s->main_stack_size);
    _longjmp(mp->s->jb, 1);
}
