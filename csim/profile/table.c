/* table.c: a profile as text and CSV (see table.h). */
#include "profile/table.h"

#include "core/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_heads[WM_PROF_NKINDS] = {"exec", "stall TX", "stall RX", "start-up"};
static const char *const kind_csv[WM_PROF_NKINDS] = {"exec", "stall_tx", "stall_rx", "startup"};

void wm_profile_tally(const wm_profile *p, size_t pe, uint64_t *cycles)
{
    memset(cycles, 0, p->nfuncs * WM_PROF_NKINDS * sizeof *cycles);
    /* one PE's slices only: a table a PE must not cost the whole run */
    const size_t first = pe == p->npes ? 0 : pe, last = pe == p->npes ? p->npes : pe + 1;
    for (size_t i = first; i < last; i++) {
        const wm_prof_pe *q = &p->pes[i];
        for (size_t k = 0; k < q->nslices; k++) {
            const wm_prof_slice *s = &q->slices[k];
            cycles[(size_t)s->func * WM_PROF_NKINDS + s->kind] += s->end - s->start;
        }
    }
}

static uint64_t func_total(const uint64_t *cycles, size_t f)
{
    uint64_t t = 0;
    for (int k = 0; k < WM_PROF_NKINDS; k++) t += cycles[f * WM_PROF_NKINDS + k];
    return t;
}

typedef struct {
    uint64_t total;
    size_t func;
} ranked;

static int compare_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->total != b->total) return a->total > b->total ? -1 : 1;
    return a->func < b->func ? -1 : a->func > b->func;
}

/* The functions with cycles, most first; how many. */
static size_t rank_funcs(const wm_profile *p, const uint64_t *cycles, ranked *out)
{
    size_t n = 0;
    for (size_t f = 0; f < p->nfuncs; f++) {
        const uint64_t t = func_total(cycles, f);
        if (t) out[n++] = (ranked){t, f};
    }
    qsort(out, n, sizeof *out, compare_ranked);
    return n;
}

static void print_table(const wm_profile *p, const uint64_t *cycles, FILE *out)
{
    ranked *order = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);
    const size_t n = rank_funcs(p, cycles, order);
    int width = (int)strlen("function");
    for (size_t i = 0; i < n; i++) {
        const int w = (int)strlen(p->funcs[order[i].func]);
        if (w > width) width = w;
    }
    fprintf(out, "  %-*s", width, "function");
    for (int k = 0; k < WM_PROF_NKINDS; k++) fprintf(out, " %9s", kind_heads[k]);
    fprintf(out, " %9s\n", "total");
    uint64_t sums[WM_PROF_NKINDS] = {0}, all = 0;
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %-*s", width, p->funcs[order[i].func]);
        for (int k = 0; k < WM_PROF_NKINDS; k++) {
            const uint64_t c = cycles[order[i].func * WM_PROF_NKINDS + k];
            fprintf(out, " %9" PRIu64, c);
            sums[k] += c;
        }
        fprintf(out, " %9" PRIu64 "\n", order[i].total);
        all += order[i].total;
    }
    fprintf(out, "  %-*s", width, "total");
    for (int k = 0; k < WM_PROF_NKINDS; k++) fprintf(out, " %9" PRIu64, sums[k]);
    fprintf(out, " %9" PRIu64 "\n", all);
    free(order);
}

/* A PE's cycles in each kind of slice. */
static void kinds_of(const wm_prof_pe *q, uint64_t by[WM_PROF_NKINDS])
{
    memset(by, 0, WM_PROF_NKINDS * sizeof *by);
    for (size_t k = 0; k < q->nslices; k++) by[q->slices[k].kind] += q->slices[k].end - q->slices[k].start;
}

typedef struct {
    uint64_t exec;
    size_t pe;
} by_exec;

static int compare_by_exec(const void *x, const void *y)
{
    const by_exec *a = x, *b = y;
    if (a->exec != b->exec) return a->exec > b->exec ? -1 : 1;
    return a->pe < b->pe ? -1 : a->pe > b->pe;
}

static void print_pes(const wm_profile *p, const by_exec *v, size_t n, FILE *out)
{
    for (size_t i = 0; i < n; i++) {
        const wm_prof_pe *q = &p->pes[v[i].pe];
        fprintf(out, "%s %s (%u,%u) %" PRIu64 " of %" PRIu64, i ? "," : "", q->instance, q->x, q->y, v[i].exec,
                q->end - q->start);
    }
    fputc('\n', out);
}

