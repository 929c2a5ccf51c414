/* tt/canon.h on workflow traces and at the boundary sizes (docs/model.md
 * 8.1 and 13 item 14): the rules for the cache's and the transfers'
 * parameters, and for a job that fits the cluster but not a rack, each
 * at the edge where it changes (outputs of workflow 0 only, a job of
 * exactly a rack, of exactly the cluster), worked out on hand-made traces;
 * then random workflow traces with each of those parameters redrawn on
 * its own, every pair of configurations with one form simulated: the
 * per-job results and metrics must agree in every bit. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "randcase.h"
#include "testutil.h"
#include "tt/canon.h"

/* ---- the rules at their edges, on hand-made traces ---- */

/* One class, L1 1200 and L2 1500. */
static tt_models *one_class(void)
{
    static const char *const names[] = {"a"};
    static const int64_t l1[] = {1200}, l2[] = {1500};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 1, names, l1, l2, &m), 0);
    return m;
}

/* Four jobs of gpus GPUs, the last one gpus_last, on cluster c: the
 * context of the rules. wf and out_mb, when given, are the workflow
 * columns (no parents: the rule looks at outputs only). */
static tt_canon canon_of(tt_cluster c, int32_t gpus, int32_t gpus_last, const int64_t *wf,
                         const int32_t *out_mb)
{
    static int64_t submit[4], duration[4] = {100, 100, 100, 100}, dep_off[5];
    static int32_t g[4], cls[4];
    for (int i = 0; i < 4; i++) {
        submit[i] = 10 * i;
        g[i] = i == 3 ? gpus_last : gpus;
    }
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    j.n = 4;
    j.submit = submit;
    j.duration = duration;
    j.gpus = g;
    j.cls = cls;
    if (wf) {
        j.wf = (int64_t *)wf;
        j.dep_off = dep_off;
        j.out_mb = (int32_t *)out_mb;
    }
    tt_models *m = one_class();
    tt_canon k;
    cr_assert_eq(tt_canon_init(NULL, &k, &c, m, &j), 0);
    tt_models_free(m);
    return k;
}

static int same(const tt_canon *k, const tt_params *a, const tt_params *b)
{
    tt_params fa, fb;
    tt_canon_form(k, a, &fa);
    tt_canon_form(k, b, &fb);
    return tt_canon_equal(&fa, &fb);
}

/* Congestion counts where a job may leave L0: under w0 = inf only a job
 * that fits the cluster but not one rack does. On 2x2x4 (a rack of 8, a
 * cluster of 16): jobs of 8 GPUs, exactly a rack, stay at L0, a job of
 * 16, exactly the cluster, spreads over both racks, one of 17 is
 * rejected. On 1x2x4 a job of 8 is a rack and the cluster both. */
Test(canon_wf, beyond_a_rack_at_the_edges)
{
    tt_params p, q;
    tt_params_default(&p);
    q = p;
    q.congestion = 500;
    tt_cluster two = {2, 2, 4}, one = {1, 2, 4};
    tt_canon k = canon_of(two, 8, 8, NULL, NULL);
    cr_expect(same(&k, &p, &q), "jobs of exactly a rack: every job at L0");
    k = canon_of(two, 8, 16, NULL, NULL);
    cr_expect(!same(&k, &p, &q), "a job of exactly the cluster spreads");
    k = canon_of(two, 8, 9, NULL, NULL);
    cr_expect(!same(&k, &p, &q), "a job of a rack and one GPU spreads");
    k = canon_of(two, 8, 17, NULL, NULL);
    cr_expect(same(&k, &p, &q), "larger than the cluster: rejected");
    k = canon_of(one, 4, 8, NULL, NULL);
    cr_expect(same(&k, &p, &q), "a rack is the cluster: L0");
}

/* xfer_bw counts when some task has an output (a child may read it), and
 * cache_place with it, the cache off: workflow 0's tasks are tasks like
 * any other; a plain job's output is read by none. */
