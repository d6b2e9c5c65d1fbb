/* gdb_server.c: the remote serial protocol mapped onto a core-mode run;
 * see gdb_server.h. */
#include "debug/gdb_server.h"

#include "core/xalloc.h"
#include "debug/rsp.h"
#include "run/core_image.h"
#include "waves/interrupt.h"
#include "wavelet.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    NREGS = 33,          /* x0..x31, pc */
    MAX_POINTS = 64,     /* breakpoints, and watchpoints, each */
    POLL_EVERY = 256,    /* cycles between two looks for a Ctrl-C while running */
    MMIO_BYTES = 0x24,   /* the register window, TX .. EXIT */
    REPLY_MAX = WM_RSP_PACKET_MAX,
    LINK_RING = 1 << 16, /* the link events kept for `monitor links` */
    LINKS_SHOWN = 200    /* at most this many lines of them */
};

/* Error codes of the `E NN` replies. */
enum { E_SYNTAX = 1, E_THREAD = 2, E_ADDRESS = 3, E_REGISTER = 4, E_FULL = 5, E_TOO_LONG = 6 };

typedef struct {
    const wm_instance *inst;
    char name[96];        /* INSTANCE (X,Y) */
    uint64_t retired;     /* at the last look; UINT64_MAX before the first */
    bool store;           /* the instruction in X is a store ... */
    uint32_t store_addr;  /* ... of store_size bytes here */
    unsigned store_size;
    bool store_seen;      /* ... and was looked at against the watchpoints set */
    /* A breakpoint or watchpoint it hit that GDB has not heard of. GDB
     * takes one thread's stop at a time: a core that hit in the cycle of
     * another one's reported stop, or while GDB ran other threads alone,
     * is held (core_hold) where it stopped, and its hit is reported at
     * the next resume of it, or dropped when GDB steps it or removed the
     * point (docs/debugging.md, "Cores that stop in one cycle"). */
    bool held;
    bool held_watch;
    uint32_t held_addr;   /* the breakpoint's address, or the watchpoint's */
    uint64_t held_order;  /* held hits are reported in the order they happened */
    uint64_t held_from;   /* the cycle its hold began */
    uint64_t held_cycles; /* cycles it stood held, in all: GDB's change to the run */
    char act;             /* what the last resume asks of it: 'c', 's', or 0 (stay) */
    /* what GDB changed on this core: bytes of memory and registers whose
     * values it replaced by others */
    uint64_t wrote_bytes, wrote_regs;
} thread;

typedef struct {
    uint32_t addr, len;
} point;

typedef enum { STOPPED, RUNNING, GONE } run_state;

struct wm_gdb_server {
    wm_rsp_listener listener;
    wm_rsp *conn;
    wm_sched *s;
    const wm_fabric_ops *ops;
    wm_fabric *f;
    thread *th;
    size_t n;
    run_state state;
    bool first;          /* no look yet: the run is at its first cycle */
    size_t g, c;         /* Hg and Hc: the threads, 0-based */
    size_t step;         /* with a step: its thread; SIZE_MAX: none */
    size_t nheld;        /* threads held with a hit GDB has not heard of */
    uint64_t hits;       /* hits held, ever: their order */
    const char *image;   /* the kernel whose cores breakpoints stop */
    point bp[MAX_POINTS], wp[MAX_POINTS];
    size_t nbp, nwp;
    uint64_t polls;
    /* the last LINK_RING link events, and the hook they go on to */
    wm_link_event *links;
    uint64_t nlinks; /* ever recorded */
    bool link_hooked;
    wm_link_hook prev_link;
    void *prev_link_ctx;
    char reply[REPLY_MAX + 1];
};

/* ---------------------------------------------------------------- the target */

static void regs_of(const wm_gdb_server *g, size_t t, uint32_t regs[NREGS])
{
    const wm_instance *in = g->th[t].inst;
    g->ops->core_regs(g->f, in->x, in->y, regs);
    regs[32] = g->ops->core_status(g->f, in->x, in->y).pc;
}

/* What a load of the register window at offset off reads, nothing popped
 * or latched; false where a load faults (TX, EXIT, unmapped). */
static bool mmio_word(const wm_gdb_server *g, size_t t, uint32_t off, uint32_t *v)
{
    const wm_instance *in = g->th[t].inst;
    const wm_pe_status ps = g->ops->pe_status(g->f, in->x, in->y);
    switch (off) {
    case WM_CORE_REG_RX: *v = ps.rx_count ? ps.rx_head : 0; return true;
    case WM_CORE_REG_QUEUES: *v = (uint32_t)ps.rx_count << 8 | (uint32_t)(WM_TX_DEPTH - ps.tx_count); return true;
    case WM_CORE_REG_TSC_LO: *v = (uint32_t)ps.tsc; return true;
    case WM_CORE_REG_TSC_HI: *v = (uint32_t)(ps.tsc >> 32); return true;
    case WM_CORE_REG_STATUS: *v = ps.status; return true;
    case WM_CORE_REG_ERR_HDR: *v = ps.err_hdr; return true;
    case WM_CORE_REG_COORD: *v = (uint32_t)in->y << 16 | in->x; return true;
    default: return false;
    }
}

/* Read n bytes at addr of thread t's memory; how many could be read. */
static size_t read_mem(const wm_gdb_server *g, size_t t, uint32_t addr, uint8_t *out, size_t n)
{
    const wm_instance *in = g->th[t].inst;
    if (addr < WM_TILE_MEM_BYTES) {
        const size_t k = n < WM_TILE_MEM_BYTES - addr ? n : WM_TILE_MEM_BYTES - addr;
        g->ops->core_read(g->f, in->x, in->y, addr, out, k);
        return k;
    }
    const uint32_t base = (uint32_t)WM_CORE_REG_BASE;
    size_t k = 0;
    while (k < n && addr + k >= base && addr + k < base + MMIO_BYTES) {
        const uint32_t a = (uint32_t)(addr + k - base);
        uint32_t w;
        if (!mmio_word(g, t, a & ~3u, &w)) break;
        out[k++] = (uint8_t)(w >> (8u * (a & 3u)));
    }
    return k;
}

