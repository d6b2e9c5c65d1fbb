/* cmd_rows.c: `wavemesh rows FILE`, the seed's test.rc: each row runs a layout
 * with its settings and passes when every kernel returned, every value its
 * `expect` lines state holds and, for the prefix-sum kernels, the results
 * equal the reference loop of scan_check.h.
 *
 * A rows file has `layout PATH` lines (relative to the rows file; each holds
 * for the rows after it), `row NAME [PARAM=VALUE]...` lines and, after a
 * row, `expect INSTANCE.EXPORT=VALUE...` lines and at most one `expect
 * ENDING` line (run/ending.h). The whole file is read and checked before
 * the first row runs, the names of its expect lines against the layouts. */
#include "cli/commands.h"
#include "mpi/partition.h"
#include "core/lines.h"
#include "core/xalloc.h"
#include "run/exact.h"
#include "run/runner.h"
#include "run/layout.h"
#include "waves/waves.h"
#include "run/scan_check.h"
#include "waves/interrupt.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

enum { MAX_SETTINGS = WM_MAX_SETTINGS, MAX_BACKENDS = 4, MAX_EXPECTS = 256, ROW_NAME_MAX = 128 };

static const char about[] =
    "Runs each row of FILE (a `layout PATH` line, then `row NAME PARAM=VALUE...`\n"
    "lines, each optionally followed by `expect INSTANCE.EXPORT=VALUE...` lines)\n"
    "on each backend given (default rtl) in each PE mode given (default native:\n"
    "kernels as host coroutines timed by sw/mp.h's cost model; core: their\n"
    "firmware on each tile's RV32IM core, `make firmware`). A row passes when\n"
    "every kernel returned, every message reached a kernel that read it, every\n"
    "expected export has its value and, when leaf l0 has a VAL parameter and\n"
    "exports excl (the prefix-sum kernels), the results equal the reference\n"
    "loop. A run that ends in a deadlock, a stall, a firmware fault, the cycle\n"
    "limit or with a message left unread fails its row with the report `run`\n"
    "prints, unless the row (an `expect ENDING` line: deadlock, stall, fault,\n"
    "cycle-limit, undelivered) or its layout says it is meant to end that way;\n"
    "then any other ending fails it. Values are 32-bit words: a row whose\n"
    "exact result (the scans', the all-reduce's) does not fit the word it\n"
    "exports fails, unless an `expect` line states the wrapped word.\n"
    "One line per row, backend and mode:\n"
    "  SUITE : m:ss.cc PASS NAME [ PARAM=VALUE... BACKEND=rtl ]     (native)\n"
    "  SUITE : m:ss.cc PASS NAME [ PARAM=VALUE... BACKEND=rtl PE=core ]\n"
    "Under --gdb, a row GDB changed (wrote memory or registers, or held cores\n"
    "at a breakpoint while it ran others) is MODIFIED, not PASS or FAIL (the\n"
    "line under it says what GDB changed), unless --gdb-writes-ok; GDB's kill\n"
    "ends its own row only.\n"
    "SUITE is the name of the directory holding FILE. Exits 0 only when every row\n"
    "passed; a malformed line, or an `expect` naming an instance or an export\n"
    "the row's layout does not have, is reported with FILE:LINE before any row\n"
    "runs.\n"
    "With --trace FILE.fst (or .vcd) each row on each backend is dumped to\n"
    "FILE-ROW-BACKEND.fst (FILE-ROW-BACKEND-core.fst on cores), with its save\n"
    "file next to it (docs/waves.md).\n\n"
    "Started by mpirun or srun as one of several ranks, each row's mesh is split\n"
    "into a block of tiles a rank; rank 0 prints what one process prints\n"
    "(docs/distributed.md).\n";

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The directory name holding path, e.g. "collectives" for sw/collectives/test.rows. */
static void suite_of(const char *path, char *buf, size_t size, char *dir, size_t dirsize)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    snprintf(dir, dirsize, "%.*s", (int)dlen, slash ? path : ".");
    if (!slash) dir[0] = '.', dir[1] = '\0';
    const char *base = strrchr(dir, '/');
    snprintf(buf, size, "%s", base ? base + 1 : dir);
    if (!strcmp(buf, ".")) snprintf(buf, size, "rows");
}

