/* pack.c: bytes between ranks (see pack.h). */
#include "mpi/pack.h"

#include "core/xalloc.h"

#include <string.h>

void wm_pack_put(wm_pack *k, const void *v, size_t n)
{
    if (k->len + n > k->cap) {
        k->cap = (k->len + n) * 2 + 256;
        k->bytes = wm_xrealloc(k->bytes, k->cap);
    }
    if (n) memcpy(k->bytes + k->len, v, n);
    k->len += n;
}

void wm_pack_u64(wm_pack *k, uint64_t v) { wm_pack_put(k, &v, sizeof v); }

void wm_pack_text(wm_pack *k, const char *t)
{
    const uint64_t n = t ? strlen(t) : 0;
    wm_pack_u64(k, n);
    wm_pack_put(k, t, n);
}

void wm_unpack_get(wm_unpack *u, void *v, size_t n)
{
    if ((size_t)(u->end - u->at) < n) {
        memset(v, 0, n);
        u->at = u->end;
        return;
    }
    memcpy(v, u->at, n);
    u->at += n;
}

uint64_t wm_unpack_u64(wm_unpack *u)
{
    uint64_t v;
    wm_unpack_get(u, &v, sizeof v);
    return v;
}

size_t wm_unpack_count(wm_unpack *u, size_t size)
{
    const uint64_t n = wm_unpack_u64(u);
    const size_t left = (size_t)(u->end - u->at) / size;
    return n > left ? left : (size_t)n;
}

const char *wm_unpack_text(wm_unpack *u, size_t *n)
{
    *n = wm_unpack_count(u, 1);
    const char *t = u->at;
    u->at += *n;
    return t;
}
