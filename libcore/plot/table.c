/* Named columns from the tools' TSV, sweep, simulation and tune files, and
 * the tt-stats views of a trace (tt/table.h). */
#include "tt/table.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5util.h"
#include "sim/simdesc.h"
#include "tt/parse.h"
#include "tt/sim.h"
#include "tt/stats.h"

typedef struct {
    char *name;
    char *units;
    double *v; /* numeric column, or NULL */
    char **s;  /* text column, or NULL */
} column;

struct tt_table {
    int64_t n;
    int ncols, cap;
    column *cols;
    char *source;
    int nattrs;
    char **attr; /* name, value, name, value, ... of the file's group */
};

static tt_table *table_new(const char *source)
{
    tt_table *t = (tt_table *)calloc(1, sizeof *t);
    if (t && !(t->source = strdup(source))) {
        free(t);
        t = NULL;
    }
    return t;
}

void tt_table_free(tt_table *t)
{
    if (!t)
        return;
    for (int c = 0; c < t->ncols; c++) {
        column *col = &t->cols[c];
        if (col->s)
            for (int64_t r = 0; r < t->n; r++)
                free(col->s[r]);
        free(col->s);
        free(col->v);
        free(col->name);
        free(col->units);
    }
    free(t->cols);
    for (int i = 0; i < 2 * t->nattrs; i++)
        free(t->attr[i]);
    free(t->attr);
    free(t->source);
    free(t);
}

/* A new column of t->n rows, numeric or text (zeroed); NULL when out of
 * memory. */
static column *add_col(tt_table *t, const char *name, const char *units, int text)
{
    if (t->ncols == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        column *c = (column *)realloc(t->cols, (size_t)cap * sizeof *c);
        if (!c)
            return NULL;
        t->cols = c;
        t->cap = cap;
    }
    column *col = &t->cols[t->ncols];
    memset(col, 0, sizeof *col);
    size_t n = (size_t)(t->n > 0 ? t->n : 1);
    col->name = strdup(name);
    col->units = strdup(units ? units : "");
    if (text)
        col->s = (char **)calloc(n, sizeof *col->s);
    else
        col->v = (double *)calloc(n, sizeof *col->v);
    t->ncols++; /* counted now so that tt_table_free releases it */
    if (!col->name || !col->units || (text ? !col->s : !col->v))
        return NULL;
    return col;
}

int64_t tt_table_rows(const tt_table *t) { return t->n; }
int tt_table_cols(const tt_table *t) { return t->ncols; }
const char *tt_table_source(const tt_table *t) { return t->source; }
const char *tt_table_name(const tt_table *t, int col) { return t->cols[col].name; }
const char *tt_table_units(const tt_table *t, int col) { return t->cols[col].units; }
const double *tt_table_values(const tt_table *t, int col) { return t->cols[col].v; }

const char *tt_table_text(const tt_table *t, int col, int64_t row)
{
    return t->cols[col].s ? t->cols[col].s[row] : NULL;
}

const char *tt_table_attr(const tt_table *t, const char *name)
{
    for (int i = 0; i < t->nattrs; i++)
        if (strcmp(t->attr[2 * i], name) == 0)
            return t->attr[2 * i + 1];
    return NULL;
}

int tt_table_find(const tt_table *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return c;
    return -1;
}

/* ---- units of the names the tools print ---- */

static const struct {
    const char *name, *units;
} other_units[] = {
    {"job", "index"},     {"submit", "s"},       {"duration", "s"},    {"start", "s"},
    {"end", "s"},         {"jct", "s"},          {"queue", "s"},       {"gpu_s", "GPU-s"},
    {"gpus", "GPUs"},     {"slow", "permille"},  {"t", "s"},           {"waiting", "jobs"},
    {"running", "jobs"},  {"busy_gpus", "GPUs"}, {"running_l0", "jobs"}, {"running_l1", "jobs"},
    {"running_l2", "jobs"},
};

static const char *units_of(const char *name)
{
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strcmp(name, tt_param_names[i]) == 0)
            return tt_sd_params[i].units ? tt_sd_params[i].units : "";
    for (int i = 0; i < TT_NMETRICS; i++)
        if (strcmp(name, tt_metric_names[i]) == 0)
            return tt_sd_metrics[i].units;
    for (size_t i = 0; i < sizeof other_units / sizeof other_units[0]; i++)
        if (strcmp(name, other_units[i].name) == 0)
            return other_units[i].units;
    return "";
}

