/* exact.c: the exact results of the scans and the all-reduce (see exact.h). */
#include "run/exact.h"

#include "core/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int64_t wm_word(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
bool wm_word_fits(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

void wm_scan_reference(const int64_t *values, size_t n, int64_t *excl, int64_t *incl, int64_t *total)
{
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        excl[i] = sum;
        sum += values[i];
        incl[i] = sum;
    }
    *total = sum;
}

struct wm_exact {
    wm_exact_value *v;
    size_t n, cap;
};

static void add(wm_exact *x, const char *instance, const char *name, int64_t exact)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 16;
        x->v = wm_xrealloc(x->v, x->cap * sizeof *x->v);
    }
    x->v[x->n++] = (wm_exact_value){instance, name, exact};
}

static bool exports(const wm_instance *in, const char *name)
{
    for (const char *const *e = in->kernel->exports; e && *e; e++)
        if (!strcmp(*e, name)) return true;
    return false;
}

/* The scans: leaves l0.. with a VAL parameter, l0's kernel exporting excl. */
static void scans(wm_exact *x, const wm_layout *l)
{
    const wm_instance *first = wm_layout_find(l, "l0");
    int64_t v;
    if (!first || !wm_instance_param(first, "VAL", &v) || !exports(first, "excl")) return;
    size_t leaves = 0;
    char name[32];
    for (;; leaves++) {
        snprintf(name, sizeof name, "l%zu", leaves);
        const wm_instance *in = wm_layout_find(l, name);
        if (!in || !wm_instance_param(in, "VAL", &v)) break;
    }
    int64_t *values = wm_xcalloc(leaves, sizeof *values), *excl = wm_xcalloc(leaves, sizeof *excl),
            *incl = wm_xcalloc(leaves, sizeof *incl), total;
    for (size_t i = 0; i < leaves; i++) {
        snprintf(name, sizeof name, "l%zu", i);
        (void)wm_instance_param(wm_layout_find(l, name), "VAL", &values[i]);
    }
    wm_scan_reference(values, leaves, excl, incl, &total);
    for (size_t i = 0; i < leaves; i++) {
        snprintf(name, sizeof name, "l%zu", i);
        const wm_instance *in = wm_layout_find(l, name);
        add(x, in->name, "excl", excl[i]);
        add(x, in->name, "incl", incl[i]);
    }
    for (size_t i = 0; i < wm_layout_count(l); i++) {
        const wm_instance *in = wm_layout_instance(l, i);
        if (exports(in, "total")) add(x, in->name, "total", total);
    }
    free(values);
    free(excl);
    free(incl);
}

/* The all-reduce's tree: each instance's index by its PE. */
typedef struct {
    const wm_layout *l;
    size_t *at;    /* w * h: index + 1 of the all-reduce instance there, 0: none */
    int64_t *sum;  /* per instance */
    char *state;   /* 0: not yet, 1: being summed, 2: done, 3: unknown */
} tree;

static int64_t param(const wm_instance *in, const char *name)
{
    int64_t v = 0;
    (void)wm_instance_param(in, name, &v);
    return v;
}

static const wm_instance *at(const tree *t, int64_t x, int64_t y, size_t *index)
{
    const unsigned w = wm_layout_width(t->l), h = wm_layout_height(t->l);
    if (x < 0 || y < 0 || x >= w || y >= h) return NULL;
    const size_t k = t->at[(size_t)y * w + (size_t)x];
    if (!k) return NULL;
    *index = k - 1;
    return wm_layout_instance(t->l, k - 1);
}

/* Instance i's subtree sum; false when a child is not an all-reduce PE or
 * the tree is a cycle (then the kernel itself would fault or wait). */
