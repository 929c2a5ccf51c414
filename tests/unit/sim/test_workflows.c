/* Workflows (docs/model.md section 12) in the engine: tasks ready at
 * their parents' ends, their ready time standing for submit' (waits,
 * timers, JCTs) while fifo keeps their static rank, whole-workflow
 * rejection, the workflow metrics; scenarios worked by hand, and random
 * cases: tasks without parents run exactly as plain jobs, and every task
 * starts after its parents end. */
#include <math.h>
#include <stddef.h>

#include "testutil.h"

#include "tt/canon.h"
#include "tt/sim.h"

enum { WMAXJ = 64, WMAXD = 256 };

typedef struct {
    tt_cluster c;
    tt_params p;
    int64_t n, nd;
    int64_t submit[WMAXJ], duration[WMAXJ], wf[WMAXJ], dep_off[WMAXJ + 1];
    int32_t gpus[WMAXJ], cls[WMAXJ], deps[WMAXD], out_mb[WMAXJ], mid[WMAXJ], mem_mb[WMAXJ];
    int tasks; /* hand the wf columns to the engine */
    int outs;  /* and out_mb */
    int mids;  /* and mid, mem_mb */
} wcase;

static void wcase_init(wcase *k, int32_t r, int32_t nodes, int32_t g)
{
    memset(k, 0, sizeof *k);
    k->c.racks = r;
    k->c.nodes_per_rack = nodes;
    k->c.gpus_per_node = g;
    tt_params_default(&k->p);
    k->tasks = 1;
}

/* A row: a task of workflow wf (-1: a plain job) with parents dep[0..nd). */
static void wjob(wcase *k, int64_t submit, int64_t dur, int32_t gpus, int64_t wf,
                 const int32_t *dep, int nd)
{
    int64_t i = k->n++;
    cr_assert(k->n <= WMAXJ && k->nd + nd <= WMAXD);
    k->submit[i] = submit;
    k->duration[i] = dur;
    k->gpus[i] = gpus;
    k->cls[i] = 0;
    k->wf[i] = wf;
    k->dep_off[i] = k->nd;
    for (int d = 0; d < nd; d++)
        k->deps[k->nd++] = dep[d];
    k->dep_off[i + 1] = k->nd;
}

static int wrun(const wcase *k, tt_job_result *out, tt_metrics *m)
{
    /* class 1 is sensitive under theta = 1500 */
    static const char *const names[] = {"a", "s"};
    static const int64_t s1[] = {1000, 1000}, s2[] = {1000, 2000};
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, s1, s2, &md), 0);
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    j.n = k->n;
    j.submit = (int64_t *)k->submit;
    j.duration = (int64_t *)k->duration;
    j.gpus = (int32_t *)k->gpus;
    j.cls = (int32_t *)k->cls;
    if (k->tasks) {
        j.wf = (int64_t *)k->wf;
        j.dep_off = (int64_t *)k->dep_off;
        j.deps = (int32_t *)k->deps;
        j.out_mb = k->outs ? (int32_t *)k->out_mb : NULL;
        j.mid = k->mids ? (int32_t *)k->mid : NULL;
        j.mem_mb = k->mids ? (int32_t *)k->mem_mb : NULL;
    }
    tt_ctx *ctx = tt_ctx_create();
    int rc = tt_simulate(ctx, &k->c, &k->p, md, &j, out, m, NULL);
    if (rc)
        fprintf(stderr, "%s\n", tt_errmsg(ctx));
    tt_ctx_free(ctx);
    tt_models_free(md);
    return rc;
}

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
        if (k.p.order == TT_ORDER_DLAS || k.p.order == TT_ORDER_GITTINS)
            k.p.el_up = 0; /* refused: SPEC 11.1 under resizes is not built */
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
