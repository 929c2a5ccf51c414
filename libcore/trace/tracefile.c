/* Traces in HDF5: one dataset per column under /jobs, provenance as
 * attributes, written to a temporary file and renamed into place. */
#include "tt/tracefile.h"

#include <errno.h>
#include <hdf5.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/h5util.h"
#include "io/layout.h"
#include "trace/optcols.h"

/* ---- writing ---- */

static int write_table(hid_t tables, const char *name, const tt_strtab *tab)
{
    int32_t n = tt_strtab_count(tab);
    const char **s = (const char **)malloc((size_t)(n ? n : 1) * sizeof *s);
    if (!s)
        return -1;
    for (int32_t i = 0; i < n; i++)
        s[i] = tt_strtab_get(tab, i);
    int rc = tt_h5u_write_strs(tables, name, n, s);
    free(s);
    return rc;
}

typedef struct {
    const char *name;
    int is64;
    size_t off; /* offset of the column pointer in tt_trace */
    const char *units;
    int has_missing;
    size_t tab; /* offset of the string table pointer, or 0 */
} col_desc;

#define C64(f, u, m) {#f, 1, offsetof(tt_trace, f), u, m, 0}
#define C32(f, u, m) {#f, 0, offsetof(tt_trace, f), u, m, 0}
#define CSTR(f, t) {#f, 0, offsetof(tt_trace, f), "index into /jobs/tables/" #f, 1, offsetof(tt_trace, t)}
static const col_desc cols[] = {
    C64(submit, "s", 0),
    C64(duration, "s", 0),
    C64(start, "s", 1),
    C64(end, "s", 1),
    C32(gpus, "GPUs", 0),
    C32(gpu_milli, "thousandths of a GPU", 0),
    C32(nodes, "nodes", 1),
    CSTR(name, names),
    CSTR(user, users),
    CSTR(vc, vcs),
    CSTR(model, models),
    CSTR(status, statuses),
};
#define NCOLS (sizeof cols / sizeof cols[0])

static int write_prov(hid_t g, const tt_trace *t)
{
    const tt_provenance *p = &t->prov;
    int rc = tt_h5u_attr_str(g, LAYOUT_ATTR, LAYOUT_TRACE) ||
             tt_h5u_attr_str(g, "format", p->format) ||
             tt_h5u_attr_str(g, "source_files", p->source_files) ||
             tt_h5u_attr_str(g, "source_sha256", p->source_sha256) ||
             tt_h5u_attr_str(g, "time_base", p->time_base) ||
             tt_h5u_attr_str(g, "timezone", p->timezone) ||
             tt_h5u_attr_str(g, "duration_unit", p->duration_unit) ||
             tt_h5u_attr_str(g, "tool_version", p->tool_version) ||
             tt_h5u_attr_str(g, "notes", p->notes) || tt_h5u_attr_i64(g, "jobs", t->n) ||
             tt_h5u_attr_i64(g, "rows_read", p->rows_read) ||
             tt_h5u_attr_i64(g, "rows_kept", p->rows_kept) ||
             tt_h5u_attr_i64(g, "duplicates", p->duplicates) ||
             tt_h5u_attr_i64(g, "ambiguous_times", p->ambiguous_times) ||
             tt_h5u_attr_i64(g, "shifted_times", p->shifted_times) ||
             (p->duration_mismatches &&
              tt_h5u_attr_i64(g, "duration_mismatches", p->duration_mismatches));
    int64_t total = 0;
    for (int r = 0; r < TT_DROP_COUNT && !rc; r++) {
        char name[64];
        snprintf(name, sizeof name, "dropped_%s", tt_drop_name(r));
        if (tt_drop_shown(p, r))
            rc = tt_h5u_attr_i64(g, name, p->dropped[r]);
        total += p->dropped[r];
    }
    return rc || tt_h5u_attr_i64(g, "rows_dropped", total);
}

static hid_t int_type(int size, int native)
{
    if (size == 1)
        return native ? H5T_NATIVE_INT8 : H5T_STD_I8LE;
    if (size == 4)
        return native ? H5T_NATIVE_INT32 : H5T_STD_I32LE;
    return native ? H5T_NATIVE_INT64 : H5T_STD_I64LE;
}

