/* waves.c: a run's dump, whichever backend makes it (see waves.h). */
#include "waves/waves.h"

#include "core/xalloc.h"
#include "fabric/fabric_rtl.h"
#include "waves/waves_fw.h"
#include "waves/waves_gtkw.h"
#include "waves/waves_sw.h"
#include "waves/interrupt.h"
#include "waves/outfile.h"

#include "fstapi.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const wm_waves_state_names[] = {"running", "computing", "blocked_send", "blocked_recv", "done",
                                            "fault"};
const unsigned wm_waves_state_count = sizeof wm_waves_state_names / sizeof wm_waves_state_names[0];

enum { NAME_MAX_LEN = WM_WAVES_SCOPE_MAX + 1 };

typedef struct {
    char name[NAME_MAX_LEN];
    uint64_t value;
    bool set; /* exported at least once: until then the dump shows x */
} pe_export;

typedef struct {
    unsigned x, y;
    char fw[NAME_MAX_LEN + 4]; /* "<scope>.fw" */
    uint64_t state;
    pe_export *exports;
    size_t nexports;
} pe_signals;

struct wm_waves {
    wm_trace_spec spec; /* spec.path is path_copy: callers' strings may not outlive the run */
    char *path_copy;
    unsigned w, h;
    char (*scope)[NAME_MAX_LEN]; /* w * h */
    pe_signals *pes;
    size_t npes;
    const wm_fabric_ops *ops;
    wm_fabric *f;
    wm_sw_dump *sw;
    wm_outfile *out; /* the dump, under its temporary name until finished */
    bool open;
    int write_error; /* errno of the first failed write, which stops the run */
    /* What the dump holds, for the save file. */
    char **scope_ptrs;
    wm_rtl_extra_signal *extra;
    size_t nextra;
    const wm_gtkw_markers *marks; /* from the run, for the save file; NULL: none */
};

wm_trace_spec wm_trace_spec_default(void)
{
    wm_trace_spec s;
    memset(&s, 0, sizeof s);
    s.to = UINT64_MAX;
    return s;
}

/* The tiles of spec in a w x h mesh: at most WM_WAVES_TILES_MAX, inside
 * the mesh; the whole mesh when none are given (s's corners set). */
static bool check_tiles(wm_trace_spec *s, unsigned w, unsigned h, char *err, size_t err_size)
{
    /* A dump of every tile of a wafer-sized mesh would run to gigabytes
     * before a viewer could open it: past WM_WAVES_TILES_MAX tiles the
     * region is the user's to give, and said so before anything runs. */
    const uint64_t tiles = s->tiles_given ? (uint64_t)(s->x1 - s->x0 + 1) * (s->y1 - s->y0 + 1) : (uint64_t)w * h;
    if (tiles > WM_WAVES_TILES_MAX) {
        snprintf(err, err_size,
                 "a dump of %s%" PRIu64 " tiles (%ux%u) would run to gigabytes: give at most %d of them with "
                 "--trace-tiles X0,Y0:X1,Y1 (a region of at most 256x256)",
                 s->tiles_given ? "--trace-tiles' " : "every one of the mesh's ", tiles,
                 s->tiles_given ? s->x1 - s->x0 + 1 : w, s->tiles_given ? s->y1 - s->y0 + 1 : h, WM_WAVES_TILES_MAX);
        return false;
    }
    if (!s->tiles_given) {
        s->x0 = s->y0 = 0;
        s->x1 = w - 1;
        s->y1 = h - 1;
    } else if (s->x1 >= w || s->y1 >= h) {
        snprintf(err, err_size, "--trace-tiles %u,%u:%u,%u: the mesh is %ux%u (tiles 0,0:%u,%u)", s->x0, s->y0, s->x1,
                 s->y1, w, h, w - 1, h - 1);
        return false;
    }
    return true;
}

