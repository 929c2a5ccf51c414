/* The tuner's cache of evaluated configurations: a configuration that
 * differs in any one parameter from another is a row of its own, and
 * each searchable parameter, searched alone over a real trace, simulates
 * every distinct point of its range once, with every row (the search's,
 * the grid baseline's, strict, no_wait, on train and on test) holding
 * the metrics tt_simulate gives for that row's own parameters. */
#include <math.h>

#include "sim/randcase.h"
#include "testutil.h"
#include "tt/canon.h"
#include "tune/tune_impl.h"
#include "tune/tuneutil.h"

/* A value other than the default, for every parameter tt_params_set
 * knows (over the built-in model table). */
static const struct {
    const char *name, *value;
} other[] = {
    {"order", "sjf"},          {"w0", "60"},          {"w1", "60"},
    {"theta", "1500"},         {"restart", "31"},     {"congestion", "100"},
    {"min_run", "301"},        {"max_preempt", "4"},  {"backfill", "0"},
    {"load", "999"},           {"seed", "2"},         {"mix", "bert:2,ncf:1"},
    {"timers", "bert:60:-"},   {"mlfq", "100,200"},   {"promote", "10"},
    {"prio_preempt", "0"},     {"gittins_delta", "100"}, {"gittins_dist", "other.csv"},
    {"el_up", "1"},            {"el_down", "1"},      {"el_frac", "500"},
    {"resize", "term"},        {"resize_cost", "11"}, {"resize_gap", "301"},
    {"gpu_mem", "1024"},       {"cache_slots", "2"},  {"load_bw", "100"},
    {"xfer_bw", "100"},        {"evict", "demand"},   {"cache_place", "affinity"},
    {"w_warm", "60"},          {"requeue", "front"},
    {"prio_victims", "refill"},
};

static const char *other_value(const char *name)
{
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
        if (strcmp(other[k].name, name) == 0)
            return other[k].value;
    return NULL;
}

static int count_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    (void)ps;
    *(int64_t *)arg += n;
    for (int64_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = (double)(*(int64_t *)arg - n + i);
    }
    return 0;
}

/* Every parameter (and a class's own w1, which the timers' text above
 * leaves global): changed alone from the defaults, the configuration
 * differs in its full identity (tt_canon_equal and tt_canon_hash over the
 * configuration itself) and the tuner gives it a row and an evaluation of
 * its own. The cache keyed 13 of the 31 parameters: a configuration that
 * differed in el_up, promote or w_warm alone got the defaults' row. */
Test(cache, every_parameter_keys_its_own_row)
{
    tt_models *m = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_models_default(ctx, &m), 0);
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    for (int i = 0; i <= TT_NPARAMS; i++) {
        const char *name = i < TT_NPARAMS ? tt_param_names[i] : "timers";
        const char *value = i < TT_NPARAMS ? other_value(name) : "ncf:-:0";
        cr_assert(value, "no other value for parameter '%s': add one", name);
        tt_params p = base;
        cr_assert_eq(tt_params_set(ctx, &p, m, name, value), 0, "%s=%s: %s", name, value,
                     tt_errmsg(ctx));
        cr_expect(!tt_canon_equal(&base, &p), "%s=%s: equal to the defaults", name, value);
        cr_expect_neq(tt_canon_hash(&base), tt_canon_hash(&p), "%s=%s: the defaults' hash",
                      name, value);
        tt_tune *t = line_tune("0,60", &base, o);
        int64_t evals = 0, r0 = -1, r1 = -1, again = -1;
        cr_assert_eq(tt_tune_eval(ctx, t, &base, 2, count_eval, &evals, &r0), 0);
        cr_assert_eq(tt_tune_eval(ctx, t, &p, 2, count_eval, &evals, &r1), 0);
        cr_assert_eq(tt_tune_eval(ctx, t, &p, 2, count_eval, &evals, &again), 0);
        cr_expect(r0 == 0 && r1 == 1 && again == 1 && evals == 2,
                  "%s=%s: rows %lld, %lld, %lld for 2 configurations, %lld evaluations", name,
                  value, (long long)r0, (long long)r1, (long long)again, (long long)evals);
        tt_tune_free(t);
    }
    tt_objective_free(o);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

/* ---- each searchable parameter alone, on a real trace ---- */

/* A range of each searchable parameter: a new one fails until listed. */
static const struct {
    const char *name, *range;
} ranges[] = {
    {"w0", "0,60,inf"},          {"w1", "0,600,inf"},         {"theta", "1000,1300,1600,inf"},
    {"restart", "0,30,300"},     {"congestion", "0,200,500"}, {"min_run", "0,300,900"},
    {"max_preempt", "0,1,3"},    {"backfill", "0,1"},         {"load", "500,1000,2000"},
    {"promote", "0,2000,8000"},  {"prio_preempt", "0,1"},     {"gittins_delta", "100,3250,20000"},
    {"el_up", "0,1,2,3"},        {"el_down", "0,1,2"},        {"resize_cost", "1,10,100"},
    {"resize_gap", "0,300,3000"}, {"cache_slots", "1,2,4"},   {"w_warm", "0,60,600"},
    {"requeue", "keep,front"},    {"prio_victims", "lowest,refill"},
};

