/* datadir.c: the binary's name and where its data lies (datadir.h). */
#include "core/datadir.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { PATH_BYTES = 4096, LEVELS_UP = 4 };

static char self_name[PATH_BYTES] = "wavemesh";
static char firmware_dir[PATH_BYTES + 64], source_dir[PATH_BYTES + 64];
static bool found;

void wm_self_init(const char *argv0)
{
    if (argv0 && *argv0) snprintf(self_name, sizeof self_name, "%s", argv0);
}

const char *wm_self_name(void) { return self_name; }

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The nearest folder at or above dir (LEVELS_UP at most) holding sub, into
 * out; false if none. */
static bool find_up(const char *dir, const char *sub, char *out, size_t size)
{
    char at[PATH_BYTES];
    snprintf(at, sizeof at, "%s", dir);
    for (int k = 0; k <= LEVELS_UP; k++) {
        char probe[PATH_BYTES + 64];
        snprintf(probe, sizeof probe, "%s/%s", at, sub);
        if (is_dir(probe)) {
            snprintf(out, size, "%s", at);
            return true;
        }
        char *slash = strrchr(at, '/');
        if (!slash || slash == at) return false;
        *slash = '\0';
    }
    return false;
}

static void find(void)
{
    if (found) return;
    found = true;
    /* the fallbacks: a build run from the checkout's root */
    snprintf(firmware_dir, sizeof firmware_dir, "%s", BUILD_DIR "/firmware");
    snprintf(source_dir, sizeof source_dir, ".");
    const char *data = getenv("WAVEMESH_DATA");
    if (data && *data) {
        snprintf(firmware_dir, sizeof firmware_dir, "%s/firmware", data);
        snprintf(source_dir, sizeof source_dir, "%s", data);
        return;
    }
    char exe[PATH_BYTES];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return;
    *slash = '\0'; /* exe is now the binary's folder */
    char share[PATH_BYTES + 32];
    snprintf(share, sizeof share, "%s/../share/wavemesh", exe);
    char real[PATH_MAX];
    _Static_assert(PATH_MAX <= PATH_BYTES, "realpath's result fits");
    if (is_dir(share) && realpath(share, real)) {
        snprintf(firmware_dir, sizeof firmware_dir, "%s/firmware", real);
        snprintf(source_dir, sizeof source_dir, "%s", real);
        return;
    }
    char at[PATH_BYTES];
    if (find_up(exe, "firmware", at, sizeof at)) snprintf(firmware_dir, sizeof firmware_dir, "%s/firmware", at);
    if (find_up(exe, "sw/collectives", at, sizeof at)) snprintf(source_dir, sizeof source_dir, "%s", at);
}

const char *wm_data_firmware_dir(void)
{
    const char *env = getenv("WM_FIRMWARE_DIR");
    if (env && *env) return env;
    find();
    return firmware_dir;
}

const char *wm_data_source_dir(void)
{
    find();
    return source_dir;
}
