/* A driver for the fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput on each
 * file named on the command line, so that make check (and its sanitizer build) replays
 * every saved crash and the seed inputs through the same checks (tests/fuzz/replay.sh).
 * The target traps on a wrong answer; a file that cannot be read exits 1. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int slurp(const char *path, uint8_t **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    size_t got;
    while (b != NULL && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (nb == NULL)
                free(b);
            b = nb;
        }
    }
    int bad = ferror(f) || b == NULL;
    fclose(f);
    if (bad) {
        free(b);
        return -1;
    }
    *buf = b;
    *len = n;
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        if (slurp(argv[i], &buf, &len) != 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
    }
    return 0;
}
