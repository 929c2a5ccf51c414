/* The tuner's history in HDF5 (layout in tt/tune.h): every evaluated
 * configuration of the train and test parts as one table of columns, the
 * search space, and the result rows, with the helpers of
 * internal/h5util.h. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5util.h"
#include "io/layout.h"
#include "sim/simdesc.h"
#include "tt/tune.h"
#include "tt/version.h"

typedef struct {
    tt_ctx *ctx;
    const tt_tune_save_args *a;
    int64_t n;                 /* history rows, train then test */
    const tt_tune_row **rows;  /* n */
    int64_t *part, *feasible;  /* n */
} tune_write;

static int col_i64(hid_t g, const char *name, int64_t n, const int64_t *v, const char *units)
{
    return tt_h5u_write_col(g, name, H5T_STD_I64LE, H5T_NATIVE_INT64, n, v, units, 0, 0);
}

static int col_f64(hid_t g, const char *name, int64_t n, const double *v)
{
    return tt_h5u_write_col(g, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, v, NULL, 0, 0);
}

static int write_attrs(hid_t g, const tune_write *w)
{
    const tt_tune_save_args *a = w->a;
    const tt_tune_roles *ro = a->ro;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)a->seed);
    return tt_sd_write_origin(g, LAYOUT_TUNE, a->trace_path, a->trace_prov, a->cluster,
                              a->models) ||
           tt_h5u_attr_str(g, "objective", tt_objective_text(a->objective)) ||
           tt_h5u_attr_str(g, "strategy", a->strategy ? a->strategy : "") ||
           tt_h5u_attr_str(g, "seed", seed) || tt_h5u_attr_i64(g, "budget", a->budget) ||
           tt_h5u_attr_i64(g, "batch", a->batch) ||
           tt_h5u_attr_i64(g, "grid_size", tt_tune_grid_size(a->train)) ||
           tt_h5u_attr_i64(g, "sims_train", tt_tune_sims(a->train)) ||
           tt_h5u_attr_i64(g, "sims_test", a->test ? tt_tune_sims(a->test) : 0) ||
           tt_h5u_attr_i64(g, "sims_search", ro ? ro->sims_search : -1) ||
           tt_h5u_attr_i64(g, "sims_grid", ro ? ro->sims_grid : -1) ||
           tt_h5u_attr_str(g, "device", a->device ? a->device : "") ||
           tt_h5u_attr_str(g, "linalg", a->linalg ? a->linalg : "") ||
           tt_h5u_attr_str(g, "split", a->split ? a->split : "") ||
           tt_h5u_attr_str(g, "recommended", a->recommended ? a->recommended : "") ||
           tt_h5u_attr_str(g, "budget_note", a->budget_note ? a->budget_note : "") ||
           tt_h5u_attr_i64(g, "exact_train", ro ? ro->exact : 0) ||
           tt_h5u_attr_i64(g, "exact_test", ro && a->test ? ro->exact_test : 0) ||
           tt_h5u_attr_i64(g, "grid_distinct_train", ro ? ro->forms : -1) ||
           tt_h5u_attr_i64(g, "grid_distinct_test", ro && a->test ? ro->forms_test : -1) ||
           tt_h5u_attr_str(g, "grid_note", a->grid_note ? a->grid_note : "") ||
           tt_h5u_attr_str(g, "verdict", a->verdict ? a->verdict : "") ||
           tt_h5u_attr_str(g, "tool_version", TT_VERSION);
}

static int write_space(hid_t g, const tt_tune_save_args *a)
{
    static const char *const scales[] = {"linear", "log", "list"};
    for (int d = 0; d < a->ndims; d++) {
        const tt_tune_dim *s = &a->dims[d];
        const char *name = s->name;
        if (col_i64(g, name, s->n, s->v, tt_sd_params[s->param].units) ||
            (tt_sd_params[s->param].inf && tt_sd_mark_inf(g, name)))
            return -1;
        hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);
        int rc = ds < 0 || tt_h5u_attr_str(ds, "scale", scales[s->scale]);
        if (ds >= 0)
            H5Dclose(ds);
        if (rc)
            return -1;
    }
    return 0;
}

