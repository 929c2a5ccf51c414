/* Elastic jobs with the GPU model cache (docs/model.md section 13 item 9,
 * SPEC 10.3 and 12.3, 12.5) in the engine: grows that load their model on
 * the GPUs they add and pay C + u + L, grows onto warm GPUs that pay
 * C + u, a shrink's GPUs keeping their models for the next job, a start
 * that grows at once paying its final L; worked by hand. Random cases of
 * elastic jobs, workflows and the cache check, after every event, that
 * no GPU is given twice and that each node's masks agree with its counts. */
#include "simcase.h"

#include "sim/simrun.h"
#include "sim_step.h"

enum { XMAXJ = 40, XMAXD = 128 };

/* A case: jobs of class `lin` (scale 1000, 2000, 4000, 8000, no
 * slowdown) or `s` (linear, sensitive under theta 1500), each with a model
 * id and size. */
typedef struct {
    tt_cluster c;
    tt_params p;
    int64_t n, nd;
    int64_t submit[XMAXJ], duration[XMAXJ], wf[XMAXJ], dep_off[XMAXJ + 1];
    int32_t gpus[XMAXJ], cls[XMAXJ], deps[XMAXD], out_mb[XMAXJ], mid[XMAXJ], mem_mb[XMAXJ];
    int8_t elastic[XMAXJ];
} xcase;

/* SPEC 12.10's setting (gpu_mem 1000, load_bw 100) with SPEC 10.10's
 * (resize_cost 10, restart 30, resize_gap 0). */
static void xcase_init(xcase *k, int32_t r, int32_t nodes, int32_t g)
{
    memset(k, 0, sizeof *k);
    k->c.racks = r;
    k->c.nodes_per_rack = nodes;
    k->c.gpus_per_node = g;
    tt_params_default(&k->p);
    k->p.resize_cost = 10;
    k->p.restart = 30;
    k->p.resize_gap = 0;
    k->p.gpu_mem = 1000;
    k->p.load_bw = 100;
    k->p.xfer_bw = 100;
}

/* A row of model mid (0: A, 500 MiB, L = 5; 1: B, 400 MiB, L = 4). */
static void xjob(xcase *k, int64_t submit, int64_t dur, int32_t gpus, int elastic, int32_t mid)
{
    int64_t i = k->n++;
    cr_assert(k->n <= XMAXJ);
    k->submit[i] = submit;
    k->duration[i] = dur;
    k->gpus[i] = gpus;
    k->elastic[i] = (int8_t)elastic;
    k->wf[i] = -1;
    k->mid[i] = mid;
    k->mem_mb[i] = mid == 0 ? 500 : 400;
    k->dep_off[i] = k->dep_off[i + 1] = k->nd;
}

static void xjobs(const xcase *k, tt_sim_jobs *j)
{
    memset(j, 0, sizeof *j);
    j->n = k->n;
    j->submit = (int64_t *)k->submit;
    j->duration = (int64_t *)k->duration;
    j->gpus = (int32_t *)k->gpus;
    j->cls = (int32_t *)k->cls;
    j->elastic = (int8_t *)k->elastic;
    j->wf = (int64_t *)k->wf;
    j->dep_off = (int64_t *)k->dep_off;
    j->deps = (int32_t *)k->deps;
    j->out_mb = (int32_t *)k->out_mb;
    j->mid = (int32_t *)k->mid;
    j->mem_mb = (int32_t *)k->mem_mb;
}

static tt_models *lin_models(void)
{
    static const char *const names[] = {"lin", "s"};
    static const int64_t lin[] = {1000, 2000, 4000, 8000}, s1[] = {1000, 1000},
                         s2[] = {1000, 2000};
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, s1, s2, &md), 0);
    cr_assert_eq(tt_models_set_scale(NULL, md, 0, 4, lin), 0);
    return md;
}