typedef struct {
    const char *suite;
    const char *rows_path;
    bool cycles;
    unsigned long long max_cycles;
    wm_trace_spec trace; /* path NULL: no dumps */
    wm_pe_mode mode;
    wm_gdb_spec gdb; /* given: each row on the cores waits for GDB */
    unsigned long long jitter;      /* --jitter: the first schedule's seed, 0: none */
    unsigned long long jitter_runs; /* --jitter-runs: schedules per row, seeds jitter, jitter + 1, ... */
    wm_mpi_job job; /* ops set: one rank of several, each row's mesh partitioned over them (docs/distributed.md) */
} row_ctx;

/* One `expect` value: instance.name = value. */
typedef struct {
    char instance[64];
    char name[64];
    int64_t value;
    unsigned line;
} row_expect;

/* One row of the file, read before anything runs. */
typedef struct {
    const char *layout_path; /* the path of the `layout` line before it, owned by its rows_file */
    unsigned line;
    char **tok;           /* "row", NAME, settings...: the pointers and their text in one block, owned */
    size_t ntok;
    row_expect *expects;  /* nexpects of them, room for cap_expects */
    size_t nexpects, cap_expects;
    unsigned ending_line; /* an `expect ENDING` line's, 0: none (the layout's own, if any, holds) */
    wm_ending ending;
} row_spec;

/* "inst.name=VALUE" into *e; false if malformed. */
static bool parse_expect(const char *text, row_expect *e)
{
    const char *dot = strchr(text, '.'), *eq = strchr(text, '=');
    if (!dot || !eq || dot > eq || dot == text || eq == dot + 1 || !eq[1]) return false;
    if ((size_t)(dot - text) >= sizeof e->instance || (size_t)(eq - dot - 1) >= sizeof e->name) return false;
    snprintf(e->instance, sizeof e->instance, "%.*s", (int)(dot - text), text);
    snprintf(e->name, sizeof e->name, "%.*s", (int)(eq - dot - 1), dot + 1);
    char *end;
    errno = 0;
    e->value = strtoll(eq + 1, &end, wm_int_base(eq + 1));
    return !*end && errno == 0;
}

/* The values a row's `expect` lines state; returns how many were wrong. */
static size_t check_expects(const row_spec *rs, const wm_sched *s, FILE *report)
{
    size_t wrong = 0;
    for (size_t i = 0; i < rs->nexpects; i++) {
        const row_expect *e = &rs->expects[i];
        int64_t got;
        if (!wm_sched_result(s, e->instance, e->name, &got)) {
            if (report) fprintf(report, "  %s.%s missing, expected %lld\n", e->instance, e->name, (long long)e->value);
            wrong++;
        } else if (got != e->value) {
            if (report)
                fprintf(report, "  %s.%s = %lld, expected %lld\n", e->instance, e->name, (long long)got,
                        (long long)e->value);
            wrong++;
        }
    }
    return wrong;
}

/* A wrapped export is excused when an `expect` line states its word. */
static bool expected_on_purpose(void *ctx, const char *instance, const char *name, int64_t word)
{
    const row_spec *rs = ctx;
    for (size_t i = 0; i < rs->nexpects; i++)
        if (!strcmp(rs->expects[i].instance, instance) && !strcmp(rs->expects[i].name, name) &&
            rs->expects[i].value == word)
            return true;
    return false;
}

/* The prefix-sum reference applies to a layout whose leaf l0 has a VAL
 * parameter and a kernel that exports excl. */
static bool has_scan_leaves(const wm_layout *l)
{
    const wm_instance *in = wm_layout_find(l, "l0");
    int64_t v;
    if (!in || !wm_instance_param(in, "VAL", &v) || !in->kernel->exports) return false;
    for (const char *const *e = in->kernel->exports; *e; e++)
        if (!strcmp(*e, "excl")) return true;
    return false;
}

/* What a row on one backend comes to: MODIFIED when GDB changed it (wrote
 * memory or registers, held cores) (unless --gdb-writes-ok), whatever it
 * computed. */
typedef enum { ROW_PASS, ROW_FAIL, ROW_MODIFIED } row_verdict;
static const char *const verdict_word[] = {"PASS", "FAIL", "MODIFIED"};

