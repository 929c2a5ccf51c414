/* The engine (kernels/sim_step.h through tt_simulate): identical per-job
 * results to the naive reference simulator (tests/refsim) over thousands
 * of random small traces and configurations, the SPEC 7 invariants on its
 * own segment log (random runs and the real Philly trace), the mix, and
 * bad input. */
#include "testutil.h"

#include "simcase.h"

/* ---- random cases (the draws are in simcase.h) ---- */


enum { MAXJ = 60 };

typedef struct {
    ref_cluster rc;
    ref_params rp;
    ref_model md[4];
    int nm;
    ref_job jobs[MAXJ];
    int64_t n;
    int64_t w0c[4], w1c[4]; /* per-class timers, when rp.w0c points here */
    int64_t git[40];        /* Gittins samples, when rp.git points here */
} rcase;

/* SPEC 11's orders and parameters, from a stream of their own: thresholds
 * low enough that jobs of these cases cross them, the knob from off to
 * Tiresias's range, priority preemption mostly on, and a distribution of
 * the trace's or of a few samples. */
static void orders_case(rcase *k, uint64_t seed)
{
    uint64_t s = seed * 0x94d049bb133111ebULL + 4242;
    ref_params *p = &k->rp;
    p->order = (int)pick(&s, REF_DLAS, REF_FTF);
    p->nmlfq = (int)pick(&s, 1, 3);
    int64_t th = 0;
    for (int q = 0; q < p->nmlfq; q++)
        p->mlfq[q] = th += pick(&s, 1, 1500);
    p->promote = pick(&s, 0, 2) ? 0 : pick(&s, 1, 8000);
    p->prio_preempt = pick(&s, 0, 4) > 0;
    p->gittins_delta = pick(&s, 1, 3) < 3 ? pick(&s, 1, 2000) : 3250;
    if (pick(&s, 0, 1)) {
        p->ngit = pick(&s, 1, 40);
        for (int64_t i = 0; i < p->ngit; i++)
            k->git[i] = pick(&s, 0, 3) ? pick(&s, 1, 5000) : pick(&s, 0, 100000);
        p->git = k->git;
    }
}

static void make_case(rcase *k, uint64_t seed)
{
    static const int64_t ws[] = {0, 5, 30, 100, 400, REF_INF};
    static const int64_t thetas[] = {REF_INF, 1000, 1200, 1500, 2000, 2500};
    static const int64_t loads[] = {250, 500, 1000, 1000, 2000, 3000};
    static const int64_t gs[] = {1, 2, 4, 8};
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 12345;
    memset(k, 0, sizeof *k);
    ref_cluster c = {(int32_t)pick(&s, 1, 3), (int32_t)pick(&s, 1, 4), (int32_t)pick_of(&s, gs, 4)};
    k->rc = c;
    int32_t total = c.racks * c.nodes_per_rack * c.gpus_per_node;
    k->nm = (int)pick(&s, 1, 4);
    for (int i = 0; i < k->nm; i++) {
        k->md[i].slow_l1 = pick(&s, 0, 2) ? pick(&s, 1000, 1600) : 1000;
        k->md[i].slow_l2 = k->md[i].slow_l1 + pick(&s, 0, 1500);
    }
    ref_params *p = &k->rp;
    ref_params_default(p);
    p->order = (int)pick(&s, REF_FIFO, REF_LAS);
    p->w0 = pick_of(&s, ws, 6);
    p->w1 = pick_of(&s, ws, 6);
    p->theta = pick_of(&s, thetas, 6);
    p->restart = pick(&s, 0, 60);
    p->congestion = pick(&s, 0, 3) ? 0 : pick(&s, 0, 999);
    p->min_run = pick(&s, 0, 3) ? pick(&s, 0, 120) : 300;
    p->max_preempt = pick(&s, 0, 4);
    p->backfill = (int)pick(&s, 0, 1);
    p->load = pick_of(&s, loads, 6);
    k->n = pick(&s, 1, MAXJ);
    int64_t t = pick(&s, 0, 1000);
    for (int64_t i = 0; i < k->n; i++) {
        t += pick(&s, 0, 3) ? pick(&s, 0, 120) : 0; /* ties are common */
        k->jobs[i].submit = t;
        k->jobs[i].duration = pick(&s, 0, 9) ? pick(&s, 1, 600) : pick(&s, 0, 3);
        int64_t g = pick(&s, 0, 9) < 7 ? pick(&s, 1, c.gpus_per_node)
                                       : pick(&s, 1, total + (pick(&s, 0, 5) ? 0 : 4));
        k->jobs[i].gpus = (int32_t)g;
        k->jobs[i].model = (int32_t)pick(&s, 0, k->nm - 1);
    }
    /* a third of the cases give each class timers of its own (a stream of
     * their own, so the other draws stay as they were) */
    uint64_t s2 = seed * 0xbf58476d1ce4e5b9ULL + 777;
    if (pick(&s2, 0, 2) == 0) {
        for (int i = 0; i < k->nm; i++) {
            k->w0c[i] = pick(&s2, 0, 2) ? pick_of(&s2, ws, 6) : p->w0;
            k->w1c[i] = pick(&s2, 0, 2) ? pick_of(&s2, ws, 6) : p->w1;
        }
        p->w0c = k->w0c;
        p->w1c = k->w1c;
    }
}

