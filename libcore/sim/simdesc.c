/* The storage description of parameters and metrics (internal/simdesc.h). */
#include "sim/simdesc.h"

#include <stdlib.h>
#include <string.h>

#include "io/h5util.h"
#include "io/layout.h"

#define PAR(kind, f, units, inf) {kind, offsetof(tt_params, f), units, inf}
const sd_param tt_sd_params[] = {
    PAR(SD_TEXT, order, NULL, 0),       PAR(SD_I64, w0, "s", 1),
    PAR(SD_I64, w1, "s", 1),            PAR(SD_I64, theta, "permille", 1),
    PAR(SD_I64, restart, "s", 0),       PAR(SD_I64, congestion, "permille", 0),
    PAR(SD_I64, min_run, "s", 0),       PAR(SD_I64, max_preempt, "evictions", 0),
    PAR(SD_I32, backfill, "0 or 1", 0), PAR(SD_I64, load, "permille", 0),
    PAR(SD_U64, seed, NULL, 0),         PAR(SD_TEXT, mix, NULL, 0),
    PAR(SD_TEXT, class_w0, NULL, 0), /* timers: text, as tt_params_format writes it */
    PAR(SD_TEXT, mlfq, NULL, 0),     /* thresholds, GPU-s, as tt_params_format writes */
    PAR(SD_I64, promote, "permille", 0),
    PAR(SD_I32, prio_preempt, "0 or 1", 0),
    PAR(SD_I64, gittins_delta, "GPU-s", 0),
    PAR(SD_TEXT, gittins_dist, NULL, 0),
    PAR(SD_I64, el_up, "doublings", 0),
    PAR(SD_I64, el_down, "halvings", 0),
    PAR(SD_I64, el_frac, "permille", 0),
    PAR(SD_TEXT, resize, NULL, 0), /* sidecar or term */
    PAR(SD_I64, resize_cost, "s", 0),
    PAR(SD_I64, resize_gap, "s", 0),
    PAR(SD_I64, gpu_mem, "MiB", 0),
    PAR(SD_I64, cache_slots, "models", 0),
    PAR(SD_I64, load_bw, "MiB/s", 0),
    PAR(SD_I64, xfer_bw, "MiB/s", 0),
    PAR(SD_TEXT, evict, NULL, 0),       /* lru or demand */
    PAR(SD_TEXT, cache_place, NULL, 0), /* off or affinity */
    PAR(SD_I64, w_warm, "s", 0),
    PAR(SD_TEXT, requeue, NULL, 0),      /* keep or front */
    PAR(SD_TEXT, prio_victims, NULL, 0), /* lowest or refill */
};
_Static_assert(sizeof tt_sd_params / sizeof *tt_sd_params == TT_NPARAMS,
               "a parameter's storage row missing");

#define MET(f, real, units) {offsetof(tt_metrics, f), real, units}
const sd_metric tt_sd_metrics[] = {
    MET(makespan, 0, "s"),
    MET(jct_mean, 1, "s"),
    MET(jct_p50, 0, "s"),
    MET(jct_p90, 0, "s"),
    MET(jct_p99, 0, "s"),
    MET(queue_mean, 1, "s"),
    MET(queue_p99, 0, "s"),
    MET(comm_gpu_s, 1, "GPU-s"),
    MET(comm_share, 1, "fraction of used GPU-s"),
    MET(restart_gpu_s, 0, "GPU-s"),
    MET(preemptions, 0, "evictions"),
    MET(placed_l0, 0, "starts"),
    MET(placed_l1, 0, "starts"),
    MET(placed_l2, 0, "starts"),
    MET(util, 1, "fraction of cluster GPU-s"),
    MET(rejected, 0, "jobs"),
    MET(resizes, 0, "resizes"),
    MET(grows, 0, "resizes"),
    MET(shrinks, 0, "resizes"),
    MET(resize_gpu_s, 0, "GPU-s"),
    MET(loan_gpu_s, 0, "GPU-s"),
    MET(demotions, 0, "events"),
    MET(promotions, 0, "events"),
    MET(preempt_prio, 0, "evictions"),
    MET(ftf_mean, 1, "permille"),
    MET(ftf_max, 0, "permille"),
    MET(ftf_unfair, 0, "jobs"),
    MET(wf_jct_mean, 1, "s"),
    MET(wf_jct_p99, 0, "s"),
    MET(wf_rejected, 0, "workflows"),
    MET(cache_hit, 0, "permille of starts"),
    MET(loads, 0, "GPU loads"),
    MET(model_evicts, 0, "GPU evictions"),
    MET(load_gpu_s, 0, "GPU-s"),
    MET(xfer_gpu_s, 0, "GPU-s"),
};
_Static_assert(sizeof tt_sd_metrics / sizeof *tt_sd_metrics == TT_NMETRICS,
               "a metric's storage row missing");

