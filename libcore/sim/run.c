/* Many configurations side by side (tt/run.h): every configuration
 * checked first, the shared preparation of sim/simrun.h done once, the
 * configurations collapsed to one per canonical form (tt/canon.h), then
 * the CPU backend, a pool of threads, or the GPU backend of
 * kernels/sweep.cu. Sweeps and the tuner hand their configurations here
 * through a source of parameter sets. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#include "tt/run.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels.h"
#include "sim/canonset.h"
#include "sim/simrun.h"
#include "tt/gpu.h"


int tt_device_parse(const char *name, tt_device *out)
{
    static const char *const names[] = {[TT_DEVICE_CPU] = "cpu", [TT_DEVICE_AUTO] = "auto",
                                        [TT_DEVICE_GPU] = "gpu"};
    for (int d = 0; d < 3; d++)
        if (strcmp(name, names[d]) == 0) {
            *out = (tt_device)d;
            return 0;
        }
    return TT_EINVAL;
}

/* ---- the CPU backend ---- */

/* The CPUs a cgroup v2 quota grants ("200000 100000": 2), rounded up;
 * 0 for none or unreadable. Only the process's own cgroup mounted at
 * /sys/fs/cgroup (a container's view) is read: a quota set further up is
 * not seen. */
static int64_t quota_cpus(void)
{
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (!f)
        return 0;
    char q[32] = "";
    long long period = 0;
    int n = fscanf(f, "%31s %lld", q, &period);
    fclose(f);
    char *end;
    long long quota = strtoll(q, &end, 10);
    if (n != 2 || *end || quota <= 0 || period <= 0)
        return 0; /* "max": no quota */
    return (quota + period - 1) / period;
}

int tt_run_cpus(void)
{
    int64_t n = 0;
    /* the mask may be larger than a cpu_set_t on machines of many CPUs */
    for (int size = 1024; size <= (1 << 20) && n == 0; size *= 4) {
        cpu_set_t *set = CPU_ALLOC((size_t)size);
        if (!set)
            break;
        size_t bytes = CPU_ALLOC_SIZE((size_t)size);
        if (sched_getaffinity(0, bytes, set) == 0)
            n = CPU_COUNT_S(bytes, set);
        CPU_FREE(set);
    }
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t q = quota_cpus();
    if (q > 0 && q < n)
        n = q;
    if (n > TT_RUN_MAX_THREADS)
        n = TT_RUN_MAX_THREADS;
    return n < 1 ? 1 : (int)n;
}

/* The threads a run of count configurations takes under opts. */
static int run_threads(const tt_run_opts *opts, int64_t count)
{
    int64_t t = opts && opts->threads > 0 ? opts->threads : tt_run_cpus();
    if (t > count)
        t = count;
    if (t > TT_RUN_MAX_THREADS)
        t = TT_RUN_MAX_THREADS;
    return t < 1 ? 1 : (int)t;
}

/* A run's source and the class count its configurations are checked
 * against; with pos, configuration i of the run is pos[i] of the source
 * (the first configuration of each canonical form). */
typedef struct {
    const tt_run_source *s;
    int nclasses;
    const int64_t *pos;
} cfg_src;

static int src_params(tt_ctx *ctx, const cfg_src *src, int64_t i, tt_params *p)
{
    return src->s->params(src->s->arg, ctx, src->pos ? src->pos[i] : i, p);
}

static void src_label(const cfg_src *src, int64_t i, char *buf, size_t size)
{
    src->s->label(src->s->arg, src->pos ? src->pos[i] : i, buf, size);
}

/* rc, with the message in ctx prefixed by configuration i's label. */
static int src_fail(tt_ctx *ctx, const cfg_src *src, int64_t i, int rc)
{
    char msg[1024], label[512];
    snprintf(msg, sizeof msg, "%s", tt_errmsg(ctx));
    src_label(src, i, label, sizeof label);
    return tt_err(ctx, rc, "%s: %s", label, msg);
}

static int stopped(const tt_run_opts *opts)
{
    return opts && opts->stop && opts->stop(opts->stop_arg);
}

typedef struct {
    const cfg_src *src;
    const tt_simprep *prep;
    int64_t count;
    tt_metrics *metrics;
    const tt_run_opts *opts;
    atomic_llong next, done;
    atomic_int failed;
    pthread_mutex_t lock;
    /* the failure at the lowest position */
    int64_t err_pos;
    int err_code;
    char err_msg[1024];
} pool;

static void pool_fail(pool *P, int64_t pos, int code, const char *msg)
{
    pthread_mutex_lock(&P->lock);
    if (!atomic_load(&P->failed) || pos < P->err_pos) {
        char label[512] = "";
        if (pos < P->count)
            src_label(P->src, pos, label, sizeof label);
        P->err_pos = pos;
        P->err_code = code;
        snprintf(P->err_msg, sizeof P->err_msg, "%s%s%s", label, *label ? ": " : "", msg);
    }
    atomic_store(&P->failed, 1);
    pthread_mutex_unlock(&P->lock);
}