/* Cases where evictions crowd: one to four GPUs, more jobs than GPUs
 * (mostly one GPU each), a sensitive model, min_run 0 in most, W0 small,
 * every order, priority preemption mostly on: one pass may then evict
 * more jobs than the cluster has GPUs (an evictor started in the pass is
 * evicted in it). From the same draws as make_case, then overridden. */
static void dense_case(rcase *k, uint64_t seed)
{
    static const ref_cluster cs[] = {{1, 1, 1}, {1, 1, 2}, {1, 2, 1}, {1, 1, 4}, {1, 2, 2}, {2, 1, 2}};
    static const int64_t ws[] = {0, 0, 0, 5, 30, REF_INF};
    uint64_t s = seed * 0xd1b54a32d192ed03ULL + 99;
    make_case(k, seed);
    orders_case(k, seed);
    ref_params *p = &k->rp;
    k->rc = cs[pick(&s, 0, 5)];
    int32_t total = k->rc.racks * k->rc.nodes_per_rack * k->rc.gpus_per_node;
    k->nm = 2;
    k->md[0] = (ref_model){1000, 1000, -1};
    k->md[1] = (ref_model){1000, 2000, -1}; /* sensitive at theta <= 2000 */
    p->w0c = p->w1c = NULL;
    p->order = (int)pick(&s, REF_FIFO, REF_FTF);
    p->w0 = pick_of(&s, ws, 6);
    p->w1 = pick_of(&s, ws, 6);
    p->theta = pick(&s, 0, 3) ? 1001 : REF_INF;
    p->min_run = pick(&s, 0, 3) ? 0 : pick(&s, 1, 20);
    p->max_preempt = pick(&s, 1, 4);
    p->restart = pick(&s, 0, 30);
    p->congestion = 0;
    p->backfill = pick(&s, 0, 5) > 0;
    p->load = 1000;
    p->prio_preempt = pick(&s, 0, 4) > 0;
    k->n = pick(&s, total + 1, MAXJ);
    int64_t t = pick(&s, 0, 50);
    for (int64_t i = 0; i < k->n; i++) {
        t += pick(&s, 0, 2) ? 0 : pick(&s, 1, 60);
        k->jobs[i].submit = t;
        k->jobs[i].duration = pick(&s, 0, 5) ? pick(&s, 1, 200) : pick(&s, 0, 2);
        k->jobs[i].gpus = (int32_t)(pick(&s, 0, 3) ? 1 : pick(&s, 1, total));
        k->jobs[i].model = (int32_t)pick(&s, 0, 1);
    }
}

