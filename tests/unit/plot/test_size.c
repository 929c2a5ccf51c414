/* The size figure (libcore/plot/size.c): a line per policy in order of
 * first appearance, sorted by size; the target line on its own metric
 * only; each policy's smallest size ringed and labelled, "(not stable)"
 * where a larger size misses. */
#include "plotcase.h"

static const char rows[] =
    "policy\tcluster\tnodes\tgpus\ttarget\tmeets\tsmallest\tstable\tjct_p99\tutil\n"
    "b\t1x4x8\t4\t32\tjct_p99<=3600\t0\t0\t0\t9000\t0.5\n"
    "b\t1x2x8\t2\t16\tjct_p99<=3600\t0\t0\t0\t18000\t0.9\n"
    "b\t1x8x8\t8\t64\tjct_p99<=3600\t1\t1\t0\t3600\t0.3\n"
    "b\t1x16x8\t16\t128\tjct_p99<=3600\t0\t0\t0\t4000\t0.2\n"
    "a\t1x2x8\t2\t16\tjct_p99<=3600\t0\t0\t0\t7200\t0.9\n"
    "a\t1x4x8\t4\t32\tjct_p99<=3600\t1\t1\t1\t1800\t0.6\n"
    "a\t1x8x8\t8\t64\tjct_p99<=3600\t1\t0\t1\t\t0.3\n";

static tt_table *size_rows(tt_ctx *ctx)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "size.tsv", rows, strlen(rows), TT_TABLE_CONFIGS, &t),
                 0, "%s", tt_errmsg(ctx));
    return t;
}

Test(size_plot, script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = size_rows(ctx);
    int64_t left = 0;
    tt_plot_opts o = opts("s.png");
    o.left_out = &left;
    char *s = NULL;
    cr_assert_eq(tt_plot_size(ctx, t, "jct_p99", 3600, "jct_p99<=3600", &o, &s), 0, "%s",
                 tt_errmsg(ctx));
    /* b first (its rows come first), by GPUs, in hours (18000 s = 5 h) */
    expect_has(s, "$p0 << EOD\n16\t5\n32\t2.5\n64\t1\n128\t1.111111111\nEOD\n$m0 << EOD\n64\t1\nEOD\n");
    expect_has(s, "set label 1 'b: 1x8x8 (not stable)' at first 64, first 1 ");
    /* a: its empty jct_p99 left out and counted */
    expect_has(s, "$p1 << EOD\n16\t2\n32\t0.5\nEOD\n$m1 << EOD\n32\t0.5\nEOD\n");
    expect_has(s, "set label 2 'a: 1x4x8' at first 32, first 0.5 ");
    cr_expect_eq(left, 1);
    expect_has(s, "title 'b'");
    /* the target in the axis's unit, and in the metric's (wf-servers.png said
     * '<=150' on a minutes axis) */
    expect_has(s, "1 with lines dt 2 lw 2 lc rgb '#555555' title 'target jct_p99 <= 1 h (3600 s)'");
    expect_has(s, "set title 'the smallest cluster that meets jct_p99 <= 3600 s, per policy'");
    expect_has(s, "set ylabel 'jct_p99 [h]'");
    expect_has(s, "set xlabel 'cluster size [GPUs]'");
    free(s);
    /* another metric: no target line; nodes on x */
    o.y = "util";
    o.x = "nodes";
    cr_assert_eq(tt_plot_size(ctx, t, "jct_p99", 3600, "jct_p99<=3600", &o, &s), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect(!strstr(s, "target jct_p99"), "a target line on util");
    expect_has(s, "set title 'the smallest cluster that meets jct_p99 <= 3600 s, per policy'");
    expect_has(s, "$p0 << EOD\n2\t0.9\n4\t0.5\n8\t0.3\n16\t0.2\nEOD\n");
    expect_has(s, "set xlabel 'cluster size [nodes]'");
    free(s);
    o.y = "nosuch";
    cr_expect_eq(tt_plot_size(ctx, t, "jct_p99", 3600, "jct_p99<=3600", &o, &s), TT_EINVAL);
    cr_expect_null(s);
    tt_table_free(t);
    /* not tt-size's rows */
    t = load(ctx, FIXTURE);
    o = opts("s.png");
    cr_expect_eq(tt_plot_size(ctx, t, "jct_mean", 1, "jct_mean<=1", &o, &s), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "not tt-size's rows"), "%s", tt_errmsg(ctx));
    tt_table_free(t);
    tt_ctx_free(ctx);
}
