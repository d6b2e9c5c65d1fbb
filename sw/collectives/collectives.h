/* collectives.h: the kernels of the tree collectives and the chain baseline.
 *
 * leaf and node are the seed's two programs: an up-sweep that reduces the
 * leaves' values to the root (root.total), then a down-sweep that gives
 * every leaf its exclusive and inclusive prefix (excl, incl). A message is a
 * header and one data wavelet, the value; the sender's side (0 left child,
 * 1 right child) travels in the header's tag field, because a message says
 * where it goes, not who sent it. chain is lesson 9's baseline: a running
 * sum passed along a line of PEs. allreduce, the worked example of
 * docs/kernels.md, leaves the sum of every PE's value on every PE. */
#ifndef WM_COLLECTIVES_H
#define WM_COLLECTIVES_H

#include "kernels.h"

#include <stddef.h>

void wm_kernel_leaf(wm_mp *mp);
void wm_kernel_node(wm_mp *mp);
void wm_kernel_chain(wm_mp *mp);
void wm_kernel_allreduce(wm_mp *mp);

extern const wm_kernel_param wm_leaf_params[];
extern const wm_kernel_param wm_node_params[];
extern const wm_kernel_param wm_chain_params[];
extern const wm_kernel_param wm_allreduce_params[];

extern const char *const wm_leaf_exports[];
extern const char *const wm_node_exports[];
extern const char *const wm_chain_exports[];
extern const char *const wm_allreduce_exports[];

#endif
