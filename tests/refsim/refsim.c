/* The reference simulator: SPEC sections 2 to 7, literally, favouring
 * obviousness over speed. The engine is checked against it.
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
#include "refsim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    /* the current segment */
    int64_t t0, r, s, end, w_before;
    int32_t level;
} rjob;

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
} sim;

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
}

void ref_log_free(ref_log *log)
{
    if (!log)
        return;
    free(log->seg);
    free(log->alloc);
    memset(log, 0, sizeof *log);
}

static int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* a + b, or REF_INF when either is infinite or the sum would overflow. */
static int64_t sat_add(int64_t a, int64_t b)
{
    if (a == REF_INF || b == REF_INF || a > REF_INF - b)
        return REF_INF;
    return a + b;
}

static int64_t slow_eff(int64_t s, int64_t c) { return 1000 + (s - 1000) * 1000 / (1000 - c); }

static int64_t level_slow(const ref_params *p, const ref_model *md, int level)
{
    if (level == 0)
        return 1000;
    return slow_eff(level == 1 ? md->slow_l1 : md->slow_l2, p->congestion);
}

static int is_sensitive(const ref_params *p, const ref_model *md)
{
    return p->theta != REF_INF && md->slow_l2 >= p->theta;
}

static int64_t scaled_submit(const ref_job *jobs, int64_t i, int64_t load)
{
    return jobs[0].submit + (jobs[i].submit - jobs[0].submit) * 1000 / load;
}

/* Lowest level whose condition the placement pl (GPUs per node) meets. */
static int classify(int32_t N, int32_t G, int32_t nodes, const int32_t *pl, int32_t k)
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
static int64_t timer_w0(const ref_params *p, int32_t c) { return p->w0c ? p->w0c[c] : p->w0; }
static int64_t timer_w1(const ref_params *p, int32_t c) { return p->w1c ? p->w1c[c] : p->w1; }

static int allowed_level(const sim *S, int64_t i, int64_t t)
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

static int find_l0(const sim *S, int32_t k, int32_t *pl)
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

static int find_l1(const sim *S, int32_t k, int32_t *pl)
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

static int find_l2(const sim *S, int32_t k, int32_t *pl)
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

/* ---- preemption (section 6, "Choosing victims, exactly") ---- */

static int evictable(const sim *S, int64_t i, int64_t t)
{
    const rjob *j = &S->j[i];
    return j->state == RS_RUN && !is_sensitive(&S->p, &S->models[S->jobs[i].model]) &&
           t - j->t0 >= S->p.min_run && j->evictions < S->p.max_preempt;
}

/* The k <= G rule on node x for need GPUs: evictable occupants, most GPUs on
 * the node first (then lower index), until need are free. Marks the victims
 * in vic (when not NULL) and returns 1 with the cost, or 0 if it cannot. */
static int node_cost(const sim *S, int32_t x, int32_t need, int64_t t, int64_t *cg,
                     int64_t *cn, char *vic)
{
    int32_t freed = S->freeg[x];
    *cg = *cn = 0;
    char *taken = (char *)calloc((size_t)S->n + 1, 1);
    if (!taken)
        return -1;
    while (freed < need) {
        int64_t y = -1;
        for (int64_t i = 0; i < S->n; i++) {
            int32_t h = S->on[i * S->nodes + x];
            if (h > 0 && !taken[i] && evictable(S, i, t) &&
                (y < 0 || h > S->on[y * S->nodes + x]))
                y = i;
        }
        if (y < 0)
            break;
        taken[y] = 1;
        freed += S->on[y * S->nodes + x];
        *cg += S->jobs[y].gpus;
        *cn += 1;
    }
    if (freed >= need && vic)
        for (int64_t i = 0; i < S->n; i++)
            if (taken[i])
                vic[i] = 1;
    free(taken);
    return freed >= need;
}

/* Clearing node x: every occupant evictable. Marks them in vic when given. */
static int clear_cost(const sim *S, int32_t x, int64_t t, int64_t *cg, int64_t *cn, char *vic)
{
    *cg = *cn = 0;
    for (int64_t i = 0; i < S->n; i++)
        if (S->on[i * S->nodes + x] > 0) {
            if (!evictable(S, i, t))
                return 0;
            *cg += S->jobs[i].gpus;
            *cn += 1;
        }
    if (vic)
        for (int64_t i = 0; i < S->n; i++)
            if (S->on[i * S->nodes + x] > 0)
                vic[i] = 1;
    return 1;
}

