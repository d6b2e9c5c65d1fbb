/* waves_sw.c: FST or VCD from the sw backend, in Verilator's own shape.
 *
 * Verilator names a traced tile's signals <scope>.wm_tile.u_waves.<name>
 * (<scope>.wm_tile_core.u_tile.u_waves.<name> and, for its core,
 * <scope>.wm_tile_core.u_core_waves.<name> in a fabric with PE cores), a
 * bus as "name [msb:lsb]", and writes a value only when it changed since
 * the last dump (all of them at the first). This writer does the same, so
 * wavediff and one save file treat both backends' dumps alike.
 *
 * The core's record of a cycle (retire, the retiring instruction, its
 * write-back, push, pop) is combinational in the RTL: the dump at cycle c,
 * taken after the edge that starts c, shows what the core does during c.
 * The sw model knows that only once it has simulated c, after the next
 * step (wm_fabric_sw_core_view). So every cycle is written one sample late:
 * sampling cycle c+1 completes cycle c with the core's record and writes
 * it. The last cycle held is written by wm_sw_dump_settle (the step after
 * a window) or at close, where its record is taken as empty: a run ends
 * with its cores halted or asleep on a queue, when they do nothing.
 */
#include "waves/waves_sw.h"

#include "fabric/fabric_sw.h"
#include "fstapi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The signals of rtl/wm_waves.v, in its order. */
enum {
    SIG_VALID, SIG_DATA, SIG_MSG, SIG_CREDIT, SIG_OWNER, SIG_COUNT, /* per link port, N..W: 6 each */
    LINK_SIGNALS,
    SIG_LINK_END = LINK_SIGNALS * 4,
    SIG_RAMP_VALID = SIG_LINK_END, SIG_RAMP_DATA, SIG_RAMP_MSG, SIG_RAMP_OWNER,
    SIG_TX_COUNT, SIG_RX_COUNT, SIG_BUSY, SIG_ERR_TX_FULL, SIG_ERR_RX_EMPTY, SIG_ERR_OFFMESH,
    SIG_ERR_HDR, SIG_EN,
    TILE_SIGNALS
};

static const char *const port_words[4] = {"north", "east", "south", "west"};
static const char *const link_names[LINK_SIGNALS] = {"valid", "data", "msg", "credit", "owner", "count"};
static const unsigned link_bits[LINK_SIGNALS] = {1, 32, 32, 1, 3, 3};
static const char *const tile_names[TILE_SIGNALS - SIG_LINK_END] = {
    "ramp_valid", "ramp_data", "ramp_msg", "ramp_owner", "tx_count", "rx_count", "busy",
    "err_tx_full", "err_rx_empty", "err_offmesh", "err_hdr", "en"};
static const unsigned tile_bits[TILE_SIGNALS - SIG_LINK_END] = {1, 32, 32, 3, 4, 4, 1, 1, 1, 1, 32, 1};

/* What wm_waves.v keeps to show <port>_msg, per output register (N..W, L):
 * the data wavelets still to come of its message, and that message's
 * header, held until the next one. */
typedef struct {
    uint8_t rem[WM_NPORTS];
    uint32_t msg[WM_NPORTS];
} framing;

/* The signals of rtl/core/wm_core_waves.v, after a tile's when it has a core. */
enum {
    CORE_PC, CORE_RETIRE, CORE_RETIRE_INSN, CORE_RD_WE, CORE_RD, CORE_RD_DATA, CORE_PUSH, CORE_POP,
    CORE_HALTED, CORE_FAULT_CAUSE,
    CORE_SIGNALS
};
static const char *const core_names[CORE_SIGNALS] = {"pc",   "retire", "retire_insn", "rd_we",  "rd",
                                                     "rd_data", "push", "pop", "halted", "fault_cause"};
static const unsigned core_bits[CORE_SIGNALS] = {32, 1, 32, 1, 5, 32, 1, 1, 1, 3};

typedef struct {
    unsigned bits;
    uint64_t old;
    fstHandle fst;
    char code[8]; /* VCD identifier */
} var;

