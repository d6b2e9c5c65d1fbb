/* options.c: the one option parser (see options.h). */
#include "cli/options.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { HELP_WIDTH = 79, NAME_COLUMN_MAX = 26, MAX_OPTIONS = 64 };

/* One integer, the whole of s, that fits its type: digits (decimal, or hex
 * after 0x: wm_int_base, so 010 is ten), after a '-' when signed. Blanks
 * and a '+', which strtoull would take, are refused. */
static bool whole_int(const char *s, bool is_signed, long long *v, unsigned long long *u)
{
    char *end;
    errno = 0;
    const char *digits = is_signed && *s == '-' ? s + 1 : s;
    if (*digits < '0' || *digits > '9') return false;
    if (is_signed) *v = strtoll(s, &end, wm_int_base(s));
    else *u = strtoull(s, &end, wm_int_base(s));
    return !*end && errno != ERANGE;
}

static bool take_int(const char *s, long long min, long long max, long long *out)
{
    unsigned long long unused;
    return whole_int(s, true, out, &unused) && *out >= min && *out <= max;
}

static bool take_pair(const char *s, char sep, long long min, long long max, long long *pair)
{
    char first[64];
    const char *at = strchr(s, sep);
    if (!at || (size_t)(at - s) >= sizeof first) return false;
    memcpy(first, s, (size_t)(at - s));
    first[at - s] = '\0';
    return take_int(first, min, max, &pair[0]) && take_int(at + 1, min, max, &pair[1]);
}

static bool take_real(const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && !isspace((unsigned char)*s) && end != s && !*end && !errno && *out >= min && *out <= max;
}

static bool take_word(const char *s, const char *const *words, const char **out)
{
    for (; *words; words++)
        if (!strcmp(s, *words)) return *out = *words, true;
    return false;
}

/* The value text of option o into its destination (element k when it
 * repeats); false when the text is not a value of its kind and range. */
static bool take(const wm_option *o, char *text, size_t k)
{
    long long unused;
    switch (o->kind) {
    case WM_OPT_INT: return take_int(text, o->min, o->max, o->to.i);
    case WM_OPT_U64: return whole_int(text, false, &unused, o->to.u) && *o->to.u >= o->umin && *o->to.u <= o->umax;
    case WM_OPT_REAL: return take_real(text, o->rmin, o->rmax, o->to.r);
    case WM_OPT_PAIR: return take_pair(text, o->sep, o->min, o->max, o->to.pair);
    case WM_OPT_CHOICE: return take_word(text, o->words, &o->to.word[k]);
    case WM_OPT_SETTING: return wm_setting_parse(text, &o->to.setting[k]);
    case WM_OPT_CUSTOM: return o->parse(text, o->to.custom);
    case WM_OPT_STRING:
    case WM_OPT_POSITIONAL: o->to.str[k] = text; return true;
    case WM_OPT_FLAG:
    case WM_OPT_HEADING: break;
    }
    return false;
}

/* A choice's words as "a, b or c" (sep ", ", last " or ") or "a|b|c". */
static void join_words(const char *const *words, const char *sep, const char *last, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *const *w = words; *w && n < size; w++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", w == words ? "" : w[1] ? sep : last, *w);
}

/* What option o's value must be, as its messages say after "expected". */
static void describe(const wm_option *o, char *buf, size_t size)
{
    switch (o->kind) {
    case WM_OPT_INT: snprintf(buf, size, "an integer in %lld..%lld", o->min, o->max); break;
    case WM_OPT_U64: snprintf(buf, size, "an integer in %llu..%llu", o->umin, o->umax); break;
    case WM_OPT_REAL: snprintf(buf, size, "a number in %g..%g", o->rmin, o->rmax); break;
    case WM_OPT_PAIR: snprintf(buf, size, "%s, each an integer in %lld..%lld", o->meta, o->min, o->max); break;
    case WM_OPT_CHOICE: join_words(o->words, ", ", " or ", buf, size); break;
    case WM_OPT_SETTING:
        snprintf(buf, size, "NAME=INTEGER, the integer in %lld..%lld", (long long)INT64_MIN, (long long)INT64_MAX);
        break;
    case WM_OPT_CUSTOM: snprintf(buf, size, "%s", o->expected); break;
    default: snprintf(buf, size, "%s", o->meta ? o->meta : o->name); break;
    }
}

