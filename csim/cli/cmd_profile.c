/* cmd_profile.c: `wavemesh profile LAYOUT`, where the cycles of a run went. */
#include "cli/commands.h"
#include "cli/layout_job.h"
#include "mpi/partition.h"
#include "waves/outfile.h"
#include "profile/collect.h"
#include "profile/lines.h"
#include "profile/table.h"
#include "profile/timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char about[] =
    "Runs every kernel of the layout as `run` does and prints where its cycles went\n"
    "(docs/profiling.md): per PE, its cycles from its start to its end by function,\n"
    "executing, stalled on a full TX queue, stalled on an empty RX queue, or in the\n"
    "start-up before the kernel; the same over the run; the messages; and the\n"
    "critical path, the chain of compute and messages from cycle 0 to the run's last\n"
    "event, one line a segment, closing with\n"
    "  critical path: N cycles in K segments; the run's last event at cycle M\n"
    "where N equals M. On the cores (--pe core) a function is the firmware's, from\n"
    "the kernel's ELF (`make firmware`); natively, the sw/mp.h call that charged the\n"
    "cycles, or the kernel's own code. The output is the same on every backend.\n"
    "--chrome, --folded and --png write the run's timeline: trace-event JSON for\n"
    "Perfetto or chrome://tracing, folded stacks for the flame graph tools, a PNG.\n"
    "--lines (--pe core only) closes with each kernel's cycles by source line of its\n"
    "firmware, from the ELF's line table (addr2line), most first:\n"
    "  file:line  cycles  share  stalled  function\n"
    "every cycle given to the instruction the function table gives it to, a stalled\n"
    "load's or store's cycles to its line, the rows adding up to the kernel's cycles.\n"
    "Started by mpirun or srun as one of several ranks, the mesh is split among\n"
    "them (docs/distributed.md) and rank 0 prints and writes what one process does.\n"
    "Exits 0 only when every kernel returned.\n";

typedef bool (*profile_writer)(const wm_profile *p, FILE *out, char *err, size_t err_size);

/* The profile through writer into the file at path; false after a message. */
static bool write_file(const char *path, profile_writer writer, const wm_profile *p)
{
    char err[4200];
    wm_outfile *o = wm_outfile_begin(path, true, err, sizeof err);
    if (!o) {
        fprintf(stderr, "wavemesh profile: %s\n", err);
        return false;
    }
    if (!writer(p, wm_outfile_stream(o), err, sizeof err)) {
        fprintf(stderr, "wavemesh profile: %s: %s\n", path, err);
        wm_outfile_discard(o);
        return false;
    }
    if (!wm_outfile_commit(o, err, sizeof err)) {
        fprintf(stderr, "wavemesh profile: %s\n", err);
        return false;
    }
    return true;
}

/* The lines' tables after the rest, and their CSV into lines_csv (if not
 * NULL); false after a message. */
static bool print_lines(const wm_profile *prof, size_t top, const char *lines_csv)
{
    char err[4400];
    wm_prof_lines l;
    if (!wm_profile_lines(prof, &l, err, sizeof err)) {
        fprintf(stderr, "wavemesh profile: --lines: %s\n", err);
        return false;
    }
    fputc('\n', stdout);
    wm_profile_print_lines(prof, &l, top, stdout);
    bool ok = true;
    if (lines_csv) {
        wm_outfile *o = wm_outfile_begin(lines_csv, true, err, sizeof err);
        if (!o) {
            fprintf(stderr, "wavemesh profile: %s\n", err);
            ok = false;
        } else if (!wm_profile_write_lines_csv(prof, &l, wm_outfile_stream(o), err, sizeof err)) {
            fprintf(stderr, "wavemesh profile: %s: %s\n", lines_csv, err);
            wm_outfile_discard(o);
            ok = false;
        } else if (!wm_outfile_commit(o, err, sizeof err)) {
            fprintf(stderr, "wavemesh profile: %s\n", err);
            ok = false;
        }
    }
    wm_prof_lines_free(&l);
    return ok;
}

/* Under a launcher, the job opened: in a job of several ranks, the
 * layout's mesh partitioned over them, the standard output of every rank
 * but 0 gone to /dev/null (rank 0 prints what one process prints). False
 * after a message, the status to exit with in *status. */
static bool open_partition(wm_mpi_job *job, wm_partition **part, const wm_layout *layout, int *status)
{
    char err[600];
    *status = 1;
    if (!job->ops) return true; /* a job of one: the whole fabric here */
    *part = wm_partition_create(job, "profile", wm_layout_width(layout), wm_layout_height(layout), err, sizeof err);
    if (!*part) {
        if (job->rank == 0) fprintf(stderr, "wavemesh profile: %s\n", err);
        wm_mpi_close(job);
        *status = 2;
        return false;
    }
    if (job->rank != 0) {
        /* standard output is main.c's writer onto descriptor 1: the descriptor goes to /dev/null */
        const int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0) {
            fprintf(stderr, "wavemesh profile: rank %d: /dev/null: %s\n", job->rank, strerror(errno));
            job->ops->kill_job(1);
        }
        close(null);
    }
    return true;
}

