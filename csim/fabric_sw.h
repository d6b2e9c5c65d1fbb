/* fabric_sw.h: what the sw backend offers beyond the ops table.
 *
 * The sw backend (wm_fabric_sw, declared in fabric.h) is a pure-C model of
 * the tile written from docs/fabric.md. The regression compares it with the
 * rtl backend wavelet for wavelet; to prove that comparison can fail, the
 * model can be made deliberately wrong in one tile. A perturbation applies
 * to the sw fabrics created after it is set, until it is set back to
 * WM_SW_EXACT. It is a test instrument, never a mode of use.
 */
#ifndef WM_FABRIC_SW_H
#define WM_FABRIC_SW_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    WM_SW_EXACT = 0,     /* the model as specified */
    WM_SW_RR_REVERSE,    /* tile (x, y): every arbiter scans RR, RR-1, ... instead of RR, RR+1, ... */
    WM_SW_LATE_GRANT     /* tile (x, y), output port: a header is granted one cycle after it could be */
} wm_sw_perturbation_kind;

typedef struct {
    wm_sw_perturbation_kind kind;
    unsigned x, y;
    unsigned port; /* wm_port, for WM_SW_LATE_GRANT */
} wm_sw_perturbation;

void wm_fabric_sw_set_perturbation(wm_sw_perturbation p);
wm_sw_perturbation wm_fabric_sw_perturbation(void);

/* Parses "rr-reverse:X,Y" or "late-grant:X,Y,PORT" (PORT is N, E, S, W or
 * L) into *out. On a malformed text, false with the reason in err. */
bool wm_sw_perturbation_parse(const char *text, wm_sw_perturbation *out, char *err, size_t err_size);

#endif
