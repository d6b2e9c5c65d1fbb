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

/* Every number on a command line goes through these: the value s of
 * option opt of subcommand cmd, an integer in min..max (decimal, or 0x
 * hexadecimal); false after a message naming the command, the option, the
 * value and the range. */
bool wm_arg_int(const char *cmd, const char *opt, const char *s, long long min, long long max, long long *out);
bool wm_arg_u64(const char *cmd, const char *opt, const char *s, unsigned long long min, unsigned long long max,
                unsigned long long *out);
/* A positive integer: 1..2^64-1. */
bool wm_arg_positive(const char *cmd, const char *opt, const char *s, unsigned long long *out);
/* Two integers A<sep>B (e.g. 8x8, 3,4), each in min..max. */
bool wm_arg_pair(const char *cmd, const char *opt, const char *s, char sep, long long min, long long max,
                 long long *a, long long *b);
/* A real number in min..max. */
bool wm_arg_real(const char *cmd, const char *opt, const char *s, double min, double max, double *out);

/* The table, terminated by a NULL name (csim/cli/commands.c). */
extern const wm_command wm_commands[];

#endif