/* ---- TSV ---- */

/* A cell as a number: a decimal, `inf`, or empty / a missing token (NAN).
 * 0, or -1 for text. */
static int cell_number(const char *s, double *v)
{
    if (strcmp(s, "inf") == 0) {
        *v = INFINITY;
        return 0;
    }
    if (tt_is_missing(s)) {
        *v = NAN;
        return 0;
    }
    return tt_parse_f64(s, v) == 0 ? 0 : -1;
}

/* Splits buf (NUL-terminated, modified) at tabs into at most max fields
 * of f; the field count, which may exceed max (the excess is not stored).
 * With f NULL, only counts. */
static int split_tabs(char *buf, char **f, int max)
{
    int n = 0;
    for (char *p = buf;;) {
        char *tab = strchr(p, '\t');
        if (n < max)
            f[n] = p;
        n++;
        if (!tab)
            break;
        if (f) /* counting (f NULL) leaves buf as it is */
            *tab = '\0';
        p = tab + 1;
    }
    return n;
}

/* The next line of text[*pos..len) into a NUL-terminated copy (CR of a
 * CRLF dropped); 1, 0 at the end, -1 out of memory. */
static int next_line(const char *text, size_t len, size_t *pos, char **line)
{
    if (*pos >= len)
        return 0;
    const char *p = text + *pos;
    const char *nl = (const char *)memchr(p, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - p) : len - *pos;
    *pos += n + (nl ? 1 : 0);
    if (n > 0 && p[n - 1] == '\r')
        n--;
    char *s = (char *)malloc(n + 1);
    if (!s)
        return -1;
    memcpy(s, p, n);
    s[n] = '\0';
    *line = s;
    return 1;
}

typedef struct {
    char **lines; /* the data lines, split in place */
    int64_t n, cap;
    char ***fields;
} tsv_rows;

static void tsv_rows_free(tsv_rows *r)
{
    for (int64_t i = 0; i < r->n; i++) {
        free(r->lines[i]);
        free(r->fields[i]);
    }
    free(r->lines);
    free(r->fields);
}

static int read_tsv(tt_ctx *ctx, const char *name, const char *text, size_t len, tt_table *t)
{
    size_t pos = 0;
    char *head = NULL;
    int rc = next_line(text, len, &pos, &head);
    if (rc < 0)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    if (rc == 0 || !*head) {
        free(head);
        return tt_err(ctx, TT_EEMPTY, "%s: empty input (expected a header line)", name);
    }
    int nh = split_tabs(head, NULL, 0);
    char **hf = (char **)malloc((size_t)nh * sizeof *hf);
    if (!hf) {
        free(head);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    split_tabs(head, hf, nh);
    rc = 0;
    for (int i = 0; i < nh && !rc; i++) {
        if (!*hf[i])
            rc = tt_err(ctx, TT_EPARSE, "%s:1: column %d has an empty name", name, i + 1);
        for (int j = 0; j < i && !rc; j++)
            if (strcmp(hf[i], hf[j]) == 0)
                rc = tt_err(ctx, TT_EPARSE, "%s:1: field '%s': column name repeated", name,
                            hf[i]);
    }
    tsv_rows r = {0};
    int64_t lineno = 1;
    char *line = NULL;
    int got;
    while (!rc && (got = next_line(text, len, &pos, &line)) != 0) {
        lineno++;
        if (got < 0) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            break;
        }
        if (!*line) { /* a blank line: allowed only at the end */
            free(line);
            size_t p2 = pos;
            char *rest = NULL;
            int more = 0;
            while (!more && next_line(text, len, &p2, &rest) == 1) {
                more = *rest != '\0';
                free(rest);
            }
            if (more)
                rc = tt_err(ctx, TT_EPARSE, "%s:%lld: blank line inside the table", name,
                            (long long)lineno);
            break;
        }
        if (r.n == r.cap) {
            int64_t cap = r.cap ? 2 * r.cap : 256;
            char **l = (char **)realloc(r.lines, (size_t)cap * sizeof *l);
            if (l)
                r.lines = l;
            char ***f = (char ***)realloc(r.fields, (size_t)cap * sizeof *f);
            if (f)
                r.fields = f;
            if (!l || !f) {
                free(line);
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
                break;
            }
            r.cap = cap;
        }
        char **f = (char **)malloc((size_t)nh * sizeof *f);
        int nf = f ? split_tabs(line, f, nh) : 0;
        if (!f)
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if (nf != nh)
            rc = tt_err(ctx, TT_EPARSE, "%s:%lld: expected %d fields as in the header, got %d",
                        name, (long long)lineno, nh, nf);
        if (rc) {
            free(f);
            free(line);
            break;
        }
        r.lines[r.n] = line;
        r.fields[r.n++] = f;
    }
    if (!rc && r.n == 0)
        rc = tt_err(ctx, TT_EEMPTY, "%s: no rows under the header", name);
    t->n = r.n;
    for (int c = 0; c < nh && !rc; c++) {
        int numeric = 1;
        for (int64_t i = 0; i < r.n && numeric; i++) {
            double v;
            numeric = cell_number(r.fields[i][c], &v) == 0;
        }
        column *col = add_col(t, hf[c], units_of(hf[c]), !numeric);
        if (!col) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            break;
        }
        for (int64_t i = 0; i < r.n && !rc; i++) {
            if (numeric)
                cell_number(r.fields[i][c], &col->v[i]);
            else if (!(col->s[i] = strdup(r.fields[i][c])))
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        }
    }
    tsv_rows_free(&r);
    free(hf);
    free(head);
    return rc;
}

