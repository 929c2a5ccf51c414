/* The model cache's state (docs/model.md 13, items 9 and 12). Sized by
 * cache_slots: a preparation holds the largest cache_slots of the
 * configurations it serves, a run keeps each GPU's models its own
 * cache_slots apart, and a sweep over cache_slots (one preparation, one
 * state a thread or a GPU batch slot) gives every configuration what its
 * own run gives, on the CPU and on the GPU (skipped, and said, where none
 * answers). Affinity's counts of the free GPUs holding each model on a
 * node equal what the GPUs hold after every event. Random traces of
 * workflows with models and outputs, under every placement. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "randcase.h"
#include "sim/simrun.h"
#include "testutil.h"
#include "tt/gpu.h"
#include "tt/run.h"

enum { NMAX = RC_WF_MAX };

static void make_wf_case(uint64_t seed, int64_t n, rcase *k, wfcols *w)
{
    cr_assert(n <= NMAX);
    cr_assert_eq(rcase_make_wf(seed, n, k, w), 0, "out of memory");
}

/* The cache on, its parameters drawn (rcase_cache); fifo, sjf, srtf or
 * las. */
static void cache_params(uint64_t *s, tt_params *p)
{
    rcase_params(s, p);
    rcase_cache(s, p);
}

static tt_simprep *prep_for(const rcase *k, int needs)
{
    tt_simprep *prep = malloc(sizeof *prep);
    cr_assert(prep);
    cr_assert_eq(tt_simprep_init(NULL, prep, &k->c, k->m, &k->j, needs), 0);
    return prep;
}

static void prep_free(tt_simprep *prep)
{
    tt_simprep_free(prep);
    free(prep);
}

/* A GPU costs 8 bytes a slot: the state at cache_slots k is (k - 1) x 8
 * bytes a GPU more than at 1, and a preparation for several sizes holds
 * the largest; a configuration with more slots than that is refused. */
Test(cache_state, state_by_slots)
{
    rcase k;
    wfcols w;
    make_wf_case(3, 50, &k, &w);
    int64_t gpus = (int64_t)k.c.racks * k.c.nodes_per_rack * k.c.gpus_per_node;
    tt_params p;
    tt_params_default(&p);
    p.gpu_mem = 1000;
    int64_t bytes[9];
    for (int s = 1; s <= 8; s++) {
        p.cache_slots = s;
        tt_simprep *prep = prep_for(&k, tt_simprep_needs(&p, 0));
        bytes[s] = prep->state_bytes;
        prep_free(prep);
        cr_expect_eq(bytes[s] - bytes[1], (int64_t)(s - 1) * 8 * gpus, "cache_slots %d", s);
    }
    p.cache_slots = 2;
    int needs = tt_simprep_needs(&p, 0);
    p.cache_slots = 5;
    needs |= tt_simprep_needs(&p, 0);
    tt_simprep *prep = prep_for(&k, needs);
    cr_expect_eq(prep->state_bytes, bytes[5]);
    tts_config cf;
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_simprep_config(ctx, prep, &p, &cf), 0);
    p.cache_slots = 6;
    cr_expect_eq(tt_simprep_config(ctx, prep, &p, &cf), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "cache_slots=6"), "%s", tt_errmsg(ctx));
    p.gpu_mem = 0; /* no cache: no slots to hold */
    cr_expect_eq(tt_simprep_config(ctx, prep, &p, &cf), 0);
    tt_ctx_free(ctx);
    prep_free(prep);
    rcase_free(&k);
}

/* Case seed and the configurations of its sweep: one drawn setting at
 * cache_slots 1 .. 8 in a shuffled order (the largest neither first nor
 * last), and the cache off. */
enum { NS = 9 };

