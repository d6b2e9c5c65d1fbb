/* traffic.c: the synthetic traffic generator and its measurement.
 *
 * Creation: a Bernoulli process per PE is the same as geometric gaps
 * between its messages, so each PE's next creation cycle is drawn once and
 * kept in a min-heap; a cycle costs nothing for the PEs that create
 * nothing. Sources with queued messages and destinations with wavelets on
 * their way are kept in lists, so idle PEs are never polled.
 *
 * Latency without per-message bookkeeping at the destination: bit 0 of the
 * header tag marks a sampled message. Wormhole keeps a message contiguous
 * in the destination's RX queue, so the destination can tell each tail.
 * The sum of the tails' pop cycles minus the sum of the creation cycles,
 * over the sampled messages, is their total latency once all have arrived.
 *
 * Partitioned over MPI ranks (docs/distributed.md), every rank draws every
 * message from the one random stream, as one process does, and keeps what
 * its block needs: the messages its sources send, and the creation cycle
 * of the sampled ones its destinations receive. Each cycle the ranks sum
 * what their pops counted, so that every rank ends the run at one cycle.
 */
#include "traffic/traffic.h"

#include "core/xalloc.h"
#include "fabric/fabric_sw.h"
#include "waves/interrupt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_SAMPLED = 1u };

typedef struct {
    uint64_t created;
    uint32_t seq;
    uint16_t dst_x, dst_y; /* an off-mesh one's up to WM_MESH_MAX - 1 */
    uint8_t sampled, offmesh;
} message;

typedef struct {
    message *q;         /* ring of queued messages, the head being sent */
    uint32_t head, count, cap;
    uint32_t sent;      /* wavelets of the head message already pushed */
    uint32_t seq;       /* messages created here so far */
    uint8_t listed;
} source;

/* A sampled message on its way, told apart at its destination by its
 * first data wavelet (a hash of its source and number, data_wavelet). */
typedef struct {
    uint32_t first;
    uint64_t created;
} pending;

typedef struct {
    uint64_t expect;    /* wavelets pushed towards this PE and not yet popped */
    uint32_t rem;       /* data wavelets of the current message still to come */
    uint8_t sampled;    /* the current message is a sampled one */
    uint8_t listed;
    uint8_t at_first;   /* the next pop is the current message's first data wavelet */
    uint64_t created;   /* the current sampled message's creation cycle, once known */
    pending *pend;      /* sampled messages pushed towards this PE, not yet identified */
    uint32_t npend, cap_pend;
} dest;

struct wm_traffic {
    wm_traffic_config cfg;
    const wm_fabric_ops *ops;
    wm_fabric *f;
    unsigned w, h;
    size_t n;
    wm_partition *part;   /* NULL: the whole mesh in this process */
    wm_fabric_band block; /* the tiles this process holds: the whole mesh without part */
    bool stop;            /* partitioned: a rank was interrupted, so every rank stops */
    uint64_t rng[4];
    double log_no_create; /* log(1 - p), p = rate / len */
    bool creates;
    uint64_t *heap_time;  /* per heap slot: the node's next creation cycle */
    uint32_t *heap_node;
    size_t heap_n;
    source *src;
    dest *dst;
    uint32_t *src_list, *dst_list;
    size_t nsrc, ndst;
    /* The sw backend's queue arrays: a byte read per listed PE instead of
     * a pe_status call (queue_index). NULL arrays on other backends. */
    wm_sw_queues queues;
    uint64_t now;
    uint64_t sample_begin, sample_end;
    uint64_t sample_messages, sample_arrived;
    uint64_t sample_created_wavelets, sample_popped_wavelets;
    uint64_t sample_created_sum, sample_arrival_sum;
    uint64_t messages_created, messages_arrived, wavelets_popped, offmesh_messages;
    uint32_t *latency;    /* of each sampled message, in arrival order (len >= 2) */
    size_t nlatency, cap_latency;
};

