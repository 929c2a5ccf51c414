/* What goes into the engine and what comes out: the jobs of a trace as
 * the engine reads them (each job's model class resolved against the
 * table), and the metrics' names and text. The engine is in sim.c. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "tt/sim.h"
#include "tt/trace.h"

/* ---- jobs ---- */

/* The checks every way of making jobs from a trace makes. */
static int check_trace(tt_ctx *ctx, const tt_trace *t)
{
    if (t->n > 0 && !t->model) /* tt_trace_load_cols without TT_COL_SIM */
        return tt_err(ctx, TT_EINVAL, "the trace was read without its model column");
    if (!tt_trace_is_sorted(t))
        return tt_err(ctx, TT_EINVAL, "the trace is not sorted by submit time");
    if (tt_trace_need_seconds(ctx, t, TT_EINVAL, "simulated"))
        return TT_EINVAL;
    for (int64_t i = 0; i < t->n; i++) {
        const char *what = t->submit[i] == TT_TIME_NONE     ? "has no submit time"
                           : t->duration[i] == TT_TIME_NONE ? "has no duration"
                           : t->duration[i] < 0             ? "has a negative duration"
                           : t->gpus[i] < 1                 ? "asks for no GPU"
                                                            : NULL;
        if (what)
            return tt_err(ctx, TT_EINVAL, "job %lld (submit %lld) %s", (long long)i,
                          (long long)t->submit[i], what);
    }
    return 0;
}

/* cls[i] = the class in m of the model string code[i] of t (cls may be
 * code: one table lookup per distinct string, then in place). */
static int resolve_classes(const tt_trace *t, const tt_models *m, const int32_t *code,
                           int32_t *cls, int64_t *unknown)
{
    int32_t nstr = tt_strtab_count(t->models);
    int32_t *cls_of = (int32_t *)malloc((size_t)(nstr > 0 ? nstr : 1) * sizeof *cls_of);
    if (!cls_of)
        return TT_ENOMEM;
    for (int32_t s = 0; s < nstr; s++)
        cls_of[s] = tt_models_find(m, tt_strtab_get(t->models, s));
    *unknown = 0;
    for (int64_t i = 0; i < t->n; i++) {
        int32_t c = code[i];
        cls[i] = c >= 0 && c < nstr ? cls_of[c] : -1;
        *unknown += cls[i] < 0;
    }
    free(cls_of);
    return 0;
}

/* A copy of the n values of size bytes at a, or at *out NULL when a is;
 * 0 or TT_ENOMEM. */
static int copy_opt(const void *a, int64_t n, size_t size, void **out)
{
    *out = NULL;
    if (!a)
        return 0;
    if (!(*out = malloc((size_t)(n > 0 ? n : 1) * size)))
        return TT_ENOMEM;
    memcpy(*out, a, (size_t)n * size);
    return 0;
}

/* The workflow columns of t into out (section 12.7), where t has them. */
static int copy_wf(tt_sim_jobs *out, const tt_trace *t)
{
    int64_t n = t->n, nd = t->dep_off ? t->dep_off[n] : 0;
    return copy_opt(t->wf, n, sizeof *t->wf, (void **)&out->wf) ||
           copy_opt(t->dep_off, t->dep_off ? n + 1 : 0, sizeof *t->dep_off,
                    (void **)&out->dep_off) ||
           copy_opt(t->deps, nd, sizeof *t->deps, (void **)&out->deps) ||
           copy_opt(t->mid, n, sizeof *t->mid, (void **)&out->mid) ||
           copy_opt(t->mem_mb, n, sizeof *t->mem_mb, (void **)&out->mem_mb) ||
           copy_opt(t->out_mb, n, sizeof *t->out_mb, (void **)&out->out_mb);
}

int tt_sim_jobs_from_trace(tt_ctx *ctx, const tt_trace *t, const tt_models *m,
                           tt_sim_jobs *out)
{
    memset(out, 0, sizeof *out);
    int rc = check_trace(ctx, t);
    if (rc)
        return rc;
    size_t n = (size_t)(t->n > 0 ? t->n : 1);
    out->submit = (int64_t *)malloc(n * sizeof *out->submit);
    out->duration = (int64_t *)malloc(n * sizeof *out->duration);
    out->gpus = (int32_t *)malloc(n * sizeof *out->gpus);
    out->cls = (int32_t *)malloc(n * sizeof *out->cls);
    /* the elasticity columns, where the trace has them (SPEC 10.1) */
    if (!out->submit || !out->duration || !out->gpus || !out->cls ||
        copy_opt(t->elastic, t->n, sizeof *t->elastic, (void **)&out->elastic) ||
        copy_opt(t->gpus_min, t->n, sizeof *t->gpus_min, (void **)&out->gpus_min) ||
        copy_opt(t->gpus_max, t->n, sizeof *t->gpus_max, (void **)&out->gpus_max) ||
        resolve_classes(t, m, t->model, out->cls, &out->unknown_models)) {
        tt_sim_jobs_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld jobs", (long long)t->n);
    }
    out->n = t->n;
    memcpy(out->submit, t->submit, (size_t)t->n * sizeof *out->submit);
    memcpy(out->duration, t->duration, (size_t)t->n * sizeof *out->duration);
    memcpy(out->gpus, t->gpus, (size_t)t->n * sizeof *out->gpus);
    if (copy_wf(out, t)) {
        tt_sim_jobs_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld jobs", (long long)t->n);
    }
    return 0;
}