int tt_table_where(tt_ctx *ctx, tt_table *t, const char *name, const char *value)
{
    int c = tt_table_find(t, name);
    if (c < 0)
        return tt_err(ctx, TT_EINVAL, "--where %s=%s: no column '%s' in '%s'", name, value, name,
                      t->source);
    double want = 0;
    if (t->cols[c].v && cell_number(value, &want))
        return tt_err(ctx, TT_EINVAL, "--where %s=%s: '%s' is numeric, '%s' is not a number",
                      name, value, name, value);
    int64_t k = 0;
    for (int64_t r = 0; r < t->n; r++) {
        int keep = t->cols[c].v ? t->cols[c].v[r] == want : strcmp(t->cols[c].s[r], value) == 0;
        for (int j = 0; j < t->ncols; j++) {
            column *col = &t->cols[j];
            if (col->v) {
                col->v[k] = col->v[r];
            } else if (keep) {
                char *s = col->s[r];
                col->s[r] = NULL;
                col->s[k] = s;
            } else {
                free(col->s[r]);
                col->s[r] = NULL;
            }
        }
        k += keep;
    }
    if (k == 0) {
        /* the rows are gone: say so without listing them */
        t->n = 0;
        return tt_err(ctx, TT_EEMPTY, "--where %s=%s: no row of '%s' has that value", name,
                      value, t->source);
    }
    t->n = k;
    return 0;
}

/* ---- HDF5 ---- */

/* The text attribute name of d into buf ("" when absent or not text). */
static void attr_text(hid_t d, const char *name, char *buf, size_t size)
{
    buf[0] = '\0';
    if (H5Aexists(d, name) <= 0)
        return;
    hid_t a = H5Aopen(d, name, H5P_DEFAULT);
    hid_t ft = a < 0 ? -1 : H5Aget_type(a);
    if (ft >= 0 && H5Tget_class(ft) == H5T_STRING && H5Tis_variable_str(ft) > 0) {
        hid_t mt = tt_h5u_vlen_utf8();
        char *v = NULL;
        if (H5Aread(a, mt, &v) >= 0 && v) {
            snprintf(buf, size, "%s", v);
            H5free_memory(v);
        }
        H5Tclose(mt);
    }
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
}

/* Reads the dataset name of grp (n values, or a scalar when n is 1) as a
 * column of t: signed integers with their "infinite" and "missing"
 * attributes, unsigned integers as text, reals, strings. */
