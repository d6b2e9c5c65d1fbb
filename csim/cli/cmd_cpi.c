/* cmd_cpi.c: `wavemesh cpi`, the PE core's cycles per instruction class,
 * measured on both of its models against docs/core.md. */
#include "cli/commands.h"
#include "core/cpi.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: wavemesh cpi [--count N]\n"
                 "Runs, for each instruction class of the PE core, N instructions of that class\n"
                 "(default 1000, at most 3000; JALR at most 500) on the instruction-set simulator\n"
                 "and on the Verilated core, and prints the cycles per instruction each measured\n"
                 "next to the figure docs/core.md gives. TX stores find room and RX loads find a\n"
                 "wavelet (no stall). Exits 1 if a model disagrees with the contract.\n");
}

int wm_cmd_cpi(int argc, char **argv)
{
    unsigned long long n = 1000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            if (!wm_arg_positive("cpi", "--count", argv[++i], &n)) return 2;
            if (n > 3000) {
                fprintf(stderr, "wavemesh cpi: --count %llu: at most 3000 (the test bench's 16 KiB RAM)\n", n);
                return 2;
            }
        } else {
            fprintf(stderr, "wavemesh cpi: unknown argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    wm_cpi_row rows[32];
    const size_t k = wm_cpi_measure((unsigned)n, rows, 32);
    printf("| instruction class | docs/core.md | ISS | RTL |\n|---|---:|---:|---:|\n");
    int bad = 0;
    for (size_t i = 0; i < k; i++) {
        printf("| %s | %u | %.2f | %.2f |\n", rows[i].name, rows[i].contract, rows[i].iss, rows[i].rtl);
        if (rows[i].iss != rows[i].contract || rows[i].rtl != rows[i].contract) bad = 1;
    }
    printf("cycles per instruction, %llu instructions of each class\n", n);
    return bad;
}
