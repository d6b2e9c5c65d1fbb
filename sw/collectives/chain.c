/* chain.c: lesson 9's baseline, a reduction and scan along a line of PEs.
 * Each PE waits for the running sum of the PEs before it (its exclusive
 * prefix), adds its value and passes the sum on; the last one holds the
 * total. The sum visits every PE in turn: one message step per PE. */
#include "collectives.h"

enum { VAL, FIRST, LAST, NEXTX, NEXTY };
const wm_kernel_param wm_chain_params[] = {
    [VAL] = {"VAL", true, 0, WM_PARAM_WORD}, /* this PE's value */
    [FIRST] = {"FIRST", true, 0, WM_RANGE(0, 1)}, /* 1: nothing comes before this PE */
    [LAST] = {"LAST", true, 0, WM_RANGE(0, 1)}, /* 1: nothing comes after; keeps the total */
    [NEXTX] = {"NEXTX", false, -1, WM_RANGE(-1, WM_MESH_MAX - 1)}, /* the next PE's coordinates, unless LAST */
    [NEXTY] = {"NEXTY", false, -1, WM_RANGE(-1, WM_MESH_MAX - 1)},
    {NULL, false, 0, 0, 0},
};

enum { EXCL, INCL, TOTAL, T0, T1 };
const char *const wm_chain_exports[] = {[EXCL] = "excl", [INCL] = "incl", [TOTAL] = "total", [T0] = "t0",
                                        [T1] = "t1", NULL};

void wm_kernel_chain(wm_mp *mp)
{
    const uint32_t value = (uint32_t)wm_mp_param(mp, VAL);
    const bool first = (uint32_t)wm_mp_param(mp, FIRST) != 0;
    /* The first PE waits for nothing: its two reads are back to back, with
     * no test between them to time. */
    uint32_t prefix = 0;
    uint64_t t0, t1;
    if (first) {
        t0 = wm_mp_tsc(mp);
        t1 = wm_mp_tsc(mp);
    } else {
        t0 = wm_mp_tsc(mp);
        wm_mp_recv(mp, &prefix, 1);
        t1 = wm_mp_tsc(mp);
    }
    wm_mp_work(mp, WM_COST_CHAIN_STEP);
    const uint32_t sum = prefix + value;
    if ((uint32_t)wm_mp_param(mp, LAST)) {
        wm_mp_export(mp, TOTAL, (int32_t)sum);
    } else {
        const uint32_t next = wm_mp_header(mp, wm_mp_param(mp, NEXTX), wm_mp_param(mp, NEXTY), 1, 0);
        wm_mp_send(mp, next, &sum);
    }
    wm_mp_export(mp, EXCL, (int32_t)prefix);
    wm_mp_export(mp, INCL, (int32_t)sum);
    wm_mp_export(mp, T0, (int64_t)t0);
    wm_mp_export(mp, T1, (int64_t)t1);
}
