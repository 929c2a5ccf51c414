/* tt/gen.h: synthetic job traces with Philly-like shapes.
 *
 * Arrivals are a non-homogeneous Poisson process of submissions, busier on
 * weekday afternoons than at night and at weekends; each submission is a
 * burst of near-simultaneous jobs (a hyper-parameter sweep) of geometric
 * size that share GPU count, user and VC. GPU counts come from a discrete
 * mix; durations from a mixture of log-normals whose weights may depend on
 * the GPU count (big jobs run longer); users and VCs from Zipf laws. The
 * defaults are fitted to the Philly per-job CSV (data/README.md).
 *
 * Every random draw is a counter-based hash of (seed, stream, index) and
 * every computation that decides a value uses integer or IEEE-754 basic
 * arithmetic only (the logarithm and exponential are computed here, not
 * taken from libm), so the same parameters give the same trace on any
 * machine with IEEE doubles. Thread-safe for distinct contexts.
 */
#ifndef TT_GEN_H
#define TT_GEN_H

#include <stdint.h>

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

#define TT_GEN_MAX_GPU_MIX 64
#define TT_GEN_MAX_DUR_MIX 8
#define TT_GEN_MIN_DURATION 1
#define TT_GEN_MAX_DURATION 5184000 /* 60 days */
#define TT_GEN_MAX_SHAPES 8
#define TT_GEN_MAX_SHAPE_TASKS 1000

/* A workflow's shape (SPEC 12.7), tasks numbered 0.. in submit order:
 * chain:L, L tasks each on the one before; fan:W, one task and W tasks on
 * it; mr:M:R, M map tasks and R reduce tasks each on every map task. */
enum { TT_GEN_CHAIN, TT_GEN_FAN, TT_GEN_MR };
typedef struct tt_gen_shape {
    int kind;     /* TT_GEN_* */
    int32_t a, b; /* L; W; M and R */
} tt_gen_shape;
/* Its number of tasks: L, W + 1, M + R. */
int64_t tt_gen_shape_tasks(const tt_gen_shape *s);

/* Generator parameters; the tt-gen option of each field is in brackets. */
typedef struct tt_gen_params {
    int64_t jobs;        /* [-n] jobs to generate, >= 1 */
    int64_t seed;        /* [-s] >= 0 */
    double interarrival; /* [-a] long-run mean seconds between jobs */
    double batch;        /* [-b] mean jobs per submission (geometric), >= 1 */
    double day_ratio;    /* [--day-ratio] busiest hour's rate / quietest hour's */
    int32_t peak_hour;   /* [--peak-hour] 0-23: the busiest hour starts then */
    double weekend;      /* [--weekend] weekend rate / weekday rate */
    int64_t start;       /* [--start] unix epoch of the trace start, or
                            TT_TIME_NONE: relative times, t = 0 a Monday 00:00 */
    int32_t users, vcs;  /* [-u] [-v] how many, >= 1 */
    double user_skew;    /* [--user-skew] Zipf exponent over users */
    double vc_skew;      /* [--vc-skew] Zipf exponent over VCs */
    int ngpu;            /* [-g] GPU count mix: ngpu entries */
    int32_t gpu_k[TT_GEN_MAX_GPU_MIX];
    double gpu_w[TT_GEN_MAX_GPU_MIX]; /* relative weights, > 0 */
    int ndur;                         /* [-d] duration mix: ndur log-normals */
    double dur_w[TT_GEN_MAX_DUR_MIX];      /* relative weights, > 0 */
    double dur_median[TT_GEN_MAX_DUR_MIX]; /* seconds, > 0 */
    double dur_sigma[TT_GEN_MAX_DUR_MIX];  /* of the natural log, >= 0 */
    int ngpu_dur; /* [-w] the duration mix's weights for ngpu_dur GPU counts;
                     jobs of other counts take dur_w */
    int32_t gpu_dur_k[TT_GEN_MAX_GPU_MIX];                    /* GPU count */
    double gpu_dur_w[TT_GEN_MAX_GPU_MIX][TT_GEN_MAX_DUR_MIX]; /* ndur weights,
                                                  >= 0, not all 0 */
    /* The optional columns (SPEC 10.6, 12.7), each synthetic and each
     * absent at its default, so the defaults' traces stay as they were. */
    int32_t elastic; /* [--elastic] permille of jobs elastic: 1 where SPEC 10.1's
                        hash of (seed, job) says, as tt-sim -p seed=SEED
                        -p el_frac=PERMILLE would draw; -1: no column */
    double wf_frac;  /* [--wf-frac] share of jobs that are workflow tasks, in
                        [0, 1]: jobs in submit order, a workflow taking the
                        next ones; 0: no wf, deps or out_mb column */
    int nshape;      /* [--wf-shape] shapes, one drawn per workflow, equally */
    tt_gen_shape shape[TT_GEN_MAX_SHAPES];
    int32_t models;  /* [--models] mid Zipf (exponent 1) over ids 0..M-1 for
                        every job; 0: no mid column */
} tt_gen_params;

