/* fuzz_layout.c: libFuzzer on the layout parser (csim/run/layout.c): any
 * bytes, with and without --set, must be parsed or refused with a message,
 * never crash, hang or leak. `make fuzz` (docs/verification.md). */
#include "run/layout.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* The first byte picks settings, as `run --set` gives them. */
    char s0[] = "SHAPE=1", s1[] = "V0=4294967296", s2[] = "N=-1";
    wm_setting settings[3];
    size_t n = 0;
    if (size && (data[0] & 1) && wm_setting_parse(s0, &settings[n])) n++;
    if (size && (data[0] & 2) && wm_setting_parse(s1, &settings[n])) n++;
    if (size && (data[0] & 4) && wm_setting_parse(s2, &settings[n])) n++;
    wm_layout *l = wm_layout_parse(text, "fuzz.layout", settings, n, sink);
    if (l) {
        /* what the runner reads of a layout */
        for (size_t i = 0; i < wm_layout_count(l); i++) {
            const wm_instance *in = wm_layout_instance(l, i);
            if (in->x >= wm_layout_width(l) || in->y >= wm_layout_height(l)) abort();
            (void)wm_layout_find(l, in->name);
        }
        for (unsigned y = 0; y < wm_layout_height(l); y++)
            for (unsigned x = 0; x < wm_layout_width(l); x++) (void)wm_layout_enabled(l, x, y);
    }
    wm_layout_destroy(l);
    free(text);
    return 0;
}
