/* The reference simulator's workflows and GPU memory: SPEC section 12,
 * literally, by scans over every job, node and GPU. The engine's ready
 * lists, cursors, free masks and per-model counts are checked against it.
 *
 * Readings taken where SPEC 12 leaves a point open (where docs/model.md
 * section 13 decides one, its item is named):
 *  1. Columns: p->task NULL means no row is a task, every model is its
 *     class's with the table's size, no outputs. A plain row (wf = -1) with
 *     parents is bad input. A task's parent must be an earlier row of its
 *     workflow, else the workflow is rejected whole (12.1). A parent listed
 *     twice is waited for once and its output counted twice (13.4).
 *  2. A model's size is per id: the first row naming the id (its mid, or
 *     its class when mid = -1) with mem_mb >= 0 gives it, else the table's
 *     for that row's class (13.10). It rejects only when gpu_mem > 0 and it
 *     is known (>= 0) and larger than gpu_mem; a task's rejection rejects its
 *     workflow, as one larger than the cluster does.
 *  3. A task is ready at max(submit', its parents' ends) and queues at step
 *     3 of that time, in index order with the arrivals. From then on its
 *     ready time is its submit' for waits, timers, JCT, queue, qent, ftf's
 *     key and A, and rho; fifo keeps the static (trace submit', index).
 *     The makespan starts at the first ready time, which is the first
 *     submit' (the lowest accepted row has no parent).
 *  4. GPUs: on each node of a placement the job takes the free GPUs that
 *     hold its model, in GPU order, then the lowest-numbered free ones; with
 *     the cache off (or a model of unknown size) the lowest-numbered.
 *  5. Loading: each chosen GPU without the model evicts by the order's key
 *     until it holds fewer than cache_slots models and used + size <=
 *     gpu_mem, then loads it (loads += 1, model_evicts += each victim).
 *     L = ceil(size / load_bw) if any GPU loaded, else 0: a model of size 0
 *     is a load of 0 s, so its start counts as a hit. Unknown sizes are
 *     never cached and load in 0.
 *  6. Recency: with the cache on, each start ticks the clock once and
 *     stamps the tick on every chosen GPU's copy of its model, loaded or
 *     already there (13.11: one start, one stamp).
 *  7. demand: a model is needed while some waiting job other than the one
 *     starting has its id: fresh jobs, ready tasks and victims, including
 *     the victims a step-2 eviction queued just before this start (13.11).
 *     Victims by (needed, last_use, id); lru by (last_use, id).
 *  8. Overhead: r = R (a restart) + L + X, paid in that order; each of
 *     restart_gpu_s, load_gpu_s and xfer_gpu_s takes gpus x its kind's
 *     share of min(r, held) (12.3, 13.7).
 *  9. Home: the lowest-numbered node a task held when it completed. X at
 *     every start, restarts included, for the placement taken then.
 * 10. Affinity replaces step 1's search for jobs of k <= G only: among the
 *     nodes with >= k free GPUs, the least (L + X, free GPUs, node index);
 *     with the cache off too, where only X differs (13.12). Step 7's L0 search
 *     (dlas, gittins) stays SPEC 6's best fit.
 * 11. The warm wait is SPEC's (docs/model.md 13.13): it counts from a
 *     job's last queue entry (ready time, submit' or its eviction), victims
 *     included, and its crossing (entry + w_warm) is an event for every
 *     waiting job. While wait < w_warm a job of k <= G may only take a
 *     single node with >= k free GPUs and L + X = 0, best fit (fewest free,
 *     index); a job of k > G waits. Nothing else is tried for it, and with
 *     backfill = 0 the pass stops at it as at SPEC 6's step 4.
 * 12. cache_hit = floor(1000 x starts with L = 0 / starts), 0 with gpu_mem =
 *     0 or no start. wf_jct over accepted workflows: last end minus the
 *     earliest submit' of its tasks; wf_jct_mean and wf_jct_p99 are 0
 *     when no workflow is accepted (13.5).
 * 13. dlas and gittins with workflows (docs/model.md 13.3): a ready
 *     task enters queue 0 at its ready time (its qent), so queue 0 orders
 *     by (ready time, index).
 */
#include <stdlib.h>
#include <string.h>

#include "refsim_impl.h"

#define REF_MAX_BW ((int64_t)1 << 31)

static const ref_task no_task = {-1, -1, -1, 0, 0, NULL};

const ref_task *rs_task(const ref_params *p, int64_t i) { return p->task ? &p->task[i] : &no_task; }

