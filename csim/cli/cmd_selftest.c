/* cmd_selftest.c: `wavemesh selftest` sends one message across a 3x2 mesh
 * on a backend and prints every link event, a quick look at the fabric. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "waves/interrupt.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const port_names[WM_NPORTS] = {"N", "E", "S", "W", "L"};

static void print_event(void *ctx, const wm_link_event *ev)
{
    (void)ctx;
    printf("cycle %4" PRIu64 "  tile (%u,%u) out %s  %08" PRIx32 "\n", ev->cycle, ev->x, ev->y,
           port_names[ev->port], ev->data);
}

int wm_cmd_selftest(int argc, char **argv)
{
    const char *backend = "rtl";
    const wm_option options[] = {
        WM_OPT_CHOICE_ROW("--backend", &backend, wm_backend_words, "the fabric model (default rtl)"),
    };
    const wm_opts opts = WM_OPTS("selftest", options,
                                 "Sends one 2-data-wavelet message from (0,0) to (2,1) of a 3x2 mesh and\n"
                                 "prints each wavelet in each output register, cycle by cycle.\n",
                                 NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    wm_fabric *f = wm_interrupt_fabric_create(ops, 3, 2, false);
    if (!f) return 1;
    ops->set_link_hook(f, print_event, NULL);
    const uint32_t msg[3] = {wm_header(2, 1, 2, 0), 0xdeadbeefu, 0x12345678u};
    unsigned sent = 0, got = 0;
    while (got < 3 && ops->cycle(f) < 100) {
        wm_pe_status rx = ops->pe_status(f, 2, 1);
        if (rx.rx_count) {
            printf("cycle %4" PRIu64 "  PE (2,1) pops %08" PRIx32 "\n", ops->cycle(f), rx.rx_head);
            ops->pe_pop(f, 2, 1);
            got++;
        }
        if (sent < 3 && ops->pe_status(f, 0, 0).tx_count < WM_TX_DEPTH) ops->pe_push(f, 0, 0, msg[sent++]);
        ops->step(f);
    }
    ops->destroy(f);
    return got == 3 ? 0 : 1;
}
