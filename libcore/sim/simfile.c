/* One simulation's results in HDF5: parameters and metrics as scalars,
 * per-job results and the timeline as one dataset per column, written to a
 * temporary file and renamed into place. */
#include "tt/simfile.h"

#include <errno.h>
#include <hdf5.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/h5util.h"
#include "io/layout.h"
#include "sim/simdesc.h"
#include "tt/version.h"

/* A column of an array of structs: the field at off of each row, gathered
 * into buf (n * 8 bytes). */
static int struct_col(hid_t grp, const char *name, int is64, const void *rows, size_t stride,
                      size_t off, int64_t n, void *buf, const char *units, int has_missing)
{
    const char *p = (const char *)rows + off;
    for (int64_t i = 0; i < n; i++, p += stride) {
        if (is64)
            memcpy((int64_t *)buf + i, p, sizeof(int64_t));
        else
            memcpy((int32_t *)buf + i, p, sizeof(int32_t));
    }
    return tt_h5u_write_col(grp, name, is64 ? H5T_STD_I64LE : H5T_STD_I32LE,
                     is64 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32, n, buf, units,
                     is64 ? INT64_MIN : -1, has_missing);
}

/* ---- the parts ---- */

static int write_prov(hid_t g, const tt_sim_save_args *a)
{
    const tt_provenance *p = a->trace_prov;
    return tt_sd_write_origin(g, LAYOUT_SIM, a->trace_path, p, a->cluster, a->models) ||
           tt_h5u_attr_str(g, "trace_source_files", p ? p->source_files : "") ||
           tt_h5u_attr_i64(g, "racks", a->cluster->racks) ||
           tt_h5u_attr_i64(g, "nodes_per_rack", a->cluster->nodes_per_rack) ||
           tt_h5u_attr_i64(g, "gpus_per_node", a->cluster->gpus_per_node) ||
           tt_h5u_attr_str(g, "tool_version", TT_VERSION) || tt_h5u_attr_i64(g, "jobs", a->input->n) ||
           tt_h5u_attr_i64(g, "unknown_models", a->input->unknown_models);
}

static int write_params(hid_t g, const tt_sim_save_args *a)
{
    for (int i = 0; i < TT_NPARAMS; i++) {
        const char *name = tt_param_names[i], *units = tt_sd_params[i].units;
        const char *at = (const char *)a->params + tt_sd_params[i].off;
        int rc;
        if (tt_sd_params[i].kind == SD_TEXT) {
            char text[TT_PARAM_TEXT_MAX];
            rc = tt_params_format(a->params, a->models, i, text, sizeof text) ||
                 tt_h5u_scalar_str(g, name, text);
        } else if (tt_sd_params[i].kind == SD_U64) {
            rc = tt_h5u_scalar(g, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, at, units);
        } else {
            /* int32 fields (backfill) are stored as int64 like the rest */
            int64_t v = tt_sd_params[i].kind == SD_I32 ? *(const int32_t *)at
                                                  : *(const int64_t *)at;
            rc = tt_h5u_scalar(g, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v, units);
        }
        if (!rc && tt_sd_params[i].inf)
            rc = tt_sd_mark_inf(g, name);
        if (rc)
            return -1;
    }
    return 0;
}

static int write_metrics(hid_t g, const tt_metrics *m)
{
    for (int i = 0; i < TT_NMETRICS; i++) {
        const void *at = (const char *)m + tt_sd_metrics[i].off;
        int real = tt_sd_metrics[i].real;
        if (tt_h5u_scalar(g, tt_metric_names[i], real ? H5T_IEEE_F64LE : H5T_STD_I64LE,
                       real ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64, at, tt_sd_metrics[i].units) ||
            (!real && !tt_metric_defined(m, i) && tt_sd_mark_missing(g, tt_metric_names[i])))
            return -1;
    }
    return 0;
}

typedef struct {
    const char *name;
    int is64;
    size_t off;
    const char *units;
    int has_missing;
} col_desc;

#define JC(f, is64, u, m) {#f, is64, offsetof(tt_job_result, f), u, m}
static const col_desc job_cols[] = {
    JC(submit, 1, "s (after load scaling)", 0),
    JC(start, 1, "s", 1),
    JC(end, 1, "s", 1),
    JC(queue, 1, "s", 0),
    JC(gpu_s, 1, "GPU-s", 0),
    JC(cls, 0, "index into /sim/models/name", 0),
    JC(level, 0, "placement level of the last start: 0 packed, 1 rack, 2 spread", 1),
    JC(slow, 0, "permille", 0),
    JC(preemptions, 0, "count", 0),
    {"starts_l0", 0, offsetof(tt_job_result, starts[0]), "count", 0},
    {"starts_l1", 0, offsetof(tt_job_result, starts[1]), "count", 0},
    {"starts_l2", 0, offsetof(tt_job_result, starts[2]), "count", 0},
    JC(rejected, 0, "1: not simulated (more GPUs than the cluster, a model over gpu_mem, its workflow)", 0),
    JC(rho, 1, "permille", 1), /* finish-time fairness, docs/model.md section 11 */
};

