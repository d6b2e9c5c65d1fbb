/* test_icarus.c: Icarus Verilog, an independent simulator, runs rtl/mesh.v
 * (tests/icarus/tb_mesh.v) and the C-wired Verilated tiles run the same
 * traffic: the two must print the same link events, line for line. The
 * sw backend joins when it is registered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric.h"

enum { W = 4, H = 3, N = W * H, NMSG = 6, CYCLES = 400, MAX_LINES = 4096, LINE = 48 };

typedef struct {
    char (*line)[LINE];
    size_t n;
} lines;

static void add_line(lines *l, const char *s)
{
    assert_true(l->n < MAX_LINES);
    snprintf(l->line[l->n++], LINE, "%s", s);
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
    lines ref = {calloc(MAX_LINES, LINE), 0};
    run_icarus(&ref);
    /* every message of every PE crosses at least its source's register */
    assert_true(ref.n > N * NMSG);
    const char *const names[] = {"rtl", "sw"};
    for (size_t b = 0; b < 2; b++) {
        const wm_fabric_ops *ops = wm_fabric_backend(names[b]);
        if (!ops) continue;
        lines got = {calloc(MAX_LINES, LINE), 0};
        run_backend(ops, &got);
        for (size_t i = 0; i < ref.n && i < got.n; i++)
            if (strcmp(ref.line[i], got.line[i]))
                fail_msg("%s: event %zu: icarus '%s', got '%s'", names[b], i, ref.line[i], got.line[i]);
        assert_int_equal(got.n, ref.n);
        free(got.line);
    }
    free(ref.line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_icarus_and_verilated_tiles_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
