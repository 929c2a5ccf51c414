/* The end of every search: the last fifth of the budget goes to
 * coordinate steps around the best points, the gain of the last round
 * is kept (and said when the budget looks too small), and every strategy
 * repeats itself for a seed. */
#include <math.h>

#include "testutil.h"
#include "tune/tune_impl.h"
#include "tune/tuneutil.h"

/* A rippled bowl over w0 x w1 x theta, its bottom inside the lattice. */
static int ripple_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    if (arg)
        *(int64_t *)arg += n;
    for (int64_t i = 0; i < n; i++) {
        double a = ps[i].w0 == TT_INF ? 14.0 : log1p((double)ps[i].w0);
        double b = ps[i].w1 == TT_INF ? 14.0 : log1p((double)ps[i].w1);
        double th = ps[i].theta == TT_INF ? 9000.0 : (double)ps[i].theta;
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = 8000 + 200 * (a - 5.0) * (a - 5.0) + 150 * (b - 8.0) * (b - 8.0) +
                          1e-4 * (th - 2500) * (th - 2500) + 400 * (1 - cos(2.5 * a));
        out[i].makespan = 100000 + (int64_t)(1000 * a);
    }
    return 0;
}

static const char *const three[] = {"w0=log:1:86400:15,inf", "w1=log:1:86400:15,inf",
                                    "theta=500:8000:16"};

/* Whether rows a and b of t are one lattice step apart along one axis. */
static int axis_step(const tt_tune *t, int64_t a, int64_t b)
{
    int64_t ia[TT_TUNE_MAX_DIMS], ib[TT_TUNE_MAX_DIMS];
    tt_search_row_idx(t, a, ia);
    tt_search_row_idx(t, b, ib);
    int64_t moved = 0;
    for (int d = 0; d < t->nd; d++)
        moved += ia[d] > ib[d] ? ia[d] - ib[d] : ib[d] - ia[d];
    return moved == 1;
}

/* Whether an axis neighbour of row r is none of the first n rows. */
static int open_neighbour(const tt_tune *t, int64_t r, int64_t n)
{
    int64_t c[TT_TUNE_MAX_DIMS], idx[TT_TUNE_MAX_DIMS];
    tt_search_row_idx(t, r, c);
    for (int d = 0; d < t->nd; d++)
        for (int o = -1; o <= 1; o += 2) {
            if (c[d] + o < 0 || c[d] + o >= t->dims[d].n)
                continue;
            int seen = 0;
            for (int64_t q = 0; q < n && !seen; q++) {
                tt_search_row_idx(t, q, idx);
                int same = 1;
                for (int e = 0; e < t->nd; e++)
                    same &= idx[e] == (e == d ? c[d] + o : c[e]);
                seen = same;
            }
            if (!seen)
                return 1;
        }
    return 0;
}

/* Whether row r has the metrics of an earlier row: the same point in
 * effect, no start of its own (theta 2000 and 3000 tie on this surface). */
static int repeat(const tt_tune *t, int64_t r)
{
    for (int64_t q = 0; q < r; q++)
        if (memcmp(&tt_tune_row_at(t, q)->metrics, &tt_tune_row_at(t, r)->metrics,
                   sizeof(tt_metrics)) == 0)
            return 1;
    return 0;
}

/* The rows the local steps added (the last fifth of the budget) are each
 * one step along one axis from a row before them, and the first of them
 * a neighbour of the best point that had one left to try. */
