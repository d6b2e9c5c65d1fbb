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

wm_wavediff_result wm_wavediff(const wm_dump *a, const wm_dump *b)
{
    wm_wavediff_result r;
    memset(&r, 0, sizeof r);
    const uint64_t ea = wm_dump_end_time(a), eb = wm_dump_end_time(b);
    const uint64_t end = ea < eb ? ea : eb;
    const size_t na = wm_dump_signal_count(a), nb = wm_dump_signal_count(b);
    const wm_dump_signal **sorted = malloc((na + 1) * sizeof *sorted);
    if (!sorted) return r;
    for (size_t i = 0; i < na; i++) sorted[i] = wm_dump_signal_at(a, i);
    qsort(sorted, na, sizeof *sorted, compare_names);
    for (size_t i = 0; i < na; i++) {
        const wm_dump_signal *sa = sorted[i];
        const wm_dump_signal *sb = wm_dump_find(b, sa->name);
        if (!sb) {
            r.only_a++;
            continue;
        }
        r.common++;
        size_t ca, cb;
        const wm_change *xa = wm_dump_changes(a, sa, &ca), *xb = wm_dump_changes(b, sb, &cb);
        uint64_t t;
        if (!first_difference(xa, ca, xb, cb, end, &t)) continue;
        if (!r.differ || t < r.time) {
            r.differ = true;
            r.time = t;
            r.signal = sa->name;
            r.a_known = wm_dump_value_at(a, sa, t, &r.a_value);
            r.b_known = wm_dump_value_at(b, sb, t, &r.b_value);
        }
    }
    r.only_b = nb - r.common;
    free(sorted);
    return r;
}
