/* Workflows (docs/model.md section 12) in the engine: tasks ready at
 * their parents' ends, their ready time standing for submit' (waits,
 * timers, JCTs) while fifo keeps their static rank, whole-workflow
 * rejection, the workflow metrics; scenarios worked by hand, and random
 * cases: tasks without parents run exactly as plain jobs, and every task
 * starts after its parents end. */
#include "wfcase.h"

/* A chain on one GPU: T1 becomes ready when T0 ends at 100 and, under
 * fifo, keeps its rank (row 1) ahead of J (row 2, submitted at 10): it
 * runs 100..150, J 150..180. T1's JCT and wait count from its ready time. */
Test(workflows, chain_static_rank)
{
    wcase k;
    wcase_init(&k, 1, 1, 1);
    int32_t p0[] = {0};
    wjob(&k, 0, 100, 1, 5, NULL, 0);
    wjob(&k, 0, 50, 1, 5, p0, 1);
    wjob(&k, 10, 30, 1, -1, NULL, 0);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[1].start, 100);
    cr_expect_eq(o[1].end, 150);
    cr_expect_eq(o[1].submit, 100); /* its ready time */
    cr_expect_eq(o[1].queue, 0);
    cr_expect_eq(o[2].start, 150);
    cr_expect_eq(o[2].end, 180);
    cr_expect_eq(m.jct_p99, 170);
    cr_expect(fabs(m.jct_mean - (100 + 50 + 170) / 3.0) < 1e-9);
    cr_expect(fabs(m.queue_mean - 140 / 3.0) < 1e-9);
    cr_expect_eq(m.makespan, 180);
    cr_expect(fabs(m.wf_jct_mean - 150) < 1e-9);
    cr_expect_eq(m.wf_jct_p99, 150);
    cr_expect_eq(m.wf_rejected, 0);
    /* sjf ranks by duration: J (30 s) goes first at 100, T1 at 130 */
    k.p.order = TT_ORDER_SJF;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 100);
    cr_expect_eq(o[1].start, 130);
    cr_expect_eq(m.wf_jct_p99, 180);
}

/* A parent that ends before its child's submit': the child arrives at its
 * own submit' (50), which must stay an event though the child was
 * waiting for a parent when the run began. */
Test(workflows, ready_at_submit)
{
    wcase k;
    wcase_init(&k, 1, 1, 2);
    int32_t p0[] = {0};
    wjob(&k, 0, 10, 1, 1, NULL, 0);
    wjob(&k, 5, 100, 1, -1, NULL, 0);
    wjob(&k, 50, 20, 1, 1, p0, 1);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 50);
    cr_expect_eq(o[2].end, 70);
    cr_expect_eq(o[2].submit, 50);
    cr_expect_eq(m.wf_jct_p99, 70);
}

/* Timers count from the ready time, and their crossing is an event. On
 * 1x2x2 A and T0 fill node 0, B half of node 1; T1 (2 GPUs) is ready at
 * 100 with one GPU free on each node: L0 is closed until 500, and w0 = 30,
 * w1 = 0 let it take L1 at 130, not at 100 (timers from submit' 0) nor at
 * 500 (no event at the crossing). */
Test(workflows, timers_from_ready)
{
    wcase k;
    wcase_init(&k, 1, 2, 2);
    k.p.w0 = 30;
    k.p.w1 = 0;
    int32_t p1[] = {1};
    wjob(&k, 0, 500, 1, -1, NULL, 0);
    wjob(&k, 0, 100, 1, 2, NULL, 0);
    wjob(&k, 0, 500, 1, -1, NULL, 0);
    wjob(&k, 0, 60, 2, 2, p1, 1);
    tt_job_result o[4];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[1].end, 100);
    cr_expect_eq(o[3].start, 130);
    cr_expect_eq(o[3].level, 1);
    cr_expect_eq(o[3].queue, 30);
    cr_expect_eq(m.wf_jct_p99, 190);
    /* with the timers per class the same */
    k.p.class_w0[0] = 30;
    k.p.class_w1[0] = 0;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[3].start, 130);
}

/* Whole-workflow rejection: a task larger than the cluster (SPEC 12.10 C's
 * workflow 4), a parent in another workflow, a parent not earlier. */
