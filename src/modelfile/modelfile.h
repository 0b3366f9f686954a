/* The model file (JSON, "commfit_model": 1): a set of fits (fit/fit.h), the across-np
 * models and the point-to-point estimate (fit/across.h) with the metadata of their
 * tables, its reader (validated once, against the schema of commfit-formats(5)) and
 * writer. */
#ifndef CF_MODELFILE_H
#define CF_MODELFILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/table.h"
#include "fit/across.h"
#include "fit/fit.h"

#define CF_MODEL_MAJOR 1

typedef struct cf_modelset {
    size_t nfits, cap;
    cf_fit *fits;
    json_t *source; /* owned reference: table metadata, files, statistic, weights */
    /* "across_np" and "p2p": the across-np models (none: an empty array) and the
     * point-to-point estimate (written when across.have_p2p) */
    cf_across_set across;
    /* cf_modelset_read_keys, for cf_modelset_read_fits: the file's name, and its text with
     * the place in it of each fit and across-np model, or (where the one-pass check was not
     * sure of the text) its JSON parsed whole; NULL otherwise */
    char *text, *name;
    /* cf_modelset_read: the file's text as it was parsed (NUL-terminated), for the line of a
     * member a warning names (cf_placement_where_model); NULL otherwise */
    char *whole;
    struct cf_skim_span *fit_span, *across_span;
    json_t *json;
} cf_modelset;

cf_modelset *cf_modelset_alloc(void);
void cf_modelset_free(cf_modelset *m);
/* Appends a copy of f (taking over its rejected, gain and warnings arrays); 0 or -1. */
int cf_modelset_add(cf_modelset *m, cf_fit *f);

/* Reads and validates a model file, its across-np models and point-to-point estimate
 * included: refuses a newer "commfit_model" major version and a missing or mistyped
 * field, naming the field and the file. */
int cf_modelset_read(const char *path, cf_modelset **out, cf_error *e);
int cf_modelset_read_mem(const char *buf, size_t len, const char *name, cf_modelset **out,
                         cf_error *e);
/* The same with every fit and across-np model read by its key alone (pattern, datatype;
 * a fit's np, blocks and model too; key_only set), the file checked whole as JSON, the
 * source and the point-to-point estimate read and validated whole: then
 * cf_modelset_read_fits reads whole what one pattern and datatype's answers use. Parsing
 * the whole file takes most of a predict call's time. A set holding a part by its key
 * cannot be written. */
int cf_modelset_read_keys(const char *path, cf_modelset **out, cf_error *e);
int cf_modelset_read_mem_keys(const char *buf, size_t len, const char *name, cf_modelset **out,
                              cf_error *e);
/* Reads whole, and validates, the fits and the across-np model of (pattern, datatype) held
 * by their key; 0 or CF_EXIT_DATA naming the file and the field. */
int cf_modelset_read_fits(cf_modelset *m, const char *pattern, const char *datatype,
                          cf_error *e);

/* Writes atomically (temporary file, then rename). */
int cf_modelset_write(const char *path, const cf_modelset *m, cf_error *e);
/* The JSON form (new reference). */
json_t *cf_modelset_to_json(const cf_modelset *m, cf_error *e);

/* The first fit for (pattern, np, datatype) in file order: the one to predict with.
 * A loggp fit follows the pingpong fit of the same key, so it is found by model name. */
const cf_fit *cf_modelset_find(const cf_modelset *m, const char *pattern, int np,
                               const char *datatype);
const cf_fit *cf_modelset_find_model(const cf_modelset *m, const char *pattern, int np,
                                     const char *datatype, const char *model);

#endif
