/* The CPU backend of one simulation: checks the inputs against the
 * engine's integer bounds, sizes and binds the state of kernels/sim_step.h,
 * runs its steps, and turns the state into per-job results and the SPEC 7
 * metrics. What does not depend on the configuration is prepared once
 * (internal/simrun.h), so the sweep's threads share it. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/radix.h"
#include "sim/simconf.h"
#include "sim/simlog.h"
#include "sim/simrun.h"
#include "tt/sim.h"

/* Bounds that keep every product of the engine below 2^63. */
#define MAX_TIME TT_SUBMIT_MAX      /* |submit|, s */
#define MAX_DUR TT_DURATION_MAX      /* duration, restart, s */
#define MAX_SLOW 1000000             /* permille */
#define MAX_WORK_S ((int64_t)1 << 50) /* duration * 1000 * effective slowdown */

static int bad_param(tt_ctx *ctx, const char *name, int64_t v, const char *want)
{
    return tt_err(ctx, TT_EINVAL, "parameter '%s': %lld out of range (%s)", name, (long long)v,
                  want);
}

int tt_simprep_check_params(tt_ctx *ctx, const tt_params *p, int nclasses)
{
    if (p->order < TT_ORDER_FIFO || p->order > TT_ORDER_FTF)
        return bad_param(ctx, "order", p->order, "fifo sjf srtf las dlas gittins ftf");
    if (p->backfill != 0 && p->backfill != 1)
        return bad_param(ctx, "backfill", p->backfill, "0 or 1");
    if (p->prio_preempt != 0 && p->prio_preempt != 1)
        return bad_param(ctx, "prio_preempt", p->prio_preempt, "0 or 1");
    if (!memchr(p->gittins_dist, '\0', sizeof p->gittins_dist) || !p->gittins_dist[0])
        return tt_err(ctx, TT_EINVAL, "parameter 'gittins_dist': empty or not terminated");
    if (p->resize != TT_RESIZE_SIDECAR && p->resize != TT_RESIZE_TERM)
        return bad_param(ctx, "resize", p->resize, "sidecar term");
    if (p->evict != TT_EVICT_LRU && p->evict != TT_EVICT_DEMAND)
        return bad_param(ctx, "evict", p->evict, "lru demand");
    if (p->cache_place != TT_CACHE_PLACE_OFF && p->cache_place != TT_CACHE_PLACE_AFFINITY)
        return bad_param(ctx, "cache_place", p->cache_place, "off affinity");
    if (p->requeue != TT_REQUEUE_KEEP && p->requeue != TT_REQUEUE_FRONT)
        return bad_param(ctx, "requeue", p->requeue, "keep front");
    if (p->prio_victims != TT_PRIO_VICTIMS_LOWEST && p->prio_victims != TT_PRIO_VICTIMS_REFILL)
        return bad_param(ctx, "prio_victims", p->prio_victims, "lowest refill");
    /* the numbers: params.c's table, with the arithmetic each range keeps
     * exact */
    if (tt_params_check_ranges(ctx, p))
        return TT_EINVAL;
    if (p->mix_set) {
        uint64_t total = 0;
        for (int c = 0; c < nclasses; c++)
            total += p->mix[c];
        if (total == 0)
            return tt_err(ctx, TT_EINVAL, "parameter 'mix': every weight is 0");
    }
    return 0;
}

