/* commfit report: the report folder (filled in a temporary folder, renamed into place,
 * removed again on failure or a signal) and the order in which its files are made. */
#include "config.h"

#include "report/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/cli.h"
#include "base/outfile.h"
#include "report/report-int.h"

/* What a signal handler needs to remove the unfinished folder: only async-signal-safe
 * calls on data prepared beforehand. The list of names changes with signals blocked. */
static char cleanup_dir[4096];
static int cleanup_dirfd = -1;
static char **cleanup_names;
static size_t cleanup_n, cleanup_cap;
static volatile sig_atomic_t cleanup_armed;
static volatile sig_atomic_t cleanup_child[CF_GNUPLOT_JOBS];

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CAUGHT (sizeof caught_signals / sizeof caught_signals[0])
static struct sigaction saved_actions[N_CAUGHT];

static void block_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaddset(&s, caught_signals[i]);
    sigprocmask(SIG_BLOCK, &s, old);
}

static void unlink_tracked(void)
{
    for (size_t i = 0; i < cleanup_n; i++)
        unlinkat(cleanup_dirfd, cleanup_names[i], 0);
}

static void on_signal(int sig)
{
    if (cleanup_armed) {
        for (size_t i = 0; i < CF_GNUPLOT_JOBS; i++) {
            pid_t child = (pid_t)cleanup_child[i];
            if (child > 0) {
                kill(child, SIGTERM);
                waitpid(child, NULL, 0);
            }
        }
        unlink_tracked();
        rmdir(cleanup_dir);
    }
    cf_outfile_abort_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

void cf_report_set_child(size_t slot, long pid)
{
    if (slot < CF_GNUPLOT_JOBS)
        cleanup_child[slot] = (sig_atomic_t)pid;
}

int cf_report_track(cf_report *r, const char *name, cf_error *e)
{
    (void)r;
    char *copy = strdup(name);
    if (copy == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    sigset_t old;
    block_signals(&old);
    int rc = 0;
    char **p = cf_grow(cleanup_names, &cleanup_cap, cleanup_n, sizeof *p, 64);
    if (p == NULL)
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    else
        cleanup_names = p;
    if (rc == 0)
        cleanup_names[cleanup_n++] = copy;
    else
        free(copy);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

FILE *cf_report_create(cf_report *r, const char *name, cf_error *e)
{
    if (cf_report_track(r, name, e) != 0)
        return NULL;
    int fd = openat(r->dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        cf_error_set(e, CF_EXIT_DATA, name, 0, "cannot write: %s", strerror(errno));
        return NULL;
    }
    FILE *fp = fdopen(fd, "w");
    if (fp == NULL) {
        cf_error_set(e, CF_EXIT_DATA, name, 0, "cannot write: %s", strerror(errno));
        close(fd);
    }
    return fp;
}

int cf_report_close(FILE *fp, const char *name, cf_error *e)
{
    int failed = ferror(fp);
    if (fclose(fp) != 0)
        failed = 1;
    if (failed)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "cannot write: %s",
                            strerror(errno ? errno : EIO));
    return 0;
}

cf_plot *cf_report_add_plot(cf_report *r, const char *name, int section, const char *title,
                            const char *caption, cf_error *e)
{
    if (r->n_plots == r->cap_plots) {
        size_t cap = r->cap_plots ? 2 * r->cap_plots : 16;
        cf_plot *p = realloc(r->plots, cap * sizeof *p);
        if (p == NULL) {
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
            return NULL;
        }
        r->plots = p;
        r->cap_plots = cap;
    }
    cf_plot *p = &r->plots[r->n_plots];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->section = section;
    p->title = strdup(title);
    p->caption = strdup(caption);
    if (p->title == NULL || p->caption == NULL) {
        free(p->title);
        free(p->caption);
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return NULL;
    }
    r->n_plots++;
    return p;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void arm(const char *dir, int dirfd)
{
    snprintf(cleanup_dir, sizeof cleanup_dir, "%s", dir);
    cleanup_dirfd = dirfd;
    cleanup_n = 0;
    for (size_t i = 0; i < CF_GNUPLOT_JOBS; i++)
        cleanup_child[i] = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaction(caught_signals[i], &sa, &saved_actions[i]);
    cleanup_armed = 1;
}

/* Forgets the folder; with remove set, deletes it and all it holds. */
static void disarm(int remove)
{
    sigset_t old;
    block_signals(&old);
    cleanup_armed = 0;
    if (remove) {
        unlink_tracked();
        remove_tree(cleanup_dir);
    }
    for (size_t i = 0; i < cleanup_n; i++)
        free(cleanup_names[i]);
    free(cleanup_names);
    cleanup_names = NULL;
    cleanup_n = cleanup_cap = 0;
    if (cleanup_dirfd >= 0)
        close(cleanup_dirfd);
    cleanup_dirfd = -1;
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaction(caught_signals[i], &saved_actions[i], NULL);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static int is_report_folder(const char *dir)
{
    size_t n = strlen(dir) + 16;
    char *p = malloc(n);
    if (p == NULL)
        return 0;
    snprintf(p, n, "%s/index.html", dir);
    FILE *fp = fopen(p, "r");
    free(p);
    if (fp == NULL)
        return 0;
    char buf[2048];
    size_t k = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[k] = '\0';
    return strstr(buf, CF_REPORT_GENERATOR) != NULL;
}

/* The list of what a report wrote, one name a line, kept in its folder: a later report
 * replaces the folder only when it holds nothing else, and deletes only what is listed. */
#define MANIFEST ".commfit-report"

/* The names the folder's list holds, as one buffer of lines (malloc'd), or NULL. */
static char *read_manifest(const char *dir)
{
    size_t n = strlen(dir) + sizeof MANIFEST + 2;
    char *p = malloc(n);
    if (p == NULL)
        return NULL;
    snprintf(p, n, "%s/%s", dir, MANIFEST);
    FILE *fp = fopen(p, "r");
    free(p);
    if (fp == NULL)
        return NULL;
    char *buf = NULL;
    size_t len;
    cf_error scratch;
    if (cf_read_all(fp, MANIFEST, &buf, &len, &scratch) != 0)
        buf = NULL;
    fclose(fp);
    return buf;
}

static int listed(const char *manifest, const char *name)
{
    size_t k = strlen(name);
    for (const char *l = manifest; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (n == k && memcmp(l, name, k) == 0)
            return 1;
        if (nl == NULL)
            break;
        l = nl + 1;
    }
    return 0;
}

/* The first entry of dir that its list does not name ("" when none); 1 when there is
 * one, or when the folder cannot be read or has no list. */
static int foreign_entry(const char *dir, char *name, size_t cap)
{
    name[0] = '\0';
    char *manifest = read_manifest(dir);
    DIR *d = manifest != NULL ? opendir(dir) : NULL;
    if (d == NULL) {
        free(manifest);
        return 1;
    }
    struct dirent *de;
    int found = 0;
    while (!found && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
            strcmp(de->d_name, MANIFEST) == 0)
            continue;
        if (!listed(manifest, de->d_name)) {
            snprintf(name, cap, "%s", de->d_name);
            found = 1;
        }
    }
    closedir(d);
    free(manifest);
    return found;
}

/* Deletes what the folder's list names, the list, then the folder if that emptied it;
 * anything else stays where it is. */
static void remove_listed(const char *dir)
{
    char *manifest = read_manifest(dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (manifest != NULL && fd >= 0) {
        for (char *l = manifest; *l;) {
            char *nl = strchr(l, '\n');
            if (nl != NULL)
                *nl = '\0';
            if (*l != '\0' && strchr(l, '/') == NULL)
                unlinkat(fd, l, 0);
            if (nl == NULL)
                break;
            l = nl + 1;
        }
        unlinkat(fd, MANIFEST, 0);
    }
    if (fd >= 0)
        close(fd);
    free(manifest);
    rmdir(dir);
}

/* Whether dir holds nothing; where it holds something, the first name read into first
 * (truncated to n; "" where the folder cannot be read). */
static int is_empty_folder(const char *dir, char *first, size_t n)
{
    first[0] = '\0';
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            empty = 0;
            snprintf(first, n, "%s", de->d_name);
        }
    closedir(d);
    return empty;
}

/* Splits dir into its parent ("" for the current folder) and last component. */
static int split_dir(const char *dir, char **parent, char **base, cf_error *e)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    const char *end = dir + n;
    const char *slash = end;
    while (slash > dir && slash[-1] != '/')
        slash--;
    size_t lb = (size_t)(end - slash);
    if (lb == 0 || (lb == 1 && slash[0] == '.') || (lb == 2 && slash[0] == '.' && slash[1] == '.'))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "output folder '%s': expected a folder name, not '.', '..' or '/'",
                            dir);
    *base = strndup(slash, lb);
    *parent = strndup(dir, (size_t)(slash - dir));
    if (*base == NULL || *parent == NULL) {
        free(*base);
        free(*parent);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    return 0;
}

/* "PARENT.BASE.KIND.XXXXXX", a new folder beside the report. */
static char *temp_folder(const char *parent, const char *base, const char *kind, cf_error *e)
{
    size_t n = strlen(parent) + strlen(base) + strlen(kind) + 16;
    char *p = malloc(n);
    if (p == NULL) {
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return NULL;
    }
    snprintf(p, n, "%s.%s.%s.XXXXXX", parent, base, kind);
    if (mkdtemp(p) == NULL) {
        cf_error_set(e, CF_EXIT_DATA, *parent ? parent : ".", 0,
                     "cannot create a folder in it for the report '%s' (written beside it "
                     "first): %s",
                     base, strerror(errno));
        free(p);
        return NULL;
    }
    /* mkdtemp makes 0700; the report is an ordinary folder. */
    mode_t mask = umask(0);
    umask(mask);
    chmod(p, 0777 & ~mask);
    return p;
}

/* Puts the finished folder tmp in place of dir, keeping the old report until the new
 * one is there. */
static int swap_in(const char *tmp, const char *dir, const char *parent, const char *base,
                   cf_error *e)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (rename(tmp, dir) != 0)
            return cf_error_set(e, CF_EXIT_DATA, dir, 0, "cannot create: %s", strerror(errno));
        return 0;
    }
    char *aside = temp_folder(parent, base, "old", e);
    if (aside == NULL)
        return CF_EXIT_DATA;
    int rc = 0;
    if (rename(dir, aside) != 0) {
        rc = cf_error_set(e, CF_EXIT_DATA, dir, 0, "cannot replace: %s", strerror(errno));
        rmdir(aside);
    } else if (rename(tmp, dir) != 0) {
        rc = cf_error_set(e, CF_EXIT_DATA, dir, 0, "cannot replace: %s", strerror(errno));
        rename(aside, dir);
    } else {
        remove_listed(aside);
    }
    free(aside);
    return rc;
}

