/* The synthetic trace generator: determinism, and shapes checked with
 * statistical tolerances that a broken generator fails. */
#include <math.h>

#include "testutil.h"
#include "tt/error.h"
#include "tt/gen.h"

static tt_trace *gen(const tt_gen_params *p)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    int rc = tt_gen_run(ctx, p, &t);
    cr_assert_eq(rc, 0, "tt_gen_run: %s", tt_errmsg(ctx));
    cr_assert_eq(t->n, p->jobs);
    tt_ctx_free(ctx);
    return t;
}

static tt_gen_params defaults(int64_t jobs, int64_t seed)
{
    tt_gen_params p;
    tt_gen_defaults(&p);
    p.jobs = jobs;
    p.seed = seed;
    return p;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank quantile. */
static int64_t quantile(const int64_t *sorted, int64_t n, double q)
{
    int64_t k = (int64_t)ceil(q * (double)n);
    return sorted[(k < 1 ? 1 : k) - 1];
}

/* Standard error of a share p over n jobs drawn in bursts of geometric
 * size with mean m that share the drawn value: the variance grows by
 * E[S^2]/E[S] = 2m - 1. */
static double burst_se(double p, int64_t n, double m)
{
    return sqrt(p * (1 - p) * (2 * m - 1) / (double)n);
}

Test(gen, same_seed_same_trace_other_seed_differs)
{
    tt_gen_params p = defaults(20000, 42);
    tt_trace *a = gen(&p), *b = gen(&p);
    size_t n64 = (size_t)a->n * sizeof(int64_t), n32 = (size_t)a->n * sizeof(int32_t);
    cr_expect_eq(memcmp(a->submit, b->submit, n64), 0);
    cr_expect_eq(memcmp(a->duration, b->duration, n64), 0);
    cr_expect_eq(memcmp(a->gpus, b->gpus, n32), 0);
    cr_expect_eq(memcmp(a->user, b->user, n32), 0);
    cr_expect_eq(memcmp(a->vc, b->vc, n32), 0);
    cr_expect_eq(memcmp(a->name, b->name, n32), 0);
    cr_expect_eq(tt_strtab_count(a->users), tt_strtab_count(b->users));
    for (int32_t i = 0; i < tt_strtab_count(a->users); i++)
        cr_expect_str_eq(tt_strtab_get(a->users, i), tt_strtab_get(b->users, i));
    cr_expect_str_eq(a->prov.notes, b->prov.notes);

    p.seed = 43;
    tt_trace *c = gen(&p);
    int64_t same_sub = 0, same_dur = 0;
    for (int64_t i = 0; i < a->n; i++) {
        same_sub += a->submit[i] == c->submit[i];
        same_dur += a->duration[i] == c->duration[i];
    }
    /* Unrelated streams agree only by chance: a few per cent at most. */
    cr_expect_lt(same_sub, a->n / 20, "%lld equal submits", (long long)same_sub);
    cr_expect_lt(same_dur, a->n / 20, "%lld equal durations", (long long)same_dur);
    tt_trace_free(a);
    tt_trace_free(b);
    tt_trace_free(c);
}

Test(gen, provenance_and_absent_fields)
{
    tt_gen_params p = defaults(500, 7);
    tt_trace *t = gen(&p);
    cr_expect_str_eq(t->prov.format, "tt-gen");
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_expect_eq(t->prov.rows_read, 500);
    cr_expect_eq(t->prov.rows_kept, 500);
    cr_expect_eq(strncmp(t->prov.notes, "tt-gen -n 500 -s 7 -a 114.4 -b 1.7 ", 35), 0, "%s",
                 t->prov.notes);
    cr_expect(strstr(t->prov.notes, " -g 1:76627,2:1818,4:1870,8:1643,12:7,16:199,24:7,"
                                    "32:67,64:6,128:3 "),
              "%s", t->prov.notes);
    cr_expect(strstr(t->prov.notes, " -w 1:"), "%s", t->prov.notes);
    for (int64_t i = 0; i < t->n; i++) {
        char name[32];
        snprintf(name, sizeof name, "job-%lld", (long long)i + 1);
        cr_assert_str_eq(tt_strtab_get(t->names, t->name[i]), name);
        cr_assert_eq(t->start[i], TT_TIME_NONE);
        cr_assert_eq(t->end[i], TT_TIME_NONE);
        cr_assert_eq(t->status[i], -1);
        cr_assert_eq(t->model[i], -1);
        cr_assert_eq(t->gpu_milli[i], t->gpus[i] * 1000);
        cr_assert_geq(t->submit[i], 0);
    }
    tt_trace_free(t);

    p.start = 1500000000; /* 2017-07-14 02:40:00 UTC */
    t = gen(&p);
    cr_expect_str_eq(t->prov.time_base, "unix");
    cr_expect(strstr(t->prov.notes, " --start 1500000000 "));
    cr_expect_geq(t->submit[0], 1500000000);
    tt_trace_free(t);
}

Test(gen, gpu_mix_matches_philly_shares)
{
    tt_gen_params p = defaults(100000, 1);
    tt_trace *t = gen(&p);
    /* FORMATS.md: num_gpus of the 82,247 Philly jobs. */
    static const int32_t k[] = {1, 2, 4, 8};
    static const double cnt[] = {76627, 1818, 1870, 1643};
    int64_t got[4] = {0}, rare = 0;
    for (int64_t i = 0; i < t->n; i++) {
        int32_t g = t->gpus[i];
        int hit = 0;
        for (int c = 0; c < 4; c++)
            if (g == k[c]) {
                got[c]++;
                hit = 1;
            }
        if (!hit) {
            cr_assert(g == 12 || g == 16 || g == 24 || g == 32 || g == 64 || g == 128,
                      "GPU count %d is not in the Philly mix", g);
            rare++;
        }
    }
    for (int c = 0; c < 4; c++) {
        double want = cnt[c] / 82247.0, share = (double)got[c] / (double)t->n;
        double tol = 5 * burst_se(want, t->n, p.batch);
        cr_expect(fabs(share - want) < tol, "%d GPUs: share %.5f, Philly %.5f, tolerance %.5f",
                  k[c], share, want, tol);
    }
    double want = 289.0 / 82247.0, share = (double)rare / (double)t->n; /* 12..128 GPUs */
    cr_expect(fabs(share - want) < 5 * burst_se(want, t->n, p.batch), "rare share %.5f", share);
    tt_trace_free(t);
}

Test(gen, gpu_mix_option)
{
    tt_gen_params p = defaults(100000, 2);
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_gen_parse_gpus(ctx, "1:0.8,8:0.2", &p), 0);
    cr_assert_eq(p.ngpu, 2);
    cr_expect_eq(p.gpu_k[0], 1);
    cr_expect_eq(p.gpu_k[1], 8);
    cr_expect_eq(p.gpu_w[0], 0.8);
    cr_expect_eq(p.gpu_w[1], 0.2);
    tt_trace *t = gen(&p);
    int64_t eight = 0;
    for (int64_t i = 0; i < t->n; i++) {
        cr_assert(t->gpus[i] == 1 || t->gpus[i] == 8);
        eight += t->gpus[i] == 8;
    }
    double share = (double)eight / (double)t->n;
    cr_expect(fabs(share - 0.2) < 5 * burst_se(0.2, t->n, p.batch), "8-GPU share %.4f", share);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(gen, gpu_mix_rejects_bad_specs)
{
    static const char *const bad[] = {
        "",          /* empty */
        "1",         /* no weight */
        "1:",        /* empty weight */
        ":1",        /* empty count */
        "1:0.5,",    /* trailing comma */
        "1:0.5,,2:1", /* empty entry */
        "0:1",       /* zero GPUs */
        "-1:1",      /* negative GPUs */
        "1.5:1",     /* fractional GPUs */
        "3000000:1", /* GPU count out of range */
        "1:0",       /* zero weight */
        "1:-2",      /* negative weight */
        "1:nan",     /* not a number */
        "1:x",       /* not a number */
        "1:1:1",     /* three fields */
        "1:1,1:2",   /* GPU count twice */
        " 1:1",      /* space */
    };
    tt_ctx *ctx = tt_ctx_create();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tt_gen_params p = defaults(10, 0);
        int rc = tt_gen_parse_gpus(ctx, bad[i], &p);
        cr_expect_eq(rc, TT_EINVAL, "'%s' accepted", bad[i]);
        cr_expect(strstr(tt_errmsg(ctx), "GPU mix") != NULL, "'%s': %s", bad[i], tt_errmsg(ctx));
        cr_expect_eq(p.ngpu, 10, "'%s' changed the mix", bad[i]);
        cr_expect_eq(p.gpu_k[0], 1);
    }
    /* 65 entries: one more than the limit. */
    char spec[1024] = "";
    for (int i = 1; i <= TT_GEN_MAX_GPU_MIX + 1; i++)
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%d:1", i > 1 ? "," : "", i);
    tt_gen_params p = defaults(10, 0);
    cr_expect_eq(tt_gen_parse_gpus(ctx, spec, &p), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "more than 64 entries"), "%s", tt_errmsg(ctx));
    /* Counts work as weights. */
    cr_expect_eq(tt_gen_parse_gpus(ctx, "4:30,2:10", &p), 0);
    cr_expect_eq(p.ngpu, 2);
    cr_expect_eq(p.gpu_k[0], 4);
    cr_expect_eq(p.gpu_w[0], 30.0);
    tt_ctx_free(ctx);
}

