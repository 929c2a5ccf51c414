/* tt/sim.h: one simulation of a trace on a cluster under one scheduler
 * configuration (docs/model.md sections 2 to 7), on the CPU.
 *
 * The pieces: a cluster (RxNxG), a parameter set (tt_params, every SPEC 6
 * parameter plus seed and mix), a model table (data/models.tsv), and the
 * jobs of a trace with each job's model class resolved against that table
 * (-1 where the trace names no known class: those are drawn from the mix
 * per configuration, from a counter-based hash of (seed, job index)).
 * tt_simulate runs the event loop of kernels/sim_step.h, the same code the
 * GPU backend runs, and gives per-job results, the SPEC 7 metrics and, on
 * request, a timeline.
 *
 * Thread safety: every function is reentrant; distinct simulations may run
 * in parallel over one shared, read-only tt_sim_jobs and tt_models.
 */
#ifndef TT_SIM_H
#define TT_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

#define TT_INF INT64_MAX      /* an infinite w0, w1 or theta */
#define TT_MAX_CLASSES 64     /* model classes in one table */
#define TT_MAX_CLUSTER_GPUS 65536

typedef struct {
    int32_t racks, nodes_per_rack, gpus_per_node;
} tt_cluster;

/* Parses "RxNxG" (e.g. "4x32x8") or, when spec is not of that shape, reads
 * the file spec: a TSV with the header "racks nodes_per_rack gpus_per_node"
 * and one row. Every number >= 1, at most TT_MAX_CLUSTER_GPUS GPUs in all.
 * 0, or TT_EINVAL / TT_EIO / TT_EPARSE with a message naming the field. */
int tt_cluster_parse(tt_ctx *ctx, const char *spec, tt_cluster *c);
/* "4x32x8" into buf. */
void tt_cluster_format(const tt_cluster *c, char *buf, size_t size);

enum {
    TT_ORDER_FIFO, TT_ORDER_SJF, TT_ORDER_SRTF, TT_ORDER_LAS,
    TT_ORDER_DLAS, TT_ORDER_GITTINS, TT_ORDER_FTF /* SPEC 11 */
};
#define TT_NORDERS 7
#define TT_MAX_MLFQ 7           /* mlfq thresholds: at most 8 queues */
#define TT_GITTINS_DIST_MAX 512 /* gittins_dist: "trace" or a path */

/* The scheduler's parameters. Times in seconds, theta and congestion in
 * permille. mix[c] is the integer weight of class c for jobs whose model is
 * unknown; the default gives every class weight 1. */
typedef struct {
    int32_t order;
    int64_t w0, w1, theta; /* TT_INF = infinite */
    int64_t restart, congestion, min_run, max_preempt;
    int32_t backfill; /* 1 or 0 */
    int64_t load;     /* permille scale of the offered load, >= 1 */
    uint64_t seed;
    uint32_t mix[TT_MAX_CLASSES];
    int32_t mix_set; /* 0: default equal weights (mix[] all 1) */
    /* per-class delay timers: class c waits class_w0[c] (class_w1[c]) in
     * place of w0 (w1); TT_TIMER_GLOBAL where it has none of its own */
    int64_t class_w0[TT_MAX_CLASSES], class_w1[TT_MAX_CLASSES];
    /* the queue disciplines of SPEC 11 (dlas, gittins): nmlfq ascending
     * GPU-second thresholds; promote (permille, 0 = off); priority
     * preemption (1 or 0); the Gittins quantum (GPU-s) and distribution
     * ("trace", or a file of integers) */
    int32_t nmlfq;
    int64_t mlfq[TT_MAX_MLFQ];
    int64_t promote;
    int32_t prio_preempt;
    int64_t gittins_delta;
    char gittins_dist[TT_GITTINS_DIST_MAX];
    /* elastic jobs (SPEC 10, docs/model.md section 12): doublings above and
     * halvings below a job's GPUs (0 .. 6), the permille of jobs elastic
     * where the trace does not say, resize TT_RESIZE_SIDECAR (overhead
     * resize_cost) or TT_RESIZE_TERM (overhead restart), the gap (s) from
     * a job's last resize to its next grow */
    int64_t el_up, el_down, el_frac, resize_cost, resize_gap;
    int32_t resize;
    /* workflows and GPU memory (docs/model.md section 13): MiB per GPU (0:
     * no model cache), models per GPU, host-to-GPU and node-to-node
     * bandwidths (MiB/s), eviction TT_EVICT_*, placement TT_CACHE_PLACE_*,
     * the warm wait (s) */
    int64_t gpu_mem, cache_slots, load_bw, xfer_bw, w_warm;
    int32_t evict, cache_place;
    /* dlas and gittins: where an evicted job waits in its queue,
     * TT_REQUEUE_KEEP (SPEC 11.1) or TT_REQUEUE_FRONT (Tiresias's
     * simulator; docs/model.md section 11, item 11) */
    int32_t requeue;
    /* dlas and gittins: step 7's victims, TT_PRIO_VICTIMS_LOWEST (SPEC
     * 11.1) or TT_PRIO_VICTIMS_REFILL (Tiresias's simulator; docs/model.md
     * section 11, item 12) */
    int32_t prio_victims;
} tt_params;

