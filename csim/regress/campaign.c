/* campaign.c: a campaign's items in this process, in forked processes or
 * on the ranks of an MPI job (campaign.h). */
#include "regress/campaign.h"

#include "mpi/launch.h"

#include "waves/interrupt.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A forked process's exit status. */
enum { CHILD_PASS = 0, CHILD_FAIL = 1, CHILD_INTERRUPTED = 3 };
/* The last line a forked process writes: what its expected run cost. */
#define STATS_MARK "\n=router-cycles "
/* The messages between ranks: a worker's first request, an item to run,
 * the end, a worker's heartbeat while it runs one, and its result (which
 * asks for the next). */
enum { TAG_READY = 1, TAG_ITEM, TAG_STOP, TAG_HEARTBEAT, TAG_RESULT };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void nap_ms(long ms)
{
    const struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ results in order */

wm_ledger_state wm_campaign_state(const wm_campaign_result *r)
{
    return r->not_run ? WM_LEDGER_NOT_RUN : r->lost ? WM_LEDGER_LOST : r->passed ? WM_LEDGER_PASSED : WM_LEDGER_FAILED;
}

typedef struct {
    wm_campaign_result r;
    char *text;
} held;

typedef struct {
    const wm_campaign *c;
    held **slot; /* by item: finished, not yet given to done */
    uint64_t next_done;
} order;

/* Takes ownership of text; gives every result now in order to done. */
static void order_put(order *o, uint64_t item, const wm_campaign_result *r, char *text)
{
    if (item >= o->c->count || o->slot[item]) {
        free(text);
        return;
    }
    held *h = malloc(sizeof *h);
    if (!h) {
        fprintf(stderr, "wavemesh regress: out of memory\n");
        free(text);
        return;
    }
    h->r = *r;
    h->text = text;
    h->r.text = text ? text : "";
    o->slot[item] = h;
    while (o->next_done < o->c->count && o->slot[o->next_done]) {
        held *d = o->slot[o->next_done];
        o->c->done(o->c->ctx, o->next_done, &d->r);
        free(d->text);
        free(d);
        o->slot[o->next_done] = NULL;
        o->next_done++;
    }
}

/* A result that has no process's word: a lost item, a failure. */
static void order_lost(order *o, uint64_t item, const char *why, double seconds)
{
    char name[300], *text = NULL;
    o->c->name(o->c->ctx, item, name, sizeof name);
    if (asprintf(&text, "FAIL %s: %s\n", name, why) < 0) text = NULL;
    const wm_campaign_result r = {false, false, true, false, 0, seconds, NULL};
    order_put(o, item, &r, text);
}

/* ------------------------------------------------------------ items in a forked process */

/* A forked process runs the items it is given, one at a time, for as long
 * as it lives: one process per item cost about as much as a short item
 * itself (each new process faults in again the heap its predecessor had
 * warm, and tears it down). Items go to it as 8 bytes on a socket; it
 * answers with the item's lines, a NUL, and "STATUS ROUTER-CYCLES\n".
 * When it dies mid-item, the lines so far are kept and the item is lost;
 * the next item gets a new process. */
typedef struct {
    pid_t pid; /* -1: none */
    int fd;    /* this end of its socket */
    bool busy;
    uint64_t item;
    double start;
    char *buf;
    size_t len, cap;
} child;

/* What a child_pump read: nothing whole yet, an item's answer, the end. */
enum { PUMP_MORE, PUMP_ANSWER, PUMP_END };

static void child_serve(const wm_campaign *c, int fd)
{
    FILE *out = fdopen(fd, "w");
    if (!out) _exit(CHILD_FAIL);
    for (;;) {
        uint64_t item;
        size_t got = 0;
        while (got < sizeof item) {
            const ssize_t n = read(fd, (char *)&item + got, sizeof item - got);
            if (n > 0) got += (size_t)n;
            else if (n == 0 || errno != EINTR || wm_interrupt_signal()) _exit(CHILD_PASS); /* the end */
        }
        bool intr = false;
        uint64_t rc = 0;
        const bool ok = c->run(c->ctx, item, out, &intr, &rc);
        fputc('\0', out);
        fprintf(out, "%d %" PRIu64 "\n", intr ? CHILD_INTERRUPTED : ok ? CHILD_PASS : CHILD_FAIL, rc);
        if (fflush(out) || intr) _exit(CHILD_INTERRUPTED);
    }
}

/* Starts pool[k]'s process; the others' sockets are closed in it, so that
 * each process sees its own socket's end when its parent closes it. */
static bool child_spawn(const wm_campaign *c, child *pool, unsigned n, unsigned k)
{
    int sv[2];
    child *ch = &pool[k];
    ch->pid = -1;
    ch->busy = false;
    ch->len = 0;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return false;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        for (unsigned j = 0; j < n; j++)
            if (j != k && pool[j].pid > 0) close(pool[j].fd);
        child_serve(c, sv[1]);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return false;
    }
    ch->pid = pid;
    ch->fd = sv[0];
    return true;
}

