/* Elastic jobs (docs/model.md section 10) in the engine: the scenarios of
 * 10.10 worked by hand (A: grow and reclaim, B: start smaller, and their
 * variants), the size rules (gpus_min, gpus_max, the el_frac hash), and
 * invariants on random cases with elasticity on: no node given more GPUs
 * than it has, every job ends once, JCT >= ceil(duration x s_sc(kmax) /
 * 1000), and the resize bound of 10.12. */
#include "ecase.h"

/* ---- scenario A: grow and reclaim (10.10) ---- */

static void scen_a(ecase *k)
{
    ecase_init(k, 1, 1, 8);
    k->p.el_up = 2;
    ejob(k, 0, 1000, 2, 1);
    ejob(k, 100, 200, 4, 0);
}

Test(elastic, scenario_a)
{
    ecase k;
    tt_job_result out[2];
    tt_metrics m;
    scen_a(&k);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 365);
    cr_expect_eq(out[1].start, 100);
    cr_expect_eq(out[1].end, 300);
    cr_expect_eq(m.resizes, 2);
    cr_expect_eq(m.grows, 1);
    cr_expect_eq(m.shrinks, 1);
    cr_expect_eq(m.resize_gpu_s, 120);
    cr_expect_eq(m.restart_gpu_s, 120);
    cr_expect_eq(m.loan_gpu_s, 1390);
    cr_expect_eq(m.placed_l0, 2);
    cr_expect_eq(m.preemptions, 0);
    /* GPU-seconds held at the sizes held (SPEC 10.5, las's key): J0 8 GPUs
     * 0..100, 4 100..300, 8 300..365 */
    cr_expect_eq(out[0].gpu_s, 8 * 100 + 4 * 200 + 8 * 65);
    cr_expect_eq(out[1].gpu_s, 4 * 200);
}

Test(elastic, scenario_a_gap)
{
    ecase k;
    tt_job_result out[2];
    tt_metrics m;
    scen_a(&k);
    k.p.resize_gap = 300;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 410);
    cr_expect_eq(m.resizes, 1);
    cr_expect_eq(m.resize_gpu_s, 40);
    cr_expect_eq(m.loan_gpu_s, 1220);
}

Test(elastic, scenario_a_term)
{
    ecase k;
    tt_job_result out[2];
    tt_metrics m;
    scen_a(&k);
    k.p.resize = TT_RESIZE_TERM;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 395);
    cr_expect_eq(m.resize_gpu_s, 360);
    cr_expect_eq(m.placed_l0, 4);
    cr_expect_eq(m.loan_gpu_s, 1570);
}

Test(elastic, scenario_a_fixed)
{
    ecase k;
    tt_job_result out[2];
    tt_metrics m;
    scen_a(&k);
    k.p.el_up = 0;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 1000);
    cr_expect_eq(out[1].start, 100);
    cr_expect_eq(out[1].end, 300);
    cr_expect_eq(m.resizes, 0);
    cr_expect_eq(m.loan_gpu_s, 0);
}

/* ---- scenario B: start smaller (10.10) ---- */

static void scen_b(ecase *k)
{
    ecase_init(k, 1, 2, 4);
    k->p.el_down = 1;
    ejob(k, 0, 600, 4, 0);
    ejob(k, 0, 300, 2, 0);
    ejob(k, 0, 400, 4, 1);
}

Test(elastic, scenario_b)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    scen_b(&k);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 600);
    cr_expect_eq(out[1].end, 300);
    cr_expect_eq(out[2].start, 0);
    cr_expect_eq(out[2].end, 560);
    cr_expect_float_eq(m.jct_mean, 1460.0 / 3, 1e-9);
    cr_expect_eq(m.resizes, 1);
    cr_expect_eq(m.grows, 1);
    cr_expect_eq(m.resize_gpu_s, 40);
    cr_expect_eq(m.loan_gpu_s, 0);
}

Test(elastic, scenario_b_fixed)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    scen_b(&k);
    k.p.el_down = 0;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].start, 300);
    cr_expect_eq(out[2].end, 700);
    cr_expect_float_eq(m.jct_mean, 1600.0 / 3, 1e-9);
}

Test(elastic, scenario_b_term)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    scen_b(&k);
    k.p.resize = TT_RESIZE_TERM;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].end, 580);
    cr_expect_eq(m.placed_l0, 4);
}

/* ---- the size rules (10.1) ---- */

