/* The rolling kind of tt-plot (tt/plot.h): a rolling tune (tt-tune
 * --rolling) window by window: the choice in force, one panel per searched
 * dimension, and the objective of each window under that choice against
 * the best static choice in hindsight, strict consolidation and the first
 * window's choice. */
#include "tt/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"
#include "tt/sim.h"

#define MAX_DIMS 8 /* panels of parameters; the others are named in the title */

/* The columns of the rolling rows that are not a searched dimension. */
static const char *const fixed_cols[] = {
    "window",      "start",          "end",         "jobs",       "job_from",
    "job_to",      "objective",      "exact",       "sims",       "next_jobs",
    "next_choice", "next_hindsight", "next_strict", "next_first", "row",
    "next_choice_row", "next_hindsight_row", "next_strict_row", "next_first_row"};

/* A searched dimension: a parameter (w0) or a class's own timer (w0.bert). */
static int is_dim(const tt_table *t, int c)
{
    const char *name = tt_table_name(t, c);
    for (size_t i = 0; i < sizeof fixed_cols / sizeof fixed_cols[0]; i++)
        if (strcmp(name, fixed_cols[i]) == 0)
            return 0;
    if (!tt_table_values(t, c))
        return 0;
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)strcspn(name, "."), name);
    return tt_pg_is_param(head);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Parameter order (w0, w1, theta, ...), a class's timers after their
 * parameter: the order of tt-tune's -s where it follows the table. */
static int dim_rank(const tt_table *t, int c)
{
    const char *name = tt_table_name(t, c);
    size_t n = strcspn(name, ".");
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strlen(tt_param_names[i]) == n && strncmp(tt_param_names[i], name, n) == 0)
            return 2 * i + (name[n] == '.');
    return 2 * TT_NPARAMS;
}

/* The objective's lines: column, key title, colour, dash. */
static const struct {
    const char *col, *title, *colour;
} lines[] = {
    {"next_choice", "re-tuned (the window before's choice)", "#c00000"},
    {"next_hindsight", "best static choice in hindsight", "#1f4e9a"},
    {"next_strict", "strict consolidation", "#707070"},
    {"next_first", "first window's choice, kept", "#e69500"},
};
#define NLINES ((int)(sizeof lines / sizeof lines[0]))