int wm_cmd_profile(int argc, char **argv)
{
    const char *backend = "rtl", *path = NULL, *pe = "native", *csv = NULL, *chrome = NULL, *folded = NULL,
               *png = NULL, *lines_csv = NULL;
    bool lines = false, lines_top_given = false;
    unsigned long long lines_top = 20;
    wm_setting settings[WM_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = WM_MAX_CYCLES_DEFAULT;
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("LAYOUT", &path, true),
        WM_OPT_CHOICE_ROW("--backend", &backend, wm_backend_words, "the fabric model (default rtl)"),
        WM_OPT_CHOICE_ROW("--pe", &pe, wm_pe_words, "where each kernel runs (default native)"),
        WM_OPT_SETTINGS_ROW(settings, WM_MAX_SETTINGS, &nsettings, "override a parameter of the layout"),
        WM_OPT_MAX_CYCLES_ROW(&max_cycles),
        WM_OPT_OUTPUT_ROW("--csv", "FILE", &csv, "write the tables as CSV to FILE as well"),
        WM_OPT_OUTPUT_ROW("--chrome", "FILE", &chrome,
                          "write the timeline as Chrome trace-event JSON to FILE (Perfetto, chrome://tracing)"),
        WM_OPT_OUTPUT_ROW("--folded", "FILE", &folded, "write folded stacks to FILE, for the flame graph tools"),
        WM_OPT_OUTPUT_ROW("--png", "FILE", &png, "draw the timeline into the PNG FILE (gnuplot)"),
        WM_OPT_FLAG_ROW("--lines", &lines, "each kernel's cycles by source line as well (--pe core)"),
        {"--lines-top", "N", WM_OPT_U64, .to.u = &lines_top, .umin = 0, .umax = 1000000, .given = &lines_top_given,
         .help = "the lines shown a kernel, the rest in one row (default 20; 0: every line; implies --lines)"},
        WM_OPT_OUTPUT_ROW("--lines-csv", "FILE", &lines_csv,
                          "write every kernel's lines as CSV to FILE (implies --lines)"),
    };
    const wm_opts opts = WM_OPTS("profile", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    const wm_pe_mode mode = wm_pe_mode_of(pe);
    const char *lines_by = lines ? "--lines" : lines_csv ? "--lines-csv" : lines_top_given ? "--lines-top" : NULL;
    lines = lines_by != NULL;
    if (lines && mode != WM_PE_CORE) {
        fprintf(stderr,
                "wavemesh profile: %s needs --pe core: natively a kernel runs on the host and its cycles come from "
                "the cost model, call by call, not from instructions at lines of its source\n",
                lines_by);
        return 1;
    }
    char err[600];
    wm_mpi_job job = {0};
    wm_partition *part = NULL;
    /* under a launcher the layout is read while MPI starts, and a fault in
     * it said by rank 0 alone */
    wm_layout *layout = wm_partition_wanted()
                            ? wm_layout_load_opening_job("profile", path, settings, nsettings, &job, stderr)
                            : wm_layout_load(path, settings, nsettings, stderr);
    if (!layout) {
        status = wm_mpi_exit_status(&job, 1);
        wm_mpi_close(&job);
        return status;
    }
    if (wm_partition_wanted() && !open_partition(&job, &part, layout, &status)) {
        wm_layout_destroy(layout);
        return status;
    }
    const bool first = !part || wm_partition_rank(part) == 0;
    wm_run_result res;
    wm_profile *prof = wm_profile_layout_banded(ops, layout, mode, part, max_cycles, first ? stderr : NULL, &res,
                                                err, sizeof err);
    wm_layout_destroy(layout);
    if (!prof) {
        if (err[0]) fprintf(stderr, "wavemesh profile: %s\n", err);
        /* a rank that failed on its own leaves the others waiting: the job ends */
        if (err[0] && job.ops) job.ops->kill_job(1);
        status = wm_mpi_exit_status(&job, err[0] ? 1 : res == WM_RUN_DONE ? 0 : 1);
        wm_partition_destroy(part);
        wm_mpi_close(&job);
        return status;
    }
    wm_profile_print_tables(prof, stdout);
    fputc('\n', stdout);
    wm_profile_print_path(prof, stdout);
    bool ok = true;
    if (lines) ok = print_lines(prof, (size_t)lines_top, lines_csv);
    if (csv) ok = write_file(csv, wm_profile_write_csv, prof) && ok;
    if (chrome) ok = write_file(chrome, wm_profile_write_chrome, prof) && ok;
    if (folded) ok = write_file(folded, wm_profile_write_folded, prof) && ok;
    if (png && !wm_profile_write_png(prof, png, err, sizeof err)) {
        fprintf(stderr, "wavemesh profile: %s: %s\n", png, err);
        ok = false;
    }
    wm_profile_free(prof);
    status = wm_mpi_exit_status(&job, res == WM_RUN_DONE && ok ? 0 : 1);
    fflush(stdout);
    wm_partition_destroy(part);
    wm_mpi_close(&job);
    return status;
}
