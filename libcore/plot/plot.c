/* gnuplot scripts for tt-plot (tt/plot.h): data as datablocks, text as
 * quoted strings, axes and units chosen from the data. The pieces the
 * search kind (plot_search.c) shares are declared in internal/plotgrid.h. */
#include "tt/plot.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plot/plotgrid.h"
#include "tt/sim.h"

/* ---- text ---- */

static void sb_grow(pg_buf *b, size_t more)
{
    if (b->oom || b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = (char *)realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return;
    }
    b->s = s;
    b->cap = cap;
}

void tt_pg_add(pg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    sb_grow(b, (size_t)n);
    if (b->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

int tt_plot_quote(const char *s, char *buf, size_t size)
{
    size_t k = 0;
    if (size < 3)
        return TT_EINVAL;
    buf[k++] = '\'';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (k + 4 > size)
            return TT_EINVAL;
        if (*p == '\'')
            buf[k++] = '\'';
        buf[k++] = *p < 0x20 || *p == 0x7f ? ' ' : (char)*p;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return (int)k;
}

void tt_pg_quoted(pg_buf *b, const char *s)
{
    size_t need = 2 * strlen(s) + 3;
    sb_grow(b, need);
    if (b->oom)
        return;
    b->len += (size_t)tt_plot_quote(s, b->s + b->len, need + 1);
}

/* A text field of a datablock: no tab, newline, control character or
 * double quote (gnuplot would split or unquote there). */
static void sb_field(pg_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        tt_pg_add(b, "%c", *p < 0x20 || *p == 0x7f ? ' ' : *p == '"' ? '\'' : (char)*p);
}

void tt_pg_num(double v, char *buf, size_t size)
{
    if (isinf(v))
        snprintf(buf, size, "%sinf", v < 0 ? "-" : "");
    else if (isnan(v))
        snprintf(buf, size, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.4g", v);
}

const char *tt_pg_cell_text(const tt_table *t, int col, int64_t row, char *buf, size_t size)
{
    const char *s = tt_table_text(t, col, row);
    if (s)
        return s;
    tt_pg_num(tt_table_values(t, col)[row], buf, size);
    return buf;
}

/* ---- units ---- */

const char *tt_plot_unit(const char *units, double max, double *div, char *buf, size_t size)
{
    static const struct {
        double s;
        const char *name;
    } steps[] = {{86400, "d"}, {3600, "h"}, {60, "min"}, {1, "s"}};
    int gpu = strcmp(units, "GPU-s") == 0;
    *div = 1;
    if (strcmp(units, "s") != 0 && !gpu) {
        snprintf(buf, size, "%s", units);
        return buf;
    }
    size_t k = 0;
    while (k + 1 < sizeof steps / sizeof steps[0] && !(max >= 2 * steps[k].s))
        k++;
    *div = steps[k].s;
    snprintf(buf, size, "%s%s", gpu ? "GPU-" : "", steps[k].name);
    return buf;
}

void tt_pg_axis_label(const char *name, const char *unit, char *buf, size_t size)
{
    if (*unit)
        snprintf(buf, size, "%s [%s]", name, unit);
    else
        snprintf(buf, size, "%s", name);
}

/* ---- decisions ---- */

int64_t tt_plot_best(const double *z, int64_t n)
{
    int64_t best = -1;
    for (int64_t i = 0; i < n; i++)
        if (!isnan(z[i]) && (best < 0 || z[i] < z[best]))
            best = i;
    return best;
}

typedef struct {
    const double *x, *y;
} xy_ctx;

static int cmp_xy(const void *a, const void *b, const xy_ctx *c)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    if (c->x[i] != c->x[j])
        return c->x[i] < c->x[j] ? -1 : 1;
    if (c->y[i] != c->y[j])
        return c->y[i] < c->y[j] ? -1 : 1;
    return (i > j) - (i < j);
}

/* A stable merge sort of idx by cmp_xy (qsort takes no context). */
static void sort_xy(int64_t *idx, int64_t *tmp, int64_t n, const xy_ctx *c)
{
    if (n < 2)
        return;
    int64_t h = n / 2;
    sort_xy(idx, tmp, h, c);
    sort_xy(idx + h, tmp, n - h, c);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_xy(&idx[j], &idx[i], c) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

int64_t tt_plot_pareto_front(const double *x, const double *y, int64_t n, int64_t *front)
{
    int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    int64_t *tmp = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    if (!idx || !tmp) {
        free(idx);
        free(tmp);
        return TT_ENOMEM;
    }
    int64_t m = 0, k = 0;
    for (int64_t i = 0; i < n; i++)
        if (!isnan(x[i]) && !isnan(y[i]))
            idx[m++] = i;
    xy_ctx c = {x, y};
    sort_xy(idx, tmp, m, &c);
    /* by x then y: a row is dominated exactly when an earlier row has a
     * smaller y, or the same y at a smaller x */
    double ymin = INFINITY, xmin_at = 0;
    for (int64_t r = 0; r < m; r++) {
        int64_t i = idx[r];
        int dominated = k > 0 && (y[i] > ymin || (y[i] == ymin && x[i] > xmin_at));
        if (!dominated) {
            front[k++] = i;
            if (y[i] < ymin || k == 1) {
                ymin = y[i];
                xmin_at = x[i];
            }
        }
    }
    free(idx);
    free(tmp);
    return k;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The distinct finite values of v, ascending, into out; their count. */
static int64_t distinct_finite(const double *v, int64_t n, double *out)
{
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            out[m++] = v[i];
    qsort(out, (size_t)m, sizeof *out, cmp_double);
    int64_t k = 0;
    for (int64_t i = 0; i < m; i++)
        if (k == 0 || out[i] != out[k - 1])
            out[k++] = out[i];
    return k;
}

/* The spread of consecutive steps: (largest - smallest) / mean. */
static double unevenness(const double *v, int64_t m, int ratio)
{
    double lo = INFINITY, hi = 0, sum = 0;
    for (int64_t i = 1; i < m; i++) {
        double d = ratio ? log(v[i] / v[i - 1]) : v[i] - v[i - 1];
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
        sum += d;
    }
    return (hi - lo) / (sum / (double)(m - 1));
}

static int is_log_sorted(const double *d, int64_t m)
{
    /* a log axis helps only over a decade or more */
    return m >= 3 && d[0] > 0 && d[m - 1] >= 10 * d[0] &&
           unevenness(d, m, 1) < unevenness(d, m, 0);
}

int tt_plot_is_log(const double *v, int64_t n)
{
    double *d = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
    if (!d)
        return 0;
    int64_t m = distinct_finite(v, n, d);
    int r = is_log_sorted(d, m);
    free(d);
    return r;
}

int tt_plot_term_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return -1;
    return strcasecmp(dot, ".png") == 0   ? TT_PLOT_PNG
           : strcasecmp(dot, ".svg") == 0 ? TT_PLOT_SVG
           : strcasecmp(dot, ".pdf") == 0 ? TT_PLOT_PDF
                                          : -1;
}

/* ---- the parts every figure shares ---- */

void tt_pg_preamble(pg_buf *b, const tt_plot_opts *o, int w, int h)
{
    if (o->width > 0)
        w = o->width;
    if (o->height > 0)
        h = o->height;
    tt_pg_add(b, "# tracetune tt-plot: gnuplot 5.4 script; the data are the $datablocks below.\n"
              "# Restyle freely: gnuplot THIS_FILE redraws the figure.\n");
    if (o->term == TT_PLOT_PNG)
        tt_pg_add(b, "set terminal pngcairo size %d,%d noenhanced font 'Sans,13' linewidth 1.5\n",
               w, h);
    else if (o->term == TT_PLOT_SVG)
        tt_pg_add(b, "set terminal svg size %d,%d noenhanced font 'Sans,13' linewidth 1.5 "
                  "background '#ffffff'\n",
               w, h);
    else
        tt_pg_add(b, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font 'Sans,10' "
                  "linewidth 1.5\n",
               w / 100.0, h / 100.0);
    tt_pg_add(b, "set output ");
    tt_pg_quoted(b, o->output);
    tt_pg_add(b, "\nset encoding utf8\nset datafile separator \"\\t\"\n"
              "set grid front lc rgb '#c0c0c0' lw 0.5\n"
              "set border lw 1\n"
              /* viridis, by hand: perceptually even, readable in grey */
              "set palette defined (0 '#440154', 1 '#482878', 2 '#3e4989', 3 '#31688e', "
              "4 '#26828e', 5 '#1f9e89', 6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')\n");
}

void tt_pg_title(pg_buf *b, const char *cmd, const char *text)
{
    tt_pg_add(b, "%s ", cmd);
    tt_pg_quoted(b, text);
    tt_pg_add(b, "\n");
}

int tt_pg_finish(tt_ctx *ctx, pg_buf *b, char **script)
{
    if (b->oom) {
        free(b->s);
        return tt_err(ctx, TT_ENOMEM, "out of memory for the gnuplot script");
    }
    *script = b->s;
    return 0;
}

int tt_pg_need_col(tt_ctx *ctx, const tt_table *t, const char *name, const char *what, int *col)
{
    *col = tt_table_find(t, name);
    if (*col >= 0 && tt_table_values(t, *col))
        return 0;
    if (*col >= 0)
        return tt_err(ctx, TT_EINVAL, "%s '%s' of '%s' is text, not numbers", what, name,
                      tt_table_source(t));
    char cols[512];
    size_t k = 0;
    cols[0] = '\0';
    for (int c = 0; c < tt_table_cols(t) && k + 1 < sizeof cols; c++) {
        int n = snprintf(cols + k, sizeof cols - k, "%s%s", c ? " " : "", tt_table_name(t, c));
        k = n < 0 ? sizeof cols : k + (size_t)n;
    }
    return tt_err(ctx, TT_EINVAL, "%s '%s' is not in '%s' (it has: %s)", what, name,
                  tt_table_source(t), cols);
}

int tt_pg_is_param(const char *name)
{
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strcmp(name, tt_param_names[i]) == 0)
            return 1;
    return 0;
}

int tt_pg_varies(const tt_table *t, int c)
{
    const double *v = tt_table_values(t, c);
    for (int64_t r = 1; r < tt_table_rows(t); r++) {
        if (v ? !(v[r] == v[0] || (isnan(v[r]) && isnan(v[0])))
              : strcmp(tt_table_text(t, c, r), tt_table_text(t, c, 0)) != 0)
            return 1;
    }
    return 0;
}

/* "w0=600, theta=1500": the parameters of row r that vary over t (all of
 * them but skip_x, skip_y when nothing varies), with units where given. */
static void row_params(const tt_table *t, int64_t r, const char *skip1, const char *skip2,
                       char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int c = 0; c < tt_table_cols(t) && k + 1 < size; c++) {
        const char *name = tt_table_name(t, c);
        if (!tt_pg_is_param(name) || !tt_pg_varies(t, c) || (skip1 && strcmp(name, skip1) == 0) ||
            (skip2 && strcmp(name, skip2) == 0))
            continue;
        char num[64];
        int n = snprintf(buf + k, size - k, "%s%s=%s", k ? ", " : "", name,
                         tt_pg_cell_text(t, c, r, num, sizeof num));
        k = n < 0 ? size : k + (size_t)n;
    }
    if (k >= size && size > 4)
        strcpy(buf + size - 4, "...");
}

/* The parameters every row shares that differ from the defaults, for the
 * title: "load=2000, w1=inf". */
static void fixed_params(const tt_table *t, const char *skip1, const char *skip2, char *buf,
                         size_t size)
{
    tt_params d;
    tt_params_default(&d);
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < TT_NPARAMS && k + 1 < size; i++) {
        const char *name = tt_param_names[i];
        int c = tt_table_find(t, name);
        if (c < 0 || tt_pg_varies(t, c) || strcmp(name, "seed") == 0 || strcmp(name, "mix") == 0 ||
            (skip1 && strcmp(name, skip1) == 0) || (skip2 && strcmp(name, skip2) == 0))
            continue;
        char dv[64], num[64];
        tt_params_format(&d, NULL, i, dv, sizeof dv);
        const char *v = tt_pg_cell_text(t, c, 0, num, sizeof num);
        if (strcmp(v, dv) == 0)
            continue;
        int n = snprintf(buf + k, size - k, "%s%s=%s", k ? ", " : "", name, v);
        k = n < 0 ? size : k + (size_t)n;
    }
    if (k >= size && size > 4)
        strcpy(buf + size - 4, "...");
}

