/* Test helper, never linked into commfit: a PMPI interposer that makes one MPI call return
 * an error, so that the tests see how commfit measure reports MPI errors. Preloaded
 * (LD_PRELOAD) into the ranks. COMMFIT_TEST_FAIL_CALL names the call (MPI_Allreduce, the
 * default, MPI_Reduce or MPI_Send), COMMFIT_TEST_FAIL_AT=N fails its Nth call (from 1), on the rank
 * COMMFIT_TEST_FAIL_RANK only when that is set. The error has its own class and text, so
 * that a test can tell the message comes from MPI_Error_string. MPI_Sendrecv can fail too.
 * COMMFIT_TEST_FAIL_MALLOC=BYTES makes every malloc of exactly BYTES return NULL (on the
 * rank COMMFIT_TEST_FAIL_RANK only, as the launcher numbers it, when that is set).
 * COMMFIT_TEST_LOG_SENDS=PREFIX appends a line "S DEST BYTES BUFFER" for every MPI_Send of
 * a rank, and "R SOURCE BYTES BUFFER" for every MPI_Recv, to PREFIX.RANK (its rank in
 * MPI_COMM_WORLD), so that a test can read the order of the messages and the buffers they
 * use without timing them. COMMFIT_TEST_APPEND_AFTER_INIT=FILE appends a metadata line to
 * FILE on rank 0 once MPI_Init has returned there (after the ranks read their --resume
 * table), as an earlier launch's rank still writing it would. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long env_long(const char *name, long unset)
{
    const char *s = getenv(name);
    return s != NULL && *s != '\0' ? strtol(s, NULL, 10) : unset;
}

/* Whether this call of `call` is the one to fail. */
static int fails(const char *call, long *calls)
{
    const char *which = getenv("COMMFIT_TEST_FAIL_CALL");
    if (strcmp(which != NULL && *which != '\0' ? which : "MPI_Allreduce", call) != 0)
        return 0;
    long at = env_long("COMMFIT_TEST_FAIL_AT", 0), on = env_long("COMMFIT_TEST_FAIL_RANK", -1);
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return ++*calls == at && (on < 0 || on == rank);
}

static int injected_error(void)
{
    int cls, code;
    if (MPI_Add_error_class(&cls) != MPI_SUCCESS || MPI_Add_error_code(cls, &code) != MPI_SUCCESS ||
        MPI_Add_error_string(code, "commfit test: injected failure") != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    return code;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    static long calls;
    if (fails("MPI_Allreduce", &calls))
        return injected_error();
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm)
{
    static long calls;
    if (fails("MPI_Reduce", &calls))
        return injected_error();
    return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

/* The call's line in this rank's log (what: S a send, R a receive), where
 * COMMFIT_TEST_LOG_SENDS asks for one; the file stays open (the run's end flushes it). Ranks
 * of another communicator than MPI_COMM_WORLD are logged as that communicator numbers them. */
static void log_call(char what, const void *buf, int count, MPI_Datatype type, int peer)
{
    static FILE *log;
    const char *prefix = getenv("COMMFIT_TEST_LOG_SENDS");
    if (prefix == NULL || *prefix == '\0')
        return;
    if (log == NULL) {
        char path[4096];
        int rank = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        snprintf(path, sizeof path, "%s.%d", prefix, rank);
        if ((log = fopen(path, "a")) == NULL)
            return;
    }
    int size = 0;
    PMPI_Type_size(type, &size);
    fprintf(log, "%c %d %lld %p\n", what, peer, (long long)count * size, buf);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    static long calls;
    if (fails("MPI_Send", &calls))
        return injected_error();
    log_call('S', buf, count, type, dest);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    log_call('R', buf, count, type, source);
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    static long calls;
    if (fails("MPI_Sendrecv", &calls))
        return injected_error();
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv), rank = -1;
    const char *path = getenv("COMMFIT_TEST_APPEND_AFTER_INIT");
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc == MPI_SUCCESS && rank == 0 && path != NULL && *path != '\0') {
        FILE *fp = fopen(path, "a");
        if (fp != NULL) {
            fputs("# test_appended: by fault-pmpi.so\n", fp);
            fclose(fp);
        }
    }
    return rc;
}

/* glibc's own allocator, which this malloc hands every other request to. */
extern void *__libc_malloc(size_t n);

/* The rank as the launcher numbers it (MPICH's hydra, Open MPI): malloc runs before
 * MPI_Init, and must not call MPI. */
static long launch_rank(void)
{
    long r = env_long("PMI_RANK", -1);
    return r >= 0 ? r : env_long("OMPI_COMM_WORLD_RANK", -1);
}

void *malloc(size_t n)
{
    long fail_bytes = env_long("COMMFIT_TEST_FAIL_MALLOC", -1);
    if (fail_bytes >= 0 && n == (size_t)fail_bytes) {
        long on = env_long("COMMFIT_TEST_FAIL_RANK", -1);
        if (on < 0 || on == launch_rank())
            return NULL;
    }
    return __libc_malloc(n);
}
