/* Sweeps: the grid grammar (values worked out by hand or with Python's
 * round and ** for the log grid), the Cartesian order, the configurations
 * file, shards, and the pool: every configuration's metrics equal
 * tt_simulate's, with one thread and with four. */
#include <sys/resource.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/sweep.h"

static tt_models *two_models(void)
{
    const char *names[] = {"fast", "slow"};
    const int64_t l1[] = {1000, 1500}, l2[] = {1000, 2500};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, l1, l2, &m), 0);
    return m;
}

/* The values parameter name takes over the configurations of s. */
static void expect_values(const tt_sweep *s, const char *name, const char *const *want,
                          int64_t n)
{
    char buf[1024];
    int pi = -1;
    for (int i = 0; i < TT_NPARAMS_ALL; i++)
        if (strcmp(tt_param_names[i], name) == 0)
            pi = i;
    cr_assert_geq(pi, 0);
    cr_assert_eq(tt_sweep_count(s), n, "count %lld, want %lld", (long long)tt_sweep_count(s),
                 (long long)n);
    tt_models *m = two_models();
    for (int64_t k = 0; k < n; k++) {
        tt_params p;
        cr_assert_eq(tt_sweep_params(NULL, s, k, &p), 0);
        tt_params_format(&p, m, pi, buf, sizeof buf);
        cr_expect_str_eq(buf, want[k], "%s of configuration %lld: %s, want %s", name,
                         (long long)k, buf, want[k]);
    }
    tt_models_free(m);
}

/* One grid name=spec must give exactly want. */
static void expect_grid(const char *name, const char *spec, const char *const *want, int64_t n)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, name, spec), 0, "%s=%s: %s", name, spec, tt_errmsg(ctx));
    expect_values(s, name, want, n);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

/* One grid name=spec must fail with a message containing want. */
static void expect_grid_error(const char *name, const char *spec, const char *want)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_expect_eq(tt_sweep_grid(ctx, s, name, spec), TT_EINVAL, "%s=%s accepted", name, spec);
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "'%s' lacks '%s'", tt_errmsg(ctx), want);
    cr_expect_eq(tt_sweep_count(s), 1, "a failed grid changed the sweep");
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

Test(sweep, linear_grids)
{
    /* 10/3 = 3.33 -> 3, 20/3 = 6.67 -> 7 */
    expect_grid("w0", "0:10:4", (const char *[]){"0", "3", "7", "10"}, 4);
    /* 2.5 rounds half up to 3 */
    expect_grid("w0", "0:5:3", (const char *[]){"0", "3", "5"}, 3);
    /* A > B: 10 - 3.33 = 6.67 -> 7, 10 - 6.67 = 3.33 -> 3 */
    expect_grid("w0", "10:0:4", (const char *[]){"10", "7", "3", "0"}, 4);
    /* 5 - 2.5 = 2.5: half up gives 3 */
    expect_grid("w0", "5:0:3", (const char *[]){"5", "3", "0"}, 3);
    expect_grid("w0", "7:100:1", (const char *[]){"7"}, 1);
    /* repeated values after rounding are kept: 0, 0.5 -> 1, 1 */
    expect_grid("min_run", "0:1:3", (const char *[]){"0", "1", "1"}, 3);
    expect_grid("congestion", "0:999:2", (const char *[]){"0", "999"}, 2);
}

Test(sweep, log_grids)
{
    /* 86400^(i/7): 5.07 25.73 130.51 662.01 3358.00 17033.25 */
    expect_grid("w0", "log:1:86400:8",
                (const char *[]){"1", "5", "26", "131", "662", "3358", "17033", "86400"}, 8);
    /* 10 * 100^(i/4): 31.62 100 316.23 */
    expect_grid("theta", "log:10:1000:5", (const char *[]){"10", "32", "100", "316", "1000"},
                5);
    expect_grid("w1", "log:1000:10:3", (const char *[]){"1000", "100", "10"}, 3);
    expect_grid("w1", "log:9:10:1", (const char *[]){"9"}, 1);
}