/* gpus_min and gpus_max bound the sizes: scenario A's J0 with gpus_max 4
 * grows once (to 4, no loan beyond it), and with gpus_min 4 cannot start
 * smaller in scenario B. */
Test(elastic, gpus_min_max)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    scen_a(&k);
    k.bounds = 1;
    k.gmax[0] = 4;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    /* 0..100 at 4 (s 500): 200,000 done; J1 takes the other 4 */
    cr_expect_eq(m.shrinks, 0);
    cr_expect_eq(m.loan_gpu_s, 2 * out[0].end);
    cr_expect_eq(out[1].start, 100);
    scen_b(&k);
    k.bounds = 1;
    k.gmin[2] = 4;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].start, 300);
    cr_expect_eq(out[2].end, 700);
    k.gmin[2] = -1;
    k.gmax[2] = 2; /* never removes k0: B as before */
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].end, 560);
}

/* Where the trace says -1 (or has no column), el_frac draws who is
 * elastic from its own hash stream: 0 none, 1000 all. */
Test(elastic, el_frac_hash)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    scen_b(&k);
    k.elastic[2] = -1;
    k.p.el_frac = 0;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].end, 700);
    k.p.el_frac = 1000;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[2].end, 560);
    /* about el_frac permille of 1000 hashed jobs */
    tts_trace tr;
    tts_config cf;
    memset(&tr, 0, sizeof tr);
    memset(&cf, 0, sizeof cf);
    cf.seed = 1;
    cf.el_frac = 300;
    int64_t on = 0;
    for (int64_t i = 0; i < 1000; i++)
        on += tts_el_drawn(&tr, &cf, i);
    cr_expect(on > 250 && on < 350, "%lld of 1000 elastic at el_frac 300", (long long)on);
}

/* A resize inside an overhead carries what is unpaid (10.12): J0 grows
 * at its start, is shrunk at 20 (r = C = 5) and grows again at 22, 3 s
 * of that overhead unpaid: the new segment pays 5 + 3. */
Test(elastic, resize_inside_overhead)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    ecase_init(&k, 1, 1, 8);
    k.p.el_up = 1;
    k.p.resize_cost = 5;
    ejob(&k, 0, 1000, 4, 1);
    ejob(&k, 20, 2, 4, 0);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    /* t=0: J0 at 4 grows to 8 (gain 500). t=20: J1 reclaims 4: J0 shrinks,
     * w = 1,000,000 - 20 x 2000 = 960,000, r = 5. t=22: J1 ends; J0 is in
     * its overhead (no work done), gain 480 - 5: it grows, r = 5 + 3, and
     * ends at 22 + 8 + 480. */
    cr_expect_eq(out[1].end, 22);
    cr_expect_eq(out[0].end, 510);
    cr_expect_eq(m.resizes, 2);
    cr_expect_eq(m.resize_gpu_s, 4 * 2 + 8 * 8);
    cr_expect_eq(m.restart_gpu_s, m.resize_gpu_s);
}

/* backfill=0: no grow while a job waits; the grow comes when the queue
 * empties. */
Test(elastic, backfill_off_grow_phase)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    ecase_init(&k, 1, 2, 4);
    k.p.backfill = 0;
    k.p.el_up = 1;
    ejob(&k, 0, 400, 4, 0);
    ejob(&k, 0, 1000, 2, 1);
    ejob(&k, 0, 100, 8, 0); /* waits for both nodes */
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    /* t=0: J0 node 0, J1 node 1 (2 GPUs), J2 waits: no grow for J1 (a
     * grow at its start would be no resize, but a loan) */
    cr_expect_eq(m.loan_gpu_s, 0);
    cr_expect_eq(out[1].end, 1000);
    cr_expect_eq(out[2].start, 1000);
    k.p.backfill = 1;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(m.grows, 0);
    cr_expect_eq(out[1].end, 500);
    cr_expect_eq(m.loan_gpu_s, 2 * 500);
}