enum { TT_RESIZE_SIDECAR, TT_RESIZE_TERM };
enum { TT_EVICT_LRU, TT_EVICT_DEMAND };
enum { TT_CACHE_PLACE_OFF, TT_CACHE_PLACE_AFFINITY };
enum { TT_REQUEUE_KEEP, TT_REQUEUE_FRONT };
enum { TT_PRIO_VICTIMS_LOWEST, TT_PRIO_VICTIMS_REFILL };

#define TT_TIMER_GLOBAL INT64_C(-1)

/* The parameter names, in output order: order w0 w1 theta restart
 * congestion min_run max_preempt backfill load seed mix timers, then
 * SPEC 11's mlfq promote prio_preempt gittins_delta gittins_dist, then
 * section 10's el_up el_down el_frac resize resize_cost resize_gap, then
 * section 12's gpu_mem cache_slots load_bw xfer_bw evict cache_place w_warm,
 * then requeue prio_victims (each group after the others, so the columns that were
 * there keep their places). */
extern const char *const tt_param_names[];
#define TT_NPARAMS 33
/* A parameter's index: its place in tt_param_names and in the output
 * columns (params.c's tables are indexed by it and checked against
 * TT_NPARAMS when built). */
enum {
    TT_P_ORDER, TT_P_W0, TT_P_W1, TT_P_THETA, TT_P_RESTART, TT_P_CONGESTION, TT_P_MIN_RUN,
    TT_P_MAX_PREEMPT, TT_P_BACKFILL, TT_P_LOAD, TT_P_SEED, TT_P_MIX, TT_P_TIMERS, TT_P_MLFQ,
    TT_P_PROMOTE, TT_P_PRIO_PREEMPT, TT_P_GITTINS_DELTA, TT_P_GITTINS_DIST, TT_P_EL_UP,
    TT_P_EL_DOWN, TT_P_EL_FRAC, TT_P_RESIZE, TT_P_RESIZE_COST, TT_P_RESIZE_GAP, TT_P_GPU_MEM,
    TT_P_CACHE_SLOTS, TT_P_LOAD_BW, TT_P_XFER_BW, TT_P_EVICT, TT_P_CACHE_PLACE, TT_P_W_WARM,
    TT_P_REQUEUE, TT_P_PRIO_VICTIMS, TT_P_COUNT
};
/* Parameter i held as an integer (numbers, and words held as their index:
 * backfill, prio_preempt, requeue, prio_victims, ...): 1 and its value in
 * *v; 0 for one that is not (mix, timers, mlfq, gittins_dist). */
int tt_param_int(const tt_params *p, int i, int64_t *v);
/* Sets integer parameter i (tt_param_int says which); no range check. */
void tt_param_set_int(tt_params *p, int i, int64_t v);
/* 1 for a parameter the tuner may search: an integer one that is the
 * scheduler's to choose (not seed, el_frac, which describe the workload,
 * nor gpu_mem, load_bw, xfer_bw, the hardware's). */
int tt_param_searchable(int i);
/* Every parameter tt_params_set and tt_params_format know: all of them are
 * output columns, sweep axes and tune dimensions. */
#define TT_NPARAMS_ALL TT_NPARAMS
/* Room for any parameter as text (a mix or timers of 64 named classes). */
#define TT_PARAM_TEXT_MAX (TT_MAX_CLASSES * 112)

/* SPEC defaults: fifo, w0=w1=theta=inf, restart 30, congestion 0,
 * min_run 300, max_preempt 3, backfill 1, load 1000, seed 1, equal mix;
 * mlfq 3250,7200, promote 0, prio_preempt 1, gittins_delta 3250,
 * gittins_dist trace; el_up 0, el_down 0, el_frac 1000, resize sidecar,
 * resize_cost 10, resize_gap 300. */