/* The engine's segment log as the reference checker reads it. */
static void to_ref_log(const tts_seglog *L, int32_t nodes, ref_log *out)
{
    ref_log_free(out);
    out->nodes = nodes;
    out->nseg = out->cap = L->n;
    out->seg = (ref_segment *)calloc((size_t)L->n + 1, sizeof *out->seg);
    out->alloc = (int32_t *)calloc((size_t)(L->n * nodes) + 1, sizeof *out->alloc);
    cr_assert(out->seg && out->alloc);
    for (int64_t q = 0; q < L->n; q++) {
        const tts_segment *g = &L->seg[q];
        ref_segment *r = &out->seg[q];
        r->job = g->job;
        r->t0 = g->t0;
        r->t1 = g->t1;
        r->r = g->r;
        r->rr = g->r; /* these cases have no cache and no transfer: all restart */
        r->s = g->s;
        r->w_before = g->w_before;
        r->done = g->done;
        r->level = g->level;
        r->completed = g->completed;
        for (int64_t a = 0; a < g->alloc_n; a++)
            out->alloc[q * nodes + L->alloc[g->alloc_off + 2 * a]] =
                L->alloc[g->alloc_off + 2 * a + 1];
    }
}

static void to_ref_results(const tt_job_result *eo, const tt_metrics *em, int64_t n,
                           ref_job_result *ro, ref_metrics *rm)
{
    for (int64_t i = 0; i < n; i++) {
        ro[i].first_start = eo[i].rejected ? REF_NONE : eo[i].start;
        ro[i].end = eo[i].rejected ? REF_NONE : eo[i].end;
        ro[i].queue_total = eo[i].queue;
        ro[i].used_gpu_s = eo[i].gpu_s;
        ro[i].preemptions = eo[i].preemptions;
        ro[i].starts_l0 = eo[i].starts[0];
        ro[i].starts_l1 = eo[i].starts[1];
        ro[i].starts_l2 = eo[i].starts[2];
        ro[i].rejected = eo[i].rejected;
        ro[i].last_level = eo[i].level;
        ro[i].rho = eo[i].rho;
    }
    rm->makespan = em->makespan;
    rm->jct_mean = em->jct_mean;
    rm->jct_p50 = em->jct_p50;
    rm->jct_p90 = em->jct_p90;
    rm->jct_p99 = em->jct_p99;
    rm->queue_mean = em->queue_mean;
    rm->queue_p99 = em->queue_p99;
    rm->comm_gpu_s = em->comm_gpu_s;
    rm->comm_share = em->comm_share;
    rm->restart_gpu_s = em->restart_gpu_s;
    rm->preemptions = em->preemptions;
    rm->placed_l0 = em->placed_l0;
    rm->placed_l1 = em->placed_l1;
    rm->placed_l2 = em->placed_l2;
    rm->util = em->util;
    rm->rejected = em->rejected;
    rm->demotions = em->demotions;
    rm->promotions = em->promotions;
    rm->preempt_prio = em->preempt_prio;
    rm->ftf_mean = em->ftf_mean;
    rm->ftf_max = em->ftf_max;
    rm->ftf_unfair = em->ftf_unfair;
    rm->wf_jct_mean = em->wf_jct_mean;
    rm->wf_jct_p99 = em->wf_jct_p99;
    rm->wf_rejected = em->wf_rejected;
    rm->cache_hit = em->cache_hit;
    rm->loads = em->loads;
    rm->model_evicts = em->model_evicts;
    rm->load_gpu_s = em->load_gpu_s;
    rm->link_gpu_s = 0; /* SPEC 13's links are not in the engine yet: net=off's */
    rm->link_peak = 0;
    rm->xfer_gpu_s = em->xfer_gpu_s;
}

/* What a parity run reached, for the checks that the cases are not idle. */
typedef struct {
    int64_t pre, lv[3], rej, per_class, demotions, promotions, prio;
    int64_t crowded; /* cases with more evictions at one time than GPUs */
    int64_t moved;   /* with variant: cases the options change */
} reach;

