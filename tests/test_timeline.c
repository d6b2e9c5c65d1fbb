/* test_timeline.c: a profile drawn for the trace viewers, the flame graph
 * tools and the eye (csim/profile/timeline.h).
 *
 * A profile written by hand, small enough to know every line of its
 * outputs: three PEs with slices of each kind, two messages into the
 * third, a critical path of three segments (compute on l1, l1's message to
 * p0, compute on p0) over the run's 90 cycles. The Chrome trace must load
 * as JSON (a small parser here, so the test needs nothing installed, and
 * proved to refuse what is not JSON), with one named track per PE, one
 * flow start and one flow end per message at the right tracks and cycles,
 * slices adding up to each PE's cycles and the path's to the run's; the
 * folded stacks are exactly the expected lines and add up the same way;
 * the PNG is a PNG, and a path in a missing folder is refused with its
 * name and leaves nothing behind. A profile whose indices point outside
 * it is refused by all three writers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "profile/timeline.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ the profile */

static const char *funcs[] = {"_start", "main", "wm_mp_header", "wm_mp_recv", "wm_mp_send"};
enum { F_START, F_MAIN, F_HEADER, F_RECV, F_SEND };

static wm_prof_slice l0_slices[] = {
    {0, 10, F_START, WM_PROF_STARTUP},   {10, 20, F_MAIN, WM_PROF_EXEC},     {20, 31, F_HEADER, WM_PROF_EXEC},
    {31, 35, F_SEND, WM_PROF_EXEC},      {35, 40, F_SEND, WM_PROF_STALL_TX}, {40, 45, F_SEND, WM_PROF_STALL_TX},
    {45, 60, F_MAIN, WM_PROF_EXEC},
};
static wm_prof_slice l1_slices[] = {
    {0, 10, F_START, WM_PROF_STARTUP}, {10, 15, F_MAIN, WM_PROF_EXEC}, {15, 31, F_HEADER, WM_PROF_EXEC},
    {31, 36, F_SEND, WM_PROF_EXEC},    {36, 70, F_MAIN, WM_PROF_EXEC},
};
static wm_prof_slice p0_slices[] = {
    {2, 12, F_START, WM_PROF_STARTUP},  {12, 14, F_MAIN, WM_PROF_EXEC}, {14, 30, F_RECV, WM_PROF_EXEC},
    {30, 50, F_RECV, WM_PROF_STALL_RX}, {50, 52, F_RECV, WM_PROF_EXEC}, {52, 60, F_RECV, WM_PROF_STALL_RX},
    {60, 64, F_RECV, WM_PROF_EXEC},     {64, 90, F_MAIN, WM_PROF_EXEC},
};
/* The number of slices once consecutive ones of one function and kind
 * are merged: l0's two TX stalls are one. */
static const size_t merged_slices[3] = {6, 5, 8};

static wm_prof_pe pes[] = {
    {"l0", 0, 0, 0, 60, l0_slices, sizeof l0_slices / sizeof l0_slices[0]},
    {"l1", 1, 0, 0, 70, l1_slices, sizeof l1_slices / sizeof l1_slices[0]},
    {"p0", 2, 0, 2, 90, p0_slices, sizeof p0_slices / sizeof p0_slices[0]},
};
static const char *const track_names[3] = {"l0 (0,0)", "l1 (1,0)", "p0 (2,0)"};

/* In order of their header's push. */
static wm_prof_msg msgs[] = {
    {1, 2, 15, 62, 2, 1},
    {0, 2, 20, 50, 2, 2},
};

static wm_prof_segment segments[] = {
    {WM_SEG_COMPUTE, 1, 0, 0, 15},
    {WM_SEG_MESSAGE, 2, 0, 15, 62},
    {WM_SEG_COMPUTE, 2, 0, 62, 90},
};

static wm_profile profile(void)
{
    return (wm_profile){
        .mode = "core",
        .funcs = funcs,
        .nfuncs = sizeof funcs / sizeof funcs[0],
        .pes = pes,
        .npes = 3,
        .msgs = msgs,
        .nmsgs = 2,
        .path = segments,
        .npath = 3,
        .last_event = 90,
    };
}

/* A writer's output, as a string. */
typedef bool (*writer)(const wm_profile *, FILE *, char *, size_t);

static char *written(writer w, const wm_profile *p)
{
    char *buf = NULL, err[256] = "";
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    const bool ok = w(p, f, err, sizeof err);
    fclose(f);
    if (!ok) fail_msg("the writer failed: %s", err);
    return buf;
}

