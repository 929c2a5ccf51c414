/* The queue disciplines of SPEC 11 on hand-worked cases: the scenarios of
 * SPEC 11.8 (A and its variants, C) and more (promotion, the Gittins order
 * over a few samples, backfill=0 with priority preemption, max_preempt and
 * the ping-pong bound). Each runs the reference simulator, checks its
 * invariants, and asks the engine for the same results (simcase.h). */
#include "simcase.h"
#include "sim/simrun.h"

/* m0: every slowdown 1000, never sensitive. */
static const ref_model MD[] = {{1000, 1000, -1}};
#define NMD 1

typedef struct {
    ref_job_result o[8];
    ref_metrics m;
    ref_log log;
} result;

static void run(const ref_cluster *c, const ref_params *p, const ref_job *jobs, int64_t n,
                result *r)
{
    memset(&r->log, 0, sizeof r->log);
    check_case(MD, NMD, c, p, jobs, n, r->o, &r->m, &r->log);
    ref_log_free(&r->log);
}

static void expect_job(const result *r, int64_t i, int64_t start, int64_t end, int pre)
{
    cr_expect_eq(r->o[i].first_start, start, "job %lld starts at %lld, expected %lld",
                 (long long)i, (long long)r->o[i].first_start, (long long)start);
    cr_expect_eq(r->o[i].end, end, "job %lld ends at %lld, expected %lld", (long long)i,
                 (long long)r->o[i].end, (long long)end);
    cr_expect_eq(r->o[i].preemptions, pre, "job %lld evicted %d times, expected %d",
                 (long long)i, r->o[i].preemptions, pre);
}

static void dlas(ref_params *p, int64_t theta1)
{
    ref_params_default(p);
    p->order = REF_DLAS;
    p->nmlfq = 1;
    p->mlfq[0] = theta1;
}

/* ---- SPEC 11.8 A: demotion and priority preemption ----
 * 1x1x4, 4-GPU jobs; order=dlas mlfq=1000 restart=10 min_run=0. J0 at 0
 * (1000 s), J1 at 100 (100 s). At 100 both are in Q0: J1 waits. At 250
 * J0 has held 4 x 250 = 1000 GPU-s: demoted to Q1, where J1 evicts it
 * (w = 750,000 left) and runs 250..350; J0 restarts (r = 10) and ends at
 * 350 + 10 + 750 = 1110. */
static const ref_cluster ONE4 = {1, 1, 4};
static const ref_job A_JOBS[] = {{0, 1000, 4, 0}, {100, 100, 4, 0}};

Test(orders, spec_a_demotion_and_priority_preemption)
{
    ref_params p;
    dlas(&p, 1000);
    p.restart = 10;
    p.min_run = 0;
    result r;
    run(&ONE4, &p, A_JOBS, 2, &r);
    expect_job(&r, 0, 0, 1110, 1);
    expect_job(&r, 1, 250, 350, 0);
    cr_expect_eq(r.m.preemptions, 1);
    cr_expect_eq(r.m.preempt_prio, 1);
    cr_expect_eq(r.m.demotions, 1);
    cr_expect_eq(r.m.promotions, 0);
    cr_expect_eq(r.m.restart_gpu_s, 40);
    cr_expect_eq(r.m.jct_mean, (1110.0 + 250.0) / 2);
}

/* fifo and las: no demotion, no eviction: J1 waits for J0, JCT 1000 and
 * 1000. */
Test(orders, spec_a_fifo_and_las)
{
    for (int o = REF_FIFO; o <= REF_LAS; o += REF_LAS - REF_FIFO) {
        ref_params p;
        dlas(&p, 1000);
        p.order = o;
        p.restart = 10;
        p.min_run = 0;
        result r;
        run(&ONE4, &p, A_JOBS, 2, &r);
        expect_job(&r, 0, 0, 1000, 0);
        expect_job(&r, 1, 1000, 1100, 0);
        cr_expect_eq(r.m.demotions + r.m.preemptions, 0);
    }
}

/* min_run=300: at 250 J0 is not yet evictable; its aging at 300 is an
 * event, where J1 evicts it (w = 700,000) and runs 300..400; J0 ends at
 * 400 + 10 + 700 = 1110. */