static int xrun(const xcase *k, tt_job_result *out, tt_metrics *m)
{
    tt_models *md = lin_models();
    tt_sim_jobs j;
    xjobs(k, &j);
    tt_ctx *ctx = tt_ctx_create();
    int rc = tt_simulate(ctx, &k->c, &k->p, md, &j, out, m, NULL);
    if (rc)
        fprintf(stderr, "%s\n", tt_errmsg(ctx));
    tt_ctx_free(ctx);
    tt_models_free(md);
    return rc;
}

/* The GPUs running job i holds on node x (its entries' masks). */
static uint64_t held_mask(const tts_state *S, int32_t i, int32_t x)
{
    uint64_t m = 0;
    for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e])
        m |= S->ent_node[e] == x ? S->ent_mask[e] : 0;
    return m;
}

/* The cache's invariants in S: on each node the entries' masks are
 * disjoint, each as large as its entry's count, disjoint from the free
 * mask and together with it every GPU; the free count is the free mask's;
 * each GPU's models take the MiB in c_mb, at most gpu_mem; affinity's
 * counts agree with the masks. Returns the failures. */
static int check_cache(const tts_state *S)
{
    uint64_t all = S->G >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << S->G) - 1;
    int bad = 0;
    for (int32_t x = 0; x < S->nodes; x++) {
        uint64_t used = 0;
        for (int32_t s = 0; s < S->nocc[x]; s++) {
            int32_t e = S->occ[x * S->G + s];
            uint64_t m = S->ent_mask[e];
            bad += S->ent_node[e] != x || __builtin_popcountll(m) != tts_eg(S, e);
            bad += (used & m) != 0; /* a GPU given twice */
            used |= m;
        }
        bad += (used & S->c_free[x]) != 0 || (used | S->c_free[x]) != all;
        bad += __builtin_popcountll(S->c_free[x]) != S->freeg[x];
    }
    for (int64_t g = 0; g < S->cluster_gpus; g++) {
        int32_t mb = 0;
        for (int32_t s = 0; s < S->cf->cache_slots; s++) {
            int32_t id = S->c_id[tts_c_at(S, g) + s];
            mb += id == TTS_NO_MODEL ? 0 : tts_model_mb(S, id);
        }
        bad += mb != S->c_mb[g] || mb > S->cf->gpu_mem;
    }
    /* affinity's counts of the free GPUs holding each model, where kept */
    for (int32_t x = 0; S->c_lx && x < S->nodes; x++)
        for (int32_t m = 0; m < S->c_nm; m++) {
            int32_t n = 0;
            for (int32_t u = 0; u < S->G; u++)
                n += (S->c_free[x] >> u & 1) && tts_c_find(S, (int64_t)x * S->G + u, m) >= 0;
            bad += S->c_wfree[(int64_t)x * S->c_nm + m] != n;
        }
    bad += S->loads < S->model_evicts;
    return bad;
}

/* Runs k event by event on the engine, checking the cache's invariants
 * after each; after the first event at or after at (when at >= 0), calls
 * fn on the state. Returns the events whose check failed. */
