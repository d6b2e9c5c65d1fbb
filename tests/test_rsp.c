/* test_rsp.c: the GDB server (csim/debug/) over a real socket, against a
 * hostile client: a table of malformed and out-of-range packets (bad
 * checksums, bad lengths, bad thread ids, addresses beyond the memory, a
 * 1 MB packet, garbage between packets), each answered with the protocol's
 * error reply (or a `-`, for a checksum) while the server goes on serving;
 * then a half-closed socket, after which the run goes on to its end with
 * the results of a run without the server, and the port is closed. And
 * every read the server answers (registers, pc, the register window, the
 * RAM's edges), on every thread of a 3x2 mesh at stops all along a run,
 * against the fabric's own state, on both backends. Ctrl-C stops a core
 * that still runs; cores held at a breakpoint that GDB, running one
 * thread alone, waits for, run on, and GDB's console says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/iss.h"
#include "core/rv32_asm.h"
#include "debug/gdb_server.h"
#include "debug/rsp.h"
#include "run/runner.h"
#include "run/stream.h"
#include "run/tree.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---------------------------------------------------------------- the client */

static int connect_to(unsigned port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
        close(fd);
        return -1;
    }
    const int one = 1; /* no Nagle: a packet a round trip, as GDB sends them */
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void send_raw(int fd, const char *p, size_t n)
{
    while (n) {
        const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        assert_true(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

/* $data#cs, with a right checksum. */
static void send_packet(int fd, const char *data)
{
    unsigned sum = 0;
    for (const char *p = data; *p; p++) sum += (unsigned char)*p;
    char *out = malloc(strlen(data) + 8);
    if (!out) abort(); /* the test's own memory: nothing to report */
    sprintf(out, "$%s#%02x", data, sum & 0xFFu);
    send_raw(fd, out, strlen(out));
    free(out);
}

/* One byte within 10 s, or -1 (closed, or nothing: a hang). */
static int get_byte(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, 10000) != 1) return -1;
    unsigned char c;
    return recv(fd, &c, 1, 0) == 1 ? c : -1;
}

/* The next reply packet's data (run-length encoding undone), after any
 * acknowledgements; *nak counts the `-` seen. False on a close or a hang. */
static bool get_reply(int fd, char *out, size_t size, int *nak)
{
    int c;
    while ((c = get_byte(fd)) != '$') {
        if (c < 0) return false;
        if (c == '-' && nak) (*nak)++;
    }
    size_t n = 0;
    while ((c = get_byte(fd)) != '#') {
        if (c < 0 || n + 100 >= size) return false;
        if (c == '*') {
            const int count = get_byte(fd) - 29;
            for (int k = 0; k < count; k++) out[n] = out[n - 1], n++;
            continue;
        }
        out[n++] = (char)c;
    }
    out[n] = '\0';
    get_byte(fd);
    get_byte(fd);
    send_raw(fd, "+", 1);
    return true;
}

/* ---------------------------------------------------------------- the run */

typedef struct {
    wm_layout *layout;
    wm_runner *r;
    wm_gdb_server *g;
    wm_run_result res;
    bool attached;
} session;

static void *run_thread(void *arg)
{
    session *s = arg;
    char err[400];
    s->attached = wm_gdb_server_attach(s->g, wm_runner_sched(s->r), err, sizeof err);
    if (!s->attached) {
        fprintf(stderr, "attach: %s\n", err);
        return NULL;
    }
    s->res = wm_runner_run(s->r, 100000);
    wm_gdb_server_finish(s->g, s->res);
    return NULL;
}

static wm_layout *tutorial(void)
{
    static const wm_setting row[5] = {
        {"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL}, {"V2", 30, NULL}, {"V3", 40, NULL}};
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", row, 5, stderr);
    assert_non_null(l);
    return l;
}

/* ---------------------------------------------------------------- the table */

typedef struct {
    const char *send;   /* a packet's data, framed here; or raw bytes (raw) */
    bool raw;
    const char *expect; /* the reply's beginning; NULL: a `-` and no reply */
    bool exact;
} row;

static const row table[] = {
    {"qSupported:multiprocess+;swbreak+", false, "PacketSize=4000;qXfer:features:read+", false},
    {"?", false, "T05thread:1;", true},
    /* checksums: refused with `-`, nothing done */
    {"$g#00", true, NULL, false},
    {"$g#zz", true, NULL, false},
    {"$g#", true, NULL, false}, /* ... the checksum's digits are the next bytes: "$?" below */
    {"$?#3f", true, NULL, false},
    {"?", false, "T05thread:1;", true},
    /* garbage between packets, a lone '#', stray acknowledgements */
    {"#junk+++\xff\x01", true, NULL, false},
    {"?", false, "T05thread:1;", true},
    /* thread ids */
    {"Hg8", false, "E02", true},
    {"Hg0", false, "OK", true},
    {"Hgfffffffff", false, "E02", true},
    {"Hgp1.1", false, "E02", true},
    {"Hx1", false, "E02", true},
    {"Hg", false, "E02", true},
    {"T0", false, "E02", true},
    {"T7", false, "OK", true},
    {"qThreadExtraInfo,8", false, "E02", true},
    {"qThreadExtraInfo,7", false, "726f6f742028362c3029", true}, /* root (6,0) */
    {"qThreadExtraInfo,zz", false, "E02", true},
    {"vCont;s:9", false, "E02", true},
    {"vCont;x", false, "E01", true},
    {"vCont", false, "", true},
    {"vCont;", false, "E01", true},
    /* registers */
    {"p21", false, "E04", true},
    {"pffffffffff", false, "E01", true},
    {"p", false, "E01", true},
    {"p20", false, "00000000", true},
    {"P0=01000000", false, "E04", true},
    {"P20=04000000", false, "E04", true},
    {"P1=0100", false, "E01", true},
    {"G00", false, "E01", true},
    {"gx", false, "E01", true},
    /* memory: the RAM is 64 KiB, the register window 0x80000000..0x80000023 */
    {"m10000,4", false, "E03", true},
    {"mffffffff,ffffffff", false, "E03", true},
    {"m0,zz", false, "E01", true},
    {"m,4", false, "E01", true},
    {"m0", false, "E01", true},
    {"mfffe,4", false, "0000", true}, /* what lies in the RAM, and no further */
    {"m8000001c,4", false, "00000000", true}, /* COORD of (0,0) */
    {"m80000000,4", false, "E03", true}, /* TX: a load faults */
    {"M10000,1:00", false, "E03", true},
    {"Mfffe,4:00000000", false, "E03", true},
    {"M0,2:00", false, "E01", true},
    {"M0,1:zz", false, "E01", true},
    {"M0,0:", false, "OK", true},
    /* break and watchpoints */
    {"Z0,10000,4", false, "E03", true},
    {"Z2,0,0", false, "E03", true},
    {"Z2,fff0,100000", false, "E03", true},
    {"Z9,0,4", false, "E01", true},
    {"Z0,zz,4", false, "E01", true},
    {"Z3,100,4", false, "", true},
    {"z0,100,4", false, "OK", true},
    /* documents and commands */
    {"qXfer:features:read:target.xml:0,40", false, "m<?xml", false},
    {"qXfer:features:read:target.xml:fffff,40", false, "E03", true},
    {"qXfer:features:read:target.xml:0", false, "E01", true},
    {"qXfer:exec-file:read::0,400", false, "l/", false}, /* the root's image, node.elf, by its absolute path */
    {"qXfer:exec-file:read:2:0,40", false, "E02", true},
    {"qXfer:exec-file:read:1", false, "E01", true},
    {"qXfer:threads:read::0,40", false, "E01", true},
    {"qRcmd,6379636c65", false, "6379636c652030", false}, /* monitor cycle: "cycle 0" */
    {"qRcmd,6", false, "E01", true},
    {"qRcmd,zz", false, "E01", true},
    {"qRcmd,717565756573203939", false, "6e6f2074687265616420", false}, /* queues 99: "no thread " */
    {"jabberwocky", false, "", true},
    {"", false, "", true},
    {"c1234", false, "E01", true},
    /* escapes and repeats on the way in: Hg then "0" * 3 */
    {"Hg0*\x1f", false, "OK", true},
    {"*\x22", false, "E06", true}, /* a repeat of nothing */
    {"Hg}\x10", false, "OK", true},   /* '}' escapes '0' ^ 0x20 */
    {"qAttached", false, "1", true},
    {"?", false, "T05thread:1;", true},
};

static void test_hostile_packets_get_errors_and_the_run_goes_on(void **state)
{
    (void)state;
    session s = {0};
    s.layout = tutorial();
    s.r = wm_runner_create_mode(&wm_fabric_sw, s.layout, NULL, WM_PE_CORE);
    assert_non_null(s.r);
    char err[400];
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    s.g = wm_gdb_server_create("127.0.0.1", 0, false, quiet, err, sizeof err);
    assert_non_null(s.g);
    const unsigned port = wm_gdb_server_port(s.g);
    assert_true(port > 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, run_thread, &s), 0);
    const int fd = connect_to(port);
    assert_true(fd >= 0);
    static char reply[1 << 16];
    size_t wrong = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const row *t = &table[i];
        if (t->raw) send_raw(fd, t->send, strlen(t->send));
        else send_packet(fd, t->send);
        if (!t->expect) continue; /* its `-` is counted with the next reply */
        int nak = 0;
        if (!get_reply(fd, reply, sizeof reply, &nak)) {
            print_error("%zu '%s': no reply\n", i, t->send);
            wrong++;
            break;
        }
        const bool ok = t->exact ? !strcmp(reply, t->expect) : !strncmp(reply, t->expect, strlen(t->expect));
        if (!ok) {
            print_error("%zu '%s': got '%.80s', expected '%s'\n", i, t->send, reply, t->expect);
            wrong++;
        }
    }
    /* every bad checksum got its `-`: send one more and count it */
    send_raw(fd, "$g#00", 5);
    send_packet(fd, "?");
    int nak = 0;
    assert_true(get_reply(fd, reply, sizeof reply, &nak));
    assert_int_equal(nak, 1);
    assert_string_equal(reply, "T05thread:1;");
    /* a 1 MB packet: read to its end, refused, and the server goes on */
    const size_t big = 1u << 20;
    char *huge = malloc(big + 8);
    huge[0] = '$';
    memset(huge + 1, 'm', big);
    memcpy(huge + 1 + big, "#00", 3);
    send_raw(fd, huge, big + 4);
    free(huge);
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "E06");
    send_packet(fd, "p20");
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "00000000");
    /* Ctrl-C while running: looked for every 256 cycles, so the 0x03 sent
     * with the vCont stops the fabric at cycle 256 exactly */
    send_raw(fd, "$vCont;c#a8\x03", 12);
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "T02thread:1;");
    send_packet(fd, "qRcmd,6379636c65");
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "6379636c65203235360a"); /* cycle 256 */
    /* half-closed: the server sees the end, and the run goes on alone */
    shutdown(fd, SHUT_WR);
    assert_int_equal(get_byte(fd), -1);
    close(fd);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_true(s.attached);
    assert_int_equal(wrong, 0);
    assert_int_equal(s.res, WM_RUN_DONE);
    int64_t total;
    assert_true(wm_sched_result(wm_runner_sched(s.r), "root", "total", &total));
    assert_int_equal(total, 100);
    assert_int_equal(wm_sched_cycle(wm_runner_sched(s.r)), 310);
    /* the run ended: nobody listens any more */
    assert_int_equal(connect_to(port), -1);
    wm_gdb_server_destroy(s.g);
    fclose(quiet);
    wm_runner_destroy(s.r);
    wm_layout_destroy(s.layout);
}

