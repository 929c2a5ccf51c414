/* tt-sim: one simulation of a trace on a cluster under one configuration;
 * its metrics, per-job results or timeline as TSV, and optionally an HDF5
 * result file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/outfile.h"
#include "tt/sim.h"
#include "tt/simfile.h"
#include "tt/tracefile.h"

static const char usage[] = "usage: tt-sim -c CLUSTER [-p NAME=VALUE]... [--models FILE] "
                            "[-o RESULT.h5]\n"
                            "              [-m COLUMNS] [--human | --jobs | --timeline] [-q] TRACE.h5\n";

static void help(void)
{
    printf("%s", usage);
    printf(
        "\nSimulates the jobs of a trace on a GPU cluster under one scheduler configuration\n"
        "(docs/model.md) and prints its metrics as TSV.\n"
        "\n"
        "  -c CLUSTER     RxNxG (racks x nodes per rack x GPUs per node, e.g. 4x32x8), or\n"
        "                 a TSV file: header racks nodes_per_rack gpus_per_node, one row\n"
        "  -p NAME=VALUE  a parameter (repeatable; a later -p wins):\n"
        "      order=fifo        queue order: fifo (submit), sjf (duration), srtf (remaining\n"
        "                        work), las (least attained GPU-seconds), dlas (Tiresias's\n"
        "                        2D-LAS: queues by GPU-seconds held), gittins (2D-Gittins),\n"
        "                        ftf (finish-time fairness)\n"
        "      w0=inf            seconds a job waits for a packed (L0) placement before a\n"
        "                        rack (L1) one is allowed; inf: strict consolidation\n"
        "      w1=inf            seconds more before a spread (L2) one is allowed\n"
        "      theta=inf         a job whose class's L2 slowdown (permille) is >= theta is\n"
        "                        network-sensitive and may evict others; inf: no eviction\n"
        "      restart=30        seconds of overhead on every start after an eviction\n"
        "                        (0 .. 4294967296)\n"
        "      congestion=0      permille 0 .. 999 inflating the communication slowdown\n"
        "      min_run=300       seconds a job runs after a start before it may be evicted\n"
        "      max_preempt=3     evictions of one job at most\n"
        "      backfill=1        1: later jobs may use GPUs a blocked job cannot; 0: the\n"
        "                        queue stops at the first job that cannot start\n"
        "      load=1000         permille scale of the offered load (1 .. 1000000):\n"
        "                        inter-arrival times are multiplied by 1000 / load\n"
        "      seed=1            unsigned 64-bit seed of the draws from the mix\n"
        "      mix=(equal)       NAME:WEIGHT,... classes for jobs whose model the table\n"
        "                        does not know; classes not named get weight 0; default:\n"
        "                        every class weight 1\n"
        "      w0.CLASS, w1.CLASS  that model class's own w0, w1 (s, inf, or - for the\n"
        "                        global one); timers=CLASS:W0:W1,... sets them all\n"
        "                        (default -: every class waits w0, w1)\n"
        "      mlfq=3250,7200    dlas, gittins: ascending GPU-second thresholds between\n"
        "                        the queues (1 to 7, separated by ',' or '/')\n"
        "      promote=0         dlas, gittins: a job waiting in a lower queue returns\n"
        "                        to the first once it waited promote/1000 of the time it\n"
        "                        ran since its last promotion; 0: off\n"
        "      prio_preempt=1    dlas, gittins: a waiter evicts running jobs of lower\n"
        "                        priority queues (min_run, max_preempt apply); 0: off\n"
        "      gittins_delta=3250  gittins: the index's quantum, GPU-seconds\n"
        "      gittins_dist=trace  gittins: the service distribution, trace (gpus x\n"
        "                        duration of its jobs), yarn-gput1000 (Tiresias's, bundled)\n"
        "                        or a file of integer GPU-seconds\n"
        "      requeue=keep      dlas, gittins: an evicted job keeps its place in its\n"
        "                        queue; front: it goes ahead of the older waiters\n"
        "                        (Tiresias's simulator)\n"
        "      prio_victims=lowest  dlas, gittins: a waiter evicts from the lowest\n"
        "                        priority up; refill: as Tiresias's greedy refill\n"
        "      el_up=0           elastic jobs: doublings a job may grow to (0 .. 6)\n"
        "      el_down=0         elastic jobs: halvings a job may start at (0 .. 6)\n"
        "      el_frac=1000      permille of jobs elastic where the trace does not say\n"
        "      resize=sidecar    a resize costs resize_cost (sidecar) or restart (term)\n"
        "      resize_cost=10    seconds of a SideCar resize\n"
        "      resize_gap=300    seconds from a job's last resize to its next grow\n"
        "      preset=NAME       a named baseline's parameters, where it stands (a later\n"
        "                        -p overrides): yarn-cs, tiresias-dlas, tiresias-gittins,\n"
        "                        pollux-tiresias, themis, k8s-fixed, elastic-term,\n"
        "                        elastic-sidecar, start-smaller, wf-deps, cache-lru,\n"
        "                        heft-like, compass-like, tiresias-sim-dlas,\n"
        "                        tiresias-sim-gittins\n"
        "    Times take a unit (90s, 10m, 1.5h, 2d, 1w; plain: seconds), permille\n"
        "    values a factor or a percentage (load=2x and load=200%% are load=2000)\n"
        "  --models FILE  the model table (TSV: name slow_l1 slow_l2 [source], slowdowns\n"
        "                 in permille 1000 .. 1000000); default: the built-in copy of\n"
        "                 data/models.tsv\n"
        "  -o RESULT.h5   also write the result file (HDF5: /sim/summary, /sim/jobs,\n"
        "                 /sim/models, /sim/timeline), whole or not at all; - for\n"
        "                 stdout (not a terminal), the TSV then not printed\n"
        "  --jobs         print per-job results instead of the metrics: job submit duration\n"
        "                 gpus model start end jct queue level slow preemptions starts_l0\n"
        "                 starts_l1 starts_l2 gpu_s rho (times s, slow and rho permille; a\n"
        "                 rejected job's start, end, jct, queue, level, slow and rho are\n"
        "                 empty, as is rho for a job of duration 0)\n"
        "  --timeline     print the state after every event time instead: t waiting\n"
        "                 running busy_gpus running_l0 running_l1 running_l2\n"
        "  -m COLUMNS     print only these columns of the metrics row, in this order:\n"
        "                 parameter and metric names, and preset (the -p preset= given,\n"
        "                 - when none), separated by commas (-m jct_mean,makespan)\n"
        "  --human        print the row as name, value lines, with times in days, hours\n"
        "                 or minutes, GPU-seconds in GPU-hours and fractions in %%; without\n"
        "                 -m: the parameters not at their defaults and the metrics\n"
        "  -q             no notes on stderr (jobs rejected, classes drawn from the mix,\n"
        "                 metrics left empty): errors only\n"
        "  -h, --help     this help;  --version  version and GPU support\n"
        "\n"
        "Default output: one header line and one row: the 33 parameters (as above), then\n"
        "the metrics makespan jct_mean jct_p50 jct_p90 jct_p99 queue_mean queue_p99 (s),\n"
        "comm_gpu_s (GPU-s beyond the ideal), comm_share, restart_gpu_s, preemptions,\n"
        "placed_l0 placed_l1 placed_l2 (starts), util (used over cluster GPU-s),\n"
        "rejected (jobs not simulated: larger than the cluster, a model larger than\n"
        "gpu_mem, or in a workflow rejected whole; counted on stderr, as are jobs whose\n"
        "model class was drawn from the mix), demotions, promotions,\n"
        "preempt_prio (priority evictions), ftf_mean ftf_max (finish-time fairness rho,\n"
        "permille), ftf_unfair (jobs with rho > 1000), wf_jct_mean wf_jct_p99 (s, per\n"
        "workflow), wf_rejected, cache_hit (permille of starts), loads model_evicts\n"
        "(per GPU), load_gpu_s xfer_gpu_s.\n"
        "Exit status: 0 ok, 1 bad or unreadable trace or model table, write error,\n"
        "2 usage error (bad option, -c or -p value).\n");
}

/* v, or an empty field when the job was not simulated. */
static void field(int64_t v, int absent, char sep)
{
    if (!absent)
        printf("%lld", (long long)v);
    putchar(sep);
}

