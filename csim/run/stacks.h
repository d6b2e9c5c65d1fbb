/* stacks.h: the native mode's coroutine stacks.
 *
 * Every kernel of --pe native runs on a stack of its own of WM_STACK_BYTES
 * (64 KiB; docs/pe-memory.md). All the stacks of a run lie in one mapping,
 * each with an unmapped guard region below it, so an overflow faults
 * instead of writing into the next kernel's stack; the fault is caught and
 * reported with the PE whose stack overflowed, and the process exits 1.
 *
 * The guard regions are installed with MADV_GUARD_INSTALL where the kernel
 * has it (Linux 6.13): the mapping then stays one entry of the process's
 * memory map, however many kernels there are. Elsewhere they are made with
 * mprotect, which takes two entries per kernel, so a run needs
 * vm.max_map_count above twice its kernels (16 383 kernels at the default
 * 65 530); beyond that the message says so.
 *
 * The guards, and the top page of every stack (where a kernel's frames
 * lie), are asked for in batches of 1024 ranges with process_madvise where
 * the kernel takes it on the caller (Linux 6.13): a system call a batch
 * instead of one a kernel, and no page fault a kernel when it first runs. */
#ifndef WM_STACKS_H
#define WM_STACKS_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>

enum { WM_STACK_BYTES = 64 * 1024 };

typedef struct wm_stacks wm_stacks;

/* What a fault in stack i is reported as, e.g. "PE (2,0) root [node]". */
typedef void (*wm_stacks_describe)(const void *ctx, size_t i, char *buf, size_t size);

/* Whether stack i will be run on (a rank of a partitioned run runs only
 * its own PEs' kernels): only those get a guard. */
typedef bool (*wm_stacks_used)(const void *ctx, size_t i);

/* n stacks, those that used (NULL: every one) says are run on guarded;
 * NULL with the reason in err when they cannot be made. */
WM_MUST_USE
wm_stacks *wm_stacks_create(size_t n, wm_stacks_used used, wm_stacks_describe describe, const void *ctx, char *err,
                            size_t err_size);
void wm_stacks_destroy(wm_stacks *st);
/* The lowest address of stack i; its WM_STACK_BYTES lie above it. */
char *wm_stacks_bottom(const wm_stacks *st, size_t i);
/* The bytes of all the stacks that are resident now (mincore(2): the pages
 * the kernels touched), 0 where it cannot be told. */
size_t wm_stacks_resident(const wm_stacks *st);

#endif
