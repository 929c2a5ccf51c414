/* The auto-tuner: ranges, the objective grammar, the ranking, the time
 * split, and the strategies on synthetic surfaces whose optimum the test
 * finds by visiting every grid point itself: each strategy must come
 * within 1% of it with at most 10% of the grid's simulations, never
 * simulate one configuration twice, and repeat itself for a seed. */
#include <math.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/tune.h"

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
    dim_bad("order", "fifo,sjf", "only integer parameters can be searched");
    dim_bad("nosuch", "1,2", "range 'nosuch=1,2': unknown parameter");
    dim_bad("restart", "0:10:3,inf", "only w0, w1 and theta take inf");
    dim_bad("w0", "log:0:10:3", "a log grid needs A > 0");
}

static tt_objective *obj(const char *text)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = NULL;
    cr_assert_eq(tt_objective_parse(ctx, text, &o), 0, "'%s': %s", text, tt_errmsg(ctx));
    tt_ctx_free(ctx);
    return o;
}

static void obj_bad(const char *text, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = NULL;
    cr_expect_eq(tt_objective_parse(ctx, text, &o), TT_EINVAL, "'%s' accepted", text);
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "'%s': '%s' lacks '%s'", text,
              tt_errmsg(ctx), want);
    cr_expect_null(o);
    tt_ctx_free(ctx);
}

Test(tune, objective_grammar)
{
    tt_metrics m;
    memset(&m, 0, sizeof m);
    m.jct_mean = 100.5;
    m.makespan = 2000;
    m.util = 0.5;
    tt_objective *o = obj("jct_mean");
    cr_expect_str_eq(tt_objective_text(o), "jct_mean");
    cr_expect_eq(tt_objective_value(o, &m), 100.5);
    tt_objective_free(o);
    /* 0.5 * 100.5 + 0.25 * 2000 - 1000 * 0.5 = 50.25 */
    o = obj(" 0.5*jct_mean+0.25 * makespan -1000*util");
    cr_expect_str_eq(tt_objective_text(o), "0.5 * jct_mean + 0.25 * makespan - 1000 * util");
    cr_expect_eq(tt_objective_value(o, &m), 50.25);
    tt_objective_free(o);
    o = obj("-util");
    cr_expect_eq(tt_objective_value(o, &m), -0.5);
    tt_objective_free(o);
    o = obj("jct_mean s.t. makespan <= 1.05 * best and util >= 0.3");
    cr_expect_str_eq(tt_objective_text(o), "jct_mean s.t. makespan <= 1.05 * best and util >= 0.3");
    tt_objective_free(o);
    obj_bad("jct_avg", "unknown metric 'jct_avg' (known: makespan jct_mean");
    obj_bad("jct_mean s.t. nosuch <= 3", "unknown metric 'nosuch'");
    obj_bad("jct_mean s.t. makespan < 3", "expected <= or >=");
    obj_bad("jct_mean s.t. makespan <= 0.9 * best", "can never hold (the factor must be >= 1)");
    obj_bad("jct_mean s.t. util >= 1.1 * best", "can never hold (the factor must be <= 1)");
    obj_bad("jct_mean +", "expected a metric at '(end)'");
    obj_bad("2 jct_mean", "expected '*' after a weight");
    obj_bad("jct_mean makespan", "unexpected text at 'makespan'");
    obj_bad("", "expected a metric");
}

/* Five metric sets: the objective jct_mean, a condition on makespan. */
Test(tune, ranking_and_feasibility)
{
    tt_metrics m[5];
    memset(m, 0, sizeof m);
    const double jct[] = {50, 40, 60, 40, 45};
    const int64_t mk[] = {1000, 1200, 900, 1040, 1100};
    for (int i = 0; i < 5; i++) {
        m[i].jct_mean = jct[i];
        m[i].makespan = mk[i];
    }
    int64_t b;
    int feas;
    tt_objective *o = obj("jct_mean");
    /* the first of the two 40s */
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 1 && feas);
    cr_expect_eq(tt_objective_best(o, m, 0, &b, &feas), TT_EEMPTY);
    tt_objective_free(o);
    /* best makespan 900: bound 945: only 0 (50) ... no: 1000 > 945; only 2 */
    o = obj("jct_mean s.t. makespan <= 1.05 * best");
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 2 && feas, "best %lld", (long long)b);
    tt_objective_free(o);
    /* bound 1.2 * 900 = 1080: 0 (50), 2 (60), 3 (40): 3 */
    o = obj("jct_mean s.t. makespan <= 1.2 * best");
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 3 && feas, "best %lld", (long long)b);
    cr_expect(tt_objective_feasible(o, m, 5, &m[3]));
    cr_expect(!tt_objective_feasible(o, m, 5, &m[1]));
    tt_objective_free(o);
    /* an absolute bound nobody meets: the least violation (900 vs 800) */
    o = obj("jct_mean s.t. makespan <= 800");
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 2 && !feas, "best %lld feasible %d", (long long)b, feas);
    char why[256];
    tt_objective_why_infeasible(o, m, 5, why, sizeof why);
    cr_expect_str_eq(why, "constraint 'makespan <= 800' holds for none of the 5 configurations "
                          "(least makespan 900)");
    tt_objective_free(o);
}

