/* interrupt.h: stopping a run between two cycles, and saying why.
 *
 * Two things stop a run early: SIGINT or SIGTERM (an engineer who has seen
 * the bug and wants the dump), and a failed RTL assertion, which the rtl
 * backend reports here when its fabric is made with
 * wm_interrupt_fabric_create (or wm_interrupt_fabric_config's config).
 * Neither ends the process on the spot: a flag is raised, and every cycle
 * loop (the scheduler in both PE modes, `traffic`, the regression) looks
 * at it once per cycle and ends as a finished run ends. So a dump is
 * flushed and closed, readable up to the last complete cycle, its save
 * file written, the FST writer's temporary removed; the command says at
 * which cycle it stopped and exits 128 + the signal (130 for SIGINT, 143
 * for SIGTERM), or 1 after an assertion.
 *
 * Signals at any moment: SIGHUP is taken as SIGINT and SIGTERM are. Before
 * any loop looks at the flag (the command still sets up: opening its
 * inputs, which may block on a FIFO with no writer, building images), a
 * signal ends the command at once, with the same message and status, the
 * temporaries of the outputs begun removed (waves/outfile.h). Once a run's
 * fabric is made (wm_interrupt_fabric_config), or a loop calls
 * wm_interrupt_watch, the signal raises the flag instead; the handlers
 * are installed without SA_RESTART, so a blocking open returns EINTR and
 * its caller gives up. A second signal while the first is handled changes
 * nothing: the clean-up finishes, then the process exits 128 + the first
 * signal. SIGPIPE and SIGQUIT (Ctrl-\: the way out of a run stuck where
 * nothing looks at the flag) end the process as by default, after the
 * temporaries are removed. SIGXFSZ is ignored: a write past the file-size
 * limit fails with EFBIG, reported by its writer like a full disk. */
#ifndef WM_INTERRUPT_H
#define WM_INTERRUPT_H

#include "fabric/fabric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The handlers of SIGINT, SIGTERM and SIGHUP (and of SIGPIPE, SIGQUIT). */
void wm_interrupt_install(void);
/* From now on a loop looks at the flag: a signal raises it rather than
 * ending the command at once. */
void wm_interrupt_watch(void);
/* Makes standard output non-blocking, for a process whose output reader
 * stops reading when it signals (an MPI launcher stopping its job): the
 * program's writer (cli/main.c) waits for room only until a signal has
 * come, then drops what does not fit, so that the process reaches its
 * clean-up before the launcher's SIGKILL, whichever of its threads the
 * signal reached. */
void wm_interrupt_unblock_stdout(void);

/* The config of a run's fabric: ops->config's (the default without one),
 * with a failed RTL assertion raising the flag unless that config says
 * otherwise. Every fabric a run, the regression or a dump makes is made
 * with it. */
wm_fabric_config wm_interrupt_fabric_config(const wm_fabric_ops *ops);
/* wm_fabric_create with that config. */
WM_MUST_USE wm_fabric *wm_interrupt_fabric_create(const wm_fabric_ops *ops, unsigned w, unsigned h, bool cores);

/* Stop the run for a reason of its own (a dump that cannot be written):
 * the loops stop as for an assertion, and describe gives why. */
void wm_interrupt_fail(const char *why);
/* Forget that reason: a command that runs several runs (`rows`) charges
 * it to the run it stopped (GDB's `kill` ends only its own row). */
void wm_interrupt_clear_failure(void);

/* A loop should stop: a signal arrived, an RTL assertion failed, or
 * wm_interrupt_fail was called. */
bool wm_interrupt_pending(void);
/* The signal that arrived (SIGINT, SIGTERM), 0 if none. */
int wm_interrupt_signal(void);
/* An RTL assertion failed, in the edge that led to *cycle. */
bool wm_interrupt_assertion(uint64_t *cycle);
/* Forget a failed assertion: the regression charges it to one scenario
 * and goes on with the next. */
void wm_interrupt_clear_assertion(void);

/* Why the run stopped, e.g. "interrupted by SIGINT" or "an RTL assertion
 * failed in the edge to cycle 17 (the simulator's message is on stdout)". */
void wm_interrupt_describe(char *buf, size_t size);
/* Someone has told the user at which cycle the run stopped. */
void wm_interrupt_note_reported(void);

/* What a command that returned status exits with: 128 + the signal once
 * one arrived (after a line naming it, when no loop has reported where it
 * stopped), status otherwise. */
int wm_interrupt_exit_status(int status);

#endif
