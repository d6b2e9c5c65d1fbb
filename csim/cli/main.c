/* main.c: the wavemesh command line, a dispatcher over csim/cli/commands.c. */
#include "cli/commands.h"
#include "waves/interrupt.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: wavemesh COMMAND [ARGS...]   (wavemesh COMMAND --help for each)\n\ncommands:\n");
    for (const wm_command *c = wm_commands; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* Ctrl-C or a kill stops a run at its next cycle and keeps its dump
     * (csim/waves/interrupt.h); a failed RTL assertion stops it too. */
    wm_interrupt_install();
    for (const wm_command *c = wm_commands; c->name; c++)
        if (!strcmp(c->name, argv[1])) return wm_interrupt_exit_status(c->main(argc - 1, argv + 1));
    fprintf(stderr, "wavemesh: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
