/* A sweep's results in HDF5: one 1-D dataset per parameter and metric,
 * one entry per configuration, written to a temporary file and renamed
 * into place, with the helpers of internal/h5util.h. */
#include "tt/sweepfile.h"

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

static int write_prov(hid_t g, const tt_sweep_save_args *a)
{
    char shard[64];
    snprintf(shard, sizeof shard, "%lld/%lld", (long long)a->shard_k, (long long)a->shard_n);
    return tt_sd_write_origin(g, LAYOUT_SWEEP, a->trace_path, a->trace_prov, a->cluster,
                              a->models) ||
           tt_h5u_attr_str(g, "device", a->device ? a->device : "") ||
           tt_h5u_attr_f64(g, "elapsed_s", a->elapsed_s) ||
           tt_h5u_attr_f64(g, "sims_per_s", a->sims_per_s) ||
           tt_h5u_attr_str(g, "shard", shard) ||
           tt_h5u_attr_i64(g, "configurations", tt_sweep_count(a->sweep)) ||
           tt_h5u_attr_i64(g, "rows", a->rows) ||
           (a->simulations > 0 && tt_h5u_attr_i64(g, "distinct_simulations", a->simulations)) ||
           tt_h5u_attr_str(g, "tool_version", TT_VERSION);
}

struct sweep_write {
    const tt_sweep_save_args *a;
    tt_ctx *ctx;
    char digest[65];
};

/* Row r's parameters, expanded from the sweep's axes when its column is
 * written: a parameter set (1.4 KiB with the class timers) a row for a
 * whole grid would dwarf the results. */
static const tt_params *row_params(void *arg, int64_t r, tt_params *scratch)
{
    const struct sweep_write *w = (const struct sweep_write *)arg;
    return tt_sweep_params(w->ctx, w->a->sweep, w->a->index[r], scratch) ? NULL : scratch;
}

static int write_file(hid_t f, struct sweep_write *w)
{
    const tt_sweep_save_args *a = w->a;
    size_t rows = (size_t)(a->rows > 0 ? a->rows : 1);
    void *buf = malloc(rows * 8);
    const tt_metrics **mp = (const tt_metrics **)malloc(rows * sizeof *mp);
    int rc = -1;
    if (buf && mp) {
        for (int64_t r = 0; r < a->rows; r++)
            mp[r] = &a->metrics[r];
        hid_t sw = tt_h5u_group(f, GRP_SWEEP);
        hid_t gp = sw >= 0 ? tt_h5u_group(sw, GRP_PARAMS) : -1;
        hid_t gm = sw >= 0 ? tt_h5u_group(sw, GRP_METRICS) : -1;
        rc = sw < 0 || gp < 0 || gm < 0 || write_prov(sw, a) ||
             tt_h5u_attr_str(sw, "configs_sha256", w->digest) ||
             tt_h5u_write_col(sw, "index", H5T_STD_I64LE, H5T_NATIVE_INT64, a->rows, a->index,
                           "position in the full sweep, from 0", 0, 0) ||
             tt_sd_write_param_cols(gp, a->models, row_params, w, a->rows, buf) ||
             tt_sd_write_metric_cols(gm, mp, a->rows, buf);
        if (gp >= 0)
            H5Gclose(gp);
        if (gm >= 0)
            H5Gclose(gm);
        if (sw >= 0)
            H5Gclose(sw);
    }
    free(buf);
    free(mp);
    return rc;
}

/* The sweep arg into the file f (tt_h5u_save). 0 or -1. */
static int write_sweep(hid_t f, void *arg)
{
    return write_file(f, (struct sweep_write *)arg);
}

int tt_sweep_save(tt_ctx *ctx, const char *path, const tt_sweep_save_args *a)
{
    if (!a || !a->sweep || !a->cluster || !a->models || a->rows < 0 ||
        (a->rows > 0 && (!a->index || !a->metrics)))
        return tt_err(ctx, TT_EINVAL, "tt_sweep_save: a required argument is NULL");
    int64_t total = tt_sweep_count(a->sweep);
    for (int64_t r = 0; r < a->rows; r++)
        if (a->index[r] < 0 || a->index[r] >= total)
            return tt_err(ctx, TT_EINVAL, "tt_sweep_save: row %lld: configuration %lld out of "
                          "range", (long long)r, (long long)a->index[r]);
    /* the callbacks' own context: tt_h5u_save reports into ctx */
    tt_ctx *rctx = tt_ctx_create();
    if (!rctx)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    struct sweep_write w = {a, rctx, ""};
    int rc = tt_sweep_digest(ctx, a->sweep, w.digest);
    if (rc == 0)
        rc = tt_h5u_save(ctx, path, write_sweep, &w);
    tt_ctx_free(rctx);
    return rc;
}
