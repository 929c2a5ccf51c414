/* The surface figure (libcore/plot/surface.c): the scale of an axis, the
 * script over the fixture, and the errors it names. */
#include <math.h>

#include "plotcase.h"

Test(surface, log_axis)
{
    const double geo[5] = {86400, 60, 600, 3600, INFINITY};
    cr_expect(tt_plot_is_log(geo, 5));
    const double lin[4] = {100, 200, 300, 400};
    cr_expect(!tt_plot_is_log(lin, 4));
    const double zero[4] = {0, 60, 600, 3600};
    cr_expect(!tt_plot_is_log(zero, 4));
    const double narrow[7] = {1050, 1100, 1200, 1300, 1400, 1500, 1700};
    cr_expect(!tt_plot_is_log(narrow, 7), "less than a decade");
    const double list[7] = {250, 500, 750, 1000, 1500, 2000, 3000};
    cr_expect(tt_plot_is_log(list, 7));
    const double two[2] = {1, 1000};
    cr_expect(!tt_plot_is_log(two, 2));
}

Test(surface, script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, FIXTURE);
    tt_plot_opts o = opts("fig's.png");
    char *s = NULL;
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set terminal pngcairo size 1000,750 noenhanced");
    expect_has(s, "set output 'fig''s.png'\n");
    /* 28800 s = 8 h, the first of the two equal cells in configuration order */
    expect_has(s, "least jct_mean: 8 h at w0=600, theta=1500 (1st of 2 equal)");
    expect_has(s, "'jct_mean over w0 x theta (15 configurations; w1=0, load=2000)'");
    expect_has(s, "set xlabel 'w0 [s] (log scale)'");
    expect_has(s, "set ylabel 'theta [permille]'\n"); /* two finite values: linear */
    expect_has(s, "set cblabel 'jct_mean [h]'");
    /* the edge columns of the w0 axis: 0 on the left, inf on the right */
    expect_has(s, "'0' ");
    expect_has(s, "'inf' ");
    /* the grid values as tics: log10(600) */
    expect_has(s, "'600' 2.77815125");
    /* the complete finite 3 x 2 part feeds the contours, each labelled
     * with its value, dark on a pale box */
    expect_has(s, "set table $contour1");
    expect_has(s, "$contour1 using 1:2:(sprintf('%g', $3)) every ::2::2 with labels boxed");
    expect_has(s, "set style textbox opaque fc rgb '#50ffffff'");
    /* 15 cells, 90000 s = 25 h in the first */
    const char *cells = strstr(s, "$cells1 << EOD\n");
    cr_assert_not_null(cells);
    int lines = 0;
    for (const char *p = cells + 15; strncmp(p, "EOD\n", 4) != 0; p = strchr(p, '\n') + 1)
        lines++;
    cr_expect_eq(lines, 15);
    expect_has(cells, "\t25\n");
    free(s);
    o.facet = "makespan";
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set multiplot layout 1,2");
    /* 5100000 s = 59.03 d at the strict corner */
    expect_has(s, "least makespan: 59.03 d at w0=inf, theta=inf'");
    expect_has(s, "set title 'makespan [d]'");
    free(s);
    /* the 3-D view: the pm3d surface, the axis labels along their axes */
    o.facet = NULL;
    o.view3d = 1;
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set ylabel rotate parallel offset 2,-1\n");
    expect_has(s, "set zlabel 'jct_mean [h]'");
    expect_has(s, "set zlabel rotate parallel\nset view 55,35");
    expect_has(s, "$grid1 using 1:2:3 with pm3d");
    cr_expect_null(strstr(s, "set table $contour1"), "no contour lines in 3-D");
    /* the bar and its label inside the canvas: the view kept left of it,
     * the title over the middle of the canvas */
    expect_has(s, "set rmargin at screen 0.82\nset colorbox vertical user origin screen 0.86, ");
    expect_has(s, "(1st of 2 equal)' offset screen 0.09,0\nunset key");
    free(s);
    /* side by side the panels' bars have no label: placed as usual */
    o.facet = "makespan";
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    cr_expect_null(strstr(s, "rmargin"));
    expect_has(s, "set colorbox\n");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(surface, errors)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, FIXTURE);
    tt_plot_opts o = opts("f.png");
    char *s = NULL;
    o.z = "jct_men";
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    /* its metrics alone, every one whole */
    cr_expect_str_eq(tt_errmsg(ctx),
                     "metric 'jct_men' is not in 'tests/fixtures/plot/plot_sweep.tsv' (its "
                     "metrics: makespan jct_mean jct_p50 jct_p90 jct_p99 queue_mean queue_p99 "
                     "comm_gpu_s comm_share restart_gpu_s preemptions placed_l0 placed_l1 "
                     "placed_l2 util rejected)");
    o.z = NULL;
    o.x = "w2";
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx),
                     "parameter 'w2' is not in 'tests/fixtures/plot/plot_sweep.tsv' (its "
                     "parameters: w0 w1 theta restart congestion min_run max_preempt backfill "
                     "load seed)");
    o.x = NULL;
    o.z = "jct_men";
    cr_expect_null(s);
    o.z = "mix";
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "is text") != NULL, "%s", tt_errmsg(ctx));
    o.z = NULL;
    o.y = "load";
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx),
                     "parameter 'load' was not swept in 'tests/fixtures/plot/plot_sweep.tsv' (one "
                     "value: 2000)");
    o.y = NULL;
    o.x = "theta";
    o.y = "theta";
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    tt_table_free(t);
    /* two rows on one cell: w1 also varies */
    const char *text = "w0\tw1\ttheta\tjct_mean\n0\t0\t1\t5\n0\t0\t2\t6\n60\t0\t1\t7\n60\tinf\t2\t"
                       "8\n60\t0\t2\t9\n";
    cr_assert_eq(tt_table_read_mem(ctx, "d.tsv", text, strlen(text), TT_TABLE_CONFIGS, &t), 0);
    o = opts("f.png");
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx),
                     "rows 4 and 5 of 'd.tsv' fall on one cell of w0 x theta: parameter 'w1' "
                     "also varies (inf, 0); pick one value with --where w1=VALUE");
    cr_assert_eq(tt_table_where(ctx, t, "w1", "0"), 0);
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

