/* commfit predict's output, every line of it: the answers as a table for people, or as
 * CSV or JSON for scripts, fast enough for a million answers a second. */
#include "config.h"

#include "cmd/out-predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"
#include "modelfile/answer.h"

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static char *put_mem(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

#define CSV_DIGITS 6 /* significant digits of every number in the CSV */

/* v with `digits` significant digits in fixed notation, never an exponent (any script or
 * spreadsheet reads it), whole digits beyond `digits` kept as cf_sig_prec keeps them,
 * trailing zeros dropped as %g drops them; NaN as nan_text. Up to 19 decimals: below
 * 1e-14 fewer digits, 0 below 5e-20 (0.000000000006235 had 4, a lower end of 6.2345e-12 us;
 * a new user); never "-0".
 * Integer arithmetic: a million rows a second. */
#define SIG_DEC_MAX 19 /* 10^19 < 2^64 */
static char *put_sig(char *p, double v, int digits, const char *nan_text)
{
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
    if (!isfinite(v))
        return put_str(p, nan_text);
    if (fabs(v) >= 1e15)
        return p + sprintf(p, "%.0f", v);
    int negative = v < 0;
    v = fabs(v);
    if (v == 0) {
        *p++ = '0';
        return p;
    }
    int dec; /* decimals that give `digits` significant ones */
    if (v >= 1) {
        int whole = 1;
        while (whole < 15 && v >= p10[whole])
            whole++;
        dec = digits > whole ? digits - whole : 0;
    } else {
        int zeros = 0; /* after the point, before the first significant digit */
        while (zeros < SIG_DEC_MAX - 1 && v * p10[zeros + 1] < 1)
            zeros++;
        dec = digits + zeros;
    }
    if (dec > SIG_DEC_MAX)
        dec = SIG_DEC_MAX;
    uint64_t scale = (uint64_t)p10[dec];
    uint64_t x = (uint64_t)(v * (double)scale + 0.5);
    if (negative && x > 0)
        *p++ = '-';
    p = put_u64(p, x / scale);
    uint64_t f = x % scale;
    if (f == 0)
        return p;
    *p++ = '.';
    for (uint64_t d = scale / 10; d > 0 && f > 0; d /= 10) {
        *p++ = (char)('0' + f / d);
        f %= d;
    }
    return p;
}

/* v as JSON: the shortest form that reads back as the same double; null for NaN. */
static char *put_json_num(char *p, double v)
{
    if (!isfinite(v))
        return put_str(p, "null");
    char buf[32]; /* %.17g of a double: 24 characters at most */
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    memcpy(p, buf, (size_t)n + 1);
    return p + n;
}

/* s as a CSV field: quoted where it holds a comma, a quote or a newline, its quotes doubled;
 * copied a run at a time (a batch writes a note of some 400 bytes with every answer). */
static char *put_csv(char *p, const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL)
        return put_str(p, s);
    *p++ = '"';
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        p = put_mem(p, s, (size_t)(q + 1 - s));
        *p++ = '"';
    }
    p = put_str(p, s);
    *p++ = '"';
    return p;
}

static char *put_json_str(char *p, const char *s)
{
    *p++ = '"';
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            *p++ = '\\';
            *p++ = (char)ch;
        } else if (ch < 0x20) {
            p += sprintf(p, "\\u%04x", ch);
        } else {
            *p++ = (char)ch;
        }
    }
    *p++ = '"';
    return p;
}

/* "np+bytes", ...: what the answer extrapolates in; buf holds 32 bytes. */
static const char *extra_text(const cf_predict_answer *a, char *buf)
{
    const char *part[] = {"np", "nodes", "tier", "bytes", "blocks"};
    int on[] = {a->np_extra, a->nodes_extra, a->tier_extra, a->bytes_extra, a->blocks_extra};
    buf[0] = '\0';
    for (int i = 0; i < 5; i++)
        if (on[i])
            strcat(strcat(buf, buf[0] ? "+" : ""), part[i]);
    return buf;
}