Test(gen, duration_mix_parsing)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p = defaults(10, 0);
    cr_assert_eq(tt_gen_parse_durations(ctx, "0.5:60:0.3,0.5:3600:1.2", &p), 0);
    cr_expect_eq(p.ndur, 2);
    cr_expect_eq(p.dur_median[1], 3600.0);
    cr_expect_eq(p.dur_sigma[1], 1.2);
    static const char *const bad[] = {"", "1:60", "1:60:0.5:2", "0:60:1", "1:0:1",
                                      "1:60:-0.1", "1:60:11", "1:60:1,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tt_gen_params q = defaults(10, 0);
        cr_expect_eq(tt_gen_parse_durations(ctx, bad[i], &q), TT_EINVAL, "'%s' accepted", bad[i]);
        cr_expect_eq(q.ndur, 3);
        cr_expect_eq(q.ngpu_dur, 6, "'%s' dropped the weights per GPU count", bad[i]);
    }
    /* A new mix drops the weights per GPU count: they weighed the old one. */
    cr_expect_eq(p.ngpu_dur, 0);
    tt_ctx_free(ctx);
}

Test(gen, gpu_duration_weights_parsing)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p = defaults(10, 0);
    cr_assert_eq(tt_gen_parse_gpu_durations(ctx, "1:6:3:1,8:0:1:9", &p), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_eq(p.ngpu_dur, 2);
    cr_expect_eq(p.gpu_dur_k[1], 8);
    cr_expect_eq(p.gpu_dur_w[1][0], 0.0);
    cr_expect_eq(p.gpu_dur_w[1][2], 9.0);
    cr_expect_eq(tt_gen_check(ctx, &p), 0, "%s", tt_errmsg(ctx));
    static const char *const bad[] = {
        "",              /* empty */
        "1:6:3",         /* two weights for three components */
        "1:6:3:1:1",     /* four */
        "0:1:1:1",       /* zero GPUs */
        "1:0:0:0",       /* all zero */
        "1:-1:1:1",      /* negative */
        "1:nan:1:1",     /* not a number */
        "1:1:1:1,1:2:2:2", /* GPU count twice */
        "1:1:1:1,",      /* trailing comma */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tt_gen_params q = defaults(10, 0);
        cr_expect_eq(tt_gen_parse_gpu_durations(ctx, bad[i], &q), TT_EINVAL, "'%s' accepted",
                     bad[i]);
        cr_expect(strstr(tt_errmsg(ctx), "duration weights per GPU count"), "'%s': %s", bad[i],
                  tt_errmsg(ctx));
        cr_expect_eq(q.ngpu_dur, 6, "'%s' changed the weights", bad[i]);
    }
    cr_assert_eq(tt_gen_parse_gpu_durations(ctx, "1:6:3", &p), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "is not GPUS:W1:W2:W3"), "%s", tt_errmsg(ctx));
    p.gpu_dur_w[0][0] = -1;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    tt_ctx_free(ctx);
}

