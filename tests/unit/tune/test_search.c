/* The strategies on synthetic surfaces whose optimum the test finds by
 * visiting every grid point itself: each must come within 1% of it with
 * at most 10% of the grid's simulations, never simulate one configuration
 * twice, and repeat itself for a seed; the same over class timers; with
 * a budget of every point, each point once (exact). */
#include <math.h>

#include "testutil.h"
#include "tune/tuneutil.h"

typedef struct {
    int surface;
    int64_t calls, sims;
} synth;

static double lg(int64_t v, double inf) { return v == TT_INF ? inf : log1p((double)v); }

/* Metrics of a made-up trace: jct_mean a bowl in (log w0, log w1, theta)
 * with ripples; makespan a slope that favours small w0. */
static int synth_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    synth *s = (synth *)arg;
    s->calls++;
    s->sims += n;
    for (int64_t i = 0; i < n; i++) {
        const tt_params *p = &ps[i];
        double a = lg(p->w0, 14.0), b = lg(p->w1, 14.0);
        double th = p->theta == TT_INF ? 12000.0 : (double)p->theta;
        double f;
        if (s->surface == 2) /* per-class w0: class 0 best near 30 s, class 1 near 3 h */
            f = 6000 + 250 * (lg(p->class_w0[0], 14.0) - 3.4) * (lg(p->class_w0[0], 14.0) - 3.4) +
                180 * (lg(p->class_w0[1], 14.0) - 9.3) * (lg(p->class_w0[1], 14.0) - 9.3) +
                1e-4 * (th - 2500) * (th - 2500);
        else if (s->surface == 0) /* one bowl, optimum near w0 = 600, theta = 4300 */
            f = 5000 + 300 * (a - 6.4) * (a - 6.4) + 2e-4 * (th - 4300) * (th - 4300);
        else /* ripples over a bowl in three dimensions */
            f = 8000 + 200 * (a - 5.0) * (a - 5.0) + 150 * (b - 8.0) * (b - 8.0) +
                1e-4 * (th - 2500) * (th - 2500) + 400 * (1 - cos(2.5 * a)) +
                300 * (1 - cos(1.7 * b));
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = f;
        out[i].makespan = 100000 + (int64_t)(4000 * a) - (int64_t)(th / 10);
    }
    return 0;
}

/* The exhaustive grid's best objective, every point visited here. */
static double exhaustive(const tt_tune *t, const tt_objective *o, int surface)
{
    int64_t g = tt_tune_grid_size(t);
    tt_metrics *m = malloc((size_t)g * sizeof *m);
    tt_params *p = malloc((size_t)g * sizeof *p);
    cr_assert(m && p);
    for (int64_t k = 0; k < g; k++)
        tt_tune_point(t, k, &p[k]);
    synth s = {surface, 0, 0};
    synth_eval(&s, NULL, p, g, m);
    int64_t b;
    int feas;
    cr_assert_eq(tt_objective_best(o, m, g, &b, &feas), 0);
    double v = tt_objective_value(o, &m[b]);
    free(m);
    free(p);
    return v;
}

static void within_1pct(tt_tune_strategy strat, const char *const *specs, int nd, int surface,
                        const char *objective, uint64_t seed)
{
    tt_objective *o = obj(objective);
    tt_tune *t = make_tune(specs, nd, o);
    int64_t g = tt_tune_grid_size(t), budget = g / 10;
    double want = exhaustive(t, o, surface);
    synth s = {surface, 0, 0};
    tt_tune_opts opts = {.strategy = strat, .budget = budget, .seed = seed};
    int64_t best;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_tune_search(ctx, t, &opts, synth_eval, &s, &best), 0, "%s", tt_errmsg(ctx));
    double got = tt_tune_row_at(t, best)->objective;
    cr_expect_leq(s.sims, budget, "%lld simulations, budget %lld", (long long)s.sims,
                  (long long)budget);
    cr_expect_eq(s.sims, tt_tune_rows(t), "every simulation is a row");
    cr_expect_leq(got, want * 1.01, "strategy %d, %s: %.2f vs the grid's %.2f (%.3f%%) in %lld of "
                  "%lld", strat, objective, got, want, 100 * (got / want - 1), (long long)s.sims,
                  (long long)g);
    /* no configuration twice */
    for (int64_t i = 0; i < tt_tune_rows(t); i++)
        for (int64_t k = 0; k < i; k++) {
            const tt_params *a = &tt_tune_row_at(t, i)->params, *b = &tt_tune_row_at(t, k)->params;
            cr_assert(!(a->w0 == b->w0 && a->w1 == b->w1 && a->theta == b->theta),
                      "rows %lld and %lld are one configuration", (long long)k, (long long)i);
        }
    tt_ctx_free(ctx);
    tt_tune_free(t);
    tt_objective_free(o);
}

