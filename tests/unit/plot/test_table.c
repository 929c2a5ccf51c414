/* Tables from the tools' TSV and HDF5 results (tt/table.h); tune files
 * are read in test_plot_search.c. */
#include <hdf5.h>
#include <math.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tt/table.h"

static tt_table *read_text(tt_ctx *ctx, const char *text)
{
    tt_table *t = NULL;
    tt_table_read_mem(ctx, "mem.tsv", text, strlen(text), TT_TABLE_CONFIGS, &t);
    return t;
}

static void expect_fail(const char *text, int code, const char *msg)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = read_text(ctx, text);
    cr_expect_null(t, "accepted: %s", text);
    cr_expect_eq(tt_errcode(ctx), code, "code %d for: %s", tt_errcode(ctx), text);
    cr_expect_str_eq(tt_errmsg(ctx), msg);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(table, tsv_columns)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = read_text(ctx, "w0\torder\tjct_mean\r\n600\tfifo\t72.500000\r\ninf\tsjf\t\r\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(t), 2);
    cr_expect_eq(tt_table_cols(t), 3);
    cr_expect_eq(tt_table_find(t, "jct_mean"), 2);
    cr_expect_eq(tt_table_find(t, "nope"), -1);
    const double *w0 = tt_table_values(t, 0), *jct = tt_table_values(t, 2);
    cr_assert_not_null(w0);
    cr_expect_eq(w0[0], 600.0);
    cr_expect(isinf(w0[1]) && w0[1] > 0);
    cr_expect_eq(jct[0], 72.5);
    cr_expect(isnan(jct[1]), "an empty field is absent");
    cr_expect_null(tt_table_values(t, 1), "order is text");
    cr_expect_str_eq(tt_table_text(t, 1, 1), "sjf");
    cr_expect_null(tt_table_text(t, 0, 0));
    /* units of the names the tools print */
    cr_expect_str_eq(tt_table_units(t, 0), "s");
    cr_expect_str_eq(tt_table_units(t, 2), "s");
    cr_expect_str_eq(tt_table_units(t, 1), "");
    cr_expect_str_eq(tt_table_source(t), "mem.tsv");
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(table, tsv_errors)
{
    expect_fail("", TT_EEMPTY, "mem.tsv: empty input (expected a header line)");
    expect_fail("a\tb\n", TT_EEMPTY, "mem.tsv: no rows under the header");
    expect_fail("a\tb\n1\t2\n3\n", TT_EPARSE, "mem.tsv:3: expected 2 fields as in the header, got 1");
    expect_fail("a\ta\n1\t2\n", TT_EPARSE, "mem.tsv:1: field 'a': column name repeated");
    expect_fail("a\t\n1\t2\n", TT_EPARSE, "mem.tsv:1: column 2 has an empty name");
    expect_fail("a\n1\n\n2\n", TT_EPARSE, "mem.tsv:3: blank line inside the table");
}

Test(table, trailing_blank_lines)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = read_text(ctx, "a\n1\n2\n\n\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(t), 2);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(table, where)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = read_text(ctx, "w1\torder\tz\n0\tfifo\t1\ninf\tsjf\t2\n0\tsjf\t3\ninf\tfifo\t4\n");
    cr_assert_not_null(t);
    cr_assert_eq(tt_table_where(ctx, t, "w1", "inf"), 0);
    cr_expect_eq(tt_table_rows(t), 2);
    cr_expect_eq(tt_table_values(t, 2)[0], 2);
    cr_expect_eq(tt_table_values(t, 2)[1], 4);
    cr_expect_str_eq(tt_table_text(t, 1, 1), "fifo");
    cr_assert_eq(tt_table_where(ctx, t, "order", "sjf"), 0);
    cr_expect_eq(tt_table_rows(t), 1);
    cr_expect_eq(tt_table_values(t, 2)[0], 2);
    cr_expect_eq(tt_table_where(ctx, t, "nope", "1"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "--where nope=1: no column 'nope' in 'mem.tsv'");
    cr_expect_eq(tt_table_where(ctx, t, "w1", "x"), TT_EINVAL);
    cr_expect_eq(tt_table_where(ctx, t, "z", "7"), TT_EEMPTY);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(table, fixture_sweep_tsv)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, "tests/fixtures/plot/plot_sweep.tsv", TT_TABLE_CONFIGS, &t), 0,
                 "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(t), 15);
    cr_expect_eq(tt_table_cols(t), 12 + TT_NMETRICS); /* written before the timers column */
    int c = tt_table_find(t, "jct_mean");
    cr_expect_eq(tt_table_values(t, c)[7], 28800.0); /* w0=600 theta=1500, row 9 of the file */
    cr_expect_null(tt_table_values(t, tt_table_find(t, "mix")));
    cr_expect_null(tt_table_attr(t, "cluster"), "TSV has no attributes");
    tt_table_free(t);
    cr_expect_eq(tt_table_load(ctx, "tests/fixtures/no-such.tsv", TT_TABLE_CONFIGS, &t), TT_EIO);
    tt_ctx_free(ctx);
}

/* A sweep file written by the library with metrics set by hand (nothing
 * simulated), read back row for row. */
Test(table, sweep_file)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *models = NULL;
    tt_sweep *s = NULL;
    cr_assert_eq(tt_models_default(ctx, &models), 0);
    cr_assert_eq(tt_sweep_create(ctx, models, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0,600,inf"), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_fix(ctx, s, "seed", "18446744073709551615"), 0, "%s", tt_errmsg(ctx));
    tt_cluster cl = {1, 2, 8};
    int64_t idx[3] = {0, 1, 2};
    tt_metrics m[3];
    memset(m, 0, sizeof m);
    m[0].makespan = 100;
    m[1].makespan = 90;
    m[2].makespan = 80;
    m[1].jct_mean = 12.25;
    tt_sweep_save_args a = {s, &cl, models, "x.h5", NULL, 3, idx, m, 0, 1, "cpu: 1 thread",
                            0.0, 0.0};
    char path[] = "/tmp/tt-test-table-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(tt_sweep_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(t), 3);
    const double *w0 = tt_table_values(t, tt_table_find(t, "w0"));
    cr_expect_eq(w0[0], 0);
    cr_expect_eq(w0[1], 600);
    cr_expect(isinf(w0[2]), "INT64_MAX with the infinite attribute");
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "makespan"))[2], 80);
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "jct_mean"))[1], 12.25);
    cr_expect_str_eq(tt_table_units(t, tt_table_find(t, "theta")), "permille");
    cr_expect_str_eq(tt_table_text(t, tt_table_find(t, "seed"), 0), "18446744073709551615");
    cr_expect_str_eq(tt_table_text(t, tt_table_find(t, "order"), 2), "fifo");
    tt_table_free(t);
    /* a sweep has no per-job part */
    cr_expect_eq(tt_table_load(ctx, path, TT_TABLE_JOBS, &t), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "it is a sweep file") != NULL, "%s", tt_errmsg(ctx));
    /* columns are read by the datasets of the group: a file from before
     * the timers parameter lacks its column (absent, no error), and one a
     * newer writer adds (w0.bert) is read after the known ones */
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert(f >= 0);
    cr_assert(H5Ldelete(f, "/sweep/params/timers", H5P_DEFAULT) >= 0);
    hsize_t n = 3;
    int64_t v[3] = {-1, 60, 7};
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, "/sweep/params/w0.bert", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    cr_assert(d >= 0 && H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(f);
    cr_assert_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_find(t, "timers"), -1);
    cr_expect_eq(tt_table_cols(t), TT_NPARAMS - 1 + 1 + TT_NMETRICS);
    int c = tt_table_find(t, "w0.bert");
    cr_assert_eq(c, TT_NPARAMS - 1, "after the 12 known parameters, before the metrics");
    cr_expect_eq(tt_table_values(t, c)[1], 60);
    cr_expect_str_eq(tt_table_name(t, c + 1), "makespan");
    /* the attributes of /sweep, integers in decimal */
    cr_expect_str_eq(tt_table_attr(t, "cluster"), "1x2x8");
    cr_expect_str_eq(tt_table_attr(t, "rows"), "3");
    cr_expect_null(tt_table_attr(t, "trace_sha"));
    tt_table_free(t);
    unlink(path);
    tt_sweep_free(s);
    tt_models_free(models);
    tt_ctx_free(ctx);
}

