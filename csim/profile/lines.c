/* lines.c: each kernel's cycles by source line (see lines.h). */
#include "profile/lines.h"

#include "core/xalloc.h"
#include "waves/fw_lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_csv[WM_PROF_NKINDS] = {"exec", "stall_tx", "stall_rx", "startup"};

/* "file:N" by file, then by N as a number; no line after every line. */
static int compare_where(const char *a, const char *b)
{
    if (!a || !b) return !a - !b;
    const char *ca = strrchr(a, ':'), *cb = strrchr(b, ':');
    const size_t fa = ca ? (size_t)(ca - a) : strlen(a), fb = cb ? (size_t)(cb - b) : strlen(b);
    const int by_file = strncmp(a, b, fa < fb ? fa : fb);
    if (by_file) return by_file;
    if (fa != fb) return fa < fb ? -1 : 1;
    const unsigned long la = ca ? strtoul(ca + 1, NULL, 10) : 0, lb = cb ? strtoul(cb + 1, NULL, 10) : 0;
    return la < lb ? -1 : la > lb;
}

static int compare_place(const void *x, const void *y)
{
    const wm_prof_line *a = x, *b = y;
    const int w = compare_where(a->where, b->where);
    if (w) return w;
    return a->func < b->func ? -1 : a->func > b->func;
}

static int compare_cycles(const void *x, const void *y)
{
    const wm_prof_line *a = x, *b = y;
    if (a->total != b->total) return a->total > b->total ? -1 : 1;
    return compare_place(x, y);
}

/* One kernel's PCs placed at their lines, merged a row per line and function. */
static bool kernel_lines(const wm_prof_kernel *k, wm_prof_kernel_lines *out, char *err, size_t err_size)
{
    out->kernel = k;
    const size_t n = k->npcs;
    uint32_t *pcs = wm_xmalloc((n ? n : 1) * sizeof *pcs);
    char **where = wm_xmalloc((n ? n : 1) * sizeof *where);
    for (size_t i = 0; i < n; i++) pcs[i] = k->pcs[i].pc;
    if (!wm_fw_source_lines(k->kernel, pcs, n, where, err, err_size)) {
        free(pcs);
        free(where);
        return false;
    }
    wm_prof_line *rows = wm_xcalloc(n ? n : 1, sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        rows[i].where = where[i];
        rows[i].func = k->pcs[i].func;
        for (int c = 0; c < WM_PROF_NKINDS; c++) {
            rows[i].cycles[c] = k->pcs[i].cycles[c];
            rows[i].total += k->pcs[i].cycles[c];
        }
    }
    qsort(rows, n, sizeof *rows, compare_place);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && !compare_place(&rows[m - 1], &rows[i])) {
            for (int c = 0; c < WM_PROF_NKINDS; c++) rows[m - 1].cycles[c] += rows[i].cycles[c];
            rows[m - 1].total += rows[i].total;
            free(rows[i].where);
            continue;
        }
        rows[m++] = rows[i];
    }
    qsort(rows, m, sizeof *rows, compare_cycles);
    out->lines = rows;
    out->nlines = m;
    free(pcs);
    free(where);
    return true;
}

bool wm_profile_lines(const wm_profile *p, wm_prof_lines *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (strcmp(p->mode, "core")) {
        snprintf(err, err_size, "a profile by line needs the firmware on the cores, and this one is %s", p->mode);
        return false;
    }
    out->kernels = wm_xcalloc(p->nkernels ? p->nkernels : 1, sizeof *out->kernels);
    for (size_t k = 0; k < p->nkernels; k++) {
        char why[4200];
        if (!kernel_lines(&p->kernels[k], &out->kernels[k], why, sizeof why)) {
            snprintf(err, err_size, "kernel %s: %s", p->kernels[k].kernel, why);
            wm_prof_lines_free(out);
            return false;
        }
        out->nkernels++;
    }
    return true;
}

void wm_prof_lines_free(wm_prof_lines *l)
{
    for (size_t k = 0; k < l->nkernels; k++) {
        for (size_t i = 0; i < l->kernels[k].nlines; i++) free(l->kernels[k].lines[i].where);
        free(l->kernels[k].lines);
    }
    free(l->kernels);
    memset(l, 0, sizeof *l);
}

