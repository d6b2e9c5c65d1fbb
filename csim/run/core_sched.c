/* core_sched.c: the scheduler's core mode (scheduler.h, WM_PE_CORE).
 *
 * Nothing runs on the host: each instance's tile gets its kernel's
 * firmware, its PE block and its data memory, its core is started, and
 * the loop only steps the fabric and watches the cores, diagnosing the
 * end of the run as the native mode does: every core halted (done, or a
 * fault that stops the run at once), a deadlock (the fabric quiescent and
 * every running core stalled on an empty RX queue), a stall (every running
 * core stalled and no wavelet moving), or the cycle limit, which names the
 * PC of every core still running. Results and the data memory are read
 * back from each tile when the run ends, however it ends. The messages in
 * flight are counted from the PE datapath's events, through the fabric's
 * core hook while a run holds it. A debugger (wm_sched_set_debugger,
 * csim/debug/) is called before every step and may hold the loop there:
 * the fabric stands still while it looks. Under jitter (jitter.c) the
 * host holds each core (core_hold) for its start delay and after each of
 * its pushes and pops for the stall drawn for it, seen through the same
 * hook; the rest of the fabric runs on. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include "core/rv32_asm.h"
#include "core/xalloc.h"
#include "waves/fw_lines.h"
#include "waves/waves_fw.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const wm_firmware *firmware_of(wm_sched *s, const char *kernel, char *err, size_t errn)
{
    for (size_t i = 0; i < s->nfws; i++)
        if (!strcmp(s->fws[i].kernel, kernel)) return &s->fws[i];
    wm_firmware *grown = realloc(s->fws, (s->nfws + 1) * sizeof *grown);
    if (!grown) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    s->fws = grown;
    if (!wm_firmware_load(kernel, &s->fws[s->nfws], err, errn)) return NULL;
    return &s->fws[s->nfws++];
}

static bool core_init(wm_sched *s)
{
    if (!s->ops->create_cores) {
        fprintf(stderr, "wavemesh: the %s backend has no PE cores (--pe core needs rtl or sw)\n", s->ops->name);
        return false;
    }
    char err[400];
    s->cpes = calloc(s->n ? s->n : 1, sizeof *s->cpes);
    if (!s->cpes) {
        fprintf(stderr, "wavemesh: out of memory for the cores of %zu kernels\n", s->n);
        return false;
    }
    for (size_t i = 0; i < s->n; i++) {
        wm_core_pe *cp = &s->cpes[i];
        const wm_instance *in = s->pes[i].inst;
        cp->core.halt.state = WM_CORE_RUNNING;
        cp->fw = firmware_of(s, in->kernel->name, err, sizeof err);
        if (!cp->fw || !wm_pe_block_build(&cp->block, in, err, sizeof err)) {
            fprintf(stderr, "wavemesh: PE (%u,%u) %s [%s]: %s\n", in->x, in->y, in->name, in->kernel->name, err);
            return false;
        }
    }
    /* The images' array moved as it grew: point every PE at its final
     * place (each is found, none loaded again). */
    for (size_t i = 0; i < s->n; i++) s->cpes[i].fw = firmware_of(s, s->pes[i].inst->kernel->name, err, sizeof err);
    s->syms = calloc(s->nfws ? s->nfws : 1, sizeof *s->syms);
    s->core_last_event = calloc(s->msgs.ntiles ? s->msgs.ntiles : 1, sizeof *s->core_last_event);
    if (!s->syms || !s->core_last_event) {
        fprintf(stderr, "wavemesh: out of memory\n");
        return false;
    }
    return true;
}

static void core_free(wm_sched *s)
{
    for (size_t i = 0; s->syms && i < s->nfws; i++)
        if (s->syms[i].ok) wm_fw_syms_free(&s->syms[i].syms);
    free(s->syms);
    s->syms = NULL;
    for (size_t i = 0; i < s->nfws; i++) wm_firmware_free(&s->fws[i]);
    free(s->fws);
    s->fws = NULL;
    s->nfws = 0;
    free(s->cpes);
    s->cpes = NULL;
    free(s->core_last_event);
    s->core_last_event = NULL;
    free(s->holds);
    free(s->jitter_tile_pe);
    free(s->jitter_due);
    free(s->jitter_held);
    s->holds = NULL;
    s->jitter_tile_pe = s->jitter_due = s->jitter_held = NULL;
}

