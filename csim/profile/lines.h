/* lines.h: on the cores, each kernel's cycles by source line.
 *
 * The profile holds every kernel's cycles by PC (profile.h,
 * wm_prof_kernel): each cycle of its PEs from start to end, given to the
 * instruction the function table gives it to (collect.h: the one that
 * retires next, so a stalled RX load's or TX store's cycles are its own,
 * and the start-up's are crt0's and wm_rv32_main's). Each distinct PC is
 * placed at its source line once, all of a kernel's PCs in one run of
 * addr2line (waves/fw_lines.h): the outermost frame of its inlining chain,
 * so an inlined sw/mp.h call counts at the kernel's line that makes it. A
 * row is a line in a function; a PC with no line (crt0's assembly, a PC
 * off the code) counts as "(no line)" in its function, so a kernel's rows
 * add up to its PEs' cycles, exactly.
 *
 * Text, a table a kernel:
 *
 *   lines of kernel leaf (4 PEs): 1182 cycles
 *     line                        cycles   share   stalled  function
 *     sw/collectives/leaf.c:31       770   65.1%       734  wm_kernel_leaf
 *     ...
 *     13 more lines                  208   17.6%         0
 *     total                         1182  100.0%       734
 *
 * CSV: kernel,file,line,function,exec,stall_tx,stall_rx,startup,total, a
 * row per line of every kernel, file and line empty for no line. */
#ifndef WM_PROFILE_LINES_H
#define WM_PROFILE_LINES_H

#include "profile/profile.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    char *where;   /* "sw/collectives/leaf.c:31"; NULL: no line */
    uint32_t func; /* index into wm_profile.funcs */
    uint64_t cycles[WM_PROF_NKINDS];
    uint64_t total;
} wm_prof_line;

typedef struct {
    const wm_prof_kernel *kernel; /* the profile's */
    wm_prof_line *lines;          /* most cycles first; ties by file, line, function */
    size_t nlines;
} wm_prof_kernel_lines;

typedef struct {
    wm_prof_kernel_lines *kernels; /* in the profile's order */
    size_t nkernels;
} wm_prof_lines;

/* The lines of every kernel of p, a profile on the cores; false with the
 * reason in err (not on the cores, no ELF or not the image's, addr2line
 * missing or failing), naming the kernel. */
WM_MUST_USE bool wm_profile_lines(const wm_profile *p, wm_prof_lines *out, char *err, size_t err_size);
void wm_prof_lines_free(wm_prof_lines *l);

/* A table a kernel: its top lines (every line when top is 0), one row for
 * the rest, and the total. */
void wm_profile_print_lines(const wm_profile *p, const wm_prof_lines *l, size_t top, FILE *out);
/* Every line of every kernel as CSV; false with the reason in err when
 * writing fails. */
WM_MUST_USE bool wm_profile_write_lines_csv(const wm_profile *p, const wm_prof_lines *l, FILE *out, char *err,
                                            size_t err_size);

#endif
