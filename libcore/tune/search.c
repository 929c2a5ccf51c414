/* The tuner's searches (tt_tune_search): the lattice points one search
 * proposes, gathered into rounds of simulations over the tuner's cache;
 * the grid and refine strategies; the model strategy is model.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt/tune.h"
#include "tune/tune_impl.h"

static int64_t *id_slot(tt_search *s, int64_t id)
{
    for (uint64_t h = tt_tune_mix64((uint64_t)id);; h++) {
        int64_t *p = &s->ids[h & (uint64_t)(s->nids - 1)];
        if (*p < 0 || *p == id)
            return p;
    }
}

int tt_search_proposed(tt_search *s, int64_t id) { return *id_slot(s, id) == id; }

static int grow_ids(tt_search *s)
{
    if (2 * (s->nid_used + 1) <= s->nids)
        return 0;
    int64_t old = s->nids, *o = s->ids;
    s->nids = old ? old * 2 : 1024;
    if (!(s->ids = (int64_t *)malloc((size_t)s->nids * sizeof *s->ids))) {
        s->ids = o;
        s->nids = old;
        return tt_err(s->ctx, TT_ENOMEM, "out of memory");
    }
    for (int64_t i = 0; i < s->nids; i++)
        s->ids[i] = -1;
    for (int64_t i = 0; i < old; i++)
        if (o[i] >= 0)
            *id_slot(s, o[i]) = o[i];
    free(o);
    return 0;
}

static int push_set(tt_search *s, int64_t row)
{
    if (s->nset == s->capset) {
        int64_t cap = s->capset ? s->capset * 2 : 256;
        int64_t *p = (int64_t *)realloc(s->set, (size_t)cap * sizeof *p);
        if (!p)
            return tt_err(s->ctx, TT_ENOMEM, "out of memory");
        s->set = p;
        s->capset = cap;
    }
    s->set[s->nset++] = row;
    return 0;
}

int64_t tt_search_room(const tt_search *s)
{
    if (s->exact) /* its points are the grid's forms, which fit the budget */
        return s->batch - s->npend;
    int64_t left = s->limit - s->spent - s->nsim, b = s->batch - s->npend;
    int64_t points = TT_TUNE_POINTS_PER_SIM * s->o->budget - s->nid_used;
    left = left < b ? left : b;
    return left < points ? left : points;
}

/* The form of pending point k, for the batch's set of forms. */
static const tt_params *pend_form(void *arg, int64_t k, tt_params *scratch)
{
    const tt_search *s = (const tt_search *)arg;
    tt_tune_form(s->t, &s->pend[k], scratch);
    return scratch;
}

int tt_search_propose(tt_search *s, int64_t id, double pred)
{
    if (tt_search_proposed(s, id))
        return 0;
    tt_params p;
    tt_tune_point(s->t, id, &p);
    int64_t row = tt_tune_cache_find(s->t, &p);
    if (row < 0 && tt_search_room(s) <= 0)
        return 0;
    int rc = grow_ids(s);
    if (rc)
        return rc;
    *id_slot(s, id) = id;
    s->nid_used++;
    if (row >= 0)
        return push_set(s, row) ? TT_ENOMEM : 0;
    /* a form simulated already, or in this batch, costs no simulation */
    int known = 0;
    if (s->t->have_canon) {
        tt_params f;
        tt_tune_form(s->t, &p, &f);
        uint64_t h = tt_canon_hash(&f);
        known = tt_tune_form_find(s->t, &f) >= 0 || tt_cset_find(&s->forms, &f, h) >= 0;
        if (!known && (rc = tt_cset_add(s->ctx, &s->forms, s->npend, h)))
            return rc;
    }
    s->nsim += !known;
    s->pend[s->npend] = p;
    s->pred[s->npend++] = pred;
    return 1;
}

