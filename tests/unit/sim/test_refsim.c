/* The reference simulator (tests/refsim): hand-computed scenarios for every
 * rule of SPEC section 6, and randomized runs checked against the
 * invariants of section 7. */
#include "refcase.h"

Test(refsim, defaults)
{
    ref_params p;
    ref_params_default(&p);
    cr_expect_eq(p.order, REF_FIFO);
    cr_expect_eq(p.w0, REF_INF);
    cr_expect_eq(p.w1, REF_INF);
    cr_expect_eq(p.theta, REF_INF);
    cr_expect_eq(p.restart, 30);
    cr_expect_eq(p.congestion, 0);
    cr_expect_eq(p.min_run, 300);
    cr_expect_eq(p.max_preempt, 3);
    cr_expect_eq(p.backfill, 1);
    cr_expect_eq(p.load, 1000);
}

/* Orders. One node of 4 GPUs, every job 4 GPUs, so jobs run one at a time
 * in the order the policy picks. theta = 2000, w0 = 0, min_run = 0,
 * restart = 10.
 *   J0 t=0 d=100 m0: starts 0.
 *   J1 t=10 d=20 m2 (sensitive): evicts J0 at 10 (held 10 >= 0): J0 did
 *      10 s = 10000 milli, keeps 90000; attained 4 x 10 = 40. J1 10 -> 30.
 *   J2 t=20 d=95, J3 t=25 d=60: wait.
 * At 30 the queue is J0 (remaining 90 s, duration 100, attained 40), J2
 * (95, 95, 0), J3 (60, 60, 0). J0 restarts with r = 10: 10 + 90 = 100 s.
 *   fifo J0 J2 J3: J0 30->130, J2 130->225, J3 225->285
 *   sjf  J3 J2 J0: J3 30->90, J2 90->185, J0 185->285
 *   srtf J3 J0 J2: J3 30->90, J0 90->190, J2 190->285
 *   las  J2 J3 J0: J2 30->125, J3 125->185, J0 185->285 */
static const ref_job ORDER_JOBS[] = {
    {0, 100, 4, 0}, {10, 20, 4, 2}, {20, 95, 4, 0}, {25, 60, 4, 0}};

static void order_case(int order, const int64_t end[4], const int64_t start23[2])
{
    ref_cluster c = {1, 1, 4};
    ref_params p;
    ref_params_default(&p);
    p.order = order;
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 10;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, ORDER_JOBS, 4, o, &m, &log);
    expect_times(o, 0, 0, end[0]);
    expect_times(o, 1, 10, 30);
    expect_times(o, 2, start23[0], end[2]);
    expect_times(o, 3, start23[1], end[3]);
    cr_expect_eq(o[0].preemptions, 1);
    cr_expect_eq(m.preemptions, 1);
    cr_expect_eq(m.restart_gpu_s, 40); /* 4 GPUs x 10 s */
    cr_expect_eq(m.makespan, 285);
    /* J0's two segments: 4 x 10 + 4 x 100 */
    cr_expect_eq(o[0].used_gpu_s, 440);
    ref_log_free(&log);
}

Test(refsim, order_fifo)
{
    int64_t e[4] = {130, 30, 225, 285}, s[2] = {130, 225};
    order_case(REF_FIFO, e, s);
}

Test(refsim, order_sjf)
{
    int64_t e[4] = {285, 30, 185, 90}, s[2] = {90, 30};
    order_case(REF_SJF, e, s);
}

Test(refsim, order_srtf)
{
    int64_t e[4] = {190, 30, 285, 90}, s[2] = {190, 30};
    order_case(REF_SRTF, e, s);
}

Test(refsim, order_las)
{
    int64_t e[4] = {285, 30, 125, 185}, s[2] = {30, 125};
    order_case(REF_LAS, e, s);
}

/* Orders without preemption: 1 node x 4 GPUs, default parameters.
 *   J0 t=0 d=100 k=4: 0 -> 100. J1 t=10 d=50 k=2, J2 t=20 d=10 k=2,
 *   J3 t=30 d=5 k=2 wait. At 100:
 *   fifo: J1 100->150, J2 100->110; J3 at 110 -> 115.
 *   sjf:  J3 100->105, J2 100->110; J1 at 105 -> 155. */
