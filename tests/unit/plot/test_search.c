/* The search figure (libcore/plot/search.c) drawn from tune files
 * (tunecase.h), alone and above a sweep's heat map. */
#include "tt/plot.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tunecase.h"

static tt_plot_opts opts(void)
{
    tt_plot_opts o;
    memset(&o, 0, sizeof o);
    o.term = TT_PLOT_SVG;
    o.output = "s.svg";
    return o;
}

/* The lines of datablock name in script s, or -1. */
static int block_lines(const char *s, const char *name, char lines[][128], int max)
{
    char head[64];
    snprintf(head, sizeof head, "%s << EOD\n", name);
    const char *p = strstr(s, head);
    if (!p)
        return -1;
    int n = 0;
    for (p += strlen(head); strncmp(p, "EOD\n", 4) != 0; p = strchr(p, '\n') + 1, n++)
        if (n < max)
            snprintf(lines[n], 128, "%.*s", (int)(strchr(p, '\n') - p), p);
    return n;
}

#define expect_has(s, want) cr_expect(strstr(s, want) != NULL, "script lacks: %s", want)

static char *draw(tt_ctx *ctx, const tunecase *c, const tt_plot_opts *o, const tt_table *sweep,
                  int want)
{
    tt_table *h = load_part(ctx, c->path, TT_TABLE_TUNE), *sp = load_part(ctx, c->path, TT_TABLE_TUNE_SPACE);
    char *s = NULL;
    int rc = tt_plot_search(ctx, h, sp, sweep, o, &s);
    cr_expect_eq(rc, want, "code %d: %s", rc, tt_errmsg(ctx));
    if (want)
        cr_expect_null(s);
    tt_table_free(h);
    tt_table_free(sp);
    return s;
}

Test(search, script)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean s.t. makespan <= 1.002 * best");
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    char *s = draw(ctx, &c, &o, NULL, 0);
    cr_assert_not_null(s);
    /* the points: exactly the train rows of the search, in order, with
     * their round and feasibility */
    static char lines[4096][128];
    int n = block_lines(s, "$search", lines, 4096);
    int64_t want = 0, hollow = 0;
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        want += tt_tune_row_at(c.tr, r)->phase == 0;
    cr_expect_eq(n, want, "%d points for %lld search rows", n, (long long)want);
    tt_metrics *m = malloc((size_t)tt_tune_rows(c.tr) * sizeof *m);
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        m[r] = tt_tune_row_at(c.tr, r)->metrics;
    for (int i = 0, r = 0; i < n; i++, r++) {
        while (tt_tune_row_at(c.tr, r)->phase != 0)
            r++;
        double x, y;
        int round, feas;
        cr_assert_eq(sscanf(lines[i], "%lf\t%lf\t%d\t%d", &x, &y, &round, &feas), 4, "%s",
                     lines[i]);
        const tt_tune_row *w = tt_tune_row_at(c.tr, r);
        cr_expect_eq(round, w->round, "point %d", i);
        cr_expect_eq(feas, tt_objective_feasible(c.obj, m, tt_tune_rows(c.tr), &w->metrics));
        hollow += !feas;
        /* a log axis: a finite w0 at log10(w0), theta linear */
        if (w->params.w0 != TT_INF)
            cr_expect(fabs(x - log10((double)w->params.w0)) < 1e-9, "x %g for w0 %lld", x,
                      (long long)w->params.w0);
        cr_expect_eq(y, (double)w->params.theta);
    }
    free(m);
    cr_expect_gt(hollow, 0);
    expect_has(s, "'infeasible (hollow)'");
    /* the grid baseline: its phase-1 rows, each a simulation of its own
     * (no trace: no shared forms), counted as simulations */
    int64_t grid = 0;
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        grid += tt_tune_row_at(c.tr, r)->phase == 1 && tt_tune_row_at(c.tr, r)->sim_row == r;
    cr_expect_gt(grid, 1);
    cr_expect_eq(block_lines(s, "$gridbase", lines, 4096), grid);
    char key[96];
    snprintf(key, sizeof key, "'grid baseline (%lld simulations)'", (long long)grid);
    expect_has(s, key);
    /* a key entry a round with its count of the search's simulations */
    int64_t count[16] = {0}, sims = 0;
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        if (tt_tune_row_at(c.tr, r)->phase == 0 && tt_tune_row_at(c.tr, r)->round < 16) {
            cr_expect_eq(tt_tune_row_at(c.tr, r)->sim_row, r);
            count[tt_tune_row_at(c.tr, r)->round]++;
            sims++;
        }
    cr_expect_gt(count[1], 1, "more than one round");
    for (int k = 0; k < 16 && count[k]; k++) {
        snprintf(key, sizeof key, "title 'round %d (%lld simulation%s)'", k, (long long)count[k],
                 count[k] == 1 ? "" : "s");
        expect_has(s, key);
    }
    /* the choice labelled with its objective on train (the file has a test
     * part) in hours (the objective's metric is in seconds, the largest
     * over 2 h) */
    char label[128];
    snprintf(label, sizeof label, "set label 1 'recommended: jct_mean on train = %.4g h' at ",
             tt_tune_row_at(c.tr, c.trow[R_REC])->objective / 3600);
    expect_has(s, label);
    /* strict: w0 = inf and theta = inf (the default, not in the space: an
     * edge row); no-wait: w0 = 0 on the log axis (an edge column) */
    snprintf(label, sizeof label, "'strict consolidation: jct_mean on train = %.4g h'",
             tt_tune_row_at(c.tr, c.trow[R_STRICT])->objective / 3600);
    expect_has(s, label);
    expect_has(s, "'no-wait: jct_mean on train = ");
    expect_has(s, "set xlabel 'w0 [s] (log scale)'");
    expect_has(s, "set ylabel 'theta [permille]'\n");
    expect_has(s, "'0' ");
    expect_has(s, "'inf' ");
    /* the trace and cluster first; too wide for one line: two */
    snprintf(label, sizeof label, "'(refine: %lld simulations in 4 rounds; grid baseline %lld "
             "simulations)'", (long long)sims, (long long)grid);
    expect_has(s, "set title 'x.h5 on 2x8x8: search on train for the least jct_mean over w0 x "
                  "theta'.\"\\n\".");
    expect_has(s, label);
    cr_expect(strstr(s, "projected") == NULL, "two dimensions: no projection");
    free(s);
    tt_ctx_free(ctx);
    free_tune(&c);
}