void tt_simrun_config(const tt_params *p, int nclasses, tts_config *cf)
{
    memset(cf, 0, sizeof *cf);
    cf->order = p->order;
    cf->backfill = p->backfill;
    cf->w0 = p->w0;
    cf->w1 = p->w1;
    cf->theta = p->theta;
    cf->restart = p->restart;
    cf->congestion = p->congestion;
    cf->min_run = p->min_run;
    cf->max_preempt = p->max_preempt;
    cf->load = p->load;
    cf->seed = p->seed;
    cf->nq = p->nmlfq + 1;
    for (int q = 0; q < p->nmlfq && q < TTS_MAX_MLFQ; q++)
        cf->mlfq[q] = p->mlfq[q];
    cf->promote = p->promote;
    cf->prio_preempt = p->prio_preempt;
    cf->gittins_delta = p->gittins_delta;
    cf->requeue_front = p->requeue == TT_REQUEUE_FRONT;
    cf->prio_refill = p->prio_victims == TT_PRIO_VICTIMS_REFILL;
    cf->git = -1;
    cf->el_up = (int32_t)p->el_up;
    cf->el_down = (int32_t)p->el_down;
    cf->el_frac = (int32_t)p->el_frac;
    cf->resize_term = p->resize == TT_RESIZE_TERM;
    cf->resize_cost = p->resize_cost;
    cf->resize_gap = p->resize_gap;
    cf->gpu_mem = p->gpu_mem;
    cf->load_bw = p->load_bw;
    cf->xfer_bw = p->xfer_bw;
    cf->w_warm = p->w_warm;
    cf->cache_slots = (int32_t)p->cache_slots;
    cf->evict = p->evict;
    cf->cache_place = p->cache_place;
    uint64_t sum = 0;
    for (int c = 0; c < TTS_MAX_CLASSES; c++) {
        if (c < nclasses)
            sum += p->mix_set ? p->mix[c] : 1;
        cf->mix_cum[c] = sum;
    }
    /* a class with a timer of its own: every class gets its pair resolved */
    for (int c = 0; c < nclasses && c < TTS_MAX_CLASSES; c++) {
        int64_t w0 = p->class_w0[c], w1 = p->class_w1[c];
        cf->w0c[c] = w0 == TT_TIMER_GLOBAL ? p->w0 : w0;
        cf->w1c[c] = w1 == TT_TIMER_GLOBAL ? p->w1 : w1;
        cf->class_timers |= cf->w0c[c] != p->w0 || cf->w1c[c] != p->w1;
    }
}

int tt_simprep_config(tt_ctx *ctx, const tt_simprep *prep, const tt_params *p, tts_config *cf)
{
    tt_simrun_config(p, prep->nclasses, cf);
    /* a GPU's slots lie cache_slots apart in a state sized for the
     * largest the preparation was told of: more would overrun it; and
     * placement by L reads counts only a preparation for it keeps */
    if (tt_simprep_needs(p, 0) & ~prep->needs & ~(TT_NEED_CACHE - 1))
        return tt_err(ctx, TT_EINVAL, "internal error: the run was not prepared for its model "
                      "cache (cache_slots=%d, cache_place=%s, w_warm=%lld)", cf->cache_slots,
                      cf->cache_place ? "affinity" : "off", (long long)cf->w_warm);
    if (p->order != TT_ORDER_GITTINS)
        return 0;
    if ((cf->git = tt_simprep_gittins_find(prep, p)) >= 0)
        return 0;
    return tt_err(ctx, TT_EINVAL, "internal error: gittins_dist '%s' not loaded",
                  p->gittins_dist);
}

int32_t tt_sim_job_class(const tt_sim_jobs *j, int nclasses, const tt_params *p, int64_t i)
{
    tts_trace tr;
    tts_config cf;
    memset(&tr, 0, sizeof tr);
    tr.n = j->n;
    tr.cls = j->cls;
    tr.nclasses = nclasses;
    tt_simrun_config(p, nclasses, &cf);
    return tts_job_class(&tr, &cf, i);
}

int tt_simprep_check_frame(tt_ctx *ctx, const tt_cluster *c, const tt_sim_jobs *j)
{
    if (c->racks < 1 || c->nodes_per_rack < 1 || c->gpus_per_node < 1 ||
        (int64_t)c->racks * c->nodes_per_rack * c->gpus_per_node > TT_MAX_CLUSTER_GPUS)
        return tt_err(ctx, TT_EINVAL, "cluster %dx%dx%d: each number >= 1, at most %d GPUs",
                      c->racks, c->nodes_per_rack, c->gpus_per_node, TT_MAX_CLUSTER_GPUS);
    if (j->n > INT32_MAX - 1)
        return tt_err(ctx, TT_ERANGE, "%lld jobs: at most %d", (long long)j->n, INT32_MAX - 1);
    return 0;
}

