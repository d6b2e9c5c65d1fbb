/* rv32_asm.h: a tiny RV32IM encoder, decoder-to-mnemonic and disassembler.
 *
 * The tests build PE-core programs with it (no cross-compiler needed): each
 * rv_<mnemonic>() returns the 32-bit instruction word. Registers are 0..31;
 * immediates are the values RISC-V's assembler takes (byte offsets for
 * branches and jumps, the upper 20 bits for LUI/AUIPC), silently truncated
 * to their field. rv_class() names the RV32IM instruction a word encodes
 * (RV_ILLEGAL for everything else, as docs/core.md's fault 1 defines it);
 * rv_disasm() prints it. Plain C11. */
#ifndef WM_RV32_ASM_H
#define WM_RV32_ASM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every RV32IM instruction, in the order of the ISA manual's tables. */
#define RV_CLASSES(X)                                                                                  \
    X(LUI, "lui") X(AUIPC, "auipc") X(JAL, "jal") X(JALR, "jalr")                                    \
    X(BEQ, "beq") X(BNE, "bne") X(BLT, "blt") X(BGE, "bge") X(BLTU, "bltu") X(BGEU, "bgeu")          \
    X(LB, "lb") X(LH, "lh") X(LW, "lw") X(LBU, "lbu") X(LHU, "lhu")                                  \
    X(SB, "sb") X(SH, "sh") X(SW, "sw")                                                              \
    X(ADDI, "addi") X(SLTI, "slti") X(SLTIU, "sltiu") X(XORI, "xori") X(ORI, "ori") X(ANDI, "andi")  \
    X(SLLI, "slli") X(SRLI, "srli") X(SRAI, "srai")                                                  \
    X(ADD, "add") X(SUB, "sub") X(SLL, "sll") X(SLT, "slt") X(SLTU, "sltu") X(XOR, "xor")            \
    X(SRL, "srl") X(SRA, "sra") X(OR, "or") X(AND, "and")                                            \
    X(FENCE, "fence")                                                                                \
    X(MUL, "mul") X(MULH, "mulh") X(MULHSU, "mulhsu") X(MULHU, "mulhu")                              \
    X(DIV, "div") X(DIVU, "divu") X(REM, "rem") X(REMU, "remu")

typedef enum {
#define RV_ENUM_(id, s) RV_##id,
    RV_CLASSES(RV_ENUM_)
#undef RV_ENUM_
    RV_ILLEGAL,
    RV_NCLASSES
} rv_class_t;

rv_class_t rv_class(uint32_t insn);
const char *rv_class_name(rv_class_t k);
/* "addi x5, x0, -1"; returns buf. */
char *rv_disasm(uint32_t insn, char *buf, size_t n);

/* ---- encoders ---------------------------------------------------------- */
uint32_t rv_r(unsigned funct7, unsigned rs2, unsigned rs1, unsigned funct3, unsigned rd, unsigned opcode);
uint32_t rv_i(int32_t imm, unsigned rs1, unsigned funct3, unsigned rd, unsigned opcode);
uint32_t rv_s(int32_t imm, unsigned rs2, unsigned rs1, unsigned funct3, unsigned opcode);
uint32_t rv_b(int32_t off, unsigned rs2, unsigned rs1, unsigned funct3);
uint32_t rv_u(uint32_t imm20, unsigned rd, unsigned opcode);
uint32_t rv_j(int32_t off, unsigned rd);

uint32_t rv_lui(unsigned rd, uint32_t imm20);
uint32_t rv_auipc(unsigned rd, uint32_t imm20);
uint32_t rv_jal(unsigned rd, int32_t off);
uint32_t rv_jalr(unsigned rd, unsigned rs1, int32_t imm);

uint32_t rv_beq(unsigned rs1, unsigned rs2, int32_t off);
uint32_t rv_bne(unsigned rs1, unsigned rs2, int32_t off);
uint32_t rv_blt(unsigned rs1, unsigned rs2, int32_t off);
uint32_t rv_bge(unsigned rs1, unsigned rs2, int32_t off);
uint32_t rv_bltu(unsigned rs1, unsigned rs2, int32_t off);
uint32_t rv_bgeu(unsigned rs1, unsigned rs2, int32_t off);

uint32_t rv_lb(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_lh(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_lw(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_lbu(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_lhu(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_sb(unsigned rs2, unsigned rs1, int32_t imm);   /* sb rs2, imm(rs1) */
uint32_t rv_sh(unsigned rs2, unsigned rs1, int32_t imm);
uint32_t rv_sw(unsigned rs2, unsigned rs1, int32_t imm);

uint32_t rv_addi(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_slti(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_sltiu(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_xori(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_ori(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_andi(unsigned rd, unsigned rs1, int32_t imm);
uint32_t rv_slli(unsigned rd, unsigned rs1, unsigned shamt);
uint32_t rv_srli(unsigned rd, unsigned rs1, unsigned shamt);
uint32_t rv_srai(unsigned rd, unsigned rs1, unsigned shamt);

uint32_t rv_add(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_sub(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_sll(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_slt(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_sltu(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_xor(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_srl(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_sra(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_or(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_and(unsigned rd, unsigned rs1, unsigned rs2);

uint32_t rv_mul(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_mulh(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_mulhsu(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_mulhu(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_div(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_divu(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_rem(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t rv_remu(unsigned rd, unsigned rs1, unsigned rs2);

uint32_t rv_fence(void);     /* fence iorw, iorw */
uint32_t rv_nop(void);       /* addi x0, x0, 0 */
uint32_t rv_ecall(void);
uint32_t rv_ebreak(void);

/* rd = value, in one word (ADDI) when it fits 12 signed bits, else two
 * (LUI + ADDI); writes them to out and returns how many. */
unsigned rv_li(uint32_t *out, unsigned rd, uint32_t value);

#ifdef __cplusplus
}
#endif

#endif