/* Gives pool[k] an item, starting its process first if it has none (or
 * the one it had is gone). False when no process can be started. */
static bool child_give(const wm_campaign *c, child *pool, unsigned n, unsigned k, uint64_t item)
{
    child *ch = &pool[k];
    for (int attempt = 0; attempt < 2; attempt++) {
        if (ch->pid < 0 && !child_spawn(c, pool, n, k)) return false;
        if (send(ch->fd, &item, sizeof item, MSG_NOSIGNAL) == (ssize_t)sizeof item) {
            ch->busy = true;
            ch->item = item;
            ch->start = now_seconds();
            ch->len = 0;
            return true;
        }
        /* it died between two items: a new one */
        close(ch->fd);
        while (waitpid(ch->pid, NULL, 0) < 0 && errno == EINTR) {
        }
        ch->pid = -1;
    }
    return false;
}

/* Reads what the process wrote. */
static int child_pump(child *ch)
{
    if (ch->cap - ch->len < 4097) {
        const size_t cap = ch->cap ? 2 * ch->cap : 8192;
        char *b = realloc(ch->buf, cap);
        if (!b) return PUMP_MORE;
        ch->buf = b;
        ch->cap = cap;
    }
    const ssize_t got = read(ch->fd, ch->buf + ch->len, 4096);
    if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) return PUMP_END;
    if (got < 0) return PUMP_MORE;
    const size_t was = ch->len;
    ch->len += (size_t)got;
    const char *nul = memchr(ch->buf + was, '\0', (size_t)got);
    if (!nul) nul = memchr(ch->buf, '\0', was);
    return nul && memchr(nul, '\n', (size_t)(ch->buf + ch->len - nul)) ? PUMP_ANSWER : PUMP_MORE;
}

/* The answer a pump found, into *r; the text returned is the caller's to
 * free. The process waits for its next item. */
static char *child_answer(child *ch, wm_campaign_result *r)
{
    memset(r, 0, sizeof *r);
    r->seconds = now_seconds() - ch->start;
    const size_t text_len = strlen(ch->buf); /* up to the NUL */
    int status = CHILD_FAIL;
    unsigned long long rc = 0;
    if (sscanf(ch->buf + text_len + 1, "%d %llu", &status, &rc) != 2) status = CHILD_FAIL;
    r->router_cycles = rc;
    r->passed = status == CHILD_PASS;
    r->interrupted = status == CHILD_INTERRUPTED;
    ch->busy = false;
    ch->len = 0;
    return strndup(ch->buf, text_len);
}

/* Reaps a process whose socket reached its end. When it had an item in
 * hand, that item's result, lost, into *r and the text returned (the
 * caller's to free); otherwise NULL. */
static char *child_reap(const wm_campaign *c, child *ch, wm_campaign_result *r)
{
    int status = 0;
    while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(ch->fd);
    ch->pid = -1;
    memset(r, 0, sizeof *r);
    if (!ch->busy) return NULL;
    ch->busy = false;
    r->seconds = now_seconds() - ch->start;
    r->lost = true;
    const int cut = (int)ch->len;
    const char *so_far = ch->buf ? ch->buf : "";
    char name[300], *text = NULL;
    c->name(c->ctx, ch->item, name, sizeof name);
    if (WIFSIGNALED(status)) {
        if (asprintf(&text, "%.*sFAIL %s: lost with its process, which ended by signal %d (%s)\n", cut, so_far,
                     name, WTERMSIG(status), strsignal(WTERMSIG(status))) < 0)
            text = NULL;
        r->interrupted = WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM;
    } else if (asprintf(&text, "%.*sFAIL %s: lost with its process, which ended with status %d without a report\n",
                        cut, so_far, name, WIFEXITED(status) ? WEXITSTATUS(status) : -1) < 0) {
        text = NULL;
    }
    ch->len = 0;
    return text;
}