static void sweep_case(uint64_t seed, rcase *k, wfcols *w, tt_params *ps)
{
    static const int order[NS - 1] = {2, 1, 7, 8, 3, 5, 4, 6};
    make_wf_case(seed, 30 + (int64_t)(seed * 11 % 90), k, w);
    uint64_t s = seed * 104729;
    cache_params(&s, &ps[0]);
    for (int q = 0; q < NS - 1; q++) {
        ps[q] = ps[0];
        ps[q].cache_slots = order[q];
    }
    ps[NS - 1] = ps[0];
    ps[NS - 1].gpu_mem = 0;
}

/* Each configuration alone (a state sized for its own cache_slots) and
 * the sweep over them on the CPU, one thread and two: bit for bit. */
Test(cache_state, sweep_equals_single_runs)
{
    tt_ctx *ctx = tt_ctx_create();
    int differ = 0; /* configurations whose loads cache_slots changed */
    for (uint64_t seed = 1; seed <= 30; seed++) {
        rcase k;
        wfcols w;
        tt_params ps[NS];
        tt_metrics want[NS], got[NS];
        sweep_case(seed, &k, &w, ps);
        for (int q = 0; q < NS; q++)
            cr_assert_eq(tt_simulate(ctx, &k.c, &ps[q], k.m, &k.j, NULL, &want[q], NULL), 0,
                         "%s", tt_errmsg(ctx));
        for (int q = 1; q < NS - 1; q++)
            differ += want[q].loads != want[0].loads;
        for (int t = 1; t <= 2; t++) {
            tt_run_opts o = {.threads = t, .no_dedup = 1};
            cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NS, &o, got), 0, "%s",
                         tt_errmsg(ctx));
            for (int q = 0; q < NS; q++)
                cr_expect(memcmp(&want[q], &got[q], sizeof want[q]) == 0,
                          "seed %llu cache_slots %lld, %d threads", (unsigned long long)seed,
                          (long long)ps[q].cache_slots, t);
        }
        rcase_free(&k);
    }
    cr_expect(differ > 30, "cache_slots changed the loads of %d configurations", differ);
    tt_ctx_free(ctx);
}

/* The same sweep on the GPU (batches of 4: the slot counts mixed within
 * and across launches) against the CPU. */
Test(cache_state, gpu_parity)
{
    char buf[512];
    if (tt_gpu_describe(buf, sizeof buf) <= 0)
        cr_skip("no GPU: the cache sweep's CPU/GPU parity not checked");
    tt_ctx *ctx = tt_ctx_create();
    for (uint64_t seed = 1; seed <= 30; seed++) {
        rcase k;
        wfcols w;
        tt_params ps[NS];
        tt_metrics cpu[NS], gpu[NS];
        sweep_case(seed, &k, &w, ps);
        tt_run_opts oc = {.no_dedup = 1}, og = {.device = TT_DEVICE_GPU, .gpu_batch = 4};
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NS, &oc, cpu), 0, "%s",
                     tt_errmsg(ctx));
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NS, &og, gpu), 0, "%s",
                     tt_errmsg(ctx));
        for (int q = 0; q < NS; q++)
            cr_expect(memcmp(&cpu[q], &gpu[q], sizeof cpu[q]) == 0,
                      "seed %llu cache_slots %lld: CPU jct_mean %.6f, GPU %.6f",
                      (unsigned long long)seed, (long long)ps[q].cache_slots, cpu[q].jct_mean,
                      gpu[q].jct_mean);
        rcase_free(&k);
    }
    tt_ctx_free(ctx);
}

/* What the counts must be: node x's free GPUs holding model m, from the
 * GPUs' slots. */
static void expect_counts(const tts_state *S, uint64_t seed, int64_t step)
{
    for (int32_t x = 0; x < S->nodes; x++)
        for (int32_t m = 0; m < S->c_nm; m++) {
            int32_t n = 0;
            for (int32_t u = 0; u < S->G; u++)
                n += (S->c_free[x] >> u & 1) && tts_c_find(S, (int64_t)x * S->G + u, m) >= 0;
            cr_assert_eq(S->c_wfree[(int64_t)x * S->c_nm + m], n,
                         "seed %llu step %lld node %d model %d: count %d, GPUs %d",
                         (unsigned long long)seed, (long long)step, x, m,
                         S->c_wfree[(int64_t)x * S->c_nm + m], n);
        }
}

