/* corners.h: what a run of the core reached, per instruction and per corner.
 *
 * Counted from an executed trace: each retired instruction with the
 * registers as it read them, and the faulting instruction that ends a run.
 * A corner is an operand or address at which a correct core and a subtly
 * wrong one part (docs/core.md): the sign bit of a narrow load, each byte
 * lane, the register window's and the RAM's edges (reached through the
 * three ways an offset meets rs1's high part: plainly, carrying into it,
 * borrowing from it), shifts by 0, 31 and 32 or more, division's special
 * cases, x0 as a destination, an operand written by the instruction just
 * before (the register file's bypass), and every branch at its boundary.
 * The differential test of random programs (tests/test_core.c) prints them
 * and requires each reached.
 *
 * Plain C11; no allocation. */
#ifndef WM_CORNERS_H
#define WM_CORNERS_H

#include "must_use.h"
#include "rv32_asm.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WM_CORNERS(X)                                                                                   \
    X(LB_NEG, "lb-negative")         /* LB of a byte with bit 7 set */                                   \
    X(LBU_HIGH, "lbu-bit7")          /* LBU of a byte with bit 7 set */                                  \
    X(LH_NEG, "lh-negative")                                                                             \
    X(LHU_HIGH, "lhu-bit15")                                                                             \
    X(LB_SIGN_LANE, "lb-sign-by-lane")   /* LB whose byte's sign differs from its half's other byte */  \
    X(LH_SIGN_LANE, "lh-sign-by-lane")   /* LH of the upper half, the halves' signs differ */            \
    X(LB_LANE0, "lb-lane0") X(LB_LANE1, "lb-lane1") X(LB_LANE2, "lb-lane2") X(LB_LANE3, "lb-lane3")      \
    X(LB_LANE_DIFF, "lb-lane-not-lane0")  /* a byte load of lane 1..3 whose byte is not lane 0's */      \
    X(LH_LANE0, "lh-lane0") X(LH_LANE2, "lh-lane2")                                                       \
    X(SB_LANE0, "sb-lane0") X(SB_LANE1, "sb-lane1") X(SB_LANE2, "sb-lane2") X(SB_LANE3, "sb-lane3")      \
    X(SH_LANE0, "sh-lane0") X(SH_LANE2, "sh-lane2")                                                       \
    X(SB_SIGN, "sb-bit7")            /* a narrow store of a value with its lane's top bit set */        \
    X(SH_SIGN, "sh-bit15")                                                                               \
    X(RAM_LAST, "ram-last-word")     /* a load or store in the RAM's last word */                        \
    X(RAM_CARRY, "ram-offset-carries")   /* the offset carries into rs1's high part */                    \
    X(RAM_BORROW, "ram-offset-borrows")                                                                  \
    X(RAM_WRAP, "ram-address-wraps") /* rs1 in the top page, ea wraps round into the RAM */              \
    X(RAM_END_CARRY, "ram-end-by-carry") /* the word at the RAM's end, reached by a carry: a fault */    \
    X(RAM_PAST, "ram-end-fault")     /* an access at the RAM's end: a fault */                           \
    X(WIN_FIRST, "window-first-word")                                                                    \
    X(WIN_LAST, "window-last-word")                                                                      \
    X(WIN_CARRY, "window-by-carry")  /* rs1 below 0x8000_0000, the offset carries into the window */     \
    X(WIN_PAST, "window-end-fault")  /* 0x8000_0024: a fault */                                         \
    X(WIN_BEFORE, "window-before-fault") /* 0x7FFF_FFFC: a fault */                                     \
    X(WIN_NARROW, "window-narrow-fault") /* a byte or halfword access to the window */                  \
    X(SHIFT_0, "shift-by-0") X(SHIFT_31, "shift-by-31")                                                   \
    X(SHIFT_32UP, "shift-by-32-up")  /* a register shift by 32..2^32-1: by its low five bits */         \
    X(SRA_NEG, "sra-negative")                                                                           \
    X(DIV_ZERO, "div-by-zero") X(DIVU_ZERO, "divu-by-zero") X(REM_ZERO, "rem-by-zero")                    \
    X(REMU_ZERO, "remu-by-zero") X(DIV_OVERFLOW, "div-int-min-by-minus-1")                                \
    X(REM_OVERFLOW, "rem-int-min-by-minus-1")                                                            \
    X(X0_DEST, "x0-destination")     /* an instruction that writes, with rd x0 */                        \
    X(BYPASS_RS1, "bypass-rs1")      /* rs1 written by the instruction just before */                    \
    X(BYPASS_RS2, "bypass-rs2")                                                                          \
    X(LOAD_USE, "load-then-use")     /* ... and that one a load */                                       \
    X(LONG_USE, "mul-div-then-use")  /* ... a MUL*, DIV* or REM* */                                      \
    X(BEQ_EQ, "beq-equal") X(BEQ_OFF1, "beq-off-by-1") X(BNE_EQ, "bne-equal") X(BNE_OFF1, "bne-off-by-1") \
    X(BLT_EQ, "blt-equal") X(BLT_OFF1, "blt-off-by-1") X(BLT_SIGN, "blt-signs-differ")                    \
    X(BGE_EQ, "bge-equal") X(BGE_OFF1, "bge-off-by-1") X(BGE_SIGN, "bge-signs-differ")                    \
    X(BLTU_EQ, "bltu-equal") X(BLTU_OFF1, "bltu-off-by-1") X(BLTU_SIGN, "bltu-signs-differ")              \
    X(BGEU_EQ, "bgeu-equal") X(BGEU_OFF1, "bgeu-off-by-1") X(BGEU_SIGN, "bgeu-signs-differ")

typedef enum {
#define WM_CORNER_ENUM_(id, s) WM_CORNER_##id,
    WM_CORNERS(WM_CORNER_ENUM_)
#undef WM_CORNER_ENUM_
    WM_NCORNERS
} wm_corner;

typedef struct {
    uint64_t insn[RV_NCLASSES];    /* retired, per instruction (RV_ILLEGAL: none retires) */
    uint64_t hits[WM_NCORNERS];
    uint32_t mem_bytes;            /* the RAM's size, for its edges */
    uint8_t prev_rd;               /* the register the last retired instruction wrote (0: none) */
    uint8_t prev_kind;             /* 0 other, 1 a load, 2 MUL/DIV/REM */
} wm_corners;

void wm_corners_init(wm_corners *cv, uint32_t mem_bytes);
/* An instruction retired; regs[] as it read them (before its own write).
 * For a load, word is the RAM word its address names (for the lanes'
 * corners; ignored for other instructions). */
void wm_corners_retire(wm_corners *cv, uint32_t insn, const uint32_t regs[32], uint32_t word);
/* The run ended on a fault of insn, regs[] as it read them. */
void wm_corners_fault(wm_corners *cv, uint32_t insn, const uint32_t regs[32]);
/* A run ended: the next instruction follows none. */
void wm_corners_end(wm_corners *cv);
const char *wm_corner_name(wm_corner k);
/* Both tables, a few entries a line; false if out failed. */
WM_MUST_USE bool wm_corners_print(const wm_corners *cv, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
