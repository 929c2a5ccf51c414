/* gnuplot scripts and the decisions behind them (tt/plot.h). The fixture
 * tests/fixtures/plot/plot_sweep.tsv is a 5 x 3 grid written by hand: w0 in
 * 0, 60, 600, 3600, inf (slowest), theta in 1200, 1500, inf; its least
 * jct_mean is 28800 s at (600, 1500) and again at (3600, 1500); its
 * Pareto front (makespan, jct_mean) is worked out below. */
#include <math.h>
#include <sys/stat.h>

#include "testutil.h"
#include "tt/plot.h"
#include "tt/table.h"

#define FIXTURE "tests/fixtures/plot/plot_sweep.tsv"

static tt_table *load(tt_ctx *ctx, const char *path)
{
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    return t;
}

static tt_plot_opts opts(const char *out)
{
    tt_plot_opts o;
    memset(&o, 0, sizeof o);
    o.term = TT_PLOT_PNG;
    o.output = out;
    return o;
}

#define expect_has(s, want) cr_expect(strstr(s, want) != NULL, "script lacks: %s", want)
#define expect_lacks(s, bad) cr_expect(strstr(s, bad) == NULL, "script has: %s", bad)

Test(plot, quote)
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

Test(plot, pareto_front)
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

Test(plot, best)
{
    const double z[5] = {NAN, 3, 1, 2, 1};
    cr_expect_eq(tt_plot_best(z, 5), 2);
    const double none[2] = {NAN, NAN};
    cr_expect_eq(tt_plot_best(none, 2), -1);
}

Test(plot, log_axis)
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

Test(plot, units)
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

Test(plot, terminal)
{
    cr_expect_eq(tt_plot_term_of("a/b.png"), TT_PLOT_PNG);
    cr_expect_eq(tt_plot_term_of("B.SVG"), TT_PLOT_SVG);
    cr_expect_eq(tt_plot_term_of("x.pdf"), TT_PLOT_PDF);
    cr_expect_eq(tt_plot_term_of("x.jpg"), -1);
    cr_expect_eq(tt_plot_term_of("x.d/png"), -1);
    cr_expect_eq(tt_plot_term_of("png"), -1);
}

Test(plot, surface_script)
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
    /* the complete finite 3 x 2 part feeds the contours */
    expect_has(s, "set table $contour1");
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
    free(s);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

Test(plot, surface_errors)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, FIXTURE);
    tt_plot_opts o = opts("f.png");
    char *s = NULL;
    o.z = "jct_men";
    cr_expect_eq(tt_plot_surface(ctx, t, &o, &s), TT_EINVAL);
    const char *want = "metric 'jct_men' is not in 'tests/fixtures/plot/plot_sweep.tsv' (it has: "
                       "order w0 w1 theta";
    cr_expect(strncmp(tt_errmsg(ctx), want, strlen(want)) == 0, "%s", tt_errmsg(ctx));
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

Test(plot, title_is_text)
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

Test(plot, pareto_script)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = load(ctx, FIXTURE), *b = load(ctx, "tests/fixtures/plot/plot_baseline.tsv");
    tt_plot_opts o = opts("p.png");
    char *s = NULL;
    const tt_table *base[1] = {b};
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
    o.y = "nope";
    cr_expect_eq(tt_plot_pareto(ctx, t, NULL, 0, &o, &s), TT_EINVAL);
    tt_table_free(t);
    tt_table_free(b);
    tt_ctx_free(ctx);
}

Test(plot, cdf_script)
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

Test(plot, timeline_script)
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

/* ---- drawing: a fake gnuplot that runs its script with sh ---- */