Test(orders, spec_a_aging_event)
{
    ref_params p;
    dlas(&p, 1000);
    p.restart = 10;
    p.min_run = 300;
    result r;
    run(&ONE4, &p, A_JOBS, 2, &r);
    expect_job(&r, 0, 0, 1110, 1);
    expect_job(&r, 1, 300, 400, 0);
    cr_expect_eq(r.m.preempt_prio, 1);
    cr_expect_eq(r.m.demotions, 1);
    /* without priority preemption J1 waits for J0 */
    p.prio_preempt = 0;
    run(&ONE4, &p, A_JOBS, 2, &r);
    expect_job(&r, 1, 1000, 1100, 0);
    cr_expect_eq(r.m.demotions, 1);
    cr_expect_eq(r.m.preempt_prio, 0);
}

/* ---- SPEC 11.8 C: finish-time fairness ----
 * J0 at 0 (4 GPUs, 300 s), J1 at 10 (4, 400 s), J2 at 20 (1, 500 s).
 * F0 = 300 (N = 1), F1 = 10 + 800 = 810 (N = 2, f = 2000), F2 = 20 + 500 =
 * 520 (N = 3, f = max(1000, 750)). ftf: at 300 J2 runs first and ends at
 * 800; J1 does not fit beside it and runs 800..1200. JCT 300 / 1190 / 780,
 * rho 344 / 1566 / 1560. fifo: JCT 300 / 690 / 1180, rho 344 / 717 /
 * 2360. For J1 under ftf, A over [10, 1200] is 20 + 840 + 1000 + 400 =
 * 2260: N_bar = f_bar = 1899, rho = 1190 x 10^6 / (400 x 1899) = 1566. */
static const ref_job C_JOBS[] = {{0, 300, 4, 0}, {10, 400, 4, 0}, {20, 500, 1, 0}};

Test(orders, spec_c_finish_time_fairness)
{
    ref_params p;
    ref_params_default(&p);
    p.order = REF_FTF;
    result r;
    run(&ONE4, &p, C_JOBS, 3, &r);
    expect_job(&r, 0, 0, 300, 0);
    expect_job(&r, 1, 800, 1200, 0);
    expect_job(&r, 2, 300, 800, 0);
    cr_expect(r.o[0].rho == 344 && r.o[1].rho == 1566 && r.o[2].rho == 1560,
              "rho %lld %lld %lld", (long long)r.o[0].rho, (long long)r.o[1].rho,
              (long long)r.o[2].rho);
    cr_expect_eq(r.m.ftf_mean, (344.0 + 1566.0 + 1560.0) / 3); /* 1156.67 */
    cr_expect_eq(r.m.ftf_max, 1566);
    cr_expect_eq(r.m.ftf_unfair, 2);

    p.order = REF_FIFO;
    run(&ONE4, &p, C_JOBS, 3, &r);
    expect_job(&r, 1, 300, 700, 0);
    expect_job(&r, 2, 700, 1200, 0);
    cr_expect(r.o[0].rho == 344 && r.o[1].rho == 717 && r.o[2].rho == 2360,
              "rho %lld %lld %lld", (long long)r.o[0].rho, (long long)r.o[1].rho,
              (long long)r.o[2].rho);
    cr_expect_eq(r.m.ftf_max, 2360);
    cr_expect_eq(r.m.ftf_unfair, 1);
}

/* ---- promotion, and max_preempt bounding the swaps ----
 * 1x1x4, two 4-GPU jobs of 300 s at 0; dlas mlfq=400 promote=1000
 * restart=0 min_run=0 max_preempt=1 (SPEC 11.10's swap every 100 s).
 *   0: J0 starts; demotion due at 0 + 400 / 4 = 100.
 *   100: J0 demoted (Q1); J1 (Q0) evicts it, w0 = 200,000; J0 waits with
 *        E = 100, P from 100: promoted when 1000 P >= 1000 E, at 200.
 *   200: J1 demoted, J0 promoted (Q0, a_q = E = P = 0); J0 evicts J1
 *        (w1 = 200,000) and runs 200..400: evicted once, it is no victim now.
 *   300: J0 demoted (held 100 s since its promotion), J1 promoted, but J0
 *        may not be evicted again: J1 waits.
 *   400: J0 ends; J1 runs 400..600, demoted at 500.
 * Demotions 4, promotions 2, priority evictions 2. */
