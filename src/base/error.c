/* Error records and the one place that formats messages for the user. */
#include "config.h"

#include "base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *current_sub = "";
static int quiet;

void cf_error_clear(cf_error *e)
{
    e->code = 0;
    e->file[0] = '\0';
    e->line = 0;
    e->msg[0] = '\0';
}

int cf_error_vset(cf_error *e, int code, const char *file, long line, const char *fmt, va_list ap)
{
    if (e == NULL)
        return code;
    e->code = code;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    return code;
}

int cf_error_set(cf_error *e, int code, const char *file, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cf_error_vset(e, code, file, line, fmt, ap);
    va_end(ap);
    return code;
}

void cf_set_subcommand(const char *name)
{
    current_sub = name ? name : "";
}

const char *cf_subcommand(void)
{
    return current_sub;
}

static void prefix(FILE *fp)
{
    if (current_sub[0] != '\0')
        fprintf(fp, "commfit: %s: ", current_sub);
    else
        fputs("commfit: ", fp);
}

/* Writes s with its control characters escaped ("\r", "\t", "\x01"): a message quotes
 * input, and a CR or an escape sequence from a file must not rewrite the terminal. */
static void put_escaped(const char *s, FILE *fp)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != 0x7f)
            fputc(c, fp);
        else if (c == '\r')
            fputs("\\r", fp);
        else if (c == '\t')
            fputs("\\t", fp);
        else if (c == '\n')
            fputs("\\n", fp);
        else
            fprintf(fp, "\\x%02x", c);
    }
}

int cf_error_report(const cf_error *e)
{
    prefix(stderr);
    if (e->file[0] != '\0') {
        put_escaped(e->file, stderr);
        if (e->line > 0)
            fprintf(stderr, ":%ld", e->line);
        fputs(": ", stderr);
    }
    put_escaped(e->msg, stderr);
    fputc('\n', stderr);
    return e->code ? e->code : CF_EXIT_DATA;
}

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
    char small[1024], *buf = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (buf = malloc((size_t)n + 1)) != NULL)
        vsnprintf(buf, (size_t)n + 1, fmt, again);
    va_end(again);
    prefix(stderr);
    fputs(tag, stderr);
    put_escaped(buf ? buf : small, stderr);
    fputc('\n', stderr);
    if (buf != small)
        free(buf);
}

void cf_set_quiet(int q)
{
    quiet = q;
}

int cf_quiet(void)
{
    return quiet;
}

void cf_msg(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

void cf_warn(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", fmt, ap);
    va_end(ap);
}

void cf_hint(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

int cf_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
    if (current_sub[0] != '\0')
        fprintf(stderr, "Try 'commfit %s --help'.\n", current_sub);
    else
        fputs("Try 'commfit --help'.\n", stderr);
    return CF_EXIT_USAGE;
}
