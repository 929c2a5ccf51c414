/* The reference simulator: SPEC sections 2 to 7, literally, favouring
 * obviousness over speed. The engine is checked against it. Section 11's
 * orders are in refsim_orders.c, section 12's workflows and GPU memory in
 * refsim_wf.c (with their readings); this file calls them at the points
 * where they change a run.
 *
 * Readings taken where SPEC is ambiguous or silent (each one is a place
 * where docs/model.md should be made precise):
 *
 *  1. Load scaling anchors on the first submit of the whole trace (jobs[0],
 *     rejected or not): submit' = s0 + (submit - s0) * 1000 / load, C
 *     integer division (submit - s0 >= 0, so it floors). JCT and queue times
 *     are measured from submit'.
 *  2. Every per-job metric (JCT, queue, percentiles, means) is over the
 *     accepted jobs; makespan = last end - first submit' of the accepted
 *     jobs. With no accepted job, makespan, the JCT and queue metrics
 *     and util cannot be computed: REF_NONE (int64) or NAN (real); so is
 *     comm_share when no GPU time was used, and util when the cluster's
 *     GPU-seconds over the makespan are 0.
 *  3. L0 for k > G is what section 6's tie-break builds: a = k / G whole
 *     free nodes and, when b = k % G > 0, one further node of the same rack
 *     with >= b free. A rack "fits" at L0 when that exists. Other sets of
 *     n_min nodes in one rack (G=8, k=12 on nodes with 7+7 free) are not
 *     found by step 1. This is also exactly the shape the victim rule of
 *     step 2 opens, and it makes "step 1 failed" imply "step 2 evicts at
 *     least one job". For k <= G the one-node search runs over every node
 *     of the cluster.
 *  4. A placement's recorded level (its slowdown and placed_lX) is the
 *     section 4 classification of the nodes it uses: one rack and exactly
 *     n_min nodes is L0, one rack is L1, else L2. So the L1 search of step 3
 *     may return a placement counted as L0 (the 7+5 on two nodes of item 3);
 *     an L2 search only runs when no rack fits, so its result is always L2.
 *  5. A job with k > N x G may take L2 at once (SPEC says so): its allowed
 *     level is always 2; steps 1 and 2 find nothing for it.
 *  6. Allowed level at time t, with wait = t - (last queue entry):
 *     wait < W0: 0; else wait - W0 < W1: 1; else 2. W0 = inf: 0 forever;
 *     W1 = inf: at most 1 forever. At wait == W0 exactly, L1 is allowed.
 *     Finite W0 + W1 past INT64_MAX counts as infinite.
 *  7. Timer crossings are events: for every waiting job that is not a
 *     victim (including jobs too large for a rack, whose timers do not
 *     matter to themselves), at entry + W0 and entry + W0 + W1 when finite
 *     and later than the current time. A victim's timers are expired: it
 *     has no crossings. So a relaxing job is re-examined exactly at W0 and
 *     at W0 + W1.
 *  8. A job becoming evictable (reaching min_run) is NOT an event: SPEC
 *     lists only arrivals, completions and timer crossings. A sensitive job
 *     waiting for victims to age is reconsidered at the next event.
 *  9. min_run counts from the last start, restart overhead included
 *     (t - t0 >= min_run). max_preempt: evictable while evictions so far <
 *     max_preempt (max_preempt = 0 disables eviction).
 * 10. Sensitivity compares the model table's raw L2 slowdown with theta
 *     (slow_l2 >= theta), not the congested one. theta = REF_INF disables.
 * 11. "has waited >= W0" in step 2: t - entry >= W0 (never when W0 = inf); a
 *     victim counts as having waited (moot: victims are never sensitive).
 * 12. Step 2 comes before step 3: a sensitive job that has waited W0 evicts
 *     to get L0 even when an L1 or L2 placement it is allowed is free.
 * 13. Step 2 takes exactly the placement the victim rule picked (k on the
 *     chosen node; or G on each of the a cleared nodes plus b on the b node),
 *     not a fresh L0 search after the eviction. The victims are the union of
 *     the chosen nodes' victims; a rack's cost is the plain sum of its nodes'
 *     costs, so a job occupying two chosen nodes is counted twice in the
 *     comparison (but evicted once). Node and rack costs compare as (GPUs,
 *     jobs, index). A node's "k <= G rule" cost when it already has the free
 *     GPUs is (0, 0).
 * 14. The pass visits the waiting jobs as they were when it began, sorted
 *     once: jobs evicted during a pass wait for the next pass. A pass
 *     "changes something" when it starts a job.
 * 15. Order keys: fifo (submit', index); sjf (duration, index); srtf
 *     (remaining work w, index); las (attained GPU-seconds = sum of gpus x
 *     held over finished segments, index). Waiting jobs' keys do not move
 *     while they wait, so computing them at the start of each pass is exact.
 * 16. Congestion applies to every level's slowdown through the formula
 *     (L0 stays 1000). Slowdowns must be >= 1000.
 * 17. A job whose segment ends at the time it starts (duration 0, or zero
 *     work left and no overhead) holds its GPUs until time t is processed
 *     again: its completion is an event at t, the least event time, so t is
 *     processed once more (free, no arrivals, passes). Meanwhile it is a
 *     running job: with min_run = 0 a later pass at t may evict it, though
 *     its work is done, and it then pays R on its next start. Literal, and
 *     odd: the model should probably say that a job ending at t is not
 *     evictable at t.
 * 18. Overhead: r = 0 on a job's first start, R (restart) on every later
 *     start. restart_gpu_s counts gpus x min(r, held).
 * 19. Percentiles, nearest rank: the ceil(p * n / 100)-th smallest value.
 *     Means are integer sums divided by the count in double. comm_gpu_s is
 *     summed exactly in milli-GPU-seconds and divided by 1000 at the end.
 * 20. Tie-breaks not spelled out: L1 racks with equal free GPUs, and L2
 *     racks/nodes with equal free GPUs, go to the lower index; equal L0 racks
 *     likewise. At one time, arrivals queue in index order; completions free
 *     in index order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refsim_impl.h"


void ref_params_default(ref_params *p)
{
    p->order = REF_FIFO;
    p->w0 = REF_INF;
    p->w1 = REF_INF;
    p->theta = REF_INF;
    p->restart = 30;
    p->congestion = 0;
    p->min_run = 300;
    p->max_preempt = 3;
    p->backfill = 1;
    p->load = 1000;
    p->w0c = p->w1c = NULL;
    p->nmlfq = 2;
    p->mlfq[0] = 3250;
    p->mlfq[1] = 7200;
    p->promote = 0;
    p->prio_preempt = 1;
    p->gittins_delta = 3250;
    p->requeue_front = 0;
    p->prio_refill = 0;
    p->git = NULL;
    p->ngit = 0;
    p->gpu_mem = 0;
    p->cache_slots = 4;
    p->load_bw = 2000;
    p->xfer_bw = 1250;
    p->evict = REF_EVICT_LRU;
    p->cache_place = REF_PLACE_OFF;
    p->w_warm = 0;
    p->task = NULL;
    p->net = REF_NET_OFF;
    p->nic_cap = 1;
    p->up_cap = 2;
}

void ref_log_free(ref_log *log)
{
    if (!log)
        return;
    free(log->seg);
    free(log->alloc);
    memset(log, 0, sizeof *log);
}

int rs_allowed_level(const sim *S, int64_t i, int64_t t)
{
    const rjob *j = &S->j[i];
    if (j->victim || S->jobs[i].gpus > S->N * S->G)
        return 2;
    int64_t wait = t - j->enq, w0 = timer_w0(&S->p, S->jobs[i].model);
    int64_t w1 = timer_w1(&S->p, S->jobs[i].model);
    if (w0 == REF_INF || wait < w0)
        return 0;
    if (w1 == REF_INF || wait - w0 < w1)
        return 1;
    return 2;
}

/* ---- placement searches (section 6); each fills pl[nodes] or returns 0 ---- */

