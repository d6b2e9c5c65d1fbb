/* core_rtl.h: the Verilated wm_core with its RAM (rtl/core/), stepped one
 * cycle at a time through core_port.h; the reference the ISS is checked
 * against. C-callable; the implementation is C++ (core_rtl.cpp). */
#ifndef WM_CORE_RTL_H
#define WM_CORE_RTL_H

#include "core/core_port.h"
#include "core/must_use.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_core_rtl wm_core_rtl;

/* A core held in reset with a zeroed RAM of WM_CORE_MEM_BYTES. */
WM_MUST_USE wm_core_rtl *wm_core_rtl_create(void);
void wm_core_rtl_destroy(wm_core_rtl *c);
/* Write bytes at addr of the RAM (while in reset, before the first step). */
void wm_core_rtl_load(wm_core_rtl *c, uint32_t addr, const void *bytes, size_t n);
/* One cycle: the first call releases reset (cycle 0). */
void wm_core_rtl_step(wm_core_rtl *c, const wm_core_pe_in *in, wm_core_cycle *out);
uint32_t wm_core_rtl_reg(const wm_core_rtl *c, unsigned r);
uint32_t wm_core_rtl_pc(const wm_core_rtl *c);          /* the PC of the instruction in X */
wm_core_halt wm_core_rtl_halt(const wm_core_rtl *c);
/* Read bytes back from the RAM. */
void wm_core_rtl_read(const wm_core_rtl *c, uint32_t addr, void *bytes, size_t n);

#ifdef __cplusplus
}
#endif

#endif
