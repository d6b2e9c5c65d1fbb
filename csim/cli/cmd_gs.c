/* cmd_gs.c: `wavemesh gs` runs one gather-scatter gs_op(sum) on the fabric
 * with one of three methods and prints its cost and a checksum. */
#include "cli/commands.h"
#include "run/heatmap.h"
#include "fabric/fabric.h"
#include "mpi/partition.h"
#include "gs/generate.h"
#include "gs/job.h"
#include "gs/rank_layout.h"
#include "mp.h" /* WM_PE_DATA_BYTES */
#include "waves/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char about[] =
    "Runs one gather-scatter gs_op(sum) over float32 dofs of W*H ranks, one per PE\n"
    "of a WxH mesh, numbered row-major or snake. Every copy of a shared dof ends as\n"
    "the sum of all copies, added in ascending rank order (fold: see below).\n"
    "--dofs is the number of dofs on one shared face (chain: per neighbour; grid: a\n"
    "face, plus its corners; star: the dofs every rank of a group of --multiplicity\n"
    "K ranks shares, each a vertex of multiplicity K, besides as many private ones).\n"
    "  pairwise  one transfer per peer, directly\n"
    "  crystal   the setup-phase crystal router: records routed in ceil(log2 P)\n"
    "            bisection stages, sizes negotiated over the fabric each stage\n"
    "  plan      the crystal plan: the symbolic pass runs first (its cycles are\n"
    "            printed apart), then the gs_op replays it with known sizes\n"
    "  fold      the folding crystal router: relays add the contributions to one\n"
    "            dof on the way to its lowest holder, which sends the sum back;\n"
    "            the sums are added in the bisection's order, not rank order\n"
    "  auto      every other method under both pairing rules runs its gs_op in the\n"
    "            set-up (printed apart), timed on the PEs; they keep the fastest\n"
    "            and the gs_op runs it; the candidates' cycles are printed\n"
    "Prints the gs_op's cycles, payload words (wavelets less each message's header\n"
    "and routing word), messages, wavelets, wavelet-hops, active stages and\n"
    "a checksum, and whether the result equals the reference bit for bit (exit 1\n"
    "if not). --write-layout writes the rank-grid layout and exits. --pe core runs\n"
    "the gs kernel's firmware (`make firmware`) on each PE's RV32IM core, the float\n"
    "adds in the compiler's soft float (docs/core.md); native runs it on the host.\n"
    "--jitter SEED runs each kernel under the schedule of SEED (docs/kernels.md):\n"
    "each rank's start delayed, its pushes and pops stalled; the sums, the\n"
    "checksum and the reference's verdict stay, the cycles move.\n"
    "--heatmap PREFIX draws, for each crystal-router stage of the gs_op, the\n"
    "wavelets each link carried per direction (PREFIX-stageN.png, gnuplot): a\n"
    "message counts in the stage its header's tag names (pairwise: one stage).\n"
    "Under mpirun the mesh is partitioned over the ranks and rank 0 prints what\n"
    "one process prints (docs/distributed.md); with --heatmap the ranks sum\n"
    "their blocks' link counts and rank 0 draws the pictures.\n";

static const char *const schedules[] = {"chain", "grid", "random", "star", NULL};
static const char *const methods[] = {"pairwise", "crystal", "plan", "fold", "auto", NULL};
static const char *const pairings[] = {"neko", "gslib", NULL};
static const char *const orders[] = {"rowmajor", "snake", NULL};
/* The rtl-mesh backend has no gs: its mesh is of one fixed size. */
static const char *const backends[] = {"rtl", "sw", NULL};

/* wm_heatmap_summer over the ranks of a partitioned gs run */
static void sum_ranks(void *ctx, uint64_t *vals, size_t n) { wm_partition_sum(ctx, vals, n, 0); }