/* The optional columns t has, each a dataset like the others; deps as
 * dep_off (row i's first parent in /jobs/deps, n values: the last row's
 * parents end at the length of deps) and deps (row indices). 0 or -1. */
static int write_optional(hid_t g, const tt_trace *t)
{
    int rc = 0;
    for (int i = 0; i < TT_NOPTCOLS && !rc; i++) {
        const tt_optcol *c = &tt_optcols[i];
        const void *a = *tt_optcol_arr(t, c);
        if (a)
            rc = tt_h5u_write_col(g, c->name, int_type(c->size, 0), int_type(c->size, 1), t->n,
                                  a, c->units, c->absent, c->absent != 0);
    }
    if (!rc && t->dep_off)
        rc = tt_h5u_write_col(g, "dep_off", H5T_STD_I64LE, H5T_NATIVE_INT64, t->n, t->dep_off,
                              "index into /jobs/deps of the row's first parent", 0, 0) ||
             tt_h5u_write_col(g, "deps", H5T_STD_I32LE, H5T_NATIVE_INT32, t->dep_off[t->n],
                              t->deps, "row index of a parent", 0, 0);
    return rc;
}

/* The trace arg into the file f (tt_h5u_save). 0 or -1. */
static int write_trace(hid_t f, void *arg)
{
    const tt_trace *t = (const tt_trace *)arg;
    hid_t g = H5Gcreate2(f, GRP_JOBS, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t tables = g < 0 ? -1 : H5Gcreate2(g, GRP_TABLES, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (g < 0 || tables < 0) ? -1 : write_prov(g, t);
    for (size_t i = 0; i < NCOLS && !rc; i++) {
        const col_desc *c = &cols[i];
        const void *data = *(void *const *)((const char *)t + c->off);
        rc = tt_h5u_write_col(g, c->name, c->is64 ? H5T_STD_I64LE : H5T_STD_I32LE,
                       c->is64 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32, t->n, data, c->units,
                       c->is64 ? INT64_MIN : -1, c->has_missing);
        if (!rc && c->tab)
            rc = write_table(tables, c->name, *(tt_strtab *const *)((const char *)t + c->tab));
    }
    if (!rc)
        rc = write_optional(g, t);
    if (tables >= 0)
        H5Gclose(tables);
    if (g >= 0)
        H5Gclose(g);
    return rc;
}

int tt_trace_save(tt_ctx *ctx, const tt_trace *t, const char *path)
{
    return tt_h5u_save(ctx, path, write_trace, (void *)t);
}

/* ---- reading ---- */

/* A text attribute into a provenance field. 0, or -1 when absent. */
static int read_attr_str(hid_t obj, const char *name, char **out)
{
    char *v = tt_h5u_attr_read_str(obj, name);
    int rc = v ? tt_prov_set(out, v) : -1;
    free(v);
    return rc ? -1 : 0;
}

/* A TT_EFORMAT error for a file marked as a trace whose content is not
 * one: "'t.h5': damaged trace: no dataset /jobs/gpus". Such a file was cut
 * short or changed after writing; "not a trace" would send the user to
 * look for another file. */
static int damaged(tt_ctx *ctx, const char *path, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tt_err(ctx, TT_EFORMAT, "'%s': damaged trace: %s", path, msg);
}

/* Where read_table's strings go, and what went wrong. */
typedef struct {
    tt_strtab *tab;
    int32_t code; /* that of the last string, -1 when out of memory */
} table_fill;

static int table_add(void *arg, int64_t i, const char *s)
{
    table_fill *f = (table_fill *)arg;
    f->code = tt_strtab_intern(f->tab, s);
    return f->code < 0 || f->code != i;
}

static int read_table(tt_ctx *ctx, const char *path, hid_t tables, const char *name,
                      tt_strtab *tab)
{
    hid_t d = H5Dopen2(tables, name, H5P_DEFAULT);
    if (d < 0)
        return damaged(ctx, path, "no dataset /jobs/tables/%s", name);
    table_fill f = {tab, 0};
    int rc = tt_h5u_read_strs(d, table_add, &f);
    H5Dclose(d);
    if (!rc)
        return 0;
    if (f.code < 0)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    if (rc > 0) /* interned, but to an earlier string's code */
        return damaged(ctx, path, "/jobs/tables/%s repeats the string '%s'", name,
                       tt_strtab_get(tab, f.code));
    return damaged(ctx, path, "cannot read /jobs/tables/%s as strings", name);
}

/* Reads the 1-D integer dataset name of g, of n values (one per job but
 * for deps, whose n is its own), into a new array of cap values of size
 * bytes each at *out. */
static int read_ints(tt_ctx *ctx, const char *path, hid_t g, const char *name, int size,
                     int64_t n, int64_t cap, void **out)
{
    if (!(*out = malloc((size_t)(cap > 0 ? cap : 1) * (size_t)size)))
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld values of /jobs/%s",
                      (long long)cap, name);
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0)
        return damaged(ctx, path, "no dataset /jobs/%s", name);
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    int rc = 0;
    if (H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_npoints(space) != n)
        rc = damaged(ctx, path, "/jobs/%s has %lld values for %lld jobs", name,
                     (long long)H5Sget_simple_extent_npoints(space), (long long)n);
    else if (H5Tget_class(type) != H5T_INTEGER)
        rc = damaged(ctx, path, "/jobs/%s is not an integer dataset", name);
    else if (n > 0 && H5Dread(d, int_type(size, 1), H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) < 0)
        rc = damaged(ctx, path, "cannot read /jobs/%s", name);
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(d);
    return rc;
}

