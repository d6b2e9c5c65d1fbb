/* fw_lines.h: the source lines of PCs in a kernel's firmware.
 *
 * `make firmware` builds with -g, with the checkout's path mapped to ".",
 * so the ELF's line table names the sources as ./sw/..., whoever built it. addr2line reads it
 * (DWARF 5 is more than the tool parses itself); with its inlining chain,
 * the line is the outermost function's: the kernel's own line where
 * sw/mp.h's calls are inlined into it. */
#ifndef WM_FW_LINES_H
#define WM_FW_LINES_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The line addr2line: $WM_ADDR2LINE, else riscv64-unknown-elf-addr2line. */
const char *wm_fw_addr2line(void);

/* "sw/collectives/node.c:45" for pc in wm_fw_dir()/KERNEL.elf into buf;
 * false when there is no ELF, or not the image's (waves/fw_syms.h,
 * wm_fw_elf_matches_image), no tool or no line for pc. */
bool wm_fw_source_line(const char *kernel, uint32_t pc, char *buf, size_t size);
/* The lines of n PCs at once, a run of addr2line for every few thousand
 * rather than one a PC: lines[i] the line of pcs[i] ("sw/...:45",
 * malloc'd) or NULL where the ELF has none (crt0's assembly, a PC outside
 * the code). false with the reason in err, every lines[i] NULL: no ELF,
 * not the image's, the tool missing or failing. */
WM_MUST_USE bool wm_fw_source_lines(const char *kernel, const uint32_t *pcs, size_t n, char **lines, char *err,
                                    size_t err_size);

#endif
