/* The canonical form of a configuration (tt/canon.h, docs/model.md 8.1):
 * what a trace lets each parameter change, and each parameter replaced by
 * its effective value; and the set of forms that sweeps and the tuner
 * look configurations up in (sim/canonset.h). Each rule below is proved
 * in docs/model.md from the engine's code (kernels/sim_step*.h); a rule
 * that is not exact would silently merge two different simulations, so
 * only exact ones are here. */
#include "tt/canon.h"

#include <stdlib.h>
#include <string.h>

#include "sim/canonset.h"

int tt_canon_init(tt_ctx *ctx, tt_canon *k, const tt_cluster *c, const tt_models *m,
                  const tt_sim_jobs *j)
{
    memset(k, 0, sizeof *k);
    int nc = tt_models_count(m);
    if (nc < 1 || nc > TT_MAX_CLASSES)
        return tt_err(ctx, TT_EINVAL, "a model table of %d classes: 1 .. %d", nc,
                      TT_MAX_CLASSES);
    k->nclasses = nc;
    for (int q = 0; q < nc; q++) {
        k->slow_l1[q] = tt_models_slow_l1(m, q);
        k->slow_l2[q] = tt_models_slow_l2(m, q);
    }
    int64_t rack = (int64_t)c->nodes_per_rack * c->gpus_per_node;
    int64_t all = rack * c->racks;
    k->one_submit = 1;
    /* every job counts, rejected ones too: a rejected job's class is part
     * of its per-job result, and so is the seed's pick for it */
    for (int64_t i = 0; i < j->n; i++) {
        int32_t cls = j->cls[i];
        if (cls < -1 || cls >= nc)
            return tt_err(ctx, TT_EINVAL, "job %lld: model class %d not in the table",
                          (long long)i, cls);
        if (cls < 0)
            k->unknown = 1;
        else
            k->known |= (uint64_t)1 << cls;
        if (j->gpus[i] > rack && j->gpus[i] <= all)
            k->beyond_rack = 1;
        if (j->submit[i] != j->submit[0])
            k->one_submit = 0;
        if (j->wf && j->out_mb && j->wf[i] >= 0 && j->out_mb[i] > 0)
            k->xfers = 1; /* a task with an output: a child may read it */
    }
    return 0;
}

/* s_eff of docs/model.md section 4, as the engine computes it. */
static int64_t slow_eff(int64_t s, int64_t c) { return 1000 + (s - 1000) * 1000 / (1000 - c); }

/* 1 when congestion a gives every class of occ the effective L1 and L2
 * slowdowns that congestion b gives. */
static int same_slowdowns(const tt_canon *k, uint64_t occ, int64_t a, int64_t b)
{
    for (int c = 0; c < k->nclasses; c++)
        if (occ >> c & 1 && (slow_eff(k->slow_l1[c], a) != slow_eff(k->slow_l1[c], b) ||
                             slow_eff(k->slow_l2[c], a) != slow_eff(k->slow_l2[c], b)))
            return 0;
    return 1;
}

/* The least congestion with cong's effective slowdowns. s_eff never falls
 * as congestion grows, so the congestions that share them are an interval
 * ending at cong: a binary search finds its start. */
