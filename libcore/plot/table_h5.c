/* Tables from the HDF5 results of the tools (tt/table.h): sweep files and
 * simulation results, tune files (read in table_tune.c with the helpers
 * here), each checked for the layout version this library reads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/layout.h"
#include "plot/table_impl.h"
#include "tt/sim.h"

/* ---- the groups of a file ---- */

void tt_tab_attr_text(hid_t d, const char *name, char *buf, size_t size)
{
    char *v = tt_h5u_attr_read_str(d, name);
    snprintf(buf, size, "%s", v ? v : "");
    free(v);
}

/* Signed integers with their "infinite" and "missing" attributes,
 * unsigned integers as text (seeds go past 2^53), reals, strings. */
int tt_tab_read_dataset(tt_ctx *ctx, const char *path, const char *where, hid_t grp,
                        const char *name, tt_table *t)
{
    hid_t d = H5Dopen2(grp, name, H5P_DEFAULT);
    if (d < 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': cannot open %s/%s", path, where, name);
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    H5T_class_t cls = H5Tget_class(type);
    int rc = 0;
    char units[256];
    tt_tab_attr_text(d, "units", units, sizeof units);
    if (H5Sget_simple_extent_npoints(space) != t->n) {
        rc = tt_err(ctx, TT_EFORMAT, "'%s': %s/%s has %lld values for %lld rows", path, where,
                    name, (long long)H5Sget_simple_extent_npoints(space), (long long)t->n);
    } else if (cls == H5T_STRING) {
        column *col = tt_tab_add_col(t, name, units, 1);
        hid_t mt = tt_h5u_vlen_utf8();
        if (!col)
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if (H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, col->s) < 0)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot read %s/%s as text", path, where, name);
        /* the strings came from HDF5's allocator: copy them into ours */
        for (int64_t r = 0; !rc && r < t->n; r++) {
            char *h = col->s[r];
            col->s[r] = strdup(h ? h : "");
            H5free_memory(h);
            if (!col->s[r])
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        }
        H5Tclose(mt);
    } else if (cls == H5T_INTEGER && H5Tget_sign(type) == H5T_SGN_NONE) {
        uint64_t *u = (uint64_t *)malloc((size_t)t->n * sizeof *u);
        column *col = u ? tt_tab_add_col(t, name, units, 1) : NULL;
        if (!col)
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if (H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, u) < 0)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot read %s/%s", path, where, name);
        for (int64_t r = 0; !rc && r < t->n; r++) {
            char buf[32];
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)u[r]);
            if (!(col->s[r] = strdup(buf)))
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        }
        free(u);
    } else if (cls == H5T_INTEGER) {
        int64_t *iv = (int64_t *)malloc((size_t)t->n * sizeof *iv);
        column *col = iv ? tt_tab_add_col(t, name, units, 0) : NULL;
        int64_t inf, missing;
        int has_inf = tt_h5u_attr_read_i64(d, "infinite", &inf) == 0;
        int has_missing = tt_h5u_attr_read_i64(d, "missing", &missing) == 0;
        if (!col)
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if (H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, iv) < 0)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot read %s/%s", path, where, name);
        for (int64_t r = 0; !rc && r < t->n; r++)
            col->v[r] = has_inf && iv[r] == inf           ? INFINITY
                        : has_missing && iv[r] == missing ? NAN
                                                          : (double)iv[r];
        free(iv);
    } else if (cls == H5T_FLOAT) {
        column *col = tt_tab_add_col(t, name, units, 0);
        if (!col)
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, col->v) < 0)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot read %s/%s", path, where, name);
    } else {
        rc = tt_err(ctx, TT_EFORMAT, "'%s': %s/%s is neither numbers nor text", path, where, name);
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(d);
    return rc;
}

static herr_t add_dataset(hid_t g, const char *name, const H5L_info_t *info, void *arg)
{
    (void)info;
    h5u_names *l = (h5u_names *)arg;
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    int dataset = o >= 0 && H5Iget_type(o) == H5I_DATASET;
    if (o >= 0)
        H5Oclose(o);
    if (!dataset)
        return 0; /* a subgroup: params/, metrics/ */
    return tt_h5u_names_add(l, "", name) ? -1 : 0;
}

