/* Hosts of a SimGrid platform file, and hostfiles that place ranks on them. */
#include "config.h"

#include "measure/platform.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/table.h"

#define PLATFORM_MAX_BYTES (64L << 20)
#define MAX_DEPTH 64

typedef struct scan {
    const char *path;
    const char *p, *end;
    long line;
    cf_error *e;
    cf_platform *pf;
    size_t cap;
} scan;

typedef struct attr {
    char name[32];
    char *value; /* malloc'd, entities decoded */
} attr;

static int add_host(scan *s, const char *name, size_t len, long cores)
{
    cf_sim_host *h = cf_grow(s->pf->hosts, &s->cap, s->pf->nhosts, sizeof *h, 64);
    if (h == NULL)
        return cf_error_set(s->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    s->pf->hosts = h;
    char *n = strndup(name, len);
    if (n == NULL)
        return cf_error_set(s->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    s->pf->hosts[s->pf->nhosts].name = n;
    s->pf->hosts[s->pf->nhosts].cores = cores;
    s->pf->nhosts++;
    s->pf->cores += cores;
    return 0;
}

static const char *attr_get(const attr *a, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a[i].name, name) == 0)
            return a[i].value;
    return NULL;
}

/* The core count of a <host> or <cluster>: SimGrid's "core" attribute, 1 when absent. */
static int cores_of(scan *s, const attr *a, int n, long line, long *out)
{
    const char *c = attr_get(a, n, "core");
    *out = 1;
    if (c == NULL)
        return 0;
    char *end;
    errno = 0;
    long v = strtol(c, &end, 10);
    if (end == c || *end != '\0' || errno != 0 || v < 1 || v > 1000000)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                            "core=\"%s\": expected a whole number of cores from 1", c);
    *out = v;
    return 0;
}

/* A cluster's hosts: prefix, each number of radical ("0-63" or "0-3,8,10-12"), suffix. */
static int cluster_hosts(scan *s, const attr *a, int n, long line)
{
    const char *prefix = attr_get(a, n, "prefix"), *suffix = attr_get(a, n, "suffix");
    const char *radical = attr_get(a, n, "radical");
    if (radical == NULL)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                            "<cluster> without radical: expected radical=\"0-63\"");
    long cores;
    if (cores_of(s, a, n, line, &cores) != 0)
        return s->e->code;
    prefix = prefix ? prefix : "";
    suffix = suffix ? suffix : "";
    const char *r = radical;
    for (;;) {
        char *end;
        errno = 0;
        long lo = strtol(r, &end, 10), hi = lo;
        int ok = end != r && errno == 0 && lo >= 0;
        if (ok && *end == '-') {
            const char *q = end + 1;
            hi = strtol(q, &end, 10);
            ok = end != q && errno == 0 && hi >= lo && hi - lo < 10000000;
        }
        if (!ok || (*end != ',' && *end != ';' && *end != '\0'))
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "radical=\"%s\": expected numbers and ranges such as 0-63,70",
                                radical);
        for (long i = lo; i <= hi; i++) {
            char name[512];
            int len = snprintf(name, sizeof name, "%s%ld%s", prefix, i, suffix);
            if (len < 0 || (size_t)len >= sizeof name)
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, line, "host name too long");
            if (add_host(s, name, (size_t)len, cores) != 0)
                return s->e->code;
        }
        if (*end == '\0')
            return 0;
        r = end + 1;
    }
}

/* The value of an attribute, with XML's five entities decoded. */
static char *decode(const char *v, size_t n)
{
    static const struct {
        const char *ent;
        char c;
    } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    char *out = malloc(n + 1), *o = out;
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        while (k < 5 && strncmp(v + i, ents[k].ent, strlen(ents[k].ent)) != 0)
            k++;
        if (k < 5 && i + strlen(ents[k].ent) <= n) {
            *o++ = ents[k].c;
            i += strlen(ents[k].ent);
        } else {
            *o++ = v[i++];
        }
    }
    *o = '\0';
    return out;
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.' || c == ':';
}

