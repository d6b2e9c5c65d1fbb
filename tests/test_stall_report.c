/* test_stall_report.c: what a stalled run says about back-pressure, and
 * who sent the messages a report names.
 *
 * A PE that stops popping stalls everything behind it (docs/fabric.md,
 * "Why XY routing cannot deadlock here"); the report must name it, with
 * its full RX queue and what its kernel does instead. And the report shows
 * the oldest wavelet of every place where wavelets wait, decoding it as a
 * header only when it is one: the scheduler knows the framing of what a
 * native kernel pushed, and nothing else, so a data wavelet at the head
 * of a TX queue says so, and a link buffer's head is shown as it is.
 * A message left unread, and a deadlocked PE's last message, name their
 * sender, the cycle and the place of the send, told apart by the data
 * where two senders' headers are alike and said to be ambiguous where
 * the data are alike too; a deadlock names the PE that blocked first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seven leaves send their value to (0,0), where msgcost takes one message
 * and is done: the other six (12 wavelets) fill its RX queue (8) and the
 * input buffer in front of it (4), and the leaves wait for prefixes that
 * never come. */
static const char rx_full[] = "mesh 8 1\nregion all\nat r 0 0\npe r msgcost ROLE=1\n"
                              "at l1 1 0\npe l1 leaf VAL=1 SIDE=0 UPX=0 UPY=0\n"
                              "at l2 2 0\npe l2 leaf VAL=2 SIDE=0 UPX=0 UPY=0\n"
                              "at l3 3 0\npe l3 leaf VAL=3 SIDE=0 UPX=0 UPY=0\n"
                              "at l4 4 0\npe l4 leaf VAL=4 SIDE=0 UPX=0 UPY=0\n"
                              "at l5 5 0\npe l5 leaf VAL=5 SIDE=0 UPX=0 UPY=0\n"
                              "at l6 6 0\npe l6 leaf VAL=6 SIDE=0 UPX=0 UPY=0\n"
                              "at l7 7 0\npe l7 leaf VAL=7 SIDE=0 UPX=0 UPY=0\n";

/* a streams 11-wavelet messages (header, send time, 9 data) at b, which
 * is done before the first arrives: 12 wavelets leave a's TX queue (into
 * b's RX queue and the buffer before it), so its head is the send time of
 * the second message, a cycle number below 2000, which read as a header
 * would go to (0,0). */
static const char tx_data_head[] = "mesh 2 1\nregion all\nat a 1 0\nat b 0 0\n"
                                   "pe a stream COUNT=1000 LEN=10 STAMP=1 TOX=0 TOY=0 EXPECT=0\n"
                                   "pe b stream COUNT=0 EXPECT=0\n";

static char *report_of(const char *text, const char *backend, wm_pe_mode mode, uint64_t max_cycles,
                       wm_run_result *res)
{
    wm_layout *l = wm_layout_parse(text, "t.layout", NULL, 0, stderr);
    assert_non_null(l);
    wm_runner *r = wm_runner_create_mode(wm_fabric_backend(backend), l, NULL, mode);
    assert_non_null(r);
    *res = wm_runner_run(r, max_cycles);
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    assert_non_null(mem);
    if (*res == WM_RUN_DONE) wm_sched_check_delivered(wm_runner_sched(r), mem);
    else wm_sched_report(wm_runner_sched(r), *res, mem);
    fclose(mem);
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    return buf;
}

static void expect(const char *report, const char *text)
{
    if (!strstr(report, text)) fail_msg("expected \"%s\" in:\n%s", text, report ? report : "(no report)");
}

static const char *const backends[] = {"rtl", "sw"};

static void test_a_pe_that_never_pops_is_named(void **state)
{
    (void)state;
    for (int b = 0; b < 2; b++) {
        for (int m = 0; m < 2; m++) {
            wm_run_result res;
            char *rep = report_of(rx_full, backends[b], m ? WM_PE_CORE : WM_PE_NATIVE, 100000, &res);
            assert_int_equal(res, WM_RUN_STALLED);
            expect(rep, "stalled at cycle ");
            expect(rep, "RX queue of PE (0,0) r [msgcost] is full (8 wavelets) and not popped: the kernel is done");
            if (!m) expect(rep, "the kernel is done, its last pop was at cycle ");
            /* a link buffer's head, whose framing nobody recorded: shown, not decoded */
            expect(rep, "  4 wavelet(s) stuck at (0,0) input E, oldest 00000040\n");
            assert_null(strstr(rep, "as a header"));
            free(rep);
        }
    }
}

static void test_a_data_wavelet_at_the_head_of_tx_is_not_decoded(void **state)
{
    (void)state;
    for (int b = 0; b < 2; b++) {
        wm_run_result res;
        char *rep = report_of(tx_data_head, backends[b], WM_PE_NATIVE, 2000, &res);
        assert_int_equal(res, WM_RUN_MAX_CYCLES);
        expect(rep, "RX queue of PE (0,0) b [stream] is full (8 wavelets) and not popped: the kernel is done and "
                    "has never popped\n");
        const char *tx = "  8 wavelet(s) in flight at (1,0) TX queue, oldest ";
        expect(rep, tx);
        const char *at = strstr(rep, tx) + strlen(tx);
        assert_true(strtoul(at, NULL, 16) < 2000);
        assert_int_equal(strncmp(at + 8, " (a data wavelet)\n", 18), 0);
        assert_null(strstr(rep, "as a header"));
        free(rep);
    }
}