/* k <= G: the node with the fewest free GPUs that still fits, lowest index
 * on ties, among nodes [lo, hi) except skip. */
static int32_t best_fit_node(const sim *S, int32_t lo, int32_t hi, int32_t skip, int32_t k)
{
    int32_t best = -1;
    for (int32_t x = lo; x < hi; x++)
        if (x != skip && S->freeg[x] >= k && (best < 0 || S->freeg[x] < S->freeg[best]))
            best = x;
    return best;
}

static int32_t rack_free(const sim *S, int32_t r)
{
    int32_t f = 0;
    for (int32_t x = r * S->N; x < (r + 1) * S->N; x++)
        f += S->freeg[x];
    return f;
}

int rs_find_l0(const sim *S, int32_t k, int32_t *pl)
{
    memset(pl, 0, (size_t)S->nodes * sizeof *pl);
    if (k <= S->G) {
        int32_t x = best_fit_node(S, 0, S->nodes, -1, k);
        if (x < 0)
            return 0;
        pl[x] = k;
        return 1;
    }
    int32_t a = k / S->G, b = k % S->G, best = -1, bestf = 0;
    for (int32_t r = 0; r < S->R; r++) {
        int32_t whole = 0, partial = 0;
        for (int32_t x = r * S->N; x < (r + 1) * S->N; x++) {
            if (S->freeg[x] == S->G)
                whole++;
            else if (b > 0 && S->freeg[x] >= b)
                partial = 1;
        }
        int fits = whole >= a && (b == 0 || whole > a || partial);
        int32_t f = rack_free(S, r);
        if (fits && (best < 0 || f < bestf)) {
            best = r;
            bestf = f;
        }
    }
    if (best < 0)
        return 0;
    int32_t lo = best * S->N, hi = lo + S->N, got = 0;
    for (int32_t x = lo; x < hi && got < a; x++)
        if (S->freeg[x] == S->G) {
            pl[x] = S->G;
            got++;
        }
    if (b > 0) {
        /* best fit among the nodes not already taken */
        int32_t y = -1;
        for (int32_t x = lo; x < hi; x++)
            if (!pl[x] && S->freeg[x] >= b && (y < 0 || S->freeg[x] < S->freeg[y]))
                y = x;
        pl[y] = b;
    }
    return 1;
}