Test(refsim, order_fifo_vs_sjf_plain)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 100, 4, 0}, {10, 50, 2, 0}, {20, 10, 2, 0}, {30, 5, 2, 0}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 4, o, &m, &log);
    expect_times(o, 0, 0, 100);
    expect_times(o, 1, 100, 150);
    expect_times(o, 2, 100, 110);
    expect_times(o, 3, 110, 115);
    /* JCT 100, 140, 90, 85: mean 415 / 4; sorted 85 90 100 140 */
    cr_expect_eq(m.jct_mean, 415.0 / 4.0);
    cr_expect_eq(m.jct_p50, 90);
    cr_expect_eq(m.jct_p90, 140);
    /* queue 0, 90, 80, 80 */
    cr_expect_eq(m.queue_mean, 250.0 / 4.0);
    cr_expect_eq(m.queue_p99, 90);
    p.order = REF_SJF;
    run(&c, &p, jobs, 4, o, &m, &log);
    expect_times(o, 1, 105, 155);
    expect_times(o, 2, 100, 110);
    expect_times(o, 3, 100, 105);
    ref_log_free(&log);
}

/* One node (k <= G): the node with the fewest free GPUs that fits, lowest
 * index on ties. 1 rack x 3 nodes x 4 GPUs, all at t=0, d=100:
 *   J0 k=2: free 4 4 4 -> node 0 (tie)       -> 2 4 4
 *   J1 k=3: fits 1, 2 (4 each) -> node 1      -> 2 1 4
 *   J2 k=1: fewest that fits: node 1 (1)      -> 2 0 4
 *   J3 k=2: node 0 (2) beats node 2 (4)       -> 0 0 4
 *   J4 k=4: node 2                             -> 0 0 0 */
Test(refsim, place_one_node_best_fit)
{
    ref_cluster c = {1, 3, 4};
    ref_job jobs[] = {{0, 100, 2, 0}, {0, 100, 3, 0}, {0, 100, 1, 0}, {0, 100, 2, 0},
                      {0, 100, 4, 0}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[5];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 5, o, &m, &log);
    const int32_t a0[] = {2, 0, 0}, a1[] = {0, 3, 0}, a2[] = {0, 1, 0}, a3[] = {2, 0, 0},
                  a4[] = {0, 0, 4};
    expect_alloc(&log, 0, 0, a0);
    expect_alloc(&log, 1, 0, a1);
    expect_alloc(&log, 2, 0, a2);
    expect_alloc(&log, 3, 0, a3);
    expect_alloc(&log, 4, 0, a4);
    for (int i = 0; i < 5; i++) {
        expect_times(o, i, 0, 100);
        cr_expect_eq(o[i].last_level, 0);
    }
    cr_expect_eq(m.placed_l0, 5);
    cr_expect_eq(m.util, 1200.0 / 1200.0); /* 12 GPUs x 100 s of 12 x 100 */
    ref_log_free(&log);
}

/* n_min nodes in one rack (k > G). 2 racks x 3 nodes x 4 GPUs.
 * t=0: J0..J3 k=4 d=50 take nodes 0..3 in turn (best fit, ties lowest);
 *   J4 k=2 d=1000: nodes 4, 5 free (4) -> node 4 (free 2);
 *   J5 k=3 d=1000: node 4 has 2 < 3 -> node 5 (free 1).
 * t=50: J0..J3 end: free 4 4 4 | 4 2 1; rack 0 has 12, rack 1 has 7.
 * J6 t=60 k=5 (a=1, b=1): both racks fit; fewest free: rack 1. Whole free
 *   nodes in index order: node 3; best fit for 1 among nodes 4 (2), 5 (1):
 *   node 5. L0, 60 -> 160.
 * J7 t=61 k=8 (a=2, b=0): rack 1 has no whole node; rack 0: nodes 0, 1
 *   (index order). 61 -> 161. */
Test(refsim, place_nmin_nodes_one_rack)
{
    ref_cluster c = {2, 3, 4};
    ref_job jobs[] = {{0, 50, 4, 0},   {0, 50, 4, 0},   {0, 50, 4, 0},
                      {0, 50, 4, 0},   {0, 1000, 2, 0}, {0, 1000, 3, 0},
                      {60, 100, 5, 1}, {61, 100, 8, 1}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[8];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 8, o, &m, &log);
    const int32_t a4[] = {0, 0, 0, 0, 2, 0}, a5[] = {0, 0, 0, 0, 0, 3},
                  a6[] = {0, 0, 0, 4, 0, 1}, a7[] = {4, 4, 0, 0, 0, 0};
    expect_alloc(&log, 4, 0, a4);
    expect_alloc(&log, 5, 0, a5);
    expect_alloc(&log, 6, 0, a6);
    expect_alloc(&log, 7, 0, a7);
    expect_times(o, 6, 60, 160);
    expect_times(o, 7, 61, 161);
    cr_expect_eq(o[6].last_level, 0);
    cr_expect_eq(o[7].last_level, 0);
    cr_expect_eq(m.placed_l0, 8);
    ref_log_free(&log);
}

