/* rv32_asm.c: see rv32_asm.h. */
#include "rv32_asm.h"

#include <stdio.h>

enum {
    OPC_LUI = 0x37, OPC_AUIPC = 0x17, OPC_JAL = 0x6f, OPC_JALR = 0x67, OPC_BRANCH = 0x63,
    OPC_LOAD = 0x03, OPC_STORE = 0x23, OPC_OPIMM = 0x13, OPC_OP = 0x33, OPC_FENCE = 0x0f,
    OPC_SYSTEM = 0x73
};

/* ---- field encoders ---------------------------------------------------- */

uint32_t rv_r(unsigned funct7, unsigned rs2, unsigned rs1, unsigned funct3, unsigned rd, unsigned opcode)
{
    return (uint32_t)(funct7 & 0x7fu) << 25 | (uint32_t)(rs2 & 31u) << 20 | (uint32_t)(rs1 & 31u) << 15 |
           (uint32_t)(funct3 & 7u) << 12 | (uint32_t)(rd & 31u) << 7 | (opcode & 0x7fu);
}

uint32_t rv_i(int32_t imm, unsigned rs1, unsigned funct3, unsigned rd, unsigned opcode)
{
    return ((uint32_t)imm & 0xfffu) << 20 | (uint32_t)(rs1 & 31u) << 15 | (uint32_t)(funct3 & 7u) << 12 |
           (uint32_t)(rd & 31u) << 7 | (opcode & 0x7fu);
}

uint32_t rv_s(int32_t imm, unsigned rs2, unsigned rs1, unsigned funct3, unsigned opcode)
{
    uint32_t u = (uint32_t)imm;
    return ((u >> 5) & 0x7fu) << 25 | (uint32_t)(rs2 & 31u) << 20 | (uint32_t)(rs1 & 31u) << 15 |
           (uint32_t)(funct3 & 7u) << 12 | (u & 31u) << 7 | (opcode & 0x7fu);
}

uint32_t rv_b(int32_t off, unsigned rs2, unsigned rs1, unsigned funct3)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 12) & 1u) << 31 | ((u >> 5) & 0x3fu) << 25 | (uint32_t)(rs2 & 31u) << 20 |
           (uint32_t)(rs1 & 31u) << 15 | (uint32_t)(funct3 & 7u) << 12 | ((u >> 1) & 0xfu) << 8 |
           ((u >> 11) & 1u) << 7 | OPC_BRANCH;
}

uint32_t rv_u(uint32_t imm20, unsigned rd, unsigned opcode)
{
    return (imm20 & 0xfffffu) << 12 | (uint32_t)(rd & 31u) << 7 | (opcode & 0x7fu);
}

uint32_t rv_j(int32_t off, unsigned rd)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 20) & 1u) << 31 | ((u >> 1) & 0x3ffu) << 21 | ((u >> 11) & 1u) << 20 |
           ((u >> 12) & 0xffu) << 12 | (uint32_t)(rd & 31u) << 7 | OPC_JAL;
}

/* ---- instructions ------------------------------------------------------ */

uint32_t rv_lui(unsigned rd, uint32_t imm20) { return rv_u(imm20, rd, OPC_LUI); }
uint32_t rv_auipc(unsigned rd, uint32_t imm20) { return rv_u(imm20, rd, OPC_AUIPC); }
uint32_t rv_jal(unsigned rd, int32_t off) { return rv_j(off, rd); }
uint32_t rv_jalr(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 0, rd, OPC_JALR); }

uint32_t rv_beq(unsigned rs1, unsigned rs2, int32_t off) { return rv_b(off, rs2, rs1, 0); }
uint32_t rv_bne(unsigned rs1, unsigned rs2, int32_t off) { return rv_b(off, rs2, rs1, 1); }
uint32_t rv_blt(unsigned rs1, unsigned rs2, int32_t off) { return rv_b(off, rs2, rs1, 4); }
uint32_t rv_bge(unsigned rs1, unsigned rs2, int32_t off) { return rv_b(off, rs2, rs1, 5); }
uint32_t rv_bltu(unsigned rs1, unsigned rs2, int32_t off) { return rv_b(off, rs2, rs1, 6); }
uint32_t rv_bgeu(unsigned rs1, unsigned rs2, int32_t off) { return rv_b(off, rs2, rs1, 7); }

uint32_t rv_lb(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 0, rd, OPC_LOAD); }
uint32_t rv_lh(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 1, rd, OPC_LOAD); }
uint32_t rv_lw(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 2, rd, OPC_LOAD); }
uint32_t rv_lbu(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 4, rd, OPC_LOAD); }
uint32_t rv_lhu(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 5, rd, OPC_LOAD); }
uint32_t rv_sb(unsigned rs2, unsigned rs1, int32_t imm) { return rv_s(imm, rs2, rs1, 0, OPC_STORE); }
uint32_t rv_sh(unsigned rs2, unsigned rs1, int32_t imm) { return rv_s(imm, rs2, rs1, 1, OPC_STORE); }
uint32_t rv_sw(unsigned rs2, unsigned rs1, int32_t imm) { return rv_s(imm, rs2, rs1, 2, OPC_STORE); }

