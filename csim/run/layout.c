/* layout.c: the layout parser and its checks (format: docs/layouts.md).
 *
 * One pass reads the lines, keeping those of the selected placement; the
 * checks that need the whole file (coordinates of instances named later,
 * the region, the paths) run at the end. Every error is printed with its
 * file and line, and parsing goes on so that one run shows all of them. */
#include "run/layout.h"

#include "core/lines.h"
#include "core/xalloc.h"
#include "waves/waves.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The kernel of the registry (sw/kernels.c) called name, or NULL. */
static const wm_kernel *kernel_find(const char *name)
{
    for (const wm_kernel *k = wm_kernels; k->name; k++)
        if (!strcmp(k->name, name)) return k;
    return NULL;
}

enum { MAX_TOKENS = 256 };

/* A kernel parameter as written: a number, or another instance's x or y. */
typedef struct {
    size_t slot;      /* its index among the kernel's parameters: its name */
    int64_t value;
    const char *ref;  /* instance name, or NULL for a plain value */
    const char *from; /* the layout parameter it was written as ($NAME), or NULL */
    bool ref_y;       /* .y rather than .x */
} raw_param;

typedef struct {
    char *name;
    const wm_kernel *kernel;
    unsigned line;
    size_t raw_at, nraw; /* its parameters as written: raws[raw_at..] */
    wm_param_value *params;
    size_t nparams;
    bool placed;
    int64_t x, y;
    unsigned at_line;
} instance;

typedef struct {
    const char *name;
    int64_t x, y;
    unsigned line;
} position;

typedef struct {
    bool all;
    int64_t x, y, w, h;
    unsigned line;
} rect;

/* Names to indices, open addressing: layouts of 8191 instances would
 * otherwise spend seconds in linear searches. */
typedef struct {
    size_t *slot; /* index + 1, 0 for empty */
    size_t cap, count;
} name_index;

/* Names kept as long as the layout, packed in blocks: a million names
 * are a million allocations otherwise. */
typedef struct name_block {
    struct name_block *next;
    size_t used, size;
    char text[];
} name_block;

struct wm_layout {
    const char *path;
    FILE *err;
    unsigned errors;
    /* While parsing, the text parsed, in place: what is read only until
     * the parameters are resolved (a reference's instance name, a $NAME,
     * an `at` line's name) points into it, not into a copy */
    raw_param *raws;
    size_t nraws;
    wm_param_value *param_block; /* every instance's resolved parameters */
    name_block *names;
    const wm_kernel *last_kernel; /* of the last pe line: the next is often the same */
    wm_param_value *lparams;
    size_t nlparams;
    name_index lparam_index;
    instance *inst;
    size_t ninst;
    name_index inst_index;
    wm_instance *pub;
    position *at;
    size_t nat;
    name_index at_index;
    rect *rects;
    size_t nrects;
    bool have_mesh;
    unsigned w, h, mesh_line;
    char *placement;
    unsigned placement_line;
    bool *enabled;
    /* placements seen, for the message when none is selected */
    char *placements_seen;
    /* the `expect ENDING` line: how a run is meant to end */
    wm_ending expected;
    unsigned expected_line;
    /* the settings, while parsing: a value out of range names its own */
    const wm_setting *settings;
    size_t nsettings;
};

static void error_at(wm_layout *l, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void error_at(wm_layout *l, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (line)
        fprintf(l->err, "%s:%u: ", l->path, line);
    else
        fprintf(l->err, "%s: ", l->path);
    /* The text quotes the file: a byte that is not printable (a binary
     * file given as a layout) is shown as \xNN, never sent to the terminal. */
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (isprint(*c)) fputc(*c, l->err);
        else fprintf(l->err, "\\x%02x", *c);
    }
    fputc('\n', l->err);
    l->errors++;
}

