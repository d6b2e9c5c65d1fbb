/* gnuplot.c: a PNG drawn by gnuplot (gnuplot.h). */
#include "waves/gnuplot.h"

#include "waves/outfile.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Copies what gnuplot printed (in said) to stderr; whether it printed
 * anything. */
static bool show_what_it_said(FILE *said)
{
    bool any = false;
    char buf[4096];
    rewind(said);
    for (size_t n; (n = fread(buf, 1, sizeof buf, said)) > 0; any = true) fwrite(buf, 1, n, stderr);
    return any;
}

bool wm_gnuplot_draw(const char *path, wm_gnuplot_script *script, const void *ctx, char *err, size_t err_size)
{
    /* a missing folder or a directory is said in our words before gnuplot
     * starts, so its PNG never goes anywhere else */
    wm_outfile *o = wm_outfile_begin(path, false, err, err_size);
    if (!o) return false;
    /* gnuplot's messages go to a file of their own, so that whether it
     * said anything is known when it fails */
    FILE *said = tmpfile();
    if (!said) {
        snprintf(err, err_size, "cannot start gnuplot: no temporary file for its messages: %s", strerror(errno));
        wm_outfile_discard(o);
        return false;
    }
    struct sigaction ignore, before;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &before);
    /* started by hand, not by popen's shell: a redirection to a descriptor
     * above 9 (as a process under mpirun holds) is a syntax error to sh */
    int status = -1, why = 0, to[2] = {-1, -1};
    pid_t pid = -1;
    if (pipe(to) == 0 && (pid = fork()) == 0) {
        if (dup2(to[0], 0) < 0 || dup2(fileno(said), 1) < 0 || dup2(fileno(said), 2) < 0) _exit(126);
        close(to[0]);
        close(to[1]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    why = errno;
    if (to[0] >= 0) close(to[0]);
    FILE *g = pid > 0 ? fdopen(to[1], "w") : NULL;
    if (g) {
        script(ctx, wm_outfile_temp(o), g);
        fclose(g);
    } else if (to[1] >= 0) {
        close(to[1]);
    }
    if (pid > 0) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        why = errno;
    }
    sigaction(SIGPIPE, &before, NULL);
    const bool exited = status != -1 && WIFEXITED(status);
    const bool spoke = !(exited && WEXITSTATUS(status) == 127) && show_what_it_said(said);
    fclose(said);
    if (exited && WEXITSTATUS(status) == 0) return wm_outfile_commit(o, err, err_size);
    wm_outfile_discard(o);
    if (status == -1) snprintf(err, err_size, "cannot start gnuplot: %s", strerror(why));
    else if (exited && WEXITSTATUS(status) == 127)
        snprintf(err, err_size, "gnuplot is not installed, or not on PATH (`make deps` installs gnuplot-nox)");
    else if (spoke) snprintf(err, err_size, "gnuplot failed drawing %s (its message is above)", path);
    else if (exited)
        snprintf(err, err_size, "gnuplot failed drawing %s: it exited with status %d and printed nothing", path,
                 WEXITSTATUS(status));
    else
        snprintf(err, err_size, "gnuplot failed drawing %s: it was killed by signal %d (%s)", path, WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    return false;
}
