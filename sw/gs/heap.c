/* heap.c: first-fit blocks in the PE's memory (see heap.h). */
#include "heap.h"

#include <stdbool.h>

/* A block: header {units, used} (8 bytes), then units - 1 units of data. */
enum { UNIT_WORDS = 2 };

static uint32_t *header(const wm_heap *h, uint32_t unit) { return h->mem + h->start + unit * UNIT_WORDS; }
static uint32_t units_total(const wm_heap *h) { return (h->end - h->start) / UNIT_WORDS; }

void wm_heap_format(wm_heap *h, uint32_t *mem, uint32_t start, uint32_t end, uint32_t *high)
{
    wm_heap_attach(h, mem, start, end, high);
    uint32_t *b = header(h, 0);
    b[0] = units_total(h);
    b[1] = 0;
    *high = start + UNIT_WORDS;
}

void wm_heap_attach(wm_heap *h, uint32_t *mem, uint32_t start, uint32_t end, uint32_t *high)
{
    h->mem = mem;
    h->start = start + (start & 1u);
    h->end = end;
    h->high = high;
    h->mp = 0;
}


static void zero_words(uint32_t *w, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) w[i] = 0;
}

static void copy_words(uint32_t *to, const uint32_t *from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) to[i] = from[i];
}

static uint32_t units_for(uint32_t bytes) { return 1 + (bytes + 4 * UNIT_WORDS - 1) / (4 * UNIT_WORDS); }

/* A block header that could not have been written here (size 0, or past
 * the end): the memory was overwritten. Walks stop at one rather than loop
 * for ever or leave the heap; the heap is then full as far as it can tell. */
static bool corrupt(const wm_heap *h, uint32_t u, const uint32_t *b)
{
    return b[0] == 0 || b[0] > units_total(h) - u;
}

/* Merge the free blocks that follow the block at unit u into it. */
static void merge_after(wm_heap *h, uint32_t u)
{
    uint32_t *b = header(h, u);
    const uint32_t total = units_total(h);
    while (u + b[0] < total) {
        uint32_t *next = header(h, u + b[0]);
        if (next[1] || corrupt(h, u + b[0], next)) break;
        wm_heap_charge(h, WM_GS_COST_HEAP_MERGE_BLOCK);
        b[0] += next[0];
    }
}

static void note_high(wm_heap *h, uint32_t u, uint32_t units)
{
    const uint32_t top = h->start + (u + units) * UNIT_WORDS;
    if (top > *h->high) *h->high = top;
}

void *wm_heap_take(wm_heap *h, uint32_t bytes)
{
    const uint32_t want = units_for(bytes ? bytes : 1), total = units_total(h);
    wm_heap_charge(h, WM_GS_COST_HEAP_TAKE);
    for (uint32_t u = 0; u < total;) {
        uint32_t *b = header(h, u);
        wm_heap_charge(h, WM_GS_COST_HEAP_BLOCK);
        if (corrupt(h, u, b)) return 0;
        if (!b[1]) {
            merge_after(h, u);
            if (b[0] >= want) {
                if (b[0] - want >= 2) {
                    uint32_t *rest = header(h, u + want);
                    rest[0] = b[0] - want;
                    rest[1] = 0;
                    b[0] = want;
                }
                b[1] = 1;
                note_high(h, u, b[0]);
                wm_heap_charge(h, (b[0] - 1) * WM_GS_COST_HEAP_ZERO_UNIT);
                zero_words(b + UNIT_WORDS, (b[0] - 1) * UNIT_WORDS);
                return b + UNIT_WORDS;
            }
        }
        u += b[0];
    }
    return 0;
}

void wm_heap_give(wm_heap *h, void *p)
{
    if (!p) return;
    uint32_t *b = (uint32_t *)p - UNIT_WORDS;
    wm_heap_charge(h, WM_GS_COST_HEAP_GIVE);
    b[1] = 0;
}

/* The index in at[0..n) of the block whose data starts at word offset
 * off, or n. */
static uint32_t find(const uint32_t *at, uint32_t n, uint32_t off)
{
    uint32_t i = 0;
    while (i < n && at[i] != off) i++;
    return i;
}

bool wm_heap_pack(wm_heap *h, uint32_t *at, uint32_t n)
{
    const uint32_t total = units_total(h);
    uint32_t used = 0;
    for (uint32_t u = 0; u < total;) {
        const uint32_t *b = header(h, u);
        if (corrupt(h, u, b)) return false;
        if (b[1]) {
            if (find(at, n, h->start + (u + 1) * UNIT_WORDS) == n) return false;
            used++;
        }
        u += b[0];
    }
    if (used != n) return false;
    /* In address order, each used block moves down to the end of those
     * before it: over free space or its own old place, so a forward copy
     * never overwrites a word it has still to read, and the header of the
     * next block, past the copy's end, is still there to walk on. A new
     * offset is below every old one still to be found in at. */
    uint32_t dst = 0;
    for (uint32_t u = 0; u < total;) {
        const uint32_t units = header(h, u)[0], next = u + units;
        if (header(h, u)[1]) {
            const uint32_t i = find(at, n, h->start + (u + 1) * UNIT_WORDS);
            if (u != dst) {
                wm_heap_charge(h, units * UNIT_WORDS * WM_GS_COST_COPY);
                copy_words(header(h, dst), header(h, u), units * UNIT_WORDS);
            }
            at[i] = h->start + (dst + 1) * UNIT_WORDS;
            dst += units;
        }
        u = next;
    }
    if (dst < total) {
        uint32_t *rest = header(h, dst);
        rest[0] = total - dst;
        rest[1] = 0;
    }
    return true;
}

void *wm_heap_resize(wm_heap *h, void *p, uint32_t bytes)
{
    if (!p) return wm_heap_take(h, bytes);
    wm_heap_charge(h, WM_GS_COST_HEAP_RESIZE);
    uint32_t *b = (uint32_t *)p - UNIT_WORDS;
    const uint32_t u = (uint32_t)(b - header(h, 0)) / UNIT_WORDS, want = units_for(bytes ? bytes : 1);
    if (b[0] >= want) return p;
    merge_after(h, u);
    if (b[0] >= want) {
        const uint32_t had = b[0];
        if (had - want >= 2) {
            uint32_t *rest = header(h, u + want);
            rest[0] = had - want;
            rest[1] = 0;
            b[0] = want;
        }
        note_high(h, u, b[0]);
        return p;
    }
    uint32_t *q = wm_heap_take(h, bytes);
    if (!q) return 0;
    wm_heap_charge(h, (b[0] - 1) * UNIT_WORDS * WM_GS_COST_COPY);
    copy_words(q, p, (b[0] - 1) * UNIT_WORDS);
    wm_heap_give(h, p);
    return q;
}
