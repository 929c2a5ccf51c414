/* tt/tune.h: the auto-tuner (SPEC section 8): choose scheduler parameters
 * (the delay timers w0, w1, the preemption threshold theta, or any other
 * integer parameter) that optimise an objective over the simulated
 * metrics, with far fewer simulations than the exhaustive grid.
 *
 * The search space is a lattice: each searched parameter takes the values
 * of a range (tt_tune_dim_parse; tt_tune_space reads the fixed and the
 * searched parameters as a tool takes them), and the exhaustive grid is
 * their Cartesian product. A search proposes lattice points in rounds;
 * every round is one batch handed to an evaluation callback:
 * tt_tune_eval_sim simulates it with tt_run_params (tt/run.h), on all CPU
 * cores or the GPU; tests pass synthetic surfaces. Every configuration is
 * evaluated at most once per tuner (a cache over all parameters); given
 * the trace (tt_tune_set_canon), configurations of one canonical form
 * (tt/canon.h) share one simulation. The budget counts new simulations
 * only.
 *
 * Strategies:
 *   grid    the uniform sub-lattice with as many points as the budget
 *           allows, in one batch: the baseline a plain sweep gives
 *   refine  successive refinement: a coarse round of as many points as
 *           the most even sub-lattice of a batch (the most even
 *           sub-lattice of half of them, the rest a Latin hypercube), then
 *           rounds that halve that sub-lattice's spacing around the best
 *           points found so far (neighbours at +-spacing along every
 *           combination of axes)
 *   model   a Latin hypercube of a batch or half the budget, then a
 *           Gaussian-process surrogate (Matern 5/2 kernel over the
 *           normalised coordinates, length scale by marginal likelihood)
 *           fitted to every point evaluated so far; each round takes the
 *           batch of highest expected improvement (times the probability
 *           that each constraint holds), spread apart, plus the unvisited
 *           lattice neighbours of the best points. Its dense algebra goes
 *           through tt/linalg.h (OpenBLAS or cuBLAS).
 * Refine and model keep the last fifth of the budget for coordinate
 * steps: rounds of the unvisited lattice neighbours along each axis of
 * the best point, then of the next best ones (several starts), two
 * points' worth a round. The Latin hypercube spreads each axis's values
 * evenly over its points (every value once when there are as many
 * points), paired by the seed.
 *
 * tt_tune_run_roles is the protocol a tool reports: the search's choice
 * beside the baselines (strict, no_wait, a plain grid of the same budget)
 * and, with a held-out test part (tt_tune_split), the best in hindsight
 * there; tt_tune_tsv writes them as TSV, tt_tune_save as HDF5.
 *
 * Coordinates for the surrogate: a linear range maps its values linearly
 * onto [0, 1], a log range their logarithms, a list its values' ranks;
 * inf sits apart at 1.25.
 *
 * The objective and its conditions: tt/objective.h.
 *
 * Determinism: every random choice comes from opts.seed through
 * splitmix64; with the same seed, inputs and linear-algebra backend a
 * search proposes the same points in the same order. The acquisition is
 * compared in single precision, ties by lattice position, so rounding
 * differences between backends rarely change a proposal.
 *
 * Thread safety: a tt_tune is used by one thread at a time.
 */
#ifndef TT_TUNE_H
#define TT_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include "tt/error.h"
#include "tt/linalg.h"
#include "tt/objective.h"
#include "tt/run.h"
#include "tt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* ---- the search space ---- */

enum { TT_TUNE_LINEAR, TT_TUNE_LOG, TT_TUNE_LIST };

/* One searched parameter: its values ascending and unique, TT_INF last
 * when present. */
#define TT_TUNE_MAX_DIMS 32
#define TT_TUNE_MAX_VALUES (INT64_C(1) << 16) /* of one dimension, before repeats go */
/* A search looks at most at this many lattice points per simulation of
 * its budget: points of a canonical form already simulated cost none, and
 * without a bound a space where most points share a form would be walked
 * whole, each point a row and a surrogate's data point. */
#define TT_TUNE_POINTS_PER_SIM 4
/* A search first counts the distinct canonical forms of the grid (of at
 * most this many points, or of at most its budget): when those not yet
 * simulated fit its budget it simulates them all, and its answer is the
 * grid's best (tt_tune_last_exact). */
#define TT_TUNE_EXACT_POINTS (INT64_C(1) << 18)
/* The least default budget (tt_tune_default_budget). */
#define TT_TUNE_DEFAULT_BUDGET 256

typedef struct {
    int param; /* index into tt_param_names */
    int cls;   /* w0, w1 of this model class only; -1: the parameter itself */
    char name[72]; /* "w0", or "w0.CLASS" for a class's own timer */
    int scale; /* TT_TUNE_LINEAR, TT_TUNE_LOG or TT_TUNE_LIST */
    int64_t n;
    int64_t *v;
} tt_tune_dim;

