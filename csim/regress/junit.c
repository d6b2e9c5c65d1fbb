/* junit.c: JUnit XML out and back (junit.h). */
#include "regress/junit.h"

#include "core/lines.h"
#include "core/xalloc.h"
#include "waves/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wm_junit_add(wm_junit *j, const char *kind, const char *name, const char *text, const char *reproduce,
                  double seconds, wm_ledger_state state)
{
    if (j->n == j->cap) {
        j->cap = j->cap ? 2 * j->cap : 64;
        j->cases = wm_xrealloc(j->cases, j->cap * sizeof *j->cases);
    }
    j->cases[j->n++] = (wm_junit_case){wm_xstrdup(kind), wm_xstrdup(name), wm_xstrdup(text ? text : ""),
                                       reproduce ? wm_xstrdup(reproduce) : NULL, seconds, state};
}

void wm_junit_property(wm_junit *j, const char *name, const char *value)
{
    for (size_t i = 0; i < j->nprops; i++)
        if (!strcmp(j->prop_name[i], name)) {
            free(j->prop_value[i]);
            j->prop_value[i] = wm_xstrdup(value);
            return;
        }
    if (j->nprops == WM_JUNIT_MAX_PROPS) return;
    j->prop_name[j->nprops] = wm_xstrdup(name);
    j->prop_value[j->nprops++] = wm_xstrdup(value);
}

const char *wm_junit_get(const wm_junit *j, const char *name)
{
    for (size_t i = 0; i < j->nprops; i++)
        if (!strcmp(j->prop_name[i], name)) return j->prop_value[i];
    return NULL;
}

void wm_junit_free(wm_junit *j)
{
    for (size_t i = 0; i < j->n; i++) {
        free(j->cases[i].kind);
        free(j->cases[i].name);
        free(j->cases[i].text);
        free(j->cases[i].reproduce);
    }
    free(j->cases);
    for (size_t i = 0; i < j->nprops; i++) {
        free(j->prop_name[i]);
        free(j->prop_value[i]);
    }
    memset(j, 0, sizeof *j);
}

/* ------------------------------------------------------------ writing */

static void escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        const unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 has no other control character than tab and newline */
            if (ch < 0x20 && ch != '\n' && ch != '\t') fputc('?', f);
            else fputc(ch, f);
        }
    }
}

static void esc(FILE *f, const char *s)
{
    escaped(f, s, strlen(s));
}

