// fabric_vmesh.cpp: the "rtl-mesh" backend, the Verilated rtl/mesh.v.
//
// A second, independent wiring of the same tiles: here Verilog wires
// connect them, in the rtl backend C copies do. It exists to cross-check
// the two, wavelet for wavelet, so it is built for one small fixed size
// (WM_VMESH_W x WM_VMESH_H, set by the Makefile): Verilating a flattened
// mesh is what the tile-once design avoids for every other size.
#include "fabric/fabric.h"

#include "Vwm_mesh.h"
#include "verilated.h"

#include <cstdio>
#include <new>

#ifndef WM_VMESH_W
#error "WM_VMESH_W and WM_VMESH_H must match the -G parameters of the Verilated mesh"
#endif

namespace {

constexpr unsigned kW = WM_VMESH_W, kH = WM_VMESH_H, kTiles = kW * kH;

struct MeshFabric {
    uint64_t cycle;
    VerilatedContext ctx;
    Vwm_mesh *m;
    wm_link_hook hook;
    void *hook_ctx;
};

MeshFabric *as_mesh(wm_fabric *f) { return reinterpret_cast<MeshFabric *>(f); }
const MeshFabric *as_mesh(const wm_fabric *f) { return reinterpret_cast<const MeshFabric *>(f); }
unsigned index_of(unsigned x, unsigned y) { return y * kW + x; }

void clock(Vwm_mesh *m)
{
    m->clk_i = 0;
    m->eval();
    m->clk_i = 1;
    m->eval();
}

wm_fabric *mesh_create(unsigned w, unsigned h)
{
    if (w != kW || h != kH) {
        fprintf(stderr, "wavemesh: the rtl-mesh backend is built for %ux%u only, not %ux%u\n", kW, kH, w, h);
        return nullptr;
    }
    MeshFabric *r = new (std::nothrow) MeshFabric();
    if (!r) return nullptr;
    r->cycle = 0;
    r->hook = nullptr;
    r->hook_ctx = nullptr;
    r->m = new Vwm_mesh(&r->ctx, "mesh");
    r->m->enable_i = (1u << kTiles) - 1u;
    r->m->rst_ni = 0;
    clock(r->m);
    r->m->rst_ni = 1;
    return reinterpret_cast<wm_fabric *>(r);
}

void mesh_destroy(wm_fabric *f)
{
    MeshFabric *r = as_mesh(f);
    if (!r) return;
    r->m->final();
    delete r->m;
    delete r;
}

void mesh_set_enable(wm_fabric *f, unsigned x, unsigned y, bool on)
{
    Vwm_mesh *m = as_mesh(f)->m;
    const uint32_t bit = 1u << index_of(x, y);
    m->enable_i = on ? (m->enable_i | bit) : (m->enable_i & ~bit);
}

void mesh_step(wm_fabric *f)
{
    MeshFabric *r = as_mesh(f);
    clock(r->m);
    r->m->pe_push_i = 0;
    r->m->pe_pop_i = 0;
    r->cycle++;
    if (!r->hook) return;
    wm_link_event ev;
    ev.cycle = r->cycle;
    for (unsigned t = 0; t < kTiles; t++) {
        ev.x = (uint16_t)(t % kW);
        ev.y = (uint16_t)(t / kW);
        for (unsigned p = 0; p < WM_NPORTS; p++) {
            if (!((r->m->out_valid_o >> (5 * t + p)) & 1u)) continue;
            ev.port = (uint8_t)p;
            ev.data = r->m->out_data_o[5 * t + p];
            r->hook(r->hook_ctx, &ev);
        }
    }
}

uint64_t mesh_cycle(const wm_fabric *f) { return as_mesh(f)->cycle; }

void mesh_pe_push(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet)
{
    Vwm_mesh *m = as_mesh(f)->m;
    m->pe_push_i |= (uint16_t)(1u << index_of(x, y));
    m->pe_data_i[index_of(x, y)] = wavelet;
}

void mesh_pe_pop(wm_fabric *f, unsigned x, unsigned y)
{
    as_mesh(f)->m->pe_pop_i |= (uint16_t)(1u << index_of(x, y));
}

wm_pe_status mesh_pe_status(const wm_fabric *f, unsigned x, unsigned y)
{
    const Vwm_mesh *m = as_mesh(f)->m;
    const unsigned t = index_of(x, y);
    wm_pe_status s;
    s.tsc = ((uint64_t)m->pe_tsc_o[2 * t + 1] << 32) | m->pe_tsc_o[2 * t];
    s.rx_head = m->pe_rx_head_o[t];
    s.tx_count = (uint8_t)((m->pe_tx_count_o >> (4 * t)) & 15u);
    s.rx_count = (uint8_t)((m->pe_rx_count_o >> (4 * t)) & 15u);
    s.status = (uint8_t)((m->pe_status_o >> (4 * t)) & 15u);
    s.err_hdr = m->err_hdr_o[t];
    return s;
}

bool mesh_quiescent(const wm_fabric *f)
{
    const Vwm_mesh *m = as_mesh(f)->m;
    for (unsigned t = 0; t < kTiles; t++)
        if ((m->pe_status_o >> (4 * t)) & WM_ST_BUSY) return false;
    return true;
}

// mesh.v exposes the output registers and TX counts, not the link buffers:
// a busy tile whose wavelets sit only in link buffers is listed as one
// INPUT entry with count 0 (place known, occupancy not).
size_t mesh_in_flight(const wm_fabric *f, wm_flight *out, size_t max)
{
    const Vwm_mesh *m = as_mesh(f)->m;
    size_t n = 0;
    auto add = [&](unsigned t, unsigned place, unsigned port, unsigned count, uint32_t head) {
        if (n < max) out[n] = wm_flight{(uint16_t)(t % kW), (uint16_t)(t / kW), (uint8_t)place,
                                        (uint8_t)port, (uint8_t)count, head};
        n++;
    };
    for (unsigned t = 0; t < kTiles; t++) {
        if (!((m->pe_status_o >> (4 * t)) & WM_ST_BUSY)) continue;
        bool listed = false;
        const unsigned tx = (unsigned)((m->pe_tx_count_o >> (4 * t)) & 15u);
        if (tx) add(t, WM_AT_TX, WM_PORT_L, tx, 0), listed = true;
        for (unsigned p = 0; p < WM_NPORTS; p++)
            if ((m->out_valid_o >> (5 * t + p)) & 1u) add(t, WM_AT_OUTPUT, p, 1, m->out_data_o[5 * t + p]), listed = true;
        if (!listed) add(t, WM_AT_INPUT, WM_PORT_N, 0, 0);
    }
    return n;
}

void mesh_set_link_hook(wm_fabric *f, wm_link_hook hook, void *ctx)
{
    as_mesh(f)->hook = hook;
    as_mesh(f)->hook_ctx = ctx;
}

} // namespace

extern "C" const wm_fabric_ops wm_fabric_rtl_mesh = {
    "rtl-mesh",     mesh_create,        mesh_destroy,  mesh_set_enable, mesh_step,
    mesh_cycle,     mesh_pe_push,       mesh_pe_pop,   mesh_pe_status,  mesh_quiescent,
    mesh_in_flight, mesh_set_link_hook,
    // No cores: the cross-check mesh is the bare tile's.
    nullptr,        nullptr,            nullptr,       nullptr,         nullptr,
    nullptr,
};
