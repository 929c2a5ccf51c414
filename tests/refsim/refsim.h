/* The reference simulator: SPEC (docs/model.md) sections 2 to 7, 11, 12 and
 * 13 implemented literally and naively (plain arrays, O(n^2) scans), so the real
 * engine can be checked against it on small traces (5..200 jobs, a few
 * nodes). It uses no libcore code. Where the model text is ambiguous, the
 * reading taken is listed at the top of refsim.c (sections 2 to 7), of
 * refsim_orders.c (section 11), of refsim_wf.c (section 12, workflows
 * and GPU memory) and of refsim_links.c (section 13, shared links);
 * refsim_check.c checks a run's invariants.
 *
 * Single-threaded and reentrant: no global state. */
#ifndef TT_REFSIM_H
#define TT_REFSIM_H

#include <stddef.h>
#include <stdint.h>

#define REF_INF INT64_MAX  /* w0, w1, theta infinite */
#define REF_NONE INT64_MIN /* a time that did not happen (rejected jobs) */

typedef struct {
    int32_t racks, nodes_per_rack, gpus_per_node;
} ref_cluster;

enum { REF_FIFO, REF_SJF, REF_SRTF, REF_LAS, REF_DLAS, REF_GITTINS, REF_FTF };
#define REF_MAX_MLFQ 7
enum { REF_EVICT_LRU, REF_EVICT_DEMAND };
enum { REF_PLACE_OFF, REF_PLACE_AFFINITY };
enum { REF_NET_OFF, REF_NET_LINKS };
#define REF_MAX_SLOTS 8

/* SPEC 12's columns of one trace row: wf (-1: a plain job), the parents
 * (row indices deps[0 .. ndeps)), mid (-1: the class), mem_mb (-1: the
 * model table's), out_mb (MiB). */
typedef struct {
    int64_t wf;
    int32_t mid, mem_mb, out_mb, ndeps;
    const int32_t *deps;
} ref_task;

/* SPEC defaults: fifo, inf, inf, inf, 30, 0, 300, 3, 1, 1000; SPEC 11.5's:
 * mlfq 3250,7200, promote 0, prio_preempt 1, gittins_delta 3250, the
 * trace's distribution */
typedef struct {
    int order;
    int64_t w0, w1, theta, restart, congestion, min_run, max_preempt;
    int backfill;
    int64_t load;
    /* per-class timers: class c waits w0c[c], w1c[c] in place of w0, w1;
     * NULL (the default): every class waits w0, w1 */
    const int64_t *w0c, *w1c;
    /* dlas, gittins: nmlfq ascending thresholds (GPU-s) */
    int nmlfq;
    int64_t mlfq[REF_MAX_MLFQ];
    int64_t promote; /* permille; 0 = off */
    int prio_preempt;
    int64_t gittins_delta;
    /* dlas, gittins: 0 (default): an evicted job keeps its place in its
     * queue (SPEC 11.1); 1: requeue=front (docs/model.md 11, item 11) */
    int requeue_front;
    /* dlas, gittins: 0 (default): step 7's victims from the lowest
     * priority up; 1: prio_victims=refill (docs/model.md 11, item 12) */
    int prio_refill;
    /* gittins: ngit samples (GPU-s, any order); NULL: the trace's */
    const int64_t *git;
    int64_t ngit;
    /* SPEC 12 (defaults 0, 4, 2000, 1250, lru, off, 0): MiB per GPU (0: no
     * cache), models per GPU (1 .. REF_MAX_SLOTS), MiB/s host to GPU and
     * between nodes, REF_EVICT_*, REF_PLACE_*, the warm wait (s) */
    int64_t gpu_mem, cache_slots, load_bw, xfer_bw;
    int evict, cache_place;
    int64_t w_warm;
    /* the trace's SPEC 12 columns, one ref_task per job, carried here as
     * w0c and git are; NULL (the default): no row is a task, every model
     * is its class's with the table's size, no outputs */
    const ref_task *task;
    /* SPEC 13 (defaults off, 1, 2): REF_NET_*, the jobs a node's NIC and a
     * rack's uplink carry at full speed */
    int net;
    int64_t nic_cap, up_cap;
} ref_params;