static int read_dataset(tt_ctx *ctx, const char *path, const char *where, hid_t grp,
                        const char *name, tt_table *t)
{
    hid_t d = H5Dopen2(grp, name, H5P_DEFAULT);
    if (d < 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': cannot open %s/%s", path, where, name);
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    H5T_class_t cls = H5Tget_class(type);
    int rc = 0;
    char units[256];
    attr_text(d, "units", units, sizeof units);
    if (H5Sget_simple_extent_npoints(space) != t->n) {
        rc = tt_err(ctx, TT_EFORMAT, "'%s': %s/%s has %lld values for %lld rows", path, where,
                    name, (long long)H5Sget_simple_extent_npoints(space), (long long)t->n);
    } else if (cls == H5T_STRING) {
        column *col = add_col(t, name, units, 1);
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
        column *col = u ? add_col(t, name, units, 1) : NULL;
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
        column *col = iv ? add_col(t, name, units, 0) : NULL;
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
        column *col = add_col(t, name, units, 0);
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

/* The datasets of g by index (H5_INDEX_CRT_ORDER fails where the group
 * does not keep it). 0 or -1. */
static int list_datasets(hid_t g, H5_index_t index, h5u_names *l)
{
    memset(l, 0, sizeof *l);
    if (H5Literate(g, index, H5_ITER_INC, NULL, add_dataset, l) >= 0)
        return 0;
    tt_h5u_names_free(l);
    return -1;
}

/* The number of values of dataset name of g, or -1. */
static int64_t dataset_len(hid_t g, const char *name)
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

/* Every dataset of names[0..n) under group where that exists, in that
 * order, then (extras) every other dataset of the group in name order:
 * columns a newer writer adds are read, and one an older file lacks is
 * absent, not an error. The rows, on a table without columns yet: the
 * length of the first dataset read. */
static int read_group(tt_ctx *ctx, const char *path, hid_t f, const char *where,
                      const char *const *names, int n, int extras, tt_table *t)
{
    hid_t g = H5Lexists(f, where, H5P_DEFAULT) > 0 ? H5Gopen2(f, where, H5P_DEFAULT) : -1;
    if (g < 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': no group %s", path, where);
    h5u_names all;
    int rc = list_datasets(g, H5_INDEX_NAME, &all)
                 ? tt_err(ctx, TT_EFORMAT, "'%s': cannot list %s", path, where)
                 : 0;
    for (int i = 0; i < n + (extras ? all.n : 0) && !rc; i++) {
        const char *name = i < n ? names[i] : all.v[i - n];
        if (i < n ? H5Lexists(g, name, H5P_DEFAULT) <= 0 : tt_table_find(t, name) >= 0)
            continue;
        if (t->ncols == 0 && (t->n = dataset_len(g, name)) < 0)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot read %s/%s", path, where, name);
        else
            rc = read_dataset(ctx, path, where, g, name, t);
    }
    if (!rc && t->ncols == 0)
        rc = tt_err(ctx, TT_EFORMAT, "'%s': no dataset %s/%s", path, where, n ? names[0] : "");
    tt_h5u_names_free(&all);
    H5Gclose(g);
    return rc;
}

/* The text and integer attributes of group where, integers in decimal. */
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
        attr_text(loc, name, val, sizeof val);
    else if (cls == H5T_INTEGER && H5Aread(a, H5T_NATIVE_INT64, &v) >= 0)
        snprintf(val, sizeof val, "%lld", (long long)v);
    else
        keep = 0;
    if (type >= 0)
        H5Tclose(type);
    if (a >= 0)
        H5Aclose(a);
    if (!keep)
        return 0;
    char **na = (char **)realloc(t->attr, (size_t)(t->nattrs + 1) * 2 * sizeof *na);
    if (!na)
        return -1;
    t->attr = na;
    na[2 * t->nattrs] = strdup(name);
    na[2 * t->nattrs + 1] = strdup(val);
    t->nattrs++; /* counted now so that tt_table_free releases them */
    return na[2 * t->nattrs - 2] && na[2 * t->nattrs - 1] ? 0 : -1;
}

static int read_attrs(tt_ctx *ctx, const char *path, hid_t f, const char *where, tt_table *t)
{
    hid_t g = H5Gopen2(f, where, H5P_DEFAULT);
    herr_t rc = g < 0 ? -1 : H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_INC, NULL, add_attr, t);
    if (g >= 0)
        H5Gclose(g);
    return rc < 0 ? tt_err(ctx, TT_EFORMAT, "'%s': cannot read the attributes of %s", path,
                           where)
                  : 0;
}

static const char *const job_names[] = {
    "job",   "submit", "duration",  "gpus",      "cls",       "start",     "end",
    "queue", "level",  "slow",      "preemptions", "starts_l0", "starts_l1", "starts_l2",
    "gpu_s", "rejected",
};
static const char *const timeline_names[] = {"t",          "waiting",    "running",
                                             "busy_gpus",  "running_l0", "running_l1",
                                             "running_l2"};
#define NELEM(a) ((int)(sizeof a / sizeof a[0]))

/* jct = end - submit, absent where end is (rejected jobs). */
static int add_jct(tt_ctx *ctx, tt_table *t)
{
    int cs = tt_table_find(t, "submit"), ce = tt_table_find(t, "end");
    if (cs < 0 || ce < 0 || !t->cols[cs].v || !t->cols[ce].v)
        return 0;
    column *col = add_col(t, "jct", "s", 0);
    if (!col)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    /* columns may have moved: look them up again */
    const double *s = t->cols[tt_table_find(t, "submit")].v, *e = t->cols[tt_table_find(t, "end")].v;
    for (int64_t r = 0; r < t->n; r++)
        col->v[r] = e[r] - s[r]; /* exact: both are integers below 2^53 */
    return 0;
}

/* ---- tune files ---- */

static const char *const history_names[] = {"part",      "phase",    "round",
                                            "objective", "feasible", "predicted"};

/* Appends ",word" (or "word" to "") to *s. 0 or -1. */
static int append_word(char **s, const char *word)
{
    size_t n = strlen(*s), w = strlen(word);
    char *r = (char *)realloc(*s, n + w + 2);
    if (!r)
        return -1;
    snprintf(r + n, w + 2, "%s%s", n ? "," : "", word);
    *s = r;
    return 0;
}

/* Column role: the roles of /tune/result whose train_row or test_row is
 * the row. */
static int add_roles(tt_ctx *ctx, const char *path, hid_t f, tt_table *t)
{
    static const char *const names[] = {"role", "train_row", "test_row"};
    tt_table *res = table_new("/tune/result");
    column *col = res ? add_col(t, "role", "", 1) : NULL;
    int rc = col ? 0 : tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t r = 0; !rc && r < t->n; r++)
        if (!(col->s[r] = strdup("")))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = read_group(ctx, path, f, "/tune/result", names, 3, 0, res);
    int c[3];
    for (int i = 0; i < 3; i++)
        c[i] = rc ? -1 : tt_table_find(res, names[i]);
    if (!rc && (c[0] < 0 || c[1] < 0 || c[2] < 0 || !res->cols[c[0]].s || !res->cols[c[1]].v ||
                !res->cols[c[2]].v))
        rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/result needs role (text), train_row and "
                    "test_row (integers)", path);
    for (int64_t k = 0; !rc && k < res->n; k++)
        for (int i = 1; i < 3 && !rc; i++) {
            double row = res->cols[c[i]].v[k];
            if (row == -1) /* none */
                continue;
            if (!(row >= 0 && row < (double)t->n))
                rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/result/%s[%lld]: %.0f is not a row "
                            "of /tune/history (%lld rows)", path, names[i], (long long)k, row,
                            (long long)t->n);
            else if (append_word(&col->s[(int64_t)row], res->cols[c[0]].s[k]))
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        }
    tt_table_free(res);
    return rc;
}