/* Detach: OK, the connection closes, the run goes on to its end. */
static void test_detach_lets_the_run_end(void **state)
{
    (void)state;
    session s = {0};
    s.layout = tutorial();
    s.r = wm_runner_create_mode(&wm_fabric_rtl, s.layout, NULL, WM_PE_CORE);
    assert_non_null(s.r);
    char err[400];
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    s.g = wm_gdb_server_create("127.0.0.1", 0, false, quiet, err, sizeof err);
    assert_non_null(s.g);
    const unsigned port = wm_gdb_server_port(s.g);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, run_thread, &s), 0);
    const int fd = connect_to(port);
    assert_true(fd >= 0);
    char reply[256];
    send_packet(fd, "Z0,f8,4"); /* the root stops here, after a message */
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "OK");
    send_packet(fd, "vCont;c");
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "T05thread:6;"); /* p1, the first node to get one: l3 is next to it */
    send_packet(fd, "D");
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "OK");
    assert_int_equal(get_byte(fd), -1);
    close(fd);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(s.res, WM_RUN_DONE);
    assert_int_equal(wm_sched_cycle(wm_runner_sched(s.r)), 310);
    wm_gdb_server_destroy(s.g);
    fclose(quiet);
    wm_runner_destroy(s.r);
    wm_layout_destroy(s.layout);
}