/* ---- a shrink that gives back more loaned entries than half the GPUs ----
 * 1x8x1 (a GPU a node), jobs of `lin`, el_up = 3, w0 = 30, w1 = 300,
 * C = 0, restart 0, resize_gap 300. j0 (60, 10 s, 1 GPU, rigid) runs
 * 60..70. j1 (80, 1000 s, k0 = 2) starts on nodes 0, 1 and grows at once
 * to 4 and 8 (L0: whole nodes of one rack; gains 500 and 250): it holds 6
 * loaned entries. At 100 j2 (k0 = 1, 50 s) and j3 (k0 = 2, 1000 s)
 * arrive: j2 reclaims node 2 for L0, so j1 halves to 4 (nodes 7..4) and
 * again to 2 (nodes 3, 2); j3 takes nodes 3, 4. The grow phase: j3 to 4
 * (score 500 x 1000 / 2 beats j1's 460 x 1000 / 2), then j2 to 2 on node
 * 7. j1 has done 20 s x 4 = 80 s: at 2 GPUs it would end at 100 + 920 =
 * 1020. j2 ends at 125, j3 at 600. j1's resize_gap ends at 400: it grows
 * to 4 on nodes 2, 7 (620 s left, ends 400 + 310) and at 700 to 8 (20 s
 * left at 4: ends 700 + 5 = 705). The first shrink writes two ints a
 * loaned entry (12) into a scratch array once sized by the GPUs (8): it
 * overwrote the timer cursors and j1 never grew again (ended at 1020). */
Test(elastic, shrink_of_many_loaned_entries)
{
    ecase k;
    tt_job_result out[4];
    tt_metrics m;
    ecase_init(&k, 1, 8, 1);
    k.p.el_up = 3;
    k.p.w0 = 30;
    k.p.w1 = 300;
    k.p.resize_cost = 0;
    k.p.restart = 0;
    k.p.resize_gap = 300;
    ejob(&k, 60, 10, 1, 0);
    ejob(&k, 80, 1000, 2, 1);
    ejob(&k, 100, 50, 1, 1);
    ejob(&k, 100, 1000, 2, 1);
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[0].end, 70);
    cr_expect_eq(out[1].end, 705, "j1 ends at %lld", (long long)out[1].end);
    cr_expect_eq(out[2].end, 125);
    cr_expect_eq(out[3].end, 600);
    cr_expect_eq(m.resizes, 3);
    cr_expect_eq(m.grows, 2);
    cr_expect_eq(m.shrinks, 1);
}

/* An elastic job with loans is evicted whole: loans go back with it and
 * it waits at k0. */
Test(elastic, eviction)
{
    ecase k;
    tt_job_result out[3];
    tt_metrics m;
    tts_seglog L;
    static tts_segment seg[64];
    static int32_t alloc[1024];
    memset(&L, 0, sizeof L);
    L.seg = seg;
    L.cap = 64;
    L.alloc = alloc;
    L.alloc_cap = 1024;
    ecase_init(&k, 1, 1, 8);
    k.slow_l2 = 2000;
    k.p.el_up = 1;
    k.p.theta = 1500; /* every job sensitive: none evictable */
    k.p.w0 = 0;
    k.p.min_run = 0;
    ejob(&k, 0, 1000, 4, 1);
    ejob(&k, 10, 100, 8, 0);
    cr_assert_eq(erun(&k, out, &m, &L), 0);
    /* sensitive jobs are never evicted: J1 reclaims the 4 loaned GPUs and
     * waits for the other 4 */
    cr_expect_eq(m.preemptions, 0);
    k.p.theta = TT_INF;
    k.slow_l2 = 1000;
    cr_assert_eq(erun(&k, out, &m, NULL), 0);
    cr_expect_eq(out[1].start, 500);
}

/* ---- dlas and gittins with resizes (SPEC 11.1: a_q at the sizes held,
 * the demotion re-armed at each resize) ---- */

/* Three jobs (submit, duration, gpus, elastic) on 1 node of g GPUs under
 * dlas and then gittins, mlfq=1000, el_up=1, min_run=0, C=10, R=30 (one
 * waiter at a time, so Gittins's index orders nothing here). want: J0's
 * end and gpu_s, J2's start and end, demotions, priority evictions,
 * resizes, grows, shrinks, resize_gpu_s, restart_gpu_s (the restart and
 * resize shares; a restart's R is no resize). */