typedef struct {
    char base[64];   /* the test's folder: the fake, outputs */
    char tmp[128];   /* $TMPDIR */
    char fake[128];  /* $GNUPLOT */
    char out[128];   /* base/out.png */
    char fig[160];   /* base/.out.png.tmp-PID, the figure while drawn */
} drawcase;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* The file's text ("" kept as ""), or NULL when it does not exist. */
static char *file_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *s = (char *)calloc(1, 4096);
    cr_assert_not_null(s);
    if (fread(s, 1, 4095, f) == 0 && ferror(f))
        cr_assert_fail("cannot read %s", path);
    fclose(f);
    return s;
}

static int dir_is_empty(const char *path)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", path);
    return system(cmd) == 0;
}

static void draw_setup(drawcase *c)
{
    snprintf(c->base, sizeof c->base, "/tmp/tt-test-draw-XXXXXX");
    cr_assert_not_null(mkdtemp(c->base));
    snprintf(c->tmp, sizeof c->tmp, "%s/tmp", c->base);
    cr_assert_eq(mkdir(c->tmp, 0700), 0);
    snprintf(c->fake, sizeof c->fake, "%s/gnuplot", c->base);
    write_text(c->fake, "#!/bin/sh\nexec sh \"$1\"\n");
    cr_assert_eq(chmod(c->fake, 0700), 0);
    snprintf(c->out, sizeof c->out, "%s/out.png", c->base);
    snprintf(c->fig, sizeof c->fig, "%s/.out.png.tmp-%d", c->base, (int)getpid());
    setenv("TMPDIR", c->tmp, 1);
    setenv("GNUPLOT", c->fake, 1);
}

static void draw_teardown(drawcase *c)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->base);
    cr_expect_eq(system(cmd), 0);
}

Test(plot, render_open_and_close)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(r.gnuplot, c.fake);
    char want[4200];
    snprintf(want, sizeof want, "%s/tt-plot.", c.tmp);
    cr_expect_eq(strncmp(r.dir, want, strlen(want)), 0, "dir %s", r.dir);
    cr_expect_eq(strlen(r.dir), strlen(want) + 6, "dir %s", r.dir);
    struct stat st;
    cr_assert_eq(stat(r.dir, &st), 0);
    cr_expect(S_ISDIR(st.st_mode));
    cr_expect_eq(st.st_mode & 0777, 0700);
    snprintf(want, sizeof want, "%s/plot.gp", r.dir);
    cr_expect_str_eq(r.script, want);
    snprintf(want, sizeof want, "%s/gnuplot.err", r.dir);
    cr_expect_str_eq(r.log, want);
    snprintf(want, sizeof want, "%s/stdin.h5", r.dir);
    cr_expect_str_eq(r.input, want);
    cr_expect_str_eq(r.fig, "");
    cr_expect_eq(r.pid, 0);
    /* standard input kept as a file, byte for byte, then removed with the rest */
    cr_assert_eq(tt_plot_render_stdin(ctx, &r, "a\0b", 3), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(stat(r.input, &st), 0);
    cr_expect_eq(st.st_size, 3);
    /* the figure as drawn, beside its output */
    cr_assert_eq(tt_plot_render_target(ctx, &r, c.out), 0);
    cr_expect_str_eq(r.fig, c.fig);
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp), "the folder is left");
    cr_expect_str_eq(r.dir, "");
    cr_expect_str_eq(r.input, "");
    cr_expect_str_eq(r.fig, "");
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

