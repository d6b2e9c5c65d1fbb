// core_rtl.cpp: the Verilated wm_core_top (rtl/core/) behind core_rtl.h.
//
// One step is one clock cycle: the datapath view of the cycle goes onto the
// inputs, an evaluation with the clock low settles the combinational
// outputs (push, pop, retire, write-back), which are this cycle's record,
// then the rising edge. The model is created held in reset and clocked
// through two reset edges; the first step releases reset, so it is cycle 0,
// in which F fetches address 0. The RAM and the register file are public
// arrays of the model (wm_ram.mem_q, wm_core_regfile.regs_q): loads and
// reads go straight to them, and the register file is zeroed at creation,
// as docs/core.md says both models start.
#include "core/core_rtl.h"
#include "core/vl_coverage.h"

#include "Vwm_core_top.h"
#include "Vwm_core_top___024root.h"
#include "verilated.h"

#include <cstring>
#include <new>

struct wm_core_rtl {
    VerilatedContext ctx;
    Vwm_core_top *top;
    bool started;
};

namespace {

constexpr uint32_t kWords = WM_CORE_MEM_BYTES / 4;

auto &ram(wm_core_rtl *c) { return c->top->rootp->wm_core_top__DOT__u_ram__DOT__mem_q; }
const auto &ram(const wm_core_rtl *c) { return c->top->rootp->wm_core_top__DOT__u_ram__DOT__mem_q; }
// The instruction port's copy of the RAM (wm_ram), loaded as mem_q is.
auto &iram(wm_core_rtl *c) { return c->top->rootp->wm_core_top__DOT__u_ram__DOT__imem_q; }
auto &regs(wm_core_rtl *c) { return c->top->rootp->wm_core_top__DOT__u_core__DOT__u_regfile__DOT__regs_q; }
const auto &regs(const wm_core_rtl *c) { return c->top->rootp->wm_core_top__DOT__u_core__DOT__u_regfile__DOT__regs_q; }

void edge(Vwm_core_top *t)
{
    t->clk_i = 0;
    t->eval();
    t->clk_i = 1;
    t->eval();
}

} // namespace

extern "C" {

wm_core_rtl *wm_core_rtl_create(void)
{
    wm_core_rtl *c = new (std::nothrow) wm_core_rtl();
    if (!c) return nullptr;
    // The model's constructor allocates with the throwing new: running out
    // of memory is a null result here, at the C boundary, not an abort.
    try {
        c->top = new Vwm_core_top(&c->ctx, "core");
    } catch (const std::bad_alloc &) {
        c->top = nullptr;
    }
    if (!c->top) {
        delete c;
        return nullptr;
    }
    c->started = false;
    Vwm_core_top *t = c->top;
    t->rst_ni = 0;
    t->pe_tx_count_i = 0;
    t->pe_rx_count_i = 0;
    t->pe_rx_head_i = 0;
    t->pe_tsc_i = 0;
    t->pe_status_i = 0;
    t->pe_err_hdr_i = 0;
    t->pe_col_i = 0;
    t->pe_row_i = 0;
    for (uint32_t i = 0; i < kWords; i++) ram(c)[i] = iram(c)[i] = 0;
    for (uint32_t r = 0; r < 32; r++) regs(c)[r] = 0;
    edge(t);
    edge(t);
    return c;
}

void wm_core_rtl_destroy(wm_core_rtl *c)
{
    if (!c) return;
    WM_VL_COVERAGE_COLLECT(c->ctx);  // while the model's counters exist
    c->top->final();
    delete c->top;
    delete c;
}

void wm_core_rtl_load(wm_core_rtl *c, uint32_t addr, const void *bytes, size_t n)
{
    const uint8_t *b = static_cast<const uint8_t *>(bytes);
    for (size_t i = 0; i < n; i++) {
        const uint32_t a = addr + (uint32_t)i;
        if (a >= WM_CORE_MEM_BYTES) break;
        const unsigned sh = 8u * (a & 3u);
        uint32_t &w = ram(c)[a >> 2];
        w = (w & ~(0xFFu << sh)) | ((uint32_t)b[i] << sh);
        iram(c)[a >> 2] = w;
    }
}

void wm_core_rtl_read(const wm_core_rtl *c, uint32_t addr, void *bytes, size_t n)
{
    uint8_t *b = static_cast<uint8_t *>(bytes);
    for (size_t i = 0; i < n; i++) {
        const uint32_t a = addr + (uint32_t)i;
        b[i] = a < WM_CORE_MEM_BYTES ? (uint8_t)(ram(c)[a >> 2] >> (8u * (a & 3u))) : 0;
    }
}

void wm_core_rtl_step(wm_core_rtl *c, const wm_core_pe_in *in, wm_core_cycle *out)
{
    Vwm_core_top *t = c->top;
    if (!c->started) {
        t->rst_ni = 1;
        c->started = true;
    }
    t->pe_tsc_i = in->tsc;
    t->pe_rx_head_i = in->rx_head;
    t->pe_err_hdr_i = in->err_hdr;
    t->pe_tx_count_i = in->tx_count;
    t->pe_rx_count_i = in->rx_count;
    t->pe_status_i = in->status;
    t->pe_col_i = in->col;
    t->pe_row_i = in->row;
    t->clk_i = 0;
    t->eval();
    if (out) {
        out->push = t->pe_push_o;
        out->push_data = t->pe_push_data_o;
        out->pop = t->pe_pop_o;
        out->retire = t->retire_o;
        out->retire_pc = t->retire_pc_o;
        out->retire_insn = t->retire_insn_o;
        out->rd_we = t->rd_we_o;
        out->rd = t->rd_o;
        out->rd_data = t->rd_data_o;
    }
    t->clk_i = 1;
    t->eval();
}

uint32_t wm_core_rtl_reg(const wm_core_rtl *c, unsigned r)
{
    return (r == 0 || r >= 32) ? 0 : regs(c)[r];
}

uint32_t wm_core_rtl_pc(const wm_core_rtl *c) { return c->top->pc_o; }

wm_core_halt wm_core_rtl_halt(const wm_core_rtl *c)
{
    const Vwm_core_top *t = c->top;
    wm_core_halt h;
    std::memset(&h, 0, sizeof h);
    h.state = t->exited_o ? WM_CORE_EXITED : t->fault_o ? WM_CORE_FAULTED : WM_CORE_RUNNING;
    h.exit_code = t->exit_code_o;
    h.cause = t->fault_o ? (wm_core_fault)t->fault_cause_o : WM_CORE_OK;
    h.pc = t->fault_pc_o; // the halting instruction, the EXIT store too (as the ISS)
    h.insn = t->fault_insn_o;
    return h;
}

} // extern "C"