static int cost_less(int64_t g1, int64_t n1, int64_t g2, int64_t n2)
{
    return g1 < g2 || (g1 == g2 && n1 < n2);
}

/* For rack r and k > G: picks the a cheapest clearable nodes (chosen[]) and
 * the b node (*bnode, -1 when b = 0). Returns 1 with the rack's cost. */
static int rack_pick(const sim *S, int32_t r, int32_t k, int64_t t, char *chosen,
                     int32_t *bnode, int64_t *cg, int64_t *cn)
{
    int32_t a = k / S->G, b = k % S->G, lo = r * S->N, hi = lo + S->N;
    *cg = *cn = 0;
    *bnode = -1;
    memset(chosen, 0, (size_t)S->nodes);
    for (int32_t got = 0; got < a; got++) {
        int32_t y = -1;
        int64_t yg = 0, yn = 0;
        for (int32_t x = lo; x < hi; x++) {
            int64_t g, c;
            if (!chosen[x] && clear_cost(S, x, t, &g, &c, NULL) &&
                (y < 0 || cost_less(g, c, yg, yn))) {
                y = x;
                yg = g;
                yn = c;
            }
        }
        if (y < 0)
            return 0;
        chosen[y] = 1;
        *cg += yg;
        *cn += yn;
    }
    if (b > 0) {
        int32_t y = -1;
        int64_t yg = 0, yn = 0;
        for (int32_t x = lo; x < hi; x++) {
            int64_t g, c;
            if (chosen[x])
                continue;
            int rc = node_cost(S, x, b, t, &g, &c, NULL);
            if (rc < 0)
                return -1;
            if (rc && (y < 0 || cost_less(g, c, yg, yn))) {
                y = x;
                yg = g;
                yn = c;
            }
        }
        if (y < 0)
            return 0;
        *bnode = y;
        *cg += yg;
        *cn += yn;
    }
    return 1;
}

/* The cheapest L0 placement that evicting evictable jobs would open for a
 * job of k GPUs: fills pl and vic (jobs to evict). 1 found, 0 none, -1 no
 * memory. */
static int find_preempt(const sim *S, int32_t k, int64_t t, int32_t *pl, char *vic)
{
    memset(pl, 0, (size_t)S->nodes * sizeof *pl);
    memset(vic, 0, (size_t)S->n + 1);
    if (k <= S->G) {
        int32_t best = -1;
        int64_t bg = 0, bn = 0;
        for (int32_t x = 0; x < S->nodes; x++) {
            int64_t g, c;
            int rc = node_cost(S, x, k, t, &g, &c, NULL);
            if (rc < 0)
                return -1;
            if (rc && (best < 0 || cost_less(g, c, bg, bn))) {
                best = x;
                bg = g;
                bn = c;
            }
        }
        if (best < 0)
            return 0;
        int64_t g, c;
        if (node_cost(S, best, k, t, &g, &c, vic) < 0)
            return -1;
        pl[best] = k;
        return 1;
    }
    char *chosen = (char *)malloc((size_t)S->nodes);
    if (!chosen)
        return -1;
    int32_t best = -1, bnode = -1;
    int64_t bg = 0, bn = 0;
    for (int32_t r = 0; r < S->R; r++) {
        int64_t g, c;
        int32_t bx;
        int rc = rack_pick(S, r, k, t, chosen, &bx, &g, &c);
        if (rc < 0) {
            free(chosen);
            return -1;
        }
        if (rc && (best < 0 || cost_less(g, c, bg, bn))) {
            best = r;
            bg = g;
            bn = c;
        }
    }
    int found = best >= 0;
    if (found) {
        int64_t g, c;
        rack_pick(S, best, k, t, chosen, &bnode, &g, &c);
        for (int32_t x = best * S->N; x < (best + 1) * S->N; x++)
            if (chosen[x]) {
                clear_cost(S, x, t, &g, &c, vic);
                pl[x] = S->G;
            }
        if (bnode >= 0) {
            if (node_cost(S, bnode, k % S->G, t, &g, &c, vic) < 0)
                found = -1;
            pl[bnode] = k % S->G;
        }
    }
    free(chosen);
    return found;
}

