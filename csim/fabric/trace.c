/* trace.c: per-cycle digests of the link events, one cycle kept whole. */
#include "fabric/trace.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    uint64_t cycle;
    uint32_t count;
    uint64_t digest; /* sum of the events' hashes: independent of their order */
} cycle_digest;

struct wm_trace {
    cycle_digest *cycles;
    size_t ncycles, cap;
    uint64_t events;
    uint64_t capture_cycle;
    wm_link_event *captured;
    size_t ncaptured, capcap;
    bool ok;
};

wm_trace *wm_trace_create(void)
{
    wm_trace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->capture_cycle = UINT64_MAX;
    t->ok = true;
    return t;
}

void wm_trace_destroy(wm_trace *t)
{
    if (!t) return;
    free(t->cycles);
    free(t->captured);
    free(t);
}

void wm_trace_capture(wm_trace *t, uint64_t cycle) { t->capture_cycle = cycle; }

static uint64_t event_hash(const wm_link_event *ev)
{
    uint64_t z = ev->cycle * 0x9e3779b97f4a7c15ull;
    z ^= ((uint64_t)ev->x << 48) ^ ((uint64_t)ev->y << 32) ^ ((uint64_t)ev->port << 29) ^ ev->data;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static bool grow(void **p, size_t *cap, size_t elem)
{
    const size_t n = *cap ? 2 * *cap : 1024;
    void *q = realloc(*p, n * elem);
    if (!q) return false;
    *p = q;
    *cap = n;
    return true;
}

void wm_trace_record(void *trace, const wm_link_event *ev)
{
    wm_trace *t = trace;
    if (!t->ok) return;
    t->events++;
    if (!t->ncycles || t->cycles[t->ncycles - 1].cycle != ev->cycle) {
        if (t->ncycles == t->cap && !grow((void **)&t->cycles, &t->cap, sizeof *t->cycles)) {
            t->ok = false;
            return;
        }
        t->cycles[t->ncycles++] = (cycle_digest){ev->cycle, 0, 0};
    }
    cycle_digest *c = &t->cycles[t->ncycles - 1];
    c->count++;
    c->digest += event_hash(ev);
    if (ev->cycle == t->capture_cycle) {
        if (t->ncaptured == t->capcap && !grow((void **)&t->captured, &t->capcap, sizeof *t->captured)) {
            t->ok = false;
            return;
        }
        t->captured[t->ncaptured++] = *ev;
    }
}

uint64_t wm_trace_event_count(const wm_trace *t) { return t->events; }
bool wm_trace_ok(const wm_trace *t) { return t->ok; }

bool wm_trace_first_difference(const wm_trace *a, const wm_trace *b, uint64_t *cycle)
{
    size_t i = 0;
    for (; i < a->ncycles && i < b->ncycles; i++) {
        const cycle_digest *x = &a->cycles[i], *y = &b->cycles[i];
        if (x->cycle != y->cycle) {
            *cycle = x->cycle < y->cycle ? x->cycle : y->cycle;
            return true;
        }
        if (x->count != y->count || x->digest != y->digest) {
            *cycle = x->cycle;
            return true;
        }
    }
    if (i < a->ncycles) {
        *cycle = a->cycles[i].cycle;
        return true;
    }
    if (i < b->ncycles) {
        *cycle = b->cycles[i].cycle;
        return true;
    }
    return false;
}

/* Place order within a cycle: (y, x, port), as the backends report. */
static int compare_place(const void *pa, const void *pb)
{
    const wm_link_event *a = pa, *b = pb;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->port != b->port) return a->port < b->port ? -1 : 1;
    return 0;
}

bool wm_trace_first_divergence(wm_trace *expected, wm_trace *got, wm_divergence *out)
{
    /* qsort of NULL is undefined even for no element */
    if (expected->ncaptured) qsort(expected->captured, expected->ncaptured, sizeof *expected->captured, compare_place);
    if (got->ncaptured) qsort(got->captured, got->ncaptured, sizeof *got->captured, compare_place);
    size_t i = 0, j = 0;
    while (i < expected->ncaptured || j < got->ncaptured) {
        const wm_link_event *e = i < expected->ncaptured ? &expected->captured[i] : NULL;
        const wm_link_event *g = j < got->ncaptured ? &got->captured[j] : NULL;
        const int order = !e ? 1 : !g ? -1 : compare_place(e, g);
        if (order == 0 && e->data == g->data) {
            i++;
            j++;
            continue;
        }
        const wm_link_event *at = order <= 0 ? e : g;
        out->cycle = at->cycle;
        out->x = at->x;
        out->y = at->y;
        out->port = at->port;
        out->has_expected = order <= 0;
        out->has_got = order >= 0;
        out->expected = out->has_expected ? e->data : 0;
        out->got = out->has_got ? g->data : 0;
        return true;
    }
    return false;
}

void wm_divergence_format(const wm_divergence *d, char *buf, size_t size)
{
    static const char port_names[WM_NPORTS + 1] = "NESWL";
    char expected[16] = "nothing", got[16] = "nothing";
    if (d->has_expected) snprintf(expected, sizeof expected, "%08x", (unsigned)d->expected);
    if (d->has_got) snprintf(got, sizeof got, "%08x", (unsigned)d->got);
    snprintf(buf, size, "cycle %llu tile (%u,%u) port %c: expected %s, got %s", (unsigned long long)d->cycle, d->x,
             d->y, d->port < WM_NPORTS ? port_names[d->port] : '?', expected, got);
}