/* One run of a row on one backend under schedule jitter (0: none); its
 * exports, as `instance.symbol = value` lines, into exports (exports_size
 * bytes). */
static row_verdict run_row(const row_ctx *c, const row_spec *rs, const wm_fabric_ops *ops, uint64_t jitter,
                           char *exports, size_t exports_size)
{
    const char *name = rs->tok[1];
    char **settings_text = (char **)rs->tok + 2;
    const size_t n = rs->ntok - 2;
    wm_setting settings[MAX_SETTINGS];
    char copies[MAX_SETTINGS][128], origin[2100];
    snprintf(origin, sizeof origin, "%s:%u", c->rows_path, rs->line);
    for (size_t i = 0; i < n; i++) {
        snprintf(copies[i], sizeof copies[i], "%s", settings_text[i]);
        if (!wm_setting_parse(copies[i], &settings[i])) {
            fprintf(stderr, "%s:%u: '%s' is not PARAM=INTEGER\n", c->rows_path, rs->line, settings_text[i]);
            return ROW_FAIL;
        }
        settings[i].origin = origin;
    }
    const double t0 = now_seconds();
    char detail[8192] = "";
    FILE *report = fmemopen(detail, sizeof detail - 1, "w");
    bool pass = false;
    wm_layout *layout = wm_layout_load(rs->layout_path, settings, n, report ? report : stderr);
    wm_runner *r = NULL;
    wm_partition *part = NULL;
    if (layout && c->trace.path) {
        /* FILE.fst -> FILE-ROW-BACKEND.fst */
        char dump[4096];
        const size_t stem = strlen(c->trace.path) - 4;
        snprintf(dump, sizeof dump, "%.*s-%s-%s%s%s", (int)stem, c->trace.path, name, ops->name,
                 c->mode == WM_PE_CORE ? "-core" : "", c->trace.path + stem);
        wm_trace_spec spec = c->trace;
        spec.path = dump;
        r = wm_runner_create_mode(ops, layout, &spec, c->mode);
    } else if (layout && c->job.ops) {
        char err[600];
        part = wm_partition_create(&c->job, "rows", wm_layout_width(layout), wm_layout_height(layout), err,
                                   sizeof err);
        if (!part) fprintf(report ? report : stderr, "  %s\n", err);
        else r = wm_runner_create_banded(ops, layout, c->mode, part, NULL);
    } else if (layout) {
        r = wm_runner_create_mode(ops, layout, NULL, c->mode);
    }
    char why[300];
    if (r && jitter && !wm_sched_set_jitter(wm_runner_sched(r), jitter, why, sizeof why)) {
        fprintf(report ? report : stderr, "  --jitter %" PRIu64 ": %s\n", jitter, why);
        wm_runner_destroy(r);
        r = NULL;
    }
    wm_gdb_spec no_gdb = {0};
    wm_run_result res;
    char modified[1024] = "";
    /* on the cores, each row and backend waits for a GDB of its own */
    if (r && wm_run_gdb("rows", c->mode == WM_PE_CORE ? &c->gdb : &no_gdb, r, c->max_cycles, &res, modified,
                        sizeof modified)) {
        /* The run itself first: it is judged whatever its exports say. */
        FILE *to = report ? report : stderr;
        const wm_ending expected = rs->ending_line ? rs->ending : wm_layout_expected(layout);
        const wm_ending got = wm_sched_ending(wm_runner_sched(r), res, to);
        if (got != expected && expected != WM_END_RETURNED) {
            if (got == WM_END_RETURNED)
                fprintf(to, "  every kernel returned at cycle %" PRIu64 ", but the row expects the run to end with %s (`expect %s`)\n",
                        wm_sched_cycle(wm_runner_sched(r)), wm_ending_phrase(expected), wm_ending_word(expected));
            else
                fprintf(to, "  the row expects the run to end with %s (`expect %s`), not with %s\n", wm_ending_phrase(expected),
                        wm_ending_word(expected), wm_ending_phrase(got));
        }
        size_t wrong = check_expects(rs, wm_runner_sched(r), report);
        if (has_scan_leaves(layout)) wrong += wm_scan_check(layout, wm_runner_sched(r), report);
        wm_exact *exact = wm_exact_create(layout);
        wrong += wm_exact_report_wraps(exact, wm_runner_sched(r), "  ", expected_on_purpose, (void *)rs,
                                       report ? report : stderr);
        wm_exact_destroy(exact);
        pass = got == expected && wrong == 0;
        if (modified[0])
            fprintf(to, "  %s%s\n", modified,
                    c->gdb.writes_ok ? "" : " (--gdb-writes-ok judges the row as it ran)");
        FILE *ex = fmemopen(exports, exports_size - 1, "w");
        if (ex) {
            wm_runner_print_results(r, ex);
            fclose(ex);
        }
    }
    const row_verdict v = modified[0] && !c->gdb.writes_ok ? ROW_MODIFIED : pass ? ROW_PASS : ROW_FAIL;
    if (report) fclose(report);
    const double secs = now_seconds() - t0;
    const int minutes = (int)(secs / 60);
    printf("%s : %d:%05.2f %s %s [", c->suite, minutes, secs - 60.0 * minutes, verdict_word[v], name);
    for (size_t i = 0; i < n; i++) printf(" %s", settings_text[i]);
    printf(" BACKEND=%s%s", ops->name, c->mode == WM_PE_CORE ? " PE=core" : "");
    if (jitter) printf(" JITTER=%" PRIu64, jitter);
    printf(" ]\n");
    if (v != ROW_PASS || modified[0]) fputs(detail, stdout);
    if (r && c->cycles) {
        /* the leaves' table where there are leaves, else each kernel's end */
        if (wm_runner_leaf_cycles(r, NULL, NULL, 0)) wm_runner_print_cycles(r, name, stdout);
        else wm_runner_print_ends(r, name, stdout);
    }
    fflush(stdout);
    wm_runner_destroy(r);
    wm_partition_destroy(part);
    wm_layout_destroy(layout);
    return v;
}

