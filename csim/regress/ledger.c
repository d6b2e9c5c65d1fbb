/* ledger.c: a campaign's ledger and its lists of numbers (ledger.h). */
#include "regress/ledger.h"

#include "core/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool wm_ledger_init(wm_ledger *l, uint64_t count)
{
    l->count = count;
    l->state = count <= SIZE_MAX ? calloc(count ? (size_t)count : 1, 1) : NULL;
    return l->state != NULL;
}

void wm_ledger_free(wm_ledger *l)
{
    free(l->state);
    l->state = NULL;
    l->count = 0;
}

uint64_t wm_ledger_count(const wm_ledger *l, wm_ledger_state s)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < l->count; i++) n += l->state[i] == s;
    return n;
}

static int ascending(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

char *wm_ledger_list(const wm_ledger *l, unsigned mask, uint64_t (*index)(const void *ctx, uint64_t item),
                     const void *ctx)
{
    size_t n = 0;
    for (uint64_t i = 0; i < l->count; i++) n += (mask >> l->state[i]) & 1;
    uint64_t *v = wm_xmalloc((n ? n : 1) * sizeof *v);
    n = 0;
    for (uint64_t i = 0; i < l->count; i++)
        if ((mask >> l->state[i]) & 1) v[n++] = index(ctx, i);
    qsort(v, n, sizeof *v, ascending);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) {
        fprintf(stderr, "wavemesh: out of memory\n");
        free(v);
        return wm_xstrdup("");
    }
    /* a run of three or more at one step is a range; a shard's items are
     * N apart */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        if (i + 2 < n && v[i + 1] - v[i] == v[i + 2] - v[i + 1] && v[i + 1] > v[i])
            for (j = i + 2; j + 1 < n && v[j + 1] - v[j] == v[i + 1] - v[i];) j++;
        else if (i + 1 < n && v[i + 1] == v[i] + 1)
            j = i + 1;
        fprintf(f, "%s%" PRIu64, i ? "," : "", v[i]);
        if (j > i) fprintf(f, "-%" PRIu64, v[j]);
        if (j > i + 1 && v[i + 1] - v[i] > 1) fprintf(f, ":%" PRIu64, v[i + 1] - v[i]);
        i = j + 1;
    }
    fclose(f);
    free(v);
    return text ? text : wm_xstrdup("");
}

/* ------------------------------------------------------------ lists given back */

/* A number of the list at *p, at most max; false when there is none. */
static bool number(const char **p, uint64_t max, uint64_t *v)
{
    if (**p < '0' || **p > '9') return false;
    char *end;
    errno = 0;
    const unsigned long long x = strtoull(*p, &end, 10);
    if (errno || x > max) return false;
    *v = x;
    *p = end;
    return true;
}

bool wm_index_list_parse(const char *text, uint64_t max, wm_index_list *l, char *err, size_t err_size)
{
    memset(l, 0, sizeof *l);
    size_t cap = 0;
    const char *p = text;
    for (;;) {
        const char *part = p;
        wm_index_range r = {0, 0, 1};
        bool ok = number(&p, max, &r.from);
        r.to = r.from;
        if (ok && *p == '-') {
            p++;
            ok = number(&p, max, &r.to) && r.to >= r.from;
            if (ok && *p == ':') {
                p++;
                ok = number(&p, max, &r.step) && r.step >= 1;
            }
        }
        ok = ok && (*p == ',' || *p == '\0');
        if (ok && l->n && r.from <= l->range[l->n - 1].to) {
            snprintf(err, err_size, "'%.*s' (at character %zu) is not above the number before it: the list "
                     "ascends, each number once",
                     (int)strcspn(part, ","), part, (size_t)(part - text) + 1);
            wm_index_list_free(l);
            return false;
        }
        if (!ok) {
            snprintf(err, err_size, "'%.*s' (at character %zu) is not N, A-B or A-B:S with numbers 0..%" PRIu64
                     ", A <= B, S >= 1",
                     (int)strcspn(part, ","), part, (size_t)(part - text) + 1, max);
            wm_index_list_free(l);
            return false;
        }
        if (l->n == cap) {
            cap = cap ? 2 * cap : 16;
            l->range = wm_xrealloc(l->range, cap * sizeof *l->range);
            l->before = wm_xrealloc(l->before, cap * sizeof *l->before);
        }
        l->before[l->n] = l->count;
        l->range[l->n++] = r;
        l->count += (r.to - r.from) / r.step + 1;
        if (*p == '\0') return true;
        p++;
    }
}

uint64_t wm_index_list_at(const wm_index_list *l, uint64_t i)
{
    size_t lo = 0, hi = l->n; /* the last range that starts at or before i */
    while (hi - lo > 1) {
        const size_t mid = (lo + hi) / 2;
        if (l->before[mid] <= i) lo = mid;
        else hi = mid;
    }
    return l->range[lo].from + (i - l->before[lo]) * l->range[lo].step;
}

void wm_index_list_free(wm_index_list *l)
{
    free(l->range);
    free(l->before);
    memset(l, 0, sizeof *l);
}