/* The list of every file the report wrote (what cleanup tracks): the next report may
 * delete those and nothing else. */
static int write_manifest(cf_report *r, cf_error *e)
{
    FILE *fp = cf_report_create(r, MANIFEST, e);
    if (fp == NULL)
        return CF_EXIT_DATA;
    for (size_t i = 0; i < cleanup_n; i++)
        if (strcmp(cleanup_names[i], MANIFEST) != 0)
            fprintf(fp, "%s\n", cleanup_names[i]);
    return cf_report_close(fp, MANIFEST, e);
}

/* gnuplot processes to run side by side: one per core, as far as the limit. */
static size_t draw_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > CF_GNUPLOT_JOBS ? CF_GNUPLOT_JOBS : (size_t)n;
}

static int draw(cf_report *r, const cf_report_opts *o, cf_report_result *res, cf_error *e)
{
    const char *ext = o->png ? "png" : "svg";
    char(*scripts)[CF_PLOT_NAME_MAX + 8] = malloc((r->n_plots + 1) * sizeof *scripts);
    const char **names = malloc((r->n_plots + 1) * sizeof *names);
    int rc = 0;
    if (scripts == NULL || names == NULL)
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < r->n_plots && rc == 0; i++) {
        char image[CF_PLOT_NAME_MAX + 8];
        snprintf(scripts[i], sizeof scripts[i], "%s.gp", r->plots[i].name);
        snprintf(image, sizeof image, "%s.%s", r->plots[i].name, ext);
        names[i] = scripts[i];
        rc = cf_report_track(r, image, e);
    }
    if (rc == 0)
        rc = cf_gnuplot_run(o->gnuplot, r->dir, names, r->n_plots, draw_jobs(), o->warn, e);
    for (size_t i = 0; i < r->n_plots && rc == 0; i++) {
        cf_plot *p = &r->plots[i];
        char image[CF_PLOT_NAME_MAX + 8];
        snprintf(image, sizeof image, "%s.%s", p->name, ext);
        struct stat st;
        if (fstatat(r->dirfd, image, &st, 0) != 0 || st.st_size == 0)
            rc = cf_error_set(e, CF_EXIT_DATA, scripts[i], 0, "gnuplot ran but did not draw '%s'",
                              image);
        p->drawn = rc == 0;
        res->n_drawn += rc == 0;
    }
    free(scripts);
    free(names);
    return rc;
}

