/* A JSON text checked in one pass without building it (the grammar of RFC 8259, as strict
 * as jansson), noting the byte ranges the model file's reader takes apart. Where jansson
 * might refuse what the grammar allows (a number out of range, "\u0000") or where taking
 * apart by bytes would differ from reading (a key with an escape), the check says "not
 * sure" and the caller parses the text whole. */
#include "config.h"

#include "modelfile/json-skim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

#define MAX_DEPTH 256
#define MAX_OBJECT_KEYS 256 /* keys an object may have to be checked for repeats, pairwise */

/* What a value is to the caller: the top-level object, a list member's array, one of
 * its elements, or nothing to note. */
enum role { NONE, TOP, LIST, ITEM };

typedef struct chk {
    const unsigned char *s;
    size_t n, i;
    int depth;
    cf_skim_span *keys; /* the keys of the objects being checked, innermost last */
    size_t nkeys, cap;
    cf_skim *k;
    int list; /* the list whose array is being checked, -1 outside */
} chk;

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* The hot loop of an indented file: eight spaces at a time, then byte by byte (in locals,
 * not c->i, which a store could alias with the text). */
static void ws(chk *c)
{
    const unsigned char *s = c->s;
    size_t i = c->i, n = c->n;
    for (;;) {
        uint64_t w;
        while (n - i >= 8 && (memcpy(&w, s + i, 8), w == 0x2020202020202020u))
            i += 8;
        if (i >= n || !is_ws(s[i]))
            break;
        i++;
    }
    c->i = i;
}

/* One UTF-8 sequence at c->i (its first byte >= 0x80): well-formed, shortest, no
 * surrogate, at most U+10FFFF, as jansson checks. */