Test(sweep, ranges_ending_in_inf)
{
    expect_grid("w0", "log:1:1000:4,inf", (const char *[]){"1", "10", "100", "1000", "inf"}, 5);
    expect_grid("theta", "1000:2000:3,inf", (const char *[]){"1000", "1500", "2000", "inf"}, 4);
    expect_grid("w1", "0:0:1,inf", (const char *[]){"0", "inf"}, 2);
}

Test(sweep, lists)
{
    expect_grid("theta", "1000,inf,1500", (const char *[]){"1000", "inf", "1500"}, 3);
    expect_grid("order", "las,fifo", (const char *[]){"las", "fifo"}, 2);
    expect_grid("w0", "5", (const char *[]){"5"}, 1);
    expect_grid("mix", "fast:1,slow:2;slow:1", (const char *[]){"fast:1,slow:2", "slow:1"}, 2);
}

static const char *write_tmp(const char *text);

/* Every parameter tt_params_set knows is a grid axis (el_up=0:2:3 failed
 * with an empty message when only the output columns' parameters were):
 * a value other than its default for each, set through a grid; the
 * elastic ones fixed with -p and read from a configurations file too. */
Test(sweep, every_parameter_is_an_axis)
{
    static const char *const vals[][2] = {
        {"order", "las"}, {"w0", "60"}, {"w1", "120"}, {"theta", "1500"}, {"restart", "7"},
        {"congestion", "100"}, {"min_run", "5"}, {"max_preempt", "9"}, {"backfill", "0"},
        {"load", "2000"}, {"seed", "5"}, {"mix", "fast:2"}, {"timers", "slow:60:inf"},
        {"mlfq", "100,200,300"}, {"promote", "800"}, {"prio_preempt", "0"},
        {"gittins_delta", "99"}, {"gittins_dist", "d.txt"}, {"el_up", "2"}, {"el_down", "1"},
        {"el_frac", "500"}, {"resize", "term"}, {"resize_cost", "40"}, {"resize_gap", "0"},
        {"gpu_mem", "24576"}, {"cache_slots", "2"}, {"load_bw", "500"}, {"xfer_bw", "100"},
        {"evict", "demand"}, {"cache_place", "affinity"}, {"w_warm", "30"},
        {"requeue", "front"}, {"prio_victims", "refill"}};
    size_t nvals = sizeof vals / sizeof vals[0];
    cr_assert_eq(nvals, TT_NPARAMS_ALL, "a parameter without a value here");
    for (size_t v = 0; v < nvals; v++) {
        cr_assert_str_eq(vals[v][0], tt_param_names[v]);
        expect_grid(vals[v][0], vals[v][1], (const char *[]){vals[v][1]}, 1);
    }
    expect_grid("el_up", "0:2:3", (const char *[]){"0", "1", "2"}, 3);
    expect_grid("resize_cost", "log:1:100:3", (const char *[]){"1", "10", "100"}, 3);
    expect_grid("resize", "sidecar,term", (const char *[]){"sidecar", "term"}, 2);
    expect_grid_error("el_up", "0:7:8", "grid 'el_up=0:7:8': value 8 ('7'): expected "
                                        "doublings 0 .. 6");
    expect_grid_error("resize", "term,stop", "value 2 ('stop'): expected sidecar or term");
    expect_grid("requeue", "keep,front", (const char *[]){"keep", "front"}, 2);
    expect_grid_error("requeue", "front,last", "value 2 ('last'): expected keep or front");
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    cr_assert_eq(tt_sweep_create(NULL, m, &s), 0);
    cr_assert_eq(tt_sweep_fix(NULL, s, "resize_gap", "5"), 0);
    const char *f = write_tmp("el_up\tresize\n1\tterm\n3\tsidecar\n");
    cr_assert_eq(tt_sweep_configs(NULL, s, f), 0);
    expect_values(s, "resize_gap", (const char *[]){"5", "5"}, 2);
    expect_values(s, "el_up", (const char *[]){"1", "3"}, 2);
    expect_values(s, "resize", (const char *[]){"term", "sidecar"}, 2);
    unlink(f);
    tt_sweep_free(s);
    tt_models_free(m);
}

/* The elastic baselines crossed with a resize-cost grid (SPEC 10.11's
 * comparison): the preset is applied first, the grid's cost after it. */
