/* lines.c: the one reader of text inputs (lines.h). */
#include "core/lines.h"

#include "core/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool wm_lines_open(wm_lines *r, const char *path, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "rb");
    struct stat st;
    if (r->f && fstat(fileno(r->f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(r->f);
        r->f = NULL;
        errno = EISDIR;
    }
    if (!r->f) {
        snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    return true;
}

int wm_lines_next(wm_lines *r, char **line, size_t *len, char *err, size_t err_size)
{
    errno = 0;
    const ssize_t n = getline(&r->buf, &r->cap, r->f);
    if (n < 0) {
        if (ferror(r->f) || errno == ENOMEM) {
            snprintf(err, err_size, "%s: cannot read: %s", r->path, strerror(errno ? errno : EIO));
            return -1;
        }
        return 0;
    }
    r->line++;
    size_t k = (size_t)n;
    r->newline = k && r->buf[k - 1] == '\n';
    if (r->newline) r->buf[--k] = '\0';
    const char *nul = memchr(r->buf, '\0', k);
    if (nul) {
        snprintf(err, err_size, "%s:%u:%zu: a NUL byte: not a text file", r->path, r->line,
                 (size_t)(nul - r->buf) + 1);
        return -1;
    }
    *line = r->buf;
    *len = k;
    return 1;
}

void wm_lines_close(wm_lines *r)
{
    if (r->f) fclose(r->f);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

char *wm_text_load(const char *path, size_t *size, char *err, size_t err_size)
{
    wm_lines r;
    if (!wm_lines_open(&r, path, err, err_size)) return NULL;
    size_t cap = 1 << 12, n = 0;
    char *text = wm_xmalloc(cap);
    char *line;
    size_t len;
    int got;
    while ((got = wm_lines_next(&r, &line, &len, err, err_size)) > 0) {
        if (cap - n < len + 2) {
            while (cap - n < len + 2) cap *= 2;
            text = wm_xrealloc(text, cap);
        }
        memcpy(text + n, line, len);
        n += len;
        text[n++] = '\n';
    }
    wm_lines_close(&r);
    if (got < 0) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    if (size) *size = n;
    return text;
}
