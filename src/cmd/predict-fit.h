/* commfit predict: what an answer from a per-np fit says of itself, appended to the
 * answer's note (bnote) and model name. */
#ifndef CF_PREDICT_FIT_H
#define CF_PREDICT_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/out-predict.h"
#include "fit/fit.h"

/* bytes below the fit's sizes, which start above sizes set aside as a no-op: what was
 * measured there, if it was (out->bnote, replaced). */
void cf_fit_note_set_aside(const cf_fit *f, uint64_t bytes, cf_predict_answer *out);
/* At or between sizes f set aside as a no-op (at block count blocks where f has a block
 * term): the answer (out's, after the fit's) is their measured time, a factor 2 each way,
 * its model column "measured no-op", its note (replaced) saying so; 1, or 0 where bytes is
 * not among them (out untouched). */
int cf_fit_answer_set_aside(const cf_fit *f, uint64_t bytes, int blocks, cf_predict_answer *out);
/* The correction by the measured neighbours (cf_fit_predict_near): "+ measured neighbours"
 * after the model's name, and which neighbours and how, in the note. */
void cf_fit_note_near(const cf_prediction *pr, cf_predict_answer *out);
/* Beyond the fit's measured sizes: the answer's weights on the model and the measured
 * trend ("+ measured trend" after the model's name), how much the interval was widened,
 * and from what; and beyond the measured points (cf_fit_predict_near), that it holds the
 * trend at the top. */
void cf_fit_note_widen(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out);
/* At or above the sizes fit found timed faster than the table's ping-pong moves as many
 * bytes (f->pair_from_bytes): that the answer comes from times that are no transfers. */
void cf_fit_note_pair_bound(const cf_fit *f, uint64_t bytes, cf_predict_answer *out);
/* A layout of one block lies contiguous in memory, and MPI sends it as the contiguous type
 * (MPICH and Open MPI both detect it): 1 when f (vector, hvector, indexed, hindexed) has no
 * 1-block rows, so that its answer at 1 block is the contiguous fit's. */
int cf_fit_one_block_spread(const cf_fit *f);
/* That answer: pc, the same table's contiguous fit contig read at the size, replaces out's
 * time, its interval also holding f's own read below its counts; model and note set. */
void cf_fit_one_block_contiguous(const cf_fit *f, const cf_fit *contig, const cf_prediction *pc,
                                 cf_predict_answer *out);
#endif
