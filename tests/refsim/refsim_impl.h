/* What the files of the reference simulator share (refsim.c: the run,
 * placements and SPEC 6; refsim_preempt.c: SPEC 6's victim search;
 * refsim_orders.c: SPEC 11's queue orders; refsim_wf.c: SPEC 12's
 * workflows and GPU memory; refsim_links.c: SPEC 13's shared links;
 * refsim_check.c: the invariants): the state of
 * a run and the plain arithmetic of the model. Test code: no libcore. */
#ifndef TT_REFSIM_IMPL_H
#define TT_REFSIM_IMPL_H

#include <math.h>
#include <stdint.h>

#include "refsim.h"

/* Input bounds that keep every product below 2^63 on the traces this is
 * for; ref_simulate returns -1 beyond them. */
#define REF_MAX_GPUS 65536                /* cluster GPUs */
#define REF_MAX_TIME ((int64_t)1 << 40)   /* |submit| */
#define REF_MAX_DUR ((int64_t)1 << 32)    /* duration, restart */
#define REF_MAX_SLOW 1000000              /* permille: 1000x */
#define REF_MAX_WORK_S ((int64_t)1 << 50) /* w * s_eff of one job */

enum { RS_FUTURE, RS_WAIT, RS_RUN, RS_DONE, RS_REJECTED };

typedef struct {
    int state;
    int64_t submit;   /* scaled by load */
    int64_t w;        /* remaining work, milli-ideal-seconds */
    int64_t enq;      /* when it last entered the queue */
    int victim;       /* evicted: timers count as expired */
    int64_t started;  /* starts so far */
    int64_t evictions;
    int64_t attained; /* gpus x held over finished segments */
    /* the current segment; tstart: the last start, from which min_run
     * counts (a re-rating opens a segment, not a start) */
    int64_t t0, r, s, end, w_before, tstart;
    int32_t level;
    /* SPEC 11: queue, when it entered it, and since the last promotion (or
     * submit'): GPU-seconds held over finished segments, seconds held, and
     * seconds waited after the first start; ftf's key */
    int q;
    int64_t qent, aq, e, pw, fkey;
    int64_t pfrom; /* while waiting after the first start: P counts from here */
    /* requeue=front: its place is "evicted at qev", ahead of every place
     * "entered at qent"; an entry into a queue clears it */
    int qfront;
    int64_t qev;
    /* SPEC 12: the current segment's restart, load and transfer parts
     * (r = rr + ld + xf), the model's id and size (-1: unknown), the node
     * it was homed on at its end */
    int64_t rr, ld, xf;
    int32_t mid, mb;
} rjob;

/* One cached model on one GPU (SPEC 12.2). */
typedef struct {
    int32_t id, mb;
    int64_t use;
} rslot;

typedef struct {
    int32_t R, N, G, nodes;
    ref_params p;
    const ref_model *models;
    const ref_job *jobs;
    int64_t n;
    rjob *j;
    int32_t *on;    /* n x nodes: GPUs job i holds on node x now */
    int32_t *freeg; /* free GPUs per node */
    ref_job_result *out;
    ref_log *log;
    int64_t used, comm_milli, restart_gs, preempt, placed[3];
    /* SPEC 11: the eviction rule the victim searches apply (-1: SPEC 6's,
     * q: priority eviction for a waiter of queue q), the counts, and the
     * Gittins samples, sorted */
    int victim_q;
    int64_t demotions, promotions, preempt_prio;
    int64_t *git, ngit;
    /* SPEC 12: who holds each GPU (nodes x G, -1 free), each GPU's cached
     * models (REF_MAX_SLOTS each) and their count, the recency clock, the
     * counts of 12.8 */
    int64_t *holder;
    int32_t *home; /* per job, -1 until it ends */
    rslot *cache;
    int32_t *ncached;
    int32_t *take; /* G GPU numbers: the GPUs a start takes on a node */
    int64_t clock, starts, hits, loads, evicts, load_gs, xfer_gs;
    /* SPEC 13: the loads of each node's NIC and each rack's uplink at the
     * last step 7, link_gpu_s in micro-GPU-seconds, link_peak */
    int32_t *nic, *up;
    int64_t link_micro, link_peak;
} sim;

