/* The engine run on a case written for the reference simulator
 * (tests/refsim), and the comparison of their per-job results and
 * metrics. Shared by the engine's tests and the hand-computed scenarios,
 * so every scenario checks both simulators. */
#ifndef TT_SIMCASE_H
#define TT_SIMCASE_H

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "../../refsim/refsim.h"
#include "sim/simlog.h"
#include "testutil.h"
#include "tt/sim.h"

/* Random cases: a splitmix64 stream, and draws from it. */
static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline int64_t pick(uint64_t *s, int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(splitmix64(s) % (uint64_t)(hi - lo + 1));
}

static inline int64_t pick_of(uint64_t *s, const int64_t *v, int n)
{
    return v[pick(s, 0, n - 1)];
}

static inline int64_t tt_time_from_ref(int64_t v) { return v == REF_INF ? TT_INF : v; }

/* nm: the classes of the case (their per-class timers, if any). */
static inline void params_from_ref(const ref_params *rp, int nm, tt_params *p)
{
    tt_params_default(p);
    p->order = rp->order;
    p->w0 = rp->w0 == REF_INF ? TT_INF : rp->w0;
    p->w1 = rp->w1 == REF_INF ? TT_INF : rp->w1;
    p->theta = rp->theta == REF_INF ? TT_INF : rp->theta;
    p->restart = rp->restart;
    p->congestion = rp->congestion;
    p->min_run = rp->min_run;
    p->max_preempt = rp->max_preempt;
    p->backfill = rp->backfill;
    p->load = rp->load;
    for (int c = 0; c < nm && rp->w0c; c++) {
        p->class_w0[c] = tt_time_from_ref(rp->w0c[c]);
        p->class_w1[c] = tt_time_from_ref(rp->w1c[c]);
    }
    p->nmlfq = rp->nmlfq;
    for (int q = 0; q < rp->nmlfq; q++)
        p->mlfq[q] = rp->mlfq[q];
    p->promote = rp->promote;
    p->prio_preempt = rp->prio_preempt;
    p->gittins_delta = rp->gittins_delta;
    p->requeue = rp->requeue_front ? TT_REQUEUE_FRONT : TT_REQUEUE_KEEP;
    p->prio_victims = rp->prio_refill ? TT_PRIO_VICTIMS_REFILL : TT_PRIO_VICTIMS_LOWEST;
    p->gpu_mem = rp->gpu_mem;
    p->cache_slots = rp->cache_slots;
    p->load_bw = rp->load_bw;
    p->xfer_bw = rp->xfer_bw;
    p->evict = rp->evict == REF_EVICT_DEMAND ? TT_EVICT_DEMAND : TT_EVICT_LRU;
    p->cache_place = rp->cache_place == REF_PLACE_AFFINITY ? TT_CACHE_PLACE_AFFINITY
                                                            : TT_CACHE_PLACE_OFF;
    p->w_warm = rp->w_warm;
}

/* The reference's own Gittins samples as a file the engine reads (its
 * gittins_dist), with a header line as Tiresias's files have; path gets
 * its name, "" when the case uses the trace's. */
