/* sched_gather.c: the end of a partitioned run (scheduler_internal.h,
 * wm_sched_gather): each rank's PEs' states, end cycles, exports, faults,
 * cores and data memories, packed into bytes and brought to rank 0, which
 * then holds every PE as one process would. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include "core/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *bytes;
    size_t len, cap;
} pack;

static void put(pack *p, const void *v, size_t n)
{
    if (p->len + n > p->cap) {
        p->cap = (p->len + n) * 2 + 256;
        p->bytes = wm_xrealloc(p->bytes, p->cap);
    }
    memcpy(p->bytes + p->len, v, n);
    p->len += n;
}

static void put_u64(pack *p, uint64_t v) { put(p, &v, sizeof v); }

static void put_text(pack *p, const char *t)
{
    const uint64_t n = t ? strlen(t) : 0;
    put_u64(p, n);
    if (n) put(p, t, n);
}

typedef struct {
    const char *at, *end;
} unpack;

static uint64_t get_u64(unpack *u)
{
    uint64_t v = 0;
    if (u->end - u->at >= (ptrdiff_t)sizeof v) memcpy(&v, u->at, sizeof v);
    u->at += sizeof v;
    return v;
}

/* The next text, its length in *n, not NUL-terminated. */
static const char *get_text(unpack *u, size_t *n)
{
    *n = (size_t)get_u64(u);
    const char *t = u->at;
    u->at += *n;
    return t;
}

/* A name another rank's kernel exported, as a pointer for as long as s:
 * the kernel's own, when its list has it, else a copy s keeps. */
static const char *intern(wm_sched *s, const wm_instance *in, const char *name, size_t n)
{
    for (const char *const *e = in->kernel->exports; e && *e; e++)
        if (strlen(*e) == n && !memcmp(*e, name, n)) return *e;
    for (size_t i = 0; i < s->nnames; i++)
        if (strlen(s->names[i]) == n && !memcmp(s->names[i], name, n)) return s->names[i];
    s->names = wm_xrealloc(s->names, (s->nnames + 1) * sizeof *s->names);
    char *copy = wm_xmalloc(n + 1);
    memcpy(copy, name, n);
    copy[n] = '\0';
    return s->names[s->nnames++] = copy;
}

/* One PE of this rank. */
static void pack_pe(const wm_sched *s, const wm_mp *mp, pack *p)
{
    put_u64(p, mp->index);
    put_u64(p, (uint64_t)mp->state);
    put_u64(p, mp->end_cycle);
    put_u64(p, mp->blocked_since);
    put_u64(p, mp->nexports);
    for (size_t e = 0; e < mp->nexports; e++) {
        put_text(p, mp->exports[e].name);
        put_u64(p, (uint64_t)mp->exports[e].value);
        put_u64(p, mp->exports[e].cycle);
    }
    put_text(p, mp->fault);
    put_u64(p, s->cpes != NULL);
    if (s->cpes) put(p, &s->cpes[mp->index].core, sizeof s->cpes[mp->index].core);
    /* The data memory, when the PE has one (a caller reads it back after
     * the run: gs), up to its last word that is not zero: the rest is. */
    size_t words = 0;
    if (mp->mem)
        for (words = WM_PE_DATA_WORDS; words > 0 && !mp->mem[words - 1]; words--) {
        }
    put_u64(p, mp->mem != NULL);
    put_u64(p, words);
    if (words) put(p, mp->mem, words * sizeof *mp->mem);
}

/* Rank 0's copy of another rank's PE's data memory: words of it, zeros
 * above. */
static void unpack_memory(wm_mp *mp, unpack *u)
{
    const bool has = get_u64(u) != 0;
    size_t words = (size_t)get_u64(u);
    if (words > WM_PE_DATA_WORDS) words = WM_PE_DATA_WORDS;
    const size_t bytes = words * sizeof *mp->mem;
    if (has && u->end - u->at >= (ptrdiff_t)bytes) {
        if (!mp->mem) {
            mp->mem = wm_xcalloc(WM_PE_DATA_WORDS, sizeof *mp->mem);
            mp->mem_owned = true;
        }
        memcpy(mp->mem, u->at, bytes);
        memset(mp->mem + words, 0, (WM_PE_DATA_WORDS - words) * sizeof *mp->mem);
    }
    u->at += bytes;
}

/* One PE of another rank, into rank 0's. */
static void unpack_pe(wm_sched *s, unpack *u)
{
    const uint64_t index = get_u64(u);
    if (index >= s->n) {
        u->at = u->end;
        return;
    }
    wm_mp *mp = &s->pes[index];
    mp->state = (wm_pe_state)get_u64(u);
    mp->end_cycle = get_u64(u);
    mp->blocked_since = get_u64(u);
    const size_t nexports = (size_t)get_u64(u);
    free(mp->exports);
    mp->exports = nexports ? wm_xcalloc(nexports, sizeof *mp->exports) : NULL;
    mp->nexports = mp->cap_exports = nexports;
    for (size_t e = 0; e < nexports; e++) {
        size_t n;
        const char *name = get_text(u, &n);
        mp->exports[e].name = intern(s, mp->inst, name, n);
        mp->exports[e].value = (int64_t)get_u64(u);
        mp->exports[e].cycle = get_u64(u);
    }
    size_t n;
    const char *fault = get_text(u, &n);
    if (n) {
        /* as wm_sched_fault_text makes it, without calling back into scheduler.c */
        if (!mp->fault) mp->fault = wm_xcalloc(1, FAULT_TEXT);
        snprintf(mp->fault, FAULT_TEXT, "%.*s", (int)n, fault);
    }
    if (get_u64(u) && s->cpes) memcpy(&s->cpes[index].core, u->at, sizeof s->cpes[index].core);
    if (s->cpes) u->at += sizeof s->cpes[index].core;
    unpack_memory(mp, u);
}

void wm_sched_gather(wm_sched *s)
{
    pack p = {0};
    /* rank 0 holds its own PEs already */
    for (size_t i = 0; i < s->n && wm_partition_rank(s->part) != 0; i++)
        if (wm_sched_pe_here(s, i)) pack_pe(s, &s->pes[i], &p);
    size_t total = 0;
    char *all = wm_partition_gather(s->part, p.bytes, p.len, &total, s->cycle);
    free(p.bytes);
    if (!all) return;
    unpack u = {all, all + total};
    while (u.at < u.end) unpack_pe(s, &u);
    free(all);
    s->live_all = 0;
    for (size_t i = 0; i < s->n; i++)
        s->live_all += s->pes[i].state != WM_PE_DONE && s->pes[i].state != WM_PE_FAULT;
}
