/* test_page_store.c: the pages of many cores' RAMs (core/page_store.h).
 * A RAM reads zero until written and holds no page of its own; pages of
 * equal content are held once after wm_page_store_share, whichever RAMs
 * hold them; a core's first store into a shared page copies it for that
 * core alone, and one into a page only it reads takes the page over; the
 * store's counts say so page by page. The ISS reaches the pages through
 * its RAM (core/iss.h) on its stores as on its fetches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/iss.h"
#include "core/page_store.h"
#include "core/rv32_asm.h"

#include <stdlib.h>
#include <string.h>

enum { MEM = WM_TILE_MEM_BYTES, PAGE = WM_ISS_PAGE_BYTES };

static void expect_use(const wm_page_store *ps, size_t own, size_t shared, size_t readers)
{
    wm_page_store_use u;
    wm_page_store_usage(ps, &u);
    if (u.own != own || u.shared != shared || u.readers != readers)
        fail_msg("own %zu, shared %zu, readers %zu; expected %zu, %zu, %zu", u.own, u.shared, u.readers, own, shared,
                 readers);
}

static size_t free_pages(const wm_page_store *ps)
{
    wm_page_store_use u;
    wm_page_store_usage(ps, &u);
    return u.free;
}

/* n words of an image: word i is seed * 1000 + i. */
static void image(uint32_t *w, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) w[i] = seed * 1000u + (uint32_t)i;
}

static void test_a_ram_reads_zero_and_holds_no_page(void **state)
{
    (void)state;
    wm_page_store *ps = wm_page_store_create();
    wm_iss_ram ram;
    wm_page_store_map(ps, &ram, MEM);
    assert_int_equal(ram.bytes, MEM);
    static uint8_t got[MEM], zero[MEM];
    memset(got, 0xa5, sizeof got);
    wm_page_store_read(&ram, 0, got, MEM);
    assert_memory_equal(got, zero, MEM);
    for (unsigned p = 0; p < WM_ISS_PAGES; p++) {
        assert_ptr_equal(ram.rd[p], ram.rd[0]); /* the one page of zeros */
        assert_null(ram.wr[p]);
    }
    expect_use(ps, 0, 0, 0);
    wm_page_store_destroy(ps);
}

/* Two PEs of one kernel: the image's pages are held once, each PE block
 * (unlike) in a page of its own; bytes read back as written. */
static void test_equal_pages_are_held_once(void **state)
{
    (void)state;
    wm_page_store *ps = wm_page_store_create();
    wm_iss_ram a, b;
    wm_page_store_map(ps, &a, MEM);
    wm_page_store_map(ps, &b, MEM);
    static uint32_t code[1500], block_a[128], block_b[128]; /* 6000 bytes: two pages */
    image(code, 1500, 1);
    image(block_a, 128, 2);
    image(block_b, 128, 3);
    wm_page_store_write(ps, &a, 0, code, sizeof code);
    wm_page_store_write(ps, &a, 0x5e00, block_a, sizeof block_a);
    wm_page_store_write(ps, &b, 0, code, sizeof code);
    wm_page_store_write(ps, &b, 0x5e00, block_b, sizeof block_b);
    expect_use(ps, 6, 0, 0);
    wm_page_store_share(ps, &a);
    expect_use(ps, 3, 3, 3);
    wm_page_store_share(ps, &b);
    /* pages 0 and 1 of both, read from one copy; each block page its own */
    expect_use(ps, 0, 4, 6);
    assert_ptr_equal(a.rd[0], b.rd[0]);
    assert_ptr_equal(a.rd[1], b.rd[1]);
    assert_ptr_not_equal(a.rd[5], b.rd[5]);
    assert_true(free_pages(ps) == 2); /* b's copies of the image, back on the free list */
    static uint32_t got[1500];
    wm_page_store_read(&b, 0, got, sizeof got);
    assert_memory_equal(got, code, sizeof code);
    wm_page_store_read(&b, 0x5e00, got, sizeof block_b);
    assert_memory_equal(got, block_b, sizeof block_b);
    wm_page_store_destroy(ps);
}

/* A page written with zeros reads the page of zeros once shared. */
static void test_a_page_of_zeros_is_no_page(void **state)
{
    (void)state;
    wm_page_store *ps = wm_page_store_create();
    wm_iss_ram a;
    wm_page_store_map(ps, &a, MEM);
    static uint8_t zeros[2 * PAGE];
    wm_page_store_write(ps, &a, 0x6000, zeros, sizeof zeros);
    expect_use(ps, 2, 0, 0);
    wm_page_store_share(ps, &a);
    expect_use(ps, 0, 0, 0);
    assert_ptr_equal(a.rd[6], a.rd[0]);
    assert_ptr_equal(a.rd[7], a.rd[0]);
    assert_int_equal(free_pages(ps), 2);
    wm_page_store_destroy(ps);
}

/* The ISS's stores: into a page shared with another RAM, a copy for this
 * core alone (the other reads on as loaded); into a page it alone reads,
 * the page itself; into a page of zeros, a page of its own. */
