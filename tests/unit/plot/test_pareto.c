/* The pareto and cdf figures (libcore/plot/pareto.c): the front worked
 * out by hand on the fixture, and the scripts. */
#include <math.h>

#include "plotcase.h"

Test(pareto, front)
{
    /* the fixture's (makespan, jct_mean) in its row order */
    const double x[15] = {6000000, 5900000, 6100000, 5500000, 5400000, 6000000, 5300000, 5300000,
                          5800000, 5200000, 5300000, 5700000, 5200000, 5200000, 5100000};
    const double y[15] = {90000, 72000, 86400, 50400, 36000, 79200, 43200, 28800,
                          75600, 43200, 28800, 72000, 61200, 61200, 46800};
    int64_t f[15];
    /* 14 (5.1M, 46800) has the least x; 9 (5.2M, 43200) the least y at 5.2M;
     * 7 and 10 tie at (5.3M, 28800), the least y; everything else has a
     * point at most as large in both and smaller in one */
    cr_assert_eq(tt_plot_pareto_front(x, y, 15, f), 4);
    cr_expect_eq(f[0], 14);
    cr_expect_eq(f[1], 9);
    cr_expect_eq(f[2], 7);
    cr_expect_eq(f[3], 10);
    const double xn[3] = {1, NAN, 2}, yn[3] = {1, 0, 0};
    cr_assert_eq(tt_plot_pareto_front(xn, yn, 3, f), 2);
    cr_expect_eq(f[0], 0);
    cr_expect_eq(f[1], 2);
    /* the same x: only the smaller y */
    const double xs[2] = {1, 1}, ys[2] = {5, 4};
    cr_assert_eq(tt_plot_pareto_front(xs, ys, 2, f), 1);
    cr_expect_eq(f[0], 1);
}

