/* job_state.h: what the gs kernels and the gs driver share, private to
 * sw/gs. The kernel signature carries only the PE (wm_mp), and a layout
 * carries only integers, so a kernel finds its rank's state through the
 * job being run (wm_gs_running) and its RANK parameter. */
#ifndef WM_GS_JOB_STATE_H
#define WM_GS_JOB_STATE_H

#include "gs/job.h"
#include "reduce.h"
#include "xfer.h"

typedef enum { WM_GS_PHASE_SETUP = 0, WM_GS_PHASE_OP = 1 } wm_gs_phase;

/* Cycles charged for the kernels' local work (docs/crystal.md). */
enum {
    WM_GS_COST_COPY = 2,   /* one indexed load and one store */
    WM_GS_COST_TERM = 2,   /* load one term and add it (float32) */
    WM_GS_COST_RECORD = 4  /* look at one record's header: compare, branch */
};

/* One rank's state, which lives across the setup and gs_op runs. */
typedef struct {
    wm_xfer_stats stats;   /* of the gs_op */
    unsigned active_stages;
    /* pairwise: one buffer region per peer, ascending peer */
    uint32_t *sendbuf, *recvbuf;
    wm_xfer *sends, *recvs;
    size_t nsends, nrecvs;
    wm_gs_reduction reduce;
    /* plan */
    bool have_plan;
    wm_cr_plan plan;
    uint32_t *arena;        /* the stages' list buffers, back to back */
    uint32_t **stage_buf;   /* into arena, one per active stage */
    uint32_t *plan_send;    /* max_send words */
    wm_xfer *posted;        /* every stage's receives, in stage order */
    size_t *posted_at;      /* per stage: its first entry in posted */
    size_t nposted;
} wm_gs_rank_state;

struct wm_gs_job {
    wm_gs_config cfg;
    const wm_gs_schedule *s;
    unsigned nranks;
    wm_gs_phase phase;
    wm_xfer_place *places;
    float **u;
    wm_gs_rank_state *rank;
};

/* The job being run, or NULL outside a run. */
wm_gs_job *wm_gs_running(void);

/* The method's work for one rank in one phase (gs_methods.c). */
void wm_gs_rank_setup(wm_gs_job *j, unsigned rank, wm_mp *mp);
void wm_gs_rank_op(wm_gs_job *j, unsigned rank, wm_mp *mp);
/* Host-side preparation that needs no fabric (pairwise buffers). */
bool wm_gs_rank_prepare(wm_gs_job *j, unsigned rank, FILE *err);
void wm_gs_rank_free(wm_gs_rank_state *st);

#endif
