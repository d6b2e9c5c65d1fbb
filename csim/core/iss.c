/* iss.c: the cycle-exact instruction-set simulator of the PE core; see iss.h
 * and docs/core.md.
 *
 * One step is one cycle. A new instruction is decoded straight from its
 * word in the cycle it enters X and, if it takes one cycle, done at once;
 * a longer one computes its result in its first cycle (nothing it reads can
 * change before it retires: the core is alone on its RAM) and then only
 * counts its remaining cycles down, writing the register and reporting the
 * retire in the last. */
#include "iss.h"

#include <assert.h>
#include <string.h>

enum {
    OPC_LUI = 0x37, OPC_AUIPC = 0x17, OPC_JAL = 0x6f, OPC_JALR = 0x67, OPC_BRANCH = 0x63,
    OPC_LOAD = 0x03, OPC_STORE = 0x23, OPC_OPIMM = 0x13, OPC_OP = 0x33, OPC_FENCE = 0x0f
};

#define REG_BASE 0x80000000u
#define REG_SPAN 0x24u        /* 0x8000_0000 .. 0x8000_0023 */
#define LONG_BUSY 33u         /* MUL*, DIV*, REM*: 34 cycles in X, the first, then 33 more */

static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

void wm_iss_reset(wm_iss *c)
{
    const wm_iss_ram ram = c->ram;
    memset(c, 0, sizeof *c);
    c->ram = ram;
    c->xstate = WM_ISS_X_EMPTY;
    c->halt.state = WM_CORE_RUNNING;
}

void wm_iss_init(wm_iss *c, uint8_t *mem, uint32_t mem_bytes)
{
    assert(mem_bytes <= WM_TILE_MEM_BYTES);
    memset(&c->ram, 0, sizeof c->ram);
    c->ram.bytes = mem_bytes & ~3u;
    /* Every page its own: stores never call own. */
    for (uint32_t p = 0; p * WM_ISS_PAGE_BYTES < c->ram.bytes; p++)
        c->ram.rd[p] = c->ram.wr[p] = mem + (size_t)p * WM_ISS_PAGE_BYTES;
    wm_iss_reset(c);
}

/* The RAM's byte at addr (below ram.bytes), for reading. */
static inline const uint8_t *ram_rd(const wm_iss *c, uint32_t addr)
{
    return c->ram.rd[addr >> WM_ISS_PAGE_SHIFT] + (addr & (WM_ISS_PAGE_BYTES - 1));
}

/* ... and for writing: the first store into a page the core does not own
 * makes it its own. */
static inline uint8_t *ram_wr(wm_iss *c, uint32_t addr)
{
    const unsigned page = addr >> WM_ISS_PAGE_SHIFT;
    uint8_t *p = c->ram.wr[page];
    if (__builtin_expect(p == NULL, 0)) p = c->ram.own(c->ram.own_ctx, &c->ram, page);
    return p + (addr & (WM_ISS_PAGE_BYTES - 1));
}

wm_core_halt wm_iss_halt(const wm_iss *c) { return c->halt; }

void wm_iss_idle(wm_iss *c, uint64_t n)
{
    if (c->xstate == WM_ISS_X_WAIT_RX || c->xstate == WM_ISS_X_WAIT_TX) c->cycle += n;
}

static void fault(wm_iss *c, wm_core_fault cause, uint32_t insn)
{
    c->halt.state = WM_CORE_FAULTED;
    c->halt.cause = cause;
    c->halt.pc = c->pc;
    c->halt.insn = insn;
    c->xstate = WM_ISS_X_HALTED;
}

/* The instruction in X retires in this, its only, cycle. */
static inline void retire1(wm_iss *c, wm_core_cycle *out, uint32_t insn, unsigned rd, uint32_t v)
{
    out->retire = true;
    out->retire_pc = c->pc;
    out->retire_insn = insn;
    if (rd) {
        c->x[rd] = v;
        out->rd_we = true;
        out->rd = (uint8_t)rd;
        out->rd_data = v;
    }
    c->pc += 4;
    c->retired++;
}

