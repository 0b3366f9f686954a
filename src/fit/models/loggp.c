/* loggp: LogGP parameters L, o_s, o_r, g, G estimated as Netgauge and Kielmann's PLogP
 * do, from the ping-pong round trip and three experiments of measure: loggp_os (time in
 * MPI_Send), loggp_or (time in MPI_Recv of a message already there), loggp_gap (time
 * per message in a burst). Then T(m) = L + o_s + o_r + G*m. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/model.h"

static const char *const names[] = {"L_us",          "o_s_us",          "o_r_us",         "g_us",
                                    "G_us_per_byte", "o_s_us_per_byte", "o_r_us_per_byte"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_ONE,  CF_TERM_ONE, CF_TERM_NONE,
                                CF_TERM_M,   CF_TERM_NONE, CF_TERM_NONE};
enum { P_L, P_OS, P_OR, P_G, P_BIGG, P_OS1, P_OR1, NPAR };

/* A straight line through some rows: coefficients and their covariance. */
typedef struct line {
    double c[2], cov[2][2];
    int n;
} line;

static int cmp_row(const void *a, const void *b)
{
    const cf_row *x = *(const cf_row *const *)a, *y = *(const cf_row *const *)b;
    return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* part: 0 every size, -1 the smaller half of the distinct sizes, +1 the larger half
 * (each at least 3 sizes when there are that many). */
static int fit_line(const cf_fit_input *in, const cf_row *const *rows, size_t n, int part,
                    size_t skip, const char *what, line *out, cf_error *e)
{
    size_t K = 0;
    for (size_t i = 0; i < n; i++)
        K += i == 0 || rows[i]->bytes != rows[i - 1]->bytes;
    size_t half = K / 2 + 1 > 3 ? K / 2 + 1 : 3, lo = 0, hi = n, k = 0;
    if (part != 0 && K > half) {
        for (size_t i = 0; i < n; i++) {
            k += i == 0 || rows[i]->bytes != rows[i - 1]->bytes;
            if (part < 0 && k == half + 1 && hi == n)
                hi = i;
            if (part > 0 && k == K - half + 1 && lo == 0)
                lo = i;
        }
    }
    double *X = malloc(2 * n * sizeof *X), *y = malloc(n * sizeof *y), *sd = malloc(n * sizeof *sd);
    if (!X || !y || !sd) {
        free(X);
        free(y);
        free(sd);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    size_t m = 0;
    for (size_t i = lo; i < hi; i++) {
        if (i == skip)
            continue;
        X[2 * m] = 1;
        X[2 * m + 1] = (double)rows[i]->bytes;
        y[m] = cf_row_time(rows[i], in->stat);
        sd[m] = cf_row_se_us(rows[i]);
        m++;
    }
    cf_lsq L;
    int rc = cf_lsq_run(X, y, sd, m, 2, in->weights, in->robust && skip == (size_t)-1, what, &L, e);
    if (rc == 0) {
        memcpy(out->c, L.coef, sizeof out->c);
        for (int j = 0; j < 2; j++)
            for (int l = 0; l < 2; l++)
                out->cov[j][l] = L.cov[j][l];
        out->n = L.nkept;
        cf_lsq_free(&L);
    }
    free(X);
    free(y);
    free(sd);
    return rc;
}

/* The rows of one experiment (np 2, datatype byte), sorted by size. */
static const cf_row **experiment(const cf_fit_input *in, const char *pattern, size_t *n)
{
    const cf_row **v = malloc((in->nall + 1) * sizeof *v);
    *n = 0;
    if (v == NULL)
        return NULL;
    for (size_t i = 0; i < in->nall; i++) {
        const cf_row *r = in->all[i];
        if (strcmp(r->pattern, pattern) == 0 && r->np == 2 && strcmp(r->datatype, "byte") == 0)
            v[(*n)++] = r;
    }
    qsort(v, *n, sizeof *v, cmp_row);
    return v;
}

/* The six lines loggp is made of: the three experiments, the gap's large sizes and the
 * ping-pong's small sizes and all of them. */
typedef struct lines {
    line os, orr, g0, gup, pp0, ppall;
} lines;

static const char *const pats[] = {"loggp_os", "loggp_or", "loggp_gap"};

/* Reads the experiments' rows (ex, freed by the caller) and fits the six lines. */
static int fit_lines(const cf_fit_input *in, const cf_row **ex[3], size_t nex[3], lines *ls,
                     cf_error *e)
{
    int rc = 0;
    char what[160];
    for (int k = 0; k < 3 && rc == 0; k++) {
        ex[k] = experiment(in, pats[k], &nex[k]);
        if (ex[k] == NULL)
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        else if (nex[k] == 0)
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                              "%s: loggp needs the '%s' rows of commfit measure (np 2, byte): "
                              "the input has none",
                              in->what, pats[k]);
    }
#define LINE(rows, n, part, name, out)                                                             \
    (snprintf(what, sizeof what, "%s: loggp: %s", in->what, name),                                 \
     fit_line(in, rows, n, part, (size_t)-1, what, out, e))
    if (rc == 0)
        rc = LINE(ex[0], nex[0], 0, "loggp_os", &ls->os);
    if (rc == 0)
        rc = LINE(ex[1], nex[1], 0, "loggp_or", &ls->orr);
    if (rc == 0)
        rc = LINE(ex[2], nex[2], 0, "loggp_gap", &ls->g0);
    if (rc == 0)
        rc = LINE(ex[2], nex[2], 1, "loggp_gap (large sizes)", &ls->gup);
    if (rc == 0)
        rc = LINE(in->rows, in->n, -1, "pingpong (small sizes)", &ls->pp0);
    if (rc == 0)
        rc = LINE(in->rows, in->n, 0, "pingpong", &ls->ppall);
#undef LINE
    return rc;
}

/* T0, the ping-pong at size 0, measured as PLogP does: the rows at the smallest size m0
 * (less G*m when that is not 0), with the variance of their mean when the table has
 * intervals, else that of the intercept of the small sizes' line. */
static void size0(const cf_fit_input *in, const lines *ls, double *T0_out, double *T0_var_out)
{
    double T0 = 0, T0_var = 0;
    size_t n0 = 0;
    uint64_t m0 = in->rows[0]->bytes;
    for (size_t i = 0; i < in->n && in->rows[i]->bytes == m0; i++, n0++) {
        double sd = cf_row_se_us(in->rows[i]);
        T0 += cf_row_time(in->rows[i], in->stat);
        T0_var = isfinite(sd) && isfinite(T0_var) ? T0_var + sd * sd : NAN;
    }
    *T0_out = T0 / (double)n0 - ls->gup.c[1] * (double)m0;
    *T0_var_out = isfinite(T0_var) && T0_var > 0 ? T0_var / (double)(n0 * n0) : ls->pp0.cov[0][0];
}

/* The parameters and their covariance from the independent estimates z = (T0, os0, os1,
 * or0, or1, g0, G): they are linear in them, L = T0 - os0 - or0. */
static void parameters(const lines *ls, double T0, double T0_var, cf_fit *out)
{
    enum { Z_T0, Z_OS0, Z_OS1, Z_OR0, Z_OR1, Z_G0, Z_G, NZ };
    const line *os = &ls->os, *orr = &ls->orr;
    double z[NZ] = {T0, os->c[0], os->c[1], orr->c[0], orr->c[1], ls->g0.c[0], ls->gup.c[1]};
    double Cz[NZ][NZ];
    memset(Cz, 0, sizeof Cz);
    Cz[Z_T0][Z_T0] = T0_var;
    Cz[Z_OS0][Z_OS0] = os->cov[0][0];
    Cz[Z_OS0][Z_OS1] = Cz[Z_OS1][Z_OS0] = os->cov[0][1];
    Cz[Z_OS1][Z_OS1] = os->cov[1][1];
    Cz[Z_OR0][Z_OR0] = orr->cov[0][0];
    Cz[Z_OR0][Z_OR1] = Cz[Z_OR1][Z_OR0] = orr->cov[0][1];
    Cz[Z_OR1][Z_OR1] = orr->cov[1][1];
    Cz[Z_G0][Z_G0] = ls->g0.cov[0][0];
    Cz[Z_G][Z_G] = ls->gup.cov[1][1];
    double J[NPAR][NZ];
    memset(J, 0, sizeof J);
    J[P_L][Z_T0] = 1;
    J[P_L][Z_OS0] = -1;
    J[P_L][Z_OR0] = -1;
    J[P_OS][Z_OS0] = 1;
    J[P_OR][Z_OR0] = 1;
    J[P_G][Z_G0] = 1;
    J[P_BIGG][Z_G] = 1;
    J[P_OS1][Z_OS1] = 1;
    J[P_OR1][Z_OR1] = 1;

    snprintf(out->model, sizeof out->model, "loggp");
    out->kind = &cf_model_loggp;
    out->ncoef = NPAR;
    for (int j = 0; j < NPAR; j++)
        snprintf(out->coef_names[j], CF_COEF_NAME_MAX, "%s", names[j]);
    out->nseg = 1;
    cf_segment *s = &out->seg[0];
    s->from_bytes = out->min_bytes;
    s->to_bytes = out->max_bytes;
    for (int j = 0; j < NPAR; j++) {
        s->coef[j] = 0;
        for (int a = 0; a < NZ; a++)
            s->coef[j] += J[j][a] * z[a];
        for (int l = 0; l < NPAR; l++) {
            double v = 0;
            for (int a = 0; a < NZ; a++)
                for (int b = 0; b < NZ; b++)
                    v += J[j][a] * Cz[a][b] * J[l][b];
            s->cov[j][l] = v;
        }
    }
}

/* Quality against the ping-pong rows of T(m) = T0c + G*m. Leaving out a point at the
 * smallest size, T0 comes from the line through the small sizes without it. */
static int quality(const cf_fit_input *in, double T0c, double sum_o, double G, cf_fit *out,
                   cf_error *e)
{
    size_t n = in->n;
    uint64_t m0 = in->rows[0]->bytes;
    double *y = malloc(n * sizeof *y);
    if (y == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    char what[160];
    snprintf(what, sizeof what, "%s: loggp", in->what);
    double rrss = 0, sum_loo = 0, max_rel = 0, sw = 0, swy = 0, tss = 0;
    for (size_t i = 0; i < n; i++) {
        double m = (double)in->rows[i]->bytes;
        y[i] = cf_row_time(in->rows[i], in->stat);
        double f = T0c + G * m, rel = (y[i] - f) / f;
        rrss += rel * rel;
        if (fabs(rel) > max_rel)
            max_rel = fabs(rel);
        sw += 1 / (f * f);
        swy += y[i] / (f * f);
        line l1;
        cf_error e2;
        double f_loo = f;
        if (in->rows[i]->bytes == m0 && fit_line(in, in->rows, n, -1, i, what, &l1, &e2) == 0)
            f_loo = fmax(l1.c[0], sum_o) + G * m;
        sum_loo += fabs(y[i] - f_loo) / y[i];
    }
    for (size_t i = 0; i < n; i++) {
        double f = T0c + G * (double)in->rows[i]->bytes, d = (y[i] - swy / sw) / f;
        tss += d * d;
    }
    free(y);
    int dof = (int)n - 2;
    if (dof < 1)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: %zu pingpong points: loggp needs at least 3", in->what, n);
    out->s2 = rrss / dof;
    out->dof = dof;
    out->q.n = (int)n;
    out->q.dof = dof;
    out->q.loo_mape = sum_loo / (double)n;
    out->q.max_rel_err = max_rel;
    out->q.r2 = tss > 0 ? 1 - rrss / tss : 1;
    out->q.aicc = cf_aicc(rrss, n, 3); /* alpha, beta and the residual variance */
    return 0;
}

/* The checks PLogP's definitions imply. */
static void check(const lines *ls, double G, cf_fit *out)
{
    const cf_segment *s = &out->seg[0];
    double L = s->coef[P_L], o_s = s->coef[P_OS], o_r = s->coef[P_OR], g = s->coef[P_G];
    if (g < o_s)
        cf_fit_warn(out,
                    "g (%.3g us) < o_s (%.3g us): a sender cannot start messages faster "
                    "than its own overhead",
                    g, o_s);
    double sum = o_s + L + o_r, alpha = ls->ppall.c[0];
    if (fabs(alpha - sum) > 0.25 * fabs(sum))
        cf_fit_warn(out, "alpha of the Hockney fit (%.3g us) is far from o_s + L + o_r (%.3g us)",
                    alpha, sum);
    if (!(G > 0))
        cf_fit_warn(out,
                    "G (%.3g us/byte) is not positive: the burst times do not grow with "
                    "size",
                    G);
}

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    const cf_row **ex[3] = {NULL, NULL, NULL};
    size_t nex[3] = {0, 0, 0};
    lines ls;
    if (strcmp(in->rows[0]->pattern, "pingpong") != 0 || in->rows[0]->np != 2)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: loggp is estimated for pingpong at np 2 only", in->what);
    int rc = fit_lines(in, ex, nex, &ls, e);
    if (rc == 0) {
        double T0, T0_var;
        uint64_t m0 = in->rows[0]->bytes;
        size0(in, &ls, &T0, &T0_var);
        parameters(&ls, T0, T0_var, out);
        /* On shared memory o_s and o_r include the copies, and can exceed the half round
         * trip: L would come out negative. No latency is below 0: L is clamped there, and
         * the fit says so with the numbers that contradict each other. Then T(m) = o_s +
         * o_r + G*m lies above the ping-pong, and its quality says by how much. */
        cf_segment *s = &out->seg[0];
        double sum_o = s->coef[P_OS] + s->coef[P_OR], G = ls.gup.c[1];
        if (s->coef[P_L] < 0) {
            cf_fit_warn(out,
                        "L = %.3g us clamped to 0: o_s + o_r (%.3g us) exceed the ping-pong's "
                        "half round trip at %llu B (%.3g us); on shared memory the overheads "
                        "include the copies",
                        s->coef[P_L], sum_o, (unsigned long long)m0, T0 + G * (double)m0);
            s->coef[P_L] = 0;
        }
        rc = quality(in, fmax(T0, sum_o), sum_o, G, out, e); /* L + o_s + o_r, L clamped */
        if (rc == 0)
            check(&ls, G, out);
    }
    for (int k = 0; k < 3; k++)
        free(ex[k]);
    return rc;
}

static void describe(const cf_fit *f, char *buf, size_t n)
{
    const double *c = f->seg[0].coef;
    snprintf(buf, n, "L = %.3g us, o_s = %.3g us, o_r = %.3g us, g = %.3g us, G = %.3g us/B",
             c[P_L], c[P_OS], c[P_OR], c[P_G], c[P_BIGG]);
}

const cf_model_kind cf_model_loggp = {
    .name = "loggp",
    .summary = "LogGP (PLogP-style): T(m) = L + o_s + o_r + G*m",
    .ncoef = NPAR,
    .coef_names = names,
    .terms = terms,
    .max_segments = 1,
    .min_sizes = 3,
    .auto_candidate = 0,
    .fit = fit,
    .describe = describe,
};
