/* The SMPI calibration: a fitted ping-pong cost as chords that SimGrid's piecewise
 * latency and bandwidth factors carry, and the platform file that holds them. */
#include "config.h"

#include "export/smpi.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"

#define ENV ((double)CF_SMPI_ENVELOPE_BYTES)
#define INTERIOR 7 /* checked sizes inside a range, on each of two spacings */

/* The model's range clipped to what a threshold can name, and the work in progress. */
typedef struct build {
    const cf_fit *f;
    const char *file;
    cf_smpi_step *steps;
    unsigned char *level; /* per step: a level line, whose slope only keeps SMPI going */
    size_t n, cap;
    double max_err, max_err_bytes;
    size_t nchecked;
    cf_error *e;
} build;

static int model_t(build *b, double m, double *t)
{
    cf_prediction p;
    char size[32];
    cf_size_format((uint64_t)llround(m), size, sizeof size);
    if (cf_fit_predict(b->f, m, &p) != 0 || !isfinite(p.t_us) || p.t_us <= 0)
        return cf_error_set(b->e, CF_EXIT_DATA, b->file, 0,
                            "the %s fit of pingpong at np=2 gives no positive time at %s "
                            "(%.3g us): no platform can reproduce it",
                            b->f->model, size, p.t_us);
    /* Inside the fitted sizes no measured time is longer than a table holds: beyond it the
     * file's coefficients are out of range (hand-edited or corrupt), and the platform would
     * carry them (a latency of 5e19 us, or NaN from 1e200). */
    if (p.t_us > CF_TIME_MAX_US)
        return cf_error_set(b->e, CF_EXIT_DATA, b->file, 0,
                            "the %s fit of pingpong at np=2 gives %.3g us at %s, beyond the "
                            "%g us a table holds (its coefficients are out of range): no "
                            "platform from it",
                            b->f->model, p.t_us, size, CF_TIME_MAX_US);
    *t = p.t_us;
    return 0;
}

/* The line a + b * (m + 16) SMPI gives on (lo, hi]: the chord of the model there, unless
 * SimGrid cannot carry it (no negative latency, no infinite bandwidth). */
static void chord(double lo, double t_lo, double hi, double t_hi, double *a, double *b,
                  int *level)
{
    double s = (t_hi - t_lo) / (hi - lo);
    *level = 0;
    if (s > 0) {
        *b = s;
        *a = t_lo - s * (lo + ENV);
        if (*a >= 0)
            return;
        /* The chord crosses 0 above -16 bytes (a fit whose intercept is negative, as the
         * large-message segment of shared memory often is): the line through the origin
         * with the same relative error at both ends. Ranges split until it is close. */
        double r_lo = t_lo / (lo + ENV), r_hi = t_hi / (hi + ENV);
        *a = 0;
        *b = 2 * r_lo * r_hi / (r_lo + r_hi);
        return;
    }
    /* The model falls (or stays level) here: a level line with the same relative error
     * at both ends, and a slope that adds a millionth of it. */
    double c = 2 * t_lo * t_hi / (t_lo + t_hi);
    *level = 1;
    *b = 1e-6 * c / (hi + ENV);
    *a = c - *b * ((lo + hi) / 2 + ENV);
}

static int worst_at(build *bd, double x, double a, double b, double *worst, double *where)
{
    double t;
    if (model_t(bd, x, &t) != 0)
        return CF_EXIT_DATA;
    double err = fabs(a + b * (x + ENV) - t) / t;
    bd->nchecked++;
    if (err > *worst) {
        *worst = err;
        *where = x;
    }
    return 0;
}

/* The largest relative error of the line on (lo, hi] ([lo, hi] for the first range):
 * at both ends, and at evenly and geometrically spaced sizes between, whole bytes only (a
 * message has no fractional byte, and a fit that steps between two sizes a byte apart
 * would otherwise read its step as the error of a range that cannot be split). */
static int range_error(build *bd, double lo, double hi, int first, double a, double b,
                       double *worst, double *where)
{
    *worst = 0;
    *where = hi;
    if (worst_at(bd, hi, a, b, worst, where) != 0 ||
        (first && worst_at(bd, lo, a, b, worst, where) != 0))
        return CF_EXIT_DATA;
    for (int j = 1; j <= INTERIOR; j++) {
        double u = (double)j / (INTERIOR + 1);
        double even = round(lo + (hi - lo) * u), geo = lo > 0 ? round(lo * pow(hi / lo, u)) : lo;
        if ((even > lo && even < hi && worst_at(bd, even, a, b, worst, where) != 0) ||
            (geo > lo && geo < hi && worst_at(bd, geo, a, b, worst, where) != 0))
            return CF_EXIT_DATA;
    }
    return 0;
}

