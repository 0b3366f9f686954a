/* Error records: lower layers fill one and return; the subcommand decides what the user
 * sees. Also the exit codes and the "commfit: SUBCOMMAND:" message prefix. */
#ifndef CF_ERROR_H
#define CF_ERROR_H

#include <stdarg.h>

enum {
    CF_EXIT_OK = 0,
    CF_EXIT_DATA = 1,  /* runtime or data error */
    CF_EXIT_USAGE = 2, /* bad command line */
};

typedef struct cf_error {
    int code;       /* 0 when no error, else CF_EXIT_DATA or CF_EXIT_USAGE */
    char file[512]; /* input the error is about, "" when none */
    long line;      /* 1-based line in file, 0 when none */
    char msg[768];
} cf_error;

void cf_error_clear(cf_error *e);

/* Fills e (if not NULL) and returns code, so callers can `return cf_error_set(...)`. */
int cf_error_set(cf_error *e, int code, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int cf_error_vset(cf_error *e, int code, const char *file, long line, const char *fmt,
                  va_list ap) __attribute__((format(printf, 5, 0)));

/* The subcommand name used in messages ("fit"); NULL or "" for the top level. */
void cf_set_subcommand(const char *name);
const char *cf_subcommand(void);

/* "commfit: SUB: file:line: msg" on stderr; returns e->code. */
int cf_error_report(const cf_error *e);

/* With quiet set (-q), cf_msg and cf_warn print nothing; errors and cf_hint still do. */
void cf_set_quiet(int quiet);
int cf_quiet(void);

/* "commfit: SUB: ..." on stderr. */
void cf_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cf_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What to do about an error just reported: printed even with quiet set. */
void cf_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints the message and returns CF_EXIT_USAGE, with a hint to --help. */
int cf_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
