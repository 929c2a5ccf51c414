/* tt/run.h: the same metrics as tt_simulate on every backend and thread
 * count, configurations from a source named by its labels, stopping on
 * request, and the GPU backend against the CPU backend (random traces and
 * the real Philly CSV; skipped, and said, where no GPU answers). */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "randcase.h"
#include "testutil.h"
#include "tt/gpu.h"
#include "tt/run.h"

static void make_case(uint64_t seed, int64_t n, rcase *k)
{
    cr_assert_eq(rcase_make(seed, n, k), 0, "out of memory");
}

static int have_gpu(void)
{
    char buf[512];
    return tt_gpu_describe(buf, sizeof buf) > 0;
}

/* A batch equals tt_simulate, configuration by configuration, with one
 * thread and with several. */
Test(sim_run, equals_simulate)
{
    tt_ctx *ctx = tt_ctx_create();
    for (uint64_t seed = 1; seed <= 12; seed++) {
        rcase k;
        make_case(seed, 40 + (int64_t)seed * 7, &k);
        enum { NP = 24 };
        tt_params ps[NP];
        tt_metrics want[NP], got1[NP], got3[NP];
        uint64_t s = seed * 977;
        for (int i = 0; i < NP; i++) {
            rcase_params(&s, &ps[i]);
            cr_assert_eq(tt_simulate(ctx, &k.c, &ps[i], k.m, &k.j, NULL, &want[i], NULL), 0,
                         "%s", tt_errmsg(ctx));
        }
        tt_run_opts o1 = {.threads = 1}, o3 = {.threads = 3};
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &o1, got1), 0, "%s",
                     tt_errmsg(ctx));
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &o3, got3), 0, "%s",
                     tt_errmsg(ctx));
        for (int i = 0; i < NP; i++) {
            cr_expect(memcmp(&want[i], &got1[i], sizeof want[i]) == 0, "seed %llu #%d 1 thread",
                      (unsigned long long)seed, i);
            cr_expect(memcmp(&want[i], &got3[i], sizeof want[i]) == 0, "seed %llu #%d 3 threads",
                      (unsigned long long)seed, i);
        }
        rcase_free(&k);
    }
    tt_ctx_free(ctx);
}

/* Configurations of a few load values, several in flight at once: each
 * reads the submit' array of its own load, shared while others of that
 * load run and refilled for another load once none does. */
Test(sim_run, loads_share_submit)
{
    static const int64_t loads[] = {2000, 500, 2000, 1000, 500, 3000, 2000, 700, 500, 1000};
    enum { NP = 40 };
    tt_ctx *ctx = tt_ctx_create();
    rcase k;
    make_case(5, 300, &k);
    tt_params ps[NP];
    tt_metrics want[NP], got[NP];
    uint64_t s = 4242;
    for (int i = 0; i < NP; i++) {
        rcase_params(&s, &ps[i]);
        ps[i].load = loads[i % 10];
        cr_assert_eq(tt_simulate(ctx, &k.c, &ps[i], k.m, &k.j, NULL, &want[i], NULL), 0, "%s",
                     tt_errmsg(ctx));
    }
    for (int t = 2; t <= 4; t++) {
        tt_run_opts o = {.threads = t, .no_dedup = 1};
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &o, got), 0, "%s",
                     tt_errmsg(ctx));
        for (int i = 0; i < NP; i++)
            cr_expect(memcmp(&want[i], &got[i], sizeof want[i]) == 0, "#%d (load %lld), %d threads",
                      i, (long long)ps[i].load, t);
    }
    rcase_free(&k);
    tt_ctx_free(ctx);
}

/* No job at all (arrays never allocated): every load runs, and no metric
 * that needs a job has a value. */
