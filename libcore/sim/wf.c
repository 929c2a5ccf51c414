/* The workflows of a trace as the engine reads them (docs/model.md section
 * 13, kernels/sim_step_wf.h), built once and shared by every
 * configuration: each job's task and workflow index (workflow ids made
 * dense), each workflow's lowest job index, and the children of each job
 * (the parents' CSR turned around); and the model cache's view of the
 * jobs (kernels/sim_step_cache.h): dense model ids and their sizes. What
 * a configuration decides (which workflows are rejected) is the
 * engine's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simrun.h"
#include "base/radix.h"

void tt_simprep_wf_free(tt_simprep *prep)
{
    free(prep->c_mdl);
    free(prep->c_msz);
    prep->c_mdl = prep->c_msz = NULL;
    free(prep->wf_tsk);
    free(prep->wf_wfi);
    free(prep->wf_first);
    free(prep->wf_ch);
    free(prep->wf_choff);
    prep->wf_tsk = prep->wf_wfi = prep->wf_first = prep->wf_ch = NULL;
    prep->wf_choff = NULL;
}

/* Dense workflow indices by id (ids sorted, ties by job index, so the
 * first job of a group is the workflow's lowest index). */
static int dense_ids(tt_simprep *prep, int64_t nt)
{
    const tt_sim_jobs *j = prep->j;
    int64_t n = j->n, *key = (int64_t *)malloc((size_t)nt * sizeof *key);
    int64_t *val = (int64_t *)malloc((size_t)nt * sizeof *val);
    prep->wf_first = (int32_t *)malloc((size_t)nt * sizeof *prep->wf_first);
    int rc = TT_ENOMEM;
    if (key && val && prep->wf_first) {
        int64_t m = 0;
        for (int64_t i = 0; i < n; i++)
            if (j->wf[i] >= 0) {
                key[m] = j->wf[i];
                val[m++] = i;
            }
        rc = tt_radix_sort_i64(key, val, nt);
        int64_t w = -1;
        for (int64_t q = 0; rc == 0 && q < nt; q++) {
            if (q == 0 || key[q] != key[q - 1])
                prep->wf_first[++w] = (int32_t)val[q];
            prep->wf_wfi[val[q]] = (int32_t)w;
        }
        prep->tr.nwf = w + 1;
    }
    free(key);
    free(val);
    return rc;
}

/* A parent the engine takes: an earlier task of the child's workflow. Any
 * other rejects the child's workflow in the engine and has no child here
 * (so an accepted task never readies a rejected one). */
static int good_parent(const tt_simprep *prep, int64_t i, int32_t p)
{
    return p >= 0 && p < i && prep->wf_wfi[p] == prep->wf_wfi[i];
}

/* The children CSR: for each good parent, its children in index order. */
static int children(tt_simprep *prep)
{
    const tt_sim_jobs *j = prep->j;
    int64_t n = j->n, nd = j->dep_off[n];
    prep->wf_choff = (int64_t *)calloc((size_t)n + 1, sizeof *prep->wf_choff);
    prep->wf_ch = (int32_t *)malloc((size_t)(nd > 0 ? nd : 1) * sizeof *prep->wf_ch);
    if (!prep->wf_choff || !prep->wf_ch)
        return TT_ENOMEM;
    int64_t *off = prep->wf_choff;
    for (int64_t i = 0; i < n; i++)
        for (int64_t d = j->dep_off[i]; d < j->dep_off[i + 1]; d++)
            if (good_parent(prep, i, j->deps[d]))
                off[j->deps[d] + 1]++;
    for (int64_t i = 0; i < n; i++)
        off[i + 1] += off[i];
    for (int64_t i = 0; i < n; i++) /* off[p] runs ahead, then is put back */
        for (int64_t d = j->dep_off[i]; d < j->dep_off[i + 1]; d++)
            if (good_parent(prep, i, j->deps[d]))
                prep->wf_ch[off[j->deps[d]]++] = (int32_t)i;
    for (int64_t i = n; i > 0; i--)
        off[i] = off[i - 1];
    off[0] = 0;
    return 0;
}

/* The outputs transfers read (12.3), where a task has a parent with one:
 * each within 0 .. 2^31 - 1 MiB, and so is their sum over a task's
 * parents (an overhead part is an int32). */
static int outputs(tt_ctx *ctx, tt_simprep *prep)
{
    const tt_sim_jobs *j = prep->j;
    if (!j->out_mb)
        return 0;
    int any = 0;
    for (int64_t i = 0; i < j->n; i++) {
        if (j->out_mb[i] < 0)
            return tt_err(ctx, TT_EINVAL, "job %lld: out_mb %d below 0", (long long)i,
                          j->out_mb[i]);
        int64_t sum = 0;
        for (int64_t d = j->dep_off[i]; j->wf[i] >= 0 && d < j->dep_off[i + 1]; d++)
            if (good_parent(prep, i, j->deps[d]))
                sum += j->out_mb[j->deps[d]];
        if (sum > INT32_MAX)
            return tt_err(ctx, TT_ERANGE, "job %lld: its parents' outputs pass 2^31 MiB",
                          (long long)i);
        any |= sum > 0;
    }
    prep->tr.out_mb = any ? j->out_mb : NULL;
    return 0;
}