void wm_trace_rank_path(const char *path, int rank, char *buf, size_t size)
{
    const size_t n = strlen(path);
    const bool ext = n > 4 && (!strcmp(path + n - 4, ".fst") || !strcmp(path + n - 4, ".vcd"));
    const size_t stem = ext ? n - 4 : n;
    snprintf(buf, size, "%.*s-rank%d%s", (int)stem, path, rank, ext ? path + stem : "");
}

int wm_trace_spec_of_block(const wm_trace_spec *spec, unsigned w, unsigned h, wm_fabric_band band, int rank,
                           wm_trace_spec *out, char *path_buf, size_t path_size, char *err, size_t err_size)
{
    wm_trace_spec s = *spec;
    if (!check_tiles(&s, w, h, err, err_size)) return -1;
    const unsigned col_begin = band.col_end ? band.col_begin : 0, col_end = band.col_end ? band.col_end : w;
    const unsigned row_begin = band.row_end ? band.row_begin : 0, row_end = band.row_end ? band.row_end : h;
    if (s.x0 < col_begin) s.x0 = col_begin;
    if (s.y0 < row_begin) s.y0 = row_begin;
    if (s.x1 > col_end - 1) s.x1 = col_end - 1;
    if (s.y1 > row_end - 1) s.y1 = row_end - 1;
    if (s.x0 > s.x1 || s.y0 > s.y1) return 0;
    s.tiles_given = true;
    wm_trace_rank_path(spec->path, rank, path_buf, path_size);
    s.path = path_buf;
    *out = s;
    return 1;
}

