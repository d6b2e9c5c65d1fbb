/* ending.c: the words of a run's ending (see ending.h). */
#include "run/ending.h"

#include <string.h>

static const char *const words[] = {"returned", "deadlock", "stall", "fault", "cycle-limit", "undelivered",
                                    "interrupted"};
static const char *const phrases[] = {"every kernel returned",
                                      "a deadlock",
                                      "a stall",
                                      "a firmware fault",
                                      "the cycle limit reached",
                                      "a message left unread",
                                      "an interruption"};

const char *wm_ending_word(wm_ending e) { return words[e]; }
const char *wm_ending_phrase(wm_ending e) { return phrases[e]; }

bool wm_ending_parse(const char *word, wm_ending *out)
{
    for (unsigned i = WM_END_DEADLOCK; i < WM_END_INTERRUPTED; i++)
        if (!strcmp(word, words[i])) {
            *out = (wm_ending)i;
            return true;
        }
    return false;
}

const char *wm_ending_words(void) { return "deadlock, stall, fault, cycle-limit or undelivered"; }
