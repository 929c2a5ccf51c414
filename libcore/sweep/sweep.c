/* Sweeps: the list of configurations (fixed values, grids, a file of
 * rows) kept as checked text and expanded one configuration at a time, so
 * a million-point grid costs its values, not a million parameter sets;
 * tt_run (tt/run.h) runs them. */
#include "tt/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/sha256.h"
#include "io/src.h"
#include "tt/parse.h"

/* |A| and |B| of a linear grid: B - A and the rounding terms stay far
 * below 2^63. */
#define RANGE_MAX ((int64_t)1 << 61)
/* columns of a --configs file: room for a sweep's own TSV (every parameter
 * and metric) with every class's w0 and w1 beside it */
#define MAX_FIELDS (TT_NPARAMS + TT_NMETRICS + 2 * TT_MAX_CLASSES + 1)

enum { USE_NONE, USE_FIXED, USE_GRID, USE_FILE };
static const char *const use_words[] = {"", "fixed with -p", "in a grid",
                                         "in the configurations file"};

/* What a sweep may set: every parameter tt_params_set knows (slots 0 ..
 * TT_NPARAMS_ALL - 1), then each class's own w0 and w1 (slot
 * TT_NPARAMS_ALL + 2 * class + (0 w0, 1 w1)),
 * named w0.CLASS and w1.CLASS, then "preset", which sets several
 * parameters at once and is applied before every other slot, so what -p,
 * -g or the file give explicitly wins over it. */
#define PRESET_SLOT (TT_NPARAMS_ALL + 2 * TT_MAX_CLASSES)
#define NSLOTS (PRESET_SLOT + 1)
#define MIX_SLOT 11    /* "mix" */
#define TIMERS_SLOT 12 /* "timers": all the class timers as one text */
#define MLFQ_SLOT 13   /* "mlfq": thresholds separated by ',' */
#define DIST_SLOT 17   /* "gittins_dist": a path may hold ',' and ':' */

static int is_class_slot(int i) { return i >= TT_NPARAMS_ALL && i < PRESET_SLOT; }

/* One axis of the product: nnames parameters, nvals rows of values
 * (vals[row * nnames + k] is the value of names[k]); or a range of one
 * parameter (A:B:N, log:A:B:N, either with ",inf"), whose values are
 * worked out when asked, so a grid of 10^8 values costs a few bytes. */
typedef struct {
    int nnames;
    int names[NSLOTS];
    int64_t nvals, cap;
    char **vals;    /* NULL for a range */
    int64_t *lines; /* the file's line of each row; NULL for a grid */
    int is_range, is_log, add_inf;
    int64_t A, B, N; /* a range: rows 0 .. N-1, then "inf" when add_inf */
} axis;

struct tt_sweep {
    const tt_models *models;
    char *fixed[NSLOTS]; /* NULL: not fixed */
    int use[NSLOTS];
    axis file; /* nvals = 0: no file */
    char *file_name;
    axis grid[NSLOTS];
    int ngrids;
    char class_names[2 * TT_MAX_CLASSES][72]; /* w0.CLASS, w1.CLASS */
};

/* The slot of name, or -1. */
static int slot_index(const tt_sweep *s, const char *name)
{
    for (int i = 0; i < TT_NPARAMS_ALL; i++)
        if (strcmp(tt_param_names[i], name) == 0)
            return i;
    int which, c;
    if (tt_params_class_timer_name(s->models, name, &which, &c) == 1)
        return TT_NPARAMS_ALL + 2 * c + which;
    return strcmp(name, "preset") == 0 ? PRESET_SLOT : -1;
}

static const char *slot_name(const tt_sweep *s, int i)
{
    if (i == PRESET_SLOT)
        return "preset";
    return i < TT_NPARAMS_ALL ? tt_param_names[i] : s->class_names[i - TT_NPARAMS_ALL];
}

/* The timers parameter and a class's own timer set the same thing: a sweep
 * takes one or the other. 0, or TT_EINVAL naming both. */
