/* What the tune part's tests share: objectives from text, tuners over
 * ranges, and made-up traces whose metrics follow a formula, so that what
 * a search or the protocol does is known without simulating. */
#ifndef TT_TUNEUTIL_H
#define TT_TUNEUTIL_H

#include <criterion/criterion.h>
#include <string.h>

#include "tt/objective.h"
#include "tt/tune.h"

/* The objective of text, which must parse. */
static inline tt_objective *obj(const char *text)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = NULL;
    cr_assert_eq(tt_objective_parse(ctx, text, &o), 0, "'%s': %s", text, tt_errmsg(ctx));
    tt_ctx_free(ctx);
    return o;
}

/* A tuner over the ranges specs[0..nd) ("w0=log:1:86400:15,inf", at most
 * 3), every other parameter its default, for objective o. */
static inline tt_tune *make_tune(const char *const *specs, int nd, const tt_objective *o)
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

/* A made-up trace whose makespan grows with w0 and w1 (infinite: as 1000
 * s) and whose jct_mean falls with w0, more so when class 0 waits a timer
 * of its own; arg counts the simulations. */
static inline int line_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n,
                            tt_metrics *out)
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
static inline tt_tune *line_tune(const char *values, const tt_params *base,
                                 const tt_objective *o)
{
    tt_tune_dim d;
    cr_assert_eq(tt_tune_dim_parse(NULL, NULL, "w0", values, &d), 0);
    tt_tune *t = NULL;
    cr_assert_eq(tt_tune_create(NULL, base, &d, 1, o, &t), 0);
    tt_tune_dim_free(&d);
    return t;
}

/* The row of w0 = w in t, evaluated in phase. */
static inline int64_t line_row(tt_tune *t, int64_t w, int phase)
{
    tt_params p;
    tt_params_default(&p);
    p.w0 = w;
    int64_t row = -1;
    cr_assert_eq(tt_tune_eval(NULL, t, &p, phase, line_eval, NULL, &row), 0);
    return row;
}

/* A bowl in w0 around center (infinite w0: as 1000 s); arg a bowl_part,
 * one for each part of the trace, counting its simulations. */
typedef struct {
    int64_t center, sims;
} bowl_part;

static inline int bowl_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n,
                            tt_metrics *out)
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

#endif