static int64_t xstep(const xcase *k, int64_t at, void (*fn)(const tts_state *S))
{
    tt_models *md = lin_models();
    tt_sim_jobs j;
    xjobs(k, &j);
    tt_ctx *ctx = tt_ctx_create();
    tt_simprep prep;
    tt_simwork w;
    tts_config cf;
    memset(&w, 0, sizeof w);
    cr_assert_eq(tt_simprep_check_frame(ctx, &k->c, &j), 0);
    cr_assert_eq(tt_simprep_init(ctx, &prep, &k->c, md, &j, tt_simprep_needs(&k->p, 0)), 0,
                 "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_simwork_init(ctx, &w, &prep), 0);
    cr_assert_eq(tt_simprep_config(ctx, &prep, &k->p, &cf), 0);
    tts_state *S = &w.S;
    tts_init(S, &prep.tr, &prep.tc, &cf, k->submit, NULL); /* load 1000: submit' = submit */
    cr_assert(S->cache && S->el_lm);
    int64_t fails = 0;
    while (tts_step(S)) {
        fails += check_cache(S) > 0;
        if (at >= 0 && S->now >= at) {
            fn(S);
            at = -1;
        }
    }
    cr_expect_eq(S->waiting + S->running, 0);
    tt_simwork_free(&w);
    tt_simprep_free(&prep);
    tt_ctx_free(ctx);
    tt_models_free(md);
    return fails;
}

/* ---- grows onto cold and warm GPUs ---- */

/* 1x1x4, el_up 1: J0 (elastic, 2 GPUs, 1000 s, A) and J1 (2 GPUs, 100 s,
 * model m1), both at 0. J0 takes GPUs 0, 1 (L = 5, ends 1005 at size 2),
 * J1 GPUs 2, 3. */
static void grow_case(xcase *k, int32_t m1)
{
    xcase_init(k, 1, 1, 4);
    k->p.el_up = 1;
    xjob(k, 0, 1000, 2, 1, 0);
    xjob(k, 0, 100, 2, 0, m1);
}

/* J1 of model B ends at 0 + 4 + 100 = 104. J0 has run 99 s: w = 901,000,
 * and the gain at 4 GPUs (s 1000 -> 500) is 901,000 x 500 / 10^6 - 10 =
 * 440. Its grow takes GPUs 2 and 3, which hold B, not A: they load A
 * beside B (900 MiB, no eviction), so r = C + u + L = 10 + 0 + 5 and J0
 * ends at 104 + 15 + ceil(901,000 x 500 / 10^6) = 104 + 15 + 451 = 570.
 * load_gpu_s: J0 2 x 5 + J1 2 x 4 + J0's resize 4 x 5 = 38; resize_gpu_s
 * 4 x 10; loads 6; no start was a hit, and a resize is no start. */
Test(elcache, grow_cold_pays_load)
{
    xcase k;
    grow_case(&k, 1);
    tt_job_result o[2];
    tt_metrics m;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[1].end, 104);
    cr_expect_eq(o[0].end, 570);
    cr_expect_eq(m.resizes, 1);
    cr_expect_eq(m.grows, 1);
    cr_expect_eq(m.loads, 6);
    cr_expect_eq(m.model_evicts, 0);
    cr_expect_eq(m.load_gpu_s, 38);
    cr_expect_eq(m.resize_gpu_s, 40);
    cr_expect_eq(m.restart_gpu_s, 40);
    cr_expect_eq(m.cache_hit, 0);
    cr_expect_eq(m.loan_gpu_s, 2 * (570 - 104));
    cr_expect_eq(xstep(&k, -1, NULL), 0);
}

/* J1 of model A ends at 105 and leaves A on GPUs 2 and 3. J0 has w =
 * 900,000, gain 440, and grows onto them with no load: r = C + u = 10,
 * end 105 + 10 + 450 = 565. load_gpu_s 2 x 5 + 2 x 5, loads 4. */
Test(elcache, grow_warm_pays_no_load)
{
    xcase k;
    grow_case(&k, 0);
    tt_job_result o[2];
    tt_metrics m;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[1].end, 105);
    cr_expect_eq(o[0].end, 565);
    cr_expect_eq(m.loads, 4);
    cr_expect_eq(m.load_gpu_s, 20);
    cr_expect_eq(m.resize_gpu_s, 40);
    cr_expect_eq(m.cache_hit, 0);
    /* without the cache: J1 ends at 100, w = 900,000, the same gain, and
     * J0 ends at 100 + 10 + 450 */
    k.p.gpu_mem = 0;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[0].end, 560);
    cr_expect_eq(m.loads, 0);
}

/* ---- a shrink's GPUs keep their model ---- */

/* After the shrink at 100: J0 holds GPUs 0..3, J1 4..7. Against J0's
 * GPUs, a log of node 0 in two pairs (2 GPUs each, or all 4 in one) that
 * held the same GPUs has not moved, one that held GPU 0 in place of 2 has
 * (10.3: with the cache, equal allocations hold the same GPUs). */
