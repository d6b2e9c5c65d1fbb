/* waves_fw.c: objdump's disassembly of the cores' images, as GTKWave
 * translate filters (see waves_fw.h). */
#include "waves/waves_fw.h"

#include "core/datadir.h"

#include "waves/outfile.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* A core's RAM (csim/core/core_port.h, WM_TILE_MEM_BYTES): an image's
 * .text must lie inside it to be compared with a core's memory. */
enum { CORE_MEM_BYTES = 65536, ELF_MAX_BYTES = 4 << 20, KERNEL_MAX = 64 };

/* The loader's folder, found beside the binary (core/datadir.h). */
const char *wm_fw_dir(void) { return wm_data_firmware_dir(); }

const char *wm_fw_objdump(void)
{
    const char *env = getenv("WM_OBJDUMP");
    return env && *env ? env : "riscv64-unknown-elf-objdump";
}

typedef struct {
    uint32_t pc, word;
    char *text;
    size_t func; /* index into the image's funcs */
} fw_insn;

typedef struct {
    char kernel[KERNEL_MAX];
    fw_insn *insn;
    size_t n;
    char **funcs;
    uint32_t *func_addr;
    size_t nfuncs;
} fw_image;

/* An image of the folder, its .text only, for telling which one a core holds. */
typedef struct {
    char kernel[KERNEL_MAX];
    uint32_t addr;
    uint8_t *text;
    size_t size;
} fw_candidate;

struct wm_fw_set {
    fw_image *img;
    size_t nimg;
    fw_candidate *cand;
    size_t ncand;
    bool cand_loaded;
};

wm_fw_set *wm_fw_set_new(void) { return calloc(1, sizeof(wm_fw_set)); }

static void free_image(fw_image *im)
{
    for (size_t i = 0; i < im->n; i++) free(im->insn[i].text);
    for (size_t i = 0; i < im->nfuncs; i++) free(im->funcs[i]);
    free(im->insn);
    free(im->funcs);
    free(im->func_addr);
}

void wm_fw_set_free(wm_fw_set *s)
{
    if (!s) return;
    for (size_t k = 0; k < s->nimg; k++) free_image(&s->img[k]);
    for (size_t k = 0; k < s->ncand; k++) free(s->cand[k].text);
    free(s->img);
    free(s->cand);
    free(s);
}

size_t wm_fw_set_count(const wm_fw_set *s) { return s->nimg; }
const char *wm_fw_set_kernel(const wm_fw_set *s, size_t k) { return s->img[k].kernel; }

/* s in single quotes for sh, its own quotes escaped. */
static void shell_quote(const char *s, char *out, size_t n)
{
    size_t k = 0;
    if (k + 1 < n) out[k++] = '\'';
    for (; *s && k + 5 < n; s++) {
        if (*s == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *s;
        }
    }
    if (k + 1 < n) out[k++] = '\'';
    out[k] = '\0';
}

/* objdump's "mnemonic\toperands # comment" as one line: tabs and runs of
 * blanks become one space; the comment (an address objdump computed from
 * the PC, such as gp-relative data) goes. */
static char *normalize(const char *text)
{
    char *out = malloc(strlen(text) + 1);
    if (!out) return NULL;
    size_t k = 0;
    for (const char *p = text; *p && *p != '\n'; p++) {
        if (*p == '#' && (p == text || isspace((unsigned char)p[-1]))) break;
        if (isspace((unsigned char)*p)) {
            if (k && out[k - 1] != ' ') out[k++] = ' ';
        } else {
            out[k++] = *p;
        }
    }
    while (k && out[k - 1] == ' ') k--;
    out[k] = '\0';
    return out;
}

static bool push_insn(fw_image *im, uint32_t pc, uint32_t word, const char *text)
{
    if (!im->nfuncs) return true; /* code before any label: none in a linked image */
    fw_insn *p = realloc(im->insn, (im->n + 1) * sizeof *p);
    if (!p) return false;
    im->insn = p;
    char *t = normalize(text);
    if (!t) return false;
    p[im->n++] = (fw_insn){pc, word, t, im->nfuncs - 1};
    return true;
}