/* ------------------------------------------------------- a JSON reader */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype type;
    double num;
    char *str;          /* J_STR: decoded, as UTF-8 */
    struct jval *items; /* J_ARR: values; J_OBJ: values, keys in keys */
    char **keys;
    size_t n;
} jval;

typedef struct {
    const char *s;
    bool bad;
} jreader;

static void skip_space(jreader *r)
{
    while (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r') r->s++;
}

static void put_utf8(char **o, unsigned c)
{
    unsigned char *u = (unsigned char *)*o;
    if (c < 0x80) {
        *u++ = (unsigned char)c;
    } else if (c < 0x800) {
        *u++ = (unsigned char)(0xc0 | c >> 6);
        *u++ = (unsigned char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        *u++ = (unsigned char)(0xe0 | c >> 12);
        *u++ = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        *u++ = (unsigned char)(0x80 | (c & 0x3f));
    } else {
        *u++ = (unsigned char)(0xf0 | c >> 18);
        *u++ = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
        *u++ = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        *u++ = (unsigned char)(0x80 | (c & 0x3f));
    }
    *o = (char *)u;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        const char c = s[k];
        const int d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A string at r->s (its opening quote); its decoded bytes. */
static char *read_string(jreader *r)
{
    char *out = malloc(strlen(r->s) * 4 + 1), *o = out;
    r->s++;
    for (;;) {
        const unsigned char c = (unsigned char)*r->s;
        if (c == '"') {
            r->s++;
            break;
        }
        if (c < 0x20) { /* the end of the text, or a control character not escaped */
            r->bad = true;
            break;
        }
        if (c != '\\') {
            *o++ = (char)c;
            r->s++;
            continue;
        }
        const char e = r->s[1];
        r->s += 2;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            *o++ = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
            continue;
        }
        int u = e == 'u' ? hex4(r->s) : -1;
        if (u < 0) {
            r->bad = true;
            break;
        }
        r->s += 4;
        if (u >= 0xd800 && u <= 0xdbff && r->s[0] == '\\' && r->s[1] == 'u') {
            const int lo = hex4(r->s + 2);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                r->s += 6;
            }
        }
        put_utf8(&o, (unsigned)u);
    }
    *o = '\0';
    return out;
}

static void read_value(jreader *r, jval *v);

static void read_items(jreader *r, jval *v, char close, bool keyed)
{
    size_t cap = 0;
    r->s++;
    skip_space(r);
    if (*r->s == close) {
        r->s++;
        return;
    }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            v->items = realloc(v->items, cap * sizeof *v->items);
            v->keys = realloc(v->keys, cap * sizeof *v->keys);
        }
        /* The item counts from here, so free_value finds whatever it holds. */
        v->keys[v->n] = NULL;
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        jval *item = &v->items[v->n];
        char **key = &v->keys[v->n++];
        skip_space(r);
        if (keyed) {
            if (*r->s != '"') {
                r->bad = true;
                return;
            }
            *key = read_string(r);
            skip_space(r);
            if (*r->s != ':') {
                r->bad = true;
                return;
            }
            r->s++;
        }
        read_value(r, item);
        if (r->bad) return;
        skip_space(r);
        if (*r->s == ',') {
            r->s++;
            continue;
        }
        if (*r->s == close) {
            r->s++;
            return;
        }
        r->bad = true;
        return;
    }
}

/* A number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static void read_number(jreader *r, jval *v)
{
    const char *s = r->s;
    if (*s == '-') s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9') s++;
    else
        r->bad = true;
    if (*s == '.') {
        if (!(*++s >= '0' && *s <= '9')) r->bad = true;
        while (*s >= '0' && *s <= '9') s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(*s >= '0' && *s <= '9')) r->bad = true;
        while (*s >= '0' && *s <= '9') s++;
    }
    v->type = J_NUM;
    v->num = strtod(r->s, NULL);
    r->s = s;
}

static void read_value(jreader *r, jval *v)
{
    memset(v, 0, sizeof *v);
    skip_space(r);
    const char c = *r->s;
    if (c == '{') {
        v->type = J_OBJ;
        read_items(r, v, '}', true);
    } else if (c == '[') {
        v->type = J_ARR;
        read_items(r, v, ']', false);
    } else if (c == '"') {
        v->type = J_STR;
        v->str = read_string(r);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        read_number(r, v);
    } else if (!strncmp(r->s, "true", 4) || !strncmp(r->s, "null", 4)) {
        v->type = c == 't' ? J_BOOL : J_NULL;
        r->s += 4;
    } else if (!strncmp(r->s, "false", 5)) {
        v->type = J_BOOL;
        r->s += 5;
    } else {
        r->bad = true;
    }
}

static void free_value(jval *v)
{
    for (size_t k = 0; k < v->n; k++) {
        free_value(&v->items[k]);
        free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

/* The text as one JSON value and nothing after it, or false. */
static bool parse_json(const char *text, jval *v)
{
    jreader r = {text, false};
    read_value(&r, v);
    skip_space(&r);
    if (r.bad || *r.s) {
        free_value(v);
        return false;
    }
    return true;
}