/* A copy of name that lives as long as the layout. */
static char *keep_name(wm_layout *l, const char *name)
{
    const size_t len = strlen(name) + 1;
    name_block *b = l->names;
    if (!b || b->size - b->used < len) {
        const size_t size = len > 65536 ? len : 65536;
        b = wm_xmalloc(sizeof *b + size);
        b->next = l->names;
        b->used = 0;
        b->size = size;
        l->names = b;
    }
    char *kept = memcpy(b->text + b->used, name, len);
    b->used += len;
    return kept;
}

/* Grow *arr (of *n elements of size sz) by one zeroed element. Its room is
 * the power of two at or above *n, doubled when full: one realloc a
 * element would copy a 32767-instance layout's arrays quadratically. */
static void *push_back(void *arrp, size_t *n, size_t sz)
{
    void **arr = arrp;
    if (*n == 0 || (*n & (*n - 1)) == 0) *arr = wm_xrealloc(*arr, (*n ? 2 * *n : 1) * sz);
    memset((char *)*arr + *n * sz, 0, sz);
    return (char *)*arr + (*n)++ * sz;
}

typedef enum { INT_OK, INT_NOT_A_NUMBER, INT_OUT_OF_RANGE } int_parse;

int wm_int_base(const char *s)
{
    if (*s == '-') s++;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
}

static int_parse parse_int_why(const char *s, int64_t *v)
{
    if (!*s) return INT_NOT_A_NUMBER;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, wm_int_base(s));
    if (*end || end == s) return INT_NOT_A_NUMBER;
    if (errno == ERANGE) return INT_OUT_OF_RANGE;
    *v = x;
    return INT_OK;
}

static bool parse_int(const char *s, int64_t *v) { return parse_int_why(s, v) == INT_OK; }

static bool valid_name(const char *s);

bool wm_setting_parse(char *text, wm_setting *out)
{
    char *eq = strchr(text, '=');
    if (!eq) return false;
    *eq = '\0';
    if (!valid_name(text) || !parse_int(eq + 1, &out->value)) {
        *eq = '=';
        return false;
    }
    out->name = text;
    out->origin = NULL;
    return true;
}

static bool valid_name(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_') return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return false;
    return true;
}

static const wm_param_value *find_lparam(const wm_layout *l, const char *name);

