/* ending.h: how a run ended, as a verdict sees it.
 *
 * A run is correct only when every kernel returned and every message
 * reached a kernel that read it; every other ending fails its row or its
 * regression scenario, unless the layout or the row says that the run is
 * meant to end that way (`expect deadlock`, docs/layouts.md). The words
 * are the ones those lines use. */
#ifndef WM_ENDING_H
#define WM_ENDING_H

#include <stdbool.h>

typedef enum {
    WM_END_RETURNED = 0, /* every kernel returned, every message read */
    WM_END_DEADLOCK,     /* "deadlock" */
    WM_END_STALL,        /* "stall" */
    WM_END_FAULT,        /* "fault": a firmware fault */
    WM_END_CYCLE_LIMIT,  /* "cycle-limit" */
    WM_END_UNDELIVERED,  /* "undelivered": every kernel returned, a message was not read */
    WM_END_INTERRUPTED   /* a signal or a failed RTL assertion: never expected */
} wm_ending;

/* The word of an ending ("returned", "deadlock", ...). */
const char *wm_ending_word(wm_ending e);
/* The ending a word names; false for any other word (and "interrupted",
 * which no file may expect). */
bool wm_ending_parse(const char *word, wm_ending *out);
/* The words an `expect` line accepts, for messages: "deadlock, stall, ...". */
const char *wm_ending_words(void);
/* "a deadlock", "a stall", ..., for "the run ended with ...". */
const char *wm_ending_phrase(wm_ending e);

#endif