Test(gen, durations_follow_the_gpu_count)
{
    /* Two fixed durations: 1-GPU jobs take the first, 8-GPU jobs the
     * second, and 2-GPU jobs (not listed) the -d weights, half and half. */
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p = defaults(20000, 9);
    cr_assert_eq(tt_gen_parse_gpus(ctx, "1:1,2:1,8:1", &p), 0);
    cr_assert_eq(tt_gen_parse_durations(ctx, "1:100:0,1:10000:0", &p), 0);
    cr_assert_eq(tt_gen_parse_gpu_durations(ctx, "1:1:0,8:0:1,16:1:1", &p), 0);
    tt_trace *t = gen(&p);
    int64_t two = 0, two_long = 0;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->gpus[i] == 1)
            cr_assert_eq(t->duration[i], 100);
        else if (t->gpus[i] == 8)
            cr_assert_eq(t->duration[i], 10000);
        else {
            two++;
            two_long += t->duration[i] == 10000;
        }
    }
    double share = (double)two_long / (double)two; /* drawn per job, not per burst */
    cr_expect(fabs(share - 0.5) < 5 * sqrt(0.25 / (double)two), "2 GPUs: %.4f long", share);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Philly CSV: GPU-hours per GPU count over all GPU-hours. */
Test(gen, gpu_hours_per_count_match_philly)
{
    static const int32_t k[] = {1, 2, 4, 8, 16, 32};
    static const double philly[] = {0.1807, 0.0320, 0.1673, 0.4844, 0.1148, 0.0182};
    static const int asserted[] = {1, 0, 1, 1, 1, 0}; /* the big shares */
    tt_gen_params p = defaults(1000000, 1);
    tt_trace *t = gen(&p);
    double hours[6] = {0}, total = 0;
    for (int64_t i = 0; i < t->n; i++) {
        double h = (double)t->gpus[i] * (double)t->duration[i];
        total += h;
        for (int c = 0; c < 6; c++)
            if (t->gpus[i] == k[c])
                hours[c] += h;
    }
    fprintf(stderr, "gen: GPU-hour share per GPU count, tt-gen -n 1000000 -s 1 vs Philly\n");
    for (int c = 0; c < 6; c++) {
        double share = hours[c] / total;
        fprintf(stderr, "gen:   %2d GPUs  %.4f  %.4f\n", k[c], share, philly[c]);
        if (asserted[c])
            cr_expect(fabs(share - philly[c]) < 0.03, "%d GPUs: %.4f of GPU-hours, Philly %.4f",
                      k[c], share, philly[c]);
    }
    tt_trace_free(t);
}

