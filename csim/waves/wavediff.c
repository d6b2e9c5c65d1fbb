/* wavediff.c: the first difference between two dumps (see wavediff.h). */
#include "waves/wavediff.h"

#include <stdlib.h>
#include <string.h>

/* The first time in [0, end] at which a and b hold different values (a
 * value before a signal's first change counts as unknown). */
static bool first_difference(const wm_change *a, size_t na, const wm_change *b, size_t nb, uint64_t end,
                             uint64_t *when)
{
    size_t i = 0, j = 0;
    bool ka = false, kb = false;
    uint64_t va = 0, vb = 0;
    while (i < na || j < nb) {
        const uint64_t ta = i < na ? a[i].time : UINT64_MAX, tb = j < nb ? b[j].time : UINT64_MAX;
        const uint64_t t = ta < tb ? ta : tb;
        if (t > end) break;
        while (i < na && a[i].time == t) {
            va = a[i++].value;
            ka = true;
        }
        while (j < nb && b[j].time == t) {
            vb = b[j++].value;
            kb = true;
        }
        if (ka != kb || va != vb) {
            *when = t;
            return true;
        }
    }
    return false;
}

static int compare_names(const void *x, const void *y)
{
    const wm_dump_signal *const *a = x, *const *b = y;
    return strcmp((*a)->name, (*b)->name);
}

wm_wavediff_result wm_wavediff(const wm_dump *a, const wm_dump *b) { return wm_wavediff_parts(a, &b, 1); }

wm_wavediff_result wm_wavediff_parts(const wm_dump *a, const wm_dump *const *parts, size_t nparts)
{
    wm_wavediff_result r;
    memset(&r, 0, sizeof r);
    uint64_t end = wm_dump_end_time(a);
    size_t nb = 0;
    for (size_t k = 0; k < nparts; k++) {
        const uint64_t e = wm_dump_end_time(parts[k]);
        if (e < end) end = e;
        nb += wm_dump_signal_count(parts[k]);
    }
    const size_t na = wm_dump_signal_count(a);
    const wm_dump_signal **sorted = malloc((na + 1) * sizeof *sorted);
    if (!sorted) return r;
    for (size_t i = 0; i < na; i++) sorted[i] = wm_dump_signal_at(a, i);
    qsort(sorted, na, sizeof *sorted, compare_names);
    for (size_t i = 0; i < na; i++) {
        const wm_dump_signal *sa = sorted[i], *sb = NULL;
        size_t part = 0, holders = 0;
        for (size_t k = 0; k < nparts; k++) {
            const wm_dump_signal *found = wm_dump_find(parts[k], sa->name);
            if (!found) continue;
            if (holders++ == 0) {
                sb = found;
                part = k;
            } else if (!r.twice) {
                r.twice = sa->name;
                r.twice_parts[0] = part;
                r.twice_parts[1] = k;
            }
        }
        if (!sb) {
            if (!r.only_a++) r.missing = sa->name;
            continue;
        }
        r.common++;
        r.held += holders;
        size_t ca, cb;
        const wm_change *xa = wm_dump_changes(a, sa, &ca), *xb = wm_dump_changes(parts[part], sb, &cb);
        uint64_t t;
        if (!first_difference(xa, ca, xb, cb, end, &t)) continue;
        if (!r.differ || t < r.time) {
            r.differ = true;
            r.time = t;
            r.signal = sa->name;
            r.part = part;
            r.a_known = wm_dump_value_at(a, sa, t, &r.a_value);
            r.b_known = wm_dump_value_at(parts[part], sb, t, &r.b_value);
        }
    }
    r.only_b = nb - r.held;
    free(sorted);
    return r;
}
