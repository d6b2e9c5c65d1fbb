/* cmd_traffic.c: `wavemesh traffic`, synthetic traffic on one backend,
 * with BookSim-comparable latency and throughput and the simulation speed. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "mpi/partition.h"
#include "run/runner.h"
#include "run/stream.h"
#include "traffic/traffic.h"
#include "waves/interrupt.h"
#include "waves/progress.h"
#include "waves/waves.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char about[] =
    "Runs synthetic traffic and prints the average message latency and the\n"
    "accepted throughput, measured as BookSim2 does.\n";

static const char more[] =
    "Latency runs from a message's creation (source queue included) to the pop\n"
    "of its last wavelet at the destination (with --pe, from the firmware's read\n"
    "of the timestamp counter before the send to its read after that pop);\n"
    "beside the average, its 50th, 90th and 99th percentiles and maximum\n"
    "(nearest rank; with --len 2 or more, a message being told apart by its\n"
    "first data wavelet; with --pe, each kernel records its messages' latencies\n"
    "in its PE's data memory, which the host reads back after the run).\n"
    "Speed is router-cycles per second of CPU time: mesh size x cycles\n"
    "simulated / CPU seconds of the run.\n"
    "Started by mpirun or srun as one of several ranks, traffic splits the mesh\n"
    "into a block of tiles a rank, exchanging the links between blocks every\n"
    "cycle: each rank injects its block's messages and pops its block's\n"
    "destinations (with --pe, runs its block's PEs), and rank 0 prints what one\n"
    "process prints but the timing (the cpu line; the wall_s, cpu_s and\n"
    "router_cycles_per_s columns: rank 0's own). --trace FILE.fst makes each\n"
    "rank dump its block's tiles to FILE-rankK.fst (K the rank), which\n"
    "`wavemesh wavediff ONE.fst FILE-rank0.fst ...` compares with one process's\n"
    "(docs/distributed.md).\n";

static const char *const patterns[] = {"uniform", "transpose", "bitcomp", "hotspot", NULL};

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether --pe can run cfg's traffic; if not, says why. */
static bool firmware_traffic_fits(const wm_traffic_config *cfg)
{
    if (cfg->pattern != WM_PATTERN_UNIFORM && cfg->pattern != WM_PATTERN_TRANSPOSE) {
        fprintf(stderr, "wavemesh traffic: --pe runs the uniform or the transpose pattern, not %s\n",
                wm_pattern_name(cfg->pattern));
        return false;
    }
    if (cfg->len < 2 || cfg->len > 256) {
        fprintf(stderr, "wavemesh traffic: --pe needs --len 2..256 (a header and the send time at least), not %u\n",
                cfg->len);
        return false;
    }
    return true;
}

/* --pe: the stream kernel on every PE; with part, on this rank's block of
 * the mesh, one rank of the MPI job (rank 0 prints). */