static void after_shrink(const tts_state *S)
{
    cr_expect_eq(held_mask(S, 0, 0), 0x0F);
    cr_expect_eq(held_mask(S, 1, 0), 0xF0);
    static const int32_t pairs[] = {0, 2, 0, 2};
    static const uint64_t same[] = {0x03, 0x0C}, moved[] = {0x03, 0x09}, whole[] = {0x0F};
    cr_expect_eq(tts_c_moved(S, 0, pairs, same, 2), 0);
    cr_expect_eq(tts_c_moved(S, 0, pairs, moved, 2), 1);
    cr_expect_eq(tts_c_moved(S, 0, pairs, whole, 1), 0);
}

/* SPEC 10.10 A with the cache: 1x1x8, el_up 2; J0 (elastic, 2 GPUs,
 * 1000 s, A) at 0, J1 (4 GPUs, 200 s, A) at 100. At 0 J0 starts on GPUs
 * 0, 1 and grows to 8 (GPUs 2..7 in one loaned entry), every GPU loading
 * A: one start of L = 5, s = 250, end 5 + 250. At 100 J0 has w =
 * 1,000,000 - 95 x 10^6 / 250 = 620,000; J1's reclaim halves it, and the
 * loaned entry gives up its highest GPUs, 4..7, which keep A: J1 takes
 * them with L = 0 (a hit) and ends at 300. J0's shrink: r = 10, s = 500,
 * end 100 + 10 + 310. At 300 J0 has w = 620,000 - 190 x 10^6 / 500 =
 * 240,000, gain 240,000 x 250 / 10^6 - 10 = 50: it grows back onto 4..7
 * (A there: no load), r = 10, and ends at 300 + 10 + 60 = 370. */
Test(elcache, shrink_leaves_warm_gpus)
{
    xcase k;
    xcase_init(&k, 1, 1, 8);
    k.p.el_up = 2;
    xjob(&k, 0, 1000, 2, 1, 0);
    xjob(&k, 100, 200, 4, 0, 0);
    tt_job_result o[2];
    tt_metrics m;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[1].start, 100);
    cr_expect_eq(o[1].end, 300);
    cr_expect_eq(o[0].end, 370);
    cr_expect_eq(m.cache_hit, 500);
    cr_expect_eq(m.loads, 8);
    cr_expect_eq(m.model_evicts, 0);
    cr_expect_eq(m.load_gpu_s, 8 * 5);
    cr_expect_eq(m.resizes, 2);
    cr_expect_eq(m.shrinks, 1);
    cr_expect_eq(m.resize_gpu_s, 4 * 10 + 8 * 10);
    cr_expect_eq(xstep(&k, 100, after_shrink), 0);
    /* J1 of model B finds no B: it loads it beside A (L = 4, end 304),
     * and J0 regrows at 304 onto GPUs still holding A: w = 620,000 -
     * 194 x 10^6 / 500 = 232,000, end 304 + 10 + 58 */
    k.mid[1] = 1;
    k.mem_mb[1] = 400;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[1].end, 304);
    cr_expect_eq(o[0].end, 372);
    cr_expect_eq(m.cache_hit, 0);
    cr_expect_eq(m.loads, 12);
}

/* ---- the same counts on other GPUs: a resize (10.3 with 12.2) ---- */

