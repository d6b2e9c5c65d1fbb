/* random_campaign.c: a campaign of random scenarios, in one process or
 * one process per scenario (see random_campaign.h). */
#include "regress/random_campaign.h"

#include "regress/random_regress.h"
#include "regress/random_shrink.h"
#include "waves/interrupt.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A worker's exit status. */
enum { WORKER_PASS = 0, WORKER_FAIL = 1, WORKER_INTERRUPTED = 3 };
/* The last line a worker writes: what its expected run cost. */
#define STATS_MARK "\n=router-cycles "

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

bool wm_random_run_scenario(const wm_random_campaign *c, const wm_random_scenario *rs, const char *name, FILE *out,
                            bool *interrupted, uint64_t *router_cycles)
{
    char text[WM_RANDOM_TEXT_MAX];
    wm_random_format(rs, text, sizeof text);
    wm_regress_report rep;
    wm_random_regress_run(rs, name, c->expected, c->got, &rep);
    *interrupted = rep.interrupted;
    *router_cycles = wm_random_router_cycles(rs, &rep);
    fprintf(out, "%s | %s --scenario %s%s\n", rep.line, c->command, text, c->extra_args);
    fputs(rep.detail, out);
    fflush(out);
    if (rep.passed || rep.interrupted || !c->shrink_runs) return rep.passed;
    wm_random_scenario small;
    wm_regress_report small_rep;
    wm_random_shrink_stats st;
    wm_random_shrink(rs, &rep, c->expected, c->got, c->shrink_runs, out, &small, &small_rep, &st);
    if (wm_interrupt_signal()) {
        *interrupted = true;
        fprintf(out, "  shrinking interrupted after %u steps\n", st.steps);
    }
    wm_random_format(&small, text, sizeof text);
    fprintf(out, "  smallest failing version (%u steps, %u runs): %s\n", st.steps, st.runs, small_rep.line);
    fprintf(out, "  reproduce: %s --scenario %s%s\n", c->command, text, c->extra_args);
    fflush(out);
    return false;
}

/* ------------------------------------------------------------ what a campaign covered */

typedef struct {
    uint64_t cores, lines, columns, single, big, offmesh, disabled, toggled, slowpop, long_msgs, len1;
    uint64_t patterns[4];
    unsigned max_w, max_h;
} coverage;

static void count(coverage *cv, const wm_random_scenario *s)
{
    if (s->w * s->h > cv->max_w * cv->max_h) {
        cv->max_w = s->w;
        cv->max_h = s->h;
    }
    if (s->w == 1 && s->h == 1) cv->single++;
    else if (s->w == 1) cv->columns++;
    else if (s->h == 1) cv->lines++;
    if (s->w >= 16 && s->h >= 16) cv->big++;
    if (s->cores) {
        cv->cores++;
        return;
    }
    cv->patterns[s->traffic.pattern]++;
    if (s->traffic.offmesh_fraction > 0) cv->offmesh++;
    if (s->ndisabled && s->on_at) cv->toggled++;
    else if (s->ndisabled) cv->disabled++;
    if (s->traffic.pop_interval > 1) cv->slowpop++;
    if (s->traffic.len > 128) cv->long_msgs++;
    if (s->traffic.len == 1) cv->len1++;
}

static void print_summary(FILE *f, const wm_random_campaign *c, const wm_random_summary *s, const coverage *cv)
{
    const double per_min = s->seconds > 0 ? 60.0 * (double)s->run / s->seconds : 0;
    fprintf(f,
            "random: %" PRIu64 " scenarios (seed %" PRIu64 ", scenarios %" PRIu64 "..%" PRIu64 "): %" PRIu64
            " passed, %" PRIu64 " failed%s; %.1f s with %u job%s, %.0f scenarios/min, %.2f M router-cycles/s per "
            "backend\n",
            s->run, c->seed, c->first, c->first + (s->run ? s->run - 1 : 0), s->passed, s->failed,
            s->interrupted ? " (interrupted)" : "", s->seconds, c->jobs, c->jobs == 1 ? "" : "s", per_min,
            s->seconds > 0 ? (double)s->router_cycles / s->seconds / 1e6 : 0.0);
    fprintf(f,
            "random: covered %" PRIu64 " on the cores, %" PRIu64 " 1x1, %" PRIu64 " 1xN, %" PRIu64 " Nx1, %" PRIu64
            " of 16x16 or more (largest %ux%u); uniform %" PRIu64 ", transpose %" PRIu64 ", bitcomp %" PRIu64
            ", hotspot %" PRIu64 "; length 1: %" PRIu64 ", over 128: %" PRIu64 "; off-mesh headers %" PRIu64
            ", routers disabled %" PRIu64 ", toggled %" PRIu64 ", slow pops %" PRIu64 "\n",
            cv->cores, cv->single, cv->columns, cv->lines, cv->big, cv->max_w, cv->max_h, cv->patterns[0],
            cv->patterns[1], cv->patterns[2], cv->patterns[3], cv->len1, cv->long_msgs, cv->offmesh, cv->disabled,
            cv->toggled, cv->slowpop);
}