/* Many rounds: the key holds at most 6 entries for them, each a run of
 * rounds with its count of points (it had one a round: 31 for a tune of
 * tt-tune's default budget), and every round still has its colour. */
Test(search, many_rounds_key)
{
    tunecase c;
    make_tune_sized(&c, two, 2, "jct_mean", 60, 2);
    int64_t count[64] = {0}, total = 0;
    int rounds = 0;
    for (int64_t r = 0; r < tt_tune_rows(c.tr); r++)
        if (tt_tune_row_at(c.tr, r)->phase == 0 && tt_tune_row_at(c.tr, r)->round < 64) {
            int k = tt_tune_row_at(c.tr, r)->round;
            rounds += count[k]++ == 0;
            total++;
        }
    cr_assert_gt(rounds, 8, "%d rounds", rounds);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    char *s = draw(ctx, &c, &o, NULL, 0);
    cr_assert_not_null(s);
    int keys = 0, plotted = 0;
    int64_t keyed = 0;
    for (const char *p = s; (p = strstr(p, "title 'round")); p++) {
        int a, z;
        long long n;
        if (sscanf(p, "title 'rounds %d-%d (%lld)'", &a, &z, &n) == 3 ||
            (sscanf(p, "title 'round %d (%lld)'", &a, &n) == 2 && (z = a) >= 0)) {
            int64_t want = 0;
            for (int k = a; k <= z && k < 64; k++)
                want += count[k];
            cr_expect_eq(n, want, "rounds %d-%d: %lld points, %lld in the file", a, z, n,
                         (long long)want);
            keyed += n;
            keys++;
        }
    }
    for (const char *p = s; (p = strstr(p, "$4 != 0) ? $2 : NaN) with points pt 7")); p++)
        plotted++;
    cr_expect(keys >= 2 && keys <= 6, "%d key entries for %d rounds", keys, rounds);
    cr_expect_eq(keyed, total, "the key counts %lld of %lld points", (long long)keyed,
                 (long long)total);
    cr_expect_eq(plotted, rounds, "%d rounds drawn of %d", plotted, rounds);
    free(s);
    tt_ctx_free(ctx);
    free_tune(&c);
}

