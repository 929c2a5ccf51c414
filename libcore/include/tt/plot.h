/* tt/plot.h: gnuplot scripts for the figures of tt-plot: trade-off
 * surfaces, Pareto fronts, CDFs, timelines and trace views.
 *
 * Each tt_plot_* function turns tables (tt/table.h) into one complete,
 * self-contained gnuplot 5.4 script: the data goes in as datablocks
 * ($name << EOD), so the script alone redraws the figure. The caller
 * draws it with tt_plot_render_*, or runs gnuplot on it (tt_plot_run, or
 * by hand).
 *
 * Everything from user input that reaches the script (titles, labels,
 * column names, text values, the output name) is a single-quoted gnuplot
 * string with its quotes doubled, or a datablock field stripped of quotes
 * and control characters, and text is drawn with enhanced mode off: it is
 * printed as written, never evaluated (no backquotes, macros or
 * system()).
 *
 * Decisions (Pareto membership, the best point, grids) compare the values
 * as read, with no arithmetic; unit scaling (seconds to hours) is for
 * display only. The output is deterministic.
 *
 * Thread safety: every function is reentrant.
 */
#ifndef TT_PLOT_H
#define TT_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tt/error.h"
#include "tt/outfile.h"
#include "tt/table.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

typedef enum { TT_PLOT_PNG, TT_PLOT_SVG, TT_PLOT_PDF } tt_plot_term;

/* The terminal for a figure name by its extension (.png, .svg, .pdf, in
 * any case): pngcairo, svg, pdfcairo; -1 for any other name. */
int tt_plot_term_of(const char *path);

typedef struct {
    tt_plot_term term;
    const char *output;    /* the file the script writes; NULL: standard output */
    const char *title;     /* NULL: a title made from the data */
    int width, height;     /* pixels (pdf: 100 a inch); 0: 1000 x 700 */
    const char *x, *y, *z; /* column names; NULL: the kind's defaults */
    const char *facet;     /* surface: a second metric side by side, or NULL */
    int view3d;            /* surface: a pm3d 3-D view instead of the heat map */
    /* surface, pareto: when not NULL, set to the rows (baselines included)
     * left out because a metric drawn is absent there: it cannot be
     * computed (docs/model.md section 7), empty in TSV, NAN in HDF5 */
    int64_t *left_out;
    /* pareto: draw baselines whatever their origin; else each must record
     * the trace, cluster and model table of the input (HDF5 results) */
    int baseline_any;
    /* lines: the parameters whose values make one line each ("preset" is
     * no column: "el_up,resize"), the one whose values make one panel
     * each (NULL: one of each), and names for the lines in the order they
     * first appear (NULL or nlabels 0: "NAME=VALUE ...") */
    const char *by, *panel;
    const char *const *labels;
    int nlabels;
} tt_plot_opts;

/* A metric z (default jct_mean) over two swept parameters x, y (default
 * w0, theta): a heat map with contour lines, log axes where a grid is
 * geometric, inf (and 0 on a log axis) as a labelled edge column, the
 * best (least) z marked; with facet, that metric in a second panel.
 * TT_EINVAL (a column that does not exist or is text, a parameter with one
 * value, two rows on one cell: the message names the parameter that also
 * varies), TT_EEMPTY, TT_ENOMEM. *script is malloc'ed, the caller's. */
int tt_plot_surface(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script);

/* y (default jct_mean) against x (default makespan) for every row, the
 * non-dominated front (both minimised) drawn and its points labelled with
 * the parameters that vary; rows that are the baselines strict
 * consolidation (w0 = theta = inf; w1 does not matter when w0 is inf) and
 * no-wait (w0 = w1 = 0, theta = inf) marked,
 * and every row of the nb tables base (tt-sim rows, may be 0) too, each
 * labelled with its configuration: w0, w1, theta, and every other
 * parameter whose value the rows of t do not all share. A base table must
 * come from the trace, cluster and model table of t (HDF5 results record
 * them), unless o->baseline_any: else TT_EINVAL naming both files (one
 * that records none, TSV, included). Codes as tt_plot_surface. */
int tt_plot_pareto(tt_ctx *ctx, const tt_table *t, const tt_table *const *base, int nb,
                   const tt_plot_opts *o, char **script);

/* Metric y (default jct_mean) against swept parameter x (default
 * resize_cost), a line per value of the o->by parameters, a panel per
 * value of o->panel (at most 16 lines and 6 panels, in the order they
 * first appear), x on a log axis where its values are geometric
 * (tt_plot_is_log), y from 0. Rows whose y is absent are left out
 * (o->left_out). TT_EINVAL (a column that does not exist, x not swept,
 * two rows of one line at one x: the message says to name what else
 * varies, more labels than lines), TT_EEMPTY, TT_ENOMEM. */