/* Past WM_PROFILE_TABLES_MAX PEs, instead of a table a PE: the busiest
 * and the idlest PEs by cycles executing, and how the PEs' time splits
 * between the kinds, as a histogram over the PEs. */
static void print_summary(const wm_profile *p, FILE *out)
{
    enum { SHOWN = 5, BINS = 10 };
    by_exec *v = wm_xmalloc(p->npes * sizeof *v);
    size_t hist[WM_PROF_NKINDS][BINS] = {{0}};
    for (size_t i = 0; i < p->npes; i++) {
        uint64_t by[WM_PROF_NKINDS];
        kinds_of(&p->pes[i], by);
        v[i] = (by_exec){by[WM_PROF_EXEC], i};
        const uint64_t span = p->pes[i].end - p->pes[i].start;
        for (int k = 0; k < WM_PROF_NKINDS; k++) {
            const unsigned bin = span ? (unsigned)(by[k] * BINS / span) : 0;
            hist[k][bin < BINS ? bin : BINS - 1]++;
        }
    }
    qsort(v, p->npes, sizeof *v, compare_by_exec);
    const size_t shown = p->npes < SHOWN ? p->npes : SHOWN;
    fprintf(out,
            "per-PE tables: %zu PEs, more than %d, so a summary (--csv FILE writes every PE's rows; the critical "
            "path below names its PEs)\n",
            p->npes, WM_PROFILE_TABLES_MAX);
    fprintf(out, "busiest PEs (cycles executing of the PE's span):");
    print_pes(p, v, shown, out);
    by_exec idle[SHOWN];
    for (size_t i = 0; i < shown; i++) idle[i] = v[p->npes - 1 - i];
    fprintf(out, "idlest PEs (cycles executing of the PE's span):");
    print_pes(p, idle, shown, out);
    fprintf(out, "PEs by the share of their span in each kind:\n  %-9s", "");
    for (int b = 0; b < BINS; b++) fprintf(out, " %4d-%-3d", 100 * b / BINS, b + 1 < BINS ? 100 * (b + 1) / BINS : 100);
    fputc('\n', out);
    for (int k = 0; k < WM_PROF_NKINDS; k++) {
        fprintf(out, "  %-9s", kind_heads[k]);
        for (int b = 0; b < BINS; b++) fprintf(out, " %8zu", hist[k][b]);
        fputc('\n', out);
    }
    fputc('\n', out);
    free(v);
}

void wm_profile_print_tables(const wm_profile *p, FILE *out)
{
    uint64_t *cycles = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * WM_PROF_NKINDS * sizeof *cycles);
    uint64_t all = 0;
    const bool each = p->npes <= WM_PROFILE_TABLES_MAX;
    for (size_t i = 0; i < p->npes; i++) {
        const wm_prof_pe *q = &p->pes[i];
        all += q->end - q->start;
        if (!each) continue;
        fprintf(out, "PE %s (%u,%u): cycles %" PRIu64 "..%" PRIu64 ", %" PRIu64 " cycles\n", q->instance, q->x, q->y,
                q->start, q->end, q->end - q->start);
        wm_profile_tally(p, i, cycles);
        print_table(p, cycles, out);
        fputc('\n', out);
    }
    if (!each) print_summary(p, out);
    fprintf(out, "all %zu PEs (%s): %" PRIu64 " cycles\n", p->npes, p->mode, all);
    wm_profile_tally(p, p->npes, cycles);
    print_table(p, cycles, out);
    free(cycles);
    uint64_t wavelets = 0, hops = 0, flight = 0;
    for (size_t k = 0; k < p->nmsgs; k++) {
        wavelets += p->msgs[k].len + 1u;
        hops += p->msgs[k].hops;
        flight += p->msgs[k].received - p->msgs[k].sent;
    }
    fprintf(out,
            "\nmessages: %zu, %" PRIu64 " wavelets, %" PRIu64 " hops, %" PRIu64
            " cycles from header push to last pop in all\n",
            p->nmsgs, wavelets, hops, flight);
}

/* "in F1 n1, F2 n2": PE pe's cycles in [a, b) by function, most first. */
static void print_functions(const wm_profile *p, size_t pe, uint64_t a, uint64_t b, FILE *out)
{
    uint64_t *by = wm_xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof *by);
    const wm_prof_pe *q = &p->pes[pe];
    for (size_t k = 0; k < q->nslices; k++) {
        const wm_prof_slice *s = &q->slices[k];
        const uint64_t lo = s->start > a ? s->start : a, hi = s->end < b ? s->end : b;
        if (lo < hi) by[s->func] += hi - lo;
    }
    ranked *order = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);
    size_t n = 0;
    for (size_t f = 0; f < p->nfuncs; f++)
        if (by[f]) order[n++] = (ranked){by[f], f};
    qsort(order, n, sizeof *order, compare_ranked);
    uint64_t covered = 0;
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s%s %" PRIu64, i ? ", " : " (in ", p->funcs[order[i].func], order[i].total);
        covered += order[i].total;
    }
    if (covered < b - a) fprintf(out, "%sbefore its start %" PRIu64, n ? ", " : " (", b - a - covered);
    fputc(')', out);
    free(order);
    free(by);
}