static const wm_option *find(const wm_opts *o, const char *name)
{
    for (size_t i = 0; i < o->noptions; i++)
        if (o->options[i].name && o->options[i].kind != WM_OPT_POSITIONAL && !strcmp(o->options[i].name, name))
            return &o->options[i];
    return NULL;
}

/* The next positional after the first `taken` ones, or NULL. A repeatable
 * one (max_count, count) takes every argument up to its maximum. */
static const wm_option *positional(const wm_opts *o, size_t taken)
{
    for (size_t i = 0; i < o->noptions; i++) {
        const wm_option *p = &o->options[i];
        if (p->kind != WM_OPT_POSITIONAL) continue;
        if (p->count && *p->count < p->max_count) return p;
        if (p->count) taken -= taken < *p->count ? taken : *p->count;
        else if (taken-- == 0) return p;
    }
    return NULL;
}

/* ------------------------------------------------ outputs over inputs */

/* A path option's value as given. */
typedef struct {
    const wm_option *opt;
    const char *text;
} given_path;

/* A file the command line names, as compared with the others: the value
 * itself, or one of the files an output's value names (wm_option.writes). */
typedef struct {
    const given_path *given;
    char file[PATH_MAX];
    bool exists, regular;
    dev_t dev;
    ino_t ino;
    char resolved[2 * PATH_MAX + 2]; /* where it does not exist: its folder resolved, then its name */
} named_file;

static void identify(named_file *f)
{
    struct stat st;
    f->exists = stat(f->file, &st) == 0;
    if (f->exists) {
        f->regular = S_ISREG(st.st_mode);
        f->dev = st.st_dev;
        f->ino = st.st_ino;
        return;
    }
    const char *slash = strrchr(f->file, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == f->file) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - f->file), f->file);
    if (realpath(dir, real)) snprintf(f->resolved, sizeof f->resolved, "%s/%s", real, slash ? slash + 1 : f->file);
    else snprintf(f->resolved, sizeof f->resolved, "%s", f->file);
}

static bool same_file(const named_file *a, const named_file *b)
{
    if (a->exists != b->exists) return false;
    if (a->exists) return a->dev == b->dev && a->ino == b->ino;
    return !strcmp(a->resolved, b->resolved);
}

/* "OPT VALUE", and the file when the value only names it. */
static void show_file(const named_file *f, char *buf, size_t size)
{
    if (!strcmp(f->file, f->given->text)) snprintf(buf, size, "%s %s", f->given->opt->name, f->given->text);
    else snprintf(buf, size, "%s %s (its file %s)", f->given->opt->name, f->given->text, f->file);
}

enum { MAX_WRITES = 8 }; /* files one output's value may name */

/* No file an output of given[0..n) writes is an input or another output's;
 * false after the message. Devices and FIFOs, written in place, may be
 * shared. */