static void skip_space(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n')) {
        if (*s->p == '\n')
            s->line++;
        s->p++;
    }
}

/* Skips to the end of a comment, declaration or processing instruction. */
static int skip_to(scan *s, const char *stop, const char *what)
{
    long line = s->line;
    size_t n = strlen(stop);
    while (s->p + n <= s->end && strncmp(s->p, stop, n) != 0) {
        if (*s->p == '\n')
            s->line++;
        s->p++;
    }
    if (s->p + n > s->end)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, line, "%s is never closed", what);
    s->p += n;
    return 0;
}

/* Text where only markup may be, quoted up to the end of its line (at most 40 bytes). */
static int text_error(scan *s, const char *inside)
{
    size_t n = 0;
    while (s->p + n < s->end && s->p[n] != '\n' && s->p[n] != '<')
        n++;
    while (n > 0 && (s->p[n - 1] == ' ' || s->p[n - 1] == '\t' || s->p[n - 1] == '\r'))
        n--;
    const char *more = n > 40 ? "..." : "";
    int w = n > 40 ? 40 : (int)n;
    if (inside == NULL)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, s->line,
                            "text '%.*s%s' outside <platform>: a platform file holds only "
                            "markup",
                            w, s->p, more);
    return cf_error_set(s->e, CF_EXIT_DATA, s->path, s->line,
                        "text '%.*s%s' inside <%s>: SimGrid's elements hold only elements and "
                        "attributes (a '<' missing?)",
                        w, s->p, more, inside);
}

static void attrs_free(attr *a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i].value);
}

/* An attribute's value, v0 up to s->p: XML allows no '<' there, and SimGrid's parser
 * knows XML's five entities and character references only ("Spurious `&' in character
 * data" otherwise). */
static int check_value(scan *s, const char *elem, const char *name, size_t nlen, const char *v0,
                       long line)
{
    for (const char *v = v0; v < s->p; v++) {
        if (*v == '\n')
            line++;
        if (*v == '<')
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "<%s>: '<' in the value of '%.*s': write it &lt;", elem, (int)nlen,
                                name);
        if (*v != '&')
            continue;
        const char *w = v + 1;
        if (w < s->p && *w == '#') {
            w++;
            int hex = w < s->p && *w == 'x';
            w += hex;
            const char *d0 = w;
            while (w < s->p && (hex ? isxdigit((unsigned char)*w) : isdigit((unsigned char)*w)))
                w++;
            if (w > d0 && w < s->p && *w == ';')
                continue;
        } else {
            static const char *const ents[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
            int k = 0;
            while (k < 5 && ((size_t)(s->p - w) < strlen(ents[k]) ||
                             strncmp(w, ents[k], strlen(ents[k])) != 0))
                k++;
            if (k < 5)
                continue;
        }
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                            "<%s>: '&' in the value of '%.*s' begins none of XML's &amp; &lt; "
                            "&gt; &quot; &apos; &#N;: write a plain '&' as &amp;",
                            elem, (int)nlen, name);
    }
    return 0;
}