/* The same stall with the header at the head of TX: decoded, with the
 * router that will not take it. */
static void test_a_header_at_the_head_of_tx_is_decoded(void **state)
{
    (void)state;
    const char *text = "mesh 3 1\nregion 0 0 1 1\nregion 2 0 1 1\nat a 0 0\nat p 2 0\n"
                       "pe a leaf VAL=5 SIDE=0 UPX=2 UPY=0\n"
                       "pe p node ROOT=1 SIDE=0 UPX=2 UPY=0 LX=0 LY=0 CHILDREN=1\n";
    for (int b = 0; b < 2; b++) {
        wm_run_result res;
        char *rep = report_of(text, backends[b], WM_PE_NATIVE, 100000, &res);
        assert_int_equal(res, WM_RUN_STALLED);
        expect(rep, "  2 wavelet(s) stuck at (0,0) TX queue, oldest 00800040 (as a header: to (2,0), next router "
                    "(1,0), outside the message-passing region)\n");
        free(rep);
    }
}

static const char *const modes[] = {"native", "core"};

/* The report of text on both backends, which must agree, in mode m. */
static char *agreed_report(const char *text, wm_pe_mode m, wm_run_result want)
{
    wm_run_result res;
    char *rep[2];
    for (int b = 0; b < 2; b++) {
        rep[b] = report_of(text, backends[b], m, 100000, &res);
        assert_int_equal(res, want);
    }
    assert_string_equal(rep[0], rep[1]);
    free(rep[1]);
    return rep[0];
}

/* unread.layout: a sends b one message that b never reads. */
static const char unread[] = "mesh 2 1\nregion all\nat a 1 0\nat b 0 0\n"
                             "pe a stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\npe b stream COUNT=0 EXPECT=0\n";

static void test_an_unread_message_names_its_sender(void **state)
{
    (void)state;
    const char *const want[] = {
        "  2 wavelet(s) left unread in the RX queue of PE (0,0) b [stream], whose kernel returned: the first, "
        "00000040, is the header of message 1 (to (0,0), 1 data wavelet(s), tag 0), sent by PE (1,0) a [stream] at "
        "cycle 61 from sw/traffic/stream.c:93 (wm_kernel_stream)\n",
        "  2 wavelet(s) left unread in the RX queue of PE (0,0) b [stream], whose kernel returned: the first, "
        "00000040, is the header of message 1 (to (0,0), 1 data wavelet(s), tag 0), sent by PE (1,0) a [stream] at "
        "cycle 161 from pc 0x00000270 (wm_kernel_stream+0x1f8, sw/traffic/stream.c:93)\n"};
    for (int m = 0; m < 2; m++) {
        char *rep = agreed_report(unread, m ? WM_PE_CORE : WM_PE_NATIVE, WM_RUN_DONE);
        expect(rep, want[m]);
        free(rep);
    }
}

/* a (listed first, so natively its push is seen first) and c send b
 * messages with one header; c's, from nearer, arrives first, and b reads
 * one message and returns. With different data (c's SEED), the one read
 * is told by its data and the one left is a's; with the same data either
 * may be either, and the report says so. */
static const char pair[] = "mesh 3 1\nregion all\nat b 0 0\nat a 2 0\nat c 1 0\n"
                           "pe a stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\n"
                           "pe c stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0 SEED=2\n"
                           "pe b msgcost ROLE=1\n";
static const char twins[] = "mesh 3 1\nregion all\nat b 0 0\nat a 2 0\nat c 1 0\n"
                            "pe a stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\n"
                            "pe c stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\n"
                            "pe b msgcost ROLE=1\n";

static void test_the_data_tell_two_senders_of_one_header_apart(void **state)
{
    (void)state;
    const char *const head = "  2 wavelet(s) left unread in the RX queue of PE (0,0) b [msgcost], whose kernel "
                             "returned: the first, 00000040, is the header of message 2 (to (0,0), 1 data "
                             "wavelet(s), tag 0), sent by ";
    const char *const want[] = {
        "PE (2,0) a [stream] at cycle 61 from sw/traffic/stream.c:93 (wm_kernel_stream)\n",
        "PE (2,0) a [stream] at cycle 161 from pc 0x00000270 (wm_kernel_stream+0x1f8, sw/traffic/stream.c:93)\n"};
    for (int m = 0; m < 2; m++) {
        char *rep = agreed_report(pair, m ? WM_PE_CORE : WM_PE_NATIVE, WM_RUN_DONE);
        char line[600];
        snprintf(line, sizeof line, "%s%s", head, want[m]);
        expect(rep, line);
        free(rep);
    }
}