/* Whether the engine's log has more evictions at one time than gpus. */
static int crowded(const tts_seglog *L, int64_t gpus)
{
    for (int64_t a = 0; a < L->n; a++) {
        int64_t c = 0;
        for (int64_t b = 0; b < L->n && !L->seg[a].completed; b++)
            c += !L->seg[b].completed && L->seg[b].t1 == L->seg[a].t1;
        if (c > gpus)
            return 1;
    }
    return 0;
}

/* options set in every case parity draws: 1 requeue=front (docs/model.md
 * 11, item 11), 2 prio_victims=refill (item 12), 3 both */
static int variant;

/* runs random cases seed 1 .. runs, under SPEC 11's orders when orders is
 * 1, crowded by dense_case when 2: the engine and the reference agree on
 * every job, and the engine's own log passes the reference's invariant
 * checker. A failure names its seed. With variant set, each case runs with
 * its options, and r->moved counts the cases where the reference's results
 * differ from the defaults'. */
static void parity(uint64_t runs, int orders, reach *r)
{
    static rcase k;
    static ref_job_result ro[MAXJ], ro2[MAXJ];
    ref_metrics rm, rm2;
    static tt_job_result eo[MAXJ];
    tt_metrics em;
    ref_log rlog = {0};
    static tts_segment seg[8 * MAXJ];
    static int32_t alloc[8 * MAXJ * 2 * 36];
    char why[256];
    int rc;
    memset(r, 0, sizeof *r);
    for (uint64_t seed = 1; seed <= runs; seed++) {
        if (orders == 2) {
            dense_case(&k, seed);
        } else {
            make_case(&k, seed);
            if (orders)
                orders_case(&k, seed);
        }
        if (variant) {
            cr_assert_eq(ref_simulate(&k.rc, &k.rp, k.md, k.nm, k.jobs, k.n, ro, &rm), 0);
            k.rp.requeue_front = variant & 1;
            k.rp.prio_refill = variant >> 1 & 1;
        }
        cr_assert_eq(ref_simulate(&k.rc, &k.rp, k.md, k.nm, k.jobs, k.n, ro2, &rm), 0,
                     "seed %llu", (unsigned long long)seed);
        for (int64_t i = 0; variant && i < k.n; i++)
            if (ro[i].end != ro2[i].end || ro[i].first_start != ro2[i].first_start) {
                r->moved++;
                break;
            }
        memcpy(ro, ro2, (size_t)k.n * sizeof *ro);
        tts_seglog L;
        memset(&L, 0, sizeof L);
        L.cap = 8 * MAXJ;
        L.seg = seg;
        L.alloc_cap = (int64_t)(sizeof alloc / sizeof alloc[0]);
        L.alloc = alloc;
        cr_assert_eq(engine_run(&k.rc, &k.rp, k.md, k.nm, k.jobs, k.n, eo, &em, &L), 0,
                     "seed %llu", (unsigned long long)seed);
        char label[32];
        snprintf(label, sizeof label, "seed %llu", (unsigned long long)seed);
        expect_engine_equal(label, k.n, ro, &rm, eo, &em);
        cr_assert(!L.overflow, "seed %llu: log overflow", (unsigned long long)seed);
        to_ref_log(&L, k.rc.racks * k.rc.nodes_per_rack, &rlog);
        to_ref_results(eo, &em, k.n, ro2, &rm2);
        rc = ref_check_invariants(&k.rc, &k.rp, k.md, k.nm, k.jobs, k.n, ro2, &rm2, &rlog, why,
                                  sizeof why);
        cr_assert_eq(rc, 0, "seed %llu: engine log: %s", (unsigned long long)seed, why);
        r->pre += em.preemptions;
        r->rej += em.rejected;
        r->per_class += k.rp.w0c != NULL;
        for (int l = 0; l < 3; l++)
            r->lv[l] += (&em.placed_l0)[l];
        r->demotions += em.demotions;
        r->promotions += em.promotions;
        r->prio += em.preempt_prio;
        r->crowded += crowded(&L, (int64_t)k.rc.racks * k.rc.nodes_per_rack * k.rc.gpus_per_node);
    }
    ref_log_free(&rlog);
}