/* The per-job bounds and the table's slowdowns; what is left for each
 * configuration (the work bound under its congestion) is reduced to the
 * largest slowdown and duration. */
static int check_jobs(tt_ctx *ctx, tt_simprep *prep)
{
    const tt_sim_jobs *j = prep->j;
    const tt_models *m = prep->models;
    int nc = prep->nclasses;
    prep->dur_max = 0;
    for (int64_t i = 0; i < j->n; i++) {
        long long ji = (long long)i;
        if (j->submit[i] < -MAX_TIME || j->submit[i] > MAX_TIME)
            return tt_err(ctx, TT_ERANGE, "job %lld: submit %lld beyond +-2^40 s", ji,
                          (long long)j->submit[i]);
        if (i > 0 && j->submit[i] < j->submit[i - 1])
            return tt_err(ctx, TT_EINVAL, "job %lld: jobs not sorted by submit", ji);
        if (j->duration[i] < 0 || j->duration[i] > MAX_DUR)
            return tt_err(ctx, TT_ERANGE, "job %lld: duration %lld outside 0 .. 2^32 s", ji,
                          (long long)j->duration[i]);
        if (j->gpus[i] < 1)
            return tt_err(ctx, TT_EINVAL, "job %lld: %d GPUs", ji, j->gpus[i]);
        if (j->cls[i] < -1 || j->cls[i] >= nc)
            return tt_err(ctx, TT_EINVAL, "job %lld: model class %d not in the table", ji,
                          j->cls[i]);
        if (j->duration[i] > prep->dur_max)
            prep->dur_max = j->duration[i];
    }
    prep->slow_max = 1000;
    for (int c = 0; c < nc; c++) {
        int64_t s1 = tt_models_slow_l1(m, c), s2 = tt_models_slow_l2(m, c);
        if (s1 < 1000 || s1 > MAX_SLOW || s2 < 1000 || s2 > MAX_SLOW)
            return tt_err(ctx, TT_ERANGE, "model '%s': slowdowns must be 1000 .. %d",
                          tt_models_name(m, c), MAX_SLOW);
        int64_t s = s1 > s2 ? s1 : s2;
        if (s > prep->slow_max)
            prep->slow_max = s;
    }
    return 0;
}

/* The work bound at each job's smallest size: smax x s_sc(k0 / 2^d) for
 * the most halvings d that divide k0 (no trace bound can lower s_sc
 * below that), over the classes the job may run as. */
static int check_bound_elastic(tt_ctx *ctx, const tt_simprep *prep, const tt_params *p,
                               int64_t smax)
{
    const tt_sim_jobs *j = prep->j;
    for (int64_t i = 0; i < j->n; i++) {
        int32_t k0 = j->gpus[i], d = 0;
        while (d < p->el_down && (k0 >> (d + 1)) << (d + 1) == k0)
            d++;
        int64_t s = smax;
        for (int c = 0; c < prep->nclasses; c++) {
            if (j->cls[i] >= 0 && c != j->cls[i])
                continue;
            int64_t x = smax * (1000 * tts_sp(&prep->tr, c, k0) / tts_sp(&prep->tr, c, k0 >> d)) /
                        1000;
            if (x > s)
                s = x;
        }
        if (j->duration[i] * 1000 > MAX_WORK_S / s)
            return tt_err(ctx, TT_ERANGE, "job %lld: duration %lld s too long at slowdown %lld",
                          (long long)i, (long long)j->duration[i], (long long)s);
    }
    return 0;
}

