/* test_icarus.c: Icarus Verilog, an independent simulator, runs rtl/mesh.v
 * (tests/icarus/tb_mesh.v) and the C-wired Verilated tiles run the same
 * traffic: the two must print the same link events, line for line. The
 * sw backend joins when it is registered.
 *
 * With PE cores: the seed's tworow tree (sw/collectives/bench.layout,
 * SHAPE=1, a 4x2 mesh) runs its firmware on the cores of the C-wired tiles
 * (rtl), of the Verilated mesh.v with CORES=1 (rtl-mesh) and of the sw
 * model, through the host's scheduler; Icarus runs mesh.v with CORES=1
 * from RAM images this test writes with the host's own loader code
 * (wm_firmware_load, wm_pe_block_build) and tests/icarus/tb_mesh_core.v
 * reads with $readmemh. All of them must give the same link events, the
 * cores the same retired instructions, and the tree its known results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "run/core_image.h"
#include "run/layout.h"
#include "run/runner.h"
#include "run/scheduler.h"

enum { W = 4, H = 3, N = W * H, NMSG = 6, CYCLES = 400, LINE = 96 };

typedef struct {
    char (*line)[LINE];
    size_t n, cap;
} lines;

static void add_line(lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->line = realloc(l->line, l->cap * LINE);
        assert_non_null(l->line);
    }
    snprintf(l->line[l->n++], LINE, "%s", s);
}

/* b must equal a, line for line; what names them in a failure. */
static void assert_same_lines(const lines *a, const lines *b, const char *what_a, const char *what_b)
{
    for (size_t i = 0; i < a->n && i < b->n; i++)
        if (strcmp(a->line[i], b->line[i]))
            fail_msg("line %zu: %s '%s', %s '%s'", i, what_a, a->line[i], what_b, b->line[i]);
    if (a->n != b->n) fail_msg("%s has %zu lines, %s %zu", what_a, a->n, what_b, b->n);
}

/* The traffic of tb_mesh.v, wavelet j of message k of PE src. */
static uint32_t wavelet(unsigned src, unsigned k, unsigned j)
{
    const unsigned d = (7 * src + 5 * k + 3) % N, len = (src + k) % 4;
    if (j == 0) return wm_header(d % W, d / W, len, k);
    return 0xd0000000u | (src << 16) | (k << 8) | j;
}

static void record(void *ctx, const wm_link_event *ev)
{
    char s[LINE];
    snprintf(s, sizeof s, "%llu %u %u %u %08x", (unsigned long long)ev->cycle, ev->x, ev->y, ev->port, ev->data);
    add_line(ctx, s);
}

static void run_backend(const wm_fabric_ops *ops, lines *out)
{
    wm_fabric *f = ops->create(W, H);
    assert_non_null(f);
    ops->set_link_hook(f, record, out);
    unsigned msg[N] = {0}, pos[N] = {0};
    for (unsigned c = 0; c < CYCLES; c++) {
        for (unsigned t = 0; t < N; t++) {
            const wm_pe_status st = ops->pe_status(f, t % W, t / W);
            if (st.rx_count) ops->pe_pop(f, t % W, t / W);
            if (msg[t] < NMSG && st.tx_count < WM_TX_DEPTH) {
                ops->pe_push(f, t % W, t / W, wavelet(t, msg[t], pos[t]));
                if (pos[t] == (t + msg[t]) % 4) {
                    msg[t]++;
                    pos[t] = 0;
                } else {
                    pos[t]++;
                }
            }
        }
        ops->step(f);
    }
    ops->destroy(f);
}

static void run_icarus(lines *out)
{
    /* -y: every other module comes from the file named after it */
    const char *cmd = "iverilog -g2005 -Irtl -y rtl -y rtl/prim -o " BUILD_DIR "/tb_mesh.vvp tests/icarus/tb_mesh.v "
                      "rtl/mesh.v";
    assert_int_equal(system(cmd), 0);
    FILE *p = popen("vvp -n " BUILD_DIR "/tb_mesh.vvp", "r");
    assert_non_null(p);
    char s[LINE];
    while (fgets(s, sizeof s, p)) {
        s[strcspn(s, "\n")] = 0;
        if (s[0] >= '0' && s[0] <= '9') add_line(out, s);
    }
    assert_int_equal(pclose(p), 0);
}