Test(sweep, preset_by_resize_cost)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    cr_assert_eq(tt_sweep_create(NULL, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(NULL, s, "preset", "k8s-fixed,elastic-term,elastic-sidecar"), 0);
    cr_assert_eq(tt_sweep_grid(NULL, s, "resize_cost", "0,60"), 0);
    expect_values(s, "el_up", (const char *[]){"0", "0", "2", "2", "2", "2"}, 6);
    expect_values(s, "el_down", (const char *[]){"0", "0", "1", "1", "1", "1"}, 6);
    expect_values(s, "resize",
                  (const char *[]){"sidecar", "sidecar", "term", "term", "sidecar", "sidecar"}, 6);
    expect_values(s, "resize_cost", (const char *[]){"0", "60", "0", "60", "0", "60"}, 6);
    expect_values(s, "w0", (const char *[]){"0", "0", "0", "0", "0", "0"}, 6);
    tt_sweep_free(s);
    tt_models_free(m);
}

Test(sweep, bad_specs)
{
    expect_grid_error("w0", "1:2", "grid 'w0=1:2': expected A:B:N, log:A:B:N (either may end "
                                  "in ,inf) or a list a,b,c");
    expect_grid_error("w0", "1:2,inf", "grid 'w0=1:2,inf': expected A:B:N, log:A:B:N");
    expect_grid_error("restart", "0:10:3,inf", "grid 'restart=0:10:3,inf': value 4 ('inf'): "
                                               "expected seconds 0 .. 4294967296, got 'inf'");
    expect_grid_error("w0", "a:b:3", "grid 'w0=a:b:3': 'a' is not an integer");
    expect_grid_error("w0", "1:2:0", "grid 'w0=1:2:0': N: expected a count 1 ..");
    expect_grid_error("w0", "log:0:10:3", "a log grid needs A > 0 and B > 0");
    expect_grid_error("w0", "1,,2", "grid 'w0=1,,2': an empty value in the list");
    expect_grid_error("w0", "1,", "an empty value in the list");
    expect_grid_error("w0", "", "grid 'w0=': no values");
    expect_grid_error("nosuch", "1,2", "grid 'nosuch=1,2': unknown parameter 'nosuch'");
    expect_grid_error("w0", "-5:5:3", "grid 'w0=-5:5:3': value 1 ('-5'): expected seconds >= 0");
    expect_grid_error("congestion", "0:1000:3", "value 3 ('1000'): expected permille 0 .. 999");
    expect_grid_error("order", "fifo,xyz", "value 2 ('xyz'): expected fifo, sjf, srtf, las, dlas, gittins or ftf");
    expect_grid_error("mix", "fast:1;gpt:1", "unknown class 'gpt'");
}

/* Kilobytes this process has held at most. */
static long max_rss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* A range is kept as A, B, N: 10^8 values cost neither memory nor a check
 * each (they took 4 GB and 40 s, as text, before the next grid failed). */
Test(sweep, huge_ranges_cost_no_memory)
{
    long before = max_rss_kb();
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0:100000000:100000001,inf"), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_eq(tt_sweep_count(s), 100000002);
    int64_t ks[] = {0, 12345678, 100000000, 100000001};
    int64_t want[] = {0, 12345678, 100000000, TT_INF};
    for (int i = 0; i < 4; i++) {
        tt_params p;
        cr_assert_eq(tt_sweep_params(ctx, s, ks[i], &p), 0, "%s", tt_errmsg(ctx));
        cr_expect_eq(p.w0, want[i], "w0 of configuration %lld: %lld", (long long)ks[i],
                     (long long)p.w0);
    }
    cr_expect_eq(tt_sweep_grid(ctx, s, "w1", "0:21:22"), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "more than 2147483647 configurations"), "%s",
              tt_errmsg(ctx));
    /* the first value out of range, found without reading the others */
    cr_expect_eq(tt_sweep_grid(ctx, s, "congestion", "0:100000000:100000001"), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "grid 'congestion=0:100000000:100000001': value 1001 "
                                     "('1000'): expected permille 0 .. 999"), "%s",
              tt_errmsg(ctx));
    cr_expect_eq(tt_sweep_grid(ctx, s, "congestion", "999:-100000000:100001000"), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "value 1001 ('-1')"), "%s", tt_errmsg(ctx));
    cr_expect_lt(max_rss_kb() - before, 64 * 1024, "%ld kB more", max_rss_kb() - before);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