int rs_wf_bad(const ref_params *p, int64_t n)
{
    if (p->gpu_mem < 0 || p->gpu_mem >= REF_MAX_BW || p->cache_slots < 1 ||
        p->cache_slots > REF_MAX_SLOTS || p->load_bw < 1 || p->load_bw >= REF_MAX_BW ||
        p->xfer_bw < 1 || p->xfer_bw >= REF_MAX_BW || p->w_warm < 0 ||
        p->w_warm >= REF_MAX_BW || (p->evict != REF_EVICT_LRU && p->evict != REF_EVICT_DEMAND) ||
        (p->cache_place != REF_PLACE_OFF && p->cache_place != REF_PLACE_AFFINITY))
        return 1;
    for (int64_t i = 0; i < n; i++) {
        const ref_task *k = rs_task(p, i);
        if (k->wf < -1 || k->mid < -1 || k->mem_mb < -1 || k->out_mb < 0 || k->ndeps < 0 ||
            (k->ndeps > 0 && (!k->deps || k->wf < 0)))
            return 1;
    }
    return 0;
}

int32_t rs_model_id(const ref_params *p, const ref_job *jobs, int64_t i)
{
    int32_t mid = rs_task(p, i)->mid;
    return mid >= 0 ? mid : -1 - jobs[i].model;
}

int32_t rs_model_mb(const ref_params *p, const ref_model *models, const ref_job *jobs,
                    int64_t n, int32_t id)
{
    int64_t first = -1;
    for (int64_t i = 0; i < n; i++)
        if (rs_model_id(p, jobs, i) == id) {
            if (first < 0)
                first = i;
            if (rs_task(p, i)->mem_mb >= 0)
                return rs_task(p, i)->mem_mb;
        }
    return first < 0 ? -1 : models[jobs[first].model].mem_mb;
}

/* 1 when row i alone breaks a rule that rejects it (and its workflow). */
static int row_rejected(const ref_cluster *c, const ref_params *p, const ref_model *models,
                        const ref_job *jobs, int64_t n, int64_t i)
{
    const ref_task *k = rs_task(p, i);
    if (jobs[i].gpus > (int64_t)c->racks * c->nodes_per_rack * c->gpus_per_node)
        return 1;
    int32_t mb = rs_model_mb(p, models, jobs, n, rs_model_id(p, jobs, i));
    if (p->gpu_mem > 0 && mb > p->gpu_mem)
        return 1;
    for (int32_t d = 0; d < k->ndeps; d++)
        if (k->deps[d] < 0 || k->deps[d] >= i || rs_task(p, k->deps[d])->wf != k->wf)
            return 1;
    return 0;
}

int64_t rs_wf_rejects(const ref_cluster *c, const ref_params *p, const ref_model *models,
                      const ref_job *jobs, int64_t n, char *rej)
{
    int64_t nwf = 0;
    for (int64_t i = 0; i < n; i++)
        rej[i] = (char)row_rejected(c, p, models, jobs, n, i);
    for (int64_t i = 0; i < n; i++) {
        int64_t wf = rs_task(p, i)->wf;
        if (wf < 0 || !rej[i])
            continue;
        int first = 1; /* count each workflow at its first rejected row */
        for (int64_t u = 0; u < i; u++)
            if (rs_task(p, u)->wf == wf && row_rejected(c, p, models, jobs, n, u))
                first = 0;
        nwf += first;
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t u = 0; u < n && !rej[i]; u++)
            if (rs_task(p, i)->wf >= 0 && rs_task(p, u)->wf == rs_task(p, i)->wf &&
                row_rejected(c, p, models, jobs, n, u))
                rej[i] = 1;
    return nwf;
}

int64_t rs_ready(const ref_params *p, const ref_job *jobs, int64_t i, const ref_job_result *out)
{
    const ref_task *k = rs_task(p, i);
    int64_t t = scaled_submit(jobs, i, p->load);
    for (int32_t d = 0; d < k->ndeps; d++) {
        if (k->deps[d] < 0 || k->deps[d] >= i)
            continue; /* no parent: it rejects the row's workflow */
        int64_t e = out[k->deps[d]].end;
        if (e == REF_NONE)
            return REF_INF;
        t = e > t ? e : t;
    }
    return t;
}

int32_t rs_home(const int32_t *pl, int32_t nodes)
{
    for (int32_t x = 0; x < nodes; x++)
        if (pl[x] > 0)
            return x;
    return -1;
}

int64_t rs_xfer(const ref_params *p, int64_t i, const int32_t *home, const int32_t *pl)
{
    const ref_task *k = rs_task(p, i);
    int64_t mb = 0;
    for (int32_t d = 0; d < k->ndeps; d++)
        if (home[k->deps[d]] < 0 || pl[home[k->deps[d]]] == 0)
            mb += rs_task(p, k->deps[d])->out_mb;
    return ceil_div(mb, p->xfer_bw);
}

/* ---- the run's state ---- */

