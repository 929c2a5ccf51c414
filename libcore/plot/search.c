/* The search kind of tt-plot (tt/plot.h): the configurations a tuner
 * evaluated, over two of its searched dimensions, on the grid axes of the
 * surface kind (plotgrid.h), optionally above a sweep's heat
 * map. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plotgrid.h"
#include "tt/plot.h"

#define MAX_DIMS 64

/* The searched dimensions: rows [first, first + n) of the space table. */
typedef struct {
    const char *name[MAX_DIMS];
    int scale[MAX_DIMS]; /* PG_LOG, PG_LINEAR, or PG_AUTO for a list */
    int64_t first[MAX_DIMS], n[MAX_DIMS];
    int nd;
} dims;

/* The baselines and the choice, as /tune/result names them. */
enum { M_REC, M_STRICT, M_NOWAIT, NMARKS };
static const char *const mark_roles[NMARKS] = {"recommended", "strict", "no_wait"};
static const char *const mark_names[NMARKS] = {"recommended", "strict consolidation", "no-wait"};

typedef struct {
    const tt_table *h;
    int cpart, cphase, cround, cobj, cfeas, crole, cx, cy;
    int csim;                 /* sim_row, or -1 (a file before it: every row simulated) */
    int gx, gy;               /* w0 of an axis w0.CLASS, or -1 */
    int one_d;                /* y is the objective */
    int split;                /* the file has a test part: the objectives are train's */
    int64_t *search, *gridr;  /* train rows of the search (phase 0), the grid baseline (1) */
    int64_t ns, ng;
    int64_t sims, gsims;      /* the simulations among them (rows that are their sim_row) */
    int64_t mark[NMARKS];     /* train row, -1 when none or off the axes */
    int rounds;               /* of the search: 0 .. rounds - 1 */
    double div;               /* display unit of the objective */
    char unit[64], objname[256];
} search;

static int read_dims(tt_ctx *ctx, const tt_table *space, dims *d)
{
    int cd = tt_table_find(space, "dim"), cs = tt_table_find(space, "scale");
    int cv = tt_table_find(space, "value");
    if (cd < 0 || cs < 0 || cv < 0 || !tt_table_text(space, cd, 0) ||
        !tt_table_text(space, cs, 0) || !tt_table_values(space, cv))
        return tt_err(ctx, TT_EINVAL, "'%s' is not the space of a tune file (dim, scale, value)",
                      tt_table_source(space));
    d->nd = 0;
    for (int64_t r = 0; r < tt_table_rows(space); r++) {
        const char *name = tt_table_text(space, cd, r);
        if (d->nd > 0 && strcmp(name, d->name[d->nd - 1]) == 0) {
            d->n[d->nd - 1]++;
            continue;
        }
        if (d->nd == MAX_DIMS)
            return tt_err(ctx, TT_EINVAL, "'%s': more than %d searched dimensions",
                          tt_table_source(space), MAX_DIMS);
        const char *sc = tt_table_text(space, cs, r);
        d->name[d->nd] = name;
        d->scale[d->nd] = strcmp(sc, "log") == 0      ? PG_LOG
                          : strcmp(sc, "linear") == 0 ? PG_LINEAR
                                                      : PG_AUTO;
        d->first[d->nd] = r;
        d->n[d->nd++] = 1;
    }
    return 0;
}

static int dim_index(const dims *d, const char *name)
{
    for (int i = 0; i < d->nd; i++)
        if (strcmp(d->name[i], name) == 0)
            return i;
    return -1;
}

/* The first dimension that is not other, or NULL. */
static const char *other_dim(const dims *d, const char *other)
{
    for (int i = 0; i < d->nd; i++)
        if (!other || strcmp(d->name[i], other) != 0)
            return d->name[i];
    return NULL;
}

static int unknown_axis(tt_ctx *ctx, const tt_table *h, const dims *d, const char *name)
{
    char list[512];
    size_t k = 0;
    list[0] = '\0';
    for (int i = 0; i < d->nd && k + 1 < sizeof list; i++) {
        int n = snprintf(list + k, sizeof list - k, "%s%s", i ? " " : "", d->name[i]);
        k = n < 0 ? sizeof list : k + (size_t)n;
    }
    return tt_err(ctx, TT_EINVAL, "axis '%s' is not a searched dimension of '%s' (searched: %s%s)",
                  name, tt_table_source(h), list, d->nd == 1 ? "; the other axis is the objective"
                                                             : "");
}

