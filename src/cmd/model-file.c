/* Which model file a command reads: -m, else the newest in models/. */
#include "config.h"

#include "cmd/model-file.h"

#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"

int cf_cmd_model_file(const char *named, int how, char **path, cf_error *e)
{
    *path = NULL;
    if (named != NULL) {
        if ((*path = strdup(named)) == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return 0;
    }
    cf_error none;
    cf_error_clear(&none);
    if (cf_newest_file("models", ".json", path, &none) != 0) {
        *path = NULL;
        if (how == CF_MODEL_OPTIONAL)
            return 0;
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "no model file in models/: run 'commfit fit' first, or name one "
                            "with -m");
    }
    if (how != CF_MODEL_OPTIONAL)
        cf_msg("using %s", *path);
    return 0;
}