/* Parses a range over parameter name (or w0.CLASS, w1.CLASS: one model
 * class's own timer, see tt_params_set): the grid grammar of tt/sweep.h
 * (A:B:N, log:A:B:N, a,b,c), a range optionally followed by ",inf"
 * (log:1:86400:16,inf). Values are checked as tt_params_set checks them,
 * sorted, and repeats dropped (at most TT_TUNE_MAX_VALUES before). Only
 * integer parameters can be searched (not order, seed, mix, timers, mlfq,
 * gittins_dist). TT_EINVAL
 * with "range 'NAME=SPEC': reason";
 * free with tt_tune_dim_free. */
int tt_tune_dim_parse(tt_ctx *ctx, const tt_models *models, const char *name, const char *spec,
                      tt_tune_dim *out);
void tt_tune_dim_free(tt_tune_dim *d);

/* The fixed values and the searched ranges of a tune as a tool reads
 * them (tt-tune -p NAME=VALUE, -s NAME=RANGE): base, the defaults with
 * the fixed values; dims[0 .. ndims), the ranges. The fixed values come
 * first (mix and the class timers name classes of the model table). A
 * plain struct: tt_tune_space_init it, free with tt_tune_space_free. */
typedef struct {
    const tt_models *models;
    tt_params base;
    tt_tune_dim dims[TT_TUNE_MAX_DIMS];
    int ndims;
    /* fixed: each parameter of tt_param_names, then w0 and w1 of each class */
    unsigned char fixed[TT_NPARAMS + 2 * TT_MAX_CLASSES];
} tt_tune_space;

/* An empty space over the model table models (which must outlive it). */
void tt_tune_space_init(tt_tune_space *sp, const tt_models *models);
/* Frees the ranges; NULL is accepted. */
void tt_tune_space_free(tt_tune_space *sp);
/* Fixes name to value in base (tt_params_set, its codes). */
int tt_tune_space_fix(tt_ctx *ctx, tt_tune_space *sp, const char *name, const char *value);
/* Searches name over range (tt_tune_dim_parse); w0.* and w1.* stand for
 * one range a model class (w0.CLASS, ... in the table's order). TT_EINVAL
 * "parameter 'NAME': both fixed with -p and searched with -s" when name
 * was fixed; TT_ERANGE "-s NAME: more than 32 searched parameters"; else
 * the codes of tt_tune_dim_parse. A failing w0.* leaves the ranges of the
 * classes before the failure in the space. */
int tt_tune_space_search(tt_ctx *ctx, tt_tune_space *sp, const char *name, const char *range);

/* ---- the tuner ---- */

typedef enum { TT_TUNE_GRID, TT_TUNE_REFINE, TT_TUNE_MODEL } tt_tune_strategy;

/* Fills out[0..count) with the metrics of ps[0..count); 0 or a TT_E*
 * code with the message in ctx. */
typedef int (*tt_tune_eval_fn)(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t count,
                               tt_metrics *out);

/* What tt_tune_eval_sim simulates on: the caller's, which must outlive the
 * searches. */
typedef struct {
    const tt_cluster *cluster;
    const tt_models *models;
    const tt_sim_jobs *jobs;
    const tt_run_opts *opts; /* may be NULL: the CPU, every core */
} tt_tune_sim;

/* The evaluation callback that simulates: arg a tt_tune_sim, the batch
 * run by tt_run_params. Its codes. */
int tt_tune_eval_sim(void *arg, tt_ctx *ctx, const tt_params *ps, int64_t count,
                     tt_metrics *out);

typedef struct {
    tt_tune_strategy strategy;
    int64_t budget; /* new simulations at most, >= 1 */
    int64_t batch;  /* new simulations per round at most; <= 0: the default */
    uint64_t seed;
    tt_la *la; /* the surrogate's backend; NULL: a CPU one for the call */
    int phase; /* stored with every row this call adds (see tt_tune_row) */
    /* Asked before each round; when it answers nonzero, no further round
     * starts: TT_ESTOPPED. May be NULL. */
    int (*stop)(void *arg);
    void *stop_arg;
    /* Called after each round with the simulations done and the budget. */
    void (*progress)(void *arg, int round, int64_t done, int64_t budget);
    void *progress_arg;
} tt_tune_opts;

/* The default batch for a budget: a quarter of it, at least 16, at most
 * 4096 (and never above the budget). */
int64_t tt_tune_default_batch(int64_t budget);

/* One evaluated configuration. */
typedef struct {
    tt_params params;
    tt_metrics metrics;
    double objective;
    double predicted; /* the model's objective where it proposed the point, else NaN */
    int32_t phase;    /* opts.phase of the call that added it */
    int32_t round;    /* round of that call, from 0 */
    int64_t sim_row;  /* the row whose simulation gave the metrics: this one, or
                       * an earlier one of the same canonical form */
} tt_tune_row;