/* xoshiro256** seeded by splitmix64: fast, and the same stream on every
 * machine for a given seed. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }

static uint64_t rng_next(uint64_t s[4])
{
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, 1). */
static double rng_unit(uint64_t s[4]) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* Uniform in 0..n-1. */
static uint32_t rng_below(uint64_t s[4], uint32_t n) { return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32); }

/* Cycles from one creation to the next: geometric, at least 1. */
static uint64_t creation_gap(wm_traffic *t)
{
    if (t->log_no_create == -INFINITY) return 1;
    const double u = 1.0 - rng_unit(t->rng); /* in (0, 1] */
    const double gap = floor(log(u) / t->log_no_create);
    return gap >= 1e15 ? (uint64_t)1e15 : 1 + (uint64_t)gap;
}

static bool heap_less(const wm_traffic *t, size_t a, size_t b)
{
    if (t->heap_time[a] != t->heap_time[b]) return t->heap_time[a] < t->heap_time[b];
    return t->heap_node[a] < t->heap_node[b];
}

static void heap_swap(wm_traffic *t, size_t a, size_t b)
{
    const uint64_t tm = t->heap_time[a];
    const uint32_t nd = t->heap_node[a];
    t->heap_time[a] = t->heap_time[b];
    t->heap_node[a] = t->heap_node[b];
    t->heap_time[b] = tm;
    t->heap_node[b] = nd;
}

static void heap_sift_down(wm_traffic *t, size_t i)
{
    for (;;) {
        size_t best = i, l = 2 * i + 1, r = l + 1;
        if (l < t->heap_n && heap_less(t, l, best)) best = l;
        if (r < t->heap_n && heap_less(t, r, best)) best = r;
        if (best == i) return;
        heap_swap(t, i, best);
        i = best;
    }
}

wm_traffic_config wm_traffic_config_default(void)
{
    wm_traffic_config c;
    memset(&c, 0, sizeof c);
    c.pattern = WM_PATTERN_UNIFORM;
    c.rate = 0.1;
    c.len = 4;
    c.warmup = 1000;
    c.sample = 1000;
    c.drain_max = 10000;
    c.seed = 1;
    c.pop_interval = 1;
    c.hotspot_fraction = 0.2;
    c.hotspot_x = c.hotspot_y = UINT32_MAX; /* the centre of the mesh */
    return c;
}

bool wm_traffic_config_check(const wm_traffic_config *c, unsigned w, unsigned h, char *err, size_t err_size)
{
    if (w < 1 || h < 1 || w > WM_MESH_MAX || h > WM_MESH_MAX)
        snprintf(err, err_size, "mesh %ux%u is outside 1x1..%ux%u", w, h, WM_MESH_MAX, WM_MESH_MAX);
    else if (!(c->rate >= 0.0 && c->rate <= 1.0))
        snprintf(err, err_size, "rate %g is outside 0..1 wavelets per node per cycle", c->rate);
    else if (c->len < 1 || c->len > WM_LEN_MAX + 1)
        snprintf(err, err_size, "message length %u is outside 1..%u wavelets", c->len, WM_LEN_MAX + 1);
    else if (c->sample < 1)
        snprintf(err, err_size, "the sample period needs at least one cycle");
    else if (c->pop_interval < 1)
        snprintf(err, err_size, "pop interval %u: PEs must pop at least once every N cycles, N >= 1", c->pop_interval);
    else if ((unsigned)c->pattern > WM_PATTERN_HOTSPOT)
        snprintf(err, err_size, "unknown traffic pattern %d", (int)c->pattern);
    else if (!(c->hotspot_fraction >= 0.0 && c->hotspot_fraction <= 1.0))
        snprintf(err, err_size, "hotspot fraction %g is outside 0..1", c->hotspot_fraction);
    else if (!(c->offmesh_fraction >= 0.0 && c->offmesh_fraction <= 1.0))
        snprintf(err, err_size, "off-mesh fraction %g is outside 0..1", c->offmesh_fraction);
    else if (c->offmesh_fraction > 0.0 && w == WM_MESH_MAX && h == WM_MESH_MAX)
        snprintf(err, err_size, "a %ux%u mesh leaves no address beyond its edge", w, h);
    else if (c->hotspot_x != UINT32_MAX && (c->hotspot_x >= w || c->hotspot_y >= h))
        snprintf(err, err_size, "hotspot (%u,%u) is outside the %ux%u mesh (0,0..%u,%u)", c->hotspot_x, c->hotspot_y,
                 w, h, w - 1, h - 1);
    else
        return true;
    return false;
}