int tt_sim_jobs_take(tt_ctx *ctx, tt_trace *t, const tt_models *m, tt_sim_jobs *out)
{
    memset(out, 0, sizeof *out);
    int rc = check_trace(ctx, t);
    if (rc)
        return rc;
    if (t->n > 0 && resolve_classes(t, m, t->model, t->model, &out->unknown_models))
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld jobs", (long long)t->n);
    out->n = t->n;
    out->submit = t->submit;
    out->duration = t->duration;
    out->gpus = t->gpus;
    out->cls = t->model;
    out->elastic = t->elastic;
    out->gpus_min = t->gpus_min;
    out->gpus_max = t->gpus_max;
    t->submit = t->duration = NULL;
    t->gpus = t->model = NULL;
    t->elastic = NULL;
    t->gpus_min = t->gpus_max = NULL;
    out->wf = t->wf;
    out->dep_off = t->dep_off;
    out->deps = t->deps;
    out->mid = t->mid;
    out->mem_mb = t->mem_mb;
    out->out_mb = t->out_mb;
    t->wf = t->dep_off = NULL;
    t->deps = t->mid = t->mem_mb = t->out_mb = NULL;
    return 0;
}

void tt_sim_jobs_free(tt_sim_jobs *j)
{
    if (!j)
        return;
    free(j->submit);
    free(j->duration);
    free(j->gpus);
    free(j->cls);
    free(j->elastic);
    free(j->gpus_min);
    free(j->gpus_max);
    free(j->wf);
    free(j->dep_off);
    free(j->deps);
    free(j->mid);
    free(j->mem_mb);
    free(j->out_mb);
    memset(j, 0, sizeof *j);
}

/* ---- results ---- */

const char *const tt_metric_names[] = {
    "makespan",   "jct_mean",      "jct_p50",     "jct_p90",   "jct_p99",   "queue_mean",
    "queue_p99",  "comm_gpu_s",    "comm_share",  "restart_gpu_s", "preemptions",
    "placed_l0",  "placed_l1",     "placed_l2",   "util",      "rejected",
    "resizes",    "grows",         "shrinks",     "resize_gpu_s", "loan_gpu_s",
    "demotions",  "promotions",    "preempt_prio", "ftf_mean", "ftf_max",   "ftf_unfair",
    "wf_jct_mean", "wf_jct_p99",   "wf_rejected", "cache_hit", "loads",     "model_evicts",
    "load_gpu_s", "xfer_gpu_s"};

/* Where each metric lives and how it prints: decimals for a double,
 * -1 for an int64. */
static const struct {
    size_t off;
    int decimals;
} metric_desc[] = {
    {offsetof(tt_metrics, makespan), -1},      {offsetof(tt_metrics, jct_mean), 6},
    {offsetof(tt_metrics, jct_p50), -1},       {offsetof(tt_metrics, jct_p90), -1},
    {offsetof(tt_metrics, jct_p99), -1},       {offsetof(tt_metrics, queue_mean), 6},
    {offsetof(tt_metrics, queue_p99), -1},     {offsetof(tt_metrics, comm_gpu_s), 3},
    {offsetof(tt_metrics, comm_share), 6},     {offsetof(tt_metrics, restart_gpu_s), -1},
    {offsetof(tt_metrics, preemptions), -1},   {offsetof(tt_metrics, placed_l0), -1},
    {offsetof(tt_metrics, placed_l1), -1},     {offsetof(tt_metrics, placed_l2), -1},
    {offsetof(tt_metrics, util), 6},           {offsetof(tt_metrics, rejected), -1},
    {offsetof(tt_metrics, resizes), -1},       {offsetof(tt_metrics, grows), -1},
    {offsetof(tt_metrics, shrinks), -1},       {offsetof(tt_metrics, resize_gpu_s), -1},
    {offsetof(tt_metrics, loan_gpu_s), -1},
    {offsetof(tt_metrics, demotions), -1},     {offsetof(tt_metrics, promotions), -1},
    {offsetof(tt_metrics, preempt_prio), -1},  {offsetof(tt_metrics, ftf_mean), 6},
    {offsetof(tt_metrics, ftf_max), -1},       {offsetof(tt_metrics, ftf_unfair), -1},
    {offsetof(tt_metrics, wf_jct_mean), 6},    {offsetof(tt_metrics, wf_jct_p99), -1},
    {offsetof(tt_metrics, wf_rejected), -1},   {offsetof(tt_metrics, cache_hit), -1},
    {offsetof(tt_metrics, loads), -1},         {offsetof(tt_metrics, model_evicts), -1},
    {offsetof(tt_metrics, load_gpu_s), -1},    {offsetof(tt_metrics, xfer_gpu_s), -1},
};
_Static_assert(sizeof metric_desc / sizeof *metric_desc == TT_NMETRICS,
               "a metric's row missing");