int tt_plot_lines(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script);

/* CDFs of column x (default jct; queue for queueing delay) of the n
 * per-job tables runs, on one plot, log x; labels[i] names run i (NULL:
 * its source's file name). Rejected jobs (absent values) are left out. */
int tt_plot_cdf(tt_ctx *ctx, const tt_table *const *runs, const char *const *labels, int n,
                const tt_plot_opts *o, char **script);

/* Queue length, busy GPUs and running jobs per placement level over time,
 * from a timeline table (t waiting running busy_gpus running_l0..l2). */
int tt_plot_timeline(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script);

/* The tt-stats views of a trace: job-size mix (gpus), duration CDF
 * (duration) and offered load over time (load), from tt_table_from_trace. */
int tt_plot_trace(tt_ctx *ctx, const tt_table *gpus, const tt_table *duration,
                  const tt_table *load, const tt_plot_opts *o, char **script);

/* The search of a tuner (tt-tune -o): hist and space are the tune file's
 * TT_TABLE_TUNE and TT_TABLE_TUNE_SPACE tables. Its train rows over the
 * searched dimensions x and y (default: the first two of the space; with
 * one dimension, or y = "objective", y is the objective): the search
 * (phase 0) coloured by round, infeasible points hollow, the grid
 * baseline (phase 1) as small grey dots, the recommended configuration
 * and the strict and no-wait baselines (where each of their coordinates
 * is a value of its axis, or 0 or inf: an edge column) marked and
 * labelled with their objective. Axes as the surface's, log where the
 * space's scale is log; dimensions that vary but are not drawn are named
 * under the title (a projection). surface (a sweep, or NULL): its metric
 * z (default jct_mean) as the surface's heat map beneath, when it comes
 * from the same trace, cluster and models (attributes
 * trace_source_sha256, cluster, models_sha256), varies x and y only, and
 * holds the other parameters as the search did. TT_EINVAL (an axis that
 * is not a searched dimension: the message lists them; a mismatched or
 * unswept surface, naming both files), TT_EEMPTY (no search row on the
 * train part), TT_ENOMEM. */
int tt_plot_search(tt_ctx *ctx, const tt_table *hist, const tt_table *space,
                   const tt_table *surface, const tt_plot_opts *o, char **script);

/* A rolling tune (tt-tune --rolling), from its TT_TABLE_TUNE_ROLLING
 * table (its -o file's /tune/rolling, or its TSV: the total row is left
 * out): one panel per searched dimension (at most 8, the others named in
 * the title) drawing each window's choice over the span it is in force,
 * from its window's end to the next window's (the last: one width past
 * the trace), on the surface's axes (log where the values are geometric,
 * 0 and inf as edges); below, the objective on each window after the
 * first, at its middle: under the choice of the window before, the best
 * static choice in hindsight, strict consolidation and the first
 * window's choice, and each window's own choice as points. x: days of the
 * trace. TT_EINVAL (a column missing, no searched parameter), TT_EEMPTY
 * (fewer than two windows), TT_ENOMEM. */
int tt_plot_rolling(tt_ctx *ctx, const tt_table *t, const tt_plot_opts *o, char **script);

/* A size study (tt-size's TSV rows): y (default metric, the target's)
 * against x (default gpus; nodes), one line per policy (column policy, in
 * order of first appearance), the target value as a dashed horizontal
 * line labelled target_text when y is metric, and each policy's smallest
 * size that meets it (column smallest = 1) ringed and labelled with its
 * cluster, "(not stable)" where column stable is 0. TT_EINVAL (no policy
 * or cluster text column, a column that does not exist), TT_ENOMEM. */
int tt_plot_size(tt_ctx *ctx, const tt_table *t, const char *metric, double target,
                 const char *target_text, const tt_plot_opts *o, char **script);

/* ---- running gnuplot ---- */

/* The gnuplot to run, into buf: $GNUPLOT (a path, or a name looked up on
 * PATH), else gnuplot on PATH. 0, or -1 when none is executable. */
int tt_plot_find_gnuplot(char *buf, size_t size);

/* Runs gnuplot on the script file: standard input /dev/null, its output
 * and messages into the file log (created, mode 0600). *pid holds its
 * process id while it runs (for a signal handler to stop it), 0 after;
 * *status gets its wait status. 0, or TT_EIO (it could not be started or
 * waited for). */
int tt_plot_run(tt_ctx *ctx, const char *gnuplot, const char *script, const char *log,
                volatile pid_t *pid, int *status);

/* ---- drawing a figure: a script to a file, whole or not at all ---- */