static int firmware_traffic(const wm_fabric_ops *ops, unsigned w, unsigned h, const wm_traffic_config *cfg,
                            wm_pe_mode mode, bool csv, wm_partition *part, const wm_mpi_job *job)
{
    const double per_pe = cfg->rate * (double)cfg->sample / cfg->len;
    const unsigned count = per_pe < 1 ? 1u : (unsigned)(per_pe + 0.5);
    const double gap = cfg->len / cfg->rate;
    const wm_stream_spec spec = {w, h, cfg->pattern == WM_PATTERN_UNIFORM ? WM_STREAM_UNIFORM : WM_STREAM_TRANSPOSE,
                                 0, 0, count, cfg->len - 1, gap > 1e6 ? 1000000u : (unsigned)(gap + 0.5),
                                 (uint32_t)cfg->seed, true};
    wm_stream_expect *expect = NULL;
    char err[200];
    wm_layout *l = wm_stream_layout(&spec, &expect, err, sizeof err);
    if (!l) {
        if (!part || wm_partition_rank(part) == 0) fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 2;
    }
    wm_runner *r = part ? wm_runner_create_banded(ops, l, mode, part, NULL) : wm_runner_create_mode(ops, l, NULL, mode);
    if (!r) {
        if (part) job->ops->kill_job(1); /* the others wait on this rank's block: the job ends */
        free(expect);
        wm_layout_destroy(l);
        return 1;
    }
    /* Each PE's data memory: the kernel records its messages' latencies there. */
    wm_sched *s = wm_runner_sched(r);
    const size_t npe = wm_sched_pe_count(s);
    uint32_t *memory = calloc(npe ? npe * (size_t)WM_PE_DATA_WORDS : 1, sizeof *memory);
    if (!memory) {
        fprintf(stderr, "wavemesh traffic: out of memory for %zu PE data memories\n", npe);
        if (part) job->ops->kill_job(1);
        wm_runner_destroy(r);
        free(expect);
        wm_layout_destroy(l);
        return 1;
    }
    for (size_t i = 0; i < npe; i++) wm_sched_set_memory(s, i, memory + i * WM_PE_DATA_WORDS);
    const double wall_start = seconds_of(CLOCK_MONOTONIC), cpu_start = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
    const wm_run_result res = wm_runner_run(r, 100000000);
    const double wall = seconds_of(CLOCK_MONOTONIC) - wall_start;
    const double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    const uint64_t cycles = wm_sched_cycle(s);
    /* partitioned: every rank takes part in the report, rank 0 writes it */
    if (res != WM_RUN_DONE) wm_sched_report(s, res, stderr);
    if (part && wm_partition_rank(part) != 0) {
        /* the results and the data memories are whole on rank 0 alone (wm_sched_run) */
        wm_runner_destroy(r);
        free(memory);
        free(expect);
        wm_layout_destroy(l);
        return 0;
    }
    uint64_t arrived = 0, latency = 0, wrong = 0;
    size_t nrecord = 0; /* the PEs' records, gathered in place at the front of memory */
    bool whole = true;  /* every arrived message's latency recorded */
    for (size_t i = 0; i < npe; i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        int64_t got = 0, lat = 0, rec = 0;
        wm_sched_result(s, in->name, "received", &got);
        wm_sched_result(s, in->name, "latency", &lat);
        wm_sched_result(s, in->name, "recorded", &rec);
        arrived += (uint64_t)got;
        latency += (uint64_t)lat;
        if (got != (int64_t)expect[in->y * w + in->x].messages) wrong++;
        if (rec != got || rec < 0 || rec > WM_PE_DATA_WORDS) whole = false;
        if (rec < 0 || rec > WM_PE_DATA_WORDS) rec = 0;
        memmove(memory + nrecord, memory + i * WM_PE_DATA_WORDS, (size_t)rec * sizeof *memory);
        nrecord += (size_t)rec;
    }
    uint64_t p50 = 0, p90 = 0, p99 = 0, pmax = 0;
    const bool has_pct = res == WM_RUN_DONE && whole && wm_latency_percentiles(memory, nrecord, &p50, &p90, &p99, &pmax);
    char pct[4][24] = {"", "", "", ""};
    if (has_pct) {
        snprintf(pct[0], sizeof pct[0], "%" PRIu64, p50);
        snprintf(pct[1], sizeof pct[1], "%" PRIu64, p90);
        snprintf(pct[2], sizeof pct[2], "%" PRIu64, p99);
        snprintf(pct[3], sizeof pct[3], "%" PRIu64, pmax);
    }
    const uint64_t sent = (uint64_t)count * w * h;
    const double accepted = cycles ? (double)arrived * cfg->len / ((double)w * h * (double)cycles) : 0.0;
    const double avg = arrived ? (double)latency / (double)arrived : 0.0;
    const double speed = cpu > 0 ? (double)w * h * (double)cycles / cpu : 0.0;
    if (csv) {
        printf("backend,pe,mesh,pattern,rate,len,seed,messages,arrived,cycles,avg_latency,p50_latency,p90_latency,"
               "p99_latency,max_latency,accepted,wall_s,cpu_s,router_cycles_per_s\n");
        printf("%s,%s,%ux%u,%s,%g,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%.3f,%s,%s,%s,%s,%.4f,%.4f,%.4f,%.0f\n",
               ops->name, wm_pe_mode_name(mode), w, h, wm_pattern_name(cfg->pattern), cfg->rate, cfg->len, cfg->seed,
               sent, arrived, cycles, avg, pct[0], pct[1], pct[2], pct[3], accepted, wall, cpu, speed);
    } else {
        printf("backend %s  pe %s  mesh %ux%u  pattern %s  rate %g  len %u  seed %" PRIu64 "\n", ops->name,
               wm_pe_mode_name(mode), w, h, wm_pattern_name(cfg->pattern), cfg->rate, cfg->len, cfg->seed);
        printf("firmware traffic: %u messages a PE, one every %u cycles; %" PRIu64 " sent, %" PRIu64 " arrived%s\n",
               count, spec.gap, sent, arrived, wrong ? "" : ", every PE got what was sent to it");
        printf("cycles %" PRIu64 " until every PE was done\n", cycles);
        if (has_pct)
            printf("average latency %.2f cycles (p50 %" PRIu64 ", p90 %" PRIu64 ", p99 %" PRIu64 ", max %" PRIu64
                   ")\n",
                   avg, p50, p90, p99, pmax);
        else
            printf("average latency %.2f cycles (no percentiles: a PE received more than its data memory records)\n",
                   avg);
        printf("accepted %.4f wavelets/node/cycle over the run\n", accepted);
        printf("cpu %.3f s (wall %.3f s), %.2f M router-cycles/s of cpu\n", cpu, wall, speed / 1e6);
    }
    wm_runner_destroy(r);
    free(memory);
    free(expect);
    wm_layout_destroy(l);
    return res == WM_RUN_DONE && !wrong ? 0 : 1;
}