wm_traffic *wm_traffic_create(const wm_traffic_config *cfg, const wm_fabric_ops *ops, wm_fabric *f, unsigned w,
                              unsigned h)
{
    return wm_traffic_create_banded(cfg, ops, f, w, h, NULL);
}

wm_traffic *wm_traffic_create_banded(const wm_traffic_config *cfg, const wm_fabric_ops *ops, wm_fabric *f,
                                     unsigned w, unsigned h, wm_partition *part)
{
    char err[160];
    if (!wm_traffic_config_check(cfg, w, h, err, sizeof err)) {
        fprintf(stderr, "wavemesh: traffic: %s\n", err);
        return NULL;
    }
    wm_traffic *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->cfg = *cfg;
    if (t->cfg.hotspot_x == UINT32_MAX || t->cfg.hotspot_y == UINT32_MAX) {
        t->cfg.hotspot_x = w / 2;
        t->cfg.hotspot_y = h / 2;
    }
    t->ops = ops;
    t->f = f;
    t->w = w;
    t->h = h;
    t->n = (size_t)w * h;
    t->part = part;
    t->block = part ? wm_partition_band(part) : (wm_fabric_band){0, h, 0, w};
    if (wm_fabric_is(ops, "sw")) t->queues = wm_fabric_sw_queues(f);
    uint64_t seed = cfg->seed;
    for (int i = 0; i < 4; i++) t->rng[i] = splitmix64(&seed);
    t->heap_time = malloc(t->n * sizeof *t->heap_time);
    t->heap_node = malloc(t->n * sizeof *t->heap_node);
    t->src = calloc(t->n, sizeof *t->src);
    t->dst = calloc(t->n, sizeof *t->dst);
    t->src_list = malloc(t->n * sizeof *t->src_list);
    t->dst_list = malloc(t->n * sizeof *t->dst_list);
    if (!t->heap_time || !t->heap_node || !t->src || !t->dst || !t->src_list || !t->dst_list) {
        fprintf(stderr, "wavemesh: traffic: out of memory for a %ux%u mesh\n", w, h);
        wm_traffic_destroy(t);
        return NULL;
    }
    t->sample_begin = cfg->warmup;
    t->sample_end = cfg->warmup + cfg->sample;
    const double p = cfg->rate / cfg->len;
    t->creates = p > 0.0;
    t->log_no_create = p >= 1.0 ? -INFINITY : log1p(-p);
    if (t->creates) {
        for (size_t i = 0; i < t->n; i++) {
            t->heap_node[i] = (uint32_t)i;
            t->heap_time[i] = creation_gap(t) - 1;
        }
        t->heap_n = t->n;
        for (size_t i = t->n / 2; i-- > 0;) heap_sift_down(t, i);
    }
    /* what each block shows the next at cycle 0 */
    if (part) wm_partition_exchange(part, ops, f, 0);
    return t;
}

void wm_traffic_destroy(wm_traffic *t)
{
    if (!t) return;
    if (t->src)
        for (size_t i = 0; i < t->n; i++) free(t->src[i].q);
    if (t->dst)
        for (size_t i = 0; i < t->n; i++) free(t->dst[i].pend);
    free(t->latency);
    free(t->heap_time);
    free(t->heap_node);
    free(t->src);
    free(t->dst);
    free(t->src_list);
    free(t->dst_list);
    free(t);
}