static void mlfq_check(int32_t g, const int64_t jobs[3][4], const int64_t want[11])
{
    for (int32_t o = TT_ORDER_DLAS; o <= TT_ORDER_GITTINS; o++) {
        ecase k;
        tt_job_result out[3];
        tt_metrics m;
        ecase_init(&k, 1, 1, g);
        k.p.el_up = 1;
        k.p.min_run = 0;
        k.p.order = o;
        k.p.nmlfq = 1;
        k.p.mlfq[0] = 1000;
        for (int j = 0; j < 3; j++)
            ejob(&k, jobs[j][0], jobs[j][1], (int32_t)jobs[j][2], (int)jobs[j][3]);
        cr_assert_eq(erun(&k, out, &m, NULL), 0);
        int64_t got[11] = {out[0].end,   out[0].gpu_s,   out[2].start,   out[2].end,
                           m.demotions,  m.preempt_prio, m.resizes,      m.grows,
                           m.shrinks,    m.resize_gpu_s, m.restart_gpu_s};
        for (int x = 0; x < 11; x++)
            cr_expect_eq(got[x], want[x], "order %d, value %d: %lld, not %lld", o, x,
                         (long long)got[x], (long long)want[x]);
    }
}

/* A grow mid-quantum brings the demotion forward. 1x1x8. J0 elastic (2
 * GPUs, 1000 s), J1 (6 GPUs, 100 s) at 0; J2 (8 GPUs, 50 s) at 200.
 * - 0: J0 starts at 2 (s = 1000, ends at 1000), J1 takes the other 6; no
 *   GPU left to grow. Demotion armed at 0 + ceil(1000 / 2) = 500.
 * - 100: J1 ends. J0 has w = 900,000, gain 900,000 x (1000 - 500) / 10^6
 *   - 10 = 440: it grows to 4 (r = 10, s = 500, end 100 + 10 + 450 = 560).
 *   a_q = 2 x 100 = 200, so the demotion moves to 100 + ceil(800 / 4) =
 *   300 (at size 2 it would have stayed at 500).
 * - 200: J2 (Q0) waits: J0 is in Q0 too (a_q 600), 4 free + 2 loaned < 8.
 * - 300: J0's a_q = 200 + 4 x 200 = 1000: demoted to Q1, and J2 evicts it
 *   (done = (200 - 10) x 10^6 / 500 = 380,000; w = 520,000). J2 300..350.
 * - 350: J0 restarts at 2 and grows at once to 4 (gain 260, paid with the
 *   start): r = 30, s = 500, end 350 + 30 + 260 = 640.
 * gpu_s of J0: 2 x 100 + 4 x 200 + 4 x 290 = 2160; one resize, a grow;
 * resize_gpu_s 4 x 10, restart_gpu_s that and the restart's 4 x 30. */
Test(elastic, mlfq_grow_demotes_earlier)
{
    static const int64_t jobs[3][4] = {{0, 1000, 2, 1}, {0, 100, 6, 0}, {200, 50, 8, 0}};
    static const int64_t want[11] = {640, 2160, 300, 350, 1, 1, 1, 1, 0, 40, 160};
    mlfq_check(8, jobs, want);
}

/* A shrink puts the demotion off. 1x1x4. J0 elastic (2 GPUs, 1000 s) at
 * 0; J1 (2 GPUs, 300 s) at 100; J2 (4 GPUs, 50 s) at 300.
 * - 0: J0 starts at 2 and grows at once to 4 (one start: s = 500, end
 *   500). Demotion at ceil(1000 / 4) = 250.
 * - 100: J1 reclaims J0's 2 loaned GPUs: J0 halves to 2 (done 200,000, w
 *   = 800,000; r = 10, s = 1000, end 910) and J1 runs 100..400. a_q =
 *   400, so the demotion moves to 100 + ceil(600 / 2) = 400 (at size 4 it
 *   would have come at 250).
 * - 300: J2 (Q0) waits: J0 and J1 are in Q0 (J0's a_q 800), nothing is
 *   loaned.
 * - 400: J1 ends; J0's a_q = 400 + 2 x 300 = 1000: demoted to Q1, and J2
 *   evicts it (done = 290,000; w = 510,000). J2 400..450.
 * - 450: J0 restarts at 2 and grows to 4 (gain 255): r = 30, s = 500, end
 *   450 + 30 + 255 = 735.
 * gpu_s of J0: 4 x 100 + 2 x 300 + 4 x 285 = 2140; one resize, a shrink;
 * resize_gpu_s 2 x 10, restart_gpu_s that and the restart's 4 x 30. */
Test(elastic, mlfq_shrink_demotes_later)
{
    static const int64_t jobs[3][4] = {{0, 1000, 2, 1}, {100, 300, 2, 0}, {300, 50, 4, 0}};
    static const int64_t want[11] = {735, 2140, 400, 450, 1, 1, 1, 0, 1, 20, 140};
    mlfq_check(4, jobs, want);
}