/* One start tag after its '<' and name: attributes up to '>' or '/>'. */
static int read_attrs(scan *s, const char *elem, attr *a, int *na, int *empty)
{
    *na = 0;
    *empty = 0;
    for (;;) {
        skip_space(s);
        if (s->p >= s->end)
            break;
        if (*s->p == '>') {
            s->p++;
            return 0;
        }
        if (*s->p == '/' && s->p + 1 < s->end && s->p[1] == '>') {
            s->p += 2;
            *empty = 1;
            return 0;
        }
        const char *n0 = s->p;
        while (s->p < s->end && is_name_char(*s->p))
            s->p++;
        size_t nlen = (size_t)(s->p - n0);
        skip_space(s);
        if (nlen == 0 || s->p >= s->end || *s->p != '=')
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, s->line,
                                "<%s>: expected an attribute name=\"value\"", elem);
        s->p++;
        skip_space(s);
        if (s->p >= s->end || (*s->p != '"' && *s->p != '\''))
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, s->line,
                                "<%s>: the value of '%.*s' is not quoted", elem, (int)nlen, n0);
        char q = *s->p++;
        const char *v0 = s->p;
        long vline = s->line;
        while (s->p < s->end && *s->p != q) {
            if (*s->p == '\n')
                s->line++;
            s->p++;
        }
        if (s->p >= s->end)
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, vline,
                                "<%s>: the value of '%.*s' is never closed", elem, (int)nlen, n0);
        if (check_value(s, elem, n0, nlen, v0, vline) != 0)
            return s->e->code;
        for (int i = 0; i < *na; i++)
            if (strlen(a[i].name) == nlen && strncmp(a[i].name, n0, nlen) == 0)
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, vline,
                                    "<%s>: attribute '%s' given twice", elem, a[i].name);
        if (*na < 32 && nlen < sizeof a[0].name) {
            memcpy(a[*na].name, n0, nlen);
            a[*na].name[nlen] = '\0';
            a[*na].value = decode(v0, (size_t)(s->p - v0));
            if (a[*na].value == NULL)
                return cf_error_set(s->e, CF_EXIT_DATA, NULL, 0, "out of memory");
            (*na)++;
        }
        s->p++;
    }
    return cf_error_set(s->e, CF_EXIT_DATA, s->path, s->line, "<%s> is never closed", elem);
}

/* The elements of SimGrid's platform DTD (version 4.1, as SimGrid 3.32's parser knows them,
 * deprecated ones included). SimGrid takes a misspelled one, <lnik>, for a misplaced
 * one and says "Unexpected character `<': `</zone>' expected"; a misspelled <host> or
 * <cluster> left this reader without the hosts ("declares no host", or too few cores for
 * --np) and no line. */
static const char *const known_elements[] = {
    "AS",       "ASroute",       "actor",       "argument",
    "backbone", "bypassASroute", "bypassRoute", "bypassZoneRoute",
    "cabinet",  "cluster",       "config",      "disk",
    "host",     "host_link",     "include",     "link",
    "link_ctn", "model_prop",    "mount",       "peer",
    "platform", "process",       "prop",        "random",
    "route",    "router",        "storage",     "storage_type",
    "trace",    "trace_connect", "zone",        "zoneRoute"};
#define N_KNOWN (sizeof known_elements / sizeof known_elements[0])

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Edits (insert, delete, change, swap two neighbours) from a to b, ignoring case: a
 * misspelling is usually one or two of them away. Names are shorter than 32. */
static size_t edits(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), d[33][33];
    if (na > 32 || nb > 32)
        return 99;
    for (size_t i = 0; i <= na; i++)
        for (size_t j = 0; j <= nb; j++) {
            if (i == 0 || j == 0) {
                d[i][j] = i + j;
                continue;
            }
            size_t c = lower(a[i - 1]) != lower(b[j - 1]);
            size_t v = d[i - 1][j - 1] + c;
            v = d[i - 1][j] + 1 < v ? d[i - 1][j] + 1 : v;
            v = d[i][j - 1] + 1 < v ? d[i][j - 1] + 1 : v;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[na][nb];
}

static int unknown_element(scan *s, const char *elem, long line)
{
    size_t best = 3, len = strlen(elem);
    const char *near = NULL;
    for (size_t i = 0; i < N_KNOWN; i++) {
        if (strcmp(elem, known_elements[i]) == 0)
            return 0;
        /* Two edits turn any two-letter name into "AS": short names get one. */
        size_t d = edits(elem, known_elements[i]);
        if (d < best && d <= (len > 3 ? 2u : 1u)) {
            best = d;
            near = known_elements[i];
        }
    }
    if (near != NULL)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                            "<%s>: not an element of SimGrid's platforms: did you mean <%s>", elem,
                            near);
    return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                        "<%s>: not an element of SimGrid's platforms: expected one such as "
                        "<zone>, <cluster>, <host>, <link> or <route>",
                        elem);
}