int tt_simprep_check_bound(tt_ctx *ctx, const tt_simprep *prep, const tt_params *p)
{
    /* the largest effective slowdown any job can run at; congestion
     * inflation is monotone, so the largest class gives it */
    int64_t smax = 1000 + (prep->slow_max - 1000) * 1000 / (1000 - p->congestion);
    if (p->el_down > 0) /* a smaller start runs slower: s_sc(kmin) > 1000 (section 10) */
        return check_bound_elastic(ctx, prep, p, smax);
    if (prep->dur_max * 1000 <= MAX_WORK_S / smax)
        return 0;
    const tt_sim_jobs *j = prep->j;
    for (int64_t i = 0; i < j->n; i++)
        if (j->duration[i] * 1000 > MAX_WORK_S / smax)
            return tt_err(ctx, TT_ERANGE, "job %lld: duration %lld s too long at slowdown %lld",
                          (long long)i, (long long)j->duration[i], (long long)smax);
    return 0;
}

/* rank_job / job_rank: jobs by (duration, index), for sjf and srtf. */
static int dur_ranks(const tt_sim_jobs *j, int32_t **rank_job, int32_t **job_rank)
{
    int64_t n = j->n;
    int64_t *key = (int64_t *)malloc((size_t)(n ? n : 1) * sizeof *key);
    int64_t *val = (int64_t *)malloc((size_t)(n ? n : 1) * sizeof *val);
    *rank_job = (int32_t *)malloc((size_t)(n ? n : 1) * sizeof **rank_job);
    *job_rank = (int32_t *)malloc((size_t)(n ? n : 1) * sizeof **job_rank);
    int rc = TT_ENOMEM;
    if (key && val && *rank_job && *job_rank) {
        for (int64_t i = 0; i < n; i++) {
            key[i] = j->duration[i];
            val[i] = i;
        }
        rc = tt_radix_sort_i64(key, val, n); /* stable: ties keep index order */
        if (rc == 0)
            for (int64_t r = 0; r < n; r++) {
                (*rank_job)[r] = (int32_t)val[r];
                (*job_rank)[val[r]] = (int32_t)r;
            }
    }
    free(key);
    free(val);
    return rc;
}

int tt_simprep_needs(const tt_params *p, int jobs)
{
    int o = p->order;
    int mlfq = o == TT_ORDER_DLAS || o == TT_ORDER_GITTINS;
    int slots = p->cache_slots < 1 ? 1 : p->cache_slots > TTS_CACHE_SLOTS ? TTS_CACHE_SLOTS
                                                                          : (int)p->cache_slots;
    return (o == TT_ORDER_SJF || o == TT_ORDER_SRTF ? TT_NEED_RANKS : 0) |
           (o == TT_ORDER_SRTF || o == TT_ORDER_LAS || mlfq || o == TT_ORDER_FTF ? TT_NEED_VICT
                                                                                : 0) |
           (jobs ? TT_NEED_JOBS : 0) | (mlfq ? TT_NEED_MLFQ : 0) |
           (o == TT_ORDER_FTF ? TT_NEED_FTF : 0) | (o == TT_ORDER_GITTINS ? TT_NEED_GITTINS : 0) |
           (p->el_up > 0 || p->el_down > 0 ? TT_NEED_ELASTIC : 0) |
           (p->gpu_mem > 0 ? TT_NEED_CACHE | TT_NEED_SLOTS(slots) : 0) |
           (p->gpu_mem > 0 && (p->cache_place == TT_CACHE_PLACE_AFFINITY || p->w_warm > 0)
                ? TT_NEED_LXCNT
                : 0) |
           (p->w_warm > 0 ? TT_NEED_WARM : 0);
}

/* ---- submit' per load value ----
 * Every configuration of one load reads the same submit' array; the runs
 * in flight share one per load value (at most one a thread), and an array
 * no run holds is refilled for the next load that needs one. Load 1000 is
 * the trace's own submit column. */
struct tt_subcache {
    pthread_mutex_t lock;
    int n, cap;
    struct subent {
        int64_t load, *sub;
        int refs;
    } *e;
};

static void subcache_free(tt_subcache *sc)
{
    if (!sc)
        return;
    for (int k = 0; k < sc->n; k++)
        free(sc->e[k].sub);
    free(sc->e);
    pthread_mutex_destroy(&sc->lock);
    free(sc);
}

/* *sub: the submit' array of load, held until sub_release. 0 or
 * TT_ENOMEM. */