/* Placement by L (affinity, the warm wait, or both) reads the counts:
 * they match the GPUs at every event of random runs. */
Test(cache_state, affinity_counts)
{
    int64_t checked = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rcase k;
        wfcols w;
        tt_params ps[NS];
        sweep_case(seed, &k, &w, ps);
        tt_params p = ps[seed % (NS - 1)];
        p.cache_place = seed % 3 ? TT_CACHE_PLACE_AFFINITY : TT_CACHE_PLACE_OFF;
        p.w_warm = seed % 3 == 1 ? 0 : 1 + (int64_t)(seed * 37 % 300);
        p.load = 1000; /* submit' is the trace's column */
        tt_simprep *prep = prep_for(&k, tt_simprep_needs(&p, 0));
        tt_simwork sw;
        tts_config cf;
        cr_assert_eq(tt_simwork_init(NULL, &sw, prep), 0);
        cr_assert_eq(tt_simprep_config(NULL, prep, &p, &cf), 0);
        tts_state *S = &sw.S;
        tts_init(S, &prep->tr, &prep->tc, &cf, prep->j->submit, NULL);
        cr_assert(S->c_lx, "seed %llu: no counts kept", (unsigned long long)seed);
        int64_t step = 0;
        do {
            expect_counts(S, seed, step++);
        } while (tts_step(S));
        checked += step;
        tt_simwork_free(&sw);
        prep_free(prep);
        rcase_free(&k);
    }
    cr_expect(checked > 2000, "%lld events checked", (long long)checked);
}

/* Where the counts would outweigh a byte a job (nodes x model ids), the
 * preparation keeps none and placement by L scans a node's GPUs instead:
 * the same runs without the counts give the same per-job results and
 * metrics. */
Test(cache_state, affinity_without_counts)
{
    int64_t placed = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rcase k;
        wfcols w;
        tt_params ps[NS];
        sweep_case(seed, &k, &w, ps);
        tt_params p = ps[seed % (NS - 1)];
        p.cache_place = seed % 3 ? TT_CACHE_PLACE_AFFINITY : TT_CACHE_PLACE_OFF;
        p.w_warm = seed % 3 == 1 ? 0 : 1 + (int64_t)(seed * 37 % 300);
        tt_job_result out[2][NMAX];
        tt_metrics m[2];
        for (int scan = 0; scan < 2; scan++) {
            tt_simprep *prep = prep_for(&k, tt_simprep_needs(&p, 1));
            cr_assert(prep->with & TTS_WITH_LXCNT);
            if (scan) { /* as a preparation too large for the counts is */
                prep->with &= ~TTS_WITH_LXCNT;
                prep->state_bytes = tts_state_bytes_tr(&prep->tr, &prep->tc, prep->with);
            }
            tt_simwork sw;
            cr_assert_eq(tt_simwork_init(NULL, &sw, prep), 0);
            cr_assert_eq(tt_simrun(NULL, prep, &sw, &p, out[scan], &m[scan], NULL, NULL), 0);
            cr_assert_eq(!sw.S.c_lx, scan);
            tt_simwork_free(&sw);
            prep_free(prep);
        }
        cr_expect(memcmp(out[0], out[1], (size_t)k.j.n * sizeof out[0][0]) == 0 &&
                      memcmp(&m[0], &m[1], sizeof m[0]) == 0,
                  "seed %llu: the scan places otherwise than the counts", (unsigned long long)seed);
        placed += m[0].loads;
        rcase_free(&k);
    }
    cr_expect(placed > 100, "%lld loads", (long long)placed);
}