int tt_plot_rolling(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script)
{
    *script = NULL;
    int cs, ce, co, cl[NLINES], dims[64], nd = 0, rc;
    if ((rc = tt_pg_need_col(ctx, t, "start", "rolling tune's column", &cs)) ||
        (rc = tt_pg_need_col(ctx, t, "end", "rolling tune's column", &ce)) ||
        (rc = tt_pg_need_col(ctx, t, "objective", "rolling tune's column", &co)))
        return rc;
    for (int i = 0; i < NLINES; i++)
        if ((rc = tt_pg_need_col(ctx, t, lines[i].col, "rolling tune's column", &cl[i])))
            return rc;
    for (int c = 0; c < tt_table_cols(t); c++)
        if (is_dim(t, c) && nd < (int)(sizeof dims / sizeof dims[0]))
            dims[nd++] = c;
    for (int i = 1; i < nd; i++) /* stable: the file's order within a rank */
        for (int j = i; j > 0 && dim_rank(t, dims[j - 1]) > dim_rank(t, dims[j]); j--) {
            int c = dims[j];
            dims[j] = dims[j - 1];
            dims[j - 1] = c;
        }
    if (nd == 0)
        return tt_err(ctx, TT_EINVAL, "'%s' has no searched parameter column: not a rolling "
                      "tune's rows (tt-tune --rolling)", tt_table_source(t));
    /* the windows: rows whose window is a number (TSV's total row is not) */
    int cw = tt_table_find(t, "window");
    int64_t n = tt_table_rows(t), m = 0;
    int64_t *row = (int64_t *)malloc((size_t)(n ? n : 1) * sizeof *row);
    double *v = (double *)malloc((size_t)(n + 1) * sizeof *v);
    if (!row || !v) {
        free(row);
        free(v);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    const double *start = tt_table_values(t, cs), *end = tt_table_values(t, ce);
    for (int64_t r = 0; r < n; r++) {
        const char *w = cw >= 0 ? tt_table_text(t, cw, r) : NULL;
        if (w && strcmp(w, "total") == 0)
            continue;
        if (isfinite(start[r]) && isfinite(end[r]))
            row[m++] = r;
    }
    if (m < 2) {
        free(row);
        free(v);
        return tt_err(ctx, TT_EEMPTY, "'%s': %lld window%s: a rolling tune has two at least",
                      tt_table_source(t), (long long)m, m == 1 ? "" : "s");
    }
    const double day = 86400.0;
    double width = end[row[0]] - start[row[0]], last = end[row[m - 1]] + width;
    /* the objective's display unit */
    double dy = 1, top = 0;
    char uy[64], ly[320], lab[160], title[768], about[256];
    for (int i = 0; i < NLINES; i++)
        for (int64_t k = 0; k < m; k++) {
            double y = tt_table_values(t, cl[i])[row[k]];
            top = isfinite(y) && fabs(y) > top ? fabs(y) : top;
        }
    tt_plot_unit(tt_table_units(t, cl[0]), top, &dy, uy, sizeof uy);
    const char *obj = tt_table_attr(t, "objective");
    tt_pg_axis_label(obj ? obj : "objective", uy, ly, sizeof ly);
    int drawn = nd < MAX_DIMS ? nd : MAX_DIMS;
    int w = o->width > 0 ? o->width : 1100;
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1100, 330 + 170 * drawn);
    /* the objectives on each window after the first, at its middle */
    tt_pg_add(&b, "$obj << EOD\n");
    for (int64_t k = 0; k + 1 < m; k++) {
        int64_t r = row[k + 1];
        tt_pg_add(&b, "%.10g", (start[r] + end[r]) / 2 / day);
        for (int i = 0; i < NLINES; i++)
            tt_pg_add(&b, "\t%.10g", tt_table_values(t, cl[i])[row[k]] / dy);
        tt_pg_add(&b, "\t%.10g\n", tt_table_values(t, co)[r] / dy);
    }
    tt_pg_add(&b, "EOD\n");
    tt_pg_about(t, about, sizeof about);
    const char *label = tt_table_attr(t, "rolling");
    char wtext[64];
    if (label)
        snprintf(wtext, sizeof wtext, "%s", label);
    else /* as tt-tune takes it: 14d, 12h, 90m, 3600s */
        snprintf(wtext, sizeof wtext, "%lld%s",
                 (long long)(fmod(width, day) == 0      ? width / day
                             : fmod(width, 3600) == 0 ? width / 3600
                             : fmod(width, 60) == 0   ? width / 60
                                                      : width),
                 fmod(width, day) == 0 ? "d" : fmod(width, 3600) == 0 ? "h"
                                           : fmod(width, 60) == 0   ? "m" : "s");
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%.200s%sre-tuned every %s, each window's choice applied "
                 "to the next%s", about, *about ? ": " : "", wtext,
                 nd > drawn ? " (the first 8 searched parameters drawn)" : "");
    tt_pg_add(&b, "set multiplot title ");
    tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, w, 0.9));
    tt_pg_add(&b, " font ',15'\n");
    /* panels stacked: the parameters, then the objective (twice as tall),
     * one x range, the margins fixed so that the windows line up */
    double ph = 1.0 / (drawn + 2.0) * 0.9, y0 = 0.9;
    tt_pg_add(&b, "set lmargin at screen 0.1\nset rmargin at screen 0.66\nset xrange [0:%.10g]\n"
                  "set grid xtics\nset key at screen 0.68, graph 1 left top Left reverse "
                  "samplen 2 font ',11'\n", last / day);
    if (last / width <= 20) /* a tic a window, the grid their bounds */
        tt_pg_add(&b, "set xtics 0, %.10g\n", width / day);
    /* a parameter's values as levels in rank order, inf last: the few a
     * choice takes, each labelled */
    for (int d = 0; d < drawn; d++) {
        const double *x = tt_table_values(t, dims[d]);
        int64_t nv = 0;
        for (int64_t k = 0; k < m; k++) {
            int64_t j = 0;
            while (j < nv && v[j] != x[row[k]])
                j++;
            if (j == nv)
                v[nv++] = x[row[k]];
        }
        qsort(v, (size_t)nv, sizeof *v, cmp_double);
        /* each choice over the span it is in force: from its window's end
         * to the next window's (the last: one width past the trace) */
        tt_pg_add(&b, "$dim%d << EOD\n", d);
        for (int64_t k = 0; k < m; k++) {
            double a = end[row[k]] / day, z = (k + 1 < m ? end[row[k + 1]] : last) / day;
            int64_t j = 0;
            while (v[j] != x[row[k]])
                j++;
            tt_pg_add(&b, "%.10g\t%lld\t%.10g\n", a, (long long)j, z);
        }
        tt_pg_add(&b, "EOD\n");
        y0 -= ph;
        tt_pg_add(&b, "set origin 0,%.4f\nset size 1,%.4f\nset tmargin 0.5\nset bmargin 0.5\n"
                      "set format x ''\nunset xlabel\nset yrange [-0.5:%.1f]\nset ytics (",
                  y0, ph, (double)nv - 0.5);
        for (int64_t j = 0; j < nv; j++) {
            char num[64];
            tt_pg_num(v[j], num, sizeof num);
            tt_pg_add(&b, "%s'%s' %lld", j ? ", " : "", num, (long long)j);
        }
        tt_pg_add(&b, ")\n");
        tt_pg_axis_label(tt_table_name(t, dims[d]), tt_table_units(t, dims[d]), lab, sizeof lab);
        tt_pg_title(&b, "set ylabel", lab);
        tt_pg_add(&b, "plot $dim%d using 1:2:($3-$1):(0) with vectors nohead lw 4 lc rgb '%s' "
                      "title ", d,
                  tt_pg_series_colour(d));
        snprintf(lab, sizeof lab, "%s in force", tt_table_name(t, dims[d]));
        tt_pg_quoted(&b, lab);
        tt_pg_add(&b, "\n");
    }
    tt_pg_add(&b, "set origin 0,0\nset size 1,%.4f\nset tmargin 1\nset bmargin 3.5\n"
                  "set format x '%%g'\n", y0);
    tt_pg_title(&b, "set xlabel", "days of the trace (submit times before -p load scales them)");
    tt_pg_title(&b, "set ylabel", ly);
    tt_pg_add(&b, "set ytics auto\nset yrange [*:*]\nset offsets 0, 0, graph 0.1, graph 0.1\n"
                  "plot ");
    for (int i = 0; i < NLINES; i++) {
        tt_pg_add(&b, "$obj using 1:%d with linespoints lw 2 pt %d ps 1.1 lc rgb '%s' title ",
                  2 + i, 5 + 2 * i, lines[i].colour);
        tt_pg_quoted(&b, lines[i].title);
        tt_pg_add(&b, ", \\\n  ");
    }
    tt_pg_add(&b, "$obj using 1:%d with points pt 1 ps 1.3 lc rgb '#000000' title ", 2 + NLINES);
    tt_pg_quoted(&b, "each window's own choice (oracle)");
    tt_pg_add(&b, "\nunset multiplot\n");
    free(row);
    free(v);
    return tt_pg_finish(ctx, &b, script);
}
