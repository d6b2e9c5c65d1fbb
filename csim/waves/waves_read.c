/* waves_read.c: FST (through GTKWave's fstapi) and VCD dumps into memory. */
#include "waves/waves_read.h"

#include "core/lines.h"
#include "wavelet.h"

#include "fstapi.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    wm_change *v;
    size_t n, cap;
} change_list;

struct wm_dump {
    wm_dump_signal *sig;
    size_t nsig, capsig;
    change_list *lists; /* one per distinct source (FST handle, VCD code) */
    size_t nlists;
    uint64_t end;
};

/* false when out of memory, or when t goes back in time (a damaged file:
 * the changes are promised in time order) */
static bool push_change(change_list *l, uint64_t t, uint64_t v)
{
    if (l->n && l->v[l->n - 1].time > t) return false;
    if (l->n && l->v[l->n - 1].time == t) {
        l->v[l->n - 1].value = v; /* the last write at a time wins */
        return true;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        wm_change *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv) return false;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n].time = t;
    l->v[l->n].value = v;
    l->n++;
    return true;
}

/* "name [31:0]" or "name[31:0]" -> "name". */
static char *join_name(const char *scope, const char *name)
{
    size_t n = strcspn(name, " [");
    size_t k = strlen(scope);
    char *s = malloc(k + n + 2);
    if (!s) return NULL;
    memcpy(s, scope, k);
    if (k) s[k++] = '.';
    memcpy(s + k, name, n);
    s[k + n] = '\0';
    return s;
}

static bool add_signal(wm_dump *d, const char *scope, const char *name, unsigned bits, size_t list)
{
    if (d->nsig == d->capsig) {
        size_t cap = d->capsig ? 2 * d->capsig : 64;
        wm_dump_signal *ns = realloc(d->sig, cap * sizeof *ns);
        if (!ns) return false;
        d->sig = ns;
        d->capsig = cap;
    }
    char *full = join_name(scope, name);
    if (!full) return false;
    d->sig[d->nsig++] = (wm_dump_signal){full, bits, list};
    return true;
}

static uint64_t bits_value(const char *s, size_t len)
{
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) v = (v << 1) | (s[i] == '1');
    return v;
}

/* ---------------------------------------------------------------- FST */

typedef struct {
    wm_dump *d;
    bool ok;
} fst_ctx;

static void fst_change(void *user, uint64_t time, fstHandle h, const unsigned char *value)
{
    fst_ctx *c = user;
    if (h == 0 || h > c->d->nlists) return;
    const char *v = (const char *)value;
    if (!push_change(&c->d->lists[h - 1], time, bits_value(v, strlen(v)))) c->ok = false;
    if (time > c->d->end) c->d->end = time;
}

/* GTKWave's FST reader (Debian's copy inside Verilator) loops for ever on
 * some damaged files (a hierarchy cut inside a name: it reads the name
 * until a zero byte, and fgetc gives EOF, not zero, at the end). It runs in
 * a child process (load_fst_isolated) with a limit on its CPU time:
 * READ_SECONDS, plus one a MiB of file, or $WM_FST_READ_SECONDS (a number
 * of seconds, fractions allowed: the fuzzer stops a reader after 0.1 s). */
enum { READ_SECONDS = 5 };

static double read_seconds(const char *path)
{
    const char *env = getenv("WM_FST_READ_SECONDS");
    if (env) {
        char *end;
        const double s = strtod(env, &end);
        if (end != env && *end == '\0' && s >= 0.001 && s <= 86400) return s;
    }
    struct stat st;
    const unsigned long mib = stat(path, &st) == 0 ? (unsigned long)st.st_size >> 20 : 0;
    return READ_SECONDS + (double)(mib > 3600 ? 3600 : mib);
}

/* The CPU-time limit of the reader's child, to the millisecond: a profiling
 * timer (SIGPROF ends the child), and RLIMIT_CPU two seconds later in case
 * the timer's signal still cannot end it (its SIGKILL). A signal mask is
 * inherited through exec: a caller that blocks SIGPROF would otherwise
 * leave only the SIGKILL. */
