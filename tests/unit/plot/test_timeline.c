/* The timeline and trace figures (libcore/plot/timeline.c). */
#include <math.h>

#include "plotcase.h"
#include "tt/gen.h"

Test(timeline, script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, "tests/fixtures/plot/plot_timeline.tsv", TT_TABLE_TIMELINE, &t), 0);
    tt_plot_opts o = opts("t.png");
    char *s = NULL;
    cr_assert_eq(tt_plot_timeline(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    /* 4 h of span: hours; rows as they are (short timeline) */
    expect_has(s, "$timeline << EOD\n0\t0\t8\t1\t0\t0\n1\t2\t16\t1\t1\t0\n");
    expect_has(s, "set xlabel 'time since the first event [h]'");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

/* The trace figure names its trace; the duration axis ends just past the
 * longest job (not at the next decade, whose label would hang off the
 * panel's right edge), with room above 1. */
Test(timeline, trace_named_and_inside)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p;
    tt_gen_defaults(&p);
    p.jobs = 300;
    p.seed = 1;
    tt_trace *tr = NULL;
    cr_assert_eq(tt_gen_run(ctx, &p, &tr), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_prov_set(&tr->prov.source_files, "some/dir/jobs.csv\nother.csv"), 0);
    tt_table *v[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(tt_table_from_trace(ctx, tr, (tt_table_trace_view)i, 0, &v[i]), 0);
    tt_plot_opts o = opts("t.png");
    char *s = NULL;
    cr_assert_eq(tt_plot_trace(ctx, v[0], v[1], v[2], &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set multiplot title 'jobs.csv (tt-gen, 300 jobs): job sizes, durations and "
                  "offered load'");
    int64_t longest = 0;
    for (int64_t i = 0; i < tr->n; i++)
        longest = tr->duration[i] > longest ? tr->duration[i] : longest;
    const char *panel = strstr(s, "set title 'duration CDF'");
    cr_assert_not_null(panel);
    const char *range = strstr(panel, "set xrange [");
    cr_assert(range && range < strstr(panel, "plot $duration"), "no x range for the durations");
    double lo, hi;
    cr_assert_eq(sscanf(range, "set xrange [%lf:%lf]", &lo, &hi), 2);
    double median_unit = hi / ((double)longest * 1.05); /* 1/div */
    cr_expect(lo > 0 && hi > lo, "range [%g:%g]", lo, hi);
    cr_expect(median_unit == 1 || fabs(median_unit * 60 - 1) < 1e-9 ||
                  fabs(median_unit * 3600 - 1) < 1e-9 || fabs(median_unit * 86400 - 1) < 1e-9,
              "the axis ends at %g, the longest job is %lld s", hi, (long long)longest);
    expect_has(panel, "set yrange [0:1.02]\nset ytics 0,0.2,1\n");
    free(s);
    for (int i = 0; i < 3; i++)
        tt_table_free(v[i]);
    tt_trace_free(tr);
    tt_ctx_free(ctx);
}

/* The script of the trace figure of the trace in text (csv). */
static char *trace_script(tt_ctx *ctx, const char *text)
{
    tt_trace *tr = ingest_text(ctx, "csv", text);
    cr_assert_not_null(tr, "%s", tt_errmsg(ctx));
    tt_table *v[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(tt_table_from_trace(ctx, tr, (tt_table_trace_view)i, 0, &v[i]), 0, "%s",
                     tt_errmsg(ctx));
    tt_plot_opts o = opts("tr.png");
    char *s = NULL;
    cr_assert_eq(tt_plot_trace(ctx, v[0], v[1], v[2], &o, &s), 0, "%s", tt_errmsg(ctx));
    for (int i = 0; i < 3; i++)
        tt_table_free(v[i]);
    tt_trace_free(tr);
    return s;
}

/* Data gnuplot takes no range from (its "empty x range" warnings, and
 * "x range is invalid" with no point on a log axis) get one of their own:
 * no duration above 0 an empty frame over 1 .. 10, one load bin and one
 * event time 0 .. 1, counts that are all 0 0 .. 1. */
Test(timeline, ranges_of_one_value)
{
    tt_ctx *ctx = tt_ctx_create();
    char *s = trace_script(ctx, "submit,duration,gpus\n5,100,1\n");
    expect_has(s, "set xrange [100:105]\n"); /* just past the one value */
    expect_has(s, "(log scale)'\nplot $duration using 1:2");
    expect_has(s, "set yrange [0:*]\nset xrange [0:1]\nset ylabel 'GPUs (bin mean)'");
    free(s);
    s = trace_script(ctx, "submit,duration,gpus\n5,0,1\n");
    expect_has(s, "set xrange [1:10]\nset label 1 'no duration above 0'");
    expect_has(s, "plot 2 notitle\n");
    cr_expect_null(strstr(s, "plot $duration"), "an empty data block plotted");
    expect_has(s, "set yrange [0:1]\nset xrange [0:1]\n");
    free(s);
    /* many values: no range of ours */
    s = trace_script(ctx, "submit,duration,gpus\n0,100,1\n10,50,4\n7200,10,8\n");
    cr_expect_null(strstr(s, "set xrange [0:1]"), "%s", s);
    cr_expect_null(strstr(s, "set xrange [1:10]"), "%s", s);
    free(s);

    const char *one = "t\twaiting\trunning\tbusy_gpus\trunning_l0\trunning_l1\trunning_l2\n"
                      "0\t0\t1\t2\t1\t0\t0\n";
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "one.tsv", one, strlen(one), TT_TABLE_TIMELINE, &t), 0,
                 "%s", tt_errmsg(ctx));
    tt_plot_opts o = opts("t.png");
    cr_assert_eq(tt_plot_timeline(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    expect_has(s, "set xrange [0:1]\nset ylabel 'jobs waiting'\nset yrange [0:1]\nplot");
    expect_has(s, "set ylabel 'busy GPUs'\nset yrange [0:*]\nplot");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}