static void pick_destination(wm_traffic *t, uint32_t node, message *m)
{
    const unsigned x = node % t->w, y = node / t->w;
    unsigned dx, dy;
    if (t->cfg.pattern == WM_PATTERN_TRANSPOSE) {
        dx = y % t->w;
        dy = x % t->h;
    } else if (t->cfg.pattern == WM_PATTERN_BITCOMP) {
        dx = t->w - 1 - x;
        dy = t->h - 1 - y;
    } else if (t->cfg.pattern == WM_PATTERN_HOTSPOT && rng_unit(t->rng) < t->cfg.hotspot_fraction) {
        dx = t->cfg.hotspot_x;
        dy = t->cfg.hotspot_y;
    } else {
        const uint32_t d = rng_below(t->rng, (uint32_t)t->n);
        dx = d % t->w;
        dy = d / t->w;
    }
    m->offmesh = 0;
    if (t->cfg.offmesh_fraction > 0.0 && rng_unit(t->rng) < t->cfg.offmesh_fraction) {
        m->offmesh = 1;
        if (t->w < WM_MESH_MAX) dx = t->w + rng_below(t->rng, WM_MESH_MAX - t->w);
        else dy = t->h + rng_below(t->rng, WM_MESH_MAX - t->h);
    }
    m->dst_x = (uint16_t)dx;
    m->dst_y = (uint16_t)dy;
}

static bool holds(const wm_traffic *t, uint32_t node)
{
    const unsigned x = node % t->w, y = node / t->w;
    return y >= t->block.row_begin && y < t->block.row_end && x >= t->block.col_begin && x < t->block.col_end;
}

/* Where PE node's bytes are in the sw backend's queue arrays. */
static size_t queue_index(const wm_traffic *t, uint32_t node)
{
    const unsigned x = node % t->w, y = node / t->w;
    return (size_t)(y - t->block.row_begin) * t->queues.stride + (x - t->block.col_begin);
}

static void list_source(wm_traffic *t, uint32_t node)
{
    if (t->src[node].listed) return;
    t->src[node].listed = 1;
    t->src_list[t->nsrc++] = node;
}

static void list_dest(wm_traffic *t, uint32_t node)
{
    if (t->dst[node].listed) return;
    t->dst[node].listed = 1;
    t->dst_list[t->ndst++] = node;
}

static bool enqueue(source *s, const message *m)
{
    if (s->count == s->cap) {
        const uint32_t cap = s->cap ? 2 * s->cap : 4;
        message *q = malloc(cap * sizeof *q);
        if (!q) return false;
        for (uint32_t k = 0; k < s->count; k++) q[k] = s->q[(s->head + k) % s->cap];
        free(s->q);
        s->q = q;
        s->head = 0;
        s->cap = cap;
    }
    s->q[(s->head + s->count) % s->cap] = *m;
    s->count++;
    return true;
}

/* Data wavelet k of a message: who sent it, which one, which position. */
static uint32_t data_wavelet(uint32_t node, uint32_t seq, uint32_t k)
{
    uint64_t x = ((uint64_t)node << 40) ^ ((uint64_t)seq << 9) ^ k;
    return (uint32_t)splitmix64(&x);
}

static void note_pending(dest *d, uint32_t first, uint64_t created)
{
    if (d->npend == d->cap_pend) {
        const uint32_t cap = d->cap_pend ? 2 * d->cap_pend : 4;
        d->pend = wm_xrealloc(d->pend, cap * sizeof *d->pend);
        d->cap_pend = cap;
    }
    d->pend[d->npend++] = (pending){first, created};
}

/* The creation cycle of the pending message whose first data wavelet is
 * `first`, forgotten as it is found. */