static void test_icarus_and_verilated_tiles_agree(void **state)
{
    (void)state;
    lines ref = {0};
    run_icarus(&ref);
    /* every message of every PE crosses at least its source's register */
    assert_true(ref.n > N * NMSG);
    const char *const names[] = {"rtl", "sw"};
    for (size_t b = 0; b < 2; b++) {
        const wm_fabric_ops *ops = wm_fabric_backend(names[b]);
        if (!ops) continue;
        lines got = {0};
        run_backend(ops, &got);
        for (size_t i = 0; i < ref.n && i < got.n; i++)
            if (strcmp(ref.line[i], got.line[i]))
                fail_msg("%s: event %zu: icarus '%s', got '%s'", names[b], i, ref.line[i], got.line[i]);
        assert_int_equal(got.n, ref.n);
        free(got.line);
    }
    free(ref.line);
}

/* ------------------------------------------------------------ PE cores */

enum {
    CW = 4, CH = 2, CN = CW * CH,            /* the tworow placement's mesh, rtl-mesh's with cores */
    MEM_WORDS = WM_TILE_MEM_BYTES / 4,
    BLOCK_WORD = WM_PE_BLOCK_ADDR / 4,
    BLOCK_WORDS = WM_PE_BLOCK_BYTES / 4,
    MAX_RUN = 20000                          /* the tree takes about 1000 cycles */
};

#define CORE_IMAGES BUILD_DIR "/icarus_cores/tworow"

static const wm_setting tworow[] = {{"SHAPE", 1, NULL}, {"V0", 7, NULL}, {"V1", 300, NULL}, {"V2", 0, NULL}, {"V3", 5, NULL}};

/* What one run of the tree gave. */
typedef struct {
    lines links, cores;          /* link events; the cores' eventful cycles */
    uint64_t end;                /* the cycle the last core halted */
    uint64_t retired[CN];        /* per tile, 0 without an instance */
    bool exited[CN];             /* halted by the EXIT store, code 0 */
    int64_t value[WM_PE_EXPORTS_MAX][CN]; /* export i of the tile's kernel */
    uint32_t exported[CN];
} core_run;

/* One eventful core cycle, with only the fields its flags make meaningful
 * (the sw model leaves the others 0, the RTL shows its datapath). */
static void record_core(void *ctx, const wm_core_event *ev)
{
    const wm_core_cycle *c = &ev->what;
    char s[LINE];
    int n = snprintf(s, sizeof s, "%llu %u %u", (unsigned long long)ev->cycle, ev->x, ev->y);
    if (c->retire) n += snprintf(s + n, sizeof s - (size_t)n, " retire %08x %08x", c->retire_pc, c->retire_insn);
    if (c->rd_we) n += snprintf(s + n, sizeof s - (size_t)n, " x%u=%08x", c->rd, c->rd_data);
    if (c->push) n += snprintf(s + n, sizeof s - (size_t)n, " push %08x", c->push_data);
    if (c->pop) snprintf(s + n, sizeof s - (size_t)n, " pop");
    add_line(ctx, s);
}

static wm_layout *load_tworow(void)
{
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", tworow, sizeof tworow / sizeof tworow[0], stderr);
    assert_non_null(l);
    assert_int_equal(wm_layout_width(l), CW);
    assert_int_equal(wm_layout_height(l), CH);
    return l;
}

/* The tree on backend ops, through the host's scheduler in core mode. */
static void run_cores_backend(const wm_fabric_ops *ops, const wm_layout *layout, core_run *out)
{
    wm_runner *r = wm_runner_create_mode(ops, layout, NULL, WM_PE_CORE);
    assert_non_null(r);
    wm_fabric *f = wm_runner_fabric(r);
    ops->set_link_hook(f, record, &out->links);
    ops->set_core_hook(f, record_core, &out->cores);
    assert_int_equal(wm_runner_run(r, MAX_RUN), WM_RUN_DONE);
    const wm_sched *s = wm_runner_sched(r);
    out->end = wm_sched_cycle(s);
    for (size_t pe = 0; pe < wm_sched_pe_count(s); pe++) {
        const wm_instance *in = wm_sched_pe_instance(s, pe);
        const unsigned t = in->y * CW + in->x;
        const wm_core_status c = wm_sched_core(s, pe);
        out->retired[t] = c.retired;
        out->exited[t] = c.halt.state == WM_CORE_EXITED && c.halt.exit_code == 0;
        wm_pe_block b;
        ops->core_read(f, in->x, in->y, WM_PE_BLOCK_ADDR, &b, sizeof b);
        out->exported[t] = b.exported;
        for (unsigned e = 0; e < WM_PE_EXPORTS_MAX; e++) out->value[e][t] = b.exports[e];
    }
    wm_runner_destroy(r);
}

