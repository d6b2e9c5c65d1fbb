/* commands.c: the subcommand table. One line per subcommand. */
#include "cli/commands.h"
#include "run/layout.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stddef.h>

int wm_cmd_selftest(int argc, char **argv);
int wm_cmd_run(int argc, char **argv);
int wm_cmd_rows(int argc, char **argv);
int wm_cmd_tree(int argc, char **argv);
int wm_cmd_traffic(int argc, char **argv);
int wm_cmd_regress(int argc, char **argv);
int wm_cmd_gs(int argc, char **argv);
int wm_cmd_wavediff(int argc, char **argv);
int wm_cmd_waves(int argc, char **argv);
int wm_cmd_cpi(int argc, char **argv);
int wm_cmd_calibrate(int argc, char **argv);
int wm_cmd_heatmap(int argc, char **argv);

const wm_command wm_commands[] = {
    {"selftest", wm_cmd_selftest, "send one message across each backend and print its trace"},
    {"traffic", wm_cmd_traffic, "synthetic traffic: latency, throughput and simulation speed"},
    {"run", wm_cmd_run, "run the kernels of a layout and print their results"},
    {"rows", wm_cmd_rows, "run a rows file (the seed's test.rc) and print PASS/FAIL lines"},
    {"tree", wm_cmd_tree, "write a layout for the tree collectives over P leaves"},
    {"regress", wm_cmd_regress, "lockstep regression: the sw backend against the rtl backend, first divergence"},
    {"gs", wm_cmd_gs, "one gather-scatter gs_op: pairwise, crystal router or crystal plan"},
    {"heatmap", wm_cmd_heatmap, "a PNG per phase of a run: the wavelets each link carried, per direction"},
    {"waves", wm_cmd_waves, "write a GTKWave save file grouping a layout's dumps by instance name"},
    {"calibrate", wm_cmd_calibrate, "the native mode's cost model, measured on the PE core (sw/cost_model.h)"},
    {"cpi", wm_cmd_cpi, "the PE core's cycles per instruction class, on the ISS and the RTL"},
    {"wavediff", wm_cmd_wavediff, "compare two dumps (FST or VCD) signal by signal, first difference"},
    {NULL, NULL, NULL},
};

/* One integer, the whole of s, that fits its type: digits (decimal, or hex
 * after 0x: wm_int_base, so 010 is ten), after a '-' when signed. Blanks
 * and a '+', which strtoull would take, are refused. */
static bool whole_int(const char *s, bool is_signed, long long *v, unsigned long long *u)
{
    char *end;
    errno = 0;
    const char *digits = is_signed && *s == '-' ? s + 1 : s;
    if (*digits < '0' || *digits > '9') return false;
    if (is_signed) *v = strtoll(s, &end, wm_int_base(s));
    else *u = strtoull(s, &end, wm_int_base(s));
    return !*end && errno != ERANGE;
}

bool wm_arg_int(const char *cmd, const char *opt, const char *s, long long min, long long max, long long *out)
{
    unsigned long long unused;
    if (whole_int(s, true, out, &unused) && *out >= min && *out <= max) return true;
    fprintf(stderr, "wavemesh %s: %s %s: expected an integer in %lld..%lld\n", cmd, opt, s, min, max);
    return false;
}

bool wm_arg_u64(const char *cmd, const char *opt, const char *s, unsigned long long min, unsigned long long max,
                unsigned long long *out)
{
    long long unused;
    if (whole_int(s, false, &unused, out) && *out >= min && *out <= max) return true;
    fprintf(stderr, "wavemesh %s: %s %s: expected an integer in %llu..%llu\n", cmd, opt, s, min, max);
    return false;
}

bool wm_arg_positive(const char *cmd, const char *opt, const char *s, unsigned long long *out)
{
    return wm_arg_u64(cmd, opt, s, 1, ULLONG_MAX, out);
}

bool wm_arg_pair(const char *cmd, const char *opt, const char *s, char sep, long long min, long long max,
                 long long *a, long long *b)
{
    char first[64];
    const char *at = strchr(s, sep);
    unsigned long long unused;
    bool ok = at && (size_t)(at - s) < sizeof first;
    if (ok) {
        memcpy(first, s, (size_t)(at - s));
        first[at - s] = '\0';
        ok = whole_int(first, true, a, &unused) && whole_int(at + 1, true, b, &unused) && *a >= min &&
             *a <= max && *b >= min && *b <= max;
    }
    if (ok) return true;
    fprintf(stderr, "wavemesh %s: %s %s: expected %s, each an integer in %lld..%lld\n", cmd, opt, s, sep == 'x' ? "WxH" : "X,Y", min, max);
    return false;
}

bool wm_arg_real(const char *cmd, const char *opt, const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (*s && !isspace((unsigned char)*s) && end != s && !*end && !errno && *out >= min && *out <= max) return true;
    fprintf(stderr, "wavemesh %s: %s %s: expected a number in %g..%g\n", cmd, opt, s, min, max);
    return false;
}