/* A number or $PARAM. */
static bool eval_scalar(wm_layout *l, unsigned line, const char *tok, int64_t *v)
{
    if (tok[0] == '$') {
        const wm_param_value *p = find_lparam(l, tok + 1);
        if (!p) {
            error_at(l, line, "unknown layout parameter '%s' (declare it with `param %s VALUE` first)", tok + 1,
                     tok + 1);
            return false;
        }
        *v = p->value;
        return true;
    }
    switch (parse_int_why(tok, v)) {
    case INT_OK: return true;
    case INT_OUT_OF_RANGE:
        error_at(l, line, "%s is out of range (a layout's numbers lie in %" PRId64 "..%" PRId64 ")", tok, INT64_MIN,
                 INT64_MAX);
        return false;
    case INT_NOT_A_NUMBER: break;
    }
    error_at(l, line, "'%s' is not a number or a $parameter", tok);
    return false;
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The index of name, given how to read the name of index i; or -1. */
static long index_find(const name_index *ix, const char *name, const char *(*name_of)(const wm_layout *, size_t),
                       const wm_layout *l)
{
    if (!ix->cap) return -1;
    for (size_t k = hash_name(name) & (ix->cap - 1);; k = (k + 1) & (ix->cap - 1)) {
        if (!ix->slot[k]) return -1;
        if (!strcmp(name_of(l, ix->slot[k] - 1), name)) return (long)(ix->slot[k] - 1);
    }
}

static void index_add(name_index *ix, size_t i, const char *(*name_of)(const wm_layout *, size_t), const wm_layout *l)
{
    if (2 * (ix->count + 1) > ix->cap) {
        name_index bigger = {NULL, ix->cap ? 2 * ix->cap : 64, 0};
        bigger.slot = wm_xcalloc(bigger.cap, sizeof *bigger.slot);
        for (size_t k = 0; k < ix->cap; k++)
            if (ix->slot[k]) index_add(&bigger, ix->slot[k] - 1, name_of, l);
        free(ix->slot);
        *ix = bigger;
    }
    size_t k = hash_name(name_of(l, i)) & (ix->cap - 1);
    while (ix->slot[k]) k = (k + 1) & (ix->cap - 1);
    ix->slot[k] = i + 1;
    ix->count++;
}

static const char *inst_name(const wm_layout *l, size_t i) { return l->inst[i].name; }
static const char *lparam_name(const wm_layout *l, size_t i) { return l->lparams[i].name; }

/* A tree of 2^19 leaves declares 2^19 parameters: found by name in the
 * index, not by a search of them all. */
static const wm_param_value *find_lparam(const wm_layout *l, const char *name)
{
    const long i = index_find(&l->lparam_index, name, lparam_name, l);
    return i < 0 ? NULL : &l->lparams[i];
}
static const char *at_name(const wm_layout *l, size_t i) { return l->at[i].name; }

static instance *find_inst(wm_layout *l, const char *name)
{
    const long i = index_find(&l->inst_index, name, inst_name, l);
    return i < 0 ? NULL : &l->inst[i];
}

static const position *find_at(const wm_layout *l, const char *name)
{
    const long i = index_find(&l->at_index, name, at_name, l);
    return i < 0 ? NULL : &l->at[i];
}

static void parse_pe(wm_layout *l, unsigned line, char **tok, size_t n)
{
    if (n < 3) {
        error_at(l, line, "usage: pe INSTANCE KERNEL [PARAM=VALUE]...");
        return;
    }
    if (!valid_name(tok[1])) {
        error_at(l, line, "'%s' is not a valid instance name", tok[1]);
        return;
    }
    /* The name is the tile's scope in a dump, kept whole. */
    if (strlen(tok[1]) > WM_WAVES_SCOPE_MAX) {
        error_at(l, line, "instance name %.20s... is %zu characters long; at most %d (it names its tile in a dump)",
                 tok[1], strlen(tok[1]), WM_WAVES_SCOPE_MAX);
        return;
    }
    instance *dup = find_inst(l, tok[1]);
    if (dup) {
        error_at(l, line, "instance %s is already defined at line %u", tok[1], dup->line);
        return;
    }
    const wm_kernel *k =
        l->last_kernel && !strcmp(l->last_kernel->name, tok[2]) ? l->last_kernel : kernel_find(tok[2]);
    if (!k) {
        error_at(l, line, "unknown kernel '%s'", tok[2]);
        return;
    }
    l->last_kernel = k;
    instance *in = push_back(&l->inst, &l->ninst, sizeof *l->inst);
    in->name = keep_name(l, tok[1]);
    in->kernel = k;
    in->line = line;
    index_add(&l->inst_index, l->ninst - 1, inst_name, l);
    in->raw_at = l->nraws;
    for (size_t i = 3; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i] || !eq[1]) {
            error_at(l, line, "'%s' is not PARAM=VALUE", tok[i]);
            continue;
        }
        *eq = '\0';
        const char *key = tok[i];
        char *val = eq + 1;
        /* written in the kernel's order, as a generated layout is: found
         * at once */
        const wm_kernel_param *kp = k->params;
        for (size_t g = 0; g < i - 3 && kp->name; g++) kp++;
        if (!kp->name || strcmp(kp->name, key))
            for (kp = k->params; kp->name && strcmp(kp->name, key);) kp++;
        if (!kp->name) {
            error_at(l, line, "kernel %s has no parameter %s", k->name, key);
            continue;
        }
        const size_t slot = (size_t)(kp - k->params);
        bool twice = false;
        for (size_t r = 0; r < in->nraw; r++) twice |= l->raws[in->raw_at + r].slot == slot;
        if (twice) {
            error_at(l, line, "parameter %s is given twice", key);
            continue;
        }
        raw_param rp = {.slot = slot};
        const char *dot = strrchr(val, '.');
        if (dot && (!strcmp(dot, ".x") || !strcmp(dot, ".y")) && val[0] != '$') {
            rp.ref_y = dot[1] == 'y';
            val[dot - val] = '\0';
            rp.ref = val;
        } else if (!eval_scalar(l, line, val, &rp.value)) {
            continue;
        } else if (val[0] == '$') {
            rp.from = val + 1;
        }
        *(raw_param *)push_back(&l->raws, &l->nraws, sizeof *l->raws) = rp;
        in->nraw++;
    }
}

