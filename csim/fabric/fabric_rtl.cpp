// fabric_rtl.cpp: the rtl backend, the Verilated wm_tile W x H times.
//
// The tile is Verilated once; the mesh size is a run-time argument. Each
// step copies every tile's outputs (all of them flops, docs/fabric.md) into
// its neighbours' inputs, then clocks every tile: exactly what the wires of
// rtl/mesh.v do, without Verilating a flattened mesh (655 s to build a
// 32x32 one, measured). This thin C++ layer exposes the C table
// wm_fabric_rtl; everything above it is C11.
//
// Dumps (csim/fabric/fabric_rtl.h): the tiles inside the traced rectangle are
// instances of a model Verilated with tracing, the others of the untraced
// one. All three classes have the same ports, so each tile is reached
// through a Tile, a table of pointers to its ports, which costs what the
// Verilated class's own port references cost.
//
// PE cores (create_cores): every tile is rtl/wm_tile_core.v instead, wm_tile
// with wm_core and its RAM, Verilated three times in the same way. Its link
// and datapath ports are wm_tile's, so the wiring and every query above are
// shared; the core drives the firmware port inside the model, and its own
// ports (run, halt, this cycle's record) are one more table in the Tile. A
// fabric of bare tiles never touches them: its step is the one it always was.
//
// Blocks (config.band, docs/fabric.md): the fabric holds the tiles of rows
// [row_begin, row_end) x columns [col_begin, col_end) of the mesh only, in
// global coordinates; the inputs of the edge tiles facing another block
// are wired from what band_edge_in gave, as phase 1 wires every other
// input from a neighbour's outputs.
#include "fabric/fabric.h"
#include "fabric/fabric_rtl.h"
#include "core/vl_coverage.h"

// A build at another set of depths (mk/params.mk, WM_RTL_CORES_ONLY)
// Verilates the untraced tile with core alone: it refuses bare tiles and
// dumps (create).
#include "Vwm_tile_core.h"
#include "Vwm_tile_core___024root.h"
#ifndef WM_RTL_CORES_ONLY
#include "Vwm_tile.h"
#include "Vwm_tile_core_fst.h"
#include "Vwm_tile_core_fst___024root.h"
#include "Vwm_tile_core_vcd.h"
#include "Vwm_tile_core_vcd___024root.h"
#include "Vwm_tile_fst.h"
#include "Vwm_tile_vcd.h"
#endif
#include "verilated.h"
#include "verilated_fst_c.h"
#include "verilated_vcd_c.h"

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <new>
#include <type_traits>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

struct Posted {
    uint32_t data;
    bool push, pop;
};

// One link port of a tile, indexed by wm_port N..W.
struct LinkPorts {
    CData *valid_i, *credit_o, *en_i, *valid_o, *credit_i;
    IData *data_i, *data_o;
};

// The core of a wm_tile_core: its ports and its public RAM and registers.
// Kept beside the tiles, not in them, so a Tile is what it always was.
struct CorePorts {
    CData *run_i, *hold_i, *halted_o, *exited_o, *fault_o, *fault_cause_o;
    CData *retire_o, *rd_we_o, *rd_o, *push_o, *pop_o, *wait_o;
    IData *exit_code_o, *fault_pc_o, *fault_insn_o, *retire_pc_o, *retire_insn_o, *rd_data_o, *push_data_o, *pc_o;
    IData *mem;  // u_ram.mem_q, WM_TILE_MEM_BYTES / 4 words: the data port's copy
    IData *imem; // u_ram.imem_q: the instruction port's copy, loaded alike
    IData *regs; // u_core.u_regfile.regs_q, 32 words
};

// A link buffer's count in in_count_o: $clog2(IN_DEPTH) + 1 bits.
constexpr unsigned clog2(unsigned v) { return v <= 1 ? 0 : 1 + clog2((v + 1) / 2); }
constexpr unsigned IN_COUNT_BITS = clog2(WM_IN_DEPTH) + 1;

struct Tile {
    CData *clk_i, *rst_ni, *enable_i, *en_o;
    SData *x_i, *y_i, *last_x_i, *last_y_i; /* COORD_W (10) bits */
    QData *tsc_init_i;
    LinkPorts link[4];
    CData *pe_push_i, *pe_pop_i, *pe_tx_count_o, *pe_rx_count_o, *pe_status_o, *ramp_valid_o;
    IData *pe_data_i, *pe_rx_head_o, *err_hdr_o, *ramp_data_o; // pe_*_i: null with a core
    QData *pe_tsc_o;
    SData *in_count_o;
    VlWide<5> *in_head_o;
    VerilatedModel *model;
    void (*eval)(VerilatedModel *);
    void (*finish)(VerilatedModel *);
};

template <class M> void eval_model(VerilatedModel *m) { static_cast<M *>(m)->eval(); }
template <class M> void finish_model(VerilatedModel *m)
{
    static_cast<M *>(m)->final();
    delete static_cast<M *>(m);
}

