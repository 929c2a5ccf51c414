/* The timeline kind of tt-plot (tt/plot.h): a simulated cluster over time
 * (jobs waiting, busy GPUs, jobs running per level); and the trace kind: a
 * trace's job-size mix, duration CDF and offered load. */
#include "tt/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"

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

/* The y range of a panel of counts, columns cols[0..nc) of t: [0:*], or
 * [0:1] when they are 0 in every row (gnuplot takes no range from one
 * value); set when it is not *now already (-1: none yet). */
static void zero_range(pg_buf *b, const tt_table *t, const int *cols, int nc, int *now)
{
    double lo, hi, top = 0;
    for (int c = 0; c < nc; c++) {
        tt_pg_span(tt_table_values(t, cols[c]), tt_table_rows(t), 0, &lo, &hi);
        top = hi > top ? hi : top;
    }
    if (*now != (top > 0))
        tt_pg_add(b, top > 0 ? "set yrange [0:*]\n" : "set yrange [0:1]\n");
    *now = top > 0;
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
    char unit[64], lx[160], title[768], about[256], run[400];
    tt_plot_unit("s", span, &div, unit, sizeof unit);
    snprintf(lx, sizeof lx, "time since the first event [%s]", unit);
    pg_buf b = {0};
    tt_pg_preamble(&b, o, 1000, 800);
    timeline_block(&b, t, cols, 5, div);
    tt_pg_about(t, about, sizeof about);
    tt_pg_run_params(t, run, sizeof run);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s%s%s%ssimulated cluster over time%s", about,
                 *about && *run ? ", " : "", run, *about || *run ? ": " : "",
                 n > TIMELINE_BINS ? " (means over equal bins)" : "");
    tt_pg_add(&b, "set multiplot layout 3,1 title ");
    tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, 1000, 0.9 * 13 / 15)); /* in 15 points */
    tt_pg_add(&b, " font ',15' margins 0.1,0.97,0.09,0.92 spacing 0,0.045\n"
               "set key top right Left reverse samplen 2 font ',12'\nset format x ''\n");
    tt_pg_pad_range(&b, "x", 0, span, div, 1, 0); /* one event time */
    int now = -1;
    tt_pg_add(&b, "set ylabel 'jobs waiting'\n");
    zero_range(&b, t, cols, 1, &now);
    tt_pg_add(&b, "plot $timeline using 1:2 with steps lw 1.5 lc rgb '#d55e00' notitle\n"
               "set ylabel 'busy GPUs'\n");
    zero_range(&b, t, cols + 1, 1, &now);
    tt_pg_add(&b, "plot $timeline using 1:3 with steps lw 1.5 lc rgb '#0072b2' notitle\n"
               "set format x '%%g'\n");
    tt_pg_title(&b, "set xlabel", lx);
    zero_range(&b, t, cols + 2, 3, &now);
    tt_pg_add(&b, "set ylabel 'jobs running'\n"
               "plot $timeline using 1:4 with steps lw 1.5 lc rgb '#009e73' title 'L0 packed', \\\n"
               "  $timeline using 1:5 with steps lw 1.5 lc rgb '#e69f00' title 'L1 rack', \\\n"
               "  $timeline using 1:6 with steps lw 1.5 lc rgb '#cc79a7' title 'L2 spread'\n"
               "unset multiplot\n");
    return tt_pg_finish(ctx, &b, script);
}

/* ---- trace ---- */

/* "example.tsv (csv, 2000 jobs)": the trace a view is of, by its first
 * source file and format (tt_table_from_trace's attributes). */
