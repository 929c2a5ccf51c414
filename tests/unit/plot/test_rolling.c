/* The rolling figure (libcore/plot/rolling.c): from tt-tune --rolling's
 * TSV, the choice each window's parameters hold over the span it is in
 * force, as levels in rank order, and the objectives on each window after
 * the first at its middle, worked out by hand; and what it refuses. */
#include "plotcase.h"

/* Windows of one day at days 0, 1 and 3 (day 2 had no job), w0 0, inf, 600
 * and theta 1500 each time; the total row as tt-tune prints it. */
static const char rows[] =
    "window\tstart\tend\tjobs\tw0\ttheta\tobjective\texact\tsims\tnext_jobs\tnext_choice\t"
    "next_hindsight\tnext_strict\tnext_first\n"
    "0\t0\t86400\t10\t0\t1500\t3600.000000\t1\t8\t20\t7200.000000\t5400.000000\t9000.000000\t"
    "7200.000000\n"
    "1\t86400\t172800\t20\tinf\t1500\t3600.000000\t1\t8\t30\t10800.000000\t7200.000000\t"
    "10800.000000\t14400.000000\n"
    "2\t259200\t345600\t30\t600\t1500\t1800.000000\t1\t8\t\t\t\t\t\n"
    "total\t0\t345600\t60\t\t\t\t3\t24\t50\t9360.000000\t6480.000000\t10080.000000\t"
    "11520.000000\n";

static tt_table *table(tt_ctx *ctx, const char *text)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "roll.tsv", text, strlen(text), TT_TABLE_TUNE_ROLLING,
                                   &t), 0, "%s", tt_errmsg(ctx));
    return t;
}

Test(rolling_plot, script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = table(ctx, rows);
    tt_plot_opts o = opts("r.png");
    char *s = NULL;
    cr_assert_eq(tt_plot_rolling(ctx, t, &o, &s), 0, "%s", tt_errmsg(ctx));
    /* w0's levels: 0, 600, inf; each choice from its window's end to the
     * next window's (window 1's over the empty day too), the last one day
     * past the trace */
    expect_has(s, "$dim0 << EOD\n1\t0\t2\n2\t2\t4\n4\t1\t5\nEOD\n");
    expect_has(s, "set ytics ('0' 0, '600' 1, 'inf' 2)\n");
    expect_has(s, "$dim1 << EOD\n1\t0\t2\n2\t0\t4\n4\t0\t5\nEOD\n");
    expect_has(s, "set ytics ('1500' 0)\n");
    /* the objectives at the middle of windows 1 and 2 (days 1.5 and 3.5):
     * each role's, then the window's own choice; TSV has no units */
    expect_has(s, "$obj << EOD\n1.5\t7200\t5400\t9000\t7200\t3600\n3.5\t10800\t7200\t10800\t"
                  "14400\t1800\nEOD\n");
    expect_has(s, "set xrange [0:5]\n");
    expect_has(s, "set xtics 0, 1\n");
    expect_has(s, "re-tuned every 1d");
    expect_has(s, "'w0 in force'");
    cr_expect(strstr(s, "'theta in force'") > strstr(s, "'w0 in force'"), "w0's panel first");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(rolling_plot, refused)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts("r.png");
    char *s = NULL;
    /* one window: nothing applied */
    tt_table *t = table(ctx, "window\tstart\tend\tw0\tobjective\tnext_choice\tnext_hindsight\t"
                             "next_strict\tnext_first\n0\t0\t100\t0\t1\t\t\t\t\n");
    cr_expect_eq(tt_plot_rolling(ctx, t, &o, &s), TT_EEMPTY);
    tt_table_free(t);
    /* no searched parameter; a sweep's rows */
    t = table(ctx, "window\tstart\tend\tobjective\tnext_choice\tnext_hindsight\tnext_strict\t"
                   "next_first\n0\t0\t100\t1\t2\t2\t2\t2\n1\t100\t200\t1\t\t\t\t\n");
    cr_expect_eq(tt_plot_rolling(ctx, t, &o, &s), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "no searched parameter column"), "%s", tt_errmsg(ctx));
    tt_table_free(t);
    t = load(ctx, FIXTURE);
    cr_expect_eq(tt_plot_rolling(ctx, t, &o, &s), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "start"), "%s", tt_errmsg(ctx));
    tt_table_free(t);
    cr_expect_null(s);
    tt_ctx_free(ctx);
}
