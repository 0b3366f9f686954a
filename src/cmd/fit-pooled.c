/* Tables fitted together are pooled as replicates of one machine: their rows at a point
 * make one fit. Where two tables share a fitted group (pattern, np, datatype) and were
 * measured differently (another MPI library, another algorithm selection, another simulated
 * platform, one simulated and one real) or their times disagree at the points both measured,
 * the pool is of different machines, and fit says so before fitting it. */
#include "config.h"

#include "cmd/fit-pooled.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/stats.h"
#include "base/size.h"

/* Times of two runs of one machine part by 2x at single points (three OSU runs of AWS at
 * one np), but their median ratio over the points both measured stays within 13% (the runs
 * of each set of data/realnp: AWS EKS x1.128 at most, GKE x1.080, GCE x1.011, Azure
 * x1.007); tables of two machines part by 1.5x or more in the median (juno's Ethernet and
 * hpccofc's InfiniBand ping-pong x91.8; SMPI's flat and cloud platforms x2.92). */
#define POOL_APART 1.5
#define POOL_MIN_SHARED 3

/* Metadata that says how a table was measured, as a machine's model depends on it. */
static const char *const keys[] = {"mpi_library", "coll_selector", "simulated",
                                   "platform_sha256"};

typedef struct point {
    const cf_row *r;
    double t;
} point;

static int cmp_point(const void *a, const void *b)
{
    return cf_row_cmp(((const point *)a)->r, ((const point *)b)->r);
}

/* The fitted rows of table t (rows[k] with tab[k] == t) with a time, sorted by point; how
 * many into *n. NULL when out of memory. */
static point *points_of(const cf_row *const *rows, const size_t *tab, size_t nrows, size_t t,
                        cf_statistic stat, size_t *n)
{
    point *p = malloc((nrows + 1) * sizeof *p);
    *n = 0;
    if (p == NULL)
        return NULL;
    for (size_t i = 0; i < nrows; i++) {
        double v = tab[i] == t ? cf_row_time(rows[i], stat) : NAN;
        if (v > 0 && isfinite(v))
            p[(*n)++] = (point){rows[i], v};
    }
    qsort(p, *n, sizeof *p, cmp_point);
    return p;
}

/* Whether a and b hold a fit group in common (pattern, np, datatype): only then are rows of
 * both pooled in one fit. */
static int share_group(const point *a, size_t na, const point *b, size_t nb)
{
    size_t i = 0, k = 0;
    while (i < na && k < nb) {
        int c = cf_row_cmp_group(a[i].r, b[k].r);
        if (c == 0)
            return 1;
        if (c < 0)
            i++;
        else
            k++;
    }
    return 0;
}

/* An MPI library's name as a family and version ("MPICH 4.0.2", "Open MPI 4.1.4", "SMPI
 * 3.32"), from the text a measure writes ("MPICH Version:\t4.0.2 MPICH Release date: ...")
 * or an import records ("MPICH Version: 4.0.2", "Open MPI v4.1.6"): the family is what
 * precedes the first digit, less "Version:", "v" and blanks; the version, the digits and
 * dots from there. The text itself where it has no digit. */
static void library_of(const char *v, char *buf, size_t n)
{
    const char *d = v;
    while (*d != '\0' && !(*d >= '0' && *d <= '9'))
        d++;
    if (*d == '\0') {
        snprintf(buf, n, "%.60s", v);
        return;
    }
    size_t fam = (size_t)(d - v);
    static const char *const drop[] = {"Version:", "Version", "v"};
    for (int again = 1; again;) {
        again = 0;
        while (fam > 0 && (v[fam - 1] == ' ' || v[fam - 1] == '\t'))
            fam--, again = 1;
        for (size_t k = 0; k < sizeof drop / sizeof *drop; k++) {
            size_t l = strlen(drop[k]);
            if (fam >= l && strncmp(v + fam - l, drop[k], l) == 0 &&
                (fam == l || v[fam - l - 1] == ' ' || v[fam - l - 1] == '\t')) {
                fam -= l;
                again = 1;
            }
        }
    }
    size_t ver = strspn(d, "0123456789.");
    while (ver > 0 && d[ver - 1] == '.')
        ver--;
    snprintf(buf, n, "%.*s%s%.*s", (int)(fam < 40 ? fam : 40), v, fam ? " " : "",
             (int)(ver < 20 ? ver : 20), d);
}

