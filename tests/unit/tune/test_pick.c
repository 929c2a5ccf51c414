/* The final pick honours the objective's conditions: on a surface whose
 * unconstrained best breaks the condition, every strategy's choice, the
 * grid baseline's and the hindsight's on a test part are the best of the
 * configurations that meet it, worked out here from the rows alone (the
 * "best" bounds over the rows the pick was made among). The tests that
 * compare objective values alone passed when the pick ignored the
 * conditions, since breaking one only ever lowers the objective. */
#include <math.h>

#include "testutil.h"
#include "tune/tuneutil.h"

/* jct_mean a bowl around w0 = e^center - 1 (about 600 s for 6.4) and
 * theta 4300; makespan and util worse as w0 grows, so that the bowl's
 * bottom breaks every condition below. */
static int bowl2_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    double center = *(const double *)arg;
    for (int64_t i = 0; i < n; i++) {
        double a = ps[i].w0 == TT_INF ? 14.0 : log1p((double)ps[i].w0);
        double th = ps[i].theta == TT_INF ? 12000.0 : (double)ps[i].theta;
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = 5000 + 300 * (a - center) * (a - center) + 2e-4 * (th - 4300) * (th - 4300);
        out[i].makespan = 100000 + (int64_t)(4000 * a) - (int64_t)(th / 10);
        out[i].util = 1.0 - a / 20 + th / 1e6;
    }
    return 0;
}

/* One condition, as the test reads it. */
typedef struct {
    const char *objective;
    int util;      /* on util (>=), else on makespan (<=) */
    int rel;       /* factor * best, else an absolute bound */
    double factor;
} cond;

static const cond conds[] = {
    {"jct_mean s.t. makespan <= 1.05 * best", 0, 1, 1.05},
    {"jct_mean s.t. makespan <= 110000", 0, 0, 110000},
    {"jct_mean s.t. util >= 0.8", 1, 0, 0.8},
    {"jct_mean s.t. util >= 0.85 * best", 1, 1, 0.85},
};

static double cond_metric(const cond *c, const tt_tune_row *w)
{
    return c->util ? w->metrics.util : (double)w->metrics.makespan;
}

/* The best row among rows[0..n) of t that meets c (bounds over them),
 * checking on the way that the best of all breaks c: -1 when none meets
 * it. */
static int64_t best_feasible(const tt_tune *t, const int64_t *rows, int64_t n, const cond *c)
{
    double best = c->util ? -INFINITY : INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double v = cond_metric(c, tt_tune_row_at(t, rows[i]));
        best = c->util ? fmax(best, v) : fmin(best, v);
    }
    double bound = c->rel ? c->factor * best : c->factor;
    int64_t pick = -1, any = -1;
    for (int64_t i = 0; i < n; i++) {
        const tt_tune_row *w = tt_tune_row_at(t, rows[i]);
        double v = cond_metric(c, w);
        if (any < 0 || w->objective < tt_tune_row_at(t, any)->objective)
            any = rows[i];
        if ((c->util ? v >= bound : v <= bound) &&
            (pick < 0 || w->objective < tt_tune_row_at(t, pick)->objective))
            pick = rows[i];
    }
    cr_assert_geq(pick, 0, "'%s': no row meets the condition", c->objective);
    double v = cond_metric(c, tt_tune_row_at(t, any));
    cr_assert(c->util ? v < bound : v > bound,
              "'%s': the unconstrained best meets the condition: a test that cannot fail",
              c->objective);
    return pick;
}

/* The rows of t of phase, or every row (phase < 0), into rows. */
static int64_t rows_of(const tt_tune *t, int phase, int64_t *rows)
{
    int64_t n = 0;
    for (int64_t r = 0; r < tt_tune_rows(t); r++)
        if (phase < 0 || tt_tune_row_at(t, r)->phase == phase)
            rows[n++] = r;
    return n;
}