static void limit_cpu(double seconds)
{
    const long us = (long)(seconds * 1e6);
    const struct itimerval t = {{0, 0}, {us / 1000000, us % 1000000}};
    signal(SIGPROF, SIG_DFL);
    signal(SIGXCPU, SIG_DFL);
    sigset_t timer_signals;
    sigemptyset(&timer_signals);
    sigaddset(&timer_signals, SIGPROF);
    sigaddset(&timer_signals, SIGXCPU);
    sigprocmask(SIG_UNBLOCK, &timer_signals, NULL);
    setitimer(ITIMER_PROF, &t, NULL);
    const rlim_t cpu = (rlim_t)seconds + 2;
    const struct rlimit limit = {cpu, cpu};
    setrlimit(RLIMIT_CPU, &limit);
}

/* GTKWave's FST reader trusts the file's lengths and sizes (it allocates
 * what a block header asks for, and reads past a block's end): before it
 * sees a file, the block structure is checked here. Blocks are a type byte
 * and a big-endian length that counts itself; they must tile the file
 * exactly, the header first; a value-change block's memory for traversal
 * must be what its length can hold unpacked; whole-file gzip wrapping,
 * which our writers never make, is refused. */
enum { FST_HEADER_LEN = 329, FST_UNPACK_RATIO = 4096 };

static uint64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static bool fst_blocks_sound(const char *path, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_size, "%s", strerror(errno));
        return false;
    }
    bool ok = true, geom = false, hier = false;
    for (uint64_t at = 0, n = 0; ok; n++) {
        unsigned char head[1 + 8 + 24];
        const size_t got = fread(head, 1, sizeof head, f);
        if (got == 0 && n > 0) break; /* the end, between two blocks */
        const uint64_t len = got >= 9 ? be64(head + 1) : 0;
        const unsigned type = got ? head[0] : 0u;
        if (got < 9 || len < 8) snprintf(why, why_size, "block %" PRIu64 " at byte %" PRIu64 " is cut short", n, at), ok = false;
        else if (n == 0 && (type != FST_BL_HDR || len != FST_HEADER_LEN))
            snprintf(why, why_size, "it does not begin with an FST header"), ok = false;
        else if (type == FST_BL_ZWRAPPER)
            snprintf(why, why_size, "it is gzip-wrapped as a whole (write it unwrapped)"), ok = false;
        else if (type > FST_BL_VCDATA_DYN_ALIAS2 && type != FST_BL_SKIP)
            snprintf(why, why_size, "block %" PRIu64 " at byte %" PRIu64 " has the unknown type %u", n, at, type), ok = false;
        else if ((type == FST_BL_VCDATA || type == FST_BL_VCDATA_DYN_ALIAS || type == FST_BL_VCDATA_DYN_ALIAS2) &&
                 (got < sizeof head || len < 8 + 24 ||
                  be64(head + 1 + 8 + 16) / FST_UNPACK_RATIO > len || be64(head + 1 + 8 + 16) > (1ull << 32)))
            snprintf(why, why_size, "value-change block %" PRIu64 " at byte %" PRIu64 " is malformed", n, at), ok = false;
        if (!ok) break;
        geom |= type == FST_BL_GEOM;
        hier |= type == FST_BL_HIER || type == FST_BL_HIER_LZ4 || type == FST_BL_HIER_LZ4DUO;
        if (len > UINT64_MAX - at - 1 || fseeko(f, (off_t)(at + 1 + len), SEEK_SET) != 0) {
            snprintf(why, why_size, "block %" PRIu64 " runs past the end", n);
            ok = false;
            break;
        }
        at += 1 + len;
        /* a block may not end past the file's end */
        struct stat st;
        if (fstat(fileno(f), &st) == 0 && at > (uint64_t)st.st_size) {
            snprintf(why, why_size, "block %" PRIu64 " runs past the end", n);
            ok = false;
        }
    }
    fclose(f);
    if (ok && (!geom || !hier)) {
        snprintf(why, why_size, "it has no %s block", geom ? "hierarchy" : "geometry");
        ok = false;
    }
    return ok;
}

