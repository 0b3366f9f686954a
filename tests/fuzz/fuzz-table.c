/* libFuzzer target: the timing-table reader must refuse bad input with a message,
 * never crash, leak or read out of bounds. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "base/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_table *t = NULL;
    cf_error e;
    cf_error_clear(&e);
    if (cf_table_read_mem((const char *)data, size, "fuzz.csv", &t, &e) == 0) {
        /* Whatever is accepted must satisfy the schema the writer relies on. */
        for (size_t i = 0; i < t->n_rows; i++) {
            char why[256];
            if (cf_row_check(&t->rows[i], why, sizeof why) != 0)
                __builtin_trap();
        }
        cf_table_free(t);
    } else if (e.msg[0] == '\0' || t != NULL) {
        __builtin_trap();
    }
    return 0;
}