/* ------------------------------------------------------------ progress */

typedef struct {
    bool on, tty;
    double start, last;
    uint64_t last_done;
} progress;

static void show_progress(progress *p, const wm_random_campaign *c, const wm_random_summary *s, bool final)
{
    if (!p->on) return;
    const double t = now_seconds();
    /* on a terminal, a line redrawn every second; in a log, a line every
     * tenth of the campaign or every minute */
    const uint64_t tenth = c->count / 10 ? c->count / 10 : 1;
    if (!final && (p->tty ? t - p->last < 1.0 : s->run - p->last_done < tenth && t - p->last < 60.0)) return;
    if (final && !p->tty && s->run == p->last_done) return; /* the last line said it all */
    p->last = t;
    p->last_done = s->run;
    const double el = t - p->start, rate = el > 0 ? s->run / el : 0;
    const double eta = rate > 0 ? (double)(c->count - s->run) / rate : 0;
    fprintf(stderr, "%srandom: %" PRIu64 "/%" PRIu64 " scenarios, %" PRIu64 " failed, %.0f s, %.0f/min, %.0f s to go%s",
            p->tty ? "\r" : "", s->run, c->count, s->failed, el, 60 * rate, eta, p->tty && !final ? "   " : "\n");
    fflush(stderr);
}

/* ------------------------------------------------------------ the campaign */

static void emit(const wm_random_campaign *c, const char *text, bool failed)
{
    fputs(text, c->out);
    fflush(c->out);
    if (failed && c->failures && c->failures != c->out) {
        fputs(text, c->failures);
        fflush(c->failures);
    }
}

static void scenario_name(const wm_random_campaign *c, uint64_t index, char *buf, size_t size)
{
    snprintf(buf, size, "random-%" PRIu64 "-%" PRIu64, c->seed, index);
}

static void run_in_process(const wm_random_campaign *c, wm_random_summary *s, coverage *cv, progress *p)
{
    for (uint64_t i = 0; i < c->count && !s->interrupted; i++) {
        wm_random_scenario rs;
        wm_random_generate(c->seed, c->first + i, &c->limits, &rs);
        count(cv, &rs);
        char name[64], *text = NULL;
        size_t size = 0;
        scenario_name(c, c->first + i, name, sizeof name);
        FILE *mem = open_memstream(&text, &size);
        if (!mem) {
            fprintf(stderr, "wavemesh regress: out of memory\n");
            s->interrupted = true;
            return;
        }
        bool intr;
        uint64_t rc;
        const bool ok = wm_random_run_scenario(c, &rs, name, mem, &intr, &rc);
        fclose(mem);
        emit(c, text, !ok);
        free(text);
        s->run++;
        s->router_cycles += rc;
        if (ok) s->passed++;
        else s->failed++;
        s->interrupted = intr;
        show_progress(p, c, s, false);
    }
}

typedef struct {
    pid_t pid;
    int fd;
    char *buf;
    size_t len, cap;
} worker;

static void start_worker(const wm_random_campaign *c, uint64_t index, const wm_random_scenario *rs, worker *w)
{
    int fds[2];
    w->pid = -1;
    w->len = 0;
    if (pipe(fds)) return;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        FILE *out = fdopen(fds[1], "w");
        if (!out) _exit(WORKER_FAIL);
        char name[64];
        scenario_name(c, index, name, sizeof name);
        bool intr;
        uint64_t rc;
        const bool ok = wm_random_run_scenario(c, rs, name, out, &intr, &rc);
        fprintf(out, STATS_MARK "%" PRIu64 "\n", rc);
        fclose(out);
        _exit(intr ? WORKER_INTERRUPTED : ok ? WORKER_PASS : WORKER_FAIL);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return;
    }
    w->pid = pid;
    w->fd = fds[0];
}

