/* traffic.h: synthetic traffic and its measurement, on any backend.
 *
 * The measurement follows BookSim2's latency mode so that the figures can
 * be set side by side (docs/benchmarks.md):
 *   - every PE creates messages by a Bernoulli process: in each cycle, a
 *     new message with probability rate / len, so that `rate` is the
 *     offered load in wavelets (flits) per node per cycle;
 *   - a message of length len is len wavelets in all, the header included
 *     (BookSim's packet_size): header len field = len - 1;
 *   - a created message waits in an unbounded source queue in front of the
 *     TX queue, and its PE pushes one wavelet per cycle while TX has room;
 *   - after `warmup` cycles, the messages created during the next `sample`
 *     cycles are measured; injection goes on afterwards (the drain) until
 *     every measured message has arrived, or `drain_max` cycles have
 *     passed, in which case the run is saturated;
 *   - latency: from the cycle a message is created to the cycle its last
 *     wavelet is popped at the destination, source queueing included;
 *     destination PEs pop every cycle (every pop_interval cycles when a
 *     scenario throttles them);
 *   - accepted throughput: wavelets popped at destinations per node per
 *     cycle during the sample period.
 *
 * Work per cycle follows the traffic: only PEs with something to send or
 * to receive are touched, so an idle mesh costs next to nothing here too.
 */
#ifndef WM_TRAFFIC_H
#define WM_TRAFFIC_H

#include "core/must_use.h"
#include "fabric/fabric.h"
#include "mpi/partition.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WM_PATTERN_UNIFORM = 0, /* any PE, the source included, equally likely */
    WM_PATTERN_TRANSPOSE,   /* (x, y) -> (y mod W, x mod H) */
    WM_PATTERN_BITCOMP,     /* (x, y) -> (W-1-x, H-1-y): the bit complement on power-of-two meshes */
    WM_PATTERN_HOTSPOT      /* the hotspot with probability hotspot_fraction, else uniform */
} wm_pattern;

typedef struct {
    wm_pattern pattern;
    double rate;              /* offered load, wavelets per node per cycle */
    unsigned len;             /* wavelets per message, header included: 1..WM_LEN_MAX+1 */
    uint64_t warmup;          /* cycles before the sample period */
    uint64_t sample;          /* cycles in the sample period */
    uint64_t drain_max;       /* at most this many cycles after the sample period */
    uint64_t seed;
    unsigned pop_interval;    /* a PE pops at most once every this many cycles; 1 = every cycle */
    double offmesh_fraction;  /* share of messages addressed beyond the mesh edge */
    double hotspot_fraction;  /* WM_PATTERN_HOTSPOT only */
    unsigned hotspot_x, hotspot_y;
    uint64_t max_messages;    /* no message is created after this many (the regression's shrinker); 0: no limit */
} wm_traffic_config;

typedef struct {
    uint64_t cycles;            /* simulated, warm-up and drain included */
    uint64_t sample_messages;   /* created during the sample period */
    uint64_t sample_arrived;    /* of those, arrived */
    uint64_t messages_created;  /* over the whole run */
    uint64_t messages_arrived;  /* over the whole run */
    uint64_t wavelets_popped;   /* over the whole run */
    uint64_t offmesh_messages;  /* addressed beyond the edge on purpose */
    uint64_t latency_sum;       /* over the sampled messages, when all arrived */
    double avg_latency;         /* cycles; 0 when saturated */
    bool has_percentiles;       /* not saturated and len >= 2 (a message is told apart by its data) */
    uint64_t p50_latency, p90_latency, p99_latency, max_latency; /* cycles, nearest rank */
    double offered;             /* wavelets per node per cycle, sample period */
    double accepted;            /* wavelets per node per cycle, sample period */
    bool saturated;             /* some sampled message had not arrived at the end */
} wm_traffic_result;

typedef struct wm_traffic wm_traffic;

/* The defaults: uniform, rate 0.1, len 4, warm-up 1000, sample 1000,
 * drain up to 10000, seed 1, pop every cycle, hotspot at the centre with
 * 0.2 of the messages. */
wm_traffic_config wm_traffic_config_default(void);

/* Checks cfg against a w x h mesh; false with the reason in err. */
WM_MUST_USE
bool wm_traffic_config_check(const wm_traffic_config *cfg, unsigned w, unsigned h, char *err, size_t err_size);

/* Traffic on the w x h fabric f of backend ops, which stays the caller's.
 * NULL (with a message on stderr) if cfg does not pass the check. */
WM_MUST_USE
wm_traffic *wm_traffic_create(const wm_traffic_config *cfg, const wm_fabric_ops *ops, wm_fabric *f, unsigned w,
                              unsigned h);
/* The same on one block of a mesh partitioned over MPI ranks
 * (docs/distributed.md): f is a fabric of part's block of this rank. Every
 * rank draws every message, as one process does; this one pushes those of
 * its block's sources and pops its block's destinations, and each step
 * exchanges the boundary links and sums the ranks' counts, so that every
 * rank's result (wm_traffic_result_now) and wm_traffic_done are one
 * process's; after wm_traffic_gather, rank 0's percentiles are too. Every
 * rank makes the same calls, step for step. */
WM_MUST_USE
wm_traffic *wm_traffic_create_banded(const wm_traffic_config *cfg, const wm_fabric_ops *ops, wm_fabric *f,
                                     unsigned w, unsigned h, wm_partition *part);
void wm_traffic_destroy(wm_traffic *t);

/* One cycle: create messages, push and pop at the PEs, step the fabric. */
void wm_traffic_step(wm_traffic *t);
/* Whether the run is to stop at an interrupt (waves/interrupt.h):
 * partitioned, whether any rank had one by the last step, the same on
 * every rank. */
bool wm_traffic_interrupted(const wm_traffic *t);
/* Partitioned, once the run is over, on every rank: every rank's
 * latencies to rank 0, for its percentiles. Nothing otherwise. */
void wm_traffic_gather(wm_traffic *t);
/* The sample period is over, and its messages have arrived or the drain
 * limit has passed. */
bool wm_traffic_done(const wm_traffic *t);
/* The figures so far (final once done). */
wm_traffic_result wm_traffic_result_now(const wm_traffic *t);

/* Steps until done; the figures. */
wm_traffic_result wm_traffic_run(wm_traffic *t);

/* Nearest rank: the smallest latency that at least p % of the n
 * latencies do not exceed, for p = 50, 90, 99, and the largest; sorts
 * latency in place. False (nothing written) when n is 0. */
bool wm_latency_percentiles(uint32_t *latency, size_t n, uint64_t *p50, uint64_t *p90, uint64_t *p99, uint64_t *max);

const char *wm_pattern_name(wm_pattern p);
/* "uniform", "transpose", "bitcomp" or "hotspot"; false otherwise. */
WM_MUST_USE bool wm_pattern_parse(const char *name, wm_pattern *out);

#endif
