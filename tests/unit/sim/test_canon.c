/* tt/canon.h: the canonical form of a configuration. Each rule of
 * docs/model.md 8.1 on a hand-made trace, with the cases it must not
 * merge beside those it must; then, on random traces, every pair of
 * configurations with one form simulated: the per-job results and the
 * metrics must agree in every bit; and tt_run's one simulation per form
 * against a run of every configuration. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "randcase.h"
#include "testutil.h"
#include "tt/canon.h"
#include "tt/run.h"

/* Three classes: a (L2 1300), b (L2 1500), c (L2 1700); slowdowns at L1
 * 1100, 1200, 1001. */
static tt_models *table(void)
{
    static const char *const names[] = {"a", "b", "c"};
    static const int64_t l1[] = {1100, 1200, 1001}, l2[] = {1300, 1500, 1700};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 3, names, l1, l2, &m), 0);
    return m;
}

/* n jobs of classes cls, submitted at sub, of gpus GPUs each, 100 s long. */
typedef struct {
    int64_t submit[8], duration[8];
    int32_t gpus[8], cls[8];
    tt_sim_jobs j;
} jobs8;

static void make_jobs(jobs8 *s, int n, const int32_t *cls, const int64_t *sub,
                      const int32_t *gpus)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < n; i++) {
        s->submit[i] = sub ? sub[i] : 10 * i;
        s->duration[i] = 100;
        s->gpus[i] = gpus ? gpus[i] : 1;
        s->cls[i] = cls[i];
        s->j.unknown_models += cls[i] < 0;
    }
    s->j.n = n;
    s->j.submit = s->submit;
    s->j.duration = s->duration;
    s->j.gpus = s->gpus;
    s->j.cls = s->cls;
}

/* The context of the rules for jobs s on a 1x2x4 cluster (a rack of 8). */
static tt_canon canon_of(const jobs8 *s)
{
    tt_models *m = table();
    tt_cluster c = {1, 2, 4};
    tt_canon k;
    cr_assert_eq(tt_canon_init(NULL, &k, &c, m, &s->j), 0);
    tt_models_free(m);
    return k;
}

static int same(const tt_canon *k, const tt_params *a, const tt_params *b)
{
    tt_params fa, fb;
    tt_canon_form(k, a, &fa);
    tt_canon_form(k, b, &fb);
    int eq = tt_canon_equal(&fa, &fb);
    if (eq)
        cr_expect_eq(tt_canon_hash(&fa), tt_canon_hash(&fb), "equal forms, different hashes");
    return eq;
}

/* p with parameter name set to value (tt_params_set's text), in one of 8
 * buffers used in turn. */
static const tt_params *with(const tt_params *p, const char *name, const char *value)
{
    static tt_models *m;
    static tt_params ring[8];
    static int at;
    if (!m)
        m = table();
    tt_params *q = &ring[at++ % 8];
    *q = *p;
    cr_assert_eq(tt_params_set(NULL, q, m, name, value), 0, "%s=%s", name, value);
    return q;
}

static const int32_t known_ab[] = {0, 1, 0, 1};

/* theta acts through the set of occurring classes it makes sensitive:
 * class c (L2 1700) does not occur, so a theta above 1500 is inf; and a
 * set of every occurring class leaves no victim, so it is inf too. */
Test(canon, theta_by_the_sensitive_set)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p;
    tt_params_default(&p);
    p = *with(&p, "w0", "60");
    tt_params t1500 = *with(&p, "theta", "1500");
    cr_expect(same(&k, &t1500, with(&p, "theta", "1301")), "b alone");
    cr_expect(!same(&k, &t1500, &p), "b sensitive, a its victim");
    cr_expect(same(&k, with(&p, "theta", "1501"), &p), "above b: inf");
    cr_expect(same(&k, with(&p, "theta", "1700"), &p), "c does not occur");
    cr_expect(same(&k, with(&p, "theta", "1300"), &p), "a and b sensitive: no victim");
    cr_expect(same(&k, with(&p, "theta", "0"), &p));
    tt_params f;
    tt_canon_form(&k, with(&p, "theta", "1400"), &f);
    cr_expect_eq(f.theta, 1500, "the least occurring L2 slowdown at or above theta");
    /* with c in the trace: b and c, c alone, all three (no victim) */
    static const int32_t abc[] = {0, 1, 2, 0};
    make_jobs(&s, 4, abc, NULL, NULL);
    k = canon_of(&s);
    cr_expect(!same(&k, with(&p, "theta", "1600"), &p));
    cr_expect(same(&k, with(&p, "theta", "1600"), with(&p, "theta", "1700")));
    cr_expect(!same(&k, with(&p, "theta", "1400"), with(&p, "theta", "1600")));
    cr_expect(!same(&k, with(&p, "theta", "1400"), &p));
    cr_expect(same(&k, with(&p, "theta", "1300"), &p), "a, b and c sensitive: no victim");
}

