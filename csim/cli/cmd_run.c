/* cmd_run.c: `wavemesh run LAYOUT`, the kernels of a layout to completion. */
#include "cli/commands.h"
#include "cli/layout_job.h"
#include "mpi/partition.h"
#include "run/exact.h"
#include "run/mem_report.h"
#include "run/runner.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char about[] =
    "Runs every kernel of the layout (docs/layouts.md) to completion and prints each\n"
    "exported result as `instance.symbol = value`, then, for each leaf (an instance\n"
    "exporting t0 and t1), the cycles from its send to the arrival of its prefix,\n"
    "then the run's cycles (`run: N cycles`, the cycle it ended in) and the cycle\n"
    "each kernel returned in (`-`: it did not). Exits 0 only when every kernel\n"
    "returned and every message reached a kernel that read it; a deadlock, a\n"
    "stall, a firmware fault, the cycle limit or a message left unread is\n"
    "reported with the PEs and wavelets involved.\n"
    "--pe native (the default) runs each kernel as a host coroutine timed by the\n"
    "cost model of sw/mp.h; --pe core runs its firmware (`make firmware`) on the\n"
    "tile's RV32IM core (docs/core.md): a faulting core is reported with its PE,\n"
    "instance, PC and instruction, and the cycle limit names each core's PC.\n"
    "Values are 32-bit words (docs/kernels.md): where the host knows a result\n"
    "exactly (the scans, the all-reduce) and it does not fit the word exported,\n"
    "a warning names the export, its exact value and the word, and the exit\n"
    "status is 1.\n"
    "Under --gdb, a run GDB changed says so after its results (`modified: GDB\n"
    "wrote to CORES: N bytes of memory, M registers`, or `GDB held CORES ...`,\n"
    "cores it held at a breakpoint while it ran others) and exits 1, unless\n"
    "--gdb-writes-ok.\n"
    "--mem-report prints, after the run, where its memory went, in bytes a PE:\n"
    "the process's peak resident set, the RAM pages the cores touched (pages\n"
    "shared by content counted once) or the kernels' stack pages natively,\n"
    "what the peak holds beyond them, and of that the ISS, the routers, the\n"
    "queues and the scheduler (docs/core.md, \"Where a PE's bytes go\"); the\n"
    "sw backend tells its part, the rtl backend's falls in the rest.\n"
    "Started by mpirun or srun as one of several ranks, the run splits the mesh\n"
    "into a block of tiles a rank, exchanging the links between blocks every\n"
    "cycle; rank 0 prints what one process prints (docs/distributed.md),\n"
    "--mem-report prints each rank's, and --trace FILE.fst makes each rank dump\n"
    "its block's tiles to FILE-rankK.fst (K the rank), which `wavemesh wavediff\n"
    "ONE.fst FILE-rank0.fst FILE-rank1.fst ...` compares with one process's.\n";

static const char more[] = "The dump names each tile after its instance and shows each kernel's state and\n"
                           "exports under <instance>.fw.\n";

/* The `waves:` line of a dump, as one process prints it. */
static void print_waves(const char *path)
{
    printf("waves: %s (open with: gtkwave -a %.*s.gtkw %s)\n", path, (int)(strlen(path) - 4), path, path);
}

/* The `waves:` line of each rank's dump, rank by rank: the ranks whose block
 * holds a tile of trace's (wm_trace_spec_of_block). */
static void print_rank_waves(const wm_trace_spec *trace, const wm_layout *layout, const wm_partition *part)
{
    for (int k = 0; k < wm_partition_size(part); k++) {
        wm_trace_spec block;
        char path[4200], err[600];
        if (wm_trace_spec_of_block(trace, wm_layout_width(layout), wm_layout_height(layout),
                                   wm_partition_band_of(part, k), k, &block, path, sizeof path, err, sizeof err) > 0)
            print_waves(path);
    }
}

/* The run on one band of the mesh, as one rank of an MPI job
 * (docs/distributed.md): every rank runs its band, rank 0 prints what one
 * process prints, and every rank exits with rank 0's status. */