/* 1x1x8, el_up 1. J0 (elastic, 1 GPU, 1000 s, A), J1 (elastic, 2 GPUs,
 * 400 s, B), J2 (2 GPUs, 2000 s, B) at 0; J3 (2 GPUs, 50 s, A) at 100.
 * - 0: J0 takes GPU 0, J1 GPUs 1, 2, J2 GPUs 3, 4. The grow phase grows J0
 *   first (score 500 x 1000 / 1 against 200 x 1000 / 2) onto GPU 5, then
 *   J1 onto 6, 7. Starts that grow: J0 pays L = 5, s = 500, end 505; J1
 *   L = 4, s = 500, end 204; J2 end 2004.
 * - 100: J3 finds no free GPU; free + loaned 3 >= 2. J0 halves first and
 *   frees GPU 5 (A); one GPU is not enough, so J1 halves and frees 6, 7.
 *   J3 takes 5 (it holds A) and 6 (the lowest other; A loads beside B,
 *   L = 5): end 155. GPU 7 is free. In the grow phase J0 (w = 1,000,000 -
 *   95 x 10^6 / 500 = 810,000, gain 405, already paid) grows onto GPU 7,
 *   loading A; J1 needs 2. J0 then holds 2 GPUs on node 0, as before t,
 *   but GPUs 0 and 7 in place of 0 and 5: a resize, r = C + u + L = 10 +
 *   0 + 5, end 100 + 15 + 405 = 520 (with no resize it would keep 505).
 *   J1's shrink: w = 400,000 - 96 x 10^6 / 500 = 208,000, r = 10, s =
 *   1000, end 318.
 * - 155: J3 ends; J1 grows onto 6 (B there) and 5 (loads B, L = 4): w =
 *   208,000 - 45,000 = 163,000, gain 81 - 10; end 155 + 14 + 82 = 251.
 * resizes 3 (grows 1, shrinks 1); loads 8 at 0, 2 at 100, 1 at 155;
 * load_gpu_s 2 x 5 + 4 x 4 + 2 x 4 (starts) + 2 x 5 (J3) + 2 x 5 (J0's
 * resize) + 4 x 4 (J1's grow) = 70; resize_gpu_s 2 x 10 + 2 x 10 + 4 x
 * 10. */
Test(elcache, same_counts_other_gpus_resize)
{
    xcase k;
    xcase_init(&k, 1, 1, 8);
    k.p.el_up = 1;
    xjob(&k, 0, 1000, 1, 1, 0);
    xjob(&k, 0, 400, 2, 1, 1);
    xjob(&k, 0, 2000, 2, 0, 1);
    xjob(&k, 100, 50, 2, 0, 0);
    tt_job_result o[4];
    tt_metrics m;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[3].start, 100);
    cr_expect_eq(o[3].end, 155);
    cr_expect_eq(o[0].end, 520);
    cr_expect_eq(o[1].end, 251);
    cr_expect_eq(o[2].end, 2004);
    cr_expect_eq(m.resizes, 3);
    cr_expect_eq(m.grows, 1);
    cr_expect_eq(m.shrinks, 1);
    cr_expect_eq(m.loads, 11);
    cr_expect_eq(m.model_evicts, 0);
    cr_expect_eq(m.load_gpu_s, 70);
    cr_expect_eq(m.resize_gpu_s, 80);
    cr_expect_eq(m.cache_hit, 0);
    cr_expect_eq(xstep(&k, -1, NULL), 0);
}

/* The same on a second node, the first unchanged. 1x2x8, el_up 1, w0 = 0
 * (L1 allowed from the submit). J0 (elastic, 1 GPU, 1000 s, A), J1 (7
 * GPUs, 2000 s, B), J2 (elastic, 2 GPUs, 400 s, B), J3 (3 GPUs, 2000 s,
 * B) at 0; J4 (2 GPUs, 50 s, A) at 100.
 * - 0: J0 takes node 0's GPU 0, J1 the rest of node 0, J2 node 1's GPUs
 *   0, 1, J3 its 2..4. J0 grows first (score 500,000 against 100,000)
 *   onto node 1's GPU 5 (L1, s = 500), J2 onto 6, 7. J0: L = 5, end 505.
 * - 100: J4 finds 3 free + loaned GPUs on node 1 only: J0 halves (frees
 *   5), then J2 (frees 6, 7); J4 takes 5 (A) and 6. J0 (w = 810,000,
 *   gain 405) grows back onto 7, loading A: 1 GPU on node 0 and 1 on node
 *   1 as before, node 1's in place of GPU 5: a resize, r = 10 + 0 + 5, end
 *   100 + 15 + 405 = 520. J2: end 318; it grows at 155 and ends at 251,
 *   as on one node. */
