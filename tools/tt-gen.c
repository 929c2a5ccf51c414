/* tt-gen: a synthetic, reproducible job trace with Philly-like shapes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/gen.h"
#include "tt/outfile.h"
#include "tt/parse.h"
#include "tt/tracefile.h"

static const char usage[] =
    "usage: tt-gen -n JOBS [-s SEED] [-a SECONDS] [-b BATCH] [-g MIX] [-d MIX] [-w MIX]\n"
    "              [-u USERS] [-v VCS] [--day-ratio R] [--peak-hour H] [--weekend F]\n"
    "              [--user-skew S] [--vc-skew S] [--start EPOCH] [--elastic F]\n"
    "              [--wf-frac F] [--wf-shape SHAPES] [--models M] -o OUT.h5\n";

static void help(const tt_gen_params *d)
{
    char *def = tt_gen_describe(d);
    printf("%s", usage);
    printf("\nWrites a synthetic trace: the same parameters give the same trace on any\n"
           "machine. Defaults are fitted to the Philly per-job CSV (82,247 jobs).\n"
           "\n"
           "  -n JOBS       number of jobs\n"
           "  -s SEED       random seed, >= 0 (default 0)\n"
           "  -a SECONDS    long-run mean time between jobs (default 114.4)\n"
           "  -b BATCH      mean jobs per submission: a burst of near-simultaneous jobs\n"
           "                (0-5 s apart) sharing GPUs, user and VC; geometric (default 1.7)\n"
           "  --day-ratio R busiest hour's submission rate over the quietest's, a raised\n"
           "                cosine over the day (default 1.8; 1 = no daily cycle)\n"
           "  --peak-hour H hour 0-23 of the busiest rate, the quietest 12 h later\n"
           "                (default 15)\n"
           "  --weekend F   Saturday and Sunday rate relative to weekdays (default 0.55)\n"
           "  -g MIX        GPU counts GPUS:WEIGHT,... e.g. 1:0.8,8:0.2 (default: Philly's)\n"
           "  -d MIX        durations: log-normals WEIGHT:MEDIAN_S:SIGMA,... clamped to\n"
           "                [1 s, 60 days] (default fitted to Philly's quantiles)\n"
           "  -w MIX        the -d weights per GPU count, GPUS:W1:W2:...,... one weight\n"
           "                per log-normal, e.g. 1:6:3:1,8:0:1:9; other counts take -d's\n"
           "                (default fitted to Philly's GPU-hours per count; -d without\n"
           "                -w drops them)\n"
           "  -u USERS      users, Zipf-distributed (default 300)\n"
           "  --user-skew S Zipf exponent over users (default 1)\n"
           "  -v VCS        virtual clusters, Zipf-distributed (default 15)\n"
           "  --vc-skew S   Zipf exponent over VCs (default 1.5)\n"
           "  --start EPOCH unix time of the trace start, times then absolute and the\n"
           "                daily cycle in UTC (default: relative, 0 = a Monday 00:00)\n"
           "  --elastic F   add the elastic column: 1 for a share F (0-1) of the jobs, those\n"
           "                tt-sim -p seed=SEED -p el_frac=1000F would draw (docs/model.md\n"
           "                10.1); 0 for the others (default: no column)\n"
           "  --wf-frac F   a share F (0-1) of the jobs are workflow tasks (columns wf,\n"
           "                deps, out_mb; out_mb log-uniform over [1, 1000] MiB)\n"
           "  --wf-shape SHAPES  the workflows' shapes, one drawn per workflow:\n"
           "                chain:L (L tasks in a row), fan:W (one task, then W on it),\n"
           "                mr:M:R (M maps, R reduces on all maps), comma-separated\n"
           "                (default chain:3)\n"
           "  --models M    add the mid column: model ids 0..M-1, Zipf (exponent 1)\n"
           "  -o OUT.h5     output trace (written whole or not at all; - for stdout, not a\n"
           "                terminal)\n"
           "  -h, --help    this help;  --version  version and GPU support\n"
           "\nDefaults in full:\n  %s\n"
           "\nExit status: 0 ok, 1 failure, 2 usage error.\n",
           def ? def : "(out of memory)");
    free(def);
}

static int opt_f64(const char *opt, const char *s, double *out)
{
    if (tt_parse_f64(s, out)) {
        cli_err("option %s: not a number '%s'", opt, s);
        return -1;
    }
    return 0;
}

static int opt_i32(const char *opt, const char *s, int32_t *out)
{
    int64_t v;
    if (cli_i64(opt, s, 1, &v))
        return -1;
    if (v > INT32_MAX) {
        cli_err("option %s: number out of range '%s'", opt, s);
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

static int opt_hour(const char *s, int32_t *out)
{
    int64_t v;
    if (cli_i64("--peak-hour", s, 0, &v))
        return -1;
    if (v > 23) {
        cli_err("option --peak-hour: not an hour 0-23 '%s'", s);
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

/* A share in [0, 1] as permille (rounded). */
static int opt_permille(const char *opt, const char *s, int32_t *out)
{
    double v;
    if (opt_f64(opt, s, &v))
        return -1;
    if (!(v >= 0.0 && v <= 1.0)) {
        cli_err("option %s: not a share in [0, 1] '%s'", opt, s);
        return -1;
    }
    *out = (int32_t)(v * 1000.0 + 0.5);
    return 0;
}

