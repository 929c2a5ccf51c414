/* bench/jobs-export: a trace's jobs (as tt-sim sees them, with the
 * built-in model table) to the plain binary file of bench/jobs.h.
 *
 *   jobs-export TRACE.h5 OUT.bin */
#include <stdio.h>

#include "jobs.h"
#include "tt/tracefile.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: jobs-export TRACE.h5 OUT.bin\n");
        return 2;
    }
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    tt_models *m = NULL;
    tt_sim_jobs j;
    if (!ctx || tt_trace_load_cols(ctx, argv[1], TT_COL_SIM, &t) || tt_models_default(ctx, &m) ||
        tt_sim_jobs_from_trace(ctx, t, m, &j)) {
        fprintf(stderr, "jobs-export: %s: %s\n", argv[1], ctx ? tt_errmsg(ctx) : "no memory");
        return 1;
    }
    if (bench_jobs_write(argv[2], &j)) {
        fprintf(stderr, "jobs-export: cannot write %s\n", argv[2]);
        return 1;
    }
    fprintf(stderr, "jobs-export: %lld jobs -> %s\n", (long long)j.n, argv[2]);
    tt_sim_jobs_free(&j);
    tt_models_free(m);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return 0;
}