/* Takes k GPUs from the nodes [lo, hi), most free first (lower index on
 * ties). The caller knows they are there. */
static void take_most_free(const sim *S, int32_t lo, int32_t hi, int32_t *k, int32_t *pl)
{
    while (*k > 0) {
        int32_t y = -1;
        for (int32_t x = lo; x < hi; x++)
            if (!pl[x] && S->freeg[x] > 0 && (y < 0 || S->freeg[x] > S->freeg[y]))
                y = x;
        if (y < 0)
            return;
        pl[y] = S->freeg[y] < *k ? S->freeg[y] : *k;
        *k -= pl[y];
    }
}

int rs_find_l1(const sim *S, int32_t k, int32_t *pl)
{
    memset(pl, 0, (size_t)S->nodes * sizeof *pl);
    int32_t best = -1, bestf = 0;
    for (int32_t r = 0; r < S->R; r++) {
        int32_t f = rack_free(S, r);
        if (f >= k && (best < 0 || f < bestf)) {
            best = r;
            bestf = f;
        }
    }
    if (best < 0)
        return 0;
    take_most_free(S, best * S->N, (best + 1) * S->N, &k, pl);
    return 1;
}

int rs_find_l2(const sim *S, int32_t k, int32_t *pl)
{
    memset(pl, 0, (size_t)S->nodes * sizeof *pl);
    int32_t total = 0;
    for (int32_t x = 0; x < S->nodes; x++)
        total += S->freeg[x];
    if (total < k)
        return 0;
    int32_t *done = (int32_t *)calloc((size_t)S->R, sizeof *done);
    if (!done)
        return -1;
    while (k > 0) {
        int32_t best = -1, bestf = 0;
        for (int32_t r = 0; r < S->R; r++) {
            int32_t f = rack_free(S, r);
            if (!done[r] && f > 0 && (best < 0 || f > bestf)) {
                best = r;
                bestf = f;
            }
        }
        done[best] = 1;
        take_most_free(S, best * S->N, (best + 1) * S->N, &k, pl);
    }
    free(done);
    return 1;
}

/* ---- starts and ends ---- */

static int log_segment(sim *S, int64_t i, int64_t t1, int64_t done, int completed, int rerated)
{
    ref_log *L = S->log;
    if (!L)
        return 0;
    if (L->nseg == L->cap) {
        int64_t cap = L->cap ? L->cap * 2 : 64;
        ref_segment *s = (ref_segment *)realloc(L->seg, (size_t)cap * sizeof *s);
        if (!s)
            return -1;
        L->seg = s;
        int32_t *a = (int32_t *)realloc(L->alloc, (size_t)(cap * S->nodes) * sizeof *a);
        if (!a)
            return -1;
        L->alloc = a;
        L->cap = cap;
    }
    const rjob *j = &S->j[i];
    ref_segment *g = &L->seg[L->nseg];
    g->job = i;
    g->t0 = j->t0;
    g->t1 = t1;
    g->r = j->r;
    g->rr = j->rr;
    g->ld = j->ld;
    g->xf = j->xf;
    g->s = j->s;
    g->w_before = j->w_before;
    g->done = done;
    g->level = j->level;
    g->completed = completed;
    g->rerated = rerated;
    memcpy(L->alloc + L->nseg * S->nodes, S->on + i * S->nodes,
           (size_t)S->nodes * sizeof *L->alloc);
    L->nseg++;
    return 0;
}