void cf_out_predict_begin(cf_predict_out *c)
{
    if (c->format == CF_PREDICT_CSV)
        fputs("pattern,np,bytes,datatype,t_us,lo_us,hi_us,bw_MiBps,source,model,extrapolated,"
              "note,blocks\n",
              c->fp);
    else if (c->format == CF_PREDICT_JSON) {
        char buf[4096], *p = buf;
        p = put_str(p, "{\"model_file\": ");
        p = put_json_str(p, c->model_path);
        p = put_str(p, ", \"predictions\": [");
        fwrite(buf, 1, (size_t)(p - buf), c->fp);
    } else {
        fprintf(c->fp, "model: %s\n", c->model_path);
        if (c->show_datatype)
            fprintf(c->fp, "%-14s %6s %10s %-14s %6s %12s %12s %12s %10s  %-12s %s\n",
                    "pattern", "np", "bytes", "datatype", "blocks", "t_us", "lo_us", "hi_us",
                    "MiB/s", "source", "model; notes");
        else
            fprintf(c->fp, "%-14s %6s %10s %12s %12s %12s %10s  %-12s %s\n", "pattern", "np",
                    "bytes", "t_us", "lo_us", "hi_us", "MiB/s", "source", "model; notes");
    }
}

/* A number for people: 4 significant digits, whole digits kept (44430, not 4.443e+04) up
 * to 9 of them; from 1e9 on, and below 1e-4 (where %g turns to one, and cf_sig_prec's digit
 * for a rounding up to the next power of ten made 5: 6.2345e-12), 4 in an exponent form
 * (2.994e+11, not 2.99431755e+11, which overran its 12 columns). */
#define TABLE_DIGITS 4
static void table_num(char *buf, size_t n, double v, const char *missing)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "%s", missing);
        return;
    }
    /* An exponent wherever %g takes one (999999999.7 read 1e+09): 4 digits in it. */
    snprintf(buf, n, "%.*g", cf_sig_prec(v, TABLE_DIGITS), v);
    if (v != 0 && (fabs(v) >= 1e9 || fabs(v) < 1e-4 || strchr(buf, 'e') != NULL))
        snprintf(buf, n, "%.*e", TABLE_DIGITS - 1, v);
}

/* The np's note and the answer's own (a->bnote, not empty), joined by "; ", into buf
 * (2 * CF_PREDICT_NOTE_MAX + 4 bytes); buf. Copied, not printed: a batch joins them for
 * every answer. */
static char *joined(char *buf, const cf_predict_answer *a)
{
    char *p = buf;
    if (a->note->text_len > 0) {
        p = put_mem(p, a->note->text, a->note->text_len);
        p = put_str(p, "; ");
    }
    *put_str(p, a->bnote) = '\0';
    return buf;
}

/* One CSV line into p; returns its end. */
static char *csv_row(char *p, const cf_predict_out *c, const cf_predict_answer *a)
{
    const char *src = a->source;
    p = put_str(p, c->pattern);
    *p++ = ',';
    p = put_u64(p, (uint64_t)a->np);
    *p++ = ',';
    p = put_u64(p, a->bytes);
    *p++ = ',';
    p = put_str(p, c->datatype);
    *p++ = ',';
    p = put_sig(p, a->t, CSV_DIGITS, "");
    *p++ = ',';
    p = put_sig(p, a->lo, CSV_DIGITS, "");
    *p++ = ',';
    p = isinf(a->hi) && a->hi > 0 ? put_str(p, "inf") : put_sig(p, a->hi, CSV_DIGITS, "");
    *p++ = ',';
    p = put_sig(p, a->bw, CSV_DIGITS, "");
    *p++ = ',';
    p = put_str(p, src);
    *p++ = ',';
    p = put_csv(p, a->model);
    *p++ = ',';
    char extra[32];
    p = put_str(p, extra_text(a, extra));
    *p++ = ',';
    if (a->bnote[0] == '\0') {
        p = put_mem(p, a->note->csv, a->note->csv_len);
    } else {
        char note[2 * CF_PREDICT_NOTE_MAX + 4];
        p = put_csv(p, joined(note, a));
    }
    *p++ = ',';
    if (a->blocks >= 0)
        p = put_u64(p, (uint64_t)a->blocks);
    *p++ = '\n';
    return p;
}