static int sub_acquire(const tt_simprep *prep, int64_t load, const int64_t **sub)
{
    *sub = prep->j->submit;
    if (load == 1000)
        return 0;
    tt_subcache *sc = prep->subs;
    pthread_mutex_lock(&sc->lock);
    int at = -1;
    for (int k = 0; k < sc->n && at < 0; k++)
        if (sc->e[k].load == load)
            at = k;
    if (at < 0) { /* a spare array, refilled, or a new one */
        for (int k = 0; k < sc->n && at < 0; k++)
            if (sc->e[k].refs == 0)
                at = k;
        if (at < 0 && sc->n == sc->cap) {
            int cap = sc->cap ? 2 * sc->cap : 4;
            struct subent *e = (struct subent *)realloc(sc->e, (size_t)cap * sizeof *e);
            if (e) {
                sc->e = e;
                sc->cap = cap;
            }
        }
        if (at < 0 && sc->n < sc->cap) {
            int64_t *arr = (int64_t *)malloc((size_t)(prep->j->n ? prep->j->n : 1) * sizeof *arr);
            if (arr) {
                at = sc->n++;
                sc->e[at].sub = arr;
                sc->e[at].refs = 0;
            }
        }
        if (at >= 0) {
            sc->e[at].load = load;
            tts_scale_submit(&prep->tr, load, sc->e[at].sub);
        }
    }
    if (at >= 0) {
        sc->e[at].refs++;
        *sub = sc->e[at].sub;
    }
    pthread_mutex_unlock(&sc->lock);
    return at >= 0 ? 0 : TT_ENOMEM;
}

static void sub_release(const tt_simprep *prep, const int64_t *sub)
{
    tt_subcache *sc = prep->subs;
    if (sub == prep->j->submit)
        return;
    pthread_mutex_lock(&sc->lock);
    for (int k = 0; k < sc->n; k++)
        if (sc->e[k].sub == sub)
            sc->e[k].refs--;
    pthread_mutex_unlock(&sc->lock);
}