double tt_pg_max_abs(const double *v, int64_t n)
{
    double m = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(v[i]) && fabs(v[i]) > m)
            m = fabs(v[i]);
    return m;
}

/* ---- axes of a grid ---- */

void tt_pg_axis_free(pg_axis *a)
{
    free(a->vals);
    free(a->lo);
    free(a->hi);
}

static double to_plot(const pg_axis *a, double v) { return a->log ? log10(v) : v; }

int tt_pg_axis_init(tt_ctx *ctx, pg_axis *a, const char *name, const char *units, const double *v,
                 int64_t n, int scale)
{
    a->name = name;
    snprintf(a->units, sizeof a->units, "%s", units);
    a->vals = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *a->vals);
    a->lo = (double *)malloc((size_t)(n + 2) * sizeof *a->lo);
    a->hi = (double *)malloc((size_t)(n + 2) * sizeof *a->hi);
    if (!a->vals || !a->lo || !a->hi)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t r = 0; r < n; r++)
        a->has_inf |= v[r] == INFINITY;
    a->m = distinct_finite(v, n, a->vals);
    if (a->m == 0)
        return tt_err(ctx, TT_EINVAL, "'%s' has no finite value to draw", name);
    /* a log axis with 0 in the grid (no-wait) shows 0 as an edge column */
    int from, m1 = (int)(a->m >= 2 && a->vals[0] == 0);
    if (scale == PG_AUTO) {
        from = m1 && a->m >= 4 && is_log_sorted(a->vals + 1, a->m - 1);
        a->log = from || is_log_sorted(a->vals, a->m);
    } else {
        from = scale == PG_LOG && m1 && a->vals[1] > 0;
        a->log = scale == PG_LOG && a->vals[from] > 0;
    }
    if (from) {
        memmove(a->vals, a->vals + 1, (size_t)(a->m - 1) * sizeof *a->vals);
        a->m--;
        a->zero_edge = 1;
    }
    double *u = a->vals; /* bounds of the finite cells, then the edges */
    int64_t m = a->m, z = a->zero_edge;
    double step;
    if (m >= 2)
        step = (to_plot(a, u[m - 1]) - to_plot(a, u[0])) / (double)(m - 1);
    else
        step = a->log ? 0.5 : (u[0] != 0 ? fabs(u[0]) * 0.5 : 1);
    for (int64_t k = 0; k < m; k++) {
        double c = to_plot(a, u[k]);
        a->lo[z + k] = k > 0 ? (to_plot(a, u[k - 1]) + c) / 2
                             : c - (m >= 2 ? (to_plot(a, u[1]) - c) / 2 : step / 2);
        a->hi[z + k] = k + 1 < m ? (to_plot(a, u[k + 1]) + c) / 2
                                 : c + (m >= 2 ? (c - to_plot(a, u[k - 1])) / 2 : step / 2);
    }
    double gap = step * 0.3;
    if (z) {
        a->hi[0] = a->lo[1] - gap;
        a->lo[0] = a->hi[0] - step;
    }
    a->ncell = z + m + a->has_inf;
    if (a->has_inf) {
        a->lo[a->ncell - 1] = a->hi[z + m - 1] + gap;
        a->hi[a->ncell - 1] = a->lo[a->ncell - 1] + step;
    }
    return 0;
}

