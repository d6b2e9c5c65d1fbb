/* interrupt.c: the flag that stops a run between two cycles (interrupt.h). */
#include "waves/interrupt.h"

#include "fabric/fabric.h"
#include "waves/outfile.h"

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t received;  /* the signal, 0 before one arrives */
static volatile sig_atomic_t asserted;  /* an RTL assertion failed */
static uint64_t asserted_at;
static volatile sig_atomic_t failed;    /* wm_interrupt_fail */
static char failure[600];
static bool reported;
static volatile sig_atomic_t watched; /* a loop looks at the flag */

static void write_err(const char *s) { (void)!write(2, s, strlen(s)); }

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    }
    return "a signal";
}

static void on_signal(int sig)
{
    /* A second one while the first is handled changes nothing: the
     * clean-up under way (a dump closed, its save file written, the
     * temporaries removed) finishes, and the process exits 128 + the
     * first signal. */
    if (received) return;
    received = sig;
    if (watched) return;
    /* Set-up: nothing looks at the flag yet (a layout opened, an image
     * built) and nothing is half-done but the temporaries: they go, and
     * the command ends now, as a run stopped in its loop would. */
    wm_outfile_remove_all();
    write_err("wavemesh: interrupted by ");
    write_err(signal_name(sig));
    write_err("\n");
    _exit(128 + sig);
}

/* SIGPIPE (standard output's reader has gone) and SIGQUIT (Ctrl-\, the way
 * out of a run stuck where no loop looks at the flag) keep their default,
 * the end of the process, without leaving a temporary behind. */
static void on_fatal(int sig)
{
    wm_outfile_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

void wm_interrupt_watch(void) { watched = 1; }
void wm_interrupt_unblock_stdout(void)
{
    const int flags = fcntl(STDOUT_FILENO, F_GETFL);
    if (flags >= 0) fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK);
}

static void on_assertion(void *ctx, uint64_t cycle)
{
    (void)ctx;
    if (asserted) return;
    asserted_at = cycle;
    asserted = 1;
}

wm_fabric_config wm_interrupt_fabric_config(const wm_fabric_ops *ops)
{
    /* a fabric is made for a run whose loop looks at the flag */
    wm_interrupt_watch();
    wm_fabric_config cfg;
    if (ops->config) cfg = *ops->config;
    else memset(&cfg, 0, sizeof cfg);
    if (!cfg.on_assertion) {
        cfg.on_assertion = on_assertion;
        cfg.on_assertion_ctx = NULL;
    }
    return cfg;
}

wm_fabric *wm_interrupt_fabric_create(const wm_fabric_ops *ops, unsigned w, unsigned h, bool cores)
{
    const wm_fabric_config cfg = wm_interrupt_fabric_config(ops);
    return wm_fabric_create(ops, w, h, cores, &cfg);
}

void wm_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: an open that blocks (a FIFO with no writer) returns
     * EINTR once the run watches the flag, so that the caller gives up. */
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_fatal;
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL);
    /* A write past the file-size limit (ulimit -f) fails with EFBIG,
     * which every writer reports with its path, its temporary removed,
     * instead of ending the process silently. */
    signal(SIGXFSZ, SIG_IGN);
}

void wm_interrupt_fail(const char *why)
{
    if (failed) return;
    snprintf(failure, sizeof failure, "%s", why);
    failed = 1;
}

void wm_interrupt_clear_failure(void)
{
    failed = 0;
    failure[0] = '\0';
}

bool wm_interrupt_pending(void) { return received || asserted || failed; }
int wm_interrupt_signal(void) { return received; }

bool wm_interrupt_assertion(uint64_t *cycle)
{
    if (asserted && cycle) *cycle = asserted_at;
    return asserted;
}

void wm_interrupt_clear_assertion(void)
{
    asserted = 0;
    asserted_at = 0;
}

void wm_interrupt_describe(char *buf, size_t size)
{
    if (received)
        snprintf(buf, size, "interrupted by %s", signal_name(received));
    else if (failed)
        snprintf(buf, size, "%s", failure);
    else if (asserted)
        snprintf(buf, size,
                 "an RTL assertion failed in the edge to cycle %" PRIu64 " (the simulator's message is on stdout)",
                 asserted_at);
    else
        snprintf(buf, size, "not interrupted");
}

void wm_interrupt_note_reported(void) { reported = true; }

int wm_interrupt_exit_status(int status)
{
    if (!received) return status;
    if (!reported) fprintf(stderr, "wavemesh: interrupted by %s\n", signal_name(received));
    return 128 + received;
}