Test(local, last_rounds_are_coordinate_steps)
{
    tt_objective *o = obj("jct_mean");
    for (int st = TT_TUNE_REFINE; st <= TT_TUNE_MODEL; st++) {
        tt_tune *t = make_tune(three, 3, o);
        int64_t budget = 300, reserve = 60, sims = 0, best;
        tt_tune_opts opts = {.strategy = (tt_tune_strategy)st, .budget = budget, .seed = 4};
        cr_assert_eq(tt_tune_search(NULL, t, &opts, ripple_eval, &sims, &best), 0);
        int64_t n = tt_tune_rows(t), first = budget - reserve;
        cr_assert_eq(n, budget, "strategy %d: %lld rows", st, (long long)n);
        for (int64_t r = first; r < n; r++) {
            int near = 0;
            for (int64_t q = 0; q < r && !near; q++)
                near = axis_step(t, r, q);
            cr_expect(near, "strategy %d: row %lld is no coordinate step", st, (long long)r);
        }
        /* the first local step is around the best point before it that
         * still had a neighbour to try (several starts: the better ones
         * were local minima over the lattice already, or repeats) */
        int64_t q = -1;
        for (int64_t r = 0; r < first; r++)
            if (axis_step(t, first, r) &&
                (q < 0 || tt_tune_row_at(t, r)->objective < tt_tune_row_at(t, q)->objective))
                q = r;
        cr_assert_geq(q, 0);
        for (int64_t r = 0; r < first; r++)
            if (tt_tune_row_at(t, r)->objective < tt_tune_row_at(t, q)->objective &&
                !repeat(t, r))
                cr_expect(!open_neighbour(t, r, first), "strategy %d: row %lld, better than "
                          "the first local step's start, had a neighbour to try", st,
                          (long long)r);
        cr_expect_leq(tt_tune_row_at(t, best)->objective, tt_tune_row_at(t, q)->objective);
        tt_tune_free(t);
    }
    tt_objective_free(o);
}

/* The gain of the last round: the relative decrease of the best over the
 * rounds before it, 0 when it did not improve; the roles keep it, and the
 * note says it past 1 %. */