static void parse_line(wm_layout *l, unsigned line, char **tok, size_t n, bool *in_block, bool *selected)
{
    const char *kw = tok[0];
    if (!strcmp(kw, "placement")) {
        if (*in_block) {
            error_at(l, line, "placement inside a placement (missing `end`)");
            return;
        }
        int64_t want = 0;
        char *eq = n == 4 ? strchr(tok[3], '=') : NULL;
        if (n != 4 || strcmp(tok[2], "when") || !eq) {
            error_at(l, line, "usage: placement NAME when PARAM=VALUE");
            *in_block = true;
            *selected = false;
            return;
        }
        *eq = '\0';
        *in_block = true;
        *selected = false;
        const wm_param_value *p = find_lparam(l, tok[3]);
        if (!p) {
            error_at(l, line, "unknown layout parameter '%s'", tok[3]);
            return;
        }
        if (!eval_scalar(l, line, eq + 1, &want)) return;
        size_t seen = l->placements_seen ? strlen(l->placements_seen) : 0;
        char buf[160];
        snprintf(buf, sizeof buf, "%s%s (%s=%" PRId64 ")", seen ? ", " : "", tok[1], tok[3], want);
        char *grown = realloc(l->placements_seen, seen + strlen(buf) + 1);
        if (grown) {
            l->placements_seen = grown;
            strcpy(grown + seen, buf);
        }
        if (p->value != want) return;
        if (l->placement) {
            error_at(l, line, "placement %s is selected too, but %s (line %u) already is", tok[1], l->placement,
                     l->placement_line);
            return;
        }
        l->placement = wm_xstrdup(tok[1]);
        l->placement_line = line;
        *selected = true;
        return;
    }
    if (!strcmp(kw, "end")) {
        if (!*in_block) error_at(l, line, "`end` without `placement`");
        *in_block = false;
        *selected = false;
        return;
    }
    if (*in_block && !*selected) return;
    if (!strcmp(kw, "param")) {
        int64_t v;
        if (n != 3 || !valid_name(tok[1])) {
            error_at(l, line, "usage: param NAME DEFAULT");
            return;
        }
        if (find_lparam(l, tok[1])) {
            error_at(l, line, "layout parameter %s is declared twice", tok[1]);
            return;
        }
        if (!eval_scalar(l, line, tok[2], &v)) return;
        wm_param_value *p = push_back(&l->lparams, &l->nlparams, sizeof *l->lparams);
        p->name = keep_name(l, tok[1]);
        p->value = v;
        index_add(&l->lparam_index, l->nlparams - 1, lparam_name, l);
    } else if (!strcmp(kw, "mesh")) {
        int64_t w, h;
        if (n != 3) {
            error_at(l, line, "usage: mesh WIDTH HEIGHT");
            return;
        }
        if (!eval_scalar(l, line, tok[1], &w) || !eval_scalar(l, line, tok[2], &h)) return;
        if (w < 1 || h < 1 || w > WM_MESH_MAX || h > WM_MESH_MAX) {
            error_at(l, line, "mesh %" PRId64 "x%" PRId64 " is outside 1x1..%dx%d", w, h, WM_MESH_MAX,
                     WM_MESH_MAX);
            return;
        }
        if (l->have_mesh) {
            error_at(l, line, "a second mesh line (the first is line %u)", l->mesh_line);
            return;
        }
        l->have_mesh = true;
        l->w = (unsigned)w;
        l->h = (unsigned)h;
        l->mesh_line = line;
    } else if (!strcmp(kw, "region")) {
        rect r = {0};
        r.line = line;
        if (n == 2 && !strcmp(tok[1], "all")) {
            r.all = true;
        } else if (n == 5) {
            if (!eval_scalar(l, line, tok[1], &r.x) || !eval_scalar(l, line, tok[2], &r.y) ||
                !eval_scalar(l, line, tok[3], &r.w) || !eval_scalar(l, line, tok[4], &r.h))
                return;
        } else {
            error_at(l, line, "usage: region all | region X Y WIDTH HEIGHT");
            return;
        }
        *(rect *)push_back(&l->rects, &l->nrects, sizeof *l->rects) = r;
    } else if (!strcmp(kw, "at")) {
        position p = {0};
        if (n != 4 || !valid_name(tok[1])) {
            error_at(l, line, "usage: at INSTANCE X Y");
            return;
        }
        const position *placed = find_at(l, tok[1]);
        if (placed) {
            error_at(l, line, "instance %s is already placed at line %u", tok[1], placed->line);
            return;
        }
        if (!eval_scalar(l, line, tok[2], &p.x) || !eval_scalar(l, line, tok[3], &p.y)) return;
        p.name = tok[1];
        p.line = line;
        *(position *)push_back(&l->at, &l->nat, sizeof *l->at) = p;
        index_add(&l->at_index, l->nat - 1, at_name, l);
    } else if (!strcmp(kw, "pe")) {
        parse_pe(l, line, tok, n);
    } else if (!strcmp(kw, "expect")) {
        wm_ending e;
        if (n != 2 || !wm_ending_parse(tok[1], &e)) {
            error_at(l, line, "usage: expect ENDING (%s)", wm_ending_words());
            return;
        }
        if (l->expected_line) {
            error_at(l, line, "a second expect line (the first is line %u)", l->expected_line);
            return;
        }
        l->expected = e;
        l->expected_line = line;
    } else {
        error_at(l, line, "unknown statement '%s' (param, placement, end, mesh, region, at, pe, expect)", kw);
    }
}

