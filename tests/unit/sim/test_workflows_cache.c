/* GPU memory in the engine (docs/model.md section 13): the model cache
 * (12.2: loads, hits, lru and demand eviction, the GPUs holding a model
 * taken first), placement by L + X and the warm wait (12.4, evicted jobs
 * included), and the parameters of 12.6 with their canonical forms;
 * scenarios worked by hand, SPEC 12.10's among them. */
#include "wfcase.h"

/* ---- the model cache (12.2) ---- */

/* SPEC 12.10's setting: gpu_mem 1000, load_bw 100, xfer_bw 100; models A
 * (id 0, 500 MiB) and B (id 1, 400 MiB). */
static void cache_case(wcase *k)
{
    wcase_init(k, 1, 2, 1);
    k->p.gpu_mem = 1000;
    k->p.load_bw = 100;
    k->p.xfer_bw = 100;
    k->mids = k->outs = 1;
}

static void model(wcase *k, int64_t i, int32_t mid)
{
    k->mid[i] = mid;
    k->mem_mb[i] = mid == 0 ? 500 : 400;
}

/* SPEC 12.10 A: on 1x2x1, X (B, 50 s), T0 (A, 100 s, out 200 MiB) and T1
 * (A, 50 s, after T0), all at 0. */
static void scen_a(wcase *k)
{
    static const int32_t p1[] = {1};
    cache_case(k);
    wjob(k, 0, 50, 1, -1, NULL, 0);
    wjob(k, 0, 100, 1, 7, NULL, 0);
    wjob(k, 0, 50, 1, 7, p1, 1);
    model(k, 0, 1);
    model(k, 1, 0);
    model(k, 2, 0);
    k->out_mb[1] = 200;
}

/* SPEC 12.10 A, cache_place=off: X (B) takes node 0 (L = 4, ends 54), T0
 * (A) node 1 (L = 5, ends 105); at 105 T1 takes node 0 by best fit, loads
 * A beside B (L = 5) and reads T0's 200 MiB (X = 2): it ends at 162. */
Test(workflows, scenario_a_off)
{
    wcase k;
    scen_a(&k);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[0].end, 54);
    cr_expect_eq(o[1].end, 105);
    cr_expect_eq(o[2].start, 105);
    cr_expect_eq(o[2].end, 162);
    cr_expect_eq(m.wf_jct_p99, 162);
    cr_expect_eq(m.cache_hit, 0);
    cr_expect_eq(m.loads, 3);
    cr_expect_eq(m.model_evicts, 0);
    cr_expect_eq(m.load_gpu_s, 14);
    cr_expect_eq(m.xfer_gpu_s, 2);
    cr_expect_eq(m.restart_gpu_s, 0);
    /* with gpu_mem = 0 no load: 50, 100, then 100 + 2 + 50 */
    k.p.gpu_mem = 0;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].end, 152);
    cr_expect_eq(m.loads, 0);
    cr_expect_eq(m.cache_hit, 0);
}

/* Hits and evictions on one GPU (1x1x1, gpu_mem 1000, one slot or two):
 * A, B, A in a row. With cache_slots = 1 each start evicts the model
 * before: 3 loads, 2 evictions, no hit. With 2 slots and 900 MiB used
 * by A + B, the third start finds A: a hit (L = 0). A model larger than
 * gpu_mem is rejected, a workflow with one whole. */
Test(workflows, cache_slots_hits_rejection)
{
    wcase k;
    cache_case(&k);
    k.c.nodes_per_rack = 1;
    k.p.cache_slots = 1;
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    model(&k, 0, 0);
    model(&k, 1, 1);
    model(&k, 2, 0);
    tt_job_result o[5];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].end, 5 + 10 + 4 + 10 + 5 + 10);
    cr_expect_eq(m.loads, 3);
    cr_expect_eq(m.model_evicts, 2);
    cr_expect_eq(m.cache_hit, 0);
    k.p.cache_slots = 2;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 29);
    cr_expect_eq(o[2].end, 39);
    cr_expect_eq(m.loads, 2);
    cr_expect_eq(m.model_evicts, 0);
    cr_expect_eq(m.cache_hit, 333);
    cr_expect_eq(m.load_gpu_s, 9);
    /* 600 MiB for B: A + B no longer fit, B evicts A and A evicts B */
    k.mem_mb[1] = 600;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(m.loads, 3);
    cr_expect_eq(m.model_evicts, 2);
    /* a model of 1001 MiB is rejected; in a workflow, the workflow */
    k.mem_mb[1] = 1001;
    k.wf[1] = k.wf[2] = 3;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(m.rejected, 2);
    cr_expect_eq(m.wf_rejected, 1);
    cr_expect(o[1].rejected && o[2].rejected && !o[0].rejected);
}

