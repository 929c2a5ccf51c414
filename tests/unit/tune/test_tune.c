/* The tuner: ranges and the search space built from text, the time
 * split, the default budget and batch, the feasibility of a tuner's rows,
 * the protocol of the roles, and the evaluation that simulates. */
#include <math.h>

#include "sim/randcase.h"
#include "testutil.h"
#include "tt/canon.h"
#include "tune/tuneutil.h"

static void dim_ok(const char *name, const char *spec, const int64_t *want, int64_t n, int scale)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_tune_dim d;
    cr_assert_eq(tt_tune_dim_parse(ctx, NULL, name, spec, &d), 0, "%s=%s: %s", name, spec,
                 tt_errmsg(ctx));
    cr_expect_eq(d.n, n, "%s=%s: %lld values", name, spec, (long long)d.n);
    for (int64_t i = 0; i < n && i < d.n; i++)
        cr_expect_eq(d.v[i], want[i], "%s=%s: value %lld is %lld, want %lld", name, spec,
                     (long long)i, (long long)d.v[i], (long long)want[i]);
    cr_expect_eq(d.scale, scale, "%s=%s: scale %d", name, spec, d.scale);
    tt_tune_dim_free(&d);
    tt_ctx_free(ctx);
}

static void dim_bad(const char *name, const char *spec, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_tune_dim d;
    cr_expect_eq(tt_tune_dim_parse(ctx, NULL, name, spec, &d), TT_EINVAL, "%s=%s accepted", name,
                 spec);
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "%s=%s: '%s' lacks '%s'", name, spec,
              tt_errmsg(ctx), want);
    tt_ctx_free(ctx);
}

Test(tune, ranges)
{
    /* 10^(i/3) rounded: 1 10 100 1000 */
    dim_ok("w0", "log:1:1000:4,inf", (const int64_t[]){1, 10, 100, 1000, TT_INF}, 5, TT_TUNE_LOG);
    dim_ok("theta", "0:600:3", (const int64_t[]){0, 300, 600}, 3, TT_TUNE_LINEAR);
    /* sorted, repeats dropped, inf last */
    dim_ok("w1", "600,0,inf,0", (const int64_t[]){0, 600, TT_INF}, 3, TT_TUNE_LIST);
    /* 0:1:4 rounds to 0 0 1 1 (halves up: 0, 1/3, 2/3, 1) */
    dim_ok("backfill", "0:1:4", (const int64_t[]){0, 1}, 2, TT_TUNE_LINEAR);
    dim_bad("w0", "a:b:3", "range 'w0=a:b:3': 'a' is not an integer");
    dim_bad("w0", "1:2", "range 'w0=1:2': expected A:B:N");
    dim_bad("w0", "-5,10", "range 'w0=-5,10': value 1 ('-5')");
    /* section 10's: sizes 0 .. 6, the resize cost and gap log-integer */
    dim_ok("el_up", "0:6:7", (const int64_t[]){0, 1, 2, 3, 4, 5, 6}, 7, TT_TUNE_LINEAR);
    dim_ok("el_down", "1,0", (const int64_t[]){0, 1}, 2, TT_TUNE_LIST);
    dim_ok("resize_cost", "log:1:1000:4", (const int64_t[]){1, 10, 100, 1000}, 4, TT_TUNE_LOG);
    dim_ok("resize_gap", "log:30:3000:3", (const int64_t[]){30, 300, 3000}, 3, TT_TUNE_LOG);
    dim_bad("el_up", "0:7:8", "range 'el_up=0:7:8': value 8 ('7'): expected doublings 0 .. 6");
    dim_bad("resize_gap", "0:10:3,inf", "only w0, w1 and theta take inf");
    dim_bad("el_frac", "0:1000:3", "only integer parameters can be searched");
    dim_bad("resize", "sidecar,term", "only integer parameters can be searched");
    dim_bad("order", "fifo,sjf", "only integer parameters can be searched");
    dim_bad("nosuch", "1,2", "range 'nosuch=1,2': unknown parameter");
    dim_bad("restart", "0:10:3,inf", "only w0, w1 and theta take inf");
    dim_bad("w0", "log:0:10:3", "a log grid needs A > 0");
    /* 10^8 values would be copied (800 MB) and sorted before repeats go */
    dim_bad("w0", "0:100000000:100000001", "range 'w0=0:100000000:100000001': 100000001 "
                                           "values, at most 65536 in a dimension");
}

/* The space from text: fixed values into the base, ranges into the
 * dimensions, w0.* one range a class, a name both fixed and searched
 * refused, and no more than TT_TUNE_MAX_DIMS ranges. */
