/* xalloc.c: the one place the library ends the process (xalloc.h). */
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *p)
{
    if (!p) {
        fputs("wavemesh: out of memory\n", stderr);
        exit(1); /* the library's one exit: tests/check_no_exit.sh allows it here */
    }
    return p;
}

void *wm_xmalloc(size_t size) { return checked(malloc(size ? size : 1)); }

void *wm_xcalloc(size_t n, size_t size) { return checked(calloc(n ? n : 1, size ? size : 1)); }

void *wm_xrealloc(void *p, size_t size) { return checked(realloc(p, size ? size : 1)); }

char *wm_xstrdup(const char *s)
{
    const size_t n = strlen(s) + 1;
    return memcpy(wm_xmalloc(n), s, n);
}
