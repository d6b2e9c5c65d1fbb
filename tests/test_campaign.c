/* test_campaign.c: the campaign driver's pool of forked processes. Items
 * come back once each, in item order, with their lines, verdicts and
 * router cycles; a few processes run them all, each many items in turn;
 * a process that is killed loses only the item in hand, its lines so far kept,
 * and the next item gets a new process; a campaign stopped half-way still
 * gives every item once, those it did not begin as not run. And the
 * ledger's lists of numbers (ledger.h) and its JUnit file, out and back,
 * a case that contradicts its own lines refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "regress/campaign.h"
#include "regress/junit.h"
#include "regress/ledger.h"

#define ITEMS 12
#define BIG_ITEM 7
#define BIG_BYTES 200000 /* larger than a socket's buffer: read as it comes */

typedef struct {
    long crash_item; /* the item whose process aborts; -1: none */
    long stop_item;  /* the item that ends interrupted; -1: none */
    unsigned seen;
    uint64_t order[ITEMS];
    wm_campaign_result r[ITEMS];
    char *text[ITEMS];
} fake;

/* An item's run, in a worker process: its pid in its lines, odd items
 * fail, one item writes BIG_BYTES, one may be killed half-way. */
static bool fake_run(void *ctx, uint64_t item, FILE *out, bool *interrupted, uint64_t *router_cycles)
{
    const fake *f = ctx;
    fprintf(out, "item %llu in process %ld\n", (unsigned long long)item, (long)getpid());
    if ((long)item == f->crash_item) {
        fputs("half a run\n", out);
        fflush(out);
        kill(getpid(), SIGKILL); /* as the kernel's out-of-memory killer does */
    }
    if (item == BIG_ITEM) {
        for (unsigned i = 0; i < BIG_BYTES / 50; i++) fprintf(out, "%049u\n", i);
    }
    *router_cycles = 1000 * item + 7;
    *interrupted = (long)item == f->stop_item;
    /* the items after the stop take a while: the stop is read before the
     * other process could run the rest */
    if (f->stop_item >= 0 && (long)item > f->stop_item) usleep(50000);
    return item % 2 == 0;
}

static void fake_name(void *ctx, uint64_t item, char *buf, size_t size)
{
    (void)ctx;
    snprintf(buf, size, "item-%llu", (unsigned long long)item);
}

static void fake_done(void *ctx, uint64_t item, const wm_campaign_result *r)
{
    fake *f = ctx;
    assert_true(f->seen < ITEMS);
    f->order[f->seen++] = item;
    f->r[item] = *r;
    f->text[item] = strdup(r->text);
}

static bool run_fake(fake *f, unsigned jobs)
{
    const wm_campaign c = {ITEMS, fake_run, fake_name, fake_done, f, jobs, NULL, 0};
    bool reporter = false;
    const bool whole = wm_campaign_run(&c, &reporter);
    assert_true(reporter);
    return whole;
}

static long pid_of(const char *text)
{
    unsigned long long item;
    long pid = 0;
    assert_int_equal(sscanf(text, "item %llu in process %ld", &item, &pid), 2);
    return pid;
}

/* The distinct processes that ran the items' lines. */
static unsigned processes(const fake *f)
{
    long pids[ITEMS];
    unsigned n = 0;
    for (unsigned i = 0; i < f->seen; i++) {
        const long pid = pid_of(f->text[i]);
        bool known = false;
        for (unsigned k = 0; k < n; k++) known |= pids[k] == pid;
        if (!known) pids[n++] = pid;
        assert_true(pid != (long)getpid());
    }
    return n;
}

static void release(fake *f)
{
    for (unsigned i = 0; i < ITEMS; i++) free(f->text[i]);
}

static void test_a_pool_gives_every_item_once_in_order(void **state)
{
    (void)state;
    fake f = {.crash_item = -1, .stop_item = -1};
    assert_true(run_fake(&f, 3));
    assert_int_equal(f.seen, ITEMS);
    for (unsigned i = 0; i < ITEMS; i++) {
        assert_int_equal(f.order[i], i);
        assert_int_equal(f.r[i].passed, i % 2 == 0);
        assert_false(f.r[i].lost);
        assert_false(f.r[i].interrupted);
        assert_int_equal(f.r[i].router_cycles, 1000 * i + 7);
        char head[64];
        snprintf(head, sizeof head, "item %u in process ", i);
        assert_memory_equal(f.text[i], head, strlen(head));
    }
    /* the big item's lines whole, across many reads */
    const char *big = strchr(f.text[BIG_ITEM], '\n') + 1;
    assert_int_equal(strlen(big), BIG_BYTES / 50 * 50);
    char last[51];
    snprintf(last, sizeof last, "%049u\n", BIG_BYTES / 50 - 1);
    assert_memory_equal(big + BIG_BYTES - 50, last, 50);
    /* three processes ran the twelve items: none was forked per item */
    assert_int_equal(processes(&f), 3);
    release(&f);
}