/* Synthetic traffic (traffic/traffic.h) on a w x h fabric of backend ops,
 * dumped as trace says: on a rank of part, its block's tiles to
 * FILE-rankK (wm_trace_spec_of_block). */
static int synthetic_traffic(const wm_fabric_ops *ops, unsigned w, unsigned h, const wm_traffic_config *cfg,
                             const wm_trace_spec *trace, bool csv, wm_partition *part, const wm_mpi_job *job)
{
    char err[600];
    const wm_trace_spec *dump = trace->path ? trace : NULL;
    wm_trace_spec block;
    char rank_path[4200];
    if (part && dump) {
        const int d = wm_trace_spec_of_block(trace, w, h, wm_partition_band(part), wm_partition_rank(part), &block,
                                             rank_path, sizeof rank_path, err, sizeof err);
        if (d < 0) {
            /* every rank finds the same: rank 0 says it */
            if (wm_partition_rank(part) == 0) fprintf(stderr, "wavemesh traffic: %s\n", err);
            return 2;
        }
        dump = d ? &block : NULL;
    }
    wm_waves *waves = NULL;
    if (dump && !(waves = wm_waves_create(dump, w, h, err, sizeof err))) {
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        if (part) job->ops->kill_job(1);
        return 2;
    }
    wm_fabric *f = NULL;
    if (part) {
        wm_fabric_config fc = wm_interrupt_fabric_config(ops);
        fc.band = wm_partition_band(part);
        /* the ranks are the run's parallel part: a rank steps its block on
         * one thread, unless WM_SW_THREADS asks otherwise */
        if (!getenv("WM_SW_THREADS")) fc.threads = WM_SW_THREADS_ONE;
        f = waves ? wm_waves_open_with(waves, ops, &fc) : wm_fabric_create(ops, w, h, false, &fc);
    } else if (waves) {
        f = wm_waves_open(waves, ops);
    } else {
        f = wm_interrupt_fabric_create(ops, w, h, false);
    }
    if (!f) {
        if (part) job->ops->kill_job(1); /* the others wait on this rank's block: the job ends */
        wm_waves_destroy(waves);
        return 1;
    }
    wm_traffic *t = part ? wm_traffic_create_banded(cfg, ops, f, w, h, part) : wm_traffic_create(cfg, ops, f, w, h);
    if (!t) {
        if (part) job->ops->kill_job(1);
        wm_waves_destroy(waves);
        ops->destroy(f);
        return 1;
    }
    const double wall_start = seconds_of(CLOCK_MONOTONIC), cpu_start = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
    /* One loop for both, so that an interrupt stops either between two
     * cycles (waves/interrupt.h). */
    wm_progress progress;
    wm_progress_begin(&progress, 0);
    if (part && wm_partition_rank(part) != 0) progress.tty = false; /* rank 0's line is the job's */
    while (!wm_traffic_done(t) && !wm_traffic_interrupted(t)) {
        wm_traffic_step(t);
        if (waves) wm_waves_sample(waves);
        if (wm_progress_due(&progress)) {
            const wm_traffic_result now = wm_traffic_result_now(t);
            char text[120];
            snprintf(text, sizeof text, "%" PRIu64 " messages in flight",
                     now.messages_created - now.messages_arrived - now.offmesh_messages);
            wm_progress_show(&progress, now.cycles, text);
        }
    }
    wm_progress_end(&progress);
    wm_traffic_gather(t);
    const wm_traffic_result r = wm_traffic_result_now(t);
    const bool interrupted = wm_traffic_interrupted(t);
    const double wall = seconds_of(CLOCK_MONOTONIC) - wall_start;
    const double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    wm_traffic_destroy(t);
    bool dumped = !waves || wm_waves_finish(waves);
    wm_waves_destroy(waves);
    ops->destroy(f);
    if (part && !interrupted) {
        /* a rank's dump lost is the job's */
        uint64_t lost = !dumped;
        wm_partition_sum(part, &lost, 1, r.cycles);
        dumped = !lost;
    }
    if (interrupted && part && wm_partition_rank(part) != 0) return 1; /* rank 0 says so */
    if (interrupted) {
        char why[200];
        wm_interrupt_describe(why, sizeof why);
        if (wm_interrupt_signal())
            fprintf(stderr, "wavemesh traffic: %s at cycle %" PRIu64 "\n", why, r.cycles);
        else
            fprintf(stderr, "wavemesh traffic: stopped at cycle %" PRIu64 ": %s\n", r.cycles, why);
        wm_interrupt_note_reported();
        return 1;
    }
    if (!dumped) return 1;
    /* CPU time, not wall time: the figure stays the model's own on a
     * machine that other jobs share. */
    const double speed = cpu > 0 ? (double)w * h * (double)r.cycles / cpu : 0.0;
    /* Percentiles need every sampled message told apart: len >= 2 and no
     * saturation; otherwise the CSV cells are empty. */
    char pct[4][24] = {"", "", "", ""};
    if (r.has_percentiles) {
        snprintf(pct[0], sizeof pct[0], "%" PRIu64, r.p50_latency);
        snprintf(pct[1], sizeof pct[1], "%" PRIu64, r.p90_latency);
        snprintf(pct[2], sizeof pct[2], "%" PRIu64, r.p99_latency);
        snprintf(pct[3], sizeof pct[3], "%" PRIu64, r.max_latency);
    }
    if (csv) {
        printf("backend,mesh,pattern,rate,len,seed,warmup,sample,cycles,sample_messages,sample_arrived,"
               "avg_latency,p50_latency,p90_latency,p99_latency,max_latency,offered,accepted,saturated,wall_s,cpu_s,"
               "router_cycles_per_s\n");
        printf("%s,%ux%u,%s,%g,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%.3f,%s,%s,%s,%s,%.4f,%.4f,%s,%.4f,%.4f,%.0f\n",
               ops->name, w, h, wm_pattern_name(cfg->pattern), cfg->rate, cfg->len, cfg->seed, cfg->warmup, cfg->sample,
               r.cycles, r.sample_messages, r.sample_arrived, r.avg_latency, pct[0], pct[1], pct[2], pct[3], r.offered,
               r.accepted,
               r.saturated ? "yes" : "no", wall, cpu, speed);
        return 0;
    }
    printf("backend %s  mesh %ux%u  pattern %s  rate %g  len %u  seed %" PRIu64 "\n", ops->name, w, h,
           wm_pattern_name(cfg->pattern), cfg->rate, cfg->len, cfg->seed);
    printf("cycles %" PRIu64 " (warm-up %" PRIu64 ", sample %" PRIu64 ", drain %" PRIu64 ")\n", r.cycles, cfg->warmup,
           cfg->sample, r.cycles - cfg->warmup - cfg->sample);
    printf("sampled messages %" PRIu64 ", arrived %" PRIu64 "\n", r.sample_messages, r.sample_arrived);
    if (r.saturated)
        printf("average latency: saturated (sampled messages still in flight after the drain)\n");
    else if (r.has_percentiles)
        printf("average latency %.2f cycles (p50 %" PRIu64 ", p90 %" PRIu64 ", p99 %" PRIu64 ", max %" PRIu64
               " cycles)\n",
               r.avg_latency, r.p50_latency, r.p90_latency, r.p99_latency, r.max_latency);
    else
        printf("average latency %.2f cycles (percentiles need --len 2 or more)\n", r.avg_latency);
    printf("offered %.4f, accepted %.4f wavelets/node/cycle\n", r.offered, r.accepted);
    printf("cpu %.3f s (wall %.3f s), %.2f M router-cycles/s of cpu\n", cpu, wall, speed / 1e6);
    return 0;
}

