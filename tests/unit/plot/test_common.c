/* What every figure shares (libcore/plot/common.c): quoting, the best
 * point, units, the terminal of a name, a title kept as text. */
#include <math.h>

#include "plotcase.h"

Test(common, quote)
{
    char buf[64];
    cr_expect_eq(tt_plot_quote("it's", buf, sizeof buf), 7);
    cr_expect_str_eq(buf, "'it''s'");
    tt_plot_quote("a\\b\n`c` \"d\" @e", buf, sizeof buf);
    cr_expect_str_eq(buf, "'a\\b `c` \"d\" @e'");
    tt_plot_quote("", buf, sizeof buf);
    cr_expect_str_eq(buf, "''");
    cr_expect_eq(tt_plot_quote("''''", buf, 9), TT_EINVAL);
    cr_expect_eq(tt_plot_quote("''''", buf, 11), 10);
}

Test(common, best)
{
    const double z[5] = {NAN, 3, 1, 2, 1};
    cr_expect_eq(tt_plot_best(z, 5), 2);
    const double none[2] = {NAN, NAN};
    cr_expect_eq(tt_plot_best(none, 2), -1);
}

Test(common, units)
{
    char buf[32];
    double div;
    cr_expect_str_eq(tt_plot_unit("s", 90000, &div, buf, sizeof buf), "h");
    cr_expect_eq(div, 3600);
    cr_expect_str_eq(tt_plot_unit("s", 172800, &div, buf, sizeof buf), "d");
    cr_expect_eq(div, 86400);
    cr_expect_str_eq(tt_plot_unit("s", 119, &div, buf, sizeof buf), "s");
    cr_expect_str_eq(tt_plot_unit("s", 120, &div, buf, sizeof buf), "min");
    cr_expect_str_eq(tt_plot_unit("GPU-s", 1e6, &div, buf, sizeof buf), "GPU-d");
    cr_expect_str_eq(tt_plot_unit("permille", 1e6, &div, buf, sizeof buf), "permille");
    cr_expect_eq(div, 1);
}

Test(common, terminal)
{
    cr_expect_eq(tt_plot_term_of("a/b.png"), TT_PLOT_PNG);
    cr_expect_eq(tt_plot_term_of("B.SVG"), TT_PLOT_SVG);
    cr_expect_eq(tt_plot_term_of("x.pdf"), TT_PLOT_PDF);
    cr_expect_eq(tt_plot_term_of("x.jpg"), -1);
    cr_expect_eq(tt_plot_term_of("x.d/png"), -1);
    cr_expect_eq(tt_plot_term_of("png"), -1);
}

Test(common, title_is_text)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, FIXTURE);
    tt_plot_opts o = opts("f.svg");
    o.term = TT_PLOT_SVG;
    o.title = "it's `rm -rf x` \\ system(\"touch y\")\n@z";
    char *s = NULL;
    cr_assert_eq(tt_plot_surface(ctx, t, &o, &s), 0);
    expect_has(s, "set title 'it''s `rm -rf x` \\ system(\"touch y\") @z'.\"\\n\".");
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}
