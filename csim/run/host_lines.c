/* host_lines.c: see host_lines.h. */
#include "run/host_lines.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

static bool place(const void *addr, char *out, size_t size)
{
    Dl_info info;
    if (!addr || !dladdr(addr, &info) || !info.dli_fbase) return false;
    char exe[1024];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || strchr(exe, '\'')) return false;
    exe[n] = '\0';
    /* a position-independent program is placed anywhere: addr2line wants
     * the offset in its file; a fixed one, the address itself */
    const Elf64_Ehdr *elf = info.dli_fbase;
    const uintptr_t at = (uintptr_t)addr - (elf->e_type == ET_DYN ? (uintptr_t)info.dli_fbase : 0);
    /* a return address is the instruction after the call: the call is the byte before */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "addr2line -f -i -e '%s' 0x%" PRIxPTR " 2>/dev/null", exe, at - 1);
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    char func[256], where[512];
    const bool got = line_of(p, func, sizeof func) && line_of(p, where, sizeof where);
    while (fgetc(p) != EOF) continue;
    const int status = pclose(p);
    /* a child reaped by a library's own SIGCHLD handler (an MPI job's)
     * leaves no status: its whole answer, read, is the answer */
    const bool ended = status == 0 || (status == -1 && errno == ECHILD);
    if (!got || !ended || !strcmp(func, "??") || !strncmp(where, "??", 2)) return false;
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
