/* The tuner's results as text (tt/tune.h): the choice beside its
 * baselines as TSV, one row a role with its train and test columns side
 * by side, written to the caller's stream (tt-tune's standard output; the
 * HDF5 tune file of tunefile.c holds every row), and the lines that say
 * what a tune spent, whether its budget looks too small or the grid
 * baseline beat the search, and how its choice did on the test part
 * against the baselines. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tt/tune.h"
#include "tune/tune_impl.h"

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

void tt_tune_budget_note(double gain, double room, int exact, int64_t sims, int64_t forms,
                         int64_t grid, char *buf, size_t size)
{
    static const char head[] = "budget may be too small: ";
    if (exact) {
        if (size)
            buf[0] = '\0';
    } else if (isinf(gain)) {
        snprintf(buf, size, "%sthe last round found the first configuration that meets the "
                 "conditions", head);
    } else if (gain > TT_TUNE_GAIN_NOTE) {
        snprintf(buf, size, "%sthe last round improved the objective by %.1f %%", head,
                 100.0 * gain);
    } else if (room > TT_TUNE_ROOM_NOTE) {
        snprintf(buf, size, "%sa surrogate fitted to the search's points leaves room for a "
                 "configuration it did not simulate %.1f %% below its choice (the mean less %g "
                 "standard deviations)", head, 100.0 * room, TT_TUNE_ROOM_SD);
    } else if (isnan(room)) {
        snprintf(buf, size, "%sno surrogate could be fitted to say how far below its choice a "
                 "configuration it did not simulate may lie", head);
    } else if (forms >= 0) {
        snprintf(buf, size, "%sit did not run %lld of the grid's %lld distinct simulations; a "
                 "surrogate fitted to its points sees none more than %g %% below its choice, "
                 "which on a rough landscape is no promise", head, (long long)(forms - sims),
                 (long long)forms, 100.0 * TT_TUNE_ROOM_NOTE);
    } else {
        snprintf(buf, size, "%sit ran %lld simulations of a grid of %lld points; a surrogate "
                 "fitted to its points sees none more than %g %% below its choice, which on a "
                 "rough landscape is no promise", head, (long long)sims, (long long)grid,
                 100.0 * TT_TUNE_ROOM_NOTE);
    }
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

void tt_tune_exact_note(const tt_tune *train, const tt_tune_roles *ro, char *buf, size_t size)
{
    if (ro->exact) {
        if (size)
            buf[0] = '\0';
        return;
    }
    if (ro->forms >= 0)
        snprintf(buf, size, "not exact: the search ran %lld of the grid's %lld distinct "
                 "simulations; how far its choice lies from the grid's best is not known "
                 "(--budget %lld makes it exact)", (long long)ro->sims_search,
                 (long long)ro->forms, (long long)ro->forms);
    else
        snprintf(buf, size, "not exact: the search ran %lld simulations over a grid of %lld "
                 "points (%s); how far its choice lies from the grid's best is not known",
                 (long long)ro->sims_search, (long long)tt_tune_grid_size(train),
                 tt_tune_grid_size(train) > TT_TUNE_EXACT_POINTS
                     ? "too many to count its distinct simulations"
                     : "its distinct simulations not counted");
}

/* Where rows a and b of t stand, ranked as a search ranks ("best" bounds
 * over every row of t): < 0 when a ranks before b, > 0 after, 0 a tie. */
static int rank_rows(const tt_tune *t, int64_t a, int64_t b)
{
    double bound[TT_OBJ_MAX_CONDS];
    tt_obj_bounds(t->obj, &t->rows[0].metrics, sizeof *t->rows, t->nrows, bound);
    double oa = t->rows[a].objective, ob = t->rows[b].objective;
    double va = tt_obj_violation(t->obj, bound, &t->rows[a].metrics);
    double vb = tt_obj_violation(t->obj, bound, &t->rows[b].metrics);
    return tt_obj_ranks_before(oa, va, ob, vb) ? -1 : tt_obj_ranks_before(ob, vb, oa, va);
}

/* How far objective x lies from y, as a percentage of y (NAN when y is 0
 * or either is not a number). */
static double pct(double x, double y)
{
    return y != 0 && !isnan(x) && !isnan(y) ? 100.0 * fabs(x - y) / fabs(y) : NAN;
}

/* Row r of t meets every condition of its objective ("best" bounds over
 * every row of t). */
static int meets(const tt_tune *t, int64_t r)
{
    return tt_tune_row_feasible(t, r);
}

