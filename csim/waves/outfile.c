/* outfile.c: the one way every output file is written (outfile.h). */
#include "waves/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_LIVE = 64, NAME_BYTES = 4096, MAX_LINKS = 40 };

typedef enum {
    REPLACE, /* a temporary beside the target, renamed over it */
    DIRECT,  /* a device or FIFO, written in place through the stream */
    COPY     /* a device or FIFO a library writes: a temporary under TMPDIR, copied into it */
} how_t;

struct wm_outfile {
    char path[NAME_BYTES];      /* as given */
    char target[NAME_BYTES];    /* what is replaced: path, or the end of its links */
    char temp[NAME_BYTES + 32]; /* the temporary; for DIRECT the path */
    char hier[NAME_BYTES + 40]; /* the FST writer's own temporary, TEMP.hier */
    how_t how;
    FILE *f;
    int fd;   /* COPY: the target, opened when writing begins */
    int error;
    int mode; /* REPLACE: the permission bits of the file replaced, -1 for a new one */
    int slot;
    bool made; /* the temporary exists, made here */
    pid_t pid; /* the process that made it */
};

/* The files being written, for wm_outfile_remove_all, and the held ones. */
static wm_outfile *volatile live[MAX_LIVE];
static wm_outfile *held[MAX_LIVE];
static int nheld, hold_depth;
static bool hold_failed;
static int sigbus_installed;
static char last_error[NAME_BYTES + 200];

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

static void failed(char *err, size_t err_size, const char *fmt, const char *path, int e)
{
    snprintf(last_error, sizeof last_error, fmt, path, strerror(e));
    snprintf(err, err_size, "%s", last_error);
}

/* The end of path's chain of symbolic links, when it names nothing yet (a
 * new name, or a link to one): into target. 0 or an errno. */
static int follow_links(const char *path, char *target, size_t size)
{
    snprintf(target, size, "%s", path);
    for (int hops = 0; hops < MAX_LINKS; hops++) {
        struct stat st;
        if (lstat(target, &st) != 0) return errno == ENOENT ? 0 : errno;
        if (!S_ISLNK(st.st_mode)) return 0;
        char link[NAME_BYTES];
        const ssize_t n = readlink(target, link, sizeof link - 1);
        if (n < 0) return errno;
        if ((size_t)n >= sizeof link - 1) return ENAMETOOLONG;
        link[n] = '\0';
        const char *slash = strrchr(target, '/');
        if (link[0] == '/' || !slash) {
            snprintf(target, size, "%s", link);
        } else {
            /* relative to the link's folder */
            const size_t dir = (size_t)(slash - target) + 1;
            if (dir + (size_t)n + 1 > size) return ENAMETOOLONG;
            memmove(target + dir, link, (size_t)n + 1);
        }
    }
    return ELOOP;
}

/* What path is: its kind (how), and for REPLACE the name to replace and
 * the permission bits to keep (mode, or -1 for a new file). 0 or an
 * errno. */
static int classify(const char *path, how_t *how, char *target, size_t size, int *mode)
{
    struct stat st, lst;
    *mode = -1;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return EISDIR;
        if (!S_ISREG(st.st_mode)) {
            /* a device, FIFO or socket, also behind a link or a /proc
             * magic link (/dev/stdout): opened by the name given */
            *how = DIRECT;
            snprintf(target, size, "%s", path);
            return 0;
        }
        *how = REPLACE;
        *mode = (int)(st.st_mode & 07777);
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            char real[PATH_MAX];
            if (!realpath(path, real)) return errno;
            snprintf(target, size, "%s", real);
        } else {
            snprintf(target, size, "%s", path);
        }
        return 0;
    }
    if (errno != ENOENT) return errno;
    /* a new name, or a link to one */
    *how = REPLACE;
    return follow_links(path, target, size);
}

