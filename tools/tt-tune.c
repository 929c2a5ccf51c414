/* tt-tune: the auto-tuner. Searches scheduler parameters for an objective
 * over the simulated metrics with a budget of simulations, optionally on
 * the first part of a trace with the choice checked on the rest, and
 * prints the recommendation beside the baselines. */
#include <getopt.h>
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
    "               [--holdout F | --train A:B --test C:D | --rolling WINDOW]\n"
    "               [-d auto|cpu|gpu] [-j THREADS] [--models FILE] [-o TUNE.h5] [--line]\n"
    "               TRACE.h5\n";

static const char help[] =
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
    "                    w0.*, w1.*: one such parameter for every class;\n"
    "                    under order=dlas or gittins also promote, prio_preempt,\n"
    "                    gittins_delta, requeue (keep,front) and prio_victims\n"
    "                    (lowest,refill)\n"
    "  -p NAME=VALUE     a fixed parameter, as for tt-sim\n"
    "  --objective OBJ   METRIC, a weighted sum (0.5*jct_mean+0.5*makespan, -util to\n"
    "                    maximise), and optionally s.t. METRIC <= BOUND [and ...]\n"
    "                    with BOUND a number, best or F*best (best among the\n"
    "                    configurations compared): jct_mean s.t. makespan <= 1.05*best\n"
    "  --strategy S      model (default): a Gaussian-process surrogate proposes\n"
    "                    each batch; refine: successive refinement of a grid;\n"
    "                    both end with coordinate steps around the best points\n"
    "  --budget N        simulations for the search (default the larger of 256 and\n"
    "                    10% of the grid, at most the grid); when the grid's\n"
    "                    distinct simulations fit it, the search runs them all\n"
    "                    and its answer is exact\n"
    "  --batch N         simulations per round (default a quarter of the budget,\n"
    "                    16 .. 4096)\n"
    "  --seed N          seed of every random choice (default 1)\n"
    "  --holdout F       tune on the first jobs, test on the last fraction F (0..1)\n"
    "  --train A:B --test C:D\n"
    "                    tune on jobs [A,B), test on jobs [C,D) (indices in submit\n"
    "                    order, from 0); each part's submit times start at 0\n"
    "  --rolling WINDOW  re-tune on each window of WINDOW (7d, 12h, 90m, 3600s;\n"
    "                    by the trace's submit times) and apply the choice to the\n"
    "                    next: a TSV row a window against the best static choice\n"
    "                    in hindsight, strict consolidation and the first\n"
    "                    window's choice, and a total row\n"
    "  -d DEVICE         auto (default), cpu or gpu: the simulations and the\n"
    "                    surrogate's linear algebra (cuBLAS on the GPU)\n"
    "  -j THREADS        CPU threads (default: one per CPU this process may use);\n"
    "                    at most 4 x those CPUs (a note says so)\n"
    "  --models FILE     the model table (default: the built-in data/models.tsv)\n"
    "  -o TUNE.h5        also write every evaluated point (HDF5 /tune/history/...);\n"
    "                    - for stdout (not a terminal), the table then not printed\n"
    "  --line            print only the recommended -p options, for tt-sim\n"
    "  -h, --help        this help;  --version  version and GPU support\n"
    "\n"
    "Output: a header and one row per configuration: role (recommended, strict:\n"
    "w0=w1=inf, no_wait: w0=w1=0, grid_best: the best of a plain grid of the same\n"
    "budget, hindsight: the best found on the test part), objective_train,\n"
    "objective_test, regret_test (objective_test less the hindsight's),\n"
    "feasible_train, feasible_test, the 33 parameters, train_METRIC and\n"
    "test_METRIC for the 35 metrics (test columns empty without a split).\n"
    "stderr: the tt-sim command line of the choice, 'budget may be too small: ...'\n"
    "and why whenever the search was not exact (no search can vouch for a choice\n"
    "among simulations it did not run), the simulations spent ('exact: all N\n"
    "distinct simulations of the grid' where the search ran them all, else\n"
    "'not exact: ...' with what it left), a line when\n"
    "the grid baseline beat the search on train,\n"
    "and with a test part the verdict there: whether the choice beats strict\n"
    "consolidation, no-wait and the grid baseline's choice, or which to keep.\n"
    "Exit status: 0 ok, 1 bad trace, no feasible configuration, GPU failure, write\n"
    "error, 2 usage error (bad option, -c, -s, -p, objective or split).\n";