static const jval *member(const jval *obj, const char *key)
{
    if (!obj || obj->type != J_OBJ) return NULL;
    for (size_t k = 0; k < obj->n; k++)
        if (!strcmp(obj->keys[k], key)) return &obj->items[k];
    return NULL;
}

static const char *str_of(const jval *obj, const char *key)
{
    const jval *v = member(obj, key);
    return v && v->type == J_STR ? v->str : NULL;
}

static double num_of(const jval *obj, const char *key)
{
    const jval *v = member(obj, key);
    assert_non_null(v);
    assert_int_equal(v->type, J_NUM);
    return v->num;
}

/* The trace of the profile, parsed; its events. */
static const jval *trace_events(const wm_profile *p, jval *doc, char **text)
{
    *text = written(wm_profile_write_chrome, p);
    if (!parse_json(*text, doc)) fail_msg("the trace is not JSON:\n%s", *text);
    const jval *ev = member(doc, "traceEvents");
    assert_non_null(ev);
    assert_int_equal(ev->type, J_ARR);
    return ev;
}

/* ------------------------------------------------------------ the tests */

/* The reader above refuses what is not JSON, so its yes means something. */
static void test_the_json_reader_refuses_what_is_not_json(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "\"a\nb\"", "[01]", "{\"a\":\"\\x\"}", "[1.]", "{} {}", "[tru]", "{\"a\":1",
    };
    static const char *const good[] = {
        "{\"a\":[1,-2.5e3,true,false,null],\"b\":{\"c\":\"\\u00e9\\\"\\\\\"}}",
        " [] ",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        jval v;
        if (parse_json(bad[k], &v)) fail_msg("accepted: %s", bad[k]);
    }
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        jval v;
        if (!parse_json(good[k], &v)) fail_msg("refused: %s", good[k]);
        free_value(&v);
    }
}

/* One process, the fabric; a track per PE in layout order, named by its
 * instance and tile; the critical path's after them; one cycle a
 * microsecond, said in otherData. */
static void test_the_trace_has_a_named_track_per_pe(void **state)
{
    (void)state;
    const wm_profile p = profile();
    jval doc;
    char *text;
    const jval *ev = trace_events(&p, &doc, &text);
    assert_string_equal(str_of(member(&doc, "otherData"), "time unit"), "1 us = 1 cycle");
    size_t names = 0, sorts = 0, processes = 0;
    for (size_t k = 0; k < ev->n; k++) {
        const jval *e = &ev->items[k];
        assert_int_equal(num_of(e, "pid"), 1);
        if (strcmp(str_of(e, "ph"), "M")) continue;
        const size_t tid = (size_t)num_of(e, "tid");
        const char *what = str_of(e, "name");
        if (!strcmp(what, "process_name")) {
            assert_string_equal(str_of(member(e, "args"), "name"), "fabric (core)");
            processes++;
        } else if (!strcmp(what, "thread_name")) {
            assert_true(tid >= 1 && tid <= 4);
            assert_string_equal(str_of(member(e, "args"), "name"), tid == 4 ? "critical path" : track_names[tid - 1]);
            names++;
        } else if (!strcmp(what, "thread_sort_index")) {
            assert_int_equal(num_of(member(e, "args"), "sort_index"), tid - 1);
            sorts++;
        }
    }
    assert_int_equal(processes, 1);
    assert_int_equal(names, p.npes + 1);
    assert_int_equal(sorts, p.npes + 1);
    free_value(&doc);
    free(text);
}

/* Exactly one flow start at the sender's track at the push of the header
 * and one flow end at the receiver's at the pop of the last wavelet, per
 * message, with the same id, bound to the enclosing slices. */
