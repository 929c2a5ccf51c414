/* The lines kind of tt-plot (tt/plot.h): a metric against one swept
 * parameter, one line per value of the grouping parameters (--by), one
 * panel per value of another (--panel); the elastic baselines against the
 * resize cost at two loads (docs/figures/philly-elastic-*.png) are its
 * first use. */
#include "tt/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"

#define MAX_BY 8
#define MAX_LINES 16 /* lines a panel: the series colours repeat after 8 */
#define MAX_PANELS 6

/* Distinct keys in the order they first appear: the groups or the panels. */
typedef struct {
    char key[MAX_LINES][256];
    int n;
} keys;

/* The index of key in k, added when new; -1 when k is full. */
static int key_index(keys *k, const char *key, int max)
{
    for (int i = 0; i < k->n; i++)
        if (strcmp(k->key[i], key) == 0)
            return i;
    if (k->n == max)
        return -1;
    snprintf(k->key[k->n], sizeof k->key[0], "%s", key);
    return k->n++;
}

/* "el_up=2 resize=term": the values of columns by[0..nby) in row r. */
static void row_key(const tt_table *t, const int *by, int nby, int64_t r, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < nby && at < size; i++) {
        char num[64];
        at += (size_t)snprintf(buf + at, size - at, "%s%s=%s", i ? " " : "",
                               tt_table_name(t, by[i]),
                               tt_pg_cell_text(t, by[i], r, num, sizeof num));
    }
}

/* The columns named in list ("a,b"), into col; their count, or a code. */
static int by_columns(tt_ctx *ctx, const tt_table *t, const char *list, int *col)
{
    int n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        if (n == MAX_BY)
            return tt_err(ctx, TT_EINVAL, "--by: at most %d columns", MAX_BY);
        if ((col[n] = tt_table_find(t, name)) < 0)
            return tt_err(ctx, TT_EINVAL, "--by: no column '%s'", name);
        n++;
        p += len + (p[len] == ',');
    }
    return n ? n : tt_err(ctx, TT_EINVAL, "--by: no column named");
}

/* A row on a line: its x, its index (the tie-break: qsort is not stable). */
typedef struct {
    double x;
    int64_t r;
} point;

static int cmp_points(const void *a, const void *b)
{
    const point *p = (const point *)a, *q = (const point *)b;
    if (p->x != q->x)
        return (p->x > q->x) - (p->x < q->x);
    return (p->r > q->r) - (p->r < q->r);
}

