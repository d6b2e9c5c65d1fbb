/* heap.h: a small first-fit heap in the PE's data memory.
 *
 * The gs kernels build lists whose sizes are known only at run time (the
 * records a bisection stage hands over, the messages that arrive before
 * their receive is posted), so they need allocation; firmware has no libc,
 * so this is it. Blocks are 8 bytes aligned, each with an 8-byte header
 * (its size in 8-byte units and a used bit); a block given back is merged
 * with the free blocks after it on the next walk. The heap's blocks live
 * in the PE's memory, so what a setup run leaves allocated (the crystal
 * plan) is still there for the gs_op run. Natively, a heap given a PE
 * (mp) charges what its walks, merges and zeroing take on the core
 * (WM_GS_COST_HEAP_*, sw/cost_model.h); the host's heaps have none. */
#ifndef WM_GS_HEAP_H
#define WM_GS_HEAP_H

#include "mp.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint32_t *mem;      /* the PE's data memory */
    uint32_t start;     /* first word of the heap (even) */
    uint32_t end;       /* one past its last word */
    uint32_t *high;     /* where the highest word ever used is kept (image) */
    wm_mp *mp;          /* charged for the work natively, or NULL (format and attach clear it) */
} wm_heap;

/* Lay a heap out over mem[start, end): one free block. */
void wm_heap_format(wm_heap *h, uint32_t *mem, uint32_t start, uint32_t end, uint32_t *high);
/* Attach to a heap formatted earlier (a later run on the same memory). */
void wm_heap_attach(wm_heap *h, uint32_t *mem, uint32_t start, uint32_t end, uint32_t *high);

/* bytes of zeroed memory, or 0 (NULL) when no free block is large enough. */
void *wm_heap_take(wm_heap *h, uint32_t bytes);
/* The block at p grown or shrunk to bytes, contents kept (p may be NULL);
 * NULL when it cannot grow (p is then untouched). */
void *wm_heap_resize(wm_heap *h, void *p, uint32_t bytes);
/* Give the block at p back (p may be NULL). */
void wm_heap_give(wm_heap *h, void *p);

/* Move the blocks at word offsets at[0..n) (see wm_heap_offset) to the
 * bottom of the heap, in address order, contents kept, and write their new
 * offsets into at: what is left above them is one free block. Only when
 * they are every block in use (true); else nothing moves (false). */
bool wm_heap_pack(wm_heap *h, uint32_t *at, uint32_t n);

/* Charge the PE the heap belongs to (natively; nothing for a host's heap). */
static inline void wm_heap_charge(const wm_heap *h, unsigned cycles)
{
    if (h->mp) wm_mp_work(h->mp, cycles);
}

/* Word offset of p in the PE's memory, and back. */
static inline uint32_t wm_heap_offset(const wm_heap *h, const void *p)
{
    return (uint32_t)((const uint32_t *)p - h->mem);
}
static inline void *wm_heap_at(const wm_heap *h, uint32_t offset) { return h->mem + offset; }

#endif
