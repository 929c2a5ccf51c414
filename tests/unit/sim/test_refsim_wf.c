/* The reference simulator's SPEC 12 (workflows and GPU memory): SPEC
 * 12.10's scenarios and more worked by hand, each run through check_case
 * so the engine must give the same per-job results and metrics; then
 * random DAG traces compared with the engine. */
#include "simcase.h"

/* SPEC 12.10's setting: models A (500 MiB) and B (400 MiB), no slowdown;
 * S (100 MiB) is sensitive at theta = 1500. */
static const ref_model MD[] = {{1000, 1000, 500}, {1000, 1000, 400}, {1000, 2000, 100}};
enum { A, B, S, NMD };

enum { WMAX = 64 };

typedef struct {
    ref_cluster c;
    ref_params p;
    int64_t n;
    ref_job jobs[WMAX];
    ref_task task[WMAX];
    int32_t deps[WMAX][4];
    ref_job_result out[WMAX];
    ref_metrics m;
    ref_log log;
} wcase;

/* SPEC 12.10's parameters on an R x N x G cluster. */
static void wc_init(wcase *k, int32_t r, int32_t n, int32_t g)
{
    memset(k, 0, sizeof *k);
    k->c = (ref_cluster){r, n, g};
    ref_params_default(&k->p);
    k->p.gpu_mem = 1000;
    k->p.load_bw = 100;
    k->p.xfer_bw = 100;
    k->p.task = k->task;
}

/* A row: task of workflow wf (-1: a plain job) of class cls, with nd
 * parents; mid -1 and mem_mb -1 (the class's model). Returns its index. */
static int64_t wc_row(wcase *k, int64_t submit, int64_t dur, int32_t gpus, int32_t cls,
                      int64_t wf, int32_t out_mb, int nd, const int32_t *dep)
{
    int64_t i = k->n++;
    cr_assert(k->n <= WMAX && nd <= 4);
    k->jobs[i] = (ref_job){submit, dur, gpus, cls};
    for (int d = 0; d < nd; d++)
        k->deps[i][d] = dep[d];
    k->task[i] = (ref_task){wf, -1, -1, out_mb, nd, k->deps[i]};
    return i;
}

static void wc_run(wcase *k)
{
    check_case(MD, NMD, &k->c, &k->p, k->jobs, k->n, k->out, &k->m, &k->log);
}

/* The reference alone and its invariants, for what the engine does not
 * (yet) read as SPEC does. */
static void wc_run_ref(wcase *k, const ref_model *md, int nm)
{
    char why[256] = "";
    cr_assert_eq(ref_simulate_log(&k->c, &k->p, md, nm, k->jobs, k->n, k->out, &k->m, &k->log),
                 0);
    cr_assert_eq(ref_check_invariants(&k->c, &k->p, md, nm, k->jobs, k->n, k->out, &k->m,
                                      &k->log, why, sizeof why),
                 0, "%s", why);
}

static void expect_run(const wcase *k, int64_t i, int64_t start, int64_t end)
{
    cr_expect_eq(k->out[i].first_start, start, "row %lld starts at %lld, expected %lld",
                 (long long)i, (long long)k->out[i].first_start, (long long)start);
    cr_expect_eq(k->out[i].end, end, "row %lld ends at %lld, expected %lld", (long long)i,
                 (long long)k->out[i].end, (long long)end);
}

/* The node of row i's seg-th segment (one-node placements). */
static int32_t node_of(const wcase *k, int64_t i, int seg)
{
    for (int64_t q = 0; q < k->log.nseg; q++)
        if (k->log.seg[q].job == i && seg-- == 0)
            for (int32_t x = 0; x < k->log.nodes; x++)
                if (k->log.alloc[q * k->log.nodes + x] > 0)
                    return x;
    cr_assert_fail("row %lld has no segment", (long long)i);
    return -1;
}

/* SPEC 12.6's defaults: no cache, 4 slots, 2000 and 1250 MiB/s, lru, off,
 * no warm wait; no row a task. */
Test(refsim_wf, defaults)
{
    ref_params p;
    ref_params_default(&p);
    cr_expect_eq(p.gpu_mem, 0);
    cr_expect_eq(p.cache_slots, 4);
    cr_expect_eq(p.load_bw, 2000);
    cr_expect_eq(p.xfer_bw, 1250);
    cr_expect_eq(p.evict, REF_EVICT_LRU);
    cr_expect_eq(p.cache_place, REF_PLACE_OFF);
    cr_expect_eq(p.w_warm, 0);
    cr_expect_null(p.task);
}