/* No eviction can happen, so theta, min_run, restart and max_preempt do
 * nothing: strict consolidation (w0 = inf: no sensitive job ever waited
 * w0), max_preempt = 0 (no victim), every sensitive class waiting
 * forever by its own timer, no sensitive class, every class sensitive
 * (no victim). */
Test(canon, eviction_parameters)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params base;
    tt_params_default(&base);
    tt_params strict = *with(&base, "theta", "1400"), other = strict;
    other.min_run = 5;
    other.restart = 7;
    other.max_preempt = 9;
    cr_expect(same(&k, &strict, &other), "w0 = inf");
    cr_expect(same(&k, &strict, &base), "w0 = inf: theta too");
    tt_params p = *with(&strict, "w0", "60"), q = *with(&other, "w0", "60");
    cr_expect(!same(&k, &p, &q), "w0 finite, a class sensitive: they count");
    cr_expect(!same(&k, &p, with(&p, "min_run", "5")));
    cr_expect(!same(&k, &p, with(&p, "restart", "7")));
    cr_expect(!same(&k, &p, with(&p, "max_preempt", "9")));
    cr_expect(!same(&k, &p, with(&p, "theta", "inf")));
    tt_params none = *with(&p, "max_preempt", "0");
    cr_expect(same(&k, &none, with(&none, "min_run", "5")), "max_preempt 0");
    cr_expect(same(&k, &none, with(&none, "theta", "inf")), "max_preempt 0");
    cr_expect(same(&k, &none, with(&p, "theta", "inf")),
              "max_preempt 0 is no preemption");
    /* theta 1400: only b is sensitive; b waiting forever cannot evict */
    tt_params bw = *with(&p, "theta", "1400");
    bw = *with(&bw, "w0.b", "inf");
    cr_expect(same(&k, &bw, with(&bw, "min_run", "5")), "b waits forever");
    cr_expect(same(&k, &bw, with(&bw, "theta", "inf")));
    tt_params aw = *with(&p, "theta", "1400");
    aw = *with(&aw, "w0.a", "inf"); /* a is not sensitive: b still evicts */
    cr_expect(!same(&k, &aw, with(&aw, "min_run", "5")));
    cr_expect(!same(&k, &aw, with(&aw, "theta", "inf")));
    /* theta above every occurring class, or at or below all of them */
    tt_params hi = *with(&p, "theta", "1600");
    cr_expect(same(&k, &hi, with(&hi, "restart", "7")));
    tt_params lo = *with(&p, "theta", "1300");
    cr_expect(same(&k, &lo, with(&lo, "restart", "7")));
    cr_expect(same(&k, &lo, with(&lo, "max_preempt", "1")));
}

/* w1 is read only after w0; a class timer only for the jobs of its
 * class; timers equal in every occurring class are one global pair. */
Test(canon, timers)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p;
    tt_params_default(&p);
    cr_expect(same(&k, &p, with(&p, "w1", "0")), "w0 = inf: w1 unread");
    tt_params f = *with(&p, "w0", "60");
    cr_expect(!same(&k, &f, with(&f, "w1", "0")), "w0 finite: w1 counts");
    cr_expect(same(&k, &f, with(&f, "w0.c", "0")), "c does not occur");
    cr_expect(same(&k, &f, with(&f, "timers", "c:0:5")));
    cr_expect(!same(&k, &f, with(&f, "w0.a", "0")), "a occurs");
    cr_expect(same(&k, &f, with(&f, "w0.a", "60")), "a's own = the global");
    tt_params both = *with(&p, "timers", "a:60:inf,b:60:-");
    cr_expect(same(&k, &f, &both), "every occurring class 60:inf, the global pair");
    tt_params a_inf = *with(&f, "timers", "a:inf:5");
    cr_expect(same(&k, &a_inf, with(&f, "timers", "a:inf:9")),
              "a waits forever: its w1 unread");
    cr_expect(!same(&k, &a_inf, with(&f, "timers", "b:inf:9")));
}

