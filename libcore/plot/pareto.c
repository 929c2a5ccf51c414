/* The pareto kind of tt-plot (tt/plot.h): two metrics of a sweep, both
 * minimised, with the non-dominated configurations and the baselines;
 * and the cdf kind: per-job values of one or more runs as empirical CDFs
 * on a log axis. */
#include "tt/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"
#include "tt/sim.h"

/* ---- the front ---- */

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

/* ---- pareto ---- */

/* A text field of a datablock: no tab, newline, control character or
 * double quote (gnuplot would split or unquote there). */
static void sb_field(pg_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        tt_pg_add(b, "%c", *p < 0x20 || *p == 0x7f ? ' ' : *p == '"' ? '\'' : (char)*p);
}

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

/* The configuration of row r of a baseline b, its label: w0, w1 and theta,
 * then each other parameter whose value the figure's rows t do not all
 * share (a parameter t lacks: against its default). Read from b, not
 * guessed: a strict run at another load says so. */
static void config_label(const tt_table *t, const tt_table *b, int64_t r, char *buf, size_t size)
{
    tt_params d;
    tt_params_default(&d);
    size_t len = 0;
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < TT_NPARAMS && len + 1 < size; i++) {
            const char *pn = tt_param_names[i];
            int timer = strcmp(pn, "w0") == 0 || strcmp(pn, "w1") == 0 || strcmp(pn, "theta") == 0;
            int c = tt_table_find(b, pn), tc = tt_table_find(t, pn);
            if (c < 0 || timer != (pass == 0))
                continue;
            char num[64], tnum[TT_PARAM_TEXT_MAX];
            const char *v = tt_pg_cell_text(b, c, r, num, sizeof num), *tv = tnum;
            if (tc >= 0)
                tv = tt_pg_varies(t, tc) ? NULL : tt_pg_cell_text(t, tc, 0, tnum, sizeof tnum);
            else
                tt_params_format(&d, NULL, i, tnum, sizeof tnum); /* a mix: "", left out */
            if (!timer && ((tv && strcmp(v, tv) == 0) || (tc < 0 && !*tv)))
                continue;
            int w = snprintf(buf + len, size - len, "%s%s=%s", len ? ", " : "", pn, v);
            len = w < 0 ? size : len + (size_t)w;
        }
    if (len >= size && size > 4)
        strcpy(buf + size - 4, "...");
}

/* Points x y [label] of rows of t, scaled; which: 0 all, 1 strict, 2
 * no-wait (by baseline_name), 3 every row of a baseline labelled with its
 * configuration against the figure's rows of. */