static int utf8(chk *c)
{
    unsigned char b = c->s[c->i];
    int more = b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : -1;
    if (more < 0 || c->n - c->i <= (size_t)more)
        return 0;
    unsigned long v = b & (0x3F >> more);
    for (int k = 1; k <= more; k++) {
        unsigned char x = c->s[c->i + (size_t)k];
        if ((x & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (x & 0x3F);
    }
    static const unsigned long least[] = {0, 0x80, 0x800, 0x10000};
    if (v < least[more] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    c->i += (size_t)more + 1;
    return 1;
}

/* Four hex digits after "\u" (c->i at the 'u'). */
static int hex4(chk *c, unsigned *v)
{
    if (c->n - c->i < 5)
        return 0;
    *v = 0;
    for (int k = 1; k <= 4; k++) {
        unsigned char x = c->s[c->i + (size_t)k];
        unsigned d = is_digit(x) ? x - '0' : (x | 0x20) >= 'a' && (x | 0x20) <= 'f' ? (x | 0x20) - 'a' + 10 : 16;
        if (d == 16)
            return 0;
        *v = *v << 4 | d;
    }
    c->i += 5;
    return 1;
}

/* A string at c->i (its '"'); *plain: no escape in it. */
static int string(chk *c, cf_skim_span *span, int *plain)
{
    span->at = ++c->i;
    *plain = 1;
    while (c->i < c->n) {
        const unsigned char *s = c->s;
        size_t i = c->i, n = c->n;
        while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
            i++; /* the plain run, in locals as in ws() */
        c->i = i;
        if (i >= n)
            break;
        unsigned char x = s[i];
        if (x == '"') {
            span->end = c->i++;
            return 1;
        }
        if (x < 0x20)
            return 0;
        if (x >= 0x80) {
            if (!utf8(c))
                return 0;
            continue;
        }
        *plain = 0; /* x is the backslash */
        if (++c->i >= c->n)
            return 0;
        x = c->s[c->i];
        if (x != 'u') {
            if (x == 0 || strchr("\"\\/bfnrt", x) == NULL)
                return 0;
            c->i++;
            continue;
        }
        unsigned v, w;
        if (!hex4(c, &v) || v == 0 || (v >= 0xDC00 && v <= 0xDFFF))
            return 0; /* jansson refuses a NUL and a lone low surrogate */
        if (v >= 0xD800 && v <= 0xDBFF &&
            (c->n - c->i < 2 || c->s[c->i] != '\\' || c->s[c->i + 1] != 'u' ||
             (c->i++, !hex4(c, &w)) || w < 0xDC00 || w > 0xDFFF))
            return 0;
    }
    return 0;
}

/* A number: an integer of up to 18 digits (jansson's are 64-bit) or a real whose decimal
 * exponent stays under 300 (jansson refuses one strtod makes infinite). */
static int number(chk *c)
{
    const unsigned char *s = c->s;
    size_t i = c->i, n = c->n;
    if (s[i] == '-')
        i++;
    size_t first = i;
    if (i < n && s[i] == '0')
        i++;
    else if (i < n && s[i] >= '1' && s[i] <= '9')
        while (i < n && is_digit(s[i]))
            i++;
    else
        return 0;
    size_t digits = i - first;
    int real = 0;
    if (i < n && s[i] == '.') {
        real = 1;
        if (++i >= n || !is_digit(s[i]))
            return 0;
        while (i < n && is_digit(s[i]))
            i++;
    }
    long ex = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        real = 1;
        int neg = 0;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            neg = s[i++] == '-';
        if (i >= n || !is_digit(s[i]))
            return 0;
        while (i < n && is_digit(s[i])) {
            if (ex < 100000)
                ex = ex * 10 + (s[i] - '0');
            i++;
        }
        if (neg)
            ex = -ex;
    }
    c->i = i;
    return real ? ex + (long)digits <= 300 : digits <= 18;
}

static int literal(chk *c, const char *word)
{
    size_t l = strlen(word);
    if (c->n - c->i < l || memcmp(c->s + c->i, word, l) != 0)
        return 0;
    c->i += l;
    return 1;
}

static int value(chk *c, enum role role);

static int key_is(const chk *c, cf_skim_span key, const char *name)
{
    size_t l = strlen(name);
    return key.end - key.at == l && memcmp(c->s + key.at, name, l) == 0;
}

/* Which of the lists key names, or -1. */
static int list_of(const chk *c, cf_skim_span key)
{
    for (int j = 0; j < CF_SKIM_MAX_LISTS && c->k->list[j] != NULL; j++)
        if (key_is(c, key, c->k->list[j]))
            return j;
    return -1;
}

/* Notes the member key: value of an object in the given role. */
static int note_member(chk *c, enum role role, cf_skim_span key, cf_skim_span val)
{
    cf_skim *k = c->k;
    if (role == TOP) {
        if (k->ntop == CF_SKIM_MAX_TOP)
            return 0;
        int l = list_of(c, key);
        if (l >= 0 && c->s[val.at] == '[')
            k->list_at[l] = (int)k->ntop;
        k->top_key[k->ntop] = key;
        k->top_val[k->ntop++] = val;
    } else if (role == ITEM) {
        for (int j = 0; j < k->nkeys; j++)
            if (key_is(c, key, k->keys[j]))
                k->items[k->nitems - 1].key[j] = val;
    }
    return 1;
}

/* An object at c->i (its '{'): its keys plain and distinct. */
static int object(chk *c, enum role role)
{
    size_t base = c->nkeys;
    c->i++;
    ws(c);
    if (c->i < c->n && c->s[c->i] == '}') {
        c->i++;
        return 1;
    }
    for (;;) {
        cf_skim_span key, val;
        int plain;
        if (c->i >= c->n || c->s[c->i] != '"' || !string(c, &key, &plain) || !plain ||
            c->nkeys - base >= MAX_OBJECT_KEYS)
            return 0;
        for (size_t k = base; k < c->nkeys; k++)
            if (c->keys[k].end - c->keys[k].at == key.end - key.at &&
                memcmp(c->s + c->keys[k].at, c->s + key.at, key.end - key.at) == 0)
                return 0;
        cf_skim_span *keys = cf_grow(c->keys, &c->cap, c->nkeys, sizeof *keys, 64);
        if (keys == NULL)
            return 0;
        c->keys = keys;
        c->keys[c->nkeys++] = key;
        ws(c);
        if (c->i >= c->n || c->s[c->i] != ':')
            return 0;
        c->i++;
        ws(c);
        val.at = c->i;
        c->list = role == TOP ? list_of(c, key) : c->list;
        if (!value(c, role == TOP && c->list >= 0 ? LIST : NONE))
            return 0;
        val.end = c->i;
        if (!note_member(c, role, key, val))
            return 0;
        ws(c);
        if (c->i < c->n && c->s[c->i] == ',') {
            c->i++;
            ws(c);
            continue;
        }
        if (c->i < c->n && c->s[c->i] == '}') {
            c->i++;
            c->nkeys = base;
            return 1;
        }
        return 0;
    }
}

/* An array at c->i (its '['); the list's elements noted. */
static int array(chk *c, enum role role)
{
    cf_skim *k = c->k;
    c->i++;
    ws(c);
    if (c->i < c->n && c->s[c->i] == ']') {
        c->i++;
        return 1;
    }
    for (;;) {
        ws(c);
        if (role == LIST) {
            cf_skim_item *items = cf_grow(k->items, &k->cap, k->nitems, sizeof *items, 64);
            if (items == NULL)
                return 0;
            k->items = items;
            memset(&k->items[k->nitems], 0, sizeof k->items[0]);
            k->items[k->nitems].list = c->list;
            k->items[k->nitems++].span.at = c->i;
        }
        if (!value(c, role == LIST ? ITEM : NONE))
            return 0;
        if (role == LIST)
            k->items[k->nitems - 1].span.end = c->i;
        ws(c);
        if (c->i < c->n && c->s[c->i] == ',') {
            c->i++;
            continue;
        }
        if (c->i < c->n && c->s[c->i] == ']') {
            c->i++;
            return 1;
        }
        return 0;
    }
}

static int value(chk *c, enum role role)
{
    ws(c);
    if (c->i >= c->n)
        return 0;
    cf_skim_span sp;
    int plain, ok;
    switch (c->s[c->i]) {
    case '{':
    case '[':
        if (++c->depth >= MAX_DEPTH)
            return 0;
        ok = c->s[c->i] == '{' ? object(c, role) : array(c, role);
        c->depth--;
        return ok;
    case '"':
        return string(c, &sp, &plain);
    case 't':
        return literal(c, "true");
    case 'f':
        return literal(c, "false");
    case 'n':
        return literal(c, "null");
    default:
        return number(c);
    }
}

int cf_skim_check(const char *s, size_t n, cf_skim *k)
{
    k->ntop = k->nitems = 0;
    for (int j = 0; j < CF_SKIM_MAX_LISTS; j++)
        k->list_at[j] = -1;
    chk c = {(const unsigned char *)s, n, 0, 0, NULL, 0, 0, k, -1};
    ws(&c);
    int ok = c.i < n && s[c.i] == '{' && value(&c, TOP);
    ws(&c);
    free(c.keys);
    return ok && c.i == n;
}

void cf_skim_free(cf_skim *k)
{
    free(k->items);
    k->items = NULL;
    k->nitems = k->cap = 0;
}

/* ---- The line of a value named by its path ---- */

static size_t skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && is_ws((unsigned char)s[i]))
        i++;
    return i;
}