Test(workflows, rejection)
{
    wcase k;
    wcase_init(&k, 1, 2, 1);
    int32_t p0[] = {0}, p2[] = {2}, p5[] = {5};
    wjob(&k, 0, 100, 3, 4, NULL, 0); /* too large */
    wjob(&k, 0, 50, 1, 4, p0, 1);
    wjob(&k, 0, 10, 1, 6, NULL, 0);
    wjob(&k, 0, 10, 1, 7, p2, 1);    /* parent in workflow 6 */
    wjob(&k, 0, 10, 1, 8, p5, 1);    /* parent after it */
    wjob(&k, 0, 10, 1, 8, NULL, 0);
    wjob(&k, 0, 10, 1, -1, NULL, 0);
    tt_job_result o[7];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    for (int i = 0; i < 7; i++)
        cr_expect_eq(o[i].rejected, i == 0 || i == 1 || i == 3 || i == 4 || i == 5, "row %d", i);
    cr_expect_eq(m.rejected, 5);
    cr_expect_eq(m.wf_rejected, 3);
    cr_expect_eq(m.wf_jct_p99, 10);
}

/* A fan-in: T2 waits for both parents; its JCT starts at the later end. */
Test(workflows, fan_in)
{
    wcase k;
    wcase_init(&k, 1, 2, 1);
    int32_t p01[] = {0, 1};
    wjob(&k, 0, 100, 1, 3, NULL, 0);
    wjob(&k, 0, 60, 1, 3, NULL, 0);
    wjob(&k, 0, 50, 1, 3, p01, 2);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].submit, 100);
    cr_expect_eq(o[2].start, 100);
    cr_expect_eq(o[2].end, 150);
    cr_expect_eq(m.wf_jct_p99, 150);
    cr_expect(fabs(m.wf_jct_mean - 150) < 1e-9);
}

/* ---- dlas and gittins (12.5: qent from the ready time) ---- */

/* On 1x1x1 T0 runs 0..50; T1 is ready at 50, when J (submitted at 20)
 * has waited in queue 0 since 20: J runs 50..80, T1 80..90 (its qent is
 * 50, not its trace submit' 0). Under gittins every fresh job has G(0):
 * the same. Under fifo T1 keeps its static rank and runs first. */
Test(workflows, mlfq_ready_late)
{
    static const int orders[] = {TT_ORDER_DLAS, TT_ORDER_GITTINS};
    wcase k;
    wcase_init(&k, 1, 1, 1);
    int32_t p0[] = {0};
    wjob(&k, 0, 50, 1, 1, NULL, 0);
    wjob(&k, 0, 10, 1, 1, p0, 1);
    wjob(&k, 20, 30, 1, -1, NULL, 0);
    tt_job_result o[3];
    tt_metrics m;
    for (int q = 0; q < 2; q++) {
        k.p.order = orders[q];
        cr_assert_eq(wrun(&k, o, &m), 0);
        cr_expect_eq(o[2].start, 50, "order %d", orders[q]);
        cr_expect_eq(o[1].start, 80, "order %d", orders[q]);
        cr_expect_eq(o[1].submit, 50);
        cr_expect_eq(o[1].queue, 30);
        cr_expect_eq(m.wf_jct_p99, 90);
        cr_expect_eq(m.demotions + m.preemptions, 0);
    }
    k.p.order = TT_ORDER_FIFO;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[1].start, 50);
    cr_expect_eq(o[2].start, 60);
}

/* A task demoted and promoted: 1x1x1, dlas, mlfq=100, promote=1000,
 * max_preempt=1, min_run=0, restart=0. T0 runs 0..10; T1 (300 s) is
 * ready at 10 and demoted at 10 + 100 = 110. J (400 s) arrives at 150
 * and evicts it (T1 held 140 s: E = 140, promoted at 150 + 140 = 290).
 * J is demoted at 250; at 290 T1, in queue 0 again, evicts J (E = 140,
 * promoted at 430) and runs its 160 s left to 450 (demoted at 390). At
 * 430 J may not evict T1 (max_preempt), so it restarts at 450 with 260 s
 * left and ends at 710 (demoted at 550). */