static bool take_pending(dest *d, uint32_t first, uint64_t *created)
{
    for (uint32_t i = 0; i < d->npend; i++) {
        if (d->pend[i].first != first) continue;
        *created = d->pend[i].created;
        d->pend[i] = d->pend[--d->npend];
        return true;
    }
    return false;
}

/* A message created towards a PE on the mesh: a destination of this
 * process's block keeps what telling the message apart needs, from its
 * creation on, so that it does not depend on seeing the push (made by
 * another rank when the source is another block's). */
static void expect_message(wm_traffic *t, uint32_t node, const message *m)
{
    const uint32_t d = (uint32_t)m->dst_y * t->w + m->dst_x;
    if (!holds(t, d)) return;
    if (m->sampled && t->cfg.len >= 2) note_pending(&t->dst[d], data_wavelet(node, m->seq, 1), m->created);
    /* partitioned, the destination is watched from the creation, as its
     * rank cannot see the pushes of another's; in one process from the
     * push (push_sources), which polls fewer PEs. Either way it is watched
     * whenever a wavelet towards it waits in its RX queue. */
    if (t->part) {
        t->dst[d].expect += t->cfg.len;
        list_dest(t, d);
    }
}

static void create_messages(wm_traffic *t)
{
    while (t->heap_n && t->heap_time[0] == t->now) {
        const uint32_t node = t->heap_node[0];
        source *s = &t->src[node];
        message m;
        m.created = t->now;
        m.seq = s->seq++;
        pick_destination(t, node, &m);
        m.sampled = !m.offmesh && t->now >= t->sample_begin && t->now < t->sample_end;
        /* a source of another rank's block: that rank queues the message */
        const bool queued = !holds(t, node) || enqueue(s, &m);
        if (queued) {
            if (holds(t, node)) list_source(t, node);
            if (!m.offmesh) expect_message(t, node, &m);
            t->messages_created++;
            if (m.offmesh) t->offmesh_messages++;
            if (t->now >= t->sample_begin && t->now < t->sample_end) t->sample_created_wavelets += t->cfg.len;
            if (m.sampled) {
                t->sample_messages++;
                t->sample_created_sum += m.created;
            }
        } else {
            fprintf(stderr, "wavemesh: traffic: out of memory for the source queue of PE (%u,%u)\n", node % t->w,
                    node / t->w);
        }
        t->heap_time[0] += creation_gap(t);
        heap_sift_down(t, 0);
        if (t->cfg.max_messages && t->messages_created >= t->cfg.max_messages) t->heap_n = 0;
    }
}

static void note_latency(wm_traffic *t, uint64_t cycles)
{
    if (t->nlatency == t->cap_latency) {
        const size_t cap = t->cap_latency ? 2 * t->cap_latency : 1024;
        t->latency = wm_xrealloc(t->latency, cap * sizeof *t->latency);
        t->cap_latency = cap;
    }
    t->latency[t->nlatency++] = cycles > UINT32_MAX ? UINT32_MAX : (uint32_t)cycles;
}

static void push_sources(wm_traffic *t)
{
    for (size_t k = 0; k < t->nsrc;) {
        const uint32_t node = t->src_list[k];
        source *s = &t->src[node];
        const unsigned x = node % t->w, y = node / t->w;
        const unsigned tx_count =
            t->queues.tx_count ? t->queues.tx_count[queue_index(t, node)] : t->ops->pe_status(t->f, x, y).tx_count;
        if (tx_count < WM_TX_DEPTH) {
            const message *m = &s->q[s->head];
            const uint32_t wavelet = s->sent == 0
                                         ? wm_header(m->dst_x, m->dst_y, t->cfg.len - 1,
                                                     ((m->seq << 1) & 0xfeu) | (m->sampled ? TAG_SAMPLED : 0u))
                                         : data_wavelet(node, m->seq, s->sent);
            t->ops->pe_push(t->f, x, y, wavelet);
            if (!m->offmesh && !t->part) { /* partitioned: watched from the creation (expect_message) */
                const uint32_t d = (uint32_t)m->dst_y * t->w + m->dst_x;
                t->dst[d].expect++;
                list_dest(t, d);
            }
            if (++s->sent == t->cfg.len) {
                s->sent = 0;
                s->head = (s->head + 1) % s->cap;
                s->count--;
            }
        }
        if (s->count == 0) {
            s->listed = 0;
            t->src_list[k] = t->src_list[--t->nsrc];
        } else {
            k++;
        }
    }
}

