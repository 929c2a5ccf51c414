/* The engine's shortcuts against its literal reading, on random cases the
 * reference simulator does not cover (elastic jobs under every order):
 * docs/model.md says each shortcut changes nothing (section 6's pass
 * thresholds, section 11 item 5's L0 failure bound, section 12 item 4's
 * thresholds with loans, SPEC 10.4's grow-phase skip); here each run is
 * made twice, with tts_config.literal off and on (every waiting job tried
 * at every pass, the grow phase run at every event), and every job's end,
 * evictions and the counters must agree. A failure names its seed. */
#include "testutil.h"

#include "sim/simrun.h"
#include "sim_step.h"
#include "simcase.h"

enum { LMAXJ = 48 };

typedef struct {
    tt_cluster c;
    tt_params p;
    int64_t n;
    int64_t submit[LMAXJ], duration[LMAXJ];
    int32_t gpus[LMAXJ], cls[LMAXJ];
    int8_t elastic[LMAXJ];
} lcase;

static void make_lcase(lcase *k, uint64_t seed)
{
    static const tt_cluster cs[] = {{1, 1, 4}, {1, 2, 2}, {1, 4, 1}, {2, 2, 2}, {1, 2, 4}, {2, 4, 1}};
    static const int64_t ws[] = {0, 0, 10, 60, TT_INF};
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 31;
    memset(k, 0, sizeof *k);
    k->c = cs[pick(&s, 0, 5)];
    int32_t total = k->c.racks * k->c.nodes_per_rack * k->c.gpus_per_node;
    tt_params *p = &k->p;
    tt_params_default(p);
    p->order = (int)pick(&s, TT_ORDER_FIFO, TT_ORDER_FTF);
    p->w0 = ws[pick(&s, 0, 4)];
    p->w1 = ws[pick(&s, 0, 4)];
    p->theta = pick(&s, 0, 2) ? 1001 : TT_INF;
    p->min_run = pick(&s, 0, 2) ? 0 : pick(&s, 1, 30);
    p->max_preempt = pick(&s, 0, 4);
    p->restart = pick(&s, 0, 30);
    p->backfill = pick(&s, 0, 4) > 0;
    p->el_up = (int32_t)pick(&s, 0, 3);
    p->el_down = (int32_t)pick(&s, 0, 2);
    p->resize_cost = pick(&s, 0, 20);
    p->resize_gap = pick(&s, 0, 2) ? 0 : pick(&s, 1, 200);
    p->resize = pick(&s, 0, 3) == 0 ? TT_RESIZE_TERM : TT_RESIZE_SIDECAR;
    if (p->order == TT_ORDER_DLAS || p->order == TT_ORDER_GITTINS) {
        p->nmlfq = 1;
        p->mlfq[0] = pick(&s, 5, 200);
        p->promote = pick(&s, 0, 1) ? 0 : pick(&s, 500, 4000);
        p->prio_preempt = pick(&s, 0, 3) > 0;
    }
    k->n = pick(&s, total, LMAXJ);
    int64_t t = pick(&s, 0, 30);
    for (int64_t i = 0; i < k->n; i++) {
        t += pick(&s, 0, 2) ? 0 : pick(&s, 1, 60);
        k->submit[i] = t;
        k->duration[i] = pick(&s, 1, 300);
        k->gpus[i] = (int32_t)(1 << pick(&s, 0, 2));
        if (k->gpus[i] > total)
            k->gpus[i] = 1;
        k->cls[i] = (int32_t)pick(&s, 0, 1);
        k->elastic[i] = (int8_t)(pick(&s, 0, 2) > 0);
    }
}

/* What a run leaves: per job its end (or what is left) and evictions, and
 * the counters. */
typedef struct {
    int64_t tend[LMAXJ];
    int32_t evict[LMAXJ];
    int64_t c[12];
} outcome;

static void run_lcase(lcase *k, int literal, outcome *o)
{
    static const char *const names[] = {"flat", "sens"};
    static const int64_t l1[] = {1000, 1200}, l2[] = {1000, 2000};
    static const int64_t lin[] = {1000, 1800, 3200, 5600};
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, l1, l2, &md), 0);
    cr_assert_eq(tt_models_set_scale(NULL, md, 0, 4, lin), 0);
    cr_assert_eq(tt_models_set_scale(NULL, md, 1, 4, lin), 0);
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    j.n = k->n;
    j.submit = k->submit;
    j.duration = k->duration;
    j.gpus = k->gpus;
    j.cls = k->cls;
    j.elastic = k->elastic;
    tt_ctx *ctx = tt_ctx_create();
    tt_simprep prep;
    tt_simwork w;
    memset(&w, 0, sizeof w);
    int rc = tt_simprep_check_frame(ctx, &k->c, &j);
    if (!rc)
        rc = tt_simprep_check_params(ctx, &k->p, 2);
    if (!rc)
        rc = tt_simprep_init(ctx, &prep, &k->c, md, &j, tt_simprep_needs(&k->p, 1));
    if (!rc && k->p.order == TT_ORDER_GITTINS)
        rc = tt_simprep_gittins(ctx, &prep, &k->p);
    if (!rc)
        rc = tt_simwork_init(ctx, &w, &prep);
    tts_config cf;
    if (!rc)
        rc = tt_simprep_config(ctx, &prep, &k->p, &cf);
    cr_assert_eq(rc, 0, "%s", tt_errmsg(ctx));
    cf.literal = literal;
    tts_state *S = &w.S;
    tts_init(S, &prep.tr, &prep.tc, &cf, k->submit, NULL); /* load 1000: submit' = submit */
    while (tts_step(S))
        ;
    cr_assert(S->waiting == 0 && S->running == 0, "jobs left waiting");
    for (int64_t i = 0; i < k->n; i++) {
        o->tend[i] = S->tend[i];
        o->evict[i] = S->evict[i];
    }
    int64_t c[12] = {S->preempt,   S->placed[0], S->placed[1], S->placed[2],
                     S->resizes,   S->grows,     S->shrinks,   S->demotions,
                     S->promotions, S->preempt_prio, S->used,   S->comm_milli};
    memcpy(o->c, c, sizeof c);
    tt_simwork_free(&w);
    tt_simprep_free(&prep);
    tt_ctx_free(ctx);
    tt_models_free(md);
}

Test(literal, shortcuts_change_nothing)
{
    static lcase k;
    static outcome a, b;
    int64_t resized = 0, evicted = 0;
    for (uint64_t seed = 1; seed <= 1500; seed++) {
        make_lcase(&k, seed);
        run_lcase(&k, 0, &a);
        run_lcase(&k, 1, &b);
        for (int64_t i = 0; i < k.n; i++)
            cr_assert(a.tend[i] == b.tend[i] && a.evict[i] == b.evict[i],
                      "seed %llu: job %lld ends at %lld with shortcuts, %lld without",
                      (unsigned long long)seed, (long long)i, (long long)a.tend[i],
                      (long long)b.tend[i]);
        for (int q = 0; q < 12; q++)
            cr_assert(a.c[q] == b.c[q], "seed %llu: counter %d %lld with shortcuts, %lld without",
                      (unsigned long long)seed, q, (long long)a.c[q], (long long)b.c[q]);
        resized += a.c[4];
        evicted += a.c[0];
    }
    /* the cases reach resizes and evictions */
    cr_expect_gt(resized, 1000);
    cr_expect_gt(evicted, 1000);
    cr_log_info("literal: %lld resizes, %lld evictions", (long long)resized, (long long)evicted);
}
