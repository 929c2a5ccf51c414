/* tt-cat: a trace as TSV (one header line), or its provenance. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/simfile.h"
#include "tt/tracefile.h"

static const char usage[] = "usage: tt-cat [-c COLS] [-H] [--info] TRACE.h5\n";

static const char *const all_cols[] = {"submit",  "duration", "gpus",     "gpu_milli", "start",
                                       "end",     "nodes",    "name",     "user",      "vc",
                                       "model",   "status",   "elastic",  "gpus_min",  "gpus_max",
                                       "wf",      "deps",     "mid",      "mem_mb",    "out_mb"};
#define NALL (int)(sizeof all_cols / sizeof all_cols[0])
#define NBASE 12 /* the columns every trace has; the optional ones follow */

static void help(void)
{
    printf("%s", usage);
    printf("\nPrints the jobs of a trace as TSV with a header line, absent values empty.\n"
           "\n"
           "  -c COLS     comma-separated columns (default all): submit duration gpus\n"
           "              gpu_milli start end nodes name user vc model status, and\n"
           "              those of elastic gpus_min gpus_max wf deps mid mem_mb out_mb\n"
           "              that the trace has (deps: the parents' names, ';' between)\n"
           "  -H          no header line\n"
           "  --info      the provenance attributes instead, as key<TAB>value\n"
           "  -h, --help  this help;  --version  version and GPU support\n"
           "\nTimes are seconds (UTC epoch when time_base is unix, see --info).\n"
           "The output reads back with tt-ingest -f csv.\n"
           "Exit status: 0 ok, 1 bad or unreadable trace, 2 usage error.\n");
}

/* Writes v in decimal at p; returns the new end. */
static char *put_i64(char *p, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *p++ = '-';
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* Value i of optional column c (NBASE ..), deps aside. */
static int64_t opt_value(const tt_trace *t, int c, int64_t i)
{
    switch (c) {
    case 12: return t->elastic[i];
    case 13: return t->gpus_min[i];
    case 14: return t->gpus_max[i];
    case 15: return t->wf[i];
    case 17: return t->mid[i];
    case 18: return t->mem_mb[i];
    default: return t->out_mb[i];
    }
}

/* Strings go out with tabs and newlines replaced, so a row stays a row. */
static void put_str(FILE *o, const char *s)
{
    for (; *s; s++)
        putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, o);
}

static void info(const tt_trace *t)
{
    const tt_provenance *p = &t->prov;
    printf("key\tvalue\n");
    printf("jobs\t%lld\nformat\t%s\n", (long long)t->n, p->format);
    /* keys are the attributes' names; a list gives one row per entry */
    const char *lists[2][2] = {{"source_files", p->source_files},
                               {"source_sha256", p->source_sha256}};
    for (int l = 0; l < 2; l++) {
        const char *s = lists[l][1];
        while (*s) {
            size_t n = strcspn(s, "\n");
            printf("%s\t%.*s\n", lists[l][0], (int)n, s);
            s += n + (s[n] == '\n');
        }
    }
    printf("time_base\t%s\ntimezone\t%s\nduration_unit\t%s\ntool_version\t%s\n", p->time_base,
           p->timezone, p->duration_unit, p->tool_version);
    printf("rows_read\t%lld\nrows_kept\t%lld\n", (long long)p->rows_read, (long long)p->rows_kept);
    for (int r = 0; r < TT_DROP_COUNT; r++)
        if (tt_drop_shown(p, r))
            printf("dropped_%s\t%lld\n", tt_drop_name(r), (long long)p->dropped[r]);
    printf("duplicates\t%lld\nambiguous_times\t%lld\nshifted_times\t%lld\n",
           (long long)p->duplicates, (long long)p->ambiguous_times, (long long)p->shifted_times);
    if (p->duration_mismatches)
        printf("duration_mismatches\t%lld\n", (long long)p->duration_mismatches);
    if (*p->notes) {
        printf("notes\t");
        put_str(stdout, p->notes);
        putchar('\n');
    }
}