static bool load_fst(wm_dump *d, const char *path, char *err, size_t err_size)
{
    char why[200];
    if (!fst_blocks_sound(path, why, sizeof why)) {
        snprintf(err, err_size, "%s is not a readable FST file (%s)", path, why);
        return false;
    }
    void *r = fstReaderOpen(path);
    if (!r) {
        snprintf(err, err_size, "%s is not a readable FST file", path);
        return false;
    }
    d->nlists = fstReaderGetMaxHandle(r);
    d->lists = calloc(d->nlists + 1, sizeof *d->lists);
    char scope[1024] = "";
    size_t depth_len[64] = {0}; /* an $upscope before any $scope ends at the top */
    unsigned depth = 0;
    bool ok = d->lists != NULL;
    struct fstHier *h;
    fstReaderIterateHierRewind(r);
    while (ok && (h = fstReaderIterateHier(r))) {
        if (h->htyp == FST_HT_SCOPE) {
            if (depth < 64) depth_len[depth] = strlen(scope);
            depth++;
            size_t k = strlen(scope);
            snprintf(scope + k, sizeof scope - k, "%s%s", k ? "." : "", h->u.scope.name);
        } else if (h->htyp == FST_HT_UPSCOPE) {
            if (depth) depth--;
            if (depth < 64) scope[depth_len[depth]] = '\0';
        } else if (h->htyp == FST_HT_VAR) {
            ok = h->u.var.handle >= 1 && h->u.var.handle <= d->nlists &&
                 add_signal(d, scope, h->u.var.name, h->u.var.length, h->u.var.handle - 1);
        }
    }
    fst_ctx c = {d, ok};
    if (ok) {
        fstReaderSetFacProcessMaskAll(r);
        fstReaderIterBlocks(r, fst_change, &c, NULL);
        /* The last cycles dumped may change nothing; the file still ends
         * there (as a VCD's last #time does), and so does the dump. */
        const uint64_t end = fstReaderGetEndTime(r);
        if (end > d->end) d->end = end;
    }
    fstReaderClose(r);
    if (!c.ok) snprintf(err, err_size, "%s is not a readable FST file (its times go backwards, or out of memory)", path);
    return c.ok;
}

/* GTKWave's FST reader decodes value changes without bounds checks: a
 * damaged file can make it read past its buffers even when its blocks are
 * sound. It runs in a child process that sends the dump back through a
 * pipe; a child that dies is a file that cannot be read, never a crash of
 * the tool. */
/* A signal without changes has no array (NULL, 0): fwrite and fread must
 * not be given that NULL, even for no byte. */
static bool put(FILE *f, const void *p, size_t n) { return n == 0 || fwrite(p, 1, n, f) == n; }
static bool get(FILE *f, void *p, size_t n) { return n == 0 || fread(p, 1, n, f) == n; }

static bool send_dump(FILE *f, const wm_dump *d)
{
    uint64_t h[3] = {d->nsig, d->nlists, d->end};
    bool ok = put(f, h, sizeof h);
    for (size_t i = 0; ok && i < d->nsig; i++) {
        const wm_dump_signal *s = &d->sig[i];
        uint64_t m[3] = {strlen(s->name), s->bits, s->changes};
        ok = put(f, m, sizeof m) && put(f, s->name, m[0]);
    }
    for (size_t i = 0; ok && i < d->nlists; i++) {
        const uint64_t n = d->lists[i].n;
        ok = put(f, &n, sizeof n) && put(f, d->lists[i].v, n * sizeof *d->lists[i].v);
    }
    return ok;
}

static bool receive_dump(FILE *f, wm_dump *d)
{
    uint64_t h[3];
    if (!get(f, h, sizeof h) || h[0] > (1u << 28) || h[1] > (1u << 28)) return false;
    d->sig = calloc(h[0] + 1, sizeof *d->sig);
    d->lists = calloc(h[1] + 1, sizeof *d->lists);
    if (!d->sig || !d->lists) return false;
    d->capsig = h[0] + 1;
    d->nlists = h[1];
    d->end = h[2];
    for (size_t i = 0; i < h[0]; i++) {
        uint64_t m[3];
        if (!get(f, m, sizeof m) || m[0] > 4096 || m[2] >= h[1]) return false;
        char *name = malloc(m[0] + 1);
        if (!name) return false;
        d->sig[d->nsig++] = (wm_dump_signal){name, (unsigned)m[1], m[2]};
        if (!get(f, name, m[0])) return false;
        name[m[0]] = '\0';
    }
    for (size_t i = 0; i < h[1]; i++) {
        uint64_t n;
        if (!get(f, &n, sizeof n) || n > (1ull << 32)) return false;
        change_list *l = &d->lists[i];
        if (n && !(l->v = malloc(n * sizeof *l->v))) return false;
        l->n = l->cap = n;
        if (!get(f, l->v, n * sizeof *l->v)) return false;
    }
    return true;
}