/* The instruction in X stays there `more` cycles after this one. */
static inline void start_multi(wm_iss *c, uint32_t insn, unsigned rd, uint32_t v, uint32_t next_pc, uint32_t more)
{
    c->cur_insn = insn;
    c->wb_rd = (uint8_t)rd;
    c->wb_val = v;
    c->next_pc = next_pc;
    c->busy = more;
    c->xstate = WM_ISS_X_BUSY;
}

static void retire_multi(wm_iss *c, wm_core_cycle *out)
{
    out->retire = true;
    out->retire_pc = c->pc;
    out->retire_insn = c->cur_insn;
    if (c->wb_rd) {
        c->x[c->wb_rd] = c->wb_val;
        out->rd_we = true;
        out->rd = c->wb_rd;
        out->rd_data = c->wb_val;
    }
    c->pc = c->next_pc;
    c->retired++;
    c->xstate = WM_ISS_X_NEW;
}

/* An RX load takes the head in this cycle; written back in the next. */
static inline void rx_take(wm_iss *c, const wm_core_pe_in *in, wm_core_cycle *out)
{
    if (c->perturb == WM_ISS_PERTURB_RX_POP_LATE) c->pop_late = 1;
    else out->pop = true;
    c->wb_val = in->rx_head;
    c->next_pc = c->pc + 4;
    c->busy = 1;
    c->xstate = WM_ISS_X_BUSY;
}

static inline uint32_t div_s(uint32_t a, uint32_t b)
{
    if (b == 0) return 0xffffffffu;
    if (a == 0x80000000u && b == 0xffffffffu) return a;
    return (uint32_t)((int32_t)a / (int32_t)b);
}

static inline uint32_t rem_s(uint32_t a, uint32_t b)
{
    if (b == 0) return a;
    if (a == 0x80000000u && b == 0xffffffffu) return 0;
    return (uint32_t)((int32_t)a % (int32_t)b);
}

