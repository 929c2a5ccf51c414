/* tt-size: how many servers each policy needs. Every policy on every
 * cluster size, on every CPU core; one TSV row per (policy, size), and on
 * stderr (and in -o) each policy's smallest size that meets a target. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/outfile.h"
#include "tt/run.h"
#include "tt/sim.h"
#include "tt/size.h"
#include "tt/tracefile.h"

static const char usage[] =
    "usage: tt-size -c CLUSTER... [--nodes A:B:N|a,b,c] -P POLICY... --target METRIC<=VALUE\n"
    "               [-p NAME=VALUE]... [-j THREADS] [--models FILE] [-o SIZE.h5] [-q]\n"
    "               TRACE.h5\n";

static void help(void)
{
    printf("%s", usage);
    printf(
        "\nSimulates the jobs of a trace under each policy on each cluster size and\n"
        "says, per policy, the smallest size whose metric meets the target.\n"
        "\n"
        "  -c CLUSTER      a size to try: RxNxG or a cluster file, as for tt-sim\n"
        "                  (repeatable); with --nodes, the one shape the sizes take\n"
        "  --nodes SPEC    node counts: A:B:N (N counts from A to B, spaced as the\n"
        "                  grids of tt-sweep) or a list a,b,c; n nodes are the\n"
        "                  racks R of -c with n/R nodes each (n a multiple of R), and\n"
        "                  the GPUs a node of -c\n"
        "  -P POLICY       a policy (repeatable): a preset name (yarn-cs, themis, ...),\n"
        "                  or 'LABEL: -p NAME=VALUE ...' (its own -p, preset= first)\n"
        "  --target T      METRIC<=VALUE or METRIC>=VALUE, METRIC any metric tt-sim\n"
        "                  prints; a metric that cannot be computed misses it\n"
        "  -p NAME=VALUE   a value for every policy: after a policy's preset, before\n"
        "                  its own -p\n"
        "  -j THREADS      CPU threads (default: one per usable CPU, as tt-sweep)\n"
        "  --models FILE   the model table (default: the built-in data/models.tsv)\n"
        "  -o SIZE.h5      also write the study (HDF5: /size/rows, /size/result),\n"
        "                  whole or not at all; - for stdout (not a terminal), the\n"
        "                  TSV then not printed\n"
        "  -q              no notes on stderr (each policy's smallest size, classes\n"
        "                  drawn from the mix, metrics left empty): errors only\n"
        "  -h, --help      this help;  --version  version and GPU support\n"
        "\n"
        "Sizes run in order of their GPUs (ties as given), the policies of one size\n"
        "side by side, on the CPU. Rows: policy, cluster, nodes, gpus, target, meets,\n"
        "smallest (the policy's smallest size that meets), stable (this size and\n"
        "every larger one tried meet: a metric need not fall as the cluster grows),\n"
        "then tt-sim's columns. Exit status: 0 ok (met or not), 1 bad or unreadable\n"
        "trace or model table, write error, 2 usage error, 130 Ctrl-C.\n");
}

typedef struct {
    const char **pv, **polv, **cv;
    tt_ctx *ctx;
    tt_models *models;
    tt_trace *trace;
    tt_sim_jobs jobs;
    tt_cluster *sizes;
    tt_size_policy *pol;
    tt_metrics *metrics;
} state;

static void release(void *arg)
{
    state *s = arg;
    free(s->metrics);
    free(s->pol);
    free(s->sizes);
    tt_sim_jobs_free(&s->jobs);
    tt_trace_free(s->trace);
    tt_models_free(s->models);
    tt_ctx_free(s->ctx);
    free(s->pv);
    free(s->polv);
    free(s->cv);
}

static int finish(state *s, int status) { return cli_finish(s->ctx, status, release, s); }

/* The sizes of the -c and --nodes options, sorted. */
static int sizes_of(state *s, int nc, const char *nodes, int *n)
{
    tt_cluster *c = (tt_cluster *)calloc((size_t)nc, sizeof *c);
    if (!c)
        return tt_err(s->ctx, TT_ENOMEM, "out of memory");
    for (int i = 0; i < nc; i++)
        if (tt_cluster_parse(s->ctx, s->cv[i], &c[i])) {
            free(c);
            return TT_EINVAL;
        }
    if (!nodes) {
        tt_size_sort(c, nc);
        s->sizes = c;
        *n = nc;
        return 0;
    }
    int rc = tt_size_nodes(s->ctx, &c[0], nodes, &s->sizes, n);
    free(c);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    const char *mpath = NULL, *out = NULL, *nodes = NULL, *tspec = NULL;
    state s;
    memset(&s, 0, sizeof s);
    int np = 0, npol = 0, nc = 0, nsizes = 0, c;
    int64_t threads = 0;
    enum { OPT_MODELS = 256, OPT_NODES, OPT_TARGET };
    static const struct option lopts[] = {{"models", required_argument, 0, OPT_MODELS},
                                          {"nodes", required_argument, 0, OPT_NODES},
                                          {"target", required_argument, 0, OPT_TARGET},
                                          {"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    if (!(s.pv = (const char **)calloc((size_t)argc, sizeof *s.pv)) ||
        !(s.polv = (const char **)calloc((size_t)argc, sizeof *s.polv)) ||
        !(s.cv = (const char **)calloc((size_t)argc, sizeof *s.cv)) ||
        !(s.ctx = tt_ctx_create())) {
        cli_err("out of memory");
        return finish(&s, EXIT_FAIL);
    }
    if (cli_param_as_option(argc, argv, lopts)) {
        release(&s);
        return cli_usage_error(usage);
    }
    while ((c = getopt_long(argc, argv, "c:P:p:j:o:qh", lopts, NULL)) != -1) {
        switch (c) {
        case 'c': s.cv[nc++] = optarg; break;
        case 'P': s.polv[npol++] = optarg; break;
        case 'p': s.pv[np++] = optarg; break;
        case 'j':
            if (cli_threads_arg(optarg, &threads)) {
                release(&s);
                return cli_usage_error(usage);
            }
            break;
        case 'o': out = optarg; break;
        case 'q': cli_set_quiet(1); break;
        case OPT_MODELS: mpath = optarg; break;
        case OPT_NODES: nodes = optarg; break;
        case OPT_TARGET: tspec = optarg; break;
        case 'h': help(); return finish(&s, EXIT_OK);
        case 'V': release(&s); return cli_version();
        default: release(&s); return cli_usage_error(usage);
        }
    }
    const char *why = !nc                     ? "no cluster (-c RxNxG)"
                      : nodes && nc > 1       ? "--nodes takes one -c (the shape)"
                      : !npol                 ? "no policy (-P)"
                      : npol > TT_SIZE_MAX    ? "too many policies"
                      : !tspec                ? "no target (--target METRIC<=VALUE)"
                      : optind >= argc        ? "no trace file"
                      : optind + 1 < argc     ? "one trace file only"
                                              : NULL;
    if (why) {
        cli_err("%s", why);
        release(&s);
        return cli_usage_error(usage);
    }
    tt_size_target target;
    if (tt_size_target_parse(s.ctx, tspec, &target)) {
        cli_err("--target: %s", tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
        return finish(&s, EXIT_USAGE);
    }
    const char *path = argv[optind];
    const char *inputs[] = {mpath, path};
    if (cli_stdin_once(inputs, 2)) {
        release(&s);
        return cli_usage_error(usage);
    }
    if (sizes_of(&s, nc, nodes, &nsizes))
        return finish(&s, EXIT_USAGE);
    if (nsizes > TT_SIZE_MAX) {
        cli_err("more than %d sizes", TT_SIZE_MAX);
        return finish(&s, EXIT_USAGE);
    }
    if (mpath ? tt_models_load(s.ctx, mpath, &s.models) : tt_models_default(s.ctx, &s.models))
        return finish(&s, EXIT_FAIL);
    if (!(s.pol = (tt_size_policy *)calloc((size_t)npol, sizeof *s.pol)))
        return finish(&s, EXIT_FAIL);
    for (int i = 0; i < npol; i++) {
        if (tt_size_policy_parse(s.ctx, s.models, s.polv[i], s.pv, np, &s.pol[i]))
            return finish(&s, EXIT_USAGE);
        for (int k = 0; k < i; k++)
            if (strcmp(s.pol[k].label, s.pol[i].label) == 0) {
                tt_err(s.ctx, TT_EINVAL, "-P: the label '%s' twice", s.pol[i].label);
                return finish(&s, EXIT_USAGE);
            }
    }
    if (cli_output_h5(out))
        return finish(&s, EXIT_USAGE);
    tt_outfile of;
    if (out) { /* the cluster files and the policies' distributions are inputs too */
        const char **in = (const char **)malloc((size_t)(2 + nc + npol) * sizeof *in);
        if (!in) {
            tt_err(s.ctx, TT_ENOMEM, "out of memory");
            return finish(&s, EXIT_FAIL);
        }
        int n = 0;
        in[n++] = mpath;
        in[n++] = path;
        for (int i = 0; i < nc; i++)
            in[n++] = s.cv[i];
        for (int i = 0; i < npol; i++)
            in[n++] = tt_params_input(&s.pol[i].p);
        int rc = tt_outfile_check(s.ctx, &of, out, in, n);
        free((void *)in);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    const char *file = cli_input(path);
    if (!file || tt_trace_load_cols(s.ctx, file, TT_COL_SIM, &s.trace) ||
        tt_sim_jobs_take(s.ctx, s.trace, s.models, &s.jobs) ||
        (out && cli_note_jobs(s.ctx, s.trace, &s.jobs)))
        return finish(&s, EXIT_FAIL);
    if (!(s.metrics = (tt_metrics *)calloc((size_t)npol * (size_t)nsizes, sizeof *s.metrics)))
        return finish(&s, EXIT_FAIL);
    static atomic_int stop;
    tt_run_opts o = {.threads = cli_threads(threads, (int64_t)npol * nsizes),
                     .stop = cli_stop_requested,
                     .stop_arg = &stop};
    cli_stop_on_signal(&stop);
    int rc = tt_size_run(s.ctx, s.sizes, nsizes, s.pol, npol, s.models, &s.jobs, &o, s.metrics);
    cli_stop_on_signal(NULL);
    if (rc == TT_ESTOPPED)
        return finish(&s, cli_stopped(s.ctx));
    if (rc) {
        cli_err("'%s': %s", path, tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
        return finish(&s, EXIT_FAIL);
    }
    tt_size_study st = {&target, s.sizes, nsizes, s.pol, npol, s.models, s.metrics,
                        path, &s.trace->prov};
    if (out) {
        cli_cleanup_on_signal(of.tmp);
        rc = tt_size_save(s.ctx, out, &st);
        cli_cleanup_on_signal(NULL);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    char t[128], line[1024];
    tt_size_target_format(&target, t, sizeof t);
    for (int p = 0; p < npol; p++) {
        tt_size_summary(&st, p, line, sizeof line);
        cli_note("%s: %s", t, line);
    }
    cli_note_unknown_models(&s.jobs);
    cli_warn_empty_metrics(s.metrics, (int64_t)npol * nsizes);
    if (!out || strcmp(out, "-") != 0) /* "-": standard output has the file */
        tt_size_tsv(stdout, &st);
    return finish(&s, EXIT_OK);
}
