/* tt-sweep: many scheduler configurations over one trace and cluster, on
 * every CPU core; one TSV row per configuration (the columns of tt-sim)
 * and optionally an HDF5 sweep file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/gpu.h"
#include "tt/outfile.h"
#include "tt/run.h"
#include "tt/sim.h"
#include "tt/simfile.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tt/tracefile.h"

static const char usage[] =
    "usage: tt-sweep -c CLUSTER [-g NAME=SPEC]... [-p NAME=VALUE]... [--configs FILE]\n"
    "                [-d auto|cpu|gpu] [-j THREADS] [--shard K/N] [--models FILE]\n"
    "                [--no-dedup] [-o SWEEP.h5] [-m COLUMNS] [--human] [-q] TRACE.h5\n";

static void help(void)
{
    printf("%s", usage);
    printf(
        "\nSimulates the jobs of a trace on a GPU cluster under many scheduler\n"
        "configurations (docs/model.md), in parallel, and prints one TSV row per\n"
        "configuration with the columns of tt-sim: the 33 parameters, then the metrics.\n"
        "\n"
        "  -c CLUSTER      RxNxG or a cluster file, as for tt-sim\n"
        "  -g NAME=SPEC    a grid over one parameter (repeatable; the sweep is the\n"
        "                  Cartesian product, the first -g varying slowest):\n"
        "      A:B:N       N integers from A to B, v_i = A + round((B-A) i / (N-1)),\n"
        "                  exact integer arithmetic, halves rounded up; N = 1 gives A\n"
        "      log:A:B:N   N integers from A to B (A, B > 0), geometric:\n"
        "                  llround(A (B/A)^(i/(N-1))), first and last exactly A and B;\n"
        "                  floating point makes these values and decides nothing else\n"
        "      a,b,c       a list of values as -p takes them (inf, fifo, ...)\n"
        "      A:B:N,inf and log:A:B:N,inf: the range, then inf (w0, w1, theta)\n"
        "      mix takes a list only, separated by ';' (mix=bert:1,ncf:1;bert:1); so\n"
        "      do timers, mlfq (mlfq=3250,7200;57600) and gittins_dist. w0.CLASS,\n"
        "      w1.CLASS: one class's own timer, shown in the timers column (a sweep\n"
        "      sets class timers one way, not both). preset: a list of names\n"
        "      (preset=yarn-cs,tiresias-dlas,themis; k8s-fixed,elastic-term,\n"
        "      elastic-sidecar crossed with -g resize_cost=...), applied before every\n"
        "      other parameter, so -p and the other grids override it\n"
        "                  Values repeated after rounding are kept: the grid is what\n"
        "                  was asked.\n"
        "  -p NAME=VALUE   a value for every configuration (the names of tt-sim -p);\n"
        "                  a name may not be both fixed and in a grid or the file\n"
        "  --configs FILE  configurations as TSV rows under a header of parameter\n"
        "                  names; metric columns are ignored, so tt-sweep's own rows\n"
        "                  run again; combined with -g, the rows vary slowest\n"
        "  -d DEVICE       auto (default): the GPU when CUDA is built in and a device\n"
        "                  answers, else the CPU (stderr says which ran); cpu; gpu\n"
        "  -j THREADS      CPU threads (default: one per CPU this process may use, as\n"
        "                  taskset, cpusets, a cgroup quota or Slurm's binding allow;\n"
        "                  in a Slurm task that is not bound, -j $SLURM_CPUS_PER_TASK);\n"
        "                  at most 4 x those CPUs and one per configuration (a note\n"
        "                  says so)\n"
        "  --shard K/N     only configurations K, K+N, K+2N, ... (0 <= K < N), e.g.\n"
        "                  one per task of a Slurm array\n"
        "  --models FILE   the model table (default: the built-in data/models.tsv)\n"
        "  --no-dedup      simulate every configuration, also those whose canonical\n"
        "                  form (docs/model.md 8.1) another one has: the same rows,\n"
        "                  for checking that and for timing\n"
        "  -o SWEEP.h5     also write the sweep file (HDF5: /sweep/index,\n"
        "                  /sweep/params/<name>, /sweep/metrics/<name>), whole or not\n"
        "                  at all; - for stdout (not a terminal), the TSV then not\n"
        "                  printed\n"
        "  -q              no notes on stderr (the device, the counts, jobs rejected,\n"
        "                  classes drawn from the mix, metrics left empty): errors only\n"
        "  -m COLUMNS      print only these columns, in this order: parameter and\n"
        "                  metric names, and preset (the preset a row was made from,\n"
        "                  - when none), separated by commas (-m preset,jct_mean)\n"
        "  --human         print each row as name, value lines, with times in days,\n"
        "                  hours or minutes, GPU-seconds in GPU-hours and fractions in\n"
        "                  %%; without -m: its preset, the parameters not at their\n"
        "                  defaults and the metrics\n"
        "  -h, --help      this help;  --version  version and GPU support\n"
        "\n"
        "Rows come in configuration order, the same on every device and thread count.\n"
        "Configurations with one canonical form (the same effective parameters) are\n"
        "simulated once and share the metrics; stderr says how many simulations ran\n"
        "(\"4,096 configurations, 354 distinct simulations\").\n"
        "Progress goes to stderr: redrawn on a terminal, else a line a minute (done/\n"
        "total, rate, time left; TT_PROGRESS_S=SECONDS sets the interval, for tests).\n"
        "Ctrl-C stops between configurations (GPU: between batches) and writes\n"
        "nothing; a second one kills.\n"
        "Exit status: 0 ok, 1 bad or unreadable trace or model table, no GPU for\n"
        "-d gpu, GPU failure, write error, 2 usage error (bad option, -c, -g, -p or\n"
        "--configs), 128+N stopped by signal N (130 for Ctrl-C).\n");
}

/* "K/N" with 0 <= K < N. */
static int parse_shard(const char *s, int64_t *k, int64_t *n)
{
    char a[32], b[32];
    const char *slash = strchr(s, '/');
    if (!slash || (size_t)(slash - s) >= sizeof a || strlen(slash + 1) >= sizeof b)
        return -1;
    snprintf(a, sizeof a, "%.*s", (int)(slash - s), s);
    snprintf(b, sizeof b, "%s", slash + 1);
    char *e1, *e2;
    *k = strtoll(a, &e1, 10);
    *n = strtoll(b, &e2, 10);
    return !*a || !*b || *e1 || *e2 || *k < 0 || *n < 1 || *k >= *n ? -1 : 0;
}

