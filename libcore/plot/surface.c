/* The surface kind of tt-plot (tt/plot.h): a metric over two swept
 * parameters as a heat map with contours, or a 3-D view. Its grid axes
 * and heat map are shared with the search kind (plotgrid.h). */
#include "tt/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"

/* ---- the scale of an axis ---- */

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
    int64_t m = tt_pg_distinct_finite(v, n, d);
    int r = is_log_sorted(d, m);
    free(d);
    return r;
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
    a->m = tt_pg_distinct_finite(v, n, a->vals);
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

/* A labelled tic: its text, its value and where it is in plot space. */
typedef struct {
    char label[64];
    double v, pos;
} pg_tic;

#define MAX_TICS 128

static void tic_add(pg_tic *t, int *n, const char *label, double v, double pos)
{
    if (*n < MAX_TICS) {
        snprintf(t[*n].label, sizeof t[*n].label, "%s", label);
        t[*n].v = v;
        t[(*n)++].pos = pos;
    }
}

/* The tics to label: every grid value when there are few, else round
 * values (time steps for seconds on a log axis). */
static int axis_tic_list(const pg_axis *a, pg_tic *t)
{
    int64_t m = a->m;
    int n = 0;
    if (m <= 8) {
        for (int64_t k = 0; k < m; k++) {
            char num[64];
            tt_pg_num(a->vals[k], num, sizeof num);
            tic_add(t, &n, num, a->vals[k], to_plot(a, a->vals[k]));
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
                            times[j].v <= hi)
                            tic_add(t, &n, times[j].label, times[j].v, log10(times[j].v));
                } else if (v >= lo && v <= hi) {
                    char num[64];
                    tt_pg_num(v, num, sizeof num);
                    tic_add(t, &n, num, v, log10(v));
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
            tic_add(t, &n, num, v, v);
        }
    }
    return n;
}

/* How round a tic's value is, to choose among labels that crowd: seconds
 * by the largest time unit they are a whole number of (3600 before 1800),
 * other numbers by their trailing zeros. Higher first. */
static int roundness(const pg_axis *a, double v)
{
    if (strcmp(a->units, "s") == 0) {
        static const double unit[] = {604800, 86400, 3600, 600, 60, 10, 1};
        for (int i = 0; i < 7; i++)
            if (v >= unit[i] && fmod(v, unit[i]) == 0)
                return 8 - i;
        return 0;
    }
    int z = 0;
    for (double w = fabs(v); w >= 10 && w == floor(w) && fmod(w, 10) == 0 && z < 20; w /= 10)
        z++;
    return v == floor(v) ? z + 1 : 0;
}

/* Tic marks at every tic value, and labels where they fit with two
 * glyphs between them: the axis's first and last, then the roundest
 * (3600 before 1800 beside it on a narrow log axis), then in order; a
 * value whose label does not fit keeps its mark. The edges (0, inf) are
 * labelled. */
