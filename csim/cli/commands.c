/* commands.c: the subcommand table, one line per subcommand, and the
 * option rows several commands share. */
#include "cli/commands.h"
#include "debug/gdb_server.h"
#include "debug/rsp.h"
#include "run/runner.h"

#include <netdb.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

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
int wm_cmd_profile(int argc, char **argv);

const wm_command wm_commands[] = {
    {"selftest", wm_cmd_selftest, "send one message across each backend and print its trace"},
    {"traffic", wm_cmd_traffic, "synthetic traffic: latency, throughput and simulation speed"},
    {"run", wm_cmd_run, "run the kernels of a layout and print their results"},
    {"rows", wm_cmd_rows, "run a rows file (the seed's test.rc) and print PASS/FAIL lines"},
    {"tree", wm_cmd_tree, "write a layout for the tree collectives over P leaves"},
    {"regress", wm_cmd_regress, "lockstep regression: the sw backend against the rtl backend, first divergence"},
    {"gs", wm_cmd_gs, "one gather-scatter gs_op: pairwise, crystal router or crystal plan"},
    {"profile", wm_cmd_profile, "where the cycles of a layout run went: per PE, by function, and the critical path"},
    {"heatmap", wm_cmd_heatmap, "a PNG per phase of a run: the wavelets each link carried, per direction"},
    {"waves", wm_cmd_waves, "write a GTKWave save file grouping a layout's dumps by instance name"},
    {"calibrate", wm_cmd_calibrate, "the native mode's cost model, measured on the PE core (sw/cost_model.h)"},
    {"cpi", wm_cmd_cpi, "the PE core's cycles per instruction class, on the ISS and the RTL"},
    {"wavediff", wm_cmd_wavediff, "compare two dumps (FST or VCD) signal by signal, first difference"},
    {NULL, NULL, NULL},
};

const char *const wm_backend_words[] = {"rtl", "sw", "rtl-mesh", NULL};
const char *const wm_pe_words[] = {"native", "core", NULL};

wm_pe_mode wm_pe_mode_of(const char *word) { return strcmp(word, "core") ? WM_PE_NATIVE : WM_PE_CORE; }

static bool ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

bool wm_trace_path_parse(const char *text, void *spec)
{
    wm_trace_spec *t = spec;
    t->path = text;
    t->format = ends_with(text, ".vcd") ? WM_WAVES_VCD : WM_WAVES_FST;
    return ends_with(text, ".vcd") || ends_with(text, ".fst");
}

/* A decimal number at *p, digits only (no blank or sign), at most max;
 * *p moves past it. */