/* seed and mix draw the class of a job whose model is unknown, and
 * nothing else; one class of weight > 0 is every draw. */
Test(canon, seed_and_mix)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p;
    tt_params_default(&p);
    cr_expect(same(&k, &p, with(&p, "seed", "7")), "every class known");
    cr_expect(same(&k, &p, with(&p, "mix", "a:1,c:3")));
    static const int32_t unk[] = {0, -1, 1, -1};
    make_jobs(&s, 4, unk, NULL, NULL);
    k = canon_of(&s);
    cr_expect(!same(&k, &p, with(&p, "seed", "7")), "two jobs drawn");
    cr_expect(!same(&k, &p, with(&p, "mix", "a:1,c:3")));
    cr_expect(same(&k, &p, with(&p, "mix", "a:1,b:1,c:1")), "the default mix");
    tt_params one = *with(&p, "mix", "c:4");
    cr_expect(same(&k, &one, with(&one, "seed", "7")), "one class: every draw");
    cr_expect(same(&k, &one, with(&p, "mix", "c:1")));
    cr_expect(!same(&k, &one, with(&p, "mix", "b:1")));
    /* a class of weight 0 is drawn by no job: theta above a and b is inf */
    tt_params ab = *with(&p, "mix", "a:1,b:2");
    ab = *with(&ab, "w0", "60");
    cr_expect(same(&k, with(&ab, "theta", "1600"), &ab), "c weighs 0");
    tt_params abc = *with(&ab, "mix", "a:1,b:2,c:1");
    cr_expect(!same(&k, with(&abc, "theta", "1600"), &abc), "c drawn");
}

/* congestion: by the effective slowdowns it gives the occurring classes,
 * and not at all where no job can leave L0. */
Test(canon, congestion)
{
    jobs8 s;
    static const int32_t c_only[] = {2, 2, 2, 2};
    make_jobs(&s, 4, c_only, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p;
    tt_params_default(&p);
    p = *with(&p, "w0", "0");
    /* c's effective L2 slowdown, 1000 + 700000 / (1000 - x): 1700 for x
     * 0 and 1, 1707 for x 10 and 11; its L1 (1001) stays 1001 below 500 */
    cr_expect(same(&k, &p, with(&p, "congestion", "1")));
    cr_expect(!same(&k, &p, with(&p, "congestion", "2")), "c's L2 moves");
    tt_params f;
    tt_canon_form(&k, with(&p, "congestion", "11"), &f);
    cr_expect_eq(f.congestion, 10, "the least congestion of the same slowdowns");
    /* a model table where c is 1001 at both levels */
    static const char *const names[] = {"a", "b", "c"};
    static const int64_t l1[] = {1100, 1200, 1001}, l2[] = {1300, 1500, 1001};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 3, names, l1, l2, &m), 0);
    tt_cluster c = {1, 2, 4};
    cr_assert_eq(tt_canon_init(NULL, &k, &c, m, &s.j), 0);
    cr_expect(same(&k, &p, with(&p, "congestion", "499")));
    cr_expect(!same(&k, &p, with(&p, "congestion", "500")));
    tt_canon_form(&k, with(&p, "congestion", "700"), &f);
    cr_expect_eq(f.congestion, 667, "1000 / (1000 - x) is 3 from x = 667");
    tt_models_free(m);
    /* every job at L0: w0 = inf and no job larger than a rack */
    k = canon_of(&s);
    tt_params strict;
    tt_params_default(&strict);
    cr_expect(same(&k, &strict, with(&strict, "congestion", "900")));
    static const int32_t big[] = {1, 9, 1, 1}; /* 9 GPUs: more than a rack of 8 */
    make_jobs(&s, 4, c_only, NULL, big);
    cr_expect_eq(s.gpus[1], 9);
    tt_cluster two = {2, 2, 4};
    cr_assert_eq(tt_canon_init(NULL, &k, &two, m = table(), &s.j), 0);
    tt_models_free(m);
    cr_expect(!same(&k, &strict, with(&strict, "congestion", "900")),
              "a job larger than a rack spreads at once");
    /* larger than the cluster: rejected, never placed */
    k = canon_of(&s);
    cr_expect(same(&k, &strict, with(&strict, "congestion", "900")));
}