static int64_t points_block(pg_buf *b, const char *name, const tt_table *t, int cx, int cy,
                            double dx, double dy, int which, const tt_table *of)
{
    const double *x = tt_table_values(t, cx), *y = tt_table_values(t, cy);
    int64_t k = 0;
    tt_pg_add(b, "%s << EOD\n", name);
    for (int64_t r = 0; r < tt_table_rows(t); r++) {
        char nb[128], params[256];
        const char *bn = which == 1 || which == 2 ? baseline_name(t, r, nb, sizeof nb) : NULL;
        if (isnan(x[r]) || isnan(y[r]) ||
            (which == 1 && (!bn || strcmp(bn, "strict consolidation") != 0)) ||
            (which == 2 && (!bn || strcmp(bn, "no-wait") != 0)))
            continue;
        tt_pg_add(b, "%.10g\t%.10g", x[r] / dx, y[r] / dy);
        if (which == 3) {
            config_label(of, t, r, params, sizeof params);
            tt_pg_add(b, "\t");
            sb_field(b, params);
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
        if ((!o->baseline_any &&
             (rc = tt_pg_same_origin(ctx, t, base[i], "a baseline is a result file of tt-sim -o "
                                     "of the same trace and cluster; --baseline-any draws it "
                                     "unchecked"))) ||
            (rc = tt_pg_need_col(ctx, base[i], xn, "metric", &bx[i])) ||
            (rc = tt_pg_need_col(ctx, base[i], yn, "metric", &by[i])))
            return rc;
        double a = tt_pg_max_abs(tt_table_values(base[i], bx[i]), tt_table_rows(base[i]));
        double c = tt_pg_max_abs(tt_table_values(base[i], by[i]), tt_table_rows(base[i]));
        mx = a > mx ? a : mx;
        my = c > my ? c : my;
    }
    int64_t n = tt_table_rows(t), empty = tt_pg_count_nan(t, cx, cy), left = empty;
    for (int i = 0; i < nb; i++)
        left += tt_pg_count_nan(base[i], bx[i], by[i]);
    if (o->left_out)
        *o->left_out = left;
    int64_t *front = (int64_t *)malloc((size_t)n * sizeof *front);
    if (!front)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t k = tt_plot_pareto_front(tt_table_values(t, cx), tt_table_values(t, cy), n, front);
    if (k <= 0) {
        free(front);
        return k < 0 ? tt_err(ctx, TT_ENOMEM, "out of memory")
                     : tt_err(ctx, TT_EEMPTY, "'%s': no row has both %s and %s (empty in "
                              "all %lld rows: they cannot be computed)",
                              tt_table_source(t), xn, yn, (long long)empty);
    }
    double dx, dy;
    char ux[64], uy[64], lx[160], ly[160], title[768], fixed[256], about[256];
    tt_plot_unit(tt_table_units(t, cx), mx, &dx, ux, sizeof ux);
    tt_plot_unit(tt_table_units(t, cy), my, &dy, uy, sizeof uy);
    tt_pg_axis_label(xn, ux, lx, sizeof lx);
    tt_pg_axis_label(yn, uy, ly, sizeof ly);
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 750);
    tt_pg_fixed_params(t, NULL, NULL, fixed, sizeof fixed);
    tt_pg_about(t, about, sizeof about);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s%s%s against %s, both minimised (%lld configurations%s%s)",
                 about, *about ? ": " : "", yn, xn, (long long)n, *fixed ? "; " : "", fixed);
    tt_pg_add(&b, "set title ");
    tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, 1000, 0.85));
    tt_pg_add(&b, "\n");
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_title(&b, "set ylabel", ly);
    tt_pg_add(&b, "set key below left Left reverse samplen 1.5 font ',12' maxrows 3\n"
               "set offsets graph 0.22, graph 0.22, graph 0.08, graph 0.05\n");
    /* one value on an axis (all points alike): a range around it */
    for (int a = 0; a < 2; a++) {
        double lo, hi, l, h;
        tt_pg_span(tt_table_values(t, a ? cy : cx), tt_table_rows(t), 0, &lo, &hi);
        for (int i = 0; i < nb; i++) {
            tt_pg_span(tt_table_values(base[i], a ? by[i] : bx[i]), tt_table_rows(base[i]), 0,
                       &l, &h);
            lo = l < lo ? l : lo;
            hi = h > hi ? h : hi;
        }
        if (lo == hi)
            tt_pg_pad_range(&b, a ? "y" : "x", lo, hi, a ? dy : dx, 0, 0);
    }
    int64_t all = points_block(&b, "$all", t, cx, cy, dx, dy, 0, NULL);
    /* the front, each point labelled with the parameters that vary */
    tt_pg_add(&b, "$front << EOD\n");
    const double *x = tt_table_values(t, cx), *y = tt_table_values(t, cy);
    int64_t npts = 0;
    for (int64_t i = 0, j; i < k; i = j) {
        /* configurations on one point share one label: the first of them */
        for (j = i + 1; j < k && x[front[j]] == x[front[i]] && y[front[j]] == y[front[i]]; j++)
            ;
        char params[256];
        tt_pg_row_params(t, front[i], NULL, NULL, params, sizeof params);
        tt_pg_add(&b, "%.10g\t%.10g\t", x[front[i]] / dx, y[front[i]] / dy);
        sb_field(&b, params);
        if (j - i > 1)
            tt_pg_add(&b, " (+%lld more)", (long long)(j - i - 1));
        tt_pg_add(&b, "\n");
        npts++;
    }
    tt_pg_add(&b, "EOD\n");
    int64_t ns = points_block(&b, "$strict", t, cx, cy, dx, dy, 1, NULL);
    int64_t nw = points_block(&b, "$nowait", t, cx, cy, dx, dy, 2, NULL);
    int64_t nbp[64];
    for (int i = 0; i < nb; i++) {
        char name[32];
        snprintf(name, sizeof name, "$base%d", i);
        nbp[i] = points_block(&b, name, base[i], bx[i], by[i], dx, dy, 3, t);
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
        if (!nbp[i])
            continue; /* no point to draw: left out and counted */
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

/* ---- cdf ---- */

/* The least of 1, 2 and 5 times a power of ten that is >= v > 0. */
static double nice_up(double v)
{
    double p = pow(10, floor(log10(v)));
    return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
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
    /* Where most values are 0 (queueing on a quiet cluster), every curve
     * starts high and on a 0..1 axis runs along the top of the frame: the
     * axis then starts a little below the lowest start. */
    double low = 1;
    for (int i = 0; i < n; i++) {
        const double *v = tt_table_values(runs[i], tt_table_find(runs[i], xn));
        int64_t m = 0, zeros = 0;
        for (int64_t r = 0; r < tt_table_rows(runs[i]); r++) {
            m += !isnan(v[r]);
            zeros += v[r] <= 0;
        }
        low = m && (double)zeros / (double)m < low ? (double)zeros / (double)m : low;
    }
    double ylo = low >= 0.5 ? 1 - nice_up((1 - low) * 1.2) : 0;
    /* on a log axis the unit suits the middle of the data, not its end */
    double div, *s0 = NULL;
    int64_t m0 = tt_pg_sorted_values(runs[0], tt_table_find(runs[0], xn), &s0);
    char unit[64], lx[160], title[768], about[256], other[256];
    /* the trace and cluster in the title when the runs share them, else in
     * each key */
    tt_pg_about(runs[0], about, sizeof about);
    int shared = 1;
    for (int i = 1; i < n; i++) {
        tt_pg_about(runs[i], other, sizeof other);
        shared &= strcmp(other, about) == 0;
    }
    tt_plot_unit(tt_table_units(runs[0], tt_table_find(runs[0], xn)), m0 > 0 ? s0[m0 / 2] : mx,
                 &div, unit, sizeof unit);
    free(s0);
    tt_pg_axis_label(xn, unit, lx, sizeof lx);
    snprintf(lx + strlen(lx), sizeof lx - strlen(lx), " (log scale)");
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 700);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s%sCDF of %s per job", shared ? about : "",
                 shared && *about ? ": " : "", xn);
    tt_pg_add(&b, "set title ");
    tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, 1000, 0.85));
    tt_pg_add(&b, "\n");
    tt_pg_title(&b, "set xlabel", lx);
    if (ylo > 0)
        tt_pg_add(&b, "set ylabel 'fraction of jobs (axis from %g)'\n", ylo);
    else
        tt_pg_add(&b, "set ylabel 'fraction of jobs'\n");
    /* a little room above 1, so that the curves' ends are not the frame */
    tt_pg_add(&b, "set logscale x\nset format x '%%g'\nset yrange [%g:%.10g]\n"
               "set ytics %g,%g,1\nset xrange [%.10g:%.10g]\nset mxtics 10\n"
               /* where rising curves leave room: above their start on a
                * full axis, below their end on a cut one */
               "set key %s Left reverse samplen 2 font ',12'\n",
           ylo, 1 + (1 - ylo) * 0.02, ylo, (1 - ylo) / 5, mn / div, mx / div * 1.05,
           ylo > 0 ? "bottom right" : "top left");
    for (int i = 0; i < n && !b.oom; i++) {
        double *s = NULL;
        int64_t m = tt_pg_sorted_values(runs[i], tt_table_find(runs[i], xn), &s);
        if (m < 0) {
            free(b.s);
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        }
        char name[32];
        snprintf(name, sizeof name, "$cdf%d", i);
        tt_pg_cdf_block(&b, name, s, m, div);
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
        /* a key without a label names the run: its file, what it is of
         * when that is not in the title, its configuration */
        char key[1200], run[400];
        tt_pg_about(t, other, sizeof other);
        tt_pg_run_params(t, run, sizeof run);
        if (labels && labels[i])
            snprintf(key, sizeof key, "%s (", labels[i]);
        else
            snprintf(key, sizeof key, "%s (%s%s%s%s", base_name(tt_table_source(t)),
                     shared ? "" : other, !shared && *other ? "; " : "", run, *run ? "; " : "");
        snprintf(key + strlen(key), sizeof key - strlen(key), "%lld jobs", (long long)m);
        if (zeros)
            snprintf(key + strlen(key), sizeof key - strlen(key), ", %lld at 0", (long long)zeros);
        if (rows > m)
            snprintf(key + strlen(key), sizeof key - strlen(key), ", %lld not run",
                     (long long)(rows - m));
        snprintf(key + strlen(key), sizeof key - strlen(key), ")");
        tt_pg_add(&b, "%s $cdf%d using 1:2 with steps lw 2 lc rgb '%s' title ", i ? ", \\\n "
                                                                              : "",
               i, tt_pg_series_colour(i));
        tt_pg_quoted(&b, key);
    }
    tt_pg_add(&b, "\n");
    return tt_pg_finish(ctx, &b, script);
}