bool wm_junit_write(const wm_junit *j, const char *path, char *err, size_t err_size)
{
    wm_outfile *o = wm_outfile_begin(path, true, err, err_size);
    if (!o) return false;
    FILE *f = wm_outfile_stream(o);
    size_t failures = 0, skipped = 0;
    double seconds = 0;
    for (size_t i = 0; i < j->n; i++) {
        failures += j->cases[i].state == WM_LEDGER_FAILED || j->cases[i].state == WM_LEDGER_LOST;
        skipped += j->cases[i].state == WM_LEDGER_NOT_RUN;
        seconds += j->cases[i].seconds;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<testsuites name=\"wavemesh regress\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
            "time=\"%.3f\">\n",
            j->n, failures, skipped, seconds);
    fprintf(f, "  <testsuite name=\"wavemesh regress\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
               "time=\"%.3f\">\n",
            j->n, failures, skipped, seconds);
    fprintf(f, "    <properties>\n");
    for (size_t i = 0; i < j->nprops; i++) {
        fprintf(f, "      <property name=\"");
        esc(f, j->prop_name[i]);
        fprintf(f, "\" value=\"");
        esc(f, j->prop_value[i]);
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "    </properties>\n");
    for (size_t i = 0; i < j->n; i++) {
        const wm_junit_case *c = &j->cases[i];
        fprintf(f, "    <testcase classname=\"");
        esc(f, c->kind);
        fprintf(f, "\" name=\"");
        esc(f, c->name);
        fprintf(f, "\" time=\"%.3f\">\n", c->seconds);
        if (c->state == WM_LEDGER_NOT_RUN)
            fprintf(f, "      <skipped message=\"not run: the campaign was stopped before it\"/>\n");
        if (c->state == WM_LEDGER_FAILED || c->state == WM_LEDGER_LOST) {
            /* the FAIL line that says why: a lost item's lines so far come first */
            const char *why = c->text;
            for (const char *l = c->text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
                if (!strncmp(l, "FAIL ", 5)) {
                    why = l;
                    if (c->state == WM_LEDGER_FAILED) break;
                }
            fprintf(f, "      <failure message=\"");
            escaped(f, why, strcspn(why, "\n"));
            fprintf(f, "\" type=\"%s\">", c->state == WM_LEDGER_LOST ? "lost" : "divergence");
            esc(f, c->text);
            if (c->reproduce) {
                fprintf(f, "reproduce: ");
                esc(f, c->reproduce);
                fputc('\n', f);
            }
            fprintf(f, "</failure>\n");
        }
        fprintf(f, "      <system-out>");
        esc(f, c->text);
        fprintf(f, "</system-out>\n    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return wm_outfile_commit(o, err, err_size);
}

/* ------------------------------------------------------------ reading back */

/* The text of s[0..n) with the five entities undone (a new string). */
static char *unescape(const char *s, size_t n)
{
    char *out = wm_xmalloc(n + 1), *o = out;
    static const struct {
        const char *ent;
        char ch;
    } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (size_t i = 0; i < n;) {
        bool done = false;
        if (s[i] == '&')
            for (size_t e = 0; e < sizeof ents / sizeof ents[0] && !done; e++) {
                const size_t len = strlen(ents[e].ent);
                if (i + len <= n && !strncmp(s + i, ents[e].ent, len)) {
                    *o++ = ents[e].ch;
                    i += len;
                    done = true;
                }
            }
        if (!done) *o++ = s[i++];
    }
    *o = '\0';
    return out;
}

/* The value of attribute name in the tag starting at tag (up to its '>'). */
static char *attribute(const char *tag, const char *name)
{
    const char *end = strchr(tag, '>');
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *a = strstr(tag, key);
    if (!a || (end && a > end)) return NULL;
    a += strlen(key);
    const char *q = strchr(a, '"');
    return q ? unescape(a, (size_t)(q - a)) : NULL;
}

/* What a case's lines say: a FAIL line fails it, else a PASS line passes
 * it; no line at all is a case not run. */
static const char *const verdict_of[WM_LEDGER_STATES] = {"not run", "passed", "failed", "failed"};

static const char *lines_verdict(const char *text)
{
    bool pass = false;
    for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (!strncmp(l, "FAIL ", 5)) return "failed";
        pass |= !strncmp(l, "PASS ", 5);
    }
    return pass ? "passed" : *text ? "neither passed nor failed" : "not run";
}

bool wm_junit_read(const char *path, wm_junit *j, char *err, size_t err_size)
{
    memset(j, 0, sizeof *j);
    char *doc = wm_text_load(path, NULL, err, err_size);
    if (!doc) return false;
    if (!strstr(doc, "<testsuite name=\"wavemesh regress\"")) {
        snprintf(err, err_size, "%s: not the JUnit file of a wavemesh regress campaign", path);
        free(doc);
        return false;
    }
    for (const char *p = strstr(doc, "<property "); p; p = strstr(p + 1, "<property ")) {
        char *name = attribute(p, "name"), *value = attribute(p, "value");
        if (name && value) wm_junit_property(j, name, value);
        free(name);
        free(value);
    }
    for (const char *p = strstr(doc, "<testcase "); p; p = strstr(p + 1, "<testcase ")) {
        char *kind = attribute(p, "classname"), *name = attribute(p, "name"), *time = attribute(p, "time");
        const char *end = strstr(p, "</testcase>");
        const char *out = strstr(p, "<system-out>");
        const char *out_end = out ? strstr(out, "</system-out>") : NULL;
        if (!kind || !name || !time || !end || !out || !out_end || out_end > end) {
            snprintf(err, err_size, "%s: a testcase without its classname, name, time or system-out", path);
            free(kind);
            free(name);
            free(time);
            free(doc);
            wm_junit_free(j);
            return false;
        }
        const char *failure = strstr(p, "<failure ");
        const char *skipped = strstr(p, "<skipped");
        char *type = failure && failure < end ? attribute(failure, "type") : NULL;
        const wm_ledger_state state = failure && failure < end ? (type && !strcmp(type, "lost") ? WM_LEDGER_LOST
                                                                                                 : WM_LEDGER_FAILED)
                                      : skipped && skipped < end ? WM_LEDGER_NOT_RUN
                                                                 : WM_LEDGER_PASSED;
        free(type);
        char *text = unescape(out + strlen("<system-out>"), (size_t)(out_end - out - strlen("<system-out>")));
        const char *lines = lines_verdict(text);
        if (strcmp(lines, verdict_of[state])) {
            snprintf(err, err_size, "%s: testcase %s is inconsistent: its elements say %s, its lines %s", path,
                     name, verdict_of[state], lines);
            free(text);
            free(kind);
            free(name);
            free(time);
            free(doc);
            wm_junit_free(j);
            return false;
        }
        wm_junit_add(j, kind, name, text, NULL, strtod(time, NULL), state);
        free(text);
        free(kind);
        free(name);
        free(time);
    }
    free(doc);
    return true;
}