Test(tune, space)
{
    static const char *const names[] = {"fast", "slow"};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, (const int64_t[]){1000, 1500},
                                  (const int64_t[]){1000, 3000}, &m), 0);
    tt_ctx *ctx = tt_ctx_create();
    tt_tune_space sp;
    tt_tune_space_init(&sp, m);
    cr_assert_eq(tt_tune_space_fix(ctx, &sp, "load", "3000"), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_tune_space_fix(ctx, &sp, "w1.slow", "60"), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_tune_space_fix(ctx, &sp, "nosuch", "1"), TT_EINVAL);
    cr_expect(sp.base.load == 3000 && sp.base.class_w1[1] == 60);
    cr_assert_eq(tt_tune_space_search(ctx, &sp, "w0.*", "0,600,inf"), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_tune_space_search(ctx, &sp, "theta", "1000:2000:3"), 0, "%s",
                 tt_errmsg(ctx));
    cr_assert_eq(sp.ndims, 3);
    cr_expect_str_eq(sp.dims[0].name, "w0.fast");
    cr_expect_str_eq(sp.dims[1].name, "w0.slow");
    cr_expect(sp.dims[1].param == 1 && sp.dims[1].cls == 1 && sp.dims[1].n == 3);
    cr_expect(sp.dims[2].param == 3 && sp.dims[2].cls == -1 && sp.dims[2].v[1] == 1500);
    /* searched after being fixed, as the tool's options name them */
    cr_expect_eq(tt_tune_space_search(ctx, &sp, "load", "1000,2000"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "parameter 'load': both fixed with -p and searched with -s");
    cr_expect_eq(tt_tune_space_search(ctx, &sp, "w1.slow", "0,1"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx),
                     "parameter 'w1.slow': both fixed with -p and searched with -s");
    cr_expect_eq(sp.ndims, 3, "a refused range stays: %d", sp.ndims);
    /* w1.* is two names, neither fixed as typed: no clash */
    cr_expect_eq(tt_tune_space_search(ctx, &sp, "w1.*", "0,1"), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(sp.ndims, 5);
    cr_expect_eq(tt_tune_space_search(ctx, &sp, "w0.medium", "0,1"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "range 'w0.medium=0,1': unknown model class 'medium'");
    while (sp.ndims < TT_TUNE_MAX_DIMS - 1)
        cr_assert_eq(tt_tune_space_search(ctx, &sp, "restart", "0,1"), 0);
    /* one left: w0.* takes it, then there is no room for its second */
    cr_expect_eq(tt_tune_space_search(ctx, &sp, "w0.*", "0,1"), TT_ERANGE);
    cr_expect_str_eq(tt_errmsg(ctx), "-s w0.*: more than 32 searched parameters");
    cr_expect_eq(sp.ndims, TT_TUNE_MAX_DIMS);
    tt_tune_space_free(&sp);
    tt_tune_space_free(NULL);
    tt_ctx_free(ctx);
    tt_models_free(m);
}

Test(tune, slice)
{
    int64_t submit[] = {100, 150, 150, 400}, dur[] = {1, 2, 3, 4};
    int32_t gpus[] = {1, 2, 4, 8}, cls[] = {0, -1, 1, -1};
    tt_sim_jobs j = {.n = 4, .submit = submit, .duration = dur, .gpus = gpus, .cls = cls, .unknown_models = 2}, s;
    cr_assert_eq(tt_tune_slice(NULL, &j, 1, 4, &s), 0);
    cr_expect(s.n == 3 && s.submit[0] == 0 && s.submit[1] == 0 && s.submit[2] == 250);
    cr_expect(s.duration[2] == 4 && s.gpus[1] == 4 && s.cls[0] == -1 && s.unknown_models == 2);
    cr_expect(!s.elastic && !s.gpus_min && !s.gpus_max);
    tt_sim_jobs_free(&s);
    /* the elasticity columns go with their jobs */
    int8_t el[] = {1, 0, -1, 1};
    int32_t gmax[] = {-1, 4, 8, 16};
    j.elastic = el;
    j.gpus_max = gmax;
    cr_assert_eq(tt_tune_slice(NULL, &j, 1, 4, &s), 0);
    cr_expect(s.elastic && s.elastic[0] == 0 && s.elastic[1] == -1 && s.elastic[2] == 1);
    cr_expect(s.gpus_max && s.gpus_max[0] == 4 && s.gpus_max[2] == 16 && !s.gpus_min);
    tt_sim_jobs_free(&s);
    /* and the workflow columns: rows 1..3 of workflow 5, row 3 the child of
     * rows 0 and 2; in the part [1, 4) row 0 is done before it begins, so
     * the child waits for row 2 (the part's 1) alone */
    int64_t wf[] = {5, 5, 5, 5}, dep_off[] = {0, 0, 1, 1, 3};
    int32_t deps[] = {0, 0, 2}, out_mb[] = {10, 20, 30, 40};
    j.wf = wf;
    j.dep_off = dep_off;
    j.deps = deps;
    j.out_mb = out_mb;
    cr_assert_eq(tt_tune_slice(NULL, &j, 1, 4, &s), 0);
    cr_expect(s.wf && s.wf[0] == 5 && s.wf[2] == 5 && s.out_mb && s.out_mb[2] == 40);
    cr_expect(s.dep_off && s.dep_off[0] == 0 && s.dep_off[1] == 0 && s.dep_off[2] == 0 &&
              s.dep_off[3] == 1 && s.deps[0] == 1, "row 3's parents: %lld %lld",
              (long long)(s.dep_off ? s.dep_off[3] : -1), (long long)(s.deps ? s.deps[0] : -1));
    cr_expect(!s.mid && !s.mem_mb);
    tt_sim_jobs_free(&s);
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_tune_slice(ctx, &j, 2, 2, &s), TT_EINVAL);
    cr_expect_eq(tt_tune_slice(ctx, &j, 0, 5, &s), TT_EINVAL);
    tt_ctx_free(ctx);
}

/* The held-out part: the last round(f n) jobs, halves up; a fraction
 * that leaves either part empty is refused. */
Test(tune, holdout)
{
    int64_t cut = -1;
    cr_expect_eq(tt_tune_holdout(2000, 0.3, &cut), 0);
    cr_expect_eq(cut, 1400);
    cr_expect_eq(tt_tune_holdout(3, 0.5, &cut), 0); /* 1.5 rounds to 2 test jobs */
    cr_expect_eq(cut, 1);
    /* fractions of 8 exact in binary: 0.5 and 6.5 jobs round up */
    cr_expect_eq(tt_tune_holdout(8, 0.0625, &cut), 0); /* one test job */
    cr_expect_eq(cut, 7);
    cr_expect_eq(tt_tune_holdout(8, 0.8125, &cut), 0); /* one train job */
    cr_expect_eq(cut, 1);
    cut = -1;
    cr_expect_eq(tt_tune_holdout(8, 0.05, &cut), TT_EINVAL);   /* 0.4: no test job */
    cr_expect_eq(tt_tune_holdout(8, 0.9375, &cut), TT_EINVAL); /* 7.5: no train job */
    cr_expect_eq(tt_tune_holdout(2000, 0.0001, &cut), TT_EINVAL);
    cr_expect_eq(tt_tune_holdout(1, 0.5, &cut), TT_EINVAL);
    cr_expect_eq(tt_tune_holdout(0, 0.5, &cut), TT_EINVAL);
    cr_expect_eq(tt_tune_holdout(2000, 0, &cut), TT_EINVAL);
    cr_expect_eq(tt_tune_holdout(2000, 1, &cut), TT_EINVAL);
    cr_expect_eq(tt_tune_holdout(2000, -0.5, &cut), TT_EINVAL);
    cr_expect_eq(tt_tune_holdout(2000, NAN, &cut), TT_EINVAL);
    cr_expect_eq(cut, -1, "refused, yet cut %lld", (long long)cut);
}

/* The larger of 256 and a tenth of the grid, at most the grid; the batch
 * a quarter of the budget within 16 .. 4096 and never above it. */
Test(tune, default_budget_and_batch)
{
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    const char *specs[][2] = {{"w0=0:9:9", "9"},         {"w0=0:9:10", "10"},
                              {"w0=0:99:100", "100"},    {"w0=0:1:2", "2"},
                              {"w0=0:2559:2560", "256"}, {"w0=0:4999:5000", "500"}};
    for (int k = 0; k < 6; k++) {
        tt_tune *t = make_tune(&specs[k][0], 1, o);
        cr_expect_eq(tt_tune_default_budget(t), atoll(specs[k][1]), "%s", specs[k][0]);
        tt_tune_free(t);
    }
    static const char *const big[] = {"w0=0:999:1000", "theta=0:999:1000"};
    tt_tune *t = make_tune(big, 2, o);
    cr_expect_eq(tt_tune_default_budget(t), 100000);
    tt_tune_free(t);
    cr_expect_eq(tt_tune_default_batch(100000), 4096);
    cr_expect_eq(tt_tune_default_batch(1000), 250);
    cr_expect_eq(tt_tune_default_batch(40), 16);
    cr_expect_eq(tt_tune_default_batch(10), 10);
    tt_objective_free(o);
}

/* The parts of a tune: the held-out fraction, two ranges, or none; a
 * part without jobs or past the trace is TT_ERANGE and slices nothing. */
Test(tune, split)
{
    int64_t submit[] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, dur[10];
    int32_t gpus[10], cls[10];
    for (int i = 0; i < 10; i++) {
        dur[i] = 100 + i;
        gpus[i] = 1;
        cls[i] = -1;
    }
    tt_sim_jobs j = {.n = 10, .submit = submit, .duration = dur, .gpus = gpus, .cls = cls, .unknown_models = 10}, tr, te;
    tt_ctx *ctx = tt_ctx_create();
    char desc[128];
    const int64_t none[4] = {0, 0, 0, 0}, ranges[4] = {2, 5, 5, 9}, past[4] = {0, 5, 5, 11};
    cr_assert_eq(tt_tune_split(ctx, &j, 0.3, none, &tr, &te, desc, sizeof desc), 0);
    cr_expect_str_eq(desc, "train jobs [0,7), test jobs [7,10)");
    cr_expect(tr.n == 7 && te.n == 3 && te.submit[0] == 0 && te.submit[2] == 20 &&
              te.duration[0] == 107);
    tt_sim_jobs_free(&tr);
    tt_sim_jobs_free(&te);
    cr_assert_eq(tt_tune_split(ctx, &j, 0, ranges, &tr, &te, desc, sizeof desc), 0);
    cr_expect_str_eq(desc, "train jobs [2,5), test jobs [5,9)");
    cr_expect(tr.n == 3 && tr.duration[0] == 102 && te.n == 4 && te.submit[3] == 30);
    tt_sim_jobs_free(&tr);
    tt_sim_jobs_free(&te);
    cr_assert_eq(tt_tune_split(ctx, &j, 0, none, &tr, &te, desc, sizeof desc), 0);
    cr_expect_str_eq(desc, "none: tuned on every job");
    cr_expect(tr.n == 0 && te.n == 0 && !tr.submit && !te.submit);
    cr_expect_eq(tt_tune_split(ctx, &j, 0.01, none, &tr, &te, desc, sizeof desc), TT_ERANGE);
    cr_expect_eq(tt_tune_split(ctx, &j, 0, past, &tr, &te, desc, sizeof desc), TT_ERANGE);
    cr_expect_str_eq(tt_errmsg(ctx), "jobs [0,5), [5,11): the trace has 10 jobs");
    cr_expect(!tr.submit && !te.submit);
    tt_ctx_free(ctx);
}

/* tt_tune_eval_sim simulates as tt_simulate does, the batch on every core
 * or as the run options say. */
Test(tune, eval_sim)
{
    rcase k;
    cr_assert_eq(rcase_make(11, 60, &k), 0);
    enum { NP = 6 };
    tt_params ps[NP];
    tt_metrics want[NP], got[NP];
    uint64_t seed = 77;
    tt_ctx *ctx = tt_ctx_create();
    for (int i = 0; i < NP; i++) {
        rcase_params(&seed, &ps[i]);
        cr_assert_eq(tt_simulate(ctx, &k.c, &ps[i], k.m, &k.j, NULL, &want[i], NULL), 0, "%s",
                     tt_errmsg(ctx));
    }
    tt_tune_sim e = {&k.c, k.m, &k.j, NULL};
    cr_assert_eq(tt_tune_eval_sim(&e, ctx, ps, NP, got), 0, "%s", tt_errmsg(ctx));
    cr_expect(memcmp(want, got, sizeof want) == 0);
    tt_run_opts one = {.threads = 1};
    e.opts = &one;
    memset(got, 0, sizeof got);
    cr_assert_eq(tt_tune_eval_sim(&e, ctx, ps, NP, got), 0, "%s", tt_errmsg(ctx));
    cr_expect(memcmp(want, got, sizeof want) == 0);
    ps[2].congestion = 1000;
    cr_expect_eq(tt_tune_eval_sim(&e, ctx, ps, NP, got), TT_EINVAL);
    cr_expect(strncmp(tt_errmsg(ctx), "candidate 2: ", 13) == 0, "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
    rcase_free(&k);
}

/* ---- configurations of one canonical form: one simulation ---- */

typedef struct {
    tt_tune_sim sim;
    int64_t sims;
} counted;

static int counted_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    counted *c = (counted *)arg;
    c->sims += n;
    return tt_tune_eval_sim(&c->sim, ctx, ps, n, out);
}

/* The forms among the rows of t, and whether every row shares the
 * simulation of the first row of its form and has the metrics its own
 * simulation gives. */
static int64_t check_rows(const tt_tune *t, const tt_canon *k, const rcase *rc)
{
    tt_ctx *ctx = tt_ctx_create();
    int64_t forms = 0, n = tt_tune_rows(t);
    for (int64_t r = 0; r < n; r++) {
        const tt_tune_row *w = tt_tune_row_at(t, r);
        tt_params f, g;
        tt_canon_form(k, &w->params, &f);
        int64_t first = -1;
        for (int64_t q = 0; q < r && first < 0; q++) {
            tt_canon_form(k, &tt_tune_row_at(t, q)->params, &g);
            if (tt_canon_equal(&f, &g))
                first = q;
        }
        forms += first < 0;
        cr_expect_eq(w->sim_row, first < 0 ? r : tt_tune_row_at(t, first)->sim_row,
                     "row %lld: sim_row %lld", (long long)r, (long long)w->sim_row);
        tt_metrics m;
        cr_assert_eq(tt_simulate(ctx, &rc->c, &w->params, rc->m, &rc->j, NULL, &m, NULL), 0);
        cr_expect(memcmp(&m, &w->metrics, sizeof m) == 0, "row %lld: not its simulation",
                  (long long)r);
    }
    tt_ctx_free(ctx);
    return forms;
}

/* Given its trace, a tuner simulates each canonical form once: a grid of
 * 55 points where theta above every class's L2 slowdown and every theta
 * at w0 = inf are one run; the budget counts simulations, so a search
 * looks at more points than its budget. Refine and model with a budget
 * of the grid's forms or more simulate each of them (exact), with fewer
 * they search. */
Test(tune, one_simulation_per_form)
{
    rcase k;
    cr_assert_eq(rcase_make(21, 80, &k), 0);
    tt_canon kc;
    cr_assert_eq(tt_canon_init(NULL, &kc, &k.c, k.m, &k.j), 0);
    tt_objective *o = obj("jct_mean");
    static const char *const specs[] = {"w0=0,30,60,600,inf", "theta=1000:3000:11"};
    tt_ctx *ctx = tt_ctx_create();
    int64_t all = 0; /* the grid's forms, from the grid strategy's run */
    for (int run = 0; run < 5; run++) {
        int strat = run == 0 ? TT_TUNE_GRID : run % 2 ? TT_TUNE_REFINE : TT_TUNE_MODEL;
        tt_tune *t = make_tune(specs, 2, o);
        cr_assert_eq(tt_tune_set_canon(ctx, t, &k.c, k.m, &k.j), 0, "%s", tt_errmsg(ctx));
        counted c = {{&k.c, k.m, &k.j, NULL}, 0};
        /* refine and model: a budget where some point they propose shares a
         * form (which points depends on the strategy's round 0), then one
         * of every form */
        int64_t budget = run == 0 ? 55 : run < 3 ? 6 : all, best;
        tt_tune_opts opts = {(tt_tune_strategy)strat, budget, 3, 1, NULL, 0, NULL, NULL, NULL,
                             NULL};
        cr_assert_eq(tt_tune_search(ctx, t, &opts, counted_eval, &c, &best), 0, "%s",
                     tt_errmsg(ctx));
        int64_t forms = check_rows(t, &kc, &k);
        cr_expect_eq(c.sims, forms, "strategy %d: %lld simulations, %lld forms", strat,
                     (long long)c.sims, (long long)forms);
        cr_expect_eq(tt_tune_sims(t), c.sims);
        cr_expect_leq(c.sims, budget);
        cr_expect_leq(tt_tune_rows(t), TT_TUNE_POINTS_PER_SIM * budget);
        cr_expect_eq(tt_tune_last_exact(t), run >= 3, "run %d: exact %d", run,
                     tt_tune_last_exact(t));
        if (run == 0) {
            cr_expect_eq(tt_tune_rows(t), 55, "the whole grid");
            cr_expect_lt(forms, 55, "no form shared");
            cr_expect_gt(forms, 6, "a budget of 6 is exact");
            all = forms;
        } else if (run < 3) {
            cr_expect_gt(tt_tune_rows(t), c.sims, "strategy %d: no point shared a form", strat);
            cr_expect_eq(tt_tune_grid_forms(t), all, "the forms counted, not exact");
        } else {
            /* a row a form, the first point of each in lattice order */
            cr_expect(tt_tune_rows(t) == all && c.sims == all && tt_tune_grid_forms(t) == all,
                      "strategy %d: %lld rows, %lld simulations, %lld forms counted, %lld in "
                      "the grid", strat, (long long)tt_tune_rows(t), (long long)c.sims,
                      (long long)tt_tune_grid_forms(t), (long long)all);
            cr_expect_eq(tt_tune_row_at(t, 0)->params.w0, 0);
            cr_expect_eq(tt_tune_row_at(t, 0)->params.theta, 1000);
        }
        /* a single configuration of a known form costs nothing */
        tt_params p = tt_tune_row_at(t, 0)->params;
        p.min_run += 1;
        p.theta = TT_INF;
        p.w0 = p.w1 = TT_INF;
        int64_t before = c.sims, rp, rq;
        cr_assert_eq(tt_tune_eval(ctx, t, &p, 2, counted_eval, &c, &rp), 0);
        tt_params q = p;
        q.restart += 5;
        cr_assert_eq(tt_tune_eval(ctx, t, &q, 2, counted_eval, &c, &rq), 0);
        cr_expect_neq(rp, rq);
        cr_expect_leq(c.sims, before + 1, "two configurations of one form, two simulations");
        cr_expect_eq(tt_tune_row_at(t, rq)->sim_row, tt_tune_row_at(t, rp)->sim_row);
        tt_tune_free(t);
    }
    tt_ctx_free(ctx);
    tt_objective_free(o);
    rcase_free(&k);
}

/* ---- the roles and the feasibility of a tuner's rows ---- */

/* Feasibility takes its "best" bounds over every row of the tuner; the
 * reason for none takes only the search's rows (phase 0). */
Test(tune, row_feasible_and_why)
{
    tt_params base;
    tt_params_default(&base);
    tt_objective *o = obj("jct_mean s.t. makespan <= 1.15 * best");
    tt_tune *t = line_tune("0,10,20,30", &base, o);
    /* makespans 1000 + 10 w0 + 1000: 1100 + 1000, 1200 + 1000 */
    cr_expect_eq(line_row(t, 10, 0), 0);
    cr_expect_eq(line_row(t, 30, 0), 1);
    /* best 2100, bound 2415: both */
    cr_expect(tt_tune_row_feasible(t, 0) && tt_tune_row_feasible(t, 1));
    /* w0 = 0 (2000) lowers the bound to 2300: row 1 (2300), on it, holds */
    cr_expect_eq(line_row(t, 0, 2), 2);
    cr_expect(tt_tune_row_feasible(t, 1));
    tt_tune_free(t);
    tt_objective_free(o);

    o = obj("jct_mean s.t. makespan <= 1.1 * best");
    t = line_tune("0,10,20,30", &base, o);
    line_row(t, 10, 0); /* 2100 */
    line_row(t, 30, 0); /* 2300 */
    cr_expect(tt_tune_row_feasible(t, 1), "2300 <= 1.1 * 2100");
    line_row(t, 0, 2); /* 2000: bound 2200 */
    cr_expect(tt_tune_row_feasible(t, 0) && !tt_tune_row_feasible(t, 1) &&
              tt_tune_row_feasible(t, 2));
    int64_t feas[3] = {-1, -1, -1};
    tt_tune_rows_feasible(t, feas); /* all at once: the same answers */
    cr_expect(feas[0] == 1 && feas[1] == 0 && feas[2] == 1, "%lld %lld %lld",
              (long long)feas[0], (long long)feas[1], (long long)feas[2]);
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_tune_check_feasible(ctx, t), 0, "%s", tt_errmsg(ctx));
    tt_tune_free(t);
    tt_objective_free(o);

    /* an absolute bound that only the phase 2 row (2000) meets */
    o = obj("jct_mean s.t. makespan <= 2050");
    t = line_tune("0,10,20,30", &base, o);
    line_row(t, 10, 0);
    line_row(t, 30, 0);
    line_row(t, 0, 2);
    cr_expect(!tt_tune_row_feasible(t, 0) && tt_tune_row_feasible(t, 2));
    cr_expect_eq(tt_tune_check_feasible(ctx, t), TT_EEMPTY);
    cr_expect_str_eq(tt_errmsg(ctx), "no feasible configuration: constraint 'makespan <= 2050' "
                                     "holds for none of the 2 configurations (least makespan "
                                     "2100)");
    tt_tune_free(t);
    tt_objective_free(o);
    tt_ctx_free(ctx);
}