void tt_params_default(tt_params *p);

typedef struct tt_models tt_models;

/* Sets parameter name to value ("inf" allowed for w0, w1, theta; order by
 * name; mix as NAME:WEIGHT,... naming classes of models, which must be
 * given for mix). TT_EINVAL with "parameter 'w0': ..." on a bad name or
 * value. The value is checked against its range.
 * mlfq: ascending thresholds >= 1 separated by ',' or '/' ("3250,7200"),
 * at most TT_MAX_MLFQ. gittins_dist: "trace", a bundled name
 * (tt_gittins_bundled) or a file's path, read when a run needs it
 * (tt_simulate, tt/run.h).
 * "preset" is no parameter of its own: it sets several to a named
 * baseline (tt_params_preset).
 * Per-class timers (models required): "w0.CLASS" and "w1.CLASS" set one
 * class's timer (seconds, inf, or "-" for the global one); "timers" sets
 * them all as CLASS:W0:W1,... (W0, W1 as for w0.CLASS; classes not named
 * use the global pair; "" or "-": none of their own). */
int tt_params_set(tt_ctx *ctx, tt_params *p, const tt_models *models, const char *name,
                  const char *value);
/* Writes the value of parameter i (index into tt_param_names) as text,
 * the way tt_params_set reads it back ("inf", "fifo", "bert:1,ncf:2";
 * timers: "-" when no class has its own, else "bert:600:-,ncf:inf:0" in
 * class order). */
int tt_params_format(const tt_params *p, const tt_models *models, int i, char *buf,
                     size_t size);
/* The tt-sim options that set p from the defaults: "-p NAME=VALUE" for
 * each parameter whose text (tt_params_format) differs from the default's,
 * in the order of tt_param_names, separated by single spaces ("-p w0=600
 * -p load=3000"; "" for the defaults). 0; TT_EINVAL when size is 0;
 * TT_ERANGE when the text does not fit (buf holds as much as fits). */
int tt_params_format_options(const tt_params *p, const tt_models *models, char *buf,
                             size_t size);
/* The file a run under p reads besides the trace and the model table: its
 * gittins_dist when that is a path (p's own string), else NULL ("trace" or
 * a bundled name). A tool checks its output against it (tt_outfile_check). */
const char *tt_params_input(const tt_params *p);
/* 1 when a gittins_dist value names a distribution compiled into the
 * library rather than a file: "yarn-gput1000", Tiresias's YARN GPU-time
 * samples (data/gittins/README.md). A file of that name is read as
 * ./yarn-gput1000. */
int tt_gittins_bundled(const char *value);

/* The named baselines (SPEC 11.9 and SPEC 6's): "yarn-cs" (the defaults),
 * "tiresias-dlas", "tiresias-gittins", "pollux-tiresias", "themis". Sets in
 * p the parameters the baseline fixes and leaves the others. 0, or
 * TT_EINVAL naming the presets. */
int tt_params_preset(tt_ctx *ctx, tt_params *p, const char *name);
/* Preset i's name, and the settings it applies ("order=dlas mlfq=3250,7200
 * w0=0 w1=0"); NULL past the last. */
const char *tt_preset_name(int i);
const char *tt_preset_settings(int i);

/* Splits "w0.CLASS" / "w1.CLASS": *which = 0 (w0) or 1 (w1), *cls the
 * class index. 1 when name has that form and names a class of models, 0
 * when it has another form, -1 when the class is unknown. */
int tt_params_class_timer_name(const tt_models *models, const char *name, int *which, int *cls);

/* ---- the model table ---- */

/* Reads a model table (TSV, header "name slow_l1 slow_l2 source"; slowdowns
 * permille, 1000 .. 1000000; names unique; 1 .. TT_MAX_CLASSES rows). On
 * error: TT_EIO / TT_EPARSE naming file, line and field, *out = NULL. */
int tt_models_load(tt_ctx *ctx, const char *path, tt_models **out);
/* A table from arrays (names copied), for tests and programs. */
int tt_models_create(tt_ctx *ctx, int n, const char *const *names, const int64_t *slow_l1,
                     const int64_t *slow_l2, tt_models **out);