/* The fill used by the L1 / L2 / strict-vs-no-wait cases. 2 racks x 3 nodes
 * x 4 GPUs; every fill job is m0 and submitted at 0; best fit places:
 *   J0 k=2 d=1000 node 0, J1 k=2 d=50 node 0, J2 k=3 d=1000 node 1,
 *   J3 k=1 d=50 node 1, J4/J5 (2, 1000 / 2, 50) node 2, J6/J7 node 3,
 *   J8/J9 node 4, J10/J11 node 5.
 * At 50 the short ones end: free 2 1 2 | 2 2 2 (rack 0: 5, rack 1: 6).
 * J12 arrives at 60. */
static void fill_jobs(ref_job *jobs)
{
    const int32_t k[12] = {2, 2, 3, 1, 2, 2, 2, 2, 2, 2, 2, 2};
    for (int i = 0; i < 12; i++) {
        jobs[i].submit = 0;
        jobs[i].duration = i % 2 ? 50 : 1000;
        jobs[i].gpus = k[i];
        jobs[i].model = 0;
    }
}

/* L1: J12 k=3 m1 d=100, w0=0 (L1 at once), w1=inf. No node has 3 free: no
 * L0. L1: racks that fit: 0 (5), 1 (6); fewest free: rack 0. Most free
 * first: node 0 (2), then node 2 (2, tie with node 0 broken by index,
 * node 1 has only 1): node 0 x2, node 2 x1. Two nodes in one rack, n_min 1:
 * L1, s = 1200: 60 + ceil(100000 x 1200 / 1e6) = 60 + 120 = 180.
 * comm = 3 x (120 - 100) = 60 GPU-s. */
Test(refsim, place_l1_most_free_first)
{
    ref_cluster c = {2, 3, 4};
    ref_job jobs[13];
    fill_jobs(jobs);
    jobs[12] = (ref_job){60, 100, 3, 1};
    ref_params p;
    ref_params_default(&p);
    p.w0 = 0;
    ref_job_result o[13];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 13, o, &m, &log);
    const int32_t a2[] = {0, 3, 0, 0, 0, 0}, a3[] = {0, 1, 0, 0, 0, 0},
                  a12[] = {2, 0, 1, 0, 0, 0};
    expect_alloc(&log, 2, 0, a2);
    expect_alloc(&log, 3, 0, a3);
    expect_alloc(&log, 12, 0, a12);
    expect_times(o, 12, 60, 180);
    cr_expect_eq(o[12].last_level, 1);
    cr_expect_eq(m.placed_l1, 1);
    cr_expect_eq(m.placed_l0, 12);
    cr_expect_eq(m.comm_gpu_s, 60.0);
    ref_log_free(&log);
}

/* L2: J12 k=8 m1 d=100, w0=w1=0. No rack has 8 free. Racks most free first:
 * rack 1 (6): nodes 3, 4, 5 x2 each; then rack 0 (5): most free first
 * node 0 (2). L2, s = 1500: 60 + 150 = 210. */
static void l2_case(const ref_params *p, ref_job_result *o, ref_metrics *m, ref_log *log)
{
    ref_cluster c = {2, 3, 4};
    ref_job jobs[13];
    fill_jobs(jobs);
    jobs[12] = (ref_job){60, 100, 8, 1};
    run(&c, p, jobs, 13, o, m, log);
}

Test(refsim, place_l2_racks_most_free_first)
{
    ref_params p;
    ref_params_default(&p);
    p.w0 = 0;
    p.w1 = 0;
    ref_job_result o[13];
    ref_metrics m;
    ref_log log = {0};
    l2_case(&p, o, &m, &log);
    const int32_t a12[] = {2, 0, 0, 2, 2, 2};
    expect_alloc(&log, 12, 0, a12);
    expect_times(o, 12, 60, 210);
    cr_expect_eq(o[12].last_level, 2);
    ref_log_free(&log);
}

/* Strict consolidation (defaults, w0=inf) against no-wait (w0=w1=0) on the
 * trace of place_l2_racks_most_free_first.
 * No-wait: J12 60 -> 210 at L2. JCTs: six 1000, six 50, 150: sum 6450,
 *   sorted 50x6 150 1000x6: p50 = 7th = 150, p90 = 12th = 1000, p99 =
 *   13th = 1000. Used: long 13 GPUs x 1000 + short 11 x 50 + 8 x 150 =
 *   14750. comm = 8 x (150 - 100) = 400. makespan 1000 (J12 ends first).
 * Strict: J12 needs 2 whole nodes in one rack: at 1000 all ends; racks tie
 *   at 12 free: rack 0, nodes 0, 1. 1000 -> 1100 at L0. JCT 1040; sum 7340;
 *   sorted 50x6 1000x6 1040: p50 1000, p99 1040. queue 940. Used 13000 +
 *   550 + 800 = 14350. comm 0. makespan 1100. */