/* ---------------------------------------------------------------- every read against the model */

/* Bytes of a reply's hex, little-endian words. */
static uint32_t hex_word(const char *hex)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned b;
        assert_int_equal(sscanf(hex + 2 * k, "%2x", &b), 1);
        v |= (uint32_t)b << (8 * k);
    }
    return v;
}

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    for (size_t k = 0; k < n; k++) sprintf(out + 2 * k, "%02x", b[k]);
    out[2 * n] = '\0';
}

/* What a load of the register window at off would read on the PE at
 * (x, y) in this cycle, worked out by a core of its own: an instruction-set
 * simulator that loads TSC_LO (which latches TSC_HI), then off, with the
 * PE's port as the fabric shows it and the tile's column and row as the
 * sw model gives them to its cores. False where the load faults; an RX
 * load of an empty queue waits, and the debugger reads 0 there. */
static bool window_by_a_core(const wm_pe_status *ps, unsigned x, unsigned y, uint32_t off, uint32_t *v)
{
    static uint8_t mem[64];
    const uint32_t prog[] = {rv_lui(5, (uint32_t)WM_CORE_REG_BASE >> 12), rv_lw(6, 5, WM_CORE_REG_TSC_LO),
                             rv_lw(7, 5, (int32_t)off), rv_jal(0, 0)};
    memset(mem, 0, sizeof mem);
    for (size_t k = 0; k < sizeof prog / sizeof prog[0]; k++)
        for (int b = 0; b < 4; b++) mem[4 * k + (size_t)b] = (uint8_t)(prog[k] >> (8 * b));
    wm_iss c;
    wm_iss_init(&c, mem, sizeof mem);
    const wm_core_pe_in in = {ps->tsc, ps->rx_head, ps->err_hdr, ps->tx_count, ps->rx_count, ps->status,
                              (uint16_t)x, (uint16_t)y};
    for (int cycle = 0; cycle < 40; cycle++) {
        wm_core_cycle out;
        wm_iss_step(&c, &in, &out);
        if (wm_iss_halted(&c)) return false;
        if (out.retire && out.retire_pc == 8) {
            *v = wm_iss_reg(&c, 7);
            return true;
        }
    }
    assert_int_equal(off, WM_CORE_REG_RX); /* only an empty RX queue keeps a load waiting */
    assert_int_equal(ps->rx_count, 0);
    *v = 0;
    return true;
}