Test(gen, durations_bounded_and_philly_like)
{
    tt_gen_params p = defaults(100000, 3);
    tt_trace *t = gen(&p);
    int64_t *d = (int64_t *)malloc((size_t)t->n * sizeof *d);
    memcpy(d, t->duration, (size_t)t->n * sizeof *d);
    qsort(d, (size_t)t->n, sizeof *d, cmp_i64);
    cr_expect_geq(d[0], 1);
    cr_expect_leq(d[t->n - 1], 5184000);
    /* Philly CSV (nearest rank): p10 61 s, p50 1,144 s, p90 11,266 s,
     * p99 254,884 s. */
    int64_t p10 = quantile(d, t->n, 0.10), p50 = quantile(d, t->n, 0.5),
            p90 = quantile(d, t->n, 0.9), p99 = quantile(d, t->n, 0.99);
    cr_expect(p10 > 61 / 1.1 && p10 < 61 * 1.1, "p10 %lld", (long long)p10);
    cr_expect(p50 > 1144 / 1.1 && p50 < 1144 * 1.1, "median %lld", (long long)p50);
    cr_expect(p90 > 11266 / 1.1 && p90 < 11266 * 1.1, "p90 %lld", (long long)p90);
    cr_expect(p99 > 254884 / 1.25 && p99 < 254884 * 1.25, "p99 %lld", (long long)p99);
    free(d);
    tt_trace_free(t);
}

