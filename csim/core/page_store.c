/* page_store.c: the pages of many cores' RAMs, each held once; see
 * page_store.h.
 *
 * Shared pages are found by content in an open-addressing table (linear
 * probing, deletion by shifting back), keyed by a hash of the page. A
 * shared page is found from a RAM's pointer to it by hashing the bytes it
 * holds, which are the bytes it was entered with: nothing writes a shared
 * page. Own pages are carved from chunks, and a page given back goes on a
 * free list threaded through the pages themselves. */
#include "core/page_store.h"

#include "core/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    PAGE = WM_ISS_PAGE_BYTES,
    CHUNK_PAGES = 64, /* 256 KiB a chunk: a handful of chunks for a thousand cores */
    MIN_SLOTS = 64
};

/* The one page of zeros: never written, and resident, if at all, as the
 * single page any core reads of it. */
static const uint8_t zero_page[PAGE] __attribute__((aligned(PAGE)));

typedef struct {
    const uint8_t *page; /* NULL: an empty slot */
    uint64_t hash;
    size_t readers;      /* RAM pages reading it; at least 1 */
} shared_slot;

typedef struct free_page {
    struct free_page *next;
} free_page;

struct wm_page_store {
    pthread_mutex_t lock;
    void **chunks;       /* as allocated, for destroy */
    size_t nchunks, cap_chunks;
    uint8_t *fresh;      /* the newest chunk's pages never handed out */
    size_t fresh_left;
    free_page *free_list;
    size_t nfree, own, readers;
    shared_slot *slots;  /* a power of two of them, at most half full */
    size_t nslots, nshared;
};

/* 64-bit words in four lanes (a multiply chain per lane), folded. */
static uint64_t page_hash(const uint8_t *p)
{
    const uint64_t k = 0x9e3779b97f4a7c15u;
    uint64_t h[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < PAGE; i += 32) {
        for (unsigned l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * l, sizeof w);
            h[l] = (h[l] ^ w) * k;
            h[l] ^= h[l] >> 31;
        }
    }
    uint64_t r = h[0];
    for (unsigned l = 1; l < 4; l++) r = (r ^ h[l]) * k;
    return r ^ (r >> 29);
}

static bool all_zero(const uint8_t *p)
{
    for (size_t i = 0; i < PAGE; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        if (w) return false;
    }
    return true;
}

wm_page_store *wm_page_store_create(void)
{
    wm_page_store *ps = wm_xcalloc(1, sizeof *ps);
    pthread_mutex_init(&ps->lock, NULL);
    ps->nslots = MIN_SLOTS;
    ps->slots = wm_xcalloc(ps->nslots, sizeof *ps->slots);
    return ps;
}

void wm_page_store_destroy(wm_page_store *ps)
{
    if (!ps) return;
    for (size_t i = 0; i < ps->nchunks; i++) free(ps->chunks[i]);
    free(ps->chunks);
    free(ps->slots);
    pthread_mutex_destroy(&ps->lock);
    free(ps);
}

/* A page of ps's, its content undefined. A chunk is allocated whole but
 * resident only page by page, as its pages are written. */