static void test_a_cores_first_store_makes_the_page_its_own(void **state)
{
    (void)state;
    wm_page_store *ps = wm_page_store_create();
    wm_iss core;
    wm_iss_ram other;
    wm_page_store_map(ps, &core.ram, MEM);
    wm_iss_reset(&core);
    wm_page_store_map(ps, &other, MEM);
    const uint32_t prog[] = {
        rv_lui(1, 0x5),         /* x1 = 0x5000 */
        rv_addi(2, 0, 42),      /* x2 = 42 */
        rv_sw(2, 1, 0x100),     /* page 5, read by this core alone: taken over */
        rv_sw(2, 0, 0x200),     /* page 0, shared with the other RAM: copied */
        rv_lui(4, 0x6),         /* x4 = 0x6000 */
        rv_sw(2, 4, 0),         /* page 6, zeros: a page of its own */
        rv_sw(2, 1, 0x104),     /* page 5 again: already its own */
        rv_lui(3, 0x80000),
        rv_sw(0, 3, 0x20),      /* EXIT */
    };
    const uint32_t block[2] = {7, 8};
    wm_page_store_write(ps, &core.ram, 0, prog, sizeof prog);
    wm_page_store_write(ps, &core.ram, 0x5e00, block, sizeof block);
    wm_page_store_write(ps, &other, 0, prog, sizeof prog);
    wm_page_store_share(ps, &core.ram);
    wm_page_store_share(ps, &other);
    expect_use(ps, 0, 2, 3);
    const uint8_t *page5 = core.ram.rd[5], *page0 = core.ram.rd[0];
    wm_core_pe_in in;
    memset(&in, 0, sizeof in);
    for (unsigned t = 0; t < 40 && !wm_iss_halted(&core); t++) {
        wm_core_cycle out;
        wm_iss_step(&core, &in, &out);
    }
    assert_int_equal(wm_iss_halt(&core).state, WM_CORE_EXITED);
    /* pages 0, 5 and 6 are the core's; the other RAM still reads page 0 */
    expect_use(ps, 3, 1, 1);
    assert_ptr_equal(core.ram.wr[5], page5);       /* taken over, not copied */
    assert_ptr_not_equal(core.ram.wr[0], page0);   /* copied */
    assert_ptr_equal(other.rd[0], page0);
    assert_non_null(core.ram.wr[6]);
    uint32_t w[2];
    wm_page_store_read(&core.ram, 0x200, w, 4);
    assert_int_equal(w[0], 42);
    wm_page_store_read(&other, 0x200, w, 4);
    assert_int_equal(w[0], 0);
    wm_page_store_read(&core.ram, 0x5100, w, 8);
    assert_int_equal(w[0], 42);
    assert_int_equal(w[1], 42);
    wm_page_store_read(&core.ram, 0x5e00, w, 8);
    assert_memory_equal(w, block, sizeof block);
    wm_page_store_read(&core.ram, 0x6000, w, 4);
    assert_int_equal(w[0], 42);
    wm_page_store_read(&core.ram, 0, w, 4);
    assert_int_equal(w[0], prog[0]);
    wm_page_store_destroy(ps);
}

/* Unmapping gives every page back: own pages to the free list, shared ones
 * when their last reader goes; the RAM reads zero again. */
static void test_unmap_gives_every_page_back(void **state)
{
    (void)state;
    wm_page_store *ps = wm_page_store_create();
    enum { N = 40 };
    wm_iss_ram r[N];
    static uint32_t code[2048], mine[16];
    image(code, 2048, 5);
    for (unsigned i = 0; i < N; i++) {
        wm_page_store_map(ps, &r[i], MEM);
        wm_page_store_write(ps, &r[i], 0, code, sizeof code);
        image(mine, 16, 100 + i);
        wm_page_store_write(ps, &r[i], 0x5e00, mine, sizeof mine);
        wm_page_store_share(ps, &r[i]);
    }
    /* two image pages for all, a block page each: the index grew past its first size */
    expect_use(ps, 0, 2 + N, 3 * N);
    const size_t made = free_pages(ps) + 2 + N;
    for (unsigned i = 0; i < N; i++) {
        wm_page_store_read(&r[i], 0x5e00, mine, sizeof mine);
        assert_int_equal(mine[3], (100 + i) * 1000u + 3);
        wm_page_store_unmap(ps, &r[i]);
    }
    expect_use(ps, 0, 0, 0);
    assert_int_equal(free_pages(ps), made);
    static uint8_t got[MEM], zero[MEM];
    wm_page_store_read(&r[0], 0, got, MEM);
    assert_memory_equal(got, zero, MEM);
    wm_page_store_destroy(ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_ram_reads_zero_and_holds_no_page),
        cmocka_unit_test(test_equal_pages_are_held_once),
        cmocka_unit_test(test_a_page_of_zeros_is_no_page),
        cmocka_unit_test(test_a_cores_first_store_makes_the_page_its_own),
        cmocka_unit_test(test_unmap_gives_every_page_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