/* load scales the time between submits: nothing when there is none. */
Test(canon, load)
{
    jobs8 s;
    static const int64_t at0[] = {5, 5, 5, 5};
    make_jobs(&s, 4, known_ab, at0, NULL);
    tt_canon k = canon_of(&s);
    tt_params p;
    tt_params_default(&p);
    cr_expect(same(&k, &p, with(&p, "load", "3000")));
    make_jobs(&s, 4, known_ab, NULL, NULL);
    k = canon_of(&s);
    cr_expect(!same(&k, &p, with(&p, "load", "3000")));
}

/* order and backfill always count; so does a w0 anywhere. */
Test(canon, kept)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p;
    tt_params_default(&p);
    cr_expect(!same(&k, &p, with(&p, "order", "sjf")));
    cr_expect(!same(&k, &p, with(&p, "backfill", "0")));
    cr_expect(!same(&k, &p, with(&p, "w0", "86400")));
    cr_expect(!same(&k, with(&p, "w0", "1"), with(&p, "w0", "2")));
    static const int32_t bad[] = {0, 3};
    make_jobs(&s, 2, bad, NULL, NULL);
    tt_models *m = table();
    tt_cluster c = {1, 2, 4};
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_canon_init(ctx, &k, &c, m, &s.j), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "job 1: model class 3 not in the table");
    tt_ctx_free(ctx);
    tt_models_free(m);
}

/* requeue and prio_victims (docs/model.md section 11, items 11 and 12)
 * count only under dlas and gittins, requeue where a job may be evicted
 * and prio_victims where step 7 exists (prio_preempt=1, max_preempt > 0);
 * elsewhere they merge with the defaults, hash included. */
Test(canon, requeue_and_prio_victims)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p, d;
    tt_params_default(&p);
    tt_params_default(&d);
    for (int o = 0; o < 3; o++) {
        p.order = o == 0 ? TT_ORDER_FIFO : o == 1 ? TT_ORDER_LAS : TT_ORDER_FTF;
        cr_expect(same(&k, &p, with(&p, "requeue", "front")), "order %d", o);
        cr_expect(same(&k, &p, with(&p, "prio_victims", "refill")), "order %d", o);
    }
    for (int o = 0; o < 2; o++) {
        p = d;
        p.order = o ? TT_ORDER_GITTINS : TT_ORDER_DLAS;
        cr_expect(!same(&k, &p, with(&p, "requeue", "front")));
        cr_expect(!same(&k, &p, with(&p, "prio_victims", "refill")));
        /* no victims: nothing is evicted, so neither is read */
        tt_params none = *with(&p, "max_preempt", "0");
        cr_expect(same(&k, &none, with(&none, "requeue", "front")));
        cr_expect(same(&k, &none, with(&none, "prio_victims", "refill")));
        /* no step 7: prio_victims is not read; requeue is where SPEC 6
         * evicts (w0 finite, b sensitive at theta 1400: as in
         * eviction_parameters), and not where none can */
        tt_params nop = *with(&p, "prio_preempt", "0");
        cr_expect(same(&k, &nop, with(&nop, "prio_victims", "refill")));
        cr_expect(same(&k, &nop, with(&nop, "requeue", "front")));
        tt_params sens = *with(&nop, "w0", "60");
        sens = *with(&sens, "theta", "1400");
        cr_expect(!same(&k, &sens, with(&sens, "requeue", "front")));
        cr_expect(same(&k, &sens, with(&sens, "prio_victims", "refill")));
    }
}

/* ---- on random traces: one form, one simulation ---- */

/* p with one parameter redrawn (kind: which), the way a grid varies one
 * axis. */
enum { K_THETA, K_W1, K_MIN_RUN, K_RESTART, K_MAX_PREEMPT, K_SEED, K_MIX, K_CONG, K_LOAD,
       K_CLASS, K_MLFQ, K_PROMOTE, K_PRIO, K_DELTA, K_EL_FRAC, K_RESIZE, K_RESIZE_COST,
       K_RESIZE_GAP, K_REQUEUE, K_PRIO_VICTIMS, K_NKINDS };
