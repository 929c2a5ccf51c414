/* tt-merge: joins the shard files of one sweep (tt-sweep --shard K/N -o)
 * into the file the whole sweep would have written. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tt/outfile.h"
#include "tt/sweepmerge.h"

static const char usage[] = "usage: tt-merge -o MERGED.h5 SHARD.h5...\n";

static void help(void)
{
    printf("%s", usage);
    printf(
        "\nJoins the shard files of one sweep (tt-sweep --shard K/N -o SHARD.h5), given\n"
        "in any order, into one sweep file in the layout of an unsharded tt-sweep -o:\n"
        "/sweep/index 0 .. configurations-1, every /sweep/params and /sweep/metrics\n"
        "column with its HDF5 type and attributes, rows in configuration order.\n"
        "\n"
        "  -o MERGED.h5    the output, written whole or not at all; an existing file is\n"
        "                  replaced, unless it is one of the shards; - for stdout (not a\n"
        "                  terminal)\n"
        "  -h, --help      this help;  --version  version and GPU support\n"
        "\n"
        "Checks, before anything is written: the shards share tracetune_layout\n"
        "(sweep/1), trace_source_sha256, trace_format, cluster, models_sha256,\n"
        "configurations and configs_sha256 (the grid; files without it, from an older\n"
        "tt-sweep, are refused); shards K/N of one N, every K from 0 to N-1 exactly\n"
        "once; each file's /sweep/index is K, K+N, K+2N, ... with its shard's row\n"
        "count; every file has the same columns with the same types.\n"
        "The attributes of /sweep are shard 0's, except shard (0/1), rows, device (the\n"
        "shards' devices, '; ' between), elapsed_s (the sum over the shards: compute\n"
        "time), sims_per_s (rows / elapsed_s) and merged_from (the shard files).\n"
        "Exit status: 0 ok, 1 bad or unreadable shard, shards that are not one whole\n"
        "sweep, the output is a shard, write error, 2 usage error.\n");
}

int main(int argc, char **argv)
{
    cli_init(argv[0]);
    const char *out = NULL;
    int c;
    static const struct option lopts[] = {{"help", no_argument, 0, 'h'},
                                          {"version", no_argument, 0, 'V'},
                                          {0, 0, 0, 0}};
    while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'h': help(); return cli_close_stdout(EXIT_OK);
        case 'V': return cli_version();
        default: return cli_usage_error(usage);
        }
    }
    const char *why = !out ? "no output (-o MERGED.h5)" : optind >= argc ? "no shard files" : NULL;
    if (why) {
        cli_err("%s", why);
        return cli_usage_error(usage);
    }
    if (cli_output_h5(out))
        return EXIT_USAGE;
    const char *const *names = (const char *const *)(argv + optind);
    int n = argc - optind;
    if (cli_stdin_once(names, n))
        return cli_usage_error(usage);
    const char **files = (const char **)calloc((size_t)n, sizeof *files);
    tt_ctx *ctx = files ? tt_ctx_create() : NULL;
    if (!ctx) {
        cli_err("out of memory");
        free(files);
        return EXIT_FAIL;
    }
    tt_outfile of;
    if (tt_outfile_check(ctx, &of, out, names, n)) {
        cli_err("%s", tt_errmsg(ctx));
        tt_ctx_free(ctx);
        free(files);
        return EXIT_FAIL;
    }
    for (int i = 0; i < n; i++)
        if (!(files[i] = cli_input(names[i]))) { /* "-": a copy of standard input */
            tt_ctx_free(ctx);
            free(files);
            return EXIT_FAIL;
        }
    cli_cleanup_on_signal(of.tmp);
    tt_sweep_merge_info info;
    int rc = tt_sweep_merge_named(ctx, out, files, names, n, &info);
    cli_cleanup_on_signal(NULL);
    if (rc)
        cli_err("%s", tt_errmsg(ctx));
    else
        cli_err("%lld shard%s, %lld configuration%s -> %s", (long long)info.shards,
                info.shards == 1 ? "" : "s", (long long)info.configurations,
                info.configurations == 1 ? "" : "s",
                strcmp(out, "-") == 0 ? "standard output" : out);
    tt_ctx_free(ctx);
    free(files);
    return cli_close_stdout(rc ? EXIT_FAIL : EXIT_OK);
}