Test(refsim, strict_vs_no_wait)
{
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[13];
    ref_metrics m;
    ref_log log = {0};

    p.w0 = 0;
    p.w1 = 0;
    l2_case(&p, o, &m, &log);
    cr_expect_eq(m.makespan, 1000);
    cr_expect_eq(m.jct_mean, 6450.0 / 13.0);
    cr_expect_eq(m.jct_p50, 150);
    cr_expect_eq(m.jct_p90, 1000);
    cr_expect_eq(m.jct_p99, 1000);
    cr_expect_eq(m.queue_mean, 0.0);
    cr_expect_eq(m.queue_p99, 0);
    cr_expect_eq(m.comm_gpu_s, 400.0);
    cr_expect_eq(m.comm_share, 400.0 / 14750.0);
    cr_expect_eq(m.util, 14750.0 / (24.0 * 1000.0));
    cr_expect_eq(m.placed_l0, 12);
    cr_expect_eq(m.placed_l2, 1);
    cr_expect_eq(m.restart_gpu_s, 0);
    cr_expect_eq(m.rejected, 0);

    ref_params_default(&p);
    l2_case(&p, o, &m, &log);
    const int32_t a12[] = {4, 4, 0, 0, 0, 0};
    expect_alloc(&log, 12, 0, a12);
    expect_times(o, 12, 1000, 1100);
    cr_expect_eq(o[12].queue_total, 940);
    cr_expect_eq(m.makespan, 1100);
    cr_expect_eq(m.jct_mean, 7340.0 / 13.0);
    cr_expect_eq(m.jct_p50, 1000);
    cr_expect_eq(m.jct_p90, 1000);
    cr_expect_eq(m.jct_p99, 1040);
    cr_expect_eq(m.queue_mean, 940.0 / 13.0);
    cr_expect_eq(m.queue_p99, 940);
    cr_expect_eq(m.comm_gpu_s, 0.0);
    cr_expect_eq(m.util, 14350.0 / (24.0 * 1100.0));
    cr_expect_eq(m.placed_l0, 13);
    cr_expect_eq(m.placed_l2, 0);
    ref_log_free(&log);
}

/* Timer crossings relax a waiting job although nothing frees.
 * (a) 1 rack x 2 nodes x 4. J0 k=2 d=1000 -> node 0; J1 k=3 d=1000 ->
 *     node 1; free 2 1. J2 t=10 k=3 m1 d=100, w0=100, w1=inf: L0 only
 *     until 110; at the crossing 110, L1: the rack has 3: node 0 x2,
 *     node 1 x1; s = 1200: 110 -> 110 + 120 = 230.
 * (b) 2 racks x 1 node x 4, same jobs, w0=100, w1=50: at 110 L1 allows
 *     nothing (each rack has 2 or 1 free); at the crossing 160 L2: rack 0
 *     (2) then rack 1 (1); s = 1500: 160 -> 310.
 * (c) as (b) with w1=inf: no crossing at 160; J2 waits for L1 until 1000
 *     and then takes L0 on node 0 (best fit, 4 free, lowest index): 1000
 *     -> 1100. */
Test(refsim, timer_crossing_relaxes)
{
    ref_job jobs[] = {{0, 1000, 2, 0}, {0, 1000, 3, 0}, {10, 100, 3, 1}};
    ref_params p;
    ref_params_default(&p);
    p.w0 = 100;
    ref_job_result o[3];
    ref_metrics m;
    ref_log log = {0};

    ref_cluster ca = {1, 2, 4};
    run(&ca, &p, jobs, 3, o, &m, &log);
    const int32_t aa[] = {2, 1};
    expect_alloc(&log, 2, 0, aa);
    expect_times(o, 2, 110, 230);
    cr_expect_eq(o[2].last_level, 1);
    cr_expect_eq(o[2].queue_total, 100);

    ref_cluster cb = {2, 1, 4};
    p.w1 = 50;
    run(&cb, &p, jobs, 3, o, &m, &log);
    expect_alloc(&log, 2, 0, aa);
    expect_times(o, 2, 160, 310);
    cr_expect_eq(o[2].last_level, 2);

    p.w1 = REF_INF;
    run(&cb, &p, jobs, 3, o, &m, &log);
    const int32_t ac[] = {3, 0};
    expect_alloc(&log, 2, 0, ac);
    expect_times(o, 2, 1000, 1100);
    cr_expect_eq(o[2].last_level, 0);
    ref_log_free(&log);
}

/* Congestion c = 400 on timer_crossing_relaxes (a): s_eff = 1000 + (1200 -
 * 1000) x 1000 / 600 = 1000 + 333 = 1333 (floor); end = 110 +
 * ceil(100000 x 1333 / 1e6) = 110 + ceil(133.3) = 244. comm = 3 x (134 -
 * 100) = 102. At L0 congestion changes nothing: J0, J1 end at 1000. */
