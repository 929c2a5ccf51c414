/* tt-plot: figures of sweeps, simulations, tuner searches and traces with
 * gnuplot. The library writes the script and draws it (tt/plot.h); this
 * tool loads the inputs, cleans up after a signal and prints gnuplot's
 * messages. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tt/outfile.h"
#include "tt/plot.h"
#include "tt/size.h"
#include "tt/table.h"
#include "tt/tracefile.h"

static const char usage[] =
    "usage: tt-plot surface|pareto|cdf|timeline|trace|search|rolling|size|lines [-x NAME]\n"
    "               [-y NAME] [-z NAME] [--facet METRIC] [--3d] [--where NAME=VALUE]...\n"
    "               [--baseline FILE]... [--baseline-any] [--label TEXT]...\n"
    "               [--surface SWEEP.h5] [--by NAME[,NAME]...] [--panel NAME]\n"
    "               [--title TEXT] [--size WxH] [--script FILE] -o FIG.png|svg|pdf\n"
    "               [INPUT...]\n";

static void help(void)
{
    printf("%s", usage);
    printf(
        "\nDraws a figure with gnuplot. INPUT: a sweep file (tt-sweep -o), a result file\n"
        "(tt-sim -o), the TSV tt-sweep or tt-sim print, or for trace a trace file; '-' or\n"
        "no INPUT reads standard input.\n"
        "\n"
        "  surface   metric -z (jct_mean) over parameters -x (w0) and -y (theta): heat map\n"
        "            with contours, log axes for geometric grids, inf as an edge column,\n"
        "            the best point marked; --facet METRIC a second panel; --3d pm3d view\n"
        "  pareto    -y (jct_mean) against -x (makespan), the non-dominated front labelled\n"
        "            with its parameters, baselines (strict consolidation, no-wait) and\n"
        "            the rows of each --baseline FILE (tt-sim -o of the same trace,\n"
        "            cluster and models) marked with their configuration;\n"
        "            --baseline-any: any FILE, TSV too, unchecked\n"
        "  cdf       CDF of -x (jct; queue) per job of each INPUT (tt-sim -o with jobs, or\n"
        "            tt-sim --jobs TSV), log x; --label names them in order (default:\n"
        "            the file name)\n"
        "  timeline  queue length, busy GPUs and jobs per placement level over time\n"
        "            (tt-sim -o --timeline file, or tt-sim --timeline TSV)\n"
        "  trace     job-size mix, duration CDF and offered load of a trace file\n"
        "  search    the configurations tt-tune evaluated (INPUT: its -o file) over the\n"
        "            searched dimensions -x, -y (the first two; -y objective or a single\n"
        "            dimension: the objective), coloured by round, the grid baseline and\n"
        "            the recommended, strict and no-wait configurations marked;\n"
        "            --surface SWEEP.h5: its metric -z (jct_mean) as a heat map beneath\n"
        "            (the same trace and cluster)\n"
        "  rolling   a rolling tune (INPUT: tt-tune --rolling -o's file, or its TSV):\n"
        "            each window's choice over the next window, a panel a searched\n"
        "            parameter, and the objective per window against the best static\n"
        "            choice in hindsight, strict consolidation and the first window's\n"
        "            choice\n"
        "  size      a metric -y (the target's) against the cluster size -x (gpus;\n"
        "            nodes) per policy, from tt-size's TSV: the target as a line, each\n"
        "            policy's smallest size that meets it ringed and labelled\n"
        "  lines     metric -y (jct_mean) against swept parameter -x (resize_cost), log x\n"
        "            for geometric values: --by NAME[,NAME]... one line per value of\n"
        "            those parameters, --label names the lines in the order they first\n"
        "            appear; --panel NAME one panel per value of that one\n"
        "\n"
        "  -o FIG           the figure; png (pngcairo), svg or pdf (pdfcairo) by extension\n"
        "  --where N=V      keep only the rows where column N is V (repeatable)\n"
        "  --title TEXT     the title (printed as written)\n"
        "  --size WxH       pixels (pdf: 100 an inch); default 1000x750, facets 1500x650\n"
        "  --script FILE    also write the gnuplot script, data included: `gnuplot FILE`\n"
        "                   redraws FIG without this tool\n"
        "  -h, --help       this help;  --version  version\n"
        "\n"
        "gnuplot is found on PATH, or named by the GNUPLOT environment variable.\n"
        "Exit status: 0 ok, 1 unreadable or empty input, gnuplot missing or failing,\n"
        "write error, 2 usage error (bad option, a column that does not exist, a\n"
        "parameter that was not swept, a --surface or --baseline of another trace or\n"
        "cluster, a --baseline that cannot be checked).\n");
}

/* gnuplot's messages, on stderr after a line of ours: a line that is not
 * blank at a time, at most 1023 bytes (a longer one goes on in pieces). */