/* The region as a bitmap; rectangles are clipped to the mesh. */
static void build_region(wm_layout *l)
{
    l->enabled = wm_xcalloc((size_t)l->w * l->h, sizeof *l->enabled);
    for (size_t i = 0; i < l->nrects; i++) {
        const rect *r = &l->rects[i];
        /* Each number is checked on its own before any sum: x + w of two
         * numbers near INT64_MAX would overflow (and wrap to an empty
         * rectangle) where a subtraction from the mesh size cannot. */
        const bool inside = r->all || (r->x >= 0 && r->y >= 0 && r->x < l->w && r->y < l->h && r->w >= 1 &&
                                        r->h >= 1 && r->w <= l->w - r->x && r->h <= l->h - r->y);
        if (!inside) {
            error_at(l, r->line, "region %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " is not inside the %ux%u mesh",
                     r->x, r->y, r->w, r->h, l->w, l->h);
            continue;
        }
        const int64_t x0 = r->all ? 0 : r->x, y0 = r->all ? 0 : r->y;
        const int64_t x1 = r->all ? l->w : r->x + r->w, y1 = r->all ? l->h : r->y + r->h;
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = x0; x < x1; x++) l->enabled[y * l->w + x] = true;
    }
}

/* The first router on the X-then-Y path from a to b outside the region. */
static bool path_leaves_region(const wm_layout *l, unsigned ax, unsigned ay, unsigned bx, unsigned by, unsigned *ox,
                               unsigned *oy)
{
    unsigned x = ax, y = ay;
    for (;;) {
        if (!l->enabled[(size_t)y * l->w + x]) {
            *ox = x;
            *oy = y;
            return true;
        }
        if (x != bx)
            x = x < bx ? x + 1 : x - 1;
        else if (y != by)
            y = y < by ? y + 1 : y - 1;
        else
            return false;
    }
}