static void print_jobs(const tt_sim_jobs *j, const tt_models *models, const tt_job_result *r)
{
    printf("job\tsubmit\tduration\tgpus\tmodel\tstart\tend\tjct\tqueue\tlevel\tslow\t"
           "preemptions\tstarts_l0\tstarts_l1\tstarts_l2\tgpu_s\trho\n");
    for (int64_t i = 0; i < j->n; i++) {
        const tt_job_result *o = &r[i];
        const char *model = tt_models_name(models, o->cls);
        int rej = o->rejected != 0;
        printf("%lld\t%lld\t%lld\t%d\t%s\t", (long long)i, (long long)o->submit,
               (long long)j->duration[i], j->gpus[i], model ? model : "");
        field(o->start, rej, '\t');
        field(o->end, rej, '\t');
        field(rej ? 0 : o->end - o->submit, rej, '\t');
        field(o->queue, rej, '\t');
        field(o->level, rej, '\t');
        field(o->slow, rej, '\t');
        printf("%d\t%d\t%d\t%d\t%lld\t", o->preemptions, o->starts[0], o->starts[1],
               o->starts[2], (long long)o->gpu_s);
        field(o->rho, o->rho == TT_METRIC_NONE, '\n');
    }
}

static void print_timeline(const tt_timeline *tl)
{
    printf("t\twaiting\trunning\tbusy_gpus\trunning_l0\trunning_l1\trunning_l2\n");
    for (int64_t i = 0; i < tl->n; i++) {
        const tt_timeline_row *w = &tl->rows[i];
        printf("%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", (long long)w->t,
               (long long)w->waiting, (long long)w->running, (long long)w->busy_gpus,
               (long long)w->running_level[0], (long long)w->running_level[1],
               (long long)w->running_level[2]);
    }
}

