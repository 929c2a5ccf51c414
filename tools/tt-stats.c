/* tt-stats: the characterisation of a trace as TSV tables (one header
 * line each): summary, quantiles, GPU counts, VCs, offered load. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/stats.h"
#include "tt/tracefile.h"

static const char usage[] = "usage: tt-stats [-s SECTION] [-b SECONDS] TRACE.h5\n";

static const char *const sections[] = {"summary", "quantiles", "gpus", "vc", "load", "all"};
enum { S_SUMMARY, S_QUANTILES, S_GPUS, S_VC, S_LOAD, S_ALL, NSECTION };

static void help(void)
{
    printf("%s", usage);
    printf("\nDescribes a trace as TSV tables, each with one header line.\n"
           "\n"
           "  -s SECTION  what to print (default summary):\n"
           "                summary    metric, value: jobs, GPU-hours, span, users, VCs, means,\n"
           "                           offered load (GPU-seconds over the submit span), ...;\n"
           "                           elastic_jobs, workflows, tasks when the trace has\n"
           "                           the elastic or wf column\n"
           "                quantiles  mean, min, p10 p25 p50 p75 p90 p99 (nearest rank), max of\n"
           "                           duration_s, gpus, interarrival_s and gpu_s\n"
           "                gpus       jobs and GPU-hours per GPU count, with shares\n"
           "                vc         the same per VC, by GPU-hours descending ('-': no VC)\n"
           "                load       per bin from the first submit: jobs and GPUs submitted,\n"
           "                           demand_gpus = GPUs busy on average if every job ran\n"
           "                           from its submit for its duration\n"
           "                all        every section, each after a line '# SECTION'\n"
           "  -b SECONDS  bin length for load (default 3600; at most %d bins)\n"
           "  -h, --help  this help;  --version  version and GPU support\n"
           "\nFractions have 4 decimals, hours and means 2, rounded exactly from integer sums.\n"
           "Exit status: 0 ok, 1 bad or unreadable trace, 2 usage error.\n",
           TT_STATS_MAX_BINS);
}

/* num / den with d decimals, or "" when den is 0 (undefined). */
static const char *fx(char *buf, int64_t num, int64_t den, int d)
{
    if (den < 1 || tt_stats_fixed(buf, 48, num, den, d) < 0)
        buf[0] = '\0';
    return buf;
}

/* A trace whose durations are not seconds (gavel's steps) is described in
 * its unit: the name of a quantity made of durations says "hours" or ends
 * in "_s", and becomes "steps" / "_steps" here; hour is 3600 s, or 1 step.
 * Submit times are seconds in every trace. */
static const char *unit;
static int64_t hour = 3600;

static const char *named(const char *name)
{
    static char buf[4][64];
    static int k;
    const char *h = strstr(name, "hour");
    size_t n = strlen(name);
    if (hour == 3600 || (!h && (n < 2 || strcmp(name + n - 2, "_s") != 0)))
        return name;
    char *b = buf[k++ % 4];
    if (h) /* gpu_hours, gpu_hour_share: the unit is plural already */
        snprintf(b, sizeof buf[0], "%.*s%s%s", (int)(h - name), name, unit,
                 h[4] == 's' ? h + 5 : h + 4);
    else
        snprintf(b, sizeof buf[0], "%.*s_%s", (int)(n - 2), name, unit);
    return b;
}