/* Tic labels that would run together are left out, their marks kept: on
 * the example's w0 grid (0, 60 ... 14400, inf on a log axis), 300 and 600,
 * 1800 and 3600 are 0.3 apart, about 37 px in a facet's panel, less than
 * two labels and two glyphs between take; the rounder value keeps its
 * label (600, 3600 an hour: the example drew '300600' and no 3600). */
Test(surface, crowded_tics)
{
    char text[4096] = "w0\ttheta\tjct_mean\tmakespan\n";
    static const char *const w0[] = {"0", "60", "300", "600", "1800", "3600", "14400", "inf"};
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 2; k++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s\t%s\t%d\t%d\n", w0[i],
                     k ? "1500" : "1200", 100 + i + k, 200 - i - k);
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "w.tsv", text, strlen(text), TT_TABLE_CONFIGS, &t), 0,
                 "%s", tt_errmsg(ctx));
    tt_plot_opts o = opts("f.png");
    o.facet = "makespan";
    char *s = NULL;
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set xtics out nomirror ('60' 1.77815125, '' 2.477121255, '600' 2.77815125, "
                  "'' 3.255272505, '3600' 3.556302501, '14400' 4.158362492, '0' 1.04783245, "
                  "'inf' 4.840226286)");
    free(s);
    o.width = 3000; /* twice as wide: room for all */
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set xtics out nomirror ('60' 1.77815125, '300' 2.477121255, '600' 2.77815125, "
                  "'1800' 3.255272505, '3600' 3.556302501, '14400' 4.158362492, '0' 1.04783245, "
                  "'inf' 4.840226286)");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}