Test(orders, promotion_and_max_preempt)
{
    static const ref_job jobs[] = {{0, 300, 4, 0}, {0, 300, 4, 0}};
    ref_params p;
    dlas(&p, 400);
    p.promote = 1000;
    p.restart = 0;
    p.min_run = 0;
    p.max_preempt = 1;
    result r;
    run(&ONE4, &p, jobs, 2, &r);
    expect_job(&r, 0, 0, 400, 1);
    expect_job(&r, 1, 100, 600, 1);
    cr_expect_eq(r.m.demotions, 4);
    cr_expect_eq(r.m.promotions, 2);
    cr_expect_eq(r.m.preempt_prio, 2);
    /* promote=0 is off (SPEC 11.10): J0 stays in Q1, and J1, demoted at
     * 200 into Q1 too, runs to its end at 400 */
    p.promote = 0;
    run(&ONE4, &p, jobs, 2, &r);
    expect_job(&r, 0, 0, 600, 1);
    expect_job(&r, 1, 100, 400, 0);
    cr_expect_eq(r.m.promotions, 0);
}

/* The ping-pong of SPEC 11.10 under the default max_preempt = 3 and a
 * restart: every eviction counts, each job is evicted at most 3 times,
 * and both end. */
Test(orders, ping_pong_is_bounded)
{
    static const ref_job jobs[] = {{0, 3000, 4, 0}, {0, 3000, 4, 0}};
    ref_params p;
    dlas(&p, 400);
    p.promote = 1000;
    p.min_run = 0;
    result r;
    run(&ONE4, &p, jobs, 2, &r);
    cr_expect(r.o[0].preemptions <= 3 && r.o[1].preemptions <= 3);
    cr_expect_eq(r.m.preemptions, r.o[0].preemptions + r.o[1].preemptions);
    cr_expect_eq(r.m.preempt_prio, r.m.preemptions);
    cr_expect_gt(r.m.preemptions, 3, "the swaps happen until the bound stops them");
    cr_expect(r.m.restart_gpu_s <= 4 * 30 * r.m.preemptions);
}

/* ---- the Gittins order over three samples ----
 * 1x1x1, 1-GPU jobs of 1000 s: J0 at 0, J1 at 60, J2 at 150; mlfq=50,
 * min_run=0, restart=0; samples 100, 200, 1000 GPU-s with D = 100.
 *   J0 runs, demoted at 50; J1 (Q0) evicts it at 60 (a_q 60); J1 demoted
 *   at 110; J2 evicts it at 150 (a_q 90); J2 demoted at 200, runs to 1150
 *   (nobody is in a higher queue than a waiter of Q1).
 * At 1150 J0 and J1 wait in Q1. G(60) = 1 / (40 + 100 + 100) = 1/240,
 * G(90) = 1 / (10 + 100 + 100) = 1/210: gittins runs J1 first (1150..2060,
 * then J0 to 3000); dlas runs J0 first (qent 50 < 110: 1150..2090, then J1
 * to 3000). */
Test(orders, gittins_order)
{
    static const ref_job jobs[] = {{0, 1000, 1, 0}, {60, 1000, 1, 0}, {150, 1000, 1, 0}};
    static const int64_t samples[] = {1000, 100, 200};
    static const ref_cluster one = {1, 1, 1};
    ref_params p;
    dlas(&p, 50);
    p.order = REF_GITTINS;
    p.min_run = 0;
    p.restart = 0;
    p.gittins_delta = 100;
    p.git = samples;
    p.ngit = 3;
    result r;
    run(&one, &p, jobs, 3, &r);
    expect_job(&r, 0, 0, 3000, 1);
    expect_job(&r, 1, 60, 2060, 1);
    expect_job(&r, 2, 150, 1150, 0);
    cr_expect_eq(r.m.demotions, 3);
    cr_expect_eq(r.m.preempt_prio, 2);
    p.order = REF_DLAS;
    run(&one, &p, jobs, 3, &r);
    expect_job(&r, 0, 0, 2090, 1);
    expect_job(&r, 1, 60, 3000, 1);
    /* the trace's own distribution (three jobs of 1000 GPU-s): every a_q
     * below 900 has index 0, so qent decides as under dlas */
    p.order = REF_GITTINS;
    p.git = NULL;
    p.ngit = 0;
    run(&one, &p, jobs, 3, &r);
    expect_job(&r, 0, 0, 2090, 1);
}