/* SPEC 12.10 A, both rows. 1x2x1; at 0: X (B, 50 s), T0 (wf 7, A, 100 s,
 * out 200), T1 (wf 7, after T0, A, 50 s). X takes node 0 (L = 400 / 100 =
 * 4, ends 54), T0 node 1 (L = 5, ends 105). At 105 both nodes are free.
 *   off: best fit, lower index: node 0, which lacks A (L = 5; 400 + 500
 *        fits) and is not T0's home (X = 200 / 100 = 2): 105 + 7 + 50 = 162.
 *        No start is warm: cache_hit 0; loads 3; load_gpu_s 4 + 5 + 5 = 14;
 *        xfer_gpu_s 2.
 *   affinity: node 1 has L + X = 0: 105 + 50 = 155; 1 warm start of 3:
 *        cache_hit 333; loads 2; load_gpu_s 9; xfer_gpu_s 0. */
Test(refsim_wf, spec_a_affinity)
{
    static const int32_t p1[] = {1};
    for (int aff = 0; aff < 2; aff++) {
        wcase k;
        wc_init(&k, 1, 2, 1);
        k.p.cache_place = aff ? REF_PLACE_AFFINITY : REF_PLACE_OFF;
        wc_row(&k, 0, 50, 1, B, -1, 0, 0, NULL);
        wc_row(&k, 0, 100, 1, A, 7, 200, 0, NULL);
        wc_row(&k, 0, 50, 1, A, 7, 0, 1, p1);
        wc_run(&k);
        expect_run(&k, 0, 0, 54);
        expect_run(&k, 1, 0, 105);
        expect_run(&k, 2, 105, aff ? 155 : 162);
        cr_expect_eq(node_of(&k, 2, 0), aff ? 1 : 0);
        cr_expect_eq(k.m.wf_jct_p99, aff ? 155 : 162);
        cr_expect_eq(k.m.wf_jct_mean, aff ? 155.0 : 162.0);
        cr_expect_eq(k.m.cache_hit, aff ? 333 : 0);
        cr_expect_eq(k.m.loads, aff ? 2 : 3);
        cr_expect_eq(k.m.load_gpu_s, aff ? 9 : 14);
        cr_expect_eq(k.m.xfer_gpu_s, aff ? 0 : 2);
        cr_expect_eq(k.m.model_evicts, 0);
        cr_expect_eq(k.m.restart_gpu_s, 0);
        ref_log_free(&k.log);
    }
}

/* SPEC 12.10 C. 1x2x1, affinity. Workflow 3: T0 (A, 100 s, out 100), T1
 * (B, 60 s, out 300), T2 (after both, A, 50 s); workflow 4: T3 (3 GPUs),
 * T4 (after T3). All at 0.
 *   T0 node 0, 0..105 (L 5); T1 node 1, 0..64 (L 4).
 *   At 105 node 0 gives 0 + ceil(300 / 100) = 3, node 1 5 + ceil(100 / 100)
 *   = 6: node 0, ends 105 + 3 + 50 = 158 = wf_jct_mean; xfer_gpu_s 3;
 *   cache_hit 1000 x 1 / 3 = 333.
 *   Workflow 4 is rejected whole: rejected 2, wf_rejected 1. */
Test(refsim_wf, spec_c_fan_in_rejection)
{
    static const int32_t p01[] = {0, 1}, p3[] = {3};
    wcase k;
    wc_init(&k, 1, 2, 1);
    k.p.cache_place = REF_PLACE_AFFINITY;
    wc_row(&k, 0, 100, 1, A, 3, 100, 0, NULL);
    wc_row(&k, 0, 60, 1, B, 3, 300, 0, NULL);
    wc_row(&k, 0, 50, 1, A, 3, 0, 2, p01);
    wc_row(&k, 0, 10, 3, A, 4, 0, 0, NULL);
    wc_row(&k, 0, 10, 1, A, 4, 0, 1, p3);
    wc_run(&k);
    expect_run(&k, 0, 0, 105);
    expect_run(&k, 1, 0, 64);
    expect_run(&k, 2, 105, 158);
    cr_expect_eq(node_of(&k, 2, 0), 0);
    cr_expect(k.out[3].rejected && k.out[4].rejected);
    cr_expect_eq(k.m.wf_jct_mean, 158.0);
    cr_expect_eq(k.m.xfer_gpu_s, 3);
    cr_expect_eq(k.m.cache_hit, 333);
    cr_expect_eq(k.m.rejected, 2);
    cr_expect_eq(k.m.wf_rejected, 1);
    ref_log_free(&k.log);
}

/* Four plain jobs of 10 s on 1x1x1, models (mid) 1, 2, 3, 1 of 100 MiB
 * (L = 1), fifo, all at 0: J0 0..11, J1 11..22, J2 22..33, J3 33.. .
 *   cache_slots 2: at 22 the GPU holds {1, 2}: lru evicts 1 (used at the
 *   first start); at 33 J3 reloads 1, evicting 2: 33 + 1 + 10 = 44; loads
 *   4, model_evicts 2, cache_hit 0.
 *   cache_slots 3: nothing is evicted, J3 finds 1: 33 + 10 = 43; loads 3,
 *   cache_hit 1000 / 4 = 250.
 *   4 slots but gpu_mem 250: the third 100 MiB model does not fit, as
 *   with 2 slots: J3 ends 44, loads 4, model_evicts 2.
 *   demand, 2 slots: at 22 J3 (waiting) needs 1, nobody needs 2: 2 goes;
 *   J3 finds 1 at 33: ends 43; loads 3, model_evicts 1, cache_hit 250. */
