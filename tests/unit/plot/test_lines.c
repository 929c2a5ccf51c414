/* The lines figure (libcore/plot/lines.c): a metric against one swept
 * parameter, the lines and panels it groups the rows into, worked out by
 * hand on a small table; and what it refuses. */
#include "plotcase.h"

/* Two loads x three baselines x three resize costs, in a sweep's order but
 * for the costs of the second load, given backwards; the last row's
 * jct_mean cannot be computed (empty). */
static const char rows[] =
    "load\tel_up\tresize\tresize_cost\tjct_mean\tmakespan\n"
    "1000\t0\tsidecar\t1\t36000\t900000\n"
    "1000\t0\tsidecar\t10\t36000\t900000\n"
    "1000\t0\tsidecar\t100\t36000\t900000\n"
    "1000\t2\tterm\t1\t18000\t800000\n"
    "1000\t2\tterm\t10\t18000\t800000\n"
    "1000\t2\tterm\t100\t18000\t800000\n"
    "1000\t2\tsidecar\t1\t10800\t700000\n"
    "1000\t2\tsidecar\t10\t14400\t750000\n"
    "1000\t2\tsidecar\t100\t28800\t850000\n"
    "2000\t0\tsidecar\t100\t72000\t500000\n"
    "2000\t0\tsidecar\t10\t72000\t500000\n"
    "2000\t0\tsidecar\t1\t72000\t500000\n"
    "2000\t2\tterm\t100\t36000\t400000\n"
    "2000\t2\tterm\t10\t36000\t400000\n"
    "2000\t2\tterm\t1\t36000\t400000\n"
    "2000\t2\tsidecar\t100\t54000\t450000\n"
    "2000\t2\tsidecar\t10\t25200\t350000\n"
    "2000\t2\tsidecar\t1\t\t350000\n";

static tt_table *table(tt_ctx *ctx, const char *text)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "lines.tsv", text, strlen(text), TT_TABLE_CONFIGS, &t),
                 0, "%s", tt_errmsg(ctx));
    return t;
}

Test(lines, script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = table(ctx, rows);
    tt_plot_opts o = opts("l.png");
    const char *labels[] = {"k8s-fixed", "elastic-term", "elastic-sidecar"};
    int64_t left = -1;
    o.by = "el_up,resize";
    o.panel = "load";
    o.labels = labels;
    o.nlabels = 3;
    o.left_out = &left;
    char *s = NULL;
    cr_assert_eq(tt_plot_lines(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(left, 1);
    /* hours (the largest jct_mean is 20 h), by resize_cost within a line */
    expect_has(s, "$p0l0 << EOD\n1\t10\n10\t10\n100\t10\nEOD\n");
    expect_has(s, "$p0l1 << EOD\n1\t5\n10\t5\n100\t5\nEOD\n");
    expect_has(s, "$p0l2 << EOD\n1\t3\n10\t4\n100\t8\nEOD\n");
    expect_has(s, "$p1l0 << EOD\n1\t20\n10\t20\n100\t20\nEOD\n");
    expect_has(s, "$p1l2 << EOD\n10\t7\n100\t15\nEOD\n"); /* cost 1 left out */
    expect_has(s, "set multiplot layout 1,2 title ");
    expect_has(s, "set title 'load=1000'\n");
    expect_has(s, "set title 'load=2000'\n");
    expect_has(s, "set logscale x\n"); /* 1, 10, 100: geometric */
    expect_has(s, "set xlabel 'resize_cost [s]'\n");
    expect_has(s, "set ylabel 'jct_mean [h]'\n");
    expect_has(s, "title 'elastic-sidecar'");
    cr_expect(strstr(s, "el_up=") == NULL, "labels given, yet: %s", strstr(s, "el_up="));
    free(s);
    /* no labels: the values of the --by parameters; another metric */
    o.labels = NULL;
    o.nlabels = 0;
    o.y = "makespan";
    cr_assert_eq(tt_plot_lines(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "title 'el_up=0 resize=sidecar'");
    expect_has(s, "title 'el_up=2 resize=term'");
    expect_has(s, "set ylabel 'makespan [d]'\n");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

/* the message of a refused figure */
static void expect_refused(tt_table *t, const tt_plot_opts *o, int code, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    char *s = NULL;
    cr_expect_eq(tt_plot_lines(ctx, t, o, &s), code, "%s", tt_errmsg(ctx));
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "'%s' lacks '%s'", tt_errmsg(ctx), want);
    cr_expect_null(s);
    tt_ctx_free(ctx);
}

Test(lines, refused)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = table(ctx, rows);
    tt_plot_opts o = opts("l.png");
    /* one line, one panel: three rows at resize_cost=1 */
    expect_refused(t, &o, TT_EINVAL, "rows 1 and 4 share resize_cost=1 on one line: name what "
                                     "else varies with --by, --panel or --where");
    o.by = "el_up,resize";
    expect_refused(t, &o, TT_EINVAL, "rows 1 and 12 share resize_cost=1"); /* no --panel */
    o.panel = "load";
    o.by = "el_up,nosuch";
    expect_refused(t, &o, TT_EINVAL, "--by: no column 'nosuch'");
    o.by = "el_up,resize";
    o.panel = "loads";
    expect_refused(t, &o, TT_EINVAL, "--panel: no column 'loads'");
    o.panel = "load";
    o.x = "el_frac";
    expect_refused(t, &o, TT_EINVAL, "el_frac");
    o.x = NULL;
    const char *four[] = {"a", "b", "c", "d"};
    o.labels = four;
    o.nlabels = 4;
    expect_refused(t, &o, TT_EINVAL, "4 labels for 3 lines");
    tt_table_free(t);
    tt_ctx_free(ctx);
}