/* Parameter order, per-class names (w0.bert) after their parameter. */
static int param_rank(const char *name)
{
    size_t n = strcspn(name, ".");
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strlen(tt_param_names[i]) == n && strncmp(tt_param_names[i], name, n) == 0)
            return i;
    return TT_NPARAMS;
}

static int cmp_dims(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int rx = param_rank(x), ry = param_rank(y);
    return rx != ry ? (rx > ry) - (rx < ry) : strcmp(x, y);
}

/* One row per value of each searched dimension: dim, scale, units, value.
 * Dimensions in the order the file created them where it keeps that
 * order, else in parameter order. */
static int read_space(tt_ctx *ctx, const char *path, hid_t f, tt_table *t)
{
    hid_t g = H5Lexists(f, "/tune/space", H5P_DEFAULT) > 0
                  ? H5Gopen2(f, "/tune/space", H5P_DEFAULT)
                  : -1;
    if (g < 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': no group /tune/space", path);
    h5u_names l;
    int rc = 0, kept = list_datasets(g, H5_INDEX_CRT_ORDER, &l) == 0;
    if (!kept && list_datasets(g, H5_INDEX_NAME, &l))
        rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot list /tune/space", path);
    else if (!kept)
        qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_dims);
    if (!rc && l.n == 0)
        rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/space holds no dimension", path);
    tt_table **dims = (tt_table **)calloc((size_t)(l.n > 0 ? l.n : 1), sizeof *dims);
    char(*scale)[16] = (char(*)[16])calloc((size_t)(l.n > 0 ? l.n : 1), sizeof *scale);
    if (!rc && (!dims || !scale))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int i = 0; i < l.n && !rc; i++) {
        if (!(dims[i] = table_new(l.v[i])))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if ((dims[i]->n = dataset_len(g, l.v[i])) < 1)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/space/%s holds no value", path, l.v[i]);
        else if (!(rc = read_dataset(ctx, path, "/tune/space", g, l.v[i], dims[i])) &&
                 !dims[i]->cols[0].v)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/space/%s is not numbers", path, l.v[i]);
        hid_t d = rc ? -1 : H5Dopen2(g, l.v[i], H5P_DEFAULT);
        if (d >= 0) {
            attr_text(d, "scale", scale[i], sizeof scale[i]);
            H5Dclose(d);
        }
        t->n += rc ? 0 : dims[i]->n;
    }
    if (!rc && (!add_col(t, "dim", "", 1) || !add_col(t, "scale", "", 1) ||
                !add_col(t, "units", "", 1) || !add_col(t, "value", "", 0)))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int i = 0, r = 0; i < l.n && !rc; i++)
        for (int64_t k = 0; k < dims[i]->n && !rc; k++, r++) {
            const char *text[3] = {l.v[i], scale[i], dims[i]->cols[0].units};
            for (int c = 0; c < 3 && !rc; c++)
                if (!(t->cols[c].s[r] = strdup(text[c])))
                    rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            t->cols[3].v[r] = dims[i]->cols[0].v[k];
        }
    for (int i = 0; dims && i < l.n; i++)
        tt_table_free(dims[i]);
    free(dims);
    free(scale);
    tt_h5u_names_free(&l);
    H5Gclose(g);
    return rc;
}