/* A metric set that cannot be computed (no job simulated: NAN,
 * TT_METRIC_NONE) is never the best while another has a value, however it
 * would compare; when none has one there is no best. */
Test(tune, ranking_without_values)
{
    tt_metrics m[3];
    memset(m, 0, sizeof m);
    m[0].jct_mean = NAN;
    m[0].makespan = TT_METRIC_NONE;
    m[1].jct_mean = 40;
    m[1].makespan = 1000;
    m[2].jct_mean = 30;
    m[2].makespan = TT_METRIC_NONE;
    int64_t b = -1;
    int feas = -1;
    tt_objective *o = obj("jct_mean");
    cr_assert_eq(tt_objective_best(o, m, 3, &b, &feas), 0);
    cr_expect(b == 2 && feas, "best %lld", (long long)b);
    cr_expect(isnan(tt_objective_value(o, &m[0])));
    tt_objective_free(o);
    /* the condition's metric is empty in rows 0 and 2: row 1 alone */
    o = obj("jct_mean s.t. makespan <= 1.1 * best");
    cr_assert_eq(tt_objective_best(o, m, 3, &b, &feas), 0);
    cr_expect(b == 1 && feas, "best %lld", (long long)b);
    tt_objective_free(o);
    o = obj("-makespan");
    cr_assert_eq(tt_objective_best(o, m, 3, &b, &feas), 0);
    cr_expect_eq(b, 1);
    cr_expect_eq(tt_objective_best(o, m + 2, 1, &b, &feas), TT_EEMPTY);
    tt_objective_free(o);
}

