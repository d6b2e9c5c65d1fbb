/* fw_syms.c: the symbol table of a kernel's ELF (see fw_syms.h). */
#include "waves/fw_syms.h"
#include "waves/waves_fw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ELF_MAX_BYTES = 1 << 22,
    SHT_SYMTAB = 2,
    SHF_EXECINSTR = 4,
    STT_NOTYPE = 0,
    STT_FUNC = 2,
    SHN_LORESERVE = 0xff00
};

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

/* Function symbols first at an address, then globals, then by name: the
 * one kept at an address is the first. */
typedef struct {
    uint32_t addr;
    int rank;
    const char *name;
} candidate;

static int compare_candidates(const void *x, const void *y)
{
    const candidate *a = x, *b = y;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    if (a->rank != b->rank) return a->rank - b->rank;
    return strcmp(a->name, b->name);
}

static bool parse(const uint8_t *b, size_t n, wm_fw_syms *out, char *err, size_t err_size)
{
    if (n < 52 || memcmp(b, "\x7f" "ELF", 4) || b[4] != 1 || b[5] != 1) {
        snprintf(err, err_size, "not a little-endian ELF32 file");
        return false;
    }
    const uint32_t shoff = le32(b + 0x20), shentsize = le16(b + 0x2E), shnum = le16(b + 0x30);
    if (shentsize < 40 || shoff > n || (uint64_t)shnum * shentsize > n - shoff) {
        snprintf(err, err_size, "its section headers lie outside the file");
        return false;
    }
#define SH(i) (b + shoff + (size_t)(i) * shentsize)
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = SH(i);
        if (le32(sh + 4) != SHT_SYMTAB) continue;
        const uint32_t off = le32(sh + 16), size = le32(sh + 20), link = le32(sh + 24), entsize = le32(sh + 36);
        if (link >= shnum || entsize < 16 || off > n || size > n - off) break;
        const uint8_t *strsh = SH(link);
        const uint32_t stroff = le32(strsh + 16), strsize = le32(strsh + 20);
        if (stroff > n || strsize > n - stroff || !strsize) break;
        const size_t count = size / entsize;
        candidate *c = malloc((count ? count : 1) * sizeof *c);
        char *names = malloc(strsize);
        if (!c || !names) {
            free(c);
            free(names);
            snprintf(err, err_size, "out of memory");
            return false;
        }
        memcpy(names, b + stroff, strsize);
        names[strsize - 1] = '\0';
        size_t k = 0;
        for (size_t j = 0; j < count; j++) {
            const uint8_t *st = b + off + j * entsize;
            const uint32_t name = le32(st), value = le32(st + 4), shndx = le16(st + 14);
            const unsigned info = st[12], type = info & 0xf, bind = info >> 4;
            if (!name || name >= strsize || shndx == 0 || shndx >= SHN_LORESERVE || shndx >= shnum) continue;
            if (type != STT_FUNC && !(type == STT_NOTYPE && bind != 0)) continue;
            if (!(le32(SH(shndx) + 8) & SHF_EXECINSTR)) continue;
            c[k++] = (candidate){value, type == STT_FUNC ? 0 : 1, names + name};
        }
        qsort(c, k, sizeof *c, compare_candidates);
        out->syms = malloc((k ? k : 1) * sizeof *out->syms);
        if (!out->syms) {
            free(c);
            free(names);
            snprintf(err, err_size, "out of memory");
            return false;
        }
        out->n = 0;
        for (size_t j = 0; j < k; j++)
            if (!out->n || out->syms[out->n - 1].addr != c[j].addr)
                out->syms[out->n++] = (wm_fw_sym){c[j].addr, c[j].name};
        out->names = names;
        free(c);
        return true;
    }
#undef SH
    snprintf(err, err_size, "no symbol table (was it stripped?)");
    return false;
}

bool wm_fw_syms_load(const char *path, wm_fw_syms *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: %s (make firmware writes it)", path, strerror(errno));
        return false;
    }
    uint8_t *buf = malloc(ELF_MAX_BYTES);
    if (!buf) {
        fclose(f);
        snprintf(err, err_size, "out of memory");
        return false;
    }
    const size_t n = fread(buf, 1, ELF_MAX_BYTES, f);
    fclose(f);
    char why[200];
    const bool ok = parse(buf, n, out, why, sizeof why);
    free(buf);
    if (!ok) snprintf(err, err_size, "%s: %s", path, why);
    return ok;
}

bool wm_fw_syms_load_kernel(const char *kernel, wm_fw_syms *out, char *err, size_t err_size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.elf", wm_fw_dir(), kernel);
    return wm_fw_syms_load(path, out, err, err_size);
}

void wm_fw_syms_free(wm_fw_syms *s)
{
    free(s->syms);
    free(s->names);
    memset(s, 0, sizeof *s);
}

long wm_fw_syms_find(const wm_fw_syms *s, uint32_t pc)
{
    size_t lo = 0, hi = s->n; /* the answer is lo - 1 once lo == hi */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (s->syms[mid].addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}
