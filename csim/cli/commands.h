/* commands.h: the subcommands of the wavemesh command line.
 *
 * Each subcommand is one function in its own csim/cli/cmd_*.c, taking the
 * arguments after its name (argv[0] is the subcommand) and returning the
 * process exit status. Each declares its options as a table for the one
 * parser (csim/cli/options.h), which answers --help; the rows several
 * commands share are here. */
#ifndef WM_COMMANDS_H
#define WM_COMMANDS_H

#include "cli/options.h"
#include "run/scheduler.h" /* wm_pe_mode */
#include "waves/waves.h"   /* wm_trace_spec */

#include <stdbool.h>

typedef struct {
    const char *name;
    int (*main)(int argc, char **argv);
    const char *summary;
} wm_command;

/* The table, terminated by a NULL name (csim/cli/commands.c). */
extern const wm_command wm_commands[];

/* A run's cycle limit unless --max-cycles says otherwise; a bare number,
 * for the help texts that quote it. */
#define WM_MAX_CYCLES_DEFAULT 10000000
#define WM_TEXT(x) WM_TEXT_(x)
#define WM_TEXT_(x) #x

/* The most --set options of one command. */
enum { WM_MAX_SETTINGS = 64 };

/* The words of --backend (wm_fabric_backend's names) and of --pe. */
extern const char *const wm_backend_words[];
extern const char *const wm_pe_words[];
wm_pe_mode wm_pe_mode_of(const char *word);

/* --max-cycles N of a layout run. */
#define WM_OPT_MAX_CYCLES_ROW(to_)                                                              \
    WM_OPT_U64_ROW("--max-cycles", "N", (to_), 1, UINT64_MAX,                                    \
                   "stop the run after N cycles (default " WM_TEXT(WM_MAX_CYCLES_DEFAULT) ")")

/* --trace FILE, --trace-tiles X0,Y0:X1,Y1 and --trace-window FROM:TO into
 * the wm_trace_spec *spec (start from wm_trace_spec_default()). */
bool wm_trace_path_parse(const char *text, void *spec);
bool wm_trace_tiles_parse(const char *text, void *spec);
bool wm_trace_window_parse(const char *text, void *spec);
/* The files --trace FILE writes: FILE and its save file, FILE.gtkw. */
bool wm_trace_writes(const char *value, size_t k, char *name, size_t size);
#define WM_OPT_TRACE_ROWS(spec)                                                                                  \
    {"--trace", "FILE", WM_OPT_CUSTOM, .to.custom = (spec), .parse = wm_trace_path_parse,                        \
     .expected = "FILE.fst or FILE.vcd", .path = WM_PATH_OUT, .writes = wm_trace_writes,                         \
     .help = "dump waves for GTKWave: FILE.fst (FST), FILE.vcd (VCD); a save file FILE.gtkw is written next to " \
             "it (docs/waves.md). SIGINT (Ctrl-C) or SIGTERM stops a run at the next cycle and keeps its dump, "  \
             "readable up to that cycle, with its save file; the exit status is then 130 (143), after a line "    \
             "naming the cycle"},                                                                                 \
    {"--trace-tiles", "X0,Y0:X1,Y1", WM_OPT_CUSTOM, .to.custom = (spec), .parse = wm_trace_tiles_parse,          \
     .expected = "X0,Y0:X1,Y1, each in 0..1023, with X0<=X1, Y0<=Y1",                                            \
     .help = "dump only the tiles of this rectangle (default all)"},                                             \
    {"--trace-window", "FROM:TO", WM_OPT_CUSTOM, .to.custom = (spec), .parse = wm_trace_window_parse,            \
     .expected = "FROM:TO, cycles in 0..18446744073709551615, with FROM<=TO",                                    \
     .help = "dump only cycles FROM..TO (default all)"}

/* After the options: --trace-tiles or --trace-window without --trace
 * would dump nothing; false after a message naming cmd. */
bool wm_trace_options_check(const char *cmd, const wm_trace_spec *spec);

/* --gdb HOST:PORT and --gdb-any-host of a run on the cores: GDB debugs its
 * firmware (docs/debugging.md, csim/debug/gdb_server.h). */
typedef struct {
    bool given;
    char text[300];  /* as given, for the messages */
    char host[256];
    unsigned port;   /* 0: any free one */
    bool any_host;
    bool writes_ok;  /* --gdb-writes-ok: a run GDB changed is judged as it ran */
} wm_gdb_spec;
bool wm_gdb_addr_parse(const char *text, void *spec);
#define WM_OPT_GDB_ROWS(spec)                                                                                    \
    {"--gdb", "HOST:PORT", WM_OPT_CUSTOM, .to.custom = (spec), .parse = wm_gdb_addr_parse,                      \
     .expected = "HOST:PORT, the port in 0..65535 (0: a free one, printed)",                                     \
     .help = "with --pe core: serve GDB's remote protocol there, every core a thread, and wait for GDB before "   \
             "cycle 0 (docs/debugging.md); loopback only, unless --gdb-any-host"},                               \
    WM_OPT_FLAG_ROW("--gdb-any-host", &(spec)->any_host,                                                         \
                    "let --gdb listen on an address that is not loopback (the protocol has no authentication)"), \
    WM_OPT_FLAG_ROW("--gdb-writes-ok", &(spec)->writes_ok,                                                       \
                    "judge a run GDB changed (wrote memory or registers, held cores) as it ran (default: MODIFIED, "  \
                    "exit 1)")
/* After the options: --gdb only with the cores (core_given: --pe core is
 * among the modes), on a loopback address unless --gdb-any-host; false
 * after a message naming cmd. */
bool wm_gdb_options_check(const char *cmd, const wm_gdb_spec *spec, bool core_given);
/* After the options: --jitter (jitter: it or --jitter-runs given) is
 * refused beside --gdb, whose holds on the cores it would let go of, and
 * on the cores (core_given) of a backend that cannot hold one core
 * (rtl-mesh); false after a message naming cmd. */
bool wm_jitter_options_check(const char *cmd, bool jitter, const wm_gdb_spec *gdb, bool core_given,
                             const char *const *backends, size_t nbackends);
/* Run r to max_cycles, under GDB when spec->given (the sched's mode is
 * the cores); false after a message naming cmd when the server cannot be
 * set up (nothing ran). When GDB wrote memory or registers or held cores,
 * modified gets what it changed (wm_gdb_server_changes), else "". */
struct wm_runner;
bool wm_run_gdb(const char *cmd, const wm_gdb_spec *spec, struct wm_runner *r, uint64_t max_cycles,
                wm_run_result *res, char *modified, size_t modified_size);

#endif
