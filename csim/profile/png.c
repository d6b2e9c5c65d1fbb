/* png.c: a profile as a picture, drawn by gnuplot (see timeline.h).
 *
 * A Gantt chart: a row per PE in layout order, labelled "instance (x,y)",
 * cycles along the bottom. Each row is a bar over the PE's cycles from its
 * start to its end, coloured by kind (executing, stalled on TX, stalled on
 * RX, start-up); before its start and after its end the row is blank. A
 * run of one function wide enough for its name carries the name. Each
 * message is a thin arrow from (sender, sent) to (receiver, received).
 * The critical path is one heavy black line under the rows: a compute
 * segment runs just under its PE's bar, a message segment is a heavy arrow
 * from under the sender's bar to under the receiver's, so the line reads
 * from cycle 0 to the run's last event without a break.
 *
 * gnuplot gets the script, with the data inline, from wm_gnuplot_draw
 * (waves/gnuplot.h), as the heatmaps do: a failure leaves no file and says
 * what happened. */
#include "profile/timeline.h"
#include "profile/check.h"
#include "waves/gnuplot.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"

static const char *const kind_titles[WM_PROF_NKINDS] = {"busy", "stalled on TX", "stalled on RX", "start-up"};
static const char *const kind_blocks[WM_PROF_NKINDS] = {"busy", "stx", "srx", "boot"};
/* Colour-blind safe (Paul Tol's "bright" and "high contrast" sets). */
static const char *const kind_colours[WM_PROF_NKINDS] = {"#4477aa", "#ee7733", "#aa3377", "#bbbbbb"};
/* The text on a bar of each kind. */
static const char *const kind_text[WM_PROF_NKINDS] = {"white", "black", "white", "black"};

/* Rows are one apart: a bar is 2 * BAR high, the critical path runs PATH
 * below the middle of its row. */
#define BAR "0.28"
#define PATH "0.4"
/* The messages: dark, a little transparent (gnuplot's #AARRGGBB). */
#define MSG_COLOUR "#30202020"

/* The picture's geometry, in pixels. */
enum {
    WIDTH = 1400,
    RIGHT = 30,    /* right of the plot */
    TOP = 70,      /* above the plot: title and legend */
    BOTTOM = 60,   /* below it: the cycle axis */
    CHAR_PX = 7,   /* the width of a character of the bars' text, rounded up */
    LABEL_PAD = 10,/* room a bar's text leaves at its ends */
    MAX_HEIGHT = 4000,
    MIN_CUT_PX = 4, /* the narrowest run a cut between functions may touch */
};

/* A picture needs a PE to draw, and a whole profile (profile/check.h). */
static bool check_profile(const wm_profile *p, char *err, size_t err_size)
{
    if (p->npes == 0) {
        snprintf(err, err_size, "profile: no PE to draw");
        return false;
    }
    return wm_profile_check(p, err, err_size);
}

/* s inside a gnuplot single-quoted string: a quote doubled, a line break
 * (which would end the command) a space. */
static void put_quoted(FILE *g, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', g);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, g);
    }
}

/* s as a double-quoted column of inline data, which has no escapes: a
 * double quote becomes a single one, a line break a space. */
static void put_column(FILE *g, const char *s)
{
    fputc('"', g);
    for (; *s; s++) fputc(*s == '"' ? '\'' : *s == '\n' || *s == '\r' ? ' ' : *s, g);
    fputc('"', g);
}

/* The end of the picture's cycle axis: the last cycle anything happens. */
static uint64_t last_cycle(const wm_profile *p)
{
    uint64_t last = p->last_event;
    for (size_t i = 0; i < p->npes; i++)
        if (p->pes[i].end > last) last = p->pes[i].end;
    for (size_t m = 0; m < p->nmsgs; m++)
        if (p->msgs[m].received > last) last = p->msgs[m].received;
    for (size_t g = 0; g < p->npath; g++)
        if (p->path[g].end > last) last = p->path[g].end;
    return last ? last : 1;
}

/* The bars of one kind, "start row end" a line, consecutive slices of the
 * kind in one bar whatever their function (the colour is the kind's). */
static size_t put_bars(FILE *g, const wm_profile *p, int kind)
{
    size_t n = 0;
    fprintf(g, "$%s << EOD\n", kind_blocks[kind]);
    for (size_t i = 0; i < p->npes; i++) {
        const wm_prof_pe *pe = &p->pes[i];
        for (size_t k = 0; k < pe->nslices;) {
            if (pe->slices[k].kind != kind) {
                k++;
                continue;
            }
            const uint64_t start = pe->slices[k].start;
            uint64_t end = pe->slices[k].end;
            while (++k < pe->nslices && pe->slices[k].kind == kind && pe->slices[k].start == end)
                end = pe->slices[k].end;
            if (end > start) {
                fprintf(g, "%" PRIu64 " %zu %" PRIu64 "\n", start, i, end);
                n++;
            }
        }
    }
    fputs("EOD\n", g);
    return n;
}

