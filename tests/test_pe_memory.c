/* test_pe_memory.c: what a PE costs in memory on the sw backend
 * (docs/core.md, "Where a PE's bytes go"; run/mem_report.h).
 *
 * The 4096-leaf htree tree (8191 PEs on 127x127 tiles) runs in a child
 * process of its own, on the cores and natively. Its peak resident set,
 * less what the PEs touched of their own memory (the cores' RAM pages,
 * the kernels' stack pages natively), is at most 8 KiB a PE on the cores
 * and 4 KiB natively. What they touched is exact: on the cores one page
 * of its own a PE (its stack, under the PE block) and the two kernels'
 * images once; natively the top page of each kernel's stack. The report's
 * table is checked line by line on figures given to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/iss.h"
#include "run/mem_report.h"
#include "run/runner.h"
#include "run/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

enum { LEAVES = 4096, PES = 2 * LEAVES - 1, PAGE = WM_ISS_PAGE_BYTES };

/* The tree run to its end in a child process, so that the peak resident
 * set is the run's; the child's report comes back through a pipe. */
static void run_tree(wm_pe_mode mode, wm_mem_report *out)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        int64_t *values = calloc(LEAVES, sizeof *values);
        char *text = NULL, err[200];
        size_t size = 0;
        FILE *mem = open_memstream(&text, &size);
        wm_tree_seed_values(1, LEAVES, values);
        if (!values || !mem || !wm_tree_write(mem, LEAVES, WM_TREE_HTREE, values, "test", err, sizeof err)) _exit(2);
        fclose(mem);
        free(values);
        wm_layout *l = wm_layout_parse(text, "t4096.layout", NULL, 0, stderr);
        free(text);
        wm_runner *r = l ? wm_runner_create_mode(&wm_fabric_sw, l, NULL, mode) : NULL;
        if (!r || wm_runner_run(r, 100000) != WM_RUN_DONE) _exit(3);
        wm_mem_report rep;
        wm_mem_report_take(wm_runner_sched(r), &rep);
        wm_mem_report_print(&rep, stdout);
        fflush(stdout);
        const ssize_t n = write(fds[1], &rep, sizeof rep);
        _exit(n == (ssize_t)sizeof rep ? 0 : 4);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof *out) {
        const ssize_t n = read(fds[0], (char *)out + got, sizeof *out - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(got, sizeof *out);
    assert_int_equal(out->pes, PES);
    assert_int_equal(out->w, 127);
    assert_int_equal(out->h, 127);
}

static void test_a_pe_on_a_core_costs_at_most_8_kib_beyond_its_ram(void **state)
{
    (void)state;
#ifdef UNDER_ASAN
    skip(); /* AddressSanitizer's shadow is resident too: the figures are not the program's */
#endif
    wm_mem_report r;
    run_tree(WM_PE_CORE, &r);
    const double beyond = wm_mem_report_beyond(&r);
    print_message("cores: peak %zu bytes, %.0f bytes a PE beyond the RAM touched\n", r.peak, beyond);
    if (beyond > 8192) fail_msg("a PE holds %.0f bytes beyond the RAM it touched, more than 8192", beyond);
    assert_true(r.fabric_told);
    assert_int_equal(r.ram_own, (size_t)PES * PAGE);
    assert_int_equal(r.ram_shared, 2 * PAGE);
    assert_int_equal(r.stack, 0);
}

static void test_a_native_pe_costs_at_most_4_kib_beyond_its_stack(void **state)
{
    (void)state;
#ifdef UNDER_ASAN
    skip(); /* as above, and the kernels' frames live on its fake stacks */
#endif
    wm_mem_report r;
    run_tree(WM_PE_NATIVE, &r);
    const double beyond = wm_mem_report_beyond(&r);
    print_message("native: peak %zu bytes, %.0f bytes a PE beyond the stack touched\n", r.peak, beyond);
    if (beyond > 4096) fail_msg("a PE holds %.0f bytes beyond the stack it touched, more than 4096", beyond);
    assert_true(r.fabric_told);
    assert_int_equal(r.ram_own + r.ram_shared, 0);
    assert_int_equal(r.stack, (size_t)PES * PAGE);
}

/* The table, from figures given to it: bytes a PE, the rest by difference. */
static void test_the_report_says_where_each_byte_went(void **state)
{
    (void)state;
    wm_mem_report r;
    memset(&r, 0, sizeof r);
    r.pes = 4;
    r.w = 3;
    r.h = 2;
    r.peak = 4 * 10000;
    r.ram_own = 4 * 4096;
    r.ram_shared = 2 * 4096;
    r.fabric_told = true;
    r.fabric = (wm_fabric_memory){.routers = 4 * 300, .queues = 4 * 100, .fabric = 4 * 10, .cores = 4 * 500,
                                  .ram_own = r.ram_own, .ram_shared = r.ram_shared, .ram_spare = 4 * 20};
    r.scheduler = 4 * 1000;
    assert_true(wm_mem_report_beyond(&r) == 10000 - 4096 - 2048);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    wm_mem_report_print(&r, out);
    fclose(out);
    assert_string_equal(text,
                        "memory: 4 PEs on 3x2 tiles, peak resident 0.0 MiB; bytes a PE:\n"
                        "  RAM touched                6144   pages written by one PE 0.0 MiB, shared pages 8.0 KiB, "
                        "each counted once\n"
                        "  stack touched                 0\n"
                        "  beyond them                3856   the peak less the RAM and stack touched:\n"
                        "    ISS state                 500\n"
                        "    router state              300   per tile, tiles without a PE too\n"
                        "    queues                    100   TX and RX, per tile\n"
                        "    RAM spare pages            20\n"
                        "    fabric records             10   active sets, event records\n"
                        "    data memory                 0\n"
                        "    scheduler                1000\n"
                        "    the rest                 1926   the layout, the program, the allocator's slack\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pe_on_a_core_costs_at_most_8_kib_beyond_its_ram),
        cmocka_unit_test(test_a_native_pe_costs_at_most_4_kib_beyond_its_stack),
        cmocka_unit_test(test_the_report_says_where_each_byte_went),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
