/* test_verdicts.c: a run's verdict includes the run.
 *
 * Two backends agreeing on a deadlock, or a row whose every `expect` line
 * holds while a message lies unread, is no pass: `regress LAYOUT` and
 * `rows` FAIL such a run, in both PE modes and on both backends, with the
 * report `run` prints; a layout or a row that says the run is meant to end
 * that way (`expect deadlock`) PASSes it and FAILs any other ending. On
 * the cores the report names the function and the message a blocked
 * receive waits for. And a rows file's `expect` lines are checked against
 * the layout before anything runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "regress/layout_regress.h"
#include "regress/regress.h"

int wm_cmd_rows(int argc, char **argv);

static void expect_in(const char *text, const char *want)
{
    if (!text || !strstr(text, want)) fail_msg("expected \"%s\" in:\n%s", want, text ? text : "(no output)");
}

/* `wavemesh rows` on a rows file of the given text, stdout and stderr
 * captured together into *out; returns its status. */
static int rows_of(const char *text, char **out)
{
    char rows[] = "/tmp/wm_verdictsXXXXXX.rows", cap[] = "/tmp/wm_verdicts_outXXXXXX";
    const int rfd = mkstemps(rows, 5);
    assert_true(rfd >= 0);
    assert_int_equal(write(rfd, text, strlen(text)), (ssize_t)strlen(text));
    close(rfd);
    const int fd = mkstemp(cap);
    assert_true(fd >= 0);
    fflush(stdout);
    fflush(stderr);
    const int out_saved = dup(1), err_saved = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    char *argv[] = {"rows", rows, "--backend", "rtl", "--backend", "sw", "--pe", "native", "--pe", "core", NULL};
    const int status = wm_cmd_rows(10, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(out_saved, 1);
    dup2(err_saved, 2);
    close(out_saved);
    close(err_saved);
    FILE *f = fdopen(fd, "r");
    fseek(f, 0, SEEK_SET);
    *out = calloc(1, 1 << 16);
    assert_non_null(*out);
    (*out)[fread(*out, 1, (1 << 16) - 1, f)] = '\0';
    fclose(f);
    unlink(cap);
    unlink(rows);
    return status;
}

static const char *const modes[] = {"native", "core"};

/* Both backends deadlock alike; the verdict is FAIL all the same, in both
 * PE modes, with the report under the line. */
static void test_a_deadlock_both_backends_agree_on_fails_regress(void **state)
{
    (void)state;
    for (int pe = 0; pe < 2; pe++) {
        const wm_layout_regress lr = {"tests/layouts/deadlock.layout", NULL, 0, pe ? WM_PE_CORE : WM_PE_NATIVE,
                                      100000, 0};
        wm_regress_report rep;
        assert_true(wm_layout_regress_run(&lr, &wm_fabric_rtl, &wm_fabric_sw, &rep));
        assert_false(rep.passed);
        assert_true(rep.run_failed);
        char want[300];
        snprintf(want, sizeof want,
                 "FAIL tests/layouts/deadlock.layout (%s) 2x1: both backends agree, but the run ended with a "
                 "deadlock at cycle %d",
                 modes[pe], pe ? 79 : 66);
        assert_string_equal(rep.line, want);
        expect_in(rep.detail, "  deadlock at cycle ");
        expect_in(rep.detail, pe ? "    PE (1,0) p [node]: blocked on receive at pc 0x000000cc (wm_kernel_node+0x54, "
                                   "sw/collectives/node.c:45): waits for message 2, which nobody has sent\n"
                                 : "    PE (1,0) p [node]: blocked on receive at sw/collectives/node.c:45 "
                                   "(wm_kernel_node): waits for message 2, which nobody "
                                   "has sent\n");
    }
}

/* The same layout with `expect deadlock` passes; a layout that returns
 * while expecting a deadlock does not. */
static void test_expect_deadlock_in_a_layout_passes_regress(void **state)
{
    (void)state;
    for (int pe = 0; pe < 2; pe++) {
        const wm_layout_regress lr = {"tests/layouts/deadlock-expected.layout", NULL, 0,
                                      pe ? WM_PE_CORE : WM_PE_NATIVE, 100000, 0};
        wm_regress_report rep;
        assert_true(wm_layout_regress_run(&lr, &wm_fabric_rtl, &wm_fabric_sw, &rep));
        if (!rep.passed) fail_msg("%s\n%s", rep.line, rep.detail);
        assert_string_equal(rep.detail, "");
    }
}

/* A message left unread fails regress too. */
static void test_an_unread_message_fails_regress(void **state)
{
    (void)state;
    const wm_layout_regress lr = {"tests/layouts/unread.layout", NULL, 0, WM_PE_NATIVE, 100000, 0};
    wm_regress_report rep;
    assert_true(wm_layout_regress_run(&lr, &wm_fabric_rtl, &wm_fabric_sw, &rep));
    assert_false(rep.passed);
    assert_string_equal(rep.line, "FAIL tests/layouts/unread.layout (native) 2x1: both backends agree, but the run "
                                  "ended with a message left unread at cycle 107");
    expect_in(rep.detail, "    2 wavelet(s) left unread in the RX queue of PE (0,0) b [stream], whose kernel "
                          "returned: the first, 00000040, is the header of message 1 (to (0,0), 1 data wavelet(s), "
                          "tag 0), sent by PE (1,0) a [stream] at cycle 61 from sw/traffic/stream.c:93 "
                          "(wm_kernel_stream)\n");
}

/* rows: the deadlock FAILs on both backends in both modes, the report
 * naming the core's function, offset and message; `expect deadlock`
 * PASSes it. */
static void test_rows_fail_a_deadlock_unless_expected(void **state)
{
    (void)state;
    char text[1200], cwd[1024], *out = NULL;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text,
             "layout %s/tests/layouts/deadlock.layout\nrow dead\nrow dead-on-purpose\nexpect deadlock\n"
             "row dead-stall\nexpect stall\n",
             cwd);
    assert_int_equal(rows_of(text, &out), 1);
    const char *const backends[] = {"rtl", "sw"};
    for (int b = 0; b < 2; b++) {
        char line[1200];
        snprintf(line, sizeof line, " FAIL dead [ BACKEND=%s ]\ndeadlock at cycle 66", backends[b]);
        expect_in(out, line);
        snprintf(line, sizeof line,
                 " FAIL dead [ BACKEND=%s PE=core ]\ndeadlock at cycle 79: the fabric is quiescent and every live "
                 "kernel waits for a message\n"
                 "  PE (0,0) a [leaf]: blocked on receive at pc 0x000000f0 (wm_kernel_leaf+0x78, "
                 "sw/collectives/leaf.c:31): waits for message 1, which nobody has sent\n"
                 "    it has received nothing\n"
                 "  PE (1,0) p [node]: blocked on receive at pc 0x000000cc (wm_kernel_node+0x54, "
                 "sw/collectives/node.c:45): waits for message 2, which nobody has sent\n"
                 "    the last message it received: message 1 (tag 0) at cycle 60, sent by PE (0,0) a [leaf] at "
                 "cycle 55 from pc 0x000000e4 (wm_kernel_leaf+0x6c, sw/collectives/leaf.c:28)\n"
                 "  the chain starts at PE (0,0) a [leaf], waiting since cycle 58, the first to block\n",
                 backends[b]);
        expect_in(out, line);
        snprintf(line, sizeof line, " PASS dead-on-purpose [ BACKEND=%s ]\n", backends[b]);
        expect_in(out, line);
        snprintf(line, sizeof line, " PASS dead-on-purpose [ BACKEND=%s PE=core ]\n", backends[b]);
        expect_in(out, line);
        snprintf(line, sizeof line, " FAIL dead-stall [ BACKEND=%s ]\n", backends[b]);
        expect_in(out, line);
    }
    expect_in(out, "  the row expects the run to end with a stall (`expect stall`), not with a deadlock\n");
    free(out);
}