// The ports wm_tile and wm_tile_core share.
template <class M> Tile bind_common(M *m)
{
    Tile t{};
    t.clk_i = &m->clk_i;
    t.rst_ni = &m->rst_ni;
    t.tsc_init_i = &m->tsc_init_i;
    t.x_i = &m->x_i;
    t.y_i = &m->y_i;
    t.last_x_i = &m->last_x_i;
    t.last_y_i = &m->last_y_i;
    t.enable_i = &m->enable_i;
    t.en_o = &m->en_o;
    t.link[WM_PORT_N] = {&m->north_valid_i, &m->north_credit_o, &m->north_en_i, &m->north_valid_o,
                         &m->north_credit_i, &m->north_data_i, &m->north_data_o};
    t.link[WM_PORT_E] = {&m->east_valid_i, &m->east_credit_o, &m->east_en_i, &m->east_valid_o,
                         &m->east_credit_i, &m->east_data_i, &m->east_data_o};
    t.link[WM_PORT_S] = {&m->south_valid_i, &m->south_credit_o, &m->south_en_i, &m->south_valid_o,
                         &m->south_credit_i, &m->south_data_i, &m->south_data_o};
    t.link[WM_PORT_W] = {&m->west_valid_i, &m->west_credit_o, &m->west_en_i, &m->west_valid_o,
                         &m->west_credit_i, &m->west_data_i, &m->west_data_o};
    t.pe_tx_count_o = &m->pe_tx_count_o;
    t.pe_rx_count_o = &m->pe_rx_count_o;
    t.pe_status_o = &m->pe_status_o;
    t.ramp_valid_o = &m->ramp_valid_o;
    t.pe_rx_head_o = &m->pe_rx_head_o;
    t.err_hdr_o = &m->err_hdr_o;
    t.ramp_data_o = &m->ramp_data_o;
    t.pe_tsc_o = &m->pe_tsc_o;
    t.in_count_o = &m->in_count_o;
    t.in_head_o = &m->in_head_o;
    t.model = m;
    t.eval = eval_model<M>;
    t.finish = finish_model<M>;
    return t;
}

// A bare wm_tile: the host drives its firmware port.
template <class M> Tile bind_tile(M *m)
{
    Tile t = bind_common(m);
    t.pe_push_i = &m->pe_push_i;
    t.pe_pop_i = &m->pe_pop_i;
    t.pe_data_i = &m->pe_data_i;
    return t;
}

// A wm_tile_core: its core drives the firmware port.
template <class M> Tile bind_core_tile(M *m, CorePorts &c)
{
    Tile t = bind_common(m);
    c.run_i = &m->core_run_i;
    c.hold_i = &m->core_hold_i;
    c.halted_o = &m->halted_o;
    c.exited_o = &m->exited_o;
    c.fault_o = &m->fault_o;
    c.fault_cause_o = &m->fault_cause_o;
    c.retire_o = &m->retire_o;
    c.rd_we_o = &m->rd_we_o;
    c.rd_o = &m->rd_o;
    c.push_o = &m->core_push_o;
    c.pop_o = &m->core_pop_o;
    c.wait_o = &m->core_wait_o;
    c.exit_code_o = &m->exit_code_o;
    c.fault_pc_o = &m->fault_pc_o;
    c.fault_insn_o = &m->fault_insn_o;
    c.retire_pc_o = &m->retire_pc_o;
    c.retire_insn_o = &m->retire_insn_o;
    c.rd_data_o = &m->rd_data_o;
    c.push_data_o = &m->core_push_data_o;
    c.pc_o = &m->pc_o;
    auto &mem = m->rootp->wm_tile_core__DOT__u_ram__DOT__mem_q;
    auto &imem = m->rootp->wm_tile_core__DOT__u_ram__DOT__imem_q;
    auto &regs = m->rootp->wm_tile_core__DOT__u_core__DOT__u_regfile__DOT__regs_q;
    static_assert(sizeof mem == WM_TILE_MEM_BYTES, "wm_tile_core's MEM_BYTES is WM_TILE_MEM_BYTES");
    static_assert(sizeof regs == 32 * sizeof(IData), "32 registers");
    static_assert(sizeof imem == sizeof mem, "two copies of the RAM");
    c.mem = &mem[0];
    c.imem = &imem[0];
    c.regs = &regs[0];
    return t;
}

// Values in C memory dumped beside the tiles: Verilator's trace writer
// takes any source that registers the callbacks a Verilated model does.
struct ExtraSignals {
    std::vector<wm_rtl_extra_signal> sig;
    std::vector<std::string> prefix; // the scope with Verilator's ' ' separator
    std::vector<uint32_t> offset;    // code offset of each signal
    std::vector<bool> written;       // a value was written: the signal is no longer x
    uint32_t base = 0;
};

void declare(VerilatedFst *tp, uint32_t code, const char *name, unsigned bits)
{
    if (bits == 1) tp->declBit(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1);
    else if (bits <= 32) tp->declBus(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, (int)bits - 1, 0);
    else tp->declQuad(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, (int)bits - 1, 0);
}

void declare(VerilatedVcd *tp, uint32_t code, const char *name, unsigned bits)
{
    if (bits == 1) tp->declBit(code, name, false, -1);
    else if (bits <= 32) tp->declBus(code, name, false, -1, (int)bits - 1, 0);
    else tp->declQuad(code, name, false, -1, (int)bits - 1, 0);
}

template <class T> void extra_init(void *userp, T *tp, uint32_t code)
{
    ExtraSignals *x = static_cast<ExtraSignals *>(userp);
    x->base = code;
    tp->scopeEscape(' ');
    for (size_t i = 0; i < x->sig.size(); i++) {
        tp->pushNamePrefix(x->prefix[i]);
        declare(tp, code + x->offset[i], x->sig[i].name, x->sig[i].bits);
        tp->popNamePrefix(1);
    }
    tp->scopeEscape('.');
}

template <class B> void extra_dump(void *userp, B *bufp, bool full)
{
    ExtraSignals *x = static_cast<ExtraSignals *>(userp);
    uint32_t *oldp = bufp->oldp(x->base);
    for (size_t i = 0; i < x->sig.size(); i++) {
        const wm_rtl_extra_signal &sg = x->sig[i];
        const uint64_t v = *sg.value;
        uint32_t *op = oldp + x->offset[i];
        // Not known yet: nothing written, so the dump holds x (the writer's
        // initial value); its first value is written whole.
        if (sg.known && !*sg.known) continue;
        const bool whole = full || !x->written[i];
        x->written[i] = true;
        if (sg.bits == 1) whole ? bufp->fullBit(op, (CData)(v & 1u)) : bufp->chgBit(op, (CData)(v & 1u));
        else if (sg.bits <= 32) whole ? bufp->fullIData(op, (IData)v, (int)sg.bits) : bufp->chgIData(op, (IData)v, (int)sg.bits);
        else whole ? bufp->fullQData(op, (QData)v, (int)sg.bits) : bufp->chgQData(op, (QData)v, (int)sg.bits);
    }
}
template <class B> void extra_full(void *userp, B *bufp) { extra_dump(userp, bufp, true); }
template <class B> void extra_chg(void *userp, B *bufp) { extra_dump(userp, bufp, false); }