/* Reads column c into a new array of t->cap values. */
static int read_col(tt_ctx *ctx, const char *path, hid_t g, const col_desc *c, tt_trace *t)
{
    return read_ints(ctx, path, g, c->name, c->is64 ? 8 : 4, t->n, t->cap,
                     (void **)((char *)t + c->off));
}

/* The optional columns in want that the file has, checked. */
static int read_optional(tt_ctx *ctx, const char *path, hid_t g, unsigned want, tt_trace *t)
{
    int rc = 0;
    for (int i = 0; i < TT_NOPTCOLS && !rc; i++) {
        const tt_optcol *c = &tt_optcols[i];
        if (!(want & c->bit) || H5Lexists(g, c->name, H5P_DEFAULT) <= 0)
            continue;
        void **a = tt_optcol_arr(t, c);
        rc = read_ints(ctx, path, g, c->name, c->size, t->n, t->cap, a);
        for (int64_t j = 0; !rc && j < t->n; j++) {
            int64_t v = tt_optcol_get(c, *a, j);
            if (v < c->absent || (c->bit == TT_COL_ELASTIC && v > 1))
                rc = damaged(ctx, path, "/jobs/%s[%lld] = %lld is out of range", c->name,
                             (long long)j, (long long)v);
        }
    }
    int has_off = H5Lexists(g, "dep_off", H5P_DEFAULT) > 0,
        has_deps = H5Lexists(g, "deps", H5P_DEFAULT) > 0;
    if (rc || !(want & TT_COL_DEPS) || (!has_off && !has_deps))
        return rc;
    if (has_off != has_deps)
        return damaged(ctx, path, "/jobs/%s without /jobs/%s", has_off ? "dep_off" : "deps",
                       has_off ? "deps" : "dep_off");
    hid_t d = H5Dopen2(g, "deps", H5P_DEFAULT);
    hid_t space = d < 0 ? -1 : H5Dget_space(d);
    int64_t m = space < 0 ? -1 : (int64_t)H5Sget_simple_extent_npoints(space);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    if (m < 0)
        return damaged(ctx, path, "cannot read /jobs/deps");
    if ((rc = read_ints(ctx, path, g, "dep_off", 8, t->n, t->cap + 1, (void **)&t->dep_off)) ||
        (rc = read_ints(ctx, path, g, "deps", 4, m, m, (void **)&t->deps)))
        return rc;
    t->dep_cap = m > 0 ? m : 1;
    t->dep_off[t->n] = m;
    for (int64_t j = 0; j < t->n; j++)
        if ((j == 0 && t->dep_off[0] != 0) || t->dep_off[j] > t->dep_off[j + 1])
            return damaged(ctx, path, "/jobs/dep_off[%lld] = %lld does not follow /jobs/dep_off "
                           "before it (%lld parents in all)", (long long)j,
                           (long long)t->dep_off[j], (long long)m);
    for (int64_t k = 0; k < m; k++)
        if (t->deps[k] < 0 || t->deps[k] >= t->n)
            return damaged(ctx, path, "/jobs/deps[%lld] = %d is not a row (0 .. %lld)",
                           (long long)k, t->deps[k], (long long)t->n - 1);
    return 0;
}