static const char *const two[] = {"w0=log:1:86400:31,inf", "theta=1000:12000:32"};
static const char *const three[] = {"w0=log:1:86400:15,inf", "w1=log:1:86400:15,inf",
                                    "theta=500:8000:16"};

Test(strategy, refine_bowl) { within_1pct(TT_TUNE_REFINE, two, 2, 0, "jct_mean", 1); }
Test(strategy, model_bowl) { within_1pct(TT_TUNE_MODEL, two, 2, 0, "jct_mean", 1); }
Test(strategy, refine_ripples_3d) { within_1pct(TT_TUNE_REFINE, three, 3, 1, "jct_mean", 1); }
Test(strategy, model_ripples_3d) { within_1pct(TT_TUNE_MODEL, three, 3, 1, "jct_mean", 7); }
Test(strategy, refine_constrained)
{
    within_1pct(TT_TUNE_REFINE, two, 2, 0, "jct_mean s.t. makespan <= 1.02 * best", 1);
}
Test(strategy, model_constrained)
{
    within_1pct(TT_TUNE_MODEL, two, 2, 0, "jct_mean s.t. makespan <= 1.02 * best", 1);
}

/* The same seed proposes the same points in the same order; the cache
 * makes a second search over known points free. */
Test(strategy, deterministic_and_cached)
{
    tt_objective *o = obj("jct_mean");
    tt_tune *t1 = make_tune(three, 3, o), *t2 = make_tune(three, 3, o);
    synth s1 = {1, 0, 0}, s2 = {1, 0, 0};
    tt_tune_opts opts = {.strategy = TT_TUNE_MODEL, .budget = 200, .batch = 40, .seed = 99};
    int64_t b1, b2;
    cr_assert_eq(tt_tune_search(NULL, t1, &opts, synth_eval, &s1, &b1), 0);
    cr_assert_eq(tt_tune_search(NULL, t2, &opts, synth_eval, &s2, &b2), 0);
    cr_expect_eq(b1, b2);
    cr_assert_eq(tt_tune_rows(t1), tt_tune_rows(t2));
    /* 160 in 4 rounds of 40 by the surrogate, the 40 kept for the local
     * steps in rounds of at most 12 (the neighbours along 3 axes of 2
     * points): 12, 12, 12, 4 */
    cr_expect_eq(s1.calls, 8, "200 in batches of 40: %lld rounds", (long long)s1.calls);
    for (int64_t i = 0; i < tt_tune_rows(t1); i++) {
        const tt_tune_row *a = tt_tune_row_at(t1, i), *b = tt_tune_row_at(t2, i);
        cr_assert(a->params.w0 == b->params.w0 && a->params.w1 == b->params.w1 &&
                      a->params.theta == b->params.theta && a->round == b->round,
                  "row %lld differs", (long long)i);
    }
    /* a baseline already simulated costs nothing */
    int64_t row, sims = s1.sims;
    cr_assert_eq(tt_tune_eval(NULL, t1, &tt_tune_row_at(t1, 3)->params, 2, synth_eval, &s1, &row), 0);
    cr_expect(row == 3 && s1.sims == sims);
    tt_params p;
    tt_params_default(&p);
    p.w0 = 17; /* not a lattice value */
    cr_assert_eq(tt_tune_eval(NULL, t1, &p, 2, synth_eval, &s1, &row), 0);
    cr_expect(row == tt_tune_rows(t1) - 1 && s1.sims == sims + 1 && tt_tune_row_at(t1, row)->phase == 2);
    /* the grid strategy: 10 x 10 x 2 = 200 points at most -> 6 x 6 x 5 = 180 */
    tt_tune_opts g = {.strategy = TT_TUNE_GRID, .budget = 200, .seed = 1, .phase = 1};
    synth s3 = {1, 0, 0};
    tt_tune *t3 = make_tune(three, 3, o);
    cr_assert_eq(tt_tune_search(NULL, t3, &g, synth_eval, &s3, &b1), 0);
    cr_expect_eq(s3.sims, 180, "grid: %lld", (long long)s3.sims);
    cr_expect_eq(s3.calls, 1);
    tt_tune_free(t1);
    tt_tune_free(t2);
    tt_tune_free(t3);
    tt_objective_free(o);
}

