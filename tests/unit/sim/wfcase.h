/* The engine's workflow cases (test_workflows.c, test_workflows_cache.c):
 * a trace built row by row with the workflow columns, and one run of it
 * through tt_simulate with a two-class model table (class 1 sensitive
 * under theta = 1500). */
#ifndef TT_TEST_WFCASE_H
#define TT_TEST_WFCASE_H

#include <math.h>
#include <stddef.h>

#include "testutil.h"

#include "tt/canon.h"
#include "tt/sim.h"

enum { WMAXJ = 64, WMAXD = 256 };

typedef struct {
    tt_cluster c;
    tt_params p;
    int64_t n, nd;
    int64_t submit[WMAXJ], duration[WMAXJ], wf[WMAXJ], dep_off[WMAXJ + 1];
    int32_t gpus[WMAXJ], cls[WMAXJ], deps[WMAXD], out_mb[WMAXJ], mid[WMAXJ], mem_mb[WMAXJ];
    int tasks; /* hand the wf columns to the engine */
    int outs;  /* and out_mb */
    int mids;  /* and mid, mem_mb */
} wcase;

static void wcase_init(wcase *k, int32_t r, int32_t nodes, int32_t g)
{
    memset(k, 0, sizeof *k);
    k->c.racks = r;
    k->c.nodes_per_rack = nodes;
    k->c.gpus_per_node = g;
    tt_params_default(&k->p);
    k->tasks = 1;
}

/* A row: a task of workflow wf (-1: a plain job) with parents dep[0..nd). */
static void wjob(wcase *k, int64_t submit, int64_t dur, int32_t gpus, int64_t wf,
                 const int32_t *dep, int nd)
{
    int64_t i = k->n++;
    cr_assert(k->n <= WMAXJ && k->nd + nd <= WMAXD);
    k->submit[i] = submit;
    k->duration[i] = dur;
    k->gpus[i] = gpus;
    k->cls[i] = 0;
    k->wf[i] = wf;
    k->dep_off[i] = k->nd;
    for (int d = 0; d < nd; d++)
        k->deps[k->nd++] = dep[d];
    k->dep_off[i + 1] = k->nd;
}

static int wrun(const wcase *k, tt_job_result *out, tt_metrics *m)
{
    /* class 1 is sensitive under theta = 1500 */
    static const char *const names[] = {"a", "s"};
    static const int64_t s1[] = {1000, 1000}, s2[] = {1000, 2000};
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, s1, s2, &md), 0);
    tt_sim_jobs j;
    memset(&j, 0, sizeof j);
    j.n = k->n;
    j.submit = (int64_t *)k->submit;
    j.duration = (int64_t *)k->duration;
    j.gpus = (int32_t *)k->gpus;
    j.cls = (int32_t *)k->cls;
    if (k->tasks) {
        j.wf = (int64_t *)k->wf;
        j.dep_off = (int64_t *)k->dep_off;
        j.deps = (int32_t *)k->deps;
        j.out_mb = k->outs ? (int32_t *)k->out_mb : NULL;
        j.mid = k->mids ? (int32_t *)k->mid : NULL;
        j.mem_mb = k->mids ? (int32_t *)k->mem_mb : NULL;
    }
    tt_ctx *ctx = tt_ctx_create();
    int rc = tt_simulate(ctx, &k->c, &k->p, md, &j, out, m, NULL);
    if (rc)
        fprintf(stderr, "%s\n", tt_errmsg(ctx));
    tt_ctx_free(ctx);
    tt_models_free(md);
    return rc;
}

#endif
