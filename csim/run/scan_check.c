/* scan_check.c: the comparison with the reference loop (see scan_check.h). */
#include "run/scan_check.h"

#include "core/xalloc.h"
#include "run/exact.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static size_t expect(const wm_sched *s, const char *inst, const char *name, int64_t want, FILE *report)
{
    int64_t got;
    if (!wm_sched_result(s, inst, name, &got)) {
        if (report) fprintf(report, "  %s.%s missing, expected %" PRId64 "\n", inst, name, want);
        return 1;
    }
    if (got != want) {
        if (report) fprintf(report, "  %s.%s = %" PRId64 ", expected %" PRId64 "\n", inst, name, got, want);
        return 1;
    }
    return 0;
}

size_t wm_scan_check(const wm_layout *l, const wm_sched *s, FILE *report)
{
    size_t leaves = 0;
    char name[32];
    for (;; leaves++) {
        snprintf(name, sizeof name, "l%zu", leaves);
        const wm_instance *in = wm_layout_find(l, name);
        int64_t v;
        if (!in || !wm_instance_param(in, "VAL", &v)) break;
    }
    if (!leaves) {
        if (report) fprintf(report, "  no leaves l0, l1, ... with a VAL parameter to check\n");
        return 1;
    }
    int64_t *values = wm_xcalloc(leaves, sizeof *values), *excl = wm_xcalloc(leaves, sizeof *excl),
            *incl = wm_xcalloc(leaves, sizeof *incl), total;
    for (size_t i = 0; i < leaves; i++) {
        snprintf(name, sizeof name, "l%zu", i);
        wm_instance_param(wm_layout_find(l, name), "VAL", &values[i]);
    }
    wm_scan_reference(values, leaves, excl, incl, &total);
    size_t wrong = 0;
    for (size_t i = 0; i < leaves; i++) {
        snprintf(name, sizeof name, "l%zu", i);
        wrong += expect(s, name, "excl", wm_word(excl[i]), report);
        wrong += expect(s, name, "incl", wm_word(incl[i]), report);
    }
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        int64_t got;
        if (!strcmp(in->name, "root") || wm_sched_result(s, in->name, "total", &got))
            wrong += expect(s, in->name, "total", wm_word(total), report);
    }
    free(values);
    free(excl);
    free(incl);
    return wrong;
}