static void show_messages(const char *m)
{
    for (const char *p = m; p && *p;) {
        size_t n = strcspn(p, "\n");
        n = n < 1023 ? n + (p[n] == '\n') : 1023;
        if (p[0] != '\n')
            fprintf(stderr, "  gnuplot: %.*s", (int)n, p);
        p += n;
    }
}

/* ---- the figure ---- */

typedef struct {
    int kind;
    tt_plot_opts o;
    const char *wv[64], *bv[64], *lv[64];
    int nw, nb, nl;
    const char *script, *surface;
} args;

enum { K_SURFACE, K_PARETO, K_CDF, K_TIMELINE, K_TRACE, K_SEARCH, K_SIZE, K_LINES, K_ROLLING };
static const char *const kinds[] = {"surface", "pareto", "cdf",  "timeline", "trace",
                                    "search",  "size",   "lines", "rolling"};

/* A table from path, or for "-" from standard input, read whole once
 * into *mem (the search kind reads its space from the same bytes). */
static int load_table(tt_ctx *ctx, const char *path, tt_table_part part, char **mem,
                      size_t *len, tt_table **t)
{
    if (strcmp(path, "-") != 0)
        return tt_table_load(ctx, path, part, t);
    if (!*mem && !(*mem = cli_read_stdin(len)))
        return tt_err(ctx, TT_EIO, "cannot read standard input: %s", strerror(errno));
    return tt_table_read_mem(ctx, "stdin", *mem, *len, part, t);
}

/* Loads an input as the kind needs; table or trace. */
static int load_one(tt_ctx *ctx, const args *a, const char *path, char **mem, size_t *len,
                    tt_table **t, tt_trace **tr)
{
    if (a->kind == K_TRACE)
        return tt_trace_load_cols(ctx, path, TT_COL_STATS, tr); /* its views are statistics */
    tt_table_part part = a->kind == K_CDF        ? TT_TABLE_JOBS
                         : a->kind == K_TIMELINE ? TT_TABLE_TIMELINE
                         : a->kind == K_SEARCH   ? TT_TABLE_TUNE
                         : a->kind == K_ROLLING  ? TT_TABLE_TUNE_ROLLING
                                                 : TT_TABLE_CONFIGS;
    int rc = load_table(ctx, path, part, mem, len, t);
    for (int i = 0; !rc && i < a->nw; i++) {
        char name[64];
        const char *eq = strchr(a->wv[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - a->wv[i]), a->wv[i]);
        rc = tt_table_where(ctx, *t, name, eq + 1);
    }
    return rc;
}

/* The size figure, its target read from tt-size's rows. */
static int size_script(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script)
{
    int c = tt_table_find(t, "target");
    const char *text = c >= 0 ? tt_table_text(t, c, 0) : NULL;
    tt_size_target g;
    if (!text)
        return tt_err(ctx, TT_EINVAL, "'%s' has no text column target: not tt-size's rows",
                      tt_table_source(t));
    if (tt_size_target_parse(ctx, text, &g))
        return TT_EINVAL;
    return tt_plot_size(ctx, t, tt_metric_names[g.metric], g.value, text, o, script);
}

