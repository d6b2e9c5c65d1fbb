/* partition.h: one fabric over the ranks of an MPI job (docs/distributed.md).
 *
 * The mesh is cut into bands of whole rows, one a rank, as even as the
 * rows allow (rank k holds rows [k*H/N, (k+1)*H/N)). Each rank makes a
 * banded fabric of its rows (fabric.h, wm_fabric_band) and runs the PEs on
 * them; after every clock edge the ranks exchange the wires of the rows
 * that face each other (wm_partition_exchange): each is a flop of the
 * sending tile, so what a rank reads in cycle t is what one process would
 * have wired to it in cycle t. The scheduler agrees with the others on how
 * the run goes (wm_partition_sum), and the results go to rank 0, which
 * prints what one process prints (wm_partition_gather).
 *
 * A transport that fails (a rank gone) ends the job: the rank says which
 * rows it held and the cycle, and the launcher ends the others. */
#ifndef WM_MPI_PARTITION_H
#define WM_MPI_PARTITION_H

#include "core/must_use.h"
#include "fabric/fabric.h"
#include "mpi/launch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wm_partition wm_partition;

/* Whether this process is one rank of several: a launcher started it
 * (wm_mpi_launched). */
bool wm_partition_wanted(void);

/* The partition of a W x H mesh over the job j (j->ops set: a job of
 * several ranks). NULL with the reason in err when the mesh has fewer
 * rows than the job has ranks. cmd names the command in messages. */
WM_MUST_USE wm_partition *wm_partition_create(const wm_mpi_job *j, const char *cmd, unsigned w, unsigned h,
                                              char *err, size_t err_size);
/* Ends the job's transport (MPI_Finalize, or the job ended at once when a
 * rank is gone) and frees p. */
void wm_partition_destroy(wm_partition *p);

int wm_partition_rank(const wm_partition *p);
int wm_partition_size(const wm_partition *p);
/* Rank k's rows. */
wm_fabric_band wm_partition_band_of(const wm_partition *p, int k);
/* This rank's rows. */
wm_fabric_band wm_partition_band(const wm_partition *p);
/* Whether row y is this rank's. */
bool wm_partition_owns_row(const wm_partition *p, unsigned y);

/* After every clock edge (and once after the fabric is made): the wires
 * of this rank's edge rows to the ranks across, theirs into the fabric for
 * its next edge. cycle is the fabric's, for the message of a failure. */
void wm_partition_exchange(wm_partition *p, const wm_fabric_ops *ops, wm_fabric *f, uint64_t cycle);
/* Every rank's n counts summed, on every rank. */
void wm_partition_sum(wm_partition *p, uint64_t *vals, size_t n, uint64_t cycle);
/* Every rank's len bytes at mine, to rank 0: there, their concatenation
 * in rank order (malloc'd, its length in *total); NULL elsewhere. */
char *wm_partition_gather(wm_partition *p, const void *mine, size_t len, size_t *total, uint64_t cycle);
/* Rank 0's len bytes at buf to every rank (len the same on all). */
void wm_partition_broadcast(wm_partition *p, void *buf, size_t len, uint64_t cycle);

#endif
