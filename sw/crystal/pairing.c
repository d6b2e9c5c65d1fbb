/* pairing.c: the Neko and gslib bisection rules (see pairing.h). */
#include "pairing.h"

static void neko_step(unsigned lo, unsigned hi, unsigned r, wm_stage_step *st)
{
    const unsigned m = hi - lo, half = m / 2, mid = lo + half;
    st->cut = mid;
    st->src2 = -1;
    if (r < mid) {
        st->dst = st->src = (int)(mid + (r - lo));
        if (r == lo && (m & 1u)) st->src2 = (int)(hi - 1);
        st->lo = lo;
        st->hi = mid;
    } else {
        if (r - mid < half) {
            st->dst = st->src = (int)(lo + (r - mid));
        } else {
            st->dst = (int)lo;
            st->src = -1;
        }
        st->lo = mid;
        st->hi = hi;
    }
}

static void gslib_step(unsigned lo, unsigned hi, unsigned r, wm_stage_step *st)
{
    const unsigned n = hi - lo, bh = lo + (n + 1) / 2;
    st->cut = bh;
    st->src2 = -1;
    const unsigned mirror = lo + hi - 1 - r;
    if ((n & 1u) && r == bh - 1) {
        st->dst = (int)bh;
        st->src = -1;
    } else {
        st->dst = st->src = (int)mirror;
        if ((n & 1u) && r == bh) st->src2 = (int)(bh - 1);
    }
    if (r < bh) {
        st->lo = lo;
        st->hi = bh;
    } else {
        st->lo = bh;
        st->hi = hi;
    }
}

bool wm_stage_step_of(wm_pairing rule, unsigned lo, unsigned hi, unsigned rank, wm_stage_step *step)
{
    if (hi - lo <= 1) return false;
    if (rule == WM_PAIRING_GSLIB)
        gslib_step(lo, hi, rank, step);
    else
        neko_step(lo, hi, rank, step);
    return true;
}

unsigned wm_stage_count(unsigned nranks)
{
    unsigned s = 0;
    while ((1u << s) < nranks) s++;
    return s;
}