/* 4,000 random traces and configurations under SPEC 6's orders. */
Test(sim, parity_with_reference)
{
    reach r;
    parity(4000, 0, &r);
    /* the cases reach preemption, rejection and every level */
    cr_expect_gt(r.pre, 200);
    cr_expect_gt(r.rej, 20);
    cr_expect_gt(r.lv[0], 1000);
    cr_expect_gt(r.lv[1], 200);
    cr_expect_gt(r.lv[2], 200);
    cr_expect_gt(r.per_class, 1000);
    cr_expect_eq(r.demotions + r.promotions + r.prio, 0);
}

/* 3,000 more under dlas, gittins and ftf, with their parameters drawn. */
Test(sim, parity_orders_with_reference)
{
    reach r;
    parity(3000, 1, &r);
    cr_expect_gt(r.demotions, 1000);
    cr_expect_gt(r.promotions, 100);
    cr_expect_gt(r.prio, 300);
    cr_expect_gt(r.lv[2], 200);
}

/* 3,000 random cases under dlas, gittins and ftf and 3,000 crowded ones,
 * with requeue=front: the engine and the reference agree, and the option
 * changes some jobs' times (in 469 of the random cases and 142 of the
 * crowded ones); at least 100 in all, for each variant below. */
static void parity_variant(int v, const char *what)
{
    reach r;
    variant = v;
    parity(3000, 1, &r);
    int64_t moved = r.moved;
    cr_expect_gt(r.prio, 300);
    parity(3000, 2, &r);
    variant = 0;
    cr_expect_gt(r.prio, 500);
    cr_log_info("%s: %lld and %lld cases changed", what, (long long)moved, (long long)r.moved);
    cr_expect_gt(moved + r.moved, 100);
}

Test(sim, parity_requeue_front_with_reference) { parity_variant(1, "requeue=front"); }

/* The same with prio_victims=refill (it changes 574 of the random cases
 * and 180 of the crowded ones), and with both options (737 and 276). */
Test(sim, parity_prio_refill_with_reference) { parity_variant(2, "prio_victims=refill"); }
Test(sim, parity_front_and_refill_with_reference)
{
    parity_variant(3, "requeue=front prio_victims=refill");
}

/* 3,000 crowded cases under every order (dense_case): a pass that evicts
 * more jobs than there are GPUs is reached, and in the debug build (make
 * sanitize) every array bound of the engine is checked as it runs. */
Test(sim, parity_crowded_with_reference)
{
    reach r;
    parity(3000, 2, &r);
    cr_expect_gt(r.pre, 3000);
    cr_expect_gt(r.prio, 500);
    cr_expect_gt(r.crowded, 20, "%lld crowded cases", (long long)r.crowded);
    cr_log_info("crowded: %lld evictions, %lld by priority, %lld cases crowded", (long long)r.pre, (long long)r.prio, (long long)r.crowded);
}

/* ---- the SPEC 7 invariants on the real Philly trace ---- */

typedef struct {
    int64_t t;
    int32_t node, delta;
} gpu_event;

static int cmp_event(const void *a, const void *b)
{
    const gpu_event *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->delta > y->delta) - (x->delta < y->delta); /* releases first */
}

