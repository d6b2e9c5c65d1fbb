/* must_use.h: the mark of a result that must not be ignored.
 *
 * Library code returns its errors (csim/README.md, "Errors"): a creation,
 * a load, a parse, a check or a write that can fail says so in its result,
 * with the message for the user printed on the stream or written into the
 * buffer it was given. A caller that drops such a result has a bug the
 * compiler reports. */
#ifndef WM_MUST_USE_H
#define WM_MUST_USE_H

#define WM_MUST_USE __attribute__((warn_unused_result))

#endif