Test(elcache, same_counts_other_gpus_second_node)
{
    xcase k;
    xcase_init(&k, 1, 2, 8);
    k.p.el_up = 1;
    k.p.w0 = 0;
    xjob(&k, 0, 1000, 1, 1, 0);
    xjob(&k, 0, 2000, 7, 0, 1);
    xjob(&k, 0, 400, 2, 1, 1);
    xjob(&k, 0, 2000, 3, 0, 1);
    xjob(&k, 100, 50, 2, 0, 0);
    tt_job_result o[5];
    tt_metrics m;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[4].start, 100);
    cr_expect_eq(o[4].end, 155);
    cr_expect_eq(o[0].end, 520);
    cr_expect_eq(o[2].end, 251);
    cr_expect_eq(m.resizes, 3);
    cr_expect_eq(xstep(&k, -1, NULL), 0);
}

/* ---- a start that grows at once ---- */

/* 1x1x4, el_up 1: J0 (2 GPUs, 10 s, A) loads A on GPUs 0, 1 and ends at
 * 15. J1 (elastic, 2 GPUs, 100 s, A) at 20 starts there warm (L = 0) and
 * grows at once onto GPUs 2, 3, which load A: one start that pays the L
 * of its final allocation, 5, and is no hit; s = 500: it ends at 20 + 5
 * + 50 = 75. load_gpu_s 2 x 5 + 4 x 5. */
Test(elcache, start_that_grows_pays_final_load)
{
    xcase k;
    xcase_init(&k, 1, 1, 4);
    k.p.el_up = 1;
    xjob(&k, 0, 10, 2, 0, 0);
    xjob(&k, 20, 100, 2, 1, 0);
    tt_job_result o[2];
    tt_metrics m;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[1].start, 20);
    cr_expect_eq(o[1].end, 75);
    cr_expect_eq(m.resizes, 0);
    cr_expect_eq(m.cache_hit, 0);
    cr_expect_eq(m.loads, 4);
    cr_expect_eq(m.load_gpu_s, 30);
    cr_expect_eq(xstep(&k, -1, NULL), 0);
    /* at 3 GPUs a node, J1 cannot grow: a warm start, a hit, end 120 */
    k.c.gpus_per_node = 3;
    cr_assert_eq(xrun(&k, o, &m), 0);
    cr_expect_eq(o[1].end, 120);
    cr_expect_eq(m.cache_hit, 500);
}

/* ---- random cases: elastic jobs, workflows and the cache ---- */

