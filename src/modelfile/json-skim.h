/* A JSON text checked in one pass without building it, with the byte ranges of its
 * top-level members and of the elements of some of them: lets the model file's reader
 * hand jansson only the parts it will read (cf_modelset_read_keys). */
#ifndef CF_JSON_SKIM_H
#define CF_JSON_SKIM_H

#include <stddef.h>

#define CF_SKIM_MAX_TOP 32 /* top-level members */
#define CF_SKIM_MAX_KEYS 8 /* members located in each element of a list */
#define CF_SKIM_MAX_LISTS 2

typedef struct cf_skim_span {
    size_t at, end; /* s[at] to s[end - 1]; a string's with its quotes */
} cf_skim_span;

typedef struct cf_skim_item {
    int list; /* which of cf_skim's lists it is in */
    cf_skim_span span;
    cf_skim_span key[CF_SKIM_MAX_KEYS]; /* the values of its members named keys[k]; end 0:
                                           it has none (or it is not an object) */
} cf_skim_item;

typedef struct cf_skim {
    /* asked */
    const char *list[CF_SKIM_MAX_LISTS]; /* top-level members whose elements are itemised
                                            (NULL: fewer) */
    const char *const *keys;   /* the members to locate in each of them */
    int nkeys;                 /* <= CF_SKIM_MAX_KEYS */
    /* found */
    size_t ntop;
    cf_skim_span top_key[CF_SKIM_MAX_TOP], top_val[CF_SKIM_MAX_TOP]; /* keys without quotes */
    int list_at[CF_SKIM_MAX_LISTS]; /* each list's index in top, where it is an array;
                                       else -1 */
    size_t nitems, cap;
    cf_skim_item *items; /* in text order */
} cf_skim;

/* 1: s is one JSON object that jansson reads without error (JSON_REJECT_DUPLICATES: no
 * object repeats a key), written plainly enough to take apart by bytes: keys without
 * escapes, numbers that need no range check, nesting under 256, objects of at most 256
 * keys, at most CF_SKIM_MAX_TOP members at the top; k filled. 0: not sure; the caller parses the text whole, and jansson says
 * what is wrong, if anything. Either way cf_skim_free(k) after. */
int cf_skim_check(const char *s, size_t n, cf_skim *k);
void cf_skim_free(cf_skim *k);

/* The line (1-based) of the value at path ("fits[3].segments[0].coef": members by name,
 * elements by index) in the JSON text s of n bytes, or of the deepest value on the way that
 * the text has (a member missing: its object's). Meant for a text jansson read (a schema
 * error's place); any other stays within the n bytes and gives some line. */
long cf_skim_line_of(const char *s, size_t n, const char *path);

#endif
