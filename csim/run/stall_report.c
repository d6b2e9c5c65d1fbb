/* stall_report.c: why a run ended, and where its messages went
 * (scheduler.h: wm_sched_report, wm_sched_check_delivered): the blocked
 * PEs, each in its mode's words (wm_pe_mode_ops.report_pe), the messages
 * gone astray, the full RX queues and the wavelets stuck or in flight. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include "waves/interrupt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const port_names[WM_NPORTS] = {"N", "E", "S", "W", "L"};

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

/* The kernels by tile (row-major, NULL where none runs), made once a
 * report: a report of many PEs looks up as many. NULL when out of memory:
 * then pe_at searches. */
static const wm_mp **pes_by_tile(const wm_sched *s)
{
    const size_t ntiles = (size_t)wm_layout_width(s->layout) * wm_layout_height(s->layout);
    const wm_mp **by_tile = calloc(ntiles ? ntiles : 1, sizeof *by_tile);
    if (!by_tile) return NULL;
    for (size_t i = 0; i < s->n; i++)
        by_tile[(size_t)s->pes[i].inst->y * wm_layout_width(s->layout) + s->pes[i].inst->x] = &s->pes[i];
    return by_tile;
}

/* The kernel on tile (x, y), or NULL. */
static const wm_mp *pe_at(const wm_sched *s, const wm_mp *const *by_tile, unsigned x, unsigned y)
{
    if (by_tile) return by_tile[(size_t)y * wm_layout_width(s->layout) + x];
    for (size_t i = 0; i < s->n; i++)
        if (s->pes[i].inst->x == x && s->pes[i].inst->y == y) return &s->pes[i];
    return NULL;
}

/* "PE (x,y) NAME [kernel] at cycle C from WHERE": who sent a message. */
static void report_sender(const wm_sched *s, const wm_mp *const *by_tile, uint32_t tile, uint64_t cycle,
                          uint64_t site, FILE *out)
{
    const unsigned w = wm_layout_width(s->layout), x = tile % w, y = tile / w;
    const wm_mp *mp = pe_at(s, by_tile, x, y);
    fprintf(out, "PE (%u,%u)", x, y);
    if (mp) fprintf(out, " %s [%s]", mp->inst->name, mp->inst->kernel->name);
    fprintf(out, " at cycle %" PRIu64, cycle);
    if (mp) s->pm->report_site(s, mp, site, out);
}

/* "sent by ...", and when several senders may have sent it, each of the
 * first two and how alike their messages are. */
static void report_origin(const wm_sched *s, const wm_mp *const *by_tile, const wm_msg_origin *o, FILE *out)
{
    if (!o->senders) {
        fprintf(out, "sent before its sender's pushes were seen");
        return;
    }
    fprintf(out, "sent by ");
    report_sender(s, by_tile, o->sender[0].tile, o->sender[0].cycle, o->sender[0].site, out);
    if (o->senders == 1) return;
    fprintf(out, " or by ");
    report_sender(s, by_tile, o->sender[1].tile, o->sender[1].cycle, o->sender[1].site, out);
    if (o->senders > 2) fprintf(out, " or by one of %" PRIu32 " other PEs", o->senders - 2);
    fprintf(out, ": %s", o->data_compared ? "identical messages" : "identical headers, the data not compared");
}

typedef enum { FRAMING_UNKNOWN, FRAMING_HEADER, FRAMING_DATA } framing;

/* Whether the oldest of the count wavelets in tile (x, y)'s TX queue is a
 * header. Only a native kernel's pushes are seen, one by one (its mode's
 * sees_port); a core's are not, and nothing records what crossed the
 * links, so a link buffer's head is never guessed at: a data wavelet
 * decoded as a header sends the reader to a router the message never
 * goes near. */
static framing tx_head_framing(const wm_sched *s, const wm_mp *const *by_tile, unsigned x, unsigned y,
                               unsigned count)
{
    const wm_mp *mp = pe_at(s, by_tile, x, y);
    if (!mp || !s->pm->sees_port || count == 0) return FRAMING_UNKNOWN;
    /* A push posted in this cycle is not in the queue until the next edge. */
    const unsigned pending = mp->pushes && mp->last_push_cycle == s->cycle ? 1u : 0u;
    const unsigned back = count - 1 + pending; /* the head's distance from the newest push */
    if (back >= 32 || back >= mp->pushes) return FRAMING_UNKNOWN;
    return (mp->tx_headers >> back) & 1u ? FRAMING_HEADER : FRAMING_DATA;
}