static uint64_t stalled(const uint64_t *cycles)
{
    return cycles[WM_PROF_STALL_TX] + cycles[WM_PROF_STALL_RX];
}

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_kernel(const wm_profile *p, const wm_prof_kernel_lines *kl, size_t top, FILE *out)
{
    const wm_prof_kernel *k = kl->kernel;
    const size_t shown = top && top < kl->nlines ? top : kl->nlines;
    char rest[64];
    snprintf(rest, sizeof rest, "%zu more line%s", kl->nlines - shown, kl->nlines - shown == 1 ? "" : "s");
    int width = (int)strlen(rest);
    for (size_t i = 0; i < shown; i++) {
        const int w = (int)strlen(kl->lines[i].where ? kl->lines[i].where : "(no line)");
        if (w > width) width = w;
    }
    fprintf(out, "lines of kernel %s (%zu PE%s): %" PRIu64 " cycles\n", k->kernel, k->npes, k->npes == 1 ? "" : "s",
            k->cycles);
    fprintf(out, "  %-*s %9s %7s %9s  %s\n", width, "line", "cycles", "share", "stalled", "function");
    uint64_t all = 0, all_stalled = 0, rest_cycles = 0, rest_stalled = 0;
    for (size_t i = 0; i < kl->nlines; i++) {
        const wm_prof_line *ln = &kl->lines[i];
        all += ln->total;
        all_stalled += stalled(ln->cycles);
        if (i >= shown) {
            rest_cycles += ln->total;
            rest_stalled += stalled(ln->cycles);
            continue;
        }
        fprintf(out, "  %-*s %9" PRIu64 " %6.1f%% %9" PRIu64 "  %s\n", width, ln->where ? ln->where : "(no line)",
                ln->total, share(ln->total, k->cycles), stalled(ln->cycles), p->funcs[ln->func]);
    }
    if (shown < kl->nlines)
        fprintf(out, "  %-*s %9" PRIu64 " %6.1f%% %9" PRIu64 "\n", width, rest, rest_cycles,
                share(rest_cycles, k->cycles), rest_stalled);
    fprintf(out, "  %-*s %9" PRIu64 " %6.1f%% %9" PRIu64 "\n", width, "total", all, share(all, k->cycles),
            all_stalled);
}

void wm_profile_print_lines(const wm_profile *p, const wm_prof_lines *l, size_t top, FILE *out)
{
    for (size_t k = 0; k < l->nkernels; k++) {
        if (k) fputc('\n', out);
        print_kernel(p, &l->kernels[k], top, out);
    }
}

/* text as one CSV field: quoted when it holds a comma, a quote or a newline. */
static void csv_field(const char *text, FILE *out)
{
    if (!strpbrk(text, ",\"\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"') fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

bool wm_profile_write_lines_csv(const wm_profile *p, const wm_prof_lines *l, FILE *out, char *err, size_t err_size)
{
    fprintf(out, "kernel,file,line,function");
    for (int c = 0; c < WM_PROF_NKINDS; c++) fprintf(out, ",%s", kind_csv[c]);
    fprintf(out, ",total\n");
    for (size_t k = 0; k < l->nkernels; k++) {
        const wm_prof_kernel_lines *kl = &l->kernels[k];
        for (size_t i = 0; i < kl->nlines; i++) {
            const wm_prof_line *ln = &kl->lines[i];
            csv_field(kl->kernel->kernel, out);
            fputc(',', out);
            const char *colon = ln->where ? strrchr(ln->where, ':') : NULL;
            if (colon) {
                char *file = wm_xstrdup(ln->where);
                file[colon - ln->where] = '\0';
                csv_field(file, out);
                fprintf(out, ",%s,", colon + 1);
                free(file);
            } else {
                fputs(",,", out);
            }
            csv_field(p->funcs[ln->func], out);
            for (int c = 0; c < WM_PROF_NKINDS; c++) fprintf(out, ",%" PRIu64, ln->cycles[c]);
            fprintf(out, ",%" PRIu64 "\n", ln->total);
        }
    }
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, err_size, "%s", strerror(errno));
        return false;
    }
    return true;
}
