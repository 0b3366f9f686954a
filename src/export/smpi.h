/* commfit export smpi: a fitted point-to-point cost turned into a SimGrid platform (a
 * cluster and SMPI's piecewise latency and bandwidth factors) on which SMPI's ping-pong
 * costs what the model says. */
#ifndef CF_EXPORT_SMPI_H
#define CF_EXPORT_SMPI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "modelfile/modelfile.h"

/* SMPI (SimGrid 3.32) sends every message as its payload plus this many bytes (the MPI
 * envelope: tag, destination, communicator), and looks its factors up at that size. */
#define CF_SMPI_ENVELOPE_BYTES 16

/* SimGrid parses a factor's size threshold as an int. */
#define CF_SMPI_THRESHOLD_MAX 2147483647.0

/* The relative difference from the model that the factors are built to stay within at
 * every size checked inside the model's range. */
#define CF_SMPI_TOLERANCE 0.01

/* Above this many size ranges the model is not exportable at CF_SMPI_TOLERANCE. */
#define CF_SMPI_STEPS_MAX 2048

/* One size range of the factors: for payloads in (above_bytes, next step's above_bytes]
 * (the first step from 0 up), SMPI's one-way time is lat_us + (m + 16) * us_per_byte. */
typedef struct cf_smpi_step {
    uint64_t above_bytes;
    double lat_us;      /* the route's latency times smpi/lat-factor */
    double us_per_byte; /* 1 / (the route's bandwidth times smpi/bw-factor) */
} cf_smpi_step;

typedef struct cf_smpi_platform {
    double lat_us;  /* one-way latency of the route between two hosts (both links) */
    double bw_Bps;  /* bandwidth of every link, bytes per second */
    size_t nsteps;
    cf_smpi_step *steps;
    uint64_t min_bytes, max_bytes; /* the range the factors were built over */
    int clipped;                   /* the model reaches past SimGrid's largest threshold */
    double max_rel_err;            /* largest |platform - model| / model at a checked size */
    double max_err_bytes;          /* where */
    size_t nchecked;               /* sizes checked */
    double beyond_rel_err;         /* (platform - model) / model at twice max_bytes, where
                                      the model extrapolates (NAN when it gives no time) */
} cf_smpi_platform;

/* Builds the platform's latency, bandwidth and factors from a fit of pingpong at np=2:
 * chords of the model between its segment bounds and the powers of two in its range,
 * split until every checked size is within CF_SMPI_TOLERANCE. CF_EXIT_DATA, naming
 * file, when the fit has no size range, gives no positive time, or needs too many
 * ranges. */
int cf_smpi_calibrate(const cf_fit *f, const char *file, cf_smpi_platform *out, cf_error *e);
void cf_smpi_platform_clear(cf_smpi_platform *p);

/* The one-way time (us) SMPI gives a ping-pong of bytes on p: the factor lookup of
 * SimGrid 3.32 (a threshold S applies to simulated sizes above S) at bytes + 16. */
double cf_smpi_time_us(const cf_smpi_platform *p, double bytes);

/* The factor strings SimGrid reads ("0:1;1040:0.52;..."), into buf; the length, or -1
 * when it does not fit. */
int cf_smpi_lat_factor(const cf_smpi_platform *p, char *buf, size_t n);
int cf_smpi_bw_factor(const cf_smpi_platform *p, char *buf, size_t n);

/* What the XML comment says the platform was made from. */
typedef struct cf_smpi_origin {
    const char *model_file;
    const char *fit_what;   /* "pingpong np=2 byte: piecewise" */
    const char *tables;     /* the table files the model was fitted from, or NULL */
    const char *machine;    /* hosts and date of the table's metadata, or NULL */
    const char *version;    /* commfit's */
    double speed_flops;     /* host speed; <= 0 for SimGrid's 1 Gf */
    const char *speed_note; /* where the speed comes from */
    const char *pair_note;  /* where the ping-pong's two ranks ran, when inside one node */
} cf_smpi_origin;

/* Writes the platform file (SimGrid XML, platform version 4.1) with hosts node-0 ..
 * node-(nhosts-1). */
int cf_smpi_write(FILE *fp, const cf_smpi_platform *p, const cf_smpi_origin *o, long nhosts,
                  cf_error *e);

#endif