/* Drop the lines of a leaf's timestamps (t0, t1: cycles, which a schedule
 * moves by design) from exports, so what is left is the values. */
static void drop_timestamps(char *exports)
{
    char *out = exports;
    for (char *line = exports; *line;) {
        char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        if (!strstr(line, ".t0 = ") && !strstr(line, ".t1 = ")) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = 0;
}

/* A row under each schedule --jitter and --jitter-runs ask for (one run
 * without them): it fails when a run fails or its exports differ from the
 * first schedule's, with the command that reproduces the differing one. */
static row_verdict run_row_schedules(const row_ctx *c, const row_spec *rs, const wm_fabric_ops *ops)
{
    static char first[16384], exports[16384];
    const unsigned long long runs = c->jitter_runs ? c->jitter_runs : 1;
    row_verdict pass = ROW_PASS;
    for (unsigned long long k = 0; k < runs && !wm_interrupt_signal(); k++) {
        const uint64_t seed = c->jitter || c->jitter_runs ? (c->jitter ? c->jitter : 1) + k : 0;
        exports[0] = 0;
        const row_verdict v = run_row(c, rs, ops, seed, k ? exports : first, sizeof exports);
        if (v != ROW_PASS) {
            if (seed)
                printf("  reproduce: wavemesh rows %s --backend %s --pe %s --jitter %" PRIu64 "\n", c->rows_path, ops->name,
                       c->mode == WM_PE_CORE ? "core" : "native", seed);
            pass = v;
            break;
        }
        drop_timestamps(k ? exports : first);
        if (k && strcmp(first, exports)) {
            printf("  the exports under JITTER=%" PRIu64 " differ from those under JITTER=%" PRIu64
                   "; reproduce: wavemesh rows %s --backend %s --pe %s --jitter %" PRIu64 "\n",
                   seed, (uint64_t)(seed - k), c->rows_path, ops->name, c->mode == WM_PE_CORE ? "core" : "native", seed);
            pass = ROW_FAIL;
        }
        fflush(stdout);
        if (pass != ROW_PASS) break;
    }
    return pass;
}

/* text with each byte that is not printable as \xNN, for a message. */
static void show(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && n + 5 < size; c++)
        n += (size_t)snprintf(out + n, size - n, isprint(*c) ? "%c" : "\\x%02x", *c);
    out[n] = '\0';
}