static int timers_clash(tt_ctx *ctx, const tt_sweep *s, int i, const char *what)
{
    int other = -1;
    if (i == TIMERS_SLOT) {
        for (int k = TT_NPARAMS_ALL; k < PRESET_SLOT && other < 0; k++)
            if (s->use[k] != USE_NONE)
                other = k;
    } else if (is_class_slot(i) && s->use[TIMERS_SLOT] != USE_NONE) {
        other = TIMERS_SLOT;
    }
    if (other < 0)
        return 0;
    return tt_err(ctx, TT_EINVAL, "%s'%s' and '%s' both set class timers: use one or the other",
                  what, slot_name(s, i), slot_name(s, other));
}

int tt_sweep_create(tt_ctx *ctx, const tt_models *models, tt_sweep **out)
{
    *out = (tt_sweep *)calloc(1, sizeof **out);
    if (!*out)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    (*out)->models = models;
    for (int c = 0; models && c < tt_models_count(models); c++)
        for (int w = 0; w < 2; w++)
            snprintf((*out)->class_names[2 * c + w], sizeof (*out)->class_names[0], "w%d.%s", w,
                     tt_models_name(models, c));
    return 0;
}

static void axis_free(axis *a)
{
    for (int64_t v = 0; a->vals && v < a->nvals * a->nnames; v++)
        free(a->vals[v]);
    free(a->vals);
    free(a->lines);
    memset(a, 0, sizeof *a);
}

void tt_sweep_free(tt_sweep *s)
{
    if (!s)
        return;
    for (int i = 0; i < NSLOTS; i++)
        free(s->fixed[i]);
    axis_free(&s->file);
    for (int g = 0; g < s->ngrids; g++)
        axis_free(&s->grid[g]);
    free(s->file_name);
    free(s);
}

/* Appends one row of values (copied) to a. */
static int axis_add(axis *a, const char *const *vals, int64_t line)
{
    if (a->nvals == a->cap) {
        int64_t cap = a->cap ? a->cap * 2 : 16;
        char **v = (char **)realloc(a->vals, (size_t)(cap * a->nnames) * sizeof *v);
        if (!v)
            return TT_ENOMEM;
        a->vals = v;
        if (line > 0) {
            int64_t *l = (int64_t *)realloc(a->lines, (size_t)cap * sizeof *l);
            if (!l)
                return TT_ENOMEM;
            a->lines = l;
        }
        a->cap = cap;
    }
    for (int k = 0; k < a->nnames; k++) {
        char *copy = strdup(vals[k]);
        if (!copy) {
            for (int q = 0; q < k; q++)
                free(a->vals[a->nvals * a->nnames + q]);
            return TT_ENOMEM;
        }
        a->vals[a->nvals * a->nnames + k] = copy;
    }
    if (line > 0)
        a->lines[a->nvals] = line;
    a->nvals++;
    return 0;
}

static int64_t total_of(const tt_sweep *s, const axis *extra)
{
    int64_t t = s->file.nvals ? s->file.nvals : 1;
    for (int g = 0; g <= s->ngrids; g++) {
        const axis *a = g < s->ngrids ? &s->grid[g] : extra;
        if (!a)
            continue;
        if (a->nvals == 0)
            return 0;
        if (t > TT_SWEEP_MAX_CONFIGS / a->nvals)
            return -1;
        t *= a->nvals;
    }
    return t;
}

int64_t tt_sweep_count(const tt_sweep *s) { return total_of(s, NULL); }

/* Appends x to v (n of them, cap room) unless it is "trace", a bundled
 * name or there. 0 or -1 (out of memory). */
static int add_input(const char ***v, int *n, int *cap, const char *x)
{
    if (strcmp(x, "trace") == 0 || tt_gittins_bundled(x))
        return 0;
    for (int i = 0; i < *n; i++)
        if (strcmp((*v)[i], x) == 0)
            return 0;
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 8;
        const char **w = (const char **)realloc((void *)*v, (size_t)c * sizeof *w);
        if (!w)
            return -1;
        *v = w;
        *cap = c;
    }
    (*v)[(*n)++] = x;
    return 0;
}

