/* The tuner's results as text (tt/tune.h): the choice beside its
 * baselines as TSV, one row a role with its train and test columns side
 * by side, written to the caller's stream (tt-tune's standard output; the
 * HDF5 tune file of tunefile.c holds every row), and the lines that say
 * what a tune spent, whether its budget looks too small, and how its
 * choice did on the test part. */
#include <math.h>
#include <stdio.h>

#include "tt/tune.h"

int tt_tune_tsv_header(FILE *f)
{
    fprintf(f, "role\tobjective_train\tobjective_test\tregret_test\tfeasible_train\t"
               "feasible_test");
    for (int i = 0; i < TT_NPARAMS; i++)
        fprintf(f, "\t%s", tt_param_names[i]);
    for (int part = 0; part < 2; part++)
        for (int i = 0; i < TT_NMETRICS; i++)
            fprintf(f, "\t%s_%s", part ? "test" : "train", tt_metric_names[i]);
    fputc('\n', f);
    return ferror(f) ? TT_EIO : 0;
}

int tt_tune_tsv_row(FILE *f, const tt_tune *train, const tt_tune *test, const tt_tune_roles *ro,
                    const tt_models *models, int role)
{
    if (role < 0 || role >= ro->nroles)
        return TT_EINVAL;
    const tt_tune_row *a = tt_tune_row_at(train, ro->train_row[role]);
    const tt_tune_row *b = test ? tt_tune_row_at(test, ro->test_row[role]) : NULL;
    char buf[TT_PARAM_TEXT_MAX];
    int ftr = tt_tune_row_feasible(train, ro->train_row[role]);
    fprintf(f, "%s\t%.6f\t", tt_tune_role_names[role], a->objective);
    if (b)
        fprintf(f, "%.6f\t%.6f\t%d\t%d\t", b->objective, b->objective - ro->hindsight, ftr,
                tt_tune_row_feasible(test, ro->test_row[role]));
    else
        fprintf(f, "\t\t%d\t\t", ftr);
    for (int i = 0; i < TT_NPARAMS; i++) {
        tt_params_format(&a->params, models, i, buf, sizeof buf);
        fprintf(f, "%s\t", buf);
    }
    for (int part = 0; part < 2; part++)
        for (int i = 0; i < TT_NMETRICS; i++) {
            if (part == 0 || b)
                tt_metric_format(part ? &b->metrics : &a->metrics, i, buf, sizeof buf);
            fprintf(f, "%s%c", part == 0 || b ? buf : "",
                    part && i + 1 == TT_NMETRICS ? '\n' : '\t');
        }
    return ferror(f) ? TT_EIO : 0;
}

int tt_tune_tsv(FILE *f, const tt_tune *train, const tt_tune *test, const tt_tune_roles *ro,
                const tt_models *models)
{
    int rc = tt_tune_tsv_header(f);
    /* on, after a failed write: the error stays on f either way */
    for (int r = 0; r < ro->nroles; r++) {
        int one = tt_tune_tsv_row(f, train, test, ro, models, r);
        rc = rc ? rc : one;
    }
    return rc;
}

void tt_tune_budget_note(double gain, char *buf, size_t size)
{
    if (isinf(gain))
        snprintf(buf, size, "budget may be too small: the last round found the first "
                            "configuration that meets the conditions");
    else if (gain > TT_TUNE_GAIN_NOTE)
        snprintf(buf, size, "budget may be too small: the last round improved the objective "
                            "by %.1f %%", 100.0 * gain);
    else if (size)
        buf[0] = '\0';
}

void tt_tune_describe(const tt_tune *t, const tt_tune_roles *ro, int test, const char *split,
                      char *buf, size_t size)
{
    int64_t n = tt_tune_sims(t), rows = tt_tune_rows(t), grid = tt_tune_grid_size(t);
    /* configurations that shared a simulation (one canonical form) */
    char shared[64] = "", exact[128] = "";
    if (rows != n)
        snprintf(shared, sizeof shared, " for %lld configurations", (long long)rows);
    int64_t forms = test ? ro->forms_test : ro->forms;
    if (test ? ro->exact_test : ro->exact)
        snprintf(exact, sizeof exact, "exact: all %lld distinct simulations of the grid",
                 (long long)forms);
    if (!test) {
        char tail[160];
        if (*exact)
            snprintf(tail, sizeof tail, ": %s", exact);
        else
            snprintf(tail, sizeof tail, " (search %.1f%%)",
                     100.0 * (double)ro->sims_search / (double)grid);
        snprintf(buf, size, "%lld simulations%s on train (search %lld, grid baseline %lld, "
                 "others %lld) over a grid of %lld%s", (long long)n, shared,
                 (long long)ro->sims_search, (long long)ro->sims_grid,
                 (long long)(n - ro->sims_search - ro->sims_grid), (long long)grid, tail);
        return;
    }
    double regret = tt_tune_row_at(t, ro->test_row[TT_ROLE_RECOMMENDED])->objective -
                    ro->hindsight;
    snprintf(buf, size, "%lld simulations%s on test; regret of the choice on test %.6f (%.2f%% "
             "of the best in hindsight, %s%s%s)", (long long)n, shared, regret,
             ro->hindsight != 0 ? 100.0 * regret / fabs(ro->hindsight) : 0.0, exact,
             *exact ? "; " : "", split);
}