/* A row name: a word that is safe in a file name. */
static bool row_name_ok(const char *name)
{
    if (!isalnum((unsigned char)name[0]) && name[0] != '_') return false;
    size_t n = 0;
    for (; name[n]; n++)
        if (!isalnum((unsigned char)name[n]) && !strchr("_-.", name[n])) return false;
    return n <= ROW_NAME_MAX;
}

/* Whether kernel k exports name. */
static bool kernel_exports(const wm_kernel *k, const char *name)
{
    for (const char *const *e = k->exports; e && *e; e++)
        if (!strcmp(*e, name)) return true;
    return false;
}

/* Each `expect INSTANCE.EXPORT` of row rs names an instance of its layout
 * (with the row's settings: they may select another placement) whose
 * kernel exports that name; returns the number of lines that do not, each
 * reported with path:line. A layout that does not load is left to the
 * row's run, which reports it as the row's failure. */
static unsigned check_expect_names(const row_spec *rs, const char *path)
{
    if (!rs->nexpects) return 0;
    wm_setting settings[MAX_SETTINGS];
    char copies[MAX_SETTINGS][128];
    for (size_t k = 2; k < rs->ntok; k++) {
        snprintf(copies[k - 2], sizeof copies[k - 2], "%s", rs->tok[k]);
        if (!wm_setting_parse(copies[k - 2], &settings[k - 2])) return 0; /* reported already */
    }
    char *text = NULL;
    size_t size = 0;
    FILE *quiet = open_memstream(&text, &size);
    if (!quiet) return 0;
    wm_layout *l = wm_layout_load(rs->layout_path, settings, rs->ntok - 2, quiet);
    fclose(quiet);
    free(text);
    if (!l) return 0;
    unsigned errors = 0;
    for (size_t i = 0; i < rs->nexpects; i++) {
        const row_expect *e = &rs->expects[i];
        const wm_instance *in = wm_layout_find(l, e->instance);
        if (!in) {
            fprintf(stderr, "%s:%u: row %s: %s has no instance %s\n", path, e->line, rs->tok[1], rs->layout_path,
                    e->instance);
            errors++;
        } else if (!kernel_exports(in->kernel, e->name)) {
            fprintf(stderr, "%s:%u: row %s: instance %s [%s] exports no %s (it exports:", path, e->line, rs->tok[1],
                    e->instance, in->kernel->name, e->name);
            for (const char *const *x = in->kernel->exports; x && *x; x++) fprintf(stderr, " %s", *x);
            if (!in->kernel->exports || !in->kernel->exports[0]) fprintf(stderr, " nothing");
            fprintf(stderr, ")\n");
            errors++;
        }
    }
    wm_layout_destroy(l);
    return errors;
}

/* A rows file read: its rows, and the paths of its `layout` lines, which
 * the rows point at. */
typedef struct {
    row_spec *rows;
    size_t nrows, cap;
    char **layouts;
    size_t nlayouts;
    size_t *by_name; /* an open-addressing set of row indices + 1 (0: free) by name, nslots a power of two */
    size_t nslots;
    bool unopened; /* the file could not be opened: exit 1, as for a layout */
} rows_file;