static void pop_destinations(wm_traffic *t)
{
    const bool in_sample = t->now >= t->sample_begin && t->now < t->sample_end;
    for (size_t k = 0; k < t->ndst;) {
        const uint32_t node = t->dst_list[k];
        dest *d = &t->dst[node];
        const unsigned x = node % t->w, y = node / t->w;
        /* The test for the usual interval 1 skips a division per PE. */
        if (t->cfg.pop_interval == 1 || (t->now + node) % t->cfg.pop_interval == 0) {
            wm_pe_status st;
            if (t->queues.rx_count) {
                const size_t q = queue_index(t, node);
                st.rx_count = t->queues.rx_count[q];
                st.rx_head = t->queues.rx_head[q];
            } else {
                st = t->ops->pe_status(t->f, x, y);
            }
            if (st.rx_count) {
                t->ops->pe_pop(t->f, x, y);
                d->expect--;
                t->wavelets_popped++;
                if (in_sample) t->sample_popped_wavelets++;
                bool tail;
                if (d->rem == 0) {
                    d->rem = wm_header_len(st.rx_head);
                    d->sampled = (wm_header_tag(st.rx_head) & TAG_SAMPLED) != 0;
                    d->at_first = d->sampled && d->rem > 0;
                    tail = d->rem == 0;
                } else {
                    if (d->at_first) {
                        d->at_first = 0;
                        if (!take_pending(d, st.rx_head, &d->created)) d->created = UINT64_MAX;
                    }
                    tail = --d->rem == 0;
                }
                if (tail) {
                    t->messages_arrived++;
                    if (d->sampled) {
                        t->sample_arrived++;
                        t->sample_arrival_sum += t->now;
                        if (t->cfg.len >= 2 && d->created != UINT64_MAX) note_latency(t, t->now - d->created);
                    }
                }
            }
        }
        if (d->expect == 0) {
            d->listed = 0;
            t->dst_list[k] = t->dst_list[--t->ndst];
        } else {
            k++;
        }
    }
}

/* Partitioned, after a step: the boundary links to the blocks across,
 * and every rank's pops in this cycle (the counts since `before`) summed,
 * with whether any rank was interrupted, so that every rank holds what one
 * process would count and decides alike when the run ends. */
static void agree(wm_traffic *t, const uint64_t before[5])
{
    wm_partition_exchange(t->part, t->ops, t->f, t->now);
    uint64_t *const count[5] = {&t->messages_arrived, &t->sample_arrived, &t->sample_arrival_sum,
                                &t->wavelets_popped, &t->sample_popped_wavelets};
    uint64_t v[6];
    for (int k = 0; k < 5; k++) v[k] = *count[k] - before[k];
    v[5] = wm_interrupt_pending();
    wm_partition_sum(t->part, v, 6, t->now);
    for (int k = 0; k < 5; k++) *count[k] = before[k] + v[k];
    t->stop = v[5] != 0;
}

void wm_traffic_step(wm_traffic *t)
{
    if (t->creates) create_messages(t);
    push_sources(t);
    const uint64_t before[5] = {t->messages_arrived, t->sample_arrived, t->sample_arrival_sum, t->wavelets_popped,
                                t->sample_popped_wavelets};
    pop_destinations(t);
    t->ops->step(t->f);
    t->now++;
    if (t->part) agree(t, before);
}

bool wm_traffic_interrupted(const wm_traffic *t) { return t->part ? t->stop : wm_interrupt_pending(); }