int tt_pg_swept(tt_ctx *ctx, const tt_table *t, int col)
{
    const double *v = tt_table_values(t, col);
    const char *name = tt_table_name(t, col);
    for (int64_t r = 0; r < tt_table_rows(t); r++)
        if (isnan(v[r]))
            return tt_err(ctx, TT_EINVAL, "'%s': row %lld has no value of '%s'",
                          tt_table_source(t), (long long)r + 1, name);
    if (!tt_pg_varies(t, col)) {
        char one[64];
        tt_pg_num(v[0], one, sizeof one);
        return tt_err(ctx, TT_EINVAL, "parameter '%s' was not swept in '%s' (one value: %s)",
                      name, tt_table_source(t), one);
    }
    return 0;
}

/* The axis of a swept parameter: column col of t. */
static int axis_build(tt_ctx *ctx, const tt_table *t, int col, pg_axis *a)
{
    int rc = tt_pg_swept(ctx, t, col);
    return rc ? rc
              : tt_pg_axis_init(ctx, a, tt_table_name(t, col), tt_table_units(t, col),
                             tt_table_values(t, col), tt_table_rows(t), PG_AUTO);
}

int64_t tt_pg_axis_cell(const pg_axis *a, double v)
{
    if (v == INFINITY)
        return a->ncell - 1;
    if (a->zero_edge && v == 0)
        return 0;
    int64_t lo = 0, hi = a->m - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (a->vals[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return a->zero_edge + lo;
}

double tt_pg_cell_mid(const pg_axis *a, int64_t k) { return (a->lo[k] + a->hi[k]) / 2; }

double tt_pg_axis_pos(const pg_axis *a, double v)
{
    if (v == INFINITY || (a->zero_edge && v == 0))
        return tt_pg_cell_mid(a, tt_pg_axis_cell(a, v));
    return to_plot(a, v);
}

/* Tic marks: every grid value when there are few, else round values
 * (time steps for seconds on a log axis); the edges labelled. */
void tt_pg_axis_tics(pg_buf *b, const pg_axis *a, const char *ax)
{
    int64_t z = a->zero_edge, m = a->m;
    tt_pg_add(b, "set %stics out nomirror (", ax);
    int first = 1;
    if (m <= 8) {
        for (int64_t k = 0; k < m; k++) {
            char num[64];
            tt_pg_num(a->vals[k], num, sizeof num);
            tt_pg_add(b, "%s'%s' %.10g", first ? "" : ", ", num, to_plot(a, a->vals[k]));
            first = 0;
        }
    } else if (a->log) {
        static const struct {
            double v;
            const char *label;
        } times[] = {{1, "1 s"},       {10, "10 s"},     {60, "1 min"},     {600, "10 min"},
                     {3600, "1 h"},    {21600, "6 h"},   {86400, "1 d"},    {604800, "1 w"},
                     {2592000, "30 d"}};
        int secs = strcmp(a->units, "s") == 0;
        double lo = a->vals[0], hi = a->vals[m - 1];
        for (double dec = pow(10, floor(log10(lo))); dec <= hi; dec *= 10) {
            for (int i = 0; i < (secs ? 1 : 3); i++) {
                double v = secs ? 0 : dec * (i == 0 ? 1 : i == 1 ? 2 : 5);
                if (secs) {
                    for (size_t j = 0; j < sizeof times / sizeof times[0]; j++)
                        if (times[j].v >= dec && times[j].v < dec * 10 && times[j].v >= lo &&
                            times[j].v <= hi) {
                            tt_pg_add(b, "%s'%s' %.10g", first ? "" : ", ", times[j].label,
                                   log10(times[j].v));
                            first = 0;
                        }
                } else if (v >= lo && v <= hi) {
                    char num[64];
                    tt_pg_num(v, num, sizeof num);
                    tt_pg_add(b, "%s'%s' %.10g", first ? "" : ", ", num, log10(v));
                    first = 0;
                }
            }
        }
    } else {
        double lo = a->vals[0], hi = a->vals[m - 1], raw = (hi - lo) / 6;
        double mag = pow(10, floor(log10(raw))), step = mag;
        step = raw / mag > 5 ? 10 * mag : raw / mag > 2 ? 5 * mag : raw / mag > 1 ? 2 * mag : mag;
        for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
            char num[64];
            tt_pg_num(v, num, sizeof num);
            tt_pg_add(b, "%s'%s' %.10g", first ? "" : ", ", num, v);
            first = 0;
        }
    }
    if (z)
        tt_pg_add(b, "%s'0' %.10g", first ? "" : ", ", tt_pg_cell_mid(a, 0));
    if (a->has_inf)
        tt_pg_add(b, "%s'inf' %.10g", first && !z ? "" : ", ", tt_pg_cell_mid(a, a->ncell - 1));
    tt_pg_add(b, ")\nset %srange [%.10g:%.10g]\n", ax, a->lo[0], a->hi[a->ncell - 1]);
    char label[160];
    snprintf(label, sizeof label, "%s%s%s%s", a->name,
             *a->units && !(a->log && m > 8 && strcmp(a->units, "s") == 0) ? " [" : "",
             *a->units && !(a->log && m > 8 && strcmp(a->units, "s") == 0) ? a->units : "",
             *a->units && !(a->log && m > 8 && strcmp(a->units, "s") == 0) ? "]" : "");
    if (a->log)
        snprintf(label + strlen(label), sizeof label - strlen(label), " (log scale)");
    tt_pg_add(b, "set %slabel ", ax);
    tt_pg_quoted(b, label);
    tt_pg_add(b, "\n");
}

/* ---- surface ---- */

void tt_pg_grid_free(pg_grid *g)
{
    tt_pg_axis_free(&g->x);
    tt_pg_axis_free(&g->y);
    free(g->cell);
}

int tt_pg_grid_fill(tt_ctx *ctx, pg_grid *g, const tt_table *t, int cx, int cy)
{
    g->t = t;
    g->cx = cx;
    g->cy = cy;
    size_t cells = (size_t)(g->x.ncell * g->y.ncell);
    if (!(g->cell = (int64_t *)malloc(cells * sizeof *g->cell)))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (size_t k = 0; k < cells; k++)
        g->cell[k] = -1;
    const double *xv = tt_table_values(t, cx), *yv = tt_table_values(t, cy);
    for (int64_t r = 0; r < tt_table_rows(t); r++) {
        int64_t k = tt_pg_axis_cell(&g->x, xv[r]) * g->y.ncell + tt_pg_axis_cell(&g->y, yv[r]);
        if (g->cell[k] < 0) {
            g->cell[k] = r;
            continue;
        }
        int64_t q = g->cell[k];
        for (int c = 0; c < tt_table_cols(t); c++) {
            char a[64], b[64];
            const char *name = tt_table_name(t, c);
            if (!tt_pg_is_param(name) || c == cx || c == cy)
                continue;
            const char *va = tt_pg_cell_text(t, c, q, a, sizeof a);
            const char *vb = tt_pg_cell_text(t, c, r, b, sizeof b);
            if (strcmp(va, vb) != 0)
                return tt_err(ctx, TT_EINVAL,
                              "rows %lld and %lld of '%s' fall on one cell of %s x %s: "
                              "parameter '%s' also varies (%s, %s); pick one value with "
                              "--where %s=VALUE",
                              (long long)q + 1, (long long)r + 1, tt_table_source(t),
                              g->x.name, g->y.name, name, va, vb, name);
        }
        return tt_err(ctx, TT_EINVAL, "rows %lld and %lld of '%s' are the same configuration",
                      (long long)q + 1, (long long)r + 1, tt_table_source(t));
    }
    return 0;
}

static int grid_build(tt_ctx *ctx, const tt_table *t, int cx, int cy, pg_grid *g)
{
    int rc = axis_build(ctx, t, cx, &g->x);
    if (!rc)
        rc = axis_build(ctx, t, cy, &g->y);
    return rc ? rc : tt_pg_grid_fill(ctx, g, t, cx, cy);
}

/* The cells as boxes ($cells: xlo xhi ylo yhi xmid ymid z) and, over the
 * finite cells when complete, the grid for contours ($grid). */
static int surface_data(pg_buf *b, const pg_grid *g, const double *z, double div, int id)
{
    const pg_axis *x = &g->x, *y = &g->y;
    tt_pg_add(b, "$cells%d << EOD\n", id);
    for (int64_t i = 0; i < x->ncell; i++)
        for (int64_t j = 0; j < y->ncell; j++) {
            int64_t r = g->cell[i * y->ncell + j];
            if (r >= 0 && !isnan(z[r]))
                tt_pg_add(b, "%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t%.10g\n", x->lo[i],
                       x->hi[i], y->lo[j], y->hi[j], tt_pg_cell_mid(x, i), tt_pg_cell_mid(y, j),
                       z[r] / div);
        }
    tt_pg_add(b, "EOD\n");
    int64_t x0 = x->zero_edge, x1 = x0 + x->m, y0 = y->zero_edge, y1 = y0 + y->m;
    int complete = x->m >= 2 && y->m >= 2;
    for (int64_t i = x0; i < x1 && complete; i++)
        for (int64_t j = y0; j < y1 && complete; j++) {
            int64_t r = g->cell[i * y->ncell + j];
            complete = r >= 0 && isfinite(z[r]);
        }
    if (!complete)
        return 0;
    tt_pg_add(b, "$grid%d << EOD\n", id);
    for (int64_t i = x0; i < x1; i++) {
        for (int64_t j = y0; j < y1; j++)
            tt_pg_add(b, "%.10g\t%.10g\t%.10g\n", tt_pg_cell_mid(x, i), tt_pg_cell_mid(y, j),
                   z[g->cell[i * y->ncell + j]] / div);
        tt_pg_add(b, "\n");
    }
    tt_pg_add(b, "EOD\n");
    return 1;
}

void tt_pg_heat_setup(pg_buf *b, const pg_grid *g, int zc, int id, int view3d, int cblabel,
                   pg_heat *h)
{
    const tt_table *t = g->t;
    const double *z = tt_table_values(t, zc);
    int64_t n = tt_table_rows(t);
    h->zc = zc;
    tt_plot_unit(tt_table_units(t, zc), tt_pg_max_abs(z, n), &h->div, h->unit, sizeof h->unit);
    tt_pg_axis_label(tt_table_name(t, zc), h->unit, h->label, sizeof h->label);
    h->contour = surface_data(b, g, z, h->div, id);
    h->best = tt_plot_best(z, n);
    /* a metric that does not vary: no contour, a colour range around it */
    double zlo = INFINITY, zhi = -INFINITY;
    for (int64_t r = 0; r < n; r++)
        if (isfinite(z[r])) {
            zlo = z[r] < zlo ? z[r] : zlo;
            zhi = z[r] > zhi ? z[r] : zhi;
        }
    if (zlo == zhi) {
        double v = zlo / h->div, d = v != 0 ? fabs(v) * 0.1 : 1;
        tt_pg_add(b, "set cbrange [%.10g:%.10g]\nset zrange [%.10g:%.10g]\n", v - d, v + d, v - d,
               v + d);
        h->contour = 0;
    } else {
        tt_pg_add(b, "set cbrange [*:*]\nset zrange [*:*]\n");
    }
    if (h->contour && !view3d)
        tt_pg_add(b, "set contour base\nset cntrparam levels auto 6\nunset surface\n"
                  "set table $contour%d\nsplot $grid%d using 1:2:3 with lines\nunset table\n"
                  "unset contour\nset surface\n",
               id, id);
    tt_pg_axis_tics(b, &g->x, "x");
    tt_pg_axis_tics(b, &g->y, "y");
    tt_pg_add(b, "set cblabel ");
    tt_pg_quoted(b, cblabel ? h->label : "");
    /* no offset: gnuplot's margin then holds the label (an offset clips it) */
    tt_pg_add(b, "\nset colorbox\nset cbtics out\n");
}

void tt_pg_heat_layers(pg_buf *b, int id, const pg_heat *h)
{
    tt_pg_add(b, "$cells%d using 5:6:1:2:3:4:7 with boxxyerror fs solid 1.0 noborder fc palette z "
              "notitle",
           id);
    if (h->contour)
        tt_pg_add(b, ", $contour%d using 1:2 with lines lc rgb '#60ffffff' lw 1.2 notitle", id);
}

/* One panel: metric zc over the grid; its title is head over a line that
 * says which point is marked. A panel of a facet names its metric in the
 * title rather than beside the colour bar, where the next panel is. */
static void surface_panel(pg_buf *b, const pg_grid *g, int zc, int id, const tt_plot_opts *o,
                          const char *head, int facet)
{
    const tt_table *t = g->t;
    const double *z = tt_table_values(t, zc);
    int64_t n = tt_table_rows(t);
    pg_heat h;
    char best[2048], params[400], num[64];
    tt_pg_heat_setup(b, g, zc, id, o->view3d, !facet, &h);
    const char *zlabel = h.label;
    int64_t br = h.best;
    double div = h.div;
    tt_pg_num(z[br] / div == floor(z[br] / div) ? z[br] / div : round(z[br] / div * 1000) / 1000,
           num, sizeof num);
    row_params(t, br, NULL, NULL, params, sizeof params);
    int64_t ties = 0;
    for (int64_t r = br + 1; r < n; r++)
        ties += z[r] == z[br];
    snprintf(best, sizeof best, "\xe2\x97\x8b least %s: %s %s at %s", tt_table_name(t, zc), num,
             h.unit, params);
    if (ties)
        snprintf(best + strlen(best), sizeof best - strlen(best), " (1st of %lld equal)",
                 (long long)ties + 1);
    tt_pg_add(b, "set title ");
    tt_pg_quoted(b, facet ? zlabel : head);
    tt_pg_add(b, ".\"\\n\".");
    tt_pg_quoted(b, best);
    tt_pg_add(b, "\nunset key\n");
    int64_t bx = tt_pg_axis_cell(&g->x, tt_table_values(t, g->cx)[br]);
    int64_t by = tt_pg_axis_cell(&g->y, tt_table_values(t, g->cy)[br]);
    if (o->view3d) {
        tt_pg_title(b, "set zlabel", zlabel);
        /* the floor's labels along their axes and clear of the tick labels */
        tt_pg_add(b, "set xlabel rotate parallel offset 0,-0.5\nset ylabel rotate parallel offset "
                  "2,-1\n");
        tt_pg_add(b, "set zlabel rotate parallel\nset view 55,35\nset pm3d depthorder border "
                  "lc rgb '#404040' lw 0.5\nset ticslevel 0\nsplot $cells%d using 5:6:7 with "
                  "points pt 7 ps 0.6 lc palette z, ",
               id);
        if (h.contour)
            tt_pg_add(b, "$grid%d using 1:2:3 with pm3d, ", id);
        tt_pg_add(b, "'-' using 1:2:3 with points pt 6 ps 3 lw 3 lc rgb '#d01010'\n"
                  "%.10g %.10g %.10g\ne\n",
               tt_pg_cell_mid(&g->x, bx), tt_pg_cell_mid(&g->y, by), z[br] / div);
        return;
    }
    tt_pg_add(b, "plot ");
    tt_pg_heat_layers(b, id, &h);
    tt_pg_add(b, ", '-' using 1:2 with points pt 7 ps 2.2 lc rgb '#ffffff'"
              ", '-' using 1:2 with points pt 6 ps 2.2 lw 2.5 lc rgb '#d01010'");
    for (int k = 0; k < 2; k++)
        tt_pg_add(b, "\n%.10g\t%.10g\ne", tt_pg_cell_mid(&g->x, bx), tt_pg_cell_mid(&g->y, by));
    tt_pg_add(b, "\n");
}

int tt_plot_surface(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script)
{
    *script = NULL;
    const char *xn = o->x ? o->x : "w0", *yn = o->y ? o->y : "theta";
    const char *zn = o->z ? o->z : "jct_mean";
    int cx, cy, cz, cf = -1, rc;
    if ((rc = tt_pg_need_col(ctx, t, xn, "parameter", &cx)) ||
        (rc = tt_pg_need_col(ctx, t, yn, "parameter", &cy)) ||
        (rc = tt_pg_need_col(ctx, t, zn, "metric", &cz)) ||
        (o->facet && (rc = tt_pg_need_col(ctx, t, o->facet, "metric", &cf))))
        return rc;
    if (cx == cy)
        return tt_err(ctx, TT_EINVAL, "the two axes are both '%s'", xn);
    if (tt_plot_best(tt_table_values(t, cz), tt_table_rows(t)) < 0 ||
        (cf >= 0 && tt_plot_best(tt_table_values(t, cf), tt_table_rows(t)) < 0))
        return tt_err(ctx, TT_EEMPTY, "'%s': no value of the metric", tt_table_source(t));
    pg_grid g;
    memset(&g, 0, sizeof g);
    rc = grid_build(ctx, t, cx, cy, &g);
    if (rc) {
        tt_pg_grid_free(&g);
        return rc;
    }
    pg_buf b = {0};
    tt_pg_preamble(&b, o, cf >= 0 ? 1500 : 1000, cf >= 0 ? 650 : 750);
    char title[512], fixed[256];
    fixed_params(t, xn, yn, fixed, sizeof fixed);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s%s%s over %s x %s (%lld configurations%s%s)", zn,
                 cf >= 0 ? " and " : "", cf >= 0 ? o->facet : "", xn, yn,
                 (long long)tt_table_rows(t), *fixed ? "; " : "", fixed);
    /* numbers only, and contour tables come out space-separated */
    tt_pg_add(&b, "set datafile separator whitespace\nunset grid\n");
    if (cf >= 0) {
        tt_pg_add(&b, "set multiplot layout 1,2 title ");
        tt_pg_quoted(&b, title);
        tt_pg_add(&b, " font ',15'\n");
        surface_panel(&b, &g, cz, 1, o, NULL, 1);
        surface_panel(&b, &g, cf, 2, o, NULL, 1);
        tt_pg_add(&b, "unset multiplot\n");
    } else {
        surface_panel(&b, &g, cz, 1, o, title, 0);
    }
    tt_pg_grid_free(&g);
    return tt_pg_finish(ctx, &b, script);
}