static void random_case(xcase *k, uint64_t seed)
{
    static const int32_t gs[] = {2, 4, 8};
    uint64_t s = seed * 104729 + 3;
    xcase_init(k, (int32_t)pick(&s, 1, 2), (int32_t)pick(&s, 1, 3), gs[pick(&s, 0, 2)]);
    int32_t all = k->c.racks * k->c.nodes_per_rack * k->c.gpus_per_node;
    k->p.el_up = pick(&s, 0, 2);
    k->p.el_down = pick(&s, 0, 1);
    if (k->p.el_up + k->p.el_down == 0)
        k->p.el_up = 1;
    k->p.resize = (int32_t)pick(&s, 0, 1);
    k->p.resize_cost = pick(&s, 0, 20);
    k->p.resize_gap = pick(&s, 0, 2) * 100;
    k->p.backfill = (int32_t)pick(&s, 0, 1);
    k->p.w0 = pick(&s, 0, 1) ? TT_INF : pick(&s, 0, 100);
    k->p.w1 = pick(&s, 0, 1) ? TT_INF : pick(&s, 0, 100);
    k->p.min_run = pick(&s, 0, 50);
    k->p.order = (int32_t)pick(&s, 0, 3);
    k->p.theta = pick(&s, 0, 1) ? TT_INF : 1500;
    k->p.gpu_mem = pick(&s, 1, 3) * 500;
    k->p.cache_slots = pick(&s, 1, 4);
    k->p.load_bw = pick(&s, 20, 200);
    k->p.xfer_bw = pick(&s, 20, 200);
    k->p.evict = (int32_t)pick(&s, 0, 1);
    k->p.cache_place = (int32_t)pick(&s, 0, 1);
    k->p.w_warm = pick(&s, 0, 2) ? 0 : pick(&s, 1, 40);
    int64_t n = pick(&s, 4, XMAXJ), t = 0, wf = -1;
    for (int64_t i = 0; i < n; i++) {
        t += pick(&s, 0, 2) ? pick(&s, 0, 60) : 0;
        int32_t g = (int32_t)1 << pick(&s, 0, 3);
        xjob(k, t, pick(&s, 1, 300), g > all ? all : g, (int)pick(&s, -1, 1),
             (int32_t)pick(&s, 0, 3));
        k->cls[i] = (int32_t)pick(&s, 0, 1);
        k->mem_mb[i] = pick(&s, 0, 5) ? (int32_t)pick(&s, 50, 500) : -1;
        k->out_mb[i] = pick(&s, 0, 1) ? (int32_t)pick(&s, 1, 300) : 0;
        if (pick(&s, 0, 2) == 0)
            wf = i; /* a new workflow starts here */
        if (wf < 0 || pick(&s, 0, 3) == 0)
            continue; /* a plain job */
        k->wf[i] = wf;
        for (int64_t p = wf; p < i && k->nd < XMAXD; p++)
            if (k->wf[p] == wf && pick(&s, 0, 2) == 0)
                k->deps[k->nd++] = (int32_t)p;
        k->dep_off[i + 1] = k->nd;
    }
}

Test(elcache, random_invariants)
{
    int64_t grew = 0, hit = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        xcase k;
        random_case(&k, seed);
        tt_job_result o[XMAXJ];
        tt_metrics m;
        cr_assert_eq(xrun(&k, o, &m), 0, "seed %llu", (unsigned long long)seed);
        cr_expect_eq(xstep(&k, -1, NULL), 0, "seed %llu: the masks disagree",
                     (unsigned long long)seed);
        grew += m.grows > 0;
        hit += m.cache_hit > 0;
        cr_expect_geq(m.loads, m.model_evicts, "seed %llu", (unsigned long long)seed);
        cr_expect(m.cache_hit >= 0 && m.cache_hit <= 1000, "seed %llu", (unsigned long long)seed);
        cr_expect(m.load_gpu_s >= 0 && m.xfer_gpu_s >= 0, "seed %llu", (unsigned long long)seed);
        cr_expect_leq(m.resize_gpu_s, m.restart_gpu_s, "seed %llu", (unsigned long long)seed);
        for (int64_t i = 0; i < k.n; i++)
            if (!o[i].rejected)
                cr_expect(o[i].end >= o[i].start && o[i].start >= o[i].submit,
                          "seed %llu job %lld", (unsigned long long)seed, (long long)i);
        /* a model of unknown size is never cached and loads in 0: with
         * every size unknown, the cache changes no job's times */
        for (int64_t i = 0; i < k.n; i++)
            k.mem_mb[i] = -1;
        tt_job_result q[XMAXJ];
        cr_assert_eq(xrun(&k, o, &m), 0);
        cr_expect_eq(m.loads, 0);
        k.p.gpu_mem = 0;
        cr_assert_eq(xrun(&k, q, &m), 0);
        for (int64_t i = 0; i < k.n; i++)
            cr_expect(o[i].end == q[i].end && o[i].start == q[i].start,
                      "seed %llu job %lld: %lld..%lld with the cache, %lld..%lld without",
                      (unsigned long long)seed, (long long)i, (long long)o[i].start,
                      (long long)o[i].end, (long long)q[i].start, (long long)q[i].end);
    }
    cr_expect_gt(grew, 30, "only %lld runs grew", (long long)grew);
    cr_expect_gt(hit, 30, "only %lld runs hit", (long long)hit);
}