static bool push_func(fw_image *im, uint32_t addr, const char *name, size_t len)
{
    char **f = realloc(im->funcs, (im->nfuncs + 1) * sizeof *f);
    if (!f) return false;
    im->funcs = f;
    uint32_t *a = realloc(im->func_addr, (im->nfuncs + 1) * sizeof *a);
    if (!a) return false;
    im->func_addr = a;
    if (!(f[im->nfuncs] = malloc(len + 1))) return false;
    memcpy(f[im->nfuncs], name, len);
    f[im->nfuncs][len] = '\0';
    a[im->nfuncs++] = addr;
    return true;
}

/* One line of `objdump -d`: a label "00000038 <wm_rv32_main>:" or an
 * instruction "  3c:\te0052703          \tlw\tx14,-512(x10) # 5e00 <...>". */
static bool parse_line(fw_image *im, const char *line)
{
    const char *p = line;
    while (*p == ' ') p++;
    char *end;
    const unsigned long addr = strtoul(p, &end, 16);
    if (end == p) return true;
    if (end[0] == ' ' && end[1] == '<') {
        const char *name = end + 2, *close = strrchr(name, '>');
        if (!close || close[1] != ':') return true;
        return push_func(im, (uint32_t)addr, name, (size_t)(close - name));
    }
    if (*end != ':') return true;
    p = end + 1;
    while (*p == ' ' || *p == '\t') p++;
    size_t digits = 0;
    while (isxdigit((unsigned char)p[digits])) digits++;
    /* rv32im: 32-bit words only */
    if (digits != 8 || (p[8] != ' ' && p[8] != '\t')) return true;
    const uint32_t word = (uint32_t)strtoul(p, NULL, 16);
    p += 8;
    while (*p == ' ' || *p == '\t') p++;
    return push_insn(im, (uint32_t)addr, word, p);
}

static bool readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fclose(f);
    return true;
}

int wm_fw_set_add(wm_fw_set *s, const char *kernel, char *err, size_t err_size)
{
    for (size_t k = 0; k < s->nimg; k++)
        if (!strcmp(s->img[k].kernel, kernel)) return (int)k;
    char elf[4096], q_elf[8300], q_tool[8300], cmd[17000];
    snprintf(elf, sizeof elf, "%s/%s.elf", wm_fw_dir(), kernel);
    if (!readable(elf)) {
        snprintf(err, err_size, "no image %s (`make firmware` builds it)", elf);
        return -1;
    }
    shell_quote(elf, q_elf, sizeof q_elf);
    shell_quote(wm_fw_objdump(), q_tool, sizeof q_tool);
    /* no-aliases: the instruction the core decodes (binutils 2.40 shows
     * addi as "add" among its aliases); numeric: x-registers, numbered as
     * the rd trace numbers them */
    snprintf(cmd, sizeof cmd, "%s -d -M no-aliases,numeric %s 2>/dev/null", q_tool, q_elf);
    FILE *pipe = popen(cmd, "r");
    if (!pipe) {
        snprintf(err, err_size, "cannot run %s", wm_fw_objdump());
        return -1;
    }
    fw_image im;
    memset(&im, 0, sizeof im);
    snprintf(im.kernel, sizeof im.kernel, "%s", kernel);
    char line[1024];
    bool ok = true;
    while (fgets(line, sizeof line, pipe))
        if (ok && !parse_line(&im, line)) ok = false;
    const int status = pclose(pipe);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !ok || !im.n) {
        if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
            snprintf(err, err_size, "%s not found (Debian: binutils-riscv64-unknown-elf)", wm_fw_objdump());
        else if (!ok) snprintf(err, err_size, "out of memory disassembling %s", elf);
        else snprintf(err, err_size, "%s -d %s failed", wm_fw_objdump(), elf);
        free_image(&im);
        return -1;
    }
    fw_image *img = realloc(s->img, (s->nimg + 1) * sizeof *img);
    if (!img) {
        free_image(&im);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    s->img = img;
    img[s->nimg] = im;
    return (int)s->nimg++;
}

/* ------------------------------------------------------------ which image */

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