/* The instruction entering X on thread t: if a store, where it writes. */
static void note_store(wm_gdb_server *g, size_t t, uint32_t pc)
{
    thread *th = &g->th[t];
    th->store = false;
    if (!g->nwp || pc > WM_TILE_MEM_BYTES - 4) return;
    uint8_t b[4];
    g->ops->core_read(g->f, th->inst->x, th->inst->y, pc, b, 4);
    const uint32_t insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    if ((insn & 0x7Fu) != 0x23u) return;
    const unsigned funct3 = (insn >> 12) & 7u;
    if (funct3 > 2) return;
    uint32_t regs[NREGS];
    regs_of(g, t, regs);
    const int32_t imm = ((int32_t)(insn & 0xFE000000u) >> 20) | (int32_t)((insn >> 7) & 0x1Fu);
    th->store = true;
    th->store_addr = regs[(insn >> 15) & 31u] + (uint32_t)imm;
    th->store_size = 1u << funct3;
}

static bool in_image(const wm_gdb_server *g, size_t t) { return !strcmp(g->th[t].inst->kernel->name, g->image); }

static void stop_text(char *stop, size_t size, size_t t, bool watch, uint32_t addr)
{
    if (watch)
        snprintf(stop, size, "T05watch:%" PRIx32 ";thread:%zx;", addr, t + 1);
    else
        snprintf(stop, size, "T05thread:%zx;", t + 1);
}

/* Thread t's core stands where it stopped at a hit GDB has not heard of. */
static void hold(wm_gdb_server *g, size_t t, bool watch, uint32_t addr)
{
    thread *th = &g->th[t];
    th->held = true;
    th->held_watch = watch;
    th->held_addr = addr;
    th->held_order = g->hits++;
    th->held_from = g->ops->cycle(g->f);
    g->ops->core_hold(g->f, th->inst->x, th->inst->y, true);
    g->nheld++;
}

/* Thread t's core runs again: its hit is reported, or dropped. */
static void release(wm_gdb_server *g, size_t t)
{
    thread *th = &g->th[t];
    if (!th->held) return;
    th->held = false;
    th->held_cycles += g->ops->cycle(g->f) - th->held_from;
    g->ops->core_hold(g->f, th->inst->x, th->inst->y, false);
    g->nheld--;
}

static size_t put_hex_bytes(char *out, const uint8_t *b, size_t n);

/* A line on GDB's console, while it waits for a stop (an `O` packet). */
__attribute__((format(printf, 2, 3))) static bool console(wm_gdb_server *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[512];
    const int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    char o[2 * sizeof line + 2] = "O";
    return wm_rsp_send(g->conn, o, 1 + put_hex_bytes(o + 1, (const uint8_t *)line, len));
}

/* Whether thread t's core, since the last look, retired an instruction
 * (*hit: the new one about to enter X stops it, at a breakpoint on its
 * address). A store about to enter X into a watchpoint's bytes stops it
 * too (*watch, the watchpoint at *addr), before it writes, as RISC-V's
 * triggers do: GDB steps the store itself, then compares the values. A
 * store is looked at once against the watchpoints set (store_seen), and
 * again after GDB set one. */
static bool moved(wm_gdb_server *g, size_t t, const wm_core_status *st, bool *hit, bool *watch, uint32_t *addr)
{
    thread *th = &g->th[t];
    *hit = *watch = false;
    if (st->halt.state != WM_CORE_RUNNING) return false;
    const bool arrived = st->retired != th->retired;
    if (arrived) {
        th->retired = st->retired;
        note_store(g, t, st->pc);
        th->store_seen = false;
    }
    if (!in_image(g, t)) return arrived;
    for (size_t k = 0; th->store && !th->store_seen && k < g->nwp && !*hit; k++)
        if (th->store_addr < g->wp[k].addr + g->wp[k].len && g->wp[k].addr < th->store_addr + th->store_size) {
            *hit = *watch = true;
            *addr = g->wp[k].addr;
        }
    th->store_seen = true;
    for (size_t k = 0; arrived && k < g->nbp && !*hit; k++)
        if (g->bp[k].addr == st->pc) {
            *hit = true;
            *addr = st->pc;
        }
    return arrived;
}

/* One look at every core between two cycles; true with the stop reply
 * due in stop. GDB takes the stop of a thread it resumed: the step of
 * the thread it steps, first, or a hit of a thread it let run; every
 * other hit of the cycle is held for a later resume. When the only
 * cores that could move the fabric on are held ones (every other
 * running core waits on its queue and no wavelet is in flight: GDB runs
 * one thread alone, and it waits for what a held core would send), the
 * held cores run on, their hits dropped, and GDB's console says so. */
static bool look(wm_gdb_server *g, char *stop, size_t size)
{
    size_t report = SIZE_MAX;
    bool hit, watch, report_watch = false, free_running = false;
    uint32_t addr = 0, report_addr = 0;
    if (g->step != SIZE_MAX) {
        const wm_instance *in = g->th[g->step].inst;
        const wm_core_status st = g->ops->core_status(g->f, in->x, in->y);
        if (moved(g, g->step, &st, &hit, &watch, &addr) || hit) {
            report = g->step;
            report_watch = watch;
            report_addr = addr;
        }
        free_running = st.halt.state == WM_CORE_RUNNING && !st.waiting;
    }
    for (size_t t = 0; t < g->n; t++) {
        thread *th = &g->th[t];
        if (t == g->step || th->held) continue;
        const wm_core_status st = g->ops->core_status(g->f, th->inst->x, th->inst->y);
        free_running = free_running || (st.started && st.halt.state == WM_CORE_RUNNING && !st.waiting);
        (void)moved(g, t, &st, &hit, &watch, &addr);
        if (!hit) continue;
        if (report == SIZE_MAX && th->act == 'c') {
            report = t;
            report_watch = watch;
            report_addr = addr;
        } else {
            hold(g, t, watch, addr);
        }
    }
    if (report == SIZE_MAX && g->nheld && !free_running && g->ops->quiescent(g->f)) {
        for (size_t t = 0; t < g->n; t++) {
            if (!g->th[t].held) continue;
            release(g, t);
            g->th[t].store_seen = true; /* its hit is dropped: its store does not stop it again */
            (void)console(g,
                          "wavemesh: %s runs on from its %s at 0x%" PRIx32 " (cycle %" PRIu64
                          "), not reported: the threads GDB runs wait for it\n",
                          g->th[t].name, g->th[t].held_watch ? "watchpoint" : "breakpoint", g->th[t].held_addr,
                          g->th[t].held_from);
        }
    }
    if (report == SIZE_MAX) return false;
    stop_text(stop, size, report, report_watch, report_addr);
    g->g = g->c = report;
    return true;
}

/* Whether the hit held on thread t is still one GDB can take: its point
 * is set (GDB may have removed it since). */
static bool still_set(const wm_gdb_server *g, const thread *th)
{
    const point *ps = th->held_watch ? g->wp : g->bp;
    const size_t np = th->held_watch ? g->nwp : g->nbp;
    for (size_t k = 0; k < np; k++)
        if (ps[k].addr == th->held_addr) return true;
    return false;
}

