/* waves_sw.c: FST or VCD from the sw backend, in Verilator's own shape.
 *
 * Verilator names a traced tile's signals <scope>.wm_tile.u_waves.<name>,
 * a bus as "name [msb:lsb]", and writes a value only when it changed since
 * the last dump (all of them at the first). This writer does the same, so
 * wavediff and one save file treat both backends' dumps alike.
 */
#include "waves/waves_sw.h"

#include "fabric/fabric_sw.h"
#include "fstapi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The signals of rtl/wm_waves.v, in its order. */
enum {
    SIG_VALID, SIG_DATA, SIG_CREDIT, SIG_OWNER, SIG_COUNT, /* per link port, N..W: 5 each */
    SIG_LINK_END = 5 * 4,
    SIG_RAMP_VALID = SIG_LINK_END, SIG_RAMP_DATA, SIG_RAMP_OWNER,
    SIG_TX_COUNT, SIG_RX_COUNT, SIG_BUSY, SIG_ERR_TX_FULL, SIG_ERR_RX_EMPTY, SIG_ERR_OFFMESH,
    SIG_ERR_HDR, SIG_EN,
    TILE_SIGNALS
};

static const char *const port_words[4] = {"north", "east", "south", "west"};
static const char *const link_names[5] = {"valid", "data", "credit", "owner", "count"};
static const unsigned link_bits[5] = {1, 32, 1, 3, 3};
static const char *const tile_names[TILE_SIGNALS - SIG_LINK_END] = {
    "ramp_valid", "ramp_data", "ramp_owner", "tx_count", "rx_count", "busy",
    "err_tx_full", "err_rx_empty", "err_offmesh", "err_hdr", "en"};
static const unsigned tile_bits[TILE_SIGNALS - SIG_LINK_END] = {1, 32, 3, 4, 4, 1, 1, 1, 1, 32, 1};

typedef struct {
    unsigned bits;
    uint64_t old;
    fstHandle fst;
    char code[8]; /* VCD identifier */
} var;

struct wm_sw_dump {
    const wm_fabric *f;
    unsigned x0, y0, x1, y1;
    void *fst;   /* fstWriterContext, or NULL for VCD */
    FILE *vcd;
    var *tile_vars; /* TILE_SIGNALS per traced tile, row-major */
    var *extra_vars;
    const wm_rtl_extra_signal *extra;
    size_t nextra, nvars;
    bool started;
    const char *path;
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
    const size_t ntiles = (size_t)(d->x1 - d->x0 + 1) * (d->y1 - d->y0 + 1);
    d->tile_vars = calloc(ntiles * TILE_SIGNALS, sizeof *d->tile_vars);
    d->extra_vars = calloc(d->nextra + 1, sizeof *d->extra_vars);
    if (trace->vcd) d->vcd = fopen(trace->path, "w");
    else d->fst = fstWriterCreate(trace->path, 1);
    if (!d->tile_vars || !d->extra_vars || (!d->vcd && !d->fst)) {
        fprintf(stderr, "wavemesh: cannot write the dump %s\n", trace->path);
        if (d->vcd) fclose(d->vcd);
        if (d->fst) fstWriterClose(d->fst);
        free(d->tile_vars);
        free(d->extra_vars);
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
            char scope[160];
            snprintf(scope, sizeof scope, "%s.wm_tile.u_waves", trace->tile_scope[(size_t)y * w + x]);
            const unsigned depth = enter(d, scope);
            for (unsigned p = 0; p < 4; p++) {
                for (unsigned k = 0; k < 5; k++) {
                    char name[32];
                    snprintf(name, sizeof name, "%s_%s", port_words[p], link_names[k]);
                    declare(d, v++, name, link_bits[k]);
                }
            }
            for (unsigned k = 0; k < TILE_SIGNALS - SIG_LINK_END; k++) declare(d, v++, tile_names[k], tile_bits[k]);
            leave(d, depth);
        }
    }
    for (size_t i = 0; i < d->nextra; i++) {
        const unsigned depth = enter(d, d->extra[i].scope);
        declare(d, &d->extra_vars[i], d->extra[i].name, d->extra[i].bits);
        leave(d, depth);
    }
    if (d->vcd) fputs("$enddefinitions $end\n", d->vcd);
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

void wm_sw_dump_sample(wm_sw_dump *d, uint64_t cycle)
{
    const bool all = !d->started;
    d->started = true;
    if (d->fst) fstWriterEmitTimeChange(d->fst, cycle);
    else fprintf(d->vcd, "#%llu\n", (unsigned long long)cycle);
    var *v = d->tile_vars;
    for (unsigned y = d->y0; y <= d->y1; y++) {
        for (unsigned x = d->x0; x <= d->x1; x++) {
            wm_sw_tile_view t;
            wm_fabric_sw_view(d->f, x, y, &t);
            for (unsigned p = 0; p < 4; p++) {
                emit(d, v++, (t.out_valid >> p) & 1u, all);
                emit(d, v++, t.out_data[p], all);
                emit(d, v++, (t.credit >> p) & 1u, all);
                emit(d, v++, t.owner[p], all);
                emit(d, v++, t.in_count[p], all);
            }
            emit(d, v++, (t.out_valid >> WM_PORT_L) & 1u, all);
            emit(d, v++, t.out_data[WM_PORT_L], all);
            emit(d, v++, t.owner[WM_PORT_L], all);
            emit(d, v++, t.tx_count, all);
            emit(d, v++, t.rx_count, all);
            for (unsigned b = 0; b < 4; b++) emit(d, v++, (t.status >> b) & 1u, all);
            emit(d, v++, t.err_hdr, all);
            emit(d, v++, t.en, all);
        }
    }
    for (size_t i = 0; i < d->nextra; i++) emit(d, &d->extra_vars[i], *d->extra[i].value, all);
}

bool wm_sw_dump_close(wm_sw_dump *d)
{
    if (!d) return true;
    bool ok = true;
    if (d->fst) fstWriterClose(d->fst);
    if (d->vcd && (ferror(d->vcd) | fclose(d->vcd))) {
        fprintf(stderr, "wavemesh: writing the dump %s failed\n", d->path);
        ok = false;
    }
    free(d->tile_vars);
    free(d->extra_vars);
    free(d);
    return ok;
}
