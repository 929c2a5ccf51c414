/* Tune files read back as tables (TT_TABLE_TUNE, TT_TABLE_TUNE_SPACE) and
 * the search figure drawn from them (tt_plot_search). The tune files are
 * written here by the library from a tuner run over a made-up surface
 * (nothing simulated); every value the tests expect is taken from the
 * tuner in memory, not from the file. */
#include <hdf5.h>
#include <math.h>

#include "testutil.h"
#include "tt/plot.h"
#include "tt/sim.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tt/table.h"
#include "tt/tune.h"

/* jct_mean a bowl in (log w0, theta) with its least near w0 = 400 s,
 * theta = 3000; makespan grows with log w0, so that a bound on it makes
 * the points of large w0 infeasible. */
static int synth(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
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

static tt_provenance prov(const char *sha)
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
 * 20 simulations in rounds of 8), the grid baseline, the strict and
 * no-wait baselines, and a test part holding the choice and the
 * baselines again. */
static void make_tune(tunecase *c, const char *const *specs, int nd, const char *objective)
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
    tt_tune_opts o = {TT_TUNE_REFINE, 20, 8, 1, NULL, 0, NULL, NULL, NULL};
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
    tt_tune_save_args a = {c->tr, c->te, c->d, nd, c->obj, "refine", 1, 20, 8, &cluster,
                           c->models, "x.h5", &p, "cpu", "cpu", "train jobs [0,10), test "
                           "jobs [10,20)", "-p w0=1", NROLES, roles, c->trow, c->terow};
    cr_assert_eq(tt_tune_save(ctx, c->path, &a), 0, "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

static void free_tune(tunecase *c)
{
    unlink(c->path);
    tt_tune_free(c->tr);
    tt_tune_free(c->te);
    for (int k = 0; k < c->nd; k++)
        tt_tune_dim_free(&c->d[k]);
    tt_objective_free(c->obj);
    tt_models_free(c->models);
}

static tt_table *load(tt_ctx *ctx, const char *path, tt_table_part part)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, path, part, &t), 0, "%s", tt_errmsg(ctx));
    return t;
}

static const char *const two[] = {"w0=log:1:86400:8,inf", "theta=1000:5000:5"};
static const char *const three[] = {"w0=log:1:86400:8,inf", "w1=0,600,inf", "theta=1000:5000:5"};
static const char *const two_rev[] = {"theta=1000:5000:5", "w0=log:1:86400:8,inf"};