struct wm_sw_dump {
    const wm_fabric *f;
    unsigned x0, y0, x1, y1;
    int error;   /* errno of the first failed write to the VCD */
    bool cores;  /* tiles with PE cores: CORE_SIGNALS more per tile */
    unsigned per_tile;
    void *fst;   /* fstWriterContext, or NULL for VCD */
    FILE *vcd;
    var *tile_vars; /* per_tile per traced tile, row-major */
    var *extra_vars;
    const wm_rtl_extra_signal *extra;
    size_t ntiles, nextra, nvars;
    bool started;
    const char *path;
    /* The cycle sampled last, not written yet: its values, tiles' then extras'. */
    bool held;
    uint64_t held_cycle;
    uint64_t *held_value;
    bool *held_known;     /* per extra: its value is known (else x) */
    bool *extra_written;  /* per extra: a value was written, it is no longer x */
    /* Each traced tile's output framing, followed every cycle from cycle 0
     * (inside the window or not) as the RTL's registers follow it. */
    framing *frames;
    uint64_t followed;    /* the cycle followed last, +1; 0: none yet */
};

static void vcd_code(size_t n, char *out)
{
    /* Printable identifiers from '!' to '~', as VCD writers use. */
    size_t k = 0;
    do {
        out[k++] = (char)('!' + n % 94);
        n /= 94;
    } while (n && k < 7);
    out[k] = '\0';
}

static void declare(wm_sw_dump *d, var *v, const char *name, unsigned bits)
{
    char full[128];
    if (bits == 1) snprintf(full, sizeof full, "%s", name);
    else snprintf(full, sizeof full, "%s [%u:0]", name, bits - 1);
    v->bits = bits;
    v->old = 0;
    if (d->fst) {
        v->fst = fstWriterCreateVar(d->fst, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, bits, full, 0);
    } else {
        vcd_code(d->nvars, v->code);
        fprintf(d->vcd, "$var wire %u %s %s $end\n", bits, v->code, full);
    }
    d->nvars++;
}

/* Enter the scopes of a dot-separated path; returns how many. */
static unsigned enter(wm_sw_dump *d, const char *path)
{
    unsigned depth = 0;
    char part[128];
    while (*path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof part) n = sizeof part - 1;
        memcpy(part, path, n);
        part[n] = '\0';
        if (d->fst) fstWriterSetScope(d->fst, FST_ST_VCD_SCOPE, part, NULL);
        else fprintf(d->vcd, "$scope module %s $end\n", part);
        depth++;
        path += n;
        if (*path == '.') path++;
    }
    return depth;
}

static void leave(wm_sw_dump *d, unsigned depth)
{
    while (depth--) {
        if (d->fst) fstWriterSetUpscope(d->fst);
        else fputs("$upscope $end\n", d->vcd);
    }
}