Test(sweep, names_once)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "1,2"), 0);
    cr_expect_eq(tt_sweep_grid(ctx, s, "w0", "3"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "grid 'w0=3': parameter 'w0' is already in a grid");
    cr_expect_eq(tt_sweep_fix(ctx, s, "w0", "3"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "parameter 'w0': fixed with -p but also in a grid");
    cr_assert_eq(tt_sweep_fix(ctx, s, "w1", "7"), 0);
    cr_expect_eq(tt_sweep_grid(ctx, s, "w1", "3"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "grid 'w1=3': parameter 'w1' is already fixed with -p");
    cr_expect_eq(tt_sweep_fix(ctx, s, "w1", "-1"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "parameter 'w1': expected seconds >= 0 or inf, got '-1'");
    cr_expect_eq(tt_sweep_count(s), 2);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

Test(sweep, cartesian_order)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    cr_assert_eq(tt_sweep_create(NULL, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(NULL, s, "w0", "1,2"), 0);
    cr_assert_eq(tt_sweep_grid(NULL, s, "w1", "3:5:3"), 0);
    cr_assert_eq(tt_sweep_fix(NULL, s, "restart", "5"), 0);
    cr_assert_eq(tt_sweep_fix(NULL, s, "restart", "9"), 0); /* a later value wins */
    expect_values(s, "w0", (const char *[]){"1", "1", "1", "2", "2", "2"}, 6);
    expect_values(s, "w1", (const char *[]){"3", "4", "5", "3", "4", "5"}, 6);
    expect_values(s, "restart", (const char *[]){"9", "9", "9", "9", "9", "9"}, 6);
    expect_values(s, "theta", (const char *[]){"inf", "inf", "inf", "inf", "inf", "inf"}, 6);
    tt_params p;
    cr_expect_eq(tt_sweep_params(NULL, s, 6, &p), TT_EINVAL);
    char label[64];
    tt_sweep_label(s, 4, label, sizeof label);
    cr_expect_str_eq(label, "configuration 4");
    tt_sweep_free(s);
    tt_models_free(m);
}

static const char *write_tmp(const char *text)
{
    static char path[4][64];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "/tmp/tt_sweep_XXXXXX");
    int fd = mkstemp(path[k]);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path[k];
}

Test(sweep, configs_file)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    const char *f = write_tmp("w0\torder\n10\tsjf\n\ninf\tfifo\n20\tlas\n");
    cr_assert_eq(tt_sweep_configs(ctx, s, f), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_grid(ctx, s, "theta", "1000,2000"), 0);
    /* the file's rows vary slowest */
    expect_values(s, "w0", (const char *[]){"10", "10", "inf", "inf", "20", "20"}, 6);
    expect_values(s, "order", (const char *[]){"sjf", "sjf", "fifo", "fifo", "las", "las"}, 6);
    expect_values(s, "theta", (const char *[]){"1000", "2000", "1000", "2000", "1000", "2000"},
                  6);
    char label[256], want[256];
    tt_sweep_label(s, 3, label, sizeof label);
    snprintf(want, sizeof want, "configuration 3 (%s:4)", f);
    cr_expect_str_eq(label, want);
    cr_expect_eq(tt_sweep_grid(ctx, s, "w0", "1"), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx),
                     "grid 'w0=1': parameter 'w0' is already in the configurations file");
    unlink(f);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

/* Reading text as a configurations file (after a grid over theta) must
 * fail with exactly "FILE:" + want. */
static void expect_configs_error(const char *text, const char *want)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "theta", "1000"), 0);
    const char *f = write_tmp(text);
    char full[512];
    snprintf(full, sizeof full, "%s:%s", f, want);
    cr_expect_eq(tt_sweep_configs(ctx, s, f), TT_EPARSE, "accepted: %s", text);
    cr_expect_str_eq(tt_errmsg(ctx), full);
    cr_expect_eq(tt_sweep_count(s), 1);
    unlink(f);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