/* At the cycle the fabric stands at, every read GDB can make of thread
 * t + 1 (the PE at (x, y)) against the fabric's own state: x0..x31 and pc
 * by `g` and by `p`, the register window word by word, and the RAM at
 * both its edges (a read across its end gives the bytes up to it). */
static void reads_agree(int fd, const wm_fabric_ops *ops, const wm_fabric *f, size_t t, unsigned x, unsigned y)
{
    char reply[2048], packet[64], want[300];
    snprintf(packet, sizeof packet, "Hg%zx", t + 1);
    send_packet(fd, packet);
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "OK");
    uint32_t regs[33];
    ops->core_regs(f, x, y, regs);
    regs[32] = ops->core_status(f, x, y).pc;
    send_packet(fd, "g");
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_int_equal(strlen(reply), 8 * 33);
    for (unsigned r = 0; r < 33; r++) {
        if (hex_word(reply + 8 * r) != regs[r])
            print_error("PE (%u,%u) register %u: g reads %08x, the model holds %08x\n", x, y, r,
                        hex_word(reply + 8 * r), regs[r]);
        assert_int_equal(hex_word(reply + 8 * r), regs[r]);
    }
    for (unsigned r = 0; r < 33; r++) {
        char one[128];
        snprintf(packet, sizeof packet, "p%x", r);
        send_packet(fd, packet);
        assert_true(get_reply(fd, one, sizeof one, NULL));
        assert_int_equal(hex_word(one), regs[r]);
    }
    const wm_pe_status ps = ops->pe_status(f, x, y);
    for (uint32_t off = 0; off <= WM_CORE_REG_EXIT; off += 4) {
        uint32_t v;
        const bool loads = window_by_a_core(&ps, x, y, off, &v);
        snprintf(packet, sizeof packet, "m%x,4", (uint32_t)WM_CORE_REG_BASE + off);
        send_packet(fd, packet);
        assert_true(get_reply(fd, reply, sizeof reply, NULL));
        if (loads) {
            const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
            hex_of(b, 4, want);
        } else {
            snprintf(want, sizeof want, "E03");
        }
        if (strcmp(reply, want))
            print_error("PE (%u,%u) register window +0x%02x: GDB reads %s, a load reads %s\n", x, y, off, reply, want);
        assert_string_equal(reply, want);
    }
    static const uint32_t edges[][2] = {{0, 64}, {WM_TILE_MEM_BYTES - 64, 64}, {WM_TILE_MEM_BYTES - 4, 12}};
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
        uint8_t b[64];
        const uint32_t n = edges[k][0] + edges[k][1] > WM_TILE_MEM_BYTES ? WM_TILE_MEM_BYTES - edges[k][0] : edges[k][1];
        ops->core_read(f, x, y, edges[k][0], b, n);
        hex_of(b, n, want);
        snprintf(packet, sizeof packet, "m%x,%x", edges[k][0], edges[k][1]);
        send_packet(fd, packet);
        assert_true(get_reply(fd, reply, sizeof reply, NULL));
        assert_string_equal(reply, want);
    }
}

/* Firmware traffic on a 3x2 mesh (neither square nor a row: a column and
 * row swapped shows), 4000 cycles long, stopped at cycle 0 and by Ctrl-C
 * every 256 cycles after (messages in the queues, cores waiting and
 * running): at each stop, every thread's reads agree with the fabric's
 * state. Then GDB detaches and the run ends. On both backends. */