/* At a resume, before the fabric moves: the held hits of the threads GDB
 * steps are dropped (it moves them on, past their point). A resume that
 * steps a thread runs the fabric until that step is done, and the other
 * held hits wait (GDB sees the step it asked for: `stepi` on a thread
 * moves it, not the threads held beside it); a resume without a step
 * takes the oldest held hit of a thread it resumes, if its point is still
 * set, as the stop (stop), at once. The held hits of the threads GDB
 * leaves stopped wait. */
static bool held_hit(wm_gdb_server *g, char *stop, size_t size)
{
    for (;;) {
        size_t first = SIZE_MAX;
        for (size_t t = 0; t < g->n; t++) {
            thread *th = &g->th[t];
            if (!th->held) continue;
            if (th->act == 's') {
                release(g, t);
                th->store_seen = false; /* a store it was stopped at meets the watchpoints set now */
            } else if (th->act == 'c' && (first == SIZE_MAX || th->held_order < g->th[first].held_order)) first = t;
        }
        if (first == SIZE_MAX || g->step != SIZE_MAX) return false;
        thread *th = &g->th[first];
        release(g, first);
        if (!still_set(g, th)) continue;
        stop_text(stop, size, first, th->held_watch, th->held_addr);
        g->g = g->c = first;
        return true;
    }
}

/* ---------------------------------------------------------------- replies */

static const char target_xml[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\">\n"
    "<architecture>riscv:rv32</architecture>\n"
    /* no operating system: GDB's GNU/Linux RISC-V steps by breakpoints at
     * the next PCs, which another core can reach first; without one it
     * steps with vCont;s, a step of one core in the server */
    "<osabi>none</osabi>\n"
    "<feature name=\"org.gnu.gdb.riscv.cpu\">\n"
    "<reg name=\"zero\" bitsize=\"32\" type=\"int\" regnum=\"0\"/>\n"
    "<reg name=\"ra\" bitsize=\"32\" type=\"code_ptr\"/>\n"
    "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"gp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"tp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"t0\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t1\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t2\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"fp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"s1\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a0\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a1\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a2\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a3\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a4\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a5\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a6\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a7\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s2\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s3\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s4\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s5\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s6\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s7\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s8\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s9\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s10\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s11\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t3\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t4\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t5\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t6\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>\n"
    "</feature>\n"
    "</target>\n";

static const char xfer_target[] = "qXfer:features:read:target.xml:";
static const char xfer_exec[] = "qXfer:exec-file:read:";

static const char hexdig[] = "0123456789abcdef";

static size_t put_hex_bytes(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hexdig[b[i] >> 4];
        out[2 * i + 1] = hexdig[b[i] & 15];
    }
    return 2 * n;
}

static size_t put_reg(char *out, uint32_t v)
{
    const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return put_hex_bytes(out, b, 4);
}