Test(sim_run, no_jobs)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(ctx, &m), 0);
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    tt_cluster c = {1, 2, 4};
    tt_params ps[2];
    tt_metrics got[2];
    for (int i = 0; i < 2; i++) {
        tt_params_default(&ps[i]);
        ps[i].load = i ? 2000 : 1000;
        cr_assert_eq(tt_simulate(ctx, &c, &ps[i], m, &j, NULL, &got[i], NULL), 0, "load %lld: %s",
                     (long long)ps[i].load, tt_errmsg(ctx));
        cr_expect_eq(got[i].makespan, TT_METRIC_NONE);
    }
    tt_run_opts o = {.threads = 2, .no_dedup = 1};
    cr_assert_eq(tt_run_params(ctx, &c, m, &j, ps, 2, &o, got), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(got[1].makespan, TT_METRIC_NONE);
    tt_models_free(m);
    tt_ctx_free(ctx);
}

/* A bad candidate is named by its position, before anything runs. */
Test(sim_run, bad_candidate_named)
{
    tt_ctx *ctx = tt_ctx_create();
    rcase k;
    make_case(3, 20, &k);
    tt_params ps[3];
    for (int i = 0; i < 3; i++)
        tt_params_default(&ps[i]);
    ps[2].congestion = 1000;
    tt_metrics got[3];
    tt_run_opts o = {.threads = 1};
    cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, 3, &o, got), TT_EINVAL);
    cr_expect(strncmp(tt_errmsg(ctx), "candidate 2: ", 13) == 0, "%s", tt_errmsg(ctx));
    rcase_free(&k);
    tt_ctx_free(ctx);
}

/* A source of configurations: ps backwards, row 5 missing when asked. */
typedef struct {
    const tt_params *ps;
    int n, missing;
} backwards;

static int backwards_params(void *arg, tt_ctx *ctx, int64_t i, tt_params *p)
{
    const backwards *b = (const backwards *)arg;
    if (b->missing && i == 5)
        return tt_err(ctx, TT_EPARSE, "no such row");
    *p = b->ps[b->n - 1 - i];
    return 0;
}

static void backwards_label(void *arg, int64_t i, char *buf, size_t size)
{
    (void)arg;
    snprintf(buf, size, "row %lld", (long long)i + 1);
}

/* tt_run takes its configurations from the source, in the source's order,
 * and names them by the source's labels in its messages. */
Test(sim_run, source)
{
    tt_ctx *ctx = tt_ctx_create();
    rcase k;
    make_case(4, 40, &k);
    enum { NP = 9 };
    tt_params ps[NP];
    uint64_t seed = 4242;
    for (int i = 0; i < NP; i++)
        rcase_params(&seed, &ps[i]);
    tt_metrics want[NP], got[NP];
    tt_run_opts o = {.threads = 2};
    cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &o, want), 0, "%s",
                 tt_errmsg(ctx));
    backwards b = {ps, NP, 0};
    tt_run_source src = {backwards_params, backwards_label, &b};
    cr_assert_eq(tt_run(ctx, &k.c, k.m, &k.j, &src, NP, &o, got), 0, "%s", tt_errmsg(ctx));
    for (int i = 0; i < NP; i++)
        cr_expect(memcmp(&want[NP - 1 - i], &got[i], sizeof got[i]) == 0, "configuration %d", i);
    /* the source's own failure, then a bad value, each named by its label */
    b.missing = 1;
    cr_expect_eq(tt_run(ctx, &k.c, k.m, &k.j, &src, NP, &o, got), TT_EPARSE);
    cr_expect_str_eq(tt_errmsg(ctx), "row 6: no such row");
    b.missing = 0;
    ps[NP - 1 - 3].congestion = 1000;
    cr_expect_eq(tt_run(ctx, &k.c, k.m, &k.j, &src, NP, &o, got), TT_EINVAL);
    cr_expect(strncmp(tt_errmsg(ctx), "row 4: ", 7) == 0, "%s", tt_errmsg(ctx));
    src.label = NULL;
    cr_expect_eq(tt_run(ctx, &k.c, k.m, &k.j, &src, NP, &o, got), TT_EINVAL);
    rcase_free(&k);
    tt_ctx_free(ctx);
}

