/* run_notes.c: markers, ports used and senders of a run (see run_notes.h). */
#include "run/run_notes.h"

#include "run/heatmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wm_run_notes {
    wm_heatmap *map;
    bool rooted;
    char why[160]; /* why a rooted run has no sweep markers */
    uint32_t *headers; /* distinct headers sent ... */
    char **senders;    /* ... and who sent each, "l0" or "l0,root" */
    size_t n, cap;
};

wm_run_notes *wm_run_notes_create(const wm_layout *layout)
{
    wm_run_notes *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    const wm_instance *root = wm_layout_find(layout, "root");
    n->rooted = root != NULL;
    n->map = wm_heatmap_create(wm_layout_width(layout), wm_layout_height(layout), root != NULL, root ? root->x : 0,
                               root ? root->y : 0);
    if (!n->map) {
        free(n);
        return NULL;
    }
    return n;
}

void wm_run_notes_destroy(wm_run_notes *n)
{
    if (!n) return;
    wm_heatmap_destroy(n->map);
    for (size_t k = 0; k < n->n; k++) free(n->senders[k]);
    free(n->senders);
    free(n->headers);
    free(n);
}

void wm_run_notes_link(void *ctx, const wm_link_event *ev) { wm_heatmap_record(((wm_run_notes *)ctx)->map, ev); }

/* Is name one of the comma-separated names of list? */
static bool listed(const char *list, const char *name)
{
    const size_t len = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += len)
        if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len])) return true;
    return false;
}

void wm_run_notes_send(wm_run_notes *n, const wm_sched *sched, size_t pe, uint32_t header)
{
    const char *name = wm_sched_pe_instance(sched, pe)->name;
    size_t k = 0;
    while (k < n->n && n->headers[k] != header) k++;
    if (k < n->n) {
        if (listed(n->senders[k], name)) return;
        char *grown = malloc(strlen(n->senders[k]) + strlen(name) + 2);
        if (!grown) return;
        sprintf(grown, "%s,%s", n->senders[k], name);
        free(n->senders[k]);
        n->senders[k] = grown;
        return;
    }
    if (n->n == n->cap) {
        const size_t cap = n->cap ? 2 * n->cap : 16;
        uint32_t *h = realloc(n->headers, cap * sizeof *h);
        if (h) n->headers = h;
        char **s = h ? realloc(n->senders, cap * sizeof *s) : NULL;
        if (!s) return;
        n->senders = s;
        n->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) return;
    n->headers[n->n] = header;
    n->senders[n->n++] = copy;
}

void wm_run_notes_finish(wm_run_notes *n, wm_gtkw_markers *out)
{
    wm_heatmap_finish(n->map);
    memset(out, 0, sizeof *out);
    out->headers = n->headers;
    out->senders = (const char *const *)n->senders;
    out->nsent = n->n;
    if (!n->rooted) return;
    /* The phases are a tree's sweeps when wavelets reached the root's PE
     * and others moved after its last one; otherwise the save file says
     * which of the two is missing. */
    if (wm_heatmap_phase_start(n->map, 0) == UINT64_MAX) {
        snprintf(n->why, sizeof n->why,
                 "no sweep markers: the root's PE received no wavelet, so no up-sweep ends there");
        out->no_markers_why = n->why;
    } else if (wm_heatmap_phase_start(n->map, 1) == UINT64_MAX) {
        snprintf(n->why, sizeof n->why,
                 "no sweep markers: no wavelet moved after the root's last receive (cycle %llu), so no down-sweep "
                 "follows it",
                 (unsigned long long)wm_heatmap_phase_end(n->map, 0));
        out->no_markers_why = n->why;
    } else {
        out->has_markers = true;
        out->a = wm_heatmap_phase_end(n->map, 0);
        out->b = wm_heatmap_phase_start(n->map, 1);
        out->a_text = "the up-sweep's last receive (root's ramp)";
        out->b_text = "the down-sweep's first wavelet on a link";
    }
}

unsigned wm_run_notes_used_ports(const wm_run_notes *n, unsigned x, unsigned y)
{
    unsigned used = 0;
    for (size_t ph = 0; ph < wm_heatmap_phases(n->map); ph++)
        for (unsigned p = 0; p < WM_NPORTS; p++)
            if (wm_heatmap_count(n->map, ph, x, y, (wm_port)p)) used |= 1u << p;
    return used;
}