/* ---- pareto ---- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}


/* The baseline row r of t is, by its timers, or NULL: strict
 * consolidation (w0 = theta = inf: w1 never matters then), no-wait
 * (w0 = w1 = 0). */
static const char *baseline_name(const tt_table *t, int64_t r, char *buf, size_t size)
{
    int c0 = tt_table_find(t, "w0"), c1 = tt_table_find(t, "w1"), ct = tt_table_find(t, "theta");
    if (c0 < 0 || c1 < 0 || !tt_table_values(t, c0) || !tt_table_values(t, c1))
        return NULL;
    double w0 = tt_table_values(t, c0)[r], w1 = tt_table_values(t, c1)[r];
    double th = ct >= 0 && tt_table_values(t, ct) ? tt_table_values(t, ct)[r] : INFINITY;
    /* w0 = inf never leaves L0, whatever w1 (docs/model.md section 6) */
    if (w0 == INFINITY && th == INFINITY)
        snprintf(buf, size, "strict consolidation");
    else if (w0 == 0 && w1 == 0 && th == INFINITY)
        snprintf(buf, size, "no-wait");
    else if (w0 == 0 && w1 == 0) {
        char num[64];
        tt_pg_num(th, num, sizeof num);
        snprintf(buf, size, "no-wait, theta=%s", num);
    } else
        return NULL;
    return buf;
}