Test(workflows, mlfq_demote_promote)
{
    wcase k;
    wcase_init(&k, 1, 1, 1);
    k.p.order = TT_ORDER_DLAS;
    k.p.nmlfq = 1;
    k.p.mlfq[0] = 100;
    k.p.promote = 1000;
    k.p.max_preempt = 1;
    k.p.min_run = 0;
    k.p.restart = 0;
    int32_t p0[] = {0};
    wjob(&k, 0, 10, 1, 1, NULL, 0);
    wjob(&k, 0, 300, 1, 1, p0, 1);
    wjob(&k, 150, 400, 1, -1, NULL, 0);
    tt_job_result o[3];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[1].start, 10);
    cr_expect_eq(o[1].end, 450);
    cr_expect_eq(o[1].preemptions, 1);
    cr_expect_eq(o[2].start, 150);
    cr_expect_eq(o[2].end, 710);
    cr_expect_eq(o[2].preemptions, 1);
    cr_expect_eq(m.demotions, 4);
    cr_expect_eq(m.promotions, 2);
    cr_expect_eq(m.preempt_prio, 2);
    cr_expect_eq(m.wf_jct_p99, 450);
}

static uint64_t mix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int64_t draw(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(mix64(s) % (uint64_t)(hi - lo + 1));
}

static void random_params(uint64_t *s, tt_params *p)
{
    static const int orders[] = {TT_ORDER_FIFO, TT_ORDER_SJF,  TT_ORDER_SRTF,   TT_ORDER_LAS,
                                 TT_ORDER_FTF,  TT_ORDER_DLAS, TT_ORDER_GITTINS};
    static const int64_t w[] = {0, 20, 100, TT_INF};
    tt_params_default(p);
    p->order = orders[draw(s, 0, 6)];
    if (p->order == TT_ORDER_DLAS || p->order == TT_ORDER_GITTINS) {
        /* thresholds low enough that tasks are demoted, and promoted */
        p->nmlfq = (int32_t)draw(s, 1, 2);
        p->mlfq[0] = draw(s, 1, 300);
        p->mlfq[1] = p->mlfq[0] + draw(s, 1, 300);
        p->promote = draw(s, 0, 1) ? draw(s, 1, 3000) : 0;
        p->prio_preempt = (int32_t)draw(s, 0, 1);
        /* finite: with min_run below restart two jobs could swap forever
         * without progress (SPEC 11.10's ping-pong) */
        p->max_preempt = draw(s, 0, 3);
        p->gittins_delta = draw(s, 1, 400);
    }
    p->w0 = w[draw(s, 0, 3)];
    p->w1 = w[draw(s, 0, 3)];
    p->theta = draw(s, 0, 1) ? TT_INF : 1000;
    p->min_run = draw(s, 0, 100);
    p->restart = draw(s, 0, 30);
    p->backfill = (int32_t)draw(s, 0, 1);
    p->load = draw(s, 0, 1) ? 1000 : 2000;
}

static void random_jobs(uint64_t *s, wcase *k, int n)
{
    int64_t t = 0;
    for (int i = 0; i < n; i++) {
        t += draw(s, 0, 40);
        int64_t wf = draw(s, 0, 2) ? -1 : draw(s, 0, 3);
        int32_t dep[3];
        int nd = 0;
        for (int q = 0; wf >= 0 && q < 3; q++) { /* earlier tasks of the same workflow */
            int32_t c = (int32_t)draw(s, 0, i > 0 ? i - 1 : 0);
            if (i > 0 && k->wf[c] == wf && draw(s, 0, 1))
                dep[nd++] = c;
        }
        wjob(k, t, draw(s, 0, 200), (int32_t)draw(s, 1, 4), wf, dep, nd);
    }
}

/* Tasks without parents are jobs: the same results as the trace without
 * its workflow columns (but the workflow metrics). */