/* Traffic on one block of the mesh a rank, as one rank of an MPI job
 * (docs/distributed.md): synthetic, or with pe_given the firmware's in
 * mode. Rank 0 prints what one process prints, the others nothing, and
 * every rank exits with rank 0's status. -1: a job of one process, to run
 * as without a launcher. */
static int partitioned_traffic(const wm_fabric_ops *ops, unsigned w, unsigned h, const wm_traffic_config *cfg,
                               const wm_trace_spec *trace, bool csv, bool pe_given, wm_pe_mode mode)
{
    char err[600];
    wm_mpi_job job;
    if (!wm_mpi_open(&job, err, sizeof err)) {
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 1;
    }
    if (!job.ops) return -1;
    if (!ops->band_edge_out || !ops->band_edge_in) {
        if (job.rank == 0)
            fprintf(stderr,
                    "wavemesh traffic: --backend %s cannot hold one block of a mesh: under mpirun use rtl or sw\n",
                    ops->name);
        wm_mpi_close(&job);
        return 2;
    }
    wm_partition *part = wm_partition_create(&job, "traffic", w, h, err, sizeof err);
    if (!part) {
        if (job.rank == 0) fprintf(stderr, "wavemesh traffic: %s\n", err);
        wm_mpi_close(&job);
        return 2;
    }
    if (job.rank != 0) {
        /* standard output is main.c's writer onto descriptor 1: the descriptor goes to /dev/null */
        const int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0) {
            fprintf(stderr, "wavemesh traffic: rank %d: /dev/null: %s\n", job.rank, strerror(errno));
            job.ops->kill_job(1);
            return 1;
        }
        close(null);
    }
    const int ran = pe_given ? firmware_traffic(ops, w, h, cfg, mode, csv, part, &job)
                             : synthetic_traffic(ops, w, h, cfg, trace, csv, part, &job);
    const int status = wm_mpi_exit_status(&job, ran);
    fflush(stdout);
    wm_partition_destroy(part);
    wm_mpi_close(&job);
    return status;
}