/* Hold PE i's core for its due cycles from the next step on: it
 * is let go before the first step at its until or later. */
static void jitter_hold(wm_sched *s, size_t i)
{
    wm_jitter_hold *h = &s->holds[i];
    const wm_instance *in = s->pes[i].inst;
    h->until = s->ops->cycle(s->f) + h->due;
    h->due = 0;
    s->ops->core_hold(s->f, in->x, in->y, true);
    if (!s->njitter_held || h->until < s->jitter_release) s->jitter_release = h->until;
    s->jitter_held[s->njitter_held++] = i;
}

/* Before a step: let go of the cores whose hold ends at this cycle. */
static void jitter_release(wm_sched *s)
{
    if (!s->njitter_held || s->cycle < s->jitter_release) return;
    size_t kept = 0;
    uint64_t earliest = UINT64_MAX;
    for (size_t k = 0; k < s->njitter_held; k++) {
        const size_t i = s->jitter_held[k];
        const wm_jitter_hold *h = &s->holds[i];
        if (h->until <= s->cycle) {
            s->ops->core_hold(s->f, s->pes[i].inst->x, s->pes[i].inst->y, false);
            continue;
        }
        if (h->until < earliest) earliest = h->until;
        s->jitter_held[kept++] = i;
    }
    s->njitter_held = kept;
    s->jitter_release = earliest;
}

/* After a step: hold the cores whose pushes and pops in it drew a stall. */
static void jitter_hold_due(wm_sched *s)
{
    for (size_t k = 0; k < s->njitter_due; k++) jitter_hold(s, s->jitter_due[k]);
    s->njitter_due = 0;
}

/* One step of the fabric, with the jitter's holds around it. */
static void core_step(wm_sched *s)
{
    if (s->jitter_seed) jitter_release(s);
    wm_sched_step(s);
    if (s->jitter_seed) jitter_hold_due(s);
    if (s->obs.on_cycle) s->obs.on_cycle(s->obs_ctx, s->ops->cycle(s->f));
}

/* A push or pop of PE i's core in the step that runs: the stall its
 * generator draws for it, held from the next step on. */
static void jitter_access(wm_sched *s, size_t i)
{
    const unsigned stall = wm_sched_jitter_port(&s->pes[i]);
    wm_jitter_hold *h = &s->holds[i];
    if (!stall) return;
    if (!h->due) s->jitter_due[s->njitter_due++] = i;
    h->due += stall;
}

static bool core_jitter_start(wm_sched *s, char *err, size_t err_size)
{
    if (!s->ops->core_hold || !s->ops->get_core_hook) {
        snprintf(err, err_size,
                 "the %s backend cannot hold one core, which jitter on the cores does (it needs rtl or sw)",
                 s->ops->name);
        return false;
    }
    if (s->cores_started) {
        snprintf(err, err_size, "jitter is set before the first run, not after the cores started");
        return false;
    }
    if (s->dbg.between) {
        snprintf(err, err_size, "jitter under a debugger: both hold cores, and each would let go of the other's holds");
        return false;
    }
    const size_t w = wm_layout_width(s->layout), tiles = w * wm_layout_height(s->layout);
    free(s->holds);
    free(s->jitter_tile_pe);
    free(s->jitter_due);
    free(s->jitter_held);
    s->holds = wm_xcalloc(s->n ? s->n : 1, sizeof *s->holds);
    s->jitter_tile_pe = wm_xmalloc((tiles ? tiles : 1) * sizeof *s->jitter_tile_pe);
    for (size_t t = 0; t < tiles; t++) s->jitter_tile_pe[t] = SIZE_MAX;
    for (size_t i = 0; i < s->n; i++) s->jitter_tile_pe[s->pes[i].inst->y * w + s->pes[i].inst->x] = i;
    s->jitter_due = wm_xcalloc(s->n ? s->n : 1, sizeof *s->jitter_due);
    s->jitter_held = wm_xcalloc(s->n ? s->n : 1, sizeof *s->jitter_held);
    s->njitter_due = s->njitter_held = 0;
    return true;
}