int tt_tab_list_datasets(hid_t g, H5_index_t index, h5u_names *l)
{
    memset(l, 0, sizeof *l);
    if (H5Literate(g, index, H5_ITER_INC, NULL, add_dataset, l) >= 0)
        return 0;
    tt_h5u_names_free(l);
    return -1;
}

int64_t tt_tab_dataset_len(hid_t g, const char *name)
{
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t space = H5Dget_space(d);
    int64_t n = H5Sget_simple_extent_npoints(space);
    H5Sclose(space);
    H5Dclose(d);
    return n;
}

int tt_tab_read_group(tt_ctx *ctx, const char *path, hid_t f, const char *where,
                      const char *const *names, int n, int extras, tt_table *t)
{
    hid_t g = H5Lexists(f, where, H5P_DEFAULT) > 0 ? H5Gopen2(f, where, H5P_DEFAULT) : -1;
    if (g < 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': no group %s", path, where);
    h5u_names all;
    int rc = tt_tab_list_datasets(g, H5_INDEX_NAME, &all)
                 ? tt_err(ctx, TT_EFORMAT, "'%s': cannot list %s", path, where)
                 : 0;
    for (int i = 0; i < n + (extras ? all.n : 0) && !rc; i++) {
        const char *name = i < n ? names[i] : all.v[i - n];
        if (i < n ? H5Lexists(g, name, H5P_DEFAULT) <= 0 : tt_table_find(t, name) >= 0)
            continue;
        if (t->ncols == 0 && (t->n = tt_tab_dataset_len(g, name)) < 0)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot read %s/%s", path, where, name);
        else
            rc = tt_tab_read_dataset(ctx, path, where, g, name, t);
    }
    if (!rc && t->ncols == 0)
        rc = tt_err(ctx, TT_EFORMAT, "'%s': no dataset %s/%s", path, where, n ? names[0] : "");
    tt_h5u_names_free(&all);
    H5Gclose(g);
    return rc;
}

/* One attribute of a group into t->attr, when it is text or an integer. */
static herr_t add_attr(hid_t loc, const char *name, const H5A_info_t *info, void *arg)
{
    (void)info;
    tt_table *t = (tt_table *)arg;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t type = a < 0 ? -1 : H5Aget_type(a);
    H5T_class_t cls = type < 0 ? H5T_NO_CLASS : H5Tget_class(type);
    char val[1024];
    int64_t v;
    int keep = 1;
    if (cls == H5T_STRING)
        tt_tab_attr_text(loc, name, val, sizeof val);
    else if (cls == H5T_INTEGER && H5Aread(a, H5T_NATIVE_INT64, &v) >= 0)
        snprintf(val, sizeof val, "%lld", (long long)v);
    else
        keep = 0;
    if (type >= 0)
        H5Tclose(type);
    if (a >= 0)
        H5Aclose(a);
    return keep ? tt_tab_add_attr(t, name, val) : 0;
}

int tt_tab_read_attrs(tt_ctx *ctx, const char *path, hid_t f, const char *where, tt_table *t)
{
    hid_t g = H5Gopen2(f, where, H5P_DEFAULT);
    herr_t rc = g < 0 ? -1 : H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_INC, NULL, add_attr, t);
    if (g >= 0)
        H5Gclose(g);
    return rc < 0 ? tt_err(ctx, TT_EFORMAT, "'%s': cannot read the attributes of %s", path,
                           where)
                  : 0;
}

/* ---- sweep and simulation results ---- */

static const char *const job_names[] = {
    "job",   "submit", "duration",  "gpus",      "cls",       "start",     "end",
    "queue", "level",  "slow",      "preemptions", "starts_l0", "starts_l1", "starts_l2",
    "gpu_s", "rejected", "rho",
};
static const char *const timeline_names[] = {"t",          "waiting",    "running",
                                             "busy_gpus",  "running_l0", "running_l1",
                                             "running_l2"};