/* lru against demand: one GPU with two slots holds A (used at 1) and B
 * (used at 2); C arrives while D waits for A. lru evicts A, the least
 * recent; demand evicts B, which no waiting job needs. */
Test(workflows, evict_lru_demand)
{
    wcase k;
    cache_case(&k);
    k.c.nodes_per_rack = 1;
    k.p.cache_slots = 2;
    k.p.gpu_mem = 2000;
    wjob(&k, 0, 10, 1, -1, NULL, 0); /* A: 0..15 */
    wjob(&k, 0, 10, 1, -1, NULL, 0); /* B: 15..29 */
    wjob(&k, 0, 10, 1, -1, NULL, 0); /* C (id 2): 29.., evicts */
    wjob(&k, 0, 10, 1, -1, NULL, 0); /* D (A) waits behind C */
    model(&k, 0, 0);
    model(&k, 1, 1);
    model(&k, 2, 0);
    model(&k, 3, 0);
    k.mid[2] = 2;
    tt_job_result o[4];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    /* lru: C (500) evicts A; D loads A again, evicting B */
    cr_expect_eq(o[2].start, 29);
    cr_expect_eq(o[2].end, 29 + 5 + 10);
    cr_expect_eq(o[3].end, 44 + 5 + 10);
    cr_expect_eq(m.model_evicts, 2);
    cr_expect_eq(m.loads, 4);
    k.p.evict = TT_EVICT_DEMAND;
    cr_assert_eq(wrun(&k, o, &m), 0);
    /* demand: C evicts B (no waiting job needs it); D finds A: no load */
    cr_expect_eq(o[3].start, 44);
    cr_expect_eq(o[3].end, 54);
    cr_expect_eq(m.model_evicts, 1);
    cr_expect_eq(m.loads, 3);
    cr_expect_eq(m.cache_hit, 250);
}

/* GPU identity: on 1x1x2, A takes GPU 0 and B GPU 1; at 20 a job of B
 * takes GPU 1, which holds B (no load), not the lowest free GPU. */
Test(workflows, gpu_holding_model_first)
{
    wcase k;
    cache_case(&k);
    k.c.nodes_per_rack = 1;
    k.c.gpus_per_node = 2;
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    wjob(&k, 20, 10, 1, -1, NULL, 0);
    model(&k, 0, 0);
    model(&k, 1, 1);
    model(&k, 2, 1);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].end, 30);
    cr_expect_eq(m.loads, 2);
    cr_expect_eq(m.cache_hit, 333);
}

/* ---- placement by L + X and the warm wait (12.4) ---- */

/* SPEC 12.10 A, cache_place=affinity: at 105 node 0 gives L + X = 5 + 2,
 * node 1 (A loaded, T0's output there) 0: T1 runs on node 1 and ends at
 * 155. */
Test(workflows, scenario_a_affinity)
{
    wcase k;
    scen_a(&k);
    k.p.cache_place = TT_CACHE_PLACE_AFFINITY;
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 105);
    cr_expect_eq(o[2].end, 155);
    cr_expect(fabs(m.wf_jct_mean - 155) < 1e-9);
    cr_expect_eq(m.cache_hit, 333);
    cr_expect_eq(m.loads, 2);
    cr_expect_eq(m.load_gpu_s, 9);
    cr_expect_eq(m.xfer_gpu_s, 0);
}

/* SPEC 12.10 C exactly: T0 on node 0 (0..105), T1 on node 1 (0..64); at
 * 105 node 0 gives 0 + 3, node 1 5 + 1: T2 on node 0 ends at 158;
 * workflow 4 is rejected whole. */
Test(workflows, scenario_c)
{
    wcase k;
    cache_case(&k);
    k.p.cache_place = TT_CACHE_PLACE_AFFINITY;
    int32_t p01[] = {0, 1}, p3[] = {3};
    wjob(&k, 0, 100, 1, 3, NULL, 0);
    wjob(&k, 0, 60, 1, 3, NULL, 0);
    wjob(&k, 0, 50, 1, 3, p01, 2);
    wjob(&k, 0, 10, 3, 4, NULL, 0);
    wjob(&k, 0, 10, 1, 4, p3, 1);
    model(&k, 0, 0);
    model(&k, 1, 1);
    model(&k, 2, 0);
    model(&k, 3, 0);
    model(&k, 4, 0);
    k.out_mb[0] = 100;
    k.out_mb[1] = 300;
    tt_job_result o[5];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[0].end, 105);
    cr_expect_eq(o[1].end, 64);
    cr_expect_eq(o[2].end, 158);
    cr_expect(fabs(m.wf_jct_mean - 158) < 1e-9);
    cr_expect_eq(m.xfer_gpu_s, 3);
    cr_expect_eq(m.cache_hit, 333);
    cr_expect_eq(m.rejected, 2);
    cr_expect_eq(m.wf_rejected, 1);
}

