/* The objective language: its grammar and normalised text, the value of
 * a weighted sum, and the ranking of metric sets, feasible ones first and
 * those without a value last. */
#include <math.h>

#include "testutil.h"
#include "tune/tune_impl.h"
#include "tune/tuneutil.h"

static void obj_bad(const char *text, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = NULL;
    cr_expect_eq(tt_objective_parse(ctx, text, &o), TT_EINVAL, "'%s' accepted", text);
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "'%s': '%s' lacks '%s'", text,
              tt_errmsg(ctx), want);
    cr_expect_null(o);
    tt_ctx_free(ctx);
}

Test(objective, grammar)
{
    tt_metrics m;
    memset(&m, 0, sizeof m);
    m.jct_mean = 100.5;
    m.makespan = 2000;
    m.util = 0.5;
    tt_objective *o = obj("jct_mean");
    cr_expect_str_eq(tt_objective_text(o), "jct_mean");
    cr_expect_eq(tt_objective_value(o, &m), 100.5);
    tt_objective_free(o);
    /* 0.5 * 100.5 + 0.25 * 2000 - 1000 * 0.5 = 50.25 */
    o = obj(" 0.5*jct_mean+0.25 * makespan -1000*util");
    cr_expect_str_eq(tt_objective_text(o), "0.5 * jct_mean + 0.25 * makespan - 1000 * util");
    cr_expect_eq(tt_objective_value(o, &m), 50.25);
    tt_objective_free(o);
    o = obj("-util");
    cr_expect_eq(tt_objective_value(o, &m), -0.5);
    tt_objective_free(o);
    o = obj("jct_mean s.t. makespan <= 1.05 * best and util >= 0.3");
    cr_expect_str_eq(tt_objective_text(o), "jct_mean s.t. makespan <= 1.05 * best and util >= 0.3");
    tt_objective_free(o);
    obj_bad("jct_avg", "unknown metric 'jct_avg' (known: makespan jct_mean");
    obj_bad("jct_mean s.t. nosuch <= 3", "unknown metric 'nosuch'");
    obj_bad("jct_mean s.t. makespan < 3", "expected <= or >=");
    obj_bad("jct_mean s.t. makespan <= 0.9 * best", "can never hold (the factor must be >= 1)");
    obj_bad("jct_mean s.t. util >= 1.1 * best", "can never hold (the factor must be <= 1)");
    obj_bad("jct_mean +", "expected a metric at '(end)'");
    obj_bad("2 jct_mean", "expected '*' after a weight");
    obj_bad("jct_mean makespan", "unexpected text at 'makespan'");
    obj_bad("", "expected a metric");
    /* past a double: the text would say inf, which does not read back */
    obj_bad("1e999 * makespan", "objective '1e999 * makespan': a number too large at '1e999");
    obj_bad("makespan s.t. util >= 1e400", "a number too large at '1e400'");
}

/* Five metric sets: the objective jct_mean, a condition on makespan. */
Test(objective, ranking_and_feasibility)
{
    tt_metrics m[5];
    memset(m, 0, sizeof m);
    const double jct[] = {50, 40, 60, 40, 45};
    const int64_t mk[] = {1000, 1200, 900, 1040, 1100};
    for (int i = 0; i < 5; i++) {
        m[i].jct_mean = jct[i];
        m[i].makespan = mk[i];
    }
    int64_t b;
    int feas;
    tt_objective *o = obj("jct_mean");
    /* the first of the two 40s */
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 1 && feas);
    cr_expect_eq(tt_objective_best(o, m, 0, &b, &feas), TT_EEMPTY);
    tt_objective_free(o);
    /* best makespan 900: bound 945: only 0 (50) ... no: 1000 > 945; only 2 */
    o = obj("jct_mean s.t. makespan <= 1.05 * best");
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 2 && feas, "best %lld", (long long)b);
    tt_objective_free(o);
    /* bound 1.2 * 900 = 1080: 0 (50), 2 (60), 3 (40): 3 */
    o = obj("jct_mean s.t. makespan <= 1.2 * best");
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 3 && feas, "best %lld", (long long)b);
    cr_expect(tt_objective_feasible(o, m, 5, &m[3]));
    cr_expect(!tt_objective_feasible(o, m, 5, &m[1]));
    tt_objective_free(o);
    /* an absolute bound nobody meets: the least violation (900 vs 800) */
    o = obj("jct_mean s.t. makespan <= 800");
    cr_assert_eq(tt_objective_best(o, m, 5, &b, &feas), 0);
    cr_expect(b == 2 && !feas, "best %lld feasible %d", (long long)b, feas);
    char why[256];
    tt_objective_why_infeasible(o, m, 5, why, sizeof why);
    cr_expect_str_eq(why, "constraint 'makespan <= 800' holds for none of the 5 configurations "
                          "(least makespan 900)");
    tt_objective_free(o);
}

/* A metric set that cannot be computed (no job simulated: NAN,
 * TT_METRIC_NONE) is never the best while another has a value, however it
 * would compare; when none has one there is no best. */
