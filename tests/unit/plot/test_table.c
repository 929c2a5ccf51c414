/* Tables from the tools' TSV and the views of a trace
 * (libcore/plot/table.c); HDF5 results are read in test_table_h5.c, tune
 * files in test_table_tune.c. */
#include <math.h>

#include "testutil.h"
#include "tt/sim.h"
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
    cr_expect_eq(tt_table_cols(t), 12 + 16); /* written before the timers column and SPEC 10, 11 */
    int c = tt_table_find(t, "jct_mean");
    cr_expect_eq(tt_table_values(t, c)[7], 28800.0); /* w0=600 theta=1500, row 9 of the file */
    cr_expect_null(tt_table_values(t, tt_table_find(t, "mix")));
    cr_expect_null(tt_table_attr(t, "cluster"), "TSV has no attributes");
    tt_table_free(t);
    cr_expect_eq(tt_table_load(ctx, "tests/fixtures/no-such.tsv", TT_TABLE_CONFIGS, &t), TT_EIO);
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
