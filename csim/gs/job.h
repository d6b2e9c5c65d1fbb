/* job.h: one gs_op(sum) on the fabric, end to end.
 *
 * A job takes a schedule and a method, lays the ranks out on a W x H grid
 * of PEs (rank_layout.h), writes every rank's PE memory image (image.h),
 * fills every dof with wm_gs_initial_value, runs
 * the method's setup (the crystal plan's symbolic pass, as messages on the
 * fabric) and then, as a separate run on the same fabric, one gs_op; it
 * counts the cycles, messages and wavelet-hops of the gs_op alone and
 * compares the result with the reference bit for bit.
 *
 * Methods (docs/crystal.md):
 *   pairwise  every rank sends one transfer to each peer directly
 *   crystal   the setup-phase crystal router: records [dest, origin, len,
 *             payload] routed in ceil(log2 P) bisection stages, each stage's
 *             size negotiated over the fabric
 *   plan      the crystal plan: symbolic pass in the setup run, then a
 *             fixed sequence of sends and receives of known size
 *   fold      the folding crystal router: contributions to one dof added
 *             at the relays on the way to its lowest holder, the sum sent
 *             back to the others
 *   auto      every candidate (wm_gs_candidate_name) timed on the fabric
 *             in the setup run, the fastest kept for the gs_op
 * The first three reduce at the destination in ascending origin rank
 * order and are checked against wm_gs_reference_sum; fold adds in the
 * order of its bisection and is checked against wm_gs_reference_fold. */
#ifndef WM_GS_JOB_H
#define WM_GS_JOB_H

#include "crystal/pairing.h"
#include "fabric/fabric.h"
#include "gs/gs_image.h" /* wm_gs_method */
#include "gs/plan_host.h"
#include "gs/rank_grid.h"
#include "gs/schedule.h"
#include "core/must_use.h"
#include "run/scheduler.h" /* wm_pe_mode */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

WM_MUST_USE bool wm_gs_method_parse(const char *name, wm_gs_method *method);
const char *wm_gs_method_name(wm_gs_method method);
/* "neko" or "gslib". */
WM_MUST_USE bool wm_pairing_parse(const char *name, wm_pairing *rule);
const char *wm_pairing_name(wm_pairing rule);
/* "pairwise", "crystal neko", ... "fold gslib": candidate c of auto. */
const char *wm_gs_candidate_name(unsigned c);

typedef struct {
    unsigned w, h;          /* the rank grid; P = w * h */
    wm_rank_order order;
    wm_gs_method method;
    wm_pairing pairing;
    const wm_fabric_ops *backend;
    uint64_t max_cycles;    /* per run; 0: a generous default */
    wm_pe_mode pe;          /* native (default) or the gs firmware on the cores */
    uint64_t jitter;        /* each run under the schedule of this seed (wm_sched_set_jitter), 0: none */
    wm_link_hook op_hook;   /* optional: sees every link event of the gs_op run (not the setup's) */
    void *op_hook_ctx;
    /* optional: this rank's block of the mesh, the fabric partitioned over
     * the ranks of an MPI job (mpi/partition.h, docs/distributed.md); the
     * op_hook then sees this block's events only. Rank 0 gets the result
     * one process gets; the others' results are not filled in. */
    wm_partition *part;
} wm_gs_config;

typedef struct {
    uint64_t setup_cycles;  /* the plan's symbolic pass, auto's trials (0 for the others) */
    uint64_t op_cycles;     /* one gs_op, first cycle to last kernel done */
    uint64_t messages;      /* sent during the gs_op */
    uint64_t wavelets;      /* pushed during the gs_op, headers included */
    uint64_t wavelet_hops;  /* wavelets leaving a router towards a neighbour */
    unsigned active_stages; /* most stages any one rank was active in */
    unsigned stages_used;   /* bisection stages active on some rank */
    uint64_t checksum;      /* wm_gs_checksum of the result */
    bool matches_reference; /* bit for bit */
    /* auto: the candidate every rank kept and each candidate's gs_op
     * cycles as the PEs measured them in the setup (the most on a rank) */
    unsigned auto_choice;
    uint64_t auto_cycles[WM_GS_CANDIDATES];
} wm_gs_result;

/* The auto method's table, as `wavemesh gs --method auto` prints it: a
 * line per candidate with the cycles the PEs measured, then the one kept:
 *   auto: candidate gs_op cycles in the set-up (the most on a rank)
 *     pairwise          9504
 *     ...
 *   auto chose: pairwise */
void wm_gs_print_auto(FILE *out, const wm_gs_result *r);

/* auto's choice and table, read back from the ranks' PE memories (nranks
 * of WM_PE_DATA_WORDS words, one after another, each a gs image with its
 * auto block) into out: every rank must hold the same. False, with a line
 * naming the first rank that differs from rank 0 (or a choice past the
 * candidates) to err. */
WM_MUST_USE bool wm_gs_auto_read(const uint32_t *mems, unsigned nranks, wm_gs_result *out, FILE *err);

typedef struct wm_gs_job wm_gs_job;

/* A job over schedule s (which must outlive it and have w*h ranks). NULL,
 * with a message to err, if the schedule fails its check, the grid does
 * not fit a mesh or a rank's image does not fit its PE's memory. */
WM_MUST_USE wm_gs_job *wm_gs_job_create(const wm_gs_config *cfg, const wm_gs_schedule *s, FILE *err);
void wm_gs_job_destroy(wm_gs_job *j);

/* Setup and one gs_op. False, with the scheduler's diagnosis or the
 * mismatch to err, if a run does not finish. With cfg.part, on a fabric
 * of this rank's block, every rank alike (each its own err; only rank 0
 * writes the diagnosis). */
WM_MUST_USE bool wm_gs_job_run(wm_gs_job *j, wm_gs_result *out, FILE *err);
/* The same on a fabric the caller made (of the grid's size, at any cycle,
 * quiescent; made by create_cores for cfg.pe == WM_PE_CORE; with
 * cfg.part, of this rank's block, its edges exchanged). count_hops sets the fabric's link hook for the run; without
 * it wavelet_hops stays 0 and a hook the caller set is left alone. */
WM_MUST_USE
bool wm_gs_job_run_on(wm_gs_job *j, const wm_fabric_ops *ops, wm_fabric *f, bool count_hops, wm_gs_result *out,
                      FILE *err);

/* After a run: the values, and for the plan method the plan rank built on
 * the fabric, read back from its PE's memory (NULL otherwise). */
float *const *wm_gs_job_values(const wm_gs_job *j);
const wm_cr_plan *wm_gs_job_plan(const wm_gs_job *j, unsigned rank);
/* The most words of PE data memory any rank used in the last run: its
 * image and the highest word of its heap. */
uint32_t wm_gs_job_memory_high(const wm_gs_job *j);

#endif
