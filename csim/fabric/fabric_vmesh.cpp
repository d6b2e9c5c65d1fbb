// fabric_vmesh.cpp: the "rtl-mesh" backend, the Verilated rtl/mesh.v.
//
// A second, independent wiring of the same tiles: here Verilog wires
// connect them, in the rtl backend C copies do. It exists to cross-check
// the two, wavelet for wavelet, so it is built for one small fixed size
// (WM_VMESH_W x WM_VMESH_H, set by the Makefile): Verilating a flattened
// mesh is what the tile-once design avoids for every other size.
//
// PE cores (create_cores): the same mesh.v with CORES=1, every tile a
// wm_tile_core, Verilated as a second model (Vwm_mesh_core) at its own
// fixed size, WM_VMESH_CORE_W x WM_VMESH_CORE_H (the Makefile makes it the
// 4x2 of the seed's tworow placement, so a layout runs on it unchanged).
// The RAMs are loaded and read through their public mem_q, found by scope
// name, not by Verilator's member names, which change with its inlining.
// A step reads each running core's record of the cycle between the clock-
// low evaluation and the edge, as the rtl backend's step_cores does, and
// reports the cores' events, then the link events.
#include "fabric/fabric.h"

#ifndef WM_RTL_CORES_ONLY // a build at other depths (mk/params.mk) has no Verilated mesh
#include "Vwm_mesh.h"
#include "Vwm_mesh_core.h"
#endif
#include "verilated.h"
#include "verilated_syms.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#ifndef WM_VMESH_W
#error "WM_VMESH_W and WM_VMESH_H must match the -G parameters of the Verilated mesh"
#endif
#ifndef WM_VMESH_CORE_W
#error "WM_VMESH_CORE_W and WM_VMESH_CORE_H must match the -G parameters of the Verilated mesh with cores"
#endif

namespace {

// The flattened ports of mesh.v are a CData .. QData or a VlWide, by their
// width, which depends on the mesh size: these read and write a field of
// either kind (n <= 32).
template <class T> uint32_t get_bits(const T &v, unsigned lo, unsigned n)
{
    return (uint32_t)(((uint64_t)v >> lo) & ((1ull << n) - 1u));
}

template <std::size_t N> uint32_t get_bits(const VlWide<N> &v, unsigned lo, unsigned n)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++) r |= (uint64_t)((v[(lo + i) / 32] >> ((lo + i) % 32)) & 1u) << i;
    return (uint32_t)r;
}

template <class T> void set_bits(T &v, unsigned lo, unsigned n, uint32_t value)
{
    const uint64_t mask = ((1ull << n) - 1u) << lo;
    v = (T)(((uint64_t)v & ~mask) | (((uint64_t)value << lo) & mask));
}

template <std::size_t N> void set_bits(VlWide<N> &v, unsigned lo, unsigned n, uint32_t value)
{
    for (unsigned i = 0; i < n; i++) {
        const uint32_t bit = 1u << ((lo + i) % 32);
        EData &word = v[(lo + i) / 32];
        word = ((value >> i) & 1u) ? (word | bit) : (word & ~bit);
    }
}

// One core of the mesh with cores: its public RAM and register file, and
// what the host counts itself (as the rtl backend's Core).
struct Core {
    IData *mem = nullptr;  // u_ram.mem_q, WM_TILE_MEM_BYTES / 4 words: the data port's copy
    IData *imem = nullptr; // u_ram.imem_q: the instruction port's copy, loaded alike
    IData *regs = nullptr; // u_core.u_regfile.regs_q, 32 words
    bool run = false;      // core_start was called: core_run_i is 1
    bool started = false;  // ... and a step has run since
    uint64_t retired = 0;
};

// The fabric, whichever model: the table's functions see this.
class Mesh {
  public:
    virtual ~Mesh() = default;
    virtual void set_enable(unsigned t, bool on) = 0;
    virtual void step() = 0;
    virtual void push(unsigned t, uint32_t wavelet) = 0;
    virtual void pop(unsigned t) = 0;
    virtual wm_pe_status status(unsigned t) const = 0;
    virtual bool out_valid(unsigned t, unsigned port) const = 0;
    virtual uint32_t out_data(unsigned t, unsigned port) const = 0;
    virtual bool busy(unsigned t) const = 0;
    virtual wm_core_status core_status(unsigned t) const = 0;
    virtual void core_start(unsigned t) = 0;