static void progress(void *arg, int round, int64_t done, int64_t budget)
{
    fprintf(stderr, "\r  %s: round %d, %lld/%lld simulations%s", (const char *)arg, round + 1,
            (long long)done, (long long)budget, done >= budget ? "\n" : "");
}

/* The command line, and what the run holds. */
typedef struct {
    const char *cspec, *mpath, *out, *objtext, *strat, *holdout, *trs, *tes, *rolling;
    const char **sv, **pv; /* the -s and -p arguments */
    int ns, np, line;
    tt_device device;
    int64_t threads, budget, batch, seed;
    double hf;            /* --holdout */
    int64_t range[4];     /* --train A:B --test C:D */
    int64_t width;        /* --rolling, seconds */
    tt_ctx *ctx;
    tt_models *models;
    tt_trace *trace;
    tt_sim_jobs jobs, train, test;
    tt_tune_space sp;
    tt_objective *obj;
    tt_la *la;
    tt_tune *tr, *te;
} state;

static void release(void *arg)
{
    state *s = arg;
    tt_tune_free(s->tr);
    tt_tune_free(s->te);
    tt_la_free(s->la);
    tt_objective_free(s->obj);
    tt_tune_space_free(&s->sp);
    tt_sim_jobs_free(&s->train);
    tt_sim_jobs_free(&s->test);
    tt_sim_jobs_free(&s->jobs);
    tt_trace_free(s->trace);
    tt_models_free(s->models);
    tt_ctx_free(s->ctx);
    free(s->sv);
    free(s->pv);
}

static int finish(state *s, int status) { return cli_finish(s->ctx, status, release, s); }

/* Reads the options into s: -1 to go on, or the exit status (help,
 * version, a usage error: said). */
