/* stall_report.c: why a run ended, and where its messages went
 * (scheduler.h: wm_sched_report, wm_sched_check_delivered): the blocked
 * PEs, each in its mode's words (wm_pe_mode_ops.report_pe), the messages
 * gone astray, the full RX queues and the wavelets stuck or in flight. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include "core/xalloc.h"
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

/* The tiles this process holds: all of them, or its block's. */
static void tiles_here(const wm_sched *s, unsigned *x0, unsigned *x1, unsigned *y0, unsigned *y1)
{
    *x0 = *y0 = 0;
    *x1 = wm_layout_width(s->layout);
    *y1 = wm_layout_height(s->layout);
    if (s->part) {
        const wm_fabric_band b = wm_partition_band(s->part);
        *y0 = b.row_begin;
        *y1 = b.row_end;
        *x0 = b.col_begin;
        *x1 = b.col_end;
    }
}

/* Whether this process prints the report: always, but in a partitioned
 * run only rank 0. */
static bool prints(const wm_sched *s) { return !s->part || wm_partition_rank(s->part) == 0; }

/* n summed over the ranks of a partitioned run. */
static size_t summed(const wm_sched *s, size_t n)
{
    if (!s->part) return n;
    uint64_t v = n;
    wm_partition_sum(s->part, &v, 1, s->cycle);
    return (size_t)v;
}

/* A report section, written to memory, each of its lines under a key
 * (a tile's index in the mesh, or a PE's in the layout): in a
 * partitioned run every rank writes its own tiles' and PEs' and rank 0
 * prints them all in the keys' order, which is the order one process
 * prints them in. */
typedef struct {
    char *text;
    size_t len;
    FILE *f;
    uint64_t *keys;
    size_t *at; /* where the lines under keys[i] begin in text */
    size_t n, cap;
} section;

/* The section the report writes into now (reports run on one thread). */
static section *writing;

static FILE *section_open(section *sec)
{
    memset(sec, 0, sizeof *sec);
    sec->f = open_memstream(&sec->text, &sec->len);
    writing = sec->f ? sec : NULL;
    return sec->f;
}

/* What is written from here on is under key. */
static void mark(uint64_t key)
{
    section *sec = writing;
    if (!sec) return;
    fflush(sec->f);
    if (sec->n == sec->cap) {
        sec->cap = sec->cap ? 2 * sec->cap : 64;
        sec->keys = wm_xrealloc(sec->keys, sec->cap * sizeof *sec->keys);
        sec->at = wm_xrealloc(sec->at, sec->cap * sizeof *sec->at);
    }
    sec->keys[sec->n] = key;
    sec->at[sec->n++] = sec->len;
}

typedef struct {
    uint64_t key, seq;
    const char *text;
    size_t len;
} keyed_line;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed_line *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Closed and printed: here, as written; in a partitioned run, every
 * rank's by rank 0, in the keys' order. */