static void *worker(void *arg)
{
    pool *P = (pool *)arg;
    tt_ctx *ctx = tt_ctx_create();
    tt_simwork w;
    memset(&w, 0, sizeof w);
    int rc = ctx ? tt_simwork_init(ctx, &w, P->prep) : TT_ENOMEM;
    if (rc)
        pool_fail(P, P->count, TT_ENOMEM, ctx ? tt_errmsg(ctx) : "out of memory");
    while (!rc && !atomic_load(&P->failed)) {
        if (stopped(P->opts)) {
            pool_fail(P, P->count, TT_ESTOPPED, "stopped");
            break;
        }
        int64_t i = atomic_fetch_add(&P->next, 1);
        if (i >= P->count)
            break;
        tt_params p;
        rc = src_params(ctx, P->src, i, &p);
        if (!rc)
            rc = tt_simrun(ctx, P->prep, &w, &p, NULL, &P->metrics[i], NULL, NULL);
        if (rc) {
            pool_fail(P, i, rc, tt_errmsg(ctx));
            break;
        }
        int64_t done = atomic_fetch_add(&P->done, 1) + 1;
        if (P->opts && P->opts->progress) {
            pthread_mutex_lock(&P->lock);
            P->opts->progress(P->opts->progress_arg, done, P->count);
            pthread_mutex_unlock(&P->lock);
        }
    }
    tt_simwork_free(&w);
    tt_ctx_free(ctx);
    return NULL;
}

static int run_cpu(tt_ctx *ctx, const cfg_src *src, const tt_simprep *prep, int64_t count,
                   const tt_run_opts *opts, tt_metrics *metrics)
{
    pool P;
    memset(&P, 0, sizeof P);
    P.src = src;
    P.prep = prep;
    P.count = count;
    P.metrics = metrics;
    P.opts = opts;
    atomic_init(&P.next, 0);
    atomic_init(&P.done, 0);
    atomic_init(&P.failed, 0);
    pthread_mutex_init(&P.lock, NULL);
    int nt = run_threads(opts, count);
    if (opts && opts->used)
        snprintf(opts->used, opts->used_size, "cpu: %d thread%s", nt, nt == 1 ? "" : "s");
    pthread_t *th = (pthread_t *)calloc((size_t)nt, sizeof *th);
    int started = 0;
    /* the calling thread is worker 0; fewer threads than asked (a failed
     * pthread_create) change the speed, never the results */
    for (int t = 1; th && t < nt; t++) {
        if (pthread_create(&th[started], NULL, worker, &P) != 0)
            break;
        started++;
    }
    worker(&P);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    free(th);
    pthread_mutex_destroy(&P.lock);
    if (atomic_load(&P.failed))
        return tt_err(ctx, P.err_code, "%s", P.err_msg);
    return 0;
}

/* ---- the GPU backend (kernels/sweep.cu) ---- */

typedef struct {
    const cfg_src *src;
    const tt_simprep *prep;
    const tt_run_opts *opts;
    tt_ctx *ctx;
} gpu_arg;

static int gpu_config(void *arg, int64_t i, tts_config *cf)
{
    gpu_arg *g = (gpu_arg *)arg;
    tt_params p;
    if (src_params(g->ctx, g->src, i, &p) || tt_simprep_config(g->ctx, g->prep, &p, cf))
        return -1;
    return 0;
}

static int gpu_stop(void *arg) { return stopped(((gpu_arg *)arg)->opts); }

static void gpu_progress(void *arg, int64_t done, int64_t count)
{
    const tt_run_opts *o = ((gpu_arg *)arg)->opts;
    if (o && o->progress)
        o->progress(o->progress_arg, done, count);
}