void rs_start_job(sim *S, int64_t i, int64_t t, const int32_t *pl)
{
    rjob *j = &S->j[i];
    ref_job_result *o = &S->out[i];
    int32_t k = S->jobs[i].gpus;
    for (int32_t x = 0; x < S->nodes; x++) {
        S->on[i * S->nodes + x] = pl[x];
        S->freeg[x] -= pl[x];
    }
    j->level = classify(S->N, S->G, S->nodes, pl, k);
    j->s = level_slow(&S->p, &S->models[S->jobs[i].model], j->level);
    j->rr = j->started ? S->p.restart : 0;
    rs_wf_start(S, i, pl); /* while i still waits: demand's count skips it */
    j->r = j->rr + j->ld + j->xf;
    j->t0 = j->tstart = t;
    j->w_before = j->w;
    j->end = t + j->r + ceil_div(j->w * j->s, 1000000);
    j->state = RS_RUN;
    if (!j->started)
        o->first_start = t;
    else
        j->pw += t - j->pfrom; /* P: waits after the first start */
    j->started++;
    o->queue_total += t - j->enq;
    o->last_level = j->level;
    if (j->level == 0)
        o->starts_l0++;
    else if (j->level == 1)
        o->starts_l1++;
    else
        o->starts_l2++;
    S->placed[j->level]++;
}

/* The accounting of job i's segment ending at t with done work: the log,
 * the work left, the GPU-seconds and their shares; rerated: it ends at a
 * re-rating (SPEC 13.4), the job keeps its GPUs. */
static int close_segment(sim *S, int64_t i, int64_t t, int64_t done, int completed, int rerated)
{
    rjob *j = &S->j[i];
    int32_t k = S->jobs[i].gpus;
    int64_t held = t - j->t0, run = held - j->r > 0 ? held - j->r : 0;
    if (log_segment(S, i, t, done, completed, rerated))
        return -1;
    j->w -= done;
    S->used += k * held;
    S->comm_milli += k * (run * 1000 - done);
    /* the overhead is paid restart first, then load, then transfer */
    int64_t rs = j->rr < held ? j->rr : held, ls = j->ld < held - rs ? j->ld : held - rs;
    int64_t xs = j->xf < held - rs - ls ? j->xf : held - rs - ls;
    S->restart_gs += k * rs;
    S->load_gs += k * ls;
    S->xfer_gs += k * xs;
    /* SPEC 13.6: beyond the same work at the link-free slowdown */
    int64_t s0 = level_slow(&S->p, &S->models[S->jobs[i].model], j->level);
    if (j->s > s0)
        S->link_micro += k * (run * 1000000 - done * s0);
    j->attained += k * held;
    j->aq += k * held;
    j->e += held;
    S->out[i].used_gpu_s += k * held;
    return 0;
}

/* The work of job i's current segment done by t: all of it at its end,
 * else what the time past the overhead gave (at most what was left). */
static int64_t done_by(const rjob *j, int64_t t, int completed)
{
    if (completed)
        return j->w;
    int64_t held = t - j->t0, run = held - j->r > 0 ? held - j->r : 0;
    int64_t done = run * 1000000 / j->s;
    return done < j->w ? done : j->w;
}

int rs_rerate(sim *S, int64_t i, int64_t t, int64_t s)
{
    rjob *j = &S->j[i];
    int64_t held = t - j->t0;
    if (close_segment(S, i, t, done_by(j, t, 0), 0, 1))
        return -1;
    /* the unpaid overhead keeps its kinds, paid restart, load, transfer */
    int64_t rs = j->rr < held ? j->rr : held, ls = j->ld < held - rs ? j->ld : held - rs;
    int64_t xs = j->xf < held - rs - ls ? j->xf : held - rs - ls;
    j->rr -= rs;
    j->ld -= ls;
    j->xf -= xs;
    j->r = j->rr + j->ld + j->xf;
    j->t0 = t;
    j->s = s;
    j->w_before = j->w;
    j->end = t + j->r + ceil_div(j->w * s, 1000000);
    return 0;
}