Test(canon_wf, outputs_of_workflow_zero)
{
    static const int64_t wf0[] = {0, 0, -1, -1}, plain[] = {-1, -1, -1, -1};
    static const int32_t out[] = {10, 0, 10, 0};
    tt_cluster c = {1, 2, 4};
    tt_params p, bw, place;
    tt_params_default(&p);
    bw = place = p;
    bw.xfer_bw = 3;
    place.cache_place = TT_CACHE_PLACE_AFFINITY;
    tt_canon k = canon_of(c, 1, 1, wf0, out);
    cr_expect(!same(&k, &p, &bw), "an output of workflow 0: xfer_bw counts");
    cr_expect(!same(&k, &p, &place), "an output of workflow 0: cache_place counts");
    k = canon_of(c, 1, 1, plain, out);
    cr_expect(same(&k, &p, &bw), "outputs of plain jobs only: no transfer");
    cr_expect(same(&k, &p, &place), "nothing differs between nodes: affinity is best fit");
}

/* The cache's parameters with the cache on, and w_warm whatever the
 * cache and the outputs (it holds multi-node jobs in any case). */
Test(canon_wf, cache_parameters)
{
    tt_cluster c = {1, 2, 4};
    tt_canon k = canon_of(c, 1, 1, NULL, NULL);
    tt_params off, on;
    tt_params_default(&off);
    on = off;
    on.gpu_mem = 1000;
    cr_expect(!same(&k, &off, &on), "gpu_mem always counts");
    static const char *const names[] = {"cache_slots", "load_bw", "evict", "cache_place"};
    for (int x = 0; x < 4; x++) {
        tt_params a = off, b = on;
        a.cache_slots = b.cache_slots = x == 0 ? 2 : 4;
        a.load_bw = b.load_bw = x == 1 ? 7 : 2000;
        a.evict = b.evict = x == 2 ? TT_EVICT_DEMAND : TT_EVICT_LRU;
        a.cache_place = b.cache_place = x == 3 ? TT_CACHE_PLACE_AFFINITY : TT_CACHE_PLACE_OFF;
        cr_expect(same(&k, &off, &a), "%s without the cache", names[x]);
        cr_expect(!same(&k, &on, &b), "%s with the cache", names[x]);
    }
    tt_params w = off;
    w.w_warm = 5;
    cr_expect(!same(&k, &off, &w), "w_warm with the cache off and no output");
}

/* ---- random workflow traces: one form, one simulation ---- */

/* The parameters a kind redraws. */
enum { W_GPU_MEM, W_SLOTS, W_LOAD_BW, W_XFER_BW, W_EVICT, W_PLACE, W_WARM, W_CONG, W_THETA,
       W_NKINDS };
static const char *const wkind_names[W_NKINDS] = {"gpu_mem", "cache_slots", "load_bw",
                                                  "xfer_bw", "evict",       "cache_place",
                                                  "w_warm",  "congestion",  "theta"};

static void wredraw(uint64_t *s, const rcase *k, int kind, tt_params *p)
{
    switch (kind) {
    case W_GPU_MEM: p->gpu_mem = rc_pick(s, 0, 2) ? rc_pick(s, 300, 1500) : 0; break;
    case W_SLOTS: p->cache_slots = (int32_t)rc_pick(s, 1, 8); break;
    case W_LOAD_BW: p->load_bw = rc_pick(s, 0, 3) ? rc_pick(s, 1, 100) : 100000; break;
    case W_XFER_BW: p->xfer_bw = rc_pick(s, 0, 3) ? rc_pick(s, 1, 100) : 100000; break;
    case W_EVICT: p->evict = !p->evict; break;
    case W_PLACE: p->cache_place = !p->cache_place; break;
    case W_WARM: p->w_warm = rc_pick(s, 0, 2) ? rc_pick(s, 1, 600) : 0; break;
    case W_CONG: p->congestion = rc_pick(s, 0, 1) ? rc_pick(s, 0, 20) : rc_pick(s, 0, 999); break;
    default:
        p->theta = rc_pick(s, 0, 1) ? tt_models_slow_l2(k->m, 0) : rc_pick(s, 0, 1) ? TT_INF
                                                                                     : 1000;
    }
}

/* Traces of five shapes, each where a rule changes: as drawn; no output
 * (xfer_bw and, with the cache off, cache_place unread); outputs in
 * workflow 0 only; no job beyond a rack but some of exactly a rack; no
 * job beyond a rack but one of exactly the cluster. */
