/* heatmap.c: link use per direction, phase by phase (see heatmap.h). */
#include "run/heatmap.h"

#include "core/xalloc.h"
#include "waves/gnuplot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_PHASES = 256 };

struct wm_heatmap {
    unsigned w, h;
    bool split;
    unsigned sx, sy;
    bool staged;
    unsigned tag_shift;
    size_t nphases;              /* staged: one past the last stage seen */
    uint32_t *left;              /* staged: data wavelets left of the message on each register */
    uint8_t *stage;              /* staged: that message's stage */
    uint64_t *count[MAX_PHASES]; /* [(y * w + x) * WM_NPORTS + port] */
    uint64_t *pending;           /* since the split PE's last delivery */
    uint64_t end[MAX_PHASES], pending_end;
    uint64_t start[MAX_PHASES], pending_start;
};

wm_heatmap *wm_heatmap_create(unsigned w, unsigned h, bool split_pe, unsigned split_x, unsigned split_y)
{
    wm_heatmap *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    const size_t cells = (size_t)w * h * WM_NPORTS;
    m->w = w;
    m->h = h;
    m->split = split_pe;
    m->sx = split_x;
    m->sy = split_y;
    m->start[0] = m->start[1] = m->pending_start = UINT64_MAX;
    m->count[0] = calloc(cells, sizeof(uint64_t));
    m->count[1] = calloc(cells, sizeof(uint64_t));
    m->pending = calloc(cells, sizeof(uint64_t));
    if (!m->count[0] || !m->count[1] || !m->pending) {
        wm_heatmap_destroy(m);
        return NULL;
    }
    return m;
}

wm_heatmap *wm_heatmap_create_staged(unsigned w, unsigned h, unsigned tag_shift)
{
    wm_heatmap *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    const size_t cells = (size_t)w * h * WM_NPORTS;
    m->w = w;
    m->h = h;
    m->staged = true;
    m->tag_shift = tag_shift;
    m->start[0] = m->start[1] = m->pending_start = UINT64_MAX;
    m->left = calloc(cells, sizeof *m->left);
    m->stage = calloc(cells, sizeof *m->stage);
    if (!m->left || !m->stage) {
        wm_heatmap_destroy(m);
        return NULL;
    }
    return m;
}

void wm_heatmap_destroy(wm_heatmap *m)
{
    if (!m) return;
    for (size_t p = 0; p < MAX_PHASES; p++) free(m->count[p]);
    free(m->pending);
    free(m->left);
    free(m->stage);
    free(m);
}

/* Staged: the wavelet counts in its message's stage. */
static void record_staged(wm_heatmap *m, size_t i, const wm_link_event *ev)
{
    if (m->left[i] == 0) {
        m->stage[i] = (uint8_t)(wm_header_tag(ev->data) >> m->tag_shift);
        m->left[i] = wm_header_len(ev->data);
    } else {
        m->left[i]--;
    }
    const size_t p = m->stage[i];
    if (!m->count[p] && !(m->count[p] = calloc((size_t)m->w * m->h * WM_NPORTS, sizeof(uint64_t)))) return;
    m->count[p][i]++;
    if (p + 1 > m->nphases) m->nphases = p + 1;
}

void wm_heatmap_record(void *ctx, const wm_link_event *ev)
{
    wm_heatmap *m = ctx;
    if (ev->x >= m->w || ev->y >= m->h || ev->port >= WM_NPORTS) return;
    const size_t i = ((size_t)ev->y * m->w + ev->x) * WM_NPORTS + ev->port;
    if (m->staged) {
        record_staged(m, i, ev);
        return;
    }
    if (!m->split) {
        m->count[0][i]++;
        if (m->start[0] == UINT64_MAX) m->start[0] = ev->cycle;
        m->end[0] = ev->cycle;
        return;
    }
    m->pending[i]++;
    if (m->pending_start == UINT64_MAX) m->pending_start = ev->cycle;
    m->pending_end = ev->cycle;
    /* A delivery to the split PE: everything so far is the first phase. */
    if (ev->port == WM_PORT_L && ev->x == m->sx && ev->y == m->sy) {
        const size_t cells = (size_t)m->w * m->h * WM_NPORTS;
        for (size_t k = 0; k < cells; k++) {
            m->count[0][k] += m->pending[k];
            m->pending[k] = 0;
        }
        if (m->start[0] == UINT64_MAX) m->start[0] = m->pending_start;
        m->pending_start = UINT64_MAX;
        m->end[0] = ev->cycle;
    }
}

void wm_heatmap_finish(wm_heatmap *m)
{
    if (!m->split || m->staged) return;
    const size_t cells = (size_t)m->w * m->h * WM_NPORTS;
    for (size_t k = 0; k < cells; k++) {
        m->count[1][k] += m->pending[k];
        m->pending[k] = 0;
    }
    m->end[1] = m->pending_end;
    m->start[1] = m->pending_start;
}