static void four_models(wcase *k, int64_t slots, int64_t mem, int evict)
{
    static const int32_t mids[] = {1, 2, 3, 1};
    wc_init(k, 1, 1, 1);
    k->p.cache_slots = slots;
    k->p.gpu_mem = mem;
    k->p.evict = evict;
    for (int r = 0; r < 4; r++) {
        wc_row(k, 0, 10, 1, A, -1, 0, 0, NULL);
        k->task[r].mid = mids[r];
        k->task[r].mem_mb = 100;
    }
    wc_run(k);
    expect_run(k, 2, 22, 33);
}

Test(refsim_wf, cache_slots_and_mib_limits)
{
    wcase k;
    four_models(&k, 2, 1000, REF_EVICT_LRU);
    expect_run(&k, 3, 33, 44);
    cr_expect_eq(k.m.loads, 4);
    cr_expect_eq(k.m.model_evicts, 2);
    cr_expect_eq(k.m.cache_hit, 0);
    cr_expect_eq(k.m.load_gpu_s, 4);
    ref_log_free(&k.log);
    four_models(&k, 3, 1000, REF_EVICT_LRU);
    expect_run(&k, 3, 33, 43);
    cr_expect_eq(k.m.loads, 3);
    cr_expect_eq(k.m.model_evicts, 0);
    cr_expect_eq(k.m.cache_hit, 250);
    ref_log_free(&k.log);
    four_models(&k, 4, 250, REF_EVICT_LRU);
    expect_run(&k, 3, 33, 44);
    cr_expect_eq(k.m.loads, 4);
    cr_expect_eq(k.m.model_evicts, 2);
    ref_log_free(&k.log);
}

Test(refsim_wf, lru_and_demand_victims)
{
    wcase k;
    four_models(&k, 2, 1000, REF_EVICT_DEMAND);
    expect_run(&k, 3, 33, 43);
    cr_expect_eq(k.m.loads, 3);
    cr_expect_eq(k.m.model_evicts, 1);
    cr_expect_eq(k.m.cache_hit, 250);
    ref_log_free(&k.log);
}

/* A restart after an eviction pays R + L + X, X for its new placement.
 * 1x2x1, theta 1500 (S sensitive), w0 0, min_run 0, restart 30.
 *   T0 (wf 1, A, 10 s, out 200) at 0: node 0, L 5, ends 15 (home 0).
 *   Y (B, 50 s) at 0: node 1, L 4, ends 54.
 *   T1 (wf 1, after T0, A, 100 s) ready at 15: node 0 (free, A there):
 *      r = 0, would end 115.
 *   S (100 s) at 20: nothing free; T1 and Y are evictable at equal cost,
 *      node 0 is lower: T1 is evicted after 5 s of work (95 s left); S runs
 *      20 + 1 + 100 = 121 on node 0.
 *   At 54 T1 restarts on node 1: R 30 + L 5 (A beside B) + X 2 (T0's home
 *      is node 0) = 37: ends 54 + 37 + 95 = 186 = wf_jct.
 *   restart_gpu_s 30, load_gpu_s 5 + 4 + 1 + 5 = 15, xfer_gpu_s 2, loads
 *   4, cache_hit 1000 x 1 / 5 = 200 (T1's first start). */
Test(refsim_wf, restart_pays_r_l_x)
{
    static const int32_t p0[] = {0};
    wcase k;
    wc_init(&k, 1, 2, 1);
    k.p.theta = 1500;
    k.p.w0 = 0;
    k.p.min_run = 0;
    wc_row(&k, 0, 10, 1, A, 1, 200, 0, NULL);
    wc_row(&k, 0, 50, 1, B, -1, 0, 0, NULL);
    wc_row(&k, 0, 100, 1, A, 1, 0, 1, p0);
    wc_row(&k, 20, 100, 1, S, -1, 0, 0, NULL);
    wc_run(&k);
    expect_run(&k, 0, 0, 15);
    expect_run(&k, 1, 0, 54);
    expect_run(&k, 2, 15, 186);
    expect_run(&k, 3, 20, 121);
    cr_expect_eq(k.out[2].preemptions, 1);
    cr_expect_eq(node_of(&k, 2, 0), 0);
    cr_expect_eq(node_of(&k, 2, 1), 1);
    cr_expect_eq(k.m.wf_jct_p99, 186);
    cr_expect_eq(k.m.restart_gpu_s, 30);
    cr_expect_eq(k.m.load_gpu_s, 15);
    cr_expect_eq(k.m.xfer_gpu_s, 2);
    cr_expect_eq(k.m.loads, 4);
    cr_expect_eq(k.m.cache_hit, 200);
    ref_log_free(&k.log);
}