/* The warm wait (w_warm = 30) holds every fresh job, on an empty cluster
 * too: on 1x2x1 X (B, 100 s) and Y (A, 10 s) find no warm node at 0 and
 * start at their crossing, 30, an event: X on node 0 until 134, Y on node
 * 1 until 45. Z (B) arrives at 20; node 1 frees at 45 but holds A (L = 4),
 * so Z waits for its crossing at 50 and ends at 64. Without the wait Z
 * takes node 1 at 20 and ends at 34. Z of model A finds node 1 warm at 45
 * and runs at once (no load). */
Test(workflows, warm_wait_expires)
{
    wcase k;
    cache_case(&k);
    wjob(&k, 0, 100, 1, -1, NULL, 0);
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    wjob(&k, 20, 10, 1, -1, NULL, 0);
    model(&k, 0, 1);
    model(&k, 1, 0);
    model(&k, 2, 1);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].end, 34);
    k.p.w_warm = 30;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[0].start, 30);
    cr_expect_eq(o[1].end, 45);
    cr_expect_eq(o[2].start, 50);
    cr_expect_eq(o[2].end, 64);
    cr_expect_eq(o[2].queue, 30);
    model(&k, 2, 0);
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 45);
    cr_expect_eq(o[2].end, 55);
}

/* An evicted job waits warm from its eviction (12.4). On 1x2x1 with
 * w_warm = 30, theta = 1500, w0 = w1 = 0, min_run = 0, restart = 10: X (A,
 * 100 s) and Y (B, sensitive) find no warm node at 0 and start at 30, X on
 * node 0 (L = 5), Y on node 1 (L = 4, ends at 34 + ydur). S (sensitive,
 * a model of unknown size: warm everywhere, 20 s or 200 s) arrives at 40,
 * finds no free node in its warm wait and at 70 evicts X (held 40 s: 5
 * of load, 35 of work; 65 s left), taking node 0, where A stays. */
static void evicted_case(wcase *k, int64_t ydur, int64_t sdur)
{
    cache_case(k);
    k->p.w_warm = 30;
    k->p.theta = 1500;
    k->p.w0 = k->p.w1 = 0;
    k->p.min_run = 0;
    k->p.restart = 10;
    wjob(k, 0, 100, 1, -1, NULL, 0);
    wjob(k, 0, ydur, 1, -1, NULL, 0);
    wjob(k, 40, sdur, 1, -1, NULL, 0);
    model(k, 0, 0);
    model(k, 1, 1);
    k->mid[2] = 2;
    k->mem_mb[2] = -1;
    k->cls[1] = k->cls[2] = 1;
}

/* Y ends at 80: node 1 is free but cold for X (B there) until X's warm
 * wait ends at 100; S ends at 90 and X restarts on node 0, where A is:
 * r = R = 10, it ends at 90 + 10 + 65 = 165 (taking node 1 at 80 it would
 * pay R + L and end at 160). */
Test(workflows, warm_wait_after_eviction)
{
    wcase k;
    evicted_case(&k, 46, 20);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[0].start, 30);
    cr_expect_eq(o[1].end, 80);
    cr_expect_eq(o[2].start, 70);
    cr_expect_eq(o[2].end, 90);
    cr_expect_eq(o[0].preemptions, 1);
    cr_expect_eq(o[0].end, 165);
    cr_expect_eq(m.restart_gpu_s, 10);
    cr_expect_eq(m.loads, 2);
    cr_expect_eq(m.cache_hit, 500); /* X at 30 and Y load, S and X at 90 do not */
}

/* S runs 200 s: node 0 stays busy; X's warm wait crosses at 100, an
 * event, where it takes node 1 (cold): r = R + L = 15, it ends at 180. */
Test(workflows, warm_wait_after_eviction_expires)
{
    wcase k;
    evicted_case(&k, 46, 200);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 70);
    cr_expect_eq(o[0].end, 180);
    cr_expect_eq(m.loads, 3);
    cr_expect_eq(m.load_gpu_s, 5 + 4 + 5);
}

/* Re-eviction: Y ends at 110 instead, and S2 (like S) arrives at 70. X
 * restarts on node 0 at 90 (its warm wait from 70); S2's wait crosses at
 * 100, where it evicts X again (10 s into its restart: no work done) and
 * runs 100..120 on node 0. X waits warm from 100: node 1, free at 110, is
 * cold; at 120 node 0 is free with A, X restarts there and ends at 120 +
 * 10 + 65 = 195 (at 110 on node 1 it would end at 190). */
