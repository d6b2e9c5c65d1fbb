/* random_scenario.c: drawing random scenarios, and their text (see
 * random_scenario.h). */
#include "regress/random_scenario.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes and times are drawn so that most scenarios are small and quick
 * and a few are big: a campaign of thousands then covers every shape and
 * still runs at hundreds a minute. One scenario is held to this many
 * router-cycles (mesh tiles x cycles) per backend. */
enum { ROUTER_CYCLE_BUDGET = 1000000 };

/* Limits of the text's numbers, checked on every scenario. */
#define MAX_POP 1000u
#define MAX_PHASE 10000000ull  /* warm-up, sample, drain, cycles */
#define MAX_COUNT 1000u
#define MAX_GAP 100000u

wm_random_limits wm_random_limits_default(void)
{
    return (wm_random_limits){WM_RANDOM_SIDE_MAX, 6, -1, 0};
}

/* splitmix64: every draw of scenario (seed, index) comes from its own
 * stream, so scenario I is the same whichever ones run before it. */
typedef struct {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* 0..n-1 */
static unsigned below(rng *r, unsigned n) { return (unsigned)(((rng_next(r) >> 32) * (uint64_t)n) >> 32); }

/* [0, 1) */
static double unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* 1..max, log-uniform: a side of 1 as likely as one of 16..32. */
static unsigned side(rng *r, unsigned max)
{
    const unsigned s = (unsigned)floor(exp(unit(r) * log((double)max + 1.0)));
    return s < 1 ? 1 : s > max ? max : s;
}

static void generate_traffic(rng *r, const wm_random_limits *lim, wm_random_scenario *s)
{
    const unsigned max = lim->max_side, line_max = lim->max_line_side ? lim->max_line_side : max;
    const unsigned shape = below(r, 100);
    if (shape < 12) {
        s->w = 1;
        s->h = side(r, line_max);
    } else if (shape < 24) {
        s->w = side(r, line_max);
        s->h = 1;
    } else {
        s->w = side(r, max);
        s->h = side(r, max);
    }
    wm_traffic_config *c = &s->traffic;
    const unsigned pattern = below(r, 20);
    c->pattern = pattern < 10 ? WM_PATTERN_UNIFORM
                 : pattern < 13 ? WM_PATTERN_TRANSPOSE
                 : pattern < 16 ? WM_PATTERN_BITCOMP
                                : WM_PATTERN_HOTSPOT;
    if (c->pattern == WM_PATTERN_HOTSPOT) c->hotspot_fraction = (10 + below(r, 41)) / 100.0;
    /* offered load 0.005 .. 0.6 wavelets per node per cycle, log-uniform */
    const double rate = exp(log(0.005) + unit(r) * (log(0.6) - log(0.005)));
    c->rate = floor(rate * 1000.0 + 0.5) / 1000.0;
    const unsigned len_class = below(r, 10);
    c->len = len_class < 4   ? 1 + below(r, 4)
             : len_class < 7 ? 5 + below(r, 28)
             : len_class < 9 ? 33 + below(r, 24)
                             : 57 + below(r, WM_LEN_MAX + 2 - 57); /* up to WM_LEN_MAX + 1 */
    c->pop_interval = below(r, 10) < 7 ? 1 : 2 + below(r, 7);
    if (below(r, 4) == 0)
        c->offmesh_fraction = (1 + below(r, 30)) / 100.0;
    c->warmup = below(r, 301);
    c->sample = 20 + below(r, 981);
    c->drain_max = below(r, 1501);
    c->seed = rng_next(r) >> 32;
    const uint64_t tiles = (uint64_t)s->w * s->h;
    while (tiles * (c->warmup + c->sample + c->drain_max) > ROUTER_CYCLE_BUDGET) {
        c->warmup /= 2;
        c->sample = c->sample / 2 + 1;
        c->drain_max /= 2;
    }
    if (below(r, 4) == 0) {
        s->ndisabled = 1 + below(r, 3);
        for (unsigned k = 0; k < s->ndisabled; k++) {
            s->disabled[k][0] = (uint16_t)below(r, s->w);
            s->disabled[k][1] = (uint16_t)below(r, s->h);
        }
        s->off_at = below(r, 2) ? 0 : below(r, (unsigned)(c->warmup + c->sample));
        s->on_at = below(r, 2) ? 0 : s->off_at + 1 + below(r, 500);
    }
}

static void generate_stream(rng *r, const wm_random_limits *lim, wm_random_scenario *s)
{
    s->w = 1 + below(r, lim->max_core_side);
    s->h = 1 + below(r, lim->max_core_side);
    wm_stream_spec *st = &s->stream;
    const unsigned pattern = below(r, 10);
    st->pattern = pattern < 6 ? WM_STREAM_UNIFORM : pattern < 9 ? WM_STREAM_SHIFT : WM_STREAM_TRANSPOSE;
    if (st->pattern == WM_STREAM_TRANSPOSE) s->h = s->w; /* which it needs */
    if (st->pattern == WM_STREAM_SHIFT) {
        st->dx = below(r, s->w);
        st->dy = below(r, s->h);
    }
    st->count = 1 + below(r, 8);
    /* long messages, few of them: a core pops a wavelet in a few cycles */
    if (below(r, 5) == 0) {
        st->len = below(r, WM_LEN_MAX + 1);
        st->count = 1 + below(r, 2);
    } else {
        st->len = below(r, 17);
    }
    st->gap = below(r, 2) ? 0 : below(r, 60);
    st->seed = (uint32_t)(rng_next(r) >> 32);
}

void wm_random_generate(uint64_t seed, uint64_t index, const wm_random_limits *lim, wm_random_scenario *out)
{
    memset(out, 0, sizeof *out);
    out->traffic = wm_traffic_config_default();
    out->traffic.offmesh_fraction = 0.0;
    out->traffic.hotspot_fraction = 0.2;
    rng seeder = {seed};
    rng r = {rng_next(&seeder) ^ (index * 0xd1342543de82ef95ull)};
    (void)rng_next(&r);
    out->cores = lim->pe == 1 || (lim->pe == -1 && below(&r, 8) == 0);
    if (out->cores) generate_stream(&r, lim, out);
    else generate_traffic(&r, lim, out);
}

/* ------------------------------------------------------------ text */

static const char *stream_pattern_name(wm_stream_pattern p)
{
    return p == WM_STREAM_SHIFT ? "shift" : p == WM_STREAM_TRANSPOSE ? "transpose" : "uniform";
}

void wm_random_format(const wm_random_scenario *s, char *buf, size_t size)
{
    size_t n = 0;
#define PUT(...)                                                              \
    do {                                                                      \
        if (n < size) n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__); \
    } while (0)
    if (s->cores) {
        const wm_stream_spec *st = &s->stream;
        PUT("pe=core,mesh=%ux%u,stream=%s", s->w, s->h, stream_pattern_name(st->pattern));
        if (st->pattern == WM_STREAM_SHIFT) PUT(",dx=%u,dy=%u", st->dx, st->dy);
        PUT(",count=%u,len=%u,gap=%u,seed=%" PRIu32, st->count, st->len, st->gap, st->seed);
    } else {
        const wm_traffic_config *c = &s->traffic;
        PUT("pe=native,mesh=%ux%u,pattern=%s", s->w, s->h, wm_pattern_name(c->pattern));
        if (c->pattern == WM_PATTERN_HOTSPOT) PUT(",hot=%.2f", c->hotspot_fraction);
        PUT(",rate=%.3f,len=%u,pop=%u,offmesh=%.2f,warmup=%" PRIu64 ",sample=%" PRIu64 ",drain=%" PRIu64
            ",seed=%" PRIu64,
            c->rate, c->len, c->pop_interval, c->offmesh_fraction, c->warmup, c->sample, c->drain_max, c->seed);
        if (c->max_messages) PUT(",messages=%" PRIu64, c->max_messages);
        if (s->ndisabled) {
            PUT(",off=");
            for (unsigned k = 0; k < s->ndisabled; k++)
                PUT("%s%u.%u", k ? "+" : "", s->disabled[k][0], s->disabled[k][1]);
            PUT("@%" PRIu64 "-", s->off_at);
            if (s->on_at) PUT("%" PRIu64, s->on_at);
        }
    }
    if (s->cycles) PUT(",cycles=%" PRIu64, s->cycles);
#undef PUT
}