static const char *const kind_names[K_NKINDS] = {"theta", "w1", "min_run", "restart",
                                                 "max_preempt", "seed", "mix", "congestion",
                                                 "load", "class timer", "mlfq", "promote",
                                                 "prio_preempt", "gittins_delta", "el_frac",
                                                 "resize", "resize_cost", "resize_gap",
                                                 "requeue", "prio_victims"};

static void redraw(uint64_t *s, const rcase *k, int kind, tt_params *p)
{
    int nc = tt_models_count(k->m);
    switch (kind) {
    case K_THETA:
        p->theta = rc_pick(s, 0, 3) ? tt_models_slow_l2(k->m, (int)rc_pick(s, 0, nc - 1)) +
                                          rc_pick(s, -2, 2)
                                    : rc_pick(s, 0, 1) ? TT_INF : rc_pick(s, 0, 3000);
        break;
    case K_W1: p->w1 = rc_pick(s, 0, 1) ? TT_INF : rc_pick(s, 0, 3000); break;
    case K_MIN_RUN: p->min_run = rc_pick(s, 0, 600); break;
    case K_RESTART: p->restart = rc_pick(s, 0, 60); break;
    case K_MAX_PREEMPT: p->max_preempt = rc_pick(s, 0, 3); break;
    case K_SEED: p->seed = (uint64_t)rc_pick(s, 1, 1000); break;
    case K_MIX:
        p->mix_set = 1;
        for (int c = 0; c < TT_MAX_CLASSES; c++)
            p->mix[c] = c < nc ? (uint32_t)rc_pick(s, 0, 2) : 0;
        if (p->mix[0] + p->mix[nc - 1] == 0)
            p->mix[nc - 1] = 1;
        break;
    case K_CONG: p->congestion = rc_pick(s, 0, 1) ? rc_pick(s, 0, 20) : rc_pick(s, 0, 999); break;
    case K_LOAD: p->load = rc_pick(s, 0, 1) ? 1000 : rc_pick(s, 300, 3000); break;
    case K_MLFQ:
        p->nmlfq = 1;
        p->mlfq[0] = rc_pick(s, 1, 20000);
        break;
    case K_PROMOTE: p->promote = rc_pick(s, 0, 1) ? 0 : rc_pick(s, 1, 8000); break;
    case K_PRIO: p->prio_preempt = !p->prio_preempt; break;
    case K_DELTA: p->gittins_delta = rc_pick(s, 1, 20000); break;
    case K_EL_FRAC: p->el_frac = rc_pick(s, 0, 1000); break;
    case K_RESIZE: p->resize = !p->resize; break;
    case K_REQUEUE: p->requeue = !p->requeue; break;
    case K_PRIO_VICTIMS: p->prio_victims = !p->prio_victims; break;
    case K_RESIZE_COST: p->resize_cost = rc_pick(s, 0, 120); break;
    case K_RESIZE_GAP: p->resize_gap = rc_pick(s, 0, 1) ? 0 : rc_pick(s, 1, 900); break;
    default: {
        int c = (int)rc_pick(s, 0, nc - 1);
        static const int64_t ws[] = {TT_TIMER_GLOBAL, 0, 30, 1200, TT_INF};
        p->class_w0[c] = ws[rc_pick(s, 0, 4)];
        p->class_w1[c] = ws[rc_pick(s, 0, 4)];
    }
    }
}

typedef struct {
    tt_job_result *out;
    tt_metrics m;
} run;