/* The script for the inputs; 0, or a library code (message in ctx). */
static int make_script(tt_ctx *ctx, const args *a, int nin, tt_table **tabs, tt_trace *tr,
                       tt_table **base, const tt_plot_opts *o, char **script)
{
    switch (a->kind) {
    case K_SURFACE: return tt_plot_surface(ctx, tabs[0], o, script);
    case K_PARETO:
        return tt_plot_pareto(ctx, tabs[0], (const tt_table *const *)base, a->nb, o, script);
    case K_CDF:
        return tt_plot_cdf(ctx, (const tt_table *const *)tabs, a->lv, nin, o, script);
    case K_TIMELINE: return tt_plot_timeline(ctx, tabs[0], o, script);
    case K_SEARCH: return tt_plot_search(ctx, tabs[0], base[0], base[1], o, script);
    case K_SIZE: return size_script(ctx, tabs[0], o, script);
    case K_LINES: return tt_plot_lines(ctx, tabs[0], o, script);
    case K_ROLLING: return tt_plot_rolling(ctx, tabs[0], o, script);
    default: {
        tt_table *v[3] = {NULL, NULL, NULL};
        int rc = 0;
        for (int i = 0; i < 3 && !rc; i++)
            rc = tt_table_from_trace(ctx, tr, (tt_table_trace_view)i, 0, &v[i]);
        if (!rc)
            rc = tt_plot_trace(ctx, v[0], v[1], v[2], o, script);
        for (int i = 0; i < 3; i++)
            tt_table_free(v[i]);
        return rc;
    }
    }
}

/* The figure and the script: each none of the inputs and creatable, and
 * not one another; said before anything is read or drawn. 0, or a library
 * code (message in ctx). */
static int check_outputs(tt_ctx *ctx, const args *a, int nin, const char *const *in)
{
    const char *v[64 + 64 + 2];
    int n = 0;
    for (int i = 0; i < nin; i++)
        v[n++] = in[i];
    if (nin == 0)
        v[n++] = "-";
    for (int i = 0; i < a->nb; i++)
        v[n++] = a->bv[i];
    v[n++] = a->surface; /* NULL: skipped */
    tt_outfile fig, scr;
    int rc = tt_outfile_check(ctx, &fig, a->o.output, v, n);
    if (!rc && a->script && !(rc = tt_outfile_check(ctx, &scr, a->script, v, n)) &&
        (strcmp(fig.target, scr.target) == 0 || tt_same_file(fig.target, scr.target)))
        rc = tt_err(ctx, TT_EINVAL,
                    "--script '%s' is also the figure (-o): refusing to overwrite it", a->script);
    return rc;
}

