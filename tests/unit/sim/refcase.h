/* The reference simulator's scenario tests (test_refsim.c,
 * test_refsim_preempt.c): their model table, one checked run (the
 * reference and the engine, equal), and what a run's allocations and
 * times are expected to be. */
#ifndef TT_TEST_REFCASE_H
#define TT_TEST_REFCASE_H

#include "simcase.h"

/* m0: no slowdown. m1: mild (L1 1.2x, L2 1.5x). m2: sensitive at
 * theta = 2000 (L2 2.0x); m0 and m1 are not. */
static const ref_model MD[] = {{1000, 1000, -1}, {1200, 1500, -1}, {1500, 2000, -1}};
#define NMD 3

/* Runs and checks the invariants; the scenario's own numbers are asserted
 * by the caller on the reference's results, and the engine must give the
 * same per-job results and metrics, so every scenario checks both. */
static void run(const ref_cluster *c, const ref_params *p, const ref_job *jobs, int64_t n,
                ref_job_result *out, ref_metrics *m, ref_log *log)
{
    check_case(MD, NMD, c, p, jobs, n, out, m, log);
}

/* The GPUs job held on each node in its seg-th segment (in time order). */
static const int32_t *alloc_of(const ref_log *log, int64_t job, int seg)
{
    for (int64_t q = 0; q < log->nseg; q++)
        if (log->seg[q].job == job && seg-- == 0)
            return log->alloc + q * log->nodes;
    cr_assert_fail("job %lld has no segment", (long long)job);
    return NULL;
}

static void expect_alloc(const ref_log *log, int64_t job, int seg, const int32_t *want)
{
    const int32_t *a = alloc_of(log, job, seg);
    for (int32_t x = 0; x < log->nodes; x++)
        cr_expect_eq(a[x], want[x], "job %lld segment %d node %d: %d GPUs, expected %d",
                     (long long)job, seg, x, a[x], want[x]);
}

static void expect_times(const ref_job_result *o, int64_t i, int64_t start, int64_t end)
{
    cr_expect_eq(o[i].first_start, start, "job %lld starts at %lld, expected %lld",
                 (long long)i, (long long)o[i].first_start, (long long)start);
    cr_expect_eq(o[i].end, end, "job %lld ends at %lld, expected %lld", (long long)i,
                 (long long)o[i].end, (long long)end);
}

#endif
