/* check.h: the writers' common test that a profile is whole. */
#ifndef WM_PROFILE_CHECK_H
#define WM_PROFILE_CHECK_H

#include "core/must_use.h"
#include "profile/profile.h"

#include <stdbool.h>
#include <stddef.h>

/* Every index of p points inside it, every function and PE has a name and
 * no slice or segment ends before it starts; false with the first fault in
 * err. */
WM_MUST_USE bool wm_profile_check(const wm_profile *p, char *err, size_t err_size);

#endif