static int run_gpu(tt_ctx *ctx, const cfg_src *src, const tt_simprep *prep, int64_t count,
                   const tt_run_opts *opts, tt_metrics *metrics)
{
    tts_summary *sum = (tts_summary *)malloc((size_t)(count ? count : 1) * sizeof *sum);
    if (!sum)
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld configurations", (long long)count);
    gpu_arg g = {src, prep, opts, ctx};
    tt_kern_sweep_opts ko = {gpu_config, gpu_stop, gpu_progress, &g,
                             opts ? opts->gpu_batch : 0, prep->with};
    char used[256], msg[512];
    int krc = tt_kern_sweep(&prep->tr, &prep->tc, count, &ko, sum, used, sizeof used, msg,
                            sizeof msg);
    int rc = 0;
    switch (krc) {
    case TT_KERN_OK: break;
    case TT_KERN_NOT_BUILT: rc = tt_err(ctx, TT_ENOTBUILT, "%s", msg); break;
    case TT_KERN_NO_DEVICE: rc = tt_err(ctx, TT_ENODEV, "%s", msg); break;
    case TT_KERN_NOMEM: rc = tt_err(ctx, TT_ENOMEM, "%s", msg); break;
    case TT_KERN_STOPPED: rc = tt_err(ctx, TT_ESTOPPED, "stopped"); break;
    case TT_KERN_CONFIG: rc = TT_EINVAL; break; /* gpu_config left the message */
    default: rc = tt_err(ctx, TT_EIO, "%s", msg); break;
    }
    for (int64_t i = 0; !rc && i < count; i++) {
        if (sum[i].fault) {
            char label[512];
            src_label(src, i, label, sizeof label);
            rc = tt_err(ctx, TT_EINVAL, "%s: internal error: jobs left waiting with no event",
                        label);
        }
        tt_metrics_from_summary(&sum[i], &metrics[i]);
    }
    free(sum);
    if (!rc && opts && opts->used)
        snprintf(opts->used, opts->used_size, "gpu: %s", used);
    return rc;
}

/* Every configuration's ranges, what their runs need prepared
 * (TT_NEED_*), and the highest congestion (the work bound is monotone in
 * it). */
static int check_all(tt_ctx *ctx, const cfg_src *src, int64_t count, int *needs, int64_t *cmax)
{
    *needs = 0;
    *cmax = 0;
    for (int64_t i = 0; i < count; i++) {
        tt_params p;
        int rc = src_params(ctx, src, i, &p);
        if (!rc)
            rc = tt_simprep_check_params(ctx, &p, src->nclasses);
        if (rc)
            return src_fail(ctx, src, i, rc);
        *needs |= tt_simprep_needs(&p, 0);
        if (p.congestion > *cmax)
            *cmax = p.congestion;
    }
    return 0;
}

/* The Gittins distributions the configurations name, each read once. */
static int load_dists(tt_ctx *ctx, const cfg_src *src, tt_simprep *prep, int64_t count)
{
    for (int64_t i = 0; i < count; i++) {
        tt_params p;
        int rc = src_params(ctx, src, i, &p);
        if (!rc && p.order == TT_ORDER_GITTINS)
            rc = tt_simprep_gittins(ctx, prep, &p);
        if (rc)
            return src_fail(ctx, src, i, rc);
    }
    return 0;
}

/* The first configuration whose congestion breaks the work bound. */
static int check_bound(tt_ctx *ctx, const cfg_src *src, const tt_simprep *prep, int64_t count,
                       int64_t cmax)
{
    tt_params p;
    tt_params_default(&p);
    p.congestion = cmax;
    /* smaller starts (el_down) slow a job beyond congestion's bound */
    int fast = tt_simprep_check_bound(ctx, prep, &p) == 0;
    for (int64_t i = 0; i < count; i++) {
        int rc = src_params(ctx, src, i, &p);
        if (!rc && (!fast || p.el_down > 0))
            rc = tt_simprep_check_bound(ctx, prep, &p);
        if (rc)
            return src_fail(ctx, src, i, rc);
    }
    return 0;
}

/* The device a run takes: the GPU for GPU, and for AUTO when CUDA is built
 * in and a device answers; else the CPU. */
static int use_gpu(const tt_run_opts *opts)
{
    tt_device d = opts ? opts->device : TT_DEVICE_CPU;
    if (d == TT_DEVICE_GPU)
        return 1;
    if (d != TT_DEVICE_AUTO)
        return 0;
    char buf[256];
    return tt_gpu_built() && tt_gpu_describe(buf, sizeof buf) > 0;
}

/* ---- one simulation per canonical form ---- */

typedef struct {
    tt_ctx *ctx;
    const cfg_src *src;
    const tt_canon *k;
} form_arg;

static const tt_params *position_form(void *arg, int64_t i, tt_params *scratch)
{
    const form_arg *a = (const form_arg *)arg;
    if (src_params(a->ctx, a->src, i, scratch))
        return NULL;
    tt_canon_form(a->k, scratch, scratch);
    return scratch;
}

/* The canonical form of each configuration: map[i] = the number of its
 * form, forms numbered in order of first appearance; (*first)[d] = the
 * position of form d's first configuration; *n the forms. The set holds
 * positions, not forms, so its memory is 32 bytes a form at most beside
 * the map's 8 a configuration (the caller's metrics take 136). */