/* Past the string whose opening quote is s[i]. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
    for (i++; i < n && s[i] != '"'; i++)
        if (s[i] == '\\')
            i++;
    return i < n ? i + 1 : n;
}

/* Past the value that begins at s[i]. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
    int depth = 0;
    while (i < n) {
        char ch = s[i];
        if (ch == '"')
            i = skip_string(s, n, i);
        else if (ch == '{' || ch == '[')
            depth++, i++;
        else if (ch == '}' || ch == ']') {
            if (depth == 0) /* a number or literal's end */
                return i;
            depth--, i++;
        } else if (depth == 0 && (ch == ',' || is_ws((unsigned char)ch)))
            return i;
        else
            i++;
        if (depth == 0 && (ch == '"' || ch == '}' || ch == ']'))
            return i;
    }
    return n;
}

/* Past the separator after a member or an element, at the next one (or the closing bracket). */
static size_t next_item(const char *s, size_t n, size_t i)
{
    i = skip_ws(s, n, skip_value(s, n, i));
    return i < n && s[i] == ',' ? skip_ws(s, n, i + 1) : i;
}

/* The value of element k of the array at s[i], or n where it has none. */
static size_t element(const char *s, size_t n, size_t i, unsigned long k)
{
    i = skip_ws(s, n, i + 1);
    for (; k > 0 && i < n && s[i] != ']'; k--) {
        size_t next = next_item(s, n, i);
        if (next == i) /* a text that is not JSON: no element to step over */
            return n;
        i = next;
    }
    return i < n && s[i] != ']' ? i : n;
}

/* The value of the member named key (l bytes, no escapes) of the object at s[i], or n. */
static size_t member(const char *s, size_t n, size_t i, const char *key, size_t l)
{
    i = skip_ws(s, n, i + 1);
    while (i < n && s[i] == '"') {
        size_t k = i + 1, end = skip_string(s, n, i);
        i = skip_ws(s, n, end);
        i = i < n && s[i] == ':' ? skip_ws(s, n, i + 1) : n;
        if (end - 1 - k == l && memcmp(s + k, key, l) == 0)
            return i;
        size_t next = next_item(s, n, i);
        if (next == i)
            return n;
        i = next;
    }
    return n;
}

long cf_skim_line_of(const char *s, size_t n, const char *path)
{
    size_t i = n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    size_t found = i = skip_ws(s, n, i);
    const char *p = path;
    while (*p != '\0' && i < n) {
        if (*p == '[') {
            char *end;
            unsigned long k = strtoul(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || s[i] != '[')
                break;
            i = element(s, n, i, k);
            p = end + 1;
        } else {
            p += *p == '.';
            size_t l = strcspn(p, ".[");
            if (l == 0 || s[i] != '{')
                break;
            i = member(s, n, i, p, l);
            p += l;
        }
        if (i < n)
            found = i;
    }
    long line = 1;
    for (size_t j = 0; j < found; j++)
        line += s[j] == '\n';
    return line;
}