static void wshape(rcase *k, wfcols *w, int v)
{
    int32_t rack = k->c.nodes_per_rack * k->c.gpus_per_node, all = rack * k->c.racks;
    for (int64_t i = 0; i < k->j.n; i++) {
        if (v == 1 || (v == 2 && w->wf[i] != 0))
            w->out_mb[i] = 0;
        if (v >= 3 && k->j.gpus[i] > rack && k->j.gpus[i] <= all)
            k->j.gpus[i] = i % 3 ? rack : 1; /* some of exactly a rack */
    }
    if (v == 4)
        k->j.gpus[k->j.n / 2] = all;
}

static void simulate(const rcase *k, const tt_params *p, tt_job_result *out, tt_metrics *m)
{
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_simulate(ctx, &k->c, p, k->m, &k->j, out, m, NULL), 0, "%s",
                 tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

/* A configuration's parameters: the cache on in half of them, off in the
 * other half with its parameters drawn all the same; SPEC 11's orders in
 * a quarter; no timer at all in a third (no job leaves L0 but one larger
 * than a rack). */
static void wparams(uint64_t *s, int t, tt_params *p)
{
    rcase_params(s, p);
    rcase_cache(s, p);
    p->cache_slots = (int32_t)rc_pick(s, 1, 8);
    if (t % 2)
        p->gpu_mem = 0;
    if (t % 4 == 1)
        rcase_orders(s, p);
    if (t % 3 == 2) {
        p->w0 = p->w1 = TT_INF;
        for (int c = 0; c < TT_MAX_CLASSES; c++)
            p->class_w0[c] = p->class_w1[c] = TT_TIMER_GLOBAL;
        if (rc_pick(s, 0, 1))
            p->congestion = rc_pick(s, 1, 999);
    }
}

/* Every configuration simulates as its form does, and two with one form
 * alike; each cache parameter and congestion must have merged somewhere
 * (gpu_mem and w_warm always count: only kept apart) and have been kept
 * apart somewhere, each shape simulated, or the test proves little. */
Test(canon_wf, one_form_one_simulation)
{
    int64_t merged[W_NKINDS] = {0}, apart[W_NKINDS] = {0}, pairs[5] = {0};
    for (uint64_t seed = 1; seed <= 60; seed++) {
        rcase k;
        wfcols w;
        int v = (int)(seed % 5);
        cr_assert_eq(rcase_make_wf(seed, 40 + (int64_t)(seed * 7 % 80), &k, &w), 0);
        wshape(&k, &w, v);
        tt_canon kc;
        cr_assert_eq(tt_canon_init(NULL, &kc, &k.c, k.m, &k.j), 0);
        size_t bytes = (size_t)k.j.n * sizeof(tt_job_result);
        tt_job_result *oa = malloc(bytes), *ob = malloc(bytes);
        cr_assert(oa && ob);
        uint64_t s = seed * 6151;
        for (int t = 0; t < 12; t++) {
            tt_params p, q, fp, fq;
            tt_metrics ma, mb;
            wparams(&s, t, &p);
            tt_canon_form(&kc, &p, &fp);
            simulate(&k, &p, oa, &ma);
            simulate(&k, &fp, ob, &mb);
            cr_expect(memcmp(&ma, &mb, sizeof ma) == 0 && memcmp(oa, ob, bytes) == 0,
                      "seed %llu: a configuration and its form differ", (unsigned long long)seed);
            for (int kind = 0; kind < W_NKINDS; kind++) {
                q = p;
                wredraw(&s, &k, kind, &q);
                tt_canon_form(&kc, &q, &fq);
                if (!tt_canon_equal(&fp, &fq)) {
                    apart[kind]++;
                    continue;
                }
                merged[kind]++;
                pairs[v]++;
                simulate(&k, &q, ob, &mb);
                cr_expect(memcmp(&ma, &mb, sizeof ma) == 0 && memcmp(oa, ob, bytes) == 0,
                          "seed %llu, shape %d, %s: one form, two simulations",
                          (unsigned long long)seed, v, wkind_names[kind]);
            }
        }
        free(oa);
        free(ob);
        rcase_free(&k);
    }
    for (int kind = 0; kind < W_NKINDS; kind++) {
        if (kind != W_GPU_MEM && kind != W_WARM)
            cr_expect_gt(merged[kind], 5, "%s never merged", wkind_names[kind]);
        cr_expect_gt(apart[kind], 5, "%s never kept apart", wkind_names[kind]);
    }
    for (int v = 0; v < 5; v++)
        cr_expect_gt(pairs[v], 50, "shape %d: %lld pairs", v, (long long)pairs[v]);
}