static void trace_name(const tt_table *t, char *buf, size_t size)
{
    const char *src = tt_table_attr(t, "trace_source_files");
    const char *fmt = tt_table_attr(t, "trace_format"), *jobs = tt_table_attr(t, "jobs");
    const char *base = src ? src : "", *slash;
    size_t len = strcspn(base, "\n"); /* the first file, without its folder */
    while ((slash = (const char *)memchr(base, '/', len))) {
        len -= (size_t)(slash + 1 - base);
        base = slash + 1;
    }
    if (!len) {
        base = "trace";
        len = strlen(base);
    }
    snprintf(buf, size, "%.*s (%s%s%s jobs)", (int)len, base, fmt && *fmt ? fmt : "",
             fmt && *fmt ? ", " : "", jobs ? jobs : "?");
}

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
    int64_t m = tt_pg_sorted_values(duration, cd, &s);
    if (m < 0) {
        free(b.s);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    char unit[64], lunit[64], lx[160], title[768], name[512];
    tt_plot_unit("s", m ? s[m / 2] : 0, &div, unit, sizeof unit);
    tt_pg_cdf_block(&b, "$duration", s, m, div);
    /* the axis ends just past the data, not at the next decade: a label on
     * the panel's right edge runs off the canvas */
    double dlo = 0, dhi = m > 0 ? s[m - 1] / div * 1.05 : 0;
    for (int64_t i = m - 1; i >= 0 && s[i] > 0; i--) /* the least positive */
        dlo = s[i] / div;
    free(s);
    const double *lt = tt_table_values(load, ct), *lg = tt_table_values(load, cl);
    int64_t nl = tt_table_rows(load);
    tt_plot_unit("s", lt[nl - 1], &ldiv, lunit, sizeof lunit);
    tt_pg_add(&b, "$load << EOD\n");
    for (int64_t i = 0; i < nl; i++)
        tt_pg_add(&b, "%.10g\t%.10g\n", lt[i] / ldiv, lg[i]);
    tt_pg_add(&b, "EOD\n");
    trace_name(gpus, name, sizeof name);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s: job sizes, durations and offered load", name);
    tt_pg_add(&b, "set multiplot title ");
    tt_pg_quoted_fit(&b, title, tt_pg_title_px(o, 1200, 0.9 * 13 / 15)); /* in 15 points */
    tt_pg_add(&b, " font ',15'\n"
               "set size 0.5,0.5\nset origin 0,0.45\n"
               "set title 'job-size mix'\nset style data histograms\n"
               "set style histogram clustered gap 1\nset style fill solid 0.85 noborder\n"
               "set ylabel 'share [%%]'\nset yrange [0:*]\nset xlabel 'GPUs per job'\n"
               "set key top right font ',11'\n"
               "plot $mix using 3:xtic(2) lc rgb '#0072b2' title 'jobs', "
               "$mix using 4 lc rgb '#e69f00' title 'GPU time'\n"
               "set size 0.5,0.5\nset origin 0.5,0.45\nset title 'duration CDF'\n"
               "set style data lines\nset logscale x\nset format x '%%g'\n"
               /* room above 1: the curve's end is not the frame */
               "set yrange [0:1.02]\nset ytics 0,0.2,1\n"
               "set ylabel 'fraction of jobs'\nunset key\n");
    if (dhi > dlo && dlo > 0)
        tt_pg_add(&b, "set xrange [%.10g:%.10g]\n", dlo, dhi);
    tt_pg_axis_label("duration", unit, lx, sizeof lx);
    snprintf(lx + strlen(lx), sizeof lx - strlen(lx), " (log scale)");
    tt_pg_title(&b, "set xlabel", lx);
    if (dlo > 0) /* a duration above 0 to draw on the log axis */
        tt_pg_add(&b, "plot $duration using 1:2 with steps lw 2 lc rgb '#009e73'\n");
    else /* none: an empty frame, where a line above the range draws nothing */
        tt_pg_add(&b, "set xrange [1:10]\nset label 1 'no duration above 0' at graph 0.5, "
                   "graph 0.5 center\nplot 2 notitle\nunset label 1\n");
    tt_pg_add(&b, "set size 1,0.45\nset origin 0,0\nunset logscale x\nset xrange [*:*]\n"
               "set ytics autofreq\n"
               "set title 'offered load: GPUs the submitted jobs ask for, as if each ran "
               "from its submit'\n");
    double llo, lhi;
    tt_pg_span(lg, nl, 0, &llo, &lhi);
    tt_pg_add(&b, lhi > 0 ? "set yrange [0:*]\n" : "set yrange [0:1]\n");
    tt_pg_pad_range(&b, "x", lt[0], lt[nl - 1], ldiv, 1, 0);
    tt_pg_add(&b, "set ylabel 'GPUs (bin mean)'\n");
    snprintf(lx, sizeof lx, "time since the first submit [%s]", lunit);
    tt_pg_title(&b, "set xlabel", lx);
    tt_pg_add(&b, "plot $load using 1:2 with steps lw 1.5 lc rgb '#cc79a7'\n"
               "unset multiplot\n");
    return tt_pg_finish(ctx, &b, script);
}