/* The warm wait, w_warm 20, on 1x2x1.
 *   J0 (A, 10 s) at 0: no node holds A, so it waits until the crossing
 *      at 20, then takes node 0 (best fit, lower index): 20 + 5 + 10 = 35.
 *   J1 (A, 10 s) at 30: node 1 is free but cold; at 35 node 0 is free and
 *      warm, 5 s into J1's wait: 35..45 with r = 0.
 *   J2 (B, 10 s) at 30: no node ever holds B; at 35 and 45 it still waits,
 *      at 50 its wait ends and it takes node 0: 50 + 4 + 10 = 64.
 *   loads 2, cache_hit 1000 / 3 = 333, load_gpu_s 9, queue 20 + 5 + 20. */
Test(refsim_wf, warm_wait_expires_or_starts_warm)
{
    wcase k;
    wc_init(&k, 1, 2, 1);
    k.p.w_warm = 20;
    wc_row(&k, 0, 10, 1, A, -1, 0, 0, NULL);
    wc_row(&k, 30, 10, 1, A, -1, 0, 0, NULL);
    wc_row(&k, 30, 10, 1, B, -1, 0, 0, NULL);
    wc_run(&k);
    expect_run(&k, 0, 20, 35);
    expect_run(&k, 1, 35, 45);
    expect_run(&k, 2, 50, 64);
    cr_expect_eq(node_of(&k, 1, 0), 0);
    cr_expect_eq(node_of(&k, 2, 0), 0);
    cr_expect_eq(k.m.loads, 2);
    cr_expect_eq(k.m.cache_hit, 333);
    cr_expect_eq(k.m.load_gpu_s, 9);
    cr_expect_eq(k.m.queue_mean, 45.0 / 3.0);
    ref_log_free(&k.log);
}

/* A model larger than gpu_mem rejects its workflow, and a plain job. 1x1x1,
 * gpu_mem 1000: T0 (wf 2, mid 9 of 1200 MiB, 10 s), T1 (wf 2, after T0,
 * A, 10 s), J (A, 10 s), K (mid 9, 10 s), all at 0.
 *   T0, T1 and K are rejected (rejected 3, wf_rejected 1); J runs 0..15
 *   (L 5); no workflow is accepted: wf_jct_mean 0, wf_jct_p99 0.
 *   With gpu_mem 0 nothing is rejected and nothing loads: T0 0..10, T1
 *   ready at 10 keeps its rank ahead of J: 10..20, J 20..30, K 30..40;
 *   wf_jct 20. */
Test(refsim_wf, model_larger_than_gpu_mem)
{
    static const int32_t p0[] = {0};
    for (int mem = 0; mem < 2; mem++) {
        wcase k;
        wc_init(&k, 1, 1, 1);
        k.p.gpu_mem = mem ? 1000 : 0;
        wc_row(&k, 0, 10, 1, A, 2, 0, 0, NULL);
        wc_row(&k, 0, 10, 1, A, 2, 0, 1, p0);
        wc_row(&k, 0, 10, 1, A, -1, 0, 0, NULL);
        wc_row(&k, 0, 10, 1, A, -1, 0, 0, NULL);
        k.task[0].mid = k.task[3].mid = 9;
        k.task[0].mem_mb = 1200;
        wc_run(&k);
        if (mem) {
            cr_expect(k.out[0].rejected && k.out[1].rejected && k.out[3].rejected);
            expect_run(&k, 2, 0, 15);
            cr_expect_eq(k.m.rejected, 3);
            cr_expect_eq(k.m.wf_rejected, 1);
            cr_expect_eq(k.m.wf_jct_mean, 0.0);
            cr_expect_eq(k.m.wf_jct_p99, 0);
        } else {
            expect_run(&k, 1, 10, 20);
            expect_run(&k, 2, 20, 30);
            expect_run(&k, 3, 30, 40);
            cr_expect_eq(k.m.rejected, 0);
            cr_expect_eq(k.m.wf_jct_p99, 20);
            cr_expect_eq(k.m.loads, 0);
        }
        ref_log_free(&k.log);
    }
}

/* A parent that is not an earlier task of the workflow rejects the whole
 * workflow (12.1). 1x1x1, gpu_mem 0, all 10 s at 0: workflow 1 is T0 and
 * T1 (after row 3, a later row); workflow 2 is T2 and T3 (after row 0, in
 * workflow 1); J is plain. Only J runs, 0..10: rejected 4, wf_rejected 2. */