static int check_dir(const char *dir, cf_error *e)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return cf_error_set(e, CF_EXIT_DATA, dir, 0,
                            "a file of that name is in the way of the report folder");
    char name[256];
    if (is_empty_folder(dir, name, sizeof name))
        return 0;
    if (!is_report_folder(dir))
        return cf_error_set(e, CF_EXIT_DATA, dir, 0,
                            "folder exists and is not a commfit report (it holds '%s', which "
                            "commfit report did not write): remove it or choose another with -o",
                            name);
    if (foreign_entry(dir, name, sizeof name)) {
        if (name[0] == '\0')
            return cf_error_set(e, CF_EXIT_DATA, dir, 0,
                                "an earlier report without the list %s of its files: remove "
                                "the folder or choose another with -o",
                                MANIFEST);
        return cf_error_set(e, CF_EXIT_DATA, dir, 0,
                            "the report folder holds '%s', which commfit report did not write: "
                            "move it, or choose another folder with -o",
                            name);
    }
    return 0;
}

int cf_report_check_dir(const char *dir, cf_error *e)
{
    char *parent, *base;
    int rc = split_dir(dir, &parent, &base, e);
    if (rc != 0)
        return rc;
    free(parent);
    free(base);
    return check_dir(dir, e);
}

/* measure writes one pack row per layout packed (extra column ddt_layout), and fit names
 * their fits pack_LAYOUT: the report's rows are named so too, so that each datatype meets
 * the pack of its own layout. view shares all but its rows with t; free view->rows. */