static int push(build *bd, uint64_t above, double a, double b, int level)
{
    if (bd->n == bd->cap) {
        size_t cap = bd->cap ? 2 * bd->cap : 32;
        cf_smpi_step *s = realloc(bd->steps, cap * sizeof *s);
        if (s == NULL)
            return cf_error_set(bd->e, CF_EXIT_DATA, NULL, 0, "out of memory");
        bd->steps = s;
        unsigned char *l = realloc(bd->level, cap);
        if (l == NULL)
            return cf_error_set(bd->e, CF_EXIT_DATA, NULL, 0, "out of memory");
        bd->level = l;
        bd->cap = cap;
    }
    bd->steps[bd->n] = (cf_smpi_step){above, a, b};
    bd->level[bd->n++] = (unsigned char)level;
    return 0;
}

/* Covers (lo, hi] with ranges, halving (in log scale above 0) while the chord misses. */
static int cover(build *bd, uint64_t lo, uint64_t hi, int first)
{
    double t_lo, t_hi, a, b, worst, where;
    int level;
    if (model_t(bd, (double)lo, &t_lo) != 0 || model_t(bd, (double)hi, &t_hi) != 0)
        return CF_EXIT_DATA;
    chord((double)lo, t_lo, (double)hi, t_hi, &a, &b, &level);
    if (hi - lo == 1 && !first && (level || a == 0)) {
        /* One size in the range, a step of the model between two segments: the chord's
         * fallbacks (a level line, or one through the origin) would split the step's
         * error between lo and hi, but only hi is in the range. The line through the
         * origin and hi. */
        level = 0;
        a = 0;
        b = t_hi / ((double)hi + ENV);
    }
    if (range_error(bd, (double)lo, (double)hi, first, a, b, &worst, &where) != 0)
        return CF_EXIT_DATA;
    if (worst > CF_SMPI_TOLERANCE && hi - lo > 1) {
        uint64_t mid = lo == 0 ? hi / 2 : (uint64_t)llround(sqrt((double)lo * (double)hi));
        if (mid <= lo)
            mid = lo + 1;
        if (mid >= hi)
            mid = hi - 1;
        int rc = cover(bd, lo, mid, first);
        return rc != 0 ? rc : cover(bd, mid, hi, 0);
    }
    if (bd->n >= CF_SMPI_STEPS_MAX)
        return cf_error_set(bd->e, CF_EXIT_DATA, bd->file, 0,
                            "the %s fit of pingpong at np=2 needs more than %d size ranges to "
                            "stay within %g%% of it",
                            bd->f->model, CF_SMPI_STEPS_MAX, 100 * CF_SMPI_TOLERANCE);
    if (worst > bd->max_err) {
        bd->max_err = worst;
        bd->max_err_bytes = where;
    }
    return push(bd, first ? 0 : lo, a, b, level);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int same(double x, double y)
{
    return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

/* The sizes every range starts and ends at: the model's bounds, its segments' measured
 * ends, and the powers of two between (the sizes commfit measures by default). */
static int nodes_of(const cf_fit *f, uint64_t lo, uint64_t hi, uint64_t **out, size_t *n)
{
    size_t cap = 2 + 2 * (size_t)f->nseg + 64, k = 0;
    uint64_t *v = malloc(cap * sizeof *v);
    if (v == NULL)
        return -1;
    v[k++] = lo;
    v[k++] = hi;
    for (int i = 0; i < f->nseg; i++) {
        uint64_t s[2] = {f->seg[i].from_bytes, f->seg[i].to_bytes};
        for (int j = 0; j < 2; j++)
            if (s[j] > lo && s[j] < hi)
                v[k++] = s[j];
    }
    for (uint64_t p = 1; p < hi && k < cap; p *= 2)
        if (p > lo)
            v[k++] = p;
    qsort(v, k, sizeof *v, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || v[i] != v[u - 1])
            v[u++] = v[i];
    *out = v;
    *n = u;
    return 0;
}

void cf_smpi_platform_clear(cf_smpi_platform *p)
{
    free(p->steps);
    memset(p, 0, sizeof *p);
}

int cf_smpi_calibrate(const cf_fit *f, const char *file, cf_smpi_platform *out, cf_error *e)
{
    memset(out, 0, sizeof *out);
    char from[32], most[32];
    cf_size_format(f->min_bytes, from, sizeof from);
    if (f->max_bytes <= f->min_bytes)
        return cf_error_set(e, CF_EXIT_DATA, file, 0,
                            "pingpong at np=2 was fitted at one size only (%s): a "
                            "platform needs a latency and a bandwidth; fit sizes that differ",
                            from);
    uint64_t top = (uint64_t)CF_SMPI_THRESHOLD_MAX - CF_SMPI_ENVELOPE_BYTES;
    uint64_t lo = f->min_bytes, hi = f->max_bytes;
    cf_size_format(top, most, sizeof most);
    if (lo >= top)
        return cf_error_set(e, CF_EXIT_DATA, file, 0,
                            "pingpong at np=2 was fitted from %s up, past the largest "
                            "size a SimGrid factor can name (%s)",
                            from, most);
    if (hi > top) {
        hi = top;
        out->clipped = 1;
    }
    uint64_t *nodes;
    size_t nn;
    if (nodes_of(f, lo, hi, &nodes, &nn) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    build bd = {.f = f, .file = file, .e = e};
    int rc = 0;
    for (size_t i = 0; i + 1 < nn && rc == 0; i++)
        rc = cover(&bd, nodes[i], nodes[i + 1], i == 0);
    free(nodes);
    if (rc != 0) {
        free(bd.steps);
        free(bd.level);
        return rc;
    }
    /* Ranges on one line (a segment of a piecewise fit, all of a linear one) are one. */
    size_t k = 0;
    for (size_t i = 0; i < bd.n; i++) {
        if (k > 0 && same(bd.steps[i].lat_us, bd.steps[k - 1].lat_us) &&
            same(bd.steps[i].us_per_byte, bd.steps[k - 1].us_per_byte))
            continue;
        bd.level[k] = bd.level[i];
        bd.steps[k++] = bd.steps[i];
    }
    /* The link's own latency and bandwidth: the first range's latency and the last
     * rising range's bandwidth, so that the factors read as corrections near 1. */
    out->lat_us = 0;
    for (size_t i = 0; i < k && out->lat_us <= 0; i++)
        out->lat_us = bd.steps[i].lat_us;
    double b = bd.steps[k - 1].us_per_byte;
    for (size_t i = k; i-- > 0;)
        if (!bd.level[i]) {
            b = bd.steps[i].us_per_byte;
            break;
        }
    free(bd.level);
    out->bw_Bps = 1e6 / b;
    out->steps = bd.steps;
    out->nsteps = k;
    out->min_bytes = lo;
    out->max_bytes = hi;
    out->max_rel_err = bd.max_err;
    out->max_err_bytes = bd.max_err_bytes;
    out->nchecked = bd.nchecked;
    cf_prediction far;
    out->beyond_rel_err = NAN;
    if (cf_fit_predict(f, 2.0 * (double)hi, &far) == 0 && far.t_us > 0)
        out->beyond_rel_err = (cf_smpi_time_us(out, 2.0 * (double)hi) - far.t_us) / far.t_us;
    return 0;
}

double cf_smpi_time_us(const cf_smpi_platform *p, double bytes)
{
    /* SimGrid's lookup: the last threshold below the simulated size; the first step's
     * threshold is 0, which every simulated size (16 bytes or more) is above. */
    size_t i = 0;
    while (i + 1 < p->nsteps && (double)p->steps[i + 1].above_bytes < bytes)
        i++;
    return p->steps[i].lat_us + p->steps[i].us_per_byte * (bytes + ENV);
}

static double threshold(const cf_smpi_platform *p, size_t i)
{
    return i == 0 ? 0.0 : (double)p->steps[i].above_bytes + ENV;
}

static int factors(const cf_smpi_platform *p, int lat, char *buf, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < p->nsteps; i++) {
        const cf_smpi_step *s = &p->steps[i];
        double v;
        if (lat)
            v = p->lat_us > 0 ? s->lat_us / p->lat_us : 1.0;
        else
            v = 1e6 / (p->bw_Bps * s->us_per_byte);
        int w = snprintf(buf + len, n - len, "%s%.0f:%.9g", i ? ";" : "", threshold(p, i), v);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return (int)len;
}

int cf_smpi_lat_factor(const cf_smpi_platform *p, char *buf, size_t n)
{
    return factors(p, 1, buf, n);
}

int cf_smpi_bw_factor(const cf_smpi_platform *p, char *buf, size_t n)
{
    return factors(p, 0, buf, n);
}

/* ---- The platform file ---- */

/* Text inside an XML comment: no "--" (nor a '-' that would end it), no control
 * characters. */
static void put_comment_text(FILE *fp, const char *s)
{
    char prev = ' ';
    for (; *s; s++) {
        char c = *s;
        if ((unsigned char)c < 0x20 && c != '\n')
            c = '?';
        if (c == '-' && (prev == '-' || s[1] == '\0'))
            fputc(' ', fp);
        fputc(c, fp);
        prev = c;
    }
}

/* A comment paragraph: "  " before each line; the text may hold newlines. */
static void para(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void para(FILE *fp, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *line = buf;
    while (line != NULL) {
        char *nl = strchr(line, '\n');
        if (nl != NULL)
            *nl = '\0';
        if (line[0] != '\0')
            fputs("  ", fp);
        put_comment_text(fp, line);
        fputc('\n', fp);
        line = nl ? nl + 1 : NULL;
    }
}

/* s's lines broken at spaces so that none is longer than width where a space allows. */
static void wrap(char *s, size_t width)
{
    char *line = s, *space = NULL;
    for (char *c = s; *c != '\0'; c++) {
        if (*c == '\n') {
            line = c + 1;
            space = NULL;
        } else if (*c == ' ') {
            if ((size_t)(c - line) > width && space != NULL) {
                *space = '\n';
                line = space + 1;
            }
            space = c;
        }
    }
    if (strlen(line) > width && space != NULL)
        *space = '\n';
}

static void write_comment(FILE *fp, const cf_smpi_platform *p, const cf_smpi_origin *o,
                          long nhosts)
{
    char lo[32], hi[32], at[32];
    cf_size_format(p->min_bytes, lo, sizeof lo);
    cf_size_format(p->max_bytes, hi, sizeof hi);
    cf_size_format((uint64_t)llround(p->max_err_bytes), at, sizeof at);
    const cf_smpi_step *first = &p->steps[0], *last = &p->steps[p->nsteps - 1];
    fputs("<!--\n", fp);
    para(fp, "SimGrid platform made by commfit %s (commfit export smpi) from the model\n"
             "file %s, fit %s,\n"
             "over %s to %s.",
         o->version, o->model_file, o->fit_what, lo, hi);
    if (o->tables != NULL)
        para(fp, "The model was fitted from %s%s%s%s.", o->tables, o->machine ? " (" : "",
             o->machine ? o->machine : "", o->machine ? ")" : "");
    if (o->pair_note != NULL) {
        char note[1024];
        snprintf(note, sizeof note, "\nNote: %s.", o->pair_note);
        wrap(note, 84);
        para(fp, "%s", note);
    }
    para(fp, "\nUse (SMPI of SimGrid 3.32), one rank per host:\n"
             "  seq -f 'node-%%g' 0 %ld > hostfile\n"
             "  smpirun -np 2 -platform FILE -hostfile hostfile ./app\n"
             "commfit's own measure runs on it with its simulate option: see\n"
             "commfit-export(1).",
         nhosts - 1);
    para(fp, "\nThe cluster: %ld single-core hosts, node-0 to node-%ld, each with a private\n"
             "full-duplex link (SPLITDUPLEX: up and down apart) of half the model's latency\n"
             "and its bandwidth, to a backbone that never limits (FATPIPE, no latency). A\n"
             "message between two hosts takes one link up and one down: it pays the latency\n"
             "once and the bandwidth once; hosts contend only on their own links. Two ranks\n"
             "on one host use the loopback, set to the same latency and bandwidth.",
         nhosts, nhosts - 1);
    para(fp, "\nThe model's cost is in smpi/lat-factor and smpi/bw-factor: on each size range\n"
             "SMPI's one-way time, latency * lat-factor + (m + %d) / (bandwidth * bw-factor),\n"
             "is a chord of the model. SMPI adds a %d-byte envelope to every message and\n"
             "looks the factors up at that size, a threshold S applying above S: a range\n"
             "from m bytes up has the threshold m + %d. Over %s to %s the ping-pong on this\n"
             "platform is within %.2f%% of the model (largest at %s, %zu sizes checked).",
         CF_SMPI_ENVELOPE_BYTES, CF_SMPI_ENVELOPE_BYTES, CF_SMPI_ENVELOPE_BYTES, lo, hi,
         100 * p->max_rel_err, at, p->nchecked);
    char below[256] = "";
    if (p->min_bytes > 0)
        snprintf(below, sizeof below,
                 "\nBelow %s, the first range's line: %.6g us + (m + %d B) / %.6g MB/s.", lo,
                 first->lat_us, CF_SMPI_ENVELOPE_BYTES, 1.0 / first->us_per_byte);
    char far[160] = "", twice[32];
    if (isfinite(p->beyond_rel_err)) {
        cf_size_format(2 * p->max_bytes, twice, sizeof twice);
        snprintf(far, sizeof far,
                 "\nAt %s SMPI gives %+.1f%% against the model's own extrapolation (what\n"
                 "commfit predict answers with its model-alone option).",
                 twice, 100 * p->beyond_rel_err);
    }
    para(fp, "\nOutside that range the factors of the nearest range continue. Above %s,\n"
             "T(m) = %.6g us + (m + %d B) / %.6g MB/s: the last range's line, with no\n"
             "further protocol change.%s%s%s",
         hi, last->lat_us, CF_SMPI_ENVELOPE_BYTES, 1.0 / last->us_per_byte, far, below,
         p->clipped ? "\nThe model reaches past 2 GiB, the largest size a factor can name: "
                      "its last factors continue there too."
                    : "");
    para(fp, "\nAlso set: network/TCP-gamma 0 lifts SimGrid's TCP window bound (gamma over\n"
             "twice the latency), which would cap the bandwidth of a high-latency link; the\n"
             "loopback's bandwidth is 5%% above the link's because SimGrid's cross-traffic\n"
             "(network/crosstraffic, on by default) puts 5%% of a message on its reverse\n"
             "path, which on the loopback is the same link (on the hosts' links it is the\n"
             "other direction). smpi/os, smpi/or and smpi/ois (send and receive overheads)\n"
             "stay at SimGrid's 0: the measured times hold them already. Host speed:\n"
             "%s.",
         o->speed_note);
    fputs("-->\n", fp);
}

int cf_smpi_write(FILE *fp, const cf_smpi_platform *p, const cf_smpi_origin *o, long nhosts,
                  cf_error *e)
{
    size_t cap = 48 * p->nsteps + 64;
    char *lat = malloc(cap), *bw = malloc(cap);
    if (lat == NULL || bw == NULL || cf_smpi_lat_factor(p, lat, cap) < 0 ||
        cf_smpi_bw_factor(p, bw, cap) < 0) {
        free(lat);
        free(bw);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n",
          fp);
    write_comment(fp, p, o, nhosts);
    fprintf(fp,
            "<platform version=\"4.1\">\n"
            "  <config>\n"
            "    <prop id=\"network/model\" value=\"SMPI\"/>\n"
            "    <prop id=\"smpi/lat-factor\" value=\"%s\"/>\n"
            "    <prop id=\"smpi/bw-factor\" value=\"%s\"/>\n"
            "    <prop id=\"network/TCP-gamma\" value=\"0\"/>\n"
            "    <prop id=\"network/loopback-lat\" value=\"%.9g\"/>\n"
            "    <prop id=\"network/loopback-bw\" value=\"%.9g\"/>\n"
            "  </config>\n",
            lat, bw, p->lat_us * 1e-6, p->bw_Bps * 1.05);
    char speed[48];
    if (o->speed_flops > 0)
        snprintf(speed, sizeof speed, "%.6gf", o->speed_flops);
    else
        snprintf(speed, sizeof speed, "1Gf");
    fprintf(fp,
            "  <cluster id=\"commfit\" prefix=\"node-\" suffix=\"\" radical=\"0-%ld\" "
            "speed=\"%s\" core=\"1\"\n"
            "           bw=\"%.9gBps\" lat=\"%.9gus\" sharing_policy=\"SPLITDUPLEX\"\n"
            "           bb_bw=\"%.9gBps\" bb_lat=\"0us\" bb_sharing_policy=\"FATPIPE\"/>\n"
            "</platform>\n",
            nhosts - 1, speed, p->bw_Bps, p->lat_us / 2, p->bw_Bps);
    free(lat);
    free(bw);
    return 0;
}
