/* The reference simulator (tests/refsim): hand-computed scenarios for
 * SPEC 6's preemption (restarts and progress, min_run and max_preempt,
 * victims across nodes, their timers, the cheapest b node, the victim
 * cost, the fewest jobs) and las's attained GPU-seconds, each checked
 * against the engine too. */
#include "refcase.h"

/* One preemption, restart overhead and checkpointed progress. 1 rack x 2
 * nodes x 4; theta=2000, w0=0, min_run=100, restart=30.
 *   J0 t=0 k=2 d=2000 m0 -> node 0. J1 t=0 k=3 d=2000 m0 -> node 1.
 *   J2 t=0 k=3 d=500 m1: no L0; L1 (w0=0): node 0 x2, node 1 x1, s=1200.
 *   J3 t=400 k=4 d=100 m2 (sensitive): no L0. Victims: node 0 holds J0 (2)
 *   and J2 (2): take J0 then J2 (tie on 2, lower index): cost (2+3, 2).
 *   Node 1: J1 (3) then J2 (1): cost (3+3, 2). Node 0 wins: evict J0, J2.
 *     J0: done 400 x 1e6 / 1000 = 400000, left 1600000.
 *     J2: done floor(400 x 1e6 / 1200) = 333333, left 166667.
 *   J3 400 -> 500 on node 0. At 500: J0 L0 on node 0 (4 free), r = 30:
 *   end 500 + 30 + 1600 = 2130. J2: L1 over node 0 (2) and node 1 (1), r =
 *   30: end 530 + ceil(166667 x 1200 / 1e6) = 530 + ceil(200.0004) = 731.
 * Metrics: JCT 2130 2000 731 100: mean 4961/4, p50 731, p90 2130. Queue
 * 100 0 100 0. comm: J2 3 x (400000 - 333333) + 3 x (201000 - 166667) =
 * 200001 + 102999 milli = 303. restart 2 x 30 + 3 x 30 = 150. Used: J0 2 x
 * 400 + 2 x 1630 = 4060, J1 6000, J2 3 x 400 + 3 x 231 = 1893, J3 400:
 * 12353 over 8 x 2130. */
Test(refsim, preemption_restart_progress)
{
    ref_cluster c = {1, 2, 4};
    ref_job jobs[] = {{0, 2000, 2, 0}, {0, 2000, 3, 0}, {0, 500, 3, 1}, {400, 100, 4, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 100;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 4, o, &m, &log);
    expect_times(o, 0, 0, 2130);
    expect_times(o, 1, 0, 2000);
    expect_times(o, 2, 0, 731);
    expect_times(o, 3, 400, 500);
    cr_expect_eq(o[0].preemptions, 1);
    cr_expect_eq(o[1].preemptions, 0);
    cr_expect_eq(o[2].preemptions, 1);
    cr_expect_eq(o[0].queue_total, 100);
    cr_expect_eq(o[2].queue_total, 100);
    cr_expect_eq(o[0].used_gpu_s, 4060);
    cr_expect_eq(o[2].used_gpu_s, 1893);
    cr_expect_eq(o[0].starts_l0, 2);
    cr_expect_eq(o[2].starts_l1, 2);
    const int32_t a3[] = {4, 0}, a2b[] = {2, 1};
    expect_alloc(&log, 3, 0, a3);
    expect_alloc(&log, 2, 1, a2b);
    cr_expect_eq(m.makespan, 2130);
    cr_expect_eq(m.jct_mean, 4961.0 / 4.0);
    cr_expect_eq(m.jct_p50, 731);
    cr_expect_eq(m.jct_p90, 2130);
    cr_expect_eq(m.queue_mean, 50.0);
    cr_expect_eq(m.queue_p99, 100);
    cr_expect_eq(m.comm_gpu_s, 303.0);
    cr_expect_eq(m.comm_share, 303.0 / 12353.0);
    cr_expect_eq(m.restart_gpu_s, 150);
    cr_expect_eq(m.preemptions, 2);
    cr_expect_eq(m.placed_l0, 4);
    cr_expect_eq(m.placed_l1, 2);
    cr_expect_eq(m.util, 12353.0 / 17040.0);
    ref_log_free(&log);
}

/* min_run and max_preempt. 1 node x 4; theta=2000, w0=0, min_run=100.
 *   J0 t=0 k=4 d=1000 m0; J1 t=50 k=4 d=100 m2 (sensitive).
 * (a) At 50, J0 has run 50 < 100: not evictable. Aging is not an event:
 *     J1 waits for J0's end: 1000 -> 1100.
 * (b) J2 t=150 k=1 d=10 m0 adds an event: at 150 J0 (150 >= 100) is
 *     evicted, done 150000, left 850000; J1 150 -> 250. At 250 J0 restarts
 *     (r=30): 250 + 30 + 850 = 1130; J2 then waits for 1130 -> 1140.
 * (c) (b) with max_preempt=0: nobody is evictable; J1 1000 -> 1100, J2
 *     1100 -> 1110.
 * (d) (b) with max_preempt=1 and J3 t=600 k=4 d=100 m2: J0 (evicted once)
 *     cannot be evicted again; at 1130 J2 takes node 0 (1 GPU) and J3
 *     cannot evict J2 (run 0 < 100); J3 at J2's end: 1140 -> 1240. */
Test(refsim, min_run_and_max_preempt_block)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 1000, 4, 0}, {50, 100, 4, 2}, {150, 10, 1, 0}, {600, 100, 4, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 100;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};

    run(&c, &p, jobs, 2, o, &m, &log);
    expect_times(o, 0, 0, 1000);
    expect_times(o, 1, 1000, 1100);
    cr_expect_eq(m.preemptions, 0);

    run(&c, &p, jobs, 3, o, &m, &log);
    expect_times(o, 0, 0, 1130);
    expect_times(o, 1, 150, 250);
    expect_times(o, 2, 1130, 1140);
    cr_expect_eq(m.preemptions, 1);
    cr_expect_eq(m.restart_gpu_s, 120);

    p.max_preempt = 0;
    run(&c, &p, jobs, 3, o, &m, &log);
    expect_times(o, 0, 0, 1000);
    expect_times(o, 1, 1000, 1100);
    expect_times(o, 2, 1100, 1110);
    cr_expect_eq(m.preemptions, 0);

    p.max_preempt = 1;
    run(&c, &p, jobs, 4, o, &m, &log);
    expect_times(o, 0, 0, 1130);
    expect_times(o, 1, 150, 250);
    expect_times(o, 2, 1130, 1140);
    expect_times(o, 3, 1140, 1240);
    cr_expect_eq(o[0].preemptions, 1);
    cr_expect_eq(m.preemptions, 1);
    ref_log_free(&log);
}