int rs_wf_init(sim *S)
{
    size_t gpus = (size_t)S->nodes * (size_t)S->G;
    S->holder = (int64_t *)malloc(gpus * sizeof *S->holder);
    S->home = (int32_t *)malloc(((size_t)S->n + 1) * sizeof *S->home);
    S->cache = (rslot *)calloc(gpus * REF_MAX_SLOTS, sizeof *S->cache);
    S->ncached = (int32_t *)calloc(gpus, sizeof *S->ncached);
    S->take = (int32_t *)malloc((size_t)S->G * sizeof *S->take);
    if (!S->holder || !S->home || !S->cache || !S->ncached || !S->take)
        return -1;
    for (size_t g = 0; g < gpus; g++)
        S->holder[g] = -1;
    for (int64_t i = 0; i < S->n; i++) {
        S->home[i] = -1;
        S->j[i].mid = rs_model_id(&S->p, S->jobs, i);
        S->j[i].mb = rs_model_mb(&S->p, S->models, S->jobs, S->n, S->j[i].mid);
    }
    return 0;
}

void rs_wf_free(sim *S)
{
    free(S->holder);
    free(S->home);
    free(S->cache);
    free(S->ncached);
    free(S->take);
}

static int cache_on(const sim *S, int64_t i) { return S->p.gpu_mem > 0 && S->j[i].mb >= 0; }

/* the slot of model id on GPU g, -1 when absent */
static int slot_of(const sim *S, int64_t g, int32_t id)
{
    for (int s = 0; s < S->ncached[g]; s++)
        if (S->cache[g * REF_MAX_SLOTS + s].id == id)
            return s;
    return -1;
}

/* Job i's GPUs on node x for need of them (12.2): into take[0..need), GPU
 * numbers on the node. Returns 1 when one of them lacks the model (a load
 * with the cache on). The caller knows need are free. */
static int choose_gpus(const sim *S, int64_t i, int32_t x, int32_t need, int32_t *take)
{
    int32_t got = 0;
    int on = cache_on(S, i), lacks = 0;
    for (int pass = on ? 0 : 1; pass < 2; pass++)
        for (int32_t g = 0; g < S->G && got < need; g++) {
            int64_t gi = (int64_t)x * S->G + g;
            int has = on && slot_of(S, gi, S->j[i].mid) >= 0;
            int dup = 0;
            for (int32_t u = 0; u < got; u++)
                dup |= take[u] == g;
            if (S->holder[gi] < 0 && !dup && (pass == 1 || has)) {
                take[got++] = g;
                lacks |= on && !has;
            }
        }
    return lacks;
}

/* L and X (s) of job i on placement pl, as a start there would pay them. */
static int64_t load_xfer(const sim *S, int64_t i, const int32_t *pl)
{
    int lacks = 0;
    for (int32_t x = 0; x < S->nodes; x++)
        if (pl[x] > 0)
            lacks |= choose_gpus(S, i, x, pl[x], S->take);
    int64_t l = lacks ? ceil_div(S->j[i].mb, S->p.load_bw) : 0;
    return l + rs_xfer(&S->p, i, S->home, pl);
}

int rs_warm(const sim *S, int64_t i, int64_t t) { return t - S->j[i].enq < S->p.w_warm; }

/* Single nodes with k free GPUs, by (L + X if byx, free GPUs, index);
 * warm: only where L + X = 0. */
static int node_pick(const sim *S, int64_t i, int32_t *pl, int warm)
{
    int32_t k = S->jobs[i].gpus, best = -1;
    int64_t bc = 0;
    memset(pl, 0, (size_t)S->nodes * sizeof *pl);
    if (k > S->G)
        return 0;
    for (int32_t x = 0; x < S->nodes; x++) {
        if (S->freeg[x] < k)
            continue;
        pl[x] = k;
        int64_t cost = load_xfer(S, i, pl);
        pl[x] = 0;
        if (warm && cost > 0)
            continue;
        if (warm)
            cost = 0;
        if (best < 0 || cost < bc || (cost == bc && S->freeg[x] < S->freeg[best])) {
            best = x;
            bc = cost;
        }
    }
    if (best >= 0)
        pl[best] = k;
    return best >= 0;
}

int rs_warm_node(const sim *S, int64_t i, int32_t *pl) { return node_pick(S, i, pl, 1); }

int rs_step1(const sim *S, int64_t i, int32_t *pl)
{
    if (S->p.cache_place == REF_PLACE_AFFINITY && S->jobs[i].gpus <= S->G)
        return node_pick(S, i, pl, 0);
    return rs_find_l0(S, S->jobs[i].gpus, pl);
}

/* ---- starts and ends ---- */

