/* stream.h: firmware traffic, a stream of messages to one PE. */
#ifndef WM_STREAM_H
#define WM_STREAM_H

#include "kernels.h"

extern const wm_kernel_param wm_stream_params[];
extern const char *const wm_stream_exports[];
void wm_kernel_stream(wm_mp *mp);

#endif