template <class C> void register_extra(C *tfp, ExtraSignals *x)
{
    using Trace = typename std::remove_pointer<decltype(tfp->spTrace())>::type;
    tfp->spTrace()->addInitCb(&extra_init<Trace>, x);
    tfp->spTrace()->addFullCb(&extra_full<typename Trace::Buffer>, x);
    tfp->spTrace()->addChgCb(&extra_chg<typename Trace::Buffer>, x);
}

// One core: its ports, and what the host counts itself.
struct Core {
    CorePorts port;
    bool run;      // core_start was called: core_run_i is 1
    bool restart;  // core_start again: core_run_i is 0 for one step, then 1
    bool started;  // ... and a step has run since
    uint64_t retired;
};

// The VCD writer's file: a failed write is kept (its errno) rather than
// reported through Verilator's fatal error, which waits for ever on a lock
// its caller holds; the dump's owner reads it each cycle and stops the run.
class CheckedVcdFile final : public VerilatedVcdFile {
    int fd_ = -1;

public:
    int error = 0;
    bool open(const std::string &name) override
    {
        fd_ = ::open(name.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0666);
        if (fd_ < 0) error = errno;
        return fd_ >= 0;
    }
    void close() override
    {
        if (fd_ >= 0 && ::close(fd_) != 0 && !error) error = errno;
        fd_ = -1;
    }
    ssize_t write(const char *bufp, ssize_t len) override
    {
        for (ssize_t done = 0; done < len && !error && fd_ >= 0;) {
            const ssize_t n = ::write(fd_, bufp + done, (size_t)(len - done));
            if (n > 0) done += n;
            else if (n < 0 && errno != EINTR) error = errno;
            else if (n == 0) error = EIO;
        }
        return len; // the rest is dropped: the run stops at the next cycle
    }
};

struct RtlFabric {
    unsigned w, h;                    // the whole mesh's
    unsigned row_begin, row_end;      // the block's rows (0, h: the whole mesh)
    unsigned col_begin, col_end;      // the block's columns (0, w: the whole mesh)
    std::vector<wm_edge_wire> edge_in[4]; // by wm_band_edge, a wire a tile along a side where a block lies across
    uint64_t cycle;
    VerilatedContext ctx;
    std::vector<Tile> tiles;
    std::vector<Posted> posted;
    wm_link_hook hook;
    void *hook_ctx;
    bool with_cores;                  // made by create_cores: every tile has a core
    std::vector<Core> cores;          // one per tile, as tiles; with_cores only
    std::vector<wm_core_event> core_events; // one step's, reported after the edge
    wm_core_hook core_hook;
    void *core_hook_ctx;
    std::unique_ptr<VerilatedFstC> fst;
    std::unique_ptr<CheckedVcdFile> vcd_file; // outlives vcd, which writes to it
    std::unique_ptr<VerilatedVcdC> vcd;
    ExtraSignals extra;
    bool asserted;                    // an RTL assertion failed ...
    uint64_t asserted_at;             // ... in the edge to this cycle
    wm_fabric_assertion_fn on_assertion; // the config's: who hears of it
    void *on_assertion_ctx;
    struct Injected {
        size_t tile;
        unsigned port;
        uint32_t data;
    };
    std::vector<Injected> injected;   // test-only wavelets for the next step
};

RtlFabric *as_rtl(wm_fabric *f) { return reinterpret_cast<RtlFabric *>(f); }
const RtlFabric *as_rtl(const wm_fabric *f) { return reinterpret_cast<const RtlFabric *>(f); }

// Tile (x, y) of the block, in global coordinates: its index in tiles,
// posted and cores.
size_t index_of(const RtlFabric *r, unsigned x, unsigned y)
{
    assert(x >= r->col_begin && x < r->col_end && y >= r->row_begin && y < r->row_end && "a tile of the block");
    return (size_t)(y - r->row_begin) * (r->col_end - r->col_begin) + (x - r->col_begin);
}

Tile *tile_at(RtlFabric *r, unsigned x, unsigned y) { return &r->tiles[index_of(r, x, y)]; }
const Tile *tile_at(const RtlFabric *r, unsigned x, unsigned y) { return &r->tiles[index_of(r, x, y)]; }

// Drive link input p of t from the output facing it of neighbour n.
void wire_link(Tile *t, unsigned p, const Tile *n)
{
    const LinkPorts &from = n->link[p ^ 2u]; // N<->S, E<->W
    LinkPorts &to = t->link[p];
    *to.valid_i = *from.valid_o;
    *to.data_i = *from.data_o;
    *to.credit_i = *from.credit_o;
    *to.en_i = *n->en_o;
}

// Drive link input p of t from the block across (band_edge_in).
void wire_edge(Tile *t, unsigned p, const wm_edge_wire &in)
{
    LinkPorts &to = t->link[p];
    *to.valid_i = in.valid;
    *to.data_i = in.data;
    *to.credit_i = in.credit;
    *to.en_i = in.en;
}

// Drive tile (x, y)'s link inputs from its neighbours' current outputs,
// or across a block's edge from the block there (a corner tile has two
// such sides; there are no diagonal links).
void wire_inputs(RtlFabric *r, unsigned x, unsigned y)
{
    Tile *t = tile_at(r, x, y);
    const unsigned col = x - r->col_begin, row = y - r->row_begin;
    if (y > r->row_begin) wire_link(t, WM_PORT_N, tile_at(r, x, y - 1));
    else if (y > 0) wire_edge(t, WM_PORT_N, r->edge_in[WM_EDGE_NORTH][col]);
    if (y + 1 < r->row_end) wire_link(t, WM_PORT_S, tile_at(r, x, y + 1));
    else if (y + 1 < r->h) wire_edge(t, WM_PORT_S, r->edge_in[WM_EDGE_SOUTH][col]);
    if (x > r->col_begin) wire_link(t, WM_PORT_W, tile_at(r, x - 1, y));
    else if (x > 0) wire_edge(t, WM_PORT_W, r->edge_in[WM_EDGE_WEST][row]);
    if (x + 1 < r->col_end) wire_link(t, WM_PORT_E, tile_at(r, x + 1, y));
    else if (x + 1 < r->w) wire_edge(t, WM_PORT_E, r->edge_in[WM_EDGE_EAST][row]);
}

