/* fw_lines.c: PCs' source lines, from addr2line (see fw_lines.h). */
#include "waves/fw_lines.h"
#include "waves/fw_syms.h"
#include "waves/waves_fw.h"

#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Addresses on one command line: a code image of 16 KiB is one run. */
enum { PCS_PER_RUN = 4096 };

const char *wm_fw_addr2line(void)
{
    const char *env = getenv("WM_ADDR2LINE");
    return env && *env ? env : "riscv64-unknown-elf-addr2line";
}

/* One frame of addr2line's answer as "file:line" in place; false for none:
 * "??:0" or "??:?" when the ELF has no line for the PC. */
static bool clean_line(char *text)
{
    text[strcspn(text, "\r\n")] = '\0';
    char *d = strstr(text, " (discriminator"); /* " (discriminator N)" dropped */
    if (d) *d = '\0';
    if (!text[0] || !strncmp(text, "??", 2) || strstr(text, ":?")) return false;
    const size_t n = strlen(text);
    if (n >= 2 && !strcmp(text + n - 2, ":0")) return false;
    /* the build maps the checkout to "." (mk/firmware.mk) */
    if (!strncmp(text, "./", 2)) memmove(text, text + 2, n - 1);
    return true;
}

/* Runs argv (addr2line -a -i -e ELF, then the n addresses addrs) and reads
 * its answer: lines[i] the outermost frame of addrs[i]'s chain, NULL when
 * it has none. */
static bool read_answers(char **argv, char (*addrs)[16], size_t n, char **lines, char *err, size_t err_size)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, err_size, "%s: a pipe: %s", argv[0], strerror(errno));
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        snprintf(err, err_size, "%s could not be run: %s (binutils-riscv64-unknown-elf; $WM_ADDR2LINE names another)",
                 argv[0], strerror(rc));
        return false;
    }
    FILE *in = fdopen(fds[0], "r");
    long at = -1; /* the address whose answer is being read */
    char text[4200];
    if (in) {
        while (fgets(text, sizeof text, in)) {
            /* -a: an answer begins with its address, alone on its line */
            if ((size_t)(at + 1) < n && !strncmp(text, addrs[at + 1], 10) && (text[10] == '\n' || !text[10])) {
                at++;
                continue;
            }
            if (at < 0) continue;
            /* every frame replaces the one before: the last is the outermost */
            free(lines[at]);
            lines[at] = clean_line(text) ? wm_xstrdup(text) : NULL;
        }
        fclose(in);
    } else {
        close(fds[0]);
    }
    int status;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR) continue;
    /* a child reaped by a library's own SIGCHLD handler (an MPI job's)
     * leaves no status: its answers, all read, are checked below */
    const bool reaped_elsewhere = got < 0 && errno == ECHILD;
    if (!reaped_elsewhere && (got != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        snprintf(err, err_size, "%s -e %s failed", argv[0], argv[4]);
        return false;
    }
    if ((size_t)(at + 1) != n) {
        snprintf(err, err_size, "%s -e %s answered %ld of %zu addresses", argv[0], argv[4], at + 1, n);
        return false;
    }
    return true;
}

/* One run of addr2line on elf for pcs[0..n). */
static bool run_addr2line(const char *elf, const uint32_t *pcs, size_t n, char **lines, char *err, size_t err_size)
{
    enum { FIXED = 5 };
    char **argv = wm_xcalloc(n + FIXED + 1, sizeof *argv);
    char (*addrs)[16] = wm_xmalloc((n ? n : 1) * sizeof *addrs);
    /* -a: each answer begins with its address, to cut them apart;
     * -i: the inlining chain, outermost last */
    argv[0] = (char *)wm_fw_addr2line();
    argv[1] = "-a";
    argv[2] = "-i";
    argv[3] = "-e";
    argv[4] = (char *)elf;
    for (size_t i = 0; i < n; i++) {
        snprintf(addrs[i], sizeof addrs[i], "0x%08x", (unsigned)pcs[i]);
        argv[FIXED + i] = addrs[i];
    }
    const bool ok = read_answers(argv, addrs, n, lines, err, err_size);
    free(addrs);
    free(argv);
    return ok;
}

bool wm_fw_source_lines(const char *kernel, const uint32_t *pcs, size_t n, char **lines, char *err, size_t err_size)
{
    for (size_t i = 0; i < n; i++) lines[i] = NULL;
    char elf[4096];
    snprintf(elf, sizeof elf, "%s/%s.elf", wm_fw_dir(), kernel);
    if (access(elf, R_OK) != 0) {
        snprintf(err, err_size, "%s: %s (make firmware builds it)", elf, strerror(errno));
        return false;
    }
    /* another build's ELF would give another build's lines */
    if (!wm_fw_elf_matches_image(kernel, err, err_size)) return false;
    for (size_t i = 0; i < n; i += PCS_PER_RUN) {
        const size_t k = n - i < PCS_PER_RUN ? n - i : PCS_PER_RUN;
        if (!run_addr2line(elf, pcs + i, k, lines + i, err, err_size)) {
            for (size_t j = 0; j < n; j++) {
                free(lines[j]);
                lines[j] = NULL;
            }
            return false;
        }
    }
    return true;
}

bool wm_fw_source_line(const char *kernel, uint32_t pc, char *buf, size_t size)
{
    char *line = NULL, why[1024];
    if (!wm_fw_source_lines(kernel, &pc, 1, &line, why, sizeof why) || !line) return false;
    snprintf(buf, size, "%s", line);
    free(line);
    return true;
}
