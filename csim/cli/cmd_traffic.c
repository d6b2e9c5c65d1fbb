/* cmd_traffic.c: `wavemesh traffic`, synthetic traffic on one backend,
 * with BookSim-comparable latency and throughput and the simulation speed. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "run/runner.h"
#include "run/stream.h"
#include "traffic/traffic.h"
#include "waves/interrupt.h"
#include "waves/progress.h"
#include "waves/waves.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wavemesh traffic [--backend rtl|sw] [--mesh WxH] [--pattern NAME] [--rate R] [--len L]\n"
            "                        [--cycles N] [--warmup N] [--drain N] [--seed S] [--pop-interval K]\n"
            "                        [--hotspot X,Y] [--hotspot-fraction F] [--pe native|core] [--csv]\n"
            "Runs synthetic traffic and prints the average message latency and the\n"
            "accepted throughput, measured as BookSim2 does:\n"
            "  --backend      the fabric model (default sw)\n"
            "  --mesh         mesh size, 1x1 .. 256x256 (default 8x8)\n"
            "  --pattern      uniform, transpose, bitcomp or hotspot (default uniform)\n"
            "  --rate         offered load, wavelets per node per cycle, Bernoulli (default 0.1)\n"
            "  --len          wavelets per message, header included, 1..256 (default 4)\n"
            "  --cycles       the sample period, cycles (default 1000)\n"
            "  --warmup       cycles before the sample period (default 1000)\n"
            "  --drain        at most this many cycles after it for the sampled messages\n"
            "                 to arrive, else the run is saturated (default 10 x cycles)\n"
            "  --seed         random seed (default 1)\n"
            "  --pop-interval PEs pop at most once every K cycles (default 1: every cycle)\n"
            "  --hotspot      the hotspot PE (default the centre); --hotspot-fraction its\n"
            "                 share of the messages (default 0.2)\n"
            "  --csv          one CSV header line and one row instead of text\n"
            "  --pe           firmware traffic instead: every PE runs the stream kernel\n"
            "                 (sw/traffic/stream.c), natively or on its core (docs/core.md),\n"
            "                 sending rate x cycles / len messages of len wavelets, one\n"
            "                 every len / rate cycles, uniform or transpose, and\n"
            "                 receiving what is sent to it; every receiver's count and sum\n"
            "                 are checked. Needs len >= 2 (the first data wavelet carries\n"
            "                 the send time); the run lasts until every PE is done.\n"
            "Latency runs from a message's creation (source queue included) to the pop\n"
            "of its last wavelet at the destination (with --pe, from the firmware's read\n"
            "of the timestamp counter before the send to its read after that pop);\n"
            "beside the average, its 50th, 90th and 99th percentiles and maximum\n"
            "(nearest rank; with --len 2 or more, a message being told apart by its\n"
            "first data wavelet; with --pe, each kernel records its messages' latencies\n"
            "in its PE's data memory, which the host reads back after the run).\n"
            "Speed is router-cycles per second of CPU time: mesh size x cycles\n"
            "simulated / CPU seconds of the run.\n");
    fputs(wm_trace_usage, out);
}

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --pe: the stream kernel on every PE. */
static int firmware_traffic(const wm_fabric_ops *ops, unsigned w, unsigned h, const wm_traffic_config *cfg,
                            wm_pe_mode mode, bool csv)
{
    if (cfg->pattern != WM_PATTERN_UNIFORM && cfg->pattern != WM_PATTERN_TRANSPOSE) {
        fprintf(stderr, "wavemesh traffic: --pe runs the uniform or the transpose pattern, not %s\n",
                wm_pattern_name(cfg->pattern));
        return 2;
    }
    if (cfg->len < 2 || cfg->len > 256) {
        fprintf(stderr, "wavemesh traffic: --pe needs --len 2..256 (a header and the send time at least), not %u\n",
                cfg->len);
        return 2;
    }
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
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 2;
    }
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, mode);
    if (!r) {
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
    if (res != WM_RUN_DONE) wm_sched_report(s, res, stderr);
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

int wm_cmd_traffic(int argc, char **argv)
{
    bool pe_given = false;
    wm_pe_mode mode = WM_PE_NATIVE;
    const char *backend = "sw";
    unsigned w = 8, h = 8;
    bool csv = false, drain_given = false;
    wm_traffic_config cfg = wm_traffic_config_default();
    wm_trace_spec trace = wm_trace_spec_default();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        const int traced = wm_trace_option(&trace, argc, argv, &i, "traffic");
        if (traced < 0) return 2;
        if (traced) continue;
        if (!strcmp(a, "--csv")) {
            csv = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "wavemesh traffic: '%s' needs a value, or is unknown (see --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        unsigned long long u = 0;
        long long pa, pb;
        bool ok = true, reported = true;
        if (!strcmp(a, "--backend")) backend = v;
        else if (!strcmp(a, "--pe")) ok = reported = pe_given = wm_pe_mode_parse(v, &mode);
        else if (!strcmp(a, "--mesh")) {
            ok = wm_arg_pair("traffic", a, v, 'x', 1, WM_MESH_MAX, &pa, &pb);
            w = (unsigned)pa;
            h = (unsigned)pb;
        }
        else if (!strcmp(a, "--pattern")) ok = reported = wm_pattern_parse(v, &cfg.pattern);
        else if (!strcmp(a, "--rate")) ok = wm_arg_real("traffic", a, v, 0.0, 1.0, &cfg.rate);
        else if (!strcmp(a, "--len")) {
            ok = wm_arg_u64("traffic", a, v, 1, WM_LEN_MAX + 1, &u);
            cfg.len = (unsigned)u;
        }
        else if (!strcmp(a, "--cycles")) ok = wm_arg_u64("traffic", a, v, 1, UINT32_MAX, &u), cfg.sample = u;
        else if (!strcmp(a, "--warmup")) ok = wm_arg_u64("traffic", a, v, 0, UINT32_MAX, &u), cfg.warmup = u;
        else if (!strcmp(a, "--drain")) {
            ok = wm_arg_u64("traffic", a, v, 0, UINT32_MAX, &u);
            cfg.drain_max = u;
            drain_given = true;
        }
        else if (!strcmp(a, "--seed")) ok = wm_arg_u64("traffic", a, v, 0, UINT64_MAX, &u), cfg.seed = u;
        else if (!strcmp(a, "--pop-interval")) {
            ok = wm_arg_u64("traffic", a, v, 1, 1000000, &u);
            cfg.pop_interval = (unsigned)u;
        }
        else if (!strcmp(a, "--hotspot")) {
            ok = wm_arg_pair("traffic", a, v, ',', 0, WM_MESH_MAX - 1, &pa, &pb);
            cfg.hotspot_x = (unsigned)pa;
            cfg.hotspot_y = (unsigned)pb;
        }
        else if (!strcmp(a, "--hotspot-fraction")) ok = wm_arg_real("traffic", a, v, 0.0, 1.0, &cfg.hotspot_fraction);
        else {
            fprintf(stderr, "wavemesh traffic: unknown argument '%s' (see --help)\n", a);
            return 2;
        }
        if (!ok) {
            if (!reported)
                fprintf(stderr, "wavemesh traffic: bad value '%s' for %s (%s)\n", v, a,
                        !strcmp(a, "--pe") ? "native or core" : "uniform, transpose, bitcomp or hotspot");
            return 2;
        }
    }
    if (!drain_given) cfg.drain_max = 10 * cfg.sample;
    if (!wm_trace_spec_check(&trace, "traffic")) return 2;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops) {
        fprintf(stderr, "wavemesh traffic: unknown backend '%s' (rtl or sw)\n", backend);
        return 2;
    }
    char err[160];
    if (!wm_traffic_config_check(&cfg, w, h, err, sizeof err)) {
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 2;
    }
    if (pe_given) {
        if (trace.path) {
            fprintf(stderr, "wavemesh traffic: --trace with --pe: dump the layout with `wavemesh run` instead\n");
            return 2;
        }
        return firmware_traffic(ops, w, h, &cfg, mode, csv);
    }
    wm_waves *waves = NULL;
    if (trace.path && !(waves = wm_waves_create(&trace, w, h, err, sizeof err))) {
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 2;
    }
    wm_fabric *f = waves ? wm_waves_open(waves, ops) : wm_interrupt_fabric_create(ops, w, h, false);
    if (!f) {
        wm_waves_destroy(waves);
        return 1;
    }
    wm_traffic *t = wm_traffic_create(&cfg, ops, f, w, h);
    if (!t) {
        wm_waves_destroy(waves);
        ops->destroy(f);
        return 1;
    }
    const double wall_start = seconds_of(CLOCK_MONOTONIC), cpu_start = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
    /* One loop for both, so that an interrupt stops either between two
     * cycles (waves/interrupt.h). */
    wm_progress progress;
    wm_progress_begin(&progress, 0);
    while (!wm_traffic_done(t) && !wm_interrupt_pending()) {
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
    const wm_traffic_result r = wm_traffic_result_now(t);
    const bool interrupted = wm_interrupt_pending();
    const double wall = seconds_of(CLOCK_MONOTONIC) - wall_start;
    const double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    wm_traffic_destroy(t);
    const bool dumped = !waves || wm_waves_finish(waves);
    wm_waves_destroy(waves);
    ops->destroy(f);
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
               ops->name, w, h, wm_pattern_name(cfg.pattern), cfg.rate, cfg.len, cfg.seed, cfg.warmup, cfg.sample,
               r.cycles, r.sample_messages, r.sample_arrived, r.avg_latency, pct[0], pct[1], pct[2], pct[3], r.offered,
               r.accepted,
               r.saturated ? "yes" : "no", wall, cpu, speed);
        return 0;
    }
    printf("backend %s  mesh %ux%u  pattern %s  rate %g  len %u  seed %" PRIu64 "\n", ops->name, w, h,
           wm_pattern_name(cfg.pattern), cfg.rate, cfg.len, cfg.seed);
    printf("cycles %" PRIu64 " (warm-up %" PRIu64 ", sample %" PRIu64 ", drain %" PRIu64 ")\n", r.cycles, cfg.warmup,
           cfg.sample, r.cycles - cfg.warmup - cfg.sample);
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