Test(workflows, warm_wait_after_reeviction)
{
    wcase k;
    evicted_case(&k, 76, 20);
    wjob(&k, 70, 20, 1, -1, NULL, 0);
    k.mid[3] = 2;
    k.mem_mb[3] = -1;
    k.cls[3] = 1;
    tt_job_result o[4];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[1].end, 110);
    cr_expect_eq(o[3].start, 100);
    cr_expect_eq(o[3].end, 120);
    cr_expect_eq(o[0].preemptions, 2);
    cr_expect_eq(o[0].end, 195);
    cr_expect_eq(m.restart_gpu_s, 20);
}

/* ---- the parameters (12.6) and their canonical forms ---- */

Test(workflows, params_set_format)
{
    static const char *const set[][2] = {{"gpu_mem", "24576"}, {"cache_slots", "2"},
                                         {"load_bw", "1000"},  {"xfer_bw", "100"},
                                         {"evict", "demand"},  {"cache_place", "affinity"},
                                         {"w_warm", "60"}};
    tt_params p;
    tt_params_default(&p);
    char buf[256];
    cr_assert_eq(tt_params_format_options(&p, NULL, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "");
    for (int i = 0; i < 7; i++)
        cr_assert_eq(tt_params_set(NULL, &p, NULL, set[i][0], set[i][1]), 0, "%s", set[i][0]);
    cr_assert_eq(tt_params_format_options(&p, NULL, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "-p gpu_mem=24576 -p cache_slots=2 -p load_bw=1000 -p xfer_bw=100 "
                          "-p evict=demand -p cache_place=affinity -p w_warm=60");
    cr_expect_eq(tt_params_set(NULL, &p, NULL, "cache_slots", "9"), TT_EINVAL);
    cr_expect_eq(tt_params_set(NULL, &p, NULL, "evict", "fifo"), TT_EINVAL);
    cr_expect_eq(tt_params_set(NULL, &p, NULL, "xfer_bw", "0"), TT_EINVAL);
}

/* Exact rules only: the cache's parameters are read with gpu_mem > 0,
 * xfer_bw when a task has an output, cache_place when either, w_warm
 * always. */
Test(workflows, canon_rules)
{
    wcase k;
    cache_case(&k);
    int32_t p0[] = {0};
    wjob(&k, 0, 10, 2, 1, NULL, 0);
    wjob(&k, 0, 10, 1, 1, p0, 1);
    model(&k, 0, 0);
    model(&k, 1, 1);
    static const char *const names[] = {"a", "s"};
    static const int64_t s1[] = {1000, 1000}, s2[] = {1000, 2000};
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, s1, s2, &md), 0);
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    j.n = k.n;
    j.submit = k.submit;
    j.duration = k.duration;
    j.gpus = k.gpus;
    j.cls = k.cls;
    j.wf = k.wf;
    j.dep_off = k.dep_off;
    j.deps = k.deps;
    j.mid = k.mid;
    j.mem_mb = k.mem_mb;
    tt_canon c;
    cr_assert_eq(tt_canon_init(NULL, &c, &k.c, md, &j), 0);
    tt_params a, b, fa, fb;
    tt_params_default(&a);
    b = a;
    b.cache_slots = 2;
    b.load_bw = 7;
    b.evict = TT_EVICT_DEMAND;
    b.xfer_bw = 3;
    b.cache_place = TT_CACHE_PLACE_AFFINITY;
    tt_canon_form(&c, &a, &fa);
    tt_canon_form(&c, &b, &fb);
    cr_expect(tt_canon_equal(&fa, &fb), "no cache, no output: one form");
    a.gpu_mem = b.gpu_mem = 1000;
    tt_canon_form(&c, &a, &fa);
    tt_canon_form(&c, &b, &fb);
    cr_expect(!tt_canon_equal(&fa, &fb), "with the cache: the cache's parameters count");
    b = a;
    b.w_warm = 5;
    tt_canon_form(&c, &b, &fb);
    cr_expect(!tt_canon_equal(&fa, &fb), "w_warm counts");
    /* an output: xfer_bw and cache_place count without the cache */
    k.out_mb[0] = 10;
    j.out_mb = k.out_mb;
    cr_assert_eq(tt_canon_init(NULL, &c, &k.c, md, &j), 0);
    tt_params_default(&a);
    b = a;
    b.xfer_bw = 3;
    tt_canon_form(&c, &a, &fa);
    tt_canon_form(&c, &b, &fb);
    cr_expect(!tt_canon_equal(&fa, &fb), "xfer_bw counts with an output");
    tt_models_free(md);
}