typedef struct {
    const char **gv, **pv; /* the -g and -p arguments */
    tt_ctx *ctx;
    tt_models *models;
    tt_sweep *sweep;
    tt_trace *trace;
    tt_sim_jobs jobs;
    int64_t *idx;
    tt_metrics *metrics;
    const char *cols; /* -m, or NULL */
    int human;        /* --human */
    tt_view view;
} state;

static void release(void *arg)
{
    state *s = arg;
    free(s->metrics);
    free(s->idx);
    tt_sim_jobs_free(&s->jobs);
    tt_trace_free(s->trace);
    tt_sweep_free(s->sweep);
    tt_models_free(s->models);
    tt_ctx_free(s->ctx);
    free(s->gv);
    free(s->pv);
}

static int finish(state *s, int status) { return cli_finish(s->ctx, status, release, s); }

static void print_rows(state *s, int64_t count)
{
    if (!s->cols && !s->human)
        tt_sim_tsv_header(stdout);
    else if (!s->human)
        tt_view_tsv_header(stdout, &s->view);
    for (int64_t r = 0; r < count; r++) {
        tt_params p;
        char preset[64];
        tt_sweep_params(s->ctx, s->sweep, s->idx[r], &p); /* checked before the run */
        tt_sweep_preset(s->sweep, s->idx[r], preset, sizeof preset);
        if (s->human) {
            if (!s->cols)
                tt_view_human_default(&p, s->models, &s->metrics[r], preset, &s->view);
            printf("%sconfiguration %lld\n", r ? "\n" : "", (long long)s->idx[r]);
            tt_view_human(stdout, &s->view, &p, s->models, &s->metrics[r], preset);
        } else if (s->cols) {
            tt_view_tsv_row(stdout, &s->view, &p, s->models, &s->metrics[r], preset);
        } else {
            tt_sim_tsv_row(stdout, &p, s->models, &s->metrics[r]);
        }
    }
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    const char *cspec = NULL, *mpath = NULL, *out = NULL, *cfile = NULL, *dev = "auto";
    const char *shard = NULL;
    state s;
    memset(&s, 0, sizeof s);
    int ng = 0, np = 0, c;
    int64_t threads = 0, sk = 0, sn = 1, sims = 0;
    int all = 0;
    enum { OPT_MODELS = 256, OPT_CONFIGS, OPT_SHARD, OPT_ALL, OPT_HUMAN };
    static const struct option lopts[] = {{"models", required_argument, 0, OPT_MODELS},
                                          {"configs", required_argument, 0, OPT_CONFIGS},
                                          {"shard", required_argument, 0, OPT_SHARD},
                                          {"no-dedup", no_argument, 0, OPT_ALL},
                                          {"human", no_argument, 0, OPT_HUMAN},
                                          {"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    if (!(s.gv = (const char **)calloc((size_t)argc, sizeof *s.gv)) ||
        !(s.pv = (const char **)calloc((size_t)argc, sizeof *s.pv)) ||
        !(s.ctx = tt_ctx_create())) {
        cli_err("out of memory");
        return finish(&s, EXIT_FAIL);
    }
    if (cli_param_as_option(argc, argv, lopts)) {
        release(&s);
        return cli_usage_error(usage);
    }
    while ((c = getopt_long(argc, argv, "c:g:p:d:j:o:m:qh", lopts, NULL)) != -1) {
        switch (c) {
        case 'c': cspec = optarg; break;
        case 'g': s.gv[ng++] = optarg; break;
        case 'p': s.pv[np++] = optarg; break;
        case 'd': dev = optarg; break;
        case 'j':
            if (cli_threads_arg(optarg, &threads)) {
                release(&s);
                return cli_usage_error(usage);
            }
            break;
        case 'o': out = optarg; break;
        case 'q': cli_set_quiet(1); break;
        case OPT_MODELS: mpath = optarg; break;
        case OPT_CONFIGS: cfile = optarg; break;
        case OPT_SHARD: shard = optarg; break;
        case OPT_ALL: all = 1; break;
        case 'm': s.cols = optarg; break;
        case OPT_HUMAN: s.human = 1; break;
        case 'h': help(); return finish(&s, EXIT_OK);
        case 'V': release(&s); return cli_version();
        default: release(&s); return cli_usage_error(usage);
        }
    }
    const char *why = !cspec              ? "no cluster (-c RxNxG)"
                      : optind >= argc    ? "no trace file"
                      : optind + 1 < argc ? "one trace file only"
                                          : NULL;
    tt_device device = TT_DEVICE_AUTO;
    if (!why && tt_device_parse(dev, &device))
        why = "option -d: expected auto, cpu or gpu";
    if (!why && shard && parse_shard(shard, &sk, &sn))
        why = "option --shard: expected K/N with 0 <= K < N";
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
    const char *inputs[] = {cspec, mpath, cfile, path};
    if (cli_stdin_once(inputs, 4)) {
        release(&s);
        return cli_usage_error(usage);
    }
    tt_cluster cl;
    if (tt_cluster_parse(s.ctx, cspec, &cl))
        return finish(&s, EXIT_USAGE);
    /* the model table first: mix names its classes */
    if (mpath ? tt_models_load(s.ctx, mpath, &s.models) : tt_models_default(s.ctx, &s.models))
        return finish(&s, EXIT_FAIL);
    if (tt_sweep_create(s.ctx, s.models, &s.sweep))
        return finish(&s, EXIT_FAIL);
    if (tt_view_parse(s.ctx, s.cols, &s.view))
        return finish(&s, EXIT_USAGE);
    for (int i = 0; i < np + ng; i++) {
        char name[64];
        int grid = i >= np;
        const char *arg = grid ? s.gv[i - np] : s.pv[i];
        const char *val = cli_split_arg(grid ? "-g" : "-p", grid ? "SPEC" : "VALUE", arg,
                                        name, sizeof name);
        if (!val)
            return finish(&s, EXIT_USAGE);
        cli_warn_value(s.models, name, val);
        if (grid ? tt_sweep_grid(s.ctx, s.sweep, name, val)
                 : tt_sweep_fix(s.ctx, s.sweep, name, val))
            return finish(&s, EXIT_USAGE);
    }
    if (cfile && tt_sweep_configs(s.ctx, s.sweep, cfile))
        return finish(&s, EXIT_USAGE);
    tt_outfile of;
    if (out) { /* the distributions the configurations read are inputs too */
        const char **dist = NULL, **in = NULL;
        int nd = 0;
        int rc = tt_sweep_inputs(s.ctx, s.sweep, &dist, &nd);
        if (!rc && !(in = (const char **)malloc((size_t)(4 + nd) * sizeof *in)))
            rc = tt_err(s.ctx, TT_ENOMEM, "out of memory");
        if (!rc) {
            memcpy((void *)in, inputs, sizeof inputs);
            for (int k = 0; k < nd; k++)
                in[4 + k] = dist[k];
            rc = tt_outfile_check(s.ctx, &of, out, in, 4 + nd);
        }
        free((void *)in);
        free((void *)dist);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    const char *file = cli_input(path); /* "-": a copy of standard input */
    if (!file || tt_trace_load_cols(s.ctx, file, TT_COL_SIM, &s.trace))
        return finish(&s, EXIT_FAIL);
    int64_t total = tt_sweep_count(s.sweep), count = tt_sweep_shard_count(total, sk, sn);
    size_t nn = (size_t)(count > 0 ? count : 1);
    int rc = tt_sim_jobs_take(s.ctx, s.trace, s.models, &s.jobs);
    if (!rc && out)
        rc = cli_note_jobs(s.ctx, s.trace, &s.jobs);
    if (!rc && (!(s.idx = (int64_t *)malloc(nn * sizeof *s.idx)) ||
                !(s.metrics = (tt_metrics *)calloc(nn, sizeof *s.metrics))))
        rc = tt_err(s.ctx, TT_ENOMEM, "out of memory for %lld configurations",
                    (long long)count);
    for (int64_t r = 0; !rc && r < count; r++)
        s.idx[r] = sk + r * sn;
    cli_progress ps;
    cli_progress_init(&ps, "simulations");
    static atomic_int stop;
    char used[320] = "";
    tt_run_opts o = {.threads = cli_threads(threads, count),
                     .device = device,
                     .progress = cli_progress_update,
                     .progress_arg = &ps,
                     .stop = cli_stop_requested,
                     .stop_arg = &stop,
                     .used = used,
                     .used_size = sizeof used,
                     .no_dedup = all,
                     .simulations = &sims};
    cli_stop_on_signal(&stop);
    if (!rc)
        rc = tt_sweep_run(s.ctx, s.sweep, &cl, &s.jobs, s.idx, count, &o, s.metrics);
    cli_stop_on_signal(NULL);
    double elapsed = cli_now_s() - ps.start;
    if (rc == TT_ESTOPPED)
        return finish(&s, cli_stopped(s.ctx));
    if (rc == TT_ENODEV || rc == TT_ENOTBUILT) {
        cli_err("-d gpu: %s", tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
        return finish(&s, EXIT_FAIL);
    }
    if (rc) {
        cli_err("'%s': %s", path, tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
        return finish(&s, EXIT_FAIL);
    }
    if (device != TT_DEVICE_CPU && count > 0)
        cli_note("ran on %s", used);
    if (count > 0) {
        char a[32], b[32];
        cli_count(count, a, sizeof a);
        cli_count(sims, b, sizeof b);
        cli_note("%s configuration%s, %s %ssimulation%s%s", a, count == 1 ? "" : "s", b,
                 all ? "" : "distinct ", sims == 1 ? "" : "s", all ? " (--no-dedup)" : "");
    }
    if (out) {
        tt_sweep_save_args a = {s.sweep, &cl, s.models, path, &s.trace->prov, count, s.idx,
                                s.metrics, sk, sn, used, elapsed,
                                elapsed > 0 ? (double)count / elapsed : 0.0,
                                all ? 0 : sims};
        cli_cleanup_on_signal(of.tmp);
        rc = tt_sweep_save(s.ctx, out, &a);
        cli_cleanup_on_signal(NULL);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    cli_note_rejected(s.metrics, count);
    cli_note_unknown_models(&s.jobs);
    cli_warn_empty_metrics(s.metrics, count);
    if (out && strcmp(out, "-") == 0) /* standard output has the file */
        return finish(&s, EXIT_OK);
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    print_rows(&s, count);
    return finish(&s, EXIT_OK);
}
