/* mem.c: the four functions GCC may call even in freestanding code (struct
 * copies, large initialisers). Plain loops, by words where the ends are
 * aligned: struct copies and clears (`= {0}`) of 100 bytes would
 * otherwise take 500 cycles. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* Struct copies and clears (`= {0}`) come here: a word at a time where
 * both ends are aligned, or a 100-byte struct would take 500 cycles. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0)
        for (; n >= 4; n -= 4, d += 4, s += 4) *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
    while (n--) *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        while (n--) d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    if (((uintptr_t)d & 3u) == 0) {
        const uint32_t w = (uint8_t)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4) *(uint32_t *)(void *)d = w;
    }
    while (n--) *d++ = (uint8_t)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y) return *x < *y ? -1 : 1;
    return 0;
}