static size_t name_hash(const char *s)
{
    size_t h = 14695981039346656037u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The row of rf named name, or NULL; with add, row i takes the name when
 * none has it. Linear in the name: each row's check costs the same however
 * many came before it. */
static const row_spec *row_named(rows_file *rf, const char *name, size_t add_index, bool add)
{
    if (add && 2 * (rf->nrows + 1) > rf->nslots) {
        const size_t nslots = rf->nslots ? 2 * rf->nslots : 64;
        size_t *slots = wm_xcalloc(nslots, sizeof *slots);
        for (size_t k = 0; k < rf->nslots; k++)
            if (rf->by_name[k]) {
                size_t j = name_hash(rf->rows[rf->by_name[k] - 1].tok[1]) & (nslots - 1);
                while (slots[j]) j = (j + 1) & (nslots - 1);
                slots[j] = rf->by_name[k];
            }
        free(rf->by_name);
        rf->by_name = slots;
        rf->nslots = nslots;
    }
    if (!rf->nslots) return NULL;
    size_t j = name_hash(name) & (rf->nslots - 1);
    for (; rf->by_name[j]; j = (j + 1) & (rf->nslots - 1))
        if (!strcmp(rf->rows[rf->by_name[j] - 1].tok[1], name)) return &rf->rows[rf->by_name[j] - 1];
    if (add) rf->by_name[j] = add_index + 1;
    return NULL;
}

static void rows_file_free(rows_file *rf)
{
    for (size_t i = 0; i < rf->nrows; i++) {
        free(rf->rows[i].tok);
        free(rf->rows[i].expects);
    }
    for (size_t i = 0; i < rf->nlayouts; i++) free(rf->layouts[i]);
    free(rf->rows);
    free(rf->layouts);
    free(rf->by_name);
    memset(rf, 0, sizeof *rf);
}

/* Reads and checks the whole rows file path (in folder dir) into *rf;
 * returns the number of malformed lines, each reported with path:line (a
 * file that cannot be read, or holds a NUL byte, counts as one). */
static unsigned read_rows(const char *path, const char *dir, rows_file *rf)
{
    memset(rf, 0, sizeof *rf);
    const char *layout_path = NULL;
    unsigned errors = 0;
    char why[1024];
    wm_lines in;
    if (!wm_lines_open(&in, path, why, sizeof why)) {
        fprintf(stderr, "wavemesh rows: %s\n", why);
        rf->unopened = true;
        return 1;
    }
    char *line;
    size_t line_len;
    int got;
    while ((got = wm_lines_next(&in, &line, &line_len, why, sizeof why)) > 0) {
        const unsigned lineno = in.line;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *tok[MAX_SETTINGS + 2], *save = NULL;
        size_t n = 0;
        bool too_many = false;
        for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (n == MAX_SETTINGS + 2) {
                too_many = true;
                break;
            }
            tok[n++] = t;
        }
        if (!n) continue;
        if (too_many) {
            fprintf(stderr, "%s:%u: more than %d settings on one line\n", path, lineno, MAX_SETTINGS);
            errors++;
        } else if (!strcmp(tok[0], "layout") && n == 2) {
            char *joined = wm_xmalloc(strlen(dir) + strlen(tok[1]) + 2);
            if (tok[1][0] == '/') strcpy(joined, tok[1]);
            else sprintf(joined, "%s/%s", dir, tok[1]);
            rf->layouts = wm_xrealloc(rf->layouts, (rf->nlayouts + 1) * sizeof *rf->layouts);
            rf->layouts[rf->nlayouts++] = joined;
            layout_path = joined;
        } else if (!strcmp(tok[0], "row") && n >= 2) {
            if (!layout_path) {
                fprintf(stderr, "%s:%u: a row before any `layout PATH` line\n", path, lineno);
                errors++;
                continue;
            }
            /* The name is part of the row's dump file names, and a row's
             * dumps must not be another's: checked here, once. */
            if (!row_name_ok(tok[1])) {
                char shown[4 * ROW_NAME_MAX + 8];
                show(tok[1], shown, sizeof shown);
                fprintf(stderr,
                        "%s:%u: '%s' is not a row name (at most %d letters, digits, '_', '-' or '.', the first a "
                        "letter, digit or '_': it names the row's dump files)\n",
                        path, lineno, shown, ROW_NAME_MAX);
                errors++;
            }
            const row_spec *twin = row_named(rf, tok[1], rf->nrows, true);
            if (twin) {
                fprintf(stderr, "%s:%u: row %s is already defined at line %u\n", path, lineno, tok[1], twin->line);
                errors++;
            }
            for (size_t k = 2; k < n; k++) {
                char copy[128];
                wm_setting st;
                snprintf(copy, sizeof copy, "%s", tok[k]);
                if (strlen(tok[k]) >= sizeof copy || !wm_setting_parse(copy, &st)) {
                    fprintf(stderr, "%s:%u: '%s' is not PARAM=INTEGER\n", path, lineno, tok[k]);
                    errors++;
                }
            }
            if (rf->nrows == rf->cap) {
                rf->cap = rf->cap ? 2 * rf->cap : 16;
                rf->rows = wm_xrealloc(rf->rows, rf->cap * sizeof *rf->rows);
            }
            row_spec *rs = &rf->rows[rf->nrows++];
            memset(rs, 0, sizeof *rs);
            rs->layout_path = layout_path;
            rs->line = lineno;
            size_t len = 0;
            for (size_t k = 0; k < n; k++) len += strlen(tok[k]) + 1;
            rs->tok = wm_xmalloc(n * sizeof *rs->tok + len);
            char *p = (char *)(rs->tok + n);
            for (size_t k = 0; k < n; k++) {
                rs->tok[k] = p;
                p += sprintf(p, "%s", tok[k]) + 1;
            }
            rs->ntok = n;
        } else if (!strcmp(tok[0], "expect") && n >= 2) {
            if (!rf->nrows) {
                fprintf(stderr, "%s:%u: an `expect` line before any `row` line\n", path, lineno);
                errors++;
                continue;
            }
            row_spec *rs = &rf->rows[rf->nrows - 1];
            wm_ending ending;
            if (n == 2 && !strchr(tok[1], '=') && wm_ending_parse(tok[1], &ending)) {
                if (rs->ending_line) {
                    fprintf(stderr, "%s:%u: a second `expect ENDING` line for row %s (the first is line %u)\n", path,
                            lineno, rs->tok[1], rs->ending_line);
                    errors++;
                }
                rs->ending = ending;
                rs->ending_line = lineno;
                continue;
            }
            for (size_t k = 1; k < n; k++) {
                row_expect e;
                if (!parse_expect(tok[k], &e)) {
                    fprintf(stderr, "%s:%u: '%s' is not INSTANCE.EXPORT=INTEGER (or an ending: %s)\n", path,
                            lineno, tok[k], wm_ending_words());
                    errors++;
                    continue;
                }
                if (rs->nexpects == MAX_EXPECTS) {
                    fprintf(stderr, "%s:%u: more than %d expected values for row %s\n", path, lineno, MAX_EXPECTS,
                            rs->tok[1]);
                    errors++;
                    break;
                }
                if (rs->nexpects == rs->cap_expects) {
                    rs->cap_expects = rs->cap_expects ? 2 * rs->cap_expects : 4;
                    rs->expects = wm_xrealloc(rs->expects, rs->cap_expects * sizeof *rs->expects);
                }
                e.line = lineno;
                rs->expects[rs->nexpects++] = e;
            }
        } else {
            fprintf(stderr, "%s:%u: expected `layout PATH`, `row NAME [PARAM=VALUE]...`, "
                            "`expect INSTANCE.EXPORT=VALUE...` or `expect ENDING`\n",
                    path, lineno);
            errors++;
        }
    }
    wm_lines_close(&in);
    if (got < 0) {
        fprintf(stderr, "wavemesh rows: %s\n", why);
        errors++;
    }
    /* Then what only the layouts can say: the names the expect lines use. */
    if (!errors)
        for (size_t i = 0; i < rf->nrows; i++) errors += check_expect_names(&rf->rows[i], path);
    return errors;
}

