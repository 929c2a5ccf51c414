/* bench/simtime: one configuration of the engine, timed, for bench/engine,
 * which builds this file twice: against this checkout's library and
 * against the library of the last release, so both engines are timed by
 * the same code in the same run.
 *
 *   simtime [-r REPS] -c CLUSTER [-p NAME=VALUE]... TRACE.h5
 *
 * Loads the trace, runs tt_simulate once untimed, then REPS times (default
 * 5) timed, and prints one line: the best wall seconds, the best CPU
 * seconds of the process (the run is single-threaded; CPU time is what a
 * machine shared with other work disturbs least), then the metrics that
 * bench/engine compares between the two engines (they must be equal).
 * Only the public interface is used, the one both libraries have, and the
 * file stands alone (bench/engine copies it by itself into the release's
 * tree): so it repeats bench/sim.c's few lines of loading on purpose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tt/sim.h"
#include "tt/tracefile.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, tt_ctx *ctx)
{
    fprintf(stderr, "simtime: %s: %s\n", what, ctx ? tt_errmsg(ctx) : "failed");
    exit(1);
}

int main(int argc, char **argv)
{
    const char *cluster = NULL;
    int reps = 5, opt;
    char *pv[64];
    int np = 0;
    while ((opt = getopt(argc, argv, "r:c:p:")) != -1) {
        if (opt == 'r')
            reps = atoi(optarg);
        else if (opt == 'c')
            cluster = optarg;
        else if (opt == 'p' && np < 64)
            pv[np++] = optarg;
        else
            return 2;
    }
    if (optind != argc - 1 || !cluster || reps < 1) {
        fprintf(stderr, "usage: simtime [-r REPS] -c CLUSTER [-p NAME=VALUE]... TRACE.h5\n");
        return 2;
    }
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    tt_models *m = NULL;
    tt_cluster c;
    tt_params p;
    tt_sim_jobs j;
    tt_metrics mt;
    if (!ctx)
        die("context", NULL);
    if (tt_trace_load_cols(ctx, argv[optind], TT_COL_SIM, &t))
        die(argv[optind], ctx);
    if (tt_models_default(ctx, &m))
        die("models", ctx);
    if (tt_cluster_parse(ctx, cluster, &c))
        die("cluster", ctx);
    tt_params_default(&p);
    for (int i = 0; i < np; i++) {
        char *eq = strchr(pv[i], '=');
        if (!eq)
            die("-p NAME=VALUE", NULL);
        *eq = '\0';
        if (tt_params_set(ctx, &p, m, pv[i], eq + 1))
            die("parameter", ctx);
    }
    if (tt_sim_jobs_from_trace(ctx, t, m, &j))
        die("jobs", ctx);
    if (tt_simulate(ctx, &c, &p, m, &j, NULL, &mt, NULL))
        die("simulate", ctx);
    double wall = 1e30, cpu = 1e30;
    for (int r = 0; r < reps; r++) {
        double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (tt_simulate(ctx, &c, &p, m, &j, NULL, &mt, NULL))
            die("simulate", ctx);
        double w = clock_s(CLOCK_MONOTONIC) - w0, u = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall = w < wall ? w : wall;
        cpu = u < cpu ? u : cpu;
    }
    printf("%.4f\t%.4f\t%lld\t%.6f\t%lld\t%lld\t%lld\t%lld\t%lld\n", wall, cpu,
           (long long)j.n, mt.jct_mean, (long long)mt.makespan, (long long)mt.jct_p50,
           (long long)mt.jct_p99, (long long)mt.queue_p99, (long long)mt.preemptions);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return 0;
}
