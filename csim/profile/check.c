/* check.c: a profile is whole before a writer reads it, and it obeys the
 * invariants of its parts (check.h). */
#include "profile/check.h"

#include "core/xalloc.h"
#include "profile/table.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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

/* How a report names segment k: "segment K (message M from A to B)" or
 * "segment K (compute on A)". */
static void describe_segment(const wm_profile *p, size_t k, char *out, size_t size)
{
    const wm_prof_segment *s = &p->path[k];
    if (s->kind == WM_SEG_MESSAGE)
        snprintf(out, size, "segment %zu (message %u from %s to %s)", k, s->msg, p->pes[p->msgs[s->msg].from].instance,
                 p->pes[s->pe].instance);
    else
        snprintf(out, size, "segment %zu (compute on %s)", k, p->pes[s->pe].instance);
}

/* The PE a segment ends on: compute's PE, a message's receiver; and the
 * PE it starts on: compute's PE, a message's sender. */
static uint32_t segment_ends_on(const wm_prof_segment *s)
{
    return s->pe;
}
static uint32_t segment_starts_on(const wm_profile *p, const wm_prof_segment *s)
{
    return s->kind == WM_SEG_MESSAGE ? p->msgs[s->msg].from : s->pe;
}

static bool check_pes(const wm_profile *p, char *err, size_t err_size)
{
    uint64_t *cycles = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * WM_PROF_NKINDS * sizeof *cycles);
    uint64_t spans = 0;
    bool ok = true;
    for (size_t i = 0; i < p->npes && ok; i++) {
        const wm_prof_pe *pe = &p->pes[i];
        uint64_t at = pe->start;
        for (size_t k = 0; k < pe->nslices && ok; k++) {
            const wm_prof_slice *s = &pe->slices[k];
            if (s->start != at) {
                snprintf(err, err_size, "profile: %s: slice %zu starts at cycle %" PRIu64 ", not at %" PRIu64 " (%s)",
                         pe->instance, k, s->start, at, k ? "where the slice before it ends" : "where the PE starts");
                ok = false;
            } else if (s->end <= s->start) {
                snprintf(err, err_size, "profile: %s: slice %zu is empty (cycle %" PRIu64 ")", pe->instance, k,
                         s->start);
                ok = false;
            }
            at = s->end;
        }
        if (!ok) break;
        if (at != pe->end) {
            snprintf(err, err_size, "profile: %s: its slices end at cycle %" PRIu64 ", the PE at %" PRIu64,
                     pe->instance, at, pe->end);
            ok = false;
        } else if (pe->end > p->last_event) {
            snprintf(err, err_size, "profile: %s ends at cycle %" PRIu64 ", after the run's last event at %" PRIu64,
                     pe->instance, pe->end, p->last_event);
            ok = false;
        } else {
            wm_profile_tally(p, i, cycles);
            uint64_t total = 0;
            for (size_t c = 0; c < p->nfuncs * WM_PROF_NKINDS; c++) total += cycles[c];
            if (total != pe->end - pe->start) {
                snprintf(err, err_size, "profile: %s: its table adds up to %" PRIu64 " cycles, its span is %" PRIu64,
                         pe->instance, total, pe->end - pe->start);
                ok = false;
            }
            spans += pe->end - pe->start;
        }
    }
    if (ok) {
        wm_profile_tally(p, p->npes, cycles);
        uint64_t total = 0;
        for (size_t c = 0; c < p->nfuncs * WM_PROF_NKINDS; c++) total += cycles[c];
        if (total != spans) {
            snprintf(err, err_size, "profile: the run's table adds up to %" PRIu64 " cycles, its PEs' spans to %" PRIu64,
                     total, spans);
            ok = false;
        }
    }
    free(cycles);
    return ok;
}