/* Ends job i's segment at t: completed, or evicted back to the queue. */
int rs_end_segment(sim *S, int64_t i, int64_t t, int completed)
{
    rjob *j = &S->j[i];
    ref_job_result *o = &S->out[i];
    if (close_segment(S, i, t, done_by(j, t, completed), completed, 0))
        return -1;
    rs_wf_end(S, i, completed);
    for (int32_t x = 0; x < S->nodes; x++) {
        S->freeg[x] += S->on[i * S->nodes + x];
        S->on[i * S->nodes + x] = 0;
    }
    if (completed) {
        j->state = RS_DONE;
        o->end = t;
    } else {
        j->state = RS_WAIT;
        j->enq = t;
        j->pfrom = t;
        j->victim = 1;
        /* requeue=front: ahead of its queue's waiters, but for a job that
         * entered its queue at t (demoted then), which stays behind them */
        if (S->p.requeue_front && rs_is_mlfq(&S->p) && (j->qfront || j->qent != t)) {
            j->qfront = 1;
            j->qev = t;
        }
        j->evictions++;
        o->preemptions++;
        S->preempt++;
    }
    return 0;
}

/* ---- the pass ---- */

static int64_t order_key(const sim *S, int64_t i)
{
    switch (S->p.order) {
    case REF_SJF:
        return S->jobs[i].duration;
    case REF_SRTF:
        return S->j[i].w;
    case REF_LAS:
        return S->j[i].attained;
    default: /* a task's static rank: its trace submit', not its ready time */
        return scaled_submit(S->jobs, i, S->p.load);
    }
}

/* One pass at t: 1 if it started a job, 0 if not, -1 no memory. */
static int run_pass(sim *S, int64_t t, int64_t *list, int64_t *key, int32_t *pl, char *vic)
{
    int64_t m = 0;
    for (int64_t i = 0; i < S->n; i++)
        if (S->j[i].state == RS_WAIT) {
            key[m] = order_key(S, i);
            list[m++] = i;
        }
    /* insertion sort on (key, index), or SPEC 11's order: few jobs, and
     * plainly right */
    for (int64_t a = 1; a < m; a++) {
        int64_t li = list[a], ki = key[a], b = a;
        while (b > 0 && (S->p.order >= REF_DLAS
                             ? rs_before(S, li, list[b - 1])
                             : key[b - 1] > ki || (key[b - 1] == ki && list[b - 1] > li))) {
            list[b] = list[b - 1];
            key[b] = key[b - 1];
            b--;
        }
        list[b] = li;
        key[b] = ki;
    }
    int changed = 0;
    for (int64_t q = 0; q < m; q++) {
        int64_t i = list[q];
        const rjob *j = &S->j[i];
        int32_t k = S->jobs[i].gpus;
        /* 0. the warm wait (SPEC 12.4): step 1 on a warm node, or nothing */
        if (rs_warm(S, i, t)) {
            if (rs_warm_node(S, i, pl)) {
                rs_start_job(S, i, t, pl);
                changed = 1;
                continue;
            }
            if (!S->p.backfill)
                break;
            continue;
        }
        /* 1. a free L0 placement (by affinity when asked) */
        if (rs_step1(S, i, pl)) {
            rs_start_job(S, i, t, pl);
            changed = 1;
            continue;
        }
        /* 2. sensitive, waited W0, eviction opens L0 */
        int64_t w0 = timer_w0(&S->p, S->jobs[i].model);
        int waited = j->victim || (w0 != REF_INF && t - j->enq >= w0);
        if (is_sensitive(&S->p, &S->models[S->jobs[i].model]) && waited) {
            int rc = rs_find_preempt(S, k, t, pl, vic);
            if (rc < 0)
                return -1;
            if (rc) {
                for (int64_t v = 0; v < S->n; v++)
                    if (vic[v] && rs_end_segment(S, v, t, 0))
                        return -1;
                rs_start_job(S, i, t, pl);
                changed = 1;
                continue;
            }
        }
        /* 3. the best level the timers allow */
        int al = rs_allowed_level(S, i, t);
        if (al >= 1 && rs_find_l1(S, k, pl)) {
            rs_start_job(S, i, t, pl);
            changed = 1;
            continue;
        }
        if (al >= 2) {
            int rc = rs_find_l2(S, k, pl);
            if (rc < 0)
                return -1;
            if (rc) {
                rs_start_job(S, i, t, pl);
                changed = 1;
                continue;
            }
        }
        /* 7. priority preemption (dlas, gittins) */
        int rc = rs_prio_step(S, i, t, pl, vic);
        if (rc < 0)
            return -1;
        if (rc) {
            changed = 1;
            continue;
        }
        /* 8 (SPEC 6's 4). skip (backfill) or stop */
        if (!S->p.backfill)
            break;
    }
    return changed;
}