/* Parses the options into p; EXIT_OK, or the exit status of a bad one. */
static int parse_opts(int argc, char **argv, tt_gen_params *p, tt_ctx *ctx, const char **out,
                      int *have_n)
{
    enum { O_DAY = 256, O_PEAK, O_WEEKEND, O_USKEW, O_VSKEW, O_START, O_VERSION, O_ELASTIC,
           O_WF_FRAC, O_WF_SHAPE, O_MODELS };
    static const struct option lopts[] = {{"day-ratio", required_argument, 0, O_DAY},
                                          {"peak-hour", required_argument, 0, O_PEAK},
                                          {"weekend", required_argument, 0, O_WEEKEND},
                                          {"user-skew", required_argument, 0, O_USKEW},
                                          {"vc-skew", required_argument, 0, O_VSKEW},
                                          {"start", required_argument, 0, O_START},
                                          {"elastic", required_argument, 0, O_ELASTIC},
                                          {"wf-frac", required_argument, 0, O_WF_FRAC},
                                          {"wf-shape", required_argument, 0, O_WF_SHAPE},
                                          {"models", required_argument, 0, O_MODELS},
                                          {"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, O_VERSION},
                                          {0, 0, 0, 0}};
    int c, bad = 0;
    const char *wmix = NULL; /* after every -d, whose components it weighs */
    while (!bad && (c = getopt_long(argc, argv, "n:s:a:b:g:d:w:u:v:o:h", lopts, NULL)) != -1) {
        switch (c) {
        case 'n': bad = cli_i64("-n", optarg, 1, &p->jobs); *have_n = 1; break;
        case 's': bad = cli_i64("-s", optarg, 0, &p->seed); break;
        case 'a': bad = opt_f64("-a", optarg, &p->interarrival); break;
        case 'b': bad = opt_f64("-b", optarg, &p->batch); break;
        case O_DAY: bad = opt_f64("--day-ratio", optarg, &p->day_ratio); break;
        case O_PEAK: bad = opt_hour(optarg, &p->peak_hour); break;
        case O_WEEKEND: bad = opt_f64("--weekend", optarg, &p->weekend); break;
        case O_USKEW: bad = opt_f64("--user-skew", optarg, &p->user_skew); break;
        case O_VSKEW: bad = opt_f64("--vc-skew", optarg, &p->vc_skew); break;
        case O_START: bad = cli_i64("--start", optarg, 0, &p->start); break;
        case O_ELASTIC: bad = opt_permille("--elastic", optarg, &p->elastic); break;
        case O_WF_FRAC:
            bad = opt_f64("--wf-frac", optarg, &p->wf_frac);
            if (!bad && !(p->wf_frac >= 0.0 && p->wf_frac <= 1.0)) {
                cli_err("option --wf-frac: not a share in [0, 1] '%s'", optarg);
                bad = 1;
            }
            break;
        case O_WF_SHAPE:
            if (tt_gen_parse_shapes(ctx, optarg, p)) {
                cli_err("option --wf-shape: %s", tt_errmsg(ctx));
                bad = 1;
            }
            break;
        case O_MODELS: bad = opt_i32("--models", optarg, &p->models); break;
        case 'u': bad = opt_i32("-u", optarg, &p->users); break;
        case 'v': bad = opt_i32("-v", optarg, &p->vcs); break;
        case 'g':
        case 'd':
            if ((c == 'g' ? tt_gen_parse_gpus : tt_gen_parse_durations)(ctx, optarg, p)) {
                cli_err("option -%c: %s", c, tt_errmsg(ctx));
                bad = 1;
            }
            break;
        case 'w': wmix = optarg; break;
        case 'o': *out = optarg; break;
        case 'h': help(p); return cli_close_stdout(EXIT_OK) == EXIT_OK ? -1 : EXIT_FAIL;
        case O_VERSION: return cli_version() == EXIT_OK ? -1 : EXIT_FAIL;
        default: return cli_usage_error(usage);
        }
    }
    if (!bad && wmix && tt_gen_parse_gpu_durations(ctx, wmix, p)) {
        cli_err("option -w: %s", tt_errmsg(ctx));
        bad = 1;
    }
    if (bad)
        return EXIT_USAGE;
    if (optind < argc) {
        cli_err("unexpected argument '%s'", argv[optind]);
        return cli_usage_error(usage);
    }
    if (!*have_n || !*out) {
        cli_err("%s", !*have_n ? "no job count (-n JOBS)" : "no output file (-o OUT.h5)");
        return cli_usage_error(usage);
    }
    if (cli_output_h5(*out))
        return EXIT_USAGE;
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    tt_gen_params p;
    tt_gen_defaults(&p);
    const char *out = NULL;
    int have_n = 0;
    tt_ctx *ctx = tt_ctx_create();
    if (!ctx) {
        cli_err("out of memory");
        return EXIT_FAIL;
    }
    int st = parse_opts(argc, argv, &p, ctx, &out, &have_n);
    if (st != EXIT_OK) {
        tt_ctx_free(ctx);
        return st < 0 ? EXIT_OK : st; /* -1: help or version done */
    }
    tt_outfile of;
    if (tt_outfile_check(ctx, &of, out, NULL, 0)) {
        cli_err("%s", tt_errmsg(ctx));
        tt_ctx_free(ctx);
        return EXIT_FAIL;
    }
    tt_trace *t = NULL;
    int rc = tt_gen_run(ctx, &p, &t);
    if (!rc) {
        cli_cleanup_on_signal(of.tmp);
        rc = tt_trace_save(ctx, t, out);
        cli_cleanup_on_signal(NULL);
    }
    if (rc)
        cli_err("%s", tt_errmsg(ctx));
    tt_trace_free(t);
    tt_ctx_free(ctx);
    if (rc)
        return rc == TT_EINVAL ? EXIT_USAGE : EXIT_FAIL;
    return cli_close_stdout(EXIT_OK);
}