/* Points x y [label] of rows of t, scaled; which: 0 all, 1 strict, 2
 * no-wait (by baseline_name), 3 every row labelled with its name. */
static int64_t points_block(pg_buf *b, const char *name, const tt_table *t, int cx, int cy,
                            double dx, double dy, int which)
{
    const double *x = tt_table_values(t, cx), *y = tt_table_values(t, cy);
    int64_t k = 0;
    tt_pg_add(b, "%s << EOD\n", name);
    for (int64_t r = 0; r < tt_table_rows(t); r++) {
        char nb[128], params[256];
        const char *bn = which ? baseline_name(t, r, nb, sizeof nb) : NULL;
        if (isnan(x[r]) || isnan(y[r]) ||
            (which == 1 && (!bn || strcmp(bn, "strict consolidation") != 0)) ||
            (which == 2 && (!bn || strcmp(bn, "no-wait") != 0)))
            continue;
        tt_pg_add(b, "%.10g\t%.10g", x[r] / dx, y[r] / dy);
        if (which == 3) {
            if (!bn) { /* its timers, whether or not they vary */
                size_t len = 0;
                params[0] = '\0';
                for (int c = 0; c < tt_table_cols(t) && len + 1 < sizeof params; c++) {
                    const char *pn = tt_table_name(t, c);
                    if (strcmp(pn, "w0") && strcmp(pn, "w1") && strcmp(pn, "theta"))
                        continue;
                    char num[64];
                    int w = snprintf(params + len, sizeof params - len, "%s%s=%s", len ? ", " : "",
                                     pn, tt_pg_cell_text(t, c, r, num, sizeof num));
                    len = w < 0 ? sizeof params : len + (size_t)w;
                }
                bn = params;
            }
            tt_pg_add(b, "\t");
            sb_field(b, bn);
        }
        tt_pg_add(b, "\n");
        k++;
    }
    tt_pg_add(b, "EOD\n");
    return k;
}

