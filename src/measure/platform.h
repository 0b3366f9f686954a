/* SimGrid platform files as commfit measure --simulate needs them: the hosts a platform
 * declares (with their cores), in order, and the hostfile that places one rank per core.
 * This is not SimGrid's parser: it checks the XML's shape with line numbers, so that a bad
 * file gets a message naming its line before the simulator starts, and it reads the hosts
 * of <host> and <cluster> elements. */
#ifndef CF_PLATFORM_H
#define CF_PLATFORM_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

typedef struct cf_sim_host {
    char *name;
    long cores;
} cf_sim_host;

typedef struct cf_platform {
    cf_sim_host *hosts;
    size_t nhosts;
    long cores; /* all hosts together */
} cf_platform;

/* Reads the hosts of a platform file. Errors name the file and line (exit 1). */
int cf_platform_read(const char *path, cf_platform *pf, cf_error *e);
void cf_platform_free(cf_platform *pf);

/* Whether the platform declares a host of that name. */
int cf_platform_has(const cf_platform *pf, const char *name);

/* Writes np lines, one rank per core, hosts in the platform's order, to fp. The caller has
 * checked np <= pf->cores. */
int cf_platform_write_hostfile(const cf_platform *pf, long np, FILE *fp);

/* Checks a user's hostfile (lines "host" or "host:N", '#' comments, blank lines) against
 * the platform: every host declared there, at least np ranks listed. Errors name the file
 * and line. When unrolled is not NULL, writes there the first np ranks' hosts, one a line,
 * as smpirun reads them (it knows no comments). */
int cf_platform_check_hostfile(const cf_platform *pf, const char *path, long np, FILE *unrolled,
                               cf_error *e);

#endif