/* Held from the step that would be its cycle 0 (start_cores). */
static void core_delay_start(wm_sched *s, wm_mp *mp, unsigned cycles) { s->holds[mp->index].due = cycles; }

static void start_cores(wm_sched *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (!wm_sched_pe_here(s, i)) continue; /* another rank's */
        wm_mp *mp = &s->pes[i];
        const wm_core_pe *cp = &s->cpes[i];
        const unsigned x = mp->inst->x, y = mp->inst->y;
        s->ops->core_load(s->f, x, y, 0, cp->fw->bytes, cp->fw->n);
        s->ops->core_load(s->f, x, y, WM_PE_BLOCK_ADDR, &cp->block, sizeof cp->block);
        if (mp->mem) s->ops->core_load(s->f, x, y, WM_PE_DATA_ADDR, mp->mem, WM_PE_DATA_BYTES);
        s->ops->core_start(s->f, x, y);
    }
    for (size_t i = 0; s->jitter_seed && i < s->n; i++)
        if (s->holds[i].due && wm_sched_pe_here(s, i)) jitter_hold(s, i);
    s->cores_started = true;
}

static void add_export(wm_mp *mp, const char *name, int64_t value, uint64_t cycle)
{
    if (mp->nexports == mp->cap_exports) {
        const size_t cap = mp->cap_exports ? 2 * mp->cap_exports : 8;
        wm_export *grown = realloc(mp->exports, cap * sizeof *grown);
        if (!grown) return;
        mp->exports = grown;
        mp->cap_exports = cap;
    }
    mp->exports[mp->nexports++] = (wm_export){name, value, cycle};
    if (mp->s->obs.on_export) mp->s->obs.on_export(mp->s->obs_ctx, mp->index, cycle, name, value);
}

/* Read the block back: its results, and the fault record. */
static void read_block(wm_sched *s, wm_mp *mp)
{
    const unsigned x = mp->inst->x, y = mp->inst->y;
    wm_pe_block *b = &s->cpes[mp->index].block;
    s->ops->core_read(s->f, x, y, WM_PE_BLOCK_ADDR, b, sizeof *b);
}

/* When the run ends: every core's results and data memory. */
static void collect(wm_sched *s)
{
    if (s->cores_collected) return;
    s->cores_collected = true;
    for (size_t i = 0; i < s->n; i++) {
        if (!wm_sched_pe_here(s, i)) continue; /* another rank's, gathered by rank 0 */
        wm_mp *mp = &s->pes[i];
        const unsigned x = mp->inst->x, y = mp->inst->y;
        read_block(s, mp);
        const wm_pe_block *b = &s->cpes[i].block;
        const char *const *list = mp->inst->kernel->exports;
        for (unsigned e = 0; list && list[e] && e < WM_PE_EXPORTS_MAX; e++)
            if (b->exported & (1u << e)) add_export(mp, list[e], b->exports[e], s->cycle);
        if (mp->mem) s->ops->core_read(s->f, x, y, WM_PE_DATA_ADDR, mp->mem, WM_PE_DATA_BYTES);
    }
}

/* A halted core: done, or the fault that ends the run. */
static bool halted_ok(wm_sched *s, wm_mp *mp)
{
    const wm_core_pe *cp = &s->cpes[mp->index];
    const wm_core_halt *h = &cp->core.halt;
    if (h->state == WM_CORE_EXITED && h->exit_code == WM_PE_EXIT_DONE) {
        wm_sched_set_state(s, mp, WM_PE_DONE);
        return true;
    }
    char insn[64];
    rv_disasm(h->insn, insn, sizeof insn);
    if (h->state == WM_CORE_FAULTED) {
        snprintf(wm_sched_fault_text(mp), FAULT_TEXT, "%s at pc 0x%08" PRIx32 ", instruction %08" PRIx32 " (%s)",
                 wm_core_fault_name(h->cause), h->pc, h->insn, h->cause == WM_CORE_FAULT_FETCH ? "none" : insn);
    } else if (h->exit_code == WM_PE_EXIT_FAULT) {
        read_block(s, mp);
        char text[FAULT_TEXT];
        wm_pe_fault_text(s->ops, s->f, mp->inst->x, mp->inst->y, &cp->block, text, sizeof text);
        snprintf(wm_sched_fault_text(mp), FAULT_TEXT, "%s", text);
    } else {
        snprintf(wm_sched_fault_text(mp), FAULT_TEXT, "the firmware exited with code %" PRIu32 " at pc 0x%08" PRIx32,
                 h->exit_code, h->pc);
    }
    wm_sched_set_state(s, mp, WM_PE_FAULT);
    return false;
}