Test(search, projection_and_axes)
{
    tunecase c;
    make_tune(&c, three, 3, "jct_mean");
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    /* the first two of the space: w0 x w1, theta projected */
    char *s = draw(ctx, &c, &o, NULL, 0);
    expect_has(s, "over w0 x w1'.\"\\n\".'(");
    expect_has(s, ".\"\\n\".'projected over theta (points that differ only there overlap)'");
    free(s);
    o.x = "theta";
    s = draw(ctx, &c, &o, NULL, 0);
    expect_has(s, "over theta x w0'.\"\\n\".'(");
    expect_has(s, "'projected over w1 (");
    free(s);
    /* y the objective: w1 and theta projected, y in hours */
    o.x = NULL;
    o.y = "objective";
    s = draw(ctx, &c, &o, NULL, 0);
    /* one axis: "over w0", where the title may break the line */
    cr_expect(strstr(s, "over w0 (") || strstr(s, "over w0'"), "title not over w0 alone");
    expect_has(s, "'projected over w1, theta (");
    expect_has(s, "set ylabel 'jct_mean [h]'");
    free(s);
    /* an axis that was not searched: the dimensions listed */
    o.y = "load";
    draw(ctx, &c, &o, NULL, TT_EINVAL);
    char want[256];
    snprintf(want, sizeof want, "axis 'load' is not a searched dimension of '%s' (searched: w0 "
             "w1 theta)", c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    o.y = "w0";
    o.x = "w0";
    draw(ctx, &c, &o, NULL, TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "the two axes are both 'w0'");
    o.x = NULL;
    o.y = NULL;
    o.z = "makespan";
    draw(ctx, &c, &o, NULL, TT_EINVAL);
    tt_ctx_free(ctx);
    free_tune(&c);
}

Test(search, nothing_to_draw)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *h = load_part(ctx, c.path, TT_TABLE_TUNE), *sp = load_part(ctx, c.path, TT_TABLE_TUNE_SPACE);
    cr_assert_eq(tt_table_where(ctx, h, "phase", "2"), 0);
    tt_plot_opts o = opts();
    char *s = NULL;
    cr_expect_eq(tt_plot_search(ctx, h, sp, NULL, &o, &s), TT_EEMPTY);
    cr_expect(strstr(tt_errmsg(ctx), "nothing to draw") != NULL, "%s", tt_errmsg(ctx));
    /* the space is not a history, nor the history a space */
    cr_expect_eq(tt_plot_search(ctx, sp, sp, NULL, &o, &s), TT_EINVAL);
    cr_expect_eq(tt_plot_search(ctx, h, h, NULL, &o, &s), TT_EINVAL);
    tt_table_free(h);
    tt_table_free(sp);
    tt_ctx_free(ctx);
    free_tune(&c);
}

/* A sweep over w0 x theta of the space's values (load fixed with fix, or
 * the default), its jct_mean from the made-up surface. */
static void make_sweep(const char *path, const char *sha, const tt_cluster *cl, const char *fix)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *models = NULL;
    tt_sweep *s = NULL;
    cr_assert_eq(tt_models_default(ctx, &models), 0);
    cr_assert_eq(tt_sweep_create(ctx, models, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0,1,10,100,1000,10000,inf"), 0, "%s",
                 tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_grid(ctx, s, "theta", "1000:5000:5"), 0, "%s", tt_errmsg(ctx));
    if (fix)
        cr_assert_eq(tt_sweep_fix(ctx, s, "load", fix), 0);
    int64_t n = tt_sweep_count(s), idx[64];
    tt_metrics m[64];
    tt_params p[64];
    cr_assert(n <= 64);
    for (int64_t k = 0; k < n; k++) {
        idx[k] = k;
        cr_assert_eq(tt_sweep_params(ctx, s, k, &p[k]), 0);
    }
    synth(NULL, ctx, p, n, m);
    tt_provenance pv = prov(sha);
    tt_sweep_save_args a = {s, cl, models, "x.h5", &pv, n, idx, m, 0, 1, "cpu", 0.0, 0.0, 0};
    cr_assert_eq(tt_sweep_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));
    tt_sweep_free(s);
    tt_models_free(models);
    tt_ctx_free(ctx);
}