static int dedup(tt_ctx *ctx, const cfg_src *src, const tt_canon *k, int64_t count,
                 int64_t *map, int64_t **first, int64_t *n)
{
    form_arg fa = {ctx, src, k};
    tt_cset set;
    tt_cset_init(&set, position_form, &fa);
    int rc = 0;
    *n = 0;
    for (int64_t i = 0; i < count && !rc; i++) {
        tt_params q;
        if ((rc = src_params(ctx, src, i, &q)))
            break;
        tt_canon_form(k, &q, &q);
        uint64_t h = tt_canon_hash(&q);
        int64_t at = tt_cset_find(&set, &q, h);
        if (at >= 0) {
            map[i] = map[at];
            continue;
        }
        map[i] = (*n)++;
        rc = tt_cset_add(ctx, &set, i, h);
    }
    tt_cset_free(&set);
    *first = rc ? NULL : (int64_t *)malloc((size_t)(*n ? *n : 1) * sizeof **first);
    if (!rc && !*first)
        rc = tt_err(ctx, TT_ENOMEM, "out of memory for %lld distinct configurations",
                    (long long)*n);
    for (int64_t i = count - 1; !rc && i >= 0; i--) /* backwards: the first one stays */
        (*first)[map[i]] = i;
    return rc;
}

/* Runs the first configuration of each form into metrics[0 .. forms),
 * then spreads them: metrics[i] = that of its form. Backwards in place,
 * since a configuration's form number never exceeds its position. */
static int run_forms(tt_ctx *ctx, const cfg_src *src, const tt_simprep *prep,
                     const tt_canon *k, int64_t count, const tt_run_opts *opts,
                     tt_metrics *metrics)
{
    int64_t *map = (int64_t *)malloc((size_t)count * sizeof *map), *first = NULL, n = 0;
    if (!map)
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld configurations",
                      (long long)count);
    int rc = dedup(ctx, src, k, count, map, &first, &n);
    if (!rc) {
        cfg_src forms = {src->s, src->nclasses, first};
        rc = (use_gpu(opts) ? run_gpu : run_cpu)(ctx, &forms, prep, n, opts, metrics);
    }
    for (int64_t i = count - 1; !rc && i >= 0; i--)
        metrics[i] = metrics[map[i]];
    if (!rc && opts && opts->simulations)
        *opts->simulations = n;
    free(first);
    free(map);
    return rc;
}

static int run_src(tt_ctx *ctx, const cfg_src *src, const tt_models *models,
                   const tt_cluster *c, const tt_sim_jobs *j, int64_t count,
                   const tt_run_opts *opts, tt_metrics *metrics)
{
    int needs;
    int64_t cmax;
    int rc = tt_simprep_check_frame(ctx, c, j);
    if (!rc)
        rc = check_all(ctx, src, count, &needs, &cmax);
    if (rc)
        return rc;
    tt_simprep prep;
    tt_canon k;
    rc = tt_simprep_init(ctx, &prep, c, models, j, needs);
    if (!rc)
        rc = check_bound(ctx, src, &prep, count, cmax);
    if (!rc && (needs & TT_NEED_GITTINS))
        rc = load_dists(ctx, src, &prep, count);
    int all = opts && opts->no_dedup;
    if (!rc && !all)
        rc = tt_canon_init(ctx, &k, c, models, j);
    if (!rc && count > 0 && !all)
        rc = run_forms(ctx, src, &prep, &k, count, opts, metrics);
    else if (!rc && count > 0)
        rc = (use_gpu(opts) ? run_gpu : run_cpu)(ctx, src, &prep, count, opts, metrics);
    if (!rc && opts && opts->simulations && (all || count == 0))
        *opts->simulations = count;
    tt_simprep_free(&prep);
    return rc;
}

int tt_run(tt_ctx *ctx, const tt_cluster *c, const tt_models *models, const tt_sim_jobs *j,
           const tt_run_source *src, int64_t count, const tt_run_opts *opts,
           tt_metrics *metrics)
{
    if (!c || !j || !src || !src->params || !src->label || (count > 0 && !metrics) ||
        count < 0)
        return tt_err(ctx, TT_EINVAL, "tt_run: missing argument");
    cfg_src cs = {src, tt_models_count(models), NULL};
    return run_src(ctx, &cs, models, c, j, count, opts, metrics);
}

static int params_at(void *arg, tt_ctx *ctx, int64_t i, tt_params *p)
{
    (void)ctx;
    *p = ((const tt_params *)arg)[i];
    return 0;
}

static void candidate_label(void *arg, int64_t i, char *buf, size_t size)
{
    (void)arg;
    snprintf(buf, size, "candidate %lld", (long long)i);
}

int tt_run_params(tt_ctx *ctx, const tt_cluster *c, const tt_models *models,
                  const tt_sim_jobs *j, const tt_params *ps, int64_t count,
                  const tt_run_opts *opts, tt_metrics *metrics)
{
    if (!c || !models || !j || (count > 0 && (!ps || !metrics)) || count < 0)
        return tt_err(ctx, TT_EINVAL, "tt_run_params: missing argument");
    tt_run_source src = {params_at, candidate_label, (void *)ps};
    return tt_run(ctx, c, models, j, &src, count, opts, metrics);
}