/* jct = end - submit, absent where end is (rejected jobs). */
static int add_jct(tt_ctx *ctx, tt_table *t)
{
    int cs = tt_table_find(t, "submit"), ce = tt_table_find(t, "end");
    if (cs < 0 || ce < 0 || !t->cols[cs].v || !t->cols[ce].v)
        return 0;
    column *col = tt_tab_add_col(t, "jct", "s", 0);
    if (!col)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    /* columns may have moved: look them up again */
    const double *s = t->cols[tt_table_find(t, "submit")].v, *e = t->cols[tt_table_find(t, "end")].v;
    for (int64_t r = 0; r < t->n; r++)
        col->v[r] = e[r] - s[r]; /* exact: both are integers below 2^53 */
    return 0;
}

/* What the file is, for messages (tt_h5u_file_kind), with where to look
 * for its figure when see: "it is a trace: see tt-plot trace". */
static const char *file_kind(hid_t f, int see)
{
    const char *kind = tt_h5u_file_kind(f);
    if (!kind)
        return "no /sweep, /sim or /tune group";
    if (see && strcmp(kind, "it is a tune file") == 0)
        return "it is a tune file: see tt-plot search";
    if (see && strcmp(kind, "it is a trace") == 0)
        return "it is a trace: see tt-plot trace";
    return kind;
}

/* 0 when group where of f is marked with layout want, else TT_EFORMAT
 * saying what it holds; kind names such a file. A file of another layout
 * version would be misread column by column, so none is read at all. */
static int check_layout(tt_ctx *ctx, const char *path, hid_t f, const char *where,
                        const char *want, const char *kind)
{
    char layout[256];
    hid_t g = H5Gopen2(f, where, H5P_DEFAULT);
    layout[0] = '\0';
    if (g >= 0) {
        tt_tab_attr_text(g, LAYOUT_ATTR, layout, sizeof layout);
        H5Gclose(g);
    }
    if (!*layout)
        return tt_err(ctx, TT_EFORMAT, "'%s': not a tracetune %s (%s has no tracetune_layout)",
                      path, kind, where);
    if (strcmp(layout, want) != 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': %s layout '%s', this version reads '%s'", path,
                      kind, layout, want);
    return 0;
}

/* The parameters of the run (the one row of /sim/summary) as attributes
 * named after them, written as the tools print them ("inf", "fifo"): the
 * jobs and the timeline of a result then say which configuration ran. */