static void test_the_trace_has_a_flow_per_message(void **state)
{
    (void)state;
    const wm_profile p = profile();
    jval doc;
    char *text;
    const jval *ev = trace_events(&p, &doc, &text);
    size_t starts[2] = {0, 0}, ends[2] = {0, 0}, flows = 0;
    for (size_t k = 0; k < ev->n; k++) {
        const jval *e = &ev->items[k];
        const char *ph = str_of(e, "ph");
        if (strcmp(ph, "s") && strcmp(ph, "f")) continue;
        flows++;
        const size_t id = (size_t)num_of(e, "id");
        assert_true(id < p.nmsgs);
        assert_string_equal(str_of(e, "bp"), "e");
        const wm_prof_msg *m = &p.msgs[id];
        if (!strcmp(ph, "s")) {
            starts[id]++;
            assert_int_equal(num_of(e, "tid"), m->from + 1);
            assert_int_equal(num_of(e, "ts"), m->sent);
        } else {
            ends[id]++;
            assert_int_equal(num_of(e, "tid"), m->to + 1);
            assert_int_equal(num_of(e, "ts"), m->received);
        }
    }
    assert_int_equal(flows, 2 * p.nmsgs);
    for (size_t m = 0; m < p.nmsgs; m++) {
        assert_int_equal(starts[m], 1);
        assert_int_equal(ends[m], 1);
    }
    free_value(&doc);
    free(text);
}

/* Each PE's complete events tile its cycles: they follow one another from
 * its start to its end, no two neighbours of one function and kind, and
 * their durations add up to end - start. The path's track adds up to the
 * run's last event. */
static void test_the_trace_slices_add_up_to_each_pe_s_cycles(void **state)
{
    (void)state;
    const wm_profile p = profile();
    jval doc;
    char *text;
    const jval *ev = trace_events(&p, &doc, &text);
    for (size_t i = 0; i <= p.npes; i++) {
        const size_t tid = i + 1;
        uint64_t sum = 0, at = i < p.npes ? p.pes[i].start : 0;
        size_t n = 0;
        const char *last_name = NULL, *last_kind = NULL;
        for (size_t k = 0; k < ev->n; k++) {
            const jval *e = &ev->items[k];
            if (strcmp(str_of(e, "ph"), "X") || (size_t)num_of(e, "tid") != tid) continue;
            assert_int_equal(num_of(e, "ts"), at);
            const uint64_t dur = (uint64_t)num_of(e, "dur");
            at += dur;
            sum += dur;
            const char *name = str_of(e, "name"), *kind = str_of(member(e, "args"), "kind");
            assert_non_null(kind);
            if (last_name && !strcmp(name, last_name) && !strcmp(kind, last_kind))
                fail_msg("track %zu: two slices of %s (%s) in a row", tid, name, kind);
            last_name = name;
            last_kind = kind;
            n++;
        }
        if (i < p.npes) {
            assert_int_equal(sum, p.pes[i].end - p.pes[i].start);
            assert_int_equal(n, merged_slices[i]);
        } else {
            assert_int_equal(sum, p.last_event);
            assert_int_equal(n, p.npath);
        }
    }
    /* The merged TX stall of l0, whole. */
    assert_non_null(strstr(text, "{\"name\":\"wm_mp_send\",\"cat\":\"stalled TX\",\"ph\":\"X\",\"ts\":35,\"dur\":10,"
                                 "\"pid\":1,\"tid\":1,\"args\":{\"kind\":\"stalled TX\"}}"));
    free_value(&doc);
    free(text);
}

/* Names the JSON cannot hold as they are: quotes, backslashes, control
 * characters and bytes that are not UTF-8 are escaped, and read back as
 * they were (the stray byte as U+FFFD); UTF-8 passes as it is. Equal
 * profiles give equal bytes. */
static void test_the_trace_escapes_names_and_is_deterministic(void **state)
{
    (void)state;
    const char *odd[] = {"_start", "say \"hi\"", "back\\slash\ttab", "caf\xc3\xa9", "bad\xff byte"};
    wm_profile p = profile();
    p.funcs = odd;
    jval doc;
    char *text;
    const jval *ev = trace_events(&p, &doc, &text);
    static const char *const want[] = {"say \"hi\"", "back\\slash\ttab", "caf\xc3\xa9", "bad\xef\xbf\xbd byte"};
    bool seen[4] = {false, false, false, false};
    for (size_t k = 0; k < ev->n; k++) {
        const char *name = str_of(&ev->items[k], "name");
        for (size_t w = 0; w < 4; w++)
            if (name && !strcmp(name, want[w])) seen[w] = true;
    }
    for (size_t w = 0; w < 4; w++)
        if (!seen[w]) fail_msg("no slice named %s in\n%s", want[w], text);
    char *again = written(wm_profile_write_chrome, &p);
    assert_string_equal(text, again);
    free(again);
    free_value(&doc);
    free(text);
}

