/* The engine's elastic cases (test_elastic.c, test_elastic_bounds.c): a
 * trace of jobs of one class `lin` built row by row, with the elastic,
 * gpus_min and gpus_max columns, run through tt_simulate_log with SPEC
 * 10.10's defaults (resize_cost 10, restart 30, resize_gap 0). */
#ifndef TT_TEST_ECASE_H
#define TT_TEST_ECASE_H

#include "testutil.h"

#include "sim/simlog.h"
#include "sim_step.h"
#include "tt/sim.h"

enum { EMAXJ = 40 };

/* A case: jobs of one class `lin` (scale 1000, 2000, 4000, 8000, no
 * slowdown) unless slowdowns are given. */
typedef struct {
    tt_cluster c;
    tt_params p;
    int64_t n;
    int64_t submit[EMAXJ], duration[EMAXJ];
    int32_t gpus[EMAXJ], cls[EMAXJ], gmin[EMAXJ], gmax[EMAXJ];
    int8_t elastic[EMAXJ];
    int bounds; /* gmin, gmax given */
    int64_t slow_l1, slow_l2;
} ecase;

static void ecase_init(ecase *k, int32_t r, int32_t nodes, int32_t g)
{
    memset(k, 0, sizeof *k);
    k->c.racks = r;
    k->c.nodes_per_rack = nodes;
    k->c.gpus_per_node = g;
    tt_params_default(&k->p);
    k->p.resize_cost = 10;
    k->p.restart = 30;
    k->p.resize_gap = 0;
    k->slow_l1 = k->slow_l2 = 1000;
}

static void ejob(ecase *k, int64_t submit, int64_t dur, int32_t gpus, int elastic)
{
    int64_t i = k->n++;
    k->submit[i] = submit;
    k->duration[i] = dur;
    k->gpus[i] = gpus;
    k->cls[i] = 0;
    k->elastic[i] = (int8_t)elastic;
    k->gmin[i] = k->gmax[i] = -1;
}

/* Runs k: per-job results in out (may be NULL), metrics in m, the segment
 * log in log (may be NULL). */
static int erun(ecase *k, tt_job_result *out, tt_metrics *m, tts_seglog *log)
{
    static const char *const names[] = {"lin"};
    static const int64_t lin[] = {1000, 2000, 4000, 8000};
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 1, names, &k->slow_l1, &k->slow_l2, &md), 0);
    cr_assert_eq(tt_models_set_scale(NULL, md, 0, 4, lin), 0);
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    j.n = k->n;
    j.submit = k->submit;
    j.duration = k->duration;
    j.gpus = k->gpus;
    j.cls = k->cls;
    j.elastic = k->elastic;
    j.gpus_min = k->bounds ? k->gmin : NULL;
    j.gpus_max = k->bounds ? k->gmax : NULL;
    tt_ctx *ctx = tt_ctx_create();
    int rc = tt_simulate_log(ctx, &k->c, &k->p, md, &j, out, m, NULL, log);
    if (rc)
        fprintf(stderr, "%s\n", tt_errmsg(ctx));
    tt_ctx_free(ctx);
    tt_models_free(md);
    return rc;
}

#endif