/* Everything main owns, freed in one place. */
typedef struct {
    const char **pv; /* the -p arguments */
    tt_ctx *ctx;
    tt_models *models;
    tt_trace *trace;
    tt_sim_jobs jobs;
    tt_job_result *res;
    tt_timeline tl;
} state;

static void release(void *arg)
{
    state *s = arg;
    tt_timeline_free(&s->tl);
    free(s->res);
    tt_sim_jobs_free(&s->jobs);
    tt_trace_free(s->trace);
    tt_models_free(s->models);
    tt_ctx_free(s->ctx);
    free(s->pv);
}

/* Reports the context's error on failure, frees, closes stdout. */
static int finish(state *s, int status) { return cli_finish(s->ctx, status, release, s); }

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    const char *cspec = NULL, *mpath = NULL, *out = NULL, *cols = NULL, *preset = NULL;
    state s;
    memset(&s, 0, sizeof s);
    int np = 0, want_jobs = 0, want_tl = 0, want_human = 0, c;
    enum { OPT_MODELS = 256, OPT_JOBS, OPT_TIMELINE, OPT_HUMAN };
    static const struct option lopts[] = {{"models", required_argument, 0, OPT_MODELS},
                                          {"jobs", no_argument, 0, OPT_JOBS},
                                          {"timeline", no_argument, 0, OPT_TIMELINE},
                                          {"human", no_argument, 0, OPT_HUMAN},
                                          {"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    if (!(s.pv = (const char **)calloc((size_t)argc, sizeof *s.pv)) ||
        !(s.ctx = tt_ctx_create())) {
        cli_err("out of memory");
        return finish(&s, EXIT_FAIL);
    }
    if (cli_param_as_option(argc, argv, lopts)) {
        release(&s);
        return cli_usage_error(usage);
    }
    while ((c = getopt_long(argc, argv, "c:p:o:m:qh", lopts, NULL)) != -1) {
        switch (c) {
        case 'c': cspec = optarg; break;
        case 'p': s.pv[np++] = optarg; break;
        case 'o': out = optarg; break;
        case 'm': cols = optarg; break;
        case OPT_HUMAN: want_human = 1; break;
        case 'q': cli_set_quiet(1); break;
        case OPT_MODELS: mpath = optarg; break;
        case OPT_JOBS: want_jobs = 1; break;
        case OPT_TIMELINE: want_tl = 1; break;
        case 'h': help(); return finish(&s, EXIT_OK);
        case 'V': release(&s); return cli_version();
        default: release(&s); return cli_usage_error(usage);
        }
    }
    const char *why = !cspec                ? "no cluster (-c RxNxG)"
                      : optind >= argc      ? "no trace file"
                      : optind + 1 < argc   ? "one trace file only"
                      : want_jobs && want_tl ? "--jobs and --timeline exclude each other"
                      : (cols || want_human) && (want_jobs || want_tl)
                          ? "-m and --human choose the metrics row's columns, not --jobs' or --timeline's"
                      : (want_jobs || want_tl) && out && strcmp(out, "-") == 0
                          ? "-o - and --jobs or --timeline both write to standard output"
                          : NULL;
    if (why) {
        cli_err("%s", why);
        release(&s);
        return cli_usage_error(usage);
    }
    if (cli_output_h5(out)) {
        release(&s);
        return EXIT_USAGE;
    }
    const char *path = argv[optind];
    const char *inputs[] = {cspec, mpath, path};
    if (cli_stdin_once(inputs, 3)) {
        release(&s);
        return cli_usage_error(usage);
    }
    tt_cluster cl;
    tt_params par;
    tt_params_default(&par);
    if (tt_cluster_parse(s.ctx, cspec, &cl))
        return finish(&s, EXIT_USAGE);
    tt_view view;
    if (tt_view_parse(s.ctx, cols, &view))
        return finish(&s, EXIT_USAGE);
    /* the model table first: mix names its classes */
    if (mpath ? tt_models_load(s.ctx, mpath, &s.models) : tt_models_default(s.ctx, &s.models))
        return finish(&s, EXIT_FAIL);
    for (int i = 0; i < np; i++) {
        char name[64];
        const char *val = cli_split_arg("-p", "VALUE", s.pv[i], name, sizeof name);
        if (!val || tt_params_set(s.ctx, &par, s.models, name, val))
            return finish(&s, EXIT_USAGE);
        cli_warn_value(s.models, name, val);
        if (strcmp(name, "preset") == 0)
            preset = val;
    }
    tt_outfile of;
    const char *in[] = {cspec, mpath, path, tt_params_input(&par)};
    if (out && tt_outfile_check(s.ctx, &of, out, in, 4))
        return finish(&s, EXIT_FAIL);
    const char *file = cli_input(path); /* "-": a copy of standard input */
    if (!file || tt_trace_load_cols(s.ctx, file, TT_COL_SIM, &s.trace))
        return finish(&s, EXIT_FAIL);
    /* messages of the jobs and the engine name the job, not the file */
    int rc = tt_sim_jobs_take(s.ctx, s.trace, s.models, &s.jobs);
    if (!rc && out)
        rc = cli_note_jobs(s.ctx, s.trace, &s.jobs);
    size_t n = (size_t)(s.jobs.n > 0 ? s.jobs.n : 1);
    /* per-job results only where they are shown or saved: 72 bytes a job */
    if (!rc && (want_jobs || out) && !(s.res = (tt_job_result *)calloc(n, sizeof *s.res)))
        rc = tt_err(s.ctx, TT_ENOMEM, "out of memory for %lld jobs", (long long)s.jobs.n);
    tt_metrics m;
    if (!rc)
        rc = tt_simulate(s.ctx, &cl, &par, s.models, &s.jobs, s.res, &m,
                         want_tl || out ? &s.tl : NULL);
    if (rc) {
        cli_err("'%s': %s", path, tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
        return finish(&s, EXIT_FAIL);
    }
    if (out) {
        tt_sim_save_args a = {&cl, &par, s.models, path, &s.trace->prov, &s.jobs, s.res, &m,
                              &s.tl};
        cli_cleanup_on_signal(of.tmp);
        rc = tt_sim_save(s.ctx, out, &a);
        cli_cleanup_on_signal(NULL);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    cli_note_rejected(&m, 1);
    cli_note_unknown_models(&s.jobs);
    cli_warn_empty_metrics(&m, 1);
    if (out && strcmp(out, "-") == 0) /* standard output has the file */
        return finish(&s, EXIT_OK);
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    if (want_jobs)
        print_jobs(&s.jobs, s.models, s.res);
    else if (want_tl)
        print_timeline(&s.tl);
    else if (want_human) {
        if (!cols)
            tt_view_human_default(&par, s.models, &m, preset, &view);
        tt_view_human(stdout, &view, &par, s.models, &m, preset);
    } else if (cols) {
        tt_view_tsv_header(stdout, &view);
        tt_view_tsv_row(stdout, &view, &par, s.models, &m, preset);
    } else {
        tt_sim_tsv_header(stdout);
        tt_sim_tsv_row(stdout, &par, s.models, &m);
    }
    return finish(&s, EXIT_OK);
}