uint32_t rv_addi(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 0, rd, OPC_OPIMM); }
uint32_t rv_slti(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 2, rd, OPC_OPIMM); }
uint32_t rv_sltiu(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 3, rd, OPC_OPIMM); }
uint32_t rv_xori(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 4, rd, OPC_OPIMM); }
uint32_t rv_ori(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 6, rd, OPC_OPIMM); }
uint32_t rv_andi(unsigned rd, unsigned rs1, int32_t imm) { return rv_i(imm, rs1, 7, rd, OPC_OPIMM); }
uint32_t rv_slli(unsigned rd, unsigned rs1, unsigned shamt) { return rv_r(0, shamt, rs1, 1, rd, OPC_OPIMM); }
uint32_t rv_srli(unsigned rd, unsigned rs1, unsigned shamt) { return rv_r(0, shamt, rs1, 5, rd, OPC_OPIMM); }
uint32_t rv_srai(unsigned rd, unsigned rs1, unsigned shamt) { return rv_r(0x20, shamt, rs1, 5, rd, OPC_OPIMM); }

uint32_t rv_add(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 0, rd, OPC_OP); }
uint32_t rv_sub(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0x20, rs2, rs1, 0, rd, OPC_OP); }
uint32_t rv_sll(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 1, rd, OPC_OP); }
uint32_t rv_slt(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 2, rd, OPC_OP); }
uint32_t rv_sltu(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 3, rd, OPC_OP); }
uint32_t rv_xor(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 4, rd, OPC_OP); }
uint32_t rv_srl(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 5, rd, OPC_OP); }
uint32_t rv_sra(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0x20, rs2, rs1, 5, rd, OPC_OP); }
uint32_t rv_or(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 6, rd, OPC_OP); }
uint32_t rv_and(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(0, rs2, rs1, 7, rd, OPC_OP); }

uint32_t rv_mul(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 0, rd, OPC_OP); }
uint32_t rv_mulh(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 1, rd, OPC_OP); }
uint32_t rv_mulhsu(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 2, rd, OPC_OP); }
uint32_t rv_mulhu(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 3, rd, OPC_OP); }
uint32_t rv_div(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 4, rd, OPC_OP); }
uint32_t rv_divu(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 5, rd, OPC_OP); }
uint32_t rv_rem(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 6, rd, OPC_OP); }
uint32_t rv_remu(unsigned rd, unsigned rs1, unsigned rs2) { return rv_r(1, rs2, rs1, 7, rd, OPC_OP); }

uint32_t rv_fence(void) { return 0x0ff0000fu; }
uint32_t rv_nop(void) { return rv_addi(0, 0, 0); }
uint32_t rv_ecall(void) { return 0x00000073u; }
uint32_t rv_ebreak(void) { return 0x00100073u; }

unsigned rv_li(uint32_t *out, unsigned rd, uint32_t value)
{
    int32_t v = (int32_t)value;
    if (v >= -2048 && v <= 2047) {
        out[0] = rv_addi(rd, 0, v);
        return 1;
    }
    uint32_t lo = value & 0xfffu;
    uint32_t hi = (value >> 12) + (lo >> 11); /* ADDI sign-extends lo */
    out[0] = rv_lui(rd, hi);
    out[1] = rv_addi(rd, rd, (int32_t)(lo << 20) >> 20);
    return 2;
}

/* ---- decoding ---------------------------------------------------------- */

