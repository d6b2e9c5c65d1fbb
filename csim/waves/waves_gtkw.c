/* waves_gtkw.c: GTKWave save files and their translate filters. */
#include "waves/waves_gtkw.h"

#include "fabric/fabric.h"
#include "waves/outfile.h"
#include "waves/waves.h"
#include "waves/waves_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* GTKWave trace flags (gtkwave analyzer.h). */
enum {
    TR_HEX = 0x2,
    TR_DEC = 0x4,
    TR_BIN = 0x8,
    TR_RJUSTIFY = 0x20,
    TR_BLANK = 0x200,
    TR_FTRANSLATED = 0x2000,
    TR_CLOSED = 0x400000,
    TR_GRP_BEGIN = 0x800000,
    TR_GRP_END = 0x1000000
};

static const char *const port_words[4] = {"north", "east", "south", "west"};
static const char *const owner_words[8] = {"N", "E", "S", "W", "PE", "?5", "?6", "-"};

/* Each file is written beside and renamed when whole (waves/outfile.h). */
static FILE *begin(wm_outfile **o, const char *path)
{
    char err[4200];
    *o = wm_outfile_begin(path, true, err, sizeof err);
    return *o ? wm_outfile_stream(*o) : NULL;
}

static bool commit(wm_outfile *o)
{
    char err[4200];
    return wm_outfile_commit(o, err, sizeof err);
}

static bool write_filter_states(const char *path)
{
    wm_outfile *o;
    FILE *f = begin(&o, path);
    if (!f) return false;
    for (unsigned s = 0; s < wm_waves_state_count; s++) fprintf(f, "%x %s\n", s, wm_waves_state_names[s]);
    return commit(o);
}

static bool write_filter_owners(const char *path)
{
    wm_outfile *o;
    FILE *f = begin(&o, path);
    if (!f) return false;
    for (unsigned k = 0; k < 8; k++) fprintf(f, "%x %s\n", k, owner_words[k]);
    return commit(o);
}

static int compare_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The headers in a dump: each valid wavelet of an output register that is
 * not the body of a message, following len as the router does. */
static bool write_filter_headers(const char *path, const char *dump_path, const wm_gtkw_markers *marks)
{
    uint32_t *headers = NULL;
    size_t n = 0;
    /* Reading a dump back costs more than writing it: past this size the
     * filter stays empty and `wavemesh waves --dump` fills it on demand. */
    enum { HEADER_SCAN_MAX_BYTES = 16 << 20 };
    /* the dump may not be published yet: read where it is (waves/outfile.h);
     * one written into a FIFO or a device is not read back */
    struct stat st;
    if (dump_path) dump_path = wm_outfile_current(dump_path);
    if (dump_path && (stat(dump_path, &st) != 0 || !S_ISREG(st.st_mode))) dump_path = NULL;
    FILE *probe = dump_path ? fopen(dump_path, "rb") : NULL;
    long size = -1;
    if (probe) {
        fseek(probe, 0, SEEK_END);
        size = ftell(probe);
        fclose(probe);
    }
    if (size >= 0 && size <= HEADER_SCAN_MAX_BYTES) wm_dump_headers(dump_path, &headers, &n);
    if (marks && marks->nsent) {
        uint32_t *all = realloc(headers, (n + marks->nsent) * sizeof *all);
        if (!all) {
            free(headers);
            return false;
        }
        headers = all;
        memcpy(headers + n, marks->headers, marks->nsent * sizeof *headers);
        n += marks->nsent;
    }
    if (n) qsort(headers, n, sizeof *headers, compare_u32); /* qsort of NULL is undefined */
    wm_outfile *o;
    FILE *f = begin(&o, path);
    if (!f) {
        free(headers);
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        if (k && headers[k] == headers[k - 1]) continue;
        const uint32_t h = headers[k];
        /* Short, destination first, so that it reads in the narrow boxes
         * of a zoomed-out view: "(4,0) t0 +1 l0", to (4,0), tag 0, one
         * data wavelet, sent by l0. */
        fprintf(f, "%08x (%u,%u) t%u +%u", h, wm_header_col(h), wm_header_row(h), wm_header_tag(h),
                wm_header_len(h));
        for (size_t i = 0; marks && i < marks->nsent; i++)
            if (marks->headers[i] == h) {
                fprintf(f, " %s", marks->senders[i]);
                break;
            }
        fputc('\n', f);
    }
    free(headers);
    return commit(o);
}

static void plain(FILE *f, unsigned flags, const char *scope, const char *name, unsigned bits)
{
    fprintf(f, "@%x\n", flags);
    if (bits > 1) fprintf(f, "%s.%s[%u:0]\n", scope, name, bits - 1);
    else fprintf(f, "%s.%s\n", scope, name);
}