void tt_models_free(tt_models *m);
int tt_models_count(const tt_models *m);
/* Class index of name, or -1. */
int tt_models_find(const tt_models *m, const char *name);
const char *tt_models_name(const tt_models *m, int c);
/* The optional scale column (SPEC 10.2): class c's throughput at
 * 1, 2, 4, ... GPUs on a packed placement, permille of one GPU, into
 * sp[0 .. TT_SCALE_VALUES); returns the count (0: the column is absent or
 * empty for c, linear speedup). */
#define TT_SCALE_VALUES 8
int tt_models_scale(const tt_models *m, int c, int64_t *sp);
/* Sets class c's scale values (n = 0: linear). TT_EINVAL unless sp[0] is
 * 1000 and the values never decrease. */
int tt_models_set_scale(tt_ctx *ctx, tt_models *m, int c, int n, const int64_t *sp);
/* The optional mem_mb column (docs/model.md section 13): class c's model
 * size in MiB, -1 when unknown (or the column is absent). */
int32_t tt_models_mem_mb(const tt_models *m, int c);
/* Sets it (mb >= -1). 0 or TT_EINVAL. */
int tt_models_set_mem_mb(tt_ctx *ctx, tt_models *m, int c, int32_t mb);
int64_t tt_models_slow_l1(const tt_models *m, int c);
int64_t tt_models_slow_l2(const tt_models *m, int c);
/* The path or "(built in)" the table came from, and the SHA-256 of its
 * bytes (hex), for provenance. */
const char *tt_models_source(const tt_models *m);
/* The table of data/models.tsv compiled into the library, so no data file
 * is needed; its source is "(built in)" and its SHA-256 that of the file.
 * 0 or TT_ENOMEM; *out as for tt_models_load. */
int tt_models_default(tt_ctx *ctx, tt_models **out);
/* The SHA-256 (64 hex digits) that tt_models_source promises: of the file's
 * raw bytes, of the built-in text, or for tt_models_create of the table as
 * TSV ("name slow_l1 slow_l2" and one row per class). */
const char *tt_models_sha256(const tt_models *m);

/* ---- jobs ready to simulate ---- */

/* The numeric columns of a trace as the engine reads them, shared by every
 * configuration: submit (sorted), duration (s), gpus, and cls = the model
 * class of each job in the table, or -1 when the trace names none the table
 * knows. Owns its arrays. */
typedef struct {
    int64_t n;
    int64_t *submit, *duration;
    int32_t *gpus, *cls;
    int64_t unknown_models; /* jobs with cls = -1 */
    /* the trace's elasticity columns (SPEC 10.1), NULL when it
     * has none: elastic 1, 0 or -1 (unknown: el_frac decides), gpus_min and
     * gpus_max (-1: no bound); owned like the columns above */
    int8_t *elastic;
    int32_t *gpus_min, *gpus_max;
    /* the trace's workflow columns (SPEC 12.7), NULL when absent,
     * owned the same way: wf (-1: not a task), the parents
     * deps[dep_off[i] .. dep_off[i + 1]) (n + 1 offsets, row indices),
     * mid, mem_mb, out_mb */
    int64_t *wf, *dep_off;
    int32_t *deps, *mid, *mem_mb, *out_mb;
} tt_sim_jobs;

/* From a sorted trace and a model table. TT_EINVAL when the trace is not
 * sorted, a duration is absent or negative, or durations are not seconds
 * (provenance duration_unit, e.g. gavel's steps). Free with
 * tt_sim_jobs_free. */
int tt_sim_jobs_from_trace(tt_ctx *ctx, const tt_trace *t, const tt_models *m,
                           tt_sim_jobs *out);
/* tt_sim_jobs_from_trace without a copy: out takes t's submit, duration,
 * gpus and model columns (the model codes become classes in place) and its
 * elasticity and workflow columns, which become NULL in t; t keeps its
 * other columns and its provenance, and is
 * fit only for reading those and for tt_trace_free. On failure t is as it
 * was. Same return codes. */
int tt_sim_jobs_take(tt_ctx *ctx, tt_trace *t, const tt_models *m, tt_sim_jobs *out);
void tt_sim_jobs_free(tt_sim_jobs *j);
/* The sha256 (64 hex digits) of j as the engine reads it: the job count,
 * then each column present (submit, duration, gpus, cls, and the
 * elasticity and workflow columns), named, its values little-endian. Two
 * traces give one digest exactly when they simulate alike under one
 * model table, whatever their source (tt-gen, or one CSV read with two
 * column maps). Result files keep it as trace_jobs_sha256
 * (tt_provenance.jobs_sha256), which tt-merge compares. */