Test(sweep, configs_errors)
{
    expect_configs_error("w0\tcolour\n1\t2\n",
                         "1: field 'colour': unknown parameter 'colour' (known: order w0 w1 "
                         "theta restart congestion min_run max_preempt backfill load seed mix timers mlfq "
                         "promote prio_preempt gittins_delta gittins_dist el_up el_down el_frac resize "
                         "resize_cost resize_gap gpu_mem cache_slots load_bw xfer_bw evict "
                         "cache_place w_warm requeue prio_victims w0.CLASS w1.CLASS preset)");
    expect_configs_error("w0\tw0\n1\t2\n", "1: field 'w0': named twice");
    expect_configs_error("w0\ttheta\n1\n", "1: field 'theta': parameter already in a grid");
    expect_configs_error("w0\tw1\n1\t2\n3\n", "3: expected 2 fields, got 1");
    expect_configs_error("w0\tw1\n1\t2\n3\t4\t5\n", "3: expected 2 fields, got 3");
    expect_configs_error("w0\tw1\n1\t2\n\n3\tabc\n",
                         "4: field 'w1': expected seconds >= 0 or inf, got 'abc'");
    expect_configs_error("w0\tbackfill\n1\t2\n", "2: field 'backfill': expected 0 or 1, got '2'");
    expect_configs_error("w0\n", "1: no configuration: expected rows under the header");
    expect_configs_error("", "1: empty: expected a header of parameter names");
    expect_configs_error("makespan\tutil\n1\t0.5\n",
                         "1: no parameter column (metric columns are ignored)");
    expect_configs_error("w0\tmakespan\tw1\n1\t\t2\n3\t4\n", "3: expected 3 fields, got 2");
    expect_configs_error("w0\tmakespan\tw1\n1\t9\tabc\n",
                         "2: field 'w1': expected seconds >= 0 or inf, got 'abc'");
}

Test(sweep, shards)
{
    /* 10 configurations in 3 shards: 0 3 6 9 | 1 4 7 | 2 5 8 */
    cr_expect_eq(tt_sweep_shard_count(10, 0, 3), 4);
    cr_expect_eq(tt_sweep_shard_count(10, 1, 3), 3);
    cr_expect_eq(tt_sweep_shard_count(10, 2, 3), 3);
    cr_expect_eq(tt_sweep_shard_count(1, 0, 1), 1);
    cr_expect_eq(tt_sweep_shard_count(2, 3, 4), 0);
    cr_expect_eq(tt_sweep_shard_count(5, 5, 5), 0); /* k >= n */
    int64_t sum = 0;
    for (int64_t k = 0; k < 7; k++)
        sum += tt_sweep_shard_count(100, k, 7);
    cr_expect_eq(sum, 100);
}

/* A random trace of n jobs on classes 0, 1 and -1 (the mix). */
static void random_jobs(tt_sim_jobs *j, int64_t n, uint64_t seed)
{
    memset(j, 0, sizeof *j);
    j->n = n;
    j->submit = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    j->duration = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    j->gpus = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    j->cls = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    cr_assert(j->submit && j->duration && j->gpus && j->cls);
    uint64_t s = seed;
    int64_t t = 0;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t r = s >> 17;
        t += (int64_t)(r % 50);
        j->submit[i] = t;
        j->duration[i] = 1 + (int64_t)((r >> 8) % 900);
        static const int32_t g[] = {1, 1, 2, 4, 8, 16, 40};
        j->gpus[i] = g[(r >> 20) % 7];
        j->cls[i] = (int32_t)((r >> 24) % 3) - 1;
        if (j->cls[i] < 0)
            j->unknown_models++;
    }
}

