/* mem_report.c: where a run's memory goes, per PE; see mem_report.h. Part
 * of the scheduler's base: it reads the scheduler's own state. */
#include "run/mem_report.h"

#include "run/scheduler_internal.h"

#include <string.h>
#include <sys/resource.h>

void wm_mem_report_take(const wm_sched *s, wm_mem_report *out)
{
    memset(out, 0, sizeof *out);
    out->pes = s->n;
    out->w = wm_layout_width(s->layout);
    out->h = wm_layout_height(s->layout);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) out->peak = (size_t)ru.ru_maxrss * 1024; /* Linux counts KiB */
    if (s->ops->memory) {
        s->ops->memory(s->f, &out->fabric);
        out->fabric_told = true;
        out->ram_own = out->fabric.ram_own;
        out->ram_shared = out->fabric.ram_shared;
    }
    if (s->stacks) out->stack = wm_stacks_resident(s->stacks);
    size_t sched = sizeof *s + s->n * (sizeof *s->pes + sizeof *s->live) + s->snap_cap * 2 * sizeof *s->snap +
                   wm_msg_flight_bytes(&s->msgs);
    if (s->cos) sched += s->n * sizeof *s->cos;
    if (s->waits) sched += s->n * (sizeof *s->waits + sizeof *s->wakes);
    if (s->cpes) sched += s->n * sizeof *s->cpes;
    if (s->core_last_event) sched += s->msgs.ntiles * sizeof *s->core_last_event;
    for (size_t i = 0; i < s->n; i++) {
        sched += s->pes[i].cap_exports * sizeof *s->pes[i].exports;
        if (s->pes[i].fault) sched += FAULT_TEXT;
        if (s->pes[i].mem_owned) out->data += WM_PE_DATA_BYTES;
    }
    for (size_t i = 0; i < s->nfws; i++) sched += sizeof s->fws[i] + s->fws[i].n;
    out->scheduler = sched;
}

double wm_mem_report_beyond(const wm_mem_report *r)
{
    const double touched = (double)(r->ram_own + r->ram_shared + r->stack);
    return r->pes ? ((double)r->peak - touched) / (double)r->pes : 0;
}

static void row(FILE *out, const char *what, double bytes, size_t pes, const char *note)
{
    fprintf(out, "  %-22s %8.0f%s%s\n", what, pes ? bytes / (double)pes : 0, note[0] ? "   " : "", note);
}

void wm_mem_report_print(const wm_mem_report *r, FILE *out)
{
    const size_t n = r->pes;
    const wm_fabric_memory *f = &r->fabric;
    fprintf(out, "memory: %zu PEs on %ux%u tiles, peak resident %.1f MiB; bytes a PE:\n", n, r->w, r->h,
            (double)r->peak / (1024.0 * 1024.0));
    char note[160];
    snprintf(note, sizeof note, "pages written by one PE %.1f MiB, shared pages %.1f KiB, each counted once",
             (double)r->ram_own / (1024.0 * 1024.0), (double)r->ram_shared / 1024.0);
    row(out, "RAM touched", (double)(r->ram_own + r->ram_shared), n, r->ram_own + r->ram_shared ? note : "");
    row(out, "stack touched", (double)r->stack, n, r->stack ? "resident pages of the kernels' stacks" : "");
    const double beyond = wm_mem_report_beyond(r) * (double)n;
    row(out, "beyond them", beyond, n, "the peak less the RAM and stack touched:");
    double rest = beyond;
    if (r->fabric_told) {
        row(out, "  ISS state", (double)f->cores, n, "");
        row(out, "  router state", (double)f->routers, n, "per tile, tiles without a PE too");
        row(out, "  queues", (double)f->queues, n, "TX and RX, per tile");
        row(out, "  RAM spare pages", (double)f->ram_spare, n, "");
        row(out, "  fabric records", (double)f->fabric, n, "active sets, event records");
        rest -= (double)(f->cores + f->routers + f->queues + f->ram_spare + f->fabric);
    }
    row(out, "  data memory", (double)r->data, n, "");
    row(out, "  scheduler", (double)r->scheduler, n, "");
    rest -= (double)(r->data + r->scheduler);
    row(out, "  the rest", rest, n,
        r->fabric_told ? "the layout, the program, the allocator's slack"
                       : "the backend's state (not told by it), the layout, the program");
}
