/* The one-pass JSON check (modelfile/json-skim.c): what it accepts jansson reads, and the
 * byte ranges it notes (top-level members, the elements of two lists and members of
 * those) are the values jansson reads there; what it is not sure of, the
 * model reader parses whole. Checked on hand-made cases and on every one-byte mutation of
 * a small model-like text. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "modelfile/json-skim.h"
#include "tap.h"

static const char *const keys[] = {"pattern", "np", "blocks"};

static int check(const char *s, size_t n, cf_skim *k)
{
    memset(k, 0, sizeof *k);
    k->list[0] = "fits";
    k->list[1] = "across_np";
    k->keys = keys;
    k->nkeys = 3;
    return cf_skim_check(s, n, k);
}

static int accepts(const char *s)
{
    cf_skim k;
    int r = check(s, strlen(s), &k);
    cf_skim_free(&k);
    return r;
}

static json_t *at(const char *s, cf_skim_span v)
{
    return json_loadb(s + v.at, v.end - v.at, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
}

static int same(json_t *a, json_t *b)
{
    int r = a != NULL && b != NULL && json_equal(a, b);
    json_decref(a);
    return r;
}

/* What an accepted text's notes say agrees with jansson's reading of the whole: the
 * top-level members, the list's elements and their located members. */
static int agrees(const char *s, size_t n, const cf_skim *k)
{
    json_t *root = json_loadb(s, n, JSON_REJECT_DUPLICATES, NULL);
    int good = root != NULL && json_is_object(root) && json_object_size(root) == k->ntop;
    for (size_t i = 0; good && i < k->ntop; i++) {
        char key[64];
        size_t l = k->top_key[i].end - k->top_key[i].at;
        snprintf(key, sizeof key, "%.*s", (int)l, s + k->top_key[i].at);
        good = l < sizeof key && same(at(s, k->top_val[i]), json_object_get(root, key));
    }
    static const char *const lists[] = {"fits", "across_np"};
    size_t seen = 0;
    for (int l = 0; good && l < 2; l++) {
        json_t *list = json_object_get(root, lists[l]);
        good = (k->list_at[l] >= 0) == (list != NULL && json_is_array(list));
        size_t n = 0;
        for (size_t i = 0; good && i < k->nitems; i++) {
            if (k->items[i].list != l)
                continue;
            json_t *el = json_array_get(list, n++);
            good = same(at(s, k->items[i].span), el);
            for (int j = 0; good && j < 3; j++) {
                json_t *want = json_is_object(el) ? json_object_get(el, keys[j]) : NULL;
                good = k->items[i].key[j].end == 0 ? want == NULL
                                                   : same(at(s, k->items[i].key[j]), want);
            }
        }
        good = good && (k->list_at[l] < 0 || n == json_array_size(list));
        seen += n;
    }
    good = good && seen == k->nitems;
    json_decref(root);
    return good;
}

static const char model[] =
    "{\n  \"commfit_model\": 1,\n  \"source\": {\"host\": \"n\\u00e9ud \\\"1\\\"\", \"x\": [1, 2.5e-07, "
    "-0.0, true, false, null]},\n  \"fits\": [\n    {\"pattern\": \"pingpong\", \"np\": 2, "
    "\"seg\": [{\"a\": 0.125, \"b\": 1E+2}], \"blocks\": 0},\n    {\"np\": 4, \"pattern\": "
    "\"bcast\", \"note\": \"caf\xc3\xa9 \xf0\x9f\x98\x80 \\ud83d\\ude00\"},\n    7,\n    {}\n  ],\n"
    "  \"across_np\": [{\"pattern\": \"bcast\", \"np\": [2, 4]}, []], \"p2p\": {}\n}\n";