int tt_plot_pareto(tt_ctx *ctx, const tt_table *t, const tt_table *const *base, int nb,
                   const tt_plot_opts *o, char **script)
{
    *script = NULL;
    const char *xn = o->x ? o->x : "makespan", *yn = o->y ? o->y : "jct_mean";
    int cx, cy, rc;
    if ((rc = tt_pg_need_col(ctx, t, xn, "metric", &cx)) ||
        (rc = tt_pg_need_col(ctx, t, yn, "metric", &cy)))
        return rc;
    int bx[64], by[64];
    if (nb > 64)
        return tt_err(ctx, TT_EINVAL, "at most 64 baseline files");
    double mx = tt_pg_max_abs(tt_table_values(t, cx), tt_table_rows(t));
    double my = tt_pg_max_abs(tt_table_values(t, cy), tt_table_rows(t));
    for (int i = 0; i < nb; i++) {
        if ((rc = tt_pg_need_col(ctx, base[i], xn, "metric", &bx[i])) ||
            (rc = tt_pg_need_col(ctx, base[i], yn, "metric", &by[i])))
            return rc;
        double a = tt_pg_max_abs(tt_table_values(base[i], bx[i]), tt_table_rows(base[i]));
        double c = tt_pg_max_abs(tt_table_values(base[i], by[i]), tt_table_rows(base[i]));
        mx = a > mx ? a : mx;
        my = c > my ? c : my;
    }
    int64_t n = tt_table_rows(t);
    int64_t *front = (int64_t *)malloc((size_t)n * sizeof *front);
    if (!front)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t k = tt_plot_pareto_front(tt_table_values(t, cx), tt_table_values(t, cy), n, front);
    if (k <= 0) {
        free(front);
        return k < 0 ? tt_err(ctx, TT_ENOMEM, "out of memory")
                     : tt_err(ctx, TT_EEMPTY, "'%s': no row has both %s and %s",
                              tt_table_source(t), xn, yn);
    }
    double dx, dy;
    char ux[64], uy[64], lx[160], ly[160], title[512], fixed[256];
    tt_plot_unit(tt_table_units(t, cx), mx, &dx, ux, sizeof ux);
    tt_plot_unit(tt_table_units(t, cy), my, &dy, uy, sizeof uy);
    tt_pg_axis_label(xn, ux, lx, sizeof lx);
    tt_pg_axis_label(yn, uy, ly, sizeof ly);
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 750);
    fixed_params(t, NULL, NULL, fixed, sizeof fixed);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s against %s, both minimised (%lld configurations%s%s)",
                 yn, xn, (long long)n, *fixed ? "; " : "", fixed);
    tt_pg_title(&b, "set title", title);
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_title(&b, "set ylabel", ly);
    tt_pg_add(&b, "set key below left Left reverse samplen 1.5 font ',12' maxrows 3\n"
               "set offsets graph 0.22, graph 0.22, graph 0.08, graph 0.05\n");
    /* one value on an axis (all points alike): a range around it */
    const double *av[2] = {tt_table_values(t, cx), tt_table_values(t, cy)};
    for (int a = 0; a < 2; a++) {
        double lo = INFINITY, hi = -INFINITY, d = a ? dy : dx;
        for (int64_t r = 0; r < tt_table_rows(t); r++)
            if (isfinite(av[a][r])) {
                lo = av[a][r] < lo ? av[a][r] : lo;
                hi = av[a][r] > hi ? av[a][r] : hi;
            }
        for (int i = 0; i < nb; i++) {
            const double *bv = tt_table_values(base[i], a ? by[i] : bx[i]);
            for (int64_t r = 0; r < tt_table_rows(base[i]); r++)
                if (isfinite(bv[r])) {
                    lo = bv[r] < lo ? bv[r] : lo;
                    hi = bv[r] > hi ? bv[r] : hi;
                }
        }
        if (lo == hi)
            tt_pg_add(&b, "set %srange [%.10g:%.10g]\n", a ? "y" : "x",
                   lo == 0 ? -1 : (lo - fabs(lo) * 0.1) / d, lo == 0 ? 1 : (lo + fabs(lo) * 0.1) / d);
    }
    int64_t all = points_block(&b, "$all", t, cx, cy, dx, dy, 0);
    /* the front, each point labelled with the parameters that vary */
    tt_pg_add(&b, "$front << EOD\n");
    const double *x = tt_table_values(t, cx), *y = tt_table_values(t, cy);
    int64_t npts = 0;
    for (int64_t i = 0, j; i < k; i = j) {
        /* configurations on one point share one label: the first of them */
        for (j = i + 1; j < k && x[front[j]] == x[front[i]] && y[front[j]] == y[front[i]]; j++)
            ;
        char params[256];
        row_params(t, front[i], NULL, NULL, params, sizeof params);
        tt_pg_add(&b, "%.10g\t%.10g\t", x[front[i]] / dx, y[front[i]] / dy);
        sb_field(&b, params);
        if (j - i > 1)
            tt_pg_add(&b, " (+%lld more)", (long long)(j - i - 1));
        tt_pg_add(&b, "\n");
        npts++;
    }
    tt_pg_add(&b, "EOD\n");
    int64_t ns = points_block(&b, "$strict", t, cx, cy, dx, dy, 1);
    int64_t nw = points_block(&b, "$nowait", t, cx, cy, dx, dy, 2);
    for (int i = 0; i < nb; i++) {
        char name[32];
        snprintf(name, sizeof name, "$base%d", i);
        points_block(&b, name, base[i], bx[i], by[i], dx, dy, 3);
    }
    tt_pg_add(&b, "plot $all using 1:2 with points pt 7 ps 0.9 lc rgb '#9a9a9a' title "
               "'configurations (%lld)', \\\n"
               "  $front using 1:2 with linespoints pt 7 ps 1.4 lw 2 lc rgb '#c0102a' title "
               "'non-dominated (%lld configurations)', \\\n"
               /* labels right and left in turn, so neighbours do not collide */
               "  $front every 2 using 1:2:3 with labels left offset 1,0.6 font ',10' tc rgb "
               "'#700010' notitle",
           (long long)all, (long long)k);
    if (npts > 1)
        tt_pg_add(&b, ", \\\n  $front every 2::1 using 1:2:3 with labels right offset -1,-0.6 "
                   "font ',10' tc rgb '#700010' notitle");
    if (ns)
        tt_pg_add(&b, ", \\\n  $strict using 1:2 with points pt 5 ps 2 lc rgb '#1f4e9e' title "
                   "'strict consolidation (w0=theta=inf)'");
    if (nw)
        tt_pg_add(&b, ", \\\n  $nowait using 1:2 with points pt 9 ps 2.4 lc rgb '#e08000' title "
                   "'no-wait (w0=w1=0)'");
    for (int i = 0; i < nb; i++) {
        char key[300];
        snprintf(key, sizeof key, "baseline: %s", base_name(tt_table_source(base[i])));
        tt_pg_add(&b, ", \\\n  $base%d using 1:2 with points pt 13 ps 2.2 lc rgb '#208040' title ",
               i);
        tt_pg_quoted(&b, key);
        tt_pg_add(&b, ", $base%d using 1:2:3 with labels right offset -1,-0.6 font ',10' tc rgb "
                   "'#105020' notitle",
               i);
    }
    tt_pg_add(&b, "\n");
    free(front);
    return tt_pg_finish(ctx, &b, script);
}

