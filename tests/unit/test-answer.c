/* The answer order (modelfile/answer.c): the fit at that np, else the across-np model,
 * else the point-to-point estimate, and why none when none answers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "modelfile/answer.h"
#include "tap.h"

static void add_fit(cf_modelset *ms, const char *pattern, int np, const char *datatype)
{
    cf_fit f;
    memset(&f, 0, sizeof f);
    snprintf(f.pattern, sizeof f.pattern, "%s", pattern);
    snprintf(f.datatype, sizeof f.datatype, "%s", datatype);
    snprintf(f.model, sizeof f.model, "linear");
    f.np = np;
    f.min_bytes = 1;
    f.max_bytes = 1024;
    cf_modelset_add(ms, &f);
}

int main(void)
{
    cf_modelset *ms = cf_modelset_alloc();
    add_fit(ms, "alltoall", 2, "byte");
    add_fit(ms, "pingpong", 2, "byte");
    cf_across a[2];
    memset(a, 0, sizeof a);
    snprintf(a[0].pattern, sizeof a[0].pattern, "alltoall");
    snprintf(a[0].datatype, sizeof a[0].datatype, "byte");
    a[0].bytes_max = 4096;
    snprintf(a[1].pattern, sizeof a[1].pattern, "bcast");
    snprintf(a[1].datatype, sizeof a[1].datatype, "byte");
    snprintf(a[1].error, sizeof a[1].error, "not enough process counts (have 1, need 3)");
    cf_across_set as;
    memset(&as, 0, sizeof as);
    as.a = a;
    as.n = 2;
    cf_answer_source s;
    char why[256];

    ok(cf_answer_choose(ms, &as, "alltoall", "byte", 2, &s, why, sizeof why) == 0 &&
           s.kind == CF_ANSWER_FIT && s.fit == &ms->fits[0] && s.bytes_max == 1024,
       "the fit at that np first");
    ok(cf_answer_choose(ms, &as, "alltoall", "byte", 16, &s, why, sizeof why) == 0 &&
           s.kind == CF_ANSWER_ACROSS && s.across == &a[0] && s.bytes_max == 4096,
       "else the across-np model");
    ok(cf_answer_choose(ms, &as, "alltoall", "byte", 0, &s, why, sizeof why) == 0 &&
           s.kind == CF_ANSWER_ACROSS,
       "np 0: a process count without a fit");
    is_int(cf_answer_choose(ms, &as, "bcast", "byte", 16, &s, why, sizeof why), CF_EXIT_DATA,
           "no p2p parameters: no answer");
    is_str(why, "not enough process counts (have 1, need 3); no point-to-point parameters in "
                "the file",
           "why: the across-np model's reason, then the estimate's");

    as.have_p2p = 1;
    as.pp.h.bytes_min = 0;
    as.pp.h.bytes_max = 8192;
    ok(cf_answer_choose(ms, &as, "bcast", "byte", 16, &s, why, sizeof why) == 0 &&
           s.kind == CF_ANSWER_P2P && s.coll == cf_coll_find("bcast") && s.bytes_max == 8192 &&
           s.across == &a[1],
       "else the point-to-point estimate, with the across-np model that failed");
    is_int(cf_answer_choose(ms, &as, "bcast", "float", 16, &s, why, sizeof why), CF_EXIT_DATA,
           "the estimate is for the pattern's datatype only");
    is_str(why, "no across-np model; the point-to-point estimate is for datatype byte",
           "why: its datatype");
    is_int(cf_answer_choose(ms, &as, "pingpong", "byte", 0, &s, why, sizeof why), CF_EXIT_DATA,
           "a two-process pattern has no estimate at other np");
    is_int(cf_answer_choose(ms, &as, "nosuch", "byte", 4, &s, why, sizeof why), CF_EXIT_DATA,
           "an unknown pattern has none");
    is_str(why, "no across-np model; no algorithm cost known for 'nosuch'", "why: unknown");
    snprintf(as.pp.error, sizeof as.pp.error, "no pingpong at np=2");
    is_int(cf_answer_choose(ms, &as, "bcast", "byte", 16, &s, NULL, 0), CF_EXIT_DATA,
           "an unusable estimate answers nothing");

    /* Notes: parts joined with "; ", an empty part adds nothing, and a part that does not
     * fit is cut with "..." at the end, never mid-word without a mark. */
    char note[16] = "";
    cf_note_join(note, sizeof note, "ab");
    cf_note_join(note, sizeof note, "");
    cf_note_join(note, sizeof note, "cd");
    is_str(note, "ab; cd", "note: parts joined, the empty one skipped");
    cf_note_join(note, sizeof note, "efghijklmn");
    is_str(note, "ab; cd; efgh...", "note: a part past the room is cut and says so");
    cf_note_join(note, sizeof note, "op");
    is_str(note, "ab; cd; efgh...", "note: nothing joins a full note");

    cf_modelset_free(ms);
    return tap_done();
}
