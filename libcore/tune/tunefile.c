/* The tuner's history in HDF5 (layout in tt/tune.h): every evaluated
 * configuration of the train and test parts as one table of columns, the
 * search space, and the result rows, with the helpers of
 * internal/h5util.h. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5util.h"
#include "io/layout.h"
#include "sim/simdesc.h"
#include "tt/tune.h"
#include "tt/version.h"
#include "tune/tune_impl.h"

typedef struct {
    tt_ctx *ctx;
    const tt_tune_save_args *a;
    int64_t n;                 /* history rows, train then test (or window by window) */
    const tt_tune_row **rows;  /* n */
    int64_t *part, *feasible;  /* n */
    int64_t *sim_row;          /* n: each row's sim_row in the whole history */
    int nparts;
    const tt_tune *parts[2];   /* train, test; NULL for a rolling tune */
    int64_t *off;              /* the first history row of each part (or window) */
} tune_write;

/* The tuner of part k. */
static const tt_tune *part_tuner(const tune_write *w, int64_t k)
{
    return w->a->rolling ? w->a->rolling->t[k] : w->parts[k];
}

static int col_i64(hid_t g, const char *name, int64_t n, const int64_t *v, const char *units)
{
    return tt_h5u_write_col(g, name, H5T_STD_I64LE, H5T_NATIVE_INT64, n, v, units, 0, 0);
}

static int col_f64(hid_t g, const char *name, int64_t n, const double *v)
{
    return tt_h5u_write_col(g, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, v, NULL, 0, 0);
}

/* The attributes of a rolling tune's file that a split's lacks. */
static int write_rolling_attrs(hid_t g, const tt_tune_save_args *a)
{
    const tt_tune_rolling *r = a->rolling;
    int64_t sims = 0;
    for (int64_t k = 0; k < r->n; k++)
        sims += tt_tune_sims(r->t[k]);
    return tt_h5u_attr_str(g, "rolling", a->rolling_label ? a->rolling_label : "") ||
           tt_h5u_attr_i64(g, "rolling_s", r->width) || tt_h5u_attr_i64(g, "windows", r->n) ||
           tt_h5u_attr_i64(g, "windows_empty", r->empty) || tt_h5u_attr_i64(g, "sims", sims) ||
           tt_h5u_attr_i64(g, "sims_search", r->sims_search) ||
           tt_h5u_attr_i64(g, "sims_single", r->sims_single) ||
           tt_h5u_attr_i64(g, "sims_hindsight", r->sims_hindsight) ||
           tt_h5u_attr_str(g, "hindsight", a->hindsight ? a->hindsight : "");
}

static int write_attrs(hid_t g, const tune_write *w)
{
    const tt_tune_save_args *a = w->a;
    const tt_tune_roles *ro = a->ro;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)a->seed);
    int rc = tt_sd_write_origin(g, LAYOUT_TUNE, a->trace_path, a->trace_prov, a->cluster,
                                a->models) ||
             tt_h5u_attr_str(g, "objective", tt_objective_text(a->objective)) ||
             tt_h5u_attr_str(g, "strategy", a->strategy ? a->strategy : "") ||
             tt_h5u_attr_str(g, "seed", seed) || tt_h5u_attr_i64(g, "budget", a->budget) ||
             tt_h5u_attr_i64(g, "batch", a->batch) ||
             tt_h5u_attr_i64(g, "grid_size", tt_tune_grid_size(part_tuner(w, 0))) ||
             tt_h5u_attr_str(g, "device", a->device ? a->device : "") ||
             tt_h5u_attr_str(g, "linalg", a->linalg ? a->linalg : "") ||
             tt_h5u_attr_str(g, "split", a->split ? a->split : "") ||
             tt_h5u_attr_str(g, "recommended", a->recommended ? a->recommended : "") ||
             tt_h5u_attr_str(g, "budget_note", a->budget_note ? a->budget_note : "") ||
             tt_h5u_attr_str(g, "verdict", a->verdict ? a->verdict : "") ||
             tt_h5u_attr_str(g, "tool_version", TT_VERSION);
    if (rc || a->rolling)
        return rc || write_rolling_attrs(g, a);
    return tt_h5u_attr_i64(g, "sims_train", tt_tune_sims(a->train)) ||
           tt_h5u_attr_i64(g, "sims_test", a->test ? tt_tune_sims(a->test) : 0) ||
           tt_h5u_attr_i64(g, "sims_search", ro ? ro->sims_search : -1) ||
           tt_h5u_attr_i64(g, "sims_grid", ro ? ro->sims_grid : -1) ||
           tt_h5u_attr_i64(g, "exact_train", ro ? ro->exact : 0) ||
           tt_h5u_attr_i64(g, "exact_test", ro && a->test ? ro->exact_test : 0) ||
           tt_h5u_attr_i64(g, "grid_distinct_train", ro ? ro->forms : -1) ||
           tt_h5u_attr_i64(g, "grid_distinct_test", ro && a->test ? ro->forms_test : -1) ||
           tt_h5u_attr_str(g, "grid_note", a->grid_note ? a->grid_note : "");
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
            v[r] = (s->param == TT_P_W0 ? q->class_w0 : q->class_w1)[s->cls];
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
    rc = rc || col_i64(g, "sim_row", n, w->sim_row, NULL);
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