/* mem_mb: the class's model size (MiB, -1 unknown), read only when
 * gpu_mem > 0 (so tables written as {l1, l2} keep meaning what they did) */
typedef struct {
    int64_t slow_l1, slow_l2; /* permille, >= 1000 */
    int32_t mem_mb;
} ref_model;

/* Sorted by submit; model = class index already resolved (0 .. nmodels-1). */
typedef struct {
    int64_t submit, duration;
    int32_t gpus, model;
} ref_job;

/* Per job. Rejected jobs (larger than the cluster): rejected = 1, times
 * REF_NONE, counts 0, last_level -1. */
typedef struct {
    int64_t first_start, end, queue_total, used_gpu_s;
    int32_t preemptions, starts_l0, starts_l1, starts_l2, rejected, last_level;
    int64_t rho; /* SPEC 11.6, permille; REF_NONE: rejected or duration 0 */
} ref_job_result;

/* SPEC section 7, in its order. */
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
    /* SPEC 11.6 */
    int64_t demotions, promotions, preempt_prio;
    double ftf_mean;
    int64_t ftf_max, ftf_unfair;
    /* SPEC 12.8 (restart_gpu_s above keeps only the restart share) */
    double wf_jct_mean;
    int64_t wf_jct_p99, wf_rejected, cache_hit, loads, model_evicts, load_gpu_s, xfer_gpu_s;
    /* SPEC 13.6 */
    double link_gpu_s;
    int64_t link_peak;
} ref_metrics;

/* One segment: a stretch of a job holding GPUs, from a start (or, with
 * SPEC 13's links, a re-rating) at t0 to its end (completed = 1), eviction
 * (completed = 0) or re-rating (rerated = 1: the next segment of the job
 * opens at t1 on the same GPUs) at t1. */
typedef struct {
    int64_t job, t0, t1;
    int64_t r;        /* overhead of this start (s): rr + ld + xf */
    int64_t rr, ld, xf; /* its restart, load and transfer parts */
    int64_t s;        /* effective slowdown (permille) */
    int64_t w_before; /* remaining work at the start (milli-ideal-seconds) */
    int64_t done;     /* work completed in the segment */
    int32_t level, completed, rerated;
} ref_segment;

/* Every segment of a run, in the order they ended, with the GPUs each held
 * on every node: alloc[i * nodes + n]. Zero-initialise before use; release
 * with ref_log_free. */
typedef struct {
    int32_t nodes;
    int64_t nseg, cap;
    ref_segment *seg;
    int32_t *alloc;
} ref_log;

void ref_params_default(ref_params *p);

/* Simulates jobs[0..n) on cluster c under p. out[0..n) receives per-job
 * results, m (may be NULL) the metrics. Returns 0, -1 on bad input (see the
 * bounds in refsim.c), -2 when out of memory or on an internal inconsistency
 * (a waiting job with no event left, which the model says cannot happen). */
int ref_simulate(const ref_cluster *c, const ref_params *p, const ref_model *models,
                 int nmodels, const ref_job *jobs, int64_t n, ref_job_result *out,
                 ref_metrics *m);

/* ref_simulate that also records every segment into log (may be NULL). */
int ref_simulate_log(const ref_cluster *c, const ref_params *p, const ref_model *models,
                     int nmodels, const ref_job *jobs, int64_t n, ref_job_result *out,
                     ref_metrics *m, ref_log *log);

void ref_log_free(ref_log *log);

/* Checks the SPEC section 7 invariants and the section 5/6 rules a run must
 * obey, from the inputs, the log and the results alone (not the simulator's
 * state): per-node GPUs held <= G at every instant, each accepted job ends
 * exactly once, JCT >= duration, work conservation, restart overhead only on
 * restarts, legal evictions, placement shapes and timer levels, and every
 * metric recomputed. Returns 0, or -1 with the first violation in why. */
int ref_check_invariants(const ref_cluster *c, const ref_params *p, const ref_model *models,
                         int nmodels, const ref_job *jobs, int64_t n,
                         const ref_job_result *out, const ref_metrics *m, const ref_log *log,
                         char *why, size_t whylen);

#endif
