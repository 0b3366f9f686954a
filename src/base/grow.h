/* A growable array: a pointer, its capacity and its count, grown by doubling. */
#ifndef CF_GROW_H
#define CF_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* Room for one more element of elem bytes in the array p of *cap elements, n of them used:
 * where n has reached *cap, p reallocated to twice its capacity (first when it has none)
 * and *cap updated. Returns the array to use from now on, or NULL when out of memory (p
 * then unchanged, still the caller's to free). */
static inline void *cf_grow(void *p, size_t *cap, size_t n, size_t elem, size_t first)
{
    if (n < *cap)
        return p;
    size_t nc = *cap ? 2 * *cap : first;
    if (nc <= *cap || nc > SIZE_MAX / elem)
        return NULL;
    void *q = realloc(p, nc * elem);
    if (q != NULL)
        *cap = nc;
    return q;
}

#endif