Test(workflows, random_no_parents_as_jobs)
{
    uint64_t s = 20;
    for (int c = 0; c < 300; c++) {
        wcase k;
        wcase_init(&k, 1, (int32_t)draw(&s, 1, 3), (int32_t)draw(&s, 2, 4));
        random_params(&s, &k.p);
        int n = (int)draw(&s, 1, 30);
        int32_t cg = k.c.nodes_per_rack * k.c.gpus_per_node; /* a task larger rejects its workflow */
        for (int i = 0; i < n; i++)
            wjob(&k, i * draw(&s, 0, 20), draw(&s, 0, 200), (int32_t)draw(&s, 1, cg),
                 draw(&s, -1, 3), NULL, 0);
        for (int i = 1; i < n; i++) /* sorted */
            if (k.submit[i] < k.submit[i - 1])
                k.submit[i] = k.submit[i - 1];
        tt_job_result a[WMAXJ], b[WMAXJ];
        tt_metrics ma, mb;
        cr_assert_eq(wrun(&k, a, &ma), 0);
        k.tasks = 0;
        cr_assert_eq(wrun(&k, b, &mb), 0);
        for (int i = 0; i < n; i++) {
            cr_assert_eq(a[i].start, b[i].start, "case %d job %d", c, i);
            cr_assert_eq(a[i].end, b[i].end, "case %d job %d", c, i);
            cr_assert_eq(a[i].queue, b[i].queue, "case %d job %d", c, i);
        }
        /* every metric before section 12's */
        cr_assert(memcmp(&ma, &mb, offsetof(tt_metrics, wf_jct_mean)) == 0, "case %d", c);
    }
}

/* Random DAGs under every order, with transfers, elastic tasks or the
 * cache: every accepted job ends once, after it became ready, no task
 * starts before its parents end, and the overheads' GPU-seconds are
 * within those used. */
Test(workflows, random_dags)
{
    uint64_t s = 7;
    for (int c = 0; c < 400; c++) {
        wcase k;
        wcase_init(&k, (int32_t)draw(&s, 1, 2), (int32_t)draw(&s, 1, 3),
                   (int32_t)draw(&s, 1, 4));
        random_params(&s, &k.p);
        k.p.el_up = draw(&s, 0, 1); /* elastic tasks: a start that grows pays X once */
        k.p.el_frac = draw(&s, 0, 1000);
        k.p.xfer_bw = draw(&s, 1, 50);
        int n = (int)draw(&s, 1, 40);
        random_jobs(&s, &k, n);
        k.outs = (int)draw(&s, 0, 1);
        for (int i = 0; i < n; i++)
            k.out_mb[i] = (int32_t)(draw(&s, 0, 1) ? draw(&s, 0, 500) : 0);
        if (draw(&s, 0, 1)) { /* the cache, which elastic jobs do not have yet */
            k.p.el_up = 0;
            k.p.gpu_mem = draw(&s, 100, 1500);
            k.p.cache_slots = draw(&s, 1, 3);
            k.p.load_bw = draw(&s, 1, 100);
            k.p.evict = (int32_t)draw(&s, 0, 1);
            k.p.cache_place = (int32_t)draw(&s, 0, 1);
            k.p.w_warm = draw(&s, 0, 1) ? draw(&s, 1, 60) : 0;
            k.mids = 1;
            for (int i = 0; i < n; i++) {
                k.mid[i] = (int32_t)draw(&s, -1, 4);
                k.mem_mb[i] = (int32_t)draw(&s, -1, 600);
            }
        }
        tt_job_result o[WMAXJ];
        tt_metrics m;
        cr_assert_eq(wrun(&k, o, &m), 0, "case %d", c);
        int64_t used = 0;
        for (int i = 0; i < n; i++)
            used += o[i].gpu_s;
        cr_assert(m.restart_gpu_s + m.xfer_gpu_s <= used, "case %d", c);
        cr_assert(k.outs || m.xfer_gpu_s == 0, "case %d", c);
        cr_assert(m.cache_hit >= 0 && m.cache_hit <= 1000 && m.model_evicts <= m.loads,
                  "case %d", c);
        cr_assert(m.restart_gpu_s + m.xfer_gpu_s + m.load_gpu_s <= used, "case %d", c);
        for (int i = 0; i < n; i++) {
            if (o[i].rejected)
                continue;
            /* at twice its GPUs an elastic task may run twice as fast */
            int64_t least = k.p.el_up ? k.duration[i] / 2 : k.duration[i];
            cr_assert(o[i].start >= o[i].submit && o[i].end >= o[i].start + least,
                      "case %d job %d", c, i);
            for (int64_t d = k.dep_off[i]; d < k.dep_off[i + 1]; d++) {
                int32_t p = k.deps[d];
                cr_assert(!o[p].rejected, "case %d: a parent of %d rejected alone", c, i);
                cr_assert(o[i].start >= o[p].end && o[i].submit >= o[p].end,
                          "case %d: %d starts at %lld before parent %d ends at %lld", c, i,
                          (long long)o[i].start, p, (long long)o[p].end);
            }
        }
    }
}