Test(refsim_wf, bad_parents_reject_workflow)
{
    static const int32_t p3[] = {3}, p0[] = {0};
    wcase k;
    wc_init(&k, 1, 1, 1);
    k.p.gpu_mem = 0;
    wc_row(&k, 0, 10, 1, A, 1, 0, 0, NULL);
    wc_row(&k, 0, 10, 1, A, 1, 0, 1, p3);
    wc_row(&k, 0, 10, 1, A, 2, 0, 0, NULL);
    wc_row(&k, 0, 10, 1, A, 2, 0, 1, p0);
    wc_row(&k, 0, 10, 1, A, -1, 0, 0, NULL);
    wc_run(&k);
    for (int r = 0; r < 4; r++)
        cr_expect(k.out[r].rejected, "row %d", r);
    expect_run(&k, 4, 0, 10);
    cr_expect_eq(k.m.rejected, 4);
    cr_expect_eq(k.m.wf_rejected, 2);
    ref_log_free(&k.log);
}

/* A late-ready task keeps its fifo rank; sjf ranks it by duration. 1x1x1,
 * gpu_mem 0: T0 (wf 5, 100 s) and T1 (wf 5, after T0, 50 s) at 0, J (30 s)
 * at 10.
 *   fifo: T1 is ready at 100 and ranks (0, row 1) ahead of J (10, row 2):
 *   T1 100..150 (its JCT 50, its wait 0), J 150..180 (JCT 170);
 *   jct_mean (100 + 50 + 170) / 3, queue_mean 140 / 3, wf_jct 150.
 *   sjf: J (30 s) before T1 (50 s): J 100..130, T1 130..180, wf_jct 180. */
Test(refsim_wf, fifo_static_rank_and_sjf)
{
    static const int32_t p0[] = {0};
    for (int sjf = 0; sjf < 2; sjf++) {
        wcase k;
        wc_init(&k, 1, 1, 1);
        k.p.gpu_mem = 0;
        k.p.order = sjf ? REF_SJF : REF_FIFO;
        wc_row(&k, 0, 100, 1, A, 5, 0, 0, NULL);
        wc_row(&k, 0, 50, 1, A, 5, 0, 1, p0);
        wc_row(&k, 10, 30, 1, A, -1, 0, 0, NULL);
        wc_run(&k);
        expect_run(&k, 1, sjf ? 130 : 100, sjf ? 180 : 150);
        expect_run(&k, 2, sjf ? 100 : 150, sjf ? 130 : 180);
        cr_expect_eq(k.m.wf_jct_p99, sjf ? 180 : 150);
        if (!sjf) {
            cr_expect_eq(k.out[1].queue_total, 0);
            cr_expect(fabs(k.m.jct_mean - 320.0 / 3.0) < 1e-9);
            cr_expect(fabs(k.m.queue_mean - 140.0 / 3.0) < 1e-9);
        }
        ref_log_free(&k.log);
    }
}

/* An evicted job's warm wait. 1x3x1, w_warm 50, theta 1500, w0 0, min_run
 * 0. J1 (A, 200 s), J2 (B, 300 s), J3 (B, 100 s) at 0; S1 (S, 100 s) at 60.
 *   No node is warm at 0: all three wait until 50, then take nodes 0, 1,
 *   2 (L 5, 4, 4): J2 ends 354, J3 154.
 *   S1 waits warm until 110, then evicts J1 (three equal victims, node 0
 *   lowest) after 55 s of work (145 s left) and runs 110 + 1 + 100 = 211.
 *   J1's warm wait runs from its eviction to 160: node 2 frees at 154 but
 *   holds no A, so J1 takes it at 160: 160 + 30 + 5 + 145 = 340, having
 *   waited 50 + 50 s. (Going back to SPEC 6 at once, it would take node 2 at
 *   154 and end at 334.) */
static void evicted_warm_case(wcase *k)
{
    wc_init(k, 1, 3, 1);
    k->p.w_warm = 50;
    k->p.theta = 1500;
    k->p.w0 = 0;
    k->p.min_run = 0;
    wc_row(k, 0, 200, 1, A, -1, 0, 0, NULL);
    wc_row(k, 0, 300, 1, B, -1, 0, 0, NULL);
    wc_row(k, 0, 100, 1, B, -1, 0, 0, NULL);
    wc_row(k, 60, 100, 1, S, -1, 0, 0, NULL);
}

Test(refsim_wf, evicted_warm_wait)
{
    wcase k;
    evicted_warm_case(&k);
    wc_run_ref(&k, MD, NMD);
    expect_run(&k, 1, 50, 354);
    expect_run(&k, 2, 50, 154);
    expect_run(&k, 3, 110, 211);
    expect_run(&k, 0, 50, 340);
    cr_expect_eq(node_of(&k, 0, 1), 2);
    cr_expect_eq(k.out[0].queue_total, 100);
    ref_log_free(&k.log);
}