static int run_partitioned(wm_mpi_job job, const wm_fabric_ops *ops, wm_layout *layout, wm_pe_mode mode,
                           uint64_t max_cycles, uint64_t jitter, bool mem_report, const wm_trace_spec *trace)
{
    char err[600];
    if (!job.ops) return -1; /* a job of one: the whole fabric here */
    wm_partition *part =
        wm_partition_create(&job, "run", wm_layout_width(layout), wm_layout_height(layout), err, sizeof err);
    if (!part) {
        if (job.rank == 0) fprintf(stderr, "wavemesh run: %s\n", err);
        wm_mpi_close(&job);
        return 2;
    }
    const bool first = wm_partition_rank(part) == 0;
    if (trace->path) {
        /* tiles refused as one process refuses them, said once */
        wm_trace_spec block;
        char path[4200];
        if (wm_trace_spec_of_block(trace, wm_layout_width(layout), wm_layout_height(layout), (wm_fabric_band){0}, 0,
                                   &block, path, sizeof path, err, sizeof err) < 0) {
            if (first) fprintf(stderr, "wavemesh: %s\n", err);
            wm_partition_destroy(part);
            wm_mpi_close(&job);
            return 1;
        }
    }
    wm_runner *r = wm_runner_create_banded(ops, layout, mode, part, trace);
    if (!r) {
        /* the others wait on this rank's block: the job ends */
        job.ops->kill_job(1);
        wm_partition_destroy(part);
        return 1;
    }
    wm_sched *s = wm_runner_sched(r);
    char why[300];
    if (jitter && !wm_sched_set_jitter(s, jitter, why, sizeof why)) {
        /* every rank finds the same: each ends alike */
        if (first) fprintf(stderr, "wavemesh run: --jitter %llu: %s\n", (unsigned long long)jitter, why);
        wm_runner_destroy(r);
        wm_partition_destroy(part);
        wm_mpi_close(&job);
        return 2;
    }
    const wm_run_result res = wm_runner_run(r, max_cycles);
    if (first) {
        wm_runner_print_results(r, stdout);
        wm_runner_print_cycles(r, "cycles", stdout);
        printf("run: %" PRIu64 " cycles\n", wm_sched_cycle(s));
        wm_runner_print_ends(r, "end", stdout);
    }
    if (mem_report) {
        /* each rank's own: it holds only its band */
        wm_mem_report m;
        wm_mem_report_take(s, &m);
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            const wm_fabric_band b = wm_partition_band(part);
            fprintf(mem, "rank %d of %d, rows %u-%u, columns %u-%u:\n", wm_partition_rank(part),
                    wm_partition_size(part), b.row_begin, b.row_end - 1, b.col_begin, b.col_end - 1);
            wm_mem_report_print(&m, mem);
            fclose(mem);
        }
        size_t total = 0;
        char *all = wm_partition_gather(part, text, mem ? len : 0, &total, wm_sched_cycle(s));
        if (all) fwrite(all, 1, total, stdout);
        free(all);
        free(text);
    }
    const bool ended_well = wm_sched_ending(s, res, stderr) == WM_END_RETURNED;
    /* each rank closes its own dump; rank 0 names them all when every one is kept */
    uint64_t lost = !wm_runner_finish(r);
    wm_partition_sum(part, &lost, 1, wm_sched_cycle(s));
    int status = 0;
    if (first) {
        wm_exact *exact = wm_exact_create(layout);
        const size_t wrapped = wm_exact_report_wraps(exact, s, "wavemesh: warning: ", NULL, NULL, stderr);
        wm_exact_destroy(exact);
        if (trace->path && !lost) print_rank_waves(trace, layout, part);
        status = ended_well && !wrapped && !lost ? 0 : 1;
    }
    status = wm_mpi_exit_status(&job, status);
    fflush(stdout);
    wm_runner_destroy(r);
    wm_partition_destroy(part);
    wm_mpi_close(&job);
    return status;
}

