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
    uint32_t code_end; /* the end of the executable sections: a PC at or past it is no function's */
} wm_fw_syms;

/* The symbols of the ELF at path; false with the reason in err (a missing
 * file, not a little-endian ELF32, no symbol table). */
WM_MUST_USE bool wm_fw_syms_load(const char *path, wm_fw_syms *out, char *err, size_t err_size);
/* The same for wm_fw_dir()/KERNEL.elf (csim/waves/waves_fw.h), once
 * wm_fw_elf_matches_image said it is the image's. */
WM_MUST_USE bool wm_fw_syms_load_kernel(const char *kernel, wm_fw_syms *out, char *err, size_t err_size);
/* Whether wm_fw_dir()/KERNEL.elf is the ELF of the image the loader reads,
 * KERNEL.bin: its loadable bytes (each PT_LOAD segment's, at its physical
 * address) are the image's, byte for byte, and the image ends where they
 * do. An ELF of another kernel or of another build would name the image's
 * code with its own functions and lines; false with both files named in
 * err. Every reader of an ELF for names and lines asks it first. */
WM_MUST_USE bool wm_fw_elf_matches_image(const char *kernel, char *err, size_t err_size);
void wm_fw_syms_free(wm_fw_syms *s);

/* The index of the symbol pc belongs to; -1 below the first, and at or
 * past code_end. */
long wm_fw_syms_find(const wm_fw_syms *s, uint32_t pc);

#endif