/* Every parameter of p as text, for comparing configurations without the
 * functions under test. */
static void params_text(const tt_params *p, const tt_models *m, char *buf, size_t size)
{
    size_t k = 0;
    for (int i = 0; i < TT_NPARAMS && k + 1 < size; i++) {
        char v[TT_PARAM_TEXT_MAX];
        tt_params_format(p, m, i, v, sizeof v);
        int n = snprintf(buf + k, size - k, "%s=%s ", tt_param_names[i], v);
        k = n < 0 ? size : k + (size_t)n;
    }
}

/* The distinct canonical forms among the lattice points of t, by pairs. */
static int64_t distinct_forms(const tt_tune *t, const tt_canon *kc)
{
    int64_t g = tt_tune_grid_size(t), n = 0;
    tt_params *f = (tt_params *)malloc((size_t)g * sizeof *f);
    cr_assert(f);
    for (int64_t k = 0; k < g; k++) {
        tt_params p;
        tt_tune_point(t, k, &p);
        tt_canon_form(kc, &p, &f[n]);
        int seen = 0;
        for (int64_t q = 0; q < n && !seen; q++)
            seen = tt_canon_equal(&f[q], &f[n]);
        n += !seen;
    }
    free(f);
    return n;
}

/* Every row of t holds the metrics tt_simulate gives its parameters on
 * jobs j; every lattice point of phase 0 has a row with its parameters. */
static void check_part(const tt_tune *t, const rcase *k, const tt_sim_jobs *j, const char *what)
{
    tt_ctx *ctx = tt_ctx_create();
    char a[8192];
    for (int64_t r = 0; r < tt_tune_rows(t); r++) {
        const tt_tune_row *w = tt_tune_row_at(t, r);
        tt_metrics want;
        cr_assert_eq(tt_simulate(ctx, &k->c, &w->params, k->m, j, NULL, &want, NULL), 0, "%s",
                     tt_errmsg(ctx));
        params_text(&w->params, k->m, a, sizeof a);
        cr_expect(memcmp(&want, &w->metrics, sizeof want) == 0,
                  "%s: row %lld (%s) is not its own simulation: jct_mean %.6f, simulated %.6f",
                  what, (long long)r, a, w->metrics.jct_mean, want.jct_mean);
    }
    tt_ctx_free(ctx);
}

/* Whether the phase-0 rows of t hold every lattice point's canonical form
 * (a search may stand a point by another of its form). */
static void check_points(const tt_tune *t, const tt_canon *kc, const tt_models *m,
                         const char *what)
{
    char a[8192], b[8192];
    for (int64_t p = 0; p < tt_tune_grid_size(t); p++) {
        tt_params q, f;
        tt_tune_point(t, p, &q);
        tt_canon_form(kc, &q, &f);
        params_text(&f, m, a, sizeof a);
        int found = 0;
        for (int64_t r = 0; r < tt_tune_rows(t) && !found; r++) {
            tt_canon_form(kc, &tt_tune_row_at(t, r)->params, &f);
            params_text(&f, m, b, sizeof b);
            found = tt_tune_row_at(t, r)->phase == 0 && strcmp(a, b) == 0;
        }
        tt_tune_point(t, p, &q);
        params_text(&q, m, a, sizeof a);
        cr_expect(found, "%s: the form of lattice point %lld (%s) has no row of the search",
                  what, (long long)p, a);
    }
}

/* The row of a baseline holds base waiting w in every class. */
static void check_baseline(const tt_tune *t, int64_t row, const tt_params *base, int64_t w,
                           const tt_models *m, const char *what)
{
    tt_params p = *base;
    p.w0 = p.w1 = w;
    for (int c = 0; c < TT_MAX_CLASSES; c++)
        p.class_w0[c] = p.class_w1[c] = TT_TIMER_GLOBAL;
    char a[8192], b[8192];
    params_text(&p, m, a, sizeof a);
    params_text(&tt_tune_row_at(t, row)->params, m, b, sizeof b);
    cr_expect_str_eq(b, a, "%s: the baseline's parameters", what);
}

/* The bases a parameter is searched over: the defaults (strict
 * consolidation: the strict baseline differs from a point only in the
 * searched parameter); an order that reads SPEC 11's parameters, waiting
 * and preemption possible, the model cache on; and that with elastic
 * jobs, where a configuration is its own form. */
