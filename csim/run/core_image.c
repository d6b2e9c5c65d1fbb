/* core_image.c: firmware files, PE blocks and fault records (see
 * core_image.h). */
#include "run/core_image.h"

#include "core/datadir.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Found beside the binary, or as $WAVEMESH_DATA or $WM_FIRMWARE_DIR say
 * (core/datadir.h). */
const char *wm_firmware_dir(void) { return wm_data_firmware_dir(); }

bool wm_firmware_load(const char *kernel, wm_firmware *out, char *err, size_t errn)
{
    memset(out, 0, sizeof *out);
    out->kernel = kernel;
    snprintf(out->path, sizeof out->path, "%s/%s.bin", wm_firmware_dir(), kernel);
    FILE *fp = fopen(out->path, "rb");
    if (!fp) {
        snprintf(err, errn, "cannot read the firmware of kernel %s, %s: %s (`make firmware` builds it)", kernel,
                 out->path, strerror(errno));
        return false;
    }
    uint8_t *buf = malloc(WM_PE_CODE_MAX + 1);
    size_t n = buf ? fread(buf, 1, WM_PE_CODE_MAX + 1, fp) : 0;
    const bool read_err = ferror(fp);
    fclose(fp);
    if (!buf || read_err) {
        free(buf);
        snprintf(err, errn, "cannot read the firmware %s", out->path);
        return false;
    }
    if (n > WM_PE_CODE_MAX) {
        free(buf);
        snprintf(err, errn,
                 "the firmware %s is too big for the PE's memory: more than %d bytes, and code and data must end at "
                 "0x%x to leave %d bytes of stack below the PE block at 0x%x",
                 out->path, WM_PE_CODE_MAX, WM_PE_CODE_MAX, WM_PE_STACK_MIN, WM_PE_BLOCK_ADDR);
        return false;
    }
    if (n == 0) {
        free(buf);
        snprintf(err, errn, "the firmware %s is empty", out->path);
        return false;
    }
    out->bytes = buf;
    out->n = n;
    return true;
}

void wm_firmware_free(wm_firmware *fw)
{
    free(fw->bytes);
    fw->bytes = NULL;
    fw->n = 0;
}

bool wm_pe_block_build(wm_pe_block *b, const wm_instance *in, char *err, size_t errn)
{
    memset(b, 0, sizeof *b);
    unsigned nexports = 0;
    for (const char *const *e = in->kernel->exports; e && *e; e++) nexports++;
    if (in->nparams > WM_PE_PARAMS_MAX || nexports > WM_PE_EXPORTS_MAX) {
        snprintf(err, errn, "kernel %s has %zu parameters and %u results; a PE block holds %d and %d",
                 in->kernel->name, in->nparams, nexports, WM_PE_PARAMS_MAX, WM_PE_EXPORTS_MAX);
        return false;
    }
    b->magic = WM_PE_BLOCK_MAGIC;
    b->nparams = (uint32_t)in->nparams;
    b->nexports = nexports;
    for (size_t i = 0; i < in->nparams; i++) b->params[i] = in->params[i].value;
    return true;
}

/* A NUL-terminated string of at most n-1 bytes at addr in the PE's memory. */
static void read_string(const wm_fabric_ops *ops, const wm_fabric *f, unsigned x, unsigned y, uint32_t addr,
                        char *out, size_t n)
{
    size_t k = 0;
    while (k + 1 < n && addr + k < WM_TILE_MEM_BYTES) {
        char c;
        ops->core_read(f, x, y, (uint32_t)(addr + k), &c, 1);
        if (!c) break;
        out[k++] = c;
    }
    out[k] = '\0';
}

void wm_pe_fault_text(const wm_fabric_ops *ops, const wm_fabric *f, unsigned x, unsigned y, const wm_pe_block *b,
                      char *out, size_t n)
{
    char fmt[200];
    if (!b->fault_fmt || b->fault_fmt >= WM_TILE_MEM_BYTES) {
        snprintf(out, n, "the firmware stopped with a fault record that names no message (format at 0x%" PRIx32 ")",
                 b->fault_fmt);
        return;
    }
    read_string(ops, f, x, y, b->fault_fmt, fmt, sizeof fmt);
    size_t k = 0;
    unsigned arg = 0;
    out[0] = '\0';
    for (const char *p = fmt; *p && k + 1 < n; p++) {
        if (*p != '%' || !p[1]) {
            out[k++] = *p;
            continue;
        }
        p++;
        const uint32_t v = arg < b->fault_nargs && arg < WM_PE_FAULT_ARGS ? b->fault_arg[arg] : 0;
        char piece[200];
        switch (*p) {
        case 'u': snprintf(piece, sizeof piece, "%" PRIu32, v); arg++; break;
        case 'd': snprintf(piece, sizeof piece, "%" PRId32, (int32_t)v); arg++; break;
        case 'x': snprintf(piece, sizeof piece, "%" PRIx32, v); arg++; break;
        case 's': read_string(ops, f, x, y, v, piece, sizeof piece); arg++; break;
        case '%': snprintf(piece, sizeof piece, "%%"); break;
        default: snprintf(piece, sizeof piece, "%%%c", *p); break;
        }
        for (const char *q = piece; *q && k + 1 < n; q++) out[k++] = *q;
    }
    out[k] = '\0';
}

const char *wm_core_fault_name(wm_core_fault cause)
{
    switch (cause) {
    case WM_CORE_OK: return "no fault";
    case WM_CORE_FAULT_ILLEGAL: return "illegal instruction";
    case WM_CORE_FAULT_JUMP_ALIGN: return "jump to an address not a multiple of 4";
    case WM_CORE_FAULT_FETCH: return "instruction fetch outside the memory";
    case WM_CORE_FAULT_ALIGN: return "misaligned load or store";
    case WM_CORE_FAULT_ACCESS: return "load or store outside the memory";
    case WM_CORE_FAULT_UNMAPPED: return "access to an unmapped PE register";
    }
    return "unknown fault";
}
