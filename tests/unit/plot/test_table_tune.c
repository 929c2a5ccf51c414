/* Tune files read back as tables (libcore/plot/table_tune.c): the
 * history with its roles (TT_TABLE_TUNE) and the space
 * (TT_TABLE_TUNE_SPACE). */
#include <hdf5.h>

#include "io/h5util.h"
#include "tunecase.h"

static const char *const two_rev[] = {"theta=1000:5000:5", "w0=log:1:86400:8,inf"};

/* Every row of the history, train then test, with its roles. */
Test(table_tune, history_table)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean s.t. makespan <= 1.002 * best");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load_part(ctx, c.path, TT_TABLE_TUNE);
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
    cr_expect_str_eq(tt_table_name(t, 3), "sim_row");
    cr_expect_str_eq(tt_table_name(t, 7), "order");
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
        cr_expect_eq(tt_table_values(t, 3)[r], w->sim_row + (r < ntr ? 0 : ntr), "row %lld",
                     (long long)r);
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
    /* rounds of 8 over 16 of a budget of 20 (round 0 holds 7: a point of
     * its hypercube is on its sub-lattice; 8; 1), then the last 4, local
     * steps: round 3 */
    cr_expect_eq(tt_tune_row_at(c.tr, 19)->round, 3);
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
Test(table_tune, space_table)
{
    tunecase c;
    make_tune(&c, three, 3, "jct_mean");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load_part(ctx, c.path, TT_TABLE_TUNE_SPACE);
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
    tt_table *tr = load_part(ctx, r.path, TT_TABLE_TUNE_SPACE);
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
Test(table_tune, space_creation_order)
{
    char path[] = "/tmp/tt-test-space-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "tune", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_eq(tt_h5u_attr_str(g, "tracetune_layout", "tune/1"), 0);
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
    tt_table *t = load_part(ctx, path, TT_TABLE_TUNE_SPACE);
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
Test(table_tune, not_a_tune_file)
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