/* ---- starts and ends ---- */

static int log_segment(sim *S, int64_t i, int64_t t1, int64_t done, int completed)
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
    g->s = j->s;
    g->w_before = j->w_before;
    g->done = done;
    g->level = j->level;
    g->completed = completed;
    memcpy(L->alloc + L->nseg * S->nodes, S->on + i * S->nodes,
           (size_t)S->nodes * sizeof *L->alloc);
    L->nseg++;
    return 0;
}

static void start_job(sim *S, int64_t i, int64_t t, const int32_t *pl)
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
    j->r = j->started ? S->p.restart : 0;
    j->t0 = t;
    j->w_before = j->w;
    j->end = t + j->r + ceil_div(j->w * j->s, 1000000);
    j->state = RS_RUN;
    if (!j->started)
        o->first_start = t;
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

/* Ends job i's segment at t: completed, or evicted back to the queue. */
static int end_segment(sim *S, int64_t i, int64_t t, int completed)
{
    rjob *j = &S->j[i];
    ref_job_result *o = &S->out[i];
    int32_t k = S->jobs[i].gpus;
    int64_t held = t - j->t0, run = held - j->r > 0 ? held - j->r : 0, done;
    if (completed) {
        done = j->w;
    } else {
        done = run * 1000000 / j->s;
        if (done > j->w)
            done = j->w;
    }
    if (log_segment(S, i, t, done, completed))
        return -1;
    j->w -= done;
    S->used += k * held;
    S->comm_milli += k * (run * 1000 - done);
    S->restart_gs += k * (j->r < held ? j->r : held);
    j->attained += k * held;
    o->used_gpu_s += k * held;
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
        j->victim = 1;
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
    default:
        return S->j[i].submit;
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
    /* insertion sort on (key, index): few jobs, and plainly right */
    for (int64_t a = 1; a < m; a++) {
        int64_t li = list[a], ki = key[a], b = a;
        while (b > 0 && (key[b - 1] > ki || (key[b - 1] == ki && list[b - 1] > li))) {
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
        /* 1. a free L0 placement */
        if (find_l0(S, k, pl)) {
            start_job(S, i, t, pl);
            changed = 1;
            continue;
        }
        /* 2. sensitive, waited W0, eviction opens L0 */
        int64_t w0 = timer_w0(&S->p, S->jobs[i].model);
        int waited = j->victim || (w0 != REF_INF && t - j->enq >= w0);
        if (is_sensitive(&S->p, &S->models[S->jobs[i].model]) && waited) {
            int rc = find_preempt(S, k, t, pl, vic);
            if (rc < 0)
                return -1;
            if (rc) {
                for (int64_t v = 0; v < S->n; v++)
                    if (vic[v] && end_segment(S, v, t, 0))
                        return -1;
                start_job(S, i, t, pl);
                changed = 1;
                continue;
            }
        }
        /* 3. the best level the timers allow */
        int al = allowed_level(S, i, t);
        if (al >= 1 && find_l1(S, k, pl)) {
            start_job(S, i, t, pl);
            changed = 1;
            continue;
        }
        if (al >= 2) {
            int rc = find_l2(S, k, pl);
            if (rc < 0)
                return -1;
            if (rc) {
                start_job(S, i, t, pl);
                changed = 1;
                continue;
            }
        }
        /* 4. skip (backfill) or stop */
        if (!S->p.backfill)
            break;
    }
    return changed;
}

/* ---- input checks ---- */

static int bad_input(const ref_cluster *c, const ref_params *p, const ref_model *models,
                     int nmodels, const ref_job *jobs, int64_t n, const ref_job_result *out)
{
    if (!c || !p || (n > 0 && (!jobs || !out)) || n < 0 || n > 1000000)
        return 1;
    if (c->racks < 1 || c->nodes_per_rack < 1 || c->gpus_per_node < 1 ||
        (int64_t)c->racks * c->nodes_per_rack * c->gpus_per_node > REF_MAX_GPUS)
        return 1;
    if (p->order < REF_FIFO || p->order > REF_LAS || p->w0 < 0 || p->w1 < 0 || p->theta < 0 ||
        p->restart < 0 || p->restart > REF_MAX_DUR || p->congestion < 0 ||
        p->congestion >= 1000 || p->min_run < 0 || p->max_preempt < 0 ||
        (p->backfill != 0 && p->backfill != 1) || p->load < 1 || p->load > 1000000)
        return 1;
    if (nmodels < 0 || (nmodels > 0 && !models))
        return 1;
    for (int i = 0; i < nmodels; i++)
        if (models[i].slow_l1 < 1000 || models[i].slow_l1 > REF_MAX_SLOW ||
            models[i].slow_l2 < 1000 || models[i].slow_l2 > REF_MAX_SLOW ||
            timer_w0(p, i) < 0 || timer_w1(p, i) < 0)
            return 1;
    for (int64_t i = 0; i < n; i++) {
        const ref_job *jb = &jobs[i];
        if (jb->submit < -REF_MAX_TIME || jb->submit > REF_MAX_TIME || jb->duration < 0 ||
            jb->duration > REF_MAX_DUR || jb->gpus < 1 || jb->model < 0 ||
            jb->model >= nmodels || (i > 0 && jb->submit < jobs[i - 1].submit))
            return 1;
        const ref_model *md = &models[jb->model];
        int64_t smax = slow_eff(md->slow_l1 > md->slow_l2 ? md->slow_l1 : md->slow_l2,
                                p->congestion);
        if (jb->duration * 1000 > REF_MAX_WORK_S / smax)
            return 1;
    }
    return 0;
}

/* ---- the run ---- */

static int64_t nearest_rank(const int64_t *sorted, int64_t n, int64_t pct)
{
    if (n == 0)
        return 0;
    int64_t rank = ceil_div(pct * n, 100);
    return sorted[(rank < 1 ? 1 : rank) - 1];
}

/* Equal, or both NAN (a metric that cannot be computed). */
static int same_real(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

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
    m->preemptions = S->preempt;
    m->placed_l0 = S->placed[0];
    m->placed_l1 = S->placed[1];
    m->placed_l2 = S->placed[2];
    int64_t cap = acc > 0 ? (int64_t)S->nodes * S->G * m->makespan : 0;
    m->util = cap > 0 ? (double)S->used / (double)cap : NAN;
    free(jct);
    free(que);
    return 0;
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
        if (j->state == RS_FUTURE)
            CAND(j->submit);
        else if (j->state == RS_RUN)
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
    }
#undef CAND
    *t = best;
    return any;
}

