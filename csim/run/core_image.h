/* core_image.h: what the host writes into a PE core's memory and reads
 * back (docs/core.md, "The PE image"; sw/rv32/pe_block.h).
 *
 * A kernel's firmware is build/firmware/KERNEL.bin (`make firmware`): raw
 * bytes from address 0. The PE block carries the instance's parameters,
 * resolved from the layout in the order of the kernel's parameter list,
 * and comes back with its results at the indices of its exports list and,
 * after wm_mp_fault, the fault record, which is formatted here from the
 * format string and arguments left in the PE's memory. */
#ifndef WM_CORE_IMAGE_H
#define WM_CORE_IMAGE_H

#include "fabric/fabric.h"
#include "run/layout.h"
#include "rv32/pe_block.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *kernel;
    char path[512];
    uint8_t *bytes;
    size_t n;
} wm_firmware;

/* The folder of the images: $WM_FIRMWARE_DIR, else the build's. */
const char *wm_firmware_dir(void);

/* Read KERNEL.bin. False with the reason in err (a missing file says how
 * to build it; an image larger than WM_PE_CODE_MAX says both sizes). */
WM_MUST_USE bool wm_firmware_load(const char *kernel, wm_firmware *out, char *err, size_t errn);
void wm_firmware_free(wm_firmware *fw);

/* The block of instance `in`. False with the reason in err when the
 * kernel has more parameters or exports than the block holds. */
WM_MUST_USE bool wm_pe_block_build(wm_pe_block *b, const wm_instance *in, char *err, size_t errn);

/* The text of a wm_mp_fault record, with its format string and %s
 * arguments read from tile (x, y)'s memory. */
void wm_pe_fault_text(const wm_fabric_ops *ops, const wm_fabric *f, unsigned x, unsigned y, const wm_pe_block *b,
                      char *out, size_t n);

/* "illegal instruction", ... for a core fault cause. */
const char *wm_core_fault_name(wm_core_fault cause);

#endif