int tt_search_flush(tt_search *s)
{
    if (s->o->stop && s->o->stop(s->o->stop_arg))
        return tt_err(s->ctx, TT_ESTOPPED, "stopped");
    int64_t first = s->t->nrows, sims = s->t->nsims;
    int rc = tt_tune_add_rows(s->ctx, s->t, s->pend, s->pred, s->npend, s->o->phase, s->round,
                              s->eval, s->arg);
    for (int64_t r = first; !rc && r < s->t->nrows; r++)
        rc = push_set(s, r);
    s->spent += s->t->nsims - sims;
    s->npend = s->nsim = 0;
    tt_cset_clear(&s->forms);
    if (!rc)
        rc = tt_search_note_best(s);
    if (!rc && s->o->progress)
        s->o->progress(s->o->progress_arg, s->round, s->spent, s->o->budget);
    s->round++;
    return rc;
}

/* One more point along each dimension in turn while the sub-lattice fits. */
void tt_search_sub_counts(const tt_tune *t, int64_t limit, int64_t *k)
{
    int64_t prod = 1;
    for (int d = 0; d < t->nd; d++)
        k[d] = 1;
    for (int grew = 1; grew;) {
        grew = 0;
        for (int d = 0; d < t->nd; d++)
            if (k[d] < t->dims[d].n && prod / k[d] * (k[d] + 1) <= limit) {
                prod = prod / k[d] * (k[d] + 1);
                k[d]++;
                grew = 1;
            }
    }
}

/* Value index j of k spread evenly over n (both ends; the middle for k = 1). */
static int64_t sub_index(int64_t j, int64_t k, int64_t n)
{
    return k == 1 ? (n - 1) / 2 : (2 * j * (n - 1) + (k - 1)) / (2 * (k - 1));
}

int tt_search_propose_sub(tt_search *s, const int64_t *k)
{
    int64_t j[TT_TUNE_MAX_DIMS] = {0}, idx[TT_TUNE_MAX_DIMS];
    for (;;) {
        for (int d = 0; d < s->t->nd; d++)
            idx[d] = sub_index(j[d], k[d], s->t->dims[d].n);
        int rc = tt_search_propose(s, tt_tune_idx_to_id(s->t, idx), NAN);
        if (rc < 0)
            return rc;
        int d = s->t->nd - 1;
        while (d >= 0 && ++j[d] == k[d])
            j[d--] = 0;
        if (d < 0)
            return 0;
    }
}

/* Along each axis the values spread evenly over the k points (every
 * value at least once when k is at least their number, both ends when
 * k > 1), paired at random: a sub-lattice of as many points has few values
 * of each axis (3 x 2 x 2 for 12 points of a 7 x 6 x 5 lattice) and on
 * real traces misses the one good theta as often as not. */
int tt_search_propose_lhs(tt_search *s, int64_t k)
{
    const tt_tune *t = s->t;
    int64_t *col = (int64_t *)malloc((size_t)(k * t->nd) * sizeof *col);
    if (!col)
        return tt_err(s->ctx, TT_ENOMEM, "out of memory");
    for (int d = 0; d < t->nd; d++) {
        int64_t n = t->dims[d].n, *c = col + (size_t)d * (size_t)k;
        for (int64_t i = 0; i < k; i++)
            c[i] = k >= n ? i * n / k : sub_index(i, k, n);
        for (int64_t i = k - 1; i > 0; i--) {
            int64_t j = (int64_t)(tt_tune_rand(&s->rng) % (uint64_t)(i + 1)), v = c[i];
            c[i] = c[j];
            c[j] = v;
        }
    }
    int rc = 0;
    for (int64_t i = 0; i < k && !rc; i++) {
        int64_t idx[TT_TUNE_MAX_DIMS];
        for (int d = 0; d < t->nd; d++)
            idx[d] = col[(size_t)d * (size_t)k + (size_t)i];
        int got = tt_search_propose(s, tt_tune_idx_to_id(t, idx), NAN);
        rc = got < 0 ? got : 0;
    }
    free(col);
    return rc;
}