/* One JSON object of the array into p; returns its end. */
static char *json_row(char *p, const cf_predict_out *c, const cf_predict_answer *a)
{
    const char *src = a->source;
    p = put_str(p, c->rows ? ",\n  {\"pattern\": " : "\n  {\"pattern\": ");
    p = put_json_str(p, c->pattern);
    p = put_str(p, ", \"np\": ");
    p = put_u64(p, (uint64_t)a->np);
    p = put_str(p, ", \"bytes\": ");
    p = put_u64(p, a->bytes);
    p = put_str(p, ", \"datatype\": ");
    p = put_json_str(p, c->datatype);
    p = put_str(p, ", \"blocks\": ");
    if (a->blocks >= 0)
        p = put_u64(p, (uint64_t)a->blocks);
    else
        p = put_str(p, "null");
    p = put_str(p, ", \"t_us\": ");
    p = put_json_num(p, a->t);
    p = put_str(p, ", \"lo_us\": ");
    p = put_json_num(p, a->lo);
    p = put_str(p, ", \"hi_us\": ");
    p = put_json_num(p, a->hi);
    p = put_str(p, ", \"bw_MiBps\": ");
    p = put_json_num(p, a->bw);
    p = put_str(p, ", \"source\": ");
    p = put_json_str(p, src);
    p = put_str(p, ", \"model\": ");
    p = put_json_str(p, a->model);
    p = put_str(p, ", \"extrapolated\": {\"np\": ");
    p = put_str(p, a->np_extra ? "true" : "false");
    p = put_str(p, ", \"bytes\": ");
    p = put_str(p, a->bytes_extra ? "true" : "false");
    p = put_str(p, ", \"blocks\": ");
    p = put_str(p, a->blocks_extra ? "true" : "false");
    p = put_str(p, ", \"nodes\": ");
    p = put_str(p, a->nodes_extra ? "true" : "false");
    p = put_str(p, ", \"tier\": ");
    p = put_str(p, a->tier_extra ? "true" : "false");
    p = put_str(p, "}, \"note\": ");
    if (a->bnote[0] == '\0') {
        p = put_mem(p, a->note->json, a->note->json_len);
    } else {
        char note[2 * CF_PREDICT_NOTE_MAX + 4];
        p = put_json_str(p, joined(note, a));
    }
    *p++ = '}';
    return p;
}

/* One table line for people into p (cap bytes); returns its end. */
static char *table_row(char *buf, size_t cap, const cf_predict_out *c,
                       const cf_predict_answer *a)
{
    char *p = buf;
    const char *src = a->source;
    char size[32], t[32], lo[32], hi[32], bw[32];
    cf_size_format(a->bytes, size, sizeof size);
    table_num(t, sizeof t, a->t, a->refused ? "refused" : "-");
    table_num(lo, sizeof lo, a->lo, "-");
    table_num(hi, sizeof hi, a->hi, isinf(a->hi) && a->hi > 0 ? "inf" : "-");
    table_num(bw, sizeof bw, a->bw, "-");
    p += snprintf(p, cap, "%-14s %6ld %10s ", c->pattern, a->np, size);
    if (c->show_datatype) {
        char blocks[24] = "-";
        if (a->blocks >= 0)
            snprintf(blocks, sizeof blocks, "%ld", a->blocks);
        p += snprintf(p, cap - (size_t)(p - buf), "%-14s %6s ", c->datatype, blocks);
    }
    p += snprintf(p, cap - (size_t)(p - buf), "%12s %12s %12s %10s  %-12s %s%s%s%s%s\n",
                  t, lo, hi, bw, src, a->model, a->note->text[0] ? "; " : "", a->note->text,
                  a->bnote[0] ? "; " : "", a->bnote);
    return p;
}

void cf_out_predict_row(cf_predict_out *c, const cf_predict_answer *a)
{
    char buf[16 * CF_PREDICT_NOTE_MAX + 512], *p;
    if (c->format == CF_PREDICT_CSV)
        p = csv_row(buf, c, a);
    else if (c->format == CF_PREDICT_JSON)
        p = json_row(buf, c, a);
    else
        p = table_row(buf, sizeof buf, c, a);
    fwrite(buf, 1, (size_t)(p - buf), c->fp);
    c->rows++;
}

static void bt_memo_clear(void);

void cf_out_predict_end(cf_predict_out *c)
{
    bt_memo_clear();
    if (c->format == CF_PREDICT_JSON)
        fputs(c->rows ? "\n]}\n" : "]}\n", c->fp);
}


int cf_out_predict_note_set(cf_predict_note *n, const char *text)
{
    size_t k = strlen(text);
    char *t = malloc(k + 1), *csv = malloc(2 * k + 3), *json = malloc(6 * k + 3);
    if (t == NULL || csv == NULL || json == NULL) {
        free(t);
        free(csv);
        free(json);
        *n = (cf_predict_note){0};
        return -1;
    }
    memcpy(t, text, k + 1);
    char *e = put_csv(csv, text), *f = put_json_str(json, text);
    *e = *f = '\0';
    *n = (cf_predict_note){t, csv, json, k, (size_t)(e - csv), (size_t)(f - json)};
    return 0;
}

