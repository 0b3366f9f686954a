/* libFuzzer target: size parsing (single sizes and lists) never crashes, and what it
 * accepts is within bounds and sorted. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s == NULL)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    cf_error e;
    uint64_t b;
    cf_error_clear(&e);
    if (cf_size_parse(s, &b, &e) == 0 && b > CF_BYTES_MAX)
        __builtin_trap();
    uint64_t *v = NULL;
    size_t n = 0;
    if (cf_size_list_parse(s, &v, &n, &e) == 0) {
        for (size_t i = 0; i < n; i++)
            if (v[i] > CF_BYTES_MAX || (i > 0 && v[i] <= v[i - 1]))
                __builtin_trap();
        free(v);
    }
    free(s);
    return 0;
}