/* ---- backfill=0 with step 7 ----
 * 1x1x4; dlas mlfq=400 restart=10 min_run=0. J0 (2 GPUs, 1000 s) at 0,
 * demoted at 0 + 400 / 2 = 200; J1 (4 GPUs, 100 s) at 10; J2 (1 GPU, 50
 * s) at 20. At 10 J1 fits nowhere and J0 is in its own queue: step 7
 * cannot start it either, so with backfill=0 the pass stops and J2 waits
 * although 2 GPUs are free. At 200 J0 is demoted and J1 evicts it
 * (800,000 left), 200..300; at 300 J2 and J0 start: J2 300..350, J0 ends
 * 300 + 10 + 800 = 1110. With backfill=1, J2 runs 20..70 at once. */
Test(orders, backfill_0_stops_at_step_7)
{
    static const ref_job jobs[] = {{0, 1000, 2, 0}, {10, 100, 4, 0}, {20, 50, 1, 0}};
    ref_params p;
    dlas(&p, 400);
    p.restart = 10;
    p.min_run = 0;
    p.backfill = 0;
    result r;
    run(&ONE4, &p, jobs, 3, &r);
    expect_job(&r, 0, 0, 1110, 1);
    expect_job(&r, 1, 200, 300, 0);
    expect_job(&r, 2, 300, 350, 0);
    p.backfill = 1;
    run(&ONE4, &p, jobs, 3, &r);
    expect_job(&r, 0, 0, 1110, 1);
    expect_job(&r, 1, 200, 300, 0);
    expect_job(&r, 2, 20, 70, 0);
}

/* Every order takes elastic jobs (dlas and gittins with SPEC 11.1's rules
 * under resizes: tests/unit/sim/test_elastic.c). */
Test(orders, elastic_under_every_order)
{
    tt_params p;
    tt_params_default(&p);
    tt_ctx *ctx = tt_ctx_create();
    for (int32_t o = TT_ORDER_FIFO; o <= TT_ORDER_FTF; o++) {
        p.order = o;
        p.el_up = 1;
        p.el_down = 0;
        cr_expect_eq(tt_simprep_check_params(ctx, &p, 1), 0, "order %d: %s", o, tt_errmsg(ctx));
        p.el_up = 0;
        p.el_down = 1;
        cr_expect_eq(tt_simprep_check_params(ctx, &p, 1), 0, "order %d: %s", o, tt_errmsg(ctx));
    }
    tt_ctx_free(ctx);
}

/* gittins_dist=yarn-gput1000 is data/gittins/yarn-gput1000.csv as
 * compiled in (libcore/sim/gittins_yarn.c): the same 1,001 samples, so the
 * same table as reading the file (header and CRLF line ends skipped). */
Test(orders, bundled_distribution_is_its_file)
{
    cr_expect(tt_gittins_bundled("yarn-gput1000"));
    cr_expect(!tt_gittins_bundled("trace"));
    cr_expect(!tt_gittins_bundled("./yarn-gput1000"));
    cr_expect(!tt_gittins_bundled("data/gittins/yarn-gput1000.csv"));
    static tts_gittins a, b;
    cr_assert_eq(tt_gittins_builtin(NULL, "yarn-gput1000", &a), 0);
    cr_assert_eq(tt_gittins_load(NULL, "data/gittins/yarn-gput1000.csv", &b), 0);
    cr_expect_eq(a.m, 1001);
    cr_assert_eq(a.m, b.m);
    cr_expect_eq(a.x[0], 121);
    cr_expect_eq(a.x[a.m - 1], 53294624);
    for (int32_t i = 0; i < a.m; i++)
        cr_expect_eq(a.x[i], b.x[i], "sample %d", (int)i);
    for (int32_t i = 0; i <= a.m; i++)
        cr_expect_eq(a.pre[i], b.pre[i], "prefix %d", (int)i);
    cr_expect_neq(tt_gittins_builtin(NULL, "yarn-gput5000", &a), 0);

    /* the parameter: a bundled name is no input file */
    tt_params p;
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "gittins_dist", "yarn-gput1000"), 0);
    cr_expect_null(tt_params_input(&p));
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "gittins_dist", "./yarn-gput1000"), 0);
    cr_expect_str_eq(tt_params_input(&p), "./yarn-gput1000");
}

