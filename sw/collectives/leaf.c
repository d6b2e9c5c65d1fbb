/* leaf.c: a leaf of the tree collectives. It sends its value up, tagged
 * with its side, then waits for its prefix: the sum of the values of every
 * leaf to its left. t0 and t1 bracket that wait, for the cycles table. */
#include "collectives.h"


enum { VAL, SIDE, UPX, UPY };
const wm_kernel_param wm_leaf_params[] = {
    [VAL] = {"VAL", true, 0, WM_PARAM_WORD}, /* this leaf's value */
    /* 0: left child of its parent, 1: right child. Sent as the header's
     * tag and left without a range on purpose: a value over WM_TAG_MAX is then
     * the header's own fault at run time, which the tests provoke. */
    [SIDE] = {"SIDE", true, 0, WM_PARAM_U32},
    [UPX] = {"UPX", true, 0, WM_RANGE(0, WM_MESH_MAX - 1)},  /* the parent's coordinates */
    [UPY] = {"UPY", true, 0, WM_RANGE(0, WM_MESH_MAX - 1)},
    {NULL, false, 0, 0, 0},
};

enum { EXCL, INCL, T0, T1 };
const char *const wm_leaf_exports[] = {[EXCL] = "excl", [INCL] = "incl", [T0] = "t0", [T1] = "t1", NULL};

void wm_kernel_leaf(wm_mp *mp)
{
    const uint32_t value = (uint32_t)wm_mp_param(mp, VAL);
    const uint64_t t0 = wm_mp_tsc(mp);
    const uint32_t up = wm_mp_header(mp, wm_mp_param(mp, UPX), wm_mp_param(mp, UPY), 1,
                                     (unsigned)wm_mp_param(mp, SIDE));
    wm_mp_send(mp, up, &value);

    uint32_t prefix = 0;
    wm_mp_recv(mp, &prefix, 1);
    const uint64_t t1 = wm_mp_tsc(mp);
    wm_mp_work(mp, WM_COST_ADD);
    wm_mp_export(mp, EXCL, (int32_t)prefix);
    wm_mp_export(mp, INCL, (int32_t)(prefix + value));
    wm_mp_export(mp, T0, (int64_t)t0);
    wm_mp_export(mp, T1, (int64_t)t1);
}