wm_sw_dump *wm_sw_dump_open(const wm_fabric *f, unsigned w, const wm_rtl_trace *trace)
{
    wm_sw_dump *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->f = f;
    d->path = trace->path;
    d->x0 = trace->x0;
    d->y0 = trace->y0;
    d->x1 = trace->x1;
    d->y1 = trace->y1;
    d->extra = trace->extra;
    d->nextra = trace->nextra;
    d->cores = trace->cores;
    d->per_tile = TILE_SIGNALS + (d->cores ? CORE_SIGNALS : 0);
    d->ntiles = (size_t)(d->x1 - d->x0 + 1) * (d->y1 - d->y0 + 1);
    d->tile_vars = calloc(d->ntiles * d->per_tile, sizeof *d->tile_vars);
    d->extra_vars = calloc(d->nextra + 1, sizeof *d->extra_vars);
    d->held_value = calloc(d->ntiles * d->per_tile + d->nextra + 1, sizeof *d->held_value);
    d->held_known = calloc(d->nextra + 1, sizeof *d->held_known);
    d->extra_written = calloc(d->nextra + 1, sizeof *d->extra_written);
    d->frames = calloc(d->ntiles, sizeof *d->frames);
    if (trace->vcd) d->vcd = fopen(trace->path, "w");
    else d->fst = fstWriterCreate(trace->path, 1);
    if (!d->tile_vars || !d->extra_vars || !d->held_value || !d->held_known || !d->extra_written || !d->frames ||
        (!d->vcd && !d->fst)) {
        fprintf(stderr, "wavemesh: cannot write the dump %s\n", trace->path);
        if (d->vcd) fclose(d->vcd);
        if (d->fst) fstWriterClose(d->fst);
        free(d->tile_vars);
        free(d->extra_vars);
        free(d->held_value);
        free(d->held_known);
        free(d->extra_written);
        free(d->frames);
        free(d);
        return NULL;
    }
    if (d->fst) {
        fstWriterSetTimescale(d->fst, -9);
        fstWriterSetPackType(d->fst, FST_WR_PT_LZ4);
    } else {
        fputs("$version wavemesh sw backend $end\n$timescale 1ns $end\n", d->vcd);
    }
    /* Verilator declares model by model in creation order (row-major),
     * then the extra signals; the order does not matter to readers. */
    var *v = d->tile_vars;
    for (unsigned y = d->y0; y <= d->y1; y++) {
        for (unsigned x = d->x0; x <= d->x1; x++) {
            const char *top = trace->tile_scope[(size_t)y * w + x];
            char scope[160];
            snprintf(scope, sizeof scope, d->cores ? "%s.wm_tile_core.u_tile.u_waves" : "%s.wm_tile.u_waves", top);
            unsigned depth = enter(d, scope);
            for (unsigned p = 0; p < 4; p++) {
                for (unsigned k = 0; k < LINK_SIGNALS; k++) {
                    char name[32];
                    snprintf(name, sizeof name, "%s_%s", port_words[p], link_names[k]);
                    declare(d, v++, name, link_bits[k]);
                }
            }
            for (unsigned k = 0; k < TILE_SIGNALS - SIG_LINK_END; k++) declare(d, v++, tile_names[k], tile_bits[k]);
            leave(d, depth);
            if (!d->cores) continue;
            snprintf(scope, sizeof scope, "%s.wm_tile_core.u_core_waves", top);
            depth = enter(d, scope);
            for (unsigned k = 0; k < CORE_SIGNALS; k++) declare(d, v++, core_names[k], core_bits[k]);
            leave(d, depth);
        }
    }
    for (size_t i = 0; i < d->nextra; i++) {
        const unsigned depth = enter(d, d->extra[i].scope);
        declare(d, &d->extra_vars[i], d->extra[i].name, d->extra[i].bits);
        leave(d, depth);
    }
    if (d->vcd) fputs("$enddefinitions $end\n", d->vcd);
    /* A write that failed here keeps its errno only until the next call
     * that sets one (the run's isatty, say): take it now. */
    if (d->vcd && ferror(d->vcd)) d->error = errno ? errno : EIO;
    return d;
}

static void emit(wm_sw_dump *d, var *v, uint64_t value, bool all)
{
    if (v->bits < 64) value &= (UINT64_C(1) << v->bits) - 1u;
    if (!all && value == v->old) return;
    v->old = value;
    char bits[65];
    for (unsigned b = 0; b < v->bits; b++) bits[b] = (char)('0' + ((value >> (v->bits - 1 - b)) & 1u));
    bits[v->bits] = '\0';
    if (d->fst) fstWriterEmitValueChange(d->fst, v->fst, bits);
    else if (v->bits == 1) fprintf(d->vcd, "%s%s\n", bits, v->code);
    else fprintf(d->vcd, "b%s %s\n", bits, v->code);
}

/* Write the held cycle, with the cores' records of it when the fabric has
 * just simulated it (else empty), and hold nothing. */
static void write_held(wm_sw_dump *d)
{
    if (!d->held) return;
    d->held = false;
    uint64_t *val = d->held_value;
    if (d->cores) {
        const bool simulated = d->f && d->held_cycle + 1 == wm_fabric_sw.cycle(d->f);
        size_t t = 0;
        for (unsigned y = d->y0; y <= d->y1; y++) {
            for (unsigned x = d->x0; x <= d->x1; x++, t++) {
                uint64_t *c = val + t * d->per_tile + TILE_SIGNALS;
                wm_sw_core_view cv;
                if (simulated) wm_fabric_sw_core_view(d->f, x, y, &cv);
                else memset(&cv, 0, sizeof cv);
                c[CORE_RETIRE] = cv.retire;
                c[CORE_RETIRE_INSN] = cv.retire_insn;
                c[CORE_RD_WE] = cv.rd_we;
                c[CORE_RD] = cv.rd;
                c[CORE_RD_DATA] = cv.rd_data;
                c[CORE_PUSH] = cv.push;
                c[CORE_POP] = cv.pop;
            }
        }
    }
    const bool all = !d->started;
    d->started = true;
    if (d->fst) fstWriterEmitTimeChange(d->fst, d->held_cycle);
    else fprintf(d->vcd, "#%llu\n", (unsigned long long)d->held_cycle);
    for (size_t i = 0; i < d->ntiles * d->per_tile; i++) emit(d, &d->tile_vars[i], val[i], all);
    for (size_t i = 0; i < d->nextra; i++) {
        /* x (nothing written) until known; the first value written whole */
        if (!d->held_known[i]) continue;
        emit(d, &d->extra_vars[i], val[d->ntiles * d->per_tile + i], all || !d->extra_written[i]);
        d->extra_written[i] = true;
    }
    if (d->vcd && !d->error && ferror(d->vcd)) d->error = errno ? errno : EIO;
}