static int read_tune(tt_ctx *ctx, const char *path, hid_t f, tt_table_part part, tt_table *t)
{
    int rc = read_attrs(ctx, path, f, "/tune", t);
    if (rc || part == TT_TABLE_TUNE_SPACE)
        return rc ? rc : read_space(ctx, path, f, t);
    rc = read_group(ctx, path, f, "/tune/history", history_names, NELEM(history_names), 1, t);
    if (!rc)
        rc = read_group(ctx, path, f, "/tune/history/params", tt_param_names, TT_NPARAMS, 1, t);
    if (!rc)
        rc = read_group(ctx, path, f, "/tune/history/metrics", tt_metric_names, TT_NMETRICS, 1,
                        t);
    return rc ? rc : add_roles(ctx, path, f, t);
}

/* What the file is, for messages, with where to look for its figure when
 * see: "it is a trace: see tt-plot trace". */
static const char *file_kind(hid_t f, int see)
{
    if (H5Lexists(f, "tune", H5P_DEFAULT) > 0)
        return see ? "it is a tune file: see tt-plot search" : "it is a tune file";
    if (H5Lexists(f, "jobs", H5P_DEFAULT) > 0)
        return see ? "it is a trace: see tt-plot trace" : "it is a trace";
    return H5Lexists(f, "sweep", H5P_DEFAULT) > 0 ? "it is a sweep file"
           : H5Lexists(f, "sim", H5P_DEFAULT) > 0 ? "it is a simulation result"
                                                  : "no /sweep, /sim or /tune group";
}

