/* launch.c: the launcher seen from its environment, and the MPI plugin
 * loaded and started (launch.h). */
#include "mpi/launch.h"

#include "waves/interrupt.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long env_long(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : 0;
}

/* What launchers tell a process of its job's size. */
static const char *const job_sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"};

bool wm_mpi_launched(void)
{
    /* a job of one process has no one to talk to: it runs as without a
     * launcher, and pays nothing for MPI */
    bool sized = false;
    for (size_t i = 0; i < sizeof job_sizes / sizeof job_sizes[0]; i++) {
        if (env_long(job_sizes[i]) > 1) return true;
        sized |= getenv(job_sizes[i]) != NULL;
    }
    return !sized && getenv("PMIX_RANK") != NULL;
}

/* Whether a launcher started this process, of however many. */
static bool under_launcher(void)
{
    for (size_t i = 0; i < sizeof job_sizes / sizeof job_sizes[0]; i++)
        if (getenv(job_sizes[i])) return true;
    return getenv("PMIX_RANK") != NULL;
}

bool wm_mpi_open(wm_mpi_job *m, char *err, size_t err_size)
{
    memset(m, 0, sizeof *m);
    /* mpirun stops reading the ranks' output when it stops the job: it
     * must not block the summary */
    m->launcher = under_launcher();
    if (m->launcher) wm_interrupt_unblock_stdout();
    if (!wm_mpi_launched()) return true;
    char exe[PATH_MAX], paths[3][PATH_MAX + 64];
    size_t n = 0;
    const char *env = getenv("WAVEMESH_MPI_PLUGIN");
    if (env && *env) snprintf(paths[n++], sizeof paths[0], "%s", env);
    else {
        const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len > 0) {
            exe[len] = '\0';
            char *slash = strrchr(exe, '/');
            if (slash) *slash = '\0';
            snprintf(paths[n++], sizeof paths[0], "%s/lib/wavemesh-mpi.so", exe);
            snprintf(paths[n++], sizeof paths[0], "%s/../lib/wavemesh/wavemesh-mpi.so", exe);
        }
    }
    void *h = NULL;
    char why[PATH_MAX + 400] = "no path to look in";
    for (size_t i = 0; i < n && !h; i++) {
        if (access(paths[i], F_OK)) {
            snprintf(why, sizeof why, "%.3000s: %s", paths[i], strerror(errno));
            continue;
        }
        /* global: Open MPI's own components look up libmpi's symbols */
        h = dlopen(paths[i], RTLD_NOW | RTLD_GLOBAL);
        if (!h) snprintf(why, sizeof why, "%s", dlerror());
    }
    if (!h) {
        snprintf(err, err_size,
                 "started by an MPI launcher, but its plugin does not load (%s): build it with `make` where MPI "
                 "is installed (libopenmpi-dev), or set WAVEMESH_MPI_PLUGIN",
                 why);
        return false;
    }
    wm_transport_get_fn get;
    *(void **)&get = dlsym(h, WM_TRANSPORT_SYMBOL);
    const wm_transport_ops *ops = get ? get() : NULL;
    if (!ops || ops->abi != WM_TRANSPORT_ABI) {
        snprintf(err, err_size, "the MPI plugin %s is not this wavemesh's (no %s of version %d)", paths[0],
                 WM_TRANSPORT_SYMBOL, WM_TRANSPORT_ABI);
        return false;
    }
    /* Open MPI's threads start in MPI_Init: with the stop signals blocked
     * in them, a signal reaches this thread, and interrupts a write to
     * standard output that mpirun no longer reads (wm_campaign_torn_down).
     * And from MPI_Init on, a signal raises the flag rather than ending
     * the process: a rank that ends without MPI_Finalize makes Open MPI
     * abort the others, rank 0 with its summary unprinted. */
    wm_interrupt_watch();
    char merr[600];
    sigset_t stops, was;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stops, &was);
    const bool started = ops->init(&m->rank, &m->size, merr, sizeof merr);
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (!started) {
        snprintf(err, err_size, "%s", merr);
        return false;
    }
    m->ops = ops;
    if (m->size <= 1) {
        ops->finish();
        m->ops = NULL;
    }
    return true;
}


int wm_mpi_exit_status(const wm_mpi_job *j, int status) { return j->ops && j->rank != 0 ? 0 : status; }

void wm_mpi_close(wm_mpi_job *j)
{
    if (!j->ops) return;
    fflush(NULL);
    if (wm_interrupt_signal()) j->ops->kill_job(1);
    if (j->rank != 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
    }
    j->ops->finish();
    j->ops = NULL;
}