/* The names on the bars: a run of one function and kind gets its name at
 * its middle when the name fits in the run's width. */
static void put_labels(FILE *g, const wm_profile *p, double px_per_cycle, bool tall, size_t n[WM_PROF_NKINDS])
{
    for (int kind = 0; kind < WM_PROF_NKINDS; kind++) {
        n[kind] = 0;
        fprintf(g, "$text%d << EOD\n", kind);
        for (size_t i = 0; tall && i < p->npes; i++) {
            const wm_prof_pe *pe = &p->pes[i];
            for (size_t k = 0; k < pe->nslices;) {
                const wm_prof_slice *s = &pe->slices[k];
                uint64_t end = s->end;
                while (++k < pe->nslices && pe->slices[k].func == s->func && pe->slices[k].kind == s->kind &&
                       pe->slices[k].start == end)
                    end = pe->slices[k].end;
                if (s->kind != kind) continue;
                const double width = (double)(end - s->start) * px_per_cycle;
                if (width < (double)(strlen(p->funcs[s->func]) * CHAR_PX + LABEL_PAD)) continue;
                fprintf(g, "%" PRIu64 " %zu ", s->start + end, i); /* twice the middle: integers only */
                put_column(g, p->funcs[s->func]);
                fputc('\n', g);
                n[kind]++;
            }
        }
        fputs("EOD\n", g);
    }
}

/* Where one function follows another of the same kind (the colour does
 * not change), a thin white cut across the bar, "cycle row", when both
 * runs are wide enough for the cut not to hide them. */
static size_t put_cuts(FILE *g, const wm_profile *p, double px_per_cycle)
{
    size_t n = 0;
    fputs("$cuts << EOD\n", g);
    for (size_t i = 0; i < p->npes; i++) {
        const wm_prof_pe *pe = &p->pes[i];
        const wm_prof_slice *prev = NULL;
        uint64_t prev_start = 0;
        for (size_t k = 0; k < pe->nslices;) {
            const wm_prof_slice *s = &pe->slices[k];
            uint64_t end = s->end;
            while (++k < pe->nslices && pe->slices[k].func == s->func && pe->slices[k].kind == s->kind &&
                   pe->slices[k].start == end)
                end = pe->slices[k].end;
            if (prev && prev->kind == s->kind && prev->end == s->start &&
                (double)(s->start - prev_start) * px_per_cycle >= MIN_CUT_PX &&
                (double)(end - s->start) * px_per_cycle >= MIN_CUT_PX) {
                fprintf(g, "%" PRIu64 " %zu\n", s->start, i);
                n++;
            }
            prev = &pe->slices[k - 1];
            prev_start = s->start;
        }
    }
    fputs("EOD\n", g);
    return n;
}

/* The messages, "sent from received to"; and the critical path, its
 * compute segments "start row end row" and its message segments "start
 * sender end receiver". */
static void put_arrows(FILE *g, const wm_profile *p, size_t npath[2])
{
    fputs("$msgs << EOD\n", g);
    for (size_t m = 0; m < p->nmsgs; m++) {
        const wm_prof_msg *s = &p->msgs[m];
        fprintf(g, "%" PRIu64 " %u %" PRIu64 " %u\n", s->sent, (unsigned)s->from, s->received, (unsigned)s->to);
    }
    fputs("EOD\n", g);
    for (int kind = WM_SEG_COMPUTE; kind <= WM_SEG_MESSAGE; kind++) {
        fprintf(g, "$path%d << EOD\n", kind);
        npath[kind] = 0;
        for (size_t k = 0; k < p->npath; k++) {
            const wm_prof_segment *s = &p->path[k];
            if (s->kind != kind) continue;
            const unsigned from = s->kind == WM_SEG_MESSAGE ? (unsigned)p->msgs[s->msg].from : (unsigned)s->pe;
            fprintf(g, "%" PRIu64 " %u %" PRIu64 " %u\n", s->start, from, s->end, (unsigned)s->pe);
            npath[kind]++;
        }
        fputs("EOD\n", g);
    }
}

