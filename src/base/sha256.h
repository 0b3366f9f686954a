/* SHA-256 (FIPS 180-4), for the fingerprint of a simulated platform in a table's metadata:
 * the same file name can hold another machine a year later. */
#ifndef CF_SHA256_H
#define CF_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

typedef struct cf_sha256 {
    uint32_t h[8];
    uint64_t bytes; /* message length so far */
    unsigned char block[64];
    size_t fill; /* bytes waiting in block */
} cf_sha256;

void cf_sha256_init(cf_sha256 *s);
void cf_sha256_update(cf_sha256 *s, const void *data, size_t n);
/* Writes the digest as 64 lowercase hex digits and a NUL into hex[65]. */
void cf_sha256_hex(cf_sha256 *s, char hex[65]);

/* The digest of a whole file, as hex. */
int cf_sha256_file(const char *path, char hex[65], cf_error *e);

#endif