Test(table, trace_views)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *tr = ingest_text(ctx, "csv",
                               "submit,duration,gpus\n0,100,1\n10,50,4\n20,30,1\n7200,10,8\n");
    cr_assert_not_null(tr, "%s", tt_errmsg(ctx));
    tt_table *g = NULL, *d = NULL, *l = NULL;
    cr_assert_eq(tt_table_from_trace(ctx, tr, TT_TABLE_TRACE_GPUS, 0, &g), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(g), 3); /* 1, 4, 8 GPUs */
    cr_expect_eq(tt_table_values(g, 0)[1], 4);
    cr_expect_eq(tt_table_values(g, 1)[0], 2);   /* two 1-GPU jobs */
    cr_expect_eq(tt_table_values(g, 2)[0], 130); /* 100 + 30 GPU-s */
    cr_assert_eq(tt_table_from_trace(ctx, tr, TT_TABLE_TRACE_DURATION, 0, &d), 0);
    cr_expect_eq(tt_table_values(d, 0)[0], 10);
    cr_expect_eq(tt_table_values(d, 0)[3], 100);
    /* bins of an hour: [0,3600) holds 100 + 200 + 30 GPU-s, [7200,10800) 80 */
    cr_assert_eq(tt_table_from_trace(ctx, tr, TT_TABLE_TRACE_LOAD, 3600, &l), 0);
    cr_expect_eq(tt_table_rows(l), 3);
    cr_expect_eq(tt_table_values(l, 2)[0], 330.0 / 3600);
    cr_expect_eq(tt_table_values(l, 2)[2], 80.0 / 3600);
    cr_expect_eq(tt_table_values(l, 0)[2], 7200);
    tt_table_free(g);
    tt_table_free(d);
    tt_table_free(l);
    tt_trace_free(tr);
    tt_ctx_free(ctx);
}
