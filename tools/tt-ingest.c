/* tt-ingest: read job traces of the public formats into a tracetune HDF5
 * trace. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/ingest.h"
#include "tt/outfile.h"
#include "tt/tracefile.h"

static const char usage[] =
    "usage: tt-ingest [-f FORMAT] [-m MAP] [--tz ZONE] [-q] -o OUT.h5 INPUT...\n";

static void help(void)
{
    printf("%s", usage);
    printf("\nReads job traces (files, or - for stdin; plain, gzip or xz) into a trace file.\n"
           "\n"
           "  -f FORMAT   input format (default auto: told from the header); one of:\n");
    for (const char *const *f = tt_ingest_format_list(); *f; f++)
        printf("                %-12s %s\n", *f, tt_ingest_format_help(*f));
    printf("  -m MAP      csv columns by name (implies -f csv): submit=ts,duration=run,gpus=n\n"
           "              (keys: submit duration gpus start end name user vc model status nodes\n"
           "              gpu_milli, and the optional elastic gpus_min gpus_max wf deps mid\n"
           "              mem_mb out_mb); without -m, common header names are recognised\n"
           "  --tz ZONE   zone of times without an offset (IANA name, UTC, +08:00);\n"
           "              default: the format's own (philly: America/Los_Angeles,\n"
           "              helios: Asia/Shanghai, others UTC)\n"
           "  -o OUT.h5   output trace (written whole or not at all; - for stdout, not a\n"
           "              terminal: tt-ingest -o - x.csv | tt-stats -)\n"
           "  -q          no report on stderr\n"
           "  -h, --help  this help;  --version  version and GPU support\n"
           "\nExit status: 0 ok, 1 bad input or I/O error, 2 usage error.\n");
}

static void report(const tt_trace *t)
{
    const tt_provenance *p = &t->prov;
    int64_t dropped = 0;
    for (int r = 0; r < TT_DROP_COUNT; r++)
        dropped += p->dropped[r];
    fprintf(stderr, "%s: %s: %lld rows read, %lld kept, %lld dropped", cli_prog(), p->format,
            (long long)p->rows_read, (long long)p->rows_kept, (long long)dropped);
    const char *sep = " (";
    for (int r = 0; r < TT_DROP_COUNT; r++)
        if (p->dropped[r]) {
            fprintf(stderr, "%s%lld %s", sep, (long long)p->dropped[r], tt_drop_name(r));
            sep = ", ";
        }
    fprintf(stderr, "%s; %lld duplicate rows kept\n", *sep == ',' ? ")" : "",
            (long long)p->duplicates);
    if (p->duration_mismatches)
        fprintf(stderr, "%s: %lld rows give a duration other than end - start: the duration "
                "column wins\n", cli_prog(), (long long)p->duration_mismatches);
    if (p->ambiguous_times || p->shifted_times)
        fprintf(stderr,
                "%s: %lld local times fell in a DST fall-back hour (first taken), %lld in a "
                "spring-forward gap (moved forward); zone %s\n",
                cli_prog(), (long long)p->ambiguous_times, (long long)p->shifted_times,
                p->timezone);
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    tt_ingest_opts o = {"auto", NULL, NULL};
    const char *out = NULL;
    int quiet = 0, c;
    static const struct option lopts[] = {{"tz", required_argument, 0, 'z'},
                                          {"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    while ((c = getopt_long(argc, argv, "f:m:o:qh", lopts, NULL)) != -1) {
        switch (c) {
        case 'f': o.format = optarg; break;
        case 'm': o.map = optarg; break;
        case 'z': o.tz = optarg; break;
        case 'o': out = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': help(); return cli_close_stdout(EXIT_OK);
        case 'V': return cli_version();
        default: return cli_usage_error(usage);
        }
    }
    if (!out || optind >= argc) {
        cli_err("%s", !out ? "no output file (-o OUT.h5)" : "no input file");
        return cli_usage_error(usage);
    }
    if (cli_output_h5(out))
        return EXIT_USAGE;
    if (strcmp(o.format, "auto") != 0 && !tt_ingest_format_help(o.format)) {
        cli_err("unknown format '%s' (see tt-ingest -h)", o.format);
        return EXIT_USAGE;
    }
    if (cli_stdin_once((const char *const *)argv + optind, argc - optind))
        return cli_usage_error(usage);
    tt_ctx *ctx = tt_ctx_create();
    if (!ctx) {
        cli_err("out of memory");
        return EXIT_FAIL;
    }
    tt_outfile of;
    if (tt_outfile_check(ctx, &of, out, (const char *const *)argv + optind, argc - optind)) {
        cli_err("%s", tt_errmsg(ctx));
        tt_ctx_free(ctx);
        return EXIT_FAIL;
    }
    tt_trace *t = NULL;
    int rc = tt_ingest(ctx, &o, (const char *const *)argv + optind, argc - optind, &t);
    if (!rc) {
        cli_cleanup_on_signal(of.tmp);
        rc = tt_trace_save(ctx, t, out);
        cli_cleanup_on_signal(NULL);
    }
    if (rc) {
        cli_err("%s", tt_errmsg(ctx));
        tt_trace_free(t);
        tt_ctx_free(ctx);
        return rc == TT_EINVAL ? EXIT_USAGE : EXIT_FAIL;
    }
    if (!quiet)
        report(t);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return cli_close_stdout(EXIT_OK);
}