static void dump(const tt_trace *t, const int *sel, int nsel, int header)
{
    if (header)
        for (int k = 0; k < nsel; k++)
            printf("%s%c", all_cols[sel[k]], k + 1 < nsel ? '\t' : '\n');
    const tt_strtab *tabs[NALL] = {0};
    const int32_t *codes[NALL] = {0};
    tabs[7] = t->names, codes[7] = t->name;
    tabs[8] = t->users, codes[8] = t->user;
    tabs[9] = t->vcs, codes[9] = t->vc;
    tabs[10] = t->models, codes[10] = t->model;
    tabs[11] = t->statuses, codes[11] = t->status;
    char buf[32];
    for (int64_t i = 0; i < t->n; i++) {
        for (int k = 0; k < nsel; k++) {
            int c = sel[k];
            int64_t v = 0;
            int num = 1;
            switch (c) {
            case 0: v = t->submit[i]; break;
            case 1: v = t->duration[i]; break;
            case 2: v = t->gpus[i]; break;
            case 3: v = t->gpu_milli[i]; break;
            case 4: v = t->start[i]; break;
            case 5: v = t->end[i]; break;
            case 6: v = t->nodes[i]; break;
            case 16: num = 0; break;
            default:
                if (c >= NBASE)
                    v = opt_value(t, c, i);
                else
                    num = 0;
            }
            if (c == 16) {
                /* the parents by name, as csv ingest reads them; a row
                 * without a name by its index */
                for (int64_t d = t->dep_off[i]; d < t->dep_off[i + 1]; d++) {
                    int32_t p = t->deps[d], nm = t->name[p];
                    if (d > t->dep_off[i])
                        putchar(';');
                    if (nm >= 0)
                        put_str(stdout, tt_strtab_get(t->names, nm));
                    else
                        fwrite(buf, 1, (size_t)(put_i64(buf, p) - buf), stdout);
                }
            } else if (num) {
                int absent = (c == 4 || c == 5) ? v == TT_TIME_NONE : (c == 6 && v < 0);
                /* optional columns print -1 as it is: it reads back so */
                if (!absent)
                    fwrite(buf, 1, (size_t)(put_i64(buf, v) - buf), stdout);
            } else if (codes[c][i] >= 0) {
                put_str(stdout, tt_strtab_get(tabs[c], codes[c][i]));
            }
            putchar(k + 1 < nsel ? '\t' : '\n');
        }
    }
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    const char *cols = NULL;
    int want_info = 0, header = 1, c;
    static const struct option lopts[] = {{"info", no_argument, 0, 'i'},
                                          {"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    while ((c = getopt_long(argc, argv, "c:Hh", lopts, NULL)) != -1) {
        switch (c) {
        case 'c': cols = optarg; break;
        case 'H': header = 0; break;
        case 'i': want_info = 1; break;
        case 'h': help(); return cli_close_stdout(EXIT_OK);
        case 'V': return cli_version();
        default: return cli_usage_error(usage);
        }
    }
    if (optind != argc - 1) {
        cli_err(optind >= argc ? "no trace file" : "one trace file only");
        return cli_usage_error(usage);
    }
    int sel[64], nsel = 0;
    if (cols) {
        char *copy = strdup(cols), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int k = 0;
            while (k < NALL && strcmp(all_cols[k], tok) != 0)
                k++;
            const char *near = k == NALL ? tt_view_suggest(tok, all_cols, NALL) : NULL;
            if (near) {
                cli_err("unknown column '%s', did you mean '%s'? (see tt-cat -h)", tok, near);
                free(copy);
                return EXIT_USAGE;
            }
            if (k == NALL || nsel == 64) {
                cli_err("unknown column '%s' (see tt-cat -h)", tok);
                free(copy);
                return EXIT_USAGE;
            }
            sel[nsel++] = k;
        }
        free(copy);
        if (!nsel) {
            cli_err("no column named in -c");
            return EXIT_USAGE;
        }
    } else {
        for (nsel = 0; nsel < NBASE; nsel++)
            sel[nsel] = nsel;
    }
    const char *file = cli_input(argv[optind]); /* "-": a copy of standard input */
    if (!file)
        return EXIT_FAIL;
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    unsigned want = 0; /* --info: the provenance alone */
    for (int k = 0; !want_info && k < nsel; k++)
        want |= tt_trace_col(all_cols[sel[k]]);
    if (!cols && !want_info)
        want |= TT_COL_OPTIONAL;
    if (want & TT_COL_DEPS)
        want |= TT_COL_NAME;
    if (!ctx || tt_trace_load_cols(ctx, file, want, &t)) {
        cli_err("%s", ctx ? tt_errmsg(ctx) : "out of memory");
        tt_ctx_free(ctx);
        return EXIT_FAIL;
    }
    /* the default: the optional columns the trace has */
    for (int k = NBASE; !cols && k < NALL; k++)
        if (tt_trace_cols(t) & tt_trace_col(all_cols[k]))
            sel[nsel++] = k;
    for (int k = 0; k < nsel; k++)
        if (sel[k] >= NBASE && !(tt_trace_cols(t) & tt_trace_col(all_cols[sel[k]]))) {
            cli_err("'%s': the trace has no column '%s'", argv[optind], all_cols[sel[k]]);
            tt_trace_free(t);
            tt_ctx_free(ctx);
            return EXIT_FAIL;
        }
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    if (want_info)
        info(t);
    else
        dump(t, sel, nsel, header);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return cli_close_stdout(EXIT_OK);
}