static int add_run_params(tt_ctx *ctx, const char *path, hid_t f, tt_table *t)
{
    tt_table *s = tt_tab_new(path);
    if (!s)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    s->n = 1;
    int rc = tt_tab_read_group(ctx, path, f, "/sim/summary", tt_param_names, TT_NPARAMS, 0, s);
    for (int c = 0; !rc && c < s->ncols; c++) {
        char num[64];
        double v = s->cols[c].v ? s->cols[c].v[0] : 0;
        if (!s->cols[c].v)
            snprintf(num, sizeof num, "%s", s->cols[c].s[0] ? s->cols[c].s[0] : "");
        else if (isinf(v))
            snprintf(num, sizeof num, "%sinf", v < 0 ? "-" : "");
        else
            snprintf(num, sizeof num, v == floor(v) ? "%.0f" : "%.17g", v);
        if (tt_tab_add_attr(t, s->cols[c].name, num))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    tt_table_free(s);
    return rc;
}

static int read_h5(tt_ctx *ctx, const char *path, hid_t f, tt_table_part part, tt_table *t)
{
    int sweep = H5Lexists(f, GRP_SWEEP, H5P_DEFAULT) > 0;
    int sim = H5Lexists(f, GRP_SIM, H5P_DEFAULT) > 0;
    int rc;
    if (part == TT_TABLE_TUNE || part == TT_TABLE_TUNE_SPACE || part == TT_TABLE_TUNE_ROLLING) {
        if (H5Lexists(f, GRP_TUNE, H5P_DEFAULT) <= 0)
            return tt_err(ctx, TT_EFORMAT, "'%s': not a tune file (%s; tt-tune -o writes one)",
                          path, file_kind(f, 0));
        rc = check_layout(ctx, path, f, PATH_TUNE, LAYOUT_TUNE, "tune file");
        return rc ? rc : tt_tab_read_tune(ctx, path, f, part, t);
    }
    const char *want = part == TT_TABLE_CONFIGS ? "a sweep or simulation result"
                       : part == TT_TABLE_JOBS  ? "a simulation result with /sim/jobs"
                                                : "a simulation result with /sim/timeline";
    if (!sweep && !sim)
        return tt_err(ctx, TT_EFORMAT, "'%s': not %s (%s)", path, want, file_kind(f, 1));
    rc = sweep ? check_layout(ctx, path, f, PATH_SWEEP, LAYOUT_SWEEP, "sweep file")
               : check_layout(ctx, path, f, PATH_SIM, LAYOUT_SIM, "simulation result");
    if (!rc)
        rc = tt_tab_read_attrs(ctx, path, f, sweep ? PATH_SWEEP : PATH_SIM, t);
    if (rc)
        return rc;
    if (part == TT_TABLE_CONFIGS) {
        const char *gp = sweep ? PATH_SWEEP_PARAMS : PATH_SIM_SUMMARY;
        const char *gm = sweep ? PATH_SWEEP_METRICS : PATH_SIM_SUMMARY;
        if (sim)
            t->n = 1;
        /* a sweep's columns are all read (per-class ones too); a summary
         * holds both kinds in one group */
        rc = tt_tab_read_group(ctx, path, f, gp, tt_param_names, TT_NPARAMS, sweep, t);
        return rc ? rc
                  : tt_tab_read_group(ctx, path, f, gm, tt_metric_names, TT_NMETRICS, sweep, t);
    }
    if (!sim)
        return tt_err(ctx, TT_EFORMAT, "'%s': not %s (it is a sweep file)", path, want);
    if ((rc = add_run_params(ctx, path, f, t)))
        return rc;
    if (part == TT_TABLE_JOBS) {
        rc = tt_tab_read_group(ctx, path, f, PATH_SIM_JOBS, job_names, NELEM(job_names), 0, t);
        return rc ? rc : add_jct(ctx, t);
    }
    if (H5Lexists(f, PATH_SIM_TIMELINE, H5P_DEFAULT) <= 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': no /sim/timeline (written by tt-sim -o only "
                      "with --timeline)", path);
    return tt_tab_read_group(ctx, path, f, PATH_SIM_TIMELINE, timeline_names,
                             NELEM(timeline_names), 0, t);
}

/* ---- opening ---- */

int tt_tab_is_h5(const void *data, size_t len) { return tt_h5u_is_image(data, len); }

/* The reads of tt_tab_h5_load and tt_tab_h5_read_mem, rehearsed in a
 * child (tt_h5u_check_file): the same calls into a table of its own. */
typedef struct {
    const char *name;
    const void *data;
    size_t len;
    tt_table_part part;
} rehearsal;

static void rehearse_read(void *arg)
{
    const rehearsal *r = (const rehearsal *)arg;
    tt_ctx *c = tt_ctx_create();
    tt_table *t = tt_tab_new(r->name);
    hid_t f = r->data ? tt_h5u_open_image(r->data, r->len)
                      : H5Fopen(r->name, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0 && t) {
        read_h5(c, r->name, f, r->part, t);
        H5Fclose(f);
    }
}

int tt_tab_h5_load(tt_ctx *ctx, const char *path, tt_table_part part, tt_table *t)
{
    tt_h5u_quiet();
    char what[4200];
    snprintf(what, sizeof what, "'%s'", path);
    rehearsal r = {path, NULL, 0, part};
    if (tt_h5u_check_file(ctx, what, path, rehearse_read, &r))
        return TT_EFORMAT;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int rc = f < 0 ? tt_err(ctx, TT_EFORMAT, "cannot open '%s' as HDF5", path)
                   : read_h5(ctx, path, f, part, t);
    if (f >= 0)
        H5Fclose(f);
    return rc;
}

int tt_tab_h5_read_mem(tt_ctx *ctx, const char *name, const void *data, size_t len,
                       tt_table_part part, tt_table *t)
{
    tt_h5u_quiet();
    char what[4200];
    snprintf(what, sizeof what, "'%s'", name);
    rehearsal r = {name, data, len, part};
    if (tt_h5u_check_image(ctx, what, data, len, rehearse_read, &r))
        return TT_EFORMAT;
    hid_t f = tt_h5u_open_image(data, len);
    int rc = f < 0 ? tt_err(ctx, TT_EFORMAT, "'%s': cannot open as HDF5", name)
                   : read_h5(ctx, name, f, part, t);
    if (f >= 0)
        H5Fclose(f);
    return rc;
}
