/* The size study (libcore/sweep/size.c): the target's grammar, the
 * smallest size that meets it and whether it is stable (on rows made by
 * hand), the --nodes rule, the policies' order of settings, and a run
 * whose metrics equal tt_simulate's for each policy and size. */
#include <math.h>

#include "testutil.h"
#include "tt/size.h"

Test(size, target_parse)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_size_target t;
    char buf[128];
    cr_assert_eq(tt_size_target_parse(ctx, "jct_p99<=3600", &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(tt_metric_names[t.metric], "jct_p99");
    cr_expect_eq(t.ge, 0);
    cr_expect_eq(t.value, 3600.0);
    tt_size_target_format(&t, buf, sizeof buf);
    cr_expect_str_eq(buf, "jct_p99<=3600");
    cr_assert_eq(tt_size_target_parse(ctx, "util>=0.75", &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(tt_metric_names[t.metric], "util");
    cr_expect_eq(t.ge, 1);
    cr_expect_eq(t.value, 0.75);
    tt_size_target_format(&t, buf, sizeof buf);
    cr_expect_str_eq(buf, "util>=0.75");
    /* every metric of the library's list is a target, the last one too */
    snprintf(buf, sizeof buf, "%s<=1", tt_metric_names[TT_NMETRICS - 1]);
    cr_expect_eq(tt_size_target_parse(ctx, buf, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(t.metric, TT_NMETRICS - 1);
    static const struct { const char *s, *msg; } bad[] = {
        {"jct_p99", "expected METRIC<=VALUE"},   {"jct_p99<3600", "expected METRIC<=VALUE"},
        {"jct_p99=<3600", "expected METRIC<=VALUE"}, {"jct_p98<=3600", "unknown metric 'jct_p98'"},
        {"<=3600", "unknown metric ''"},         {"jct_p99<=", "expected a finite number"},
        {"jct_p99<=inf", "expected a finite number"}, {"jct_p99<=1h", "expected a finite number"},
        {"jct_p99 <=3600", "unknown metric 'jct_p99 '"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(tt_size_target_parse(ctx, bad[i].s, &t), TT_EINVAL, "%s", bad[i].s);
        cr_expect(strstr(tt_errmsg(ctx), bad[i].msg), "%s: %s", bad[i].s, tt_errmsg(ctx));
    }
    cr_expect(strstr(tt_errmsg(ctx), "the metrics: makespan, jct_mean"), "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

Test(size, meets)
{
    tt_size_target le = {4 /* jct_p99 */, 0, 100}, ge = {14 /* util */, 1, 0.5};
    cr_assert_str_eq(tt_metric_names[4], "jct_p99");
    cr_assert_str_eq(tt_metric_names[14], "util");
    tt_metrics m;
    memset(&m, 0, sizeof m);
    m.jct_p99 = 100;
    m.util = 0.5;
    cr_expect_eq(tt_size_meets(&le, &m), 1); /* equal meets, both ways */
    cr_expect_eq(tt_size_meets(&ge, &m), 1);
    m.jct_p99 = 101;
    m.util = 0.4999;
    cr_expect_eq(tt_size_meets(&le, &m), 0);
    cr_expect_eq(tt_size_meets(&ge, &m), 0);
    m.jct_p99 = TT_METRIC_NONE; /* cannot be computed: misses, whichever way */
    m.util = NAN;
    cr_expect_eq(tt_size_meets(&le, &m), 0);
    cr_expect_eq(tt_size_meets(&ge, &m), 0);
}

/* meets -> smallest and stable, worked by hand */
static void expect_smallest(const int *meets, int n, int want, const int *want_stable)
{
    int st[16];
    cr_expect_eq(tt_size_smallest(meets, n, st), want);
    for (int i = 0; i < n; i++)
        cr_expect_eq(st[i], want_stable[i], "stable[%d] = %d", i, st[i]);
}

Test(size, smallest_and_stable)
{
    /* monotone: smallest 2, stable from there */
    expect_smallest((const int[]){0, 0, 1, 1, 1}, 5, 2, (const int[]){0, 0, 1, 1, 1});
    /* meets at 1, misses at 2, meets again: smallest 1 but not stable; 3 is */
    expect_smallest((const int[]){0, 1, 0, 1, 1}, 5, 1, (const int[]){0, 0, 0, 1, 1});
    /* only the smallest meets */
    expect_smallest((const int[]){1, 0, 0}, 3, 0, (const int[]){0, 0, 0});
    /* none meets */
    expect_smallest((const int[]){0, 0, 0}, 3, -1, (const int[]){0, 0, 0});
    /* every size; and the largest alone, which is stable */
    expect_smallest((const int[]){1, 1}, 2, 0, (const int[]){1, 1});
    expect_smallest((const int[]){0, 0, 1}, 3, 2, (const int[]){0, 0, 1});
    cr_expect_eq(tt_size_smallest((const int[]){0, 1}, 2, NULL), 1);
    cr_expect_eq(tt_size_smallest(NULL, 0, NULL), -1);
}

Test(size, nodes)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_cluster shape = {4, 1, 8}, *c = NULL;
    int n = 0;
    cr_assert_eq(tt_size_nodes(ctx, &shape, "8:64:8", &c, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 8);
    for (int i = 0; i < n; i++) { /* 8, 16, ..., 64 nodes over 4 racks */
        cr_expect_eq(c[i].racks, 4);
        cr_expect_eq(c[i].nodes_per_rack, 2 * (i + 1));
        cr_expect_eq(c[i].gpus_per_node, 8);
    }
    free(c);
    /* a list, sorted by GPUs; A:B:N rounds as the sweep's grids (2, 4.5 -> 5, 7) */
    shape = (tt_cluster){1, 99, 4};
    cr_assert_eq(tt_size_nodes(ctx, &shape, "12,3,7", &c, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 3);
    cr_expect_eq(c[0].nodes_per_rack, 3);
    cr_expect_eq(c[1].nodes_per_rack, 7);
    cr_expect_eq(c[2].nodes_per_rack, 12);
    cr_expect_eq(tt_size_gpus(&c[2]), 48);
    free(c);
    cr_assert_eq(tt_size_nodes(ctx, &shape, "2:7:3", &c, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 3);
    cr_expect_eq(c[1].nodes_per_rack, 5);
    free(c);
    shape = (tt_cluster){4, 1, 8};
    static const struct { const char *s, *msg; } bad[] = {
        {"6,8", "6 nodes cannot be spread evenly over the 4 racks"},
        {"0:8:2", "expected A:B:N"},
        {"4:8:0", "expected A:B:N"},
        {"4,x", "a list of node counts"},
        {"", "no node count"},
        {"8196", "more than 65536 GPUs"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(tt_size_nodes(ctx, &shape, bad[i].s, &c, &n), TT_EINVAL, "%s", bad[i].s);
        cr_expect(strstr(tt_errmsg(ctx), bad[i].msg), "%s: %s", bad[i].s, tt_errmsg(ctx));
        cr_expect_null(c);
    }
    tt_ctx_free(ctx);
}

Test(size, sort_is_stable)
{
    tt_cluster c[] = {{2, 4, 8}, {1, 2, 8}, {1, 8, 8}, {4, 1, 4}};
    tt_size_sort(c, 4);
    cr_expect_eq(tt_size_gpus(&c[0]), 16);
    cr_expect_eq(c[1].racks, 4); /* 16 GPUs, given after... */
    cr_expect_eq(c[2].racks, 2); /* ...64 GPUs: 2x4x8 before 1x8x8, as given */
    cr_expect_eq(c[3].racks, 1);
}

Test(size, policies)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(ctx, &m), 0);
    tt_size_policy p, want;
    const char *fixed[] = {"w0=100", "restart=30"};
    /* a preset name: the label and the preset, then the fixed values */
    cr_assert_eq(tt_size_policy_parse(ctx, m, "tiresias-dlas", fixed, 2, &p), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_str_eq(p.label, "tiresias-dlas");
    tt_params_default(&want.p);
    cr_assert_eq(tt_params_preset(ctx, &want.p, "tiresias-dlas"), 0);
    want.p.w0 = 100;
    want.p.restart = 30;
    cr_expect_eq(memcmp(&p.p, &want.p, sizeof p.p), 0);
    /* a label and settings: the preset first wherever it is written, the
     * fixed values next, the policy's own last (its w0 wins) */
    cr_assert_eq(tt_size_policy_parse(ctx, m, " mine : -p w0=600 -ptheta=1500 -p preset=themis",
                                      fixed, 2, &p), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(p.label, "mine");
    tt_params_default(&want.p);
    cr_assert_eq(tt_params_preset(ctx, &want.p, "themis"), 0);
    want.p.restart = 30;
    want.p.w0 = 600;
    want.p.theta = 1500;
    cr_expect_eq(memcmp(&p.p, &want.p, sizeof p.p), 0);
    static const struct { const char *s, *msg; } bad[] = {
        {"nosuch", "-P 'nosuch': "},
        {"x: -p w0", "expected -p NAME=VALUE"},
        {"x: w0=1 -q", "'-q': expected -p NAME=VALUE"},
        {"x: -p", "-p without NAME=VALUE"},
        {"x: -p nosuch=1", "-P 'x: -p nosuch=1': "},
        {"x: -p w0=-5", "-P 'x: -p w0=-5': "},
        {": -p w0=1", "the label must be"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(tt_size_policy_parse(ctx, m, bad[i].s, NULL, 0, &p), TT_EINVAL, "%s",
                     bad[i].s);
        cr_expect(strstr(tt_errmsg(ctx), bad[i].msg), "%s: %s", bad[i].s, tt_errmsg(ctx));
    }
    tt_models_free(m);
    tt_ctx_free(ctx);
}

/* tt_size_run puts policy p on size s at p * nsizes + s, each equal to its
 * own tt_simulate. */
Test(size, run_equals_simulate)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(ctx, &m), 0);
    tt_trace *tr = ingest_text(ctx, "csv",
                               "job_id,submit_time,duration,num_gpus\n"
                               "a,0,100,4\nb,10,50,8\nc,20,300,2\nd,30,20,16\ne,40,60,1\n");
    tt_sim_jobs j;
    cr_assert_eq(tt_sim_jobs_from_trace(ctx, tr, m, &j), 0, "%s", tt_errmsg(ctx));
    tt_cluster sizes[] = {{1, 1, 8}, {1, 2, 8}, {2, 2, 8}};
    tt_size_policy pol[2];
    cr_assert_eq(tt_size_policy_parse(ctx, m, "yarn-cs", NULL, 0, &pol[0]), 0);
    cr_assert_eq(tt_size_policy_parse(ctx, m, "w: -p w0=0 -p order=sjf", NULL, 0, &pol[1]), 0);
    tt_metrics got[6], one;
    tt_run_opts o = {.threads = 2};
    cr_assert_eq(tt_size_run(ctx, sizes, 3, pol, 2, m, &j, &o, got), 0, "%s", tt_errmsg(ctx));
    for (int p = 0; p < 2; p++)
        for (int s = 0; s < 3; s++) {
            cr_assert_eq(tt_simulate(ctx, &sizes[s], &pol[p].p, m, &j, NULL, &one, NULL), 0);
            cr_expect_eq(memcmp(&got[p * 3 + s], &one, sizeof one), 0, "policy %d size %d", p, s);
        }
    /* the 16-GPU job is rejected on the smaller clusters only */
    cr_expect_eq(got[0].rejected, 1);
    cr_expect_eq(got[2].rejected, 0);
    /* 6 threads for 2 policies: 3 sizes at once, each with 2 threads;
     * the same metrics in the same places */
    tt_metrics par[6];
    o.threads = 6;
    cr_assert_eq(tt_size_run(ctx, sizes, 3, pol, 2, m, &j, &o, par), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(memcmp(par, got, sizeof got), 0, "sizes at once differ from one at a time");
    /* a size that fails (a policy the run refuses there) is named, the
     * lowest of the failing ones */
    tt_cluster bad[] = {{1, 1, 8}, {1, 1, 0}, {1, 1, 0}};
    cr_expect_neq(tt_size_run(ctx, bad, 3, pol, 2, m, &j, &o, par), 0);
    cr_expect(strstr(tt_errmsg(ctx), "cluster 1x1x0") != NULL, "%s", tt_errmsg(ctx));
    tt_sim_jobs_free(&j);
    tt_trace_free(tr);
    tt_models_free(m);
    tt_ctx_free(ctx);
}