static void write_script(const wm_profile *p, const char *note, const char *png, FILE *g)
{
    const uint64_t xmax = last_cycle(p);
    /* Rows of 34 pixels, down to 6 for a big fabric; labels as long as
     * the longest PE name. */
    unsigned row = p->npes <= 16 ? 34 : p->npes <= 48 ? 20 : 6;
    if (p->npes * row > MAX_HEIGHT) row = 2;
    size_t name = 0;
    for (size_t i = 0; i < p->npes; i++) {
        const size_t n = strlen(p->pes[i].instance) + 12;
        if (n > name) name = n;
    }
    const unsigned left = (unsigned)(name * 7 + 40);
    const unsigned height = (unsigned)(p->npes * row) + TOP + BOTTOM + 20;
    const double plot_px = WIDTH - left - RIGHT;

    size_t nbars[WM_PROF_NKINDS], ntext[WM_PROF_NKINDS], npath[2];
    for (int kind = 0; kind < WM_PROF_NKINDS; kind++) nbars[kind] = put_bars(g, p, kind);
    put_labels(g, p, plot_px / (double)xmax, row >= 20, ntext);
    put_arrows(g, p, npath);
    const size_t ncuts = put_cuts(g, p, plot_px / (double)xmax);

    fprintf(g, "set terminal pngcairo noenhanced size %u,%u font 'sans,10'\n", WIDTH, height);
    fputs("set output '", g);
    put_quoted(g, png);
    fputs("'\n", g);
    fprintf(g, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n", (double)left / WIDTH,
            1.0 - (double)RIGHT / WIDTH);
    fprintf(g, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", 1.0 - (double)TOP / height,
            (double)BOTTOM / height);
    fputs("set label 1 '", g);
    put_quoted(g, p->mode ? p->mode : "");
    fprintf(g,
            " mode: %zu PEs, %zu messages, last event at cycle %" PRIu64
            "' at screen 0.5, screen %.4f center font 'sans,12'\n",
            p->npes, p->nmsgs, p->last_event, 1.0 - 18.0 / height);
    /* a picture of some of the PEs says which */
    if (note) {
        fputs("set label 3 '", g);
        put_quoted(g, note);
        fprintf(g, "' at screen 0.99, screen %.4f right font 'sans,10' tc rgb '#404040'\n", 14.0 / height);
    }
    /* a run that did not return is a timeline cut short: said above it */
    if (p->ending && strcmp(p->ending, "returned")) {
        fputs("set label 2 'the run ended early: ", g);
        put_quoted(g, p->ending_phrase ? p->ending_phrase : p->ending);
        fprintf(g, " at cycle %" PRIu64 "' at screen 0.01, screen %.4f left font 'sans,11' tc rgb '#c00000'\n",
                p->end_cycle, 1.0 - 18.0 / height);
    }
    fprintf(g, "set key at screen 0.5, screen %.4f center top horizontal samplen 2 spacing 1 width 2 noautotitle\n",
            1.0 - 32.0 / height);
    fprintf(g, "set xrange [0:%" PRIu64 "]\nset yrange [%zu.5:-0.7]\n", xmax, p->npes - 1);
    fputs("set xlabel 'cycle'\nset xtics out nomirror\nset mxtics\nset ytics nomirror scale 0\n", g);
    fputs("set grid xtics mxtics lc rgb '#e8e8e8' lw 1, lc rgb '#f4f4f4' lw 1\nset border 3 lc rgb '#808080'\n", g);
    /* A name a row, or every k-th when the rows are thin. */
    const size_t every = row >= 12 ? 1 : (size_t)(12 / row);
    fputs("set ytics (", g);
    for (size_t i = 0; i < p->npes; i += every) {
        fputs(i ? ", '" : "'", g);
        put_quoted(g, p->pes[i].instance);
        fprintf(g, " (%u,%u)' %zu", (unsigned)p->pes[i].x, (unsigned)p->pes[i].y, i);
    }
    fputs(")\n", g);
    fputs("set style fill solid 1.0 noborder\n", g);
    /* The legend first, whatever the run holds; then only the blocks
     * with data, since gnuplot warns of an empty one. */
    fputs("plot", g);
    for (int kind = 0; kind < WM_PROF_NKINDS; kind++)
        fprintf(g, "%s keyentry with boxes fc rgb '%s' title '%s'", kind ? "," : "", kind_colours[kind],
                kind_titles[kind]);
    fputs(", keyentry with boxes fs empty lc rgb '#909090' title 'idle'", g);
    fputs(", keyentry with lines lw 1.5 lc rgb '" MSG_COLOUR "' title 'message'", g);
    fputs(", keyentry with lines lw 3.5 lc rgb 'black' title 'critical path'", g);
    for (int kind = 0; kind < WM_PROF_NKINDS; kind++)
        if (nbars[kind])
            fprintf(g, ", $%s using 1:2:1:3:($2-" BAR "):($2+" BAR ") with boxxyerror fc rgb '%s'", kind_blocks[kind],
                    kind_colours[kind]);
    if (ncuts) fputs(", $cuts using 1:($2-" BAR "):(0):(2*" BAR ") with vectors nohead lw 1 lc rgb 'white'", g);
    for (int kind = 0; kind < WM_PROF_NKINDS; kind++)
        if (ntext[kind])
            fprintf(g, ", $text%d using ($1/2):2:3 with labels font 'sans,8' tc rgb '%s'", kind, kind_text[kind]);
    /* Thin rows get thin arrows with small heads. */
    if (p->nmsgs)
        fprintf(g,
                ", $msgs using 1:2:($3-$1):($4-$2) with vectors head filled size screen %s,20 lw %s"
                " lc rgb '" MSG_COLOUR "'",
                row >= 20 ? "0.006" : "0.003", row >= 20 ? "1.5" : "0.7");
    if (npath[WM_SEG_COMPUTE])
        fputs(", $path0 using 1:($2+" PATH "):($3-$1):(0) with vectors nohead lw 3.5 lc rgb 'black'", g);
    if (npath[WM_SEG_MESSAGE])
        fputs(", $path1 using 1:($2+" PATH "):($3-$1):($4-$2) with vectors head filled size screen 0.008,20 lw 3.5"
              " lc rgb 'black'",
              g);
    fputc('\n', g);
    fputs("set output\n", g);
}