int tt_simprep_init(tt_ctx *ctx, tt_simprep *prep, const tt_cluster *c, const tt_models *m,
                    const tt_sim_jobs *j, int needs)
{
    memset(prep, 0, sizeof *prep);
    prep->j = j;
    prep->models = m;
    prep->nclasses = tt_models_count(m);
    prep->needs = needs;
    int rc = check_jobs(ctx, prep);
    if (rc)
        return rc;
    int nc = prep->nclasses;
    prep->tc.racks = c->racks;
    prep->tc.nodes_per_rack = c->nodes_per_rack;
    prep->tc.gpus_per_node = c->gpus_per_node;
    for (int k = 0; k < nc; k++) {
        prep->slow_l1[k] = tt_models_slow_l1(m, k);
        prep->slow_l2[k] = tt_models_slow_l2(m, k);
    }
    tts_trace *tr = &prep->tr;
    tr->n = j->n;
    tr->submit = j->submit;
    tr->duration = j->duration;
    tr->gpus = j->gpus;
    tr->cls = j->cls;
    tr->nclasses = nc;
    tr->slow_l1 = prep->slow_l1;
    tr->slow_l2 = prep->slow_l2;
    int any_scale = 0;
    for (int k = 0; k < nc; k++)
        any_scale |= (prep->nscale[k] = tt_models_scale(m, k, prep->scale + TTS_SCALE_MAX * k)) > 0;
    tr->nscale = any_scale ? prep->nscale : NULL;
    tr->scale = any_scale ? prep->scale : NULL;
    tr->elastic = j->elastic;
    tr->gmin = j->gpus_min;
    tr->gmax = j->gpus_max;
    if (needs & TT_NEED_RANKS) {
        if (dur_ranks(j, &prep->rank_job, &prep->job_rank))
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        tr->rank_job = prep->rank_job;
        tr->job_rank = prep->job_rank;
    }
    if (!(prep->subs = (tt_subcache *)calloc(1, sizeof *prep->subs)))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    pthread_mutex_init(&prep->subs->lock, NULL);
    prep->with = (needs & TT_NEED_VICT ? TTS_WITH_VICT : 0) |
                 (needs & TT_NEED_JOBS ? TTS_WITH_JOBS : 0) |
                 (needs & TT_NEED_MLFQ ? TTS_WITH_MLFQ : 0) | (needs & TT_NEED_FTF ? TTS_WITH_FTF : 0) |
                 (needs & TT_NEED_ELASTIC ? TTS_WITH_ELASTIC : 0) |
                 (needs & TT_NEED_WARM ? TTS_WITH_WARM : 0);
    if ((rc = tt_simprep_wf(ctx, prep)))
        return rc;
    if (prep->tr.out_mb) /* transfers: each job's overhead has a transfer part */
        prep->with |= TTS_WITH_OVH;
    if (needs & TT_NEED_CACHE) {
        if (c->gpus_per_node > 64)
            return tt_err(ctx, TT_EINVAL, "gpu_mem > 0 on nodes of %d GPUs: at most 64 (a "
                          "node's free GPUs are a 64-bit mask)", c->gpus_per_node);
        if ((rc = tt_simprep_models(ctx, prep)))
            return rc;
        int slots = 0; /* the largest cache_slots served (TT_NEED_SLOTS) */
        while (slots < TTS_CACHE_SLOTS && needs & TT_NEED_SLOT1 << slots)
            slots++;
        /* a count per node and model id makes L on a node one look; where
         * it would outweigh a byte a job, affinity scans a node's GPUs */
        int64_t nodes = (int64_t)c->racks * c->nodes_per_rack;
        int64_t counts = nodes * (prep->tr.nmid + prep->tr.nclasses);
        int lx = needs & TT_NEED_LXCNT && counts <= (j->n > 65536 ? j->n : 65536);
        prep->with |= TTS_WITH_CACHE | TTS_WITH_OVH | TTS_WITH_SLOTS(slots) |
                      (lx ? TTS_WITH_LXCNT : 0);
    }
    prep->state_bytes = tts_state_bytes_tr(&prep->tr, &prep->tc, prep->with);
    return 0;
}

void tt_simprep_free(tt_simprep *prep)
{
    free(prep->rank_job);
    free(prep->job_rank);
    subcache_free(prep->subs);
    prep->rank_job = prep->job_rank = NULL;
    prep->subs = NULL;
    free(prep->git);
    free(prep->git_key);
    free(prep->git_name);
    prep->git = NULL;
    prep->git_name = NULL;
    prep->git_key = NULL;
    prep->ngit = 0;
    tt_simprep_wf_free(prep);
}

int tt_simwork_init(tt_ctx *ctx, tt_simwork *w, const tt_simprep *prep)
{
    memset(w, 0, sizeof *w);
    w->buf = malloc((size_t)prep->state_bytes);
    if (!w->buf)
        return tt_err(ctx, TT_ENOMEM, "out of memory for a simulation of %lld jobs",
                      (long long)prep->j->n);
    tts_state_bind_tr(&w->S, w->buf, &prep->tr, &prep->tc, prep->with);
    return 0;
}

void tt_simwork_free(tt_simwork *w)
{
    free(w->buf);
    w->buf = NULL;
}

/* What cannot be computed is decided here, on the host, from the
 * summary's counts (docs/model.md, section 7): with no accepted job there
 * is no end to measure a makespan, JCT or queueing delay from, and a
 * share whose whole is zero (used GPU-seconds, cluster GPU-seconds over
 * the makespan) has no value. The engine's integers stay as they are, the
 * same on the CPU and the GPU. */