Test(refsim, congestion_end_time)
{
    ref_cluster c = {1, 2, 4};
    ref_job jobs[] = {{0, 1000, 2, 0}, {0, 1000, 3, 0}, {10, 100, 3, 1}};
    ref_params p;
    ref_params_default(&p);
    p.w0 = 100;
    p.congestion = 400;
    ref_job_result o[3];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 3, o, &m, &log);
    expect_times(o, 2, 110, 244);
    expect_times(o, 0, 0, 1000);
    cr_expect_eq(log.seg[0].s, 1333);
    cr_expect_eq(m.comm_gpu_s, 102.0);
    /* used 2000 + 3000 + 3 x 134 = 5402 */
    cr_expect_eq(m.comm_share, 102.0 / 5402.0);
    ref_log_free(&log);
}

/* Jobs larger than the cluster are rejected and counted, never simulated;
 * metrics cover the others. 1 node x 4: J0 t=0 k=8 rejected; J1 t=5 k=2
 * d=10: 5 -> 15; makespan 15 - 5 = 10; util 20 / (4 x 10). */
Test(refsim, larger_than_cluster_rejected)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 100, 8, 0}, {5, 10, 2, 0}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[2];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 2, o, &m, &log);
    cr_expect_eq(o[0].rejected, 1);
    cr_expect_eq(o[0].first_start, REF_NONE);
    cr_expect_eq(o[0].end, REF_NONE);
    cr_expect_eq(o[0].last_level, -1);
    cr_expect_eq(o[1].rejected, 0);
    expect_times(o, 1, 5, 15);
    cr_expect_eq(m.rejected, 1);
    cr_expect_eq(m.makespan, 10);
    cr_expect_eq(m.jct_mean, 10.0);
    cr_expect_eq(m.util, 20.0 / 40.0);
    cr_expect_eq(log.nseg, 1);
    ref_log_free(&log);
}

/* Every job larger than the cluster: nothing ends, so makespan, JCT,
 * queueing delay and util cannot be computed (REF_NONE, NAN; the engine's
 * TT_METRIC_NONE, NAN), nor comm_share of no GPU time; the sums and counts
 * are 0 (docs/model.md, section 7). All of them used to be 0, which made
 * such a run the best point of any Pareto front. */
Test(refsim, all_rejected_nothing_to_measure)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 100, 8, 0}, {5, 10, 5, 0}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[2];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 2, o, &m, &log);
    cr_expect_eq(m.rejected, 2);
    cr_expect_eq(m.makespan, REF_NONE);
    cr_expect_eq(m.jct_p50, REF_NONE);
    cr_expect_eq(m.jct_p90, REF_NONE);
    cr_expect_eq(m.jct_p99, REF_NONE);
    cr_expect_eq(m.queue_p99, REF_NONE);
    cr_expect(isnan(m.jct_mean) && isnan(m.queue_mean) && isnan(m.util) && isnan(m.comm_share),
              "jct_mean %g queue_mean %g util %g comm_share %g", m.jct_mean, m.queue_mean,
              m.util, m.comm_share);
    cr_expect_eq(m.comm_gpu_s, 0.0);
    cr_expect_eq(m.restart_gpu_s + m.preemptions + m.placed_l0 + m.placed_l1 + m.placed_l2, 0);
    ref_log_free(&log);
}

/* One job of duration 0: it ends as it starts. Makespan and JCT are 0,
 * measured; util (over 4 GPUs x 0 s) and comm_share (of 0 used
 * GPU-seconds) are shares of nothing: NAN. */
Test(refsim, zero_span_no_share)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{7, 0, 2, 0}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[1];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 1, o, &m, &log);
    cr_expect_eq(m.makespan, 0);
    cr_expect_eq(m.jct_mean, 0.0);
    cr_expect_eq(m.jct_p99, 0);
    cr_expect(isnan(m.util) && isnan(m.comm_share), "util %g comm_share %g", m.util,
              m.comm_share);
    ref_log_free(&log);
}

/* k > N x G but within the cluster: no L0 or L1, L2 at once whatever the
 * timers (defaults: w0 = inf). 2 racks x 1 node x 4; J0 k=6 m1 d=100:
 * racks tie at 4: rack 0 first: node 0 x4, node 1 x2. s = 1500: 0 -> 150. */