void wm_heatmap_sum_staged(wm_heatmap *m, wm_heatmap_summer sum, void *ctx)
{
    /* which stages any rank saw, then the counts of those */
    uint64_t seen[MAX_PHASES];
    for (size_t p = 0; p < MAX_PHASES; p++) seen[p] = m->count[p] != NULL;
    sum(ctx, seen, MAX_PHASES);
    const size_t cells = (size_t)m->w * m->h * WM_NPORTS;
    for (size_t p = 0; p < MAX_PHASES; p++) {
        if (!seen[p]) continue;
        if (!m->count[p]) m->count[p] = wm_xcalloc(cells, sizeof(uint64_t));
        sum(ctx, m->count[p], cells);
        if (p + 1 > m->nphases) m->nphases = p + 1;
    }
}

size_t wm_heatmap_phases(const wm_heatmap *m)
{
    if (m->staged) return m->nphases;
    return m->split ? 2 : 1;
}

const char *wm_heatmap_phase_name(const wm_heatmap *m, size_t phase)
{
    static char names[MAX_PHASES][12];
    if (m->staged) {
        snprintf(names[phase], sizeof names[phase], "stage%zu", phase);
        return names[phase];
    }
    if (!m->split) return "run";
    return phase == 0 ? "upsweep" : "downsweep";
}

uint64_t wm_heatmap_count(const wm_heatmap *m, size_t phase, unsigned x, unsigned y, wm_port port)
{
    if (phase >= MAX_PHASES || !m->count[phase]) return 0;
    return m->count[phase][((size_t)y * m->w + x) * WM_NPORTS + port];
}

uint64_t wm_heatmap_phase_end(const wm_heatmap *m, size_t phase) { return m->end[phase]; }
uint64_t wm_heatmap_phase_start(const wm_heatmap *m, size_t phase) { return m->start[phase]; }

/* The gnuplot script: one data block per direction ("x y wavelets" a
 * tile, drawn as a filled cell, which works for a single row too), four
 * panels. */
static void write_script(const wm_heatmap *m, size_t phase, const char *title, const char *png, FILE *g)
{
    static const char *const names[4] = {"north", "east", "south", "west"};
    static const wm_port ports[4] = {WM_PORT_N, WM_PORT_E, WM_PORT_S, WM_PORT_W};
    uint64_t most = 1;
    for (int d = 0; d < 4; d++) {
        fprintf(g, "$%s << EOD\n", names[d]);
        for (unsigned y = 0; y < m->h; y++)
            for (unsigned x = 0; x < m->w; x++) {
                const uint64_t c = wm_heatmap_count(m, phase, x, y, ports[d]);
                if (c > most) most = c;
                fprintf(g, "%u %u %" PRIu64 "\n", x, y, c);
            }
        fputs("EOD\n", g);
    }
    /* Panels keep the mesh's aspect; a cell is at least 8 pixels. */
    unsigned pw = 900 / 2, ph = (unsigned)((double)pw * m->h / m->w) + 60;
    if (ph < 160) ph = 160;
    fprintf(g, "set terminal pngcairo noenhanced size %u,%u font 'sans,10'\n", 2 * pw, 2 * ph + 40);
    fprintf(g, "set output '%s'\n", png);
    fprintf(g, "set multiplot layout 2,2 title \"%s\" font 'sans,12'\n", title);
    fputs("set palette defined (0 'white', 1 '#fde0c5', 2 '#f59e72', 3 '#d7301f', 4 '#7f0000')\n", g);
    fprintf(g, "set cbrange [0:%" PRIu64 "]\nset format cb '%%.0f'\n", most);
    if (most <= 10) fputs("set cbtics 1\n", g);
    fprintf(g, "set xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\n", m->w - 1, m->h - 1);
    fputs("set size ratio -1\nset xlabel 'x (column)'\nset ylabel 'y (row)'\n", g);
    fputs("unset key\nset tics out\n", g);
    fputs(m->w > 16 ? "set xtics 0,4\n" : "set xtics 0,1\n", g);
    fputs(m->h > 16 ? "set ytics 0,4\n" : "set ytics 0,1\n", g);
    const bool labels = (size_t)m->w * m->h <= 64;
    for (int d = 0; d < 4; d++) {
        fprintf(g, "set title 'leaving each tile %swards'\n", names[d]);
        fprintf(g, "plot $%s using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder fc palette", names[d]);
        if (labels) fprintf(g, ", $%s using 1:2:($3 > 0 ? sprintf('%%d', $3) : '') with labels", names[d]);
        fputc('\n', g);
    }
    fputs("unset multiplot\nset output\n", g);
}

/* One phase's picture, for wm_gnuplot_draw. */
typedef struct {
    const wm_heatmap *m;
    size_t phase;
    const char *title;
} phase_plot;

static void script_of(const void *ctx, const char *png, FILE *g)
{
    const phase_plot *pp = ctx;
    write_script(pp->m, pp->phase, pp->title, png, g);
}

bool wm_heatmap_plot(const wm_heatmap *m, size_t phase, const char *title, const char *png, char *err, size_t errn)
{
    const phase_plot pp = {m, phase, title};
    return wm_gnuplot_draw(png, script_of, &pp, err, errn);
}