/* Checks the invariants from the engine's log and results alone. */
static void check_run(const char *label, const tt_cluster *c, const tt_sim_jobs *j,
                      const tts_seglog *L, const tt_job_result *o, const tt_metrics *m)
{
    int32_t nodes = c->racks * c->nodes_per_rack, G = c->gpus_per_node;
    cr_assert(!L->overflow, "%s: log too small", label);
    /* no GPU is ever given twice: per node, releases before acquisitions at
     * one time; a segment that ends when it starts holds no GPU-time and is
     * left out (its order within the instant is not in the log) */
    gpu_event *ev = malloc((size_t)(L->alloc_n + 2) * sizeof *ev);
    cr_assert(ev);
    int64_t ne = 0;
    for (int64_t q = 0; q < L->n; q++)
        for (int64_t a = 0; a < L->seg[q].alloc_n; a++) {
            int32_t x = L->alloc[L->seg[q].alloc_off + 2 * a];
            int32_t g = L->alloc[L->seg[q].alloc_off + 2 * a + 1];
            cr_assert(x >= 0 && x < nodes && g >= 1 && g <= G);
            if (L->seg[q].t1 == L->seg[q].t0)
                continue;
            ev[ne++] = (gpu_event){L->seg[q].t0, x, g};
            ev[ne++] = (gpu_event){L->seg[q].t1, x, -g};
        }
    qsort(ev, (size_t)ne, sizeof *ev, cmp_event);
    int64_t held = 0;
    for (int64_t e = 0; e < ne; e++) {
        if (e == 0 || ev[e].node != ev[e - 1].node)
            held = 0;
        held += ev[e].delta;
        cr_assert(held >= 0 && held <= G, "%s: node %d holds %lld GPUs at %lld", label,
                  ev[e].node, (long long)held, (long long)ev[e].t);
    }
    free(ev);
    /* per job: one end, the last segment; work conserved; JCT >= duration;
     * GPU-seconds add up */
    int64_t *ends = calloc((size_t)j->n + 1, sizeof *ends);
    int64_t *done = calloc((size_t)j->n + 1, sizeof *done);
    int64_t *gs = calloc((size_t)j->n + 1, sizeof *gs);
    int64_t *last = calloc((size_t)j->n + 1, sizeof *last);
    cr_assert(ends && done && gs && last);
    int64_t used = 0;
    for (int64_t q = 0; q < L->n; q++) {
        const tts_segment *g = &L->seg[q];
        int64_t k = j->gpus[g->job];
        cr_assert(g->t0 >= last[g->job] && g->t1 >= g->t0, "%s: job %lld overlaps itself", label,
                  (long long)g->job);
        cr_assert(ends[g->job] == 0, "%s: job %lld runs after its end", label, (long long)g->job);
        last[g->job] = g->t1;
        ends[g->job] += g->completed;
        done[g->job] += g->done;
        gs[g->job] += k * (g->t1 - g->t0);
        used += k * (g->t1 - g->t0);
    }
    int64_t sum_gs = 0;
    for (int64_t i = 0; i < j->n; i++) {
        if (o[i].rejected) {
            cr_assert(ends[i] == 0 && gs[i] == 0);
            continue;
        }
        cr_assert(ends[i] == 1 && o[i].end == last[i], "%s: job %lld ends %lld times", label,
                  (long long)i, (long long)ends[i]);
        cr_assert(done[i] == j->duration[i] * 1000, "%s: job %lld did %lld of %lld", label,
                  (long long)i, (long long)done[i], (long long)j->duration[i] * 1000);
        cr_assert(o[i].end - o[i].submit >= j->duration[i], "%s: job %lld JCT < duration",
                  label, (long long)i);
        cr_assert(gs[i] == o[i].gpu_s);
        sum_gs += o[i].gpu_s;
    }
    cr_assert(sum_gs == used, "%s: used GPU-seconds %lld, per job %lld", label, (long long)used,
              (long long)sum_gs);
    double cap = (double)nodes * G * (double)m->makespan;
    cr_assert(cap > 0 && m->util * cap > 0.999999 * (double)used &&
              m->util * cap < 1.000001 * (double)used);
    free(ends);
    free(done);
    free(gs);
    free(last);
}