int tt_plot_lines(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script)
{
    *script = NULL;
    const char *xn = o->x ? o->x : "resize_cost", *yn = o->y ? o->y : "jct_mean";
    int cx, cy, cp = -1, by[MAX_BY], nby = 0, rc;
    if ((rc = tt_pg_need_col(ctx, t, xn, "parameter", &cx)) || (rc = tt_pg_swept(ctx, t, cx)) ||
        (rc = tt_pg_need_col(ctx, t, yn, "metric", &cy)))
        return rc;
    if (o->by && (nby = by_columns(ctx, t, o->by, by)) < 0)
        return nby;
    if (o->panel && (cp = tt_table_find(t, o->panel)) < 0)
        return tt_err(ctx, TT_EINVAL, "--panel: no column '%s'", o->panel);
    int64_t n = tt_table_rows(t), *line = (int64_t *)malloc((size_t)(n ? n : 1) * sizeof *line);
    point *order = (point *)malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!line || !order) {
        free(line);
        free(order);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    const double *x = tt_table_values(t, cx), *y = tt_table_values(t, cy);
    keys groups = {{{0}}, 0}, panels = {{{0}}, 0};
    int64_t left = 0;
    char key[256], num[64];
    for (int64_t r = 0; r < n && !rc; r++) {
        int g = 0, p = 0;
        row_key(t, by, nby, r, key, sizeof key);
        if (nby && (g = key_index(&groups, key, MAX_LINES)) < 0)
            rc = tt_err(ctx, TT_EINVAL, "--by %s: more than %d lines", o->by, MAX_LINES);
        if (!rc && cp >= 0 &&
            (p = key_index(&panels, tt_pg_cell_text(t, cp, r, num, sizeof num), MAX_PANELS)) < 0)
            rc = tt_err(ctx, TT_EINVAL, "--panel %s: more than %d panels", o->panel, MAX_PANELS);
        line[r] = isfinite(x[r]) && !isnan(y[r]) ? (int64_t)p * MAX_LINES + g : -1;
        left += line[r] < 0;
    }
    groups.n = nby ? groups.n : 1;
    panels.n = cp >= 0 ? panels.n : 1;
    if (!rc && o->nlabels > groups.n)
        rc = tt_err(ctx, TT_EINVAL, "%d labels for %d lines", o->nlabels, groups.n);
    if (!rc && left == n)
        rc = tt_err(ctx, TT_EEMPTY, "no row with a finite %s and a %s", xn, yn);
    /* the rows of each line by x: two at one x would draw a zigzag */
    int64_t m = 0;
    for (int64_t l = 0; !rc && l < (int64_t)panels.n * MAX_LINES; l++) {
        int64_t first = m;
        for (int64_t r = 0; r < n; r++)
            if (line[r] == l)
                order[m++] = (point){x[r], r};
        qsort(order + first, (size_t)(m - first), sizeof *order, cmp_points);
        for (int64_t k = first + 1; k < m && !rc; k++)
            if (order[k].x == order[k - 1].x)
                rc = tt_err(ctx, TT_EINVAL, "rows %lld and %lld share %s=%s on one line: name "
                            "what else varies with --by, --panel or --where",
                            (long long)order[k - 1].r + 1, (long long)order[k].r + 1, xn,
                            tt_pg_cell_text(t, cx, order[k].r, num, sizeof num));
    }
    if (rc) {
        free(line);
        free(order);
        return rc;
    }
    if (o->left_out)
        *o->left_out = left;
    double dy, lo, hi;
    char uy[64], lx[160], ly[160], title[768], about[256], fixed[512];
    tt_plot_unit(tt_table_units(t, cy), tt_pg_max_abs(y, n), &dy, uy, sizeof uy);
    tt_pg_axis_label(xn, tt_table_units(t, cx), lx, sizeof lx);
    tt_pg_axis_label(yn, uy, ly, sizeof ly);
    int logx = tt_plot_is_log(x, n);
    int w = panels.n > 1 ? 1500 : 1000, h = 700;
    pg_buf b = {0};
    tt_pg_preamble(&b, o, w, h);
    /* one datablock a line: "x y" by x */
    int64_t k = 0;
    for (int p = 0; p < panels.n; p++)
        for (int g = 0; g < groups.n; g++) {
            tt_pg_add(&b, "$p%dl%d << EOD\n", p, g);
            for (; k < m && line[order[k].r] == (int64_t)p * MAX_LINES + g; k++)
                tt_pg_add(&b, "%.10g\t%.10g\n", order[k].x, y[order[k].r] / dy);
            tt_pg_add(&b, "EOD\n");
        }
    tt_pg_fixed_params(t, xn, o->panel, fixed, sizeof fixed);
    tt_pg_about(t, about, sizeof about);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%.200s%s%s against %s%s%.400s%s", about,
                 *about ? ": " : "", yn, xn, *fixed ? " (" : "", fixed, *fixed ? ")" : "");
    tt_pg_add(&b, "set multiplot layout 1,%d title ", panels.n);
    tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, w, 0.9 * 13 / 15));
    tt_pg_add(&b, " font ',15'\nset key top left Left reverse samplen 2 font ',12'\n");
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_title(&b, "set ylabel", ly);
    if (logx)
        tt_pg_add(&b, "set logscale x\nset format x '%%g'\n");
    tt_pg_span(x, n, logx, &lo, &hi);
    tt_pg_pad_range(&b, "x", lo, hi, 1, 0, logx);
    /* times and counts from 0, so that ratios read true; room above the
     * lines for the key, and beside the first and last points */
    tt_pg_add(&b, "set yrange [0:*]\nset offsets graph 0.03, graph 0.03, graph 0.3, 0\n");
    for (int p = 0; p < panels.n; p++) {
        char pt[320];
        snprintf(pt, sizeof pt, "%s=%s", o->panel ? o->panel : "", panels.key[p]);
        tt_pg_title(&b, "set title", cp >= 0 ? pt : "");
        tt_pg_add(&b, "plot ");
        for (int g = 0; g < groups.n; g++) {
            const char *label = g < o->nlabels ? o->labels[g] : nby ? groups.key[g] : yn;
            tt_pg_add(&b, "%s$p%dl%d using 1:2 with linespoints lw 2 pt %d ps 1.2 lc rgb '%s' "
                          "title ", g ? ", \\\n  " : "", p, g, 5 + 2 * (g % 4),
                      tt_pg_series_colour(g));
            tt_pg_quoted(&b, label);
        }
        tt_pg_add(&b, "\n");
    }
    tt_pg_add(&b, "unset multiplot\n");
    free(line);
    free(order);
    return tt_pg_finish(ctx, &b, script);
}
