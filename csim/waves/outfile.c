/* outfile.c: output files written beside and renamed into place (outfile.h). */
#include "waves/outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_LIVE = 64, NAME_BYTES = 4096 };

struct wm_outfile {
    char path[NAME_BYTES];
    char temp[NAME_BYTES];
    char hier[NAME_BYTES + 8]; /* the FST writer's own temporary, TEMP.hier */
    FILE *f;
    int error;
    int slot;
};

/* The temporaries being written, for wm_outfile_remove_all. */
static wm_outfile *volatile live[MAX_LIVE];
static int sigbus_installed;

static void write_err(const char *s) { (void)!write(2, s, strlen(s)); }

/* The FST writer keeps parts of the dump in memory-mapped files: when the
 * file system is full, touching a page of one raises SIGBUS instead of
 * returning an error from a write. */
static void on_sigbus(int sig)
{
    (void)sig;
    for (int k = 0; k < MAX_LIVE; k++) {
        const wm_outfile *o = live[k];
        if (!o) continue;
        write_err("wavemesh: writing ");
        write_err(o->path);
        write_err(" failed: the FST writer could not write a page of its memory-mapped files (SIGBUS): "
                  "no space left on the device of the dump or of TMPDIR; removed the partial dump\n");
        break;
    }
    wm_outfile_remove_all();
    _exit(1);
}

static void install_sigbus(void)
{
    if (sigbus_installed) return;
    sigbus_installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

wm_outfile *wm_outfile_begin(const char *path, bool open, char *err, size_t err_size)
{
    wm_outfile *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, err_size, "cannot write %s: out of memory", path);
        return NULL;
    }
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
        snprintf(o->temp, sizeof o->temp, "%s.%ld.part", path, (long)getpid()) >= (int)sizeof o->temp) {
        snprintf(err, err_size, "cannot write %.200s...: the path is longer than %d bytes", path, NAME_BYTES - 32);
        free(o);
        return NULL;
    }
    snprintf(o->hier, sizeof o->hier, "%s.hier", o->temp);
    /* Opened even when a library writes it: the folder is checked now,
     * before anything runs. */
    FILE *f = fopen(o->temp, "w");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        free(o);
        return NULL;
    }
    if (open) {
        o->f = f;
    } else {
        fclose(f);
        install_sigbus();
    }
    o->slot = -1;
    for (int k = 0; k < MAX_LIVE; k++) {
        if (!live[k]) {
            live[k] = o;
            o->slot = k;
            break;
        }
    }
    return o;
}

FILE *wm_outfile_stream(const wm_outfile *o) { return o->f; }
const char *wm_outfile_temp(const wm_outfile *o) { return o->temp; }
const char *wm_outfile_path(const wm_outfile *o) { return o->path; }

void wm_outfile_fail(wm_outfile *o, int e)
{
    if (!o->error) o->error = e ? e : EIO;
}

static void forget(wm_outfile *o)
{
    if (o->slot >= 0) live[o->slot] = NULL;
    free(o);
}

bool wm_outfile_commit(wm_outfile *o, char *err, size_t err_size)
{
    if (o->f) {
        errno = 0;
        if (fflush(o->f) != 0 || ferror(o->f)) wm_outfile_fail(o, errno);
        if (fclose(o->f) != 0) wm_outfile_fail(o, errno);
        o->f = NULL;
    }
    if (!o->error && rename(o->temp, o->path) != 0) wm_outfile_fail(o, errno);
    if (o->error) {
        snprintf(err, err_size, "writing %s failed: %s", o->path, strerror(o->error));
        wm_outfile_discard(o);
        return false;
    }
    unlink(o->hier);
    forget(o);
    return true;
}

void wm_outfile_discard(wm_outfile *o)
{
    if (!o) return;
    if (o->f) fclose(o->f);
    unlink(o->temp);
    unlink(o->hier);
    forget(o);
}

void wm_outfile_remove_all(void)
{
    for (int k = 0; k < MAX_LIVE; k++) {
        const wm_outfile *o = live[k];
        if (!o) continue;
        unlink(o->temp);
        unlink(o->hier);
    }
}
