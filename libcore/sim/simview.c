/* Rows a person reads (tt/simfile.h, tt_view): a chosen set of columns as
 * TSV, or each row as name, value and unit lines with the value also in the
 * units people think in (days, hours, GPU-hours, %). The units come from
 * the storage description (simdesc.c), so a metric's unit is written once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/simdesc.h"
#include "tt/simfile.h"

#define COL_PRESET (TT_NPARAMS + TT_NMETRICS)

static const char *col_name(int c)
{
    return c < TT_NPARAMS ? tt_param_names[c]
           : c < COL_PRESET ? tt_metric_names[c - TT_NPARAMS]
                            : "preset";
}

/* Edit distance of a and b (at most 63 characters are compared). */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), d[64][64];
    la = la > 63 ? 63 : la;
    lb = lb > 63 ? 63 : lb;
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int x = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int y = d[i - 1][j] + 1 < d[i][j - 1] + 1 ? d[i - 1][j] + 1 : d[i][j - 1] + 1;
            d[i][j] = x < y ? x : y;
        }
    return d[la][lb];
}

const char *tt_view_suggest(const char *name, const char *const *names, int n)
{
    const char *best = NULL;
    int bd = 3; /* at most two edits: a typo, not another word */
    for (int i = 0; i < n; i++) {
        int d = distance(name, names[i]);
        size_t ln = strlen(name);
        if (ln >= 3 && strncmp(names[i], name, ln) == 0)
            d = d < 1 ? d : 1; /* a prefix of a longer name */
        if (d < bd) {
            bd = d;
            best = names[i];
        }
    }
    return best;
}

int tt_view_parse(tt_ctx *ctx, const char *list, tt_view *v)
{
    v->n = 0;
    if (!list || !*list) {
        for (int c = 0; c < COL_PRESET; c++)
            v->col[v->n++] = (int16_t)c;
        return 0;
    }
    const char *all[COL_PRESET + 1];
    for (int c = 0; c <= COL_PRESET; c++)
        all[c] = col_name(c);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char name[64];
        if (len == 0 || len >= sizeof name)
            return tt_err(ctx, TT_EINVAL, "-m %s: an empty or overlong column name", list);
        memcpy(name, s, len);
        name[len] = '\0';
        int found = -1;
        for (int c = 0; c <= COL_PRESET && found < 0; c++)
            if (strcmp(name, all[c]) == 0)
                found = c;
        if (found < 0) {
            const char *near = tt_view_suggest(name, all, COL_PRESET + 1);
            if (near)
                return tt_err(ctx, TT_EINVAL, "-m: no column '%s' (did you mean '%s'?)", name,
                              near);
            return tt_err(ctx, TT_EINVAL,
                          "-m: no column '%s': a parameter, a metric or preset (tt-sim's header)",
                          name);
        }
        if (v->n == TT_VIEW_MAX)
            return tt_err(ctx, TT_EINVAL, "-m %s: more than %d columns", list, TT_VIEW_MAX);
        v->col[v->n++] = (int16_t)found;
        s += len + (e ? 1 : 0);
    }
    return 0;
}

int tt_view_tsv_header(FILE *f, const tt_view *v)
{
    for (int k = 0; k < v->n; k++)
        fprintf(f, "%s%c", col_name(v->col[k]), k + 1 < v->n ? '\t' : '\n');
    return ferror(f) ? TT_EIO : 0;
}

static void cell(int c, const tt_params *p, const tt_models *models, const tt_metrics *m,
                 const char *preset, char *buf, size_t size)
{
    if (c < TT_NPARAMS)
        tt_params_format(p, models, c, buf, size);
    else if (c < COL_PRESET)
        tt_metric_format(m, c - TT_NPARAMS, buf, size);
    else
        snprintf(buf, size, "%s", preset && *preset ? preset : "-");
}

int tt_view_tsv_row(FILE *f, const tt_view *v, const tt_params *p, const tt_models *models,
                    const tt_metrics *m, const char *preset)
{
    char buf[TT_PARAM_TEXT_MAX];
    for (int k = 0; k < v->n; k++) {
        cell(v->col[k], p, models, m, preset, buf, sizeof buf);
        fprintf(f, "%s%c", buf, k + 1 < v->n ? '\t' : '\n');
    }
    return ferror(f) ? TT_EIO : 0;
}

