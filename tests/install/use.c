/* tests/install/use.c: a program of a library user, built against an
 * installed copy with pkg-config by tests/install/run.sh. It does what
 * tt-sim does for one configuration: use TRACE.h5 CLUSTER [NAME=VALUE]...
 * prints the TSV header and the row of metrics, which must equal tt-sim's,
 * and on stderr the GPU situation, so that a static link needs the CUDA
 * runtime when the library was built with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tt/error.h>
#include <tt/gpu.h>
#include <tt/sim.h>
#include <tt/simfile.h>
#include <tt/tracefile.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: use TRACE.h5 CLUSTER [NAME=VALUE]...\n");
        return 2;
    }
    tt_ctx *ctx = tt_ctx_create();
    tt_models *models = NULL;
    tt_trace *trace = NULL;
    tt_sim_jobs jobs = {0};
    tt_cluster cl;
    tt_params p;
    tt_metrics m;
    tt_params_default(&p);
    int rc = !ctx || tt_cluster_parse(ctx, argv[2], &cl) || tt_models_default(ctx, &models) ||
             tt_trace_load(ctx, argv[1], &trace) ||
             tt_sim_jobs_from_trace(ctx, trace, models, &jobs);
    for (int i = 3; !rc && i < argc; i++) {
        char name[64];
        const char *eq = strchr(argv[i], '=');
        if (!eq || (size_t)(eq - argv[i]) >= sizeof name) {
            fprintf(stderr, "use: expected NAME=VALUE, got '%s'\n", argv[i]);
            rc = 1;
            break;
        }
        snprintf(name, sizeof name, "%.*s", (int)(eq - argv[i]), argv[i]);
        rc = tt_params_set(ctx, &p, models, name, eq + 1);
    }
    char gpu[256];
    tt_gpu_describe(gpu, sizeof gpu);
    fprintf(stderr, "use: GPU: %s\n", gpu);
    if (!rc)
        rc = tt_simulate(ctx, &cl, &p, models, &jobs, NULL, &m, NULL) ||
             tt_sim_tsv_header(stdout) || tt_sim_tsv_row(stdout, &p, models, &m);
    if (rc && ctx && *tt_errmsg(ctx))
        fprintf(stderr, "use: %s\n", tt_errmsg(ctx));
    tt_sim_jobs_free(&jobs);
    tt_trace_free(trace);
    tt_models_free(models);
    tt_ctx_free(ctx);
    return rc ? 1 : 0;
}