/* The folder of a new name exists and is a folder (0) or an errno. */
static int folder_of(const char *target)
{
    const char *slash = strrchr(target, '/');
    if (!slash) return 0;
    char dir[NAME_BYTES];
    snprintf(dir, sizeof dir, "%.*s", slash == target ? 1 : (int)(slash - target), target);
    struct stat st;
    if (stat(dir, &st) != 0) return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

bool wm_outfile_check(const char *path, char *err, size_t err_size)
{
    char target[NAME_BYTES];
    how_t how;
    int mode;
    int e = classify(path, &how, target, sizeof target, &mode);
    if (!e && how == REPLACE) e = folder_of(target);
    if (e) failed(err, err_size, "cannot write %s: %s", path, e);
    return e == 0;
}

static void remember(wm_outfile *o)
{
    o->slot = -1;
    for (int k = 0; k < MAX_LIVE; k++) {
        if (!live[k]) {
            live[k] = o;
            o->slot = k;
            break;
        }
    }
}

wm_outfile *wm_outfile_begin(const char *path, bool open_it, char *err, size_t err_size)
{
    wm_outfile *o = calloc(1, sizeof *o);
    if (!o) {
        failed(err, err_size, "cannot write %s: %s", path, ENOMEM);
        return NULL;
    }
    o->fd = -1;
    o->pid = getpid();
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path) {
        failed(err, err_size, "cannot write %.200s...: %s", path, ENAMETOOLONG);
        free(o);
        return NULL;
    }
    int e = classify(path, &o->how, o->target, sizeof o->target, &o->mode);
    if (e) {
        failed(err, err_size, "cannot write %s: %s", path, e);
        free(o);
        return NULL;
    }
    int fd = -1;
    if (o->how == DIRECT) {
        /* Opened now, so that a FIFO without a reader or a device that
         * refuses is found before anything runs; an open that blocks is
         * interrupted by a signal (waves/interrupt.h). */
        fd = open(path, O_WRONLY | O_NOCTTY);
        if (fd < 0) {
            failed(err, err_size, "cannot write %s: %s", path, errno);
            free(o);
            return NULL;
        }
        if (!open_it) {
            /* the library seeks: it writes a temporary copied in at the end */
            o->how = COPY;
            o->fd = fd;
            const char *tmp = getenv("TMPDIR");
            snprintf(o->temp, sizeof o->temp, "%s/wavemesh-%ld-XXXXXX", tmp && *tmp ? tmp : "/tmp", (long)o->pid);
            const int t = mkstemp(o->temp);
            if (t < 0) {
                e = errno;
                close(fd);
                snprintf(last_error, sizeof last_error, "cannot write %s: cannot make a temporary in %s: %s", path,
                         tmp && *tmp ? tmp : "/tmp", strerror(e));
                snprintf(err, err_size, "%s", last_error);
                free(o);
                return NULL;
            }
            close(t);
            o->made = true;
            fd = -1;
        } else {
            snprintf(o->temp, sizeof o->temp, "%s", path);
        }
    } else {
        if (snprintf(o->temp, sizeof o->temp, "%s.%ld.part", o->target, (long)o->pid) >= (int)sizeof o->temp) {
            failed(err, err_size, "cannot write %.200s...: %s", path, ENAMETOOLONG);
            free(o);
            return NULL;
        }
        /* Made now, even when a library writes it: the folder is checked
         * before anything runs. Never an existing name. */
        fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, 0666);
        if (fd < 0) {
            failed(err, err_size, "cannot write %s: %s", path, errno);
            free(o);
            return NULL;
        }
        o->made = true;
        /* an existing file keeps its permission bits */
        if (o->mode >= 0) (void)!fchmod(fd, (mode_t)o->mode);
    }
    snprintf(o->hier, sizeof o->hier, "%s.hier", o->temp);
    if (open_it) {
        o->f = fdopen(fd, "w");
        if (!o->f) {
            e = errno;
            close(fd);
            if (o->made) unlink(o->temp);
            failed(err, err_size, "cannot write %s: %s", path, e);
            free(o);
            return NULL;
        }
    } else {
        if (fd >= 0) close(fd);
        install_sigbus();
    }
    remember(o);
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