static wm_run_result finish(wm_sched *s, wm_run_result r)
{
    collect(s);
    return r;
}

static wm_run_result core_loop(wm_sched *s, uint64_t max_cycles)
{
    if (!s->cores_started) start_cores(s);
    if (s->cores_collected) return s->nlive ? WM_RUN_MAX_CYCLES : WM_RUN_DONE;
    for (;;) {
        s->cycle = s->ops->cycle(s->f);
        /* a partitioned run stops where every rank does: below */
        if (!s->part && wm_sched_interrupted(s)) return finish(s, WM_RUN_INTERRUPTED);
        wm_sched_progress(s);
        wm_sched_tally t = {0, s->nlive, 0, 0, 0, 0, s->part && wm_sched_interrupted(s), 0};
        /* Each core is looked at only when the census says something
         * happened: a core halted, or every live one is waiting. A dump
         * follows each core's state every cycle. Otherwise some live core
         * is not waiting: the tally says so with blocked 0 of nlive. */
        bool look = true;
        if (s->ops->core_census && !s->obs.on_state && !s->dbg.between && s->cycle < max_cycles) {
            size_t halted, waiting;
            s->ops->core_census(s->f, &halted, &waiting);
            if (halted == s->census_halted && waiting < s->nlive) look = false;
            else s->census_halted = halted;
        }
        if (look) {
            bool faulted = false;
            size_t blocked_recv = 0, blocked = 0, kept = 0;
            for (size_t k = 0; k < s->nlive; k++) {
                wm_mp *mp = &s->pes[s->live[k]];
                const unsigned x = mp->inst->x, y = mp->inst->y;
                wm_core_status *cs = &s->cpes[mp->index].core;
                *cs = s->ops->core_status(s->f, x, y);
                if (cs->halt.state != WM_CORE_RUNNING) {
                    if (!halted_ok(s, mp)) faulted = true;
                    continue;
                }
                if (cs->waiting) {
                    const wm_pe_status ps = s->ops->pe_status(s->f, x, y);
                    const bool recv = ps.rx_count == 0 && ps.tx_count < WM_TX_DEPTH;
                    /* waiting since the cycle after its last event, where the hook tells it */
                    if (recv && mp->state != WM_PE_BLOCKED_RECV)
                        mp->blocked_since = s->msgs_hooked
                                                ? s->core_last_event[(size_t)y * wm_layout_width(s->layout) + x] + 1
                                                : s->cycle;
                    wm_sched_set_state(s, mp, recv ? WM_PE_BLOCKED_RECV : WM_PE_BLOCKED_SEND);
                    blocked_recv += recv;
                    blocked++;
                } else {
                    wm_sched_set_state(s, mp, WM_PE_RUNNING);
                }
                s->live[kept++] = s->live[k];
            }
            s->nlive = kept;
            t = (wm_sched_tally){faulted, s->nlive, blocked_recv, blocked, 0,
                                 blocked_recv == s->nlive && !s->ops->quiescent(s->f), t.stop, 0};
        }
        wm_sched_agree(s, &t);
        if (t.faulted) return finish(s, WM_RUN_FAULT);
        if (t.live == 0) return finish(s, WM_RUN_DONE);
        if (t.blocked_recv == t.live && !t.busy) return finish(s, WM_RUN_DEADLOCK);
        if (t.blocked == t.live) {
            if (++s->idle_cycles % STALL_WINDOW == 0 && wm_sched_snapshot_unchanged(s))
                return finish(s, WM_RUN_STALLED);
        } else {
            s->idle_cycles = 0;
            s->prev_snap_n = (size_t)-1;
        }
        if (t.stop) return finish(s, WM_RUN_INTERRUPTED);
        if (s->cycle >= max_cycles) return finish(s, WM_RUN_MAX_CYCLES);
        if (s->dbg.between && !s->dbg.between(s->dbg_ctx, s->cycle)) return finish(s, WM_RUN_INTERRUPTED);
        core_step(s);
    }
}