static void child_exit(void) { _exit(3); }

static bool load_fst_isolated(wm_dump *d, const char *path, char *err, size_t err_size)
{
    char why[200];
    if (!fst_blocks_sound(path, why, sizeof why)) {
        snprintf(err, err_size, "%s is not a readable FST file (%s)", path, why);
        return false;
    }
    int fds[2];
    if (pipe(fds) != 0) return load_fst(d, path, err, err_size);
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return load_fst(d, path, err, err_size);
    }
    if (pid == 0) {
        close(fds[0]);
        /* The FST reader calls exit() on some errors: the child then ends
         * at once, without running its parent's exit handlers. */
        atexit(child_exit);
        limit_cpu(read_seconds(path));
        const int quiet = open("/dev/null", O_WRONLY);
        if (quiet >= 0) dup2(quiet, 2);
        FILE *out = fdopen(fds[1], "wb");
        char text[512] = "";
        const bool ok = load_fst(d, path, text, sizeof text);
        const unsigned char tag = ok;
        const bool sent = out && put(out, &tag, 1) && (ok ? send_dump(out, d) : put(out, text, sizeof text));
        _exit(out && sent && fclose(out) == 0 ? 0 : 1);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "rb");
    unsigned char tag = 0;
    char text[512] = "";
    bool got = in && get(in, &tag, 1);
    if (got && tag) got = receive_dump(in, d);
    else if (got) got = get(in, text, sizeof text);
    if (in) fclose(in);
    else close(fds[0]);
    int status = 0;
    struct rusage used = {0};
    while (wait4(pid, &status, 0, &used) < 0 && errno == EINTR) {}
    const bool exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    /* Ended by a signal after its whole CPU time: whichever limit ended it
     * (SIGPROF, SIGXCPU or RLIMIT_CPU's SIGKILL), the reader did not end. */
    const double cpu = (double)used.ru_utime.tv_sec + (double)used.ru_stime.tv_sec +
                       ((double)used.ru_utime.tv_usec + (double)used.ru_stime.tv_usec) * 1e-6;
    const bool out_of_time = WIFSIGNALED(status) &&
                             (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGPROF ||
                              (WTERMSIG(status) == SIGKILL && cpu >= read_seconds(path)));
    if (got && exited && tag) return true;
    if (got && exited) {
        text[sizeof text - 1] = '\0';
        snprintf(err, err_size, "%s", text);
    } else {
        snprintf(err, err_size, "%s is not a readable FST file (the FST reader failed on it%s)", path,
                 out_of_time           ? ": it did not end"
                 : WIFSIGNALED(status) ? ", killed by a signal"
                                       : "");
    }
    return false;
}

/* ---------------------------------------------------------------- VCD */

typedef struct {
    char *code;
    size_t list;
    unsigned bits; /* its declared width */
} vcd_code;

/* Identifier codes, hashed: a big dump has tens of thousands of them. */
typedef struct {
    vcd_code *slot; /* code NULL: empty */
    size_t cap, n;
} code_table;

static size_t hash_code(const char *s)
{
    size_t h = 5381;
    while (*s) h = h * 33u + (unsigned char)*s++;
    return h;
}

static vcd_code *find_code(const code_table *t, const char *code)
{
    if (!t->cap) return NULL;
    for (size_t i = hash_code(code) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->slot[i].code) return NULL;
        if (!strcmp(t->slot[i].code, code)) return &t->slot[i];
    }
}

static bool add_code(code_table *t, const char *code, size_t list, unsigned bits)
{
    if (2 * (t->n + 1) > t->cap) {
        code_table bigger = {calloc(t->cap ? 2 * t->cap : 1024, sizeof(vcd_code)), t->cap ? 2 * t->cap : 1024, 0};
        if (!bigger.slot) return false;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slot[i].code) continue;
            size_t j = hash_code(t->slot[i].code) & (bigger.cap - 1);
            while (bigger.slot[j].code) j = (j + 1) & (bigger.cap - 1);
            bigger.slot[j] = t->slot[i];
            bigger.n++;
        }
        free(t->slot);
        *t = bigger;
    }
    size_t j = hash_code(code) & (t->cap - 1);
    while (t->slot[j].code) j = (j + 1) & (t->cap - 1);
    t->slot[j].code = strdup(code);
    t->slot[j].list = list;
    t->slot[j].bits = bits;
    t->n++;
    return t->slot[j].code != NULL;
}