/* ---- input checks ---- */

int rs_bad_input(const ref_cluster *c, const ref_params *p, const ref_model *models,
                     int nmodels, const ref_job *jobs, int64_t n, const ref_job_result *out)
{
    if (!c || !p || (n > 0 && (!jobs || !out)) || n < 0 || n > 1000000)
        return 1;
    if (c->racks < 1 || c->nodes_per_rack < 1 || c->gpus_per_node < 1 ||
        (int64_t)c->racks * c->nodes_per_rack * c->gpus_per_node > REF_MAX_GPUS)
        return 1;
    if (p->order < REF_FIFO || p->order > REF_FTF || rs_orders_bad(p) || p->w0 < 0 || p->w1 < 0 || p->theta < 0 ||
        p->restart < 0 || p->restart > REF_MAX_DUR || p->congestion < 0 ||
        p->congestion >= 1000 || p->min_run < 0 || p->max_preempt < 0 ||
        (p->backfill != 0 && p->backfill != 1) || p->load < 1 || p->load > 1000000)
        return 1;
    if (nmodels < 0 || (nmodels > 0 && !models) || rs_wf_bad(p, n) || rs_links_bad(p))
        return 1;
    int64_t fmax = rs_links_fmax(c, p);
    for (int i = 0; i < nmodels; i++)
        if (models[i].slow_l1 < 1000 || models[i].slow_l1 > REF_MAX_SLOW ||
            models[i].slow_l2 < 1000 || models[i].slow_l2 > REF_MAX_SLOW ||
            (p->gpu_mem > 0 && models[i].mem_mb < -1) ||
            timer_w0(p, i) < 0 || timer_w1(p, i) < 0)
            return 1;
    for (int64_t i = 0; i < n; i++) {
        const ref_job *jb = &jobs[i];
        if (jb->submit < -REF_MAX_TIME || jb->submit > REF_MAX_TIME || jb->duration < 0 ||
            jb->duration > REF_MAX_DUR || jb->gpus < 1 || jb->model < 0 ||
            jb->model >= nmodels || (i > 0 && jb->submit < jobs[i - 1].submit))
            return 1;
        const ref_model *md = &models[jb->model];
        int64_t smax = rs_links_slow(
            slow_eff(md->slow_l1 > md->slow_l2 ? md->slow_l1 : md->slow_l2, p->congestion), fmax);
        if (jb->duration * 1000 > REF_MAX_WORK_S / smax)
            return 1;
    }
    return 0;
}

/* ---- the run ---- */