/* Multi-node victims (k > G). 1 rack x 3 nodes x 4; theta=2000, w0=0,
 * min_run=0, restart=0.
 *   t=0: J0 k=4 d=1000 m2 (sensitive) -> node 0; J1 k=3 d=1000 m0 ->
 *   node 1; J2 k=2 d=1000 m0 -> node 2; J3 k=1 d=1000 m0 -> node 1 (best
 *   fit, 1 free); J4 k=1 d=1000 m0 -> node 2 (2 free).
 *   free 0 0 1.
 *   J5 t=10 k=5 d=100 m2: a=1, b=1. Clearable nodes: node 0 no (J0 is
 *   sensitive); node 1 (J1 3 + J3 1: cost (4, 2)); node 2 (J2 2 + J4 1:
 *   cost (3, 2)) -> the a=1 cheapest is node 2. b node among nodes 0, 1:
 *   node 0 has 0 free and no evictable job; node 1: J1 (3 on the node)
 *   first frees 3 >= 1: cost (3, 1). Rack cost (6, 3). Evict J1, J2, J4;
 *   J5 takes node 2 x4 + node 1 x1, L0: 10 -> 110.
 *   Pass 2: victims J1 (3), J2 (2), J4 (1): free 0 2 0. J1: nothing. J2:
 *   node 1 (2): 10 -> 10 + 0 + 990 = 1000. J4: nothing free. */