Test(search, surface_beneath)
{
    tunecase c;
    make_tune(&c, two, 2, "jct_mean");
    char path[] = "/tmp/tt-test-sweep-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    tt_ctx *ctx = tt_ctx_create();
    tt_plot_opts o = opts();
    make_sweep(path, SHA, &cluster, NULL);
    tt_table *sw = load_part(ctx, path, TT_TABLE_CONFIGS);
    char *s = draw(ctx, &c, &o, sw, 0);
    cr_assert_not_null(s);
    /* 7 x 5 cells; the w0 axis holds the space's 8 values, the sweep's 5
     * others and 0 (an edge): more than 8, tics at round times */
    static char lines[64][128];
    cr_expect_eq(block_lines(s, "$cells1", lines, 64), 35);
    expect_has(s, "plot $cells1 using 5:6:1:2:3:4:7 with boxxyerror");
    expect_has(s, "set xtics out nomirror ('1 s' 0, '10 s' 1, '1 min' 1.77815125, ");
    expect_has(s, ", '0' ");
    /* the sweep's least jct_mean: w0 = 1000 (log1p nearest 6), theta = 3000 */
    expect_has(s, "'least jct_mean of the sweep: ");
    expect_has(s, "\n3\t3000\ne\n");
    /* the split: the heat map is of every job */
    expect_has(s, "the heat map of '");
    expect_has(s, "simulates every job, the search its train jobs [0,10)'");
    expect_has(s, "set cblabel 'jct_mean [h]'");
    free(s);
    o.z = "makespan";
    s = draw(ctx, &c, &o, sw, 0);
    expect_has(s, "set cblabel 'makespan [d]'");
    free(s);
    o.z = NULL;
    tt_table_free(sw);
    /* another trace, another cluster, another load: errors naming both files */
    char want[512];
    make_sweep(path, "0123", &cluster, NULL);
    sw = load_part(ctx, path, TT_TABLE_CONFIGS);
    draw(ctx, &c, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "'%s' and '%s' come from different traces (trace_source_sha256 "
             "0123 and 5f1e0cbb1e6cd5e9)", path, c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    tt_table_free(sw);
    tt_cluster other = {1, 8, 8};
    make_sweep(path, SHA, &other, NULL);
    sw = load_part(ctx, path, TT_TABLE_CONFIGS);
    draw(ctx, &c, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "'%s' and '%s' come from different clusters (cluster 1x8x8 and "
             "2x8x8)", path, c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    tt_table_free(sw);
    make_sweep(path, SHA, &cluster, "3000");
    sw = load_part(ctx, path, TT_TABLE_CONFIGS);
    draw(ctx, &c, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "'%s' simulated load=3000 where '%s' searched with load=1000: "
             "the surface is of other configurations", path, c.path);
    cr_expect_str_eq(tt_errmsg(ctx), want);
    /* an axis the sweep does not vary */
    o.y = "w1";
    tunecase c3;
    make_tune(&c3, three, 3, "jct_mean");
    draw(ctx, &c3, &o, sw, TT_EINVAL);
    snprintf(want, sizeof want, "parameter 'w1' was not swept in '%s' (one value: ", path);
    cr_expect(strncmp(tt_errmsg(ctx), want, strlen(want)) == 0, "%s", tt_errmsg(ctx));
    tt_table_free(sw);
    /* a TSV sweep says nothing of its trace */
    sw = load_part(ctx, "tests/fixtures/plot/plot_sweep.tsv", TT_TABLE_CONFIGS);
    o.y = NULL;
    draw(ctx, &c, &o, sw, TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "does not record its trace_source_sha256") != NULL, "%s",
              tt_errmsg(ctx));
    tt_table_free(sw);
    unlink(path);
    free_tune(&c3);
    free_tune(&c);
    tt_ctx_free(ctx);
}