void tt_sim_jobs_sha256(const tt_sim_jobs *j, char hex[65]);

/* The class job i of j runs as under p: cls[i], or the mix's pick for
 * hash(seed, i) when cls[i] = -1. */
int32_t tt_sim_job_class(const tt_sim_jobs *j, int nclasses, const tt_params *p, int64_t i);

/* ---- results ---- */

/* Per job. Rejected jobs (more GPUs than the cluster): rejected = 1, times
 * TT_TIME_NONE, counts 0, level -1. */
typedef struct {
    int64_t submit;      /* after load scaling */
    int64_t start, end;  /* first start, end */
    int64_t queue;       /* seconds waited, over all waits */
    int64_t gpu_s;       /* GPU-seconds held, restarts included */
    int32_t cls;         /* model class it ran as */
    int32_t level;       /* level of its last placement */
    int32_t slow;        /* effective slowdown of its last placement, permille */
    int32_t preemptions;
    int32_t starts[3];   /* starts at L0, L1, L2 */
    int32_t rejected;
    int64_t rho;         /* finish-time fairness (SPEC 11.6), permille;
                            TT_METRIC_NONE for duration 0 or rejected */
} tt_job_result;

/* SPEC 7, in its order; tt_metric_names has the names. */
typedef struct {
    int64_t makespan;
    double jct_mean;
    int64_t jct_p50, jct_p90, jct_p99;
    double queue_mean;
    int64_t queue_p99;
    double comm_gpu_s, comm_share;
    int64_t restart_gpu_s, preemptions, placed_l0, placed_l1, placed_l2;
    double util;
    int64_t rejected;
    /* section 10.8, after section 7's */
    int64_t resizes, grows, shrinks, resize_gpu_s, loan_gpu_s;
    /* SPEC 11.6, after the others in every output */
    int64_t demotions, promotions, preempt_prio;
    double ftf_mean;
    int64_t ftf_max, ftf_unfair;
    /* section 12.8, after section 11's */
    double wf_jct_mean;
    int64_t wf_jct_p99, wf_rejected, cache_hit, loads, model_evicts, load_gpu_s, xfer_gpu_s;
} tt_metrics;

extern const char *const tt_metric_names[];
#define TT_NMETRICS 35

/* A metric that cannot be computed (docs/model.md, section 7: no job was
 * simulated, or a share of nothing): an int64 metric holds TT_METRIC_NONE,
 * a real one NAN. TSV shows it as an empty field, HDF5 as NAN or, in an
 * int64 column, as the value of its "missing" attribute. */
#define TT_METRIC_NONE INT64_MIN

/* 1 when metric i of m has a value, 0 when it cannot be computed or i is
 * out of range. */
int tt_metric_defined(const tt_metrics *m, int i);
/* Why a metric of m cannot be computed, as words for a message ("every job
 * is larger than the cluster": no job ran, so makespan has no value; else
 * "no GPU time was used"), or NULL when every metric has a value. */
const char *tt_metrics_why_undefined(const tt_metrics *m);
/* Metric i of m as text: integers exactly, reals with %.6f (comm_gpu_s
 * with 3 decimals, it is exact in milli-GPU-seconds); "" when it cannot be
 * computed. */
void tt_metric_format(const tt_metrics *m, int i, char *buf, size_t size);
/* Metric i as a double (for HDF5 and plotting); NAN when it cannot be
 * computed. */
double tt_metric_value(const tt_metrics *m, int i);

/* One row of a timeline: the state after every event time's passes. */
typedef struct {
    int64_t t;
    int64_t waiting, running, busy_gpus;
    int64_t running_level[3];
} tt_timeline_row;

typedef struct {
    int64_t n, cap;
    tt_timeline_row *rows;
} tt_timeline;
void tt_timeline_free(tt_timeline *tl);

/* Simulates j on c under p. out (j->n entries), m and tl may be NULL.
 * TT_EINVAL when p or c is out of range, TT_ERANGE when a job is beyond the
 * engine's integer bounds (docs/model.md section 10; the message names the
 * job), TT_ENOMEM. */
int tt_simulate(tt_ctx *ctx, const tt_cluster *c, const tt_params *p, const tt_models *models,
                const tt_sim_jobs *j, tt_job_result *out, tt_metrics *m, tt_timeline *tl);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