static void summary(const tt_trace *t, const tt_stats_summary *s)
{
    char b[48];
    printf("metric\tvalue\n");
    printf("jobs\t%lld\n", (long long)s->jobs);
    printf("%s\t%s\n", named("gpu_hours"), fx(b, s->gpu_s, hour, 2));
    printf("%s\t%s\n", named("gpu_milli_hours"), fx(b, s->gpu_milli_s, hour * 1000, 2));
    printf("first_submit\t%lld\nlast_submit\t%lld\n", (long long)s->first_submit,
           (long long)s->last_submit);
    printf("span_s\t%lld\n", (long long)s->span_s);
    printf("span_days\t%s\n", fx(b, s->span_s, 86400, 2));
    /* none among the jobs: the trace has no such column (empty, as absent
     * values are), not a count of 0 */
    for (int k = 0; k < 2; k++) {
        int64_t v = k ? s->vcs : s->users;
        printf("%s\t", k ? "vcs" : "users");
        if (v)
            printf("%lld", (long long)v);
        putchar('\n');
    }
    printf("duplicates\t%lld\n", (long long)s->duplicates);
    printf("mean_gpus\t%s\n", fx(b, s->gpus_sum, s->jobs, 2));
    printf("max_gpus\t%lld\n", (long long)s->max_gpus);
    printf("%s\t%s\n", named("mean_duration_s"), fx(b, s->duration_sum, s->jobs, 2));
    /* GPUs busy on average: GPU-seconds over seconds, none from steps */
    printf("offered_load_gpus\t%s\n", fx(b, s->gpu_s, hour == 3600 ? s->span_s : 0, 2));
    printf("duration_unit\t%s\n", t->prov.duration_unit);
    /* only for traces with these columns, so other outputs stay as they were */
    if (s->elastic_jobs >= 0)
        printf("elastic_jobs\t%lld\n", (long long)s->elastic_jobs);
    if (s->workflows >= 0)
        printf("workflows\t%lld\ntasks\t%lld\n", (long long)s->workflows, (long long)s->tasks);
}

static void quantiles(const tt_stats_dist *d)
{
    printf("quantity\tmean");
    for (int k = 0; k < TT_STATS_NPCT; k++) {
        int p = tt_stats_pct[k];
        if (p == 0 || p == 100)
            printf("\t%s", p ? "max" : "min");
        else
            printf("\tp%d", p);
    }
    putchar('\n');
    char b[48];
    for (int q = 0; q < TT_STATS_NQUANTITY; q++) {
        const char *name = tt_stats_quantity_name(q); /* interarrival: submits, seconds */
        printf("%s\t%s", q == TT_STATS_INTERARRIVAL ? name : named(name),
               fx(b, d[q].sum, d[q].n, 2));
        for (int k = 0; k < TT_STATS_NPCT; k++) {
            if (d[q].n)
                printf("\t%lld", (long long)d[q].q[k]);
            else
                putchar('\t'); /* no values (interarrival of one job): empty fields */
        }
        putchar('\n');
    }
}

static void groups(const char *key, const tt_stats_group *g, int64_t n, int by_name)
{
    int64_t jobs = 0, gpu_s = 0;
    for (int64_t i = 0; i < n; i++) {
        jobs += g[i].jobs;
        gpu_s += g[i].gpu_s;
    }
    char b1[48], b2[48], b3[48];
    printf("%s\tjobs\tjob_share\t%s\t%s\n", key, named("gpu_hours"), named("gpu_hour_share"));
    for (int64_t i = 0; i < n; i++) {
        if (by_name) {
            /* tabs and newlines in a name would break the row */
            for (const char *c = g[i].name ? g[i].name : "-"; *c; c++)
                putchar(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c);
        } else {
            printf("%lld", (long long)g[i].key);
        }
        printf("\t%lld\t%s\t%s\t%s\n", (long long)g[i].jobs, fx(b1, g[i].jobs, jobs, 4),
               fx(b2, g[i].gpu_s, hour, 2), fx(b3, g[i].gpu_s, gpu_s, 4));
    }
}

static void load(const tt_stats_load *l)
{
    char b[48];
    printf("bin_start\tsubmitted\tsubmitted_gpus\tdemand_gpus\n");
    for (int64_t i = 0; i < l->nbins; i++) /* no demand without seconds: empty */
        printf("%lld\t%lld\t%lld\t%s\n", (long long)(l->start + i * l->bin),
               (long long)l->submitted[i], (long long)l->submitted_gpus[i],
               l->gpu_s ? fx(b, l->gpu_s[i], l->bin, 2) : "");
}

/* Everything the chosen sections need, computed before any is printed so
 * that a failure leaves no partial output. */