typedef struct tt_tune tt_tune;

/* A tuner over dims[0..ndims) (1 .. TT_TUNE_MAX_DIMS distinct ones, copied)
 * with every other parameter as in base, for objective obj (which must
 * outlive it). TT_EINVAL when the grid has more than 2^62 points or a
 * parameter repeats; TT_ENOMEM. */
int tt_tune_create(tt_ctx *ctx, const tt_params *base, const tt_tune_dim *dims, int ndims,
                   const tt_objective *obj, tt_tune **out);
void tt_tune_free(tt_tune *t);
/* The trace t's configurations are simulated on (j on cluster c with the
 * model table m): from now on a configuration whose canonical form
 * (tt/canon.h) a row already has costs no simulation, its row taking that
 * row's metrics (sim_row). Without it, forms are not compared (the
 * synthetic surfaces of tests). 0, or tt_canon_init's codes; TT_ENOMEM. */
int tt_tune_set_canon(tt_ctx *ctx, tt_tune *t, const tt_cluster *c, const tt_models *m,
                      const tt_sim_jobs *j);
/* The simulations t has run: rows that are their own sim_row. */
int64_t tt_tune_sims(const tt_tune *t);
/* Points in the exhaustive grid. */
int64_t tt_tune_grid_size(const tt_tune *t);
/* The default budget of a search over t: the larger of
 * TT_TUNE_DEFAULT_BUDGET and a tenth of the grid, at most the grid's
 * points; enough, on most grids, for every distinct form (an exact
 * answer). */
int64_t tt_tune_default_budget(const tt_tune *t);
/* The parameters of lattice point k (0 <= k < grid size; the last
 * dimension varies fastest). */
void tt_tune_point(const tt_tune *t, int64_t k, tt_params *p);

/* Runs a search with opts; *best gets the row of the best configuration
 * among the lattice points it proposed (rows evaluated before, by another
 * call, and points of a canonical form already simulated count without
 * cost; it looks at most at TT_TUNE_POINTS_PER_SIM x budget points, so in
 * a space where most points share forms it may end with budget left).
 * Refine and model first count the grid's distinct forms (at most
 * TT_TUNE_EXACT_POINTS points): when those not yet simulated fit the
 * budget, the search is the first lattice point of each form, in lattice
 * order, a batch a round, and its best is the grid's best.
 * 0; TT_EINVAL for a bad budget; TT_ESTOPPED;
 * TT_EIO when the surrogate's linear algebra fails; TT_EEMPTY when the
 * objective of a configuration cannot be computed; or the evaluation
 * callback's code. */
int tt_tune_search(tt_ctx *ctx, tt_tune *t, const tt_tune_opts *opts, tt_tune_eval_fn eval,
                   void *arg, int64_t *best);
/* The row of configuration p, simulated unless the cache has it (phase as
 * in opts). 0, TT_EEMPTY as tt_tune_search, or the callback's code. */
int tt_tune_eval(tt_ctx *ctx, tt_tune *t, const tt_params *p, int phase, tt_tune_eval_fn eval,
                 void *arg, int64_t *row);

/* 1 when the last tt_tune_search on t simulated every distinct form of
 * the grid (its best is the grid's best), else 0. */
int tt_tune_last_exact(const tt_tune *t);
/* The distinct canonical forms of t's grid (its points without a trace)
 * where the last refine or model tt_tune_search counted them (a grid of
 * at most TT_TUNE_EXACT_POINTS points, or of no more than its budget),
 * else -1. */
int64_t tt_tune_grid_forms(const tt_tune *t);

/* How much the last round of the last tt_tune_search on t improved the
 * best of its points: the relative decrease of the best objective (0 when
 * it did not improve, or nothing met the conditions yet; +inf when it
 * found the first point that meets them). A search whose last round still
 * gains was most likely stopped by its budget before its end. */
double tt_tune_last_gain(const tt_tune *t);

/* How far below the choice of the last refine or model tt_tune_search on
 * t a configuration of the grid it did not simulate may lie: a Gaussian
 * process (the model strategy's surrogate) fitted to every point of the
 * search, its mean less TT_TUNE_ROOM_SD standard deviations at each
 * lattice point not simulated (all of them, or a seeded sample of a large
 * grid), the least of them as a fraction of the choice's objective below
 * it (0: none below; 0 after an exact search). NAN where it cannot be
 * told: fewer than 3 points or more than 4096, no usable surrogate. */
double tt_tune_last_room(const tt_tune *t);
#define TT_TUNE_ROOM_SD 2.0