static int fill_metrics(const sim *S, ref_metrics *m)
{
    memset(m, 0, sizeof *m);
    int64_t acc = 0, first = 0, last = 0, jsum = 0, qsum = 0;
    int64_t *jct = (int64_t *)malloc((size_t)(S->n + 1) * sizeof *jct);
    int64_t *que = (int64_t *)malloc((size_t)(S->n + 1) * sizeof *que);
    if (!jct || !que) {
        free(jct);
        free(que);
        return -1;
    }
    for (int64_t i = 0; i < S->n; i++) {
        if (S->out[i].rejected) {
            m->rejected++;
            continue;
        }
        if (acc == 0 || S->j[i].submit < first)
            first = S->j[i].submit;
        if (acc == 0 || S->out[i].end > last)
            last = S->out[i].end;
        jct[acc] = S->out[i].end - S->j[i].submit;
        que[acc] = S->out[i].queue_total;
        jsum += jct[acc];
        qsum += que[acc];
        acc++;
    }
    if (acc > 0) {
        m->makespan = last - first;
        qsort(jct, (size_t)acc, sizeof *jct, cmp_i64);
        qsort(que, (size_t)acc, sizeof *que, cmp_i64);
        m->jct_mean = (double)jsum / (double)acc;
        m->queue_mean = (double)qsum / (double)acc;
        m->jct_p50 = nearest_rank(jct, acc, 50);
        m->jct_p90 = nearest_rank(jct, acc, 90);
        m->jct_p99 = nearest_rank(jct, acc, 99);
        m->queue_p99 = nearest_rank(que, acc, 99);
    } else { /* nothing ended: nothing to measure */
        m->makespan = m->jct_p50 = m->jct_p90 = m->jct_p99 = m->queue_p99 = REF_NONE;
        m->jct_mean = m->queue_mean = NAN;
    }
    m->comm_gpu_s = (double)S->comm_milli / 1000.0;
    m->comm_share = S->used > 0 ? m->comm_gpu_s / (double)S->used : NAN;
    m->restart_gpu_s = S->restart_gs;
    if (rs_wf_metrics(S, m)) {
        free(jct);
        free(que);
        return -1;
    }
    m->preemptions = S->preempt;
    m->placed_l0 = S->placed[0];
    m->placed_l1 = S->placed[1];
    m->placed_l2 = S->placed[2];
    int64_t cap = acc > 0 ? (int64_t)S->nodes * S->G * m->makespan : 0;
    m->util = cap > 0 ? (double)S->used / (double)cap : NAN;
    m->demotions = S->demotions;
    m->promotions = S->promotions;
    m->preempt_prio = S->preempt_prio;
    m->link_gpu_s = (double)S->link_micro / 1e6;
    m->link_peak = S->link_peak;
    int64_t nr = 0, rsum = 0;
    m->ftf_max = REF_NONE;
    for (int64_t i = 0; i < S->n; i++) {
        int64_t r = S->out[i].rho;
        if (r == REF_NONE)
            continue;
        nr++;
        rsum += r;
        m->ftf_max = m->ftf_max == REF_NONE || r > m->ftf_max ? r : m->ftf_max;
        m->ftf_unfair += r > 1000;
    }
    m->ftf_mean = nr > 0 ? (double)rsum / (double)nr : NAN;
    free(jct);
    free(que);
    return 0;
}

/* Every accepted job's rho (SPEC 11.6), from the run's submits and ends. */
static int fill_rho(const sim *S)
{
    int64_t *sub = (int64_t *)calloc((size_t)S->n + 1, sizeof *sub);
    int64_t *end = (int64_t *)calloc((size_t)S->n + 1, sizeof *end);
    int *acc = (int *)calloc((size_t)S->n + 1, sizeof *acc);
    int rc = sub && end && acc ? 0 : -1;
    for (int64_t i = 0; !rc && i < S->n; i++) {
        sub[i] = S->j[i].submit;
        end[i] = S->out[i].end;
        acc[i] = !S->out[i].rejected;
    }
    for (int64_t i = 0; !rc && i < S->n; i++)
        S->out[i].rho = acc[i] ? rs_rho(sub, end, acc, S->n, i, S->jobs[i].duration,
                                        S->jobs[i].gpus, (int64_t)S->nodes * S->G)
                               : REF_NONE;
    free(sub);
    free(end);
    free(acc);
    return rc;
}

/* The least event time after now (now itself only for zero-length segments
 * that end at now); 0 when there is none. */
static int next_event(const sim *S, int64_t now, int have_now, int64_t *t)
{
    int any = 0;
    int64_t best = 0;
#define CAND(v)                                                                                \
    do {                                                                                       \
        int64_t v_ = (v);                                                                      \
        if (!any || v_ < best) {                                                               \
            best = v_;                                                                         \
            any = 1;                                                                           \
        }                                                                                      \
    } while (0)
    for (int64_t i = 0; i < S->n; i++) {
        const rjob *j = &S->j[i];
        if (j->state == RS_FUTURE) {
            int64_t ready = rs_ready(&S->p, S->jobs, i, S->out);
            if (ready != REF_INF) /* else a parent's end comes first */
                CAND(ready);
        } else if (j->state == RS_RUN)
            CAND(j->end);
        else if (j->state == RS_WAIT && !j->victim &&
                 timer_w0(&S->p, S->jobs[i].model) != REF_INF) {
            int64_t c1 = sat_add(j->enq, timer_w0(&S->p, S->jobs[i].model));
            int64_t c2 = sat_add(c1, timer_w1(&S->p, S->jobs[i].model));
            if (c1 != REF_INF && (!have_now || c1 > now))
                CAND(c1);
            if (c2 != REF_INF && (!have_now || c2 > now))
                CAND(c2);
        }
        if (j->state == RS_WAIT && S->p.w_warm > 0 && (!have_now || j->enq + S->p.w_warm > now))
            CAND(j->enq + S->p.w_warm); /* the warm wait's end, victims' too */
    }
#undef CAND
    rs_order_events(S, now, have_now, &best, &any);
    *t = best;
    return any;
}