/* Every row of the history, train then test, with its roles. */
Test(search, history_table)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean s.t. makespan <= 1.002 * best");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, c.path, TT_TABLE_TUNE);
    int64_t ntr = tt_tune_rows(c.tr), nte = tt_tune_rows(c.te);
    cr_assert_eq(tt_table_rows(t), ntr + nte);
    int cpart = tt_table_find(t, "part"), cphase = tt_table_find(t, "phase");
    int cround = tt_table_find(t, "round"), cobj = tt_table_find(t, "objective");
    int cfeas = tt_table_find(t, "feasible"), cw0 = tt_table_find(t, "w0");
    int crole = tt_table_find(t, "role"), cjct = tt_table_find(t, "jct_mean");
    cr_assert(cpart >= 0 && cphase >= 0 && cround >= 0 && cobj >= 0 && cfeas >= 0 && cw0 >= 0 &&
              crole >= 0 && cjct >= 0);
    /* the columns in the order of the file's groups, a parameter's units */
    cr_expect_eq(cpart, 0);
    cr_expect_str_eq(tt_table_name(t, 6), "order");
    cr_expect_str_eq(tt_table_units(t, cw0), "s");
    cr_expect_str_eq(tt_table_name(t, tt_table_cols(t) - 1), "role");
    tt_metrics *m = malloc((size_t)ntr * sizeof *m);
    for (int64_t r = 0; r < ntr; r++)
        m[r] = tt_tune_row_at(c.tr, r)->metrics;
    int64_t infeasible = 0;
    for (int64_t r = 0; r < ntr + nte; r++) {
        const tt_tune_row *w = r < ntr ? tt_tune_row_at(c.tr, r) : tt_tune_row_at(c.te, r - ntr);
        cr_expect_eq(tt_table_values(t, cpart)[r], r < ntr ? 0 : 1, "row %lld", (long long)r);
        cr_expect_eq(tt_table_values(t, cphase)[r], w->phase, "row %lld", (long long)r);
        cr_expect_eq(tt_table_values(t, cround)[r], w->round, "row %lld", (long long)r);
        cr_expect_eq(tt_table_values(t, cobj)[r], w->objective, "row %lld", (long long)r);
        cr_expect_eq(tt_table_values(t, cjct)[r], w->metrics.jct_mean, "row %lld", (long long)r);
        double w0 = w->params.w0 == TT_INF ? INFINITY : (double)w->params.w0;
        cr_expect_eq(tt_table_values(t, cw0)[r], w0, "row %lld", (long long)r);
        if (r < ntr) {
            int f = tt_objective_feasible(c.obj, m, ntr, &w->metrics);
            cr_expect_eq(tt_table_values(t, cfeas)[r], f, "row %lld", (long long)r);
            infeasible += !f;
        }
        /* roles: the rows /tune/result names, in its order */
        char want[128] = "";
        for (int k = 0; k < NROLES; k++)
            if ((r < ntr ? c.trow[k] : ntr + c.terow[k]) == r)
                snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
                         *want ? "," : "", roles[k]);
        cr_expect_str_eq(tt_table_text(t, crole, r), want, "row %lld", (long long)r);
    }
    cr_expect_gt(infeasible, 0, "the bound leaves some rows infeasible");
    /* rounds of 8 over a budget of 20: rounds 0, 1, 2 */
    cr_expect_eq(tt_tune_row_at(c.tr, 19)->round, 2);
    cr_expect_str_eq(tt_table_attr(t, "trace_source_sha256"), SHA);
    cr_expect_str_eq(tt_table_attr(t, "cluster"), "2x8x8");
    cr_expect_str_eq(tt_table_attr(t, "budget"), "20");
    cr_expect_null(tt_table_attr(t, "nope"));
    free(m);
    tt_table_free(t);
    tt_ctx_free(ctx);
    free_tune(&c);
}

/* The space: a row per value, the dimensions in the order of the search
 * (the file keeps the creation order of /tune/space). */
Test(search, space_table)
{
    tunecase c;
    make_tune(&c, three, 3, "jct_mean");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, c.path, TT_TABLE_TUNE_SPACE);
    cr_assert_eq(tt_table_rows(t), 9 + 3 + 5);
    int cd = tt_table_find(t, "dim"), cs = tt_table_find(t, "scale");
    int cu = tt_table_find(t, "units"), cv = tt_table_find(t, "value");
    const double *v = tt_table_values(t, cv);
    cr_expect_str_eq(tt_table_text(t, cd, 0), "w0");
    cr_expect_str_eq(tt_table_text(t, cs, 0), "log");
    cr_expect_str_eq(tt_table_text(t, cu, 0), "s");
    cr_expect_eq(v[0], 1);
    cr_expect_eq(v[7], 86400);
    /* searched theta first: listed first */
    tunecase r;
    make_tune(&r, two_rev, 2, "jct_mean");
    tt_table *tr = load(ctx, r.path, TT_TABLE_TUNE_SPACE);
    cr_expect_str_eq(tt_table_text(tr, tt_table_find(tr, "dim"), 0), "theta");
    cr_expect_str_eq(tt_table_text(tr, tt_table_find(tr, "dim"), 5), "w0");
    tt_table_free(tr);
    free_tune(&r);
    cr_expect(isinf(v[8]));
    cr_expect_str_eq(tt_table_text(t, cd, 9), "w1");
    cr_expect_str_eq(tt_table_text(t, cs, 9), "list");
    cr_expect_eq(v[10], 600);
    cr_expect_str_eq(tt_table_text(t, cd, 12), "theta");
    cr_expect_str_eq(tt_table_text(t, cs, 12), "linear");
    cr_expect_str_eq(tt_table_text(t, cu, 12), "permille");
    cr_expect_eq(v[16], 5000);
    tt_table_free(t);
    tt_ctx_free(ctx);
    free_tune(&c);
}