void clock(Tile &t)
{
    *t.clk_i = 0;
    t.eval(t.model);
    *t.clk_i = 1;
    t.eval(t.model);
}

bool inside(const wm_rtl_trace *tr, unsigned x, unsigned y)
{
    return tr && x >= tr->x0 && x <= tr->x1 && y >= tr->y0 && y <= tr->y1;
}

// A new tile model with its core: traced when (x, y) lies in the traced
// rectangle. The RAM and the register file have no reset: zeroed here.
Tile make_core_tile(RtlFabric *r, const wm_rtl_trace *tr, unsigned x, unsigned y)
{
    CorePorts &c = r->cores[index_of(r, x, y)].port;
    Tile t;
    if (!inside(tr, x, y)) {
        t = bind_core_tile(new Vwm_tile_core(&r->ctx, "tile"), c);
    }
#ifndef WM_RTL_CORES_ONLY
    else if (tr->vcd) {
        Vwm_tile_core_vcd *m = new Vwm_tile_core_vcd(&r->ctx, tr->tile_scope[(size_t)y * r->w + x]);
        m->trace(r->vcd.get(), 99);
        t = bind_core_tile(m, c);
    } else {
        Vwm_tile_core_fst *m = new Vwm_tile_core_fst(&r->ctx, tr->tile_scope[(size_t)y * r->w + x]);
        m->trace(r->fst.get(), 99);
        t = bind_core_tile(m, c);
    }
#endif
    std::memset(c.mem, 0, WM_TILE_MEM_BYTES);
    std::memset(c.imem, 0, WM_TILE_MEM_BYTES);
    std::memset(c.regs, 0, 32 * sizeof(IData));
    *c.run_i = 0;
    *c.hold_i = 0;
    return t;
}

// A new tile model: traced when (x, y) lies in the traced rectangle.
Tile make_tile(RtlFabric *r, const wm_rtl_trace *tr, unsigned x, unsigned y)
{
#ifdef WM_RTL_CORES_ONLY
    (void)r, (void)tr, (void)x, (void)y;
    return Tile{};
#else
    if (!inside(tr, x, y)) return bind_tile(new Vwm_tile(&r->ctx, "tile"));
    const char *scope = tr->tile_scope[(size_t)y * r->w + x];
    if (tr->vcd) {
        Vwm_tile_vcd *m = new Vwm_tile_vcd(&r->ctx, scope);
        m->trace(r->vcd.get(), 99);
        return bind_tile(m);
    }
    Vwm_tile_fst *m = new Vwm_tile_fst(&r->ctx, scope);
    m->trace(r->fst.get(), 99);
    return bind_tile(m);
#endif
}

void rtl_destroy(wm_fabric *f);

wm_fabric *create_models(unsigned w, unsigned h, const wm_rtl_trace *tr, bool cores, const wm_fabric_config *cfg)
{
    if (w < 1 || h < 1 || w > WM_MESH_MAX || h > WM_MESH_MAX) {
        fprintf(stderr, "wavemesh: mesh %ux%u is outside 1x1..%ux%u\n", w, h, WM_MESH_MAX, WM_MESH_MAX);
        return nullptr;
    }
    const unsigned row_begin = cfg && cfg->band.row_end ? cfg->band.row_begin : 0;
    const unsigned row_end = cfg && cfg->band.row_end ? cfg->band.row_end : h;
    const unsigned col_begin = cfg && cfg->band.col_end ? cfg->band.col_begin : 0;
    const unsigned col_end = cfg && cfg->band.col_end ? cfg->band.col_end : w;
    if (row_begin >= row_end || row_end > h || col_begin >= col_end || col_end > w) {
        fprintf(stderr, "wavemesh: block of rows [%u,%u) x columns [%u,%u) is not a block of a %ux%u mesh\n",
                row_begin, row_end, col_begin, col_end, w, h);
        return nullptr;
    }
    const size_t ntiles = (size_t)(col_end - col_begin) * (row_end - row_begin);
#ifdef WM_RTL_CORES_ONLY
    if (!cores || tr) {
        fprintf(stderr, "wavemesh: this build (mk/params.mk) has the rtl backend's untraced tiles with cores only\n");
        return nullptr;
    }
#endif
    RtlFabric *r = new (std::nothrow) RtlFabric();
    if (!r) throw std::bad_alloc();
    // the half-built fabric goes with the exception (create)
    struct Guard {
        RtlFabric *r;
        ~Guard()
        {
            if (r) rtl_destroy(reinterpret_cast<wm_fabric *>(r));
        }
    } guard{r};
    r->w = w;
    r->h = h;
    r->row_begin = row_begin;
    r->row_end = row_end;
    r->col_begin = col_begin;
    r->col_end = col_end;
    // Before the first band_edge_in, the inputs across read 0.
    if (row_begin > 0) r->edge_in[WM_EDGE_NORTH].assign(col_end - col_begin, wm_edge_wire{0, 0, 0, 0});
    if (row_end < h) r->edge_in[WM_EDGE_SOUTH].assign(col_end - col_begin, wm_edge_wire{0, 0, 0, 0});
    if (col_end < w) r->edge_in[WM_EDGE_EAST].assign(row_end - row_begin, wm_edge_wire{0, 0, 0, 0});
    if (col_begin > 0) r->edge_in[WM_EDGE_WEST].assign(row_end - row_begin, wm_edge_wire{0, 0, 0, 0});
    r->cycle = 0;
    r->hook = nullptr;
    r->hook_ctx = nullptr;
    r->with_cores = cores;
    r->core_hook = nullptr;
    r->core_hook_ctx = nullptr;
    r->asserted = false;
    r->asserted_at = 0;
    r->on_assertion = cfg ? cfg->on_assertion : nullptr;
    r->on_assertion_ctx = cfg ? cfg->on_assertion_ctx : nullptr;
    // A failed assertion is the caller's to report (check_assertion), not
    // a reason for Verilator to abort the process: vl_stop then only sets
    // gotError.
    r->ctx.fatalOnError(false);
    if (cores) {
        r->cores.assign(ntiles, Core{});
        r->core_events.reserve(ntiles);
    }
    if (tr) {
        r->ctx.traceEverOn(true);
        if (tr->vcd) {
            r->vcd_file.reset(new CheckedVcdFile);
            r->vcd.reset(new VerilatedVcdC(r->vcd_file.get()));
        }
        else r->fst.reset(new VerilatedFstC);
    }
    r->tiles.reserve(ntiles);
    r->posted.assign(ntiles, Posted{0, false, false});
    for (unsigned y = row_begin; y < row_end; y++) {
        for (unsigned x = col_begin; x < col_end; x++) {
            Tile t = cores ? make_core_tile(r, tr, x, y) : make_tile(r, tr, x, y);
            *t.x_i = (uint16_t)x;
            *t.y_i = (uint16_t)y;
            *t.last_x_i = (uint16_t)(w - 1);
            *t.last_y_i = (uint16_t)(h - 1);
            *t.enable_i = 1;
            *t.tsc_init_i = cfg ? cfg->tsc_start : 0;
            *t.rst_ni = 0;
            r->tiles.push_back(t);
        }
    }
    // One reset edge (the cores' too: core_run_i is 0); the mesh's edge
    // inputs stay tied to 0 for ever.
    for (Tile &t : r->tiles) clock(t);
    for (Tile &t : r->tiles) *t.rst_ni = 1;
    guard.r = nullptr;
    return reinterpret_cast<wm_fabric *>(r);
}