static int64_t least_congestion(const tt_canon *k, uint64_t occ, int64_t cong)
{
    int64_t lo = 0, hi = cong;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (same_slowdowns(k, occ, mid, cong))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Seed and mix: they pick the class of a job whose model is unknown, and
 * nothing else. Returns the classes that occur. */
static uint64_t canon_mix(const tt_canon *k, const tt_params *p, tt_params *q)
{
    if (!k->unknown)
        return k->known; /* q keeps the default seed and mix */
    uint64_t pos = 0;
    int npos = 0;
    for (int c = 0; c < k->nclasses; c++)
        if (p->mix_set ? p->mix[c] > 0 : 1) {
            pos |= (uint64_t)1 << c;
            npos++;
        }
    q->mix_set = 1;
    for (int c = 0; c < TT_MAX_CLASSES; c++)
        q->mix[c] = c < k->nclasses && pos >> c & 1 ? (npos == 1 ? 1 : p->mix_set ? p->mix[c] : 1)
                                                     : 0;
    /* one class of weight > 0: every draw picks it, whatever the seed */
    q->seed = npos == 1 ? 1 : p->seed;
    return k->known | pos;
}

/* The timers: each occurring class's effective pair (its own or the
 * global one), w1 = inf where w0 = inf (never read then); one pair for
 * all when the occurring classes agree, else each its own and the unused
 * global pair inf. Returns 1 when some occurring class has a finite w0. */
static int canon_timers(const tt_canon *k, uint64_t occ, const tt_params *p, tt_params *q)
{
    int64_t w0[TT_MAX_CLASSES], w1[TT_MAX_CLASSES];
    int same = 1, first = -1, finite = 0;
    for (int c = 0; c < k->nclasses; c++) {
        if (!(occ >> c & 1))
            continue;
        w0[c] = p->class_w0[c] == TT_TIMER_GLOBAL ? p->w0 : p->class_w0[c];
        w1[c] = p->class_w1[c] == TT_TIMER_GLOBAL ? p->w1 : p->class_w1[c];
        if (w0[c] == TT_INF)
            w1[c] = TT_INF;
        finite |= w0[c] != TT_INF;
        if (first < 0)
            first = c;
        else
            same &= w0[c] == w0[first] && w1[c] == w1[first];
    }
    q->w0 = q->w1 = TT_INF;
    for (int c = 0; c < TT_MAX_CLASSES; c++)
        q->class_w0[c] = q->class_w1[c] = TT_TIMER_GLOBAL;
    if (first < 0)
        return 0; /* no job: nothing waits */
    if (same) {
        q->w0 = w0[first];
        q->w1 = w1[first];
        return finite;
    }
    for (int c = 0; c < k->nclasses; c++)
        if (occ >> c & 1) {
            q->class_w0[c] = w0[c];
            q->class_w1[c] = w1[c];
        }
    return finite;
}

void tt_canon_form(const tt_canon *k, const tt_params *p, tt_params *out)
{
    tt_params q;
    tt_params_default(&q);
    q.order = p->order;
    q.backfill = p->backfill;
    q.load = k->one_submit ? 1000 : p->load;
    uint64_t occ = canon_mix(k, p, &q);
    int finite = canon_timers(k, occ, p, &q);
    /* eviction needs a sensitive job that has waited its w0 (a finite one:
     * an evicted job is never sensitive) and a victim: a job of a class
     * that is not sensitive, with max_preempt > 0; under dlas and gittins
     * with priority preemption a victim alone (max_preempt > 0): a
     * priority victim may be sensitive, and waits as one that has waited */
    int64_t theta = TT_INF;
    int evicts = 0, victims = 0, mlfq = p->order == TT_ORDER_DLAS || p->order == TT_ORDER_GITTINS;
    int prio = mlfq && p->prio_preempt && p->max_preempt > 0;
    for (int c = 0; c < k->nclasses; c++) {
        if (!(occ >> c & 1))
            continue;
        if (p->theta == TT_INF || k->slow_l2[c] < p->theta) {
            victims = 1;
            continue;
        }
        if (k->slow_l2[c] < theta)
            theta = k->slow_l2[c];
        evicts |= (q.class_w0[c] == TT_TIMER_GLOBAL ? q.w0 : q.class_w0[c]) != TT_INF;
    }
    int evictions = (evicts && victims && p->max_preempt > 0) || prio;
    if (evictions) {
        q.theta = theta;
        q.restart = p->restart;
        q.min_run = p->min_run;
        q.max_preempt = p->max_preempt;
    }
    /* SPEC 11's parameters, under the orders that read them */
    if (mlfq) {
        q.nmlfq = p->nmlfq;
        memcpy(q.mlfq, p->mlfq, sizeof q.mlfq);
        q.promote = p->promote;
        q.prio_preempt = prio; /* with max_preempt = 0 no job is a victim */
        /* where an evicted job waits: only where a job may be evicted */
        if (evictions)
            q.requeue = p->requeue;
        /* step 7's victims: only with priority preemption */
        if (prio)
            q.prio_victims = p->prio_victims;
    }
    if (p->order == TT_ORDER_GITTINS) {
        q.gittins_delta = p->gittins_delta;
        memcpy(q.gittins_dist, p->gittins_dist, sizeof q.gittins_dist);
    }
    /* above L0 only after a w0, after an eviction (which needs a finite
     * w0, or is a priority eviction), or for a job larger than a rack */
    q.congestion = finite || prio || k->beyond_rack ? least_congestion(k, occ, p->congestion) : 0;
    /* workflows and GPU memory (docs/model.md section 13): gpu_mem always
     * (it rejects, loads and counts hits); the cache's own parameters only
     * with it on; xfer_bw only when a task may read an output; cache_place
     * only when L or X may differ between nodes (else affinity's least
     * (0, free GPUs, index) is step 1's best fit); w_warm always (it holds
     * multi-node jobs even when every node is warm) */
    q.gpu_mem = p->gpu_mem;
    if (p->gpu_mem > 0) {
        q.cache_slots = p->cache_slots;
        q.load_bw = p->load_bw;
        q.evict = p->evict;
    }
    if (k->xfers)
        q.xfer_bw = p->xfer_bw;
    if (p->gpu_mem > 0 || k->xfers)
        q.cache_place = p->cache_place;
    q.w_warm = p->w_warm;
    /* elastic jobs (docs/model.md 8.1, section 10): with el_up = el_down =
     * 0 no elastic parameter is read (q keeps their defaults); otherwise
     * the rules above do not hold (a resize pays restart under term, sizes
     * change levels and the seed draws who is elastic), so the form is the
     * configuration itself, but for resize_cost, never read under term */
    if (p->el_up > 0 || p->el_down > 0) {
        q = *p;
        if (q.resize == TT_RESIZE_TERM) {
            tt_params d;
            tt_params_default(&d);
            q.resize_cost = d.resize_cost;
        }
    }
    *out = q;
}

/* The fields of a form, in one array for the comparison and the hash (a
 * struct's padding is not compared); gittins_dist as a hash of its text,
 * the text itself compared apart. */
#define FORM_WORDS (12 + 3 * TT_MAX_CLASSES + 5 + TT_MAX_MLFQ + 6 + 7)

static uint64_t text_hash(const char *t)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 0x100000001b3ULL;
    return h;
}