int ref_simulate_log(const ref_cluster *c, const ref_params *p, const ref_model *models,
                     int nmodels, const ref_job *jobs, int64_t n, ref_job_result *out,
                     ref_metrics *m, ref_log *log)
{
    if (bad_input(c, p, models, nmodels, jobs, n, out))
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
    if (!S.j || !S.on || !S.freeg || !list || !key || !pl || !vic) {
        rc = -2;
        goto done;
    }
    for (int32_t x = 0; x < S.nodes; x++)
        S.freeg[x] = S.G;
    for (int64_t i = 0; i < n; i++) {
        ref_job_result *o = &out[i];
        memset(o, 0, sizeof *o);
        o->last_level = -1;
        o->first_start = o->end = REF_NONE;
        S.j[i].submit = scaled_submit(jobs, i, p->load);
        S.j[i].w = jobs[i].duration * 1000;
        if (jobs[i].gpus > S.nodes * S.G) {
            S.j[i].state = RS_REJECTED;
            o->rejected = 1;
        }
    }
    int64_t now = 0, t;
    int have_now = 0;
    while (next_event(&S, now, have_now, &t)) {
        now = t;
        have_now = 1;
        for (int64_t i = 0; i < n; i++)
            if (S.j[i].state == RS_RUN && S.j[i].end <= t && end_segment(&S, i, t, 1)) {
                rc = -2;
                goto done;
            }
        for (int64_t i = 0; i < n; i++)
            if (S.j[i].state == RS_FUTURE && S.j[i].submit <= t) {
                S.j[i].state = RS_WAIT;
                S.j[i].enq = t;
            }
        int ch;
        while ((ch = run_pass(&S, t, list, key, pl, vic)) > 0)
            ;
        if (ch < 0) {
            rc = -2;
            goto done;
        }
    }
    for (int64_t i = 0; i < n; i++)
        if (S.j[i].state != RS_DONE && S.j[i].state != RS_REJECTED)
            rc = -2; /* a job left waiting with no event to wake it */
    if (rc == 0 && m && fill_metrics(&S, m))
        rc = -2;
done:
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

/* ---- invariants, recomputed from the log ---- */

static int failf(char *why, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int failf(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ref_check_invariants(const ref_cluster *c, const ref_params *p, const ref_model *models,
                         int nmodels, const ref_job *jobs, int64_t n,
                         const ref_job_result *out, const ref_metrics *m, const ref_log *log,
                         char *why, size_t whylen)
{
    if (bad_input(c, p, models, nmodels, jobs, n, out) || !m || !log)
        return failf(why, whylen, "bad input to the check");
    int32_t N = c->nodes_per_rack, G = c->gpus_per_node, nodes = c->racks * N;
    int64_t cluster = (int64_t)nodes * G;
    if (log->nodes != nodes)
        return failf(why, whylen, "log has %d nodes, cluster %d", log->nodes, nodes);
    const ref_segment *sg = log->seg;
    /* per-segment shape, slowdown and work arithmetic */
    for (int64_t q = 0; q < log->nseg; q++) {
        const ref_segment *g = &sg[q];
        const int32_t *al = log->alloc + q * nodes;
        if (g->job < 0 || g->job >= n || out[g->job].rejected)
            return failf(why, whylen, "segment %lld: bad job", (long long)q);
        const ref_job *jb = &jobs[g->job];
        int64_t sum = 0;
        for (int32_t x = 0; x < nodes; x++) {
            if (al[x] < 0 || al[x] > G)
                return failf(why, whylen, "segment %lld: %d GPUs on node %d", (long long)q,
                             al[x], x);
            sum += al[x];
        }
        if (sum != jb->gpus)
            return failf(why, whylen, "job %lld: holds %lld GPUs, wants %d",
                         (long long)g->job, (long long)sum, jb->gpus);
        int lv = classify(N, G, nodes, al, jb->gpus);
        if (lv != g->level || g->s != level_slow(p, &models[jb->model], lv))
            return failf(why, whylen, "job %lld: level %d / slowdown %lld wrong at %lld",
                         (long long)g->job, g->level, (long long)g->s, (long long)g->t0);
        int64_t held = g->t1 - g->t0, run = held - g->r > 0 ? held - g->r : 0;
        if (held < 0)
            return failf(why, whylen, "job %lld: segment ends before it starts",
                         (long long)g->job);
        if (g->completed) {
            if (g->done != g->w_before ||
                g->t1 != g->t0 + g->r + ceil_div(g->w_before * g->s, 1000000))
                return failf(why, whylen, "job %lld: end %lld is not t0 + r + ceil(w s / 1e6)",
                             (long long)g->job, (long long)g->t1);
        } else {
            int64_t d = run * 1000000 / g->s;
            if (g->done != (d < g->w_before ? d : g->w_before))
                return failf(why, whylen, "job %lld: eviction progress wrong",
                             (long long)g->job);
            /* ends at t are freed before the passes at t, so only a
             * zero-length segment (reading 17) can be evicted at its end */
            int64_t end = g->t0 + g->r + ceil_div(g->w_before * g->s, 1000000);
            if (end <= g->t1 && !(end == g->t1 && held == 0))
                return failf(why, whylen, "job %lld: evicted after its end", (long long)g->job);
        }
    }
    /* no GPU given twice: at every segment start, per node, the GPUs of the
     * segments holding [t0, t1) there are at most G */
    for (int64_t q = 0; q < log->nseg; q++)
        for (int32_t x = 0; x < nodes; x++) {
            int64_t tau = sg[q].t0, h = 0;
            for (int64_t u = 0; u < log->nseg; u++)
                if (sg[u].t0 <= tau && tau < sg[u].t1)
                    h += log->alloc[u * nodes + x];
            if (h > G)
                return failf(why, whylen, "node %d holds %lld GPUs at %lld", x, (long long)h,
                             (long long)tau);
        }
    /* per job: segments in time order, one completion, the last */
    int64_t acc = 0, first = 0, last = 0, jsum = 0, qsum = 0, used_all = 0, comm = 0, rst = 0;
    int64_t pre = 0, placed[3] = {0, 0, 0}, rej = 0;
    int64_t *jct = (int64_t *)malloc((size_t)(n + 1) * sizeof *jct);
    int64_t *que = (int64_t *)malloc((size_t)(n + 1) * sizeof *que);
    int rc = 0;
    if (!jct || !que) {
        rc = failf(why, whylen, "no memory");
        goto out;
    }
    for (int64_t i = 0; i < n && rc == 0; i++) {
        const ref_job *jb = &jobs[i];
        const ref_job_result *o = &out[i];
        int64_t sub = scaled_submit(jobs, i, p->load);
        if (jb->gpus > cluster) {
            if (!o->rejected || o->end != REF_NONE || o->used_gpu_s || o->preemptions)
                rc = failf(why, whylen, "job %lld: larger than the cluster, not rejected",
                           (long long)i);
            rej++;
            continue;
        }
        if (o->rejected) {
            rc = failf(why, whylen, "job %lld: rejected though it fits", (long long)i);
            break;
        }
        int64_t entry = sub, prev_end = INT64_MIN, w = jb->duration * 1000, ends = 0;
        int64_t used = 0, queue = 0, evic = 0, nseg = 0, lv[3] = {0, 0, 0}, first_t0 = 0, s1 = 0;
        int victim = 0, last_level = -1;
        int sens = is_sensitive(p, &models[jb->model]);
        /* a job's segments do not overlap, so the log (in end order) holds
         * them in start order too */
        int64_t cnt = 0;
        for (int64_t q = 0; q < log->nseg; q++)
            cnt += sg[q].job == i;
        for (int64_t s = 0; s < cnt && rc == 0; s++) {
            int64_t q = -1, seen = 0;
            for (int64_t u = 0; u < log->nseg; u++)
                if (sg[u].job == i && seen++ == s) {
                    q = u;
                    break;
                }
            const ref_segment *g = &sg[q];
            if (g->t0 < entry || (prev_end != INT64_MIN && g->t0 < prev_end))
                rc = failf(why, whylen, "job %lld: starts at %lld before it is queued",
                           (long long)i, (long long)g->t0);
            if (g->w_before != w)
                rc = failf(why, whylen, "job %lld: work %lld at start, expected %lld",
                           (long long)i, (long long)g->w_before, (long long)w);
            if (g->r != (nseg == 0 ? 0 : p->restart))
                rc = failf(why, whylen, "job %lld: overhead %lld on start %lld", (long long)i,
                           (long long)g->r, (long long)nseg);
            /* the level the timers allowed (L0 always) */
            if (!victim && g->level > 0 && jb->gpus <= N * G) {
                int64_t wait = g->t0 - entry, w0 = timer_w0(p, jb->model);
                int64_t w1 = timer_w1(p, jb->model);
                int ok = w0 != REF_INF && wait >= w0;
                if (g->level == 2)
                    ok = ok && w1 != REF_INF && wait - w0 >= w1;
                if (!ok)
                    rc = failf(why, whylen, "job %lld: level %d at wait %lld", (long long)i,
                               g->level, (long long)wait);
            }
            if (nseg == 0) {
                first_t0 = g->t0;
                s1 = g->s;
            }
            queue += g->t0 - entry;
            used += (int64_t)jb->gpus * (g->t1 - g->t0);
            int64_t held = g->t1 - g->t0, run = held - g->r > 0 ? held - g->r : 0;
            comm += jb->gpus * (run * 1000 - g->done);
            rst += jb->gpus * (g->r < held ? g->r : held);
            lv[g->level]++;
            last_level = g->level;
            w -= g->done;
            nseg++;
            if (g->completed) {
                ends++;
                if (s != cnt - 1)
                    rc = failf(why, whylen, "job %lld: runs again after its end", (long long)i);
            } else {
                /* a legal eviction: not sensitive, aged, under the cap, and
                 * made at the start of a sensitive job on one of its nodes */
                if (sens || held < p->min_run || evic >= p->max_preempt)
                    rc = failf(why, whylen, "job %lld: illegal eviction at %lld", (long long)i,
                               (long long)g->t1);
                int cause = 0;
                for (int64_t u = 0; u < log->nseg && !cause; u++) {
                    if (sg[u].t0 != g->t1 || sg[u].job == i || sg[u].level != 0 ||
                        !is_sensitive(p, &models[jobs[sg[u].job].model]))
                        continue;
                    for (int32_t x = 0; x < nodes; x++)
                        if (log->alloc[u * nodes + x] && log->alloc[q * nodes + x])
                            cause = 1;
                }
                if (!cause)
                    rc = failf(why, whylen, "job %lld: evicted at %lld for no sensitive job",
                               (long long)i, (long long)g->t1);
                evic++;
                victim = 1;
                entry = g->t1;
            }
            prev_end = g->t1;
        }
        if (rc)
            break;
        if (ends != 1 || w != 0)
            rc = failf(why, whylen, "job %lld: %lld ends, %lld work left", (long long)i,
                       (long long)ends, (long long)w);
        else if (o->end != prev_end || o->first_start != first_t0 || o->queue_total != queue ||
                 o->used_gpu_s != used || o->preemptions != evic || o->starts_l0 != lv[0] ||
                 o->starts_l1 != lv[1] || o->starts_l2 != lv[2] || o->last_level != last_level)
            rc = failf(why, whylen, "job %lld: per-job results disagree with the log",
                       (long long)i);
        else if (o->end - sub < jb->duration)
            rc = failf(why, whylen, "job %lld: JCT %lld < duration %lld", (long long)i,
                       (long long)(o->end - sub), (long long)jb->duration);
        else if (nseg == 1 && s1 == 1000 && used != (int64_t)jb->gpus * jb->duration)
            rc = failf(why, whylen, "job %lld: one run at 1000 of %lld s, duration %lld",
                       (long long)i, (long long)(used / jb->gpus), (long long)jb->duration);
        if (rc)
            break;
        if (acc == 0 || sub < first)
            first = sub;
        if (acc == 0 || o->end > last)
            last = o->end;
        jct[acc] = o->end - sub;
        que[acc] = queue;
        jsum += jct[acc];
        qsum += queue;
        used_all += used;
        pre += evic;
        for (int l = 0; l < 3; l++)
            placed[l] += lv[l];
        acc++;
    }
    if (rc)
        goto out;
    {
        int64_t nseg_all = 0;
        for (int l = 0; l < 3; l++)
            nseg_all += placed[l];
        if (nseg_all != log->nseg) {
            rc = failf(why, whylen, "log has %lld segments, jobs account for %lld",
                       (long long)log->nseg, (long long)nseg_all);
            goto out;
        }
        /* with nothing accepted there is nothing to measure (REF_NONE,
         * NAN), nor a share of zero GPU-seconds */
        int64_t mk = acc ? last - first : REF_NONE;
        qsort(jct, (size_t)acc, sizeof *jct, cmp_i64);
        qsort(que, (size_t)acc, sizeof *que, cmp_i64);
        double cap = acc ? (double)(cluster * mk) : 0.0;
        if (m->makespan != mk || m->rejected != rej || m->preemptions != pre ||
            m->placed_l0 != placed[0] || m->placed_l1 != placed[1] ||
            m->placed_l2 != placed[2] || m->restart_gpu_s != rst ||
            m->jct_p50 != (acc ? nearest_rank(jct, acc, 50) : REF_NONE) ||
            m->jct_p90 != (acc ? nearest_rank(jct, acc, 90) : REF_NONE) ||
            m->jct_p99 != (acc ? nearest_rank(jct, acc, 99) : REF_NONE) ||
            m->queue_p99 != (acc ? nearest_rank(que, acc, 99) : REF_NONE) ||
            !same_real(m->jct_mean, acc ? (double)jsum / (double)acc : NAN) ||
            !same_real(m->queue_mean, acc ? (double)qsum / (double)acc : NAN) ||
            m->comm_gpu_s != (double)comm / 1000.0 ||
            !same_real(m->comm_share, used_all ? (double)comm / 1000.0 / (double)used_all : NAN) ||
            !same_real(m->util, cap > 0 ? (double)used_all / cap : NAN))
            rc = failf(why, whylen, "metrics disagree with the log");
        else if (comm < 0)
            rc = failf(why, whylen, "negative comm_gpu_s");
    }
out:
    free(jct);
    free(que);
    return rc;
}
