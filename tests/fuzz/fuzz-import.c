/* libFuzzer target: the IMB and OSU parsers of commfit import, strict and lenient, must
 * refuse bad input with a message and never crash, leak or read out of bounds; what they
 * accept must be a valid timing table that the table reader reads back whole. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "import/import.h"
#include "base/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const char *file, long line, const char *msg)
{
    (void)ctx;
    (void)file;
    (void)line;
    if (msg == NULL || msg[0] == '\0')
        __builtin_trap();
}

static void check_table(cf_table *t)
{
    for (size_t i = 0; i < t->n_rows; i++) {
        char why[256];
        if (cf_row_check(&t->rows[i], why, sizeof why) != 0 || t->rows[i].extra == NULL)
            __builtin_trap();
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (fp == NULL)
        return;
    int bad = cf_table_write_header(fp, t) != 0;
    for (size_t i = 0; i < t->n_rows && !bad; i++)
        bad = cf_table_write_row(fp, t, &t->rows[i]) != 0;
    fclose(fp);
    cf_table *back = NULL;
    cf_error e;
    cf_error_clear(&e);
    if (bad || cf_table_read_mem(buf, len, "fuzz.csv", &back, &e) != 0 ||
        back->n_rows != t->n_rows)
        __builtin_trap();
    cf_table_free(back);
    free(buf);
}

static void one(cf_import_format f, const uint8_t *data, size_t size, int lenient, int np)
{
    cf_import_opts o = {.np = np, .lenient = lenient, .warn = quiet};
    cf_import *im = cf_import_alloc(&o);
    if (im == NULL)
        return;
    cf_table *t = NULL;
    cf_error e;
    cf_error_clear(&e);
    int rc = cf_import_mem(im, f, (const char *)data, size, "fuzz.txt", &e);
    if (rc == 0)
        rc = cf_import_finish(im, &t, &e);
    if (rc == 0) {
        check_table(t);
        cf_table_free(t);
    } else if (e.msg[0] == '\0' || (rc != CF_EXIT_DATA && rc != CF_EXIT_USAGE)) {
        __builtin_trap();
    }
    cf_import_free(im);
}

/* Both parsers by default; -DCF_FUZZ_FORMAT=CF_IMPORT_IMB (or _OSU) builds one alone. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int lenient = 0; lenient < 2; lenient++) {
#ifdef CF_FUZZ_FORMAT
        one(CF_FUZZ_FORMAT, data, size, lenient, lenient ? 4 : 0);
#else
        one(CF_IMPORT_IMB, data, size, lenient, lenient ? 4 : 0);
        one(CF_IMPORT_OSU, data, size, lenient, lenient ? 4 : 0);
#endif
    }
    return 0;
}