Test(refsim, larger_than_rack_takes_l2_at_once)
{
    ref_cluster c = {2, 1, 4};
    ref_job jobs[] = {{0, 100, 6, 1}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[1];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 1, o, &m, &log);
    const int32_t a0[] = {4, 2};
    expect_alloc(&log, 0, 0, a0);
    expect_times(o, 0, 0, 150);
    cr_expect_eq(o[0].last_level, 2);
    cr_expect_eq(m.placed_l2, 1);
    cr_expect_eq(m.comm_gpu_s, 300.0); /* 6 x (150 - 100) */
    ref_log_free(&log);
}

/* Simultaneous events at one time. 1 rack x 2 nodes x 4; theta=2000,
 * w0=0, min_run=0, restart=30.
 *   t=0: J0 k=2 d=1000 m0 -> node 0; J1 k=2 d=1000 m0 -> node 0 (best
 *   fit); J2 k=1 d=500 m2 -> node 1; J3 k=3 d=100 m0 -> node 1.
 *   t=100: J3's end frees 3 on node 1 first; then J4 (k=4 d=50 m2) and J5
 *   (k=1 d=10 m0) arrive. Pass 1: J4 has no L0; victims: node 0 J0, J1
 *   (2 each): cost (4, 2); node 1: J2 is sensitive, 3 free < 4. Evict J0,
 *   J1 (each done 100000, left 900000); J4 100 -> 150 on node 0. J5: node 1
 *   (3 free) 100 -> 110. Pass 2 (the victims join now): J0 takes node 1
 *   (2 free) at 100, r=30: 100 + 30 + 900 = 1030. J1: nothing free. Pass 3:
 *   no change.
 *   t=150: J1 on node 0: 150 + 30 + 900 = 1080. */
Test(refsim, simultaneous_events)
{
    ref_cluster c = {1, 2, 4};
    ref_job jobs[] = {{0, 1000, 2, 0}, {0, 1000, 2, 0}, {0, 500, 1, 2},
                      {0, 100, 3, 0},  {100, 50, 4, 2}, {100, 10, 1, 0}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    ref_job_result o[6];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 6, o, &m, &log);
    expect_times(o, 0, 0, 1030);
    expect_times(o, 1, 0, 1080);
    expect_times(o, 2, 0, 500);
    expect_times(o, 3, 0, 100);
    expect_times(o, 4, 100, 150);
    expect_times(o, 5, 100, 110);
    cr_expect_eq(o[0].queue_total, 0);
    cr_expect_eq(o[1].queue_total, 50);
    const int32_t a0b[] = {0, 2}, a1b[] = {2, 0}, a5[] = {0, 1};
    expect_alloc(&log, 0, 1, a0b);
    expect_alloc(&log, 1, 1, a1b);
    expect_alloc(&log, 5, 0, a5);
    cr_expect_eq(m.preemptions, 2);
    cr_expect_eq(m.restart_gpu_s, 120);
    cr_expect_eq(m.placed_l0, 8);
    cr_expect_eq(m.makespan, 1080);
    ref_log_free(&log);
}

/* A job that ends at the time it starts (d=0) and load scaling.
 * load = 2000 halves the inter-arrival times: submits 0, 101, 300 become
 * 0, 50 (101 x 1000 / 2000 = 50.5, floored), 150. 1 node x 4:
 *   J0 k=4 d=100: 0 -> 100. J1 k=4 d=0 at 50: waits; at 100 it starts and
 *   ends at 100; J2 k=4 d=10 at 150: 150 -> 160. JCT 100, 50, 10. */
Test(refsim, load_scaling_and_zero_duration)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 100, 4, 0}, {101, 0, 4, 0}, {300, 10, 4, 0}};
    ref_params p;
    ref_params_default(&p);
    p.load = 2000;
    ref_job_result o[3];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 3, o, &m, &log);
    expect_times(o, 0, 0, 100);
    expect_times(o, 1, 100, 100);
    expect_times(o, 2, 150, 160);
    cr_expect_eq(o[1].queue_total, 50);
    cr_expect_eq(m.jct_mean, 160.0 / 3.0);
    cr_expect_eq(m.makespan, 160);
    ref_log_free(&log);
}

/* backfill. 1 node x 4: J0 t=0 k=2 d=100; J1 t=10 k=4 d=50 waits; J2 t=20
 * k=2 d=30. backfill=1: J2 fits the 2 free GPUs: 20 -> 50; J1 100 -> 150.
 * backfill=0: the pass stops at J1, J2 waits behind it: J1 100 -> 150,
 * J2 150 -> 180. */
Test(refsim, backfill_on_off)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 100, 2, 0}, {10, 50, 4, 0}, {20, 30, 2, 0}};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[3];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 3, o, &m, &log);
    expect_times(o, 1, 100, 150);
    expect_times(o, 2, 20, 50);
    p.backfill = 0;
    run(&c, &p, jobs, 3, o, &m, &log);
    expect_times(o, 1, 100, 150);
    expect_times(o, 2, 150, 180);
    ref_log_free(&log);
}