/* The metadata of a and b that differ where both have it: said, one line a key. */
static void meta_apart(const cf_table *a, const char *na, const cf_table *b, const char *nb)
{
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const char *va = cf_table_meta_get(a, keys[k]), *vb = cf_table_meta_get(b, keys[k]);
        if (va == NULL || vb == NULL || strcmp(va, vb) == 0)
            continue;
        /* One library as measure and an import name it: by family and version. */
        char la[96], lb[96];
        int lib = strcmp(keys[k], "mpi_library") == 0;
        if (lib) {
            library_of(va, la, sizeof la);
            library_of(vb, lb, sizeof lb);
            if (strcmp(la, lb) == 0)
                continue;
            va = la;
            vb = lb;
        }
        /* a platform by its name, its hash cut to what tells two apart */
        int plat = strcmp(keys[k], "platform_sha256") == 0;
        const char *pa = plat ? cf_table_meta_get(a, "platform") : NULL,
                   *pb = plat ? cf_table_meta_get(b, "platform") : NULL;
        char sa[96], sb[96];
        snprintf(sa, sizeof sa, plat ? "%.12s...%s%.40s" : "%.60s", va, pa ? " of " : "",
                 pa ? pa : "");
        snprintf(sb, sizeof sb, plat ? "%.12s...%s%.40s" : "%.60s", vb, pb ? " of " : "",
                 pb ? pb : "");
        cf_warn("%s and %s were measured differently (%s '%s' and '%s'): fit pools their "
                "rows as replicates of one machine%s; fit them apart unless they are",
                na, nb, keys[k], sa, sb,
                strcmp(keys[k], "mpi_library") == 0 || strcmp(keys[k], "coll_selector") == 0
                    ? ", and reads the algorithm switches of the first"
                    : "");
    }
}

/* The median ratio of b's times to a's over the points both measured, said where it is
 * POOL_APART or more either way, with the point that parts most. */
static int times_apart(const point *pa, size_t na, const char *name_a, const point *pb,
                       size_t nb, const char *name_b)
{
    double *lr = malloc((na < nb ? na : nb) * sizeof *lr + 1);
    if (lr == NULL)
        return -1;
    size_t n = 0, i = 0, k = 0;
    const cf_row *worst_a = NULL;
    double worst = 0, ta = 0, tb = 0;
    while (i < na && k < nb) {
        int c = cmp_point(&pa[i], &pb[k]);
        if (c < 0) {
            i++;
        } else if (c > 0) {
            k++;
        } else {
            /* replicates within a table: each table's first row at the point */
            double l = log(pb[k].t / pa[i].t);
            lr[n++] = l;
            if (fabs(l) > fabs(worst)) {
                worst = l;
                worst_a = pa[i].r;
                ta = pa[i].t;
                tb = pb[k].t;
            }
            const cf_row *r = pa[i].r;
            while (i < na && cmp_point(&pa[i], &(point){r, 0}) == 0)
                i++;
            while (k < nb && cmp_point(&pb[k], &(point){r, 0}) == 0)
                k++;
        }
    }
    if (n >= POOL_MIN_SHARED) {
        double med = cf_stats_median(lr, n);
        if (fabs(med) >= log(POOL_APART)) {
            char sz[32];
            cf_size_format(worst_a->bytes, sz, sizeof sz);
            cf_warn("%s and %s part by x%.3g in the median over the %zu points both measured "
                    "(%s the slower; most at %s np %d %s: %.4g and %.4g us): tables of "
                    "different machines, or of one in different states? fit pools their rows "
                    "as replicates of one; fit them apart unless they are",
                    name_a, name_b, exp(fabs(med)), n, med > 0 ? name_b : name_a,
                    worst_a->pattern, worst_a->np, sz, ta, tb);
        }
    }
    free(lr);
    return 0;
}

int cf_fit_pooled_check(cf_table *const *tables, const char *const *names, size_t n,
                        const cf_row *const *rows, const size_t *tab, size_t nrows,
                        cf_statistic stat)
{
    if (n < 2)
        return 0;
    size_t n0;
    point *p0 = points_of(rows, tab, nrows, 0, stat, &n0);
    if (p0 == NULL)
        return -1;
    int rc = 0;
    for (size_t i = 1; i < n && rc == 0; i++) {
        size_t ni;
        point *pi = points_of(rows, tab, nrows, i, stat, &ni);
        if (pi == NULL) {
            rc = -1;
        } else if (share_group(p0, n0, pi, ni)) {
            meta_apart(tables[0], names[0], tables[i], names[i]);
            rc = times_apart(p0, n0, names[0], pi, ni, names[i]);
        }
        free(pi);
    }
    free(p0);
    return rc;
}