enum { STOPS = 8 };
static void test_every_read_agrees_with_the_model(void **state)
{
    (void)state;
    static const char *const backends[] = {"rtl", "sw"};
    for (int bk = 0; bk < 2; bk++) {
        const wm_stream_spec spec = {3, 2, WM_STREAM_UNIFORM, 0, 0, 6, 5, 90, 7, false};
        wm_stream_expect *expect = NULL;
        char err[400];
        session s = {0};
        s.layout = wm_stream_layout(&spec, &expect, err, sizeof err);
        assert_non_null(s.layout);
        free(expect);
        const wm_fabric_ops *ops = wm_fabric_backend(backends[bk]);
        assert_non_null(ops);
        s.r = wm_runner_create_mode(ops, s.layout, NULL, WM_PE_CORE);
        assert_non_null(s.r);
        FILE *quiet = fopen("/dev/null", "w");
        assert_non_null(quiet);
        s.g = wm_gdb_server_create("127.0.0.1", 0, false, quiet, err, sizeof err);
        assert_non_null(s.g);
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, run_thread, &s), 0);
        const int fd = connect_to(wm_gdb_server_port(s.g));
        assert_true(fd >= 0);
        char reply[256];
        send_packet(fd, "?");
        assert_true(get_reply(fd, reply, sizeof reply, NULL));
        assert_string_equal(reply, "T05thread:1;");
        const wm_fabric *f = wm_runner_fabric(s.r);
        for (int stop = 0; stop < STOPS; stop++) {
            if (stop) {
                send_raw(fd, "$vCont;c#a8\x03", 12);
                assert_true(get_reply(fd, reply, sizeof reply, NULL));
                assert_memory_equal(reply, "T02thread:", 10);
            }
            for (size_t t = 0; t < wm_layout_count(s.layout); t++) {
                const wm_instance *in = wm_layout_instance(s.layout, t);
                reads_agree(fd, ops, f, t, in->x, in->y);
            }
        }
        send_packet(fd, "D");
        assert_true(get_reply(fd, reply, sizeof reply, NULL));
        assert_string_equal(reply, "OK");
        assert_int_equal(get_byte(fd), -1);
        close(fd);
        assert_int_equal(pthread_join(th, NULL), 0);
        assert_int_equal(s.res, WM_RUN_DONE);
        wm_gdb_server_destroy(s.g);
        fclose(quiet);
        wm_runner_destroy(s.r);
        wm_layout_destroy(s.layout);
    }
}

/* An address that is not loopback is refused unless asked for. */
static void test_loopback_only(void **state)
{
    (void)state;
    char err[400];
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    assert_true(wm_rsp_host_is_loopback("127.0.0.1"));
    assert_true(wm_rsp_host_is_loopback("::1"));
    assert_false(wm_rsp_host_is_loopback("0.0.0.0"));
    assert_false(wm_rsp_host_is_loopback("192.0.2.1"));
    wm_gdb_server *g = wm_gdb_server_create("0.0.0.0", 0, false, quiet, err, sizeof err);
    assert_null(g);
    assert_string_equal(err, "0.0.0.0 is not a loopback address");
    fclose(quiet);
}

/* ---------------------------------------------------------------- what GDB changes */

int wm_cmd_rows(int argc, char **argv);
int wm_cmd_run(int argc, char **argv);

/* A port nobody listens on now (the system's choice, let go). */
static unsigned free_port(void)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

/* A connection to a server that is about to listen (a row being set up). */
static int connect_when_listening(unsigned port)
{
    for (int tries = 0; tries < 1000; tries++) {
        const int fd = connect_to(port);
        if (fd >= 0) return fd;
        usleep(10000);
    }
    fail_msg("nobody listened on port %u within 10 s", port);
    return -1;
}

/* A command (`wavemesh rows` or `run`) in a thread of its own, its
 * standard output in a file. */
typedef struct {
    int (*command)(int argc, char **argv);
    char *argv[12];
    int argc;
    int status;
} command_job;

static void *command_thread(void *arg)
{
    command_job *j = arg;
    j->status = j->command(j->argc, j->argv);
    return NULL;
}

/* A rows file in a fresh folder (its name is the suite): the tutorial
 * layout, then body. */
static void write_rows(char *dir, char *path, size_t size, const char *body)
{
    char cwd[1024];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(path, size, "%s/test.rows", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "layout %s/sw/collectives/bench.layout\n%s", cwd, body);
    fclose(f);
}

/* Runs `rows` (or `run`, when the file is a layout) on the cores of the sw
 * backend under --gdb on port (extra: one more option or NULL) while
 * client(fd, ctx) plays GDB for each run, one connection per run; the
 * output in *text, the status returned. */
static int rows_under_gdb(const char *rows, unsigned port, const char *extra, size_t nrows,
                          void (*client)(int fd, size_t nth, void *ctx), void *ctx, char **text)
{
    char addr[64], out[] = "/tmp/wm_rsp_rowsXXXXXX";
    snprintf(addr, sizeof addr, "127.0.0.1:%u", port);
    const bool layout = strlen(rows) > 7 && !strcmp(rows + strlen(rows) - 7, ".layout");
    command_job j = {.command = layout ? wm_cmd_run : wm_cmd_rows,
                     .argv = {layout ? "run" : "rows", (char *)rows, "--pe", "core", "--backend", "sw", "--gdb", addr},
                     .argc = 8};
    if (extra) j.argv[j.argc++] = (char *)extra;
    const int fd = mkstemp(out);
    assert_true(fd >= 0);
    fflush(stdout);
    const int saved = dup(1);
    dup2(fd, 1);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, command_thread, &j), 0);
    for (size_t r = 0; r < nrows; r++) {
        const int c = connect_when_listening(port);
        client(c, r, ctx);
        close(c);
    }
    assert_int_equal(pthread_join(th, NULL), 0);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    *text = calloc(1, 65536);
    assert_non_null(*text);
    assert_true(pread(fd, *text, 65535, 0) >= 0);
    close(fd);
    unlink(out);
    return j.status;
}