typedef struct {
    const wm_profile *p;
    const char *note; /* NULL: every PE is drawn */
} drawn;

static void script_of(const void *d, const char *png, FILE *g)
{
    const drawn *what = d;
    write_script(what->p, what->note, png, g);
}

wm_profile wm_profile_sample(const wm_profile *p, size_t rows, char *note, size_t note_size)
{
    bool *keep = wm_xcalloc(p->npes, sizeof *keep);
    size_t on_path = 0;
    for (size_t k = 0; k < p->npath; k++) {
        const uint32_t pe = p->path[k].kind == WM_SEG_MESSAGE ? p->msgs[p->path[k].msg].from : p->path[k].pe;
        on_path += !keep[pe];
        keep[pe] = true;
        on_path += !keep[p->path[k].pe];
        keep[p->path[k].pe] = true;
    }
    const size_t room = rows > on_path ? rows - on_path : 1;
    const size_t every = (p->npes + room - 1) / room;
    for (size_t i = 0; i < p->npes; i += every) keep[i] = true;
    size_t *index = wm_xmalloc(p->npes * sizeof *index);
    wm_profile q = *p;
    q.pes = wm_xmalloc(p->npes * sizeof *q.pes);
    q.npes = 0;
    for (size_t i = 0; i < p->npes; i++)
        if (keep[i]) {
            index[i] = q.npes;
            q.pes[q.npes++] = p->pes[i];
        }
    size_t *msg_index = wm_xmalloc((p->nmsgs ? p->nmsgs : 1) * sizeof *msg_index);
    q.msgs = wm_xmalloc((p->nmsgs ? p->nmsgs : 1) * sizeof *q.msgs);
    q.nmsgs = 0;
    for (size_t k = 0; k < p->nmsgs; k++)
        if (keep[p->msgs[k].from] && keep[p->msgs[k].to]) {
            msg_index[k] = q.nmsgs;
            q.msgs[q.nmsgs] = p->msgs[k];
            q.msgs[q.nmsgs].from = (uint32_t)index[p->msgs[k].from];
            q.msgs[q.nmsgs].to = (uint32_t)index[p->msgs[k].to];
            q.nmsgs++;
        }
    q.path = wm_xmalloc((p->npath ? p->npath : 1) * sizeof *q.path);
    for (size_t k = 0; k < p->npath; k++) {
        q.path[k] = p->path[k];
        q.path[k].pe = (uint32_t)index[p->path[k].pe];
        if (p->path[k].kind == WM_SEG_MESSAGE) q.path[k].msg = (uint32_t)msg_index[p->path[k].msg];
    }
    snprintf(note, note_size, "%zu of %zu PEs: the critical path's %zu and every %zu-th of the others", q.npes,
             p->npes, on_path, every);
    free(msg_index);
    free(index);
    free(keep);
    return q;
}

bool wm_profile_write_png(const wm_profile *p, const char *path, char *err, size_t err_size)
{
    if (!check_profile(p, err, err_size)) return false;
    if (p->npes <= WM_PNG_ROWS) return wm_gnuplot_draw(path, script_of, &(drawn){p, NULL}, err, err_size);
    char note[160];
    wm_profile q = wm_profile_sample(p, WM_PNG_ROWS, note, sizeof note);
    const bool ok = wm_gnuplot_draw(path, script_of, &(drawn){&q, note}, err, err_size);
    free(q.pes);
    free(q.msgs);
    free(q.path);
    return ok;
}