/* rows: a message left unread FAILs the row though its expect lines hold,
 * on both backends in both modes; `expect undelivered` PASSes it; a row
 * that expects a deadlock and returns FAILs. */
static void test_rows_fail_an_unread_message_though_expects_hold(void **state)
{
    (void)state;
    char text[2400], cwd[1024], *out = NULL;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text,
             "layout %s/tests/layouts/unread.layout\nrow unread\nexpect a.sum=0 b.received=0\n"
             "row unread-on-purpose\nexpect undelivered\nrow not-dead\nexpect deadlock\n"
             "layout %s/sw/collectives/allreduce.layout\nrow returns\nexpect deadlock\n",
             cwd, cwd);
    assert_int_equal(rows_of(text, &out), 1);
    expect_in(out, " FAIL unread [ BACKEND=rtl ]\nevery kernel returned at cycle 107, but not every message was "
                   "delivered:\n");
    expect_in(out, " FAIL unread [ BACKEND=sw ]\n");
    expect_in(out, " FAIL unread [ BACKEND=rtl PE=core ]\nevery kernel returned at cycle 293");
    expect_in(out, " FAIL unread [ BACKEND=sw PE=core ]\n");
    expect_in(out, " PASS unread-on-purpose [ BACKEND=rtl ]\n");
    expect_in(out, " PASS unread-on-purpose [ BACKEND=sw PE=core ]\n");
    expect_in(out, " FAIL not-dead [ BACKEND=sw PE=core ]\n");
    expect_in(out, "  the row expects the run to end with a deadlock (`expect deadlock`), not with a message "
                   "left unread\n");
    expect_in(out, " FAIL returns [ BACKEND=rtl ]\n");
    expect_in(out, "\n  every kernel returned at cycle 225, but the row expects the run to end with a deadlock "
                   "(`expect deadlock`)\n");
    free(out);
}

/* An expect line naming an instance or an export the layout does not have
 * is refused with its line before any row runs. */
static void test_rows_refuse_unknown_names_before_running(void **state)
{
    (void)state;
    char text[1200], cwd[1024], *out = NULL;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text,
             "layout %s/sw/collectives/allreduce.layout\nrow a\nexpect c.total=45\nexpect zz.total=1\n"
             "row b\nexpect c.totl=45\n",
             cwd);
    assert_int_equal(rows_of(text, &out), 2);
    assert_null(strstr(out, "PASS"));
    assert_null(strstr(out, "FAIL"));
    expect_in(out, ".rows:4: row a: ");
    expect_in(out, "/sw/collectives/allreduce.layout has no instance zz\n");
    expect_in(out, ".rows:6: row b: instance c [allreduce] exports no totl (it exports: sum total)\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_deadlock_both_backends_agree_on_fails_regress),
        cmocka_unit_test(test_expect_deadlock_in_a_layout_passes_regress),
        cmocka_unit_test(test_an_unread_message_fails_regress),
        cmocka_unit_test(test_rows_fail_a_deadlock_unless_expected),
        cmocka_unit_test(test_rows_fail_an_unread_message_though_expects_hold),
        cmocka_unit_test(test_rows_refuse_unknown_names_before_running),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