static int element(scan *s, const char *elem, const attr *a, int na, long line)
{
    if (unknown_element(s, elem, line) != 0)
        return s->e->code;
    if (strcmp(elem, "host") == 0) {
        const char *id = attr_get(a, na, "id");
        long cores;
        if (id == NULL || *id == '\0')
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line, "<host> without an id");
        /* The table lists hosts comma-separated (hosts, the hostfile's lines a word each):
         * a name with a comma or a blank would read as several (a platform's "b,c" made
         * "hosts: a,b,c" beside two ranks). */
        if (id[strcspn(id, ", \t\r\n")] != '\0')
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "<host id=\"%s\">: a host name without commas or blanks, "
                                "which commfit's tables and hostfiles separate names with",
                                id);
        if (cores_of(s, a, na, line, &cores) != 0)
            return s->e->code;
        return add_host(s, id, strlen(id), cores);
    }
    if (strcmp(elem, "cluster") == 0 || strcmp(elem, "cabinet") == 0)
        return cluster_hosts(s, a, na, line);
    /* Still in the DTD, but SimGrid 3.18 removed it: 3.32 aborts the simulation on it
     * ("<include> tag was removed in SimGrid v3.18", naming no file or line), and this
     * reader counted the hosts without the included file's. */
    if (strcmp(elem, "include") == 0) {
        const char *file = attr_get(a, na, "file");
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                            "<include%s%s%s>: SimGrid removed <include> in version 3.18 (its "
                            "simulator aborts on it): copy the elements of %s%s%s into this file",
                            file ? " file=\"" : "", file ? file : "", file ? "\"" : "",
                            file ? "'" : "", file ? file : "the included file", file ? "'" : "");
    }
    return 0;
}