uint64_t wm_profile_path_cycles(const wm_profile *p)
{
    uint64_t n = 0;
    for (size_t k = 0; k < p->npath; k++) n += p->path[k].end - p->path[k].start;
    return n;
}

void wm_profile_print_path(const wm_profile *p, FILE *out)
{
    fprintf(out, "critical path:\n");
    for (size_t k = 0; k < p->npath; k++) {
        const wm_prof_segment *s = &p->path[k];
        const uint64_t n = s->end - s->start;
        if (s->kind == WM_SEG_COMPUTE) {
            const wm_prof_pe *q = &p->pes[s->pe];
            fprintf(out, "  compute on %s (%u,%u) cycles %" PRIu64 "..%" PRIu64 ": %" PRIu64 " cycles", q->instance,
                    q->x, q->y, s->start, s->end, n);
            print_functions(p, s->pe, s->start, s->end, out);
            fputc('\n', out);
        } else {
            const wm_prof_msg *m = &p->msgs[s->msg];
            const wm_prof_pe *a = &p->pes[m->from], *b = &p->pes[m->to];
            fprintf(out,
                    "  message %s (%u,%u) -> %s (%u,%u), header pushed at %" PRIu64 ", last wavelet popped at %" PRIu64
                    ": %" PRIu64 " cycles, %u hop%s, %u wavelet%s\n",
                    a->instance, a->x, a->y, b->instance, b->x, b->y, m->sent, m->received, n, m->hops,
                    m->hops == 1 ? "" : "s", m->len + 1u, m->len ? "s" : "");
        }
    }
    if (p->path_end_ties && p->npath) {
        const wm_prof_pe *q = &p->pes[p->path[p->npath - 1].pe];
        fprintf(out,
                "critical path: a tie: %zu other PE%s end%s at cycle %" PRIu64 " with %s (%u,%u); the path is walked "
                "back from %s, the first in layout order\n",
                p->path_end_ties, p->path_end_ties == 1 ? "" : "s", p->path_end_ties == 1 ? "s" : "", p->last_event,
                q->instance, q->x, q->y, q->instance);
    }
    fprintf(out, "critical path: %" PRIu64 " cycles in %zu segment%s; the run's last event at cycle %" PRIu64 "\n",
            wm_profile_path_cycles(p), p->npath, p->npath == 1 ? "" : "s", p->last_event);
}

bool wm_profile_write_csv(const wm_profile *p, FILE *out, char *err, size_t err_size)
{
    uint64_t *cycles = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * WM_PROF_NKINDS * sizeof *cycles);
    ranked *order = wm_xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);
    fprintf(out, "pe,x,y,function");
    for (int k = 0; k < WM_PROF_NKINDS; k++) fprintf(out, ",%s", kind_csv[k]);
    fprintf(out, ",total\n");
    for (size_t i = 0; i <= p->npes; i++) {
        wm_profile_tally(p, i, cycles);
        const size_t n = rank_funcs(p, cycles, order);
        for (size_t r = 0; r < n; r++) {
            if (i < p->npes)
                fprintf(out, "%s,%u,%u,%s", p->pes[i].instance, p->pes[i].x, p->pes[i].y, p->funcs[order[r].func]);
            else
                fprintf(out, "all,,,%s", p->funcs[order[r].func]);
            for (int k = 0; k < WM_PROF_NKINDS; k++)
                fprintf(out, ",%" PRIu64, cycles[order[r].func * WM_PROF_NKINDS + k]);
            fprintf(out, ",%" PRIu64 "\n", order[r].total);
        }
    }
    free(order);
    free(cycles);
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, err_size, "%s", strerror(errno));
        return false;
    }
    return true;
}

uint64_t wm_profile_digest(const wm_profile *p)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem) return 0;
    wm_profile_print_tables(p, mem);
    wm_profile_print_path(p, mem);
    fclose(mem);
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < size; i++) h = (h ^ (uint8_t)text[i]) * 1099511628211ull;
    free(text);
    return h;
}