/* A core's pushes and pops, with their wavelets, from the fabric's core
 * hook: counted as messages, and under jitter each draws its stall (a
 * push first, where a cycle has both); every event goes on to the hook
 * set before. */
static void count_core_event(void *ctx, const wm_core_event *ev)
{
    wm_sched *s = ctx;
    const size_t tile = (size_t)ev->y * wm_layout_width(s->layout) + ev->x;
    if (s->msgs_kept) {
        /* A TX store retires in the cycle it pushes: its PC is the send's. */
        if (ev->what.push)
            wm_sched_msg_push(s, 2 * (uint64_t)tile, tile, ev->what.push_data, ev->cycle,
                              ev->what.retire ? ev->what.retire_pc : 0, false);
        if (ev->what.pop) wm_sched_msg_pop(s, 2 * (uint64_t)tile + 1, tile, ev->pop_data, ev->cycle);
    }
    if (s->core_last_event) s->core_last_event[tile] = ev->cycle;
    if (s->jitter_seed && s->jitter_tile_pe[tile] != SIZE_MAX) {
        if (ev->what.push) jitter_access(s, s->jitter_tile_pe[tile]);
        if (ev->what.pop) jitter_access(s, s->jitter_tile_pe[tile]);
    }
    if (s->prev_core_hook) s->prev_core_hook(s->prev_core_ctx, ev);
}

/* On the cores, count messages from the first run on, if wanted: the
 * hook is the scheduler's only while a run holds it. */
static void hook_core_events(wm_sched *s, bool first_run)
{
    /* Always: a report names the message a blocked core waits for. */
    if (!s->ops->get_core_hook) return;
    /* pushes before this run went uncounted: none are counted from now on */
    s->msgs_kept = first_run || s->msgs_kept;
    if (!s->msgs_kept && !s->jitter_seed) return;
    s->prev_core_hook = s->ops->get_core_hook(s->f, &s->prev_core_ctx);
    s->ops->set_core_hook(s->f, count_core_event, s);
    s->msgs_hooked = true;
}

static void unhook_core_events(wm_sched *s)
{
    if (!s->msgs_hooked) return;
    s->ops->set_core_hook(s->f, s->prev_core_hook, s->prev_core_ctx);
    s->msgs_hooked = false;
}

static wm_run_result core_run(wm_sched *s, uint64_t max_cycles)
{
    hook_core_events(s, !s->cores_started);
    const wm_run_result r = core_loop(s, max_cycles);
    unhook_core_events(s);
    return r;
}

/* What pc_function says of a PC: nothing, its function, or a note. */
typedef enum { PC_UNNAMED, PC_FUNCTION, PC_NOTE } pc_naming;

/* The function of pc from the kernel's ELF (waves/fw_syms.h), read once
 * per kernel, and its source line where the ELF has one (waves/fw_lines.h):
 * "wm_kernel_node+0x54, sw/collectives/node.c:45" into buf. A PC past the
 * RAM or the image's code is no function's of the ELF, and an ELF that is
 * not the image's names nothing: a note into buf says so. */
static pc_naming pc_function(const wm_sched *s, const wm_mp *mp, uint32_t pc, char *buf, size_t size)
{
    const size_t k = (size_t)(s->cpes[mp->index].fw - s->fws);
    if (!s->syms || k >= s->nfws) return PC_UNNAMED;
    wm_core_syms *cs = &s->syms[k];
    if (!cs->tried) {
        char err[sizeof cs->why], elf[4096];
        cs->tried = true;
        cs->ok = wm_fw_syms_load_kernel(mp->inst->kernel->name, &cs->syms, err, sizeof err);
        snprintf(elf, sizeof elf, "%s/%s.elf", wm_fw_dir(), mp->inst->kernel->name);
        if (!cs->ok && access(elf, F_OK) == 0) snprintf(cs->why, sizeof cs->why, "%s", err);
    }
    if (cs->ok && pc >= WM_TILE_MEM_BYTES) {
        snprintf(buf, size, "outside the RAM, 0x00000000..0x%08x", WM_TILE_MEM_BYTES - 1);
        return PC_NOTE;
    }
    if (cs->ok && pc >= cs->syms.code_end) {
        snprintf(buf, size, "outside the image's code, 0x00000000..0x%08" PRIx32, cs->syms.code_end - 1);
        return PC_NOTE;
    }
    if (cs->why[0]) {
        snprintf(buf, size, "no function named: %s", cs->why);
        return PC_NOTE;
    }
    const long i = cs->ok ? wm_fw_syms_find(&cs->syms, pc) : -1;
    if (i < 0) return PC_UNNAMED;
    const int n = snprintf(buf, size, "%s+0x%" PRIx32, cs->syms.syms[i].name, pc - cs->syms.syms[i].addr);
    char line[300];
    if (n > 0 && wm_fw_source_line(mp->inst->kernel->name, pc, line, sizeof line)) {
        const size_t len = strlen(line);
        if ((size_t)n + 2 + len < size) {
            memcpy(buf + n, ", ", 2);
            memcpy(buf + n + 2, line, len + 1);
        }
    }
    return PC_FUNCTION;
}

