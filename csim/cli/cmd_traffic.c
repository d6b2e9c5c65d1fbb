/* cmd_traffic.c: `wavemesh traffic`, synthetic traffic on one backend,
 * with BookSim-comparable latency and throughput and the simulation speed. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "traffic/traffic.h"
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
            "usage: wavemesh traffic [--backend rtl|sw] [--mesh WxH] [--pattern P] [--rate R] [--len L]\n"
            "                        [--cycles N] [--warmup N] [--drain N] [--seed S] [--pop-interval K]\n"
            "                        [--hotspot X,Y] [--hotspot-fraction F] [--csv]\n"
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
            "Latency runs from a message's creation (source queue included) to the pop\n"
            "of its last wavelet at the destination. Speed is router-cycles per second\n"
            "of CPU time: mesh size x cycles simulated / CPU seconds of the run.\n");
    fputs(wm_trace_usage, out);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-') return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) return false;
    *out = v;
    return true;
}

static bool parse_pair(const char *s, char sep, unsigned *a, unsigned *b)
{
    char extra;
    char fmt[16];
    snprintf(fmt, sizeof fmt, "%%u%c%%u%%c", sep);
    return sscanf(s, fmt, a, b, &extra) == 2;
}

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int wm_cmd_traffic(int argc, char **argv)
{
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
        uint64_t u = 0;
        bool ok = true;
        if (!strcmp(a, "--backend")) backend = v;
        else if (!strcmp(a, "--mesh")) ok = parse_pair(v, 'x', &w, &h);
        else if (!strcmp(a, "--pattern")) ok = wm_pattern_parse(v, &cfg.pattern);
        else if (!strcmp(a, "--rate")) ok = parse_double(v, &cfg.rate);
        else if (!strcmp(a, "--len")) {
            ok = parse_u64(v, &u) && u <= 1000000;
            cfg.len = (unsigned)u;
        }
        else if (!strcmp(a, "--cycles")) ok = parse_u64(v, &cfg.sample);
        else if (!strcmp(a, "--warmup")) ok = parse_u64(v, &cfg.warmup);
        else if (!strcmp(a, "--drain")) {
            ok = parse_u64(v, &cfg.drain_max);
            drain_given = true;
        }
        else if (!strcmp(a, "--seed")) ok = parse_u64(v, &cfg.seed);
        else if (!strcmp(a, "--pop-interval")) {
            ok = parse_u64(v, &u) && u >= 1 && u <= 1000000;
            cfg.pop_interval = (unsigned)u;
        }
        else if (!strcmp(a, "--hotspot")) ok = parse_pair(v, ',', &cfg.hotspot_x, &cfg.hotspot_y);
        else if (!strcmp(a, "--hotspot-fraction")) ok = parse_double(v, &cfg.hotspot_fraction);
        else {
            fprintf(stderr, "wavemesh traffic: unknown argument '%s' (see --help)\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "wavemesh traffic: bad value '%s' for %s (see --help)\n", v, a);
            return 2;
        }
    }
    if (!drain_given) cfg.drain_max = 10 * cfg.sample;
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
    wm_waves *waves = NULL;
    if (trace.path && !(waves = wm_waves_create(&trace, w, h, err, sizeof err))) {
        fprintf(stderr, "wavemesh traffic: %s\n", err);
        return 2;
    }
    wm_fabric *f = waves ? wm_waves_open(waves, ops) : ops->create(w, h);
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
    wm_traffic_result r;
    if (waves) {
        while (!wm_traffic_done(t)) {
            wm_traffic_step(t);
            wm_waves_sample(waves);
        }
        r = wm_traffic_result_now(t);
    } else {
        r = wm_traffic_run(t);
    }
    const double wall = seconds_of(CLOCK_MONOTONIC) - wall_start;
    const double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    wm_traffic_destroy(t);
    const bool dumped = !waves || wm_waves_finish(waves);
    wm_waves_destroy(waves);
    ops->destroy(f);
    if (!dumped) return 1;
    /* CPU time, not wall time: the figure stays the model's own on a
     * machine that other jobs share. */
    const double speed = cpu > 0 ? (double)w * h * (double)r.cycles / cpu : 0.0;
    if (csv) {
        printf("backend,mesh,pattern,rate,len,seed,warmup,sample,cycles,sample_messages,sample_arrived,"
               "avg_latency,offered,accepted,saturated,wall_s,cpu_s,router_cycles_per_s\n");
        printf("%s,%ux%u,%s,%g,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%.3f,%.4f,%.4f,%s,%.4f,%.4f,%.0f\n",
               ops->name, w, h, wm_pattern_name(cfg.pattern), cfg.rate, cfg.len, cfg.seed, cfg.warmup, cfg.sample,
               r.cycles, r.sample_messages, r.sample_arrived, r.avg_latency, r.offered, r.accepted,
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
    else
        printf("average latency %.2f cycles\n", r.avg_latency);
    printf("offered %.4f, accepted %.4f wavelets/node/cycle\n", r.offered, r.accepted);
    printf("cpu %.3f s (wall %.3f s), %.2f M router-cycles/s of cpu\n", cpu, wall, speed / 1e6);
    return 0;
}