void wm_iss_step(wm_iss *c, const wm_core_pe_in *in, wm_core_cycle *out)
{
    memset(out, 0, sizeof *out);
    switch (c->xstate) {
    case WM_ISS_X_NEW: break;
    case WM_ISS_X_BUSY:
        c->cycle++;
        if (c->pop_late) {
            c->pop_late = 0;
            out->pop = true;
        }
        if (--c->busy == 0) retire_multi(c, out);
        return;
    case WM_ISS_X_WAIT_RX:
        c->cycle++;
        if (in->rx_count) rx_take(c, in, out);
        return;
    case WM_ISS_X_WAIT_TX:
        c->cycle++;
        if (in->tx_count < WM_CORE_TX_DEPTH) {
            out->push = true;
            out->push_data = c->tx_data;
            retire1(c, out, c->cur_insn, 0, 0);
            c->xstate = WM_ISS_X_NEW;
        }
        return;
    case WM_ISS_X_EMPTY: /* cycle 0: F fetches address 0 */
        c->cycle++;
        c->xstate = WM_ISS_X_NEW;
        return;
    default: /* halted */
        return;
    }

    c->cycle++;
    const uint32_t pc = c->pc;
    if (pc >= c->ram.bytes) {
        fault(c, WM_CORE_FAULT_FETCH, 0);
        return;
    }
    uint32_t insn;
    if (c->fetch_stale) {
        insn = c->fetch_stale_insn;
        c->fetch_stale = false;
    } else {
        insn = ld32(ram_rd(c, pc));
    }
    const unsigned rd = (insn >> 7) & 31u, f3 = (insn >> 12) & 7u, f7 = insn >> 25;
    const uint32_t a = c->x[(insn >> 15) & 31u], b = c->x[(insn >> 20) & 31u];
    const uint32_t imm_i = (uint32_t)((int32_t)insn >> 20);
    uint32_t v;

    switch (insn & 0x7fu) {
    case OPC_OPIMM:
        switch (f3) {
        case 0: v = a + imm_i; break;
        case 1:
            if (f7) goto illegal;
            v = a << (imm_i & 31u);
            break;
        case 2: v = (int32_t)a < (int32_t)imm_i; break;
        case 3: v = a < imm_i; break;
        case 4: v = a ^ imm_i; break;
        case 5:
            if (f7 == 0) v = a >> (imm_i & 31u);
            else if (f7 == 0x20) v = (uint32_t)((int32_t)a >> (imm_i & 31u));
            else goto illegal;
            break;
        case 6: v = a | imm_i; break;
        default: v = a & imm_i; break;
        }
        retire1(c, out, insn, rd, v);
        return;

    case OPC_OP:
        if (f7 == 0) {
            switch (f3) {
            case 0: v = a + b; break;
            case 1: v = a << (b & 31u); break;
            case 2: v = (int32_t)a < (int32_t)b; break;
            case 3: v = c->perturb == WM_ISS_PERTURB_SLTU_AS_SLT ? (int32_t)a < (int32_t)b : a < b; break;
            case 4: v = a ^ b; break;
            case 5: v = a >> (b & 31u); break;
            case 6: v = a | b; break;
            default: v = a & b; break;
            }
        } else if (f7 == 0x20) {
            if (f3 == 0) v = a - b;
            else if (f3 == 5) v = (uint32_t)((int32_t)a >> (b & 31u));
            else goto illegal;
        } else if (f7 == 1) {
            switch (f3) {
            case 0: v = a * b; break;
            case 1: v = (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32); break;
            case 2: v = (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)b) >> 32); break;
            case 3: v = (uint32_t)(((uint64_t)a * b) >> 32); break;
            case 4: v = div_s(a, b); break;
            case 5: v = b ? a / b : 0xffffffffu; break;
            case 6: v = rem_s(a, b); break;
            default: v = b ? a % b : a; break;
            }
            uint32_t more = f3 >= 4 && c->perturb == WM_ISS_PERTURB_DIV_33 ? LONG_BUSY - 1 : LONG_BUSY;
            start_multi(c, insn, rd, v, pc + 4, more);
            return;
        } else {
            goto illegal;
        }
        retire1(c, out, insn, rd, v);
        return;

    case OPC_LUI: retire1(c, out, insn, rd, insn & 0xfffff000u); return;
    case OPC_AUIPC: retire1(c, out, insn, rd, pc + (insn & 0xfffff000u)); return;

    case OPC_JAL: {
        uint32_t off = ((insn >> 31) & 1u) << 20 | ((insn >> 12) & 0xffu) << 12 | ((insn >> 20) & 1u) << 11 |
                       ((insn >> 21) & 0x3ffu) << 1;
        uint32_t target = pc + (uint32_t)((int32_t)(off << 11) >> 11);
        if (target & 3u) {
            fault(c, WM_CORE_FAULT_JUMP_ALIGN, insn);
            return;
        }
        start_multi(c, insn, rd, pc + 4, target, 1);
        return;
    }

    case OPC_JALR: {
        if (f3) goto illegal;
        uint32_t target = (a + imm_i) & ~1u;
        if (target & 2u) {
            fault(c, WM_CORE_FAULT_JUMP_ALIGN, insn);
            return;
        }
        start_multi(c, insn, rd, pc + 4, target, 1);
        return;
    }

    case OPC_BRANCH: {
        bool taken;
        switch (f3) {
        case 0: taken = a == b; break;
        case 1: taken = a != b; break;
        case 4: taken = (int32_t)a < (int32_t)b; break;
        case 5: taken = (int32_t)a >= (int32_t)b; break;
        case 6: taken = a < b; break;
        case 7: taken = a >= b; break;
        default: goto illegal;
        }
        if (!taken) {
            retire1(c, out, insn, 0, 0);
            return;
        }
        uint32_t off = ((insn >> 31) & 1u) << 12 | ((insn >> 7) & 1u) << 11 | ((insn >> 25) & 0x3fu) << 5 |
                       ((insn >> 8) & 0xfu) << 1;
        uint32_t target = pc + (uint32_t)((int32_t)(off << 19) >> 19);
        if (target & 3u) {
            fault(c, WM_CORE_FAULT_JUMP_ALIGN, insn);
            return;
        }
        start_multi(c, insn, 0, 0, target, 1);
        return;
    }

    case OPC_LOAD: {
        static const uint8_t size_of[8] = {1, 2, 4, 0, 1, 2, 0, 0};
        const uint32_t size = size_of[f3];
        if (!size) goto illegal;
        const uint32_t addr = a + imm_i;
        if (addr & (size - 1)) {
            fault(c, WM_CORE_FAULT_ALIGN, insn);
            return;
        }
        if (addr < c->ram.bytes) {
            const uint8_t *p = ram_rd(c, addr);
            switch (f3) {
            case 0: v = (uint32_t)(int32_t)(int8_t)p[0]; break;
            case 1: v = (uint32_t)(int32_t)(int16_t)(uint16_t)(p[0] | p[1] << 8); break;
            case 2: v = ld32(p); break;
            case 4: v = p[0]; break;
            default: v = (uint32_t)(p[0] | p[1] << 8); break;
            }
            start_multi(c, insn, rd, v, pc + 4, c->perturb == WM_ISS_PERTURB_RAM_LOAD_3 ? 2 : 1);
            return;
        }
        if (addr - REG_BASE >= REG_SPAN) {
            fault(c, WM_CORE_FAULT_ACCESS, insn);
            return;
        }
        if (size != 4) goto unmapped;
        switch (addr - REG_BASE) {
        case WM_CORE_REG_RX:
            c->cur_insn = insn;
            c->wb_rd = (uint8_t)rd;
            if (in->rx_count) rx_take(c, in, out);
            else c->xstate = WM_ISS_X_WAIT_RX;
            return;
        case WM_CORE_REG_QUEUES:
            v = (uint32_t)in->rx_count << 8 | (uint32_t)(uint8_t)(WM_CORE_TX_DEPTH - in->tx_count);
            break;
        case WM_CORE_REG_TSC_LO:
            v = (uint32_t)in->tsc;
            c->tsc_hi = (uint32_t)(in->tsc >> 32);
            break;
        case WM_CORE_REG_TSC_HI: v = c->tsc_hi; break;
        case WM_CORE_REG_STATUS: v = in->status; break;
        case WM_CORE_REG_ERR_HDR: v = in->err_hdr; break;
        case WM_CORE_REG_COORD: v = (uint32_t)in->row << 16 | in->col; break;
        default: goto unmapped; /* TX, EXIT */
        }
        start_multi(c, insn, rd, v, pc + 4, 1);
        return;
    }

    case OPC_STORE: {
        if (f3 > 2) goto illegal;
        const uint32_t size = 1u << f3;
        const uint32_t addr = a + (uint32_t)(((int32_t)insn >> 25) * 32 + (int32_t)rd);
        if (addr & (size - 1)) {
            fault(c, WM_CORE_FAULT_ALIGN, insn);
            return;
        }
        if (addr < c->ram.bytes) {
            if ((addr & ~3u) == pc + 4) {
                /* F read pc + 4 at the edge this store writes it: the old word */
                c->fetch_stale = true;
                c->fetch_stale_insn = ld32(ram_rd(c, pc + 4));
            }
            uint8_t *p = ram_wr(c, addr);
            p[0] = (uint8_t)b;
            if (size > 1) p[1] = (uint8_t)(b >> 8);
            if (size > 2) {
                p[2] = (uint8_t)(b >> 16);
                p[3] = (uint8_t)(b >> 24);
            }
            retire1(c, out, insn, 0, 0);
            return;
        }
        if (addr - REG_BASE >= REG_SPAN) {
            fault(c, WM_CORE_FAULT_ACCESS, insn);
            return;
        }
        if (size != 4) goto unmapped;
        if (addr - REG_BASE == WM_CORE_REG_TX) {
            if (in->tx_count < WM_CORE_TX_DEPTH) {
                out->push = true;
                out->push_data = b;
                retire1(c, out, insn, 0, 0);
            } else {
                c->cur_insn = insn;
                c->tx_data = b;
                c->xstate = WM_ISS_X_WAIT_TX;
            }
            return;
        }
        if (addr - REG_BASE == WM_CORE_REG_EXIT) {
            retire1(c, out, insn, 0, 0);
            c->pc = pc;
            c->halt.state = WM_CORE_EXITED;
            c->halt.exit_code = b;
            c->halt.pc = pc;
            c->halt.insn = insn;
            c->xstate = WM_ISS_X_HALTED;
            return;
        }
        goto unmapped;
    }

    case OPC_FENCE:
        if (f3) goto illegal;
        retire1(c, out, insn, 0, 0);
        return;

    default: goto illegal;
    }

illegal:
    fault(c, WM_CORE_FAULT_ILLEGAL, insn);
    return;
unmapped:
    fault(c, WM_CORE_FAULT_UNMAPPED, insn);
}