/* k > G with no whole free node (readings 3 and 4 of refsim.c). 1 rack x 2
 * nodes x 8. t=0: J0 k=7 d=50 -> node 0; J1 k=1 d=1000 -> node 0 (best
 * fit); J2 k=1 d=1000 -> node 1. At 50: free 7 7.
 * J3 t=60 k=12 m1 d=100 (a=1, b=4): no whole free node, so no L0.
 *   w0=0: L1: node 0 x7 (most free, lower index), node 1 x5: two nodes of
 *   one rack = n_min: counted L0, s = 1000: 60 -> 160.
 *   w0=inf: waits until 1000: node 0 x8 + best fit node 1 x4: 1000 -> 1100. */
Test(refsim, nmin_nodes_without_whole_node)
{
    ref_cluster c = {1, 2, 8};
    ref_job jobs[] = {{0, 50, 7, 0}, {0, 1000, 1, 0}, {0, 1000, 1, 0}, {60, 100, 12, 1}};
    ref_params p;
    ref_params_default(&p);
    p.w0 = 0;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 4, o, &m, &log);
    const int32_t a3[] = {7, 5};
    expect_alloc(&log, 3, 0, a3);
    expect_times(o, 3, 60, 160);
    cr_expect_eq(o[3].last_level, 0);
    cr_expect_eq(m.placed_l1, 0);

    p.w0 = REF_INF;
    run(&c, &p, jobs, 4, o, &m, &log);
    const int32_t b3[] = {8, 4};
    expect_alloc(&log, 3, 0, b3);
    expect_times(o, 3, 1000, 1100);
    ref_log_free(&log);
}

Test(refsim, bad_input)
{
    ref_cluster c = {1, 1, 4};
    ref_params p;
    ref_params_default(&p);
    ref_job_result o[2];
    ref_metrics m;
    ref_job unsorted[] = {{10, 1, 1, 0}, {5, 1, 1, 0}};
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, unsorted, 2, o, &m), -1);
    ref_job nogpu[] = {{0, 1, 0, 0}};
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, nogpu, 1, o, &m), -1);
    ref_job badmodel[] = {{0, 1, 1, NMD}};
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, badmodel, 1, o, &m), -1);
    ref_job ok[] = {{0, 1, 1, 0}};
    p.congestion = 1000;
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, ok, 1, o, &m), -1);
    ref_params_default(&p);
    p.load = 0;
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, ok, 1, o, &m), -1);
    ref_params_default(&p);
    ref_cluster z = {1, 0, 4};
    cr_expect_eq(ref_simulate(&z, &p, MD, NMD, ok, 1, o, &m), -1);
    ref_model fast[] = {{900, 1000, -1}};
    cr_expect_eq(ref_simulate(&c, &p, fast, 1, ok, 1, o, &m), -1);
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, ok, 1, o, &m), 0);
    cr_expect_eq(ref_simulate(&c, &p, MD, NMD, ok, 0, o, &m), 0);
    cr_expect_eq(m.makespan, REF_NONE, "no job, no makespan");
}

/* The checker catches what it claims to: a correct run passes, and each
 * tampering below is reported. */