static void philly_jobs(tt_trace **t, tt_models **m, tt_sim_jobs *j)
{
    const char *in[] = {shared_path("philly/pollux_philly.csv")};
    tt_ctx *ctx = tt_ctx_create();
    *t = ingest_files(ctx, "philly-csv", in, 1);
    cr_assert_not_null(*t, "%s", tt_errmsg(ctx));
    if (!*m)
        cr_assert_eq(tt_models_default(ctx, m), 0);
    cr_assert_eq(tt_sim_jobs_from_trace(ctx, *t, *m, j), 0, "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

static void run_checked(const char *label, const tt_cluster *c, const tt_params *p,
                        const tt_models *m, const tt_sim_jobs *j, tt_job_result *o,
                        tt_metrics *mt)
{
    tts_seglog L;
    memset(&L, 0, sizeof L);
    L.cap = j->n * (1 + (p->theta == TT_INF ? 0 : p->max_preempt)) + 16;
    L.alloc_cap = 4 * L.cap + 2 * (int64_t)c->racks * c->nodes_per_rack;
    L.seg = malloc((size_t)L.cap * sizeof *L.seg);
    L.alloc = malloc((size_t)L.alloc_cap * sizeof *L.alloc);
    cr_assert(L.seg && L.alloc);
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_simulate_log(ctx, c, p, m, j, o, mt, NULL, &L), 0, "%s: %s", label,
                 tt_errmsg(ctx));
    check_run(label, c, j, &L, o, mt);
    tt_ctx_free(ctx);
    free(L.seg);
    free(L.alloc);
}

Test(sim, philly_invariants)
{
    if (!have_shared("philly/pollux_philly.csv"))
        cr_skip("no shared Philly CSV");
    tt_trace *t = NULL;
    tt_models *m = NULL;
    tt_sim_jobs j;
    philly_jobs(&t, &m, &j);
    tt_cluster c = {4, 32, 8};
    tt_job_result *o = calloc((size_t)j.n, sizeof *o);
    cr_assert(o);
    static const char *const cfg[][2] = {
        {"pack", ""}, {"no-wait", "w0=0 w1=0"}, {"delay", "w0=600 w1=3600 theta=1500 load=3000"},
        {"srtf", "order=srtf w0=60 w1=600 theta=1100 min_run=0 max_preempt=5 load=5000"},
        {"las", "order=las w0=0 w1=0 theta=1100 load=5000"},
    };
    for (size_t q = 0; q < sizeof cfg / sizeof cfg[0]; q++) {
        tt_params p;
        tt_params_default(&p);
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cfg[q][1]);
        for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
            char *eq = strchr(tok, '=');
            *eq = '\0';
            cr_assert_eq(tt_params_set(NULL, &p, m, tok, eq + 1), 0);
        }
        tt_metrics mt;
        run_checked(cfg[q][0], &c, &p, m, &j, o, &mt);
        cr_expect_eq(mt.rejected, 0);
        if (p.theta != TT_INF)
            cr_expect_gt(mt.preemptions, 100, "%s: the case exercises preemption", cfg[q][0]);
    }
    free(o);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
}

/* With every slowdown 1000 and no preemption, placement does not change any
 * job's running time: end - start = duration for every job, whatever the
 * timers, at a load that queues. */
Test(sim, philly_flat_slowdowns_keep_run_times)
{
    if (!have_shared("philly/pollux_philly.csv"))
        cr_skip("no shared Philly CSV");
    const char *names[] = {"flat"};
    int64_t one[] = {1000};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 1, names, one, one, &m), 0);
    tt_trace *t = NULL;
    tt_sim_jobs j;
    philly_jobs(&t, &m, &j);
    tt_cluster c = {4, 32, 8};
    tt_job_result *o = calloc((size_t)j.n, sizeof *o);
    cr_assert(o);
    const int64_t w0s[] = {TT_INF, 0, 600};
    for (int q = 0; q < 3; q++) {
        tt_params p;
        tt_params_default(&p);
        p.w0 = w0s[q];
        p.w1 = q == 2 ? 1800 : 0;
        p.load = 3000;
        tt_metrics mt;
        run_checked("flat", &c, &p, m, &j, o, &mt);
        for (int64_t i = 0; i < j.n; i++)
            cr_assert(o[i].end - o[i].start == j.duration[i], "w0 %lld: job %lld ran %lld s of %lld",
                      (long long)p.w0, (long long)i, (long long)(o[i].end - o[i].start),
                      (long long)j.duration[i]);
        cr_expect_eq(mt.comm_gpu_s, 0.0);
        cr_expect_gt(mt.queue_mean, 0.0, "load 3000 queues");
    }
    free(o);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
}
