/* Error records, message format, and output files that appear whole or not at all. */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/outfile.h"
#include "tap.h"

/* Runs cf_error_report with stderr sent to a file and returns what it printed. */
static const char *reported(const cf_error *e, int *code)
{
    static char buf[1024];
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    *code = cf_error_report(e);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    return buf;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            n++;
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    cf_error e;
    int code;
    cf_error_clear(&e);
    is_int(e.code, 0, "a cleared record holds no error");
    is_int(cf_error_set(&e, CF_EXIT_DATA, "run.csv", 12, "expected %d fields, got %d", 13, 12),
           CF_EXIT_DATA, "cf_error_set returns the code");
    cf_set_subcommand("fit");
    is_str(reported(&e, &code), "commfit: fit: run.csv:12: expected 13 fields, got 12\n",
           "file:line message");
    is_int(code, 1, "data errors exit 1");
    cf_error_set(&e, CF_EXIT_USAGE, NULL, 0, "unknown pattern '%s'", "foo");
    is_str(reported(&e, &code), "commfit: fit: unknown pattern 'foo'\n", "message without a file");
    is_int(code, 2, "usage errors exit 2");
    cf_error_set(&e, CF_EXIT_DATA, "models", 0, "no *.json file in this folder");
    is_str(reported(&e, &code), "commfit: fit: models: no *.json file in this folder\n",
           "message with a file and no line");
    cf_set_subcommand(NULL);
    cf_error_set(&e, CF_EXIT_USAGE, NULL, 0, "unknown subcommand 'x'");
    is_str(reported(&e, &code), "commfit: unknown subcommand 'x'\n", "top-level message");
    ok(cf_error_set(NULL, 2, NULL, 0, "x") == 2, "a NULL record is allowed");

    char dir[] = "test-error-XXXXXX";
    ok(mkdtemp(dir) != NULL, "temporary folder");
    char path[256];
    snprintf(path, sizeof path, "%s/sub/out.txt", dir);
    cf_outfile o;
    ok(cf_outfile_open(&o, path, &e) == 0, "open an output file in a new folder");
    fputs("hello\n", o.fp);
    ok(access(path, F_OK) != 0, "nothing at the final name while writing");
    ok(cf_outfile_commit(&o, &e) == 0, "commit");
    ok(access(path, F_OK) == 0, "the file is there after commit");
    char sub[256];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    is_int(count_entries(sub), 1, "no temporary file left after commit");

    snprintf(path, sizeof path, "%s/sub/aborted.txt", dir);
    ok(cf_outfile_open(&o, path, &e) == 0, "open a second output file");
    fputs("half", o.fp);
    cf_outfile_abort(&o);
    cf_outfile_abort(&o);
    ok(access(path, F_OK) != 0, "an aborted file does not appear");
    is_int(count_entries(sub), 1, "no temporary file left after abort");

    if (geteuid() != 0) {
        chmod(sub, 0555);
        snprintf(path, sizeof path, "%s/sub/ro.txt", dir);
        ok(cf_outfile_open(&o, path, &e) == CF_EXIT_DATA, "a read-only folder is refused");
        ok(strncmp(e.msg, "cannot write: ", 14) == 0, "with a clear message: %s", e.msg);
        chmod(sub, 0755);
    } else {
        snprintf(path, sizeof path, "%s/sub/out.txt/x.txt", dir);
        ok(cf_outfile_open(&o, path, &e) == CF_EXIT_DATA, "a file used as a folder is refused");
        ok(strncmp(e.msg, "cannot create folder: a file of that name exists", 48) == 0, "with a clear message: %s", e.msg);
    }

    char *newest = NULL;
    snprintf(path, sizeof path, "%s/sub/zz.txt", dir);
    FILE *fp = fopen(path, "w");
    fclose(fp);
    struct timespec ts[2] = {{0, UTIME_OMIT}, {2000000000, 0}};
    utimensat(AT_FDCWD, path, ts, 0);
    ok(cf_newest_file(sub, ".txt", &newest, &e) == 0 && newest && strstr(newest, "zz.txt"),
       "the newest file by modification time");
    free(newest);
    ok(cf_newest_file(sub, ".json", &newest, &e) == CF_EXIT_DATA, "no file of that kind");
    is_str(e.msg, "no *.json file in this folder", "message for an empty folder");

    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    ok(system(path) == 0, "clean up");
    return tap_done();
}
