/* Rolling re-tuning (tt_tune_rolling_*): the windows cut by submit time
 * (a window without jobs left out), and on a made-up trace whose best w0
 * moves from window to window, every choice, every role's objective on
 * the next window, the best static choice in hindsight and the totals,
 * worked out here by hand; the text and the errors. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"
#include "tune/tuneutil.h"

/* Jobs at 10, 20, 100 (window 0 of width 100 from 10), 350, 360 (window
 * 3), 900 (window 8): windows 1, 2 and 4 to 7 have none. */
static int64_t submit[] = {10, 20, 100, 350, 360, 900}, dur[] = {5, 5, 5, 5, 5, 5};
static int32_t gpus[] = {1, 1, 1, 1, 1, 1}, cls[] = {0, 0, 0, 0, 0, 0};

/* jct_mean 1000 + |w0 - center| on the window (w0 = inf: 5000), the
 * window the one arg points to. */
static const double centers[] = {200, 700, 300};
static int window_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    double c = centers[*(const int *)arg];
    for (int64_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = ps[i].w0 == TT_INF ? 5000 : 1000 + fabs((double)ps[i].w0 - c);
        out[i].makespan = 100;
    }
    return 0;
}

static tt_sim_jobs jobs(void)
{
    return (tt_sim_jobs){.n = 6, .submit = submit, .duration = dur, .gpus = gpus, .cls = cls};
}

Test(rolling, windows_and_roles)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = obj("jct_mean");
    tt_params base;
    tt_params_default(&base);
    tt_tune_dim d;
    cr_assert_eq(tt_tune_dim_parse(NULL, NULL, "w0", "0:900:10", &d), 0);
    tt_sim_jobs j = jobs();
    tt_tune_rolling r;
    cr_assert_eq(tt_tune_rolling_init(ctx, &r, &j, 100, &base, &d, 1, o, NULL, NULL), 0, "%s",
                 tt_errmsg(ctx));
    cr_assert_eq(r.n, 3);
    cr_expect_eq(r.empty, 6, "windows 1, 2, 4 .. 7 have no job: %lld", (long long)r.empty);
    const int64_t start[] = {0, 300, 800}, a[] = {0, 3, 5}, b[] = {3, 5, 6};
    for (int k = 0; k < 3; k++) {
        cr_expect(r.w[k].start == start[k] && r.w[k].end == start[k] + 100, "window %d", k);
        cr_expect(r.w[k].a == a[k] && r.w[k].b == b[k], "window %d: jobs", k);
        cr_expect_eq(r.jobs[k].n, b[k] - a[k]);
        cr_expect_eq(r.jobs[k].submit[0], 0, "each window's submit times start at 0");
    }
    cr_expect_eq(r.jobs[1].submit[1], 10);
    int id[] = {0, 1, 2};
    void *args[] = {&id[0], &id[1], &id[2]};
    tt_tune_opts opts = {TT_TUNE_MODEL, 256, 0, 1, NULL, 0, NULL, NULL, NULL, NULL};
    cr_assert_eq(tt_tune_rolling_run(ctx, &r, &opts, window_eval, args), 0, "%s", tt_errmsg(ctx));
    /* each window's choice is its own centre, exact (10 points fit) */
    for (int k = 0; k < 3; k++) {
        const tt_tune_row *c = tt_tune_row_at(r.t[k], r.w[k].choice);
        cr_expect_eq(c->params.w0, (int64_t)centers[k], "window %d: w0 %lld", k,
                     (long long)c->params.w0);
        cr_expect_eq(c->objective, 1000);
        cr_expect(r.w[k].exact && r.w[k].sims_search == 10);
    }
    /* on window 1 (centre 700): window 0's 200 gives 1500, strict 5000;
     * on window 2 (centre 300): window 1's 700 gives 1400, window 0's 1100.
     * The best static w0 minimises 2 |w - 700| + 1 |w - 300|: 700 (1000
     * on window 1, 1400 on window 2) */
    const double want[3][TT_ROLL_N] = {{0}, {1500, 1000, 5000, 1500}, {1400, 1400, 5000, 1100}};
    for (int k = 1; k < 3; k++)
        for (int q = 0; q < TT_ROLL_N; q++)
            cr_expect_eq(tt_tune_row_at(r.t[k], r.w[k].row[q])->objective, want[k][q],
                         "window %d, %s: %g", k, tt_tune_roll_names[q],
                         tt_tune_row_at(r.t[k], r.w[k].row[q])->objective);
    tt_params hs;
    tt_tune_point(r.t[0], r.hindsight_point, &hs);
    cr_expect_eq(hs.w0, 700);
    cr_expect_eq(r.total_jobs, 3);
    const double tot[TT_ROLL_N] = {(2 * 1500 + 1400) / 3.0, (2 * 1000 + 1400) / 3.0, 5000,
                                   (2 * 1500 + 1100) / 3.0};
    for (int q = 0; q < TT_ROLL_N; q++)
        cr_expect(fabs(r.total[q] - tot[q]) < 1e-9, "total %s: %.9f", tt_tune_roll_names[q],
                  r.total[q]);
    /* the search ran every point; strict (not in the grid) once a window */
    cr_expect(r.sims_search == 30 && r.sims_single == 2 && r.sims_hindsight == 0,
              "sims %lld %lld %lld", (long long)r.sims_search, (long long)r.sims_single,
              (long long)r.sims_hindsight);
    /* the text */
    char buf[2048];
    tt_tune_rolling_verdict(&r, "100s", buf, sizeof buf);
    cr_expect_str_eq(buf, "over the 2 windows after the first (days 0.003472 to 0.01042, 3 jobs) "
                          "re-tuning every 100s gives jct_mean 1466.666667 (the windows' mean "
                          "weighted by their jobs): 29.41 % worse than the best static choice "
                          "in hindsight (1133.333333), 70.67 % better than strict "
                          "consolidation (5000.000000) and 7.32 % worse than the first "
                          "window's choice (1366.666667): re-tuning did not pay off against "
                          "the first window's choice");
    tt_tune_rolling_window_note(&r, 1, buf, sizeof buf);
    cr_expect_str_eq(buf, "", "an exact search says nothing");
    FILE *f = tmpfile();
    cr_assert(f);
    cr_assert_eq(tt_tune_rolling_tsv(f, &r, NULL), 0);
    rewind(f);
    char text[4096] = "";
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    cr_expect_str_eq(text,
                     "window\tstart\tend\tjobs\tw0\tobjective\texact\tsims\tnext_jobs\t"
                     "next_choice\tnext_hindsight\tnext_strict\tnext_first\n"
                     "0\t0\t100\t3\t200\t1000.000000\t1\t10\t2\t1500.000000\t1000.000000\t"
                     "5000.000000\t1500.000000\n"
                     "1\t300\t400\t2\t700\t1000.000000\t1\t10\t1\t1400.000000\t1400.000000\t"
                     "5000.000000\t1100.000000\n"
                     "2\t800\t900\t1\t300\t1000.000000\t1\t10\t\t\t\t\t\n"
                     "total\t0\t900\t6\t\t\t3\t30\t3\t1466.666667\t1133.333333\t5000.000000\t"
                     "1366.666667\n");
    tt_tune_rolling_free(&r);
    tt_tune_rolling_free(&r); /* twice: nothing left */
    /* a search that is not exact says so, window by window */
    cr_assert_eq(tt_tune_rolling_init(ctx, &r, &j, 100, &base, &d, 1, o, NULL, NULL), 0);
    opts.budget = 4;
    cr_assert_eq(tt_tune_rolling_run(ctx, &r, &opts, window_eval, args), 0, "%s", tt_errmsg(ctx));
    cr_expect(!r.w[1].exact && r.w[1].forms == 10);
    tt_tune_rolling_window_note(&r, 1, buf, sizeof buf);
    cr_expect(strncmp(buf, "window 1 (days 0.003472 to 0.00463): not exact: the search ran 4 of "
                           "the grid's 10 distinct simulations (--budget 10 makes it exact)",
                      strlen("window 1 (days 0.003472 to 0.00463): not exact: the search ran 4 "
                             "of the grid's 10 distinct simulations (--budget 10 makes it "
                             "exact)")) == 0, "%s", buf);
    /* the best static choice is still over the whole grid */
    tt_tune_point(r.t[0], r.hindsight_point, &hs);
    cr_expect_eq(hs.w0, 700);
    tt_tune_rolling_free(&r);
    tt_tune_dim_free(&d);
    tt_objective_free(o);
    tt_ctx_free(ctx);
}

