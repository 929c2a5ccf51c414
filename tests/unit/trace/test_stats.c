/* Trace characterisation: every expected number below is worked out by
 * hand from the small traces built here (see the comments), or taken from
 * the independent counts in FORMATS.md for the real Philly CSV. */
#include "base/radix.h"
#include "testutil.h"
#include "tt/error.h"
#include "tt/stats.h"

static void add(tt_trace *t, int64_t submit, int64_t dur, int32_t gpus, int32_t milli,
                const char *vc, const char *user)
{
    tt_job j = tt_job_empty();
    j.submit = submit;
    j.duration = dur;
    j.gpus = gpus;
    j.gpu_milli = milli;
    j.vc = vc;
    j.user = user;
    cr_assert_eq(tt_trace_append(t, &j), 0);
}

/* Five jobs, appended out of order and sorted:
 *   submit dur gpus milli vc user  gpu_s  offset  end offset
 *   100    25  2    -     a  u1     50     0       25
 *   103     0  1    500   -  u2      0     3        3
 *   110     5  4    -     b  u1     20    10       15
 *   110    40  1    250   a  -      40    10       50
 *   131     9  8    -     b  u3     72    31       40
 */
static tt_trace *five(void)
{
    tt_trace *t = tt_trace_create();
    cr_assert(t);
    add(t, 131, 9, 8, 0, "b", "u3");
    add(t, 110, 5, 4, 0, "b", "u1");
    add(t, 100, 25, 2, 0, "a", "u1");
    add(t, 110, 40, 1, 250, "a", NULL);
    add(t, 103, 0, 1, 500, NULL, "u2");
    cr_assert_eq(tt_trace_sort(t), 0);
    t->prov.duplicates = 7;
    return t;
}

