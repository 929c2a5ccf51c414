/* What the tune file tests share: a tune file written by the library from
 * a tuner run over a made-up surface (nothing simulated), so that every
 * value a test expects is taken from the tuner in memory, not from the
 * file; read back as tables (test_table_tune.c) and drawn
 * (test_search.c). */
#ifndef TT_TUNECASE_H
#define TT_TUNECASE_H

#include <math.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/table.h"
#include "tt/tune.h"
#include "tune/tune_impl.h" /* tt_objective_feasible */

/* jct_mean a bowl in (log w0, theta) with its least near w0 = 400 s,
 * theta = 3000; makespan grows with log w0, so that a bound on it makes
 * the points of large w0 infeasible. */
static inline int synth(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)arg;
    (void)ctx;
    for (int64_t i = 0; i < n; i++) {
        double a = ps[i].w0 == TT_INF ? 14 : log1p((double)ps[i].w0);
        double th = ps[i].theta == TT_INF ? 8000 : (double)ps[i].theta;
        double w1 = ps[i].w1 == TT_INF ? 14 : log1p((double)ps[i].w1);
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = 20000 + 1000 * (a - 6) * (a - 6) + (th - 3000) * (th - 3000) / 500 +
                          100 * w1;
        out[i].makespan = 1000000 + (int64_t)(1000 * a);
    }
    return 0;
}

enum { R_REC, R_STRICT, R_NOWAIT, R_GRID, NROLES };
static const char *const roles[NROLES] = {"recommended", "strict", "no_wait", "grid_best"};

typedef struct {
    char path[64];
    tt_models *models;
    tt_objective *obj;
    tt_tune *tr, *te;
    tt_tune_dim d[3];
    int nd;
    int64_t trow[NROLES], terow[NROLES];
} tunecase;

static inline tt_provenance prov(const char *sha)
{
    tt_provenance p;
    memset(&p, 0, sizeof p);
    p.format = (char *)"csv";
    p.source_sha256 = (char *)sha;
    return p;
}

static const tt_cluster cluster = {2, 8, 8};
#define SHA "5f1e0cbb1e6cd5e9a7e3b04d7c44c9c8b8d6a4e0b0f4a0c7e2d1b3a5c6d7e8f9"

/* A tune file over specs[0..nd) as tt-tune writes it: the search (refine,
 * budget simulations in rounds of batch; make_tune: 20 in rounds of 8), the grid baseline, the strict and
 * no-wait baselines, and a test part holding the choice and the
 * baselines again. */
static inline void make_tune_sized(tunecase *c, const char *const *specs, int nd,
                                   const char *objective, int64_t budget, int64_t batch)
{
    memset(c, 0, sizeof *c);
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_models_default(ctx, &c->models), 0);
    cr_assert_eq(tt_objective_parse(ctx, objective, &c->obj), 0, "%s", tt_errmsg(ctx));
    c->nd = nd;
    for (int k = 0; k < nd; k++) {
        char name[16];
        const char *eq = strchr(specs[k], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - specs[k]), specs[k]);
        cr_assert_eq(tt_tune_dim_parse(ctx, c->models, name, eq + 1, &c->d[k]), 0, "%s: %s",
                     specs[k], tt_errmsg(ctx));
    }
    tt_params base;
    tt_params_default(&base);
    cr_assert_eq(tt_tune_create(ctx, &base, c->d, nd, c->obj, &c->tr), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_tune_create(ctx, &base, c->d, nd, c->obj, &c->te), 0, "%s", tt_errmsg(ctx));
    tt_tune_opts o = {.strategy = TT_TUNE_REFINE, .budget = budget, .batch = batch, .seed = 1};
    cr_assert_eq(tt_tune_search(ctx, c->tr, &o, synth, NULL, &c->trow[R_REC]), 0, "%s",
                 tt_errmsg(ctx));
    o.strategy = TT_TUNE_GRID;
    o.phase = 1;
    cr_assert_eq(tt_tune_search(ctx, c->tr, &o, synth, NULL, &c->trow[R_GRID]), 0);
    tt_params strict = base, nowait = base;
    strict.w0 = strict.w1 = TT_INF;
    nowait.w0 = nowait.w1 = 0;
    cr_assert_eq(tt_tune_eval(ctx, c->tr, &strict, 2, synth, NULL, &c->trow[R_STRICT]), 0);
    cr_assert_eq(tt_tune_eval(ctx, c->tr, &nowait, 2, synth, NULL, &c->trow[R_NOWAIT]), 0);
    for (int r = 0; r < NROLES; r++)
        cr_assert_eq(tt_tune_eval(ctx, c->te, &tt_tune_row_at(c->tr, c->trow[r])->params, 2,
                                  synth, NULL, &c->terow[r]), 0);
    snprintf(c->path, sizeof c->path, "/tmp/tt-test-search-XXXXXX");
    int fd = mkstemp(c->path);
    cr_assert(fd >= 0);
    close(fd);
    tt_provenance p = prov(SHA);
    tt_tune_save_args a = {c->tr, c->te, c->d, nd, c->obj, "refine", 1, budget, batch, &cluster,
                           c->models, "x.h5", &p, "cpu", "cpu", "train jobs [0,10), test "
                           "jobs [10,20)", "-p w0=1", NROLES, roles, c->trow, c->terow,
                           NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    cr_assert_eq(tt_tune_save(ctx, c->path, &a), 0, "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

static inline void make_tune(tunecase *c, const char *const *specs, int nd, const char *objective)
{
    make_tune_sized(c, specs, nd, objective, 20, 8);
}

static inline void free_tune(tunecase *c)
{
    unlink(c->path);
    tt_tune_free(c->tr);
    tt_tune_free(c->te);
    for (int k = 0; k < c->nd; k++)
        tt_tune_dim_free(&c->d[k]);
    tt_objective_free(c->obj);
    tt_models_free(c->models);
}

static inline tt_table *load_part(tt_ctx *ctx, const char *path, tt_table_part part)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, path, part, &t), 0, "%s", tt_errmsg(ctx));
    return t;
}

static const char *const two[] = {"w0=log:1:86400:8,inf", "theta=1000:5000:5"};
static const char *const three[] = {"w0=log:1:86400:8,inf", "w1=0,600,inf", "theta=1000:5000:5"};

#endif