/* One drawing: the gnuplot to run, a private folder for its script and
 * messages, and the figure's temporary name beside the output, where the
 * figure gnuplot drew is written so that a rename puts it in place.
 * Plain names and a pid, so that a
 * caller's signal handler can remove the files (unlink, then rmdir the
 * folder) and stop gnuplot (kill) without calling the library; a name is
 * "" until it is set. */
typedef struct {
    char gnuplot[4096]; /* the program run (tt_plot_find_gnuplot) */
    char dir[2048];     /* the private folder, mode 0700 */
    char script[4096];  /* dir/plot.gp: the script as run */
    char log[4096];     /* dir/gnuplot.err: gnuplot's messages */
    tt_outfile fig;     /* the figure: its output, and fig.tmp while written */
    volatile pid_t pid; /* gnuplot while it runs, else 0 */
} tt_plot_render;

/* Finds gnuplot and creates the private folder: $TMPDIR/tt-plot.XXXXXX
 * ($TMPDIR unset or empty: /tmp) with script and log named in it
 * (not created); fig's names stay "". 0, or TT_EIO (gnuplot not found, or
 * the folder could not be created; every name is then ""). */
int tt_plot_render_open(tt_ctx *ctx, tt_plot_render *r);

/* Names r->fig for output (tt_outfile_open): r->fig.tmp, beside it, is
 * where tt_plot_render_run writes the figure before the rename.
 * 0, or TT_EINVAL (the name is too long; r->fig's names are then ""). */
int tt_plot_render_target(tt_ctx *ctx, tt_plot_render *r, const char *output);

/* Writes script to r->script and runs gnuplot on it as tt_plot_run does
 * (r->pid holding its process id), but reads its standard output, where
 * the script draws the figure (tt_plot_opts.output NULL): gnuplot checks
 * none of its own writes, so a figure it wrote to a full disk would be cut
 * short under exit status 0. When it exits 0 having drawn something, the
 * figure is written to r->fig.tmp, every write checked, and renamed over
 * output (tt_outfile_write). *messages gets gnuplot's messages (its
 * standard error; malloc'ed, the caller's; NULL when none is left or it
 * cannot be read) on success (its warnings) and when gnuplot failed;
 * otherwise NULL. The private script's name is taken out ("line 4: ..."),
 * with gnuplot's echo of the line and its caret; on success so are its
 * notes on a range it widened and on a data block with no point. 0, or
 * TT_EIO: the script cannot be written, gnuplot cannot be run, it failed
 * ("gnuplot failed (exit status 1) drawing 'output':", the colon before
 * its messages), or the figure cannot be written ("cannot write 'output':
 * No space left on device"; r->fig.tmp then removed). On failure output
 * is untouched and r->fig.tmp may remain, for tt_plot_render_close. */
int tt_plot_render_run(tt_ctx *ctx, tt_plot_render *r, const char *script, const char *output,
                       char **messages);

/* Removes what r left (the figure as drawn, the script, the log, then
 * the folder) and sets every name to "". */
void tt_plot_render_close(tt_plot_render *r);

/* Writes script to path whole or not at all (tt/outfile.h): the script a
 * user keeps to redraw the figure. 0, TT_EINVAL (the name is too long) or
 * TT_EIO ("cannot write 'path': reason"; nothing is left). */
int tt_plot_save_script(tt_ctx *ctx, const char *script, const char *path);

/* ---- the pieces, for tests ---- */

/* s as a gnuplot single-quoted string literal ('it''s'), control
 * characters turned to spaces, into buf. The length written, or TT_EINVAL
 * when buf is too small (2 * strlen(s) + 3 always do). */
int tt_plot_quote(const char *s, char *buf, size_t size);

/* The non-dominated rows of (x[i], y[i]), both minimised: row i is kept
 * unless another row is <= in both and < in one; rows with a NAN are
 * ignored. Their indices go to front (n entries suffice), by x ascending,
 * then y, then index. The count, or TT_ENOMEM. */
int64_t tt_plot_pareto_front(const double *x, const double *y, int64_t n, int64_t *front);

/* The index of the least z (the first on ties), ignoring NAN; -1 if none. */
int64_t tt_plot_best(const double *z, int64_t n);

/* 1 when the finite values of v (n entries, repeats and non-finite values
 * ignored) are better drawn on a log axis: at least 3 distinct, all > 0,
 * spanning a decade or more, and consecutive ratios more even than
 * consecutive differences. */
int tt_plot_is_log(const double *v, int64_t n);

/* The display unit for a column in units "s" (or "GPU-s") whose largest
 * magnitude is max: "d" / "h" / "min" / "s" (GPU-d, GPU-h, ...), chosen so
 * the numbers stay readable (>= 2 of the unit); *div is its seconds. Other
 * units are returned unchanged with *div = 1. */
const char *tt_plot_unit(const char *units, double max, double *div, char *buf, size_t size);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