static int cmp_ranked(const void *a, const void *b)
{
    const tt_search_ranked *x = (const tt_search_ranked *)a, *y = (const tt_search_ranked *)b;
    if (tt_obj_ranks_before(x->obj, x->viol, y->obj, y->viol))
        return -1;
    if (tt_obj_ranks_before(y->obj, y->viol, x->obj, x->viol))
        return 1;
    return (x->row > y->row) - (x->row < y->row);
}

tt_search_ranked *tt_search_rank(tt_search *s, double *bound)
{
    tt_metrics *m = (tt_metrics *)malloc((size_t)(s->nset + 1) * sizeof *m);
    tt_search_ranked *r = (tt_search_ranked *)malloc((size_t)(s->nset + 1) * sizeof *r);
    if (!m || !r) {
        free(m);
        free(r);
        tt_err(s->ctx, TT_ENOMEM, "out of memory");
        return NULL;
    }
    for (int64_t i = 0; i < s->nset; i++)
        m[i] = s->t->rows[s->set[i]].metrics;
    tt_obj_bounds(s->t->obj, m, sizeof *m, s->nset, bound);
    for (int64_t i = 0; i < s->nset; i++) {
        const tt_tune_row *w = &s->t->rows[s->set[i]];
        r[i].obj = w->objective;
        r[i].viol = tt_obj_violation(s->t->obj, bound, &w->metrics);
        r[i].row = s->set[i];
    }
    free(m);
    qsort(r, (size_t)s->nset, sizeof *r, cmp_ranked);
    return r;
}

int tt_search_ranked_repeat(const tt_search *s, const tt_search_ranked *r, int64_t i)
{
    const tt_metrics *m = &s->t->rows[r[i].row].metrics;
    for (int64_t j = i - 1; j >= 0 && r[j].obj == r[i].obj && r[j].viol == r[i].viol; j--)
        if (memcmp(&s->t->rows[r[j].row].metrics, m, sizeof *m) == 0)
            return 1;
    return 0;
}

void tt_search_row_idx(const tt_tune *t, int64_t r, int64_t *idx)
{
    for (int d = 0; d < t->nd; d++) {
        int64_t v = tt_tune_dim_get(&t->rows[r].params, &t->dims[d]), lo = 0, hi = t->dims[d].n;
        while (lo + 1 < hi) { /* the values are sorted */
            int64_t mid = (lo + hi) / 2;
            if (t->dims[d].v[mid] <= v)
                lo = mid;
            else
                hi = mid;
        }
        idx[d] = lo;
    }
}

