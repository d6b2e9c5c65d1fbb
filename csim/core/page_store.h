/* page_store.h: the pages of many cores' RAMs, each held once.
 *
 * A fabric of thousands of PE cores gives each a RAM of 64 KiB, of which
 * a kernel touches a few pages, and every PE running one kernel holds the
 * same image. A store keeps the RAMs of its cores (core/iss.h's
 * wm_iss_ram) page by page:
 *   - a page never written reads the one page of zeros, which nothing
 *     writes and which is never resident beyond the page read;
 *   - pages the host loads are the RAM's own until its core starts; then
 *     (wm_page_store_share) each is looked up by its content, and every
 *     RAM holding the same bytes reads one shared copy, kept while any
 *     reads it;
 *   - the first store of a core into a page it does not own gives it a
 *     copy of its own (a shared page read by that RAM alone is taken over,
 *     not copied).
 * Own pages come from chunks of many pages, with no allocation per page,
 * and go back to a free list when they become shared. The content of a
 * RAM is what its bytes say, whatever pages hold them: the host reads and
 * writes it with wm_page_store_read and _write, the core through rd/wr.
 *
 * The cores of one store may run on several threads: what they call (own)
 * takes the store's lock. Everything else is the host's, between steps.
 * Running out of memory ends the process (core/xalloc.h): a core's store
 * cannot fail. */
#ifndef WM_PAGE_STORE_H
#define WM_PAGE_STORE_H

#include "core/iss.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wm_page_store wm_page_store;

wm_page_store *wm_page_store_create(void);
/* Frees every page, own and shared: the RAMs of the store are gone too. */
void wm_page_store_destroy(wm_page_store *ps);

/* ram becomes a RAM of bytes (a multiple of 4, at most WM_TILE_MEM_BYTES),
 * every byte zero, its pages from ps. */
void wm_page_store_map(wm_page_store *ps, wm_iss_ram *ram, uint32_t bytes);
/* Gives back every page of ram to ps; ram then reads zero, as mapped. */
void wm_page_store_unmap(wm_page_store *ps, wm_iss_ram *ram);

/* The host writes n bytes at addr of ram (addr + n within ram->bytes): the
 * pages written become ram's own. */
void wm_page_store_write(wm_page_store *ps, wm_iss_ram *ram, uint32_t addr, const void *bytes, size_t n);
/* n bytes at addr of ram (within ram->bytes) into bytes. */
void wm_page_store_read(const wm_iss_ram *ram, uint32_t addr, void *bytes, size_t n);
/* Every page ram owns that holds zeros reads the page of zeros, and every
 * other is shared with the RAMs whose page holds the same bytes; ram's
 * copies go back to the free list. What ram reads does not change. */
void wm_page_store_share(wm_page_store *ps, wm_iss_ram *ram);

/* What a store holds, in pages of WM_ISS_PAGE_BYTES. */
typedef struct {
    size_t own;       /* pages owned by one RAM each */
    size_t shared;    /* pages read by one or more RAMs, each counted once */
    size_t readers;   /* the RAMs' pages that read a shared page: shared pages counted per reader */
    size_t free;      /* pages made and free for the next RAM that needs one (resident: they were written) */
    size_t overhead;  /* bytes beside the pages: the store, its index of shared pages, its chunks' records */
} wm_page_store_use;

void wm_page_store_usage(const wm_page_store *ps, wm_page_store_use *out);

#endif