int wm_cmd_gs(int argc, char **argv)
{
    wm_gs_config cfg = {0};
    wm_gs_kind kind = WM_GS_GRID;
    long long ranks[2] = {4, 4};
    unsigned long long dofs = 4, seed = 1, multiplicity = 0, jitter = 0;
    const char *schedule = "grid", *method = "plan", *pairing = "neko", *order = "rowmajor", *backend = "sw",
               *pe = "native", *layout_out = NULL, *heatmap = NULL;
    /* The limit that applies: a rank's dofs, a word each, in the PE's data
     * memory (the image needs more besides). */
    char dofs_help[300];
    snprintf(dofs_help, sizeof dofs_help,
             "dofs on one shared face (default 4); refused before any work when a rank's dofs alone overflow the "
             "PE's data memory: above %u for grid, %u for chain, %u for random (3 or more ranks); the image "
             "needs room besides",
             wm_gs_generate_dofs_max(WM_GS_GRID, 4, 4), wm_gs_generate_dofs_max(WM_GS_CHAIN, 4, 4),
             wm_gs_generate_dofs_max(WM_GS_RANDOM, 4, 4));
    const wm_option options[] = {
        WM_OPT_PAIR_ROW("--ranks", "WxH", 'x', ranks, 1, WM_MESH_MAX, "the rank grid, one rank a PE (default 4x4)"),
        WM_OPT_CHOICE_ROW("--schedule", &schedule, schedules, "which dofs the ranks share (default grid)"),
        WM_OPT_U64_ROW("--dofs", "N", &dofs, 1, WM_GS_DOFS_ROOM, dofs_help),
        WM_OPT_U64_ROW("--multiplicity", "K", &multiplicity, 1, WM_MESH_MAX * WM_MESH_MAX,
                       "star: ranks in each group sharing its --dofs dofs, K <= P (default P: every rank)"),
        WM_OPT_CHOICE_ROW("--method", &method, methods, "how the gs_op moves them (default plan)"),
        WM_OPT_CHOICE_ROW("--pairing", &pairing, pairings, "the crystal router's pairing rule (default neko)"),
        WM_OPT_CHOICE_ROW("--order", &order, orders, "how the ranks are numbered on the mesh (default rowmajor)"),
        WM_OPT_CHOICE_ROW("--backend", &backend, backends, "the fabric model (default sw)"),
        WM_OPT_CHOICE_ROW("--pe", &pe, wm_pe_words, "where the gs kernel runs (default native)"),
        WM_OPT_U64_ROW("--seed", "S", &seed, 0, UINT64_MAX, "the random schedule's seed (default 1)"),
        WM_OPT_U64_ROW("--jitter", "SEED", &jitter, 1, UINT64_MAX,
                       "perturb the timing of every run: delay each rank's start, stall its pushes and pops "
                       "(docs/kernels.md)"),
        WM_OPT_OUTPUT_ROW("--write-layout", "FILE", &layout_out, "write the rank-grid layout to FILE and exit"),
        WM_OPT_STRING_ROW("--heatmap", "PREFIX", &heatmap, "a picture per stage, PREFIX-stageN.png"),
    };
    const wm_opts opts = WM_OPTS("gs", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    cfg.w = (unsigned)ranks[0];
    cfg.h = (unsigned)ranks[1];
    /* The table accepted only these words, so each parse succeeds. */
    if (!wm_gs_kind_parse(schedule, &kind) || !wm_gs_method_parse(method, &cfg.method) ||
        !wm_pairing_parse(pairing, &cfg.pairing) || !wm_rank_order_parse(order, &cfg.order)) {
        fprintf(stderr, "wavemesh gs: a choice the option table accepted is not known to the gs layer\n");
        return 2;
    }
    cfg.pe = wm_pe_mode_of(pe);
    cfg.jitter = jitter;
    if (multiplicity && kind != WM_GS_STAR) {
        fprintf(stderr, "wavemesh gs: --multiplicity applies to --schedule star only\n");
        return 2;
    }
    if (multiplicity > (unsigned long long)cfg.w * cfg.h) {
        fprintf(stderr, "wavemesh gs: --multiplicity %llu: more than the %u ranks of --ranks %ux%u (1..%u)\n",
                multiplicity, cfg.w * cfg.h, cfg.w, cfg.h, cfg.w * cfg.h);
        return 2;
    }
    if (layout_out) {
        char err[4200];
        wm_outfile *o = wm_outfile_begin(layout_out, true, err, sizeof err);
        if (o && !wm_rank_layout_write(wm_outfile_stream(o), cfg.w, cfg.h, cfg.order)) wm_outfile_fail(o, errno);
        if (!o || !wm_outfile_commit(o, err, sizeof err)) {
            fprintf(stderr, "wavemesh gs: --write-layout: %s\n", err);
            return 1;
        }
        return 0;
    }
    cfg.backend = wm_fabric_backend(backend);
    /* Before the schedule is made: millions of dofs take minutes. */
    char limit[600];
    if (!wm_gs_generate_check(kind, cfg.w, cfg.h, (unsigned)dofs, limit, sizeof limit)) {
        fprintf(stderr, "wavemesh gs: %s\n", limit);
        return 2;
    }
    wm_gs_schedule *s = kind == WM_GS_STAR && multiplicity
                            ? wm_gs_generate_star(cfg.w * cfg.h, (unsigned)multiplicity, (unsigned)dofs)
                            : wm_gs_generate(kind, cfg.w, cfg.h, cfg.order, (unsigned)dofs, seed);
    if (!s) {
        fprintf(stderr, "wavemesh gs: cannot make the %s schedule\n", wm_gs_kind_name(kind));
        return 1;
    }
    /* The setup-phase router and the folding router tag a stage's
     * messages 2 * stage (+1; fold's down pass from stage S on), the
     * plan's gs_op stage itself; auto's gs_op is the candidate's, known
     * only after its setup, and is drawn as the plan's. */
    const bool by_pairs = cfg.method == WM_GS_CRYSTAL || cfg.method == WM_GS_FOLD;
    wm_heatmap *m = heatmap ? wm_heatmap_create_staged(cfg.w, cfg.h, by_pairs ? 1 : 0) : NULL;
    if (heatmap && !m) {
        fprintf(stderr, "wavemesh gs: out of memory for the heatmap\n");
        return 1;
    }
    cfg.op_hook = m ? wm_heatmap_record : NULL;
    cfg.op_hook_ctx = m;
    /* Under mpirun every rank runs the job on its block of the mesh; rank
     * 0 prints what one process prints, the others nothing. */
    wm_mpi_job job = {0};
    FILE *diag = stderr, *quiet = NULL;
    if (wm_partition_wanted()) {
        char why[600];
        if (!wm_mpi_open(&job, why, sizeof why)) {
            fprintf(stderr, "wavemesh gs: %s\n", why);
            wm_gs_schedule_destroy(s);
            return 1;
        }
        if (job.ops) cfg.part = wm_partition_create(&job, "gs", cfg.w, cfg.h, why, sizeof why);
        if (job.ops && !cfg.part) {
            if (job.rank == 0) fprintf(stderr, "wavemesh gs: %s\n", why);
            wm_mpi_close(&job);
            wm_gs_schedule_destroy(s);
            return 2;
        }
        if (job.ops && job.rank != 0) {
            /* standard output is main.c's writer onto descriptor 1: the descriptor goes to /dev/null */
            const int null = open("/dev/null", O_WRONLY);
            quiet = fopen("/dev/null", "w");
            if (null < 0 || !quiet || dup2(null, STDOUT_FILENO) < 0) {
                fprintf(stderr, "wavemesh gs: rank %d: /dev/null: %s\n", job.rank, strerror(errno));
                job.ops->kill_job(1);
            }
            close(null);
            diag = quiet;
        }
    }
    wm_gs_job *j = wm_gs_job_create(&cfg, s, diag);
    int rc = 1;
    wm_gs_result r;
    if (j && wm_gs_job_run(j, &r, diag)) {
        char shape[64];
        snprintf(shape, sizeof shape, "%s", wm_gs_kind_name(kind));
        if (kind == WM_GS_STAR)
            snprintf(shape, sizeof shape, "star (multiplicity %llu)", multiplicity ? multiplicity : cfg.w * cfg.h);
        char jittered[40] = "";
        if (jitter) snprintf(jittered, sizeof jittered, ", jitter %llu", jitter);
        printf("gs: %u ranks (%ux%u, %s), schedule %s, %llu dofs a face, method %s, pairing %s, backend %s%s%s\n",
               cfg.w * cfg.h, cfg.w, cfg.h, wm_rank_order_name(cfg.order), shape, dofs,
               wm_gs_method_name(cfg.method), wm_pairing_name(cfg.pairing), cfg.backend->name,
               cfg.pe == WM_PE_CORE ? ", pe core" : "", jittered);
        printf("setup cycles: %" PRIu64 "\n", r.setup_cycles);
        if (cfg.method == WM_GS_AUTO) wm_gs_print_auto(stdout, &r);
        printf("gs_op cycles: %" PRIu64 "\n", r.op_cycles);
        printf("messages: %" PRIu64 "\n", r.messages);
        printf("wavelets: %" PRIu64 "\n", r.wavelets);
        printf("payload words: %" PRIu64 "\n", r.wavelets - 2 * r.messages);
        printf("wavelet-hops: %" PRIu64 "\n", r.wavelet_hops);
        printf("active stages: %u (most on one rank; %u used)\n", r.active_stages, r.stages_used);
        printf("checksum: %016" PRIx64 "\n", r.checksum);
        printf("PE data memory: %u bytes at most on one rank (image and heap), of %d\n",
               4 * wm_gs_job_memory_high(j), WM_PE_DATA_BYTES);
        printf("reference: %s\n", r.matches_reference ? "bit-exact" : "MISMATCH");
        rc = r.matches_reference ? 0 : 1;
        /* each rank saw its block's links: summed, rank 0 draws them */
        if (m && cfg.part) wm_heatmap_sum_staged(m, sum_ranks, cfg.part);
        for (size_t p = 0; m && (!job.ops || job.rank == 0) && p < wm_heatmap_phases(m); p++) {
            uint64_t dir[4] = {0, 0, 0, 0};
            for (unsigned y = 0; y < cfg.h; y++)
                for (unsigned x = 0; x < cfg.w; x++)
                    for (int d = 0; d < 4; d++) dir[d] += wm_heatmap_count(m, p, x, y, (wm_port)d);
            char png[4096], title[300], err[300];
            snprintf(png, sizeof png, "%s-%s.png", heatmap, wm_heatmap_phase_name(m, p));
            snprintf(title, sizeof title, "gs %s, %s pairing, %ux%u ranks: the gs_op's stage %zu (wavelets per link)",
                     wm_gs_method_name(cfg.method), wm_pairing_name(cfg.pairing), cfg.w, cfg.h, p);
            printf("stage %zu: wavelets north %" PRIu64 ", east %" PRIu64 ", south %" PRIu64 ", west %" PRIu64 "\n", p,
                   dir[0], dir[1], dir[2], dir[3]);
            if (!wm_heatmap_plot(m, p, title, png, err, sizeof err)) {
                fprintf(stderr, "wavemesh gs: %s\n", err);
                rc = 1;
                break;
            }
            printf("heatmap: %s\n", png);
        }
    }
    rc = wm_mpi_exit_status(&job, rc);
    fflush(stdout);
    wm_heatmap_destroy(m);
    wm_gs_job_destroy(j);
    wm_gs_schedule_destroy(s);
    wm_partition_destroy(cfg.part);
    wm_mpi_close(&job);
    if (quiet) fclose(quiet);
    return rc;
}
