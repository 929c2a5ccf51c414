/* bench/sim: one simulation of a trace, timed, as one TSV row.
 *
 *   sim [-H] [-r REPS] [-n JOBS] [-R] -c CLUSTER -l LABEL [-p NAME=VALUE]... TRACE.h5
 *
 * Runs the configuration once untimed to check it (the run must finish,
 * every accepted job must end, the invariant "used GPU-seconds = the sum
 * of per-job GPU-seconds" must hold) and to count its event times, then
 * REPS times (default 3) timed; prints the best, with the events' counts
 * (event times, evictions, SPEC 11's demotions, promotions and priority
 * evictions). -n keeps the first JOBS
 * jobs; -R times the naive reference simulator (tests/refsim) on the same
 * jobs instead, as the baseline, and checks that it gives the engine's
 * per-job results. Peak RSS is the process's. -H prints the header. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../tests/refsim/refsim.h"
#include "tt/sim.h"
#include "tt/tracefile.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, tt_ctx *ctx)
{
    fprintf(stderr, "bench/sim: %s: %s\n", what, ctx ? tt_errmsg(ctx) : "failed");
    exit(1);
}

/* The reference's view of the same case. */
static int run_ref(const tt_cluster *c, const tt_params *p, const tt_models *m,
                   const tt_sim_jobs *j, const tt_job_result *want, double *secs)
{
    int nm = tt_models_count(m);
    ref_model *md = calloc((size_t)nm, sizeof *md);
    ref_job *jobs = calloc((size_t)j->n + 1, sizeof *jobs);
    ref_job_result *o = calloc((size_t)j->n + 1, sizeof *o);
    if (!md || !jobs || !o)
        return -1;
    for (int k = 0; k < nm; k++) {
        md[k].slow_l1 = tt_models_slow_l1(m, k);
        md[k].slow_l2 = tt_models_slow_l2(m, k);
    }
    for (int64_t i = 0; i < j->n; i++) {
        jobs[i].submit = j->submit[i];
        jobs[i].duration = j->duration[i];
        jobs[i].gpus = j->gpus[i];
        jobs[i].model = tt_sim_job_class(j, nm, p, i);
    }
    ref_cluster rc = {c->racks, c->nodes_per_rack, c->gpus_per_node};
    ref_params rp;
    ref_params_default(&rp);
    rp.order = p->order;
    rp.w0 = p->w0 == TT_INF ? REF_INF : p->w0;
    rp.w1 = p->w1 == TT_INF ? REF_INF : p->w1;
    rp.theta = p->theta == TT_INF ? REF_INF : p->theta;
    rp.restart = p->restart;
    rp.congestion = p->congestion;
    rp.min_run = p->min_run;
    rp.max_preempt = p->max_preempt;
    rp.backfill = p->backfill;
    rp.load = p->load;
    double t0 = now_s();
    int rc_ = ref_simulate(&rc, &rp, md, nm, jobs, j->n, o, NULL);
    *secs = now_s() - t0;
    int bad = rc_ != 0;
    for (int64_t i = 0; i < j->n && !bad; i++)
        bad = o[i].end != (want[i].rejected ? REF_NONE : want[i].end) ||
              o[i].queue_total != want[i].queue;
    free(md);
    free(jobs);
    free(o);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *cluster = NULL, *label = "run";
    int reps = 3, header = 0, ref = 0, opt;
    int64_t keep = -1;
    char *pv[64];
    int np = 0;
    while ((opt = getopt(argc, argv, "Hr:n:Rc:l:p:")) != -1) {
        switch (opt) {
        case 'H':
            header = 1;
            break;
        case 'r':
            reps = atoi(optarg);
            break;
        case 'n':
            keep = atoll(optarg);
            break;
        case 'R':
            ref = 1;
            break;
        case 'c':
            cluster = optarg;
            break;
        case 'l':
            label = optarg;
            break;
        case 'p':
            if (np < 64)
                pv[np++] = optarg;
            break;
        default:
            return 2;
        }
    }
    if (header)
        printf("bench\tconfig\tjobs\tevents\tseconds\tevents_per_s\tjobs_per_s\tpeak_rss_MB\t"
               "makespan\tjct_mean\tcomm_share\tpreemptions\tdemotions\tpromotions\t"
               "preempt_prio\n");
    if (optind != argc - 1 || !cluster)
        return header ? 0 : 2;
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    tt_models *m = NULL;
    tt_cluster c;
    tt_params p;
    tt_sim_jobs j;
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
    if (keep >= 0 && keep < j.n)
        j.n = keep;
    tt_job_result *out = calloc((size_t)j.n + 1, sizeof *out);
    tt_timeline tl = {0, 0, NULL};
    tt_metrics mt;
    if (!out)
        die("memory", NULL);
    if (tt_simulate(ctx, &c, &p, m, &j, out, &mt, &tl))
        die("simulate", ctx);
    int64_t events = tl.n, used = 0, acc = 0;
    for (int64_t i = 0; i < j.n; i++)
        if (!out[i].rejected) {
            used += out[i].gpu_s;
            acc++;
            if (out[i].end < out[i].submit + j.duration[i])
                die("check: a job ended before its duration", NULL);
        }
    if (mt.util * (double)c.racks * c.nodes_per_rack * c.gpus_per_node * (double)mt.makespan <
            0.999 * (double)used ||
        acc + mt.rejected != j.n)
        die("check: GPU-seconds or job count do not add up", NULL);
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double s;
        if (ref) {
            if (run_ref(&c, &p, m, &j, out, &s))
                die("check: the reference differs from the engine", NULL);
        } else {
            double t0 = now_s();
            if (tt_simulate(ctx, &c, &p, m, &j, NULL, &mt, NULL))
                die("simulate", ctx);
            s = now_s() - t0;
        }
        if (s < best)
            best = s;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s\t%s\t%lld\t%lld\t%.4f\t%.0f\t%.0f\t%.1f\t%lld\t%.1f\t%.4f\t%lld\t%lld\t%lld\t%lld\n",
           ref ? "refsim" : "tt_simulate", label, (long long)j.n, (long long)events, best,
           (double)events / best, (double)j.n / best, (double)ru.ru_maxrss / 1024.0,
           (long long)mt.makespan, mt.jct_mean, mt.comm_share, (long long)mt.preemptions,
           (long long)mt.demotions, (long long)mt.promotions, (long long)mt.preempt_prio);
    free(out);
    tt_timeline_free(&tl);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return 0;
}