// Running out of memory while the models are built (a large mesh under
// ulimit -v) is reported as the sw backend reports it, with a null fabric
// the caller turns into its exit status: std::bad_alloc stops here, at the
// C boundary, instead of aborting the process.
wm_fabric *create(unsigned w, unsigned h, const wm_rtl_trace *tr, bool cores, const wm_fabric_config *cfg)
{
    try {
        return create_models(w, h, tr, cores, cfg);
    } catch (const std::bad_alloc &) {
        fprintf(stderr, "wavemesh: out of memory for a %ux%u rtl fabric%s\n", w, h, cores ? " with cores" : "");
        return nullptr;
    }
}

wm_fabric *rtl_create(unsigned w, unsigned h) { return create(w, h, nullptr, false, nullptr); }
wm_fabric *rtl_create_cores(unsigned w, unsigned h) { return create(w, h, nullptr, true, nullptr); }
wm_fabric *rtl_create_with(unsigned w, unsigned h, bool cores, const wm_fabric_config *cfg)
{
    return create(w, h, nullptr, cores, cfg);
}

void trace_close(RtlFabric *r)
{
    if (r->fst) r->fst->close();
    if (r->vcd) r->vcd->close();
}

void rtl_destroy(wm_fabric *f)
{
    RtlFabric *r = as_rtl(f);
    if (!r) return;
    trace_close(r);
    WM_VL_COVERAGE_COLLECT(r->ctx);  // while the models' counters exist
    for (Tile &t : r->tiles) t.finish(t.model);
    r->fst.reset();
    r->vcd.reset();
    delete r;
}

void rtl_set_enable(wm_fabric *f, unsigned x, unsigned y, bool on)
{
    *tile_at(as_rtl(f), x, y)->enable_i = on ? 1 : 0;
}

