/* critical_path.c: the walk back from the run's last event (see
 * critical_path.h). */
#include "profile/critical_path.h"

#include "core/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct {
    wm_prof_segment *v;
    size_t n, cap;
} seg_list;

static void push_seg(seg_list *l, wm_prof_segment s)
{
    if (s.start >= s.end) return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = wm_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s;
}

/* The message whose wavelet PE pe popped in cycle pop: the first of pe's
 * messages (by their last pop) popped whole at or after it; -1 if none. */
static long message_of_pop(const wm_profile *p, size_t pe, uint64_t pop)
{
    long best = -1;
    for (size_t k = 0; k < p->nmsgs; k++) {
        const wm_prof_msg *m = &p->msgs[k];
        if (m->to != pe || m->received < pop) continue;
        if (best < 0 || m->received < p->msgs[best].received) best = (long)k;
    }
    return best;
}

void wm_profile_critical_path(wm_profile *p)
{
    free(p->path);
    p->path = NULL;
    p->npath = 0;
    if (!p->npes) return;
    size_t pe = 0, ending = 0;
    for (size_t i = p->npes; i-- > 0;)
        if (p->pes[i].end == p->last_event) {
            pe = i;
            ending++;
        }
    p->path_end_ties = ending ? ending - 1 : 0;
    uint64_t t = p->last_event;
    seg_list back = {0};
    for (;;) {
        const wm_prof_pe *q = &p->pes[pe];
        long found = -1;
        for (size_t k = q->nslices; k-- > 0 && found < 0;) {
            const wm_prof_slice *s = &q->slices[k];
            if (s->kind != WM_PROF_STALL_RX || s->end > t) continue;
            const long m = message_of_pop(p, pe, s->end);
            if (m >= 0 && p->msgs[m].received <= t && p->msgs[m].sent < p->msgs[m].received) found = m;
        }
        if (found < 0) {
            push_seg(&back, (wm_prof_segment){WM_SEG_COMPUTE, (uint32_t)pe, 0, 0, t});
            break;
        }
        const wm_prof_msg *m = &p->msgs[found];
        push_seg(&back, (wm_prof_segment){WM_SEG_COMPUTE, (uint32_t)pe, 0, m->received, t});
        push_seg(&back, (wm_prof_segment){WM_SEG_MESSAGE, (uint32_t)pe, (uint32_t)found, m->sent, m->received});
        t = m->sent;
        pe = m->from;
        if (t == 0) break;
    }
    p->path = wm_xmalloc((back.n ? back.n : 1) * sizeof *p->path);
    for (size_t k = 0; k < back.n; k++) p->path[k] = back.v[back.n - 1 - k];
    p->npath = back.n;
    free(back.v);
}
