/* campaign.h: the driver of a regression campaign: items (corpus
 * scenarios, random scenarios, layouts) handed out to whatever runs them,
 * their results gathered and given back in item order.
 *
 * Three transports run the items, one interface to the driver (hand out
 * item I, receive its lines and verdict):
 *   - in this process, one after the other (jobs = 1);
 *   - a pool of `jobs` forked processes on this machine (--jobs J), each
 *     running the items it is given one after another; one that dies
 *     loses its item, and a new process takes the next;
 *   - the ranks of an MPI job (mpirun, srun): rank 0 hands out items as
 *     ranks finish them (items differ in length by orders of magnitude,
 *     so there is no static split), two to a rank, the one it runs and
 *     the next, so that no rank waits for rank 0 between items; rank 0
 *     runs items itself in a forked process meanwhile, and alone calls
 *     `done`; every other rank runs its items in a forked process, sends
 *     a heartbeat every second while one runs, and sends back its lines.
 *     A rank silent for `rank_timeout` seconds is dead: its item running
 *     is reported lost, a failure, the next it held goes to another rank,
 *     and it gets no more. MPI is never linked: the transport is a plugin
 *     (transport.h) loaded only under a launcher (wm_campaign_mpi_open).
 * Whatever the transport, `done` sees every item once, in item order, so
 * the output is the same as a run in one process: passed, failed, lost
 * or, when the campaign was stopped first, not run (ledger.h). */
#ifndef WM_CAMPAIGN_H
#define WM_CAMPAIGN_H

#include "core/must_use.h"
#include "regress/ledger.h"
#include "mpi/transport.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    bool passed;
    bool interrupted;       /* SIGINT/SIGTERM stopped it */
    bool lost;              /* its process or rank died with it in hand */
    bool not_run;           /* the campaign stopped before it began (text "") */
    uint64_t router_cycles; /* what its expected run cost (random scenarios) */
    double seconds;         /* its wall time */
    const char *text;       /* its lines, each ending in '\n' */
} wm_campaign_result;

/* The state a result leaves its item in, in the campaign's ledger. */
wm_ledger_state wm_campaign_state(const wm_campaign_result *r);

/* An MPI job as the plugin sees it; ops NULL: not under MPI. */
typedef struct {
    const wm_transport_ops *ops;
    int rank, size;
    bool launcher; /* a launcher started this process, even as a job of one */
    bool gave_up;  /* rank 0: a rank was given up (dead, stopped, or silent when the job was stopped) */
} wm_campaign_mpi;

typedef struct {
    uint64_t count; /* items 0..count-1 */
    /* Runs item i (in this process or a forked one), its lines on out;
     * true when it passed. */
    bool (*run)(void *ctx, uint64_t item, FILE *out, bool *interrupted, uint64_t *router_cycles);
    /* The item's name, as its line names it (for a lost item's line). */
    void (*name)(void *ctx, uint64_t item, char *buf, size_t size);
    /* Each item's result, in item order, in the one process that reports. */
    void (*done)(void *ctx, uint64_t item, const wm_campaign_result *r);
    void *ctx;
    unsigned jobs;              /* local processes at a time; 1: in this process */
    wm_campaign_mpi *mpi;       /* NULL or ops NULL: on this machine */
    double rank_timeout;        /* MPI: seconds of silence after which a rank is dead */
} wm_campaign;

/* Runs the campaign. On an MPI rank other than 0, runs what rank 0 hands
 * out and returns with *reporter false; elsewhere *reporter is true. True
 * when it ran to its end; false when a signal or a failure (message on
 * stderr) stopped it. */
bool wm_campaign_run(const wm_campaign *c, bool *reporter);

/* Whether a launcher (mpirun, srun) started this process as one of
 * several: OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_STEP_NUM_TASKS above 1,
 * or, where none of those is set, PMIX_RANK set. A job of one process is
 * not: it runs as without a launcher, and MPI is not started. */
bool wm_campaign_launched(void);

/* Under a launcher, loads the MPI plugin (WAVEMESH_MPI_PLUGIN, or beside
 * the binary: lib/wavemesh-mpi.so in a build tree, ../lib/wavemesh/ when
 * installed) and starts MPI; *m gets the rank and size (ops NULL when the
 * job has one rank). Not under a launcher: true, ops NULL. False, with the
 * reason in err, when the plugin or MPI is missing or fails. */
WM_MUST_USE bool wm_campaign_mpi_open(wm_campaign_mpi *m, char *err, size_t err_size);
/* Whether the launcher is stopping this job (of one process or many): it
 * has signalled this process. Open MPI's mpirun, told to stop (SIGINT, or a rank that died),
 * reads no rank's output until it has killed them all: a second after
 * SIGCONT it sends SIGTERM, a second later SIGKILL. Standard output,
 * full of scenario lines, then takes no more (under a launcher it is
 * written without blocking once a signal has come:
 * wm_interrupt_unblock_stdout); standard error,
 * quiet in a campaign, still has room for the summary. */
bool wm_campaign_torn_down(const wm_campaign_mpi *m);
/* Ends MPI, when it was started, without waiting on a rank that is gone:
 * rank 0 ends the whole job (MPI_Abort) when it gave a rank up or the job
 * is being stopped, its output written by then; otherwise MPI_Finalize,
 * and a process still in it WM_CAMPAIGN_FINISH_SECONDS later kills
 * itself (a dead rank can hold every live one there). */
#define WM_CAMPAIGN_FINISH_SECONDS 10
void wm_campaign_mpi_close(wm_campaign_mpi *m);

#endif