static bool subtree(tree *t, size_t i)
{
    if (t->state[i] == 2) return true;
    if (t->state[i]) return false;
    t->state[i] = 1;
    const wm_instance *in = wm_layout_instance(t->l, i);
    int64_t sum = param(in, "VAL");
    static const char *const cx[] = {"C0X", "C1X", "C2X", "C3X"}, *const cy[] = {"C0Y", "C1Y", "C2Y", "C3Y"};
    const int64_t children = param(in, "CHILDREN");
    for (int64_t c = 0; c < children && c < 4; c++) {
        size_t k;
        if (!at(t, param(in, cx[c]), param(in, cy[c]), &k) || !subtree(t, k)) {
            t->state[i] = 3;
            return false;
        }
        sum += t->sum[k];
    }
    t->sum[i] = sum;
    t->state[i] = 2;
    return true;
}

static void allreduce(wm_exact *x, const wm_layout *l)
{
    const size_t n = wm_layout_count(l);
    tree t = {l, wm_xcalloc((size_t)wm_layout_width(l) * wm_layout_height(l), sizeof *t.at),
              wm_xcalloc(n ? n : 1, sizeof *t.sum), wm_xcalloc(n ? n : 1, 1)};
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const wm_instance *in = wm_layout_instance(l, i);
        if (strcmp(in->kernel->name, "allreduce")) continue;
        t.at[(size_t)in->y * wm_layout_width(l) + in->x] = i + 1;
        any = true;
    }
    for (size_t i = 0; any && i < n; i++) {
        const wm_instance *in = wm_layout_instance(l, i);
        if (strcmp(in->kernel->name, "allreduce") || !subtree(&t, i)) continue;
        add(x, in->name, "sum", t.sum[i]);
        /* the total: the root's sum, up the parents (at most n steps) */
        size_t k = i;
        bool found = true;
        for (size_t step = 0; found && !param(wm_layout_instance(l, k), "ROOT"); step++) {
            const wm_instance *p = wm_layout_instance(l, k);
            found = step < n && at(&t, param(p, "UPX"), param(p, "UPY"), &k);
        }
        if (found && subtree(&t, k)) add(x, in->name, "total", t.sum[k]);
    }
    free(t.at);
    free(t.sum);
    free(t.state);
}

wm_exact *wm_exact_create(const wm_layout *l)
{
    wm_exact *x = wm_xcalloc(1, sizeof *x);
    scans(x, l);
    allreduce(x, l);
    return x;
}

void wm_exact_destroy(wm_exact *x)
{
    if (!x) return;
    free(x->v);
    free(x);
}

size_t wm_exact_count(const wm_exact *x) { return x->n; }
const wm_exact_value *wm_exact_at(const wm_exact *x, size_t i) { return &x->v[i]; }

const wm_exact_value *wm_exact_find(const wm_exact *x, const char *instance, const char *name)
{
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->v[i].instance, instance) && !strcmp(x->v[i].name, name)) return &x->v[i];
    return NULL;
}

size_t wm_exact_report_wraps(const wm_exact *x, const wm_sched *s, const char *prefix, wm_wrap_excuse excuse,
                             void *ctx, FILE *out)
{
    size_t wrapped = 0;
    for (size_t i = 0; i < x->n; i++) {
        const wm_exact_value *v = &x->v[i];
        int64_t got;
        if (wm_word_fits(v->exact) || !wm_sched_result(s, v->instance, v->name, &got)) continue;
        const int64_t word = wm_word(v->exact);
        if (excuse && excuse(ctx, v->instance, v->name, word)) continue;
        /* exact - word is a multiple of 2^32; |exact| < 2^63 keeps it exact */
        const int64_t turns = (v->exact - word) / ((int64_t)1 << 32);
        fprintf(out,
                "%s%s.%s wrapped: its exact value %" PRId64 " does not fit a 32-bit word (%" PRId32 "..%" PRId32
                "); the word holds %" PRId64 ", the exact value %s %" PRId64 "*2^32\n",
                prefix, v->instance, v->name, v->exact, INT32_MIN, INT32_MAX, word, turns > 0 ? "minus" : "plus",
                turns > 0 ? turns : -turns);
        wrapped++;
    }
    return wrapped;
}