static bool check_messages(const wm_profile *p, char *err, size_t err_size)
{
    for (size_t m = 0; m < p->nmsgs; m++) {
        const wm_prof_msg *g = &p->msgs[m];
        if (g->received <= g->sent) {
            snprintf(err, err_size, "profile: message %zu from %s to %s is received at cycle %" PRIu64
                     ", not after its send at %" PRIu64, m, p->pes[g->from].instance, p->pes[g->to].instance,
                     g->received, g->sent);
            return false;
        }
        if (m && (g->sent < p->msgs[m - 1].sent)) {
            snprintf(err, err_size, "profile: message %zu is sent at cycle %" PRIu64 ", before message %zu (%" PRIu64 ")",
                     m, g->sent, m - 1, p->msgs[m - 1].sent);
            return false;
        }
    }
    return true;
}

static bool check_path(const wm_profile *p, char *err, size_t err_size)
{
    char seg[200], before[200];
    if (!p->npes || !p->last_event) {
        if (p->npath) {
            snprintf(err, err_size, "profile: critical path: %zu segments in a run without %s", p->npath,
                     p->npes ? "a cycle" : "a PE");
            return false;
        }
        return true;
    }
    if (!p->npath) {
        snprintf(err, err_size, "profile: critical path: no segment, the run's last event at cycle %" PRIu64,
                 p->last_event);
        return false;
    }
    uint64_t at = 0;
    for (size_t k = 0; k < p->npath; k++) {
        const wm_prof_segment *s = &p->path[k];
        describe_segment(p, k, seg, sizeof seg);
        if (s->start != at) {
            snprintf(err, err_size, "profile: critical path: %s starts at cycle %" PRIu64 ", not at %" PRIu64 " (%s)",
                     seg, s->start, at, k ? "where the segment before it ends" : "cycle 0");
            return false;
        }
        if (s->end <= s->start) {
            snprintf(err, err_size, "profile: critical path: %s is empty (cycle %" PRIu64 ")", seg, s->start);
            return false;
        }
        if (s->kind == WM_SEG_MESSAGE) {
            const wm_prof_msg *m = &p->msgs[s->msg];
            if (s->pe != m->to || s->start != m->sent || s->end != m->received) {
                snprintf(err, err_size, "profile: critical path: %s is not its message: [%" PRIu64 ", %" PRIu64
                         ") to %s, the message [%" PRIu64 ", %" PRIu64 ") to %s", seg, s->start, s->end,
                         p->pes[s->pe].instance, m->sent, m->received, p->pes[m->to].instance);
                return false;
            }
        }
        if (k) {
            const wm_prof_segment *b = &p->path[k - 1];
            describe_segment(p, k - 1, before, sizeof before);
            if (b->kind == WM_SEG_COMPUTE && s->kind == WM_SEG_COMPUTE) {
                snprintf(err, err_size, "profile: critical path: %s follows %s: compute and message do not alternate",
                         seg, before);
                return false;
            }
            if (segment_starts_on(p, s) != segment_ends_on(b)) {
                snprintf(err, err_size, "profile: critical path: %s follows %s, which ends on %s", seg, before,
                         p->pes[segment_ends_on(b)].instance);
                return false;
            }
        }
        at = s->end;
    }
    if (at != p->last_event) {
        snprintf(err, err_size, "profile: critical path: it ends at cycle %" PRIu64 ", the run's last event is at %" PRIu64,
                 at, p->last_event);
        return false;
    }
    if (wm_profile_path_cycles(p) != p->last_event) {
        snprintf(err, err_size, "profile: critical path: its segments add up to %" PRIu64 " cycles, the run has %" PRIu64,
                 wm_profile_path_cycles(p), p->last_event);
        return false;
    }
    for (size_t i = 0; i < p->npes; i++)
        if (p->pes[i].end == p->last_event) {
            const uint32_t last = segment_ends_on(&p->path[p->npath - 1]);
            if (last != i) {
                snprintf(err, err_size, "profile: critical path: it ends on %s, the first PE to end at the run's last"
                         " event is %s", p->pes[last].instance, p->pes[i].instance);
                return false;
            }
            break;
        }
    return true;
}

bool wm_profile_check_invariants(const wm_profile *p, char *err, size_t err_size)
{
    return wm_profile_check(p, err, err_size) && check_pes(p, err, err_size) && check_messages(p, err, err_size) &&
           check_path(p, err, err_size);
}
