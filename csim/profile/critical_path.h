/* critical_path.h: the chain of compute and messages that decided a run's
 * length.
 *
 * The path is walked back from the run's last event (the end of the last
 * kernel to finish; the first such PE in layout order, a tie counted in
 * path_end_ties) to cycle 0. At a
 * time t on PE p, it looks for p's latest wait on an empty RX queue that
 * ended by cycle t and whose message was popped whole by t: the wait ends
 * at a pop, and the pop belongs to a message m (the messages popped at one
 * PE do not interleave, so it is the first of p's messages whose last
 * wavelet was popped at or after it). Then
 *
 *   compute on p     [m.received, t)   the cycles p spent after m was in
 *   message m        [m.sent, m.received)   from its header's push at the
 *                                      sender to its last wavelet's pop,
 *                                      whatever the receiver did meanwhile
 *
 * and the walk goes on at m's sender from t = m.sent. With no such wait,
 * the last segment is compute on p over [0, t): its start-up, and any
 * cycles before its core started, count as compute on it. A wait on a full
 * TX queue is compute on its PE: no message of another PE ended it. Every
 * step moves t back (a message is popped after it is pushed), and the
 * segments tile [0, last_event) with no gap and no overlap; an empty
 * compute segment (a PE that sends in the cycle after a pop) is left out. */
#ifndef WM_PROFILE_CRITICAL_PATH_H
#define WM_PROFILE_CRITICAL_PATH_H

#include "profile/profile.h"

/* Fill p->path and p->npath from its PEs, messages and last_event (an old
 * path is freed). */
void wm_profile_critical_path(wm_profile *p);

#endif