/* 1 when column c differs between rows rows[0..n). */
static int varies_on(const tt_table *t, int c, const int64_t *rows, int64_t n)
{
    char a[64], b[64];
    for (int64_t i = 1; i < n; i++)
        if (strcmp(tt_pg_cell_text(t, c, rows[0], a, sizeof a),
                   tt_pg_cell_text(t, c, rows[i], b, sizeof b)) != 0)
            return 1;
    return 0;
}

/* 1 when role list s ("recommended,hindsight") holds word. */
static int has_role(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; (p = strstr(p, word)) != NULL; p += n)
        if ((p == s || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The sweep beneath must be of the same trace, cluster and models, vary
 * only the two axes, and hold the other parameters as the search did. */
static int check_surface(tt_ctx *ctx, const search *s, const tt_table *sw, const char *xn,
                         const char *yn)
{
    const char *hs = tt_table_source(s->h), *ss = tt_table_source(sw);
    int rc = tt_pg_same_origin(ctx, s->h, sw,
                               "the surface beneath a search is a sweep file of tt-sweep -o");
    if (rc)
        return rc;
    for (int c = 0; c < tt_table_cols(sw); c++) {
        const char *name = tt_table_name(sw, c);
        if (!tt_pg_is_param(name) || strcmp(name, xn) == 0 || strcmp(name, yn) == 0)
            continue;
        char a[64], b[64];
        int hc = tt_table_find(s->h, name);
        if (tt_pg_varies(sw, c))
            return tt_err(ctx, TT_EINVAL, "'%s' also varies '%s': the surface beneath the "
                          "search must be of %s x %s alone", ss, name, xn, yn);
        /* a projected dimension: the surface is one slice of it */
        if (hc < 0 || varies_on(s->h, hc, s->search, s->ns))
            continue;
        const char *va = tt_pg_cell_text(sw, c, 0, a, sizeof a);
        const char *vb = tt_pg_cell_text(s->h, hc, s->search[0], b, sizeof b);
        if (strcmp(va, vb) != 0)
            return tt_err(ctx, TT_EINVAL, "'%s' simulated %s=%s where '%s' searched with "
                          "%s=%s: the surface is of other configurations", ss, name, va, hs,
                          name, vb);
    }
    return 0;
}

/* Row r's value on axis a (0: x, 1: y): a class's own timer that the row
 * leaves to the global one (-1: strict, no-wait) reads as the global
 * value; with one dimension y is the objective. */
static double value_at(const search *s, int a, int64_t r)
{
    double v = tt_table_values(s->h, a ? s->cy : s->cx)[r];
    int g = a ? s->gy : s->gx;
    return v < 0 && g >= 0 ? tt_table_values(s->h, g)[r] : v;
}

/* Where row r is drawn on axis a. */
static double coord(const search *s, const pg_axis *axis, int a, int64_t r)
{
    return a && s->one_d ? value_at(s, 1, r) / s->div : tt_pg_axis_pos(axis, value_at(s, a, r));
}

/* Values of axis a: the space's (dimension k), the sweep's (column sc of
 * sw, valued in every row), and 0 or inf where a baseline has them (an
 * edge column). 0 or TT_ENOMEM. */
static int axis_values(tt_ctx *ctx, const search *s, const tt_table *space, const dims *d, int k,
                       int a, const tt_table *sw, int sc, double **out, int64_t *nout)
{
    int64_t nsw = sw ? tt_table_rows(sw) : 0, n = 0;
    double *v = (double *)malloc((size_t)(d->n[k] + nsw + NMARKS) * sizeof *v);
    if (!v)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    const double *sv = tt_table_values(space, tt_table_find(space, "value"));
    for (int64_t i = 0; i < d->n[k]; i++)
        v[n++] = sv[d->first[k] + i];
    for (int64_t r = 0; r < nsw; r++)
        v[n++] = tt_table_values(sw, sc)[r];
    for (int m = 0; m < NMARKS; m++) {
        double x = s->mark[m] >= 0 ? value_at(s, a, s->mark[m]) : NAN;
        if (x == 0 || x == INFINITY)
            v[n++] = x;
    }
    *out = v;
    *nout = n;
    return 0;
}

/* Red, light to dark, by round: apart from the heat map's viridis. */
static void round_colour(int k, int rounds, char *buf, size_t size)
{
    static const int ramp[4][3] = {{0xfc, 0xae, 0x91}, {0xfb, 0x6a, 0x4a}, {0xcb, 0x18, 0x1d},
                                   {0x67, 0x00, 0x0d}};
    int pos = rounds > 1 ? k * 3000 / (rounds - 1) : 1500; /* permille along the ramp */
    int seg = pos / 1000 < 3 ? pos / 1000 : 2, f = pos - seg * 1000, c[3];
    for (int i = 0; i < 3; i++)
        c[i] = ramp[seg][i] + (ramp[seg + 1][i] - ramp[seg][i]) * f / 1000;
    snprintf(buf, size, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* 1 when train row r ran its own simulation (it shares none). */
static int simulated(const search *s, int64_t r)
{
    return s->csim < 0 || tt_table_values(s->h, s->csim)[r] == (double)r;
}

/* "4 simulations", or "4 simulations, 6 configurations" where rows shared
 * simulations (canonical forms, docs/model.md 8.1): what tt-tune counts. */
static void count_text(int64_t sims, int64_t rows, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%lld simulation%s", (long long)sims, sims == 1 ? "" : "s");
    if (rows != sims && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %lld configuration%s", (long long)rows,
                 rows == 1 ? "" : "s");
}

/* A value for a label, in its display unit: whole numbers from 100 up. */
static void value_text(double v, double div, const char *unit, char *buf, size_t size)
{
    double x = v / div;
    snprintf(buf, size, fabs(x) >= 100 ? "%.0f%s%s" : "%.4g%s%s", x, *unit ? " " : "", unit);
}

/* The title's second line: what the figure leaves out. */
static void notes(const search *s, const dims *d, const char *xn, const char *yn,
                  const tt_table *sw, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    int64_t nr = s->ns + s->ng;
    int64_t *rows = (int64_t *)malloc((size_t)nr * sizeof *rows);
    if (rows) {
        memcpy(rows, s->search, (size_t)s->ns * sizeof *rows);
        memcpy(rows + s->ns, s->gridr, (size_t)s->ng * sizeof *rows);
    }
    for (int i = 0; rows && i < d->nd && k + 1 < size; i++) {
        int c = tt_table_find(s->h, d->name[i]);
        if (strcmp(d->name[i], xn) == 0 || strcmp(d->name[i], yn) == 0 || c < 0 ||
            !varies_on(s->h, c, rows, nr))
            continue;
        int n = snprintf(buf + k, size - k, "%s%s", k ? ", " : "projected over ", d->name[i]);
        k = n < 0 ? size : k + (size_t)n;
    }
    free(rows);
    if (k > 0 && k + 1 < size) {
        int n = snprintf(buf + k, size - k, " (points that differ only there overlap)");
        k = n < 0 ? size : k + (size_t)n;
    }
    const char *split = tt_table_attr(s->h, "split");
    if (sw && k + 1 < size) {
        int n = snprintf(buf + k, size - k, "%sthe heat map of '%s'", k ? "; " : "",
                         tt_table_source(sw));
        k = n < 0 ? size : k + (size_t)n;
        /* "train jobs [0,1400), test jobs [1400,2000)": the search saw the first */
        const char *end = split ? strstr(split, "), ") : NULL;
        if (split && *split && strncmp(split, "none", 4) != 0 && k + 1 < size)
            snprintf(buf + k, size - k, " simulates every job, the search its %.*s",
                     end ? (int)(end - split) + 1 : (int)strlen(split), split);
    }
}

/* $search: x y round feasible, one line per train row of the search. */
static void points(pg_buf *b, const search *s, const pg_axis *ax, const pg_axis *ay)
{
    const double *rd = tt_table_values(s->h, s->cround), *fe = tt_table_values(s->h, s->cfeas);
    tt_pg_add(b, "$search << EOD\n");
    for (int64_t i = 0; i < s->ns; i++) {
        int64_t r = s->search[i];
        tt_pg_add(b, "%.10g\t%.10g\t%.0f\t%d\n", coord(s, ax, 0, r), coord(s, ay, 1, r), rd[r],
               fe[r] != 0);
    }
    tt_pg_add(b, "EOD\n");
    if (s->ng) {
        tt_pg_add(b, "$gridbase << EOD\n");
        for (int64_t i = 0; i < s->ng; i++)
            tt_pg_add(b, "%.10g\t%.10g\n", coord(s, ax, 0, s->gridr[i]),
                   coord(s, ay, 1, s->gridr[i]));
        tt_pg_add(b, "EOD\n");
    }
}

/* The choice and the baselines: a datablock $mark<m> each, and a label
 * with the objective, toward the middle of the plot; a baseline on the
 * choice's row labelled on the other side of it, and labels of marks on
 * one point stacked. */
static void marks(pg_buf *b, const search *s, const pg_axis *ax, const pg_axis *ay)
{
    const double *obj = tt_table_values(s->h, s->cobj);
    double px[NMARKS], py[NMARKS], ylo = INFINITY, yhi = -INFINITY;
    int up[NMARKS];
    for (int64_t i = 0; i < s->ns; i++) {
        double v = coord(s, ay, 1, s->search[i]);
        ylo = v < ylo ? v : ylo;
        yhi = v > yhi ? v : yhi;
    }
    tt_pg_add(b, "set style textbox opaque fc rgb '#ffffff' noborder\n");
    for (int m = 0; m < NMARKS; m++) {
        int64_t r = s->mark[m];
        if (r < 0)
            continue;
        px[m] = coord(s, ax, 0, r);
        py[m] = coord(s, ay, 1, r);
        int right = px[m] > (ax->lo[0] + ax->hi[ax->ncell - 1]) / 2, stack = 0;
        up[m] = m > 0 && s->mark[0] >= 0 && py[0] == py[m] ? !up[0] : py[m] <= (ylo + yhi) / 2;
        for (int k = 0; k < m; k++)
            stack += s->mark[k] >= 0 && px[k] == px[m] && py[k] == py[m];
        char v[64], label[400];
        value_text(obj[r], s->div, s->unit, v, sizeof v);
        snprintf(label, sizeof label, "%s: %s%s = %s", mark_names[m], s->objname,
                 s->split ? " on train" : "", v);
        tt_pg_add(b, "$mark%d << EOD\n%.10g\t%.10g\nEOD\nset label %d ", m, px[m], py[m], m + 1);
        tt_pg_quoted(b, label);
        tt_pg_add(b, " at %.10g,%.10g %s offset %s1.6,%s%.1f front boxed font ',11'\n", px[m], py[m],
               right ? "right" : "left", right ? "-" : "", up[m] ? "" : "-", 1.3 + 1.3 * stack);
    }
}

/* The simulations the search's rows of round k ran (count_text's first
 * number). */
static int64_t round_sims(const search *s, const double *rd, int k)
{
    int64_t sims = 0;
    for (int64_t i = 0; i < s->ns; i++)
        sims += rd[s->search[i]] == k && simulated(s, s->search[i]);
    return sims;
}

/* Rounds with points each get a key entry up to KEY_ROUNDS of them; past
 * that, KEY_BINS entries at most, each a run of rounds. */
#define KEY_ROUNDS 8
#define KEY_BINS 6

/* The search's points of round k. */
static int64_t in_round(const search *s, const double *rd, int k)
{
    int64_t n = 0;
    for (int64_t i = 0; i < s->ns; i++)
        n += rd[s->search[i]] == k;
    return n;
}

/* The plot command: heat map, grid baseline, each round, the marks. */
static void layers(pg_buf *b, const search *s, const tt_table *sw, const pg_heat *heat,
                   const pg_grid *g)
{
    const double *rd = tt_table_values(s->h, s->cround), *fe = tt_table_values(s->h, s->cfeas);
    int infeasible = 0;
    for (int64_t i = 0; i < s->ns; i++)
        infeasible |= fe[s->search[i]] == 0;
    tt_pg_add(b, "plot ");
    const char *sep = "";
    if (sw) {
        tt_pg_heat_layers(b, 1, heat);
        sep = ", \\\n  ";
    }
    char count[96];
    if (s->ng) {
        count_text(s->gsims, s->ng, count, sizeof count);
        tt_pg_add(b, "%s$gridbase using 1:2 with points pt 7 ps 0.6 lc rgb '#8c8c8c' title "
                  "'grid baseline (%s)'",
               sep, count);
        sep = ", \\\n  ";
    }
    /* a key entry a round, or past KEY_ROUNDS rounds with points one a run
     * of them (the colours go from the first to the last in steps) */
    int with = 0;
    for (int k = 0; k < s->rounds; k++)
        with += in_round(s, rd, k) > 0;
    int per = with <= KEY_ROUNDS ? 1 : (with + KEY_BINS - 1) / KEY_BINS, seen = 0;
    for (int k = 0; k < s->rounds; k++) {
        int64_t n = in_round(s, rd, k), sims = round_sims(s, rd, k);
        if (!n)
            continue;
        char col[16], title[160] = "notitle";
        round_colour(k, s->rounds, col, sizeof col);
        if (seen++ % per == 0) { /* the first of its run: the key entry */
            int last = k, m = 1;
            for (int j = k + 1; j < s->rounds && m < per; j++) {
                int64_t nj = in_round(s, rd, j);
                if (nj) {
                    n += nj;
                    sims += round_sims(s, rd, j);
                    last = j;
                    m++;
                }
            }
            count_text(sims, n, count, sizeof count);
            if (last == k)
                snprintf(title, sizeof title, "title 'round %d (%s)'", k, count);
            else
                snprintf(title, sizeof title, "title 'rounds %d-%d (%s)'", k, last, count);
        }
        tt_pg_add(b, "%s$search using 1:(($3 == %d && $4 != 0) ? $2 : NaN) with points pt 7 ps 1.5 "
                  "lc rgb '%s' %s, \\\n"
                  "  $search using 1:(($3 == %d && $4 == 0) ? $2 : NaN) with points pt 6 ps 1.5 "
                  "lw 2.5 lc rgb '%s' notitle",
               sep, k, col, title, k, col);
        sep = ", \\\n  ";
    }
    /* a dark ring around the filled points keeps light colours visible */
    tt_pg_add(b, ", \\\n  $search using 1:($4 != 0 ? $2 : NaN) with points pt 6 ps 1.5 lw 0.8 lc rgb "
              "'#202020' notitle");
    if (infeasible)
        tt_pg_add(b, ", \\\n  NaN with points pt 6 ps 1.5 lw 2.5 lc rgb '#202020' title "
                  "'infeasible (hollow)'");
    static const char *const style[NMARKS] = {
        "pt 6 ps 3.2 lw 5 lc rgb '#ffffff' notitle, $mark0 using 1:2 with points pt 6 ps 3.2 "
        "lw 2.2 lc rgb '#000000'",
        "pt 5 ps 1.9 lc rgb '#1f4e9e'", "pt 9 ps 2.3 lc rgb '#e08000'"};
    for (int m = 0; m < NMARKS; m++) {
        if (s->mark[m] < 0)
            continue;
        tt_pg_add(b, ", \\\n  $mark%d using 1:2 with points %s title ", m, style[m]);
        tt_pg_quoted(b, mark_names[m]);
    }
    if (sw) {
        const tt_table *t = g->t;
        int64_t br = heat->best;
        double px = tt_pg_axis_pos(&g->x, tt_table_values(t, g->cx)[br]);
        double py = tt_pg_axis_pos(&g->y, tt_table_values(t, g->cy)[br]);
        char key[300], v[64];
        value_text(tt_table_values(t, heat->zc)[br], heat->div, heat->unit, v, sizeof v);
        snprintf(key, sizeof key, "least %s of the sweep: %s", tt_table_name(t, heat->zc), v);
        tt_pg_add(b, ", \\\n  '-' using 1:2 with points pt 4 ps 2.6 lw 5 lc rgb '#ffffff' notitle, "
                  "'-' using 1:2 with points pt 4 ps 2.6 lw 1.8 lc rgb '#000000' title ");
        tt_pg_quoted(b, key);
        for (int k = 0; k < 2; k++)
            tt_pg_add(b, "\n%.10g\t%.10g\ne", px, py);
    }
    tt_pg_add(b, "\n");
}

/* Rows, marks, objective unit. */
static int gather(tt_ctx *ctx, search *s)
{
    const tt_table *h = s->h;
    int64_t n = tt_table_rows(h);
    const double *part = tt_table_values(h, s->cpart), *phase = tt_table_values(h, s->cphase);
    const double *rd = tt_table_values(h, s->cround), *obj = tt_table_values(h, s->cobj);
    s->search = (int64_t *)malloc((size_t)n * sizeof *s->search);
    s->gridr = (int64_t *)malloc((size_t)n * sizeof *s->gridr);
    if (!s->search || !s->gridr)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int m = 0; m < NMARKS; m++)
        s->mark[m] = -1;
    s->csim = tt_table_find(h, "sim_row");
    if (s->csim >= 0 && !tt_table_values(h, s->csim))
        s->csim = -1;
    const char *split = tt_table_attr(h, "split");
    s->split = split && *split && strncmp(split, "none", 4) != 0;
    for (int64_t r = 0; r < n; r++) {
        if (part[r] != 0)
            continue;
        if (phase[r] == 0) {
            s->search[s->ns++] = r;
            s->sims += simulated(s, r);
            s->rounds = rd[r] + 1 > s->rounds ? (int)rd[r] + 1 : s->rounds;
        } else if (phase[r] == 1) {
            s->gridr[s->ng++] = r;
            s->gsims += simulated(s, r);
        }
        for (int m = 0; m < NMARKS; m++)
            if (s->mark[m] < 0 && has_role(tt_table_text(h, s->crole, r), mark_roles[m]))
                s->mark[m] = r;
    }
    if (s->ns == 0)
        return tt_err(ctx, TT_EEMPTY, "'%s': nothing to draw: no row of the search on the train "
                      "part (part 0, phase 0)", tt_table_source(h));
    /* the objective's name and unit: those of its metric when it is one */
    const char *text = tt_table_attr(h, "objective");
    const char *st = text ? strstr(text, " s.t. ") : NULL;
    snprintf(s->objname, sizeof s->objname, "%.*s", st ? (int)(st - text) : 255,
             text && *text ? text : "objective");
    int c = tt_table_find(h, s->objname);
    double mx = 0;
    for (int64_t i = 0; i < s->ns; i++) {
        double v = fabs(obj[s->search[i]]);
        mx = isfinite(v) && v > mx ? v : mx;
    }
    tt_plot_unit(c >= 0 && c != s->cobj ? tt_table_units(h, c) : "", mx, &s->div, s->unit,
                 sizeof s->unit);
    return 0;
}

/* The numeric column of the parameter of a class's own timer (w0 of
 * w0.bert), or -1. */
static int global_col(const tt_table *h, const char *name)
{
    const char *dot = strchr(name, '.');
    char base[64];
    if (!dot || dot - name >= (long)sizeof base)
        return -1;
    snprintf(base, sizeof base, "%.*s", (int)(dot - name), name);
    int c = tt_table_find(h, base);
    return c >= 0 && tt_table_values(h, c) ? c : -1;
}

/* The columns, the axes named (or the defaults), the rows. */
static int setup(tt_ctx *ctx, search *s, const dims *d, const tt_plot_opts *o, const char **xn,
                 const char **yn)
{
    const tt_table *h = s->h;
    static const char *const cols[] = {"part", "phase", "round", "objective", "feasible"};
    int *at[] = {&s->cpart, &s->cphase, &s->cround, &s->cobj, &s->cfeas};
    for (int i = 0; i < 5; i++) {
        int rc = tt_pg_need_col(ctx, h, cols[i], "column", at[i]);
        if (rc)
            return rc;
    }
    s->crole = tt_table_find(h, "role");
    if (s->crole < 0 || tt_table_values(h, s->crole))
        return tt_err(ctx, TT_EINVAL, "'%s' has no text column role (a tune file's history)",
                      tt_table_source(h));
    *xn = o->x ? o->x : other_dim(d, o->y);
    *yn = o->y ? o->y : d->nd > 1 ? other_dim(d, *xn) : "objective";
    if (!*xn || strcmp(*xn, *yn) == 0)
        return tt_err(ctx, TT_EINVAL, "the two axes are both '%s'", *yn);
    s->one_d = strcmp(*yn, "objective") == 0;
    if (dim_index(d, *xn) < 0)
        return unknown_axis(ctx, h, d, *xn);
    if (!s->one_d && dim_index(d, *yn) < 0)
        return unknown_axis(ctx, h, d, *yn);
    int rc = tt_pg_need_col(ctx, h, *xn, "dimension", &s->cx);
    if (!rc && s->one_d)
        s->cy = s->cobj;
    else if (!rc)
        rc = tt_pg_need_col(ctx, h, *yn, "dimension", &s->cy);
    s->gx = global_col(h, *xn);
    s->gy = s->one_d ? -1 : global_col(h, *yn);
    return rc ? rc : gather(ctx, s);
}

/* A baseline is drawn when each of its coordinates is a value of its
 * axis, or 0 or inf (an edge column). */
static void keep_marks(search *s, const tt_table *space, const dims *d, const char *xn,
                       const char *yn, const tt_table *sw)
{
    const double *sv = tt_table_values(space, tt_table_find(space, "value"));
    for (int m = 0; m < NMARKS; m++) {
        int64_t r = s->mark[m];
        for (int a = 0; a < 2 && r >= 0 && !(a == 1 && s->one_d); a++) {
            const char *name = a ? yn : xn;
            int k = dim_index(d, name), sc = sw ? tt_table_find(sw, name) : -1;
            double v = value_at(s, a, r);
            int on = v == 0 || v == INFINITY;
            for (int64_t i = 0; i < d->n[k] && !on; i++)
                on = sv[d->first[k] + i] == v;
            for (int64_t i = 0; sc >= 0 && i < tt_table_rows(sw) && !on; i++)
                on = tt_table_values(sw, sc)[i] == v;
            if (!on)
                r = s->mark[m] = -1;
        }
        if (r >= 0 && isnan(tt_table_values(s->h, s->cobj)[r]))
            s->mark[m] = -1;
    }
}

int tt_plot_search(tt_ctx *ctx, const tt_table *h, const tt_table *space, const tt_table *sw,
                   const tt_plot_opts *o, char **script)
{
    *script = NULL;
    dims d;
    search s;
    memset(&s, 0, sizeof s);
    s.h = h;
    pg_grid g;
    memset(&g, 0, sizeof g);
    const char *xn = NULL, *yn = NULL, *zn = o->z ? o->z : "jct_mean";
    int sx = -1, sy = -1, sz = -1;
    double *vx = NULL, *vy = NULL;
    int64_t nx = 0, ny = 0;
    int rc = read_dims(ctx, space, &d);
    if (!rc)
        rc = setup(ctx, &s, &d, o, &xn, &yn);
    if (!rc && o->z && !sw)
        rc = tt_err(ctx, TT_EINVAL, "-z names the metric of the surface beneath (--surface)");
    if (!rc && sw && s.one_d)
        rc = tt_err(ctx, TT_EINVAL, "a surface beneath needs two dimensions on the axes, not "
                    "'%s' and the objective", xn);
    if (!rc && sw &&
        !(rc = tt_pg_need_col(ctx, sw, xn, "parameter", &sx)) &&
        !(rc = tt_pg_need_col(ctx, sw, yn, "parameter", &sy)) &&
        !(rc = tt_pg_need_col(ctx, sw, zn, "metric", &sz)) && !(rc = tt_pg_swept(ctx, sw, sx)) &&
        !(rc = tt_pg_swept(ctx, sw, sy))) {
        if (tt_plot_best(tt_table_values(sw, sz), tt_table_rows(sw)) < 0)
            rc = tt_err(ctx, TT_EEMPTY, "'%s': no value of %s", tt_table_source(sw), zn);
        if (!rc)
            rc = check_surface(ctx, &s, sw, xn, yn);
    }
    if (!rc) {
        keep_marks(&s, space, &d, xn, yn, sw);
        int kx = dim_index(&d, xn), ky = s.one_d ? -1 : dim_index(&d, yn);
        int cu = tt_table_find(space, "units");
        rc = axis_values(ctx, &s, space, &d, kx, 0, sw, sx, &vx, &nx);
        if (!rc)
            rc = tt_pg_axis_init(ctx, &g.x, xn, cu >= 0 ? tt_table_text(space, cu, d.first[kx]) : "",
                              vx, nx, d.scale[kx]);
        if (!rc && ky >= 0)
            rc = axis_values(ctx, &s, space, &d, ky, 1, sw, sy, &vy, &ny);
        if (!rc && ky >= 0)
            rc = tt_pg_axis_init(ctx, &g.y, yn, cu >= 0 ? tt_table_text(space, cu, d.first[ky]) : "",
                              vy, ny, d.scale[ky]);
    }
    if (!rc && sw)
        rc = tt_pg_grid_fill(ctx, &g, sw, sx, sy);
    pg_buf b = {0};
    if (!rc) {
        tt_pg_preamble(&b, o, 1000, 800);
        /* the axes' lengths on the canvas, roughly (a heat map's colour
         * bar takes some of the width) */
        g.x.px = (o->width > 0 ? o->width : 1000) * (sw ? 0.70 : 0.80);
        g.y.px = (o->height > 0 ? o->height : 800) * 0.65;
        g.x.side_by_side = 1;
        pg_heat heat;
        memset(&heat, 0, sizeof heat);
        if (sw) {
            tt_pg_add(&b, "set datafile separator whitespace\nunset grid\n");
            tt_pg_heat_setup(&b, &g, sz, 1, 0, 1, &heat);
        } else {
            tt_pg_axis_tics(&b, &g.x, "x");
            if (!s.one_d)
                tt_pg_axis_tics(&b, &g.y, "y");
        }
        if (s.one_d) {
            char label[400];
            tt_pg_axis_label(s.objname, s.unit, label, sizeof label);
            tt_pg_title(&b, "set ylabel", label);
            tt_pg_add(&b, "set ytics out nomirror\nset offsets 0, 0, graph 0.08, graph 0.08\n");
            double lo = INFINITY, hi = -INFINITY; /* one objective: a range around it */
            for (int64_t i = 0; i < s.ns + s.ng + NMARKS; i++) {
                int64_t r = i < s.ns             ? s.search[i]
                            : i < s.ns + s.ng    ? s.gridr[i - s.ns]
                                                 : s.mark[i - s.ns - s.ng];
                double v = r >= 0 ? value_at(&s, 1, r) : NAN;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            tt_pg_pad_range(&b, "y", lo, hi, s.div, 0, 0);
        }
        char title[1024], note[1024], about[256], fixed[256], count[96], grid[128] = "";
        const char *strat = tt_table_attr(h, "strategy"), *exact = tt_table_attr(h, "exact_train");
        int is_exact = exact && strcmp(exact, "1") == 0;
        /* simulations, as tt-tune counts them (and the configurations where
         * some shared one) */
        if (s.ng) {
            count_text(s.gsims, s.ng, count, sizeof count);
            snprintf(grid, sizeof grid, "; grid baseline %s", count);
        }
        count_text(s.sims, s.ns, count, sizeof count);
        tt_pg_about(h, about, sizeof about);
        tt_pg_fixed_params(h, xn, yn, fixed, sizeof fixed);
        snprintf(title, sizeof title, "%s%ssearch%s for the least %s over %s%s%s (%s%s%s%s in %d "
                 "round%s%s%s%s)", about, *about ? ": " : "", s.split ? " on train" : "",
                 s.objname, xn, s.one_d ? "" : " x ", s.one_d ? "" : yn,
                 strat && *strat ? strat : "", is_exact ? ", exact" : "",
                 (strat && *strat) || is_exact ? ": " : "", count, s.rounds,
                 s.rounds == 1 ? "" : "s", grid, *fixed ? "; " : "", fixed);
        notes(&s, &d, xn, yn, sw, note, sizeof note);
        tt_pg_add(&b, "set title ");
        tt_pg_quoted_fit(&b, o->title ? o->title : title, tt_pg_title_px(o, 1000, 0.85));
        if (*note) {
            tt_pg_add(&b, ".\"\\n\".");
            tt_pg_quoted(&b, note);
        }
        tt_pg_add(&b, "\nset key below left Left reverse samplen 1.5 font ',11' maxcols 3\n");
        points(&b, &s, &g.x, &g.y);
        marks(&b, &s, &g.x, &g.y);
        layers(&b, &s, sw, &heat, &g);
    }
    tt_pg_grid_free(&g);
    free(vx);
    free(vy);
    free(s.search);
    free(s.gridr);
    if (rc) {
        free(b.s);
        return rc;
    }
    return tt_pg_finish(ctx, &b, script);
}