static bool number(const char *key, const char *v, uint64_t lo, uint64_t hi, uint64_t *out, char *err,
                   size_t err_size)
{
    char *end;
    errno = 0;
    const unsigned long long x = strtoull(v, &end, 10);
    /* digits only: strtoull would also take leading blanks and a sign */
    if (*v < '0' || *v > '9' || *end || errno || x < lo || x > hi) {
        snprintf(err, err_size, "%s=%s: expected a whole number in %" PRIu64 "..%" PRIu64, key, v, lo, hi);
        return false;
    }
    *out = x;
    return true;
}

static bool fraction(const char *key, const char *v, double *out, char *err, size_t err_size)
{
    char *end;
    const double x = strtod(v, &end);
    if (!*v || isspace((unsigned char)*v) || *end || !(x >= 0.0 && x <= 1.0)) {
        snprintf(err, err_size, "%s=%s: expected a number in 0..1", key, v);
        return false;
    }
    *out = x;
    return true;
}

/* "X.Y+X.Y@A-B" or "...@A-" */
static bool parse_off(const char *v, wm_random_scenario *s, char *err, size_t err_size)
{
    const char *p = v;
    s->ndisabled = 0;
    for (;;) {
        unsigned x, y;
        int used = 0;
        const char *dot = strchr(p, '.');
        if (s->ndisabled == WM_RANDOM_MAX_DISABLED || !isdigit((unsigned char)*p) || !dot ||
            !isdigit((unsigned char)dot[1]) || sscanf(p, "%u.%u%n", &x, &y, &used) != 2 || x >= WM_MESH_MAX ||
            y >= WM_MESH_MAX)
            goto bad;
        s->disabled[s->ndisabled][0] = (uint16_t)x;
        s->disabled[s->ndisabled][1] = (uint16_t)y;
        s->ndisabled++;
        p += used;
        if (*p == '+') p++;
        else if (*p == '@') break;
        else goto bad;
    }
    p++;
    char *end;
    if (*p < '0' || *p > '9') goto bad;
    s->off_at = strtoull(p, &end, 10);
    if (*end != '-') goto bad;
    p = end + 1;
    s->on_at = 0;
    if (*p) {
        if (*p < '0' || *p > '9') goto bad;
        s->on_at = strtoull(p, &end, 10);
        if (*end || s->on_at <= s->off_at) goto bad;
    }
    return true;
bad:
    snprintf(err, err_size,
             "off=%s: expected up to %d routers X.Y joined by '+', then @FROM-UNTIL (cycles, UNTIL > FROM, "
             "empty: for good)",
             v, WM_RANDOM_MAX_DISABLED);
    return false;
}

