/* fw_syms.h: the functions of a kernel's firmware, read from its ELF.
 *
 * `make firmware` links build/firmware/KERNEL.elf beside the raw image the
 * loader reads (csim/run/core_image.h). Its symbol table names the code:
 * every function symbol, and every untyped global one in an executable
 * section (crt0's _start), sorted by address. A PC belongs to the last
 * symbol at or below it, so inlined code reads as its caller's, as perf
 * reads it. Read by the tool itself: no objdump needed. */
#ifndef WM_FW_SYMS_H
#define WM_FW_SYMS_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t addr;
    const char *name;
} wm_fw_sym;

typedef struct {
    wm_fw_sym *syms; /* by address, no two at one address */
    size_t n;
    char *names;     /* the names' storage */
} wm_fw_syms;

/* The symbols of the ELF at path; false with the reason in err (a missing
 * file, not a little-endian ELF32, no symbol table). */
WM_MUST_USE bool wm_fw_syms_load(const char *path, wm_fw_syms *out, char *err, size_t err_size);
/* The same for wm_fw_dir()/KERNEL.elf (csim/waves/waves_fw.h). */
WM_MUST_USE bool wm_fw_syms_load_kernel(const char *kernel, wm_fw_syms *out, char *err, size_t err_size);
void wm_fw_syms_free(wm_fw_syms *s);

/* The index of the symbol pc belongs to; -1 below the first. */
long wm_fw_syms_find(const wm_fw_syms *s, uint32_t pc);

#endif