#define TC(f, u) {#f, 1, offsetof(tt_timeline_row, f), u, 0}
static const col_desc timeline_cols[] = {
    TC(t, "s"),
    TC(waiting, "jobs"),
    TC(running, "jobs"),
    TC(busy_gpus, "GPUs"),
    {"running_l0", 1, offsetof(tt_timeline_row, running_level[0]), "jobs", 0},
    {"running_l1", 1, offsetof(tt_timeline_row, running_level[1]), "jobs", 0},
    {"running_l2", 1, offsetof(tt_timeline_row, running_level[2]), "jobs", 0},
};

static int write_jobs(hid_t g, const tt_sim_save_args *a, void *buf)
{
    const tt_sim_jobs *in = a->input;
    int64_t n = in->n, *idx = (int64_t *)buf;
    for (int64_t i = 0; i < n; i++)
        idx[i] = i;
    int rc = tt_h5u_write_col(g, "job", H5T_STD_I64LE, H5T_NATIVE_INT64, n, idx,
                       "index into the trace's /jobs", 0, 0) ||
             tt_h5u_write_col(g, "duration", H5T_STD_I64LE, H5T_NATIVE_INT64, n, in->duration, "s",
                       0, 0) ||
             tt_h5u_write_col(g, "gpus", H5T_STD_I32LE, H5T_NATIVE_INT32, n, in->gpus, "GPUs", 0, 0);
    for (size_t c = 0; c < sizeof job_cols / sizeof job_cols[0] && !rc; c++)
        rc = struct_col(g, job_cols[c].name, job_cols[c].is64, a->results,
                        sizeof *a->results, job_cols[c].off, n, buf, job_cols[c].units,
                        job_cols[c].has_missing);
    return rc;
}

static int write_models(hid_t g, const tt_models *m)
{
    int n = tt_models_count(m);
    const char *names[TT_MAX_CLASSES];
    int64_t l1[TT_MAX_CLASSES], l2[TT_MAX_CLASSES];
    for (int c = 0; c < n; c++) {
        names[c] = tt_models_name(m, c);
        l1[c] = tt_models_slow_l1(m, c);
        l2[c] = tt_models_slow_l2(m, c);
    }
    hid_t type = tt_h5u_vlen_utf8();
    int rc = tt_h5u_write_col(g, "name", type, type, n, names, NULL, 0, 0) ||
             tt_h5u_write_col(g, "slow_l1", H5T_STD_I64LE, H5T_NATIVE_INT64, n, l1, "permille", 0,
                       0) ||
             tt_h5u_write_col(g, "slow_l2", H5T_STD_I64LE, H5T_NATIVE_INT64, n, l2, "permille", 0, 0);
    H5Tclose(type);
    return rc;
}

static int write_timeline(hid_t g, const tt_timeline *tl, void *buf)
{
    int rc = 0;
    for (size_t c = 0; c < sizeof timeline_cols / sizeof timeline_cols[0] && !rc; c++)
        rc = struct_col(g, timeline_cols[c].name, 1, tl->rows, sizeof *tl->rows,
                        timeline_cols[c].off, tl->n, buf, timeline_cols[c].units, 0);
    return rc;
}

/* The results arg into the file f (tt_h5u_save). 0 or -1. */
static int write_sim(hid_t f, void *arg)
{
    const tt_sim_save_args *a = (const tt_sim_save_args *)arg;
    int64_t rows = a->input->n;
    if (a->timeline && a->timeline->n > rows)
        rows = a->timeline->n;
    void *buf = malloc((size_t)(rows > 0 ? rows : 1) * sizeof(int64_t));
    if (!buf)
        return -1;
    hid_t sim = tt_h5u_group(f, GRP_SIM);
    hid_t sub[4] = {-1, -1, -1, -1};
    static const char *const names[4] = {GRP_SIM_SUMMARY, GRP_SIM_JOBS, GRP_SIM_MODELS,
                                         GRP_SIM_TIMELINE};
    int rc = sim < 0 ? -1 : write_prov(sim, a);
    for (int i = 0; i < 4 && !rc; i++)
        if (i < 3 || a->timeline)
            rc = (sub[i] = tt_h5u_group(sim, names[i])) < 0;
    if (!rc)
        rc = write_params(sub[0], a) || write_metrics(sub[0], a->metrics) ||
             write_jobs(sub[1], a, buf) || write_models(sub[2], a->models) ||
             (a->timeline && write_timeline(sub[3], a->timeline, buf));
    for (int i = 0; i < 4; i++)
        if (sub[i] >= 0)
            H5Gclose(sub[i]);
    if (sim >= 0)
        H5Gclose(sim);
    free(buf);
    return rc;
}

int tt_sim_save(tt_ctx *ctx, const char *path, const tt_sim_save_args *a)
{
    if (!a || !a->cluster || !a->params || !a->models || !a->input || !a->metrics ||
        (a->input->n > 0 && !a->results))
        return tt_err(ctx, TT_EINVAL, "tt_sim_save: a required argument is NULL");
    return tt_h5u_save(ctx, path, write_sim, (void *)a);
}