/* ---- requeue (docs/model.md section 11, item 11) ----
 * 1x1x4, 4-GPU jobs of 1000 s, dlas mlfq=100 restart=0 min_run=0: a job
 * running alone is demoted 100 / 4 = 25 s after it starts.
 *   J0 at 0 runs, is demoted at 25 (Q1, entered 25); J1 at 30 (Q0) evicts
 *   it; J1 is demoted at 55 (entered 55); J2 at 60 evicts J1 and runs to
 *   1060 (demoted at 85; no waiter is in a lower queue). J0 and J1 then
 *   wait in Q1, each with 1000 - 30 = 970 s left.
 * keep: places 25 (J0) and 55 (J1): J0 runs 1060..2030, J1 2030..3000.
 * front: J0 was evicted at 30, J1 at 60, each after it entered Q1: the
 *   later eviction goes first, J1 1060..2030, then J0 2030..3000. */
static const ref_job RQ_JOBS[] = {{0, 1000, 4, 0}, {30, 1000, 4, 0}, {60, 1000, 4, 0}};

static void requeue_case(int front, const ref_job *jobs, result *r)
{
    ref_params p;
    dlas(&p, 100);
    p.restart = 0;
    p.min_run = 0;
    p.requeue_front = front;
    run(&ONE4, &p, jobs, 3, r);
    cr_expect_eq(r->m.demotions, 3);
    cr_expect_eq(r->m.preempt_prio, 2);
}

Test(orders, requeue_keep_and_front)
{
    result r;
    requeue_case(0, RQ_JOBS, &r);
    expect_job(&r, 0, 0, 2030, 1);
    expect_job(&r, 1, 30, 3000, 1);
    expect_job(&r, 2, 60, 1060, 0);
    requeue_case(1, RQ_JOBS, &r);
    expect_job(&r, 0, 0, 3000, 1);
    expect_job(&r, 1, 30, 2030, 1);
    expect_job(&r, 2, 60, 1060, 0);
    /* the same under fifo: no queue, so requeue reads nothing */
    ref_params p;
    dlas(&p, 100);
    p.order = REF_FIFO;
    p.requeue_front = 1;
    run(&ONE4, &p, RQ_JOBS, 3, &r);
    expect_job(&r, 1, 1000, 2000, 0);
}

/* An evicted job's place against a kept entry, at two epochs (submit
 * times may be negative: the place must come before every entry time
 * whatever their sign). 1x1x4, 4-GPU jobs of 1000 s, dlas mlfq=100:
 *   J0 at 0 is demoted at 25 and evicted at once by J1 (arrived at 25):
 *   it keeps its entry 25. J1 runs 25.., is demoted at 50 (entered 50)
 *   and evicted at 60 by J2, which runs to 1060. J0 has 975 s left, J1
 *   1000 - 35 = 965.
 * keep: J0 (25) before J1 (50): J0 1060..2035, J1 2035..3000.
 * front: J1, evicted at 60 after its entry, goes ahead of J0's kept
 *   entry: J1 1060..2025, J0 2025..3000. */
static void requeue_epoch(int64_t d)
{
    const ref_job jobs[] = {{0 + d, 1000, 4, 0}, {25 + d, 1000, 4, 0}, {60 + d, 1000, 4, 0}};
    result r;
    requeue_case(0, jobs, &r);
    expect_job(&r, 0, 0 + d, 2035 + d, 1);
    expect_job(&r, 1, 25 + d, 3000 + d, 1);
    requeue_case(1, jobs, &r);
    expect_job(&r, 0, 0 + d, 3000 + d, 1);
    expect_job(&r, 1, 25 + d, 2025 + d, 1);
    expect_job(&r, 2, 60 + d, 1060 + d, 0);
}

