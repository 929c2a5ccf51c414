/* The tuner's results as text: the TSV rows of the roles, with and without
 * a test part, a failing stream, and the lines on what a tune spent. */
#include "testutil.h"
#include "tune/tuneutil.h"

/* The roles of grid searches of 4 over w0 = 0, 10 .. 90 (lattice points
 * 0, 30, 60, 90) on bowls centred at 50 (train) and 20 (test). */
typedef struct {
    tt_objective *o;
    tt_tune *tr, *te;
    tt_tune_roles ro;
} roles_case;

static void roles_make(roles_case *c, int with_test)
{
    tt_params base;
    tt_params_default(&base);
    c->o = obj("jct_mean");
    const char *w0s = "0,10,20,30,40,50,60,70,80,90";
    c->tr = line_tune(w0s, &base, c->o);
    c->te = with_test ? line_tune(w0s, &base, c->o) : NULL;
    bowl_part ptr = {50, 0}, pte = {20, 0};
    tt_tune_opts opts = {.strategy = TT_TUNE_GRID, .budget = 4, .seed = 1};
    cr_assert_eq(tt_tune_run_roles(NULL, c->tr, c->te, &opts, NULL, bowl_eval, &ptr, &pte,
                                   &c->ro), 0);
}

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