Test(refsim, multi_node_victims)
{
    ref_cluster c = {1, 3, 4};
    ref_job jobs[] = {{0, 1000, 4, 2}, {0, 1000, 3, 0}, {0, 1000, 2, 0},
                      {0, 1000, 1, 0}, {0, 1000, 1, 0}, {10, 100, 5, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 0;
    ref_job_result o[6];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 6, o, &m, &log);
    const int32_t a5[] = {0, 1, 4}, a2b[] = {0, 2, 0};
    expect_alloc(&log, 5, 0, a5);
    expect_alloc(&log, 2, 1, a2b);
    expect_times(o, 5, 10, 110);
    expect_times(o, 2, 0, 1000);
    cr_expect_eq(o[1].preemptions, 1);
    cr_expect_eq(o[2].preemptions, 1);
    cr_expect_eq(o[3].preemptions, 0);
    cr_expect_eq(o[4].preemptions, 1);
    cr_expect_eq(m.preemptions, 3);
    ref_log_free(&log);
}

/* A victim's timers count as expired: it may take L2 at once although the
 * timers of a new job (w0=0, w1=inf) would stop at L1. 3 racks x 1 node
 * x 4; theta=2000, min_run=0, restart=10; every job d=1000 m0 but J3.
 *   t=0: J0 k=3 -> node 0; J1 k=3 -> node 1 (tie with node 2); J2 k=2 ->
 *   node 2. Free 1 1 2.
 *   J3 t=10 k=4 m2 d=100: victims: node 0 J0 (3, 1), node 1 J1 (3, 1),
 *   node 2 J2 (2, 1): evict J2 (done 10000, left 990000); J3 10 -> 110.
 *   Pass 2: J2 (k=2): no node or rack has 2 free; as a victim it takes L2:
 *   racks tie at 1: node 0 x1, node 1 x1, r=10, s=1000: 10 + 10 + 990 =
 *   1010. Were its timers not expired, it would wait for node 2 at 110. */
Test(refsim, victim_timers_expired)
{
    ref_cluster c = {3, 1, 4};
    ref_job jobs[] = {{0, 1000, 3, 0}, {0, 1000, 3, 0}, {0, 1000, 2, 0}, {10, 100, 4, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 10;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 4, o, &m, &log);
    const int32_t a3[] = {0, 0, 4}, a2b[] = {1, 1, 0};
    expect_alloc(&log, 3, 0, a3);
    expect_alloc(&log, 2, 1, a2b);
    expect_times(o, 2, 0, 1010);
    expect_times(o, 3, 10, 110);
    cr_expect_eq(o[2].starts_l0, 1);
    cr_expect_eq(o[2].starts_l2, 1);
    cr_expect_eq(o[2].queue_total, 0);
    cr_expect_eq(m.preemptions, 1);
    ref_log_free(&log);
}

/* k > G victims: the b node is the cheapest other node, not the first.
 * 1 rack x 3 nodes x 4; theta=2000, w0=0, min_run=0, restart=0; d=1000.
 *   t=0: J0 k=4 m0 -> node 0; J1 k=2 m0 -> node 1; J2 k=2 m0 -> node 1;
 *   J3 k=1 m0 -> node 2; J4 k=3 m2 (sensitive) -> node 2. All full.
 *   J5 t=10 k=5 m2 d=100 (a=1, b=1): clearable: node 0 (4, 1), node 1
 *   (J1 + J2: 4, 2), node 2 no (J4). Cheapest: node 0. b node: node 1 (J1
 *   first, frees 2: cost (2, 1)) or node 2 (J3: cost (1, 1)): node 2.
 *   Evict J0, J3; J5 takes node 0 x4 + node 2 x1: 10 -> 110. At 110 J0
 *   and J3 restart (r=0) with 990 s left: end 1100. */
Test(refsim, preempt_b_node_cheapest)
{
    ref_cluster c = {1, 3, 4};
    ref_job jobs[] = {{0, 1000, 4, 0}, {0, 1000, 2, 0}, {0, 1000, 2, 0},
                      {0, 1000, 1, 0}, {0, 1000, 3, 2}, {10, 100, 5, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 0;
    ref_job_result o[6];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 6, o, &m, &log);
    const int32_t a5[] = {4, 0, 1};
    expect_alloc(&log, 5, 0, a5);
    expect_times(o, 5, 10, 110);
    expect_times(o, 0, 0, 1100);
    expect_times(o, 3, 0, 1100);
    cr_expect_eq(o[0].preemptions, 1);
    cr_expect_eq(o[1].preemptions, 0);
    cr_expect_eq(o[2].preemptions, 0);
    cr_expect_eq(o[3].preemptions, 1);
    ref_log_free(&log);
}

/* A victim's cost is its total GPUs, not those on the node. 1 rack x 3
 * nodes x 4; theta=2000, w0=0, min_run=0, restart=0; d=1000 m0.
 *   t=0: J0 k=6 (L0: node 0 x4 + best fit node 1 x2); J1 k=3 -> node 2.
 *   Free 0 2 1.
 *   J2 t=10 k=4 m2 d=100: node 0: J0 (6, 1); node 1: 2 free + J0's 2:
 *   (6, 1); node 2: 1 free + J1's 3: (3, 1). Evict J1; J2 on node 2:
 *   10 -> 110. J1 (3) then waits for node 2: 110 -> 110 + 990 = 1100. */
Test(refsim, victim_cost_total_gpus)
{
    ref_cluster c = {1, 3, 4};
    ref_job jobs[] = {{0, 1000, 6, 0}, {0, 1000, 3, 0}, {10, 100, 4, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 0;
    ref_job_result o[3];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 3, o, &m, &log);
    const int32_t a0[] = {4, 2, 0}, a2[] = {0, 0, 4}, a1b[] = {0, 0, 3};
    expect_alloc(&log, 0, 0, a0);
    expect_alloc(&log, 2, 0, a2);
    expect_alloc(&log, 1, 1, a1b);
    expect_times(o, 0, 0, 1000);
    expect_times(o, 1, 0, 1100);
    expect_times(o, 2, 10, 110);
    cr_expect_eq(o[1].queue_total, 100);
    ref_log_free(&log);
}

/* Step 2 waits for W0, and the ties of the victim rule. 1 rack x 2 nodes
 * x 4; theta=2000, w0=50, min_run=0, restart=0; J0..J3 k=2 d=1000 m0.
 *   t=0: J0, J1 -> node 0 (best fit); J2, J3 -> node 1. Full.
 *   J4 t=10 k=2 m2 d=100: waited 0 < 50: no eviction (L0 only). At the
 *   crossing 60: nodes 0 and 1 both cost (2, 1) (one 2-GPU job frees
 *   enough): node 0; on it J0 and J1 tie on 2 GPUs: J0. J4 60 -> 160.
 *   J0 (done 60000, left 940000) restarts at 160 on node 0: 1100. */
Test(refsim, preempt_waits_w0_and_ties)
{
    ref_cluster c = {1, 2, 4};
    ref_job jobs[] = {{0, 1000, 2, 0}, {0, 1000, 2, 0}, {0, 1000, 2, 0},
                      {0, 1000, 2, 0}, {10, 100, 2, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 50;
    p.min_run = 0;
    p.restart = 0;
    ref_job_result o[5];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 5, o, &m, &log);
    const int32_t a4[] = {2, 0};
    expect_alloc(&log, 4, 0, a4);
    expect_times(o, 4, 60, 160);
    expect_times(o, 0, 0, 1100);
    for (int i = 1; i < 4; i++)
        expect_times(o, i, 0, 1000);
    cr_expect_eq(o[0].preemptions, 1);
    cr_expect_eq(o[4].queue_total, 50);
    cr_expect_eq(m.preemptions, 1);
    ref_log_free(&log);
}

/* Equal GPUs evicted: the fewest jobs wins. 1 rack x 2 nodes x 2;
 * theta=2000, w0=0, min_run=0, restart=0.
 *   t=0: J0, J1 k=1 -> node 0; J2 k=2 -> node 1 (d=1000, m0).
 *   J3 t=10 k=2 m2 d=100: node 0 costs (2, 2), node 1 (2, 1): evict J2;
 *   J3 on node 1 10 -> 110; J2 (990 s left) 110 -> 1100. */
Test(refsim, preempt_fewest_jobs)
{
    ref_cluster c = {1, 2, 2};
    ref_job jobs[] = {{0, 1000, 1, 0}, {0, 1000, 1, 0}, {0, 1000, 2, 0}, {10, 100, 2, 2}};
    ref_params p;
    ref_params_default(&p);
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 0;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 4, o, &m, &log);
    const int32_t a3[] = {0, 2};
    expect_alloc(&log, 3, 0, a3);
    expect_times(o, 3, 10, 110);
    expect_times(o, 2, 0, 1100);
    expect_times(o, 0, 0, 1000);
    cr_expect_eq(m.preemptions, 1);
    ref_log_free(&log);
}

/* las counts GPU-seconds, not seconds. 1 node x 4; order=las,
 * theta=2000, w0=0, min_run=0, restart=0.
 *   J0 t=0 k=1 d=1000 m0: 0 -> evicted at 30 by J1 (t=30 k=4 d=10 m2,
 *   30 -> 40): attained 1 x 30 = 30, left 970 s.
 *   J2 t=35 k=4 d=100 m0: at 40, attained 0 < 30: J2 first, 40 -> evicted
 *   at 50 by J3 (t=50 k=4 d=10 m2, 50 -> 60): attained 4 x 10 = 40, left
 *   90 s.
 *   At 60: J0 (30) before J2 (40): J0 60 -> 1030; J2 (4 GPUs) waits for
 *   it: 1030 -> 1120. (By seconds held, 30 > 10, J2 would go first.) */
Test(refsim, las_counts_gpu_seconds)
{
    ref_cluster c = {1, 1, 4};
    ref_job jobs[] = {{0, 1000, 1, 0}, {30, 10, 4, 2}, {35, 100, 4, 0}, {50, 10, 4, 2}};
    ref_params p;
    ref_params_default(&p);
    p.order = REF_LAS;
    p.theta = 2000;
    p.w0 = 0;
    p.min_run = 0;
    p.restart = 0;
    ref_job_result o[4];
    ref_metrics m;
    ref_log log = {0};
    run(&c, &p, jobs, 4, o, &m, &log);
    expect_times(o, 0, 0, 1030);
    expect_times(o, 1, 30, 40);
    expect_times(o, 2, 40, 1120);
    expect_times(o, 3, 50, 60);
    cr_expect_eq(o[2].queue_total, 5 + (1030 - 50));
    cr_expect_eq(m.preemptions, 2);
    ref_log_free(&log);
}