Test(plot, render_open_errors)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
    cr_expect_eq(tt_plot_render_open(ctx, &r), TT_EIO);
    cr_expect_str_eq(tt_errmsg(ctx), "gnuplot not found (install gnuplot, e.g. apt-get install "
                                     "gnuplot-nox, or set GNUPLOT to its path)");
    cr_expect_str_eq(r.gnuplot, "");
    cr_expect_str_eq(r.dir, "");
    cr_expect(dir_is_empty(c.tmp));
    /* a $TMPDIR that does not exist: the template named, every name "" */
    setenv("GNUPLOT", c.fake, 1);
    char nope[256], want[4200];
    snprintf(nope, sizeof nope, "%s/nope", c.base);
    setenv("TMPDIR", nope, 1);
    cr_expect_eq(tt_plot_render_open(ctx, &r), TT_EIO);
    snprintf(want, sizeof want, "cannot create a temporary folder '%s/tt-plot.", nope);
    cr_expect_eq(strncmp(tt_errmsg(ctx), want, strlen(want)), 0, "%s", tt_errmsg(ctx));
    const char *tail = "': No such file or directory";
    cr_expect_str_eq(tt_errmsg(ctx) + strlen(want) + 6, tail);
    cr_expect_str_eq(r.dir, "");
    cr_expect_str_eq(r.script, "");
    /* $TMPDIR empty: /tmp */
    setenv("TMPDIR", "", 1);
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(strncmp(r.dir, "/tmp/tt-plot.", 13), 0, "%s", r.dir);
    /* the folder gone: the kept input and the script cannot be written */
    snprintf(want, sizeof want, "cannot keep standard input in '%s/stdin.h5'", r.dir);
    cr_assert_eq(rmdir(r.dir), 0);
    cr_expect_eq(tt_plot_render_stdin(ctx, &r, "x", 1), TT_EIO);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    char *msgs = (char *)"unset";
    cr_assert_eq(tt_plot_render_target(ctx, &r, c.out), 0);
    cr_expect_eq(tt_plot_render_run(ctx, &r, "exit 0\n", c.out, &msgs), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s/plot.gp': No such file or directory", r.dir);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_null(msgs);
    tt_plot_render_close(&r);
    /* an output name with no room for the temporary one */
    static char longname[5000];
    memset(longname, 'a', sizeof longname - 1);
    setenv("TMPDIR", c.tmp, 1);
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0);
    cr_expect_eq(tt_plot_render_target(ctx, &r, longname), TT_EINVAL);
    cr_expect_eq(strncmp(tt_errmsg(ctx), "output name too long: 'aaa", 26), 0);
    cr_expect_str_eq(r.fig, "");
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

/* Runs script (sh) through the fake gnuplot to c->out; the code, with
 * gnuplot's messages in *msgs and what is left checked by the caller. */
static int render(tt_ctx *ctx, drawcase *c, tt_plot_render *r, const char *script, char **msgs)
{
    cr_assert_eq(tt_plot_render_open(ctx, r), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_plot_render_target(ctx, r, c->out), 0);
    char text[1024];
    snprintf(text, sizeof text, script, r->fig);
    return tt_plot_render_run(ctx, r, text, c->out, msgs);
}

Test(plot, render_draws)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    char *msgs = NULL;
    /* the figure written and a warning: the figure renamed into place */
    cr_assert_eq(render(ctx, &c, &r, "printf PNG >'%s'\necho 'warning: a' >&2\n", &msgs), 0,
                 "%s", tt_errmsg(ctx));
    char *fig = file_text(c.out);
    cr_expect_str_eq(fig, "PNG");
    free(fig);
    cr_expect_str_eq(msgs, "warning: a\n");
    free(msgs);
    cr_expect_str_eq(r.fig, "");
    cr_expect_eq(r.pid, 0);
    cr_expect_eq(access(c.fig, F_OK), -1, "the figure as drawn is left");
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp), "the folder is left");
    /* nothing to say: no messages */
    cr_assert_eq(render(ctx, &c, &r, "echo new >'%s'\n", &msgs), 0, "%s", tt_errmsg(ctx));
    cr_expect_null(msgs);
    fig = file_text(c.out);
    cr_expect_str_eq(fig, "new\n");
    free(fig);
    tt_plot_render_close(&r);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