Test(sweep, same_as_tt_simulate_any_threads)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    tt_sim_jobs j;
    random_jobs(&j, 300, 42);
    tt_cluster c = {2, 2, 8};
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "order", "fifo,sjf,srtf,las"), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0,60,inf"), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "theta", "1000,2000,inf"), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "congestion", "0,300"), 0);
    cr_assert_eq(tt_sweep_fix(ctx, s, "min_run", "60"), 0);
    cr_assert_eq(tt_sweep_fix(ctx, s, "mix", "fast:1,slow:3"), 0);
    int64_t n = tt_sweep_count(s);
    cr_assert_eq(n, 72);
    int64_t *idx = (int64_t *)malloc((size_t)n * sizeof *idx);
    tt_metrics *want = (tt_metrics *)calloc((size_t)n, sizeof *want);
    tt_metrics *got1 = (tt_metrics *)calloc((size_t)n, sizeof *got1);
    tt_metrics *got4 = (tt_metrics *)calloc((size_t)n, sizeof *got4);
    int64_t preempt = 0, placed_l1 = 0;
    for (int64_t k = 0; k < n; k++) {
        tt_params p;
        idx[k] = k;
        cr_assert_eq(tt_sweep_params(ctx, s, k, &p), 0);
        cr_assert_eq(tt_simulate(ctx, &c, &p, m, &j, NULL, &want[k], NULL), 0, "%s",
                     tt_errmsg(ctx));
        preempt += want[k].preemptions;
        placed_l1 += want[k].placed_l1 + want[k].placed_l2;
    }
    /* the configurations differ in more than their names */
    cr_assert_gt(preempt, 0);
    cr_assert_gt(placed_l1, 0);
    tt_run_opts o1 = {.threads = 1}, o4 = {.threads = 4};
    cr_assert_eq(tt_sweep_run(ctx, s, &c, &j, idx, n, &o1, got1), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_run(ctx, s, &c, &j, idx, n, &o4, got4), 0, "%s", tt_errmsg(ctx));
    for (int64_t k = 0; k < n; k++) {
        cr_expect(memcmp(&want[k], &got1[k], sizeof want[k]) == 0, "1 thread: config %lld",
                  (long long)k);
        cr_expect(memcmp(&want[k], &got4[k], sizeof want[k]) == 0, "4 threads: config %lld",
                  (long long)k);
    }
    /* a shard: every third configuration, from 1 */
    int64_t sc = tt_sweep_shard_count(n, 1, 3);
    cr_assert_eq(sc, 24);
    for (int64_t r = 0; r < sc; r++)
        idx[r] = 1 + 3 * r;
    cr_assert_eq(tt_sweep_run(ctx, s, &c, &j, idx, sc, &o4, got4), 0, "%s", tt_errmsg(ctx));
    for (int64_t r = 0; r < sc; r++)
        cr_expect(memcmp(&want[idx[r]], &got4[r], sizeof want[0]) == 0, "shard row %lld",
                  (long long)r);
    free(idx);
    free(want);
    free(got1);
    free(got4);
    tt_sim_jobs_free(&j);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

Test(sweep, checks_before_running)
{
    tt_models *m = two_models();
    tt_sweep *s = NULL;
    tt_ctx *ctx = tt_ctx_create();
    tt_sim_jobs j;
    random_jobs(&j, 10, 7);
    /* a duration within the work bound (2^50 s x permille) at congestion 0,
     * slowdown 2500: 2^50 / 2500 / 1000 = 450359962 s; past it at 900,
     * slowdown 1000 + 1500 x 1000 / 100 = 16000: 70368744 s */
    j.duration[3] = 100000000;
    tt_cluster c = {1, 2, 8};
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "congestion", "0,900"), 0);
    int64_t idx[2] = {0, 1};
    tt_metrics got[2];
    memset(got, 0, sizeof got);
    cr_expect_eq(tt_sweep_run(ctx, s, &c, &j, idx, 2, NULL, got), TT_ERANGE);
    cr_expect_str_eq(tt_errmsg(ctx), "configuration 1: job 3: duration 100000000 s too long "
                     "at slowdown 16000");
    cr_expect_eq(got[0].makespan, 0, "a configuration ran before every one was checked");
    /* configuration 0 alone runs */
    cr_expect_eq(tt_sweep_run(ctx, s, &c, &j, idx, 1, NULL, got), 0, "%s", tt_errmsg(ctx));
    cr_expect_geq(got[0].makespan, 100000000);
    tt_sim_jobs_free(&j);
    tt_sweep_free(s);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