/* Okabe-Ito: told apart by colour-blind readers too */
static const char *const series_colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                             "#e69f00", "#56b4e9", "#000000", "#f0e442"};
#define NCOLOURS (sizeof series_colours / sizeof series_colours[0])
#define CDF_POINTS 1500

static int cmp_dbl(const void *a, const void *b) { return cmp_double(a, b); }

/* The sorted non-NAN values of column c of t; their count, or -1. */
static int64_t sorted_values(const tt_table *t, int c, double **out)
{
    int64_t n = tt_table_rows(t), m = 0;
    const double *v = tt_table_values(t, c);
    double *s = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    if (!s)
        return -1;
    for (int64_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            s[m++] = v[i];
    qsort(s, (size_t)m, sizeof *s, cmp_dbl);
    *out = s;
    return m;
}

/* The empirical CDF of s (m sorted values) as steps "x F", x > 0 only (a
 * log axis): the last rank of each distinct value, at most CDF_POINTS of
 * them (evenly by rank) plus the extremes. */
static void cdf_block(pg_buf *b, const char *name, const double *s, int64_t m, double div)
{
    tt_pg_add(b, "%s << EOD\n", name);
    int64_t last = -1;
    for (int64_t r = 0; r < m; r++) {
        if (s[r] <= 0 || (r + 1 < m && s[r + 1] == s[r]))
            continue;
        int64_t bucket = (r + 1) * CDF_POINTS / m;
        if (bucket == last && r + 1 < m)
            continue;
        last = bucket;
        tt_pg_add(b, "%.10g\t%.10g\n", s[r] / div, (double)(r + 1) / (double)m);
    }
    tt_pg_add(b, "EOD\n");
}

int tt_plot_cdf(tt_ctx *ctx, const tt_table *const *runs, const char *const *labels, int n,
                const tt_plot_opts *o, char **script)
{
    *script = NULL;
    const char *xn = o->x ? o->x : "jct";
    double mx = 0, mn = INFINITY;
    int rc, c;
    for (int i = 0; i < n; i++) {
        if ((rc = tt_pg_need_col(ctx, runs[i], xn, "column", &c)))
            return rc;
        const double *v = tt_table_values(runs[i], c);
        double m = tt_pg_max_abs(v, tt_table_rows(runs[i]));
        mx = m > mx ? m : mx;
        for (int64_t r = 0; r < tt_table_rows(runs[i]); r++)
            mn = v[r] > 0 && v[r] < mn ? v[r] : mn;
    }
    if (!(mx > 0))
        return tt_err(ctx, TT_EEMPTY, "no positive value of '%s' to draw on a log axis", xn);
    /* on a log axis the unit suits the middle of the data, not its end */
    double div, *s0 = NULL;
    int64_t m0 = sorted_values(runs[0], tt_table_find(runs[0], xn), &s0);
    char unit[64], lx[160], title[512];
    tt_plot_unit(tt_table_units(runs[0], tt_table_find(runs[0], xn)), m0 > 0 ? s0[m0 / 2] : mx,
                 &div, unit, sizeof unit);
    free(s0);
    tt_pg_axis_label(xn, unit, lx, sizeof lx);
    snprintf(lx + strlen(lx), sizeof lx - strlen(lx), " (log scale)");
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 700);
    snprintf(title, sizeof title, "%s", o->title ? o->title : "");
    if (!o->title)
        snprintf(title, sizeof title, "CDF of %s per job", xn);
    tt_pg_title(&b, "set title", title);
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_add(&b, "set ylabel 'fraction of jobs'\nset logscale x\nset format x '%%g'\n"
               "set yrange [0:1]\nset xrange [%.10g:%.10g]\nset mxtics 10\n"
               "set key bottom right Left reverse samplen 2 font ',12'\n",
           mn / div, mx / div * 1.05);
    for (int i = 0; i < n && !b.oom; i++) {
        double *s = NULL;
        int64_t m = sorted_values(runs[i], tt_table_find(runs[i], xn), &s);
        if (m < 0) {
            free(b.s);
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        }
        char name[32];
        snprintf(name, sizeof name, "$cdf%d", i);
        cdf_block(&b, name, s, m, div);
        free(s);
    }
    tt_pg_add(&b, "plot");
    for (int i = 0; i < n; i++) {
        const tt_table *t = runs[i];
        int64_t rows = tt_table_rows(t), m = 0, zeros = 0;
        const double *v = tt_table_values(t, tt_table_find(t, xn));
        for (int64_t r = 0; r < rows; r++) {
            m += !isnan(v[r]);
            zeros += v[r] <= 0;
        }
        char key[600];
        snprintf(key, sizeof key, "%s (%lld jobs", labels && labels[i] ? labels[i]
                                                   : base_name(tt_table_source(t)),
                 (long long)m);
        if (zeros)
            snprintf(key + strlen(key), sizeof key - strlen(key), ", %lld at 0", (long long)zeros);
        if (rows > m)
            snprintf(key + strlen(key), sizeof key - strlen(key), ", %lld not run",
                     (long long)(rows - m));
        snprintf(key + strlen(key), sizeof key - strlen(key), ")");
        tt_pg_add(&b, "%s $cdf%d using 1:2 with steps lw 2 lc rgb '%s' title ", i ? ", \\\n "
                                                                              : "",
               i, series_colours[i % NCOLOURS]);
        tt_pg_quoted(&b, key);
    }
    tt_pg_add(&b, "\n");
    return tt_pg_finish(ctx, &b, script);
}

/* ---- timeline ---- */

#define TIMELINE_BINS 2000

/* The time-weighted mean of each column over TIMELINE_BINS bins of the
 * span when the timeline is longer (a step function: row i holds from
 * t[i] to t[i + 1]); else the rows as they are. Columns: t, then cols. */
static void timeline_block(pg_buf *b, const tt_table *t, const int *cols, int nc, double tdiv)
{
    const double *tv = tt_table_values(t, tt_table_find(t, "t"));
    int64_t n = tt_table_rows(t);
    double t0 = tv[0], span = tv[n - 1] - t0;
    tt_pg_add(b, "$timeline << EOD\n");
    if (n <= TIMELINE_BINS || !(span > 0)) {
        for (int64_t r = 0; r < n; r++) {
            tt_pg_add(b, "%.10g", (tv[r] - t0) / tdiv);
            for (int c = 0; c < nc; c++)
                tt_pg_add(b, "\t%.10g", tt_table_values(t, cols[c])[r]);
            tt_pg_add(b, "\n");
        }
    } else {
        double w = span / TIMELINE_BINS, acc[8] = {0};
        int64_t r = 0;
        for (int64_t k = 0; k < TIMELINE_BINS; k++) {
            double lo = t0 + w * (double)k, hi = lo + w;
            for (int c = 0; c < nc; c++)
                acc[c] = 0;
            /* the row in force at lo, then every change inside the bin */
            while (r + 1 < n && tv[r + 1] <= lo)
                r++;
            for (int64_t q = r; q < n && tv[q] < hi; q++) {
                double a = tv[q] > lo ? tv[q] : lo;
                double e = q + 1 < n && tv[q + 1] < hi ? tv[q + 1] : hi;
                for (int c = 0; c < nc; c++)
                    acc[c] += tt_table_values(t, cols[c])[q] * (e - a);
            }
            tt_pg_add(b, "%.10g", (lo - t0) / tdiv);
            for (int c = 0; c < nc; c++)
                tt_pg_add(b, "\t%.10g", acc[c] / w);
            tt_pg_add(b, "\n");
        }
    }
    tt_pg_add(b, "EOD\n");
}

