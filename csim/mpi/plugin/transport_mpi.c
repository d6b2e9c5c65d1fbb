/* transport_mpi.c: the MPI plugin, build/lib/wavemesh-mpi.so (built with
 * mpicc, mk/build.mk), the one place wavemesh touches MPI. It hands out
 * the byte transport of mpi/transport.h; the protocols are the callers'
 * (a campaign's, a partitioned fabric's). Errors are returned
 * (MPI_ERRORS_RETURN), never fatal, so that rank 0 outlives a rank that
 * dies. */
#include "mpi/transport.h"

#include <mpi.h>
#include <stdio.h>

static bool mpi_init(int *rank, int *size, char *err, size_t err_size)
{
    int rc = MPI_Init(NULL, NULL);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_rank(MPI_COMM_WORLD, rank);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(MPI_COMM_WORLD, size);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int n = 0;
        MPI_Error_string(rc, text, &n);
        snprintf(err, err_size, "MPI_Init: %.*s", n, text);
        return false;
    }
    return true;
}

static bool mpi_send(int dest, int tag, const void *buf, size_t len)
{
    return len <= (size_t)1 << 30 && MPI_Send(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD) == MPI_SUCCESS;
}

static bool mpi_probe(int *src, int *tag, size_t *len)
{
    int flag = 0, n = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag) return false;
    MPI_Get_count(&st, MPI_BYTE, &n);
    *src = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    *len = (size_t)n;
    return true;
}

static bool mpi_recv(int src, int tag, void *buf, size_t len)
{
    return MPI_Recv(buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS;
}

static void mpi_finish(void)
{
    MPI_Finalize();
}

static void mpi_kill_job(int status)
{
    MPI_Abort(MPI_COMM_WORLD, status);
}

static bool mpi_exchange(int peer, int tag, const void *sbuf, size_t slen, void *rbuf, size_t rlen)
{
    if (slen > (size_t)1 << 30 || rlen > (size_t)1 << 30) return false;
    return MPI_Sendrecv(sbuf, (int)slen, MPI_BYTE, peer, tag, rbuf, (int)rlen, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE) == MPI_SUCCESS;
}

static bool mpi_sum(uint64_t *vals, size_t n)
{
    return n <= (size_t)1 << 20 &&
           MPI_Allreduce(MPI_IN_PLACE, vals, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS;
}

static bool mpi_wait_for(int src, int tag, size_t *len)
{
    MPI_Status st;
    int n = 0;
    if (MPI_Probe(src, tag, MPI_COMM_WORLD, &st) != MPI_SUCCESS) return false;
    MPI_Get_count(&st, MPI_BYTE, &n);
    *len = (size_t)n;
    return true;
}

const wm_transport_ops *wm_transport_mpi(void);
const wm_transport_ops *wm_transport_mpi(void)
{
    static const wm_transport_ops ops = {WM_TRANSPORT_ABI, mpi_init, mpi_send, mpi_probe, mpi_recv, mpi_finish,
                                            mpi_kill_job, mpi_exchange, mpi_sum, mpi_wait_for};
    return &ops;
}
