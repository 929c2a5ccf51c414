/* The tuner's results as text: the TSV rows of the roles, with and without
 * a test part, a failing stream, the lines on what a tune spent, on a
 * grid baseline that beat the search, and the verdict on the test part. */
#include "testutil.h"
#include "tune/tuneutil.h"

/* The roles of grid searches of 4 over w0 = 0, 10 .. 90 (lattice points
 * 0, 30, 60, 90) on bowls centred at 50 (train) and 20 (test). */
typedef struct {
    tt_objective *o;
    tt_tune *tr, *te;
    tt_tune_roles ro;
} roles_case;

/* The roles with the test part's bowl centred at centre, for objective. */
static void roles_make_at(roles_case *c, int with_test, int64_t centre, const char *objective)
{
    tt_params base;
    tt_params_default(&base);
    c->o = obj(objective);
    const char *w0s = "0,10,20,30,40,50,60,70,80,90";
    c->tr = line_tune(w0s, &base, c->o);
    c->te = with_test ? line_tune(w0s, &base, c->o) : NULL;
    bowl_part ptr = {50, 0}, pte = {centre, 0};
    tt_tune_opts opts = {.strategy = TT_TUNE_GRID, .budget = 4, .seed = 1};
    cr_assert_eq(tt_tune_run_roles(NULL, c->tr, c->te, &opts, NULL, bowl_eval, &ptr, &pte,
                                   &c->ro), 0);
}

static void roles_make(roles_case *c, int with_test) { roles_make_at(c, with_test, 20, "jct_mean"); }

static void roles_free(roles_case *c)
{
    tt_tune_free(c->tr);
    tt_tune_free(c->te);
    tt_objective_free(c->o);
}

/* The TSV of c into a string (the caller frees it). */
static char *tsv_of(const roles_case *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    cr_expect_eq(tt_tune_tsv(f, c->tr, c->te, &c->ro, NULL), 0);
    fclose(f);
    return buf;
}

/* Field k (from 0) of line l (from 0) of text, into out. */
static const char *field(const char *text, int l, int k, char *out, size_t size)
{
    while (l-- > 0 && text)
        text = (text = strchr(text, '\n')) ? text + 1 : NULL;
    while (k-- > 0 && text)
        text = (text = strpbrk(text, "\t\n")) && *text == '\t' ? text + 1 : NULL;
    size_t n = text ? strcspn(text, "\t\n") : 0;
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), text ? text : "");
    return out;
}

/* The lines of s, each expected to hold 6 + 13 + 2 x 16 columns. */
static int lines_of(const char *s)
{
    int lines = 0, tabs = 0;
    for (const char *p = s; *p; p++) {
        tabs += *p == '\t';
        if (*p == '\n') {
            cr_expect_eq(tabs, 6 + TT_NPARAMS + 2 * TT_NMETRICS - 1, "line %d: %d tabs", lines,
                         tabs);
            lines++;
            tabs = 0;
        }
    }
    return lines;
}

Test(tunetext, tsv_with_test_part)
{
    roles_case c;
    roles_make(&c, 1);
    char *s = tsv_of(&c), f[256];
    cr_expect_eq(lines_of(s), 1 + TT_NROLES, "a header and five roles");
    cr_expect_str_eq(field(s, 0, 0, f, sizeof f), "role");
    cr_expect_str_eq(field(s, 0, 6, f, sizeof f), "order");
    cr_expect_str_eq(field(s, 0, 6 + TT_NPARAMS, f, sizeof f), "train_makespan");
    cr_expect_str_eq(field(s, 0, 6 + TT_NPARAMS + TT_NMETRICS, f, sizeof f), "test_makespan");
    /* recommended: w0 = 60, 100 on train, 1600 on test, hindsight 100 */
    cr_expect_str_eq(field(s, 1, 0, f, sizeof f), "recommended");
    cr_expect_str_eq(field(s, 1, 1, f, sizeof f), "100.000000");
    cr_expect_str_eq(field(s, 1, 2, f, sizeof f), "1600.000000");
    cr_expect_str_eq(field(s, 1, 3, f, sizeof f), "1500.000000");
    cr_expect_str_eq(field(s, 1, 4, f, sizeof f), "1");
    cr_expect_str_eq(field(s, 1, 7, f, sizeof f), "60");
    cr_expect_str_eq(field(s, 1, 6 + TT_NPARAMS + 1, f, sizeof f), "100.000000");
    cr_expect_str_eq(field(s, 1, 6 + TT_NPARAMS + TT_NMETRICS + 1, f, sizeof f), "1600.000000");
    /* strict: w0 = inf, 950^2 on train; the hindsight: regret 0 */
    cr_expect_str_eq(field(s, 2, 0, f, sizeof f), "strict");
    cr_expect_str_eq(field(s, 2, 7, f, sizeof f), "inf");
    cr_expect_str_eq(field(s, 2, 1, f, sizeof f), "902500.000000");
    cr_expect_str_eq(field(s, 5, 0, f, sizeof f), "hindsight");
    cr_expect_str_eq(field(s, 5, 3, f, sizeof f), "0.000000");
    free(s);
    /* a role out of range; a stream that takes no writes */
    cr_expect_eq(tt_tune_tsv_row(stdout, c.tr, c.te, &c.ro, NULL, TT_NROLES), TT_EINVAL);
    FILE *ro = fopen("/dev/null", "r");
    cr_assert_not_null(ro);
    cr_expect_eq(tt_tune_tsv_header(ro), TT_EIO);
    cr_expect_eq(tt_tune_tsv(ro, c.tr, c.te, &c.ro, NULL), TT_EIO);
    fclose(ro);
    roles_free(&c);
}