Test(local, last_gain)
{
    tt_objective *o = obj("jct_mean");
    for (int64_t budget = 8; budget <= 120; budget += 16)
        for (int st = TT_TUNE_REFINE; st <= TT_TUNE_MODEL; st++) {
            tt_tune *t = make_tune(three, 3, o);
            tt_tune_opts opts = {.strategy = (tt_tune_strategy)st, .budget = budget,
                                 .batch = 8, .seed = 2};
            int64_t best;
            cr_assert_eq(tt_tune_search(NULL, t, &opts, ripple_eval, NULL, &best), 0);
            int last = 0;
            for (int64_t r = 0; r < tt_tune_rows(t); r++)
                last = tt_tune_row_at(t, r)->round > last ? tt_tune_row_at(t, r)->round : last;
            double before = INFINITY, after = INFINITY;
            for (int64_t r = 0; r < tt_tune_rows(t); r++) {
                double v = tt_tune_row_at(t, r)->objective;
                if (tt_tune_row_at(t, r)->round < last)
                    before = fmin(before, v);
                after = fmin(after, v);
            }
            double want = last == 0 ? 0.0 : (before - after) / before;
            cr_expect(fabs(tt_tune_last_gain(t) - want) < 1e-12,
                      "strategy %d, budget %lld: gain %g, the rows say %g", st,
                      (long long)budget, tt_tune_last_gain(t), want);
            tt_tune_free(t);
        }
    /* the roles carry the search's gain, not the grid baseline's */
    tt_tune *t = make_tune(three, 3, o);
    tt_tune_opts opts = {.strategy = TT_TUNE_MODEL, .budget = 24, .batch = 8, .seed = 2};
    tt_tune_roles ro;
    cr_assert_eq(tt_tune_run_roles(NULL, t, NULL, &opts, NULL, ripple_eval, NULL, NULL, &ro), 0);
    tt_tune *again = make_tune(three, 3, o);
    int64_t best;
    cr_assert_eq(tt_tune_search(NULL, again, &opts, ripple_eval, NULL, &best), 0);
    cr_expect_eq(ro.gain, tt_tune_last_gain(again));
    tt_tune_free(t);
    tt_tune_free(again);
    tt_objective_free(o);

    char buf[320];
    /* not exact: always a note, the strongest reason first */
    tt_tune_budget_note(0.021, 0.5, 0, 25, 46, 256, buf, sizeof buf);
    cr_expect_str_eq(buf, "budget may be too small: the last round improved the objective by "
                          "2.1 %");
    tt_tune_budget_note(INFINITY, 0.5, 0, 25, 46, 256, buf, sizeof buf);
    cr_expect_str_eq(buf, "budget may be too small: the last round found the first "
                          "configuration that meets the conditions");
    tt_tune_budget_note(0.0099, 0.143, 0, 25, 46, 256, buf, sizeof buf);
    cr_expect_str_eq(buf, "budget may be too small: a surrogate fitted to the search's points "
                          "leaves room for a configuration it did not simulate 14.3 % below its "
                          "choice (the mean less 2 standard deviations)");
    tt_tune_budget_note(0.0, NAN, 0, 25, 46, 256, buf, sizeof buf);
    cr_expect_str_eq(buf, "budget may be too small: no surrogate could be fitted to say how far "
                          "below its choice a configuration it did not simulate may lie");
    tt_tune_budget_note(0.0099, 0.0199, 0, 25, 46, 256, buf, sizeof buf);
    cr_expect_str_eq(buf, "budget may be too small: it did not run 21 of the grid's 46 distinct "
                          "simulations; a surrogate fitted to its points sees none more than 2 % "
                          "below its choice, which on a rough landscape is no promise");
    tt_tune_budget_note(0.0, 0.0, 0, 2000, -1, 4782969, buf, sizeof buf);
    cr_expect_str_eq(buf, "budget may be too small: it ran 2000 simulations of a grid of 4782969 "
                          "points; a surrogate fitted to its points sees none more than 2 % below "
                          "its choice, which on a rough landscape is no promise");
    /* exact: the grid's best, nothing to say */
    tt_tune_budget_note(0.5, 0.5, 1, 46, 46, 256, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
}

/* The rule of the gain, round by round over a set: 0 after the first
 * round and while nothing meets the conditions, infinite when a round finds
 * the first point that meets them, else the relative decrease of the best
 * (0 when it did not go down). */
Test(local, gain_rule)
{
    tt_params base;
    tt_params_default(&base);
    /* line_eval: makespan 2000 + 10 w0 (w1 infinite: as 1000), jct_mean
     * 2000 - w0; the bound holds for w0 <= 25 */
    tt_objective *o = obj("jct_mean s.t. makespan <= 2250");
    tt_tune *t = line_tune("0,10,20,800,900", &base, o);
    int64_t set[5];
    const int64_t w0[5] = {900, 0, 10, 20, 800};
    const double want[5] = {0.0, INFINITY, 10.0 / 2000, 10.0 / 1990, 0.0};
    tt_search s;
    memset(&s, 0, sizeof s);
    s.t = t;
    s.set = set;
    for (int k = 0; k < 5; k++) {
        set[k] = line_row(t, w0[k], 0);
        s.nset = k + 1;
        cr_assert_eq(tt_search_note_best(&s), 0);
        cr_expect(s.gain == want[k], "after w0 = %lld: gain %g, want %g", (long long)w0[k],
                  s.gain, want[k]);
    }
    tt_tune_free(t);
    tt_objective_free(o);
}

/* Every strategy: the same seed, the same points in the same order; refine
 * and model draw their first round from the seed. */
Test(local, deterministic_per_seed)
{
    tt_objective *o = obj("jct_mean");
    for (int st = TT_TUNE_GRID; st <= TT_TUNE_MODEL; st++) {
        int differs = 0;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            tt_tune *a = make_tune(three, 3, o), *b = make_tune(three, 3, o);
            tt_tune *c = make_tune(three, 3, o);
            tt_tune_opts opts = {.strategy = (tt_tune_strategy)st, .budget = 90, .seed = seed};
            int64_t ba, bb, bc;
            cr_assert_eq(tt_tune_search(NULL, a, &opts, ripple_eval, NULL, &ba), 0);
            cr_assert_eq(tt_tune_search(NULL, b, &opts, ripple_eval, NULL, &bb), 0);
            opts.seed = seed + 100;
            cr_assert_eq(tt_tune_search(NULL, c, &opts, ripple_eval, NULL, &bc), 0);
            cr_assert_eq(tt_tune_rows(a), tt_tune_rows(b));
            cr_expect_eq(ba, bb);
            for (int64_t i = 0; i < tt_tune_rows(a); i++) {
                const tt_params *p = &tt_tune_row_at(a, i)->params,
                                *q = &tt_tune_row_at(b, i)->params;
                cr_assert(p->w0 == q->w0 && p->w1 == q->w1 && p->theta == q->theta,
                          "strategy %d seed %llu: row %lld differs", st,
                          (unsigned long long)seed, (long long)i);
            }
            for (int64_t i = 0; i < tt_tune_rows(a) && i < tt_tune_rows(c) && !differs; i++)
                differs = tt_tune_row_at(a, i)->params.w0 != tt_tune_row_at(c, i)->params.w0 ||
                          tt_tune_row_at(a, i)->params.theta != tt_tune_row_at(c, i)->params.theta;
            tt_tune_free(a);
            tt_tune_free(b);
            tt_tune_free(c);
        }
        /* the grid is the same sub-lattice for every seed */
        cr_expect_eq(differs, st != TT_TUNE_GRID, "strategy %d: seeds %s", st,
                     differs ? "differ" : "agree");
    }
    tt_objective_free(o);
}