/* ---- invariants on random cases with elasticity on ---- */

static uint64_t mix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int64_t rpick(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(mix64(s) % (uint64_t)(hi - lo + 1));
}

static void random_case(ecase *k, uint64_t seed)
{
    static const int32_t gs[] = {2, 4, 8};
    uint64_t s = seed * 7919 + 17;
    ecase_init(k, (int32_t)rpick(&s, 1, 2), (int32_t)rpick(&s, 1, 3), gs[rpick(&s, 0, 2)]);
    int32_t all = k->c.racks * k->c.nodes_per_rack * k->c.gpus_per_node;
    k->p.el_up = rpick(&s, 0, 2);
    k->p.el_down = rpick(&s, 0, 2);
    if (k->p.el_up + k->p.el_down == 0)
        k->p.el_up = 1;
    k->p.el_frac = rpick(&s, 0, 1000);
    k->p.resize = (int32_t)rpick(&s, 0, 1);
    k->p.resize_cost = rpick(&s, 0, 30);
    k->p.resize_gap = rpick(&s, 0, 2) * 150;
    k->p.backfill = (int32_t)rpick(&s, 0, 1);
    k->p.w0 = rpick(&s, 0, 1) ? TT_INF : rpick(&s, 0, 200);
    k->p.w1 = rpick(&s, 0, 1) ? TT_INF : rpick(&s, 0, 200);
    k->p.theta = rpick(&s, 0, 2) ? TT_INF : 1300;
    k->p.min_run = rpick(&s, 0, 100);
    k->p.order = (int32_t)rpick(&s, 0, 3);
    k->slow_l1 = rpick(&s, 1000, 1400);
    k->slow_l2 = k->slow_l1 + rpick(&s, 0, 600);
    int64_t n = rpick(&s, 2, EMAXJ), t = 0;
    k->bounds = (int)rpick(&s, 0, 1);
    for (int64_t i = 0; i < n; i++) {
        t += rpick(&s, 0, 2) ? rpick(&s, 0, 100) : 0;
        int32_t g = (int32_t)1 << rpick(&s, 0, 3);
        if (g > all)
            g = all;
        ejob(k, t, rpick(&s, 1, 500), rpick(&s, 0, 5) ? g : (int32_t)rpick(&s, 1, all),
             (int)rpick(&s, -1, 1));
        k->gmin[i] = rpick(&s, 0, 3) ? -1 : (int32_t)rpick(&s, 1, 4);
        k->gmax[i] = rpick(&s, 0, 3) ? -1 : (int32_t)rpick(&s, 1, 16);
    }
}

/* sp(k) of `lin`, as tts_sp computes it (4 values: beyond 8 the last
 * slope). */
static int64_t lin_sp(int64_t k) { return k <= 8 ? 1000 * k : 8000 + 4000 * (k - 8) / 4; }

/* Runs random case seed (under dlas or gittins when mlfq, with random
 * thresholds, promotion and priority preemption) and checks the
 * invariants; adds to runs and resized. */