    unsigned w = 0, h = 0;
    uint64_t cycle = 0;
    wm_link_hook hook = nullptr;
    void *hook_ctx = nullptr;
    std::vector<Core> cores; // one per tile with cores; empty for the bare mesh
    wm_core_hook core_hook = nullptr;
    void *core_hook_ctx = nullptr;
};

template <class M> class MeshOf final : public Mesh {
  public:
    VerilatedContext ctx;
    M *m = nullptr;
    std::vector<wm_core_event> core_events; // one step's, reported after the edge

    ~MeshOf() override
    {
        if (!m) return;
        m->final();
        delete m;
    }

    // Every router enabled, one reset edge; the cores (if any) stay in reset.
    bool make(unsigned mw, unsigned mh, bool with_cores)
    {
        w = mw;
        h = mh;
        m = new M(&ctx, "mesh");
        for (unsigned t = 0; t < w * h; t++) set_bits(m->enable_i, t, 1, 1);
        m->core_run_i = 0;
        m->rst_ni = 0;
        if (with_cores && !bind_cores()) return false;
        clock_low();
        clock_high();
        m->rst_ni = 1;
        return true;
    }

    // The RAM and register file of every tile, by scope name; zeroed, as
    // the rtl backend zeroes them (neither has a reset).
    bool bind_cores()
    {
        cores.assign((size_t)w * h, Core{});
        for (unsigned t = 0; t < w * h; t++) {
            const std::string tile = std::string(m->name()) + ".wm_mesh.gen_row[" + std::to_string(t / w) +
                                     "].gen_col[" + std::to_string(t % w) + "].gen_core.u_tile";
            IData *mem = find(tile + ".u_ram", "mem_q", WM_TILE_MEM_BYTES);
            IData *imem = find(tile + ".u_ram", "imem_q", WM_TILE_MEM_BYTES);
            IData *regs = find(tile + ".u_core.u_regfile", "regs_q", 32 * sizeof(IData));
            if (!mem || !imem || !regs) return false;
            std::memset(mem, 0, WM_TILE_MEM_BYTES);
            std::memset(imem, 0, WM_TILE_MEM_BYTES);
            std::memset(regs, 0, 32 * sizeof(IData));
            cores[t].mem = mem;
            cores[t].imem = imem;
            cores[t].regs = regs;
        }
        return true;
    }

    IData *find(const std::string &scope, const char *var, size_t bytes)
    {
        const VerilatedScope *s = ctx.scopeFind(scope.c_str());
        const VerilatedVar *v = s ? s->varFind(var) : nullptr;
        if (!v || v->totalSize() != bytes) {
            fprintf(stderr, "wavemesh: the rtl-mesh model has no public %s of %zu bytes in %s\n", var, bytes,
                    scope.c_str());
            return nullptr;
        }
        return static_cast<IData *>(v->datap());
    }

    void clock_low()
    {
        m->clk_i = 0;
        m->eval();
    }

    void clock_high()
    {
        m->clk_i = 1;
        m->eval();
    }

    // This cycle's record of every running core, from the clock-low
    // evaluation: valid until the edge.
    void record_cores()
    {
        for (unsigned t = 0; t < cores.size(); t++) {
            Core &c = cores[t];
            if (!c.run) continue;
            c.started = true;
            const bool retire = get_bits(m->core_retire_o, t, 1);
            c.retired += retire;
            if (!core_hook) continue;
            const bool push = get_bits(m->core_push_o, t, 1), pop = get_bits(m->core_pop_o, t, 1);
            if (!retire && !push && !pop) continue;
            wm_core_event ev;
            std::memset(&ev, 0, sizeof ev);
            ev.cycle = cycle;
            ev.x = (uint16_t)(t % w);
            ev.y = (uint16_t)(t / w);
            ev.what.push = push;
            ev.what.push_data = get_bits(m->core_push_data_o, 32 * t, 32);
            ev.what.pop = pop;
            ev.what.retire = retire;
            ev.what.retire_pc = get_bits(m->core_retire_pc_o, 32 * t, 32);
            ev.what.retire_insn = get_bits(m->core_retire_insn_o, 32 * t, 32);
            ev.what.rd_we = get_bits(m->core_rd_we_o, t, 1);
            ev.what.rd = (uint8_t)get_bits(m->core_rd_o, 5 * t, 5);
            ev.what.rd_data = get_bits(m->core_rd_data_o, 32 * t, 32);
            if (pop) ev.pop_data = get_bits(m->pe_rx_head_o, 32 * t, 32);
            core_events.push_back(ev);
        }
    }

    void step() override
    {
        clock_low();
        record_cores();
        clock_high();
        m->pe_push_i = 0;
        m->pe_pop_i = 0;
        cycle++;
        for (const wm_core_event &ev : core_events) core_hook(core_hook_ctx, &ev);
        core_events.clear();
        if (!hook) return;
        wm_link_event ev;
        ev.cycle = cycle;
        for (unsigned t = 0; t < w * h; t++) {
            ev.x = (uint16_t)(t % w);
            ev.y = (uint16_t)(t / w);
            for (unsigned p = 0; p < WM_NPORTS; p++) {
                if (!out_valid(t, p)) continue;
                ev.port = (uint8_t)p;
                ev.data = out_data(t, p);
                hook(hook_ctx, &ev);
            }
        }
    }

    void set_enable(unsigned t, bool on) override { set_bits(m->enable_i, t, 1, on); }

    void push(unsigned t, uint32_t wavelet) override
    {
        set_bits(m->pe_push_i, t, 1, 1);
        set_bits(m->pe_data_i, 32 * t, 32, wavelet);
    }

    void pop(unsigned t) override { set_bits(m->pe_pop_i, t, 1, 1); }

    wm_pe_status status(unsigned t) const override
    {
        wm_pe_status s;
        s.tsc = ((uint64_t)get_bits(m->pe_tsc_o, 64 * t + 32, 32) << 32) | get_bits(m->pe_tsc_o, 64 * t, 32);
        s.rx_head = get_bits(m->pe_rx_head_o, 32 * t, 32);
        s.tx_count = (uint8_t)get_bits(m->pe_tx_count_o, 4 * t, 4);
        s.rx_count = (uint8_t)get_bits(m->pe_rx_count_o, 4 * t, 4);
        s.status = (uint8_t)get_bits(m->pe_status_o, 4 * t, 4);
        s.err_hdr = get_bits(m->err_hdr_o, 32 * t, 32);
        return s;
    }

    bool out_valid(unsigned t, unsigned port) const override { return get_bits(m->out_valid_o, 5 * t + port, 1); }
    uint32_t out_data(unsigned t, unsigned port) const override
    {
        return get_bits(m->out_data_o, 32 * (5 * t + port), 32);
    }
    bool busy(unsigned t) const override { return get_bits(m->pe_status_o, 4 * t, 4) & WM_ST_BUSY; }

    // The core's outputs after the last edge: its state at the current cycle.
    wm_core_status core_status(unsigned t) const override
    {
        wm_core_status s;
        std::memset(&s, 0, sizeof s);
        if (cores.empty()) return s;
        const Core &c = cores[t];
        const bool exited = get_bits(m->core_exited_o, t, 1), fault = get_bits(m->core_fault_o, t, 1);
        s.started = c.started;
        s.waiting = get_bits(m->core_wait_o, t, 1);
        s.pc = get_bits(m->core_pc_o, 32 * t, 32);
        s.retired = c.retired;
        s.halt.state = exited ? WM_CORE_EXITED : fault ? WM_CORE_FAULTED : WM_CORE_RUNNING;
        s.halt.exit_code = get_bits(m->core_exit_code_o, 32 * t, 32);
        s.halt.cause = fault ? (wm_core_fault)get_bits(m->core_fault_cause_o, 3 * t, 3) : WM_CORE_OK;
        s.halt.pc = get_bits(m->core_fault_pc_o, 32 * t, 32); // the halting instruction, the EXIT store too
        s.halt.insn = get_bits(m->core_fault_insn_o, 32 * t, 32);
        return s;
    }

    // Released from reset at the next edge: the next step is the core's cycle 0.
    void core_start(unsigned t) override
    {
        if (cores.empty()) return;
        set_bits(m->core_run_i, t, 1, 1);
        cores[t].run = true;
    }
};