Test(orders, requeue_front_against_a_kept_entry_at_any_epoch)
{
    requeue_epoch(0);
    requeue_epoch(-1000000000);
}

/* A job evicted at the instant it entered its queue keeps that entry,
 * behind the queue's older waiters, as Tiresias appends a demoted job:
 *   J0 at 0 is demoted at 25 (entered 25), J1 at 10 waits in Q0 and evicts
 *   it at 25; J1 runs 25.., is demoted at 50 (entered 50), and J2 at 50
 *   evicts it at once; J2 runs 50..1050. J0 has 975 s left, J1 975 too.
 * Under both settings J0 (entered 25) goes before J1 (entered 50): J0
 * 1050..2025, J1 2025..3000. (Were J1's eviction at 50 a place ahead, J1
 * would run first.) */
Test(orders, requeue_front_demoted_at_eviction_stays_behind)
{
    static const ref_job jobs[] = {{0, 1000, 4, 0}, {10, 1000, 4, 0}, {50, 1000, 4, 0}};
    for (int front = 0; front <= 1; front++) {
        result r;
        requeue_case(front, jobs, &r);
        expect_job(&r, 0, 0, 2025, 1);
        expect_job(&r, 1, 25, 3000, 1);
        expect_job(&r, 2, 50, 1050, 0);
    }
}

/* ---- prio_victims (docs/model.md section 11, item 12) ----
 * 1x1x4, dlas mlfq=100 restart=10 min_run=0 w0=w1=0. J0 (3 GPUs, 1000 s) and J1
 * (1 GPU, 1000 s) start at 0; J0 is demoted at ceil(100 / 3) = 34, J1 at
 * 100, both to Q1 (J0 ahead: entered 34 < 100). J2 (2 GPUs, 100 s) comes
 * at 200 to Q0 with no GPU free.
 * lowest: victims from the back, J1 (1 GPU, 1 short of 2) then J0: both
 *   are evicted, J2 runs 200..300, and J1 fits the 2 GPUs left at once:
 *   200 + 10 + 800 = 1010. J0 waits for J2's end: 300 + 10 + 800 = 1110.
 *   restart_gpu_s 1 x 10 + 3 x 10 = 40.
 * refill: cap = (0 free + 3 + 1) - 2 = 2; J0 first, 3 > 2: evicted; J1,
 *   1 <= 2: kept, and ends at 1000. (Tiresias's greedy pass at 200: J2
 *   takes 2 of 4, J0 does not fit the 2 left, J1 does.) J2 runs from 200
 *   and is demoted at 200 + 100 / 2 = 250 into Q1, behind J0 (entered 34):
 *   J0's candidates are J2 (same queue, entered now): cap = 1 free + 2 - 3
 *   = 0, so J2 is evicted (50 s left) and J0 runs 250 + 10 + 800 = 1060.
 *   J2 waits for 2 GPUs: 1060 + 10 + 50 = 1120. preempt_prio 2,
 *   restart_gpu_s 3 x 10 + 2 x 10 = 50. */
Test(orders, prio_victims_lowest_and_refill)
{
    static const ref_job jobs[] = {{0, 1000, 3, 0}, {0, 1000, 1, 0}, {200, 100, 2, 0}};
    for (int refill = 0; refill <= 1; refill++) {
        ref_params p;
        dlas(&p, 100);
        p.restart = 10;
        p.min_run = 0;
        p.prio_refill = refill;
        p.w0 = p.w1 = 0; /* L2 at once: step 7's rule for L2 (the refill's) */
        result r;
        run(&ONE4, &p, jobs, 3, &r);
        expect_job(&r, 0, 0, refill ? 1060 : 1110, 1);
        expect_job(&r, 1, 0, refill ? 1000 : 1010, refill ? 0 : 1);
        expect_job(&r, 2, 200, refill ? 1120 : 300, refill);
        cr_expect_eq(r.m.preempt_prio, 2);
        cr_expect_eq(r.m.restart_gpu_s, refill ? 50 : 40);
        cr_expect_eq(r.m.demotions, 3);
    }
}