int main(void)
{
    cf_skim k;
    size_t n = strlen(model);
    ok(check(model, n, &k), "a model-like text is accepted");
    ok(agrees(model, n, &k), "its members, list elements and their keys are jansson's values");
    is_int(k.ntop, 5, "five top-level members");
    is_int(k.nitems, 6, "six elements in the two lists");
    ok(k.items[2].key[0].end == 0 && k.items[3].key[0].end == 0,
       "a number and an empty object in the list have no located member");
    cf_skim_free(&k);

    ok(accepts("{}") && accepts(" \t\r\n{ \"a\" : { \"b\" : [ ] } } \n"), "empty and spaced objects");
    ok(accepts("{\"a\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"}"), "every escape in a value");
    ok(accepts("{\"a\": 123456789012345678, \"b\": -1.5e-320, \"c\": 1e299}"),
       "numbers jansson reads without a range error");
    ok(accepts("{\"fits\": {\"pattern\": 1}}"), "a list member that is not an array");

    static const char *unsure[] = {
        "", "[]", "1", "\"x\"", "{\"a\":1,\"a\":2}", "{\"a\\u0062\":1}", "{\"a\":\"\\u0000\"}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"\xc0\x80\"}",
        "{\"a\":\"\xed\xa0\x80\"}", "{\"a\":\"\xf4\x90\x80\x80\"}", "{\"a\":\"\xc3\"}", "{\"a\":\"\x80\"}",
        "{\"a\":1e400}", "{\"a\":1234567890123456789}", "{} x", "{}{}", "{\"a\":01}", "{\"a\":tru}",
        "{\"a\":truex}", "{\"a\":\"\x01\"}", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":[1,]}", "{\"a\":-}",
        "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}",
        "{\"a\":\"abc}", "{a:1}", "{\"a\":NaN}",
    };
    int all = 1;
    for (size_t i = 0; i < sizeof unsure / sizeof unsure[0]; i++)
        if (accepts(unsure[i])) {
            all = 0;
            printf("#   accepted case %zu: %s\n", i, unsure[i]);
        }
    ok(all, "not sure of %zu texts: not JSON, not an object, a repeated or escaped key, a "
            "NUL, a lone surrogate, bad UTF-8, a number out of range",
       sizeof unsure / sizeof unsure[0]);

    char deep[2 * 300 + 16];
    size_t d = 0;
    d += (size_t)sprintf(deep, "{\"a\":");
    for (int i = 0; i < 300; i++)
        deep[d++] = '[';
    for (int i = 0; i < 300; i++)
        deep[d++] = ']';
    deep[d++] = '}';
    deep[d] = '\0';
    ok(!accepts(deep), "nesting of 300: not sure");

    /* Every one-byte change of the model-like text: where the check accepts the result,
     * jansson reads it, and the notes are its values. */
    static const char subst[] = "\"{}[],:\\0e- x\x80\xc3\t\0"; /* the last a NUL byte */
    char *m = malloc(n + 1);
    size_t tried = 0, accepted = 0, wrong = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c <= sizeof subst - 1; c++) {
            size_t len = n;
            memcpy(m, model, n);
            if (c == sizeof subst - 1) { /* deleted */
                memmove(m + i, m + i + 1, n - i - 1);
                len--;
            } else if (m[i] != subst[c]) {
                m[i] = subst[c];
            } else {
                continue;
            }
            tried++;
            if (check(m, len, &k)) {
                accepted++;
                if (!agrees(m, len, &k)) {
                    wrong++;
                    printf("#   byte %zu -> %02x: accepted, not as jansson reads it\n", i,
                           (unsigned char)subst[c]);
                }
            }
            cf_skim_free(&k);
        }
    free(m);
    ok(wrong == 0 && accepted > 0 && accepted < tried,
       "%zu one-byte changes, %zu accepted, each read by jansson as noted", tried, accepted);

    /* The line of a value named by its path (a schema error's place): strings holding
     * brackets and quotes skipped, members by name, elements by index; a member or
     * element the text lacks gives its container's line. */
    static const char doc[] = "\xef\xbb\xbf{\n"
                              "  \"a\": \"x]}\\\"[{,\",\n"
                              "  \"fits\": [\n"
                              "    {\"np\": 2},\n"
                              "    {\n"
                              "      \"segments\": [1, {\"coef\":\n"
                              "        [3, -4e1]}]\n"
                              "    }\n"
                              "  ],\n"
                              "  \"b\": null\n"
                              "}\n";
    static const struct {
        const char *path;
        long line;
    } where[] = {
        {"a", 2},
        {"fits", 3},
        {"fits[0]", 4},
        {"fits[0].np", 4},
        {"fits[1]", 5},
        {"fits[1].segments[1].coef", 7},
        {"fits[1].segments[1].coef[1]", 7},
        {"fits[1].missing", 5},
        {"fits[7].np", 3},
        {"fits[1].segments[0].x", 6},
        {"b", 10},
        {"zz", 1},
        {"", 1},
    };
    size_t dn = strlen(doc);
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
        is_int(cf_skim_line_of(doc, dn, where[i].path), where[i].line, "the line of '%s'",
               where[i].path);
    /* Every prefix of the text, each in an allocation of its own size (the sanitizer build
     * sees a byte read past it): a line between 1 and the text's. */
    int inside = 1;
    for (size_t l = 0; l <= dn; l++) {
        char *t = malloc(l ? l : 1);
        memcpy(t, doc, l);
        long line = cf_skim_line_of(t, l, "fits[1].segments[1].coef[1]");
        inside = inside && line >= 1 && line <= 11;
        free(t);
    }
    ok(inside, "every prefix of it: a line inside it, no byte read past it");
    /* Not JSON, a huge index: the walk stops where it cannot step (it spun on ULONG_MAX
     * elements; the first review). */
    is_int(cf_skim_line_of("[\xbf\n} x", 7, "[-1]"), 1, "a huge index into no array: stops");
    is_int(cf_skim_line_of("{\"a\": }\n", 9, "b"), 1, "a member after no value: stops");
    return tap_done();
}
