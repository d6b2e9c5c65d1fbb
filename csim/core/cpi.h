/* cpi.h: the cycles of each instruction class on the PE core, measured.
 *
 * For each class, a program of N instructions of that class (straight
 * line: each branch or jump lands on the next instruction) is run to its
 * EXIT store on the instruction-set simulator and on the Verilated core,
 * and so is the same program with none; the difference over N is the
 * class's cycles per instruction. The register window answers as a PE
 * datapath with room in TX and a wavelet always in RX, so TX stores and RX
 * loads never stall: their figures are the stall-free ones of docs/core.md. */
#ifndef WM_CPI_H
#define WM_CPI_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name;      /* "ALU (addi)", ... */
    unsigned contract;     /* cycles per instruction docs/core.md gives */
    double iss, rtl;       /* measured on each model */
} wm_cpi_row;

/* Measures every class with n instructions each; fills at most max rows
 * and returns how many classes there are. */
size_t wm_cpi_measure(unsigned n, wm_cpi_row *rows, size_t max);

#endif