void cf_out_predict_note_free(cf_predict_note *n)
{
    free(n->text);
    free(n->csv);
    free(n->json);
    *n = (cf_predict_note){0};
}

/* ---- the notes of what the launch probes added to an answer ---- */

/* Where no farther latency tier leaves the interval without an upper bound. */
#define LO_MODEL                                                                              \
    " (no farther latency tier: the lower bound stays the model's, which may hold some of "   \
    "this growth)"

/* The note of what the pair-exchange probe added to an answer (cf_tier_added), the traffic
 * of alg. */
static void pair_note(cf_predict_answer *out, const cf_tier_added *add, const char *alg)
{
    if (!(add->pair_us > 0))
        return;
    char lead[160] = "";
    if (add->leader_share > 0)
        snprintf(lead, sizeof lead,
                 "; only the nodes' leaders send across nodes, %.*g%% of the ranks: the probe's "
                 "load (every rank sending) in that share",
                 cf_sig_prec(100.0 * add->leader_share, 3), 100.0 * add->leader_share);
    if (add->pair_dist) {
        /* Each distance with np's ranks all sending against the fitted np's. */
        char part[1024], bytes[32];
        int l = snprintf(part, sizeof part,
                         "the answer adds %.*g us for the traffic every rank sends at once, as "
                         "the pair-exchange probe at launch measured each distance with %ld ranks "
                         "sending against %ld: the %s sends ",
                         cf_sig_prec(add->pair_us, 3), add->pair_us, add->pair_far,
                         add->pair_near, alg != NULL ? alg : "algorithm");
        for (int i = 0; i < add->npl && l > 0 && (size_t)l < sizeof part; i++) {
            cf_size_format_estimate(add->pl_bytes[i], bytes, sizeof bytes);
            /* partners 2 to 3 ranks away; 1 rank away (read "1 to 1 ranks away") */
            char away[80];
            long near = add->pl_ranks[i], far = 2 * near - 1;
            if (far > near)
                snprintf(away, sizeof away, "partners %ld to %ld ranks away", near, far);
            else
                snprintf(away, sizeof away, "partners %ld rank%s away", near,
                         near == 1 ? "" : "s");
            l += snprintf(part + l, sizeof part - (size_t)l,
                          "%s%s%s to %s (%.*g us a MiB slower)",
                          i == 0 ? "" : i + 1 < add->npl ? ", " : " and ", bytes,
                          i == 0 ? " a rank" : "", away,
                          cf_sig_prec(add->pl_us_per_mib[i], 3), add->pl_us_per_mib[i]);
        }
        if (l > 0 && (size_t)l < sizeof part)
            snprintf(part + l, sizeof part - (size_t)l, "%s%s", lead,
                     add->pair_lo_model ? LO_MODEL : "");
        cf_note_join(out->bnote, sizeof out->bnote, part);
        return;
    }
    if (add->npl > 0) {
        /* Levels below np's cost more too: what leaves each level's blocks, level by level. */
        char part[1024], bytes[32];
        int l = snprintf(part, sizeof part,
                         "the answer adds %.*g us for the traffic out of the ranks' blocks, "
                         "every rank at once, as the pair-exchange probe at launch measured it: "
                         "the %s sends ",
                         cf_sig_prec(add->pair_us, 3), add->pair_us,
                         alg != NULL ? alg : "algorithm");
        for (int i = 0; i < add->npl && l > 0 && (size_t)l < sizeof part; i++) {
            cf_size_format_estimate(add->pl_bytes[i], bytes, sizeof bytes);
            l += snprintf(part + l, sizeof part - (size_t)l,
                          "%s%s%s out of its %ld ranks (%.*g us a MiB slower across %ld%s "
                          "halves than across %ld's)",
                          i == 0 ? "" : i + 1 < add->npl ? ", " : " and ", bytes,
                          i == 0 ? " a rank" : "", add->pl_ranks[i] / 2,
                          cf_sig_prec(add->pl_us_per_mib[i], 3), add->pl_us_per_mib[i],
                          add->pl_ranks[i], i == 0 ? " ranks'" : "'s", add->pl_ranks[i] / 2);
        }
        if (l > 0 && (size_t)l < sizeof part)
            snprintf(part + l, sizeof part - (size_t)l, "%s%s", lead,
                     add->pair_lo_model ? LO_MODEL : "");
        cf_note_join(out->bnote, sizeof out->bnote, part);
        return;
    }
    char part[1024], bytes[32], fill[96] = "";
    cf_size_format_estimate(add->cross_bytes, bytes, sizeof bytes);
    if (add->pair_fill > 0)
        snprintf(fill, sizeof fill, " (np fills %ld of the %ld ranks past their cut)",
                 add->pair_fill, add->pair_far / 2);
    snprintf(part, sizeof part,
             "the answer adds %.*g us for the traffic across the halves of the ranks: the %s "
             "sends %s a rank across them, every rank at once, which the pair-exchange probe "
             "at launch measured %.*g us a MiB slower across %ld ranks' halves%s than across "
             "%ld's%s%s",
             cf_sig_prec(add->pair_us, 3), add->pair_us, alg != NULL ? alg : "algorithm", bytes,
             cf_sig_prec(add->extra_us_per_mib, 3), add->extra_us_per_mib, add->pair_far, fill,
             add->pair_near, lead, add->pair_lo_model ? LO_MODEL : "");
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* The note of what the barrier's spread exits added to an answer (cf_tier_added). */
static void spread_note(cf_predict_answer *out, const cf_tier_added *add)
{
    char part[1024];
    if (add->chain_lo_only) {
        snprintf(part, sizeof part,
                 "the lower end as if each rank of the chain that leaves the barrier after "
                 "each timed call (%s) after its predecessor waited its own hop alone, the data "
                 "ready to flow (the latency probe forms no tiers to replay the barrier over)",
                 add->barrier);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    } else if (add->chain_ratio > 0 && fabs(add->chain_ratio - 1.0) > 1e-9) {
        snprintf(part, sizeof part,
                 "x%.3g for the barrier after each timed call: replayed over the latency probe "
                 "(%s), its ranks leave it apart, and a rank of the chain that leaves after its "
                 "predecessor finds the data ready to flow (or, before it, waits longer); the "
                 "lower end as if each such rank waited its own hop alone",
                 add->chain_ratio, add->barrier);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
    if (!(add->skew_us > 0))
        return;
    char at[160] = "";
    if (add->waited && add->wait_np > 0)
        snprintf(at, sizeof at,
                 " at its %ld ranks, the most it reached (np reaches past them: the lower end "
                 "holds none of it)",
                 add->wait_np);
    else if (add->waited && add->wait_np < 0)
        snprintf(at, sizeof at, " at the largest fitted np, %ld (none to replay at np)",
                 -add->wait_np);
    if (add->waited)
        snprintf(part, sizeof part,
                 "the answer adds %.*g us for the barrier after each timed call: replayed over "
                 "the latency probe (%s)%s, its ranks leave it apart, and a rank that leaves "
                 "early waits for the others in the next call (the time is the ranks' mean); %s",
                 cf_sig_prec(add->skew_us, 3), add->skew_us, add->barrier, at,
                 add->none_fitted ? "at each fitted np the same replay waits none"
                                  : "the fit took the same replay's wait from each fitted np's "
                                    "times");
    else
        snprintf(part, sizeof part,
                 "the answer adds %.*g us for the barrier after each timed call: replayed over "
                 "the latency probe (%s), its ranks leave it further apart than within the "
                 "fitted reach, and a rank that leaves early waits for the others in the next "
                 "call (the time is the ranks' mean)",
                 cf_sig_prec(add->skew_us, 3), add->skew_us, add->barrier);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

void cf_out_predict_read_from_note(cf_predict_answer *out, const cf_tier_added *add,
                                   const char *alg, long np)
{
    char part[1024], reach[200];
    if (add->read_nodes_np == 0 && isfinite(add->read_from_far_us) &&
        isfinite(add->read_np_far_us))
        snprintf(reach, sizeof reach,
                 "whose ranks reach %.3g us from rank 0, where np=%ld reaches %.3g us (latency "
                 "probe at launch)",
                 add->read_from_far_us, np, add->read_np_far_us);
    else
        snprintf(reach, sizeof reach, "which ran inside one node, where np=%ld spans %ld nodes",
                 np, add->read_nodes_np);
    snprintf(part, sizeof part,
             "the %s runs at np=%ld, but at this size the fitted np ran it up to np=%ld only, "
             "%s: a larger fitted np ran another algorithm across that tier, and what the "
             "farther ranks cost this one was never measured, so the interval has no upper "
             "bound",
             alg != NULL ? alg : "algorithm", np, add->read_from, reach);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

void cf_out_predict_tier_below_note(cf_predict_answer *out, const cf_tier_added *add, long np)
{
    char part[400];
    if (add->tier_above <= 0)
        return;
    /* The probe that parts them: the latency where it does, else the pair exchange. */
    if (add->tier_above_far_us > add->tier_np_far_us * (1 + CF_TIER_MARGIN) ||
        !(add->tier_above_pair_us > 0))
        snprintf(part, sizeof part,
                 "read from the fitted np below np=%ld alone, in its tier: its ranks reach "
                 "%.3g us from rank 0, where np=%ld's reach %.3g us (latency probe at launch)",
                 np, add->tier_np_far_us, add->tier_above, add->tier_above_far_us);
    else
        snprintf(part, sizeof part,
                 "read from the fitted np below np=%ld alone, in its tier: an exchange across "
                 "the halves of its ranks takes %.3g us, of np=%ld's %.3g us (pair-exchange "
                 "probe at launch)",
                 np, add->tier_np_pair_us, add->tier_above, add->tier_above_pair_us);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* Whether est's widening over d doublings, k of them at the crossing's miss, counts the
 * others apart (at the miss within a tier). */
static int split(const cf_estimate *est, double k, double d)
{
    return k > 0 && est->bt_within < est->bt_err && d > k;
}

/* "carried over" the d doublings from np `from` (alg_change: the change of algorithm counted
 * as one), where k of them count at the backtest's miss (bt_crossings) and the others at the
 * miss within a tier: which count at which. */
static void carried(const cf_estimate *est, long top, double k, double d, long from,
                    const char *alg_change, char *buf, size_t n)
{
    if (split(est, k, d))
        snprintf(buf, n,
                 "carried over %.3g of the %.3g doublings from np=%ld%s: the first beyond "
                 "np=%ld, and one for each other tier the reading crosses, at the miss of the "
                 "doubling to np=%ld, which crossed a tier; the other %.3g at x%.3g a doubling "
                 "(refitted without np=%ld, whose doubling crossed no tier, and read there)",
                 k, d, from, alg_change, top, top, d - k, exp(est->bt_within),
                 est->bt_within_np);
    else
        snprintf(buf, n, "carried over %.3g doubling%s from np=%ld%s", d, d == 1.0 ? "" : "s",
                 from, alg_change);
}

/* The backtest note (cf_out_predict_backtest_note) into part (BT_NOTE_MAX bytes). */
#define BT_NOTE_MAX 1536
static void backtest_text(char *part, const cf_estimate *est, long np, long top, int no_upper)
{
    const size_t n = BT_NOTE_MAX;
    char whose[160], lower[640] = "", over[400];
    if (est->bt_source == CF_BT_TREES)
        snprintf(whose, sizeof whose, "the grid's readings, each np from the np below it, missed "
                                      "it by");
    else if (est->bt_source == CF_BT_LOO)
        snprintf(whose, sizeof whose, "the fitted model misses its points left out one at a "
                                      "time by");
    else
        snprintf(whose, sizeof whose,
                 "the fitted model, refitted without np=%ld and read there, missed it by", top);
    /* The lower end's reading, where it spans a tier crossing counted apart: how. */
    char lo_split[200] = "";
    double k = est->bt_lo_crossings;
    if (split(est, k, est->bt_lo_doublings))
        snprintf(lo_split, sizeof lo_split,
                 " (x%.3g a doubling for %.3g of them, the first beyond np=%ld and each other "
                 "tier crossed; x%.3g for the other %.3g)",
                 exp(est->bt_err), k, top, exp(est->bt_within), est->bt_lo_doublings - k);
    if (est->bt_lo_doublings > 0)
        snprintf(lower, sizeof lower,
                 "%s lower end holds the reading without the growth carried from np=%ld "
                 "(np=%ld's cost per step alone), widened x%.3g over its %.3g doubling%s%s",
                 est->bt_doublings > 0 ? "; its" : "the interval's", est->bt_from,
                 est->bt_lo_from, exp(cf_estimate_bt_ln(est, est->bt_lo_doublings, 1)),
                 est->bt_lo_doublings, est->bt_lo_doublings == 1.0 ? "" : "s", lo_split);
    if (est->bt_doublings > 0) {
        /* A reading whose algorithm ran at one np alone counts its change as a doubling more. */
        double span = fabs(log2((double)np / (double)est->bt_from));
        const char *alg_change =
            est->bt_doublings > span + 0.5 ? " (the change of algorithm counted as one)" : "";
        double up = exp(cf_estimate_bt_ln(est, est->bt_doublings, 0));
        carried(est, top, est->bt_crossings, est->bt_doublings, est->bt_from, alg_change, over,
                sizeof over);
        /* Without an upper bound (np's nodes or tier unmeasured), the lower end alone. */
        if (no_upper && lower[0])
            snprintf(part, n, "the interval's%s (%s x%.3g a doubling of p)",
                     lower + strlen("; its"), whose, exp(est->bt_err));
        else if (no_upper)
            snprintf(part, n,
                     "the interval's lower end widened x%.3g: %s x%.3g a doubling of p, %s", up,
                     whose, exp(est->bt_err), over);
        else
            snprintf(part, n,
                     "the interval%s widened x%.3g%s: %s x%.3g a doubling of p, %s%s",
                     lower[0] ? "'s upper end" : "", up, lower[0] ? "" : " each way", whose,
                     exp(est->bt_err), over, lower);
    } else {
        snprintf(part, n, "%s (%s x%.3g a doubling of p)", lower, whose,
                 exp(est->bt_err));
    }
}

/* The backtest notes made, each kept in the slot its inputs hash to, the last one there, till
 * cf_out_predict_end: a batch of a million answers across np asks for the same thousand or so
 * over and over, and making each anew (snprintf of six numbers) took a third of its time.
 * The key holds every input the text is made from. The slots are allocated at the first note
 * and the ones used listed, so that a call that makes none, or a few, pays nothing for the
 * rest (clearing a static table of them touched 900 KB: 0.7 ms a call). */
#define BT_MEMO_SLOTS 8192
#define BT_KEY_N 13
#define BT_MEMO_WAYS 4
typedef struct bt_memo_slot {
    double key[BT_KEY_N];
    char *text; /* NULL: empty */
} bt_memo_slot;
static bt_memo_slot *bt_memo;
static size_t *bt_used, bt_nused; /* the slots holding a text */

static void bt_memo_clear(void)
{
    for (size_t i = 0; bt_memo != NULL && i < bt_nused; i++)
        free(bt_memo[bt_used[i]].text);
    free(bt_memo);
    free(bt_used);
    bt_memo = NULL;
    bt_used = NULL;
    bt_nused = 0;
}

void cf_out_predict_backtest_note(cf_predict_answer *out, const cf_estimate *est, long np,
                                  long top, int no_upper)
{
    if (!(est->bt_err > 0) || !(est->bt_doublings > 0 || est->bt_lo_doublings > 0))
        return;
    double key[BT_KEY_N] = {est->bt_err,       est->bt_doublings,    est->bt_lo_doublings,
                            est->bt_crossings, est->bt_lo_crossings, est->bt_within,
                            est->bt_source,    est->bt_from,         est->bt_lo_from,
                            est->bt_within_np, np,                   top,
                            no_upper};
    uint64_t h = 0; /* the key's words mixed (FNV's multiplier), the high bits kept */
    for (int i = 0; i < BT_KEY_N; i++) {
        uint64_t w;
        memcpy(&w, &key[i], sizeof w);
        h = (h ^ w ^ (w >> 29)) * 1099511628211u;
    }
    if (bt_memo == NULL && (bt_memo = calloc(BT_MEMO_SLOTS, sizeof *bt_memo)) != NULL &&
        (bt_used = malloc(BT_MEMO_SLOTS * sizeof *bt_used)) == NULL) {
        free(bt_memo);
        bt_memo = NULL;
    }
    /* The key's slot or one of the BT_MEMO_WAYS after it: in one slot each, two keys that
     * shared it took turns (np 142 and 538 of a batch cycling over np 2 to 1024: one note in
     * eight made anew). A new note takes the first empty one, else the key's own. */
    size_t home = (h >> 40) % BT_MEMO_SLOTS, at = home;
    bt_memo_slot *slot = NULL;
    for (size_t w = 0; bt_memo != NULL && w < BT_MEMO_WAYS; w++) {
        size_t i = (home + w) % BT_MEMO_SLOTS;
        bt_memo_slot *s = &bt_memo[i];
        if (s->text != NULL && memcmp(s->key, key, sizeof key) == 0) {
            cf_note_join(out->bnote, sizeof out->bnote, s->text);
            return;
        }
        if (s->text == NULL && slot == NULL) {
            slot = s;
            at = i;
        }
    }
    if (bt_memo != NULL && slot == NULL)
        slot = &bt_memo[home];
    char part[BT_NOTE_MAX];
    backtest_text(part, est, np, top, no_upper);
    cf_note_join(out->bnote, sizeof out->bnote, part);
    char *kept = slot != NULL ? strdup(part) : NULL; /* out of memory: made, not kept */
    if (kept != NULL) {
        if (slot->text == NULL)
            bt_used[bt_nused++] = at;
        free(slot->text);
        slot->text = kept;
        memcpy(slot->key, key, sizeof key);
    }
}

void cf_out_predict_no_op_note(cf_predict_answer *out, const cf_estimate *est)
{
    if (!(est->no_op_us > 0))
        return;
    cf_note_joinf(
        out->bnote, sizeof out->bnote,
        "the call moves nothing (fewer bytes than one element): its lower end %.3g us holds "
        "the least time measured of such a call, less 5%%",
        est->no_op_us);
}

/* The note of what the latency probe added to an answer (cf_tier_added), the steps of alg
 * reaching ranks beyond reach's latency far_us; nothing where nothing was added. */
void cf_out_predict_tier_note(cf_predict_answer *out, const cf_tier_added *add, const char *alg,
                              const char *reach, double far_us)
{
    spread_note(out, add);
    pair_note(out, add, alg);
    if (add->replay_us > 0 && add->replay_no_tier) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the answer adds %.*g us for the barrier after each timed call: the %s "
                      "replayed rank by rank (the latency probe shows no tiers), each message "
                      "the ping-pong's at its size, each rank starting when it left the barrier "
                      "before, where np=2's two ranks left it together",
                      cf_sig_prec(add->replay_us, 3), add->replay_us,
                      alg != NULL ? alg : "algorithm");
    } else if (add->replay_us > 0) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the answer adds %.*g us for what the latency probe's tiers add to the %s "
                      "replayed rank by rank over them, each message the ping-pong's at its size, "
                      "each rank starting when it left the barrier before",
                      cf_sig_prec(add->replay_us, 3), add->replay_us,
                      alg != NULL ? alg : "algorithm");
    }
    if (!(add->us > 0))
        return;
    char part[1024], steps[200];
    snprintf(steps, sizeof steps,
             "%.3g us over %g %s%s of the %s reaching ranks beyond %s %.3g us",
             add->us / add->share, add->steps,
             add->crossings ? "crossing" : add->rounds ? "round" : "step",
             add->steps == 1 ? "" : "s", alg, reach, far_us);
    if (add->share < 1)
        snprintf(part, sizeof part,
                 "the answer adds %.3g us: the latency probe's extra latency, %s, times the "
                 "%.3g%% of the ranks that wait on it (the time is the ranks' mean)",
                 add->us, steps, 100 * add->share);
    else
        snprintf(part, sizeof part, "the answer adds the latency probe's extra latency: %s", steps);
    cf_note_join(out->bnote, sizeof out->bnote, part);
    if (add->bw_us > 0 && add->bw_own) {
        snprintf(part, sizeof part,
                 "%.3g us of it the sized latency probe's for those steps' messages beyond "
                 "their bytes, which the pair exchange counts (a protocol's handshake, a latency "
                 "that grows with the size), on the steps they pace",
                 add->bw_us);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    } else if (add->bw_us > 0) {
        snprintf(part, sizeof part,
                 "%.3g us of it the sized latency probe's for the bytes of those steps' "
                 "messages, on the steps they pace",
                 add->bw_us);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
    if (add->in_turn > 1) {
        snprintf(part, sizeof part,
                 "the bytes of each of the %ld blocks to or from the ranks beyond, which cross "
                 "the root's link one after another",
                 add->in_turn);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
    if (add->held)
        cf_note_join(out->bnote, sizeof out->bnote,
                     "the gatherv's senders waited for the root's receipt at np=2 (a rendezvous): "
                     "each past the fitted reach waits for its own block, as a scatterv's "
                     "receivers do");
    if (add->in_turn > 1 && add->in_turn_us > 0) {
        snprintf(part, sizeof part,
                 "%.3g us of it those blocks' own time at the fitted reach's rate after the "
                 "first's, which the formula counts once",
                 add->in_turn_us);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
}

void cf_predict_model_append(cf_predict_answer *a, const char *tail)
{
    size_t t = strlen(tail) + 1, room = sizeof a->model_buf - t, k = strlen(a->model);
    if (k > room)
        k = room;
    memmove(a->model_buf, a->model, k);
    memcpy(a->model_buf + k, tail, t);
    a->model = a->model_buf;
}
