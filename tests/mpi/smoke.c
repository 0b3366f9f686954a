/* MPI smoke test: proves the compiler wrapper and the launcher work together. Each rank
 * sends its rank to the next; the ring must close. Prints TAP from rank 0. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, got = -1;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                          (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int good = rc == MPI_SUCCESS && got == (rank + size - 1) % size, all = 0;
    MPI_Reduce(&good, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("ok 1 - %d ranks started\n", size);
        printf("%s 2 - every rank received from its left neighbour\n",
               all == size ? "ok" : "not ok");
        printf("1..2\n");
    }
    MPI_Finalize();
    return 0;
}