Test(pareto, script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, FIXTURE), *b = load(ctx, "tests/fixtures/plot/plot_baseline.tsv");
    tt_plot_opts o = opts("p.png");
    char *s = NULL;
    const tt_table *base[1] = {b};
    /* TSV records no trace or cluster: not drawn unless the caller says */
    cr_expect_eq(tt_plot_pareto(ctx, t, base, 1, &o, &s), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "plot_baseline.tsv' does not record its "
                                     "trace_source_sha256, so it cannot be matched with"),
              "%s", tt_errmsg(ctx));
    cr_expect_null(s);
    o.baseline_any = 1;
    cr_assert_eq(tt_plot_pareto(ctx, t, base, 1, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set xlabel 'makespan [d]'");
    expect_has(s, "set ylabel 'jct_mean [h]'");
    /* the front in x order: strict (59.03 d, 13 h), (60.19 d, 12 h), then
     * the two configurations at (61.34 d, 8 h) under one label */
    const char *f = strstr(s, "$front << EOD\n");
    cr_assert_not_null(f);
    const char *want = "59.02777778\t13\tw0=inf, theta=inf\n"
                       "60.18518519\t12\tw0=3600, theta=1200\n"
                       "61.34259259\t8\tw0=600, theta=1500 (+1 more)\nEOD\n";
    cr_expect(strncmp(f + 14, want, strlen(want)) == 0, "front: %.160s", f + 14);
    expect_has(s, "'non-dominated (4 configurations)'");
    /* strict: w0 = theta = inf (row 15); no-wait: w0 = w1 = 0, theta = inf (row 3) */
    expect_has(s, "$strict << EOD\n59.02777778\t13\nEOD\n");
    expect_has(s, "$nowait << EOD\n70.60185185\t24\nEOD\n");
    expect_has(s, "$base0 << EOD\n60.76388889\t8.5\tw0=600, w1=3600, theta=1500\nEOD\n");
    expect_has(s, "'baseline: plot_baseline.tsv'");
    free(s);
    /* labelled with its configuration, not guessed from its timers: a
     * strict run at another load than the sweep's says so */
    tt_table *strict = NULL;
    const char *row = "order\tw0\tw1\ttheta\tload\tmakespan\tjct_mean\n"
                      "fifo\tinf\tinf\tinf\t1000\t5000000\t40000\n";
    cr_assert_eq(tt_table_read_mem(ctx, "strict.tsv", row, strlen(row), TT_TABLE_CONFIGS, &strict),
                 0, "%s", tt_errmsg(ctx));
    base[0] = strict;
    cr_assert_eq(tt_plot_pareto(ctx, t, base, 1, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "$base0 << EOD\n57.87037037\t11.11111111\tw0=inf, w1=inf, theta=inf, "
                  "load=1000\nEOD\n");
    free(s);
    tt_table_free(strict);
    o.y = "nope";
    cr_expect_eq(tt_plot_pareto(ctx, t, NULL, 0, &o, &s), TT_EINVAL);
    tt_table_free(t);
    tt_table_free(b);
    tt_ctx_free(ctx);
}

Test(pareto, cdf_script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *r[2] = {NULL, NULL};
    cr_assert_eq(tt_table_load(ctx, "tests/fixtures/plot/plot_jobs_a.tsv", TT_TABLE_JOBS, &r[0]), 0);
    cr_assert_eq(tt_table_load(ctx, "tests/fixtures/plot/plot_jobs_b.tsv", TT_TABLE_JOBS, &r[1]), 0);
    tt_plot_opts o = opts("c.png");
    const char *labels[2] = {"A", NULL};
    char *s = NULL;
    cr_assert_eq(tt_plot_cdf(ctx, (const tt_table *const *)r, labels, 2, &o, &s), 0, "%s",
                 tt_errmsg(ctx));
    /* A: jct 60, 3600, 10800, 43200 s and one rejected job; the median of
     * them (10800 s) sets the unit: h */
    expect_has(s, "$cdf0 << EOD\n0.01666666667\t0.25\n1\t0.5\n3\t0.75\n12\t1\nEOD\n");
    expect_has(s, "'A (4 jobs, 1 not run)'");
    expect_has(s, "'plot_jobs_b.tsv (4 jobs)'");
    expect_has(s, "set xlabel 'jct [h] (log scale)'");
    free(s);
    /* A's queues: 0, 3600, 0, 7200: two at 0, left of a log axis; the
     * median 3600 s is under 2 h: minutes */
    o.x = "queue";
    cr_assert_eq(tt_plot_cdf(ctx, (const tt_table *const *)r, labels, 1, &o, &s), 0);
    expect_has(s, "'A (4 jobs, 2 at 0, 1 not run)'");
    expect_has(s, "$cdf0 << EOD\n60\t0.75\n120\t1\nEOD\n");
    expect_has(s, "set xlabel 'queue [min] (log scale)'");
    free(s);
    tt_table_free(r[0]);
    tt_table_free(r[1]);
    tt_ctx_free(ctx);
}

/* 99 of 100 jobs never queue: on a 0..1 axis both curves would lie along
 * the top of the frame, so the axis starts at 0.98, with room above 1. */
Test(pareto, cdf_mostly_zero)
{
    char text[8192] = "job\tsubmit\tduration\tgpus\tmodel\tstart\tend\tjct\tqueue\n";
    for (int i = 0; i < 100; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 "%d\t%d\t600\t1\tbert\t%d\t%d\t%d\t%d\n", i, i, i + (i == 7) * 3600,
                 i + 600 + (i == 7) * 3600, 600 + (i == 7) * 3600, (i == 7) * 3600);
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "q.tsv", text, strlen(text), TT_TABLE_JOBS, &t), 0, "%s",
                 tt_errmsg(ctx));
    tt_plot_opts o = opts("c.png");
    o.x = "queue";
    char *s = NULL;
    const tt_table *runs[1] = {t};
    cr_assert_eq(tt_plot_cdf(ctx, runs, NULL, 1, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "'q.tsv (100 jobs, 99 at 0)'");
    expect_has(s, "set yrange [0.98:1.0004]\nset ytics 0.98,0.004,1\n");
    expect_has(s, "set ylabel 'fraction of jobs (axis from 0.98)'");
    expect_has(s, "set key bottom right");
    free(s);
    /* the jct: none at 0, the whole axis, a little room above 1 */
    o.x = "jct";
    cr_assert_eq(tt_plot_cdf(ctx, runs, NULL, 1, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set yrange [0:1.02]\nset ytics 0,0.2,1\n");
    expect_has(s, "set ylabel 'fraction of jobs'\n");
    expect_has(s, "set key top left");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}
