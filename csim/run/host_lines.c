/* host_lines.c: see host_lines.h. */
#include "run/host_lines.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

/* One line of p without its newline; false at its end. A signal the run
 * takes (its interval timer, a child's end) may interrupt the read: it
 * is read again. */
static bool line_of(FILE *p, char *out, size_t size)
{
    while (!fgets(out, (int)size, p)) {
        if (!ferror(p) || errno != EINTR) return false;
        clearerr(p);
    }
    out[strcspn(out, "\n")] = '\0';
    return true;
}

static bool place(const void *addr, char *out, size_t size);

/* A report of a large run names the same few call sites for many PEs:
 * each is placed once, not an addr2line a PE. */
enum { CACHED = 64 };
static struct {
    const void *addr;
    bool ok;
    char text[800];
} cache[CACHED];

bool wm_host_line_of(const void *addr, char *out, size_t size)
{
    if (!addr) return false;
    const size_t k = ((uintptr_t)addr >> 2) % CACHED;
    if (cache[k].addr != addr) {
        cache[k].addr = addr;
        cache[k].ok = place(addr, cache[k].text, sizeof cache[k].text);
    }
    if (cache[k].ok) snprintf(out, size, "%s", cache[k].text);
    return cache[k].ok;
}

/* One addr2line for the life of the process, asked an address at a time
 * on its standard input (reading the program's debug information costs
 * about a second: a process a call site made a report with many senders
 * slow). -a echoes each address before its answer, so the end of an
 * answer is the echo of a sentinel address asked after it. */
static struct {
    pid_t pid;
    FILE *to, *from;
    bool failed;
} a2l;

static bool a2l_start(const char *exe)
{
    if (a2l.pid) return true;
    if (a2l.failed) return false;
    a2l.failed = true; /* until it is running */
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC)) return false;
    if (pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *const argv[] = {"addr2line", "-f", "-i", "-a", "-e", (char *)exe, NULL};
    extern char **environ;
    pid_t pid;
    const int rc = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        return false;
    }
    a2l.to = fdopen(in[1], "w");
    a2l.from = fdopen(out[0], "r");
    if (!a2l.to || !a2l.from) return false;
    a2l.pid = pid;
    a2l.failed = false;
    return true;
}

/* src into dst of size n, cut to fit. */
static void copy_text(char *dst, size_t n, const char *src)
{
    size_t k = strlen(src);
    if (k >= n) k = n - 1;
    memcpy(dst, src, k);
    dst[k] = '\0';
}

/* Its first frame for the file offset at: the function into func, the
 * file:line into where. */
static bool a2l_ask(uintptr_t at, char *func, size_t fsize, char *where, size_t wsize)
{
    /* one that has ended would take the write as SIGPIPE */
    if (waitpid(a2l.pid, NULL, WNOHANG) != 0) {
        a2l.failed = true;
        return false;
    }
    if (fprintf(a2l.to, "0x%" PRIxPTR "\n0\n", at) < 0 || fflush(a2l.to) != 0) {
        a2l.failed = true;
        return false;
    }
    char line[1024], sentinel[64];
    snprintf(sentinel, sizeof sentinel, "0x%0*x", (int)(2 * sizeof(void *)), 0);
    bool got = false, ok = line_of(a2l.from, line, sizeof line); /* the address's echo */
    for (unsigned k = 0; ok; k++) {
        if (!line_of(a2l.from, line, sizeof line)) {
            ok = false;
        } else if (!strcmp(line, sentinel)) {
            /* the sentinel's own answer: a function and a place */
            ok = line_of(a2l.from, line, sizeof line) && line_of(a2l.from, line, sizeof line);
            break;
        } else if (k == 0) {
            copy_text(func, fsize, line);
        } else if (k == 1) {
            copy_text(where, wsize, line);
            got = true;
        }
    }
    if (!ok) a2l.failed = true; /* out of step: asked no more */
    return ok && got;
}

static bool place(const void *addr, char *out, size_t size)
{
    Dl_info info;
    if (!addr || !dladdr(addr, &info) || !info.dli_fbase) return false;
    char exe[1024];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = '\0';
    /* a position-independent program is placed anywhere: addr2line wants
     * the offset in its file; a fixed one, the address itself */
    const Elf64_Ehdr *elf = info.dli_fbase;
    const uintptr_t at = (uintptr_t)addr - (elf->e_type == ET_DYN ? (uintptr_t)info.dli_fbase : 0);
    /* a return address is the instruction after the call: the call is the byte before */
    char func[256] = "", where[512] = "";
    if (!a2l_start(exe) || !a2l_ask(at - 1, func, sizeof func, where, sizeof where)) return false;
    if (!strcmp(func, "??") || !strncmp(where, "??", 2)) return false;
    where[strcspn(where, " ")] = '\0'; /* " (discriminator N)" */
    /* the file as the build named it: relative to the checkout the
     * program was built in (the folder above its BUILD_DIR), else to the
     * folder it runs in */
    const char *file = where;
    char root[1024] = "";
    const char *b = NULL;
    for (const char *c = strstr(exe, "/" BUILD_DIR "/"); c; c = strstr(c + 1, "/" BUILD_DIR "/")) b = c;
    if (b) snprintf(root, sizeof root, "%.*s", (int)(b - exe), exe);
    else if (!getcwd(root, sizeof root - 1)) root[0] = '\0';
    const size_t k = strlen(root);
    if (k && !strncmp(where, root, k) && where[k] == '/') file = where + k + 1;
    snprintf(out, size, "%s (%s)", file, func);
    return true;
}