Test(tune, slice)
{
    int64_t submit[] = {100, 150, 150, 400}, dur[] = {1, 2, 3, 4};
    int32_t gpus[] = {1, 2, 4, 8}, cls[] = {0, -1, 1, -1};
    tt_sim_jobs j = {4, submit, dur, gpus, cls, 2}, s;
    cr_assert_eq(tt_tune_slice(NULL, &j, 1, 4, &s), 0);
    cr_expect(s.n == 3 && s.submit[0] == 0 && s.submit[1] == 0 && s.submit[2] == 250);
    cr_expect(s.duration[2] == 4 && s.gpus[1] == 4 && s.cls[0] == -1 && s.unknown_models == 2);
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

/* ---- synthetic surfaces ---- */

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

static tt_tune *make_tune(const char *const *specs, int nd, const tt_objective *o)
{
    tt_tune_dim d[3];
    tt_params base;
    tt_params_default(&base);
    for (int k = 0; k < nd; k++) {
        char name[16];
        const char *eq = strchr(specs[k], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - specs[k]), specs[k]);
        cr_assert_eq(tt_tune_dim_parse(NULL, NULL, name, eq + 1, &d[k]), 0, "%s", specs[k]);
    }
    tt_tune *t = NULL;
    cr_assert_eq(tt_tune_create(NULL, &base, d, nd, o, &t), 0);
    for (int k = 0; k < nd; k++)
        tt_tune_dim_free(&d[k]);
    return t;
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

Test(tune, refine_bowl) { within_1pct(TT_TUNE_REFINE, two, 2, 0, "jct_mean", 1); }
Test(tune, model_bowl) { within_1pct(TT_TUNE_MODEL, two, 2, 0, "jct_mean", 1); }
Test(tune, refine_ripples_3d) { within_1pct(TT_TUNE_REFINE, three, 3, 1, "jct_mean", 1); }
Test(tune, model_ripples_3d) { within_1pct(TT_TUNE_MODEL, three, 3, 1, "jct_mean", 7); }
Test(tune, refine_constrained)
{
    within_1pct(TT_TUNE_REFINE, two, 2, 0, "jct_mean s.t. makespan <= 1.02 * best", 1);
}
Test(tune, model_constrained)
{
    within_1pct(TT_TUNE_MODEL, two, 2, 0, "jct_mean s.t. makespan <= 1.02 * best", 1);
}

/* The same seed proposes the same points in the same order; the cache
 * makes a second search over known points free. */
Test(tune, deterministic_and_cached)
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
    cr_expect_eq(s1.calls, 5, "200 in batches of 40: %lld rounds", (long long)s1.calls);
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
Test(tune, class_timers)
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

/* A tenth of the grid, at least 1; the batch a quarter of the budget
 * within 16 .. 4096 and never above it. */
Test(tune, default_budget_and_batch)
{
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    const char *specs[][2] = {{"w0=0:9:9", "1"}, {"w0=0:9:10", "1"}, {"w0=0:99:100", "10"},
                              {"w0=0:1:2", "1"}};
    for (int k = 0; k < 4; k++) {
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

/* ---- the roles and the feasibility of a tuner's rows ---- */

/* A made-up trace whose makespan grows with w0 and w1 (infinite: as 1000
 * s) and whose jct_mean falls with w0, more so when class 0 waits a timer
 * of its own; arg counts the simulations. */
static int line_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    if (arg)
        *(int64_t *)arg += n;
    for (int64_t i = 0; i < n; i++) {
        int64_t w0 = ps[i].w0 == TT_INF ? 1000 : ps[i].w0;
        int64_t w1 = ps[i].w1 == TT_INF ? 1000 : ps[i].w1;
        memset(&out[i], 0, sizeof out[i]);
        out[i].makespan = 1000 + 10 * w0 + w1;
        out[i].jct_mean = 2000 - (double)w0 - (ps[i].class_w0[0] != TT_TIMER_GLOBAL ? 500 : 0);
    }
    return 0;
}

/* A tuner over w0 (values) with base, for objective o. */
static tt_tune *line_tune(const char *values, const tt_params *base, const tt_objective *o)
{
    tt_tune_dim d;
    cr_assert_eq(tt_tune_dim_parse(NULL, NULL, "w0", values, &d), 0);
    tt_tune *t = NULL;
    cr_assert_eq(tt_tune_create(NULL, base, &d, 1, o, &t), 0);
    tt_tune_dim_free(&d);
    return t;
}

/* The row of w0 = w in t, evaluated in phase. */
static int64_t line_row(tt_tune *t, int64_t w, int phase)
{
    tt_params p;
    tt_params_default(&p);
    p.w0 = w;
    int64_t row = -1;
    cr_assert_eq(tt_tune_eval(NULL, t, &p, phase, line_eval, NULL, &row), 0);
    return row;
}

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
    char why[256] = "x";
    cr_expect_eq(tt_tune_why_infeasible(NULL, t, why, sizeof why), 0);
    cr_expect_str_eq(why, "");
    tt_tune_free(t);
    tt_objective_free(o);

    /* an absolute bound that only the phase 2 row (2000) meets */
    o = obj("jct_mean s.t. makespan <= 2050");
    t = line_tune("0,10,20,30", &base, o);
    line_row(t, 10, 0);
    line_row(t, 30, 0);
    line_row(t, 0, 2);
    cr_expect(!tt_tune_row_feasible(t, 0) && tt_tune_row_feasible(t, 2));
    cr_expect_eq(tt_tune_why_infeasible(NULL, t, why, sizeof why), 0);
    cr_expect_str_eq(why, "constraint 'makespan <= 2050' holds for none of the 2 "
                          "configurations (least makespan 2100)");
    tt_tune_free(t);
    tt_objective_free(o);
}

/* A bowl in w0 around center (infinite w0: as 1000 s); arg a bowl_part,
 * one for each part of the trace, counting its simulations. */
typedef struct {
    int64_t center, sims;
} bowl_part;

static int bowl_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    bowl_part *b = (bowl_part *)arg;
    b->sims += n;
    for (int64_t i = 0; i < n; i++) {
        double d = (double)((ps[i].w0 == TT_INF ? 1000 : ps[i].w0) - b->center);
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = d * d;
    }
    return 0;
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
                                     "larger than the cluster): nothing to tune");
    cr_expect_eq(best, -1);
    tt_tune_free(t);
    tt_ctx_free(ctx);
    tt_objective_free(o);
}
