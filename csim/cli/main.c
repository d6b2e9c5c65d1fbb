/* main.c: the wavemesh command line, a dispatcher over csim/cli/commands.c. */
#include "cli/commands.h"
#include "mpi/launch.h"
#include "core/datadir.h"
#include "waves/interrupt.h"
#include "waves/outfile.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: wavemesh COMMAND [ARGS...]   (wavemesh COMMAND --help for each)\n\ncommands:\n");
    for (const wm_command *c = wm_commands; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
}

/* "wavemesh run", for the message of a failed write to standard output. */
static char who[64] = "wavemesh";

/* The reason of the first failed write to standard output. stdio keeps
 * only a flag: standard output is written through a stream of our own
 * over descriptor 1 that keeps the errno too. */
static int stdout_errno;

static ssize_t write_stdout(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    for (size_t done = 0; done < n;) {
        const ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        /* non-blocking under a launcher (waves/interrupt.h): room is
         * waited for until a signal says the reader has stopped reading */
        if (w < 0 && errno == EAGAIN && !wm_interrupt_signal()) {
            struct pollfd room = {STDOUT_FILENO, POLLOUT, 0};
            poll(&room, 1, 100);
            continue;
        }
        if (w < 0) {
            if (!stdout_errno) stdout_errno = errno;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static void checked_stdout(void)
{
    const cookie_io_functions_t io = {NULL, write_stdout, NULL, NULL};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f) return; /* the plain stream, its flag checked all the same */
    /* buffered as the C library buffers standard output, but for a rank of
     * an MPI job: Open MPI gives it a pseudo-terminal, and a line a write
     * through it cost a large run's results seconds; the commands flush
     * where a line must show at once (a row's verdict, a scenario's) */
    const bool lines = isatty(STDOUT_FILENO) && !wm_mpi_launched();
    setvbuf(f, NULL, lines ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = f;
}

/* Everything printed on standard output reached it: a failed write (a full
 * disk, /dev/full) is found in the stream's error flag or in its last flush
 * and close, and ends the command with the reason and exit 1, as `cat` and
 * `sort` do. Run at exit, whichever way the command ends. */
static void close_stdout(void)
{
    const bool flushed = fflush(stdout) == 0;
    const bool had_error = ferror(stdout) != 0;
    const bool closed = fclose(stdout) == 0;
    if (flushed && !had_error && closed && !stdout_errno) return;
    if (stdout_errno == EAGAIN) /* made non-blocking by a launcher's stop (waves/interrupt.h) */
        fprintf(stderr, "%s: standard output: no longer read by the launcher stopping the job: lines were dropped\n",
                who);
    else fprintf(stderr, "%s: standard output: %s\n", who, stdout_errno ? strerror(stdout_errno) : "write error");
    wm_outfile_remove_all();
    _exit(1);
}

/* The commands that use the ranks of an MPI job, when one started them. */
static bool spreads_over_ranks(const char *name)
{
    return !strcmp(name, "run") || !strcmp(name, "rows") || !strcmp(name, "traffic") || !strcmp(name, "gs") ||
           !strcmp(name, "profile") || !strcmp(name, "regress");
}

static bool asks_help(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
    return false;
}

int main(int argc, char **argv)
{
    /* The reproducer commands name the binary as it was invoked, and its
     * data (firmware, corpus) is found beside it (core/datadir.h). */
    wm_self_init(argc > 0 ? argv[0] : NULL);
    checked_stdout();
    atexit(close_stdout);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* Ctrl-C or a kill stops a run at its next cycle and keeps its dump,
     * and ends a command still setting up at once (csim/waves/interrupt.h);
     * a failed RTL assertion stops a run too. */
    wm_interrupt_install();
    for (const wm_command *c = wm_commands; c->name; c++)
        if (!strcmp(c->name, argv[1])) {
            snprintf(who, sizeof who, "wavemesh %s", c->name);
            if (wm_mpi_launched() && !spreads_over_ranks(c->name) && !asks_help(argc, argv)) {
                fprintf(stderr,
                        "wavemesh %s: runs in one process, not as one of several MPI ranks: under mpirun, `run`, "
                        "`rows`, `traffic`, `gs` and `profile` partition one fabric over the ranks and `regress` "
                        "spreads a campaign over them (docs/distributed.md)\n",
                        c->name);
                return 2;
            }
            return wm_interrupt_exit_status(c->main(argc - 1, argv + 1));
        }
    fprintf(stderr, "wavemesh: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