_Static_assert(sizeof tt_metric_names / sizeof *tt_metric_names == TT_NMETRICS,
               "a metric's name missing");

double tt_metric_value(const tt_metrics *m, int i)
{
    if (i < 0 || i >= TT_NMETRICS)
        return NAN;
    const char *at = (const char *)m + metric_desc[i].off;
    if (metric_desc[i].decimals >= 0)
        return *(const double *)at;
    int64_t v = *(const int64_t *)at;
    return v == TT_METRIC_NONE ? NAN : (double)v;
}

int tt_metric_defined(const tt_metrics *m, int i) { return !isnan(tt_metric_value(m, i)); }

const char *tt_metrics_why_undefined(const tt_metrics *m)
{
    for (int i = 0; i < TT_NMETRICS; i++)
        if (!tt_metric_defined(m, i)) {
            if (!tt_metric_defined(m, 0))
                return "every job is rejected";
            /* only the fairness ones: rho needs a duration */
            return isnan(m->comm_share) ? "no GPU time was used"
                                        : "no job has a duration above 0";
        }
    return NULL;
}

void tt_metric_format(const tt_metrics *m, int i, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (!tt_metric_defined(m, i))
        return; /* an empty field, as tt-stats prints an undefined one */
    const char *at = (const char *)m + metric_desc[i].off;
    if (metric_desc[i].decimals < 0) {
        snprintf(buf, size, "%lld", (long long)*(const int64_t *)at);
        return;
    }
    double v = *(const double *)at;
    if (!isfinite(v))
        return;
    if (v == 0)
        v = 0; /* no "-0.000000" */
    snprintf(buf, size, "%.*f", metric_desc[i].decimals, v);
}

void tt_timeline_free(tt_timeline *tl)
{
    if (!tl)
        return;
    free(tl->rows);
    memset(tl, 0, sizeof *tl);
}

/* ---- the digest of the jobs ---- */

/* Column name and its n values of size bytes each (4 or 8, or 1), little
 * endian whatever the host, into h; nothing for an absent column. */
static void hash_col(tt_sha256 *h, const char *name, const void *v, int64_t n, int size)
{
    if (!v)
        return;
    tt_sha256_update(h, name, strlen(name) + 1);
    uint8_t buf[4096];
    size_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = size == 8   ? (uint64_t)((const int64_t *)v)[i]
                     : size == 4 ? (uint64_t)(uint32_t)((const int32_t *)v)[i]
                                 : (uint64_t)(uint8_t)((const int8_t *)v)[i];
        for (int b = 0; b < size; b++)
            buf[k++] = (uint8_t)(x >> (8 * b));
        if (k > sizeof buf - 8) {
            tt_sha256_update(h, buf, k);
            k = 0;
        }
    }
    tt_sha256_update(h, buf, k);
}

void tt_sim_jobs_sha256(const tt_sim_jobs *j, char hex[65])
{
    tt_sha256 h;
    tt_sha256_init(&h);
    int64_t n = j->n;
    tt_sha256_update(&h, "tracetune jobs/1", 17);
    hash_col(&h, "n", &n, 1, 8);
    hash_col(&h, "submit", j->submit, n, 8);
    hash_col(&h, "duration", j->duration, n, 8);
    hash_col(&h, "gpus", j->gpus, n, 4);
    hash_col(&h, "cls", j->cls, n, 4);
    hash_col(&h, "elastic", j->elastic, n, 1);
    hash_col(&h, "gpus_min", j->gpus_min, n, 4);
    hash_col(&h, "gpus_max", j->gpus_max, n, 4);
    hash_col(&h, "wf", j->wf, n, 8);
    if (j->dep_off) {
        hash_col(&h, "dep_off", j->dep_off, n + 1, 8);
        hash_col(&h, "deps", j->deps, j->dep_off[n], 4);
    }
    hash_col(&h, "mid", j->mid, n, 4);
    hash_col(&h, "mem_mb", j->mem_mb, n, 4);
    hash_col(&h, "out_mb", j->out_mb, n, 4);
    tt_sha256_hex(&h, hex);
}