// Report every wavelet standing in an output register at the new cycle.
void report_links(RtlFabric *r)
{
    wm_link_event ev;
    ev.cycle = r->cycle;
    for (unsigned y = r->row_begin; y < r->row_end; y++) {
        for (unsigned x = r->col_begin; x < r->col_end; x++) {
            const Tile *t = tile_at(r, x, y);
            const uint8_t valid[WM_NPORTS] = {*t->link[0].valid_o, *t->link[1].valid_o, *t->link[2].valid_o,
                                              *t->link[3].valid_o, *t->ramp_valid_o};
            const uint32_t data[WM_NPORTS] = {*t->link[0].data_o, *t->link[1].data_o, *t->link[2].data_o,
                                              *t->link[3].data_o, *t->ramp_data_o};
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

// Verilator's $stop acts on the thread's current context: this fabric's
// while it is being stepped, whichever context was made last.
void enter(RtlFabric *r) { Verilated::threadContextp(&r->ctx); }

// The test-only wavelets, over what phase 1 wired, for one edge; an edge
// input is tied to 0 again after it (nothing else drives it).
void apply_injected(RtlFabric *r, bool on)
{
    for (const auto &c : r->injected) {
        *r->tiles[c.tile].link[c.port].valid_i = on ? 1 : 0;
        *r->tiles[c.tile].link[c.port].data_i = on ? c.data : 0;
    }
    if (!on) r->injected.clear();
}

// After an edge: the wavelets and credits from across were this edge's
// (pulses, as a neighbour's would be); en_q across holds until told again.
void consume_edge_pulses(RtlFabric *r)
{
    for (auto &side : r->edge_in)
        for (wm_edge_wire &wire : side) {
            wire.valid = wire.credit = 0;
            wire.data = 0;
        }
}

// After an edge: an assertion that failed in it is reported once, to the
// config's handler or on stderr; the fabric goes on, and the caller that
// asks wm_fabric_rtl_assertion (or set a handler) stops the run.
void check_assertion(RtlFabric *r)
{
    if (VL_LIKELY(!r->ctx.gotError()) || r->asserted) return;
    r->asserted = true;
    r->asserted_at = r->cycle;
    std::fflush(stdout);
    if (r->on_assertion) {
        r->on_assertion(r->on_assertion_ctx, r->cycle);
        return;
    }
    std::fprintf(stderr, "wavemesh: an RTL assertion failed in the edge to cycle %llu (the simulator's message is on "
                         "stdout)\n", (unsigned long long)r->cycle);
}

// One edge of a fabric of tiles with cores. Each tile's clock-low
// evaluation settles its core's outputs for the cycle that ends at this
// edge (they depend on the tile's and the core's flops only, never on the
// link inputs wired in phase 1): that is the cycle's record, read before
// the rising edge, as csim/core/core_rtl.cpp reads it. The events are
// reported once every tile has been clocked, so a hook sees the whole
// fabric at the new cycle: first the cores' records of the cycle just
// simulated, then the link events of the new one.
void step_cores(RtlFabric *r)
{
    const unsigned block_w = r->col_end - r->col_begin;
    for (unsigned y = r->row_begin; y < r->row_end; y++)
        for (unsigned x = r->col_begin; x < r->col_end; x++) wire_inputs(r, x, y);
    const bool injected = VL_UNLIKELY(!r->injected.empty());
    if (injected) apply_injected(r, true);
    const bool record = r->core_hook != nullptr;
    for (size_t i = 0; i < r->tiles.size(); i++) {
        Tile &t = r->tiles[i];
        Core &core = r->cores[i];
        *t.clk_i = 0;
        t.eval(t.model);
        if (core.run && !core.restart) {
            const CorePorts &c = core.port;
            core.started = true;
            core.retired += *c.retire_o;
            if (record && (*c.retire_o || *c.push_o || *c.pop_o)) {
                wm_core_event ev;
                std::memset(&ev, 0, sizeof ev);
                ev.cycle = r->cycle;
                ev.x = (uint16_t)(r->col_begin + i % block_w);
                ev.y = (uint16_t)(r->row_begin + i / block_w);
                ev.what.push = *c.push_o;
                ev.what.push_data = *c.push_data_o;
                ev.what.pop = *c.pop_o;
                ev.what.retire = *c.retire_o;
                ev.what.retire_pc = *c.retire_pc_o;
                ev.what.retire_insn = *c.retire_insn_o;
                ev.what.rd_we = *c.rd_we_o;
                ev.what.rd = *c.rd_o;
                ev.what.rd_data = *c.rd_data_o;
                if (*c.pop_o) ev.pop_data = *t.pe_rx_head_o;
                r->core_events.push_back(ev);
            }
        }
        *t.clk_i = 1;
        t.eval(t.model);
        if (core.restart) {
            *core.port.run_i = 1;
            core.restart = false;
        }
    }
    r->cycle++;
    if (injected) apply_injected(r, false);
    consume_edge_pulses(r);
    check_assertion(r);
    if (record) {
        for (const wm_core_event &ev : r->core_events) r->core_hook(r->core_hook_ctx, &ev);
        r->core_events.clear();
    }
    if (r->hook) report_links(r);
}

void rtl_step(wm_fabric *f)
{
    RtlFabric *r = as_rtl(f);
    enter(r);
    if (r->with_cores) {
        step_cores(r);
        return;
    }
    // Phase 1: every input from the outputs as they stand (no tile has been
    // clocked yet, so all of them are this cycle's values).
    for (unsigned y = r->row_begin; y < r->row_end; y++) {
        for (unsigned x = r->col_begin; x < r->col_end; x++) {
            wire_inputs(r, x, y);
            Posted &p = r->posted[index_of(r, x, y)];
            Tile *t = tile_at(r, x, y);
            *t->pe_push_i = p.push;
            *t->pe_data_i = p.data;
            *t->pe_pop_i = p.pop;
            p.push = p.pop = false;
        }
    }
    const bool injected = VL_UNLIKELY(!r->injected.empty());
    if (injected) apply_injected(r, true);
    // Phase 2: the edge.
    for (Tile &t : r->tiles) clock(t);
    r->cycle++;
    if (injected) apply_injected(r, false);
    consume_edge_pulses(r);
    check_assertion(r);
    if (r->hook) report_links(r);
}

uint64_t rtl_cycle(const wm_fabric *f) { return as_rtl(f)->cycle; }

void rtl_pe_push(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet)
{
    Posted &p = as_rtl(f)->posted[index_of(as_rtl(f), x, y)];
    p.push = true;
    p.data = wavelet;
}

void rtl_pe_pop(wm_fabric *f, unsigned x, unsigned y)
{
    as_rtl(f)->posted[index_of(as_rtl(f), x, y)].pop = true;
}

wm_pe_status rtl_pe_status(const wm_fabric *f, unsigned x, unsigned y)
{
    const Tile *t = tile_at(as_rtl(f), x, y);
    wm_pe_status s;
    s.tsc = *t->pe_tsc_o;
    s.rx_head = *t->pe_rx_head_o;
    s.tx_count = *t->pe_tx_count_o;
    s.rx_count = *t->pe_rx_count_o;
    s.status = *t->pe_status_o;
    s.err_hdr = *t->err_hdr_o;
    return s;
}

bool rtl_quiescent(const wm_fabric *f)
{
    for (const Tile &t : as_rtl(f)->tiles)
        if (*t.pe_status_o & WM_ST_BUSY) return false;
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
    for (unsigned y = r->row_begin; y < r->row_end; y++) {
        for (unsigned x = r->col_begin; x < r->col_end; x++) {
            const Tile *t = tile_at(r, x, y);
            if (!(*t->pe_status_o & WM_ST_BUSY)) continue;
            for (unsigned p = 0; p < 4; p++) {
                unsigned c = (*t->in_count_o >> (IN_COUNT_BITS * p)) & ((1u << IN_COUNT_BITS) - 1u);
                if (c) add(x, y, WM_AT_INPUT, p, c, (*t->in_head_o)[p]);
            }
            if (*t->pe_tx_count_o) add(x, y, WM_AT_TX, WM_PORT_L, *t->pe_tx_count_o, (*t->in_head_o)[4]);
            const uint8_t valid[WM_NPORTS] = {*t->link[0].valid_o, *t->link[1].valid_o, *t->link[2].valid_o,
                                              *t->link[3].valid_o, *t->ramp_valid_o};
            const uint32_t data[WM_NPORTS] = {*t->link[0].data_o, *t->link[1].data_o, *t->link[2].data_o,
                                              *t->link[3].data_o, *t->ramp_data_o};
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

// The core of tile (x, y), or null when the fabric has none.
const Core *core_at(const RtlFabric *r, unsigned x, unsigned y)
{
    return r->with_cores ? &r->cores[index_of(r, x, y)] : nullptr;
}

// The RAM as little-endian bytes; bytes past it are not written and read
// as 0 (the contract keeps addr + n within WM_TILE_MEM_BYTES).
void rtl_core_load(wm_fabric *f, unsigned x, unsigned y, uint32_t addr, const void *bytes, size_t n)
{
    const Core *core = core_at(as_rtl(f), x, y);
    if (!core) return;
    const CorePorts *c = &core->port;
    const uint8_t *b = static_cast<const uint8_t *>(bytes);
    for (size_t i = 0; i < n && (uint64_t)addr + i < WM_TILE_MEM_BYTES; i++) {
        const uint32_t a = addr + (uint32_t)i;
        const unsigned sh = 8u * (a & 3u);
        IData &word = c->mem[a >> 2];
        word = (word & ~(0xFFu << sh)) | ((uint32_t)b[i] << sh);
        c->imem[a >> 2] = word;
    }
}

void rtl_core_read(const wm_fabric *f, unsigned x, unsigned y, uint32_t addr, void *bytes, size_t n)
{
    const Core *core = core_at(as_rtl(f), x, y);
    uint8_t *b = static_cast<uint8_t *>(bytes);
    for (size_t i = 0; i < n; i++) {
        const uint64_t a = (uint64_t)addr + i;
        b[i] = (core && a < WM_TILE_MEM_BYTES) ? (uint8_t)(core->port.mem[a >> 2] >> (8u * (a & 3u))) : 0;
    }
}

// Released from reset at the next edge: the next step is the core's cycle 0.
void rtl_core_start(wm_fabric *f, unsigned x, unsigned y)
{
    RtlFabric *r = as_rtl(f);
    if (!r->with_cores) return;
    Core &core = r->cores[index_of(r, x, y)];
    if (core.run) {
        // A started core has left reset: it goes back for one step (its
        // synchronous reset needs an edge), and runs from the step after.
        *core.port.run_i = 0;
        core.restart = true;
        core.started = false;
        core.retired = 0;
        return;
    }
    *core.port.run_i = 1;
    core.run = true;
}

wm_core_status rtl_core_status(const wm_fabric *f, unsigned x, unsigned y)
{
    wm_core_status s;
    std::memset(&s, 0, sizeof s);
    const Core *core = core_at(as_rtl(f), x, y);
    if (!core) return s;
    const CorePorts *c = &core->port;
    s.started = core->started;
    // The core's outputs after the last edge: its state at the current cycle.
    s.waiting = *c->wait_o != 0;
    s.pc = *c->pc_o;
    s.retired = core->retired;
    s.halt.state = *c->exited_o ? WM_CORE_EXITED : *c->fault_o ? WM_CORE_FAULTED : WM_CORE_RUNNING;
    s.halt.exit_code = *c->exit_code_o;
    s.halt.cause = *c->fault_o ? (wm_core_fault)*c->fault_cause_o : WM_CORE_OK;
    s.halt.pc = *c->fault_pc_o; // the halting instruction, the EXIT store too
    s.halt.insn = *c->fault_insn_o;
    return s;
}

void rtl_core_census(const wm_fabric *f, size_t *halted, size_t *waiting)
{
    const RtlFabric *r = as_rtl(f);
    *halted = *waiting = 0;
    if (!r->with_cores) return;
    for (const Core &core : r->cores) {
        if (!core.started) continue;
        const bool stopped = *core.port.exited_o || *core.port.fault_o;
        *halted += stopped;
        *waiting += !stopped && *core.port.wait_o;
    }
}

void rtl_set_core_hook(wm_fabric *f, wm_core_hook hook, void *ctx)
{
    as_rtl(f)->core_hook = hook;
    as_rtl(f)->core_hook_ctx = ctx;
}

wm_core_hook rtl_get_core_hook(const wm_fabric *f, void **ctx)
{
    *ctx = as_rtl(f)->core_hook_ctx;
    return as_rtl(f)->core_hook;
}

// The register file as the Verilated core holds it after the last edge.
void rtl_core_regs(const wm_fabric *f, unsigned x, unsigned y, uint32_t regs[32])
{
    const Core *core = core_at(as_rtl(f), x, y);
    for (unsigned r = 0; r < 32; r++) regs[r] = (core && r) ? core->port.regs[r] : 0;
}

wm_link_hook rtl_get_link_hook(const wm_fabric *f, void **ctx)
{
    *ctx = as_rtl(f)->hook_ctx;
    return as_rtl(f)->hook;
}

void rtl_core_set_reg(wm_fabric *f, unsigned x, unsigned y, unsigned r, uint32_t value)
{
    const Core *core = core_at(as_rtl(f), x, y);
    if (core && r > 0 && r < 32) core->port.regs[r] = value;
}

// core_hold_i, an input like core_run_i: it holds the core in the steps
// that follow until it is lowered.
void rtl_core_hold(wm_fabric *f, unsigned x, unsigned y, bool hold)
{
    const Core *core = core_at(as_rtl(f), x, y);
    if (core) *core->port.hold_i = hold;
}

// The edge tile of wire i on side (wm_band_edge's numbering), and its
// port facing that side.
unsigned edge_port(wm_band_edge side)
{
    static const unsigned port[4] = {WM_PORT_N, WM_PORT_S, WM_PORT_E, WM_PORT_W};
    return port[side];
}

const Tile *edge_tile(const RtlFabric *r, wm_band_edge side, unsigned i)
{
    switch (side) {
    case WM_EDGE_NORTH: return tile_at(r, r->col_begin + i, r->row_begin);
    case WM_EDGE_SOUTH: return tile_at(r, r->col_begin + i, r->row_end - 1);
    case WM_EDGE_EAST: return tile_at(r, r->col_end - 1, r->row_begin + i);
    default: return tile_at(r, r->col_begin, r->row_begin + i);
    }
}

// The edge tiles' outputs facing side, straight from their flops.
void rtl_band_edge_out(const wm_fabric *f, wm_band_edge side, wm_edge_wire *wires)
{
    const RtlFabric *r = as_rtl(f);
    const unsigned p = edge_port(side);
    const unsigned n = side == WM_EDGE_NORTH || side == WM_EDGE_SOUTH ? r->col_end - r->col_begin
                                                                      : r->row_end - r->row_begin;
    for (unsigned i = 0; i < n; i++) {
        const Tile *t = edge_tile(r, side, i);
        const LinkPorts &out = t->link[p];
        wires[i].valid = *out.valid_o;
        wires[i].data = *out.valid_o ? *out.data_o : 0;
        wires[i].credit = *out.credit_o;
        wires[i].en = *t->en_o;
    }
}

// Kept for the next step's phase 1 (wire_inputs).
void rtl_band_edge_in(wm_fabric *f, wm_band_edge side, const wm_edge_wire *wires)
{
    RtlFabric *r = as_rtl(f);
    std::vector<wm_edge_wire> &in = r->edge_in[side];
    for (size_t i = 0; i < in.size(); i++) in[i] = wires[i]; // none at the mesh's edge: ignored
}

} // namespace

extern "C" wm_fabric *wm_fabric_rtl_create_traced(unsigned w, unsigned h, const wm_rtl_trace *trace,
                                                  const wm_fabric_config *cfg)
{
    if (trace->x0 > trace->x1 || trace->y0 > trace->y1 || trace->x1 >= w || trace->y1 >= h) {
        fprintf(stderr, "wavemesh: traced tiles %u,%u:%u,%u are not inside the %ux%u mesh\n", trace->x0, trace->y0,
                trace->x1, trace->y1, w, h);
        return nullptr;
    }
    wm_fabric *f = create(w, h, trace, trace->cores, cfg);
    if (!f) return nullptr;
    RtlFabric *r = as_rtl(f);
    ExtraSignals &x = r->extra;
    uint32_t offset = 0;
    for (size_t i = 0; i < trace->nextra; i++) {
        const wm_rtl_extra_signal &sg = trace->extra[i];
        std::string prefix = sg.scope;
        for (char &c : prefix)
            if (c == '.') c = ' ';
        x.sig.push_back(sg);
        x.prefix.push_back(prefix + ' ');
        x.offset.push_back(offset);
        x.written.push_back(false);
        offset += sg.bits > 32 ? 2 : 1;
    }
    if (!x.sig.empty()) {
        if (r->vcd) register_extra(r->vcd.get(), &x);
        else register_extra(r->fst.get(), &x);
    }
    // One dump time unit is one cycle.
    if (r->vcd) {
        r->vcd->set_time_unit("1ns");
        r->vcd->set_time_resolution("1ns");
        r->vcd->open(trace->path);
    } else {
        r->fst->set_time_unit("1ns");
        r->fst->set_time_resolution("1ns");
        r->fst->open(trace->path);
    }
    if (!(r->vcd ? r->vcd->isOpen() : r->fst->isOpen())) {
        fprintf(stderr, "wavemesh: cannot write the dump %s\n", trace->path);
        rtl_destroy(f);
        return nullptr;
    }
    return f;
}

extern "C" void wm_fabric_rtl_dump(wm_fabric *f)
{
    RtlFabric *r = as_rtl(f);
    if (r->fst) r->fst->dump(r->cycle);
    if (r->vcd) r->vcd->dump(r->cycle);
}

extern "C" void wm_fabric_rtl_trace_close(wm_fabric *f) { trace_close(as_rtl(f)); }

extern "C" int wm_fabric_rtl_trace_error(const wm_fabric *f)
{
    const RtlFabric *r = as_rtl(f);
    return r->vcd_file ? r->vcd_file->error : 0;
}

extern "C" bool wm_fabric_rtl_assertion(const wm_fabric *f, uint64_t *cycle)
{
    const RtlFabric *r = as_rtl(f);
    if (r->asserted && cycle) *cycle = r->asserted_at;
    return r->asserted;
}

extern "C" void wm_fabric_rtl_inject_link(wm_fabric *f, unsigned x, unsigned y, unsigned port, uint32_t wavelet)
{
    RtlFabric *r = as_rtl(f);
    if (x >= r->col_begin && x < r->col_end && y >= r->row_begin && y < r->row_end && port < 4)
        r->injected.push_back({index_of(r, x, y), port, wavelet});
}

extern "C" const wm_fabric_ops wm_fabric_rtl = {
    "rtl",            rtl_create,        rtl_destroy,     rtl_set_enable, rtl_step,
    rtl_cycle,        rtl_pe_push,       rtl_pe_pop,      rtl_pe_status,  rtl_quiescent,
    rtl_in_flight,    rtl_set_link_hook, rtl_create_cores, rtl_core_load, rtl_core_read,
    rtl_core_start,   rtl_core_status,   rtl_set_core_hook, rtl_core_census,  rtl_get_core_hook,
    rtl_create_with,  nullptr,          rtl_core_regs,   rtl_core_set_reg, rtl_get_link_hook,
    nullptr, // no memory accounting: Verilator allocates the tiles, RAMs included
    rtl_core_hold,    rtl_band_edge_out, rtl_band_edge_in,
};
