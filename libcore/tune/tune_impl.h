/* What the tune part's files share: the objective's and the tuner's
 * structures, the lattice arithmetic, the search that the strategies
 * (search.c) and the surrogate model (model.c) drive over the tuner's
 * cache (tune.c), and the functions only tests call. */
#ifndef TT_TUNE_IMPL_H
#define TT_TUNE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "sim/canonset.h"
#include "tt/canon.h"
#include "tt/linalg.h"
#include "tt/objective.h"
#include "tt/tune.h"

/* ---- the objective (objective.c) ---- */

typedef struct {
    int metric;
    int ge;        /* >= rather than <= */
    int rel;       /* the bound is factor * best */
    double factor; /* the number, or the factor of best */
} tt_obj_cond;

struct tt_objective {
    int nterms;
    int metric[TT_NMETRICS * 2];
    double weight[TT_NMETRICS * 2];
    int nconds;
    tt_obj_cond conds[TT_OBJ_MAX_CONDS];
    char *text; /* the normalised text (objective_format), malloc'd */
};

/* The bound of each condition over the n sets m, which lie stride bytes
 * apart (an array of them, or the metrics in a tuner's rows, read in
 * place). */
void tt_obj_bounds(const tt_objective *o, const tt_metrics *m, size_t stride, int64_t n,
                   double *bound);
/* The total relative violation of x under bound (0: feasible; NAN when
 * a metric of a condition cannot be computed). */
double tt_obj_violation(const tt_objective *o, const double *bound, const tt_metrics *x);
/* Whether candidate (objective a, violation va) ranks before (b, vb). A
 * candidate whose objective or constraints cannot be computed (NAN) ranks
 * after every other: it is never the best while one can be. */
int tt_obj_ranks_before(double a, double va, double b, double vb);

/* ---- the tuner and its cache (tune.c) ---- */

struct tt_tune {
    tt_params base;
    int nd;
    tt_tune_dim dims[TT_TUNE_MAX_DIMS];
    double *coord[TT_TUNE_MAX_DIMS]; /* the surrogate's coordinate of each value */
    int64_t grid;
    const tt_objective *obj;
    tt_tune_row *rows;
    int64_t nrows, cap;
    tt_cset cache; /* the rows by configuration: every parameter (tt_tune_cache_find) */
    /* with a trace (tt_tune_set_canon): the rows simulated, by canonical
     * form, so a configuration of a known form costs no simulation */
    int have_canon;
    tt_canon canon;
    tt_cset sims;
    int64_t nsims;
    double gain; /* the last round's of the last search (tt_tune_last_gain) */
    int exact;     /* the last search ran every distinct form (tt_tune_last_exact) */
    double room;   /* the last search's room (tt_tune_last_room) */
    int64_t forms; /* the grid's distinct forms where it counted them, else -1 */
};


static inline uint64_t tt_tune_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* splitmix64: the one source of random choices */
static inline uint64_t tt_tune_rand(uint64_t *s)
{
    return tt_tune_mix64(*s += 0x9e3779b97f4a7c15ULL);
}

/* The value of integer parameter i in p (0 for one that is not). */
static inline int64_t tt_tune_param_get(const tt_params *p, int i)
{
    int64_t v = 0;
    return tt_param_int(p, i, &v) ? v : 0;
}

/* 1 for a parameter the tuner may search (params.c's table says which). */
static inline int tt_tune_searchable(int i) { return tt_param_searchable(i); }

/* The value of dimension d in p: a parameter, or a class's own timer. */
static inline int64_t tt_tune_dim_get(const tt_params *p, const tt_tune_dim *d)
{
    if (d->cls >= 0)
        return (d->param == TT_P_W0 ? p->class_w0 : p->class_w1)[d->cls];
    return tt_tune_param_get(p, d->param);
}

/* Lattice point id <-> value indices (the last dimension fastest). */
static inline void tt_tune_id_to_idx(const tt_tune *t, int64_t id, int64_t *idx)
{
    for (int d = t->nd - 1; d >= 0; d--) {
        idx[d] = id % t->dims[d].n;
        id /= t->dims[d].n;
    }
}

static inline int64_t tt_tune_idx_to_id(const tt_tune *t, const int64_t *idx)
{
    int64_t id = 0;
    for (int d = 0; d < t->nd; d++)
        id = id * t->dims[d].n + idx[d];
    return id;
}

/* The rows' phases as tt_tune_run_roles and tt_tune_rolling_run store
 * them (/tune/history/phase in tt/tune.h). */
enum { PHASE_SEARCH, PHASE_GRID, PHASE_SINGLE, PHASE_HINDSIGHT };

/* base waiting w for w0 and w1 in every class (strict consolidation: inf,
 * no-wait: 0): a class timer of its own would make the baseline something
 * else for that class. */
tt_params tt_tune_every_class_waits(const tt_params *base, int64_t w);

/* The row of p, or -1. */
int64_t tt_tune_cache_find(const tt_tune *t, const tt_params *p);
/* The canonical form of p over t's trace into f (p itself without one). */
void tt_tune_form(const tt_tune *t, const tt_params *p, tt_params *f);
/* A simulated row of f's canonical form (tt_tune_form), or -1. */
int64_t tt_tune_form_find(const tt_tune *t, const tt_params *f);
/* Simulates ps[0..n) with eval and appends their rows (pred: the model's
 * predictions, or NULL); a configuration whose canonical form a row or an
 * earlier one of ps has is not simulated but copied (tt_tune_row's
 * sim_row). */
int tt_tune_add_rows(tt_ctx *ctx, tt_tune *t, const tt_params *ps, const double *pred,
                     int64_t n, int phase, int round, tt_tune_eval_fn eval, void *arg);
