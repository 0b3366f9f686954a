/* Error records and the one place that formats messages for the user. */
#include "config.h"

#include "base/error.h"

#include <stdio.h>
#include <string.h>

static const char *current_sub = "";

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

int cf_error_report(const cf_error *e)
{
    prefix(stderr);
    if (e->file[0] != '\0' && e->line > 0)
        fprintf(stderr, "%s:%ld: ", e->file, e->line);
    else if (e->file[0] != '\0')
        fprintf(stderr, "%s: ", e->file);
    fprintf(stderr, "%s\n", e->msg);
    return e->code ? e->code : CF_EXIT_DATA;
}

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
    prefix(stderr);
    fputs(tag, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cf_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

void cf_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", fmt, ap);
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