/* The .text of a little-endian ELF32 (what `make firmware` links): its
 * address, and its bytes copied into c. */
static bool elf_text(const uint8_t *b, size_t n, fw_candidate *c)
{
    if (n < 52 || memcmp(b, "\x7f" "ELF", 4) || b[4] != 1 || b[5] != 1) return false;
    const uint32_t shoff = le32(b + 0x20), shentsize = le16(b + 0x2E), shnum = le16(b + 0x30),
                   shstrndx = le16(b + 0x32);
    if (shentsize < 40 || shstrndx >= shnum || shoff > n || (uint64_t)shnum * shentsize > n - shoff) return false;
    const uint8_t *strtab_sh = b + shoff + (size_t)shstrndx * shentsize;
    const uint32_t strtab = le32(strtab_sh + 16), strtab_size = le32(strtab_sh + 20);
    if (strtab > n || strtab_size > n - strtab) return false;
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = b + shoff + (size_t)i * shentsize;
        const uint32_t name = le32(sh), addr = le32(sh + 12), off = le32(sh + 16), size = le32(sh + 20);
        if (name >= strtab_size || !memchr(b + strtab + name, '\0', strtab_size - name) ||
            strcmp((const char *)b + strtab + name, ".text"))
            continue;
        if (!size || off > n || size > n - off || addr > CORE_MEM_BYTES || size > CORE_MEM_BYTES - addr) return false;
        if (!(c->text = malloc(size))) return false;
        memcpy(c->text, b + off, size);
        c->addr = addr;
        c->size = size;
        return true;
    }
    return false;
}

static int compare_candidates(const void *x, const void *y)
{
    return strcmp(((const fw_candidate *)x)->kernel, ((const fw_candidate *)y)->kernel);
}