static void expect_reply(int fd, const char *send, const char *want)
{
    char reply[512];
    send_packet(fd, send);
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    if (strcmp(reply, want)) fail_msg("'%s': got '%s', expected '%s'", send, reply, want);
}

/* Exercise 1's row fails (the nodes take the first message as the left
 * child's); GDB clears IGNORE_TAG (the node's parameter 9, in the PE
 * block at 0x5e00 + 0x30 + 8 * 9) on the three nodes and detaches. */
static void clear_ignore_tag(int fd, size_t nth, void *ctx)
{
    (void)nth;
    (void)ctx;
    for (const char *const *t = (const char *const[]){"Hg5", "Hg6", "Hg7", NULL}; *t; t++) {
        expect_reply(fd, *t, "OK");
        expect_reply(fd, "M5e78,8:0000000000000000", "OK");
    }
    expect_reply(fd, "D", "OK");
}

static void test_gdb_writes_make_a_row_modified(void **state)
{
    (void)state;
    char dir[] = "/tmp/wm_rsp_exercise1XXXXXX", rows[200];
    write_rows(dir, rows, sizeof rows, "row tutorial SHAPE=0 IGNORE_TAG=1\n");
    const char *suite = strrchr(dir, '/') + 1;
    char line[300], *text;
    /* the row GDB repaired computes the right sums: MODIFIED, not PASS */
    assert_int_equal(rows_under_gdb(rows, free_port(), NULL, 1, clear_ignore_tag, NULL, &text), 1);
    snprintf(line, sizeof line, "%s : ", suite);
    assert_non_null(strstr(text, line));
    if (!strstr(text, " MODIFIED tutorial [ SHAPE=0 IGNORE_TAG=1 BACKEND=sw PE=core ]\n")) fail_msg("%s", text);
    assert_non_null(strstr(text, "  GDB wrote to p0 (4,0), p1 (5,0), root (6,0): 3 bytes of memory, 0 registers "
                                 "(--gdb-writes-ok judges the row as it ran)\n"));
    free(text);
    /* --gdb-writes-ok: judged as it ran, the writes still said */
    assert_int_equal(rows_under_gdb(rows, free_port(), "--gdb-writes-ok", 1, clear_ignore_tag, NULL, &text), 0);
    if (!strstr(text, " PASS tutorial [ SHAPE=0 IGNORE_TAG=1 BACKEND=sw PE=core ]\n")) fail_msg("%s", text);
    assert_non_null(strstr(text, "  GDB wrote to p0 (4,0), p1 (5,0), root (6,0): 3 bytes of memory, 0 registers\n"));
    free(text);
    unlink(rows);
    rmdir(dir);
    /* `run` of exercise 1 (the layout's IGNORE_TAG given 1 by a copy of it):
     * the line after the results, and exit 1 */
    char layout[200], cmd[600];
    snprintf(layout, sizeof layout, "%s.layout", dir);
    snprintf(cmd, sizeof cmd, "sed 's/^param IGNORE_TAG 0$/param IGNORE_TAG 1/' sw/collectives/bench.layout > %s",
             layout);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(rows_under_gdb(layout, free_port(), NULL, 1, clear_ignore_tag, NULL, &text), 1);
    if (!strstr(text, "\nroot.total = 100\n") ||
        !strstr(text, "\nmodified: GDB wrote to p0 (4,0), p1 (5,0), root (6,0): 3 bytes of memory, 0 registers\n"))
        fail_msg("%s", text);
    free(text);
    assert_int_equal(rows_under_gdb(layout, free_port(), "--gdb-writes-ok", 1, clear_ignore_tag, NULL, &text), 0);
    assert_non_null(strstr(text, "\nmodified: GDB wrote to p0 (4,0), p1 (5,0), root (6,0): 3 bytes"));
    free(text);
    unlink(layout);
}

/* kill on the first row; the second row's GDB detaches at once. */
static void kill_then_detach(int fd, size_t nth, void *ctx)
{
    (void)ctx;
    if (nth == 0) {
        send_packet(fd, "k");
        assert_int_equal(get_byte(fd), '+'); /* acknowledged, then the connection closes */
        assert_int_equal(get_byte(fd), -1);
    } else {
        expect_reply(fd, "D", "OK");
    }
}