/* "pc 0x000000cc (wm_kernel_node+0x54, sw/collectives/node.c:45)", or the PC alone without its function. */
static void print_pc(const wm_sched *s, const wm_mp *mp, uint32_t pc, FILE *out)
{
    char fn[1024];
    fprintf(out, "pc 0x%08" PRIx32, pc);
    if (pc_function(s, mp, pc, fn, sizeof fn) != PC_UNNAMED) fprintf(out, " (%s)", fn);
}

static void core_report_pe(const wm_sched *s, const wm_mp *mp, bool deadlocked, FILE *out)
{
    const wm_instance *in = mp->inst;
    const wm_core_status *c = &s->cpes[mp->index].core;
    const size_t tile = (size_t)in->y * wm_layout_width(s->layout) + in->x;
    fprintf(out, "  PE (%u,%u) %s [%s]: ", in->x, in->y, in->name, in->kernel->name);
    switch (mp->state) {
    case WM_PE_FAULT:
        fprintf(out, "fault: %s", mp->fault);
        if (c->halt.state == WM_CORE_EXITED) fprintf(out, " (the EXIT store at pc 0x%08" PRIx32 ")", c->halt.pc);
        {
            /* the fault's text names the PC already: its function only */
            char fn[1024];
            const pc_naming named = pc_function(s, mp, c->halt.pc, fn, sizeof fn);
            if (named != PC_UNNAMED) fprintf(out, named == PC_FUNCTION ? ", in %s" : ", %s", fn);
        }
        break;
    case WM_PE_BLOCKED_RECV:
        fprintf(out, "blocked on receive at ");
        print_pc(s, mp, c->pc, out);
        if (!s->msgs_kept)
            fprintf(out, ": its RX queue is empty%s", deadlocked ? " and nobody has sent it anything" : "");
        else if (wm_msg_flight_mid_message(&s->msgs, tile))
            fprintf(out, ": waits for a data wavelet of message %" PRIu32, wm_msg_flight_received(&s->msgs, tile));
        else
            fprintf(out, ": waits for message %" PRIu32 "%s", wm_msg_flight_received(&s->msgs, tile) + 1,
                    deadlocked ? ", which nobody has sent" : "");
        break;
    case WM_PE_BLOCKED_SEND:
        fprintf(out, "blocked on send at ");
        print_pc(s, mp, c->pc, out);
        fprintf(out, ": its TX queue is full");
        break;
    default: {
        fprintf(out, "%s at ", wm_pe_state_name(mp->state));
        print_pc(s, mp, c->pc, out);
        fprintf(out, ", %" PRIu64 " instructions retired", c->retired);
        break;
    }
    }
    fputc('\n', out);
}

/* A send's site is the PC of its TX store, 0 when the hook saw none. */
static void core_report_site(const wm_sched *s, const wm_mp *mp, uint64_t site, FILE *out)
{
    if (!site) return;
    fprintf(out, " from ");
    print_pc(s, mp, (uint32_t)site, out);
}

const wm_pe_mode_ops wm_pe_core_ops = {
    .mode = WM_PE_CORE,
    .name = "core",
    .init = core_init,
    .run = core_run,
    .report_pe = core_report_pe,
    .report_site = core_report_site,
    .free = core_free,
    .jitter_start = core_jitter_start,
    .delay_start = core_delay_start,
    .sees_port = false,
};