/* Every KERNEL.elf of the folder, in name order. */
static void load_candidates(wm_fw_set *s)
{
    s->cand_loaded = true;
    DIR *dir = opendir(wm_fw_dir());
    if (!dir) return;
    uint8_t *buf = malloc(ELF_MAX_BYTES);
    for (struct dirent *e; buf && (e = readdir(dir));) {
        const size_t len = strlen(e->d_name);
        if (len <= 4 || len - 4 >= KERNEL_MAX || strcmp(e->d_name + len - 4, ".elf")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", wm_fw_dir(), e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        const size_t n = fread(buf, 1, ELF_MAX_BYTES, f);
        fclose(f);
        fw_candidate c;
        memset(&c, 0, sizeof c);
        memcpy(c.kernel, e->d_name, len - 4);
        if (!elf_text(buf, n, &c)) continue;
        fw_candidate *p = realloc(s->cand, (s->ncand + 1) * sizeof *p);
        if (!p) {
            free(c.text);
            break;
        }
        s->cand = p;
        p[s->ncand++] = c;
    }
    free(buf);
    closedir(dir);
    if (s->ncand) qsort(s->cand, s->ncand, sizeof *s->cand, compare_candidates);
}

int wm_fw_set_identify(wm_fw_set *s, wm_fw_read_fn read, void *ctx, char *err, size_t err_size)
{
    if (!s->cand_loaded) load_candidates(s);
    size_t hi = 0; /* read only as far as the images reach */
    for (size_t k = 0; k < s->ncand; k++)
        if (s->cand[k].addr + s->cand[k].size > hi) hi = s->cand[k].addr + s->cand[k].size;
    uint8_t *mem = malloc(hi + 1);
    if (!mem) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    if (hi) read(ctx, 0, mem, hi);
    const fw_candidate *found = NULL;
    for (size_t k = 0; k < s->ncand && !found; k++)
        if (!memcmp(mem + s->cand[k].addr, s->cand[k].text, s->cand[k].size)) found = &s->cand[k];
    free(mem);
    if (!found) {
        snprintf(err, err_size, "the core's memory holds no image of %s", wm_fw_dir());
        return -1;
    }
    return wm_fw_set_add(s, found->kernel, err, err_size);
}

/* ------------------------------------------------------------ filters */

/* The target of a branch or jal, relative to its PC; false for any other
 * instruction. */
static bool pc_relative(uint32_t w, int32_t *off)
{
    uint32_t imm;
    unsigned bits;
    switch (w & 0x7fu) {
    case 0x63: /* B-type */
        imm = (w >> 31 & 1u) << 12 | (w >> 7 & 1u) << 11 | (w >> 25 & 0x3fu) << 5 | (w >> 8 & 0xfu) << 1;
        bits = 13;
        break;
    case 0x6f: /* J-type */
        imm = (w >> 31 & 1u) << 20 | (w >> 12 & 0xffu) << 12 | (w >> 20 & 1u) << 11 | (w >> 21 & 0x3ffu) << 1;
        bits = 21;
        break;
    default: return false;
    }
    const uint32_t sign = 1u << (bits - 1);
    *off = (int32_t)((imm ^ sign) - sign);
    return true;
}

/* "bgeu x5,x6,28 <_start+0x28>" as "bgeu x5,x6,.+16": the target, the last
 * operand, replaced by its distance from the instruction. */
static void relative_text(const char *text, int32_t off, char *out, size_t n)
{
    size_t len = strlen(text);
    const char *sym = strstr(text, " <");
    if (sym) len = (size_t)(sym - text);
    size_t cut = len;
    while (cut && text[cut - 1] != ',' && text[cut - 1] != ' ') cut--;
    snprintf(out, n, "%.*s.%c%ld", (int)cut, text, off < 0 ? '-' : '+', off < 0 ? -(long)off : (long)off);
}

typedef struct {
    uint32_t word;
    const char *text;
} word_text;

static int compare_word_text(const void *x, const void *y)
{
    const word_text *a = x, *b = y;
    if (a->word != b->word) return a->word < b->word ? -1 : 1;
    return strcmp(a->text, b->text);
}

bool wm_fw_write_insn_filter(const wm_fw_set *s, const char *path)
{
    size_t n = 0;
    for (size_t k = 0; k < s->nimg; k++) n += s->img[k].n;
    word_text *all = malloc((n + 1) * sizeof *all);
    if (!all) return false;
    n = 0;
    for (size_t k = 0; k < s->nimg; k++)
        for (size_t i = 0; i < s->img[k].n; i++) all[n++] = (word_text){s->img[k].insn[i].word, s->img[k].insn[i].text};
    qsort(all, n, sizeof *all, compare_word_text);
    char err[4200];
    wm_outfile *o = wm_outfile_begin(path, true, err, sizeof err);
    FILE *f = o ? wm_outfile_stream(o) : NULL;
    if (!f) {
        free(all);
        return false;
    }
    fprintf(f, "00000000 -\n");
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        bool agree = true;
        for (; j < n && all[j].word == all[i].word; j++)
            if (strcmp(all[j].text, all[i].text)) agree = false;
        int32_t off;
        char rel[256];
        if (all[i].word == 0) {
            /* the "nothing retires" line above */
        } else if (!agree && pc_relative(all[i].word, &off)) {
            relative_text(all[i].text, off, rel, sizeof rel);
            fprintf(f, "%08x %s\n", (unsigned)all[i].word, rel);
        } else {
            fprintf(f, "%08x %s\n", (unsigned)all[i].word, all[i].text);
        }
        i = j;
    }
    free(all);
    return wm_outfile_commit(o, err, sizeof err);
}

bool wm_fw_write_pc_filter(const wm_fw_set *s, size_t k, const char *path)
{
    const fw_image *im = &s->img[k];
    char err[4200];
    wm_outfile *o = wm_outfile_begin(path, true, err, sizeof err);
    FILE *f = o ? wm_outfile_stream(o) : NULL;
    if (!f) return false;
    for (size_t i = 0; i < im->n; i++) {
        const fw_insn *in = &im->insn[i];
        const uint32_t off = in->pc - im->func_addr[in->func];
        if (off) fprintf(f, "%08x %s+0x%x\n", (unsigned)in->pc, im->funcs[in->func], (unsigned)off);
        else fprintf(f, "%08x %s\n", (unsigned)in->pc, im->funcs[in->func]);
    }
    return wm_outfile_commit(o, err, sizeof err);
}