/* The run in this process, the whole mesh here. */
static int run_whole(const wm_fabric_ops *ops, wm_layout *layout, wm_pe_mode mode, uint64_t max_cycles,
                     uint64_t jitter, bool mem_report, const wm_trace_spec *trace, const wm_gdb_spec *gdb)
{
    wm_runner *r = wm_runner_create_mode(ops, layout, trace, mode);
    if (!r) {
        wm_layout_destroy(layout);
        return 1;
    }
    char why[300];
    if (jitter && !wm_sched_set_jitter(wm_runner_sched(r), jitter, why, sizeof why)) {
        fprintf(stderr, "wavemesh run: --jitter %llu: %s\n", (unsigned long long)jitter, why);
        wm_runner_destroy(r);
        wm_layout_destroy(layout);
        return 1;
    }
    wm_run_result res;
    char modified[1024];
    if (!wm_run_gdb("run", gdb, r, max_cycles, &res, modified, sizeof modified)) {
        if (!wm_runner_finish(r)) fprintf(stderr, "wavemesh run: the dump is incomplete\n");
        wm_runner_destroy(r);
        wm_layout_destroy(layout);
        return 1;
    }
    wm_runner_print_results(r, stdout);
    wm_runner_print_cycles(r, "cycles", stdout);
    printf("run: %" PRIu64 " cycles\n", wm_sched_cycle(wm_runner_sched(r)));
    wm_runner_print_ends(r, "end", stdout);
    if (mem_report) {
        wm_mem_report m;
        wm_mem_report_take(wm_runner_sched(r), &m);
        wm_mem_report_print(&m, stdout);
    }
    /* the results above are not the firmware's alone: said beside them */
    if (modified[0]) printf("modified: %s\n", modified);
    const bool ended_well = wm_sched_ending(wm_runner_sched(r), res, stderr) == WM_END_RETURNED;
    wm_exact *exact = wm_exact_create(layout);
    const size_t wrapped = wm_exact_report_wraps(exact, wm_runner_sched(r), "wavemesh: warning: ", NULL, NULL, stderr);
    wm_exact_destroy(exact);
    const bool dumped = wm_runner_finish(r);
    if (trace->path && dumped) print_waves(trace->path);
    wm_runner_destroy(r);
    wm_layout_destroy(layout);
    return ended_well && dumped && !wrapped && (!modified[0] || gdb->writes_ok) ? 0 : 1;
}

int wm_cmd_run(int argc, char **argv)
{
    const char *backend = "rtl", *path = NULL, *pe = "native";
    wm_setting settings[WM_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = WM_MAX_CYCLES_DEFAULT;
    wm_trace_spec trace = wm_trace_spec_default();
    wm_gdb_spec gdb = {0};
    unsigned long long jitter = 0;
    bool mem_report = false;
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("LAYOUT", &path, true),
        WM_OPT_CHOICE_ROW("--backend", &backend, wm_backend_words, "the fabric model (default rtl)"),
        WM_OPT_CHOICE_ROW("--pe", &pe, wm_pe_words, "where each kernel runs (default native)"),
        WM_OPT_SETTINGS_ROW(settings, WM_MAX_SETTINGS, &nsettings, "override a parameter of the layout"),
        WM_OPT_MAX_CYCLES_ROW(&max_cycles),
        WM_OPT_TRACE_ROWS(&trace),
        WM_OPT_U64_ROW("--jitter", "SEED", &jitter, 1, UINT64_MAX,
                       "perturb the timing: delay each kernel's start, stall its pushes and pops (docs/kernels.md)"),
        WM_OPT_GDB_ROWS(&gdb),
        WM_OPT_FLAG_ROW("--mem-report", &mem_report, "after the run, where its memory went, in bytes a PE"),
    };
    const wm_opts opts = WM_OPTS("run", options, about, more);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    if (!wm_trace_options_check("run", &trace)) return 2;
    if (!wm_gdb_options_check("run", &gdb, !strcmp(pe, "core"))) return 2;
    if (!wm_jitter_options_check("run", jitter != 0, &gdb, !strcmp(pe, "core"), &backend, 1)) return 2;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    const wm_pe_mode mode = wm_pe_mode_of(pe);
    if (wm_partition_wanted()) {
        if (gdb.given) {
            fprintf(stderr, "wavemesh run: --gdb is for a run in one process: under mpirun each rank holds one band of "
                            "the mesh (docs/distributed.md)\n");
            return 2;
        }
        wm_mpi_job job;
        wm_layout *layout = wm_layout_load_opening_job("run", path, settings, nsettings, &job, stderr);
        if (!layout) {
            status = wm_mpi_exit_status(&job, 1);
            wm_mpi_close(&job);
            return status;
        }
        const int st = run_partitioned(job, ops, layout, mode, max_cycles, jitter, mem_report, &trace);
        if (st >= 0) {
            wm_layout_destroy(layout);
            return st;
        }
        return run_whole(ops, layout, mode, max_cycles, jitter, mem_report, &trace, &gdb);
    }
    wm_layout *layout = wm_layout_load(path, settings, nsettings, stderr);
    if (!layout) return 1;
    return run_whole(ops, layout, mode, max_cycles, jitter, mem_report, &trace, &gdb);
}