bool wm_random_parse(const char *text, wm_random_scenario *out, char *err, size_t err_size)
{
    wm_random_scenario s;
    memset(&s, 0, sizeof s);
    s.traffic = wm_traffic_config_default();
    s.stream = (wm_stream_spec){0, 0, WM_STREAM_UNIFORM, 0, 0, 4, 4, 0, 1, false};
    bool have_pe = false, have_mesh = false;
    char copy[1024];
    if (strlen(text) >= sizeof copy) {
        snprintf(err, err_size, "the scenario text is longer than %zu characters", sizeof copy - 1);
        return false;
    }
    strcpy(copy, text);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, err_size, "'%s': expected KEY=VALUE", item);
            return false;
        }
        *eq = '\0';
        const char *k = item, *v = eq + 1;
        uint64_t u;
        if (!strcmp(k, "pe")) {
            if (strcmp(v, "native") && strcmp(v, "core")) {
                snprintf(err, err_size, "pe=%s: expected native or core", v);
                return false;
            }
            s.cores = !strcmp(v, "core");
            have_pe = true;
        } else if (!strcmp(k, "mesh")) {
            unsigned w, h;
            int used = 0;
            const char *x = strchr(v, 'x');
            /* digits on both sides: %u would also take blanks and a sign */
            if (!isdigit((unsigned char)v[0]) || !x || !isdigit((unsigned char)x[1]) ||
                sscanf(v, "%ux%u%n", &w, &h, &used) != 2 || v[used] || w < 1 || h < 1 || w > WM_MESH_MAX ||
                h > WM_MESH_MAX) {
                snprintf(err, err_size, "mesh=%s: expected WxH, each 1..%d", v, WM_MESH_MAX);
                return false;
            }
            s.w = w;
            s.h = h;
            have_mesh = true;
        } else if (!strcmp(k, "pattern")) {
            if (!wm_pattern_parse(v, &s.traffic.pattern)) {
                snprintf(err, err_size, "pattern=%s: expected uniform, transpose, bitcomp or hotspot", v);
                return false;
            }
        } else if (!strcmp(k, "stream")) {
            if (!strcmp(v, "uniform")) s.stream.pattern = WM_STREAM_UNIFORM;
            else if (!strcmp(v, "shift")) s.stream.pattern = WM_STREAM_SHIFT;
            else if (!strcmp(v, "transpose")) s.stream.pattern = WM_STREAM_TRANSPOSE;
            else {
                snprintf(err, err_size, "stream=%s: expected uniform, shift or transpose", v);
                return false;
            }
        } else if (!strcmp(k, "hot")) {
            if (!fraction(k, v, &s.traffic.hotspot_fraction, err, err_size)) return false;
        } else if (!strcmp(k, "rate")) {
            if (!fraction(k, v, &s.traffic.rate, err, err_size)) return false;
        } else if (!strcmp(k, "offmesh")) {
            if (!fraction(k, v, &s.traffic.offmesh_fraction, err, err_size)) return false;
        } else if (!strcmp(k, "len")) {
            /* native: wavelets with the header, 1..WM_LEN_MAX + 1; core: data wavelets, 0..WM_LEN_MAX (checked below) */
            if (!number(k, v, 0, WM_LEN_MAX + 1, &u, err, err_size)) return false;
            s.traffic.len = s.stream.len = (unsigned)u;
        } else if (!strcmp(k, "pop")) {
            if (!number(k, v, 1, MAX_POP, &u, err, err_size)) return false;
            s.traffic.pop_interval = (unsigned)u;
        } else if (!strcmp(k, "warmup")) {
            if (!number(k, v, 0, MAX_PHASE, &s.traffic.warmup, err, err_size)) return false;
        } else if (!strcmp(k, "sample")) {
            if (!number(k, v, 1, MAX_PHASE, &s.traffic.sample, err, err_size)) return false;
        } else if (!strcmp(k, "drain")) {
            if (!number(k, v, 0, MAX_PHASE, &s.traffic.drain_max, err, err_size)) return false;
        } else if (!strcmp(k, "seed")) {
            if (!number(k, v, 0, UINT32_MAX, &u, err, err_size)) return false;
            s.traffic.seed = u;
            s.stream.seed = (uint32_t)u;
        } else if (!strcmp(k, "messages")) {
            if (!number(k, v, 0, MAX_PHASE, &s.traffic.max_messages, err, err_size)) return false;
        } else if (!strcmp(k, "cycles")) {
            if (!number(k, v, 0, MAX_PHASE, &s.cycles, err, err_size)) return false;
        } else if (!strcmp(k, "off")) {
            if (!parse_off(v, &s, err, err_size)) return false;
        } else if (!strcmp(k, "dx")) {
            if (!number(k, v, 0, WM_MESH_MAX - 1, &u, err, err_size)) return false;
            s.stream.dx = (unsigned)u;
        } else if (!strcmp(k, "dy")) {
            if (!number(k, v, 0, WM_MESH_MAX - 1, &u, err, err_size)) return false;
            s.stream.dy = (unsigned)u;
        } else if (!strcmp(k, "count")) {
            if (!number(k, v, 1, MAX_COUNT, &u, err, err_size)) return false;
            s.stream.count = (unsigned)u;
        } else if (!strcmp(k, "gap")) {
            if (!number(k, v, 0, MAX_GAP, &u, err, err_size)) return false;
            s.stream.gap = (unsigned)u;
        } else {
            snprintf(err, err_size,
                     "unknown key '%s' (pe, mesh; pattern, hot, rate, len, pop, offmesh, warmup, sample, drain, seed, "
                     "messages, off; stream, dx, dy, count, gap; cycles)",
                     k);
            return false;
        }
    }
    if (!have_pe || !have_mesh) {
        snprintf(err, err_size, "the scenario needs pe=native|core and mesh=WxH");
        return false;
    }
    if (!wm_random_check(&s, err, err_size)) return false;
    *out = s;
    return true;
}