/* The rows in order of evaluation, and row i. */
int64_t tt_tune_rows(const tt_tune *t);
const tt_tune_row *tt_tune_row_at(const tt_tune *t, int64_t i);
/* The best of all rows (as tt_objective_best over their metrics). */
int tt_tune_best_row(const tt_tune *t, int64_t *row, int *feasible);
/* Whether row (0 <= row < rows) meets every condition of t's objective,
 * with "best" bounds taken over all the rows of t. */
int tt_tune_row_feasible(const tt_tune *t, int64_t row);
/* The same for every row at once (the bounds worked out once): feas[r]
 * for r < tt_tune_rows(t). */
void tt_tune_rows_feasible(const tt_tune *t, int64_t *feas);
/* Whether a row of phase 0 (the search's, in tt_tune_run_roles) is
 * feasible, "best" bounds taken over those rows: 0 when one is; TT_EEMPTY
 * "no feasible configuration: constraint ..." (tt_objective_why_infeasible
 * over them) when none is; TT_ENOMEM. */
int tt_tune_check_feasible(tt_ctx *ctx, const tt_tune *t);

/* ---- the choice beside its baselines ---- */

/* The configurations a tune reports, in the order tools print them and
 * tune files store them. */
enum {
    TT_ROLE_RECOMMENDED, /* the search's best on train */
    TT_ROLE_STRICT,      /* w0 = w1 = inf */
    TT_ROLE_NO_WAIT,     /* w0 = w1 = 0 */
    TT_ROLE_GRID_BEST,   /* the best of a plain grid of the search's budget */
    TT_ROLE_HINDSIGHT,   /* the best found on test, with a test part only */
    TT_NROLES
};
/* "recommended", "strict", "no_wait", "grid_best", "hindsight". */
extern const char *const tt_tune_role_names[TT_NROLES];

typedef struct {
    int nroles;                     /* TT_NROLES with a test part, else TT_ROLE_HINDSIGHT */
    int64_t train_row[TT_NROLES];   /* each role's row in train; -1: none */
    int64_t test_row[TT_NROLES];    /* and in test; -1 without a test part */
    int64_t sims_search, sims_grid; /* simulations the search, the grid ran on train */
    int64_t rows_search, rows_grid; /* and the configurations each evaluated there */
    double hindsight;               /* the hindsight's objective on test (regret from it) */
    double gain; /* the search's last round on train (tt_tune_last_gain) */
    double room; /* and the room it left (tt_tune_last_room) */
    int exact, exact_test; /* the search on train, on test ran every distinct form */
    int64_t forms, forms_test; /* the grid's distinct forms there, or -1 (tt_tune_grid_forms) */
} tt_tune_roles;

/* Runs the tuner's protocol over train and, unless NULL, test (tuners of
 * one space and objective over two parts of a trace):
 *   recommended  the search with opts on train (rows of phase 0);
 *   grid_best    a TT_TUNE_GRID search of the same budget, without
 *                progress (phase 1);
 *   strict, no_wait  train's base with w0 = w1 = inf, and 0, and every
 *                class timer cleared (phase 2);
 * and with test: each of them on test (phase 2), the search with opts on
 * test (phase 3, progress_arg hindsight_progress_arg), and hindsight the
 * best of all test rows, evaluated on train too (phase 2). eval runs with
 * train_arg on train, test_arg on test; configurations a tuner holds
 * already cost nothing. 0, or the first code of tt_tune_search or
 * tt_tune_eval (TT_ESTOPPED when opts->stop says so), *out then holding
 * what was done. */
int tt_tune_run_roles(tt_ctx *ctx, tt_tune *train, tt_tune *test, const tt_tune_opts *opts,
                      void *hindsight_progress_arg, tt_tune_eval_fn eval, void *train_arg,
                      void *test_arg, tt_tune_roles *out);

/* ---- the results as text ---- */

/* The header line of the rows tt_tune_tsv_row writes, to f: role,
 * objective_train, objective_test, regret_test, feasible_train,
 * feasible_test, the 33 parameters of tt_param_names, then train_METRIC
 * and test_METRIC for each of the 35 metrics of tt_metric_names. 0, or
 * TT_EIO when f has an error set. */
int tt_tune_tsv_header(FILE *f);
/* The row of role (0 <= role < ro->nroles) as tt_tune_run_roles left ro
 * over train and test (NULL: no test part, its columns empty), to f: its
 * objective on each part, its regret on test (against ro->hindsight),
 * whether it is feasible on each part ("best" bounds over that part's
 * rows), its parameters (the mix and class timers named by models) and
 * its metrics on each part. 0, TT_EINVAL for a role out of range, or
 * TT_EIO when f has an error set. */
int tt_tune_tsv_row(FILE *f, const tt_tune *train, const tt_tune *test, const tt_tune_roles *ro,
                    const tt_models *models, int role);
/* The header and a row a role (what tt-tune prints), to f. 0 or TT_EIO. */
int tt_tune_tsv(FILE *f, const tt_tune *train, const tt_tune *test, const tt_tune_roles *ro,
                const tt_models *models);
