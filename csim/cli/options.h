/* options.h: the one option parser of the wavemesh commands.
 *
 * Each command declares a table of its options: name, metavariable, kind,
 * range, where the value goes, help text. wm_opts_parse reads argv against
 * it, checks every value against its kind and range, answers --help with a
 * text generated from the table (usage line, the command's own prose, one
 * line per option, with its range), and reports every error in one format:
 *
 *   wavemesh CMD: OPT VALUE: expected ...       a bad value
 *   wavemesh CMD: OPT VALUE: too many OPT options (at most N)
 *   wavemesh CMD: OPT: expected ...             the value is missing
 *   wavemesh CMD: unknown option 'ARG' (see --help)
 *   wavemesh CMD: unexpected argument 'ARG' (see --help)
 *   wavemesh CMD: OPT is required (see --help)  (or: LAYOUT is required)
 *
 * Options that name files say so (path: WM_PATH_IN, WM_PATH_OUT). Before
 * the command runs, every output is compared with every input and every
 * other output, as files (device and inode) where they exist, by resolved
 * path where they do not yet (an output that names several files, a
 * prefix or a dump with its save file, says which: writes); an output that
 * is one of them is refused:
 *
 *   wavemesh CMD: OPT VALUE: the same file as OPT2 VALUE2 (an output may be neither an input nor another output)
 *
 * Outputs that exist and are not regular files (/dev/null, /dev/stdout, a
 * FIFO) are written in place and may be shared.
 *
 * `--` ends the options: every argument after it is a positional, even
 * one that begins with '-'.
 *
 * An option given twice keeps its last value, unless it is repeatable
 * (max_count, count): then the k-th value goes to element k of its
 * destination array. Numbers are decimal or 0x hexadecimal, never octal,
 * with no blank and no '+'. */
#ifndef WM_OPTIONS_H
#define WM_OPTIONS_H

#include "run/layout.h" /* wm_setting */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum {
    WM_OPT_FLAG,       /* no value: sets *to.flag */
    WM_OPT_INT,        /* an integer in min..max */
    WM_OPT_U64,        /* an unsigned integer in umin..umax */
    WM_OPT_REAL,       /* a number in rmin..rmax */
    WM_OPT_PAIR,       /* A<sep>B (WxH, X,Y), each an integer in min..max: to.pair[0], to.pair[1] */
    WM_OPT_CHOICE,     /* one of words: *to.word points at it */
    WM_OPT_STRING,     /* any text */
    WM_OPT_SETTING,    /* NAME=INTEGER, a layout parameter's override */
    WM_OPT_CUSTOM,     /* parse(text, to.custom) decides; expected says what it takes */
    WM_OPT_POSITIONAL, /* an argument without a name, in table order; name is its metavariable */
    WM_OPT_HEADING,    /* no option: a line of the help's option list (help) */
} wm_opt_kind;

/* What a value names: a file the command reads, or writes. */
typedef enum { WM_PATH_NONE, WM_PATH_IN, WM_PATH_OUT } wm_path_role;

typedef struct {
    const char *name; /* "--max-cycles", "-o"; a positional's metavariable, "LAYOUT" */
    const char *meta; /* the value's metavariable, "N", "WxH"; a choice's is its words */
    wm_opt_kind kind;
    union {
        bool *flag;
        long long *i;
        unsigned long long *u;
        double *r;
        long long *pair; /* two of them */
        const char **word;
        const char **str;
        wm_setting *setting;
        void *custom;
    } to;
    long long min, max;            /* INT, PAIR */
    unsigned long long umin, umax; /* U64 */
    double rmin, rmax;             /* REAL */
    char sep;                      /* PAIR: 'x' or ',' */
    const char *const *words;      /* CHOICE: NULL-terminated */
    bool (*parse)(const char *text, void *to); /* CUSTOM */
    const char *expected;          /* CUSTOM: what follows "expected" in its message */
    size_t max_count;              /* repeatable: at most this many ... */
    size_t *count;                 /* ... counted here */
    bool *given;                   /* set when the option is on the command line, or NULL */
    bool required;
    wm_path_role path;             /* STRING, CUSTOM, POSITIONAL: the value is a file read or written */
    /* An output whose value names other files than itself (a prefix, a side
     * file): the k-th of them into name; false past the last. NULL: the
     * value is the one file. */
    bool (*writes)(const char *value, size_t k, char *name, size_t size);
    const char *help;
} wm_option;

