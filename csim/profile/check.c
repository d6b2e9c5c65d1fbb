/* check.c: a profile is whole before a writer reads it. */
#include "profile/check.h"

#include <stdio.h>

/* The indices of the profile point inside it, and every PE has a name. */
bool wm_profile_check(const wm_profile *p, char *err, size_t err_size)
{
    for (size_t f = 0; f < p->nfuncs; f++)
        if (!p->funcs[f]) {
            snprintf(err, err_size, "profile: function %zu has no name", f);
            return false;
        }
    for (size_t i = 0; i < p->npes; i++) {
        const wm_prof_pe *pe = &p->pes[i];
        if (!pe->instance) {
            snprintf(err, err_size, "profile: PE %zu has no instance name", i);
            return false;
        }
        for (size_t k = 0; k < pe->nslices; k++) {
            const wm_prof_slice *s = &pe->slices[k];
            if (s->func >= p->nfuncs || s->kind >= WM_PROF_NKINDS || s->end < s->start) {
                snprintf(err, err_size, "profile: slice %zu of %s is not a slice of the profile", k, pe->instance);
                return false;
            }
        }
    }
    for (size_t m = 0; m < p->nmsgs; m++)
        if (p->msgs[m].from >= p->npes || p->msgs[m].to >= p->npes) {
            snprintf(err, err_size, "profile: message %zu names a PE outside the profile", m);
            return false;
        }
    for (size_t g = 0; g < p->npath; g++) {
        const wm_prof_segment *s = &p->path[g];
        if (s->pe >= p->npes || (s->kind == WM_SEG_MESSAGE && s->msg >= p->nmsgs) || s->end < s->start) {
            snprintf(err, err_size, "profile: segment %zu of the critical path is not a segment of the profile", g);
            return false;
        }
    }
    return true;
}