static void resolve(wm_layout *l)
{
    if (!l->have_mesh) {
        error_at(l, 0, "no `mesh WIDTH HEIGHT` line%s%s", l->placement ? " in placement " : "",
                 l->placement ? l->placement : "");
        return;
    }
    build_region(l);
    /* Coordinates. */
    for (size_t i = 0; i < l->nat; i++) {
        const position *p = &l->at[i];
        instance *in = find_inst(l, p->name);
        if (!in) {
            error_at(l, p->line, "`at` for %s, which no `pe` line defines", p->name);
            continue;
        }
        if (p->x < 0 || p->y < 0 || p->x >= l->w || p->y >= l->h) {
            error_at(l, p->line, "%s at (%" PRId64 ",%" PRId64 ") is off the %ux%u mesh", p->name, p->x, p->y, l->w,
                     l->h);
            continue;
        }
        in->placed = true;
        in->x = p->x;
        in->y = p->y;
        in->at_line = p->line;
    }
    /* which instance holds each PE, index + 1 */
    size_t *occupant = wm_xcalloc((size_t)l->w * l->h, sizeof *occupant);
    for (size_t i = 0; i < l->ninst; i++) {
        instance *in = &l->inst[i];
        if (!in->placed) {
            if (!find_at(l, in->name))
                error_at(l, in->line, "instance %s has no `at INSTANCE X Y` line%s%s", in->name,
                         l->placement ? " in placement " : "", l->placement ? l->placement : "");
            continue;
        }
        size_t *cell = &occupant[(size_t)in->y * l->w + (size_t)in->x];
        if (*cell) {
            const instance *o = &l->inst[*cell - 1];
            error_at(l, in->at_line, "two kernels on PE (%" PRId64 ",%" PRId64 "): %s (%s) and %s (%s, line %u)",
                     in->x, in->y, in->name, in->kernel->name, o->name, o->kernel->name, o->at_line);
        } else {
            *cell = i + 1;
        }
    }
    free(occupant);
    if (l->errors) return;
    /* Parameters: every one of the kernel's, references resolved. */
    const raw_param **written = NULL; /* by the kernel's parameter: what the pe line wrote for it */
    size_t nwritten = 0, total = 0;
    for (size_t i = 0; i < l->ninst; i++) {
        size_t np = 0;
        while (l->inst[i].kernel->params[np].name) np++;
        l->inst[i].nparams = np;
        total += np;
    }
    l->param_block = wm_xcalloc(total ? total : 1, sizeof *l->param_block);
    total = 0;
    for (size_t i = 0; i < l->ninst; i++) {
        instance *in = &l->inst[i];
        const size_t np = in->nparams;
        in->params = l->param_block + total;
        total += np;
        if (np > nwritten) {
            written = wm_xrealloc(written, np * sizeof *written);
            nwritten = np;
        }
        for (size_t k = 0; k < np; k++) written[k] = NULL;
        for (size_t r = 0; r < in->nraw; r++) written[l->raws[in->raw_at + r].slot] = &l->raws[in->raw_at + r];
        for (size_t k = 0; k < np; k++) {
            const wm_kernel_param *kp = &in->kernel->params[k];
            in->params[k].name = kp->name;
            in->params[k].value = kp->fallback;
            const raw_param *rp = written[k];
            if (!rp) {
                if (kp->required)
                    error_at(l, in->line, "%s (kernel %s) is missing parameter %s", in->name, in->kernel->name,
                             kp->name);
                continue;
            }
            if (!rp->ref) {
                in->params[k].value = rp->value;
            } else {
                const instance *target = find_inst(l, rp->ref);
                if (!target) {
                    error_at(l, in->line, "%s=%s.%c refers to unknown instance %s", kp->name, rp->ref,
                             rp->ref_y ? 'y' : 'x', rp->ref);
                    continue;
                }
                in->params[k].value = rp->ref_y ? target->y : target->x;
            }
            const int64_t v = in->params[k].value;
            /* Checked once resolved, a reference too: a value outside the
             * kernel's range never reaches it, cut to its width. */
            if (v < kp->min || v > kp->max) {
                /* A value a setting gave names the setting too. */
                char given[256] = "";
                for (size_t k2 = 0; rp->from && k2 < l->nsettings; k2++)
                    if (!strcmp(l->settings[k2].name, rp->from))
                        snprintf(given, sizeof given, " (%s=$%s, given by %s %s=%" PRId64 ")", kp->name, rp->from,
                                 l->settings[k2].origin ? l->settings[k2].origin : "--set", rp->from,
                                 l->settings[k2].value);
                error_at(l, in->line,
                         "%s (kernel %s, PE (%" PRId64 ",%" PRId64 ")): %s=%" PRId64 " is outside its range %" PRId64
                         "..%" PRId64 "%s",
                         in->name, in->kernel->name, in->x, in->y, kp->name, v, kp->min, kp->max, given);
            }
        }
    }
    free(written);
    /* Paths: every instance to every instance its parameters name; none
     * leaves a region of the whole mesh. */
    bool whole = true;
    for (size_t c = 0; whole && c < (size_t)l->w * l->h; c++) whole = l->enabled[c];
    for (size_t i = 0; !whole && i < l->ninst; i++) {
        const instance *in = &l->inst[i];
        const raw_param *raw = l->raws + in->raw_at;
        for (size_t r = 0; r < in->nraw; r++) {
            const raw_param *rp = &raw[r];
            if (!rp->ref) continue;
            bool seen = false;
            for (size_t q = 0; q < r; q++) seen |= raw[q].ref && !strcmp(raw[q].ref, rp->ref);
            const instance *t = find_inst(l, rp->ref);
            if (seen || !t) continue;
            unsigned ox, oy;
            if (path_leaves_region(l, (unsigned)in->x, (unsigned)in->y, (unsigned)t->x, (unsigned)t->y, &ox, &oy))
                error_at(l, in->line,
                         "the path from %s (%" PRId64 ",%" PRId64 ") to %s (%" PRId64 ",%" PRId64
                         ") leaves the message-passing region at (%u,%u)",
                         in->name, in->x, in->y, t->name, t->x, t->y, ox, oy);
        }
    }
}

