// fabric_rtl.cpp: the rtl backend, the Verilated wm_tile W x H times.
//
// The tile is Verilated once; the mesh size is a run-time argument. Each
// step copies every tile's outputs (all of them flops, docs/fabric.md) into
// its neighbours' inputs, then clocks every tile: exactly what the wires of
// rtl/mesh.v do, without Verilating a flattened mesh (655 s to build a
// 32x32 one, measured). This thin C++ layer exposes the C table
// wm_fabric_rtl; everything above it is C11.
#include "fabric.h"

#include "Vwm_tile.h"
#include "verilated.h"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

namespace {

struct Posted {
    uint32_t data;
    bool push, pop;
};

struct RtlFabric {
    unsigned w, h;
    uint64_t cycle;
    VerilatedContext ctx;
    std::vector<Vwm_tile *> tiles;
    std::vector<Posted> posted;
    wm_link_hook hook;
    void *hook_ctx;
};

RtlFabric *as_rtl(wm_fabric *f) { return reinterpret_cast<RtlFabric *>(f); }
const RtlFabric *as_rtl(const wm_fabric *f) { return reinterpret_cast<const RtlFabric *>(f); }

Vwm_tile *tile_at(const RtlFabric *r, unsigned x, unsigned y) { return r->tiles[(size_t)y * r->w + x]; }

// Drive tile t's link inputs from its neighbours' current outputs.
void wire_inputs(RtlFabric *r, unsigned x, unsigned y)
{
    Vwm_tile *t = tile_at(r, x, y);
    if (y > 0) {
        const Vwm_tile *n = tile_at(r, x, y - 1);
        t->north_valid_i = n->south_valid_o;
        t->north_data_i = n->south_data_o;
        t->north_credit_i = n->south_credit_o;
        t->north_en_i = n->en_o;
    }
    if (y + 1 < r->h) {
        const Vwm_tile *s = tile_at(r, x, y + 1);
        t->south_valid_i = s->north_valid_o;
        t->south_data_i = s->north_data_o;
        t->south_credit_i = s->north_credit_o;
        t->south_en_i = s->en_o;
    }
    if (x > 0) {
        const Vwm_tile *wn = tile_at(r, x - 1, y);
        t->west_valid_i = wn->east_valid_o;
        t->west_data_i = wn->east_data_o;
        t->west_credit_i = wn->east_credit_o;
        t->west_en_i = wn->en_o;
    }
    if (x + 1 < r->w) {
        const Vwm_tile *e = tile_at(r, x + 1, y);
        t->east_valid_i = e->west_valid_o;
        t->east_data_i = e->west_data_o;
        t->east_credit_i = e->west_credit_o;
        t->east_en_i = e->en_o;
    }
}

void clock(Vwm_tile *t)
{
    t->clk_i = 0;
    t->eval();
    t->clk_i = 1;
    t->eval();
}

wm_fabric *rtl_create(unsigned w, unsigned h)
{
    if (w < 1 || h < 1 || w > WM_MESH_MAX || h > WM_MESH_MAX) {
        fprintf(stderr, "wavemesh: mesh %ux%u is outside 1x1..%ux%u\n", w, h, WM_MESH_MAX, WM_MESH_MAX);
        return nullptr;
    }
    RtlFabric *r = new (std::nothrow) RtlFabric();
    if (!r) return nullptr;
    r->w = w;
    r->h = h;
    r->cycle = 0;
    r->hook = nullptr;
    r->hook_ctx = nullptr;
    r->tiles.reserve((size_t)w * h);
    r->posted.assign((size_t)w * h, Posted{0, false, false});
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            Vwm_tile *t = new Vwm_tile(&r->ctx, "tile");
            t->x_i = (uint8_t)x;
            t->y_i = (uint8_t)y;
            t->last_x_i = (uint8_t)(w - 1);
            t->last_y_i = (uint8_t)(h - 1);
            t->enable_i = 1;
            t->rst_ni = 0;
            r->tiles.push_back(t);
        }
    }
    // One reset edge; edge inputs stay tied to 0 for ever.
    for (Vwm_tile *t : r->tiles) clock(t);
    for (Vwm_tile *t : r->tiles) t->rst_ni = 1;
    return reinterpret_cast<wm_fabric *>(r);
}

void rtl_destroy(wm_fabric *f)
{
    RtlFabric *r = as_rtl(f);
    if (!r) return;
    for (Vwm_tile *t : r->tiles) {
        t->final();
        delete t;
    }
    delete r;
}

void rtl_set_enable(wm_fabric *f, unsigned x, unsigned y, bool on)
{
    tile_at(as_rtl(f), x, y)->enable_i = on ? 1 : 0;
}

