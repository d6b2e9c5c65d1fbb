/* cpi.c: cycles per instruction class on both models of the core (cpi.h). */
#include "core/cpi.h"

#include "core/core_rtl.h"
#include "core/iss.h"
#include "core/rv32_asm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { DATA = 0x3000, MAX_WORDS = WM_CORE_MEM_BYTES / 4 - 0x400 };

typedef enum { K_ALU, K_LOAD, K_STORE, K_BR_NOT, K_BR_TAKEN, K_JAL, K_JALR, K_MUL, K_DIV, K_TX, K_RX, K_N } kind;

static const struct {
    const char *name;
    unsigned contract;
} classes[K_N] = {
    [K_ALU] = {"ALU (addi)", 1},
    [K_LOAD] = {"load from RAM (lw)", 2},
    [K_STORE] = {"store to RAM (sw)", 1},
    [K_BR_NOT] = {"branch not taken (beq)", 1},
    [K_BR_TAKEN] = {"branch taken (beq)", 2},
    [K_JAL] = {"jump (jal)", 2},
    [K_JALR] = {"jump to a register (jalr)", 2},
    [K_MUL] = {"multiply (mul)", 34},
    [K_DIV] = {"divide (div)", 34},
    [K_TX] = {"TX store, room in TX (sw)", 1},
    [K_RX] = {"RX load, RX not empty (lw)", 2},
};

/* Set-up (x5 = DATA, x6 = the register window, x1 = 1, x2 = 7), then n
 * instructions of kind k, then an EXIT store. */
static size_t program(kind k, unsigned n, uint32_t *w)
{
    size_t i = 0;
    i += rv_li(&w[i], 5, DATA);
    w[i++] = rv_lui(6, 0x80000);
    w[i++] = rv_addi(1, 0, 1);
    w[i++] = rv_addi(2, 0, 7);
    for (unsigned r = 0; r < n; r++) {
        switch (k) {
        case K_ALU: w[i++] = rv_addi(3, 3, 1); break;
        case K_LOAD: w[i++] = rv_lw(3, 5, 0); break;
        case K_STORE: w[i++] = rv_sw(1, 5, 0); break;
        case K_BR_NOT: w[i++] = rv_beq(0, 1, 8); break;
        case K_BR_TAKEN: w[i++] = rv_beq(0, 0, 4); break;
        case K_JAL: w[i++] = rv_jal(0, 4); break;
        case K_JALR:
            /* x7 = the next instruction's address, set before the timed ones */
            w[i++] = rv_jalr(0, 7, 0);
            break;
        case K_MUL: w[i++] = rv_mul(3, 1, 2); break;
        case K_DIV: w[i++] = rv_div(3, 2, 1); break;
        case K_TX: w[i++] = rv_sw(1, 6, 0); break;
        case K_RX: w[i++] = rv_lw(3, 6, 4); break;
        case K_N: break;
        }
    }
    w[i++] = rv_sw(0, 6, 0x20);
    return i;
}

/* JALR needs its target in a register: each JALR jumps to x7 + 4 (r + 1),
 * where x7 holds the address of the first timed one; the offset is 12 bits
 * signed, so at most JALR_MAX of them. */
enum { JALR_MAX = 500 };
static size_t program_jalr(unsigned n, uint32_t *w)
{
    size_t i = 0;
    i += rv_li(&w[i], 5, DATA);
    w[i++] = rv_lui(6, 0x80000);
    w[i++] = rv_addi(1, 0, 1);
    w[i++] = rv_addi(2, 0, 7);
    const size_t first = i + 2; /* after the two instructions that set x7 */
    i += rv_li(&w[i], 7, (uint32_t)(4 * first));
    if (i < first) w[i++] = rv_nop();
    for (unsigned r = 0; r < n; r++) w[i++] = rv_jalr(0, 7, (int32_t)(4 * (r + 1)));
    w[i++] = rv_sw(0, 6, 0x20);
    return i;
}

static const wm_core_pe_in datapath = {0, 0x12345678u, 0, 0, 1, 0, 0, 0};

static uint64_t cycles_iss(const uint32_t *w, size_t nw)
{
    uint8_t *mem = calloc(WM_CORE_MEM_BYTES, 1);
    if (!mem) return 0;
    memcpy(mem, w, nw * 4);
    wm_iss c;
    wm_iss_init(&c, mem, WM_CORE_MEM_BYTES);
    wm_core_cycle out;
    while (!wm_iss_halted(&c) && wm_iss_cycle(&c) < 1000000) wm_iss_step(&c, &datapath, &out);
    const uint64_t cycles = wm_iss_cycle(&c);
    free(mem);
    return cycles;
}

static uint64_t cycles_rtl(const uint32_t *w, size_t nw)
{
    wm_core_rtl *c = wm_core_rtl_create();
    if (!c) return 0;
    wm_core_rtl_load(c, 0, w, nw * 4);
    wm_core_cycle out;
    uint64_t cycles = 0;
    while (wm_core_rtl_halt(c).state == WM_CORE_RUNNING && cycles < 1000000) {
        wm_core_rtl_step(c, &datapath, &out);
        cycles++;
    }
    wm_core_rtl_destroy(c);
    return cycles;
}

size_t wm_cpi_measure(unsigned n, wm_cpi_row *rows, size_t max)
{
    if (n > MAX_WORDS - 16) n = MAX_WORDS - 16;
    uint32_t *w = calloc(MAX_WORDS, 4), *w0 = calloc(MAX_WORDS, 4);
    if (!w || !w0) {
        free(w);
        free(w0);
        return 0;
    }
    for (kind k = 0; k < K_N && (size_t)k < max; k++) {
        const unsigned m = k == K_JALR && n > JALR_MAX ? JALR_MAX : n;
        const size_t nw = k == K_JALR ? program_jalr(m, w) : program(k, m, w);
        const size_t nw0 = k == K_JALR ? program_jalr(0, w0) : program(k, 0, w0);
        rows[k].name = classes[k].name;
        rows[k].contract = classes[k].contract;
        rows[k].iss = ((double)cycles_iss(w, nw) - (double)cycles_iss(w0, nw0)) / m;
        rows[k].rtl = ((double)cycles_rtl(w, nw) - (double)cycles_rtl(w0, nw0)) / m;
    }
    free(w);
    free(w0);
    return K_N;
}