static int load(tt_ctx *ctx, const char *path, hid_t f, unsigned want, tt_trace *t)
{
    hid_t g = H5Gopen2(f, GRP_JOBS, H5P_DEFAULT);
    if (g < 0) {
        const char *kind = tt_h5u_file_kind(f);
        return tt_err(ctx, TT_EFORMAT, "'%s': not a tracetune trace (%s)", path,
                      kind ? kind : "no /jobs group");
    }
    char *layout = NULL;
    int rc = 0;
    if (read_attr_str(g, LAYOUT_ATTR, &layout))
        rc = tt_err(ctx, TT_EFORMAT, "'%s': not a tracetune trace (/jobs has no tracetune_layout)",
                    path);
    else if (strcmp(layout, LAYOUT_TRACE) != 0)
        rc = tt_err(ctx, TT_EFORMAT, "'%s': trace layout '%s', this version reads '%s'", path,
                    layout, LAYOUT_TRACE);
    free(layout);
    int64_t n = 0;
    if (!rc && (tt_h5u_attr_read_i64(g, "jobs", &n) || n < 0))
        rc = damaged(ctx, path, "/jobs has no valid 'jobs' attribute");
    if (!rc) {
        t->n = n;
        t->cap = n > 0 ? n : 1;
    }
    tt_provenance *p = &t->prov;
    /* Provenance is informative: an absent attribute leaves the default. */
    if (!rc) {
        read_attr_str(g, "format", &p->format);
        read_attr_str(g, "source_files", &p->source_files);
        read_attr_str(g, "source_sha256", &p->source_sha256);
        read_attr_str(g, "time_base", &p->time_base);
        read_attr_str(g, "timezone", &p->timezone);
        read_attr_str(g, "duration_unit", &p->duration_unit);
        read_attr_str(g, "tool_version", &p->tool_version);
        read_attr_str(g, "notes", &p->notes);
        tt_h5u_attr_read_i64(g, "rows_read", &p->rows_read);
        tt_h5u_attr_read_i64(g, "rows_kept", &p->rows_kept);
        tt_h5u_attr_read_i64(g, "duplicates", &p->duplicates);
        tt_h5u_attr_read_i64(g, "ambiguous_times", &p->ambiguous_times);
        tt_h5u_attr_read_i64(g, "shifted_times", &p->shifted_times);
        tt_h5u_attr_read_i64(g, "duration_mismatches", &p->duration_mismatches);
        for (int r = 0; r < TT_DROP_COUNT; r++) {
            char name[64];
            snprintf(name, sizeof name, "dropped_%s", tt_drop_name(r));
            tt_h5u_attr_read_i64(g, name, &p->dropped[r]);
        }
    }
    hid_t tables = rc ? -1 : H5Gopen2(g, GRP_TABLES, H5P_DEFAULT);
    if (!rc && tables < 0)
        rc = damaged(ctx, path, "no group /jobs/tables");
    /* the contract's columns always: every load checks it */
    want |= TT_COL_SUBMIT | TT_COL_DURATION | TT_COL_GPUS;
    for (size_t i = 0; i < NCOLS && !rc; i++) {
        if (!(want & 1u << i))
            continue;
        rc = read_col(ctx, path, g, &cols[i], t);
        if (!rc && cols[i].tab) {
            tt_strtab *tab = *(tt_strtab **)((char *)t + cols[i].tab);
            rc = read_table(ctx, path, tables, cols[i].name, tab);
            const int32_t *codes = *(int32_t **)((char *)t + cols[i].off);
            for (int64_t j = 0; !rc && j < t->n; j++)
                if (codes[j] < -1 || codes[j] >= tt_strtab_count(tab))
                    rc = damaged(ctx, path, "/jobs/%s[%lld] = %d is not an index into its "
                                 "table", cols[i].name, (long long)j, codes[j]);
        }
    }
    if (!rc)
        rc = read_optional(ctx, path, g, want, t);
    for (int64_t j = 0; !rc && j < t->n; j++)
        if (t->gpus[j] < 1 || t->duration[j] < 0 || (j > 0 && t->submit[j] < t->submit[j - 1]))
            rc = tt_err(ctx, TT_EFORMAT,
                        "'%s': job %lld breaks the trace contract (gpus >= 1, duration >= 0, "
                        "sorted by submit)",
                        path, (long long)j);
    if (tables >= 0)
        H5Gclose(tables);
    H5Gclose(g);
    return rc;
}