Test(refsim, checker_detects_violations)
{
    ref_cluster c = {1, 2, 4};
    ref_job jobs[] = {{0, 2000, 2, 0}, {0, 2000, 3, 0}, {0, 500, 3, 1}, {400, 100, 4, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 100;
    ref_job_result o[4], o2[4];
    ref_metrics m, m2;
    ref_log log = {0};
    char why[256];
    run(&c, &p, jobs, 4, o, &m, &log);
    /* GPUs given twice: J1's 3 GPUs moved onto node 0, where J0 and J2
     * already hold 4 */
    for (int64_t q = 0; q < log.nseg; q++)
        if (log.seg[q].job == 1) {
            log.alloc[q * log.nodes + 0] += 3;
            log.alloc[q * log.nodes + 1] -= 3;
        }
    cr_expect_eq(ref_check_invariants(&c, &p, MD, NMD, jobs, 4, o, &m, &log, why, sizeof why),
                 -1);
    run(&c, &p, jobs, 4, o, &m, &log);
    memcpy(o2, o, sizeof o);
    o2[3].end += 1; /* an end that the log does not show */
    cr_expect_eq(ref_check_invariants(&c, &p, MD, NMD, jobs, 4, o2, &m, &log, why, sizeof why),
                 -1);
    m2 = m;
    m2.comm_gpu_s += 0.001;
    cr_expect_eq(ref_check_invariants(&c, &p, MD, NMD, jobs, 4, o, &m2, &log, why, sizeof why),
                 -1);
    /* an eviction that min_run forbids */
    p.min_run = 401;
    cr_expect_eq(ref_check_invariants(&c, &p, MD, NMD, jobs, 4, o, &m, &log, why, sizeof why),
                 -1);
    ref_log_free(&log);
}

/* ---- randomized runs ---- */


/* 2,000 random small traces under random parameters; every run must pass
 * the invariants and be repeatable. Seeds are fixed: a failure names its
 * seed and reproduces. */
Test(refsim, randomized_invariants)
{
    enum { RUNS = 2000, MAXJ = 40 };
    static const int64_t ws[] = {0, 5, 30, 100, 400, REF_INF};
    static const int64_t thetas[] = {REF_INF, 1000, 1200, 1500, 2000, 2500};
    static const int64_t loads[] = {250, 500, 1000, 1000, 2000, 3000};
    static const int64_t gs[] = {1, 2, 4, 8};
    ref_job jobs[MAXJ];
    ref_job_result o[MAXJ], o2[MAXJ];
    ref_model md[4];
    ref_metrics m, m2;
    ref_log log = {0};
    char why[256];
    int64_t preempted = 0, rejected = 0, lv[3] = {0, 0, 0};
    for (uint64_t seed = 1; seed <= RUNS; seed++) {
        uint64_t s = seed * 0x2545f4914f6cdd1dULL;
        ref_cluster c = {(int32_t)pick(&s, 1, 3), (int32_t)pick(&s, 1, 3),
                         (int32_t)pick_of(&s, gs, 4)};
        int32_t total = c.racks * c.nodes_per_rack * c.gpus_per_node;
        int nm = (int)pick(&s, 1, 4);
        for (int i = 0; i < nm; i++) {
            md[i].slow_l1 = pick(&s, 0, 2) ? pick(&s, 1000, 1600) : 1000;
            md[i].slow_l2 = md[i].slow_l1 + pick(&s, 0, 1500);
            md[i].mem_mb = -1;
        }
        ref_params p;
        ref_params_default(&p);
        p.order = (int)pick(&s, REF_FIFO, REF_LAS);
        p.w0 = pick_of(&s, ws, 6);
        p.w1 = pick_of(&s, ws, 6);
        p.theta = pick_of(&s, thetas, 6);
        p.restart = pick(&s, 0, 60);
        p.congestion = pick(&s, 0, 3) ? 0 : pick(&s, 0, 999);
        p.min_run = pick(&s, 0, 3) ? pick(&s, 0, 120) : 300;
        p.max_preempt = pick(&s, 0, 4);
        p.backfill = (int)pick(&s, 0, 1);
        p.load = pick_of(&s, loads, 6);
        int64_t n = pick(&s, 1, MAXJ), t = pick(&s, 0, 1000);
        for (int64_t i = 0; i < n; i++) {
            t += pick(&s, 0, 3) ? pick(&s, 0, 120) : 0; /* ties are common */
            jobs[i].submit = t;
            jobs[i].duration = pick(&s, 0, 9) ? pick(&s, 1, 600) : pick(&s, 0, 3);
            /* mostly small, some multi-node, a few larger than the cluster */
            int64_t k = pick(&s, 0, 9) < 7 ? pick(&s, 1, c.gpus_per_node)
                                           : pick(&s, 1, total + (pick(&s, 0, 5) ? 0 : 4));
            jobs[i].gpus = (int32_t)k;
            jobs[i].model = (int32_t)pick(&s, 0, nm - 1);
        }
        int rc = ref_simulate_log(&c, &p, md, nm, jobs, n, o, &m, &log);
        cr_assert_eq(rc, 0, "seed %llu: ref_simulate returned %d", (unsigned long long)seed, rc);
        rc = ref_check_invariants(&c, &p, md, nm, jobs, n, o, &m, &log, why, sizeof why);
        cr_assert_eq(rc, 0, "seed %llu: %s", (unsigned long long)seed, why);
        cr_assert_eq(ref_simulate(&c, &p, md, nm, jobs, n, o2, &m2), 0);
        cr_assert(memcmp(o, o2, (size_t)n * sizeof *o) == 0 && memcmp(&m, &m2, sizeof m) == 0,
                  "seed %llu: a second run differs", (unsigned long long)seed);
        preempted += m.preemptions;
        rejected += m.rejected;
        lv[0] += m.placed_l0;
        lv[1] += m.placed_l1;
        lv[2] += m.placed_l2;
    }
    /* the generator reaches every rule the invariants police */
    cr_expect_gt(preempted, 100);
    cr_expect_gt(rejected, 10);
    cr_expect_gt(lv[1], 100);
    cr_expect_gt(lv[2], 100);
    ref_log_free(&log);
}
