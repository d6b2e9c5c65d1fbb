/* chrome.c: a profile as Chrome trace-event JSON (see timeline.h).
 *
 * The file is an object: "otherData" says what made it, how the run ended
 * ("run ended": the word of run/ending.h, and its cycle) and that one cycle
 * is one microsecond of the viewer's clock ("ts" and "dur" are in
 * microseconds, so the cycle numbers go in unchanged); "traceEvents" holds,
 * one event a line, the metadata naming the process and its tracks, each
 * PE's slices as complete events ("X"), the messages as flow events ("s"
 * at the sender, "f" at the receiver, the same id, both bound to the
 * slice enclosing them: "bp":"e"), and the critical path's segments as
 * complete events on a track of their own, after the PEs'. Only integers
 * and escaped strings, in a fixed order: equal profiles give equal bytes. */
#include "profile/timeline.h"
#include "profile/check.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static const char *const kind_names[WM_PROF_NKINDS] = {"busy", "stalled TX", "stalled RX", "start-up"};

/* s as the inside of a JSON string: '"', '\\' and control characters
 * escaped, valid UTF-8 as it is, any other byte as U+FFFD. */
static void put_string(FILE *out, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        const unsigned c = *u;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc((int)c, out);
            u++;
            continue;
        }
        if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
            u++;
            continue;
        }
        if (c < 0x80) {
            fputc((int)c, out);
            u++;
            continue;
        }
        /* A multi-byte sequence: its length from the lead byte, then the
         * continuation bytes, no overlong form, no surrogate. */
        size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        for (size_t k = 1; k < n; k++)
            if ((u[k] & 0xc0) != 0x80) n = 0;
        if (n == 3 && ((c == 0xe0 && u[1] < 0xa0) || (c == 0xed && u[1] >= 0xa0))) n = 0;
        if (n == 4 && ((c == 0xf0 && u[1] < 0x90) || (c == 0xf4 && u[1] >= 0x90))) n = 0;
        if (n == 0) {
            fputs("\\ufffd", out);
            u++;
            continue;
        }
        fwrite(u, 1, n, out);
        u += n;
    }
}

/* A PE's track name, "l0 (0,0)", as a JSON string. */
static void put_pe_name(FILE *out, const wm_prof_pe *pe)
{
    fputc('"', out);
    put_string(out, pe->instance);
    fprintf(out, " (%u,%u)\"", (unsigned)pe->x, (unsigned)pe->y);
}

/* Tracks are threads of process 1, numbered from 1 in layout order; the
 * critical path's track (pe NULL) comes after the PEs'. */
static void put_track(FILE *out, size_t tid, size_t sort_index, const wm_prof_pe *pe)
{
    fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%zu,\"args\":{\"name\":", tid);
    if (pe)
        put_pe_name(out, pe);
    else
        fputs("\"critical path\"", out);
    fputs("}}", out);
    fprintf(out, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%zu,\"args\":{\"sort_index\":%zu}}",
            tid, sort_index);
}

/* PE i's slices, consecutive ones of the same function and kind merged. */
static void put_slices(FILE *out, const wm_profile *p, size_t i)
{
    const wm_prof_pe *pe = &p->pes[i];
    size_t k = 0;
    while (k < pe->nslices) {
        const wm_prof_slice *s = &pe->slices[k];
        uint64_t end = s->end;
        size_t n = k + 1;
        while (n < pe->nslices && pe->slices[n].func == s->func && pe->slices[n].kind == s->kind &&
               pe->slices[n].start == end)
            end = pe->slices[n++].end;
        k = n;
        if (end == s->start) continue; /* nothing to draw */
        fputs(",\n{\"name\":\"", out);
        put_string(out, p->funcs[s->func]);
        fprintf(out,
                "\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64
                ",\"pid\":1,\"tid\":%zu,\"args\":{\"kind\":\"%s\"}}",
                kind_names[s->kind], s->start, end - s->start, i + 1, kind_names[s->kind]);
    }
}