static void check_random(uint64_t seed, int mlfq, int64_t *runs, int64_t *resized)
{
    static tts_segment seg[4096];
    static int32_t alloc[65536];
    ecase k;
    random_case(&k, seed);
    if (mlfq) {
        uint64_t s = seed * 104729 + 3;
        k.p.order = (int32_t)rpick(&s, TT_ORDER_DLAS, TT_ORDER_GITTINS);
        k.p.nmlfq = (int32_t)rpick(&s, 1, 3);
        for (int32_t q = 0; q < k.p.nmlfq; q++)
            k.p.mlfq[q] = (q ? k.p.mlfq[q - 1] : 0) + rpick(&s, 1, 1500);
        k.p.promote = rpick(&s, 0, 1) ? 0 : rpick(&s, 1, 4000);
        k.p.prio_preempt = (int32_t)rpick(&s, 0, 3) > 0;
        k.p.gittins_delta = rpick(&s, 1, 2000);
        k.p.max_preempt = rpick(&s, 0, 1) ? k.p.max_preempt : rpick(&s, 0, 3);
    }
    tts_seglog L;
    memset(&L, 0, sizeof L);
    L.seg = seg;
    L.cap = 4096;
    L.alloc = alloc;
    L.alloc_cap = 65536;
    tt_job_result out[EMAXJ];
    tt_metrics m;
    cr_assert_eq(erun(&k, out, &m, &L), 0, "seed %llu", (unsigned long long)seed);
    cr_assert(!L.overflow);
    (*runs)++;
    *resized += m.resizes > 0;
    int32_t G = k.c.gpus_per_node, nodes = k.c.racks * k.c.nodes_per_rack;
    /* every accepted job ends once, all its work done, no sooner than
     * its fastest size allows */
    for (int64_t i = 0; i < k.n; i++) {
        int ends = 0;
        int64_t done = 0;
        for (int64_t q = 0; q < L.n; q++)
            if (seg[q].job == i) {
                ends += seg[q].completed;
                done += seg[q].done;
            }
        if (out[i].rejected) {
            cr_expect_eq(ends, 0);
            continue;
        }
        cr_expect_eq(ends, 1, "seed %llu job %lld ends %d times", (unsigned long long)seed,
                     (long long)i, ends);
        cr_expect_eq(done, k.duration[i] * 1000, "seed %llu job %lld: work %lld",
                     (unsigned long long)seed, (long long)i, (long long)done);
        int64_t kmax = (int64_t)k.gpus[i] << k.p.el_up; /* at most: the weakest bound */
        int64_t ssc = 1000 * lin_sp(k.gpus[i]) / lin_sp(kmax);
        cr_expect_geq(out[i].end - out[i].submit, (k.duration[i] * ssc + 999) / 1000,
                      "seed %llu job %lld", (unsigned long long)seed, (long long)i);
    }
    /* a job's gpu_s (las's key) is its segments' GPUs x held */
    int64_t seg_gs = 0, job_gs = 0;
    for (int64_t q = 0; q < L.n; q++)
        for (int64_t e = 0; e < seg[q].alloc_n; e++)
            seg_gs += alloc[seg[q].alloc_off + 2 * e + 1] * (seg[q].t1 - seg[q].t0);
    for (int64_t i = 0; i < k.n; i++)
        job_gs += out[i].rejected ? 0 : out[i].gpu_s;
    cr_expect_eq(job_gs, seg_gs, "seed %llu", (unsigned long long)seed);
    /* no node holds more than G GPUs at any instant: at each segment
     * start, the segments covering it */
    for (int64_t a = 0; a < L.n; a++) {
        int64_t t = seg[a].t0;
        int32_t held[64] = {0};
        cr_assert(nodes <= 64);
        for (int64_t q = 0; q < L.n; q++) {
            if (!(seg[q].t0 <= t && t < seg[q].t1))
                continue;
            for (int64_t e = 0; e < seg[q].alloc_n; e++)
                held[alloc[seg[q].alloc_off + 2 * e]] += alloc[seg[q].alloc_off + 2 * e + 1];
        }
        for (int32_t x = 0; x < nodes; x++)
            cr_expect_leq(held[x], G, "seed %llu: node %d holds %d at %lld",
                          (unsigned long long)seed, x, held[x], (long long)t);
    }
    /* 10.12: resizes <= S + (starts + S) x (el_up + el_down); S, the
     * (job, time) pairs with a shrink, is at least the resizes that
     * did not grow (a size only goes down by a shrink) */
    int64_t starts = 0;
    for (int64_t i = 0; i < k.n; i++)
        starts += out[i].starts[0] + out[i].starts[1] + out[i].starts[2];
    if (k.p.resize == TT_RESIZE_TERM)
        starts -= m.resizes; /* resizes count as placements under term */
    int64_t S = m.resizes - m.grows;
    cr_expect_leq(m.resizes, S + (starts + S) * (k.p.el_up + k.p.el_down), "seed %llu",
                  (unsigned long long)seed);
    cr_expect_leq(m.resize_gpu_s, m.restart_gpu_s);
}

/* 400 random cases (mlfq: under dlas and gittins), a tenth of them at
 * least with a resize. */
static void random_runs(int mlfq)
{
    int64_t runs = 0, resized = 0;
    for (uint64_t seed = 1; seed <= 400; seed++)
        check_random(seed, mlfq, &runs, &resized);
    cr_expect_gt(resized, runs / 10, "only %lld of %lld runs resized", (long long)resized,
                 (long long)runs);
}

Test(elastic, random_invariants) { random_runs(0); }

/* The same under dlas and gittins: queues, demotions at the sizes held,
 * promotions and priority evictions with resizes beside them. */
Test(elastic, random_invariants_mlfq) { random_runs(1); }