/* A last round that improved the best by more than this (a fraction)
 * says the budget may have been too small. */
#define TT_TUNE_GAIN_NOTE 0.01
/* The room (tt_tune_last_room) past which the note gives it as the
 * reason: a configuration not simulated may lie that far below the
 * choice. */
#define TT_TUNE_ROOM_NOTE 0.02
/* Into buf, after a refine or model search: "" when it was exact (its
 * choice is the grid's best); else always a note that starts "budget may
 * be too small: " and says why, the strongest reason first: "the last
 * round improved the objective by 2.1 %" (gain past TT_TUNE_GAIN_NOTE),
 * "the last round found the first configuration that meets the
 * conditions" (gain +inf), "a surrogate fitted to the search's points
 * leaves room for a configuration it did not simulate 14.3 % below its
 * choice (the mean less 2 standard deviations)" (room past
 * TT_TUNE_ROOM_NOTE), "no surrogate could be fitted to say how far below
 * its choice a configuration it did not simulate may lie" (room NAN), or
 * "it did not run 21 of the grid's 46 distinct simulations; a surrogate
 * fitted to its points sees none more than 2 % below its choice, which on
 * a rough landscape is no promise" (forms -1: "it ran 25 simulations of a
 * grid of 4782969 points; ..."). A search that is not exact cannot tell
 * how far its choice lies from the grid's best: on the example trace the
 * surrogate's room alone stayed silent on choices 9 to 14 % off, the gain
 * alone on 30 of bench/tune-robust's 56 runs more than 2 % off
 * (docs/performance.md). gain,
 * room: tt_tune_last_gain, tt_tune_last_room; sims: the search's
 * simulations; forms: the grid's distinct forms, or -1, and grid its
 * points (tt_tune_grid_forms, tt_tune_grid_size). */
void tt_tune_budget_note(double gain, double room, int exact, int64_t sims, int64_t forms,
                         int64_t grid, char *buf, size_t size);
/* Into buf, after tt_tune_run_roles over train: "" when the search was
 * exact; else what it left: "not exact: the search ran 25 of the grid's
 * 46 distinct simulations; how far its choice lies from the grid's best
 * is not known (--budget 46 makes it exact)", or where the grid was too
 * large to count "not exact: the search ran 2000 simulations over a grid
 * of 4782969 points (too many to count its distinct simulations); how
 * far its choice lies from the grid's best is not known". */
void tt_tune_exact_note(const tt_tune *train, const tt_tune_roles *ro, char *buf, size_t size);
/* Into buf, after tt_tune_run_roles over train: "" unless the grid
 * baseline's choice ranks before the search's on train ("best" bounds
 * over every train row), then "the grid baseline beat the search on
 * train: grid_best's objective 45774.742333 is 5.59 % below the
 * recommended configuration's 48473.537333 (a larger --budget may find
 * it)" (or that it meets the conditions the choice breaks). An exact
 * search never gets one. */
void tt_tune_grid_note(const tt_tune *train, const tt_tune_roles *ro, char *buf, size_t size);
/* Into buf, after tt_tune_run_roles with a test part (test NULL: ""),
 * whether the choice beats the baselines there (strict consolidation,
 * no-wait, the grid baseline's choice where it is another configuration;
 * ranked as a search ranks, "best" bounds over every test row): "on the
 * test part the recommended configuration is 0.06 % worse than strict
 * consolidation: keep strict consolidation" (no-wait: "prefer no-wait";
 * the grid's: "prefer the grid baseline's choice"), naming the best of
 * the baselines that beat it, or that it breaks conditions one meets;
 * else "on the test part the recommended configuration beats strict
 * consolidation by 3.10 % and no-wait by 12.00 %, and ties with the grid
 * baseline's choice". Percentages of the baseline's objective. */
void tt_tune_verdict(const tt_tune *test, const tt_tune_roles *ro, char *buf, size_t size);
/* One line on what tt_tune_run_roles did over the part t, into buf: on
 * train (test = 0) the simulations it spent, "212 simulations on train
 * (search 100, grid baseline 100, others 12) over a grid of 1000 (search
 * 10.0%)", or where the search ran every distinct form "... over a grid
 * of 992: exact: all 181 distinct simulations of the grid"; on test those
 * there and the regret of the choice, "84 simulations on test; regret of
 * the choice on test 2.302803 (0.02% of the best in hindsight, SPLIT)",
 * split saying how the parts were cut ("exact: all 181 distinct
 * simulations of the grid; " before it where the hindsight search was). */
void tt_tune_describe(const tt_tune *t, const tt_tune_roles *ro, int test, const char *split,
                      char *buf, size_t size);

/* ---- time split ---- */

