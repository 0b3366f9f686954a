/* The model file a command reads, chosen in one place for predict, export and report. */
#ifndef CF_CMD_MODEL_FILE_H
#define CF_CMD_MODEL_FILE_H

#include "base/error.h"

enum {
    CF_MODEL_REQUIRED = 0, /* none found is an error */
    CF_MODEL_OPTIONAL = 1, /* none found is no error (*path NULL), and a found one unsaid */
};

/* named (-m) when given, else the newest .json in models/, said as "using FILE" (unless
 * CF_MODEL_OPTIONAL). *path is malloc'd. 0, or CF_EXIT_DATA with e filled ("no model
 * file in models/: run 'commfit fit' first, or name one with -m"). */
int cf_cmd_model_file(const char *named, int how, char **path, cf_error *e);

#endif
