/* stream.c: layouts of firmware traffic (see stream.h). */
#include "run/stream.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t step(uint32_t x) { return x * 1103515245u + 12345u; }

wm_layout *wm_stream_layout(const wm_stream_spec *sp, wm_stream_expect **expect_out, char *err, size_t errn)
{
    const unsigned w = sp->w, h = sp->h, n = w * h;
    if (sp->pattern == WM_STREAM_TRANSPOSE && w != h) {
        snprintf(err, errn, "the transpose pattern needs a square mesh, not %ux%u", w, h);
        return NULL;
    }
    if (sp->len > WM_LEN_MAX) {
        snprintf(err, errn, "messages of %u data wavelets: at most %d", sp->len, WM_LEN_MAX);
        return NULL;
    }
    wm_stream_expect *ex = calloc(n, sizeof *ex);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = ex ? open_memstream(&text, &size) : NULL;
    if (!mem) {
        free(ex);
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    /* Every message of every PE, as the kernel will send it. */
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            uint32_t next = sp->seed + 1000u * y + x;
            for (unsigned m = 0; m < sp->count; m++) {
                unsigned tx = (x + sp->dx) % w, ty = (y + sp->dy) % h;
                if (sp->pattern == WM_STREAM_UNIFORM) {
                    next = step(next);
                    const unsigned to = (next >> 16) % n;
                    tx = to % w;
                    ty = to / w;
                } else if (sp->pattern == WM_STREAM_TRANSPOSE) {
                    tx = y;
                    ty = x;
                }
                wm_stream_expect *e = &ex[ty * w + tx];
                e->messages++;
                for (unsigned k = 0; k < sp->len; k++) {
                    if (sp->stamp && k == 0) continue;
                    e->sum += next;
                    next = step(next);
                }
            }
        }
    }
    fprintf(mem, "# firmware traffic: the stream kernel on every PE\nmesh %u %u\nregion all\n", w, h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) fprintf(mem, "at p%u_%u %u %u\n", x, y, x, y);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            unsigned tx = (x + sp->dx) % w, ty = (y + sp->dy) % h;
            if (sp->pattern == WM_STREAM_TRANSPOSE) {
                tx = y;
                ty = x;
            }
            fprintf(mem,
                    "pe p%u_%u stream MODE=%d TOX=%u TOY=%u W=%u H=%u COUNT=%u LEN=%u EXPECT=%u SEED=%" PRIu32
                    " GAP=%u STAMP=%d\n",
                    x, y, sp->pattern == WM_STREAM_UNIFORM, tx, ty, w, h, sp->count, sp->len,
                    ex[y * w + x].messages, sp->seed + 1000u * y + x, sp->gap, sp->stamp);
        }
    }
    fclose(mem);
    wm_layout *l = wm_layout_parse(text, "generated stream layout", NULL, 0, stderr);
    free(text);
    if (!l) {
        free(ex);
        snprintf(err, errn, "the generated stream layout does not parse");
        return NULL;
    }
    *expect_out = ex;
    return l;
}