static void filtered(FILE *f, unsigned flags, unsigned filter, const char *filter_path, const char *scope,
                     const char *name, unsigned bits)
{
    fprintf(f, "@%x\n^%u %s\n", flags | TR_FTRANSLATED, filter, filter_path);
    fprintf(f, "%s.%s[%u:0]\n", scope, name, bits - 1);
}

/* The same under an alias: GTKWave shows `alias` for the signal's name. */
static void filtered_as(FILE *f, const char *alias, unsigned flags, unsigned filter, const char *filter_path,
                        const char *scope, const char *name, unsigned bits)
{
    fprintf(f, "@%x\n^%u %s\n", flags | TR_FTRANSLATED, filter, filter_path);
    fprintf(f, "+{%s} %s.%s[%u:0]\n", alias, scope, name, bits - 1);
}

/* Filter numbers in the save file: GTKWave finds a filter by its file
 * name; the number only has to be non-zero (0 is "disabled"). */
enum { FILTER_STATE = 1, FILTER_OWNER, FILTER_HEADERS, FILTER_INSN, FILTER_PC };

/* A trace through filter_path when there is one, else plain. */
static void maybe_filtered(FILE *f, unsigned flags, unsigned filter, const char *filter_path, const char *scope,
                           const char *name, unsigned bits)
{
    if (filter_path) filtered(f, flags, filter, filter_path, scope, name, bits);
    else plain(f, flags, scope, name, bits);
}

typedef struct {
    const char *insn;  /* the instruction filter, or NULL */
    char (*pc)[4096];  /* one PC filter per image */
} core_filters;

/* The instruction filter and the images' PC filters next to the save file,
 * when some group is a core's and fw knows images. */
static bool write_core_filters(const char *base, int base_len, const wm_gtkw_group *groups, size_t ngroups,
                               const wm_fw_set *fw, char *insn_path, core_filters *cf)
{
    bool cores = false;
    for (size_t g = 0; g < ngroups; g++) cores |= groups[g].core && groups[g].has_pe;
    if (!cores || !fw || !wm_fw_set_count(fw)) return true;
    snprintf(insn_path, 4096, "%.*s-insn.txt", base_len, base);
    if (!wm_fw_write_insn_filter(fw, insn_path)) return false;
    cf->insn = insn_path;
    if (!(cf->pc = calloc(wm_fw_set_count(fw), sizeof *cf->pc))) return false;
    for (size_t k = 0; k < wm_fw_set_count(fw); k++) {
        snprintf(cf->pc[k], sizeof cf->pc[k], "%.*s-pc-%s.txt", base_len, base, wm_fw_set_kernel(fw, k));
        if (!wm_fw_write_pc_filter(fw, k, cf->pc[k])) return false;
    }
    return true;
}

/* The core's signals of group gr (rtl/core/wm_core_waves.v). */
static void core_signals(FILE *f, const wm_gtkw_group *gr, const core_filters *cf, bool overview)
{
    const unsigned hex = TR_HEX | TR_RJUSTIFY, dec = TR_DEC | TR_RJUSTIFY, bin = TR_BIN | TR_RJUSTIFY;
    char core[256];
    snprintf(core, sizeof core, "%s.wm_tile_core.u_core_waves", gr->scope);
    const char *pc_filter = cf->pc && gr->has_image ? cf->pc[gr->image] : NULL;
    maybe_filtered(f, hex, FILTER_PC + (gr->has_image ? (unsigned)gr->image : 0), pc_filter, core, "pc", 32);
    if (!overview) plain(f, bin, core, "retire", 1);
    maybe_filtered(f, hex, FILTER_INSN, cf->insn, core, "retire_insn", 32);
    if (overview) return;
    plain(f, bin, core, "rd_we", 1);
    plain(f, dec, core, "rd", 5);
    plain(f, hex, core, "rd_data", 32);
    plain(f, bin, core, "push", 1);
    plain(f, bin, core, "pop", 1);
    plain(f, bin, core, "halted", 1);
    plain(f, dec, core, "fault_cause", 3);
}

