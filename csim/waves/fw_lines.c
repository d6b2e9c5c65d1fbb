/* fw_lines.c: a PC's source line, from addr2line (see fw_lines.h). */
#include "waves/fw_lines.h"
#include "waves/fw_syms.h"
#include "waves/waves_fw.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *wm_fw_addr2line(void)
{
    const char *env = getenv("WM_ADDR2LINE");
    return env && *env ? env : "riscv64-unknown-elf-addr2line";
}

bool wm_fw_source_line(const char *kernel, uint32_t pc, char *buf, size_t size)
{
    char elf[4096], addr[16];
    snprintf(elf, sizeof elf, "%s/%s.elf", wm_fw_dir(), kernel);
    char why[1024];
    /* another build's ELF would give another build's lines */
    if (access(elf, R_OK) != 0 || !wm_fw_elf_matches_image(kernel, why, sizeof why)) return false;
    snprintf(addr, sizeof addr, "0x%08x", (unsigned)pc);
    int fds[2];
    if (pipe(fds) != 0) return false;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    /* -i: the inlining chain, outermost last */
    char *argv[] = {(char *)wm_fw_addr2line(), "-i", "-e", elf, addr, NULL};
    pid_t pid;
    const int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return false;
    }
    FILE *in = fdopen(fds[0], "r");
    char line[4200], last[4200] = "";
    if (in) {
        while (fgets(line, sizeof line, in)) snprintf(last, sizeof last, "%s", line);
        fclose(in);
    } else {
        close(fds[0]);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
    last[strcspn(last, "\r\n")] = '\0';
    /* "??:0" or "??:?" when the ELF has no line for pc; " (discriminator N)" dropped */
    char *d = strstr(last, " (discriminator");
    if (d) *d = '\0';
    if (!last[0] || !strncmp(last, "??", 2) || strstr(last, ":?")) return false;
    const size_t n = strlen(last);
    if (n >= 2 && !strcmp(last + n - 2, ":0")) return false;
    /* the build maps the checkout to "." (mk/firmware.mk) */
    snprintf(buf, size, "%s", strncmp(last, "./", 2) ? last : last + 2);
    return true;
}
