/* fuzz_rows.c: libFuzzer on the rows parser (`wavemesh rows FILE`,
 * csim/cli/cmd_rows.c): any bytes as a rows file, in a folder of its own
 * that holds one small layout, must be run or refused with the file and
 * line, never crash, hang or leak. `make fuzz` (docs/verification.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int wm_cmd_rows(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[96], layout[96];

/* libFuzzer ends with exit(): the folder goes with it */
static void remove_dir(void)
{
    remove(path);
    remove(layout);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        /* in memory where there is a tmpfs: on a disk mounted with discard,
         * rewriting the file each input waits for the disk */
        struct stat st;
        const char *tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/wm_fuzz_rows.%ld", tmp, (long)getpid());
        mkdir(dir, 0755);
        /* the one layout a row may name: one PE that returns at once, so
         * that the time goes to the parser */
        snprintf(layout, sizeof layout, "%s/c.layout", dir);
        snprintf(path, sizeof path, "%s/f.rows", dir);
        atexit(remove_dir);
        FILE *l = fopen(layout, "w");
        if (!l) return 0;
        fputs("param V0 1\nparam V1 2\nmesh 1 1\nregion all\nat a 0 0\npe a chain VAL=$V0 FIRST=1 LAST=1\n", l);
        fclose(l);
    }
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    char *argv[] = {"rows", path, "--backend", "sw", "--max-cycles", "20000", NULL};
    wm_cmd_rows(6, argv);
    return 0;
}