static void report_flights(const wm_sched *s, const wm_mp *const *by_tile, const char *how, FILE *out)
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
        const framing fr = p->place == WM_AT_TX ? tx_head_framing(s, by_tile, p->x, p->y, p->count) : FRAMING_UNKNOWN;
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
static void report_full_rx(const wm_sched *s, const wm_mp *const *by_tile, FILE *out)
{
    const unsigned w = wm_layout_width(s->layout), h = wm_layout_height(s->layout);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const wm_pe_status st = s->ops->pe_status(s->f, x, y);
            if (st.rx_count < WM_RX_DEPTH) continue;
            const wm_mp *mp = pe_at(s, by_tile, x, y);
            if (!mp) {
                fprintf(out, "  RX queue of PE (%u,%u) is full (%u wavelets) and no kernel runs there to pop it\n", x,
                        y, st.rx_count);
                continue;
            }
            const wm_instance *in = mp->inst;
            fprintf(out, "  RX queue of PE (%u,%u) %s [%s] is full (%u wavelets) and not popped: the kernel is %s", x,
                    y, in->name, in->kernel->name, st.rx_count, wm_pe_state_name(mp->state));
            if (s->pm->sees_port) {
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
static size_t report_lost(const wm_sched *s, const wm_mp *const *by_tile, FILE *out)
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
            const wm_mp *mp = pe_at(s, by_tile, x, y);
            const size_t tile = (size_t)y * w + x;
            wm_msg_origin o;
            if (!mp) {
                /* nothing pops there: the oldest is a header */
                fprintf(out, "  %u wavelet(s) delivered to PE (%u,%u), where no kernel runs: oldest %08" PRIx32,
                        st.rx_count, x, y, st.rx_head);
                if (s->msgs_kept && wm_msg_flight_head_origin(&s->msgs, tile, st.rx_head, &o)) {
                    fprintf(out, ", ");
                    report_origin(s, by_tile, &o, out);
                }
                fputc('\n', out);
            } else if (mp->state == WM_PE_DONE || mp->state == WM_PE_FAULT) {
                /* A native kernel's pop of this cycle (one that faults
                 * right after it) leaves the queue at the cycle's end: the
                 * head shown is the wavelet it took, the next not seen. */
                const bool popping = s->pm->sees_port && mp->pops && mp->last_pop_cycle == s->cycle;
                if (popping && st.rx_count == 1) continue;
                fprintf(out, "  %u wavelet(s) left unread in the RX queue of PE (%u,%u) %s [%s], whose kernel %s",
                        st.rx_count - (popping ? 1u : 0u), x, y, mp->inst->name, mp->inst->kernel->name,
                        mp->state == WM_PE_DONE ? "returned" : "faulted");
                /* The pops counted at the port frame the queue's head. */
                if (popping) {
                    /* nothing more is known of the first */
                } else if (s->msgs_kept && !wm_msg_flight_mid_message(&s->msgs, tile)) {
                    fprintf(out, ": the first, %08" PRIx32 ", is the header of message %" PRIu32 " (to (%u,%u), %u data wavelet(s), tag %u)",
                            st.rx_head, wm_msg_flight_received(&s->msgs, tile) + 1, wm_header_col(st.rx_head),
                            wm_header_row(st.rx_head), wm_header_len(st.rx_head), wm_header_tag(st.rx_head));
                    if (wm_msg_flight_head_origin(&s->msgs, tile, st.rx_head, &o)) {
                        fprintf(out, ", ");
                        report_origin(s, by_tile, &o, out);
                    }
                } else
                    fprintf(out, ": the first is %08" PRIx32 "%s", st.rx_head,
                            s->msgs_kept ? ", a data wavelet of a message it began to read" : "");
                fputc('\n', out);
            } else {
                continue;
            }
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
    const wm_mp **by_tile = pes_by_tile(s);
    size_t lost = mem ? report_lost(s, by_tile, mem) : 0;
    if (mem) fclose(mem);
    if (!lost && !flying) {
        free(by_tile);
        free(text);
        return true;
    }
    fprintf(out, "every kernel returned at cycle %" PRIu64 ", but not every message was delivered:\n", s->cycle);
    if (text) fputs(text, out);
    if (flying) report_flights(s, by_tile, "still in flight", out);
    free(by_tile);
    free(text);
    return false;
}

/* A deadlocked PE's last message: its number and tag, when its header
 * was popped, and who sent it. */
static void report_last_received(const wm_sched *s, const wm_mp *const *by_tile, const wm_mp *mp, FILE *out)
{
    if (!s->msgs_kept) return;
    const size_t tile = (size_t)mp->inst->y * wm_layout_width(s->layout) + mp->inst->x;
    const uint32_t received = wm_msg_flight_received(&s->msgs, tile);
    wm_msg_origin o;
    if (!received) {
        fprintf(out, "    it has received nothing\n");
    } else if (wm_msg_flight_last_received(&s->msgs, tile, &o)) {
        fprintf(out, "    the last message it received: message %" PRIu32 " (tag %u) at cycle %" PRIu64 ", ", received,
                wm_header_tag(o.header), o.received);
        report_origin(s, by_tile, &o, out);
        fputc('\n', out);
    }
}

/* Where a deadlock's chain of waits starts: the PE blocked on receive
 * since the earliest cycle, the lowest index among equals. */
static void report_chain_start(const wm_sched *s, FILE *out)
{
    const wm_mp *first = NULL;
    for (size_t i = 0; i < s->n; i++) {
        const wm_mp *mp = &s->pes[i];
        if (mp->state == WM_PE_BLOCKED_RECV && (!first || mp->blocked_since < first->blocked_since)) first = mp;
    }
    if (!first) return;
    fprintf(out, "  the chain starts at PE (%u,%u) %s [%s], waiting since cycle %" PRIu64 ", the first to block\n",
            first->inst->x, first->inst->y, first->inst->name, first->inst->kernel->name, first->blocked_since);
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
    const wm_mp **by_tile = pes_by_tile(s);
    FILE *mem = open_memstream(&lost_text, &lost_size);
    const size_t lost = mem ? report_lost(s, by_tile, mem) : 0;
    if (mem) fclose(mem);
    for (size_t i = 0; i < s->n; i++) {
        const wm_mp *mp = &s->pes[i];
        /* "nobody has sent" only when no message went astray */
        if (mp->state != WM_PE_DONE) s->pm->report_pe(s, mp, r == WM_RUN_DEADLOCK && !lost, out);
        if (r == WM_RUN_DEADLOCK && mp->state == WM_PE_BLOCKED_RECV) report_last_received(s, by_tile, mp, out);
    }
    if (r == WM_RUN_DEADLOCK) report_chain_start(s, out);
    if (lost) {
        fprintf(out, "  messages that went astray:\n");
        fputs(lost_text, out);
    }
    free(lost_text);
    if (r == WM_RUN_STALLED || r == WM_RUN_MAX_CYCLES) report_full_rx(s, by_tile, out);
    if (r == WM_RUN_STALLED) report_flights(s, by_tile, "stuck", out);
    if (r == WM_RUN_MAX_CYCLES) report_flights(s, by_tile, "in flight", out);
    free(by_tile);
}

wm_ending wm_sched_ending(const wm_sched *s, wm_run_result r, FILE *out)
{
    wm_sched_report(s, r, out);
    switch (r) {
    case WM_RUN_DONE:
        return wm_sched_check_delivered(s, out) ? WM_END_RETURNED : WM_END_UNDELIVERED;
    case WM_RUN_DEADLOCK:
        return WM_END_DEADLOCK;
    case WM_RUN_STALLED:
        return WM_END_STALL;
    case WM_RUN_FAULT:
        return WM_END_FAULT;
    case WM_RUN_MAX_CYCLES:
        return WM_END_CYCLE_LIMIT;
    case WM_RUN_INTERRUPTED:
        break;
    }
    return WM_END_INTERRUPTED;
}