/* The Philly-like defaults (jobs = 1000, seed = 0). */
void tt_gen_defaults(tt_gen_params *p);

/* Parses a GPU mix "GPUS:WEIGHT,..." (e.g. "1:0.8,8:0.2"; weights are
 * relative, counts work as well as shares) into p->gpu_k/gpu_w/ngpu.
 * 0, or TT_EINVAL with the reason in ctx (p unchanged then). */
int tt_gen_parse_gpus(tt_ctx *ctx, const char *spec, tt_gen_params *p);

/* Parses a duration mix "WEIGHT:MEDIAN:SIGMA,..." of log-normals (median
 * in seconds, sigma of the natural log) into p->dur_*, and drops the
 * per-GPU-count weights (p->ngpu_dur = 0): they weighed the old
 * components. 0 or TT_EINVAL (p unchanged then). */
int tt_gen_parse_durations(tt_ctx *ctx, const char *spec, tt_gen_params *p);

/* Parses per-GPU-count weights of the duration mix "GPUS:W1:...:Wn,..."
 * (n = p->ndur, weights relative, >= 0, not all 0; e.g. "1:6:3:1,8:0:1:9"
 * for three components) into p->gpu_dur_*; a job of a count not listed
 * takes p->dur_w. Counts need not be in the GPU mix. 0 or TT_EINVAL (p
 * unchanged then). */
int tt_gen_parse_gpu_durations(tt_ctx *ctx, const char *spec, tt_gen_params *p);

/* Parses workflow shapes "chain:L,fan:W,mr:M:R" (any number of each, at
 * most TT_GEN_MAX_SHAPES, each of at most TT_GEN_MAX_SHAPE_TASKS tasks)
 * into p->shape/nshape. 0 or TT_EINVAL (p unchanged then). */
int tt_gen_parse_shapes(tt_ctx *ctx, const char *spec, tt_gen_params *p);

/* Checks every parameter's range. 0, or TT_EINVAL naming the field. */
int tt_gen_check(tt_ctx *ctx, const tt_gen_params *p);

/* The tt-gen command line that reproduces p ("tt-gen -n 1000 -s 0 ..."),
 * numbers written so they read back exactly. Caller frees; NULL when out
 * of memory. */
char *tt_gen_describe(const tt_gen_params *p);

/* Generates a trace, sorted by submit time, with names job-1..job-N in
 * that order, users user-1..user-U and VCs vc-1..vc-V (1 = most frequent
 * rank); start, end, status and model absent; the optional columns that
 * p asks for, out_mb log-uniform over [1, 1000] MiB for each task.
 * Provenance: format "tt-gen", notes = tt_gen_describe(p) (and, with an
 * optional column, which are synthetic), rows read = rows kept = jobs, time base
 * "unix" with --start, else "relative". 0 with *out owned by the caller,
 * or TT_EINVAL / TT_ERANGE / TT_ENOMEM with the reason in ctx. */
int tt_gen_run(tt_ctx *ctx, const tt_gen_params *p, tt_trace **out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