/* A flat surface, or (arg not NULL) waves over w0 whose troughs lie
 * between the lattice points a small search simulates. */
static int wave_eval(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t n, tt_metrics *out)
{
    (void)ctx;
    for (int64_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].jct_mean = arg ? 1000 + 400 * sin((double)ps[i].w0 / 2500.0) : 1000;
        out[i].makespan = 100000;
    }
    return 0;
}

/* The room a search leaves (tt_tune_last_room): none after an exact
 * search or on a flat surface (where the note still says what was left
 * unrun: not exact, no promise); past 2 % where it simulated a few points
 * of a wavy one, and then the note says how much. */
Test(local, room)
{
    tt_objective *o = obj("jct_mean");
    const char *w0[] = {"w0=0:49000:50"};
    tt_tune_opts opts = {TT_TUNE_MODEL, 256, 0, 1, NULL, 0, NULL, NULL, NULL, NULL};
    int64_t best;
    char buf[320];
    int dip = 1;
    /* the default budget holds the 50 points: exact, no room */
    tt_tune *t = make_tune(w0, 1, o);
    cr_assert_eq(tt_tune_search(NULL, t, &opts, wave_eval, &dip, &best), 0);
    cr_expect(tt_tune_last_exact(t) && tt_tune_last_room(t) == 0.0);
    tt_tune_free(t);
    for (int st = TT_TUNE_REFINE; st <= TT_TUNE_MODEL; st++) {
        opts.strategy = (tt_tune_strategy)st;
        opts.budget = 8;
        /* flat: every point alike, no room seen; not exact all the same */
        t = make_tune(w0, 1, o);
        cr_assert_eq(tt_tune_search(NULL, t, &opts, wave_eval, NULL, &best), 0);
        cr_expect(!tt_tune_last_exact(t) && tt_tune_last_room(t) == 0.0, "flat: room %g",
                  tt_tune_last_room(t));
        tt_tune_budget_note(tt_tune_last_gain(t), tt_tune_last_room(t), 0, 8, 50, 50, buf,
                            sizeof buf);
        cr_expect(strstr(buf, "it did not run 42 of the grid's 50") != NULL, "%s", buf);
        tt_tune_free(t);
        /* wavy: 8 of 50 points leave room, and the note says how much */
        t = make_tune(w0, 1, o);
        cr_assert_eq(tt_tune_search(NULL, t, &opts, wave_eval, &dip, &best), 0);
        double room = tt_tune_last_room(t);
        cr_expect(room > TT_TUNE_ROOM_NOTE, "strategy %d: room %g", st, room);
        tt_tune_budget_note(0.0, room, 0, 8, 50, 50, buf, sizeof buf);
        char want[64];
        snprintf(want, sizeof want, "did not simulate %.1f %% below its choice", 100 * room);
        cr_expect(strstr(buf, want) != NULL, "%s", buf);
        tt_tune_free(t);
    }
    tt_objective_free(o);
}