/* Jobs [a, b) of j (0 <= a < b <= j->n) as their own tt_sim_jobs, submit
 * times shifted so the first is 0. Free with tt_sim_jobs_free. 0,
 * TT_EINVAL, TT_ENOMEM. */
int tt_tune_slice(tt_ctx *ctx, const tt_sim_jobs *j, int64_t a, int64_t b, tt_sim_jobs *out);
/* The parts a tune runs on, as their own job lists (tt_tune_slice): with
 * holdout f (0 < f < 1), train on jobs [0, cut) and test on [cut, n)
 * (tt_tune_holdout); else, with range[3] > 0, train on jobs [range[0],
 * range[1]) and test on [range[2], range[3]); else no parts (tune on every
 * job of j), train and test left empty. desc gets "train jobs [0,700),
 * test jobs [700,1000)" or "none: tuned on every job". 0; TT_ERANGE when
 * f leaves a part without jobs or a range passes the n jobs of j (nothing
 * sliced); TT_EINVAL, TT_ENOMEM. */
int tt_tune_split(tt_ctx *ctx, const tt_sim_jobs *j, double holdout, const int64_t range[4],
                  tt_sim_jobs *train, tt_sim_jobs *test, char *desc, size_t size);
/* Where the test part starts when the last fraction f of n jobs is held
 * out (tt-tune --holdout): n - floor(f n + 1/2) into *cut, so that train
 * is jobs [0, cut) and test [cut, n). 0, or TT_EINVAL (*cut untouched)
 * when f is not strictly between 0 and 1 or leaves a part without jobs. */
int tt_tune_holdout(int64_t n, double f, int64_t *cut);

/* ---- rolling re-tuning ---- */

/* The auto-tuner as it would run in production (tt-tune --rolling): the
 * trace cut into windows of a fixed width by submit time, a search on
 * each window, and each window's choice simulated on the next. Every
 * window is its own job list (tt_tune_slice, as --holdout's parts): the
 * jobs submitted in it, simulated alone on an empty cluster to their end;
 * a job that runs past the window's end stays in its window, and nothing
 * of a window's queue is carried into the next. */

/* What a window's configurations are, in tt_tune_window.row and the
 * totals: the choice tuned on the window before, the best static choice
 * in hindsight (one configuration of the grid for every window), strict
 * consolidation (w0 = w1 = inf, no class timer) and the choice tuned on
 * the first window. */
enum { TT_ROLL_CHOICE, TT_ROLL_HINDSIGHT, TT_ROLL_STRICT, TT_ROLL_FIRST, TT_ROLL_N };
/* "choice", "hindsight", "strict", "first". */
extern const char *const tt_tune_roll_names[TT_ROLL_N];

typedef struct {
    int64_t start, end; /* submit times [start, end): seconds of the trace from its first
                         * submit, before -p load scales them */
    int64_t a, b;       /* its jobs [a, b) of the trace */
    /* after tt_tune_rolling_run, rows of the window's tuner (-1: none) */
    int64_t choice;      /* the search's choice on this window */
    int64_t sims_search; /* the simulations of that search */
    int exact;           /* it ran every distinct form of the grid */
    int64_t forms;       /* the grid's distinct forms on the window, or -1 (tt_tune_grid_forms) */
    double gain;         /* its last round's (tt_tune_last_gain) */
    double room;         /* the room it left (tt_tune_last_room) */
    int64_t row[TT_ROLL_N]; /* from the second window on: each role on this window */
} tt_tune_window;

/* A rolling tune: a plain struct, tt_tune_rolling_init it and free it
 * with tt_tune_rolling_free. */
typedef struct {
    int64_t width;      /* seconds */
    int64_t n;          /* windows with jobs, in time order */
    int64_t empty;      /* windows of the span without a job, left out: the choice
                         * before them applies to the next window with jobs */
    tt_tune_window *w;  /* n */
    tt_sim_jobs *jobs;  /* n: each window's jobs */
    tt_tune **t;        /* n: each window's tuner */
    /* after tt_tune_rolling_run */
    int64_t hindsight_point; /* lattice point of the best static choice (tt_tune_point) */
    double total[TT_ROLL_N]; /* each role's objective over windows 1 .. n-1: their
                              * objectives' mean weighted by their jobs */
    int64_t total_jobs;      /* the jobs of windows 1 .. n-1 */
    int64_t sims_search, sims_single, sims_hindsight; /* simulations, all windows */
} tt_tune_rolling;

/* Cuts j (submit times sorted) into windows of width seconds from its
 * first submit, keeps those with jobs (each sliced, tt_tune_slice) and
 * creates a tuner over each (tt_tune_create with base, dims, ndims, obj;
 * with cluster not NULL, configurations of one canonical form over the
 * window's jobs share a simulation, tt_tune_set_canon with models). 0;
 * TT_ERANGE when fewer than two windows have jobs ("the trace's 2000 jobs
 * are submitted over 4.1 days: one window of 7 days, none to apply its
 * choice to"); TT_EINVAL when obj has conditions (a "best" bound differs
 * from window to window, so a static choice's total has no ranking) or
 * the grid has more than TT_TUNE_EXACT_POINTS points (the best static
 * choice in hindsight looks at each), or tt_tune_create's codes;
 * TT_ENOMEM. On failure r holds nothing (tt_tune_rolling_free is still
 * safe). */