/* A file that keeps the creation order of /tune/space is read in it; a
 * class's own timer (w0.bert) is a dimension like any. */
Test(search, space_creation_order)
{
    char path[] = "/tmp/tt-test-space-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "tune", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
    hid_t s = H5Gcreate2(g, "space", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    const char *names[3] = {"theta", "w0.bert", "w0"};
    int64_t vals[2] = {10, 20};
    hsize_t two_values = 2;
    for (int i = 0; i < 3; i++) {
        hid_t sp = H5Screate_simple(1, &two_values, NULL);
        hid_t d = H5Dcreate2(s, names[i], H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals);
        H5Dclose(d);
        H5Sclose(sp);
    }
    H5Gclose(s);
    H5Pclose(gcpl);
    H5Gclose(g);
    H5Fclose(f);
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, path, TT_TABLE_TUNE_SPACE);
    int cd = tt_table_find(t, "dim");
    cr_assert_eq(tt_table_rows(t), 6);
    for (int i = 0; i < 3; i++)
        cr_expect_str_eq(tt_table_text(t, cd, 2 * i), names[i]);
    cr_expect_str_eq(tt_table_text(t, tt_table_find(t, "scale"), 0), "", "no scale attribute");
    tt_table_free(t);
    /* no history: the tune part fails, naming the group */
    cr_expect_eq(tt_table_load(ctx, path, TT_TABLE_TUNE, &t), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "/tune/history") != NULL, "%s", tt_errmsg(ctx));
    unlink(path);
    tt_ctx_free(ctx);
}

/* Anything but a tune file: TT_EFORMAT naming it. */
Test(search, not_a_tune_file)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_expect_eq(tt_table_load(ctx, "tests/fixtures/plot/plot_sweep.tsv", TT_TABLE_TUNE, &t),
                 TT_EFORMAT);
    cr_expect_str_eq(tt_errmsg(ctx), "'tests/fixtures/plot/plot_sweep.tsv': not a tune file (not "
                                     "HDF5; tt-tune -o writes one)");
    tunecase c;
    make_tune(&c, two, 2, "jct_mean");
    cr_expect_eq(tt_table_load(ctx, c.path, TT_TABLE_CONFIGS, &t), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "it is a tune file: see tt-plot search") != NULL, "%s",
              tt_errmsg(ctx));
    free_tune(&c);
    tt_ctx_free(ctx);
}

/* ---- the figure ---- */

static tt_plot_opts opts(void)
{
    tt_plot_opts o;
    memset(&o, 0, sizeof o);
    o.term = TT_PLOT_SVG;
    o.output = "s.svg";
    return o;
}

/* The lines of datablock name in script s, or -1. */
static int block_lines(const char *s, const char *name, char lines[][128], int max)
{
    char head[64];
    snprintf(head, sizeof head, "%s << EOD\n", name);
    const char *p = strstr(s, head);
    if (!p)
        return -1;
    int n = 0;
    for (p += strlen(head); strncmp(p, "EOD\n", 4) != 0; p = strchr(p, '\n') + 1, n++)
        if (n < max)
            snprintf(lines[n], 128, "%.*s", (int)(strchr(p, '\n') - p), p);
    return n;
}

#define expect_has(s, want) cr_expect(strstr(s, want) != NULL, "script lacks: %s", want)

