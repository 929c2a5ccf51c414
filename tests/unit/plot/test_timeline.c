/* The timeline figure (libcore/plot/timeline.c). */
#include "plotcase.h"

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