/* The integer attribute attr = v on the dataset name of grp. */
static int mark(hid_t grp, const char *name, const char *attr, int64_t v)
{
    hid_t d = H5Dopen2(grp, name, H5P_DEFAULT);
    int rc = d < 0 || tt_h5u_attr_i64(d, attr, v);
    if (d >= 0)
        H5Dclose(d);
    return rc ? -1 : 0;
}

int tt_sd_mark_inf(hid_t grp, const char *name) { return mark(grp, name, "infinite", TT_INF); }

int tt_sd_mark_missing(hid_t grp, const char *name)
{
    return mark(grp, name, "missing", TT_METRIC_NONE);
}

const tt_params *tt_sd_params_of(void *arg, int64_t r, tt_params *scratch)
{
    (void)scratch;
    return ((const tt_params *const *)arg)[r];
}

static int text_col(hid_t gp, int i, const tt_models *models, tt_sd_params_fn at, void *arg,
                    int64_t n)
{
    tt_params scratch;
    char **text = (char **)calloc((size_t)(n > 0 ? n : 1), sizeof *text);
    char one[TT_PARAM_TEXT_MAX];
    int rc = text ? 0 : -1;
    for (int64_t r = 0; r < n && !rc; r++) {
        const tt_params *p = at(arg, r, &scratch);
        if (p)
            tt_params_format(p, models, i, one, sizeof one);
        rc = p && (text[r] = strdup(one)) ? 0 : -1;
    }
    hid_t type = tt_h5u_vlen_utf8();
    if (!rc)
        rc = tt_h5u_write_col(gp, tt_param_names[i], type, type, n, text, NULL, 0, 0);
    H5Tclose(type);
    for (int64_t r = 0; text && r < n; r++)
        free(text[r]);
    free(text);
    return rc;
}

int tt_sd_write_param_cols(hid_t gp, const tt_models *models, tt_sd_params_fn at, void *arg,
                           int64_t n, void *buf)
{
    tt_params scratch;
    for (int i = 0; i < TT_NPARAMS; i++) {
        const sd_param *d = &tt_sd_params[i];
        if (d->kind == SD_TEXT) {
            if (text_col(gp, i, models, at, arg, n))
                return -1;
            continue;
        }
        for (int64_t r = 0; r < n; r++) {
            const tt_params *p = at(arg, r, &scratch);
            if (!p)
                return -1;
            const char *v = (const char *)p + d->off;
            if (d->kind == SD_I32) /* stored as int64 like the rest */
                ((int64_t *)buf)[r] = *(const int32_t *)v;
            else
                memcpy((char *)buf + r * 8, v, 8);
        }
        int u = d->kind == SD_U64;
        if (tt_h5u_write_col(gp, tt_param_names[i], u ? H5T_STD_U64LE : H5T_STD_I64LE,
                          u ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, n, buf, d->units, 0, 0) ||
            (d->inf && tt_sd_mark_inf(gp, tt_param_names[i])))
            return -1;
    }
    return 0;
}

int tt_sd_write_metric_cols(hid_t gm, const tt_metrics *const *m, int64_t n, void *buf)
{
    for (int i = 0; i < TT_NMETRICS; i++) {
        int real = tt_sd_metrics[i].real, missing = 0;
        for (int64_t r = 0; r < n; r++) {
            memcpy((char *)buf + r * 8, (const char *)m[r] + tt_sd_metrics[i].off, 8);
            missing |= !tt_metric_defined(m[r], i);
        }
        /* NAN says it in a real column; an integer one says it by its
         * "missing" attribute, written only where a row needs it so that
         * every other file stays as it was */
        if (tt_h5u_write_col(gm, tt_metric_names[i], real ? H5T_IEEE_F64LE : H5T_STD_I64LE,
                          real ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64, n, buf,
                          tt_sd_metrics[i].units, TT_METRIC_NONE, missing && !real))
            return -1;
    }
    return 0;
}

int tt_sd_write_origin(hid_t g, const char *layout, const char *trace_path, const tt_provenance *p,
                    const tt_cluster *c, const tt_models *models)
{
    char cluster[64];
    tt_cluster_format(c, cluster, sizeof cluster);
    return tt_h5u_attr_str(g, LAYOUT_ATTR, layout) ||
           tt_h5u_attr_str(g, "trace_file", trace_path ? trace_path : "") ||
           tt_h5u_attr_str(g, "trace_format", p ? p->format : "") ||
           tt_h5u_attr_str(g, "trace_source_sha256", p ? p->source_sha256 : "") ||
           (p && p->jobs_sha256 && *p->jobs_sha256 &&
            tt_h5u_attr_str(g, "trace_jobs_sha256", p->jobs_sha256)) ||
           tt_h5u_attr_str(g, "cluster", cluster) ||
           tt_h5u_attr_str(g, "models_source", tt_models_source(models)) ||
           tt_h5u_attr_str(g, "models_sha256", tt_models_sha256(models));
}
