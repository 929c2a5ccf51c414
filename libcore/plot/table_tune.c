/* Tables from tune files (tt/tune.h): /tune/history with the roles of
 * /tune/result, and /tune/space. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/layout.h"
#include "plot/table_impl.h"
#include "tt/sim.h"

static const char *const history_names[] = {"part",      "phase",    "round",    "sim_row",
                                            "objective", "feasible", "predicted"};

/* The columns of /tune/rolling in tt_tune_rolling_tsv's order (the
 * searched dimensions, read as extras, come after). */
static const char *const rolling_names[] = {
    "window",      "start",          "end",         "jobs",       "job_from",
    "job_to",      "objective",      "exact",       "sims",       "next_jobs",
    "next_choice", "next_hindsight", "next_strict", "next_first", "row",
    "next_choice_row", "next_hindsight_row", "next_strict_row", "next_first_row"};

/* Appends ",word" (or "word" to "") to *s. 0 or -1. */
static int append_word(char **s, const char *word)
{
    size_t n = strlen(*s), w = strlen(word);
    char *r = (char *)realloc(*s, n + w + 2);
    if (!r)
        return -1;
    snprintf(r + n, w + 2, "%s%s", n ? "," : "", word);
    *s = r;
    return 0;
}

/* Column role: the roles of /tune/result whose train_row or test_row is
 * the row. */
static int add_roles(tt_ctx *ctx, const char *path, hid_t f, tt_table *t)
{
    static const char *const names[] = {"role", "train_row", "test_row"};
    tt_table *res = tt_tab_new(PATH_TUNE_RESULT);
    column *col = res ? tt_tab_add_col(t, "role", "", 1) : NULL;
    int rc = col ? 0 : tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t r = 0; !rc && r < t->n; r++)
        if (!(col->s[r] = strdup("")))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = tt_tab_read_group(ctx, path, f, PATH_TUNE_RESULT, names, 3, 0, res);
    int c[3];
    for (int i = 0; i < 3; i++)
        c[i] = rc ? -1 : tt_table_find(res, names[i]);
    if (!rc && (c[0] < 0 || c[1] < 0 || c[2] < 0 || !res->cols[c[0]].s || !res->cols[c[1]].v ||
                !res->cols[c[2]].v))
        rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/result needs role (text), train_row and "
                    "test_row (integers)", path);
    for (int64_t k = 0; !rc && k < res->n; k++)
        for (int i = 1; i < 3 && !rc; i++) {
            double row = res->cols[c[i]].v[k];
            if (row == -1) /* none */
                continue;
            if (!(row >= 0 && row < (double)t->n))
                rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/result/%s[%lld]: %.0f is not a row "
                            "of /tune/history (%lld rows)", path, names[i], (long long)k, row,
                            (long long)t->n);
            else if (append_word(&col->s[(int64_t)row], res->cols[c[0]].s[k]))
                rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        }
    tt_table_free(res);
    return rc;
}

/* Parameter order, per-class names (w0.bert) after their parameter. */
static int param_rank(const char *name)
{
    size_t n = strcspn(name, ".");
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strlen(tt_param_names[i]) == n && strncmp(tt_param_names[i], name, n) == 0)
            return i;
    return TT_NPARAMS;
}

static int cmp_dims(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int rx = param_rank(x), ry = param_rank(y);
    return rx != ry ? (rx > ry) - (rx < ry) : strcmp(x, y);
}

/* One row per value of each searched dimension: dim, scale, units, value.
 * Dimensions in the order the file created them where it keeps that
 * order, else in parameter order. */