/* The worker's output is all read: collect its status and tell it. */
static void finish_worker(const wm_random_campaign *c, uint64_t index, worker *w, wm_random_summary *s)
{
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(w->fd);
    uint64_t rc = 0;
    w->buf[w->len] = '\0';
    char *mark = strstr(w->buf, STATS_MARK);
    if (mark) {
        rc = strtoull(mark + strlen(STATS_MARK), NULL, 10);
        *mark = '\0'; /* the line before it keeps its own newline */
    }
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == WORKER_PASS;
    if (WIFEXITED(status) && WEXITSTATUS(status) == WORKER_INTERRUPTED) s->interrupted = true;
    if (!WIFEXITED(status) || !mark) {
        char name[64], line[200];
        scenario_name(c, index, name, sizeof name);
        if (WIFSIGNALED(status))
            snprintf(line, sizeof line, "FAIL %s: its process ended by signal %d (%s)\n", name, WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else
            snprintf(line, sizeof line, "FAIL %s: its process ended with status %d without a report\n", name,
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        emit(c, w->buf, true);
        emit(c, line, true);
        ok = false;
        if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)) s->interrupted = true;
    } else {
        emit(c, w->buf, !ok);
    }
    s->run++;
    s->router_cycles += rc;
    if (ok) s->passed++;
    else s->failed++;
    w->pid = -1;
}

static void run_in_workers(const wm_random_campaign *c, wm_random_summary *s, coverage *cv, progress *p)
{
    const unsigned jobs = c->jobs;
    worker *ws = calloc(jobs, sizeof *ws);
    uint64_t *index = calloc(jobs, sizeof *index);
    struct pollfd *pfd = calloc(jobs, sizeof *pfd);
    if (!ws || !index || !pfd) {
        fprintf(stderr, "wavemesh regress: out of memory\n");
        free(ws);
        free(index);
        free(pfd);
        s->interrupted = true;
        return;
    }
    for (unsigned k = 0; k < jobs; k++) ws[k].pid = -1;
    uint64_t next = 0;
    unsigned active = 0;
    for (;;) {
        for (unsigned k = 0; k < jobs && next < c->count && !s->interrupted && !wm_interrupt_signal(); k++) {
            if (ws[k].pid >= 0) continue;
            wm_random_scenario rs;
            wm_random_generate(c->seed, c->first + next, &c->limits, &rs);
            start_worker(c, c->first + next, &rs, &ws[k]);
            if (ws[k].pid < 0) {
                fprintf(stderr, "wavemesh regress: cannot start a process for scenario %" PRIu64 ": %s\n",
                        c->first + next, strerror(errno));
                s->interrupted = true;
                break;
            }
            count(cv, &rs);
            index[k] = c->first + next;
            next++;
            active++;
        }
        if (!active) break;
        unsigned n = 0;
        for (unsigned k = 0; k < jobs; k++)
            if (ws[k].pid >= 0) pfd[n++] = (struct pollfd){ws[k].fd, POLLIN, 0};
        if (poll(pfd, n, -1) < 0 && errno != EINTR) break;
        for (unsigned k = 0, m = 0; k < jobs; k++) {
            if (ws[k].pid < 0) continue;
            const struct pollfd *q = &pfd[m++];
            if (!(q->revents & (POLLIN | POLLHUP | POLLERR))) continue;
            worker *w = &ws[k];
            if (w->cap - w->len < 4097) {
                const size_t cap = w->cap ? 2 * w->cap : 8192;
                char *b = realloc(w->buf, cap);
                if (!b) continue;
                w->buf = b;
                w->cap = cap;
            }
            const ssize_t got = read(w->fd, w->buf + w->len, 4096);
            if (got > 0) {
                w->len += (size_t)got;
                continue;
            }
            if (got < 0 && errno == EINTR) continue;
            finish_worker(c, index[k], w, s);
            active--;
            show_progress(p, c, s, false);
        }
    }
    if (wm_interrupt_signal()) s->interrupted = true;
    for (unsigned k = 0; k < jobs; k++) free(ws[k].buf);
    free(ws);
    free(index);
    free(pfd);
}

int wm_random_campaign_run(const wm_random_campaign *c, wm_random_summary *s)
{
    /* the campaign looks at the flag between scenarios and reports it */
    wm_interrupt_watch();
    memset(s, 0, sizeof *s);
    coverage cv;
    memset(&cv, 0, sizeof cv);
    progress p = {c->progress, isatty(STDERR_FILENO) != 0, now_seconds(), now_seconds(), 0};
    const double start = now_seconds();
    if (c->jobs > 1) run_in_workers(c, s, &cv, &p);
    else run_in_process(c, s, &cv, &p);
    s->seconds = now_seconds() - start;
    show_progress(&p, c, s, true);
    print_summary(c->failures ? c->failures : c->out, c, s, &cv);
    if (c->failures && c->failures != c->out) print_summary(c->out, c, s, &cv);
    return s->failed || s->interrupted ? 1 : 0;
}
