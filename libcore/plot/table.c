/* Named columns (tt/table.h): the table itself, TSV as the tools print
 * it, the choice between TSV and HDF5 (table_h5.c, table_tune.c), and the
 * tt-stats views of a trace. */
#include "tt/table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/table_impl.h"
#include "sim/simdesc.h"
#include "tt/parse.h"
#include "tt/sim.h"
#include "tt/stats.h"

tt_table *tt_tab_new(const char *source)
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

column *tt_tab_add_col(tt_table *t, const char *name, const char *units, int text)
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

int tt_tab_add_attr(tt_table *t, const char *name, const char *value)
{
    char **na = (char **)realloc(t->attr, (size_t)(t->nattrs + 1) * 2 * sizeof *na);
    if (!na)
        return -1;
    t->attr = na;
    na[2 * t->nattrs] = strdup(name);
    na[2 * t->nattrs + 1] = strdup(value);
    t->nattrs++; /* counted now so that tt_table_free releases them */
    return na[2 * t->nattrs - 2] && na[2 * t->nattrs - 1] ? 0 : -1;
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
        column *col = tt_tab_add_col(t, hf[c], units_of(hf[c]), !numeric);
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

/* ---- reading a file: TSV or HDF5 ---- */

/* The table read into *out, or freed on error (or when it has no rows). */
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
    tt_table *t = tt_tab_new(name);
    if (!t)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc;
    if (tt_tab_is_h5(data, len))
        rc = tt_tab_h5_read_mem(ctx, name, data, len, part, t);
    else if (part == TT_TABLE_TUNE || part == TT_TABLE_TUNE_SPACE)
        rc = tt_err(ctx, TT_EFORMAT, "'%s': not a tune file (not HDF5; tt-tune -o writes one)",
                    name);
    else
        rc = read_tsv(ctx, name, (const char *)data, len, t);
    return finish(ctx, rc, t, out);
}

int tt_table_load(tt_ctx *ctx, const char *path, tt_table_part part, tt_table **out)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tt_err(ctx, TT_EIO, "cannot read '%s': %s", path, strerror(errno));
    unsigned char sig[520]; /* the signature, or a seal's user block and then it */
    size_t got = fread(sig, 1, sizeof sig, fp);
    if (tt_tab_is_h5(sig, got)) {
        fclose(fp);
        tt_table *t = tt_tab_new(path);
        if (!t)
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        return finish(ctx, tt_tab_h5_load(ctx, path, part, t), t, out);
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
    column *cg = tt_tab_add_col(t, "gpus", "GPUs", 0);
    column *cj = cg ? tt_tab_add_col(t, "jobs", "jobs", 0) : NULL;
    column *cs = cj ? tt_tab_add_col(t, "gpu_s", "GPU-s", 0) : NULL;
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
    column *col = d ? tt_tab_add_col(t, "duration", "s", 0) : NULL;
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
    if (!tt_tab_add_col(t, "t", "s", 0) || !tt_tab_add_col(t, "submitted", "jobs", 0) ||
        !tt_tab_add_col(t, "gpus", "GPUs", 0))
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
    /* GPU time and offered load need seconds: none is drawn in steps */
    if (tt_trace_need_seconds(ctx, tr, TT_EFORMAT, "drawn"))
        return TT_EFORMAT;
    tt_table *t = tt_tab_new("trace");
    if (!t)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc = view == TT_TABLE_TRACE_GPUS       ? trace_gpus(ctx, tr, t)
             : view == TT_TABLE_TRACE_DURATION ? trace_duration(ctx, tr, t)
             : view == TT_TABLE_TRACE_LOAD     ? trace_load(ctx, tr, bin, t)
                                               : tt_err(ctx, TT_EINVAL, "unknown trace view %d",
                                                        (int)view);
    /* what the trace is, for a title, as a sweep's attributes say it */
    char jobs[32];
    snprintf(jobs, sizeof jobs, "%lld", (long long)tr->n);
    if (!rc && (tt_tab_add_attr(t, "trace_format", tr->prov.format ? tr->prov.format : "") ||
                tt_tab_add_attr(t, "trace_source_files",
                                tr->prov.source_files ? tr->prov.source_files : "") ||
                tt_tab_add_attr(t, "jobs", jobs)))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    return finish(ctx, rc, t, out);
}