static void put_message(FILE *out, const wm_profile *p, size_t m)
{
    const wm_prof_msg *g = &p->msgs[m];
    fprintf(out,
            ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":%zu,\"ts\":%" PRIu64
            ",\"pid\":1,\"tid\":%u,\"bp\":\"e\",\"args\":{\"to\":",
            m, g->sent, (unsigned)g->from + 1);
    put_pe_name(out, &p->pes[g->to]);
    fprintf(out, ",\"wavelets\":%u,\"hops\":%u}}", (unsigned)g->len, (unsigned)g->hops);
    fprintf(out,
            ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"id\":%zu,\"ts\":%" PRIu64
            ",\"pid\":1,\"tid\":%u,\"bp\":\"e\",\"args\":{\"from\":",
            m, g->received, (unsigned)g->to + 1);
    put_pe_name(out, &p->pes[g->from]);
    fprintf(out, ",\"wavelets\":%u,\"hops\":%u}}", (unsigned)g->len, (unsigned)g->hops);
}

/* A segment of the critical path: "compute on l0 (0,0)" or "message l0
 * (0,0) -> p0 (4,0)", on the path's track. */
static void put_segment(FILE *out, const wm_profile *p, size_t g, size_t tid)
{
    const wm_prof_segment *s = &p->path[g];
    fputs(",\n{\"name\":\"", out);
    if (s->kind == WM_SEG_MESSAGE) {
        const wm_prof_msg *m = &p->msgs[s->msg];
        fputs("message ", out);
        put_string(out, p->pes[m->from].instance);
        fputs(" -> ", out);
        put_string(out, p->pes[m->to].instance);
    } else {
        fputs("compute on ", out);
        put_string(out, p->pes[s->pe].instance);
    }
    fprintf(out,
            "\",\"cat\":\"critical path\",\"ph\":\"X\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64
            ",\"pid\":1,\"tid\":%zu,\"args\":{\"segment\":%zu,\"kind\":\"%s\",\"pe\":",
            s->start, s->end - s->start, tid, g, s->kind == WM_SEG_MESSAGE ? "message" : "compute");
    put_pe_name(out, &p->pes[s->pe]);
    if (s->kind == WM_SEG_MESSAGE) fprintf(out, ",\"message\":%u", (unsigned)s->msg);
    fputs("}}", out);
}

bool wm_profile_write_chrome(const wm_profile *p, FILE *out, char *err, size_t err_size)
{
    if (!wm_profile_check(p, err, err_size)) return false;
    const char *mode = p->mode ? p->mode : "";
    fputs("{\"otherData\":{\"generator\":\"wavemesh profile\",\"pe mode\":\"", out);
    put_string(out, mode);
    fprintf(out, "\",\"time unit\":\"1 us = 1 cycle\",\"last event\":%" PRIu64, p->last_event);
    /* a run that did not return is a timeline cut short: said beside it */
    if (p->ending) {
        fputs(",\"run ended\":\"", out);
        put_string(out, p->ending);
        fprintf(out, "\",\"run ended at cycle\":%" PRIu64, p->end_cycle);
    }
    fputs("},\n", out);
    fputs("\"traceEvents\":[\n", out);
    fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"fabric (", out);
    put_string(out, mode);
    fputs(")\"}}", out);
    for (size_t i = 0; i < p->npes; i++) put_track(out, i + 1, i, &p->pes[i]);
    const size_t path_tid = p->npes + 1;
    put_track(out, path_tid, p->npes, NULL);
    for (size_t i = 0; i < p->npes; i++) put_slices(out, p, i);
    for (size_t m = 0; m < p->nmsgs; m++) put_message(out, p, m);
    for (size_t g = 0; g < p->npath; g++) put_segment(out, p, g, path_tid);
    fputs("\n]}\n", out);
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, err_size, "cannot write the trace: %s", strerror(errno ? errno : EIO));
        return false;
    }
    return true;
}