void tt_metrics_from_summary(const tts_summary *sm, tt_metrics *m)
{
    memset(m, 0, sizeof *m);
    m->rejected = sm->rejected;
    m->makespan = m->jct_p50 = m->jct_p90 = m->jct_p99 = m->queue_p99 = TT_METRIC_NONE;
    m->jct_mean = m->queue_mean = NAN;
    if (sm->accepted > 0) {
        m->makespan = sm->last - sm->first;
        m->jct_mean = (double)sm->jct_sum / (double)sm->accepted;
        m->queue_mean = (double)sm->que_sum / (double)sm->accepted;
        m->jct_p50 = sm->jct_p50;
        m->jct_p90 = sm->jct_p90;
        m->jct_p99 = sm->jct_p99;
        m->queue_p99 = sm->que_p99;
    }
    m->comm_gpu_s = (double)sm->comm_milli / 1000.0;
    if (sm->comm_rem) /* micro GPU-seconds the milli count overstates (elasticity) */
        m->comm_gpu_s -= (double)sm->comm_rem / 1e6;
    m->comm_share = sm->used > 0 ? m->comm_gpu_s / (double)sm->used : NAN;
    m->restart_gpu_s = sm->restart_gs;
    m->preemptions = sm->preempt;
    m->placed_l0 = sm->placed[0];
    m->placed_l1 = sm->placed[1];
    m->placed_l2 = sm->placed[2];
    int64_t cap = sm->accepted > 0 ? sm->cluster_gpus * m->makespan : 0;
    m->util = cap > 0 ? (double)sm->used / (double)cap : NAN;
    m->demotions = sm->demotions;
    m->promotions = sm->promotions;
    m->preempt_prio = sm->preempt_prio;
    m->ftf_mean = sm->rho_n > 0 ? (double)sm->rho_sum / (double)sm->rho_n : NAN;
    m->ftf_max = sm->rho_n > 0 ? sm->rho_max : TT_METRIC_NONE;
    m->ftf_unfair = sm->rho_unfair;
    m->resizes = sm->resizes;
    m->grows = sm->grows;
    m->shrinks = sm->shrinks;
    m->resize_gpu_s = sm->resize_gs;
    m->loan_gpu_s = sm->loan_gs;
    m->wf_jct_mean = sm->wf_n > 0 ? (double)sm->wf_sum / (double)sm->wf_n : 0;
    m->wf_jct_p99 = sm->wf_p99;
    m->wf_rejected = sm->wf_rej;
    m->cache_hit = sm->starts_all > 0 ? 1000 * sm->starts_hit / sm->starts_all : 0;
    m->loads = sm->loads;
    m->model_evicts = sm->model_evicts;
    m->load_gpu_s = sm->load_gs;
    m->xfer_gpu_s = sm->xfer_gs;
}

/* The percentiles come from the spent state: tts_summarize writes the
 * JCTs and queueing delays over its per-job arrays. */
static void fill_metrics(tts_state *S, tt_metrics *m)
{
    tts_summary sm;
    int64_t *jct = S->tend, *que = S->held;
    tts_summarize(S, &sm, jct, que);
    tts_wf_summarize(S, &sm);
    tts_percentiles(&sm, jct, que);
    tt_metrics_from_summary(&sm, m);
}

static void fill_results(const tts_state *S, tt_job_result *out)
{
    for (int64_t i = 0; i < S->n; i++) {
        tt_job_result *o = &out[i];
        memset(o, 0, sizeof *o);
        o->submit = tts_submit(S, i);
        o->cls = tts_cls(S, i);
        if (tts_st(S, i) == TTS_REJECTED) {
            o->rejected = 1;
            o->start = o->end = TT_TIME_NONE;
            o->level = -1;
            o->rho = TT_METRIC_NONE;
            continue;
        }
        int32_t lv = tts_level(S, i);
        o->start = S->first[i];
        o->end = S->tend[i];
        o->queue = S->tend[i] - o->submit - S->held[i]; /* waiting or held, to the end */
        o->gpu_s = S->el_gs && S->elastic ? S->el_gs[i] : S->tr->gpus[i] * S->held[i];
        o->level = lv;
        o->slow = lv < 0 ? 0 : (int32_t)tts_level_slow(S, i, lv);
        o->preemptions = S->evict[i];
        for (int l = 0; l < 3; l++)
            o->starts[l] = S->starts[3 * i + l];
        o->rho = S->asub[i] >= 0 ? S->asub[i] : TT_METRIC_NONE;
    }
}

