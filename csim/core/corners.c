/* corners.c: see corners.h. */
#include "corners.h"

#include <string.h>

#define REG_BASE 0x80000000u

void wm_corners_init(wm_corners *cv, uint32_t mem_bytes)
{
    memset(cv, 0, sizeof *cv);
    cv->mem_bytes = mem_bytes;
}

void wm_corners_end(wm_corners *cv)
{
    cv->prev_rd = 0;
    cv->prev_kind = 0;
}

static const char *const names[WM_NCORNERS] = {
#define WM_CORNER_NAME_(id, s) s,
    WM_CORNERS(WM_CORNER_NAME_)
#undef WM_CORNER_NAME_
};

const char *wm_corner_name(wm_corner k) { return (unsigned)k < WM_NCORNERS ? names[k] : "?"; }

static uint32_t imm_i(uint32_t w) { return (uint32_t)((int32_t)w >> 20); }
static uint32_t imm_s(uint32_t w) { return (uint32_t)(((int32_t)w >> 25) * 32 + (int32_t)((w >> 7) & 31u)); }
static bool is_load(rv_class_t k) { return k >= RV_LB && k <= RV_LHU; }
static bool is_store(rv_class_t k) { return k >= RV_SB && k <= RV_SW; }
static bool is_branch(rv_class_t k) { return k >= RV_BEQ && k <= RV_BGEU; }

/* The edges an address meets, for a load or store of rs1 + imm. */
static void address(wm_corners *cv, uint32_t rs1, uint32_t imm, bool faulted)
{
    const uint32_t ea = rs1 + imm;
    const bool carry = ((rs1 & 0xfffu) + (imm & 0xfffu)) >> 12;
    const bool inc = !(imm & 0x800u) && carry, dec = (imm & 0x800u) && !carry;
    const bool ram = ea < cv->mem_bytes, win = ea - REG_BASE < 0x24u;
    if (ram && !faulted) {
        cv->hits[WM_CORNER_RAM_CARRY] += inc;
        cv->hits[WM_CORNER_RAM_BORROW] += dec;
        cv->hits[WM_CORNER_RAM_WRAP] += rs1 >= 0xfffff000u;
        cv->hits[WM_CORNER_RAM_LAST] += ea >= cv->mem_bytes - 4;
    }
    if (win && !faulted) {
        cv->hits[WM_CORNER_WIN_FIRST] += ea < REG_BASE + 4;
        cv->hits[WM_CORNER_WIN_LAST] += ea >= REG_BASE + 0x1c;
        cv->hits[WM_CORNER_WIN_CARRY] += inc;
    }
    if (faulted) {
        cv->hits[WM_CORNER_RAM_PAST] += ea - cv->mem_bytes < 4;
        cv->hits[WM_CORNER_RAM_END_CARRY] += ea - cv->mem_bytes < 4 && inc;
        cv->hits[WM_CORNER_WIN_PAST] += ea - (REG_BASE + 0x24) < 4;
        cv->hits[WM_CORNER_WIN_BEFORE] += ea - (REG_BASE - 4) < 4;
    }
}

void wm_corners_fault(wm_corners *cv, uint32_t insn, const uint32_t regs[32])
{
    const rv_class_t k = rv_class(insn);
    if (is_load(k) || is_store(k)) {
        const uint32_t rs1 = regs[(insn >> 15) & 31u], imm = is_load(k) ? imm_i(insn) : imm_s(insn);
        const uint32_t ea = rs1 + imm;
        address(cv, rs1, imm, true);
        const bool narrow = k != RV_LW && k != RV_SW;
        cv->hits[WM_CORNER_WIN_NARROW] += narrow && ea - REG_BASE < 0x24u;
    }
    wm_corners_end(cv);
}

static void branch(wm_corners *cv, rv_class_t k, uint32_t a, uint32_t b)
{
    static const wm_corner eq[6] = {WM_CORNER_BEQ_EQ, WM_CORNER_BNE_EQ, WM_CORNER_BLT_EQ,
                                    WM_CORNER_BGE_EQ, WM_CORNER_BLTU_EQ, WM_CORNER_BGEU_EQ};
    const unsigned i = (unsigned)(k - RV_BEQ);
    cv->hits[eq[i]] += a == b;
    cv->hits[eq[i] + 1] += a - b == 1 || b - a == 1;
    if (i >= 2) cv->hits[eq[i] + 2] += ((int32_t)a < (int32_t)b) != (a < b);
}

