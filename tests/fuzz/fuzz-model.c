/* libFuzzer target: the model-file reader refuses what does not match the schema, with a
 * message, and whatever it accepts can be evaluated and printed without crashing and
 * without a NaN where a time should be. */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "modelfile/modelfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_modelset *m = NULL;
    cf_error e;
    cf_error_clear(&e);
    if (cf_modelset_read_mem((const char *)data, size, "fuzz.json", &m, &e) != 0) {
        if (e.msg[0] == '\0')
            __builtin_trap();
        return 0;
    }
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