/* The item's result once a pump found its answer or the process's end. */
static char *child_result(const wm_campaign *c, child *ch, int pumped, wm_campaign_result *r)
{
    return pumped == PUMP_ANSWER ? child_answer(ch, r) : child_reap(c, ch, r);
}

/* Waits for a busy process's answer or end: the item's result. */
static char *child_wait(const wm_campaign *c, child *ch, wm_campaign_result *r)
{
    int got;
    while ((got = child_pump(ch)) == PUMP_MORE) {
    }
    return child_result(c, ch, got, r);
}

/* Ends an idle process: its socket closed, it exits. */
static void child_end(child *ch)
{
    if (ch->pid < 0) return;
    close(ch->fd);
    while (waitpid(ch->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    ch->pid = -1;
}

/* ------------------------------------------------------------ in this process */

static void run_in_process(const wm_campaign *c, order *o, bool *stopped)
{
    for (uint64_t i = 0; i < c->count && !*stopped; i++) {
        char *text = NULL;
        size_t size = 0;
        FILE *mem = open_memstream(&text, &size);
        if (!mem) {
            fprintf(stderr, "wavemesh regress: out of memory\n");
            *stopped = true;
            return;
        }
        wm_campaign_result r = {0};
        const double start = now_seconds();
        r.passed = c->run(c->ctx, i, mem, &r.interrupted, &r.router_cycles);
        fclose(mem);
        r.seconds = now_seconds() - start;
        order_put(o, i, &r, text);
        if (r.interrupted) *stopped = true;
    }
}

/* ------------------------------------------------------------ rank 0, or the pool */

/* The items not yet handed out: those never given, and those given to a
 * rank that died before it began them. */
typedef struct {
    uint64_t next, count;
    uint64_t *redo;
    size_t nredo;
} queue;

static bool queue_more(const queue *q)
{
    return q->nredo || q->next < q->count;
}

static uint64_t queue_take(queue *q)
{
    return q->nredo ? q->redo[--q->nredo] : q->next++;
}

/* A worker rank holds up to two items: the one it runs and the next, sent
 * before it asks, so that it never waits for rank 0 between items. */
enum { RANK_DEPTH = 2 };

typedef struct {
    bool dead;       /* died, or told to stop */
    bool idle;       /* it answered an item interrupted: it begins no other */
    unsigned held;   /* items given, not yet answered: item[0] runs */
    uint64_t item[RANK_DEPTH];
    double heard;    /* its last word */
    double start;    /* when item[0] began, as near as rank 0 knows */
} rank_state;

/* Tops a rank up to RANK_DEPTH items; with none left, tells it to stop. */
static void rank_fill(const wm_campaign *c, order *o, rank_state *r, int src, queue *q, bool stop,
                      unsigned *inflight)
{
    const wm_transport_ops *t = c->mpi->ops;
    while (r->held < RANK_DEPTH && !stop && queue_more(q)) {
        const uint64_t item = queue_take(q);
        if (!t->send(src, TAG_ITEM, &item, sizeof item)) {
            order_lost(o, item, "its rank could not be reached", 0);
            return;
        }
        if (!r->held) r->start = now_seconds();
        r->item[r->held++] = item;
        ++*inflight;
    }
    if (!r->held) {
        t->send(src, TAG_STOP, NULL, 0);
        r->dead = true; /* done: told to stop */
    }
}

/* Handles one message from a worker rank. */
static void take_message(const wm_campaign *c, order *o, rank_state *rs, int src, int tag, size_t len, queue *q,
                         bool stop, unsigned *inflight)
{
    const wm_transport_ops *t = c->mpi->ops;
    char *buf = malloc(len + 1);
    if (!buf || !t->recv(src, tag, buf, len)) {
        free(buf);
        return;
    }
    buf[len] = '\0';
    rank_state *r = &rs[src];
    r->heard = now_seconds();
    if (r->dead) { /* a word from a rank already given up: ignored */
        free(buf);
        return;
    }
    if (tag == TAG_RESULT && r->held) {
        uint64_t head[3]; /* item, router cycles, flags (1 passed, 2 interrupted) */
        double seconds;
        if (len >= sizeof head + sizeof seconds) {
            memcpy(head, buf, sizeof head);
            memcpy(&seconds, buf + sizeof head, sizeof seconds);
            const wm_campaign_result res = {(head[2] & 1) != 0, (head[2] & 2) != 0, false, false, head[1], seconds,
                                            NULL};
            if (head[2] & 2) r->idle = true;
            char *text = strdup(buf + sizeof head + sizeof seconds);
            order_put(o, head[0], &res, text);
        }
        /* a rank answers its items in the order it was given them */
        for (unsigned k = 1; k < r->held; k++) r->item[k - 1] = r->item[k];
        r->held--;
        r->start = r->heard;
        --*inflight;
    }
    free(buf);
    if (tag == TAG_READY || tag == TAG_RESULT) rank_fill(c, o, r, src, q, stop, inflight);
}

static void run_dispatch(const wm_campaign *c, order *o, bool *stopped)
{
    const bool mpi = c->mpi && c->mpi->ops;
    const unsigned local = mpi ? 1 : c->jobs;
    const int ranks = mpi ? c->mpi->size : 1;
    child *ch = calloc(local, sizeof *ch);
    struct pollfd *pfd = calloc(local, sizeof *pfd);
    unsigned *who = calloc(local, sizeof *who);
    rank_state *rs = calloc((size_t)ranks, sizeof *rs);
    queue q = {0, c->count, calloc((size_t)ranks, sizeof(uint64_t)), 0};
    if (!ch || !pfd || !who || !rs || !q.redo) {
        fprintf(stderr, "wavemesh regress: out of memory\n");
        *stopped = true;
        goto out;
    }
    for (unsigned k = 0; k < local; k++) ch[k].pid = -1;
    const double begin = now_seconds();
    for (int r = 1; r < ranks; r++) rs[r].heard = begin;
    unsigned inflight = 0;
    double give_up = 0; /* after a signal: when rank 0 stops waiting */
    for (;;) {
        if (wm_interrupt_signal()) *stopped = true;
        /* a launcher that ends the job (mpirun when a rank dies, or on
         * SIGINT) gives rank 0 about a second before its SIGKILL */
        if (*stopped && !give_up) give_up = now_seconds() + 0.5;
        for (unsigned k = 0; k < local && queue_more(&q) && !*stopped; k++) {
            if (ch[k].busy) continue;
            const uint64_t item = queue_take(&q);
            if (!child_give(c, ch, local, k, item)) {
                fprintf(stderr, "wavemesh regress: cannot start a process for item %" PRIu64 ": %s\n", item,
                        strerror(errno));
                order_lost(o, item, "no process could be started for it", 0);
                *stopped = true;
                break;
            }
            inflight++;
        }
        if (!inflight && (!mpi || !queue_more(&q) || *stopped)) break;
        /* under a signal the workers get it too and end their items at
         * once; rank 0 waits for their lines a second at most */
        if (mpi && give_up && now_seconds() > give_up) break;
        unsigned n = 0;
        for (unsigned k = 0; k < local; k++)
            if (ch[k].busy) {
                who[n] = k;
                pfd[n++] = (struct pollfd){ch[k].fd, POLLIN, 0};
            }
        /* on MPI the ranks' messages are polled every millisecond; a
         * blocking receive would spin a core */
        const int ready = poll(pfd, n, mpi ? 1 : -1);
        if (ready < 0 && errno != EINTR) break;
        for (unsigned m = 0; ready > 0 && m < n; m++) {
            if (!(pfd[m].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            child *w = &ch[who[m]];
            const int got = child_pump(w);
            if (got == PUMP_MORE) continue;
            wm_campaign_result r;
            const uint64_t item = w->item;
            char *text = child_result(c, w, got, &r);
            inflight--;
            if (r.interrupted) *stopped = true;
            order_put(o, item, &r, text);
        }
        if (!mpi) continue;
        int src, tag;
        size_t len;
        while (c->mpi->ops->probe(&src, &tag, &len))
            if (src > 0 && src < ranks) take_message(c, o, rs, src, tag, len, &q, *stopped, &inflight);
        const double t = now_seconds();
        for (int r = 1; r < ranks; r++) {
            if (rs[r].dead || !rs[r].held || t - rs[r].heard < c->rank_timeout) continue;
            char why[200];
            snprintf(why, sizeof why, "lost with rank %d, which died with it in hand (no word from it for %.0f s)",
                     r, c->rank_timeout);
            rs[r].dead = true;
            c->mpi->gave_up = true;
            fprintf(stderr, "wavemesh regress: rank %d is dead (no word from it for %.0f s); its scenario is lost\n",
                    r, c->rank_timeout);
            order_lost(o, rs[r].item[0], why, t - rs[r].start);
            /* the next it held had not begun: another rank runs it */
            for (unsigned k = 1; k < rs[r].held; k++) q.redo[q.nredo++] = rs[r].item[k];
            inflight -= rs[r].held;
            rs[r].held = 0;
        }
    }
    /* items still in hand after a signal: their processes are told too;
     * on MPI the launcher kills rank 0 about a second after stopping the
     * job, so rank 0 does not wait for its own item there: it is lost */
    for (unsigned k = 0; ch && k < local; k++)
        if (ch[k].busy && mpi) {
            kill(ch[k].pid, SIGKILL);
            while (waitpid(ch[k].pid, NULL, 0) < 0 && errno == EINTR) {
            }
            close(ch[k].fd);
            order_lost(o, ch[k].item, "lost with rank 0, stopped with the job", now_seconds() - ch[k].start);
            ch[k].pid = -1;
            ch[k].busy = false;
        } else if (ch[k].busy) {
            kill(ch[k].pid, SIGTERM);
            wm_campaign_result r;
            const uint64_t item = ch[k].item;
            order_put(o, item, &r, child_wait(c, &ch[k], &r));
        }
    for (unsigned k = 0; ch && k < local; k++) child_end(&ch[k]);
    /* after a signal the live ranks answer at once (their items end
     * interrupted) and begin no other; one that did not is dead, or the
     * launcher killed it. What they held beyond is not run. */
    for (int r = 1; r < ranks; r++)
        if (rs[r].held && !rs[r].dead) {
            if (!rs[r].idle) {
                char why[200];
                snprintf(why, sizeof why, "lost with rank %d, which did not answer when the job was stopped", r);
                order_lost(o, rs[r].item[0], why, now_seconds() - rs[r].start);
                c->mpi->gave_up = true;
            }
            rs[r].held = 0;
            rs[r].dead = true;
        }
    /* a job being stopped (a signal, or the launcher ending it for a dead
     * rank) gets no stops: its ranks have the signal themselves, and a
     * send to one the launcher killed can block until rank 0 is killed
     * too, its summary unprinted */
    if (mpi && !*stopped)
        for (int r = 1; r < ranks; r++)
            if (!rs[r].dead) c->mpi->ops->send(r, TAG_STOP, NULL, 0);
out:
    for (unsigned k = 0; ch && k < local; k++) free(ch[k].buf);
    free(ch);
    free(pfd);
    free(who);
    free(rs);
    free(q.redo);
}

/* ------------------------------------------------------------ a worker rank */

static void run_worker(const wm_campaign *c)
{
    const wm_transport_ops *t = c->mpi->ops;
    /* rank 0 answers every request at once: a long silence means it is gone */
    const double patience = 3 * (c->rank_timeout > 10 ? c->rank_timeout : 10);
    if (!t->send(0, TAG_READY, NULL, 0)) return;
    child ch = {.pid = -1};
    for (;;) {
        int src, tag;
        size_t len = 0;
        const double waited = now_seconds();
        bool got = false;
        while (!(got = t->probe(&src, &tag, &len)) && !wm_interrupt_signal() && now_seconds() - waited < patience)
            nap_ms(1);
        if (!got) break;
        uint64_t item = 0;
        char small[sizeof item];
        char *buf = len <= sizeof small ? small : malloc(len);
        if (!buf || !t->recv(src, tag, buf, len)) break;
        if (buf != small) free(buf);
        if (tag != TAG_ITEM || len != sizeof item) break;
        memcpy(&item, small, sizeof item);
        if (wm_interrupt_signal()) break; /* the next it was sent, not begun */
        if (!child_give(c, &ch, 1, 0, item)) break;
        double beat = now_seconds();
        bool told = false;
        int state = PUMP_MORE;
        for (;;) {
            struct pollfd p = {ch.fd, POLLIN, 0};
            poll(&p, 1, 1000);
            if (wm_interrupt_signal() && !told) {
                kill(ch.pid, SIGTERM); /* the signal reached this rank, not its process */
                told = true;
            }
            if (now_seconds() - beat >= 1.0) {
                t->send(0, TAG_HEARTBEAT, NULL, 0);
                beat = now_seconds();
            }
            if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
            state = child_pump(&ch);
            if (state != PUMP_MORE) break;
        }
        wm_campaign_result r;
        char *text = child_result(c, &ch, state, &r);
        const size_t tlen = text ? strlen(text) : 0;
        const uint64_t head[3] = {item, r.router_cycles, (r.passed ? 1u : 0u) | (r.interrupted ? 2u : 0u)};
        char *msg = malloc(sizeof head + sizeof r.seconds + tlen + 1);
        if (!msg) break;
        memcpy(msg, head, sizeof head);
        memcpy(msg + sizeof head, &r.seconds, sizeof r.seconds);
        memcpy(msg + sizeof head + sizeof r.seconds, text ? text : "", tlen + 1);
        const bool sent = t->send(0, TAG_RESULT, msg, sizeof head + sizeof r.seconds + tlen + 1);
        free(msg);
        free(text);
        if (!sent) break;
    }
    child_end(&ch);
    free(ch.buf);
}

/* ------------------------------------------------------------ the campaign */

bool wm_campaign_run(const wm_campaign *c, bool *reporter)
{
    /* the campaign looks at the flag between items and reports it */
    wm_interrupt_watch();
    const bool mpi = c->mpi && c->mpi->ops;
    *reporter = !mpi || c->mpi->rank == 0;
    if (!*reporter) {
        run_worker(c);
        return true;
    }
    order o = {c, calloc(c->count ? c->count : 1, sizeof(held *)), 0};
    if (!o.slot) {
        fprintf(stderr, "wavemesh regress: out of memory\n");
        return false;
    }
    bool stopped = false;
    if (c->jobs <= 1 && !mpi) run_in_process(c, &o, &stopped);
    else run_dispatch(c, &o, &stopped);
    /* the ledger closed: after a stop, what finished beyond a gap is given
     * still, and every item without a result is not run */
    for (uint64_t i = o.next_done; i < c->count; i++)
        if (o.slot[i]) {
            c->done(c->ctx, i, &o.slot[i]->r);
            free(o.slot[i]->text);
            free(o.slot[i]);
        } else {
            const wm_campaign_result not_run = {false, false, false, true, 0, 0, ""};
            c->done(c->ctx, i, &not_run);
        }
    free(o.slot);
    return !stopped && !wm_interrupt_signal();
}

/* ------------------------------------------------------------ the launcher and the plugin */

bool wm_campaign_torn_down(const wm_campaign_mpi *m)
{
    return m && m->launcher && wm_interrupt_signal();
}

bool wm_campaign_launched(void) { return wm_mpi_launched(); }

bool wm_campaign_mpi_open(wm_campaign_mpi *m, char *err, size_t err_size)
{
    memset(m, 0, sizeof *m);
    wm_mpi_job j;
    if (!wm_mpi_open(&j, err, err_size)) return false;
    m->ops = j.ops;
    m->rank = j.rank;
    m->size = j.size;
    m->launcher = j.launcher;
    return true;
}

/* A process still in MPI_Finalize after WM_CAMPAIGN_FINISH_SECONDS waits
 * on a rank that is gone: it ends itself, its output written long since. */
static void *finish_watchdog(void *arg)
{
    (void)arg;
    sleep(WM_CAMPAIGN_FINISH_SECONDS);
    fprintf(stderr, "wavemesh regress: MPI_Finalize still waits after %d s (a rank is gone): this process ends\n",
            WM_CAMPAIGN_FINISH_SECONDS);
    kill(getpid(), SIGKILL);
    return NULL;
}

void wm_campaign_mpi_close(wm_campaign_mpi *m)
{
    if (!m->ops) return;
    const bool dropped = fflush(stdout) != 0 || ferror(stdout);
    fflush(NULL);
    /* a rank given up may be stopped or unreachable, and MPI_Finalize waits
     * for every rank: the launcher ends them all instead, this process
     * with them, before its exit could say what standard output lost */
    if (m->rank == 0 && (m->gave_up || wm_interrupt_signal())) {
        if (dropped && wm_campaign_torn_down(m))
            fprintf(stderr, "wavemesh regress: standard output: no longer read by the launcher stopping the job: "
                            "lines were dropped (the summary above and the JUnit file hold every scenario)\n");
        m->ops->kill_job(1);
    }
    pthread_t watchdog;
    if (!pthread_create(&watchdog, NULL, finish_watchdog, NULL)) pthread_detach(watchdog);
    m->ops->finish();
    m->ops = NULL;
}