/* The parameter and metric columns of the history; buf n * 8 bytes. */
static int write_table(hid_t gp, hid_t gm, const tune_write *w, void *buf)
{
    size_t nn = (size_t)(w->n > 0 ? w->n : 1);
    const tt_params **pp = (const tt_params **)malloc(nn * sizeof *pp);
    const tt_metrics **mp = (const tt_metrics **)malloc(nn * sizeof *mp);
    int rc = pp && mp ? 0 : -1;
    for (int64_t r = 0; !rc && r < w->n; r++) {
        pp[r] = &w->rows[r]->params;
        mp[r] = &w->rows[r]->metrics;
    }
    rc = rc || tt_sd_write_param_cols(gp, w->a->models, tt_sd_params_of, (void *)pp, w->n, buf) ||
         tt_sd_write_metric_cols(gm, mp, w->n, buf);
    /* a class's own timer is also a number column of its own (w0.CLASS),
     * beside the timers text, so the history reads like any sweep axis */
    for (int d = 0; !rc && d < w->a->ndims; d++) {
        const tt_tune_dim *s = &w->a->dims[d];
        if (s->cls < 0)
            continue;
        int64_t *v = (int64_t *)buf;
        for (int64_t r = 0; r < w->n; r++) {
            const tt_params *q = &w->rows[r]->params;
            v[r] = (s->param == 1 ? q->class_w0 : q->class_w1)[s->cls];
        }
        rc = col_i64(gp, s->name, w->n, v, "s") || tt_sd_mark_inf(gp, s->name);
    }
    free(pp);
    free(mp);
    return rc ? -1 : 0;
}

static int write_history(hid_t g, const tune_write *w, void *buf)
{
    int64_t n = w->n;
    double *f = (double *)buf;
    int64_t *v = (int64_t *)buf;
    int rc = col_i64(g, "part", n, w->part, NULL) || col_i64(g, "feasible", n, w->feasible, NULL);
    for (int64_t r = 0; r < n; r++)
        v[r] = w->rows[r]->phase;
    rc = rc || col_i64(g, "phase", n, v, NULL);
    for (int64_t r = 0; r < n; r++)
        v[r] = w->rows[r]->round;
    rc = rc || col_i64(g, "round", n, v, NULL);
    for (int64_t r = 0; r < n; r++) /* test rows follow the train rows */
        v[r] = w->rows[r]->sim_row + (w->part[r] ? tt_tune_rows(w->a->train) : 0);
    rc = rc || col_i64(g, "sim_row", n, v, NULL);
    for (int64_t r = 0; r < n; r++)
        f[r] = w->rows[r]->objective;
    rc = rc || col_f64(g, "objective", n, f);
    for (int64_t r = 0; r < n; r++)
        f[r] = w->rows[r]->predicted;
    rc = rc || col_f64(g, "predicted", n, f);
    hid_t gp = rc ? -1 : tt_h5u_group(g, GRP_PARAMS);
    hid_t gm = gp < 0 ? -1 : tt_h5u_group(g, GRP_METRICS);
    rc = rc || gp < 0 || gm < 0 || write_table(gp, gm, w, buf);
    if (gp >= 0)
        H5Gclose(gp);
    if (gm >= 0)
        H5Gclose(gm);
    return rc ? -1 : 0;
}