/* The folded stacks, line by line: per PE in layout order, functions by
 * name, the waiting and the start-up in frames of their own; each PE's
 * lines add up to its end - start. */
static void test_the_folded_stacks_are_exact_and_add_up(void **state)
{
    (void)state;
    const wm_profile p = profile();
    char *text = written(wm_profile_write_folded, &p);
    assert_string_equal(text, "l0;_start;[start-up] 10\n"
                              "l0;main 25\n"
                              "l0;wm_mp_header 11\n"
                              "l0;wm_mp_send 4\n"
                              "l0;wm_mp_send;[stall TX] 10\n"
                              "l1;_start;[start-up] 10\n"
                              "l1;main 39\n"
                              "l1;wm_mp_header 16\n"
                              "l1;wm_mp_send 5\n"
                              "p0;_start;[start-up] 10\n"
                              "p0;main 28\n"
                              "p0;wm_mp_recv 22\n"
                              "p0;wm_mp_recv;[stall RX] 28\n");
    uint64_t sum[3] = {0, 0, 0};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        const char *count = strrchr(line, ' ');
        assert_non_null(count);
        for (size_t i = 0; i < p.npes; i++)
            if (!strncmp(line, p.pes[i].instance, strlen(p.pes[i].instance)) && line[strlen(p.pes[i].instance)] == ';')
                sum[i] += strtoull(count + 1, NULL, 10);
    }
    for (size_t i = 0; i < p.npes; i++) assert_int_equal(sum[i], p.pes[i].end - p.pes[i].start);
    free(text);
}

/* A ';' would split a frame and a line break a line: both become '_'. */
static void test_the_folded_stacks_keep_a_name_one_frame(void **state)
{
    (void)state;
    const char *odd[] = {"_start", "a;b", "two\nlines", "wm_mp_recv", "wm_mp_send"};
    wm_profile p = profile();
    p.funcs = odd;
    char *text = written(wm_profile_write_folded, &p);
    assert_non_null(strstr(text, "\nl0;a_b 25\n"));
    assert_non_null(strstr(text, "\nl0;two_lines 11\n"));
    free(text);
}

static bool is_png(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char head[8];
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    const bool ok = fread(head, 1, 8, f) == 8 && !memcmp(head, sig, 8);
    fclose(f);
    return ok;
}

/* No file in dir whose name begins with prefix. */
static bool no_file_like(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    bool none = true;
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, prefix, strlen(prefix))) none = false;
    closedir(d);
    return none;
}

/* The picture is a PNG, and its temporary name is gone. */
static void test_the_png_is_written(void **state)
{
    (void)state;
    const wm_profile p = profile();
    const char *path = BUILD_DIR "/test_timeline.png";
    char err[512] = "";
    unlink(path);
    if (!wm_profile_write_png(&p, path, err, sizeof err)) fail_msg("%s", err);
    assert_true(is_png(path));
    assert_true(no_file_like(BUILD_DIR, "test_timeline.png.tmp"));
}