Test(refsim_wf, evicted_warm_wait_engine)
{
    wcase k;
    evicted_warm_case(&k);
    wc_run(&k);
    ref_log_free(&k.log);
}

/* dlas with a workflow: a ready task enters queue
 * 0 at its ready time. 1x1x1, gpu_mem 0: T0 (wf 1, 100 s) and T1 (after
 * T0, 50 s) at 0, J (30 s) at 10. Everything stays in queue 0 (3250
 * GPU-s), ordered by queue entry: J (10) before T1 (100): J 100..130, T1
 * 130..180; fifo's static rank would run T1 first. */
Test(refsim_wf, dlas_ready_task_in_queue_zero)
{
    static const int32_t p0[] = {0};
    wcase k;
    wc_init(&k, 1, 1, 1);
    k.p.gpu_mem = 0;
    k.p.order = REF_DLAS;
    wc_row(&k, 0, 100, 1, A, 1, 0, 0, NULL);
    wc_row(&k, 0, 50, 1, A, 1, 0, 1, p0);
    wc_row(&k, 10, 30, 1, A, -1, 0, 0, NULL);
    wc_run(&k);
    expect_run(&k, 2, 100, 130);
    expect_run(&k, 1, 130, 180);
    cr_expect_eq(k.m.wf_jct_p99, 180);
    ref_log_free(&k.log);
}

/* gittins_dist=trace takes gpus x duration of the accepted jobs (SPEC
 * 11.2), so a job rejected for its model's size (12.1) is no sample. On
 * 1x1x1, gittins with one queue (mlfq 100000), D = 20, theta 1500, w0 0,
 * min_run 0, gpu_mem 1000: R (mid 9 of 1200 MiB, 25 s) is rejected; J1
 * and J2 (A, 100 s, sizes unknown: L = 0) at 0, S1 (S, 10 s) at 10.
 *   J1 runs from 0; S1 evicts it at 10 (10 GPU-s attained) and runs 10..20.
 *   At 20, samples {10, 100, 100}: G(0) = 1 / (10 + 20 + 20) = 1/50 for
 *   J2, G(10) = 0 / (20 + 20) = 0 for J1: J2 runs 20..120, J1 restarts
 *   120 + 30 + 90 = 240.
 * (With R's 25 among the samples G(0) = 1/70 and G(10) = 1/55, and J1
 * would go first: 20..140, J2 140..240.) */
static void gittins_rejected_case(wcase *k)
{
    wc_init(k, 1, 1, 1);
    k->p.order = REF_GITTINS;
    k->p.nmlfq = 1;
    k->p.mlfq[0] = 100000;
    k->p.gittins_delta = 20;
    k->p.theta = 1500;
    k->p.w0 = 0;
    k->p.min_run = 0;
    wc_row(k, 0, 25, 1, A, -1, 0, 0, NULL);
    wc_row(k, 0, 100, 1, A, -1, 0, 0, NULL);
    wc_row(k, 0, 100, 1, A, -1, 0, 0, NULL);
    wc_row(k, 10, 10, 1, S, -1, 0, 0, NULL);
    k->task[0].mid = 9;
    k->task[0].mem_mb = 1200;
    for (int r = 1; r < 4; r++)
        k->task[r].mem_mb = -1;
}

Test(refsim_wf, gittins_samples_skip_rejected_models)
{
    wcase k;
    static const ref_model md[] = {{1000, 1000, -1}, {1000, 1000, -1}, {1000, 2000, -1}};
    gittins_rejected_case(&k);
    wc_run_ref(&k, md, NMD);
    cr_expect(k.out[0].rejected);
    expect_run(&k, 3, 10, 20);
    expect_run(&k, 2, 20, 120);
    expect_run(&k, 1, 0, 240);
    ref_log_free(&k.log);
}

/* The engine's samples leave out the rejected jobs too: its distribution
 * for gittins_dist=trace is keyed by what a configuration rejects
 * (libcore/sim/gittins.c), so it runs J2 first as the reference does. */
Test(refsim_wf, gittins_samples_engine)
{
    wcase k;
    static const ref_model md[] = {{1000, 1000, -1}, {1000, 1000, -1}, {1000, 2000, -1}};
    gittins_rejected_case(&k);
    check_case(md, NMD, &k.c, &k.p, k.jobs, k.n, k.out, &k.m, &k.log);
    ref_log_free(&k.log);
}

/* The invariant check sees SPEC 12's overheads and metrics: SPEC 12.10 A
 * (off) run, then one thing broken at a time. */