/* The file as whitespace-separated tokens, with line numbers, read by the
 * one line reader (core/lines.h): a value change is read within its line,
 * so a line cut short is never completed by the next one. */
typedef struct {
    wm_lines r;
    char *p;         /* the rest of the current line; NULL before the first and at the end */
    unsigned line;   /* of the current line */
    bool failed;     /* the reader refused the file: why */
    char why[1200];
} vcd_in;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* The next token into tok (size bytes); false at the end of the file, when
 * the reader fails (in->failed), or when the token does not fit
 * (*too_long). */
static bool next_token(vcd_in *in, char *tok, size_t size, bool *too_long)
{
    for (;;) {
        while (in->p && is_blank(*in->p)) in->p++;
        if (in->p && *in->p) break;
        char *line;
        size_t len;
        const int got = in->failed ? 0 : wm_lines_next(&in->r, &line, &len, in->why, sizeof in->why);
        if (got <= 0) {
            in->p = NULL;
            in->failed |= got < 0;
            return false;
        }
        in->p = line;
        in->line = in->r.line;
    }
    size_t n = 0;
    *too_long = false;
    for (; *in->p && !is_blank(*in->p); in->p++) {
        if (n + 1 < size) tok[n++] = *in->p;
        else *too_long = true;
    }
    tok[n] = '\0';
    return !*too_long;
}

/* The rest of the current line holds no token. */
static bool line_ends(vcd_in *in)
{
    if (!in->p) return true;
    while (*in->p == ' ' || *in->p == '\t' || *in->p == '\r') in->p++;
    return !*in->p;
}