Test(objective, ranking_without_values)
{
    tt_metrics m[3];
    memset(m, 0, sizeof m);
    m[0].jct_mean = NAN;
    m[0].makespan = TT_METRIC_NONE;
    m[1].jct_mean = 40;
    m[1].makespan = 1000;
    m[2].jct_mean = 30;
    m[2].makespan = TT_METRIC_NONE;
    int64_t b = -1;
    int feas = -1;
    tt_objective *o = obj("jct_mean");
    cr_assert_eq(tt_objective_best(o, m, 3, &b, &feas), 0);
    cr_expect(b == 2 && feas, "best %lld", (long long)b);
    cr_expect(isnan(tt_objective_value(o, &m[0])));
    tt_objective_free(o);
    /* the condition's metric is empty in rows 0 and 2: row 1 alone */
    o = obj("jct_mean s.t. makespan <= 1.1 * best");
    cr_assert_eq(tt_objective_best(o, m, 3, &b, &feas), 0);
    cr_expect(b == 1 && feas, "best %lld", (long long)b);
    tt_objective_free(o);
    o = obj("-makespan");
    cr_assert_eq(tt_objective_best(o, m, 3, &b, &feas), 0);
    cr_expect_eq(b, 1);
    cr_expect_eq(tt_objective_best(o, m + 2, 1, &b, &feas), TT_EEMPTY);
    tt_objective_free(o);
}

/* text -> objective -> its text -> the same objective, and that text
 * again the same text (what a tune file stores must read back whole). */
static void round_trip(const char *text, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_objective *o = obj(text), *again = NULL;
    const char *norm = tt_objective_text(o);
    cr_assert_eq(tt_objective_parse(ctx, norm, &again), 0, "'%s' wrote '%s': %s", text, norm,
                 tt_errmsg(ctx));
    cr_expect(tt_objective_same(o, again), "'%s' wrote '%s', a different objective", text, norm);
    cr_expect_str_eq(tt_objective_text(again), norm);
    if (want)
        cr_expect_str_eq(norm, want);
    tt_objective_free(again);
    tt_objective_free(o);
    tt_ctx_free(ctx);
}

Test(objective, text_round_trip)
{
    round_trip("1.0000001*makespan", "1.0000001 * makespan");
    round_trip("jct_mean s.t. makespan <= 1.0000001 * best", "jct_mean s.t. makespan <= "
                                                             "1.0000001 * best");
    round_trip("0.1*jct_mean + 0.2*makespan", "0.1 * jct_mean + 0.2 * makespan");
    round_trip("123456789012345678*util", "1.2345678901234568e+17 * util");
    round_trip("jct_mean s.t. util >= 1e300 and makespan <= 4.9e-324", "jct_mean s.t. util >= "
               "1e+300 and makespan <= 5e-324");
    round_trip("1e-400 * jct_mean", "0 * jct_mean"); /* below a double: 0, as strtod reads it */
    round_trip("jct_mean s.t. makespan <= 1 * best", "jct_mean s.t. makespan <= best");
    round_trip("0x1.8p1 * jct_mean", "3 * jct_mean");
    /* the longest objective: 32 terms and 4 conditions, past any small
     * buffer (the text once stopped at 511 characters) */
    char text[4096] = "";
    for (int k = 0; k < TT_NMETRICS * 2; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s0.12345678901234566 * %s",
                 k ? " - " : "", tt_metric_names[k % TT_NMETRICS]);
    strcat(text, " s.t. comm_gpu_s >= 1.2345678901234568e-300 * best and restart_gpu_s <= "
                 "1.0000000000000002 * best and util >= 0.9999999999999999 * best and "
                 "queue_p99 <= 123456789.12345679");
    tt_objective *o = obj(text);
    cr_expect_gt(strlen(tt_objective_text(o)), 1200);
    cr_expect_str_eq(tt_objective_text(o), text);
    tt_objective_free(o);
    round_trip(text, text);
}

/* The same for random objectives: random metrics, signs, conditions and
 * numbers of every size and precision. */
Test(objective, text_round_trip_random)
{
    uint64_t s = 42;
    for (int iter = 0; iter < 2000; iter++) {
        char text[4096] = "";
        size_t n = 0;
        int nt = 1 + (int)(tt_tune_rand(&s) % (TT_NMETRICS * 2));
        for (int k = 0; k < nt; k++) {
            uint64_t r = tt_tune_rand(&s);
            /* a double from its bits (finite), or a decimal of 1-17 digits */
            double w;
            if (r % 3 == 0) {
                uint64_t bits = tt_tune_rand(&s) & ~(UINT64_C(1) << 63);
                memcpy(&w, &bits, sizeof w);
                if (!isfinite(w))
                    w = 2.5;
            } else {
                w = (double)(tt_tune_rand(&s) % 100000000000000000ULL) *
                    pow(10.0, (double)((int)(tt_tune_rand(&s) % 60) - 40));
            }
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%.17g*%s",
                                  k == 0 ? (r & 8 ? "-" : "") : (r & 8 ? " - " : "+"), w,
                                  tt_metric_names[(r >> 8) % TT_NMETRICS]);
        }
        int nc = (int)(tt_tune_rand(&s) % (TT_OBJ_MAX_CONDS + 1));
        for (int k = 0; k < nc; k++) {
            uint64_t r = tt_tune_rand(&s);
            int ge = r & 1, rel = r & 2;
            double u = (double)(tt_tune_rand(&s) >> 11) / 9007199254740992.0;
            double f = rel ? (ge ? u : 1.0 + 3 * u) : u * pow(10.0, (double)(r % 20));
            n += (size_t)snprintf(text + n, sizeof text - n, "%s %s %s %.17g%s",
                                  k ? " and" : " s.t.", tt_metric_names[(r >> 8) % TT_NMETRICS],
                                  ge ? ">=" : "<=", f, rel ? "*best" : "");
        }
        round_trip(text, NULL);
    }
}