void rtl_step(wm_fabric *f)
{
    RtlFabric *r = as_rtl(f);
    const unsigned w = r->w, h = r->h;
    // Phase 1: every input from the outputs as they stand (no tile has been
    // clocked yet, so all of them are this cycle's values).
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            wire_inputs(r, x, y);
            Posted &p = r->posted[(size_t)y * w + x];
            Vwm_tile *t = tile_at(r, x, y);
            t->pe_push_i = p.push;
            t->pe_data_i = p.data;
            t->pe_pop_i = p.pop;
            p.push = p.pop = false;
        }
    }
    // Phase 2: the edge.
    for (Vwm_tile *t : r->tiles) clock(t);
    r->cycle++;
    if (r->hook) {
        wm_link_event ev;
        ev.cycle = r->cycle;
        for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
                const Vwm_tile *t = tile_at(r, x, y);
                const uint8_t valid[WM_NPORTS] = {t->north_valid_o, t->east_valid_o, t->south_valid_o,
                                                  t->west_valid_o, t->ramp_valid_o};
                const uint32_t data[WM_NPORTS] = {t->north_data_o, t->east_data_o, t->south_data_o,
                                                  t->west_data_o, t->ramp_data_o};
                ev.x = (uint16_t)x;
                ev.y = (uint16_t)y;
                for (unsigned p = 0; p < WM_NPORTS; p++) {
                    if (!valid[p]) continue;
                    ev.port = (uint8_t)p;
                    ev.data = data[p];
                    r->hook(r->hook_ctx, &ev);
                }
            }
        }
    }
}

uint64_t rtl_cycle(const wm_fabric *f) { return as_rtl(f)->cycle; }

void rtl_pe_push(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet)
{
    Posted &p = as_rtl(f)->posted[(size_t)y * as_rtl(f)->w + x];
    p.push = true;
    p.data = wavelet;
}

void rtl_pe_pop(wm_fabric *f, unsigned x, unsigned y)
{
    as_rtl(f)->posted[(size_t)y * as_rtl(f)->w + x].pop = true;
}

wm_pe_status rtl_pe_status(const wm_fabric *f, unsigned x, unsigned y)
{
    const Vwm_tile *t = tile_at(as_rtl(f), x, y);
    wm_pe_status s;
    s.tsc = t->pe_tsc_o;
    s.rx_head = t->pe_rx_head_o;
    s.tx_count = t->pe_tx_count_o;
    s.rx_count = t->pe_rx_count_o;
    s.status = t->pe_status_o;
    s.err_hdr = t->err_hdr_o;
    return s;
}

bool rtl_quiescent(const wm_fabric *f)
{
    for (const Vwm_tile *t : as_rtl(f)->tiles)
        if (t->pe_status_o & WM_ST_BUSY) return false;
    return true;
}

size_t rtl_in_flight(const wm_fabric *f, wm_flight *out, size_t max)
{
    const RtlFabric *r = as_rtl(f);
    size_t n = 0;
    auto add = [&](unsigned x, unsigned y, unsigned place, unsigned port, unsigned count, uint32_t head) {
        if (n < max) {
            out[n].x = (uint16_t)x;
            out[n].y = (uint16_t)y;
            out[n].place = (uint8_t)place;
            out[n].port = (uint8_t)port;
            out[n].count = (uint8_t)count;
            out[n].head = head;
        }
        n++;
    };
    for (unsigned y = 0; y < r->h; y++) {
        for (unsigned x = 0; x < r->w; x++) {
            const Vwm_tile *t = tile_at(r, x, y);
            if (!(t->pe_status_o & WM_ST_BUSY)) continue;
            for (unsigned p = 0; p < 4; p++) {
                unsigned c = (t->in_count_o >> (3 * p)) & 7u;
                if (c) add(x, y, WM_AT_INPUT, p, c, t->in_head_o[p]);
            }
            if (t->pe_tx_count_o) add(x, y, WM_AT_TX, WM_PORT_L, t->pe_tx_count_o, t->in_head_o[4]);
            const uint8_t valid[WM_NPORTS] = {t->north_valid_o, t->east_valid_o, t->south_valid_o,
                                              t->west_valid_o, t->ramp_valid_o};
            const uint32_t data[WM_NPORTS] = {t->north_data_o, t->east_data_o, t->south_data_o,
                                              t->west_data_o, t->ramp_data_o};
            for (unsigned p = 0; p < WM_NPORTS; p++)
                if (valid[p]) add(x, y, WM_AT_OUTPUT, p, 1, data[p]);
        }
    }
    return n;
}

void rtl_set_link_hook(wm_fabric *f, wm_link_hook hook, void *ctx)
{
    as_rtl(f)->hook = hook;
    as_rtl(f)->hook_ctx = ctx;
}

} // namespace

extern "C" const wm_fabric_ops wm_fabric_rtl = {
    "rtl",          rtl_create,        rtl_destroy,   rtl_set_enable, rtl_step,
    rtl_cycle,      rtl_pe_push,       rtl_pe_pop,    rtl_pe_status,  rtl_quiescent,
    rtl_in_flight,  rtl_set_link_hook,
};