/* Tile t's RAM as the scheduler loads it: the kernel's firmware at 0, the
 * PE block at 0x5E00, zeros elsewhere (the data memory too: the tree has
 * none). A tile without an instance gets zeros: its core stays in reset. */
static void write_image(unsigned x, unsigned y, const wm_instance *in)
{
    static uint32_t mem[MEM_WORDS];
    memset(mem, 0, sizeof mem);
    if (in) {
        char err[400];
        wm_firmware fw;
        wm_pe_block b;
        if (!wm_firmware_load(in->kernel->name, &fw, err, sizeof err)) fail_msg("%s", err);
        if (!wm_pe_block_build(&b, in, err, sizeof err)) fail_msg("%s", err);
        memcpy(mem, fw.bytes, fw.n);
        memcpy((uint8_t *)mem + WM_PE_BLOCK_ADDR, &b, sizeof b);
        wm_firmware_free(&fw);
    }
    char path[256];
    snprintf(path, sizeof path, CORE_IMAGES "_%02u_%02u.hex", x, y);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    /* $readmemh words, little-endian bytes as the RAM holds them (the host is little-endian too) */
    for (unsigned i = 0; i < MEM_WORDS; i++) fprintf(fp, "%08x\n", mem[i]);
    assert_int_equal(fclose(fp), 0);
}

static void run_cores_icarus(const wm_layout *layout, core_run *out)
{
    assert_int_equal(system("mkdir -p " BUILD_DIR "/icarus_cores"), 0);
    unsigned mask = 0;
    for (unsigned y = 0; y < CH; y++) {
        for (unsigned x = 0; x < CW; x++) {
            const wm_instance *in = NULL;
            for (size_t i = 0; i < wm_layout_count(layout); i++) {
                const wm_instance *c = wm_layout_instance(layout, i);
                if (c->x == x && c->y == y) in = c;
            }
            write_image(x, y, in);
            if (in) mask |= 1u << (y * CW + x);
        }
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "iverilog -g2005 -DWM_ASSERTIONS -Irtl -y rtl -y rtl/prim -y rtl/core -Ptb_mesh_core.W=%d "
             "-Ptb_mesh_core.H=%d -Ptb_mesh_core.INIT_PREFIX='\"%s\"' -o " BUILD_DIR "/tb_mesh_core.vvp "
             "tests/icarus/tb_mesh_core.v rtl/mesh.v",
             CW, CH, CORE_IMAGES);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "vvp -n " BUILD_DIR "/tb_mesh_core.vvp +run=%x +cycles=%d", mask, MAX_RUN);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    uint32_t block[CN][BLOCK_WORDS] = {{0}};
    char s[256];
    while (fgets(s, sizeof s, p)) {
        s[strcspn(s, "\n")] = 0;
        unsigned x, y, i, exited, fault, cause;
        unsigned long long n;
        uint32_t word, code, pc, insn;
        if (s[0] >= '0' && s[0] <= '9') {
            add_line(&out->links, s);
        } else if (!strncmp(s, "ev ", 3)) {
            add_line(&out->cores, s + 3);
        } else if (sscanf(s, "block %u %u %u %x", &x, &y, &i, &word) == 4) {
            assert_true(x < CW && y < CH && i < BLOCK_WORDS);
            block[y * CW + x][i] = word;
        } else if (sscanf(s, "core %u %u %u %x %u %u %x %x %llu", &x, &y, &exited, &code, &fault, &cause, &pc, &insn,
                          &n) == 9) {
            assert_true(x < CW && y < CH);
            if (fault) fail_msg("icarus: core (%u,%u) faulted, cause %u at pc %08x, instruction %08x", x, y, cause, pc, insn);
            out->exited[y * CW + x] = exited && code == 0;
            out->retired[y * CW + x] = n;
        } else if (sscanf(s, "end %llu", &n) == 1) {
            out->end = n;
        } else {
            fail_msg("icarus: unexpected output '%s'", s);
        }
    }
    assert_int_equal(pclose(p), 0);
    for (unsigned t = 0; t < CN; t++) {
        wm_pe_block b;
        memcpy(&b, block[t], sizeof b);
        out->exported[t] = b.exported;
        for (unsigned e = 0; e < WM_PE_EXPORTS_MAX; e++) out->value[e][t] = b.exports[e];
    }
}