/* One w0 a model class: the dimensions set that class's own timer, the
 * cache tells configurations apart by it, and both strategies find the
 * optimum of a surface over (w0.fast, w0.slow, theta). */
Test(strategy, class_timers)
{
    static const char *const names[] = {"fast", "slow"};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, (const int64_t[]){1000, 1500},
                                  (const int64_t[]){1000, 3000}, &m), 0);
    tt_ctx *ctx = tt_ctx_create();
    tt_tune_dim d[3];
    cr_assert_eq(tt_tune_dim_parse(ctx, m, "w0.fast", "log:1:86400:15,inf", &d[0]), 0, "%s",
                 tt_errmsg(ctx));
    cr_assert_eq(tt_tune_dim_parse(ctx, m, "w0.slow", "log:1:86400:15,inf", &d[1]), 0);
    cr_assert_eq(tt_tune_dim_parse(ctx, m, "theta", "500:8000:16", &d[2]), 0);
    cr_expect(d[0].param == 1 && d[0].cls == 0 && d[1].cls == 1 && d[2].cls == -1);
    cr_expect_str_eq(d[1].name, "w0.slow");
    cr_expect(d[0].n == 16 && d[0].v[15] == TT_INF);
    tt_tune_dim bad;
    cr_expect_eq(tt_tune_dim_parse(ctx, m, "w1.medium", "0,1", &bad), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "range 'w1.medium=0,1': unknown model class 'medium'");
    cr_expect_eq(tt_tune_dim_parse(ctx, NULL, "w1.fast", "0,1", &bad), TT_EINVAL);

    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    for (int strat = TT_TUNE_REFINE; strat <= TT_TUNE_MODEL; strat++) {
        tt_tune *t = NULL;
        cr_assert_eq(tt_tune_create(ctx, &base, d, 3, o, &t), 0, "%s", tt_errmsg(ctx));
        int64_t g = tt_tune_grid_size(t), budget = g / 10;
        cr_assert_eq(g, 16 * 16 * 16);
        /* the exhaustive optimum, every point visited here */
        tt_metrics *all = malloc((size_t)g * sizeof *all);
        tt_params *p = malloc((size_t)g * sizeof *p);
        cr_assert(all && p);
        for (int64_t k = 0; k < g; k++)
            tt_tune_point(t, k, &p[k]);
        synth ex = {2, 0, 0};
        synth_eval(&ex, NULL, p, g, all);
        double want = INFINITY;
        for (int64_t k = 0; k < g; k++)
            want = all[k].jct_mean < want ? all[k].jct_mean : want;
        /* lattice points differ only in the class timers and theta */
        cr_expect(p[0].w0 == TT_INF && p[0].class_w0[0] == 1 && p[0].class_w0[1] == 1);
        cr_expect(p[g - 1].class_w0[0] == TT_INF && p[g - 1].class_w0[1] == TT_INF);
        cr_expect(p[g - 1].class_w1[0] == TT_TIMER_GLOBAL);
        free(all);
        free(p);
        synth s = {2, 0, 0};
        tt_tune_opts opts = {.strategy = (tt_tune_strategy)strat, .budget = budget, .seed = 1};
        int64_t best;
        cr_assert_eq(tt_tune_search(ctx, t, &opts, synth_eval, &s, &best), 0, "%s",
                     tt_errmsg(ctx));
        double got = tt_tune_row_at(t, best)->objective;
        cr_expect_leq(s.sims, budget);
        cr_expect_eq(s.sims, tt_tune_rows(t), "the cache tells class timers apart");
        cr_expect_leq(got, want * 1.01, "strategy %d: %.2f vs the grid's %.2f", strat, got, want);
        tt_tune_free(t);
    }
    for (int k = 0; k < 3; k++)
        tt_tune_dim_free(&d[k]);
    tt_objective_free(o);
    tt_ctx_free(ctx);
    tt_models_free(m);
}