static bool outputs_apart(const char *command, const given_path *given, size_t n)
{
    named_file *files = wm_xcalloc(n * MAX_WRITES, sizeof *files);
    size_t nfiles = 0;
    for (size_t i = 0; i < n; i++) {
        const wm_option *opt = given[i].opt;
        for (size_t k = 0; k < (opt->writes ? (size_t)MAX_WRITES : 1); k++) {
            named_file *f = &files[nfiles];
            if (opt->writes ? !opt->writes(given[i].text, k, f->file, sizeof f->file)
                            : snprintf(f->file, sizeof f->file, "%s", given[i].text) < 0)
                break;
            f->given = &given[i];
            identify(f);
            nfiles++;
        }
    }
    bool apart = true;
    for (size_t i = 0; apart && i < nfiles; i++) {
        const named_file *out = &files[i];
        if (out->given->opt->path != WM_PATH_OUT || (out->exists && !out->regular)) continue;
        for (size_t j = 0; apart && j < nfiles; j++) {
            const named_file *other = &files[j];
            /* each pair of outputs once, the later one named first; one
             * value's own files are apart by construction */
            if (other->given == out->given || (other->given->opt->path == WM_PATH_OUT && j > i) ||
                !same_file(out, other))
                continue;
            char a[2 * PATH_MAX + 64], b[2 * PATH_MAX + 64];
            show_file(out, a, sizeof a);
            show_file(other, b, sizeof b);
            fprintf(stderr,
                    "wavemesh %s: %s: the same file as %s (an output may be neither an input nor another output)\n",
                    command, a, b);
            apart = false;
        }
    }
    free(files);
    return apart;
}

bool wm_opts_parse(const wm_opts *o, int argc, char **argv, int *status)
{
    bool seen[MAX_OPTIONS] = {false};
    size_t positionals = 0;
    char expected[400];
    *status = 2;
    if (o->noptions > MAX_OPTIONS) return false;
    given_path *files = wm_xcalloc((size_t)argc, sizeof *files);
    size_t nfiles = 0;
    bool ok = false, options_end = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!options_end && !strcmp(a, "--")) {
            options_end = true;
            continue;
        }
        if (!options_end && !strcmp(a, "--help")) {
            wm_opts_help(o, stdout);
            *status = 0;
            goto done;
        }
        const bool named = !options_end && a[0] == '-';
        const wm_option *opt = named ? find(o, a) : positional(o, positionals);
        if (!opt) {
            fprintf(stderr, "wavemesh %s: %s '%s' (see --help)\n", o->command,
                    named ? "unknown option" : "unexpected argument", a);
            goto done;
        }
        seen[opt - o->options] = true;
        if (opt->given) *opt->given = true;
        if (opt->kind == WM_OPT_FLAG) {
            *opt->to.flag = true;
            continue;
        }
        if (opt->kind == WM_OPT_POSITIONAL) {
            take(opt, a, opt->count ? (*opt->count)++ : 0);
            positionals++;
            if (opt->path) files[nfiles++] = (given_path){.opt = opt, .text = a};
            continue;
        }
        describe(opt, expected, sizeof expected);
        if (i + 1 == argc) {
            fprintf(stderr, "wavemesh %s: %s: expected %s\n", o->command, opt->name, expected);
            goto done;
        }
        char *value = argv[++i];
        if (opt->count && *opt->count == opt->max_count) {
            fprintf(stderr, "wavemesh %s: %s %s: too many %s options (at most %zu)\n", o->command, opt->name, value,
                    opt->name, opt->max_count);
            goto done;
        }
        if (!take(opt, value, opt->count ? *opt->count : 0)) {
            fprintf(stderr, "wavemesh %s: %s %s: expected %s\n", o->command, opt->name, value, expected);
            goto done;
        }
        if (opt->count) ++*opt->count;
        if (opt->path) {
            /* an option given twice keeps its last value: its file too */
            size_t k = 0;
            while (k < nfiles && (opt->count || files[k].opt != opt)) k++;
            files[k] = (given_path){.opt = opt, .text = value};
            if (k == nfiles) nfiles++;
        }
    }
    for (size_t k = 0; k < o->noptions; k++)
        if (o->options[k].required && !seen[k]) {
            fprintf(stderr, "wavemesh %s: %s is required (see --help)\n", o->command, o->options[k].name);
            goto done;
        }
    if (!outputs_apart(o->command, files, nfiles)) goto done;
    *status = 0;
    ok = true;
done:
    free(files);
    return ok;
}

/* ------------------------------------------------------------ --help */

/* A blank inside a word of the usage line, "[--pe native|core]", which
 * wrap() keeps on one line. */
#define KEEP_BLANK '\x1f'

