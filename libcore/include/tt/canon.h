/* tt/canon.h: the canonical form of a configuration (docs/model.md 8.1).
 *
 * Over one trace, cluster and model table, many parameter sets run the
 * same simulation: a theta acts only through the classes it makes
 * sensitive, w1 does nothing while w0 is inf, min_run and restart nothing
 * while no job can be evicted, seed and mix nothing while every job names
 * its class. The canonical form replaces each parameter by its effective
 * value, so that two configurations with equal canonical forms give the
 * same simulation, bit for bit: the same per-job results and metrics.
 * Sweeps and the tuner simulate each canonical form once (tt/run.h).
 *
 * What the rules need to know of the trace (which classes occur, whether
 * a job may spread at once, whether load can move a submit) is gathered
 * once into a tt_canon; the form of a parameter set is then a few loops
 * over the model classes. A canonical form is itself a valid parameter
 * set, and simulates as every configuration of its class does.
 *
 * Thread safety: a tt_canon is read-only once made; every function is
 * reentrant.
 */
#ifndef TT_CANON_H
#define TT_CANON_H

#include <stdint.h>

#include "tt/error.h"
#include "tt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* What the canonical form needs of a trace on a cluster with a model
 * table: a plain struct, filled by tt_canon_init. */
typedef struct {
    int32_t nclasses;
    int32_t unknown;     /* some job's model is unknown: drawn from the mix */
    int32_t beyond_rack; /* some job fits the cluster but not a rack */
    int32_t one_submit;  /* every job submits at one time (load moves none) */
    uint64_t known;      /* bit c: some job names class c */
    int32_t xfers;       /* some task may read a parent's output (SPEC 12.3) */
    int64_t slow_l1[TT_MAX_CLASSES], slow_l2[TT_MAX_CLASSES];
} tt_canon;

/* Fills k for the jobs j on cluster c with the model table m. 0, or
 * TT_EINVAL when a job's class is not in the table or the table has more
 * than TT_MAX_CLASSES classes. */
int tt_canon_init(tt_ctx *ctx, tt_canon *k, const tt_cluster *c, const tt_models *m,
                  const tt_sim_jobs *j);

/* The canonical form of p (a parameter set within its ranges, as
 * tt_params_set leaves it) into out (which may be p). */
void tt_canon_form(const tt_canon *k, const tt_params *p, tt_params *out);

/* 1 when the canonical forms a and b are the same form, else 0. Every
 * field of tt_params takes part (mlfq up to nmlfq), so over any two
 * parameter sets, forms or not, it says whether they are the same
 * configuration: the tuner's cache keys its rows on it. */
int tt_canon_equal(const tt_params *a, const tt_params *b);
/* A hash of the canonical form q: equal forms hash equal (over any
 * parameter set, as tt_canon_equal). */
uint64_t tt_canon_hash(const tt_params *q);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