static int label_packs(const cf_table *t, cf_table *view, cf_error *e)
{
    *view = *t;
    view->rows = malloc((t->n_rows ? t->n_rows : 1) * sizeof *view->rows);
    if (view->rows == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (t->n_rows > 0)
        memcpy(view->rows, t->rows, t->n_rows * sizeof *view->rows);
    for (size_t i = 0; i < t->n_rows; i++)
        cf_row_label_pack(t, &view->rows[i]);
    return 0;
}

int cf_report_write(const cf_report_opts *o, cf_report_result *res, cf_error *e)
{
    memset(res, 0, sizeof *res);
    char *parent = NULL, *base = NULL, *tmp = NULL;
    int rc = split_dir(o->out_dir, &parent, &base, e);
    if (rc != 0)
        return rc;
    rc = check_dir(o->out_dir, e);
    if (rc == 0 && *parent != '\0')
        rc = cf_mkdir_p(parent, e);
    if (rc == 0 && (tmp = temp_folder(parent, base, "tmp", e)) == NULL)
        rc = CF_EXIT_DATA;
    if (rc != 0) {
        free(parent);
        free(base);
        return rc;
    }

    cf_table view;
    if ((rc = label_packs(o->table, &view, e)) != 0) {
        rmdir(tmp);
        free(tmp);
        free(parent);
        free(base);
        return rc;
    }
    cf_report r;
    memset(&r, 0, sizeof r);
    r.table = &view;
    r.table_path = o->table_path;
    r.ms = o->models;
    r.model_path = o->model_path;
    r.fitted_to = o->fitted_to;
    r.name = base;
    r.dir = tmp;
    r.png = o->png;
    r.dirfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (r.dirfd < 0) {
        rc = cf_error_set(e, CF_EXIT_DATA, tmp, 0, "cannot open folder: %s", strerror(errno));
        rmdir(tmp);
    } else {
        arm(tmp, r.dirfd);
        cf_report_model_open(&r);
        res->probe = r.pl.warn; /* moved: the caller warns of them, and frees them */
        memset(&r.pl.warn, 0, sizeof r.pl.warn);
        rc = cf_report_plots_table(&r, e);
        res->n_plots = r.n_plots;
        if (rc == 0 && o->gnuplot != NULL)
            rc = draw(&r, o, res, e);
        if (rc == 0)
            rc = cf_report_html(&r, o->gnuplot ? NULL : o->gnuplot_missing, e);
        if (rc == 0)
            rc = write_manifest(&r, e);
        if (rc == 0) {
            sigset_t old;
            block_signals(&old);
            rc = swap_in(tmp, o->out_dir, parent, base, e);
            sigprocmask(SIG_SETMASK, &old, NULL);
        }
        disarm(rc != 0);
        cf_report_model_close(&r);
    }
    for (size_t i = 0; i < r.n_plots; i++) {
        free(r.plots[i].title);
        free(r.plots[i].caption);
    }
    free(r.plots);
    free(view.rows);
    free(tmp);
    free(parent);
    free(base);
    return rc;
}

char *cf_report_default_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    size_t n = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    size_t len = n + 16;
    char *d = malloc(len);
    if (d != NULL)
        snprintf(d, len, "report/%.*s", (int)n, name);
    return d;
}

int cf_report_hint_text(char *buf, size_t n, const char *option, const char *path)
{
    size_t k = (size_t)snprintf(buf, n, "draw the report with: commfit report %s ", option);
    return k < n ? cf_shell_quote(path, buf + k, n - k) : -1;
}

void cf_report_hint(const char *option, const char *path)
{
    char buf[4200];
    if (cf_report_hint_text(buf, sizeof buf, option, path) == 0)
        cf_msg("%s", buf);
}
