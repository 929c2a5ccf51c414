/* bench/sweep: one sweep of a trace on each backend, timed, one TSV row
 * each, with the parity of their metrics; or CPU/GPU parity on random
 * traces.
 *
 *   sweep [-H] -c CLUSTER -b JOBS.bin [-w W] [-t T] [-p NAME=VALUE]...
 *         [-d gpu,cpu,cpu1[-all]...] [-s SUBSET] [-B BATCH] [-S SEED]
 *   sweep -r SEEDS
 *
 * The grid: W values of w0 on log:1:86400 (w1 = w0: a job that has waited
 * w0 takes any level) by T values of theta evenly on 1000 .. 2000 permille
 * (defaults 64 x 64 = 4096 configurations), other parameters from -p.
 * Backends, in the order given: gpu (every configuration; -B caps the
 * batch), cpu (every configuration, one thread per online CPU), cpu1 (one
 * thread, the first SUBSET configurations, default all); each simulates
 * one configuration per canonical form (docs/model.md 8.1), as the tools
 * do, and with -all (gpu-all, cpu-all, cpu1-all) every configuration.
 * Columns: the backend, its threads or device, configurations,
 * simulations (run), seconds (wall), cpu_s (CPU seconds of the process,
 * all threads: what the host spent, whatever else ran beside it),
 * configurations/s, job-events/s (2 per accepted job and 2 per
 * preemption, each start and end, of every configuration: the work a run
 * of them all does), mismatches: configurations whose metrics differ, in
 * any bit, from those of the first backend, and speedup: the first
 * backend's seconds over these (over the same configurations; NA
 * otherwise). Exit 1 on any mismatch or failure.
 * -S: the configurations in a random order drawn from SEED (the same for
 * every backend), so a GPU batch mixes cheap and costly ones; without it
 * they go in grid order (neighbours cost alike).
 * On the GPU, TT_GPU_TPB=N sets the threads per block and TT_GPU_TIMING=1
 * adds the kernel, sort and percentile seconds (CUDA events) to the device
 * column.
 *
 * -r: SEEDS random traces (tests/unit/sim/randcase.h, as the unit tests), 96
 * random configurations each, CPU against GPU (odd seeds in batches of 7),
 * every configuration simulated on both. Each model has its share: every
 * third trace has workflow columns, where half the configurations run the
 * model cache; elsewhere a quarter of the configurations run SPEC 11's
 * orders (dlas, gittins, ftf) and a quarter elastic jobs (el_frac drawn;
 * half of those under SPEC 11's orders too).
 * One row per kind of case, then the total. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../tests/unit/sim/randcase.h"
#include "jobs.h"
#include "tt/run.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds this process has used, every thread: on a machine shared
 * with other work, wall time stretches and this does not. */
static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static void die(const char *what, tt_ctx *ctx)
{
    fprintf(stderr, "bench/sweep: %s%s%s\n", what, ctx ? ": " : "", ctx ? tt_errmsg(ctx) : "");
    exit(1);
}

/* Fisher-Yates over randcase.h's splitmix64 stream: the same order on
 * every machine. */
static void shuffle_params(tt_params *ps, int64_t n, uint64_t seed)
{
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t k = (int64_t)(rc_next(&seed) % (uint64_t)(i + 1));
        tt_params t = ps[i];
        ps[i] = ps[k];
        ps[k] = t;
    }
}

static int64_t mismatches(const tt_metrics *a, const tt_metrics *b, int64_t n)
{
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++)
        bad += memcmp(&a[i], &b[i], sizeof a[i]) != 0;
    return bad;
}

/* The kinds of random configuration the parity check runs. */
enum { RP_BASE, RP_ORDERS, RP_ELASTIC, RP_WF, RP_CACHE, RP_KINDS };
static const char *const rp_name[RP_KINDS] = {"random-parity-base", "random-parity-orders",
                                              "random-parity-elastic", "random-parity-wf",
                                              "random-parity-cache"};

/* Configuration i of a random trace (wf: it has workflow columns): its
 * parameters and its kind. */