Test(gen, durations_clamped)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_gen_params p = defaults(2000, 4);
    cr_assert_eq(tt_gen_parse_durations(ctx, "1:1e9:0.5", &p), 0);
    tt_trace *t = gen(&p);
    for (int64_t i = 0; i < t->n; i++)
        cr_assert_eq(t->duration[i], 5184000);
    tt_trace_free(t);
    cr_assert_eq(tt_gen_parse_durations(ctx, "1:0.01:0.5", &p), 0);
    t = gen(&p);
    for (int64_t i = 0; i < t->n; i++)
        cr_assert_eq(t->duration[i], 1);
    tt_trace_free(t);
    cr_assert_eq(tt_gen_parse_durations(ctx, "1:500:0", &p), 0);
    t = gen(&p);
    for (int64_t i = 0; i < t->n; i++)
        cr_assert_eq(t->duration[i], 500);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Mean and coefficient of variation of the gaps between submits. */
static void gaps(const tt_trace *t, double *mean, double *cv, double *short_share)
{
    double s = 0, s2 = 0;
    int64_t n = t->n - 1, shrt = 0;
    for (int64_t i = 0; i < n; i++) {
        double g = (double)(t->submit[i + 1] - t->submit[i]);
        s += g;
        s2 += g * g;
        shrt += g <= 5;
    }
    *mean = s / (double)n;
    *cv = sqrt(s2 / (double)n - *mean * *mean) / *mean;
    *short_share = (double)shrt / (double)n;
}

Test(gen, arrivals_sorted_and_bursty)
{
    tt_gen_params p = defaults(100000, 5);
    tt_trace *t = gen(&p);
    cr_assert(tt_trace_is_sorted(t));
    double mean, cv, shrt;
    gaps(t, &mean, &cv, &shrt);
    /* Poisson gaps have CV 1; bursts and the daily cycle push it up. */
    cr_expect_gt(cv, 1.5, "CV %.3f", cv);
    cr_expect(mean > 114.4 * 0.9 && mean < 114.4 * 1.1, "mean gap %.2f", mean);
    /* Philly: 41% of gaps are <= 5 s; a Poisson process at this rate
     * gives 5%. */
    cr_expect(shrt > 0.3 && shrt < 0.55, "gaps <= 5 s: %.3f", shrt);
    tt_trace_free(t);

    /* No bursts, no cycle: a homogeneous Poisson process. */
    p.batch = 1;
    p.day_ratio = 1;
    p.weekend = 1;
    t = gen(&p);
    cr_assert(tt_trace_is_sorted(t));
    gaps(t, &mean, &cv, &shrt);
    cr_expect(cv > 0.97 && cv < 1.03, "CV %.3f", cv);
    cr_expect(mean > 114.4 * 0.98 && mean < 114.4 * 1.02, "mean gap %.2f", mean);
    tt_trace_free(t);
}

/* Jobs per hour of day and per day of week (0 = Monday) for times that
 * count from a Monday 00:00. */
static void profile(const tt_trace *t, int64_t origin, int64_t hour[24], int64_t day[7])
{
    memset(hour, 0, 24 * sizeof *hour);
    memset(day, 0, 7 * sizeof *day);
    for (int64_t i = 0; i < t->n; i++) {
        int64_t s = t->submit[i] - origin;
        hour[(s / 3600) % 24]++;
        day[(s / 86400) % 7]++;
    }
}

/* Submits in hours 12-17 over those in hours 0-5 (of origin's clock), and
 * the weekend's daily count over the weekdays', against the raised cosine
 * 1 + A cos(2 pi (h - peak) / 24), A = (R - 1) / (R + 1), of the model. */
