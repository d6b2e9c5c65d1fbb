/* pack.h: what a rank sends another, packed into bytes and read back
 * (mpi/partition.h's gathers carry bytes only). A reader past the end
 * reads zeros, and a count is bounded by the bytes left, so a short pack
 * reads as an empty one instead of out of bounds. */
#ifndef WM_MPI_PACK_H
#define WM_MPI_PACK_H

#include <stddef.h>
#include <stdint.h>

/* Bytes written so far; zeroed to start, bytes freed by the caller. */
typedef struct {
    char *bytes;
    size_t len, cap;
} wm_pack;

void wm_pack_put(wm_pack *k, const void *v, size_t n);
void wm_pack_u64(wm_pack *k, uint64_t v);
/* A length, then the text's bytes without its NUL; NULL as "". */
void wm_pack_text(wm_pack *k, const char *t);

/* Bytes being read, from at to end. */
typedef struct {
    const char *at, *end;
} wm_unpack;

/* n bytes into v; zeros past the end. */
void wm_unpack_get(wm_unpack *u, void *v, size_t n);
uint64_t wm_unpack_u64(wm_unpack *u);
/* A count of items of size bytes each, bounded by the bytes left. */
size_t wm_unpack_count(wm_unpack *u, size_t size);
/* The next text, its length in *n, not NUL-terminated, inside the bytes. */
const char *wm_unpack_text(wm_unpack *u, size_t *n);

#endif
