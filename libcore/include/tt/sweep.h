/* tt/sweep.h: many configurations of the scheduler over one trace and
 * cluster (SPEC section 8).
 *
 * A sweep is built from fixed values (-p), grids of one parameter each
 * (-g) and, optionally, a TSV file of configurations (--configs). The
 * configurations are the Cartesian product of the file's rows (slowest)
 * and the grids in the order they were added (the first slowest); a
 * name appears in at most one of them. Every value is checked against its
 * range when it is added, so a sweep that builds holds only valid
 * parameter sets.
 *
 * Grid grammar (the spec after NAME=):
 *   A:B:N      N integers from A to B: v_i = A + round((B - A) * i / (N - 1)),
 *              exact integer arithmetic, halves rounded up; N = 1 gives A
 *   log:A:B:N  N integers from A to B (A, B > 0) spaced geometrically:
 *              llround(A * pow(B / A, i / (N - 1.0))), the first and last
 *              exactly A and B. Floating point makes this grid's values;
 *              it decides nothing else
 *   a,b,c      a list of values as tt_params_set reads them (inf, fifo...)
 *   A:B:N,inf, log:A:B:N,inf: the range's values, then inf (for the
 *              parameters that take it: w0, w1, theta, the class timers)
 *   mix, timers, mlfq and gittins_dist take lists only, separated by ';'
 *   (their values hold ',' and ':'): -g 'mlfq=3250,7200;57600', or with
 *   mlfq's other separator -g 'mlfq=3250/7200;57600'.
 * Values repeated after rounding are kept: the grid is what was asked.
 *
 * "preset" (tt_params_preset) may be fixed, a grid (a list of names:
 * -g preset=yarn-cs,tiresias-dlas,themis) or a file column. It is applied
 * before every other parameter, so the parameters given with it override
 * the preset's: -g preset=yarn-cs,themis -p w0=600 runs both at w0=600.
 *
 * tt_sweep_run simulates a list of the configurations with tt_run
 * (tt/run.h), on the CPU cores or the GPU.
 *
 * Thread safety: a tt_sweep is read-only once built and may be shared;
 * building it is not thread-safe.
 */
#ifndef TT_SWEEP_H
#define TT_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/run.h"
#include "tt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

#define TT_SWEEP_MAX_CONFIGS INT64_C(2147483647)

typedef struct tt_sweep tt_sweep;

/* An empty sweep (one configuration: the defaults) over the model table
 * models, which must outlive it. 0 or TT_ENOMEM. */
int tt_sweep_create(tt_ctx *ctx, const tt_models *models, tt_sweep **out);
/* NULL is accepted. */
void tt_sweep_free(tt_sweep *s);

/* Fixes name to value in every configuration (a later call wins).
 * TT_EINVAL when the name is unknown, the value bad, or the name is in a
 * grid or the configurations file. */
int tt_sweep_fix(tt_ctx *ctx, tt_sweep *s, const char *name, const char *value);
/* Adds the grid spec over name (grammar above). TT_EINVAL with "grid
 * 'NAME=SPEC': reason" on a bad spec or value, an unknown name, a name
 * already in a grid, the file or fixed, or more than
 * TT_SWEEP_MAX_CONFIGS configurations in all. */
int tt_sweep_grid(tt_ctx *ctx, tt_sweep *s, const char *name, const char *spec);
/* Reads the configurations file path: a TSV header of parameter names and
 * one configuration per row. Columns named after a metric are skipped, so
 * a sweep's own TSV output (tt_sim_tsv_row's rows) reads back as its
 * configurations. TT_EIO, or TT_EPARSE naming file, line and field
 * (unknown or repeated name, no parameter column, wrong field count, bad
 * value, no row). */
int tt_sweep_configs(tt_ctx *ctx, tt_sweep *s, const char *path);

/* The files the configurations read besides the trace and the model
 * table: each gittins_dist that is a path (fixed, in a grid or in the
 * configurations file), once, in the order first given, into *out
 * (malloc'ed, the caller's; the strings are s's, valid while it lives);
 * *n gets their count. A tool checks its output against them
 * (tt_outfile_check). 0 or TT_ENOMEM. */
int tt_sweep_inputs(tt_ctx *ctx, const tt_sweep *s, const char ***out, int *n);

/* The number of configurations (>= 1). */
int64_t tt_sweep_count(const tt_sweep *s);
/* The parameters of configuration k (0 <= k < count). 0, or TT_EINVAL for
 * k out of range. */
int tt_sweep_params(tt_ctx *ctx, const tt_sweep *s, int64_t k, tt_params *p);
/* The name of the preset configuration k was made from (fixed, a grid or a
 * file column; the one applied last), "" when none, into buf. */
void tt_sweep_preset(const tt_sweep *s, int64_t k, char *buf, size_t size);
/* Where configuration k comes from, for messages: "configuration 7" or
 * "configuration 7 (sweep.tsv:9)". */
void tt_sweep_label(const tt_sweep *s, int64_t k, char *buf, size_t size);

/* The sha256 (64 hex digits) of every configuration's parameters, one TSV
 * line each as tt-sweep prints them (the first 13; the later ones as
 * "\tNAME=VALUE" where not at their default), in order: equal for two sweeps exactly
 * when they run the same configurations, whichever way they were written
 * (the shards of one sweep carry it so they can be checked when joined).
 * 0 or TT_EINVAL. */
int tt_sweep_digest(tt_ctx *ctx, const tt_sweep *s, char hex[65]);

/* The configurations of shard k of n (0 <= k < n): k, k + n, k + 2n, ...
 * of total; their count (which may be 0). */
int64_t tt_sweep_shard_count(int64_t total, int64_t k, int64_t n);

/* Value i (0 <= i < n) of the linear grid A:B:n: A + round((B - A) i /
 * (n - 1)), exact integer arithmetic, halves rounded up; A when n = 1.
 * A and B within +-2^61. */
int64_t tt_sweep_linear_value(int64_t A, int64_t B, int64_t n, int64_t i);

/* Simulates configurations idx[0..count) of s on c over j with tt_run
 * (tt/run.h): metrics[i] gets those of idx[i], messages name a
 * configuration with tt_sweep_label. TT_EINVAL for a position out of
 * range, else the codes of tt_run. */
int tt_sweep_run(tt_ctx *ctx, const tt_sweep *s, const tt_cluster *c, const tt_sim_jobs *j,
                 const int64_t *idx, int64_t count, const tt_run_opts *opts,
                 tt_metrics *metrics);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