Mesh *as_mesh(wm_fabric *f) { return reinterpret_cast<Mesh *>(f); }
const Mesh *as_mesh(const wm_fabric *f) { return reinterpret_cast<const Mesh *>(f); }
unsigned index_of(const Mesh *r, unsigned x, unsigned y) { return y * r->w + x; }

template <class M> wm_fabric *make_mesh(unsigned w, unsigned h, unsigned mw, unsigned mh, bool with_cores)
{
    if (w != mw || h != mh) {
        fprintf(stderr, "wavemesh: the rtl-mesh backend is built for %ux%u only%s, not %ux%u\n", mw, mh,
                with_cores ? " with cores" : "", w, h);
        return nullptr;
    }
    // Running out of memory while the model is built is reported as the
    // sw backend reports it: std::bad_alloc stops here, at the C boundary.
    MeshOf<M> *r = new (std::nothrow) MeshOf<M>();
    bool made = false;
    try {
        made = r && r->make(w, h, with_cores);
    } catch (const std::bad_alloc &) {
        fprintf(stderr, "wavemesh: out of memory for the %ux%u rtl-mesh fabric%s\n", w, h,
                with_cores ? " with cores" : "");
        delete r;
        return nullptr;
    }
    if (!made) {
        if (!r) fprintf(stderr, "wavemesh: out of memory for the %ux%u rtl-mesh fabric\n", w, h);
        delete r;
        return nullptr;
    }
    return reinterpret_cast<wm_fabric *>(static_cast<Mesh *>(r));
}