/* A path in a missing folder: false, the path in the message, no file. */
static void test_the_png_in_a_missing_folder_is_refused(void **state)
{
    (void)state;
    const wm_profile p = profile();
    const char *path = BUILD_DIR "/no-such-folder/timeline.png";
    char err[512] = "";
    assert_false(wm_profile_write_png(&p, path, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(access(BUILD_DIR "/no-such-folder", F_OK), -1);
}

/* A slice naming a function the profile does not have, a message from a
 * PE it does not have: each writer says so and writes nothing. */
static void test_a_profile_pointing_outside_itself_is_refused(void **state)
{
    (void)state;
    wm_prof_slice bad_slices[] = {{0, 10, 99, WM_PROF_EXEC}};
    wm_prof_pe bad_pes[] = {{"l0", 0, 0, 0, 10, bad_slices, 1}};
    wm_profile bad = profile();
    bad.pes = bad_pes;
    bad.npes = 1;
    bad.nmsgs = 0;
    bad.npath = 0;
    const writer writers[] = {wm_profile_write_chrome, wm_profile_write_folded};
    for (size_t w = 0; w < 2; w++) {
        char *buf = NULL, err[256] = "";
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        assert_false(writers[w](&bad, f, err, sizeof err));
        fclose(f);
        assert_non_null(strstr(err, "slice 0 of l0"));
        assert_int_equal(n, 0);
        free(buf);
    }
    char err[256] = "";
    const char *path = BUILD_DIR "/test_timeline_bad.png";
    assert_false(wm_profile_write_png(&bad, path, err, sizeof err));
    assert_non_null(strstr(err, "slice 0 of l0"));
    assert_int_equal(access(path, F_OK), -1);

    wm_profile far = profile();
    wm_prof_msg bad_msgs[] = {{0, 7, 1, 2, 1, 1}};
    far.msgs = bad_msgs;
    far.nmsgs = 1;
    far.npath = 0;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_false(wm_profile_write_chrome(&far, f, err, sizeof err));
    fclose(f);
    assert_non_null(strstr(err, "message 0"));
    free(buf);
    assert_false(wm_profile_write_png(&far, path, err, sizeof err));
    assert_non_null(strstr(err, "message 0"));
}

/* A run that did not return is a timeline cut short, and both files say
 * so: otherData names the ending and its cycle, the PNG has a line over the
 * plot (read from the script gnuplot is given: a stand-in gnuplot on PATH
 * keeps it). A run that returned says that, and the PNG adds no line. */
static void test_the_files_say_how_the_run_ended(void **state)
{
    (void)state;
    wm_profile p = profile();
    jval doc;
    char *text;
    (void)trace_events(&p, &doc, &text);
    assert_null(member(member(&doc, "otherData"), "run ended"));
    free_value(&doc);
    free(text);
    p.ending = "cycle-limit";
    p.ending_phrase = "the cycle limit reached";
    p.end_cycle = 273;
    (void)trace_events(&p, &doc, &text);
    assert_non_null(member(member(&doc, "otherData"), "run ended"));
    assert_string_equal(str_of(member(&doc, "otherData"), "run ended"), "cycle-limit");
    assert_int_equal(num_of(member(&doc, "otherData"), "run ended at cycle"), 273);
    free_value(&doc);
    free(text);

    char dir[] = "/tmp/wm_timeline_gnuplotXXXXXX", fake[200], script[200], path[4300], err[600];
    assert_non_null(mkdtemp(dir));
    snprintf(fake, sizeof fake, "%s/gnuplot", dir);
    snprintf(script, sizeof script, "%s/script.gp", dir);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\ncat > %s\nexit 1\n", script);
    fclose(f);
    assert_int_equal(chmod(fake, 0755), 0);
    const char *was = getenv("PATH");
    char *saved = strdup(was ? was : "");
    snprintf(path, sizeof path, "%s:%s", dir, saved);
    setenv("PATH", path, 1);
    const bool drawn = wm_profile_write_png(&p, BUILD_DIR "/test_timeline_ending.png", err, sizeof err);
    setenv("PATH", saved, 1);
    free(saved);
    assert_false(drawn); /* the stand-in draws nothing */
    static char gp[1 << 16];
    f = fopen(script, "r");
    assert_non_null(f);
    gp[fread(gp, 1, sizeof gp - 1, f)] = '\0';
    fclose(f);
    if (!strstr(gp, "set label 2 'the run ended early: the cycle limit reached at cycle 273' at screen 0.01"))
        fail_msg("no line for the ending in:\n%s", gp);
    unlink(script);
    unlink(fake);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_json_reader_refuses_what_is_not_json),
        cmocka_unit_test(test_the_trace_has_a_named_track_per_pe),
        cmocka_unit_test(test_the_trace_has_a_flow_per_message),
        cmocka_unit_test(test_the_trace_slices_add_up_to_each_pe_s_cycles),
        cmocka_unit_test(test_the_trace_escapes_names_and_is_deterministic),
        cmocka_unit_test(test_the_folded_stacks_are_exact_and_add_up),
        cmocka_unit_test(test_the_folded_stacks_keep_a_name_one_frame),
        cmocka_unit_test(test_the_png_is_written),
        cmocka_unit_test(test_the_files_say_how_the_run_ended),
        cmocka_unit_test(test_the_png_in_a_missing_folder_is_refused),
        cmocka_unit_test(test_a_profile_pointing_outside_itself_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
