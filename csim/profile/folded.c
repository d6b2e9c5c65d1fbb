/* folded.c: a profile as folded stacks (see timeline.h).
 *
 * One line per PE, function and kind with cycles in it:
 * "instance;function COUNT" for the cycles executing,
 * "instance;function;[stall TX] COUNT", "[stall RX]", "[start-up]" for the
 * others, so a flame graph shows each PE as a tower, its functions above
 * it and the waiting above the function that waited. The PEs come in
 * layout order, a PE's functions by name (bytes), a function's kinds in
 * the order of wm_prof_kind: the same profile, the same lines. A PE's
 * lines add up to its cycles from its start to its end, since its slices
 * tile that interval. */
#include "profile/check.h"
#include "profile/timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

static const char *const kind_frames[WM_PROF_NKINDS] = {NULL, "[stall TX]", "[stall RX]", "[start-up]"};

/* A frame: ';' separates frames and a line break ends the line, so both
 * become '_'. */
static void put_frame(FILE *out, const char *s)
{
    for (; *s; s++) fputc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

typedef struct {
    const char *name;
    uint32_t func;
} named_func;

static int by_name(const void *a, const void *b)
{
    const named_func *x = a, *y = b;
    const int c = strcmp(x->name, y->name);
    if (c) return c;
    return x->func < y->func ? -1 : x->func > y->func; /* two functions of one name keep their order */
}

bool wm_profile_write_folded(const wm_profile *p, FILE *out, char *err, size_t err_size)
{
    if (!wm_profile_check(p, err, err_size)) return false;
    /* The functions in name order, once for all PEs. */
    named_func *order = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);
    for (size_t f = 0; f < p->nfuncs; f++) order[f] = (named_func){p->funcs[f], (uint32_t)f};
    qsort(order, p->nfuncs, sizeof *order, by_name);
    uint64_t *cycles = wm_xcalloc((p->nfuncs ? p->nfuncs : 1) * WM_PROF_NKINDS, sizeof *cycles);
    for (size_t i = 0; i < p->npes; i++) {
        const wm_prof_pe *pe = &p->pes[i];
        memset(cycles, 0, (p->nfuncs ? p->nfuncs : 1) * WM_PROF_NKINDS * sizeof *cycles);
        for (size_t k = 0; k < pe->nslices; k++) {
            const wm_prof_slice *s = &pe->slices[k];
            cycles[(size_t)s->func * WM_PROF_NKINDS + s->kind] += s->end - s->start;
        }
        for (size_t o = 0; o < p->nfuncs; o++)
            for (size_t kind = 0; kind < WM_PROF_NKINDS; kind++) {
                const uint64_t c = cycles[(size_t)order[o].func * WM_PROF_NKINDS + kind];
                if (c == 0) continue;
                put_frame(out, pe->instance);
                fputc(';', out);
                put_frame(out, order[o].name);
                if (kind_frames[kind]) fprintf(out, ";%s", kind_frames[kind]);
                fprintf(out, " %" PRIu64 "\n", c);
            }
    }
    free(cycles);
    free(order);
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, err_size, "cannot write the folded stacks: %s", strerror(errno ? errno : EIO));
        return false;
    }
    return true;
}