Test(tunetext, tsv_without_test_part)
{
    roles_case c;
    roles_make(&c, 0);
    char *s = tsv_of(&c), f[256];
    cr_expect_eq(lines_of(s), 1 + TT_ROLE_HINDSIGHT, "no hindsight without a test part");
    cr_expect_str_eq(field(s, 1, 1, f, sizeof f), "100.000000");
    for (int k = 2; k <= 5; k++)
        cr_expect_str_eq(field(s, 1, k, f, sizeof f), k == 4 ? "1" : "", "column %d", k);
    cr_expect_str_eq(field(s, 1, 6 + TT_NPARAMS + TT_NMETRICS, f, sizeof f), "");
    cr_expect(strstr(s, "\t\n") != NULL, "the test metrics are empty to the end of the row");
    free(s);
    roles_free(&c);
}

Test(tunetext, describe)
{
    roles_case c;
    roles_make(&c, 1);
    char line[512];
    tt_tune_describe(c.tr, &c.ro, 0, "train jobs [0,7), test jobs [7,10)", line, sizeof line);
    /* train: the search's 4, no new grid point, strict, no_wait and the
     * hindsight (w0 = 30, a search row already) */
    cr_expect_str_eq(line, "6 simulations on train (search 4, grid baseline 0, others 2) over a "
                           "grid of 10 (search 40.0%)");
    tt_tune_describe(c.te, &c.ro, 1, "train jobs [0,7), test jobs [7,10)", line, sizeof line);
    cr_expect_str_eq(line, "6 simulations on test; regret of the choice on test 1500.000000 "
                           "(1500.00% of the best in hindsight, train jobs [0,7), test jobs "
                           "[7,10))");
    roles_free(&c);
}

/* The grid baseline's choice ranked before the search's on train: said,
 * with both objectives; not when it is the search's choice. */
Test(tunetext, grid_note)
{
    roles_case c;
    roles_make(&c, 1);
    char line[512];
    tt_tune_grid_note(c.tr, &c.ro, line, sizeof line);
    cr_expect_str_eq(line, "");
    /* the search's rows 0 .. 3: w0 0, 30, 60, 90 (2500, 400, 100, 1600):
     * as if it had chosen 30 and the grid 60 */
    c.ro.train_row[TT_ROLE_RECOMMENDED] = 1;
    tt_tune_grid_note(c.tr, &c.ro, line, sizeof line);
    cr_expect_str_eq(line, "the grid baseline beat the search on train: grid_best's objective "
                           "100.000000 is 75.00 % below the recommended configuration's "
                           "400.000000 (a larger --budget may find it)");
    /* the search's choice better than the grid's: nothing */
    c.ro.train_row[TT_ROLE_RECOMMENDED] = 2;
    c.ro.train_row[TT_ROLE_GRID_BEST] = 1;
    tt_tune_grid_note(c.tr, &c.ro, line, sizeof line);
    cr_expect_str_eq(line, "");
    roles_free(&c);
}

/* The verdict on the test part, the choice being w0 = 60 (the train
 * bowl's centre 50) and the test bowl's centre moved: the best baseline
 * that beats it named with how much and what to do; else by how much it
 * beats each, ties apart; conditions broken said as such; nothing
 * without a test part. The grid baseline chose the same row: left out. */