int wm_cmd_traffic(int argc, char **argv)
{
    bool pe_given = false, csv = false, drain_given = false;
    const char *backend = "sw", *pe = "native", *pattern = "uniform";
    long long mesh[2] = {8, 8}, hotspot[2] = {-1, -1};
    wm_traffic_config cfg = wm_traffic_config_default();
    unsigned long long len = cfg.len, pop_interval = cfg.pop_interval, sample = cfg.sample, warmup = cfg.warmup,
                       drain = cfg.drain_max, seed = cfg.seed;
    wm_trace_spec trace = wm_trace_spec_default();
    const wm_option options[] = {
        WM_OPT_CHOICE_ROW("--backend", &backend, wm_backend_words, "the fabric model (default sw)"),
        WM_OPT_PAIR_ROW("--mesh", "WxH", 'x', mesh, 1, WM_MESH_MAX, "mesh size (default 8x8)"),
        WM_OPT_CHOICE_ROW("--pattern", &pattern, patterns, "the traffic pattern (default uniform)"),
        WM_OPT_REAL_ROW("--rate", "R", &cfg.rate, 0.0, 1.0,
                        "offered load, wavelets per node per cycle, Bernoulli (default 0.1)"),
        WM_OPT_U64_ROW("--len", "L", &len, 1, WM_LEN_MAX + 1, "wavelets per message, header included (default 4)"),
        WM_OPT_U64_ROW("--cycles", "N", &sample, 1, UINT32_MAX, "the sample period, cycles (default 1000)"),
        WM_OPT_U64_ROW("--warmup", "N", &warmup, 0, UINT32_MAX, "cycles before the sample period (default 1000)"),
        {"--drain", "N", WM_OPT_U64, .to.u = &drain, .umin = 0, .umax = UINT32_MAX, .given = &drain_given,
         .help = "at most this many cycles after it for the sampled messages to arrive, else the run is "
                 "saturated (default 10 x cycles)"},
        WM_OPT_U64_ROW("--seed", "S", &seed, 0, UINT64_MAX, "random seed (default 1)"),
        WM_OPT_U64_ROW("--pop-interval", "K", &pop_interval, 1, 1000000,
                       "PEs pop at most once every K cycles (default 1: every cycle)"),
        WM_OPT_PAIR_ROW("--hotspot", "X,Y", ',', hotspot, 0, WM_MESH_MAX - 1, "the hotspot PE (default the centre)"),
        WM_OPT_REAL_ROW("--hotspot-fraction", "F", &cfg.hotspot_fraction, 0.0, 1.0,
                        "the hotspot's share of the messages (default 0.2)"),
        WM_OPT_REAL_ROW("--offmesh", "F", &cfg.offmesh_fraction, 0.0, 1.0,
                        "the share of the messages addressed beyond the mesh's edge, which their source's router "
                        "discards (default 0)"),
        {"--pe", NULL, WM_OPT_CHOICE, .to.word = &pe, .words = wm_pe_words, .given = &pe_given,
         .help = "firmware traffic instead: every PE runs the stream kernel (sw/traffic/stream.c), natively or "
                 "on its core (docs/core.md), sending rate x cycles / len messages of len wavelets, one every "
                 "len / rate cycles, uniform or transpose, and receiving what is sent to it; every receiver's "
                 "count and sum are checked. Needs len >= 2 (the first data wavelet carries the send time); the "
                 "run lasts until every PE is done"},
        WM_OPT_FLAG_ROW("--csv", &csv, "one CSV header line and one row instead of text"),
        WM_OPT_TRACE_ROWS(&trace),
    };
    const wm_opts opts = WM_OPTS("traffic", options, about, more);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    const unsigned w = (unsigned)mesh[0], h = (unsigned)mesh[1];
    if (!wm_pattern_parse(pattern, &cfg.pattern)) { /* the table accepted only its words */
        fprintf(stderr, "wavemesh traffic: --pattern %s: not a pattern of the traffic layer\n", pattern);
        return 2;
    }
    const wm_pe_mode mode = wm_pe_mode_of(pe);
    cfg.len = (unsigned)len;
    cfg.sample = sample;
    cfg.warmup = warmup;
    cfg.drain_max = drain;
    cfg.seed = seed;
    cfg.pop_interval = (unsigned)pop_interval;
    if (hotspot[0] >= 0) cfg.hotspot_x = (unsigned)hotspot[0], cfg.hotspot_y = (unsigned)hotspot[1];
    if (!drain_given) cfg.drain_max = 10 * cfg.sample;
    if (!wm_trace_options_check("traffic", &trace)) return 2;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    char err[160];
    if (!wm_traffic_config_check(&cfg, w, h, err, sizeof err)) {
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 2;
    }
    if (pe_given && !firmware_traffic_fits(&cfg)) return 2;
    if (pe_given && trace.path) {
        fprintf(stderr, "wavemesh traffic: --trace with --pe: dump the layout with `wavemesh run` instead\n");
        return 2;
    }
    if (wm_partition_wanted()) {
        const int st = partitioned_traffic(ops, w, h, &cfg, &trace, csv, pe_given, mode);
        if (st >= 0) return st;
    }
    if (pe_given) return firmware_traffic(ops, w, h, &cfg, mode, csv, NULL, NULL);
    return synthetic_traffic(ops, w, h, &cfg, &trace, csv, NULL, NULL);
}
