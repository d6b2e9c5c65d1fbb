/* transport.h: the message transport MPI ranks talk through, as the MPI
 * plugin (build/lib/wavemesh-mpi.so, csim/mpi/plugin/) hands it out: a
 * campaign's ranks (regress/campaign.c) and the bands of one partitioned
 * fabric (mpi/partition.c).
 *
 * wavemesh itself never links MPI: when it sees it was started by a
 * launcher with more than one process (mpi/launch.h), it dlopen()s the
 * plugin and asks it for this table by the one symbol WM_TRANSPORT_SYMBOL.
 * The table is plain C, with no MPI type in it, so the binary builds and
 * runs where MPI is not installed. The protocols (who sends what when) are
 * the callers'; the plugin only moves bytes between ranks. */
#ifndef WM_TRANSPORT_H
#define WM_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Raised when the table changes; a plugin of another version is refused. */
#define WM_TRANSPORT_ABI 3
#define WM_TRANSPORT_SYMBOL "wm_transport_mpi"

typedef struct {
    int abi; /* WM_TRANSPORT_ABI */
    /* Starts the transport (MPI_Init; errors returned, not fatal): this
     * process's rank and the number of ranks. */
    bool (*init)(int *rank, int *size, char *err, size_t err_size);
    /* Sends len bytes to rank dest under tag; true when handed over. */
    bool (*send)(int dest, int tag, const void *buf, size_t len);
    /* Without waiting: true when a message is there, its source, tag and
     * length in the pointers. */
    bool (*probe)(int *src, int *tag, size_t *len);
    /* Receives the message probe announced into buf (len bytes). */
    bool (*recv)(int src, int tag, void *buf, size_t len);
    /* Ends the transport (MPI_Finalize). */
    void (*finish)(void);
    /* Ends every process of the job with status (MPI_Abort). */
    void (*kill_job)(int status);
    /* Sends slen bytes to peer and receives rlen bytes from it, both under
     * tag, neither side first (MPI_Sendrecv). */
    bool (*exchange)(int peer, int tag, const void *sbuf, size_t slen, void *rbuf, size_t rlen);
    /* Every rank's n counts summed, the sums in vals on every rank
     * (MPI_Allreduce). */
    bool (*sum)(uint64_t *vals, size_t n);
    /* Waits for a message from src under tag: its length (MPI_Probe). */
    bool (*wait_for)(int src, int tag, size_t *len);
} wm_transport_ops;

typedef const wm_transport_ops *(*wm_transport_get_fn)(void);

#endif