void tt_tune_grid_note(const tt_tune *train, const tt_tune_roles *ro, char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    int64_t rec = ro->train_row[TT_ROLE_RECOMMENDED], grid = ro->train_row[TT_ROLE_GRID_BEST];
    if (rec < 0 || grid < 0 || rank_rows(train, grid, rec) >= 0)
        return;
    double g = train->rows[grid].objective, r = train->rows[rec].objective;
    if (meets(train, grid) && !meets(train, rec))
        snprintf(buf, size, "the grid baseline beat the search on train: grid_best meets the "
                 "conditions there, the recommended configuration does not (a larger --budget "
                 "may find it)");
    else
        snprintf(buf, size, "the grid baseline beat the search on train: grid_best's objective "
                 "%.6f is %.2f %% below the recommended configuration's %.6f (a larger "
                 "--budget may find it)", g, pct(g, r), r);
}

/* The baselines a choice is held against on test, as the verdict names
 * them, and what to do where one beats it. */
static const int verdict_roles[] = {TT_ROLE_STRICT, TT_ROLE_NO_WAIT, TT_ROLE_GRID_BEST};
static const char *const verdict_names[] = {"strict consolidation", "no-wait",
                                            "the grid baseline's choice"};
static const char *const verdict_advice[] = {"keep strict consolidation", "prefer no-wait",
                                             "prefer the grid baseline's choice"};

/* Appends text to buf (at *k of size). */
static void add(char *buf, size_t size, size_t *k, const char *text)
{
    if (*k + 1 < size) {
        int n = snprintf(buf + *k, size - *k, "%s", text);
        *k = n < 0 ? size : *k + (size_t)n;
    }
}

void tt_tune_verdict(const tt_tune *test, const tt_tune_roles *ro, char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    int64_t rec = test ? ro->test_row[TT_ROLE_RECOMMENDED] : -1;
    if (rec < 0)
        return;
    enum { NB = sizeof verdict_roles / sizeof verdict_roles[0] };
    int64_t row[NB];
    int order[NB], won = -1, nb = 0;
    for (int i = 0; i < NB; i++) {
        int role = verdict_roles[i];
        row[i] = ro->test_row[role];
        /* the grid baseline's choice, where it is the choice, says nothing */
        if (row[i] < 0 || (role == TT_ROLE_GRID_BEST &&
                           ro->train_row[role] == ro->train_row[TT_ROLE_RECOMMENDED]))
            continue;
        order[nb++] = i;
        if (rank_rows(test, row[i], rec) < 0 && (won < 0 || rank_rows(test, row[i], row[won]) < 0))
            won = i;
    }
    double r = test->rows[rec].objective;
    char part[256];
    size_t k = 0;
    add(buf, size, &k, "on the test part the recommended configuration ");
    if (won >= 0) {
        double b = test->rows[row[won]].objective;
        if (meets(test, row[won]) && !meets(test, rec))
            snprintf(part, sizeof part, "breaks the conditions that %s meets: %s",
                     verdict_names[won], verdict_advice[won]);
        else if (!meets(test, rec))
            snprintf(part, sizeof part, "breaks the conditions by more than %s: %s",
                     verdict_names[won], verdict_advice[won]);
        else if (isnan(pct(r, b)))
            snprintf(part, sizeof part, "is worse than %s (%.6f against %.6f): %s",
                     verdict_names[won], r, b, verdict_advice[won]);
        else
            snprintf(part, sizeof part, "is %.2f %% worse than %s: %s", pct(r, b),
                     verdict_names[won], verdict_advice[won]);
        add(buf, size, &k, part);
        return;
    }
    /* it beats or ties every baseline: by how much each */
    int nbeat = 0, ntie = 0;
    for (int j = 0; j < nb; j++)
        nbeat += rank_rows(test, rec, row[order[j]]) < 0;
    ntie = nb - nbeat;
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? ntie : nbeat, done = 0;
        if (!n)
            continue;
        add(buf, size, &k, pass ? (nbeat ? ", and ties with " : "ties with ") : "beats ");
        for (int j = 0; j < nb; j++) {
            int i = order[j], beat = rank_rows(test, rec, row[i]) < 0;
            if (beat == pass)
                continue;
            double b = test->rows[row[i]].objective;
            const char *sep = done == 0 ? "" : done + 1 == n ? " and " : ", ";
            if (pass)
                snprintf(part, sizeof part, "%s%s", sep, verdict_names[i]);
            else if (!meets(test, row[i]))
                snprintf(part, sizeof part, "%s%s (which breaks the conditions)", sep,
                         verdict_names[i]);
            else if (isnan(pct(r, b)))
                snprintf(part, sizeof part, "%s%s (%.6f against %.6f)", sep, verdict_names[i],
                         r, b);
            else
                snprintf(part, sizeof part, "%s%s by %.2f %%", sep, verdict_names[i],
                         pct(r, b));
            add(buf, size, &k, part);
            done++;
        }
    }
}