Test(refsim_wf, checker_detects_violations)
{
    static const int32_t p1[] = {1};
    wcase k;
    char why[256];
    wc_init(&k, 1, 2, 1);
    wc_row(&k, 0, 50, 1, B, -1, 0, 0, NULL);
    wc_row(&k, 0, 100, 1, A, 7, 200, 0, NULL);
    wc_row(&k, 0, 50, 1, A, 7, 0, 1, p1);
    wc_run_ref(&k, MD, NMD);
    ref_segment *t1 = &k.log.seg[k.log.nseg - 1];
    cr_assert_eq(t1->job, 2);
    ref_params warm = k.p;
    warm.w_warm = 100; /* T1 started cold at once */
    ref_metrics m = k.m;
    m.load_gpu_s++;
    struct {
        int64_t ld, xf;
        const ref_params *p;
        const ref_metrics *m;
        const char *what;
    } bad[] = {
        {5, 1, &k.p, &k.m, "overhead"}, /* X not from T0's home, R on a first start */
        {3, 4, &k.p, &k.m, "overhead"}, /* a part of a load */
        {5, 2, &warm, &k.m, "warm wait"},
        {5, 2, &k.p, &m, "12.8"},
    };
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        /* r stays 7, so the end stays right: only the parts are wrong */
        t1->ld = bad[b].ld;
        t1->xf = bad[b].xf;
        t1->rr = 7 - t1->ld - t1->xf;
        cr_expect_eq(ref_check_invariants(&k.c, bad[b].p, MD, NMD, k.jobs, k.n, k.out,
                                          bad[b].m, &k.log, why, sizeof why),
                     -1, "case %zu passed", b);
        cr_expect(strstr(why, bad[b].what), "case %zu: %s", b, why);
    }
    ref_log_free(&k.log);
}

/* ---- random DAG traces against the engine ---- */


/* A random case: 5..60 rows on up to 4 nodes, plain jobs among chains,
 * fans and joins of up to 3 open workflows (now and then a parent that
 * rejects its workflow), models by mid or class with sizes up to 700
 * MiB, outputs, and every SPEC 12 parameter drawn. One case in six runs
 * under dlas or gittins. */
static void random_case(uint64_t seed, wcase *k, ref_model *md, int *nm)
{
    static const int64_t gs[] = {1, 2, 4, 8};
    static const int64_t mems[] = {0, 0, 600, 1000, 1500};
    static const int64_t bws[] = {50, 100, 1000};
    static const int64_t ws[] = {0, 0, 0, 10, 60};
    static const int64_t timers[] = {0, 30, 200, REF_INF};
    static const int64_t thetas[] = {REF_INF, REF_INF, 1000, 1500};
    static const int orders[] = {REF_FIFO, REF_SJF, REF_SRTF, REF_LAS, REF_FTF};
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 12;
    int32_t nodes = (int32_t)pick(&s, 1, 4), racks = nodes > 1 && pick(&s, 0, 1) ? 2 : 1;
    wc_init(k, racks, (nodes + racks - 1) / racks, (int32_t)pick_of(&s, gs, 4));
    int32_t G = k->c.gpus_per_node, total = k->c.racks * k->c.nodes_per_rack * G;
    *nm = (int)pick(&s, 1, 3);
    for (int c = 0; c < *nm; c++) {
        md[c].slow_l1 = pick(&s, 0, 1) ? 1000 : pick(&s, 1000, 1500);
        md[c].slow_l2 = md[c].slow_l1 + pick(&s, 0, 1000);
        md[c].mem_mb = (int32_t)(pick(&s, 0, 4) ? pick(&s, 1, 700) : -1);
    }
    ref_params *p = &k->p;
    p->gpu_mem = pick_of(&s, mems, 5);
    p->cache_slots = pick(&s, 1, 4);
    p->load_bw = pick_of(&s, bws, 3);
    p->xfer_bw = pick_of(&s, bws, 3);
    p->evict = (int)pick(&s, 0, 1);
    p->cache_place = (int)pick(&s, 0, 1);
    p->w_warm = pick_of(&s, ws, 5);
    p->order = orders[pick(&s, 0, 4)];
    p->w0 = pick_of(&s, timers, 4);
    p->w1 = pick_of(&s, timers, 4);
    p->theta = pick_of(&s, thetas, 4);
    p->restart = pick(&s, 0, 40);
    p->min_run = pick(&s, 0, 100);
    p->max_preempt = pick(&s, 0, 3);
    p->backfill = (int)pick(&s, 0, 3) > 0;
    int mlfq = pick(&s, 0, 5) == 0;
    if (mlfq) {
        p->order = pick(&s, 0, 1) ? REF_DLAS : REF_GITTINS;
        p->nmlfq = 2;
        p->mlfq[0] = pick(&s, 1, 500);
        p->mlfq[1] = p->mlfq[0] + pick(&s, 1, 2000);
        p->gittins_delta = pick(&s, 1, 1000);
        p->promote = pick(&s, 0, 1) ? 0 : pick(&s, 1, 4000);
    }
    int64_t n = pick(&s, 5, 60), t = 0, open[3] = {-1, -1, -1}, nextwf = 0;
    int32_t msize[6];
    for (int u = 0; u < 6; u++)
        msize[u] = (int32_t)pick(&s, 0, 700);
    for (int64_t i = 0; i < n; i++) {
        t += pick(&s, 0, 2) ? pick(&s, 0, 60) : 0;
        int32_t gpus = (int32_t)(pick(&s, 0, 9) < 8 ? pick(&s, 1, G) : pick(&s, 1, total));
        if (pick(&s, 0, 40) == 0)
            gpus = total + 1;
        int64_t wf = -1;
        int nd = 0;
        int32_t dep[4];
        if (pick(&s, 0, 2)) {
            int slot = (int)pick(&s, 0, 2);
            if (open[slot] < 0 || pick(&s, 0, 5) == 0)
                open[slot] = nextwf++ * 3 + 1; /* sparse ids */
            wf = open[slot];
            /* parents among the earlier rows of wf: the last (chains), any
             * (fans), two (joins) */
            int32_t rows[WMAX], nr = 0;
            for (int64_t u = 0; u < i; u++)
                if (k->task[u].wf == wf)
                    rows[nr++] = (int32_t)u;
            int want = nr ? (int)pick(&s, 0, 2) : 0;
            for (int d = 0; d < want; d++)
                dep[nd++] = d == 0 && pick(&s, 0, 1) ? rows[nr - 1] : rows[pick(&s, 0, nr - 1)];
            if (i > 0 && pick(&s, 0, 50) == 0)
                dep[nd++] = (int32_t)pick(&s, 0, i - 1); /* perhaps another workflow's */
        }
        int64_t r = wc_row(k, t, pick(&s, 0, 9) ? pick(&s, 1, 300) : pick(&s, 0, 5), gpus,
                           (int32_t)pick(&s, 0, *nm - 1), wf, 0, nd, dep);
        ref_task *tk = &k->task[r];
        tk->out_mb = (int32_t)(pick(&s, 0, 1) ? pick(&s, 1, 500) : 0);
        if (pick(&s, 0, 2)) {
            tk->mid = (int32_t)pick(&s, 0, 5);
            tk->mem_mb = pick(&s, 0, 3) ? msize[tk->mid] : -1;
        }
    }
}