static bool all_digits(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

static bool load_vcd(wm_dump *d, const char *path, char *err, size_t err_size)
{
    vcd_in in;
    memset(&in, 0, sizeof in);
    if (!wm_lines_open(&in.r, path, in.why, sizeof in.why)) {
        snprintf(err, err_size, "cannot read %s", path);
        return false;
    }
    code_table codes = {NULL, 0, 0};
    char scope[1024] = "";
    size_t depth_len[64] = {0}; /* an $upscope before any $scope ends at the top */
    unsigned depth = 0;
    uint64_t now = 0;
    bool ok = true, defs = true, any = false, too_long = false;
    char why[200] = "";
    char tok[512];
    while (ok && next_token(&in, tok, sizeof tok, &too_long)) {
        any = true;
        if (defs) {
            if (!strcmp(tok, "$scope")) {
                char kind[64], name[256];
                if (!next_token(&in, kind, sizeof kind, &too_long) || !next_token(&in, name, sizeof name, &too_long)) {
                    ok = false;
                    break;
                }
                if (depth < 64) depth_len[depth] = strlen(scope);
                depth++;
                size_t k = strlen(scope);
                snprintf(scope + k, sizeof scope - k, "%s%s", k ? "." : "", name);
            } else if (!strcmp(tok, "$upscope")) {
                if (depth) depth--;
                if (depth < 64) scope[depth_len[depth]] = '\0';
            } else if (!strcmp(tok, "$var")) {
                char type[64], width[32], code[64], name[256];
                if (!next_token(&in, type, sizeof type, &too_long) || !next_token(&in, width, sizeof width, &too_long) ||
                    !next_token(&in, code, sizeof code, &too_long) || !next_token(&in, name, sizeof name, &too_long)) {
                    ok = false;
                    break;
                }
                const unsigned long bits = all_digits(width) ? strtoul(width, NULL, 10) : 0;
                if (bits < 1 || bits > 1u << 20) {
                    snprintf(why, sizeof why, "line %u: $var %s has a width of '%.20s'", in.line, code, width);
                    ok = false;
                    break;
                }
                const vcd_code *c = find_code(&codes, code);
                size_t list;
                if (c) {
                    list = c->list;
                    if (c->bits != bits) {
                        snprintf(why, sizeof why, "line %u: identifier code %s is declared with %u and %lu bits",
                                 in.line, code, c->bits, bits);
                        ok = false;
                        break;
                    }
                } else {
                    change_list *nl = realloc(d->lists, (d->nlists + 1) * sizeof *nl);
                    if (!nl) {
                        ok = false;
                        break;
                    }
                    d->lists = nl;
                    memset(&d->lists[d->nlists], 0, sizeof *d->lists);
                    list = d->nlists++;
                    if (!add_code(&codes, code, list, (unsigned)bits)) {
                        ok = false;
                        break;
                    }
                }
                ok = add_signal(d, scope, name, (unsigned)bits, list);
            } else if (!strcmp(tok, "$enddefinitions")) {
                defs = false;
            }
            if (tok[0] == '$' && strcmp(tok, "$end") && strcmp(tok, "$enddefinitions")) {
                /* skip to this section's $end */
                char t2[512];
                while (next_token(&in, t2, sizeof t2, &too_long) && strcmp(t2, "$end")) {
                }
            }
            continue;
        }
        /* Value changes: each within its line, each code declared, no
         * vector wider than its signal. */
        if (tok[0] == '#') {
            if (!all_digits(tok + 1)) {
                snprintf(why, sizeof why, "line %u: '%.40s' is not a time", in.line, tok);
                ok = false;
                break;
            }
            now = strtoull(tok + 1, NULL, 10);
            if (now > d->end) d->end = now;
        } else if (tok[0] == 'b' || tok[0] == 'B' || tok[0] == 'r' || tok[0] == 'R') {
            char code[64];
            const unsigned line = in.line;
            if (line_ends(&in) || !next_token(&in, code, sizeof code, &too_long) || in.line != line) {
                snprintf(why, sizeof why, "line %u: the value %.40s has no identifier code (a line cut short)", line,
                         tok);
                ok = false;
                break;
            }
            const vcd_code *c = find_code(&codes, code);
            if (!c) {
                snprintf(why, sizeof why, "line %u: identifier code %.40s is not declared", line, code);
                ok = false;
                break;
            }
            if (tok[0] == 'r' || tok[0] == 'R') continue; /* a real: no signal of ours is one */
            const size_t digits = strlen(tok + 1);
            const bool binary = digits && strspn(tok + 1, "01xXzZ") == digits;
            if (!binary || digits > c->bits) {
                snprintf(why, sizeof why, "line %u: %.40s is not a value of %u bits for identifier code %.40s", line,
                         tok, c->bits, code);
                ok = false;
                break;
            }
            ok = push_change(&d->lists[c->list], now, bits_value(tok + 1, digits));
        } else if (strchr("01xXzZ", tok[0])) {
            const vcd_code *c = find_code(&codes, tok + 1);
            if (!c) {
                snprintf(why, sizeof why,
                         tok[1] ? "line %u: identifier code %.40s is not declared"
                                : "line %u: the value %.40s has no identifier code (a line cut short)",
                         in.line, tok[1] ? tok + 1 : tok);
                ok = false;
                break;
            }
            ok = push_change(&d->lists[c->list], now, tok[0] == '1');
        } else if (tok[0] == '$') {
            /* $dumpvars, $end and friends carry no values of their own; a
             * $comment's words are skipped to its $end */
            if (!strcmp(tok, "$comment")) {
                char t2[512];
                while (next_token(&in, t2, sizeof t2, &too_long) && strcmp(t2, "$end")) {
                }
            }
        } else {
            snprintf(why, sizeof why, "line %u: '%.40s' is not a value change", in.line, tok);
            ok = false;
        }
    }
    if (ok && too_long) {
        snprintf(why, sizeof why, "line %u: a word longer than %zu bytes", in.line, sizeof tok - 1);
        ok = false;
    }
    /* A dump ends with a newline: a last line without one was cut off (a
     * value or a time cut there would read as another). */
    if (ok && any && !in.failed && !in.r.newline) {
        snprintf(why, sizeof why, "line %u, the last, is cut off: no newline at its end", in.line);
        ok = false;
    }
    for (size_t i = 0; i < codes.cap; i++) free(codes.slot[i].code);
    free(codes.slot);
    wm_lines_close(&in.r);
    if (in.failed) {
        snprintf(err, err_size, "%s", in.why);
        return false;
    }
    if (!ok || !any || defs)
        snprintf(err, err_size, "%s is not a readable VCD file%s%s%s", path, why[0] ? " (" : "", why,
                 why[0] ? ")" : "");
    return ok && any && !defs;
}

/* ---------------------------------------------------------------- access */

static bool is_fst(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    const int c = fgetc(f);
    fclose(f);
    return c == FST_BL_HDR; /* an FST file opens with its header block */
}

wm_dump *wm_dump_load(const char *path, char *err, size_t err_size)
{
    FILE *probe = fopen(path, "rb");
    const int first = probe ? fgetc(probe) : EOF;
    if (!probe || (first == EOF && ferror(probe))) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        if (probe) fclose(probe);
        return NULL;
    }
    fclose(probe);
    /* A file named .fst is read as FST whatever it holds, so that a broken
     * one is called a broken FST file. */
    const size_t len = strlen(path);
    const bool named_fst = len >= 4 && !strcmp(path + len - 4, ".fst");
    if (named_fst && first != FST_BL_HDR) {
        snprintf(err, err_size, "%s is not a readable FST file (it does not begin with an FST header)", path);
        return NULL;
    }
    wm_dump *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    const bool ok = is_fst(path) ? load_fst_isolated(d, path, err, err_size) : load_vcd(d, path, err, err_size);
    if (!ok) {
        wm_dump_free(d);
        return NULL;
    }
    return d;
}

