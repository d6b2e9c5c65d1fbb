/* event_log.h: the link and core events a fabric's hooks report, kept in
 * order in a growing array, for the tests that compare them (included by a
 * cmocka test after cmocka.h; each test is one file, hence static inline). */
#ifndef WM_TESTS_EVENT_LOG_H
#define WM_TESTS_EVENT_LOG_H

#include "fabric/fabric.h"

#include <stdlib.h>

typedef struct {
    wm_link_event *ev;
    size_t n, cap;
} link_log;

typedef struct {
    wm_core_event *ev;
    size_t n, cap;
} core_log;

/* A fabric's link hook: ctx is a link_log. */
static inline void log_link(void *ctx, const wm_link_event *ev)
{
    link_log *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
        assert_non_null(l->ev);
    }
    l->ev[l->n++] = *ev;
}

/* A fabric's core hook: ctx is a core_log. */
static inline void log_core(void *ctx, const wm_core_event *ev)
{
    core_log *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
        assert_non_null(l->ev);
    }
    l->ev[l->n++] = *ev;
}

#endif