wm_fabric *mesh_create(unsigned w, unsigned h)
{
#ifdef WM_RTL_CORES_ONLY
    (void)w, (void)h;
    fprintf(stderr, "wavemesh: this build (mk/params.mk) has no rtl-mesh backend\n");
    return nullptr;
#else
    return make_mesh<Vwm_mesh>(w, h, WM_VMESH_W, WM_VMESH_H, false);
#endif
}

wm_fabric *mesh_create_cores(unsigned w, unsigned h)
{
#ifdef WM_RTL_CORES_ONLY
    return mesh_create(w, h);
#else
    return make_mesh<Vwm_mesh_core>(w, h, WM_VMESH_CORE_W, WM_VMESH_CORE_H, true);
#endif
}

// The cross-check's mesh has no setting of its own: the config's fields are
// the sw and rtl backends'. Its tsc starts at rtl/mesh.v's TSC_INIT, 0.
wm_fabric *mesh_create_with(unsigned w, unsigned h, bool cores, const wm_fabric_config *cfg)
{
    if (cfg && cfg->tsc_start != 0) {
        fprintf(stderr, "wavemesh: the rtl-mesh backend's tsc starts at 0 (rtl/mesh.v's TSC_INIT), not at %llu\n",
                (unsigned long long)cfg->tsc_start);
        return nullptr;
    }
    if (cfg && (cfg->band.row_end != 0 || cfg->band.col_end != 0)) {
        fprintf(stderr, "wavemesh: the rtl-mesh backend makes whole meshes, not a block of one\n");
        return nullptr;
    }
    return cores ? mesh_create_cores(w, h) : mesh_create(w, h);
}

void mesh_destroy(wm_fabric *f) { delete as_mesh(f); }

void mesh_set_enable(wm_fabric *f, unsigned x, unsigned y, bool on)
{
    as_mesh(f)->set_enable(index_of(as_mesh(f), x, y), on);
}

void mesh_step(wm_fabric *f) { as_mesh(f)->step(); }

uint64_t mesh_cycle(const wm_fabric *f) { return as_mesh(f)->cycle; }

void mesh_pe_push(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet)
{
    as_mesh(f)->push(index_of(as_mesh(f), x, y), wavelet);
}

void mesh_pe_pop(wm_fabric *f, unsigned x, unsigned y) { as_mesh(f)->pop(index_of(as_mesh(f), x, y)); }

wm_pe_status mesh_pe_status(const wm_fabric *f, unsigned x, unsigned y)
{
    return as_mesh(f)->status(index_of(as_mesh(f), x, y));
}

bool mesh_quiescent(const wm_fabric *f)
{
    const Mesh *r = as_mesh(f);
    for (unsigned t = 0; t < r->w * r->h; t++)
        if (r->busy(t)) return false;
    return true;
}