Test(plot, render_failures)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_render r;
    char *msgs = NULL, want[4200];
    struct {
        const char *script, *why, *msgs;
    } cases[] = {
        /* exit 0 but nothing drawn; gnuplot's standard output is kept too */
        {"echo 'nothing: %s'\n", "exit status 0", "nothing: %s\n"},
        {": >'%s'\n", "exit status 0", NULL}, /* an empty figure */
        {"echo half >'%s'\necho 'line 3: broken' >&2\nexit 3\n", "exit status 3",
         "line 3: broken\n"},
        {"echo half >'%s'\nkill -TERM $$\n", "signal 15", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(render(ctx, &c, &r, cases[i].script, &msgs), TT_EIO, "case %zu", i);
        snprintf(want, sizeof want, "gnuplot failed (%s) drawing '%s':", cases[i].why, c.out);
        cr_expect_str_eq(tt_errmsg(ctx), want);
        if (cases[i].msgs) {
            snprintf(want, sizeof want, cases[i].msgs, c.fig);
            cr_expect_str_eq(msgs, want, "case %zu", i);
        } else {
            cr_expect_null(msgs, "case %zu: %s", i, msgs);
        }
        free(msgs);
        cr_expect_eq(access(c.out, F_OK), -1, "case %zu: a figure", i);
        tt_plot_render_close(&r);
        cr_expect_eq(access(c.fig, F_OK), -1, "case %zu: the figure as drawn is left", i);
        cr_expect(dir_is_empty(c.tmp), "case %zu: the folder is left", i);
    }
    /* gnuplot not executable: not run, no messages */
    cr_assert_eq(tt_plot_render_open(ctx, &r), 0);
    cr_assert_eq(chmod(c.fake, 0600), 0);
    cr_expect_eq(tt_plot_render_run(ctx, &r, "exit 0\n", c.out, &msgs), TT_EIO);
    snprintf(want, sizeof want, "cannot run '%s': Permission denied", c.fake);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_null(msgs);
    tt_plot_render_close(&r);
    cr_assert_eq(chmod(c.fake, 0700), 0);
    /* the output is a folder: drawn, but not renamed; close removes it */
    cr_assert_eq(mkdir(c.out, 0700), 0);
    cr_expect_eq(render(ctx, &c, &r, "echo PNG >'%s'\n", &msgs), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': Is a directory", c.out);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_null(msgs);
    cr_expect_eq(access(c.fig, F_OK), 0);
    tt_plot_render_close(&r);
    cr_expect_eq(access(c.fig, F_OK), -1);
    cr_expect(dir_is_empty(c.tmp));
    tt_ctx_free(ctx);
    draw_teardown(&c);
}

Test(plot, save_script)
{
    drawcase c;
    draw_setup(&c);
    tt_ctx *ctx = tt_ctx_create();
    char path[256], want[4200];
    snprintf(path, sizeof path, "%s/kept.gp", c.base);
    cr_assert_eq(tt_plot_save_script(ctx, "plot x\n", path), 0, "%s", tt_errmsg(ctx));
    char *s = file_text(path);
    cr_expect_str_eq(s, "plot x\n");
    free(s);
    /* over an old one, whole */
    cr_assert_eq(tt_plot_save_script(ctx, "plot y\n", path), 0);
    s = file_text(path);
    cr_expect_str_eq(s, "plot y\n");
    free(s);
    snprintf(path, sizeof path, "%s/nodir/kept.gp", c.base);
    cr_expect_eq(tt_plot_save_script(ctx, "plot x\n", path), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    /* a folder in the way: the temporary file beside it is removed */
    snprintf(path, sizeof path, "%s/dir.gp", c.base);
    cr_assert_eq(mkdir(path, 0700), 0);
    cr_expect_eq(tt_plot_save_script(ctx, "plot x\n", path), TT_EIO);
    snprintf(want, sizeof want, "cannot write '%s': Is a directory", path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    snprintf(want, sizeof want, "cd '%s' && test \"$(ls -A | tr '\\n' ' ')\" = "
             "'dir.gp gnuplot kept.gp tmp '", c.base);
    cr_expect_eq(system(want), 0, "a temporary file is left");
    tt_ctx_free(ctx);
    draw_teardown(&c);
}
