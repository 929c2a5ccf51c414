/* tt/sweep.h: many configurations of the scheduler over one trace and
 * cluster (SPEC section 8), run in parallel on the CPU cores.
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
 *   mix takes lists only, separated by ';' (its values hold ',' and ':').
 * Values repeated after rounding are kept: the grid is what was asked.
 *
 * tt_sweep_run simulates a list of configurations with a pool of threads
 * that take the next configuration from an atomic counter; each thread
 * binds one engine state and reuses it. Results land in the slot of their
 * configuration, so they do not depend on the thread count.
 *
 * Thread safety: a tt_sweep is read-only once built and may be shared;
 * building it is not thread-safe.
 */
#ifndef TT_SWEEP_H
#define TT_SWEEP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 * one configuration per row. TT_EIO, or TT_EPARSE naming file, line and
 * field (unknown or repeated name, wrong field count, bad value, no row). */
int tt_sweep_configs(tt_ctx *ctx, tt_sweep *s, const char *path);

/* The number of configurations (>= 1). */
int64_t tt_sweep_count(const tt_sweep *s);
/* The parameters of configuration k (0 <= k < count). 0, or TT_EINVAL for
 * k out of range. */
int tt_sweep_params(tt_ctx *ctx, const tt_sweep *s, int64_t k, tt_params *p);
/* Where configuration k comes from, for messages: "configuration 7" or
 * "configuration 7 (sweep.tsv:9)". */
void tt_sweep_label(const tt_sweep *s, int64_t k, char *buf, size_t size);

/* The sha256 (64 hex digits) of every configuration's parameters, one TSV
 * line each as tt-sweep prints them, in order: equal for two sweeps exactly
 * when they run the same configurations, whichever way they were written
 * (the shards of one sweep carry it so they can be checked when joined).
 * 0 or TT_EINVAL. */
int tt_sweep_digest(tt_ctx *ctx, const tt_sweep *s, char hex[65]);

/* The configurations of shard k of n (0 <= k < n): k, k + n, k + 2n, ...
 * of total; their count (which may be 0). */
int64_t tt_sweep_shard_count(int64_t total, int64_t k, int64_t n);

/* Where the simulations run. CPU is the zero value; AUTO takes the GPU
 * when one is present and CUDA is built in, else the CPU. */
typedef enum { TT_DEVICE_CPU = 0, TT_DEVICE_AUTO = 1, TT_DEVICE_GPU = 2 } tt_device;

typedef struct {
    int threads; /* CPU threads; <= 0: one per online CPU */
    tt_device device;
    /* Called after each configuration (CPU) or batch (GPU) with the number
     * done, one call at a time, from the worker threads; may be NULL. */
    void (*progress)(void *arg, int64_t done, int64_t count);
    void *progress_arg;
    /* When *stop becomes nonzero (a signal handler may set it), no further
     * configuration starts and the run fails with TT_ESTOPPED. May be NULL. */
    const atomic_int *stop;
    /* When not NULL, gets the device that ran: "cpu: 8 threads" or
     * "gpu: NVIDIA H100 ..., batches of 2048". */
    char *used;
    size_t used_size;
    /* GPU: at most this many configurations a launch (0: what device
     * memory holds); smaller batches change the speed, never the results */
    int64_t gpu_batch;
} tt_sweep_opts;

/* Threads a run of count configurations uses under opts. */
int tt_sweep_threads(const tt_sweep_opts *opts, int64_t count);

/* Simulates configurations idx[0..count) of s on c over j; metrics[i]
 * gets those of idx[i]. Every configuration is checked before any runs
 * (TT_EINVAL / TT_ERANGE, the message naming it with tt_sweep_label);
 * the jobs are checked as tt_simulate does. On a failure during the runs,
 * the threads take no further configuration and the message is that of
 * the failing one with the lowest position among those that ran.
 * 0, TT_EINVAL, TT_ERANGE, TT_ENOMEM, TT_ESTOPPED; with device GPU also
 * TT_ENOTBUILT, TT_ENODEV, or TT_EIO for a device failure. */
int tt_sweep_run(tt_ctx *ctx, const tt_sweep *s, const tt_cluster *c, const tt_sim_jobs *j,
                 const int64_t *idx, int64_t count, const tt_sweep_opts *opts,
                 tt_metrics *metrics);

/* Simulates the count parameter sets ps (each checked first, the message
 * naming "candidate i") on c over j with the model table models, as
 * tt_sweep_run does: metrics[i] gets those of ps[i], the same on every
 * device and thread count. Same return codes. */
int tt_batch_run(tt_ctx *ctx, const tt_cluster *c, const tt_models *models,
                 const tt_sim_jobs *j, const tt_params *ps, int64_t count,
                 const tt_sweep_opts *opts, tt_metrics *metrics);

#ifdef __cplusplus
}
#endif
#endif