static void test_a_process_that_dies_loses_only_its_item(void **state)
{
    (void)state;
    fake f = {.crash_item = 4, .stop_item = -1};
    assert_true(run_fake(&f, 2));
    assert_int_equal(f.seen, ITEMS);
    for (unsigned i = 0; i < ITEMS; i++) {
        assert_int_equal(f.order[i], i);
        assert_int_equal(f.r[i].lost, i == 4);
        assert_int_equal(f.r[i].passed, i % 2 == 0 && i != 4);
    }
    /* its lines so far, then why it is lost */
    const char *nl = strchr(f.text[4], '\n');
    assert_string_equal(nl + 1, "half a run\nFAIL item-4: lost with its process, which ended by signal 9 (Killed)\n");
    assert_false(f.r[4].interrupted);
    /* the two processes, and the one that took the dead one's place */
    assert_int_equal(processes(&f), 3);
    release(&f);
}

static void test_an_interrupted_item_ends_the_campaign(void **state)
{
    (void)state;
    fake f = {.crash_item = -1, .stop_item = 2};
    assert_false(run_fake(&f, 2));
    /* every item once, in order: those begun with their result, the
     * others not run, with no lines */
    assert_int_equal(f.seen, ITEMS);
    unsigned not_run = 0;
    for (unsigned i = 0; i < ITEMS; i++) {
        assert_int_equal(f.order[i], i);
        if (f.r[i].not_run) {
            assert_string_equal(f.text[i], "");
            assert_false(f.r[i].passed);
            assert_false(f.r[i].lost);
            not_run++;
        } else {
            char head[64];
            snprintf(head, sizeof head, "item %u in process ", i);
            assert_memory_equal(f.text[i], head, strlen(head));
        }
    }
    assert_true(f.r[2].interrupted);
    assert_false(f.r[2].not_run);
    assert_false(f.r[1].interrupted);
    /* two processes: items 0..3, or 4 at most, begun */
    assert_true(not_run >= ITEMS - 5);
    for (unsigned i = 5; i < ITEMS; i++) assert_true(f.r[i].not_run);
    release(&f);
}

static uint64_t shard_index(const void *ctx, uint64_t item)
{
    const uint64_t *shard = ctx; /* {first, N} */
    return shard[0] + item * shard[1];
}

static uint64_t plain_index(const void *ctx, uint64_t item)
{
    (void)ctx;
    return item;
}

static void test_a_ledger_lists_its_items_as_ranges(void **state)
{
    (void)state;
    wm_ledger l;
    assert_true(wm_ledger_init(&l, 20));
    const char *states = "PPLPNNNNPFNPNPNPPPNN"; /* P passed, F failed, L lost, N not run */
    for (unsigned i = 0; i < 20; i++)
        l.state[i] = states[i] == 'P'   ? WM_LEDGER_PASSED
                     : states[i] == 'F' ? WM_LEDGER_FAILED
                     : states[i] == 'L' ? WM_LEDGER_LOST
                                        : WM_LEDGER_NOT_RUN;
    assert_int_equal(wm_ledger_count(&l, WM_LEDGER_NOT_RUN), 9);
    assert_int_equal(wm_ledger_count(&l, WM_LEDGER_LOST), 1);
    char *t = wm_ledger_list(&l, 1u << WM_LEDGER_NOT_RUN, plain_index, NULL);
    assert_string_equal(t, "4-7,10-14:2,18-19");
    free(t);
    t = wm_ledger_list(&l, 1u << WM_LEDGER_NOT_RUN | 1u << WM_LEDGER_LOST, plain_index, NULL);
    assert_string_equal(t, "2,4-7,10-14:2,18-19");
    free(t);
    t = wm_ledger_list(&l, 1u << WM_LEDGER_FAILED, plain_index, NULL);
    assert_string_equal(t, "9");
    free(t);
    /* a shard's items, 7 apart from 3 */
    const uint64_t shard[2] = {3, 7};
    t = wm_ledger_list(&l, 1u << WM_LEDGER_NOT_RUN, shard_index, shard);
    assert_string_equal(t, "31-52:7,73-101:14,129,136");
    /* and back: the same numbers */
    wm_index_list back;
    char err[200];
    assert_true(wm_index_list_parse(t, 1000, &back, err, sizeof err));
    assert_int_equal(back.count, 9);
    uint64_t k = 0;
    for (uint64_t i = 0; i < 20; i++)
        if (l.state[i] == WM_LEDGER_NOT_RUN) assert_int_equal(wm_index_list_at(&back, k++), shard_index(shard, i));
    wm_index_list_free(&back);
    free(t);
    wm_ledger_free(&l);
    l.count = 0;
    assert_true(wm_ledger_init(&l, 0));
    t = wm_ledger_list(&l, 1u << WM_LEDGER_NOT_RUN, plain_index, NULL);
    assert_string_equal(t, "");
    free(t);
    wm_ledger_free(&l);
}