static void digest_of(tt_sweep *s, char hex[65])
{
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sweep_digest(ctx, s, hex), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(strlen(hex), 64);
    tt_ctx_free(ctx);
}

/* The digest names the configurations, not how they were written. */
Test(sweep, digest)
{
    tt_models *m = two_models();
    tt_ctx *ctx = tt_ctx_create();
    tt_sweep *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    cr_assert_eq(tt_sweep_create(ctx, m, &a), 0);
    cr_assert_eq(tt_sweep_grid(ctx, a, "w0", "10,20"), 0);
    cr_assert_eq(tt_sweep_grid(ctx, a, "theta", "1000:2000:2"), 0);
    cr_assert_eq(tt_sweep_create(ctx, m, &b), 0);
    const char *f = write_tmp("w0\ttheta\n10\t1000\n10\t2000\n20\t1000\n20\t2000\n");
    cr_assert_eq(tt_sweep_configs(ctx, b, f), 0, "%s", tt_errmsg(ctx));
    unlink(f);
    /* a sweep's own rows, metrics and all, are the same configurations */
    tt_sweep *e = NULL;
    cr_assert_eq(tt_sweep_create(ctx, m, &e), 0);
    f = write_tmp("w0\ttheta\tmakespan\tjct_mean\n10\t1000\t5\t\n10\t2000\t\t\n"
                  "20\t1000\t7\t1.5\n20\t2000\t8\t2\n");
    cr_assert_eq(tt_sweep_configs(ctx, e, f), 0, "%s", tt_errmsg(ctx));
    unlink(f);
    char he[65];
    digest_of(e, he);
    cr_assert_eq(tt_sweep_create(ctx, m, &c), 0); /* one value differs */
    cr_assert_eq(tt_sweep_grid(ctx, c, "w0", "10,20"), 0);
    cr_assert_eq(tt_sweep_grid(ctx, c, "theta", "1000,2001"), 0);
    cr_assert_eq(tt_sweep_create(ctx, m, &d), 0); /* the same set, another order */
    cr_assert_eq(tt_sweep_grid(ctx, d, "theta", "1000,2000"), 0);
    cr_assert_eq(tt_sweep_grid(ctx, d, "w0", "10,20"), 0);
    char ha[65], hb[65], hc[65], hd[65];
    digest_of(a, ha);
    digest_of(b, hb);
    digest_of(c, hc);
    digest_of(d, hd);
    cr_expect_str_eq(ha, hb);
    cr_expect_str_eq(ha, he);
    cr_expect_str_neq(ha, hc);
    cr_expect_str_neq(ha, hd);
    tt_sweep_free(a);
    tt_sweep_free(b);
    tt_sweep_free(c);
    tt_sweep_free(d);
    tt_sweep_free(e);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

/* The files a sweep's configurations read besides the trace: each path of
 * gittins_dist once, in the order given (the fixed value, the
 * configurations file, then the grids), never "trace". */
Test(sweep, inputs)
{
    tt_models *m = two_models();
    tt_ctx *ctx = tt_ctx_create();
    tt_sweep *s;
    const char **v = NULL;
    int n = -1;
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_inputs(ctx, s, &v, &n), 0);
    cr_expect_eq(n, 0);
    free((void *)v);
    cr_assert_eq(tt_sweep_grid(ctx, s, "gittins_dist", "trace;b.csv;a,1.csv;b.csv"), 0, "%s",
                 tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0,600"), 0);
    cr_assert_eq(tt_sweep_inputs(ctx, s, &v, &n), 0);
    cr_assert_eq(n, 2);
    cr_expect_str_eq(v[0], "b.csv");
    cr_expect_str_eq(v[1], "a,1.csv");
    free((void *)v);
    tt_sweep_free(s);
    cr_assert_eq(tt_sweep_create(ctx, m, &s), 0);
    cr_assert_eq(tt_sweep_fix(ctx, s, "gittins_dist", "d.txt"), 0);
    cr_assert_eq(tt_sweep_inputs(ctx, s, &v, &n), 0);
    cr_assert_eq(n, 1);
    cr_expect_str_eq(v[0], "d.txt");
    free((void *)v);
    tt_sweep_free(s);
    tt_ctx_free(ctx);
    tt_models_free(m);
}