Test(stats, summary_by_hand)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = five();
    tt_stats_summary s;
    cr_assert_eq(tt_stats_summary_get(ctx, t, &s), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(s.jobs, 5);
    cr_expect_eq(s.gpu_s, 182);           /* 50 + 0 + 20 + 40 + 72 */
    cr_expect_eq(s.gpu_milli_s, 152000);  /* 2000*25 + 4000*5 + 250*40 + 8000*9 */
    cr_expect_eq(s.first_submit, 100);
    cr_expect_eq(s.last_submit, 131);
    cr_expect_eq(s.span_s, 31);
    cr_expect_eq(s.users, 3);
    cr_expect_eq(s.vcs, 2);
    cr_expect_eq(s.duplicates, 7);
    cr_expect_eq(s.gpus_sum, 16);
    cr_expect_eq(s.max_gpus, 8);
    cr_expect_eq(s.duration_sum, 79);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, quantiles_nearest_rank)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = five();
    /* ranks for n = 5: p0 1, p10 1, p25 2, p50 3, p75 4, p90 5, p99 5, p100 5;
     * for n = 4: 1, 1, 1, 2, 3, 4, 4, 4 */
    static const int64_t want[TT_STATS_NQUANTITY][TT_STATS_NPCT] = {
        {0, 0, 5, 9, 25, 40, 40, 40},  /* durations 0 5 9 25 40 */
        {1, 1, 1, 2, 4, 8, 8, 8},      /* gpus 1 1 2 4 8 */
        {0, 0, 0, 3, 7, 21, 21, 21},   /* interarrivals 3 7 0 21 -> 0 3 7 21 */
        {0, 0, 20, 40, 50, 72, 72, 72} /* gpu_s 0 20 40 50 72 */
    };
    static const int64_t n[] = {5, 5, 4, 5}, sum[] = {79, 16, 31, 182};
    for (int q = 0; q < TT_STATS_NQUANTITY; q++) {
        tt_stats_dist d;
        cr_assert_eq(tt_stats_dist_get(ctx, t, q, &d), 0, "%s", tt_errmsg(ctx));
        cr_expect_eq(d.n, n[q], "%s", tt_stats_quantity_name(q));
        cr_expect_eq(d.sum, sum[q], "%s", tt_stats_quantity_name(q));
        for (int k = 0; k < TT_STATS_NPCT; k++)
            cr_expect_eq(d.q[k], want[q][k], "%s p%d: %lld", tt_stats_quantity_name(q),
                         tt_stats_pct[k], (long long)d.q[k]);
    }
    tt_stats_dist d;
    cr_expect_eq(tt_stats_dist_get(ctx, t, TT_STATS_NQUANTITY, &d), TT_EINVAL);
    cr_expect_str_eq(tt_stats_quantity_name(TT_STATS_INTERARRIVAL), "interarrival_s");
    cr_expect_null(tt_stats_quantity_name(-1));
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, one_job_has_no_interarrival)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    add(t, 5, 7, 3, 0, NULL, NULL);
    tt_stats_dist d;
    cr_assert_eq(tt_stats_dist_get(ctx, t, TT_STATS_INTERARRIVAL, &d), 0);
    cr_expect_eq(d.n, 0);
    cr_assert_eq(tt_stats_dist_get(ctx, t, TT_STATS_GPU_S, &d), 0);
    cr_expect_eq(d.n, 1);
    cr_expect_eq(d.q[0], 21);
    cr_expect_eq(d.q[TT_STATS_NPCT - 1], 21);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, rank)
{
    cr_expect_eq(tt_stats_rank(5, 50), 3);
    cr_expect_eq(tt_stats_rank(4, 25), 1);
    cr_expect_eq(tt_stats_rank(4, 26), 2);
    cr_expect_eq(tt_stats_rank(100, 99), 99);
    cr_expect_eq(tt_stats_rank(200, 99), 198);
    cr_expect_eq(tt_stats_rank(201, 99), 199); /* ceil(198.99) */
    cr_expect_eq(tt_stats_rank(1, 0), 1);
    cr_expect_eq(tt_stats_rank(1, 100), 1);
    cr_expect_eq(tt_stats_rank(7, 100), 7);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

Test(stats, radix_sort_matches_qsort)
{
    enum { N = 5000 };
    static int64_t a[N], b[N];
    uint64_t s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        /* a mix of small, negative and huge values, with repeats */
        int64_t v = (int64_t)(s >> 1);
        a[i] = i % 3 == 0 ? v : i % 3 == 1 ? -(v >> (i % 60)) : (int64_t)(i % 17);
        b[i] = a[i];
    }
    a[0] = INT64_MIN;
    b[0] = INT64_MIN;
    a[1] = INT64_MAX;
    b[1] = INT64_MAX;
    cr_assert_eq(tt_radix_sort_i64(a, NULL, N), 0);
    qsort(b, N, sizeof b[0], cmp_i64);
    cr_expect_arr_eq(a, b, sizeof a);
    int64_t same[3] = {4, 4, 4};
    cr_expect_eq(tt_radix_sort_i64(same, NULL, 3), 0);
    cr_expect(same[0] == 4 && same[2] == 4);
}

/* The payload moves with its key and equal keys keep their order, after an
 * odd number of byte passes (keys differ in one byte) and an even one. */
Test(stats, radix_sort_carries_payload_stably)
{
    int64_t one[6] = {3, 1, 3, 2, 1, 3}, two[6] = {0x300, 1, 0x300, 0x201, 1, 0x300};
    int64_t *keys[2] = {one, two};
    for (int k = 0; k < 2; k++) {
        int64_t val[6] = {0, 1, 2, 3, 4, 5};
        cr_assert_eq(tt_radix_sort_i64(keys[k], val, 6), 0);
        const int64_t want[6] = {1, 4, 3, 0, 2, 5};
        cr_expect_arr_eq(val, want, sizeof want, "case %d", k);
        for (int i = 1; i < 6; i++)
            cr_expect(keys[k][i - 1] <= keys[k][i], "case %d sorted", k);
    }
}