static void test_an_index_list_is_refused_with_its_part(void **state)
{
    (void)state;
    wm_index_list l;
    char err[300];
    assert_true(wm_index_list_parse("0", 10, &l, err, sizeof err));
    assert_int_equal(l.count, 1);
    wm_index_list_free(&l);
    assert_true(wm_index_list_parse("1,3-5,8-10:2", 10, &l, err, sizeof err));
    assert_int_equal(l.count, 6);
    const uint64_t want[] = {1, 3, 4, 5, 8, 10};
    for (uint64_t i = 0; i < 6; i++) assert_int_equal(wm_index_list_at(&l, i), want[i]);
    wm_index_list_free(&l);
    static const struct {
        const char *text, *err;
    } bad[] = {
        {"", "'' (at character 1) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"3,", "'' (at character 3) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"5-3", "'5-3' (at character 1) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"1,11", "'11' (at character 3) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"2-8:0", "'2-8:0' (at character 1) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"1,x", "'x' (at character 3) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"-1", "'-1' (at character 1) is not N, A-B or A-B:S with numbers 0..10, A <= B, S >= 1"},
        {"4,2", "'2' (at character 3) is not above the number before it: the list ascends, each number once"},
        {"1-5,5", "'5' (at character 5) is not above the number before it: the list ascends, each number once"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(wm_index_list_parse(bad[i].text, 10, &l, err, sizeof err));
        assert_string_equal(err, bad[i].err);
    }
}

/* The four states out to JUnit and back; a case whose lines contradict its
 * elements (a summary edited by hand) is refused, the file and case named. */
static void test_a_junit_file_keeps_the_ledger_and_refuses_contradictions(void **state)
{
    (void)state;
    char path[] = "/tmp/test_campaign_junit_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    wm_junit j = {0};
    wm_junit_property(&j, "kind", "random");
    wm_junit_add(&j, "random", "random-1-0", "PASS random-1-0 | cmd\n", NULL, 0.5, WM_LEDGER_PASSED);
    wm_junit_add(&j, "random", "random-1-1", "FAIL random-1-1: diverged\n", NULL, 0.5, WM_LEDGER_FAILED);
    wm_junit_add(&j, "random", "random-1-2", "FAIL random-1-2: lost with rank 2, which died\n", NULL, 0.5,
                 WM_LEDGER_LOST);
    wm_junit_add(&j, "random", "random-1-3", "", NULL, 0, WM_LEDGER_NOT_RUN);
    char err[600];
    assert_true(wm_junit_write(&j, path, err, sizeof err));
    wm_junit back;
    assert_true(wm_junit_read(path, &back, err, sizeof err));
    assert_int_equal(back.n, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(back.cases[i].state, j.cases[i].state);
        assert_string_equal(back.cases[i].text, j.cases[i].text);
    }
    wm_junit_free(&back);
    /* a passing case with a FAIL line, a failing one with no FAIL line */
    static const struct {
        const char *text;
        wm_ledger_state state;
        const char *says;
    } bad[] = {
        {"FAIL random-1-4: edited\n", WM_LEDGER_PASSED, "its elements say passed, its lines failed"},
        {"PASS random-1-4 | cmd\n", WM_LEDGER_FAILED, "its elements say failed, its lines passed"},
        {"PASS random-1-4 | cmd\n", WM_LEDGER_NOT_RUN, "its elements say not run, its lines passed"},
        {"", WM_LEDGER_PASSED, "its elements say passed, its lines not run"},
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        wm_junit one = {0};
        wm_junit_add(&one, "random", "random-1-4", bad[b].text, NULL, 0, bad[b].state);
        assert_true(wm_junit_write(&one, path, err, sizeof err));
        wm_junit_free(&one);
        assert_false(wm_junit_read(path, &back, err, sizeof err));
        char want[300];
        snprintf(want, sizeof want, "%s: testcase random-1-4 is inconsistent: %s", path, bad[b].says);
        assert_string_equal(err, want);
    }
    wm_junit_free(&j);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pool_gives_every_item_once_in_order),
        cmocka_unit_test(test_a_process_that_dies_loses_only_its_item),
        cmocka_unit_test(test_an_interrupted_item_ends_the_campaign),
        cmocka_unit_test(test_a_ledger_lists_its_items_as_ranges),
        cmocka_unit_test(test_an_index_list_is_refused_with_its_part),
        cmocka_unit_test(test_a_junit_file_keeps_the_ledger_and_refuses_contradictions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