int wm_cmd_rows(int argc, char **argv)
{
    const char *path = NULL, *backends[MAX_BACKENDS], *modes[2];
    size_t nbackends = 0, nmodes = 0;
    row_ctx c = {0};
    c.max_cycles = WM_MAX_CYCLES_DEFAULT;
    c.trace = wm_trace_spec_default();
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("FILE", &path, true),
        {"--backend", NULL, WM_OPT_CHOICE, .to.word = backends, .words = wm_backend_words, .max_count = MAX_BACKENDS,
         .count = &nbackends, .help = "a fabric model to run each row on (default rtl)"},
        {"--pe", NULL, WM_OPT_CHOICE, .to.word = modes, .words = wm_pe_words, .max_count = 2, .count = &nmodes,
         .help = "a PE mode to run each row in (default native)"},
        WM_OPT_FLAG_ROW("--cycles", &c.cycles,
                        "add a cycles table under each line: the leaves' (t1 - t0), else each kernel's end"),
        WM_OPT_MAX_CYCLES_ROW(&c.max_cycles),
        WM_OPT_TRACE_ROWS(&c.trace),
        WM_OPT_U64_ROW("--jitter", "SEED", &c.jitter, 1, UINT64_MAX,
                       "perturb the timing: delay each kernel's start, stall its pushes and pops (docs/kernels.md)"),
        WM_OPT_U64_ROW("--jitter-runs", "N", &c.jitter_runs, 1, 100000,
                       "run each row under N schedules, seeds SEED, SEED+1, ... (SEED 1 by default); a row fails "
                       "whose exports differ between them"),
        WM_OPT_GDB_ROWS(&c.gdb),
    };
    const wm_opts opts = WM_OPTS("rows", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    if (!wm_trace_options_check("rows", &c.trace)) return 2;
    bool core_given = false;
    for (size_t m = 0; m < nmodes; m++) core_given = core_given || !strcmp(modes[m], "core");
    if (!wm_gdb_options_check("rows", &c.gdb, core_given)) return 2;
    if (!nbackends) backends[nbackends++] = "rtl";
    if (!nmodes) modes[nmodes++] = "native";
    if (!wm_jitter_options_check("rows", c.jitter || c.jitter_runs, &c.gdb, core_given, backends, nbackends))
        return 2;
    if (wm_partition_wanted()) {
        if (c.trace.path || c.gdb.given) {
            fprintf(stderr, "wavemesh rows: %s is for rows run in one process: under mpirun each rank holds one "
                            "block of each row's mesh (docs/distributed.md)\n", c.trace.path ? "--trace" : "--gdb");
            return 2;
        }
        char err[600];
        if (!wm_mpi_open(&c.job, err, sizeof err)) {
            fprintf(stderr, "wavemesh rows: %s\n", err);
            return 1;
        }
        /* every rank runs every row alike; rank 0 prints what one process prints */
        if (c.job.ops && c.job.rank != 0) {
            /* standard output is main.c's writer onto descriptor 1: the descriptor goes to /dev/null */
            const int null = open("/dev/null", O_WRONLY);
            if (null < 0 || dup2(null, STDOUT_FILENO) < 0) {
                fprintf(stderr, "wavemesh rows: rank %d: /dev/null: %s\n", c.job.rank, strerror(errno));
                wm_mpi_close(&c.job);
                return 1;
            }
            close(null);
        }
    }
    char suite[128], dir[1024];
    suite_of(path, suite, sizeof suite, dir, sizeof dir);
    c.suite = suite;
    c.rows_path = path;
    /* Read and check the whole file first: a malformed line anywhere stops
     * the command before any row runs. */
    rows_file rf;
    /* every rank reads the file alike: what is wrong with it, rank 0 says */
    int said = -1;
    if (c.job.ops && c.job.rank != 0) {
        const int null = open("/dev/null", O_WRONLY);
        fflush(stderr);
        said = dup(STDERR_FILENO);
        if (null >= 0 && said >= 0) dup2(null, STDERR_FILENO);
        if (null >= 0) close(null);
    }
    const unsigned errors = read_rows(path, dir, &rf);
    if (said >= 0) {
        fflush(stderr);
        dup2(said, STDERR_FILENO);
        close(said);
    }
    row_spec *const rows = rf.rows;
    const size_t nrows = rf.nrows;
    unsigned failed = 0, ran = 0;
    if (!errors && !nrows && (!c.job.ops || c.job.rank == 0)) fprintf(stderr, "%s: no rows\n", path);
    for (size_t i = 0; !errors && i < nrows && !wm_interrupt_signal(); i++) {
        for (size_t m = 0; m < nmodes && !wm_interrupt_signal(); m++) {
            c.mode = wm_pe_mode_of(modes[m]);
            for (size_t b = 0; b < nbackends && !wm_interrupt_signal(); b++) {
                ran++;
                if (run_row_schedules(&c, &rows[i], wm_fabric_backend(backends[b])) != ROW_PASS) failed++;
                /* A failed RTL assertion, or GDB's kill, ends its row
                 * (which says so) and no other. */
                wm_interrupt_clear_assertion();
                wm_interrupt_clear_failure();
            }
        }
        /* After a signal, the row that was running says where it stopped;
         * the rest are not started. */
    }
    const bool unopened = rf.unopened;
    rows_file_free(&rf);
    const int outcome = errors ? (unopened ? 1 : 2) : !ran ? 1 : failed ? 1 : 0;
    const int agreed = wm_mpi_exit_status(&c.job, outcome);
    fflush(stdout);
    wm_mpi_close(&c.job);
    return agreed;
}
