/* random_scenario.h: constrained-random lockstep scenarios.
 *
 * A random scenario is a handful of numbers, all of them visible: a mesh,
 * and either synthetic traffic on bare tiles (pattern, rate, message
 * length, slow-popping PEs, headers addressed off the mesh, routers
 * disabled for good or for a while) or firmware traffic on the PE cores
 * (the stream kernel, sw/traffic/stream.c, with a random pattern, count,
 * length and gap). Scenario I of seed S is drawn from (S, I) alone, so any
 * scenario of a campaign can be run again on its own, and a campaign can
 * be split over processes or machines by index.
 *
 * Its text, "pe=native,mesh=8x3,pattern=hotspot,rate=0.120,...", is what
 * `wavemesh regress --scenario TEXT` reads back: every scenario printed
 * with it is reproduced by that one command, whether it came from the
 * generator or from the shrinker (random_shrink.h), which edits the
 * numbers the generator would never produce on its own (a message limit,
 * a cycle limit).
 */
#ifndef WM_RANDOM_SCENARIO_H
#define WM_RANDOM_SCENARIO_H

#include "run/stream.h"
#include "traffic/traffic.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WM_RANDOM_MAX_DISABLED = 4,
    WM_RANDOM_SIDE_MAX = 32 /* the generator's largest mesh side (a scenario's text may give up to WM_MESH_MAX) */
};

typedef struct {
    bool cores;          /* firmware traffic on the PE cores; else synthetic traffic on bare tiles */
    unsigned w, h;
    uint64_t cycles;     /* stop after this many cycles (the shrinker's); 0: run to the end */
    /* bare tiles: traffic.h's configuration (seed, pattern, rate, len,
     * warm-up, sample, drain, pop interval, off-mesh share, message limit) */
    wm_traffic_config traffic;
    unsigned ndisabled;  /* routers switched off ... */
    uint16_t disabled[WM_RANDOM_MAX_DISABLED][2];
    uint64_t off_at;     /* ... from this cycle ... */
    uint64_t on_at;      /* ... until this one; 0: for good */
    /* cores: the stream kernel on every PE (run/stream.h; w, h and stamp
     * are not used: the mesh is above, and sums are checked unstamped) */
    wm_stream_spec stream;
} wm_random_scenario;

/* What the generator may draw. */
typedef struct {
    unsigned max_side;      /* mesh sides 1..max_side (at most WM_RANDOM_SIDE_MAX) */
    unsigned max_core_side; /* the same for firmware traffic, whose tiles are costlier */
    int pe;                 /* -1: mixed (one in eight on the cores), 0: bare tiles only, 1: cores only */
    unsigned max_line_side; /* the long side of a 1xN or Nx1 mesh: 1..max_line_side, up to WM_MESH_MAX
                               (0: max_side); above 256 it reaches the header's 10-bit coordinates */
} wm_random_limits;

/* The limits of `wavemesh regress --random` without options. */
wm_random_limits wm_random_limits_default(void);

/* Scenario `index` of `seed`, within lim. */
void wm_random_generate(uint64_t seed, uint64_t index, const wm_random_limits *lim, wm_random_scenario *out);

/* The scenario's text, "pe=...,mesh=WxH,..." (at most WM_RANDOM_TEXT_MAX
 * characters with its terminator). */
enum { WM_RANDOM_TEXT_MAX = 400 };
void wm_random_format(const wm_random_scenario *s, char *buf, size_t size);

/* Reads a scenario's text back; false with the reason (the key, its value
 * and the valid range) in err. */
WM_MUST_USE bool wm_random_parse(const char *text, wm_random_scenario *out, char *err, size_t err_size);

/* Checks the numbers against each other and the mesh; false with the
 * reason in err. */
WM_MUST_USE bool wm_random_check(const wm_random_scenario *s, char *err, size_t err_size);

#endif