wm_waves *wm_waves_create(const wm_trace_spec *spec, unsigned w, unsigned h, char *err, size_t err_size)
{
    if (!spec->path) {
        snprintf(err, err_size, "no dump file given");
        return NULL;
    }
    wm_trace_spec s = *spec;
    if (!check_tiles(&s, w, h, err, err_size)) return NULL;
    /* The dump is written under a temporary name and renamed when it is
     * complete (waves/outfile.h): a failure leaves nothing behind, and an
     * existing file as it was. Its folder is checked now, before the run. */
    wm_outfile *out = wm_outfile_begin(s.path, false, err, err_size);
    if (!out) return NULL;
    /* the save file beside it and its filters: a name taken by a folder is
     * refused now, not after the run */
    static const char *const aside[] = {".gtkw", "-state.txt", "-owner.txt", "-headers.txt", "-insn.txt"};
    const size_t stem = strlen(s.path) > 4 ? strlen(s.path) - 4 : strlen(s.path);
    for (size_t k = 0; k < sizeof aside / sizeof aside[0]; k++) {
        char side[4200];
        snprintf(side, sizeof side, "%.*s%s", (int)stem, s.path, aside[k]);
        if (!wm_outfile_check(side, err, err_size)) {
            wm_outfile_discard(out);
            return NULL;
        }
    }
    wm_waves *wv = calloc(1, sizeof *wv);
    if (!wv || !(wv->scope = calloc((size_t)w * h, sizeof *wv->scope))) {
        free(wv);
        wm_outfile_discard(out);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    wv->out = out;
    wv->spec = s;
    if (!(wv->path_copy = strdup(s.path))) {
        free(wv->scope);
        free(wv);
        wm_outfile_discard(out);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    wv->spec.path = wv->path_copy;
    wv->w = w;
    wv->h = h;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) snprintf(wv->scope[y * w + x], NAME_MAX_LEN, "tile_%u_%u", x, y);
    return wv;
}

void wm_waves_name_tile(wm_waves *wv, unsigned x, unsigned y, const char *name)
{
    assert(strlen(name) <= WM_WAVES_SCOPE_MAX); /* the layout refuses longer names */
    snprintf(wv->scope[y * wv->w + x], NAME_MAX_LEN, "%s", name);
}

const char *wm_waves_tile_scope(const wm_waves *wv, unsigned x, unsigned y) { return wv->scope[y * wv->w + x]; }

size_t wm_waves_add_pe(wm_waves *wv, unsigned x, unsigned y)
{
    pe_signals *p = wm_xrealloc(wv->pes, (wv->npes + 1) * sizeof *p);
    wv->pes = p;
    memset(&p[wv->npes], 0, sizeof *p);
    p[wv->npes].x = x;
    p[wv->npes].y = y;
    return wv->npes++;
}

static pe_export *find_export(pe_signals *p, const char *name)
{
    for (size_t k = 0; k < p->nexports; k++)
        if (!strcmp(p->exports[k].name, name)) return &p->exports[k];
    return NULL;
}

void wm_waves_add_export(wm_waves *wv, size_t pe, const char *name)
{
    pe_signals *p = &wv->pes[pe];
    if (find_export(p, name)) return;
    pe_export *e = wm_xrealloc(p->exports, (p->nexports + 1) * sizeof *e);
    p->exports = e;
    memset(&e[p->nexports], 0, sizeof *e);
    snprintf(e[p->nexports].name, NAME_MAX_LEN, "%s", name);
    p->nexports++;
}

static bool in_scope(const wm_waves *wv, unsigned x, unsigned y)
{
    return x >= wv->spec.x0 && x <= wv->spec.x1 && y >= wv->spec.y0 && y <= wv->spec.y1;
}

wm_fabric *wm_waves_open(wm_waves *wv, const wm_fabric_ops *ops)
{
    const wm_fabric_config cfg = wm_interrupt_fabric_config(ops);
    return wm_waves_open_with(wv, ops, &cfg);
}

wm_fabric *wm_waves_open_with(wm_waves *wv, const wm_fabric_ops *ops, const wm_fabric_config *cfg)
{
    const size_t ntiles = (size_t)wv->w * wv->h;
    wv->scope_ptrs = calloc(ntiles, sizeof *wv->scope_ptrs);
    size_t nextra = 0;
    for (size_t i = 0; i < wv->npes; i++)
        if (in_scope(wv, wv->pes[i].x, wv->pes[i].y)) nextra += 1 + wv->pes[i].nexports;
    wv->extra = calloc(nextra + 1, sizeof *wv->extra);
    if (!wv->scope_ptrs || !wv->extra) {
        fprintf(stderr, "wavemesh: out of memory for the dump %s\n", wv->spec.path);
        return NULL;
    }
    for (size_t t = 0; t < ntiles; t++) wv->scope_ptrs[t] = wv->scope[t];
    for (size_t i = 0; i < wv->npes; i++) {
        pe_signals *p = &wv->pes[i];
        if (!in_scope(wv, p->x, p->y)) continue;
        snprintf(p->fw, sizeof p->fw, "%s.fw", wv->scope[p->y * wv->w + p->x]);
        wv->extra[wv->nextra++] = (wm_rtl_extra_signal){p->fw, "state", 3, &p->state, NULL};
        for (size_t k = 0; k < p->nexports; k++)
            wv->extra[wv->nextra++] = (wm_rtl_extra_signal){p->fw, p->exports[k].name, 64, &p->exports[k].value,
                                                              &p->exports[k].set};
    }
    wm_rtl_trace tr = {wm_outfile_temp(wv->out), wv->spec.format == WM_WAVES_VCD, wv->spec.x0, wv->spec.y0, wv->spec.x1,
                       wv->spec.y1, (const char *const *)wv->scope_ptrs, wv->extra, wv->nextra, wv->spec.cores};
    wv->ops = ops;
    if (wm_fabric_is(ops, "rtl")) {
        wv->f = wm_fabric_rtl_create_traced(wv->w, wv->h, &tr, cfg);
    } else if (wm_fabric_is(ops, "sw")) {
        wv->f = wm_fabric_create(ops, wv->w, wv->h, wv->spec.cores, cfg);
        if (wv->f && !(wv->sw = wm_sw_dump_open(wv->f, wv->w, &tr))) {
            ops->destroy(wv->f);
            wv->f = NULL;
        }
    } else {
        fprintf(stderr, "wavemesh: the %s backend makes no dumps (rtl or sw do)\n", ops->name);
    }
    if (!wv->f) return NULL;
    wv->open = true;
    wm_waves_sample(wv);
    return wv->f;
}

typedef struct {
    const wm_waves *wv;
    unsigned x, y;
} core_at;

static void read_core(void *ctx, uint32_t addr, void *bytes, size_t n)
{
    const core_at *c = ctx;
    c->wv->ops->core_read(c->wv->f, c->x, c->y, addr, bytes, n);
}

/* The image each dumped core with a kernel ran, found in its memory, for
 * the save file's disassembly filters. The dump stands without them: when
 * they cannot be made (no objdump, no image), a note says so. */
static wm_fw_set *find_images(const wm_waves *wv, wm_gtkw_group *groups, size_t ngroups)
{
    if (!wv->spec.cores || !wv->ops->core_read) return NULL;
    wm_fw_set *fw = wm_fw_set_new();
    if (!fw) return NULL;
    bool noted = false;
    const unsigned width = wv->spec.x1 - wv->spec.x0 + 1;
    for (size_t g = 0; g < ngroups; g++) {
        if (!groups[g].has_pe) continue;
        /* the groups are the dumped rectangle's tiles, row-major */
        core_at c = {wv, wv->spec.x0 + (unsigned)(g % width), wv->spec.y0 + (unsigned)(g / width)};
        char err[512];
        const int k = wm_fw_set_identify(fw, read_core, &c, err, sizeof err);
        if (k >= 0) {
            groups[g].has_image = true;
            groups[g].image = (size_t)k;
        } else if (!noted) {
            fprintf(stderr, "wavemesh: note: %s: the cores' pc and retire_insn go without disassembly: %s\n",
                    wv->spec.path, err);
            noted = true;
        }
    }
    return fw;
}

/* FILE.gtkw next to the dump FILE.fst, grouped by the dumped scopes. */
static bool write_save_file(const wm_waves *wv)
{
    const size_t ntiles = (size_t)(wv->spec.x1 - wv->spec.x0 + 1) * (wv->spec.y1 - wv->spec.y0 + 1);
    wm_gtkw_group *groups = calloc(ntiles, sizeof *groups);
    const char **names = calloc(wv->nextra + 1, sizeof *names);
    if (!groups || !names) {
        free(groups);
        free(names);
        fprintf(stderr, "wavemesh: out of memory for the save file of %s\n", wv->spec.path);
        return false;
    }
    size_t n = 0, used = 0;
    for (unsigned y = wv->spec.y0; y <= wv->spec.y1; y++) {
        for (unsigned x = wv->spec.x0; x <= wv->spec.x1; x++) {
            wm_gtkw_group *g = &groups[n++];
            g->scope = wv->scope[y * wv->w + x];
            g->core = wv->spec.cores;
            for (size_t i = 0; i < wv->npes; i++) {
                const pe_signals *p = &wv->pes[i];
                if (p->x != x || p->y != y) continue;
                g->has_pe = true;
                g->exports = &names[used];
                for (size_t k = 0; k < p->nexports; k++) names[used++] = p->exports[k].name;
                g->nexports = p->nexports;
            }
        }
    }
    wm_fw_set *fw = find_images(wv, groups, n);
    char gtkw[4096];
    snprintf(gtkw, sizeof gtkw, "%.*s.gtkw", (int)(strlen(wv->spec.path) - 4), wv->spec.path);
    const bool ok = wm_gtkw_write_styled(gtkw, wv->spec.path, groups, n, fw, WM_GTKW_FULL, wv->marks);
    wm_fw_set_free(fw);
    free(groups);
    free(names);
    return ok;
}

void wm_waves_set_state(wm_waves *wv, size_t pe, unsigned state) { wv->pes[pe].state = state; }

void wm_waves_set_markers(wm_waves *wv, const wm_gtkw_markers *marks) { wv->marks = marks; }

void wm_waves_set_export(wm_waves *wv, size_t pe, const char *name, int64_t value)
{
    pe_export *e = find_export(&wv->pes[pe], name);
    if (e) {
        e->value = (uint64_t)value;
        e->set = true;
    }
}

void wm_waves_sample(wm_waves *wv)
{
    if (!wv->open) return;
    const uint64_t c = wv->ops->cycle(wv->f);
    /* The sw dump writes a cycle once the next is simulated (waves_sw.h). */
    if (wv->sw && wv->spec.to != UINT64_MAX && c == wv->spec.to + 1) wm_sw_dump_settle(wv->sw);
    if (c < wv->spec.from || c > wv->spec.to) {
        /* <port>_msg holds a header from before the window */
        if (wv->sw && c < wv->spec.from) wm_sw_dump_follow(wv->sw, c);
        return;
    }
    if (wv->sw) wm_sw_dump_sample(wv->sw, c);
    else wm_fabric_rtl_dump(wv->f);
    const int e = wv->sw ? wm_sw_dump_error(wv->sw) : wm_fabric_rtl_trace_error(wv->f);
    if (e && !wv->write_error) {
        wv->write_error = e;
        char why[600];
        snprintf(why, sizeof why, "writing the dump %s failed: %s", wv->spec.path, strerror(e));
        wm_interrupt_fail(why);
    }
}

/* The FST writer reports no error: a dump it could not write is found
 * unreadable once closed. */
static bool fst_readable(const char *path)
{
    void *r = fstReaderOpen(path);
    if (!r) return false;
    fstReaderClose(r);
    return true;
}

bool wm_waves_finish(wm_waves *wv)
{
    if (!wv->open) return false;
    wv->open = false;
    bool ok = true;
    const uint64_t end = wv->ops->cycle(wv->f);
    if (wv->sw) {
        errno = 0;
        ok = wm_sw_dump_close(wv->sw);
        if (!ok && !wv->write_error) wv->write_error = errno ? errno : EIO;
        wv->sw = NULL;
    } else {
        wm_fabric_rtl_trace_close(wv->f);
        if (!wv->write_error) wv->write_error = wm_fabric_rtl_trace_error(wv->f);
    }
    char err[4300];
    if (!wv->write_error && wv->spec.from > end) {
        fprintf(stderr, "wavemesh: --trace-window %" PRIu64 ":%" PRIu64 ": the run ended at cycle %" PRIu64
                        ", before the window opens (0..%" PRIu64 "); no dump written\n",
                wv->spec.from, wv->spec.to, end, end);
        ok = false;
    } else if (wv->write_error) {
        fprintf(stderr, "wavemesh: writing the dump %s failed: %s; removed the partial dump\n", wv->spec.path,
                strerror(wv->write_error));
        ok = false;
    } else if (ok && wv->spec.format == WM_WAVES_FST && !fst_readable(wm_outfile_temp(wv->out))) {
        fprintf(stderr, "wavemesh: writing the dump %s failed: the FST writer left an unreadable file (is the disk "
                        "full?); removed it\n",
                wv->spec.path);
        ok = false;
    }
    if (!ok) {
        wm_outfile_discard(wv->out);
        wv->out = NULL;
        return false;
    }
    /* The dump, its save file and filter files are published together, or
     * none of them: a failure removes what was made here and no other
     * file (waves/outfile.h). */
    wm_outfile_hold();
    const bool committed = wm_outfile_commit(wv->out, err, sizeof err);
    wv->out = NULL;
    if (!committed) fprintf(stderr, "wavemesh: %s\n", err);
    /* write_save_file says what failed */
    const bool saved = committed && write_save_file(wv);
    if (!wm_outfile_release(saved, err, sizeof err)) {
        if (committed) fprintf(stderr, "wavemesh: the dump %s is not kept without its save file\n", wv->spec.path);
        return false;
    }
    return true;
}

void wm_waves_destroy(wm_waves *wv)
{
    if (!wv) return;
    /* Unfinished: the caller is on an error path and reports its own. */
    if (wv->open) (void)!wm_waves_finish(wv);
    wm_outfile_discard(wv->out);
    for (size_t i = 0; i < wv->npes; i++) free(wv->pes[i].exports);
    free(wv->extra);
    free(wv->scope_ptrs);
    free(wv->pes);
    free(wv->scope);
    free(wv->path_copy);
    free(wv);
}
