/* The size kind of tt-plot (tt/plot.h): a metric against the cluster's
 * size, one line per policy, from tt-size's rows; the target as a
 * horizontal line and each policy's smallest size that meets it marked. */
#include "tt/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"

/* The rows of policy text pol, by x ascending (then row), into idx; their
 * count. */
static int64_t policy_rows(const tt_table *t, int cp, const char *pol, const double *x,
                           int64_t *idx)
{
    int64_t m = 0;
    for (int64_t r = 0; r < tt_table_rows(t); r++) {
        if (strcmp(tt_table_text(t, cp, r), pol) != 0)
            continue;
        int64_t k = m++;
        for (; k > 0 && x[idx[k - 1]] > x[r]; k--)
            idx[k] = idx[k - 1];
        idx[k] = r;
    }
    return m;
}

/* The distinct policies of column cp in order of first appearance, into
 * first (their first rows); their count. */
static int64_t policies(const tt_table *t, int cp, int64_t *first)
{
    int64_t n = 0;
    for (int64_t r = 0; r < tt_table_rows(t); r++) {
        int64_t k = 0;
        while (k < n && strcmp(tt_table_text(t, cp, first[k]), tt_table_text(t, cp, r)) != 0)
            k++;
        if (k == n)
            first[n++] = r;
    }
    return n;
}

/* Checks the columns the kind needs; 0 or TT_EINVAL. */
static int need_cols(tt_ctx *ctx, const tt_table *t, const char *xn, const char *yn, int *cp,
                     int *cc, int *cx, int *cy, int *cs, int *cst)
{
    int rc;
    *cp = tt_table_find(t, "policy");
    *cc = tt_table_find(t, "cluster");
    if (*cp < 0 || *cc < 0 || tt_table_values(t, *cp) || tt_table_values(t, *cc))
        return tt_err(ctx, TT_EINVAL, "'%s' has no text columns policy and cluster: not "
                      "tt-size's rows", tt_table_source(t));
    if ((rc = tt_pg_need_col(ctx, t, xn, "column", cx)) ||
        (rc = tt_pg_need_col(ctx, t, yn, "metric", cy)) ||
        (rc = tt_pg_need_col(ctx, t, "smallest", "column", cs)) ||
        (rc = tt_pg_need_col(ctx, t, "stable", "column", cst)))
        return rc;
    return 0;
}

/* The target as the axis reads it: "wf_jct_p99 <= 2.5 min (150 s)" when
 * the axis shows the metric in a unit of its own (div > 1), "jct_p99 <=
 * 3600 s" in the metric's unit, text alone where the metric has no unit
 * or text gives no operator. */
static void target_label(const char *text, const char *metric, double target, const char *mu,
                         const char *au, double div, char *buf, size_t size)
{
    const char *op = strstr(text, "<=") ? "<=" : strstr(text, ">=") ? ">=" : NULL;
    char v[64], w[64];
    tt_pg_num(target, v, sizeof v);
    tt_pg_num(target / div, w, sizeof w);
    if (!op || !mu || !*mu)
        snprintf(buf, size, "%s", text);
    else if (div != 1)
        snprintf(buf, size, "%s %s %s %s (%s %s)", metric, op, w, au, v, mu);
    else
        snprintf(buf, size, "%s %s %s %s", metric, op, v, mu);
}