static void expect_pick(const tt_tune *t, int64_t got, const tt_tune *ref, int64_t want,
                        const char *what, const cond *c)
{
    const tt_tune_row *a = tt_tune_row_at(t, got), *b = tt_tune_row_at(ref, want);
    cr_expect(a->params.w0 == b->params.w0 && a->params.theta == b->params.theta &&
                  a->objective == b->objective,
              "%s, '%s': picked w0 %lld theta %lld (%.1f, %s %.4g), the best that meets it is "
              "w0 %lld theta %lld (%.1f)", what, c->objective, (long long)a->params.w0,
              (long long)a->params.theta, a->objective, c->util ? "util" : "makespan",
              cond_metric(c, a), (long long)b->params.w0, (long long)b->params.theta,
              b->objective);
}

static const char *const space[] = {"w0=log:1:86400:31,inf", "theta=1000:12000:32"};
static const char *const names[] = {"grid", "refine", "model"};

/* A search alone: its set is every row of a fresh tuner. */
Test(pick, every_strategy)
{
    double center = 6.4;
    int64_t rows[1024];
    for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++)
        for (int st = TT_TUNE_GRID; st <= TT_TUNE_MODEL; st++) {
            tt_objective *o = obj(conds[k].objective);
            tt_tune *t = make_tune(space, 2, o);
            tt_tune_opts opts = {.strategy = (tt_tune_strategy)st, .budget = 102, .seed = 3};
            int64_t best = -1;
            tt_ctx *ctx = tt_ctx_create();
            cr_assert_eq(tt_tune_search(ctx, t, &opts, bowl2_eval, &center, &best), 0, "%s",
                         tt_errmsg(ctx));
            int64_t n = rows_of(t, -1, rows);
            expect_pick(t, best, t, best_feasible(t, rows, n, &conds[k]), names[st], &conds[k]);
            tt_ctx_free(ctx);
            tt_tune_free(t);
            tt_objective_free(o);
        }
}

/* The protocol: the choice among the search's rows, the grid baseline's
 * among a plain grid's (a fresh tuner's grid search of the budget gives
 * its set), and with a test part the hindsight among every test row. */
Test(pick, roles_and_holdout)
{
    double ctr = 6.4, cte = 8.0;
    int64_t rows[2048];
    for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++)
        for (int st = TT_TUNE_REFINE; st <= TT_TUNE_MODEL; st++)
            for (int split = 0; split < 2; split++) {
                const cond *c = &conds[k];
                tt_objective *o = obj(c->objective);
                tt_tune *tr = make_tune(space, 2, o), *te = split ? make_tune(space, 2, o) : NULL;
                tt_tune_opts opts = {.strategy = (tt_tune_strategy)st, .budget = 102, .seed = 5};
                tt_tune_roles ro;
                tt_ctx *ctx = tt_ctx_create();
                cr_assert_eq(tt_tune_run_roles(ctx, tr, te, &opts, NULL, bowl2_eval, &ctr,
                                               &cte, &ro), 0, "%s", tt_errmsg(ctx));
                int64_t n = rows_of(tr, 0, rows);
                expect_pick(tr, ro.train_row[TT_ROLE_RECOMMENDED], tr,
                            best_feasible(tr, rows, n, c), split ? "recommended, holdout"
                                                                 : "recommended", c);
                tt_tune *g = make_tune(space, 2, o);
                tt_tune_opts go = {.strategy = TT_TUNE_GRID, .budget = 102};
                int64_t gbest;
                cr_assert_eq(tt_tune_search(ctx, g, &go, bowl2_eval, &ctr, &gbest), 0);
                n = rows_of(g, -1, rows);
                expect_pick(tr, ro.train_row[TT_ROLE_GRID_BEST], g, best_feasible(g, rows, n, c),
                            "grid_best", c);
                if (te) {
                    n = rows_of(te, -1, rows);
                    expect_pick(te, ro.test_row[TT_ROLE_HINDSIGHT], te,
                                best_feasible(te, rows, n, c), "hindsight", c);
                }
                tt_tune_free(g);
                tt_tune_free(tr);
                tt_tune_free(te);
                tt_ctx_free(ctx);
                tt_objective_free(o);
            }
}
