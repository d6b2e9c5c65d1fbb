/* partition.h: one fabric over the ranks of an MPI job (docs/distributed.md).
 *
 * The mesh is cut into a grid of blocks, one a rank: px across and py
 * down, px * py = N, the grid that cuts the fewest links (bands of rows or
 * of columns where that is it), each block as even as the tiles allow.
 * Each rank makes a fabric of its block (fabric.h, wm_fabric_band) and
 * runs the PEs on it; after every clock edge the ranks exchange the wires
 * of the edges that face each other (wm_partition_exchange): each is a flop of the
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
 * several ranks) into a grid of blocks, a x b = the ranks, that cuts the
 * fewest links. NULL with the reason in err when no such grid fits the
 * mesh. cmd names the command in messages. */
WM_MUST_USE wm_partition *wm_partition_create(const wm_mpi_job *j, const char *cmd, unsigned w, unsigned h,
                                              char *err, size_t err_size);
/* Frees p; the job goes on (wm_mpi_close ends it). */
void wm_partition_destroy(wm_partition *p);

int wm_partition_rank(const wm_partition *p);
int wm_partition_size(const wm_partition *p);
/* Rank k's block. */
wm_fabric_band wm_partition_band_of(const wm_partition *p, int k);
/* This rank's block. */
wm_fabric_band wm_partition_band(const wm_partition *p);
/* Whether tile (x, y) is this rank's. */
bool wm_partition_owns(const wm_partition *p, unsigned x, unsigned y);

/* After every clock edge (and once after the fabric is made): the wires
 * of this rank's edge rows to the ranks across, theirs into the fabric for
 * its next edge. cycle is the fabric's, for the message of a failure. */
void wm_partition_exchange(wm_partition *p, const wm_fabric_ops *ops, wm_fabric *f, uint64_t cycle);
/* Every rank's n counts summed, on every rank. */
void wm_partition_sum(wm_partition *p, uint64_t *vals, size_t n, uint64_t cycle);
/* Every rank's len bytes at mine, to every rank: their concatenation in
 * rank order (malloc'd, its length in *total). */
char *wm_partition_allgather(wm_partition *p, const void *mine, size_t len, size_t *total, uint64_t cycle);
/* Every rank's len bytes at mine, to rank 0: there, their concatenation
 * in rank order (malloc'd, its length in *total); NULL elsewhere. */
char *wm_partition_gather(wm_partition *p, const void *mine, size_t len, size_t *total, uint64_t cycle);

#endif