/* The header on output p of a tile at this cycle, and its framing moved on
 * past this cycle's wavelet, as wm_waves.v computes msg_d and rem_d. */
static uint32_t follow_port(framing *fr, const wm_sw_tile_view *t, unsigned p)
{
    if ((t->out_valid >> p) & 1u) {
        if (fr->rem[p] == 0) {
            fr->msg[p] = t->out_data[p];
            fr->rem[p] = (uint8_t)wm_header_len(t->out_data[p]);
        } else {
            fr->rem[p]--;
        }
    }
    return fr->msg[p];
}

void wm_sw_dump_follow(wm_sw_dump *d, uint64_t cycle)
{
    if (d->followed == cycle + 1) return;
    d->followed = cycle + 1;
    framing *fr = d->frames;
    for (unsigned y = d->y0; y <= d->y1; y++) {
        for (unsigned x = d->x0; x <= d->x1; x++, fr++) {
            wm_sw_tile_view t;
            wm_fabric_sw_view(d->f, x, y, &t);
            for (unsigned p = 0; p < WM_NPORTS; p++) follow_port(fr, &t, p);
        }
    }
}

void wm_sw_dump_sample(wm_sw_dump *d, uint64_t cycle)
{
    write_held(d);
    wm_sw_dump_follow(d, cycle);
    uint64_t *v = d->held_value;
    const framing *fr = d->frames;
    for (unsigned y = d->y0; y <= d->y1; y++) {
        for (unsigned x = d->x0; x <= d->x1; x++, fr++) {
            wm_sw_tile_view t;
            wm_fabric_sw_view(d->f, x, y, &t);
            for (unsigned p = 0; p < 4; p++) {
                *v++ = (t.out_valid >> p) & 1u;
                *v++ = t.out_data[p];
                *v++ = fr->msg[p];
                *v++ = (t.credit >> p) & 1u;
                *v++ = t.owner[p];
                *v++ = t.in_count[p];
            }
            *v++ = (t.out_valid >> WM_PORT_L) & 1u;
            *v++ = t.out_data[WM_PORT_L];
            *v++ = fr->msg[WM_PORT_L];
            *v++ = t.owner[WM_PORT_L];
            *v++ = t.tx_count;
            *v++ = t.rx_count;
            for (unsigned b = 0; b < 4; b++) *v++ = (t.status >> b) & 1u;
            *v++ = t.err_hdr;
            *v++ = t.en;
            if (!d->cores) continue;
            /* Where the core stands at this cycle; its record of the cycle
             * comes with the next sample (write_held). */
            wm_sw_core_view cv;
            wm_fabric_sw_core_view(d->f, x, y, &cv);
            uint64_t *c = v;
            memset(c, 0, CORE_SIGNALS * sizeof *c);
            c[CORE_PC] = cv.pc;
            c[CORE_HALTED] = cv.halted;
            c[CORE_FAULT_CAUSE] = cv.fault_cause;
            v += CORE_SIGNALS;
        }
    }
    for (size_t i = 0; i < d->nextra; i++) {
        *v++ = *d->extra[i].value;
        d->held_known[i] = !d->extra[i].known || *d->extra[i].known;
    }
    d->held = true;
    d->held_cycle = cycle;
}

void wm_sw_dump_settle(wm_sw_dump *d) { write_held(d); }

int wm_sw_dump_error(const wm_sw_dump *d) { return d->error; }

bool wm_sw_dump_close(wm_sw_dump *d)
{
    if (!d) return true;
    bool ok = true;
    /* At close the fabric may have gone further, or be gone: the held
     * cycle's record is taken as empty (see the top of this file). */
    d->f = NULL;
    write_held(d);
    if (d->fst) fstWriterClose(d->fst);
    /* the caller names the dump: d->path is its temporary */
    if (d->vcd && (ferror(d->vcd) | fclose(d->vcd))) ok = false;
    free(d->tile_vars);
    free(d->extra_vars);
    free(d->held_value);
    free(d->held_known);
    free(d->extra_written);
    free(d->frames);
    free(d);
    return ok;
}
