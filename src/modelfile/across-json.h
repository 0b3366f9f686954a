/* The model file's "across_np" array and "p2p" object (commfit-formats(5)): the across-np
 * models and the point-to-point estimate of fit/across.h as JSON, and back. */
#ifndef CF_ACROSS_JSON_H
#define CF_ACROSS_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "base/error.h"
#include "fit/across.h"

/* The JSON forms (new references), and their readers: name is the file for messages. */
json_t *cf_across_to_json(const cf_across *a);
json_t *cf_p2p_to_json(const cf_p2p *pp);
int cf_across_from_json(const json_t *j, const char *name, size_t index, cf_across *out,
                        cf_error *e);
int cf_p2p_from_json(const json_t *j, const char *name, cf_p2p *out, cf_error *e);

/* The "across_np" array of s (new reference; an empty array when it has none). */
json_t *cf_across_set_to_json(const cf_across_set *s);
/* Reads "across_np" and "p2p" (either may be NULL) into out (cf_across_set_clear); the
 * model file's reader calls it once, on reading. */
int cf_across_set_load(const json_t *across_np, const json_t *p2p, const char *name,
                       cf_across_set *out, cf_error *e);
/* The same with each across-np model read by its key alone (pattern, datatype, checked
 * as cf_across_from_json checks them; key_only set): what cf_modelset_read_keys reads; the
 * point-to-point estimate is read whole. */
int cf_across_set_load_keys(const json_t *across_np, const json_t *p2p, const char *name,
                            cf_across_set *out, cf_error *e);

#endif