/* A rolling tune's roles: the last window's choice, the first's, the
 * best static choice on the last window. */
static int write_rolling_result(hid_t g, const tune_write *w)
{
    const tt_tune_rolling *r = w->a->rolling;
    static const char *const roles[] = {"recommended", "first", "hindsight"};
    int64_t last = r->n - 1;
    int64_t train[] = {w->off[last] + r->w[last].choice, w->off[0] + r->w[0].choice,
                       w->off[last] + r->w[last].row[TT_ROLL_HINDSIGHT]};
    int64_t test[] = {-1, -1, -1};
    hid_t type = tt_h5u_vlen_utf8();
    int rc = tt_h5u_write_col(g, "role", type, type, 3, roles, NULL, 0, 0) ||
             col_i64(g, "train_row", 3, train, NULL) || col_i64(g, "test_row", 3, test, NULL);
    H5Tclose(type);
    return rc ? -1 : 0;
}

/* The units of the objective's metric where it is one metric alone. */
static const char *objective_units(const tt_objective *o)
{
    for (int i = 0; i < TT_NMETRICS; i++)
        if (strcmp(tt_objective_text(o), tt_metric_names[i]) == 0)
            return tt_sd_metrics[i].units;
    return NULL;
}

/* /tune/rolling: a row a window, the columns of tt_tune_rolling_tsv and
 * the rows of each role in the history. */
static int write_rolling(hid_t g, const tune_write *w, void *buf)
{
    const tt_tune_rolling *r = w->a->rolling;
    const tt_tune *t0 = r->t[0];
    int64_t n = r->n, *v = (int64_t *)buf;
    double *f = (double *)buf;
    int rc = 0;
    static const char *const ints[] = {"window", "start", "end", "jobs", "job_from", "job_to"};
    for (int c = 0; c < 6 && !rc; c++) {
        for (int64_t k = 0; k < n; k++) {
            const tt_tune_window *x = &r->w[k];
            int64_t val[] = {k, x->start, x->end, x->b - x->a, x->a, x->b};
            v[k] = val[c];
        }
        rc = col_i64(g, ints[c], n, v, c == 1 || c == 2 ? "s" : NULL);
    }
    for (int d = 0; d < t0->nd && !rc; d++) {
        const tt_tune_dim *dim = &t0->dims[d];
        for (int64_t k = 0; k < n; k++) {
            const tt_tune_row *c = tt_tune_row_at(r->t[k], r->w[k].choice);
            v[k] = tt_tune_dim_get(&c->params, dim);
        }
        rc = col_i64(g, dim->name, n, v, dim->cls >= 0 ? "s" : tt_sd_params[dim->param].units) ||
             ((dim->cls >= 0 || tt_sd_params[dim->param].inf) && tt_sd_mark_inf(g, dim->name));
    }
    const char *units = objective_units(t0->obj);
    for (int64_t k = 0; k < n && !rc; k++)
        f[k] = tt_tune_row_at(r->t[k], r->w[k].choice)->objective;
    rc = rc || tt_h5u_write_col(g, "objective", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, f, units,
                                0, 0);
    for (int c = 0; c < 3 && !rc; c++) {
        for (int64_t k = 0; k < n; k++)
            v[k] = c == 0 ? r->w[k].exact : c == 1 ? r->w[k].sims_search
                   : k + 1 < n ? r->w[k + 1].b - r->w[k + 1].a : 0;
        rc = col_i64(g, c == 0 ? "exact" : c == 1 ? "sims" : "next_jobs", n, v, NULL);
    }
    char name[64];
    for (int q = 0; q < TT_ROLL_N && !rc; q++) {
        for (int64_t k = 0; k < n; k++)
            f[k] = k + 1 < n ? tt_tune_row_at(r->t[k + 1], r->w[k + 1].row[q])->objective : NAN;
        snprintf(name, sizeof name, "next_%s", tt_tune_roll_names[q]);
        rc = tt_h5u_write_col(g, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, f, units, 0, 0);
    }
    for (int64_t k = 0; k < n && !rc; k++)
        v[k] = w->off[k] + r->w[k].choice;
    rc = rc || col_i64(g, "row", n, v, NULL);
    for (int q = 0; q < TT_ROLL_N && !rc; q++) {
        for (int64_t k = 0; k < n; k++)
            v[k] = k + 1 < n ? w->off[k + 1] + r->w[k + 1].row[q] : -1;
        snprintf(name, sizeof name, "next_%s_row", tt_tune_roll_names[q]);
        rc = col_i64(g, name, n, v, NULL);
    }
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
        hid_t gw = g >= 0 && w->a->rolling ? ordered_group(g, GRP_TUNE_ROLLING) : -1;
        rc = g < 0 || gs < 0 || gh < 0 || gr < 0 || (w->a->rolling && gw < 0) ||
             write_attrs(g, w) || write_space(gs, w->a) || write_history(gh, w, buf) ||
             (w->a->rolling ? write_rolling_result(gr, w) || write_rolling(gw, w, buf)
                            : write_result(gr, w->a));
        hid_t gg[] = {gs, gh, gr, gw, g};
        for (int i = 0; i < 5; i++)
            if (gg[i] >= 0)
                H5Gclose(gg[i]);
    }
    free(buf);
    return rc ? -1 : 0;
}