static uint8_t *page_alloc(wm_page_store *ps)
{
    if (ps->free_list) {
        free_page *f = ps->free_list;
        ps->free_list = f->next;
        ps->nfree--;
        return (uint8_t *)f;
    }
    if (!ps->fresh_left) {
        if (ps->nchunks == ps->cap_chunks) {
            ps->cap_chunks = ps->cap_chunks ? 2 * ps->cap_chunks : 16;
            ps->chunks = wm_xrealloc(ps->chunks, ps->cap_chunks * sizeof *ps->chunks);
        }
        /* One page more, to start the pages on a page boundary. */
        uint8_t *chunk = wm_xmalloc((CHUNK_PAGES + 1) * (size_t)PAGE);
        ps->chunks[ps->nchunks++] = chunk;
        ps->fresh = (uint8_t *)(((uintptr_t)chunk + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
        ps->fresh_left = CHUNK_PAGES;
    }
    uint8_t *p = ps->fresh;
    ps->fresh += PAGE;
    ps->fresh_left--;
    return p;
}

static void page_free(wm_page_store *ps, uint8_t *p)
{
    free_page *f = (free_page *)(void *)p;
    f->next = ps->free_list;
    ps->free_list = f;
    ps->nfree++;
}

/* The slot holding page (shared), found by its content's hash. */
static shared_slot *slot_of(wm_page_store *ps, const uint8_t *page)
{
    const size_t mask = ps->nslots - 1;
    for (size_t i = (size_t)page_hash(page) & mask;; i = (i + 1) & mask) {
        if (ps->slots[i].page == page) return &ps->slots[i];
        if (!ps->slots[i].page) return NULL;
    }
}

/* Empty slot s, shifting back the entries after it that probed past it. */
static void slot_remove(wm_page_store *ps, shared_slot *s)
{
    const size_t mask = ps->nslots - 1;
    size_t hole = (size_t)(s - ps->slots);
    for (size_t i = (hole + 1) & mask; ps->slots[i].page; i = (i + 1) & mask) {
        const size_t home = (size_t)ps->slots[i].hash & mask;
        /* The entry at i may fill the hole if its home is not in (hole, i]. */
        const bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        ps->slots[hole] = ps->slots[i];
        hole = i;
    }
    ps->slots[hole] = (shared_slot){0};
    ps->nshared--;
}

static void slots_grow(wm_page_store *ps)
{
    shared_slot *old = ps->slots;
    const size_t n = ps->nslots;
    ps->nslots = 2 * n;
    ps->slots = wm_xcalloc(ps->nslots, sizeof *ps->slots);
    const size_t mask = ps->nslots - 1;
    for (size_t k = 0; k < n; k++) {
        if (!old[k].page) continue;
        size_t i = (size_t)old[k].hash & mask;
        while (ps->slots[i].page) i = (i + 1) & mask;
        ps->slots[i] = old[k];
    }
    free(old);
}

/* One reader less of a page that is not ram's own. */
static void unread(wm_page_store *ps, const uint8_t *page)
{
    if (page == zero_page) return;
    shared_slot *s = slot_of(ps, page);
    ps->readers--;
    if (--s->readers) return;
    slot_remove(ps, s);
    page_free(ps, (uint8_t *)(uintptr_t)page);
}

/* Page p of ram becomes ram's own, holding what it read. */
static uint8_t *make_own(wm_page_store *ps, wm_iss_ram *ram, unsigned p)
{
    const uint8_t *src = ram->rd[p];
    uint8_t *dst;
    if (src == zero_page) {
        dst = page_alloc(ps);
        memset(dst, 0, PAGE);
    } else {
        shared_slot *s = slot_of(ps, src);
        ps->readers--;
        if (s->readers == 1) {
            /* its only reader: no copy */
            slot_remove(ps, s);
            dst = (uint8_t *)(uintptr_t)src;
        } else {
            s->readers--;
            dst = page_alloc(ps);
            memcpy(dst, src, PAGE);
        }
    }
    ps->own++;
    ram->rd[p] = ram->wr[p] = dst;
    return dst;
}

/* The core's first store into a page it does not own (iss.h), from
 * whichever thread steps it. */
static uint8_t *own_for_core(void *ctx, wm_iss_ram *ram, unsigned p)
{
    wm_page_store *ps = ctx;
    pthread_mutex_lock(&ps->lock);
    uint8_t *dst = make_own(ps, ram, p);
    pthread_mutex_unlock(&ps->lock);
    return dst;
}

void wm_page_store_map(wm_page_store *ps, wm_iss_ram *ram, uint32_t bytes)
{
    memset(ram, 0, sizeof *ram);
    ram->bytes = bytes & ~3u;
    for (uint32_t p = 0; p * (uint32_t)PAGE < ram->bytes; p++) ram->rd[p] = zero_page;
    ram->own = own_for_core;
    ram->own_ctx = ps;
}

void wm_page_store_unmap(wm_page_store *ps, wm_iss_ram *ram)
{
    for (uint32_t p = 0; p * (uint32_t)PAGE < ram->bytes; p++) {
        if (ram->wr[p]) {
            page_free(ps, ram->wr[p]);
            ps->own--;
        } else {
            unread(ps, ram->rd[p]);
        }
        ram->rd[p] = zero_page;
        ram->wr[p] = NULL;
    }
}

void wm_page_store_write(wm_page_store *ps, wm_iss_ram *ram, uint32_t addr, const void *bytes, size_t n)
{
    const uint8_t *from = bytes;
    while (n) {
        const unsigned p = addr / PAGE, off = addr % PAGE;
        const size_t k = n < (size_t)(PAGE - off) ? n : (size_t)(PAGE - off);
        uint8_t *dst = ram->wr[p] ? ram->wr[p] : make_own(ps, ram, p);
        memcpy(dst + off, from, k);
        from += k;
        addr += (uint32_t)k;
        n -= k;
    }
}

void wm_page_store_read(const wm_iss_ram *ram, uint32_t addr, void *bytes, size_t n)
{
    uint8_t *to = bytes;
    while (n) {
        const unsigned p = addr / PAGE, off = addr % PAGE;
        const size_t k = n < (size_t)(PAGE - off) ? n : (size_t)(PAGE - off);
        memcpy(to, ram->rd[p] + off, k);
        to += k;
        addr += (uint32_t)k;
        n -= k;
    }
}

void wm_page_store_share(wm_page_store *ps, wm_iss_ram *ram)
{
    for (uint32_t p = 0; p * (uint32_t)PAGE < ram->bytes; p++) {
        uint8_t *mine = ram->wr[p];
        if (!mine) continue;
        ram->wr[p] = NULL;
        ps->own--;
        if (all_zero(mine)) {
            ram->rd[p] = zero_page;
            page_free(ps, mine);
            continue;
        }
        const uint64_t h = page_hash(mine);
        const size_t mask = ps->nslots - 1;
        size_t i = (size_t)h & mask;
        while (ps->slots[i].page && (ps->slots[i].hash != h || memcmp(ps->slots[i].page, mine, PAGE)))
            i = (i + 1) & mask;
        ps->readers++;
        if (ps->slots[i].page) {
            ps->slots[i].readers++;
            ram->rd[p] = ps->slots[i].page;
            page_free(ps, mine);
            continue;
        }
        ps->slots[i] = (shared_slot){mine, h, 1};
        ram->rd[p] = mine;
        if (++ps->nshared * 2 > ps->nslots) slots_grow(ps);
    }
}

void wm_page_store_usage(const wm_page_store *ps, wm_page_store_use *out)
{
    out->own = ps->own;
    out->shared = ps->nshared;
    out->readers = ps->readers;
    out->free = ps->nfree;
    /* The chunks' pages never handed out are not resident: not counted. */
    out->overhead = sizeof *ps + ps->cap_chunks * sizeof *ps->chunks + ps->nslots * sizeof *ps->slots;
}