unsigned tt_trace_col(const char *name)
{
    for (size_t i = 0; i < NCOLS; i++)
        if (strcmp(cols[i].name, name) == 0)
            return 1u << i;
    for (int i = 0; i < TT_NOPTCOLS; i++)
        if (strcmp(tt_optcols[i].name, name) == 0)
            return tt_optcols[i].bit;
    if (strcmp(name, "deps") == 0)
        return TT_COL_DEPS;
    return 0;
}

#define DAMAGED "'%s': damaged HDF5 file (cut short or overwritten: its header is HDF5's, " \
                "but HDF5 cannot open it)"

/* The columns cols_wanted of the trace of the open file f (closed here),
 * named name in messages. */
static int load_file(tt_ctx *ctx, const char *name, hid_t f, unsigned cols_wanted,
                     tt_trace **out)
{
    tt_trace *t = tt_trace_create();
    int rc = t ? load(ctx, name, f, cols_wanted, t) : tt_err(ctx, TT_ENOMEM, "out of memory");
    H5Fclose(f);
    if (rc) {
        tt_trace_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* The reads of tt_trace_load_cols and tt_trace_load_mem, rehearsed in a
 * child (tt_h5u_check_file): the same calls, whatever they find. */
typedef struct {
    const char *name;
    const void *data;
    size_t len;
    unsigned cols;
} rehearsal;

static void rehearse_load(void *arg)
{
    const rehearsal *r = (const rehearsal *)arg;
    tt_ctx *c = tt_ctx_create();
    tt_trace *t = NULL;
    hid_t f = r->data ? tt_h5u_open_image(r->data, r->len)
                      : H5Fopen(r->name, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0)
        load_file(c, r->name, f, r->cols, &t);
}

int tt_trace_load(tt_ctx *ctx, const char *path, tt_trace **out)
{
    return tt_trace_load_cols(ctx, path, TT_COL_ALL, out);
}

int tt_trace_load_cols(tt_ctx *ctx, const char *path, unsigned cols_wanted, tt_trace **out)
{
    *out = NULL;
    tt_h5u_quiet();
    if (access(path, R_OK) != 0)
        return tt_err(ctx, TT_EIO, "cannot read '%s': %s", path, strerror(errno));
    if (H5Fis_hdf5(path) <= 0)
        return tt_err(ctx, TT_EFORMAT, "cannot read '%s': not an HDF5 file", path);
    char what[4200];
    snprintf(what, sizeof what, "'%s'", path);
    rehearsal r = {path, NULL, 0, cols_wanted};
    if (tt_h5u_check_file(ctx, what, path, rehearse_load, &r))
        return TT_EFORMAT;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return tt_err(ctx, TT_EFORMAT, DAMAGED, path);
    return load_file(ctx, path, f, cols_wanted, out);
}

int tt_trace_load_mem(tt_ctx *ctx, const void *data, size_t len, const char *name,
                      tt_trace **out)
{
    *out = NULL;
    tt_h5u_quiet();
    if (!tt_h5u_is_image(data, len))
        return tt_err(ctx, TT_EFORMAT, "cannot read '%s': not an HDF5 file", name);
    char what[4200];
    snprintf(what, sizeof what, "'%s'", name);
    rehearsal r = {name, data, len, TT_COL_ALL};
    if (tt_h5u_check_image(ctx, what, data, len, rehearse_load, &r))
        return TT_EFORMAT;
    hid_t f = tt_h5u_open_image(data, len);
    if (f < 0)
        return tt_err(ctx, TT_EFORMAT, DAMAGED, name);
    return load_file(ctx, name, f, TT_COL_ALL, out);
}