static int parse(scan *s)
{
    char stack[MAX_DEPTH][32];
    long opened[MAX_DEPTH];
    int depth = 0, seen_root = 0;
    long text_line = 0; /* of the first text before the root, if any */
    const char *text = NULL;
    if (s->end - s->p >= 3 && memcmp(s->p, "\xef\xbb\xbf", 3) == 0)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, 1,
                            "starts with a byte-order mark, which SimGrid refuses (\"Unexpected "
                            "character in prolog\"): save the file as UTF-8 without one");
    while (s->p < s->end) {
        if (*s->p != '<') {
            skip_space(s);
            if (s->p >= s->end || *s->p == '<')
                continue;
            /* SimGrid's elements hold no text: it says "Unexpected character `h'" or, after
             * the root, "Flex returned an error code". Before the root it may be a file
             * that is no platform at all, which the end says. */
            /* But a <trace> holds its data inline (the DTD's one element of text:
             * "0.0 1.0\n30.0 0.5"), which SimGrid reads. */
            if (seen_root && depth > 0 && strcmp(stack[depth - 1], "trace") == 0) {
                for (; s->p < s->end && *s->p != '<'; s->p++)
                    s->line += *s->p == '\n';
                continue;
            }
            if (seen_root)
                return text_error(s, depth > 0 ? stack[depth - 1] : NULL);
            if (text_line == 0) {
                text_line = s->line;
                text = s->p;
            }
            s->p++;
            continue;
        }
        long line = s->line;
        if (s->end - s->p >= 4 && strncmp(s->p, "<!--", 4) == 0) {
            s->p += 4;
            if (skip_to(s, "-->", "a comment") != 0)
                return s->e->code;
            continue;
        }
        if (s->end - s->p >= 9 && strncmp(s->p, "<!DOCTYPE", 9) == 0) {
            const char *gt = memchr(s->p, '>', (size_t)(s->end - s->p));
            const char *sq = memchr(s->p, '[', (size_t)(s->end - s->p));
            if (sq != NULL && (gt == NULL || sq < gt))
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                    "<!DOCTYPE> with declarations in '[...]': SimGrid takes "
                                    "none, only <!DOCTYPE platform SYSTEM \"...\">");
        }
        if (s->end - s->p >= 2 && (s->p[1] == '?' || s->p[1] == '!')) {
            if (skip_to(s, ">", s->p[1] == '?' ? "'<?'" : "'<!'") != 0)
                return s->e->code;
            continue;
        }
        s->p++;
        int closing = s->p < s->end && *s->p == '/';
        s->p += closing;
        const char *n0 = s->p;
        while (s->p < s->end && is_name_char(*s->p))
            s->p++;
        size_t nlen = (size_t)(s->p - n0);
        if (nlen == 0)
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "expected an element name after '<'");
        if (nlen >= sizeof stack[0])
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "<%.*s%s>: not an element of SimGrid's platforms",
                                nlen > 40 ? 40 : (int)nlen, n0, nlen > 40 ? "..." : "");
        char elem[32];
        memcpy(elem, n0, nlen);
        elem[nlen] = '\0';
        if (closing) {
            skip_space(s);
            if (s->p >= s->end || *s->p != '>')
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, line, "'</%s' is never closed",
                                    elem);
            s->p++;
            if (depth == 0)
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                    "'</%s>' closes nothing", elem);
            if (strcmp(stack[depth - 1], elem) != 0)
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                    "'</%s>' closes <%s> of line %ld", elem, stack[depth - 1],
                                    opened[depth - 1]);
            depth--;
            continue;
        }
        if (!seen_root && strcmp(elem, "platform") != 0)
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "expected <platform>, found <%s>: not a SimGrid platform file",
                                elem);
        if (seen_root && depth == 0)
            return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                "<%s> after the end of <platform>", elem);
        if (!seen_root && text_line != 0) {
            s->p = text;
            s->line = text_line;
            return text_error(s, NULL);
        }
        seen_root = 1;
        attr a[32];
        int na = 0, empty = 0;
        int rc = read_attrs(s, elem, a, &na, &empty);
        if (rc == 0)
            rc = element(s, elem, a, na, line);
        attrs_free(a, na);
        if (rc != 0)
            return rc;
        if (!empty) {
            if (depth == MAX_DEPTH)
                return cf_error_set(s->e, CF_EXIT_DATA, s->path, line,
                                    "elements nested more than %d deep", MAX_DEPTH);
            strcpy(stack[depth], elem);
            opened[depth++] = line;
        }
    }
    if (depth > 0)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, opened[depth - 1],
                            "<%s> is never closed", stack[depth - 1]);
    /* Of the whole file, not of a line (it named the line after the last). */
    if (!seen_root)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, 0,
                            "no <platform> element: not a SimGrid platform file");
    if (s->pf->nhosts == 0)
        return cf_error_set(s->e, CF_EXIT_DATA, s->path, 0,
                            "declares no host (no <host> or <cluster> element)");
    return 0;
}

int cf_platform_read(const char *path, cf_platform *pf, cf_error *e)
{
    memset(pf, 0, sizeof *pf);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot open the platform: %s",
                            strerror(errno));
    /* fopen opens a folder on Linux; only the read fails, as an I/O error. */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return cf_error_set(e, CF_EXIT_DATA, path, 0,
                            "is a folder: name a SimGrid platform file (.xml)");
    }
    char *buf = malloc(PLATFORM_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, PLATFORM_MAX_BYTES + 1, f) : 0;
    int bad = buf == NULL ? ENOMEM : ferror(f) ? EIO : 0;
    fclose(f);
    if (bad) {
        free(buf);
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot read the platform: %s",
                            strerror(bad));
    }
    if (n > PLATFORM_MAX_BYTES) {
        free(buf);
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "larger than %ld MiB: not a platform file",
                            PLATFORM_MAX_BYTES >> 20);
    }
    const char *nul = memchr(buf, '\0', n);
    if (nul != NULL) {
        long line = 1;
        for (const char *c = buf; c < nul; c++)
            line += *c == '\n';
        free(buf);
        return cf_error_set(e, CF_EXIT_DATA, path, line, "a NUL byte: not a platform file");
    }
    scan s = {path, buf, buf + n, 1, e, pf, 0};
    int rc = parse(&s);
    free(buf);
    if (rc != 0)
        cf_platform_free(pf);
    return rc;
}