int tt_sweep_inputs(tt_ctx *ctx, const tt_sweep *s, const char ***out, int *n)
{
    const char **v = NULL;
    int cap = 0, bad = 0;
    *n = 0;
    if (s->fixed[DIST_SLOT])
        bad = add_input(&v, n, &cap, s->fixed[DIST_SLOT]);
    const axis *ax[NSLOTS + 1];
    int na = 0;
    ax[na++] = &s->file;
    for (int g = 0; g < s->ngrids; g++)
        ax[na++] = &s->grid[g];
    for (int k = 0; !bad && k < na; k++)
        for (int c = 0; !bad && !ax[k]->is_range && c < ax[k]->nnames; c++)
            for (int64_t r = 0; !bad && ax[k]->names[c] == DIST_SLOT && r < ax[k]->nvals; r++)
                bad = add_input(&v, n, &cap, ax[k]->vals[r * ax[k]->nnames + c]);
    if (bad) {
        free((void *)v);
        *n = 0;
        *out = NULL;
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    *out = v;
    return 0;
}

/* Whether value is one tt_params_set takes for parameter i; the reason in
 * why (its message, less the "parameter 'NAME': " it starts with). */
static int value_ok(const tt_sweep *s, int i, const char *value, char *why, size_t size)
{
    tt_ctx *c = tt_ctx_create();
    if (!c) {
        snprintf(why, size, "out of memory");
        return 0;
    }
    tt_params p;
    tt_params_default(&p);
    int ok = tt_params_set(c, &p, s->models, slot_name(s, i), value) == 0;
    if (!ok) {
        char prefix[64];
        const char *msg = tt_errmsg(c);
        int len = snprintf(prefix, sizeof prefix, "parameter '%s': ", slot_name(s, i));
        if (strncmp(msg, prefix, (size_t)len) == 0)
            msg += len;
        snprintf(why, size, "%s", msg);
    }
    tt_ctx_free(c);
    return ok;
}

/* The "unknown parameter 'x' (known: ...)" message of tt_params_set; a
 * name tt_params_set takes that the sweep has no slot for says so, rather
 * than leaving the message empty. */
static void unknown_name(const tt_sweep *s, const char *name, char *why, size_t size)
{
    tt_ctx *c = tt_ctx_create();
    tt_params p;
    tt_params_default(&p);
    if (c && tt_params_set(c, &p, s->models, name, "0") == 0)
        snprintf(why, size, "parameter '%.60s' cannot be swept", name);
    else
        snprintf(why, size, "%s", c ? tt_errmsg(c) : "out of memory");
    tt_ctx_free(c);
}

int tt_sweep_fix(tt_ctx *ctx, tt_sweep *s, const char *name, const char *value)
{
    int i = slot_index(s, name);
    char why[1024];
    if (i < 0) {
        unknown_name(s, name, why, sizeof why);
        return tt_err(ctx, TT_EINVAL, "%s", why);
    }
    if (s->use[i] != USE_NONE && s->use[i] != USE_FIXED)
        return tt_err(ctx, TT_EINVAL, "parameter '%s': fixed with -p but also %s", name,
                      use_words[s->use[i]]);
    if (timers_clash(ctx, s, i, ""))
        return TT_EINVAL;
    if (!value_ok(s, i, value, why, sizeof why))
        return tt_err(ctx, TT_EINVAL, "parameter '%s': %s", name, why);
    char *copy = strdup(value);
    if (!copy)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    free(s->fixed[i]);
    s->fixed[i] = copy;
    s->use[i] = USE_FIXED;
    return 0;
}

/* ---- grids ---- */

/* A linear or geometric range into a (its values: range_value). */
static int range_parse(tt_ctx *ctx, axis *a, const char *label, int is_log, const char *ta,
                       const char *tb, const char *tn)
{
    int64_t A, B, N;
    const char *bad = tt_parse_i64(ta, &A) ? ta : tt_parse_i64(tb, &B) ? tb : NULL;
    if (bad)
        return tt_err(ctx, TT_EINVAL, "grid '%s': '%s' is not an integer", label, bad);
    if (tt_parse_i64(tn, &N) || N < 1 || N > TT_SWEEP_MAX_CONFIGS)
        return tt_err(ctx, TT_EINVAL, "grid '%s': N: expected a count 1 .. %lld, got '%s'",
                      label, (long long)TT_SWEEP_MAX_CONFIGS, tn);
    if (is_log && (A <= 0 || B <= 0))
        return tt_err(ctx, TT_EINVAL, "grid '%s': a log grid needs A > 0 and B > 0", label);
    if (!is_log && (A < -RANGE_MAX || A > RANGE_MAX || B < -RANGE_MAX || B > RANGE_MAX))
        return tt_err(ctx, TT_EINVAL, "grid '%s': A and B must lie within +-2^61 (use a list "
                      "for larger values)", label);
    a->is_range = 1;
    a->is_log = is_log;
    a->A = A;
    a->B = B;
    a->N = a->nvals = N;
    return 0;
}

/* Value i (0 <= i < N) of the range a: tt/sweep.h's grammar. */
static int64_t range_value(const axis *a, int64_t i)
{
    int64_t A = a->A, B = a->B, M = a->N - 1;
    if (i == 0)
        return A;
    if (i == M)
        return B;
    if (a->is_log) /* the only floating point of a sweep: it makes values */
        return llround((double)A * pow((double)B / (double)A, (double)i / (double)M));
    return tt_sweep_linear_value(A, B, a->N, i);
}

int64_t tt_sweep_linear_value(int64_t A, int64_t B, int64_t n, int64_t i)
{
    int64_t M = n - 1;
    if (M <= 0 || i == 0)
        return A;
    /* B - A = q * M + r, 0 <= r < M; A + round(q * i + r * i / M), halves
     * up; r * i < M^2 < 2^62 */
    int64_t q = (B - A) / M, r = (B - A) % M;
    if (r < 0) {
        r += M;
        q--;
    }
    return A + q * i + (2 * r * i + M) / (2 * M);
}

/* The text of names[k] in row of a (buf holds a range's values). */
static const char *axis_text(const axis *a, int64_t row, int k, char *buf, size_t size)
{
    if (!a->is_range)
        return a->vals[row * a->nnames + k];
    if (row == a->N)
        return "inf";
    snprintf(buf, size, "%lld", (long long)range_value(a, row));
    return buf;
}

/* The items of a list separated by sep, into a. */
static int list_values(tt_ctx *ctx, axis *a, const char *label, const char *spec, char sep)
{
    const char *item = spec;
    for (;;) {
        size_t len = strcspn(item, (char[]){sep, '\0'});
        if (len == 0)
            return tt_err(ctx, TT_EINVAL, "grid '%s': an empty value in the list", label);
        char *text = (char *)malloc(len + 1);
        if (!text)
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        memcpy(text, item, len);
        text[len] = '\0';
        const char *tp = text;
        int rc = axis_add(a, &tp, 0);
        free(text);
        if (rc)
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        if (!item[len])
            return 0;
        item += len + 1;
    }
}

static int grid_parse(tt_ctx *ctx, axis *a, int i, const char *spec, const char *label)
{
    if (!*spec)
        return tt_err(ctx, TT_EINVAL, "grid '%s': no values", label);
    /* mix, timers and mlfq values hold ',' (and ':'), and so may a path:
     * their grids are lists separated by ';' */
    if (i == MIX_SLOT || i == TIMERS_SLOT || i == MLFQ_SLOT || i == DIST_SLOT)
        return list_values(ctx, a, label, spec, ';');
    if (i == PRESET_SLOT)
        return list_values(ctx, a, label, spec, ',');
    if (!strchr(spec, ':'))
        return list_values(ctx, a, label, spec, ',');
    /* a range may end in ",inf": the timers' and theta's "never" beside
     * their finite values (value_ok refuses it for other parameters) */
    size_t end = strlen(spec);
    int add_inf = end > 4 && strcmp(spec + end - 4, ",inf") == 0;
    if (add_inf)
        end -= 4;
    char part[4][64];
    int n = 0;
    const char *p = spec, *stop = spec + end;
    for (;;) {
        size_t len = strcspn(p, ":");
        if (p + len > stop)
            len = (size_t)(stop - p);
        if (n < 4)
            snprintf(part[n], sizeof part[n], "%.*s", (int)(len < 63 ? len : 63), p);
        n++;
        if (p + len >= stop)
            break;
        p += len + 1;
    }
    int is_log = n == 4 && strcmp(part[0], "log") == 0;
    if (n != 3 && !is_log)
        return tt_err(ctx, TT_EINVAL, "grid '%s': expected A:B:N, log:A:B:N (either may end "
                      "in ,inf) or a list a,b,c", label);
    int rc = range_parse(ctx, a, label, is_log, part[is_log], part[is_log + 1],
                         part[is_log + 2]);
    if (!rc && add_inf) {
        a->add_inf = 1;
        a->nvals++;
    }
    return rc;
}

/* The first value of the grid a over parameter i that tt_params_set
 * refuses (the reason in why), or -1. A range is not read value by value:
 * the integers each parameter takes form an interval and a range's values
 * go from A to B in order, so when A is good its values are good up to the
 * first bad one, which a binary search finds. */
static int64_t first_bad(const tt_sweep *s, int i, const axis *a, char *why, size_t size)
{
    char text[32];
    if (!a->is_range) {
        for (int64_t v = 0; v < a->nvals; v++)
            if (!value_ok(s, i, a->vals[v], why, size))
                return v;
        return -1;
    }
    int64_t good = 0, bad = a->N - 1;
    if (!value_ok(s, i, axis_text(a, 0, 0, text, sizeof text), why, size))
        return 0;
    if (value_ok(s, i, axis_text(a, bad, 0, text, sizeof text), why, size)) {
        bad = a->add_inf && !value_ok(s, i, "inf", why, size) ? a->N : -1;
        return bad;
    }
    while (bad - good > 1) { /* value good is taken, value bad is not */
        int64_t mid = good + (bad - good) / 2;
        if (value_ok(s, i, axis_text(a, mid, 0, text, sizeof text), why, size))
            good = mid;
        else
            bad = mid;
    }
    value_ok(s, i, axis_text(a, bad, 0, text, sizeof text), why, size); /* its reason */
    return bad;
}

int tt_sweep_grid(tt_ctx *ctx, tt_sweep *s, const char *name, const char *spec)
{
    char label[128], why[1024];
    snprintf(label, sizeof label, "%.40s=%.60s%s", name, spec, strlen(spec) > 60 ? "..." : "");
    int i = slot_index(s, name);
    if (i < 0) {
        unknown_name(s, name, why, sizeof why);
        return tt_err(ctx, TT_EINVAL, "grid '%s': %s", label, why);
    }
    if (s->use[i] != USE_NONE)
        return tt_err(ctx, TT_EINVAL, "grid '%s': parameter '%s' is already %s", label, name,
                      use_words[s->use[i]]);
    char what[160];
    snprintf(what, sizeof what, "grid '%s': ", label);
    if (timers_clash(ctx, s, i, what))
        return TT_EINVAL;
    axis a;
    memset(&a, 0, sizeof a);
    a.nnames = 1;
    a.names[0] = i;
    int rc = grid_parse(ctx, &a, i, spec, label);
    char text[32];
    int64_t v = rc ? -1 : first_bad(s, i, &a, why, sizeof why);
    if (v >= 0)
        rc = tt_err(ctx, TT_EINVAL, "grid '%s': value %lld ('%s'): %s", label, (long long)v + 1,
                    axis_text(&a, v, 0, text, sizeof text), why);
    if (!rc && total_of(s, &a) < 0)
        rc = tt_err(ctx, TT_EINVAL, "grid '%s': more than %lld configurations in all", label,
                    (long long)TT_SWEEP_MAX_CONFIGS);
    if (rc) {
        axis_free(&a);
        return rc;
    }
    s->grid[s->ngrids++] = a;
    s->use[i] = USE_GRID;
    return 0;
}

/* ---- the configurations file ---- */

/* The next non-blank line, split on tabs and trimmed: 1, 0 at the end, or
 * a negative code. */
static int file_row(tt_src *src, tt_ctx *ctx, char **f, int *nf)
{
    char *line;
    for (;;) {
        int rc = tt_src_getline(src, ctx, &line, NULL);
        if (rc <= 0)
            return rc;
        if (line[strspn(line, " \t")] != '\0')
            break;
    }
    int n = tt_tab_split(line, f, MAX_FIELDS);
    for (int k = 0; k < n && k < MAX_FIELDS; k++)
        f[k] = tt_trim(f[k]);
    *nf = n;
    return 1;
}

/* 1 when name is a metric: a sweep's own TSV output read back as
 * configurations carries them after the parameters, and they are not
 * configuration. */
static int is_metric(const char *name)
{
    for (int i = 0; i < TT_NMETRICS; i++)
        if (strcmp(tt_metric_names[i], name) == 0)
            return 1;
    return 0;
}

static int read_configs(tt_ctx *ctx, tt_sweep *s, tt_src *src, axis *a)
{
    const char *file = tt_src_label(src);
    char *f[MAX_FIELDS], why[1024];
    int n = 0, rc = file_row(src, ctx, f, &n);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return tt_err(ctx, TT_EPARSE, "%s:1: empty: expected a header of parameter names",
                      file);
    long long line = (long long)tt_src_lineno(src);
    if (n >= MAX_FIELDS)
        return tt_err(ctx, TT_EPARSE, "%s:%lld: %d columns: at most %d", file, line, n,
                      MAX_FIELDS - 1);
    int ncols = n, col[MAX_FIELDS]; /* the header's columns kept, in order */
    a->nnames = 0;
    for (int k = 0; k < n; k++) {
        int i = slot_index(s, f[k]);
        if (i < 0 && is_metric(f[k]))
            continue;
        if (i < 0) {
            unknown_name(s, f[k], why, sizeof why);
            return tt_err(ctx, TT_EPARSE, "%s:%lld: field '%s': %s", file, line, f[k], why);
        }
        for (int q = 0; q < a->nnames; q++)
            if (a->names[q] == i)
                return tt_err(ctx, TT_EPARSE, "%s:%lld: field '%s': named twice", file, line,
                              f[k]);
        if (s->use[i] != USE_NONE)
            return tt_err(ctx, TT_EPARSE, "%s:%lld: field '%s': parameter already %s", file,
                          line, f[k], use_words[s->use[i]]);
        char what[600];
        snprintf(what, sizeof what, "%s:%lld: field '%s': ", file, line, f[k]);
        for (int q = 0; q < a->nnames; q++)
            if ((i == TIMERS_SLOT && is_class_slot(a->names[q])) ||
                (is_class_slot(i) && a->names[q] == TIMERS_SLOT))
                return tt_err(ctx, TT_EPARSE, "%s'%s' and '%s' both set class timers: use one "
                              "or the other", what, f[k], slot_name(s, a->names[q]));
        if (timers_clash(ctx, s, i, what))
            return TT_EPARSE;
        col[a->nnames] = k;
        a->names[a->nnames++] = i;
    }
    if (a->nnames == 0)
        return tt_err(ctx, TT_EPARSE, "%s:%lld: no parameter column (metric columns are "
                      "ignored)", file, line);
    while ((rc = file_row(src, ctx, f, &n)) == 1) {
        line = (long long)tt_src_lineno(src);
        if (n != ncols)
            return tt_err(ctx, TT_EPARSE, "%s:%lld: expected %d fields, got %d", file, line,
                          ncols, n);
        for (int k = 0; k < a->nnames; k++) {
            f[k] = f[col[k]]; /* col[k] >= k: the kept fields move left */
            if (!value_ok(s, a->names[k], f[k], why, sizeof why))
                return tt_err(ctx, TT_EPARSE, "%s:%lld: field '%s': %s", file, line,
                              slot_name(s, a->names[k]), why);
        }
        if (axis_add(a, (const char *const *)f, line))
            return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    if (rc < 0)
        return rc;
    if (a->nvals == 0)
        return tt_err(ctx, TT_EPARSE, "%s:%lld: no configuration: expected rows under the "
                      "header", file, line);
    return 0;
}

int tt_sweep_configs(tt_ctx *ctx, tt_sweep *s, const char *path)
{
    if (s->file.nvals)
        return tt_err(ctx, TT_EINVAL, "one configurations file only");
    tt_src *src = NULL;
    int rc = tt_src_open(ctx, path, &src);
    if (rc)
        return rc;
    axis a;
    memset(&a, 0, sizeof a);
    rc = read_configs(ctx, s, src, &a);
    tt_src_close(src);
    if (!rc) {
        int64_t t = total_of(s, &a);
        if (t < 0)
            rc = tt_err(ctx, TT_EINVAL, "'%s': more than %lld configurations in all", path,
                        (long long)TT_SWEEP_MAX_CONFIGS);
    }
    if (!rc && !(s->file_name = strdup(path)))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    if (rc) {
        axis_free(&a);
        return rc;
    }
    s->file = a;
    for (int k = 0; k < a.nnames; k++)
        s->use[a.names[k]] = USE_FILE;
    return 0;
}

/* ---- configurations ---- */

/* The file row of configuration k, or -1 without a file; rows[g] the
 * value of grid g. */
static int64_t decode(const tt_sweep *s, int64_t k, int64_t *rows)
{
    for (int g = s->ngrids - 1; g >= 0; g--) {
        rows[g] = k % s->grid[g].nvals;
        k /= s->grid[g].nvals;
    }
    return s->file.nvals ? k : -1;
}

/* Row row of axis a into p: its preset (presets = 1) or everything else. */
static int apply(tt_ctx *ctx, const tt_sweep *s, const axis *a, int64_t row, tt_params *p,
                 int presets)
{
    for (int k = 0; k < a->nnames; k++) {
        char text[32];
        if ((a->names[k] == PRESET_SLOT) != presets)
            continue;
        int rc = tt_params_set(ctx, p, s->models, slot_name(s, a->names[k]),
                               axis_text(a, row, k, text, sizeof text));
        if (rc)
            return rc;
    }
    return 0;
}

int tt_sweep_params(tt_ctx *ctx, const tt_sweep *s, int64_t k, tt_params *p)
{
    if (k < 0 || k >= tt_sweep_count(s))
        return tt_err(ctx, TT_EINVAL, "configuration %lld: out of range 0 .. %lld",
                      (long long)k, (long long)tt_sweep_count(s) - 1);
    int64_t rows[NSLOTS];
    int64_t frow = decode(s, k, rows);
    tt_params_default(p);
    int rc = 0;
    /* the preset first, wherever it comes from; then the rest */
    for (int presets = 1; presets >= 0 && !rc; presets--) {
        for (int i = 0; i < NSLOTS && !rc; i++)
            if (s->fixed[i] && (i == PRESET_SLOT) == presets)
                rc = tt_params_set(ctx, p, s->models, slot_name(s, i), s->fixed[i]);
        if (!rc && frow >= 0)
            rc = apply(ctx, s, &s->file, frow, p, presets);
        for (int g = 0; g < s->ngrids && !rc; g++)
            rc = apply(ctx, s, &s->grid[g], rows[g], p, presets);
    }
    return rc;
}

void tt_sweep_preset(const tt_sweep *s, int64_t k, char *buf, size_t size)
{
    int64_t rows[NSLOTS];
    buf[0] = '\0';
    if (k < 0 || k >= tt_sweep_count(s))
        return;
    int64_t frow = decode(s, k, rows);
    /* applied in this order, so the last one found is the row's */
    if (s->fixed[PRESET_SLOT])
        snprintf(buf, size, "%s", s->fixed[PRESET_SLOT]);
    for (int g = -1; g < s->ngrids; g++) {
        const axis *a = g < 0 ? &s->file : &s->grid[g];
        int64_t row = g < 0 ? frow : rows[g];
        if (row < 0)
            continue;
        for (int n = 0; n < a->nnames; n++) {
            char tmp[32];
            if (a->names[n] == PRESET_SLOT)
                snprintf(buf, size, "%s", axis_text(a, row, n, tmp, sizeof tmp));
        }
    }
}

void tt_sweep_label(const tt_sweep *s, int64_t k, char *buf, size_t size)
{
    int64_t rows[NSLOTS];
    int64_t frow = k >= 0 && k < tt_sweep_count(s) ? decode(s, k, rows) : -1;
    if (frow >= 0)
        snprintf(buf, size, "configuration %lld (%s:%lld)", (long long)k, s->file_name,
                 (long long)s->file.lines[frow]);
    else
        snprintf(buf, size, "configuration %lld", (long long)k);
}

/* The parameters a digest always hashes, one tab-separated line a
 * configuration; those after them (SPEC 11's, then section 10's) are
 * hashed as "\tNAME=VALUE" before the newline only where they differ from
 * the default, so a sweep that leaves them at their defaults keeps the
 * digest it always had. */
#define DIGEST_PARAMS 13

int tt_sweep_digest(tt_ctx *ctx, const tt_sweep *s, char hex[65])
{
    tt_sha256 h;
    tt_sha256_init(&h);
    int64_t n = tt_sweep_count(s);
    char one[TT_PARAM_TEXT_MAX], def[TT_PARAM_TEXT_MAX];
    tt_params d;
    tt_params_default(&d);
    for (int64_t k = 0; k < n; k++) {
        tt_params p;
        int rc = tt_sweep_params(ctx, s, k, &p);
        if (rc)
            return rc;
        for (int i = 0; i < TT_NPARAMS_ALL; i++) {
            tt_params_format(&p, s->models, i, one, sizeof one);
            if (i < DIGEST_PARAMS) {
                tt_sha256_update(&h, one, strlen(one));
                if (i + 1 < DIGEST_PARAMS)
                    tt_sha256_update(&h, "\t", 1);
                continue;
            }
            tt_params_format(&d, s->models, i, def, sizeof def);
            if (strcmp(one, def) == 0)
                continue;
            tt_sha256_update(&h, "\t", 1);
            tt_sha256_update(&h, tt_param_names[i], strlen(tt_param_names[i]));
            tt_sha256_update(&h, "=", 1);
            tt_sha256_update(&h, one, strlen(one));
        }
        tt_sha256_update(&h, "\n", 1);
    }
    tt_sha256_hex(&h, hex);
    return 0;
}

int64_t tt_sweep_shard_count(int64_t total, int64_t k, int64_t n)
{
    if (n < 1 || k < 0 || k >= n || total <= k)
        return 0;
    return (total - k + n - 1) / n;
}


/* ---- running ---- */

/* A run's configuration i: position idx[i] of the sweep. */
typedef struct {
    const tt_sweep *s;
    const int64_t *idx;
} positions;

static int position_params(void *arg, tt_ctx *ctx, int64_t i, tt_params *p)
{
    const positions *q = (const positions *)arg;
    return tt_sweep_params(ctx, q->s, q->idx[i], p);
}

static void position_label(void *arg, int64_t i, char *buf, size_t size)
{
    const positions *q = (const positions *)arg;
    tt_sweep_label(q->s, q->idx[i], buf, size);
}

int tt_sweep_run(tt_ctx *ctx, const tt_sweep *s, const tt_cluster *c, const tt_sim_jobs *j,
                 const int64_t *idx, int64_t count, const tt_run_opts *opts,
                 tt_metrics *metrics)
{
    if (!s || !c || !j || (count > 0 && (!idx || !metrics)) || count < 0)
        return tt_err(ctx, TT_EINVAL, "tt_sweep_run: missing argument");
    int64_t total = tt_sweep_count(s);
    for (int64_t i = 0; i < count; i++)
        if (idx[i] < 0 || idx[i] >= total)
            return tt_err(ctx, TT_EINVAL, "configuration %lld: out of range 0 .. %lld",
                          (long long)idx[i], (long long)total - 1);
    positions q = {s, idx};
    tt_run_source src = {position_params, position_label, &q};
    return tt_run(ctx, c, s->models, j, &src, count, opts, metrics);
}