static int read_h5(tt_ctx *ctx, const char *path, hid_t f, tt_table_part part, tt_table *t)
{
    int sweep = H5Lexists(f, "sweep", H5P_DEFAULT) > 0;
    int sim = H5Lexists(f, "sim", H5P_DEFAULT) > 0;
    if (part == TT_TABLE_TUNE || part == TT_TABLE_TUNE_SPACE)
        return H5Lexists(f, "tune", H5P_DEFAULT) > 0
                   ? read_tune(ctx, path, f, part, t)
                   : tt_err(ctx, TT_EFORMAT, "'%s': not a tune file (%s; tt-tune -o writes one)",
                            path, file_kind(f, 0));
    const char *want = part == TT_TABLE_CONFIGS ? "a sweep or simulation result"
                       : part == TT_TABLE_JOBS  ? "a simulation result with /sim/jobs"
                                                : "a simulation result with /sim/timeline";
    if (!sweep && !sim)
        return tt_err(ctx, TT_EFORMAT, "'%s': not %s (%s)", path, want, file_kind(f, 1));
    int rc = read_attrs(ctx, path, f, sweep ? "/sweep" : "/sim", t);
    if (rc)
        return rc;
    if (part == TT_TABLE_CONFIGS) {
        const char *gp = sweep ? "/sweep/params" : "/sim/summary";
        const char *gm = sweep ? "/sweep/metrics" : "/sim/summary";
        if (sim)
            t->n = 1;
        /* a sweep's columns are all read (per-class ones too); a summary
         * holds both kinds in one group */
        rc = read_group(ctx, path, f, gp, tt_param_names, TT_NPARAMS, sweep, t);
        return rc ? rc : read_group(ctx, path, f, gm, tt_metric_names, TT_NMETRICS, sweep, t);
    }
    if (!sim)
        return tt_err(ctx, TT_EFORMAT, "'%s': not %s (it is a sweep file)", path, want);
    if (part == TT_TABLE_JOBS) {
        rc = read_group(ctx, path, f, "/sim/jobs", job_names, NELEM(job_names), 0, t);
        return rc ? rc : add_jct(ctx, t);
    }
    if (H5Lexists(f, "/sim/timeline", H5P_DEFAULT) <= 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': no /sim/timeline (written by tt-sim -o only "
                      "with --timeline)", path);
    return read_group(ctx, path, f, "/sim/timeline", timeline_names, NELEM(timeline_names), 0,
                      t);
}

/* Opens len bytes of HDF5 in memory (no copy kept beyond the call). */
static hid_t open_image(const void *data, size_t len)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t f = -1;
    if (fapl >= 0 && H5Pset_fapl_core(fapl, 1 << 20, 0) >= 0 &&
        H5Pset_file_image(fapl, (void *)(uintptr_t)data, len) >= 0)
        f = H5Fopen("tt-table-image", H5F_ACC_RDONLY, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return f;
}

static const unsigned char h5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

static int finish(tt_ctx *ctx, int rc, tt_table *t, tt_table **out)
{
    if (!rc && t->n == 0)
        rc = tt_err(ctx, TT_EEMPTY, "%s: no rows", t->source);
    if (rc) {
        tt_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int tt_table_read_mem(tt_ctx *ctx, const char *name, const void *data, size_t len,
                      tt_table_part part, tt_table **out)
{
    *out = NULL;
    tt_table *t = table_new(name);
    if (!t)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc;
    if (len >= 8 && memcmp(data, h5_sig, 8) == 0) {
        tt_h5u_quiet();
        hid_t f = open_image(data, len);
        rc = f < 0 ? tt_err(ctx, TT_EFORMAT, "'%s': cannot open as HDF5", name)
                   : read_h5(ctx, name, f, part, t);
        if (f >= 0)
            H5Fclose(f);
    } else if (part == TT_TABLE_TUNE || part == TT_TABLE_TUNE_SPACE) {
        rc = tt_err(ctx, TT_EFORMAT, "'%s': not a tune file (not HDF5; tt-tune -o writes one)",
                    name);
    } else {
        rc = read_tsv(ctx, name, (const char *)data, len, t);
    }
    return finish(ctx, rc, t, out);
}

int tt_table_load(tt_ctx *ctx, const char *path, tt_table_part part, tt_table **out)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tt_err(ctx, TT_EIO, "cannot read '%s': %s", path, strerror(errno));
    unsigned char sig[8];
    size_t got = fread(sig, 1, 8, fp);
    if (got == 8 && memcmp(sig, h5_sig, 8) == 0) {
        fclose(fp);
        tt_h5u_quiet();
        tt_table *t = table_new(path);
        if (!t)
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        int rc = f < 0 ? tt_err(ctx, TT_EFORMAT, "cannot open '%s' as HDF5", path)
                       : read_h5(ctx, path, f, part, t);
        if (f >= 0)
            H5Fclose(f);
        return finish(ctx, rc, t, out);
    }
    /* TSV: the whole file in memory (results are small) */
    size_t cap = 1 << 16, len = got;
    char *buf = (char *)malloc(cap);
    int rc = buf ? 0 : tt_err(ctx, TT_ENOMEM, "out of memory");
    if (buf)
        memcpy(buf, sig, got);
    while (!rc && got > 0 && !feof(fp)) {
        if (len == cap) {
            char *nb = (char *)realloc(buf, cap * 2);
            if (!nb) {
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
                break;
            }
            buf = nb;
            cap *= 2;
        }
        got = fread(buf + len, 1, cap - len, fp);
        len += got;
    }
    if (!rc && ferror(fp))
        rc = tt_err(ctx, TT_EIO, "cannot read '%s': %s", path, strerror(errno));
    fclose(fp);
    if (!rc)
        rc = tt_table_read_mem(ctx, path, buf, len, part, out);
    free(buf);
    return rc;
}

/* ---- trace views ---- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int trace_gpus(tt_ctx *ctx, const tt_trace *tr, tt_table *t)
{
    tt_stats_group *g = NULL;
    int64_t n = 0;
    int rc = tt_stats_by_gpus(ctx, tr, &g, &n);
    if (rc)
        return rc;
    t->n = n;
    column *cg = add_col(t, "gpus", "GPUs", 0), *cj = cg ? add_col(t, "jobs", "jobs", 0) : NULL;
    column *cs = cj ? add_col(t, "gpu_s", "GPU-s", 0) : NULL;
    if (!cs)
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t i = 0; !rc && i < n; i++) {
        /* the columns were moved by add_col: index them now */
        t->cols[0].v[i] = (double)g[i].key;
        t->cols[1].v[i] = (double)g[i].jobs;
        t->cols[2].v[i] = (double)g[i].gpu_s;
    }
    free(g);
    return rc;
}