static int hexv(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* A hex number of at most 8 digits at *p, up to a byte that is not one. */
static bool take_hex(const char **p, uint32_t *v)
{
    uint64_t x = 0;
    const char *q = *p;
    while (hexv(*q) >= 0) {
        x = x << 4 | (unsigned)hexv(*q++);
        if (x > UINT32_MAX) return false;
    }
    if (q == *p) return false;
    *v = (uint32_t)x;
    *p = q;
    return true;
}

/* n hex pairs at p into b; false on a byte that is not hex. */
static bool take_bytes(const char *p, uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const int hi = hexv(p[2 * i]), lo = hi < 0 ? -1 : hexv(p[2 * i + 1]);
        if (lo < 0) return false;
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

/* A thread id of Hg, Hc, T, vCont: -1 (all) and 0 (any) as *t = SIZE_MAX. */
static bool take_thread(const wm_gdb_server *g, const char **p, size_t *t)
{
    if ((*p)[0] == '-' && (*p)[1] == '1') {
        *p += 2;
        *t = SIZE_MAX;
        return true;
    }
    if ((*p)[0] == 'p') return false; /* one process: no multiprocess ids */
    uint32_t id;
    if (!take_hex(p, &id)) return false;
    if (id == 0) {
        *t = SIZE_MAX;
        return true;
    }
    if (id > g->n) return false;
    *t = id - 1;
    return true;
}

static bool reply(wm_gdb_server *g, const char *text) { return wm_rsp_send_str(g->conn, text); }
static bool error(wm_gdb_server *g, unsigned code) { return wm_rsp_send_error(g->conn, code); }

/* The part [off, off+len) of a document, as qXfer answers it. */
static bool xfer(wm_gdb_server *g, const char *doc, const char *args)
{
    uint32_t off, len;
    if (!take_hex(&args, &off) || *args++ != ',' || !take_hex(&args, &len) || *args) return error(g, E_SYNTAX);
    const size_t total = strlen(doc);
    if (off > total) return error(g, E_ADDRESS);
    size_t k = total - off;
    if (k > len) k = len;
    if (k > REPLY_MAX - 1) k = REPLY_MAX - 1;
    g->reply[0] = off + k < total ? 'm' : 'l';
    memcpy(g->reply + 1, doc + off, k);
    return wm_rsp_send(g->conn, g->reply, k + 1);
}

/* ---------------------------------------------------------------- monitor */

typedef struct {
    char *buf;
    size_t len, cap;
} text;

__attribute__((format(printf, 2, 3))) static void say(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[512];
    const int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k <= 0) return;
    const size_t n = (size_t)k < sizeof line ? (size_t)k : sizeof line - 1;
    if (t->len + n + 1 > t->cap) {
        t->cap = 2 * (t->len + n + 1);
        t->buf = wm_xrealloc(t->buf, t->cap);
    }
    memcpy(t->buf + t->len, line, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void say_wavelet(text *t, uint32_t w)
{
    say(t, "%08" PRIx32 " (as a header: to (%u,%u), %u data, tag %u)", w, wm_header_col(w), wm_header_row(w),
        wm_header_len(w), wm_header_tag(w));
}

/* The thread an argument names (a number, or an instance), else Hg's. */
static bool monitor_thread(const wm_gdb_server *g, const char *arg, size_t *t)
{
    while (*arg == ' ') arg++;
    if (!*arg) {
        *t = g->g;
        return true;
    }
    for (size_t k = 0; k < g->n; k++)
        if (!strcmp(g->th[k].inst->name, arg)) {
            *t = k;
            return true;
        }
    char *end;
    const unsigned long id = strtoul(arg, &end, 10);
    if (*end || id < 1 || id > g->n) return false;
    *t = id - 1;
    return true;
}

static void record_link(void *ctx, const wm_link_event *ev)
{
    wm_gdb_server *g = ctx;
    g->links[g->nlinks++ % LINK_RING] = *ev;
    if (g->prev_link) g->prev_link(g->prev_link_ctx, ev);
}

/* `links [THREAD] [N]`: the wavelets that stood in an output register of
 * the PE's tile or of a tile next to it in the last N cycles (default 16). */
static void links(const wm_gdb_server *g, const char *arg, text *out)
{
    if (!g->links) {
        say(out, "the %s backend does not pass its link events on\n", g->ops->name);
        return;
    }
    char a[256];
    snprintf(a, sizeof a, "%.250s", arg);
    unsigned long n = 16;
    char *last = strrchr(a, ' ');
    if (last && last[1] >= '0' && last[1] <= '9') {
        char *end;
        n = strtoul(last + 1, &end, 10);
        if (*end || n == 0) {
            say(out, "links [THREAD] [N]: N is a number of cycles, 1 or more\n");
            return;
        }
        *last = '\0';
    }
    size_t t;
    if (!monitor_thread(g, a, &t)) {
        say(out, "no thread '%s'\n", a + strspn(a, " "));
        return;
    }
    static const char *const port[] = {"N", "E", "S", "W", "L"};
    const wm_instance *in = g->th[t].inst;
    const uint64_t now = g->ops->cycle(g->f), from = now > n ? now - n + 1 : 0;
    const uint64_t first = g->nlinks > LINK_RING ? g->nlinks - LINK_RING : 0;
    size_t shown = 0, near = 0;
    say(out, "link events at %s and its neighbours, cycles %" PRIu64 "..%" PRIu64 ":\n", g->th[t].name, from, now);
    for (uint64_t k = first; k < g->nlinks; k++) {
        const wm_link_event *e = &g->links[k % LINK_RING];
        const unsigned dx = e->x > in->x ? e->x - in->x : in->x - e->x, dy = e->y > in->y ? e->y - in->y : in->y - e->y;
        if (e->cycle < from || dx + dy > 1) continue;
        near++;
        if (shown == LINKS_SHOWN) continue;
        say(out, "  cycle %" PRIu64 " (%u,%u) out %s: ", e->cycle, e->x, e->y, port[e->port % 5]);
        say_wavelet(out, e->data);
        say(out, "\n");
        shown++;
    }
    if (near > shown) say(out, "  ... and %zu more\n", near - shown);
    if (!near) say(out, "  none\n");
    if (first && g->links[first % LINK_RING].cycle > from)
        say(out, "  (only the last %u events of the fabric are kept: from cycle %" PRIu64 ")\n", (unsigned)LINK_RING,
            g->links[first % LINK_RING].cycle);
}

static const char monitor_help[] =
    "monitor cycle            the fabric's cycle\n"
    "monitor queues [THREAD]  the PE's TX and RX queues (THREAD: a number or an instance; default: the current)\n"
    "monitor router [THREAD]  the wavelets in the router of the PE's tile\n"
    "monitor image [KERNEL]   the image whose cores breakpoints and watchpoints stop, and its ELF; or set it\n"
    "monitor links [THREAD] [N]  the link events at the PE's tile and its neighbours in the last N cycles (16)\n"
    "monitor threads          every thread: instance, tile, kernel, PC, instructions retired\n";

static void monitor(wm_gdb_server *g, const char *cmd, text *out)
{
    size_t t;
    if (!strcmp(cmd, "cycle")) {
        say(out, "cycle %" PRIu64 "\n", g->ops->cycle(g->f));
    } else if (!strncmp(cmd, "queues", 6) && (!cmd[6] || cmd[6] == ' ')) {
        if (!monitor_thread(g, cmd + 6, &t)) {
            say(out, "no thread '%s'\n", cmd + 7);
            return;
        }
        const wm_instance *in = g->th[t].inst;
        const wm_pe_status ps = g->ops->pe_status(g->f, in->x, in->y);
        say(out, "%s: TX %u of %u wavelets, RX %u of %u\n", g->th[t].name, ps.tx_count, (unsigned)WM_TX_DEPTH,
            ps.rx_count, (unsigned)WM_RX_DEPTH);
        wm_flight places[64];
        const size_t np = g->ops->in_flight(g->f, places, 64);
        for (size_t k = 0; k < np && k < 64; k++)
            if (places[k].x == in->x && places[k].y == in->y && places[k].place == WM_AT_TX) {
                say(out, "  TX head ");
                say_wavelet(out, places[k].head);
                say(out, "\n");
            }
        if (ps.rx_count) {
            say(out, "  RX head ");
            say_wavelet(out, ps.rx_head);
            say(out, "\n");
        }
        say(out, "  status %#x, first off-mesh header %08" PRIx32 "\n", ps.status, ps.err_hdr);
    } else if (!strncmp(cmd, "router", 6) && (!cmd[6] || cmd[6] == ' ')) {
        if (!monitor_thread(g, cmd + 6, &t)) {
            say(out, "no thread '%s'\n", cmd + 7);
            return;
        }
        static const char *const port[] = {"N", "E", "S", "W", "L"};
        static const char *const place[] = {"input", "TX queue", "output"};
        const wm_instance *in = g->th[t].inst;
        wm_flight places[256];
        const size_t np = g->ops->in_flight(g->f, places, 256);
        size_t shown = 0;
        say(out, "router of %s:\n", g->th[t].name);
        for (size_t k = 0; k < np && k < 256; k++) {
            const wm_flight *p = &places[k];
            if (p->x != in->x || p->y != in->y) continue;
            say(out, "  %s %s: %u wavelet%s, oldest ", place[p->place % 3], port[p->port % 5], p->count,
                p->count == 1 ? "" : "s");
            say_wavelet(out, p->head);
            say(out, "\n");
            shown++;
        }
        if (!shown) say(out, "  empty\n");
    } else if (!strncmp(cmd, "image", 5) && (!cmd[5] || cmd[5] == ' ')) {
        const char *k = cmd + 5;
        while (*k == ' ') k++;
        if (*k) {
            size_t found = SIZE_MAX;
            for (size_t i = 0; i < g->n && found == SIZE_MAX; i++)
                if (!strcmp(g->th[i].inst->kernel->name, k)) found = i;
            if (found == SIZE_MAX) {
                say(out, "no core runs the kernel '%s'\n", k);
                return;
            }
            g->image = g->th[found].inst->kernel->name;
        }
        say(out, "breakpoints and watchpoints stop the cores of the image %s: %s/%s.elf\n", g->image,
            wm_firmware_dir(), g->image);
    } else if (!strncmp(cmd, "links", 5) && (!cmd[5] || cmd[5] == ' ')) {
        links(g, cmd + 5, out);
    } else if (!strcmp(cmd, "threads")) {
        for (size_t i = 0; i < g->n; i++) {
            const wm_instance *in = g->th[i].inst;
            const wm_core_status st = g->ops->core_status(g->f, in->x, in->y);
            say(out, "%zu %s [%s] pc 0x%08" PRIx32 ", %" PRIu64 " retired%s\n", i + 1, g->th[i].name,
                in->kernel->name, st.pc, st.retired, st.halt.state == WM_CORE_RUNNING ? "" : ", halted");
        }
    } else if (!strcmp(cmd, "help") || !*cmd) {
        say(out, "%s", monitor_help);
    } else {
        say(out, "unknown monitor command '%s'\n%s", cmd, monitor_help);
    }
}

/* A monitor command's output: as the reply when it fits one packet, else
 * whole, in console packets (`O` and hex) of at most a packet each, then
 * `OK`, as qRcmd allows. */
static bool rcmd(wm_gdb_server *g, const char *hex)
{
    const size_t n = strlen(hex);
    if (n % 2) return error(g, E_SYNTAX);
    char cmd[256];
    if (n / 2 >= sizeof cmd) return error(g, E_TOO_LONG);
    if (!take_bytes(hex, (uint8_t *)cmd, n / 2)) return error(g, E_SYNTAX);
    cmd[n / 2] = '\0';
    text out = {0};
    monitor(g, cmd, &out);
    bool ok = true;
    if (out.len <= (REPLY_MAX - 1) / 2) {
        ok = wm_rsp_send(g->conn, g->reply, put_hex_bytes(g->reply, (const uint8_t *)out.buf, out.len));
    } else {
        for (size_t off = 0; ok && off < out.len; off += (REPLY_MAX - 1) / 2) {
            const size_t left = out.len - off, len = left < (REPLY_MAX - 1) / 2 ? left : (REPLY_MAX - 1) / 2;
            g->reply[0] = 'O';
            ok = wm_rsp_send(g->conn, g->reply, 1 + put_hex_bytes(g->reply + 1, (const uint8_t *)out.buf + off, len));
        }
        ok = ok && reply(g, "OK");
    }
    free(out.buf);
    return ok;
}

/* ---------------------------------------------------------------- packets */

typedef enum { SERVE, RESUME, DETACH, KILL } served;

/* Resume with the actions in each thread's act; step: the thread
 * stepped (SIZE_MAX: none). */
static served resume(wm_gdb_server *g, size_t step)
{
    g->step = step;
    g->state = RUNNING;
    return RESUME;
}

/* `c` and `s`: every thread runs; s steps Hc's. */
static served resume_all(wm_gdb_server *g, bool step)
{
    for (size_t t = 0; t < g->n; t++) g->th[t].act = 'c';
    if (step) g->th[g->c].act = 's';
    return resume(g, step ? g->c : SIZE_MAX);
}

/* vCont;ACTION[:TID]...: for each thread, the leftmost action that names
 * it or names none; a thread no action names stays stopped. Steps step
 * one thread, Hc's when several do (GDB steps one at a time). */
static served vcont(wm_gdb_server *g, const char *p)
{
    char dflt = 0;
    bool any = false;
    for (size_t t = 0; t < g->n; t++) g->th[t].act = 0;
    while (*p == ';') {
        p++;
        char a = *p++;
        if (a == 'C' || a == 'S') { /* the signal is ignored: a core has none */
            uint32_t sig;
            if (!take_hex(&p, &sig)) return error(g, E_SYNTAX) ? SERVE : DETACH;
            a = (char)(a - 'A' + 'a');
        } else if (a != 'c' && a != 's') {
            return error(g, E_SYNTAX) ? SERVE : DETACH;
        }
        size_t t = SIZE_MAX;
        if (*p == ':') {
            p++;
            if (!take_thread(g, &p, &t)) return error(g, E_THREAD) ? SERVE : DETACH;
        }
        if (t == SIZE_MAX && !dflt) dflt = a;
        if (t != SIZE_MAX && !g->th[t].act) g->th[t].act = a;
        any = true;
    }
    if (*p || !any) return error(g, E_SYNTAX) ? SERVE : DETACH;
    size_t step = SIZE_MAX;
    for (size_t t = 0; t < g->n; t++) {
        if (!g->th[t].act) g->th[t].act = dflt;
        if (g->th[t].act == 's' && (step == SIZE_MAX || t == g->c)) step = t;
    }
    return resume(g, step);
}

static bool read_regs(wm_gdb_server *g)
{
    uint32_t regs[NREGS];
    regs_of(g, g->g, regs);
    size_t k = 0;
    for (unsigned r = 0; r < NREGS; r++) k += put_reg(g->reply + k, regs[r]);
    return wm_rsp_send(g->conn, g->reply, k);
}

/* G or P: x1..x31 are written; x0 and the PC only to the value they have. */
static bool reg_writable(const uint32_t regs[NREGS], unsigned r, uint32_t v)
{
    return r < NREGS && ((r != 0 && r != 32) || regs[r] == v);
}

/* Register r of Hg's core to v, once reg_writable said yes; a new value is
 * counted as GDB's change to the run. */
static void write_reg(wm_gdb_server *g, const uint32_t regs[NREGS], unsigned r, uint32_t v)
{
    if (r == 0 || r == 32 || regs[r] == v) return;
    const wm_instance *in = g->th[g->g].inst;
    g->ops->core_set_reg(g->f, in->x, in->y, r, v);
    g->th[g->g].wrote_regs++;
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static bool points(wm_gdb_server *g, const char *p, bool insert)
{
    const char type = p[0];
    if (type < '0' || type > '4' || p[1] != ',') return error(g, E_SYNTAX);
    if (type > '2') return reply(g, ""); /* read and access watchpoints: not supported */
    p += 2;
    uint32_t addr, kind;
    if (!take_hex(&p, &addr) || *p++ != ',' || !take_hex(&p, &kind)) return error(g, E_SYNTAX);
    if (*p && *p != ';') return error(g, E_SYNTAX);
    point *set = type == '2' ? g->wp : g->bp;
    size_t *n = type == '2' ? &g->nwp : &g->nbp;
    if (type == '2' && (kind == 0 || kind > WM_TILE_MEM_BYTES || addr >= WM_TILE_MEM_BYTES)) return error(g, E_ADDRESS);
    if (type != '2' && addr >= WM_TILE_MEM_BYTES) return error(g, E_ADDRESS);
    const uint32_t len = type == '2' ? kind : 4;
    for (size_t k = 0; k < *n; k++)
        if (set[k].addr == addr && set[k].len == len) {
            if (insert) return reply(g, "OK");
            set[k] = set[--*n];
            return reply(g, "OK");
        }
    if (!insert) return reply(g, "OK");
    if (*n == MAX_POINTS) return error(g, E_FULL);
    set[(*n)++] = (point){addr, len};
    /* a watchpoint needs the stores of the instructions already in X */
    if (type == '2')
        for (size_t t = 0; t < g->n; t++) {
            const wm_instance *in = g->th[t].inst;
            const wm_core_status st = g->ops->core_status(g->f, in->x, in->y);
            if (st.halt.state == WM_CORE_RUNNING) note_store(g, t, st.pc);
            g->th[t].store_seen = false;
        }
    return reply(g, "OK");
}

static bool stop_reply(wm_gdb_server *g)
{
    char r[64];
    snprintf(r, sizeof r, "T05thread:%zx;", g->g + 1);
    return reply(g, r);
}

/* One packet while the fabric stands. */
static served packet(wm_gdb_server *g, const char *p, size_t len)
{
    bool ok = true;
    (void)len;
    switch (p[0]) {
    case '?': ok = stop_reply(g); break;
    case 'g':
        ok = p[1] ? error(g, E_SYNTAX) : read_regs(g);
        break;
    case 'G': {
        const size_t want = 8 * NREGS;
        if (strlen(p + 1) != want) {
            ok = error(g, E_SYNTAX);
            break;
        }
        uint8_t b[4 * NREGS];
        if (!take_bytes(p + 1, b, sizeof b)) {
            ok = error(g, E_SYNTAX);
            break;
        }
        /* all or nothing: every value checked before the first is written */
        uint32_t regs[NREGS];
        regs_of(g, g->g, regs);
        bool all = true;
        for (unsigned r = 0; r < NREGS; r++) all = all && reg_writable(regs, r, le32(b + 4 * r));
        if (all)
            for (unsigned r = 0; r < NREGS; r++) write_reg(g, regs, r, le32(b + 4 * r));
        ok = all ? reply(g, "OK") : error(g, E_REGISTER);
        break;
    }
    case 'p': {
        const char *q = p + 1;
        uint32_t r;
        if (!take_hex(&q, &r) || *q) {
            ok = error(g, E_SYNTAX);
            break;
        }
        if (r >= NREGS) {
            ok = error(g, E_REGISTER);
            break;
        }
        uint32_t regs[NREGS];
        regs_of(g, g->g, regs);
        ok = wm_rsp_send(g->conn, g->reply, put_reg(g->reply, regs[r]));
        break;
    }
    case 'P': {
        const char *q = p + 1;
        uint32_t r;
        uint8_t b[4];
        if (!take_hex(&q, &r) || *q++ != '=' || strlen(q) != 8 || !take_bytes(q, b, 4)) {
            ok = error(g, E_SYNTAX);
            break;
        }
        uint32_t regs[NREGS];
        regs_of(g, g->g, regs);
        const bool writable = reg_writable(regs, r, le32(b));
        if (writable) write_reg(g, regs, r, le32(b));
        ok = writable ? reply(g, "OK") : error(g, E_REGISTER);
        break;
    }
    case 'm': {
        const char *q = p + 1;
        uint32_t addr, n;
        if (!take_hex(&q, &addr) || *q++ != ',' || !take_hex(&q, &n) || *q) {
            ok = error(g, E_SYNTAX);
            break;
        }
        if (n > (REPLY_MAX - 1) / 2) n = (REPLY_MAX - 1) / 2;
        uint8_t *b = wm_xmalloc(n ? n : 1);
        const size_t got = read_mem(g, g->g, addr, b, n);
        ok = got || !n ? wm_rsp_send(g->conn, g->reply, put_hex_bytes(g->reply, b, got)) : error(g, E_ADDRESS);
        free(b);
        break;
    }
    case 'M': {
        const char *q = p + 1;
        uint32_t addr, n;
        if (!take_hex(&q, &addr) || *q++ != ',' || !take_hex(&q, &n) || *q++ != ':' || strlen(q) != 2 * (size_t)n) {
            ok = error(g, E_SYNTAX);
            break;
        }
        if (addr >= WM_TILE_MEM_BYTES || n > WM_TILE_MEM_BYTES - addr) {
            ok = error(g, E_ADDRESS);
            break;
        }
        uint8_t *b = wm_xmalloc(n ? n : 1);
        if (take_bytes(q, b, n)) {
            const wm_instance *in = g->th[g->g].inst;
            uint8_t *was = wm_xmalloc(n ? n : 1);
            const size_t got = read_mem(g, g->g, addr, was, n);
            for (size_t k = 0; k < n; k++) g->th[g->g].wrote_bytes += k >= got || was[k] != b[k];
            free(was);
            if (n) g->ops->core_load(g->f, in->x, in->y, addr, b, n);
            ok = reply(g, "OK");
        } else {
            ok = error(g, E_SYNTAX);
        }
        free(b);
        break;
    }
    case 'H': {
        const char *q = p + 2;
        size_t t;
        if ((p[1] != 'g' && p[1] != 'c') || !take_thread(g, &q, &t) || *q) {
            ok = error(g, E_THREAD);
            break;
        }
        if (t != SIZE_MAX) *(p[1] == 'g' ? &g->g : &g->c) = t;
        ok = reply(g, "OK");
        break;
    }
    case 'T': {
        const char *q = p + 1;
        size_t t;
        ok = take_thread(g, &q, &t) && !*q && t != SIZE_MAX ? reply(g, "OK") : error(g, E_THREAD);
        break;
    }
    case 'Z':
    case 'z': ok = points(g, p + 1, p[0] == 'Z'); break;
    case 'c':
        if (p[1]) {
            ok = error(g, E_SYNTAX); /* continuing elsewhere: the PC is the core's */
            break;
        }
        return resume_all(g, false);
    case 's':
        if (p[1]) {
            ok = error(g, E_SYNTAX);
            break;
        }
        return resume_all(g, true);
    case 'D':
        reply(g, "OK");
        return DETACH;
    case 'k': return KILL;
    case 'v':
        if (!strcmp(p, "vCont?")) ok = reply(g, "vCont;c;C;s;S");
        else if (!strncmp(p, "vCont;", 6)) return vcont(g, p + 5);
        else if (!strncmp(p, "vKill", 5)) {
            reply(g, "OK");
            return KILL;
        } else ok = reply(g, "");
        break;
    case 'q':
        if (!strncmp(p, "qSupported", 10)) {
            char r[160];
            snprintf(r, sizeof r,
                     "PacketSize=%x;qXfer:features:read+;qXfer:exec-file:read+;QStartNoAckMode+;vContSupported+;"
                     "hwbreak+",
                     (unsigned)WM_RSP_PACKET_MAX);
            ok = reply(g, r);
        } else if (!strcmp(p, "qAttached") || !strncmp(p, "qAttached:", 10)) {
            ok = reply(g, "1");
        } else if (!strcmp(p, "qfThreadInfo")) {
            size_t k = 0;
            g->reply[k++] = 'm';
            for (size_t t = 0; t < g->n && k + 20 < REPLY_MAX; t++)
                k += (size_t)snprintf(g->reply + k, REPLY_MAX - k, "%s%zx", t ? "," : "", t + 1);
            ok = wm_rsp_send(g->conn, g->reply, k);
        } else if (!strcmp(p, "qsThreadInfo")) {
            ok = reply(g, "l");
        } else if (!strcmp(p, "qC")) {
            char r[32];
            snprintf(r, sizeof r, "QC%zx", g->g + 1);
            ok = reply(g, r);
        } else if (!strncmp(p, "qThreadExtraInfo,", 17)) {
            const char *q = p + 17;
            size_t t;
            if (!take_thread(g, &q, &t) || *q || t == SIZE_MAX) {
                ok = error(g, E_THREAD);
                break;
            }
            const char *name = g->th[t].name;
            ok = wm_rsp_send(g->conn, g->reply, put_hex_bytes(g->reply, (const uint8_t *)name, strlen(name)));
        } else if (!strncmp(p, xfer_target, sizeof xfer_target - 1)) {
            ok = xfer(g, target_xml, p + sizeof xfer_target - 1);
        } else if (!strncmp(p, xfer_exec, sizeof xfer_exec - 1)) {
            /* the ELF of the image breakpoints stop: GDB loads it when it has none */
            const char *q = p + sizeof xfer_exec - 1;
            uint32_t pid = 1;
            if (*q != ':' && (!take_hex(&q, &pid) || pid != 1)) {
                ok = error(g, E_THREAD);
                break;
            }
            if (*q++ != ':') {
                ok = error(g, E_SYNTAX);
                break;
            }
            char rel[600], path[PATH_MAX];
            snprintf(rel, sizeof rel, "%s/%s.elf", wm_firmware_dir(), g->image);
            ok = xfer(g, realpath(rel, path) ? path : rel, q);
        } else if (!strncmp(p, "qXfer:", 6)) {
            ok = error(g, E_SYNTAX);
        } else if (!strncmp(p, "qRcmd,", 6)) {
            ok = rcmd(g, p + 6);
        } else if (!strncmp(p, "qSymbol", 7)) {
            ok = reply(g, "OK");
        } else {
            ok = reply(g, "");
        }
        break;
    case 'Q':
        if (!strcmp(p, "QStartNoAckMode")) {
            ok = reply(g, "OK");
            wm_rsp_no_ack(g->conn);
        } else {
            ok = reply(g, "");
        }
        break;
    default: ok = reply(g, ""); break;
    }
    return ok ? SERVE : DETACH;
}

/* ---------------------------------------------------------------- the loop's hook */

/* GDB is gone: the run goes on alone, at full speed, as without it. */
static void drop(wm_gdb_server *g)
{
    for (size_t t = 0; t < g->n; t++) release(g, t);
    wm_rsp_close(g->conn);
    g->conn = NULL;
    g->state = GONE;
    (void)wm_sched_set_debugger(g->s, NULL, NULL);
    if (g->link_hooked) g->ops->set_link_hook(g->f, g->prev_link, g->prev_link_ctx);
    g->link_hooked = false;
}

/* Serve GDB while the fabric stands: false to end the run. */
static bool serve(wm_gdb_server *g)
{
    while (g->state == STOPPED) {
        const char *data;
        size_t len;
        const wm_rsp_event ev = wm_rsp_next(g->conn, -1, &data, &len);
        if (ev == WM_RSP_NONE) {
            if (wm_interrupt_pending()) return false;
            continue;
        }
        if (ev == WM_RSP_CLOSED) {
            drop(g);
            break;
        }
        if (ev == WM_RSP_INTERRUPT) continue; /* already stopped */
        if (ev == WM_RSP_TOO_LONG) {
            if (!error(g, E_TOO_LONG)) drop(g);
            continue;
        }
        switch (packet(g, data, len)) {
        case SERVE: break;
        case RESUME: {
            /* a held hit, or a store already in X into a watchpoint set
             * while the fabric stood: the stop, before the fabric moves */
            char stop[96];
            if (!held_hit(g, stop, sizeof stop) && !look(g, stop, sizeof stop)) break;
            g->state = STOPPED;
            g->step = SIZE_MAX;
            if (!reply(g, stop)) drop(g);
            break;
        }
        case DETACH: drop(g); break;
        case KILL:
            drop(g);
            wm_interrupt_fail("killed from GDB");
            return false;
        }
    }
    return true;
}

/* The thread a Ctrl-C stops: the one GDB steps, else the selected one,
 * else the first, of the threads it resumed whose core still runs (not
 * one that halted, nor one held); the selected one if none does. */
static size_t interrupted(const wm_gdb_server *g)
{
    if (g->step != SIZE_MAX) return g->step;
    size_t best = SIZE_MAX;
    for (size_t t = 0; t < g->n; t++) {
        const thread *th = &g->th[t];
        if (th->held || !th->act) continue;
        const wm_core_status st = g->ops->core_status(g->f, th->inst->x, th->inst->y);
        if (!st.started || st.halt.state != WM_CORE_RUNNING) continue;
        if (t == g->g) return t;
        if (best == SIZE_MAX) best = t;
    }
    return best != SIZE_MAX ? best : g->g;
}

static bool between(void *ctx, uint64_t cycle)
{
    (void)cycle;
    wm_gdb_server *g = ctx;
    if (g->state == GONE) return true;
    char stop[96];
    if (g->first) {
        g->first = false;
        (void)look(g, stop, sizeof stop);
        return serve(g);
    }
    bool stopped = look(g, stop, sizeof stop);
    if (!stopped && ++g->polls % POLL_EVERY == 0) {
        const char *data;
        size_t len;
        const wm_rsp_event ev = wm_rsp_next(g->conn, 0, &data, &len);
        if (ev == WM_RSP_CLOSED) {
            drop(g);
            return true;
        }
        if (ev == WM_RSP_INTERRUPT) {
            g->g = g->c = interrupted(g);
            snprintf(stop, sizeof stop, "T02thread:%zx;", g->g + 1);
            stopped = true;
        } else if (ev == WM_RSP_PACKET || ev == WM_RSP_TOO_LONG) {
            /* only 0x03 is expected while running */
            if (!error(g, E_SYNTAX)) {
                drop(g);
                return true;
            }
        }
    }
    if (!stopped) return true;
    g->state = STOPPED;
    g->step = SIZE_MAX;
    if (!reply(g, stop)) {
        drop(g);
        return true;
    }
    return serve(g);
}

/* ---------------------------------------------------------------- life */

wm_gdb_server *wm_gdb_server_create(const char *host, unsigned port, bool any_host, FILE *msg, char *err,
                                    size_t err_size)
{
    wm_gdb_server *g = wm_xcalloc(1, sizeof *g);
    if (!wm_rsp_listen(&g->listener, host, port, any_host, err, err_size)) {
        free(g);
        return NULL;
    }
    const bool v6 = strchr(host, ':') != NULL;
    fprintf(msg, "wavemesh: waiting for GDB on %s%s%s:%u (target remote %s%s%s:%u)\n", v6 ? "[" : "", host,
            v6 ? "]" : "", g->listener.port, v6 ? "[" : "", host, v6 ? "]" : "", g->listener.port);
    fflush(msg);
    g->step = SIZE_MAX;
    g->state = GONE;
    return g;
}

unsigned wm_gdb_server_port(const wm_gdb_server *g) { return g->listener.port; }

bool wm_gdb_server_attach(wm_gdb_server *g, wm_sched *s, char *err, size_t err_size)
{
    const wm_fabric_ops *ops = wm_sched_fabric_ops(s);
    if (wm_sched_mode(s) != WM_PE_CORE) {
        snprintf(err, err_size, "GDB debugs the firmware on the cores: it needs --pe core");
        return false;
    }
    if (!ops->core_regs || !ops->core_set_reg || !ops->core_hold) {
        snprintf(err, err_size, "the %s backend does not show its cores' registers nor hold one (GDB needs rtl or sw)",
                 ops->name);
        return false;
    }
    if (wm_sched_jittered(s)) {
        snprintf(err, err_size, "GDB on a jittered run: both hold cores, and each would let go of the other's holds");
        return false;
    }
    g->s = s;
    g->ops = ops;
    g->f = wm_sched_fabric(s);
    g->n = wm_sched_pe_count(s);
    if (!g->n) {
        snprintf(err, err_size, "the layout runs no kernel: there is nothing to debug");
        return false;
    }
    g->th = wm_xcalloc(g->n, sizeof *g->th);
    for (size_t t = 0; t < g->n; t++) {
        const wm_instance *in = wm_sched_pe_instance(s, t);
        g->th[t].inst = in;
        g->th[t].retired = UINT64_MAX;
        snprintf(g->th[t].name, sizeof g->th[t].name, "%s (%u,%u)", in->name, in->x, in->y);
    }
    g->image = g->th[g->n - 1].inst->kernel->name;
    if (ops->get_link_hook) {
        g->links = wm_xmalloc(LINK_RING * sizeof *g->links);
        g->prev_link = ops->get_link_hook(g->f, &g->prev_link_ctx);
        ops->set_link_hook(g->f, record_link, g);
        g->link_hooked = true;
    }
    const int fd = wm_rsp_accept(&g->listener, err, err_size);
    wm_rsp_listener_close(&g->listener);
    if (fd < 0) return false;
    g->conn = wm_rsp_open(fd);
    g->state = STOPPED;
    g->first = true;
    const wm_sched_debugger d = {between};
    return wm_sched_set_debugger(s, &d, g);
}

void wm_gdb_server_finish(wm_gdb_server *g, wm_run_result r)
{
    wm_rsp_listener_close(&g->listener);
    if (!g->conn) return;
    if (g->state == RUNNING) (void)console(g, "wavemesh: the run ended at cycle %" PRIu64 "\n", g->ops->cycle(g->f));
    (void)reply(g, r == WM_RUN_DONE ? "W00" : "W01");
    drop(g);
}

/* "NAME, NAME" of the threads `which` picks, at buf + *k. */
static void names(const wm_gdb_server *g, bool (*which)(const thread *), char *buf, size_t size, size_t *k)
{
    size_t n = 0;
    for (size_t t = 0; t < g->n; t++) {
        if (!which(&g->th[t])) continue;
        if (*k < size) *k += (size_t)snprintf(buf + *k, size - *k, "%s%s", n++ ? ", " : "", g->th[t].name);
    }
}

static bool wrote(const thread *th) { return th->wrote_bytes || th->wrote_regs; }
static bool was_held(const thread *th) { return th->held_cycles != 0; }

bool wm_gdb_server_changes(const wm_gdb_server *g, char *buf, size_t size)
{
    uint64_t bytes = 0, regs = 0, cycles = 0;
    for (size_t t = 0; t < g->n; t++) {
        const thread *th = &g->th[t];
        bytes += th->wrote_bytes;
        regs += th->wrote_regs;
        cycles += th->held_cycles;
    }
    size_t k = 0;
    if (size) buf[0] = '\0';
    if (bytes || regs) {
        if (k < size) k += (size_t)snprintf(buf + k, size - k, "GDB wrote to ");
        names(g, wrote, buf, size, &k);
        if (k < size)
            k += (size_t)snprintf(buf + k, size - k, ": %" PRIu64 " byte%s of memory, %" PRIu64 " register%s", bytes,
                                  bytes == 1 ? "" : "s", regs, regs == 1 ? "" : "s");
    }
    if (cycles) {
        if (k < size) k += (size_t)snprintf(buf + k, size - k, "%sGDB held ", k ? "; " : "");
        names(g, was_held, buf, size, &k);
        if (k < size)
            k += (size_t)snprintf(buf + k, size - k,
                                  " where they stopped, while it ran other cores: %" PRIu64 " cycle%s in all", cycles,
                                  cycles == 1 ? "" : "s");
    }
    return bytes || regs || cycles;
}

void wm_gdb_server_destroy(wm_gdb_server *g)
{
    if (!g) return;
    if (g->s) (void)wm_sched_set_debugger(g->s, NULL, NULL);
    if (g->link_hooked) g->ops->set_link_hook(g->f, g->prev_link, g->prev_link_ctx);
    free(g->links);
    wm_rsp_close(g->conn);
    wm_rsp_listener_close(&g->listener);
    free(g->th);
    free(g);
}