static void expect_cycle(const tt_trace *t, int64_t origin, const tt_gen_params *p)
{
    int64_t hour[24], day[7];
    profile(t, origin, hour, day);
    int64_t afternoon = 0, night = 0, weekday = 0;
    double amp = (p->day_ratio - 1) / (p->day_ratio + 1), want_a = 0, want_n = 0;
    for (int h = 12; h < 18; h++) {
        afternoon += hour[h];
        want_a += 1 + amp * cos(2 * M_PI * (h - p->peak_hour) / 24);
    }
    for (int h = 0; h < 6; h++) {
        night += hour[h];
        want_n += 1 + amp * cos(2 * M_PI * (h - p->peak_hour) / 24);
    }
    for (int d = 0; d < 5; d++)
        weekday += day[d];
    double r = (double)afternoon / (double)night, want = want_a / want_n;
    cr_expect(fabs(r / want - 1) < 0.1, "afternoon/night %.3f, model %.3f", r, want);
    double w = ((double)(day[5] + day[6]) / 2) / ((double)weekday / 5);
    cr_expect(fabs(w - p->weekend) < 0.05, "weekend/weekday %.3f, model %.3f", w, p->weekend);
}

Test(gen, diurnal_and_weekly_cycle)
{
    /* 100k jobs at 114 s span about 19 weeks. Defaults: R 1.8, peak
     * 15:00, so hours 12-17 get 1.69 times the jobs of hours 0-5. */
    tt_gen_params p = defaults(100000, 6);
    tt_trace *t = gen(&p);
    expect_cycle(t, 0, &p); /* relative: t = 0 is a Monday 00:00 */
    tt_trace_free(t);
    /* Absolute: the cycle follows UTC clock time. 1,499,644,800 is Monday
     * 2017-07-10 00:00 UTC; the trace starts on the Friday after. */
    p.start = 1500000000;
    t = gen(&p);
    expect_cycle(t, 1499644800, &p);
    tt_trace_free(t);
    /* Busy nights instead: ratio 3 peaking at 03:00 gives 0.38. */
    p.peak_hour = 3;
    p.day_ratio = 3;
    p.weekend = 0.2;
    t = gen(&p);
    expect_cycle(t, 1499644800, &p);
    tt_trace_free(t);
}

Test(gen, zipf_users_and_vcs)
{
    tt_gen_params p = defaults(100000, 8);
    tt_trace *t = gen(&p);
    cr_expect_leq(tt_strtab_count(t->vcs), 15);
    cr_expect_leq(tt_strtab_count(t->users), 300);
    int32_t vc1 = tt_strtab_find(t->vcs, "vc-1"), vc2 = tt_strtab_find(t->vcs, "vc-2");
    cr_assert_geq(vc1, 0);
    int64_t n1 = 0, n2 = 0;
    for (int64_t i = 0; i < t->n; i++) {
        n1 += t->vc[i] == vc1;
        n2 += t->vc[i] == vc2;
    }
    double h = 0;
    for (int k = 1; k <= 15; k++)
        h += pow(k, -1.5);
    double want = 1 / h, share = (double)n1 / (double)t->n;
    cr_expect(fabs(share - want) < 5 * burst_se(want, t->n, p.batch), "vc-1 share %.4f, Zipf %.4f",
              share, want);
    double ratio = (double)n1 / (double)n2; /* Zipf: 2^1.5 = 2.83 */
    cr_expect(ratio > 2.4 && ratio < 3.3, "vc-1/vc-2 %.3f", ratio);
    tt_trace_free(t);
}

Test(gen, check_rejects_out_of_range)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = (tt_trace *)1;
    tt_gen_params p = defaults(0, 0);
    cr_expect_eq(tt_gen_run(ctx, &p, &t), TT_EINVAL);
    cr_expect_null(t);
    cr_expect(strstr(tt_errmsg(ctx), "jobs (-n)"), "%s", tt_errmsg(ctx));
    p = defaults(10, 0);
    p.interarrival = 0;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    p = defaults(10, 0);
    p.batch = 0.5;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    p = defaults(10, 0);
    p.weekend = 0;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    p = defaults(10, 0);
    p.vcs = 0;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    p = defaults(10, 0);
    p.start = -1;
    cr_expect_eq(tt_gen_check(ctx, &p), TT_EINVAL);
    p = defaults(10, 0);
    cr_expect_eq(tt_gen_check(ctx, &p), 0);
    tt_ctx_free(ctx);
}