Test(stats, by_gpus_ascending)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = five();
    tt_stats_group *g;
    int64_t n;
    cr_assert_eq(tt_stats_by_gpus(ctx, t, &g, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 4);
    /* 1 GPU: jobs at 103 (0 s) and 110 (40 s); then 2, 4 and 8 GPUs */
    static const int64_t key[] = {1, 2, 4, 8}, jobs[] = {2, 1, 1, 1}, gs[] = {40, 50, 20, 72};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(g[i].key, key[i]);
        cr_expect_eq(g[i].jobs, jobs[i]);
        cr_expect_eq(g[i].gpu_s, gs[i]);
        cr_expect_null(g[i].name);
    }
    free(g);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, by_gpus_many_counts)
{
    /* 300 distinct counts (the map grows several times), each k GPUs for
     * k jobs of 1 s: counts 1..300 ascending with k jobs and k*k GPU-s */
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    for (int k = 300; k >= 1; k--)
        for (int r = 0; r < k; r++)
            add(t, r, 1, k, 0, NULL, NULL);
    cr_assert_eq(tt_trace_sort(t), 0);
    tt_stats_group *g;
    int64_t n;
    cr_assert_eq(tt_stats_by_gpus(ctx, t, &g, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 300);
    for (int i = 0; i < 300; i++) {
        cr_expect_eq(g[i].key, i + 1);
        cr_expect_eq(g[i].jobs, i + 1);
        cr_expect_eq(g[i].gpu_s, (int64_t)(i + 1) * (i + 1));
    }
    free(g);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, by_vc_descending)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = five();
    tt_stats_group *g;
    int64_t n;
    cr_assert_eq(tt_stats_by_vc(ctx, t, &g, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 3);
    /* b: 20 + 72 = 92, a: 50 + 40 = 90, no VC: 0 */
    cr_expect_str_eq(g[0].name, "b");
    cr_expect_eq(g[0].jobs, 2);
    cr_expect_eq(g[0].gpu_s, 92);
    cr_expect_str_eq(g[1].name, "a");
    cr_expect_eq(g[1].jobs, 2);
    cr_expect_eq(g[1].gpu_s, 90);
    cr_expect_null(g[2].name);
    cr_expect_eq(g[2].key, -1);
    cr_expect_eq(g[2].jobs, 1);
    cr_expect_eq(g[2].gpu_s, 0);
    cr_expect_eq(g[0].key, tt_strtab_find(t->vcs, "b"));
    free(g);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, by_vc_ties_by_name)
{
    /* equal GPU-seconds: no VC sorts as "-", before "c" and "x" */
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    add(t, 0, 10, 1, 0, "x", NULL);
    add(t, 1, 5, 2, 0, "c", NULL);
    add(t, 2, 10, 1, 0, NULL, NULL);
    add(t, 3, 1, 1, 0, "zz", NULL);
    tt_stats_group *g;
    int64_t n;
    cr_assert_eq(tt_stats_by_vc(ctx, t, &g, &n), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(n, 4);
    cr_expect_null(g[0].name);
    cr_expect_str_eq(g[1].name, "c");
    cr_expect_str_eq(g[2].name, "x");
    cr_expect_str_eq(g[3].name, "zz");
    free(g);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, load_bins_by_hand)
{
    /* bin 10 from 100: the last busy second is offset 49 (job 110+40),
     * so 5 bins. GPU-seconds per bin:
     *   job 100 (2 GPUs, 0..25): 20 | 20 | 10          (partial, full, partial)
     *   job 110 (4 GPUs, 10..15):      20
     *   job 110 (1 GPU, 10..50):       10 | 10 | 10 | 10 (ends on a boundary)
     *   job 131 (8 GPUs, 31..40):                 72
     *   total:                    20 | 50 | 20 | 82 | 10 = 182 */
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = five();
    tt_stats_load l;
    cr_assert_eq(tt_stats_load_get(ctx, t, 10, 1000, &l), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(l.nbins, 5);
    cr_expect_eq(l.start, 100);
    cr_expect_eq(l.bin, 10);
    static const int64_t gs[] = {20, 50, 20, 82, 10}, sub[] = {2, 2, 0, 1, 0},
                         sg[] = {3, 5, 0, 8, 0};
    for (int b = 0; b < 5; b++) {
        cr_expect_eq(l.gpu_s[b], gs[b], "bin %d: %lld", b, (long long)l.gpu_s[b]);
        cr_expect_eq(l.submitted[b], sub[b], "bin %d", b);
        cr_expect_eq(l.submitted_gpus[b], sg[b], "bin %d", b);
    }
    tt_stats_load_free(&l);
    cr_expect_null(l.gpu_s);

    /* one bin holds everything */
    cr_assert_eq(tt_stats_load_get(ctx, t, 1000, 1000, &l), 0);
    cr_expect_eq(l.nbins, 1);
    cr_expect_eq(l.gpu_s[0], 182);
    cr_expect_eq(l.submitted[0], 5);
    cr_expect_eq(l.submitted_gpus[0], 16);
    tt_stats_load_free(&l);

    /* 1 s bins: the GPUs busy in each second */
    cr_assert_eq(tt_stats_load_get(ctx, t, 1, 1000, &l), 0);
    cr_assert_eq(l.nbins, 50);
    int64_t total = 0;
    for (int b = 0; b < 50; b++)
        total += l.gpu_s[b];
    cr_expect_eq(total, 182);
    cr_expect_eq(l.gpu_s[0], 2);   /* job 100 */
    cr_expect_eq(l.gpu_s[3], 2);   /* job 103 runs 0 s */
    cr_expect_eq(l.gpu_s[10], 7);  /* 2 + 4 + 1 */
    cr_expect_eq(l.gpu_s[15], 3);  /* the 4-GPU job ended at 15 */
    cr_expect_eq(l.gpu_s[25], 1);  /* job 100 ended at 25 */
    cr_expect_eq(l.gpu_s[31], 9);  /* 1 + 8 */
    cr_expect_eq(l.gpu_s[40], 1);  /* job 131 ended at 40 */
    cr_expect_eq(l.gpu_s[49], 1);
    cr_expect_eq(l.submitted[10], 2);
    cr_expect_eq(l.submitted_gpus[31], 8);
    tt_stats_load_free(&l);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, load_zero_durations_and_offsets)
{
    /* bins start at the first submit, not at a multiple of the bin: jobs
     * at 7 and 16 with bin 10 fall in one bin [7, 17); the job at 17 of
     * 0 s still needs a second bin, and nothing else does */
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    add(t, 7, 3, 1, 0, NULL, NULL);
    add(t, 16, 1, 2, 0, NULL, NULL);
    add(t, 17, 0, 5, 0, NULL, NULL);
    tt_stats_load l;
    cr_assert_eq(tt_stats_load_get(ctx, t, 10, 10, &l), 0);
    cr_assert_eq(l.nbins, 2);
    cr_expect_eq(l.submitted[0], 2);
    cr_expect_eq(l.submitted[1], 1);
    cr_expect_eq(l.submitted_gpus[1], 5);
    cr_expect_eq(l.gpu_s[0], 5); /* 1 x 3 + 2 x 1 */
    cr_expect_eq(l.gpu_s[1], 0);
    tt_stats_load_free(&l);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Durations in training steps (gavel) tell no busy second: no offered
 * load (gpu_s NULL) and bins up to the last submit only, where 100000
 * steps read as seconds made 10,001 bins of 10 s. The shared refusal. */
Test(stats, load_of_steps_is_submissions_only)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    add(t, 0, 100000, 4, 0, NULL, NULL);
    add(t, 13, 250, 1, 0, NULL, NULL);
    cr_expect(tt_trace_in_seconds(t));
    cr_expect_eq(tt_trace_need_seconds(ctx, t, TT_EFORMAT, "drawn"), 0);
    cr_assert_eq(tt_prov_set(&t->prov.duration_unit, "steps"), 0);
    cr_expect(!tt_trace_in_seconds(t));
    cr_expect_eq(tt_trace_need_seconds(ctx, t, TT_EFORMAT, "drawn"), TT_EFORMAT);
    cr_expect_str_eq(tt_errmsg(ctx), "durations are in steps, not seconds (duration_unit): the "
                                     "trace cannot be drawn as it is");
    tt_stats_load l;
    cr_assert_eq(tt_stats_load_get(ctx, t, 10, 100000, &l), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(l.nbins, 2);
    cr_expect_null(l.gpu_s);
    cr_expect(l.submitted[0] == 1 && l.submitted[1] == 1 && l.submitted_gpus[0] == 4);
    tt_stats_load_free(&l);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, load_bad_bins)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = five();
    tt_stats_load l;
    cr_expect_eq(tt_stats_load_get(ctx, t, 0, 1000, &l), TT_EINVAL);
    cr_expect_eq(tt_stats_load_get(ctx, t, -5, 1000, &l), TT_EINVAL);
    /* 1 s bins need 50 */
    cr_expect_eq(tt_stats_load_get(ctx, t, 1, 49, &l), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "50 bins") && strstr(tt_errmsg(ctx), "larger bin"), "%s",
              tt_errmsg(ctx));
    cr_expect_null(l.gpu_s);
    cr_assert_eq(tt_stats_load_get(ctx, t, 1, 50, &l), 0);
    tt_stats_load_free(&l);
    tt_stats_load_free(NULL);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, broken_traces)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_stats_summary s;
    tt_trace *t = tt_trace_create();
    cr_expect_eq(tt_stats_summary_get(ctx, t, &s), TT_EEMPTY);
    add(t, 10, 1, 1, 0, NULL, NULL);
    add(t, 5, 1, 1, 0, NULL, NULL); /* not sorted */
    cr_expect_eq(tt_stats_summary_get(ctx, t, &s), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "job 1"), "%s", tt_errmsg(ctx));
    tt_trace_free(t);

    t = tt_trace_create();
    add(t, 0, INT64_MAX / 4, 8, 0, NULL, NULL); /* 8 x 2^61 GPU-seconds */
    tt_stats_group *g;
    int64_t n;
    cr_expect_eq(tt_stats_by_gpus(ctx, t, &g, &n), TT_ERANGE);
    tt_trace_free(t);

    t = tt_trace_create();
    add(t, INT64_MAX - 5, 10, 1, 0, NULL, NULL); /* ends after 2^63 */
    tt_stats_load l;
    cr_expect_eq(tt_stats_load_get(ctx, t, 1, 10, &l), TT_ERANGE);
    tt_trace_free(t);

    t = tt_trace_create();
    add(t, 0, 5, 1, 0, NULL, NULL);
    t->gpus[0] = 0;
    cr_expect_eq(tt_stats_by_vc(ctx, t, &g, &n), TT_EFORMAT);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(stats, fixed_decimals)
{
    char b[48];
    cr_expect_eq(tt_stats_fixed(b, sizeof b, 7, 3, 2), 4);
    cr_expect_str_eq(b, "2.33");
    tt_stats_fixed(b, sizeof b, 2, 3, 2);
    cr_expect_str_eq(b, "0.67");
    tt_stats_fixed(b, sizeof b, 1, 8, 2); /* 0.125: the half goes up */
    cr_expect_str_eq(b, "0.13");
    tt_stats_fixed(b, sizeof b, -1, 8, 2);
    cr_expect_str_eq(b, "-0.13");
    tt_stats_fixed(b, sizeof b, -1, 1000, 2); /* no "-0.00" */
    cr_expect_str_eq(b, "0.00");
    tt_stats_fixed(b, sizeof b, 5, 1000, 2);
    cr_expect_str_eq(b, "0.01");
    tt_stats_fixed(b, sizeof b, 4999, 1000000, 2);
    cr_expect_str_eq(b, "0.00");
    tt_stats_fixed(b, sizeof b, 182, 31, 2); /* 5.870967... */
    cr_expect_str_eq(b, "5.87");
    tt_stats_fixed(b, sizeof b, 3521082502, 3600, 2); /* Philly GPU-seconds: 978078.4728 */
    cr_expect_str_eq(b, "978078.47");
    tt_stats_fixed(b, sizeof b, 1, 3, 4);
    cr_expect_str_eq(b, "0.3333");
    tt_stats_fixed(b, sizeof b, 2, 2, 4);
    cr_expect_str_eq(b, "1.0000");
    tt_stats_fixed(b, sizeof b, 19, 2, 0);
    cr_expect_str_eq(b, "10");
    tt_stats_fixed(b, sizeof b, INT64_MAX, 1, 0);
    cr_expect_str_eq(b, "9223372036854775807");
    tt_stats_fixed(b, sizeof b, INT64_MIN, 1, 2);
    cr_expect_str_eq(b, "-9223372036854775808.00");
    tt_stats_fixed(b, sizeof b, INT64_MAX, INT64_MAX - 1, 18);
    cr_expect_str_eq(b, "1.000000000000000000"); /* 1 + 1.08e-19 */
    tt_stats_fixed(b, sizeof b, 1, 3, 18);
    cr_expect_str_eq(b, "0.333333333333333333");
    cr_expect_eq(tt_stats_fixed(b, sizeof b, 1, 0, 2), TT_EINVAL);
    cr_expect_eq(tt_stats_fixed(b, sizeof b, 1, 1, 19), TT_EINVAL);
    cr_expect_eq(tt_stats_fixed(b, sizeof b, 1, 1, -1), TT_EINVAL);
    cr_expect_eq(tt_stats_fixed(b, 4, 12345, 1, 0), TT_EINVAL);
    cr_expect_str_eq(b, "");
}

Test(stats, philly_csv)
{
    if (!have_shared("philly/pollux_philly.csv"))
        cr_skip("no shared philly/pollux_philly.csv");
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"philly-csv", NULL, NULL};
    const char *in[] = {shared_path("philly/pollux_philly.csv")};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, 1, &t), 0, "%s", tt_errmsg(ctx));
    tt_stats_summary s;
    cr_assert_eq(tt_stats_summary_get(ctx, t, &s), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(s.jobs, 82247);
    cr_expect_eq(s.vcs, 15);
    cr_expect_eq(s.duplicates, 65);
    cr_expect_eq(s.max_gpus, 128);
    /* num_gpus counts from FORMATS.md */
    static const int64_t key[] = {1, 2, 4, 8, 12, 16, 24, 32, 64, 128},
                         jobs[] = {76627, 1818, 1870, 1643, 7, 199, 7, 67, 6, 3};
    tt_stats_group *g;
    int64_t n, gs = 0;
    cr_assert_eq(tt_stats_by_gpus(ctx, t, &g, &n), 0);
    cr_assert_eq(n, 10);
    for (int i = 0; i < 10; i++) {
        cr_expect_eq(g[i].key, key[i]);
        cr_expect_eq(g[i].jobs, jobs[i]);
        gs += g[i].gpu_s;
    }
    cr_expect_eq(gs, s.gpu_s);
    free(g);
    tt_stats_load l;
    cr_assert_eq(tt_stats_load_get(ctx, t, 3600, TT_STATS_MAX_BINS, &l), 0);
    int64_t total = 0, submitted = 0;
    for (int64_t b = 0; b < l.nbins; b++) {
        total += l.gpu_s[b];
        submitted += l.submitted[b];
    }
    cr_expect_eq(total, s.gpu_s);
    cr_expect_eq(submitted, 82247);
    tt_stats_load_free(&l);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