static inline int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* a + b, or REF_INF when either is infinite or the sum would overflow. */
static inline int64_t sat_add(int64_t a, int64_t b)
{
    if (a == REF_INF || b == REF_INF || a > REF_INF - b)
        return REF_INF;
    return a + b;
}

static inline int64_t slow_eff(int64_t s, int64_t c) { return 1000 + (s - 1000) * 1000 / (1000 - c); }

static inline int64_t level_slow(const ref_params *p, const ref_model *md, int level)
{
    if (level == 0)
        return 1000;
    return slow_eff(level == 1 ? md->slow_l1 : md->slow_l2, p->congestion);
}

static inline int is_sensitive(const ref_params *p, const ref_model *md)
{
    return p->theta != REF_INF && md->slow_l2 >= p->theta;
}

static inline int64_t scaled_submit(const ref_job *jobs, int64_t i, int64_t load)
{
    return jobs[0].submit + (jobs[i].submit - jobs[0].submit) * 1000 / load;
}

/* Lowest level whose condition the placement pl (GPUs per node) meets. */
static inline int classify(int32_t N, int32_t G, int32_t nodes, const int32_t *pl, int32_t k)
{
    int32_t used = 0, rack = -1, racks = 0;
    for (int32_t x = 0; x < nodes; x++) {
        if (!pl[x])
            continue;
        used++;
        if (x / N != rack) {
            racks++;
            rack = x / N;
        }
    }
    if (racks == 1 && used == (k + G - 1) / G)
        return 0;
    return racks == 1 ? 1 : 2;
}

/* The delay timers of a job of class c. */
static inline int64_t timer_w0(const ref_params *p, int32_t c) { return p->w0c ? p->w0c[c] : p->w0; }
static inline int64_t timer_w1(const ref_params *p, int32_t c) { return p->w1c ? p->w1c[c] : p->w1; }


static inline int64_t nearest_rank(const int64_t *sorted, int64_t n, int64_t pct)
{
    if (n == 0)
        return 0;
    int64_t rank = ceil_div(pct * n, 100);
    return sorted[(rank < 1 ? 1 : rank) - 1];
}