int ref_simulate_log(const ref_cluster *c, const ref_params *p, const ref_model *models,
                     int nmodels, const ref_job *jobs, int64_t n, ref_job_result *out,
                     ref_metrics *m, ref_log *log)
{
    if (rs_bad_input(c, p, models, nmodels, jobs, n, out))
        return -1;
    sim S;
    memset(&S, 0, sizeof S);
    S.R = c->racks;
    S.N = c->nodes_per_rack;
    S.G = c->gpus_per_node;
    S.nodes = S.R * S.N;
    S.p = *p;
    S.models = models;
    S.jobs = jobs;
    S.n = n;
    S.out = out;
    S.log = log;
    S.victim_q = -1;
    if (log) {
        ref_log_free(log);
        log->nodes = S.nodes;
    }
    size_t nn = (size_t)n + 1;
    S.j = (rjob *)calloc(nn, sizeof *S.j);
    S.on = (int32_t *)calloc(nn * (size_t)S.nodes, sizeof *S.on);
    S.freeg = (int32_t *)calloc((size_t)S.nodes, sizeof *S.freeg);
    int64_t *list = (int64_t *)calloc(nn, sizeof *list);
    int64_t *key = (int64_t *)calloc(nn, sizeof *key);
    int32_t *pl = (int32_t *)calloc((size_t)S.nodes, sizeof *pl);
    char *vic = (char *)calloc(nn, 1);
    int rc = 0;
    if (!S.j || !S.on || !S.freeg || !list || !key || !pl || !vic || rs_wf_init(&S) ||
        rs_links_init(&S)) {
        rc = -2;
        goto done;
    }
    for (int32_t x = 0; x < S.nodes; x++)
        S.freeg[x] = S.G;
    rs_wf_rejects(c, p, models, jobs, n, vic); /* whole workflows (SPEC 12.1) */
    for (int64_t i = 0; i < n; i++) {
        ref_job_result *o = &out[i];
        memset(o, 0, sizeof *o);
        o->last_level = -1;
        o->first_start = o->end = REF_NONE;
        S.j[i].submit = scaled_submit(jobs, i, p->load);
        S.j[i].w = jobs[i].duration * 1000;
        if (vic[i]) {
            S.j[i].state = RS_REJECTED;
            o->rejected = 1;
        }
    }
    if (rs_orders_init(&S)) { /* after the rejections: samples of accepted jobs */
        rc = -2;
        goto done;
    }
    int64_t now = 0, t;
    int have_now = 0;
    while (next_event(&S, now, have_now, &t)) {
        now = t;
        have_now = 1;
        for (int64_t i = 0; i < n; i++)
            if (S.j[i].state == RS_RUN && S.j[i].end <= t && rs_end_segment(&S, i, t, 1)) {
                rc = -2;
                goto done;
            }
        rs_step2(&S, t);
        for (int64_t i = 0; i < n; i++)
            if (S.j[i].state == RS_FUTURE && rs_ready(p, jobs, i, out) <= t) {
                S.j[i].submit = rs_ready(p, jobs, i, out); /* a task's submit' from now */
                S.j[i].state = RS_WAIT;
                S.j[i].enq = t;
                S.j[i].qent = t; /* queue 0 from submit' */
                S.j[i].fkey = REF_NONE; /* ftf: keyed once this instant's arrivals queued */
            }
        rs_ftf_keys(&S, t);
        int ch;
        while ((ch = run_pass(&S, t, list, key, pl, vic)) > 0)
            ;
        if (ch < 0 || rs_links_step7(&S, t)) {
            rc = -2;
            goto done;
        }
    }
    for (int64_t i = 0; i < n; i++)
        if (S.j[i].state != RS_DONE && S.j[i].state != RS_REJECTED)
            rc = -2; /* a job left waiting with no event to wake it */
    if (rc == 0 && (fill_rho(&S) || (m && fill_metrics(&S, m))))
        rc = -2;
done:
    rs_wf_free(&S);
    rs_links_free(&S);
    free(S.git);
    free(S.j);
    free(S.on);
    free(S.freeg);
    free(list);
    free(key);
    free(pl);
    free(vic);
    return rc;
}

int ref_simulate(const ref_cluster *c, const ref_params *p, const ref_model *models,
                 int nmodels, const ref_job *jobs, int64_t n, ref_job_result *out,
                 ref_metrics *m)
{
    return ref_simulate_log(c, p, models, nmodels, jobs, n, out, m, NULL);
}
