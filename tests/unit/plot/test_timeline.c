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