static void free_run(core_run *r)
{
    free(r->links.line);
    free(r->cores.line);
}

/* export name of instance `inst` in run r; fails when it was not exported */
static int64_t result(const wm_layout *layout, const core_run *r, const char *inst, const char *name)
{
    const wm_instance *in = wm_layout_find(layout, inst);
    assert_non_null(in);
    const unsigned t = in->y * CW + in->x;
    for (unsigned e = 0; in->kernel->exports && in->kernel->exports[e]; e++)
        if (!strcmp(in->kernel->exports[e], name)) {
            if (!(r->exported[t] & (1u << e))) fail_msg("%s.%s was not exported", inst, name);
            return r->value[e][t];
        }
    fail_msg("kernel %s exports no %s", in->kernel->name, name);
    return 0;
}

static void test_cores_icarus_and_verilated_agree(void **state)
{
    (void)state;
    wm_layout *layout = load_tworow();
    core_run ref = {0};
    run_cores_backend(&wm_fabric_rtl, layout, &ref);
    /* the seed's tworow row: exclusive prefixes of 7, 300, 0, 5 and the total */
    const struct {
        const char *inst, *name;
        int64_t value;
    } expect[] = {{"l0", "excl", 0},   {"l1", "excl", 7},   {"l2", "excl", 307}, {"l3", "excl", 307},
                  {"l0", "incl", 7},   {"l1", "incl", 307}, {"l2", "incl", 307}, {"l3", "incl", 312},
                  {"root", "total", 312}};
    const size_t nexpect = sizeof expect / sizeof expect[0];
    for (size_t i = 0; i < nexpect; i++)
        assert_int_equal(result(layout, &ref, expect[i].inst, expect[i].name), expect[i].value);
    /* 60 wavelets on the links and 781 eventful core cycles in 308 cycles */
    assert_int_equal(ref.links.n, 60);
    assert_int_equal(ref.cores.n, 781);
    assert_int_equal(ref.end, 308);

    core_run icarus = {0};
    run_cores_icarus(layout, &icarus);
    assert_same_lines(&ref.links, &icarus.links, "rtl", "icarus");
    assert_same_lines(&ref.cores, &icarus.cores, "rtl core", "icarus");
    assert_int_equal(icarus.end, ref.end);

    const char *const names[] = {"rtl-mesh", "sw"};
    core_run got[2];
    memset(got, 0, sizeof got);
    for (size_t b = 0; b < 2; b++) {
        const wm_fabric_ops *ops = wm_fabric_backend(names[b]);
        if (!ops) continue;
        run_cores_backend(ops, layout, &got[b]);
        assert_same_lines(&ref.links, &got[b].links, "rtl", names[b]);
        assert_same_lines(&ref.cores, &got[b].cores, "rtl core", names[b]);
        assert_int_equal(got[b].end, ref.end);
    }
    const core_run *runs[] = {&icarus, &got[0], &got[1]};
    const char *const run_names[] = {"icarus", "rtl-mesh", "sw"};
    for (size_t k = 0; k < 3; k++) {
        if (k > 0 && !wm_fabric_backend(names[k - 1])) continue;
        for (unsigned t = 0; t < CN; t++) {
            if (runs[k]->retired[t] != ref.retired[t] || runs[k]->exited[t] != ref.exited[t])
                fail_msg("%s: core (%u,%u) retired %llu (exited %d), rtl %llu (exited %d)", run_names[k], t % CW,
                         t / CW, (unsigned long long)runs[k]->retired[t], runs[k]->exited[t],
                         (unsigned long long)ref.retired[t], ref.exited[t]);
        }
        for (size_t i = 0; i < nexpect; i++)
            if (result(layout, runs[k], expect[i].inst, expect[i].name) != expect[i].value)
                fail_msg("%s: %s.%s = %lld, expected %lld", run_names[k], expect[i].inst, expect[i].name,
                         (long long)result(layout, runs[k], expect[i].inst, expect[i].name),
                         (long long)expect[i].value);
    }
    free_run(&ref);
    free_run(&icarus);
    free_run(&got[0]);
    free_run(&got[1]);
    wm_layout_destroy(layout);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_icarus_and_verilated_tiles_agree),
        cmocka_unit_test(test_cores_icarus_and_verilated_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