bool wm_random_check(const wm_random_scenario *s, char *err, size_t err_size)
{
    if (s->w < 1 || s->h < 1 || s->w > WM_MESH_MAX || s->h > WM_MESH_MAX) {
        snprintf(err, err_size, "mesh %ux%u is outside 1x1..%dx%d", s->w, s->h, WM_MESH_MAX, WM_MESH_MAX);
        return false;
    }
    if (s->cores) {
        const wm_stream_spec *st = &s->stream;
        if (st->len > WM_LEN_MAX) {
            snprintf(err, err_size, "len=%u: a stream message has 0..%d data wavelets", st->len, WM_LEN_MAX);
            return false;
        }
        if (st->pattern == WM_STREAM_TRANSPOSE && s->w != s->h) {
            snprintf(err, err_size, "stream=transpose needs a square mesh, not %ux%u", s->w, s->h);
            return false;
        }
        if (st->pattern == WM_STREAM_SHIFT && (st->dx >= s->w || st->dy >= s->h)) {
            snprintf(err, err_size, "dx=%u,dy=%u: a shift on a %ux%u mesh is 0..%u, 0..%u", st->dx, st->dy, s->w,
                     s->h, s->w - 1, s->h - 1);
            return false;
        }
        return true;
    }
    if (!wm_traffic_config_check(&s->traffic, s->w, s->h, err, err_size)) return false;
    for (unsigned k = 0; k < s->ndisabled; k++) {
        if (s->disabled[k][0] >= s->w || s->disabled[k][1] >= s->h) {
            snprintf(err, err_size, "off: router (%u,%u) is outside the %ux%u mesh", s->disabled[k][0],
                     s->disabled[k][1], s->w, s->h);
            return false;
        }
    }
    return true;
}