// mesh.v exposes the output registers and TX counts, not the link buffers:
// a busy tile whose wavelets sit only in link buffers is listed as one
// INPUT entry with count 0 (place known, occupancy not).
size_t mesh_in_flight(const wm_fabric *f, wm_flight *out, size_t max)
{
    const Mesh *r = as_mesh(f);
    size_t n = 0;
    auto add = [&](unsigned t, unsigned place, unsigned port, unsigned count, uint32_t head) {
        if (n < max) out[n] = wm_flight{(uint16_t)(t % r->w), (uint16_t)(t / r->w), (uint8_t)place,
                                        (uint8_t)port, (uint8_t)count, head};
        n++;
    };
    for (unsigned t = 0; t < r->w * r->h; t++) {
        if (!r->busy(t)) continue;
        bool listed = false;
        const unsigned tx = r->status(t).tx_count;
        if (tx) add(t, WM_AT_TX, WM_PORT_L, tx, 0), listed = true;
        for (unsigned p = 0; p < WM_NPORTS; p++)
            if (r->out_valid(t, p)) add(t, WM_AT_OUTPUT, p, 1, r->out_data(t, p)), listed = true;
        if (!listed) add(t, WM_AT_INPUT, WM_PORT_N, 0, 0);
    }
    return n;
}

void mesh_set_link_hook(wm_fabric *f, wm_link_hook hook, void *ctx)
{
    as_mesh(f)->hook = hook;
    as_mesh(f)->hook_ctx = ctx;
}

// The RAM as little-endian bytes; bytes past it are not written and read
// as 0 (the contract keeps addr + n within WM_TILE_MEM_BYTES).
void mesh_core_load(wm_fabric *f, unsigned x, unsigned y, uint32_t addr, const void *bytes, size_t n)
{
    Mesh *r = as_mesh(f);
    if (r->cores.empty()) return;
    IData *mem = r->cores[index_of(r, x, y)].mem;
    IData *imem = r->cores[index_of(r, x, y)].imem;
    const uint8_t *b = static_cast<const uint8_t *>(bytes);
    for (size_t i = 0; i < n && (uint64_t)addr + i < WM_TILE_MEM_BYTES; i++) {
        const uint32_t a = addr + (uint32_t)i;
        const unsigned sh = 8u * (a & 3u);
        mem[a >> 2] = (mem[a >> 2] & ~(0xFFu << sh)) | ((uint32_t)b[i] << sh);
        imem[a >> 2] = mem[a >> 2];
    }
}

void mesh_core_read(const wm_fabric *f, unsigned x, unsigned y, uint32_t addr, void *bytes, size_t n)
{
    const Mesh *r = as_mesh(f);
    const IData *mem = r->cores.empty() ? nullptr : r->cores[index_of(r, x, y)].mem;
    uint8_t *b = static_cast<uint8_t *>(bytes);
    for (size_t i = 0; i < n; i++) {
        const uint64_t a = (uint64_t)addr + i;
        b[i] = (mem && a < WM_TILE_MEM_BYTES) ? (uint8_t)(mem[a >> 2] >> (8u * (a & 3u))) : 0;
    }
}

void mesh_core_start(wm_fabric *f, unsigned x, unsigned y) { as_mesh(f)->core_start(index_of(as_mesh(f), x, y)); }

wm_core_status mesh_core_status(const wm_fabric *f, unsigned x, unsigned y)
{
    return as_mesh(f)->core_status(index_of(as_mesh(f), x, y));
}

void mesh_set_core_hook(wm_fabric *f, wm_core_hook hook, void *ctx)
{
    as_mesh(f)->core_hook = hook;
    as_mesh(f)->core_hook_ctx = ctx;
}

wm_core_hook mesh_get_core_hook(const wm_fabric *f, void **ctx)
{
    *ctx = as_mesh(f)->core_hook_ctx;
    return as_mesh(f)->core_hook;
}

} // namespace

extern "C" const wm_fabric_ops wm_fabric_rtl_mesh = {
    "rtl-mesh",        mesh_create,        mesh_destroy,      mesh_set_enable, mesh_step,
    mesh_cycle,        mesh_pe_push,       mesh_pe_pop,       mesh_pe_status,  mesh_quiescent,
    mesh_in_flight,    mesh_set_link_hook, mesh_create_cores, mesh_core_load,  mesh_core_read,
    mesh_core_start,   mesh_core_status,   mesh_set_core_hook,
    nullptr, // no census: the cross-check is small, its driver asks every core
    mesh_get_core_hook,
    mesh_create_with,
    nullptr,
    nullptr, // no debugger's view of the registers: a cross-check only
    nullptr,
    nullptr,
    nullptr, // no memory accounting: Verilator allocates the mesh
    nullptr, // nor its hold
    nullptr, // nor blocks: rtl/mesh.v is one whole mesh
    nullptr,
};