static char *draw(tt_ctx *ctx, const tunecase *c, const tt_plot_opts *o, const tt_table *sweep,
                  int want)
{
    tt_table *h = load(ctx, c->path, TT_TABLE_TUNE), *sp = load(ctx, c->path, TT_TABLE_TUNE_SPACE);
    char *s = NULL;
    int rc = tt_plot_search(ctx, h, sp, sweep, o, &s);
    cr_expect_eq(rc, want, "code %d: %s", rc, tt_errmsg(ctx));
    if (want)
        cr_expect_null(s);
    tt_table_free(h);
    tt_table_free(sp);
    return s;
}

Test(search, script)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean s.t. makespan <= 1.002 * best");
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    char *s = draw(ctx, &c, &o, NULL, 0);
    cr_assert_not_null(s);
    /* the points: exactly the train rows of the search, in order, with
     * their round and feasibility */
    static char lines[4096][128];
    int n = block_lines(s, "$search", lines, 4096);
    int64_t want = 0, hollow = 0;
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        want += tt_tune_row_at(c.tr, r)->phase == 0;
    cr_expect_eq(n, want, "%d points for %lld search rows", n, (long long)want);
    tt_metrics *m = malloc((size_t)tt_tune_rows(c.tr) * sizeof *m);
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        m[r] = tt_tune_row_at(c.tr, r)->metrics;
    for (int i = 0, r = 0; i < n; i++, r++) {
        while (tt_tune_row_at(c.tr, r)->phase != 0)
            r++;
        double x, y;
        int round, feas;
        cr_assert_eq(sscanf(lines[i], "%lf\t%lf\t%d\t%d", &x, &y, &round, &feas), 4, "%s",
                     lines[i]);
        const tt_tune_row *w = tt_tune_row_at(c.tr, r);
        cr_expect_eq(round, w->round, "point %d", i);
        cr_expect_eq(feas, tt_objective_feasible(c.obj, m, tt_tune_rows(c.tr), &w->metrics));
        hollow += !feas;
        /* a log axis: a finite w0 at log10(w0), theta linear */
        if (w->params.w0 != TT_INF)
            cr_expect(fabs(x - log10((double)w->params.w0)) < 1e-9, "x %g for w0 %lld", x,
                      (long long)w->params.w0);
        cr_expect_eq(y, (double)w->params.theta);
    }
    free(m);
    cr_expect_gt(hollow, 0);
    expect_has(s, "'infeasible (hollow)'");
    /* the grid baseline: its phase-1 rows */
    int64_t grid = 0;
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        grid += tt_tune_row_at(c.tr, r)->phase == 1;
    cr_expect_eq(block_lines(s, "$gridbase", lines, 4096), grid);
    char key[64];
    snprintf(key, sizeof key, "'grid baseline (%lld)'", (long long)grid);
    expect_has(s, key);
    /* rounds of 8: 0, 1 and the last 4 in 2 */
    expect_has(s, "title 'round 0 (8)'");
    expect_has(s, "title 'round 2 (4)'");
    /* the choice labelled with its objective in hours (the objective's
     * metric is in seconds, the largest over 2 h) */
    char label[128];
    snprintf(label, sizeof label, "set label 1 'recommended: jct_mean = %.4g h' at ",
             tt_tune_row_at(c.tr, c.trow[R_REC])->objective / 3600);
    expect_has(s, label);
    /* strict: w0 = inf and theta = inf (the default, not in the space: an
     * edge row); no-wait: w0 = 0 on the log axis (an edge column) */
    snprintf(label, sizeof label, "'strict consolidation: jct_mean = %.4g h'",
             tt_tune_row_at(c.tr, c.trow[R_STRICT])->objective / 3600);
    expect_has(s, label);
    expect_has(s, "'no-wait: jct_mean = ");
    expect_has(s, "set xlabel 'w0 [s] (log scale)'");
    expect_has(s, "set ylabel 'theta [permille]'\n");
    expect_has(s, "'0' ");
    expect_has(s, "'inf' ");
    expect_has(s, "'search for the least jct_mean over w0 x theta (refine: 20 in 3 rounds; grid "
                  "baseline ");
    cr_expect(strstr(s, "projected") == NULL, "two dimensions: no projection");
    free(s);
    tt_ctx_free(ctx);
    free_tune(&c);
}

