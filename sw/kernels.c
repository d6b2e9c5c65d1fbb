/* kernels.c: the kernel registry, one line per kernel. */
#include "kernels.h"

#include "collectives/collectives.h"
#include "gs/gs_kernel.h"
#include "traffic/stream.h"


const wm_kernel wm_kernels[] = {
    {"leaf", wm_kernel_leaf, wm_leaf_params, "tree collectives: a leaf (value up, prefix down)", wm_leaf_exports},
    {"node", wm_kernel_node, wm_node_params, "tree collectives: an inner node or the root", wm_node_exports},
    {"chain", wm_kernel_chain, wm_chain_params, "running sum along a line of PEs (lesson 9 baseline)",
     wm_chain_exports},
    {"allreduce", wm_kernel_allreduce, wm_allreduce_params, "all-reduce over a tree: every PE gets the sum of all",
     wm_allreduce_exports},
    {"gs", wm_kernel_gs, wm_gs_params, "gather-scatter: one rank of `wavemesh gs` (pairwise, crystal, plan)", NULL},
    {"stream", wm_kernel_stream, wm_stream_params, "firmware traffic: COUNT messages of LEN wavelets to (TOX,TOY)",
     wm_stream_exports},
    {"msgcost", wm_kernel_msgcost, wm_msgcost_params, "the cycles of one send (ROLE=0) or one receive (ROLE=1)",
     wm_msgcost_exports},
    {"calib", wm_kernel_calib, wm_calib_params, "the cycles of each call of sw/mp.h (wavemesh calibrate)",
     wm_calib_exports},
    {"gscalib", wm_kernel_gscalib, wm_gscalib_params, "the cycles of the gs kernels' own work (wavemesh calibrate)",
     wm_gscalib_exports},
    {"gsglue", wm_kernel_gsglue, wm_gsglue_params, "the cycles of each gs method's own bookkeeping (wavemesh calibrate)",
     wm_gsglue_exports},
    {NULL, NULL, NULL, NULL, NULL},
};
