/* libFuzzer target: the model-file reader refuses what does not match the schema, with a
 * message, and whatever it accepts can be evaluated and printed without crashing and
 * without a NaN where a time should be. Read by its keys first (predict's way), it refuses
 * what jansson does not read as JSON, accepts whatever the whole reading accepts, and the
 * parts it then reads whole are the same. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "modelfile/modelfile.h"

/* By keys, then whole pattern by pattern: each part as the whole reading has it. */
static void same_by_keys(const uint8_t *data, size_t size, const cf_modelset *whole)
{
    cf_modelset *m = NULL;
    cf_error e;
    cf_error_clear(&e);
    if (cf_modelset_read_mem_keys((const char *)data, size, "fuzz.json", &m, &e) != 0 ||
        m->nfits != whole->nfits)
        __builtin_trap();
    for (size_t i = 0; i < m->nfits; i++)
        if (cf_modelset_read_fits(m, m->fits[i].pattern, m->fits[i].datatype, &e) != 0)
            __builtin_trap();
    for (size_t i = 0; i < m->across.n; i++)
        if (cf_modelset_read_fits(m, m->across.a[i].pattern, m->across.a[i].datatype, &e) != 0)
            __builtin_trap();
    json_t *ja = cf_modelset_to_json(m, &e), *jb = cf_modelset_to_json(whole, &e);
    if (ja == NULL || jb == NULL || !json_equal(ja, jb))
        __builtin_trap();
    json_decref(ja);
    json_decref(jb);
    cf_modelset_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_modelset *m = NULL;
    cf_error e;
    cf_error_clear(&e);
    /* Not JSON to jansson (after a byte order mark, which the reader skips): not to the
     * reading by keys either. */
    size_t bom = size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    json_t *j0 = json_loadb((const char *)data + bom, size - bom, JSON_REJECT_DUPLICATES, NULL);
    if (j0 == NULL && cf_modelset_read_mem_keys((const char *)data, size, "fuzz.json", &m, &e) == 0)
        __builtin_trap();
    json_decref(j0);
    if (cf_modelset_read_mem((const char *)data, size, "fuzz.json", &m, &e) != 0) {
        if (e.msg[0] == '\0')
            __builtin_trap();
        return 0;
    }
    same_by_keys(data, size, m);
    static const double sizes[] = {0, 1, 1024, 65536, 4194304, 1e12};
    char buf[CF_FORMULA_MAX * 2];
    for (size_t i = 0; i < m->nfits; i++) {
        const cf_fit *f = &m->fits[i];
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            cf_prediction p;
            if (cf_fit_predict(f, sizes[k], &p) == 0 && isnan(p.t_us))
                __builtin_trap();
        }
        cf_fit_formula(f, "text", buf, sizeof buf);
        cf_fit_formula(f, "latex", buf, sizeof buf);
    }
    json_t *j = cf_modelset_to_json(m, &e);
    json_decref(j);
    cf_modelset_free(m);
    return 0;
}
