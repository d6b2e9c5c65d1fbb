/* commands.h: the subcommands of the wavemesh command line.
 *
 * Each subcommand is one function in its own csim/cmd_*.c, taking the
 * arguments after its name (argv[0] is the subcommand) and returning the
 * process exit status. Each answers --help. */
#ifndef WM_COMMANDS_H
#define WM_COMMANDS_H

#include <stdbool.h>

typedef struct {
    const char *name;
    int (*main)(int argc, char **argv);
    const char *summary;
} wm_command;

/* Parse the value s of option opt of subcommand cmd as a positive integer
 * into *out; false, with a message naming both, when it is not one. */
bool wm_arg_positive(const char *cmd, const char *opt, const char *s, unsigned long long *out);

/* The table, terminated by a NULL name (csim/cli/commands.c). */
extern const wm_command wm_commands[];

#endif
