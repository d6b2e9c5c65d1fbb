/* stream.h: firmware traffic (stream.c) and the cost of one message
 * (msgcost.c). */
#ifndef WM_STREAM_H
#define WM_STREAM_H

#include "kernels.h"

extern const wm_kernel_param wm_stream_params[];
extern const char *const wm_stream_exports[];
void wm_kernel_stream(wm_mp *mp);

/* msgcost.c: the cycles of one send and one receive. */
extern const wm_kernel_param wm_msgcost_params[];
extern const char *const wm_msgcost_exports[];
void wm_kernel_msgcost(wm_mp *mp);

/* calib.c: the cycles of each call of sw/mp.h. */
extern const wm_kernel_param wm_calib_params[];
extern const char *const wm_calib_exports[];
void wm_kernel_calib(wm_mp *mp);

#endif
