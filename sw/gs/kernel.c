/* kernel.c: the gs kernel, one per rank; RANK is its rank number. What it
 * runs depends on the job and the phase (setup or gs_op) being run. */
#include "gs_kernel.h"

#include "job_state.h"
#include "run/scheduler.h"

const wm_kernel_param wm_gs_params[] = {
    {"RANK", true, 0},
    {NULL, false, 0},
};

void wm_kernel_gs(wm_mp *mp)
{
    wm_gs_job *j = wm_gs_running();
    const int64_t rank = wm_mp_param(mp, "RANK");
    if (!j) wm_sched_fault(mp, "the gs kernel runs only under `wavemesh gs` (no gs job is running)");
    if (rank < 0 || rank >= (int64_t)j->nranks)
        wm_sched_fault(mp, "gs kernel with RANK=%lld, but the job has %u ranks", (long long)rank, j->nranks);
    if (j->phase == WM_GS_PHASE_SETUP)
        wm_gs_rank_setup(j, (unsigned)rank, mp);
    else
        wm_gs_rank_op(j, (unsigned)rank, mp);
}
