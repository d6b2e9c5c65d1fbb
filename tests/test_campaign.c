/* test_campaign.c: the campaign driver's pool of forked processes. Items
 * come back once each, in item order, with their lines, verdicts and
 * router cycles; a few processes run them all, each many items in turn;
 * a process that is killed loses only the item in hand, its lines so far kept,
 * and the next item gets a new process. */
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
    assert_string_equal(nl + 1, "half a run\nFAIL item-4: its process ended by signal 9 (Killed)\n");
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
    assert_true(f.seen >= 3);
    assert_true(f.seen < ITEMS);
    for (unsigned i = 0; i < f.seen; i++) assert_int_equal(f.order[i], i);
    assert_true(f.r[2].interrupted);
    assert_false(f.r[1].interrupted);
    release(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pool_gives_every_item_once_in_order),
        cmocka_unit_test(test_a_process_that_dies_loses_only_its_item),
        cmocka_unit_test(test_an_interrupted_item_ends_the_campaign),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