static void test_identical_messages_from_two_senders_are_ambiguous(void **state)
{
    (void)state;
    const char *const head = "  2 wavelet(s) left unread in the RX queue of PE (0,0) b [msgcost], whose kernel "
                             "returned: the first, 00000040, is the header of message 2 (to (0,0), 1 data "
                             "wavelet(s), tag 0), sent by ";
    const char *const want[] = {
        "PE (1,0) c [stream] at cycle 61 from sw/traffic/stream.c:93 (wm_kernel_stream) or by PE (2,0) a [stream] "
        "at cycle 61 from sw/traffic/stream.c:93 (wm_kernel_stream): identical messages\n",
        "PE (2,0) a [stream] at cycle 161 from pc 0x00000270 (wm_kernel_stream+0x1f8, sw/traffic/stream.c:93) or "
        "by PE (1,0) c [stream] at cycle 161 from pc 0x00000270 (wm_kernel_stream+0x1f8, "
        "sw/traffic/stream.c:93): identical messages\n"};
    for (int m = 0; m < 2; m++) {
        char *rep = agreed_report(twins, m ? WM_PE_CORE : WM_PE_NATIVE, WM_RUN_DONE);
        char line[800];
        snprintf(line, sizeof line, "%s%s", head, want[m]);
        expect(rep, line);
        free(rep);
    }
}

/* deadlock.layout with the root listed first: the leaf, the second PE,
 * blocked first (waiting for a prefix the root never sends) and the root
 * after it (for a second child nobody placed). */
static const char deadlock[] = "mesh 2 1\nregion all\nat a 0 0\nat p 1 0\n"
                               "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y RX=a.x RY=a.y\n"
                               "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n";

static void test_a_deadlock_names_last_messages_and_where_the_chain_starts(void **state)
{
    (void)state;
    const char *const want[] = {
        "deadlock at cycle 66: the fabric is quiescent and every live kernel waits for a message\n"
        "  PE (1,0) p [node]: blocked on receive at sw/collectives/node.c:45 (wm_kernel_node): waits for message 2, "
        "which nobody has sent\n"
        "    the last message it received: message 1 (tag 0) at cycle 54, sent by PE (0,0) a [leaf] at cycle 49 "
        "from sw/collectives/leaf.c:28 (wm_kernel_leaf)\n"
        "  PE (0,0) a [leaf]: blocked on receive at sw/collectives/leaf.c:31 (wm_kernel_leaf): waits for message 1, "
        "which nobody has sent\n"
        "    it has received nothing\n"
        "  the chain starts at PE (0,0) a [leaf], waiting since cycle 60, the first to block\n",
        "deadlock at cycle 79: the fabric is quiescent and every live kernel waits for a message\n"
        "  PE (1,0) p [node]: blocked on receive at pc 0x000000cc (wm_kernel_node+0x54, sw/collectives/node.c:45): "
        "waits for message 2, which nobody has sent\n"
        "    the last message it received: message 1 (tag 0) at cycle 60, sent by PE (0,0) a [leaf] at cycle 55 "
        "from pc 0x000000e4 (wm_kernel_leaf+0x6c, sw/collectives/leaf.c:28)\n"
        "  PE (0,0) a [leaf]: blocked on receive at pc 0x000000f0 (wm_kernel_leaf+0x78, sw/collectives/leaf.c:31): "
        "waits for message 1, which nobody has sent\n"
        "    it has received nothing\n"
        "  the chain starts at PE (0,0) a [leaf], waiting since cycle 58, the first to block\n"};
    for (int m = 0; m < 2; m++) {
        char *rep = agreed_report(deadlock, m ? WM_PE_CORE : WM_PE_NATIVE, WM_RUN_DEADLOCK);
        if (strcmp(rep, want[m])) fail_msg("%s: expected\n%s\nbut the report is\n%s", modes[m], want[m], rep);
        free(rep);
    }
}

/* b reads both messages of twins and faults at once, in the cycle of its
 * last pop: the wavelet it took is still the RX queue's head until the
 * cycle ends, and is not reported unread. */
static void test_a_pop_in_the_cycle_of_a_fault_is_not_left_unread(void **state)
{
    (void)state;
    const char text[] = "mesh 3 1\nregion all\nat b 0 0\nat a 2 0\nat c 1 0\n"
                        "pe a stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\n"
                        "pe c stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\n"
                        "pe b stream COUNT=0 EXPECT=1\n";
    char *rep = agreed_report(text, WM_PE_NATIVE, WM_RUN_FAULT);
    expect(rep, "  PE (0,0) b [stream]: fault: received 2 messages, expected 1\n");
    assert_null(strstr(rep, "unread"));
    free(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pe_that_never_pops_is_named),
        cmocka_unit_test(test_a_data_wavelet_at_the_head_of_tx_is_not_decoded),
        cmocka_unit_test(test_a_header_at_the_head_of_tx_is_decoded),
        cmocka_unit_test(test_an_unread_message_names_its_sender),
        cmocka_unit_test(test_the_data_tell_two_senders_of_one_header_apart),
        cmocka_unit_test(test_identical_messages_from_two_senders_are_ambiguous),
        cmocka_unit_test(test_a_deadlock_names_last_messages_and_where_the_chain_starts),
        cmocka_unit_test(test_a_pop_in_the_cycle_of_a_fault_is_not_left_unread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