static int parse_args(int argc, char **argv, state *s)
{
    const char *dev = "auto";
    s->strat = "model";
    s->seed = 1;
    enum { O_MODELS = 256, O_OBJ, O_STRAT, O_BUDGET, O_BATCH, O_SEED, O_HOLD, O_TRAIN, O_TEST,
           O_LINE, O_ROLL };
    static const struct option lopts[] = {
        {"models", required_argument, 0, O_MODELS},  {"objective", required_argument, 0, O_OBJ},
        {"strategy", required_argument, 0, O_STRAT}, {"budget", required_argument, 0, O_BUDGET},
        {"batch", required_argument, 0, O_BATCH},    {"seed", required_argument, 0, O_SEED},
        {"holdout", required_argument, 0, O_HOLD},   {"train", required_argument, 0, O_TRAIN},
        {"test", required_argument, 0, O_TEST},      {"line", no_argument, 0, O_LINE},
        {"rolling", required_argument, 0, O_ROLL},
        {"help", no_argument, 0, 'h'},               {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0}};
    if (!(s->sv = (const char **)calloc((size_t)argc, sizeof *s->sv)) ||
        !(s->pv = (const char **)calloc((size_t)argc, sizeof *s->pv)) ||
        !(s->ctx = tt_ctx_create())) {
        cli_err("out of memory");
        return finish(s, EXIT_FAIL);
    }
    int bad = cli_param_as_option(argc, argv, lopts), c;
    while (!bad && (c = getopt_long(argc, argv, "c:s:p:d:j:o:h", lopts, NULL)) != -1) {
        switch (c) {
        case 'c': s->cspec = optarg; break;
        case 's': s->sv[s->ns++] = optarg; break;
        case 'p': s->pv[s->np++] = optarg; break;
        case 'd': dev = optarg; break;
        case 'j': bad = cli_threads_arg(optarg, &s->threads); break;
        case 'o': s->out = optarg; break;
        case O_MODELS: s->mpath = optarg; break;
        case O_OBJ: s->objtext = optarg; break;
        case O_STRAT: s->strat = optarg; break;
        case O_BUDGET: bad = cli_i64("--budget", optarg, 1, &s->budget); break;
        case O_BATCH: bad = cli_i64("--batch", optarg, 1, &s->batch); break;
        case O_SEED: bad = cli_i64("--seed", optarg, 0, &s->seed); break;
        case O_HOLD: s->holdout = optarg; break;
        case O_TRAIN: s->trs = optarg; break;
        case O_TEST: s->tes = optarg; break;
        case O_LINE: s->line = 1; break;
        case O_ROLL: s->rolling = optarg; break;
        case 'h': printf("%s%s", usage, help); return finish(s, EXIT_OK);
        case 'V': release(s); return cli_version();
        default: bad = 1;
        }
    }
    const char *why = bad                 ? ""
                      : !s->cspec         ? "no cluster (-c RxNxG)"
                      : !s->ns            ? "nothing to search (-s NAME=RANGE)"
                      : !s->objtext       ? "no objective (--objective OBJ)"
                      : optind >= argc    ? "no trace file"
                      : optind + 1 < argc ? "one trace file only"
                                          : NULL;
    if (!why && tt_device_parse(dev, &s->device))
        why = "option -d: expected auto, cpu or gpu";
    if (!why && strcmp(s->strat, "model") && strcmp(s->strat, "refine"))
        why = "option --strategy: expected model or refine";
    if (!why && s->holdout && (s->trs || s->tes))
        why = "--holdout and --train/--test exclude each other";
    if (!why && s->line && s->out && strcmp(s->out, "-") == 0)
        why = "--line and -o - both write to standard output";
    if (!why && s->rolling && (s->holdout || s->trs || s->tes))
        why = "--rolling excludes --holdout and --train/--test";
    if (!why && s->rolling && tt_parse_duration(s->rolling, &s->width))
        why = "option --rolling: expected a duration of at least 1 s: 7d, 12h, 90m or 3600s";
    if (!why && !s->trs != !s->tes)
        why = "--train and --test go together";
    if (!why && s->holdout && (tt_parse_f64(s->holdout, &s->hf) || !(s->hf > 0 && s->hf < 1)))
        why = "option --holdout: expected a fraction between 0 and 1";
    const char *inputs[] = {s->cspec, s->mpath, optind < argc ? argv[optind] : NULL};
    if (!why && cli_stdin_once(inputs, 3))
        why = "";
    if (!why && s->trs &&
        (tt_parse_range(s->trs, &s->range[0], &s->range[1]) ||
         tt_parse_range(s->tes, &s->range[2], &s->range[3])))
        why = "options --train/--test: expected A:B with 0 <= A < B";
    if (why && *why)
        cli_err("%s", why);
    if (why)
        release(s);
    return why ? cli_usage_error(usage) : -1;
}

