/* gdb_server.h: a GDB stub over a core-mode run (docs/debugging.md).
 *
 * The target layer of the remote serial protocol (rsp.h carries the
 * packets): one process whose threads are the run's PE cores, in layout
 * order from thread 1, each named `INSTANCE (X,Y)`; riscv:rv32, with the
 * target description served (qXfer:features:read).
 *
 * All-stop, between two cycles: the server is the scheduler's debugger
 * (wm_sched_set_debugger), called before every step. While GDB looks,
 * the fabric is not stepped at all: routers, queues and every core stand
 * at that cycle, so a session changes nothing the run computes, unless
 * GDB writes a register or memory, or cores stop in one cycle (below),
 * which the server counts and tells (wm_gdb_server_changes). Breakpoints
 * (Z0, Z1) stop a core before the instruction at their address enters
 * execute; write watchpoints (Z2) stop it before a store into their
 * bytes writes, as RISC-V's triggers do (GDB steps the store itself);
 * vCont;s steps one thread: the fabric runs until that core retires one
 * instruction; Ctrl-C stops it where it is, on a thread still running.
 * GDB takes one thread's stop at a time: of cores that stop in the same
 * cycle, or while GDB runs some threads alone (stepping one over its
 * breakpoint), one is reported and the others are held (core_hold) where
 * they stopped, each reported at the next resume of it that steps no
 * thread, so that every hit reaches GDB with its own thread; held cores
 * run late by the cycles they were held. Each core runs its kernel's
 * image, linked at address 0 like every other: breakpoints and
 * watchpoints apply to the cores of one image, the one `monitor image
 * KERNEL` names (at first the image of the root of the layout: its last
 * instance). Registers and memory are those of the thread GDB selected
 * (Hg); memory is the tile's RAM and, read-only, the PE's register
 * window, read as a load would read it but without popping anything.
 *
 * The server listens from its creation, waits for GDB before cycle 0,
 * and stops listening once a connection is made. When GDB detaches or
 * the connection drops, the run goes on to its end; `kill` ends it. */
#ifndef WM_GDB_SERVER_H
#define WM_GDB_SERVER_H

#include "core/must_use.h"
#include "run/scheduler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct wm_gdb_server wm_gdb_server;

/* Listen on host:port (port 0: a free one), loopback only unless any_host;
 * the address GDB is to use is printed on msg ("waiting for GDB on ...").
 * NULL with the reason in err. */
WM_MUST_USE wm_gdb_server *wm_gdb_server_create(const char *host, unsigned port, bool any_host, FILE *msg, char *err,
                                                size_t err_size);
/* The port listened on. */
unsigned wm_gdb_server_port(const wm_gdb_server *g);
/* Debug the core-mode run of s from its next cycle. False with the reason
 * in err (not the core mode, a backend without the registers). */
WM_MUST_USE bool wm_gdb_server_attach(wm_gdb_server *g, wm_sched *s, char *err, size_t err_size);
/* The run ended with r: GDB hears it (the process exited) and the
 * connection closes. */
void wm_gdb_server_finish(wm_gdb_server *g, wm_run_result r);
/* Whether GDB changed the run: wrote memory (M) or registers (P, G) with
 * values other than those there, or held cores at hits it had not heard
 * of while it ran others (they ran that many cycles late). If so, buf
 * says so, e.g. "GDB wrote to p0 (4,0), root (6,0): 16 bytes of memory,
 * 0 registers", or "GDB held l1 (1,0), l2 (2,0) where they stopped, while
 * it ran other cores: 3 cycles in all", or both, joined by "; ". Call it
 * after wm_gdb_server_finish. */
bool wm_gdb_server_changes(const wm_gdb_server *g, char *buf, size_t size);
void wm_gdb_server_destroy(wm_gdb_server *g);

#endif