static int rp_params(uint64_t *s, int wf, int i, tt_params *p)
{
    rcase_params(s, p);
    if (wf) {
        if (i % 2 == 0)
            return RP_WF;
        rcase_cache(s, p);
        return RP_CACHE;
    }
    if (i % 4 == 1) {
        rcase_orders(s, p);
        return RP_ORDERS;
    }
    if (i % 4 == 2) { /* half of them under SPEC 11's orders too */
        if (i % 8 == 6)
            rcase_orders(s, p);
        p->el_up = rc_pick(s, 0, 3);
        p->el_down = p->el_up ? rc_pick(s, 0, 2) : rc_pick(s, 1, 2);
        p->el_frac = rc_pick(s, 200, 1000);
        p->resize = (int32_t)rc_pick(s, 0, 1);
        p->resize_cost = rc_pick(s, 0, 120);
        p->resize_gap = rc_pick(s, 0, 1) ? 0 : rc_pick(s, 1, 900);
        return RP_ELASTIC;
    }
    return RP_BASE;
}

static int random_parity(int seeds)
{
    tt_ctx *ctx = tt_ctx_create();
    enum { NP = 96 };
    tt_params ps[NP];
    tt_metrics cpu[NP], gpu[NP];
    int kind[NP];
    int64_t bad[RP_KINDS] = {0}, configs[RP_KINDS] = {0};
    char used[256] = "";
    for (int seed = 1; seed <= seeds; seed++) {
        rcase k;
        wfcols w;
        int wf = seed % 3 == 0;
        int64_t n = wf ? 20 + (int64_t)seed * 7 % 100 : 20 + (int64_t)seed * 13 % 300;
        if (wf ? rcase_make_wf((uint64_t)seed, n, &k, &w) : rcase_make((uint64_t)seed, n, &k))
            die("out of memory", NULL);
        uint64_t s = (uint64_t)seed * 31337;
        for (int i = 0; i < NP; i++)
            kind[i] = rp_params(&s, wf, i, &ps[i]);
        tt_run_opts oc = {.threads = 0, .no_dedup = 1};
        tt_run_opts og = {.device = TT_DEVICE_GPU, .gpu_batch = seed % 2 ? 7 : 0,
                          .used = used, .used_size = sizeof used, .no_dedup = 1};
        if (tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &oc, cpu))
            die("cpu", ctx);
        if (tt_run_params(ctx, &k.c, k.m, &k.j, ps, NP, &og, gpu))
            die("gpu", ctx);
        int64_t b = 0;
        for (int i = 0; i < NP; i++) {
            int differ = memcmp(&cpu[i], &gpu[i], sizeof cpu[i]) != 0;
            bad[kind[i]] += differ;
            configs[kind[i]]++;
            b += differ;
        }
        if (b)
            fprintf(stderr, "bench/sweep: seed %d: %lld of %d configurations differ\n", seed,
                    (long long)b, NP);
        rcase_free(&k);
    }
    printf("check\tdevice\tconfigurations\tmismatches\n");
    int64_t all = 0, allbad = 0;
    for (int q = 0; q < RP_KINDS; q++) {
        printf("%s\t%s\t%lld\t%lld\n", rp_name[q], used, (long long)configs[q], (long long)bad[q]);
        all += configs[q];
        allbad += bad[q];
    }
    printf("random-parity\t%s\t%lld\t%lld\n", used, (long long)all, (long long)allbad);
    tt_ctx_free(ctx);
    return allbad ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *cspec = NULL, *jpath = NULL, *devs = "gpu,cpu,cpu1";
    int header = 0, c, seeds = 0, shuffled = 0;
    uint64_t shuffle = 0;
    int64_t W = 64, T = 64, subset = 0, batch = 0;
    const char *pv[64];
    int np = 0;
    while ((c = getopt(argc, argv, "Hc:b:w:t:p:d:s:B:r:S:")) != -1) {
        switch (c) {
        case 'H': header = 1; break;
        case 'c': cspec = optarg; break;
        case 'b': jpath = optarg; break;
        case 'w': W = atoll(optarg); break;
        case 't': T = atoll(optarg); break;
        case 'p':
            if (np < 64)
                pv[np++] = optarg;
            break;
        case 'd': devs = optarg; break;
        case 's': subset = atoll(optarg); break;
        case 'B': batch = atoll(optarg); break;
        case 'r': seeds = atoi(optarg); break;
        case 'S': shuffle = strtoull(optarg, NULL, 10); shuffled = 1; break;
        default: return 2;
        }
    }
    if (seeds > 0)
        return random_parity(seeds);
    if (!cspec || !jpath || W < 1 || T < 1) {
        fprintf(stderr, "usage: sweep [-H] -c CLUSTER -b JOBS.bin [-w W] [-t T] "
                        "[-p NAME=VALUE]... [-d gpu,cpu,cpu1[-all]...] [-s SUBSET] [-B BATCH]\n"
                        "       sweep -r SEEDS\n");
        return 2;
    }
    tt_ctx *ctx = tt_ctx_create();
    tt_cluster cl;
    tt_models *m = NULL;
    tt_sim_jobs j;
    if (tt_cluster_parse(ctx, cspec, &cl) || tt_models_default(ctx, &m))
        die(cspec, ctx);
    if (bench_jobs_read(jpath, &j))
        die("cannot read the jobs file (bench/jobs.h)", NULL);
    int64_t n = W * T;
    tt_params *ps = (tt_params *)malloc((size_t)n * sizeof *ps);
    if (!ps)
        die("out of memory", NULL);
    tt_params base;
    tt_params_default(&base);
    for (int i = 0; i < np; i++) {
        char name[64];
        const char *eq = strchr(pv[i], '=');
        if (!eq || (size_t)(eq - pv[i]) >= sizeof name)
            die("-p NAME=VALUE", NULL);
        snprintf(name, sizeof name, "%.*s", (int)(eq - pv[i]), pv[i]);
        if (tt_params_set(ctx, &base, m, name, eq + 1))
            die(pv[i], ctx);
    }
    for (int64_t a = 0; a < W; a++)
        for (int64_t b = 0; b < T; b++) {
            tt_params *p = &ps[a * T + b];
            *p = base;
            p->w0 = W == 1 ? 1 : llround(pow(86400.0, (double)a / (double)(W - 1)));
            p->w1 = p->w0;
            p->theta = 1000 + (T == 1 ? 0 : 1000 * b / (T - 1));
        }
    if (shuffled)
        shuffle_params(ps, n, shuffle);
    if (header)
        printf("backend\tdevice\tconfigurations\tsimulations\tseconds\tcpu_s\tconfigs_per_s"
               "\tjob_events_per_s\tmismatches\tspeedup\n");
    tt_metrics *first = NULL;
    int64_t first_n = 0, bad_all = 0;
    double first_s = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", devs);
    for (char *save = NULL, *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
        char used[320] = "", kind[16];
        int64_t sims = 0;
        tt_run_opts o = {.used = used, .used_size = sizeof used, .gpu_batch = batch,
                         .simulations = &sims};
        int64_t count = n;
        size_t len = strlen(d);
        o.no_dedup = len > 4 && strcmp(d + len - 4, "-all") == 0;
        snprintf(kind, sizeof kind, "%.*s", (int)(o.no_dedup ? len - 4 : len), d);
        if (strcmp(kind, "gpu") == 0)
            o.device = TT_DEVICE_GPU;
        else if (strcmp(kind, "cpu1") == 0) {
            o.threads = 1;
            if (subset > 0 && subset < n)
                count = subset;
        } else if (strcmp(kind, "cpu") != 0)
            die("-d: expected gpu, cpu or cpu1, each optionally with -all", NULL);
        tt_metrics *got = (tt_metrics *)calloc((size_t)count, sizeof *got);
        if (!got)
            die("out of memory", NULL);
        double t0 = now_s(), c0 = cpu_s();
        if (tt_run_params(ctx, &cl, m, &j, ps, count, &o, got)) {
            fprintf(stderr, "bench/sweep: %s: %s\n", d, tt_errmsg(ctx));
            printf("%s\tNA\t%lld\tNA\tNA\tNA\tNA\tNA\tNA\tNA\n", d, (long long)count);
            free(got);
            bad_all++;
            continue;
        }
        double secs = now_s() - t0, csecs = cpu_s() - c0;
        double events = 0;
        for (int64_t i = 0; i < count; i++)
            events += 2.0 * (double)(j.n - got[i].rejected) + 2.0 * (double)got[i].preemptions;
        int64_t bad = 0;
        if (!first) {
            first = got;
            first_n = count;
            first_s = secs;
        } else {
            bad = mismatches(first, got, count < first_n ? count : first_n);
        }
        bad_all += bad;
        char speedup[32] = "NA";
        if (count == first_n)
            snprintf(speedup, sizeof speedup, "%.2f", first_s / secs);
        printf("%s\t%s\t%lld\t%lld\t%.3f\t%.2f\t%.1f\t%.0f\t%lld\t%s\n", d, used,
               (long long)count, (long long)sims, secs, csecs, (double)count / secs, events / secs,
               (long long)bad, speedup);
        fflush(stdout);
        if (got != first)
            free(got);
    }
    free(first);
    free(ps);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_ctx_free(ctx);
    return bad_all ? 1 : 0;
}