/* x seconds in the unit that reads best. */
static void human_s(double x, char *buf, size_t size)
{
    double a = fabs(x);
    if (a >= 2 * 86400.0)
        snprintf(buf, size, "%.2f days", x / 86400);
    else if (a >= 2 * 3600.0)
        snprintf(buf, size, "%.2f hours", x / 3600);
    else if (a >= 120.0)
        snprintf(buf, size, "%.1f minutes", x / 60);
    else
        snprintf(buf, size, "%g s", x);
}

/* The value of column c in people's units, "" when the raw text says it. */
static void human(int c, const tt_params *p, const tt_metrics *m, char *buf, size_t size)
{
    buf[0] = '\0';
    const char *u;
    double x;
    if (c < TT_NPARAMS) {
        const sd_param *d = &tt_sd_params[c];
        if (d->kind != SD_I64 || !d->units)
            return;
        int64_t v = *(const int64_t *)(const void *)((const char *)p + d->off);
        if (d->inf && v == INT64_MAX)
            return;
        u = d->units;
        x = (double)v;
    } else if (c < COL_PRESET) {
        int i = c - TT_NPARAMS;
        u = tt_sd_metrics[i].units;
        x = tt_metric_value(m, i);
        if (isnan(x))
            return;
    } else {
        return;
    }
    if (strcmp(u, "s") == 0) {
        if (fabs(x) >= 120.0)
            human_s(x, buf, size);
    } else if (strcmp(u, "GPU-s") == 0) {
        if (fabs(x) >= 3600.0)
            snprintf(buf, size, "%.1f GPU-hours", x / 3600);
    } else if (strncmp(u, "fraction", 8) == 0) {
        snprintf(buf, size, "%.1f %%%s", 100 * x, u + 8);
    } else if (strcmp(u, "permille") == 0) {
        snprintf(buf, size, "%gx", x / 1000);
    } else {
        snprintf(buf, size, "%s", u);
    }
}

int tt_view_human(FILE *f, const tt_view *v, const tt_params *p, const tt_models *models,
                  const tt_metrics *m, const char *preset)
{
    char raw[TT_PARAM_TEXT_MAX], hum[96];
    int w = 0;
    for (int k = 0; k < v->n; k++) {
        int l = (int)strlen(col_name(v->col[k]));
        w = l > w ? l : w;
    }
    for (int k = 0; k < v->n; k++) {
        int c = v->col[k];
        cell(c, p, models, m, preset, raw, sizeof raw);
        human(c, p, m, hum, sizeof hum);
        if (*hum && strcmp(hum, raw) != 0)
            fprintf(f, "%-*s  %s  (%s)\n", w, col_name(c), raw, hum);
        else
            fprintf(f, "%-*s  %s\n", w, col_name(c), raw);
    }
    return ferror(f) ? TT_EIO : 0;
}

void tt_view_human_default(const tt_params *p, const tt_models *models, const tt_metrics *m,
                           const char *preset, tt_view *v)
{
    tt_params d;
    char a[TT_PARAM_TEXT_MAX], b[TT_PARAM_TEXT_MAX];
    tt_params_default(&d);
    v->n = 0;
    if (preset && *preset)
        v->col[v->n++] = COL_PRESET;
    for (int c = 0; c < TT_NPARAMS; c++) {
        tt_params_format(p, models, c, a, sizeof a);
        tt_params_format(&d, models, c, b, sizeof b);
        if (c == 0 || strcmp(a, b) != 0)
            v->col[v->n++] = (int16_t)c;
    }
    /* SPEC 7's metrics always; the later models' where they are not 0 */
    for (int c = TT_NPARAMS; c < COL_PRESET; c++) {
        double x = tt_metric_value(m, c - TT_NPARAMS);
        if (c - TT_NPARAMS <= TT_METRIC_LAST_SPEC7 || (x != 0 && !isnan(x)))
            v->col[v->n++] = (int16_t)c;
    }
}