static void test_gdb_kill_ends_only_its_row(void **state)
{
    (void)state;
    char dir[] = "/tmp/wm_rsp_killXXXXXX", rows[200];
    write_rows(dir, rows, sizeof rows, "row first SHAPE=0\nrow second SHAPE=0\n");
    char *text;
    assert_int_equal(rows_under_gdb(rows, free_port(), NULL, 2, kill_then_detach, NULL, &text), 1);
    if (!strstr(text, " FAIL first [ SHAPE=0 BACKEND=sw PE=core ]\n") ||
        !strstr(text, "stopped at cycle 0: killed from GDB\n") ||
        !strstr(text, " PASS second [ SHAPE=0 BACKEND=sw PE=core ]\n"))
        fail_msg("%s", text);
    free(text);
    unlink(rows);
    rmdir(dir);
}

/* A session on the tutorial run of the sw backend, served in a thread. */
static int open_session(session *s, FILE *quiet, pthread_t *th)
{
    char err[400];
    s->layout = tutorial();
    s->r = wm_runner_create_mode(&wm_fabric_sw, s->layout, NULL, WM_PE_CORE);
    assert_non_null(s->r);
    s->g = wm_gdb_server_create("127.0.0.1", 0, false, quiet, err, sizeof err);
    assert_non_null(s->g);
    assert_int_equal(pthread_create(th, NULL, run_thread, s), 0);
    const int fd = connect_to(wm_gdb_server_port(s->g));
    assert_true(fd >= 0);
    return fd;
}

static void close_session(session *s, int fd, pthread_t th)
{
    expect_reply(fd, "D", "OK");
    close(fd);
    assert_int_equal(pthread_join(th, NULL), 0);
    wm_gdb_server_destroy(s->g);
    wm_runner_destroy(s->r);
    wm_layout_destroy(s->layout);
}

#define X8(w) w w w w w w w w
/* G refused for its PC writes nothing; G accepted writes every register
 * and is counted as GDB's change to the run. */
static void test_g_is_all_or_nothing(void **state)
{
    (void)state;
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    session s = {0};
    pthread_t th;
    const int fd = open_session(&s, quiet, &th);
    expect_reply(fd, "p1", "00000000");
    /* x0 = 0, x1..x31 = 0x11111111, the PC moved: refused, x1 untouched */
    expect_reply(fd, "G00000000" "11111111111111111111111111111111111111111111111111111111" X8("11111111")
                     X8("11111111") X8("11111111") "ffffffff",
                 "E04");
    expect_reply(fd, "p1", "00000000");
    char why[200];
    assert_false(wm_gdb_server_changes(s.g, why, sizeof why));
    assert_string_equal(why, "");
    /* the same with the PC where it is: every register written */
    expect_reply(fd, "G00000000" "11111111111111111111111111111111111111111111111111111111" X8("11111111")
                     X8("11111111") X8("11111111") "00000000",
                 "OK");
    expect_reply(fd, "p1f", "11111111");
    assert_true(wm_gdb_server_changes(s.g, why, sizeof why));
    assert_string_equal(why, "GDB wrote to l0 (0,0): 0 bytes of memory, 31 registers");
    close_session(&s, fd, th);
    fclose(quiet);
}

/* Ctrl-C stops a thread whose core still runs: the tutorial's root (thread
 * 7, selected) halts at cycle 242; an interrupt sent with the resume is
 * seen at the 256th cycle, when every other core runs, and stops thread 1,
 * not the root. */
static void test_interrupt_stops_a_running_core(void **state)
{
    (void)state;
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    session s = {0};
    pthread_t th;
    const int fd = open_session(&s, quiet, &th);
    expect_reply(fd, "QStartNoAckMode", "OK");
    expect_reply(fd, "Hg7", "OK");
    send_raw(fd, "$vCont;c#a8\x03", 12);
    char reply[256];
    assert_true(get_reply(fd, reply, sizeof reply, NULL));
    assert_string_equal(reply, "T02thread:1;");
    expect_reply(fd, "qRcmd,6379636c65", "6379636c65203235360a"); /* monitor cycle: "cycle 256" */
    close_session(&s, fd, th);
    fclose(quiet);
}

/* GDB runs the root alone (vCont;c:7) with a breakpoint where p0 and p1
 * go to send their sums up (0x1c8, a node that is no root): both hit it
 * and are held, unreported; the root waits for their messages, the leaves
 * for their prefixes, nothing is in flight. The server lets p0 and p1 run
 * on, says so on GDB's console, and the run ends as every run of the row
 * does, with the cycles the holds cost. */