/* --rolling: a search on each window, its choice simulated on the next. */
static int rolling(state *s, const tt_cluster *cl, const char *path, tt_outfile *of)
{
    tt_tune_rolling r;
    int rc = tt_tune_rolling_init(s->ctx, &r, &s->jobs, s->width, &s->sp.base, s->sp.dims,
                                  s->sp.ndims, s->obj, cl, s->models);
    if (rc) /* one window, an objective with conditions, a grid too large */
        return finish(s, rc == TT_EINVAL || rc == TT_ERANGE ? EXIT_USAGE : EXIT_FAIL);
    static atomic_int stop;
    char used[320] = "", pline[4096], hline[4096], line[2048], note[1024];
    tt_run_opts so = {.threads = cli_threads(s->threads, 0), .device = s->device,
                      .stop = cli_stop_requested, .stop_arg = &stop, .used = used,
                      .used_size = sizeof used};
    tt_tune_sim *ev = (tt_tune_sim *)calloc((size_t)r.n, sizeof *ev);
    void **args = (void **)calloc((size_t)r.n, sizeof *args);
    if (!ev || !args) {
        free(ev);
        free(args);
        tt_tune_rolling_free(&r);
        cli_err("out of memory");
        return finish(s, EXIT_FAIL);
    }
    for (int64_t k = 0; k < r.n; k++) {
        ev[k] = (tt_tune_sim){cl, s->models, &r.jobs[k], &so};
        args[k] = &ev[k];
    }
    int64_t budget = s->budget ? s->budget : tt_tune_default_budget(s->tr);
    tt_tune_opts to = {strcmp(s->strat, "refine") == 0 ? TT_TUNE_REFINE : TT_TUNE_MODEL, budget,
                       s->batch, (uint64_t)s->seed, s->la, 0, cli_stop_requested, &stop,
                       isatty(STDERR_FILENO) ? progress : NULL, (void *)"window search"};
    cli_stop_on_signal(&stop);
    rc = tt_tune_rolling_run(s->ctx, &r, &to, tt_tune_eval_sim, args);
    cli_stop_on_signal(NULL);
    int status = EXIT_OK;
    if (rc == TT_ESTOPPED) {
        status = cli_stopped(s->ctx);
    } else if (rc) {
        cli_err("'%s': %s", path, tt_errmsg(s->ctx));
        tt_err_clear(s->ctx);
        status = EXIT_FAIL;
    }
    const tt_tune_row *last = rc ? NULL : tt_tune_row_at(r.t[r.n - 1], r.w[r.n - 1].choice);
    tt_params hs;
    if (!rc) {
        tt_params_format_options(&last->params, s->models, pline, sizeof pline);
        tt_tune_point(r.t[0], r.hindsight_point, &hs);
        tt_params_format_options(&hs, s->models, hline, sizeof hline);
        tt_tune_rolling_verdict(&r, s->rolling, line, sizeof line);
        snprintf(note, sizeof note, "rolling %s: %lld windows by submit time, each tuned alone "
                 "and its choice simulated on the next", s->rolling, (long long)r.n);
    }
    if (!rc && s->out) {
        tt_tune_save_args a = {NULL, NULL, s->sp.dims, s->sp.ndims, s->obj, s->strat,
                               (uint64_t)s->seed, budget,
                               s->batch > 0 ? s->batch : tt_tune_default_batch(budget), cl,
                               s->models, path, &s->trace->prov, *used ? used : "cpu",
                               tt_la_describe(s->la), note, pline, 0, NULL, NULL, NULL, "",
                               NULL, "", line, &r, s->rolling, hline};
        cli_cleanup_on_signal(of->tmp);
        if (tt_tune_save(s->ctx, s->out, &a))
            status = EXIT_FAIL;
        cli_cleanup_on_signal(NULL);
    }
    if (!rc && status == EXIT_OK) {
        cli_err("recommended (the last window's choice): tt-sim -c %s %s %s", s->cspec, pline,
                path);
        cli_err("best static choice in hindsight: tt-sim -c %s %s %s", s->cspec, hline, path);
        for (int64_t k = 0; k < r.n; k++) {
            tt_tune_rolling_window_note(&r, k, note, sizeof note);
            if (*note)
                cli_err("%s", note);
        }
        tt_tune_rolling_describe(&r, s->rolling, note, sizeof note);
        cli_err("%s", note);
        cli_err("%s", line);
        if (s->device != TT_DEVICE_CPU)
            cli_err("simulations on %s; surrogate on %s", *used ? used : "cpu",
                    tt_la_describe(s->la));
        if (s->line)
            printf("%s\n", pline);
        else
            tt_tune_rolling_tsv(stdout, &r, s->models);
    }
    free(ev);
    free(args);
    tt_tune_rolling_free(&r);
    return finish(s, status);
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    state s = {0};
    int status = parse_args(argc, argv, &s);
    if (status >= 0)
        return status;
    if (cli_output_h5(s.out))
        return finish(&s, EXIT_USAGE);
    const char *path = argv[optind];
    tt_cluster cl;
    if (tt_cluster_parse(s.ctx, s.cspec, &cl))
        return finish(&s, EXIT_USAGE);
    if (s.mpath ? tt_models_load(s.ctx, s.mpath, &s.models) : tt_models_default(s.ctx, &s.models))
        return finish(&s, EXIT_FAIL);
    tt_tune_space_init(&s.sp, s.models);
    for (int i = 0; i < s.np + s.ns; i++) { /* -p first: mix and timers name classes */
        char name[80];
        int dim = i >= s.np;
        const char *val = cli_split_arg(dim ? "-s" : "-p", dim ? "RANGE" : "VALUE",
                                        dim ? s.sv[i - s.np] : s.pv[i], name, sizeof name);
        if (!val || (dim ? tt_tune_space_search(s.ctx, &s.sp, name, val)
                         : (cli_warn_value(s.models, name, val),
                            tt_tune_space_fix(s.ctx, &s.sp, name, val))))
            return finish(&s, EXIT_USAGE);
    }
    if (tt_objective_parse(s.ctx, s.objtext, &s.obj) ||
        tt_tune_create(s.ctx, &s.sp.base, s.sp.dims, s.sp.ndims, s.obj, &s.tr) ||
        ((s.holdout || s.trs) &&
         tt_tune_create(s.ctx, &s.sp.base, s.sp.dims, s.sp.ndims, s.obj, &s.te)))
        return finish(&s, EXIT_USAGE);
    if (tt_la_create(s.ctx, s.device, &s.la))
        return finish(&s, EXIT_FAIL);
    if (*tt_la_note(s.la) && strcmp(s.strat, "model") == 0)
        cli_err("surrogate's linear algebra on the CPU (GPU: %s)", tt_la_note(s.la));
    const char *inputs[] = {path, s.mpath, s.cspec, tt_params_input(&s.sp.base)};
    tt_outfile of;
    if (s.out && tt_outfile_check(s.ctx, &of, s.out, inputs, 4))
        return finish(&s, EXIT_FAIL);
    const char *file = cli_input(path); /* "-": a copy of standard input */
    if (!file || tt_trace_load_cols(s.ctx, file, TT_COL_SIM, &s.trace) ||
        tt_sim_jobs_take(s.ctx, s.trace, s.models, &s.jobs) ||
        (s.out && cli_note_jobs(s.ctx, s.trace, &s.jobs)))
        return finish(&s, EXIT_FAIL);
    if (s.rolling)
        return rolling(&s, &cl, path, &of);
    char split[256];
    int rc = tt_tune_split(s.ctx, &s.jobs, s.hf, s.range, &s.train, &s.test, split, sizeof split);
    if (rc == TT_ERANGE && s.holdout) /* said in the words of the options */
        tt_err(s.ctx, rc, "option --holdout: %s leaves a part without jobs (%lld in all)",
               s.holdout, (long long)s.jobs.n);
    else if (rc == TT_ERANGE)
        tt_err(s.ctx, rc, "options --train/--test: the trace has %lld jobs", (long long)s.jobs.n);
    if (rc)
        return finish(&s, rc == TT_ERANGE ? EXIT_USAGE : EXIT_FAIL);
    static atomic_int stop;
    char used[320] = "", pline[4096], line[1024];
    tt_run_opts so = {.threads = cli_threads(s.threads, 0), .device = s.device, .stop = cli_stop_requested,
                      .stop_arg = &stop, .used = used, .used_size = sizeof used};
    tt_tune_sim etr = {&cl, s.models, s.te ? &s.train : &s.jobs, &so};
    tt_tune_sim ete = {&cl, s.models, &s.test, &so};
    /* configurations of one canonical form over a part share a simulation */
    if (tt_tune_set_canon(s.ctx, s.tr, &cl, s.models, etr.jobs) ||
        (s.te && tt_tune_set_canon(s.ctx, s.te, &cl, s.models, ete.jobs)))
        return finish(&s, EXIT_FAIL);
    int64_t budget = s.budget ? s.budget : tt_tune_default_budget(s.tr);
    tt_tune_opts to = {strcmp(s.strat, "refine") == 0 ? TT_TUNE_REFINE : TT_TUNE_MODEL, budget,
                       s.batch, (uint64_t)s.seed, s.la, 0, cli_stop_requested, &stop,
                       isatty(STDERR_FILENO) ? progress : NULL, (void *)"search"};
    tt_tune_roles ro;
    cli_stop_on_signal(&stop);
    rc = tt_tune_run_roles(s.ctx, s.tr, s.te, &to, (void *)"hindsight", tt_tune_eval_sim, &etr,
                           &ete, &ro);
    cli_stop_on_signal(NULL);
    if (rc == TT_ESTOPPED)
        return finish(&s, cli_stopped(s.ctx));
    if (rc) { /* the trace named, then why */
        cli_err("'%s': %s", path, tt_errmsg(s.ctx));
        tt_err_clear(s.ctx);
    }
    if (rc || tt_tune_check_feasible(s.ctx, s.tr))
        return finish(&s, EXIT_FAIL);
    tt_params_format_options(&tt_tune_row_at(s.tr, ro.train_row[TT_ROLE_RECOMMENDED])->params,
                             s.models, pline, sizeof pline);
    char note[320], gnote[320], verdict[512], xnote[320];
    tt_tune_budget_note(ro.gain, ro.room, ro.exact, ro.sims_search, ro.forms,
                        tt_tune_grid_size(s.tr), note, sizeof note);
    tt_tune_exact_note(s.tr, &ro, xnote, sizeof xnote);
    tt_tune_grid_note(s.tr, &ro, gnote, sizeof gnote);
    tt_tune_verdict(s.te, &ro, verdict, sizeof verdict);
    if (s.out) {
        tt_tune_save_args a = {s.tr, s.te, s.sp.dims, s.sp.ndims, s.obj, s.strat,
                               (uint64_t)s.seed, budget,
                               s.batch > 0 ? s.batch : tt_tune_default_batch(budget), &cl,
                               s.models, path, &s.trace->prov, *used ? used : "cpu",
                               tt_la_describe(s.la), split, pline, ro.nroles,
                               tt_tune_role_names, ro.train_row, s.te ? ro.test_row : NULL,
                               note, &ro, gnote, verdict, NULL, NULL, NULL};
        cli_cleanup_on_signal(of.tmp);
        rc = tt_tune_save(s.ctx, s.out, &a);
        cli_cleanup_on_signal(NULL);
        if (rc)
            return finish(&s, EXIT_FAIL);
    }
    cli_err("recommended: tt-sim -c %s %s %s", s.cspec, pline, path);
    if (*note)
        cli_err("%s", note);
    if (*gnote)
        cli_err("%s", gnote);
    for (int part = 0; part < (s.te ? 2 : 1); part++) {
        tt_tune_describe(part ? s.te : s.tr, &ro, part, split, line, sizeof line);
        cli_err("%s%s", line, s.te ? "" : "; no test part (--holdout or --train/--test)");
        if (part == 0 && *xnote)
            cli_err("%s", xnote);
    }
    if (*verdict)
        cli_err("%s", verdict);
    if (s.device != TT_DEVICE_CPU)
        cli_err("simulations on %s; surrogate on %s", *used ? used : "cpu",
                tt_la_describe(s.la));
    if (s.line)
        printf("%s\n", pline);
    else if (!s.out || strcmp(s.out, "-") != 0) /* "-": standard output has the file */
        tt_tune_tsv(stdout, s.tr, s.te, &ro, s.models); /* a failed write: cli_close_stdout */
    return finish(&s, EXIT_OK);
}
