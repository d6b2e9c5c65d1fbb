/* stacks.c: the coroutine stacks and their overflow report (see stacks.h). */
#include "run/stacks.h"

#include "waves/outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 /* Linux 6.13, not yet in every libc's headers */
#endif

/* 64 KiB of guard: a frame larger than one page could jump a one-page
 * guard and land in the stack below it. */
enum { GUARD_BYTES = 64 * 1024, MAX_LIVE = 16 };

struct wm_stacks {
    char *map;
    size_t n, slot, bytes;
    wm_stacks_describe describe;
    const void *ctx;
};

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* The ranges [slot i + offset, + len) of the used stacks from first on,
 * advised in batches of IOV_MAX: process_madvise on this process takes a
 * system call for 1024 of them where madvise takes one each. Where it is
 * refused (before Linux 6.13 it takes few advices on the caller itself),
 * each range is advised alone; the advices here may be given twice. The
 * stack whose advice failed, with errno set, or st->n. */
static size_t advise_used(const wm_stacks *st, wm_stacks_used used, const void *ctx, size_t first, size_t offset,
                          size_t len, int advice)
{
    enum { BATCH = 1024 };
    struct iovec iov[BATCH];
    size_t which[BATCH];
    const int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    size_t k = 0, bad = st->n;
    for (size_t i = first; i <= st->n && bad == st->n; i++) {
        if (i < st->n && used && !used(ctx, i)) continue;
        if (i < st->n) {
            which[k] = i;
            iov[k++] = (struct iovec){.iov_base = st->map + i * st->slot + offset, .iov_len = len};
            if (k < BATCH) continue;
        }
        if (pidfd < 0 || syscall(SYS_process_madvise, pidfd, iov, k, advice, 0) != (long)(k * len))
            for (size_t j = 0; j < k && bad == st->n; j++)
                if (madvise(iov[j].iov_base, len, advice) != 0) bad = which[j];
        k = 0;
    }
    const int e = errno;
    if (pidfd >= 0) close(pidfd);
    errno = e;
    return bad;
}

/* The stacks of the runs in progress, for the fault handler. */
static wm_stacks *live[MAX_LIVE];
static char alt_stack[64 * 1024];
static struct sigaction previous;
static int installed;

static void write_err(const char *s) { (void)!write(2, s, strlen(s)); }

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    const uintptr_t a = (uintptr_t)si->si_addr;
    for (size_t k = 0; k < MAX_LIVE; k++) {
        const wm_stacks *st = live[k];
        if (!st || a < (uintptr_t)st->map || a >= (uintptr_t)st->map + st->bytes) continue;
        const size_t i = (a - (uintptr_t)st->map) / st->slot, off = (a - (uintptr_t)st->map) % st->slot;
        if (off >= GUARD_BYTES) break; /* inside a stack: not an overflow */
        /* An overflow of stack i's bottom lands in guard i. */
        char who[160], text[400];
        st->describe(st->ctx, i, who, sizeof who);
        snprintf(text, sizeof text,
                 "wavemesh: %s: stack overflow: the kernel needs more than the %d KiB stack of a native PE "
                 "(docs/pe-memory.md); make its large arrays static or put them in wm_mp_mem\n",
                 who, WM_STACK_BYTES / 1024);
        write_err(text);
        wm_outfile_remove_all();
        _exit(1);
    }
    /* Not ours: the default action, a core dump where enabled. */
    sigaction(sig, &previous, NULL);
    raise(sig);
}

/* Installed again whenever someone else's handler has replaced it (a test
 * harness catching SIGSEGV for itself). */
static void install_handler(void)
{
    struct sigaction cur;
    if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_segv) return;
    if (!installed) {
        stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
        sigaltstack(&ss, NULL);
        installed = 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous);
}

wm_stacks *wm_stacks_create(size_t n, wm_stacks_used used, wm_stacks_describe describe, const void *ctx, char *err,
                            size_t err_size)
{
    wm_stacks *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    st->n = n;
    st->slot = GUARD_BYTES + WM_STACK_BYTES;
    st->bytes = (n ? n : 1) * st->slot;
    st->describe = describe;
    st->ctx = ctx;
    st->map = mmap(NULL, st->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (st->map == MAP_FAILED) {
        snprintf(err, err_size, "cannot map %zu KiB for the stacks of %zu kernels (%d KiB each): %s",
                 st->bytes / 1024, n, WM_STACK_BYTES / 1024, strerror(errno));
        free(st);
        return NULL;
    }
    /* Whether this kernel has guard regions; the first is installed by
     * the asking. A stack nobody runs on needs no guard: a system call
     * each, which a rank of a partitioned run would spend on every other
     * rank's PEs too. */
    const bool guard_madvise = madvise(st->map, GUARD_BYTES, MADV_GUARD_INSTALL) == 0;
    size_t bad = guard_madvise ? advise_used(st, used, ctx, 1, 0, GUARD_BYTES, MADV_GUARD_INSTALL) : n;
    for (size_t i = 0; !guard_madvise && i < n && bad == n; i++)
        if ((!used || used(ctx, i)) && mprotect(st->map + i * st->slot, GUARD_BYTES, PROT_NONE) != 0) bad = i;
    if (bad < n) {
        const int e = errno;
        if (e == ENOMEM)
            snprintf(err, err_size,
                     "cannot make the stack of kernel %zu of %zu: the process's memory map is full: this kernel "
                     "has no MADV_GUARD_INSTALL, so each stack's guard takes two of the vm.max_map_count entries "
                     "(sysctl vm.max_map_count=%zu would do)",
                     bad, n, 2 * n + 1000);
        else
            snprintf(err, err_size, "cannot make the guard of kernel %zu's stack: %s", bad, strerror(e));
        munmap(st->map, st->bytes);
        free(st);
        return NULL;
    }
    /* A kernel's frames fill the top page of its stack, and a first touch
     * there faults: one fault a kernel, about 10 us each in a virtual
     * machine, and faults of several processes wait on each other. Asked
     * for together, the pages come with no fault. Best effort: a page not
     * made here faults in as before. */
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    (void)advise_used(st, used, ctx, 0, st->slot - page, page, MADV_POPULATE_WRITE);
    install_handler();
    for (size_t k = 0; k < MAX_LIVE; k++) {
        if (!live[k]) {
            live[k] = st;
            break;
        }
    }
    return st;
}

void wm_stacks_destroy(wm_stacks *st)
{
    if (!st) return;
    for (size_t k = 0; k < MAX_LIVE; k++)
        if (live[k] == st) live[k] = NULL;
    munmap(st->map, st->bytes);
    free(st);
}

char *wm_stacks_bottom(const wm_stacks *st, size_t i) { return st->map + i * st->slot + GUARD_BYTES; }

size_t wm_stacks_resident(const wm_stacks *st)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), npages = st->bytes / page;
    unsigned char *vec = malloc(npages ? npages : 1);
    if (!vec) return 0;
    size_t resident = 0;
    if (mincore(st->map, st->bytes, vec) == 0)
        for (size_t k = 0; k < npages; k++) resident += vec[k] & 1u;
    free(vec);
    return resident * page;
}
