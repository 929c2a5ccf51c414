/* What the figures of tt-plot share: the script buffer, quoting, number
 * formats, the preamble, sorted values (common.c), and the grid axes and
 * heat map of the surface kind (surface.c), which the search kind
 * (search.c) draws beneath its points. */
#ifndef TT_PLOTGRID_H
#define TT_PLOTGRID_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/plot.h"
#include "tt/table.h"

/* ---- the script ---- */

/* A growing string; oom once an allocation failed (later adds do
 * nothing, tt_pg_finish reports it). */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;
} pg_buf;

void tt_pg_add(pg_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* s as a quoted gnuplot string (tt_plot_quote). */
void tt_pg_quoted(pg_buf *b, const char *s);
/* Glyph sizes of the figures' 13-point sans (pdf: 10 points on 100 px an
 * inch), in pixels: a character's advance, a line's height. */
#define PG_GLYPH_W 9.0
#define PG_GLYPH_H 17.0
/* text as a gnuplot string expression, on two lines ('head'."\n".'(rest)',
 * cut before its last " (") when wider than px pixels; px 0: one line. */
void tt_pg_quoted_fit(pg_buf *b, const char *text, double px);
/* The width a default title may take: share of the figure's width (w
 * unless o sets one), in the figures' font; 0 for the user's title
 * (--title), printed as written. */
double tt_pg_title_px(const tt_plot_opts *o, int w, double share);
/* The colour of series i of a figure (repeating after 8). */
const char *tt_pg_series_colour(int i);
/* "cmd 'text'\n" */
void tt_pg_title(pg_buf *b, const char *cmd, const char *text);
/* The terminal, the output, the palette: the first lines of every script;
 * w x h unless the options say otherwise. */
void tt_pg_preamble(pg_buf *b, const tt_plot_opts *o, int w, int h);
/* *script = the text, or TT_ENOMEM when an add failed. */
int tt_pg_finish(tt_ctx *ctx, pg_buf *b, char **script);

/* ---- values ---- */

/* inf, an integer exactly, or 4 significant digits. */
void tt_pg_num(double v, char *buf, size_t size);
/* The text of cell (col, row): a text column's string or the number. */
const char *tt_pg_cell_text(const tt_table *t, int col, int64_t row, char *buf, size_t size);
/* "name [unit]", or "name" without a unit. */
void tt_pg_axis_label(const char *name, const char *unit, char *buf, size_t size);
/* The rows of t where numeric column c1, or c2 (ignored when < 0), is
 * NAN: a metric that cannot be computed there. */
int64_t tt_pg_count_nan(const tt_table *t, int c1, int c2);
/* The least and greatest finite value of v (only those > 0 when pos) into
 * *lo, *hi; *lo > *hi when there is none. */
void tt_pg_span(const double *v, int64_t n, int pos, double *lo, double *hi);
/* "set Xrange [a:b]" for axis ax ("x", "y") where the data [lo, hi]
 * leave gnuplot no range (its "empty x range" warning, or "x range is
 * invalid" with no point): one value, padded by 10% each way (-1:1 around
 * 0; 0:1 when nonneg), a factor 2 on a log axis; no value: 0:1, or 1:10 on
 * a log axis. Values are divided by div (display units). Nothing when the
 * data span a range. */
void tt_pg_pad_range(pg_buf *b, const char *ax, double lo, double hi, double div, int nonneg,
                     int log);
/* The largest finite magnitude of v (0 if none). */
double tt_pg_max_abs(const double *v, int64_t n);
/* 1 for a name of tt_param_names. */
int tt_pg_is_param(const char *name);
/* 1 when column c takes more than one value over t's rows. */
int tt_pg_varies(const tt_table *t, int c);
/* The numeric column name of t, or TT_EINVAL naming what t has. */
int tt_pg_need_col(tt_ctx *ctx, const tt_table *t, const char *name, const char *what, int *col);
/* "w0=600, theta=1500": the parameters of row r that vary over t but
 * skip1, skip2 (either may be NULL), "..." at the end when cut short. */
void tt_pg_row_params(const tt_table *t, int64_t r, const char *skip1, const char *skip2,
                      char *buf, size_t size);
/* 0 when the HDF5 results t and other come from the same trace, cluster
 * and model table (attributes trace_source_sha256, cluster, models_sha256);
 * else TT_EINVAL naming both: the one that records none ("'b.tsv' does not
 * record its trace_source_sha256, so it cannot be matched with 'a.h5'
 * (hint)"), or the first that differs ("'b.h5' and 'a.h5' come from
 * different clusters (cluster 1x1x8 and 4x32x8)"). */
int tt_pg_same_origin(tt_ctx *ctx, const tt_table *t, const tt_table *other, const char *hint);
/* The parameters every row of t shares that differ from the defaults, for
 * a title ("load=2000, w1=inf"); seed, mix, skip1 and skip2 left out. */
void tt_pg_fixed_params(const tt_table *t, const char *skip1, const char *skip2, char *buf,
                        size_t size);
/* The parameters of a simulated run (the attributes of its jobs or
 * timeline, tt/table.h) that differ from the defaults, seed and mix left
 * out: "w0=600, theta=1500", or "default parameters"; "" when t carries
 * none (TSV). */
void tt_pg_run_params(const tt_table *t, char *buf, size_t size);
/* What a result is of, for a title: "example.h5 on 3x4x4" from the
 * attributes trace_file (without its folders: "/data/x/example.h5" is
 * "example.h5") and cluster ("cluster 3x4x4" or "example.h5" alone when
 * one is missing), "" when it has neither (TSV). */
void tt_pg_about(const tt_table *t, char *buf, size_t size);

/* ---- sorted values ---- */

/* The distinct finite values of v, ascending, into out (n entries
 * suffice); their count. */
int64_t tt_pg_distinct_finite(const double *v, int64_t n, double *out);
/* The non-NAN values of column c of t, ascending, in *out (the caller
 * frees it); their count, or -1 when out of memory. */
int64_t tt_pg_sorted_values(const tt_table *t, int c, double **out);
/* Datablock name: the empirical CDF of s (m sorted values) as steps
 * "x F", x > 0 only (a log axis): the last rank of each distinct value, at
 * most 1500 of them (evenly by rank) plus the extremes; x divided by div. */
void tt_pg_cdf_block(pg_buf *b, const char *name, const double *s, int64_t m, double div);

/* ---- grid axes ---- */

enum { PG_AUTO = -1, PG_LINEAR, PG_LOG };

/* An axis of cells, one per distinct value: the finite values evenly in
 * plot space (log10 on a log axis), inf (and 0 on a log axis) as edge
 * columns set apart. */
typedef struct {
    const char *name;
    double *vals; /* finite values, ascending (0 apart on a log axis) */
    int64_t m;
    int has_inf, zero_edge, log;
    int64_t ncell;   /* zero edge, finite cells, inf edge */
    double *lo, *hi; /* cell bounds in plot space */
    char units[64];
    /* set by the figure: the axis's length on the canvas in pixels (0:
     * unknown) and whether its labels sit side by side (an x axis, both
     * axes of a 3-D view) or stacked (a 2-D y axis); tics whose labels
     * would touch are left unlabelled */
    double px;
    int side_by_side;
} pg_axis;

/* The axis of the n values v (repeats allowed, no NAN, at least one
 * finite); scale PG_LOG, PG_LINEAR or PG_AUTO (tt_plot_is_log). name
 * must outlive the axis. 0 or TT_ENOMEM / TT_EINVAL. */
int tt_pg_axis_init(tt_ctx *ctx, pg_axis *a, const char *name, const char *units, const double *v,
                 int64_t n, int scale);
void tt_pg_axis_free(pg_axis *a);
/* 0 when numeric column col of t is valued in every row and takes two
 * values at least, else TT_EINVAL saying which. */
int tt_pg_swept(tt_ctx *ctx, const tt_table *t, int col);
/* The cell of v, a value of the axis. */
int64_t tt_pg_axis_cell(const pg_axis *a, double v);
double tt_pg_cell_mid(const pg_axis *a, int64_t k);
/* Where value v of the axis is drawn: at its tic (inside its cell, not
 * always its middle), an edge value in the middle of its column. */
double tt_pg_axis_pos(const pg_axis *a, double v);
/* Tics, range and label of axis ax ("x" or "y"); a tic whose label would
 * run into the previous one (by a->px) is left out. */
void tt_pg_axis_tics(pg_buf *b, const pg_axis *a, const char *ax);

/* ---- the heat map ---- */

/* The rows of t on the cells of two axes. */
typedef struct {
    const tt_table *t;
    pg_axis x, y;
    int cx, cy;    /* the columns of t on the axes */
    int64_t *cell; /* row of each cell (x.ncell * y.ncell), -1 if none */
} pg_grid;

/* Places every row of t (columns cx, cy: values of g's axes, built by the
 * caller) on its cell. TT_EINVAL when two rows share one (the message
 * names a parameter that also varies), TT_ENOMEM. */
int tt_pg_grid_fill(tt_ctx *ctx, pg_grid *g, const tt_table *t, int cx, int cy);
void tt_pg_grid_free(pg_grid *g);

typedef struct {
    int zc;          /* the metric's column */
    int contour;     /* contour lines were traced ($contour<id>) */
    int64_t best;    /* the row of the least z */
    double div;      /* display unit of z */
    char unit[64];   /* its name */
    char label[160]; /* "z [unit]" */
} pg_heat;

/* The data, colour range, contours and axes of metric zc over g as panel
 * id, its label beside the colour bar when cblabel; fills h. Then "plot "
 * and tt_pg_heat_layers draw it, other layers after. */
void tt_pg_heat_setup(pg_buf *b, const pg_grid *g, int zc, int id, int view3d, int cblabel,
                   pg_heat *h);
void tt_pg_heat_layers(pg_buf *b, int id, const pg_heat *h);

#endif
