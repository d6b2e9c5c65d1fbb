/* fw_syms.c: the symbol table of a kernel's ELF (see fw_syms.h). */
#include "waves/fw_syms.h"
#include "waves/waves_fw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ELF_MAX_BYTES = 1 << 22,
    PT_LOAD = 1,
    SHT_SYMTAB = 2,
    SHF_ALLOC = 2,
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
        /* where the code ends: a PC past it is no function's */
        out->code_end = 0;
        for (uint32_t j = 0; j < shnum; j++) {
            const uint8_t *sec = SH(j);
            if ((le32(sec + 8) & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR)) continue;
            const uint64_t end = (uint64_t)le32(sec + 12) + le32(sec + 20);
            if (end > out->code_end) out->code_end = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
        }
        return true;
    }
#undef SH
    snprintf(err, err_size, "no symbol table (was it stripped?)");
    return false;
}

/* The whole of a file, at most max bytes (one more: it is longer); NULL
 * with the reason in err. */
static uint8_t *slurp(const char *path, size_t max, size_t *n, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: %s (make firmware writes it)", path, strerror(errno));
        return NULL;
    }
    uint8_t *buf = malloc(max + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    *n = fread(buf, 1, max + 1, f);
    const bool bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, err_size, "%s: cannot be read", path);
        free(buf);
        return NULL;
    }
    return buf;
}

/* Whether the ELF's loadable bytes b[0..n) are the image img[0..m), as
 * `objcopy -O binary` writes them: each PT_LOAD segment's file bytes at its
 * physical address, from the lowest one, the image ending with the last.
 * If not, why into why. */
static bool loadable_bytes_are(const uint8_t *b, size_t n, const uint8_t *img, size_t m, char *why, size_t why_size)
{
    if (n < 52 || memcmp(b, "\x7f" "ELF", 4) || b[4] != 1 || b[5] != 1) {
        snprintf(why, why_size, "it is not a little-endian ELF32 file");
        return false;
    }
    const uint32_t phoff = le32(b + 0x1C), phentsize = le16(b + 0x2A), phnum = le16(b + 0x2C);
    if (phentsize < 32 || phoff > n || (uint64_t)phnum * phentsize > n - phoff) {
        snprintf(why, why_size, "its program headers lie outside the file");
        return false;
    }
    uint64_t base = UINT64_MAX, end = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = b + phoff + (size_t)i * phentsize;
        if (le32(ph) != PT_LOAD || !le32(ph + 16)) continue;
        const uint64_t at = le32(ph + 12);
        if (at < base) base = at;
        if (at + le32(ph + 16) > end) end = at + le32(ph + 16);
    }
    if (base == UINT64_MAX) {
        snprintf(why, why_size, "it loads nothing");
        return false;
    }
    if (end - base != m) {
        snprintf(why, why_size, "it loads %llu bytes, the image has %zu", (unsigned long long)(end - base), m);
        return false;
    }
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = b + phoff + (size_t)i * phentsize;
        const uint32_t off = le32(ph + 4), filesz = le32(ph + 16);
        if (le32(ph) != PT_LOAD || !filesz) continue;
        if (off > n || filesz > n - off) {
            snprintf(why, why_size, "a segment lies outside the file");
            return false;
        }
        const uint64_t at = le32(ph + 12) - base;
        for (uint32_t k = 0; k < filesz; k++)
            if (b[off + k] != img[at + k]) {
                snprintf(why, why_size, "the bytes at 0x%08llx differ", (unsigned long long)(at + k + base));
                return false;
            }
    }
    return true;
}

bool wm_fw_elf_matches_image(const char *kernel, char *err, size_t err_size)
{
    char elf[4096], bin[4096], why[200];
    snprintf(elf, sizeof elf, "%s/%s.elf", wm_fw_dir(), kernel);
    snprintf(bin, sizeof bin, "%s/%s.bin", wm_fw_dir(), kernel);
    size_t n, m;
    uint8_t *e = slurp(elf, ELF_MAX_BYTES, &n, err, err_size);
    if (!e) return false;
    uint8_t *img = slurp(bin, ELF_MAX_BYTES, &m, err, err_size);
    if (!img) {
        free(e);
        return false;
    }
    const bool ok = loadable_bytes_are(e, n, img, m, why, sizeof why);
    free(e);
    free(img);
    if (!ok)
        snprintf(err, err_size, "%s does not match the image %s (%s): they are not of one build (make firmware)",
                 elf, bin, why);
    return ok;
}

bool wm_fw_syms_load(const char *path, wm_fw_syms *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    size_t n;
    uint8_t *buf = slurp(path, ELF_MAX_BYTES, &n, err, err_size);
    if (!buf) return false;
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
    if (!wm_fw_syms_load(path, out, err, err_size)) return false;
    if (wm_fw_elf_matches_image(kernel, err, err_size)) return true;
    wm_fw_syms_free(out);
    return false;
}

void wm_fw_syms_free(wm_fw_syms *s)
{
    free(s->syms);
    free(s->names);
    memset(s, 0, sizeof *s);
}

long wm_fw_syms_find(const wm_fw_syms *s, uint32_t pc)
{
    if (pc >= s->code_end) return -1;
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