/* Equal, or both NAN (a metric that cannot be computed). */
static inline int same_real(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static inline int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* rho of job j (SPEC 11.6, permille) from every accepted job's submit' and
 * end: A over [submit'_j, end_j] is the sum over the jobs active there of
 * the time they overlap it (a job counts from its submit' until its end);
 * REF_NONE for duration 0. */
static inline int64_t rs_rho(const int64_t *sub, const int64_t *end, const int *accepted,
                             int64_t n, int64_t j, int64_t duration, int64_t gpus,
                             int64_t cluster_gpus)
{
    int64_t jct = end[j] - sub[j];
    if (duration <= 0 || jct <= 0)
        return REF_NONE;
    int64_t a = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!accepted[i])
            continue;
        int64_t lo = sub[i] > sub[j] ? sub[i] : sub[j], hi = end[i] < end[j] ? end[i] : end[j];
        a += hi > lo ? hi - lo : 0;
    }
    int64_t nbar = a * 1000 / jct, fbar = gpus * nbar / cluster_gpus;
    if (fbar < 1000)
        fbar = 1000;
    return jct * 1000000 / (duration * fbar);
}

/* ---- refsim.c ---- */

int rs_bad_input(const ref_cluster *c, const ref_params *p, const ref_model *models, int nmodels,
                 const ref_job *jobs, int64_t n, const ref_job_result *out);
int rs_allowed_level(const sim *S, int64_t i, int64_t t);
/* placement searches: fill pl[nodes] or return 0 (-1: no memory) */
int rs_find_l0(const sim *S, int32_t k, int32_t *pl);
int rs_find_l1(const sim *S, int32_t k, int32_t *pl);
int rs_find_l2(const sim *S, int32_t k, int32_t *pl);
void rs_start_job(sim *S, int64_t i, int64_t t, const int32_t *pl);
int rs_end_segment(sim *S, int64_t i, int64_t t, int completed);

/* ---- refsim_preempt.c ---- */

/* SPEC 6's victim rule, with the predicate S->victim_q says */
int rs_find_preempt(const sim *S, int32_t k, int64_t t, int32_t *pl, char *vic);

/* ---- refsim_orders.c ---- */

int rs_is_mlfq(const ref_params *p);
/* the bounds of SPEC 11's parameters: 1 when they are out */
int rs_orders_bad(const ref_params *p);
/* the sorted Gittins samples (S->git); -1 when out of memory */
int rs_orders_init(sim *S);
/* 1 when waiting job a comes before waiting job b */
int rs_before(const sim *S, int64_t a, int64_t b);
/* priority eviction's victims for a waiter of queue q */
int rs_prio_evictable(const sim *S, int64_t i, int64_t t, int q);
/* step 2 of event t: demotions, then promotions */
void rs_step2(sim *S, int64_t t);
/* ftf: the keys of the jobs that arrived at t, once all of them queued */
void rs_ftf_keys(sim *S, int64_t t);
/* the least SPEC 11 event after now (demotion, promotion, aging) into
 * *best / *any */
void rs_order_events(const sim *S, int64_t now, int have_now, int64_t *best, int *any);
/* step 7: 1 when job i started, 0 not, -1 no memory */
int rs_prio_step(sim *S, int64_t i, int64_t t, int32_t *pl, char *vic);

/* ---- refsim_wf.c ---- */

/* row i's SPEC 12 columns (the defaults when p->task is NULL) */
const ref_task *rs_task(const ref_params *p, int64_t i);
/* SPEC 12's parameter and column bounds: 1 when they are out */
int rs_wf_bad(const ref_params *p, int64_t n);
/* rej[0..n): 1 for the rows SPEC 3 and 12.1 reject (whole workflows);
 * returns the rejected workflows */
int64_t rs_wf_rejects(const ref_cluster *c, const ref_params *p, const ref_model *models,
                      const ref_job *jobs, int64_t n, char *rej);
/* row i's model id and size (12.2 with docs/model.md 13's reading 10) */
int32_t rs_model_id(const ref_params *p, const ref_job *jobs, int64_t i);
int32_t rs_model_mb(const ref_params *p, const ref_model *models, const ref_job *jobs,
                    int64_t n, int32_t id);
/* row i's ready time from its parents' ends in out (REF_INF while one has
 * not ended, REF_NONE there): max(submit', the parents' ends) */
int64_t rs_ready(const ref_params *p, const ref_job *jobs, int64_t i, const ref_job_result *out);
/* the home of a job from its last allocation (GPUs per node) */
int32_t rs_home(const int32_t *pl, int32_t nodes);
/* X (s) of row i on a placement, parents' homes in home[] */
int64_t rs_xfer(const ref_params *p, int64_t i, const int32_t *home, const int32_t *pl);
/* the run's state: -1 when out of memory */
int rs_wf_init(sim *S);
void rs_wf_free(sim *S);
/* 1 while job i's warm wait holds it at t */
int rs_warm(const sim *S, int64_t i, int64_t t);
/* step 1 under the warm wait or affinity: fills pl, 1 found, 0 not */
int rs_warm_node(const sim *S, int64_t i, int32_t *pl);
int rs_step1(const sim *S, int64_t i, int32_t *pl);
/* at a start on pl (before the job leaves the queue): the GPUs, the cache
 * and the load and transfer parts; at a segment's end: the GPUs back */
void rs_wf_start(sim *S, int64_t i, const int32_t *pl);
void rs_wf_end(sim *S, int64_t i, int completed);
/* SPEC 12.8's metrics into m */
int rs_wf_metrics(const sim *S, ref_metrics *m);

/* ---- refsim_links.c ---- */

/* SPEC 13's parameter bounds: 1 when they are out */
int rs_links_bad(const ref_params *p);
/* the largest contention factor a run on c can see (13.8) */
int64_t rs_links_fmax(const ref_cluster *c, const ref_params *p);
/* s'_L (13.3): level slowdown s0 under contention factor f */
static inline int64_t rs_links_slow(int64_t s0, int64_t f) { return 1000 + (s0 - 1000) * f / 1000; }
int rs_links_init(sim *S);
void rs_links_free(sim *S);
/* step 7 at t: loads, factors, re-ratings; -1 when out of memory */
int rs_links_step7(sim *S, int64_t t);
/* re-rates running job i at t to slowdown s (refsim.c): -1 no memory */
int rs_rerate(sim *S, int64_t i, int64_t t, int64_t s);

#endif