static void section_emit(const wm_sched *s, section *sec, FILE *out)
{
    if (writing == sec) writing = NULL;
    if (sec->f) fclose(sec->f);
    if (!s->part) {
        if (sec->f && sec->len) fwrite(sec->text, 1, sec->len, out);
    } else {
        /* each keyed run of text as its key, its length and its bytes */
        char *packed = NULL;
        size_t plen = 0;
        FILE *pf = open_memstream(&packed, &plen);
        for (size_t i = 0; pf && sec->f && i < sec->n; i++) {
            const size_t end = i + 1 < sec->n ? sec->at[i + 1] : sec->len;
            const uint64_t head[2] = {sec->keys[i], end - sec->at[i]};
            fwrite(head, sizeof head, 1, pf);
            fwrite(sec->text + sec->at[i], 1, end - sec->at[i], pf);
        }
        if (pf) fclose(pf);
        size_t total = 0;
        char *all = wm_partition_gather(s->part, packed, pf ? plen : 0, &total, s->cycle);
        free(packed);
        size_t n = 0, cap = 0;
        keyed_line *lines = NULL;
        for (size_t at = 0; all && at + 2 * sizeof(uint64_t) <= total;) {
            uint64_t head[2];
            memcpy(head, all + at, sizeof head);
            at += sizeof head;
            if (head[1] > total - at) break;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                lines = wm_xrealloc(lines, cap * sizeof *lines);
            }
            lines[n] = (keyed_line){head[0], n, all + at, (size_t)head[1]};
            n++;
            at += (size_t)head[1];
        }
        if (n) qsort(lines, n, sizeof *lines, keyed_cmp);
        for (size_t i = 0; i < n; i++) fwrite(lines[i].text, 1, lines[i].len, out);
        free(lines);
        free(all);
    }
    free(sec->text);
    free(sec->keys);
    free(sec->at);
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
        mark((uint64_t)p->y * wm_layout_width(s->layout) + p->x);
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
    const unsigned w = wm_layout_width(s->layout);
    unsigned x0, x1, y0, y1;
    tiles_here(s, &x0, &x1, &y0, &y1);
    for (unsigned y = y0; y < y1; y++) {
        for (unsigned x = x0; x < x1; x++) {
            mark((uint64_t)y * w + x);
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
    unsigned x0, x1, y0, y1;
    tiles_here(s, &x0, &x1, &y0, &y1);
    for (unsigned y = y0; y < y1; y++) {
        for (unsigned x = x0; x < x1; x++) {
            mark((uint64_t)y * w + x);
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

static void flights_section(const wm_sched *s, const wm_mp *const *by_tile, const char *how, FILE *out)
{
    section sec;
    if (section_open(&sec)) report_flights(s, by_tile, how, sec.f);
    section_emit(s, &sec, out);
}

bool wm_sched_check_delivered(const wm_sched *s, FILE *out)
{
    /* Let what is still on its way arrive, to say where it ends. */
    for (unsigned c = 0; c < DRAIN_CYCLES; c++) {
        if (!summed(s, !s->ops->quiescent(s->f))) break;
        wm_sched_step(s);
    }
    const size_t flying = summed(s, s->ops->in_flight(s->f, NULL, 0));
    const wm_mp **by_tile = pes_by_tile(s);
    section lost_sec;
    const size_t lost = summed(s, section_open(&lost_sec) ? report_lost(s, by_tile, lost_sec.f) : 0);
    if (!lost && !flying) {
        if (writing == &lost_sec) writing = NULL;
        if (lost_sec.f) fclose(lost_sec.f);
        free(lost_sec.text);
        free(lost_sec.keys);
        free(lost_sec.at);
        free(by_tile);
        return true;
    }
    if (prints(s))
        fprintf(out, "every kernel returned at cycle %" PRIu64 ", but not every message was delivered:\n", s->cycle);
    section_emit(s, &lost_sec, out);
    if (flying) flights_section(s, by_tile, "still in flight", out);
    free(by_tile);
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

/* The line of every PE whose kernel is not done, in layout order, and a
 * deadlocked one's last message (in a partitioned run each rank writes
 * its own PEs', keyed by the PE's index). */
static void report_pes(const wm_sched *s, const wm_mp *const *by_tile, wm_run_result r, bool deadlocked, FILE *out)
{
    section sec;
    if (!section_open(&sec)) return;
    for (size_t i = 0; i < s->n; i++) {
        const wm_mp *mp = &s->pes[i];
        if (!wm_sched_pe_here(s, i) || mp->state == WM_PE_DONE) continue;
        mark(i);
        s->pm->report_pe(s, mp, deadlocked, sec.f);
        if (r == WM_RUN_DEADLOCK && mp->state == WM_PE_BLOCKED_RECV) report_last_received(s, by_tile, mp, sec.f);
    }
    section_emit(s, &sec, out);
}

void wm_sched_report(const wm_sched *s, wm_run_result r, FILE *out)
{
    char why[200];
    /* only the printing process says why; every process takes part in
     * the sections that follow */
    FILE *head = prints(s) ? out : NULL;
    switch (r) {
    case WM_RUN_DONE:
        return;
    case WM_RUN_INTERRUPTED:
        /* One line: the run did nothing wrong, it was stopped. */
        wm_interrupt_describe(why, sizeof why);
        if (!head) {
        } else if (wm_interrupt_signal()) {
            fprintf(head, "%s at cycle %" PRIu64 "\n", why, s->cycle);
        } else {
            fprintf(head, "stopped at cycle %" PRIu64 ": %s\n", s->cycle, why);
        }
        wm_interrupt_note_reported();
        return;
    case WM_RUN_DEADLOCK:
        if (head)
            fprintf(head,
                    "deadlock at cycle %" PRIu64 ": the fabric is quiescent and every live kernel waits for a message\n",
                    s->cycle);
        break;
    case WM_RUN_STALLED:
        if (head)
            fprintf(head,
                    "stalled at cycle %" PRIu64 ": every live kernel is blocked and no wavelet has moved for %u cycles\n",
                    s->cycle, STALL_WINDOW);
        break;
    case WM_RUN_FAULT:
        if (head) fprintf(head, "firmware fault at cycle %" PRIu64 "\n", s->cycle);
        break;
    case WM_RUN_MAX_CYCLES:
        if (head)
            fprintf(head, "cycle limit reached at cycle %" PRIu64 " with %zu kernel(s) still running\n", s->cycle,
                    s->part ? s->live_all : s->nlive);
        break;
    }
    const wm_mp **by_tile = pes_by_tile(s);
    section lost_sec;
    const size_t lost = summed(s, section_open(&lost_sec) ? report_lost(s, by_tile, lost_sec.f) : 0);
    /* "nobody has sent" only when no message went astray */
    report_pes(s, by_tile, r, r == WM_RUN_DEADLOCK && !lost, out);
    if (r == WM_RUN_DEADLOCK && head) report_chain_start(s, head);
    if (lost && head) fprintf(head, "  messages that went astray:\n");
    section_emit(s, &lost_sec, out);
    if (r == WM_RUN_STALLED || r == WM_RUN_MAX_CYCLES) {
        section sec;
        if (section_open(&sec)) report_full_rx(s, by_tile, sec.f);
        section_emit(s, &sec, out);
    }
    if (r == WM_RUN_STALLED) flights_section(s, by_tile, "stuck", out);
    if (r == WM_RUN_MAX_CYCLES) flights_section(s, by_tile, "in flight", out);
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