Test(tunetext, verdict)
{
    static const struct {
        int64_t centre;
        const char *objective, *want;
    } cases[] = {
        /* 1600 against no_wait's 400 and strict's 980^2 */
        {20, "jct_mean", "on the test part the recommended configuration is 300.00 % worse than "
                         "no-wait: prefer no-wait"},
        /* 0 against 3600 and 940^2 */
        {60, "jct_mean", "on the test part the recommended configuration beats strict "
                         "consolidation by 100.00 % and no-wait by 100.00 %"},
        /* 900 and 900: a tie; strict 970^2 */
        {30, "jct_mean", "on the test part the recommended configuration beats strict "
                         "consolidation by 99.90 %, and ties with no-wait"},
        /* the test rows' best, 100 (the hindsight's w0 = 30), bounds jct_mean
         * at 500: no_wait's 400 meets it, the choice's 1600 not */
        {20, "jct_mean s.t. jct_mean <= 5 * best",
         "on the test part the recommended configuration breaks the conditions that no-wait "
         "meets: prefer no-wait"},
        /* at 150: both break it, the choice by more */
        {20, "jct_mean s.t. jct_mean <= 1.5 * best",
         "on the test part the recommended configuration breaks the conditions by more than "
         "no-wait: prefer no-wait"},
        /* the choice bounds it at 0: both baselines break it */
        {60, "jct_mean s.t. jct_mean <= 1.5 * best",
         "on the test part the recommended configuration beats strict consolidation (which "
         "breaks the conditions) and no-wait (which breaks the conditions)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        roles_case c;
        roles_make_at(&c, 1, cases[k].centre, cases[k].objective);
        cr_assert_eq(c.ro.train_row[TT_ROLE_GRID_BEST], c.ro.train_row[TT_ROLE_RECOMMENDED]);
        char line[512];
        tt_tune_verdict(c.te, &c.ro, line, sizeof line);
        cr_expect_str_eq(line, cases[k].want, "case %zu: %s", k, line);
        tt_tune_verdict(NULL, &c.ro, line, sizeof line);
        cr_expect_str_eq(line, "");
        roles_free(&c);
    }
    /* the grid baseline's choice another configuration, better on test:
     * the best of the baselines that beat the choice (its objective 0: no
     * percentage of it) */
    roles_case c;
    roles_make_at(&c, 1, 30, "jct_mean");
    c.ro.train_row[TT_ROLE_GRID_BEST] = 1;     /* w0 = 30 on train */
    c.ro.test_row[TT_ROLE_GRID_BEST] = 4;      /* w0 = 30 on test: 0 */
    cr_assert_eq(tt_tune_row_at(c.te, 4)->params.w0, 30);
    char line[512];
    tt_tune_verdict(c.te, &c.ro, line, sizeof line);
    cr_expect_str_eq(line, "on the test part the recommended configuration is worse than the "
                           "grid baseline's choice (900.000000 against 0.000000): prefer the "
                           "grid baseline's choice");
    roles_free(&c);
}

/* What a search that was not exact says it left: the grid's distinct
 * simulations where it counted them (refine and model do: without a
 * trace every point is one), with the budget that makes it exact; the
 * grid baseline's strategy does not count; an exact search says nothing. */
Test(tunetext, exact_note)
{
    tt_params base;
    tt_params_default(&base);
    tt_objective *o = obj("jct_mean");
    const char *w0s = "0,10,20,30,40,50,60,70,80,90";
    char line[512];
    for (int budget = 4; budget <= 10; budget += 6) {
        tt_tune *tr = line_tune(w0s, &base, o);
        bowl_part ptr = {50, 0};
        tt_tune_opts opts = {.strategy = TT_TUNE_MODEL, .budget = budget, .batch = 2, .seed = 1};
        tt_tune_roles ro;
        cr_assert_eq(tt_tune_run_roles(NULL, tr, NULL, &opts, NULL, bowl_eval, &ptr, NULL, &ro),
                     0);
        tt_tune_exact_note(tr, &ro, line, sizeof line);
        if (budget == 10)
            cr_expect_str_eq(line, "");
        else
            cr_expect_str_eq(line, "not exact: the search ran 4 of the grid's 10 distinct "
                                   "simulations; how far its choice lies from the grid's best "
                                   "is not known (--budget 10 makes it exact)");
        tt_tune_free(tr);
    }
    roles_case c;
    roles_make(&c, 0);
    tt_tune_exact_note(c.tr, &c.ro, line, sizeof line);
    cr_expect_str_eq(line, "not exact: the search ran 4 simulations over a grid of 10 points "
                           "(its distinct simulations not counted); how far its choice lies "
                           "from the grid's best is not known");
    roles_free(&c);
    tt_objective_free(o);
}