void wm_corners_retire(wm_corners *cv, uint32_t insn, const uint32_t regs[32], uint32_t word)
{
    const rv_class_t k = rv_class(insn);
    cv->insn[k]++;
    const unsigned rd = (insn >> 7) & 31u, r1 = (insn >> 15) & 31u, r2 = (insn >> 20) & 31u;
    const uint32_t a = regs[r1], b = regs[r2];
    const bool uses_rs1 = k != RV_LUI && k != RV_AUIPC && k != RV_JAL && k != RV_FENCE;
    const bool uses_rs2 = is_branch(k) || is_store(k) || (insn & 0x7fu) == 0x33u;
    const bool writes = k != RV_FENCE && !is_branch(k) && !is_store(k) && k != RV_ILLEGAL;

    /* the register file's bypass: an operand written just before */
    if (cv->prev_rd) {
        const bool by1 = uses_rs1 && r1 == cv->prev_rd, by2 = uses_rs2 && r2 == cv->prev_rd;
        cv->hits[WM_CORNER_BYPASS_RS1] += by1;
        cv->hits[WM_CORNER_BYPASS_RS2] += by2;
        cv->hits[WM_CORNER_LOAD_USE] += (by1 || by2) && cv->prev_kind == 1;
        cv->hits[WM_CORNER_LONG_USE] += (by1 || by2) && cv->prev_kind == 2;
    }
    cv->hits[WM_CORNER_X0_DEST] += writes && rd == 0;

    if (is_load(k)) {
        const uint32_t ea = a + imm_i(insn);
        const unsigned lane = ea & 3u;
        const uint8_t byte = (uint8_t)(word >> 8 * lane);
        const uint16_t half = (uint16_t)(word >> 8 * (lane & 2u));
        address(cv, a, imm_i(insn), false);
        if (ea < cv->mem_bytes) {
            if (k == RV_LB || k == RV_LBU) {
                cv->hits[WM_CORNER_LB_LANE0 + lane]++;
                cv->hits[WM_CORNER_LB_LANE_DIFF] += lane && byte != (uint8_t)word;
                cv->hits[k == RV_LB ? WM_CORNER_LB_NEG : WM_CORNER_LBU_HIGH] += byte >> 7;
                const uint8_t other = (uint8_t)(word >> 8 * (lane ^ 1u));
                cv->hits[WM_CORNER_LB_SIGN_LANE] += k == RV_LB && (byte ^ other) >> 7;
            }
            if (k == RV_LH || k == RV_LHU) {
                cv->hits[lane ? WM_CORNER_LH_LANE2 : WM_CORNER_LH_LANE0]++;
                cv->hits[k == RV_LH ? WM_CORNER_LH_NEG : WM_CORNER_LHU_HIGH] += half >> 15;
                cv->hits[WM_CORNER_LH_SIGN_LANE] += k == RV_LH && lane && ((word >> 31) ^ (word >> 15)) & 1u;
            }
        }
    }
    if (is_store(k)) {
        const uint32_t ea = a + imm_s(insn);
        address(cv, a, imm_s(insn), false);
        if (k == RV_SB) {
            cv->hits[WM_CORNER_SB_LANE0 + (ea & 3u)]++;
            cv->hits[WM_CORNER_SB_SIGN] += (b >> 7) & 1u;
        }
        if (k == RV_SH) {
            cv->hits[(ea & 2u) ? WM_CORNER_SH_LANE2 : WM_CORNER_SH_LANE0]++;
            cv->hits[WM_CORNER_SH_SIGN] += (b >> 15) & 1u;
        }
    }
    if (k == RV_SLL || k == RV_SRL || k == RV_SRA || k == RV_SLLI || k == RV_SRLI || k == RV_SRAI) {
        const bool reg = (insn & 0x7fu) == 0x33u;
        const uint32_t sh = reg ? b : r2;
        cv->hits[WM_CORNER_SHIFT_0] += (sh & 31u) == 0;
        cv->hits[WM_CORNER_SHIFT_31] += (sh & 31u) == 31;
        cv->hits[WM_CORNER_SHIFT_32UP] += reg && sh >= 32;
        cv->hits[WM_CORNER_SRA_NEG] += (k == RV_SRA || k == RV_SRAI) && (a >> 31) && (sh & 31u);
    }
    if (b == 0) {
        cv->hits[WM_CORNER_DIV_ZERO] += k == RV_DIV;
        cv->hits[WM_CORNER_DIVU_ZERO] += k == RV_DIVU;
        cv->hits[WM_CORNER_REM_ZERO] += k == RV_REM;
        cv->hits[WM_CORNER_REMU_ZERO] += k == RV_REMU;
    }
    if (a == 0x80000000u && b == 0xffffffffu) {
        cv->hits[WM_CORNER_DIV_OVERFLOW] += k == RV_DIV;
        cv->hits[WM_CORNER_REM_OVERFLOW] += k == RV_REM;
    }
    if (is_branch(k)) branch(cv, k, a, b);

    cv->prev_rd = (uint8_t)(writes ? rd : 0);
    cv->prev_kind = is_load(k) ? 1 : (k >= RV_MUL && k <= RV_REMU) ? 2 : 0;
}

bool wm_corners_print(const wm_corners *cv, FILE *out)
{
    unsigned reached = 0, n = 0;
    fprintf(out, "per instruction (retired):\n");
    for (int k = 0; k < RV_ILLEGAL; k++, n++)
        fprintf(out, "  %-7s %8llu%s", rv_class_name((rv_class_t)k), (unsigned long long)cv->insn[k],
                n % 6 == 5 || k == RV_ILLEGAL - 1 ? "\n" : "");
    fprintf(out, "per corner (times reached):\n");
    for (int k = 0; k < WM_NCORNERS; k++) {
        reached += cv->hits[k] > 0;
        fprintf(out, "  %-23s %7llu%s", names[k], (unsigned long long)cv->hits[k],
                k % 3 == 2 || k == WM_NCORNERS - 1 ? "\n" : "");
    }
    fprintf(out, "corners: %u of %d reached\n", reached, WM_NCORNERS);
    return !ferror(out);
}