/* Exact when the points fit: without a trace every point is a form of its
 * own, so refine and model with a budget of the grid run every point, in
 * lattice order a batch a round, find the exhaustive best (under a
 * condition too) on the ripples and leave no budget note; a simulation
 * short of the grid they search. */
Test(strategy, exact_when_the_points_fit)
{
    static const char *const small[] = {"w0=log:1:86400:9,inf", "w1=log:1:86400:5,inf",
                                        "theta=500:8000:4"};
    const char *objectives[] = {"jct_mean", "jct_mean s.t. makespan <= 1.02 * best"};
    for (int k = 0; k < 2; k++)
        for (int strat = TT_TUNE_REFINE; strat <= TT_TUNE_MODEL; strat++) {
            tt_objective *o = obj(objectives[k]);
            tt_tune *t = make_tune(small, 3, o);
            int64_t g = tt_tune_grid_size(t), best;
            cr_assert_eq(g, 240);
            double want = exhaustive(t, o, 1);
            synth s = {1, 0, 0};
            tt_tune_opts opts = {.strategy = (tt_tune_strategy)strat, .budget = g, .batch = 50,
                                 .seed = 3};
            cr_assert_eq(tt_tune_search(NULL, t, &opts, synth_eval, &s, &best), 0);
            cr_expect(tt_tune_last_exact(t) && tt_tune_grid_forms(t) == g,
                      "strategy %d: exact %d, %lld forms", strat, tt_tune_last_exact(t),
                      (long long)tt_tune_grid_forms(t));
            cr_expect(s.sims == g && s.calls == 5 && tt_tune_rows(t) == g,
                      "strategy %d: %lld simulations in %lld rounds", strat, (long long)s.sims,
                      (long long)s.calls);
            for (int64_t r = 0; r < tt_tune_rows(t); r++) {
                tt_params p;
                tt_tune_point(t, r, &p);
                const tt_tune_row *w = tt_tune_row_at(t, r);
                cr_assert(w->params.w0 == p.w0 && w->params.w1 == p.w1 &&
                              w->params.theta == p.theta && w->round == r / 50,
                          "row %lld is not lattice point %lld of round %lld", (long long)r,
                          (long long)r, (long long)(r / 50));
            }
            cr_expect_eq(tt_tune_row_at(t, best)->objective, want, "%s: not the grid's best",
                         objectives[k]);
            cr_expect_eq(tt_tune_last_gain(t), 0.0);
            /* one simulation fewer: a search of its own, not exact, the points
             * counted */
            tt_tune *u = make_tune(small, 3, o);
            synth su = {1, 0, 0};
            opts.budget = g - 1;
            cr_assert_eq(tt_tune_search(NULL, u, &opts, synth_eval, &su, &best), 0);
            cr_expect(!tt_tune_last_exact(u) && tt_tune_grid_forms(u) == g && su.sims < g);
            tt_tune_free(u);
            tt_tune_free(t);
            tt_objective_free(o);
        }
}
