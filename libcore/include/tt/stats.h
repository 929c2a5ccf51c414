/* tt/stats.h: the characterisation of a trace behind tt-stats: totals,
 * distributions (nearest-rank quantiles), breakdowns by GPU count and by
 * VC, and the offered load over time.
 *
 * Every figure is an exact integer (sums in int64, checked for overflow);
 * ratios such as GPU-hours or shares are turned into fixed decimals by
 * tt_stats_fixed, so the output is the same on every machine. Each
 * function checks the trace contract (at least one job, sorted by submit,
 * gpus >= 1, duration >= 0, gpu_milli >= 0) and fails with TT_EINVAL, or
 * TT_EEMPTY for a trace without jobs, or TT_ERANGE when a sum or the time
 * span does not fit in int64. Functions only read the trace: they may run
 * on one trace from many threads, each with its own context.
 *
 * Durations are in the trace's unit (provenance duration_unit): seconds,
 * or gavel's training steps; "GPU-seconds" below are then GPU-steps.
 * Submit times are seconds in every trace.
 */
#ifndef TT_STATS_H
#define TT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Totals over the whole trace. */
typedef struct tt_stats_summary {
    int64_t jobs;
    int64_t gpu_s;       /* sum of gpus x duration: GPU-seconds */
    int64_t gpu_milli_s; /* sum of gpu_milli x duration: thousandths of GPU-seconds */
    int64_t first_submit, last_submit;
    int64_t span_s;      /* last_submit - first_submit */
    int64_t users, vcs;  /* distinct users and VCs among the jobs (absent not counted) */
    int64_t duplicates;  /* from the provenance */
    int64_t gpus_sum, max_gpus;
    int64_t duration_sum;
    /* from the optional columns, -1 when the trace lacks them (or they
     * were not read): jobs with elastic = 1; distinct workflows (wf >= 0)
     * and their tasks */
    int64_t elastic_jobs, workflows, tasks;
} tt_stats_summary;

/* Fills *out. 0 or a negative code (message in ctx). */
int tt_stats_summary_get(tt_ctx *ctx, const tt_trace *t, tt_stats_summary *out);

/* The quantities tt_stats_dist_get describes. */
enum {
    TT_STATS_DURATION,     /* duration of each job, s */
    TT_STATS_GPUS,         /* GPUs of each job */
    TT_STATS_INTERARRIVAL, /* submit[i] - submit[i-1]: n - 1 values */
    TT_STATS_GPU_S,        /* gpus x duration of each job */
    TT_STATS_NQUANTITY
};
/* "duration_s", "gpus", "interarrival_s", "gpu_s"; NULL out of range. */
const char *tt_stats_quantity_name(int quantity);

/* The percentiles reported: 0 (the minimum), 10, 25, 50, 75, 90, 99 and
 * 100 (the maximum). */
#define TT_STATS_NPCT 8
extern const int tt_stats_pct[TT_STATS_NPCT];

/* The distribution of one quantity. */
typedef struct tt_stats_dist {
    int64_t n;                /* values; 0 (one job, interarrival) leaves sum and q zero */
    int64_t sum;              /* the mean is sum / n */
    int64_t q[TT_STATS_NPCT]; /* the nearest-rank value at each tt_stats_pct */
} tt_stats_dist;

/* Fills *out for quantity (TT_STATS_*): sorts a copy of the values.
 * 0 or a negative code (TT_EINVAL for an unknown quantity). */
int tt_stats_dist_get(tt_ctx *ctx, const tt_trace *t, int quantity, tt_stats_dist *out);

/* The 1-based nearest rank of percentile pct (0..100) among n >= 1 sorted
 * values: ceil(pct * n / 100), at least 1 (SPEC section 7). */
int64_t tt_stats_rank(int64_t n, int pct);

/* One row of a breakdown. */
typedef struct tt_stats_group {
    int64_t key;      /* the GPU count, or the VC code (-1: jobs with no VC) */
    const char *name; /* the VC name (owned by the trace); NULL for no VC and for GPU counts */
    int64_t jobs;
    int64_t gpu_s;
} tt_stats_group;

/* Jobs and GPU-seconds per distinct GPU count, ascending. *out (malloc'ed,
 * the caller frees it) gets *n rows. 0 or a negative code. */
int tt_stats_by_gpus(tt_ctx *ctx, const tt_trace *t, tt_stats_group **out, int64_t *n);

/* Jobs and GPU-seconds per VC, jobs with no VC in one row of key -1; by
 * GPU-seconds descending, ties by name ascending (no VC sorting as "-").
 * Ownership as tt_stats_by_gpus. */
int tt_stats_by_vc(tt_ctx *ctx, const tt_trace *t, tt_stats_group **out, int64_t *n);

/* Offered load in bins of `bin` seconds from the first submit, as if every
 * job ran from its submit for its duration. Bin b covers
 * [start + b * bin, start + (b + 1) * bin); the bins reach the last
 * submit and the last end. A trace whose durations are not seconds
 * (tt_trace_in_seconds) has no offered load: gpu_s is NULL and the bins
 * reach the last submit. */
typedef struct tt_stats_load {
    int64_t start;           /* the first submit */
    int64_t bin;             /* bin length, s */
    int64_t nbins;
    int64_t *submitted;      /* jobs submitted in the bin */
    int64_t *submitted_gpus; /* their GPUs */
    int64_t *gpu_s;          /* GPU-seconds of all jobs that overlap the bin, or NULL */
} tt_stats_load;

/* The default cap on the number of bins. */
#define TT_STATS_MAX_BINS 10000000

/* Fills *out in O(jobs + bins). TT_EINVAL when bin < 1 or when more than
 * max_bins bins would be needed (the message suggests a larger bin). The
 * arrays are the caller's: release them with tt_stats_load_free. */
int tt_stats_load_get(tt_ctx *ctx, const tt_trace *t, int64_t bin, int64_t max_bins,
                      tt_stats_load *out);
/* Frees the arrays of l and zeroes it; NULL is accepted. */
void tt_stats_load_free(tt_stats_load *l);

/* Writes num / den rounded to `decimals` places (halves away from zero),
 * e.g. (7, 3, 2) -> "2.33", (-1, 8, 2) -> "-0.13", (1, 1000, 2) -> "0.00".
 * den >= 1, 0 <= decimals <= 18. Returns the length written, or TT_EINVAL
 * for a bad den or decimals or a buffer too small (48 bytes always do). */
int tt_stats_fixed(char *buf, size_t size, int64_t num, int64_t den, int decimals);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
