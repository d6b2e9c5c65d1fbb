/* waves_read.c: FST (through GTKWave's fstapi) and VCD dumps into memory. */
#include "waves/waves_read.h"

#include "fstapi.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

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

static bool push_change(change_list *l, uint64_t t, uint64_t v)
{
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

/* The FST reader of GTKWave (Debian's copy inside Verilator) loops for
 * ever on a hierarchy cut inside a name: it reads the name until a zero
 * byte, and fgetc gives EOF, not zero, at the end. The hierarchy is read
 * under a timer, and a file whose hierarchy has not ended when it fires is
 * refused: HIER_SECONDS, plus one a MiB of file, or $WM_FST_HIER_SECONDS
 * (the fuzzer's one second). */
enum { HIER_SECONDS = 30 };
static sigjmp_buf hier_escape;

static void on_hier_timer(int sig)
{
    (void)sig;
    siglongjmp(hier_escape, 1);
}

static unsigned hier_seconds(const char *path)
{
    const char *env = getenv("WM_FST_HIER_SECONDS");
    if (env && atoi(env) > 0) return (unsigned)atoi(env);
    struct stat st;
    const unsigned long mib = stat(path, &st) == 0 ? (unsigned long)st.st_size >> 20 : 0;
    return HIER_SECONDS + (unsigned)(mib > 3600 ? 3600 : mib);
}

static bool load_fst(wm_dump *d, const char *path, char *err, size_t err_size)
{
    void *r = fstReaderOpen(path);
    if (!r) {
        snprintf(err, err_size, "%s is not a readable FST file", path);
        return false;
    }
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_hier_timer;
    sigemptyset(&sa.sa_mask);
    struct itimerval timer = {{0, 0}, {hier_seconds(path), 0}}, old_timer, off = {{0, 0}, {0, 0}};
    if (sigsetjmp(hier_escape, 1)) {
        setitimer(ITIMER_REAL, &old_timer, NULL);
        sigaction(SIGALRM, &old_sa, NULL);
        fstReaderClose(r);
        snprintf(err, err_size, "%s is not a readable FST file (its hierarchy does not end)", path);
        return false;
    }
    sigaction(SIGALRM, &sa, &old_sa);
    setitimer(ITIMER_REAL, &timer, &old_timer);
    d->nlists = fstReaderGetMaxHandle(r);
    d->lists = calloc(d->nlists + 1, sizeof *d->lists);
    char scope[1024] = "";
    size_t depth_len[64];
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
            ok = add_signal(d, scope, h->u.var.name, h->u.var.length, h->u.var.handle - 1);
        }
    }
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &old_sa, NULL);
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
    if (!c.ok) snprintf(err, err_size, "out of memory reading %s", path);
    return c.ok;
}

/* ---------------------------------------------------------------- VCD */

typedef struct {
    char *code;
    size_t list;
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

static bool add_code(code_table *t, const char *code, size_t list)
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
    t->n++;
    return t->slot[j].code != NULL;
}

static bool load_vcd(wm_dump *d, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "cannot read %s", path);
        return false;
    }
    code_table codes = {NULL, 0, 0};
    char scope[1024] = "";
    size_t depth_len[64];
    unsigned depth = 0;
    uint64_t now = 0;
    bool ok = true, defs = true, any = false;
    char tok[512];
    while (ok && fscanf(f, "%511s", tok) == 1) {
        any = true;
        if (defs) {
            if (!strcmp(tok, "$scope")) {
                char kind[64], name[256];
                if (fscanf(f, "%63s %255s", kind, name) != 2) ok = false;
                if (depth < 64) depth_len[depth] = strlen(scope);
                depth++;
                size_t k = strlen(scope);
                snprintf(scope + k, sizeof scope - k, "%s%s", k ? "." : "", name);
            } else if (!strcmp(tok, "$upscope")) {
                if (depth) depth--;
                if (depth < 64) scope[depth_len[depth]] = '\0';
            } else if (!strcmp(tok, "$var")) {
                char type[64], code[64], name[256];
                unsigned bits;
                if (fscanf(f, "%63s %u %63s %255s", type, &bits, code, name) != 4) {
                    ok = false;
                    break;
                }
                const vcd_code *c = find_code(&codes, code);
                size_t list;
                if (c) {
                    list = c->list;
                } else {
                    change_list *nl = realloc(d->lists, (d->nlists + 1) * sizeof *nl);
                    if (!nl) {
                        ok = false;
                        break;
                    }
                    d->lists = nl;
                    memset(&d->lists[d->nlists], 0, sizeof *d->lists);
                    list = d->nlists++;
                    if (!add_code(&codes, code, list)) {
                        ok = false;
                        break;
                    }
                }
                ok = add_signal(d, scope, name, bits, list);
            } else if (!strcmp(tok, "$enddefinitions")) {
                defs = false;
            }
            if (tok[0] == '$' && strcmp(tok, "$end") && strcmp(tok, "$enddefinitions")) {
                /* skip to this section's $end */
                char t2[512];
                while (fscanf(f, "%511s", t2) == 1 && strcmp(t2, "$end")) {
                }
            }
            continue;
        }
        if (tok[0] == '#') {
            now = strtoull(tok + 1, NULL, 10);
            if (now > d->end) d->end = now;
        } else if (tok[0] == 'b' || tok[0] == 'B') {
            char code[64];
            if (fscanf(f, "%63s", code) != 1) break;
            const vcd_code *c = find_code(&codes, code);
            if (c) ok = push_change(&d->lists[c->list], now, bits_value(tok + 1, strlen(tok + 1)));
        } else if (strchr("01xXzZ", tok[0])) {
            const vcd_code *c = find_code(&codes, tok + 1);
            if (c) ok = push_change(&d->lists[c->list], now, tok[0] == '1');
        }
        /* $dumpvars, $end and friends carry no values of their own */
    }
    for (size_t i = 0; i < codes.cap; i++) free(codes.slot[i].code);
    free(codes.slot);
    fclose(f);
    if (!ok || !any || defs) snprintf(err, err_size, "%s is not a readable VCD file", path);
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
    const bool ok = is_fst(path) ? load_fst(d, path, err, err_size) : load_vcd(d, path, err, err_size);
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
                rem = (unsigned)((w >> 8) & 0xffu);
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