int tt_search_propose_around(tt_search *s, int64_t r, const int64_t *step, int axes_only,
                             double pred)
{
    const tt_tune *t = s->t;
    int64_t c[TT_TUNE_MAX_DIMS], idx[TT_TUNE_MAX_DIMS];
    tt_search_row_idx(t, r, c);
    int64_t combos = 1;
    int full = !axes_only && t->nd <= 6;
    for (int d = 0; full && d < t->nd; d++)
        combos *= 3;
    int64_t n = full ? combos : 2 * t->nd;
    for (int64_t k = 0; k < n && tt_search_room(s) > 0; k++) {
        int moved = 0;
        for (int d = 0, q = (int)k; d < t->nd; d++) {
            int o = full ? q % 3 - 1 : (k / 2 == d ? (k % 2 ? 1 : -1) : 0);
            if (full)
                q /= 3;
            idx[d] = c[d] + o * step[d];
            idx[d] = idx[d] < 0 ? 0 : idx[d] >= t->dims[d].n ? t->dims[d].n - 1 : idx[d];
            moved |= idx[d] != c[d];
        }
        if (!moved)
            continue;
        int rc = tt_search_propose(s, tt_tune_idx_to_id(t, idx), pred);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int run_grid(tt_search *s)
{
    int64_t k[TT_TUNE_MAX_DIMS];
    tt_search_sub_counts(s->t, s->o->budget, k);
    s->batch = s->o->budget;
    int rc = tt_search_propose_sub(s, k);
    return rc ? rc : tt_search_flush(s);
}

static int run_refine(tt_search *s)
{
    const tt_tune *t = s->t;
    int64_t k[TT_TUNE_MAX_DIMS], step[TT_TUNE_MAX_DIMS];
    /* round 0: as many points as the most even sub-lattice of a batch (its
     * spacing is the one the rounds halve): the most even sub-lattice of
     * half of them, both ends of every axis (strict consolidation, no
     * waiting: on Philly a corner was the best), then a Latin hypercube,
     * every value of every axis (the sub-lattice alone missed the one good
     * theta of a trace as often as not) */
    int64_t half[TT_TUNE_MAX_DIMS], n0 = 1;
    tt_search_sub_counts(t, s->batch < s->limit ? s->batch : s->limit, k);
    for (int d = 0; d < t->nd; d++)
        n0 *= k[d];
    tt_search_sub_counts(t, n0 / 2 > 1 ? n0 / 2 : 1, half);
    int rc = tt_search_propose_sub(s, half);
    if (!rc)
        rc = tt_search_propose_lhs(s, n0 - s->npend > 0 ? n0 - s->npend : 0);
    if (rc || (rc = tt_search_flush(s)))
        return rc;
    for (int d = 0; d < t->nd; d++)
        step[d] = k[d] > 1 ? (t->dims[d].n - 1 + k[d] - 2) / (k[d] - 1) : t->dims[d].n;
    while (s->spent < s->limit) {
        int fine = 1;
        for (int d = 0; d < t->nd; d++) {
            step[d] = step[d] > 1 ? (step[d] + 1) / 2 : 1;
            fine &= step[d] == 1;
        }
        double bound[TT_OBJ_MAX_CONDS];
        tt_search_ranked *r = tt_search_rank(s, bound);
        if (!r)
            return TT_ENOMEM;
        int64_t nr = s->nset; /* r's length: a flush in a proposal adds rows */
        for (int64_t i = 0; i < nr && tt_search_room(s) > 0 && !rc; i++)
            if (!tt_search_ranked_repeat(s, r, i))
                rc = tt_search_propose_around(s, r[i].row, step, 0, NAN);
        free(r);
        if (rc)
            return rc;
        if (s->npend == 0 && fine)
            break; /* every neighbour of every point is known */
        if (s->npend > 0 && (rc = tt_search_flush(s)))
            return rc;
    }
    return 0;
}

/* ---- exact: every distinct form of the grid, when they fit ---- */

/* The form of lattice point id, for the set of the grid's forms. */
static const tt_params *point_form(void *arg, int64_t id, tt_params *scratch)
{
    const tt_tune *t = (const tt_tune *)arg;
    tt_params p;
    tt_tune_point(t, id, &p);
    tt_tune_form(t, &p, scratch);
    return scratch;
}

/* The distinct forms of the grid counted into t->forms (unless the grid
 * has more than TT_TUNE_EXACT_POINTS points and more than the budget),
 * and the first lattice point of each, in lattice order, into
 * s->exact_ids (s->nexact of them) while the forms that no row has yet
 * fit the budget: 1 when they all do, else 0; < 0 on error. Without a
 * trace every point is a form of its own. */
static int exact_points(tt_search *s)
{
    tt_tune *t = s->t;
    if (t->grid > TT_TUNE_EXACT_POINTS && t->grid > s->o->budget)
        return 0;
    tt_cset set;
    tt_cset_init(&set, point_form, t);
    int64_t cap = 0, fresh = 0, forms = 0;
    int rc = 0, fits = 1;
    for (int64_t k = 0; k < t->grid && !rc; k++) {
        tt_params p, f;
        tt_tune_point(t, k, &p);
        tt_tune_form(t, &p, &f);
        uint64_t h = tt_canon_hash(&f);
        if (t->have_canon && tt_cset_find(&set, &f, h) >= 0)
            continue;
        if (t->have_canon && (rc = tt_cset_add(s->ctx, &set, k, h)))
            break;
        forms++;
        if (!fits)
            continue; /* counted on, for what the search says it left */
        if (s->nexact == cap) {
            cap = cap ? 2 * cap : 256;
            int64_t *v = (int64_t *)realloc(s->exact_ids, (size_t)cap * sizeof *v);
            if (!v) {
                rc = tt_err(s->ctx, TT_ENOMEM, "out of memory");
                break;
            }
            s->exact_ids = v;
        }
        s->exact_ids[s->nexact++] = k;
        fresh += tt_tune_form_find(t, &f) < 0 && tt_tune_cache_find(t, &p) < 0;
        fits = fresh <= s->o->budget;
    }
    tt_cset_free(&set);
    if (!rc)
        t->forms = forms;
    return rc ? rc : fits;
}

/* Every distinct form of the grid, a batch a round: the grid's best. */
static int run_exact(tt_search *s)
{
    int rc = 0;
    s->exact = 1;
    for (int64_t i = 0; i < s->nexact && !rc; i++) {
        if (tt_search_room(s) <= 0)
            rc = tt_search_flush(s);
        int got = rc ? 0 : tt_search_propose(s, s->exact_ids[i], NAN);
        rc = got < 0 ? got : rc;
    }
    if (!rc && s->npend > 0)
        rc = tt_search_flush(s);
    s->gain = 0.0; /* nothing is left that a larger budget would find */
    return rc;
}

int tt_tune_search(tt_ctx *ctx, tt_tune *t, const tt_tune_opts *o, tt_tune_eval_fn eval,
                   void *arg, int64_t *best)
{
    if (!o || !eval || o->budget < 1)
        return tt_err(ctx, TT_EINVAL, "a search needs a budget of at least 1 simulation");
    tt_search s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.t = t;
    s.o = o;
    s.eval = eval;
    s.arg = arg;
    s.rng = o->seed;
    s.batch = o->batch > 0 ? o->batch : tt_tune_default_batch(o->budget);
    tt_cset_init(&s.forms, pend_form, &s);
    s.limit = o->budget;
    t->exact = 0;
    t->forms = -1;
    t->room = o->strategy == TT_TUNE_GRID ? NAN : 0.0; /* an exact search leaves none */
    int64_t cap = (o->strategy == TT_TUNE_GRID ? o->budget : s.batch) + 1;
    s.pend = (tt_params *)malloc((size_t)cap * sizeof *s.pend);
    s.pred = (double *)malloc((size_t)cap * sizeof *s.pred);
    int rc = s.pend && s.pred ? grow_ids(&s) : tt_err(ctx, TT_ENOMEM, "out of memory");
    /* every distinct form when they fit (not for the grid: a baseline);
     * else the global strategy, then the local steps with what it left */
    int exact = !rc && o->strategy != TT_TUNE_GRID ? exact_points(&s) : 0;
    rc = exact < 0 ? exact : rc;
    if (!rc && exact > 0) {
        rc = run_exact(&s);
        t->exact = !rc;
    } else if (!rc) {
        if (o->strategy != TT_TUNE_GRID)
            s.limit = o->budget - tt_search_local_reserve(&s);
        rc = o->strategy == TT_TUNE_GRID     ? run_grid(&s)
             : o->strategy == TT_TUNE_REFINE ? run_refine(&s)
                                             : tt_search_run_model(&s);
        s.limit = o->budget;
        if (!rc && o->strategy != TT_TUNE_GRID)
            rc = tt_search_run_local(&s);
        /* how far from the grid's best its choice may be, by a surrogate */
        if (!rc && o->strategy != TT_TUNE_GRID)
            rc = tt_search_estimate_room(&s, &t->room);
    }
    t->gain = s.gain;
    if (!rc)
        rc = tt_tune_best_of_rows(t, s.set, s.nset, best, NULL);
    free(s.pend);
    free(s.pred);
    free(s.set);
    free(s.ids);
    free(s.exact_ids);
    tt_cset_free(&s.forms);
    return rc;
}