void wm_traffic_gather(wm_traffic *t)
{
    if (!t->part) return;
    size_t total = 0;
    char *all = wm_partition_gather(t->part, t->latency, t->nlatency * sizeof *t->latency, &total, t->now);
    if (!all) { /* not rank 0: its latencies are rank 0's now */
        t->nlatency = 0;
        return;
    }
    free(t->latency);
    /* the percentiles sort them: the order of the ranks does not matter */
    t->latency = (uint32_t *)(void *)all;
    t->nlatency = t->cap_latency = total / sizeof *t->latency;
}

bool wm_traffic_done(const wm_traffic *t)
{
    if (t->now < t->sample_end) return false;
    return t->sample_arrived == t->sample_messages || t->now >= t->sample_end + t->cfg.drain_max;
}

static int by_value(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

bool wm_latency_percentiles(uint32_t *latency, size_t n, uint64_t *p50, uint64_t *p90, uint64_t *p99, uint64_t *max)
{
    if (!n) return false;
    qsort(latency, n, sizeof *latency, by_value);
    const unsigned pct[3] = {50, 90, 99};
    uint64_t *out[3] = {p50, p90, p99};
    for (int k = 0; k < 3; k++) {
        size_t rank = (pct[k] * n + 99) / 100; /* ceil(p/100 * n), 1-based */
        if (rank < 1) rank = 1;
        *out[k] = latency[rank - 1];
    }
    *max = latency[n - 1];
    return true;
}

/* Only when every sampled message was told apart. */
static void percentiles(const wm_traffic *t, wm_traffic_result *r)
{
    if (t->cfg.len < 2 || !t->sample_messages || t->nlatency != t->sample_messages) return;
    uint32_t *sorted = malloc(t->nlatency * sizeof *sorted);
    if (!sorted) return;
    memcpy(sorted, t->latency, t->nlatency * sizeof *sorted);
    r->has_percentiles = wm_latency_percentiles(sorted, t->nlatency, &r->p50_latency, &r->p90_latency,
                                                &r->p99_latency, &r->max_latency);
    free(sorted);
}

wm_traffic_result wm_traffic_result_now(const wm_traffic *t)
{
    wm_traffic_result r;
    memset(&r, 0, sizeof r);
    r.cycles = t->now;
    r.sample_messages = t->sample_messages;
    r.sample_arrived = t->sample_arrived;
    r.messages_created = t->messages_created;
    r.messages_arrived = t->messages_arrived;
    r.wavelets_popped = t->wavelets_popped;
    r.offmesh_messages = t->offmesh_messages;
    r.saturated = t->sample_arrived != t->sample_messages;
    if (!r.saturated) {
        r.latency_sum = t->sample_arrival_sum - t->sample_created_sum;
        r.avg_latency = t->sample_messages ? (double)r.latency_sum / (double)t->sample_messages : 0.0;
        percentiles(t, &r);
    }
    const double node_cycles = (double)t->n * (double)t->cfg.sample;
    r.offered = (double)t->sample_created_wavelets / node_cycles;
    r.accepted = (double)t->sample_popped_wavelets / node_cycles;
    return r;
}

wm_traffic_result wm_traffic_run(wm_traffic *t)
{
    while (!wm_traffic_done(t)) wm_traffic_step(t);
    return wm_traffic_result_now(t);
}

static const char *const pattern_names[] = {"uniform", "transpose", "bitcomp", "hotspot"};

const char *wm_pattern_name(wm_pattern p)
{
    return (unsigned)p < sizeof pattern_names / sizeof pattern_names[0] ? pattern_names[p] : "?";
}

bool wm_pattern_parse(const char *name, wm_pattern *out)
{
    for (unsigned i = 0; i < sizeof pattern_names / sizeof pattern_names[0]; i++) {
        if (!strcmp(name, pattern_names[i])) {
            *out = (wm_pattern)i;
            return true;
        }
    }
    return false;
}