static void simulate(const rcase *k, const tt_params *p, run *r)
{
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_simulate(ctx, &k->c, p, k->m, &k->j, r->out, &r->m, NULL), 0, "%s",
                 tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

static int same_run(const rcase *k, const run *a, const run *b)
{
    return memcmp(&a->m, &b->m, sizeof a->m) == 0 &&
           memcmp(a->out, b->out, (size_t)k->j.n * sizeof *a->out) == 0;
}

/* Traces of five shapes: as drawn (a quarter of the models unknown), every
 * model known, every job submitted at one time, every job within a rack,
 * every model unknown. */
static void shape(rcase *k, int v)
{
    for (int64_t i = 0; i < k->j.n; i++) {
        if (v == 1 && k->j.cls[i] < 0)
            k->j.cls[i] = 0;
        if (v == 4)
            k->j.cls[i] = -1;
        if (v == 2)
            k->j.submit[i] = k->j.submit[0];
        int32_t rack = k->c.nodes_per_rack * k->c.gpus_per_node;
        if (v == 3 && k->j.gpus[i] > rack)
            k->j.gpus[i] = rack;
    }
    k->j.unknown_models = 0;
    for (int64_t i = 0; i < k->j.n; i++)
        k->j.unknown_models += k->j.cls[i] < 0;
}

/* Every configuration simulates as its canonical form does, and two with
 * one form simulate alike: per-job results and metrics, every bit. Each
 * kind of redrawn parameter must have merged somewhere, and each must
 * also have been kept apart somewhere, or the test proves little. */
Test(canon, one_form_one_simulation)
{
    int64_t merged[K_NKINDS] = {0}, apart[K_NKINDS] = {0};
    for (uint64_t seed = 1; seed <= 50; seed++) {
        rcase k;
        cr_assert_eq(rcase_make(seed, 30 + (int64_t)(seed * 7 % 90), &k), 0);
        shape(&k, (int)(seed % 5));
        tt_canon kc;
        cr_assert_eq(tt_canon_init(NULL, &kc, &k.c, k.m, &k.j), 0);
        size_t bytes = (size_t)k.j.n * sizeof(tt_job_result);
        run a = {malloc(bytes), {0}}, b = {malloc(bytes), {0}};
        cr_assert(a.out && b.out);
        uint64_t s = seed * 7919;
        for (int t = 0; t < 12; t++) {
            tt_params p, q, fp, fq;
            rcase_params(&s, &p);
            if (rc_pick(&s, 0, 1))
                p.max_preempt = rc_pick(&s, 1, 3); /* evictions, more often */
            if (t % 3 == 0)
                rcase_orders(&s, &p); /* SPEC 11's orders */
            if (t % 3 == 1) { /* elastic jobs (not under dlas or gittins) */
                p.el_up = rc_pick(&s, 0, 2);
                p.el_down = rc_pick(&s, 0, 1);
                p.resize = (int32_t)rc_pick(&s, 0, 1);
                p.resize_gap = rc_pick(&s, 0, 1) ? 0 : 300;
            }
            tt_canon_form(&kc, &p, &fp);
            simulate(&k, &p, &a);
            simulate(&k, &fp, &b);
            cr_expect(same_run(&k, &a, &b), "seed %llu: a configuration and its form differ",
                      (unsigned long long)seed);
            for (int kind = 0; kind < K_NKINDS; kind++) {
                q = p;
                redraw(&s, &k, kind, &q);
                tt_canon_form(&kc, &q, &fq);
                if (!tt_canon_equal(&fp, &fq)) {
                    apart[kind]++;
                    continue;
                }
                merged[kind]++;
                simulate(&k, &q, &b);
                cr_expect(same_run(&k, &a, &b), "seed %llu, %s: one form, two simulations",
                          (unsigned long long)seed, kind_names[kind]);
            }
        }
        free(a.out);
        free(b.out);
        rcase_free(&k);
    }
    for (int kind = 0; kind < K_NKINDS; kind++) {
        cr_expect_gt(merged[kind], 5, "%s never merged", kind_names[kind]);
        cr_expect_gt(apart[kind], 5, "%s never kept apart", kind_names[kind]);
    }
}

/* tt_run simulates each form once and gives every configuration the
 * metrics of its own run; simulations counts the forms. */
Test(canon, run_once_per_form)
{
    tt_ctx *ctx = tt_ctx_create();
    for (uint64_t seed = 1; seed <= 6; seed++) {
        rcase k;
        cr_assert_eq(rcase_make(seed, 60, &k), 0);
        enum { NP = 40 };
        tt_params ps[NP];
        uint64_t s = seed * 31;
        for (int i = 0; i < NP; i++) {
            if (i % 3 == 0)
                rcase_params(&s, &ps[i]);
            else { /* a neighbour of the one before: a grid's next point */
                ps[i] = ps[i - 1];
                redraw(&s, &k, (int)rc_pick(&s, 0, K_NKINDS - 1), &ps[i]);
            }
        }
        tt_canon kc;
        cr_assert_eq(tt_canon_init(ctx, &kc, &k.c, k.m, &k.j), 0);
        int64_t forms = 0;
        for (int i = 0; i < NP; i++) {
            tt_params fi, fj;
            tt_canon_form(&kc, &ps[i], &fi);
            int seen = 0;
            for (int j = 0; j < i && !seen; j++) {
                tt_canon_form(&kc, &ps[j], &fj);
                seen = tt_canon_equal(&fi, &fj);
            }
            forms += !seen;
        }
        tt_metrics all[NP], once[NP];
        int64_t n_all = -1, n_once = -1;
        tt_run_opts oa = {.threads = 2, .no_dedup = 1, .simulations = &n_all};
        tt_run_opts oo = {.threads = 2, .simulations = &n_once};
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &oa, all), 0, "%s",
                     tt_errmsg(ctx));
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &oo, once), 0, "%s",
                     tt_errmsg(ctx));
        cr_expect_eq(n_all, NP);
        cr_expect_eq(n_once, forms);
        cr_expect_lt(forms, NP, "seed %llu: nothing to merge", (unsigned long long)seed);
        for (int i = 0; i < NP; i++)
            cr_expect(memcmp(&all[i], &once[i], sizeof all[i]) == 0, "seed %llu #%d",
                      (unsigned long long)seed, i);
        rcase_free(&k);
    }
    tt_ctx_free(ctx);
}