void tt_pg_axis_tics(pg_buf *b, const pg_axis *a, const char *ax)
{
    int64_t z = a->zero_edge, m = a->m;
    pg_tic t[MAX_TICS];
    int n = axis_tic_list(a, t), first = 1, order[MAX_TICS], shown[MAX_TICS] = {0};
    double per = a->px > 0 ? a->px / (a->hi[a->ncell - 1] - a->lo[0]) : 0;
    for (int k = 0; k < n; k++)
        order[k] = k;
    for (int i = 1; i < n; i++) /* ends first, then roundest, then in order: a stable insertion */
        for (int j = i; j > 0; j--) {
            int p = order[j - 1], q = order[j];
            int rp = p == 0 || p == n - 1 ? 99 : roundness(a, t[p].v);
            int rq = q == 0 || q == n - 1 ? 99 : roundness(a, t[q].v);
            if (rq <= rp)
                break;
            order[j - 1] = q;
            order[j] = p;
        }
    for (int i = 0; i < n; i++) {
        int k = order[i], fits = 1;
        double w = a->side_by_side ? PG_GLYPH_W * (double)strlen(t[k].label) : PG_GLYPH_H;
        for (int j = 0; j < n && fits && per > 0; j++) {
            if (!shown[j])
                continue;
            double wj = a->side_by_side ? PG_GLYPH_W * (double)strlen(t[j].label) : PG_GLYPH_H;
            double need = a->side_by_side ? (wj + w) / 2 + 2 * PG_GLYPH_W : 1.25 * PG_GLYPH_H;
            fits = fabs(t[k].pos - t[j].pos) * per >= need;
        }
        shown[k] = fits;
    }
    tt_pg_add(b, "set %stics out nomirror (", ax);
    for (int k = 0; k < n; k++) {
        tt_pg_add(b, "%s'%s' %.10g", first ? "" : ", ", shown[k] ? t[k].label : "", t[k].pos);
        first = 0;
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

/* ---- the heat map ---- */

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
    /* no offset: gnuplot's margin then holds the label (an offset clips it).
     * A 3-D view fills the canvas to its right edge, where the bar's label
     * then falls off: the view is kept left of a bar placed with room. */
    if (view3d && cblabel)
        tt_pg_add(b, "\nset rmargin at screen 0.82\nset colorbox vertical user origin screen 0.86, "
                  "screen 0.3 size screen 0.025, screen 0.4\nset cbtics out\n");
    else
        tt_pg_add(b, "\nset colorbox\nset cbtics out\n");
    /* contour labels: dark on a pale box, readable over any colour */
    if (h->contour && !view3d)
        tt_pg_add(b, "set style textbox opaque fc rgb '#50ffffff' noborder margins 1,1\n");
}

void tt_pg_heat_layers(pg_buf *b, int id, const pg_heat *h)
{
    tt_pg_add(b, "$cells%d using 5:6:1:2:3:4:7 with boxxyerror fs solid 1.0 noborder fc palette z "
              "notitle",
           id);
    /* each contour labelled with its value at the third point of each of
     * its pieces (the shortest, at a corner, go unlabelled) */
    if (h->contour)
        tt_pg_add(b, ", $contour%d using 1:2 with lines lc rgb '#60ffffff' lw 1.2 notitle"
                  ", $contour%d using 1:2:(sprintf('%%g', $3)) every ::2::2 with labels boxed "
                  "font ',10' tc rgb '#101010' notitle",
                  id, id);
}

/* ---- surface ---- */

/* One panel: metric zc over the grid; its title is head over a line that
 * says which point is marked. A panel of a facet names its metric in the
 * title rather than beside the colour bar, where the next panel is. */
static void surface_panel(pg_buf *b, const pg_grid *g, int zc, int id, const tt_plot_opts *o,
                          const char *head, double head_px, int facet)
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
    tt_pg_row_params(t, br, NULL, NULL, params, sizeof params);
    int64_t ties = 0;
    for (int64_t r = br + 1; r < n; r++)
        ties += z[r] == z[br];
    snprintf(best, sizeof best, "\xe2\x97\x8b least %s: %s %s at %s", tt_table_name(t, zc), num,
             h.unit, params);
    if (ties)
        snprintf(best + strlen(best), sizeof best - strlen(best), " (1st of %lld equal)",
                 (long long)ties + 1);
    tt_pg_add(b, "set title ");
    tt_pg_quoted_fit(b, facet ? zlabel : head, facet ? 0 : head_px);
    tt_pg_add(b, ".\"\\n\".");
    tt_pg_quoted(b, best);
    /* over the middle of the canvas, not of a 3-D view kept left of its bar */
    tt_pg_add(b, "%s\nunset key\n", o->view3d && !facet ? " offset screen 0.09,0" : "");
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
    if (o->left_out)
        *o->left_out = tt_pg_count_nan(t, cz, cf);
    for (int c = cz; c >= 0; c = c == cz ? cf : -1)
        if (tt_plot_best(tt_table_values(t, c), tt_table_rows(t)) < 0)
            return tt_err(ctx, TT_EEMPTY, "'%s': no value of %s (empty in all %lld rows: it "
                          "cannot be computed)", tt_table_source(t),
                          tt_table_name(t, c), (long long)tt_table_rows(t));
    pg_grid g;
    memset(&g, 0, sizeof g);
    rc = grid_build(ctx, t, cx, cy, &g);
    if (rc) {
        tt_pg_grid_free(&g);
        return rc;
    }
    pg_buf b = {0};
    int w = cf >= 0 ? 1500 : 1000, h = cf >= 0 ? 650 : 750;
    tt_pg_preamble(&b, o, w, h);
    /* the axes' lengths on the canvas, roughly: a panel less its margins
     * and colour bar; a 3-D view's axes foreshortened */
    double pw = (o->width > 0 ? o->width : w) / (cf >= 0 ? 2.0 : 1.0);
    double ph = o->height > 0 ? o->height : h;
    if (o->view3d && cf < 0)
        pw *= 0.82; /* the view is kept left of its colour bar */
    g.x.px = pw * (o->view3d ? 0.45 : 0.70);
    g.y.px = o->view3d ? pw * 0.18 : ph * (cf >= 0 ? 0.68 : 0.72);
    g.x.side_by_side = 1;
    char title[768], fixed[256], about[256];
    tt_pg_fixed_params(t, xn, yn, fixed, sizeof fixed);
    tt_pg_about(t, about, sizeof about);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s%s%s%s%s over %s x %s (%lld configurations%s%s)", about,
                 *about ? ": " : "", zn, cf >= 0 ? " and " : "", cf >= 0 ? o->facet : "", xn, yn,
                 (long long)tt_table_rows(t), *fixed ? "; " : "", fixed);
    /* numbers only, and contour tables come out space-separated */
    tt_pg_add(&b, "set datafile separator whitespace\nunset grid\n");
    if (cf >= 0) {
        /* a default title too wide for the canvas goes on two lines */
        tt_pg_add(&b, "set multiplot layout 1,2 title ");
        tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, w, 0.95 * 13 / 15)); /* in 15 points */
        tt_pg_add(&b, " font ',15'\n");
        surface_panel(&b, &g, cz, 1, o, NULL, 0, 1);
        surface_panel(&b, &g, cf, 2, o, NULL, 0, 1);
        tt_pg_add(&b, "unset multiplot\n");
    } else {
        surface_panel(&b, &g, cz, 1, o, title, o->title ? 0 : pw * 0.85, 0);
    }
    tt_pg_grid_free(&g);
    return tt_pg_finish(ctx, &b, script);
}