static int read_space(tt_ctx *ctx, const char *path, hid_t f, tt_table *t)
{
    hid_t g = H5Lexists(f, PATH_TUNE_SPACE, H5P_DEFAULT) > 0
                  ? H5Gopen2(f, PATH_TUNE_SPACE, H5P_DEFAULT)
                  : -1;
    if (g < 0)
        return tt_err(ctx, TT_EFORMAT, "'%s': no group /tune/space", path);
    h5u_names l;
    int rc = 0, kept = tt_tab_list_datasets(g, H5_INDEX_CRT_ORDER, &l) == 0;
    if (!kept && tt_tab_list_datasets(g, H5_INDEX_NAME, &l))
        rc = tt_err(ctx, TT_EFORMAT, "'%s': cannot list /tune/space", path);
    else if (!kept)
        qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_dims);
    if (!rc && l.n == 0)
        rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/space holds no dimension", path);
    tt_table **dims = (tt_table **)calloc((size_t)(l.n > 0 ? l.n : 1), sizeof *dims);
    char(*scale)[16] = (char(*)[16])calloc((size_t)(l.n > 0 ? l.n : 1), sizeof *scale);
    if (!rc && (!dims || !scale))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int i = 0; i < l.n && !rc; i++) {
        if (!(dims[i] = tt_tab_new(l.v[i])))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        else if ((dims[i]->n = tt_tab_dataset_len(g, l.v[i])) < 1)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/space/%s holds no value", path, l.v[i]);
        else if (!(rc = tt_tab_read_dataset(ctx, path, PATH_TUNE_SPACE, g, l.v[i], dims[i])) &&
                 !dims[i]->cols[0].v)
            rc = tt_err(ctx, TT_EFORMAT, "'%s': /tune/space/%s is not numbers", path, l.v[i]);
        hid_t d = rc ? -1 : H5Dopen2(g, l.v[i], H5P_DEFAULT);
        if (d >= 0) {
            tt_tab_attr_text(d, "scale", scale[i], sizeof scale[i]);
            H5Dclose(d);
        }
        t->n += rc ? 0 : dims[i]->n;
    }
    if (!rc && (!tt_tab_add_col(t, "dim", "", 1) || !tt_tab_add_col(t, "scale", "", 1) ||
                !tt_tab_add_col(t, "units", "", 1) || !tt_tab_add_col(t, "value", "", 0)))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int i = 0, r = 0; i < l.n && !rc; i++)
        for (int64_t k = 0; k < dims[i]->n && !rc; k++, r++) {
            const char *text[3] = {l.v[i], scale[i], dims[i]->cols[0].units};
            for (int c = 0; c < 3 && !rc; c++)
                if (!(t->cols[c].s[r] = strdup(text[c])))
                    rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            t->cols[3].v[r] = dims[i]->cols[0].v[k];
        }
    for (int i = 0; dims && i < l.n; i++)
        tt_table_free(dims[i]);
    free(dims);
    free(scale);
    tt_h5u_names_free(&l);
    H5Gclose(g);
    return rc;
}

int tt_tab_read_tune(tt_ctx *ctx, const char *path, hid_t f, tt_table_part part, tt_table *t)
{
    int rc = tt_tab_read_attrs(ctx, path, f, PATH_TUNE, t);
    if (rc || part == TT_TABLE_TUNE_SPACE)
        return rc ? rc : read_space(ctx, path, f, t);
    if (part == TT_TABLE_TUNE_ROLLING) {
        if (H5Lexists(f, PATH_TUNE_ROLLING, H5P_DEFAULT) <= 0)
            return tt_err(ctx, TT_EFORMAT, "'%s': a tune file without /tune/rolling (tt-tune "
                          "--rolling -o writes one)", path);
        return tt_tab_read_group(ctx, path, f, PATH_TUNE_ROLLING, rolling_names,
                                 NELEM(rolling_names), 1, t);
    }
    rc = tt_tab_read_group(ctx, path, f, PATH_TUNE_HISTORY, history_names, NELEM(history_names), 1,
                           t);
    if (!rc)
        rc = tt_tab_read_group(ctx, path, f, PATH_TUNE_HISTORY_PARAMS, tt_param_names, TT_NPARAMS,
                               1, t);
    if (!rc)
        rc = tt_tab_read_group(ctx, path, f, PATH_TUNE_HISTORY_METRICS, tt_metric_names,
                               TT_NMETRICS, 1, t);
    return rc ? rc : add_roles(ctx, path, f, t);
}