static void free_layout(wm_layout *l)
{
    free(l->lparams);
    free(l->raws);
    free(l->param_block);
    while (l->names) {
        name_block *next = l->names->next;
        free(l->names);
        l->names = next;
    }
    free(l->inst);
    free(l->inst_index.slot);
    free(l->lparam_index.slot);
    free(l->at_index.slot);
    free(l->pub);
    free(l->at);
    free(l->rects);
    free(l->placement);
    free(l->enabled);
    free(l->placements_seen);
    free(l);
}

/* The layout in copy, parsed in place; copy is freed. */
static wm_layout *parse_in_place(char *copy, const char *path, const wm_setting *settings, size_t nsettings, FILE *err)
{
    wm_layout *l = calloc(1, sizeof *l);
    if (!l) {
        free(copy);
        return NULL;
    }
    l->path = path;
    l->err = err;
    l->settings = settings;
    l->nsettings = nsettings;
    bool in_block = false, selected = false;
    unsigned block_line = 0, line = 0;
    bool settings_applied = false;
    char *save = NULL;
    /* Split by hand rather than strtok on "\n" so empty lines keep their
     * numbers. */
    for (char *s = copy; s; line++) {
        char *nl = strchr(s, '\n');
        if (nl) *nl = '\0';
        char *hash = strchr(s, '#');
        if (hash) *hash = '\0';
        char *tok[MAX_TOKENS];
        size_t n = 0;
        for (char *t = strtok_r(s, " \t\r", &save); t && n < MAX_TOKENS; t = strtok_r(NULL, " \t\r", &save))
            tok[n++] = t;
        s = nl ? nl + 1 : NULL;
        if (!n) continue;
        /* --set applies as soon as the parameters are declared, i.e. before
         * the first statement that is not a param line. */
        if (strcmp(tok[0], "param") && !settings_applied) {
            settings_applied = true;
            for (size_t i = 0; i < nsettings; i++) {
                wm_param_value *p = (wm_param_value *)find_lparam(l, settings[i].name);
                if (p)
                    p->value = settings[i].value;
                else
                    error_at(l, 0, "--set %s: the layout declares no parameter %s before its first statement",
                             settings[i].name, settings[i].name);
            }
        }
        if (!strcmp(tok[0], "param") && settings_applied) {
            error_at(l, line + 1, "param lines come first, before any other statement");
            continue;
        }
        if (!strcmp(tok[0], "placement")) block_line = line + 1;
        parse_line(l, line + 1, tok, n, &in_block, &selected);
    }
    if (!settings_applied) {
        for (size_t i = 0; i < nsettings; i++) {
            wm_param_value *p = (wm_param_value *)find_lparam(l, settings[i].name);
            if (p)
                p->value = settings[i].value;
            else
                error_at(l, 0, "--set %s: the layout declares no parameter %s", settings[i].name, settings[i].name);
        }
    }
    if (in_block) error_at(l, block_line, "placement without `end`");
    if (l->placements_seen && !l->placement && !l->errors) {
        fprintf(err, "%s: no placement is selected by the parameters; placements: %s\n", path, l->placements_seen);
        l->errors++;
    }
    if (!l->errors) resolve(l);
    /* what points into the text is read no more */
    free(copy);
    free(l->raws);
    l->raws = NULL;
    l->nraws = 0;
    free(l->at);
    free(l->at_index.slot);
    l->at = NULL;
    l->at_index = (name_index){0};
    l->nat = 0;
    if (l->errors) {
        free_layout(l);
        return NULL;
    }
    l->pub = wm_xcalloc(l->ninst ? l->ninst : 1, sizeof *l->pub);
    for (size_t i = 0; i < l->ninst; i++) {
        const instance *in = &l->inst[i];
        l->pub[i] = (wm_instance){in->name, in->kernel, (unsigned)in->x, (unsigned)in->y, in->line, in->nparams,
                                  in->params};
    }
    l->path = NULL;
    l->err = NULL;
    l->settings = NULL;
    l->nsettings = 0;
    return l;
}