/* Remove what this module made for o: its temporary and TEMP.hier. */
static void unmake(wm_outfile *o)
{
    if (!o->made) return;
    unlink(o->temp);
    unlink(o->hier);
    o->made = false;
}

/* COPY: the temporary's bytes into the target, opened at the start. */
static int copy_in(wm_outfile *o)
{
    const int in = open(o->temp, O_RDONLY);
    if (in < 0) return errno;
    char buf[1 << 16];
    int e = 0;
    for (;;) {
        const ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            e = errno;
            break;
        }
        if (n == 0) break;
        for (ssize_t done = 0; done < n;) {
            const ssize_t w = write(o->fd, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) {
                e = errno;
                break;
            }
            done += w;
        }
        if (e) break;
    }
    close(in);
    return e;
}

/* Rename a finished temporary over its target. */
static bool publish(wm_outfile *o, char *err, size_t err_size)
{
    /* again: a library may have made the file anew (the FST writer does) */
    if (o->how == REPLACE && o->mode >= 0) (void)!chmod(o->temp, (mode_t)o->mode);
    if (o->how == REPLACE && rename(o->temp, o->target) != 0) {
        failed(err, err_size, "writing %s failed: %s", o->path, errno);
        unmake(o);
        return false;
    }
    o->made = false;
    unlink(o->hier); /* the FST writer's, when it left one */
    return true;
}

bool wm_outfile_commit(wm_outfile *o, char *err, size_t err_size)
{
    if (o->f) {
        errno = 0;
        if (fflush(o->f) != 0 || ferror(o->f)) wm_outfile_fail(o, errno);
        if (fclose(o->f) != 0) wm_outfile_fail(o, errno);
        o->f = NULL;
    }
    if (o->how == COPY) {
        if (!o->error) {
            const int e = copy_in(o);
            if (e) wm_outfile_fail(o, e);
        }
        if (close(o->fd) != 0) wm_outfile_fail(o, errno);
        o->fd = -1;
    }
    if (o->error) {
        failed(err, err_size, "writing %s failed: %s", o->path, o->error);
        if (hold_depth) hold_failed = true;
        wm_outfile_discard(o);
        return false;
    }
    if (o->how == COPY) {
        unmake(o);
        forget(o);
        return true;
    }
    if (hold_depth && o->how == REPLACE && nheld < MAX_LIVE) {
        held[nheld++] = o;
        return true;
    }
    const bool ok = publish(o, err, err_size);
    forget(o);
    return ok;
}

void wm_outfile_discard(wm_outfile *o)
{
    if (!o) return;
    if (o->f) fclose(o->f);
    if (o->fd >= 0) close(o->fd);
    unmake(o);
    forget(o);
}

void wm_outfile_hold(void) { hold_depth++; }

bool wm_outfile_release(bool keep, char *err, size_t err_size)
{
    if (!keep) hold_failed = true;
    if (hold_depth > 0 && --hold_depth > 0) return keep;
    bool ok = !hold_failed;
    if (!ok) snprintf(err, err_size, "%s", last_error[0] ? last_error : "an output was not written");
    for (int k = 0; k < nheld; k++) {
        if (ok) {
            ok = publish(held[k], err, err_size);
        } else {
            unmake(held[k]);
        }
        forget(held[k]);
    }
    nheld = 0;
    hold_failed = false;
    return ok;
}

const char *wm_outfile_current(const char *path)
{
    for (int k = 0; k < MAX_LIVE; k++) {
        const wm_outfile *o = live[k];
        if (o && o->made && !strcmp(o->path, path)) return o->temp;
    }
    return path;
}

const char *wm_outfile_last_error(void) { return last_error; }

void wm_outfile_remove_all(void)
{
    const pid_t me = getpid();
    for (int k = 0; k < MAX_LIVE; k++) {
        const wm_outfile *o = live[k];
        if (!o || !o->made || o->pid != me) continue;
        unlink(o->temp);
        unlink(o->hier);
    }
}