int tt_tune_rolling_init(tt_ctx *ctx, tt_tune_rolling *r, const tt_sim_jobs *j, int64_t width,
                         const tt_params *base, const tt_tune_dim *dims, int ndims,
                         const tt_objective *obj, const tt_cluster *cluster,
                         const tt_models *models);
void tt_tune_rolling_free(tt_tune_rolling *r);

/* Runs the rolling tune: on every window the search with opts (rows of
 * phase 0, as a tt-tune without a split runs it first on that slice, so
 * its choice is the one that tt-tune would recommend there); then on
 * every window from the second on, the choice of the window before, the
 * first window's choice and strict consolidation (phase 2) and every
 * distinct form of the grid not simulated yet (phase 3, batches of
 * opts->batch); the best static choice in hindsight is the lattice point
 * whose objectives over windows 1 .. n-1, weighted by their jobs, are
 * least (the first in lattice order on ties). eval runs with args[k] on
 * window k. 0; TT_ESTOPPED (opts->stop, between batches); TT_EEMPTY when
 * a window's objective cannot be computed ("window 3 (days 14 to 21):
 * ..."); the codes of tt_tune_search and eval. */
int tt_tune_rolling_run(tt_ctx *ctx, tt_tune_rolling *r, const tt_tune_opts *opts,
                        tt_tune_eval_fn eval, void *const *args);

/* The TSV of a rolling tune to f: a header, one row a window and a total
 * row. Columns: window (from 0; "total"), start, end (s, as
 * tt_tune_window), jobs, the searched dimensions (the window's choice, as
 * tt-sim prints them), objective (the choice's on its own window), exact
 * (1/0), sims (the search's simulations), next_jobs, next_choice,
 * next_hindsight, next_strict, next_first (each role's objective on the
 * next window; empty for the last). The total row: the first start, the
 * last end, every job, the dimensions and objective empty, the windows
 * whose search was exact, every search's simulations, then next_jobs and
 * the totals of tt_tune_rolling. 0, or TT_EIO when f has an error set. */
int tt_tune_rolling_tsv(FILE *f, const tt_tune_rolling *r, const tt_models *models);
/* Into buf, the line on a window's search that tt-tune prints where there
 * is one ("" else): "window 3 (days 42 to 56): not exact: the search ran
 * 25 of the grid's 46 distinct simulations (--budget 46 makes it exact)",
 * and its budget note (tt_tune_budget_note) after "; ". */
void tt_tune_rolling_window_note(const tt_tune_rolling *r, int64_t k, char *buf, size_t size);
/* Into buf, what the rolling tune spent: "1234 simulations for 2000
 * configurations over 8 windows of 14d (days 0 to 108.9; search 400,
 * exact in 8 of 8 windows; applied choices and baselines 12; best static
 * choice in hindsight 822)"; label is the width as given ("14d"). */
void tt_tune_rolling_describe(const tt_tune_rolling *r, const char *label, char *buf,
                              size_t size);
/* Into buf, the verdict: "over 7 windows after the first (days 14 to
 * 108.9, 70123 jobs) re-tuning every 14d gives jct_mean 12345.68 (the
 * windows' mean weighted by their jobs): 2.31 % worse than the best
 * static choice in hindsight (12068.91), 4.50 % better than strict
 * consolidation (12927.40) and 1.20 % better than the first window's
 * choice (12495.63): re-tuning paid off against the first window's
 * choice" (or "did not pay off"); percentages of the baseline's. */
void tt_tune_rolling_verdict(const tt_tune_rolling *r, const char *label, char *buf,
                             size_t size);

/* ---- the history file ---- */