typedef struct results {
    tt_stats_summary sum;
    tt_stats_dist dist[TT_STATS_NQUANTITY];
    tt_stats_group *gpus, *vc;
    int64_t ngpus, nvc;
    tt_stats_load load;
} results;

static int compute(tt_ctx *ctx, const tt_trace *t, int sec, int64_t bin, results *r)
{
    int all = sec == S_ALL, rc = 0;
    if (all || sec == S_SUMMARY)
        rc = tt_stats_summary_get(ctx, t, &r->sum);
    for (int q = 0; !rc && (all || sec == S_QUANTILES) && q < TT_STATS_NQUANTITY; q++)
        rc = tt_stats_dist_get(ctx, t, q, &r->dist[q]);
    if (!rc && (all || sec == S_GPUS))
        rc = tt_stats_by_gpus(ctx, t, &r->gpus, &r->ngpus);
    if (!rc && (all || sec == S_VC))
        rc = tt_stats_by_vc(ctx, t, &r->vc, &r->nvc);
    if (!rc && (all || sec == S_LOAD))
        rc = tt_stats_load_get(ctx, t, bin, TT_STATS_MAX_BINS, &r->load);
    return rc;
}

static void print(const tt_trace *t, int sec, const results *r)
{
    for (int s = 0; s < S_ALL; s++) {
        if (sec != S_ALL && sec != s)
            continue;
        if (sec == S_ALL)
            printf("# %s\n", sections[s]);
        switch (s) {
        case S_SUMMARY: summary(t, &r->sum); break;
        case S_QUANTILES: quantiles(r->dist); break;
        case S_GPUS: groups("gpus", r->gpus, r->ngpus, 0); break;
        case S_VC: groups("vc", r->vc, r->nvc, 1); break;
        default: load(&r->load); break;
        }
    }
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    int sec = S_SUMMARY, c;
    int64_t bin = 3600;
    static const struct option lopts[] = {{"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    while ((c = getopt_long(argc, argv, "s:b:h", lopts, NULL)) != -1) {
        switch (c) {
        case 's':
            for (sec = 0; sec < NSECTION && strcmp(sections[sec], optarg) != 0; sec++)
                ;
            if (sec == NSECTION) {
                cli_err("unknown section '%s' (summary, quantiles, gpus, vc, load or all)",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'b':
            if (cli_i64("-b", optarg, 1, &bin))
                return EXIT_USAGE;
            break;
        case 'h': help(); return cli_close_stdout(EXIT_OK);
        case 'V': return cli_version();
        default: return cli_usage_error(usage);
        }
    }
    if (optind != argc - 1) {
        cli_err(optind >= argc ? "no trace file" : "one trace file only");
        return cli_usage_error(usage);
    }
    const char *path = argv[optind];
    const char *file = cli_input(path); /* "-": a copy of standard input */
    if (!file)
        return EXIT_FAIL;
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    if (!ctx || tt_trace_load_cols(ctx, file, TT_COL_STATS, &t)) {
        cli_err("%s", ctx ? tt_errmsg(ctx) : "out of memory");
        tt_ctx_free(ctx);
        return EXIT_FAIL;
    }
    if (!tt_trace_in_seconds(t)) {
        unit = t->prov.duration_unit;
        hour = 1;
    }
    results r;
    memset(&r, 0, sizeof r);
    int rc = compute(ctx, t, sec, bin, &r), status = EXIT_OK;
    if (rc == TT_EINVAL) { /* only the bin length is an argument that can be bad */
        cli_err("option -b %lld: %s", (long long)bin, tt_errmsg(ctx));
        status = EXIT_USAGE;
    } else if (rc) {
        cli_err("'%s': %s", path, tt_errmsg(ctx));
        status = EXIT_FAIL;
    } else {
        static char obuf[1 << 16];
        setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
        print(t, sec, &r);
    }
    free(r.gpus);
    free(r.vc);
    tt_stats_load_free(&r.load);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return cli_close_stdout(status);
}
