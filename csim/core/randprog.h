/* randprog.h: seeded random RV32IM programs for the PE core.
 *
 * A program for the differential test of the ISS against the RTL: it sets
 * every register, then runs a random sequence of items that together cover
 * every RV32IM instruction (every register as source and destination, x0
 * included; immediates at their extremes; MUL and DIV on 0, -1, INT_MIN;
 * loads and stores of every width at aligned addresses of a data area,
 * their offsets carrying into or borrowing from rs1's high part; the
 * register window: TSC_LO/HI, QUEUES, STATUS, ERR_HDR, COORD, TX stores, RX
 * loads), with control flow that always terminates (branches and jumps go
 * forward; the only backward branches close loops on a bounded counter the
 * loop body never writes; FENCE with random ignored fields; code that
 * rewrites the word right after a store, which runs the old word first and
 * the new one in later loop passes), and ends with a store to EXIT or, when
 * asked, with a deliberate fault. Some items are set up to reach the
 * corners of core/corners.h: words of unlike lanes read back narrow,
 * shifts by 0, 31 and 32 or more, branches on operands equal, one apart or
 * of unlike signs, chains through the register file's bypass, the window
 * and the RAM's end reached from either side of a 4 KiB page.
 *
 * Deterministic for a seed on every host: its own xorshift, no rand(). */
#ifndef WM_RANDPROG_H
#define WM_RANDPROG_H

#include "core_port.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* xorshift64* seeded through splitmix64 (any seed, 0 included). */
typedef struct {
    uint64_t s;
} wm_xorshift;

static inline void wm_xs_seed(wm_xorshift *r, uint64_t seed)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    r->s = z ? z : 0x2545f4914f6cdd1dull;
}

static inline uint64_t wm_xs_next(wm_xorshift *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, n), n >= 1. */
static inline uint32_t wm_xs_below(wm_xorshift *r, uint32_t n) { return (uint32_t)(((wm_xs_next(r) >> 32) * n) >> 32); }

typedef struct {
    uint32_t mem_bytes;          /* the RAM: code from address 0 up to data_base */
    uint32_t data_base;          /* loads and stores hit [data_base, data_base + data_bytes) */
    uint32_t data_bytes;
    unsigned items;              /* random items in the body (not counting nested ones) */
    unsigned window_permille;    /* the share of items that access the register window */
    unsigned corner_permille;    /* the share set up to reach a corner (core/corners.h) */
    unsigned fault_permille;     /* the share of programs that end in a fault instead of EXIT */
} wm_randprog_cfg;

typedef struct {
    unsigned words;              /* the program's length in words, from address 0 */
    bool ends_in_fault;          /* its last item is a deliberate fault ... */
    wm_core_fault fault;         /* ... of this cause */
    unsigned rx_loads, tx_stores;/* register-window accesses, static count */
} wm_randprog_info;

/* 16 KiB RAM, code below 0x3000, data 0x3000..0x3fff (most accesses in its
 * last 16 words, up to the RAM's end), 120 items, 1 in 8 items in the
 * window, 3 in 20 at a corner, 1 program in 5 ending in a fault. */
void wm_randprog_defaults(wm_randprog_cfg *cfg);

/* Writes the program for seed into code (at most max_words; 4096 is always
 * enough for the defaults). Returns false if it did not fit. */
bool wm_randprog(uint64_t seed, const wm_randprog_cfg *cfg, uint32_t *code, unsigned max_words,
                 wm_randprog_info *info);

#ifdef __cplusplus
}
#endif

#endif
