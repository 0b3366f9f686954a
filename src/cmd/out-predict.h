/* commfit predict's output: the answers as a table, CSV or JSON (one module prints them
 * all); predict computes cf_predict_answer and hands each over. */
#ifndef CF_OUT_PREDICT_H
#define CF_OUT_PREDICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "modelfile/placement.h"

enum { CF_PREDICT_TABLE, CF_PREDICT_CSV, CF_PREDICT_JSON };

/* A note's room. An answer past several tiers gathers an explanation per addition (the
 * probe's latency, the pair exchange, the barrier's wait, the fitted np it was read from):
 * the longest on the shipped tables runs to 1,650 characters, and 1,024 cut the last one
 * mid-word while its microseconds stayed in t_us. cf_note_join marks any cut with "...". */
#define CF_PREDICT_NOTE_MAX 4096

/* What holds at every size of one np, as text, as a CSV field and as a JSON string (quotes
 * included), escaped once for every answer there (cf_out_predict_note_set). */
typedef struct cf_predict_note {
    char *text, *csv, *json;
    size_t text_len, csv_len, json_len;
} cf_predict_note;

/* One answer. */
typedef struct cf_predict_answer {
    long np;
    uint64_t bytes;
    double t, lo, hi, bw; /* hi may be +inf: no upper bound is known */
    const char *model;
    char model_buf[96];
    long blocks; /* of a derived datatype; -1 for a fit without blocks, and the others */
    int np_extra, bytes_extra, blocks_extra;
    int nodes_extra; /* np spans nodes (or a network) the source never measured */
    int tier_extra;  /* np reaches ranks farther from rank 0 than the fitted np (probe) */
    int refused; /* the model gives no positive time here: no numbers are printed */
    char bnote[CF_PREDICT_NOTE_MAX]; /* what holds at this point only: bytes or blocks
                                        outside the measured, a breakpoint gap, a refusal;
                                        "" if none */
    /* From the source at this np: its name ("fit", "across-np", "p2p-estimate"), and what
     * holds at every size there. */
    const char *source;
    const cf_predict_note *note;
} cf_predict_answer;

typedef struct cf_predict_out {
    FILE *fp;
    int format;             /* CF_PREDICT_TABLE, ... */
    int show_datatype;      /* the table shows datatype and blocks */
    const char *model_path; /* named in the table's first line and the JSON */
    const char *pattern, *datatype;
    size_t rows; /* written so far */
} cf_predict_out;

void cf_out_predict_begin(cf_predict_out *o);
void cf_out_predict_row(cf_predict_out *o, const cf_predict_answer *a);
void cf_out_predict_end(cf_predict_out *o);
/* text, and text as a CSV field and as a JSON string, into n, each its own allocation;
 * -1 when out of memory (n then holds nothing to free). */
int cf_out_predict_note_set(cf_predict_note *n, const char *text);
void cf_out_predict_note_free(cf_predict_note *n);
/* a's model column with tail appended (cut to fit model_buf), by copying: a batch names
 * every answer (a->model may already be model_buf). */
void cf_predict_model_append(cf_predict_answer *a, const char *tail);

/* Where the grid read the answer's algorithm from an np below the largest fitted one that
 * never reached np's tier (add->read_from): says so, into out's note. */
void cf_out_predict_read_from_note(cf_predict_answer *out, const cf_tier_added *add,
                                   const char *alg, long np);
/* Where the grid read np, between fitted np, from those below alone (add->tier_above: the
 * next fitted np crosses a tier np does not): says so, into out's note. */
void cf_out_predict_tier_below_note(cf_predict_answer *out, const cf_tier_added *add, long np);
/* Where the lower end holds the least time measured of a call that moves nothing
 * (est->no_op_us), says so. */
void cf_out_predict_no_op_note(cf_predict_answer *out, const cf_estimate *est);
/* Where a backtest's miss per doubling of p set an across-np answer's interval at np (est's
 * bt_ fields, top the largest fitted np): says whose and how far, into out's note; of the
 * lower end alone where the answer has no upper bound (no_upper). */
void cf_out_predict_backtest_note(cf_predict_answer *out, const cf_estimate *est, long np,
                                  long top, int no_upper);
/* Joins to out->bnote what the launch probes added to its answer (add: the barrier's spread
 * exits, the pair exchange's traffic, the latency probe's extra latency over the steps of
 * alg reaching ranks beyond reach's latency far_us); nothing where nothing was added. */
void cf_out_predict_tier_note(cf_predict_answer *out, const cf_tier_added *add, const char *alg,
                              const char *reach, double far_us);

#endif