rv_class_t rv_class(uint32_t insn)
{
    unsigned f3 = (insn >> 12) & 7u, f7 = insn >> 25;
    if ((insn & 3u) != 3u) return RV_ILLEGAL;
    switch (insn & 0x7fu) {
    case OPC_LUI: return RV_LUI;
    case OPC_AUIPC: return RV_AUIPC;
    case OPC_JAL: return RV_JAL;
    case OPC_JALR: return f3 == 0 ? RV_JALR : RV_ILLEGAL;
    case OPC_BRANCH: {
        static const rv_class_t b[8] = {RV_BEQ, RV_BNE, RV_ILLEGAL, RV_ILLEGAL, RV_BLT, RV_BGE, RV_BLTU, RV_BGEU};
        return b[f3];
    }
    case OPC_LOAD: {
        static const rv_class_t l[8] = {RV_LB, RV_LH, RV_LW, RV_ILLEGAL, RV_LBU, RV_LHU, RV_ILLEGAL, RV_ILLEGAL};
        return l[f3];
    }
    case OPC_STORE: return f3 == 0 ? RV_SB : f3 == 1 ? RV_SH : f3 == 2 ? RV_SW : RV_ILLEGAL;
    case OPC_OPIMM:
        switch (f3) {
        case 0: return RV_ADDI;
        case 1: return f7 == 0 ? RV_SLLI : RV_ILLEGAL;
        case 2: return RV_SLTI;
        case 3: return RV_SLTIU;
        case 4: return RV_XORI;
        case 5: return f7 == 0 ? RV_SRLI : f7 == 0x20 ? RV_SRAI : RV_ILLEGAL;
        case 6: return RV_ORI;
        default: return RV_ANDI;
        }
    case OPC_OP:
        if (f7 == 0) {
            static const rv_class_t o[8] = {RV_ADD, RV_SLL, RV_SLT, RV_SLTU, RV_XOR, RV_SRL, RV_OR, RV_AND};
            return o[f3];
        }
        if (f7 == 1) {
            static const rv_class_t m[8] = {RV_MUL, RV_MULH, RV_MULHSU, RV_MULHU, RV_DIV, RV_DIVU, RV_REM, RV_REMU};
            return m[f3];
        }
        if (f7 == 0x20) return f3 == 0 ? RV_SUB : f3 == 5 ? RV_SRA : RV_ILLEGAL;
        return RV_ILLEGAL;
    case OPC_FENCE: return f3 == 0 ? RV_FENCE : RV_ILLEGAL;
    default: return RV_ILLEGAL;
    }
}

const char *rv_class_name(rv_class_t k)
{
    static const char *const names[RV_NCLASSES] = {
#define RV_NAME_(id, s) s,
        RV_CLASSES(RV_NAME_)
#undef RV_NAME_
        "illegal"};
    return (unsigned)k < RV_NCLASSES ? names[k] : "?";
}

static int32_t imm_i(uint32_t w) { return (int32_t)w >> 20; }
static int32_t imm_s(uint32_t w) { return ((int32_t)w >> 25) * 32 + (int32_t)((w >> 7) & 31u); }
static int32_t imm_b(uint32_t w)
{
    uint32_t u = ((w >> 31) & 1u) << 12 | ((w >> 7) & 1u) << 11 | ((w >> 25) & 0x3fu) << 5 | ((w >> 8) & 0xfu) << 1;
    return (int32_t)(u << 19) >> 19;
}
static int32_t imm_j(uint32_t w)
{
    uint32_t u = ((w >> 31) & 1u) << 20 | ((w >> 12) & 0xffu) << 12 | ((w >> 20) & 1u) << 11 | ((w >> 21) & 0x3ffu) << 1;
    return (int32_t)(u << 11) >> 11;
}

char *rv_disasm(uint32_t insn, char *buf, size_t n)
{
    rv_class_t k = rv_class(insn);
    const char *m = rv_class_name(k);
    unsigned rd = (insn >> 7) & 31u, rs1 = (insn >> 15) & 31u, rs2 = (insn >> 20) & 31u;
    switch (k) {
    case RV_ILLEGAL: snprintf(buf, n, "illegal 0x%08x", (unsigned)insn); break;
    case RV_LUI:
    case RV_AUIPC: snprintf(buf, n, "%s x%u, 0x%x", m, rd, (unsigned)(insn >> 12)); break;
    case RV_JAL: snprintf(buf, n, "jal x%u, %+d", rd, (int)imm_j(insn)); break;
    case RV_JALR: snprintf(buf, n, "jalr x%u, %d(x%u)", rd, (int)imm_i(insn), rs1); break;
    case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BGE: case RV_BLTU: case RV_BGEU:
        snprintf(buf, n, "%s x%u, x%u, %+d", m, rs1, rs2, (int)imm_b(insn));
        break;
    case RV_LB: case RV_LH: case RV_LW: case RV_LBU: case RV_LHU:
        snprintf(buf, n, "%s x%u, %d(x%u)", m, rd, (int)imm_i(insn), rs1);
        break;
    case RV_SB: case RV_SH: case RV_SW: snprintf(buf, n, "%s x%u, %d(x%u)", m, rs2, (int)imm_s(insn), rs1); break;
    case RV_SLLI: case RV_SRLI: case RV_SRAI: snprintf(buf, n, "%s x%u, x%u, %u", m, rd, rs1, rs2); break;
    case RV_ADDI: case RV_SLTI: case RV_SLTIU: case RV_XORI: case RV_ORI: case RV_ANDI:
        snprintf(buf, n, "%s x%u, x%u, %d", m, rd, rs1, (int)imm_i(insn));
        break;
    case RV_FENCE: snprintf(buf, n, "fence"); break;
    default: snprintf(buf, n, "%s x%u, x%u, x%u", m, rd, rs1, rs2); break;
    }
    return buf;
}