/* The bench grid of the README (bench/sweep): Philly on 4x32x8, 64 values
 * of w0 on log:1:86400 with w1 = w0, by 64 of theta on 1000 .. 2000:
 * 59 distinct w0 by 6 ways to preempt (7 sets of sensitive classes, of
 * which every class and none leave no eviction), docs/model.md 8.1. */
Test(canon, bench_grid_forms)
{
    if (!have_shared("philly/pollux_philly.csv"))
        cr_skip("no shared Philly CSV");
    tt_ctx *ctx = tt_ctx_create();
    const char *in[] = {shared_path("philly/pollux_philly.csv")};
    tt_trace *t = ingest_files(ctx, "philly-csv", in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(ctx, &m), 0);
    tt_sim_jobs j;
    cr_assert_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), 0, "%s", tt_errmsg(ctx));
    tt_cluster c = {4, 32, 8};
    tt_canon k;
    cr_assert_eq(tt_canon_init(ctx, &k, &c, m, &j), 0);
    enum { W = 64, T = 64 };
    static tt_params forms[W * T];
    int n = 0;
    for (int a = 0; a < W; a++)
        for (int b = 0; b < T; b++) {
            tt_params p, f;
            tt_params_default(&p);
            p.w0 = p.w1 = llround(pow(86400.0, (double)a / (W - 1)));
            p.theta = 1000 + 1000 * b / (T - 1);
            tt_canon_form(&k, &p, &f);
            int seen = 0;
            for (int i = 0; i < n && !seen; i++)
                seen = tt_canon_equal(&forms[i], &f);
            if (!seen)
                forms[n++] = f;
        }
    cr_expect_eq(n, 354, "%d forms", n);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Elasticity (docs/model.md 8.1): its parameters are not read while
 * el_up = el_down = 0; once on, every parameter is kept (the rules above
 * need not hold), but resize_cost under resize=term. */
Test(canon, elastic)
{
    jobs8 s;
    make_jobs(&s, 4, known_ab, NULL, NULL);
    tt_canon k = canon_of(&s);
    tt_params p, on;
    tt_params_default(&p);
    cr_expect(same(&k, &p, with(&p, "resize", "term")));
    cr_expect(same(&k, &p, with(&p, "resize_cost", "99")));
    cr_expect(same(&k, &p, with(&p, "resize_gap", "0")));
    cr_expect(same(&k, &p, with(&p, "el_frac", "10")));
    cr_expect(!same(&k, &p, with(&p, "el_up", "1")));
    on = *with(&p, "el_down", "1");
    cr_expect(!same(&k, &on, with(&on, "resize_cost", "99")));
    cr_expect(!same(&k, &on, with(&on, "restart", "99")));
    cr_expect(!same(&k, &on, with(&on, "seed", "2")));
    cr_expect(!same(&k, &on, with(&on, "el_frac", "10")));
    on.resize = TT_RESIZE_TERM;
    cr_expect(same(&k, &on, with(&on, "resize_cost", "99")));
    cr_expect(!same(&k, &on, with(&on, "resize_gap", "99")));
}