Test(search, projection_and_axes)
{
    tunecase c;
    make_tune(&c, three, 3, "jct_mean");
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    /* the first two of the space: w0 x w1, theta projected */
    char *s = draw(ctx, &c, &o, NULL, 0);
    expect_has(s, "over w0 x w1 (");
    expect_has(s, ".\"\\n\".'projected over theta (points that differ only there overlap)'");
    free(s);
    o.x = "theta";
    s = draw(ctx, &c, &o, NULL, 0);
    expect_has(s, "over theta x w0 (");
    expect_has(s, "'projected over w1 (");
    free(s);
    /* y the objective: w1 and theta projected, y in hours */
    o.x = NULL;
    o.y = "objective";
    s = draw(ctx, &c, &o, NULL, 0);
    expect_has(s, "over w0 (");
    expect_has(s, "'projected over w1, theta (");
    expect_has(s, "set ylabel 'jct_mean [h]'");
    free(s);
    /* an axis that was not searched: the dimensions listed */
    o.y = "load";
    draw(ctx, &c, &o, NULL, TT_EINVAL);
    char want[256];
    snprintf(want, sizeof want, "axis 'load' is not a searched dimension of '%s' (searched: w0 "
             "w1 theta)", c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    o.y = "w0";
    o.x = "w0";
    draw(ctx, &c, &o, NULL, TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "the two axes are both 'w0'");
    o.x = NULL;
    o.y = NULL;
    o.z = "makespan";
    draw(ctx, &c, &o, NULL, TT_EINVAL);
    tt_ctx_free(ctx);
    free_tune(&c);
}

Test(search, nothing_to_draw)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *h = load(ctx, c.path, TT_TABLE_TUNE), *sp = load(ctx, c.path, TT_TABLE_TUNE_SPACE);
    cr_assert_eq(tt_table_where(ctx, h, "phase", "2"), 0);
    tt_plot_opts o = opts();
    char *s = NULL;
    cr_expect_eq(tt_plot_search(ctx, h, sp, NULL, &o, &s), TT_EEMPTY);
    cr_expect(strstr(tt_errmsg(ctx), "nothing to draw") != NULL, "%s", tt_errmsg(ctx));
    /* the space is not a history, nor the history a space */
    cr_expect_eq(tt_plot_search(ctx, sp, sp, NULL, &o, &s), TT_EINVAL);
    cr_expect_eq(tt_plot_search(ctx, h, h, NULL, &o, &s), TT_EINVAL);
    tt_table_free(h);
    tt_table_free(sp);
    tt_ctx_free(ctx);
    free_tune(&c);
}

/* A sweep over w0 x theta of the space's values (load fixed with fix, or
 * the default), its jct_mean from the made-up surface. */
static void make_sweep(const char *path, const char *sha, const tt_cluster *cl, const char *fix)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *models = NULL;
    tt_sweep *s = NULL;
    cr_assert_eq(tt_models_default(ctx, &models), 0);
    cr_assert_eq(tt_sweep_create(ctx, models, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0,1,10,100,1000,10000,inf"), 0, "%s",
                 tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_grid(ctx, s, "theta", "1000:5000:5"), 0, "%s", tt_errmsg(ctx));
    if (fix)
        cr_assert_eq(tt_sweep_fix(ctx, s, "load", fix), 0);
    int64_t n = tt_sweep_count(s), idx[64];
    tt_metrics m[64];
    tt_params p[64];
    cr_assert(n <= 64);
    for (int64_t k = 0; k < n; k++) {
        idx[k] = k;
        cr_assert_eq(tt_sweep_params(ctx, s, k, &p[k]), 0);
    }
    synth(NULL, ctx, p, n, m);
    tt_provenance pv = prov(sha);
    tt_sweep_save_args a = {s, cl, models, "x.h5", &pv, n, idx, m, 0, 1, "cpu", 0.0, 0.0};
    cr_assert_eq(tt_sweep_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));
    tt_sweep_free(s);
    tt_models_free(models);
    tt_ctx_free(ctx);
}