Test(refsim_wf, random_dags_against_engine)
{
    enum { RUNS = 1000 };
    int64_t tasks = 0, rej = 0, loads = 0, evicts = 0, xfer = 0, pre = 0, warm = 0;
    int64_t mtasks = 0, wpre = 0; /* tasks under dlas or gittins; evictions with w_warm */
    for (uint64_t seed = 1; seed <= RUNS; seed++) {
        wcase k;
        ref_model md[3];
        int nm;
        char why[256] = "", label[64];
        random_case(seed, &k, md, &nm);
        cr_assert_eq(ref_simulate_log(&k.c, &k.p, md, nm, k.jobs, k.n, k.out, &k.m, &k.log), 0,
                     "seed %llu", (unsigned long long)seed);
        cr_assert_eq(ref_check_invariants(&k.c, &k.p, md, nm, k.jobs, k.n, k.out, &k.m, &k.log,
                                          why, sizeof why),
                     0, "seed %llu: %s", (unsigned long long)seed, why);
        tt_job_result eo[WMAX];
        tt_metrics em;
        cr_assert_eq(engine_run(&k.c, &k.p, md, nm, k.jobs, k.n, eo, &em, NULL), 0,
                     "seed %llu", (unsigned long long)seed);
        snprintf(label, sizeof label, "seed %llu", (unsigned long long)seed);
        expect_engine_equal(label, k.n, k.out, &k.m, eo, &em);
        int mlfq = k.p.order == REF_DLAS || k.p.order == REF_GITTINS;
        for (int64_t i = 0; i < k.n; i++) {
            tasks += k.task[i].wf >= 0 && !k.out[i].rejected;
            mtasks += mlfq && k.task[i].wf >= 0 && !k.out[i].rejected;
        }
        wpre += k.p.w_warm > 0 ? k.m.preemptions : 0;
        rej += k.m.wf_rejected;
        loads += k.m.loads;
        evicts += k.m.model_evicts;
        xfer += k.m.xfer_gpu_s > 0;
        pre += k.m.preemptions;
        warm += k.p.w_warm > 0;
        ref_log_free(&k.log);
    }
    /* the generator reaches what SPEC 12 adds */
    cr_expect_gt(tasks, 8000);
    cr_expect_gt(rej, 500);
    cr_expect_gt(evicts, 10000);
    cr_expect_gt(xfer, 200);
    cr_expect_gt(pre, 500);
    cr_expect_gt(warm, 200);
    cr_expect_gt(mtasks, 1500); /* 1,919 */
    cr_expect_gt(wpre, 500);    /* 733 */
    cr_expect_gt(loads, evicts);
}
