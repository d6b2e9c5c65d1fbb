/* stream_regress.c: firmware traffic scenarios (see stream_regress.h). */
#include "regress/stream_regress.h"

#include "run/layout.h"
#include "run/scheduler.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

const wm_stream_scenario wm_regress_stream_east = {1, 0, 6, 3};
const wm_stream_scenario wm_regress_stream_diagonal = {2, 1, 4, 7};
const wm_stream_scenario wm_regress_stream_long = {3, 2, 3, 40};

static uint32_t seed_of(unsigned x, unsigned y) { return 1000u * y + x + 1u; }

/* The sum of the data a PE sending from `seed` sends in all. */
static uint32_t sent_sum(uint32_t seed, unsigned count, unsigned len)
{
    uint32_t sum = 0, v = seed;
    for (unsigned i = 0; i < count * len; i++) {
        sum += v;
        v = v * 1103515245u + 12345u;
    }
    return sum;
}

static wm_layout *generate(unsigned w, unsigned h, const wm_stream_scenario *sc)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem) return NULL;
    fprintf(mem, "mesh %u %u\nregion all\n", w, h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) fprintf(mem, "at p%u_%u %u %u\n", x, y, x, y);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            fprintf(mem, "pe p%u_%u stream TOX=%u TOY=%u COUNT=%u LEN=%u EXPECT=%u SEED=%" PRIu32 "\n", x, y,
                    (x + sc->dx) % w, (y + sc->dy) % h, sc->count, sc->len, sc->count, seed_of(x, y));
    fclose(mem);
    wm_layout *l = wm_layout_parse(text, "generated stream", NULL, 0, stderr);
    free(text);
    return l;
}

bool wm_stream_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out)
{
    const wm_stream_scenario *sc = arg;
    wm_layout *l = generate(w, h, sc);
    if (!l) return false;
    wm_sched *s = wm_sched_create_mode(ops, f, l, WM_PE_CORE);
    if (!s) {
        wm_layout_destroy(l);
        return false;
    }
    const wm_run_result res = wm_sched_run(s, 1000000);
    wm_regress_result(out, "run result", (uint64_t)res);
    wm_regress_result(out, "cycles", wm_sched_cycle(s));
    bool sums_ok = res == WM_RUN_DONE;
    if (res != WM_RUN_DONE) wm_sched_report(s, res, stderr);
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        size_t n;
        const wm_export *e = wm_sched_pe_exports(s, i, &n);
        for (size_t k = 0; k < n; k++) wm_regress_result_pe(out, e[k].name, in->x, in->y, (uint64_t)e[k].value);
        const wm_core_status c = ops->core_status(f, in->x, in->y);
        wm_regress_result_pe(out, "core retired", in->x, in->y, c.retired);
        /* The sender of (x, y) is (x - DX, y - DY), wrapped. */
        const unsigned sx = (in->x + w - sc->dx % w) % w, sy = (in->y + h - sc->dy % h) % h;
        int64_t sum = -1;
        wm_sched_result(s, in->name, "sum", &sum);
        if ((uint32_t)sum != sent_sum(seed_of(sx, sy), sc->count, sc->len)) {
            fprintf(stderr, "regress: PE (%u,%u) received the sum %" PRIu32 ", PE (%u,%u) sent %" PRIu32 "\n", in->x,
                    in->y, (uint32_t)sum, sx, sy, sent_sum(seed_of(sx, sy), sc->count, sc->len));
            sums_ok = false;
        }
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    wm_sched_destroy(s);
    wm_layout_destroy(l);
    return sums_ok;
}