/* Words of text from column col on, lines broken before HELP_WIDTH and
 * at each '\n', continued at column indent; ends the line. */
static void wrap(FILE *out, const char *text, size_t col, size_t indent)
{
    bool fresh = true; /* no word yet on this line */
    for (const char *p = text; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        const size_t len = strcspn(p, " \n");
        if (*p == '\n' || (!fresh && col + 1 + len > HELP_WIDTH)) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
            fresh = true;
            if (*p == '\n') {
                p++;
                continue;
            }
        }
        if (!fresh) fputc(' ', out), col++;
        for (size_t k = 0; k < len; k++) fputc(p[k] == KEEP_BLANK ? ' ' : p[k], out);
        col += len;
        p += len;
        fresh = false;
    }
    fputc('\n', out);
}

/* "--name META" (a choice's META is its words a|b|c), or a positional's
 * name; blank is what separates them. */
static void left_column(const wm_option *o, char blank, char *buf, size_t size)
{
    char words[200];
    const char *meta = o->meta;
    if (o->kind == WM_OPT_CHOICE) join_words(o->words, "|", "|", words, sizeof words), meta = words;
    snprintf(buf, size, "%s%c%s", o->name, meta ? blank : '\0', meta ? meta : "");
}

/* The range of a value, said after its help. */
static void range_note(const wm_option *o, char *buf, size_t size)
{
    buf[0] = '\0';
    if (o->kind == WM_OPT_INT) snprintf(buf, size, "%s in %lld..%lld", o->meta, o->min, o->max);
    else if (o->kind == WM_OPT_U64) snprintf(buf, size, "%s in %llu..%llu", o->meta, o->umin, o->umax);
    else if (o->kind == WM_OPT_REAL) snprintf(buf, size, "%s in %g..%g", o->meta, o->rmin, o->rmax);
    else if (o->kind == WM_OPT_PAIR) snprintf(buf, size, "each in %lld..%lld", o->min, o->max);
    else if (o->count) snprintf(buf, size, "at most %zu of them", o->max_count);
}

void wm_opts_help(const wm_opts *o, FILE *out)
{
    char usage[2048], left[256], note[200], text[2048];
    size_t n = (size_t)snprintf(usage, sizeof usage, "wavemesh %s", o->command);
    size_t width = 0;
    for (size_t i = 0; i < o->noptions; i++) {
        const wm_option *opt = &o->options[i];
        if (opt->kind == WM_OPT_HEADING) continue;
        left_column(opt, KEEP_BLANK, left, sizeof left);
        const bool optional = !opt->required;
        if (n < sizeof usage)
            n += (size_t)snprintf(usage + n, sizeof usage - n, " %s%s%s%s", optional ? "[" : "", left,
                                  optional ? "]" : "", opt->count ? "..." : "");
        if (opt->kind != WM_OPT_POSITIONAL && strlen(left) <= NAME_COLUMN_MAX && strlen(left) > width)
            width = strlen(left);
    }
    fputs("usage: ", out);
    wrap(out, usage, strlen("usage: "), strlen("usage: wavemesh ") + strlen(o->command) + 1);
    fputs(o->about, out);
    for (size_t i = 0; i < o->noptions; i++) {
        const wm_option *opt = &o->options[i];
        if (opt->kind == WM_OPT_POSITIONAL) continue;
        if (opt->kind == WM_OPT_HEADING) {
            fprintf(out, "%s\n", opt->help);
            continue;
        }
        left_column(opt, ' ', left, sizeof left);
        range_note(opt, note, sizeof note);
        snprintf(text, sizeof text, "%s%s%s", opt->help ? opt->help : "", opt->help && note[0] ? "; " : "", note);
        const size_t pad = strlen(left) <= width ? width - strlen(left) : 0;
        fprintf(out, "  %s%*s  ", left, (int)pad, "");
        wrap(out, text, 2 + strlen(left) + pad + 2, 2 + width + 2);
    }
    if (o->more) fputs(o->more, out);
}