static void test_held_cores_run_on_when_the_others_wait_for_them(void **state)
{
    (void)state;
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    session s = {0};
    pthread_t th;
    const int fd = open_session(&s, quiet, &th);
    expect_reply(fd, "QStartNoAckMode", "OK"); /* no `+` to send after the server closes */
    expect_reply(fd, "Z0,1c8,4", "OK");
    send_packet(fd, "vCont;c:7");
    /* the run goes on to its end and the server closes: its packets are
     * read raw, with no `+` after them */
    assert_int_equal(pthread_join(th, NULL), 0);
    static char raw[4096];
    size_t n = 0;
    for (int c; (c = get_byte(fd)) >= 0 && n + 1 < sizeof raw;) raw[n++] = (char)c;
    raw[n] = '\0';
    /* the console packets, decoded, then the exit */
    char text[4][200];
    size_t lines = 0;
    const char *p = raw;
    while ((p = strstr(p, "$O")) != NULL && lines < 4) {
        size_t k = 0;
        for (p += 2; p[0] != '#' && p[1] && k + 1 < sizeof text[lines]; p += 2) {
            unsigned b;
            assert_int_equal(sscanf(p, "%2x", &b), 1);
            text[lines][k++] = (char)b;
        }
        text[lines++][k] = '\0';
    }
    assert_int_equal(lines, 3);
    assert_string_equal(text[0], "wavemesh: p0 (4,0) runs on from its breakpoint at 0x1c8 (cycle 106), not reported: "
                                 "the threads GDB runs wait for it\n");
    assert_string_equal(text[1], "wavemesh: p1 (5,0) runs on from its breakpoint at 0x1c8 (cycle 104), not reported: "
                                 "the threads GDB runs wait for it\n");
    assert_string_equal(text[2], "wavemesh: the run ended at cycle 313\n"); /* 310 without GDB */
    assert_non_null(strstr(raw, "$W00#"));
    char why[300];
    assert_true(wm_gdb_server_changes(s.g, why, sizeof why));
    assert_string_equal(why,
                        "GDB held p0 (4,0), p1 (5,0) where they stopped, while it ran other cores: 4 cycles in all");
    close(fd);
    wm_gdb_server_destroy(s.g);
    wm_runner_destroy(s.r);
    wm_layout_destroy(s.layout);
    fclose(quiet);
}

/* monitor threads on 255 cores: more than a packet, sent whole in console
 * packets (O), then OK. */
static void test_monitor_output_longer_than_a_packet_is_whole(void **state)
{
    (void)state;
    char path[] = "/tmp/wm_rsp_treeXXXXXX";
    const int tfd = mkstemp(path);
    assert_true(tfd >= 0);
    FILE *f = fdopen(tfd, "w");
    int64_t values[128];
    wm_tree_seed_values(1, 128, values);
    char err[400];
    assert_true(wm_tree_write(f, 128, WM_TREE_INORDER, values, "test_rsp", err, sizeof err));
    fclose(f);
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    session s = {0};
    s.layout = wm_layout_load(path, NULL, 0, stderr);
    assert_non_null(s.layout);
    s.r = wm_runner_create_mode(&wm_fabric_sw, s.layout, NULL, WM_PE_CORE);
    assert_non_null(s.r);
    s.g = wm_gdb_server_create("127.0.0.1", 0, false, quiet, err, sizeof err);
    assert_non_null(s.g);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, run_thread, &s), 0);
    const int fd = connect_to(wm_gdb_server_port(s.g));
    assert_true(fd >= 0);
    send_packet(fd, "qRcmd,74687265616473"); /* threads */
    static char reply[1 << 16], out[1 << 17];
    size_t n = 0, packets = 0;
    for (;;) {
        if (!get_reply(fd, reply, sizeof reply, NULL)) fail_msg("no reply after %zu packets", packets);
        if (reply[0] != 'O' || !strcmp(reply, "OK")) break;
        packets++;
        for (const char *h = reply + 1; h[0] && h[1] && n + 1 < sizeof out; h += 2) {
            unsigned b;
            assert_int_equal(sscanf(h, "%2x", &b), 1);
            out[n++] = (char)b;
        }
    }
    out[n] = '\0';
    assert_string_equal(reply, "OK");
    assert_true(packets >= 2);
    assert_true(n > 8191);
    size_t lines = 0;
    for (const char *p = out; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 255);
    assert_non_null(strstr(out, "1 root (")); /* layout order: the tree file names the root first */
    assert_non_null(strstr(out, "\n255 l127 ("));
    close_session(&s, fd, th);
    fclose(quiet);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_packets_get_errors_and_the_run_goes_on),
        cmocka_unit_test(test_detach_lets_the_run_end),
        cmocka_unit_test(test_every_read_agrees_with_the_model),
        cmocka_unit_test(test_loopback_only),
        cmocka_unit_test(test_gdb_writes_make_a_row_modified),
        cmocka_unit_test(test_gdb_kill_ends_only_its_row),
        cmocka_unit_test(test_interrupt_stops_a_running_core),
        cmocka_unit_test(test_held_cores_run_on_when_the_others_wait_for_them),
        cmocka_unit_test(test_g_is_all_or_nothing),
        cmocka_unit_test(test_monitor_output_longer_than_a_packet_is_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