/* The tools' -d: auto, cpu, gpu and nothing else. */
Test(sim_run, device_parse)
{
    tt_device d = TT_DEVICE_GPU;
    cr_expect_eq(tt_device_parse("cpu", &d), 0);
    cr_expect_eq(d, TT_DEVICE_CPU);
    cr_expect_eq(tt_device_parse("auto", &d), 0);
    cr_expect_eq(d, TT_DEVICE_AUTO);
    cr_expect_eq(tt_device_parse("gpu", &d), 0);
    cr_expect_eq(d, TT_DEVICE_GPU);
    static const char *const bad[] = {"", "tpu", "GPU", "cpu ", "gp"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(tt_device_parse(bad[i], &d), TT_EINVAL, "'%s'", bad[i]);
        cr_expect_eq(d, TT_DEVICE_GPU, "'%s' changed the device", bad[i]);
    }
}

static void stop_after_first(void *arg, int64_t done, int64_t count)
{
    (void)count;
    if (done >= 1)
        atomic_store((atomic_int *)arg, 1);
}

static int flag_set(void *arg) { return atomic_load((atomic_int *)arg); }

/* A stop request: no further configuration starts, and the run says so. */
Test(sim_run, stop_request)
{
    tt_ctx *ctx = tt_ctx_create();
    rcase k;
    make_case(5, 30, &k);
    enum { NP = 8 };
    tt_params ps[NP];
    tt_metrics got[NP];
    for (int i = 0; i < NP; i++) { /* distinct: each one a simulation of its own */
        tt_params_default(&ps[i]);
        ps[i].w0 = 10 * i;
    }
    atomic_int stop;
    atomic_init(&stop, 1);
    tt_run_opts o = {.threads = 2, .stop = flag_set, .stop_arg = &stop};
    cr_expect_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &o, got), TT_ESTOPPED);
    /* set during the run: one thread does the first, then stops */
    atomic_store(&stop, 0);
    memset(got, 0xff, sizeof got);
    tt_run_opts o1 = {.threads = 1, .stop = flag_set, .stop_arg = &stop,
                      .progress = stop_after_first, .progress_arg = &stop};
    cr_expect_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &o1, got), TT_ESTOPPED);
    cr_expect_eq(got[1].makespan, -1, "configuration 1 ran after the stop");
    rcase_free(&k);
    tt_ctx_free(ctx);
}

/* Without a GPU: -d gpu fails with the reason, auto runs on the CPU and
 * says so. */
Test(sim_run, device_choice)
{
    tt_ctx *ctx = tt_ctx_create();
    rcase k;
    make_case(7, 30, &k);
    tt_params ps[2];
    tt_params_default(&ps[0]);
    tt_params_default(&ps[1]);
    ps[1].w0 = ps[1].w1 = 0;
    tt_metrics got[2], want[2];
    char used[256] = "";
    tt_run_opts oc = {.threads = 1};
    cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, 2, &oc, want), 0);
    tt_run_opts oa = {.threads = 1, .device = TT_DEVICE_AUTO, .used = used,
                      .used_size = sizeof used};
    cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, 2, &oa, got), 0, "%s", tt_errmsg(ctx));
    cr_expect(memcmp(want, got, sizeof want) == 0);
    tt_run_opts og = {.device = TT_DEVICE_GPU};
    if (have_gpu()) {
        cr_expect(strncmp(used, "gpu: ", 5) == 0, "auto with a GPU ran on '%s'", used);
        cr_expect_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, 2, &og, got), 0);
    } else {
        cr_expect_str_eq(used, "cpu: 1 thread");
        int rc = tt_run_params(ctx, &k.c, k.m, &k.j, ps, 2, &og, got);
        cr_expect(rc == (tt_gpu_built() ? TT_ENODEV : TT_ENOTBUILT), "rc %d: %s", rc,
                  tt_errmsg(ctx));
        const char *m = tt_errmsg(ctx);
        cr_expect(tt_gpu_built() ? strstr(m, "no GPU") || strstr(m, "GPU driver too old") ||
                                       strstr(m, "no CUDA device")
                                 : strstr(m, "not built in") != NULL,
                  "%s", m);
    }
    rcase_free(&k);
    tt_ctx_free(ctx);
}