Test(search, surface_beneath)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean");
    char path[] = "/tmp/tt-test-sweep-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    make_sweep(path, SHA, &cluster, NULL);
    tt_table *sw = load(ctx, path, TT_TABLE_CONFIGS);
    char *s = draw(ctx, &c, &o, sw, 0);
    cr_assert_not_null(s);
    /* 7 x 5 cells; the w0 axis holds the space's 8 values, the sweep's 5
     * others and 0 (an edge): more than 8, tics at round times */
    static char lines[64][128];
    cr_expect_eq(block_lines(s, "$cells1", lines, 64), 35);
    expect_has(s, "plot $cells1 using 5:6:1:2:3:4:7 with boxxyerror");
    expect_has(s, "set xtics out nomirror ('1 s' 0, '10 s' 1, '1 min' 1.77815125, ");
    expect_has(s, ", '0' ");
    /* the sweep's least jct_mean: w0 = 1000 (log1p nearest 6), theta = 3000 */
    expect_has(s, "'least jct_mean of the sweep: ");
    expect_has(s, "\n3\t3000\ne\n");
    /* the split: the heat map is of every job */
    expect_has(s, "the heat map of '");
    expect_has(s, "simulates every job, the search its train jobs [0,10)'");
    expect_has(s, "set cblabel 'jct_mean [h]'");
    free(s);
    o.z = "makespan";
    s = draw(ctx, &c, &o, sw, 0);
    expect_has(s, "set cblabel 'makespan [d]'");
    free(s);
    o.z = NULL;
    tt_table_free(sw);
    /* another trace, another cluster, another load: errors naming both files */
    char want[512];
    make_sweep(path, "0123", &cluster, NULL);
    sw = load(ctx, path, TT_TABLE_CONFIGS);
    draw(ctx, &c, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "'%s' and '%s' come from different traces (trace_source_sha256 "
             "0123 and 5f1e0cbb1e6cd5e9)", path, c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    tt_table_free(sw);
    tt_cluster other = {1, 8, 8};
    make_sweep(path, SHA, &other, NULL);
    sw = load(ctx, path, TT_TABLE_CONFIGS);
    draw(ctx, &c, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "'%s' and '%s' come from different clusters (cluster 1x8x8 and "
             "2x8x8)", path, c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    tt_table_free(sw);
    make_sweep(path, SHA, &cluster, "3000");
    sw = load(ctx, path, TT_TABLE_CONFIGS);
    draw(ctx, &c, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "'%s' simulated load=3000 where '%s' searched with load=1000: "
             "the surface is of other configurations", path, c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    /* an axis the sweep does not vary */
    o.y = "w1";
    tunecase c3;
    make_tune(&c3, three, 3, "jct_mean");
    draw(ctx, &c3, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "parameter 'w1' was not swept in '%s' (one value: ", path);
    cr_expect(strncmp(tt_errmsg(ctx), want, strlen(want)) == 0, "%s", tt_errmsg(ctx));
    tt_table_free(sw);
    /* a TSV sweep says nothing of its trace */
    sw = load(ctx, "tests/fixtures/plot/plot_sweep.tsv", TT_TABLE_CONFIGS);
    o.y = NULL;
    draw(ctx, &c, &o, sw, TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "does not record its trace_source_sha256") != NULL, "%s",
              tt_errmsg(ctx));
    tt_table_free(sw);
    unlink(path);
    free_tune(&c3);
    free_tune(&c);
    tt_ctx_free(ctx);
}
