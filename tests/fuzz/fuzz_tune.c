/* tt-tune's own languages: the first byte picks
 *   0  an objective (-O): parsed, its text parsed again to the same
 *      objective and the same text, then ranked over a few metric sets
 *   1  a search space (-s NAME=SPEC lines, at most 4), then a short search
 *      over it on a synthetic surface (byte 2: strategy, byte 3: budget)
 * the text follows the picking bytes. Seeds: tests/fuzz/corpus/tune. */
#include "fuzz.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt/tune.h"
#include "tune/tune_impl.h" /* tt_objective_feasible, _same: the tune part's own */

/* Metric sets with every metric distinct, some equal across sets. */
static void metric_sets(tt_metrics *m, int n)
{
    for (int k = 0; k < n; k++) {
        tt_metrics *x = &m[k];
        int64_t b = 1000 * (k % 3 + 1);
        *x = (tt_metrics){b, 1.5 * b, b, 2 * b, 3 * b, 0.5 * b, b, 0.25 * b, 0.1 * k, b, k,
                          k, 2 * k, 3 * k, 0.3 + 0.1 * k, k % 2, 0, 0, 0, 0, 0, k, k / 2, k,
                          1000.0 + b, 1000 + 2 * b, k % 3, 2.5 * b, 3 * b, k % 2, k, 0, 0, 0,
                          0};
    }
}

static void objective(tt_ctx *ctx, const char *text)
{
    tt_objective *o = NULL, *again = NULL;
    int rc = tt_objective_parse(ctx, text, &o);
    fuzz_check_rc(ctx, rc, "tt_objective_parse");
    if (rc)
        return;
    const char *norm = tt_objective_text(o);
    rc = tt_objective_parse(ctx, norm, &again);
    FUZZ_CHECK(rc == 0, "'%s' is written '%s', which does not parse: %s", text, norm,
               tt_errmsg(ctx));
    FUZZ_CHECK(tt_objective_same(o, again), "'%s' is written '%s', another objective", text,
               norm);
    FUZZ_CHECK(strcmp(tt_objective_text(again), norm) == 0, "'%s' reads back as '%s'", norm,
               tt_objective_text(again));
    tt_metrics m[6];
    metric_sets(m, 6);
    int64_t best = -1;
    int feasible = 0;
    FUZZ_CHECK(tt_objective_best(o, m, 6, &best, &feasible) == 0 && best >= 0 && best < 6,
               "best %lld of 6", (long long)best);
    FUZZ_CHECK(feasible == tt_objective_feasible(o, m, 6, &m[best]), "feasible disagrees");
    tt_objective_value(o, &m[0]);
    char why[256];
    tt_objective_why_infeasible(o, m, 6, why, sizeof why);
    FUZZ_CHECK(!feasible || !*why, "the best is feasible, yet '%s'", why);
    tt_objective_free(again);
    tt_objective_free(o);
}

/* A smooth surface over the searched parameters. */
static int surface(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t count, tt_metrics *out)
{
    (void)arg;
    (void)ctx;
    for (int64_t i = 0; i < count; i++) {
        const tt_params *p = &ps[i];
        double w0 = p->w0 == TT_INF ? 1e6 : (double)p->w0;
        double th = p->theta == TT_INF ? 1e4 : (double)p->theta;
        double v = fabs(log1p(w0) - 5) + fabs(log1p(th) - 7) + (double)(p->restart % 7);
        metric_sets(&out[i], 1);
        out[i].jct_mean = v;
        out[i].makespan = (int64_t)(v * 100);
    }
    return 0;
}

static void space(tt_ctx *ctx, int strategy, int budget, char *text)
{
    tt_tune_dim dims[4];
    int nd = 0;
    char *line;
    while (nd < 4 && (line = fuzz_line(&text))) {
        char *eq = strchr(line, '=');
        if (eq)
            *eq = '\0';
        int rc = tt_tune_dim_parse(ctx, fuzz_models(), line, eq ? eq + 1 : "", &dims[nd]);
        fuzz_check_rc(ctx, rc, "tt_tune_dim_parse");
        if (rc)
            continue;
        const tt_tune_dim *d = &dims[nd++];
        FUZZ_CHECK(d->n >= 1, "%s: no value", d->name);
        for (int64_t k = 1; k < d->n; k++)
            FUZZ_CHECK(d->v[k - 1] < d->v[k], "%s: values not ascending at %lld", d->name,
                       (long long)k);
    }
    tt_objective *o = NULL;
    tt_tune *t = NULL;
    tt_params base;
    tt_params_default(&base);
    if (nd && tt_objective_parse(ctx, "jct_mean s.t. makespan <= 1.2 * best", &o) == 0) {
        int rc = tt_tune_create(ctx, &base, dims, nd, o, &t);
        fuzz_check_rc(ctx, rc, "tt_tune_create");
    }
    if (t) {
        tt_tune_opts opts = {.strategy = (tt_tune_strategy)(strategy % 3),
                             .budget = 1 + budget % 24, .seed = 7};
        int64_t best = -1;
        int rc = tt_tune_search(ctx, t, &opts, surface, NULL, &best);
        fuzz_check_rc(ctx, rc, "tt_tune_search");
        FUZZ_CHECK(rc || (best >= 0 && best < tt_tune_rows(t)), "best row %lld of %lld",
                   (long long)best, (long long)tt_tune_rows(t));
        FUZZ_CHECK(tt_tune_rows(t) <= opts.budget, "%lld simulations for a budget of %lld",
                   (long long)tt_tune_rows(t), (long long)opts.budget);
    }
    tt_tune_free(t);
    tt_objective_free(o);
    for (int k = 0; k < nd; k++)
        tt_tune_dim_free(&dims[k]);
}

int fuzz_tune(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    tt_ctx *ctx = tt_ctx_create();
    char *text = fuzz_text(data + 3, size - 3);
    if (data[0] % 2 == 0)
        objective(ctx, text);
    else
        space(ctx, data[1], data[2], text);
    free(text);
    tt_ctx_free(ctx);
    return 0;
}