static bool take_number(const char **p, unsigned long long max, unsigned long long *out)
{
    if (**p < '0' || **p > '9') return false;
    unsigned long long v = 0;
    for (; **p >= '0' && **p <= '9'; (*p)++) {
        const unsigned d = (unsigned)(**p - '0');
        if (v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* The character c at *p, which moves past it. */
static bool take_char(const char **p, char c) { return **p == c && (++*p, true); }

/* --trace-tiles' message gives the range as text. */
_Static_assert(WM_MESH_MAX == 1024, "--trace-tiles says each in 0..1023");

bool wm_trace_tiles_parse(const char *text, void *spec)
{
    wm_trace_spec *t = spec;
    const char *p = text;
    unsigned long long x0, y0, x1, y1;
    const unsigned long long top = WM_MESH_MAX - 1;
    if (!take_number(&p, top, &x0) || !take_char(&p, ',') || !take_number(&p, top, &y0) || !take_char(&p, ':') ||
        !take_number(&p, top, &x1) || !take_char(&p, ',') || !take_number(&p, top, &y1) || *p || x0 > x1 || y0 > y1)
        return false;
    t->x0 = (unsigned)x0;
    t->y0 = (unsigned)y0;
    t->x1 = (unsigned)x1;
    t->y1 = (unsigned)y1;
    t->tiles_given = true;
    return true;
}

bool wm_trace_writes(const char *value, size_t k, char *name, size_t size)
{
    const size_t n = strlen(value);
    if (k == 0) return snprintf(name, size, "%s", value) >= 0;
    if (k > 1 || n < 4) return false;
    return snprintf(name, size, "%.*s.gtkw", (int)(n - 4), value) >= 0;
}

bool wm_trace_window_parse(const char *text, void *spec)
{
    wm_trace_spec *t = spec;
    const char *p = text;
    unsigned long long from, to;
    if (!take_number(&p, UINT64_MAX, &from) || !take_char(&p, ':') || !take_number(&p, UINT64_MAX, &to) || *p ||
        from > to)
        return false;
    t->from = from;
    t->to = to;
    return true;
}

bool wm_trace_options_check(const char *cmd, const wm_trace_spec *spec)
{
    if (spec->path || (!spec->tiles_given && spec->from == 0 && spec->to == UINT64_MAX)) return true;
    fprintf(stderr, "wavemesh %s: %s without --trace FILE: there is no dump to limit\n", cmd,
            spec->tiles_given ? "--trace-tiles" : "--trace-window");
    return false;
}

bool wm_gdb_addr_parse(const char *text, void *spec)
{
    wm_gdb_spec *g = spec;
    const char *colon = strrchr(text, ':');
    if (!colon || colon == text || strlen(text) >= sizeof g->text) return false;
    const char *host = text;
    size_t hlen = (size_t)(colon - text);
    if (host[0] == '[' && hlen >= 2 && host[hlen - 1] == ']') {
        host++;
        hlen -= 2;
    }
    if (!hlen || hlen >= sizeof g->host) return false;
    unsigned long port = 0;
    const char *p = colon + 1;
    if (!*p || strlen(p) > 5) return false;
    for (; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        port = port * 10 + (unsigned long)(*p - '0');
    }
    if (port > 65535) return false;
    for (size_t i = 0; i < hlen; i++)
        if (host[i] <= ' ' || host[i] > '~') return false;
    memcpy(g->host, host, hlen);
    g->host[hlen] = '\0';
    snprintf(g->text, sizeof g->text, "%s", text);
    g->port = (unsigned)port;
    g->given = true;
    return true;
}

bool wm_gdb_options_check(const char *cmd, const wm_gdb_spec *spec, bool core_given)
{
    if (!spec->given && spec->writes_ok) {
        fprintf(stderr, "wavemesh %s: --gdb-writes-ok without --gdb HOST:PORT: there is no GDB to write\n", cmd);
        return false;
    }
    if (!spec->given && spec->any_host) {
        fprintf(stderr, "wavemesh %s: --gdb-any-host without --gdb HOST:PORT\n", cmd);
        return false;
    }
    if (!spec->given) return true;
    if (!core_given) {
        fprintf(stderr, "wavemesh %s: --gdb %s: needs --pe core (GDB debugs the firmware on the cores)\n", cmd,
                spec->text);
        return false;
    }
    /* a host that does not resolve is said so, not called "not loopback" */
    const struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    const int gai = getaddrinfo(spec->host, NULL, &hints, &res);
    if (gai) {
        fprintf(stderr, "wavemesh %s: --gdb %s: cannot resolve %s: %s\n", cmd, spec->text, spec->host,
                gai_strerror(gai));
        return false;
    }
    freeaddrinfo(res);
    if (!spec->any_host && !wm_rsp_host_is_loopback(spec->host)) {
        fprintf(stderr,
                "wavemesh %s: --gdb %s: expected a loopback address (127.0.0.1, ::1, localhost): the protocol has "
                "no authentication, and whoever reaches the port reads and writes the PEs' memory "
                "(--gdb-any-host allows another)\n",
                cmd, spec->text);
        return false;
    }
    return true;
}

bool wm_jitter_options_check(const char *cmd, bool jitter, const wm_gdb_spec *gdb, bool core_given,
                             const char *const *backends, size_t nbackends)
{
    if (!jitter) return true;
    if (gdb->given) {
        fprintf(stderr,
                "wavemesh %s: --jitter with --gdb %s: both hold cores, and each would let go of the other's holds; "
                "debug the run without --jitter\n",
                cmd, gdb->text);
        return false;
    }
    for (size_t b = 0; core_given && b < nbackends; b++) {
        const wm_fabric_ops *ops = wm_fabric_backend(backends[b]);
        if (ops && !ops->core_hold) {
            fprintf(stderr,
                    "wavemesh %s: --jitter with --pe core needs a backend that holds one core at a time (rtl or sw), "
                    "not %s\n",
                    cmd, backends[b]);
            return false;
        }
    }
    return true;
}

bool wm_run_gdb(const char *cmd, const wm_gdb_spec *spec, struct wm_runner *r, uint64_t max_cycles,
                wm_run_result *res, char *modified, size_t modified_size)
{
    if (modified_size) modified[0] = '\0';
    if (!spec->given) {
        *res = wm_runner_run(r, max_cycles);
        return true;
    }
    char err[400];
    wm_gdb_server *g = wm_gdb_server_create(spec->host, spec->port, spec->any_host, stderr, err, sizeof err);
    if (!g || !wm_gdb_server_attach(g, wm_runner_sched(r), err, sizeof err)) {
        fprintf(stderr, "wavemesh %s: --gdb %s: %s\n", cmd, spec->text, err);
        wm_gdb_server_destroy(g);
        return false;
    }
    *res = wm_runner_run(r, max_cycles);
    wm_gdb_server_finish(g, *res);
    (void)wm_gdb_server_changes(g, modified, modified_size);
    wm_gdb_server_destroy(g);
    return true;
}
