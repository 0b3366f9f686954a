/* Where the ranks of the fitted table ran, from its metadata (hosts, ranks_per_node,
 * cores): how many nodes a process count spans, so that an estimate from np=2 can say
 * which network np=2 never crossed. */
#ifndef CF_PLACEMENT_H
#define CF_PLACEMENT_H

#include <stddef.h>

#include "fit/across.h"
#include "modelfile/modelfile.h"

typedef struct cf_placement {
    int known;      /* the metadata says where the ranks ran */
    size_t nnodes;  /* nodes of the launch, in rank order */
    long *ranks;    /* ranks on each node (ranks_per_node), filled in order */
    long *cores;    /* cores of each node; the most ranks a node held where it records none */
    long *first;    /* each node's first rank (from rank_hosts), or NULL: filled in order */
    size_t nranks;  /* launched ranks that rank_hosts lists */
    char host0[64]; /* the first node's name */
} cf_placement;

/* From the first table of the model's source whose metadata names ranks_per_node; a
 * file without one gives known = 0 (not an error). 0, or -1 when out of memory. */
int cf_placement_read(const cf_modelset *ms, cf_placement *out);
void cf_placement_free(cf_placement *p);
/* The nodes np ranks span (a process count runs on the launch's first np ranks): those
 * the first np ranks ran on where the table says which (rank_hosts), else as if ranks
 * filled the nodes in order; past the launch, new nodes of the last one's cores. 0 when
 * unknown. */
long cf_placement_nodes(const cf_placement *p, long np);

/* What np=2 did not measure at np, for the point-to-point estimate. */
typedef struct cf_unmeasured {
    int nodes;     /* np spans more nodes than np=2 did */
    int network;   /* np=2 ran inside one node and np leaves it: the network is unknown */
    long nodes2;   /* nodes np=2 spanned */
    long nodes_np; /* nodes np spans */
} cf_unmeasured;

/* Fills u and, when something is unmeasured, a note saying what (and what to measure). */
void cf_placement_unmeasured(const cf_placement *p, long np, cf_unmeasured *u, char *note,
                             size_t n);
/* The same for the across-np model, whose largest fitted process count is fitted: what np
 * spans beyond the nodes fitted did (nodes2 holds those), and the note. */
void cf_placement_beyond_fitted(const cf_placement *p, long fitted, long np, cf_unmeasured *u,
                                char *note, size_t n);
/* The across-np answer est of a at size m where u (cf_placement_beyond_fitted) says np
 * leaves the one node every fitted np ran in: its lower bound down to the smallest fitted
 * np's there. Its upper bound is the caller's to drop (predict prints inf). */
void cf_placement_across_low(const cf_across *a, const cf_unmeasured *u, double m,
                             cf_estimate *est);

#endif