static bool write_save_file(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups,
                            size_t ngroups, wm_gtkw_style style, const wm_fw_set *fw, const wm_gtkw_markers *marks)
{
    const bool overview = style != WM_GTKW_FULL, compact = style == WM_GTKW_COMPACT;
    const size_t base_len = strlen(gtkw_path) > 5 && !strcmp(gtkw_path + strlen(gtkw_path) - 5, ".gtkw")
                                ? strlen(gtkw_path) - 5
                                : strlen(gtkw_path);
    char state_path[4096], owner_path[4096], header_path[4096], insn_path[4096];
    snprintf(state_path, sizeof state_path, "%.*s-state.txt", (int)base_len, gtkw_path);
    snprintf(owner_path, sizeof owner_path, "%.*s-owner.txt", (int)base_len, gtkw_path);
    snprintf(header_path, sizeof header_path, "%.*s-headers.txt", (int)base_len, gtkw_path);
    core_filters cf = {NULL, NULL};
    /* the save file and its filters appear together or not at all */
    wm_outfile_hold();
    char err[4400];
    if (!write_filter_states(state_path) || !write_filter_owners(owner_path) ||
        !write_filter_headers(header_path, dump_path, marks) ||
        !write_core_filters(gtkw_path, (int)base_len, groups, ngroups, fw, insn_path, &cf)) {
        fprintf(stderr, "wavemesh: cannot write the filter files next to %s: %s\n", gtkw_path,
                wm_outfile_last_error());
        free(cf.pc);
        (void)!wm_outfile_release(false, err, sizeof err);
        return false;
    }
    wm_outfile *o;
    FILE *f = begin(&o, gtkw_path);
    if (!f) {
        fprintf(stderr, "wavemesh: %s\n", wm_outfile_last_error());
        free(cf.pc);
        (void)!wm_outfile_release(false, err, sizeof err);
        return false;
    }
    fprintf(f, "[*] wavemesh save file: one group per instance (docs/waves.md)\n");
    if (marks && !marks->has_markers && marks->no_markers_why) fprintf(f, "[*] %s\n", marks->no_markers_why);
    if (dump_path) fprintf(f, "[dumpfile] \"%s\"\n", dump_path);
    /* The zoom and markers line: zoom, primary marker, then A..Z (-1: unset). */
    if (marks && marks->has_markers) {
        fprintf(f, "*-6.000000 -1 %llu %llu", (unsigned long long)marks->a, (unsigned long long)marks->b);
        for (int k = 2; k < 26; k++) fputs(" -1", f);
        fputc('\n', f);
    }
    if (compact)
        fprintf(f, "[timestart] 0\n[size] 1920 1080\n[pos] -1 -1\n[sst_width] 1\n[signals_width] 330\n");
    else
        fprintf(f, "[timestart] 0\n[size] 1600 900\n[pos] -1 -1\n[sst_width] 240\n[signals_width] 300\n");
    fprintf(f, "[sst_expanded] %d\n[sst_vpaned_height] 200\n", compact ? 0 : 1);
    if (marks && marks->has_markers) {
        fprintf(f, "@%x\n-A: cycle %llu, %s\n", TR_BLANK, (unsigned long long)marks->a, marks->a_text);
        fprintf(f, "@%x\n-B: cycle %llu, %s\n", TR_BLANK, (unsigned long long)marks->b, marks->b_text);
    } else if (marks && marks->no_markers_why) {
        fprintf(f, "@%x\n-%s\n", TR_BLANK, marks->no_markers_why);
    }
    const unsigned hex = TR_HEX | TR_RJUSTIFY, dec = TR_DEC | TR_RJUSTIFY, bin = TR_BIN | TR_RJUSTIFY;
    for (size_t g = 0; g < ngroups; g++) {
        const wm_gtkw_group *gr = &groups[g];
        char tile[256], fwsig[256];
        snprintf(tile, sizeof tile, gr->core ? "%s.wm_tile_core.u_tile.u_waves" : "%s.wm_tile.u_waves", gr->scope);
        snprintf(fwsig, sizeof fwsig, "%s.fw", gr->scope);
        if (compact) {
            /* The state, then the message on each port that carried a
             * wavelet (its header, held: it reads zoomed out), and what
             * the ramp delivered: a few lines a tile, every tile on one
             * screen. */
            char alias[300];
            if (gr->has_pe) {
                snprintf(alias, sizeof alias, "%s state", gr->scope);
                filtered_as(f, alias, hex, FILTER_STATE, state_path, fwsig, "state", 3);
            }
            for (unsigned p = 0; p < 5; p++) {
                if (gr->used_ports && !(gr->used_ports & (1u << p))) continue;
                const char *port = p == WM_PORT_L ? "ramp" : port_words[p];
                char name[32];
                snprintf(name, sizeof name, "%s_msg", port);
                snprintf(alias, sizeof alias, "%s %s msg", gr->scope, port);
                filtered_as(f, alias, hex, FILTER_HEADERS, header_path, tile, name, 32);
                if (p != WM_PORT_L) continue;
                snprintf(name, sizeof name, "%s_data", port);
                snprintf(alias, sizeof alias, "%s %s", gr->scope, port);
                filtered_as(f, alias, hex, FILTER_HEADERS, header_path, tile, name, 32);
            }
            continue;
        }
        fprintf(f, "@%x\n-%s\n", TR_GRP_BEGIN | TR_BLANK, gr->scope);
        if (gr->has_pe) {
            filtered(f, hex, FILTER_STATE, state_path, fwsig, "state", 3);
            for (size_t k = 0; k < gr->nexports; k++) {
                char name[128];
                snprintf(name, sizeof name, "%s[63:0]", gr->exports[k]);
                fprintf(f, "@%x\n%s.%s\n", dec, fwsig, name);
            }
            if (gr->core) core_signals(f, gr, &cf, overview);
        }
        if (overview) {
            /* valid above its data: a register holds its last wavelet
             * after the valid bit drops, which is no wavelet at all */
            plain(f, bin, tile, "ramp_valid", 1);
            filtered(f, hex, FILTER_HEADERS, header_path, tile, "ramp_data", 32);
            filtered(f, hex, FILTER_HEADERS, header_path, tile, "ramp_msg", 32);
            for (unsigned p = 0; p < 4; p++) {
                char name[32];
                snprintf(name, sizeof name, "%s_valid", port_words[p]);
                plain(f, bin, tile, name, 1);
                snprintf(name, sizeof name, "%s_data", port_words[p]);
                filtered(f, hex, FILTER_HEADERS, header_path, tile, name, 32);
                snprintf(name, sizeof name, "%s_msg", port_words[p]);
                filtered(f, hex, FILTER_HEADERS, header_path, tile, name, 32);
            }
            fprintf(f, "@%x\n-%s\n", TR_GRP_END | TR_BLANK, gr->scope);
            continue;
        }
        for (unsigned p = 0; p < 4; p++) {
            char name[32];
            snprintf(name, sizeof name, "%s_valid", port_words[p]);
            plain(f, bin, tile, name, 1);
            snprintf(name, sizeof name, "%s_data", port_words[p]);
            filtered(f, hex, FILTER_HEADERS, header_path, tile, name, 32);
            snprintf(name, sizeof name, "%s_msg", port_words[p]);
            filtered(f, hex, FILTER_HEADERS, header_path, tile, name, 32);
            snprintf(name, sizeof name, "%s_credit", port_words[p]);
            plain(f, bin, tile, name, 1);
            snprintf(name, sizeof name, "%s_count", port_words[p]);
            plain(f, dec, tile, name, 3);
            snprintf(name, sizeof name, "%s_owner", port_words[p]);
            filtered(f, hex, FILTER_OWNER, owner_path, tile, name, 3);
        }
        plain(f, bin, tile, "ramp_valid", 1);
        filtered(f, hex, FILTER_HEADERS, header_path, tile, "ramp_data", 32);
        filtered(f, hex, FILTER_HEADERS, header_path, tile, "ramp_msg", 32);
        filtered(f, hex, FILTER_OWNER, owner_path, tile, "ramp_owner", 3);
        plain(f, dec, tile, "tx_count", 4);
        plain(f, dec, tile, "rx_count", 4);
        plain(f, bin, tile, "busy", 1);
        plain(f, bin, tile, "err_tx_full", 1);
        plain(f, bin, tile, "err_rx_empty", 1);
        plain(f, bin, tile, "err_offmesh", 1);
        plain(f, bin, tile, "en", 1);
        fprintf(f, "@%x\n-%s\n", TR_GRP_END | TR_BLANK, gr->scope);
    }
    fprintf(f, "[pattern_trace] 1\n[pattern_trace] 0\n");
    free(cf.pc);
    const bool ok = commit(o);
    if (!wm_outfile_release(ok, err, sizeof err)) {
        fprintf(stderr, "wavemesh: %s\n", err);
        return false;
    }
    return true;
}

bool wm_gtkw_write(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups, size_t ngroups,
                   const wm_fw_set *fw)
{
    return write_save_file(gtkw_path, dump_path, groups, ngroups, WM_GTKW_FULL, fw, NULL);
}

bool wm_gtkw_write_overview(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups,
                            size_t ngroups, const wm_fw_set *fw)
{
    return write_save_file(gtkw_path, dump_path, groups, ngroups, WM_GTKW_OVERVIEW, fw, NULL);
}

bool wm_gtkw_write_styled(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups, size_t ngroups,
                          const wm_fw_set *fw, wm_gtkw_style style, const wm_gtkw_markers *markers)
{
    return write_save_file(gtkw_path, dump_path, groups, ngroups, style, fw, markers);
}