void cf_platform_free(cf_platform *pf)
{
    for (size_t i = 0; i < pf->nhosts; i++)
        free(pf->hosts[i].name);
    free(pf->hosts);
    memset(pf, 0, sizeof *pf);
}

int cf_platform_has(const cf_platform *pf, const char *name)
{
    for (size_t i = 0; i < pf->nhosts; i++)
        if (strcmp(pf->hosts[i].name, name) == 0)
            return 1;
    return 0;
}

int cf_platform_write_hostfile(const cf_platform *pf, long np, FILE *fp)
{
    long left = np;
    for (size_t i = 0; i < pf->nhosts && left > 0; i++)
        for (long c = 0; c < pf->hosts[i].cores && left > 0; c++, left--)
            if (fprintf(fp, "%s\n", pf->hosts[i].name) < 0)
                return -1;
    return 0;
}

int cf_platform_check_hostfile(const cf_platform *pf, const char *path, long np, FILE *unrolled,
                               cf_error *e)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot open the hostfile: %s",
                            strerror(errno));
    char line[1024];
    long lineno = 0, ranks = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            rc = cf_error_set(e, CF_EXIT_DATA, path, lineno, "line longer than %zu bytes",
                              sizeof line - 2);
            break;
        }
        line[strcspn(line, "#\r\n")] = '\0';
        char *h = line + strspn(line, " \t");
        char *rest = h + strcspn(h, " \t");
        if (*h == '\0')
            continue;
        /* One host a line (SimGrid's hostfile): a second word was dropped without a word
         * ("node-0 node-1 node-2" placed 1 rank). */
        if (rest[strspn(rest, " \t")] != '\0') {
            rc = cf_error_set(e, CF_EXIT_DATA, path, lineno,
                              "'%s': expected one HOST or HOST:RANKS a line", h);
            break;
        }
        *rest = '\0';
        long count = 1;
        char *colon = strchr(h, ':');
        if (colon != NULL) {
            *colon = '\0';
            char *end;
            errno = 0;
            count = strtol(colon + 1, &end, 10);
            /* At most the ranks a launch may have: their sum cannot overflow. */
            if (end == colon + 1 || *end != '\0' || errno != 0 || count < 1 ||
                count > CF_TABLE_NP_MAX) {
                rc = cf_error_set(e, CF_EXIT_DATA, path, lineno,
                                  "'%s:%s': expected HOST or HOST:RANKS, RANKS from 1 to %d",
                                  h, colon + 1, CF_TABLE_NP_MAX);
                break;
            }
        }
        if (!cf_platform_has(pf, h))
            rc = cf_error_set(e, CF_EXIT_DATA, path, lineno, "host '%s' is not in the platform",
                              h);
        for (long k = 0; rc == 0 && unrolled != NULL && k < count && ranks + k < np; k++)
            if (fprintf(unrolled, "%s\n", h) < 0)
                rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot write the hostfile: %s",
                                  strerror(errno));
        ranks = ranks > CF_TABLE_NP_MAX ? ranks : ranks + count;
    }
    if (rc == 0 && ferror(f))
        rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot read the hostfile");
    fclose(f);
    if (rc == 0 && ranks < np)
        rc = cf_error_set(e, CF_EXIT_USAGE, path, 0,
                          "the hostfile places %ld rank%s, fewer than the %ld to simulate", ranks,
                          ranks == 1 ? "" : "s", np);
    return rc;
}
