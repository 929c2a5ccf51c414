/* What every figure of tt-plot shares (libcore/plot/plotgrid.h): the script
 * buffer and quoting, number and unit formats, the preamble, the columns a
 * figure asks for, the parameters a title names, and sorted values with
 * their empirical CDF (the cdf and trace kinds). */
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
    tt_pg_add(b, "set output");
    if (o->output) { /* else standard output */
        tt_pg_add(b, " ");
        tt_pg_quoted(b, o->output);
    }
    tt_pg_add(b, "\nset encoding utf8\nset datafile separator \"\\t\"\n"
              "set grid front lc rgb '#c0c0c0' lw 0.5\n"
              "set border lw 1\n"
              /* viridis, by hand: perceptually even, readable in grey */
              "set palette defined (0 '#440154', 1 '#482878', 2 '#3e4989', 3 '#31688e', "
              "4 '#26828e', 5 '#1f9e89', 6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')\n");
}

double tt_pg_title_px(const tt_plot_opts *o, int w, double share)
{
    return o->title ? 0 : (o->width > 0 ? o->width : w) * share;
}

void tt_pg_quoted_fit(pg_buf *b, const char *text, double px)
{
    const char *cut = strstr(text, " (");
    for (const char *p = cut; p; p = strstr(p + 1, " ("))
        cut = p;
    if (!(px > 0) || !cut || (double)strlen(text) * PG_GLYPH_W <= px) {
        tt_pg_quoted(b, text);
        return;
    }
    char head[1024];
    snprintf(head, sizeof head, "%.*s", (int)(cut - text), text);
    tt_pg_quoted(b, head);
    tt_pg_add(b, ".\"\\n\".");
    tt_pg_quoted(b, cut + 1);
}

const char *tt_pg_series_colour(int i)
{
    /* Okabe-Ito: told apart by colour-blind readers too */
    static const char *const c[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                    "#e69f00", "#56b4e9", "#000000", "#f0e442"};
    return c[(unsigned)i % (sizeof c / sizeof c[0])];
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
    /* what the table has of the kind asked for (a metric: the numbers that
     * are no parameter; a parameter: the parameters), whole names only, as
     * many as the message holds, then how many more */
    int want = strcmp(what, "metric") == 0 ? 1 : strcmp(what, "parameter") == 0 ? 2 : 0;
    char cols[700];
    size_t k = 0;
    int more = 0;
    cols[0] = '\0';
    for (int c = 0; c < tt_table_cols(t); c++) {
        const char *n = tt_table_name(t, c);
        if (!tt_table_values(t, c) || (want == 1 && tt_pg_is_param(n)) ||
            (want == 2 && !tt_pg_is_param(n)))
            continue;
        size_t len = strlen(n) + (k ? 1 : 0);
        if (more || k + len + 16 >= sizeof cols) {
            more++;
            continue;
        }
        snprintf(cols + k, sizeof cols - k, "%s%s", k ? " " : "", n);
        k += len;
    }
    if (more)
        snprintf(cols + k, sizeof cols - k, " and %d more", more);
    return tt_err(ctx, TT_EINVAL, "%s '%s' is not in '%.200s' (its %ss: %s)", what, name,
                  tt_table_source(t), want == 1 ? "metric" : want == 2 ? "parameter" : "column",
                  cols);
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

void tt_pg_row_params(const tt_table *t, int64_t r, const char *skip1, const char *skip2,
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

int tt_pg_same_origin(tt_ctx *ctx, const tt_table *t, const tt_table *other, const char *hint)
{
    static const struct {
        const char *attr, *what;
    } same[] = {{"trace_source_sha256", "traces"},
                {"cluster", "clusters"},
                {"models_sha256", "model tables"}};
    const char *ts = tt_table_source(t), *os = tt_table_source(other);
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        const char *a = tt_table_attr(other, same[i].attr), *b = tt_table_attr(t, same[i].attr);
        if (!a || !*a || !b || !*b)
            return tt_err(ctx, TT_EINVAL, "'%s' does not record its %s, so it cannot be "
                          "matched with '%s' (%s)", !a || !*a ? os : ts, same[i].attr,
                          !a || !*a ? ts : os, hint);
        if (strcmp(a, b) != 0)
            return tt_err(ctx, TT_EINVAL, "'%s' and '%s' come from different %s (%s %.16s and "
                          "%.16s)", os, ts, same[i].what, same[i].attr, a, b);
    }
    return 0;
}

/* The value of parameter name that every row of t shares, or NULL. */
static const char *shared_value(const tt_table *t, const char *name, char *buf, size_t size)
{
    int c = tt_table_find(t, name);
    return c < 0 || tt_pg_varies(t, c) ? NULL : tt_pg_cell_text(t, c, 0, buf, size);
}

/* The value of parameter name among t's attributes (a run's), or NULL. */
static const char *attr_value(const tt_table *t, const char *name, char *buf, size_t size)
{
    (void)buf;
    (void)size;
    return tt_table_attr(t, name);
}

/* "name=value, ..." for the parameters whose value (by get) is not the
 * default; seed, mix, skip1 and skip2 left out. */
static void nondefault(const tt_table *t,
                       const char *(*get)(const tt_table *, const char *, char *, size_t),
                       const char *skip1, const char *skip2, char *buf, size_t size)
{
    tt_params d;
    tt_params_default(&d);
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < TT_NPARAMS && k + 1 < size; i++) {
        const char *name = tt_param_names[i];
        char dv[64], num[64];
        const char *v = get(t, name, num, sizeof num);
        if (!v || strcmp(name, "seed") == 0 || strcmp(name, "mix") == 0 ||
            (skip1 && strcmp(name, skip1) == 0) || (skip2 && strcmp(name, skip2) == 0))
            continue;
        tt_params_format(&d, NULL, i, dv, sizeof dv);
        if (strcmp(v, dv) == 0)
            continue;
        int n = snprintf(buf + k, size - k, "%s%s=%s", k ? ", " : "", name, v);
        k = n < 0 ? size : k + (size_t)n;
    }
    if (k >= size && size > 4)
        strcpy(buf + size - 4, "...");
}