int tt_plot_size(tt_ctx *ctx, const tt_table *t, const char *metric, double target,
                 const char *target_text, const tt_plot_opts *o, char **script)
{
    *script = NULL;
    const char *xn = o->x ? o->x : "gpus", *yn = o->y ? o->y : metric;
    int cp, cc, cx, cy, cs, cst, rc;
    if ((rc = need_cols(ctx, t, xn, yn, &cp, &cc, &cx, &cy, &cs, &cst)))
        return rc;
    int64_t n = tt_table_rows(t), np;
    const double *x = tt_table_values(t, cx), *y = tt_table_values(t, cy);
    const double *sm = tt_table_values(t, cs), *st = tt_table_values(t, cst);
    int64_t *first = (int64_t *)malloc((size_t)n * sizeof *first);
    int64_t *idx = (int64_t *)malloc((size_t)n * sizeof *idx);
    if (!first || !idx) {
        free(first);
        free(idx);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    int same = strcmp(yn, metric) == 0; /* the target is drawn on the target's metric */
    double div, top = tt_pg_max_abs(y, n);
    if (same && fabs(target) > top)
        top = fabs(target);
    char unit[64], ly[160], lx[160], title[768], lab[256], goal[200];
    const char *u = tt_plot_unit(tt_table_units(t, cy), top, &div, unit, sizeof unit);
    /* the target in the metric's unit (the title) and in the axis's (the key) */
    int cm = tt_table_find(t, metric);
    target_label(target_text, metric, target, cm >= 0 ? tt_table_units(t, cm) : NULL, u, 1, goal,
                 sizeof goal);
    tt_pg_axis_label(yn, u, ly, sizeof ly);
    snprintf(lx, sizeof lx, "cluster size [%s]", strcmp(xn, "gpus") == 0    ? "GPUs"
                                                 : strcmp(xn, "nodes") == 0 ? "nodes"
                                                                            : xn);
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 700);
    tt_pg_add(&b, "set style textbox opaque noborder\n"); /* labels over the lines */
    np = policies(t, cp, first);
    int64_t left = 0, nlabel = 0;
    for (int64_t p = 0; p < np; p++) {
        int64_t m = policy_rows(t, cp, tt_table_text(t, cp, first[p]), x, idx);
        tt_pg_add(&b, "$p%lld << EOD\n", (long long)p);
        for (int64_t k = 0; k < m; k++) {
            if (isnan(y[idx[k]]) || isnan(x[idx[k]])) {
                left++;
                continue;
            }
            tt_pg_add(&b, "%.10g\t%.10g\n", x[idx[k]], y[idx[k]] / div);
        }
        tt_pg_add(&b, "EOD\n$m%lld << EOD\n", (long long)p);
        for (int64_t k = 0; k < m; k++) {
            int64_t r = idx[k];
            if (sm[r] != 1 || isnan(y[r]))
                continue;
            tt_pg_add(&b, "%.10g\t%.10g\n", x[r], y[r] / div);
        }
        tt_pg_add(&b, "EOD\n");
        for (int64_t k = 0; k < m; k++) { /* the same rows' labels */
            int64_t r = idx[k];
            if (sm[r] != 1 || isnan(y[r]))
                continue;
            snprintf(lab, sizeof lab, "%s: %s%s", tt_table_text(t, cp, r),
                     tt_table_text(t, cc, r), st[r] == 1 ? "" : " (not stable)");
            /* each policy's label a line above the one before, so that
             * policies meeting the target at one size do not hide each other */
            tt_pg_add(&b, "set label %lld ", (long long)++nlabel);
            tt_pg_quoted(&b, lab);
            tt_pg_add(&b, " at first %.10g, first %.10g offset 0,%.1f center font ',11' "
                          "tc rgb '%s' boxed front\n", x[r], y[r] / div,
                      1.6 + 1.4 * (double)(nlabel - 1), tt_pg_series_colour((int)p));
        }
    }
    if (o->left_out)
        *o->left_out = left;
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "the smallest cluster that meets %s, per policy", goal);
    tt_pg_title(&b, "set title", title);
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_title(&b, "set ylabel", ly);
    tt_pg_add(&b, "set key top right font ',11'\nset grid lc rgb '#dddddd'\n"
                  "set offsets graph 0.03, graph 0.03, graph 0.1, graph 0.05\n");
    double lo, hi;
    tt_pg_span(x, n, 0, &lo, &hi);
    tt_pg_pad_range(&b, "x", lo, hi, 1, 1, 0);
    tt_pg_add(&b, "plot ");
    for (int64_t p = 0; p < np; p++) {
        const char *c = tt_pg_series_colour((int)p);
        tt_pg_add(&b, "$p%lld using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '%s' title ",
                  (long long)p, c);
        tt_pg_quoted(&b, tt_table_text(t, cp, first[p]));
        tt_pg_add(&b, ", \\\n  $m%lld using 1:2 with points pt 6 ps 3 lw 2 lc rgb '%s' "
                      "notitle, \\\n  ", (long long)p, c);
    }
    if (same) {
        target_label(target_text, metric, target, tt_table_units(t, cy), u, div, goal,
                     sizeof goal);
        snprintf(lab, sizeof lab, "target %s", goal);
        tt_pg_add(&b, "%.10g with lines dt 2 lw 2 lc rgb '#555555' title ", target / div);
        tt_pg_quoted(&b, lab);
    } else
        tt_pg_add(&b, "NaN notitle");
    tt_pg_add(&b, "\n");
    free(first);
    free(idx);
    return tt_pg_finish(ctx, &b, script);
}
