/* Hand-written loops that time each sized pattern as IMB 2021 does (bench/imb-ref.c). */
#ifndef IMB_REF_H
#define IMB_REF_H

#include <mpi.h>

/* The patterns there is a loop for, by index (0 .. imb_ref_count() - 1). */
int imb_ref_count(void);
const char *imb_ref_name(int i);
int imb_ref_known(const char *pattern);

/* One warm-up and samples timed loops of reps calls of pattern at bytes on comm: the
 * median over samples of the mean over ranks of the time per call, in us (every rank). */
double imb_ref_run(const char *pattern, long bytes, long reps, int samples, MPI_Comm comm);

#endif