static inline void gittins_file_from_ref(const ref_params *rp, char *path, size_t size)
{
    path[0] = '\0';
    if (!rp->git)
        return;
    snprintf(path, size, "/tmp/tt_gittins_XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert(f);
    fprintf(f, "duration\n");
    for (int64_t i = 0; i < rp->ngit; i++)
        fprintf(f, "%lld\n", (long long)rp->git[i]);
    cr_assert_eq(fclose(f), 0);
}

static inline tt_models *models_from_ref(const ref_model *md, int nm)
{
    static const char *const names[] = {"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7"};
    int64_t l1[8], l2[8];
    tt_models *m = NULL;
    cr_assert(nm >= 1 && nm <= 8);
    for (int i = 0; i < nm; i++) {
        l1[i] = md[i].slow_l1;
        l2[i] = md[i].slow_l2;
    }
    cr_assert_eq(tt_models_create(NULL, nm, names, l1, l2, &m), 0);
    for (int i = 0; i < nm; i++)
        cr_assert_eq(tt_models_set_mem_mb(NULL, m, i, md[i].mem_mb), 0);
    return m;
}

/* The reference's SPEC 12 columns as the engine's (wf, the parents' CSR,
 * mid, mem_mb, out_mb) into j; nothing when the case has none. Free with
 * wf_columns_free. */
static inline void wf_columns_from_ref(const ref_params *rp, int64_t n, tt_sim_jobs *j)
{
    if (!rp->task)
        return;
    size_t nn = (size_t)n + 1;
    int64_t nd = 0;
    for (int64_t i = 0; i < n; i++)
        nd += rp->task[i].ndeps;
    j->wf = calloc(nn, sizeof *j->wf);
    j->dep_off = calloc(nn, sizeof *j->dep_off);
    j->deps = calloc((size_t)nd + 1, sizeof *j->deps);
    j->mid = calloc(nn, sizeof *j->mid);
    j->mem_mb = calloc(nn, sizeof *j->mem_mb);
    j->out_mb = calloc(nn, sizeof *j->out_mb);
    cr_assert(j->wf && j->dep_off && j->deps && j->mid && j->mem_mb && j->out_mb);
    for (int64_t i = 0, d = 0; i < n; i++) {
        const ref_task *k = &rp->task[i];
        j->wf[i] = k->wf;
        j->mid[i] = k->mid;
        j->mem_mb[i] = k->mem_mb;
        j->out_mb[i] = k->out_mb;
        j->dep_off[i] = d;
        for (int32_t u = 0; u < k->ndeps; u++)
            j->deps[d++] = k->deps[u];
        j->dep_off[i + 1] = d;
    }
}

static inline void wf_columns_free(tt_sim_jobs *j)
{
    free(j->wf);
    free(j->dep_off);
    free(j->deps);
    free(j->mid);
    free(j->mem_mb);
    free(j->out_mb);
}

/* Runs the engine on the reference's case: 0, or the engine's error code.
 * eo has n entries; log may be NULL. */
static inline int engine_run(const ref_cluster *rc, const ref_params *rp, const ref_model *md,
                             int nm, const ref_job *jobs, int64_t n, tt_job_result *eo,
                             tt_metrics *em, tts_seglog *log)
{
    tt_cluster c = {rc->racks, rc->nodes_per_rack, rc->gpus_per_node};
    tt_params p;
    params_from_ref(rp, nm, &p);
    char dist[64];
    gittins_file_from_ref(rp, dist, sizeof dist);
    if (dist[0])
        snprintf(p.gittins_dist, sizeof p.gittins_dist, "%s", dist);
    tt_models *m = models_from_ref(md, nm);
    int64_t *submit = calloc((size_t)n + 1, sizeof *submit);
    int64_t *dur = calloc((size_t)n + 1, sizeof *dur);
    int32_t *gpus = calloc((size_t)n + 1, sizeof *gpus), *cls = calloc((size_t)n + 1, sizeof *cls);
    cr_assert(submit && dur && gpus && cls);
    for (int64_t i = 0; i < n; i++) {
        submit[i] = jobs[i].submit;
        dur[i] = jobs[i].duration;
        gpus[i] = jobs[i].gpus;
        cls[i] = jobs[i].model;
    }
    tt_sim_jobs j = {.n = n, .submit = submit, .duration = dur, .gpus = gpus, .cls = cls, .unknown_models = 0};
    wf_columns_from_ref(rp, n, &j);
    tt_ctx *ctx = tt_ctx_create();
    int rc_ = tt_simulate_log(ctx, &c, &p, m, &j, eo, em, NULL, log);
    cr_expect_eq(rc_, 0, "engine: %s", tt_errmsg(ctx));
    if (dist[0])
        unlink(dist);
    tt_ctx_free(ctx);
    tt_models_free(m);
    wf_columns_free(&j);
    free(submit);
    free(dur);
    free(gpus);
    free(cls);
    return rc_;
}

/* The engine's per-job results and metrics equal the reference's. */
static inline void expect_engine_equal(const char *label, int64_t n, const ref_job_result *ro,
                                       const ref_metrics *rm, const tt_job_result *eo,
                                       const tt_metrics *em)
{
    for (int64_t i = 0; i < n; i++) {
        const ref_job_result *a = &ro[i];
        const tt_job_result *b = &eo[i];
        int same = a->rejected == b->rejected && a->first_start == b->start &&
                   a->end == b->end && a->queue_total == b->queue && a->used_gpu_s == b->gpu_s &&
                   a->preemptions == b->preemptions && a->starts_l0 == b->starts[0] &&
                   a->starts_l1 == b->starts[1] && a->starts_l2 == b->starts[2] &&
                   a->last_level == b->level && a->rho == b->rho;
        cr_assert(same,
                  "%s job %lld: reference start %lld end %lld queue %lld pre %d levels "
                  "%d/%d/%d rho %lld; engine start %lld end %lld queue %lld pre %d levels "
                  "%d/%d/%d rho %lld",
                  label, (long long)i, (long long)a->first_start, (long long)a->end,
                  (long long)a->queue_total, a->preemptions, a->starts_l0, a->starts_l1,
                  a->starts_l2, (long long)a->rho, (long long)b->start, (long long)b->end,
                  (long long)b->queue, b->preemptions, b->starts[0], b->starts[1], b->starts[2],
                  (long long)b->rho);
    }
    /* a metric that cannot be computed: REF_NONE and TT_METRIC_NONE are
     * both INT64_MIN, reals NAN on both sides */
#define SAME_REAL(a, b) ((a) == (b) || (isnan(a) && isnan(b)))
    cr_assert(rm->makespan == em->makespan && SAME_REAL(rm->jct_mean, em->jct_mean) &&
                  rm->jct_p50 == em->jct_p50 && rm->jct_p90 == em->jct_p90 &&
                  rm->jct_p99 == em->jct_p99 && SAME_REAL(rm->queue_mean, em->queue_mean) &&
                  rm->queue_p99 == em->queue_p99 && rm->comm_gpu_s == em->comm_gpu_s &&
                  SAME_REAL(rm->comm_share, em->comm_share) &&
                  rm->restart_gpu_s == em->restart_gpu_s &&
                  rm->preemptions == em->preemptions && rm->placed_l0 == em->placed_l0 &&
                  rm->placed_l1 == em->placed_l1 && rm->placed_l2 == em->placed_l2 &&
                  SAME_REAL(rm->util, em->util) && rm->rejected == em->rejected &&
                  rm->demotions == em->demotions && rm->promotions == em->promotions &&
                  rm->preempt_prio == em->preempt_prio &&
                  SAME_REAL(rm->ftf_mean, em->ftf_mean) && rm->ftf_max == em->ftf_max &&
                  rm->ftf_unfair == em->ftf_unfair && rm->wf_jct_mean == em->wf_jct_mean &&
                  rm->wf_jct_p99 == em->wf_jct_p99 && rm->wf_rejected == em->wf_rejected &&
                  rm->cache_hit == em->cache_hit && rm->loads == em->loads &&
                  rm->model_evicts == em->model_evicts && rm->load_gpu_s == em->load_gpu_s &&
                  rm->xfer_gpu_s == em->xfer_gpu_s,
              "%s: metrics differ (makespan %lld / %lld, jct_mean %.3f / %.3f, demotions %lld / "
              "%lld, promotions %lld / %lld, preempt_prio %lld / %lld, ftf_max %lld / %lld; "
              "wf_jct_mean %.3f / %.3f, wf_jct_p99 %lld / %lld, wf_rejected %lld / %lld, "
              "cache_hit %lld / %lld, loads %lld / %lld, model_evicts %lld / %lld, "
              "load_gpu_s %lld / %lld, xfer_gpu_s %lld / %lld, restart_gpu_s %lld / %lld)",
              label, (long long)rm->makespan, (long long)em->makespan, rm->jct_mean,
              em->jct_mean, (long long)rm->demotions, (long long)em->demotions,
              (long long)rm->promotions, (long long)em->promotions, (long long)rm->preempt_prio,
              (long long)em->preempt_prio, (long long)rm->ftf_max, (long long)em->ftf_max,
              rm->wf_jct_mean, em->wf_jct_mean, (long long)rm->wf_jct_p99,
              (long long)em->wf_jct_p99, (long long)rm->wf_rejected, (long long)em->wf_rejected,
              (long long)rm->cache_hit, (long long)em->cache_hit, (long long)rm->loads,
              (long long)em->loads, (long long)rm->model_evicts, (long long)em->model_evicts,
              (long long)rm->load_gpu_s, (long long)em->load_gpu_s, (long long)rm->xfer_gpu_s,
              (long long)em->xfer_gpu_s, (long long)rm->restart_gpu_s,
              (long long)em->restart_gpu_s);
#undef SAME_REAL
}

/* A hand-worked case: the reference's run, its invariants, and the
 * engine's per-job results and metrics equal to the reference's. The
 * scenario's own numbers are the caller's to assert. */
static inline void check_case(const ref_model *md, int nm, const ref_cluster *c,
                              const ref_params *p, const ref_job *jobs, int64_t n,
                              ref_job_result *out, ref_metrics *m, ref_log *log)
{
    char why[256] = "";
    cr_assert_eq(ref_simulate_log(c, p, md, nm, jobs, n, out, m, log), 0);
    cr_assert_eq(ref_check_invariants(c, p, md, nm, jobs, n, out, m, log, why, sizeof why), 0,
                 "%s", why);
    tt_job_result *eo = (tt_job_result *)calloc((size_t)n + 1, sizeof *eo);
    tt_metrics em;
    cr_assert(eo);
    cr_assert_eq(engine_run(c, p, md, nm, jobs, n, eo, &em, NULL), 0);
    expect_engine_equal("engine", n, out, m, eo, &em);
    free(eo);
}

#endif
