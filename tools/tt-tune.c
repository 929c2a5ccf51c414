/* tt-tune: the auto-tuner. Searches scheduler parameters for an objective
 * over the simulated metrics with a budget of simulations, optionally on
 * the first part of a trace with the choice checked on the rest, and
 * prints the recommendation beside the baselines. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tt/outfile.h"
#include "tt/parse.h"
#include "tt/run.h"
#include "tt/sim.h"
#include "tt/tracefile.h"
#include "tt/tune.h"

static const char usage[] =
    "usage: tt-tune -c CLUSTER -s NAME=RANGE [-s ...] [-p NAME=VALUE]... --objective OBJ\n"
    "               [--strategy model|refine] [--budget N] [--batch N] [--seed N]\n"
    "               [--holdout F | --train A:B --test C:D] [-d auto|cpu|gpu] [-j THREADS]\n"
    "               [--models FILE] [-o TUNE.h5] [--line] TRACE.h5\n";

static void help(void)
{
    printf("%s", usage);
    printf(
        "\nChooses scheduler parameters (the delay timers w0, w1, the threshold theta, or\n"
        "any integer parameter) that minimise an objective over the simulated metrics,\n"
        "with a fraction of the simulations of the exhaustive grid, and prints the\n"
        "choice beside the baselines as TSV.\n"
        "\n"
        "  -c CLUSTER        RxNxG or a cluster file, as for tt-sim\n"
        "  -s NAME=RANGE     a searched parameter (repeatable): A:B:N, log:A:B:N or a\n"
        "                    list a,b,c as tt-sweep -g takes them; a range may end in\n"
        "                    ,inf (w0, w1, theta). The grid is their product.\n"
        "                    w0.CLASS, w1.CLASS: that model class's own timer;\n"
        "                    w0.*, w1.*: one such parameter for every class\n"
        "  -p NAME=VALUE     a fixed parameter, as for tt-sim\n"
        "  --objective OBJ   METRIC, a weighted sum (0.5*jct_mean+0.5*makespan, -util to\n"
        "                    maximise), and optionally s.t. METRIC <= BOUND [and ...]\n"
        "                    with BOUND a number, best or F*best (best among the\n"
        "                    configurations compared): jct_mean s.t. makespan <= 1.05*best\n"
        "  --strategy S      model (default): a Gaussian-process surrogate proposes\n"
        "                    each batch; refine: successive refinement of a grid\n"
        "  --budget N        simulations for the search (default 10%% of the grid)\n"
        "  --batch N         simulations per round (default a quarter of the budget,\n"
        "                    16 .. 4096)\n"
        "  --seed N          seed of every random choice (default 1)\n"
        "  --holdout F       tune on the first jobs, test on the last fraction F (0..1)\n"
        "  --train A:B --test C:D\n"
        "                    tune on jobs [A,B), test on jobs [C,D) (indices in submit\n"
        "                    order, from 0); each part's submit times start at 0\n"
        "  -d DEVICE         auto (default), cpu or gpu: the simulations and the\n"
        "                    surrogate's linear algebra (cuBLAS on the GPU)\n"
        "  -j THREADS        CPU threads (default: one per online CPU)\n"
        "  --models FILE     the model table (default: the built-in data/models.tsv)\n"
        "  -o TUNE.h5        also write every evaluated point (HDF5 /tune/history/...)\n"
        "  --line            print only the recommended -p options, for tt-sim\n"
        "  -h, --help        this help;  --version  version and GPU support\n"
        "\n"
        "Output: a header and one row per configuration: role (recommended, strict:\n"
        "w0=w1=inf, no_wait: w0=w1=0, grid_best: the best of a plain grid of the same\n"
        "budget, hindsight: the best found on the test part), objective_train,\n"
        "objective_test, regret_test (objective_test less the hindsight's),\n"
        "feasible_train, feasible_test, the 13 parameters, train_METRIC and\n"
        "test_METRIC for the 16 metrics (test columns empty without a split).\n"
        "stderr: the tt-sim command line of the choice and the simulations spent.\n"
        "Exit status: 0 ok, 1 bad trace, no feasible configuration, GPU failure, write\n"
        "error, 2 usage error (bad option, -c, -s, -p, objective or split).\n");
}

typedef struct {
    const tt_cluster *cl;
    const tt_models *models;
    const tt_sim_jobs *jobs;
    const tt_run_opts *opts;
} evaluator;

static int eval_batch(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    const evaluator *e = (const evaluator *)arg;
    return tt_run_params(ctx, e->cl, e->models, e->jobs, ps, n, e->opts, out);
}

static void progress(void *arg, int round, int64_t done, int64_t budget)
{
    fprintf(stderr, "\r  %s: round %d, %lld/%lld simulations", (const char *)arg, round + 1,
            (long long)done, (long long)budget);
    if (done >= budget)
        fputc('\n', stderr);
}

typedef struct {
    const char **sv, **pv;
    tt_ctx *ctx;
    tt_models *models;
    tt_trace *trace;
    tt_sim_jobs jobs, train, test;
    tt_tune_dim dims[TT_TUNE_MAX_DIMS];
    int nd;
    tt_objective *obj;
    tt_la *la;
    tt_tune *tr, *te;
    tt_tune_roles ro;
} state;

static void release(state *s)
{
    tt_tune_free(s->tr);
    tt_tune_free(s->te);
    tt_la_free(s->la);
    tt_objective_free(s->obj);
    for (int d = 0; d < s->nd; d++)
        tt_tune_dim_free(&s->dims[d]);
    tt_sim_jobs_free(&s->train);
    tt_sim_jobs_free(&s->test);
    tt_sim_jobs_free(&s->jobs);
    tt_trace_free(s->trace);
    tt_models_free(s->models);
    tt_ctx_free(s->ctx);
    free(s->sv);
    free(s->pv);
}

static int finish(state *s, int status)
{
    if (status != EXIT_OK && s->ctx && *tt_errmsg(s->ctx))
        cli_err("%s", tt_errmsg(s->ctx));
    release(s);
    return cli_close_stdout(status);
}

static void print_row(const state *s, int role)
{
    const tt_tune_row *a = tt_tune_row_at(s->tr, s->ro.train_row[role]);
    const tt_tune_row *b = s->te ? tt_tune_row_at(s->te, s->ro.test_row[role]) : NULL;
    char buf[TT_PARAM_TEXT_MAX];
    int ftr = tt_tune_row_feasible(s->tr, s->ro.train_row[role]);
    printf("%s\t%.6f\t", tt_tune_role_names[role], a->objective);
    if (b)
        printf("%.6f\t%.6f\t%d\t%d\t", b->objective, b->objective - s->ro.hindsight, ftr,
               tt_tune_row_feasible(s->te, s->ro.test_row[role]));
    else
        printf("\t\t%d\t\t", ftr);
    for (int i = 0; i < TT_NPARAMS; i++) {
        tt_params_format(&a->params, s->models, i, buf, sizeof buf);
        printf("%s\t", buf);
    }
    for (int part = 0; part < 2; part++)
        for (int i = 0; i < TT_NMETRICS; i++) {
            if (part == 0 || b)
                tt_metric_format(part ? &b->metrics : &a->metrics, i, buf, sizeof buf);
            printf("%s%c", part == 0 || b ? buf : "", part && i + 1 == TT_NMETRICS ? '\n' : '\t');
        }
}

static void print_header(void)
{
    printf("role\tobjective_train\tobjective_test\tregret_test\tfeasible_train\tfeasible_test");
    for (int i = 0; i < TT_NPARAMS; i++)
        printf("\t%s", tt_param_names[i]);
    for (int part = 0; part < 2; part++)
        for (int i = 0; i < TT_NMETRICS; i++)
            printf("\t%s_%s", part ? "test" : "train", tt_metric_names[i]);
    putchar('\n');
}

/* -s NAME=RANGE: one dimension, or one a class for w0.* and w1.*. */
static int add_dims(state *s, const char *name, const char *range)
{
    int all = (strcmp(name, "w0.*") == 0 || strcmp(name, "w1.*") == 0);
    int n = all ? tt_models_count(s->models) : 1;
    for (int c = 0; c < n; c++) {
        char one[80];
        if (all)
            snprintf(one, sizeof one, "%.3s%s", name, tt_models_name(s->models, c));
        if (s->nd == TT_TUNE_MAX_DIMS)
            return tt_err(s->ctx, TT_EINVAL, "-s %s: more than %d searched parameters", name,
                          TT_TUNE_MAX_DIMS);
        if (tt_tune_dim_parse(s->ctx, s->models, all ? one : name, range, &s->dims[s->nd]))
            return -1;
        s->nd++;
    }
    return 0;
}