/* 1 when a waiting job other than i names model id. */
static int needed(const sim *S, int64_t i, int32_t id)
{
    for (int64_t u = 0; u < S->n; u++)
        if (u != i && S->j[u].state == RS_WAIT && S->j[u].mid == id)
            return 1;
    return 0;
}

/* GPU g makes room for job i's model, evicting by the order's key, and
 * loads it. */
static void load_on(sim *S, int64_t i, int64_t g)
{
    rslot *c = S->cache + g * REF_MAX_SLOTS;
    int32_t used = 0;
    for (int s = 0; s < S->ncached[g]; s++)
        used += c[s].mb;
    while (S->ncached[g] >= S->p.cache_slots || used + S->j[i].mb > S->p.gpu_mem) {
        int v = -1, vn = 0;
        for (int s = 0; s < S->ncached[g]; s++) {
            int nd = S->p.evict == REF_EVICT_DEMAND && needed(S, i, c[s].id);
            if (v < 0 || nd < vn || (nd == vn && (c[s].use < c[v].use ||
                                                  (c[s].use == c[v].use && c[s].id < c[v].id)))) {
                v = s;
                vn = nd;
            }
        }
        used -= c[v].mb;
        c[v] = c[--S->ncached[g]];
        S->evicts++;
    }
    c[S->ncached[g]].id = S->j[i].mid;
    c[S->ncached[g]].mb = S->j[i].mb;
    c[S->ncached[g]].use = 0;
    S->ncached[g]++;
    S->loads++;
}

void rs_wf_start(sim *S, int64_t i, const int32_t *pl)
{
    rjob *j = &S->j[i];
    int32_t *tk = S->take;
    int loaded = 0, on = cache_on(S, i);
    j->xf = rs_xfer(&S->p, i, S->home, pl);
    if (on)
        S->clock++;
    for (int32_t x = 0; x < S->nodes; x++) {
        if (pl[x] == 0)
            continue;
        choose_gpus(S, i, x, pl[x], tk);
        for (int32_t u = 0; u < pl[x]; u++) {
            int64_t g = (int64_t)x * S->G + tk[u];
            S->holder[g] = i;
            if (!on)
                continue;
            if (slot_of(S, g, j->mid) < 0) {
                load_on(S, i, g);
                loaded = 1;
            }
            S->cache[g * REF_MAX_SLOTS + slot_of(S, g, j->mid)].use = S->clock;
        }
    }
    j->ld = loaded ? ceil_div(j->mb, S->p.load_bw) : 0;
    S->starts++;
    S->hits += j->ld == 0;
}

void rs_wf_end(sim *S, int64_t i, int completed)
{
    if (completed)
        S->home[i] = rs_home(S->on + i * S->nodes, S->nodes);
    for (int64_t g = 0; g < (int64_t)S->nodes * S->G; g++)
        if (S->holder[g] == i)
            S->holder[g] = -1;
}

/* ---- metrics ---- */

int rs_wf_metrics(const sim *S, ref_metrics *m)
{
    int64_t *jct = (int64_t *)malloc(((size_t)S->n + 1) * sizeof *jct), nw = 0, sum = 0;
    char *rej = (char *)malloc((size_t)S->n + 1);
    if (!jct || !rej) {
        free(jct);
        free(rej);
        return -1;
    }
    ref_cluster c = {S->R, S->N, S->G};
    m->wf_rejected = rs_wf_rejects(&c, &S->p, S->models, S->jobs, S->n, rej);
    for (int64_t i = 0; i < S->n; i++) {
        int64_t wf = rs_task(&S->p, i)->wf, lowest = 1;
        for (int64_t u = 0; u < i; u++)
            lowest &= rs_task(&S->p, u)->wf != wf;
        if (wf < 0 || S->out[i].rejected || !lowest)
            continue; /* a workflow counts once, at its lowest row */
        int64_t lo = S->j[i].submit, hi = S->out[i].end;
        for (int64_t u = i + 1; u < S->n; u++)
            if (rs_task(&S->p, u)->wf == wf) {
                lo = S->j[u].submit < lo ? S->j[u].submit : lo;
                hi = S->out[u].end > hi ? S->out[u].end : hi;
            }
        jct[nw++] = hi - lo;
        sum += hi - lo;
    }
    qsort(jct, (size_t)nw, sizeof *jct, cmp_i64);
    m->wf_jct_mean = nw ? (double)sum / (double)nw : 0.0;
    m->wf_jct_p99 = nearest_rank(jct, nw, 99);
    m->cache_hit = S->p.gpu_mem > 0 && S->starts > 0 ? 1000 * S->hits / S->starts : 0;
    m->loads = S->loads;
    m->model_evicts = S->evicts;
    m->load_gpu_s = S->load_gs;
    m->xfer_gpu_s = S->xfer_gs;
    free(jct);
    free(rej);
    return 0;
}