/* The best among rows[0..n) of t (tt_objective_best over their metrics);
 * rows NULL: the first n rows. */
int tt_tune_best_of_rows(const tt_tune *t, const int64_t *rows, int64_t n, int64_t *best,
                         int *feasible);

/* ---- one search (search.c) ---- */

typedef struct {
    tt_ctx *ctx;
    tt_tune *t;
    const tt_tune_opts *o;
    tt_tune_eval_fn eval;
    void *arg;
    int64_t batch, spent;
    int64_t limit; /* the simulations this phase of the search may reach */
    int round;
    uint64_t rng;
    /* the lattice points proposed: their rows, and a set of their ids */
    int64_t *set, nset, capset;
    int64_t *ids, nids; /* open addressing, -1 empty; nids a power of 2 */
    int64_t nid_used;
    /* the batch being gathered; nsim of them need a simulation, the
     * others share the form of a row or of an earlier one of the batch
     * (forms: the batch's by form, with a tuner that has a trace) */
    tt_params *pend;
    double *pred;
    int64_t npend, nsim;
    tt_cset forms;
    /* the best of the set after each round, for the gain of the last */
    double best_obj;
    int best_feasible, have_best;
    double gain;
    /* exact: the first point of each distinct form of the grid, which
     * fit the budget; proposed without the bound on points */
    int exact;
    int64_t *exact_ids, nexact;
} tt_search;

/* The room left in this round: the least of the simulations left in the
 * budget, the points left in the batch, and the points left of
 * TT_TUNE_POINTS_PER_SIM x the budget (points that share a known form
 * take room in the batch, not in the budget). */
int64_t tt_search_room(const tt_search *s);
/* Whether lattice point id was proposed. */
int tt_search_proposed(tt_search *s, int64_t id);
/* Proposes lattice point id: a cached row joins the set at no cost; a new
 * one joins the batch while there is room, at no cost from the budget
 * when its canonical form is known or in the batch. 1 when it joined the
 * batch, 0 when not, < 0 on error. */
int tt_search_propose(tt_search *s, int64_t id, double pred);
/* Simulates the batch; its rows join the set. TT_ESTOPPED when the stop
 * callback says so first. */
int tt_search_flush(tt_search *s);
/* Points per dimension of the most even sub-lattice of at most limit
 * points, and that sub-lattice proposed. */
void tt_search_sub_counts(const tt_tune *t, int64_t limit, int64_t *k);
int tt_search_propose_sub(tt_search *s, const int64_t *k);
/* Proposes a Latin hypercube of k lattice points, paired by the seed. */
int tt_search_propose_lhs(tt_search *s, int64_t k);

/* The set's rows ranked best first (bounds over the set, into bound);
 * NULL when out of memory (said in s->ctx). */
typedef struct {
    double obj, viol;
    int64_t row;
} tt_search_ranked;
tt_search_ranked *tt_search_rank(tt_search *s, double *bound);
/* Whether ranked row i has the metrics of a row ranked before it: the
 * same configuration in effect (one canonical form, or forms the trace
 * does not tell apart), whose neighbours a strategy need not try as well;
 * without it a plateau of equal rows, free to look at, was walked point
 * by point until the search ran out of points before simulations. */
int tt_search_ranked_repeat(const tt_search *s, const tt_search_ranked *r, int64_t i);
/* The value indices of row r's parameters (every row of a set is a
 * lattice point). */
void tt_search_row_idx(const tt_tune *t, int64_t r, int64_t *idx);
/* Proposes the neighbours of row r at +-step[d] along every combination
 * of axes (only along single axes beyond 6 dimensions, or when axes_only). */
int tt_search_propose_around(tt_search *s, int64_t r, const int64_t *step, int axes_only,
                             double pred);

/* The model strategy (model.c). */
int tt_search_run_model(tt_search *s);
/* After a search that was not exact: how far below its best a
 * configuration it did not simulate may lie, by a surrogate fitted to
 * every point of the set (the least over those configurations of the mean
 * less TT_TUNE_ROOM_SD standard deviations, as a fraction of the best's
 * objective; 0 when none is left), into *room; NAN when it cannot be told
 * (fewer than 3 points or more than 4096, no usable length scale). 0 or a
 * code of the linear algebra; TT_ENOMEM. */
int tt_search_estimate_room(tt_search *s, double *room);

/* The end of every search (local.c): the simulations the global strategy
 * leaves to it, and its rounds, coordinate steps around the best points
 * until the budget is spent. */
int64_t tt_search_local_reserve(const tt_search *s);
int tt_search_run_local(tt_search *s);
/* After a round: the gain of the set's best over the round before. */
int tt_search_note_best(tt_search *s);

/* ---- for tests only ---- */

/* Whether x satisfies every condition of o with "best" bounds taken over
 * the n sets m. */
int tt_objective_feasible(const tt_objective *o, const tt_metrics *m, int64_t n,
                          const tt_metrics *x);
/* Whether a and b are one objective: the same terms and conditions, the
 * numbers equal as doubles (the texts may differ). */
int tt_objective_same(const tt_objective *a, const tt_objective *b);
/* 1 when la runs on the GPU. */
int tt_la_on_gpu(const tt_la *la);
/* The lower triangle of C (n x n) = alpha A A^T + beta C, A n x k; the
 * strict upper triangle is left alone. Codes as tt_la_gemm. */
int tt_la_syrk(tt_ctx *ctx, tt_la *la, int n, int k, double alpha, const double *a, int lda,
               double beta, double *c, int ldc);

#endif