Test(rolling, errors)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = obj("jct_mean"), *oc = obj("jct_mean s.t. makespan <= 1.05 * best");
    tt_params base;
    tt_params_default(&base);
    tt_tune_dim d[3];
    cr_assert_eq(tt_tune_dim_parse(NULL, NULL, "w0", "0:900:10", &d[0]), 0);
    tt_sim_jobs j = jobs();
    tt_tune_rolling r;
    cr_expect_eq(tt_tune_rolling_init(ctx, &r, &j, 1000, &base, d, 1, o, NULL, NULL), TT_ERANGE);
    cr_expect_str_eq(tt_errmsg(ctx), "the trace's 6 jobs are submitted over 14.8 minutes: one window of "
                                     "16.7 minutes, none to apply its choice to");
    cr_expect_eq(tt_tune_rolling_init(ctx, &r, &j, 100, &base, d, 1, oc, NULL, NULL), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "has conditions"), "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_tune_rolling_init(ctx, &r, &j, 0, &base, d, 1, o, NULL, NULL), TT_EINVAL);
    /* a grid past 2^18 points: the best static choice would look at each */
    cr_assert_eq(tt_tune_dim_parse(NULL, NULL, "w1", "0:999:1000", &d[1]), 0);
    cr_assert_eq(tt_tune_dim_parse(NULL, NULL, "theta", "1000:1299:300", &d[2]), 0);
    cr_expect_eq(tt_tune_rolling_init(ctx, &r, &j, 100, &base, d, 3, o, NULL, NULL), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "the grid has 3000000 points"), "%s", tt_errmsg(ctx));
    cr_expect_eq(r.n, 0);
    tt_tune_rolling_free(&r);
    for (int k = 0; k < 3; k++)
        tt_tune_dim_free(&d[k]);
    tt_objective_free(o);
    tt_objective_free(oc);
    tt_ctx_free(ctx);
}