static int timeline_add(tt_timeline *tl, const tts_state *S)
{
    if (tl->n == tl->cap) {
        int64_t cap = tl->cap ? tl->cap * 2 : 1024;
        tt_timeline_row *r = (tt_timeline_row *)realloc(tl->rows, (size_t)cap * sizeof *r);
        if (!r)
            return TT_ENOMEM;
        tl->rows = r;
        tl->cap = cap;
    }
    tt_timeline_row *r = &tl->rows[tl->n++];
    r->t = S->now;
    r->waiting = S->waiting;
    r->running = S->running;
    r->busy_gpus = S->busy;
    for (int l = 0; l < 3; l++)
        r->running_level[l] = S->running_level[l];
    return 0;
}

int tt_simrun(tt_ctx *ctx, const tt_simprep *prep, tt_simwork *w, const tt_params *p,
              tt_job_result *out, tt_metrics *m, tt_timeline *tl, tts_seglog *log)
{
    int need = tt_simprep_needs(p, out != NULL);
    int miss = need & ~prep->needs;
    if (miss)
        return tt_err(ctx, TT_EINVAL, "internal error: the run was not prepared for %s",
                      miss & TT_NEED_JOBS    ? "per-job results"
                      : miss & ~(TT_NEED_CACHE - 1) ? "its model cache"
                                             : "its queue order");
    tts_config cf;
    int rc = tt_simprep_config(ctx, prep, p, &cf);
    if (rc)
        return rc;
    const int64_t *sub;
    if (sub_acquire(prep, p->load, &sub))
        return tt_err(ctx, TT_ENOMEM, "out of memory for the submit times of load %lld",
                      (long long)p->load);
    tts_state *S = &w->S;
    tts_init(S, &prep->tr, &prep->tc, &cf, sub, log);
    if (tl)
        tl->n = 0;
    while (!rc && tts_step(S))
        if (tl && timeline_add(tl, S))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory for the timeline");
    if (!rc && (S->waiting || S->running))
        rc = tt_err(ctx, TT_EINVAL, "internal error: %lld jobs left waiting with no event",
                    (long long)S->waiting);
    if (!rc && out)
        fill_results(S, out);
    if (!rc && m)
        fill_metrics(S, m);
    sub_release(prep, sub);
    return rc;
}

int tt_simulate_log(tt_ctx *ctx, const tt_cluster *c, const tt_params *p,
                    const tt_models *models, const tt_sim_jobs *j, tt_job_result *out,
                    tt_metrics *m, tt_timeline *tl, tts_seglog *log)
{
    if (!c || !p || !models || !j)
        return tt_err(ctx, TT_EINVAL, "tt_simulate: missing argument");
    int rc = tt_simprep_check_frame(ctx, c, j);
    if (rc == 0)
        rc = tt_simprep_check_params(ctx, p, tt_models_count(models));
    if (rc)
        return rc;
    tt_simprep prep;
    tt_simwork w;
    memset(&w, 0, sizeof w);
    rc = tt_simprep_init(ctx, &prep, c, models, j, tt_simprep_needs(p, out != NULL));
    if (rc == 0)
        rc = tt_simprep_check_bound(ctx, &prep, p);
    if (rc == 0 && p->order == TT_ORDER_GITTINS)
        rc = tt_simprep_gittins(ctx, &prep, p);
    if (rc == 0)
        rc = tt_simwork_init(ctx, &w, &prep);
    if (rc == 0)
        rc = tt_simrun(ctx, &prep, &w, p, out, m, tl, log);
    tt_simwork_free(&w);
    tt_simprep_free(&prep);
    return rc;
}

int tt_simulate(tt_ctx *ctx, const tt_cluster *c, const tt_params *p, const tt_models *models,
                const tt_sim_jobs *j, tt_job_result *out, tt_metrics *m, tt_timeline *tl)
{
    return tt_simulate_log(ctx, c, p, models, j, out, m, tl, NULL);
}
