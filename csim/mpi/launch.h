/* launch.h: whether a launcher (mpirun, srun) started this process as one
 * of several, and the MPI plugin loaded and started when it did.
 *
 * Shared by every MPI job of wavemesh: a campaign's ranks
 * (regress/campaign.h) and the bands of one partitioned fabric
 * (mpi/partition.h). Plain wavemesh, without a launcher, loads nothing. */
#ifndef WM_MPI_LAUNCH_H
#define WM_MPI_LAUNCH_H

#include "core/must_use.h"
#include "mpi/transport.h"

#include <stdbool.h>
#include <stddef.h>

/* An MPI job as the plugin sees it; ops NULL: not under MPI. */
typedef struct {
    const wm_transport_ops *ops;
    int rank, size;
    bool launcher; /* a launcher started this process, even as a job of one */
} wm_mpi_job;

/* Whether a launcher (mpirun, srun) started this process as one of
 * several: OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_STEP_NUM_TASKS above 1,
 * or, where none of those is set, PMIX_RANK set. A job of one process is
 * not: it runs as without a launcher, and MPI is not started. */
bool wm_mpi_launched(void);

/* Under a launcher, loads the MPI plugin (WAVEMESH_MPI_PLUGIN, or beside
 * the binary: lib/wavemesh-mpi.so in a build tree, ../lib/wavemesh/ when
 * installed) and starts MPI; *j gets the rank and size (ops NULL when the
 * job has one rank). Not under a launcher: true, ops NULL. False, with the
 * reason in err, when the plugin or MPI is missing or fails. From here on
 * a stop signal raises the interrupt flag (waves/interrupt.h) rather than
 * ending the process, and standard output never blocks once one came. */
WM_MUST_USE bool wm_mpi_open(wm_mpi_job *j, char *err, size_t err_size);

/* The status this process exits with, status being what it judged: rank
 * 0's own, 0 on the other ranks (what they printed, rank 0 printed; a
 * launcher ends with the first non-zero status, and ends the other ranks
 * when it sees one). Without MPI, status. */
int wm_mpi_exit_status(const wm_mpi_job *j, int status);

/* Ends MPI, when it was started (MPI_Finalize; the job ended at once when
 * the launcher is stopping it, as MPI_Finalize would wait on ranks it
 * killed). A rank but 0 then ignores the launcher's SIGTERM: it has
 * nothing left to do but exit, and rank 0's non-zero status makes the
 * launcher end the others. */
void wm_mpi_close(wm_mpi_job *j);

#endif
