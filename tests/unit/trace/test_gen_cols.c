/* tt-gen's optional columns (SPEC 10.6, 12.7): absent at the defaults,
 * elastic as the engine's hash draws it, workflows of the asked shapes,
 * mid and out_mb in range, and the options' parsing. */
#include "testutil.h"
#include "sim_step.h"
#include "tt/gen.h"

static tt_trace *gen(const tt_gen_params *p)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    cr_assert_eq(tt_gen_run(ctx, p, &t), 0, "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
    return t;
}

Test(gen_cols, none_at_the_defaults)
{
    tt_gen_params p;
    tt_gen_defaults(&p);
    tt_trace *t = gen(&p);
    cr_expect_eq(tt_trace_cols(t), 0u);
    cr_expect_null(strstr(t->prov.notes, "synthetic"));
    tt_trace_free(t);
}

Test(gen_cols, elastic_is_the_engines_hash)
{
    tt_gen_params p;
    tt_gen_defaults(&p);
    p.jobs = 5000;
    p.seed = 11;
    p.elastic = 300;
    tt_trace *t = gen(&p);
    cr_assert_not_null(t->elastic);
    tts_trace tr;
    tts_config cf;
    memset(&tr, 0, sizeof tr);
    memset(&cf, 0, sizeof cf);
    cf.seed = 11;
    cf.el_frac = 300;
    int64_t on = 0;
    for (int64_t i = 0; i < t->n; i++) {
        cr_assert_eq(t->elastic[i], tts_el_drawn(&tr, &cf, i), "job %lld", (long long)i);
        on += t->elastic[i];
    }
    cr_expect(on > 1350 && on < 1650, "%lld of 5000", (long long)on);
    cr_expect(strstr(t->prov.notes, "--elastic 0.3; synthetic columns: elastic") != NULL, "%s",
              t->prov.notes);
    cr_expect_null(t->wf);
    tt_trace_free(t);
}

/* Every task's parents are the tasks its shape names, in its workflow,
 * earlier in the trace; a share near wf_frac of the jobs are tasks. */
Test(gen_cols, workflows_of_the_shapes)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p;
    tt_gen_defaults(&p);
    p.jobs = 20000;
    p.seed = 5;
    p.wf_frac = 0.4;
    p.models = 7;
    cr_assert_eq(tt_gen_parse_shapes(ctx, "chain:4,fan:3,mr:3:2", &p), 0, "%s", tt_errmsg(ctx));
    tt_trace *t = gen(&p);
    cr_assert(t->wf && t->dep_off && t->deps && t->out_mb && t->mid);
    int64_t tasks = 0, seen[3] = {0};
    for (int64_t i = 0; i < t->n;) {
        cr_assert_eq(t->mid[i] >= 0 && t->mid[i] < 7, 1);
        if (t->wf[i] < 0) {
            cr_assert_eq(t->dep_off[i + 1], t->dep_off[i]);
            cr_assert_eq(t->out_mb[i], 0);
            i++;
            continue;
        }
        int64_t a = i;
        while (i < t->n && t->wf[i] == t->wf[a])
            i++;
        int64_t size = i - a, np[8] = {0};
        for (int64_t k = a; k < i; k++) {
            cr_assert(t->out_mb[k] >= 1 && t->out_mb[k] <= 1000);
            np[k - a < 8 ? k - a : 7] = t->dep_off[k + 1] - t->dep_off[k];
            for (int64_t d = t->dep_off[k]; d < t->dep_off[k + 1]; d++)
                cr_assert(t->deps[d] >= a && t->deps[d] < k, "row %lld parent %d",
                          (long long)k, t->deps[d]);
        }
        tasks += size;
        if (i == t->n)
            break; /* a workflow cut at the end */
        if (size == 4 && np[1] == 1 && np[3] == 1 && t->deps[t->dep_off[a + 3]] == a + 2)
            seen[0]++; /* chain:4 */
        else if (size == 4 && np[3] == 1 && t->deps[t->dep_off[a + 3]] == a)
            seen[1]++; /* fan:3 */
        else if (size == 5 && np[2] == 0 && np[3] == 3 && np[4] == 3)
            seen[2]++; /* mr:3:2 */
        else
            cr_assert_fail("workflow at row %lld of %lld tasks is no shape asked for",
                           (long long)a, (long long)size);
    }
    cr_expect(tasks > 7600 && tasks < 8400, "%lld tasks of 20000", (long long)tasks);
    for (int s = 0; s < 3; s++)
        cr_expect(seen[s] > 400, "shape %d: %lld workflows", s, (long long)seen[s]);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(gen_cols, shapes_parse_and_check)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p;
    tt_gen_defaults(&p);
    cr_expect_eq(tt_gen_parse_shapes(ctx, "mr:2:5", &p), 0);
    cr_expect_eq(p.nshape, 1);
    cr_expect_eq(tt_gen_shape_tasks(&p.shape[0]), 7);
    const char *bad[] = {"chain:1", "fan:0", "mr:2", "ring:3", "chain:3:4", "chain:x",
                         "fan:1000", "", "chain:2,chain:2,chain:2,chain:2,chain:2,chain:2,"
                                         "chain:2,chain:2,chain:2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(tt_gen_parse_shapes(ctx, bad[i], &p), TT_EINVAL, "'%s' taken", bad[i]);
    cr_expect_eq(p.nshape, 1, "unchanged on error");
    cr_expect_str_eq(tt_errmsg(ctx), "workflow shapes 'chain:2,chain:2,chain:2,chain:2,chain:2,"
                                     "chain:2,chain:2,chain:2,chain:2': more than 8");
    tt_gen_parse_shapes(ctx, "ring:3", &p);
    cr_expect_str_eq(tt_errmsg(ctx), "workflow shape 'ring:3': not chain:L, fan:W or mr:M:R");
    p.wf_frac = 1.5;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    p.wf_frac = 0;
    p.elastic = 1001;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    tt_ctx_free(ctx);
}

/* --models gives each model id one size in [45, 1400] MiB, wherever the
 * id runs, so the model cache can hold it. */
Test(gen_cols, one_size_per_model_id)
{
    tt_gen_params p;
    tt_gen_defaults(&p);
    p.jobs = 5000;
    p.seed = 9;
    p.models = 12;
    tt_trace *t = gen(&p);
    cr_assert(t->mid && t->mem_mb);
    int32_t size[12] = {0};
    int distinct = 0;
    for (int64_t i = 0; i < t->n; i++) {
        int32_t m = t->mid[i], s = t->mem_mb[i];
        cr_assert(s >= 45 && s <= 1400, "row %lld: mem_mb %d", (long long)i, s);
        if (!size[m])
            size[m] = s, distinct++;
        cr_assert_eq(s, size[m], "model %d: %d then %d", m, size[m], s);
    }
    cr_assert_gt(distinct, 6);
    tt_trace_free(t);
}