/* Rows of part k into w's columns from row at: the rows, their part, their
 * feasibility among the part's rows and their sim_row in the history. */
static void gather(tune_write *w, int64_t k, int64_t at)
{
    const tt_tune *t = part_tuner(w, k);
    w->off[k] = at;
    for (int64_t r = 0; r < tt_tune_rows(t); r++) {
        w->rows[at + r] = tt_tune_row_at(t, r);
        w->part[at + r] = k;
        w->sim_row[at + r] = at + w->rows[at + r]->sim_row;
    }
    tt_tune_rows_feasible(t, w->feasible + at);
}

int tt_tune_save(tt_ctx *ctx, const char *path, const tt_tune_save_args *a)
{
    if (!a || (!a->train && !a->rolling) || !a->dims || !a->objective || !a->cluster ||
        !a->models || a->nresults < 0 || (a->nresults > 0 && (!a->roles || !a->train_rows)))
        return tt_err(ctx, TT_EINVAL, "tt_tune_save: a required argument is NULL");
    tune_write w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.a = a;
    w.parts[0] = a->train;
    w.parts[1] = a->test;
    w.nparts = a->rolling ? (int)a->rolling->n : a->test ? 2 : 1;
    for (int k = 0; k < w.nparts; k++)
        w.n += tt_tune_rows(part_tuner(&w, k));
    size_t sz = (size_t)(w.n > 0 ? w.n : 1);
    w.rows = (const tt_tune_row **)malloc(sz * sizeof *w.rows);
    w.part = (int64_t *)malloc(sz * 8);
    w.feasible = (int64_t *)malloc(sz * 8);
    w.sim_row = (int64_t *)malloc(sz * 8);
    w.off = (int64_t *)malloc((size_t)w.nparts * 8);
    int rc;
    if (!w.rows || !w.part || !w.feasible || !w.sim_row || !w.off) {
        rc = tt_err(ctx, TT_ENOMEM, "out of memory for %lld rows", (long long)w.n);
    } else {
        int64_t at = 0;
        for (int k = 0; k < w.nparts; k++) {
            gather(&w, k, at);
            at += tt_tune_rows(part_tuner(&w, k));
        }
        rc = tt_h5u_save(ctx, path, write_file, &w);
    }
    free(w.rows);
    free(w.part);
    free(w.feasible);
    free(w.sim_row);
    free(w.off);
    return rc;
}
