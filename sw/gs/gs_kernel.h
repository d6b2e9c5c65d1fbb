/* gs_kernel.h: the gather-scatter kernel for the registry (sw/kernels.c). */
#ifndef WM_GS_KERNEL_H
#define WM_GS_KERNEL_H

#include "kernels.h"

void wm_kernel_gs(wm_mp *mp);
extern const wm_kernel_param wm_gs_params[];

/* What the gs kernels' own work costs a core (`wavemesh calibrate`). */
void wm_kernel_gscalib(wm_mp *mp);
extern const wm_kernel_param wm_gscalib_params[];
extern const char *const wm_gscalib_exports[];

/* What each gs method takes besides those parts (`wavemesh calibrate`). */
void wm_kernel_gsglue(wm_mp *mp);
extern const wm_kernel_param wm_gsglue_params[];
extern const char *const wm_gsglue_exports[];

#endif
