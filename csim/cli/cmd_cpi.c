/* cmd_cpi.c: `wavemesh cpi`, the PE core's cycles per instruction class,
 * measured on both of its models against docs/core.md. */
#include "cli/commands.h"
#include "core/cpi.h"

#include <stdio.h>
#include <string.h>

static const char about[] =
    "Runs, for each instruction class of the PE core, N instructions of that class\n"
    "on the instruction-set simulator and on the Verilated core, and prints the\n"
    "cycles per instruction each measured next to the figure docs/core.md gives.\n"
    "TX stores find room and RX loads find a wavelet (no stall). Exits 1 if a\n"
    "model disagrees with the contract.\n";

int wm_cmd_cpi(int argc, char **argv)
{
    unsigned long long n = 1000;
    const wm_option options[] = {
        WM_OPT_U64_ROW("--count", "N", &n, 1, 3000,
                       "instructions of each class (default 1000; JALR at most 500): at most what the test "
                       "bench's 16 KiB RAM holds"),
    };
    const wm_opts opts = WM_OPTS("cpi", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
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
