/* What the figure tests share: the fixture, read as a table, and the
 * options of a figure. tests/fixtures/plot/plot_sweep.tsv is a 5 x 3 grid
 * written by hand: w0 in 0, 60, 600, 3600, inf (slowest), theta in 1200,
 * 1500, inf; its least jct_mean is 28800 s at (600, 1500) and again at
 * (3600, 1500); its Pareto front (makespan, jct_mean) is worked out in
 * test_pareto.c. */
#ifndef TT_PLOTCASE_H
#define TT_PLOTCASE_H

#include "testutil.h"
#include "tt/plot.h"
#include "tt/table.h"

#define FIXTURE "tests/fixtures/plot/plot_sweep.tsv"

static inline tt_table *load(tt_ctx *ctx, const char *path)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    return t;
}

static inline tt_plot_opts opts(const char *out)
{
    tt_plot_opts o;
    memset(&o, 0, sizeof o);
    o.term = TT_PLOT_PNG;
    o.output = out;
    return o;
}

#define expect_has(s, want) cr_expect(strstr(s, want) != NULL, "script lacks: %s", want)

#endif
