/* commfit predict: what the point-to-point estimate says of itself at one np (where its
 * parameters come from, and what np=2 never measured there). */
#ifndef CF_PREDICT_P2P_H
#define CF_PREDICT_P2P_H

#include <stddef.h>

#include "base/collective.h"
#include "fit/across.h"
#include "modelfile/placement.h"

/* Appends to note (n bytes, "; " between parts) what holds at every size of the estimate
 * of c at np; u says what np=2 did not measure there (placement p). */
void cf_predict_p2p_note(const cf_across_set *as, const cf_coll *c, const char *datatype, long np,
                         const cf_placement *p, cf_unmeasured *u, char *note, size_t n);

#endif