/* Everything one tune file holds; the caller keeps ownership. */
typedef struct {
    const tt_tune *train, *test; /* test may be NULL (no split) */
    const tt_tune_dim *dims;
    int ndims;
    const tt_objective *objective;
    const char *strategy;   /* "model" */
    uint64_t seed;
    int64_t budget, batch;
    const tt_cluster *cluster;
    const tt_models *models;
    const char *trace_path;
    const tt_provenance *trace_prov; /* or NULL */
    const char *device, *linalg;     /* as the tool reports them */
    const char *split;               /* "holdout 0.25: train jobs [0,750), test [750,1000)" */
    const char *recommended;         /* the tt-sim parameter line */
    int nresults;
    const char *const *roles;       /* nresults names: "recommended", "strict", ... */
    const int64_t *train_rows, *test_rows; /* rows in train, test (-1: none) */
    const char *budget_note; /* tt_tune_budget_note of the search, or NULL */
    const tt_tune_roles *ro; /* what tt_tune_run_roles did, or NULL (not known) */
    const char *grid_note;   /* tt_tune_grid_note, or NULL */
    const char *verdict;     /* tt_tune_verdict, or NULL */
    /* a rolling tune (tt-tune --rolling), or NULL: its windows' tuners
     * stand for train and test (train may then be NULL), split says how
     * the trace was cut, verdict is tt_tune_rolling_verdict, recommended
     * the last window's choice */
    const tt_tune_rolling *rolling;
    const char *rolling_label; /* the width as given: "14d" */
    const char *hindsight;     /* the best static choice's tt-sim parameter line */
} tt_tune_save_args;

/* Writes the tune file whole or not at all (a temporary file renamed into
 * place). 0, TT_EINVAL, TT_EIO. Layout, under the group /tune (attribute
 * tracetune_layout = "tune/1"; provenance attributes trace_file,
 * trace_format, trace_source_sha256, cluster, models_source,
 * models_sha256, objective, strategy, seed (decimal text), budget, batch,
 * grid_size, sims_train, sims_test (the simulations run on each part),
 * sims_search, sims_grid (those of the search and of the grid baseline on
 * train, as tt_tune_describe says them; -1 when not known),
 * device, linalg, split, recommended (the tt-sim parameter line),
 * budget_note (tt_tune_budget_note: "" when the search was exact),
 * exact_train, exact_test (1 where the search on that part ran every
 * distinct form of the grid, so its best is the grid's best; else 0),
 * grid_distinct_train, grid_distinct_test (the grid's distinct
 * simulations on that part where that search counted them, exact or not;
 * else -1),
 * grid_note (tt_tune_grid_note, "" when the search was not beaten),
 * verdict (tt_tune_verdict, "" without a test part), tool_version):
 *   /tune/space/<param>       the values of each searched parameter, int64
 *                             (INT64_MAX = infinite, "infinite" attribute),
 *                             attribute scale = linear, log or list
 *   /tune/history/part        int64 per evaluated configuration: 0 train,
 *                             1 test (train rows first, in order of
 *                             evaluation)
 *   /tune/history/phase       int64: 0 the search, 1 the grid baseline,
 *                             2 single configurations (baselines, the
 *                             choices re-evaluated), 3 the hindsight search
 *   /tune/history/round       int64: the round of its search
 *   /tune/history/sim_row     int64: the row whose simulation gave its
 *                             metrics (itself, or an earlier row of its
 *                             part with the same canonical form)
 *   /tune/history/objective   float64
 *   /tune/history/feasible    int64 1/0 ("best" bounds over its part)
 *   /tune/history/predicted   float64: the model's prediction, NaN if none
 *   /tune/history/params/<p>  the 33 parameters, as /sweep/params; and for
 *                             each searched class timer w0.CLASS / w1.CLASS
 *                             an int64 column of its own (s; -1 where the
 *                             row uses the global timer)
 *   /tune/history/metrics/<m> the 35 metrics, as /sweep/metrics
 *   /tune/result/role         strings: recommended, strict, no_wait,
 *                             grid_best, hindsight
 *   /tune/result/train_row, /tune/result/test_row
 *                             int64: its row in /tune/history, -1 none
 * A rolling tune's file (a->rolling) has the attributes above but
 * sims_train, sims_test, sims_grid, exact_*, grid_distinct_* and
 * grid_note, and: rolling (the width as given), rolling_s (seconds),
 * windows, windows_empty, sims (every simulation), sims_search,
 * sims_single, sims_hindsight (as tt_tune_rolling counts them) and
 * hindsight (the best static choice's tt-sim parameter line). Its history
 * holds every window's rows, part k for window k (window 0's first); its
 * result the roles recommended (the last window's choice), first (the
 * first window's) and hindsight (the best static choice, its row on the
 * last window), test_row -1; and
 *   /tune/rolling/<column>    one entry per window (a group that keeps
 *                             its creation order): window, start, end,
 *                             jobs, job_from, job_to (its jobs [from, to)
 *                             in the trace), each searched dimension's
 *                             value in the window's choice (int64,
 *                             INT64_MAX infinite), objective, exact, sims,
 *                             next_jobs, next_choice, next_hindsight,
 *                             next_strict, next_first (float64, NaN on the
 *                             last window; units those of the objective's
 *                             metric when it is one alone) as
 *                             tt_tune_rolling_tsv prints them, and row,
 *                             next_choice_row, next_hindsight_row,
 *                             next_strict_row, next_first_row: their rows
 *                             in /tune/history (-1 none) */
int tt_tune_save(tt_ctx *ctx, const char *path, const tt_tune_save_args *a);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