static int stop_now(void *arg)
{
    (void)arg;
    return 1;
}

/* Which progress argument each round reported with. */
static int progress_search, progress_hindsight;
static void count_progress(void *arg, int round, int64_t done, int64_t budget)
{
    (void)round;
    (void)done;
    (void)budget;
    if (arg == (void *)&progress_search)
        progress_search++;
    else if (arg == (void *)&progress_hindsight)
        progress_hindsight++;
}

/* The roles with grid searches of 4 over w0 = 0, 10 .. 90, whose lattice
 * points are w0 = 0, 30, 60, 90: everything the protocol does is known.
 * Train has its bowl at 50, test at 20; the base has a class timer. */
Test(tune, roles_with_test_part)
{
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    base.w1 = 5;
    base.class_w0[0] = 7;
    const char *w0s = "0,10,20,30,40,50,60,70,80,90";
    tt_tune *tr = line_tune(w0s, &base, o), *te = line_tune(w0s, &base, o);
    bowl_part ptr = {50, 0}, pte = {20, 0};
    tt_tune_opts opts = {.strategy = TT_TUNE_GRID, .budget = 4, .seed = 1,
                         .progress = count_progress, .progress_arg = &progress_search};
    tt_tune_roles ro;
    tt_ctx *ctx = tt_ctx_create();
    progress_search = progress_hindsight = 0;
    cr_assert_eq(tt_tune_run_roles(ctx, tr, te, &opts, &progress_hindsight, bowl_eval, &ptr,
                                   &pte, &ro), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(ro.nroles, TT_NROLES);
    cr_expect_str_eq(tt_tune_role_names[TT_ROLE_GRID_BEST], "grid_best");
    cr_expect_str_eq(tt_tune_role_names[TT_ROLE_HINDSIGHT], "hindsight");
    /* train: the search's rows 0 .. 3 (w0 0, 30, 60, 90: 2500, 400, 100,
     * 1600); the grid of the same budget finds them cached; strict row 4,
     * no_wait row 5 */
    cr_expect(ro.sims_search == 4 && ro.sims_grid == 0, "search %lld, grid %lld",
              (long long)ro.sims_search, (long long)ro.sims_grid);
    cr_expect_eq(ptr.sims, 6);
    cr_expect_eq(tt_tune_rows(tr), 6);
    cr_expect(ro.train_row[TT_ROLE_RECOMMENDED] == 2 && ro.train_row[TT_ROLE_GRID_BEST] == 2);
    cr_expect(ro.train_row[TT_ROLE_STRICT] == 4 && ro.train_row[TT_ROLE_NO_WAIT] == 5);
    const tt_params *p = &tt_tune_row_at(tr, 2)->params;
    cr_expect(p->w0 == 60 && p->w1 == 5 && p->class_w0[0] == 7);
    /* strict and no_wait wait the same in every class: no timer of its own */
    p = &tt_tune_row_at(tr, 4)->params;
    cr_expect(p->w0 == TT_INF && p->w1 == TT_INF && p->class_w0[0] == TT_TIMER_GLOBAL);
    cr_expect_eq(tt_tune_row_at(tr, 4)->objective, 950.0 * 950.0);
    cr_expect_eq(tt_tune_row_at(tr, 4)->phase, 2);
    p = &tt_tune_row_at(tr, 5)->params;
    cr_expect(p->w0 == 0 && p->w1 == 0 && p->class_w0[0] == TT_TIMER_GLOBAL);
    /* test: recommended row 0 (60: 1600), strict 1, no_wait 2 (0: 400),
     * grid_best cached as 0; the hindsight grid adds 0 (row 3), 30 (row 4:
     * 100), 90 (row 5: 4900) with the class timer of the base */
    cr_expect(ro.test_row[TT_ROLE_RECOMMENDED] == 0 && ro.test_row[TT_ROLE_STRICT] == 1 &&
              ro.test_row[TT_ROLE_NO_WAIT] == 2 && ro.test_row[TT_ROLE_GRID_BEST] == 0);
    cr_expect_eq(tt_tune_row_at(te, 0)->objective, 1600);
    cr_expect_eq(pte.sims, 6);
    cr_expect_eq(ro.test_row[TT_ROLE_HINDSIGHT], 4);
    cr_expect_eq(tt_tune_row_at(te, 4)->phase, 3);
    cr_expect_eq(tt_tune_row_at(te, 4)->params.w0, 30);
    cr_expect_eq(ro.hindsight, 100);
    /* the hindsight on train: w0 = 30 with the timer, the search's row 1 */
    cr_expect_eq(ro.train_row[TT_ROLE_HINDSIGHT], 1);
    cr_expect(progress_search == 1 && progress_hindsight == 1, "progress %d, %d",
              progress_search, progress_hindsight);
    tt_tune_free(tr);
    tt_tune_free(te);

    /* stopped before the first round: nothing simulated */
    opts.stop = stop_now;
    tr = line_tune(w0s, &base, o);
    cr_expect_eq(tt_tune_run_roles(ctx, tr, NULL, &opts, NULL, bowl_eval, &ptr, NULL, &ro),
                 TT_ESTOPPED);
    cr_expect_eq(tt_tune_rows(tr), 0);
    cr_expect_eq(ro.train_row[TT_ROLE_RECOMMENDED], -1);
    tt_tune_free(tr);
    tt_ctx_free(ctx);
    tt_objective_free(o);
}

/* Without a test part: four roles, no hindsight. A refine search of 6
 * (rounds of 2), then the grid of the same budget: w0 = 0, 20, 40, 50,
 * 70, 90, each visited by the search or added by the grid (phase 1, and
 * nothing else), the best of them 50. */
Test(tune, roles_without_test_part)
{
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    tt_tune *tr = line_tune("0,10,20,30,40,50,60,70,80,90", &base, o);
    bowl_part ptr = {50, 0};
    tt_tune_opts opts = {.strategy = TT_TUNE_REFINE, .budget = 6, .batch = 2, .seed = 1};
    tt_tune_roles ro;
    cr_assert_eq(tt_tune_run_roles(NULL, tr, NULL, &opts, NULL, bowl_eval, &ptr, NULL, &ro), 0);
    cr_expect_eq(ro.nroles, TT_ROLE_HINDSIGHT);
    cr_expect(ro.train_row[TT_ROLE_HINDSIGHT] == -1 && ro.hindsight == 0);
    for (int r = 0; r < TT_NROLES; r++)
        cr_expect_eq(ro.test_row[r], -1, "role %d", r);
    cr_expect_leq(ro.sims_search, 6);
    cr_expect_eq(ro.sims_search + ro.sims_grid + 2, tt_tune_rows(tr));
    cr_expect_eq(ptr.sims, tt_tune_rows(tr));
    const int grid = 1 << 0 | 1 << 2 | 1 << 4 | 1 << 5 | 1 << 7 | 1 << 9; /* w0 / 10 */
    int seen = 0, grid_rows = 0;
    for (int64_t r = 0; r < tt_tune_rows(tr); r++) {
        const tt_tune_row *w = tt_tune_row_at(tr, r);
        if (w->phase < 2)
            seen |= 1 << (w->params.w0 / 10);
        if (w->phase == 1) {
            grid_rows++;
            cr_expect(grid >> (w->params.w0 / 10) & 1, "the grid added w0 = %lld",
                      (long long)w->params.w0);
        }
    }
    cr_expect_eq(seen & grid, grid, "grid points visited: %x", seen);
    cr_expect_eq(grid_rows, ro.sims_grid);
    cr_expect_eq(tt_tune_row_at(tr, ro.train_row[TT_ROLE_GRID_BEST])->params.w0, 50);
    cr_expect_eq(tt_tune_row_at(tr, ro.train_row[TT_ROLE_STRICT])->phase, 2);
    tt_tune_free(tr);
    tt_objective_free(o);
}

/* Every job rejected: no configuration has an objective, so the search
 * stops at the first simulation with TT_EEMPTY rather than recommend one
 * (all metrics 0 made every configuration look ideal). */
static int empty_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)arg;
    (void)ctx;
    (void)ps;
    for (int64_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].makespan = out[i].jct_p50 = out[i].jct_p90 = out[i].jct_p99 = TT_METRIC_NONE;
        out[i].queue_p99 = TT_METRIC_NONE;
        out[i].jct_mean = out[i].queue_mean = out[i].comm_share = out[i].util = NAN;
        out[i].rejected = 5;
    }
    return 0;
}

Test(tune, nothing_to_tune)
{
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    tt_tune *t = line_tune("0,10,20,30", &base, o);
    tt_tune_opts opts = {.strategy = TT_TUNE_GRID, .budget = 4, .seed = 1};
    tt_ctx *ctx = tt_ctx_create();
    int64_t best = -1;
    cr_expect_eq(tt_tune_search(ctx, t, &opts, empty_eval, NULL, &best), TT_EEMPTY);
    cr_expect_str_eq(tt_errmsg(ctx), "the objective's jct_mean cannot be computed (every job is "
                                     "rejected): nothing to tune");
    cr_expect_eq(best, -1);
    tt_tune_free(t);
    tt_ctx_free(ctx);
    tt_objective_free(o);
}