enum { NBASES = 3 };
static const char *const base_names[NBASES] = {"the defaults", "gittins", "gittins, el_up=1"};
static void base_of(tt_params *p, int b)
{
    tt_params_default(p);
    if (b == 0)
        return;
    p->order = TT_ORDER_GITTINS;
    p->w0 = 60;
    p->w1 = 600;
    p->theta = 1200;
    p->gpu_mem = 1024;
    p->load_bw = 100;
    p->el_up = b == 2;
}

/* Each searchable parameter alone, over each base, searched by the model
 * strategy a point a round with a budget of the grid's size on the first
 * 60 jobs of a random workflow trace and the protocol's roles on the
 * other 60: the search simulates each distinct form of its points once
 * (exact, on both parts) and has a row of every point's form; every row
 * is its own simulation; strict and no_wait are the base waiting inf and
 * 0. The cache keyed 13 parameters: a point of a later round found the
 * row of an earlier point that differed only in el_up, promote or w_warm,
 * and strict the row of whichever point came first. */
Test(cache, each_searchable_parameter_alone)
{
    rcase k;
    wfcols wc;
    cr_assert_eq(rcase_make_wf(31, 120, &k, &wc), 0);
    tt_sim_jobs tr, te;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_tune_slice(ctx, &k.j, 0, 60, &tr), 0);
    cr_assert_eq(tt_tune_slice(ctx, &k.j, 60, 120, &te), 0);
    tt_canon kc;
    cr_assert_eq(tt_canon_init(ctx, &kc, &k.c, k.m, &tr), 0);
    tt_objective *o = obj("jct_mean");
    int searched = 0;
    for (int i = 0; i < TT_NPARAMS; i++) {
        if (!tt_tune_searchable(i))
            continue;
        const char *range = NULL;
        for (size_t q = 0; q < sizeof ranges / sizeof ranges[0]; q++)
            if (strcmp(ranges[q].name, tt_param_names[i]) == 0)
                range = ranges[q].range;
        cr_assert(range, "no range for searchable parameter '%s': add one", tt_param_names[i]);
        searched++;
        for (int b = 0; b < NBASES; b++) {
            char what[128];
            snprintf(what, sizeof what, "%s=%s over %s", tt_param_names[i], range,
                     base_names[b]);
            tt_params base;
            base_of(&base, b);
            tt_tune_dim d;
            cr_assert_eq(tt_tune_dim_parse(ctx, k.m, tt_param_names[i], range, &d), 0, "%s",
                         tt_errmsg(ctx));
            tt_tune *t = NULL, *u = NULL;
            cr_assert_eq(tt_tune_create(ctx, &base, &d, 1, o, &t), 0);
            cr_assert_eq(tt_tune_create(ctx, &base, &d, 1, o, &u), 0);
            tt_tune_dim_free(&d);
            cr_assert_eq(tt_tune_set_canon(ctx, t, &k.c, k.m, &tr), 0);
            cr_assert_eq(tt_tune_set_canon(ctx, u, &k.c, k.m, &te), 0);
            tt_tune_sim str = {&k.c, k.m, &tr, NULL}, ste = {&k.c, k.m, &te, NULL};
            tt_tune_opts opts = {.strategy = TT_TUNE_MODEL, .budget = tt_tune_grid_size(t),
                                 .batch = 1, .seed = 1};
            tt_tune_roles ro;
            cr_assert_eq(tt_tune_run_roles(ctx, t, u, &opts, NULL, tt_tune_eval_sim, &str, &ste,
                                           &ro), 0, "%s: %s", what, tt_errmsg(ctx));
            int64_t forms = distinct_forms(t, &kc);
            cr_expect_eq(ro.sims_search, forms, "%s: %lld simulations for %lld distinct forms",
                         what, (long long)ro.sims_search, (long long)forms);
            check_points(t, &kc, k.m, what);
            cr_expect(ro.exact && ro.forms == forms, "%s: exact %d, %lld forms counted", what,
                      ro.exact, (long long)ro.forms);
            cr_expect_eq(ro.exact_test, 1, "%s: the hindsight search is not exact", what);
            check_part(t, &k, &tr, what);
            check_part(u, &k, &te, what);
            check_baseline(t, ro.train_row[TT_ROLE_STRICT], &base, TT_INF, k.m, what);
            check_baseline(t, ro.train_row[TT_ROLE_NO_WAIT], &base, 0, k.m, what);
            check_baseline(u, ro.test_row[TT_ROLE_STRICT], &base, TT_INF, k.m, what);
            check_baseline(u, ro.test_row[TT_ROLE_NO_WAIT], &base, 0, k.m, what);
            tt_tune_free(t);
            tt_tune_free(u);
        }
    }
    cr_expect_eq(searched, (int)(sizeof ranges / sizeof ranges[0]), "a range of no searchable "
                 "parameter");
    tt_objective_free(o);
    tt_sim_jobs_free(&tr);
    tt_sim_jobs_free(&te);
    tt_ctx_free(ctx);
    rcase_free(&k);
}
