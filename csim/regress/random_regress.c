/* random_regress.c: running a random scenario under the lockstep
 * regression (see random_regress.h). */
#include "regress/random_regress.h"

#include "run/scheduler.h"
#include "run/stream.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A firmware run that nothing stops ends here: the stream kernels of the
 * largest random scenarios end within a tenth of it. */
enum { STREAM_MAX_CYCLES = 1000000 };

static bool run_traffic(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                        wm_regress_results *out)
{
    const wm_random_scenario *rs = arg;
    wm_traffic *t = wm_traffic_create(&rs->traffic, ops, f, w, h);
    if (!t) return false;
    for (uint64_t cycle = 0; !wm_traffic_done(t) && (!rs->cycles || cycle < rs->cycles); cycle++) {
        if (rs->ndisabled && (cycle == rs->off_at || (rs->on_at && cycle == rs->on_at)))
            for (unsigned k = 0; k < rs->ndisabled; k++)
                ops->set_enable(f, rs->disabled[k][0], rs->disabled[k][1], cycle != rs->off_at);
        wm_traffic_step(t);
    }
    const wm_traffic_result r = wm_traffic_result_now(t);
    wm_traffic_destroy(t);
    wm_regress_result(out, "cycles", r.cycles);
    wm_regress_result(out, "sampled messages", r.sample_messages);
    wm_regress_result(out, "sampled messages arrived", r.sample_arrived);
    wm_regress_result(out, "messages created", r.messages_created);
    wm_regress_result(out, "messages arrived", r.messages_arrived);
    wm_regress_result(out, "wavelets popped", r.wavelets_popped);
    wm_regress_result(out, "off-mesh messages", r.offmesh_messages);
    wm_regress_result(out, "latency sum", r.latency_sum);
    wm_regress_result(out, "saturated", r.saturated);
    wm_regress_fabric_state(ops, f, w, h, out);
    return true;
}

/* The stream kernel on every core; as stream_regress.c, with the random
 * seed and the shrinker's cycle limit. A run cut short by that limit is
 * compared as far as it went; a full one must also end and deliver to
 * every PE what the host works out, else it could not run. */
static bool run_stream(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out)
{
    const wm_random_scenario *rs = arg;
    wm_stream_spec spec = rs->stream;
    spec.w = w;
    spec.h = h;
    spec.stamp = false;
    wm_stream_expect *expect = NULL;
    char err[200];
    wm_layout *l = wm_stream_layout(&spec, &expect, err, sizeof err);
    if (!l) {
        fprintf(stderr, "regress: %s\n", err);
        return false;
    }
    wm_sched *s = wm_sched_create_mode(ops, f, l, WM_PE_CORE);
    if (!s) {
        free(expect);
        wm_layout_destroy(l);
        return false;
    }
    const wm_run_result res = wm_sched_run(s, rs->cycles ? rs->cycles : STREAM_MAX_CYCLES);
    wm_regress_result(out, "run result", (uint64_t)res);
    wm_regress_result(out, "cycles", wm_sched_cycle(s));
    const bool cut_short = rs->cycles && res == WM_RUN_MAX_CYCLES;
    bool ok = true;
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        size_t n;
        const wm_export *e = wm_sched_pe_exports(s, i, &n);
        for (size_t k = 0; k < n; k++) wm_regress_result_pe(out, e[k].name, in->x, in->y, (uint64_t)e[k].value);
        const wm_core_status c = ops->core_status(f, in->x, in->y);
        wm_regress_result_pe(out, "core retired", in->x, in->y, c.retired);
        if (res != WM_RUN_DONE) continue;
        const wm_stream_expect *x = &expect[in->y * w + in->x];
        int64_t sum = -1, received = -1;
        wm_sched_result(s, in->name, "sum", &sum);
        wm_sched_result(s, in->name, "received", &received);
        if ((uint32_t)sum != x->sum || received != (int64_t)x->messages) {
            fprintf(stderr,
                    "regress: PE (%u,%u) received %" PRId64 " messages summing to %" PRIu32
                    ", expected %u summing to %" PRIu32 "\n",
                    in->x, in->y, received, (uint32_t)sum, x->messages, x->sum);
            ok = false;
        }
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    /* A run the shrinker cut short is compared as far as it went; any
     * other must end with every kernel returned and every message read. */
    if (!cut_short) wm_regress_judge(out, s, res, WM_END_RETURNED);
    wm_sched_destroy(s);
    free(expect);
    wm_layout_destroy(l);
    return ok;
}

wm_regress_scenario wm_random_regress_scenario(const wm_random_scenario *rs, const char *name)
{
    uint64_t cycles;
    if (rs->cores) cycles = rs->cycles ? rs->cycles : STREAM_MAX_CYCLES;
    else cycles = rs->traffic.warmup + rs->traffic.sample + rs->traffic.drain_max + 1;
    if (rs->cycles && rs->cycles < cycles) cycles = rs->cycles;
    /* The cap only stops a run that its own limits would not: traffic
     * ends by its drain limit, firmware by the scheduler's. */
    return (wm_regress_scenario){name, rs->w, rs->h, rs->cores ? run_stream : run_traffic, rs, false, rs->cores,
                                 WM_REGRESS_CAP(cycles)};
}

void wm_random_regress_run(const wm_random_scenario *rs, const char *name, const wm_fabric_ops *expected,
                           const wm_fabric_ops *got, wm_regress_report *rep)
{
    const wm_regress_scenario s = wm_random_regress_scenario(rs, name);
    wm_regress_run(&s, expected, got, rep);
}