wm_layout *wm_layout_parse(const char *text, const char *path, const wm_setting *settings, size_t nsettings,
                           FILE *err)
{
    return parse_in_place(wm_xstrdup(text), path, settings, nsettings, err);
}

wm_layout *wm_layout_load(const char *path, const wm_setting *settings, size_t nsettings, FILE *err)
{
    char why[1024];
    char *text = wm_text_load(path, NULL, why, sizeof why);
    if (!text) {
        fprintf(err, "%s\n", why);
        return NULL;
    }
    return parse_in_place(text, path, settings, nsettings, err);
}

void wm_layout_destroy(wm_layout *l)
{
    if (l) free_layout(l);
}

unsigned wm_layout_width(const wm_layout *l) { return l->w; }
unsigned wm_layout_height(const wm_layout *l) { return l->h; }
const char *wm_layout_placement(const wm_layout *l) { return l->placement ? l->placement : ""; }
wm_ending wm_layout_expected(const wm_layout *l) { return l->expected; }
bool wm_layout_enabled(const wm_layout *l, unsigned x, unsigned y)
{
    return x < l->w && y < l->h && l->enabled[(size_t)y * l->w + x];
}
size_t wm_layout_count(const wm_layout *l) { return l->ninst; }
const wm_instance *wm_layout_instance(const wm_layout *l, size_t i) { return &l->pub[i]; }

const wm_instance *wm_layout_find(const wm_layout *l, const char *name)
{
    const long i = index_find(&l->inst_index, name, inst_name, l);
    return i < 0 ? NULL : &l->pub[i];
}

bool wm_instance_param(const wm_instance *inst, const char *name, int64_t *value)
{
    for (size_t i = 0; i < inst->nparams; i++) {
        if (!strcmp(inst->params[i].name, name)) {
            *value = inst->params[i].value;
            return true;
        }
    }
    return false;
}

size_t wm_layout_param_count(const wm_layout *l) { return l->nlparams; }
const wm_param_value *wm_layout_param(const wm_layout *l, size_t i) { return &l->lparams[i]; }