static int trace_duration(tt_ctx *ctx, const tt_trace *tr, tt_table *t)
{
    tt_stats_summary s;
    int rc = tt_stats_summary_get(ctx, tr, &s);
    if (rc)
        return rc;
    int64_t *d = (int64_t *)malloc((size_t)tr->n * sizeof *d);
    t->n = tr->n;
    column *col = d ? add_col(t, "duration", "s", 0) : NULL;
    if (!col) {
        free(d);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    memcpy(d, tr->duration, (size_t)tr->n * sizeof *d);
    qsort(d, (size_t)tr->n, sizeof *d, cmp_i64);
    for (int64_t i = 0; i < tr->n; i++)
        col->v[i] = (double)d[i];
    free(d);
    return 0;
}

static int trace_load(tt_ctx *ctx, const tt_trace *tr, int64_t bin, tt_table *t)
{
    if (bin <= 0) {
        tt_stats_summary s;
        int rc = tt_stats_summary_get(ctx, tr, &s);
        if (rc)
            return rc;
        int64_t span = s.span_s, end = 0;
        for (int64_t i = 0; i < tr->n; i++) /* the load reaches the last end */
            if (tr->submit[i] - s.first_submit + tr->duration[i] > end)
                end = tr->submit[i] - s.first_submit + tr->duration[i];
        if (end > span)
            span = end;
        bin = (span / 300 + 3599) / 3600 * 3600;
        if (bin < 3600)
            bin = 3600;
    }
    tt_stats_load l;
    int rc = tt_stats_load_get(ctx, tr, bin, TT_STATS_MAX_BINS, &l);
    if (rc)
        return rc;
    t->n = l.nbins;
    if (!add_col(t, "t", "s", 0) || !add_col(t, "submitted", "jobs", 0) ||
        !add_col(t, "gpus", "GPUs", 0))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t b = 0; !rc && b < l.nbins; b++) {
        t->cols[0].v[b] = (double)(b * bin);
        t->cols[1].v[b] = (double)l.submitted[b];
        t->cols[2].v[b] = (double)l.gpu_s[b] / (double)bin;
    }
    tt_stats_load_free(&l);
    return rc;
}

int tt_table_from_trace(tt_ctx *ctx, const tt_trace *tr, tt_table_trace_view view, int64_t bin,
                        tt_table **out)
{
    *out = NULL;
    tt_table *t = table_new("trace");
    if (!t)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc = view == TT_TABLE_TRACE_GPUS       ? trace_gpus(ctx, tr, t)
             : view == TT_TABLE_TRACE_DURATION ? trace_duration(ctx, tr, t)
             : view == TT_TABLE_TRACE_LOAD     ? trace_load(ctx, tr, bin, t)
                                               : tt_err(ctx, TT_EINVAL, "unknown trace view %d",
                                                        (int)view);
    return finish(ctx, rc, t, out);
}