void wm_dump_free(wm_dump *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->nsig; i++) free(d->sig[i].name);
    for (size_t i = 0; i < d->nlists; i++) free(d->lists[i].v);
    free(d->sig);
    free(d->lists);
    free(d);
}

size_t wm_dump_signal_count(const wm_dump *d) { return d->nsig; }
const wm_dump_signal *wm_dump_signal_at(const wm_dump *d, size_t i) { return &d->sig[i]; }
uint64_t wm_dump_end_time(const wm_dump *d) { return d->end; }

const wm_dump_signal *wm_dump_find(const wm_dump *d, const char *name)
{
    for (size_t i = 0; i < d->nsig; i++)
        if (!strcmp(d->sig[i].name, name)) return &d->sig[i];
    return NULL;
}

const wm_change *wm_dump_changes(const wm_dump *d, const wm_dump_signal *s, size_t *count)
{
    const change_list *l = &d->lists[s->changes];
    *count = l->n;
    return l->v;
}

bool wm_dump_value_at(const wm_dump *d, const wm_dump_signal *s, uint64_t t, uint64_t *value)
{
    size_t n;
    const wm_change *c = wm_dump_changes(d, s, &n);
    size_t lo = 0, hi = n; /* first change after t */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c[mid].time <= t) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return false;
    *value = c[lo - 1].value;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

bool wm_dump_headers(const char *path, uint32_t **headers, size_t *count)
{
    char err[256];
    *headers = NULL;
    *count = 0;
    wm_dump *d = wm_dump_load(path, err, sizeof err);
    if (!d) return false;
    size_t cap = 0;
    for (size_t i = 0; i < d->nsig; i++) {
        const wm_dump_signal *valid = &d->sig[i];
        if (!ends_with(valid->name, "_valid") || !strstr(valid->name, ".u_waves.")) continue;
        char data_name[1024];
        snprintf(data_name, sizeof data_name, "%.*s_data", (int)(strlen(valid->name) - 6), valid->name);
        const wm_dump_signal *data = wm_dump_find(d, data_name);
        if (!data) continue;
        size_t nv;
        const wm_change *vc = wm_dump_changes(d, valid, &nv);
        if (!nv) continue;
        /* Every cycle the register is valid holds one wavelet. */
        unsigned rem = 0;
        for (size_t k = 0; k < nv; k++) {
            if (!vc[k].value) continue;
            const uint64_t until = k + 1 < nv ? vc[k + 1].time : d->end + 1;
            for (uint64_t t = vc[k].time; t < until; t++) {
                uint64_t w;
                if (!wm_dump_value_at(d, data, t, &w)) continue;
                if (rem) {
                    rem--;
                    continue;
                }
                rem = wm_header_len((uint32_t)w);
                if (*count == cap) {
                    cap = cap ? 2 * cap : 64;
                    uint32_t *nh = realloc(*headers, cap * sizeof *nh);
                    if (!nh) {
                        wm_dump_free(d);
                        return false;
                    }
                    *headers = nh;
                }
                (*headers)[(*count)++] = (uint32_t)w;
            }
        }
    }
    wm_dump_free(d);
    return true;
}
