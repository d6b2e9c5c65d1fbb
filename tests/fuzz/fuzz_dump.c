/* fuzz_dump.c: libFuzzer on the dump reader behind `wavemesh wavediff`
 * (csim/waves/waves_read.c, with the FST reader it uses): any bytes,
 * named .fst or .vcd, must be read or refused with a reason, never crash,
 * hang or leak. `make fuzz` (docs/verification.md). */
#include "waves/waves_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char fst[64], vcd[64];
    if (!fst[0]) {
        /* an FST reader that does not end is stopped after 0.1 s of CPU
         * time (the 8-KiB inputs read in a few ms) */
        setenv("WM_FST_READ_SECONDS", "0.1", 1);
        /* in memory where there is a tmpfs: on a disk mounted with discard,
         * rewriting the file each input waits for the disk */
        struct stat st;
        const char *tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
        snprintf(fst, sizeof fst, "%s/wm_fuzz_dump.%ld.fst", tmp, (long)getpid());
        snprintf(vcd, sizeof vcd, "%s/wm_fuzz_dump.%ld.vcd", tmp, (long)getpid());
    }
    /* An FST file opens with its header block (0); anything else is read
     * as the VCD it claims to be. */
    const char *path = size && data[0] == 0 ? fst : vcd;
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    char err[512];
    wm_dump *d = wm_dump_load(path, err, sizeof err);
    if (d) {
        for (size_t i = 0; i < wm_dump_signal_count(d); i++) {
            const wm_dump_signal *s = wm_dump_signal_at(d, i);
            size_t n;
            const wm_change *c = wm_dump_changes(d, s, &n);
            for (size_t k = 1; k < n; k++)
                if (c[k].time < c[k - 1].time) abort(); /* the reader promises time order */
            uint64_t v;
            (void)wm_dump_value_at(d, s, wm_dump_end_time(d), &v);
        }
    }
    wm_dump_free(d);
    remove(path);
    return 0;
}
