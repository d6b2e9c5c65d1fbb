/* junit.h: a campaign as JUnit XML, as Jenkins, GitLab and GitHub read it,
 * and read back (for `wavemesh regress --merge`).
 *
 * One <testsuite> of <testcase>s, one a scenario: classname its kind
 * (corpus, random, layout), name as its line names it, time its wall
 * seconds; a failing one holds a <failure> whose message is its FAIL line
 * (the first divergence) and whose text is every line it printed (the
 * command that runs it alone and the shrunk reproducer's command among
 * them) and the command that reproduces it; a lost one's failure is of
 * type "lost"; one not run holds a <skipped> and no lines (ledger.h).
 * Every case's lines are in its
 * <system-out>, and the campaign's description in the suite's
 * <properties>, so that the shards of one campaign merge back into its
 * output. Written through waves/outfile.h (temporary name, renamed). */
#ifndef WM_JUNIT_H
#define WM_JUNIT_H

#include "core/must_use.h"
#include "regress/ledger.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *kind, *name, *text, *reproduce;
    double seconds;
    wm_ledger_state state;
} wm_junit_case;

#define WM_JUNIT_MAX_PROPS 16

typedef struct {
    wm_junit_case *cases;
    size_t n, cap;
    char *prop_name[WM_JUNIT_MAX_PROPS], *prop_value[WM_JUNIT_MAX_PROPS];
    size_t nprops;
} wm_junit;

/* Appends a case (the strings are copied; reproduce may be NULL). */
void wm_junit_add(wm_junit *j, const char *kind, const char *name, const char *text, const char *reproduce,
                  double seconds, wm_ledger_state state);
/* Sets a property of the suite (copied). */
void wm_junit_property(wm_junit *j, const char *name, const char *value);
/* The value of a property, or NULL. */
const char *wm_junit_get(const wm_junit *j, const char *name);
/* Writes the suite to path; false with the reason in err. */
WM_MUST_USE bool wm_junit_write(const wm_junit *j, const char *path, char *err, size_t err_size);
/* Reads a file this module wrote; false with the reason in err. A case's
 * state comes from its own elements (<failure>, its type, <skipped>), and
 * its lines must say the same (a FAIL line in a failure, a PASS line and
 * no FAIL line in a pass, none in one not run), or the file is refused as
 * inconsistent, the case named. */
WM_MUST_USE bool wm_junit_read(const char *path, wm_junit *j, char *err, size_t err_size);
void wm_junit_free(wm_junit *j);

#endif