int tt_plot_timeline(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script)
{
    *script = NULL;
    static const char *const names[] = {"waiting", "busy_gpus", "running_l0", "running_l1",
                                        "running_l2"};
    int cols[5], ct, rc;
    if ((rc = tt_pg_need_col(ctx, t, "t", "column", &ct)))
        return rc;
    for (int c = 0; c < 5; c++)
        if ((rc = tt_pg_need_col(ctx, t, names[c], "column", &cols[c])))
            return rc;
    int64_t n = tt_table_rows(t);
    const double *tv = tt_table_values(t, ct);
    double span = tv[n - 1] - tv[0], div;
    char unit[64], lx[160], title[512];
    tt_plot_unit("s", span, &div, unit, sizeof unit);
    snprintf(lx, sizeof lx, "time since the first event [%s]", unit);
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 800);
    timeline_block(&b, t, cols, 5, div);
    snprintf(title, sizeof title, "%s",
             o->title ? o->title
                      : n > TIMELINE_BINS ? "simulated cluster over time (means over equal bins)"
                                          : "simulated cluster over time");
    tt_pg_add(&b, "set multiplot layout 3,1 title ");
    tt_pg_quoted(&b, title);
    tt_pg_add(&b, " font ',15' margins 0.1,0.97,0.09,0.92 spacing 0,0.045\n"
               "set key top right Left reverse samplen 2 font ',12'\nset format x ''\n"
               "set ylabel 'jobs waiting'\nset yrange [0:*]\n"
               "plot $timeline using 1:2 with steps lw 1.5 lc rgb '#d55e00' notitle\n"
               "set ylabel 'busy GPUs'\n"
               "plot $timeline using 1:3 with steps lw 1.5 lc rgb '#0072b2' notitle\n"
               "set format x '%%g'\n");
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_add(&b, "set ylabel 'jobs running'\n"
               "plot $timeline using 1:4 with steps lw 1.5 lc rgb '#009e73' title 'L0 packed', \\\n"
               "  $timeline using 1:5 with steps lw 1.5 lc rgb '#e69f00' title 'L1 rack', \\\n"
               "  $timeline using 1:6 with steps lw 1.5 lc rgb '#cc79a7' title 'L2 spread'\n"
               "unset multiplot\n");
    return tt_pg_finish(ctx, &b, script);
}

/* ---- trace ---- */

int tt_plot_trace(tt_ctx *ctx, const tt_table *gpus, const tt_table *duration,
                  const tt_table *load, const tt_plot_opts *o, char **script)
{
    *script = NULL;
    int cg, cj, cs, cd, ct, cl, rc;
    if ((rc = tt_pg_need_col(ctx, gpus, "gpus", "column", &cg)) ||
        (rc = tt_pg_need_col(ctx, gpus, "jobs", "column", &cj)) ||
        (rc = tt_pg_need_col(ctx, gpus, "gpu_s", "column", &cs)) ||
        (rc = tt_pg_need_col(ctx, duration, "duration", "column", &cd)) ||
        (rc = tt_pg_need_col(ctx, load, "t", "column", &ct)) ||
        (rc = tt_pg_need_col(ctx, load, "gpus", "column", &cl)))
        return rc;
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1200, 800);
    /* job-size mix: shares of jobs and of GPU time per GPU count */
    const double *g = tt_table_values(gpus, cg), *j = tt_table_values(gpus, cj);
    const double *gs = tt_table_values(gpus, cs);
    double tj = 0, ts = 0;
    int64_t ng = tt_table_rows(gpus);
    for (int64_t i = 0; i < ng; i++) {
        tj += j[i];
        ts += gs[i];
    }
    tt_pg_add(&b, "$mix << EOD\n");
    for (int64_t i = 0; i < ng; i++)
        tt_pg_add(&b, "%lld\t%.0f\t%.10g\t%.10g\n", (long long)i, g[i], 100 * j[i] / tj,
               ts > 0 ? 100 * gs[i] / ts : 0.0);
    tt_pg_add(&b, "EOD\n");
    double *s = NULL, div, ldiv;
    int64_t m = sorted_values(duration, cd, &s);
    if (m < 0) {
        free(b.s);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    char unit[64], lunit[64], lx[160], title[512];
    tt_plot_unit("s", m ? s[m / 2] : 0, &div, unit, sizeof unit);
    cdf_block(&b, "$duration", s, m, div);
    free(s);
    const double *lt = tt_table_values(load, ct), *lg = tt_table_values(load, cl);
    int64_t nl = tt_table_rows(load);
    tt_plot_unit("s", lt[nl - 1], &ldiv, lunit, sizeof lunit);
    tt_pg_add(&b, "$load << EOD\n");
    for (int64_t i = 0; i < nl; i++)
        tt_pg_add(&b, "%.10g\t%.10g\n", lt[i] / ldiv, lg[i]);
    tt_pg_add(&b, "EOD\n");
    snprintf(title, sizeof title, "%s",
             o->title ? o->title : "trace: job sizes, durations and offered load");
    tt_pg_add(&b, "set multiplot title ");
    tt_pg_quoted(&b, title);
    tt_pg_add(&b, " font ',15'\n"
               "set size 0.5,0.5\nset origin 0,0.45\n"
               "set title 'job-size mix'\nset style data histograms\n"
               "set style histogram clustered gap 1\nset style fill solid 0.85 noborder\n"
               "set ylabel 'share [%%]'\nset yrange [0:*]\nset xlabel 'GPUs per job'\n"
               "set key top right font ',11'\n"
               "plot $mix using 3:xtic(2) lc rgb '#0072b2' title 'jobs', "
               "$mix using 4 lc rgb '#e69f00' title 'GPU time'\n"
               "set size 0.5,0.5\nset origin 0.5,0.45\nset title 'duration CDF'\n"
               "set style data lines\nset logscale x\nset format x '%%g'\nset yrange [0:1]\n"
               "set ylabel 'fraction of jobs'\nunset key\n");
    tt_pg_axis_label("duration", unit, lx, sizeof lx);
    snprintf(lx + strlen(lx), sizeof lx - strlen(lx), " (log scale)");
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_add(&b, "plot $duration using 1:2 with steps lw 2 lc rgb '#009e73'\n"
               "set size 1,0.45\nset origin 0,0\nunset logscale x\n"
               "set title 'offered load: GPUs the submitted jobs ask for, as if each ran "
               "from its submit'\nset yrange [0:*]\nset ylabel 'GPUs (bin mean)'\n");
    snprintf(lx, sizeof lx, "time since the first submit [%s]", lunit);
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_add(&b, "plot $load using 1:2 with steps lw 1.5 lc rgb '#cc79a7'\n"
               "unset multiplot\n");
    return tt_pg_finish(ctx, &b, script);
}
