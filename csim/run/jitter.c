/* jitter.c: the schedule's jitter (scheduler.h, wm_sched_set_jitter), the
 * same in every PE mode: a generator per PE seeded by the seed and the
 * PE's index, whose first draw is the PE's start delay and each draw after
 * it the stall of one push or pop. The mode applies them: natively the
 * coroutine's next port access waits, on the cores the host holds the
 * core (core_sched.c). One seed is one schedule on either backend. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

/* splitmix64: a full-period generator with a state of one word. */
static uint64_t jitter_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

bool wm_sched_set_jitter(wm_sched *s, uint64_t seed, char *err, size_t err_size)
{
    if (!s->pm->jitter_start(s, err, err_size)) return false;
    s->jitter_seed = seed;
    for (size_t i = 0; i < s->n; i++) {
        wm_mp *mp = &s->pes[i];
        uint64_t mix = seed ^ (0x632be59bd9b4e019u * (i + 1));
        mp->jitter_state = jitter_next(&mix) | 1;
        s->pm->delay_start(s, mp, (unsigned)(jitter_next(&mp->jitter_state) % (WM_JITTER_START + 1)));
    }
    return true;
}

bool wm_sched_jittered(const wm_sched *s) { return s->jitter_seed != 0; }

unsigned wm_sched_jitter_port(wm_mp *mp)
{
    if (!mp->jitter_state) return 0;
    return (unsigned)(jitter_next(&mp->jitter_state) % (WM_JITTER_PORT + 1));
}