static void form_words(const tt_params *q, uint64_t *w)
{
    w[0] = (uint64_t)q->order;
    w[1] = (uint64_t)q->backfill;
    w[2] = (uint64_t)q->w0;
    w[3] = (uint64_t)q->w1;
    w[4] = (uint64_t)q->theta;
    w[5] = (uint64_t)q->restart;
    w[6] = (uint64_t)q->congestion;
    w[7] = (uint64_t)q->min_run;
    w[8] = (uint64_t)q->max_preempt;
    w[9] = (uint64_t)q->load;
    w[10] = q->seed;
    w[11] = (uint64_t)q->mix_set;
    for (int c = 0; c < TT_MAX_CLASSES; c++) {
        w[12 + c] = q->mix[c];
        w[12 + TT_MAX_CLASSES + c] = (uint64_t)q->class_w0[c];
        w[12 + 2 * TT_MAX_CLASSES + c] = (uint64_t)q->class_w1[c];
    }
    uint64_t *x = w + 12 + 3 * TT_MAX_CLASSES;
    x[0] = (uint64_t)q->nmlfq;
    x[1] = (uint64_t)q->promote;
    /* requeue and prio_victims beside prio_preempt, so that the default
     * keeps every hash */
    x[2] = (uint64_t)q->prio_preempt | (uint64_t)q->requeue << 8 |
           (uint64_t)q->prio_victims << 16;
    x[3] = (uint64_t)q->gittins_delta;
    x[4] = text_hash(q->gittins_dist);
    for (int m = 0; m < TT_MAX_MLFQ; m++)
        x[5 + m] = (uint64_t)(m < q->nmlfq ? q->mlfq[m] : 0);
    uint64_t *e = x + 5 + TT_MAX_MLFQ;
    e[0] = (uint64_t)q->el_up;
    e[1] = (uint64_t)q->el_down;
    e[2] = (uint64_t)q->el_frac;
    e[3] = (uint64_t)q->resize;
    e[4] = (uint64_t)q->resize_cost;
    e[5] = (uint64_t)q->resize_gap;
    uint64_t *g = e + 6;
    g[0] = (uint64_t)q->gpu_mem;
    g[1] = (uint64_t)q->cache_slots;
    g[2] = (uint64_t)q->load_bw;
    g[3] = (uint64_t)q->xfer_bw;
    g[4] = (uint64_t)q->w_warm;
    g[5] = (uint64_t)q->evict;
    g[6] = (uint64_t)q->cache_place;
}