/* The rows of a table, one a kind. */
#define WM_OPT_FLAG_ROW(name_, flag_, help_) {(name_), NULL, WM_OPT_FLAG, .to.flag = (flag_), .help = (help_)}
#define WM_OPT_INT_ROW(name_, meta_, to_, lo, hi, help_) \
    {(name_), (meta_), WM_OPT_INT, .to.i = (to_), .min = (lo), .max = (hi), .help = (help_)}
#define WM_OPT_U64_ROW(name_, meta_, to_, lo, hi, help_) \
    {(name_), (meta_), WM_OPT_U64, .to.u = (to_), .umin = (lo), .umax = (hi), .help = (help_)}
#define WM_OPT_REAL_ROW(name_, meta_, to_, lo, hi, help_) \
    {(name_), (meta_), WM_OPT_REAL, .to.r = (to_), .rmin = (lo), .rmax = (hi), .help = (help_)}
#define WM_OPT_PAIR_ROW(name_, meta_, sep_, to_, lo, hi, help_) \
    {(name_), (meta_), WM_OPT_PAIR, .to.pair = (to_), .sep = (sep_), .min = (lo), .max = (hi), .help = (help_)}
#define WM_OPT_CHOICE_ROW(name_, to_, words_, help_) \
    {(name_), NULL, WM_OPT_CHOICE, .to.word = (to_), .words = (words_), .help = (help_)}
#define WM_OPT_STRING_ROW(name_, meta_, to_, help_) {(name_), (meta_), WM_OPT_STRING, .to.str = (to_), .help = (help_)}
/* A file the command writes, and one it reads. */
#define WM_OPT_OUTPUT_ROW(name_, meta_, to_, help_) \
    {(name_), (meta_), WM_OPT_STRING, .to.str = (to_), .path = WM_PATH_OUT, .help = (help_)}
#define WM_OPT_INPUT_ROW(name_, meta_, to_, help_) \
    {(name_), (meta_), WM_OPT_STRING, .to.str = (to_), .path = WM_PATH_IN, .help = (help_)}
#define WM_OPT_SETTINGS_ROW(settings_, max_, count_, help_)                                                    \
    {"--set", "NAME=VALUE", WM_OPT_SETTING, .to.setting = (settings_), .max_count = (max_), .count = (count_), \
     .help = (help_)}
/* A positional argument: a file the command reads. */
#define WM_OPT_POSITIONAL_ROW(meta_, to_, required_) \
    {(meta_), NULL, WM_OPT_POSITIONAL, .to.str = (to_), .required = (required_), .path = WM_PATH_IN}
#define WM_OPT_HEADING_ROW(text) {NULL, NULL, WM_OPT_HEADING, .help = (text)}

/* A command's options and the prose of its --help. */
typedef struct {
    const char *command;      /* "run" */
    const wm_option *options; /* the table */
    size_t noptions;
    const char *about;        /* after the usage line: what the command does */
    const char *more;         /* after the option list, or NULL */
} wm_opts;

#define WM_OPTS(command_, table, about_, more_) {(command_), (table), sizeof(table) / sizeof(table)[0], (about_), (more_)}

/* Reads argv[1..argc-1] into the table's destinations. True when the
 * command is to run; false when it is not, with the exit status in *status:
 * 0 after --help (on stdout), 2 after a message on stderr. */
bool wm_opts_parse(const wm_opts *o, int argc, char **argv, int *status);

/* The --help text. */
void wm_opts_help(const wm_opts *o, FILE *out);

#endif
