/* waves_fw.h: the firmware of a dump's PE cores, disassembled for GTKWave.
 *
 * A dump of a fabric with PE cores shows per core the PC of the instruction
 * in X and the word of each retiring instruction (rtl/core/wm_core_waves.v).
 * Two kinds of translate filter file make them readable: one maps every
 * instruction word of the images to its disassembly, and one per image maps
 * every PC of its code to function+offset (different kernels occupy the
 * same addresses, so each tile's PC trace gets its own kernel's filter).
 * Both come from riscv64-unknown-elf-objdump on the kernel's ELF,
 * build/firmware/KERNEL.elf (`make firmware`).
 *
 * Which image a core ran is read from its memory: the image whose .text the
 * core's RAM holds. So a dump gets its filters whatever loaded the cores
 * (a layout run, a rows file, the regression), without being told.
 */
#ifndef WM_WAVES_FW_H
#define WM_WAVES_FW_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The folder of the images, the one the loader reads (csim/run/core_image.c):
 * $WM_FIRMWARE_DIR, else the build's. */
const char *wm_fw_dir(void);
/* The disassembler: $WM_OBJDUMP, else riscv64-unknown-elf-objdump. */
const char *wm_fw_objdump(void);

typedef struct wm_fw_set wm_fw_set;

WM_MUST_USE wm_fw_set *wm_fw_set_new(void);
void wm_fw_set_free(wm_fw_set *s);

/* Disassemble wm_fw_dir()/KERNEL.elf into s, once per kernel. Its index,
 * or -1 with the reason in err (objdump missing, no such image). */
int wm_fw_set_add(wm_fw_set *s, const char *kernel, char *err, size_t err_size);

/* Reads n bytes at addr of one core's memory. */
typedef void (*wm_fw_read_fn)(void *ctx, uint32_t addr, void *bytes, size_t n);

/* The image of wm_fw_dir() whose .text the core's memory holds, added to s
 * as by wm_fw_set_add: its index; -1 when none matches (err says so), or
 * when disassembling it failed (err says why). */
int wm_fw_set_identify(wm_fw_set *s, wm_fw_read_fn read, void *ctx, char *err, size_t err_size);

size_t wm_fw_set_count(const wm_fw_set *s);
const char *wm_fw_set_kernel(const wm_fw_set *s, size_t k);

/* The instruction filter: "%08x TEXT" per distinct word of the images'
 * code, TEXT objdump's (-M no-aliases,numeric: the instruction itself, with
 * x-registers numbered as the rd trace numbers them; comments dropped). A branch or jump word found at several PCs with
 * different targets reads as a relative target, ".+16". Word 0, which no
 * core retires, reads "-": the trace shows it when nothing retires. */
WM_MUST_USE bool wm_fw_write_insn_filter(const wm_fw_set *s, const char *path);
/* The PC filter of image k: "%08x function+0xOFF" per PC of its code. */
WM_MUST_USE bool wm_fw_write_pc_filter(const wm_fw_set *s, size_t k, const char *path);

#endif