/* ---- GPU against CPU ---- */

static void expect_same(const char *label, const tt_metrics *a, const tt_metrics *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        cr_expect(memcmp(&a[i], &b[i], sizeof a[i]) == 0,
                  "%s #%lld: CPU makespan %lld jct_mean %.6f p99 %lld, GPU %lld %.6f %lld", label,
                  (long long)i, (long long)a[i].makespan, a[i].jct_mean, (long long)a[i].jct_p99,
                  (long long)b[i].makespan, b[i].jct_mean, (long long)b[i].jct_p99);
}

Test(sim_run, gpu_parity_random)
{
    if (!have_gpu())
        cr_skip("no GPU: CPU/GPU parity on random traces not checked");
    tt_ctx *ctx = tt_ctx_create();
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rcase k;
        make_case(seed, 20 + (int64_t)(seed * 13 % 300), &k);
        enum { NP = 96 };
        tt_params *ps = malloc(NP * sizeof *ps);
        tt_metrics *cpu = malloc(NP * sizeof *cpu), *gpu = malloc(NP * sizeof *gpu);
        cr_assert(ps && cpu && gpu);
        uint64_t s = seed * 31337;
        for (int i = 0; i < NP; i++)
            rcase_params(&s, &ps[i]);
        tt_run_opts oc = {0};
        /* batches of 7: several launches, the last one short */
        tt_run_opts og = {.device = TT_DEVICE_GPU, .gpu_batch = seed % 2 ? 7 : 0};
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &oc, cpu), 0, "%s",
                     tt_errmsg(ctx));
        cr_assert_eq(tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &og, gpu), 0, "%s",
                     tt_errmsg(ctx));
        char label[64];
        snprintf(label, sizeof label, "seed %llu", (unsigned long long)seed);
        expect_same(label, cpu, gpu, NP);
        free(ps);
        free(cpu);
        free(gpu);
        rcase_free(&k);
    }
    tt_ctx_free(ctx);
}

Test(sim_run, gpu_parity_philly)
{
    if (!have_gpu())
        cr_skip("no GPU: CPU/GPU parity on the Philly CSV not checked");
    if (!have_shared("philly/pollux_philly.csv"))
        cr_skip("no shared Philly CSV");
    tt_ctx *ctx = tt_ctx_create();
    const char *in[] = {shared_path("philly/pollux_philly.csv")};
    tt_trace *t = ingest_files(ctx, "philly-csv", in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(ctx, &m), 0);
    tt_sim_jobs j;
    cr_assert_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), 0, "%s", tt_errmsg(ctx));
    tt_cluster c = {4, 32, 8};
    /* every order, timers from none to strict, preemption on and off, two loads */
    static const int64_t w0s[] = {0, 600, 3600, TT_INF}, ths[] = {1500, TT_INF};
    enum { NP = 4 * 4 * 2 * 2 };
    tt_params ps[NP];
    int np = 0;
    for (int o = 0; o < 4; o++)
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 2; b++)
                for (int l = 0; l < 2; l++) {
                    tt_params *p = &ps[np++];
                    tt_params_default(p);
                    p->order = o;
                    p->w0 = w0s[a];
                    p->w1 = w0s[a] == TT_INF ? TT_INF : 6 * w0s[a];
                    p->theta = ths[b];
                    p->load = l ? 3000 : 1000;
                }
    tt_metrics cpu[NP], gpu[NP];
    tt_run_opts oc = {0}, og = {.device = TT_DEVICE_GPU};
    cr_assert_eq(tt_run_params(ctx, &c, m, &j, ps, NP, &oc, cpu), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_run_params(ctx, &c, m, &j, ps, NP, &og, gpu), 0, "%s", tt_errmsg(ctx));
    expect_same("philly", cpu, gpu, NP);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