int tt_canon_equal(const tt_params *a, const tt_params *b)
{
    uint64_t wa[FORM_WORDS], wb[FORM_WORDS];
    form_words(a, wa);
    form_words(b, wb);
    return memcmp(wa, wb, sizeof wa) == 0 && strcmp(a->gittins_dist, b->gittins_dist) == 0;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t tt_canon_hash(const tt_params *q)
{
    uint64_t w[FORM_WORDS], h = 0x9e3779b97f4a7c15ULL;
    form_words(q, w);
    for (int i = 0; i < FORM_WORDS; i++)
        h = mix64(h ^ w[i]) + (uint64_t)i;
    return h;
}

/* ---- the set of forms ---- */

void tt_cset_init(tt_cset *s, tt_cset_form_fn form, void *arg)
{
    memset(s, 0, sizeof *s);
    s->form = form;
    s->arg = arg;
}

void tt_cset_free(tt_cset *s)
{
    free(s->id);
    free(s->hash);
    s->id = NULL;
    s->hash = NULL;
    s->nslots = s->n = 0;
}

void tt_cset_clear(tt_cset *s)
{
    for (int64_t i = 0; i < s->nslots; i++)
        s->id[i] = -1;
    s->n = 0;
}

int64_t tt_cset_find(const tt_cset *s, const tt_params *q, uint64_t h)
{
    if (s->n == 0)
        return -1;
    for (uint64_t i = h;; i++) {
        int64_t at = (int64_t)(i & (uint64_t)(s->nslots - 1)), id = s->id[at];
        if (id < 0)
            return -1;
        if (s->hash[at] != h)
            continue;
        tt_params scratch;
        const tt_params *f = s->form(s->arg, id, &scratch);
        if (f && tt_canon_equal(f, q))
            return id;
    }
}

static void put(tt_cset *s, int64_t id, uint64_t h)
{
    uint64_t i = h;
    while (s->id[i & (uint64_t)(s->nslots - 1)] >= 0)
        i++;
    s->id[i & (uint64_t)(s->nslots - 1)] = id;
    s->hash[i & (uint64_t)(s->nslots - 1)] = h;
}

int tt_cset_add(tt_ctx *ctx, tt_cset *s, int64_t id, uint64_t h)
{
    if (2 * (s->n + 1) > s->nslots) { /* at most half full */
        int64_t ns = s->nslots ? 2 * s->nslots : 64, old = s->nslots;
        int64_t *ids = (int64_t *)malloc((size_t)ns * sizeof *ids);
        uint64_t *hs = (uint64_t *)malloc((size_t)ns * sizeof *hs);
        if (!ids || !hs) {
            free(ids);
            free(hs);
            return tt_err(ctx, TT_ENOMEM, "out of memory for %lld distinct configurations",
                          (long long)s->n + 1);
        }
        int64_t *oi = s->id;
        uint64_t *oh = s->hash;
        s->id = ids;
        s->hash = hs;
        s->nslots = ns;
        for (int64_t i = 0; i < ns; i++)
            ids[i] = -1;
        for (int64_t i = 0; i < old; i++)
            if (oi[i] >= 0)
                put(s, oi[i], oh[i]);
        free(oi);
        free(oh);
    }
    put(s, id, h);
    s->n++;
    return 0;
}