static int write_result(hid_t g, const tt_tune_save_args *a)
{
    int64_t k = a->nresults, ntrain = tt_tune_rows(a->train);
    int64_t *test = (int64_t *)malloc((size_t)(k > 0 ? k : 1) * sizeof *test);
    if (!test)
        return -1;
    for (int64_t i = 0; i < k; i++) /* test rows follow the train rows */
        test[i] = a->test_rows && a->test_rows[i] >= 0 ? ntrain + a->test_rows[i] : -1;
    hid_t type = tt_h5u_vlen_utf8();
    int rc = tt_h5u_write_col(g, "role", type, type, k, a->roles, NULL, 0, 0) ||
             col_i64(g, "train_row", k, a->train_rows, NULL) || col_i64(g, "test_row", k, test, NULL);
    H5Tclose(type);
    free(test);
    return rc ? -1 : 0;
}

/* A group that keeps its members in creation order, so readers list the
 * searched dimensions in the order of -s (HDF5 lists by name otherwise). */
static hid_t ordered_group(hid_t parent, const char *name)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl < 0)
        return -1;
    hid_t g = H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0
                  ? -1
                  : H5Gcreate2(parent, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    H5Pclose(gcpl);
    return g;
}

/* The tuner's history into the file f (tt_h5u_save). 0 or -1. */
static int write_file(hid_t f, void *arg)
{
    const tune_write *w = (const tune_write *)arg;
    void *buf = malloc((size_t)(w->n > 0 ? w->n : 1) * 8);
    int rc = -1;
    if (buf) {
        hid_t g = tt_h5u_group(f, GRP_TUNE);
        hid_t gs = g >= 0 ? ordered_group(g, GRP_TUNE_SPACE) : -1;
        hid_t gh = g >= 0 ? tt_h5u_group(g, GRP_TUNE_HISTORY) : -1;
        hid_t gr = g >= 0 ? tt_h5u_group(g, GRP_TUNE_RESULT) : -1;
        rc = g < 0 || gs < 0 || gh < 0 || gr < 0 || write_attrs(g, w) ||
             write_space(gs, w->a) || write_history(gh, w, buf) || write_result(gr, w->a);
        hid_t gg[] = {gs, gh, gr, g};
        for (int i = 0; i < 4; i++)
            if (gg[i] >= 0)
                H5Gclose(gg[i]);
    }
    free(buf);
    return rc ? -1 : 0;
}

/* Rows of t into rows[], their part and their feasibility among the
 * part's rows. */
static void gather(const tt_tune *t, int64_t part, const tt_tune_row **rows, int64_t *partv,
                   int64_t *feas)
{
    for (int64_t r = 0; r < tt_tune_rows(t); r++) {
        rows[r] = tt_tune_row_at(t, r);
        partv[r] = part;
    }
    tt_tune_rows_feasible(t, feas);
}

int tt_tune_save(tt_ctx *ctx, const char *path, const tt_tune_save_args *a)
{
    if (!a || !a->train || !a->dims || !a->objective || !a->cluster || !a->models ||
        a->nresults < 0 || (a->nresults > 0 && (!a->roles || !a->train_rows)))
        return tt_err(ctx, TT_EINVAL, "tt_tune_save: a required argument is NULL");
    int64_t ntr = tt_tune_rows(a->train), n = ntr + (a->test ? tt_tune_rows(a->test) : 0);
    size_t sz = (size_t)(n > 0 ? n : 1);
    tune_write w = {ctx, a, n, (const tt_tune_row **)malloc(sz * sizeof *w.rows),
                    (int64_t *)malloc(sz * 8), (int64_t *)malloc(sz * 8)};
    int rc;
    if (!w.rows || !w.part || !w.feasible) {
        rc = tt_err(ctx, TT_ENOMEM, "out of memory for %lld rows", (long long)n);
    } else {
        gather(a->train, 0, w.rows, w.part, w.feasible);
        if (a->test)
            gather(a->test, 1, w.rows + ntr, w.part + ntr, w.feasible + ntr);
        rc = tt_h5u_save(ctx, path, write_file, &w);
    }
    free(w.rows);
    free(w.part);
    free(w.feasible);
    return rc;
}