/* The command line. */
typedef struct {
    const char *cspec, *mpath, *out, *dev, *objtext, *strat, *holdout, *trs, *tes;
    tt_device device;
    int ns, np, line;
    int64_t threads, budget, batch, seed;
    double hf;                 /* --holdout */
    int64_t ta, tb, ua, ub;    /* --train, --test */
} args;

/* Reads the options into a and s->sv, s->pv: -1 to go on, or the exit
 * status (help, version, a usage error: said). */
static int parse_args(int argc, char **argv, args *a, state *s)
{
    memset(a, 0, sizeof *a);
    a->dev = "auto";
    a->strat = "model";
    a->seed = 1;
    int c;
    enum { O_MODELS = 256, O_OBJ, O_STRAT, O_BUDGET, O_BATCH, O_SEED, O_HOLD, O_TRAIN, O_TEST,
           O_LINE };
    static const struct option lopts[] = {
        {"models", required_argument, 0, O_MODELS},  {"objective", required_argument, 0, O_OBJ},
        {"strategy", required_argument, 0, O_STRAT}, {"budget", required_argument, 0, O_BUDGET},
        {"batch", required_argument, 0, O_BATCH},    {"seed", required_argument, 0, O_SEED},
        {"holdout", required_argument, 0, O_HOLD},   {"train", required_argument, 0, O_TRAIN},
        {"test", required_argument, 0, O_TEST},      {"line", no_argument, 0, O_LINE},
        {"help", no_argument, 0, 'h'},               {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0}};
    if (!(s->sv = (const char **)calloc((size_t)argc, sizeof *s->sv)) ||
        !(s->pv = (const char **)calloc((size_t)argc, sizeof *s->pv)) ||
        !(s->ctx = tt_ctx_create())) {
        cli_err("out of memory");
        return finish(s, EXIT_FAIL);
    }
    int bad = 0;
    while (!bad && (c = getopt_long(argc, argv, "c:s:p:d:j:o:h", lopts, NULL)) != -1) {
        switch (c) {
        case 'c': a->cspec = optarg; break;
        case 's': s->sv[a->ns++] = optarg; break;
        case 'p': s->pv[a->np++] = optarg; break;
        case 'd': a->dev = optarg; break;
        case 'j': bad = cli_i64("-j", optarg, 1, &a->threads); break;
        case 'o': a->out = optarg; break;
        case O_MODELS: a->mpath = optarg; break;
        case O_OBJ: a->objtext = optarg; break;
        case O_STRAT: a->strat = optarg; break;
        case O_BUDGET: bad = cli_i64("--budget", optarg, 1, &a->budget); break;
        case O_BATCH: bad = cli_i64("--batch", optarg, 1, &a->batch); break;
        case O_SEED: bad = cli_i64("--seed", optarg, 0, &a->seed); break;
        case O_HOLD: a->holdout = optarg; break;
        case O_TRAIN: a->trs = optarg; break;
        case O_TEST: a->tes = optarg; break;
        case O_LINE: a->line = 1; break;
        case 'h': help(); return finish(s, EXIT_OK);
        case 'V': release(s); return cli_version();
        default: bad = 1;
        }
    }
    const char *why = bad                 ? ""
                      : !a->cspec         ? "no cluster (-c RxNxG)"
                      : !a->ns            ? "nothing to search (-s NAME=RANGE)"
                      : !a->objtext       ? "no objective (--objective OBJ)"
                      : optind >= argc    ? "no trace file"
                      : optind + 1 < argc ? "one trace file only"
                                          : NULL;
    if (!why && tt_device_parse(a->dev, &a->device))
        why = "option -d: expected auto, cpu or gpu";
    if (!why && strcmp(a->strat, "model") && strcmp(a->strat, "refine"))
        why = "option --strategy: expected model or refine";
    if (!why && a->holdout && (a->trs || a->tes))
        why = "--holdout and --train/--test exclude each other";
    if (!why && !a->trs != !a->tes)
        why = "--train and --test go together";
    if (!why && a->holdout && (tt_parse_f64(a->holdout, &a->hf) || !(a->hf > 0 && a->hf < 1)))
        why = "option --holdout: expected a fraction between 0 and 1";
    const char *inputs[] = {a->cspec, a->mpath, optind < argc ? argv[optind] : NULL};
    if (!why && cli_stdin_once(inputs, 3))
        why = "";
    if (!why && a->trs &&
        (tt_parse_range(a->trs, &a->ta, &a->tb) || tt_parse_range(a->tes, &a->ua, &a->ub)))
        why = "options --train/--test: expected A:B with 0 <= A < B";
    if (why) {
        if (*why)
            cli_err("%s", why);
        release(s);
        return cli_usage_error(usage);
    }
    return -1;
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    state s;
    memset(&s, 0, sizeof s);
    args o;
    int status = parse_args(argc, argv, &o, &s);
    if (status >= 0)
        return status;
    const char *path = argv[optind];
    tt_cluster cl;
    tt_params base;
    tt_params_default(&base);
    if (tt_cluster_parse(s.ctx, o.cspec, &cl))
        return finish(&s, EXIT_USAGE);
    if (o.mpath ? tt_models_load(s.ctx, o.mpath, &s.models) : tt_models_default(s.ctx, &s.models))
        return finish(&s, EXIT_FAIL);
    for (int i = 0; i < o.np + o.ns; i++) {
        char name[80];
        int dim = i >= o.np;
        const char *arg = dim ? s.sv[i - o.np] : s.pv[i];
        const char *val = cli_split_arg(dim ? "-s" : "-p", dim ? "RANGE" : "VALUE", arg,
                                        name, sizeof name);
        if (!val)
            return finish(&s, EXIT_USAGE);
        if (dim && add_dims(&s, name, val))
            return finish(&s, EXIT_USAGE);
        if (!dim && tt_params_set(s.ctx, &base, s.models, name, val))
            return finish(&s, EXIT_USAGE);
        for (int k = 0; dim && k < o.np; k++)
            if (strncmp(s.pv[k], name, strlen(name)) == 0 && s.pv[k][strlen(name)] == '=') {
                cli_err("parameter '%s': both fixed with -p and searched with -s", name);
                return finish(&s, EXIT_USAGE);
            }
    }
    if (tt_objective_parse(s.ctx, o.objtext, &s.obj))
        return finish(&s, EXIT_USAGE);
    if (tt_tune_create(s.ctx, &base, s.dims, s.nd, s.obj, &s.tr) ||
        tt_tune_create(s.ctx, &base, s.dims, s.nd, s.obj, &s.te))
        return finish(&s, EXIT_USAGE);
    if (tt_la_create(s.ctx, o.device, &s.la))
        return finish(&s, EXIT_FAIL);
    if (*tt_la_note(s.la) && strcmp(o.strat, "model") == 0)
        cli_err("surrogate's linear algebra on the CPU (GPU: %s)", tt_la_note(s.la));
    const char *inputs[] = {path, o.mpath, o.cspec};
    tt_outfile of;
    if (o.out && tt_outfile_check(s.ctx, &of, o.out, inputs, 3))
        return finish(&s, EXIT_FAIL);
    const char *file = cli_input(path); /* "-": a copy of standard input */
    if (!file || tt_trace_load(s.ctx, file, &s.trace) ||
        tt_sim_jobs_from_trace(s.ctx, s.trace, s.models, &s.jobs))
        return finish(&s, EXIT_FAIL);
    int64_t n = s.jobs.n;
    char split[256] = "none: tuned on every job";
    if (o.holdout && tt_tune_holdout(n, o.hf, &o.ua)) {
        cli_err("option --holdout: %s leaves a part without jobs (%lld in all)", o.holdout,
                (long long)n);
        return finish(&s, EXIT_USAGE);
    }
    if (o.holdout)
        o.ta = 0, o.tb = o.ua, o.ub = n;
    int has_test = o.holdout || o.trs;
    if (has_test) {
        if (o.tb > n || o.ub > n) {
            cli_err("options --train/--test: the trace has %lld jobs", (long long)n);
            return finish(&s, EXIT_USAGE);
        }
        snprintf(split, sizeof split, "train jobs [%lld,%lld), test jobs [%lld,%lld)",
                 (long long)o.ta, (long long)o.tb, (long long)o.ua, (long long)o.ub);
        if (tt_tune_slice(s.ctx, &s.jobs, o.ta, o.tb, &s.train) ||
            tt_tune_slice(s.ctx, &s.jobs, o.ua, o.ub, &s.test))
            return finish(&s, EXIT_FAIL);
    } else {
        tt_tune_free(s.te);
        s.te = NULL;
    }
    static atomic_int stop;
    char used[320] = "";
    tt_run_opts so = {.threads = (int)o.threads, .device = o.device, .stop = cli_stop_requested,
                      .stop_arg = &stop, .used = used, .used_size = sizeof used};
    evaluator etr = {&cl, s.models, has_test ? &s.train : &s.jobs, &so};
    evaluator ete = {&cl, s.models, &s.test, &so};
    int64_t grid = tt_tune_grid_size(s.tr);
    int64_t budget = o.budget ? o.budget : tt_tune_default_budget(s.tr);
    tt_tune_opts to = {strcmp(o.strat, "refine") == 0 ? TT_TUNE_REFINE : TT_TUNE_MODEL, budget,
                       o.batch, (uint64_t)o.seed, s.la, 0, cli_stop_requested, &stop,
                       isatty(STDERR_FILENO) ? progress : NULL, (void *)"search"};
    cli_stop_on_signal(&stop);
    int rc = tt_tune_run_roles(s.ctx, s.tr, s.te, &to, (void *)"hindsight", eval_batch, &etr,
                               &ete, &s.ro);
    cli_stop_on_signal(NULL);
    if (rc == TT_ESTOPPED)
        return finish(&s, cli_stopped(s.ctx));
    if (rc) {
        cli_err("'%s': %s", path, tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
        return finish(&s, EXIT_FAIL);
    }
    char whyinf[512];
    if (tt_tune_why_infeasible(s.ctx, s.tr, whyinf, sizeof whyinf))
        return finish(&s, EXIT_FAIL);
    if (*whyinf) {
        cli_err("no feasible configuration: %s", whyinf);
        return finish(&s, EXIT_FAIL);
    }
    const tt_tune_roles *ro = &s.ro;
    char pline[4096];
    tt_params_format_options(&tt_tune_row_at(s.tr, ro->train_row[TT_ROLE_RECOMMENDED])->params,
                             s.models, pline, sizeof pline);
    if (o.out) {
        tt_tune_save_args a = {s.tr, s.te, s.dims, s.nd, s.obj, o.strat, (uint64_t)o.seed,
                               budget, o.batch > 0 ? o.batch : tt_tune_default_batch(budget),
                               &cl, s.models, path, &s.trace->prov, *used ? used : "cpu",
                               tt_la_describe(s.la), split, pline, ro->nroles,
                               tt_tune_role_names, ro->train_row, s.te ? ro->test_row : NULL};
        cli_cleanup_on_signal(of.tmp);
        rc = tt_tune_save(s.ctx, o.out, &a);
        cli_cleanup_on_signal(NULL);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    int64_t ntr = tt_tune_rows(s.tr);
    cli_err("recommended: tt-sim -c %s %s %s", o.cspec, pline, path);
    cli_err("%lld simulations on train (search %lld, grid baseline %lld, others %lld) over a "
            "grid of %lld (search %.1f%%)%s", (long long)ntr, (long long)ro->sims_search,
            (long long)ro->sims_grid, (long long)(ntr - ro->sims_search - ro->sims_grid),
            (long long)grid, 100.0 * (double)ro->sims_search / (double)grid,
            s.te ? "" : "; no test part (--holdout or --train/--test)");
    if (s.te) {
        double rec = tt_tune_row_at(s.te, ro->test_row[TT_ROLE_RECOMMENDED])->objective;
        cli_err("%lld simulations on test; regret of the choice on test %.6f (%.2f%% of the "
                "best in hindsight, %s)", (long long)tt_tune_rows(s.te), rec - ro->hindsight,
                ro->hindsight != 0 ? 100.0 * (rec - ro->hindsight) / fabs(ro->hindsight) : 0.0,
                split);
    }
    if (o.device != TT_DEVICE_CPU)
        cli_err("simulations on %s; surrogate on %s", *used ? used : "cpu",
                tt_la_describe(s.la));
    if (o.line) {
        printf("%s\n", pline);
        return finish(&s, EXIT_OK);
    }
    print_header();
    for (int r = 0; r < ro->nroles; r++)
        print_row(&s, r);
    return finish(&s, EXIT_OK);
}