void tt_pg_fixed_params(const tt_table *t, const char *skip1, const char *skip2, char *buf,
                        size_t size)
{
    nondefault(t, shared_value, skip1, skip2, buf, size);
}

void tt_pg_run_params(const tt_table *t, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!tt_table_attr(t, "w0"))
        return;
    nondefault(t, attr_value, NULL, NULL, buf, size);
    if (!*buf)
        snprintf(buf, size, "default parameters");
}

void tt_pg_about(const tt_table *t, char *buf, size_t size)
{
    const char *tr = tt_table_attr(t, "trace_file"), *cl = tt_table_attr(t, "cluster");
    /* the file's name, not where it was: a title is read elsewhere */
    const char *slash = tr ? strrchr(tr, '/') : NULL;
    tr = slash && slash[1] ? slash + 1 : tr;
    tr = tr && *tr ? tr : NULL;
    cl = cl && *cl ? cl : NULL;
    snprintf(buf, size, "%s%s%s", tr ? tr : "", cl ? (tr ? " on " : "cluster ") : "",
             cl ? cl : "");
}

int64_t tt_pg_count_nan(const tt_table *t, int c1, int c2)
{
    const double *a = tt_table_values(t, c1), *b = c2 >= 0 ? tt_table_values(t, c2) : NULL;
    int64_t k = 0;
    for (int64_t r = 0; r < tt_table_rows(t); r++)
        k += isnan(a[r]) || (b && isnan(b[r]));
    return k;
}

void tt_pg_span(const double *v, int64_t n, int pos, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(v[i]) && (!pos || v[i] > 0)) {
            *lo = v[i] < *lo ? v[i] : *lo;
            *hi = v[i] > *hi ? v[i] : *hi;
        }
}

void tt_pg_pad_range(pg_buf *b, const char *ax, double lo, double hi, double div, int nonneg,
                     int log)
{
    if (lo < hi)
        return;
    double a = log ? 1 : 0, z = log ? 10 : 1; /* no value: an empty frame */
    if (lo == hi && log) {
        a = lo / 2 / div;
        z = lo * 2 / div;
    } else if (lo == hi) {
        a = lo == 0 ? (nonneg ? 0 : -1) : (lo - fabs(lo) * 0.1) / div;
        z = lo == 0 ? 1 : (lo + fabs(lo) * 0.1) / div;
    }
    tt_pg_add(b, "set %srange [%.10g:%.10g]\n", ax, a, z);
}

double tt_pg_max_abs(const double *v, int64_t n)
{
    double m = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(v[i]) && fabs(v[i]) > m)
            m = fabs(v[i]);
    return m;
}

/* ---- sorted values ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int64_t tt_pg_distinct_finite(const double *v, int64_t n, double *out)
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

#define CDF_POINTS 1500

int64_t tt_pg_sorted_values(const tt_table *t, int c, double **out)
{
    int64_t n = tt_table_rows(t), m = 0;
    const double *v = tt_table_values(t, c);
    double *s = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    if (!s)
        return -1;
    for (int64_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            s[m++] = v[i];
    qsort(s, (size_t)m, sizeof *s, cmp_double);
    *out = s;
    return m;
}

void tt_pg_cdf_block(pg_buf *b, const char *name, const double *s, int64_t m, double div)
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