int tt_simprep_wf(tt_ctx *ctx, tt_simprep *prep)
{
    const tt_sim_jobs *j = prep->j;
    int64_t n = j->n, nt = 0;
    for (int64_t i = 0; j->wf && i < n; i++)
        nt += j->wf[i] >= 0;
    if (nt == 0)
        return 0;
    if (!j->dep_off || !j->deps)
        return tt_err(ctx, TT_EINVAL, "the trace has workflows without their deps column");
    prep->wf_tsk = (int32_t *)malloc((size_t)n * sizeof *prep->wf_tsk);
    prep->wf_wfi = (int32_t *)malloc((size_t)n * sizeof *prep->wf_wfi);
    if (!prep->wf_tsk || !prep->wf_wfi)
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld tasks", (long long)nt);
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        prep->wf_tsk[i] = j->wf[i] >= 0 ? (int32_t)k++ : -1;
        prep->wf_wfi[i] = -1;
    }
    if (dense_ids(prep, nt) || children(prep))
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld tasks", (long long)nt);
    tts_trace *tr = &prep->tr;
    tr->ntask = nt;
    tr->tsk = prep->wf_tsk;
    tr->wfi = prep->wf_wfi;
    tr->wf_first = prep->wf_first;
    tr->dep_off = j->dep_off;
    tr->deps = j->deps;
    tr->ch_off = prep->wf_choff;
    tr->ch = prep->wf_ch;
    return outputs(ctx, prep);
}

/* ---- the model cache's ids and sizes ---- */

int tt_simprep_models(tt_ctx *ctx, tt_simprep *prep)
{
    const tt_sim_jobs *j = prep->j;
    int64_t n = j->n, nm = 0;
    int nc = prep->nclasses;
    int64_t *key = NULL, *val = NULL;
    if (j->mid) {
        key = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *key);
        val = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *val);
        prep->c_mdl = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *prep->c_mdl);
        if (!key || !val || !prep->c_mdl)
            goto oom;
        for (int64_t i = 0; i < n; i++) {
            prep->c_mdl[i] = -1;
            if (j->mid[i] >= 0) {
                key[nm] = j->mid[i];
                val[nm++] = i;
            }
        }
        if (tt_radix_sort_i64(key, val, nm))
            goto oom;
    }
    /* ids: the distinct mids in ascending order, then the classes */
    int64_t nid = 0;
    for (int64_t q = 0; q < nm; q++) {
        nid += q == 0 || key[q] != key[q - 1];
        prep->c_mdl[val[q]] = (int32_t)(nid - 1);
    }
    prep->c_msz = (int32_t *)malloc((size_t)(nid + nc) * sizeof *prep->c_msz);
    int8_t *set = (int8_t *)calloc((size_t)(nid + nc), 1);
    if (!prep->c_msz || !set) {
        free(set);
        goto oom;
    }
    /* a size: the first row naming the model with mem_mb >= 0 gives it;
     * else the table's, for a mid the class of its first row (-1 when
     * that class is drawn from the mix) */
    for (int64_t d = 0; d < nid + nc; d++)
        prep->c_msz[d] = d >= nid ? tt_models_mem_mb(prep->models, (int)(d - nid)) : -1;
    for (int64_t i = 0; i < n; i++) {
        int64_t d = prep->c_mdl && prep->c_mdl[i] >= 0 ? prep->c_mdl[i]
                    : j->cls[i] >= 0                  ? nid + j->cls[i]
                                                      : -1;
        int32_t mb = j->mem_mb ? j->mem_mb[i] : -1;
        if (d < 0 || set[d] == 2)
            continue;
        if (mb >= 0) {
            prep->c_msz[d] = mb;
            set[d] = 2;
        } else if (!set[d] && d < nid) {
            prep->c_msz[d] = j->cls[i] >= 0 ? tt_models_mem_mb(prep->models, j->cls[i]) : -1;
            set[d] = 1;
        }
    }
    free(set);
    free(key);
    free(val);
    prep->tr.mdl = prep->c_mdl;
    prep->tr.msz = prep->c_msz;
    prep->tr.nmid = (int32_t)nid;
    return 0;
oom:
    free(key);
    free(val);
    return tt_err(ctx, TT_ENOMEM, "out of memory for the models of %lld jobs", (long long)n);
}