/* ---- transfers (12.3) ---- */

/* SPEC 12.10 C without the cache (gpu_mem = 0: no load, so T0 ends at 100
 * and T1 at 60): at 100 both nodes are free and T2 takes node 0 (best
 * fit, lower index); T1's 300 MiB come from node 1 at 100 MiB/s, X = 3,
 * so T2 ends at 153. Workflow 4 is rejected whole. */
Test(workflows, scenario_c_transfers)
{
    wcase k;
    wcase_init(&k, 1, 2, 1);
    k.p.xfer_bw = 100;
    int32_t p01[] = {0, 1}, p3[] = {3};
    wjob(&k, 0, 100, 1, 3, NULL, 0);
    wjob(&k, 0, 60, 1, 3, NULL, 0);
    wjob(&k, 0, 50, 1, 3, p01, 2);
    wjob(&k, 0, 10, 3, 4, NULL, 0);
    wjob(&k, 0, 10, 1, 4, p3, 1);
    k.out_mb[0] = 100;
    k.out_mb[1] = 300;
    k.outs = 1;
    tt_job_result o[5];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 100);
    cr_expect_eq(o[2].end, 153);
    cr_expect_eq(m.xfer_gpu_s, 3);
    cr_expect_eq(m.restart_gpu_s, 0);
    cr_expect_eq(m.load_gpu_s, 0);
    cr_expect_eq(m.wf_jct_p99, 153);
    cr_expect_eq(m.rejected, 2);
    cr_expect_eq(m.wf_rejected, 1);
    /* T0 homed on node 0 too: T2 there reads only T1's output; with T1's
     * output 0 nothing moves */
    k.out_mb[1] = 0;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].end, 150);
    cr_expect_eq(m.xfer_gpu_s, 0);
}

/* A restart pays R + X again, X recomputed for the new placement (12.3).
 * On 1x2x1 T0 runs on node 0 (0..10), J on node 1 (0..40); T1 is ready
 * at 10 on node 0 (X = 0: its parent's home). S (sensitive, w0 = 0)
 * evicts it at 20; it restarts at 40 on node 1, reading T0's 50 MiB at 10
 * MiB/s: r = 20 + 5, the 90 s of work left end it at 155. restart_gpu_s
 * keeps the restart share, xfer_gpu_s the transfer's. */
Test(workflows, transfer_after_restart)
{
    wcase k;
    wcase_init(&k, 1, 2, 1);
    k.p.xfer_bw = 10;
    k.p.restart = 20;
    k.p.theta = 1500;
    k.p.w0 = 0;
    k.p.min_run = 0;
    int32_t p0[] = {0};
    wjob(&k, 0, 10, 1, 1, NULL, 0);
    wjob(&k, 0, 40, 1, -1, NULL, 0);
    wjob(&k, 0, 100, 1, 1, p0, 1);
    wjob(&k, 20, 50, 1, -1, NULL, 0);
    k.cls[3] = 1;
    k.out_mb[0] = 50;
    k.outs = 1;
    tt_job_result o[4];
    tt_metrics m;
    cr_assert_eq(wrun(&k, o, &m), 0);
    cr_expect_eq(o[2].start, 10);
    cr_expect_eq(o[2].preemptions, 1);
    cr_expect_eq(o[3].start, 20);
    cr_expect_eq(o[2].end, 155);
    cr_expect_eq(m.restart_gpu_s, 20);
    cr_expect_eq(m.xfer_gpu_s, 5);
    cr_expect_eq(m.wf_jct_p99, 155);
    /* S2 (sensitive) evicts T1 again at 50, 10 s into its 25: restart is
     * consumed first, so those 10 s are restart, no transfer; T1 comes
     * back at 70 on node 0 (X = 0) and ends at 70 + 20 + 90 */
    wjob(&k, 50, 50, 1, -1, NULL, 0);
    k.cls[4] = 1;
    tt_job_result q[5];
    cr_assert_eq(wrun(&k, q, &m), 0);
    cr_expect_eq(q[2].preemptions, 2);
    cr_expect_eq(q[2].end, 180);
    cr_expect_eq(m.restart_gpu_s, 10 + 20);
    cr_expect_eq(m.xfer_gpu_s, 0);
}