static int draw(tt_ctx *ctx, args *a, int nin, const char *const *in)
{
    int rc = 0, nt = nin > 0 ? nin : 1;
    tt_table *tabs[64] = {NULL}, *base[64] = {NULL};
    tt_trace *tr = NULL;
    char *script = NULL, *mem = NULL, *msgs = NULL;
    size_t len = 0;
    const char *out = a->o.output;
    tt_plot_render r;
    if (check_outputs(ctx, a, nin, in) || tt_plot_render_open(ctx, &r)) {
        cli_err("%s", tt_errmsg(ctx));
        return EXIT_FAIL;
    }
    cli_cleanup cl = {{r.fig.tmp, r.script, r.log}, r.dir, &r.pid};
    cli_cleanup_set(&cl);
    for (int i = 0; i < nt && !rc; i++)
        rc = load_one(ctx, a, nin > 0 ? in[i] : "-", &mem, &len, &tabs[i], &tr);
    for (int i = 0; i < a->nb && !rc; i++)
        rc = load_table(ctx, a->bv[i], TT_TABLE_CONFIGS, &mem, &len, &base[i]);
    if (!rc && a->kind == K_SEARCH) /* base: the space of the input, the sweep beneath */
        rc = load_table(ctx, nin > 0 ? in[0] : "-", TT_TABLE_TUNE_SPACE, &mem, &len, &base[0]);
    if (!rc && a->surface)
        rc = load_table(ctx, a->surface, TT_TABLE_CONFIGS, &mem, &len, &base[1]);
    int64_t left = 0;
    tt_plot_opts o = a->o;
    o.output = NULL; /* drawn to gnuplot's standard output, read by the library */
    o.left_out = &left;
    if (!rc && !(rc = tt_plot_render_target(ctx, &r, out)) &&
        !(rc = make_script(ctx, a, nt, tabs, tr, base, &o, &script)) &&
        !(rc = tt_plot_render_run(ctx, &r, script, out, &msgs))) {
        if (left)
            cli_err("%lld row%s left out: a metric drawn is empty there (it cannot be computed)",
                    (long long)left, left == 1 ? "" : "s");
        show_messages(msgs); /* warnings, if any: a figure that needs a look */
        free(msgs);
        msgs = NULL;
        if (a->script) { /* the script the author keeps draws the figure under its own name */
            free(script);
            script = NULL;
            if ((rc = make_script(ctx, a, nt, tabs, tr, base, &a->o, &script)) ||
                (rc = tt_plot_save_script(ctx, script, a->script)))
                unlink(out); /* both or neither */
        }
    }
    if (rc) {
        cli_err("%s", tt_errmsg(ctx));
        show_messages(msgs); /* gnuplot's, when it failed */
    }
    tt_plot_render_close(&r);
    cli_cleanup_set(NULL);
    free(msgs);
    free(script);
    free(mem);
    for (int i = 0; i < 64; i++) {
        tt_table_free(tabs[i]);
        tt_table_free(base[i]);
    }
    tt_trace_free(tr);
    return !rc ? EXIT_OK : rc == TT_EINVAL ? EXIT_USAGE : EXIT_FAIL;
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        help();
        return cli_close_stdout(EXIT_OK);
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0)
        return cli_version();
    args a;
    memset(&a, 0, sizeof a);
    a.kind = -1;
    for (int k = 0; argc >= 2 && k < (int)(sizeof kinds / sizeof kinds[0]); k++)
        if (strcmp(argv[1], kinds[k]) == 0)
            a.kind = k;
    if (a.kind < 0) {
        cli_err(argc < 2 ? "no KIND" : "unknown KIND '%s'", argc < 2 ? "" : argv[1]);
        return cli_usage_error(usage);
    }
    enum { O_FACET = 256, O_3D, O_WHERE, O_BASE, O_ANY, O_LABEL, O_TITLE, O_SIZE, O_SCRIPT,
           O_SURF, O_BY, O_PANEL };
    static const struct option lopts[] = {
        {"facet", required_argument, 0, O_FACET},   {"3d", no_argument, 0, O_3D},
        {"where", required_argument, 0, O_WHERE},   {"baseline", required_argument, 0, O_BASE},
        {"label", required_argument, 0, O_LABEL},   {"title", required_argument, 0, O_TITLE},
        {"size", required_argument, 0, O_SIZE},     {"script", required_argument, 0, O_SCRIPT},
        {"surface", required_argument, 0, O_SURF},  {"baseline-any", no_argument, 0, O_ANY},
        {"by", required_argument, 0, O_BY},         {"panel", required_argument, 0, O_PANEL},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *why = NULL;
    int c;
    optind = 2;
    while (!why && (c = getopt_long(argc, argv, "o:x:y:z:h", lopts, NULL)) != -1) {
        switch (c) {
        case 'o': a.o.output = optarg; break;
        case 'x': a.o.x = optarg; break;
        case 'y': a.o.y = optarg; break;
        case 'z': a.o.z = optarg; break;
        case O_FACET: a.o.facet = optarg; break;
        case O_3D: a.o.view3d = 1; break;
        case O_ANY: a.o.baseline_any = 1; break;
        case O_TITLE: a.o.title = optarg; break;
        case O_SCRIPT: a.script = optarg; break;
        case O_SURF: a.surface = optarg; break;
        case O_BY: a.o.by = optarg; break;
        case O_PANEL: a.o.panel = optarg; break;
        case O_WHERE:
            if (a.nw == 64 || !strchr(optarg, '=') || optarg[0] == '=')
                why = "option --where: expected NAME=VALUE (at most 64)";
            else
                a.wv[a.nw++] = optarg;
            break;
        case O_BASE:
            if (a.nb == 64)
                why = "option --baseline: at most 64";
            else
                a.bv[a.nb++] = optarg;
            break;
        case O_LABEL:
            if (a.nl == 64)
                why = "option --label: at most 64";
            else
                a.lv[a.nl++] = optarg;
            break;
        case O_SIZE: {
            char x;
            if (sscanf(optarg, "%d%c%d", &a.o.width, &x, &a.o.height) != 3 || x != 'x' ||
                a.o.width < 200 || a.o.height < 150 || a.o.width > 10000 || a.o.height > 10000)
                why = "option --size: expected WxH, 200x150 to 10000x10000";
            break;
        }
        case 'h': help(); return cli_close_stdout(EXIT_OK);
        default: return cli_usage_error(usage);
        }
    }
    int nin = argc - optind;
    if (!why && !a.o.output)
        why = "no figure (-o FIG.png|svg|pdf)";
    if (!why && tt_plot_term_of(a.o.output) < 0)
        why = "option -o: the figure's name must end in .png, .svg or .pdf";
    if (!why && nin > 64)
        why = "at most 64 inputs";
    if (!why && nin > 1 && a.kind != K_CDF)
        why = "one input only (several are for cdf)";
    if (!why && (a.nb || a.o.baseline_any) && a.kind != K_PARETO)
        why = "--baseline and --baseline-any are for pareto";
    if (!why && a.surface && a.kind != K_SEARCH)
        why = "--surface is for search";
    if (!why && (a.o.facet || a.o.view3d) && a.kind != K_SURFACE)
        why = "--facet and --3d are for surface";
    if (!why && (a.o.by || a.o.panel) && a.kind != K_LINES)
        why = "--by and --panel are for lines";
    if (!why && a.nl && a.kind != K_CDF && a.kind != K_LINES)
        why = "--label is for cdf and lines";
    if (!why && a.nl && a.kind == K_CDF && a.nl > (nin > 0 ? nin : 1))
        why = "--label is for cdf, at most one per input (in their order)";
    a.o.labels = a.lv;
    a.o.nlabels = a.kind == K_LINES ? a.nl : 0;
    const char *inputs[64 + 64 + 1];
    int ni = 0;
    for (int i = 0; !why && i < (nin > 0 ? nin : 1); i++)
        inputs[ni++] = nin > 0 ? argv[optind + i] : "-";
    for (int i = 0; !why && i < a.nb; i++)
        inputs[ni++] = a.bv[i];
    inputs[ni++] = a.surface;
    if (!why && cli_stdin_once(inputs, ni))
        why = "";
    if (why) {
        if (*why)
            cli_err("%s", why);
        return cli_usage_error(usage);
    }
    a.o.term = (tt_plot_term)tt_plot_term_of(a.o.output);
    const char *const *in = (const char *const *)(argv + optind);
    if (a.kind == K_TRACE) { /* HDF5 seeks: "-" is read from a copy */
        if (!(inputs[0] = cli_input(inputs[0])))
            return EXIT_FAIL;
        in = inputs;
        nin = 1;
    }
    tt_ctx *ctx = tt_ctx_create();
    if (!ctx) {
        cli_err("out of memory");
        return EXIT_FAIL;
    }
    int status = draw(ctx, &a, nin, in);
    tt_ctx_free(ctx);
    return status;
}
