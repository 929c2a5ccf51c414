/* Passes that evict more jobs than the cluster has GPUs, and the aging
 * event of a job with no eviction left: two faults an independent
 * implementation of SPEC 6 and 11 found, worked by hand here, each run on
 * the reference simulator and the engine (simcase.h). In the debug build
 * (make sanitize) the engine's array bounds are checked too (TTS_CHECK). */
#include "simcase.h"

/* m0: never sensitive. m1: sensitive at theta = 1001 (L2 2.0x). */
static const ref_model MD[] = {{1000, 1000, -1}, {1000, 2000, -1}};
#define NMD 2

static void run(const ref_cluster *c, const ref_params *p, const ref_job *jobs, int64_t n,
                ref_job_result *o, ref_metrics *m)
{
    ref_log log = {0};
    check_case(MD, NMD, c, p, jobs, n, o, m, &log);
    ref_log_free(&log);
}

static void expect_end(const ref_job_result *o, int64_t i, int64_t end)
{
    cr_expect_eq(o[i].end, end, "job %lld ends at %lld, expected %lld", (long long)i,
                 (long long)o[i].end, (long long)end);
}

/* ---- three victims in one pass on two GPUs ----
 * 1x1x2, dlas mlfq=50, w0 = w1 = 0, theta = 1001, min_run = 0 (restart 30,
 * max_preempt 3). a (0, 1 s), b (0, 52 s), c (1, 60 s), d (51, 1 s) are
 * 1-GPU m0 jobs; e (51, 1 s, 2 GPUs) is m1, sensitive.
 * a and b start at 0; a ends at 1 and c starts. b is demoted at 50, c at
 * 51. At 51 d (queue 0) finds no GPU and takes c's by priority preemption
 * (c: queue 1, entered at 51, after b); then e, sensitive and waited
 * W0 = 0, evicts b and d by SPEC 6 step 2 (d has run 0 >= min_run):
 * three victims in the pass. e runs 51..52. At 52 d (queue 0) restarts,
 * 52 + 30 + 1 = 83, and b (queue 1, entered at 50, before c) too,
 * 52 + 30 + 1 = 83; c (10 s left) starts at 83 and ends at 83 + 30 + 10 =
 * 123. */
Test(victims, three_victims_on_two_gpus)
{
    static const ref_cluster c = {1, 1, 2};
    static const ref_job jobs[] = {
        {0, 1, 1, 0}, {0, 52, 1, 0}, {1, 60, 1, 0}, {51, 1, 1, 0}, {51, 1, 2, 1}};
    ref_params p;
    ref_params_default(&p);
    p.order = REF_DLAS;
    p.nmlfq = 1;
    p.mlfq[0] = 50;
    p.w0 = p.w1 = 0;
    p.theta = 1001;
    p.min_run = 0;
    ref_job_result o[5];
    ref_metrics m;
    run(&c, &p, jobs, 5, o, &m);
    static const int64_t end[] = {1, 83, 123, 83, 52};
    for (int i = 0; i < 5; i++)
        expect_end(o, i, end[i]);
    cr_expect_eq(m.preemptions, 3);
    cr_expect_eq(m.preempt_prio, 1);
}

/* The same pass grown: k sensitive 2-GPU jobs each evict two 1-GPU jobs
 * started earlier in the pass by priority preemption, on a 2-GPU cluster,
 * so one pass evicts many times the cluster's GPUs. Every job ends once
 * with its work done (check_case's invariants), on both simulators. */
Test(victims, many_victims_in_one_pass)
{
    enum { K = 6 };
    static const ref_cluster c = {1, 1, 2};
    ref_job jobs[3 + 3 * K];
    int64_t n = 0;
    jobs[n++] = (ref_job){0, 200, 1, 0};
    jobs[n++] = (ref_job){0, 200, 1, 0};
    jobs[n++] = (ref_job){1, 100, 1, 0};
    for (int q = 0; q < K; q++) { /* at 51: two fresh m0 jobs, then a sensitive one */
        jobs[n++] = (ref_job){51, 5, 1, 0};
        jobs[n++] = (ref_job){51, 5, 1, 0};
        jobs[n++] = (ref_job){51, 1, 2, 1};
    }
    ref_params p;
    ref_params_default(&p);
    p.order = REF_DLAS;
    p.nmlfq = 1;
    p.mlfq[0] = 50;
    p.w0 = p.w1 = 0;
    p.theta = 1001;
    p.min_run = 0;
    ref_job_result o[3 + 3 * K];
    ref_metrics m;
    run(&c, &p, jobs, n, o, &m);
    cr_expect_gt(m.preemptions, 4, "preemptions %lld", (long long)m.preemptions);
}

/* ---- the aging event of a job with no eviction left ----
 * 1x1x2, dlas mlfq=10 promote=1000 min_run=2 max_preempt=2 restart=0,
 * w0 = w1 = 0. j0 (1, 53 s, 2 GPUs), j1 (4, 22 s, 1), j2 (9, 14 s, 2).
 * j0 runs from 1, is demoted at 6 and evicted for j1 (6..16); promoted at
 * 11. j1 demoted at 16, evicted for j2 (16..21); j2 demoted at 21, evicted
 * for j0 (21..26); at 26 j0 is demoted, j1 and j2 promoted, j1 evicts j0
 * (its second eviction) and runs 26..36; j0 promoted at 31. At 36 j1 is
 * demoted and evicted (second) for j2 (36..41); at 41 j2 is demoted and
 * evicted (second) for j0, which runs from 41 with 43 s left: ends 84.
 * j2's condition (P 10 >= E 5) already holds at its eviction, so it is
 * promoted at the next event: 43, j0's min_run anniversary, an event
 * though j0 has no eviction left (SPEC 11.1). j1 is promoted at 46,
 * behind j2 in queue 0: j2 runs 84..88, j1 88..90. Without the event at
 * 43 both are promoted at 46 and j1 goes first by index (86, 90). */
static void aging_case(int order)
{
    static const ref_cluster c = {1, 1, 2};
    static const ref_job jobs[] = {{1, 53, 2, 0}, {4, 22, 1, 0}, {9, 14, 2, 0}};
    ref_params p;
    ref_params_default(&p);
    p.order = order;
    p.nmlfq = 1;
    p.mlfq[0] = 10;
    p.promote = 1000;
    p.min_run = 2;
    p.max_preempt = 2;
    p.restart = 0;
    p.w0 = p.w1 = 0;
    ref_job_result o[3];
    ref_metrics m;
    run(&c, &p, jobs, 3, o, &m);
    expect_end(o, 0, 84);
    expect_end(o, 1, 90);
    expect_end(o, 2, 88);
}

Test(victims, aging_event_without_evictions_left_dlas) { aging_case(REF_DLAS); }

/* Gittins with the trace's own sizes orders these queue-1 and queue-0
 * jobs as dlas does here (one job in a queue at each decision), so the
 * same ends. */
Test(victims, aging_event_without_evictions_left_gittins) { aging_case(REF_GITTINS); }
